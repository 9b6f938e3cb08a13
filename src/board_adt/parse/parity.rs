//! The parity rule's arithmetic: the parity of a tile sequence's inversions, counted
//! one tile at a time as the tiles arrive, together with the duplicate check.
//!
//! The assignment's parity tutorial defines a tile's *disorder* as the number of smaller
//! tiles after it; summed over a board, that is the number of inversions. Only its
//! parity matters, so nothing here ever counts past one bit per node: no counter can
//! overflow, whatever the board's size.
//!
//! [`TileSet`] is a bitset of the tiles seen so far with a 64-ary tree over it.
//! When tile `v` arrives, the earlier tiles greater than `v` are those to the right
//! of `v`'s path in the tree; the parity of their number is the exclusive or, over
//! the nodes on the path, of the parity of the tiles under the children to the
//! right of the path's child. Each node keeps exactly those parities, one bit per
//! child (a "suffix parity" word), so a query is one bit test a level and an update
//! one exclusive or; the bottom level, the presence bits, folds its word instead.
//! That is `log64(n)` word operations a tile, no counter, on a structure of about
//! `n / 8` bytes that stays in cache. A cycle walk over the permutation would
//! instead make one cache miss a tile on large boards.

/// The set of tiles seen so far, with the parity of their inversions.
#[derive(Clone, Debug)]
pub(crate) struct TileSet {
    /// Level 0 of the tree: one presence bit a tile. Its suffix parities are
    /// computed when needed (a few shifts) rather than stored: on large boards
    /// this level is the one that leaves the cache, so it is kept small.
    bottom: Vec<u64>,
    /// `upper[l][i]` bit `j` is the parity of the number of tiles under children
    /// `j + 1 ..= 63` of node `i` on level `l + 1`, whose children are the nodes of
    /// the level below. Each level has a 64th as many nodes as the one below; the
    /// last has one.
    upper: Vec<Vec<u64>>,
    /// The tiles `0 .. capacity` can be inserted.
    capacity: u64,
    /// Bit 0 is the inversion parity so far; the other bits are noise.
    parity: u64,
}

/// The tile was already in the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Duplicate;

/// The parity of the number of bits set in `bits`, in bit 0 (the other bits are
/// noise). Folding halves together: no popcount instruction is assumed.
#[inline(always)]
fn word_parity(bits: u64) -> u64 {
    let mut x = bits ^ (bits >> 32);
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^ (x >> 1)
}

/// Bit `j` of the result is the parity of bits `j + 1 ..= 63` of `bits`.
fn suffix_parities(bits: u64) -> u64 {
    let mut s = bits >> 1;
    s ^= s >> 1;
    s ^= s >> 2;
    s ^= s >> 4;
    s ^= s >> 8;
    s ^= s >> 16;
    s ^= s >> 32;
    s
}

impl TileSet {
    /// An empty set that holds the tiles `0 .. capacity` (rounded up to a multiple of 64).
    pub(crate) fn with_capacity(capacity: u64) -> TileSet {
        let mut set = TileSet {
            bottom: Vec::new(),
            upper: Vec::new(),
            capacity: 0,
            parity: 0,
        };
        set.resize(capacity);
        set
    }

    /// How many tiles, `0 .. capacity()`, the set can hold.
    pub(crate) fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Empties the set, keeping (and resizing) its memory, for a new sequence.
    pub(crate) fn reset(&mut self, capacity: u64) {
        self.bottom.clear();
        self.parity = 0;
        self.capacity = 0;
        self.resize(capacity);
    }

    /// Grows the set so it holds the tiles `0 .. capacity`, keeping its contents and
    /// inversion count.
    pub(crate) fn grow(&mut self, capacity: u64) {
        if capacity > self.capacity {
            self.resize(capacity);
        }
    }

    fn resize(&mut self, capacity: u64) {
        let words = capacity.div_ceil(64).max(1) as usize;
        self.bottom.resize(words, 0);
        self.capacity = words as u64 * 64;
        // Rebuild the tree from the presence bits: rare (a few times a board at
        // most), and linear in the size.
        self.upper.clear();
        let mut bits: Vec<u64> = self.bottom.clone();
        while bits.len() > 1 {
            // The next level's children are this level's nodes: one bit each, the
            // parity of the tiles under it.
            let mut above = vec![0u64; bits.len().div_ceil(64)];
            for (i, &word) in bits.iter().enumerate() {
                above[i / 64] |= u64::from(word.count_ones() & 1) << (i % 64);
            }
            self.upper
                .push(above.iter().map(|&w| suffix_parities(w)).collect());
            bits = above;
        }
    }

