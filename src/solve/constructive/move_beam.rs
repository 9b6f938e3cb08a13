//! A beam search over single moves that places the tiles of a region's first
//! row and first column together (an "L"), in whatever order and by whatever
//! moves its estimate finds cheapest, instead of tile by tile.
//!
//! Each level holds the `width` states, one move deeper than the last, whose
//! estimate is least: twice the tiles' distances to their cells, the L's
//! tiles weighted [`LINE_WEIGHT`] to the others' 1 (which only break ties
//! towards states that leave less for later), plus the blank's distance to
//! the nearest tile of the L still to place. States are told apart by the
//! cells of the L's tiles and of the blank only, and one seen before is not
//! kept again. The first states with every tile of the L in place are
//! collected, and those of a few levels more, for the caller to choose among
//! by what they leave.

use crate::board_adt::moves::Move;
use crate::generate::mix;
use crate::solve::seen::KeySet;

/// How a beam over moves weighs what is left: each L tile's distance to
/// its cell, each other tile's, and the blank's distance to the nearest L
/// tile still to place (docs/solving.md has the measurements).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weights {
    /// An L tile's distance.
    pub(crate) line: i32,
    /// Another tile's distance (it breaks ties towards states that leave
    /// less for later).
    pub(crate) other: i32,
    /// The blank's distance to the nearest L tile still to place.
    pub(crate) near: i32,
}

impl Weights {
    /// The weights the beam was first measured with: an L tile 6 to another
    /// tile's 1 (3 and 6 gave the same lengths on ten 6x6 boards).
    pub(crate) const FIRST: Weights = Weights {
        line: 6,
        other: 1,
        near: 1,
    };
}

/// How many levels the search goes on after its first completion.
const EXTRA_LEVELS: usize = 6;

/// Children whose slots of the seen set are fetched together before they
/// are probed: few enough that their cache lines and pages are still at hand
/// when probed (all of a level's at once, 12,000 on 7x7, took 12% more time
/// than 128 to 2,048 at a time, which were alike).
const WARMED: usize = 512;

/// The most completions returned.
pub(super) const MOST_COMPLETIONS: usize = 32;

thread_local! {
    /// The set of keys seen of the thread's last beam, kept for its next
    /// one (see [`KeySet::reset`]).
    static SEEN: std::cell::Cell<KeySet> = std::cell::Cell::new(KeySet::default());
}

/// A state with the L placed: its moves from the start, and its cells.
pub(super) struct Completion {
    pub(super) moves: Vec<Move>,
    pub(super) cells: Vec<u32>,
}

/// Places the tiles `target` has in row `top` and column `top` (from the
/// cell `(top, top)` on) of the region of rows and columns `top..n` of
/// `cells`, an `n`-wide board (`target`'s blank not on the L), the blank
/// never leaving the region; `width` states a level. Returns the
/// completions found (at most [`MOST_COMPLETIONS`]), fewest moves first, or
/// none within `most_moves`.
pub(super) fn place_l(
    n: usize,
    cells: &[u32],
    target: &[u32],
    top: usize,
    width: usize,
    most_moves: usize,
    weights: Weights,
) -> Vec<Completion> {
    let shape = Shape::new(n, target, top, weights);
    let mut level = shape.start(cells);
    if shape.placed(&level.states[..shape.stride()]) {
        return vec![Completion {
            moves: Vec::new(),
            cells: cells.to_vec(),
        }];
    }
    // The thread's set of the beams before, emptied, with room for the keys
    // of about 32 levels of children at once: growing the set level by
    // level rehashed it again and again.
    let mut seen = SEEN.take();
    seen.reset(width.saturating_mul(32));
    seen.insert(level.hashes[0]);
    // Per level, each kept state's parent (index in the level before) and move.
    let mut history: Vec<Vec<(u32, Move)>> = Vec::new();
    let mut found = Found::default();
    let mut children: Vec<Child> = Vec::new();
    let mut candidates: Vec<(u32, u8, u64)> = Vec::new();
    let mut next = Level::default();
    for depth in 1..=most_moves {
        if found.first.is_some_and(|f: usize| depth > f + EXTRA_LEVELS) {
            break;
        }
        shape.candidates(&level, history.last(), &mut candidates);
        shape.children(&level, &candidates, &mut seen, &mut children);
        if children.is_empty() {
            break;
        }
        if children.len() > width {
            children.select_nth_unstable_by_key(width, |&(key, parent, dir, _)| (key, parent, dir));
            children.truncate(width);
        }
        children.sort_unstable_by_key(|&(key, parent, dir, _)| (key, parent, dir));
        history.push(shape.next_level(&level, &children, &mut next, depth, &mut found));
        std::mem::swap(&mut level, &mut next);
    }
    SEEN.set(seen);
    found.completions(&history)
}

