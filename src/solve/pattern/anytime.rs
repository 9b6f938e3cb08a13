//! `--shortest` on 5x5, anytime: the best solution found so far is kept from
//! the first second, and whatever ends the search (the time limit, a stop
//! from outside) leaves it and a proven lower bound.
//!
//! 1. A beam search of the default width ([`super::NEAR_WIDTH`]) gives the
//!    first solution, the one plain `--solve` prints.
//! 2. The shortest-path search (IDA*, [`ida::search_between`]) runs its
//!    iterations; each one it finishes raises the lower bound. Between two
//!    iterations:
//!    - if the bound has reached the best solution's length, that solution
//!      is proven shortest and the search ends;
//!    - wider beams, pruned by the best length so far (a node whose moves
//!      plus estimate reach it cannot lead to a shorter solution), try to
//!      shorten the best solution. Without a time limit they take about a
//!      third of the work, counted in nodes, so the answer does not depend
//!      on the machine's speed; with one, the time the next iteration would
//!      not finish in goes to them.
//! 3. An iteration that meets a goal ends the search with a shortest
//!    solution.
//!
//! Progress reports carry the best length and estimates of the time left,
//! from the growth of the nodes between the last two iterations.

use super::canonical;
use super::ida::{self, BeamLimits, Geometry, IterationEnd};
use super::Tables;
use crate::board_adt::move_list::MoveList;
use crate::solve::method::{Counters, Limits, Outcome, SearchProgress};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The widest beam tried: about 200 MB of nodes and children. On the first
/// twelve of Korf and Felner's 50, 400,000 gave 1.1% above the optimum (7.5 s
/// on two cores), 200,000 1.3%, 100,000 2.3%, 20,000 3.2%.
const MAX_WIDTH: usize = 1 << 19;

/// With a time limit, the shortest-path search's iterations may take this
/// share of it; the rest goes to beams, which shorten the answer more.
const SEARCH_SHARE: f64 = 0.25;

/// How much more a beam's child costs than a node of the shortest-path
/// search (measured on one core: about 8 million children a second, the
/// cut and the copies included, against about 6 million nodes).
const BEAM_COST: u64 = 1;

/// Beams get about this share of the work when no time limit says more.
const BEAM_SHARE: u64 = 2;

/// What the search knows between its steps.
struct Known {
    /// The best solution so far, on the canonical board.
    best: Option<MoveList>,
    /// Every iteration ended so far.
    iterations: Vec<IterationEnd>,
    /// Nodes of the shortest-path search, and children of the beams.
    ida_nodes: u64,
    beam_evals: u64,
    /// The width of the last beam, and whether it shortened the best.
    width: usize,
    improved: bool,
    /// Seconds a beam took per unit of width, from the last one.
    beam_rate: Option<f64>,
    /// Whether the best solution was proven shortest by the bound.
    proven: bool,
    /// Time spent between iterations (on beams).
    between: Duration,
    /// How long the search may take.
    limit: Option<Duration>,
}

impl Known {
    /// Nothing known yet, with `limit` of time to search in.
    fn new(limit: Option<Duration>) -> Known {
        Known {
            best: None,
            iterations: Vec::new(),
            ida_nodes: 0,
            beam_evals: 0,
            width: 0,
            improved: false,
            beam_rate: None,
            proven: false,
            between: Duration::ZERO,
            limit,
        }
    }

    fn best_len(&self) -> u32 {
        self.best.as_ref().map_or(u32::MAX, |m| m.len() as u32)
    }

    /// The growth of the nodes from one iteration to the next, from the last
    /// two that ended (at least 2), once they are large enough to tell.
    fn growth(&self) -> Option<f64> {
        let [.., a, b] = self.iterations.as_slice() else {
            return None;
        };
        // The first iterations are too small to tell.
        if b.nodes < 100_000 {
            return None;
        }
        Some((b.nodes as f64 / a.nodes.max(1) as f64).max(2.0))
    }

    /// About how long the iteration after the last one ended takes.
    fn next_iteration(&self) -> Option<Duration> {
        let last = self.iterations.last()?;
        Some(last.elapsed.mul_f64(self.growth()?))
    }

