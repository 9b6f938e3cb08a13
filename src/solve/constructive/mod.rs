//! Valid (not shortest) solutions of boards of any side, by the usual reduction:
//! solve the top row or the left column, and so on, until a 3x3 corner is left,
//! which [`solve_small`] finishes optimally.
//!
//! # Any goal
//!
//! Start and goal are routed to one common board `C`, and the two paths joined:
//! `path(start -> C) + reversed(path(goal -> C))`. `C` is the goal with its blank
//! walked down and then right into the bottom-right 3x3 corner, so
//! `path(goal -> C)` is that short walk, and `C` agrees with the goal everywhere
//! except along it. The start is then reduced until every cell outside the
//! bottom-right 3x3 corner holds `C`'s tile, and the two 3x3 corners (the start's
//! and `C`'s, holding the same 8 tiles, relabelled `1..=8`) are joined by
//! [`solve_small`]. Start and goal have the same parity, and so have `C` and the
//! reduced start, which differ only inside the corner: no special case is needed.
//!
//! On small boards the whole reduction is run on several images of the puzzle
//! under the symmetries of the square (all 8 up to side 6, fewer up to side 16),
//! each a different order of lines, and the shortest solution, mapped back, is
//! kept.
//!
//! # 6x6 to 10x10: a beam over moves, finished on a 5x5 corner
//!
//! With the 5x5 tables at hand, the reduction stops at a 5x5 corner, which a
//! beam search over the tables finishes near-shortest ([`solve_finished`]).
//! The lines before it are placed an L at a time (the region's first row and
//! first column together) by a beam search over single moves
//! ([`move_beam::place_l`]): it finds its own order of tiles and its own
//! moves, where the steps below follow fixed patterns. Of each beam's
//! completions the one kept has the fewest moves plus twice the distances
//! its tiles have left, or, for the last L, plus the 5x5 corner's table
//! estimate (the first L, which places the most tiles, may get a wider
//! beam than the others: 7x7); the images of the board are reduced on several threads and the
//! best taken in a fixed order (the same answer for any number of threads).
//!
//! Should a beam find no completion, a search over lines takes over: after
//! each line the 8 best partial reductions are kept, each extended by its top
//! row and by its left column in six styles (tiles placed together or one at
//! a time, walked to within 1, 3 or 5 cells, either tie-break of the walk),
//! ranked by their moves plus twice the distances their tiles have left.

//! # The reduction
//!
//! The unsolved region is a rectangle at the bottom right. Each step solves its
//! top row or its left column, whichever has its tiles closer to their cells in
//! total, as long as 3 rows and 3 columns remain; a column is solved exactly like
//! a row on the transposed board, so one routine does both, in *view*
//! coordinates.
//!
//! Tiles are placed by exact searches where they are affordable: an A* search
//! over the cells of the tracked tiles (one, two or three) and of the blank in a
//! window of free cells, the window's other tiles being interchangeable. Its
//! heuristic is the largest single-tile distance, read from tables that a
//! breadth-first search fills for the window (admissible and consistent), so it
//! finds the shortest placement within the window. In a small region (at most
//! 16 cells) the window is the whole region. Tiles are placed two at a time
//! (or the last three together) while the state space stays within 2^18 states;
//! the last two tiles of a line are always placed together, which places the
//! corner tile without a special case.
//!
//! Otherwise a tile is walked a cell at a time towards its target, each
//! step by routing the blank (around the tile and the locked, already placed
//! cells) to the cell ahead of the tile and sliding the tile into it, until it is
//! near; a search in a small box around it and its target finishes. The last two
//! tiles `a`, `b` are walked into a window at the line's end and searched there.
//! Whenever a search cannot run or fails, the original method takes over, which
//! always works: `a` to the end of the line, then, with `a` held, `b` anywhere
//! into the 3-row, 2-column window at the line's end, the blank into the window
//! without pulling either out, and a breadth-first search over the window's 120
//! arrangements of `a`, `b` and the blank. This never gets stuck: the free cells
//! minus the tile being walked always stay connected (the region left is at least
//! 4 by 3 when a line is solved), which the tests check on many random boards.
//!
//! # Routes that carry tiles home
//!
//! Every move of the blank carries one tile one cell, and a route of the blank
//! has many shortest paths. The reduction takes, among them, one that carries
//! the most tiles towards their homes (a dynamic programme over the rectangle
//! between the two cells; A* around obstacles), so that the tiles placed later
//! have less far to go. This is what takes a random 100x100 board from the
//! 2.64 N^3 moves of the plain greedy reduction (Parberry's analysis: 8/3 N^3)
//! to about 1.98 N^3. Long routes go in legs of about 1,024 cells each, so
//! that the work per move stays bounded. Each search has a bounded state
//! space and each placement makes at least one move, so the time stays
//! proportional to the number of moves. Moves that undo the previous one are
//! cancelled as they are recorded.

