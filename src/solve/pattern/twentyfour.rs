//! Shortest solutions of the 5x5 puzzle (the 24-puzzle) towards any goal: the
//! partition of the tiles into pattern databases for each goal class, their
//! lifecycle, and the entry point. The machinery is the one the 4x4 uses
//! (`solve::pdb`, `solve::ida`, `solve::goals`); this
//! file is mostly data.
//!
//! # Tables
//!
//! The board's cells (the canonical goal has tile `c` on cell `c`) fall into
//! four parts, Korf and Felner's 6-6-6-6 partition (2002, "Disjoint pattern
//! database heuristics") with the blank's corner added to the first:
//!
//! ```text
//! A A A B B
//! A A A B B
//! C C A B B
//! C C D D D
//! C C D D D
//! ```
//!
//! Every class representative (cells 0, 1, 2, 6, 7 and 12; see
//! `solve::goals`) lies in part A, so for a goal blank `g` the tables
//! are A without `g`, B, C and D: four tables of 6 tiles, 64 MB each at 4 bits
//! an entry (`C(25, 6) * 6!` = 127.5 M entries). They model the blank (see
//! `solve::pdb`); B, C and D leave the free cells connected, so they
//! serve every goal, and each class adds its own A table.
//!
//! **Second lookup.** The heuristic is the larger of the tables' sum on the
//! board and on a mirror image of it that fixes the goal (Korf and Felner's
//! reflected lookup): the transpose for goals on the diagonal (classes 0, 6 and
//! 12), the left-right mirror for goals on the middle column (classes 2 and 7).
//! No symmetry but the identity fixes cell 1; its mirror lookup is the transpose,
//! which puts the goal's blank on cell 5, so class 1 loads one more table, A
//! without cell 5.
//!
//! | goal class | tables | memory |
//! |---|---|---|
//! | 0, 2, 6, 7, 12 | A \ {g}, B, C, D | 255 MB |
//! | 1 | A \ {1}, A \ {5}, B, C, D | 319 MB |
//!
//! All ten files take 637 MB.

use super::fifteen::TableSet;
use super::goals;
use super::ida::parallel::{self, Outcome};
use super::ida::{Five, Geometry, Heuristic};
use super::tables::store::{self, TableCache, TableEvent, TableGroups};
use super::tables::PatternSpec;
use crate::board_adt::moves::Move;
use crate::board_adt::symmetry::{class_of, Symmetry};
use std::io;

pub use super::ida::parallel::{Limits, Progress};
pub use super::ida::Counters;

/// Side of the board.
const SIDE: usize = 5;
/// Cells on the board.
const CELLS: usize = 25;

/// The four parts of the board (see the module docs).
const PARTS: [&[usize]; 4] = [
    &[0, 1, 2, 5, 6, 7, 12],
    &[3, 4, 8, 9, 13, 14],
    &[10, 11, 15, 16, 20, 21],
    &[17, 18, 19, 22, 23, 24],
];

/// The class representatives of the goal's blank cell.
pub const CLASSES: [usize; 6] = [0, 1, 2, 6, 7, 12];

fn mask(cells: &[usize]) -> u32 {
    cells.iter().fold(0, |m, &c| m | 1 << c)
}

/// The pattern cell sets of one group for goals with the blank on `g`.
fn masks(set: TableSet, g: usize) -> Vec<u32> {
    match set {
        TableSet::Standard => {
            assert!(PARTS[0].contains(&g), "goal blank in part A");
            let mut out: Vec<u32> = PARTS.iter().map(|p| mask(p)).collect();
            out[0] &= !(1 << g);
            out
        }
        TableSet::Small => {
            let cells: Vec<usize> = (0..CELLS).filter(|&c| c != g).collect();
            cells.chunks(4).map(mask).collect()
        }
    }
}

/// The frame of the second lookup for goals with the blank on `rep`: the
/// transpose if it leaves the blank in part A, else the left-right mirror
/// (which fixes the middle column).
fn second_frame(rep: usize) -> Vec<u8> {
    let t = Symmetry::TRANSPOSE.cells(SIDE);
    if PARTS[0].contains(&(t[rep] as usize)) {
        t
    } else {
        let mirror = Symmetry::FLIP_COLS.cells(SIDE);
        assert_eq!(
            mirror[rep] as usize, rep,
            "the mirror fixes the middle column"
        );
        mirror
    }
}

