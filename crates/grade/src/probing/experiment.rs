//! Causes confirmed by experiment: a cause is named to a student only when
//! the program's failures follow it both ways.
//!
//! A class of fault (WRONG VERDICT, MISSED ERROR, FALSE ERROR, CRASH) on
//! some fixtures has candidate causes: the [`Suspect`]s whose feature at
//! least one of those fixtures has (an even side whose blanks' rows differ
//! in parity; a blank in the last column; a number past 2^32; a tab; a line
//! over 4 KiB...). Each candidate is tried on the program itself, in the
//! sandbox, with inputs made for the purpose: [`TRIALS`] that have the
//! feature and as many that do not but are otherwise alike (the same sides,
//! the same kind of puzzle, the token made ordinary). The cause is
//! confirmed when at least [`WITH_AT_LEAST`] of those with it fail so and
//! at most [`WITHOUT_AT_MOST`] of those without it do. A fixture a
//! confirmed cause does not explain stays without one: the feedback lists
//! it and says no single cause was found.
//!
//! The inputs come from fixed seeds and the counts are fixed, so a
//! grading of the same program names the same causes on every machine;
//! the experiments run after the fixtures, within the submission's budget.

use super::case::{Fault, Goal, Kind, Layout, Recipe};
use super::prober::Prober;
use super::shrink::Case;
use crate::engine::Settings;
use crate::judging::budget::Budget;
use crate::judging::class::{Class, Feature, Part, Suspects};
use crate::judging::fixture::{Category, Fixture};
use crate::judging::judge::{Graded, Judgement};
use crate::judging::open_choice::lenient_reading;
use crate::marking::cause::{Confirmed, Experiments, Kind as Form, Shape};
use puzzle::board_adt::Board;
use puzzle::input::read_puzzle;
use puzzle::{mix, standard_cells, SplitMix64};
use puzzle_sandbox::Runner;
use std::fs;
use std::io;
use std::path::Path;

/// Inputs with the feature, and as many without, a suspect is tried on.
pub const TRIALS: usize = 10;
/// Of those with the feature, at least this many must fail so.
pub const WITH_AT_LEAST: usize = 9;
/// Of those without it, at most this many may fail so.
pub const WITHOUT_AT_MOST: usize = 1;

/// A suspected cause: a feature of inputs, and what a program that fails
/// on exactly those inputs gets wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suspect {
    /// A feature of its own (`judging::class::Feature`: any bad input, an
    /// even side whose blanks' rows differ in parity, a goal `1 2 ... b`
    /// cannot reach, 2^31 inversions...).
    Feature(Feature),
    /// A line over this many bytes: a fixed line buffer. Its inputs are
    /// long with tokens, as the fixtures' long lines are: boards of the
    /// smallest sides whose lines are over it, and without it boards of the
    /// largest sides whose lines, with their newline, fit in it.
    LongLine(usize),
    /// Boards that hold this tile or larger ones: a fault of large boards
    /// at a value programs trip on (98, the code of the letter `b`; three
    /// digits; past a signed char; past a byte). Its inputs are boards of
    /// the two smallest sides that hold it, and without it boards of the
    /// two sides below, made as long by runs of spaces between tokens (so
    /// that a line buffer is not taken for it).
    Tiles(usize),
    /// A bad input of this fault.
    Fault(Fault),
    /// A valid input laid out with this.
    Form(Form),
}

/// The faults looked at, with their words.
const FAULTS: [(Fault, &str); 17] = [
    // Before the huge numbers, which are of N*N or more too: a program
    // that checks no range is told so, not that 32 bits wrap.
    (Fault::OutOfRange, "a number of N*N or more"),
    (
        Fault::Huge,
        "a number of 2^32 or more (read into 32 bits it wraps around to a tile: read the digits, or check the range before converting)",
    ),
    (
        Fault::Overlong,
        "a number of 20 digits or more, past what 64 bits hold (atoi, strtol and %d give -1 or the largest long for it: count its digits, or check strtol's ERANGE)",
    ),
    (
        Fault::SpaceLike,
        "a vertical tab, a form feed or a lone carriage return between tokens (C's isspace takes them for blanks; the assignment's blanks are spaces and tabs only)",
    ),
    (Fault::Nul, "a NUL byte between tokens"),
    (
        Fault::Trailing,
        "a number with other characters after its digits (1.5, 3a: atoi and %d read the digits alone; check the whole token)",
    ),
    (Fault::Negative, "a negative number"),
    (Fault::NonNumber, "a token that is neither a number nor b"),
    (Fault::Zero, "the number 0, which is no tile"),
    (Fault::Duplicate, "a tile that occurs twice"),
    (Fault::TwoBlanks, "a board with two blanks"),
    (Fault::NoBlank, "a board without a blank"),
    (Fault::Missing, "a board whose tokens are not N*N"),
    (Fault::SizeMismatch, "a goal whose side is not the start's"),
    (Fault::EmptyLine, "an empty or blank board line"),
    (Fault::OneLine, "a goal line missing"),
    (Fault::ThirdLine, "something after the goal line"),
];

/// The layouts looked at.
const FORMS: [Form; 5] = [
    Form::Tab,
    Form::BlankRun,
    Form::LeadingBlanks,
    Form::TrailingBlanks,
    Form::NoFinalNewline,
];

/// The line buffers looked for: the sizes programs give them.
const LINE_BUFFERS: [usize; 8] = [128, 256, 512, 1024, 2048, 4096, 8192, 65536];

/// The tiles large boards are looked at from, with what trips there.
const TILES: [(usize, &str); 4] = [
    (98, "the tile 98 (98 is the code of the letter b: a blank stored as 'b' among the tiles is taken for tile 98)"),
    (100, "tiles of three digits (100 and up: read each number's digits as a whole)"),
    (128, "tiles of 128 and up (past what a signed char holds)"),
    (256, "tiles of 256 and up (past what a byte holds)"),
];

/// The sides of [`Suspect::Tiles`]`(tile)`'s `i`-th input with the
/// feature (the smallest side that holds `tile`, or the next) and without
/// it (the side below the smallest, or the one below that).
fn tile_sides(tile: usize, i: usize) -> (usize, usize) {
    let holds = (2..).find(|&s| s * s > tile).unwrap_or(2);
    (holds + i % 2, (holds - 1 - i % 2).max(2))
}

