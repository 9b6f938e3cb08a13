//! Shortest solutions of boards of any side by IDA*.
//!
//! The heuristic is the Manhattan distance of the tiles to their goal cells plus
//! two moves for each tile that must leave its row or column to let another pass
//! (linear conflicts): in every row, the tiles whose goal is in that row must
//! keep their order along it, so all but a longest increasing run of their goal
//! columns need two extra vertical moves at least; columns likewise. Counting the
//! tiles outside a longest increasing subsequence (rather than conflicting pairs)
//! keeps the sum admissible. Both parts are kept up to date move by move: a move
//! changes one tile's Manhattan distance by one, and only the conflicts of the
//! line the tile leaves or enters across its goal line.
//!
//! The depth-first search never undoes its previous move. Every move changes the
//! Manhattan distance by one, so bounds and solution lengths all have the parity
//! of the first heuristic: each iteration raises the bound by 2 (or more, to the
//! least value that exceeded it, which has the same parity).

use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::Move;
use crate::board_adt::Board;
use crate::solve::grid::{manhattan, reachable};
use crate::solve::outcome::{Counters, Limits, Outcome, SearchProgress};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Nodes between two progress reports within an iteration.
const REPORT_EVERY: u64 = 1 << 24;

/// Nodes between two looks at the clock when there is a deadline (a few
/// milliseconds of search).
const DEADLINE_EVERY: u64 = 1 << 14;

/// A shortest solution from `start` to `goal` (the goal reachable), or, when
/// `limits.deadline` comes first, a lower bound on its length (the bound of
/// the unfinished iteration). `progress` is called once per finished
/// iteration and every 2^24 nodes. The time grows very fast with the
/// distance: fine for 3x3 and 4x4, only short solutions of 5x5 and beyond.
pub(crate) fn solve(
    start: &Board,
    goal: &Board,
    limits: &Limits<'_>,
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    let side = start.side();
    let never = AtomicBool::new(false);
    let stop = limits.stop.unwrap_or(&never);
    search(
        side,
        start.cells(),
        goal.cells(),
        (limits.deadline, stop),
        counters,
        progress,
    )
}

/// [`solve`] on plain cells (row-major, `0` the blank, the tiles
/// `1..side*side` once each; the goal may have its blank anywhere). If the
/// goal cannot be reached, the answer is no moves rather than a search that
/// never ends.
fn search(
    side: usize,
    start: &[u32],
    goal: &[u32],
    (deadline, stop): (Option<Instant>, &AtomicBool),
    counters: &mut Counters,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Outcome {
    let cells = side * side;
    if side == 0 || start.len() != cells || goal.len() != cells || start == goal {
        return Outcome::Solved(MoveList::new());
    }
    if !reachable(side, start, goal) {
        return Outcome::Solved(MoveList::new());
    }
    let mut search = Search::new(side, start, goal, progress);
    search.deadline = deadline;
    search.stop = Some(stop);
    search.bound = search.heuristic();
    counters.start_h = search.bound;
    loop {
        search.next_bound = u32::MAX;
        let found = search.dfs(0, None);
        search.report(true);
        counters.expanded = search.nodes;
        counters.iterations += 1;
        if found {
            return Outcome::Solved(std::mem::take(&mut search.path).into());
        }
        if search.stopped {
            return Outcome::Stopped {
                lower_bound: search.bound,
                best: None,
            };
        }
        // Parity makes the least exceeding cost at least `bound + 2`.
        search.bound = search.next_bound.max(search.bound + 2);
    }
}

/// A lower bound on the length of every solution from `start` to `goal`
/// (plain cells, the goal reachable): the Manhattan distance plus two moves
/// for each tile a linear conflict holds back, the first bound of this
/// search. Time and memory grow linearly with the cells.
pub(crate) fn lower_bound(side: usize, start: &[u32], goal: &[u32]) -> u64 {
    if start == goal {
        return 0;
    }
    let mut quiet = |_: &SearchProgress| {};
    u64::from(Search::new(side, start, goal, &mut quiet).heuristic())
}

/// A shortest solution with no limits, as moves (for tests).
#[cfg(test)]
pub(crate) fn solve_shortest(
    side: usize,
    start: &[u32],
    goal: &[u32],
    progress: &mut dyn FnMut(&SearchProgress),
) -> Vec<Move> {
    let never = AtomicBool::new(false);
    let limits = (None, &never);
    match search(
        side,
        start,
        goal,
        limits,
        &mut Counters::default(),
        progress,
    ) {
        Outcome::Solved(moves) => moves.to_vec(),
        _ => unreachable!("no deadline"),
    }
}

/// What [`Search::make`] changed, to take a move back.
struct Undo {
    /// Where the moved tile was (and the blank went).
    from: usize,
    /// Where the blank was (and the moved tile went).
    to: usize,
    manhattan: u32,
    conflicts: u32,
    /// The goal line whose conflicts changed: index, whether a row, old value.
    line: Option<(usize, bool, u32)>,
}

struct Search<'p> {
    side: usize,
    cells: Vec<u32>,
    blank: usize,
    /// Each tile's cell in the goal, and its row and column there.
    goal_cell: Vec<usize>,
    goal_row: Vec<usize>,
    goal_col: Vec<usize>,
    manhattan: u32,
    /// Tiles to take out of each row (column) for the rest to be in goal order.
    row_conflicts: Vec<u32>,
    col_conflicts: Vec<u32>,
    /// Sum of all the above.
    conflicts: u32,
    /// Scratch for the longest increasing subsequence.
    tails: Vec<usize>,
    path: Vec<Move>,
    bound: u32,
    next_bound: u32,
    nodes: u64,
    started: Instant,
    /// When to give up, a flag set from outside to give up, and whether
    /// either has come.
    deadline: Option<Instant>,
    stop: Option<&'p AtomicBool>,
    stopped: bool,
    progress: &'p mut dyn FnMut(&SearchProgress),
}

