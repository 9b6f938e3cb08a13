//! The choice of method: which one a board gets ([`Method`]), from its side
//! and the options, and everything that follows from that choice: the
//! tables each method reads, whether its answer is proven shortest, what
//! takes over when it is stopped empty-handed, and how hard the reduction,
//! the whole-board beam and the polish work.
//!
//! This room stands above the methods (it names their efforts: the
//! reduction's weights, the partitions, the polish's window sizes) and below
//! the dispatcher (`Solver::solve`); what the methods themselves stand on
//! (`Outcome`, `Limits`, `Counters`, `SearchProgress`) is one floor down, in
//! `outcome.rs`.

use super::constructive::Weights;
use super::finished::Reduction;
use super::pattern::{Partition, FIFTEEN, TWENTY_FOUR};
use super::polish::{Plan, Size};

/// The ways to solve. Which one a board gets, which tables it reads, what
/// its answer proves and what takes over when it is stopped empty-handed are
/// all decided here, from the board's side and the options, and nowhere
/// else; `Solver::solve` enters the method chosen once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    /// 2x2 and 3x3: complete distance tables (`small.rs`).
    Tables,
    /// 4x4: IDA* over the 4x4 pattern databases, on one thread, in
    /// milliseconds (`pattern/`).
    Patterns,
    /// 5x5 with `--shortest`: the anytime IDA* over the 5x5 pattern
    /// databases on every thread, with progress, a time limit and a stop
    /// (`pattern/`).
    Shortest,
    /// 5x5: beam searches over the 5x5 pattern databases, the answer's
    /// stretches re-solved (`near.rs`, over `pattern/`).
    Near,
    /// 6x6 and up with `--shortest`: IDA* with Manhattan distance and linear
    /// conflicts (`manhattan.rs`).
    Manhattan,
    /// 6x6 to [`FINISHED_SIDES`]: the reduction to a 5x5 corner, finished by
    /// the beam over the 5x5 tables of corner goals (`constructive/`); on
    /// 6x6 the beam over the whole board ([`whole_board`], `whole_board/`)
    /// beside it, the shorter answer kept; then the polish (`polish/`).
    /// All composed in `finished.rs`.
    Finished,
    /// Larger boards: the reduction to a 3x3 corner (`constructive/`).
    Constructive,
}

/// The sides whose reduction stops at a 5x5 corner and finishes it with the
/// beam: up to 10x10 the 5x5 corner is a fair share of the moves (about a
/// third on 6x6, 3% on 10x10), worth loading 255 MB of tables and half a
/// second; beyond, the tables would multiply the memory of a reduction that
/// takes milliseconds.
pub(crate) const FINISHED_SIDES: std::ops::RangeInclusive<usize> = 6..=10;

/// The tables a method reads: a partition's, for goals with the blank on
/// `goal_blank` (any cell of its class).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TablesFor {
    /// The partition (4x4 or 5x5).
    pub(crate) partition: &'static Partition,
    /// The goal's blank cell.
    pub(crate) goal_blank: usize,
}

impl Method {
    /// The method for a `side`-wide board; `shortest` insists on a shortest
    /// solution.
    pub(crate) fn choose(side: usize, shortest: bool) -> Method {
        match side {
            2 | 3 => Method::Tables,
            4 => Method::Patterns,
            5 if shortest => Method::Shortest,
            5 => Method::Near,
            _ if shortest => Method::Manhattan,
            _ if FINISHED_SIDES.contains(&side) => Method::Finished,
            _ => Method::Constructive,
        }
    }

    /// Its name in `SolveStats::method`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Method::Tables => "complete distance table",
            Method::Patterns | Method::Shortest => "IDA* over pattern databases",
            Method::Near => "beam search over pattern databases",
            Method::Manhattan => "IDA* with Manhattan distance and linear conflicts",
            Method::Finished => "row-by-row reduction, 5x5 corner finished by a beam search",
            Method::Constructive => "row-by-row reduction, 3x3 corner finished optimally",
        }
    }

    /// The tables it reads, for a goal with its blank on `goal_blank`.
    pub(crate) fn tables(self, goal_blank: usize) -> Option<TablesFor> {
        let (partition, goal_blank) = match self {
            Method::Patterns => (&FIFTEEN, goal_blank),
            Method::Shortest | Method::Near => (&TWENTY_FOUR, goal_blank),
            // The 5x5 corner the reduction stops at has its goal blank in
            // the corner.
            Method::Finished => (&TWENTY_FOUR, 0),
            Method::Tables | Method::Manhattan | Method::Constructive => return None,
        };
        Some(TablesFor {
            partition,
            goal_blank,
        })
    }

    /// Whether it may take long and looks at the stop flag (the others take
    /// a fraction of a second, or, on the largest boards, minutes of writing
    /// moves that no stop could save).
    pub(crate) fn stoppable(self) -> bool {
        matches!(self, Method::Shortest | Method::Near | Method::Manhattan)
    }

    /// Whether an `Outcome::Solved` of it is a shortest solution.
    pub(crate) fn exact(self) -> bool {
        matches!(
            self,
            Method::Tables | Method::Patterns | Method::Shortest | Method::Manhattan
        )
    }

    /// Whether it counts search nodes (for `SolveStats::nodes`).
    pub(crate) fn counts_nodes(self) -> bool {
        !matches!(self, Method::Tables | Method::Constructive)
    }

    /// What solves a `side`-wide board when this method was stopped before it
    /// found any solution: the reduction, to a 5x5 corner where the boards
    /// are large enough (and the corner's tables at hand), else to a 3x3
    /// corner.
    pub(crate) fn fallback(side: usize) -> Method {
        if FINISHED_SIDES.contains(&side) {
            Method::Finished
        } else {
            Method::Constructive
        }
    }
}

