//! Finding the moves: a shortest solution for boards up to 4x4 (and 5x5 on
//! request), a valid one for any size, against any goal.
//!
//! This file is the dispatcher and the public face: the types `lib.rs`
//! re-exports, and [`Solver`], which holds the tables between puzzles. One
//! function, `Method::choose` in `method.rs`, picks the method by the
//! board's side and the options; the same file says which tables each method
//! reads, how hard it works, whether its answer is proven shortest and what
//! takes over when it is stopped empty-handed. [`Solver::solve`] fetches the
//! tables, hands the puzzle to the method's room once, and labels the
//! answer; no method's body lives here.
//!
//! | side | method | room | label |
//! |---|---|---|---|
//! | 2, 3 | complete distance tables, one per goal blank class | `small.rs` | shortest |
//! | 4 | IDA* over additive pattern databases, built on first use and cached | `pattern/` | shortest |
//! | 5 | two beam searches over the 5x5 pattern databases, one from each end, the shorter kept, its stretches re-solved | `near.rs`, over `pattern/` | not proven shortest |
//! | 6 to 10 | reduction to a 5x5 corner (`constructive/`), finished by that beam; on 6x6 a beam over the whole board beside it (`whole_board/`), the shorter kept; then shortened by windows (`polish/`) | `finished.rs` | not proven shortest |
//! | 11 and up | row-by-row reduction to a 3x3 corner, finished optimally | `constructive/` | not proven shortest |
//! | 5, with [`SolveOptions::shortest`] | IDA* over additive pattern databases on [`SolveOptions::jobs`] threads | `pattern/` | shortest |
//! | 6 and up, with [`SolveOptions::shortest`] | IDA* with Manhattan distance and linear conflicts | `manhattan.rs` | shortest |
//!
//! Every method is called the same way and answers the same way (`outcome.rs`,
//! the ground floor, which imports nothing of the solver's):
//! `solve(start, goal, ...)` on two boards, an `Outcome` back; the searches
//! also take their limits, counters and a progress callback. The 4x4 and 5x5
//! pattern-database solvers are one method, `pattern/`, whose partitions of
//! the board are data. `grid.rs` holds what the methods share about plain
//! cells: the Manhattan distance, reachability, a board as bytes; `seen.rs`
//! the sets of boards already seen.
//!
//! The floors, each importing only from those below it: `outcome.rs`,
//! `grid.rs`, `seen.rs`; the methods (`small.rs`, `manhattan.rs`,
//! `pattern/`; `constructive/`, `whole_board/`, `polish/`); the rooms that
//! compose them (`near.rs`, `finished.rs`); the choice (`method.rs`); this
//! dispatcher.
//!
//! The solver takes [`Board`](crate::board_adt::Board)s and converts them to
//! its own compact cells; it never prints, and reports progress through the
//! events callback.

mod constructive;
mod finished;
mod grid;
mod manhattan;
mod method;
mod near;
mod outcome;
mod pattern;
mod polish;
mod seen;
mod small;
mod whole_board;

pub use outcome::SearchProgress;
pub use pattern::{EmptyCacheDir, TableCache, TableEvent, TableSet};

use crate::board_adt::move_list::MoveList;
use crate::board_adt::Puzzle;
use method::{Method, TablesFor};
use outcome::{Counters, Limits, Outcome};
use pattern::{Shelf, FIFTEEN, TWENTY_FOUR};
use std::fmt;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The largest side `--solve` accepts: a valid solution of an `N`x`N` board is
/// about `2.6 N^3` moves, so beyond this one would not fit in memory.
pub const MAX_SOLVE_SIDE: usize = 1000;

/// A solution: the moves that take the start board to the goal board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The moves, in order, packed (a large board's solution has billions).
    pub moves: MoveList,
    /// Whether no shorter solution exists: the method guarantees it, or the
    /// length equals a lower bound (no moves at all, or as many as the tiles'
    /// Manhattan distance).
    pub proven_shortest: bool,
}

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Insist on a shortest solution for 5x5 and larger boards too (IDA*; it can
    /// take very long: hours or more for a random 5x5 board).
    pub shortest: bool,
    /// Where the 4x4 and 5x5 tables are cached; `None` keeps them in memory
    /// only, built anew by each process.
    pub cache: Option<TableCache>,
    /// Which 4x4 and 5x5 tables: the production partitions (7-8, 6-6-6-6), or
    /// small ones that build in a fraction of a second and search far slower
    /// (for tests).
    pub tables: TableSet,
    /// Threads that search one 5x5 puzzle with [`SolveOptions::shortest`];
    /// `None`: one a core. The answer does not depend on it.
    pub jobs: Option<usize>,
    /// With [`SolveOptions::shortest`]: how long the search may take (5x5
    /// tables built on first use not counted). When it runs out, the solution
    /// is the best found so far, not proven shortest, and a
    /// [`SolveEvent::Unproven`] says how long the shortest is at least.
    /// Without it, on 5x5 to 10x10 boards: time to spend on a shorter answer
    /// than the default one (wider searches), which then depends on the
    /// machine's speed. `None`: no limit, and every answer the same on any
    /// machine.
    pub time_limit: Option<Duration>,
    /// Set from outside (say by a signal handler) to end a search early, as
    /// the time limit does: the 5x5 and larger searches look at it every few
    /// milliseconds. `None`: nothing stops them.
    pub stop: Option<&'static AtomicBool>,
    /// With [`SolveOptions::shortest`] on 4x4 and 5x5: bytes for a
    /// best-first top of the search (A*+IDA*, docs/solving.md), capped at a
    /// quarter of the memory available; below 64 MiB, or `None`, plain
    /// IDA*. Off by default: it searched no fewer nodes on the instances
    /// measured. The answer does not depend on it.
    pub astar_memory: Option<usize>,
}

