//! Additive pattern databases for square boards up to 5x5: pattern
//! specifications, the ranking of pattern placements, the 4-bit packed tables,
//! and their parallel breadth-first construction ([`build`]). The 4x4 and 5x5
//! solvers share this one implementation; only the side differs.
//!
//! A pattern is a set of tiles, each named by its home cell. A table maps every
//! placement of the pattern tiles on the board's cells to a lower bound on the
//! number of moves *of pattern tiles* needed to bring them all home. Following
//! Korf & Felner (2002, "Disjoint pattern database heuristics"), only
//! pattern-tile moves are counted, so the values of tables over disjoint patterns
//! add up to an admissible heuristic. Unlike the "blank-free" variant, the blank
//! is modelled: it moves for free through cells not occupied by pattern tiles and
//! a pattern tile can only move into the blank, and an entry is the minimum over
//! all blank positions (4x4 tables that ignore the blank were measured at 91x
//! more search nodes).
//!
//! # Index
//!
//! A placement is ranked as `comb * k! + perm`, where `comb` is the rank of the set
//! of occupied cells among the `C(cells, k)` `k`-subsets (in increasing order of
//! their bitmask, that is colexicographic order) and `perm` ranks which tile sits
//! in each occupied cell (the cells taken in increasing order): it is the
//! lexicographic rank of the inverse, the slot of each tile in turn. Sliding a
//! tile sideways keeps `perm`. Sliding it up or down passes it over at most
//! `side - 1` occupied cells; only its order against those tiles flips, so `perm`
//! moves by a few place values ([`Indexer::weight`]). The searcher thus updates
//! indices with a handful of instructions, and the builder maps whole bitsets
//! (sideways) or bits through a small rotation table (up or down).
//!
//! # Packing
//!
//! Every pattern-tile move changes the pattern's Manhattan distance by one, so a
//! value minus that distance is even; half of it is stored in 4 bits (two entries
//! a byte). The builder checks that no half-difference exceeds 15 (the largest is
//! 9 for the 4x4 8-tile table of rows 2-3).
//!
//! # Building
//!
//! A plain breadth-first search over (placement, blank cell) costs minutes (280 s
//! of CPU was measured for the 4x4 8-tile table). Here a state is (occupied set,
//! blank region, permutation), where the blank region is the connected component
//! of free cells that holds the blank (free moves inside it cost nothing). For
//! each (occupied set, region) pair the permutations form a bitset of `k!` bits,
//! so a sideways move maps a whole bitset word by word and an up/down move maps
//! bit by bit through a rotation table that stays in cache. The search runs level
//! by level (moves cost 1; free moves are folded into the region), pulling into
//! each target set from its predecessors so that the worker threads own disjoint
//! parts of the output (`std::thread::scope`). The 4x4 8-tile table (1.4 G
//! states) takes about 13 s of CPU, 7-8 s on two idle cores (18-23 s when
//! another build shares them), with three bitsets of 178 MB and the 259 MB
//! output (0.65 GB peak).

mod build;
mod file;
mod index;
mod pdb;
mod spec;
mod store;

pub(crate) use file::{checksum, write_atomically};
pub(crate) use index::{CellSet, Indexer};
pub(crate) use pdb::Pdb;
pub(crate) use spec::PatternSpec;
#[cfg(test)]
pub(crate) use store::testing;
pub(crate) use store::{announce, build_into, shared};
pub use store::{EmptyCacheDir, TableCache, TableEvent};
