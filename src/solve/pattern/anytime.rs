//! `--shortest` on 5x5, anytime: the best solution found so far is kept from
//! the first second, and whatever ends the search (the time limit, a stop
//! from outside) leaves it and a proven lower bound.
//!
//! 1. The answer of plain `--solve` (`near.rs`: two beams, their stretches
//!    re-solved) is the first solution, the [`Incumbent`]; it is found
//!    before, whatever the time limit, so a stopped search never answers
//!    longer than plain `--solve`.
//! 2. The shortest-path search (IDA*, [`ida::search_between`]) runs its
//!    iterations; each one it finishes raises the lower bound. Between two
//!    iterations:
//!    - if the bound has reached the best solution's length, that solution
//!      is proven shortest and the search ends;
//!    - wider beams, pruned by the best length so far (a node whose moves
//!      plus estimate reach it cannot lead to a shorter solution), try to
//!      shorten the best solution. Without a time limit they take about a
//!      third of the work, counted in nodes (the incumbent's among them),
//!      so the answer does not depend on the machine's speed; with one, the
//!      time the next iteration would not finish in goes to them.
//! 3. An iteration that meets a goal ends the search with a shortest
//!    solution.
//!
//! Progress reports carry the best length and estimates of the time left,
//! from the growth of the nodes between the last two iterations.

use super::canonical;
use super::goal_tables::Tables;
use super::ida::{self, BeamLimits, Geometry, IterationEnd};
use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::Move;
use crate::solve::outcome::{Counters, Limits, Outcome, SearchProgress};
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
    /// The width of the last beam and of the widest, and whether the last
    /// shortened the best.
    width: usize,
    widest: usize,
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
            widest: 0,
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
    /// into it, after `iterations` (the last one just before it): the time
    /// it has left, at the least and the most growth between the last
    /// iterations ([`growth_range`]); and the time until the best length is
    /// proven shortest or beaten, from a lower estimate (a solution two moves
    /// shorter than the best is met at once, and the bounds below it go
    /// through their whole trees at the least growth) to an upper one (the
    /// best is shortest: every bound below it goes through its whole tree,
    /// at the most growth).
    fn estimates(
        &self,
        iterations: &[IterationEnd],
        bound: u32,
        in_iteration: Duration,
    ) -> (Option<Range>, Option<Range>) {
        let (Some((low, high)), Some(last)) = (growth_range(iterations), iterations.last()) else {
            return (None, None);
        };
        let best = self.best_len();
        // The time this iteration has left, and the time until every bound
        // below `until` has gone through its tree (bounds step by 2).
        let ahead = |growth: f64, until: u32| {
            let this = last.elapsed.as_secs_f64() * growth;
            let left = (this - in_iteration.as_secs_f64()).max(0.0);
            let mut all = if bound < until { left } else { 0.0 };
            let (mut next, mut b) = (this, bound + 2);
            while b < until && all < 1e12 {
                next *= growth;
                all += next;
                b += 2;
            }
            (
                Duration::from_secs_f64(left),
                Duration::from_secs_f64(all.min(1e12)),
            )
        };
        let (left_low, all_low) = ahead(low, best.saturating_sub(2));
        let (left_high, all_high) = ahead(high, best);
        let proof = (best != u32::MAX).then_some((all_low, all_high));
        (Some((left_low, left_high)), proof)
    }
}

/// A time left, the least and the most.
type Range = (Duration, Duration);

/// Iterations whose growth from the one before is told apart from noise:
/// those of at least this many nodes.
const GROWTH_NODES: u64 = 100_000;

/// How many of the last growths between iterations the ranges of the
/// estimates take.
const GROWTHS: usize = 3;

/// The least and the most growth of the nodes from one whole iteration to
/// the next, over the last [`GROWTHS`] pairs of `iterations` whose second
/// has [`GROWTH_NODES`] or more (each taken as at least 2).
fn growth_range(iterations: &[IterationEnd]) -> Option<(f64, f64)> {
    iterations
        .windows(2)
        .filter(|w| w[1].nodes >= GROWTH_NODES && w[0].complete && w[1].complete)
        .map(|w| (w[1].nodes as f64 / w[0].nodes.max(1) as f64).max(2.0))
        .rev()
        .take(GROWTHS)
        .fold(None, |range, g| match range {
            None => Some((g, g)),
            Some((low, high)) => Some((f64::min(low, g), f64::max(high, g))),
        })
}

