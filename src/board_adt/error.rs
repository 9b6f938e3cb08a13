//! What can be wrong with the input, one kind per fault, and the read error that
//! keeps those apart from failing system calls.
//!
//! Messages say where, then what: the board, then the token or tile at fault, in
//! lowercase without a trailing period, e.g. `goal board: tile 7 appears twice
//! (tokens 2 and 5)`. The binary prefixes them with `error: `.

use super::size::{isqrt, MAX_CELLS, MAX_SIDE};
use std::fmt;
use std::io;

/// A start line of this many tokens or fewer that is not a square gets a hint
/// that a board is one line: the first row of a board typed as a grid.
const GRID_HINT_TOKENS: u64 = 64;

/// Which of the two input lines a board comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The first line: the board the moves start from.
    Start,
    /// The second line: the board the moves must reach.
    Goal,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Start => "start",
            Role::Goal => "goal",
        })
    }
}

/// A fault in the input: which board, and what is wrong with it.
///
/// Compare errors whole (`PartialEq`) in tests, or look at [`BoardError::kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    board: Role,
    kind: ErrorKind,
}

/// The kinds of fault; token positions count from 1 within their line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The line holds no token at all (empty, or only spaces and tabs).
    EmptyLine,
    /// The input ended before the goal line began.
    MissingLine,
    /// A token that is neither a number of ASCII digits nor the letter `b`. The text
    /// is shown with unprintable bytes escaped, cut short after 40 bytes.
    InvalidToken {
        /// Where the token is in its line.
        position: u64,
        /// The token as it can be shown.
        text: String,
    },
    /// The number of tokens is not the square of a whole number.
    NotSquare {
        /// How many tokens the line has.
        tokens: u64,
    },
    /// One token: a 1x1 board, smaller than the smallest puzzle.
    TooSmall,
    /// More tokens than the largest board `puzzle` can hold ([`MAX_CELLS`]).
    TooLarge,
    /// No token is `b`.
    NoBlank,
    /// A second `b`.
    SeveralBlanks {
        /// Where the first `b` is.
        first: u64,
        /// Where the second `b` is.
        second: u64,
    },
    /// A number that is not a tile of this board: 0, or `N*N` or more.
    OutOfRange {
        /// Where the number is.
        position: u64,
        /// The number without leading zeros, cut short if it is very long.
        number: String,
        /// The board's side, or `None` when the number is too large for any board.
        side: Option<u64>,
    },
    /// A tile that occurs twice.
    Repeated {
        /// The tile.
        tile: u64,
        /// Where it first occurs.
        first: u64,
        /// Where it occurs again.
        second: u64,
    },
    /// The goal board's token count differs from the start board's.
    SizeMismatch {
        /// The start board's side.
        start_side: u64,
        /// The goal line's token count, or `None` when it has more tokens than the
        /// start board (reading stops there).
        goal_tokens: Option<u64>,
    },
    /// Something other than spaces and tabs after the goal line.
    ExtraInput {
        /// The line number, counting the start line as 1.
        line: u64,
        /// The start of that line as it can be shown.
        text: String,
    },
}

impl BoardError {
    /// A fault of `kind` in `board`.
    pub fn new(board: Role, kind: ErrorKind) -> BoardError {
        BoardError { board, kind }
    }

    /// The board the fault is in (extra input counts as the goal's).
    pub fn board(&self) -> Role {
        self.board
    }

