//! A*+IDA* (Bu and Korf 2019, "A*+IDA*: a simple hybrid search algorithm"):
//! the top of the tree is searched once, best-first with duplicate
//! detection, until a memory budget is used; the IDA* iterations then search
//! depth-first from each node A* left open whose f-value is within the
//! bound ([`parallel`](super::parallel) does that part, with its learnt
//! order and its threads). A board that many paths reach near the start is
//! searched from once, not once a path: the move-pruning machine removes
//! the duplicates of short cycles only.
//!
//! **Why it stays optimal.** A* here reopens a board found again by a
//! shorter path (the tables are inconsistent) and orders by f-values made
//! monotone along a path (pathmax), so every path from the start first
//! leaves the expanded (closed) boards at an open board whose stored g is
//! at most the path's moves up to it. On a shortest solution that g is
//! exact, and the depth-first search from that open board within a bound
//! of at least the solution's length finds a solution as long. So an
//! iteration that ends without a goal proves every solution longer than its
//! bound, as in IDA*.
//!
//! **The move-pruning machine below an open board** starts at
//! [`Fsm::START`](super::Fsm::START): its rules are about move sequences
//! alone, so from any root it keeps, for every path, a no longer one to the
//! same board with the same first board, and the subtree of an open board
//! keeps a shortest path from it to the goal. (Starting in the state after
//! the move that reached the board would let it cut a path whose
//! replacement leaves through another open board, one that may hold a
//! longer stored g.) What it forgets is only that the first move must not
//! undo the last: that child is dropped by hand ([`Open::back`]), safely,
//! since a shortest path through a board never goes back to the board its
//! stored g came from (that board is nearer the start).
//!
//! **Determinism.** The A* runs on one thread in a fixed order (lowest f
//! first, last in first out within an f-value), with its own hash table
//! (no random seed), so the open boards and their order are the same on
//! every run; the order of the iterations' subtrees then depends on them
//! and on complete searches only, as with the breadth-first split.

use super::geometry::{Geometry, PackedBoard, DIRS, NO_CELL};
use super::heuristic::Heuristic;
use super::node::Node;
use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::Move;
use crate::solve::outcome::Counters;
use std::time::{Duration, Instant};

/// How each iteration finds the subtrees its threads search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Top {
    /// IDA*: the tree is expanded breadth-first from the start anew each
    /// iteration, to a level of a few thousand nodes.
    Split,
    /// A*+IDA*: best-first once, in at most `bytes` of memory; the
    /// iterations then search from the open boards.
    AStar { bytes: usize },
}

impl Top {
    /// How `--shortest` splits the tree, given the bytes asked for an A*
    /// top ([`crate::SolveOptions::astar_memory`]): at most a quarter of
    /// the memory the system says is available; below 64 MiB, or none
    /// asked, plain IDA* ([`Top::Split`]). Off by default: with the
    /// 12-move pruning machine the tree holds few duplicates: on Korf and
    /// Felner's #43 (large set, 1 GiB) the iteration that proves the
    /// answer held 0.8% more nodes than plain IDA*'s (the machine restarts
    /// below each open board), 0.7% fewer in all with A*'s, and the run
    /// was slower (docs/journal.md).
    pub(crate) fn within(asked: Option<usize>) -> Top {
        Top::within_available(asked, available_bytes())
    }

    /// [`Top::within`] where the system reports `available` bytes (read
    /// once: it changes from one moment to the next).
    fn within_available(asked: Option<usize>, available: Option<usize>) -> Top {
        let Some(asked) = asked else {
            return Top::Split;
        };
        let bytes = available.map_or(asked, |a| asked.min(a / 4));
        if bytes < 64 << 20 {
            Top::Split
        } else {
            Top::AStar { bytes }
        }
    }
}

/// `MemAvailable` of /proc/meminfo, if there is one.
fn available_bytes() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb << 10)
}

/// Bytes the A* spends a stored board: a slot of the hash table (16 + 2
/// bytes, at most three quarters full), its place in an f-bucket (32: the
/// board and its table entries) and, if it stays open, its [`Open`] entry
/// (48, about half of them).
const BYTES_PER_BOARD: usize = 18 * 4 / 3 + 32 + 24 + 2;

