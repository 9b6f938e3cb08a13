//! Moves in `puzzle`'s notation, and applying them to a grid of cells.
//!
//! A move is named by the direction in which the moved **tile** slides, never the
//! blank: `U` means the tile below the blank slides up (so the blank moves down),
//! `D` the tile above slides down, `L` the tile right of the blank slides left, and
//! `R` the tile left of the blank slides right.
//!
//! Grids here are plain row-major slices of cells in which `0` is the blank; the
//! solvers use this compact form, and [`crate::board_adt::Board`] exposes its cells
//! the same way.

use std::fmt;

/// One move: the direction in which the moved tile slides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// The tile below the blank slides up.
    Up,
    /// The tile above the blank slides down.
    Down,
    /// The tile right of the blank slides left.
    Left,
    /// The tile left of the blank slides right.
    Right,
}

impl Move {
    /// All four moves, in the order `U`, `D`, `L`, `R`.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The letter of this move in a solution line: `U`, `D`, `L` or `R`.
    pub const fn letter(self) -> u8 {
        match self {
            Move::Up => b'U',
            Move::Down => b'D',
            Move::Left => b'L',
            Move::Right => b'R',
        }
    }

    /// The move named by `letter`, if it is one of `U`, `D`, `L`, `R`.
    pub const fn from_letter(letter: u8) -> Option<Move> {
        match letter {
            b'U' => Some(Move::Up),
            b'D' => Some(Move::Down),
            b'L' => Some(Move::Left),
            b'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// The move that undoes this one.
    pub const fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// The cell the blank moves to when this move is made on a `side`-wide grid
    /// whose blank is at `blank`, or `None` when no tile can slide that way.
    ///
    /// # Examples
    ///
    /// ```
    /// use puzzle::board_adt::Move;
    /// // Blank in the top-left corner of a 3x3 grid: the tile below can slide up.
    /// assert_eq!(Move::Up.blank_target(3, 0), Some(3));
    /// assert_eq!(Move::Down.blank_target(3, 0), None);
    /// ```
    pub const fn blank_target(self, side: usize, blank: usize) -> Option<usize> {
        let row = blank / side;
        let col = blank % side;
        match self {
            Move::Up if row + 1 < side => Some(blank + side),
            Move::Down if row > 0 => Some(blank - side),
            Move::Left if col + 1 < side => Some(blank + 1),
            Move::Right if col > 0 => Some(blank - 1),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter() as char)
    }
}

/// Makes `mv` on a `side`-wide grid whose blank is at `*blank`, updating both.
///
/// Returns `false`, and changes nothing, when no tile can slide that way.
pub fn apply_move<T: Copy>(cells: &mut [T], side: usize, blank: &mut usize, mv: Move) -> bool {
    match mv.blank_target(side, *blank) {
        Some(target) => {
            cells.swap(*blank, target);
            *blank = target;
            true
        }
        None => false,
    }
}

/// Makes every move of `moves` in turn; on the first impossible move, returns its
/// index and leaves the grid as it was just before it.
#[cfg(test)]
pub fn replay<T: Copy>(
    cells: &mut [T],
    side: usize,
    blank: &mut usize,
    moves: &[Move],
) -> Result<(), usize> {
    for (index, &mv) in moves.iter().enumerate() {
        if !apply_move(cells, side, blank, mv) {
            return Err(index);
        }
    }
    Ok(())
}

/// The moves as a string of letters, e.g. `"UDLR"`.
pub fn to_letters(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter() as char).collect()
}

/// Parses a string of `U`, `D`, `L`, `R` letters; `None` if any other byte occurs.
pub fn from_letters(letters: &str) -> Option<Vec<Move>> {
    letters.bytes().map(Move::from_letter).collect()
}

/// The moves that take the end of `moves` back to its beginning: each undone, in
/// reverse order.
pub fn reversed(moves: &[Move]) -> Vec<Move> {
    moves.iter().rev().map(|m| m.inverse()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_slides_the_tile_below_the_blank_up() {
        // 1 b / 2 3: the tile below the blank (3) slides up.
        let mut cells = [1u32, 0, 2, 3];
        let mut blank = 1;
        assert!(apply_move(&mut cells, 2, &mut blank, Move::Up));
        assert_eq!(cells, [1, 3, 2, 0]);
        assert_eq!(blank, 3);
    }

    #[test]
    fn impossible_moves_change_nothing() {
        let mut cells = [0u32, 1, 2, 3];
        let mut blank = 0;
        assert!(!apply_move(&mut cells, 2, &mut blank, Move::Down));
        assert!(!apply_move(&mut cells, 2, &mut blank, Move::Right));
        assert_eq!(cells, [0, 1, 2, 3]);
        assert_eq!(blank, 0);
    }

    #[test]
    fn a_move_and_its_inverse_cancel() {
        for mv in Move::ALL {
            let mut cells: Vec<u32> = (0..9).collect();
            let mut blank = 4;
            assert!(apply_move(&mut cells, 3, &mut blank, mv));
            assert!(apply_move(&mut cells, 3, &mut blank, mv.inverse()));
            assert_eq!(cells, (0..9).collect::<Vec<_>>());
            assert_eq!(blank, 4);
        }
    }

    #[test]
    fn replay_reports_the_first_impossible_move() {
        let mut cells = [0u32, 1, 2, 3];
        let mut blank = 0;
        let moves = from_letters("ULU").unwrap();
        assert_eq!(replay(&mut cells, 2, &mut blank, &moves), Err(2));
        assert_eq!(blank, 3);
    }

    #[test]
    fn letters_round_trip_and_reject_other_bytes() {
        let moves = from_letters("UDLR").unwrap();
        assert_eq!(to_letters(&moves), "UDLR");
        assert_eq!(from_letters("UDx"), None);
        assert_eq!(to_letters(&reversed(&moves)), "LRUD");
    }
}