    /// What is wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} board: ", self.board)?;
        match &self.kind {
            ErrorKind::EmptyLine => f.write_str("the line is empty"),
            ErrorKind::MissingLine => f.write_str("missing: the input ends after the start board"),
            ErrorKind::InvalidToken { position, text } => {
                write!(f, "token {position} '{text}' is neither a number nor 'b'")
            }
            ErrorKind::NotSquare { tokens } => {
                if *tokens < 4 {
                    write!(
                        f,
                        "{tokens} tokens do not make a square board (the smallest, 2x2, needs 4)"
                    )?;
                } else {
                    let below = isqrt(*tokens);
                    write!(
                        f,
                        "{tokens} tokens do not make a square board ({below}x{below} needs {}, {}x{} needs {})",
                        below * below,
                        below + 1,
                        below + 1,
                        (below + 1) * (below + 1)
                    )?;
                }
                // A short first line is most often a board typed as a grid.
                if self.board == Role::Start && *tokens <= GRID_HINT_TOKENS {
                    f.write_str("; a board is one line with all its tiles, not one row a line")?;
                }
                Ok(())
            }
            ErrorKind::TooSmall => {
                f.write_str("1 token makes a 1x1 board, but the smallest is 2x2")
            }
            ErrorKind::TooLarge => write!(
                f,
                "more than {} tokens: the largest board puzzle can hold is {}x{}",
                MAX_CELLS, MAX_SIDE, MAX_SIDE
            ),
            ErrorKind::NoBlank => f.write_str("there is no blank 'b'"),
            ErrorKind::SeveralBlanks { first, second } => {
                write!(
                    f,
                    "a second blank 'b' at token {second} (the first is token {first})"
                )
            }
            ErrorKind::OutOfRange {
                position, number, ..
            } if number == "0" => write!(
                f,
                "tile 0 at token {position} is out of range: tiles are numbered from 1 (the blank is written 'b')"
            ),
            ErrorKind::OutOfRange {
                position,
                number,
                side: Some(side),
            } => write!(
                f,
                "tile {number} at token {position} is out of range 1..{} for a {side}x{side} board",
                side * side - 1
            ),
            ErrorKind::OutOfRange {
                position,
                number,
                side: None,
            } => write!(
                f,
                "number {number} at token {position} is too large to be a tile"
            ),
            ErrorKind::Repeated {
                tile,
                first,
                second,
            } => write!(f, "tile {tile} appears twice (tokens {first} and {second})"),
            ErrorKind::SizeMismatch {
                start_side: s,
                goal_tokens,
            } => {
                match goal_tokens {
                    Some(tokens) if isqrt(*tokens).pow(2) == *tokens && *tokens >= 4 => {
                        let side = isqrt(*tokens);
                        write!(f, "{tokens} tokens make a {side}x{side} board")?
                    }
                    Some(tokens) => write!(f, "{tokens} tokens")?,
                    None => {
                        return write!(
                            f,
                            "more than {} tokens, but the start board is {s}x{s}: the boards differ in size",
                            s * s
                        )
                    }
                }
                write!(
                    f,
                    ", but the start board is {s}x{s} ({} tokens): the boards differ in size",
                    s * s
                )
            }
            ErrorKind::ExtraInput { line, text } => {
                write!(f, "extra input after it, on line {line}: '{text}'")
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// Why reading a puzzle failed: bad input, or a failing system call. The two are
/// reported differently (stdout and stderr), so they are kept apart.
#[derive(Debug)]
pub enum ReadError {
    /// The input is not a valid puzzle.
    Invalid(BoardError),
    /// Reading failed, or memory for the boards could not be had.
    Io(io::Error),
}

impl ReadError {
    /// Whether this is a failed system call rather than bad input.
    pub fn is_io_error(&self) -> bool {
        matches!(self, ReadError::Io(_))
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Invalid(e) => e.fmt(f),
            ReadError::Io(e) => write!(f, "cannot read the input: {e}"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Invalid(e) => Some(e),
            ReadError::Io(e) => Some(e),
        }
    }
}

impl From<BoardError> for ReadError {
    fn from(e: BoardError) -> ReadError {
        ReadError::Invalid(e)
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

/// Shows up to `limit` bytes of `bytes` with unprintable and non-ASCII bytes
/// escaped (`\r`, `\t`, `\xff`), adding `...` when cut short, so a message stays
/// one short, readable line whatever the input holds.
pub(crate) fn show_bytes(bytes: &[u8], limit: usize) -> String {
    let mut text = String::new();
    for &byte in bytes.iter().take(limit) {
        text.extend(std::ascii::escape_default(byte).map(char::from));
    }
    if bytes.len() > limit {
        text.push_str("...");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_board_and_the_tile() {
        let e = BoardError::new(
            Role::Goal,
            ErrorKind::Repeated {
                tile: 7,
                first: 2,
                second: 5,
            },
        );
        assert_eq!(
            e.to_string(),
            "goal board: tile 7 appears twice (tokens 2 and 5)"
        );
    }

    #[test]
    fn not_square_names_the_neighbouring_squares() {
        let e = BoardError::new(Role::Start, ErrorKind::NotSquare { tokens: 5 });
        assert_eq!(
            e.to_string(),
            "start board: 5 tokens do not make a square board (2x2 needs 4, 3x3 needs 9); a board is one line with all its tiles, not one row a line"
        );
        // Only a long start line is no grid row.
        let e = BoardError::new(Role::Start, ErrorKind::NotSquare { tokens: 65 });
        assert_eq!(
            e.to_string(),
            "start board: 65 tokens do not make a square board (8x8 needs 64, 9x9 needs 81)"
        );
        // No board is smaller than 2x2: 1x1 is never offered as a neighbour.
        let e = BoardError::new(Role::Goal, ErrorKind::NotSquare { tokens: 3 });
        assert_eq!(
            e.to_string(),
            "goal board: 3 tokens do not make a square board (the smallest, 2x2, needs 4)"
        );
    }

    #[test]
    fn shown_bytes_are_escaped_and_cut() {
        assert_eq!(show_bytes(b"3b", 40), "3b");
        assert_eq!(show_bytes(b"a\r\xff", 40), "a\\r\\xff");
        assert_eq!(show_bytes(b"abcdef", 3), "abc...");
    }
}
