//! The board sizes the search is compiled for ([`Geometry`]: [`Four`],
//! [`Five`]): the side, the width of a cell set, the board packed into an
//! integer ([`PackedBoard`]), the longest path, and the tables of neighbours
//! and Manhattan distances of the cells ([`CellTables`]).

use super::super::tables::CellSet;
use crate::solve::grid::manhattan;

/// Array length for per-cell data of any supported board.
pub(super) const MAX_CELLS: usize = 25;
/// No neighbour in this direction.
pub(super) const NO_CELL: u8 = u8::MAX;

/// Blank directions: the blank moves up, down, left or right on the board.
pub(super) const DIRS: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A board packed into an integer, a fixed number of bits a cell.
pub trait PackedBoard: Copy + Default + Send + Sync + 'static {
    /// The tile code on `cell`.
    fn tile_at(self, cell: usize) -> usize;
    /// The board with `code` added on `cell` (which must hold 0).
    fn with(self, cell: usize, code: usize) -> Self;
    /// The board with `x` xored into the codes on cells `a` and `b`: swapping
    /// two codes `p` and `q` is xoring both with `p ^ q`.
    fn xor2(self, x: usize, a: usize, b: usize) -> Self;
    /// The packed bits, widened: two boards are equal when these are.
    fn bits(self) -> u128;
}

impl PackedBoard for u64 {
    #[inline(always)]
    fn tile_at(self, cell: usize) -> usize {
        ((self >> (4 * cell)) & 15) as usize
    }
    #[inline(always)]
    fn with(self, cell: usize, code: usize) -> u64 {
        self | (code as u64) << (4 * cell)
    }
    #[inline(always)]
    fn xor2(self, x: usize, a: usize, b: usize) -> u64 {
        self ^ ((x as u64) << (4 * a)) ^ ((x as u64) << (4 * b))
    }
    #[inline(always)]
    fn bits(self) -> u128 {
        u128::from(self)
    }
}

impl PackedBoard for u128 {
    #[inline(always)]
    fn tile_at(self, cell: usize) -> usize {
        ((self >> (5 * cell)) & 31) as usize
    }
    #[inline(always)]
    fn with(self, cell: usize, code: usize) -> u128 {
        self | (code as u128) << (5 * cell)
    }
    #[inline(always)]
    fn xor2(self, x: usize, a: usize, b: usize) -> u128 {
        self ^ ((x as u128) << (5 * a)) ^ ((x as u128) << (5 * b))
    }
    #[inline(always)]
    fn bits(self) -> u128 {
        self
    }
}

/// Cell tables of a side: neighbours and Manhattan distances.
pub struct CellTables {
    /// `neighbour[cell][dir]`: where the blank goes, or `NO_CELL` off the board.
    pub(super) neighbour: [[u8; 4]; MAX_CELLS],
    /// `manhattan[a][b]`: the Manhattan distance between cells `a` and `b`.
    pub(super) manhattan: [[u8; MAX_CELLS]; MAX_CELLS],
}

impl CellTables {
    /// The tables of a `side`-wide board.
    pub const fn new(side: usize) -> CellTables {
        let cells = side * side;
        let mut neighbour = [[NO_CELL; 4]; MAX_CELLS];
        let mut md = [[0u8; MAX_CELLS]; MAX_CELLS];
        let mut c = 0;
        while c < cells {
            let (r, col) = ((c / side) as isize, (c % side) as isize);
            let mut d = 0;
            while d < 4 {
                let (nr, nc) = (r + DIRS[d].0, col + DIRS[d].1);
                if nr >= 0 && nr < side as isize && nc >= 0 && nc < side as isize {
                    neighbour[c][d] = (nr * side as isize + nc) as u8;
                }
                d += 1;
            }
            let mut b = 0;
            while b < cells {
                md[c][b] = manhattan(side, c, b) as u8;
                b += 1;
            }
            c += 1;
        }
        CellTables {
            neighbour,
            manhattan: md,
        }
    }
}

