//! Routing the blank: a shortest path for it to a cell, around the cells it
//! must not enter, by A* with the Manhattan distance (it explores only a few
//! cells around the straight way).

use crate::solve::grid::{manhattan, neighbours};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Scratch space of the A* routing, reused between searches.
pub(super) struct Router {
    /// The board's width.
    n: usize,
    stamp: Vec<u32>,
    current: u32,
    cost: Vec<u64>,
    parent: Vec<usize>,
    heap: BinaryHeap<Reverse<(u64, u64, usize)>>,
    /// The best gain of a monotone path to each cell of a rectangle.
    best: Vec<i64>,
    /// The last path found: the blank's cells after its start, in order.
    pub(super) path: Vec<usize>,
}

impl Router {
    /// Scratch space for an `n`-wide square board.
    pub(super) fn new(n: usize) -> Router {
        let cells = n * n;
        Router {
            n,
            stamp: vec![0; cells],
            current: 0,
            cost: vec![0; cells],
            parent: vec![0; cells],
            heap: BinaryHeap::new(),
            best: Vec::new(),
            path: Vec::new(),
        }
    }

    /// Finds a path for the blank from `start` to `goal` on the board
    /// that enters no `locked` cell and not `avoid`, of the least total
    /// `step(from, to)` (each at least `least`), and leaves it in
    /// [`Router::path`]; `false` if there is none.
    pub(super) fn route(
        &mut self,
        locked: &[bool],
        start: usize,
        goal: usize,
        avoid: usize,
        least: u64,
        step: impl Fn(usize, usize) -> u64,
    ) -> bool {
        let n = self.n;
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.iter_mut().for_each(|x| *x = 0);
            self.current = 1;
        }
        let stamp = self.current;
        self.heap.clear();
        self.stamp[start] = stamp;
        self.cost[start] = 0;
        let h = |cell: usize| least * u64::from(manhattan(n, cell, goal));
        self.heap.push(Reverse((h(start), h(start), start)));
        let mut found = false;
        while let Some(Reverse((f, hx, x))) = self.heap.pop() {
            let g = f - hx;
            if g != self.cost[x] {
                continue;
            }
            if x == goal {
                found = true;
                break;
            }
            for y in neighbours(n, x).into_iter().flatten() {
                if y == avoid || locked[y] {
                    continue;
                }
                let gy = g + step(x, y);
                if self.stamp[y] == stamp && self.cost[y] <= gy {
                    continue;
                }
                self.stamp[y] = stamp;
                self.cost[y] = gy;
                self.parent[y] = x;
                let hy = h(y);
                self.heap.push(Reverse((gy + hy, hy, y)));
            }
        }
        if !found {
            return false;
        }
        self.path.clear();
        let mut cell = goal;
        while cell != start {
            self.path.push(cell);
            cell = self.parent[cell];
        }
        self.path.reverse();
        true
    }

    /// Finds, among the shortest paths for the blank from `start` to `goal` that
    /// only ever step towards `goal` (as long as the Manhattan distance), one of
    /// the greatest total gain, entering no `locked` cell and not `avoid`, and
    /// leaves it in [`Router::path`]; `false` if every such path is blocked.
    /// `gain(to, row, col, down, right)` scores the blank's steps into the cell
    /// `to` at (`row`, `col`): the step downwards (or upwards, if not `down`)
    /// and the step to the right (or left), in that order. A dynamic
    /// programme over the rectangle between the two cells: no queue, every
    /// cell looked at once.
    pub(super) fn monotone(
        &mut self,
        locked: &[bool],
        start: usize,
        goal: usize,
        avoid: usize,
        gain: impl Fn(usize, usize, usize, bool, bool) -> (i64, i64),
    ) -> bool {
        let n = self.n;
        let (r0, c0) = (start / n, start % n);
        let (r1, c1) = (goal / n, goal % n);
        let (h, w) = (r0.abs_diff(r1) + 1, c0.abs_diff(c1) + 1);
        let (down, right) = (r1 >= r0, c1 >= c0);
        let row = |i: usize| if down { r0 + i } else { r0 - i };
        let col = |j: usize| if right { c0 + j } else { c0 - j };
        const BLOCKED: i64 = i64::MIN;
        self.best.clear();
        self.best.resize(h * w, BLOCKED);
        self.best[0] = 0;
        for i in 0..h {
            let r = row(i);
            for j in 0..w {
                if i + j == 0 {
                    continue;
                }
                let c = col(j);
                let here = r * n + c;
                if here == avoid || locked[here] {
                    continue;
                }
                let mut best = BLOCKED;
                let (vertical, sideways) = gain(here, r, c, down, right);
                if i > 0 && self.best[(i - 1) * w + j] != BLOCKED {
                    best = self.best[(i - 1) * w + j] + vertical;
                }
                if j > 0 && self.best[i * w + j - 1] != BLOCKED {
                    best = best.max(self.best[i * w + j - 1] + sideways);
                }
                self.best[i * w + j] = best;
            }
        }
        if self.best[h * w - 1] == BLOCKED {
            return false;
        }
        self.path.clear();
        let (mut i, mut j) = (h - 1, w - 1);
        while i + j > 0 {
            let (r, c) = (row(i), col(j));
            self.path.push(r * n + c);
            let value = self.best[i * w + j];
            let from_above = i > 0
                && self.best[(i - 1) * w + j] != BLOCKED
                && self.best[(i - 1) * w + j] + gain(r * n + c, r, c, down, right).0 == value;
            if from_above {
                i -= 1;
            } else {
                j -= 1;
            }
        }
        self.path.reverse();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::SplitMix64;

    /// The greatest total gain over every path from `start` to `goal` that
    /// only steps towards it and avoids the blocked cells, by trying them all.
    fn best_by_brute_force(
        n: usize,
        blocked: &[bool],
        at: usize,
        goal: usize,
        gain: &dyn Fn(usize, usize) -> i64,
    ) -> Option<i64> {
        if at == goal {
            return Some(0);
        }
        let (r, c, gr, gc) = (at / n, at % n, goal / n, goal % n);
        let mut best = None;
        let mut next = Vec::new();
        if r != gr {
            next.push(if gr > r { at + n } else { at - n });
        }
        if c != gc {
            next.push(if gc > c { at + 1 } else { at - 1 });
        }
        for y in next {
            if blocked[y] {
                continue;
            }
            if let Some(rest) = best_by_brute_force(n, blocked, y, goal, gain) {
                let total = rest + gain(at, y);
                best = Some(best.map_or(total, |b: i64| b.max(total)));
            }
        }
        best
    }

    #[test]
    fn monotone_routes_take_the_greatest_gain_or_report_a_block() {
        let n = 6;
        let mut rng = SplitMix64::new(11);
        let mut router = Router::new(n);
        let (mut found, mut blocked_seen) = (0, 0);
        for _ in 0..400 {
            let weights: Vec<[i64; 2]> = (0..n * n)
                .map(|_| [(rng.next_u64() % 3) as i64, (rng.next_u64() % 3) as i64])
                .collect();
            let locked: Vec<bool> = (0..n * n)
                .map(|_| rng.next_u64().is_multiple_of(5))
                .collect();
            let start = (rng.next_u64() % (n * n) as u64) as usize;
            let goal = (rng.next_u64() % (n * n) as u64) as usize;
            if locked[start] || locked[goal] || start == goal {
                continue;
            }
            // A step's gain: the weight of the cell entered, by direction.
            let step = |x: usize, y: usize| weights[y][usize::from(x / n == y / n)];
            let expected = best_by_brute_force(n, &locked, start, goal, &step);
            let ok = router.monotone(&locked, start, goal, usize::MAX, |y, _, _, _, _| {
                (weights[y][0], weights[y][1])
            });
            assert_eq!(ok, expected.is_some());
            let Some(expected) = expected else {
                blocked_seen += 1;
                continue;
            };
            found += 1;
            let (mut at, mut total) = (start, 0);
            for &y in &router.path {
                assert!(!locked[y] && manhattan(n, at, goal) == manhattan(n, y, goal) + 1);
                total += step(at, y);
                at = y;
            }
            assert_eq!((at, total), (goal, expected));
        }
        assert!(
            found > 100 && blocked_seen > 10,
            "{found} found, {blocked_seen} blocked"
        );
    }

    #[test]
    fn routes_go_around_what_they_must_not_enter() {
        // A wall down column 2 of a 5x5 board, open only at the bottom.
        let n = 5;
        let locked: Vec<bool> = (0..n * n).map(|c| c % n == 2 && c / n < 4).collect();
        let mut router = Router::new(n);
        assert!(!router.monotone(&locked, 0, 4, usize::MAX, |_, _, _, _, _| (0, 0)));
        assert!(router.route(&locked, 0, 4, usize::MAX, 1, |_, _| 1));
        assert_eq!(router.path.len(), 12);
        assert!(router.path.iter().all(|&c| !locked[c]));
        // Closed off entirely: no route.
        let walled: Vec<bool> = (0..n * n).map(|c| c % n == 2).collect();
        assert!(!router.route(&walled, 0, 4, usize::MAX, 1, |_, _| 1));
    }
}
