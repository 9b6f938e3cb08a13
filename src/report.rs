//! The output format: the three contract lines, the solution lines, and the boards
//! along a solution, written to any `io::Write`.
//!
//! These functions format; they never choose a stream. The binary hands them a
//! buffered standard output and turns a failed write into a message on stderr.

use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::{self, Move};
use crate::board_adt::{Board, BoardError, Disorder, Puzzle};
use crate::solve::Solution;
use std::io::{self, Write};

/// Writes `start: ...`, `goal: ...` and `solvable` or `unsolvable`, each on its line.
///
/// # Examples
///
/// ```
/// use puzzle::input::read_puzzle;
/// use puzzle::write_verdict;
/// let puzzle = read_puzzle(&b"2 1 3 b\n1 2 3 b"[..]).unwrap();
/// let mut out = Vec::new();
/// write_verdict(&mut out, &puzzle).unwrap();
/// assert_eq!(out, b"start: 2 1 3 b\ngoal: 1 2 3 b\nunsolvable\n");
/// ```
pub fn write_verdict<W: Write>(out: &mut W, puzzle: &Puzzle) -> io::Result<()> {
    out.write_all(b"start: ")?;
    puzzle.start().write_tokens(out)?;
    out.write_all(b"\ngoal: ")?;
    puzzle.goal().write_tokens(out)?;
    if puzzle.is_solvable() {
        out.write_all(b"\nsolvable\n")
    } else {
        out.write_all(b"\nunsolvable\n")
    }
}

/// How many tiles `--explain` lists one by one before it sums up the rest.
pub const EXPLAINED_TILES: usize = 16;

/// Writes the tutorial's computation behind the verdict (`--explain`): each
/// board's tile disorders (the first [`EXPLAINED_TILES`] of a larger board,
/// then how many more), their sum, the blank's row and whether it counts, the
/// board's disorder and its parity, and the rule that decides. Every number is
/// exact.
///
/// # Examples
///
/// ```
/// use puzzle::input::read_puzzle;
/// use puzzle::write_explanation;
/// // The tutorial's 2x2 example.
/// let puzzle = read_puzzle(&b"3 2 b 1\n1 2 3 b\n"[..]).unwrap();
/// let mut out = Vec::new();
/// write_explanation(&mut out, &puzzle).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "\
/// a tile's disorder: how many lower-numbered tiles come after it, row by row
/// start board, 2x2: tile disorders 3:2 2:1 1:0, sum 3
///   even side, so the blank's row counts: row 2; disorder 3 + 2 = 5, odd
/// goal board, 2x2: tile disorders 1:0 2:0 3:0, sum 0
///   even side, so the blank's row counts: row 2; disorder 0 + 2 = 2, even
/// the goal can be reached iff both disorders have the same parity: odd and even, unsolvable
/// ");
/// ```
pub fn write_explanation<W: Write>(out: &mut W, puzzle: &Puzzle) -> io::Result<()> {
    out.write_all(b"a tile's disorder: how many lower-numbered tiles come after it, row by row\n")?;
    let start = Disorder::of(puzzle.start(), EXPLAINED_TILES);
    let goal = Disorder::of(puzzle.goal(), EXPLAINED_TILES);
    let side = puzzle.start().side();
    for (name, disorder) in [("start", &start), ("goal", &goal)] {
        write!(out, "{name} board, {side}x{side}: tile disorders")?;
        for (tile, own) in disorder.first_tiles() {
            write!(out, " {tile}:{own}")?;
        }
        let more = disorder.tiles() - disorder.first_tiles().len();
        if more > 0 {
            write!(out, " and {more} more")?;
        }
        writeln!(out, ", sum {}", disorder.tile_sum())?;
        match disorder.counted_blank_row() {
            Some(row) => writeln!(
                out,
                "  even side, so the blank's row counts: row {row}; disorder {} + {row} = {}, {}",
                disorder.tile_sum(),
                disorder.total(),
                disorder.parity()
            )?,
            None => writeln!(
                out,
                "  odd side, so the blank's row (row {}) does not count; disorder {}, {}",
                disorder.blank_row(),
                disorder.total(),
                disorder.parity()
            )?,
        }
    }
    let rule = "the goal can be reached iff both disorders have the same parity";
    if start.parity() == goal.parity() {
        writeln!(out, "{rule}: both {}, solvable", start.parity())
    } else {
        writeln!(
            out,
            "{rule}: {} and {}, unsolvable",
            start.parity(),
            goal.parity()
        )
    }
}

/// Writes the one line that answers an input that is not a valid puzzle:
/// `error: ` and what is wrong, or, for pair `pair` of a batch,
/// `error: pair N: ` and what is wrong.
///
/// # Examples
///
/// ```
/// use puzzle::input::read_puzzle;
/// use puzzle::write_error;
/// let error = read_puzzle(&b"1 2 3 b\n1 2 b b\n"[..]).unwrap_err();
/// let puzzle::input::ReadError::Invalid(error) = error else { panic!("bad input") };
/// let mut out = Vec::new();
/// write_error(&mut out, Some(3), &error).unwrap();
/// assert_eq!(out, b"error: pair 3: goal board: a second blank 'b' at token 4 (the first is token 3)\n");
/// ```
pub fn write_error<W: Write>(out: &mut W, pair: Option<u64>, error: &BoardError) -> io::Result<()> {
    match pair {
        Some(pair) => writeln!(out, "error: pair {pair}: {error}"),
        None => writeln!(out, "error: {error}"),
    }
}

