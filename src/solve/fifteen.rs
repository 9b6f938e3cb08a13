//! Optimal solving of the 4x4 puzzle (the 15-puzzle) towards any goal: goal
//! normalisation by relabelling and symmetry, the pattern databases each goal
//! needs and their lifecycle (built on first use, cached on disk, loaded), and the
//! public entry points.
//!
//! # Design
//!
//! **Any goal.** Tiles are renamed by their cell in the goal, so every goal
//! becomes "tile `c` on cell `c`" with the blank on the goal's blank cell `g`. One
//! of the 8 symmetries of the square then moves `g` onto the representative of its
//! class: a corner (cell 0), an edge cell (cell 1) or a centre cell (cell 5). The
//! search runs on the transformed board and its moves are mapped back.
//!
//! **Tables.** Every class uses the 7-8 partition of Korf & Felner (2002): the 8
//! tiles whose home is in rows 2-3, and the 7 tiles of rows 0-1 other than the
//! blank's cell. The tables model the blank: a pattern tile's move costs 1, the
//! blank moves freely through other cells, an entry is the minimum over blank
//! positions (see [`crate::solve::pdb`]). A table depends only on its tiles and
//! on which connected part of the free cells holds the goal's blank, so:
//!
//! - the 8-tile table of rows 2-3 (its free cells, rows 0-1, are connected) is the
//!   same for every goal and is shared by all three classes (259 MB);
//! - each class adds a 7-tile table (29 MB): rows 0-1 without cell 0, 1 or 5.
//!
//! **Second lookup.** The maximum with a lookup on the board reflected about the
//! main diagonal raises the mean start estimate on Korf's 100 instances from
//! 44.79 to 45.59 (Manhattan: 37.05; optimum: 53.05). For a corner or centre goal
//! the reflection fixes the goal, so the same two tables serve again. An edge cell
//! lies on no symmetry axis: the reflected board of an edge goal has its goal
//! blank on cell 4, not 1. It is looked up in the shared 8-tile table plus one
//! more 7-tile table, rows 0-1 without cell 4 (seen through the reflection, that
//! is columns 0-1 without cell 1). Edge goals thus get the same two-lookup
//! strength for 29 MB more instead of a second 288 MB partition.
//!
//! | goal class | tables                                          | memory |
//! |------------|-------------------------------------------------|--------|
//! | corner     | 8-tile rows 2-3, 7-tile rows 0-1 \ {0}          | 288 MB |
//! | edge       | 8-tile, 7-tile rows 0-1 \ {1}, 7-tile \ {4}      | 317 MB |
//! | centre     | 8-tile, 7-tile rows 0-1 \ {5}                   | 288 MB |
//!
//! All five files take 375 MB. The search itself is described in
//! [`crate::solve::ida`]: IDA* in batches (so that table reads overlap), duplicate
//! pruning by a finite-state machine, sibling ordering and bidirectional pathmax.
//!
//! **Lifecycle.** [`FifteenTables::load_or_build`] reads each table from the
//! cache directory ([`TableCache`]) or builds it (about 8 s for the 8-tile table
//! and 1 s for a 7-tile one on two cores, 0.7 GB peak) and stores it. Files are
//! written to a temporary name and renamed into place, and checked on load
//! (magic, version, pattern, size, checksum; format in [`crate::solve::cache`]);
//! a missing or damaged file is rebuilt. Two processes that start at once both
//! build and both rename; the last rename wins and both files are valid, so no
//! lock file is used. If the cache cannot be written the tables stay in memory.
//! Progress is reported through [`TableEvent`]s; the library never prints.
//!
//! **Measured** (release build, Korf's 100 instances, one core, tables loaded):
//! all lengths optimal, 1.17 M nodes expanded, 0.19-0.27 s of search in total
//! depending on the run (the machine is a shared VM); loading the corner tables
//! takes about 0.2 s.

use super::cache::{self, ReadError};
use super::ida::{self, Counters, Group, Heuristic, BLANK};
use super::moves::Move;
use super::pdb::{manhattan, PatternSpec, Pdb, CELLS, SIDE};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// Where pattern-database files are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCache {
    dir: PathBuf,
}

impl TableCache {
    /// A cache in `dir` (created when the first table is stored).
    pub fn new(dir: PathBuf) -> TableCache {
        TableCache { dir }
    }

    /// `$PUZZLE_CACHE_DIR` if set, else `$XDG_CACHE_HOME/puzzle`, else
    /// `$HOME/.cache/puzzle`; `None` if none is set (empty values count as unset).
    pub fn from_env() -> Option<TableCache> {
        TableCache::from_vars(|name| std::env::var_os(name))
    }

