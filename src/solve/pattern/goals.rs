//! Any goal onto a canonical one, for the pattern-database solvers of every
//! side: relabelling, a symmetry of the square
//! ([`crate::board_adt::symmetry`]), and the way back from a canonical path to
//! moves.
//!
//! Tiles are renamed by their cell in the goal, so every goal becomes "tile `c`
//! on cell `c`" with the blank on the goal's blank cell `g`. One of the 8
//! symmetries of the square then moves `g` onto the representative of its class,
//! the smallest cell of its orbit (the rotation that does, when one does): on 4x4 a corner (0), an edge cell (1) or a
//! centre cell (5); on 5x5 a corner (0), a cell next to a corner on the edge (1),
//! the middle of an edge (2), an inner corner (6), the middle of an inner edge
//! (7) or the centre (12). The search runs on the transformed board and its
//! moves are mapped back.

use crate::board_adt::moves::Move;
use crate::board_adt::symmetry::{class_of, Symmetry};
use crate::solve::grid::reachable;

/// Whether `cells` holds each of `0 .. cells.len()` once.
pub fn is_board(cells: &[u8]) -> bool {
    let mut seen = vec![false; cells.len()];
    cells.iter().all(|&c| {
        let fresh = seen.get(c as usize) == Some(&false);
        if fresh {
            seen[c as usize] = true;
        }
        fresh
    })
}

/// A start board seen in the canonical frame of its goal's class.
pub struct Canonical {
    /// Tiles named by their home cell in the frame; the blank is `blank_code`.
    pub cells: Vec<u8>,
    /// The symmetry that took the goal's blank onto the class representative,
    /// as a map of cells.
    pub sigma: Vec<u8>,
}

/// `start` towards `goal` (row-major, 0 the blank, each of `0 .. side*side`
/// once, the goal reachable) in the frame where the goal's blank is on `rep`,
/// its class representative, with the blank written as `blank_code`.
///
/// # Panics
///
/// If a board is not a permutation, the goal is not reachable, or `rep` is not
/// the class of the goal's blank.
pub fn normalise(side: usize, start: &[u8], goal: &[u8], rep: usize, blank_code: u8) -> Canonical {
    let cells = side * side;
    assert!(
        start.len() == cells && goal.len() == cells && is_board(start) && is_board(goal),
        "boards hold each of 0..{cells} once"
    );
    assert!(
        reachable(side, start, goal),
        "the goal is not reachable from the start (parity differs)"
    );
    let g = goal.iter().position(|&t| t == 0).expect("goal has a blank");
    assert_eq!(
        class_of(side, g),
        rep,
        "tables for goal class {rep} cannot solve a goal with the blank on cell {g}"
    );
    let sigma = Symmetry::rotation_onto(side, g, rep)
        .expect("some symmetry maps every cell onto its class representative")
        .cells(side);
    let mut home = vec![0u8; cells];
    for (cell, &label) in goal.iter().enumerate() {
        home[label as usize] = sigma[cell];
    }
    let mut out = vec![0u8; cells];
    for (cell, &label) in start.iter().enumerate() {
        out[sigma[cell] as usize] = if label == 0 {
            blank_code
        } else {
            home[label as usize]
        };
    }
    Canonical { cells: out, sigma }
}

/// The moves of a canonical blank path (the blank's cell after each move, in
/// the frame `sigma`) on the original board whose blank starts on `blank`.
pub fn moves_back(side: usize, sigma: &[u8], mut blank: usize, path: &[u8]) -> Vec<Move> {
    let mut inverse = vec![0u8; sigma.len()];
    for (c, &s) in sigma.iter().enumerate() {
        inverse[s as usize] = c as u8;
    }
    let side = side as isize;
    path.iter()
        .map(|&canon| {
            let next = inverse[canon as usize] as usize;
            let step = next as isize - blank as isize;
            blank = next;
            match step {
                s if s == side => Move::Up,
                s if s == -side => Move::Down,
                1 => Move::Left,
                -1 => Move::Right,
                _ => unreachable!("the blank moves to a neighbouring cell"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalising_renames_tiles_by_home_cell() {
        // 3 1 / 2 b towards 1 2 / 3 b on 2x2 is not supported (side 2 has no
        // class 3), so take a 4x4 goal with the blank on cell 15, class 0.
        let goal: Vec<u8> = (1..16).chain([0]).collect();
        let mut start = goal.clone();
        start.swap(15, 14);
        let canon = normalise(4, &start, &goal, 0, 16);
        // The symmetry takes cell 15 to cell 0; the blank is next to it.
        assert_eq!(canon.sigma[15], 0);
        let blank = canon.cells.iter().position(|&t| t == 16).unwrap();
        assert_eq!(blank, canon.sigma[14] as usize);
        let moves = moves_back(4, &canon.sigma, 14, &[0]);
        assert_eq!(moves, vec![Move::Left]);
    }
}