mod exact;
mod move_beam;

pub(crate) use move_beam::Weights;
mod reducer;
mod route;

use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::{reversed, Move};
use crate::board_adt::symmetry::Symmetry;
use crate::board_adt::Board;
use crate::solve::outcome::Outcome;
use crate::solve::small::solve_small;

/// How many symmetries of the square (of 8) the reduction is tried under, by
/// the largest side: more tries shorten the solution (each try is a different
/// reduction) but cost time.
const PORTFOLIO: [(usize, usize); 3] = [(6, 8), (10, 4), (16, 2)];

/// The images the reduction is tried on, in this order (the first of the
/// shortest answers is kept): the four that keep rows as rows, then the four
/// that transpose.
pub(crate) const IMAGES: [Symmetry; 8] = [
    Symmetry::IDENTITY,
    Symmetry::FLIP_ROWS,
    Symmetry::FLIP_COLS,
    Symmetry::new(false, true, true),
    Symmetry::TRANSPOSE,
    Symmetry::new(true, true, false),
    Symmetry::new(true, false, true),
    Symmetry::new(true, true, true),
];

/// A valid solution from `start` to `goal`, the goal reachable: see the module
/// docs.
pub(crate) fn solve(start: &Board, goal: &Board) -> Outcome {
    Outcome::Solved(solve_large(start.side(), start.cells(), goal.cells()))
}

/// What finishes a reduction on a 5x5 corner instead of a 3x3 one: a 5x5
/// puzzle is two boards of 25 cells (row-major, `0` the blank, the goal's
/// blank in a corner).
pub(crate) struct Finisher<'a> {
    /// A lower bound on the moves of a 5x5 puzzle (cheap): which of the
    /// reductions to finish.
    pub(crate) estimate: &'a (dyn Fn(&[u8], &[u8]) -> u32 + Sync),
    /// A good solution of a 5x5 puzzle.
    pub(crate) solve: &'a dyn Fn(&[u8], &[u8]) -> MoveList,
    /// Threads for the reductions of the images.
    pub(crate) jobs: usize,
    /// States a level of each beam over moves (more is shorter and slower).
    pub(crate) width: usize,
    /// States a level of the beam of the first L, which has the most tiles
    /// to place and the most to gain from a wider beam (7x7).
    pub(crate) first_width: usize,
    /// How the beams over moves weigh what is left.
    pub(crate) weights: Weights,
    /// Images of the board reduced, of [`IMAGES`], in its order.
    pub(crate) images: usize,
    /// Reductions finished, those with the fewest moves plus estimate: the
    /// shortest whole solution is kept.
    pub(crate) finish: usize,
}

/// An image's reduction to the 5x5 corner, with its moves plus the corner's
/// estimate.
type Candidate = (u64, Symmetry, Reduced);

/// A valid solution from `start` to `goal` on boards of side 6 and more: the
/// reduction, on each image of the portfolio, down to a 5x5 corner, and the
/// one whose moves plus the corner's estimate are the fewest finished by
/// `finisher`.
pub(crate) fn solve_finished(start: &Board, goal: &Board, finisher: &Finisher<'_>) -> MoveList {
    let side = start.side();
    assert!(side >= 6, "a 5x5 corner leaves at least one line to reduce");
    let (start, goal) = (start.cells(), goal.cells());
    let images = &IMAGES[..finisher.images.clamp(1, IMAGES.len())];
    // Each image is reduced on its own: on `finisher.jobs` threads, images
    // taken in turn, and the best chosen in the images' order whatever the
    // threads (the same answer for any number).
    let (estimate, weights) = (finisher.estimate, finisher.weights);
    let widths = (finisher.first_width, finisher.width);
    let reduce_image = |image: &Symmetry| {
        let reduced = reduce_beamed(
            side,
            &turned(side, *image, start),
            &turned(side, *image, goal),
            estimate,
            widths,
            weights,
        );
        let total = reduced.moves.len() as u64
            + u64::from((estimate)(&reduced.corner_start, &reduced.corner_goal))
            + reduced.walk.len() as u64;
        (total, *image, reduced)
    };
    let threads = finisher.jobs.clamp(1, images.len());
    let mut results: Vec<Candidate> = if threads == 1 {
        images.iter().map(reduce_image).collect()
    } else {
        let mut parts: Vec<Vec<(usize, Candidate)>> = Vec::new();
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let reduce_image = &reduce_image;
                    scope.spawn(move || {
                        (t..images.len())
                            .step_by(threads)
                            .map(|i| (i, reduce_image(&images[i])))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for handle in handles {
                parts.push(handle.join().expect("a reduction thread panicked"));
            }
        });
        let mut all: Vec<_> = parts.into_iter().flatten().collect();
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, r)| r).collect()
    };
    // The candidates, fewest moves plus estimate first (the images' order
    // among equals); the first few are finished and the shortest kept.
    results.sort_by_key(|(total, _, _)| *total);
    let mut best: Option<MoveList> = None;
    for (_, image, mut reduced) in results.into_iter().take(finisher.finish.max(1)) {
        for mv in (finisher.solve)(&reduced.corner_start, &reduced.corner_goal).iter() {
            reduced.record(mv);
        }
        let mut moves = reduced.finish();
        if best.as_ref().is_none_or(|b| moves.len() < b.len()) {
            moves.map_each(image.moves_back());
            best = Some(moves);
        }
    }
    best.unwrap_or_default()
}