/// What the anytime search starts from: the answer of plain `--solve`
/// (`near.rs`), and what finding it took.
pub(crate) struct Incumbent {
    /// Its moves; `None` if it was stopped before it found any.
    pub(crate) moves: Option<MoveList>,
    /// The nodes and beam children it took: they count as the beams' work.
    pub(crate) nodes: u64,
    /// The time it took.
    pub(crate) took: Duration,
}

/// A shortest solution from `cells` (the canonical board, see
/// [`ida::search`]) as the module docs say, from `incumbent` (its moves on
/// the canonical board); moves on the canonical board.
pub(crate) fn shortest<G: Geometry>(
    cells: &[u8],
    tables: &Tables,
    incumbent: Incumbent,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    let never = AtomicBool::new(false);
    let first = tables.near_effort().0;
    let limit = limits
        .deadline
        .map(|d| d.saturating_duration_since(Instant::now()));
    let search = Anytime {
        heur: tables.heuristic::<G>(),
        cells,
        limits,
        stop: limits.stop.unwrap_or(&never),
        // The incumbent's forward beam was the first, of the default width;
        // its time a unit of that width is an upper estimate of a beam's
        // (it also took a bound, a reverse beam and windows).
        known: RefCell::new(Known {
            best: incumbent.moves,
            beam_evals: incumbent.nodes,
            width: first,
            widest: first,
            beam_rate: Some(incumbent.took.as_secs_f64() / first as f64),
            ..Known::new(limit)
        }),
        jobs: limits.jobs.max(1),
        first,
    };
    // Stopped already, the search still proves its first bound.
    let top = ida::Top::within(limits.astar_memory);
    let searched = ida::search_between(
        &search.heur,
        cells,
        limits,
        top,
        counters,
        &mut |p| search.report(p, progress),
        &mut |end| search.between(end),
    );
    search.ended(searched, counters)
}

/// An anytime search under way: what it was asked, and what it knows (in a
/// cell: the beams run inside the shortest-path search's call between two
/// iterations, and the reports inside its progress callback).
struct Anytime<'a, G: Geometry> {
    heur: ida::Heuristic<'a, G>,
    cells: &'a [u8],
    limits: &'a Limits<'a>,
    stop: &'a AtomicBool,
    known: RefCell<Known>,
    /// Threads.
    jobs: usize,
    /// The width of plain `--solve`'s forward beam: the narrowest worth
    /// running.
    first: usize,
}