impl SolveOptions {
    /// The defaults ([`SolveOptions::default`]) with what the environment
    /// asks for, as [`TableCache::from_env`] does for the cache: the large
    /// 5x5 set if `large_tables` (`--large-tables`); the small test tables
    /// if `PUZZLE_TABLES=small` (for tests of a binary: answers stay valid,
    /// lengths grow); an A* top of `--shortest` of N MiB if
    /// `PUZZLE_ASTAR_MB=N` ([`SolveOptions::astar_memory`]; an unreadable
    /// value asks for none).
    pub fn from_env(large_tables: bool) -> SolveOptions {
        let small = std::env::var_os("PUZZLE_TABLES").is_some_and(|v| v == "small");
        let tables = match (small, large_tables) {
            (false, false) => TableSet::Standard,
            (false, true) => TableSet::Large,
            (true, false) => TableSet::Small,
            (true, true) => TableSet::SmallLarge,
        };
        let astar_memory = std::env::var("PUZZLE_ASTAR_MB")
            .ok()
            .and_then(|mib| mib.trim().parse::<usize>().ok())
            .map(|mib| mib.saturating_mul(1 << 20));
        SolveOptions {
            tables,
            astar_memory,
            ..SolveOptions::default()
        }
    }
}

impl Default for SolveOptions {
    /// Not insisting on shortest for large boards, the cache from the
    /// environment ([`TableCache::from_env`]), the production tables.
    fn default() -> SolveOptions {
        SolveOptions {
            shortest: false,
            cache: TableCache::from_env(),
            tables: TableSet::Standard,
            jobs: None,
            time_limit: None,
            stop: None,
            astar_memory: None,
        }
    }
}

/// Something the solver reports while it works.
#[derive(Debug)]
pub enum SolveEvent<'a> {
    /// The 4x4 or 5x5 tables are being loaded or built.
    Table(&'a TableEvent),
    /// The shortest-path search for 5x5 and larger finished an iteration, or went
    /// on for a while.
    Search(&'a SearchProgress),
    /// The solution is not proven shortest: every solution has at least
    /// `lower_bound` moves, this one `moves`; `stopped` says whether a time
    /// limit or a stop from outside ended the search.
    Unproven {
        /// A proven lower bound on the length of every solution.
        lower_bound: u64,
        /// The length of the solution given.
        moves: u64,
        /// Why the search ended early, if it did.
        stopped: Option<Stop>,
    },
}

/// Why a search ended before it proved its solution shortest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// [`SolveOptions::time_limit`] ran out.
    TimeLimit,
    /// [`SolveOptions::stop`] was set.
    Interrupted,
}

impl fmt::Display for SolveEvent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveEvent::Table(event) => event.fmt(f),
            SolveEvent::Search(p) => {
                let done = if p.iteration_done { " done" } else { "" };
                write!(f, "search: bound {}{done}", p.bound)?;
                if let Some(best) = p.best {
                    write!(f, ", best {best}")?;
                }
                let noun = if p.nodes == 1 { "node" } else { "nodes" };
                write!(f, "; {} {noun}, {}", Count(p.nodes), Span(p.elapsed))?;
                if let Some((low, high)) = p.iteration_left {
                    write!(f, "; next {}", Between(low, high))?;
                }
                if let Some((low, high)) = p.proof_left {
                    write!(f, ", proof {}", Between(low, high))?;
                }
                Ok(())
            }
            SolveEvent::Unproven {
                lower_bound,
                moves,
                stopped,
            } => {
                match stopped {
                    Some(Stop::TimeLimit) => f.write_str("time limit reached: ")?,
                    Some(Stop::Interrupted) => f.write_str("stopped: ")?,
                    None => {}
                }
                write!(
                    f,
                    "the shortest solution has at least {lower_bound} moves; this one has {moves}, \
                     at most {} more",
                    moves.saturating_sub(*lower_bound)
                )
            }
        }
    }
}

