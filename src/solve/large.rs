//! Valid (not shortest) solutions of boards of any side, by the usual reduction:
//! solve the top row, then the left column, and so on, until a 3x3 corner is left,
//! which [`solve_small`] finishes optimally.
//!
//! # Any goal
//!
//! Start and goal are routed to one common board `C`, and the two paths joined:
//! `path(start -> C) + reversed(path(goal -> C))`. `C` is the goal with its blank
//! walked down to the bottom row and then right to the bottom-right corner, so
//! `path(goal -> C)` is that short walk, and `C` agrees with the goal everywhere
//! except along it. The start is then reduced until every cell outside the
//! bottom-right 3x3 corner holds `C`'s tile, and the two 3x3 corners (the start's
//! and `C`'s, holding the same 8 tiles, relabelled `1..=8`) are joined by
//! [`solve_small`]. Start and goal have the same parity, and so have `C` and the
//! reduced start, which differ only inside the corner: no special case is needed.
//!
//! # The reduction
//!
//! For `k` in `0..side-3`, row `k` (cells `k..side` of it) and then column `k`
//! (rows `k+1..side`) are solved; a column is solved exactly like a row on the
//! transposed board, so one routine does both, in *view* coordinates. In a line of
//! the view, all tiles but the last two are placed one by one: the tile is walked
//! a cell at a time towards its target, each step by routing the blank (around the
//! tile and the locked, already placed cells) to the cell ahead of the tile and
//! sliding the tile into it. The last two tiles `a`, `b` are first brought into the
//! 3-row, 2-column window at the line's end (`a` to the end of the line, then,
//! with `a` held, `b` anywhere into the window), the blank is brought into the
//! window without pulling either out, and a breadth-first search over the window's
//! 120 arrangements of `a`, `b` and the blank finishes them. This never gets stuck:
//! the free cells minus the tile being walked always stay connected (the region
//! left is at least 4 by 3 when a line is solved), which the tests check on many
//! random boards.
//!
//! Each move costs O(1) besides the routing of the blank, which walks a straight
//! L-shaped path when one is free and otherwise runs a small A* search (only
//! around the walked tile or the window, so it explores a few cells). Moves that
//! undo the previous one are cancelled as they are recorded.

use crate::solve::moves::{reversed, Move};
use crate::solve::small::solve_small;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// No cell: the blank routing avoids nothing besides the locked cells.
const NONE: usize = usize::MAX;

/// A valid solution taking `start` to `goal` on a `side`-wide board.
///
/// Both boards are row-major cells with `0` for the blank and the tiles
/// `1..side*side` once each; the goal may have its blank anywhere, and must be
/// reachable from the start (same parity; the caller checks). Boards of side 2 and
/// 3 are solved optimally by [`solve_small`]; larger ones by the reduction described
/// in the module documentation, in time proportional to the number of moves.
pub fn solve_large(side: usize, start: &[u32], goal: &[u32]) -> Vec<Move> {
    if side < 2 || start == goal {
        return Vec::new();
    }
    if side <= 3 {
        let narrow = |b: &[u32]| b.iter().map(|&t| t as u8).collect::<Vec<u8>>();
        return solve_small(side, &narrow(start), &narrow(goal));
    }
    let n = side;

    // C: the goal with its blank walked down, then right, to the last cell.
    let mut common = goal.to_vec();
    let mut blank = goal.iter().position(|&t| t == 0).unwrap_or(n * n - 1);
    let mut walk = Vec::with_capacity(2 * n);
    while blank / n < n - 1 {
        common.swap(blank, blank + n);
        blank += n;
        walk.push(Move::Up);
    }
    while blank % n < n - 1 {
        common.swap(blank, blank + 1);
        blank += 1;
        walk.push(Move::Left);
    }

    let mut r = Reducer::new(n, start, &common);
    for k in 0..n - 3 {
        r.transposed = false;
        r.solve_line(k, k);
        r.transposed = true;
        r.solve_line(k, k + 1);
    }

    // The 3x3 corners, relabelled by C's reading order.
    let corner: Vec<usize> = (n - 3..n)
        .flat_map(|row| (n - 3..n).map(move |col| row * n + col))
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
    let small_start: Vec<u8> = corner.iter().map(|&c| label[r.cells[c] as usize]).collect();
    let small_goal: Vec<u8> = corner.iter().map(|&c| label[common[c] as usize]).collect();
    for mv in solve_small(3, &small_start, &small_goal) {
        r.record(mv);
    }
    for mv in reversed(&walk) {
        r.record(mv);
    }
    r.moves
}

