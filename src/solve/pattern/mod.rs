//! Shortest solutions of the 4x4 and the 5x5 puzzle towards any goal, by IDA*
//! over additive pattern databases: one method for both sides, the
//! differences between them data ([`partition`]).
//!
//! - **Any goal** ([`canonical`]). Tiles are renamed by their cell in the
//!   goal, and a symmetry of the square moves the goal's blank onto the
//!   representative of its class; the search runs on that image and its moves
//!   are turned back. One set of tables per goal class serves every goal.
//! - **Tables** ([`tables`]). A table maps every placement of its pattern
//!   tiles to a lower bound on their moves, the blank modelled (Korf and
//!   Felner 2002); the partition says which tables a goal class needs, and the
//!   heuristic is the larger of two sums of disjoint tables: on the board, and
//!   on a mirror image of it that fixes the goal.
//! - **Lifecycle** ([`tables`]). [`Tables::load`] reads each table from the
//!   cache directory ([`TableCache`]) or builds it (on two idle cores about
//!   8 s for the 4x4 8-tile table and 1 s for a 7-tile one, 0.7 GB peak,
//!   and 2-3 s for a 5x5 6-tile table; 18-23 s, 2-3 s and 3-6 s when
//!   another build shares the two cores) and stores it. Files are written to a temporary
//!   name and renamed into place, and checked on load (magic, version,
//!   pattern, size, checksum); a missing or damaged file is rebuilt. Two
//!   processes that start at once both build and both rename; the last rename
//!   wins and both files are valid, so no lock file is used. If the cache
//!   cannot be written the tables stay in memory. Progress is reported through
//!   [`TableEvent`]s; the library never prints. A process holds each table
//!   once, whatever uses it, and a [`Shelf`] keeps the tables of each goal
//!   class for every later puzzle.
//! - **Search** ([`ida`]). IDA* in batches (so that table reads overlap),
//!   duplicate pruning by a finite-state machine, sibling ordering,
//!   bidirectional pathmax, and a split of the tree over threads whose
//!   subtrees are taken nearest the goal first, as the previous iteration
//!   learnt; the same moves for any number of threads.
//! - **Near-shortest answers** ([`beams`]). A bound proven by a short
//!   search, then beams over the same tables from the start and from the
//!   goal, the shorter answer kept: plain 5x5 `--solve`, and the 5x5 corner
//!   that finishes larger boards.
//!
//! **Measured** (release build, one core, tables loaded): Korf's 100 4x4
//! instances, all lengths optimal, 0.97 M nodes, about 0.20 s of search in
//! total (0.19-0.30 s from run to run: the machine is a shared VM); loading
//! the corner tables takes about 0.1-0.2 s. Korf and Felner's five easiest
//! 24-puzzles: 185 M nodes, 34 s on one thread, 16 s on two.

mod anytime;
mod beams;
mod canonical;
mod goal_tables;
mod ida;
mod partition;
mod tables;

pub(crate) use anytime::Incumbent;
pub(crate) use beams::{near, near_cells, NearSearch};
pub(crate) use goal_tables::{build_all, Shelf, Tables};
pub use partition::TableSet;
pub(crate) use partition::{Partition, FIFTEEN, TWENTY_FOUR};
pub(crate) use tables::{checksum, write_atomically};
pub use tables::{EmptyCacheDir, TableCache, TableEvent};

use crate::board_adt::Board;
use crate::solve::grid;
use crate::solve::outcome::{Counters, Limits, Outcome, SearchProgress};
use ida::{Five, Four, Geometry};

/// A shortest solution from `start` to `goal` (the goal reachable and its
/// blank in the class of `tables`, the boards of their partition's side),
/// searched by `limits.jobs` threads; the same moves whatever their number.
/// `progress` is called on this thread.
///
/// # Panics
///
/// If the boards are not of the tables' side, the goal is not reachable, or
/// the tables were built for another goal class.
pub(crate) fn solve(
    start: &Board,
    goal: &Board,
    tables: &Tables,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    let (start, goal, cells) = narrowed(start, goal);
    solve_cells(
        &start[..cells],
        &goal[..cells],
        tables,
        limits,
        counters,
        progress,
    )
}

