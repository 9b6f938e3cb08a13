//! The board ADT: the interface of the assignment's `boardADT.h`.
//!
//! A [`Board`] is opaque and valid by construction: it can only be made by parsing
//! a line ([`Board::parse`]), from a list of cells that is checked
//! ([`Board::from_cells`]), or by sliding a tile of another board. Whoever holds a
//! `Board` knows it is an `N`x`N` arrangement (`N >= 2`) of one blank and the tiles
//! `1 .. N*N-1`, each exactly once.
//!
//! A [`Puzzle`] is a start and a goal board of the same size; reading one from a
//! stream is [`crate::input::read_puzzle`]. Whether the goal can be reached is the
//! parity rule ([`Board::parity`], [`Board::can_reach`]); [`Disorder`] counts
//! the numbers behind it, as the tutorial computes them.
//!
//! A [`Move`] names the direction in which the moved tile slides
//! ([`Board::slide`]); a [`MoveList`] holds a solution's moves, packed.
//!
//! This module and its helpers never print: the `puzzle` binary is the client and
//! does all the printing. Below the board lie its parts: the line parser
//! (`parse/`, with the tile keeping and the parity tree), the faults
//! (`error.rs`), the size limits (`size.rs`), the moves (`moves.rs`,
//! `move_list.rs`) and the symmetries of the square (`symmetry.rs`).

pub(crate) mod disorder;
pub(crate) mod error;
pub(crate) mod move_list;
pub(crate) mod moves;
pub(crate) mod parse;
pub(crate) mod size;
pub(crate) mod symmetry;

pub use disorder::Disorder;
use error::ReadError;
pub use error::{BoardError, ErrorKind, Role};
pub use move_list::MoveList;
pub use moves::{apply_move, from_letters, to_letters, Move};
use parse::parity::TileSet;
use parse::{CheckedLine, Fed, LineParser};
pub use size::{isqrt, MAX_CELLS, MAX_SIDE};
use std::fmt;
use std::io::{self, Write};

/// The parity of a board's disorder, as the tutorial defines it: the number of
/// inversions among its tiles, plus, when the side is even, the blank's row
/// counted from 1 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parity {
    /// An even disorder.
    Even,
    /// An odd disorder.
    Odd,
}

impl fmt::Display for Parity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Parity::Even => "even",
            Parity::Odd => "odd",
        })
    }
}

/// An `N`x`N` sliding-tile board; see the module docs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    side: usize,
    /// Row-major; `0` is the blank, every other value a tile. `u32` keeps a
    /// million-cell board at 4 MB; `MAX_CELLS` keeps every tile within `u32`.
    cells: Vec<u32>,
    blank: usize,
    /// Whether the tiles (the blank left out) have an odd number of inversions.
    odd_inversions: bool,
}

impl Board {
    /// The board of a line the parser has checked whole.
    pub(crate) fn from_checked(line: CheckedLine) -> Board {
        let CheckedLine {
            side,
            cells,
            blank,
            odd_inversions,
        } = line;
        debug_assert_eq!(cells.len(), side * side);
        debug_assert_eq!(cells[blank], 0);
        Board {
            side,
            cells,
            blank,
            odd_inversions,
        }
    }

    /// Parses one line of the input format: tokens separated by spaces or tabs, `b`
    /// for the blank. A final `\n` or `\r\n` is allowed; `role` names the board in
    /// messages.
    ///
    /// # Examples
    ///
    /// ```
    /// use puzzle::board_adt::{Board, Role};
    /// let board = Board::parse(b"1 2 3 b", Role::Start).unwrap();
    /// assert_eq!((board.side(), board.blank()), (2, 3));
    /// let error = Board::parse(b"1 2 b 1", Role::Goal).unwrap_err();
    /// assert_eq!(error.to_string(), "goal board: tile 1 appears twice (tokens 1 and 4)");
    /// ```
    pub fn parse(line: &[u8], role: Role) -> Result<Board, BoardError> {
        let mut parser = LineParser::new(role, None);
        let invalid = |e: ReadError| match e {
            ReadError::Invalid(e) => e,
            // Parsing a slice reads nothing; only a failed allocation lands here,
            // and that is a board too large for memory.
            ReadError::Io(_) => BoardError::new(role, ErrorKind::TooLarge),
        };
        match parser.feed(line).map_err(invalid)? {
            Fed::More => parser.feed_end().map_err(invalid)?,
            Fed::LineEnd(end) if end < line.len() => {
                return Err(BoardError::new(
                    role,
                    ErrorKind::InvalidToken {
                        position: 1,
                        text: error::show_bytes(&line[end..], 40),
                    },
                ))
            }
            Fed::LineEnd(_) => {}
        }
        parser.finish().map(Board::from_checked).map_err(invalid)
    }