    /// [`TableCache::from_env`] with the environment given as a lookup.
    fn from_vars(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<TableCache> {
        let var = |name: &str| var(name).filter(|v| !v.is_empty());
        if let Some(dir) = var("PUZZLE_CACHE_DIR") {
            return Some(TableCache::new(PathBuf::from(dir)));
        }
        if let Some(xdg) = var("XDG_CACHE_HOME") {
            return Some(TableCache::new(PathBuf::from(xdg).join("puzzle")));
        }
        var("HOME").map(|home| TableCache::new(PathBuf::from(home).join(".cache").join("puzzle")))
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Progress and lifecycle events of the tables; the library never prints.
///
/// `table` names a table (its tiles and goal region), `path` a cache file,
/// `bytes` a table's size and `elapsed` the time a step took.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)] // the fields are named above, once for all variants
pub enum TableEvent {
    /// A cached table file is being read.
    Loading { table: String, path: PathBuf },
    /// A table was read and checked.
    Loaded {
        table: String,
        bytes: u64,
        elapsed: Duration,
    },
    /// A table is being built: `done` of `total` entries are set.
    Building {
        table: String,
        done: u64,
        total: u64,
    },
    /// A table was built.
    Built {
        table: String,
        bytes: u64,
        elapsed: Duration,
    },
    /// A built table was written to the cache.
    Stored { table: String, path: PathBuf },
    /// A cached file was unusable (`reason`) and will be rebuilt.
    Corrupt { path: PathBuf, reason: String },
    /// The cache directory `dir` could not be written (`error`); the table stays
    /// in memory only.
    CacheUnwritable { dir: PathBuf, error: String },
}

fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

impl fmt::Display for TableEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableEvent::Loading { table, path } => {
                write!(f, "loading table {table} from {}", path.display())
            }
            TableEvent::Loaded {
                table,
                bytes,
                elapsed,
            } => write!(
                f,
                "loaded table {table} ({:.0} MB) in {:.2} s",
                megabytes(*bytes),
                elapsed.as_secs_f64()
            ),
            TableEvent::Building { table, done, total } => write!(
                f,
                "building table {table}: {}% ({done} of {total} entries)",
                done * 100 / (*total).max(1)
            ),
            TableEvent::Built {
                table,
                bytes,
                elapsed,
            } => write!(
                f,
                "built table {table} ({:.0} MB) in {:.1} s",
                megabytes(*bytes),
                elapsed.as_secs_f64()
            ),
            TableEvent::Stored { table, path } => {
                write!(f, "stored table {table} in {}", path.display())
            }
            TableEvent::Corrupt { path, reason } => write!(
                f,
                "table file {} is unusable ({reason}); rebuilding it",
                path.display()
            ),
            TableEvent::CacheUnwritable { dir, error } => write!(
                f,
                "cannot write the table cache in {} ({error}); keeping the table in memory only",
                dir.display()
            ),
        }
    }
}

/// Which partition the tables use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSet {
    /// The production 7-8 partition described in the module docs.
    Standard,
    /// A 6-6-3 partition (cells other than the blank's in row-major order: 6, 6, 3)
    /// with the same two lookups; builds in about a second, searches much slower.
    /// For tests.
    Small,
}

impl TableSet {
    /// The pattern cell sets of one group for goals with the blank on `g`.
    fn masks(self, g: usize) -> Vec<u16> {
        match self {
            TableSet::Standard => vec![0x00ff & !(1u16 << g), 0xff00],
            TableSet::Small => {
                let cells: Vec<usize> = (0..CELLS).filter(|&c| c != g).collect();
                let mask = |r: &[usize]| r.iter().fold(0u16, |m, &c| m | 1 << c);
                vec![mask(&cells[..6]), mask(&cells[6..12]), mask(&cells[12..])]
            }
        }
    }

    /// The groups for goal class `rep`: (frame, specs).
    fn groups(self, rep: usize) -> Vec<([u8; CELLS], Vec<PatternSpec>)> {
        let mut out = Vec::new();
        for frame in [IDENTITY, TRANSPOSE] {
            let g = frame[rep] as usize;
            let specs = self
                .masks(g)
                .into_iter()
                .map(|m| PatternSpec::new(m, g))
                .collect();
            out.push((frame, specs));
        }
        out
    }
}

/// A symmetry of the square as a map of cells.
type Sym = [u8; CELLS];

const IDENTITY: Sym = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
const TRANSPOSE: Sym = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];

/// A symmetry of the square as a map of (row, column).
type RowCol = fn(usize, usize) -> (usize, usize);

