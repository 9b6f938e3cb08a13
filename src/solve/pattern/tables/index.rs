//! Ranking the placements of a pattern's tiles: the index of a table entry,
//! and the tables that let the search and the builder update it a move at a
//! time (see the [`super`] docs, "Index").

use super::spec::{binomial, factorial, MAX_SIDE};
use std::sync::OnceLock;

/// A set of cells as a bitmask of the width the board needs: `u16` for 4x4,
/// `u32` for 5x5, so that the 4x4 search keeps its 64-byte nodes.
pub trait CellSet: Copy + Default + Eq + std::fmt::Debug + Send + Sync + 'static {
    /// Bytes in the mask that may hold cells.
    const BYTES: usize;
    /// The mask widened.
    fn bits(self) -> u32;
    /// A mask from its bits (which must fit).
    fn from_bits(bits: u32) -> Self;
}

impl CellSet for u16 {
    const BYTES: usize = 2;
    #[inline(always)]
    fn bits(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn from_bits(bits: u32) -> u16 {
        bits as u16
    }
}

impl CellSet for u32 {
    const BYTES: usize = 4;
    #[inline(always)]
    fn bits(self) -> u32 {
        self
    }
    #[inline(always)]
    fn from_bits(bits: u32) -> u32 {
        bits
    }
}

/// Bits of a rank part in [`Indexer`]'s `comb_part` (the parts of a 5x5 rank
/// are below `C(25, 8)`, about 2^20); the row of the next byte sits above them.
const PART_BITS: u32 = 21;
/// Entries of `comb_part`: rows for all four bytes of a `u32` mask and `k <= 8`
/// (`1 + 3 * 9` rows of 256), rounded up to a power of two so that a masked
/// index needs no bounds check.
const PART_LEN: usize = 8192;

/// Ranking of `k`-tile placements on a board (see the module docs) and the
/// permutation tables that make updates incremental.
pub struct Indexer {
    side: usize,
    k: usize,
    fact: usize,
    /// The rank of a `k`-subset, one table a byte of its mask so that the tables
    /// stay in L1 (a 65536-entry 4x4 table measured 9% slower searches). A set
    /// whose lowest elements are `c_0 < c_1 < ...` has the colexicographic rank
    /// `sum C(c_i, i + 1)`; `comb_part[row(b, j) * 256 + x]` holds, in its low
    /// [`PART_BITS`] bits, the part of that sum contributed by byte `b` of the
    /// mask when it is `x` and `j` elements lie in the bytes below it
    /// ([`Indexer::part_row_for`]), and above them the row of byte `b + 1`
    /// (`j` plus the elements of `x`), so that ranking needs no bit count.
    comb_part: Box<[u32; PART_LEN]>,
    /// `weight[t] = (k - 1 - t)!`, the place value of tile `t` in a permutation rank.
    weight: [usize; 8],
    /// The `k`-subsets in rank order.
    comb_mask: Vec<u32>,
    /// Permutation rank to the local tile in each slot.
    unrank: Vec<[u8; 8]>,
    /// `rot[(i * k + j) * k! + p]`: rank of the permutation after the tile in slot
    /// `i` moves to slot `j` and the slots between shift over by one. Built on
    /// first use: the builder needs it, the searcher does not (it takes 70 ms for
    /// 8 tiles, a third of loading).
    rot: OnceLock<Vec<u16>>,
}

impl Indexer {
    /// Tables for `k`-tile patterns (`1 <= k <= 8`) on a `side`-wide board.
    pub fn new(side: usize, k: usize) -> Indexer {
        assert!((1..=8).contains(&k) && (2..=MAX_SIDE).contains(&side));
        let cells = side * side;
        let fact = factorial(k);
        let mut comb_mask = Vec::with_capacity(binomial(cells, k));
        // Masks with k bits in increasing order (Gosper's hack).
        let mut mask: u64 = (1 << k) - 1;
        while mask < 1 << cells {
            comb_mask.push(mask as u32);
            let low = mask & mask.wrapping_neg();
            let ripple = mask + low;
            mask = ripple | (((mask ^ ripple) >> 2) / low);
        }
        // Rows for all four bytes of a u32, so that any mask type can be ranked.
        let bytes = 4;
        let mut comb_part = Box::new([0u32; PART_LEN]);
        for b in 0..bytes {
            for j in 0..=if b == 0 { 0 } else { k } {
                let row = Indexer::part_row_for(k, b, j) as usize;
                for x in 0..256usize {
                    let mut sum = 0;
                    let mut i = j;
                    for p in 0..8 {
                        if x & (1 << p) != 0 {
                            sum += binomial(8 * b + p, i + 1);
                            i += 1;
                        }
                    }
                    if i > k || (x as u64) << (8 * b) >= 1 << cells {
                        // More than k elements, or cells past the board: never
                        // ranked.
                        sum = 0;
                    }
                    assert!(sum < 1 << PART_BITS, "rank parts fit");
                    let next = if b + 1 < bytes && i <= k {
                        Indexer::part_row_for(k, b + 1, i)
                    } else {
                        0
                    };
                    comb_part[row * 256 + x] = sum as u32 | next << PART_BITS;
                }
            }
        }
        let mut unrank = Vec::with_capacity(fact);
        for r in 0..fact {
            unrank.push(unrank_perm(k, r));
        }
        let mut weight = [0; 8];
        for (t, w) in weight.iter_mut().enumerate().take(k) {
            *w = factorial(k - 1 - t);
        }
        let ix = Indexer {
            side,
            k,
            fact,
            comb_part,
            weight,
            comb_mask,
            unrank,
            rot: OnceLock::new(),
        };
        debug_assert_eq!(ix.comb_mask.len(), binomial(cells, k));
        ix
    }

