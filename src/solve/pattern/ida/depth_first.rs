//! One IDA* iteration (Korf 1985), depth-first below a set of roots on an
//! explicit stack, in batches so that the table reads overlap
//! ([`Worker::iterate`]); [`parallel`](super::parallel) runs it on the
//! subtrees of each iteration's frontier.
//!
//! - **Batches.** A table read misses every cache: about 260 ns alone on
//!   the target machine, but about 20 ns each when 16 or more are in
//!   flight. Each step takes the top 16 nodes (32 on 5x5:
//!   [`Geometry::BATCH`]) off the stack, computes all their children's
//!   table indices, reads them in one tight loop, and only then prunes and
//!   pushes. (2.4x faster than recursion.)
//! - **Lazy groups.** The group whose estimate of the parent is the largest
//!   is read first ([`likeliest`]); the others (the mirror image, and with
//!   the large 5x5 set the other partitionings on the board and its mirror)
//!   only for children the first read did not prune, all in one wave
//!   ([`read_waves`], [`Reading`](super::heuristic::Reading)); a child whose bound without any read
//!   (Manhattan plus the unchanged tables) already fails is not read at all
//!   ([`expand`]).
//! - **Sibling ordering** by estimate ([`sibling_key`]: 12% fewer nodes in
//!   the last iteration) and **bidirectional pathmax** ([`pathmax`]; Felner
//!   et al. 2005: the tables are inconsistent because each entry is a
//!   minimum over blank positions); duplicate move sequences are cut by
//!   [`Fsm`].
//! - **Counted** for `--stats` ([`Prunes`]: which tables cut) and for the
//!   next iteration's order of subtrees ([`Worker::nearest`]).

use super::fsm::Fsm;
use super::geometry::Geometry;
use super::heuristic::{child, children, make_child, Heuristic, MAX_GROUPS, MAX_TABLES};
use super::node::{Candidate, Node};
use crate::solve::outcome::Counters;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The most nodes a batch holds on any side (see [`Geometry::BATCH`]).
const MAX_BATCH: usize = 32;

/// The group read in `phase` (counted from 0) of a child whose group `first`
/// is read first: then the others in order. With two groups, `first` and
/// then the other.
#[inline(always)]
pub(super) fn nth_group(first: usize, phase: usize) -> usize {
    if phase == 0 {
        first
    } else if phase <= first {
        phase - 1
    } else {
        phase
    }
}

/// The group whose estimate of `node` is the largest (the first such): the
/// likeliest to prune its children, so it is read first.
#[inline(always)]
fn likeliest<G: Geometry, const T: usize, const N: usize>(
    node: &Node<G, T, N>,
    groups: usize,
) -> usize {
    if N <= 2 {
        return usize::from(groups > 1 && node.sum(1) > node.sum(0));
    }
    let mut best = 0;
    let mut best_sum = node.sum(0);
    for g in 1..groups {
        let sum = node.sum(g);
        if sum > best_sum {
            (best, best_sum) = (g, sum);
        }
    }
    best
}

/// How one depth-first iteration ended.
pub(super) enum Iteration<N> {
    /// A goal node within the bound.
    Found(N),
    /// No goal within the bound; the smallest f-value that exceeded it.
    Exhausted(u32),
    /// Stopped from outside before it ended.
    Stopped,
}

/// Shared with the threads of a search: a flag that stops it, and the nodes
/// expanded so far (added in steps, for progress reports).
pub(super) struct Watch<'w> {
    /// Set from outside.
    pub(super) stop: &'w AtomicBool,
    /// Set by the search itself, at the deadline.
    pub(super) halt: &'w AtomicBool,
    pub(super) nodes: &'w AtomicU64,
    /// The search stops once `nodes` reaches this.
    pub(super) max_nodes: u64,
}

impl Watch<'_> {
    /// Whether the search must stop: from outside, at the deadline, or out of
    /// nodes.
    pub(super) fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.halt.load(Ordering::Relaxed)
            || self.nodes.load(Ordering::Relaxed) >= self.max_nodes
    }
}

/// Nodes a worker expands between two additions to [`Watch::nodes`] (and looks
/// at its stop condition).
const REPORT_NODES: u64 = 1 << 16;

