//! Shortest solutions of 2x2 and 3x3 boards against any goal, read from complete
//! distance tables.
//!
//! A goal is turned into a *canonical goal* in two steps:
//!
//! 1. a symmetry of the square (one of its 8 rotations and reflections) carries the
//!    goal's blank cell onto a representative of its class: for 3x3 the corner `0`,
//!    the edge `1` or the centre `4`; for 2x2 every cell is a corner, so just `0`;
//! 2. the tiles are relabelled so that the goal reads `1, 2, ...` row by row,
//!    skipping the blank.
//!
//! The start is carried through the same symmetry and relabelling, so the puzzle
//! keeps its distance and its shortest paths (their moves turned by the symmetry).
//! One table per class (3 for 3x3, 1 for 2x2) therefore serves every goal. Each
//! table has `side² · (side²-1)!/2` entries (181,440 for 3x3), built by a
//! breadth-first search from its canonical goal the first time it is needed and
//! shared through [`OnceLock`], so it is safe to use from many threads. An entry is
//! one byte: the distance to the goal in bits 2..7 and, in bits 0..1, the index in
//! [`Move::ALL`] of a first move of a shortest solution, so a solution is read off
//! by following those moves, one table look-up per move.
//!
//! States are indexed by the blank cell and the order in which the tiles read row by
//! row, skipping the blank. For a given blank cell the reachable orders are exactly
//! one parity class (on an odd side the order's parity never changes; on an even
//! side it changes with the blank's row), so the rank of the order with its
//! parity-determined last Lehmer digit dropped numbers the reachable states with no
//! gaps.

use crate::board_adt::moves::Move;
use crate::board_adt::symmetry::{class_of, Symmetry};
use crate::board_adt::Board;
use crate::solve::grid;
use crate::solve::outcome::Outcome;
use std::sync::OnceLock;

/// Cells of the largest board handled here.
const MAX_CELLS: usize = 9;

/// Marks a table entry not yet reached by the breadth-first search.
const UNSEEN: u8 = 0xFF;

/// Lehmer-digit weights of the tile order with the last two digits dropped:
/// `(m-1-i)!/2` for `m` tiles.
const WEIGHTS_3: [u32; 6] = [2520, 360, 60, 12, 3, 1];
const WEIGHTS_2: [u32; 1] = [1];

/// A symmetry of the square as the look-ups use it, in arrays.
#[derive(Clone, Copy)]
struct Turn {
    /// `cell[i]` is where cell `i` goes.
    cell: [u8; MAX_CELLS],
    /// `back[m]` is the move on the original board that the move with index `m`
    /// (in [`Move::ALL`]) on the transformed board stands for.
    back: [Move; 4],
}

impl Turn {
    fn new(side: usize, symmetry: Symmetry) -> Turn {
        let mut cell = [0u8; MAX_CELLS];
        for (i, to) in cell.iter_mut().enumerate().take(side * side) {
            *to = symmetry.cell(side, i) as u8;
        }
        Turn {
            cell,
            back: symmetry.moves_back(),
        }
    }
}

/// Everything about one side length that does not depend on the tables.
struct Geometry {
    side: usize,
    cells: usize,
    /// For each possible goal blank cell: its class and the symmetry taking it onto
    /// the class representative.
    per_blank: [(usize, Turn); MAX_CELLS],
    /// For each class, the label of each cell in its canonical goal (0 = blank).
    canonical: Vec<[u8; MAX_CELLS]>,
    /// Lehmer-digit weights, see [`WEIGHTS_3`].
    weights: &'static [u32],
    /// Number of tile orders per blank cell: `(cells-1)!/2`.
    orders: usize,
    /// The tables, one per class, built on first use.
    tables: Vec<OnceLock<Box<[u8]>>>,
}

