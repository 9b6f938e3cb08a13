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
//! 100 cells) the window is the whole region, and tiles are placed two at a time
//! (or the last three together) while the state space stays within 2^18 states;
//! the last two tiles of a line are always placed together, which places the
//! corner tile without a special case.
//!
//! In a large region a tile is walked a cell at a time towards its target, each
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
//! Each search has a bounded state space and each placement makes at least one
//! move, so the time stays proportional to the number of moves. The blank's
//! routing walks a straight L-shaped path when one is free and otherwise runs a
//! small A* search (only around the walked tile or the window, so it explores a
//! few cells). Moves that undo the previous one are cancelled as they are
//! recorded.

use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::{reversed, Move};
use crate::board_adt::symmetry::Symmetry;
use crate::board_adt::Board;
use crate::solve::grid::manhattan;
use crate::solve::method::Outcome;
use crate::solve::small::solve_small;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// No cell: the blank routing avoids nothing besides the locked cells.
const NONE: usize = usize::MAX;

/// Largest state space (cells of the window to the power of the tracked tiles
/// plus one) an exact placement search may use.
const EXACT_STATES: usize = 1 << 18;

/// Regions (rows times columns) up to this size are searched whole.
const SMALL_REGION: usize = 100;

/// In larger regions a tile is walked to within this distance of its target
/// before the exact search takes over ...
const NEAR: usize = 3;

/// ... in a box around it and its target, this much wider on each side ...
const MARGIN: usize = 1;

/// ... which also covers the blank when the box stays this small.
const SINGLE_BOX: usize = 64;

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

/// The window at a line's end in which a large region's last two tiles are
/// searched exactly: this many rows ...
const PAIR_ROWS: usize = 4;

/// ... and columns.
const PAIR_COLS: usize = 4;

