//! IDA* over additive pattern databases, for the 4x4 and the 5x5 puzzle from one
//! implementation ([`Geometry`] names the side), towards a canonical goal (tile
//! `c` home on cell `c`, the blank on a given cell), looked up in one or two
//! frames of the board, with a finite-state machine that prunes duplicate move
//! sequences ([`fsm`]) and a split of the tree that lets several threads search
//! one puzzle and searches first the subtrees that came nearest the goal in the
//! previous iteration ([`parallel`]).
//!
//! The board handed to [`parallel::search`] names every tile by its home cell;
//! the blank is [`Geometry::BLANK`]. The answer is the moves on that board (the
//! caller turns them back to the goal's frame). The heuristic is `manhattan + 2 * max over groups (sum of
//! the stored half-differences)`: each group is a set of disjoint tables (Korf &
//! Felner 2002) covering every tile, looked up either on the board itself or on
//! the board mirrored by a symmetry that fixes the goal (their "reflection about
//! the main diagonal", taking the maximum of the two lookups).
//!
//! What makes it fast (measured on Korf's 100 4x4 instances, where plain IDA*
//! with these tables expands 1.95 M nodes):
//!
//! - **Batched depth-first search.** A table read misses every cache: about
//!   260 ns alone on the target machine, but about 20 ns each when 16 or more
//!   are in flight. Each step takes the top 16 nodes (32 on 5x5: [`Geometry::BATCH`]) off an explicit
//!   stack, computes all their children's table indices, reads them in one tight
//!   loop, and only then prunes and pushes. (2.4x faster than recursion.)
//! - **Incremental indices.** A move changes one tile of one table per group: a
//!   sideways move only changes the occupied-cell set, an up/down move also
//!   shifts the permutation rank by a few weights ([`Indexer::weight`]); no
//!   allocation and no large auxiliary table in the loop.
//! - **Lazy groups.** The group whose estimate of the parent is the largest
//!   is read first; the others (the mirror image, and with the large 5x5 set
//!   the other partitionings on the board and its mirror) only for children
//!   the first read did not prune, all in one wave ([`Reading`]); a child
//!   whose bound without any read (Manhattan plus the unchanged tables)
//!   already fails is not read at all.
//! - **Duplicate pruning** with [`Fsm`] (25% fewer nodes), **sibling ordering**
//!   by estimate (12% fewer nodes in the last iteration), and **bidirectional
//!   pathmax** (Felner et al. 2005; the tables are inconsistent because each
//!   entry is a minimum over blank positions).
//! - **A learnt order of subtrees** ([`parallel`]): from the second iteration
//!   on, the subtrees below a shallow frontier are searched nearest the goal
//!   first, by what the previous iteration saw (17% fewer nodes on Korf's 100,
//!   half on the easiest 24-puzzles).
//!
//! Together: 0.97 M nodes for Korf's 100 (1.17 M without the learnt order).
//!
//! The search is generic over [`Geometry`] (`geometry.rs`): the side, the width of a cell set
//! (`u16` on 4x4, so that a node stays one 64-byte cache line; `u32` on 5x5),
//! the packed board (4 bits a cell in a `u64`; 5 bits in a `u128`) and the
//! longest path. Each size gets its own compiled copy, so nothing is decided at
//! run time in the inner loop.

mod beam;
mod fsm;
mod geometry;
mod hybrid;
mod parallel;

pub(crate) use beam::{beam, BeamLimits};
pub(crate) use fsm::Fsm;
pub(crate) use geometry::{Five, Four, Geometry};
pub(crate) use hybrid::{Top, TopStats};
pub(crate) use parallel::{search, search_between, IterationEnd, Searched};