impl Geometry {
    fn new(side: usize) -> Geometry {
        let cells = side * side;
        let representatives: &[usize] = if side == 3 { &[0, 1, 4] } else { &[0] };
        let mut per_blank = [(0, Turn::new(side, Symmetry::IDENTITY)); MAX_CELLS];
        for (blank, slot) in per_blank.iter_mut().enumerate().take(cells) {
            // The first symmetry in number order that carries the blank onto
            // its class's representative.
            let rep = class_of(side, blank);
            let class = representatives
                .iter()
                .position(|&r| r == rep)
                .expect("every class has its table");
            let sym = Symmetry::first_onto(side, blank, rep)
                .expect("every cell maps onto a representative");
            *slot = (class, Turn::new(side, sym));
        }
        let canonical = representatives
            .iter()
            .map(|&rep| {
                let mut labels = [0u8; MAX_CELLS];
                let mut next = 1;
                for (i, label) in labels.iter_mut().enumerate().take(cells) {
                    if i != rep {
                        *label = next;
                        next += 1;
                    }
                }
                labels
            })
            .collect();
        let (weights, orders): (&'static [u32], usize) = if side == 3 {
            (&WEIGHTS_3, 20_160)
        } else {
            (&WEIGHTS_2, 3)
        };
        Geometry {
            side,
            cells,
            per_blank,
            canonical,
            weights,
            orders,
            tables: representatives.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    /// `start` in the canonical frame of `goal`'s class: the class, the symmetry
    /// that maps `goal` onto the class's canonical goal, the start's relabelled
    /// cells and its blank cell there.
    fn normalise(&self, start: &[u8], goal: &[u8]) -> (usize, Turn, [u8; MAX_CELLS], usize) {
        let goal_blank = goal
            .iter()
            .position(|&t| t == 0)
            .expect("the goal has a blank");
        let (class, sym) = self.per_blank[goal_blank];
        let canonical = &self.canonical[class];
        // Label of each tile in the canonical frame.
        let mut label = [0u8; MAX_CELLS];
        for (i, &tile) in goal.iter().enumerate() {
            label[tile as usize] = canonical[sym.cell[i] as usize];
        }
        let mut cells = [0u8; MAX_CELLS];
        let mut blank = 0;
        for (i, &tile) in start.iter().enumerate() {
            let to = sym.cell[i] as usize;
            cells[to] = label[tile as usize];
            if tile == 0 {
                blank = to;
            }
        }
        (class, sym, cells, blank)
    }

    /// The index of a state: blank cell, then the rank of the tile order.
    #[inline]
    fn index(&self, cells: &[u8; MAX_CELLS], blank: usize) -> usize {
        let mut seen: u32 = 0;
        let mut rank: u32 = 0;
        let mut digit = 0;
        for &tile in &cells[..self.cells] {
            if tile == 0 {
                continue;
            }
            if digit == self.weights.len() {
                break;
            }
            let below = (1u32 << tile) - 1;
            let smaller_seen = (seen & below).count_ones();
            rank += (u32::from(tile) - 1 - smaller_seen) * self.weights[digit];
            seen |= 1 << tile;
            digit += 1;
        }
        blank * self.orders + rank as usize
    }

    /// The table of `class`, built by breadth-first search from its canonical goal
    /// on first use.
    fn table(&self, class: usize) -> &[u8] {
        self.tables[class].get_or_init(|| self.build(class))
    }

    fn build(&self, class: usize) -> Box<[u8]> {
        let side = self.side;
        let mut table = vec![UNSEEN; self.cells * self.orders].into_boxed_slice();
        let goal = self.canonical[class];
        let goal_blank = goal[..self.cells]
            .iter()
            .position(|&t| t == 0)
            .expect("canonical goal has a blank");
        let mut queue: Vec<([u8; MAX_CELLS], u8)> = Vec::with_capacity(table.len());
        table[self.index(&goal, goal_blank)] = 0;
        queue.push((goal, goal_blank as u8));
        let mut head = 0;
        while head < queue.len() {
            let (cells, blank) = queue[head];
            head += 1;
            let blank = blank as usize;
            let distance = table[self.index(&cells, blank)] >> 2;
            for (m, mv) in Move::ALL.iter().enumerate() {
                let Some(next_blank) = mv.blank_target(side, blank) else {
                    continue;
                };
                let mut next = cells;
                next.swap(blank, next_blank);
                let slot = &mut table[self.index(&next, next_blank)];
                if *slot == UNSEEN {
                    // From `next`, undoing `mv` leads one step closer to the goal.
                    *slot = ((distance + 1) << 2) | (m as u8 ^ 1);
                    queue.push((next, next_blank as u8));
                }
            }
        }
        table
    }
}

fn geometry(side: usize) -> &'static Geometry {
    static TWO: OnceLock<Geometry> = OnceLock::new();
    static THREE: OnceLock<Geometry> = OnceLock::new();
    match side {
        2 => TWO.get_or_init(|| Geometry::new(2)),
        3 => THREE.get_or_init(|| Geometry::new(3)),
        _ => panic!("solve_small handles sides 2 and 3, not {side}"),
    }
}

/// A shortest solution from `start` to `goal`, 2x2 or 3x3 boards, the goal
/// reachable.
pub(crate) fn solve(start: &Board, goal: &Board) -> Outcome {
    let (side, cells) = (start.side(), start.len());
    let (start, goal) = (grid::narrow::<16>(start), grid::narrow::<16>(goal));
    Outcome::Solved(solve_small(side, &start[..cells], &goal[..cells]).into())
}

/// A shortest solution taking `start` to `goal` on a `side`-wide board, `side`
/// being 2 or 3.
///
/// Both boards are row-major cells with `0` for the blank and the tiles
/// `1..side*side` once each; the goal may have its blank anywhere. The goal must
/// be reachable from the start (the caller checks parity); the answer is empty when
/// `start == goal`.
///
/// # Panics
///
/// If `side` is not 2 or 3, or the boards are not of `side * side` cells holding
/// the values `0..side*side`.
pub(crate) fn solve_small(side: usize, start: &[u8], goal: &[u8]) -> Vec<Move> {
    let geom = geometry(side);
    let n = geom.cells;
    assert!(
        start.len() == n && goal.len() == n,
        "a {side}x{side} board has {n} cells"
    );
    if start == goal {
        return Vec::new();
    }
    let (class, sym, mut cells, mut blank) = geom.normalise(start, goal);

    let table = geom.table(class);
    let offsets: [isize; 4] = [geom.side as isize, -(geom.side as isize), 1, -1];
    let mut index = geom.index(&cells, blank);
    let mut entry = table[index];
    if entry == UNSEEN {
        return Vec::new();
    }
    let length = usize::from(entry >> 2);
    let mut moves = Vec::with_capacity(length);
    for _ in 0..length {
        let m = usize::from(entry & 3);
        let next = blank.wrapping_add_signed(offsets[m]);
        cells.swap(blank, next);
        index = if m >= 2 {
            // A sideways move keeps the tiles' reading order: only the blank moved.
            index.wrapping_add_signed(offsets[m] * geom.orders as isize)
        } else {
            geom.index(&cells, next)
        };
        blank = next;
        moves.push(sym.back[m]);
        entry = table[index];
    }
    moves
}

/// The length of a shortest solution, without building it.
///
/// Same conditions as [`solve_small`].
#[cfg(test)]
fn distance_small(side: usize, start: &[u8], goal: &[u8]) -> usize {
    let geom = geometry(side);
    let (class, _, cells, blank) = geom.normalise(start, goal);
    usize::from(geom.table(class)[geom.index(&cells, blank)] >> 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::{apply_move, replay};
    use crate::generate::SplitMix64;
    use crate::solve::grid::reachable;
    use std::collections::{HashMap, VecDeque};

    /// A random board of `cells` cells, as bytes.
    fn board(rng: &mut SplitMix64, cells: usize) -> Vec<u8> {
        rng.permutation(cells)
            .into_iter()
            .map(|t| t as u8)
            .collect()
    }

    fn pack(cells: &[u8]) -> u64 {
        cells.iter().fold(0, |acc, &t| acc << 4 | u64::from(t))
    }

    /// Independent breadth-first search from `goal` over every reachable board
    /// (distance of each reachable board, keyed by its packed cells).
    fn bfs(side: usize, goal: &[u8]) -> HashMap<u64, u32> {
        let mut dist = HashMap::new();
        let blank = goal.iter().position(|&t| t == 0).unwrap();
        dist.insert(pack(goal), 0);
        let mut queue = VecDeque::new();
        queue.push_back((goal.to_vec(), blank, 0u32));
        while let Some((cells, blank, d)) = queue.pop_front() {
            for mv in Move::ALL {
                let mut next = cells.clone();
                let mut b = blank;
                if apply_move(&mut next, side, &mut b, mv) {
                    let key = pack(&next);
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(key) {
                        e.insert(d + 1);
                        queue.push_back((next, b, d + 1));
                    }
                }
            }
        }
        dist
    }

    fn unpack(side: usize, key: u64) -> Vec<u8> {
        let n = side * side;
        (0..n)
            .map(|i| ((key >> (4 * (n - 1 - i))) & 15) as u8)
            .collect()
    }

    fn check(side: usize, start: &[u8], goal: &[u8], expected: u32) {
        let moves = solve_small(side, start, goal);
        assert_eq!(moves.len() as u32, expected, "{start:?} -> {goal:?}");
        assert_eq!(distance_small(side, start, goal) as u32, expected);
        let mut cells = start.to_vec();
        let mut blank = start.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, side, &mut blank, &moves), Ok(()));
        assert_eq!(cells, goal, "{start:?} -> {goal:?}");
    }