/// A board size the search is compiled for.
pub trait Geometry: Copy + Send + Sync + 'static {
    /// The side.
    const SIDE: usize;
    /// Cells, `SIDE * SIDE`.
    const CELLS: usize;
    /// The blank in a board given to [`parallel::search`]: a number no tile has.
    const BLANK: u8 = Self::CELLS as u8;
    /// A set of cells.
    type Mask: CellSet;
    /// The board packed into an integer.
    type Board: PackedBoard;
    /// The moves so far, 2 bits a move (8 a word).
    type Path: Copy + Default + Send + Sync + Eq + std::hash::Hash + AsRef<[u16]> + AsMut<[u16]>;
    /// Nodes expanded together, at most [`MAX_BATCH`]. Their children's table
    /// reads are independent, so the processor overlaps them: a read into the
    /// 259 MB 4x4 table costs about 260 ns alone but about 20 ns when 16 or
    /// more are in flight (measured on the target machine; on 4x4 batches of 8
    /// to 24 nodes performed alike, and 32 expanded 4.6% more nodes).
    const BATCH: usize = 16;
    /// Nodes the frontier of a split search holds at least (see [`parallel`]):
    /// enough subtrees that the threads finish close together, and that the
    /// learnt order has something to choose from; few enough that the
    /// frontier's breadth-first expansion (one read at a time) stays cheap.
    const FRONTIER: usize;
    /// The cell tables of this side.
    fn cells() -> &'static CellTables;
    /// The longest path a node can hold.
    fn max_depth() -> usize {
        Self::Path::default().as_ref().len() * 8
    }
}

/// The 4x4 board.
#[derive(Clone, Copy, Debug)]
pub struct Four;

impl Geometry for Four {
    const SIDE: usize = 4;
    const CELLS: usize = 16;
    type Mask = u16;
    type Board = u64;
    /// 88 moves. Every goal is at most 2 moves from a goal with the blank in a
    /// corner, whose farthest boards are 80 moves away (Brüngger et al. 1999),
    /// so no optimal solution is longer than 82 moves.
    type Path = [u16; 11];
    /// On Korf's 100, 16 to 128 nodes gave 0.97-1.00 M nodes (64 the fewest),
    /// 256 gave 1.00 M in more time, 1024 1.40 M.
    const FRONTIER: usize = 64;
    fn cells() -> &'static CellTables {
        static TABLES: CellTables = CellTables::new(4);
        &TABLES
    }
}

/// The 5x5 board.
#[derive(Clone, Copy, Debug)]
pub struct Five;

impl Geometry for Five {
    const SIDE: usize = 5;
    const CELLS: usize = 25;
    /// Four tables of 64 MB a group: 32 nodes a batch searched Korf and
    /// Felner's #38 on two threads 13-15% faster than 16 (48: no better).
    const BATCH: usize = 32;
    type Mask = u32;
    type Board = u128;
    /// 256 moves, more than any optimal 5x5 solution needs: the 24-puzzle's
    /// diameter is known to lie between 152 and about 210 moves (Karlemo and
    /// Östergård 2000), and a goal with its blank elsewhere is at most 8
    /// moves from one with its blank in the corner.
    type Path = [u16; 32];
    /// On eight of Korf and Felner's instances, 16384 took as long in all
    /// (53.2 s against 54.2 s on two threads: #25 needed 24% fewer nodes, #38
    /// lost 0.14 s to the larger serial split); on the five easiest, 1024
    /// needed 7% more nodes.
    const FRONTIER: usize = 4096;
    fn cells() -> &'static CellTables {
        static TABLES: CellTables = CellTables::new(5);
        &TABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_stay_on_the_board() {
        let four = Four::cells();
        assert_eq!(four.neighbour[0], [NO_CELL, 4, NO_CELL, 1]);
        assert_eq!(four.neighbour[15], [11, NO_CELL, 14, NO_CELL]);
        assert_eq!(four.neighbour[5], [1, 9, 4, 6]);
        let five = Five::cells();
        assert_eq!(five.neighbour[24], [19, NO_CELL, 23, NO_CELL]);
        assert_eq!(five.neighbour[12], [7, 17, 11, 13]);
        assert_eq!(five.manhattan[0][24], 8);
    }

    #[test]
    fn packed_boards_swap_codes() {
        let b = 0u128.with(3, 17).with(24, 9);
        assert_eq!((b.tile_at(3), b.tile_at(24), b.tile_at(0)), (17, 9, 0));
        let swapped = b.xor2(17 ^ 9, 3, 24);
        assert_eq!((swapped.tile_at(3), swapped.tile_at(24)), (9, 17));
        let b = 0u64.with(15, 12).xor2(12, 15, 0);
        assert_eq!((b.tile_at(15), b.tile_at(0)), (0, 12));
    }
}
