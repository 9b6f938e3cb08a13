//! The reduction's state and its steps: a board being solved line by line
//! (see the module docs of [`super`]), with every tile's cell, the locked
//! cells, and the moves so far; tiles are walked or placed exactly
//! ([`super::exact`]) and the blank is routed around what is placed
//! ([`super::route`]).

use super::exact::{Exact, EXACT_STATES};
use super::route::Router;
use crate::board_adt::move_list::MoveList;
use crate::board_adt::moves::Move;
use crate::solve::grid::manhattan;

/// No cell: the blank routing avoids nothing besides the locked cells.
const NONE: usize = usize::MAX;

/// The weight of a move against a move that takes a tile away from its home
/// when the blank is routed: more than any route's length, so that routes stay
/// shortest and, among the shortest, move the most tiles homewards.
const ROUTE_LENGTH: u64 = 1 << 32;

/// A route's leg is searched over a rectangle of about this many cells ...
const LEG_AREA: usize = 1024;

/// ... and a route around obstacles weighs its tiles' homes up to this length.
const LEG_SPAN: usize = 64;

/// Regions (rows times columns) up to this size are searched whole. Walking
/// tiles with the homeward routes below gave shorter solutions than whole-region
/// searches (which place each tile shortest but move the others blindly) in
/// larger regions: 10x10, 50 random puzzles, 1,751 moves on average against
/// 1,810 with whole-region searches up to 100 cells.
const SMALL_REGION: usize = 16;

/// In larger regions a tile is walked to within this distance of its target
/// before the exact search takes over ...
const NEAR: usize = 3;

/// ... in a box around it and its target, this much wider on each side ...
const MARGIN: usize = 1;

/// ... which also covers the blank when the box stays this small.
const SINGLE_BOX: usize = 64;

/// The window at a line's end in which a large region's last two tiles are
/// searched exactly: this many rows ...
const PAIR_ROWS: usize = 4;

/// ... and columns.
const PAIR_COLS: usize = 4;

/// How a line is solved: the reduction's choices, varied by the search over
/// whole lines ([`super::reduce_searched`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Style {
    /// Place two tiles (or the last three) of a line together by an exact
    /// search when it is small enough, rather than one at a time.
    pub(super) together: bool,
    /// Walk a tile to within this distance of its cell before the exact
    /// search in a box around both finishes it.
    pub(super) near: usize,
    /// On a tie between the two steps a walked tile can take, the one along
    /// the longer way left (else the shorter).
    pub(super) longer_first: bool,
    /// The largest state space of a search that places tiles together.
    pub(super) states: usize,
}

impl Style {
    /// The choices made when nothing else is tried.
    pub(super) const PLAIN: Style = Style {
        together: true,
        near: NEAR,
        longer_first: true,
        states: EXACT_STATES,
    };
}

/// The reduction's state: the board as it is being solved, with every tile's cell.
pub(super) struct Reducer<'a> {
    n: usize,
    pub(super) cells: Vec<u32>,
    /// `pos[tile]`: the cell holding `tile`.
    pos: Vec<usize>,
    blank: usize,
    /// Cells whose tiles are placed (or held for now): the blank never enters them.
    locked: Vec<bool>,
    /// The tile each cell must end with (the common board C).
    target: &'a [u32],
    /// `home[tile]`: the cell `tile` must end in.
    home: Vec<usize>,
    /// For each cell, the row and column of its tile's home, as
    /// `row << 16 | column`: kept beside `cells` so that the routes read
    /// them in the order of the cells, not at random.
    cell_home: Vec<u32>,
    /// Whether view coordinates are transposed (solving a column).
    pub(super) transposed: bool,
    pub(super) moves: MoveList,
    /// How lines are solved.
    pub(super) style: Style,
    router: Router,
    /// The cells the blank left during the current route, to undo it.
    trail: Vec<usize>,
    exact: Exact,
}

