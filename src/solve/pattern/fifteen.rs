//! Optimal solving of the 4x4 puzzle (the 15-puzzle) towards any goal: the
//! partition of the tiles into pattern databases for each goal class, and the
//! public entry points. The machinery is shared with the 5x5
//! (`solve::pdb`, `solve::ida`, `solve::goals`);
//! this file is mostly data.
//!
//! # Design
//!
//! **Any goal.** Tiles are renamed by their cell in the goal, so every goal
//! becomes "tile `c` on cell `c`" with the blank on the goal's blank cell `g`. One
//! of the 8 symmetries of the square then moves `g` onto the representative of its
//! class: a corner (cell 0), an edge cell (cell 1) or a centre cell (cell 5). The
//! search runs on the transformed board and its moves are mapped back
//! (`solve::goals`).
//!
//! **Tables.** Every class uses the 7-8 partition of Korf & Felner (2002): the 8
//! tiles whose home is in rows 2-3, and the 7 tiles of rows 0-1 other than the
//! blank's cell. The tables model the blank: a pattern tile's move costs 1, the
//! blank moves freely through other cells, an entry is the minimum over blank
//! positions (see `solve::pdb`). A table depends only on its tiles and
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
//! `solve::ida`: IDA* in batches (so that table reads overlap), duplicate
//! pruning by a finite-state machine, sibling ordering and bidirectional pathmax.
//!
//! **Lifecycle** (shared with the 5x5, in `solve::pdb::tables`).
//! [`FifteenTables::load_or_build`] reads each table from the cache directory
//! ([`TableCache`]) or builds it (about 8 s for the 8-tile table
//! and 1 s for a 7-tile one on two cores, 0.7 GB peak) and stores it. Files are
//! written to a temporary name and renamed into place, and checked on load
//! (magic, version, pattern, size, checksum; format in `solve::cache`);
//! a missing or damaged file is rebuilt. Two processes that start at once both
//! build and both rename; the last rename wins and both files are valid, so no
//! lock file is used. If the cache cannot be written the tables stay in memory.
//! Progress is reported through [`TableEvent`]s; the library never prints.
//!
//! **Measured** (release build, Korf's 100 instances, one core, tables loaded):
//! all lengths optimal, 0.97 M nodes expanded, about 0.20 s of search in total
//! (0.19-0.30 s from run to run: the machine is a shared VM); loading the
//! corner tables takes about 0.1-0.2 s.

use super::goals;
use super::ida::parallel::{self, Limits, Outcome};
use super::ida::{Counters, Four, Geometry, Heuristic};
use super::tables::store::{self, TableGroups};
use super::tables::PatternSpec;
use crate::board_adt::moves::Move;
use crate::board_adt::symmetry::{class_of, Symmetry};
use std::io;
use std::time::{Duration, Instant};

pub use super::tables::store::{TableCache, TableEvent};

/// Side of the board.
const SIDE: usize = 4;
/// Cells on the board.
const CELLS: usize = 16;

/// Which partition the tables use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSet {
    /// The production partition: 7-8 on 4x4 (described in the module docs),
    /// 6-6-6-6 on 5x5 (see [`crate::solve::pattern::twentyfour`]).
    Standard,
    /// A small partition with the same lookups that builds in about a second
    /// and searches far slower (for tests): on 4x4, 6-6-3 (cells other than the
    /// blank's in row-major order: 6, 6, 3); on 5x5, six tables of 4 tiles.
    Small,
}

impl TableSet {
    /// The pattern cell sets of one group for goals with the blank on `g`.
    fn masks(self, g: usize) -> Vec<u32> {
        match self {
            TableSet::Standard => vec![0x00ff & !(1u32 << g), 0xff00],
            TableSet::Small => {
                let cells: Vec<usize> = (0..CELLS).filter(|&c| c != g).collect();
                let mask = |r: &[usize]| r.iter().fold(0u32, |m, &c| m | 1 << c);
                vec![mask(&cells[..6]), mask(&cells[6..12]), mask(&cells[12..])]
            }
        }
    }

    /// The groups for goal class `rep`: (frame, specs).
    fn groups(self, rep: usize) -> Vec<(Vec<u8>, Vec<PatternSpec>)> {
        let mut out = Vec::new();
        for frame in [Symmetry::IDENTITY, Symmetry::TRANSPOSE].map(|s| s.cells(SIDE)) {
            let g = frame[rep] as usize;
            let specs = self
                .masks(g)
                .into_iter()
                .map(|m| PatternSpec::new(SIDE, m, g))
                .collect();
            out.push((frame, specs));
        }
        out
    }
}

/// The representative of `cell`'s class: 0 (corner), 1 (edge) or 5 (centre).
pub fn goal_class(cell: usize) -> usize {
    class_of(SIDE, cell)
}

