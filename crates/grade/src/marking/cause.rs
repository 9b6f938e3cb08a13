//! The cause a class's failing fixtures share, read from the fixtures'
//! bytes: the report's `cause` lines and the feedback's "Likely cause".
//!
//! A fixture's [`Shape`] is what its bytes show (the side, the longest line,
//! the inversions, where the blank is, the kinds of token and separator);
//! [`shared_cause`] names what every failing fixture of a class has and,
//! for the causes that need it, what sets them apart from the fixtures of
//! the same categories that did not fail so.

use crate::judging::judge::Class;
use crate::judging::text::{has_text, lines};
use puzzle::input::read_puzzle;

/// Kinds of token, separator and layout a fixture holds (bits of
/// [`Shape::kinds`]), each with the words of its cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A tab between tokens or at a line's end.
    Tab,
    /// Two or more blanks in a row between tokens.
    BlankRun,
    /// Blanks at the start or the end of a line.
    EdgeBlanks,
    /// A `\r` (CRLF line ends).
    CarriageReturn,
    /// No newline after the last line.
    NoFinalNewline,
    /// A number written with leading zeros.
    LeadingZeros,
    /// A number with a `+` sign.
    PlusSign,
    /// A number of 2^32 or more.
    HugeNumber,
    /// The number 0.
    Zero,
    /// A token that is neither a number nor `b`.
    NotANumber,
    /// An empty or blank line.
    BlankLine,
    /// A UTF-8 byte-order mark.
    ByteOrderMark,
    /// More than two lines with text.
    ExtraLine,
}

impl Kind {
    /// Every kind, in the order causes are looked for.
    pub const ALL: [Kind; 13] = [
        Kind::HugeNumber,
        Kind::Zero,
        Kind::NotANumber,
        Kind::PlusSign,
        Kind::LeadingZeros,
        Kind::ByteOrderMark,
        Kind::CarriageReturn,
        Kind::NoFinalNewline,
        Kind::BlankLine,
        Kind::ExtraLine,
        Kind::Tab,
        Kind::EdgeBlanks,
        Kind::BlankRun,
    ];

    fn bit(self) -> u32 {
        1 << (self as u32)
    }

    /// What every fixture of a cause has, and why it matters.
    fn words(self) -> &'static str {
        match self {
            Kind::Tab => {
                "all have a tab between tokens or at a line's end (the assignment: tokens \
                 are separated by any number of blanks and/or tabs)"
            }
            Kind::BlankRun => "all have several blanks in a row between tokens",
            Kind::EdgeBlanks => "all have blanks at the start or the end of a line",
            Kind::CarriageReturn => "all have CRLF line ends (a '\\r' before each newline)",
            Kind::NoFinalNewline => {
                "all end without a newline after the goal line (the last token is still a \
                 token)"
            }
            Kind::LeadingZeros => "all have numbers written with leading zeros",
            Kind::PlusSign => "all have a number with a '+' sign",
            Kind::HugeNumber => {
                "all have a number of 2^32 or more: read into 32 bits it wraps around to a \
                 small tile (read the digits, or check the range before converting)"
            }
            Kind::Zero => "all have the number 0, which is no tile",
            Kind::NotANumber => "all have a token that is neither a number nor b",
            Kind::BlankLine => "all have an empty or blank line",
            Kind::ByteOrderMark => "all start with a UTF-8 byte-order mark",
            Kind::ExtraLine => "all have text after the goal line",
        }
    }
}

/// A cause an experiment confirmed (see `modes/fuzz/experiment.rs`): what
/// the program gets wrong, the evidence, and the failing fixtures it
/// explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirmed {
    /// The class of fault it causes.
    pub class: Class,
    /// What the program gets wrong, in words for the student.
    pub words: String,
    /// What the experiment showed, in a line: `with ..., 10 of 10 inputs
    /// failed so; with ..., 0 of 10`.
    pub evidence: String,
    /// The failing fixtures (indices into the grading's fixtures) it
    /// explains.
    pub fixtures: Vec<usize>,
    /// The smallest input of the experiment that showed it.
    pub smallest: Option<Vec<u8>>,
}