    /// Makes a board from row-major cells in which `0` is the blank, checking that
    /// they form a valid board.
    ///
    /// # Examples
    ///
    /// ```
    /// use puzzle::board_adt::Board;
    /// let board = Board::from_cells(vec![1, 2, 3, 0]).unwrap();
    /// assert_eq!(board.to_string(), "1 2 3 b");
    /// assert!(Board::from_cells(vec![1, 2, 3]).is_err());
    /// ```
    pub fn from_cells(cells: Vec<u32>) -> Result<Board, BoardError> {
        let fault = |kind| Err(BoardError::new(Role::Start, kind));
        let count = cells.len() as u64;
        let side = isqrt(count);
        if count == 0 {
            return fault(ErrorKind::EmptyLine);
        } else if count > MAX_CELLS {
            return fault(ErrorKind::TooLarge);
        } else if side * side != count {
            return fault(ErrorKind::NotSquare { tokens: count });
        } else if side < 2 {
            return fault(ErrorKind::TooSmall);
        }
        let mut seen = TileSet::with_capacity(count);
        let mut blank = None;
        for (index, &tile) in cells.iter().enumerate() {
            let position = index as u64 + 1;
            if tile == 0 {
                if let Some(first) = blank {
                    let first = first as u64 + 1;
                    return fault(ErrorKind::SeveralBlanks {
                        first,
                        second: position,
                    });
                }
                blank = Some(index);
            } else if u64::from(tile) >= count {
                let number = tile.to_string();
                let side = Some(side);
                return fault(ErrorKind::OutOfRange {
                    position,
                    number,
                    side,
                });
            } else if seen.insert(u64::from(tile)).is_err() {
                let first = cells.iter().position(|&t| t == tile).unwrap_or(0) as u64 + 1;
                let tile = u64::from(tile);
                return fault(ErrorKind::Repeated {
                    tile,
                    first,
                    second: position,
                });
            }
        }
        let Some(blank) = blank else {
            return fault(ErrorKind::NoBlank);
        };
        let odd_inversions = seen.odd_inversions();
        Ok(Board::from_checked(CheckedLine {
            side: side as usize,
            cells,
            blank,
            odd_inversions,
        }))
    }

    /// The number of cells in a row (and in a column).
    pub fn side(&self) -> usize {
        self.side
    }

    /// The number of cells, `side * side`.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always `false`: every board has at least four cells. (Here because `len` is.)
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The blank's cell, counted row by row from 0 at the top left.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The cells row by row, with `0` for the blank.
    pub fn cells(&self) -> &[u32] {
        &self.cells
    }

    /// The tile on `cell`, or `None` for the blank.
    ///
    /// # Panics
    ///
    /// If `cell` is not below `len()`.
    pub fn tile(&self, cell: usize) -> Option<u32> {
        Some(self.cells[cell]).filter(|&t| t != 0)
    }

    /// The parity of this board's disorder (see [`Parity`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use puzzle::board_adt::{Board, Parity, Role};
    /// // The tutorial's example: disorder 2 + 1 + 0, plus 2 for the blank's row.
    /// let board = Board::parse(b"3 2 b 1", Role::Start).unwrap();
    /// assert_eq!(board.parity(), Parity::Odd);
    /// ```
    pub fn parity(&self) -> Parity {
        // Rows count from 1, so an odd row is an even index.
        let blank_row_odd =
            self.side.is_multiple_of(2) && (self.blank / self.side).is_multiple_of(2);
        if self.odd_inversions ^ blank_row_odd {
            Parity::Odd
        } else {
            Parity::Even
        }
    }

    /// Whether `goal` can be reached from this board by sliding tiles: the two have
    /// the same size and the same parity (the tutorial's rule; see `SPEC.md`).
    pub fn can_reach(&self, goal: &Board) -> bool {
        self.side == goal.side && self.parity() == goal.parity()
    }