impl Search<'_> {
    /// A search from `start` towards `goal`, its heuristic computed from scratch.
    fn new<'p>(
        side: usize,
        start: &[u32],
        goal: &[u32],
        progress: &'p mut dyn FnMut(&SearchProgress),
    ) -> Search<'p> {
        let cells = side * side;
        let mut goal_cell = vec![0usize; cells];
        let mut goal_row = vec![0usize; cells];
        let mut goal_col = vec![0usize; cells];
        for (i, &t) in goal.iter().enumerate() {
            goal_cell[t as usize] = i;
            goal_row[t as usize] = i / side;
            goal_col[t as usize] = i % side;
        }
        let mut search = Search {
            side,
            cells: start.to_vec(),
            blank: start.iter().position(|&t| t == 0).unwrap_or(0),
            goal_cell,
            goal_row,
            goal_col,
            manhattan: 0,
            row_conflicts: vec![0; side],
            col_conflicts: vec![0; side],
            conflicts: 0,
            tails: Vec::with_capacity(side),
            path: Vec::new(),
            bound: 0,
            next_bound: u32::MAX,
            nodes: 0,
            started: Instant::now(),
            deadline: None,
            stop: None,
            stopped: false,
            progress,
        };
        search.manhattan = (0..cells)
            .filter(|&i| search.cells[i] != 0)
            .map(|i| search.tile_distance(search.cells[i], i))
            .sum();
        for line in 0..side {
            search.row_conflicts[line] = search.line_conflicts(line, true);
            search.col_conflicts[line] = search.line_conflicts(line, false);
        }
        search.conflicts =
            search.row_conflicts.iter().sum::<u32>() + search.col_conflicts.iter().sum::<u32>();

        search
    }

    fn heuristic(&self) -> u32 {
        self.manhattan + 2 * self.conflicts
    }

    fn tile_distance(&self, tile: u32, cell: usize) -> u32 {
        manhattan(self.side, cell, self.goal_cell[tile as usize])
    }

    /// Tiles of row (or column) `line` whose goal is in that line, less a longest
    /// run of them already in goal order.
    fn line_conflicts(&mut self, line: usize, row: bool) -> u32 {
        let side = self.side;
        self.tails.clear();
        let mut count = 0;
        for k in 0..side {
            let cell = if row {
                line * side + k
            } else {
                k * side + line
            };
            let t = self.cells[cell] as usize;
            if t == 0 {
                continue;
            }
            let (home, along) = if row {
                (self.goal_row[t], self.goal_col[t])
            } else {
                (self.goal_col[t], self.goal_row[t])
            };
            if home != line {
                continue;
            }
            count += 1;
            // Patience sorting: tails[i] is the least end of an increasing run of
            // length i + 1.
            let at = self.tails.partition_point(|&x| x < along);
            if at == self.tails.len() {
                self.tails.push(along);
            } else {
                self.tails[at] = along;
            }
        }
        count - self.tails.len() as u32
    }

    fn report(&mut self, iteration_done: bool) {
        let p = SearchProgress {
            bound: self.bound,
            nodes: self.nodes,
            elapsed: self.started.elapsed(),
            iteration_done,
            best: None,
            iteration_left: None,
            proof_left: None,
        };
        (self.progress)(&p);
    }

    /// Makes `mv` if it is possible, updating the heuristic; returns what
    /// [`Search::unmake`] needs to take it back.
    fn make(&mut self, mv: Move) -> Option<Undo> {
        let side = self.side;
        let from = mv.blank_target(side, self.blank)?;
        let to = self.blank;
        let tile = self.cells[from];
        let t = tile as usize;
        let undo = Undo {
            from,
            to,
            manhattan: self.manhattan,
            conflicts: self.conflicts,
            line: None,
        };
        self.manhattan =
            self.manhattan - self.tile_distance(tile, from) + self.tile_distance(tile, to);
        self.cells[to] = tile;
        self.cells[from] = 0;
        self.blank = from;

        // The tile crosses from one line into another: only the one of the two
        // that is its goal line changes its conflicts.
        let (home, lines, row) = if from / side != to / side {
            (self.goal_row[t], [from / side, to / side], true)
        } else {
            (self.goal_col[t], [from % side, to % side], false)
        };
        let Some(line) = lines.into_iter().find(|&l| l == home) else {
            return Some(undo);
        };
        let now = self.line_conflicts(line, row);
        let slot = if row {
            &mut self.row_conflicts[line]
        } else {
            &mut self.col_conflicts[line]
        };
        let before = std::mem::replace(slot, now);
        self.conflicts = self.conflicts - before + now;
        Some(Undo {
            line: Some((line, row, before)),
            ..undo
        })
    }

    /// Takes back the move that returned `undo`.
    fn unmake(&mut self, undo: Undo) {
        if let Some((line, row, before)) = undo.line {
            if row {
                self.row_conflicts[line] = before;
            } else {
                self.col_conflicts[line] = before;
            }
        }
        // The tile goes back to `from`, the blank to `to`.
        self.cells.swap(undo.to, undo.from);
        self.blank = undo.to;
        self.manhattan = undo.manhattan;
        self.conflicts = undo.conflicts;
    }

    /// Depth-first search below the current state, reached in `g` moves, the
    /// last being `previous`; leaves the solution in `path` and returns true when
    /// it reaches the goal.
    fn dfs(&mut self, g: u32, previous: Option<Move>) -> bool {
        let h = self.heuristic();
        let f = g + h;
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return false;
        }
        if self.manhattan == 0 {
            return true;
        }
        self.nodes += 1;
        if self.nodes & (REPORT_EVERY - 1) == 0 {
            self.report(false);
        }
        if self.nodes & (DEADLINE_EVERY - 1) == 0 {
            self.stopped |= self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        }
        if self.stopped {
            return false;
        }
        for mv in Move::ALL {
            if previous == Some(mv.inverse()) {
                continue;
            }
            let Some(undo) = self.make(mv) else {
                continue;
            };
            self.path.push(mv);
            if self.dfs(g + 1, Some(mv)) {
                return true;
            }
            self.path.pop();
            self.unmake(undo);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::{apply_move, replay};
    use crate::generate::random_walk;
    use crate::generate::SplitMix64;
    use crate::solve::small::solve_small;
    use std::collections::HashMap;

    /// A board `steps` random moves (none undoing the last) from `goal`.
    fn scramble(rng: &mut SplitMix64, side: usize, goal: &[u32], steps: usize) -> Vec<u32> {
        random_walk(rng, side, goal, steps)
    }

    fn replays(side: usize, start: &[u32], goal: &[u32], moves: &[Move]) {
        let mut cells = start.to_vec();
        let mut blank = start.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, side, &mut blank, moves), Ok(()));
        assert_eq!(cells, goal);
    }

    fn pack(cells: &[u32]) -> u64 {
        cells.iter().fold(0, |acc, &t| acc << 4 | u64::from(t))
    }

    /// Independent bidirectional breadth-first search on a 4x4 board.
    fn bidirectional_distance(start: &[u32], goal: &[u32]) -> u32 {
        let side = 4;
        if start == goal {
            return 0;
        }
        let mut seen = [HashMap::new(), HashMap::new()];
        let mut frontier = [vec![start.to_vec()], vec![goal.to_vec()]];
        seen[0].insert(pack(start), 0u32);
        seen[1].insert(pack(goal), 0u32);
        let mut depth = [0u32, 0u32];
        loop {
            let s = usize::from(frontier[1].len() < frontier[0].len());
            let mut next = Vec::new();
            let mut best = u32::MAX;
            for cells in &frontier[s] {
                let blank = cells.iter().position(|&t| t == 0).unwrap();
                for mv in Move::ALL {
                    let mut c = cells.clone();
                    let mut b = blank;
                    if !apply_move(&mut c, side, &mut b, mv) {
                        continue;
                    }
                    let key = pack(&c);
                    if seen[s].contains_key(&key) {
                        continue;
                    }
                    if let Some(&d) = seen[1 - s].get(&key) {
                        best = best.min(depth[s] + 1 + d);
                    }
                    seen[s].insert(key, depth[s] + 1);
                    next.push(c);
                }
            }
            if best != u32::MAX {
                return best;
            }
            depth[s] += 1;
            frontier[s] = next;
        }
    }

    #[test]
    fn three_by_three_lengths_equal_the_tables() {
        let mut rng = SplitMix64::new(21);
        for _ in 0..300 {
            let goal = rng.permutation(9);
            let start = {
                let s = rng.permutation(9);
                if reachable(3, &s, &goal) {
                    s
                } else {
                    let mut s = s;
                    let mut tiles = (0..9).filter(|&i| s[i] != 0);
                    let (i, j) = (tiles.next().unwrap(), tiles.next().unwrap());
                    s.swap(i, j);
                    s
                }
            };
            let moves = solve_shortest(3, &start, &goal, &mut |_| {});
            replays(3, &start, &goal, &moves);
            let narrow = |b: &[u32]| b.iter().map(|&t| t as u8).collect::<Vec<_>>();
            let best = solve_small(3, &narrow(&start), &narrow(&goal));
            assert_eq!(moves.len(), best.len(), "{start:?} -> {goal:?}");
        }
    }

    #[test]
    fn two_by_two_lengths_equal_the_tables() {
        let mut rng = SplitMix64::new(22);
        for _ in 0..200 {
            let goal = rng.permutation(4);
            let steps = rng.index(12);
            let start = scramble(&mut rng, 2, &goal, steps);
            let moves = solve_shortest(2, &start, &goal, &mut |_| {});
            replays(2, &start, &goal, &moves);
            let narrow = |b: &[u32]| b.iter().map(|&t| t as u8).collect::<Vec<_>>();
            assert_eq!(
                moves.len(),
                solve_small(2, &narrow(&start), &narrow(&goal)).len()
            );
        }
    }

    #[test]
    fn easy_four_by_four_lengths_equal_bidirectional_bfs() {
        let mut rng = SplitMix64::new(23);
        for round in 0..40 {
            let goal = rng.permutation(16);
            let start = scramble(&mut rng, 4, &goal, 10 + round % 20);
            let mut reports = Vec::new();
            let moves = solve_shortest(4, &start, &goal, &mut |p| reports.push(*p));
            replays(4, &start, &goal, &moves);
            assert_eq!(moves.len() as u32, bidirectional_distance(&start, &goal));
            // One report per iteration, bounds rising by even steps to the length.
            assert!(!reports.is_empty());
            assert!(reports.windows(2).all(|w| w[1].bound >= w[0].bound + 2
                && (w[1].bound - w[0].bound) % 2 == 0
                && w[1].nodes >= w[0].nodes));
            assert_eq!(reports.last().unwrap().bound as usize, moves.len());
        }
    }

    #[test]
    fn short_five_by_five_scrambles_solve() {
        let mut rng = SplitMix64::new(24);
        for _ in 0..10 {
            let goal = rng.permutation(25);
            let start = scramble(&mut rng, 5, &goal, 30);
            let moves = solve_shortest(5, &start, &goal, &mut |_| {});
            replays(5, &start, &goal, &moves);
            assert!(moves.len() <= 30 && moves.len().is_multiple_of(2));
        }
    }

    /// A search set up on `start`, its heuristic computed from scratch.
    fn fresh<'p>(
        side: usize,
        start: &[u32],
        goal: &[u32],
        progress: &'p mut dyn FnMut(&SearchProgress),
    ) -> Search<'p> {
        Search::new(side, start, goal, progress)
    }

    #[test]
    fn heuristic_is_admissible_on_every_3x3_distance_sampled() {
        let mut rng = SplitMix64::new(25);
        let narrow = |b: &[u32]| b.iter().map(|&t| t as u8).collect::<Vec<_>>();
        for _ in 0..2000 {
            let goal = rng.permutation(9);
            let steps = 1 + rng.index(60);
            let start = scramble(&mut rng, 3, &goal, steps);
            let exact = solve_small(3, &narrow(&start), &narrow(&goal)).len() as u32;
            let mut quiet = |_: &SearchProgress| {};
            let h = fresh(3, &start, &goal, &mut quiet).heuristic();
            assert!(h <= exact, "{start:?} -> {goal:?}: {h} > {exact}");
            assert_eq!(h % 2, exact % 2);
        }
    }

    #[test]
    fn heuristic_updates_match_a_fresh_computation() {
        let mut rng = SplitMix64::new(26);
        for side in 2..=6 {
            for _ in 0..20 {
                let goal = rng.permutation(side * side);
                let start = rng.permutation(side * side);
                let mut progress = |_: &SearchProgress| {};
                let mut s = fresh(side, &start, &goal, &mut progress);
                let mut undos = Vec::new();
                for _ in 0..300 {
                    if let Some(undo) = s.make(Move::ALL[rng.index(4)]) {
                        undos.push(undo);
                    }
                    let cells = s.cells.clone();
                    let mut quiet = |_: &SearchProgress| {};
                    let again = fresh(side, &cells, &goal, &mut quiet);
                    assert_eq!(
                        (s.manhattan, s.conflicts),
                        (again.manhattan, again.conflicts)
                    );
                    assert_eq!(s.blank, again.blank);
                }
                while let Some(undo) = undos.pop() {
                    s.unmake(undo);
                }
                assert_eq!(s.cells, start);
                let mut quiet = |_: &SearchProgress| {};
                let again = fresh(side, &start, &goal, &mut quiet);
                assert_eq!(
                    (s.manhattan, s.conflicts),
                    (again.manhattan, again.conflicts)
                );
                assert_eq!(s.row_conflicts, again.row_conflicts);
                assert_eq!(s.col_conflicts, again.col_conflicts);
            }
        }
    }

    #[test]
    fn solved_and_unreachable_boards_give_no_moves() {
        let goal: Vec<u32> = (0..16).collect();
        assert!(solve_shortest(4, &goal, &goal, &mut |_| {}).is_empty());
        let mut swapped = goal.clone();
        swapped.swap(1, 2);
        assert!(solve_shortest(4, &swapped, &goal, &mut |_| {}).is_empty());
    }

    #[test]
    fn a_two_move_example() {
        let start = [1, 2, 3, 4, 0, 5, 7, 8, 6];
        let goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
        let moves = solve_shortest(3, &start, &goal, &mut |_| {});
        assert_eq!(crate::board_adt::moves::to_letters(&moves), "LU");
    }
}