/// The width of the beam over the whole board that runs beside the
/// reduction of a `side`-wide board (`whole_board/`), if one does: 6x6
/// only. On DeepCubeA's 7x7 states a beam of 2,048 boards gave answers far
/// longer than the reduction's (a mean of 518 against 318) and shortened 1
/// of 50, by 6 moves, for as much time again (docs/journal.md has the
/// measurements). With the small test tables (`small`), a sixteenth.
pub(crate) fn whole_board(side: usize, small: bool) -> Option<usize> {
    match side {
        6 if small => Some(SIX_WIDTH / 16),
        6 => Some(SIX_WIDTH),
        _ => None,
    }
}

/// The whole-board beam's width on 6x6: on DeepCubeA's 50 dev states,
/// 8,192 boards shortened the mean from 142.96 to 141.08 moves (before the
/// windows' polish), 16,384 to 140.60 for about three times the time.
const SIX_WIDTH: usize = 8192;

/// 3x3 windows: the complete 3x3 tables answer at once, and no more tables
/// are needed.
const THREE_BY_THREE: [Size; 1] = [Size {
    side: 3,
    longest: 40,
    nodes: 0,
}];

/// 4x4 windows, each searched to the end within 200,000 nodes (stretches
/// of at most 60 moves; a 4x4 puzzle takes at most 80), then 3x3 ones.
const FOUR_THEN_THREE: [Size; 2] = [
    Size {
        side: 4,
        longest: 60,
        nodes: 200_000,
    },
    THREE_BY_THREE[0],
];

/// How the reduction works on a `side`-wide board of [`FINISHED_SIDES`];
/// with the small test tables (`small`), a quarter of the width, as the
/// 5x5 beam takes a tenth: those tables make no answer good and every test
/// slow.
pub(crate) fn reduction(side: usize, small: bool) -> Reduction {
    let closer = Weights {
        line: 5,
        other: 2,
        near: 2,
    };
    // (first L, the others): 6x6 has one L only. Reductions finished: a
    // 5x5 beam each, about a tenth of a second; 6x6 and 7x7 have the time
    // (7x7 finishes 3 since the beam over moves got cheaper; its wider
    // first L, 6,144 or 8,192, gave back more time than that for gains
    // that did not hold on every set: docs/journal.md).
    let ((first_width, width), images, weights, finish) = match side {
        ..=6 => ((4096, 4096), 8, closer, 3),
        7 => ((4096, 2048), 8, closer, 3),
        8 => ((768, 768), 4, Weights::FIRST, 1),
        _ => ((512, 512), 4, Weights::FIRST, 1),
    };
    Reduction {
        width: if small { width / 4 } else { width },
        first_width: if small { first_width / 4 } else { first_width },
        images,
        weights,
        finish,
    }
}

impl Method {
    /// How its answer is polished by windows, if it is: the reduction of
    /// 6x6 to 10x10 (larger boards' reductions write millions of moves,
    /// which window searches would slow down for little). By default 3x3
    /// windows, which need no tables: 4x4 ones (another 375 MB of tables)
    /// gained about as little (10x10: 4 moves of 1,224 against 2; 6x6: none
    /// at the default width, docs/journal.md). With a time limit
    /// (`anytime`) 4x4 windows too, within what is left of it.
    pub(crate) fn polish(self, anytime: bool) -> Option<Plan> {
        match self {
            Method::Finished if anytime => Some(Plan {
                sizes: &FOUR_THEN_THREE,
                nodes: 5_000_000,
                sweeps: 4,
            }),
            Method::Finished => Some(Plan {
                sizes: &THREE_BY_THREE,
                nodes: 1_000_000,
                sweeps: 3,
            }),
            _ => None,
        }
    }