    /// The one indexer for `k`-tile patterns on a `side`-wide board, made on
    /// first use and kept for the life of the process: the tables of a search
    /// share its rank tables, which then stay in the first-level cache (one
    /// copy a table took 180 KB for the eight 5x5 tables).
    pub fn shared(side: usize, k: usize) -> &'static Indexer {
        static SHARED: [[OnceLock<Indexer>; 8]; MAX_SIDE - 1] =
            [const { [const { OnceLock::new() }; 8] }; MAX_SIDE - 1];
        assert!((1..=8).contains(&k) && (2..=MAX_SIDE).contains(&side));
        SHARED[side - 2][k - 1].get_or_init(|| Indexer::new(side, k))
    }

    /// The row of byte `b` with `j` elements below in `comb_part` (each row has
    /// 256 entries). Byte 0 always has `j = 0`, so it has one row; every other
    /// byte has `k + 1`.
    const fn part_row_for(k: usize, b: usize, j: usize) -> u32 {
        if b == 0 {
            0
        } else {
            (1 + (b - 1) * (k + 1) + j) as u32
        }
    }

    /// The board's side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Cells on the board.
    pub fn cells(&self) -> usize {
        self.side * self.side
    }

    /// Pattern size `k`.
    pub fn k(&self) -> usize {
        self.k
    }

    /// `k!`, the number of permutations per set of occupied cells.
    pub fn fact(&self) -> usize {
        self.fact
    }

    /// Number of sets of occupied cells, `C(cells, k)`.
    pub fn combos(&self) -> usize {
        self.comb_mask.len()
    }

    /// Rank of the set of occupied cells `mask` (which must have `k` bits), with
    /// as many byte lookups as the mask type has bytes.
    #[inline(always)]
    pub fn comb_rank_of<M: CellSet>(&self, mask: M) -> usize {
        let bits = mask.bits();
        let part = self.comb_part[(bits & 0xff) as usize];
        let mut rank = part & ((1 << PART_BITS) - 1);
        let mut row = part >> PART_BITS;
        for b in 1..M::BYTES {
            let x = (bits >> (8 * b)) & 0xff;
            let part = self.comb_part[(row as usize * 256 + x as usize) & (PART_LEN - 1)];
            rank += part & ((1 << PART_BITS) - 1);
            row = part >> PART_BITS;
        }
        rank as usize
    }

    /// Rank of the set of occupied cells `mask` (which must have `k` bits).
    pub fn comb_rank(&self, mask: u32) -> usize {
        self.comb_rank_of(mask)
    }

    /// The set of occupied cells of rank `rank`.
    pub fn comb_mask(&self, rank: usize) -> u32 {
        self.comb_mask[rank]
    }

    /// Local tiles slot by slot for permutation rank `rank`.
    pub fn unrank(&self, rank: usize) -> &[u8; 8] {
        &self.unrank[rank]
    }

    /// The permutation rank after the tile in slot `from` moves to slot `to`
    /// (`|from - to| < side`).
    #[inline(always)]
    #[cfg(test)]
    pub fn rotate(&self, from: usize, to: usize, perm: usize) -> usize {
        self.rotations()[(from * self.k + to) * self.fact + perm] as usize
    }