/// Writes `moves: N (shortest)` (or `(not proven shortest)`) and `solution: ...`.
pub fn write_solution<W: Write>(out: &mut W, solution: &Solution) -> io::Result<()> {
    let label = if solution.proven_shortest {
        "shortest"
    } else {
        "not proven shortest"
    };
    writeln!(out, "moves: {} ({label})", solution.moves.len())?;
    out.write_all(b"solution:")?;
    if !solution.moves.is_empty() {
        out.write_all(b" ")?;
        let mut run = [Move::Up; 1 << 14];
        let mut letters = [0u8; 1 << 14];
        solution.moves.for_each_run(&mut run, |moves| {
            for (slot, mv) in letters.iter_mut().zip(moves) {
                *slot = mv.letter();
            }
            out.write_all(&letters[..moves.len()])
        })?;
    }
    out.write_all(b"\n")
}

/// Writes `start`, then the board after each move, as grids with right-aligned
/// columns, each headed by the move number and letter and followed by an empty line.
///
/// Each board is written as soon as it is made, so memory stays at one board
/// whatever the length of the path. The grid's text is kept between boards and
/// only the two cells a move changes are formatted again: every cell has the
/// same width, so a cell's text never moves.
pub fn write_boards<W: Write>(out: &mut W, start: &Board, path: &MoveList) -> io::Result<()> {
    let mut cells = start.cells().to_vec();
    let side = start.side();
    let mut blank = start.blank();
    let width = (cells.len() - 1).to_string().len();
    // Each cell is `width` bytes and a space, or a newline at the end of a row.
    let stride = width + 1;
    let mut grid = vec![b' '; cells.len() * stride];
    for (cell, &tile) in cells.iter().enumerate() {
        put_cell(&mut grid[cell * stride..][..width], tile);
        if (cell + 1) % side == 0 {
            grid[cell * stride + width] = b'\n';
        }
    }
    out.write_all(b"start:\n")?;
    out.write_all(&grid)?;
    out.write_all(b"\n")?;
    for (index, mv) in path.iter().enumerate() {
        let from = blank;
        // The path comes from the solver; a move that does not apply is a bug.
        assert!(
            moves::apply_move(&mut cells, side, &mut blank, mv),
            "move {index} of the solution does not apply"
        );
        put_cell(&mut grid[from * stride..][..width], cells[from]);
        put_cell(&mut grid[blank * stride..][..width], 0);
        writeln!(out, "move {} {mv}:", index + 1)?;
        out.write_all(&grid)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Writes `tile` (`b` for the blank) right-aligned into `slot`.
fn put_cell(slot: &mut [u8], tile: u32) {
    slot.fill(b' ');
    let last = slot.len() - 1;
    if tile == 0 {
        slot[last] = b'b';
        return;
    }
    let mut rest = tile;
    for at in (0..=last).rev() {
        slot[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solution_lines_follow_the_contract() {
        let mut out = Vec::new();
        let solution = Solution {
            moves: moves::from_letters("DRU").unwrap().into(),
            proven_shortest: true,
        };
        write_solution(&mut out, &solution).unwrap();
        assert_eq!(out, b"moves: 3 (shortest)\nsolution: DRU\n");
        let mut out = Vec::new();
        let empty = Solution {
            moves: MoveList::new(),
            proven_shortest: false,
        };
        write_solution(&mut out, &empty).unwrap();
        assert_eq!(out, b"moves: 0 (not proven shortest)\nsolution:\n");
    }

    #[test]
    fn every_board_along_a_long_path_is_formatted_whole() {
        // 11x11: three-digit tiles; each board checked against one formatted
        // from scratch.
        let side = 11;
        let start = Board::from_cells((1..121).chain([0]).collect()).unwrap();
        let mut rng = crate::generate::SplitMix64::new(3);
        let mut board = start.clone();
        let mut path = MoveList::new();
        while path.len() < 300 {
            let mv = Move::ALL[rng.below(4) as usize];
            if board.slide(mv) {
                path.push(mv);
            }
        }
        let mut out = Vec::new();
        write_boards(&mut out, &start, &path).unwrap();
        let mut want = String::new();
        let mut board = start.clone();
        for index in 0..=path.len() {
            if index == 0 {
                want.push_str("start:\n");
            } else {
                let mv = path.get(index - 1);
                board.slide(mv);
                want.push_str(&format!("move {index} {mv}:\n"));
            }
            for row in board.cells().chunks(side) {
                let tokens: Vec<String> = row
                    .iter()
                    .map(|&t| match t {
                        0 => format!("{:>3}", "b"),
                        t => format!("{t:>3}"),
                    })
                    .collect();
                want.push_str(&tokens.join(" "));
                want.push('\n');
            }
            want.push('\n');
        }
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }

    #[test]
    fn boards_are_aligned_grids() {
        let start: Board = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 b 15".parse().unwrap();
        let mut out = Vec::new();
        write_boards(&mut out, &start, &vec![Move::Left].into()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "start:\n 1  2  3  4\n 5  6  7  8\n 9 10 11 12\n13 14  b 15\n\n\
             move 1 L:\n 1  2  3  4\n 5  6  7  8\n 9 10 11 12\n13 14 15  b\n\n"
        );
    }
}
