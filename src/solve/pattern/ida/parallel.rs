//! Several threads searching one puzzle, with the same answer whatever their
//! number; progress reports, a deadline and a stop from outside.
//!
//! Each IDA* iteration first expands the tree breadth-first from the start,
//! keeping the children within the bound, until a level holds at least
//! [`Geometry::FRONTIER`] nodes (or the tree runs out). The threads then take the
//! frontier's subtrees one by one in frontier order and search each
//! depth-first, as a single search would. When a subtree holds a goal, subtrees
//! after it are abandoned, those before it are finished, and the goal of the
//! first subtree in frontier order that holds one is the answer. This is the
//! tree split of parallel window-free IDA* (Rao, Kumar and Ramesh 1987, "A
//! parallel implementation of iterative-deepening-A*"), with a shared queue of
//! subtrees rather than work stealing: a few thousand subtrees keep two to a
//! few dozen threads busy.
//!
//! **Frontier order.** The first iteration's frontier is in depth-first order
//! (siblings by estimate, as [`Worker::iterate`] takes them). Every later one
//! is sorted by how near the previous iteration's search of each subtree came
//! to the goal: the smallest estimate among the nodes it expanded, nearest
//! first, ties in depth-first order ([`order_by_nearness`]). A subtree that
//! got within a few moves of the goal under the old bound is the likeliest to
//! reach it under the new one, so the last iteration meets a goal early: on
//! Korf and Felner's five easiest 24-puzzles this took the nodes from 366 M
//! to 191 M (#38: 47.8 M to 10.9 M, #44: 144.6 M to 40.5 M), every instance
//! fewer. This refines the frontier sorted by estimate of Powley and Korf
//! (1991, "Single-agent parallel window search") with what the previous
//! iteration learnt, as Cook and Varnell's operator ordering does with the
//! cut-off node of smallest estimate (1998, "Adaptive parallel iterative
//! deepening search").
//!
//! The frontier, its order and each subtree's search depend only on the
//! puzzle and the bound (the nearness comes from complete searches of the
//! previous iteration's subtrees), so the answer is the same moves for any
//! number of threads, on any machine; only the node count of the last
//! iteration (subtrees searched past the answer before they were abandoned)
//! varies.

use super::depth_first::{sibling_key, Context, Iteration, Prunes, Watch, Worker};
use super::fsm::Fsm;
use super::geometry::Geometry;
use super::heuristic::{Heuristic, MAX_GROUPS, MAX_TABLES};
use super::hybrid::{self, Ended, Frontier, Open, Top, TopStats};
use super::node::Node;
use crate::board_adt::move_list::MoveList;
use crate::solve::outcome::{Counters, Limits, Outcome, SearchProgress};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// Nodes the frontier of an iteration holds at least (unless the tree is
/// smaller): [`Geometry::FRONTIER`], but at most 64 in unit tests, so that the
/// small 5x5 puzzles they solve take several iterations with a frontier (and
/// its order is exercised).
fn frontier_nodes<G: Geometry>() -> usize {
    if cfg!(test) {
        G::FRONTIER.min(64)
    } else {
        G::FRONTIER
    }
}

/// A shortest solution from `cells` to the canonical goal of `heur` (its moves
/// on that board), searched by
/// `limits.jobs` threads (see the module docs); `progress` is called on this
/// thread at the end of every iteration and every `limits.report_every`.
///
/// With one thread and nothing to watch within an iteration (no deadline, no
/// reports), the subtrees are searched on this thread: starting a thread per
/// iteration would cost a 4x4 search about a fifth of its time.
pub(crate) fn search<G: Geometry>(
    heur: &Heuristic<'_, G>,
    cells: &[u8],
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    search_between(
        heur,
        cells,
        limits,
        Top::Split,
        counters,
        progress,
        &mut |_| true,
    )
    .outcome
}

/// An iteration that ended: its bound and the next (every solution is at
/// least that long, once it went through its whole tree), and what it took.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IterationEnd {
    pub(crate) bound: u32,
    pub(crate) next_bound: u32,
    /// Nodes the iteration expanded (the same for any number of threads,
    /// unless it met a goal or was stopped).
    pub(crate) nodes: u64,
    pub(crate) elapsed: Duration,
    /// What cut children in the depth-first searches below its frontier.
    pub(crate) prunes: Prunes,
    /// Whether it went through its whole tree (not: it met a goal, or was
    /// stopped).
    pub(crate) complete: bool,
}

