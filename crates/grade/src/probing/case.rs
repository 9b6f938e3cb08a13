//! The fuzzer's inputs: a [`Recipe`] (what kind of input, at which side, from
//! which seed, laid out how) renders to a [`Doc`] (the lines, their tokens
//! and the blanks between them), which renders to the bytes a program reads.
//!
//! The shrinker works on both: it asks for the same recipe at a smaller side
//! or with a plainer layout, then edits the document token by token.

use puzzle::board_adt::Board;
use puzzle::{standard_cells, SplitMix64};

/// Where the blank of a valid start board goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blank {
    /// Wherever the shuffle puts it.
    Anywhere,
    /// Somewhere in this row (modulo the side), from 0.
    Row(usize),
    /// The last token of the line.
    Last,
}

/// What the goal board of a valid puzzle looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// `1 2 ... b`.
    Standard,
    /// Any arrangement.
    Random,
}

/// The kinds of bad input `SPEC.md` lists, each made from a valid puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A tile written over with another: one tile twice, one missing.
    Duplicate,
    /// One token fewer.
    Missing,
    /// One token more.
    Extra,
    /// A tile of `N*N` or more.
    OutOfRange,
    /// A tile 0.
    Zero,
    /// A tile past 2^32 (one that wraps to a tile of the board in 32 bits).
    Huge,
    /// A tile written over with a second `b`.
    TwoBlanks,
    /// The blank written over with N*N: a board of the tiles 1 to N*N.
    NoBlank,
    /// A token that is not a number: a letter, a sign, a point, `B`...
    NonNumber,
    /// The board of another side.
    SizeMismatch,
    /// The board's line empty, or blanks only.
    EmptyLine,
    /// The goal line missing.
    OneLine,
    /// Something after the goal line.
    ThirdLine,
    /// No input at all.
    EmptyInput,
    /// A separator that is neither a space nor a tab (a vertical tab, a form
    /// feed, a comma, a lone carriage return).
    BadSeparator,
    /// A separator C's `isspace` takes for a blank, though it is none here:
    /// a vertical tab, a form feed or a lone carriage return (not in
    /// [`Fault::ALL`]: the experiments on causes ask for it).
    SpaceLike,
    /// A NUL byte between two tokens (not in [`Fault::ALL`], likewise).
    Nul,
    /// A tile `t` written `t + 2^32`: read into 32 bits, the board is valid
    /// (not in [`Fault::ALL`], likewise).
    Wraps,
    /// A tile written over with a run of 20 to 60 digits, past what 64
    /// bits hold, as the fixtures' huge numbers are (not in [`Fault::ALL`],
    /// likewise).
    Overlong,
    /// A tile `t` written with other characters after its digits (`t.5`,
    /// `ta`): `atoi` or `%d` reads its digits alone (not in
    /// [`Fault::ALL`], likewise).
    Trailing,
    /// A tile written as a negative number (not in [`Fault::ALL`],
    /// likewise).
    Negative,
}

impl Fault {
    /// Every fault, in the order the fuzzer takes them.
    pub const ALL: [Fault; 15] = [
        Fault::Duplicate,
        Fault::Missing,
        Fault::OutOfRange,
        Fault::TwoBlanks,
        Fault::NonNumber,
        Fault::SizeMismatch,
        Fault::EmptyLine,
        Fault::Extra,
        Fault::Zero,
        Fault::NoBlank,
        Fault::Huge,
        Fault::OneLine,
        Fault::ThirdLine,
        Fault::BadSeparator,
        Fault::EmptyInput,
    ];
}

/// What an input is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A valid puzzle.
    Valid {
        /// Whether the goal is reachable.
        solvable: bool,
        /// The goal's shape.
        goal: Goal,
        /// Where the start's blank goes.
        blank: Blank,
    },
    /// The start's tiles in descending order, the goal `1 2 ... b`: about
    /// `N^4 / 2` inversions, past 2^31 from side 257 on.
    Reversed {
        /// Whether the goal is reachable.
        solvable: bool,
    },
    /// A valid puzzle made bad in one way, on one board (0 the start, 1 the goal).
    Bad {
        /// What is wrong.
        fault: Fault,
        /// Which board.
        board: usize,
        /// Whether the puzzle it is made from has the goal `1 2 ... b` (the
        /// experiments', so that only the fault is out of the ordinary), or
        /// either goal.
        plain: bool,
    },
}