/// A board A* left open: where an iteration's depth-first searches start.
#[derive(Clone, Copy, Debug)]
pub(super) struct Open {
    pub(super) board: u128,
    /// Its table entries ([`Node::packed_nibs`]), or [`NO_NIBS`].
    pub(super) nibs: u128,
    /// Moves from the start (the best path A* knew).
    pub(super) g: u8,
    /// Its f-value (with pathmax): a lower bound on every solution through
    /// this board by a path of `g` moves.
    pub(super) f: u8,
    /// The blank's direction on the last move of that path.
    pub(super) dir: u8,
}

impl Open {
    /// The direction of the move that undoes the last: the child the
    /// depth-first search leaves out.
    pub(super) fn back(&self) -> u8 {
        self.dir ^ 1
    }
}

/// What the A* did, for `--stats`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TopStats {
    /// Boards expanded.
    pub(crate) expanded: u64,
    /// Boards stored (expanded or open).
    pub(crate) stored: u64,
    /// Boards left open (the frontier).
    pub(crate) open: u64,
    /// Memory held: the hash table, the buckets and the frontier.
    pub(crate) bytes: u64,
    /// The smallest f-value left open: every solution is at least this long.
    pub(crate) bound: u32,
    pub(crate) elapsed: Duration,
}

/// Hash table of the boards seen: board -> g, direction of the last move,
/// expanded or not. Open addressing, linear probing, 0 the empty key (no
/// board packs to 0: the tiles differ).
pub(super) struct Seen {
    keys: Vec<u128>,
    vals: Vec<u16>,
    len: usize,
    /// Stores beyond this many boards are refused.
    limit: usize,
}

const CLOSED: u16 = 1 << 10;

impl Seen {
    fn with_limit(limit: usize) -> Seen {
        let slots = (limit * 4 / 3).max(16);
        Seen {
            keys: vec![0; slots],
            vals: vec![0; slots],
            len: 0,
            limit,
        }
    }

    fn bytes(&self) -> usize {
        self.keys.len() * 18
    }

