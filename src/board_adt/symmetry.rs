//! The eight symmetries of the square (its rotations and reflections), as maps
//! of a board's cells and of its moves, and the classes of cells they make.
//!
//! A solver may turn a puzzle by a symmetry, solve the image, and turn the
//! moves back: the image has the same distance and, move for move, the same
//! solutions. The 2x2 and 3x3 tables and the pattern databases use this to
//! serve every goal from one table per *class* of the goal's blank cell (the
//! cells the symmetries map onto each other); the constructive method tries
//! several images and keeps the shortest answer.
//!
//! A symmetry is written as three steps, each taken or not, in this order:
//! transpose (mirror about the main diagonal), flip the rows (upside down),
//! flip the columns (left to right). [`Symmetry::ALL`] numbers them by those
//! three bits. Which of several symmetries carries a cell onto its class's
//! representative decides which of several shortest solutions a solver prints,
//! so each solver states its choice ([`Symmetry::first_onto`],
//! [`Symmetry::rotation_onto`]).

use super::moves::Move;

/// A symmetry of the square: optionally transpose, then optionally flip the
/// rows, then optionally flip the columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

impl Symmetry {
    /// Leaves every cell where it is.
    pub(crate) const IDENTITY: Symmetry = Symmetry::new(false, false, false);
    /// The mirror about the main diagonal: rows become columns.
    pub(crate) const TRANSPOSE: Symmetry = Symmetry::new(true, false, false);
    /// The mirror that turns the board upside down.
    pub(crate) const FLIP_ROWS: Symmetry = Symmetry::new(false, true, false);
    /// The left-right mirror: it fixes the middle column.
    pub(crate) const FLIP_COLS: Symmetry = Symmetry::new(false, false, true);

    /// All eight, numbered by their steps: bit 0 transposes, bit 1 flips the
    /// rows, bit 2 flips the columns.
    pub(crate) const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry::IDENTITY; 8];
        let mut k = 0;
        while k < 8 {
            all[k] = Symmetry::new(k & 1 != 0, k & 2 != 0, k & 4 != 0);
            k += 1;
        }
        all
    };

    /// The symmetry of these steps.
    pub(crate) const fn new(transpose: bool, flip_rows: bool, flip_cols: bool) -> Symmetry {
        Symmetry {
            transpose,
            flip_rows,
            flip_cols,
        }
    }

    /// Whether it is a rotation (an even number of mirrors), not a reflection.
    pub(crate) fn is_rotation(self) -> bool {
        !(self.transpose ^ self.flip_rows ^ self.flip_cols)
    }

    /// Where `cell` of a `side`-wide board goes.
    pub(crate) fn cell(self, side: usize, cell: usize) -> usize {
        let (mut r, mut c) = (cell / side, cell % side);
        if self.transpose {
            (r, c) = (c, r);
        }
        if self.flip_rows {
            r = side - 1 - r;
        }
        if self.flip_cols {
            c = side - 1 - c;
        }
        r * side + c
    }

    /// The map of a `side`-wide board's cells as a table: cell `c` goes to
    /// `table[c]`.
    pub(crate) fn cells(self, side: usize) -> Vec<u8> {
        (0..side * side).map(|c| self.cell(side, c) as u8).collect()
    }

    /// The move on the image that stands for `mv` on the board.
    pub(crate) fn image(self, mv: Move) -> Move {
        let mut mv = mv;
        if self.transpose {
            mv = match mv {
                Move::Up => Move::Left,
                Move::Left => Move::Up,
                Move::Down => Move::Right,
                Move::Right => Move::Down,
            };
        }
        let vertical = matches!(mv, Move::Up | Move::Down);
        if (self.flip_rows && vertical) || (self.flip_cols && !vertical) {
            mv.inverse()
        } else {
            mv
        }
    }

    /// The move on the board that `mv` on the image stands for, for each
    /// move in the order of [`Move::ALL`]: the way back from the image.
    pub(crate) fn moves_back(self) -> [Move; 4] {
        let mut back = Move::ALL;
        for mv in Move::ALL {
            back[self.image(mv) as usize] = mv;
        }
        back
    }

    /// The first symmetry in [`Symmetry::ALL`] that carries `cell` of a
    /// `side`-wide board onto `to`.
    pub(crate) fn first_onto(side: usize, cell: usize, to: usize) -> Option<Symmetry> {
        Symmetry::ALL.into_iter().find(|s| s.cell(side, cell) == to)
    }

    /// The rotation that carries `cell` onto `to`, if one does (the identity
    /// when `cell` is `to`), else the first reflection in [`Symmetry::ALL`]
    /// that does.
    pub(crate) fn rotation_onto(side: usize, cell: usize, to: usize) -> Option<Symmetry> {
        let onto = || {
            Symmetry::ALL
                .into_iter()
                .filter(|s| s.cell(side, cell) == to)
        };
        onto().find(|s| s.is_rotation()).or_else(|| onto().next())
    }
}

