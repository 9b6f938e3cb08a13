//! The whole-board search's heuristic: additive pattern tables over groups
//! of goal cells, where only the group's tiles move and every other cell is
//! free (no blank is tracked).
//!
//! A group is a set of goal cells; its tiles are the goal's tiles on them
//! (the goal's blank, if it is on one, is left out). Its table gives, for
//! every placement of those tiles, the fewest moves of them alone that bring
//! them home when a tile may slide onto any neighbouring cell that no other
//! tile of the group holds. Every real solution moves each tile to its home
//! through such steps (and more), and the groups share no tile, so the sum
//! over the groups never exceeds the length of a shortest solution.
//!
//! A table depends only on the group's goal cells (and the side), not on
//! which tile sits on them, so one table serves every goal that leaves those
//! cells to tiles. It is indexed sparsely: the cells of the tiles in the
//! order of their goal cells, as the digits of a number in base `side²`
//! (36^4 = 1.7 M bytes a 4-tile 6x6 table, 49^4 = 5.8 M a 7x7 one), a byte
//! an entry, built by a breadth-first search from the goal placement.
//!
//! Tables are cached as `whole-v2-<side>-<cells>.pdb` beside the 4x4 and 5x5
//! ones (a header, a checksum, the bytes), written to a temporary name and
//! renamed into place.

use crate::solve::pattern::{checksum, write_atomically, TableCache, TableEvent};
use std::collections::HashMap;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The groups of goal cells of a `side`-wide board (6 or 7): 2x2 blocks,
/// and on 7x7 the last column and row in runs of 3 and 4. With `small`
/// (tests), runs of at most 3 cells along the rows: tables of 46 k (6x6)
/// or 118 k (7x7) entries that build at once.
pub(crate) fn groups(side: usize, small: bool) -> Vec<Vec<u8>> {
    let cell = |r: usize, c: usize| (r * side + c) as u8;
    if small {
        let mut groups = Vec::new();
        for r in 0..side {
            let mut c = 0;
            while c < side {
                let end = (c + 3).min(side);
                groups.push((c..end).map(|c| cell(r, c)).collect());
                c = end;
            }
        }
        return groups;
    }
    let blocks = side / 2 * 2;
    let mut groups = Vec::new();
    for r in (0..blocks).step_by(2) {
        for c in (0..blocks).step_by(2) {
            groups.push(vec![
                cell(r, c),
                cell(r, c + 1),
                cell(r + 1, c),
                cell(r + 1, c + 1),
            ]);
        }
    }
    if side % 2 == 1 {
        let last = side - 1;
        // The last column above the last row, in runs of 3.
        let mut r = 0;
        while r < last {
            let end = (r + 3).min(last);
            groups.push((r..end).map(|r| cell(r, last)).collect());
            r = end;
        }
        // The last row, a run of 4 then the rest.
        let split = 4.min(side);
        groups.push((0..split).map(|c| cell(last, c)).collect());
        if split < side {
            groups.push((split..side).map(|c| cell(last, c)).collect());
        }
    }
    groups
}

/// One group's table.
pub(crate) struct Pattern {
    /// The tiles, in the order of their goal cells.
    pub(crate) tiles: Vec<u8>,
    /// The moves of the tiles home, by placement (see the module docs).
    pub(crate) table: Arc<Vec<u8>>,
}

/// The tables of one goal: a pattern a group, and for each tile its
/// pattern and its weight in that pattern's index.
pub(crate) struct Heuristic {
    /// The board's side.
    pub(crate) side: usize,
    /// The patterns.
    pub(crate) patterns: Vec<Pattern>,
    /// For each tile (0, the blank, unused): its pattern and `side²` to the
    /// power of its place in it.
    pub(crate) of_tile: Vec<(u8, u32)>,
}

impl Heuristic {
    /// The index of pattern `p` for tiles on the cells `pos` (by tile).
    #[inline]
    pub(crate) fn index(&self, p: usize, pos: &[u8]) -> usize {
        let n = self.side * self.side;
        self.patterns[p]
            .tiles
            .iter()
            .rev()
            .fold(0, |index, &t| index * n + pos[t as usize] as usize)
    }

    /// The estimate for tiles on the cells `pos` (by tile): the sum over the
    /// patterns, a lower bound on the moves left.
    pub(crate) fn estimate(&self, pos: &[u8]) -> u32 {
        (0..self.patterns.len())
            .map(|p| u32::from(self.patterns[p].table[self.index(p, pos)]))
            .sum()
    }
}

/// A table's side and goal cells.
type Key = (usize, Vec<u8>);

