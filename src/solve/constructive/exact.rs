//! Placing a few tiles exactly: a shortest sequence of moves that brings one,
//! two or three tracked tiles to their cells with the blank kept in a window
//! of free cells, found by A* over the cells of the tracked tiles and the
//! blank (the window's other tiles are interchangeable). Its heuristic is the
//! largest single-tile distance, read from tables that a breadth-first search
//! fills for the window (admissible and consistent).

use crate::solve::grid;

/// Largest state space (cells of the window to the power of the tracked tiles
/// plus one) an exact placement search may use.
pub(super) const EXACT_STATES: usize = 1 << 18;

/// Scratch space of the exact placement searches, reused between searches.
pub(super) struct Exact {
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

impl Exact {
    /// Scratch space for a board of `cells` cells.
    pub(super) fn new(cells: usize) -> Exact {
        Exact {
            local: vec![u16::MAX; cells],
            stamp: Vec::new(),
            current: 0,
            parent: Vec::new(),
            cost: Vec::new(),
            buckets: Vec::new(),
            tables: Vec::new(),
        }
    }

    /// A shortest sequence of moves, on an `n`-wide board whose tiles are on
    /// `pos` and whose blank is on `blank`, that takes `tiles[i]` to
    /// `targets[i]` for every `i` and keeps the blank inside `window` (free
    /// cells): the blank's cells, move by move. It is found by a search over
    /// the tiles' and the blank's cells (the window's other tiles are
    /// interchangeable). `None` when a tile or the blank is outside the
    /// window, the state space exceeds [`EXACT_STATES`], or there is no such
    /// sequence.
    pub(super) fn place(
        &mut self,
        n: usize,
        pos: &[usize],
        blank: usize,
        tiles: &[u32],
        targets: &[usize],
        window: &[usize],
    ) -> Option<Vec<usize>> {
        let w = window.len();
        let k = tiles.len();
        let states = (0..=k).try_fold(1usize, |acc, _| acc.checked_mul(w))?;
        if states > EXACT_STATES || w >= usize::from(u16::MAX) {
            return None;
        }
        let space = self.space(n, pos, blank, tiles, targets, window)?;
        self.begin(states);
        self.fill_tables(&space);
        let last = self.astar(&space)?;
        let mut blanks = Vec::new();
        let mut state = last;
        while state != space.first {
            blanks.push(window[state % w]);
            state = self.parent[state] as usize;
        }
        blanks.reverse();
        Some(blanks)
    }

    /// The search's states for `window`: each cell's neighbours as window
    /// indices, and the first and the goal state (see [`Space`]); `None`
    /// when the blank, a tile or a target is outside the window.
    fn space(
        &mut self,
        n: usize,
        pos: &[usize],
        blank: usize,
        tiles: &[u32],
        targets: &[usize],
        window: &[usize],
    ) -> Option<Space> {
        let (w, k) = (window.len(), tiles.len());
        let e = self;
        for (i, &cell) in window.iter().enumerate() {
            e.local[cell] = i as u16;
        }
        let local = |e: &Exact, cell: usize| usize::from(e.local[cell]);
        let inside = |e: &Exact, cell: usize| e.local[cell] != u16::MAX;
        let mut ok = inside(e, blank);
        ok = ok && tiles.iter().all(|&t| inside(e, pos[t as usize]));
        ok = ok && targets.iter().all(|&c| inside(e, c));
        if !ok {
            for &cell in window {
                e.local[cell] = u16::MAX;
            }
            return None;
        }
        // Neighbours of each window cell, as window indices.
        let mut neighbours = vec![[u32::MAX; 4]; w];
        for (i, &cell) in window.iter().enumerate() {
            for (slot, y) in neighbours[i].iter_mut().zip(grid::neighbours(n, cell)) {
                if let Some(y) = y.filter(|&y| inside(e, y)) {
                    *slot = local(e, y) as u32;
                }
            }
        }
        // A state is the blank's index plus, in base `w`, each tile's index.
        let mut first = 0;
        let mut goal = 0;
        for i in (0..k).rev() {
            first = first * w + local(e, pos[tiles[i] as usize]);
            goal = goal * w + local(e, targets[i]);
        }
        first = first * w + local(e, blank);
        for &cell in window {
            e.local[cell] = u16::MAX;
        }
        Some(Space {
            w,
            k,
            neighbours,
            first,
            goal,
        })
    }

    /// Room for `states` states, none of them stamped by the search about
    /// to begin.
    fn begin(&mut self, states: usize) {
        let e = self;
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
    }

    /// The single-tile distance tables of the tracked tiles: the moves one
    /// tile alone needs (the others taken as untracked), built by a
    /// breadth-first search back from that tile's goal.
    fn fill_tables(&mut self, space: &Space) {
        let (w, k) = (space.w, space.k);
        let mut goals = [0usize; 8];
        let mut rest = space.goal;
        for g in goals.iter_mut().take(k) {
            *g = rest % w;
            rest /= w;
        }
        self.tables.resize_with(self.tables.len().max(k), Vec::new);
        for (table, &t) in self.tables.iter_mut().zip(&goals[..k]) {
            single_distances(table, &space.neighbours, t);
        }
    }

    /// A* from `space.first` to a state with every tile on its target,
    /// whose heuristic is the largest of the tracked tiles' single-tile
    /// distances ([`Exact::fill_tables`]): admissible and consistent. The
    /// goal state found, its way back in `parent`; `None` if there is none.
    fn astar(&mut self, space: &Space) -> Option<usize> {
        let (w, k, first, goal) = (space.w, space.k, space.first, space.goal);
        let neighbours = &space.neighbours;
        let e = self;
        let stamp = e.current;
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
            return None;
        }
        push(&mut e.buckets, h0, first, 0);
        e.stamp[first] = stamp;
        e.cost[first] = 0;
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
                return Some(state);
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
        None
    }
}

/// The states of one exact placement: a state is the blank's window index
/// plus, in base `w`, each tracked tile's.
struct Space {
    /// The window's cells.
    w: usize,
    /// The tracked tiles.
    k: usize,
    /// Each window cell's neighbours as window indices (`u32::MAX`: none).
    neighbours: Vec<[u32; 4]>,
    /// The state at the start.
    first: usize,
    /// The tiles' part (the state divided by `w`) of every goal state.
    goal: usize,
}

/// Fills `table` (indexed `tile * w + blank` over the `w` window cells, whose
/// neighbours are `neighbours`, `u32::MAX` for none) with the moves that take a
/// tile to window cell `goal`, any other tiles being interchangeable, or
/// `u16::MAX` where it cannot get there.
pub(super) fn single_distances(table: &mut Vec<u16>, neighbours: &[[u32; 4]], goal: usize) {
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The neighbours of every cell of a whole free `side`-wide board, as a
    /// window of all its cells: written out here, apart from the search's own.
    pub(in crate::solve::constructive) fn board_neighbours(side: usize) -> Vec<[u32; 4]> {
        (0..side * side)
            .map(|i| {
                let (r, c) = (i / side, i % side);
                [
                    if r + 1 < side {
                        (i + side) as u32
                    } else {
                        u32::MAX
                    },
                    if r > 0 { (i - side) as u32 } else { u32::MAX },
                    if c + 1 < side {
                        (i + 1) as u32
                    } else {
                        u32::MAX
                    },
                    if c > 0 { (i - 1) as u32 } else { u32::MAX },
                ]
            })
            .collect()
    }

    #[test]
    fn single_tile_distances_match_hand_counts() {
        // A free 3x3 window: cell `i` at row `i / 3`, column `i % 3`.
        let neighbours = board_neighbours(3);
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
}
