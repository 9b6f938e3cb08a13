//! Routing the blank: a shortest path for it to a cell, around the cells it
//! must not enter, by A* with the Manhattan distance (it explores only a few
//! cells around the straight way).

use crate::solve::grid::{manhattan, neighbours};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Scratch space of the A* routing, reused between searches.
pub(super) struct Router {
    stamp: Vec<u32>,
    current: u32,
    cost: Vec<u32>,
    parent: Vec<usize>,
    heap: BinaryHeap<Reverse<(u32, u32, usize)>>,
    /// The last path found: the blank's cells after its start, in order.
    pub(super) path: Vec<usize>,
}

impl Router {
    /// Scratch space for a board of `cells` cells.
    pub(super) fn new(cells: usize) -> Router {
        Router {
            stamp: vec![0; cells],
            current: 0,
            cost: vec![0; cells],
            parent: vec![0; cells],
            heap: BinaryHeap::new(),
            path: Vec::new(),
        }
    }

    /// Finds a shortest path for the blank from `start` to `goal` on an
    /// `n`-wide board that enters no `locked` cell and not `avoid`, and leaves
    /// it in [`Router::path`]; `false` if there is none.
    pub(super) fn route(
        &mut self,
        n: usize,
        locked: &[bool],
        start: usize,
        goal: usize,
        avoid: usize,
    ) -> bool {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.iter_mut().for_each(|x| *x = 0);
            self.current = 1;
        }
        let stamp = self.current;
        self.heap.clear();
        self.stamp[start] = stamp;
        self.cost[start] = 0;
        let h = |cell: usize| manhattan(n, cell, goal);
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
                if self.stamp[y] == stamp && self.cost[y] <= g + 1 {
                    continue;
                }
                self.stamp[y] = stamp;
                self.cost[y] = g + 1;
                self.parent[y] = x;
                let hy = h(y);
                self.heap.push(Reverse((g + 1 + hy, hy, y)));
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
}