/// Where a board's blank is, in a board of its side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blank {
    /// Its row, from 1.
    pub row: usize,
    /// Its column, from 1.
    pub column: usize,
    /// The board's side.
    pub side: usize,
}

/// What a fixture's bytes show about it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// The side of its start board, when its first line is a square of tokens.
    pub side: Option<usize>,
    /// Its longest line, in bytes.
    pub longest_line: usize,
    /// The inversions of its start board, when it is a valid puzzle.
    pub inversions: Option<u64>,
    /// The blank of the start and of the goal board, when the line is a
    /// square of tokens with one `b`.
    pub blanks: [Option<Blank>; 2],
    /// The [`Kind`]s it holds, a bit each.
    pub kinds: u32,
}

fn is_blank(b: &u8) -> bool {
    matches!(b, b' ' | b'\t')
}

/// The tokens of a line: its runs of bytes other than blanks and `\r`.
fn tokens(line: &[u8]) -> Vec<&[u8]> {
    line.split(|b| matches!(b, b' ' | b'\t' | b'\r'))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The side of a line of tokens, when it is a square of 4 or more.
fn side_of(tokens: usize) -> Option<usize> {
    let side = (tokens as f64).sqrt().round() as usize;
    (side >= 2 && side * side == tokens).then_some(side)
}

impl Shape {
    /// The shape of `bytes`.
    pub fn of(bytes: &[u8]) -> Shape {
        let all = lines(bytes);
        let longest_line = all.iter().map(|l| l.len()).max().unwrap_or(0);
        let boards: Vec<&[u8]> = all.iter().copied().filter(|l| has_text(l)).collect();
        let side = boards.first().and_then(|l| side_of(tokens(l).len()));
        let mut blanks = [None; 2];
        for (i, line) in boards.iter().take(2).enumerate() {
            let tokens = tokens(line);
            let at: Vec<usize> = (0..tokens.len()).filter(|&k| tokens[k] == b"b").collect();
            if let (Some(side), [at]) = (side_of(tokens.len()), at.as_slice()) {
                blanks[i] = Some(Blank {
                    row: at / side + 1,
                    column: at % side + 1,
                    side,
                });
            }
        }
        let inversions = read_puzzle(bytes)
            .ok()
            .map(|p| puzzle::board_adt::Disorder::of(p.start(), 0).tile_sum());
        Shape {
            side,
            longest_line,
            inversions,
            blanks,
            kinds: kinds_of(bytes, &all),
        }
    }

    /// Whether it holds `kind`.
    pub fn has(&self, kind: Kind) -> bool {
        self.kinds & kind.bit() != 0
    }
}

fn kinds_of(bytes: &[u8], all: &[&[u8]]) -> u32 {
    let mut kinds = 0;
    let mut note = |kind: Kind| kinds |= kind.bit();
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        note(Kind::ByteOrderMark);
    }
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        note(Kind::NoFinalNewline);
    }
    if all.iter().filter(|l| has_text(l)).count() > 2 {
        note(Kind::ExtraLine);
    }
    for (i, line) in all.iter().enumerate() {
        let line = if i == 0 {
            line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
        } else {
            line
        };
        if line.contains(&b'\r') {
            note(Kind::CarriageReturn);
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !has_text(line) {
            note(Kind::BlankLine);
            continue;
        }
        if line.contains(&b'\t') {
            note(Kind::Tab);
        }
        if line.first().is_some_and(is_blank) || line.last().is_some_and(is_blank) {
            note(Kind::EdgeBlanks);
        }
        if line.windows(2).any(|w| is_blank(&w[0]) && is_blank(&w[1])) {
            note(Kind::BlankRun);
        }
        for token in tokens(line) {
            let digits = token.strip_prefix(b"+").unwrap_or(token);
            if token == b"b" {
                continue;
            }
            if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                note(Kind::NotANumber);
                continue;
            }
            if token[0] == b'+' {
                note(Kind::PlusSign);
            }
            let significant = {
                let zeros = digits.iter().take_while(|&&d| d == b'0').count();
                &digits[zeros.min(digits.len() - 1)..]
            };
            if significant.len() < digits.len() {
                note(Kind::LeadingZeros);
            }
            if significant == b"0" {
                note(Kind::Zero);
            } else if significant.len() > 10
                || (significant.len() == 10 && significant >= &b"4294967296"[..])
            {
                note(Kind::HugeNumber);
            }
        }
    }
    kinds
}