/// The tables built or loaded so far, by side and goal cells, shared by the
/// puzzles a solver is handed.
#[derive(Default)]
pub(crate) struct Shelf {
    tables: Mutex<HashMap<Key, Arc<Vec<u8>>>>,
}

impl Shelf {
    /// The heuristic for `goal` (row-major cells, 0 the blank), over the
    /// groups of [`groups`]`(side, small)`: each table from this shelf, else
    /// the cache, else built (on `jobs` threads, a table each) and stored.
    pub(crate) fn heuristic(
        &self,
        side: usize,
        goal: &[u32],
        small: bool,
        cache: Option<&TableCache>,
        jobs: usize,
        events: &mut dyn FnMut(&TableEvent),
    ) -> Heuristic {
        let groups: Vec<Vec<u8>> = groups(side, small)
            .into_iter()
            .map(|g| g.into_iter().filter(|&c| goal[c as usize] != 0).collect())
            .filter(|g: &Vec<u8>| !g.is_empty())
            .collect();
        let mut shelf = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        // Those neither on the shelf nor in the cache are built.
        let mut missing = Vec::new();
        for cells in &groups {
            let key = (side, cells.clone());
            if shelf.contains_key(&key) {
                continue;
            }
            match cache.and_then(|c| load(c.dir(), side, cells, events)) {
                Some(table) => {
                    shelf.insert(key, Arc::new(table));
                }
                None => missing.push(cells.clone()),
            }
        }
        if !missing.is_empty() {
            let bytes: u64 = missing
                .iter()
                .map(|g| ((side * side) as u64).pow(g.len() as u32))
                .sum();
            events(&TableEvent::Plan {
                what: format!("{side}x{side} whole-board tables"),
                tables: missing.len(),
                bytes,
                estimate: Duration::from_secs_f64(bytes as f64 / 8e6 / jobs.max(1) as f64),
                dir: cache.map(|c| c.dir().to_path_buf()),
            });
            let built = build_all(side, &missing, jobs);
            for (cells, (table, elapsed)) in missing.into_iter().zip(built) {
                let name = describe(side, &cells);
                events(&TableEvent::Built {
                    table: name.clone(),
                    bytes: table.len() as u64,
                    elapsed,
                });
                if let Some(cache) = cache {
                    match store(cache.dir(), side, &cells, &table) {
                        Ok(path) => events(&TableEvent::Stored { table: name, path }),
                        Err(error) => events(&TableEvent::CacheUnwritable {
                            dir: cache.dir().to_path_buf(),
                            error: error.to_string(),
                        }),
                    }
                }
                shelf.insert((side, cells), Arc::new(table));
            }
        }
        let mut of_tile = vec![(0, 0); side * side];
        let n = (side * side) as u32;
        let patterns = groups
            .iter()
            .enumerate()
            .map(|(p, cells)| {
                let tiles: Vec<u8> = cells.iter().map(|&c| goal[c as usize] as u8).collect();
                for (i, &t) in tiles.iter().enumerate() {
                    of_tile[t as usize] = (p as u8, n.pow(i as u32));
                }
                Pattern {
                    tiles,
                    table: Arc::clone(&shelf[&(side, cells.clone())]),
                }
            })
            .collect();
        Heuristic {
            side,
            patterns,
            of_tile,
        }
    }
}

/// A table in words: "6x6 whole-board table (cells 0 1 6 7)".
fn describe(side: usize, cells: &[u8]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    format!(
        "{side}x{side} whole-board table (cells {})",
        cells.join(" ")
    )
}

/// Builds the tables of `groups`, `jobs` at a time; each with its time.
fn build_all(side: usize, groups: &[Vec<u8>], jobs: usize) -> Vec<(Vec<u8>, Duration)> {
    let jobs = jobs.clamp(1, groups.len().max(1));
    let mut out: Vec<Option<(Vec<u8>, Duration)>> = (0..groups.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let chunks: Vec<_> = out
            .chunks_mut(groups.len().div_ceil(jobs))
            .zip(groups.chunks(groups.len().div_ceil(jobs)))
            .map(|(slots, groups)| {
                scope.spawn(move || {
                    for (slot, cells) in slots.iter_mut().zip(groups) {
                        let began = Instant::now();
                        let table = build(side, cells);
                        *slot = Some((table, began.elapsed()));
                    }
                })
            })
            .collect();
        for handle in chunks {
            handle.join().expect("a table build panicked");
        }
    });
    out.into_iter().map(|t| t.expect("built")).collect()
}