/// The 8 symmetries of the square, identity first.
fn symmetries() -> [Sym; 8] {
    let maps: [RowCol; 8] = [
        |r, c| (r, c),
        |r, c| (c, SIDE - 1 - r),
        |r, c| (SIDE - 1 - r, SIDE - 1 - c),
        |r, c| (SIDE - 1 - c, r),
        |r, c| (r, SIDE - 1 - c),
        |r, c| (SIDE - 1 - r, c),
        |r, c| (c, r),
        |r, c| (SIDE - 1 - c, SIDE - 1 - r),
    ];
    maps.map(|m| {
        let mut s = [0u8; CELLS];
        for (cell, out) in s.iter_mut().enumerate() {
            let (r, c) = m(cell / SIDE, cell % SIDE);
            *out = (r * SIDE + c) as u8;
        }
        s
    })
}

/// Whether `cells` holds each of 0..=15 once.
fn is_board(cells: &[u8; 16]) -> bool {
    let mut seen = 0u32;
    for &c in cells {
        seen |= 1 << (c & 31);
    }
    seen == 0xffff
}

/// Whether `goal` is reachable from `start`: every move is a transposition that
/// also moves the blank one step, so the parity of the permutation between the
/// boards must equal that of the blank's Manhattan distance.
pub fn reachable(start: &[u8; 16], goal: &[u8; 16]) -> bool {
    let mut goal_cell = [0usize; CELLS];
    for (c, &label) in goal.iter().enumerate() {
        goal_cell[label as usize] = c;
    }
    let perm: [usize; CELLS] = std::array::from_fn(|c| goal_cell[start[c] as usize]);
    let mut seen = [false; CELLS];
    let mut cycles = 0;
    for c in 0..CELLS {
        if !seen[c] {
            cycles += 1;
            let mut x = c;
            while !seen[x] {
                seen[x] = true;
                x = perm[x];
            }
        }
    }
    let blank = |b: &[u8; 16]| b.iter().position(|&t| t == 0).unwrap_or(0);
    (CELLS - cycles) % 2 == manhattan(blank(start), blank(goal)) as usize % 2
}

/// The representative of `cell`'s class: 0 (corner), 1 (edge) or 5 (centre).
pub fn goal_class(cell: usize) -> usize {
    let (r, c) = (cell / SIDE, cell % SIDE);
    let inner = |x: usize| x == 1 || x == 2;
    match (inner(r), inner(c)) {
        (false, false) => 0,
        (true, true) => 5,
        _ => 1,
    }
}

/// The tables for every goal whose blank sits in one class of cells (corner,
/// edge or centre). Immutable once loaded: `Send + Sync`, shared by reference.
pub struct FifteenTables {
    rep: usize,
    set: TableSet,
    pdbs: Vec<Arc<Pdb>>,
    /// Per group: its frame and indices into `pdbs`.
    groups: Vec<(Sym, Vec<usize>)>,
}

impl FifteenTables {
    /// Loads the tables for goals with the blank on `goal_blank` (0..16) from the
    /// cache, or builds and stores them (atomically). Without a cache, or when it
    /// cannot be written, the tables are built and kept in memory only. Fails
    /// only if building fails.
    ///
    /// # Panics
    ///
    /// If `goal_blank` is not below 16.
    pub fn load_or_build(
        cache: Option<&TableCache>,
        goal_blank: usize,
        progress: &mut dyn FnMut(&TableEvent),
    ) -> io::Result<FifteenTables> {
        FifteenTables::load_or_build_with(cache, goal_blank, TableSet::Standard, progress)
    }

    /// [`FifteenTables::load_or_build`] with a chosen partition.
    pub fn load_or_build_with(
        cache: Option<&TableCache>,
        goal_blank: usize,
        set: TableSet,
        progress: &mut dyn FnMut(&TableEvent),
    ) -> io::Result<FifteenTables> {
        assert!(goal_blank < CELLS, "goal blank cell out of range");
        let rep = goal_class(goal_blank);
        let mut pdbs: Vec<Arc<Pdb>> = Vec::new();
        let mut groups = Vec::new();
        for (frame, specs) in set.groups(rep) {
            let mut idx = Vec::new();
            for spec in specs {
                let i = match pdbs.iter().position(|p| *p.spec() == spec) {
                    Some(i) => i,
                    None => {
                        pdbs.push(shared(cache, spec, progress)?);
                        pdbs.len() - 1
                    }
                };
                idx.push(i);
            }
            groups.push((frame, idx));
        }
        // The move-pruning machine is shared; build it now rather than in the
        // first search.
        ida::Fsm::get();
        Ok(FifteenTables {
            rep,
            set,
            pdbs,
            groups,
        })
    }