    /// The estimates of a progress report in iteration `bound`, `in_iteration`
    /// into it: the time it has left, and the time until every bound below
    /// the best length is done.
    fn estimates(
        &self,
        bound: u32,
        in_iteration: Duration,
    ) -> (Option<Duration>, Option<Duration>) {
        let (Some(growth), Some(last)) = (self.growth(), self.iterations.last()) else {
            return (None, None);
        };
        let this = last.elapsed.as_secs_f64() * growth;
        let left = (this - in_iteration.as_secs_f64()).max(0.0);
        let best = self.best_len();
        if best == u32::MAX {
            return (Some(Duration::from_secs_f64(left)), None);
        }
        // Bounds step by 2: bound + 2, ..., best - 2 after this one.
        let (mut all, mut next) = (left, this);
        let mut b = bound + 2;
        while b < best && all < 1e12 {
            next *= growth;
            all += next;
            b += 2;
        }
        (
            Some(Duration::from_secs_f64(left)),
            Some(Duration::from_secs_f64(all.min(1e12))),
        )
    }
}

/// A shortest solution from `cells` (the canonical board, see
/// [`ida::search`]) as the module docs say; moves on the canonical board.
pub(crate) fn shortest<G: Geometry>(
    cells: &[u8],
    tables: &Tables,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    let heur = tables.heuristic::<G>();
    let never = AtomicBool::new(false);
    let stop = limits.stop.unwrap_or(&never);
    let known = RefCell::new(Known::new(
        limits
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now())),
    ));
    let jobs = limits.jobs.max(1);
    // Runs a beam of `width`, keeping its solution if it is shorter; the
    // first one ignores the deadline, so that a short time limit still gets
    // the answer of a plain `--solve`.
    let beam = |width: usize| {
        let (cutoff, first) = {
            let k = known.borrow();
            (k.best_len(), k.width == 0)
        };
        let started = Instant::now();
        let out = ida::beam(
            &heur,
            cells,
            &BeamLimits {
                width,
                jobs,
                cutoff,
                stop,
                deadline: if first { None } else { limits.deadline },
            },
        );
        let mut k = known.borrow_mut();
        k.beam_evals += out.evals;
        k.width = width;
        k.improved = false;
        if !out.stopped {
            k.beam_rate = Some(started.elapsed().as_secs_f64() / width as f64);
        }
        if let Some(moves) = out.moves {
            if (moves.len() as u32) < k.best_len() {
                k.best = Some(moves);
                k.improved = true;
            }
        }
        !out.stopped
    };
    let first = tables.near_effort().0;
    beam(first);
    let report = |p: &SearchProgress, progress: &mut dyn FnMut(&SearchProgress)| {
        let k = known.borrow();
        let mut p = *p;
        p.best = k.best.as_ref().map(|m| m.len() as u64);
        let iterations: Duration = k.iterations.iter().map(|i| i.elapsed).sum();
        let in_iteration = p.elapsed.saturating_sub(iterations + k.between);
        (p.iteration_left, p.proof_left) = if p.iteration_done {
            (None, k.estimates(p.bound, Duration::ZERO).1)
        } else {
            k.estimates(p.bound, in_iteration)
        };
        progress(&p);
    };
    // The beams between two iterations; whether to go on.
    let beams_between = |end: &IterationEnd| {
        loop {
            let (width, run) = {
                let k = known.borrow();
                next_beam(&k, limits.deadline, first)
            };
            if !run || !beam(width) {
                break;
            }
            let k = known.borrow();
            if end.next_bound >= k.best_len() {
                drop(k);
                known.borrow_mut().proven = true;
                return false;
            }
        }
        !stop.load(Ordering::Relaxed) && limits.deadline.is_none_or(|d| Instant::now() < d)
    };
    let mut between = |end: &IterationEnd| {
        {
            let mut k = known.borrow_mut();
            k.iterations.push(*end);
            k.ida_nodes += end.nodes;
            if end.next_bound >= k.best_len() {
                k.proven = true;
                return false;
            }
        }
        let started = Instant::now();
        let go = beams_between(end);
        known.borrow_mut().between += started.elapsed();
        go
    };
    // Stopped already, the search still proves its first bound.
    let mut progress = |p: &SearchProgress| report(p, progress);
    let outcome = ida::search_between(&heur, cells, limits, counters, &mut progress, &mut between);
    let k = known.into_inner();
    counters.expanded += k.beam_evals;
    match outcome {
        Outcome::Stopped { .. } if k.proven => Outcome::Solved(k.best.expect("a proven solution")),
        Outcome::Stopped { lower_bound, .. } => Outcome::Stopped {
            lower_bound,
            best: k.best,
        },
        solved => solved,
    }
}