/// The groups for goal class `rep`: (frame, specs).
fn groups(set: TableSet, rep: usize) -> Vec<(Vec<u8>, Vec<PatternSpec>)> {
    [Symmetry::IDENTITY.cells(SIDE), second_frame(rep)]
        .into_iter()
        .map(|frame| {
            let g = frame[rep] as usize;
            let specs = masks(set, g)
                .into_iter()
                .map(|m| PatternSpec::new(SIDE, m, g))
                .collect();
            (frame, specs)
        })
        .collect()
}

/// The tables for every goal whose blank sits in one class of cells.
/// Immutable once loaded: `Send + Sync`, shared by reference.
pub struct TwentyFourTables {
    tables: TableGroups,
}

impl TwentyFourTables {
    /// Loads the tables for goals with the blank on `goal_blank` (0..25) from
    /// the cache, or builds and stores them (atomically); as
    /// [`crate::solve::pattern::fifteen::FifteenTables::load_or_build_with`].
    pub fn load_or_build_with(
        cache: Option<&TableCache>,
        goal_blank: usize,
        set: TableSet,
        progress: &mut dyn FnMut(&TableEvent),
    ) -> io::Result<TwentyFourTables> {
        assert!(goal_blank < CELLS, "goal blank cell out of range");
        let rep = class_of(SIDE, goal_blank);
        let tables = TableGroups::load(cache, rep, groups(set, rep), progress)?;
        Ok(TwentyFourTables { tables })
    }

    /// Total bytes of the tables held.
    pub fn bytes(&self) -> u64 {
        self.tables.bytes()
    }

    fn heuristic(&self) -> Heuristic<'_, Five> {
        self.tables.heuristic()
    }

    /// The heuristic estimate (a lower bound on the solution length) of `start`
    /// towards `goal`.
    pub fn estimate(&self, start: &[u8], goal: &[u8]) -> u32 {
        let canon = goals::normalise(SIDE, start, goal, self.tables.rep(), Five::BLANK);
        self.heuristic().value(&canon.cells)
    }
}

/// Builds every 5x5 table ahead of time (the `--build-tables` flag), as
/// [`crate::solve::pattern::fifteen::build_all`] does for 4x4.
pub fn build_all(cache: &TableCache, progress: &mut dyn FnMut(&TableEvent)) -> io::Result<()> {
    let specs: Vec<PatternSpec> = CLASSES
        .into_iter()
        .flat_map(|rep| groups(TableSet::Standard, rep))
        .flat_map(|(_, specs)| specs)
        .collect();
    store::build_into(cache, &specs, progress)
}

/// How a 5x5 search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortest {
    /// A shortest solution.
    Found(Vec<Move>),
    /// Stopped before the end (the deadline, or from outside): every solution
    /// has at least `lower_bound` moves.
    Stopped {
        /// A proven lower bound on the solution length.
        lower_bound: u32,
    },
}

