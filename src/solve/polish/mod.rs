//! Shortening a found solution by windows: post-optimisation of the answers
//! of the reduction of 6x6 to 10x10 (`Method::polish` says which windows).
//!
//! While the blank stays inside a `k`x`k` window of the board, every tile
//! outside the window stays where it is. So the stretch of the solution
//! from the board where the blank enters a window to the board where it
//! leaves is a `k`x`k` puzzle of its own: the window's cells before the
//! stretch, to the same cells after it (the same tiles, in another order:
//! an arbitrary goal). A shortest solution of that small puzzle, spliced in
//! place of the stretch, gives the same boards before and after it, with
//! fewer moves whenever the stretch was not shortest.
//!
//! - **The windows.** 4x4 windows are solved optimally by IDA* over the 4x4
//!   pattern databases (milliseconds; the tables serve a goal whose blank is
//!   in their class, so a stretch goes forwards when its end's blank is in a
//!   class at hand, else backwards from its end when its start's is, else is
//!   cut down to the longest part that ends, or begins, on such a board).
//!   3x3 windows by the complete 3x3 tables, for what the 4x4 classes at
//!   hand leave out. (5x5 windows were tried on 6x6 answers: every stretch
//!   searched to the end was shortest already, docs/journal.md; they are
//!   gone.) A stretch longer than a window's [`Size::longest`] is tried in
//!   overlapping parts of that length.
//! - **Cheap first.** A stretch is searched only when the Manhattan distance
//!   plus linear conflicts of its small puzzle is below its length: most
//!   stretches are short and already shortest.
//! - **Loops.** After each sweep, every stretch that leads from a board back
//!   to the same board is cut out (a move and its inverse next to each other
//!   are the shortest such loop; splices make them at their ends).
//! - **Deterministic.** The windows are swept in a fixed order, one thread,
//!   and the searches stop after a number of nodes, never a time: the answer
//!   is the same on any machine and for any `--jobs` (unless a deadline is
//!   given: a time limit). Sweeps repeat while one gains and the budget
//!   lasts.

use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::{apply_move, reversed, Move};
use crate::board_adt::Board;
use crate::solve::manhattan;
use crate::solve::outcome::{Counters, Limits, Outcome};
use crate::solve::pattern::{self, Tables, FIFTEEN};
use crate::solve::small::solve_small;
use std::collections::HashMap;
use std::time::Instant;

/// The tables at hand for the windows, and how much the polish may search.
pub(crate) struct Windows<'a> {
    /// The 4x4 tables of each goal class, in the order of
    /// [`FIFTEEN`]`.classes`, those that are loaded.
    pub(crate) four: [Option<&'a Tables>; 3],
    /// The window sizes, the nodes and the sweeps.
    pub(crate) plan: Plan,
    /// When to stop, whatever is left of the nodes (a time limit); `None`:
    /// the nodes alone decide, and the answer is the same on any machine.
    pub(crate) deadline: Option<Instant>,
}

/// How an answer is shortened by windows (chosen by `Method::polish`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The window sizes swept, in order.
    pub(crate) sizes: &'static [Size],
    /// Nodes all the window searches of one answer may expand.
    pub(crate) nodes: u64,
    /// Sweeps at most.
    pub(crate) sweeps: usize,
}

/// One window size and what a stretch in it may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Size {
    /// The window's side: 3 or 4.
    pub(crate) side: usize,
    /// The longest stretch searched at once; longer ones in parts.
    pub(crate) longest: usize,
    /// Nodes one search may expand.
    pub(crate) nodes: u64,
}

/// `moves` from `start` (row-major cells of a `side`-wide board, 0 the
/// blank) shortened by windows (see the module docs); never longer, and it
/// leads to the same board.
pub(crate) fn polish(
    side: usize,
    start: &[u32],
    moves: Vec<Move>,
    windows: &Windows<'_>,
    counters: &mut Counters,
) -> Vec<Move> {
    let mut polisher = Polisher {
        side,
        start,
        windows,
        used: 0,
        moves: erase_loops(side, start, &moves),
    };
    for _ in 0..windows.plan.sweeps {
        let before = polisher.moves.len();
        for size in windows.plan.sizes {
            if size.side <= side {
                polisher.sweep(*size);
            }
        }
        polisher.moves = erase_loops(side, start, &polisher.moves);
        if polisher.moves.len() == before || polisher.spent() {
            break;
        }
    }
    counters.expanded += polisher.used;
    // Never worse: a stretch is replaced only by a shorter one, loops only
    // removed.
    if polisher.moves.len() <= moves.len() {
        polisher.moves
    } else {
        moves
    }
}