    /// Adds `tile` (which must be below `capacity()`), counting the earlier tiles
    /// greater than it. Fails, changing nothing, if the tile is already present.
    #[inline]
    pub(crate) fn insert(&mut self, tile: u64) -> Result<(), Duplicate> {
        debug_assert!(tile < self.capacity);
        let mut index = (tile >> 6) as usize;
        let mut bit = tile & 63;
        let word = self.bottom[index];
        if (word >> bit) & 1 != 0 {
            return Err(Duplicate);
        }
        // The parity of the earlier tiles above this one, level by level; and the
        // child `bit` gains a tile, so every suffix that contains it flips.
        // `>> bit >> 1` rather than `>> (bit + 1)`: a shift by 64 would overflow.
        let mut parity = word_parity(word >> bit >> 1);
        self.bottom[index] = word | (1 << bit);
        for level in &mut self.upper {
            bit = (index & 63) as u64;
            index >>= 6;
            let node = level[index];
            parity ^= node >> bit;
            level[index] = node ^ ((1 << bit) - 1);
        }
        self.parity ^= parity;
        Ok(())
    }

    /// Whether `tile` (below `capacity()`) is in the set.
    #[cfg(test)]
    pub(crate) fn contains(&self, tile: u64) -> bool {
        (self.bottom[(tile >> 6) as usize] >> (tile & 63)) & 1 != 0
    }

    /// Whether the tiles inserted so far, in insertion order, have an odd number of
    /// inversions (pairs where a greater tile came before a smaller one).
    pub(crate) fn odd_inversions(&self) -> bool {
        self.parity & 1 == 1
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    /// Inversions counted the slow, obvious way.
    fn naive_inversions(tiles: &[u64]) -> u64 {
        let mut count = 0;
        for i in 0..tiles.len() {
            for j in i + 1..tiles.len() {
                if tiles[i] > tiles[j] {
                    count += 1;
                }
            }
        }
        count
    }

    /// A small xorshift generator: deterministic test data without dependencies.
    fn shuffled(n: u64, mut seed: u64) -> Vec<u64> {
        let mut tiles: Vec<u64> = (1..=n).collect();
        for i in (1..tiles.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            tiles.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        tiles
    }

    fn parity_of(tiles: &[u64], capacity: u64) -> bool {
        let mut set = TileSet::with_capacity(capacity);
        for &t in tiles {
            set.insert(t).unwrap();
        }
        set.odd_inversions()
    }

    #[test]
    fn tutorial_boards_have_the_tutorial_disorder() {
        // `3 2 b 1`: disorders 2 + 1 + 0 = 3 without the blank row.
        assert!(parity_of(&[3, 2, 1], 4));
        // `8 7 6 5 4 3 2 1 b`: disorder 28.
        assert!(!parity_of(&[8, 7, 6, 5, 4, 3, 2, 1], 9));
    }

    #[test]
    fn parity_matches_naive_count_across_level_boundaries() {
        // Sizes around 64, 4096 and 262144 exercise one, two and three summary levels.
        for (n, seed) in [
            (5, 1),
            (63, 2),
            (64, 3),
            (65, 4),
            (4095, 5),
            (4097, 6),
            (20000, 7),
        ] {
            let tiles = shuffled(n, seed);
            let expected = if n <= 5000 {
                naive_inversions(&tiles) & 1 == 1
            } else {
                merge_sort_parity(&tiles)
            };
            assert_eq!(parity_of(&tiles, n + 1), expected, "n = {n}");
        }
    }

    #[test]
    fn growing_keeps_contents_and_count() {
        let tiles = shuffled(9000, 42);
        let mut set = TileSet::with_capacity(1);
        for &t in &tiles {
            if t >= set.capacity() {
                set.grow(t + 1);
            }
            set.insert(t).unwrap();
        }
        assert_eq!(set.odd_inversions(), naive_inversions(&tiles) & 1 == 1);
        assert!(set.contains(tiles[0]));
    }

    #[test]
    fn duplicates_are_refused_without_changing_the_count() {
        let mut set = TileSet::with_capacity(100);
        set.insert(7).unwrap();
        set.insert(3).unwrap();
        let before = set.odd_inversions();
        assert_eq!(set.insert(7), Err(Duplicate));
        assert_eq!(set.odd_inversions(), before);
        assert!(set.contains(3) && !set.contains(4));
    }

    #[test]
    fn reset_forgets_everything() {
        let mut set = TileSet::with_capacity(10);
        set.insert(2).unwrap();
        set.insert(1).unwrap();
        set.reset(10);
        assert!(!set.contains(2));
        assert!(!set.odd_inversions());
        set.insert(2).unwrap();
    }

    /// An independent O(n log n) inversion count, for sizes too big for the naive one.
    fn merge_sort_parity(tiles: &[u64]) -> bool {
        fn sort(v: &mut Vec<u64>) -> u64 {
            if v.len() < 2 {
                return 0;
            }
            let mut right = v.split_off(v.len() / 2);
            let mut count = sort(v) + sort(&mut right);
            let mut merged = Vec::with_capacity(v.len() + right.len());
            let (mut i, mut j) = (0, 0);
            while i < v.len() && j < right.len() {
                if v[i] <= right[j] {
                    merged.push(v[i]);
                    i += 1;
                } else {
                    count += (v.len() - i) as u64;
                    merged.push(right[j]);
                    j += 1;
                }
            }
            merged.extend_from_slice(&v[i..]);
            merged.extend_from_slice(&right[j..]);
            *v = merged;
            count
        }
        sort(&mut tiles.to_vec()) & 1 == 1
    }
}