/// What cut the children of the depth-first searches (the subtrees below
/// the frontier), counted so that `--stats` can say which tables prune.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Prunes {
    /// Children whose estimate without a read (Manhattan distance plus the
    /// tables the move leaves alone) already exceeded the bound.
    pub(crate) unread: u64,
    /// `read[g][q]`: children cut by the read of table `q` of group `g`
    /// (the read that put the group's estimate past the bound).
    pub(crate) read: [[u64; MAX_TABLES]; MAX_GROUPS],
    /// Children dropped with their siblings because one of those lifted
    /// their parent past the bound (bidirectional pathmax).
    pub(crate) pathmax: u64,
}

impl Prunes {
    /// Adds what another search counted.
    pub(crate) fn add(&mut self, other: &Prunes) {
        self.unread += other.unread;
        for (mine, theirs) in self.read.iter_mut().zip(&other.read) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.pathmax += other.pathmax;
    }
}

/// The buffers of one searching thread, allocated once: no allocation in the
/// loop.
pub(super) struct Worker<G: Geometry, const T: usize, const N: usize> {
    stack: Vec<Node<G, T, N>>,
    kids: Vec<Node<G, T, N>>,
    cands: Vec<Candidate<G::Mask, N>>,
    order: Vec<u32>,
    /// The smallest estimate among the nodes the last [`Worker::iterate`]
    /// expanded: how near its tree came to the goal. [`parallel`](super::parallel) orders the
    /// next iteration's subtrees by it.
    pub(super) nearest: u32,
    /// What cut children, since [`parallel`](super::parallel) last took the count.
    pub(super) prunes: Prunes,
}

impl<G: Geometry, const T: usize, const N: usize> Worker<G, T, N> {
    pub(super) fn new() -> Self {
        // The per-batch arrays hold MAX_BATCH nodes, and a candidate's index
        // in a batch (up to 4 a node) must fit the 8 bits `order` gives it.
        const { assert!(G::BATCH <= MAX_BATCH && 4 * MAX_BATCH <= 256) };
        // Each batch takes at most G::BATCH nodes off the stack and puts back
        // at most 3 per node, so the stack stays below 3 * G::BATCH per level
        // of depth.
        Worker {
            stack: Vec::with_capacity(3 * G::BATCH * G::max_depth() + 1),
            kids: Vec::with_capacity(3 * G::BATCH),
            cands: Vec::with_capacity(4 * G::BATCH),
            order: Vec::with_capacity(4 * G::BATCH),
            nearest: u32::MAX,
            prunes: Prunes::default(),
        }
    }

    /// One depth-first iteration of IDA* (Korf 1985) below `root` with the
    /// cost bound of `ctx`, on an explicit stack in batches ([`Geometry::BATCH`]
    /// nodes at a time): each child is pruned before it is pushed, first on the
    /// group looked up on the board itself and then, only if it survived, on the
    /// mirrored group. Siblings are searched smallest estimate first. The bound
    /// of the next iteration is the smallest f-value that exceeded this one
    /// (always an even step: f-values share the parity of the Manhattan
    /// distance). It looks at the watch's stop flags and `abandon` every
    /// [`REPORT_NODES`] nodes. With several `roots` (at most a batch: the
    /// open boards of A*, see [`hybrid`](super::hybrid)) it searches their subtrees on one
    /// stack, the first root's popped first, so that the batches stay full;
    /// `backs[r]` is a blank direction root `r`'s children leave out (the move
    /// back to where its g came from), if `backs` is not empty.
    pub(super) fn iterate(
        &mut self,
        ctx: &Context<'_, '_, G>,
        roots: &[Node<G, T, N>],
        backs: &[u8],
        counters: &mut Counters,
        abandon: impl Fn() -> bool,
    ) -> Iteration<Node<G, T, N>> {
        let (heur, bound, watch) = (ctx.heur, ctx.bound, ctx.watch);
        let groups = heur.groups.len();
        let Worker {
            stack,
            kids,
            cands,
            order,
            nearest,
            prunes,
        } = self;
        *nearest = roots.iter().map(|r| r.h(groups)).min().unwrap_or(u32::MAX);
        assert!(roots.len() <= G::BATCH && (backs.is_empty() || backs.len() == roots.len()));
        let mut first = !backs.is_empty();
        let mut pruned = Pruned::new(prunes);
        let mut next_bound = u32::MAX;
        let mut unreported = 0;
        stack.clear();
        stack.extend(roots.iter().rev());
        while !stack.is_empty() {
            let lo = stack.len().saturating_sub(G::BATCH);
            let batch = &stack[lo..];
            counters.expanded += batch.len() as u64;
            unreported += batch.len() as u64;
            if unreported >= REPORT_NODES {
                watch.nodes.fetch_add(unreported, Ordering::Relaxed);
                unreported = 0;
                if watch.halted() || abandon() {
                    return Iteration::Stopped;
                }
            }
            // Every child of the batch a candidate, unless one is the goal.
            cands.clear();
            for (pi, node) in batch.iter().enumerate() {
                if let Some(goal) = expand(ctx, node, pi, cands, &mut pruned) {
                    watch.nodes.fetch_add(unreported, Ordering::Relaxed);
                    return Iteration::Found(goal);
                }
            }
            // The first batch is the roots, the first on top (last).
            if first {
                first = false;
                let k = roots.len();
                cands.retain(|c| c.dir != backs[k - 1 - c.parent as usize]);
            }
            counters.generated += cands.len() as u64;
            read_waves(ctx, batch, cands, &mut pruned, nearest, counters);
            let cut = pathmax(batch.len(), &mut pruned, bound, &mut next_bound);
            push_children(heur, batch, cands, &cut, order, kids, &mut pruned);
            stack.truncate(lo);
            stack.extend_from_slice(kids);
        }
        watch.nodes.fetch_add(unreported, Ordering::Relaxed);
        Iteration::Exhausted(next_bound)
    }
}