/// The tables for every goal whose blank sits in one class of cells (corner,
/// edge or centre). Immutable once loaded: `Send + Sync`, shared by reference.
pub struct FifteenTables {
    set: TableSet,
    tables: TableGroups,
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
        let tables = TableGroups::load(cache, rep, set.groups(rep), progress)?;
        Ok(FifteenTables { set, tables })
    }

    /// Whether these tables serve goals with the blank on `goal_blank`.
    pub fn covers(&self, goal_blank: usize) -> bool {
        goal_blank < CELLS && goal_class(goal_blank) == self.tables.rep()
    }

    /// The partition in use.
    pub fn table_set(&self) -> TableSet {
        self.set
    }

    /// Total bytes of the tables held.
    pub fn bytes(&self) -> u64 {
        self.tables.bytes()
    }

    fn heuristic(&self) -> Heuristic<'_, Four> {
        self.tables.heuristic()
    }

    /// The heuristic estimate (a lower bound on the solution length) of `start`
    /// towards `goal` (same conventions as [`solve_fifteen`]).
    pub fn estimate(&self, start: &[u8; 16], goal: &[u8; 16]) -> u32 {
        let canon = goals::normalise(SIDE, start, goal, self.tables.rep(), Four::BLANK);
        self.heuristic().value(&canon.cells)
    }
}

/// Builds every 4x4 table ahead of time (the `--build-tables` flag): each table
/// of every goal class that is not already cached and sound is built and
/// stored, one at a time. Fails if a table cannot be stored.
pub fn build_all(cache: &TableCache, progress: &mut dyn FnMut(&TableEvent)) -> io::Result<()> {
    let specs: Vec<PatternSpec> = [0, 1, 5]
        .into_iter()
        .flat_map(|rep| TableSet::Standard.groups(rep))
        .flat_map(|(_, specs)| specs)
        .collect();
    store::build_into(cache, &specs, progress)
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

impl SearchStats {
    /// The statistics of a search that took `counters` and `search_time`.
    pub fn from_counters(counters: &Counters, search_time: Duration) -> SearchStats {
        SearchStats {
            nodes: counters.expanded,
            generated: counters.generated,
            reads: counters.reads,
            iterations: counters.iterations,
            start_h: counters.start_h,
            search_time,
        }
    }
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
    let canon = goals::normalise(SIDE, start, goal, tables.tables.rep(), Four::BLANK);
    let heur = tables.heuristic();
    let mut counters = Counters::default();
    // One thread: a 4x4 search takes milliseconds.
    let limits = Limits {
        jobs: 1,
        deadline: None,
        report_every: None,
        stop: None,
    };
    let path = match parallel::search(&heur, &canon.cells, &limits, &mut counters, &mut |_| {}) {
        Outcome::Solved(path) => path,
        Outcome::Stopped { .. } => unreachable!("no deadline and no stop"),
    };
    let blank = start
        .iter()
        .position(|&t| t == 0)
        .expect("start has a blank");
    let moves = goals::moves_back(SIDE, &canon.sigma, blank, &path);
    *stats = SearchStats::from_counters(&counters, t.elapsed());
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::{random_walk, replay};
    use crate::generate::SplitMix64;
    use crate::solve::grid::{manhattan, reachable};
    use crate::solve::pattern::tables::store::testing::{files_in, tally, Tally};
    use std::path::PathBuf;
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
        let walked = random_walk(rng, 4, board, n);
        walked.try_into().expect("16 cells")
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
                .map(|c| manhattan(SIDE, c, home[b[c] as usize]) as usize)
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
            assert!(Symmetry::ALL.iter().any(|s| s.cell(SIDE, cell) == rep));
        }
    }

    #[test]
    fn parity_decides_reachability() {
        let goal: [u8; 16] = std::array::from_fn(|i| i as u8);
        let mut rng = SplitMix64::new(7);
        let start = scramble(&mut rng, &goal, 31);
        assert!(reachable(SIDE, &start, &goal) && reachable(SIDE, &goal, &start));
        let mut swapped = start;
        let (a, b) = if swapped[0] == 0 || swapped[1] == 0 {
            (2, 3)
        } else {
            (0, 1)
        };
        swapped.swap(a, b);
        assert!(!reachable(SIDE, &swapped, &goal));
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
            for (k, sym) in Symmetry::ALL.map(|s| s.cells(SIDE)).iter().enumerate() {
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
            tally(|progress| {
                FifteenTables::load_or_build_with(Some(&cache), 0, TableSet::Small, progress)
                    .unwrap()
            })
        };
        let (_, first) = load();
        assert_eq!(first.stored, 3);
        let (_, second) = load();
        assert_eq!((second.loaded, second.built), (3, 0));

        // Damage one table's payload and truncate another.
        let files = files_in(&dir);
        assert_eq!(files.len(), 3, "no temporary files are left behind");
        let mut bytes = std::fs::read(&files[0]).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x10;
        std::fs::write(&files[0], &bytes).unwrap();
        std::fs::write(&files[1], b"PZ15PDB").unwrap();
        let (tables, third) = load();
        assert_eq!((third.corrupt, third.built, third.loaded), (2, 2, 1));
        let (_, want, start) = KORF[0];
        let goal: [u8; 16] = std::array::from_fn(|i| i as u8);
        assert_eq!(solve_checked(&start, &goal, &tables).len(), want);
        // While one set of tables is alive, another shares them: nothing is read.
        let (_, sharing) = load();
        assert_eq!(sharing, Tally::default());
        drop(tables);
        let (_, fourth) = load();
        assert_eq!(fourth.loaded, 3);
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