/// A child of a level: its estimate, its parent (index in the level), its
/// move (index in [`Shape::steps`]) and its key.
type Child = (i32, u32, u8, u64);

/// The L a beam places and the lookups its estimate reads.
struct Shape {
    /// The board's cells.
    size: usize,
    /// Each tile's cell in the target.
    home: Vec<usize>,
    /// Whether a tile is one of the L's.
    in_line: Vec<bool>,
    /// The L's tiles.
    line_tiles: Vec<u8>,
    /// Whether a cell is in the region the blank stays in.
    region: Vec<bool>,
    /// The distances between cells, looked up: a division per distance was
    /// a good part of the beam's time.
    distances: Vec<i32>,
    weights: Weights,
    /// The moves, and how each shifts the blank's cell.
    steps: [(Move, isize); 4],
}

impl Shape {
    /// The L of row `top` and column `top` of `target`, an `n`-wide board,
    /// weighed by `weights`.
    fn new(n: usize, target: &[u32], top: usize, weights: Weights) -> Shape {
        let left = top;
        let size = n * n;
        assert!(size <= 256, "tiles are kept in bytes");
        let mut home = vec![0usize; size];
        for (cell, &tile) in target.iter().enumerate() {
            home[tile as usize] = cell;
        }
        let goal_cells: Vec<usize> = (left..n)
            .map(|c| top * n + c)
            .chain((top + 1..n).map(|r| r * n + left))
            .collect();
        let mut in_line = vec![false; size];
        for &cell in &goal_cells {
            debug_assert_ne!(target[cell], 0, "the blank's home is off the L");
            in_line[target[cell] as usize] = true;
        }
        Shape {
            size,
            home,
            in_line,
            line_tiles: goal_cells.iter().map(|&c| target[c] as u8).collect(),
            region: (0..size)
                .map(|cell| cell / n >= top && cell % n >= left)
                .collect(),
            distances: (0..size * size)
                .map(|ab| {
                    let (a, b) = (ab / size, ab % size);
                    ((a / n).abs_diff(b / n) + (a % n).abs_diff(b % n)) as i32
                })
                .collect(),
            weights,
            steps: [
                (Move::Up, n as isize),
                (Move::Down, -(n as isize)),
                (Move::Left, 1),
                (Move::Right, -1),
            ],
        }
    }

    /// The bytes of a state in a [`Level`]: its cells, then each tile's cell.
    fn stride(&self) -> usize {
        2 * self.size
    }

    fn dist(&self, a: usize, b: usize) -> i32 {
        self.distances[a * self.size + b]
    }

    fn weight(&self, tile: u8) -> i32 {
        if self.in_line[tile as usize] {
            self.weights.line
        } else {
            self.weights.other
        }
    }

    /// What `tile` on `cell` adds to a state's key. States are told apart by
    /// the cells of the L's tiles and of the blank only: the other tiles are
    /// interchangeable to the search, or its levels fill with their
    /// rearrangements on a plateau of the estimate.
    fn key(&self, cell: usize, tile: u8) -> u64 {
        if tile == 0 || self.in_line[tile as usize] {
            mix((cell as u64) << 8 | u64::from(tile))
        } else {
            0
        }
    }

    /// Whether every tile of the L is on its cell in `state`.
    fn placed(&self, state: &[u8]) -> bool {
        self.line_tiles
            .iter()
            .all(|&t| state[self.size + t as usize] as usize == self.home[t as usize])
    }

    /// The first level: `cells` alone.
    fn start(&self, cells: &[u32]) -> Level {
        let size = self.size;
        let mut level = Level::default();
        let mut state = vec![0u8; 2 * size];
        let (mut cost, mut hash) = (0, 0u64);
        for (cell, &tile) in cells.iter().enumerate() {
            let tile = tile as u8;
            state[cell] = tile;
            state[size + tile as usize] = cell as u8;
            if tile != 0 && self.region[cell] {
                cost += self.weight(tile) * self.dist(cell, self.home[tile as usize]);
            }
            hash ^= self.key(cell, tile);
        }
        level.states.extend_from_slice(&state);
        level.blanks.push(state[size] as usize);
        level.costs.push(cost);
        level.hashes.push(hash);
        level
    }

