//! `puzzle`: checks, and solves, NxN sliding-tile puzzles.
//!
//! The input is two lines, a start board and a goal board (`SPEC.md` in the repository).
//! [`input::read_puzzle`] reads and checks them as a stream, [`board_adt`] is the
//! board interface (the assignment's `boardADT.h`) with the parity rule, and
//! [`solve`] finds the moves. The `puzzle` binary is the client: it owns the
//! command line, the output streams and the exit codes; this library never prints.
//!
//! # Examples
//!
//! ```
//! use puzzle::input::read_puzzle;
//! let puzzle = read_puzzle(&b"1 2 3 b\n1 b 3 2\n"[..]).unwrap();
//! assert!(puzzle.is_solvable());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod board_adt;
pub mod generate;
pub mod input;
pub mod report;
pub mod solve;

pub use crate::board_adt::error::{BoardError, ErrorKind, ReadError, Role};
pub use crate::board_adt::size::{MAX_CELLS, MAX_SIDE};