/// How [`search_between`] ended, and every iteration it began.
pub(crate) struct Searched {
    pub(crate) outcome: Outcome,
    pub(crate) iterations: Vec<IterationEnd>,
    /// What the A* top did, if there was one ([`Top::AStar`]).
    pub(crate) top: Option<TopStats>,
}

/// What [`search_with`] records as it goes.
#[derive(Default)]
struct Log {
    iterations: Vec<IterationEnd>,
    top: Option<TopStats>,
}

/// [`search`], calling `between` after every iteration that ends without a
/// goal, before the next one begins (no search thread runs meanwhile): if
/// it answers `false`, the search ends there, as stopped, with the next
/// bound as its lower bound. `top` says how the iterations split the tree
/// ([`Top::AStar`]: A*+IDA*, see [`hybrid`]).
pub(crate) fn search_between<G: Geometry>(
    heur: &Heuristic<'_, G>,
    cells: &[u8],
    limits: &Limits<'_>,
    top: Top,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
    between: &mut dyn FnMut(&IterationEnd) -> bool,
) -> Searched {
    let mut log = Log::default();
    let log_ = &mut log;
    let (c, p) = (counters, progress);
    let run = Run {
        heur,
        cells,
        limits,
        top,
    };
    let outcome = match (heur.tables_per_group(), heur.groups()) {
        (0..=2, 0..=2) => search_with::<G, 2, 2>(&run, c, p, between, log_),
        (3 | 4, 0..=2) => search_with::<G, 4, 2>(&run, c, p, between, log_),
        (_, 0..=2) => search_with::<G, MAX_TABLES, 2>(&run, c, p, between, log_),
        (0..=4, _) => search_with::<G, 4, MAX_GROUPS>(&run, c, p, between, log_),
        _ => search_with::<G, MAX_TABLES, MAX_GROUPS>(&run, c, p, between, log_),
    };
    Searched {
        outcome,
        iterations: log.iterations,
        top: log.top,
    }
}