impl<G: Geometry> Anytime<'_, G> {
    /// Runs a beam of `width`, keeping its solution if it is shorter;
    /// whether it ran to its end.
    fn beam(&self, width: usize) -> bool {
        let cutoff = self.known.borrow().best_len();
        let started = Instant::now();
        let out = ida::beam(
            &self.heur,
            self.cells,
            &BeamLimits {
                width,
                jobs: self.jobs,
                cutoff,
                stop: self.stop,
                deadline: self.limits.deadline,
            },
        );
        let mut k = self.known.borrow_mut();
        k.beam_evals += out.evals;
        k.width = width;
        k.widest = k.widest.max(width);
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
    }

    /// `p`, a report of the shortest-path search, told to `progress` with
    /// the best length so far and the estimates of the time left.
    fn report(&self, p: &SearchProgress, progress: &mut dyn FnMut(&SearchProgress)) {
        let k = self.known.borrow();
        let mut p = *p;
        p.best = k.best.as_ref().map(|m| m.len() as u64);
        let iterations: Duration = k.iterations.iter().map(|i| i.elapsed).sum();
        let in_iteration = p.elapsed.saturating_sub(iterations + k.between);
        (p.iteration_left, p.proof_left) = if p.iteration_done {
            // The iteration just done is not among `k.iterations` yet: what
            // is left begins with the next one.
            let mut done = k.iterations.clone();
            done.push(IterationEnd {
                bound: p.bound,
                nodes: p.nodes.saturating_sub(k.ida_nodes),
                elapsed: in_iteration,
                complete: true,
                ..IterationEnd::default()
            });
            (None, k.estimates(&done, p.bound + 2, Duration::ZERO).1)
        } else {
            k.estimates(&k.iterations, p.bound, in_iteration)
        };
        progress(&p);
    }

    /// What follows the iteration `end`: the best solution proven shortest
    /// by its bound, or the beams (timed); whether the search goes on.
    fn between(&self, end: &IterationEnd) -> bool {
        {
            let mut k = self.known.borrow_mut();
            k.iterations.push(*end);
            k.ida_nodes += end.nodes;
            if end.next_bound >= k.best_len() {
                k.proven = true;
                return false;
            }
        }
        let started = Instant::now();
        let go = self.beams_between(end);
        self.known.borrow_mut().between += started.elapsed();
        go
    }

    /// The beams between the iteration `end` and the next ([`next_beam`]);
    /// whether the search goes on: not if a beam's solution meets the next
    /// bound (proven shortest), a stop or the deadline.
    fn beams_between(&self, end: &IterationEnd) -> bool {
        loop {
            let (width, run) = {
                let k = self.known.borrow();
                next_beam(&k, self.limits.deadline, self.first)
            };
            if !run || !self.beam(width) {
                break;
            }
            let k = self.known.borrow();
            if end.next_bound >= k.best_len() {
                drop(k);
                self.known.borrow_mut().proven = true;
                return false;
            }
        }
        !self.stop.load(Ordering::Relaxed)
            && self.limits.deadline.is_none_or(|d| Instant::now() < d)
    }

    /// How the search ended, from what the shortest-path search left
    /// (`searched`) and the best solution known: the `--stats` lines and
    /// the beams' nodes added to `counters`.
    fn ended(self, searched: ida::Searched, counters: &mut Counters) -> Outcome {
        let outcome = searched.outcome;
        let k = self.known.into_inner();
        counters.expanded += k.beam_evals;
        counters.details = details(
            searched.top.as_ref(),
            &searched.iterations,
            matches!(outcome, Outcome::Solved(_)),
            self.heur.groups(),
            self.heur.tables_per_group(),
            (k.beam_evals, k.widest),
        );
        match outcome {
            Outcome::Stopped { .. } if k.proven => {
                Outcome::Solved(k.best.expect("a proven solution"))
            }
            Outcome::Stopped { lower_bound, .. } => Outcome::Stopped {
                lower_bound,
                best: k.best,
            },
            solved => solved,
        }
    }
}