    /// Each child of `level` into `candidates`: its parent, its move (of
    /// [`Shape::steps`]; none that undoes the parent's own, as `moves`, the
    /// level's, say) and its key.
    fn candidates(
        &self,
        level: &Level,
        moves: Option<&Vec<(u32, Move)>>,
        candidates: &mut Vec<(u32, u8, u64)>,
    ) {
        let (size, stride) = (self.size, self.stride());
        candidates.clear();
        for (index, &blank) in level.blanks.iter().enumerate() {
            let state = &level.states[index * stride..(index + 1) * stride];
            let last = moves.map(|h| h[index].1);
            for (dir, &(mv, offset)) in self.steps.iter().enumerate() {
                if last == Some(mv.inverse()) {
                    continue;
                }
                let to = blank as isize + offset;
                if to < 0 || to as usize >= size {
                    continue;
                }
                let to = to as usize;
                // A step to a neighbour: not across a row's end.
                if self.dist(blank, to) != 1 || !self.region[to] {
                    continue;
                }
                let tile = state[to];
                let hash = level.hashes[index]
                    ^ self.key(to, tile)
                    ^ self.key(blank, tile)
                    ^ self.key(to, 0)
                    ^ self.key(blank, 0);
                candidates.push((index as u32, dir as u8, hash));
            }
        }
    }

    /// The `candidates` of `level` not `seen` before (now seen), with their
    /// estimates, into `children`. The seen set's slots of [`WARMED`] of
    /// them are fetched at once, then each probed: the probes, each a miss
    /// in a table larger than the caches, were most of the beam's time one
    /// after another (docs/journal.md).
    fn children(
        &self,
        level: &Level,
        candidates: &[(u32, u8, u64)],
        seen: &mut KeySet,
        children: &mut Vec<Child>,
    ) {
        let (size, stride) = (self.size, self.stride());
        children.clear();
        for (at, &(index, dir, hash)) in candidates.iter().enumerate() {
            if at % WARMED == 0 {
                let ahead = candidates[at..].iter().take(WARMED);
                seen.warm(ahead.map(|&(_, _, hash)| hash));
            }
            if !seen.insert(hash) {
                continue;
            }
            let index = index as usize;
            let state = &level.states[index * stride..(index + 1) * stride];
            let blank = level.blanks[index];
            let to = (blank as isize + self.steps[dir as usize].1) as usize;
            let tile = state[to];
            let h = self.home[tile as usize];
            let cost =
                level.costs[index] + self.weight(tile) * (self.dist(blank, h) - self.dist(to, h));
            // The blank's distance from its new cell `to` to the nearest
            // tile of the L still to place (0 next to it).
            let near = self
                .line_tiles
                .iter()
                .filter_map(|&t| {
                    let at = if t == tile {
                        blank
                    } else {
                        state[size + t as usize] as usize
                    };
                    (at != self.home[t as usize]).then(|| self.dist(to, at) - 1)
                })
                .min()
                .unwrap_or(0);
            children.push((2 * cost + self.weights.near * near, index as u32, dir, hash));
        }
    }

    /// The level of `children` (of `level`, at `depth`) built into `next`,
    /// the completions among them added to `found`; each child's parent and
    /// move. `next` holds the buffers of the level before last: a fresh
    /// allocation a level costs the kernel's zeroing of its pages.
    fn next_level(
        &self,
        level: &Level,
        children: &[Child],
        next: &mut Level,
        depth: usize,
        found: &mut Found,
    ) -> Vec<(u32, Move)> {
        let (size, stride) = (self.size, self.stride());
        next.clear();
        let mut moves = Vec::with_capacity(children.len());
        for &(_, parent, dir, hash) in children {
            let parent = parent as usize;
            let (mv, offset) = self.steps[dir as usize];
            let blank = level.blanks[parent];
            let to = (blank as isize + offset) as usize;
            let start = next.states.len();
            next.states
                .extend_from_slice(&level.states[parent * stride..(parent + 1) * stride]);
            let state = &mut next.states[start..];
            let tile = state[to];
            state[blank] = tile;
            state[to] = 0;
            state[size + tile as usize] = blank as u8;
            state[size] = to as u8;
            let h = self.home[tile as usize];
            next.costs.push(
                level.costs[parent] + self.weight(tile) * (self.dist(blank, h) - self.dist(to, h)),
            );
            next.blanks.push(to);
            next.hashes.push(hash);
            moves.push((parent as u32, mv));
            if self.placed(state) && found.at.len() < MOST_COMPLETIONS {
                found.first.get_or_insert(depth);
                found.at.push((depth, next.blanks.len() - 1));
                found
                    .cells
                    .push(state[..size].iter().map(|&t| u32::from(t)).collect());
            }
        }
        moves
    }
}