    /// The rotation table (see the `rot` field), built on first use.
    pub(super) fn rotations(&self) -> &[u16] {
        self.rot.get_or_init(|| {
            let (k, fact, unrank) = (self.k, self.fact, &self.unrank);
            let mut rot = vec![0u16; k * k * fact];
            for i in 0..k {
                for j in 0..k {
                    // Only runs of up to `side` slots occur (an up/down move
                    // passes at most side - 1 cells).
                    if i.abs_diff(j) >= self.side {
                        continue;
                    }
                    for (r, perm) in unrank.iter().enumerate() {
                        let mut p = *perm;
                        let t = p[i];
                        if i < j {
                            p.copy_within(i + 1..=j, i);
                        } else {
                            p.copy_within(j..i, j + 1);
                        }
                        p[j] = t;
                        rot[(i * k + j) * fact + r] = rank_perm(&p[..k]) as u16;
                    }
                }
            }
            rot
        })
    }

    /// Table index of a placement given as `(mask, perm)`.
    #[inline(always)]
    pub fn index_of<M: CellSet>(&self, mask: M, perm: usize) -> usize {
        self.comb_rank_of(mask) * self.fact + perm
    }

    /// Table index of a placement given as `(mask, perm)`.
    pub fn index(&self, mask: u32, perm: usize) -> usize {
        self.index_of(mask, perm)
    }

    /// The occupied-cell mask and permutation rank of a placement, given the cell of
    /// each local tile.
    #[cfg(test)]
    pub fn locate(&self, cell_of_tile: &[u8]) -> (u32, usize) {
        assert_eq!(cell_of_tile.len(), self.k);
        let mut mask = 0u32;
        for &c in cell_of_tile {
            mask |= 1 << c;
        }
        let mut perm = [0u8; 8];
        for (t, &c) in cell_of_tile.iter().enumerate() {
            let slot = (mask & ((1u32 << c) - 1)).count_ones() as usize;
            perm[slot] = t as u8;
        }
        (mask, rank_perm(&perm[..self.k]))
    }

    /// The permutation rank of a placement read off a board: `local_at(c)` is
    /// the local tile on cell `c`, and the pattern tiles are exactly on the
    /// cells of `mask`.
    pub fn rank_cells(&self, mask: u32, local_at: impl Fn(usize) -> u8) -> usize {
        let mut slots = [0u8; 8];
        let mut m = mask;
        for slot in slots.iter_mut().take(self.k) {
            let c = m.trailing_zeros();
            m &= m - 1;
            *slot = local_at(c as usize);
        }
        rank_perm(&slots[..self.k])
    }

    /// The place value of local tile `t` in a permutation rank, `(k - 1 - t)!`.
    ///
    /// When tile `a` slides past the set `S` of pattern tiles that lie between its
    /// old and new cell (an up/down move passes at most `side - 1` cells), only
    /// the order of `a` against each tile of `S` flips, so the rank grows by
    /// `w(a) * #{x in S : x > a} - sum of w(x) over x in S with x < a` when `a`
    /// moves to a later cell, and shrinks by as much when it moves to an earlier one.
    #[inline(always)]
    pub fn weight(&self, t: usize) -> usize {
        self.weight[t & 7]
    }

    /// The new `(mask, perm)` after the pattern tile on cell `from` slides to the
    /// free neighbouring cell `to`.
    #[inline(always)]
    #[cfg(test)]
    pub fn slide(&self, mask: u32, perm: usize, from: usize, to: usize) -> (u32, usize) {
        let new_mask = mask ^ (1 << from) ^ (1 << to);
        if from.abs_diff(to) == 1 {
            // No occupied cell lies between: the order of the tiles is unchanged.
            return (new_mask, perm);
        }
        let i = (mask & ((1u32 << from) - 1)).count_ones() as usize;
        let j = (new_mask & ((1u32 << to) - 1)).count_ones() as usize;
        (new_mask, self.rotate(i, j, perm))
    }
}

pub fn rank_perm(p: &[u8]) -> usize {
    let mut inv = [0u8; 8];
    for (slot, &t) in p.iter().enumerate() {
        inv[t as usize] = slot as u8;
    }
    lex_rank(&inv[..p.len()])
}

/// Lexicographic rank of a sequence of distinct values `0..s.len()`.
fn lex_rank(s: &[u8]) -> usize {
    let k = s.len();
    let mut used = 0u32;
    let mut rank = 0;
    for (i, &v) in s.iter().enumerate() {
        let smaller_unused = (!used & ((1u32 << v) - 1)).count_ones() as usize;
        rank = rank * (k - i) + smaller_unused;
        used |= 1 << v;
    }
    rank
}