/// What a search is asked: the heuristic, the start, the limits and how to
/// split the tree.
struct Run<'r, 'h, G: Geometry> {
    heur: &'r Heuristic<'h, G>,
    cells: &'r [u8],
    limits: &'r Limits<'r>,
    top: Top,
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
/// holds at least [`frontier_nodes`] nodes, or is empty.
fn split<G: Geometry, const T: usize, const N: usize>(
    heur: &Heuristic<'_, G>,
    root: &Node<G, T, N>,
    bound: u32,
    counters: &mut Counters,
) -> Split<Node<G, T, N>> {
    let groups = heur.groups.len();
    let mut level = vec![*root];
    let mut pruned_min = u32::MAX;
    let wanted = frontier_nodes::<G>();
    while !level.is_empty() && level.len() < wanted {
        let mut next = Vec::with_capacity(level.len() * 3);
        for node in &level {
            counters.expanded += 1;
            let mut kept: Vec<(u16, Node<G, T, N>)> = Vec::with_capacity(3);
            let mut goal = None;
            node.children_read(heur, |child| {
                counters.generated += 1;
                counters.reads += groups as u64;
                if child.md == 0 {
                    goal = Some(child);
                    return false;
                }
                let f = child.g as u32 + child.h(groups);
                if f > bound {
                    pruned_min = pruned_min.min(f);
                } else {
                    let estimates = (0..groups).map(|g| child.md as u32 + 2 * child.sum(g));
                    kept.push((sibling_key(estimates).0, child));
                }
                true
            });
            if let Some(goal) = goal {
                return Split::Goal(goal);
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

/// How near each subtree of a finished iteration came to the goal: the moves
/// from the start to the subtree's root, and the smallest estimate among the
/// nodes its search expanded.
struct Nearness<P> {
    /// The depth of that iteration's frontier.
    depth: usize,
    by_path: Vec<(P, u32)>,
}

/// The first `depth` moves of `path`.
fn path_prefix<P: AsMut<[u16]>>(mut path: P, depth: usize) -> P {
    for (i, word) in path.as_mut().iter_mut().enumerate() {
        let moves = depth.saturating_sub(8 * i);
        if moves < 8 {
            *word &= (1u16 << (2 * moves)).wrapping_sub(1);
        }
    }
    path
}

/// Sorts `frontier` (one level of the tree, in depth-first order) nearest the
/// goal first by `previous`, a deeper or equal level of the previous iteration:
/// a node's nearness is the smallest among the subtrees below it there, or its
/// own estimate if none was (it was beyond the old bound). Ties keep their
/// order.
fn order_by_nearness<G: Geometry, const T: usize, const N: usize>(
    frontier: &mut [Node<G, T, N>],
    previous: &Nearness<G::Path>,
    groups: usize,
) {
    let Some(depth) = frontier.first().map(|n| n.g as usize) else {
        return;
    };
    if depth > previous.depth {
        return;
    }
    let mut nearest: HashMap<G::Path, u32> = HashMap::with_capacity(frontier.len());
    for &(path, near) in &previous.by_path {
        let slot = nearest.entry(path_prefix(path, depth)).or_insert(near);
        *slot = (*slot).min(near);
    }
    frontier.sort_by_cached_key(|n| nearest.get(&n.path).copied().unwrap_or(n.h(groups)));
}

/// The subtrees of one iteration: frontier nodes of a breadth-first split,
/// or boards A* left open (`order`: their indices, in search order).
enum Roots<'s, N> {
    Nodes(&'s [N]),
    Open { open: &'s [Open], order: &'s [u32] },
}

impl<N: Copy> Roots<'_, N> {
    fn len(&self) -> usize {
        match self {
            Roots::Nodes(nodes) => nodes.len(),
            Roots::Open { order, .. } => order.len(),
        }
    }

    /// Roots a thread takes at once: one frontier node (its subtree fills
    /// the batches), or a batch of open boards (most of their subtrees hold
    /// a dozen nodes: one at a time, a batch would hold a few nodes and
    /// their table reads would not overlap). Fixed, so that the chunks and
    /// the answer do not depend on the threads.
    fn chunk<G: Geometry>(&self) -> usize {
        match self {
            Roots::Nodes(_) => 1,
            Roots::Open { .. } => G::BATCH,
        }
    }
}

/// What the threads of one iteration share.
struct Shared<'s, N> {
    frontier: Roots<'s, N>,
    /// The next subtree to take.
    next: AtomicUsize,
    /// The index of the first subtree known to hold a goal (`usize::MAX`: none).
    first_goal: AtomicUsize,
    goal: Mutex<Option<(usize, N)>>,
}

/// [`search_between`] for one shape of the heuristic (`T` tables a group,
/// `N` groups): the root, the watch the threads share, the A* top if asked,
/// then the iterations.
fn search_with<G: Geometry, const T: usize, const N: usize>(
    run: &Run<'_, '_, G>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
    between: &mut dyn FnMut(&IterationEnd) -> bool,
    log: &mut Log,
) -> Outcome {
    let (heur, limits) = (run.heur, run.limits);
    let started = Instant::now();
    let root: Node<G, T, N> = heur.root(run.cells);
    let groups = heur.groups.len();
    *counters = Counters {
        start_h: root.h(groups),
        ..Counters::default()
    };
    if root.md == 0 {
        return Outcome::Solved(MoveList::new());
    }
    let never = AtomicBool::new(false);
    // The deadline sets this, not `stop`: that one belongs to the caller.
    let halt = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let search = Search {
        run,
        root,
        groups,
        started,
        nodes: &nodes,
        halt: &halt,
        watch: Watch {
            stop: limits.stop.unwrap_or(&never),
            halt: &halt,
            nodes: &nodes,
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
        },
        here: limits.jobs.max(1) == 1 && limits.deadline.is_none() && limits.report_every.is_none(),
    };
    let mut bound = root.h(groups);
    // A*+IDA*: the top of the tree once, best-first.
    let top = match run.top {
        Top::Split => None,
        Top::AStar { bytes } => match search.astar_top(bytes, counters, progress, log) {
            Ok(frontier) => {
                bound = bound.max(frontier.stats.bound);
                Some(frontier)
            }
            Err(ended) => return ended,
        },
    };
    search.iterations(bound, top.as_ref(), counters, progress, between, log)
}

/// One search under way: what it was asked, its root, and what its threads
/// share across iterations.
struct Search<'s, 'h, G: Geometry, const T: usize, const N: usize> {
    run: &'s Run<'s, 'h, G>,
    root: Node<G, T, N>,
    /// The heuristic's groups.
    groups: usize,
    started: Instant,
    /// Nodes expanded so far, over all iterations and threads (for the
    /// reports and the node limit).
    nodes: &'s AtomicU64,
    /// Set at the deadline.
    halt: &'s AtomicBool,
    watch: Watch<'s>,
    /// Whether the subtrees are searched on this thread: one thread and
    /// nothing to watch within an iteration (see [`search`]).
    here: bool,
}

impl<G: Geometry, const T: usize, const N: usize> Search<'_, '_, G, T, N> {
    /// Tells `progress` where the search stands: in the iteration of
    /// `bound`, or at its end (`iteration_done`).
    fn report(&self, bound: u32, iteration_done: bool, progress: &mut dyn FnMut(&SearchProgress)) {
        progress(&SearchProgress {
            bound,
            nodes: self.nodes.load(Ordering::Relaxed),
            elapsed: self.started.elapsed(),
            iteration_done,
            best: None,
            iteration_left: None,
            proof_left: None,
        })
    }

    /// The top of the tree best-first in `bytes` ([`hybrid`]): the boards
    /// A* left open, or, when it met a goal or was stopped, how the search
    /// ended.
    fn astar_top(
        &self,
        bytes: usize,
        counters: &mut Counters,
        progress: &mut dyn FnMut(&SearchProgress),
        log: &mut Log,
    ) -> Result<Frontier, Outcome> {
        let limits = self.run.limits;
        let mut last_report = Instant::now();
        let mut reported = 0;
        let halted = || {
            if limits.deadline.is_some_and(|d| Instant::now() >= d) {
                self.halt.store(true, Ordering::Relaxed);
            }
            self.watch.halted()
        };
        let mut astar_report = |f: u32, expanded: u64| {
            self.nodes.fetch_add(expanded - reported, Ordering::Relaxed);
            reported = expanded;
            if limits
                .report_every
                .is_some_and(|every| last_report.elapsed() >= every)
            {
                last_report = Instant::now();
                self.report(f, false, progress);
            }
        };
        let heur = self.run.heur;
        let ended = hybrid::astar(
            heur,
            &self.root,
            bytes,
            counters,
            &halted,
            &mut astar_report,
        );
        self.nodes.store(counters.expanded, Ordering::Relaxed);
        match ended {
            Ended::Goal(moves, stats) => {
                log.top = Some(stats);
                self.report(moves.len() as u32, true, progress);
                Err(Outcome::Solved(moves))
            }
            Ended::Stopped(lower_bound, stats) => {
                log.top = Some(stats);
                Err(Outcome::Stopped {
                    lower_bound,
                    best: None,
                })
            }
            Ended::Frontier(frontier) => {
                log.top = Some(frontier.stats);
                Ok(frontier)
            }
        }
    }

    /// The iterations from `bound` up, each split at its frontier (or over
    /// the boards the A* `top` left open) and its subtrees searched by the
    /// threads, until one meets a goal, the search is halted, or `between`
    /// ends it.
    fn iterations(
        &self,
        mut bound: u32,
        top: Option<&Frontier>,
        counters: &mut Counters,
        progress: &mut dyn FnMut(&SearchProgress),
        between: &mut dyn FnMut(&IterationEnd) -> bool,
        log: &mut Log,
    ) -> Outcome {
        let jobs = self.run.limits.jobs.max(1);
        let mut workers: Vec<Worker<G, T, N>> = (0..jobs).map(|_| Worker::new()).collect();
        let mut previous: Option<Nearness<G::Path>> = None;
        // Per open board: how near the last search of its subtree came to the
        // goal (`u32::MAX`: not searched yet).
        let mut near_open: Vec<u32> = top.map_or(Vec::new(), |f| vec![u32::MAX; f.open.len()]);
        let mut order: Vec<u32> = Vec::new();
        loop {
            counters.iterations += 1;
            let began = (Instant::now(), counters.expanded);
            let split = match top {
                None => split(self.run.heur, &self.root, bound, counters),
                Some(top) => open_within(top, bound, &near_open, &mut order),
            };
            self.nodes
                .fetch_add(counters.expanded - began.1, Ordering::Relaxed);
            let mut end = IterationEnd {
                bound,
                next_bound: bound,
                ..IterationEnd::default()
            };
            let mut ended = |end: IterationEnd, counters: &Counters| {
                let end = IterationEnd {
                    nodes: counters.expanded - began.1,
                    elapsed: began.0.elapsed(),
                    ..end
                };
                log.iterations.push(end);
                end
            };
            let (mut frontier, pruned_min) = match split {
                Split::Goal(goal) => {
                    ended(end, counters);
                    return Outcome::Solved(goal.moves());
                }
                Split::Frontier { nodes, pruned_min } => (nodes, pruned_min),
            };
            if let Some(previous) = &previous {
                order_by_nearness(&mut frontier, previous, self.groups);
            }
            let shared = Shared {
                frontier: match top {
                    None => Roots::Nodes(&frontier),
                    Some(top) => Roots::Open {
                        open: &top.open,
                        order: &order,
                    },
                },
                next: AtomicUsize::new(0),
                first_goal: AtomicUsize::new(usize::MAX),
                goal: Mutex::new(None),
            };
            let results = self.subtrees(&mut workers, &shared, bound, progress);
            let roots = match top {
                None => Learnt::Frontier(&frontier),
                Some(_) => Learnt::Open {
                    order: &order,
                    near: &mut near_open,
                },
            };
            let (next_bound, nearness) = gathered(&results, roots, counters, &mut end);
            let next_bound = next_bound.min(pruned_min);
            previous = Some(nearness);
            // A goal met within this bound is as long as the bound, and no
            // solution is shorter (the earlier bounds failed): a shortest
            // solution even if the search was stopped before the subtrees
            // ahead of it were done (then it may not be the one an unstopped
            // search would give).
            if let Some((i, goal)) = shared.goal.into_inner().expect("goal lock") {
                ended(end, counters);
                self.report(bound, true, progress);
                let moves = match top {
                    None => goal.moves(),
                    Some(top) => moves_below(top, &order, i, &goal, self.run.heur.goal_blank),
                };
                return Outcome::Solved(moves);
            }
            if self.watch.halted() {
                ended(end, counters);
                return Outcome::Stopped {
                    lower_bound: bound,
                    best: None,
                };
            }
            assert!(
                next_bound != u32::MAX && (next_bound as usize) < G::max_depth(),
                "goal unreachable from this board (wrong parity?)"
            );
            self.report(bound, true, progress);
            let end = ended(
                IterationEnd {
                    next_bound,
                    complete: true,
                    ..end
                },
                counters,
            );
            if !between(&end) {
                return Outcome::Stopped {
                    lower_bound: next_bound,
                    best: None,
                };
            }
            bound = next_bound;
        }
    }

    /// The subtrees of `shared` searched within `bound`: on this thread
    /// ([`Search::here`]), else on a thread a worker of `workers` while this
    /// one waits ([`Search::wait`]).
    fn subtrees(
        &self,
        workers: &mut [Worker<G, T, N>],
        shared: &Shared<'_, Node<G, T, N>>,
        bound: u32,
        progress: &mut dyn FnMut(&SearchProgress),
    ) -> Vec<Done> {
        let ctx = Context {
            heur: self.run.heur,
            fsm: Fsm::get(),
            bound,
            watch: &self.watch,
        };
        if self.here {
            return vec![work(&mut workers[0], &ctx, shared)];
        }
        let (done_tx, done_rx) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            // A thread the system refuses to start is done without.
            let handles: Vec<_> = workers
                .iter_mut()
                .filter_map(|worker| {
                    let (ctx, done) = (&ctx, done_tx.clone());
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || {
                            let result = work(worker, ctx, shared);
                            let _ = done.send(());
                            result
                        })
                        .ok()
                })
                .collect();
            if handles.is_empty() {
                // No thread could start: search here, without progress reports
                // within the iteration.
                return vec![work(&mut Worker::new(), &ctx, shared)];
            }
            self.wait(handles.len(), &done_rx, bound, progress);
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .collect()
        })
    }

