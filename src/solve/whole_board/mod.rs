//! A beam search over the whole board, for 6x6 and 7x7 (`--solve` runs it
//! beside the reduction and keeps the shorter answer): the boards of each
//! depth are expanded, and the `width` children with the smallest estimate
//! (additive pattern tables, `tables.rs`) are kept for the next depth; a
//! child already kept at any depth, or made twice, is dropped. The first
//! depth that holds the goal ends the search. Where a board on the way has
//! every tile outside a 5x5 corner home, the rest may be replaced by the
//! 5x5 beam's answer for the corner ([`finished_corner`]).
//!
//! The reduction (`constructive/`) places line after line whatever the
//! board; the beam goes for the whole board at once, which on a nearly
//! ordered start (DeepCubeA's test states are random walks from the goal)
//! is sometimes shorter. With these tables it is not shorter on average
//! (docs/journal.md has the figures), so it only ever replaces the
//! reduction's answer where it beats it.
//!
//! Everything is counted, nothing timed: ties are broken by the boards'
//! hashes, and the children are made on `jobs` threads in slices that are
//! joined in order, so the answer is the same for any `jobs` and on any
//! machine.

mod tables;

pub(crate) use tables::{Heuristic, Shelf};

use crate::board_adt::moves::{apply_move, Move};
use crate::solve::outcome::Counters;
use crate::solve::seen::SeenKeys;

/// The largest board the search handles (7x7: 49 cells).
const CELLS: usize = 49;

/// A board in the beam.
#[derive(Clone, Copy)]
struct Node {
    /// The tile on each cell (0 the blank).
    cells: [u8; CELLS],
    /// The cell of each tile (0: the blank's).
    pos: [u8; CELLS],
    /// The estimate of the moves left.
    h: u32,
    /// Zobrist hash of the tiles' cells.
    hash: u64,
}

/// A child, before it is kept or dropped.
#[derive(Clone, Copy)]
struct Child {
    h: u32,
    hash: u64,
    /// Its parent's place in the beam.
    parent: u32,
    /// The move from the parent (its index in [`Move::ALL`]).
    mv: u8,
}

