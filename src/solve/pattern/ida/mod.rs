//! IDA* over additive pattern databases, for the 4x4 and the 5x5 puzzle from one
//! implementation ([`Geometry`] names the side), towards a canonical goal (tile
//! `c` home on cell `c`, the blank on a given cell). This file is the face of
//! the search; its rooms:
//!
//! - [`heuristic`]: the estimate, `manhattan + 2 * max over groups (sum of
//!   the stored half-differences)`, each group a set of disjoint tables
//!   (Korf & Felner 2002) covering every tile, looked up either on the
//!   board itself or on the board mirrored by a symmetry that fixes the goal
//!   (their "reflection about the main diagonal", taking the maximum of the
//!   two lookups); and the children of a node, their table indices updated
//!   a move at a time.
//! - [`node`]: what a search holds of a board and of a child awaiting its
//!   reads.
//! - [`depth_first`]: one IDA* iteration, depth-first in batches so that the
//!   table reads overlap, with lazy groups, sibling ordering and
//!   bidirectional pathmax.
//! - [`parallel`]: the iterations, each split over threads at a frontier
//!   whose subtrees are searched nearest the goal first, as the previous
//!   iteration learnt; [`hybrid`], the A* top that can replace the split.
//! - [`fsm`]: the finite-state machine that prunes duplicate move sequences.
//! - [`beam`](mod@beam): the beam search over the same tables (near-shortest 5x5
//!   answers).
//! - [`geometry`]: the board sizes the search is compiled for.
//!
//! The board handed to [`parallel::search`] names every tile by its home cell;
//! the blank is [`Geometry::BLANK`]. The answer is the moves on that board (the
//! caller turns them back to the goal's frame).
//!
//! What makes it fast (measured on Korf's 100 4x4 instances, where plain IDA*
//! with these tables expands 1.95 M nodes):
//!
//! - **Batched depth-first search** ([`depth_first`]): each step reads the
//!   tables for all the children of 16 nodes (32 on 5x5) in one tight loop,
//!   so that the reads' cache misses overlap (2.4x faster than recursion).
//! - **Incremental indices** ([`heuristic`]): a move changes one tile of one
//!   table per group; no allocation and no large auxiliary table in the
//!   loop.
//! - **Lazy groups** ([`depth_first`]): the group likeliest to prune is read
//!   first, the others only for the children it did not prune.
//! - **Duplicate pruning** with [`Fsm`] (25% fewer nodes), **sibling ordering**
//!   by estimate (12% fewer nodes in the last iteration), and **bidirectional
//!   pathmax** (Felner et al. 2005; the tables are inconsistent because each
//!   entry is a minimum over blank positions).
//! - **A learnt order of subtrees** ([`parallel`]): from the second iteration
//!   on, the subtrees below a shallow frontier are searched nearest the goal
//!   first, by what the previous iteration saw (17% fewer nodes on Korf's 100,
//!   half on the easiest 24-puzzles).
//!
//! Together: 0.97 M nodes for Korf's 100 (1.17 M without the learnt order).
//!
//! The search is generic over [`Geometry`]: the side, the width of a cell set
//! (`u16` on 4x4, so that a node stays one 64-byte cache line; `u32` on 5x5),
//! the packed board (4 bits a cell in a `u64`; 5 bits in a `u128`) and the
//! longest path. Each size gets its own compiled copy, so nothing is decided at
//! run time in the inner loop.

mod beam;
mod depth_first;
mod fsm;
mod geometry;
mod heuristic;
mod hybrid;
mod node;
mod parallel;

pub(crate) use beam::{beam, BeamLimits};
pub(crate) use depth_first::Prunes;
pub(crate) use fsm::Fsm;
pub(crate) use geometry::{Five, Four, Geometry};
pub(crate) use heuristic::{Group, Heuristic};
pub(crate) use hybrid::{Top, TopStats};
pub(crate) use parallel::{search, search_between, IterationEnd, Searched};