/// The bytes of a line of a board of `side` written with single spaces
/// (every board of a side has the same tokens, so the same length).
fn line_bytes(side: usize) -> usize {
    let cells = side * side;
    let digits: usize = (1..cells).map(|t| t.to_string().len()).sum();
    digits + 1 + (cells - 1)
}

/// The sides of [`Suspect::LongLine`]`(limit)`'s `i`-th input with the
/// feature and without it: the smallest side whose lines are over `limit`
/// (or the next), and the largest of the same parity whose lines and
/// their newline fit in `limit - 1` bytes (what `fgets` reads whole).
fn long_line_sides(limit: usize, i: usize) -> (usize, usize) {
    let over = (2..).find(|&s| line_bytes(s) > limit).unwrap_or(2) + i % 2;
    let fits = (2..)
        .take_while(|&s| line_bytes(s) + 2 <= limit)
        .last()
        .unwrap_or(2);
    let under = if fits % 2 == over % 2 { fits } else { fits - 1 };
    (over, under.max(2))
}

impl Suspect {
    /// The suspects of `class`, in the order they are tried: those of
    /// each feature its row names ([`Row::suspects`](crate::judging::class::Row::suspects)).
    fn of_class(class: Class) -> Vec<Suspect> {
        class
            .row()
            .suspects
            .iter()
            .flat_map(|&feature| Suspect::of_feature(feature))
            .collect()
    }

    /// The suspects of `suspects`: a feature, or one a line buffer, a kind
    /// of bad input, a layout.
    fn of_feature(suspects: Suspects) -> Vec<Suspect> {
        match suspects {
            Suspects::Feature(feature) => vec![Suspect::Feature(feature)],
            Suspects::LongLines => LINE_BUFFERS.map(Suspect::LongLine).to_vec(),
            Suspects::Tiles => TILES.map(|(t, _)| Suspect::Tiles(t)).to_vec(),
            Suspects::BadInputs => FAULTS.iter().map(|(f, _)| Suspect::Fault(*f)).collect(),
            Suspects::Layouts => FORMS.iter().map(|&f| Suspect::Form(f)).collect(),
        }
    }

    /// Whether the input `bytes` has the feature.
    fn explains(self, bytes: &[u8]) -> bool {
        let puzzle = read_puzzle(bytes);
        let shape = Shape::of(bytes);
        match self {
            Suspect::Feature(Feature::AllBad) => puzzle.is_err(),
            Suspect::Feature(Feature::AllValid) => puzzle.is_ok(),
            Suspect::Fault(fault) => puzzle.is_err() && faults_in(bytes).contains(&fault),
            Suspect::LongLine(limit) => shape.longest_line > limit,
            Suspect::Tiles(tile) => puzzle.is_ok() && shape.side.is_some_and(|n| n * n > tile),
            Suspect::Feature(Feature::TwoByTwo) => shape.side == Some(2),
            Suspect::Feature(Feature::OddSide) => {
                puzzle.is_ok() && shape.side.is_some_and(|n| n % 2 == 1)
            }
            Suspect::Feature(Feature::OtherGoal) => puzzle.is_ok_and(|p| {
                let side = p.goal().side();
                p.goal().cells() != standard_cells(side).as_slice()
            }),
            Suspect::Form(form) => puzzle.is_ok() && shape.has(form),
            _ => {
                let Ok(p) = puzzle else { return false };
                let side = p.start().side();
                let (s, g) = (p.start().blank(), p.goal().blank());
                let rows_differ = (s / side) % 2 != (g / side) % 2;
                let last = |at: usize| at % side == side - 1;
                match self {
                    Suspect::Feature(Feature::RowIgnored) => side % 2 == 0 && rows_differ,
                    Suspect::Feature(Feature::LastColumn) => side % 2 == 0 && last(s) != last(g),
                    Suspect::Feature(Feature::RowOnOddSide) => side % 2 == 1 && rows_differ,
                    Suspect::Feature(Feature::GoalIgnored) => {
                        let standard = Board::from_cells(standard_cells(side)).expect("valid");
                        !p.goal().can_reach(&standard)
                    }
                    Suspect::Feature(Feature::Overflow) => {
                        let disorder = |b: &Board| puzzle::board_adt::Disorder::of(b, 0).tile_sum();
                        disorder(p.start()).max(disorder(p.goal())) >= 1 << 31
                    }
                    _ => false,
                }
            }
        }
    }

    /// How many inputs each way it is tried on (boards of 2^31 inversions
    /// are large: fewer, and all must agree).
    fn trials(self) -> (usize, usize, usize) {
        match self {
            // Boards past 2^31 inversions have 66,000 tiles or more: one
            // each way (a program that counts pair by pair takes as long
            // on each as on the fixture that failed).
            Suspect::Feature(Feature::Overflow) => (1, 1, 0),
            _ => (TRIALS, WITH_AT_LEAST, WITHOUT_AT_MOST),
        }
    }

