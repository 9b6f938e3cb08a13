//! Near-shortest solutions in a fraction of a second: a beam search over the
//! same tables and nodes as the shortest-path search.
//!
//! The search goes level by level from the start: every node of a level has
//! made as many moves. Each level's children are generated (the move-pruning
//! machine drops the moves that undo or repeat the last ones), their table
//! entries read all together so that the cache misses overlap, and the
//! `width` children with the smallest estimate are kept as the next level
//! (ties: the smaller sum of the two lookups' estimates, then the order of
//! generation). A child already met (this level or a few before) is
//! dropped. The first level that holds the goal gives the solution, as long as
//! its depth.
//!
//! Every node at a level has made the same moves, so ranking by the estimate
//! ranks by the estimated total length: this is weighted A* with an infinite
//! weight, kept from collapsing onto one path by the width. Wider is better
//! and slower, linearly: on Korf and Felner's 50 24-puzzles a width of
//! 10,000 gave solutions 3.7% above the optimum on average (none over
//! 9.9%), 20,000 gave 2.8% (none over 8.4%), 1,000 gave 10.4%, and the
//! best-first weighted A* it was tried against needed more table reads for
//! less (weight 1.5 and a million expansions: 5.9%).
//!
//! **Deterministic.** A level's nodes are cut into contiguous parts, one a
//! thread, and the children keep the order of their parents; the choice of
//! the kept children and of the goal depends only on that order. The
//! solution is the same moves for any number of threads, on any machine.
//!
//! **Duplicates** are found through a small direct-mapped table of 64-bit
//! fingerprints (2^16 slots, 512 KiB, so that it stays in cache): a board
//! whose fingerprint is in its slot was met before. Older boards are
//! overwritten, which only lets a duplicate through; two boards sharing a
//! fingerprint would drop one of them, harmless to the answer's validity.
//! On the 50, a table of 2^20 slots gave the same lengths as 2^16.

use super::fsm::Fsm;
use super::geometry::{Geometry, PackedBoard};
use super::heuristic::{children, make_child, Heuristic, MAX_TABLES};
use super::node::{Candidate, Node};
use crate::board_adt::move_list::MoveList;
use crate::solve::pattern::tables::CellSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How a beam search is run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BeamLimits<'a> {
    /// Nodes kept at each level.
    pub(crate) width: usize,
    /// Threads.
    pub(crate) jobs: usize,
    /// Children whose estimated length (moves so far plus estimate) reaches
    /// this are dropped: a known solution's length (`u32::MAX`: none).
    pub(crate) cutoff: u32,
    /// Set from outside to stop the search (looked at every level).
    pub(crate) stop: &'a AtomicBool,
    /// When to give up (looked at every level).
    pub(crate) deadline: Option<Instant>,
}

/// How a beam search ended.
#[derive(Debug)]
pub(crate) struct BeamOutcome {
    /// The moves on the canonical board, if a goal was met (and the search
    /// was not stopped before).
    pub(crate) moves: Option<MoveList>,
    /// Children generated (each with one table read a group).
    pub(crate) evals: u64,
    /// Whether the stop flag or the deadline ended it.
    pub(crate) stopped: bool,
}

/// A beam search from `cells` (tiles named by home cell, the blank
/// [`Geometry::BLANK`]) to the canonical goal of `heur` (see the module docs).
pub(crate) fn beam<G: Geometry>(
    heur: &Heuristic<'_, G>,
    cells: &[u8],
    limits: &BeamLimits<'_>,
) -> BeamOutcome {
    // The first two groups only (the first partitioning, on the board and
    // its mirror image): more would cost the beam more reads than they help
    // its order, and its speed is the default `--solve`'s. With all six of
    // the large set, the 25 odd Korf and Felner ids gave 1.0239 of the
    // optimum against 1.0230, for 2.4 to 2.9 times the time.
    match heur.tables_per_group() {
        0..=2 => beam_with::<G, 2, 2>(heur, cells, limits),
        3 | 4 => beam_with::<G, 4, 2>(heur, cells, limits),
        _ => beam_with::<G, MAX_TABLES, 2>(heur, cells, limits),
    }
}