/// A count for people: `950`, `12 k`, `3.4 M`, `1.2 G`.
struct Count(u64);

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0 as f64;
        match self.0 {
            0..1_000 => write!(f, "{}", self.0),
            1_000..1_000_000 => write!(f, "{:.0} k", n / 1e3),
            1_000_000..1_000_000_000 => write!(f, "{:.1} M", n / 1e6),
            _ => write!(f, "{:.1} G", n / 1e9),
        }
    }
}

/// A time for people: `12 s`, `4.5 min`, `3.1 h`, `2.0 days`, `years`.
struct Span(Duration);

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0.as_secs_f64();
        if s < 99.5 {
            write!(f, "{s:.0} s")
        } else if s < 5940.0 {
            write!(f, "{:.1} min", s / 60.0)
        } else if s < 172_800.0 {
            write!(f, "{:.1} h", s / 3600.0)
        } else if s < 3.2e7 {
            write!(f, "{:.1} days", s / 86400.0)
        } else {
            f.write_str("years")
        }
    }
}

/// A range of times for people: `~12 s` when both ends read the same,
/// else `10-14 s`, `50 s-2.1 min`.
struct Between(Duration, Duration);

impl fmt::Display for Between {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (low, high) = (Span(self.0).to_string(), Span(self.1).to_string());
        if low == high {
            return write!(f, "~{low}");
        }
        match (low.split_once(' '), high.split_once(' ')) {
            (Some((a, unit)), Some((b, same))) if unit == same => write!(f, "{a}-{b} {unit}"),
            _ => write!(f, "{low}-{high}"),
        }
    }
}

/// What solving took.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// The method used.
    pub method: &'static str,
    /// Search nodes expanded, where the method searches.
    pub nodes: u64,
    /// Time spent searching (or constructing).
    pub search_time: Duration,
    /// Time spent loading or building tables.
    pub table_time: Duration,
    /// Further lines of figures, where the method has more to say (the 5x5
    /// `--shortest` search: nodes per iteration, which tables pruned).
    pub details: Vec<String>,
}

impl SolveStats {
    /// The figures in one line, for a solution of `moves` moves:
    /// `stats: M moves by METHOD; N nodes; search S s; tables T s`.
    pub fn line(&self, moves: usize) -> String {
        format!(
            "stats: {moves} moves by {}; {} nodes; search {:.6} s; tables {:.3} s",
            self.method,
            self.nodes,
            self.search_time.as_secs_f64(),
            self.table_time.as_secs_f64()
        )
    }
}

/// Why no solution could be given.
#[derive(Debug)]
pub enum SolveError {
    /// The board is larger than [`MAX_SOLVE_SIDE`].
    TooLarge {
        /// The board's side.
        side: usize,
    },
    /// The 4x4 or 5x5 tables could be neither loaded nor built.
    Tables(io::Error),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooLarge { side } => write!(
                f,
                "cannot solve a {side}x{side} board: the largest is {MAX_SOLVE_SIDE}x{MAX_SOLVE_SIDE} \
                 (a solution takes about 2.6 N^3 moves)"
            ),
            SolveError::Tables(e) => write!(f, "cannot load or build the tables: {e}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// The tables a method runs on, fetched before it: its own
/// ([`Method::tables`]), its windows' ([`Method::window_tables`]) and the
/// whole-board beam's heuristic (6x6 beside the reduction).
type Fetched<'a> = (
    Option<&'a Arc<pattern::Tables>>,
    &'a [Option<Arc<pattern::Tables>>],
    Option<&'a whole_board::Heuristic>,
);

/// What [`Method::Finished`] runs on: the 5x5 corner's tables, the
/// windows' and the whole-board beam's heuristic (6x6).
type Reducing<'a> = (
    &'a Arc<pattern::Tables>,
    &'a [Option<Arc<pattern::Tables>>],
    Option<&'a whole_board::Heuristic>,
);

/// Solves puzzles; holds what is worth keeping between them (the 4x4 and 5x5
/// tables of each goal class, loaded on first need), and may be shared by
/// several threads.
pub struct Solver {
    options: SolveOptions,
    /// The threads of one search: `options.jobs`, else one a core (asked
    /// once: the question reads files under /proc and /sys, which cost more
    /// than solving a 3x3 puzzle).
    jobs: usize,
    /// The 4x4 tables of each goal class: corner, edge and centre.
    fifteen: Shelf,
    /// The 5x5 tables of each goal class.
    twentyfour: Shelf,
    /// The whole-board search's tables for 6x6 and 7x7, by goal cells.
    whole: whole_board::Shelf,
}

impl Default for Solver {
    /// A solver with the default options ([`SolveOptions::default`]).
    fn default() -> Solver {
        Solver::new(SolveOptions::default())
    }
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("options", &self.options)
            .finish()
    }
}