/// Random numbers for the hashes, a tile and a cell each (SplitMix64 from a
/// fixed seed: the same on every run).
fn zobrist() -> Vec<u64> {
    let mut state: u64 = 0x0005_eed0_fbea;
    (0..CELLS * CELLS)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

/// The moves from `start` to the goal the heuristic was made for (row-major
/// cells of its side, 0 the blank) by the beam search of `width` boards a
/// depth on `jobs` threads; `None` if the beam died out or reached
/// `max_depth` first. Counts the boards expanded and the children made.
pub(crate) fn solve(
    start: &[u32],
    heuristic: &Heuristic,
    width: usize,
    jobs: usize,
    max_depth: usize,
    counters: &mut Counters,
) -> Option<Vec<Move>> {
    let side = heuristic.side;
    let n = side * side;
    assert!(n <= CELLS && start.len() == n, "6x6 and 7x7 boards only");
    let z = zobrist();
    let mut root = Node {
        cells: [0; CELLS],
        pos: [0; CELLS],
        h: 0,
        hash: 0,
    };
    for (cell, &tile) in start.iter().enumerate() {
        root.cells[cell] = tile as u8;
        root.pos[tile as usize] = cell as u8;
        if tile != 0 {
            root.hash ^= z[tile as usize * CELLS + cell];
        }
    }
    root.h = heuristic.estimate(&root.pos[..n]);
    if root.h == 0 {
        return Some(Vec::new());
    }
    let mut beam = vec![root];
    // The parent and the move of every board kept, depth by depth.
    let mut history: Vec<Vec<(u32, u8)>> = Vec::new();
    // The hashes of every board kept so far.
    let mut seen = SeenKeys::default();
    seen.insert(root.hash);
    let jobs = jobs.max(1);
    for _ in 0..max_depth {
        counters.expanded += beam.len() as u64;
        // Slices of at least 256 boards: below, a thread costs more than
        // it saves.
        let chunk = beam.len().div_ceil(jobs).max(256);
        let known = &seen;
        let expand = |offset: usize, part: &[Node]| -> Vec<Child> {
            let mut out = Vec::with_capacity(part.len() * 3);
            for (i, node) in part.iter().enumerate() {
                let blank = node.pos[0] as usize;
                for (m, mv) in Move::ALL.iter().enumerate() {
                    let Some(from) = mv.blank_target(side, blank) else {
                        continue;
                    };
                    // The tile on `from` slides onto the blank's cell: only
                    // its pattern's entry changes.
                    let tile = node.cells[from] as usize;
                    let (p, weight) = heuristic.of_tile[tile];
                    let p = p as usize;
                    let old = heuristic.index(p, &node.pos[..n]);
                    let new = old + blank * weight as usize - from * weight as usize;
                    let table = &heuristic.patterns[p].table;
                    let h = node.h + u32::from(table[new]) - u32::from(table[old]);
                    let hash = node.hash ^ z[tile * CELLS + from] ^ z[tile * CELLS + blank];
                    if known.contains(&hash) {
                        continue;
                    }
                    out.push(Child {
                        h,
                        hash,
                        parent: (offset + i) as u32,
                        mv: m as u8,
                    });
                }
            }
            out
        };
        let mut children: Vec<Child> = if beam.len() <= chunk {
            expand(0, &beam)
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = beam
                    .chunks(chunk)
                    .enumerate()
                    .map(|(k, part)| scope.spawn(move || expand(k * chunk, part)))
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().expect("a beam thread panicked"))
                    .collect()
            })
        };
        counters.generated += children.len() as u64;
        // A total order, so the same children are kept whatever order the
        // slices came in.
        children.sort_unstable_by_key(|c| (c.h, c.hash, c.parent, c.mv));
        children.dedup_by_key(|c| c.hash);
        children.truncate(width);
        let first = children.first()?;
        history.push(children.iter().map(|c| (c.parent, c.mv)).collect());
        if first.h == 0 {
            // The first child is the goal (the only board estimated 0):
            // its moves, back through the history.
            let mut moves = Vec::with_capacity(history.len());
            let mut at = 0usize;
            for level in history.iter().rev() {
                let (parent, mv) = level[at];
                moves.push(Move::ALL[mv as usize]);
                at = parent as usize;
            }
            moves.reverse();
            return Some(moves);
        }
        seen.extend(children.iter().map(|c| c.hash));
        let make = |c: &Child| -> Node {
            let mut node = beam[c.parent as usize];
            let blank = node.pos[0] as usize;
            let from = Move::ALL[c.mv as usize]
                .blank_target(side, blank)
                .expect("a legal move");
            let tile = node.cells[from];
            node.cells[blank] = tile;
            node.cells[from] = 0;
            node.pos[tile as usize] = blank as u8;
            node.pos[0] = from as u8;
            node.h = c.h;
            node.hash = c.hash;
            node
        };
        beam = if children.len() <= chunk {
            children.iter().map(make).collect()
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = children
                    .chunks(chunk)
                    .map(|part| scope.spawn(move || part.iter().map(make).collect::<Vec<_>>()))
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().expect("a beam thread panicked"))
                    .collect()
            })
        };
    }
    None
}

/// What solves a 5x5 corner: its start and goal (row-major, 0 the blank,
/// the goal's blank on a corner cell), to the moves.
pub(crate) type Finish<'a> = &'a dyn Fn(&[u8], &[u8]) -> Vec<Move>;

/// The side of the corner the 5x5 beam finishes.
const CORNER: usize = 5;

/// The cells outside the 5x5 corner whose corner cell holds the goal's
/// blank (the first such corner of the board, bottom-right first), and the
/// corner's cells; `None` if no 5x5 corner has the goal's blank on a
/// corner cell.
fn corner_of(side: usize, goal: &[u32]) -> Option<Vec<usize>> {
    let blank = goal.iter().position(|&t| t == 0)?;
    let (br, bc) = (blank / side, blank % side);
    let far = side.checked_sub(CORNER)?;
    let (r0, c0) = [(far, far), (far, 0), (0, far), (0, 0)]
        .into_iter()
        .find(|&(r0, c0)| {
            (br == r0 || br == r0 + CORNER - 1) && (bc == c0 || bc == c0 + CORNER - 1)
        })?;
    Some(
        (0..side * side)
            .filter(|&cell| {
                (r0..r0 + CORNER).contains(&(cell / side))
                    && (c0..c0 + CORNER).contains(&(cell % side))
            })
            .collect(),
    )
}