/// A lower bound on the moves from `start` to `goal` (plain cells, the
/// goal's blank in the class of `tables`): the tables' estimate.
pub(crate) fn estimate(start: &[u8], goal: &[u8], tables: &Tables) -> u32 {
    fn on<G: Geometry>(start: &[u8], goal: &[u8], tables: &Tables) -> u32 {
        let canon = canonical::normalise(G::SIDE, start, goal, tables.rep, G::BLANK);
        tables.heuristic::<G>().value(&canon.cells)
    }
    match tables.partition.side {
        4 => on::<Four>(start, goal, tables),
        5 => on::<Five>(start, goal, tables),
        side => unreachable!("pattern databases for 4x4 and 5x5, not {side}x{side}"),
    }
}

/// A shortest solution from `start` to `goal` (as for [`solve`]) that keeps
/// the best solution found so far, from `incumbent` on ([`anytime`]): when
/// `limits` stop it, [`Outcome::Stopped`] carries that solution and the
/// lower bound proven.
pub(crate) fn shortest(
    start: &Board,
    goal: &Board,
    tables: &Tables,
    incumbent: Incumbent,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    let (start, goal, cells) = narrowed(start, goal);
    let (start, goal) = (&start[..cells], &goal[..cells]);
    match tables.partition.side {
        4 => anytime::solve::<Four>(start, goal, tables, incumbent, limits, counters, progress),
        5 => anytime::solve::<Five>(start, goal, tables, incumbent, limits, counters, progress),
        side => unreachable!("pattern databases for 4x4 and 5x5, not {side}x{side}"),
    }
}

/// The cells of a 4x4 or 5x5 `start` and `goal` as bytes (row-major, 0 the
/// blank), and how many there are.
fn narrowed(start: &Board, goal: &Board) -> ([u8; 25], [u8; 25], usize) {
    let cells = start.len();
    assert!(cells <= 25 && goal.len() == cells, "a 4x4 or 5x5 board");
    (grid::narrow::<25>(start), grid::narrow::<25>(goal), cells)
}

/// [`solve`] on plain cells (row-major, 0 the blank).
fn solve_cells(
    start: &[u8],
    goal: &[u8],
    tables: &Tables,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    match tables.partition.side {
        4 => search::<Four>(start, goal, tables, limits, counters, progress),
        5 => search::<Five>(start, goal, tables, limits, counters, progress),
        side => unreachable!("pattern databases for 4x4 and 5x5, not {side}x{side}"),
    }
}

