//! Near-shortest answers over the tables (plain 5x5 `--solve`, and the 5x5
//! corner that finishes the reduction of larger boards): a shortest-path
//! search of a few hundred thousand nodes that proves a lower bound (and
//! solves easy puzzles outright), a beam search from the start
//! ([`ida::beam`]), and a second one from the goal back to the start
//! ([`reverse_beam`]); the shorter answer is kept. Everything is counted in
//! nodes and boards, never timed, so the answer is the same on any machine
//! and for any number of threads. What one such search runs with is a
//! [`NearSearch`].

use super::goal_tables::Tables;
use super::ida::{self, BeamLimits, Five, Four, Geometry, Heuristic};
use super::{canonical, narrowed};
use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::{reversed, Move};
use crate::board_adt::symmetry::class_of;
use crate::board_adt::Board;
use crate::solve::grid;
use crate::solve::outcome::{Counters, Limits, Outcome};
use std::sync::atomic::{AtomicBool, Ordering};

/// What a near-shortest search runs with, passed as one to [`near`] and to
/// every function under it: the tables, the threads, what it spends besides
/// the forward beam, and the flag that stops it. (The forward beam's width
/// is the tables' own: [`Tables::near_effort`].)
#[derive(Clone, Copy)]
pub(crate) struct NearSearch<'a> {
    /// The tables of the goal's class (their partition's side is the
    /// boards').
    pub(crate) tables: &'a Tables,
    /// Threads of the beams; the answer is the same moves for any number.
    pub(crate) jobs: usize,
    /// Nodes of the shortest-path search for the lower bound (0: none, and
    /// then the lower bound is 0).
    pub(crate) bound_nodes: u64,
    /// The width of the beam from the goal back to the start (0: none).
    pub(crate) reverse: usize,
    /// Ends the search early, with the lower bound proven so far.
    pub(crate) stop: Option<&'a AtomicBool>,
}

impl<'a> NearSearch<'a> {
    /// Plain `--solve`'s search: the bound and the reverse beam the tables
    /// ask for ([`Tables::near_effort`]), on `jobs` threads, ended early by
    /// `stop`.
    pub(crate) fn new(tables: &'a Tables, jobs: usize, stop: Option<&'a AtomicBool>) -> Self {
        let (_, bound_nodes, reverse) = tables.near_effort();
        NearSearch {
            tables,
            jobs,
            bound_nodes,
            reverse,
            stop,
        }
    }

    /// The forward beam alone, on `jobs` threads: no search for a lower
    /// bound (it is 0), no reverse beam, nothing that stops it.
    pub(crate) fn beam_only(tables: &'a Tables, jobs: usize) -> Self {
        NearSearch {
            tables,
            jobs,
            bound_nodes: 0,
            reverse: 0,
            stop: None,
        }
    }
}

/// A near-shortest solution from `start` to `goal` (the goal reachable and
/// its blank in the class of `search.tables`, the boards of their
/// partition's side) by a beam search over the tables ([`ida::beam`]) and,
/// if `search.reverse` asks, a second one from the goal back to the start
/// ([`reverse_beam`]), the shorter answer kept, after a shortest-path
/// search of `search.bound_nodes` nodes that proves a lower bound (and, on
/// easy puzzles, finds a shortest solution: then [`Outcome::Solved`]). The
/// same moves whatever `search.jobs` is. `search.stop` ends it early, with
/// the lower bound proven so far.
pub(crate) fn near(
    start: &Board,
    goal: &Board,
    search: &NearSearch<'_>,
    counters: &mut Counters,
) -> Outcome {
    let (start, goal, cells) = narrowed(start, goal);
    near_cells(&start[..cells], &goal[..cells], search, counters)
}