    /// Waits until `running` threads have said on `done` that they are
    /// done, meanwhile reporting the iteration of `bound` every
    /// `limits.report_every` and halting the search at the deadline.
    fn wait(
        &self,
        mut running: usize,
        done: &mpsc::Receiver<()>,
        bound: u32,
        progress: &mut dyn FnMut(&SearchProgress),
    ) {
        let limits = self.run.limits;
        let mut last_report = Instant::now();
        while running > 0 {
            let now = Instant::now();
            // Without reports or a deadline: until a thread ends.
            let mut wait = limits.report_every.map_or(Duration::MAX, |every| {
                every.saturating_sub(now - last_report)
            });
            if let Some(deadline) = limits.deadline {
                if now >= deadline {
                    self.halt.store(true, Ordering::Relaxed);
                }
                wait = wait.min(deadline.saturating_duration_since(now));
            }
            match done.recv_timeout(wait.max(Duration::from_millis(1))) {
                Ok(()) => running -= 1,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if limits
                .report_every
                .is_some_and(|every| last_report.elapsed() >= every)
            {
                last_report = Instant::now();
                self.report(bound, false, progress);
            }
        }
    }
}

/// Where an iteration's nearness goes: the frontier nodes' paths (into the
/// [`Nearness`] the next iteration orders its frontier by), or the open
/// boards of the A* top, searched by chunks of `order` (into `near`).
enum Learnt<'l, N> {
    Frontier(&'l [N]),
    Open {
        order: &'l [u32],
        near: &'l mut [u32],
    },
}

/// What the threads of an iteration found (`results`), added up: their
/// counts into `counters`, what pruned into `end`; how near each subtree
/// came to the goal, kept as `roots` says; and the next bound, the
/// smallest f-value above the bound that they met (`u32::MAX`: none).
fn gathered<G: Geometry, const T: usize, const N: usize>(
    results: &[Done],
    mut roots: Learnt<'_, Node<G, T, N>>,
    counters: &mut Counters,
    end: &mut IterationEnd,
) -> (u32, Nearness<G::Path>) {
    let mut next_bound = u32::MAX;
    let mut nearness = Nearness {
        depth: 0,
        by_path: Vec::new(),
    };
    if let Learnt::Frontier(frontier) = &roots {
        nearness.depth = frontier.first().map_or(0, |n| n.g as usize);
        nearness.by_path.reserve(frontier.len());
    }
    for done in results {
        counters.add(&done.counters);
        end.prunes.add(&done.prunes);
        next_bound = next_bound.min(done.next_bound);
        match &mut roots {
            Learnt::Open { order, near } => {
                // A chunk's nearness is each of its boards'.
                let chunk = G::BATCH;
                for &(i, n) in &done.nearest {
                    for &o in &order[i * chunk..order.len().min((i + 1) * chunk)] {
                        near[o as usize] = n;
                    }
                }
            }
            Learnt::Frontier(frontier) => {
                let paths = done
                    .nearest
                    .iter()
                    .map(|&(i, near)| (frontier[i].path, near));
                nearness.by_path.extend(paths);
            }
        }
    }
    (next_bound, nearness)
}

/// The open boards of the A* `top` within `bound`, as their indices in
/// `order`, nearest the goal first by the last search of their subtrees
/// (`near_open`; a board not searched yet: its own estimate), ties in
/// frontier order; and the smallest f-value above the bound among the
/// others.
fn open_within<N>(top: &Frontier, bound: u32, near_open: &[u32], order: &mut Vec<u32>) -> Split<N> {
    order.clear();
    let mut pruned_min = u32::MAX;
    for (i, o) in top.open.iter().enumerate() {
        if u32::from(o.f) <= bound {
            order.push(i as u32);
        } else {
            pruned_min = pruned_min.min(u32::from(o.f));
        }
    }
    let key = |i: u32| {
        let o = &top.open[i as usize];
        match near_open[i as usize] {
            u32::MAX => u32::from(o.f - o.g),
            near => near,
        }
    };
    order.sort_by_cached_key(|&i| (key(i), i));
    Split::Frontier {
        nodes: Vec::new(),
        pruned_min,
    }
}

/// The moves to `goal`, met below chunk `i` of `order` (open boards of the
/// A* `top`): the moves to the open board it lies below (the first of the
/// chunk whose board its moves pass at its g), then the subtree's.
fn moves_below<G: Geometry, const T: usize, const N: usize>(
    top: &Frontier,
    order: &[u32],
    i: usize,
    goal: &Node<G, T, N>,
    goal_blank: usize,
) -> MoveList {
    let chunk = &order[i * G::BATCH..order.len().min((i + 1) * G::BATCH)];
    let o = chunk
        .iter()
        .map(|&o| &top.open[o as usize])
        .find(|o| hybrid::passes::<G, T, N>(goal, o, goal_blank))
        .expect("the goal lies below a board of its chunk");
    let mut moves = top.seen.path_to::<G>(o.board, goal_blank);
    for m in goal.moves().iter().skip(o.g as usize) {
        moves.push(m);
    }
    moves
}

/// What one thread did in an iteration.
struct Done {
    counters: Counters,
    /// The smallest f-value above the bound it met.
    next_bound: u32,
    /// Per subtree it searched (index in the frontier): how near it came to
    /// the goal (see [`Worker::iterate`]).
    nearest: Vec<(usize, u32)>,
    /// What cut children in its searches.
    prunes: Prunes,
}

/// One thread's part of an iteration: subtrees in frontier order until none is
/// left, or none before the first known goal.
fn work<G: Geometry, const T: usize, const N: usize>(
    worker: &mut Worker<G, T, N>,
    ctx: &Context<'_, '_, G>,
    shared: &Shared<'_, Node<G, T, N>>,
) -> Done {
    let watch = ctx.watch;
    let mut counters = Counters::default();
    let mut next_bound = u32::MAX;
    let mut nearest = Vec::new();
    let (chunk, len) = (shared.frontier.chunk::<G>(), shared.frontier.len());
    let mut roots = Vec::with_capacity(chunk);
    let mut backs = Vec::with_capacity(chunk);
    loop {
        // A subtree looks at the stop flag only every few thousand nodes, and
        // most are smaller: look before each one too, or a stopped iteration
        // would run on through its small subtrees.
        if watch.halted() {
            break;
        }
        // Subtree (or chunk of open boards) `i`.
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        if i * chunk >= len || i > shared.first_goal.load(Ordering::Relaxed) {
            break;
        }
        let abandon = || shared.first_goal.load(Ordering::Relaxed) < i;
        roots.clear();
        backs.clear();
        match &shared.frontier {
            Roots::Nodes(nodes) => roots.push(nodes[i]),
            Roots::Open { open, order } => {
                for &o in &order[i * chunk..len.min((i + 1) * chunk)] {
                    let o = &open[o as usize];
                    roots.push(ctx.heur.node_of(o));
                    backs.push(o.back());
                }
            }
        }
        let ended = worker.iterate(ctx, &roots, &backs, &mut counters, abandon);
        nearest.push((i, worker.nearest));
        match ended {
            Iteration::Found(goal) => {
                let mut slot = shared.goal.lock().expect("goal lock");
                if slot.as_ref().is_none_or(|(j, _)| i < *j) {
                    *slot = Some((i, goal));
                    shared.first_goal.fetch_min(i, Ordering::Relaxed);
                }
            }
            Iteration::Exhausted(b) => next_bound = next_bound.min(b),
            Iteration::Stopped => {
                if watch.halted() {
                    break;
                }
            }
        }
    }
    Done {
        counters,
        next_bound,
        nearest,
        prunes: std::mem::take(&mut worker.prunes),
    }
}

#[cfg(test)]
mod tests {
    use super::super::geometry::{Five, Four};
    use super::*;
    use crate::board_adt::moves::{replay, Move};
    use crate::generate::{random_walk, SplitMix64};
    use crate::solve::pattern::canonical;
    use crate::solve::pattern::goal_tables::testing::{random_goal, small_large};
    use crate::solve::pattern::Tables;