use super::tables::{CellSet, Indexer, Pdb};
use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::Move;
use crate::solve::grid::manhattan;
use crate::solve::outcome::Counters;
use geometry::{PackedBoard, MAX_CELLS, NO_CELL};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Groups: the board itself and one mirror image for each partitioning of
/// the tiles: 2 with the standard tables, 6 with the large set (three
/// partitionings, [`super::partition`]).
pub(crate) const MAX_GROUPS: usize = 6;
/// Tables per group: 2 (4x4, 7-8) or 4 (5x5, 6-6-6-6) in production, up to 6
/// for the small test partitions.
const MAX_TABLES: usize = 6;
/// One additive group: disjoint tables whose patterns, seen through `frame`,
/// cover all tiles.
pub struct Group<'a> {
    /// Cell map into the tables' frame: a symmetry of the square that maps the
    /// goal's blank cell onto the cell the tables' goal expects. Tile `t` on cell
    /// `c` is seen as tile `frame[t]` on cell `frame[c]`.
    pub frame: Vec<u8>,
    /// The tables; their pattern cells partition the frame's non-blank cells.
    pub tables: Vec<&'a Pdb>,
}

/// What the inner loop needs of one table.
#[derive(Clone, Copy)]
struct TableRef<'a> {
    ix: &'a Indexer,
    data: &'a [u8],
}

impl TableRef<'_> {
    #[inline(always)]
    fn half_excess(&self, index: u32) -> u8 {
        let i = index as usize;
        (self.data[i >> 1] >> ((i & 1) << 2)) & 15
    }
}