impl Solver {
    /// A solver with these options.
    pub fn new(options: SolveOptions) -> Solver {
        Solver {
            jobs: options
                .jobs
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            options,
            fifteen: Shelf::new(&FIFTEEN),
            twentyfour: Shelf::new(&TWENTY_FOUR),
            whole: whole_board::Shelf::default(),
        }
    }

    /// Builds (or checks) every table of the options' set for boards of the
    /// given sides (4 and 5) in the cache ahead of time.
    pub fn build_tables(
        &self,
        sides: &[usize],
        events: &mut dyn FnMut(&SolveEvent),
    ) -> Result<(), SolveError> {
        let Some(cache) = self.options.cache.as_ref() else {
            return Err(SolveError::Tables(io::Error::new(
                io::ErrorKind::NotFound,
                "no cache directory: set PUZZLE_CACHE_DIR, XDG_CACHE_HOME or HOME, or use --cache-dir",
            )));
        };
        for &side in sides {
            let mut report = |event: &TableEvent| events(&SolveEvent::Table(event));
            match side {
                4 => pattern::build_all(&FIFTEEN, self.options.tables, cache, &mut report),
                5 => pattern::build_all(&TWENTY_FOUR, self.options.tables, cache, &mut report),
                _ => Ok(()),
            }
            .map_err(SolveError::Tables)?;
        }
        Ok(())
    }

    /// Loads or builds, ahead of [`Solver::solve`], the tables that solving
    /// `puzzle` will use (none for 2x2, 3x3 and boards it cannot solve),
    /// adding the time to `stats`. A client can so tell the tables apart
    /// from the search: say, stop the search on Ctrl-C but not the build.
    pub fn prepare(
        &self,
        puzzle: &Puzzle,
        events: &mut dyn FnMut(&SolveEvent),
        stats: &mut SolveStats,
    ) -> Result<(), SolveError> {
        let Some(method) = self.method(puzzle) else {
            return Ok(());
        };
        let side = puzzle.start().side();
        let goal_blank = puzzle.goal().blank();
        let began = Instant::now();
        // A stoppable search may need the tables of what takes over.
        let fallback = method.stoppable().then(|| Method::fallback(side));
        for method in [Some(method), fallback].into_iter().flatten() {
            if let Some(wanted) = method.tables(goal_blank) {
                self.tables(wanted, events)?;
            }
        }
        for wanted in method.window_tables(self.options.time_limit.is_some()) {
            self.tables(wanted, events)?;
        }
        self.whole_board(method, puzzle, events);
        stats.table_time += began.elapsed();
        Ok(())
    }

    /// The heuristic of the whole-board beam that runs beside `method` on
    /// `puzzle` (the reduction of 6x6 and 7x7, [`method::whole_board`]),
    /// its tables from the shelf, the cache or built; `None` where no
    /// such beam runs.
    fn whole_board(
        &self,
        method: Method,
        puzzle: &Puzzle,
        events: &mut dyn FnMut(&SolveEvent),
    ) -> Option<whole_board::Heuristic> {
        let side = puzzle.start().side();
        let small = self.options.tables.is_small();
        if method != Method::Finished || method::whole_board(side, small).is_none() {
            return None;
        }
        Some(self.whole.heuristic(
            side,
            puzzle.goal().cells(),
            small,
            self.options.cache.as_ref(),
            self.jobs,
            &mut |event| events(&SolveEvent::Table(event)),
        ))
    }

    /// Whether solving `puzzle` may take long and looks at
    /// [`SolveOptions::stop`]: 5x5 boards, and larger ones with
    /// [`SolveOptions::shortest`]. The other methods take a fraction of a
    /// second (or, on the largest boards, minutes of writing moves that no
    /// stop could save).
    pub fn stoppable(&self, puzzle: &Puzzle) -> bool {
        let side = puzzle.start().side();
        side <= MAX_SOLVE_SIDE && Method::choose(side, self.options.shortest).stoppable()
    }

