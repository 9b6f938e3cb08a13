//! `Method::Near`, 5x5 without `--shortest`: a near-shortest answer in about
//! a second; and the start of `Method::Shortest`, whose anytime search
//! begins from that answer.
//!
//! 1. **The beams** ([`pattern::near`]): a shortest-path search of a few
//!    hundred thousand nodes proves a lower bound (and solves easy puzzles
//!    outright), then a beam search over the 5x5 pattern databases from the
//!    start and a second one from the goal; the shorter answer is kept.
//! 2. **The shortening** ([`shortened`]): stretches of at most [`WINDOW`]
//!    moves of that answer are searched again exactly, within a budget of
//!    nodes, and spliced in where they are shorter.
//! 3. **With a time limit** only: the time left goes to the anytime search
//!    of `--shortest` ([`pattern::shortest`]) from that answer, and the
//!    shorter answer is kept.
//!
//! `--shortest` ([`shortest`]) takes steps 1 and 2, whatever its time
//! limit, then the anytime search from their answer: stopped, it never
//! answers longer than plain `--solve`.
//!
//! Steps 1 and 2 are counted in nodes, never timed: their answer is the
//! same on any machine and for any `--jobs`.

use super::outcome::{Counters, Limits, Outcome, SearchProgress};
use super::pattern::{self, Incumbent, NearSearch, Tables};
use crate::board_adt::move_list::MoveList;
use crate::board_adt::symmetry::class_of;
use crate::board_adt::Board;
use std::time::Instant;

/// The near-shortest answer from `start` to `goal` (5x5) over `tables` (those
/// of the goal's class) on `limits.jobs` threads; `limits.stop` ends it
/// early, and with `limits.deadline` the time left goes to the anytime
/// search (see the module docs) if it is more than what the answer so far
/// took (less would hardly buy a beam wider than the answer's own).
pub(crate) fn solve(
    start: &Board,
    goal: &Board,
    tables: &Tables,
    limits: &Limits<'_>,
    counters: &mut Counters,
) -> Outcome {
    let began = Instant::now();
    let (jobs, stop) = (limits.jobs, limits.stop);
    let (moves, lower_bound) = match answer(start, goal, tables, limits, counters) {
        Outcome::Unproven { moves, lower_bound } => (moves, lower_bound),
        other => return other,
    };
    let Some(deadline) = limits
        .deadline
        .filter(|&deadline| Instant::now() + began.elapsed() < deadline)
    else {
        return Outcome::Unproven { moves, lower_bound };
    };
    let incumbent = Incumbent {
        moves: Some(moves.clone()),
        nodes: counters.expanded,
        took: began.elapsed(),
    };
    let limits = Limits {
        jobs,
        deadline: Some(deadline),
        report_every: None,
        stop,
        max_nodes: None,
        astar_memory: None,
    };
    match pattern::shortest(
        start,
        goal,
        tables,
        incumbent,
        &limits,
        counters,
        &mut |_| {},
    ) {
        Outcome::Solved(best) => Outcome::Unproven {
            lower_bound: best.len() as u32,
            moves: best,
        },
        Outcome::Stopped {
            lower_bound: proven,
            best: Some(best),
        } => {
            let best = shortened(start, goal, best, tables, counters);
            Outcome::Unproven {
                moves: if best.len() < moves.len() {
                    best
                } else {
                    moves
                },
                lower_bound: lower_bound.max(proven),
            }
        }
        _ => Outcome::Unproven { moves, lower_bound },
    }
}

/// `Method::Shortest`: a shortest solution from `start` to `goal` (5x5) by
/// the anytime search over `tables` ([`pattern::shortest`]) under `limits`,
/// from the answer of plain `--solve` (steps 1 and 2 of the module docs,
/// found first whatever the deadline). Stopped, the best solution so far,
/// never longer than that answer, and the best lower bound proven.
pub(crate) fn shortest(
    start: &Board,
    goal: &Board,
    tables: &Tables,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    let began = Instant::now();
    let mut first = Counters::default();
    let (moves, lower_bound) = match answer(start, goal, tables, limits, &mut first) {
        Outcome::Solved(moves) => (Some(moves), 0),
        Outcome::Unproven { moves, lower_bound } => (Some(moves), lower_bound),
        Outcome::Stopped { lower_bound, best } => (best, lower_bound),
    };
    let incumbent = Incumbent {
        moves,
        nodes: first.expanded,
        took: began.elapsed(),
    };
    match pattern::shortest(start, goal, tables, incumbent, limits, counters, progress) {
        Outcome::Stopped {
            lower_bound: proven,
            best,
        } => Outcome::Stopped {
            lower_bound: proven.max(lower_bound),
            best,
        },
        ended => ended,
    }
}