/// [`solve_cells`] compiled for one side.
fn search<G: Geometry>(
    start: &[u8],
    goal: &[u8],
    tables: &Tables,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    let canon = canonical::normalise(G::SIDE, start, goal, tables.rep, G::BLANK);
    let heur = tables.heuristic::<G>();
    match ida::search(&heur, &canon.cells, limits, counters, progress) {
        Outcome::Solved(mut moves) => {
            moves.map_each(canon.symmetry.moves_back());
            Outcome::Solved(moves)
        }
        stopped => stopped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::{replay, Move};
    use crate::board_adt::symmetry::class_of;
    use crate::generate::random_walk;
    use crate::generate::SplitMix64;
    use goal_tables::testing::{small, small_large};

    /// The moves of a search that cannot have been stopped.
    fn solved(outcome: Outcome) -> Vec<Move> {
        match outcome {
            Outcome::Solved(moves) => moves.to_vec(),
            _ => panic!("no deadline and no stop"),
        }
    }

    /// The 4x4 puzzle.
    mod fifteen {
        use super::*;
        use crate::board_adt::symmetry::Symmetry;
        use crate::solve::grid::{manhattan, reachable};
        use crate::solve::pattern::tables::testing::{files_in, tally, Tally};
        use std::path::PathBuf;
        use std::time::Instant;

        const SIDE: usize = 4;

        /// A random 4x4 board.
        fn board(rng: &mut SplitMix64) -> [u8; 16] {
            let cells = rng.permutation(16);
            std::array::from_fn(|i| cells[i] as u8)
        }

        /// `board` after `n` random moves that never undo the previous one.
        fn scramble(rng: &mut SplitMix64, board: &[u8; 16], n: usize) -> [u8; 16] {
            let walked = random_walk(rng, 4, board, n);
            walked.try_into().expect("16 cells")
        }

        /// Solves, replays the moves and checks they reach the goal.
        fn solve_checked(start: &[u8; 16], goal: &[u8; 16], tables: &Tables) -> Vec<Move> {
            let mut counters = Counters::default();
            let moves = solved(solve_cells(
                start,
                goal,
                tables,
                &Limits::UNLIMITED,
                &mut counters,
                &mut |_| {},
            ));
            let mut cells = *start;
            let mut blank = cells.iter().position(|&t| t == 0).unwrap();
            assert_eq!(replay(&mut cells, 4, &mut blank, &moves), Ok(()));
            assert_eq!(&cells, goal, "solution replays onto the goal");
            assert!(
                counters.start_h as usize <= moves.len(),
                "the estimate is a lower bound"
            );
            moves
        }

        /// Shortest solution length by a plain IDA* with the Manhattan distance: an
        /// independent check for short instances.
        fn manhattan_length(start: &[u8; 16], goal: &[u8; 16]) -> usize {
            let mut home = [0usize; 16];
            for (c, &t) in goal.iter().enumerate() {
                home[t as usize] = c;
            }
            let h = |b: &[u8; 16]| -> usize {
                (0..16)
                    .filter(|&c| b[c] != 0)
                    .map(|c| manhattan(SIDE, c, home[b[c] as usize]) as usize)
                    .sum()
            };
            fn dfs(
                b: &mut [u8; 16],
                blank: usize,
                g: usize,
                bound: usize,
                prev: Option<usize>,
                h: &dyn Fn(&[u8; 16]) -> usize,
            ) -> bool {
                let est = h(b);
                if est == 0 {
                    return true;
                }
                if g + est > bound {
                    return false;
                }
                for mv in Move::ALL {
                    if let Some(nb) = mv.blank_target(4, blank) {
                        if Some(nb) == prev {
                            continue;
                        }
                        b.swap(blank, nb);
                        let found = dfs(b, nb, g + 1, bound, Some(blank), h);
                        b.swap(blank, nb);
                        if found {
                            return true;
                        }
                    }
                }
                false
            }
            let mut bound = h(start);
            loop {
                let mut b = *start;
                let blank = b.iter().position(|&t| t == 0).unwrap();
                if dfs(&mut b, blank, 0, bound, None, &h) {
                    return bound;
                }
                bound += 2;
            }
        }

        #[test]
        fn goal_cells_fall_into_three_classes() {
            let classes: Vec<usize> = (0..16).map(|c| class_of(SIDE, c)).collect();
            assert_eq!(classes, [0, 1, 1, 0, 1, 5, 5, 1, 1, 5, 5, 1, 0, 1, 1, 0]);
            for cell in 0..16 {
                let rep = class_of(SIDE, cell);
                assert!(Symmetry::ALL.iter().any(|s| s.cell(SIDE, cell) == rep));
            }
        }

        #[test]
        fn parity_decides_reachability() {
            let goal: [u8; 16] = std::array::from_fn(|i| i as u8);
            let mut rng = SplitMix64::new(7);
            let start = scramble(&mut rng, &goal, 31);
            assert!(reachable(SIDE, &start, &goal) && reachable(SIDE, &goal, &start));
            let mut swapped = start;
            let (a, b) = if swapped[0] == 0 || swapped[1] == 0 {
                (2, 3)
            } else {
                (0, 1)
            };
            swapped.swap(a, b);
            assert!(!reachable(SIDE, &swapped, &goal));
        }

        #[test]
        fn solving_the_goal_itself_takes_no_moves() {
            let mut rng = SplitMix64::new(3);
            let goal = board(&mut rng);
            let tables = small(&FIFTEEN, goal.iter().position(|&t| t == 0).unwrap());
            assert!(solve_checked(&goal, &goal, tables).is_empty());
        }

        #[test]
        fn random_goals_in_every_class_get_shortest_solutions() {
            let mut rng = SplitMix64::new(0x5eed);
            // Goal blanks: corners, edge cells and centre cells in various places.
            for goal_blank in [0, 15, 1, 2, 4, 7, 8, 11, 13, 14, 5, 6, 9, 10] {
                for _ in 0..3 {
                    let mut goal = board(&mut rng);
                    let b = goal.iter().position(|&t| t == 0).unwrap();
                    goal.swap(b, goal_blank);
                    let len = 24 + rng.index(14);
                    let start = scramble(&mut rng, &goal, len);
                    let moves = solve_checked(&start, &goal, small(&FIFTEEN, goal_blank));
                    assert_eq!(
                        moves.len(),
                        manhattan_length(&start, &goal),
                        "goal {goal:?}"
                    );
                }
            }
        }

        /// Easy instances of Korf's 100 (id, optimal length, start; goal is 0..=15).
        const KORF: [(usize, usize, [u8; 16]); 6] = [
            (
                9,
                46,
                [3, 14, 9, 11, 5, 4, 8, 2, 13, 12, 6, 7, 10, 1, 15, 0],
            ),
            (
                12,
                45,
                [14, 1, 9, 6, 4, 8, 12, 5, 7, 2, 3, 0, 10, 11, 13, 15],
            ),
            (
                13,
                46,
                [3, 6, 5, 2, 10, 0, 15, 14, 1, 4, 13, 12, 9, 8, 11, 7],
            ),
            (
                42,
                42,
                [4, 5, 7, 2, 9, 14, 12, 13, 0, 3, 6, 11, 8, 1, 15, 10],
            ),
            (
                55,
                41,
                [13, 8, 14, 3, 9, 1, 0, 7, 15, 5, 4, 10, 12, 2, 6, 11],
            ),
            (
                79,
                42,
                [0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15],
            ),
        ];

        #[test]
        fn korf_instances_keep_their_length_under_symmetry_and_relabelling() {
            let goal: [u8; 16] = std::array::from_fn(|i| i as u8);
            let mut rng = SplitMix64::new(99);
            for (id, want, start) in KORF {
                for (k, sym) in Symmetry::ALL.map(|s| s.cells(SIDE)).iter().enumerate() {
                    // Move every cell by the symmetry, then rename the tiles at random.
                    let mut names: [u8; 16] = std::array::from_fn(|i| i as u8);
                    for i in (2..16).rev() {
                        names.swap(i, 1 + rng.index(i));
                    }
                    let map = |b: &[u8; 16]| {
                        let mut out = [0u8; 16];
                        for c in 0..16 {
                            out[sym[c] as usize] = names[b[c] as usize];
                        }
                        out
                    };
                    let (s, g) = (map(&start), map(&goal));
                    let tables = small(&FIFTEEN, sym[0] as usize);
                    let moves = solve_checked(&s, &g, tables);
                    assert_eq!(moves.len(), want, "instance {id}, symmetry {k}");
                }
            }
        }

        #[test]
        fn korf_instances_backwards_give_edge_and_centre_goals() {
            // From the standard board to a Korf start: the goal's blank is wherever
            // the instance has it (edge, centre or corner); the length is the same.
            let standard: [u8; 16] = std::array::from_fn(|i| i as u8);
            let mut classes = Vec::new();
            for (id, want, start) in KORF {
                let blank = start.iter().position(|&t| t == 0).unwrap();
                classes.push(class_of(SIDE, blank));
                let moves = solve_checked(&standard, &start, small(&FIFTEEN, blank));
                assert_eq!(moves.len(), want, "instance {id} backwards");
            }
            assert!(classes.contains(&1) && classes.contains(&5));
        }

        fn temp_dir(name: &str) -> PathBuf {
            let dir = std::env::temp_dir().join(format!(
                "puzzle-fifteen-test-{name}-{}-{:?}",
                std::process::id(),
                Instant::now()
            ));
            std::fs::create_dir_all(&dir).unwrap();
            dir
        }

        #[test]
        fn cached_tables_are_reused_and_rebuilt_when_corrupt() {
            let dir = temp_dir("cache");
            let cache = TableCache::new(dir.clone());
            let load = || {
                tally(|progress| {
                    Tables::load(&FIFTEEN, Some(&cache), 0, TableSet::Small, progress).unwrap()
                })
            };
            let (_, first) = load();
            assert_eq!((first.stored, first.plans), (3, 1), "one notice first");
            let (_, second) = load();
            assert_eq!((second.loaded, second.built, second.plans), (3, 0, 0));

            // Damage one table's payload and truncate another.
            let files = files_in(&dir);
            assert_eq!(files.len(), 3, "no temporary files are left behind");
            let mut bytes = std::fs::read(&files[0]).unwrap();
            let last = bytes.len() - 1;
            bytes[last] ^= 0x10;
            std::fs::write(&files[0], &bytes).unwrap();
            std::fs::write(&files[1], b"PZ15PDB").unwrap();
            let (tables, third) = load();
            assert_eq!((third.corrupt, third.built, third.loaded), (2, 2, 1));
            let (_, want, start) = KORF[0];
            let goal: [u8; 16] = std::array::from_fn(|i| i as u8);
            assert_eq!(solve_checked(&start, &goal, &tables).len(), want);
            // While one set of tables is alive, another shares them: nothing is read.
            let (_, sharing) = load();
            assert_eq!(sharing, Tally::default());
            drop(tables);
            let (_, fourth) = load();
            assert_eq!(fourth.loaded, 3);
            std::fs::remove_dir_all(&dir).unwrap();
        }

        #[test]
        fn an_unwritable_cache_keeps_tables_in_memory() {
            // A file where the cache directory should be: it cannot be created.
            let dir = temp_dir("unwritable");
            let blocker = dir.join("not-a-dir");
            std::fs::write(&blocker, b"x").unwrap();
            let cache = TableCache::new(blocker.join("puzzle"));
            let mut events = Vec::new();
            let tables = Tables::load(&FIFTEEN, Some(&cache), 5, TableSet::Small, &mut |e| {
                events.push(e.clone())
            })
            .unwrap();
            assert!(events
                .iter()
                .any(|e| matches!(e, TableEvent::CacheUnwritable { .. })));
            let goal: [u8; 16] = [1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
            let start = scramble(&mut SplitMix64::new(11), &goal, 30);
            let moves = solve_checked(&start, &goal, &tables);
            assert_eq!(moves.len(), manhattan_length(&start, &goal));
            std::fs::remove_dir_all(&dir).unwrap();
        }

        #[test]
        fn tables_can_be_shared_across_threads() {
            fn shareable<T: Send + Sync>() {}
            shareable::<Tables>();
            let goal: [u8; 16] = std::array::from_fn(|i| i as u8);
            let tables = small(&FIFTEEN, 0);
            std::thread::scope(|s| {
                for (_, want, start) in KORF.iter().take(2) {
                    s.spawn(move || assert_eq!(solve_checked(start, &goal, tables).len(), *want));
                }
            });
        }
    }

    /// The 5x5 puzzle.
    mod twentyfour {
        use super::*;
        use crate::solve::manhattan::solve_shortest;
        use crate::solve::pattern::tables::testing::{files_in, tally};

        const SIDE: usize = 5;
        const CELLS: usize = 25;

        /// `board` after `n` random moves that never undo the previous one.
        fn scramble(rng: &mut SplitMix64, board: &[u8], n: usize) -> Vec<u8> {
            random_walk(rng, SIDE, board, n)
        }

        fn solve(start: &[u8], goal: &[u8], jobs: usize) -> Vec<Move> {
            let g = goal.iter().position(|&t| t == 0).unwrap();
            let mut counters = Counters::default();
            let limits = Limits {
                jobs,
                ..Limits::UNLIMITED
            };
            let found = solve_cells(
                start,
                goal,
                small(&TWENTY_FOUR, g),
                &limits,
                &mut counters,
                &mut |_| {},
            );
            let moves = solved(found);
            let mut cells = start.to_vec();
            let mut blank = cells.iter().position(|&t| t == 0).unwrap();
            assert_eq!(replay(&mut cells, SIDE, &mut blank, &moves), Ok(()));
            assert_eq!(cells, goal, "solution replays onto the goal");
            assert!(counters.start_h as usize <= moves.len(), "admissible start");
            moves
        }

        fn random_goal(rng: &mut SplitMix64, blank: usize) -> Vec<u8> {
            goal_tables::testing::random_goal(rng, CELLS, blank)
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

        fn wide(cells: &[u8]) -> Vec<u32> {
            cells.iter().map(|&t| u32::from(t)).collect()
        }

        #[test]
        fn several_partitionings_give_shortest_solutions_in_every_goal_class() {
            let mut rng = SplitMix64::new(0x26);
            for goal_blank in [0, 24, 1, 9, 2, 22, 6, 18, 7, 13, 12] {
                let goal = random_goal(&mut rng, goal_blank);
                let length = 18 + rng.index(8);
                let start = scramble(&mut rng, &goal, length);
                let tables = small_large(goal_blank);
                assert_eq!(tables.heuristic::<Five>().groups(), 6);
                let mut counters = Counters::default();
                let limits = Limits {
                    jobs: 2,
                    ..Limits::UNLIMITED
                };
                let found = solve_cells(&start, &goal, tables, &limits, &mut counters, &mut |_| {});
                let moves = solved(found);
                let mut cells = start.clone();
                let mut blank = cells.iter().position(|&t| t == 0).unwrap();
                assert_eq!(replay(&mut cells, SIDE, &mut blank, &moves), Ok(()));
                assert_eq!(cells, goal, "solution replays onto the goal");
                let independent = solve_shortest(SIDE, &wide(&start), &wide(&goal), &mut |_| {});
                assert_eq!(moves.len(), independent.len(), "goal blank {goal_blank}");
                assert!(counters.start_h as usize <= moves.len(), "admissible start");
            }
        }

        #[test]
        fn more_partitionings_raise_the_estimate_and_it_stays_a_lower_bound() {
            let mut rng = SplitMix64::new(0x2626);
            for goal_blank in [0, 1, 2, 6, 7, 12] {
                let goal = random_goal(&mut rng, goal_blank);
                let (one, three) = (small(&TWENTY_FOUR, goal_blank), small_large(goal_blank));
                let mut raised = 0;
                for _ in 0..30 {
                    // The walk's length bounds the shortest solution.
                    let length = 10 + rng.index(30);
                    let start = scramble(&mut rng, &goal, length);
                    let (h1, h3) = (estimate(&start, &goal, one), estimate(&start, &goal, three));
                    assert!(h1 <= h3 && h3 as usize <= length, "{h1} {h3} {length}");
                    raised += usize::from(h3 > h1);
                }
                assert!(
                    raised > 0,
                    "goal blank {goal_blank}: the others add something"
                );
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
                jobs: 2,
                deadline: Some(std::time::Instant::now()),
                ..Limits::UNLIMITED
            };
            let out = solve_cells(
                &start,
                &goal,
                small(&TWENTY_FOUR, 0),
                &limits,
                &mut counters,
                &mut |_| {},
            );
            let Outcome::Stopped { lower_bound, .. } = out else {
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
                    jobs,
                    stop: Some(&stop),
                    ..Limits::UNLIMITED
                };
                // Stopped at the end of the fourth iteration: the fifth only splits.
                let (mut iterations, mut nodes_then) = (0, 0);
                let out = solve_cells(
                    &start,
                    &goal,
                    small(&TWENTY_FOUR, 0),
                    &limits,
                    &mut counters,
                    &mut |p| {
                        if p.iteration_done {
                            iterations += 1;
                            if iterations == 4 {
                                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                                nodes_then = p.nodes;
                            }
                        }
                    },
                );
                assert!(matches!(out, Outcome::Stopped { .. }), "jobs {jobs}");
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
                    Tables::load(&TWENTY_FOUR, Some(&cache), 7, TableSet::Small, progress).unwrap()
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
            let limits = Limits {
                jobs: 2,
                ..Limits::UNLIMITED
            };
            let got = solve_cells(&start, &goal, &tables, &limits, &mut counters, &mut |_| {});
            assert_eq!(got, Outcome::Solved(want.into()));
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