/// The completions a beam found so far.
#[derive(Default)]
struct Found {
    /// The level and index of each.
    at: Vec<(usize, usize)>,
    /// The cells of each.
    cells: Vec<Vec<u32>>,
    /// The level of the first.
    first: Option<usize>,
}

impl Found {
    /// Each completion with its moves, walked back through `history`.
    fn completions(self, history: &[Vec<(u32, Move)>]) -> Vec<Completion> {
        self.at
            .into_iter()
            .zip(self.cells)
            .map(|((depth, mut index), cells)| {
                let mut moves = Vec::with_capacity(depth);
                for d in (0..depth).rev() {
                    let (parent, mv) = history[d][index];
                    moves.push(mv);
                    index = parent as usize;
                }
                moves.reverse();
                Completion { moves, cells }
            })
            .collect()
    }
}

/// One level of the beam, its states side by side.
#[derive(Default)]
struct Level {
    /// Each state's cells, then each tile's cell, in bytes.
    states: Vec<u8>,
    /// Each state's blank cell.
    blanks: Vec<usize>,
    /// Each state's weighted distances of its tiles to their cells.
    costs: Vec<i32>,
    /// Each state's key among the states seen (its L's tiles and blank).
    hashes: Vec<u64>,
}

impl Level {
    fn clear(&mut self) {
        self.states.clear();
        self.blanks.clear();
        self.costs.clear();
        self.hashes.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::replay;
    use crate::generate::SplitMix64;

    /// A random target with its blank in the bottom-right cell.
    fn target(rng: &mut SplitMix64, n: usize) -> Vec<u32> {
        let mut target = rng.permutation(n * n);
        let blank = target.iter().position(|&t| t == 0).unwrap();
        target.swap(blank, n * n - 1);
        target
    }

    /// A random `n`-wide board agreeing with `target` outside the region of
    /// rows and columns `top..n`, which holds the region's tiles in a random
    /// order.
    fn inside_region(rng: &mut SplitMix64, n: usize, target: &[u32], top: usize) -> Vec<u32> {
        let region: Vec<usize> = (0..n * n)
            .filter(|&c| c / n >= top && c % n >= top)
            .collect();
        let order = rng.permutation(region.len());
        let mut cells = target.to_vec();
        for (i, &cell) in region.iter().enumerate() {
            cells[cell] = target[region[order[i] as usize]];
        }
        cells
    }

    #[test]
    fn completions_place_the_l_inside_the_region_and_replay() {
        let mut rng = SplitMix64::new(7);
        for (n, top) in [(6, 0), (7, 0), (7, 1), (8, 2)] {
            let target = target(&mut rng, n);
            let cells = inside_region(&mut rng, n, &target, top);
            let found = place_l(n, &cells, &target, top, 256, 60 * n, Weights::FIRST);
            assert!(!found.is_empty(), "{n}x{n} from {top}");
            assert!(found
                .windows(2)
                .all(|w| w[0].moves.len() <= w[1].moves.len()));
            for done in &found {
                let mut replayed = cells.clone();
                let mut blank = cells.iter().position(|&t| t == 0).unwrap();
                assert_eq!(replay(&mut replayed, n, &mut blank, &done.moves), Ok(()));
                assert_eq!(replayed, done.cells);
                for (cell, &tile) in target.iter().enumerate() {
                    let (row, col) = (cell / n, cell % n);
                    if row <= top || col <= top {
                        assert_eq!(done.cells[cell], tile, "{n}x{n} cell {cell}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_placed_l_needs_no_moves_and_a_tight_limit_finds_nothing() {
        let mut rng = SplitMix64::new(8);
        let target = target(&mut rng, 6);
        let found = place_l(6, &target, &target, 0, 64, 10, Weights::FIRST);
        assert_eq!(found.len(), 1);
        assert!(found[0].moves.is_empty());
        let cells = inside_region(&mut rng, 6, &target, 0);
        assert!(place_l(6, &cells, &target, 0, 64, 3, Weights::FIRST).is_empty());
    }
}