    /// The `i`-th input with the feature (`with`) or without it.
    fn input(self, i: usize, with: bool, seed: u64, control: Fault) -> Vec<u8> {
        let mut rng = SplitMix64::new(mix(seed ^ (i as u64) << 1 ^ u64::from(with)));
        let solvable = i.is_multiple_of(2);
        let recipe = |kind: Kind, side: usize, layout: Layout| {
            Case::new(Recipe {
                kind,
                side,
                seed: mix(seed ^ i as u64),
                layout,
            })
            .bytes()
        };
        let valid = Kind::Valid {
            solvable,
            goal: Goal::Standard,
            blank: super::case::Blank::Anywhere,
        };
        let plain = Layout::PLAIN;
        match self {
            Suspect::Feature(Feature::AllBad) => {
                let kind = if with {
                    Kind::Bad {
                        fault: FAULTS[i % FAULTS.len()].0,
                        board: i % 2,
                        plain: true,
                    }
                } else {
                    valid
                };
                recipe(kind, 3 + i % 3, plain)
            }
            Suspect::Feature(Feature::AllValid) => {
                // Of every side from 2 to 6, either goal, either verdict;
                // without: bad inputs, which no FALSE ERROR can be.
                let kind = if with {
                    Kind::Valid {
                        solvable,
                        goal: if (i / 2).is_multiple_of(2) {
                            Goal::Standard
                        } else {
                            Goal::Random
                        },
                        blank: super::case::Blank::Anywhere,
                    }
                } else {
                    Kind::Bad {
                        fault: FAULTS[i % FAULTS.len()].0,
                        board: i % 2,
                        plain: true,
                    }
                };
                recipe(kind, 2 + i % 5, plain)
            }
            Suspect::Fault(fault) => {
                // A number past 2^32 that wraps to the very tile it stands
                // for: a 32-bit read sees a valid board, not a tile twice.
                let fault = match (with, fault) {
                    (true, Fault::Huge) => Fault::Wraps,
                    (true, _) => fault,
                    (false, _) => control,
                };
                recipe(
                    Kind::Bad {
                        fault,
                        board: i % 2,
                        plain: true,
                    },
                    3 + i % 3,
                    plain,
                )
            }
            Suspect::Feature(Feature::TwoByTwo) => {
                recipe(valid, if with { 2 } else { 3 + i % 2 }, plain)
            }
            Suspect::Feature(Feature::OddSide) => {
                let side = if with {
                    3 + 2 * (i % 3)
                } else {
                    4 + 2 * (i % 2)
                };
                recipe(valid, side, plain)
            }
            Suspect::Feature(Feature::OtherGoal) => {
                let goal = if with { Goal::Random } else { Goal::Standard };
                let kind = Kind::Valid {
                    solvable,
                    goal,
                    blank: super::case::Blank::Anywhere,
                };
                recipe(kind, 3 + i % 3, plain)
            }
            Suspect::Form(form) => {
                // Each layout made alone: a tab is one byte between two
                // tokens (no run of blanks), the blanks at a line's edge
                // are spaces (no tab), on both lines.
                let mut case = Case::new(Recipe {
                    kind: valid,
                    side: 3 + i % 3,
                    seed: mix(seed ^ i as u64),
                    layout: plain,
                });
                if with && form == Form::NoFinalNewline {
                    case.doc.final_newline = false;
                } else if with {
                    let spaces = vec![b' '; 1 + i % 3];
                    for line in case.doc.lines.iter_mut() {
                        match form {
                            Form::Tab => {
                                for (k, sep) in line.seps.iter_mut().enumerate() {
                                    if i.is_multiple_of(2)
                                        || k.is_multiple_of(2)
                                        || rng.below(2) == 0
                                    {
                                        *sep = b"\t".to_vec();
                                    }
                                }
                            }
                            Form::BlankRun => {
                                for sep in line.seps.iter_mut() {
                                    *sep = vec![b' '; 2 + i % 3];
                                }
                            }
                            Form::LeadingBlanks => line.lead = spaces.clone(),
                            Form::TrailingBlanks => line.trail = spaces.clone(),
                            _ => {}
                        }
                    }
                }
                case.bytes()
            }
            Suspect::LongLine(limit) => {
                let (over, under) = long_line_sides(limit, i);
                recipe(valid, if with { over } else { under }, plain)
            }
            Suspect::Tiles(tile) => {
                let (holds, below) = tile_sides(tile, i);
                if with {
                    return recipe(valid, holds, plain);
                }
                spaced_board(below, spaces_past(line_bytes(holds), below), i, seed)
            }
            Suspect::Feature(Feature::Overflow) => {
                // As the fixtures that catch it: a start of an odd count
                // past 2^31 (its tiles in descending order, which an even
                // side gives an odd count), a goal of one inversion (1 and
                // 2 swapped): solvable, and a counter that wrapped to a
                // negative number says otherwise, whether it tests % 2 == 1
                // or compares the two boards' % 2. Just below 2^31 at 248
                // and 250.
                let side = if with { 258 + 2 * i } else { 248 + 2 * i };
                let cells = side * side;
                let mut start: Vec<u32> = (1..cells as u32).rev().collect();
                start.push(0);
                let mut goal = standard_cells(side);
                goal.swap(0, 1);
                puzzle_bytes(&start, &goal)
            }
            Suspect::Feature(Feature::RowIgnored)
            | Suspect::Feature(Feature::LastColumn)
            | Suspect::Feature(Feature::RowOnOddSide)
            | Suspect::Feature(Feature::GoalIgnored) => {
                self.board_input(i, with, solvable, &mut rng)
            }
        }
    }

    /// A valid puzzle for the suspects of the blank's place and the goal:
    /// each group alike but for the feature, and free of the others' (the
    /// goal reachable from `1 2 ... b` but for [`Suspect::Feature(Feature::GoalIgnored)`]'s
    /// inputs with it; no blank in the last column but for
    /// [`Suspect::Feature(Feature::LastColumn)`]'s).
    fn board_input(self, i: usize, with: bool, solvable: bool, rng: &mut SplitMix64) -> Vec<u8> {
        let odd = matches!(
            self,
            Suspect::Feature(Feature::RowOnOddSide) | Suspect::Feature(Feature::GoalIgnored)
        );
        let side = if odd {
            3 + 2 * (i % 2)
        } else {
            4 + 2 * (i % 2)
        };
        let row = |rng: &mut SplitMix64, parity: usize| {
            let rows: Vec<usize> = (0..side).filter(|r| r % 2 == parity).collect();
            rows[rng.index(rows.len())]
        };
        let column = |rng: &mut SplitMix64, last: bool| {
            if last {
                side - 1
            } else {
                rng.index(side - 1)
            }
        };
        let start_row = rng.index(side);
        let differ = match self {
            Suspect::Feature(Feature::RowIgnored) | Suspect::Feature(Feature::RowOnOddSide) => with,
            _ => false,
        };
        let goal_row = row(rng, (start_row + usize::from(differ)) % 2);
        let start_last = self == Suspect::Feature(Feature::LastColumn) && with;
        let start_blank = start_row * side + column(rng, start_last);
        let goal_blank = goal_row * side + column(rng, false);
        let goal = if self == Suspect::Feature(Feature::GoalIgnored) && with {
            other_class_goal(side, goal_blank, rng)
        } else {
            reachable_goal(side, goal_blank)
        };
        let start = start_cells(side, start_blank, &goal, solvable, rng);
        puzzle_bytes(&start, &goal)
    }