/// [`polish`] for a solution as the solver holds it: `moves` from `start`.
pub(crate) fn polished(
    start: &Board,
    moves: MoveList,
    windows: &Windows<'_>,
    counters: &mut Counters,
) -> MoveList {
    polish(
        start.side(),
        start.cells(),
        moves.to_vec(),
        windows,
        counters,
    )
    .into()
}

/// A solution being polished.
struct Polisher<'a> {
    side: usize,
    start: &'a [u32],
    windows: &'a Windows<'a>,
    /// Nodes searched so far.
    used: u64,
    moves: Vec<Move>,
}

impl Polisher<'_> {
    /// Whether the nodes (or the time) are used up.
    fn spent(&self) -> bool {
        self.used >= self.windows.plan.nodes
            || self
                .windows
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// The blank's cell on each board of the solution (one more than moves).
    fn blanks(&self) -> Vec<usize> {
        let mut blank = self.start.iter().position(|&t| t == 0).unwrap_or(0);
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(blank);
        for &mv in &self.moves {
            if let Some(to) = mv.blank_target(self.side, blank) {
                blank = to;
            }
            out.push(blank);
        }
        out
    }

    /// One sweep of the windows of `size` over the solution, from its first
    /// board to its last.
    fn sweep(&mut self, size: Size) {
        let (n, k) = (self.side, size.side);
        let mut blanks = self.blanks();
        let mut board = self.start.to_vec();
        let mut blank = blanks[0];
        let mut i = 0;
        while i < self.moves.len() && !self.spent() {
            let (row, col) = (blanks[i] / n, blanks[i] % n);
            // The windows the blank enters at board i (or is in at board 0),
            // top-left corner first.
            for top in row.saturating_sub(k - 1)..=row.min(n - k) {
                for left in col.saturating_sub(k - 1)..=col.min(n - k) {
                    let inside = |cell: usize| {
                        (top..top + k).contains(&(cell / n))
                            && (left..left + k).contains(&(cell % n))
                    };
                    if i > 0 && inside(blanks[i - 1]) {
                        continue;
                    }
                    let mut end = i;
                    while end < self.moves.len() && inside(blanks[end + 1]) {
                        end += 1;
                    }
                    if end - i < 4 {
                        continue;
                    }
                    let window = Window { top, left, k };
                    if self.run(&board, i, end, window, size, &blanks) {
                        blanks = self.blanks();
                    }
                }
            }
            // A splice at board i may have left no move after it.
            let Some(&mv) = self.moves.get(i) else {
                break;
            };
            apply_move(&mut board, n, &mut blank, mv);
            i += 1;
        }
    }

    /// Searches the stretches of the run of boards `from..=to` (board `from`
    /// is `board`) in which the blank stays in `window`, and splices in the
    /// first shorter way found; whether one was.
    fn run(
        &mut self,
        board: &[u32],
        from: usize,
        to: usize,
        window: Window,
        size: Size,
        blanks: &[usize],
    ) -> bool {
        let step = (size.longest / 2).max(1);
        let mut s = from;
        let mut at_s = board.to_vec();
        let mut blank = blanks[from];
        loop {
            let e = to.min(s + size.longest);
            if self.stretch(&at_s, s, e, window, size, blanks) {
                return true;
            }
            if e == to || self.spent() {
                return false;
            }
            for &mv in &self.moves[s..s + step] {
                apply_move(&mut at_s, self.side, &mut blank, mv);
            }
            s += step;
        }
    }

    /// Searches the stretch from board `s` (`board`) to board `e`, the blank
    /// in `window` all along, or the longest part of it that the tables at
    /// hand serve; splices in a shorter way if there is one.
    fn stretch(
        &mut self,
        board: &[u32],
        s: usize,
        e: usize,
        window: Window,
        size: Size,
        blanks: &[usize],
    ) -> bool {
        let n = self.side;
        let local = |b: usize| window.local(n, b);
        let served = |cell: usize| self.served(size.side, cell);
        // Forwards to the last board the tables serve, else backwards from
        // the first one.
        let (first, last, backwards) = match (s..=e).rev().find(|&t| served(local(blanks[t]))) {
            Some(last) if last - s >= 4 => (s, last, false),
            _ => match (s..=e).find(|&t| served(local(blanks[t]))) {
                Some(first) if e - first >= 4 => (first, e, true),
                _ => return false,
            },
        };
        let mut before = board.to_vec();
        let mut blank = blanks[s];
        for &mv in &self.moves[s..first] {
            apply_move(&mut before, n, &mut blank, mv);
        }
        let mut after = before.clone();
        for &mv in &self.moves[first..last] {
            apply_move(&mut after, n, &mut blank, mv);
        }
        let (s, e) = (first, last);
        let (a, b) = (window.cut(n, &before), window.cut(n, &after));
        let (from, to) = if backwards { (&b, &a) } else { (&a, &b) };
        let length = e - s;
        if manhattan::lower_bound(size.side, from, to) >= length as u64 {
            return false;
        }
        let Some(found) = self.solve(size, from, to) else {
            return false;
        };
        let found = if backwards { reversed(&found) } else { found };
        if found.len() >= length {
            return false;
        }
        self.moves.splice(s..e, found);
        true
    }

    /// Whether a window of side `k` can be searched towards a goal whose
    /// blank is on `cell` (window coordinates).
    fn served(&self, k: usize, cell: usize) -> bool {
        match k {
            3 => true,
            4 => self.windows.four[FIFTEEN.class(cell)].is_some(),
            _ => false,
        }
    }

    /// A shortest way from `start` to `goal` (a `size.side` window, tiles
    /// relabelled), if the search ends within its budget.
    fn solve(&mut self, size: Size, start: &[u32], goal: &[u32]) -> Option<Vec<Move>> {
        let k = size.side;
        if k == 3 {
            // A walk down the complete table: counted as a node a move.
            let narrow = |b: &[u32]| b.iter().map(|&t| t as u8).collect::<Vec<u8>>();
            let moves = solve_small(3, &narrow(start), &narrow(goal));
            self.used += 1 + moves.len() as u64;
            return Some(moves);
        }
        let goal_blank = goal.iter().position(|&t| t == 0)?;
        let tables = match k {
            4 => self.windows.four[FIFTEEN.class(goal_blank)]?,
            _ => return None,
        };
        let left = self.windows.plan.nodes.saturating_sub(self.used);
        let limits = Limits {
            max_nodes: Some(size.nodes.min(left)),
            ..Limits::UNLIMITED
        };
        let (start, goal) = (
            Board::from_cells(start.to_vec()).ok()?,
            Board::from_cells(goal.to_vec()).ok()?,
        );
        let mut inner = Counters::default();
        let out = pattern::solve(&start, &goal, tables, &limits, &mut inner, &mut |_| {});
        self.used += inner.expanded;
        match out {
            Outcome::Solved(moves) => Some(moves.to_vec()),
            _ => None,
        }
    }
}