    /// Slides a tile into the blank as `mv` says; `false` (and no change) when no
    /// tile can slide that way. The parity never changes: that is the point of it.
    pub fn slide(&mut self, mv: Move) -> bool {
        let Some(target) = mv.blank_target(self.side, self.blank) else {
            return false;
        };
        // A vertical move carries a tile past `side - 1` others; a horizontal one
        // keeps the order. The blank row term absorbs the rest for even sides.
        if target.abs_diff(self.blank) == self.side && self.side.is_multiple_of(2) {
            self.odd_inversions = !self.odd_inversions;
        }
        self.cells.swap(self.blank, target);
        self.blank = target;
        true
    }

    /// Writes the tokens joined by single spaces (no newline), as fast as the
    /// output can take them: numbers are formatted by hand, a block of cells at a
    /// time, and on large boards every other block is formatted on a second
    /// thread while this one writes.
    pub fn write_tokens<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let blocks: Vec<&[u32]> = self.cells.chunks(FORMAT_BLOCK).collect();
        let mut text = vec![0u8; FORMAT_BLOCK.min(self.cells.len()) * MAX_TOKEN];
        if blocks.len() < 4 {
            for (index, block) in blocks.iter().enumerate() {
                let used = format_cells(block, index == 0, &mut text);
                out.write_all(&text[..used])?;
            }
            return Ok(());
        }
        std::thread::scope(|scope| {
            // Formatted blocks go one way, emptied buffers back for reuse.
            let (sender, formatted) = std::sync::mpsc::sync_channel::<(Vec<u8>, usize)>(2);
            let (recycle, empties) = std::sync::mpsc::channel::<Vec<u8>>();
            let odd_blocks = blocks.iter().skip(1).step_by(2);
            let helper = std::thread::Builder::new().spawn_scoped(scope, move || {
                for block in odd_blocks {
                    let mut text = empties
                        .try_recv()
                        .unwrap_or_else(|_| vec![0u8; FORMAT_BLOCK * MAX_TOKEN]);
                    let used = format_cells(block, false, &mut text);
                    // Fails only when the writer has stopped on an error.
                    if sender.send((text, used)).is_err() {
                        break;
                    }
                }
            });
            let helped = helper.is_ok();
            for (index, block) in blocks.iter().enumerate() {
                if helped && index % 2 == 1 {
                    let (done, used) = formatted.recv().expect("the helper formats odd blocks");
                    out.write_all(&done[..used])?;
                    let _ = recycle.send(done);
                } else {
                    let used = format_cells(block, index == 0, &mut text);
                    out.write_all(&text[..used])?;
                }
            }
            Ok(())
        })
    }
}

/// Cells formatted at a time by [`Board::write_tokens`]: about 300 KB of text.
const FORMAT_BLOCK: usize = 1 << 15;

/// The most bytes a token takes in the output: a space and 10 digits.
const MAX_TOKEN: usize = 11;

/// Writes `cells` as tokens into `text` (at least `MAX_TOKEN` bytes a cell),
/// each after a space unless `first`; returns the length written.
fn format_cells(cells: &[u32], first: bool, text: &mut [u8]) -> usize {
    let mut used = 0;
    for (index, &cell) in cells.iter().enumerate() {
        if index > 0 || !first {
            text[used] = b' ';
            used += 1;
        }
        used += write_cell(&mut text[used..], cell);
    }
    used
}

/// Writes `cell` (`b` for 0) at the start of `buffer`; returns the length.
///
/// Two digits at a time from a table, written in place from the end: this runs
/// once a cell on million-cell boards, so it avoids `fmt` and small copies.
#[inline]
fn write_cell(buffer: &mut [u8], cell: u32) -> usize {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    if cell == 0 {
        buffer[0] = b'b';
        return 1;
    }
    let len = match cell {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        1_000..=9_999 => 4,
        10_000..=99_999 => 5,
        100_000..=999_999 => 6,
        1_000_000..=9_999_999 => 7,
        10_000_000..=99_999_999 => 8,
        100_000_000..=999_999_999 => 9,
        _ => 10,
    };
    let digits = &mut buffer[..len];
    let mut at = len;
    let mut n = cell as usize;
    while n >= 100 {
        let pair = (n % 100) * 2;
        n /= 100;
        at -= 2;
        digits[at] = PAIRS[pair];
        digits[at + 1] = PAIRS[pair + 1];
    }
    if n >= 10 {
        digits[at - 2] = PAIRS[n * 2];
        digits[at - 1] = PAIRS[n * 2 + 1];
    } else {
        digits[at - 1] = b'0' + n as u8;
    }
    len
}