    /// Solves `puzzle`: `Ok(None)` when the goal cannot be reached.
    ///
    /// The method is chosen in one place (`Method::choose`), its tables
    /// fetched, and the puzzle goes through it once (`Solver::run`), or,
    /// stopped empty-handed, through the fallback (`Solver::or_fallback`);
    /// what its answer proves is then told (`Solver::label`).
    ///
    /// # Examples
    ///
    /// ```
    /// use puzzle::input::read_puzzle;
    /// use puzzle::board_adt::to_letters;
    /// use puzzle::{Solver, SolveStats};
    /// let puzzle = read_puzzle(&b"1 2 3 b\n1 b 3 2\n"[..]).unwrap();
    /// let solution = Solver::default()
    ///     .solve(&puzzle, &mut |_| {}, &mut SolveStats::default())
    ///     .unwrap()
    ///     .unwrap();
    /// assert_eq!(to_letters(&solution.moves.to_vec()), "D");
    /// assert!(solution.proven_shortest);
    /// ```
    pub fn solve(
        &self,
        puzzle: &Puzzle,
        events: &mut dyn FnMut(&SolveEvent),
        stats: &mut SolveStats,
    ) -> Result<Option<Solution>, SolveError> {
        if !puzzle.is_solvable() {
            return Ok(None);
        }
        let side = puzzle.start().side();
        if side > MAX_SOLVE_SIDE {
            return Err(SolveError::TooLarge { side });
        }
        let Some(method) = self.method(puzzle) else {
            // Equal boards: nothing to search for, and no table to load.
            return Ok(Some(Solution {
                moves: MoveList::new(),
                proven_shortest: true,
            }));
        };
        stats.method = method.name();
        let began = Instant::now();
        let tables = match method.tables(puzzle.goal().blank()) {
            Some(wanted) => {
                let tables = self.tables(wanted, events)?;
                stats.table_time += began.elapsed();
                Some(tables)
            }
            None => None,
        };
        // The tables of the windows that polish the answer: those that
        // cannot be had leave their windows out.
        let began = Instant::now();
        let windows: Vec<Option<Arc<pattern::Tables>>> = method
            .window_tables(self.options.time_limit.is_some())
            .into_iter()
            .map(|wanted| self.tables(wanted, events).ok())
            .collect();
        // The whole-board beam's tables (6x6 and 7x7, beside the reduction).
        let whole = self.whole_board(method, puzzle, events);
        stats.table_time += began.elapsed();
        // Searching begins once the tables are there; the time limit, too.
        let searching = Instant::now();
        let mut counters = Counters::default();
        let outcome = self.run(
            method,
            puzzle,
            (tables.as_ref(), &windows, whole.as_ref()),
            searching,
            events,
            &mut counters,
        );
        if method.counts_nodes() {
            stats.nodes = counters.expanded;
            stats.details = std::mem::take(&mut counters.details);
        }
        let outcome = self.or_fallback(outcome, puzzle, events, stats, &mut counters);
        let solution = self.label(method, puzzle, outcome, events);
        stats.search_time = searching.elapsed();
        Ok(Some(solution))
    }

    /// The method for a solvable `puzzle` no larger than [`MAX_SOLVE_SIDE`];
    /// `None` when there is nothing to do: a 5x5 or larger board equal to
    /// its goal (the smaller ones go through their tables, which answer at
    /// once), or a puzzle that cannot be solved.
    fn method(&self, puzzle: &Puzzle) -> Option<Method> {
        let (start, goal) = (puzzle.start(), puzzle.goal());
        let side = start.side();
        let nothing =
            !puzzle.is_solvable() || side > MAX_SOLVE_SIDE || (side >= 5 && start == goal);
        (!nothing).then(|| Method::choose(side, self.options.shortest))
    }

    /// Takes `puzzle` through `method`, which reads `tables` (those of
    /// [`Method::tables`]; for [`Method::Finished`], without them, the
    /// reduction goes down to a 3x3 corner instead) and polishes its answer
    /// with the `windows` tables (those of [`Method::window_tables`]), and
    /// searches from `searching`.
    fn run(
        &self,
        method: Method,
        puzzle: &Puzzle,
        (tables, windows, whole): Fetched<'_>,
        searching: Instant,
        events: &mut dyn FnMut(&SolveEvent),
        counters: &mut Counters,
    ) -> Outcome {
        let (start, goal) = (puzzle.start(), puzzle.goal());
        // `solve` fetched the tables of `Method::tables` before this.
        let fetched = || tables.expect("the method's tables are fetched before it runs");
        let mut tell = |p: &SearchProgress| events(&SolveEvent::Search(p));
        let limits = self.limits(method, searching);
        match method {
            Method::Tables => small::solve(start, goal),
            Method::Patterns => {
                pattern::solve(start, goal, fetched(), &limits, counters, &mut |_| {})
            }
            Method::Shortest => {
                near::shortest(start, goal, fetched(), &limits, counters, &mut tell)
            }
            Method::Near => near::solve(start, goal, fetched(), &limits, counters),
            Method::Manhattan => manhattan::solve(start, goal, &limits, counters, &mut tell),
            Method::Finished => match tables {
                Some(corner) => {
                    let plan = self.finishing(start.side(), (corner, windows, whole), &limits);
                    finished::solve(start, goal, &plan, &limits, counters)
                }
                None => constructive::solve(start, goal),
            },
            Method::Constructive => constructive::solve(start, goal),
        }
    }