    /// A 4x4 node at the end of the blank moves `dirs`, with estimate `md`.
    fn node(dirs: &[u16], md: u8) -> Node<Four, 2, 2> {
        let mut path = <Four as Geometry>::Path::default();
        for (i, &d) in dirs.iter().enumerate() {
            path[i / 8] |= d << (2 * (i % 8));
        }
        Node {
            board: 0,
            fboard1: 0,
            mask: [[0; 2]; 2],
            perm: [[0; 2]; 2],
            nib: [[0; 2]; 2],
            md,
            blank: 0,
            g: dirs.len() as u8,
            fsm: 0,
            path,
        }
    }

    #[test]
    fn a_path_prefix_keeps_the_first_moves_only() {
        let dirs = [1, 2, 3, 3, 2, 1, 1, 2, 3, 1, 2];
        let full = node(&dirs, 0).path;
        for depth in 0..=dirs.len() {
            assert_eq!(
                path_prefix(full, depth),
                node(&dirs[..depth], 0).path,
                "depth {depth}"
            );
        }
        assert_eq!(path_prefix(full, 88), full);
    }

    #[test]
    fn the_frontier_is_ordered_nearest_the_goal_first() {
        // The previous iteration's frontier, one level deeper.
        let previous = Nearness {
            depth: 3,
            by_path: vec![
                (node(&[0, 1, 2], 0).path, 5),
                (node(&[0, 1, 3], 0).path, 2),
                (node(&[1, 0, 0], 0).path, 7),
                (node(&[2, 3, 1], 0).path, 2),
                (node(&[2, 3, 2], 0).path, 9),
            ],
        };
        // In depth-first order; [3, 3] was beyond the old bound: its own
        // estimate (6) counts.
        let mut frontier = [
            node(&[0, 1], 11),
            node(&[1, 0], 12),
            node(&[2, 3], 13),
            node(&[3, 3], 6),
        ];
        order_by_nearness(&mut frontier, &previous, 2);
        let order: Vec<u8> = frontier.iter().map(|n| n.md).collect();
        // [0, 1] and [2, 3] both came within 2 (the smaller of their subtrees),
        // and keep their order.
        assert_eq!(order, [11, 13, 6, 12]);

        // A frontier deeper than the previous one cannot be matched: unchanged.
        let mut deeper = [node(&[1, 0, 0, 1], 3), node(&[0, 1, 3, 0], 2)];
        order_by_nearness(&mut deeper, &previous, 2);
        assert_eq!(deeper.map(|n| n.md), [3, 2]);
    }