/// The permutation of rank `rank` (see [`rank_perm`]), slot by slot.
pub fn unrank_perm(k: usize, mut rank: usize) -> [u8; 8] {
    let mut digits = [0usize; 8];
    for i in (0..k).rev() {
        let radix = k - i;
        digits[i] = rank % radix;
        rank /= radix;
    }
    let mut inv = [0u8; 8];
    let mut used = 0u32;
    for i in 0..k {
        let mut d = digits[i];
        let mut v = 0;
        loop {
            if used & (1 << v) == 0 {
                if d == 0 {
                    break;
                }
                d -= 1;
            }
            v += 1;
        }
        inv[i] = v as u8;
        used |= 1 << v;
    }
    let mut out = [0u8; 8];
    for (t, &slot) in inv.iter().enumerate().take(k) {
        out[slot as usize] = t as u8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_ranks_round_trip() {
        for k in 1..=6 {
            for r in 0..factorial(k) {
                let p = unrank_perm(k, r);
                assert_eq!(rank_perm(&p[..k]), r);
            }
        }
    }

    #[test]
    fn combination_ranks_follow_mask_order() {
        for (side, k) in [(4, 1), (4, 5), (4, 7), (4, 8), (5, 1), (5, 3), (5, 6)] {
            let ix = Indexer::new(side, k);
            assert_eq!(ix.combos(), binomial(side * side, k));
            let mut last = None;
            for r in 0..ix.combos() {
                let mask = ix.comb_mask(r);
                assert!(last < Some(mask), "increasing masks");
                last = Some(mask);
                assert_eq!(ix.comb_rank(mask), r);
                if side == 4 {
                    assert_eq!(ix.comb_rank_of(mask as u16), r, "u16 ranking");
                }
            }
        }
    }

    #[test]
    fn rank_cells_matches_locate() {
        for (side, cells) in [
            (4, vec![14u8, 2, 9, 0, 7, 11, 4]),
            (5, vec![24u8, 2, 19, 0, 7, 11]),
        ] {
            let ix = Indexer::new(side, cells.len());
            // Local tile i sits on cells[i].
            let mut local_at = [u8::MAX; 25];
            for (i, &c) in cells.iter().enumerate() {
                local_at[c as usize] = i as u8;
            }
            let (mask, perm) = ix.locate(&cells);
            assert_eq!(ix.rank_cells(mask, |c| local_at[c]), perm);
        }
    }

    #[test]
    fn vertical_slides_update_ranks_by_weights() {
        let ix = Indexer::new(4, 6);
        // Local tile i on cells[i]; slide tile 0 from cell 1 down to 5 past the
        // tiles on cells 2, 3 and 4, then back up.
        let cells = [1u8, 3, 9, 4, 2, 12];
        let (_, before) = ix.locate(&cells);
        let mut after_cells = cells;
        after_cells[0] = 5;
        let (_, after) = ix.locate(&after_cells);
        // Tiles between: 4 (cell 2), 1 (cell 3), 3 (cell 4); all greater than 0.
        let delta = ix.weight(0) * 3;
        assert_eq!(after, before + delta);
        // Tile 3 (cell 4) slides up to cell 0 past tiles 0 (cell 1), 4 (2), 1 (3).
        let mut up = cells;
        up[3] = 0;
        let (_, moved) = ix.locate(&up);
        let delta = ix.weight(3) as i64 - ix.weight(0) as i64 - ix.weight(1) as i64;
        assert_eq!(moved as i64, before as i64 - delta);
    }

    #[test]
    fn slide_matches_locate() {
        // Local tile i sits on cells[i]; every slide must agree with ranking afresh.
        // (side, cell of each local tile, slides as (from, to)).
        type Case = (usize, Vec<u8>, Vec<(u8, u8)>);
        let cases: [Case; 2] = [
            (
                4,
                vec![0, 5, 6, 9, 14],
                vec![
                    (6, 10),
                    (0, 1),
                    (14, 13),
                    (13, 12),
                    (12, 8),
                    (1, 2),
                    (2, 6),
                    (9, 13),
                ],
            ),
            (
                5,
                vec![0, 2, 3, 4, 7, 24],
                // The tile on 7 moves away, then the one on 2 slides down
                // into 7 past the tiles on 3 and 4.
                vec![(7, 12), (2, 7), (24, 19), (19, 14), (0, 5), (5, 10)],
            ),
        ];
        for (side, start, moves) in cases {
            let ix = Indexer::new(side, start.len());
            let mut cells = start;
            let (mut m, mut p) = ix.locate(&cells);
            for (from, to) in moves {
                let t = cells.iter().position(|&c| c == from).unwrap();
                cells[t] = to;
                (m, p) = ix.slide(m, p, from as usize, to as usize);
                assert_eq!((m, p), ix.locate(&cells), "after {from} -> {to}");
            }
        }
    }
}