/// [`near`] on plain cells (row-major, 0 the blank).
pub(crate) fn near_cells(
    start: &[u8],
    goal: &[u8],
    search: &NearSearch<'_>,
    counters: &mut Counters,
) -> Outcome {
    match search.tables.partition.side {
        4 => near_on::<Four>(start, goal, search, counters),
        5 => near_on::<Five>(start, goal, search, counters),
        side => unreachable!("pattern databases for 4x4 and 5x5, not {side}x{side}"),
    }
}

/// [`near_cells`] compiled for one side, with the reverse beam of
/// `search` if any ([`reverse_beam`]): the shorter answer is kept, the
/// forward one if they are as long.
fn near_on<G: Geometry>(
    start: &[u8],
    goal: &[u8],
    search: &NearSearch<'_>,
    counters: &mut Counters,
) -> Outcome {
    let tables = search.tables;
    let canon = canonical::normalise(G::SIDE, start, goal, tables.rep, G::BLANK);
    let back = |mut moves: MoveList| {
        moves.map_each(canon.symmetry.moves_back());
        moves
    };
    let heur = tables.heuristic::<G>();
    let lower_bound = if search.bound_nodes == 0 {
        0
    } else {
        let limits = Limits {
            max_nodes: Some(search.bound_nodes),
            stop: search.stop,
            ..Limits::UNLIMITED
        };
        match ida::search(&heur, &canon.cells, &limits, counters, &mut |_| {}) {
            Outcome::Solved(moves) => return Outcome::Solved(back(moves)),
            Outcome::Stopped { lower_bound, .. } | Outcome::Unproven { lower_bound, .. } => {
                lower_bound
            }
        }
    };
    let never = AtomicBool::new(false);
    let stop = search.stop.unwrap_or(&never);
    let beam = ida::beam(
        &heur,
        &canon.cells,
        &BeamLimits {
            width: tables.near_effort().0,
            jobs: search.jobs,
            cutoff: u32::MAX,
            stop,
            deadline: None,
        },
    );
    counters.expanded += beam.evals;
    let mut moves = beam.moves.map(back);
    if search.reverse > 0 {
        if let Some(forward) = moves.as_ref().filter(|_| !stop.load(Ordering::Relaxed)) {
            let (reverse, evals) = reverse_beam(&heur, start, goal, search);
            counters.expanded += evals;
            if let Some(reverse) = reverse.filter(|r| r.len() < forward.len()) {
                moves = Some(reverse);
            }
        }
    }
    match moves {
        Some(moves) if !stop.load(Ordering::Relaxed) => Outcome::Unproven { moves, lower_bound },
        best => Outcome::Stopped { lower_bound, best },
    }
}

/// A second answer from `start` to `goal` (plain cells) by a beam of
/// `search.reverse` the other way: from the goal to the start, its moves
/// then reversed. The tables serve only goals whose blank is in their
/// class, so that beam aims at the start with its blank walked first to the
/// nearest cell of the class (the first, in cell order, of the nearest; the
/// walk straight, the first direction of [`Move::ALL`] that comes nearer at
/// each step), and the answer is that walk, then the reversed moves (a move
/// that undoes the walk's last cancels with it). `None` if the beam found
/// nothing or was stopped; also the beam's evaluations.
///
/// Why: the forward beam loses the shortest paths near the start, where
/// the tables' estimate of the distance to the goal is the least accurate,
/// and is near-shortest near the goal; the reverse beam errs at the other
/// end, so the two are wrong on different puzzles.
fn reverse_beam<G: Geometry>(
    heur: &Heuristic<'_, G>,
    start: &[u8],
    goal: &[u8],
    search: &NearSearch<'_>,
) -> (Option<MoveList>, u64) {
    let side = G::SIDE;
    let never = AtomicBool::new(false);
    let stop = search.stop.unwrap_or(&never);
    let (walk, aim) = walked_into_class(side, start, goal);
    let canon = canonical::normalise(side, goal, &aim, search.tables.rep, G::BLANK);
    let beam = ida::beam(
        heur,
        &canon.cells,
        &BeamLimits {
            width: search.reverse,
            jobs: search.jobs,
            cutoff: u32::MAX,
            stop,
            deadline: None,
        },
    );
    let moves = beam
        .moves
        .filter(|_| !stop.load(Ordering::Relaxed))
        .map(|mut back| {
            back.map_each(canon.symmetry.moves_back());
            let mut moves = walk;
            for mv in reversed(&back.to_vec()) {
                moves.push_cancelling(mv);
            }
            moves
        });
    (moves, beam.evals)
}