/// How the tokens are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Spaces between tokens (at least 1).
    pub spaces: usize,
    /// Separators of tabs and spaces mixed, instead.
    pub tabs: bool,
    /// Spaces and tabs at the start and end of the lines.
    pub edges: bool,
    /// `\r\n` line ends (a choice the assignment leaves open).
    pub crlf: bool,
    /// The last line ends with a newline.
    pub final_newline: bool,
    /// Spaces added at the end of line `pad_line`.
    pub pad: usize,
    /// The line that gets the pad (from 0; the last one when there are fewer).
    pub pad_line: usize,
}

impl Layout {
    /// One space between tokens, nothing else.
    pub const PLAIN: Layout = Layout {
        spaces: 1,
        tabs: false,
        edges: false,
        crlf: false,
        final_newline: true,
        pad: 0,
        pad_line: 0,
    };
}

/// An input, as the fuzzer makes it: the same recipe always gives the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// What it is made of.
    pub kind: Kind,
    /// The side of its boards (at least 2).
    pub side: usize,
    /// The seed of its shuffles.
    pub seed: u64,
    /// How its tokens are laid out.
    pub layout: Layout,
}

/// One line of input: blanks, tokens with separators between, blanks.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Line {
    /// What comes before the first token.
    pub lead: Vec<u8>,
    /// The tokens.
    pub tokens: Vec<Vec<u8>>,
    /// The separators: one fewer than the tokens.
    pub seps: Vec<Vec<u8>>,
    /// What comes after the last token (a `\r` of a CRLF included).
    pub trail: Vec<u8>,
}

impl Line {
    fn render_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.lead);
        for (i, token) in self.tokens.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(&self.seps[i - 1]);
            }
            out.extend_from_slice(token);
        }
        out.extend_from_slice(&self.trail);
    }

    /// Its length in bytes, without the newline.
    pub fn len(&self) -> usize {
        let mut bytes = Vec::new();
        self.render_into(&mut bytes);
        bytes.len()
    }
}

/// An input as lines of tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doc {
    /// The lines.
    pub lines: Vec<Line>,
    /// Whether the last line ends with a newline.
    pub final_newline: bool,
}

impl Doc {
    /// The bytes a program reads.
    pub fn render(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            line.render_into(&mut out);
            if i + 1 < self.lines.len() || self.final_newline {
                out.push(b'\n');
            }
        }
        out
    }

    /// How big it is, for the shrinker, which only ever goes down this
    /// order: the most tokens on a line, then the bytes (a missing final
    /// newline counted as one, and as an odd byte), then the tiles not
    /// where `1 2 ... b` has them, then the bytes that are neither digits,
    /// `b`, spaces nor newlines, then the sum of the numbers.
    pub fn size(&self) -> (usize, usize, usize, usize, u128) {
        let tokens = self.lines.iter().map(|l| l.tokens.len()).max().unwrap_or(0);
        let bytes = self.render();
        // A missing final newline counts as a byte, and an odd one.
        let unended = usize::from(!self.lines.is_empty() && !self.final_newline);
        let misplaced = self.lines.iter().map(misplaced).sum();
        let odd = bytes
            .iter()
            .filter(|&&b| !(b.is_ascii_digit() || b == b'b' || b == b' ' || b == b'\n'))
            .count();
        let sum = self
            .lines
            .iter()
            .flat_map(|l| &l.tokens)
            .filter_map(|t| number(t))
            .fold(0u128, u128::saturating_add);
        (tokens, bytes.len() + unended, misplaced, odd + unended, sum)
    }

    /// The side of its largest board, as the most tokens on a line shows it.
    #[cfg(test)]
    pub fn side(&self) -> usize {
        let tokens = self.lines.iter().map(|l| l.tokens.len()).max().unwrap_or(0);
        puzzle::board_adt::isqrt(tokens as u64) as usize
    }
}

/// The token `1 2 ... b` has at `i` on a line of `count` tokens.
pub fn standard_token(i: usize, count: usize) -> Vec<u8> {
    if i + 1 == count {
        b"b".to_vec()
    } else {
        (i + 1).to_string().into_bytes()
    }
}