/// `moves` from `start` to `goal`, with what follows the first board whose
/// tiles outside a 5x5 corner are all home (see [`corner_of`]) replaced by
/// `finish`'s answer for the corner, if that is shorter.
pub(crate) fn finished_corner(
    side: usize,
    start: &[u32],
    goal: &[u32],
    moves: Vec<Move>,
    finish: Finish<'_>,
) -> Vec<Move> {
    let Some(corner) = corner_of(side, goal) else {
        return moves;
    };
    let mut inside = vec![false; side * side];
    corner.iter().for_each(|&c| inside[c] = true);
    let mut cells = start.to_vec();
    let mut blank = cells.iter().position(|&t| t == 0).unwrap_or(0);
    let framed = |cells: &[u32]| (0..cells.len()).all(|c| inside[c] || cells[c] == goal[c]);
    let mut at = 0;
    while !framed(&cells) {
        if at == moves.len() {
            return moves;
        }
        apply_move(&mut cells, side, &mut blank, moves[at]);
        at += 1;
    }
    let mut label = vec![0u8; side * side];
    for (next, &cell) in corner.iter().filter(|&&c| goal[c] != 0).enumerate() {
        label[goal[cell] as usize] = next as u8 + 1;
    }
    let corner_start: Vec<u8> = corner.iter().map(|&c| label[cells[c] as usize]).collect();
    let corner_goal: Vec<u8> = corner.iter().map(|&c| label[goal[c] as usize]).collect();
    let rest = finish(&corner_start, &corner_goal);
    if at + rest.len() < moves.len() {
        let mut better = moves[..at].to_vec();
        better.extend(rest);
        better
    } else {
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::SplitMix64;

    fn walk(side: usize, goal: &[u32], length: usize, seed: u64) -> Vec<u32> {
        let mut rng = SplitMix64::new(seed);
        let mut cells = goal.to_vec();
        let mut blank = cells.iter().position(|&t| t == 0).unwrap();
        for _ in 0..length {
            apply_move(
                &mut cells,
                side,
                &mut blank,
                Move::ALL[rng.below(4) as usize],
            );
        }
        cells
    }

    fn replays(side: usize, start: &[u32], goal: &[u32], moves: &[Move]) {
        let mut cells = start.to_vec();
        let mut blank = cells.iter().position(|&t| t == 0).unwrap();
        for &mv in moves {
            assert!(apply_move(&mut cells, side, &mut blank, mv));
        }
        assert_eq!(cells, goal);
    }

    #[test]
    fn the_beam_solves_walks_from_any_goal_the_same_for_any_jobs() {
        let shelf = Shelf::default();
        for side in [6, 7] {
            for seed in 0..3u64 {
                // The goal's blank somewhere else each time.
                let mut goal: Vec<u32> = (1..(side * side) as u32).collect();
                goal.insert((seed as usize * 13) % (side * side), 0);
                let h = shelf.heuristic(side, &goal, true, None, 2, &mut |_| {});
                let start = walk(side, &goal, 200, seed);
                let mut counters = Counters::default();
                let one = solve(&start, &h, 512, 1, 1000, &mut counters).expect("solved");
                let two = solve(&start, &h, 512, 2, 1000, &mut counters).expect("solved");
                assert_eq!(one, two);
                replays(side, &start, &goal, &one);
                // Never below the estimate, which is a lower bound.
                let mut pos = vec![0u8; side * side];
                for (cell, &t) in start.iter().enumerate() {
                    pos[t as usize] = cell as u8;
                }
                assert!(one.len() as u32 >= h.estimate(&pos));
            }
        }
    }
}
