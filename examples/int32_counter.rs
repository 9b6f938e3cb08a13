//! A solvability checker with the classic 32-bit bug, for `tests/grade.rs`.
//!
//! It reads and checks the two boards and answers with the assignment's three
//! lines, as a student's program would, but it counts the inversions in a
//! signed 32-bit counter, as a C program with `int inversions` does, and takes
//! a board for odd when `disorder % 2 == 1`. Past 2^31 - 1 inversions the
//! counter wraps to a negative number (C leaves signed overflow undefined;
//! compiled without optimisation it wraps, and `wrapping_add` below does the
//! same), a negative odd count has `% 2 == -1`, the board is taken for even,
//! and the verdict flips. The fixture
//! `Tests/sol257_inversions_2181136127_overflow_signed_int.inp` catches it:
//! its start board has 2,181,136,127 inversions (odd, wrapped to
//! -2,113,831,169) and its goal one, so it is solvable, and this program says
//! `unsolvable`. An unsigned counter, or a test of `% 2 != 0`, would get it
//! right.
//!
//! The inversions are counted with a Fenwick tree, in O(n log n), so that the
//! test stays fast; the bug is in the counter, not in the way of counting.
//!
//! ```sh
//! cargo build --example int32_counter
//! sh Testrun grade target/debug/examples/int32_counter
//! ```

use std::io::{self, Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut input = Vec::new();
    if let Err(err) = io::stdin().read_to_end(&mut input) {
        eprintln!("int32_counter: cannot read standard input: {err}");
        return ExitCode::FAILURE;
    }
    let (answer, code) = match check(&String::from_utf8_lossy(&input)) {
        Ok(answer) => (answer, ExitCode::SUCCESS),
        Err(message) => (format!("error: {message}\n"), ExitCode::FAILURE),
    };
    let mut out = io::stdout().lock();
    if let Err(err) = out.write_all(answer.as_bytes()).and_then(|()| out.flush()) {
        eprintln!("int32_counter: cannot write the output: {err}");
        return ExitCode::FAILURE;
    }
    code
}

/// The three lines of the answer, or what is wrong with the input.
fn check(text: &str) -> Result<String, String> {
    let mut lines = text.lines();
    let start = parse(lines.next(), "start")?;
    let goal = parse(lines.next(), "goal")?;
    if lines.any(|line| !line.trim().is_empty()) {
        return Err("extra input after the goal board".to_string());
    }
    if start.len() != goal.len() {
        return Err("the boards are not the same size".to_string());
    }
    let verdict = if is_odd(&start) == is_odd(&goal) {
        "solvable"
    } else {
        "unsolvable"
    };
    Ok(format!(
        "start: {}\ngoal: {}\n{verdict}\n",
        show(&start),
        show(&goal)
    ))
}

/// A board's cells row by row, 0 for the blank, once it is checked.
fn parse(line: Option<&str>, name: &str) -> Result<Vec<u32>, String> {
    let line = line.ok_or(format!("the {name} board is missing"))?;
    let mut cells = Vec::new();
    for token in line.split([' ', '\t']).filter(|t| !t.is_empty()) {
        let cell = match token {
            "b" => 0,
            _ if token.bytes().all(|b| b.is_ascii_digit()) => token
                .parse()
                .map_err(|_| format!("{name} board: {token} is too large"))?,
            _ => return Err(format!("{name} board: '{token}' is not a tile")),
        };
        cells.push(cell);
    }
    let side = side(cells.len());
    if side < 2 || side * side != cells.len() {
        return Err(format!(
            "{name} board: {} tiles are not a board",
            cells.len()
        ));
    }
    let mut seen = vec![false; cells.len()];
    for &cell in &cells {
        let slot = seen
            .get_mut(cell as usize)
            .ok_or(format!("{name} board: tile {cell} is out of range"))?;
        if *slot {
            return Err(format!("{name} board: tile {cell} appears twice"));
        }
        *slot = true;
    }
    Ok(cells)
}

/// The whole square root of `cells`.
fn side(cells: usize) -> usize {
    let mut side = 0;
    while (side + 1) * (side + 1) <= cells {
        side += 1;
    }
    side
}

/// Whether a board's disorder is odd: inversions, plus the blank's row
/// (counted from 1) on an even-sided board.
fn is_odd(cells: &[u32]) -> bool {
    let side = side(cells.len());
    // A Fenwick tree over the tile numbers: how many of each have been seen.
    let mut tree = vec![0i32; cells.len()];
    // The bug: a C `int`.
    let mut inversions: i32 = 0;
    for (seen, &tile) in cells.iter().filter(|&&tile| tile != 0).enumerate() {
        let mut smaller = 0;
        let mut i = tile as usize;
        while i > 0 {
            smaller += tree[i];
            i &= i - 1;
        }
        // The larger tiles seen before this one.
        inversions = inversions.wrapping_add(seen as i32 - smaller);
        let mut i = tile as usize;
        while i < tree.len() {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    let mut disorder = inversions;
    if side.is_multiple_of(2) {
        let blank = cells.iter().position(|&cell| cell == 0).unwrap_or(0);
        disorder = disorder.wrapping_add((blank / side + 1) as i32);
    }
    disorder % 2 == 1
}

/// A board as the answer shows it: tokens joined by single spaces.
fn show(cells: &[u32]) -> String {
    let tokens: Vec<String> = cells
        .iter()
        .map(|&cell| match cell {
            0 => "b".to_string(),
            tile => tile.to_string(),
        })
        .collect();
    tokens.join(" ")
}