/// A child of a level's node, its table entries read, awaiting the cut.
#[derive(Clone, Copy)]
struct Kid<M: CellSet, const N: usize> {
    c: Candidate<M, N>,
    /// Its parent's index in the level.
    parent: u32,
    /// Its estimate, then the sum of the groups' estimates: `h << 10 | sum`.
    rank: u32,
    /// Its board's fingerprint ([`fingerprint`]).
    fp: u64,
}

/// Levels below this many nodes are expanded on one thread: starting a
/// thread costs more than they take.
const PARALLEL_FROM: usize = 1024;

/// Bits of the duplicate table's index (see the module docs).
const SEEN_BITS: u32 = 16;

fn beam_with<G: Geometry, const T: usize, const N: usize>(
    heur: &Heuristic<'_, G>,
    cells: &[u8],
    limits: &BeamLimits<'_>,
) -> BeamOutcome {
    let groups = heur.groups.len().min(N);
    let root: Node<G, T, N> = heur.root(cells);
    let mut out = BeamOutcome {
        moves: None,
        evals: 0,
        stopped: false,
    };
    if root.md == 0 {
        out.moves = Some(MoveList::new());
        return out;
    }
    let (width, jobs) = (limits.width.max(1), limits.jobs.max(1));
    let mut level = vec![root];
    let mut next: Vec<Node<G, T, N>> = Vec::new();
    let mut parts: Vec<Vec<Kid<G::Mask, N>>> = (0..jobs).map(|_| Vec::new()).collect();
    let mut keys: Vec<u64> = Vec::new();
    let mut chosen: Vec<(u32, u32)> = Vec::new();
    let mut seen = Seen::new();
    seen.insert(fingerprint(root.board));
    while !level.is_empty() && (level[0].g as usize) + 2 < G::max_depth() {
        if limits.stop.load(Ordering::Relaxed)
            || limits.deadline.is_some_and(|d| Instant::now() >= d)
        {
            out.stopped = true;
            return out;
        }
        let depth = level[0].g as u32 + 1;
        let chunk = level.len().div_ceil(jobs).max(PARALLEL_FROM);
        let used = level.len().div_ceil(chunk);
        {
            let level = &level;
            on_threads(jobs, &mut parts[..used], |j, kids| {
                let lo = j * chunk;
                let hi = (lo + chunk).min(level.len());
                expand(heur, &level[lo..hi], lo, kids)
            });
        }
        for kids in parts.iter_mut().skip(used) {
            kids.clear();
        }
        // A goal: the first child in order that is one (all are as deep).
        out.evals += parts.iter().map(|kids| kids.len() as u64).sum::<u64>();
        for kids in &parts {
            if let Some(k) = kids.iter().find(|k| k.c.md == 0) {
                let mut goal = level[k.parent as usize];
                make_child(heur, &mut goal, &k.c, groups);
                out.moves = Some(goal.moves());
                return out;
            }
        }
        // The cut: the `width` smallest keys (rank, then order), found as the
        // key of the `width`-th; keys are distinct, so it does not matter how.
        let within = |k: &Kid<G::Mask, N>| depth + (k.rank >> 10) < limits.cutoff;
        keys.clear();
        let mut index = 0u64;
        for kids in &parts {
            for k in kids {
                if within(k) {
                    keys.push(u64::from(k.rank) << 32 | index);
                }
                index += 1;
            }
        }
        let last = if keys.len() > width {
            *keys.select_nth_unstable(width - 1).1
        } else {
            u64::MAX
        };
        chosen.clear();
        let mut index = 0u64;
        for (j, kids) in parts.iter().enumerate() {
            for (i, k) in kids.iter().enumerate() {
                let key = u64::from(k.rank) << 32 | index;
                index += 1;
                if within(k) && key <= last && seen.insert(k.fp) {
                    chosen.push((j as u32, i as u32));
                }
            }
        }
        // The next level, made in order on the threads.
        next.clear();
        next.resize(chosen.len(), root);
        let per = chosen.len().div_ceil(jobs).max(PARALLEL_FROM);
        {
            let (level, parts, chosen) = (&level, &parts, &chosen);
            let mut slices: Vec<&mut [Node<G, T, N>]> = next.chunks_mut(per).collect();
            on_threads(jobs, &mut slices, |j, slice| {
                for (node, &(part, i)) in slice.iter_mut().zip(&chosen[j * per..]) {
                    let k = &parts[part as usize][i as usize];
                    *node = level[k.parent as usize];
                    make_child(heur, node, &k.c, groups);
                }
            });
        }
        std::mem::swap(&mut level, &mut next);
    }
    out
}

