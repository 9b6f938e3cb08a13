//! Greedy string tiling (Wise, "Running Karp-Rabin matching and greedy
//! string tiling", 1993): two normal forms covered by tiles, each a
//! stretch of one equal to a stretch of the other, no symbol in two tiles,
//! the longest tiles first; no tile shorter than `k` symbols. Tiles may
//! come in any order on either side: a block moved is still matched.
//!
//! The matches are found from the k-grams both sides share (their hashes
//! sorted and merged, each equal pair checked symbol by symbol), each
//! extended to a maximal match. Then the longest is laid first; a match
//! that meets a tile laid before it is cut to the stretches still free on
//! both sides, and those of `k` symbols or more wait their turn again. This
//! lays the tiles Wise's algorithm lays, in time about linear in the
//! documents and their matches, instead of its cubic worst case.

use super::emit::Sym;
use std::collections::BinaryHeap;

/// A side of a comparison: its symbols, which of them may not be matched
/// (the template's, the class's common passages), and its usable k-grams
/// sorted by hash (those of no excluded symbol).
pub struct Side<'a> {
    /// The normal form.
    pub syms: &'a [Sym],
    /// Which symbols no tile may cover.
    pub excluded: &'a [bool],
    /// `(hash, first symbol)` of each usable k-gram, sorted.
    pub grams: &'a [(u64, u32)],
    /// The hash of the k-gram at each symbol.
    pub hashes: &'a [u64],
}

/// A tile: where it begins on each side, and its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tile {
    /// Its first symbol in the first document.
    pub a: u32,
    /// Its first symbol in the second.
    pub b: u32,
    /// How many symbols.
    pub len: u32,
}

/// At most this many pairs of equal k-grams are tried for one hash (a
/// k-gram repeated many times on both sides would make a square of them).
const MAX_PAIRS_PER_HASH: usize = 64;

/// The tiles of two documents, no tile shorter than `k`, in the order they
/// were laid.
pub fn tile(a: &Side, b: &Side, k: usize) -> Vec<Tile> {
    let k = k.max(1);
    let mut matches = BinaryHeap::new();
    let (ga, gb) = (a.grams, b.grams);
    // Hashes with too many pairs to try: a match through one of them may
    // have its first k-gram untried, so it is walked back to its start.
    let mut crowded: Vec<u64> = Vec::new();
    shared_grams(ga, gb, &mut |xs, ys| {
        if xs.len() * ys.len() > MAX_PAIRS_PER_HASH {
            crowded.push(xs[0].0);
        }
    });
    crowded.sort_unstable();
    let mut starts = std::collections::HashSet::new();
    shared_grams(ga, gb, &mut |xs, ys| {
        let pairs = xs.iter().flat_map(|x| ys.iter().map(move |y| (x.1, y.1)));
        for (pa, pb) in pairs.take(MAX_PAIRS_PER_HASH) {
            if let Some(m) = maximal(a, b, pa as usize, pb as usize, k, &crowded) {
                if starts.insert((m.0.a, m.0.b)) {
                    matches.push(m);
                }
            }
        }
    });
    let mut used_a = vec![false; a.syms.len()];
    let mut used_b = vec![false; b.syms.len()];
    let mut tiles = Vec::new();
    // The longest match first; among equals, the first in `a`, then `b`.
    while let Some(Candidate(m)) = matches.pop() {
        let (pa, pb, len) = (m.a as usize, m.b as usize, m.len as usize);
        let free = (0..len).all(|d| !used_a[pa + d] && !used_b[pb + d]);
        if free {
            for d in 0..len {
                used_a[pa + d] = true;
                used_b[pb + d] = true;
            }
            tiles.push(m);
            continue;
        }
        // The stretches still free on both sides wait again.
        let mut d = 0;
        while d < len {
            while d < len && (used_a[pa + d] || used_b[pb + d]) {
                d += 1;
            }
            let start = d;
            while d < len && !used_a[pa + d] && !used_b[pb + d] {
                d += 1;
            }
            if d - start >= k {
                matches.push(Candidate(Tile {
                    a: (pa + start) as u32,
                    b: (pb + start) as u32,
                    len: (d - start) as u32,
                }));
            }
        }
    }
    tiles
}

/// K-grams as `Side::grams` holds them: `(hash, first symbol)`, sorted.
type Grams = [(u64, u32)];

/// Calls `f` with the k-grams of each hash both sorted lists hold: those
/// of `ga`, those of `gb`.
fn shared_grams(ga: &Grams, gb: &Grams, f: &mut dyn FnMut(&Grams, &Grams)) {
    let (mut i, mut j) = (0, 0);
    while i < ga.len() && j < gb.len() {
        match ga[i].0.cmp(&gb[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let hash = ga[i].0;
                let ie = ga[i..].iter().take_while(|g| g.0 == hash).count() + i;
                let je = gb[j..].iter().take_while(|g| g.0 == hash).count() + j;
                f(&ga[i..ie], &gb[j..je]);
                i = ie;
                j = je;
            }
        }
    }
}

/// A match waiting to be laid, longest first.
#[derive(PartialEq, Eq)]
struct Candidate(Tile);

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0
            .len
            .cmp(&other.0.len)
            .then(other.0.a.cmp(&self.0.a))
            .then(other.0.b.cmp(&self.0.b))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The maximal match through `pa` and `pb` if it begins there and is at