/// The width of the next beam, and whether to run one now.
///
/// Without a deadline: doubling widths up to [`MAX_WIDTH`] (and no more at
/// that width once one there shortened nothing), each when the beams' work
/// so far is at most a [`BEAM_SHARE`]-th of the shortest-path search's, in
/// nodes: the same choices on any machine. With one: once the next
/// iteration would end after the deadline, or take the search's time past
/// [`SEARCH_SHARE`] of the limit, the widest beam that should end in the
/// time left, and again while time is left.
fn next_beam(k: &Known, deadline: Option<Instant>, first: usize) -> (usize, bool) {
    let wider = (k.width * 2).min(MAX_WIDTH);
    let exhausted = k.width >= MAX_WIDTH && !k.improved;
    if let (Some(deadline), Some(limit), Some(rate)) = (deadline, k.limit, k.beam_rate) {
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        let searched: Duration = k.iterations.iter().map(|i| i.elapsed).sum();
        let late = k.next_iteration().is_some_and(|next| {
            next > left || (searched + next).as_secs_f64() > limit.as_secs_f64() * SEARCH_SHARE
        });
        if late {
            let width = ((left.as_secs_f64() * 0.8 / rate) as usize).min(MAX_WIDTH);
            let worth = width >= first && (width > k.width || k.improved);
            return (width, worth);
        }
    }
    let due = k.beam_evals * BEAM_COST * BEAM_SHARE <= k.ida_nodes;
    (wider, due && !exhausted)
}

