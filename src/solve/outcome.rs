//! What every method stands on: how it ends ([`Outcome`]), the limits a
//! search runs under ([`Limits`]), where a search stands ([`SearchProgress`])
//! and what it counts ([`Counters`]).
//!
//! Every method is called the same way, `solve(start, goal, ...)`, on two
//! [`crate::board_adt::Board`]s of the same side whose goal is reachable, and
//! answers with an [`Outcome`]; a method that searches also takes its
//! [`Limits`], its [`Counters`] and a progress callback. This room imports
//! nothing of the solver's: the methods stand on it, and `method.rs`, which
//! chooses among them, stands above them all.

use crate::board_adt::move_list::MoveList;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How a method ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The moves that take the start to the goal (shortest, if the method
    /// promises it).
    Solved(MoveList),
    /// The moves that take the start to the goal, by a method that does not
    /// search to the end, and how long every solution is at least.
    Unproven {
        /// The moves.
        moves: MoveList,
        /// A proven lower bound on the length of every solution.
        lower_bound: u32,
    },
    /// Stopped by the deadline (or from outside) before the end: every
    /// solution has at least `lower_bound` moves, and `best` is the shortest
    /// found so far, if any.
    Stopped {
        /// A proven lower bound on the length of every solution.
        lower_bound: u32,
        /// The shortest solution found before the stop.
        best: Option<MoveList>,
    },
}

/// How a search is run.
pub(crate) struct Limits<'a> {
    /// Threads (at least 1); only the pattern-database search uses more than one.
    pub(crate) jobs: usize,
    /// When to give up; `None` searches to the end.
    pub(crate) deadline: Option<Instant>,
    /// Time between two progress reports within an iteration; `None`: reports
    /// at the end of each iteration only (the pattern-database search; the
    /// Manhattan search reports every 2^24 nodes).
    pub(crate) report_every: Option<Duration>,
    /// Set from outside to stop the search (it then ends as at the deadline).
    pub(crate) stop: Option<&'a AtomicBool>,
    /// Nodes the search may expand before it stops as at the deadline; `None`:
    /// no limit. On one thread without a deadline the count is checked at the
    /// same points on every run, so where the search stops is deterministic.
    pub(crate) max_nodes: Option<u64>,
    /// Bytes for the A* top of the pattern-database search
    /// ([`crate::SolveOptions::astar_memory`]); `None`: plain IDA*.
    pub(crate) astar_memory: Option<usize>,
}

impl Limits<'_> {
    /// One thread, no deadline, no reports within an iteration.
    pub(crate) const UNLIMITED: Limits<'static> = Limits {
        jobs: 1,
        deadline: None,
        report_every: None,
        stop: None,
        max_nodes: None,
        astar_memory: None,
    };
}

/// Where a shortest-path search stands: reported at the end of every IDA*
/// iteration and now and then within one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchProgress {
    /// The cost bound of the current (or just finished) iteration: once the
    /// first iteration has begun, every solution is at least this long.
    pub bound: u32,
    /// Nodes expanded so far, over all iterations and threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Whether this report closes an iteration (the bound then rises).
    pub iteration_done: bool,
    /// The length of the shortest solution found so far, if any (the 5x5
    /// search keeps one from its first second).
    pub best: Option<u64>,
    /// About how long the current iteration has left, the least and the
    /// most, from the least and the most growth of the nodes between the
    /// last iterations (once two have ended).
    pub iteration_left: Option<(Duration, Duration)>,
    /// About how long, at the same growth, until the search has gone
    /// through every bound below `best`: then `best` is proven shortest, or
    /// a shorter solution was found on the way. The least and the most, as
    /// for `iteration_left`; both upper estimates (an iteration that meets
    /// a goal ends early).
    pub proof_left: Option<(Duration, Duration)>,
}

/// What a search counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counters {
    /// Nodes expanded: the start and every child that passed the bound.
    pub(crate) expanded: u64,
    /// Children generated (the pattern-database search: each has at least
    /// one table read).
    pub(crate) generated: u64,
    /// Table reads (the pattern-database search).
    pub(crate) reads: u64,
    /// IDA* iterations (bounds tried).
    pub(crate) iterations: u32,
    /// Heuristic value of the start.
    pub(crate) start_h: u32,
    /// Lines of figures a method adds for `--stats` (the 5x5 `--shortest`
    /// search: nodes per iteration, what pruned).
    pub(crate) details: Vec<String>,
}

impl Counters {
    /// Adds what another thread counted (not its iterations or start).
    pub(crate) fn add(&mut self, other: &Counters) {
        self.expanded += other.expanded;
        self.generated += other.generated;
        self.reads += other.reads;
    }
}
