//! The partitions of the board into pattern databases: what sets the 4x4
//! solver apart from the 5x5 one, as data ([`FIFTEEN`], [`TWENTY_FOUR`]).
//!
//! A partition cuts the board's cells into parts; for a goal whose blank is on
//! `g` (in the canonical frame), each part without `g` is the home of the
//! tiles of one table. Each goal class gets two *groups* of tables: one looked
//! up on the board itself, one on a mirror image of it that fixes the goal
//! ([`Partition::groups`]); the heuristic is the larger of the two sums.
//!
//! **4x4**: Korf and Felner's 7-8 partition (2002, "Disjoint pattern database
//! heuristics"): rows 0-1, rows 2-3. The 8-tile table of rows 2-3 (its free
//! cells, rows 0-1, are connected) serves every goal (259 MB); each class adds
//! a 7-tile table of rows 0-1 without its goal cell (29 MB). The mirror is the
//! transpose. It fixes corner and centre goals, so the same two tables serve
//! again; an edge goal (cell 1) lies on no axis, and its transpose (cell 4)
//! adds one more 7-tile table.
//!
//! | goal class | tables                                          | memory |
//! |------------|-------------------------------------------------|--------|
//! | corner     | 8-tile rows 2-3, 7-tile rows 0-1 \ {0}          | 288 MB |
//! | edge       | 8-tile, 7-tile rows 0-1 \ {1}, 7-tile \ {4}      | 317 MB |
//! | centre     | 8-tile, 7-tile rows 0-1 \ {5}                   | 288 MB |
//!
//! All five files take 375 MB. The second lookup raises the mean start
//! estimate on Korf's 100 instances from 44.79 to 45.59 (Manhattan: 37.05;
//! optimum: 53.05).
//!
//! **5x5**: Korf and Felner's 6-6-6-6 partition, the blank's corner added to
//! the first part:
//!
//! ```text
//! A A A B B
//! A A A B B
//! C C A B B
//! C C D D D
//! C C D D D
//! ```
//!
//! Every class representative (cells 0, 1, 2, 6, 7 and 12) lies in part A, so
//! for a goal blank `g` the tables are A without `g`, B, C and D: four tables
//! of 6 tiles, 64 MB each (`C(25, 6) * 6!` = 127.5 M entries at 4 bits). B, C
//! and D leave the free cells connected, so they serve every goal, and each
//! class adds its own A table. The mirror is the transpose for goals on the
//! diagonal (classes 0, 6 and 12), the left-right mirror for goals on the
//! middle column (classes 2 and 7). No symmetry but the identity fixes cell 1;
//! its mirror lookup is the transpose, which puts the goal's blank on cell 5,
//! so class 1 loads one more table, A without cell 5.
//!
//! | goal class | tables | memory |
//! |---|---|---|
//! | 0, 2, 6, 7, 12 | A \ {g}, B, C, D | 255 MB |
//! | 1 | A \ {1}, A \ {5}, B, C, D | 319 MB |
//!
//! All ten files take 638 MB.
//!
//! **5x5, the large set** ([`TableSet::Large`], `--large-tables`): for
//! corner goals, two more 6-6-6-6 partitionings of the tiles
//! ([`LARGE_TWENTY_FOUR`]), each again on the board and on its transpose:
//! six groups, eight tables (510 MB), the heuristic the largest of six sums.

use super::tables::PatternSpec;
use crate::board_adt::symmetry::{class_of, Symmetry};

/// Which partition the tables use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSet {
    /// The production partitions: 7-8 on 4x4, 6-6-6-6 on 5x5.
    Standard,
    /// The production tables and, for 5x5 goals with the blank in a corner,
    /// two more 6-6-6-6 partitionings of the tiles, each also looked up on
    /// the board's mirror image: 8 tables of 64 MB (510 MB) where the
    /// standard set has 4, and about half the search nodes. Other goals and
    /// sides get the standard tables.
    Large,
    /// A small partition with the same lookups that builds in about a second
    /// and searches far slower (for tests): the cells other than the goal
    /// blank's, in row-major order, cut into tables of 6 tiles on 4x4 (6, 6,
    /// 3) and of 4 tiles on 5x5.
    Small,
    /// The small tables cut three ways (the cells in row-major order, in
    /// rows alternately reversed and by diagonals), each on the board and on its
    /// mirror image, for every goal class: what [`TableSet::Large`] is to
    /// [`TableSet::Standard`], for tests.
    SmallLarge,
}

