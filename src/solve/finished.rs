//! `Method::Finished`, 6x6 to 10x10: the reduction finished by the 5x5
//! beam, the beam over the whole board beside it, then the polish.
//!
//! 1. **The reduction** ([`reduced`], `constructive/`): rows and columns
//!    placed by beams over moves down to a 5x5 corner, which the 5x5 beam
//!    over the pattern databases (`pattern/`) finishes.
//! 2. **The whole-board beam** ([`whole_board_answer`], `whole_board/`),
//!    on 6x6 only: a beam over the whole board, its 5x5 corner finished by
//!    the same 5x5 beam where that is shorter; the shorter of the two
//!    answers is kept.
//! 3. **With a time limit** only: wider beams of each while the next one
//!    (about twice the last) fits in the time left, less a tenth of the
//!    limit for the polish ([`Plan::spare`]).
//! 4. **The polish** (`polish/`): stretches of the answer inside small
//!    windows re-solved shortest.
//!
//! How hard each step works is chosen in `method.rs` and handed in as a
//! [`Plan`]; the tables are fetched before (`Solver::solve`).

use super::constructive::{self, Weights};
use super::outcome::{Counters, Limits, Outcome};
use super::pattern::{self, NearSearch, Tables};
use super::polish;
use super::whole_board;
use crate::board_adt::move_list::MoveList;
use crate::board_adt::Board;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// What the reduction of one board runs on and how hard it works: chosen by
/// `Method` (`method.rs`), its tables fetched by `Solver::solve`.
pub(crate) struct Plan<'a> {
    /// The 5x5 tables for corner goals: the beam that finishes the corner.
    pub(crate) corner: &'a Tables,
    /// How hard the reduction works.
    pub(crate) reduction: Reduction,
    /// The beam over the whole board beside the reduction (6x6): its
    /// heuristic and its width.
    pub(crate) whole_board: Option<(&'a whole_board::Heuristic, usize)>,
    /// The windows that polish the answer, if any.
    pub(crate) polish: Option<polish::Windows<'a>>,
    /// What a time limit keeps for the polish: a wider beam starts only if
    /// it should end this long before the deadline.
    pub(crate) spare: Duration,
}

/// How hard the reduction to a 5x5 corner works (`constructive/`): more
/// states and images give shorter solutions, slowly, for time that grows
/// with them (docs/journal.md has the figures).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reduction {
    /// States a level of each beam over moves.
    pub(crate) width: usize,
    /// States a level of the first L's beam (it places the most tiles: on
    /// 7x7 a wider one there shortens more, for its time, than everywhere).
    pub(crate) first_width: usize,
    /// Images of the board under the square's symmetries reduced (of 8).
    pub(crate) images: usize,
    /// How the beams weigh what is left.
    pub(crate) weights: Weights,
    /// Reductions finished by the 5x5 beam (those with the fewest moves plus
    /// the corner's estimate); the shortest whole solution is kept.
    pub(crate) finish: usize,
}

/// The widest beam over moves an anytime reduction (a time limit) grows
/// to: its history of parents takes about 8 bytes a state a level.
const WIDEST_REDUCTION: usize = 1 << 17;

/// The widest whole-board beam a time limit grows to: its history of
/// parents takes about 8 bytes a board a depth, its boards 112 bytes each.
pub(crate) const WIDEST_WHOLE_BOARD: usize = 1 << 18;