/// A valid solution taking `start` to `goal` on a `side`-wide board.
///
/// Both boards are row-major cells with `0` for the blank and the tiles
/// `1..side*side` once each; the goal may have its blank anywhere, and must be
/// reachable from the start (same parity; the caller checks). Boards of side 2 and
/// 3 are solved optimally by [`solve_small`]; larger ones by the reduction described
/// in the module documentation, in time proportional to the number of moves.
pub(crate) fn solve_large(side: usize, start: &[u32], goal: &[u32]) -> MoveList {
    if side < 2 || start == goal {
        return MoveList::new();
    }
    if side <= 3 {
        let narrow = |b: &[u32]| b.iter().map(|&t| t as u8).collect::<Vec<u8>>();
        return solve_small(side, &narrow(start), &narrow(goal)).into();
    }
    // Every symmetry of the square gives another reduction (its rows and
    // columns are other lines of the original); on small boards several are
    // tried and the shortest kept.
    let tries = portfolio(side);
    let mut best: Option<MoveList> = None;
    for image in &IMAGES[..tries] {
        let mut moves = reduce(
            side,
            &turned(side, *image, start),
            &turned(side, *image, goal),
        );
        if best.as_ref().is_none_or(|b| moves.len() < b.len()) {
            moves.map_each(image.moves_back());
            best = Some(moves);
        }
    }
    best.unwrap_or_default()
}

/// How many images of the portfolio a `side`-wide board is reduced on.
fn portfolio(side: usize) -> usize {
    PORTFOLIO
        .iter()
        .find(|&&(most, _)| side <= most)
        .map_or(1, |&(_, tries)| tries)
}

/// The image of `board` under `image`.
fn turned(side: usize, image: Symmetry, board: &[u32]) -> Vec<u32> {
    let mut out = vec![0; board.len()];
    for (cell, &tile) in board.iter().enumerate() {
        out[image.cell(side, cell)] = tile;
    }
    out
}

/// The reduction of the module documentation, for `side >= 4`.
fn reduce(side: usize, start: &[u32], goal: &[u32]) -> MoveList {
    let mut reduced = reduce_to(side, start, goal, 3);
    for mv in solve_small(3, &reduced.corner_start, &reduced.corner_goal) {
        reduced.record(mv);
    }
    reduced.finish()
}

/// A board reduced to its `k`x`k` bottom-right corner: the moves so far, the
/// corner's puzzle (its cells relabelled `1 ..` in the order of the common
/// board's, `0` the blank), and the walk that took the goal's blank into it,
/// to be undone at the end.
struct Reduced {
    moves: MoveList,
    corner_start: Vec<u8>,
    corner_goal: Vec<u8>,
    walk: Vec<Move>,
}

impl Reduced {
    /// Records a move of the corner's solution (cancelling it against the
    /// previous move if it undoes it).
    fn record(&mut self, mv: Move) {
        self.moves.push_cancelling(mv);
    }

    /// The whole solution: the moves so far, then the walk undone.
    fn finish(mut self) -> MoveList {
        for mv in reversed(&self.walk) {
            self.record(mv);
        }
        self.moves
    }
}

