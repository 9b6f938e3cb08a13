//! Any goal onto a canonical one: a start board seen in the frame where its
//! goal is "tile `c` on cell `c`" with the blank on its class representative.
//!
//! Tiles are renamed by their cell in the goal, so every goal becomes "tile `c`
//! on cell `c`" with the blank on the goal's blank cell `g`. A symmetry of the
//! square ([`crate::board_adt::symmetry`]) then moves `g` onto the
//! representative of its class, the smallest cell of its orbit (the rotation
//! that does, when one does): on 4x4 a corner (0), an edge cell (1) or a
//! centre cell (5); on 5x5 a corner (0), a cell next to a corner on the edge
//! (1), the middle of an edge (2), an inner corner (6), the middle of an inner
//! edge (7) or the centre (12). The search runs on the transformed board, and
//! its moves are turned back by the same symmetry.

use crate::board_adt::symmetry::{class_of, Symmetry};
use crate::solve::grid::reachable;

/// Whether `cells` holds each of `0 .. cells.len()` once.
fn is_board(cells: &[u8]) -> bool {
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
pub(crate) struct Canonical {
    /// Tiles named by their home cell in the frame; the blank is `blank_code`.
    pub(crate) cells: Vec<u8>,
    /// The symmetry that took the goal's blank onto the class representative:
    /// a move on the canonical board is `symmetry.moves_back()[mv]` on the
    /// original.
    pub(crate) symmetry: Symmetry,
}

/// `start` towards `goal` (row-major, 0 the blank, each of `0 .. side*side`
/// once, the goal reachable) in the frame where the goal's blank is on `rep`,
/// its class representative, with the blank written as `blank_code`.
///
/// # Panics
///
/// If a board is not a permutation, the goal is not reachable, or `rep` is not
/// the class of the goal's blank.
pub(crate) fn normalise(
    side: usize,
    start: &[u8],
    goal: &[u8],
    rep: usize,
    blank_code: u8,
) -> Canonical {
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
    let symmetry = Symmetry::rotation_onto(side, g, rep)
        .expect("some symmetry maps every cell onto its class representative");
    let sigma = symmetry.cells(side);
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
    Canonical {
        cells: out,
        symmetry,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::Move;

    #[test]
    fn normalising_renames_tiles_by_home_cell() {
        // 3 1 / 2 b towards 1 2 / 3 b on 2x2 is not supported (side 2 has no
        // class 3), so take a 4x4 goal with the blank on cell 15, class 0.
        let goal: Vec<u8> = (1..16).chain([0]).collect();
        let mut start = goal.clone();
        start.swap(15, 14);
        let canon = normalise(4, &start, &goal, 0, 16);
        // The symmetry takes cell 15 to cell 0; the blank is next to it.
        assert_eq!(canon.symmetry.cell(4, 15), 0);
        let blank = canon.cells.iter().position(|&t| t == 16).unwrap();
        assert_eq!(blank, canon.symmetry.cell(4, 14));
        // On the canonical board the blank steps from cell 1 to cell 0 (the
        // tile on 0 slides right); on the original, from 14 to 15 (left).
        assert_eq!(blank, 1);
        assert_eq!(
            canon.symmetry.moves_back()[Move::Right as usize],
            Move::Left
        );
    }
}