impl<'a> Reducer<'a> {
    pub(super) fn new(n: usize, start: &[u32], target: &'a [u32]) -> Reducer<'a> {
        let cells = start.to_vec();
        let mut pos = vec![0; n * n];
        for (cell, &tile) in cells.iter().enumerate() {
            pos[tile as usize] = cell;
        }
        let mut home = vec![0; n * n];
        for (cell, &tile) in target.iter().enumerate() {
            home[tile as usize] = cell;
        }
        Reducer {
            n,
            cell_home: start
                .iter()
                .map(|&t| home[t as usize])
                .map(|c| (((c / n) << 16) | (c % n)) as u32)
                .collect(),
            home,
            blank: pos[0],
            cells,
            pos,
            locked: vec![false; n * n],
            target,
            transposed: false,
            moves: MoveList::new(),
            style: Style::PLAIN,
            router: Router::new(n),
            trail: Vec::new(),
            exact: Exact::new(n * n),
        }
    }

    /// A copy of the board being solved and its moves, with scratch space of
    /// its own (see [`Self::swap_scratch`]).
    pub(super) fn fork(&self) -> Reducer<'a> {
        Reducer {
            n: self.n,
            cells: self.cells.clone(),
            pos: self.pos.clone(),
            blank: self.blank,
            locked: self.locked.clone(),
            target: self.target,
            home: self.home.clone(),
            cell_home: self.cell_home.clone(),
            transposed: self.transposed,
            moves: self.moves.clone(),
            style: self.style,
            router: Router::new(self.n),
            trail: Vec::new(),
            exact: Exact::new(self.n * self.n),
        }
    }

    /// Exchanges the scratch space of the searches with `other`'s: a fork
    /// borrows the grown buffers of the reducer it came from.
    pub(super) fn swap_scratch(&mut self, other: &mut Reducer<'a>) {
        std::mem::swap(&mut self.router, &mut other.router);
        std::mem::swap(&mut self.exact, &mut other.exact);
    }