/// The reduction down to the `k`x`k` bottom-right corner (`k` is 3 or 5, at
/// most `side - 1`), the corner left unsolved, towards the common board of
/// [`common_board`], greedily: each line the one whose tiles are nearer.
fn reduce_to(side: usize, start: &[u32], goal: &[u32], k: usize) -> Reduced {
    let n = side;
    let (common, walk) = common_board(side, goal, k);
    let mut r = reducer::Reducer::new(n, start, &common);
    // The unsolved region is rows `top..n`, columns `left..n`; each step solves
    // its top row or its left column, whichever looks cheaper, while it keeps
    // at least `k` rows and `k` columns.
    let (mut top, mut left) = (0, 0);
    while top < n - k || left < n - k {
        let row = if top == n - k {
            false
        } else if left == n - k {
            true
        } else {
            r.line_cost(false, top, left) <= r.line_cost(true, left, top)
        };
        solve_line(&mut r, row, &mut top, &mut left);
    }
    corner(
        side,
        k,
        &r.cells,
        std::mem::take(&mut r.moves),
        &common,
        walk,
    )
}

/// Solves the top row (`row`) or the left column of the region of rows
/// `top..`, columns `left..`, and shrinks the region.
fn solve_line(r: &mut reducer::Reducer<'_>, row: bool, top: &mut usize, left: &mut usize) {
    if row {
        r.transposed = false;
        r.solve_line(*top, *left);
        *top += 1;
    } else {
        r.transposed = true;
        r.solve_line(*left, *top);
        *left += 1;
    }
}

/// The ways of solving a line that the search over lines tries: the plain
/// one, its walks' other tie-break, and tiles one at a time walked to within
/// 3, 1 or 5 cells of their cells. Measured on 50 random 10x10 puzzles: all
/// six, 1,608 moves on average; the first four, 1,634; the first three, 1,635;
/// the plain one alone, 1,719. (One at a time, only the last two tiles of a
/// line are searched together, in a space of at most [`PAIR_STATES`]: the
/// full space there cost half the time for nothing.)
const STYLES: [reducer::Style; 6] = [
    reducer::Style::PLAIN,
    reducer::Style {
        longer_first: false,
        ..reducer::Style::PLAIN
    },
    reducer::Style {
        together: false,
        states: PAIR_STATES,
        ..reducer::Style::PLAIN
    },
    reducer::Style {
        together: false,
        longer_first: false,
        states: PAIR_STATES,
        ..reducer::Style::PLAIN
    },
    reducer::Style {
        together: false,
        near: 1,
        states: PAIR_STATES,
        ..reducer::Style::PLAIN
    },
    reducer::Style {
        together: false,
        near: 5,
        states: PAIR_STATES,
        ..reducer::Style::PLAIN
    },
];

/// The largest search of the last two tiles of a line for the styles that
/// place tiles one at a time.
const PAIR_STATES: usize = 1 << 15;

/// How many partial reductions the search over lines keeps after each line
/// (10x10: 8 kept, 1,608 moves; 4 kept, 1,624).
const LINE_BEAM: usize = 8;

/// The reduction down to the 5x5 corner, searched line by line: every kept
/// partial reduction is extended by its top row and by its left column, each
/// in every [`STYLES`], and the [`LINE_BEAM`] best are kept, by their moves
/// plus twice the tiles' distances left (about what the rest costs a
/// distance); of the reductions to the corner, the one whose moves plus
/// `estimate` of the corner are fewest.
fn reduce_searched(
    side: usize,
    start: &[u32],
    goal: &[u32],
    estimate: &(dyn Fn(&[u8], &[u8]) -> u32 + Sync),
) -> Reduced {
    let (n, k) = (side, 5);
    let (common, walk) = common_board(side, goal, k);
    let mut scratch = reducer::Reducer::new(n, start, &common);
    let mut level = vec![(scratch.fork(), 0, 0)];
    while level[0].1 < n - k || level[0].2 < n - k {
        let mut next = Vec::new();
        for (r, top, left) in &level {
            for row in [true, false] {
                if (row && *top == n - k) || (!row && *left == n - k) {
                    continue;
                }
                for style in STYLES {
                    let mut child = r.fork();
                    child.swap_scratch(&mut scratch);
                    child.style = style;
                    let (mut t, mut l) = (*top, *left);
                    solve_line(&mut child, row, &mut t, &mut l);
                    child.swap_scratch(&mut scratch);
                    let score = child.moves.len() + 2 * child.distance_left();
                    next.push((score, child, t, l));
                }
            }
        }
        // Lines of a region come in either order; keep each state once.
        next.sort_by_key(|(score, ..)| *score);
        next.dedup_by(|a, b| a.1.cells == b.1.cells && a.1.moves.len() == b.1.moves.len());
        next.truncate(LINE_BEAM);
        level = next.into_iter().map(|(_, r, t, l)| (r, t, l)).collect();
    }
    level
        .into_iter()
        .map(|(mut r, ..)| {
            let moves = std::mem::take(&mut r.moves);
            corner(side, k, &r.cells, moves, &common, walk.clone())
        })
        .min_by_key(|reduced| {
            reduced.moves.len() + (estimate)(&reduced.corner_start, &reduced.corner_goal) as usize
        })
        .expect("the search keeps at least one reduction")
}