/// The heuristic for one canonical goal: the blank's goal cell and the groups.
pub struct Heuristic<'a, G: Geometry> {
    goal_blank: usize,
    groups: Vec<Group<'a>>,
    /// `table[g][q]`: table `q` of group `g`; where group `g` has no table
    /// `q`, its first (never read: no tile names it), so that the inner loop
    /// takes a table without asking whether it exists.
    table: [[TableRef<'a>; MAX_TABLES]; MAX_GROUPS],
    /// `local[g][q][f]`: the local tile number, in table `q` of group `g`, of the
    /// tile whose home is frame cell `f`.
    local: [[[u8; MAX_CELLS]; MAX_TABLES]; MAX_GROUPS],
    /// `tile_table[g][t]`: which table of group `g` tracks tile `t`.
    tile_table: [[u8; MAX_CELLS]; MAX_GROUPS],
    frame: [[u8; MAX_CELLS]; MAX_GROUPS],
    /// Which of a node's two boards group `g` sees: 0 the board itself, 1
    /// the mirror image (`Node::fboard1`). Every group looks up one of the
    /// two, so a node keeps two boards however many groups there are.
    frame_of: [u8; MAX_GROUPS],
    /// How the depth-first search reads the groups.
    pub(crate) reading: Reading,
    /// The frame of the mirror image (the identity if no group mirrors).
    mirror: [u8; MAX_CELLS],
    geometry: std::marker::PhantomData<G>,
}

impl<'a, G: Geometry> Heuristic<'a, G> {
    /// Checks that every group is admissible for goals with the blank on
    /// `goal_blank`, and prepares the lookups.
    pub fn new(goal_blank: usize, groups: Vec<Group<'a>>) -> Heuristic<'a, G> {
        assert!(!groups.is_empty() && groups.len() <= MAX_GROUPS);
        let cells = G::CELLS;
        let all = (1u32 << cells) - 1;
        let mut tile_table = [[u8::MAX; MAX_CELLS]; MAX_GROUPS];
        let mut frame = [[0u8; MAX_CELLS]; MAX_GROUPS];
        let mut tables = [[None; MAX_TABLES]; MAX_GROUPS];
        let mut local = [[[u8::MAX; MAX_CELLS]; MAX_TABLES]; MAX_GROUPS];
        let identity: Vec<u8> = (0..cells as u8).collect();
        let mirror_frame = groups
            .iter()
            .map(|group| &group.frame)
            .find(|f| **f != identity)
            .unwrap_or(&identity);
        let mut mirror = [0u8; MAX_CELLS];
        mirror[..cells].copy_from_slice(mirror_frame);
        let mut frame_of = [0u8; MAX_GROUPS];
        for (g, group) in groups.iter().enumerate() {
            frame_of[g] = u8::from(group.frame != identity);
            assert!(
                group.frame == identity || group.frame == *mirror_frame,
                "every group looks up the board or the one mirror image"
            );
            assert!(group.tables.len() <= MAX_TABLES);
            let f = &group.frame;
            assert_eq!(f.len(), cells, "a frame maps every cell");
            let seen = f.iter().fold(0u32, |m, &c| m | 1 << c);
            assert_eq!(seen, all, "a frame is a permutation of the cells");
            assert!(
                g > 0 || f.iter().enumerate().all(|(c, &x)| x as usize == c),
                "group 0 looks up the board itself"
            );
            frame[g][..cells].copy_from_slice(f);
            let fb = f[goal_blank] as usize;
            let mut covered = 0u32;
            for (q, pdb) in group.tables.iter().enumerate() {
                let spec = pdb.spec();
                assert_eq!(spec.side(), G::SIDE, "tables for this side");
                assert_eq!(covered & spec.cells, 0, "tables of a group are disjoint");
                covered |= spec.cells;
                assert!(
                    spec.goal_region & (1 << fb) != 0,
                    "table goal leaves the blank where this goal does"
                );
                for t in 0..cells {
                    if spec.cells & (1 << f[t]) != 0 {
                        tile_table[g][t] = q as u8;
                    }
                }
                for (i, h) in spec.home_cells().into_iter().enumerate() {
                    local[g][q][h] = i as u8;
                }
                tables[g][q] = Some(TableRef {
                    ix: pdb.indexer(),
                    data: pdb.packed(),
                });
            }
            assert_eq!(covered, all & !(1u32 << fb), "a group covers every tile");
        }
        let any = tables[0][0].expect("group 0 has a table");
        let table = tables.map(|group| group.map(|table| table.unwrap_or(any)));
        Heuristic {
            goal_blank,
            groups,
            table,
            local,
            tile_table,
            frame,
            frame_of,
            mirror,
            reading: Reading::TwoWaves,
            geometry: std::marker::PhantomData,
        }
    }

    /// Groups: 1, 2 with a mirror image, up to [`MAX_GROUPS`] with several
    /// partitionings.
    pub(crate) fn groups(&self) -> usize {
        self.groups.len()
    }

    /// Tables in the largest group.
    pub(crate) fn tables_per_group(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.tables.len())
            .max()
            .unwrap_or(0)
    }

    /// The heuristic value of a board (tiles named by home cell, blank
    /// [`Geometry::BLANK`]).
    pub fn value(&self, cells: &[u8]) -> u32 {
        self.root::<MAX_TABLES, MAX_GROUPS>(cells)
            .h(self.groups.len())
    }

    /// Group `g`'s frame board of `node`.
    #[inline(always)]
    fn fboard<const T: usize, const N: usize>(&self, node: &Node<G, T, N>, g: usize) -> G::Board {
        // Up to two groups, group 1 is the mirror (or, if its frame is the
        // identity, the mirror board is the board): no lookup in the loop.
        let board = if N <= 2 {
            g == 0
        } else {
            self.frame_of[g] == 0
        };
        if board {
            node.board
        } else {
            node.fboard1
        }
    }

    /// The search node of a board.
    fn root<const T: usize, const N: usize>(&self, cells: &[u8]) -> Node<G, T, N> {
        self.root_with(cells, None)
    }

    /// The search node of a board, its table entries read, or taken from
    /// `nibs` (as [`Node::packed_nibs`] packed them) where given.
    fn root_with<const T: usize, const N: usize>(
        &self,
        cells: &[u8],
        nibs: Option<u128>,
    ) -> Node<G, T, N> {
        assert_eq!(cells.len(), G::CELLS);
        let gb = self.goal_blank;
        let mut node: Node<G, T, N> = Node {
            board: G::Board::default(),
            fboard1: G::Board::default(),
            mask: [[G::Mask::default(); T]; N],
            perm: [[0; T]; N],
            nib: [[0; T]; N],
            md: 0,
            blank: 0,
            g: 0,
            fsm: Fsm::START,
            path: G::Path::default(),
        };
        let mut md = 0;
        for (c, &t) in cells.iter().enumerate() {
            let t = if t == G::BLANK {
                node.blank = c as u8;
                gb
            } else {
                md += manhattan(G::SIDE, c, t as usize);
                t as usize
            };
            node.board = PackedBoard::with(node.board, c, t);
            let f = &self.mirror;
            node.fboard1 = PackedBoard::with(node.fboard1, f[c] as usize, f[t] as usize);
        }
        node.md = md as u8;
        for (g, group) in self.groups.iter().enumerate().take(N) {
            let fboard = self.fboard(&node, g);
            for (q, pdb) in group.tables.iter().enumerate() {
                let mut mask = 0u32;
                for c in 0..G::CELLS {
                    if pdb.spec().cells & (1 << fboard.tile_at(c)) != 0 {
                        mask |= 1 << c;
                    }
                }
                let ix = pdb.indexer();
                let local = &self.local[g][q];
                let perm = ix.rank_cells(mask, |c| local[fboard.tile_at(c)]);
                node.mask[g][q] = G::Mask::from_bits(mask);
                node.perm[g][q] = perm as u16;
                node.nib[g][q] = match nibs {
                    Some(packed) => ((packed >> (4 * (g * T + q))) & 15) as u8,
                    None => pdb.half_excess(ix.index(mask, perm)) as u8,
                };
            }
        }
        node
    }

    /// The move of tile `t` from `from` to `to` (the blank) seen by group `g`:
    /// the table that tracks `t`, its new occupied cells and permutation rank, and
    /// the entry to read.
    #[inline(always)]
    fn slide<const T: usize, const N: usize>(
        &self,
        node: &Node<G, T, N>,
        g: usize,
        t: usize,
        from: usize,
        to: usize,
    ) -> Slide<G::Mask> {
        let q = self.tile_table[g][t] as usize;
        let table = self.table[g][q];
        let (ff, ft) = (self.frame[g][from] as usize, self.frame[g][to] as usize);
        let old_mask = node.mask[g][q].bits();
        let mask = G::Mask::from_bits(old_mask ^ (1 << ff) ^ (1 << ft));
        let perm = node.perm[g][q] as usize;
        let perm = if ff.abs_diff(ft) == 1 {
            // Sideways in this frame: the order of the pattern tiles is unchanged.
            perm
        } else {
            // Up or down: the tile passes the pattern tiles on the (at most
            // side - 1) cells between, and the rank moves by their weights (see
            // `Indexer::weight`). The move leaves those cells as they were.
            let fboard = self.fboard(node, g);
            let local = &self.local[g][q];
            let a = local[self.frame[g][t] as usize] as usize;
            let low = ff.min(ft);
            let mut between = (old_mask >> (low + 1)) & ((1 << (G::SIDE - 1)) - 1);
            let (mut greater, mut smaller_weights) = (0, 0);
            while between != 0 {
                let c = low + 1 + between.trailing_zeros() as usize;
                between &= between - 1;
                let x = local[fboard.tile_at(c)] as usize;
                if x > a {
                    greater += 1;
                } else {
                    smaller_weights += table.ix.weight(x);
                }
            }
            let up = table.ix.weight(a) * greater;
            if ft > ff {
                perm + up - smaller_weights
            } else {
                perm + smaller_weights - up
            }
        };
        Slide {
            table: q as u8,
            mask,
            perm: perm as u16,
            index: table.ix.index_of(mask, perm) as u32,
        }
    }

    /// The board (`mirror` false) or its mirror image after tile `t` slides
    /// from `from` to `to`.
    #[inline(always)]
    fn moved(&self, mirror: bool, fboard: G::Board, t: usize, from: usize, to: usize) -> G::Board {
        let f = if mirror { &self.mirror } else { &self.frame[0] };
        let swap = (f[t] ^ f[self.goal_blank]) as usize;
        fboard.xor2(swap, f[from] as usize, f[to] as usize)
    }
}

/// One group's view of a move.
#[derive(Clone, Copy, Default)]
struct Slide<M: CellSet> {
    table: u8,
    mask: M,
    perm: u16,
    index: u32,
}

/// The most nodes a batch holds on any side (see [`Geometry::BATCH`]).
const MAX_BATCH: usize = 32;

/// A node on the search stack, for groups of up to `T` tables (64 bytes for
/// the 4x4 production `T = 2`, one cache line).
#[derive(Clone, Copy)]
struct Node<G: Geometry, const T: usize, const N: usize> {
    /// Tile (home cell) per cell; the blank's cell holds the goal's blank cell
    /// number, which no tile uses. This is also group 0's frame board (its
    /// frame is the identity).
    board: G::Board,
    /// The board as group 1's frame sees it.
    fboard1: G::Board,
    /// Per group and table: occupied cells and permutation rank of the pattern
    /// tiles in the group's frame, and the stored half-difference.
    mask: [[G::Mask; T]; N],
    perm: [[u16; T]; N],
    nib: [[u8; T]; N],
    /// Manhattan distance.
    md: u8,
    blank: u8,
    g: u8,
    fsm: u16,
    /// Blank directions so far, 2 bits a move.
    path: G::Path,
}

impl<G: Geometry, const T: usize, const N: usize> Node<G, T, N> {
    #[inline(always)]
    fn sum(&self, g: usize) -> u32 {
        self.nib[g].iter().map(|&n| n as u32).sum()
    }

    #[inline(always)]
    fn h(&self, groups: usize) -> u32 {
        let mut best = 0;
        for g in 0..groups {
            best = best.max(self.sum(g));
        }
        self.md as u32 + 2 * best
    }
}

/// A child awaiting its table reads; only survivors become [`Node`]s.
#[derive(Clone, Copy)]
struct Candidate<M: CellSet, const N: usize> {
    /// Index of the parent in the batch.
    parent: u8,
    /// Blank direction.
    dir: u8,
    /// The moved tile and its cell before the move.
    tile: u8,
    from: u8,
    md: u8,
    /// The group read first (the others after it, in order, while the
    /// child survives: [`nth_group`]).
    first: u8,
    /// Sort key: smaller is searched first.
    key: u16,
    fsm: u16,
    slide: [Slide<M>; N],
    nib: [u8; N],
    /// Per group: the child's estimate without the table the move changes.
    rest: [u16; N],
}

impl<M: CellSet, const N: usize> Candidate<M, N> {
    /// A candidate with nothing read.
    #[inline(always)]
    fn new(dir: u8, tile: u8, from: u8, md: u8, fsm: u16) -> Self {
        Candidate {
            parent: 0,
            dir,
            tile,
            from,
            md,
            first: 0,
            key: 0,
            fsm,
            slide: [Slide::default(); N],
            nib: [0; N],
            rest: [0; N],
        }
    }
}

/// How the depth-first search reads a child's groups: one after another,
/// the next only if the child survived the one before (`Lazy`, as
/// Clausecker and Reinefeld stop at the first table that prunes); the first
/// alone and then all the others at once (`TwoWaves`); or all at once
/// (`Full`). A child is cut if any group it reads puts it past the bound,
/// and a child that survives has had every group read, so all three cut the
/// same children; they differ in the reads spent on children that are cut,
/// and in the f-values that bidirectional pathmax and the next bound see
/// (the largest of a wave's). With two groups `Lazy` and `TwoWaves` are one.
/// With more, each wave waits for its reads, so `TwoWaves` waits twice a
/// batch where `Lazy` waits once a group; it was measured faster (see
/// docs/tables.md).
// `Lazy` and `Full` are the references the tests compare `TwoWaves` with.
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    Lazy,
    TwoWaves,
    Full,
}