/// [`shortest`] from a start and a goal on plain cells, the moves turned back
/// to the goal's frame.
pub(crate) fn solve<G: Geometry>(
    start: &[u8],
    goal: &[u8],
    tables: &Tables,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    let canon = canonical::normalise(G::SIDE, start, goal, tables.rep, G::BLANK);
    let back = |mut moves: MoveList| {
        moves.map_each(canon.symmetry.moves_back());
        moves
    };
    match shortest::<G>(&canon.cells, tables, limits, counters, progress) {
        Outcome::Solved(moves) => Outcome::Solved(back(moves)),
        Outcome::Unproven { moves, lower_bound } => Outcome::Unproven {
            moves: back(moves),
            lower_bound,
        },
        Outcome::Stopped { lower_bound, best } => Outcome::Stopped {
            lower_bound,
            best: best.map(back),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::{replay, Move};
    use crate::generate::{random_walk, SplitMix64};
    use crate::solve::manhattan::solve_shortest;
    use crate::solve::pattern::ida::Five;
    use crate::solve::pattern::{TableSet, Tables, TWENTY_FOUR};
    use std::sync::OnceLock;

    /// The small 5x5 tables for goals with the blank in a corner.
    fn tables() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(|| {
            Tables::load(&TWENTY_FOUR, None, 0, TableSet::Small, &mut |_| {}).expect("in memory")
        })
    }

    /// A start `length` random moves from a random goal with its blank in
    /// the top-left corner.
    fn puzzle(seed: u64, length: usize) -> (Vec<u8>, Vec<u8>) {
        let mut rng = SplitMix64::new(seed);
        let mut goal: Vec<u8> = rng.permutation(25).into_iter().map(|t| t as u8).collect();
        let b = goal.iter().position(|&t| t == 0).unwrap();
        goal.swap(b, 0);
        (random_walk(&mut rng, 5, &goal, length), goal)
    }

    fn replayed(start: &[u8], goal: &[u8], moves: &MoveList) -> Vec<Move> {
        let moves = moves.to_vec();
        let mut cells = start.to_vec();
        let mut blank = cells.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, 5, &mut blank, &moves), Ok(()));
        assert_eq!(cells, goal, "the moves end on the goal");
        moves
    }

    fn run(
        start: &[u8],
        goal: &[u8],
        limits: &Limits<'_>,
        progress: &mut dyn FnMut(&SearchProgress),
    ) -> Outcome {
        solve::<Five>(
            start,
            goal,
            tables(),
            limits,
            &mut Counters::default(),
            progress,
        )
    }

    #[test]
    fn without_limits_the_answer_is_shortest_and_the_same_for_any_threads() {
        for seed in 0..4 {
            let (start, goal) = puzzle(seed, 22 + seed as usize);
            let wide = |v: &[u8]| v.iter().map(|&t| u32::from(t)).collect::<Vec<_>>();
            let shortest = solve_shortest(5, &wide(&start), &wide(&goal), &mut |_| {}).len();
            let mut answers = Vec::new();
            for jobs in [1, 2, 3] {
                let limits = Limits {
                    jobs,
                    ..Limits::UNLIMITED
                };
                let Outcome::Solved(moves) = run(&start, &goal, &limits, &mut |_| {}) else {
                    panic!("nothing stops it")
                };
                assert_eq!(
                    replayed(&start, &goal, &moves).len(),
                    shortest,
                    "seed {seed}"
                );
                answers.push(moves);
            }
            assert!(answers.iter().all(|a| *a == answers[0]), "seed {seed}");
        }
    }

    #[test]
    fn a_stop_leaves_the_best_solution_and_a_proven_bound() {
        // Far beyond the small tables' reach: stopped once two iterations
        // have ended, the search has its first beam's solution, every report
        // carries its length, and the bound is that of the next iteration.
        let (start, goal) = puzzle(7, 300);
        for jobs in [1, 2] {
            let stop = AtomicBool::new(false);
            let limits = Limits {
                jobs,
                stop: Some(&stop),
                ..Limits::UNLIMITED
            };
            let (mut ended, mut bounds, mut bests) = (0, Vec::new(), Vec::new());
            let out = run(&start, &goal, &limits, &mut |p| {
                bests.push(p.best);
                if p.iteration_done {
                    ended += 1;
                    bounds.push(p.bound);
                    if ended == 2 {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
            let Outcome::Stopped { lower_bound, best } = out else {
                panic!("stopped")
            };
            let moves = replayed(&start, &goal, &best.expect("the first beam's solution"));
            assert!(bests.iter().all(|b| *b == Some(moves.len() as u64)));
            assert!(lower_bound > bounds[1] && (lower_bound as usize) < moves.len());
        }
    }

    #[test]
    fn a_passed_deadline_still_gets_the_first_beams_solution() {
        let (start, goal) = puzzle(9, 300);
        let limits = Limits {
            jobs: 2,
            deadline: Some(Instant::now()),
            ..Limits::UNLIMITED
        };
        let Outcome::Stopped { lower_bound, best } = run(&start, &goal, &limits, &mut |_| {})
        else {
            panic!("stopped by the deadline")
        };
        let moves = replayed(
            &start,
            &goal,
            &best.expect("the first beam ignores the deadline"),
        );
        assert!(lower_bound > 0 && (lower_bound as usize) < moves.len());
    }

    #[test]
    fn estimates_follow_the_growth_between_iterations() {
        let end = |nodes: u64, secs: u64| IterationEnd {
            next_bound: 0,
            nodes,
            elapsed: Duration::from_secs(secs),
        };
        let mut k = Known {
            best: Some((0..50).map(|_| Move::Up).collect()),
            iterations: vec![end(100_000, 1), end(1_000_000, 10)],
            ..Known::new(None)
        };
        assert_eq!(k.growth(), Some(10.0));
        assert_eq!(k.next_iteration(), Some(Duration::from_secs(100)));
        // 30 s into bound 46 of a best of 50: 70 s more for it, then 1000 s
        // for bound 48.
        let (this, all) = k.estimates(46, Duration::from_secs(30));
        assert_eq!(this, Some(Duration::from_secs(70)));
        assert_eq!(all, Some(Duration::from_secs(1070)));
        // Iterations too small to tell say nothing.
        k.iterations = vec![end(10, 0), end(300, 0)];
        assert_eq!(k.estimates(46, Duration::ZERO), (None, None));
    }
}