/// The table of the tiles whose goal cells are `cells` (see the module
/// docs): 255 where two tiles would share a cell.
pub(crate) fn build(side: usize, cells: &[u8]) -> Vec<u8> {
    let n = side * side;
    let k = cells.len();
    let size = n.pow(k as u32);
    let weight: Vec<usize> = (0..k).map(|i| n.pow(i as u32)).collect();
    let mut dist = vec![u8::MAX; size];
    let home: usize = cells
        .iter()
        .zip(&weight)
        .map(|(&c, w)| c as usize * w)
        .sum();
    dist[home] = 0;
    let mut queue: Vec<u32> = Vec::with_capacity(size / 2);
    queue.push(home as u32);
    let mut head = 0;
    let mut pos = vec![0usize; k];
    while head < queue.len() {
        let index = queue[head] as usize;
        head += 1;
        let d = dist[index];
        let mut rest = index;
        for p in pos.iter_mut() {
            *p = rest % n;
            rest /= n;
        }
        for i in 0..k {
            let from = pos[i];
            let (r, c) = (from / side, from % side);
            let neighbours = [
                (r > 0).then(|| from - side),
                (r + 1 < side).then(|| from + side),
                (c > 0).then(|| from - 1),
                (c + 1 < side).then(|| from + 1),
            ];
            for to in neighbours.into_iter().flatten() {
                if pos.contains(&to) {
                    continue;
                }
                let next = index + to * weight[i] - from * weight[i];
                if dist[next] == u8::MAX {
                    dist[next] = d + 1;
                    queue.push(next as u32);
                }
            }
        }
    }
    dist
}

/// The cache file of a table.
fn file_name(side: usize, cells: &[u8]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    format!("whole-v2-{side}-{}.pdb", cells.join("."))
}

const MAGIC: &[u8; 8] = b"PZWHOLE2";

/// The header of a table file: magic, side, the cells (up to 8, padded with
/// 255), the length and the checksum of the bytes that follow.
fn header(side: usize, cells: &[u8], data: &[u8]) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&(side as u32).to_le_bytes());
    let mut padded = [u8::MAX; 8];
    padded[..cells.len()].copy_from_slice(cells);
    h.extend_from_slice(&padded);
    h.extend_from_slice(&(data.len() as u64).to_le_bytes());
    h.extend_from_slice(&checksum(data).to_le_bytes());
    h
}

/// The cached table of `cells`, if a whole and matching one is there (a
/// damaged one is reported and rebuilt).
fn load(
    dir: &Path,
    side: usize,
    cells: &[u8],
    events: &mut dyn FnMut(&TableEvent),
) -> Option<Vec<u8>> {
    let path = dir.join(file_name(side, cells));
    // Never open what is not a regular file (a FIFO would block).
    let meta = fs::metadata(&path).ok()?;
    if !meta.is_file() {
        events(&TableEvent::Corrupt {
            path,
            reason: "not a regular file".into(),
        });
        return None;
    }
    let table = describe(side, cells);
    events(&TableEvent::Loading {
        table: table.clone(),
        path: path.clone(),
    });
    let began = Instant::now();
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    let read = fs::File::open(&path).and_then(|mut f| f.read_to_end(&mut bytes));
    let size = (side * side).pow(cells.len() as u32);
    let head_len = header(side, cells, &[]).len();
    let whole = read.is_ok()
        && bytes.len() == head_len + size
        && bytes[..head_len] == header(side, cells, &bytes[head_len..])[..];
    if !whole {
        events(&TableEvent::Corrupt {
            path,
            reason: "wrong size, header or checksum".into(),
        });
        return None;
    }
    bytes.drain(..head_len);
    events(&TableEvent::Loaded {
        table,
        bytes: bytes.len() as u64,
        elapsed: began.elapsed(),
    });
    Some(bytes)
}