impl TableSet {
    /// Whether these are the small test tables.
    pub(crate) fn is_small(self) -> bool {
        matches!(self, TableSet::Small | TableSet::SmallLarge)
    }
}

/// How the pattern databases of one side cut the board (see the module docs).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Partition {
    /// The board's side.
    pub(crate) side: usize,
    /// The parts, as masks of cells. The first holds every class
    /// representative and its image in the second lookup.
    parts: &'static [u32],
    /// The class representatives of the goal's blank cell, smallest first.
    pub(crate) classes: &'static [usize],
    /// Tiles a table of the small test partition holds.
    small_tiles: usize,
    /// What a user calls each part, for table names.
    part_names: &'static [&'static str],
    /// What a user calls each class, in the order of `classes`.
    class_names: &'static [&'static str],
    /// The partitionings of [`TableSet::Large`] beyond `parts`, for goals
    /// whose blank is on cell 0 (the transpose fixes it, so each is looked
    /// up on the board and on its transpose with the same tables): masks of
    /// the tiles' home cells, cell 0 left out.
    large: &'static [[u32; 4]],
}

/// The 4x4 partition: rows 0-1 and rows 2-3.
pub(crate) const FIFTEEN: Partition = Partition {
    side: 4,
    parts: &[0x00ff, 0xff00],
    classes: &[0, 1, 5],
    small_tiles: 6,
    part_names: &["rows 1-2", "rows 3-4"],
    class_names: &["in a corner", "on an edge cell", "on a centre cell"],
    large: &[],
};

/// The 5x5 partition: parts A, B, C and D of the module docs.
pub(crate) const TWENTY_FOUR: Partition = Partition {
    side: 5,
    parts: &[
        mask(&[0, 1, 2, 5, 6, 7, 12]),
        mask(&[3, 4, 8, 9, 13, 14]),
        mask(&[10, 11, 15, 16, 20, 21]),
        mask(&[17, 18, 19, 22, 23, 24]),
    ],
    classes: &[0, 1, 2, 6, 7, 12],
    small_tiles: 4,
    part_names: &["top-left", "top-right", "bottom-left", "bottom-right"],
    class_names: &[
        "in a corner",
        "on an edge cell next to a corner",
        "in the middle of an edge",
        "on an inner corner",
        "in the middle of an inner edge",
        "in the centre",
    ],
    large: LARGE_TWENTY_FOUR,
};

/// The two partitionings that [`TableSet::Large`] adds for 5x5 corner goals,
/// from Clausecker and Reinefeld's "small-t" catalogue (SoCS 2019,
/// clausecker/24puzzle, `catalogues/small-t.cat`, their 1 and 4 transposed;
/// their file lists each with its transpose, here the transpose is the
/// mirror lookup): the 24 tiles cut into compact blocks of six placed
/// otherwise than Korf and Felner's. With the first partitioning's four
/// tables they need four more (510 MB in all):
///
/// ```text
///   . A A D D    . A A A A
///   A A A D D    A A C C C
///   A C C D D    B B C C C
///   C C B B B    B B D D D
///   C C B B B    B B D D D
/// ```
///
/// The catalogue's other four (2, 3, 5 and 6) were measured too: all six
/// with Korf and Felner's took the nodes of #25's bound-79 iteration from
/// 23.1 M to 8.7 M, these two to 10.1 M, but every group costs each node a
/// read and an index, and the two were the fastest (docs/tables.md).
const LARGE_TWENTY_FOUR: &[[u32; 4]] = &[
    [
        mask(&[1, 2, 5, 6, 7, 10]),
        mask(&[17, 18, 19, 22, 23, 24]),
        mask(&[11, 12, 15, 16, 20, 21]),
        mask(&[3, 4, 8, 9, 13, 14]),
    ],
    [
        mask(&[1, 2, 3, 4, 5, 6]),
        mask(&[10, 11, 15, 16, 20, 21]),
        mask(&[7, 8, 9, 12, 13, 14]),
        mask(&[17, 18, 19, 22, 23, 24]),
    ],
];