/// The tokens of `line` that are not where `1 2 ... b` has them.
fn misplaced(line: &Line) -> usize {
    let n = line.tokens.len();
    (0..n)
        .filter(|&i| line.tokens[i] != standard_token(i, n))
        .count()
}

/// The value of a token of digits only (at most 38 of them).
pub fn number(token: &[u8]) -> Option<u128> {
    if token.is_empty() || token.len() > 38 || !token.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// The tokens that are not numbers, for [`Fault::NonNumber`].
const NOT_NUMBERS: [&str; 12] = [
    "x", "3a", "-3", "1.5", "B", "0x1", "1,2", "\u{0663}", "bb", "b3", "#", "one",
];

/// Separators that are neither a space nor a tab, for [`Fault::BadSeparator`].
const BAD_SEPARATORS: [&str; 4] = ["\x0b", "\x0c", ",", "\r"];

/// Separators C's `isspace` takes for blanks, for [`Fault::SpaceLike`].
const SPACE_LIKE: [&str; 3] = ["\x0b", "\x0c", "\r"];

impl Recipe {
    /// The smallest side this recipe makes sense at.
    pub fn min_side(&self) -> usize {
        2
    }

    /// The same recipe at `side`, its `k`-th variant: another seed, and for
    /// a valid puzzle the other verdict every second one and the blank a
    /// row further every two (so that some variant shows a fault that needs
    /// a verdict or a row).
    pub fn variant(&self, side: usize, k: u64) -> Recipe {
        let mut r = *self;
        r.side = side;
        if k > 0 {
            r.seed = puzzle::mix(self.seed ^ k);
        }
        let flip = k % 2 == 1;
        r.kind = match self.kind {
            Kind::Valid {
                solvable,
                goal,
                blank,
            } => Kind::Valid {
                solvable: solvable ^ flip,
                goal,
                blank: match blank {
                    Blank::Row(row) => Blank::Row(row + (k / 2) as usize),
                    other => other,
                },
            },
            Kind::Reversed { solvable } => Kind::Reversed {
                solvable: solvable ^ flip,
            },
            bad => bad,
        };
        r
    }

    /// The input as lines of tokens: the boards' cells, their tokens with
    /// the fault (if any) put in, the lines laid out, then what the fault
    /// and the layout change on the lines.
    pub fn render(&self) -> Doc {
        let side = self.side.max(2);
        let mut rng = SplitMix64::new(self.seed);
        let (start, goal) = self.cells(side, &mut rng);
        let mut boards = Boards {
            tokens: vec![tokens_of(&start), tokens_of(&goal)],
            bad_separator: None,
            line_after: None,
        };
        if let Kind::Bad { fault, board, .. } = self.kind {
            boards.put_fault(fault, board.min(1), side, &mut rng);
        }
        // The layout has a stream of its own, so that a plainer layout keeps the boards.
        let mut lay = SplitMix64::new(self.seed ^ 0x5EED_1A70_u64);
        let mut lines: Vec<Line> = boards
            .tokens
            .into_iter()
            .map(|tokens| self.layout.line(tokens, &mut lay))
            .collect();
        if let Some((board, gap, sep)) = boards.bad_separator {
            if let Some(s) = lines.get_mut(board).and_then(|l| l.seps.get_mut(gap)) {
                *s = sep;
            }
        }
        if let Kind::Bad {
            fault: Fault::EmptyLine,
            board,
            ..
        } = self.kind
        {
            blank_out(&mut lines, board.min(1), &mut rng);
        }
        if let Some(text) = boards.line_after {
            lines.push(Line {
                tokens: vec![text],
                ..Line::default()
            });
        }
        self.layout.end_lines(&mut lines);
        Doc {
            lines,
            final_newline: self.layout.final_newline,
        }
    }

    /// The cells of the start and goal boards, before any fault.
    fn cells(&self, side: usize, rng: &mut SplitMix64) -> (Vec<u32>, Vec<u32>) {
        match self.kind {
            Kind::Valid {
                solvable,
                goal,
                blank,
            } => valid_cells(rng, side, solvable, goal, blank),
            Kind::Reversed { solvable } => {
                let cells = side * side;
                let mut start: Vec<u32> = (1..cells as u32).rev().collect();
                start.push(0);
                let goal = standard_cells(side);
                if reaches(&start, &goal) != solvable {
                    start.swap(0, 1);
                }
                (start, goal)
            }
            Kind::Bad { plain, .. } => {
                let solvable = rng.below(2) == 0;
                let goal = if rng.below(2) == 0 || plain {
                    Goal::Standard
                } else {
                    Goal::Random
                };
                valid_cells(rng, side, solvable, goal, Blank::Anywhere)
            }
        }
    }
}

/// The boards' tokens, and what a fault changes once they are laid out as
/// lines.
struct Boards {
    /// The tokens of each board: the start's, the goal's.
    tokens: Vec<Vec<Vec<u8>>>,
    /// A separator put in: the board, the gap, the bytes.
    bad_separator: Option<(usize, usize, Vec<u8>)>,
    /// A line added after the goal line.
    line_after: Option<Vec<u8>>,
}

impl Boards {
    /// Puts `fault` into `board` (0 or 1), a board of `side`, or into the
    /// lines: those of the whole input, or those [`Recipe::render`] changes
    /// after the layout.
    fn put_fault(&mut self, fault: Fault, board: usize, side: usize, rng: &mut SplitMix64) {
        let cells = side * side;
        match fault {
            Fault::OneLine => self.tokens.truncate(1),
            Fault::ThirdLine => {
                self.line_after = Some(if rng.below(2) == 0 {
                    b"x".to_vec()
                } else {
                    self.tokens[1].join(&b' ')
                });
            }
            Fault::EmptyInput => self.tokens.clear(),
            Fault::BadSeparator | Fault::SpaceLike | Fault::Nul => {
                let gap = rng.index(cells - 1);
                let sep = match fault {
                    Fault::BadSeparator => BAD_SEPARATORS[rng.index(BAD_SEPARATORS.len())],
                    Fault::SpaceLike => SPACE_LIKE[rng.index(SPACE_LIKE.len())],
                    _ => "\0",
                };
                self.bad_separator = Some((board, gap, sep.as_bytes().to_vec()));
            }
            _ => break_tokens(fault, &mut self.tokens[board], side, rng),
        }
    }
}

/// Puts `fault`, one of those of a single board, into its `tokens`, a board
/// of `side`.
fn break_tokens(fault: Fault, tokens: &mut Vec<Vec<u8>>, side: usize, rng: &mut SplitMix64) {
    let cells = side * side;
    let blank_at = tokens.iter().position(|t| t == b"b").unwrap_or(0);
    let tile_at = |rng: &mut SplitMix64| loop {
        let i = rng.index(cells);
        if i != blank_at {
            break i;
        }
    };
    match fault {
        Fault::Duplicate => {
            let i = tile_at(rng);
            let mut j = tile_at(rng);
            while j == i {
                j = tile_at(rng);
            }
            tokens[i] = tokens[j].clone();
        }
        Fault::Missing => {
            let i = rng.index(cells);
            tokens.remove(i);
        }
        Fault::Extra => {
            let i = rng.index(cells + 1);
            tokens.insert(i, (1 + rng.index(cells - 1)).to_string().into_bytes());
        }
        Fault::OutOfRange => {
            let i = tile_at(rng);
            let v = cells + rng.index(3 * cells);
            tokens[i] = v.to_string().into_bytes();
        }
        Fault::Zero => {
            let i = tile_at(rng);
            tokens[i] = b"0".to_vec();
        }
        Fault::Wraps => {
            let i = tile_at(rng);
            let wraps = number(&tokens[i]).unwrap_or(1) + (1u128 << 32);
            tokens[i] = wraps.to_string().into_bytes();
        }
        Fault::Overlong => {
            let i = tile_at(rng);
            let len = 20 + rng.index(41);
            let mut digits = vec![b'9'; len];
            // A run of one digit, as the fixtures have it, or of any.
            if rng.below(2) == 0 {
                for d in digits.iter_mut().skip(1) {
                    *d = b'0' + rng.index(10) as u8;
                }
            }
            tokens[i] = digits;
        }
        Fault::Huge => {
            let i = tile_at(rng);
            let j = tile_at(rng);
            let wraps = number(&tokens[j]).unwrap_or(1) + (1u128 << 32);
            tokens[i] = if rng.below(4) == 0 {
                b"99999999999999999999999".to_vec()
            } else {
                wraps.to_string().into_bytes()
            };
        }
        Fault::TwoBlanks => {
            let i = tile_at(rng);
            tokens[i] = b"b".to_vec();
        }
        Fault::NoBlank => {
            // N*N, the next number, as the fixtures have it (a board that
            // counts to N*N): a tile written over the blank would be a
            // tile twice as well, which most programs reject for that.
            tokens[blank_at] = cells.to_string().into_bytes();
        }
        Fault::Trailing | Fault::Negative => {
            let i = tile_at(rng);
            let digits = String::from_utf8_lossy(&tokens[i]).into_owned();
            tokens[i] = match (fault, rng.index(3)) {
                (Fault::Negative, _) => format!("-{digits}"),
                (_, 0) => format!("{digits}.5"),
                (_, 1) => format!("{digits}a"),
                _ => format!("{digits}.0"),
            }
            .into_bytes();
        }
        Fault::NonNumber => {
            let i = rng.index(cells);
            tokens[i] = NOT_NUMBERS[rng.index(NOT_NUMBERS.len())]
                .as_bytes()
                .to_vec();
        }
        Fault::SizeMismatch => {
            let other = if side > 2 && rng.below(2) == 0 {
                side - 1
            } else {
                side + 1
            };
            let mut cells = standard_cells(other);
            rng.shuffle(&mut cells);
            *tokens = tokens_of(&cells);
        }
        Fault::EmptyLine => tokens.clear(),
        Fault::OneLine
        | Fault::ThirdLine
        | Fault::EmptyInput
        | Fault::BadSeparator
        | Fault::SpaceLike
        | Fault::Nul => {
            unreachable!("{fault:?} is a fault of the lines, not of a board")
        }
    }
}

/// The line of [`Fault::EmptyLine`], `board`, made blanks only (or nothing).
fn blank_out(lines: &mut [Line], board: usize, rng: &mut SplitMix64) {
    if let Some(line) = lines.get_mut(board) {
        line.lead = [&b""[..], b" ", b"\t "][rng.index(3)].to_vec();
        line.trail.clear();
    }
}

impl Layout {
    /// A board's `tokens` laid out as a line, its separators and edges drawn
    /// from `lay`.
    fn line(&self, tokens: Vec<Vec<u8>>, lay: &mut SplitMix64) -> Line {
        let gaps = tokens.len().saturating_sub(1);
        let seps = (0..gaps)
            .map(|_| {
                if self.tabs {
                    [&b" "[..], b"\t", b" \t", b"\t\t "][lay.index(4)].to_vec()
                } else {
                    vec![b' '; self.spaces.max(1)]
                }
            })
            .collect();
        let mut edge = || {
            if self.edges {
                [&b""[..], b" ", b"\t", b" \t "][lay.index(4)].to_vec()
            } else {
                Vec::new()
            }
        };
        let lead = edge();
        let trail = edge();
        Line {
            lead,
            tokens,
            seps,
            trail,
        }
    }

    /// The line ends: a `\r` on each line for CRLF, then the pad before the
    /// `\r` of its line.
    fn end_lines(&self, lines: &mut [Line]) {
        for line in lines.iter_mut() {
            if self.crlf {
                line.trail.push(b'\r');
            }
        }
        if self.pad > 0 && !lines.is_empty() {
            let at = self.pad_line.min(lines.len() - 1);
            let line = &mut lines[at];
            let cr = line.trail.last() == Some(&b'\r');
            if cr {
                line.trail.pop();
            }
            line.trail.resize(line.trail.len() + self.pad, b' ');
            if cr {
                line.trail.push(b'\r');
            }
        }
    }
}

/// A valid pair of boards: cells, 0 for the blank.
fn valid_cells(
    rng: &mut SplitMix64,
    side: usize,
    solvable: bool,
    goal: Goal,
    blank: Blank,
) -> (Vec<u32>, Vec<u32>) {
    let cells = side * side;
    let mut start = standard_cells(side);
    rng.shuffle(&mut start);
    let mut goal_cells = standard_cells(side);
    if goal == Goal::Random {
        rng.shuffle(&mut goal_cells);
    }
    let target = match blank {
        Blank::Anywhere => None,
        Blank::Row(row) => Some((row % side) * side + rng.index(side)),
        Blank::Last => Some(cells - 1),
    };
    if let Some(target) = target {
        let at = start.iter().position(|&t| t == 0).unwrap_or(0);
        start.swap(at, target);
    }
    if reaches(&start, &goal_cells) != solvable {
        // Two tiles swapped: the inversions' parity flips, the blank stays.
        let blank_at = start.iter().position(|&t| t == 0).unwrap_or(0);
        let (a, b) = if blank_at < 2 { (2, 3) } else { (0, 1) };
        start.swap(a, b);
    }
    (start, goal_cells)
}

/// Whether `goal` can be reached from `start`, both valid cells of one side.
fn reaches(start: &[u32], goal: &[u32]) -> bool {
    let board = |cells: &[u32]| Board::from_cells(cells.to_vec()).expect("valid cells");
    board(start).can_reach(&board(goal))
}

/// The tokens of a board's cells.
fn tokens_of(cells: &[u32]) -> Vec<Vec<u8>> {
    cells
        .iter()
        .map(|&c| {
            if c == 0 {
                b"b".to_vec()
            } else {
                c.to_string().into_bytes()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle::input::read_puzzle;

    fn valid(solvable: bool, blank: Blank) -> Kind {
        Kind::Valid {
            solvable,
            goal: Goal::Random,
            blank,
        }
    }

    #[test]
    fn valid_recipes_give_the_verdict_asked_for() {
        for side in 2..9 {
            for seed in 0..10 {
                for solvable in [true, false] {
                    for blank in [Blank::Anywhere, Blank::Row(seed as usize), Blank::Last] {
                        let recipe = Recipe {
                            kind: valid(solvable, blank),
                            side,
                            seed,
                            layout: Layout::PLAIN,
                        };
                        let bytes = recipe.render().render();
                        let puzzle = read_puzzle(&bytes[..]).expect("valid");
                        assert_eq!(puzzle.is_solvable(), solvable);
                        if blank == Blank::Last {
                            assert!(bytes.split(|&b| b == b'\n').next().unwrap().ends_with(b"b"));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_fault_is_bad_input() {
        for fault in Fault::ALL {
            for side in [2, 3, 5] {
                for seed in 0..8 {
                    let recipe = Recipe {
                        kind: Kind::Bad {
                            fault,
                            board: seed as usize % 2,
                            plain: false,
                        },
                        side,
                        seed,
                        layout: Layout::PLAIN,
                    };
                    let bytes = recipe.render().render();
                    let (lenient, _) = crate::judging::open_choice::lenient_reading(&bytes);
                    let bad = read_puzzle(&bytes[..]).is_err();
                    // Lines after the goal and blank lines are open choices: bad as written.
                    assert!(
                        bad,
                        "{fault:?} side {side} seed {seed}: {:?}",
                        String::from_utf8_lossy(&bytes)
                    );
                    let _ = lenient;
                }
            }
        }
    }

    #[test]
    fn reversed_boards_pass_two_to_the_31_inversions_from_side_257() {
        let recipe = Recipe {
            kind: Kind::Reversed { solvable: true },
            side: 257,
            seed: 1,
            layout: Layout::PLAIN,
        };
        let doc = recipe.render();
        assert_eq!(doc.lines[0].tokens.len(), 257 * 257);
        assert_eq!(doc.lines[0].tokens[0], b"66048");
        assert!(read_puzzle(&doc.render()[..]).unwrap().is_solvable());
    }

    #[test]
    fn a_plainer_layout_keeps_the_boards_and_the_pad_goes_where_asked() {
        let mut recipe = Recipe {
            kind: valid(true, Blank::Anywhere),
            side: 4,
            seed: 3,
            layout: Layout {
                tabs: true,
                edges: true,
                crlf: true,
                pad: 10,
                pad_line: 1,
                final_newline: false,
                spaces: 1,
            },
        };
        let fancy = recipe.render();
        recipe.layout = Layout::PLAIN;
        let plain = recipe.render();
        assert_eq!(fancy.lines[0].tokens, plain.lines[0].tokens);
        assert!(fancy.lines[1].trail.ends_with(b"          \r"));
        assert!(!fancy.render().ends_with(b"\n"));
        assert_eq!(plain.side(), 4);
    }
}
