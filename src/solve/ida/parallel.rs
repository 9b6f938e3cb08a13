//! Several threads searching one puzzle, with the same answer whatever their
//! number; progress reports, a deadline and a stop from outside.
//!
//! Each IDA* iteration first expands the tree breadth-first from the start, in
//! a fixed order (parents in order, then the four directions), keeping the
//! children within the bound, until a level holds at least [`FRONTIER_NODES`]
//! nodes (or the tree runs out). The threads then take the frontier's subtrees
//! one by one in that order and search each depth-first, as a single search
//! would. When a subtree holds a goal, subtrees after it are abandoned, those
//! before it are finished, and the goal of the first subtree in frontier order
//! that holds one is the answer. The frontier and each subtree's search depend
//! only on the puzzle and the bound, so the answer is the same moves for any
//! number of threads, on any machine; only the node count of the last
//! iteration (subtrees searched past the answer before they were abandoned)
//! varies. This is the tree split of parallel window-free IDA* (Rao, Kumar and
//! Ramesh 1987, "A parallel implementation of iterative-deepening-A*"), with a
//! shared queue of subtrees rather than work stealing: a few thousand subtrees
//! keep two to a few dozen threads busy.

use super::{Counters, Geometry, Heuristic, Iteration, Node, Watch, Worker, MAX_TABLES};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// Nodes the frontier of an iteration holds at least (unless the tree is
/// smaller): enough that the threads finish their last subtrees close together.
pub const FRONTIER_NODES: usize = 4096;

/// Where a search stands, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The cost bound of the current iteration: every solution is at least
    /// this long (once the first iteration has begun).
    pub bound: u32,
    /// Nodes expanded so far, over all iterations and threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Whether this report closes an iteration (the bound then rises).
    pub iteration_done: bool,
}

/// How a search is run.
pub struct Limits<'a> {
    /// Threads (at least 1).
    pub jobs: usize,
    /// When to give up; `None` searches to the end.
    pub deadline: Option<Instant>,
    /// Time between two progress reports within an iteration.
    pub report_every: Duration,
    /// Set from outside to stop the search (it then ends as at the deadline).
    pub stop: Option<&'a AtomicBool>,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A shortest path, as the blank's cell after each move.
    Solved(Vec<u8>),
    /// Stopped (deadline or from outside) before the end: every solution has at
    /// least `lower_bound` moves.
    Stopped {
        /// A proven lower bound on the length of every solution.
        lower_bound: u32,
    },
}

/// A shortest path from `cells` to the canonical goal of `heur`, searched by
/// `limits.jobs` threads (see the module docs); `progress` is called on this
/// thread at the end of every iteration and every `limits.report_every`.
pub fn search<G: Geometry>(
    heur: &Heuristic<'_, G>,
    cells: &[u8],
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    match heur.tables_per_group() {
        0..=2 => search_with::<G, 2>(heur, cells, limits, counters, progress),
        3 | 4 => search_with::<G, 4>(heur, cells, limits, counters, progress),
        _ => search_with::<G, MAX_TABLES>(heur, cells, limits, counters, progress),
    }
}

/// The frontier of one iteration, or a goal met while making it.
enum Split<N> {
    Goal(N),
    Frontier {
        nodes: Vec<N>,
        /// The smallest f-value above the bound among the children dropped.
        pruned_min: u32,
    },
}

/// Expands the tree breadth-first from `root` within `bound` until a level
/// holds at least [`FRONTIER_NODES`] nodes, or is empty.
fn split<G: Geometry, const T: usize>(
    heur: &Heuristic<'_, G>,
    root: &Node<G, T>,
    bound: u32,
    counters: &mut Counters,
) -> Split<Node<G, T>> {
    let groups = heur.groups.len();
    let mut level = vec![*root];
    let mut pruned_min = u32::MAX;
    while !level.is_empty() && level.len() < FRONTIER_NODES {
        let mut next = Vec::with_capacity(level.len() * 3);
        for node in &level {
            counters.expanded += 1;
            let mut kept: Vec<(u32, Node<G, T>)> = Vec::with_capacity(3);
            for d in 0..4 {
                let Some(child) = node.child_in(heur, d) else {
                    continue;
                };
                counters.generated += 1;
                counters.reads += groups as u64;
                if child.md == 0 {
                    return Split::Goal(child);
                }
                let f = child.g as u32 + child.h(groups);
                if f > bound {
                    pruned_min = pruned_min.min(f);
                } else {
                    kept.push((sibling_key(&child, groups), child));
                }
            }
            // Siblings in the order the depth-first search takes them, so that
            // the frontier is in depth-first order and the last iteration meets
            // a goal as early as a single search would.
            kept.sort_by_key(|&(key, _)| key);
            next.extend(kept.into_iter().map(|(_, child)| child));
        }
        level = next;
    }
    Split::Frontier {
        nodes: level,
        pruned_min,
    }
}

/// The order of siblings in the depth-first search: smallest estimate first,
/// ties by the sum of the groups' estimates (as `Worker::iterate` orders them).
fn sibling_key<G: Geometry, const T: usize>(node: &Node<G, T>, groups: usize) -> u32 {
    let (mut best, mut total) = (0, 0);
    for g in 0..groups {
        let h = node.md as u32 + 2 * node.sum(g);
        best = best.max(h);
        total += h;
    }
    best.min(255) * 256 + total.min(255)
}