impl Reading {
    /// The end (in reading order) of the wave of groups that starts at
    /// `start`, of `groups`.
    #[inline(always)]
    fn wave_end(self, start: usize, groups: usize) -> usize {
        let end = match self {
            Reading::Lazy => start + 1,
            Reading::TwoWaves if start == 0 => 1,
            Reading::TwoWaves | Reading::Full => groups,
        };
        end.min(groups)
    }
}

/// The group read in `phase` (counted from 0) of a child whose group `first`
/// is read first: then the others in order. With two groups, `first` and
/// then the other.
#[inline(always)]
fn nth_group(first: usize, phase: usize) -> usize {
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
enum Iteration<N> {
    /// A goal node within the bound.
    Found(N),
    /// No goal within the bound; the smallest f-value that exceeded it.
    Exhausted(u32),
    /// Stopped from outside before it ended.
    Stopped,
}

/// Shared with the threads of a search: a flag that stops it, and the nodes
/// expanded so far (added in steps, for progress reports).
struct Watch<'w> {
    /// Set from outside.
    stop: &'w AtomicBool,
    /// Set by the search itself, at the deadline.
    halt: &'w AtomicBool,
    nodes: &'w AtomicU64,
    /// The search stops once `nodes` reaches this.
    max_nodes: u64,
}