/// The representative of `cell`'s class on a `side`-wide board: the smallest
/// cell a symmetry carries it onto. On 4x4: 0 (corners), 1 (edge cells) or 5
/// (centre cells); on 5x5: 0, 1, 2 (corner, next to a corner, middle of an
/// edge), 6, 7 (inner corner, middle of an inner edge) or 12 (centre).
pub(crate) fn class_of(side: usize, cell: usize) -> usize {
    Symmetry::ALL
        .iter()
        .map(|s| s.cell(side, cell))
        .min()
        .expect("eight symmetries")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The symmetries as `solve::pattern` numbered them before this module:
    /// identity, the rotations by a quarter, a half and three quarters, the
    /// left-right and upside-down mirrors, the transpose, the anti-transpose.
    fn pattern_numbering(n: usize) -> [Vec<u8>; 8] {
        type RowCol = fn(usize, usize, usize) -> (usize, usize);
        let maps: [RowCol; 8] = [
            |_, r, c| (r, c),
            |n, r, c| (c, n - 1 - r),
            |n, r, c| (n - 1 - r, n - 1 - c),
            |n, r, c| (n - 1 - c, r),
            |n, r, c| (r, n - 1 - c),
            |n, r, c| (n - 1 - r, c),
            |_, r, c| (c, r),
            |n, r, c| (n - 1 - c, n - 1 - r),
        ];
        maps.map(|m| {
            (0..n * n)
                .map(|cell| {
                    let (r, c) = m(n, cell / n, cell % n);
                    (r * n + c) as u8
                })
                .collect()
        })
    }

    /// The symmetries as `solve::small` numbered them: bit 0 transposes, bit 1
    /// flips the rows, bit 2 the columns; with the moves mapped back.
    fn small_numbering(n: usize, k: usize) -> (Vec<u8>, [Move; 4]) {
        const BLANK_STEP: [(isize, isize); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let (transpose, flip_rows, flip_cols) = (k & 1 != 0, k & 2 != 0, k & 4 != 0);
        let cell = (0..n * n)
            .map(|i| {
                let (mut r, mut c) = (i / n, i % n);
                if transpose {
                    std::mem::swap(&mut r, &mut c);
                }
                if flip_rows {
                    r = n - 1 - r;
                }
                if flip_cols {
                    c = n - 1 - c;
                }
                (r * n + c) as u8
            })
            .collect();
        let turn = |(mut dr, mut dc): (isize, isize)| {
            if transpose {
                std::mem::swap(&mut dr, &mut dc);
            }
            if flip_rows {
                dr = -dr;
            }
            if flip_cols {
                dc = -dc;
            }
            (dr, dc)
        };
        let mut back = Move::ALL;
        for (original, &step) in BLANK_STEP.iter().enumerate() {
            let m = BLANK_STEP.iter().position(|&s| s == turn(step)).unwrap();
            back[m] = Move::ALL[original];
        }
        (cell, back)
    }

    #[test]
    fn the_eight_are_distinct_permutations() {
        for side in 2..=7 {
            let all: Vec<Vec<u8>> = Symmetry::ALL.iter().map(|s| s.cells(side)).collect();
            for (i, map) in all.iter().enumerate() {
                let mut sorted = map.clone();
                sorted.sort_unstable();
                assert!(sorted.iter().enumerate().all(|(c, &x)| x as usize == c));
                if side > 1 {
                    assert!(all[..i].iter().all(|other| other != map), "side {side}");
                }
            }
            assert_eq!(
                Symmetry::TRANSPOSE.cell(side, 1),
                side,
                "rows become columns"
            );
            assert_eq!(Symmetry::FLIP_COLS.cell(side, 0), side - 1);
            assert_eq!(Symmetry::FLIP_ROWS.cell(side, 0), side * (side - 1));
        }
    }

    #[test]
    fn moves_turn_with_the_cells() {
        // A move from any blank cell on the board becomes, on the image, the
        // move between the images of the two cells.
        for side in [3, 4, 5] {
            for s in Symmetry::ALL {
                for blank in 0..side * side {
                    for mv in Move::ALL {
                        let Some(target) = mv.blank_target(side, blank) else {
                            continue;
                        };
                        let image = s.image(mv);
                        assert_eq!(
                            image.blank_target(side, s.cell(side, blank)),
                            Some(s.cell(side, target))
                        );
                        assert_eq!(s.moves_back()[image as usize], mv);
                    }
                }
            }
        }
    }

    #[test]
    fn the_small_tables_choose_as_they_did() {
        // Every symmetry of the old numbering is the one of the same number,
        // with the same moves back, and the first one onto a class
        // representative is the same.
        for side in [2, 3] {
            for (k, s) in Symmetry::ALL.into_iter().enumerate() {
                let (cells, back) = small_numbering(side, k);
                assert_eq!(s.cells(side), cells);
                assert_eq!(s.moves_back(), back);
            }
            for cell in 0..side * side {
                let rep = class_of(side, cell);
                let old = (0..8)
                    .map(|k| small_numbering(side, k).0)
                    .find(|m| m[cell] as usize == rep);
                let new = Symmetry::first_onto(side, cell, rep).map(|s| s.cells(side));
                assert_eq!(new, old, "side {side}, cell {cell}");
            }
        }
    }

    #[test]
    fn the_pattern_databases_choose_as_they_did() {
        for side in [4, 5] {
            let old = pattern_numbering(side);
            assert_eq!(old[6], Symmetry::TRANSPOSE.cells(side));
            assert_eq!(old[4], Symmetry::FLIP_COLS.cells(side));
            for cell in 0..side * side {
                let rep = class_of(side, cell);
                assert_eq!(rep, old.iter().map(|m| m[cell] as usize).min().unwrap());
                let chosen = old.iter().find(|m| m[cell] as usize == rep).cloned();
                let new = Symmetry::rotation_onto(side, cell, rep).map(|s| s.cells(side));
                assert_eq!(new, chosen, "side {side}, cell {cell}");
            }
        }
    }

    #[test]
    fn goal_cells_fall_into_classes() {
        let four: Vec<usize> = (0..16).map(|c| class_of(4, c)).collect();
        assert_eq!(four, [0, 1, 1, 0, 1, 5, 5, 1, 1, 5, 5, 1, 0, 1, 1, 0]);
        let five: Vec<usize> = (0..25).map(|c| class_of(5, c)).collect();
        #[rustfmt::skip]
        let want = [
            0, 1, 2, 1, 0,
            1, 6, 7, 6, 1,
            2, 7, 12, 7, 2,
            1, 6, 7, 6, 1,
            0, 1, 2, 1, 0,
        ];
        assert_eq!(five, want);
        let three: Vec<usize> = (0..9).map(|c| class_of(3, c)).collect();
        assert_eq!(three, [0, 1, 0, 1, 4, 1, 0, 1, 0]);
    }
}