/// The tables read for the candidates `cands` of `batch`, group by group in
/// waves ([`Reading`](super::heuristic::Reading)): each wave's reads for the whole batch back to back,
/// nothing depending on them in between, so that they overlap; only the
/// candidates no group of a wave cut go on to the next. A candidate cut is
/// counted in `pruned` (with the table that cut it) and dropped; a survivor
/// of the last wave gets its sibling key, and lowers `nearest` to its
/// estimate.
#[inline(always)]
fn read_waves<G: Geometry, const T: usize, const N: usize>(
    ctx: &Context<'_, '_, G>,
    batch: &[Node<G, T, N>],
    cands: &mut Vec<Candidate<G::Mask, N>>,
    pruned: &mut Pruned<'_>,
    nearest: &mut u32,
    counters: &mut Counters,
) {
    let (heur, bound) = (ctx.heur, ctx.bound);
    let groups = heur.groups.len();
    let mut start = 0;
    while start < groups {
        // Up to two groups, every reading is one group a wave.
        let end = if N <= 2 {
            start + 1
        } else {
            heur.reading.wave_end(start, groups)
        };
        counters.reads += (cands.len() * (end - start)) as u64;
        for c in cands.iter_mut() {
            for k in start..end {
                let grp = nth_group(c.first as usize, k);
                let s = c.slide[grp];
                let table = heur.table[grp][s.table as usize];
                c.nib[grp] = table.half_excess(s.index);
            }
        }
        let last = end == groups;
        let next_end = if N <= 2 {
            end + 1
        } else {
            heur.reading.wave_end(end, groups)
        };
        let mut kept = 0;
        for i in 0..cands.len() {
            let c = &mut cands[i];
            let p = c.parent as usize;
            let node = &batch[p];
            // The largest f-value the wave gives, and the first of its
            // groups (in reading order) that puts it past the bound.
            let (mut f, mut cutter) = (0, None);
            for k in start..end {
                let grp = nth_group(c.first as usize, k);
                let fk = node.g as u32 + 1 + c.h(grp);
                f = f.max(fk);
                if fk > bound && cutter.is_none() {
                    cutter = Some(grp);
                }
            }
            pruned.seen(p, f);
            if let Some(grp) = cutter {
                pruned.beyond(p, f);
                pruned.counts.read[grp][c.slide[grp].table as usize] += 1;
                continue;
            }
            if last {
                let (key, h) = sibling_key((0..groups).map(|g| c.h(g)));
                c.key = key;
                *nearest = (*nearest).min(h);
            } else {
                // Survived this wave: prepare the next wave's reads.
                let (t, from, to) = (c.tile as usize, c.from as usize, node.blank as usize);
                for k in end..next_end {
                    let g = nth_group(c.first as usize, k);
                    c.slide[g] = heur.slide(node, g, t, from, to);
                }
            }
            if kept != i {
                cands[kept] = cands[i];
            }
            kept += 1;
        }
        cands.truncate(kept);
        start = end;
    }
}