/// The reduction's state: the board as it is being solved, with every tile's cell.
struct Reducer<'a> {
    n: usize,
    cells: Vec<u32>,
    /// `pos[tile]`: the cell holding `tile`.
    pos: Vec<usize>,
    blank: usize,
    /// Cells whose tiles are placed (or held for now): the blank never enters them.
    locked: Vec<bool>,
    /// The tile each cell must end with (the common board C).
    target: &'a [u32],
    /// Whether view coordinates are transposed (solving a column).
    transposed: bool,
    moves: Vec<Move>,
    search: Search,
}

/// Scratch space of the A* routing, reused between searches.
struct Search {
    stamp: Vec<u32>,
    current: u32,
    cost: Vec<u32>,
    parent: Vec<usize>,
    heap: BinaryHeap<Reverse<(u32, u32, usize)>>,
    path: Vec<usize>,
}

impl<'a> Reducer<'a> {
    fn new(n: usize, start: &[u32], target: &'a [u32]) -> Reducer<'a> {
        let cells = start.to_vec();
        let mut pos = vec![0; n * n];
        for (cell, &tile) in cells.iter().enumerate() {
            pos[tile as usize] = cell;
        }
        Reducer {
            n,
            blank: pos[0],
            cells,
            pos,
            locked: vec![false; n * n],
            target,
            transposed: false,
            moves: Vec::new(),
            search: Search {
                stamp: vec![0; n * n],
                current: 0,
                cost: vec![0; n * n],
                parent: vec![0; n * n],
                heap: BinaryHeap::new(),
                path: Vec::new(),
            },
        }
    }

    /// The cell at view row `r`, view column `c`.
    fn at(&self, r: usize, c: usize) -> usize {
        if self.transposed {
            c * self.n + r
        } else {
            r * self.n + c
        }
    }

    /// The view row and column of `cell`.
    fn view(&self, cell: usize) -> (usize, usize) {
        let (r, c) = (cell / self.n, cell % self.n);
        if self.transposed {
            (c, r)
        } else {
            (r, c)
        }
    }

    fn distance(&self, a: usize, b: usize) -> usize {
        let n = self.n;
        (a / n).abs_diff(b / n) + (a % n).abs_diff(b % n)
    }

    /// An estimate of the moves the blank needs to reach `q`, next to the tile at
    /// `p`: the Manhattan distance, plus 2 to go round the tile when it lies
    /// straight between.
    fn approach_cost(&self, q: usize, p: usize) -> usize {
        let n = self.n;
        let (b, d) = (self.blank, self.distance(self.blank, q));
        let between = (b / n == q / n
            && p / n == q / n
            && (b % n).min(q % n) < p % n
            && p % n < (b % n).max(q % n))
            || (b % n == q % n
                && p % n == q % n
                && (b / n).min(q / n) < p / n
                && p / n < (b / n).max(q / n));
        if between {
            d + 2
        } else {
            d
        }
    }

    /// Records `mv`, cancelling it against the previous move if it undoes it.
    fn record(&mut self, mv: Move) {
        if self.moves.last() == Some(&mv.inverse()) {
            self.moves.pop();
        } else {
            self.moves.push(mv);
        }
    }

    /// Moves the blank to the neighbouring cell `to`, sliding its tile.
    fn step(&mut self, to: usize) {
        let from = self.blank;
        let n = self.n;
        let mv = if to == from + n {
            Move::Up
        } else if to + n == from {
            Move::Down
        } else if to == from + 1 {
            Move::Left
        } else {
            debug_assert_eq!(to + 1, from, "the blank moves to a neighbour");
            Move::Right
        };
        let tile = self.cells[to];
        self.cells[from] = tile;
        self.cells[to] = 0;
        self.pos[tile as usize] = from;
        self.blank = to;
        self.record(mv);
    }

    fn free(&self, cell: usize, avoid: usize) -> bool {
        cell != avoid && !self.locked[cell]
    }

    /// Moves the blank to `goal` without entering a locked cell or `avoid`.
    fn route_blank(&mut self, goal: usize, avoid: usize) {
        if self.blank == goal {
            return;
        }
        if !self.straight_route(goal, avoid, true) && !self.straight_route(goal, avoid, false) {
            self.searched_route(goal, avoid);
        }
    }

    /// Walks the blank to `goal` along an L-shaped path (sideways first or
    /// not), if every cell of it is free; returns whether it did.
    fn straight_route(&mut self, goal: usize, avoid: usize, sideways_first: bool) -> bool {
        let n = self.n;
        let corner = if sideways_first {
            self.blank / n * n + goal % n
        } else {
            goal / n * n + self.blank % n
        };
        let clear = |from: usize, to: usize, s: &Self| {
            // Every cell after `from` up to `to`, on one row or one column.
            let stride = if from / n == to / n { 1 } else { n };
            let mut cell = from;
            while cell != to {
                cell = if to > cell {
                    cell + stride
                } else {
                    cell - stride
                };
                if !s.free(cell, avoid) {
                    return false;
                }
            }
            true
        };
        if !clear(self.blank, corner, self) || !clear(corner, goal, self) {
            return false;
        }
        for (from, to) in [(self.blank, corner), (corner, goal)] {
            let stride = if from / n == to / n { 1 } else { n };
            let mut cell = from;
            while cell != to {
                cell = if to > cell {
                    cell + stride
                } else {
                    cell - stride
                };
                self.step(cell);
            }
        }
        true
    }

    /// Walks the blank to `goal` along a shortest free path found by A*.
    fn searched_route(&mut self, goal: usize, avoid: usize) {
        let n = self.n;
        let start = self.blank;
        let s = &mut self.search;
        s.current = s.current.wrapping_add(1);
        if s.current == 0 {
            s.stamp.iter_mut().for_each(|x| *x = 0);
            s.current = 1;
        }
        let stamp = s.current;
        s.heap.clear();
        s.stamp[start] = stamp;
        s.cost[start] = 0;
        let h =
            |cell: usize| ((cell / n).abs_diff(goal / n) + (cell % n).abs_diff(goal % n)) as u32;
        s.heap.push(Reverse((h(start), h(start), start)));
        let mut found = false;
        while let Some(Reverse((f, hx, x))) = s.heap.pop() {
            let g = f - hx;
            if g != s.cost[x] {
                continue;
            }
            if x == goal {
                found = true;
                break;
            }
            let (r, c) = (x / n, x % n);
            let neighbours = [
                (r + 1 < n).then(|| x + n),
                (r > 0).then(|| x - n),
                (c + 1 < n).then(|| x + 1),
                (c > 0).then(|| x - 1),
            ];
            for y in neighbours.into_iter().flatten() {
                if y == avoid || self.locked[y] {
                    continue;
                }
                if s.stamp[y] == stamp && s.cost[y] <= g + 1 {
                    continue;
                }
                s.stamp[y] = stamp;
                s.cost[y] = g + 1;
                s.parent[y] = x;
                let hy = h(y);
                s.heap.push(Reverse((g + 1 + hy, hy, y)));
            }
        }
        assert!(found, "the blank can always reach the cell it is routed to");
        let mut path = std::mem::take(&mut s.path);
        path.clear();
        let mut cell = goal;
        while cell != start {
            path.push(cell);
            cell = self.search.parent[cell];
        }
        for &cell in path.iter().rev() {
            self.step(cell);
        }
        self.search.path = path;
    }

    /// Walks `tile` to the view cell (`tr`, `tc`), one cell at a time, never
    /// through a locked cell; stops early once `stop` holds for its cell.
    fn walk_tile(&mut self, tile: u32, tr: usize, tc: usize, stop: impl Fn(&Self, usize) -> bool) {
        let target = self.at(tr, tc);
        loop {
            let p = self.pos[tile as usize];
            if p == target || stop(self, p) {
                return;
            }
            let (pr, pc) = self.view(p);
            let mut ahead = [NONE; 2];
            if pr != tr {
                ahead[0] = self.at(if pr < tr { pr + 1 } else { pr - 1 }, pc);
            }
            if pc != tc {
                ahead[1] = self.at(pr, if pc < tc { pc + 1 } else { pc - 1 });
            }
            // The cheaper step for the blank; on a tie, along the longer way left,
            // which keeps both ways open for the cheaper staircase walk.
            let longer = usize::from(pc.abs_diff(tc) > pr.abs_diff(tr));
            let q = ahead
                .into_iter()
                .filter(|&q| q != NONE && !self.locked[q])
                .min_by_key(|&q| (self.approach_cost(q, p), q != ahead[longer]))
                .expect("a tile can always step towards its target");
            self.route_blank(q, p);
            self.step(p);
        }
    }

    /// Places the tiles of view row `r0` from view column `c0` to the end, in the
    /// region of view rows `r0..n` and columns `c0..n` (at least 4 rows and 3
    /// columns), and locks them.
    fn solve_line(&mut self, r0: usize, c0: usize) {
        let n = self.n;
        for c in c0..n - 2 {
            let cell = self.at(r0, c);
            self.walk_tile(self.target[cell], r0, c, |_, _| false);
            self.locked[cell] = true;
        }

        // The last two tiles, through the 3x2 window at the end of the line.
        let (ca, cb) = (self.at(r0, n - 2), self.at(r0, n - 1));
        let (a, b) = (self.target[ca], self.target[cb]);
        if self.pos[a as usize] == ca && self.pos[b as usize] == cb {
            self.locked[ca] = true;
            self.locked[cb] = true;
            return;
        }
        let in_window = move |s: &Self, cell: usize| {
            let (r, c) = s.view(cell);
            r < r0 + 3 && c >= n - 2
        };
        if !(in_window(self, self.pos[a as usize]) && in_window(self, self.pos[b as usize])) {
            self.walk_tile(a, r0, n - 1, |_, _| false);
            self.locked[cb] = true;
            self.walk_tile(b, r0 + 1, n - 1, in_window);
            self.locked[cb] = false;
        }
        if !in_window(self, self.blank) {
            // Enter through a window cell next to the outside that holds neither.
            let entries = [
                (self.at(r0 + 1, n - 2), self.at(r0 + 1, n - 3)),
                (self.at(r0 + 2, n - 2), self.at(r0 + 2, n - 3)),
                (self.at(r0 + 2, n - 1), self.at(r0 + 3, n - 1)),
            ];
            let (entry, outside) = entries
                .into_iter()
                .filter(|&(e, _)| self.cells[e] != a && self.cells[e] != b)
                .min_by_key(|&(_, o)| self.distance(self.blank, o))
                .expect("two tiles fill at most two of three entries");
            let window: Vec<usize> = (0..6).map(|i| self.at(r0 + i / 2, n - 2 + i % 2)).collect();
            for &cell in &window {
                self.locked[cell] = true;
            }
            self.route_blank(outside, NONE);
            for &cell in &window {
                self.locked[cell] = false;
            }
            self.step(entry);
        }
        self.finish_window(r0, a, b);
        self.locked[ca] = true;
        self.locked[cb] = true;
    }

    /// With `a`, `b` and the blank inside the 3x2 window at the end of view row
    /// `r0`, puts `a` and `b` at the end of the row by a breadth-first search over
    /// the window (the other tiles in it are interchangeable).
    fn finish_window(&mut self, r0: usize, a: u32, b: u32) {
        let n = self.n;
        let window: [usize; 6] = std::array::from_fn(|i| self.at(r0 + i / 2, n - 2 + i % 2));
        let local = |cell: usize| window.iter().position(|&w| w == cell).unwrap_or(0);
        let encode = |pa: usize, pb: usize, pz: usize| (pa * 6 + pb) * 6 + pz;
        let first = encode(
            local(self.pos[a as usize]),
            local(self.pos[b as usize]),
            local(self.blank),
        );
        // Neighbours of each window cell (3 rows, 2 columns).
        let neighbours = |i: usize| {
            let (r, c) = (i / 2, i % 2);
            [
                (r > 0).then(|| i - 2),
                (r < 2).then(|| i + 2),
                (c == 1).then(|| i - 1),
                (c == 0).then(|| i + 1),
            ]
        };
        let mut parent = [usize::MAX; 216];
        parent[first] = first;
        let mut queue = [0usize; 216];
        let (mut head, mut tail) = (0, 1);
        queue[0] = first;
        let mut last = NONE;
        while head < tail {
            let state = queue[head];
            head += 1;
            let (pa, pb, pz) = (state / 36, state / 6 % 6, state % 6);
            if pa == 0 && pb == 1 {
                last = state;
                break;
            }
            for y in neighbours(pz).into_iter().flatten() {
                let next = if y == pa {
                    encode(pz, pb, y)
                } else if y == pb {
                    encode(pa, pz, y)
                } else {
                    encode(pa, pb, y)
                };
                if parent[next] == usize::MAX {
                    parent[next] = state;
                    queue[tail] = next;
                    tail += 1;
                }
            }
        }
        assert!(
            last != NONE,
            "two tiles can always be arranged in a 3x2 window"
        );
        let mut blanks = Vec::new();
        let mut state = last;
        while state != first {
            blanks.push(window[state % 6]);
            state = parent[state];
        }
        for &cell in blanks.iter().rev() {
            self.step(cell);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::SplitMix64;
    use crate::solve::moves::replay;
    use std::time::Instant;

    /// The crate's seeded generator, in the shapes these tests use.
    struct Rng(SplitMix64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0.index(n)
        }

        fn board(&mut self, cells: usize) -> Vec<u32> {
            self.0.permutation(cells)
        }

        /// A random goal, and a random start of the same parity.
        fn pair(&mut self, side: usize) -> (Vec<u32>, Vec<u32>) {
            let goal = self.board(side * side);
            let mut start = self.board(side * side);
            if !reachable(side, &start, &goal) {
                let mut tiles = (0..start.len()).filter(|&i| start[i] != 0);
                let (i, j) = (tiles.next().unwrap(), tiles.next().unwrap());
                start.swap(i, j);
            }
            (start, goal)
        }
    }

    /// Parity of a permutation given as `perm[i]` = image of `i`.
    fn odd(perm: &[usize]) -> bool {
        let mut seen = vec![false; perm.len()];
        let mut transpositions = 0;
        for i in 0..perm.len() {
            let mut j = i;
            let mut len = 0;
            while !seen[j] {
                seen[j] = true;
                j = perm[j];
                len += 1;
            }
            if len > 0 {
                transpositions += len - 1;
            }
        }
        transpositions % 2 == 1
    }

    /// Whether `goal` can be reached from `start`: the cell permutation taking one
    /// to the other has the parity of the blank's Manhattan displacement.
    fn reachable(side: usize, start: &[u32], goal: &[u32]) -> bool {
        let mut where_in_goal = vec![0; goal.len()];
        for (i, &t) in goal.iter().enumerate() {
            where_in_goal[t as usize] = i;
        }
        let perm: Vec<usize> = start.iter().map(|&t| where_in_goal[t as usize]).collect();
        let (a, b) = (
            where_in_goal[0],
            start.iter().position(|&t| t == 0).unwrap(),
        );
        let blank = (a / side).abs_diff(b / side) + (a % side).abs_diff(b % side);
        odd(&perm) == (blank % 2 == 1)
    }

    fn check(side: usize, start: &[u32], goal: &[u32]) -> usize {
        let moves = solve_large(side, start, goal);
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

    #[test]
    fn four_by_four_random_pairs() {
        let mut rng = Rng(SplitMix64::new(1));
        for _ in 0..20_000 {
            let (start, goal) = rng.pair(4);
            check(4, &start, &goal);
        }
    }

    #[test]
    fn five_to_nine_random_pairs() {
        let mut rng = Rng(SplitMix64::new(2));
        for side in 5..=9 {
            for _ in 0..2000 {
                let (start, goal) = rng.pair(side);
                check(side, &start, &goal);
            }
        }
    }

    #[test]
    fn ten_by_ten_random_pairs() {
        let mut rng = Rng(SplitMix64::new(3));
        for _ in 0..200 {
            let (start, goal) = rng.pair(10);
            check(10, &start, &goal);
        }
    }

    #[test]
    fn hundred_by_hundred_random_pair() {
        let mut rng = Rng(SplitMix64::new(4));
        let (start, goal) = rng.pair(100);
        let t = Instant::now();
        let moves = solve_large(100, &start, &goal);
        let e = t.elapsed();
        eprintln!("100x100: {} moves in {:?}", moves.len(), e);
        let mut cells = start.clone();
        let mut blank = start.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, 100, &mut blank, &moves), Ok(()));
        assert!(cells == goal);
    }

    #[test]
    fn goals_with_the_blank_in_every_cell() {
        let mut rng = Rng(SplitMix64::new(5));
        for side in 4..=6 {
            for blank in 0..side * side {
                for _ in 0..50 {
                    let (mut start, mut goal) = rng.pair(side);
                    // Move the goal's blank to `blank` by swapping it with a tile,
                    // then restore the parity by swapping two tiles of the start.
                    let at = goal.iter().position(|&t| t == 0).unwrap();
                    goal.swap(at, blank);
                    if !reachable(side, &start, &goal) {
                        let mut tiles = (0..start.len()).filter(|&i| start[i] != 0);
                        let (i, j) = (tiles.next().unwrap(), tiles.next().unwrap());
                        start.swap(i, j);
                    }
                    check(side, &start, &goal);
                }
            }
        }
    }

    #[test]
    fn small_sides_and_solved_boards() {
        let mut rng = Rng(SplitMix64::new(6));
        for side in 2..=3 {
            for _ in 0..200 {
                let (start, goal) = rng.pair(side);
                check(side, &start, &goal);
            }
        }
        for side in [1, 2, 3, 4, 7] {
            let goal = rng.board(side * side);
            assert!(solve_large(side, &goal, &goal).is_empty());
        }
    }

    #[test]
    fn boards_a_few_moves_apart() {
        let mut rng = Rng(SplitMix64::new(7));
        for side in 4..=8 {
            for walk in 1..40 {
                let goal = rng.board(side * side);
                let mut start = goal.clone();
                let mut blank = start.iter().position(|&t| t == 0).unwrap();
                for _ in 0..walk {
                    let mv = Move::ALL[rng.below(4)];
                    crate::solve::moves::apply_move(&mut start, side, &mut blank, mv);
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
        assert_eq!(solve_large(5, &start, &goal), vec![Move::Right]);
    }
}