impl Watch<'_> {
    /// Whether the search must stop: from outside, at the deadline, or out of
    /// nodes.
    fn halted(&self) -> bool {
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
struct Worker<G: Geometry, const T: usize, const N: usize> {
    stack: Vec<Node<G, T, N>>,
    kids: Vec<Node<G, T, N>>,
    cands: Vec<Candidate<G::Mask, N>>,
    order: Vec<u32>,
    /// The smallest estimate among the nodes the last [`Worker::iterate`]
    /// expanded: how near its tree came to the goal. [`parallel`] orders the
    /// next iteration's subtrees by it.
    nearest: u32,
    /// What cut children, since [`parallel`] last took the count.
    prunes: Prunes,
}

impl<G: Geometry, const T: usize, const N: usize> Worker<G, T, N> {
    fn new() -> Self {
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
    /// open boards of A*, see [`hybrid`]) it searches their subtrees on one
    /// stack, the first root's popped first, so that the batches stay full;
    /// `backs[r]` is a blank direction root `r`'s children leave out (the move
    /// back to where its g came from), if `backs` is not empty.
    fn iterate(
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
/// waves ([`Reading`]): each wave's reads for the whole batch back to back,
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
struct Context<'s, 'h, G: Geometry> {
    heur: &'s Heuristic<'h, G>,
    fsm: &'static Fsm,
    bound: u32,
    watch: &'s Watch<'s>,
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
fn sibling_key(estimates: impl Iterator<Item = u32>) -> (u16, u32) {
    let (mut best, mut total) = (0, 0);
    for h in estimates {
        best = best.max(h);
        total += h;
    }
    ((best.min(255) * 256 + total.min(255)) as u16, best)
}

impl<M: CellSet, const N: usize> Candidate<M, N> {
    /// Group `g`'s heuristic value of this child (its read done).
    #[inline(always)]
    fn h(&self, g: usize) -> u32 {
        self.rest[g] as u32 + 2 * self.nib[g] as u32
    }
}

/// The child generator of every search over the tables (IDA*, its frontier,
/// the beam): calls `each` with a [`Candidate`] for every move of the blank
/// that the board and the move-pruning machine allow, in direction order,
/// with the moved tile, the Manhattan distance and, per group, the estimate
/// without the table the move changes (`rest`). Nothing is read from a table
/// and no [`Slide`] made: the caller decides which groups to read, and when.
/// `each` answers whether to go on.
#[inline(always)]
fn children<G: Geometry, const T: usize, const N: usize>(
    heur: &Heuristic<'_, G>,
    fsm: &Fsm,
    node: &Node<G, T, N>,
    mut each: impl FnMut(Candidate<G::Mask, N>) -> bool,
) {
    let blank = node.blank as usize;
    let cells = G::cells();
    let groups = heur.groups.len().min(N);
    let mut sums = [0; N];
    for (g, sum) in sums.iter_mut().enumerate().take(groups) {
        *sum = node.sum(g);
    }
    for (d, &nb) in cells.neighbour[blank].iter().enumerate() {
        if nb == NO_CELL {
            continue;
        }
        let state = fsm.next(node.fsm, d);
        if state == Fsm::DEAD {
            continue;
        }
        let nb = nb as usize;
        let t = node.board.tile_at(nb);
        let md = node.md + cells.manhattan[blank][t] - cells.manhattan[nb][t];
        let mut c = Candidate::new(d as u8, t as u8, nb as u8, md, state);
        // A table entry is at least 0, so without any read each group's estimate
        // is at least the Manhattan distance plus the other tables' part.
        for (g, &sum) in sums.iter().enumerate().take(groups) {
            let q = heur.tile_table[g][t] as usize;
            c.rest[g] = (u32::from(md) + 2 * (sum - u32::from(node.nib[g][q]))) as u16;
        }
        if !each(c) {
            return;
        }
    }
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

/// The child node of `parent` for candidate `c`, whose first `groups` groups
/// have been read.
#[inline(always)]
fn child<G: Geometry, const T: usize, const N: usize>(
    heur: &Heuristic<'_, G>,
    parent: &Node<G, T, N>,
    c: &Candidate<G::Mask, N>,
    groups: usize,
) -> Node<G, T, N> {
    let mut n = *parent;
    make_child(heur, &mut n, c, groups);
    n
}

/// Turns `n`, a copy of the parent, into its child for candidate `c` (see
/// [`child`]). In place, so that a child pushed onto a vector is copied once.
#[inline(always)]
fn make_child<G: Geometry, const T: usize, const N: usize>(
    heur: &Heuristic<'_, G>,
    n: &mut Node<G, T, N>,
    c: &Candidate<G::Mask, N>,
    groups: usize,
) {
    let (t, from, to) = (c.tile as usize, c.from as usize, n.blank as usize);
    n.board = heur.moved(false, n.board, t, from, to);
    if heur.groups.len() > 1 {
        n.fboard1 = heur.moved(true, n.fboard1, t, from, to);
    }
    for g in 0..groups {
        let s = c.slide[g];
        let q = s.table as usize;
        n.mask[g][q] = s.mask;
        n.perm[g][q] = s.perm;
        n.nib[g][q] = c.nib[g];
    }
    n.md = c.md;
    n.blank = from as u8;
    n.fsm = c.fsm;
    let g = n.g as usize;
    n.path.as_mut()[g / 8] |= (c.dir as u16) << (2 * (g % 8));
    n.g += 1;
}

impl<G: Geometry, const T: usize, const N: usize> Node<G, T, N> {
    /// The moves along this node's path.
    fn moves(&self) -> MoveList {
        // The blank steps in direction `d` of `DIRS` when the tile on that
        // side slides the other way.
        const MOVE: [Move; 4] = [Move::Down, Move::Up, Move::Right, Move::Left];
        let path = self.path.as_ref();
        (0..self.g as usize)
            .map(|i| MOVE[((path[i / 8] >> (2 * (i % 8))) & 3) as usize])
            .collect()
    }

    /// The children the board and the move-pruning machine allow, in
    /// direction order, with every group read; `each` answers whether to go
    /// on.
    fn children_read(&self, heur: &Heuristic<'_, G>, mut each: impl FnMut(Node<G, T, N>) -> bool) {
        let groups = heur.groups.len();
        let blank = self.blank as usize;
        children(heur, Fsm::get(), self, |mut c| {
            for g in 0..groups {
                let s = heur.slide(self, g, c.tile as usize, c.from as usize, blank);
                let table = heur.table[g][s.table as usize];
                c.slide[g] = s;
                c.nib[g] = table.half_excess(s.index);
            }
            each(child(heur, self, &c, groups))
        });
    }
}