/// The mask of `cells`.
const fn mask(cells: &[usize]) -> u32 {
    let mut m = 0;
    let mut i = 0;
    while i < cells.len() {
        m |= 1 << cells[i];
        i += 1;
    }
    m
}

impl Partition {
    /// The index of the class of `goal_blank` in [`Partition::classes`].
    pub(crate) fn class(&self, goal_blank: usize) -> usize {
        let rep = class_of(self.side, goal_blank);
        self.classes
            .iter()
            .position(|&c| c == rep)
            .expect("every cell has a class")
    }

    /// What a user calls the goals whose blank is on `goal_blank`: "5x5
    /// goals with the blank in a corner".
    pub(crate) fn goals_named(&self, goal_blank: usize) -> String {
        format!(
            "{side}x{side} goals with the blank {}",
            self.class_names[self.class(goal_blank)],
            side = self.side
        )
    }

    /// A name a user can read for a table of this partition: its side, the
    /// part its tiles come from (rows and columns counted from 1 on the goal
    /// turned so that its blank is in the top-left part), the cell left out
    /// for the goal's blank, and its tiles: "5x5 top-left table without row 1,
    /// column 1 (6 tiles)". Tables of the small test partition get their
    /// technical name.
    pub(crate) fn table_name(&self, spec: &PatternSpec) -> String {
        let side = self.side;
        let tiles = spec.tiles();
        let part = self.parts.iter().position(|&p| spec.cells & !p == 0);
        let Some(part) = part.filter(|&p| (self.parts[p] & !spec.cells).count_ones() <= 1) else {
            if self.large.iter().flatten().any(|&m| m == spec.cells) {
                let tiles: Vec<String> = spec.home_cells().iter().map(|c| c.to_string()).collect();
                return format!("{side}x{side} table of tiles {}", tiles.join(" "));
            }
            return format!("{side}x{side} table {}", spec.name());
        };
        let name = self.part_names[part];
        match self.parts[part] & !spec.cells {
            0 => format!("{side}x{side} {name} table ({tiles} tiles)"),
            left => {
                let cell = left.trailing_zeros() as usize;
                format!(
                    "{side}x{side} {name} table without row {}, column {} ({tiles} tiles)",
                    cell / side + 1,
                    cell % side + 1
                )
            }
        }
    }

    /// The pattern cells of each table for goals with the blank on `g`.
    fn masks(&self, set: TableSet, g: usize) -> Vec<u32> {
        match set {
            TableSet::Standard | TableSet::Large => {
                assert!(
                    self.parts[0] & (1 << g) != 0,
                    "goal blank in the first part"
                );
                let mut out = self.parts.to_vec();
                out[0] &= !(1 << g);
                out
            }
            TableSet::Small | TableSet::SmallLarge => self.small_masks(g, 0),
        }
    }

    /// The small test tables for goals with the blank on `g`: the other
    /// cells in chunks of `small_tiles`, taken in row-major order (`way`
    /// 0), row by row alternately left to right and right to left (1), or
    /// by diagonals (2). (Column-major order would be row-major order seen
    /// through the transpose, the mirror of most classes.)
    fn small_masks(&self, g: usize, way: usize) -> Vec<u32> {
        let side = self.side;
        let mut cells: Vec<usize> = (0..side * side).filter(|&c| c != g).collect();
        match way {
            0 => {}
            1 => cells.sort_by_key(|&c| {
                let (r, col) = (c / side, c % side);
                (r, if r % 2 == 1 { side - 1 - col } else { col })
            }),
            _ => cells.sort_by_key(|&c| (c % side + c / side, c / side)),
        }
        cells
            .chunks(self.small_tiles)
            .map(|part| part.iter().fold(0, |m, &c| m | 1 << c))
            .collect()
    }