/// A shortest solution from `start` to `goal` (row-major, 0 the blank, tiles
/// 1..=24 each once, the goal reachable and its blank in the class of
/// `tables`), searched by `limits.jobs` threads; the same moves whatever their
/// number. `progress` is called on this thread.
///
/// # Panics
///
/// If a board is not a permutation of 0..=24, the goal is not reachable, or
/// the tables were built for another goal class.
pub fn solve_twentyfour(
    start: &[u8],
    goal: &[u8],
    tables: &TwentyFourTables,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&Progress),
) -> Shortest {
    let canon = goals::normalise(SIDE, start, goal, tables.tables.rep(), Five::BLANK);
    let heur = tables.heuristic();
    match parallel::search(&heur, &canon.cells, limits, counters, progress) {
        Outcome::Solved(path) => {
            let blank = start.iter().position(|&t| t == 0).expect("a blank");
            Shortest::Found(goals::moves_back(SIDE, &canon.sigma, blank, &path))
        }
        Outcome::Stopped { lower_bound } => Shortest::Stopped { lower_bound },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::{random_walk, replay};
    use crate::generate::SplitMix64;
    use crate::solve::manhattan::solve_shortest;
    use crate::solve::pattern::tables::store::testing::{files_in, tally};
    use std::sync::OnceLock;

    /// The small tables of each goal class, built once for all tests.
    fn small(goal_blank: usize) -> &'static TwentyFourTables {
        static TABLES: [OnceLock<TwentyFourTables>; 6] = [const { OnceLock::new() }; 6];
        let rep = class_of(SIDE, goal_blank);
        let slot = CLASSES.iter().position(|&c| c == rep).unwrap();
        TABLES[slot].get_or_init(|| {
            TwentyFourTables::load_or_build_with(None, goal_blank, TableSet::Small, &mut |_| {})
                .expect("in-memory build")
        })
    }

    fn limits(jobs: usize) -> Limits<'static> {
        Limits {
            jobs,
            deadline: None,
            report_every: None,
            stop: None,
        }
    }

    /// `board` after `n` random moves that never undo the previous one.
    fn scramble(rng: &mut SplitMix64, board: &[u8], n: usize) -> Vec<u8> {
        random_walk(rng, SIDE, board, n)
    }

    fn solve(start: &[u8], goal: &[u8], jobs: usize) -> Vec<Move> {
        let g = goal.iter().position(|&t| t == 0).unwrap();
        let mut counters = Counters::default();
        let found = solve_twentyfour(
            start,
            goal,
            small(g),
            &limits(jobs),
            &mut counters,
            &mut |_| {},
        );
        let Shortest::Found(moves) = found else {
            panic!("no deadline, no stop")
        };
        let mut cells = start.to_vec();
        let mut blank = cells.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, SIDE, &mut blank, &moves), Ok(()));
        assert_eq!(cells, goal, "solution replays onto the goal");
        assert!(counters.start_h as usize <= moves.len(), "admissible start");
        moves
    }

    fn random_goal(rng: &mut SplitMix64, blank: usize) -> Vec<u8> {
        let mut goal: Vec<u8> = rng
            .permutation(CELLS)
            .into_iter()
            .map(|t| t as u8)
            .collect();
        let b = goal.iter().position(|&t| t == 0).unwrap();
        goal.swap(b, blank);
        goal
    }

    #[test]
    fn every_goal_class_gets_shortest_solutions() {
        let mut rng = SplitMix64::new(0x24);
        // A goal blank of each class, and others mapped onto them by symmetry.
        for goal_blank in [0, 24, 1, 9, 2, 22, 6, 18, 7, 13, 12] {
            let goal = random_goal(&mut rng, goal_blank);
            let length = 18 + rng.index(8);
            let start = scramble(&mut rng, &goal, length);
            let moves = solve(&start, &goal, 1);
            let start32: Vec<u32> = start.iter().map(|&t| t as u32).collect();
            let goal32: Vec<u32> = goal.iter().map(|&t| t as u32).collect();
            let independent = solve_shortest(SIDE, &start32, &goal32, &mut |_| {});
            assert_eq!(moves.len(), independent.len(), "goal blank {goal_blank}");
        }
    }

    #[test]
    fn the_second_lookup_is_admissible_and_can_only_raise_the_estimate() {
        let mut rng = SplitMix64::new(5);
        for rep in CLASSES {
            let tables = small(rep);
            let both = tables.heuristic();
            let groups = groups(TableSet::Small, rep);
            // The first group alone, on the same tables.
            let alone = TableGroups::load(None, rep, groups[..1].to_vec(), &mut |_| {}).unwrap();
            let first: Heuristic<'_, Five> = alone.heuristic();
            let goal: Vec<u8> = (0..CELLS as u8).collect::<Vec<_>>();
            let mut goal = goal;
            goal.swap(0, rep);
            let mut raised = 0;
            for _ in 0..40 {
                let start = scramble(&mut rng, &goal, 30);
                let canon = goals::normalise(SIDE, &start, &goal, rep, Five::BLANK);
                let (h1, h2) = (first.value(&canon.cells), both.value(&canon.cells));
                assert!(h2 >= h1, "class {rep}");
                raised += usize::from(h2 > h1);
            }
            assert!(raised > 0, "class {rep}: the mirror lookup adds something");
        }
    }

    #[test]
    fn threads_give_the_same_moves() {
        let mut rng = SplitMix64::new(77);
        for goal_blank in [0, 7, 12] {
            let goal = random_goal(&mut rng, goal_blank);
            let start = scramble(&mut rng, &goal, 30);
            let one = solve(&start, &goal, 1);
            for jobs in [2, 3] {
                assert_eq!(solve(&start, &goal, jobs), one, "jobs {jobs}");
            }
        }
    }

    #[test]
    fn a_passed_deadline_stops_with_a_lower_bound() {
        let mut rng = SplitMix64::new(9);
        let goal: Vec<u8> = (0..CELLS as u8).collect();
        let start = scramble(&mut rng, &goal, 200);
        let mut counters = Counters::default();
        let limits = Limits {
            deadline: Some(std::time::Instant::now()),
            ..limits(2)
        };
        let out = solve_twentyfour(&start, &goal, small(0), &limits, &mut counters, &mut |_| {});
        let Shortest::Stopped { lower_bound } = out else {
            panic!("a hard puzzle cannot be solved by a passed deadline")
        };
        assert!(lower_bound >= counters.start_h && lower_bound > 0);
    }

    #[test]
    fn a_stopped_search_starts_no_subtree() {
        let mut rng = SplitMix64::new(9);
        let goal: Vec<u8> = (0..CELLS as u8).collect();
        let start = scramble(&mut rng, &goal, 200);
        for jobs in [1, 2] {
            let stop = std::sync::atomic::AtomicBool::new(false);
            let mut counters = Counters::default();
            let limits = Limits {
                stop: Some(&stop),
                ..limits(jobs)
            };
            // Stopped at the end of the fourth iteration: the fifth only splits.
            let (mut iterations, mut nodes_then) = (0, 0);
            let out = solve_twentyfour(&start, &goal, small(0), &limits, &mut counters, &mut |p| {
                if p.iteration_done {
                    iterations += 1;
                    if iterations == 4 {
                        stop.store(true, std::sync::atomic::Ordering::Relaxed);
                        nodes_then = p.nodes;
                    }
                }
            });
            assert!(matches!(out, Shortest::Stopped { .. }), "jobs {jobs}");
            // Only the fifth iteration's breadth-first split (a frontier of 64
            // nodes in tests): no thread starts a subtree once stopped.
            let after = counters.expanded - nodes_then;
            assert!(after < 1000, "jobs {jobs}: {after} nodes after the stop");
        }
    }

    #[test]
    fn damaged_table_files_are_rebuilt() {
        let dir = std::env::temp_dir().join(format!(
            "puzzle-twentyfour-cache-{}-{:?}",
            std::process::id(),
            std::time::Instant::now()
        ));
        let cache = TableCache::new(dir.clone());
        let load = || {
            tally(|progress| {
                TwentyFourTables::load_or_build_with(Some(&cache), 7, TableSet::Small, progress)
                    .unwrap()
            })
        };
        let (first, events) = load();
        // Six tables of the first group; the mirror fixes cell 7 and shares them.
        assert_eq!(events.stored, 6);
        drop(first);
        let files = files_in(&dir);
        assert_eq!(files.len(), 6, "no temporary files are left behind");
        assert!(files.iter().all(|f| f
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("twentyfour-")));
        // Flip a bit in one payload, cut another short.
        let mut bytes = std::fs::read(&files[0]).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x01;
        std::fs::write(&files[0], &bytes).unwrap();
        std::fs::write(&files[3], &bytes[..100]).unwrap();
        let (tables, events) = load();
        assert_eq!((events.corrupt, events.built, events.loaded), (2, 2, 4));
        // The rebuilt tables solve as the in-memory ones do.
        let mut rng = SplitMix64::new(3);
        let goal = random_goal(&mut rng, 7);
        let start = scramble(&mut rng, &goal, 24);
        let want = solve(&start, &goal, 1);
        let mut counters = Counters::default();
        let got = solve_twentyfour(
            &start,
            &goal,
            &tables,
            &limits(2),
            &mut counters,
            &mut |_| {},
        );
        assert_eq!(got, Shortest::Found(want));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn production_partition_covers_every_class() {
        for rep in CLASSES {
            for (frame, specs) in groups(TableSet::Standard, rep) {
                assert_eq!(specs.len(), 4);
                assert!(specs.iter().all(|s| s.tiles() == 6));
                let g = frame[rep] as usize;
                let covered = specs.iter().fold(0, |m, s| m | s.cells);
                assert_eq!(covered, ((1 << CELLS) - 1) & !(1 << g));
            }
        }
        // Ten distinct tables: B, C, D and A without each of 0, 1, 2, 5, 6, 7, 12.
        let mut all: Vec<PatternSpec> = CLASSES
            .into_iter()
            .flat_map(|rep| groups(TableSet::Standard, rep))
            .flat_map(|(_, s)| s)
            .collect();
        all.sort_by_key(|s| (s.cells, s.goal_region));
        all.dedup();
        assert_eq!(all.len(), 10);
    }
}