    /// Whether these tables serve goals with the blank on `goal_blank`.
    pub fn covers(&self, goal_blank: usize) -> bool {
        goal_blank < CELLS && goal_class(goal_blank) == self.rep
    }

    /// The partition in use.
    pub fn table_set(&self) -> TableSet {
        self.set
    }

    /// Total bytes of the tables held.
    pub fn bytes(&self) -> u64 {
        self.pdbs.iter().map(|p| p.packed().len() as u64).sum()
    }

    fn heuristic(&self) -> Heuristic<'_> {
        let groups = self
            .groups
            .iter()
            .map(|(frame, idx)| Group {
                frame: *frame,
                tables: idx.iter().map(|&i| &*self.pdbs[i]).collect(),
            })
            .collect();
        Heuristic::new(self.rep, groups)
    }

    /// The heuristic estimate (a lower bound on the solution length) of `start`
    /// towards `goal` (same conventions as [`solve_fifteen`]).
    pub fn estimate(&self, start: &[u8; 16], goal: &[u8; 16]) -> u32 {
        let (cells, _) = self.normalise(start, goal);
        self.heuristic().value(&cells)
    }

    /// The board in the canonical frame (tiles named by home cell) and the
    /// symmetry used.
    fn normalise(&self, start: &[u8; 16], goal: &[u8; 16]) -> ([u8; CELLS], Sym) {
        assert!(
            is_board(start) && is_board(goal),
            "boards hold 0..=15 once each"
        );
        assert!(
            reachable(start, goal),
            "the goal is not reachable from the start (parity differs)"
        );
        let g = goal.iter().position(|&t| t == 0).expect("goal has a blank");
        assert!(
            self.covers(g),
            "tables for goal class {} cannot solve a goal with the blank on cell {g}",
            self.rep
        );
        let sigma = symmetries()
            .into_iter()
            .find(|s| s[g] as usize == self.rep)
            .expect("some symmetry maps every cell onto its class representative");
        let mut home = [0u8; CELLS];
        for (cell, &label) in goal.iter().enumerate() {
            home[label as usize] = sigma[cell];
        }
        let mut cells = [0u8; CELLS];
        for (cell, &label) in start.iter().enumerate() {
            cells[sigma[cell] as usize] = if label == 0 {
                BLANK
            } else {
                home[label as usize]
            };
        }
        (cells, sigma)
    }
}

/// Gets one table: from the cache if it is there and sound, else built (and
/// stored when `store`).
/// The table for `spec` from `cache`, shared with every other set of tables in
/// this process that uses it: the 8-tile table serves all three goal classes,
/// and a batch that mixes them holds it once, not three times. A table no set
/// uses any more is freed.
fn shared(
    cache: Option<&TableCache>,
    spec: PatternSpec,
    progress: &mut dyn FnMut(&TableEvent),
) -> io::Result<Arc<Pdb>> {
    type Loaded = Vec<(Option<PathBuf>, Weak<Pdb>)>;
    static LOADED: Mutex<Loaded> = Mutex::new(Vec::new());
    let dir = cache.map(|c| c.dir.clone());
    // Held while loading, so that two threads never load the same table twice.
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    loaded.retain(|(_, weak)| weak.strong_count() > 0);
    let found = loaded
        .iter()
        .filter(|(from, _)| *from == dir)
        .filter_map(|(_, weak)| weak.upgrade())
        .find(|pdb| *pdb.spec() == spec);
    if let Some(pdb) = found {
        return Ok(pdb);
    }
    let pdb = Arc::new(obtain(cache, spec, true, progress)?);
    loaded.push((dir, Arc::downgrade(&pdb)));
    Ok(pdb)
}