    /// The limits `method` searches under from `searching` on: the
    /// options' deadline and stop where it looks at them, on every thread
    /// where it can use more than one.
    fn limits(&self, method: Method, searching: Instant) -> Limits<'static> {
        let (jobs, deadline, stop) = (self.jobs, self.deadline(searching), self.options.stop);
        match method {
            // The tables and the reduction to a 3x3 corner search nothing;
            // a 4x4 search takes milliseconds: one thread, nothing to stop.
            Method::Tables | Method::Patterns | Method::Constructive => Limits::UNLIMITED,
            Method::Shortest => Limits {
                jobs,
                deadline,
                report_every: Some(Duration::from_secs(1)),
                stop,
                max_nodes: None,
                astar_memory: self.options.astar_memory,
            },
            Method::Near | Method::Finished => Limits {
                jobs,
                deadline,
                stop,
                ..Limits::UNLIMITED
            },
            // One thread.
            Method::Manhattan => Limits {
                deadline,
                stop,
                ..Limits::UNLIMITED
            },
        }
    }

    /// What [`Method::Finished`] runs on (`finished.rs`) for a `side`-wide
    /// board: the tables fetched for it (the 5x5 corner's, the windows' and
    /// the whole-board beam's heuristic) and the efforts `method.rs` chooses
    /// by the side and the options; the polish ends by `limits.deadline`.
    fn finishing<'a>(
        &self,
        side: usize,
        (corner, windows, whole): Reducing<'a>,
        limits: &Limits<'_>,
    ) -> finished::Plan<'a> {
        let small = self.options.tables.is_small();
        let anytime = self.options.time_limit.is_some();
        let four = |class: usize| windows.get(class).and_then(|t| t.as_deref());
        finished::Plan {
            corner,
            reduction: method::reduction(side, small),
            whole_board: whole.zip(method::whole_board(side, small)),
            polish: Method::Finished
                .polish(anytime)
                .map(|plan| polish::Windows {
                    four: [four(0), four(1), four(2)],
                    plan,
                    deadline: limits.deadline,
                }),
            spare: self.options.time_limit.unwrap_or_default() / 10,
        }
    }

    /// `outcome`, or, where the method was stopped before it found any
    /// solution, the same with the answer of [`Method::fallback`] for
    /// `puzzle` (a reduction: it always ends), which `stats` then names.
    fn or_fallback(
        &self,
        outcome: Outcome,
        puzzle: &Puzzle,
        events: &mut dyn FnMut(&SolveEvent),
        stats: &mut SolveStats,
        counters: &mut Counters,
    ) -> Outcome {
        let Outcome::Stopped {
            lower_bound,
            best: None,
        } = outcome
        else {
            return outcome;
        };
        stats.method = "row-by-row reduction (the search was stopped)";
        let fallback = Method::fallback(puzzle.start().side());
        // Its tables, if loaded already (or loadable now).
        let tables = fallback
            .tables(0)
            .and_then(|wanted| self.tables(wanted, events).ok());
        let searching = Instant::now();
        let fetched = (tables.as_ref(), &[][..], None);
        match self.run(fallback, puzzle, fetched, searching, events, counters) {
            Outcome::Solved(moves) => Outcome::Stopped {
                lower_bound,
                best: Some(moves),
            },
            _ => unreachable!("the reduction always ends"),
        }
    }

    /// The solution `method` gave for `puzzle`, labelled: a shortest one if
    /// the method promises it or its length meets a lower bound (the
    /// Manhattan distance, or what the method proved), else told on `events`
    /// as [`SolveEvent::Unproven`], with why the search was stopped if it
    /// was.
    fn label(
        &self,
        method: Method,
        puzzle: &Puzzle,
        outcome: Outcome,
        events: &mut dyn FnMut(&SolveEvent),
    ) -> Solution {
        let (start, goal) = (puzzle.start(), puzzle.goal());
        let manhattan = || manhattan::lower_bound(start.side(), start.cells(), goal.cells());
        let (moves, lower_bound, stopped) = match outcome {
            Outcome::Solved(moves) if method.exact() => {
                return Solution {
                    moves,
                    proven_shortest: true,
                }
            }
            Outcome::Solved(moves) => (moves, manhattan(), None),
            Outcome::Unproven { moves, lower_bound } => (moves, u64::from(lower_bound), None),
            Outcome::Stopped { lower_bound, best } => {
                let moves = best.expect("a stopped method's answer, or the fallback's");
                let why = match self.options.stop {
                    Some(stop) if stop.load(Ordering::Relaxed) => Stop::Interrupted,
                    _ => Stop::TimeLimit,
                };
                (moves, u64::from(lower_bound).max(manhattan()), Some(why))
            }
        };
        let length = moves.len() as u64;
        let proven_shortest = length <= lower_bound;
        if !proven_shortest {
            events(&SolveEvent::Unproven {
                lower_bound,
                moves: length,
                stopped,
            });
        }
        Solution {
            moves,
            proven_shortest,
        }
    }

    /// The tables `wanted`, from the shelf, loaded or built on first need.
    fn tables(
        &self,
        wanted: TablesFor,
        events: &mut dyn FnMut(&SolveEvent),
    ) -> Result<Arc<pattern::Tables>, SolveError> {
        let shelf = if wanted.partition.side == 4 {
            &self.fifteen
        } else {
            &self.twentyfour
        };
        shelf
            .tables(
                self.options.cache.as_ref(),
                self.options.tables,
                wanted.goal_blank,
                &mut |event| events(&SolveEvent::Table(event)),
            )
            .map_err(SolveError::Tables)
    }

    /// When a search that begins at `searching` must stop:
    /// [`SolveOptions::time_limit`] later.
    fn deadline(&self, searching: Instant) -> Option<Instant> {
        self.options.time_limit.map(|t| searching + t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_adt::moves::Move;
    use crate::board_adt::Board;
    use crate::generate::{random_puzzle, GoalShape};

    fn solve(puzzle: &Puzzle) -> Option<Solution> {
        // Small in-memory 4x4 tables: unit tests build nothing big.
        let options = SolveOptions {
            shortest: false,
            cache: None,
            tables: TableSet::Small,
            jobs: None,
            time_limit: None,
            stop: None,
            astar_memory: None,
        };
        Solver::new(options)
            .solve(puzzle, &mut |_| {}, &mut SolveStats::default())
            .unwrap()
    }

    #[test]
    fn the_progress_line_says_node_for_one_and_nodes_for_more() {
        let progress = |nodes: u64| SearchProgress {
            bound: 40,
            nodes,
            elapsed: Duration::from_secs(2),
            iteration_done: true,
            best: Some(44),
            iteration_left: None,
            proof_left: None,
        };
        let line = |nodes| SolveEvent::Search(&progress(nodes)).to_string();
        assert_eq!(line(1), "search: bound 40 done, best 44; 1 node, 2 s");
        assert_eq!(line(7), "search: bound 40 done, best 44; 7 nodes, 2 s");
        assert_eq!(
            line(2_500_000),
            "search: bound 40 done, best 44; 2.5 M nodes, 2 s"
        );
    }

    #[test]
    fn the_progress_line_gives_the_time_left_as_a_range() {
        let secs =
            |low: u64, high: u64| Some((Duration::from_secs(low), Duration::from_secs(high)));
        let progress = SearchProgress {
            bound: 40,
            nodes: 5_000_000,
            elapsed: Duration::from_secs(2),
            iteration_done: false,
            best: Some(44),
            iteration_left: secs(12, 12),
            proof_left: secs(50, 130),
        };
        assert_eq!(
            SolveEvent::Search(&progress).to_string(),
            "search: bound 40, best 44; 5.0 M nodes, 2 s; next ~12 s, proof 50 s-2.2 min"
        );
        let progress = SearchProgress {
            iteration_left: secs(4, 9),
            proof_left: secs(7200, 11_000),
            ..progress
        };
        assert_eq!(
            SolveEvent::Search(&progress).to_string(),
            "search: bound 40, best 44; 5.0 M nodes, 2 s; next 4-9 s, proof 2.0-3.1 h"
        );
    }

    /// Replays `solution` on the start board and checks it ends on the goal.
    fn replays(puzzle: &Puzzle, solution: &Solution) {
        let mut board = puzzle.start().clone();
        for (i, mv) in solution.moves.iter().enumerate() {
            assert!(board.slide(mv), "move {i} ({mv}) does not apply");
        }
        assert_eq!(&board, puzzle.goal());
    }

    #[test]
    fn every_size_gets_a_replayable_solution_with_the_right_label() {
        for side in [2, 3, 4, 5, 6, 10] {
            for seed in 0..3 {
                let puzzle = random_puzzle(side, true, GoalShape::Random, seed);
                let puzzle = if side == 4 {
                    // The small tables are slow on hard boards: a scramble.
                    short_scramble(&puzzle, 40, seed)
                } else {
                    puzzle
                };
                let solution = solve(&puzzle).expect("solvable");
                replays(&puzzle, &solution);
                assert_eq!(solution.proven_shortest, side <= 4, "side {side}");
            }
        }
    }

    fn short_scramble(puzzle: &Puzzle, length: usize, seed: u64) -> Puzzle {
        let mut rng = crate::generate::SplitMix64::new(seed);
        let mut board = puzzle.goal().clone();
        for _ in 0..length {
            board.slide(Move::ALL[rng.below(4) as usize]);
        }
        Puzzle::new(board, puzzle.goal().clone()).unwrap()
    }

    #[test]
    fn the_whole_board_beam_only_ever_shortens_the_six_by_six_reduction() {
        let solver = Solver::new(SolveOptions {
            cache: None,
            tables: TableSet::Small,
            jobs: Some(2),
            ..SolveOptions::default()
        });
        let mut rng = crate::generate::SplitMix64::new(25);
        let mut puzzles = Vec::new();
        // Walks from the goal, as DeepCubeA's test states are made, and
        // uniformly random puzzles with random goals.
        let goal = Board::from_cells((1..36).chain([0]).collect()).unwrap();
        for length in [40, 60, 80] {
            let mut start = goal.clone();
            for _ in 0..length {
                start.slide(Move::ALL[rng.below(4) as usize]);
            }
            puzzles.push(Puzzle::new(start, goal.clone()).unwrap());
        }
        for seed in 0..2 {
            puzzles.push(random_puzzle(6, true, GoalShape::Random, seed));
        }
        let mut shorter = 0;
        for puzzle in &puzzles {
            let (start, goal) = (puzzle.start(), puzzle.goal());
            let tables = solver
                .tables(Method::Finished.tables(0).unwrap(), &mut |_| {})
                .unwrap();
            let whole = solver.whole_board(Method::Finished, puzzle, &mut |_| {});
            assert!(whole.is_some(), "6x6 gets the beam");
            let length = |whole: Option<&whole_board::Heuristic>| {
                let mut counters = Counters::default();
                let limits = solver.limits(Method::Finished, Instant::now());
                let plan = solver.finishing(6, (&tables, &[], whole), &limits);
                match finished::solve(start, goal, &plan, &limits, &mut counters) {
                    Outcome::Solved(moves) => {
                        let solution = Solution {
                            moves,
                            proven_shortest: false,
                        };
                        replays(puzzle, &solution);
                        solution.moves.len()
                    }
                    other => panic!("{other:?}"),
                }
            };
            let (alone, beside) = (length(None), length(whole.as_ref()));
            assert!(beside <= alone, "{beside} > {alone}");
            shorter += usize::from(beside < alone);
        }
        // It does shorten some.
        assert!(shorter > 0);
    }

    #[test]
    fn a_stopped_shortest_search_answers_no_longer_than_plain_solve() {
        // `--shortest` starts from plain `--solve`'s answer: stopped at once
        // (a time limit of nothing), it gives that answer, never a longer
        // one (it used to give its first beam's, the forward beam alone).
        let solver = |shortest: bool, time_limit: Option<Duration>| {
            Solver::new(SolveOptions {
                shortest,
                cache: None,
                tables: TableSet::Small,
                jobs: Some(1),
                time_limit,
                ..SolveOptions::default()
            })
        };
        let (plain, stopped) = (solver(false, None), solver(true, Some(Duration::ZERO)));
        for seed in 0..4 {
            let puzzle = random_puzzle(5, true, GoalShape::Random, seed);
            let answer = |solver: &Solver| {
                let mut unproven = None;
                let solution = solver
                    .solve(
                        &puzzle,
                        &mut |event| {
                            if let SolveEvent::Unproven { stopped, .. } = event {
                                unproven = Some(*stopped);
                            }
                        },
                        &mut SolveStats::default(),
                    )
                    .unwrap()
                    .unwrap();
                replays(&puzzle, &solution);
                (solution.moves, unproven)
            };
            let (plain, plain_why) = answer(&plain);
            let (moves, why) = answer(&stopped);
            assert_eq!(
                plain_why,
                Some(None),
                "seed {seed}: not proven, not stopped"
            );
            assert_eq!(why, Some(Some(Stop::TimeLimit)), "seed {seed}");
            assert_eq!(
                moves,
                plain,
                "seed {seed}: {} against {}",
                moves.len(),
                plain.len()
            );
        }
    }

    #[test]
    fn unsolvable_puzzles_have_no_solution() {
        let puzzle = random_puzzle(3, false, GoalShape::Random, 1);
        assert_eq!(solve(&puzzle), None);
    }

    #[test]
    fn equal_boards_need_no_moves() {
        let puzzle = random_puzzle(5, true, GoalShape::Random, 1);
        let same = Puzzle::new(puzzle.goal().clone(), puzzle.goal().clone()).unwrap();
        let solution = solve(&same).unwrap();
        assert!(solution.moves.is_empty());
        assert!(solution.proven_shortest, "no moves is proven shortest");
    }

    #[test]
    fn a_large_solution_as_long_as_the_manhattan_distance_is_shortest() {
        let goal = Board::from_cells((1..25).chain([0]).collect()).unwrap();
        let mut start = goal.clone();
        start.slide(Move::Right);
        start.slide(Move::Down);
        let one = Puzzle::new(start, goal.clone()).unwrap();
        let solution = solve(&one).unwrap();
        assert_eq!(solution.moves.len(), 2);
        assert!(solution.proven_shortest);
        // A random 5x5 is far longer than its Manhattan distance.
        let random = random_puzzle(5, true, GoalShape::Random, 3);
        assert!(!solve(&random).unwrap().proven_shortest);
    }
}