/// Bidirectional pathmax (Felner et al. 2005) over the `parents` nodes of a
/// batch: the tables are not consistent (an estimate can jump by up to 7 in
/// one move), and a child with estimate h proves its parent is at least
/// h - 1 from the goal. A child beyond bound + 2 therefore lifts its
/// parent's f-value past the bound, and all its siblings go (1.8% fewer
/// nodes): which parents are cut so. Lowers `next_bound` to the smallest
/// f-value past the bound that `pruned` saw.
#[inline(always)]
fn pathmax(
    parents: usize,
    pruned: &mut Pruned<'_>,
    bound: u32,
    next_bound: &mut u32,
) -> [bool; MAX_BATCH] {
    let mut cut = [false; MAX_BATCH];
    for (p, cut) in cut.iter_mut().enumerate().take(parents) {
        let (max_f, min_f) = pruned.take(p);
        if max_f > bound + 2 {
            *next_bound = (*next_bound).min(max_f - 2);
            *cut = true;
        } else {
            *next_bound = (*next_bound).min(min_f);
        }
    }
    cut
}

/// The children of the candidates `cands` whose parent pathmax did not
/// `cut`, made into `kids`, the most promising last so that it is popped
/// first; the rest counted in `pruned`.
#[inline(always)]
fn push_children<G: Geometry, const T: usize, const N: usize>(
    heur: &Heuristic<'_, G>,
    batch: &[Node<G, T, N>],
    cands: &[Candidate<G::Mask, N>],
    cut: &[bool; MAX_BATCH],
    order: &mut Vec<u32>,
    kids: &mut Vec<Node<G, T, N>>,
    pruned: &mut Pruned<'_>,
) {
    let groups = heur.groups.len();
    // Sort (key, index) pairs rather than the candidates themselves.
    order.clear();
    for (i, c) in cands.iter().enumerate() {
        if !cut[c.parent as usize] {
            order.push((u32::from(c.key) << 8) | i as u32);
        }
    }
    pruned.counts.pathmax += (cands.len() - order.len()) as u64;
    order.sort_unstable_by(|a, b| b.cmp(a));
    kids.clear();
    for &o in order.iter() {
        let c = &cands[(o & 0xff) as usize];
        // A copy straight into the vector (`push` makes two).
        kids.extend_from_slice(std::slice::from_ref(&batch[c.parent as usize]));
        let n = kids.last_mut().expect("just pushed");
        make_child(heur, n, c, groups);
    }
}

/// What every step of one IDA* iteration reads, passed as one: the
/// heuristic, the move-pruning machine, the cost bound and the watch.
pub(super) struct Context<'s, 'h, G: Geometry> {
    pub(super) heur: &'s Heuristic<'h, G>,
    pub(super) fsm: &'static Fsm,
    pub(super) bound: u32,
    pub(super) watch: &'s Watch<'s>,
}

/// Per node of a batch: the largest and the smallest f-value of its children
/// pruned so far (for bidirectional pathmax and the next bound); and the
/// count of what pruned them.
struct Pruned<'p> {
    max_f: [u32; MAX_BATCH],
    min_f: [u32; MAX_BATCH],
    counts: &'p mut Prunes,
}

impl Pruned<'_> {
    fn new(counts: &mut Prunes) -> Pruned<'_> {
        Pruned {
            max_f: [0; MAX_BATCH],
            min_f: [u32::MAX; MAX_BATCH],
            counts,
        }
    }

    /// A child of batch node `p` with f-value `f` (pruned or not).
    #[inline(always)]
    fn seen(&mut self, p: usize, f: u32) {
        self.max_f[p] = self.max_f[p].max(f);
    }

    /// A child of batch node `p` pruned with f-value `f`.
    #[inline(always)]
    fn beyond(&mut self, p: usize, f: u32) {
        self.min_f[p] = self.min_f[p].min(f);
    }

    /// The largest and the smallest f-value of node `p`, which start over.
    #[inline(always)]
    fn take(&mut self, p: usize) -> (u32, u32) {
        let both = (self.max_f[p], self.min_f[p]);
        self.max_f[p] = 0;
        self.min_f[p] = u32::MAX;
        both
    }
}

/// The order of siblings in the depth-first search, from each group's estimate
/// of a child: smallest estimate first; ties, the child both groups think
/// closer (2.5% fewer nodes than the estimate alone). Returns the sort key and
/// the estimate (the largest).
#[inline(always)]
pub(super) fn sibling_key(estimates: impl Iterator<Item = u32>) -> (u16, u32) {
    let (mut best, mut total) = (0, 0);
    for h in estimates {
        best = best.max(h);
        total += h;
    }
    ((best.min(255) * 256 + total.min(255)) as u16, best)
}