/// The children of `nodes` (the `first`-th node of the level on) that the
/// move-pruning machine allows, with their table entries read and ranked, in
/// `kids` (in order: parents, then directions).
fn expand<G: Geometry, const T: usize, const N: usize>(
    heur: &Heuristic<'_, G>,
    nodes: &[Node<G, T, N>],
    first: usize,
    kids: &mut Vec<Kid<G::Mask, N>>,
) {
    let fsm = Fsm::get();
    let groups = heur.groups.len().min(N);
    kids.clear();
    for (i, node) in nodes.iter().enumerate() {
        let blank = node.blank as usize;
        children(heur, fsm, node, |mut c| {
            let (t, from) = (c.tile as usize, c.from as usize);
            for g in 0..groups {
                c.slide[g] = heur.slide(node, g, t, from, blank);
            }
            kids.push(Kid {
                c,
                parent: (first + i) as u32,
                rank: 0,
                fp: fingerprint(heur.moved(false, node.board, t, from, blank)),
            });
            true
        });
    }
    // The reads back to back, nothing depending on them in between, so that
    // their cache misses overlap.
    for g in 0..groups {
        for k in kids.iter_mut() {
            let s = k.c.slide[g];
            let table = heur.table[g][s.table as usize];
            k.c.nib[g] = table.half_excess(s.index);
        }
    }
    for k in kids.iter_mut() {
        let (mut h, mut sum) = (0, 0);
        for g in 0..groups {
            let x = k.c.h(g);
            h = h.max(x);
            sum += x;
        }
        k.rank = h << 10 | sum.min(1023);
    }
}

/// Runs `work` on each of `parts` (with its index): the first on this
/// thread, the others on threads of their own when `jobs` allows. A thread
/// the system refuses to start is done without: its part is done here.
fn on_threads<P: Send>(jobs: usize, parts: &mut [P], work: impl Fn(usize, &mut P) + Sync) {
    if jobs <= 1 || parts.len() <= 1 {
        for (i, part) in parts.iter_mut().enumerate() {
            work(i, part);
        }
        return;
    }
    std::thread::scope(|scope| {
        let work = &work;
        let (mine, theirs) = parts.split_first_mut().expect("two parts or more");
        let mut refused = Vec::new();
        for (i, part) in theirs.iter_mut().enumerate() {
            let (tx, rx) = std::sync::mpsc::channel();
            let started = std::thread::Builder::new().spawn_scoped(scope, move || {
                let part: &mut P = rx.recv().expect("the part is sent");
                work(i + 1, part)
            });
            match started {
                Ok(_) => tx.send(part).expect("the thread waits for its part"),
                Err(_) => refused.push((i + 1, part)),
            }
        }
        work(0, mine);
        for (i, part) in refused {
            work(i, part);
        }
    });
}

/// A 64-bit fingerprint of a board, never 0 (SplitMix64's finaliser over its
/// two halves: fixed, so the same on every machine and toolchain).
fn fingerprint<B: PackedBoard>(board: B) -> u64 {
    let bits = board.bits();
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(mix(bits as u64) ^ (bits >> 64) as u64) | 1
}