/// Whether a board's blank is at a place.
type Place = fn(&Blank) -> bool;

/// A place of the blank that a group of fixtures may share, in the order
/// looked for, with the words of its cause.
const PLACES: [(&str, Place); 4] = [
    (
        "all have a board whose blank is in its last column: a row computed from a \
         1-based position (pos / N + 1) is one too many there",
        |b| b.column == b.side,
    ),
    ("all have a board whose blank is in its last row", |b| {
        b.row == b.side
    }),
    ("all have a board whose blank is in its first row", |b| {
        b.row == 1
    }),
    ("all have a board whose blank is in its first column", |b| {
        b.column == 1
    }),
];

/// The cause the `failing` fixtures of one class share, in words, if any;
/// `others` are the fixtures of the same categories that did not fail so,
/// against which a cause must stand out.
///
/// In this order: a wrong verdict on boards past 2^31 inversions (one is
/// enough: only such boards show it); with two fixtures or more, a wrong
/// verdict on boards of an even side only; a fault on lines over 1, 4 or 64
/// KiB only; timeouts on boards of 100x100 or more only; then, where some
/// other fixture lacks it: every board of one size fails so (2x2, the
/// smallest, named as such), boards of an odd side only, the blank in the
/// last column, the last row, the first row or the first column of a board,
/// and a kind of token or layout ([`Kind`]: numbers of 2^32 or more, 0, a
/// token neither a number nor b, signs, leading zeros, a byte-order mark,
/// CRLF, no final newline, blank lines, lines after the goal, tabs, blanks
/// at a line's ends, runs of blanks).
pub fn shared_cause(class: Class, failing: &[Shape], others: &[Shape]) -> Option<String> {
    if failing.is_empty() {
        return None;
    }
    let all = |test: &dyn Fn(&Shape) -> bool| failing.iter().all(test);
    if class == Class::WrongVerdict && all(&|s| s.inversions.is_some_and(|i| i >= 1 << 31)) {
        return Some(
            "all have 2^31 inversions or more: a 32-bit counter overflows there (count in a \
             64-bit or unsigned type, or keep only the parity)"
                .into(),
        );
    }
    if failing.len() < 2 {
        return None;
    }
    if class == Class::WrongVerdict && all(&|s| s.side.is_some_and(|n| n % 2 == 0)) {
        return Some(
            "all are boards of an even side: there the blank's row counts too (the \
             tutorial's rule: disorder plus the blank's row, for both boards)"
                .into(),
        );
    }
    let shortest_longest = failing.iter().map(|s| s.longest_line).min().unwrap_or(0);
    let line_faults = [
        Class::WrongVerdict,
        Class::MissedError,
        Class::FalseError,
        Class::Crash,
    ];
    if line_faults.contains(&class) {
        if let Some(limit) = [65536, 4096, 1024]
            .into_iter()
            .find(|&l| shortest_longest > l)
        {
            return Some(format!(
                "all have lines over {} bytes: a fixed-size line buffer cuts them (read \
                 token by token, or grow the buffer)",
                group_digits(limit)
            ));
        }
    }
    if class == Class::Timeout {
        let least = failing.iter().map(|s| s.side.unwrap_or(0)).min();
        if let Some(side) = least.filter(|&n| n >= 100) {
            return Some(format!(
                "all are boards of {side}x{side} or larger: count the inversions in \
                 O(n log n) (merge sort, or a Fenwick tree), not pair by pair"
            ));
        }
    }
    // The causes below must set the failing fixtures apart.
    let apart = |test: &dyn Fn(&Shape) -> bool| all(test) && others.iter().any(|s| !test(s));
    if let Some(side) = failing[0].side {
        let sized = |s: &Shape| s.side == Some(side);
        if apart(&sized) && !others.iter().any(sized) {
            return Some(if side == 2 {
                "all are 2x2 boards, and every 2x2 board fails so: the smallest board the \
                 assignment allows (N starts at 2)"
                    .into()
            } else {
                format!("all are {side}x{side} boards, and every {side}x{side} board fails so")
            });
        }
    }
    if apart(&|s| s.side.is_some_and(|n| n % 2 == 1)) {
        let why = if class == Class::WrongVerdict {
            ": there the blank's row does not count (the tiles' disorder alone)"
        } else {
            " (N may be any whole number from 2 up)"
        };
        return Some(format!("all are boards of an odd side{why}"));
    }
    for (words, place) in PLACES {
        if apart(&|s| s.blanks.iter().flatten().any(place)) {
            return Some(words.into());
        }
    }
    Kind::ALL
        .into_iter()
        .find(|&kind| apart(&|s| s.has(kind)))
        .map(|kind| kind.words().into())
}