/// The moves that walk the blank of `start` (plain cells, `side` wide) to
/// the nearest cell in the class of `goal`'s blank (see [`reverse_beam`]),
/// and the board they lead to.
fn walked_into_class(side: usize, start: &[u8], goal: &[u8]) -> (MoveList, Vec<u8>) {
    let blank_of = |cells: &[u8]| cells.iter().position(|&t| t == 0).expect("a blank");
    let class = class_of(side, blank_of(goal));
    let distance = |a: usize, b: usize| grid::manhattan(side, a, b);
    let mut cells = start.to_vec();
    let mut blank = blank_of(start);
    let target = (0..side * side)
        .filter(|&c| class_of(side, c) == class)
        .min_by_key(|&c| (distance(blank, c), c))
        .expect("every class has a cell");
    let mut walk = MoveList::new();
    while blank != target {
        let (mv, next) = Move::ALL
            .iter()
            .find_map(|&mv| {
                let next = mv.blank_target(side, blank)?;
                (distance(next, target) < distance(blank, target)).then_some((mv, next))
            })
            .expect("a move comes nearer");
        cells.swap(blank, next);
        blank = next;
        walk.push(mv);
    }
    (walk, cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::replay;
    use crate::generate::{random_walk, SplitMix64};
    use crate::solve::manhattan::solve_shortest;
    use crate::solve::pattern::goal_tables::testing::{self, small};
    use crate::solve::pattern::TWENTY_FOUR;

    const SIDE: usize = 5;
    const CELLS: usize = 25;

    /// `board` after `n` random moves that never undo the previous one.
    fn scramble(rng: &mut SplitMix64, board: &[u8], n: usize) -> Vec<u8> {
        random_walk(rng, SIDE, board, n)
    }

    fn random_goal(rng: &mut SplitMix64, blank: usize) -> Vec<u8> {
        testing::random_goal(rng, CELLS, blank)
    }

    fn wide(cells: &[u8]) -> Vec<u32> {
        cells.iter().map(|&t| u32::from(t)).collect()
    }

    /// `near` on plain cells, with the small tables, its moves replayed:
    /// the moves and the proven lower bound (their length when solved).
    fn near_checked(start: &[u8], goal: &[u8], jobs: usize) -> (Vec<Move>, u32) {
        let g = goal.iter().position(|&t| t == 0).unwrap();
        let (s, t) = (
            Board::from_cells(wide(start)).unwrap(),
            Board::from_cells(wide(goal)).unwrap(),
        );
        let search = NearSearch::new(small(&TWENTY_FOUR, g), jobs, None);
        let out = near(&s, &t, &search, &mut Counters::default());
        let (moves, bound) = match out {
            Outcome::Solved(moves) => (moves.to_vec(), moves.len() as u32),
            Outcome::Unproven { moves, lower_bound } => (moves.to_vec(), lower_bound),
            Outcome::Stopped { .. } => panic!("nothing stops it"),
        };
        let mut cells = start.to_vec();
        let mut blank = cells.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, SIDE, &mut blank, &moves), Ok(()));
        assert_eq!(cells, goal, "solution replays onto the goal");
        assert!(bound as usize <= moves.len());
        (moves, bound)
    }

    #[test]
    fn near_shortest_solutions_replay_and_their_bounds_hold() {
        let mut rng = SplitMix64::new(0x16);
        for goal_blank in [0, 1, 2, 6, 7, 12, 18] {
            // Short: the shortest length is known independently.
            let goal = random_goal(&mut rng, goal_blank);
            let length = 16 + rng.index(8);
            let start = scramble(&mut rng, &goal, length);
            let (moves, bound) = near_checked(&start, &goal, 2);
            let shortest = solve_shortest(SIDE, &wide(&start), &wide(&goal), &mut |_| {}).len();
            assert!(bound as usize <= shortest && shortest <= moves.len());
            // Long: the bound lies between the Manhattan distance and the
            // walk that made the start; the moves do not depend on the
            // threads.
            let length = 120 + rng.index(40);
            let start = scramble(&mut rng, &goal, length);
            let (moves, bound) = near_checked(&start, &goal, 1);
            let manhattan = grid::distance(SIDE, &start, &goal);
            assert!(u64::from(bound) >= manhattan && bound as usize <= length);
            assert_eq!(
                near_checked(&start, &goal, 3).0,
                moves,
                "goal blank {goal_blank}"
            );
        }
    }

    /// `moves` from `start`, replayed: where they end.
    fn replayed(start: &[u8], moves: &[Move]) -> Vec<u8> {
        let mut cells = start.to_vec();
        let mut blank = cells.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, SIDE, &mut blank, moves), Ok(()));
        cells
    }

    #[test]
    fn the_walk_takes_the_blank_to_the_nearest_cell_of_the_goals_class() {
        let mut rng = SplitMix64::new(0x25);
        for goal_blank in [0, 1, 2, 6, 7, 12] {
            let goal = random_goal(&mut rng, goal_blank);
            for start_blank in 0..CELLS {
                let start = random_goal(&mut rng, start_blank);
                let (walk, aim) = walked_into_class(SIDE, &start, &goal);
                assert_eq!(replayed(&start, &walk.to_vec()), aim);
                let nearest = (0..CELLS)
                    .filter(|&c| class_of(SIDE, c) == class_of(SIDE, goal_blank))
                    .map(|c| grid::manhattan(SIDE, start_blank, c))
                    .min()
                    .unwrap();
                assert_eq!(walk.len() as u32, nearest, "{start_blank} to {goal_blank}");
                let at = aim.iter().position(|&t| t == 0).unwrap();
                assert_eq!(class_of(SIDE, at), class_of(SIDE, goal_blank));
            }
        }
    }

    #[test]
    fn the_reverse_beam_replays_and_the_shorter_answer_is_kept() {
        let mut rng = SplitMix64::new(0x2525);
        let (mut forward_total, mut both_total) = (0, 0);
        for goal_blank in [0, 1, 2, 6, 7, 12, 18, 24] {
            let goal = random_goal(&mut rng, goal_blank);
            let length = 100 + rng.index(60);
            let start = scramble(&mut rng, &goal, length);
            let tables = small(&TWENTY_FOUR, goal_blank);
            let heur = tables.heuristic::<Five>();
            let search = |reverse| NearSearch {
                reverse,
                ..NearSearch::beam_only(tables, 2)
            };
            let (reverse, evals) = reverse_beam(&heur, &start, &goal, &search(1000));
            let reverse = reverse.expect("the beam meets its goal").to_vec();
            assert!(evals > 0);
            assert_eq!(replayed(&start, &reverse), goal, "goal blank {goal_blank}");
            let answer = |reverse| {
                let out =
                    near_on::<Five>(&start, &goal, &search(reverse), &mut Counters::default());
                match out {
                    Outcome::Unproven { moves, .. } => moves.to_vec(),
                    _ => panic!("no bound search, nothing stops it"),
                }
            };
            let (forward, both) = (answer(0), answer(1000));
            assert_eq!(replayed(&start, &both), goal);
            assert_eq!(both.len(), forward.len().min(reverse.len()));
            if reverse.len() >= forward.len() {
                assert_eq!(both, forward, "as long: the forward answer");
            }
            forward_total += forward.len();
            both_total += both.len();
        }
        // The reverse beam is shorter on some of these.
        assert!(both_total < forward_total, "{both_total} {forward_total}");
    }
}
