//! Boards as the solvers see them: row-major cells in which `0` is the blank,
//! as plain slices. Distances between cells, the tiles' Manhattan distance,
//! and whether one arrangement can reach another.
//!
//! [`crate::board_adt::Board`] keeps its own parity as it is read
//! ([`crate::board_adt::Board::can_reach`]); the solvers work on copies of the
//! cells, in their own frames and widths, and check with [`reachable`].

use crate::board_adt::Board;

/// The rows plus the columns between cells `a` and `b` of a `side`-wide
/// board: the moves a tile needs at least to get from one to the other.
pub(crate) const fn manhattan(side: usize, a: usize, b: usize) -> u32 {
    ((a / side).abs_diff(b / side) + (a % side).abs_diff(b % side)) as u32
}

/// The cells next to `cell` on a `side`-wide board, `None` off the board: the
/// one below, above, right and left, the order in which [`Move::ALL`]'s moves
/// take the blank.
///
/// [`Move::ALL`]: crate::board_adt::Move::ALL
#[inline(always)]
pub(crate) fn neighbours(side: usize, cell: usize) -> [Option<usize>; 4] {
    let (r, c) = (cell / side, cell % side);
    [
        (r + 1 < side).then(|| cell + side),
        (r > 0).then(|| cell - side),
        (c + 1 < side).then(|| cell + 1),
        (c > 0).then(|| cell - 1),
    ]
}

/// The sum over the tiles of their Manhattan distance between `start` and
/// `goal` (the blank not counted): every move carries one tile one cell, so no
/// solution is shorter. (The solver's bounds come from `manhattan.rs`, which
/// adds linear conflicts; this is the tests' plain check.)
#[cfg(test)]
pub(crate) fn distance<T: Copy + Into<u64>>(side: usize, start: &[T], goal: &[T]) -> u64 {
    let mut goal_cell = vec![0usize; goal.len()];
    for (cell, &tile) in goal.iter().enumerate() {
        goal_cell[tile.into() as usize] = cell;
    }
    start
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t.into() != 0)
        .map(|(cell, &t)| u64::from(manhattan(side, cell, goal_cell[t.into() as usize])))
        .sum()
}

/// Whether `goal` can be reached from `start` on a `side`-wide board: both hold
/// each of `0 .. side * side` once, and the permutation of cells between them
/// has the parity of the blank's Manhattan distance (every move is a
/// transposition that moves the blank one cell). `false` for anything that is
/// not two such arrangements.
pub(crate) fn reachable<T: Copy + Into<u64>>(side: usize, start: &[T], goal: &[T]) -> bool {
    let n = side * side;
    if start.len() != n || goal.len() != n {
        return false;
    }
    let mut goal_cell = vec![usize::MAX; n];
    for (cell, &t) in goal.iter().enumerate() {
        match goal_cell.get_mut(t.into() as usize) {
            Some(slot) if *slot == usize::MAX => *slot = cell,
            _ => return false,
        }
    }
    // Where each cell's tile goes, and the cycles of that permutation.
    let mut to = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for &t in start {
        match goal_cell.get(t.into() as usize) {
            Some(&cell) if cell != usize::MAX && !seen[cell] => {
                seen[cell] = true;
                to.push(cell);
            }
            _ => return false,
        }
    }
    seen.fill(false);
    let mut transpositions = 0;
    for first in 0..n {
        let mut cell = first;
        let mut length = 0;
        while !seen[cell] {
            seen[cell] = true;
            cell = to[cell];
            length += 1;
        }
        transpositions += length.max(1) - 1;
    }
    let Some(blank) = start.iter().position(|&t| t.into() == 0) else {
        return false;
    };
    transpositions % 2 == manhattan(side, blank, goal_cell[0]) as usize % 2
}

/// The cells of `board` (at most `N`) as bytes, on the stack: no allocation
/// for the millions of small puzzles a batch may hold.
pub(crate) fn narrow<const N: usize>(board: &Board) -> [u8; N] {
    let mut cells = [0u8; N];
    for (cell, &tile) in cells.iter_mut().zip(board.cells()) {
        *cell = tile as u8;
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::apply_move;
    use crate::board_adt::moves::Move;
    use crate::generate::SplitMix64;

    #[test]
    fn neighbours_are_where_the_moves_take_the_blank() {
        for side in [2, 3, 5] {
            for cell in 0..side * side {
                let by_moves = Move::ALL.map(|mv| mv.blank_target(side, cell));
                assert_eq!(neighbours(side, cell), by_moves);
            }
        }
    }

    #[test]
    fn manhattan_counts_rows_and_columns() {
        assert_eq!(manhattan(5, 0, 24), 8);
        assert_eq!(manhattan(4, 5, 5), 0);
        assert_eq!(manhattan(4, 3, 12), 6);
        assert_eq!(distance(2, &[1u32, 2, 3, 0], &[1, 2, 0, 3]), 1);
    }

    #[test]
    fn reachable_agrees_with_the_boards_parity() {
        let mut rng = SplitMix64::new(17);
        for side in 2..=7 {
            for _ in 0..200 {
                let (a, b) = (rng.permutation(side * side), rng.permutation(side * side));
                let (x, y) = (
                    Board::from_cells(a.clone()).unwrap(),
                    Board::from_cells(b.clone()).unwrap(),
                );
                assert_eq!(reachable(side, &a, &b), x.can_reach(&y), "{a:?} {b:?}");
                let bytes = |v: &[u32]| v.iter().map(|&t| t as u8).collect::<Vec<u8>>();
                assert_eq!(reachable(side, &bytes(&a), &bytes(&b)), x.can_reach(&y));
            }
        }
    }

    #[test]
    fn moves_keep_a_board_reachable_and_a_swap_does_not() {
        let mut rng = SplitMix64::new(5);
        let goal = rng.permutation(16);
        let mut start = goal.clone();
        let mut blank = start.iter().position(|&t| t == 0).unwrap();
        for _ in 0..50 {
            apply_move(&mut start, 4, &mut blank, Move::ALL[rng.index(4)]);
        }
        assert!(reachable(4, &start, &goal));
        let (i, j) = if start[0] == 0 || start[1] == 0 {
            (2, 3)
        } else {
            (0, 1)
        };
        start.swap(i, j);
        assert!(!reachable(4, &start, &goal));
        // Not boards at all.
        assert!(!reachable(2, &[1u32, 1, 2, 0], &[1, 2, 3, 0]));
        assert!(!reachable(2, &[1u32, 2, 3], &[1, 2, 3, 0]));
    }
}