/// least `k` long. A match that begins before them is found from its own
/// first k-gram, unless that k-gram's hash is `crowded` (its pairs were
/// not all tried): then it is walked back to its beginning here.
fn maximal(
    a: &Side,
    b: &Side,
    mut pa: usize,
    mut pb: usize,
    k: usize,
    crowded: &[u64],
) -> Option<Candidate> {
    let same = |x: usize, y: usize| {
        x < a.syms.len()
            && y < b.syms.len()
            && !a.excluded[x]
            && !b.excluded[y]
            && a.syms[x] == b.syms[y]
    };
    if pa > 0 && pb > 0 && same(pa - 1, pb - 1) {
        if crowded.binary_search(&a.hashes[pa - 1]).is_err() {
            return None;
        }
        while pa > 0 && pb > 0 && same(pa - 1, pb - 1) {
            pa -= 1;
            pb -= 1;
        }
    }
    let mut len = 0;
    while same(pa + len, pb + len) {
        len += 1;
    }
    (len >= k).then_some(Candidate(Tile {
        a: pa as u32,
        b: pb as u32,
        len: len as u32,
    }))
}

/// The usable k-grams of a document: `(hash, first symbol)` of each whose
/// symbols are none excluded, sorted.
pub fn usable_grams(hashes: &[u64], excluded: &[bool], k: usize) -> Vec<(u64, u32)> {
    // Excluded symbols in each k-gram, counted as the window slides.
    let mut bad = excluded
        .iter()
        .take(k.saturating_sub(1))
        .filter(|&&x| x)
        .count();
    let mut grams = Vec::with_capacity(hashes.len());
    for (p, &h) in hashes.iter().enumerate() {
        if excluded[p + k - 1] {
            bad += 1;
        }
        if bad == 0 {
            grams.push((h, p as u32));
        }
        if excluded[p] {
            bad -= 1;
        }
    }
    grams.sort_unstable();
    grams
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::fingerprint::kgram_hashes;

    fn tiles_of(a: &[Sym], b: &[Sym], ea: &[bool], eb: &[bool], k: usize) -> Vec<Tile> {
        let (ha, hb) = (kgram_hashes(a, k), kgram_hashes(b, k));
        let (ga, gb) = (usable_grams(&ha, ea, k), usable_grams(&hb, eb, k));
        let sa = Side {
            syms: a,
            excluded: ea,
            grams: &ga,
            hashes: &ha,
        };
        let sb = Side {
            syms: b,
            excluded: eb,
            grams: &gb,
            hashes: &hb,
        };
        tile(&sa, &sb, k)
    }

    fn covered(tiles: &[Tile]) -> u32 {
        tiles.iter().map(|t| t.len).sum()
    }

    #[test]
    fn blocks_moved_are_matched_whole() {
        let x: Vec<Sym> = (0..20).collect();
        let y: Vec<Sym> = (100..130).collect();
        let a: Vec<Sym> = x.iter().chain(&y).copied().collect();
        let b: Vec<Sym> = y
            .iter()
            .chain([7, 7, 7].iter())
            .chain(&x)
            .copied()
            .collect();
        let (ea, eb) = (vec![false; a.len()], vec![false; b.len()]);
        let tiles = tiles_of(&a, &b, &ea, &eb, 5);
        assert_eq!(
            tiles,
            [
                Tile {
                    a: 20,
                    b: 0,
                    len: 30
                },
                Tile {
                    a: 0,
                    b: 33,
                    len: 20
                }
            ]
        );
    }

    #[test]
    fn the_longest_tile_is_laid_first_and_others_cut_around_it() {
        // b holds a's middle twice; the longer copy takes it.
        let a: Vec<Sym> = (0..30).collect();
        let mut b: Vec<Sym> = (10..20).collect();
        b.push(99);
        b.extend(5..25);
        let (ea, eb) = (vec![false; a.len()], vec![false; b.len()]);
        let tiles = tiles_of(&a, &b, &ea, &eb, 4);
        assert_eq!(
            tiles[0],
            Tile {
                a: 5,
                b: 11,
                len: 20
            }
        );
        assert_eq!(covered(&tiles), 20);
        // Nothing shorter than k.
        let tiles = tiles_of(&a, &b, &ea, &eb, 25);
        assert!(tiles.is_empty());
    }

    #[test]
    fn excluded_symbols_are_never_covered() {
        let a: Vec<Sym> = (0..40).collect();
        let mut ea = vec![false; 40];
        for e in &mut ea[10..15] {
            *e = true;
        }
        let eb = vec![false; 40];
        let tiles = tiles_of(&a, &a, &ea, &eb, 5);
        assert_eq!(covered(&tiles), 35);
        assert!(tiles.iter().all(|t| t.a + t.len <= 10 || t.a >= 15));
    }

    #[test]
    fn repeated_grams_do_not_make_a_square() {
        let a: Vec<Sym> = [1; 10_000].to_vec();
        let e = vec![false; a.len()];
        let tiles = tiles_of(&a, &a, &e, &e, 10);
        assert_eq!(covered(&tiles), 10_000);
    }
}
