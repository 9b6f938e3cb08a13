//! Additive pattern databases for the 4x4 puzzle: pattern specifications, the
//! ranking of pattern placements, the 4-bit packed tables, and their parallel
//! breadth-first construction.
//!
//! A pattern is a set of tiles, each named by its home cell. A table maps every
//! placement of the pattern tiles on the 16 cells to a lower bound on the number of
//! moves *of pattern tiles* needed to bring them all home. Following Korf & Felner
//! (2002, "Disjoint pattern database heuristics"), only pattern-tile moves are
//! counted, so the values of tables over disjoint patterns add up to an admissible
//! heuristic. Unlike the "blank-free" variant, the blank is modelled: it moves for
//! free through cells not occupied by pattern tiles and a pattern tile can only
//! move into the blank, and an entry is the minimum over all blank positions
//! (tables that ignore the blank were measured at 91x more search nodes).
//!
//! # Index
//!
//! A placement is ranked as `comb * k! + perm`, where `comb` is the rank of the set
//! of occupied cells among the `C(16, k)` `k`-subsets (in increasing order of their
//! bitmask) and `perm` ranks which tile sits in each occupied cell (the cells
//! taken in increasing order): it is the lexicographic rank of the inverse, the
//! slot of each tile in turn. Sliding a tile sideways keeps `perm`. Sliding it up
//! or down passes it over at most three occupied cells; only its order against
//! those tiles flips, so `perm` moves by a few place values ([`Indexer::weight`]).
//! The searcher thus updates indices with a handful of instructions, and the
//! builder maps whole bitsets (sideways) or bits through a small rotation table
//! (up or down).
//!
//! # Packing
//!
//! Every pattern-tile move changes the pattern's Manhattan distance by one, so a
//! value minus that distance is even; half of it is stored in 4 bits (two entries
//! a byte). The builder checks that no half-difference exceeds 15 (the largest is
//! 9 for the 8-tile table of rows 2-3).
//!
//! # Building
//!
//! A plain breadth-first search over (placement, blank cell) costs minutes (280 s
//! of CPU was measured for the 8-tile table). Here a state is (occupied set, blank
//! region, permutation), where the blank region is the connected component of
//! free cells that holds the blank (free moves inside it cost nothing). For each
//! (occupied set, region) pair the permutations form a bitset of `k!` bits, so a
//! sideways move maps a whole bitset word by word and an up/down move maps bit by
//! bit through a rotation table that stays in cache. The search runs level by
//! level (moves cost 1; free moves are folded into the region), pulling into each
//! target set from its predecessors so that the worker threads own disjoint parts
//! of the output (`std::thread::scope`). The 8-tile table (1.4 G states) takes
//! about 13 s of CPU, 7-8 s on two cores, with three bitsets of 178 MB and the
//! 259 MB output (0.65 GB peak).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// Cells on the board.
pub const CELLS: usize = 16;
/// Side of the board.
pub const SIDE: usize = 4;

const NOT_COL0: u16 = 0xEEEE;
const NOT_COL3: u16 = 0x7777;

/// The cells next to any cell of `x` (a bitmask of cells).
pub const fn neighbours(x: u16) -> u16 {
    ((x & NOT_COL3) << 1) | ((x & NOT_COL0) >> 1) | (x << 4) | (x >> 4)
}