/// The lines `--stats` adds for a search (see docs/tables.md): one an
/// iteration (its bound, nodes, time, and the growth from the one before;
/// the last one, if it did not go through its whole tree, `met a goal` when
/// `solved`, else `stopped`), what cut children in the depth-first searches
/// (`groups` groups of `tables` tables, named by their part A, B, C, ...),
/// and the beams' children and widest beam.
fn details(
    top: Option<&ida::TopStats>,
    iterations: &[IterationEnd],
    solved: bool,
    groups: usize,
    tables: usize,
    (beam_evals, widest): (u64, usize),
) -> Vec<String> {
    let mut lines = Vec::with_capacity(iterations.len() + 3);
    if let Some(top) = top {
        lines.push(format!(
            "A* top: {} boards expanded, {} stored, {} open (f from {}), {} MiB, {:.2} s",
            top.expanded,
            top.stored,
            top.open,
            top.bound,
            top.bytes >> 20,
            top.elapsed.as_secs_f64()
        ));
    }
    let mut prunes = ida::Prunes::default();
    let mut previous: Option<u64> = None;
    for end in iterations {
        let mut line = format!(
            "iteration bound {}: {} nodes, {:.2} s",
            end.bound,
            end.nodes,
            end.elapsed.as_secs_f64()
        );
        if let Some(before) = previous.filter(|&n| n > 0) {
            line.push_str(&format!(", x{:.1}", end.nodes as f64 / before as f64));
        }
        if !end.complete {
            line.push_str(if solved { ", met a goal" } else { ", stopped" });
        }
        lines.push(line);
        prunes.add(&end.prunes);
        previous = Some(end.nodes);
    }
    let mut line = format!("pruned: {} before a read", prunes.unread);
    for g in 0..groups.min(prunes.read.len()) {
        // Groups come in pairs, a partitioning on the board and on its
        // mirror image; the second and later partitionings are numbered.
        let side = ["board", "mirror"][g % 2];
        match g / 2 {
            0 => line.push_str(&format!("; {side}")),
            p => line.push_str(&format!("; {side} {}", p + 1)),
        }
        for (q, count) in prunes.read[g].iter().enumerate().take(tables) {
            let sep = if q == 0 { " " } else { ", " };
            line.push_str(&format!("{sep}{} {count}", (b'A' + q as u8) as char));
        }
    }
    line.push_str(&format!("; pathmax {}", prunes.pathmax));
    lines.push(line);
    lines.push(format!("beams: {beam_evals} children, widest {widest}"));
    lines
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

/// [`shortest`] from a start and a goal on plain cells, the incumbent's
/// moves turned to the canonical frame and the answer's back to the goal's.
pub(crate) fn solve<G: Geometry>(
    start: &[u8],
    goal: &[u8],
    tables: &Tables,
    mut incumbent: Incumbent,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    let canon = canonical::normalise(G::SIDE, start, goal, tables.rep, G::BLANK);
    let back = |mut moves: MoveList| {
        moves.map_each(canon.symmetry.moves_back());
        moves
    };
    if let Some(moves) = incumbent.moves.as_mut() {
        moves.map_each(Move::ALL.map(|mv| canon.symmetry.image(mv)));
    }
    match shortest::<G>(&canon.cells, tables, incumbent, limits, counters, progress) {
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
    use crate::solve::pattern::goal_tables::testing::small;
    use crate::solve::pattern::ida::Five;
    use crate::solve::pattern::{near_cells, NearSearch, Tables, TWENTY_FOUR};

    /// The small 5x5 tables for goals with the blank in a corner.
    fn tables() -> &'static Tables {
        small(&TWENTY_FOUR, 0)
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

    /// The beams' answer from `start` to `goal` (forward only, no bound)
    /// as the incumbent, as `near.rs` hands its own.
    fn incumbent(start: &[u8], goal: &[u8]) -> Incumbent {
        let mut counters = Counters::default();
        let began = Instant::now();
        let Outcome::Unproven { moves, .. } = near_cells(
            start,
            goal,
            &NearSearch::beam_only(tables(), 1),
            &mut counters,
        ) else {
            panic!("nothing stops the beam")
        };
        Incumbent {
            moves: Some(moves),
            nodes: counters.expanded,
            took: began.elapsed(),
        }
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
            incumbent(start, goal),
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
        // have ended, the search has the incumbent's solution, every report
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
            let moves = replayed(&start, &goal, &best.expect("the incumbent"));
            assert!(bests.iter().all(|b| *b == Some(moves.len() as u64)));
            assert!(lower_bound > bounds[1] && (lower_bound as usize) < moves.len());
        }
    }

    #[test]
    fn a_passed_deadline_still_leaves_the_incumbent_and_a_bound() {
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
        let moves = replayed(&start, &goal, &best.expect("the incumbent, found before"));
        assert!(lower_bound > 0 && (lower_bound as usize) < moves.len());
    }

    #[test]
    fn estimates_follow_the_least_and_the_most_growth_between_iterations() {
        let end = |bound: u32, nodes: u64, secs: u64| IterationEnd {
            bound,
            nodes,
            elapsed: Duration::from_secs(secs),
            complete: true,
            ..IterationEnd::default()
        };
        let secs =
            |low: u64, high: u64| Some((Duration::from_secs(low), Duration::from_secs(high)));
        let k = Known {
            best: Some((0..50).map(|_| Move::Up).collect()),
            iterations: vec![end(42, 100_000, 1), end(44, 1_000_000, 10)],
            ..Known::new(None)
        };
        assert_eq!(k.growth(), Some(10.0));
        assert_eq!(k.next_iteration(), Some(Duration::from_secs(100)));
        // 30 s into bound 46 of a best of 50: 70 s more for it, then 1000 s
        // for bound 48 if 50 is shortest; none if bound 48 holds a solution
        // met at once.
        assert_eq!(
            k.estimates(&k.iterations, 46, Duration::from_secs(30)),
            (secs(70, 70), secs(70, 1070))
        );
        // Growths of 5 and 10: at 5, 50 s for bound 46 (20 left).
        let three = [
            end(40, 20_000, 0),
            end(42, 100_000, 1),
            end(44, 1_000_000, 10),
        ];
        assert_eq!(
            k.estimates(&three, 46, Duration::from_secs(30)),
            (secs(20, 70), secs(20, 1070))
        );
        // Further from the best, the lower estimate goes through more bounds.
        assert_eq!(
            k.estimates(&three, 44, Duration::ZERO).1,
            secs(50 + 250, 100 + 1000 + 10_000)
        );
        // An iteration that did not go through its tree tells no growth.
        let mut stopped = three;
        stopped[2].complete = false;
        assert_eq!(growth_range(&stopped), Some((5.0, 5.0)));
        // Nothing is left once the bound reaches the best.
        assert_eq!(k.estimates(&three, 50, Duration::ZERO).1, secs(0, 0));
        // Iterations too small to tell say nothing.
        let small = [end(40, 10, 0), end(42, 300, 0)];
        assert_eq!(k.estimates(&small, 46, Duration::ZERO), (None, None));
    }

    #[test]
    fn details_give_each_iteration_what_pruned_and_the_beams() {
        let mut prunes = ida::Prunes {
            unread: 70,
            pathmax: 3,
            ..ida::Prunes::default()
        };
        prunes.read[0][..4].copy_from_slice(&[1, 2, 3, 4]);
        prunes.read[1][..4].copy_from_slice(&[5, 6, 7, 8]);
        let iterations = [
            IterationEnd {
                bound: 80,
                nodes: 400,
                elapsed: Duration::from_millis(10),
                complete: true,
                ..IterationEnd::default()
            },
            IterationEnd {
                bound: 82,
                nodes: 3000,
                elapsed: Duration::from_millis(70),
                prunes,
                complete: true,
                ..IterationEnd::default()
            },
            IterationEnd {
                bound: 84,
                nodes: 1200,
                elapsed: Duration::from_millis(30),
                prunes,
                ..IterationEnd::default()
            },
        ];
        let lines = details(None, &iterations, true, 2, 4, (5000, 40_000));
        assert_eq!(
            lines,
            [
                "iteration bound 80: 400 nodes, 0.01 s",
                "iteration bound 82: 3000 nodes, 0.07 s, x7.5",
                "iteration bound 84: 1200 nodes, 0.03 s, x0.4, met a goal",
                "pruned: 140 before a read; board A 2, B 4, C 6, D 8; \
                 mirror A 10, B 12, C 14, D 16; pathmax 6",
                "beams: 5000 children, widest 40000",
            ]
        );
        let stopped = details(None, &iterations[..1], false, 1, 2, (0, 0));
        assert_eq!(
            stopped,
            [
                "iteration bound 80: 400 nodes, 0.01 s",
                "pruned: 0 before a read; board A 0, B 0; pathmax 0",
                "beams: 0 children, widest 0",
            ]
        );
    }

    #[test]
    fn a_search_gives_one_line_an_iteration_whose_nodes_add_up() {
        let (start, goal) = puzzle(11, 26);
        let mut counters = Counters::default();
        let first = incumbent(&start, &goal);
        let first_nodes = first.nodes;
        let out = solve::<Five>(
            &start,
            &goal,
            tables(),
            first,
            &Limits::UNLIMITED,
            &mut counters,
            &mut |_| {},
        );
        assert!(matches!(out, Outcome::Solved(_)));
        assert!(first_nodes > 0);
        let field = |line: &str, before: &str, after: &str| -> u64 {
            let rest = &line[line.find(before).unwrap() + before.len()..];
            rest[..rest.find(after).unwrap()].parse().unwrap()
        };
        let (iterations, rest): (Vec<&String>, Vec<&String>) = counters
            .details
            .iter()
            .partition(|l| l.starts_with("iteration "));
        assert_eq!(iterations.len() as u32, counters.iterations);
        let nodes: u64 = iterations.iter().map(|l| field(l, ": ", " nodes")).sum();
        // The beams' children count the incumbent's nodes too.
        let beams = field(rest.last().unwrap(), "beams: ", " children");
        assert!(beams >= first_nodes);
        assert_eq!(nodes + beams, counters.expanded, "{:?}", counters.details);
    }
}