impl fmt::Display for Board {
    /// The tokens joined by single spaces, `b` for the blank: the output format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::new();
        self.write_tokens(&mut text).map_err(|_| fmt::Error)?;
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl std::str::FromStr for Board {
    type Err = BoardError;

    /// Parses one line, naming it the start board in messages.
    fn from_str(line: &str) -> Result<Board, BoardError> {
        Board::parse(line.as_bytes(), Role::Start)
    }
}

/// A start board and a goal board of the same size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    start: Board,
    goal: Board,
}

impl Puzzle {
    /// Pairs two boards, which must have the same side.
    pub fn new(start: Board, goal: Board) -> Result<Puzzle, BoardError> {
        if start.side != goal.side {
            let s = start.side as u64;
            return Err(BoardError::new(
                Role::Goal,
                ErrorKind::SizeMismatch {
                    start_side: s,
                    goal_tokens: Some(goal.len() as u64),
                },
            ));
        }
        Ok(Puzzle { start, goal })
    }

    /// The board the moves start from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The board the moves must reach.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// Whether the goal can be reached from the start.
    pub fn is_solvable(&self) -> bool {
        self.start.can_reach(&self.goal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(line: &str) -> Board {
        line.parse().unwrap()
    }

    #[test]
    fn tutorial_examples_have_the_tutorial_parities() {
        assert_eq!(board("1 2 3 b").parity(), Parity::Even);
        assert_eq!(board("3 2 b 1").parity(), Parity::Odd);
        assert_eq!(board("b 1 3 2").parity(), Parity::Even);
        assert_eq!(board("1 2 3 4 5 6 7 8 b").parity(), Parity::Even);
        assert_eq!(board("8 7 6 5 4 3 2 1 b").parity(), Parity::Even);
    }

    #[test]
    fn even_side_counts_blank_row() {
        // Same tile order, blank one row lower: the parity flips on 4x4 only.
        let upper = board("1 2 3 b 4 5 6 7 8 9 10 11 12 13 14 15");
        let lower = board("1 2 3 4 5 6 7 b 8 9 10 11 12 13 14 15");
        assert_ne!(upper.parity(), lower.parity());
        let upper = board("1 2 b 3 4 5 6 7 8");
        let lower = board("1 2 3 4 5 b 6 7 8");
        assert_eq!(upper.parity(), lower.parity());
    }

    #[test]
    fn assignment_example_is_solvable_and_swapped_tiles_are_not() {
        let goal = board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 b 15");
        assert!(board("9 12 5 4 2 b 7 11 3 6 10 13 14 1 8 15").can_reach(&goal));
        assert!(!board("2 1 3 b").can_reach(&board("1 2 3 b")));
    }

    #[test]
    fn sliding_keeps_the_parity_and_refuses_walls() {
        let mut b = board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 b");
        let parity = b.parity();
        for mv in [
            Move::Right,
            Move::Down,
            Move::Right,
            Move::Down,
            Move::Left,
            Move::Up,
        ] {
            assert!(b.slide(mv));
            assert_eq!(b.parity(), parity);
            assert_eq!(b.cells()[b.blank()], 0);
        }
        let mut corner = board("b 1 2 3");
        assert!(!corner.slide(Move::Down));
        assert_eq!(corner, board("b 1 2 3"));
    }

    #[test]
    fn parse_accepts_a_final_newline_and_refuses_a_second_line() {
        assert_eq!(board("1 2 3 b\r\n"), board("1 2 3 b"));
        assert!(Board::parse(b"1 2 3 b\n1", Role::Start).is_err());
    }

    #[test]
    fn tokens_are_written_without_leading_zeros() {
        let b = board("0010 2 3 4 5 6 7 8 9 1 11 12 13 14 15 b");
        assert_eq!(b.to_string(), "10 2 3 4 5 6 7 8 9 1 11 12 13 14 15 b");
    }

    #[test]
    fn puzzle_refuses_boards_of_different_sizes() {
        let error = Puzzle::new(board("1 2 3 b"), board("1 2 3 4 5 6 7 8 b")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "goal board: 9 tokens make a 3x3 board, but the start board is 2x2 (4 tokens): the boards differ in size"
        );
    }
}
