//! What a fixture's bytes show ([`Shape`]: the side, the longest line, the
//! inversions, where the blank is, the kinds of token and separator), which
//! says which causes may explain a failing fixture; and a cause an
//! experiment on the program confirmed ([`Confirmed`]; all that the
//! experiments found: [`Experiments`]), which the report, the feedback and
//! the class page name. No cause is ever named from what
//! failing fixtures share alone (`probing/experiment.rs`).

use crate::judging::class::Class;
use crate::shared::text::{has_text, lines};
use puzzle::input::read_puzzle;

/// Kinds of token, separator and layout a fixture holds (bits of
/// [`Shape::kinds`]), each with the words of its cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A tab between tokens or at a line's end.
    Tab,
    /// Two or more blanks in a row between two tokens.
    BlankRun,
    /// Blanks at the start of a line.
    LeadingBlanks,
    /// Blanks at the end of a line (before its `\r`, if any).
    TrailingBlanks,
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
    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// A cause an experiment confirmed (see `probing/experiment.rs`): what
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

/// What the experiments on one program found: the causes confirmed, and
/// the failing fixtures that a candidate cause was tried for, whether it
/// was confirmed or not (a fixture of a class without candidates, or
/// whose feature no candidate has, or whose candidates the budget left
/// untried, is not among them: nothing was tried for it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Experiments {
    /// The causes confirmed.
    pub confirmed: Vec<Confirmed>,
    /// The failing fixtures (indices into the grading's fixtures) a
    /// candidate was tried for.
    pub tried: Vec<usize>,
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
        if line.first().is_some_and(is_blank) {
            note(Kind::LeadingBlanks);
        }
        if line.last().is_some_and(is_blank) {
            note(Kind::TrailingBlanks);
        }
        let first = line.iter().position(|b| !is_blank(b)).unwrap_or(0);
        let last = line.iter().rposition(|b| !is_blank(b)).map_or(0, |l| l + 1);
        let between = &line[first..last.max(first)];
        if between
            .windows(2)
            .any(|w| is_blank(&w[0]) && is_blank(&w[1]))
        {
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
            [
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
                Kind::LeadingBlanks,
                Kind::TrailingBlanks,
                Kind::BlankRun,
            ]
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
            [Kind::CarriageReturn, Kind::LeadingBlanks, Kind::BlankRun]
        );
        assert_eq!(
            kinds(b"1 2 3 b  \r\n1 2 3 b\n"),
            [Kind::CarriageReturn, Kind::TrailingBlanks]
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
}