    /// What a program that fails so gets wrong, for the student.
    fn words(self, class: Class) -> String {
        let feature = match self {
            Suspect::Feature(Feature::AllBad) => return "no bad input is rejected: every input is given a verdict".into(),
            Suspect::Feature(Feature::AllValid) => return "no valid input is accepted: every one is rejected, whatever its side and goal".into(),
            Suspect::Feature(Feature::RowIgnored) => return "on boards of an even side the blank's row is not counted (the tutorial's rule: there the disorder plus the blank's row decides, for both boards)".into(),
            Suspect::Feature(Feature::LastColumn) => return "on boards of an even side the blank's row is one too many when the blank is in the last column: a row computed from a 1-based position (pos / N + 1) is wrong there".into(),
            Suspect::Feature(Feature::RowOnOddSide) => return "the blank's row is counted on boards of an odd side too, where the disorder alone decides".into(),
            Suspect::Feature(Feature::GoalIgnored) => return "the goal is taken to be 1 2 ... b: a goal that it cannot reach gets the wrong verdict (compare the two boards' parities)".into(),
            Suspect::Feature(Feature::Overflow) => return "boards of 2^31 inversions or more: a 32-bit counter overflows there (count in a 64-bit type, or keep only the parity)".into(),
            Suspect::LongLine(limit) => format!("lines over {} bytes (a fixed-size line buffer of about that size cuts them, as fgets(line, {limit}, stdin) does: read token by token, or grow the buffer)", crate::marking::cause::group_digits(limit)),
            Suspect::Tiles(tile) => TILES
                .iter()
                .find(|(t, _)| *t == tile)
                .map_or_else(|| format!("tiles of {tile} and up"), |(_, w)| (*w).to_string()),
            Suspect::Feature(Feature::TwoByTwo) => "2x2 boards, the smallest the assignment allows (N starts at 2)".into(),
            Suspect::Feature(Feature::OddSide) => "a board of an odd side (3x3, 5x5, 7x7)".into(),
            Suspect::Feature(Feature::OtherGoal) => "a goal other than 1 2 ... b (the goal may be any arrangement)".into(),
            Suspect::Fault(fault) => fault_words(fault).into(),
            Suspect::Form(form) => form_words(form).into(),
        };
        match class {
            Class::MissedError => format!("{feature} is not rejected"),
            Class::FalseError => format!("a valid input with {feature} is rejected"),
            Class::Crash => format!("an input with {feature} crashes it"),
            _ => format!("an input with {feature} gets the wrong verdict"),
        }
    }

    /// The inputs with the feature, and those without, in a few words for
    /// the evidence.
    fn sides(self) -> (String, String) {
        if let Suspect::LongLine(limit) = self {
            let boards = |pick: fn((usize, usize)) -> usize| {
                let [a, b] = [0, 1].map(|i| pick(long_line_sides(limit, i)));
                format!(
                    "boards of {a}x{a} and {b}x{b} (lines of {} and {} bytes, tokens and single spaces)",
                    crate::marking::cause::group_digits(line_bytes(a)),
                    crate::marking::cause::group_digits(line_bytes(b))
                )
            };
            return (boards(|s| s.0), boards(|s| s.1));
        }
        if let Suspect::Tiles(tile) = self {
            let [(a, c), (b, d)] = [0, 1].map(|i| tile_sides(tile, i));
            let spaces = [0, 1].map(|i| {
                let (holds, below) = tile_sides(tile, i);
                spaces_past(line_bytes(holds), below)
            });
            let runs = runs_of(spaces);
            return (
                format!("boards of {a}x{a} and {b}x{b}"),
                format!("boards of {c}x{c} and {d}x{d} made as long by runs of {runs} spaces between tokens"),
            );
        }
        let (with, without) = match self {
            Suspect::Feature(Feature::AllBad) => ("bad inputs of every kind", "valid inputs"),
            Suspect::Feature(Feature::AllValid) => (
                "valid inputs of every side from 2x2 to 6x6, either goal",
                "bad inputs",
            ),
            Suspect::Feature(Feature::RowIgnored) => (
                "even boards whose blanks' rows differ in parity",
                "even boards whose blanks' rows have the same parity",
            ),
            Suspect::Feature(Feature::LastColumn) => (
                "even boards with one blank in the last column",
                "even boards with the blanks in other columns",
            ),
            Suspect::Feature(Feature::RowOnOddSide) => (
                "odd boards whose blanks' rows differ in parity",
                "odd boards whose blanks' rows have the same parity",
            ),
            Suspect::Feature(Feature::GoalIgnored) => (
                "goals that 1 2 ... b cannot reach",
                "goals that it can reach",
            ),
            Suspect::Feature(Feature::TwoByTwo) => ("2x2 boards", "3x3 and 4x4 boards"),
            Suspect::Feature(Feature::OddSide) => {
                ("boards of 3x3, 5x5 and 7x7", "boards of 4x4 and 6x6")
            }
            Suspect::Feature(Feature::OtherGoal) => ("random goals", "the goal 1 2 ... b"),
            Suspect::Feature(Feature::Overflow) => (
                "reversed boards past 2^31 inversions",
                "reversed boards just below 2^31",
            ),
            Suspect::LongLine(_) | Suspect::Tiles(_) => unreachable!("answered above"),
            Suspect::Fault(_) => ("that fault", "the same boards bad in an ordinary way"),
            Suspect::Form(Form::LeadingBlanks) => (
                "spaces at the start of both lines",
                "the same boards without them",
            ),
            Suspect::Form(Form::TrailingBlanks) => (
                "spaces at the end of both lines",
                "the same boards without them",
            ),
            Suspect::Form(_) => ("that layout", "the same boards laid out plainly"),
        };
        (with.to_string(), without.to_string())
    }
}

/// The ordinary faults a fault may be compared with, in the order tried.
const CONTROLS: [Fault; 8] = [
    Fault::OutOfRange,
    Fault::Duplicate,
    Fault::TwoBlanks,
    Fault::NoBlank,
    Fault::Missing,
    Fault::SizeMismatch,
    Fault::NonNumber,
    Fault::Zero,
];

/// The fault `fault`'s inputs without it are bad by instead: an ordinary
/// one the program rejected on a fixture of that fault alone (`handled`),
/// so that only the fault tried differs; none when it rejected none.
fn control(fault: Fault, handled: &[Fault]) -> Option<Fault> {
    // The fuzzer's tokens that are no number include some with digits
    // first or a sign: no control for those.
    let overlaps =
        |c: Fault| c == Fault::NonNumber && matches!(fault, Fault::Trailing | Fault::Negative);
    CONTROLS
        .into_iter()
        .find(|&c| c != fault && !overlaps(c) && handled.contains(&c))
}