    /// The frame of the second lookup for goals with the blank on `rep`: the
    /// transpose if it leaves the blank in the first part, else the left-right
    /// mirror (which fixes the middle column).
    fn second_frame(&self, rep: usize) -> Symmetry {
        let transposed = Symmetry::TRANSPOSE.cell(self.side, rep);
        if self.parts[0] & (1 << transposed) != 0 {
            Symmetry::TRANSPOSE
        } else {
            assert_eq!(
                Symmetry::FLIP_COLS.cell(self.side, rep),
                rep,
                "the mirror fixes the middle column"
            );
            Symmetry::FLIP_COLS
        }
    }

    /// The groups of goal class `rep`: each a frame (the board itself, then
    /// its mirror) and the tables looked up in it.
    ///
    /// With [`TableSet::Large`] (goals with the blank on cell 0 of a
    /// partition with more partitionings) and [`TableSet::SmallLarge`], the
    /// groups of the other partitionings follow, each again on the board and
    /// on its mirror image.
    pub(crate) fn groups(&self, set: TableSet, rep: usize) -> Vec<(Symmetry, Vec<PatternSpec>)> {
        let frames = [Symmetry::IDENTITY, self.second_frame(rep)];
        let group = |frame: Symmetry, masks: &dyn Fn(usize) -> Vec<u32>| {
            let g = frame.cell(self.side, rep);
            let specs = masks(g)
                .into_iter()
                .map(|m| PatternSpec::new(self.side, m, g))
                .collect();
            (frame, specs)
        };
        let mut out: Vec<(Symmetry, Vec<PatternSpec>)> = frames
            .into_iter()
            .map(|frame| group(frame, &|g| self.masks(set, g)))
            .collect();
        match set {
            TableSet::Large if rep == 0 => {
                for parts in self.large {
                    for frame in frames {
                        out.push(group(frame, &|_| parts.to_vec()));
                    }
                }
            }
            TableSet::SmallLarge => {
                for way in 1..3 {
                    for frame in frames {
                        out.push(group(frame, &|g| self.small_masks(g, way)));
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// Every table of `set` for every class, in the order of the classes.
    pub(crate) fn all_specs(&self, set: TableSet) -> Vec<PatternSpec> {
        self.classes
            .iter()
            .flat_map(|&rep| self.groups(set, rep))
            .flat_map(|(_, specs)| specs)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classes_are_those_of_the_symmetries() {
        for partition in [&FIFTEEN, &TWENTY_FOUR] {
            let cells = partition.side * partition.side;
            let mut reps: Vec<usize> = (0..cells).map(|c| class_of(partition.side, c)).collect();
            reps.sort_unstable();
            reps.dedup();
            assert_eq!(reps, partition.classes);
            let all = partition.parts.iter().fold(0, |m, p| m | p);
            assert_eq!(all, (1 << cells) - 1, "the parts cover the board");
        }
    }

    /// The 4x4 groups as `solve::fifteen` wrote them before the partition was
    /// data: rows 0-1 without the goal's blank and rows 2-3 (small: the other
    /// cells in tables of 6, 6 and 3), on the board and on its transpose.
    fn old_fifteen_groups(set: TableSet, rep: usize) -> Vec<(Vec<u8>, Vec<PatternSpec>)> {
        let masks = |g: usize| match set {
            TableSet::Standard | TableSet::Large => vec![0x00ff & !(1u32 << g), 0xff00],
            TableSet::Small | TableSet::SmallLarge => {
                let cells: Vec<usize> = (0..16).filter(|&c| c != g).collect();
                let mask = |r: &[usize]| r.iter().fold(0u32, |m, &c| m | 1 << c);
                vec![mask(&cells[..6]), mask(&cells[6..12]), mask(&cells[12..])]
            }
        };
        [Symmetry::IDENTITY.cells(4), Symmetry::TRANSPOSE.cells(4)]
            .into_iter()
            .map(|frame| {
                let g = frame[rep] as usize;
                let specs = masks(g)
                    .into_iter()
                    .map(|m| PatternSpec::new(4, m, g))
                    .collect();
                (frame, specs)
            })
            .collect()
    }

    #[test]
    fn the_fifteen_partition_is_the_one_it_was() {
        for set in [TableSet::Standard, TableSet::Small] {
            for &rep in FIFTEEN.classes {
                let new: Vec<(Vec<u8>, Vec<PatternSpec>)> = FIFTEEN
                    .groups(set, rep)
                    .into_iter()
                    .map(|(frame, specs)| (frame.cells(4), specs))
                    .collect();
                assert_eq!(new, old_fifteen_groups(set, rep), "class {rep}");
            }
        }
    }

    #[test]
    fn production_partitions_cover_every_class() {
        for (partition, tiles) in [(&FIFTEEN, [7, 8].as_slice()), (&TWENTY_FOUR, &[6])] {
            let cells = partition.side * partition.side;
            for &rep in partition.classes {
                for (frame, specs) in partition.groups(TableSet::Standard, rep) {
                    assert!(specs.iter().all(|s| tiles.contains(&s.tiles())));
                    let g = frame.cell(partition.side, rep);
                    let covered = specs.iter().fold(0, |m, s| m | s.cells);
                    assert_eq!(covered, ((1 << cells) - 1) & !(1 << g));
                }
            }
        }
        // 5x5: ten distinct tables, B, C, D and A without each of 0, 1, 2, 5,
        // 6, 7, 12; 4x4: five, the 8-tile table and rows 0-1 without 0, 1, 4, 5.
        for (partition, distinct) in [(&TWENTY_FOUR, 10), (&FIFTEEN, 5)] {
            let mut all = partition.all_specs(TableSet::Standard);
            all.sort_by_key(|s| (s.cells, s.goal_region));
            all.dedup();
            assert_eq!(all.len(), distinct);
        }
        // The large set: four more 5x5 tables (two partitionings, no table
        // shared with the standard one); 4x4 has none more.
        for (partition, distinct) in [(&TWENTY_FOUR, 14), (&FIFTEEN, 5)] {
            let mut all = partition.all_specs(TableSet::Large);
            all.sort_by_key(|s| (s.cells, s.goal_region));
            all.dedup();
            assert_eq!(all.len(), distinct);
        }
        let twentyfour = TWENTY_FOUR.groups(TableSet::Standard, 0);
        assert!(twentyfour.iter().all(|(_, specs)| specs.len() == 4));
    }

    #[test]
    fn the_large_set_adds_two_partitionings_for_corner_goals_only() {
        let groups = TWENTY_FOUR.groups(TableSet::Large, 0);
        assert_eq!(groups.len(), 6);
        assert_eq!(groups[..2], TWENTY_FOUR.groups(TableSet::Standard, 0)[..]);
        let all = (1u32 << 25) - 1;
        for (i, (frame, specs)) in groups.iter().enumerate() {
            let want = if i % 2 == 0 {
                Symmetry::IDENTITY
            } else {
                Symmetry::TRANSPOSE
            };
            assert_eq!(*frame, want, "group {i}");
            assert!(specs
                .iter()
                .all(|s| s.tiles() == 6 && s.goal_region & 1 != 0));
            let covered = specs.iter().fold(0, |m, s| m | s.cells);
            assert_eq!(covered, all & !1, "group {i} covers every tile once");
            assert_eq!(specs.iter().map(|s| s.tiles()).sum::<usize>(), 24);
        }
        // Eight tables: four shared with the standard set, four more.
        let mut specs: Vec<PatternSpec> = groups.into_iter().flat_map(|(_, s)| s).collect();
        specs.sort_by_key(|s| (s.cells, s.goal_region));
        specs.dedup();
        assert_eq!(specs.len(), 8);
        let mut names: Vec<String> = specs.iter().map(|s| TWENTY_FOUR.table_name(s)).collect();
        assert!(names.iter().all(|n| !n.contains('.')), "{names:?}");
        assert!(names.contains(&"5x5 table of tiles 1 2 3 4 5 6".to_string()));
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 8);
        // Other classes and the 4x4 partition keep their standard tables.
        for &rep in &TWENTY_FOUR.classes[1..] {
            let standard = TWENTY_FOUR.groups(TableSet::Standard, rep);
            assert_eq!(TWENTY_FOUR.groups(TableSet::Large, rep), standard);
        }
        for &rep in FIFTEEN.classes {
            let standard = FIFTEEN.groups(TableSet::Standard, rep);
            assert_eq!(FIFTEEN.groups(TableSet::Large, rep), standard);
        }
    }

    #[test]
    fn the_small_large_set_cuts_the_cells_three_ways_in_every_class() {
        for partition in [&FIFTEEN, &TWENTY_FOUR] {
            let cells = partition.side * partition.side;
            for &rep in partition.classes {
                let groups = partition.groups(TableSet::SmallLarge, rep);
                assert_eq!(groups.len(), 6);
                assert_eq!(groups[..2], partition.groups(TableSet::Small, rep)[..]);
                let mut cuts = Vec::new();
                for (frame, specs) in &groups {
                    let g = frame.cell(partition.side, rep);
                    let covered = specs.iter().fold(0, |m, s| m | s.cells);
                    assert_eq!(covered, ((1 << cells) - 1) & !(1 << g));
                    let mut cut: Vec<u32> = specs.iter().map(|s| s.cells).collect();
                    cut.sort_unstable();
                    cuts.push((frame.cells(partition.side), cut));
                }
                // No two groups look up the same tables in the same frame.
                let n = cuts.len();
                cuts.sort();
                cuts.dedup();
                assert_eq!(cuts.len(), n, "side {} class {rep}", partition.side);
            }
        }
    }

    #[test]
    fn every_production_table_has_its_own_readable_name() {
        for partition in [&FIFTEEN, &TWENTY_FOUR] {
            let mut specs = partition.all_specs(TableSet::Large);
            specs.sort_by_key(|s| (s.cells, s.goal_region));
            specs.dedup();
            let mut names: Vec<String> = specs.iter().map(|s| partition.table_name(s)).collect();
            assert!(names.iter().all(|n| !n.contains('.')), "{names:?}");
            names.sort();
            names.dedup();
            assert_eq!(names.len(), specs.len(), "{names:?}");
        }
        let a = PatternSpec::new(5, TWENTY_FOUR.parts[0] & !1, 0);
        assert_eq!(
            TWENTY_FOUR.table_name(&a),
            "5x5 top-left table without row 1, column 1 (6 tiles)"
        );
        let rows = PatternSpec::new(4, 0xff00, 0);
        assert_eq!(FIFTEEN.table_name(&rows), "4x4 rows 3-4 table (8 tiles)");
        assert_eq!(
            TWENTY_FOUR.goals_named(24),
            "5x5 goals with the blank in a corner"
        );
        assert_eq!(
            FIFTEEN.goals_named(6),
            "4x4 goals with the blank on a centre cell"
        );
    }

    #[test]
    fn the_second_lookup_fixes_the_goal() {
        for partition in [&FIFTEEN, &TWENTY_FOUR] {
            for &rep in partition.classes {
                let frame = partition.second_frame(rep);
                let image = frame.cell(partition.side, rep);
                assert!(partition.parts[0] & (1 << image) != 0);
                // Only cell 1 of each side is moved (to cell 4, or 5 on 5x5).
                assert_eq!(image == rep, rep != 1, "class {rep}");
            }
        }
        assert_eq!(TWENTY_FOUR.second_frame(2), Symmetry::FLIP_COLS);
        assert_eq!(TWENTY_FOUR.second_frame(7), Symmetry::FLIP_COLS);
        assert_eq!(TWENTY_FOUR.second_frame(6), Symmetry::TRANSPOSE);
    }
}