/// Boards met so far, lossy: a direct-mapped table of fingerprints (see the
/// module docs).
struct Seen {
    slots: Vec<u64>,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            slots: vec![0; 1 << SEEN_BITS],
        }
    }

    /// Records `fp`; `false` if it was there already.
    fn insert(&mut self, fp: u64) -> bool {
        let slot = &mut self.slots[(fp >> (64 - SEEN_BITS)) as usize];
        if *slot == fp {
            return false;
        }
        *slot = fp;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::{replay, Move};
    use crate::generate::{random_walk, SplitMix64};
    use crate::solve::outcome::{Counters, Limits, Outcome};
    use crate::solve::pattern::canonical;
    use crate::solve::pattern::goal_tables::testing::small;
    use crate::solve::pattern::ida::{search, Five, Four};
    use crate::solve::pattern::{Partition, FIFTEEN, TWENTY_FOUR};

    /// A goal with its blank on `blank` and a start `length` random moves
    /// from it.
    fn scrambled(
        rng: &mut SplitMix64,
        side: usize,
        blank: usize,
        length: usize,
    ) -> (Vec<u8>, Vec<u8>) {
        let mut goal: Vec<u8> = rng
            .permutation(side * side)
            .into_iter()
            .map(|t| t as u8)
            .collect();
        let b = goal.iter().position(|&t| t == 0).unwrap();
        goal.swap(b, blank);
        (random_walk(rng, side, &goal, length), goal)
    }

    fn limits(width: usize, jobs: usize, stop: &AtomicBool) -> BeamLimits<'_> {
        BeamLimits {
            width,
            jobs,
            cutoff: u32::MAX,
            stop,
            deadline: None,
        }
    }

    /// The beam's moves from `start` to `goal` on the tables of the goal's
    /// class, replayed, and the shortest length by the exact search.
    fn beam_and_shortest<G: Geometry>(
        partition: &'static Partition,
        start: &[u8],
        goal: &[u8],
        limits: &BeamLimits<'_>,
    ) -> (Option<Vec<Move>>, usize) {
        let blank = goal.iter().position(|&t| t == 0).unwrap();
        let tables = small(partition, blank);
        let canon = canonical::normalise(G::SIDE, start, goal, tables.rep, G::BLANK);
        let heur = tables.heuristic::<G>();
        let found = beam(&heur, &canon.cells, limits).moves.map(|mut moves| {
            moves.map_each(canon.symmetry.moves_back());
            let moves = moves.to_vec();
            let mut cells = start.to_vec();
            let mut at = cells.iter().position(|&t| t == 0).unwrap();
            assert_eq!(replay(&mut cells, G::SIDE, &mut at, &moves), Ok(()));
            assert_eq!(cells, goal, "the moves end on the goal");
            moves
        });
        let shortest = match search(
            &heur,
            &canon.cells,
            &Limits::UNLIMITED,
            &mut Counters::default(),
            &mut |_| {},
        ) {
            Outcome::Solved(moves) => moves.len(),
            _ => unreachable!("no limits"),
        };
        (found, shortest)
    }

    #[test]
    fn solutions_replay_and_are_never_shorter_than_the_shortest() {
        let mut rng = SplitMix64::new(16);
        let never = AtomicBool::new(false);
        let (mut total, mut shortest_total) = (0, 0);
        for blank in 0..16 {
            for width in [20, 200, 1000] {
                let length = 20 + rng.index(20);
                let (start, goal) = scrambled(&mut rng, 4, blank, length);
                let (found, shortest) =
                    beam_and_shortest::<Four>(&FIFTEEN, &start, &goal, &limits(width, 1, &never));
                let length = found.expect("a beam of 4x4 boards meets the goal").len();
                assert!(length >= shortest, "width {width}: {length} < {shortest}");
                assert_eq!((length - shortest) % 2, 0, "lengths share their parity");
                if width == 1000 {
                    total += length;
                    shortest_total += shortest;
                }
            }
        }
        // Wide enough, it comes close: within 10% over these sixteen.
        assert!(
            total * 10 <= shortest_total * 11,
            "{total} against {shortest_total}"
        );
    }

    #[test]
    fn short_distances_are_found_exactly() {
        // Within a few moves every path fits in the beam.
        let mut rng = SplitMix64::new(5);
        let never = AtomicBool::new(false);
        for blank in [0, 1, 2, 6, 7, 12, 24] {
            let (start, goal) = scrambled(&mut rng, 5, blank, 8);
            let (found, shortest) =
                beam_and_shortest::<Five>(&TWENTY_FOUR, &start, &goal, &limits(10_000, 2, &never));
            assert_eq!(found.unwrap().len(), shortest, "goal blank {blank}");
        }
    }

    #[test]
    fn the_same_moves_for_any_number_of_threads() {
        let mut rng = SplitMix64::new(24);
        let never = AtomicBool::new(false);
        for blank in [0, 7, 12] {
            // Wide enough that levels are cut between threads.
            let (start, goal) = scrambled(&mut rng, 5, blank, 60);
            let one = beam_and_shortest_free::<Five>(
                &start,
                &goal,
                &limits(3 * PARALLEL_FROM, 1, &never),
            );
            for jobs in [2, 3, 5] {
                let many = beam_and_shortest_free::<Five>(
                    &start,
                    &goal,
                    &limits(3 * PARALLEL_FROM, jobs, &never),
                );
                assert_eq!(many, one, "goal blank {blank}, {jobs} threads");
            }
        }
    }

    /// The beam's answer, without the exact search (too slow on long 5x5
    /// scrambles with the small tables).
    fn beam_and_shortest_free<G: Geometry>(
        start: &[u8],
        goal: &[u8],
        limits: &BeamLimits<'_>,
    ) -> (Option<MoveList>, u64) {
        let blank = goal.iter().position(|&t| t == 0).unwrap();
        let tables = small(&TWENTY_FOUR, blank);
        let canon = canonical::normalise(G::SIDE, start, goal, tables.rep, G::BLANK);
        let out = beam(&tables.heuristic::<G>(), &canon.cells, limits);
        (out.moves, out.evals)
    }

    #[test]
    fn a_cutoff_keeps_only_shorter_solutions_and_a_stop_ends_the_search() {
        let mut rng = SplitMix64::new(3);
        let never = AtomicBool::new(false);
        for blank in [0, 5, 6] {
            let (start, goal) = scrambled(&mut rng, 4, blank, 30);
            let (_, shortest) =
                beam_and_shortest::<Four>(&FIFTEEN, &start, &goal, &limits(1, 1, &never));
            // Nothing is shorter than the shortest.
            let none = BeamLimits {
                cutoff: shortest as u32,
                ..limits(1000, 1, &never)
            };
            assert_eq!(
                beam_and_shortest::<Four>(&FIFTEEN, &start, &goal, &none).0,
                None
            );
            let below = BeamLimits {
                cutoff: shortest as u32 + 2,
                ..limits(1000, 1, &never)
            };
            if let Some(moves) = beam_and_shortest::<Four>(&FIFTEEN, &start, &goal, &below).0 {
                assert_eq!(moves.len(), shortest);
            }
        }
        let stop = AtomicBool::new(true);
        let (start, goal) = scrambled(&mut rng, 5, 0, 40);
        let tables = small(&TWENTY_FOUR, 0);
        let canon = canonical::normalise(5, &start, &goal, 0, Five::BLANK);
        let out = beam(
            &tables.heuristic::<Five>(),
            &canon.cells,
            &limits(100, 2, &stop),
        );
        assert!(out.stopped && out.moves.is_none() && out.evals == 0);
    }

    #[test]
    fn fingerprints_tell_boards_apart_and_the_table_remembers_them() {
        let mut seen = Seen::new();
        let boards: Vec<u128> = (0..1000u128)
            .map(|i| i << 70 | i.wrapping_mul(0x9e37))
            .collect();
        let prints: Vec<u64> = boards.iter().map(|&b| fingerprint(b)).collect();
        let mut distinct = prints.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), prints.len());
        assert!(prints.iter().all(|&p| p != 0));
        assert!(
            prints.iter().all(|&p| seen.insert(p)),
            "a few slots shared at most"
        );
        assert!(!seen.insert(prints[999]), "the last one is remembered");
    }
}