fn fault_words(fault: Fault) -> &'static str {
    FAULTS
        .iter()
        .find(|(f, _)| *f == fault)
        .map_or("a bad input", |(_, w)| w)
}

fn form_words(form: Form) -> &'static str {
    match form {
        Form::Tab => "a tab between tokens",
        Form::BlankRun => "several blanks in a row between tokens",
        Form::LeadingBlanks => "blanks at the start of a line",
        Form::TrailingBlanks => "blanks at the end of a line",
        _ => "no newline after the goal line",
    }
}

/// Every fault of the fuzzer's kinds `bytes` shows (an input may show
/// several: a blank written over with a tile is a tile twice too), read
/// from its lines and tokens as the assignment defines them (tokens
/// between spaces and tabs, two lines).
fn faults_in(bytes: &[u8]) -> Vec<Fault> {
    let mut found = Vec::new();
    let mut note = |f: Fault| {
        if !found.contains(&f) {
            found.push(f)
        }
    };
    if bytes.iter().any(|&b| matches!(b, 0x0b | 0x0c))
        || bytes.windows(2).any(|w| w[0] == b'\r' && w[1] != b'\n')
        || bytes.last() == Some(&b'\r')
    {
        note(Fault::SpaceLike);
    }
    if bytes.contains(&0) {
        note(Fault::Nul);
    }
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();
    let tokens = |line: &[u8]| -> Vec<Vec<u8>> {
        // Split at the space-like bytes too, so that a board with a
        // vertical tab for a blank shows that and nothing else.
        line.split(|&b| matches!(b, b' ' | b'\t' | 0x0b | 0x0c | b'\r' | 0))
            .filter(|t| !t.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    };
    let with_text: Vec<usize> = (0..lines.len())
        .filter(|&i| !tokens(lines[i]).is_empty())
        .collect();
    if with_text.len() > 2 {
        note(Fault::ThirdLine);
    }
    if with_text.len() == 1 && with_text[0] == 0 {
        note(Fault::OneLine);
    }
    if lines.iter().take(2).any(|l| tokens(l).is_empty()) && !with_text.is_empty() {
        note(Fault::EmptyLine);
    }
    let boards: Vec<Vec<Vec<u8>>> = lines
        .iter()
        .take(2)
        .map(|l| tokens(l))
        .filter(|t| !t.is_empty())
        .collect();
    let counts: Vec<usize> = boards.iter().map(Vec::len).collect();
    if counts.len() == 2 && counts[0] != counts[1] {
        note(Fault::SizeMismatch);
    }
    for board in &boards {
        let side = puzzle::board_adt::isqrt(board.len() as u64) as usize;
        if side * side != board.len() || side < 2 {
            note(Fault::Missing);
        }
        let cells = (board.len() as u128).max(1);
        let blanks = board.iter().filter(|t| t.as_slice() == b"b").count();
        if blanks == 0 {
            note(Fault::NoBlank);
        }
        if blanks > 1 {
            note(Fault::TwoBlanks);
        }
        let mut seen = std::collections::HashSet::new();
        for token in board.iter().filter(|t| t.as_slice() != b"b") {
            // A token of digits alone too long to parse is a number past
            // any integer's range, not a token of other characters.
            let zeros = token.iter().take_while(|&&d| d == b'0').count();
            let significant = &token[zeros.min(token.len() - 1)..];
            let number = match super::case::number(significant) {
                None if token.iter().all(u8::is_ascii_digit) => Some(u128::MAX),
                n => n,
            };
            match number {
                Some(0) => note(Fault::Zero),
                Some(n) if n >= 1 << 64 => {
                    note(Fault::OutOfRange);
                    note(Fault::Overlong)
                }
                Some(n) if n >= 1 << 32 => {
                    note(Fault::OutOfRange);
                    note(Fault::Huge)
                }
                Some(n) if n >= cells => note(Fault::OutOfRange),
                Some(n) => {
                    if !seen.insert(n) {
                        note(Fault::Duplicate);
                    }
                }
                // Any token not a number is one; some are more besides.
                None => {
                    note(Fault::NonNumber);
                    if token.len() > 1
                        && token[0] == b'-'
                        && token[1..].iter().all(u8::is_ascii_digit)
                    {
                        note(Fault::Negative)
                    } else if token[0].is_ascii_digit() {
                        note(Fault::Trailing)
                    }
                }
            }
        }
    }
    found
}

/// `1 2 ... b` with its blank slid to `blank` (up the last column, then
/// along the row): a goal `1 2 ... b` reaches.
fn reachable_goal(side: usize, blank: usize) -> Vec<u32> {
    let mut cells = standard_cells(side);
    let mut at = side * side - 1;
    while at / side > blank / side {
        cells.swap(at, at - side);
        at -= side;
    }
    while at > blank {
        cells.swap(at, at - 1);
        at -= 1;
    }
    cells
}

/// A random goal with its blank at `blank` that `1 2 ... b` cannot reach.
fn other_class_goal(side: usize, blank: usize, rng: &mut SplitMix64) -> Vec<u32> {
    let mut cells = reachable_goal(side, blank);
    let tiles: Vec<usize> = (0..cells.len()).filter(|&c| c != blank).collect();
    let mut order = tiles.clone();
    rng.shuffle(&mut order);
    let values: Vec<u32> = order.iter().map(|&c| cells[c]).collect();
    for (&c, &v) in tiles.iter().zip(&values) {
        cells[c] = v;
    }
    if reaches(&reachable_goal(side, blank), &cells) {
        cells.swap(tiles[0], tiles[1]);
    }
    cells
}

/// A random start with its blank at `blank` from which `goal` can or
/// cannot be reached, as asked.
fn start_cells(
    side: usize,
    blank: usize,
    goal: &[u32],
    solvable: bool,
    rng: &mut SplitMix64,
) -> Vec<u32> {
    let mut tiles: Vec<u32> = (1..(side * side) as u32).collect();
    rng.shuffle(&mut tiles);
    let mut cells = Vec::with_capacity(side * side);
    let mut next = tiles.into_iter();
    for c in 0..side * side {
        cells.push(if c == blank {
            0
        } else {
            next.next().unwrap_or(0)
        });
    }
    if reaches(&cells, goal) != solvable {
        let others: Vec<usize> = (0..cells.len()).filter(|&c| c != blank).take(2).collect();
        cells.swap(others[0], others[1]);
    }
    cells
}

fn reaches(start: &[u32], goal: &[u32]) -> bool {
    let board = |cells: &[u32]| Board::from_cells(cells.to_vec()).expect("valid cells");
    board(start).can_reach(&board(goal))
}

/// The two boards as input lines.
fn puzzle_bytes(start: &[u32], goal: &[u32]) -> Vec<u8> {
    let line = |cells: &[u32]| {
        cells
            .iter()
            .map(|&c| {
                if c == 0 {
                    "b".to_string()
                } else {
                    c.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!("{}\n{}\n", line(start), line(goal)).into_bytes()
}

/// Tries the suspects of every failing class of `graded` on `program`;
/// the causes confirmed, each with the failing fixtures it explains, and
/// the fixtures a suspect was tried for. Every run draws on `budget` (the
/// program's, which the runs on the fixtures drew on first): trying stops
/// once it is closed, and a suspect whose trial the budget cut short is
/// told nothing of.
pub fn confirm(
    runner: &dyn Runner,
    program: &Path,
    settings: &Settings,
    work: &Path,
    fixtures: &[Fixture],
    graded: &[Graded],
    budget: &Budget,
) -> io::Result<Experiments> {
    let work = work.join("experiments");
    fs::create_dir_all(&work)?;
    let mut prober = Prober {
        runner,
        program,
        settings,
        work: work.clone(),
        budget,
        runs: 0,
    };
    // The ordinary faults the program rejects, for the experiments on a
    // class: those of the bad fixtures that show one fault alone, and
    // nothing the assignment leaves open (a tile out of range written with
    // leading zeros may be rejected for its zeros), on which its run ended
    // by itself without a fault of that class (passed, or failed another
    // way: a program that rejects every bad board with exit status 0 still
    // rejects them, and is compared with them for what it accepts).
    let single: Vec<(usize, Fault)> = (0..fixtures.len().min(graded.len()))
        .filter(|&i| fixtures[i].named == Category::Bad)
        .filter_map(|i| {
            let bytes = fs::read(&fixtures[i].path).unwrap_or_default();
            match faults_in(&bytes)[..] {
                [one] if lenient_reading(&bytes).1.is_empty() => Some((i, one)),
                _ => None,
            }
        })
        .collect();
    let handled = |class: Class| -> Vec<Fault> {
        single
            .iter()
            .filter(|&&(i, _)| match &graded[i].judgement {
                Judgement::Noted(c, _) if c.fails(settings.strict) => {
                    *c != class && c.judged() && Part::ALL.iter().any(|&p| c.earns(p))
                }
                _ => true,
            })
            .map(|&(_, fault)| fault)
            .collect()
    };
    let mut confirmed = Vec::new();
    let mut tried = Vec::new();
    // The classes whose rows name features to look for causes in.
    for class in Class::ALL.into_iter().filter(|c| c.has_suspects()) {
        let failing: Vec<usize> = (0..fixtures.len().min(graded.len()))
            .filter(|&i| matches!(&graded[i].judgement, Judgement::Noted(c, _) if *c == class))
            .collect();
        if failing.is_empty() {
            continue;
        }
        let bytes: Vec<Vec<u8>> = failing
            .iter()
            .map(|&i| fs::read(&fixtures[i].path).unwrap_or_default())
            .collect();
        let handled = handled(class);
        let mut unexplained: Vec<usize> = (0..failing.len()).collect();
        // The suspects confirmed for this class, with the fixtures (of
        // `failing`) each explains.
        let mut found: Vec<(Suspect, Vec<usize>)> = Vec::new();
        for (k, suspect) in Suspect::of_class(class).into_iter().enumerate() {
            if budget.closed().is_some() {
                break;
            }
            let with: Vec<usize> = (0..failing.len())
                .filter(|&j| suspect.explains(&bytes[j]))
                .collect();
            let explained: Vec<usize> = with
                .iter()
                .copied()
                .filter(|j| unexplained.contains(j))
                .collect();
            let seed = mix(0xCA05E ^ (class as u64) << 8 ^ k as u64);
            let control = match suspect {
                Suspect::Fault(fault) => match control(fault, &handled) {
                    Some(c) => c,
                    // No ordinary fault it rejects to compare with.
                    None => continue,
                },
                _ => Fault::OutOfRange,
            };
            // A feature only in fixtures a cause already explains is tried
            // too, for a second fault of the program, when its experiment
            // tells the two apart: no input it makes with its feature has
            // the feature of a cause that explains one of them (trailing
            // blanks after tabs, yes; a huge number after a number out of
            // range, or a longer line after a long one, no).
            let explained = if !explained.is_empty() {
                explained
            } else if !with.is_empty()
                && found.iter().all(|(cause, theirs)| {
                    !theirs.iter().any(|j| with.contains(j))
                        || (0..suspect.trials().0)
                            .all(|i| !cause.explains(&suspect.input(i, true, seed, control)))
                })
            {
                with
            } else {
                continue;
            };
            let outcome = try_suspect(&mut prober, suspect, class, (seed, control))?;
            if outcome != Tried::Cut {
                tried.extend(explained.iter().map(|&j| failing[j]));
            }
            if let Tried::Confirmed(cause) = outcome {
                unexplained.retain(|j| !explained.contains(j));
                confirmed.push(Confirmed {
                    fixtures: explained.iter().map(|&j| failing[j]).collect(),
                    ..cause
                });
                found.push((suspect, explained));
            }
        }
    }
    let _ = fs::remove_dir_all(&work);
    tried.sort_unstable();
    tried.dedup();
    Ok(Experiments { confirmed, tried })
}

/// How trying a suspect went.
#[derive(Debug, PartialEq)]
enum Tried {
    /// The failures followed it: the cause.
    Confirmed(Confirmed),
    /// They did not.
    NotConfirmed,
    /// The budget closed, or cut a run short, before it was told.
    Cut,
}

/// A group of inputs a suspect is tried on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arm {
    /// With the feature.
    With,
    /// Alike, without it.
    Without,
    /// For a line buffer: boards of the sides whose plain lines fit, made
    /// as long by runs of spaces between the tokens (so that a fault of
    /// large boards, not of long lines, is not taken for a buffer).
    LongBySpaces,
    /// For a line buffer: the same runs of spaces on small boards, whose
    /// lines are short (so that a fault of runs of blanks is not taken for
    /// a buffer either).
    SpacesAlone,
}

impl Arm {
    /// Whether its inputs have the feature.
    fn feature(self) -> bool {
        matches!(self, Arm::With | Arm::LongBySpaces)
    }
}

impl Suspect {
    /// The groups of inputs it is tried on, in order.
    fn arms(self) -> &'static [Arm] {
        match self {
            Suspect::LongLine(_) => &[Arm::With, Arm::Without, Arm::LongBySpaces, Arm::SpacesAlone],
            _ => &[Arm::With, Arm::Without],
        }
    }

    /// The `i`-th input of `arm`.
    fn arm_input(self, arm: Arm, i: usize, seed: u64, control: Fault) -> Vec<u8> {
        match (self, arm) {
            (Suspect::LongLine(limit), Arm::LongBySpaces | Arm::SpacesAlone) => {
                let (_, under) = long_line_sides(limit, i);
                let spaces = spaces_past(limit, under);
                let side = if arm == Arm::LongBySpaces {
                    under
                } else {
                    3 + i % 2
                };
                spaced_board(side, spaces, i, seed)
            }
            _ => self.input(i, arm.feature(), seed, control),
        }
    }

    /// `arm`'s inputs in a few words, for the evidence.
    fn arm_words(self, arm: Arm) -> String {
        let (with, without) = self.sides();
        match (self, arm) {
            (_, Arm::With) => with,
            (_, Arm::Without) => without,
            (Suspect::LongLine(limit), _) => {
                let sides = [0, 1].map(|i| long_line_sides(limit, i).1);
                let runs = runs_of(sides.map(|s| spaces_past(limit, s)));
                if arm == Arm::LongBySpaces {
                    format!(
                        "those of {a}x{a} and {b}x{b} made as long by runs of {runs} spaces between tokens",
                        a = sides[0],
                        b = sides[1]
                    )
                } else {
                    format!("runs of {runs} spaces on boards of 3x3 and 4x4")
                }
            }
            _ => String::new(),
        }
    }
}

/// The `i`-th valid board of `side` from `seed` (solvable for an even `i`,
/// the standard goal), every two tokens apart by a run of `spaces` spaces:
/// a board as long as a larger one, without its tiles.
fn spaced_board(side: usize, spaces: usize, i: usize, seed: u64) -> Vec<u8> {
    let mut case = Case::new(Recipe {
        kind: Kind::Valid {
            solvable: i.is_multiple_of(2),
            goal: Goal::Standard,
            blank: super::case::Blank::Anywhere,
        },
        side,
        seed: mix(seed ^ i as u64),
        layout: Layout::PLAIN,
    });
    for line in case.doc.lines.iter_mut() {
        for sep in line.seps.iter_mut() {
            *sep = vec![b' '; spaces];
        }
    }
    case.bytes()
}

/// The runs of spaces of two groups of inputs, in words: `3`, or `3 and 4`.
fn runs_of(spaces: [usize; 2]) -> String {
    if spaces[0] == spaces[1] {
        format!("{}", spaces[0])
    } else {
        format!("{} and {}", spaces[0], spaces[1])
    }
}

/// How many spaces between tokens make the lines of a board of `side`
/// longer than `limit` bytes.
fn spaces_past(limit: usize, side: usize) -> usize {
    let cells = side * side;
    let tokens = line_bytes(side) - (cells - 1);
    (limit + 1 - tokens.min(limit)).div_ceil(cells - 1).max(2)
}

/// Runs `suspect`'s inputs, arm by arm; the cause when the failures follow
/// it in each. A run the budget kept from starting or cut short ends the
/// trial untold: counted either way it could name a false cause.
fn try_suspect(
    prober: &mut Prober,
    suspect: Suspect,
    class: Class,
    (seed, control): (u64, Fault),
) -> io::Result<Tried> {
    let (trials, with_least, without_most) = suspect.trials();
    let mut smallest: Option<Vec<u8>> = None;
    let mut evidence = Vec::new();
    for &arm in suspect.arms() {
        let mut failed = 0;
        for i in 0..trials {
            let input = suspect.arm_input(arm, i, seed, control);
            let Some(run) = prober.try_input(&input)? else {
                return Ok(Tried::Cut);
            };
            if run.failed == Some(class) {
                failed += 1;
                if arm == Arm::With && smallest.as_ref().is_none_or(|s| input.len() < s.len()) {
                    smallest = Some(input);
                }
            }
            let hopeless = if arm.feature() {
                failed + (trials - i - 1) < with_least
            } else {
                failed > without_most
            };
            if hopeless {
                return Ok(Tried::NotConfirmed);
            }
        }
        let of = if evidence.is_empty() {
            " inputs failed so"
        } else {
            ""
        };
        evidence.push(format!(
            "with {}, {failed} of {trials}{of}",
            suspect.arm_words(arm)
        ));
    }
    Ok(Tried::Confirmed(Confirmed {
        class,
        words: suspect.words(class),
        evidence: evidence.join("; "),
        fixtures: Vec::new(),
        smallest,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_suspects_inputs_have_its_feature_and_its_controls_lack_it() {
        let mut suspects: Vec<Suspect> =
            Class::ALL.into_iter().flat_map(Suspect::of_class).collect();
        suspects.dedup();
        for suspect in suspects {
            let (trials, _, _) = suspect.trials();
            if suspect == Suspect::Feature(Feature::Overflow) {
                // Large boards: one of each way is enough here.
                assert!(suspect.explains(&suspect.input(0, true, 7, Fault::Duplicate)));
                assert!(!suspect.explains(&suspect.input(0, false, 7, Fault::Duplicate)));
                continue;
            }
            for i in 0..trials {
                let control = if suspect == Suspect::Fault(Fault::OutOfRange) {
                    Fault::Duplicate
                } else {
                    Fault::OutOfRange
                };
                let with = suspect.input(i, true, 7, control);
                let without = suspect.input(i, false, 7, control);
                assert!(
                    suspect.explains(&with),
                    "{suspect:?} {i}: {:?}",
                    String::from_utf8_lossy(&with)
                );
                assert!(
                    !suspect.explains(&without),
                    "{suspect:?} {i} without: {:?}",
                    String::from_utf8_lossy(&without)
                );
            }
        }
    }

    #[test]
    fn the_board_suspects_keep_out_of_each_others_way() {
        // Each one's inputs, with and without, are free of the other
        // features (so that one fault does not confirm another's cause).
        let board = [
            Suspect::Feature(Feature::RowIgnored),
            Suspect::Feature(Feature::LastColumn),
            Suspect::Feature(Feature::RowOnOddSide),
            Suspect::Feature(Feature::GoalIgnored),
        ];
        for suspect in board {
            for other in board.iter().filter(|&&o| o != suspect) {
                for i in 0..TRIALS {
                    for with in [true, false] {
                        let input = suspect.input(i, with, 3, Fault::OutOfRange);
                        assert!(
                            !other.explains(&input),
                            "{suspect:?} {i} {with} has {other:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn faults_are_read_from_the_bytes_each_as_made() {
        for (fault, _) in FAULTS {
            for i in 0..TRIALS {
                let input = Suspect::Fault(fault).input(i, true, 11, Fault::OutOfRange);
                assert!(read_puzzle(&input[..]).is_err());
                assert!(
                    faults_in(&input).contains(&fault),
                    "{fault:?}: {:?} shows {:?}",
                    String::from_utf8_lossy(&input),
                    faults_in(&input)
                );
            }
        }
        assert_eq!(faults_in(b"1 2 3 b\n1 2 3 b\n"), []);
        assert_eq!(faults_in(b"1 2\x0b3 b\n1 2 3 b\n"), [Fault::SpaceLike]);
        assert_eq!(
            faults_in(b"1 2 3 4294967297\n1 2 3 b\n"),
            [Fault::NoBlank, Fault::OutOfRange, Fault::Huge]
        );
    }

    #[test]
    fn a_number_too_long_to_parse_is_past_64_bits_never_a_token_of_other_characters() {
        // As the fixtures have them: fifty 9s, a line of a million 7s.
        let nines = format!("1 2 3 b\n1 2 3 {}\n", "9".repeat(50));
        assert_eq!(
            faults_in(nines.as_bytes()),
            [Fault::NoBlank, Fault::OutOfRange, Fault::Overlong]
        );
        let sevens = format!("{}\n1 2 3 b\n", "7".repeat(1_000_000));
        assert_eq!(
            faults_in(sevens.as_bytes()),
            [
                Fault::SizeMismatch,
                Fault::Missing,
                Fault::NoBlank,
                Fault::OutOfRange,
                Fault::Overlong
            ]
        );
        // Past 2^64 by value, 20 digits; below, 2^32 and up: Huge.
        assert_eq!(
            faults_in(b"18446744073709551616 2 3 b\n1 2 3 b\n"),
            [Fault::OutOfRange, Fault::Overlong]
        );
        assert_eq!(
            faults_in(b"18446744073709551615 2 3 b\n1 2 3 b\n"),
            [Fault::OutOfRange, Fault::Huge]
        );
        // Leading zeros make no number longer.
        let zeros = format!("{}1 2 3 b\n1 2 3 b\n", "0".repeat(60));
        assert_eq!(faults_in(zeros.as_bytes()), []);
        assert!(Suspect::Fault(Fault::Overlong).explains(nines.as_bytes()));
        assert!(!Suspect::Fault(Fault::Trailing).explains(nines.as_bytes()));
        assert!(!Suspect::Fault(Fault::Huge).explains(nines.as_bytes()));
    }

    #[test]
    fn a_buffer_is_told_from_a_large_board_and_from_runs_of_blanks() {
        for limit in LINE_BUFFERS {
            for i in 0..2 {
                let long =
                    Suspect::LongLine(limit).arm_input(Arm::LongBySpaces, i, 3, Fault::OutOfRange);
                let runs =
                    Suspect::LongLine(limit).arm_input(Arm::SpacesAlone, i, 3, Fault::OutOfRange);
                let (_, under) = long_line_sides(limit, i);
                let shape = Shape::of(&long);
                // As long as the buffer, at a side whose plain lines fit.
                assert_eq!(shape.side, Some(under), "{limit}");
                assert!(shape.longest_line > limit, "{limit} {i}");
                assert!(read_puzzle(&long[..]).is_ok());
                // The same runs, on short lines.
                let shape = Shape::of(&runs);
                assert!(
                    shape.longest_line < 128 && shape.has(Form::BlankRun),
                    "{limit}"
                );
            }
        }
        assert_eq!(spaces_past(1024, 15), 3);
        assert!(Suspect::LongLine(1024)
            .arm_words(Arm::LongBySpaces)
            .starts_with("those of 15x15 and 16x16 made as long by runs of "));
    }

    #[test]
    fn long_lines_are_long_with_tokens_and_their_controls_fit_the_buffer() {
        for limit in LINE_BUFFERS {
            for i in 0..2 {
                let (over, under) = long_line_sides(limit, i);
                assert!(line_bytes(over) > limit, "{limit} {over}");
                // With its newline, in what fgets(line, limit) reads whole.
                assert!(line_bytes(under) + 1 < limit, "{limit} {under}");
                assert_eq!(over % 2, under % 2, "{limit}");
                // The smallest side over it, and the largest under.
                assert!(line_bytes(over - 1 - i) <= limit);
                assert!(line_bytes(under + 2) + 1 >= limit - 1);
            }
        }
        assert_eq!(line_bytes(17), 1045);
        assert_eq!(long_line_sides(1024, 0), (17, 15));
        assert_eq!(long_line_sides(1024, 1), (18, 16));
        // Every line of the inputs, the start's and the goal's, is long.
        let input = Suspect::LongLine(1024).input(0, true, 5, Fault::OutOfRange);
        let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
        assert!(lines[0].len() > 1024 && lines[1].len() > 1024);
        assert!(!input.windows(2).any(|w| w == b"  "));
    }

    #[test]
    fn each_layout_is_made_alone() {
        // The inputs with one layout have none of the others, so that a
        // program that trips on one is not taken for another.
        for form in FORMS {
            for i in 0..TRIALS {
                let with = Suspect::Form(form).input(i, true, 9, Fault::OutOfRange);
                let shape = Shape::of(&with);
                for other in FORMS.into_iter().filter(|&o| o != form) {
                    assert!(
                        !shape.has(other),
                        "{form:?} {i} has {other:?}: {:?}",
                        String::from_utf8_lossy(&with)
                    );
                }
            }
        }
    }
}