    fn permutations(items: &[u8]) -> Vec<Vec<u8>> {
        if items.len() <= 1 {
            return vec![items.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..items.len() {
            let mut rest = items.to_vec();
            let first = rest.remove(i);
            for mut tail in permutations(&rest) {
                tail.insert(0, first);
                out.push(tail);
            }
        }
        out
    }

    #[test]
    fn two_by_two_exhaustively_against_bfs() {
        let all = permutations(&[0, 1, 2, 3]);
        assert_eq!(all.len(), 24);
        let mut pairs = 0;
        for goal in &all {
            let dist = bfs(2, goal);
            assert_eq!(dist.len(), 12);
            for start in &all {
                if let Some(&d) = dist.get(&pack(start)) {
                    check(2, start, goal, d);
                    pairs += 1;
                }
            }
        }
        assert_eq!(pairs, 24 * 12);
    }

    #[test]
    fn three_by_three_every_start_against_bfs_for_each_blank_cell() {
        let mut rng = SplitMix64::new(7);
        for goal_blank in 0..9 {
            let mut goal = board(&mut rng, 9);
            let at = goal.iter().position(|&t| t == 0).unwrap();
            goal.swap(at, goal_blank);
            let dist = bfs(3, &goal);
            assert_eq!(dist.len(), 181_440);
            let mut longest = 0;
            for (&key, &d) in &dist {
                let start = unpack(3, key);
                check(3, &start, &goal, d);
                longest = longest.max(d);
            }
            // The known diameters: 30 moves with the blank in the centre, else 31.
            assert_eq!(longest, if goal_blank == 4 { 30 } else { 31 });
        }
    }

    #[test]
    fn three_by_three_random_pairs_against_bfs() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..6 {
            let goal = board(&mut rng, 9);
            let dist = bfs(3, &goal);
            for _ in 0..3000 {
                let start = board(&mut rng, 9);
                match dist.get(&pack(&start)) {
                    Some(&d) => check(3, &start, &goal, d),
                    None => continue,
                }
            }
        }
    }

    #[test]
    fn solved_board_needs_no_moves() {
        let goal = [4, 2, 0, 1, 3, 5, 8, 7, 6];
        assert!(solve_small(3, &goal, &goal).is_empty());
        assert!(solve_small(2, &[3, 0, 1, 2], &[3, 0, 1, 2]).is_empty());
    }

    #[test]
    fn tables_are_shared_between_threads() {
        let handles: Vec<_> = (0..4)
            .map(|seed| {
                std::thread::spawn(move || {
                    let mut rng = SplitMix64::new(seed);
                    for _ in 0..1000 {
                        let goal = board(&mut rng, 9);
                        let mut start = board(&mut rng, 9);
                        if !reachable(3, &start, &goal) {
                            let (i, j) = nonblank_pair(&start);
                            start.swap(i, j);
                        }
                        let moves = solve_small(3, &start, &goal);
                        let mut cells = start.clone();
                        let mut blank = start.iter().position(|&t| t == 0).unwrap();
                        replay(&mut cells, 3, &mut blank, &moves).unwrap();
                        assert_eq!(cells, goal);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }

    fn nonblank_pair(b: &[u8]) -> (usize, usize) {
        let mut it = (0..b.len()).filter(|&i| b[i] != 0);
        (it.next().unwrap(), it.next().unwrap())
    }

    #[test]
    fn a_two_move_example() {
        // The tile right of the blank slides left, then the one below slides up.
        let start = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let goal = [1, 4, 2, 3, 0, 5, 6, 7, 8];
        assert_eq!(
            crate::board_adt::moves::to_letters(&solve_small(3, &start, &goal)),
            "LU"
        );
    }
}