/// Writes the table of `cells` to the cache, atomically.
fn store(dir: &Path, side: usize, cells: &[u8], data: &[u8]) -> io::Result<PathBuf> {
    let name = file_name(side, cells);
    write_atomically(dir, &name, &[&header(side, cells, data), data])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_groups_cover_every_cell_once_in_small_tables() {
        for side in [6, 7] {
            for small in [false, true] {
                let mut cells: Vec<u8> = groups(side, small).concat();
                cells.sort_unstable();
                assert_eq!(cells, (0..(side * side) as u8).collect::<Vec<_>>());
                let largest = groups(side, small).iter().map(Vec::len).max().unwrap();
                assert!(largest <= if small { 3 } else { 4 }, "{side} {small}");
            }
        }
    }

    #[test]
    fn a_table_counts_the_moves_of_its_tiles_around_each_other() {
        // Two tiles of a 6x6 row, swapped: one steps aside, the other
        // passes, the first comes back: 4 moves, not the 2 of Manhattan.
        let side = 6;
        let table = build(side, &[0, 1]);
        // The first tile's cell, plus 36 times the second's.
        let at = |a: usize, b: usize| table[a + b * side * side];
        assert_eq!(at(0, 1), 0);
        assert_eq!(at(1, 0), 4);
        // One tile a cell away: one move.
        assert_eq!(at(6, 1), 1);
        // Both on one cell: never reached.
        assert_eq!(at(3, 3), u8::MAX);
    }

    /// The cell of each tile of `cells`.
    fn positions(cells: &[u32]) -> Vec<u8> {
        let mut pos = vec![0u8; cells.len()];
        for (cell, &t) in cells.iter().enumerate() {
            pos[t as usize] = cell as u8;
        }
        pos
    }

    #[test]
    fn the_estimate_lies_between_the_manhattan_distance_and_the_optimum() {
        use crate::board_adt::moves::{apply_move, Move};
        use crate::generate::SplitMix64;
        use crate::solve::manhattan::solve_shortest;
        // Short walks from goals with the blank in a corner and inside,
        // solved shortest by IDA* (Manhattan distance and linear
        // conflicts): the tables' sum is never above the optimum, and never
        // below the tiles' Manhattan distance (each tile of a group walks
        // at least that far on its own).
        let side = 6;
        let shelf = Shelf::default();
        let mut rng = SplitMix64::new(25);
        let mut above_manhattan = 0;
        for (k, blank) in [35usize, 0, 14].into_iter().enumerate() {
            let mut goal: Vec<u32> = (1..36).collect();
            goal.insert(blank, 0);
            for small in [true, false] {
                if !small && k > 0 {
                    continue; // the 4-tile tables once: they take a second
                }
                let h = shelf.heuristic(side, &goal, small, None, 2, &mut |_| {});
                for _ in 0..4 {
                    let mut cells = goal.clone();
                    let mut b = blank;
                    let mut last = None;
                    let mut made = 0;
                    while made < 26 {
                        let mv = Move::ALL[rng.below(4) as usize];
                        if Some(mv.inverse()) != last && apply_move(&mut cells, side, &mut b, mv) {
                            last = Some(mv);
                            made += 1;
                        }
                    }
                    let optimum = solve_shortest(side, &cells, &goal, &mut |_| {}).len() as u32;
                    let estimate = h.estimate(&positions(&cells));
                    let manhattan: u32 = (1..36)
                        .map(|t| {
                            let (a, g) = (positions(&cells)[t], positions(&goal)[t]);
                            let (a, g) = (a as usize, g as usize);
                            ((a / side).abs_diff(g / side) + (a % side).abs_diff(g % side)) as u32
                        })
                        .sum();
                    assert!(estimate <= optimum, "{estimate} > {optimum}");
                    assert!(estimate >= manhattan, "{estimate} < {manhattan}");
                    above_manhattan += usize::from(estimate > manhattan);
                }
            }
        }
        // And it sees more than Manhattan somewhere.
        assert!(above_manhattan > 0);
    }

    #[test]
    fn a_cached_table_is_read_back_and_a_damaged_one_rebuilt() {
        let dir = std::env::temp_dir().join(format!("whole-tables-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let cache = TableCache::new(dir.clone());
        let goal: Vec<u32> = (1..36).chain([0]).collect();
        let mut built = Vec::new();
        let first = Shelf::default().heuristic(6, &goal, true, Some(&cache), 2, &mut |e| {
            built.push(matches!(e, TableEvent::Built { .. }))
        });
        assert!(built.contains(&true));
        let mut loaded = Vec::new();
        let again = Shelf::default().heuristic(6, &goal, true, Some(&cache), 2, &mut |e| {
            loaded.push(matches!(e, TableEvent::Built { .. }))
        });
        assert!(!loaded.contains(&true), "all read from the cache");
        for (a, b) in first.patterns.iter().zip(&again.patterns) {
            assert_eq!(a.table, b.table);
        }
        // A flipped byte: reported, rebuilt.
        let path = dir.join(file_name(6, &[0, 1, 2]));
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, bytes).unwrap();
        let mut corrupt = false;
        Shelf::default().heuristic(6, &goal, true, Some(&cache), 1, &mut |e| {
            corrupt |= matches!(e, TableEvent::Corrupt { .. })
        });
        assert!(corrupt);
        let _ = fs::remove_dir_all(&dir);
    }
}