    /// The moves of a shortest solution by `tables` on `jobs` threads (in
    /// the canonical frame), replayed onto the goal.
    fn shortest_moves(start: &[u8], goal: &[u8], tables: &Tables, jobs: usize) -> Vec<Move> {
        let canon = canonical::normalise(Five::SIDE, start, goal, tables.rep, Five::BLANK);
        let heur: Heuristic<'_, Five> = tables.heuristic();
        let limits = Limits {
            jobs,
            ..Limits::UNLIMITED
        };
        let mut counters = Counters::default();
        let Outcome::Solved(moves) =
            search(&heur, &canon.cells, &limits, &mut counters, &mut |_| {})
        else {
            panic!("no deadline and no stop");
        };
        let moves = moves.to_vec();
        let mut cells = canon.cells.clone();
        let mut blank = cells.iter().position(|&t| t == Five::BLANK).unwrap();
        let _ = replay(&mut cells, Five::SIDE, &mut blank, &moves);
        assert_eq!(heur.value(&cells), 0, "the moves reach the goal");
        moves
    }

    #[test]
    fn several_partitionings_give_the_same_moves_for_any_number_of_threads() {
        let mut rng = SplitMix64::new(0x2627);
        for goal_blank in [0, 12] {
            let tables = small_large(goal_blank);
            let goal = random_goal(&mut rng, Five::CELLS, goal_blank);
            let start = random_walk(&mut rng, Five::SIDE, &goal, 36);
            let one = shortest_moves(&start, &goal, tables, 1);
            for jobs in [2, 3] {
                let many = shortest_moves(&start, &goal, tables, jobs);
                assert_eq!(many, one, "goal blank {goal_blank}, {jobs} threads");
            }
        }
    }
}
