//! `puzzle`: checks, and solves, NxN sliding-tile puzzles.
//!
//! The input is two lines, a start board and a goal board (`SPEC.md` in the
//! repository). [`input::read_puzzle`] reads and checks them as a stream,
//! [`board_adt`] is the board interface (the assignment's `boardADT.h`) with
//! the parity rule, and [`Solver`] finds the moves. The `puzzle` binary is the
//! client: it owns the command line, the output streams and the exit codes;
//! this library never prints. Grading other implementations is the
//! `puzzle-grade` crate (`crates/grade`), which stands on this one.
//!
//! This file is the whole public API:
//!
//! | what | items |
//! |---|---|
//! | the board, its disorder, its moves and its faults | the module [`board_adt`] |
//! | reading puzzles from a stream | the module [`input`] |
//! | solving | [`Solver`], [`SolveOptions`], [`Solution`], [`SolveError`], [`SolveEvent`], [`SolveStats`], [`SearchProgress`], [`Stop`], [`TableCache`], [`TableEvent`], [`TableSet`], [`EmptyCacheDir`], [`MAX_SOLVE_SIDE`] |
//! | the output format | [`write_verdict`], [`write_explanation`], [`write_solution`], [`write_boards`], [`write_error`] |
//! | many puzzles at once (`--batch`) | [`run_batch`], [`BatchOptions`], [`BatchNote`], [`BatchSummary`], [`BatchError`], [`Notes`], [`MAX_JOBS`] |
//! | random puzzles | [`random_puzzle`], [`GoalShape`], [`SplitMix64`], [`mix`], [`standard_cells`] |
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

pub mod board_adt;
pub mod input;

mod batch;
mod generate;
mod report;
mod solve;

pub use batch::{run_batch, BatchError, BatchNote, BatchOptions, BatchSummary, Notes, MAX_JOBS};
pub use generate::{mix, random_puzzle, standard_cells, GoalShape, SplitMix64};
pub use report::{
    write_boards, write_error, write_explanation, write_solution, write_verdict, EXPLAINED_TILES,
};
pub use solve::{
    EmptyCacheDir, SearchProgress, Solution, SolveError, SolveEvent, SolveOptions, SolveStats,
    Solver, Stop, TableCache, TableEvent, TableSet, MAX_SOLVE_SIDE,
};