/// `n` with its digits grouped by threes: `65,536`.
pub fn group_digits(n: usize) -> String {
    let text = n.to_string();
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i > 0 && (text.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shape_sees_the_side_the_lines_the_inversions_and_the_blanks() {
        let s = Shape::of(b"2 1 3 b\n1 b 3 2\n");
        assert_eq!(s.side, Some(2));
        assert_eq!(s.longest_line, 7);
        assert_eq!(s.inversions, Some(1));
        let blank = |row, column| {
            Some(Blank {
                row,
                column,
                side: 2,
            })
        };
        assert_eq!(s.blanks, [blank(2, 2), blank(1, 2)]);
        assert_eq!(s.kinds, 0);
        assert_eq!(Shape::of(b"1 2 3\n").side, None);
    }

    #[test]
    fn a_shape_sees_the_kinds_of_token_and_layout() {
        let kinds = |bytes: &[u8]| {
            let s = Shape::of(bytes);
            Kind::ALL
                .into_iter()
                .filter(|&k| s.has(k))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            kinds(b"1\t2 3 b\n1 2 3 b"),
            [Kind::NoFinalNewline, Kind::Tab]
        );
        assert_eq!(
            kinds(b" 1  2 3 b\r\n1 2 3 b\r\n"),
            [Kind::CarriageReturn, Kind::EdgeBlanks, Kind::BlankRun]
        );
        assert_eq!(kinds(b"4294967297 2 3 b\n1 2 3 b\n"), [Kind::HugeNumber]);
        assert_eq!(kinds(b"4294967295 2 3 b\n"), []);
        assert_eq!(
            kinds(b"+1 02 0 x\n\n1 2 3 b\nmore\n"),
            [
                Kind::Zero,
                Kind::NotANumber,
                Kind::PlusSign,
                Kind::LeadingZeros,
                Kind::BlankLine,
                Kind::ExtraLine
            ]
        );
    }

    fn shape(bytes: &[u8]) -> Shape {
        Shape::of(bytes)
    }

    #[test]
    fn the_first_causes_need_only_the_failing_fixtures() {
        let even = Shape {
            side: Some(4),
            longest_line: 40,
            inversions: Some(3),
            ..Shape::default()
        };
        let odd = Shape {
            side: Some(3),
            longest_line: 20,
            inversions: Some(2),
            ..Shape::default()
        };
        let long = Shape {
            side: Some(30),
            longest_line: 2000,
            inversions: Some(9),
            ..Shape::default()
        };
        assert!(shared_cause(Class::WrongVerdict, &[even, even], &[])
            .unwrap()
            .starts_with("all are boards of an even side"));
        assert_eq!(shared_cause(Class::WrongVerdict, &[even, odd], &[]), None);
        assert!(shared_cause(Class::FalseError, &[long, long], &[])
            .unwrap()
            .starts_with("all have lines over 1,024 bytes"));
        assert_eq!(shared_cause(Class::FalseError, &[long], &[]), None);
        assert_eq!(shared_cause(Class::Format, &[long, long], &[]), None);
        let huge = Shape {
            side: Some(257),
            longest_line: 400_000,
            inversions: Some(1 << 31),
            ..Shape::default()
        };
        assert!(shared_cause(Class::WrongVerdict, &[huge], &[])
            .unwrap()
            .contains("32-bit counter"));
    }

    #[test]
    fn the_other_causes_must_set_the_failing_fixtures_apart() {
        let two = shape(b"1 2 3 b\n1 2 b 3\n");
        let two_b = shape(b"2 1 3 b\n1 2 3 b\n");
        let three = shape(b"1 2 3 4 5 6 7 8 b\n1 2 3 4 5 6 7 b 8\n");
        let three_b = shape(b"1 2 3 4 b 6 7 8 5\n1 2 3 4 5 6 7 8 b\n");
        let four = shape(
            b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 b\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 b 15\n",
        );
        let five = shape(b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 b\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 b 24\n");
        let cause = |class, failing: &[Shape], others: &[Shape]| {
            shared_cause(class, failing, others).unwrap_or_default()
        };
        // Every 2x2 board fails, and only they.
        assert!(cause(Class::FalseError, &[two, two_b], &[three, four])
            .starts_with("all are 2x2 boards, and every 2x2 board fails so"));
        // Not when a 2x2 board passed.
        assert!(!cause(Class::FalseError, &[two, two_b], &[two, three]).starts_with("all are 2x2"));
        // The blank's place: in the last column of the start board (the
        // goals' blanks are elsewhere).
        let last_column = shape(b"1 2 3 4 5 b 7 8 6\n1 b 2 3 4 5 6 7 8\n");
        let first = shape(b"b 1 2 3 4 5 6 7 8\n1 2 3 4 5 6 7 b 8\n");
        assert!(cause(Class::WrongVerdict, &[two_b, last_column], &[first])
            .starts_with("all have a board whose blank is in its last column"));
        assert!(cause(Class::FalseError, &[three, three_b], &[four, two])
            .starts_with("all are 3x3 boards, and every 3x3 board fails so"));
        // Odd sides, of two sizes.
        assert_eq!(
            cause(Class::FalseError, &[three, five], &[two, four, three_b]),
            "all are boards of an odd side (N may be any whole number from 2 up)"
        );
        assert!(
            cause(Class::WrongVerdict, &[three, five], &[two, four, three_b])
                .contains("the blank's row does not count")
        );
        // Nothing stands out against fixtures that are all alike.
        assert_eq!(shared_cause(Class::FalseError, &[two, two_b], &[]), None);
        // A kind of separator.
        let tab = shape(b"1\t2 3 b\n1 2 b 3\n");
        let tab_b = shape(b"1 2 3 4 5 6 7 8 b\n1\t2 3 4 5 6 7 b 8\n");
        assert!(cause(Class::FalseError, &[tab, tab_b], &[two, three, four])
            .starts_with("all have a tab"));
        let huge = shape(b"1 2 3 4294967297\n1 2 3 b\n");
        let huge_b = shape(b"1 2 3 b\n1 2 99999999999 b\n");
        let dup = shape(b"1 1 3 b\n1 2 3 b\n");
        assert!(cause(Class::MissedError, &[huge, huge_b], &[dup])
            .starts_with("all have a number of 2^32 or more"));
    }
}