/// The reduction down to the 5x5 corner by beams over moves
/// ([`move_beam::place_l`]): the region's first row and column placed
/// together, L after L; of each beam's completions the one with the fewest
/// moves plus twice the distances its tiles have left, or, for the last L,
/// plus the 5x5 corner's `estimate`; the first L's beam keeps
/// `first_width` states a level, the others' `width`. Should a beam find no
/// completion (none has, on any board tried), the search over lines takes
/// over.
fn reduce_beamed(
    side: usize,
    start: &[u32],
    goal: &[u32],
    estimate: &(dyn Fn(&[u8], &[u8]) -> u32 + Sync),
    (first_width, width): (usize, usize),
    weights: Weights,
) -> Reduced {
    let (n, k) = (side, 5);
    let (common, walk) = common_board(side, goal, k);
    let mut home = vec![0usize; n * n];
    for (cell, &tile) in common.iter().enumerate() {
        home[tile as usize] = cell;
    }
    let distance = |a: usize, b: usize| (a / n).abs_diff(b / n) + (a % n).abs_diff(b % n);
    let mut cells = start.to_vec();
    let mut moves = MoveList::new();
    for top in 0..n - k {
        let last = top + 1 == n - k;
        let width = if top == 0 { first_width } else { width };
        let completions =
            move_beam::place_l(n, &cells, &common, top, width, MOST_L_MOVES * n, weights);
        let rest = |done: &move_beam::Completion| -> usize {
            if last {
                let corner = corner(side, k, &done.cells, MoveList::new(), &common, Vec::new());
                estimate(&corner.corner_start, &corner.corner_goal) as usize
            } else {
                let left: usize = (0..n * n)
                    .filter(|&cell| cell / n > top && cell % n > top && done.cells[cell] != 0)
                    .map(|cell| distance(cell, home[done.cells[cell] as usize]))
                    .sum();
                2 * left
            }
        };
        let Some(best) = completions
            .into_iter()
            .min_by_key(|done| done.moves.len() + rest(done))
        else {
            return reduce_searched(side, start, goal, estimate);
        };
        for mv in best.moves {
            moves.push_cancelling(mv);
        }
        cells = best.cells;
    }
    corner(side, k, &cells, moves, &common, walk)
}

/// The most moves a beam over moves may take for one L, per cell of the
/// board's side: far above what it takes (about 20 on 6x6).
const MOST_L_MOVES: usize = 60;

/// The common board C of a reduction to the `k`x`k` corner: the goal with its
/// blank walked down, then right, just into the corner; for a 5x5 corner, on
/// into the corner's nearest corner cell, so that the 5x5 puzzle's goal has
/// its blank in a corner (one class of tables serves every board).
/// `solve_small` joins any two blank cells of a 3x3 corner, so there the walk
/// stops at once. Returns C and the walk.
fn common_board(side: usize, goal: &[u32], k: usize) -> (Vec<u32>, Vec<Move>) {
    let n = side;
    let mut common = goal.to_vec();
    let mut blank = goal.iter().position(|&t| t == 0).unwrap_or(n * n - 1);
    let mut walk = Vec::with_capacity(2 * n);
    let mut step = |common: &mut Vec<u32>, blank: &mut usize, to: usize, mv: Move| {
        common.swap(*blank, to);
        *blank = to;
        walk.push(mv);
    };
    while blank / n < n - k {
        let to = blank + n;
        step(&mut common, &mut blank, to, Move::Up);
    }
    while blank % n < n - k {
        let to = blank + 1;
        step(&mut common, &mut blank, to, Move::Left);
    }
    if k == 5 {
        // On to the nearest corner of the corner: the middle row and column
        // go down and right.
        let (row, col) = (blank / n - (n - k), blank % n - (n - k));
        for _ in 0..(if row < 2 { row } else { k - 1 - row }) {
            let (to, mv) = if row < 2 {
                (blank - n, Move::Down)
            } else {
                (blank + n, Move::Up)
            };
            step(&mut common, &mut blank, to, mv);
        }
        for _ in 0..(if col < 2 { col } else { k - 1 - col }) {
            let (to, mv) = if col < 2 {
                (blank - 1, Move::Right)
            } else {
                (blank + 1, Move::Left)
            };
            step(&mut common, &mut blank, to, mv);
        }
    }
    (common, walk)
}

