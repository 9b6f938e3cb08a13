//! What every search over the tables holds of a board: a [`Node`] (the
//! board, its mirror image, and per table the occupied cells, the
//! permutation rank and the entry read, so that a move updates them a tile
//! at a time), a [`Candidate`] (a child awaiting its table reads) and a
//! [`Slide`] (one group's view of a move). The data only: the
//! [`Heuristic`](super::heuristic::Heuristic) makes and values them.

use super::geometry::Geometry;
use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::Move;
use crate::solve::pattern::tables::CellSet;

/// One group's view of a move.
#[derive(Clone, Copy, Default)]
pub(super) struct Slide<M: CellSet> {
    pub(super) table: u8,
    pub(super) mask: M,
    pub(super) perm: u16,
    pub(super) index: u32,
}

/// A node on the search stack, for groups of up to `T` tables (64 bytes for
/// the 4x4 production `T = 2`, one cache line).
#[derive(Clone, Copy)]
pub(super) struct Node<G: Geometry, const T: usize, const N: usize> {
    /// Tile (home cell) per cell; the blank's cell holds the goal's blank cell
    /// number, which no tile uses. This is also group 0's frame board (its
    /// frame is the identity).
    pub(super) board: G::Board,
    /// The board as group 1's frame sees it.
    pub(super) fboard1: G::Board,
    /// Per group and table: occupied cells and permutation rank of the pattern
    /// tiles in the group's frame, and the stored half-difference.
    pub(super) mask: [[G::Mask; T]; N],
    pub(super) perm: [[u16; T]; N],
    pub(super) nib: [[u8; T]; N],
    /// Manhattan distance.
    pub(super) md: u8,
    pub(super) blank: u8,
    pub(super) g: u8,
    pub(super) fsm: u16,
    /// Blank directions so far, 2 bits a move.
    pub(super) path: G::Path,
}

impl<G: Geometry, const T: usize, const N: usize> Node<G, T, N> {
    /// Group `g`'s sum of the stored half-differences.
    #[inline(always)]
    pub(super) fn sum(&self, g: usize) -> u32 {
        self.nib[g].iter().map(|&n| n as u32).sum()
    }

    /// The heuristic value over the first `groups` groups.
    #[inline(always)]
    pub(super) fn h(&self, groups: usize) -> u32 {
        let mut best = 0;
        for g in 0..groups {
            best = best.max(self.sum(g));
        }
        self.md as u32 + 2 * best
    }

    /// The moves along this node's path.
    pub(super) fn moves(&self) -> MoveList {
        // The blank steps in direction `d` of `DIRS` when the tile on that
        // side slides the other way.
        const MOVE: [Move; 4] = [Move::Down, Move::Up, Move::Right, Move::Left];
        let path = self.path.as_ref();
        (0..self.g as usize)
            .map(|i| MOVE[((path[i / 8] >> (2 * (i % 8))) & 3) as usize])
            .collect()
    }
}

/// A child awaiting its table reads; only survivors become [`Node`]s.
#[derive(Clone, Copy)]
pub(super) struct Candidate<M: CellSet, const N: usize> {
    /// Index of the parent in the batch.
    pub(super) parent: u8,
    /// Blank direction.
    pub(super) dir: u8,
    /// The moved tile and its cell before the move.
    pub(super) tile: u8,
    pub(super) from: u8,
    pub(super) md: u8,
    /// The group read first (the others after it, in order, while the
    /// child survives: [`nth_group`](super::depth_first::nth_group)).
    pub(super) first: u8,
    /// Sort key: smaller is searched first.
    pub(super) key: u16,
    pub(super) fsm: u16,
    pub(super) slide: [Slide<M>; N],
    pub(super) nib: [u8; N],
    /// Per group: the child's estimate without the table the move changes.
    pub(super) rest: [u16; N],
}

impl<M: CellSet, const N: usize> Candidate<M, N> {
    /// A candidate with nothing read.
    #[inline(always)]
    pub(super) fn new(dir: u8, tile: u8, from: u8, md: u8, fsm: u16) -> Self {
        Candidate {
            parent: 0,
            dir,
            tile,
            from,
            md,
            first: 0,
            key: 0,
            fsm,
            slide: [Slide::default(); N],
            nib: [0; N],
            rest: [0; N],
        }
    }

    /// Group `g`'s heuristic value of this child (its read done).
    #[inline(always)]
    pub(super) fn h(&self, g: usize) -> u32 {
        self.rest[g] as u32 + 2 * self.nib[g] as u32
    }
}