    /// The tables its polish reads: the 4x4 tables of every goal class
    /// (a window's goal has its blank anywhere) if it has 4x4 windows.
    pub(crate) fn window_tables(self, anytime: bool) -> Vec<TablesFor> {
        match self.polish(anytime) {
            Some(polish) if polish.sizes.iter().any(|size| size.side == 4) => FIFTEEN
                .classes
                .iter()
                .map(|&goal_blank| TablesFor {
                    partition: &FIFTEEN,
                    goal_blank,
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::finished::WIDEST_WHOLE_BOARD;

    #[test]
    fn the_side_and_shortest_choose_the_method() {
        let chosen = |shortest| -> Vec<Method> {
            [2, 3, 4, 5, 6, 10, 11, 1000]
                .iter()
                .map(|&side| Method::choose(side, shortest))
                .collect()
        };
        use Method::*;
        assert_eq!(
            chosen(false),
            [
                Tables,
                Tables,
                Patterns,
                Near,
                Finished,
                Finished,
                Constructive,
                Constructive
            ]
        );
        assert_eq!(
            chosen(true),
            [Tables, Tables, Patterns, Shortest, Manhattan, Manhattan, Manhattan, Manhattan]
        );
    }

    #[test]
    fn each_method_names_the_tables_it_reads() {
        let goal_blank = 7;
        let read = |method: Method| {
            method
                .tables(goal_blank)
                .map(|t| (t.partition.side, t.goal_blank))
        };
        assert_eq!(read(Method::Patterns), Some((4, 7)));
        assert_eq!(read(Method::Near), Some((5, 7)));
        assert_eq!(read(Method::Shortest), Some((5, 7)));
        // The reduction's 5x5 corner has its goal blank in the corner.
        assert_eq!(read(Method::Finished), Some((5, 0)));
        for method in [Method::Tables, Method::Manhattan, Method::Constructive] {
            assert_eq!(read(method), None, "{method:?}");
        }
    }

    #[test]
    fn only_the_reduction_to_a_five_by_five_corner_is_polished() {
        let sides = |plan: Option<Plan>| -> Vec<usize> {
            plan.map(|p| p.sizes.iter().map(|s| s.side).collect())
                .unwrap_or_default()
        };
        // By default 3x3 windows, which need no tables; 4x4 ones with a
        // time limit, and then their tables of every goal class.
        assert_eq!(sides(Method::Finished.polish(false)), [3]);
        assert_eq!(sides(Method::Finished.polish(true)), [4, 3]);
        assert!(Method::Finished.window_tables(false).is_empty());
        assert_eq!(Method::Finished.window_tables(true).len(), 3);
        for method in [Method::Near, Method::Constructive, Method::Shortest] {
            assert_eq!(method.polish(true), None, "{method:?}");
        }
        // Wider beams where the boards are smaller.
        assert!(reduction(6, false).width >= reduction(7, false).width);
        assert!(reduction(7, false).width >= reduction(10, false).width);
        assert!(reduction(6, true).width < reduction(6, false).width);
        // 7x7's first L gets a wider beam than the second; 6x6 has one L.
        assert!(reduction(7, false).first_width > reduction(7, false).width);
        assert_eq!(reduction(6, false).first_width, reduction(6, false).width);
        assert_eq!(reduction(10, false).first_width, reduction(10, false).width);
        // More reductions finished where a puzzle takes well under 2 s.
        assert_eq!(reduction(6, false).finish, 3);
        assert_eq!(reduction(7, false).finish, 3);
        assert_eq!(reduction(8, false).finish, 1);
    }

    #[test]
    fn only_six_by_six_gets_the_whole_board_beam_beside_the_reduction() {
        assert_eq!(whole_board(6, false), Some(SIX_WIDTH));
        assert!(whole_board(6, true).unwrap() < SIX_WIDTH);
        for side in [5, 7, 8, 10, 11] {
            assert_eq!(whole_board(side, false), None, "{side}");
        }
        // A time limit widens it.
        const { assert!(SIX_WIDTH * 4 <= WIDEST_WHOLE_BOARD) };
    }

    #[test]
    fn a_stopped_search_is_finished_by_the_reduction() {
        assert_eq!(Method::fallback(5), Method::Constructive);
        assert_eq!(Method::fallback(6), Method::Finished);
        assert_eq!(Method::fallback(10), Method::Finished);
        assert_eq!(Method::fallback(11), Method::Constructive);
        assert!(!Method::Finished.stoppable() && !Method::Constructive.stoppable());
        assert!(!Method::Finished.exact() && Method::Manhattan.exact());
    }
}