/// The answer of plain `--solve` (steps 1 and 2 of the module docs) on
/// `limits.jobs` threads, whatever `limits.deadline`; `limits.stop` ends it
/// early, as [`Outcome::Stopped`].
fn answer(
    start: &Board,
    goal: &Board,
    tables: &Tables,
    limits: &Limits<'_>,
    counters: &mut Counters,
) -> Outcome {
    let search = NearSearch::new(tables, limits.jobs, limits.stop);
    match pattern::near(start, goal, &search, counters) {
        Outcome::Unproven { moves, lower_bound } => Outcome::Unproven {
            moves: shortened(start, goal, moves, tables, counters),
            lower_bound,
        },
        other => other,
    }
}

/// The longest stretch of a 5x5 beam's solution that [`shortened`] searches
/// again.
const WINDOW: usize = 70;

/// The nodes [`shortened`] may spend on all its searches together, on one
/// thread: a budget in nodes, so that the answer is the same on any machine
/// and for any `--jobs`. Measured on Korf and Felner's 50 24-puzzles
/// (stretches of at most 70 moves): 300,000 nodes shortened them from 1.0278
/// to 1.0238 times the optimum on average (worst from 1.084 to 1.063), for
/// 0.26 M nodes and 6% more CPU time a puzzle; a million gave the same.
const WINDOW_NODES: u64 = 300_000;

/// `moves` from `start` to `goal` (5x5, the beam's answer), shortened where a
/// stretch of at most [`WINDOW`] moves has a shorter way: an exact search
/// over `tables` from the board before the stretch to the board after it,
/// tried for the stretches that end on a board whose blank is in the class
/// of the goal's (the only goals the tables serve), from the first to the
/// last, while [`WINDOW_NODES`] lasts.
fn shortened(
    start: &Board,
    goal: &Board,
    mut moves: MoveList,
    tables: &Tables,
    counters: &mut Counters,
) -> MoveList {
    let side = start.side();
    let class = class_of(side, goal.blank());
    let mut used = 0;
    // The stretch from board `i` to board `j` of the solution.
    let mut j = 1;
    while j <= moves.len() && used < WINDOW_NODES {
        let i = j.saturating_sub(WINDOW);
        let mut before = start.clone();
        moves.iter().take(i).for_each(|mv| {
            before.slide(mv);
        });
        let mut after = before.clone();
        moves.iter().skip(i).take(j - i).for_each(|mv| {
            after.slide(mv);
        });
        if class_of(side, after.blank()) == class {
            let limits = Limits {
                max_nodes: Some(WINDOW_NODES - used),
                ..Limits::UNLIMITED
            };
            let mut inner = Counters::default();
            let out = pattern::solve(&before, &after, tables, &limits, &mut inner, &mut |_| {});
            used += inner.expanded;
            counters.expanded += inner.expanded;
            if let Outcome::Solved(better) = out {
                if better.len() < j - i {
                    let mut spliced = MoveList::new();
                    let rest = moves.iter().skip(j);
                    moves
                        .iter()
                        .take(i)
                        .chain(better.iter())
                        .chain(rest)
                        .for_each(|mv| spliced.push(mv));
                    j = i + better.len();
                    moves = spliced;
                }
            }
        }
        j += 1;
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::Move;
    use crate::board_adt::Puzzle;
    use crate::generate::SplitMix64;
    use crate::solve::pattern::{TableSet, TWENTY_FOUR};

    #[test]
    fn a_detour_in_a_five_by_five_solution_is_searched_away() {
        // The way back of a walk from the goal, with a detour of six moves
        // (three moves and their inverses) at its start.
        let goal = Board::from_cells((1..25).chain([0]).collect()).unwrap();
        let mut rng = SplitMix64::new(5);
        let (mut start, mut walk) = (goal.clone(), Vec::new());
        while walk.len() < 24 {
            let mv = Move::ALL[rng.below(4) as usize];
            if walk.last() != Some(&mv.inverse()) && start.slide(mv) {
                walk.push(mv);
            }
        }
        let mut detour = Vec::new();
        let mut away = start.clone();
        while detour.len() < 3 {
            let mv = Move::ALL[rng.below(4) as usize];
            if detour.last() != Some(&mv.inverse()) && away.slide(mv) {
                detour.push(mv);
            }
        }
        let mut moves = MoveList::new();
        for mv in detour
            .iter()
            .copied()
            .chain(detour.iter().rev().map(|m| m.inverse()))
        {
            moves.push(mv);
        }
        for mv in walk.iter().rev() {
            moves.push(mv.inverse());
        }
        let tables = Tables::load(
            &TWENTY_FOUR,
            None,
            goal.blank(),
            TableSet::Small,
            &mut |_| {},
        )
        .expect("in memory");
        let puzzle = Puzzle::new(start.clone(), goal.clone()).unwrap();
        let mut counters = Counters::default();
        let before = moves.len();
        let shorter = shortened(&start, &goal, moves, &tables, &mut counters);
        assert!(shorter.len() <= before - 6, "{} of {before}", shorter.len());
        let mut board = puzzle.start().clone();
        for (i, mv) in shorter.iter().enumerate() {
            assert!(board.slide(mv), "move {i} ({mv}) does not apply");
        }
        assert_eq!(&board, puzzle.goal());
        assert!(counters.expanded <= WINDOW_NODES);
    }
}