    /// The slot holding `key`, or the empty slot where it would go.
    #[inline]
    fn slot(&self, key: u128) -> (usize, bool) {
        let mut x = (key as u64) ^ ((key >> 64) as u64).rotate_left(31);
        x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^= x >> 29;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 32;
        let n = self.keys.len();
        let mut i = ((u128::from(x) * n as u128) >> 64) as usize;
        loop {
            let k = self.keys[i];
            if k == key {
                return (i, true);
            }
            if k == 0 {
                return (i, false);
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    fn get(&self, key: u128) -> Option<u16> {
        let (i, found) = self.slot(key);
        found.then(|| self.vals[i])
    }

    /// The moves from the start to `board` by the stored directions: the
    /// path the board's g came from (or a shorter one, if a board on it was
    /// later reached by a shorter path).
    pub(super) fn path_to<G: Geometry>(&self, board: u128, goal_blank: usize) -> MoveList {
        const MOVE: [Move; 4] = [Move::Down, Move::Up, Move::Right, Move::Left];
        let cells = G::cells();
        let mut dirs = Vec::new();
        let mut b = board;
        loop {
            let v = self.get(b).expect("a stored board");
            if v & 0xff == 0 {
                break;
            }
            let d = ((v >> 8) & 3) as usize;
            let blank = blank_of::<G>(b, goal_blank);
            // The blank came from the cell on the other side.
            let from = cells.neighbour[blank][d ^ 1];
            assert_ne!(from, NO_CELL, "a stored move stays on the board");
            b = swap::<G>(b, blank, from as usize);
            dirs.push(d);
        }
        dirs.iter().rev().map(|&d| MOVE[d]).collect()
    }
}

/// Bits a cell of a packed board.
fn width<G: Geometry>() -> usize {
    if G::CELLS <= 16 {
        4
    } else {
        5
    }
}

fn code_at<G: Geometry>(board: u128, cell: usize) -> usize {
    let w = width::<G>();
    ((board >> (w * cell)) & ((1 << w) - 1)) as usize
}

fn blank_of<G: Geometry>(board: u128, goal_blank: usize) -> usize {
    (0..G::CELLS)
        .find(|&c| code_at::<G>(board, c) == goal_blank)
        .expect("a blank")
}

/// `board` with the codes on cells `a` and `b` swapped.
fn swap<G: Geometry>(board: u128, a: usize, b: usize) -> u128 {
    let w = width::<G>();
    let x = (code_at::<G>(board, a) ^ code_at::<G>(board, b)) as u128;
    board ^ (x << (w * a)) ^ (x << (w * b))
}

/// The cells of a packed board as [`Heuristic::root`] takes them.
fn cells_of<G: Geometry>(board: u128, goal_blank: usize) -> [u8; 25] {
    let mut cells = [0u8; 25];
    for (c, cell) in cells.iter_mut().enumerate().take(G::CELLS) {
        let t = code_at::<G>(board, c);
        *cell = if t == goal_blank { G::BLANK } else { t as u8 };
    }
    cells
}

impl<G: Geometry> Heuristic<'_, G> {
    /// The search node of open board `open`: its table entries as stored
    /// (or looked up afresh), `g` moves made (the path's bits left 0:
    /// [`Seen::path_to`] gives them), the move-pruning machine at its start.
    pub(super) fn node_of<const T: usize, const N: usize>(&self, open: &Open) -> Node<G, T, N> {
        let cells = cells_of::<G>(open.board, self.goal_blank);
        let nibs = (open.nibs != NO_NIBS).then_some(open.nibs);
        let mut node = self.root_with::<T, N>(&cells[..G::CELLS], nibs);
        debug_assert!(
            nibs.is_none() || self.root::<T, N>(&cells[..G::CELLS]).nib == node.nib,
            "the stored entries are the board's"
        );
        node.g = open.g;
        node
    }
}

impl<G: Geometry, const T: usize, const N: usize> Node<G, T, N> {
    /// The node's table entries, 4 bits each, entry `q` of group `g` at
    /// `g * T + q`, if there is room (up to 31, so that the top 4 bits stay
    /// 0); [`NO_NIBS`] otherwise.
    fn packed_nibs(&self) -> u128 {
        if T * N > 31 {
            return NO_NIBS;
        }
        let mut packed = 0u128;
        for g in 0..N {
            for q in 0..T {
                packed |= u128::from(self.nib[g][q] & 15) << (4 * (g * T + q));
            }
        }
        packed
    }
}

/// Whether the path of `node` (below some open board, its first moves
/// unknown) passes board `open` at its g: the board after undoing its moves
/// from there on.
pub(super) fn passes<G: Geometry, const T: usize, const N: usize>(
    node: &Node<G, T, N>,
    open: &Open,
    goal_blank: usize,
) -> bool {
    if open.g > node.g {
        return false;
    }
    let cells = G::cells();
    let path = node.path.as_ref();
    let mut b = node.board.bits();
    for i in (open.g as usize..node.g as usize).rev() {
        let d = ((path[i / 8] >> (2 * (i % 8))) & 3) as usize;
        let blank = blank_of::<G>(b, goal_blank);
        let from = cells.neighbour[blank][d ^ 1];
        if from == NO_CELL {
            return false;
        }
        b = swap::<G>(b, blank, from as usize);
    }
    b == open.board
}

/// No table entries stored: they are read.
pub(super) const NO_NIBS: u128 = u128::MAX;

/// The frontier of an A* that ran out of memory, in a fixed order (f-value,
/// then the order A* would have expanded them in), and what leads to it.
pub(super) struct Frontier {
    pub(super) open: Vec<Open>,
    pub(super) seen: Seen,
    pub(super) stats: TopStats,
}

/// How the A* ended.
pub(super) enum Ended {
    /// It expanded a goal: a shortest solution.
    Goal(MoveList, TopStats),
    /// Out of memory: the boards it left open.
    Frontier(Frontier),
    /// Stopped from outside: every solution is at least this long.
    Stopped(u32, TopStats),
}

/// A* from `root` in at most `bytes` of memory. `halted` is asked every few
/// thousand boards; `report` is given the f-value being expanded at the same
/// points.
pub(super) fn astar<G: Geometry, const T: usize, const N: usize>(
    heur: &Heuristic<'_, G>,
    root: &Node<G, T, N>,
    bytes: usize,
    counters: &mut Counters,
    halted: &dyn Fn() -> bool,
    report: &mut dyn FnMut(u32, u64),
) -> Ended {
    let started = Instant::now();
    let groups = heur.groups.len();
    let limit = (bytes / BYTES_PER_BOARD).max(64);
    let mut seen = Seen::with_limit(limit);
    // `buckets[f]`: boards to expand at f-value f, the last first, with
    // their table entries (so that expanding one reads its children's only).
    let mut buckets: Vec<Vec<(u128, u128)>> = vec![Vec::new(); G::max_depth() + 2];
    let start = root.board.bits();
    let (i, _) = seen.slot(start);
    seen.keys[i] = start;
    seen.vals[i] = 0;
    seen.len = 1;
    let mut f = root.h(groups) as usize;
    buckets[f].push((start, root.packed_nibs()));
    let mut stats = TopStats::default();
    let stats_now = |stats: &mut TopStats, seen: &Seen, f: usize, open: usize| {
        stats.stored = seen.len as u64;
        stats.bound = f as u32;
        stats.elapsed = started.elapsed();
        stats.bytes = (seen.bytes() + open * 32) as u64;
    };
    loop {
        while f < buckets.len() && buckets[f].is_empty() {
            f += 1;
        }
        assert!(f < buckets.len(), "goal unreachable from this board");
        let (board, nibs) = *buckets[f].last().expect("a board");
        let (i, _) = seen.slot(board);
        let v = seen.vals[i];
        if v & CLOSED != 0 {
            buckets[f].pop();
            continue;
        }
        let g = (v & 0xff) as u8;
        let open = Open {
            board,
            nibs,
            g,
            f: f as u8,
            dir: ((v >> 8) & 3) as u8,
        };
        let node: Node<G, T, N> = heur.node_of(&open);
        if node.md == 0 {
            let moves = seen.path_to::<G>(board, heur.goal_blank);
            let open: usize = buckets.iter().map(Vec::len).sum();
            stats_now(&mut stats, &seen, f, open);
            return Ended::Goal(moves, stats);
        }
        // Room for its children (at most four new boards)?
        if seen.len + 4 > seen.limit {
            break;
        }
        buckets[f].pop();
        seen.vals[i] = v | CLOSED;
        stats.expanded += 1;
        counters.expanded += 1;
        if stats.expanded % 4096 == 0 {
            report(f as u32, stats.expanded);
            if halted() {
                let open: usize = buckets.iter().map(Vec::len).sum();
                stats_now(&mut stats, &seen, f, open);
                return Ended::Stopped(f as u32, stats);
            }
        }
        node.children_read(heur, |child| {
            counters.generated += 1;
            counters.reads += groups as u64;
            let key = child.board.bits();
            let cg = child.g;
            let cf = (cg as usize + child.h(groups) as usize).max(f);
            let d = child.last_dir();
            let (j, found) = seen.slot(key);
            if found {
                let old = seen.vals[j];
                if (old & 0xff) as u8 <= cg {
                    return true;
                }
            } else {
                seen.keys[j] = key;
                seen.len += 1;
            }
            seen.vals[j] = u16::from(cg) | (d as u16) << 8;
            buckets[cf].push((key, child.packed_nibs()));
            true
        });
    }
    // The open boards, lowest f first, each in the order A* would have
    // taken them (the last pushed first); a board in two buckets is taken
    // at its lower f-value (its current g).
    let mut open = Vec::new();
    for (bf, bucket) in buckets.iter_mut().enumerate() {
        for &(board, nibs) in bucket.iter().rev() {
            let (i, _) = seen.slot(board);
            let v = seen.vals[i];
            if v & CLOSED != 0 {
                continue;
            }
            // Marked, so that a copy in a later bucket is left out; the
            // depth-first searches do not look at the mark.
            seen.vals[i] = v | CLOSED;
            open.push(Open {
                board,
                nibs,
                g: (v & 0xff) as u8,
                f: bf as u8,
                dir: ((v >> 8) & 3) as u8,
            });
        }
        *bucket = Vec::new();
    }
    let pushed = open.len();
    stats_now(&mut stats, &seen, f, pushed);
    stats.bytes += (open.capacity() * std::mem::size_of::<Open>()) as u64;
    stats.open = open.len() as u64;
    Ended::Frontier(Frontier { open, seen, stats })
}

impl<G: Geometry, const T: usize, const N: usize> Node<G, T, N> {
    /// The blank's direction on the last move (of a node with `g` > 0).
    fn last_dir(&self) -> usize {
        let i = self.g as usize - 1;
        ((self.path.as_ref()[i / 8] >> (2 * (i % 8))) & 3) as usize
    }
}

// The direction codes of `DIRS` pair up: `d ^ 1` undoes `d`.
const _: () = {
    let mut d = 0;
    while d < 4 {
        assert!(DIRS[d].0 == -DIRS[d ^ 1].0 && DIRS[d].1 == -DIRS[d ^ 1].1);
        d += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::super::geometry::{Five, Four};
    use super::super::parallel::search_between;
    use super::*;
    use crate::board_adt::moves::replay;
    use crate::generate::{random_walk, SplitMix64};
    use crate::solve::outcome::{Limits, Outcome};
    use crate::solve::pattern::canonical;
    use crate::solve::pattern::goal_tables::testing::{random_goal, small, small_large};
    use crate::solve::pattern::{Tables, FIFTEEN, TWENTY_FOUR};

    #[test]
    fn an_a_star_top_only_when_asked_for_and_within_the_memory() {
        // The memory figure is given: MemAvailable moves while other tests
        // build tables, so reading it twice made this test fail at times.
        let gib = 1usize << 30;
        for available in [None, Some(16 * gib), Some(gib), Some(200 << 20)] {
            assert_eq!(Top::within_available(None, available), Top::Split);
            assert_eq!(Top::within_available(Some(0), available), Top::Split);
            assert_eq!(
                Top::within_available(Some((64 << 20) - 1), available),
                Top::Split
            );
        }
        let asked = 100 << 20;
        assert_eq!(
            Top::within_available(Some(asked), None),
            Top::AStar { bytes: asked },
            "where the system reports no memory, what was asked"
        );
        assert_eq!(
            Top::within_available(Some(asked), Some(16 * gib)),
            Top::AStar { bytes: asked }
        );
        // At most a quarter of the memory: 1 GiB gives 256 MiB; 200 MiB
        // gives 50, under the 64 MiB an A* top needs.
        assert_eq!(
            Top::within_available(Some(usize::MAX), Some(gib)),
            Top::AStar { bytes: gib / 4 },
            "a budget beyond a quarter of the memory is cut to it"
        );
        assert_eq!(
            Top::within_available(Some(asked), Some(200 << 20)),
            Top::Split
        );
        // And on this machine, whatever it reports: one of the two.
        match Top::within(Some(asked)) {
            Top::AStar { bytes } => assert!(bytes <= asked),
            Top::Split => {}
        }
    }

    /// The moves from `start` to `goal` (plain cells) by the shortest-path
    /// search over `tables` on `jobs` threads, its tree split as `top` says,
    /// replayed (on the canonical board), and what its A* top did.
    fn searched_with<G: Geometry>(
        start: &[u8],
        goal: &[u8],
        tables: &Tables,
        top: Top,
        jobs: usize,
    ) -> (Vec<Move>, Option<TopStats>) {
        let canon = canonical::normalise(G::SIDE, start, goal, tables.rep, G::BLANK);
        let heur: Heuristic<'_, G> = tables.heuristic();
        let limits = Limits {
            jobs,
            ..Limits::UNLIMITED
        };
        let mut counters = Counters::default();
        let searched = search_between(
            &heur,
            &canon.cells,
            &limits,
            top,
            &mut counters,
            &mut |_| {},
            &mut |_| true,
        );
        let Outcome::Solved(moves) = searched.outcome else {
            panic!("no deadline and no stop");
        };
        let moves = moves.to_vec();
        let mut cells = canon.cells.clone();
        let mut blank = cells.iter().position(|&t| t == G::BLANK).unwrap();
        assert_eq!(replay(&mut cells, G::SIDE, &mut blank, &moves), Ok(()));
        assert_eq!(heur.value(&cells), 0, "the moves reach the goal");
        (moves, searched.top)
    }

    /// A*+IDA* ([`Top::AStar`]) against plain IDA* on random walks of
    /// `lengths` moves from goals with the blank on `blanks`: a budget of a
    /// few hundred boards, so that the iterations start from A*'s open
    /// boards, and one large enough for A* to meet the goal itself. The
    /// same length as IDA*, and the same moves on 1, 2 and 3 threads.
    fn a_star_top_agrees<G: Geometry>(
        seed: u64,
        blanks: &[usize],
        lengths: (usize, usize),
        tables: &dyn Fn(usize) -> &'static Tables,
    ) {
        let mut rng = SplitMix64::new(seed);
        let mut from_open = 0;
        for &goal_blank in blanks {
            let goal = random_goal(&mut rng, G::CELLS, goal_blank);
            let n = lengths.0 + rng.index(lengths.1 - lengths.0);
            let start = random_walk(&mut rng, G::SIDE, &goal, n);
            let tables = tables(goal_blank);
            let (plain, none) = searched_with::<G>(&start, &goal, tables, Top::Split, 1);
            assert!(none.is_none());
            for bytes in [16 << 10, 64 << 20] {
                let top = Top::AStar { bytes };
                let (moves, stats) = searched_with::<G>(&start, &goal, tables, top, 1);
                assert_eq!(
                    moves.len(),
                    plain.len(),
                    "goal blank {goal_blank}, {bytes} bytes"
                );
                let stats = stats.expect("an A* top");
                from_open += usize::from(stats.open > 0);
                for jobs in [2, 3] {
                    let again = searched_with::<G>(&start, &goal, tables, top, jobs).0;
                    assert_eq!(again, moves, "goal blank {goal_blank}, {jobs} threads");
                }
            }
        }
        assert!(
            from_open >= blanks.len(),
            "the small budget leaves boards open"
        );
    }

    #[test]
    fn an_a_star_top_finds_shortest_4x4_solutions_alike_on_any_threads() {
        let small = |g| small(&FIFTEEN, g);
        a_star_top_agrees::<Four>(0x1526, &[0, 5, 6, 15], (34, 44), &small);
    }

    #[test]
    fn an_a_star_top_finds_shortest_5x5_solutions_alike_on_any_threads() {
        let small = |g| small(&TWENTY_FOUR, g);
        a_star_top_agrees::<Five>(0x2426, &[0, 7, 12], (30, 40), &small);
        a_star_top_agrees::<Five>(0x2427, &[1, 24], (26, 34), &small_large);
    }

    /// A* stopped before its budget is used (here by a node limit, as by
    /// the deadline or Ctrl-C) ends the search with a proven lower bound.
    #[test]
    fn a_star_top_stopped_early_leaves_a_lower_bound() {
        let mut rng = SplitMix64::new(0x2428);
        let goal: Vec<u8> = (0..Five::CELLS as u8).collect();
        let start = random_walk(&mut rng, Five::SIDE, &goal, 140);
        let tables = small(&TWENTY_FOUR, 0);
        let canon = canonical::normalise(Five::SIDE, &start, &goal, tables.rep, Five::BLANK);
        let heur: Heuristic<'_, Five> = tables.heuristic();
        let limits = Limits {
            max_nodes: Some(5000),
            ..Limits::UNLIMITED
        };
        let mut counters = Counters::default();
        let searched = search_between(
            &heur,
            &canon.cells,
            &limits,
            Top::AStar { bytes: 64 << 20 },
            &mut counters,
            &mut |_| {},
            &mut |_| true,
        );
        let Outcome::Stopped { lower_bound, best } = searched.outcome else {
            panic!("stopped by the node limit");
        };
        assert!(best.is_none() && searched.iterations.is_empty());
        let top = searched.top.expect("the A* top ran");
        assert!(top.expanded >= 5000 && top.expanded < 20_000, "{top:?}");
        assert_eq!(top.bound, lower_bound);
        assert!(lower_bound >= heur.value(&canon.cells) && lower_bound <= 140);
    }
}