/// A valid solution from `start` to `goal`, the goal reachable: see the module
/// docs.
pub(crate) fn solve(start: &Board, goal: &Board) -> Outcome {
    Outcome::Solved(solve_large(start.side(), start.cells(), goal.cells()))
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
    let tries = PORTFOLIO
        .iter()
        .find(|&&(most, _)| side <= most)
        .map_or(1, |&(_, tries)| tries);
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
    let n = side;

    // C: the goal with its blank walked down, then right, just into the
    // bottom-right 3x3 corner: `solve_small` joins any two blank cells there, so
    // walking it further would only add moves.
    let mut common = goal.to_vec();
    let mut blank = goal.iter().position(|&t| t == 0).unwrap_or(n * n - 1);
    let mut walk = Vec::with_capacity(2 * n);
    while blank / n < n - 3 {
        common.swap(blank, blank + n);
        blank += n;
        walk.push(Move::Up);
    }
    while blank % n < n - 3 {
        common.swap(blank, blank + 1);
        blank += 1;
        walk.push(Move::Left);
    }

    let mut r = Reducer::new(n, start, &common);
    // The unsolved region is rows `top..n`, columns `left..n`; each step solves
    // its top row or its left column, whichever looks cheaper, while it keeps
    // at least 3 rows and 3 columns.
    let (mut top, mut left) = (0, 0);
    while top < n - 3 || left < n - 3 {
        let row = if top == n - 3 {
            false
        } else if left == n - 3 {
            true
        } else {
            r.line_cost(false, top, left) <= r.line_cost(true, left, top)
        };
        if row {
            r.transposed = false;
            r.solve_line(top, left);
            top += 1;
        } else {
            r.transposed = true;
            r.solve_line(left, top);
            left += 1;
        }
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
    moves: MoveList,
    search: Search,
    exact: Exact,
}

/// Scratch space of the exact placement searches, reused between searches.
struct Exact {
    /// `local[cell]`: the cell's index in the current window, or `u16::MAX`.
    local: Vec<u16>,
    stamp: Vec<u32>,
    current: u32,
    parent: Vec<u32>,
    /// Moves from the first state, for states stamped `current`.
    cost: Vec<u32>,
    /// The A* open list: `buckets[f]` holds (state, moves so far) pairs.
    buckets: Vec<Vec<(u32, u32)>>,
    /// Single-tile distance tables, one per tracked tile.
    tables: Vec<Vec<u16>>,
}

/// Fills `table` (indexed `tile * w + blank` over the `w` window cells, whose
/// neighbours are `neighbours`, `u32::MAX` for none) with the moves that take a
/// tile to window cell `goal`, any other tiles being interchangeable, or
/// `u16::MAX` where it cannot get there.
fn single_distances(table: &mut Vec<u16>, neighbours: &[[u32; 4]], goal: usize) {
    let w = neighbours.len();
    table.clear();
    table.resize(w * w, u16::MAX);
    let mut queue: Vec<u32> = Vec::with_capacity(w * w);
    for z in (0..w).filter(|&z| z != goal) {
        table[goal * w + z] = 0;
        queue.push((goal * w + z) as u32);
    }
    let mut head = 0;
    while head < queue.len() {
        let state = queue[head] as usize;
        head += 1;
        let (p, z) = (state / w, state % w);
        let d = table[state] + 1;
        for &y in &neighbours[z] {
            if y == u32::MAX {
                continue;
            }
            let y = y as usize;
            let next = if y == p { z * w + y } else { p * w + y };
            if table[next] == u16::MAX {
                table[next] = d;
                queue.push(next as u32);
            }
        }
    }
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
            moves: MoveList::new(),
            search: Search {
                stamp: vec![0; n * n],
                current: 0,
                cost: vec![0; n * n],
                parent: vec![0; n * n],
                heap: BinaryHeap::new(),
                path: Vec::new(),
            },
            exact: Exact {
                local: vec![u16::MAX; n * n],
                stamp: Vec::new(),
                current: 0,
                parent: Vec::new(),
                cost: Vec::new(),
                buckets: Vec::new(),
                tables: Vec::new(),
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
        manhattan(self.n, a, b) as usize
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
        if self.moves.last() == Some(mv.inverse()) {
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
        let routed = self.try_route_blank(goal, avoid);
        assert!(
            routed,
            "the blank can always reach the cell it is routed to"
        );
    }

    /// Moves the blank to `goal` without entering a locked cell or `avoid`, if it
    /// can get there; returns whether it did (if not, it has not moved).
    fn try_route_blank(&mut self, goal: usize, avoid: usize) -> bool {
        self.blank == goal
            || self.straight_route(goal, avoid, true)
            || self.straight_route(goal, avoid, false)
            || self.searched_route(goal, avoid)
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

    /// Walks the blank to `goal` along a shortest free path found by A*, if there
    /// is one; returns whether there was.
    fn searched_route(&mut self, goal: usize, avoid: usize) -> bool {
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
        let h = |cell: usize| manhattan(n, cell, goal);
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
        if !found {
            return false;
        }
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
        true
    }

    /// Moves `tiles[i]` to `targets[i]` for every `i` by a shortest sequence of
    /// moves that keeps the blank inside `window` (free cells), found by a
    /// breadth-first search over the tiles' and the blank's cells (the window's
    /// other tiles are interchangeable). Returns `false`, having moved nothing,
    /// when a tile or the blank is outside the window, the state space exceeds
    /// [`EXACT_STATES`], or no such sequence exists.
    fn place_exact(&mut self, tiles: &[u32], targets: &[usize], window: &[usize]) -> bool {
        let w = window.len();
        let k = tiles.len();
        let Some(states) = (0..=k).try_fold(1usize, |acc, _| acc.checked_mul(w)) else {
            return false;
        };
        if states > EXACT_STATES || w >= usize::from(u16::MAX) {
            return false;
        }
        let e = &mut self.exact;
        for (i, &cell) in window.iter().enumerate() {
            e.local[cell] = i as u16;
        }
        let local = |e: &Exact, cell: usize| usize::from(e.local[cell]);
        let inside = |e: &Exact, cell: usize| e.local[cell] != u16::MAX;
        let mut ok = inside(e, self.blank);
        ok = ok && tiles.iter().all(|&t| inside(e, self.pos[t as usize]));
        ok = ok && targets.iter().all(|&c| inside(e, c));
        if !ok {
            for &cell in window {
                e.local[cell] = u16::MAX;
            }
            return false;
        }
        // Neighbours of each window cell, as window indices.
        let n = self.n;
        let mut neighbours = vec![[u32::MAX; 4]; w];
        for (i, &cell) in window.iter().enumerate() {
            let (r, c) = (cell / n, cell % n);
            let around = [
                (r + 1 < n).then(|| cell + n),
                (r > 0).then(|| cell - n),
                (c + 1 < n).then(|| cell + 1),
                (c > 0).then(|| cell - 1),
            ];
            for (slot, y) in neighbours[i].iter_mut().zip(around) {
                if let Some(y) = y.filter(|&y| inside(e, y)) {
                    *slot = local(e, y) as u32;
                }
            }
        }
        // A state is the blank's index plus, in base `w`, each tile's index.
        let mut first = 0;
        let mut goal = 0;
        for i in (0..k).rev() {
            first = first * w + local(e, self.pos[tiles[i] as usize]);
            goal = goal * w + local(e, targets[i]);
        }
        first = first * w + local(e, self.blank);
        for &cell in window {
            e.local[cell] = u16::MAX;
        }
        if e.stamp.len() < states {
            e.stamp.resize(states, 0);
            e.parent.resize(states, 0);
            e.cost.resize(states, 0);
        }
        e.current = e.current.wrapping_add(1);
        if e.current == 0 {
            e.stamp.iter_mut().for_each(|x| *x = 0);
            e.current = 1;
        }
        let stamp = e.current;
        // A* whose heuristic is the largest of the tracked tiles' single-tile
        // distances: the moves one tile alone needs (the others taken as
        // untracked), read from tables built by a breadth-first search back from
        // that tile's goal. It is admissible and consistent.
        let mut goals = [0usize; 8];
        let mut rest = goal;
        for g in goals.iter_mut().take(k) {
            *g = rest % w;
            rest /= w;
        }
        e.tables.resize_with(e.tables.len().max(k), Vec::new);
        for (table, &t) in e.tables.iter_mut().zip(&goals[..k]) {
            single_distances(table, &neighbours, t);
        }
        let tables = &e.tables[..k];
        let estimate = |cells: &[usize], z: usize| {
            cells
                .iter()
                .zip(tables)
                .map(|(&p, table)| u32::from(table[p * w + z]))
                .max()
                .unwrap_or(0)
        };
        let decode = |state: usize, cells: &mut [usize; 8]| {
            let mut rest = state / w;
            for cell in cells.iter_mut().take(k) {
                *cell = rest % w;
                rest /= w;
            }
        };
        let mut cells = [0usize; 8];
        decode(first, &mut cells);
        for bucket in e.buckets.iter_mut() {
            bucket.clear();
        }
        let push = |buckets: &mut Vec<Vec<(u32, u32)>>, f: u32, state: usize, g: u32| {
            let f = f as usize;
            if buckets.len() <= f {
                buckets.resize_with(f + 1, Vec::new);
            }
            buckets[f].push((state as u32, g));
        };
        let h0 = estimate(&cells[..k], first % w);
        if h0 == u32::from(u16::MAX) {
            return false;
        }
        push(&mut e.buckets, h0, first, 0);
        e.stamp[first] = stamp;
        e.cost[first] = 0;
        let mut found = None;
        // Lowest `f` first; within one, the deepest (last pushed) first.
        let mut f = h0 as usize;
        while f < e.buckets.len() {
            let Some((state, g)) = e.buckets[f].pop() else {
                f += 1;
                continue;
            };
            let state = state as usize;
            if g != e.cost[state] {
                continue;
            }
            if state / w == goal {
                found = Some(state);
                break;
            }
            let z = state % w;
            decode(state, &mut cells);
            for &y in &neighbours[z] {
                if y == u32::MAX {
                    continue;
                }
                let y = y as usize;
                let mut next = 0;
                for p in cells[..k].iter().rev() {
                    next = next * w + if *p == y { z } else { *p };
                }
                let next = next * w + y;
                if e.stamp[next] == stamp && e.cost[next] <= g + 1 {
                    continue;
                }
                let mut moved = cells;
                for p in moved[..k].iter_mut() {
                    if *p == y {
                        *p = z;
                    }
                }
                let h = estimate(&moved[..k], y);
                if h == u32::from(u16::MAX) {
                    continue;
                }
                e.stamp[next] = stamp;
                e.cost[next] = g + 1;
                e.parent[next] = state as u32;
                push(&mut e.buckets, g + 1 + h, next, g + 1);
            }
        }
        let Some(last) = found else {
            return false;
        };
        let mut blanks = Vec::new();
        let mut state = last;
        while state != first {
            blanks.push(window[state % w]);
            state = self.exact.parent[state] as usize;
        }
        for &cell in blanks.iter().rev() {
            self.step(cell);
        }
        true
    }

    /// The free cells of the view rectangle rows `r0..r1`, columns `c0..c1`.
    fn free_cells(&self, r0: usize, r1: usize, c0: usize, c1: usize) -> Vec<usize> {
        let mut cells = Vec::with_capacity((r1 - r0) * (c1 - c0));
        for r in r0..r1 {
            for c in c0..c1 {
                let cell = self.at(r, c);
                if !self.locked[cell] {
                    cells.push(cell);
                }
            }
        }
        cells
    }

    /// Walks `tile` to the view cell (`tr`, `tc`), one cell at a time, never
    /// through a locked cell; stops early once `stop` holds for its cell.
    fn walk_tile(&mut self, tile: u32, tr: usize, tc: usize, stop: impl Fn(&Self, usize) -> bool) {
        let walked = self.try_walk_tile(tile, tr, tc, stop);
        assert!(walked, "a tile can always step towards its target");
    }

    /// As [`Self::walk_tile`], but gives up (returning `false`, the tile part of
    /// the way there) when a step is blocked.
    fn try_walk_tile(
        &mut self,
        tile: u32,
        tr: usize,
        tc: usize,
        stop: impl Fn(&Self, usize) -> bool,
    ) -> bool {
        let target = self.at(tr, tc);
        loop {
            let p = self.pos[tile as usize];
            if p == target || stop(self, p) {
                return true;
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
                .min_by_key(|&q| (self.approach_cost(q, p), q != ahead[longer]));
            match q {
                Some(q) if self.try_route_blank(q, p) => self.step(p),
                _ => return false,
            }
        }
    }

    /// Moves `tile` to the view cell (`tr`, `tc`) of the region of view rows
    /// `tr..n` and columns `c0..n`: exactly, by [`Self::place_exact`], over the
    /// whole region when it is `small`, otherwise over a box around the tile and
    /// its target once the tile has been walked near it.
    fn place_one(&mut self, tile: u32, tr: usize, tc: usize, c0: usize, small: bool) {
        let n = self.n;
        let target = self.at(tr, tc);
        if small {
            let region = self.free_cells(tr, n, c0, n);
            if self.place_exact(&[tile], &[target], &region) {
                return;
            }
        } else {
            self.walk_tile(tile, tr, tc, |s, p| s.distance(p, target) <= NEAR);
            let p = self.pos[tile as usize];
            let (pr, pc) = self.view(p);
            let (br, bc) = self.view(self.blank);
            let rows = |a: usize, b: usize| {
                (
                    a.min(b).saturating_sub(MARGIN).max(tr),
                    (a.max(b) + MARGIN + 1).min(n),
                )
            };
            let cols = |a: usize, b: usize| {
                (
                    a.min(b).saturating_sub(MARGIN).max(c0),
                    (a.max(b) + MARGIN + 1).min(n),
                )
            };
            let (r_lo, r_hi) = rows(pr, tr);
            let (c_lo, c_hi) = cols(pc, tc);
            // Take the blank in when it is close, else route it to the box.
            let (r_lo2, r_hi2) = (r_lo.min(br), r_hi.max(br + 1));
            let (c_lo2, c_hi2) = (c_lo.min(bc.max(c0)), c_hi.max(bc + 1));
            let window = if (r_hi2 - r_lo2) * (c_hi2 - c_lo2) <= SINGLE_BOX {
                self.free_cells(r_lo2, r_hi2, c_lo2, c_hi2)
            } else {
                let window = self.free_cells(r_lo, r_hi, c_lo, c_hi);
                let entry = window
                    .iter()
                    .copied()
                    .filter(|&c| c != p)
                    .min_by_key(|&c| self.distance(c, self.blank));
                if let Some(entry) = entry {
                    self.route_blank(entry, p);
                }
                window
            };
            if self.place_exact(&[tile], &[target], &window) {
                return;
            }
        }
        self.walk_tile(tile, tr, tc, |_, _| false);
    }

    /// An estimate of the moves needed to solve view row `r0` from view column
    /// `c0` on, in the `transposed` view: the tiles' distances to their cells.
    fn line_cost(&mut self, transposed: bool, r0: usize, c0: usize) -> usize {
        self.transposed = transposed;
        (c0..self.n)
            .map(|c| {
                let cell = self.at(r0, c);
                self.distance(self.pos[self.target[cell] as usize], cell)
            })
            .sum()
    }

    /// Places the tiles of view row `r0` from view column `c0` to the end, in the
    /// region of view rows `r0..n` and columns `c0..n` (at least 4 rows and 3
    /// columns), and locks them.
    fn solve_line(&mut self, r0: usize, c0: usize) {
        let n = self.n;
        let area = (n - r0) * (n - c0);
        let small = area <= SMALL_REGION;
        let mut c = c0;
        while c < n - 2 {
            // Free cells left in the region, and how many tiles to place at once:
            // all three last ones, or the next two (never leaving one alone at
            // the end), when the region is small enough to search them jointly.
            let free = area - (c - c0);
            let fits = |k: u32| free.checked_pow(k + 1).is_some_and(|s| s <= EXACT_STATES);
            let k = if n - c == 3 && fits(3) {
                3
            } else if n - c >= 4 && fits(2) {
                2
            } else {
                1
            };
            let cells: Vec<usize> = (c..c + k).map(|c| self.at(r0, c)).collect();
            let tiles: Vec<u32> = cells.iter().map(|&cell| self.target[cell]).collect();
            let done = tiles
                .iter()
                .zip(&cells)
                .all(|(&t, &cell)| self.pos[t as usize] == cell);
            let placed = done
                || (k > 1 && {
                    let region = self.free_cells(r0, n, c0, n);
                    self.place_exact(&tiles, &cells, &region)
                });
            if placed {
                for &cell in &cells {
                    self.locked[cell] = true;
                }
                c += k;
            } else {
                // One at a time; the last two are left to the pair code below.
                if self.pos[tiles[0] as usize] != cells[0] {
                    self.place_one(tiles[0], r0, c, c0, small);
                }
                self.locked[cells[0]] = true;
                c += 1;
            }
        }
        if c == n {
            return;
        }

        let (ca, cb) = (self.at(r0, n - 2), self.at(r0, n - 1));
        let (a, b) = (self.target[ca], self.target[cb]);
        let free = area - (n - 2 - c0);
        let placed = if free * free * free <= EXACT_STATES {
            let region = self.free_cells(r0, n, c0, n);
            self.place_exact(&[a, b], &[ca, cb], &region)
        } else {
            self.place_pair_near(r0, c0, a, b)
        };
        if placed {
            self.locked[ca] = true;
            self.locked[cb] = true;
            return;
        }
        // Otherwise the last two tiles, through the 3x2 window at the end of the
        // line, which always works.
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

    /// Walks `tile` towards the view cell (`tr`, `tc`) until `stop` holds,
    /// keeping `held` in place, or, when that gets stuck, letting it move;
    /// returns whether `stop` was reached.
    fn walk_holding(
        &mut self,
        tile: u32,
        held: u32,
        tr: usize,
        tc: usize,
        stop: impl Fn(&Self, usize) -> bool + Copy,
    ) -> bool {
        let ph = self.pos[held as usize];
        self.locked[ph] = true;
        let walked = self.try_walk_tile(tile, tr, tc, stop);
        self.locked[ph] = false;
        walked || self.try_walk_tile(tile, tr, tc, stop)
    }

    /// Tries to put `a` and `b` at the end of view row `r0` of a large region
    /// (view columns `c0..n`): walks them and the blank into a window at the
    /// line's end and searches it exactly. Returns whether it succeeded; if not,
    /// the tiles may have moved but nothing is locked.
    fn place_pair_near(&mut self, r0: usize, c0: usize, a: u32, b: u32) -> bool {
        let n = self.n;
        let (h, w) = (PAIR_ROWS.min(n - r0), PAIR_COLS.min(n - c0));
        let inside = move |s: &Self, cell: usize| {
            let (r, c) = s.view(cell);
            r < r0 + h && c >= n - w
        };
        if !self.try_walk_tile(a, r0, n - 1, inside) {
            return false;
        }
        // `b` next, holding `a` in place; when `a` blocks its way, without.
        if !inside(self, self.pos[b as usize]) && !self.walk_holding(b, a, r0, n - 2, inside) {
            return false;
        }
        if !inside(self, self.pos[a as usize]) && !self.walk_holding(a, b, r0, n - 1, inside) {
            return false;
        }
        if !inside(self, self.pos[b as usize]) {
            return false;
        }
        if !inside(self, self.blank) {
            let (pa, pb) = (self.pos[a as usize], self.pos[b as usize]);
            let entry = (r0..r0 + h)
                .flat_map(|r| (n - w..n).map(move |c| (r, c)))
                .map(|(r, c)| self.at(r, c))
                .filter(|&c| c != pa && c != pb && !self.locked[c])
                .min_by_key(|&c| self.distance(c, self.blank));
            let Some(entry) = entry else {
                return false;
            };
            self.locked[pa] = true;
            self.locked[pb] = true;
            let routed = self.try_route_blank(entry, NONE);
            self.locked[pa] = false;
            self.locked[pb] = false;
            if !routed {
                return false;
            }
        }
        let (ca, cb) = (self.at(r0, n - 2), self.at(r0, n - 1));
        let window = self.free_cells(r0, r0 + h, n - w, n);
        self.place_exact(&[a, b], &[ca, cb], &window)
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
    use crate::board_adt::moves::replay;
    use crate::generate::SplitMix64;
    use crate::solve::grid::reachable;

    /// A random goal, and a random start of the same parity.
    fn pair(rng: &mut SplitMix64, side: usize) -> (Vec<u32>, Vec<u32>) {
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

    #[test]
    fn four_by_four_random_pairs() {
        let mut rng = SplitMix64::new(1);
        for _ in 0..20_000 {
            let (start, goal) = pair(&mut rng, 4);
            check(4, &start, &goal);
        }
    }

    #[test]
    fn five_to_nine_random_pairs() {
        let mut rng = SplitMix64::new(2);
        for side in 5..=9 {
            for _ in 0..300 {
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
    }

    #[test]
    fn goals_with_the_blank_in_every_cell() {
        let mut rng = SplitMix64::new(5);
        for side in 4..=6 {
            for blank in 0..side * side {
                for _ in 0..50 {
                    let (mut start, mut goal) = pair(&mut rng, side);
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
    fn single_tile_distances_match_hand_counts() {
        // A free 3x3 window: cell `i` at row `i / 3`, column `i % 3`.
        let neighbours: Vec<[u32; 4]> = (0..9usize)
            .map(|i| {
                let (r, c) = (i / 3, i % 3);
                [
                    if r < 2 { (i + 3) as u32 } else { u32::MAX },
                    if r > 0 { (i - 3) as u32 } else { u32::MAX },
                    if c < 2 { (i + 1) as u32 } else { u32::MAX },
                    if c > 0 { (i - 1) as u32 } else { u32::MAX },
                ]
            })
            .collect();
        let mut table = Vec::new();
        single_distances(&mut table, &neighbours, 5);
        let d = |tile: usize, blank: usize| table[tile * 9 + blank];
        assert_eq!(d(5, 0), 0, "already there");
        assert_eq!(d(4, 5), 1, "the blank waits at the target");
        // The blank behind the tile goes round it (4 moves), then it slides.
        assert_eq!(d(4, 3), 5);
        // The blank beside the path: 2 moves to get ahead, then the slide.
        assert_eq!(d(4, 1), 3);
    }

    #[test]
    fn exact_placement_is_shortest_and_refuses_cells_outside_its_window() {
        let mut rng = SplitMix64::new(10);
        for _ in 0..200 {
            let (start, goal) = pair(&mut rng, 5);
            let mut r = Reducer::new(5, &start, &goal);
            let tile = 1 + rng.index(24) as u32;
            let target = rng.index(25);
            let all: Vec<usize> = (0..25).collect();
            // The single-tile table, built independently, gives the distance.
            let window = all.clone();
            let neighbours: Vec<[u32; 4]> = window
                .iter()
                .map(|&c| {
                    let (row, col) = (c / 5, c % 5);
                    [
                        if row < 4 { (c + 5) as u32 } else { u32::MAX },
                        if row > 0 { (c - 5) as u32 } else { u32::MAX },
                        if col < 4 { (c + 1) as u32 } else { u32::MAX },
                        if col > 0 { (c - 1) as u32 } else { u32::MAX },
                    ]
                })
                .collect();
            let mut table = Vec::new();
            single_distances(&mut table, &neighbours, target);
            let expected = table[r.pos[tile as usize] * 25 + r.blank];
            assert!(r.place_exact(&[tile], &[target], &all));
            assert_eq!(r.pos[tile as usize], target);
            assert_eq!(r.moves.len(), usize::from(expected));
            let mut cells = start.clone();
            let mut blank = start.iter().position(|&t| t == 0).unwrap();
            assert_eq!(replay(&mut cells, 5, &mut blank, &r.moves.to_vec()), Ok(()));
            assert!(cells == r.cells);

            // Without the blank's cell the window is refused and nothing moves.
            let before = r.cells.clone();
            let without: Vec<usize> = all.iter().copied().filter(|&c| c != r.blank).collect();
            let other = if tile == 1 { 2 } else { 1 };
            assert!(!r.place_exact(&[other], &[target], &without));
            assert!(r.cells == before);
        }
    }

    #[test]
    fn pairs_and_triples_are_placed_together() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..50 {
            let (start, goal) = pair(&mut rng, 4);
            let mut r = Reducer::new(4, &start, &goal);
            let all: Vec<usize> = (0..16).collect();
            let tiles = [goal[0], goal[1], goal[2]];
            if tiles.contains(&0) {
                continue;
            }
            assert!(r.place_exact(&tiles, &[0, 1, 2], &all));
            assert!((0..3).all(|c| r.cells[c] == goal[c]));
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
}
