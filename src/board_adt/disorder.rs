//! The tutorial's disorder of a board, counted exactly: what `--explain` shows.
//!
//! The parity rule needs only the parity of the disorder, which
//! [`Board::parity`] keeps without counting. A student whose program disagrees
//! needs the numbers themselves: each tile's disorder (how many lower-numbered
//! tiles come after it, row by row), their sum, the blank's row, and the
//! board's disorder. Counting every pair would take `n^2/2` steps, a billion on
//! a 200x200 board, so the count keeps a Fenwick tree of the tiles seen so far:
//! a tile's disorder is the number of lower tiles, less those already seen,
//! `O(log n)` a tile. The sum of `n` disorders below `n` each fits in a `u64`
//! for every board the reader accepts (`n < 2^32`).

use super::Board;
use super::Parity;

/// A board's disorder, as the assignment's tutorial defines it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disorder {
    /// The first tiles, row by row, each with its disorder.
    first: Vec<(u32, u64)>,
    /// The number of tiles (the blank left out).
    tiles: usize,
    /// The sum of every tile's disorder.
    tile_sum: u64,
    /// The blank's row, counted from 1 at the top.
    blank_row: usize,
    /// Whether the side is even, so that the blank's row counts.
    even_side: bool,
}

impl Disorder {
    /// Counts the disorder of `board`, keeping the first `shown` tiles' own
    /// disorders.
    ///
    /// # Examples
    ///
    /// ```
    /// use puzzle::board_adt::{Board, Disorder, Parity, Role};
    /// // The tutorial's 2x2 start board: 2 + 1 + 0, plus 2 for the blank's row.
    /// let board = Board::parse(b"3 2 b 1", Role::Start).unwrap();
    /// let disorder = Disorder::of(&board, 10);
    /// assert_eq!(disorder.first_tiles(), &[(3, 2), (2, 1), (1, 0)]);
    /// assert_eq!(disorder.tile_sum(), 3);
    /// assert_eq!(disorder.counted_blank_row(), Some(2));
    /// assert_eq!(disorder.total(), 5);
    /// assert_eq!(disorder.parity(), Parity::Odd);
    /// ```
    pub fn of(board: &Board, shown: usize) -> Disorder {
        let tiles = board.len() - 1;
        // tree[i] counts the seen tiles in a range of values ending at i
        // (1-based); u32 holds any count of a board's tiles.
        let mut tree = vec![0u32; tiles + 1];
        let mut first = Vec::with_capacity(shown.min(tiles));
        let mut tile_sum = 0u64;
        let mut seen = 0u64;
        for &tile in board.cells().iter().filter(|&&t| t != 0) {
            let mut lower_seen = 0u64;
            let mut at = tile as usize - 1;
            while at > 0 {
                lower_seen += u64::from(tree[at]);
                at &= at - 1;
            }
            let disorder = u64::from(tile - 1) - lower_seen;
            tile_sum += disorder;
            if first.len() < shown {
                first.push((tile, disorder));
            }
            let mut at = tile as usize;
            while at <= tiles {
                tree[at] += 1;
                at += at & at.wrapping_neg();
            }
            seen += 1;
        }
        debug_assert_eq!(seen, tiles as u64);
        Disorder {
            first,
            tiles,
            tile_sum,
            blank_row: board.blank() / board.side() + 1,
            even_side: board.side().is_multiple_of(2),
        }
    }

    /// The first tiles, row by row, each with its disorder: as many as asked
    /// for, or every tile of a smaller board.
    pub fn first_tiles(&self) -> &[(u32, u64)] {
        &self.first
    }

    /// The number of tiles, the blank left out.
    pub fn tiles(&self) -> usize {
        self.tiles
    }

    /// The sum of every tile's disorder: the number of inversions.
    pub fn tile_sum(&self) -> u64 {
        self.tile_sum
    }

    /// The blank's row, counted from 1 at the top.
    pub fn blank_row(&self) -> usize {
        self.blank_row
    }

    /// The blank's row when it counts (an even side), else `None`.
    pub fn counted_blank_row(&self) -> Option<usize> {
        Some(self.blank_row).filter(|_| self.even_side)
    }

    /// The board's disorder: the tiles' sum, plus the blank's row on an even
    /// side.
    pub fn total(&self) -> u64 {
        self.tile_sum + self.counted_blank_row().map_or(0, |row| row as u64)
    }

    /// Whether the board's disorder is even or odd.
    pub fn parity(&self) -> Parity {
        if self.total().is_multiple_of(2) {
            Parity::Even
        } else {
            Parity::Odd
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::Role;
    use crate::generate::SplitMix64;

    fn board(line: &str) -> Board {
        Board::parse(line.as_bytes(), Role::Start).unwrap()
    }

    #[test]
    fn the_tutorials_examples_have_its_disorders() {
        let start = Disorder::of(&board("3 2 b 1"), 10);
        assert_eq!(start.first_tiles(), [(3, 2), (2, 1), (1, 0)]);
        assert_eq!(start.total(), 5);
        let other = Disorder::of(&board("b 1 3 2"), 10);
        assert_eq!(other.first_tiles(), [(1, 0), (3, 1), (2, 0)]);
        assert_eq!((other.counted_blank_row(), other.total()), (Some(1), 2));
        let goal = Disorder::of(&board("1 2 3 b"), 10);
        assert_eq!((goal.tile_sum(), goal.total()), (0, 2));
        let reversed = Disorder::of(&board("8 7 6 5 4 3 2 1 b"), 10);
        assert_eq!(reversed.counted_blank_row(), None);
        assert_eq!(reversed.total(), 28);
    }

    #[test]
    fn disorders_match_counting_every_pair_and_the_parity_rule() {
        let mut random = SplitMix64::new(7);
        for side in 2..=9usize {
            for _ in 0..20 {
                let mut cells: Vec<u32> = (0..(side * side) as u32).collect();
                for i in (1..cells.len()).rev() {
                    cells.swap(i, random.below(i as u64 + 1) as usize);
                }
                let board = Board::from_cells(cells.clone()).unwrap();
                let disorder = Disorder::of(&board, 5);
                let tiles: Vec<u32> = cells.iter().copied().filter(|&t| t != 0).collect();
                let own = |i: usize| tiles[i + 1..].iter().filter(|&&t| t < tiles[i]).count();
                let pairs: usize = (0..tiles.len()).map(own).sum();
                assert_eq!(disorder.tile_sum(), pairs as u64);
                assert_eq!(disorder.tiles(), tiles.len());
                let first: Vec<(u32, u64)> = (0..5.min(tiles.len()))
                    .map(|i| (tiles[i], own(i) as u64))
                    .collect();
                assert_eq!(disorder.first_tiles(), first);
                assert_eq!(disorder.parity(), board.parity());
            }
        }
    }

    #[test]
    fn a_reversed_board_of_a_million_tiles_counts_past_32_bits() {
        // 1000x1000 with the tiles in reverse: n(n-1)/2 inversions for
        // n = 999,999, past 2^32.
        let n = 1000 * 1000 - 1;
        let mut cells: Vec<u32> = (1..=n as u32).rev().collect();
        cells.push(0);
        let disorder = Disorder::of(&Board::from_cells(cells).unwrap(), 3);
        assert_eq!(disorder.tile_sum(), (n as u64) * (n as u64 - 1) / 2);
        assert_eq!(
            disorder.first_tiles(),
            [(999_999, 999_998), (999_998, 999_997), (999_997, 999_996)]
        );
        assert_eq!(disorder.total(), 499_998_500_001 + 1000);
    }
}