/// A reduction that has reached `cells` by `moves`, its `k`x`k` corner left:
/// the moves, the corner's puzzle relabelled, and the walk of the common
/// board.
fn corner(
    side: usize,
    k: usize,
    cells: &[u32],
    moves: MoveList,
    common: &[u32],
    walk: Vec<Move>,
) -> Reduced {
    let n = side;
    // The corners, relabelled by C's reading order.
    let corner: Vec<usize> = (n - k..n)
        .flat_map(|row| (n - k..n).map(move |col| row * n + col))
        .collect();
    let mut label = vec![0u8; n * n];
    let mut next = 1;
    for &cell in &corner {
        let tile = common[cell] as usize;
        if tile != 0 {
            label[tile] = next;
            next += 1;
        }
    }
    Reduced {
        corner_start: corner.iter().map(|&c| label[cells[c] as usize]).collect(),
        corner_goal: corner.iter().map(|&c| label[common[c] as usize]).collect(),
        moves,
        walk,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::replay;
    use crate::generate::SplitMix64;
    use crate::solve::grid::reachable;

    /// A random goal, and a random start of the same parity.
    pub(super) fn pair(rng: &mut SplitMix64, side: usize) -> (Vec<u32>, Vec<u32>) {
        let goal = rng.permutation(side * side);
        let mut start = rng.permutation(side * side);
        if !reachable(side, &start, &goal) {
            let mut tiles = (0..start.len()).filter(|&i| start[i] != 0);
            let (i, j) = (tiles.next().unwrap(), tiles.next().unwrap());
            start.swap(i, j);
        }
        (start, goal)
    }

    fn check(side: usize, start: &[u32], goal: &[u32]) -> usize {
        let moves = solve_large(side, start, goal).to_vec();
        let mut cells = start.to_vec();
        let mut blank = start.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, side, &mut blank, &moves), Ok(()));
        assert!(cells == goal, "{side}x{side}: {start:?} -> {goal:?}");
        assert!(
            moves.windows(2).all(|w| w[1] != w[0].inverse()),
            "no move undoes the one before"
        );
        moves.len()
    }

    /// Solves through [`solve_finished`], the 5x5 corner finished by the
    /// reduction itself, and checks the moves as [`check`] does.
    fn check_finished(side: usize, start: &[u32], goal: &[u32]) -> usize {
        let wide = |b: &[u8]| b.iter().map(|&t| u32::from(t)).collect::<Vec<_>>();
        let seen = std::sync::atomic::AtomicUsize::new(0);
        let estimate = |s: &[u8], g: &[u8]| {
            // The corner's goal has its blank in a corner.
            let blank = g.iter().position(|&t| t == 0).unwrap();
            assert!([0, 4, 20, 24].contains(&blank), "goal blank on {blank}");
            assert!(reachable(5, s, g));
            seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            0
        };
        let solve = |s: &[u8], g: &[u8]| solve_large(5, &wide(s), &wide(g));
        let finisher = Finisher {
            estimate: &estimate,
            solve: &solve,
            jobs: 1,
            // The solver's width on 9x9 and 10x10 with the small tables:
            // the corner's shape does not depend on it, the test's time does.
            width: 128,
            first_width: 128,
            weights: Weights::FIRST,
            images: portfolio(side),
            finish: 1,
        };
        let (s, g) = (
            Board::from_cells(start.to_vec()).unwrap(),
            Board::from_cells(goal.to_vec()).unwrap(),
        );
        let moves = solve_finished(&s, &g, &finisher);
        // Each image estimates the corners its last beam completed (or, had
        // the beam failed, those of the reductions the line search kept).
        let seen = seen.into_inner();
        let images = portfolio(side);
        let most = move_beam::MOST_COMPLETIONS.max(LINE_BEAM) + 1;
        assert!(
            (images..=images * most).contains(&seen),
            "{seen} estimates for {images} images"
        );
        let moves = moves.to_vec();
        let mut cells = start.to_vec();
        let mut blank = start.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, side, &mut blank, &moves), Ok(()));
        assert!(cells == goal, "{side}x{side}: {start:?} -> {goal:?}");
        moves.len()
    }

    /// A random pair whose goal has its blank on `blank`: the goal's blank
    /// swapped with the tile there, then the parity restored by swapping two
    /// tiles of the start.
    fn pair_with_goal_blank(
        rng: &mut SplitMix64,
        side: usize,
        blank: usize,
    ) -> (Vec<u32>, Vec<u32>) {
        let (mut start, mut goal) = pair(rng, side);
        let at = goal.iter().position(|&t| t == 0).unwrap();
        goal.swap(at, blank);
        if !reachable(side, &start, &goal) {
            let mut tiles = (0..start.len()).filter(|&i| start[i] != 0);
            let (i, j) = (tiles.next().unwrap(), tiles.next().unwrap());
            start.swap(i, j);
        }
        (start, goal)
    }

    #[test]
    fn a_five_by_five_corner_is_finished_from_any_goal_blank() {
        let mut rng = SplitMix64::new(16);
        for side in 6..=10 {
            // Every eleventh cell: 11 shares no factor with the sides, so
            // the goal's blank goes through every column, in the corner and
            // outside it.
            for blank in (0..side * side).step_by(11) {
                let (start, goal) = pair_with_goal_blank(&mut rng, side, blank);
                check_finished(side, &start, &goal);
            }
        }
    }

    #[test]
    fn four_by_four_random_pairs() {
        let mut rng = SplitMix64::new(1);
        for _ in 0..8_000 {
            let (start, goal) = pair(&mut rng, 4);
            check(4, &start, &goal);
        }
    }

    #[test]
    fn five_to_nine_random_pairs() {
        let mut rng = SplitMix64::new(2);
        for side in 5..=9 {
            for _ in 0..80 {
                let (start, goal) = pair(&mut rng, side);
                check(side, &start, &goal);
            }
        }
    }

    #[test]
    fn ten_by_ten_random_pairs() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..40 {
            let (start, goal) = pair(&mut rng, 10);
            check(10, &start, &goal);
        }
    }

    #[test]
    fn hundred_by_hundred_random_pair() {
        let mut rng = SplitMix64::new(4);
        let (start, goal) = pair(&mut rng, 100);
        let moves = solve_large(100, &start, &goal).to_vec();
        let mut cells = start.clone();
        let mut blank = start.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, 100, &mut blank, &moves), Ok(()));
        assert!(cells == goal);
        // Routes that carry tiles homewards: about 2.0 N^3 moves; the
        // reduction without them (Parberry's greedy one) makes 8/3 N^3.
        assert!(moves.len() < 2_100_000, "{} moves", moves.len());
    }

    #[test]
    fn goals_with_the_blank_in_every_cell() {
        let mut rng = SplitMix64::new(5);
        for side in 4..=6 {
            for blank in 0..side * side {
                for _ in 0..12 {
                    let (start, goal) = pair_with_goal_blank(&mut rng, side, blank);
                    check(side, &start, &goal);
                }
            }
        }
    }

    #[test]
    fn small_sides_and_solved_boards() {
        let mut rng = SplitMix64::new(6);
        for side in 2..=3 {
            for _ in 0..200 {
                let (start, goal) = pair(&mut rng, side);
                check(side, &start, &goal);
            }
        }
        for side in [1, 2, 3, 4, 7] {
            let goal = rng.permutation(side * side);
            assert!(solve_large(side, &goal, &goal).is_empty());
        }
    }

    #[test]
    fn boards_a_few_moves_apart() {
        let mut rng = SplitMix64::new(7);
        for side in 4..=8 {
            for walk in 1..40 {
                let goal = rng.permutation(side * side);
                let mut start = goal.clone();
                let mut blank = start.iter().position(|&t| t == 0).unwrap();
                for _ in 0..walk {
                    let mv = Move::ALL[rng.index(4)];
                    crate::board_adt::moves::apply_move(&mut start, side, &mut blank, mv);
                }
                check(side, &start, &goal);
            }
        }
    }

    #[test]
    fn a_one_move_example() {
        let goal: Vec<u32> = (0..25).collect();
        let mut start = goal.clone();
        start.swap(0, 1); // the blank and tile 1 swap places: one move, `R`
        assert_eq!(solve_large(5, &start, &goal).to_vec(), vec![Move::Right]);
    }

    #[test]
    fn every_image_maps_its_moves_back() {
        let mut rng = SplitMix64::new(8);
        for side in [4, 5, 7] {
            for (symmetry, image) in IMAGES.into_iter().enumerate() {
                for _ in 0..20 {
                    let (start, goal) = pair(&mut rng, side);
                    let mut moves = reduce(
                        side,
                        &turned(side, image, &start),
                        &turned(side, image, &goal),
                    );
                    moves.map_each(image.moves_back());
                    let moves = moves.to_vec();
                    let mut cells = start.clone();
                    let mut blank = start.iter().position(|&t| t == 0).unwrap();
                    assert_eq!(replay(&mut cells, side, &mut blank, &moves), Ok(()));
                    assert!(cells == goal, "symmetry {symmetry}, side {side}");
                }
            }
        }
    }

    /// Where `cell` goes under image `k` as this module numbered its images
    /// before [`Symmetry`]: bit 2 transposes, then bit 0 flips the rows and
    /// bit 1 the columns.
    fn old_transform(side: usize, k: usize, cell: usize) -> usize {
        let (mut r, mut c) = (cell / side, cell % side);
        if k & 4 != 0 {
            (r, c) = (c, r);
        }
        if k & 1 != 0 {
            r = side - 1 - r;
        }
        if k & 2 != 0 {
            c = side - 1 - c;
        }
        r * side + c
    }

    #[test]
    fn the_images_are_tried_in_their_old_order() {
        for side in [4, 5, 6, 9] {
            for (k, image) in IMAGES.into_iter().enumerate() {
                for cell in 0..side * side {
                    assert_eq!(image.cell(side, cell), old_transform(side, k, cell));
                }
            }
        }
    }

    #[test]
    fn the_portfolio_is_never_longer_than_the_plain_reduction() {
        let mut rng = SplitMix64::new(9);
        for side in [5, 6, 8] {
            for _ in 0..50 {
                let (start, goal) = pair(&mut rng, side);
                let plain = reduce(side, &start, &goal).len();
                assert!(check(side, &start, &goal) <= plain);
            }
        }
    }

    #[test]
    fn solutions_are_much_shorter_than_the_plain_reduction_made_them() {
        // The plain row-by-row reduction averaged about 225 moves on 5x5 and
        // 2,260 on 10x10.
        let mut rng = SplitMix64::new(12);
        let mean = |side: usize, count: usize, rng: &mut SplitMix64| {
            let total: usize = (0..count)
                .map(|_| {
                    let (start, goal) = pair(rng, side);
                    check(side, &start, &goal)
                })
                .sum();
            total / count
        };
        assert!(mean(5, 200, &mut rng) < 175);
        assert!(mean(10, 20, &mut rng) < 2050);
    }

    #[test]
    fn the_searches_beat_the_greedy_reduction_and_replay() {
        // The corner's Manhattan distance stands in for the tables' estimate.
        let estimate = |s: &[u8], g: &[u8]| crate::solve::grid::distance(5, s, g) as u32;
        let mut rng = SplitMix64::new(21);
        let (mut greedy, mut searched, mut beamed) = (0, 0, 0);
        for _ in 0..12 {
            let (start, goal) = pair(&mut rng, 7);
            let plain = reduce_to(7, &start, &goal, 5);
            let over_lines = reduce_searched(7, &start, &goal, &estimate);
            let over_moves =
                reduce_beamed(7, &start, &goal, &estimate, (1024, 1024), Weights::FIRST);
            let total =
                |r: &Reduced| r.moves.len() + estimate(&r.corner_start, &r.corner_goal) as usize;
            greedy += total(&plain);
            searched += total(&over_lines);
            beamed += total(&over_moves);
            for found in [&over_lines, &over_moves] {
                // The moves so far reach a board whose corner is the puzzle left.
                let mut cells = start.clone();
                let mut blank = start.iter().position(|&t| t == 0).unwrap();
                assert_eq!(
                    replay(&mut cells, 7, &mut blank, &found.moves.to_vec()),
                    Ok(())
                );
                let (common, _) = common_board(7, &goal, 5);
                let outside = |c: &usize| c / 7 < 2 || c % 7 < 2;
                assert!((0..49).filter(outside).all(|c| cells[c] == common[c]));
                let relabelled = |c: usize| found.corner_start[(c / 7 - 2) * 5 + c % 7 - 2];
                let zero_at = (0..49)
                    .filter(|c| !outside(c))
                    .find(|&c| relabelled(c) == 0);
                assert_eq!(zero_at, Some(blank));
            }
        }
        // Measured: the beam over moves 4,234, the search over lines 5,378,
        // the greedy reduction 5,646.
        assert!(beamed * 100 < searched * 90, "{beamed} against {searched}");
        assert!(searched * 100 < greedy * 97, "{searched} against {greedy}");
    }
}