/// A `k`x`k` window of the board, its top-left cell at (`top`, `left`).
#[derive(Clone, Copy, Debug)]
struct Window {
    top: usize,
    left: usize,
    k: usize,
}

impl Window {
    /// The window's cell of board cell `cell` (inside the window).
    fn local(self, n: usize, cell: usize) -> usize {
        (cell / n - self.top) * self.k + (cell % n - self.left)
    }

    /// The window's cells of `board` as a board of their own, the tiles
    /// renamed `1..` in the order of their values (the same on both ends of
    /// a stretch, which holds the same tiles).
    fn cut(self, n: usize, board: &[u32]) -> Vec<u32> {
        let cells: Vec<u32> = (0..self.k * self.k)
            .map(|c| board[(self.top + c / self.k) * n + self.left + c % self.k])
            .collect();
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        cells
            .iter()
            .map(|t| sorted.binary_search(t).unwrap_or(0) as u32)
            .collect()
    }
}

/// `moves` from `start` with every loop cut out: whenever a board comes
/// again, the moves between its two visits are dropped.
fn erase_loops(side: usize, start: &[u32], moves: &[Move]) -> Vec<Move> {
    let key = |b: &[u32]| b.iter().map(|&t| t as u16).collect::<Vec<u16>>();
    let mut board = start.to_vec();
    let mut blank = start.iter().position(|&t| t == 0).unwrap_or(0);
    let mut seen: HashMap<Vec<u16>, usize> = HashMap::new();
    // The boards of the kept path, in order, and its moves.
    let mut path: Vec<Vec<u16>> = vec![key(&board)];
    let mut kept: Vec<Move> = Vec::with_capacity(moves.len());
    seen.insert(path[0].clone(), 0);
    for &mv in moves {
        if !apply_move(&mut board, side, &mut blank, mv) {
            // Not a solution of this board: leave it as it is.
            return moves.to_vec();
        }
        let now = key(&board);
        if let Some(&at) = seen.get(&now) {
            for gone in path.drain(at + 1..) {
                seen.remove(&gone);
            }
            kept.truncate(at);
        } else {
            seen.insert(now.clone(), path.len());
            path.push(now);
            kept.push(mv);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::SplitMix64;

    /// Makes `moves` on `board` (each must apply), returning the end.
    fn replayed(side: usize, board: &[u32], moves: &[Move]) -> Vec<u32> {
        let mut cells = board.to_vec();
        let mut blank = cells.iter().position(|&t| t == 0).unwrap();
        for (i, &mv) in moves.iter().enumerate() {
            assert!(apply_move(&mut cells, side, &mut blank, mv), "move {i}");
        }
        cells
    }

    /// `length` random moves from `board`, none undoing the one before.
    fn walk(rng: &mut SplitMix64, side: usize, board: &[u32], length: usize) -> Vec<Move> {
        let mut cells = board.to_vec();
        let mut blank = cells.iter().position(|&t| t == 0).unwrap();
        let mut moves: Vec<Move> = Vec::new();
        while moves.len() < length {
            let mv = Move::ALL[rng.below(4) as usize];
            if moves.last() != Some(&mv.inverse()) && apply_move(&mut cells, side, &mut blank, mv) {
                moves.push(mv);
            }
        }
        moves
    }

    /// Windows of 3x3 only: they need no tables.
    const THREE: [Size; 1] = [Size {
        side: 3,
        longest: 40,
        nodes: 0,
    }];

    fn three_by_three() -> Windows<'static> {
        Windows {
            four: [None; 3],
            plan: Plan {
                sizes: &THREE,
                nodes: 1_000_000,
                sweeps: 3,
            },
            deadline: None,
        }
    }

    #[test]
    fn a_detour_inside_a_window_is_replaced_by_a_shorter_way() {
        // The blank goes twice around a 2x2 square (8 moves): that turns
        // three tiles two steps, which once around the other way (4 moves)
        // does too. No board comes twice, so only a window search sees it.
        let side = 6;
        let mut rng = SplitMix64::new(3);
        let start: Vec<u32> = rng.permutation(side * side);
        let mut moves = walk(&mut rng, side, &start, 30);
        let mid = replayed(side, &start, &moves);
        let blank = mid.iter().position(|&t| t == 0).unwrap();
        // Around the square to the blank's lower right (or wherever fits).
        let (down, right) = (blank / side + 1 < side, blank % side + 1 < side);
        let vertical = if down { Move::Up } else { Move::Down };
        let sideways = if right { Move::Left } else { Move::Right };
        let around = [vertical, sideways, vertical.inverse(), sideways.inverse()];
        let detour: Vec<Move> = around.iter().chain(around.iter()).copied().collect();
        moves.extend(&detour);
        let after = replayed(side, &mid, &detour);
        moves.extend(walk(&mut rng, side, &after, 30));
        let end = replayed(side, &start, &moves);
        let polished = polish(
            side,
            &start,
            moves.clone(),
            &three_by_three(),
            &mut Counters::default(),
        );
        assert!(
            polished.len() + 4 <= moves.len(),
            "{} of {}",
            polished.len(),
            moves.len()
        );
        assert_eq!(replayed(side, &start, &polished), end);
    }

    #[test]
    fn a_polished_solution_replays_and_is_never_longer() {
        let mut rng = SplitMix64::new(11);
        for side in [3, 4, 5, 7] {
            for _ in 0..4 {
                let start: Vec<u32> = rng.permutation(side * side);
                let moves = walk(&mut rng, side, &start, 120);
                let end = replayed(side, &start, &moves);
                let polished = polish(
                    side,
                    &start,
                    moves.clone(),
                    &three_by_three(),
                    &mut Counters::default(),
                );
                assert!(polished.len() <= moves.len());
                assert_eq!(replayed(side, &start, &polished), end, "{side}x{side}");
            }
        }
    }

    #[test]
    fn a_loop_is_cut_out() {
        let side = 4;
        let start: Vec<u32> = (1..16).chain([0]).collect();
        // The blank left, up, right and down from the corner turns three
        // tiles a step; three times round is the start again.
        let round = [Move::Right, Move::Down, Move::Left, Move::Up];
        let mut moves: Vec<Move> = round.iter().cycle().take(12).copied().collect();
        moves.push(Move::Right);
        assert_eq!(erase_loops(side, &start, &moves), [Move::Right]);
    }
}