/// What the threads of one iteration share.
struct Shared<'s, N> {
    frontier: &'s [N],
    /// The next subtree to take.
    next: AtomicUsize,
    /// The index of the first subtree known to hold a goal (`usize::MAX`: none).
    first_goal: AtomicUsize,
    goal: Mutex<Option<(usize, N)>>,
}

fn search_with<G: Geometry, const T: usize>(
    heur: &Heuristic<'_, G>,
    cells: &[u8],
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    let started = Instant::now();
    let root: Node<G, T> = heur.root(cells);
    let groups = heur.groups.len();
    *counters = Counters {
        start_h: root.h(groups),
        ..Counters::default()
    };
    if root.md == 0 {
        return Outcome::Solved(Vec::new());
    }
    let never = AtomicBool::new(false);
    let stop = limits.stop.unwrap_or(&never);
    let nodes = AtomicU64::new(0);
    let watch = Watch {
        stop,
        nodes: &nodes,
    };
    let jobs = limits.jobs.max(1);
    let mut bound = root.h(groups);
    let mut workers: Vec<Worker<G, T>> = (0..jobs).map(|_| Worker::new()).collect();
    let report = |bound, iteration_done, progress: &mut dyn FnMut(&Progress)| {
        progress(&Progress {
            bound,
            nodes: nodes.load(Ordering::Relaxed),
            elapsed: started.elapsed(),
            iteration_done,
        })
    };
    loop {
        counters.iterations += 1;
        let before = counters.expanded;
        let split = split(heur, &root, bound, counters);
        nodes.fetch_add(counters.expanded - before, Ordering::Relaxed);
        let (frontier, pruned_min) = match split {
            Split::Goal(goal) => return Outcome::Solved(goal.decode_path(root.blank as usize)),
            Split::Frontier { nodes, pruned_min } => (nodes, pruned_min),
        };
        let shared = Shared {
            frontier: &frontier,
            next: AtomicUsize::new(0),
            first_goal: AtomicUsize::new(usize::MAX),
            goal: Mutex::new(None),
        };
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let results: Vec<(Counters, u32)> = std::thread::scope(|scope| {
            // A thread the system refuses to start is done without.
            let handles: Vec<_> = workers
                .iter_mut()
                .filter_map(|worker| {
                    let (shared, watch, done) = (&shared, &watch, done_tx.clone());
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || {
                            let result = work(worker, heur, shared, bound, watch);
                            let _ = done.send(());
                            result
                        })
                        .ok()
                })
                .collect();
            if handles.is_empty() {
                // No thread could start: search here, without progress reports
                // within the iteration.
                return vec![work(&mut Worker::new(), heur, &shared, bound, &watch)];
            }
            let mut running = handles.len();
            let mut last_report = Instant::now();
            while running > 0 {
                let now = Instant::now();
                let mut wait = limits.report_every.saturating_sub(now - last_report);
                if let Some(deadline) = limits.deadline {
                    if now >= deadline {
                        stop.store(true, Ordering::Relaxed);
                    }
                    wait = wait.min(deadline.saturating_duration_since(now));
                }
                match done_rx.recv_timeout(wait.max(Duration::from_millis(1))) {
                    Ok(()) => running -= 1,
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
                if last_report.elapsed() >= limits.report_every {
                    last_report = Instant::now();
                    report(bound, false, progress);
                }
            }
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .collect()
        });
        let mut next_bound = pruned_min;
        for (c, b) in &results {
            counters.add(c);
            next_bound = next_bound.min(*b);
        }
        // A goal met within this bound is as long as the bound, and no solution
        // is shorter (the earlier bounds failed): a shortest solution even if
        // the search was stopped before the subtrees ahead of it were done (then
        // it may not be the one an unstopped search would give).
        if let Some((_, goal)) = shared.goal.into_inner().expect("goal lock") {
            report(bound, true, progress);
            return Outcome::Solved(goal.decode_path(root.blank as usize));
        }
        if stop.load(Ordering::Relaxed) {
            return Outcome::Stopped { lower_bound: bound };
        }
        assert!(
            next_bound != u32::MAX && (next_bound as usize) < G::max_depth(),
            "goal unreachable from this board (wrong parity?)"
        );
        report(bound, true, progress);
        bound = next_bound;
    }
}

/// One thread's part of an iteration: subtrees in frontier order until none is
/// left, or none before the first known goal. Returns its counters and the
/// smallest f-value above the bound it met.
fn work<G: Geometry, const T: usize>(
    worker: &mut Worker<G, T>,
    heur: &Heuristic<'_, G>,
    shared: &Shared<'_, Node<G, T>>,
    bound: u32,
    watch: &Watch<'_>,
) -> (Counters, u32) {
    let mut counters = Counters::default();
    let mut next_bound = u32::MAX;
    loop {
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        if i >= shared.frontier.len() || i > shared.first_goal.load(Ordering::Relaxed) {
            break;
        }
        let abandon = || shared.first_goal.load(Ordering::Relaxed) < i;
        match worker.iterate(
            heur,
            &shared.frontier[i],
            bound,
            &mut counters,
            watch,
            abandon,
        ) {
            Iteration::Found(goal) => {
                let mut slot = shared.goal.lock().expect("goal lock");
                if slot.as_ref().is_none_or(|(j, _)| i < *j) {
                    *slot = Some((i, goal));
                    shared.first_goal.fetch_min(i, Ordering::Relaxed);
                }
            }
            Iteration::Exhausted(b) => next_bound = next_bound.min(b),
            Iteration::Stopped => {
                if watch.stop.load(Ordering::Relaxed) {
                    break;
                }
            }
        }
    }
    (counters, next_bound)
}