fn obtain(
    cache: Option<&TableCache>,
    spec: PatternSpec,
    store: bool,
    progress: &mut dyn FnMut(&TableEvent),
) -> io::Result<Pdb> {
    let table = spec.name();
    if let Some(cache) = cache {
        let path = cache.dir.join(cache::file_name(&spec));
        if path.exists() {
            progress(&TableEvent::Loading {
                table: table.clone(),
                path: path.clone(),
            });
            let t = Instant::now();
            match cache::read_table(&path, &spec) {
                Ok(data) => {
                    progress(&TableEvent::Loaded {
                        table,
                        bytes: data.len() as u64,
                        elapsed: t.elapsed(),
                    });
                    return Ok(Pdb::from_packed(spec, data));
                }
                Err(ReadError::Missing) => {}
                Err(ReadError::Corrupt(reason)) => {
                    progress(&TableEvent::Corrupt { path, reason });
                }
            }
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let t = Instant::now();
    let mut last_percent = u64::MAX;
    let pdb = Pdb::build(spec, threads, &mut |done, total| {
        let percent = done * 100 / total.max(1);
        if percent != last_percent {
            last_percent = percent;
            progress(&TableEvent::Building {
                table: table.clone(),
                done,
                total,
            });
        }
    });
    progress(&TableEvent::Built {
        table: table.clone(),
        bytes: pdb.packed().len() as u64,
        elapsed: t.elapsed(),
    });
    if let (Some(cache), true) = (cache, store) {
        match cache::write_table(&cache.dir, &spec, pdb.packed()) {
            Ok(path) => progress(&TableEvent::Stored { table, path }),
            Err(e) => progress(&TableEvent::CacheUnwritable {
                dir: cache.dir.clone(),
                error: e.to_string(),
            }),
        }
    }
    Ok(pdb)
}

/// Builds every table ahead of time (the `--build-tables` flag): each table of
/// every goal class that is not already cached and sound is built and stored, one
/// at a time. Fails if a table cannot be stored.
pub fn build_all(cache: &TableCache, progress: &mut dyn FnMut(&TableEvent)) -> io::Result<()> {
    let mut seen = Vec::new();
    for rep in [0, 1, 5] {
        for (_, specs) in TableSet::Standard.groups(rep) {
            for spec in specs {
                if seen.contains(&spec) {
                    continue;
                }
                seen.push(spec);
                let path = cache.dir.join(cache::file_name(&spec));
                if path.exists() {
                    progress(&TableEvent::Loading {
                        table: spec.name(),
                        path: path.clone(),
                    });
                    let t = Instant::now();
                    match cache::read_table(&path, &spec) {
                        Ok(data) => {
                            progress(&TableEvent::Loaded {
                                table: spec.name(),
                                bytes: data.len() as u64,
                                elapsed: t.elapsed(),
                            });
                            continue;
                        }
                        Err(ReadError::Missing) => {}
                        Err(ReadError::Corrupt(reason)) => {
                            progress(&TableEvent::Corrupt { path, reason })
                        }
                    }
                }
                let pdb = obtain(None, spec, false, progress)?;
                let path = cache::write_table(&cache.dir, &spec, pdb.packed())?;
                progress(&TableEvent::Stored {
                    table: spec.name(),
                    path,
                });
            }
        }
    }
    Ok(())
}

/// Counters and timing of one solve.
#[derive(Default, Clone, Debug)]
pub struct SearchStats {
    /// Nodes expanded (the start and every child within the bound).
    pub nodes: u64,
    /// Children generated and evaluated (including those pruned at once).
    pub generated: u64,
    /// Table reads.
    pub reads: u64,
    /// IDA* iterations.
    pub iterations: u32,
    /// Heuristic value of the start.
    pub start_h: u32,
    /// Time spent searching (tables excluded).
    pub search_time: Duration,
}

/// A shortest solution from `start` to `goal`. Cells are row-major, 0 is the
/// blank, tiles 1..=15 each once. `goal` may be any arrangement with the blank
/// anywhere.
///
/// # Panics
///
/// If a board is not a permutation of 0..=15, if the goal is not reachable from
/// `start` (see [`reachable`]; the caller checks this first), or if `tables` were
/// built for another goal class (see [`FifteenTables::covers`]).
pub fn solve_fifteen(
    start: &[u8; 16],
    goal: &[u8; 16],
    tables: &FifteenTables,
    stats: &mut SearchStats,
) -> Vec<Move> {
    let t = Instant::now();
    let (cells, sigma) = tables.normalise(start, goal);
    let heur = tables.heuristic();
    let mut counters = Counters::default();
    let path = ida::search(&heur, &cells, &mut counters);
    // Map the blank's path back through the inverse symmetry.
    let mut inverse = [0u8; CELLS];
    for (c, &s) in sigma.iter().enumerate() {
        inverse[s as usize] = c as u8;
    }
    let mut blank = start
        .iter()
        .position(|&t| t == 0)
        .expect("start has a blank");
    let mut moves = Vec::with_capacity(path.len());
    for &canon in &path {
        let next = inverse[canon as usize] as usize;
        moves.push(match next as isize - blank as isize {
            4 => Move::Up,
            -4 => Move::Down,
            1 => Move::Left,
            -1 => Move::Right,
            _ => unreachable!("the blank moves to a neighbouring cell"),
        });
        blank = next;
    }
    *stats = SearchStats {
        nodes: counters.expanded,
        generated: counters.generated,
        reads: counters.reads,
        iterations: counters.iterations,
        start_h: counters.start_h,
        search_time: t.elapsed(),
    };
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::SplitMix64;
    use crate::solve::moves::replay;
    use std::sync::OnceLock;

    /// The small tables of each goal class, built once for all tests.
    fn small(goal_blank: usize) -> &'static FifteenTables {
        static TABLES: [OnceLock<FifteenTables>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let slot = match goal_class(goal_blank) {
            0 => 0,
            1 => 1,
            _ => 2,
        };
        TABLES[slot].get_or_init(|| {
            FifteenTables::load_or_build_with(None, goal_blank, TableSet::Small, &mut |_| {})
                .expect("in-memory build")
        })
    }

    /// A random 4x4 board.
    fn board(rng: &mut SplitMix64) -> [u8; 16] {
        let cells = rng.permutation(16);
        std::array::from_fn(|i| cells[i] as u8)
    }

    /// `board` after `n` random moves that never undo the previous one.
    fn scramble(rng: &mut SplitMix64, board: &[u8; 16], n: usize) -> [u8; 16] {
        let mut b = *board;
        let mut blank = b.iter().position(|&t| t == 0).unwrap();
        let mut last: Option<Move> = None;
        let mut done = 0;
        while done < n {
            let mv = Move::ALL[rng.index(4)];
            if Some(mv.inverse()) == last {
                continue;
            }
            if crate::solve::moves::apply_move(&mut b, 4, &mut blank, mv) {
                last = Some(mv);
                done += 1;
            }
        }
        b
    }

    /// Solves, replays the moves and checks they reach the goal.
    fn solve_checked(start: &[u8; 16], goal: &[u8; 16], tables: &FifteenTables) -> Vec<Move> {
        let mut stats = SearchStats::default();
        let moves = solve_fifteen(start, goal, tables, &mut stats);
        let mut cells = *start;
        let mut blank = cells.iter().position(|&t| t == 0).unwrap();
        assert_eq!(replay(&mut cells, 4, &mut blank, &moves), Ok(()));
        assert_eq!(&cells, goal, "solution replays onto the goal");
        assert!(
            stats.start_h as usize <= moves.len(),
            "the estimate is a lower bound"
        );
        moves
    }

    /// Shortest solution length by a plain IDA* with the Manhattan distance: an
    /// independent check for short instances.
    fn manhattan_length(start: &[u8; 16], goal: &[u8; 16]) -> usize {
        let mut home = [0usize; 16];
        for (c, &t) in goal.iter().enumerate() {
            home[t as usize] = c;
        }
        let h = |b: &[u8; 16]| -> usize {
            (0..16)
                .filter(|&c| b[c] != 0)
                .map(|c| manhattan(c, home[b[c] as usize]) as usize)
                .sum()
        };
        fn dfs(
            b: &mut [u8; 16],
            blank: usize,
            g: usize,
            bound: usize,
            prev: Option<usize>,
            h: &dyn Fn(&[u8; 16]) -> usize,
        ) -> bool {
            let est = h(b);
            if est == 0 {
                return true;
            }
            if g + est > bound {
                return false;
            }
            for mv in Move::ALL {
                if let Some(nb) = mv.blank_target(4, blank) {
                    if Some(nb) == prev {
                        continue;
                    }
                    b.swap(blank, nb);
                    let found = dfs(b, nb, g + 1, bound, Some(blank), h);
                    b.swap(blank, nb);
                    if found {
                        return true;
                    }
                }
            }
            false
        }
        let mut bound = h(start);
        loop {
            let mut b = *start;
            let blank = b.iter().position(|&t| t == 0).unwrap();
            if dfs(&mut b, blank, 0, bound, None, &h) {
                return bound;
            }
            bound += 2;
        }
    }

    #[test]
    fn goal_cells_fall_into_three_classes() {
        let classes: Vec<usize> = (0..16).map(goal_class).collect();
        assert_eq!(classes, [0, 1, 1, 0, 1, 5, 5, 1, 1, 5, 5, 1, 0, 1, 1, 0]);
        for cell in 0..16 {
            let rep = goal_class(cell);
            assert!(symmetries().iter().any(|s| s[cell] as usize == rep));
        }
    }

    #[test]
    fn parity_decides_reachability() {
        let goal: [u8; 16] = std::array::from_fn(|i| i as u8);
        let mut rng = SplitMix64::new(7);
        let start = scramble(&mut rng, &goal, 31);
        assert!(reachable(&start, &goal) && reachable(&goal, &start));
        let mut swapped = start;
        let (a, b) = if swapped[0] == 0 || swapped[1] == 0 {
            (2, 3)
        } else {
            (0, 1)
        };
        swapped.swap(a, b);
        assert!(!reachable(&swapped, &goal));
    }

    #[test]
    fn solving_the_goal_itself_takes_no_moves() {
        let mut rng = SplitMix64::new(3);
        let goal = board(&mut rng);
        let tables = small(goal.iter().position(|&t| t == 0).unwrap());
        assert!(solve_checked(&goal, &goal, tables).is_empty());
    }

    #[test]
    fn random_goals_in_every_class_get_shortest_solutions() {
        let mut rng = SplitMix64::new(0x5eed);
        // Goal blanks: corners, edge cells and centre cells in various places.
        for goal_blank in [0, 15, 1, 2, 4, 7, 8, 11, 13, 14, 5, 6, 9, 10] {
            for _ in 0..3 {
                let mut goal = board(&mut rng);
                let b = goal.iter().position(|&t| t == 0).unwrap();
                goal.swap(b, goal_blank);
                let len = 24 + rng.index(14);
                let start = scramble(&mut rng, &goal, len);
                let moves = solve_checked(&start, &goal, small(goal_blank));
                assert_eq!(
                    moves.len(),
                    manhattan_length(&start, &goal),
                    "goal {goal:?}"
                );
            }
        }
    }

    /// Easy instances of Korf's 100 (id, optimal length, start; goal is 0..=15).
    const KORF: [(usize, usize, [u8; 16]); 6] = [
        (
            9,
            46,
            [3, 14, 9, 11, 5, 4, 8, 2, 13, 12, 6, 7, 10, 1, 15, 0],
        ),
        (
            12,
            45,
            [14, 1, 9, 6, 4, 8, 12, 5, 7, 2, 3, 0, 10, 11, 13, 15],
        ),
        (
            13,
            46,
            [3, 6, 5, 2, 10, 0, 15, 14, 1, 4, 13, 12, 9, 8, 11, 7],
        ),
        (
            42,
            42,
            [4, 5, 7, 2, 9, 14, 12, 13, 0, 3, 6, 11, 8, 1, 15, 10],
        ),
        (
            55,
            41,
            [13, 8, 14, 3, 9, 1, 0, 7, 15, 5, 4, 10, 12, 2, 6, 11],
        ),
        (
            79,
            42,
            [0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15],
        ),
    ];

    #[test]
    fn korf_instances_keep_their_length_under_symmetry_and_relabelling() {
        let goal: [u8; 16] = std::array::from_fn(|i| i as u8);
        let mut rng = SplitMix64::new(99);
        for (id, want, start) in KORF {
            for (k, sym) in symmetries().iter().enumerate() {
                // Move every cell by the symmetry, then rename the tiles at random.
                let mut names: [u8; 16] = std::array::from_fn(|i| i as u8);
                for i in (2..16).rev() {
                    names.swap(i, 1 + rng.index(i));
                }
                let map = |b: &[u8; 16]| {
                    let mut out = [0u8; 16];
                    for c in 0..16 {
                        out[sym[c] as usize] = names[b[c] as usize];
                    }
                    out
                };
                let (s, g) = (map(&start), map(&goal));
                let tables = small(sym[0] as usize);
                let moves = solve_checked(&s, &g, tables);
                assert_eq!(moves.len(), want, "instance {id}, symmetry {k}");
            }
        }
    }

    #[test]
    fn korf_instances_backwards_give_edge_and_centre_goals() {
        // From the standard board to a Korf start: the goal's blank is wherever
        // the instance has it (edge, centre or corner); the length is the same.
        let standard: [u8; 16] = std::array::from_fn(|i| i as u8);
        let mut classes = Vec::new();
        for (id, want, start) in KORF {
            let blank = start.iter().position(|&t| t == 0).unwrap();
            classes.push(goal_class(blank));
            let moves = solve_checked(&standard, &start, small(blank));
            assert_eq!(moves.len(), want, "instance {id} backwards");
        }
        assert!(classes.contains(&1) && classes.contains(&5));
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "puzzle-fifteen-test-{name}-{}-{:?}",
            std::process::id(),
            Instant::now()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn cached_tables_are_reused_and_rebuilt_when_corrupt() {
        let dir = temp_dir("cache");
        let cache = TableCache::new(dir.clone());
        let load = || {
            let mut events = Vec::new();
            let t = FifteenTables::load_or_build_with(Some(&cache), 0, TableSet::Small, &mut |e| {
                events.push(e.clone())
            })
            .unwrap();
            (t, events)
        };
        let count = |events: &[TableEvent], f: fn(&TableEvent) -> bool| {
            events.iter().filter(|e| f(e)).count()
        };
        let (_, first) = load();
        assert_eq!(count(&first, |e| matches!(e, TableEvent::Stored { .. })), 3);
        let (_, second) = load();
        assert_eq!(
            count(&second, |e| matches!(e, TableEvent::Loaded { .. })),
            3
        );
        assert_eq!(count(&second, |e| matches!(e, TableEvent::Built { .. })), 0);

        // Damage one table's payload and truncate another.
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert_eq!(files.len(), 3, "no temporary files are left behind");
        let mut bytes = std::fs::read(&files[0]).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x10;
        std::fs::write(&files[0], &bytes).unwrap();
        std::fs::write(&files[1], b"PZ15PDB").unwrap();
        let (tables, third) = load();
        assert_eq!(
            count(&third, |e| matches!(e, TableEvent::Corrupt { .. })),
            2
        );
        assert_eq!(count(&third, |e| matches!(e, TableEvent::Built { .. })), 2);
        assert_eq!(count(&third, |e| matches!(e, TableEvent::Loaded { .. })), 1);
        let (_, want, start) = KORF[0];
        let goal: [u8; 16] = std::array::from_fn(|i| i as u8);
        assert_eq!(solve_checked(&start, &goal, &tables).len(), want);
        // While one set of tables is alive, another shares them: nothing is read.
        let (_, sharing) = load();
        assert_eq!(sharing, vec![]);
        drop(tables);
        let (_, fourth) = load();
        assert_eq!(
            count(&fourth, |e| matches!(e, TableEvent::Loaded { .. })),
            3
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_cache_keeps_tables_in_memory() {
        // A file where the cache directory should be: it cannot be created.
        let dir = temp_dir("unwritable");
        let blocker = dir.join("not-a-dir");
        std::fs::write(&blocker, b"x").unwrap();
        let cache = TableCache::new(blocker.join("puzzle"));
        let mut events = Vec::new();
        let tables =
            FifteenTables::load_or_build_with(Some(&cache), 5, TableSet::Small, &mut |e| {
                events.push(e.clone())
            })
            .unwrap();
        assert!(events
            .iter()
            .any(|e| matches!(e, TableEvent::CacheUnwritable { .. })));
        let goal: [u8; 16] = [1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
        let start = scramble(&mut SplitMix64::new(11), &goal, 30);
        let moves = solve_checked(&start, &goal, &tables);
        assert_eq!(moves.len(), manhattan_length(&start, &goal));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn cache_directory_comes_from_the_environment_in_order() {
        use std::ffi::OsString;
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        const ALL: [(&str, &str); 3] = [
            ("PUZZLE_CACHE_DIR", "/p"),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ];
        let dir = |c: Option<TableCache>| c.map(|c| c.dir().to_path_buf());
        assert_eq!(
            dir(TableCache::from_vars(env(&ALL))),
            Some(PathBuf::from("/p"))
        );
        assert_eq!(
            dir(TableCache::from_vars(env(&[
                ("XDG_CACHE_HOME", "/x"),
                ("HOME", "/h")
            ]))),
            Some(PathBuf::from("/x/puzzle"))
        );
        assert_eq!(
            dir(TableCache::from_vars(env(&[
                ("PUZZLE_CACHE_DIR", ""),
                ("HOME", "/h")
            ]))),
            Some(PathBuf::from("/h/.cache/puzzle"))
        );
        assert_eq!(TableCache::from_vars(env(&[])), None);
    }

    #[test]
    fn events_read_as_one_lowercase_line() {
        let events = [
            TableEvent::Loading {
                table: "t".into(),
                path: "/c/f".into(),
            },
            TableEvent::Loaded {
                table: "t".into(),
                bytes: 288_288_000,
                elapsed: Duration::from_millis(120),
            },
            TableEvent::Building {
                table: "t".into(),
                done: 5,
                total: 10,
            },
            TableEvent::Built {
                table: "t".into(),
                bytes: 1,
                elapsed: Duration::from_secs(8),
            },
            TableEvent::Stored {
                table: "t".into(),
                path: "/c/f".into(),
            },
            TableEvent::Corrupt {
                path: "/c/f".into(),
                reason: "checksum mismatch".into(),
            },
            TableEvent::CacheUnwritable {
                dir: "/c".into(),
                error: "denied".into(),
            },
        ];
        for e in &events {
            let line = e.to_string();
            assert!(!line.contains('\n') && !line.ends_with('.'), "{line}");
            assert!(line.starts_with(|c: char| c.is_lowercase()), "{line}");
        }
        assert_eq!(
            events[2].to_string(),
            "building table t: 50% (5 of 10 entries)"
        );
    }

    #[test]
    fn tables_can_be_shared_across_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<FifteenTables>();
        let goal: [u8; 16] = std::array::from_fn(|i| i as u8);
        let tables = small(0);
        std::thread::scope(|s| {
            for (_, want, start) in KORF.iter().take(2) {
                s.spawn(move || assert_eq!(solve_checked(start, &goal, tables).len(), *want));
            }
        });
    }
}