/// The answer for `start` to `goal` (boards of side 6 to 10) as the module
/// docs say, on `limits.jobs` threads; `limits.deadline` (a time limit)
/// widens the beams, `limits.stop` ends the widening.
pub(crate) fn solve(
    start: &Board,
    goal: &Board,
    plan: &Plan<'_>,
    limits: &Limits<'_>,
    counters: &mut Counters,
) -> Outcome {
    let (jobs, stop, deadline) = (limits.jobs, limits.stop, limits.deadline);
    let tables = plan.corner;
    let mut effort = plan.reduction;
    let began = Instant::now();
    let mut best = reduced(start, goal, tables, jobs, effort, counters);
    let mut took = began.elapsed();
    let mut beam = plan.whole_board;
    let mut beam_took = Duration::ZERO;
    if let Some((heuristic, width)) = beam {
        let began = Instant::now();
        if let Some(moves) =
            whole_board_answer(start, goal, heuristic, tables, width, jobs, counters)
        {
            if moves.len() < best.len() {
                best = moves;
            }
        }
        beam_took = began.elapsed();
    }
    // With a time limit, wider beams while the next one (about
    // twice the last) fits in the time left, less a tenth of
    // the limit for the polish.
    let spare = plan.spare;
    while let Some(deadline) = deadline {
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let mut widened = false;
        effort.width *= 2;
        effort.first_width *= 2;
        if effort.first_width.max(effort.width) <= WIDEST_REDUCTION
            && Instant::now() + took * 2 + spare <= deadline
            && !stopped()
        {
            let began = Instant::now();
            let moves = reduced(start, goal, tables, jobs, effort, counters);
            took = began.elapsed();
            if moves.len() < best.len() {
                best = moves;
            }
            widened = true;
        }
        if let Some((heuristic, width)) = beam.as_mut() {
            *width *= 2;
            if *width <= WIDEST_WHOLE_BOARD
                && Instant::now() + beam_took * 2 + spare <= deadline
                && !stopped()
            {
                let began = Instant::now();
                let answer =
                    whole_board_answer(start, goal, heuristic, tables, *width, jobs, counters);
                beam_took = began.elapsed();
                if let Some(moves) = answer.filter(|m| m.len() < best.len()) {
                    best = moves;
                }
                widened = true;
            }
        }
        if !widened {
            break;
        }
    }
    Outcome::Solved(match &plan.polish {
        Some(windows) => polish::polished(start, best, windows, counters),
        None => best,
    })
}

/// The whole-board beam's answer for `start` to `goal` (6x6 or 7x7) over
/// `heuristic`, `width` boards a depth, with the stretch after its first
/// board whose tiles outside a 5x5 corner are home finished by the 5x5
/// beam over `tables` (the 5x5 tables for corner goals) where that is
/// shorter; `None` if the beam found nothing.
fn whole_board_answer(
    start: &Board,
    goal: &Board,
    heuristic: &whole_board::Heuristic,
    tables: &Tables,
    width: usize,
    jobs: usize,
    counters: &mut Counters,
) -> Option<MoveList> {
    let side = start.side();
    // A depth far beyond any answer's (the beam's answers on 6x6 are at
    // most about 250 moves).
    let max_depth = 8 * side * side;
    let moves = whole_board::solve(start.cells(), heuristic, width, jobs, max_depth, counters)?;
    let evals = std::cell::Cell::new(0);
    let finish = |s: &[u8], g: &[u8]| {
        let mut inner = Counters::default();
        let out = pattern::near_cells(s, g, &NearSearch::beam_only(tables, jobs), &mut inner);
        evals.set(evals.get() + inner.expanded);
        match out {
            Outcome::Solved(moves) | Outcome::Unproven { moves, .. } => moves.to_vec(),
            Outcome::Stopped { .. } => unreachable!("nothing stops the beam"),
        }
    };
    let moves = whole_board::finished_corner(side, start.cells(), goal.cells(), moves, &finish);
    counters.expanded += evals.get();
    Some(moves.into())
}

/// The reduction of `start` to `goal` (boards of side 6 or more) down to a
/// 5x5 corner, which the beam over `tables` (the 5x5 tables for corner
/// goals) finishes on `jobs` threads.
fn reduced(
    start: &Board,
    goal: &Board,
    tables: &Tables,
    jobs: usize,
    effort: Reduction,
    counters: &mut Counters,
) -> MoveList {
    let estimate = |s: &[u8], g: &[u8]| pattern::estimate(s, g, tables);
    let evals = std::cell::Cell::new(0);
    let solve = |s: &[u8], g: &[u8]| {
        let mut inner = Counters::default();
        let out = pattern::near_cells(s, g, &NearSearch::beam_only(tables, jobs), &mut inner);
        evals.set(evals.get() + inner.expanded);
        match out {
            Outcome::Solved(moves) | Outcome::Unproven { moves, .. } => moves,
            Outcome::Stopped { .. } => unreachable!("nothing stops the beam"),
        }
    };
    let finisher = constructive::Finisher {
        estimate: &estimate,
        solve: &solve,
        jobs,
        width: effort.width,
        first_width: effort.first_width,
        weights: effort.weights,
        images: effort.images,
        finish: effort.finish,
    };
    let moves = constructive::solve_finished(start, goal, &finisher);
    counters.expanded += evals.get();
    moves
}