/// The connected part of `free` that contains `cell` (empty if `cell` is not free).
pub fn component(free: u16, cell: usize) -> u16 {
    let mut region = (1u16 << cell) & free;
    loop {
        let grown = (region | neighbours(region)) & free;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// The connected parts of `free`, ordered by their lowest cell.
pub fn components(mut free: u16) -> Vec<u16> {
    let mut out = Vec::new();
    while free != 0 {
        let region = component(free, free.trailing_zeros() as usize);
        out.push(region);
        free &= !region;
    }
    out
}

/// Manhattan distance between two cells.
pub const fn manhattan(a: usize, b: usize) -> u32 {
    ((a / SIDE).abs_diff(b / SIDE) + (a % SIDE).abs_diff(b % SIDE)) as u32
}

const fn factorial(n: usize) -> usize {
    let mut f = 1;
    let mut i = 2;
    while i <= n {
        f *= i;
        i += 1;
    }
    f
}

const fn binomial(n: usize, k: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// What one table tracks: the pattern tiles (by home cell) and where the abstract
/// goal lets the blank be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PatternSpec {
    /// Home cells of the pattern tiles, one bit per cell.
    pub cells: u16,
    /// The free cells the blank may occupy in the goal: the connected part of the
    /// non-pattern cells that holds the real goal's blank. (When the non-pattern
    /// cells are connected this is all of them, and tables for different goal
    /// blanks coincide and are shared.)
    pub goal_region: u16,
}

impl PatternSpec {
    /// The pattern of the tiles whose home cells are in `cells`, for goals with the
    /// blank on `goal_blank` (which must not be one of `cells`).
    pub fn new(cells: u16, goal_blank: usize) -> PatternSpec {
        assert!(goal_blank < CELLS && cells & (1 << goal_blank) == 0);
        let k = cells.count_ones() as usize;
        assert!((1..=8).contains(&k), "patterns have 1 to 8 tiles");
        PatternSpec {
            cells,
            goal_region: component(!cells, goal_blank),
        }
    }

    /// Number of pattern tiles.
    pub fn tiles(&self) -> usize {
        self.cells.count_ones() as usize
    }

    /// Number of entries: placements of the pattern tiles, `16! / (16 - k)!`.
    pub fn entries(&self) -> usize {
        binomial(CELLS, self.tiles()) * factorial(self.tiles())
    }

    /// Bytes of the packed table (two entries a byte).
    pub fn packed_len(&self) -> usize {
        self.entries().div_ceil(2)
    }

    /// A short name, e.g. `8-ff00` or `7-00fe.1`, naming tiles and goal region.
    pub fn name(&self) -> String {
        format!(
            "{}-{:04x}.{:04x}",
            self.tiles(),
            self.cells,
            self.goal_region
        )
    }

    /// The home cells of the pattern tiles in increasing order; the tile at
    /// position `i` of this list is the pattern's local tile `i`.
    pub fn home_cells(&self) -> Vec<usize> {
        (0..CELLS).filter(|&c| self.cells & (1 << c) != 0).collect()
    }
}

/// Ranking of `k`-tile placements (see the module docs) and the permutation
/// tables that make updates incremental.
pub struct Indexer {
    k: usize,
    fact: usize,
    /// The rank of a `k`-subset, split by bytes of its mask so that the tables
    /// stay in L1 (a 65536-entry table measured 9% slower searches): subsets
    /// whose high byte is below `hi` come first (`hi_base[hi]` of them), then those
    /// with high byte `hi` and fewer lower bytes with the `hi_rest[hi]` remaining
    /// bits (`lo_rank[hi_rest[hi]][lo]`).
    hi_base: [u16; 256],
    hi_rest: [u8; 256],
    lo_rank: [[u16; 256]; 9],
    /// `weight[t] = (k - 1 - t)!`, the place value of tile `t` in a permutation rank.
    weight: [usize; 8],
    /// The `k`-subsets in rank order.
    comb_mask: Vec<u16>,
    /// Permutation rank to the local tile in each slot.
    unrank: Vec<[u8; 8]>,
    /// `rot[(i * k + j) * k! + p]`: rank of the permutation after the tile in slot
    /// `i` moves to slot `j` and the slots between shift over by one. Built on
    /// first use: the builder needs it, the searcher does not (it takes 70 ms for
    /// 8 tiles, a third of loading).
    rot: OnceLock<Vec<u16>>,
}

impl Indexer {
    /// Tables for `k`-tile patterns (`1 <= k <= 8`).
    pub fn new(k: usize) -> Indexer {
        assert!((1..=8).contains(&k));
        let fact = factorial(k);
        let mut comb_mask = Vec::with_capacity(binomial(CELLS, k));
        for mask in 0..(1u32 << CELLS) {
            if mask.count_ones() as usize == k {
                comb_mask.push(mask as u16);
            }
        }
        let mut lo_rank = [[0u16; 256]; 9];
        for (j, row) in lo_rank.iter_mut().enumerate() {
            let mut count = 0;
            for (lo, r) in row.iter_mut().enumerate() {
                *r = count;
                if (lo as u32).count_ones() as usize == j {
                    count += 1;
                }
            }
        }
        let (mut hi_base, mut hi_rest) = ([0u16; 256], [0u8; 256]);
        let mut base = 0;
        for hi in 0..256 {
            let rest = k.saturating_sub((hi as u32).count_ones() as usize);
            hi_base[hi] = base as u16;
            hi_rest[hi] = rest as u8;
            if (hi as u32).count_ones() as usize <= k && rest <= 8 {
                base += binomial(8, rest);
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
        Indexer {
            k,
            fact,
            hi_base,
            hi_rest,
            lo_rank,
            weight,
            comb_mask,
            unrank,
            rot: OnceLock::new(),
        }
    }

    /// Pattern size `k`.
    pub fn k(&self) -> usize {
        self.k
    }

    /// `k!`, the number of permutations per set of occupied cells.
    pub fn fact(&self) -> usize {
        self.fact
    }

    /// Number of sets of occupied cells, `C(16, k)`.
    pub fn combos(&self) -> usize {
        self.comb_mask.len()
    }

    /// Rank of the set of occupied cells `mask` (which must have `k` bits).
    #[inline(always)]
    pub fn comb_rank(&self, mask: u16) -> usize {
        let (hi, lo) = ((mask >> 8) as usize, (mask & 0xff) as usize);
        self.hi_base[hi] as usize + self.lo_rank[self.hi_rest[hi] as usize][lo] as usize
    }

    /// The set of occupied cells of rank `rank`.
    pub fn comb_mask(&self, rank: usize) -> u16 {
        self.comb_mask[rank]
    }

    /// Local tiles slot by slot for permutation rank `rank`.
    pub fn unrank(&self, rank: usize) -> &[u8; 8] {
        &self.unrank[rank]
    }

    /// The permutation rank after the tile in slot `from` moves to slot `to`
    /// (`|from - to| <= 3`).
    #[inline(always)]
    #[cfg(test)]
    pub fn rotate(&self, from: usize, to: usize, perm: usize) -> usize {
        self.rotations()[(from * self.k + to) * self.fact + perm] as usize
    }

    /// The rotation table (see the `rot` field), built on first use.
    fn rotations(&self) -> &[u16] {
        self.rot.get_or_init(|| {
            let (k, fact, unrank) = (self.k, self.fact, &self.unrank);
            let mut rot = vec![0u16; k * k * fact];
            for i in 0..k {
                for j in 0..k {
                    // Only runs of up to 4 slots occur (an up/down move passes at most 3 cells).
                    if i.abs_diff(j) > 3 {
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
    pub fn index(&self, mask: u16, perm: usize) -> usize {
        self.comb_rank(mask) * self.fact + perm
    }

    /// The occupied-cell mask and permutation rank of a placement, given the cell of
    /// each local tile.
    #[cfg(test)]
    pub fn locate(&self, cell_of_tile: &[u8]) -> (u16, usize) {
        assert_eq!(cell_of_tile.len(), self.k);
        let mut mask = 0u16;
        for &c in cell_of_tile {
            mask |= 1 << c;
        }
        let mut perm = [0u8; 8];
        for (t, &c) in cell_of_tile.iter().enumerate() {
            let slot = (mask & ((1u16 << c) - 1)).count_ones() as usize;
            perm[slot] = t as u8;
        }
        (mask, rank_perm(&perm[..self.k]))
    }

    /// The permutation rank of a placement read off a board: `board` holds a 4-bit
    /// tile number per cell, `local` maps tile numbers to local tiles, and the
    /// pattern tiles are exactly on the cells of `mask`.
    pub fn rank_cells(&self, mask: u16, board: u64, local: &[u8; 16]) -> usize {
        let mut slots = [0u8; 8];
        let mut m = mask;
        for slot in slots.iter_mut().take(self.k) {
            let c = m.trailing_zeros();
            m &= m - 1;
            *slot = local[((board >> (4 * c)) & 15) as usize];
        }
        rank_perm(&slots[..self.k])
    }

    /// The place value of local tile `t` in a permutation rank, `(k - 1 - t)!`.
    ///
    /// When tile `a` slides past the set `S` of pattern tiles that lie between its
    /// old and new cell (an up/down move passes at most 3 cells), only the order of
    /// `a` against each tile of `S` flips, so the rank grows by
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
    pub fn slide(&self, mask: u16, perm: usize, from: usize, to: usize) -> (u16, usize) {
        let new_mask = mask ^ (1 << from) ^ (1 << to);
        if from.abs_diff(to) == 1 {
            // No occupied cell lies between: the order of the tiles is unchanged.
            return (new_mask, perm);
        }
        let i = (mask & ((1u16 << from) - 1)).count_ones() as usize;
        let j = (new_mask & ((1u16 << to) - 1)).count_ones() as usize;
        (new_mask, self.rotate(i, j, perm))
    }
}

/// Rank of a permutation given slot by slot (`p[slot]` is the local tile there):
/// the lexicographic rank of its inverse (the slot of each tile in turn). Ranking
/// the inverse makes an up/down move a small arithmetic update (see
/// [`Indexer::weight`]).
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

/// A built or loaded table: the spec, its indexer and the packed half-differences.
pub struct Pdb {
    spec: PatternSpec,
    ix: Indexer,
    data: Vec<u8>,
}

impl Pdb {
    /// Wraps packed table bytes (as built by [`Pdb::build`] or read from the cache).
    pub fn from_packed(spec: PatternSpec, data: Vec<u8>) -> Pdb {
        assert_eq!(data.len(), spec.packed_len());
        Pdb {
            spec,
            ix: Indexer::new(spec.tiles()),
            data,
        }
    }

    /// Builds the table for `spec` on `threads` threads.
    pub fn build(spec: PatternSpec, threads: usize, progress: &mut dyn FnMut(u64, u64)) -> Pdb {
        let ix = Indexer::new(spec.tiles());
        let data = build_packed(&spec, &ix, threads, progress);
        Pdb { spec, ix, data }
    }

    /// What this table tracks.
    pub fn spec(&self) -> &PatternSpec {
        &self.spec
    }

    /// The placement ranking used by this table.
    pub fn indexer(&self) -> &Indexer {
        &self.ix
    }

    /// The packed bytes.
    pub fn packed(&self) -> &[u8] {
        &self.data
    }

    /// The stored half-difference at `index` (0..=15).
    #[inline(always)]
    pub fn half_excess(&self, index: usize) -> u32 {
        ((self.data[index >> 1] >> ((index & 1) << 2)) & 15) as u32
    }
}

/// Layout of the builder's state space: blocks of `k!` bits, one per (set of
/// occupied cells, blank region).
struct Layout {
    /// First block of each set of occupied cells; `block_base[combos]` is the total.
    block_base: Vec<u32>,
    /// The region mask of each block.
    region: Vec<u16>,
    /// Predecessor lists: `preds[pred_base[b]..pred_base[b + 1]]` for block `b`.
    pred_base: Vec<u32>,
    preds: Vec<Pred>,
}

/// One way into a block: from block `src`, mapping permutations through the
/// rotation `(from, to)` (or unchanged when `from == to`).
#[derive(Clone, Copy)]
struct Pred {
    src: u32,
    from: u8,
    to: u8,
}

impl Layout {
    fn new(ix: &Indexer) -> Layout {
        let combos = ix.combos();
        let mut block_base = Vec::with_capacity(combos + 1);
        let mut region = Vec::new();
        for s in 0..combos {
            block_base.push(region.len() as u32);
            region.extend(components(!ix.comb_mask(s)));
        }
        block_base.push(region.len() as u32);
        let block_of = |mask: u16, cell: usize| -> u32 {
            let s = ix.comb_rank(mask);
            let lo = block_base[s] as usize;
            let hi = block_base[s + 1] as usize;
            (lo..hi)
                .find(|&b| region[b] & (1 << cell) != 0)
                .expect("free cell lies in a region") as u32
        };
        let mut pred_base = Vec::with_capacity(region.len() + 1);
        let mut preds = Vec::new();
        for s in 0..combos {
            let mask = ix.comb_mask(s);
            for b in block_base[s]..block_base[s + 1] {
                pred_base.push(preds.len() as u32);
                let r = region[b as usize];
                // The last move slid a pattern tile from `c` (now free, in this
                // region) to its neighbour `n`; before it the blank was on `n`.
                for c in 0..CELLS {
                    if r & (1 << c) == 0 {
                        continue;
                    }
                    for n in 0..CELLS {
                        if mask & (1 << n) == 0 || manhattan(c, n) != 1 {
                            continue;
                        }
                        let src_mask = mask ^ (1 << n) ^ (1 << c);
                        let from = (src_mask & ((1u16 << c) - 1)).count_ones() as u8;
                        let to = (mask & ((1u16 << n) - 1)).count_ones() as u8;
                        preds.push(Pred {
                            src: block_of(src_mask, n),
                            from,
                            to,
                        });
                    }
                }
            }
        }
        pred_base.push(preds.len() as u32);
        Layout {
            block_base,
            region,
            pred_base,
            preds,
        }
    }

    fn blocks(&self) -> usize {
        self.region.len()
    }
}

/// The part of the builder's output one worker owns: a contiguous run of sets of
/// occupied cells, with their blocks and packed table bytes.
struct Chunk<'a> {
    s_lo: usize,
    s_hi: usize,
    visited: &'a mut [u64],
    next: &'a mut [u64],
    next_nonempty: &'a mut [bool],
    out: &'a mut [u8],
}

/// Breadth-first construction of the packed table (see the module docs).
fn build_packed(
    spec: &PatternSpec,
    ix: &Indexer,
    threads: usize,
    progress: &mut dyn FnMut(u64, u64),
) -> Vec<u8> {
    let k = ix.k();
    let fact = ix.fact();
    let words = fact.div_ceil(64);
    let layout = Layout::new(ix);
    let blocks = layout.blocks();
    // Built once here rather than by the first worker to need it.
    ix.rotations();
    let total = spec.entries() as u64;
    let home = spec.home_cells();

    let mut visited = vec![0u64; blocks * words];
    let mut cur = vec![0u64; blocks * words];
    let mut next = vec![0u64; blocks * words];
    let mut cur_nonempty = vec![false; blocks];
    let mut next_nonempty = vec![false; blocks];
    // 0xff marks "not yet set" while building; every entry gets set.
    let mut out = vec![0xffu8; spec.packed_len()];

    let s0 = ix.comb_rank(spec.cells);
    let b0 = (layout.block_base[s0]..layout.block_base[s0 + 1])
        .find(|&b| layout.region[b as usize] == spec.goal_region)
        .expect("goal region is a region of the goal placement") as usize;
    visited[b0 * words] = 1;
    cur[b0 * words] = 1;
    cur_nonempty[b0] = true;
    out[s0 * fact / 2] &= 0xf0;
    let mut done = 1u64;
    progress(done, total);

    let clamped = AtomicU64::new(0);
    let threads = threads.max(1);
    // Enough chunks to balance the load, each a whole number of bytes of output.
    let chunk_count = (threads * 32).min(ix.combos());
    let mut level = 0u32;
    loop {
        level += 1;
        let mut chunks = Vec::with_capacity(chunk_count);
        {
            let (mut vis_rest, mut next_rest, mut ne_rest, mut out_rest) = (
                &mut visited[..],
                &mut next[..],
                &mut next_nonempty[..],
                &mut out[..],
            );
            for c in 0..chunk_count {
                let s_lo = ix.combos() * c / chunk_count;
                let s_hi = ix.combos() * (c + 1) / chunk_count;
                let nb = (layout.block_base[s_hi] - layout.block_base[s_lo]) as usize;
                let (v, vr) = vis_rest.split_at_mut(nb * words);
                let (n, nr) = next_rest.split_at_mut(nb * words);
                let (e, er) = ne_rest.split_at_mut(nb);
                let (o, or) = out_rest.split_at_mut((s_hi - s_lo) * fact / 2);
                vis_rest = vr;
                next_rest = nr;
                ne_rest = er;
                out_rest = or;
                chunks.push(Chunk {
                    s_lo,
                    s_hi,
                    visited: v,
                    next: n,
                    next_nonempty: e,
                    out: o,
                });
            }
        }
        let queue = Mutex::new(chunks);
        let found = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut scratch = Scratch::new(words, k);
                    loop {
                        let chunk = queue.lock().expect("queue lock").pop();
                        let Some(mut chunk) = chunk else { break };
                        let (n, cl) = expand_chunk(
                            &mut chunk,
                            &mut scratch,
                            &layout,
                            ix,
                            &home,
                            &cur,
                            &cur_nonempty,
                            level,
                        );
                        found.fetch_add(n, Ordering::Relaxed);
                        clamped.fetch_add(cl, Ordering::Relaxed);
                    }
                });
            }
        });
        let found = found.into_inner();
        let any_frontier = next_nonempty.iter().any(|&x| x);
        done += found;
        progress(done, total);
        if !any_frontier {
            break;
        }
        std::mem::swap(&mut cur, &mut next);
        std::mem::swap(&mut cur_nonempty, &mut next_nonempty);
    }
    assert_eq!(done, total, "every placement of the pattern is reachable");
    assert_eq!(
        clamped.into_inner(),
        0,
        "half-differences fit in 4 bits for this pattern"
    );
    out
}

/// Per-worker buffers.
struct Scratch {
    old_any: Vec<u64>,
    new_any: Vec<u64>,
    dist: [[u8; 8]; 8],
}

impl Scratch {
    fn new(words: usize, _k: usize) -> Scratch {
        Scratch {
            old_any: vec![0; words],
            new_any: vec![0; words],
            dist: [[0; 8]; 8],
        }
    }
}

/// Computes the next level for every block of `chunk` by pulling from the current
/// frontier `cur`, and sets the table entries first reached at `level`. Returns the
/// number of entries set and the number that had to be clamped.
#[allow(clippy::too_many_arguments)]
fn expand_chunk(
    chunk: &mut Chunk<'_>,
    scratch: &mut Scratch,
    layout: &Layout,
    ix: &Indexer,
    home: &[usize],
    cur: &[u64],
    cur_nonempty: &[bool],
    level: u32,
) -> (u64, u64) {
    let fact = ix.fact();
    let words = fact.div_ceil(64);
    let k = ix.k();
    let block_lo = layout.block_base[chunk.s_lo] as usize;
    let mut found = 0u64;
    let mut clamped = 0u64;
    for s in chunk.s_lo..chunk.s_hi {
        let bs = layout.block_base[s] as usize..layout.block_base[s + 1] as usize;
        let live = bs.clone().any(|b| {
            let (p0, p1) = (
                layout.pred_base[b] as usize,
                layout.pred_base[b + 1] as usize,
            );
            layout.preds[p0..p1]
                .iter()
                .any(|p| cur_nonempty[p.src as usize])
        });
        if !live {
            for b in bs {
                let lb = b - block_lo;
                if chunk.next_nonempty[lb] {
                    chunk.next[lb * words..(lb + 1) * words].fill(0);
                    chunk.next_nonempty[lb] = false;
                }
            }
            continue;
        }
        let multi = bs.len() > 1;
        if multi {
            scratch.old_any.fill(0);
            for b in bs.clone() {
                let lb = b - block_lo;
                for (o, v) in scratch
                    .old_any
                    .iter_mut()
                    .zip(&chunk.visited[lb * words..(lb + 1) * words])
                {
                    *o |= v;
                }
            }
            scratch.new_any.fill(0);
        }
        let mut any_new = false;
        for b in bs.clone() {
            let lb = b - block_lo;
            let nxt = &mut chunk.next[lb * words..(lb + 1) * words];
            nxt.fill(0);
            let (p0, p1) = (
                layout.pred_base[b] as usize,
                layout.pred_base[b + 1] as usize,
            );
            for p in &layout.preds[p0..p1] {
                let src = p.src as usize;
                if !cur_nonempty[src] {
                    continue;
                }
                let frontier = &cur[src * words..(src + 1) * words];
                if p.from == p.to {
                    for (n, f) in nxt.iter_mut().zip(frontier) {
                        *n |= f;
                    }
                } else {
                    let base = (p.from as usize * k + p.to as usize) * fact;
                    let rot = &ix.rotations()[base..base + fact];
                    for (wi, &w) in frontier.iter().enumerate() {
                        let mut w = w;
                        while w != 0 {
                            let bit = w.trailing_zeros() as usize;
                            w &= w - 1;
                            let q = rot[wi * 64 + bit] as usize;
                            nxt[q >> 6] |= 1 << (q & 63);
                        }
                    }
                }
            }
            let vis = &mut chunk.visited[lb * words..(lb + 1) * words];
            let mut nonempty = false;
            for (n, v) in nxt.iter_mut().zip(vis.iter_mut()) {
                *n &= !*v;
                *v |= *n;
                nonempty |= *n != 0;
            }
            chunk.next_nonempty[lb] = nonempty;
            any_new |= nonempty;
            if multi && nonempty {
                for (a, n) in scratch.new_any.iter_mut().zip(nxt.iter()) {
                    *a |= n;
                }
            }
        }
        if !any_new {
            continue;
        }
        // Entries first reached now: new in some region, seen before in none.
        let mask = ix.comb_mask(s);
        let mut slot = 0;
        for c in 0..CELLS {
            if mask & (1 << c) != 0 {
                for (t, &h) in home.iter().enumerate() {
                    scratch.dist[slot][t] = manhattan(c, h) as u8;
                }
                slot += 1;
            }
        }
        let fresh: &[u64] = if multi {
            for (a, o) in scratch.new_any.iter_mut().zip(&scratch.old_any) {
                *a &= !o;
            }
            &scratch.new_any
        } else {
            let lb = bs.start - block_lo;
            &chunk.next[lb * words..(lb + 1) * words]
        };
        let out_base = (s - chunk.s_lo) * fact;
        for (wi, &w) in fresh.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                let p = wi * 64 + bit;
                let perm = ix.unrank(p);
                let mut md = 0u32;
                for (dist, &t) in scratch.dist.iter().zip(&perm[..k]) {
                    md += dist[t as usize] as u32;
                }
                debug_assert!(level >= md && (level - md).is_multiple_of(2));
                let mut half = (level - md) / 2;
                if half > 15 {
                    half = 15;
                    clamped += 1;
                }
                let e = out_base + p;
                let shift = (e & 1) * 4;
                let byte = &mut chunk.out[e >> 1];
                *byte = (*byte & !(0xf << shift)) | ((half as u8) << shift);
                found += 1;
            }
        }
    }
    (found, clamped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

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
        for k in [1, 5, 7, 8] {
            let ix = Indexer::new(k);
            assert_eq!(ix.combos(), binomial(CELLS, k));
            for r in 0..ix.combos() {
                assert_eq!(ix.comb_rank(ix.comb_mask(r)), r);
            }
        }
    }

    #[test]
    fn rank_cells_matches_locate() {
        let ix = Indexer::new(7);
        // Tiles 3..10 (home cells) are local tiles 0..7 placed on scattered cells.
        let cells = [14u8, 2, 9, 0, 7, 11, 4];
        let mut board = 0u64;
        let mut local = [u8::MAX; 16];
        for (i, &c) in cells.iter().enumerate() {
            board |= ((i as u64) + 3) << (4 * c);
            local[i + 3] = i as u8;
        }
        let (mask, perm) = ix.locate(&cells);
        assert_eq!(ix.rank_cells(mask, board, &local), perm);
    }

    #[test]
    fn vertical_slides_update_ranks_by_weights() {
        let ix = Indexer::new(6);
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
        let ix = Indexer::new(5);
        // Local tile i sits on cells[i]; every slide must agree with ranking afresh.
        let mut cells = [0u8, 5, 6, 9, 14];
        let (mut m, mut p) = ix.locate(&cells);
        let moves = [
            (6, 10),
            (0, 1),
            (14, 13),
            (13, 12),
            (12, 8),
            (1, 2),
            (2, 6),
            (9, 13),
        ];
        for (from, to) in moves {
            let t = cells.iter().position(|&c| c == from).unwrap();
            cells[t] = to;
            (m, p) = ix.slide(m, p, from as usize, to as usize);
            assert_eq!((m, p), ix.locate(&cells), "after {from} -> {to}");
        }
    }

    /// 0-1 BFS over (placement, blank cell) for a small pattern: the minimum over
    /// blank cells of the number of pattern-tile moves to the abstract goal.
    fn reference_table(spec: &PatternSpec) -> Vec<u32> {
        let ix = Indexer::new(spec.tiles());
        let home: Vec<u8> = spec.home_cells().iter().map(|&h| h as u8).collect();
        let n = spec.entries();
        let mut dist = vec![u32::MAX; n * CELLS];
        let mut deque = VecDeque::new();
        let (gm, gp) = ix.locate(&home);
        let g = ix.index(gm, gp);
        for b in 0..CELLS {
            if spec.goal_region & (1 << b) != 0 {
                dist[g * CELLS + b] = 0;
                deque.push_back((home.clone(), b, 0));
            }
        }
        while let Some((cells, blank, d)) = deque.pop_front() {
            let (m, p) = ix.locate(&cells);
            let id = ix.index(m, p);
            if dist[id * CELLS + blank] < d {
                continue;
            }
            for nb in (0..CELLS).filter(|&nb| manhattan(nb, blank) == 1) {
                let mut next = cells.clone();
                let (cost, id2) = match cells.iter().position(|&c| c as usize == nb) {
                    Some(t) => {
                        next[t] = blank as u8;
                        let (m2, p2) = ix.locate(&next);
                        (1, ix.index(m2, p2))
                    }
                    None => (0, id),
                };
                let nd = d + cost;
                if nd < dist[id2 * CELLS + nb] {
                    dist[id2 * CELLS + nb] = nd;
                    if cost == 0 {
                        deque.push_front((next, nb, nd));
                    } else {
                        deque.push_back((next, nb, nd));
                    }
                }
            }
        }
        (0..n)
            .map(|i| {
                let v = dist[i * CELLS..(i + 1) * CELLS].iter().min().copied();
                v.filter(|&v| v != u32::MAX)
                    .expect("every placement reachable")
            })
            .collect()
    }

    #[test]
    fn builder_matches_plain_search_on_small_patterns() {
        // Two tiles in a corner nook (blank-specific goal region), three scattered
        // tiles, and a diagonal that splits the free cells into parts.
        for (cells, blank) in [(0x0012u16, 0usize), (0x0013, 5), (0x8421, 1), (0x0124, 0)] {
            let spec = PatternSpec::new(cells, blank);
            let reference = reference_table(&spec);
            let pdb = Pdb::build(spec, 2, &mut |_, _| {});
            let home = spec.home_cells();
            for (i, &want) in reference.iter().enumerate() {
                let mask = pdb.ix.comb_mask(i / pdb.ix.fact());
                let perm = pdb.ix.unrank(i % pdb.ix.fact());
                let slots = (0..CELLS).filter(|&c| mask & (1 << c) != 0);
                let md: u32 = slots
                    .enumerate()
                    .map(|(slot, cell)| manhattan(cell, home[perm[slot] as usize]))
                    .sum();
                let got = md + 2 * pdb.half_excess(i);
                assert_eq!(got, want, "entry {i} of {}", spec.name());
            }
        }
    }

    #[test]
    fn goal_region_depends_on_the_blank_only_when_free_cells_split() {
        // Rows 2-3: the free cells (rows 0-1) are connected, so every blank agrees.
        assert_eq!(PatternSpec::new(0xff00, 0), PatternSpec::new(0xff00, 5));
        // Rows 0-1 without cell 0: cell 0 is cut off from rows 2-3.
        let a = PatternSpec::new(0x00fe, 0);
        assert_eq!(a.goal_region, 0x0001);
        assert_eq!(a.entries(), 57_657_600);
    }
}