/// Appends the children of `node` (number `parent` in the batch) within the
/// bound of `ctx` by their estimate without the read, with the first group's
/// table entry to read prepared (the reads come later). Returns a child that
/// is the goal.
#[inline(always)]
fn expand<G: Geometry, const T: usize, const N: usize>(
    ctx: &Context<'_, '_, G>,
    node: &Node<G, T, N>,
    parent: usize,
    cands: &mut Vec<Candidate<G::Mask, N>>,
    pruned: &mut Pruned<'_>,
) -> Option<Node<G, T, N>> {
    let heur = ctx.heur;
    let room = ctx.bound - node.g as u32 - 1;
    let groups = heur.groups.len();
    let blank = node.blank as usize;
    // Read first the group whose estimate of the parent is the largest: it is
    // the likeliest to prune the child, sparing the other reads.
    let first = likeliest(node, groups);
    let mut goal = None;
    children(heur, ctx.fsm, node, |mut c| {
        if c.md == 0 {
            // Every tile is home. (A goal child is always within the bound: its
            // parent's f is at most the bound and its h at least 1.)
            goal = Some(child(heur, node, &c, 0));
            return false;
        }
        let floor = c.rest[..groups]
            .iter()
            .map(|&r| u32::from(r))
            .max()
            .unwrap_or(0);
        if floor > room {
            let f = node.g as u32 + 1 + floor;
            pruned.seen(parent, f);
            pruned.beyond(parent, f);
            pruned.counts.unread += 1;
            return true;
        }
        c.parent = parent as u8;
        c.first = first as u8;
        if N <= 2 {
            c.slide[first] = heur.slide(node, first, c.tile as usize, c.from as usize, blank);
        } else {
            for k in 0..heur.reading.wave_end(0, groups) {
                let g = nth_group(first, k);
                c.slide[g] = heur.slide(node, g, c.tile as usize, c.from as usize, blank);
            }
        }
        cands.push(c);
        true
    });
    goal
}

#[cfg(test)]
mod tests {
    use super::super::geometry::Five;
    use super::super::heuristic::Reading;
    use super::super::parallel::search;
    use crate::board_adt::moves::{replay, Move};
    use crate::generate::{random_walk, SplitMix64};
    use crate::solve::outcome::{Counters, Limits, Outcome};
    use crate::solve::pattern::canonical;
    use crate::solve::pattern::goal_tables::testing::{random_goal, small_large};
    use crate::solve::pattern::Tables;

    use super::*;

    /// A shortest solution by `tables` on one thread, its groups read as
    /// `reading` says, replayed: its moves (in the canonical frame), the
    /// start's estimate and the nodes.
    fn solve_reading(
        start: &[u8],
        goal: &[u8],
        tables: &Tables,
        reading: Reading,
    ) -> (Vec<Move>, u32, u64) {
        let canon = canonical::normalise(Five::SIDE, start, goal, tables.rep, Five::BLANK);
        let mut heur: Heuristic<'_, Five> = tables.heuristic();
        heur.reading = reading;
        let mut counters = Counters::default();
        let limits = Limits {
            jobs: 1,
            ..Limits::UNLIMITED
        };
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
        (moves, counters.start_h, counters.expanded)
    }

    #[test]
    fn lazy_and_full_reading_cut_alike_and_find_the_same_length() {
        // Lazy reads a child's groups one by one and stops at the first
        // that cuts; full reads all; two waves the first, then the rest.
        // All cut the same children (only the f-values that pathmax and
        // the next bound see may differ), so the lengths agree.
        let mut rng = SplitMix64::new(0x1a2);
        for goal_blank in [0, 7] {
            let tables = small_large(goal_blank);
            let goal = random_goal(&mut rng, Five::CELLS, goal_blank);
            for _ in 0..3 {
                let start = random_walk(&mut rng, Five::SIDE, &goal, 34);
                let readings = [Reading::Lazy, Reading::TwoWaves, Reading::Full];
                let answers: Vec<(Vec<Move>, u32, u64)> = readings
                    .iter()
                    .map(|&r| solve_reading(&start, &goal, tables, r))
                    .collect();
                let (moves, start_h, _) = &answers[0];
                assert!(*start_h as usize <= moves.len());
                for (r, (m, h, nodes)) in readings.iter().zip(&answers) {
                    assert_eq!((m.len(), h), (moves.len(), start_h), "{r:?}");
                    assert!(*nodes > 0);
                }
            }
        }
    }
}