    /// The tiles' distances to their homes, summed over the cells not locked
    /// (the blank not counted): what the rest of the reduction has to undo.
    pub(super) fn distance_left(&self) -> usize {
        (0..self.n * self.n)
            .filter(|&cell| !self.locked[cell] && self.cells[cell] != 0)
            .map(|cell| self.distance(cell, self.home[self.cells[cell] as usize]))
            .sum()
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
    pub(super) fn record(&mut self, mv: Move) {
        self.moves.push_cancelling(mv);
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
        self.cell_home.swap(from, to);
        self.pos[tile as usize] = from;
        self.blank = to;
        self.record(mv);
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
        self.blank == goal || self.searched_route(goal, avoid)
    }

    /// Walks the blank to `goal` along a shortest free path, if there is one;
    /// returns whether there was. Of the shortest paths it takes one that
    /// slides the most tiles towards their homes: every move of the blank
    /// carries a tile one cell, and a tile carried homewards costs less to
    /// place later (on a 100x100 board this cut the moves by a quarter). A
    /// path that only ever steps towards `goal` is found by
    /// [`Router::monotone`], one around obstacles by A*.
    fn searched_route(&mut self, goal: usize, avoid: usize) -> bool {
        // A long route goes in legs between cells on the straight line, each
        // searched over at most about LEG_AREA cells, so that the work stays
        // proportional to the route's length.
        let n = self.n;
        let start = self.blank;
        let (r0, c0) = ((start / n) as isize, (start % n) as isize);
        let (r1, c1) = ((goal / n) as isize, (goal % n) as isize);
        let area = (r0.abs_diff(r1) + 1) * (c0.abs_diff(c1) + 1);
        let legs = (1..)
            .find(|&k: &usize| k * k * LEG_AREA >= area)
            .unwrap_or(1);
        let mark = self.trail.len();
        for k in 1..legs {
            let at = |a: isize, b: isize| a + (b - a) * k as isize / legs as isize;
            let waypoint = at(r0, r1) as usize * n + at(c0, c1) as usize;
            if waypoint != avoid && !self.locked[waypoint] {
                // A leg that cannot go straight is left to the next one.
                self.route_leg(waypoint, avoid, false);
            }
        }
        if self.route_leg(goal, avoid, true) {
            self.trail.truncate(mark);
            return true;
        }
        // Back to where the blank was: "not found" moves nothing.
        while self.trail.len() > mark {
            let back = self.trail.pop().expect("the trail is longer than its mark");
            self.step(back);
        }
        false
    }

    /// Walks the blank to `goal` along a shortest free path that slides the
    /// most tiles towards their homes (see [`Self::searched_route`]): one that
    /// only steps towards `goal`, or (when `around` is set and there is none)
    /// one around obstacles; returns whether it found one. Every cell the blank
    /// leaves is pushed on the trail.
    fn route_leg(&mut self, goal: usize, avoid: usize, around: bool) -> bool {
        let n = self.n;
        let cell_home = &self.cell_home;
        // The blank stepping from `x` to `y` slides the tile at `y` to `x`:
        // good when that brings the tile nearer its home (one division).
        let good = |x: usize, y: usize| {
            let home = cell_home[y] as usize;
            let (towards, now, target) = if x.abs_diff(y) == n {
                (x < y, y / n, home >> 16)
            } else {
                (x < y, y % n, home & 0xffff)
            };
            if towards {
                target < now
            } else {
                target > now
            }
        };
        // The same for both steps into a cell, without a division: the blank
        // stepping down slides the tile up, which is good when its home is
        // above it.
        let homeward = |y: usize, r: usize, c: usize, down: bool, right: bool| {
            let home = cell_home[y];
            let (hr, hc) = ((home >> 16) as usize, (home & 0xffff) as usize);
            let up_good = if down { hr < r } else { hr > r };
            let side_good = if right { hc < c } else { hc > c };
            (i64::from(up_good), i64::from(side_good))
        };
        let found = self
            .router
            .monotone(&self.locked, self.blank, goal, avoid, homeward)
            || (around && {
                // Far away, A* would look at every tie; plain shortest then.
                let weigh = manhattan(n, self.blank, goal) as usize <= LEG_SPAN;
                self.router.route(
                    &self.locked,
                    self.blank,
                    goal,
                    avoid,
                    ROUTE_LENGTH,
                    |x, y| ROUTE_LENGTH + u64::from(weigh && !good(x, y)),
                )
            });
        if !found {
            return false;
        }
        let path = std::mem::take(&mut self.router.path);
        for &cell in &path {
            self.trail.push(self.blank);
            self.step(cell);
        }
        self.router.path = path;
        true
    }

    /// Moves `tiles[i]` to `targets[i]` for every `i` by a shortest sequence of
    /// moves that keeps the blank inside `window` ([`Exact::place`]); returns
    /// `false`, having moved nothing, when there is none.
    pub(super) fn place_exact(
        &mut self,
        tiles: &[u32],
        targets: &[usize],
        window: &[usize],
    ) -> bool {
        let found = self
            .exact
            .place(self.n, &self.pos, self.blank, tiles, targets, window);
        let Some(blanks) = found else {
            return false;
        };
        for &cell in &blanks {
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
            let longer =
                usize::from((pc.abs_diff(tc) > pr.abs_diff(tr)) == self.style.longer_first);
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
            let near = self.style.near;
            self.walk_tile(tile, tr, tc, |s, p| s.distance(p, target) <= near);
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
    pub(super) fn line_cost(&mut self, transposed: bool, r0: usize, c0: usize) -> usize {
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
    pub(super) fn solve_line(&mut self, r0: usize, c0: usize) {
        let n = self.n;
        let area = (n - r0) * (n - c0);
        let small = area <= SMALL_REGION;
        let mut c = c0;
        while c < n - 2 {
            // Free cells left in the region, and how many tiles to place at once:
            // all three last ones, or the next two (never leaving one alone at
            // the end), when the region is small enough to search them jointly.
            let free = area - (c - c0);
            let states = self.style.states;
            let fits = |k: u32| free.checked_pow(k + 1).is_some_and(|s| s <= states);
            let together = self.style.together;
            let k = if together && n - c == 3 && fits(3) {
                3
            } else if together && n - c >= 4 && fits(2) {
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
        let placed = if free * free * free <= self.style.states {
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
    use crate::solve::constructive::exact::single_distances;
    use crate::solve::constructive::exact::tests::board_neighbours;
    use crate::solve::constructive::tests::pair;

    #[test]
    fn long_routes_go_in_legs_and_a_route_that_cannot_arrive_moves_nothing() {
        let n = 40;
        let mut rng = SplitMix64::new(8);
        let (start, goal) = pair(&mut rng, n);
        let mut r = Reducer::new(n, &start, &goal);
        // Far corners: the rectangle between is larger than a leg.
        let (corner, far) = (0, n * n - 1);
        assert!(n * n > LEG_AREA);
        r.route_blank(corner, NONE);
        let before = (r.cells.clone(), r.moves.len());
        assert!(r.try_route_blank(far, NONE));
        assert_eq!(r.blank, far);
        assert_eq!(r.moves.len() - before.1, 2 * (n - 1), "a shortest route");
        // Wall the corner off: the route fails and leaves everything as it was.
        r.route_blank(corner, NONE);
        let before = (r.cells.clone(), r.moves.to_vec());
        for cell in [far - 1, far - n] {
            r.locked[cell] = true;
        }
        assert!(!r.try_route_blank(far, NONE));
        assert_eq!((r.cells.clone(), r.moves.to_vec()), before);
        assert_eq!(r.blank, corner);
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
            let neighbours = board_neighbours(5);
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
}
