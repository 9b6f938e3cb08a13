//! The heuristic over the pattern tables, for one canonical goal:
//! `manhattan + 2 * max over groups (sum of the stored half-differences)`,
//! each group a set of disjoint tables (Korf & Felner 2002) covering every
//! tile, looked up on the board itself or on its mirror image by a symmetry
//! that fixes the goal ([`Group`]). It makes the searches' nodes
//! ([`Heuristic::root`]) and their children ([`children`], [`make_child`]):
//! a move changes one tile of one table per group, so each child's indices
//! are updated from its parent's ([`Heuristic::slide`]: a sideways move only
//! changes the occupied-cell set, an up/down move also shifts the
//! permutation rank by a few weights, [`Indexer::weight`]), with no
//! allocation and no large auxiliary table. Which groups a child reads, and
//! when, is the caller's ([`Reading`]).

use super::fsm::Fsm;
use super::geometry::{Geometry, PackedBoard, MAX_CELLS, NO_CELL};
use super::node::{Candidate, Node, Slide};
use crate::solve::grid::manhattan;
use crate::solve::pattern::tables::{CellSet, Indexer, Pdb};

/// Groups: the board itself and one mirror image for each partitioning of
/// the tiles: 2 with the standard tables, 6 with the large set (three
/// partitionings, [`partition`](crate::solve::pattern::partition)).
pub(super) const MAX_GROUPS: usize = 6;
/// Tables per group: 2 (4x4, 7-8) or 4 (5x5, 6-6-6-6) in production, up to 6
/// for the small test partitions.
pub(super) const MAX_TABLES: usize = 6;
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
pub(super) struct TableRef<'a> {
    ix: &'a Indexer,
    data: &'a [u8],
}

impl TableRef<'_> {
    #[inline(always)]
    pub(super) fn half_excess(&self, index: u32) -> u8 {
        let i = index as usize;
        (self.data[i >> 1] >> ((i & 1) << 2)) & 15
    }
}

/// The heuristic for one canonical goal: the blank's goal cell and the groups.
pub struct Heuristic<'a, G: Geometry> {
    pub(super) goal_blank: usize,
    pub(super) groups: Vec<Group<'a>>,
    /// `table[g][q]`: table `q` of group `g`; where group `g` has no table
    /// `q`, its first (never read: no tile names it), so that the inner loop
    /// takes a table without asking whether it exists.
    pub(super) table: [[TableRef<'a>; MAX_TABLES]; MAX_GROUPS],
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
    pub(super) fn fboard<const T: usize, const N: usize>(
        &self,
        node: &Node<G, T, N>,
        g: usize,
    ) -> G::Board {
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
    pub(super) fn root<const T: usize, const N: usize>(&self, cells: &[u8]) -> Node<G, T, N> {
        self.root_with(cells, None)
    }

    /// The search node of a board, its table entries read, or taken from
    /// `nibs` (as [`Node::packed_nibs`] packed them) where given.
    pub(super) fn root_with<const T: usize, const N: usize>(
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
    pub(super) fn slide<const T: usize, const N: usize>(
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
    pub(super) fn moved(
        &self,
        mirror: bool,
        fboard: G::Board,
        t: usize,
        from: usize,
        to: usize,
    ) -> G::Board {
        let f = if mirror { &self.mirror } else { &self.frame[0] };
        let swap = (f[t] ^ f[self.goal_blank]) as usize;
        fboard.xor2(swap, f[from] as usize, f[to] as usize)
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
    pub(super) fn wave_end(self, start: usize, groups: usize) -> usize {
        let end = match self {
            Reading::Lazy => start + 1,
            Reading::TwoWaves if start == 0 => 1,
            Reading::TwoWaves | Reading::Full => groups,
        };
        end.min(groups)
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
pub(super) fn children<G: Geometry, const T: usize, const N: usize>(
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

/// The child node of `parent` for candidate `c`, whose first `groups` groups
/// have been read.
#[inline(always)]
pub(super) fn child<G: Geometry, const T: usize, const N: usize>(
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
pub(super) fn make_child<G: Geometry, const T: usize, const N: usize>(
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
    /// The children the board and the move-pruning machine allow, in
    /// direction order, with every group read; `each` answers whether to go
    /// on.
    pub(super) fn children_read(
        &self,
        heur: &Heuristic<'_, G>,
        mut each: impl FnMut(Node<G, T, N>) -> bool,
    ) {
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

#[cfg(test)]
mod tests {
    use super::super::geometry::Five;
    use super::*;
    use crate::generate::{random_walk, SplitMix64};
    use crate::solve::pattern::goal_tables::testing::small;
    use crate::solve::pattern::{canonical, TableSet, Tables, TWENTY_FOUR};

    #[test]
    fn the_second_lookup_is_admissible_and_can_only_raise_the_estimate() {
        let mut rng = SplitMix64::new(5);
        for &rep in TWENTY_FOUR.classes {
            let tables = small(&TWENTY_FOUR, rep);
            let both: Heuristic<'_, Five> = tables.heuristic();
            let groups = TWENTY_FOUR.groups(TableSet::Small, rep);
            // The first group alone, on the same tables.
            let alone = Tables::from_groups(
                &TWENTY_FOUR,
                TableSet::Small,
                None,
                rep,
                groups[..1].to_vec(),
                &mut |_| {},
            )
            .unwrap();
            let first: Heuristic<'_, Five> = alone.heuristic();
            let mut goal: Vec<u8> = (0..Five::CELLS as u8).collect();
            goal.swap(0, rep);
            let mut raised = 0;
            for _ in 0..40 {
                let start = random_walk(&mut rng, Five::SIDE, &goal, 30);
                let canon = canonical::normalise(Five::SIDE, &start, &goal, rep, Five::BLANK);
                let (h1, h2) = (first.value(&canon.cells), both.value(&canon.cells));
                assert!(h2 >= h1, "class {rep}");
                raised += usize::from(h2 > h1);
            }
            assert!(raised > 0, "class {rep}: the mirror lookup adds something");
        }
    }
}
