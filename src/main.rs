//! The `puzzle` command: the client of the `puzzle` library.
//!
//! It owns the command line, picks the streams and maps every outcome to an exit
//! status in one place ([`main`]): bad input is one `error: ` line on stdout and
//! status 1; a failed system call is a message on stderr and status 1; a bad
//! command line is a message on stderr and status 2.

use puzzle::board_adt::Puzzle;
use puzzle::generate::{random_puzzle, GoalShape};
use puzzle::input::{read_puzzle, PuzzleStream};
use puzzle::report;
use puzzle::solve::fifteen::{TableCache, TableEvent, TableSet};
use puzzle::solve::{SolveEvent, SolveOptions, SolveStats, Solver};
use puzzle::{BoardError, ReadError};
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

const USAGE: &str = "\
Usage: puzzle [OPTIONS] [FILE]
       puzzle --generate SIDE [--seed N] [--unsolvable] [--random-goal]

Reads a sliding-tile puzzle, a start board and a goal board, from FILE or
standard input (also when FILE is '-'), checks it, and says whether the goal
can be reached from the start.

Input: two lines, the start board then the goal board, each listing its tiles
row by row. A token is 'b' (the blank) or a number of ASCII digits; tokens are
separated by spaces or tabs. A board of N*N tokens (N >= 2) holds one 'b' and
the tiles 1 .. N*N-1, each once; both boards have the same N. Leading zeros,
spaces and tabs at either end of a line, CRLF line ends, a UTF-8 byte-order
mark and a missing final newline are accepted; after the goal line only blank
lines may follow.

Output: 'start: ...', 'goal: ...' (the boards, tokens joined by single spaces)
and 'solvable' or 'unsolvable'. With --solve, a solvable puzzle gets two more
lines: 'moves: N (shortest)' (or '(not proven shortest)') and 'solution: ...',
one letter a move. A letter names the direction in which the moved TILE slides:
U the tile below the blank slides up, D the tile above slides down, L the tile
right of the blank slides left, R the tile left of it slides right. Solutions
are shortest for 2x2, 3x3 and 4x4 boards (4x4 builds its tables, about 290 MB,
on first use and caches them) and valid for larger ones.

Options:
  -s, --solve           Also print a solution (see above)
      --shortest        With --solve: insist on a shortest solution for 5x5
                        and larger boards too (can take hours; progress on
                        stderr)
      --show            With --solve: print the boards along the solution
      --stats           With --solve: print search statistics on stderr
      --batch           Read many puzzles, consecutive pairs of lines (blank
                        lines between pairs are skipped), and answer each in
                        input order; with --solve, on every core
      --jobs N          With --batch: solve on N threads (default: all cores)
      --cache-dir DIR   Where the 4x4 tables are cached (default:
                        $PUZZLE_CACHE_DIR, else $XDG_CACHE_HOME/puzzle, else
                        ~/.cache/puzzle)
      --build-tables    Build (or check) every 4x4 table in the cache now,
                        then exit; progress on stderr
      --generate SIDE   Print a random SIDExSIDE puzzle in the input format
                        (SIDE from 2 to 20000)
      --seed N          With --generate: the seed (default: from the clock)
      --unsolvable      With --generate: make the goal unreachable
      --random-goal     With --generate: a random goal instead of 1 2 ... b
  -h, --help            Print this help and exit
  -V, --version         Print the version and exit

Exit status:
  0  the input is valid (solvable or not)
  1  the input is invalid (one 'error: ...' line on stdout; with --batch, any
     pair), or reading, writing or solving failed (a message on stderr)
  2  the command line is wrong (a message on stderr)
";

/// The largest side `--generate` makes: two boards of 400 million cells take
/// 3.2 GB, which is as far as a generator for tests and benchmarks should go.
const MAX_GENERATE_SIDE: u64 = 20_000;

/// Why the command stops early; each maps to one stream and one exit status.
enum Failure {
    /// The input is not a valid puzzle: stdout, status 1.
    Invalid(BoardError),
    /// Some input of a batch was invalid (already reported on stdout): status 1.
    SomeInvalid,
    /// A system call (or the solver) failed: stderr, status 1.
    System(String),
    /// The command line is wrong: stderr, status 2.
    Usage(String),
}

/// What the command line asks for.
enum Command {
    Help,
    Version,
    Check(CheckArgs),
    Generate(GenerateArgs),
    BuildTables { cache: Option<OsString> },
}

#[derive(Default)]
struct CheckArgs {
    file: Option<OsString>,
    solve: bool,
    shortest: bool,
    show: bool,
    stats: bool,
    batch: bool,
    jobs: Option<usize>,
    cache: Option<OsString>,
}

struct GenerateArgs {
    side: usize,
    seed: Option<u64>,
    solvable: bool,
    goal: GoalShape,
}

fn main() -> ExitCode {
    let result = parse_args(std::env::args_os().skip(1)).and_then(|command| {
        check_standard_streams(&command)?;
        if uses_big_tables(&command) {
            ask_for_huge_pages();
        }
        run(command)
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Invalid(error)) => {
            let mut out = io::stdout().lock();
            match writeln!(out, "error: {error}").and_then(|()| out.flush()) {
                Ok(()) => ExitCode::FAILURE,
                Err(e) => system_failure(&format!("cannot write the output: {e}")),
            }
        }
        Err(Failure::SomeInvalid) => ExitCode::FAILURE,
        Err(Failure::System(message)) => system_failure(&message),
        Err(Failure::Usage(message)) => {
            // If even stderr is gone there is no one left to tell.
            let _ = writeln!(
                io::stderr(),
                "puzzle: {message}\nTry 'puzzle --help' for more information."
            );
            ExitCode::from(2)
        }
    }
}

fn system_failure(message: &str) -> ExitCode {
    let _ = writeln!(io::stderr(), "puzzle: {message}");
    ExitCode::FAILURE
}

/// A line on stderr about work in progress; lost if stderr is gone.
fn note(message: &dyn std::fmt::Display) {
    let _ = writeln!(io::stderr(), "puzzle: {message}");
}

fn parse_args(args: impl Iterator<Item = OsString>) -> Result<Command, Failure> {
    let mut check = CheckArgs::default();
    let mut generate = None;
    let mut seed = None;
    let mut unsolvable = false;
    let mut random_goal = false;
    let mut build_tables = false;
    let mut args = args.peekable();
    let mut only_files = false;
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        if only_files || text == "-" || !text.starts_with('-') {
            if check.file.is_some() {
                return Err(Failure::Usage(format!(
                    "unexpected argument '{text}': one FILE at most"
                )));
            }
            check.file = Some(arg);
            continue;
        }
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => {
                (name.to_string(), Some(value.to_string()))
            }
            _ => (text.to_string(), None),
        };
        let mut value = |what: &str| -> Result<String, Failure> {
            let next = || args.next().map(|v| v.to_string_lossy().into_owned());
            inline
                .clone()
                .or_else(next)
                .ok_or_else(|| Failure::Usage(format!("option '{name}' needs a value: {what}")))
        };
        let flag = |inline: &Option<String>| match inline {
            Some(_) => Err(Failure::Usage(format!("option '{name}' takes no value"))),
            None => Ok(true),
        };
        match name.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--" => only_files = true,
            "-s" | "--solve" => check.solve = flag(&inline)?,
            "--shortest" => check.shortest = flag(&inline)?,
            "--show" => check.show = flag(&inline)?,
            "--stats" => check.stats = flag(&inline)?,
            "--batch" => check.batch = flag(&inline)?,
            "--jobs" => {
                let jobs = number(&name, &value("a number of threads")?)?;
                if jobs == 0 {
                    return Err(Failure::Usage("--jobs needs at least 1".into()));
                }
                check.jobs = Some(jobs as usize);
            }
            "--cache-dir" => check.cache = Some(value("a directory")?.into()),
            "--build-tables" => build_tables = flag(&inline)?,
            "--generate" => generate = Some(number(&name, &value("the board's side")?)?),
            "--seed" => seed = Some(number(&name, &value("a number")?)?),
            "--unsolvable" => unsolvable = flag(&inline)?,
            "--random-goal" => random_goal = flag(&inline)?,
            _ => return Err(Failure::Usage(format!("unknown option '{text}'"))),
        }
    }
    let solving_options = check.shortest || check.show || check.stats;
    if solving_options && !check.solve {
        return Err(Failure::Usage(
            "--shortest, --show and --stats go with --solve".into(),
        ));
    }
    if check.jobs.is_some() && !check.batch {
        return Err(Failure::Usage("--jobs goes with --batch".into()));
    }
    if build_tables {
        if check.file.is_some() || check.solve || check.batch || generate.is_some() {
            return Err(Failure::Usage(
                "--build-tables reads nothing; it goes with --cache-dir only".into(),
            ));
        }
        return Ok(Command::BuildTables { cache: check.cache });
    }
    match generate {
        Some(side) => {
            if check.file.is_some() || check.solve || check.batch {
                return Err(Failure::Usage(
                    "--generate reads nothing and solves nothing".into(),
                ));
            }
            if !(2..=MAX_GENERATE_SIDE).contains(&side) {
                return Err(Failure::Usage(format!(
                    "--generate needs a side from 2 to {MAX_GENERATE_SIDE}, not {side}"
                )));
            }
            Ok(Command::Generate(GenerateArgs {
                side: side as usize,
                seed,
                solvable: !unsolvable,
                goal: if random_goal {
                    GoalShape::Random
                } else {
                    GoalShape::Standard
                },
            }))
        }
        None if seed.is_some() || unsolvable || random_goal => Err(Failure::Usage(
            "--seed, --unsolvable and --random-goal go with --generate".into(),
        )),
        None => Ok(Command::Check(check)),
    }
}

fn number(option: &str, value: &str) -> Result<u64, Failure> {
    value.parse().map_err(|_| {
        Failure::Usage(format!(
            "option '{option}' needs a whole number, not '{value}'"
        ))
    })
}

fn run(command: Command) -> Result<(), Failure> {
    let mut out = BufWriter::with_capacity(1 << 16, raw_stdout());
    match command {
        Command::Help => write_out(&mut out, |out| out.write_all(USAGE.as_bytes())),
        Command::Version => write_out(&mut out, |out| {
            writeln!(out, "puzzle {}", env!("CARGO_PKG_VERSION"))
        }),
        Command::Generate(args) => {
            let seed = args.seed.unwrap_or_else(clock_seed);
            let puzzle = random_puzzle(args.side, args.solvable, args.goal, seed);
            write_out(&mut out, |out| {
                puzzle.start().write_tokens(out)?;
                out.write_all(b"\n")?;
                puzzle.goal().write_tokens(out)?;
                out.write_all(b"\n")
            })
        }
        Command::BuildTables { cache } => {
            let solver = Solver::new(solve_options(false, &cache));
            let began = std::time::Instant::now();
            solver
                .build_tables(&mut |event: &SolveEvent| note(event))
                .map_err(|e| Failure::System(e.to_string()))?;
            note(&format_args!(
                "4x4 tables ready in {:.1} s",
                began.elapsed().as_secs_f64()
            ));
            Ok(())
        }
        Command::Check(args) => {
            let (input, name): (Box<dyn Read>, String) = match &args.file {
                Some(path) if path != "-" => {
                    let name = path.to_string_lossy().into_owned();
                    let file = File::open(path)
                        .map_err(|e| Failure::System(format!("cannot open '{name}': {e}")))?;
                    (Box::new(file), format!("'{name}'"))
                }
                _ => (Box::new(io::stdin().lock()), "standard input".into()),
            };
            let solver = Solver::new(solve_options(args.shortest, &args.cache));
            if args.batch {
                return batch(input, &name, &args, &solver, &mut out);
            }
            let puzzle = read_puzzle(input).map_err(|e| read_failure(e, &name))?;
            write_out(&mut out, |out| report::write_verdict(out, &puzzle))?;
            if args.solve {
                let answer = solve_one(&puzzle, &args, &solver)?;
                write_out(&mut out, |out| out.write_all(&answer))?;
            }
            Ok(())
        }
    }
}

fn solve_options(shortest: bool, cache: &Option<OsString>) -> SolveOptions {
    SolveOptions {
        shortest,
        cache: match cache {
            Some(dir) => Some(TableCache::new(dir.into())),
            None => TableCache::from_env(),
        },
        tables: TableSet::Standard,
    }
}

fn read_failure(error: ReadError, name: &str) -> Failure {
    match error {
        ReadError::Invalid(e) => Failure::Invalid(e),
        ReadError::Io(e) => Failure::System(format!("cannot read {name}: {e}")),
    }
}

/// The solution lines (and boards, with --show) for a solvable `puzzle`, or
/// nothing for an unsolvable one. Progress and statistics go to stderr.
fn solve_one(puzzle: &Puzzle, args: &CheckArgs, solver: &Solver) -> Result<Vec<u8>, Failure> {
    let mut stats = SolveStats::default();
    let mut report = |event: &SolveEvent| match event {
        // Loading takes a fraction of a second: worth a line only with --stats.
        SolveEvent::Table(TableEvent::Loading { .. } | TableEvent::Loaded { .. })
            if !args.stats => {}
        _ => note(event),
    };
    let solution = solver
        .solve(puzzle, &mut report, &mut stats)
        .map_err(|e| Failure::System(e.to_string()))?;
    let mut answer = Vec::new();
    if let Some(solution) = solution {
        // Writing to memory cannot fail.
        let _ = report::write_solution(&mut answer, &solution);
        if args.show {
            let _ = report::write_boards(&mut answer, puzzle.start(), &solution.moves);
        }
        if args.stats {
            note(&format_args!(
                "stats: {} moves by {}; {} nodes; search {:.6} s; tables {:.3} s",
                solution.moves.len(),
                stats.method,
                stats.nodes,
                stats.search_time.as_secs_f64(),
                stats.table_time.as_secs_f64()
            ));
        }
    }
    Ok(answer)
}

/// `--batch`: answers every pair of lines in input order; with --solve, the
/// puzzles are solved on `--jobs` threads, sharing one solver (and its tables).
fn batch(
    input: Box<dyn Read>,
    name: &str,
    args: &CheckArgs,
    solver: &Solver,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut items = Vec::new();
    let mut any_invalid = false;
    for item in PuzzleStream::new(input) {
        match item {
            Ok(puzzle) => items.push(Ok(puzzle)),
            Err(ReadError::Invalid(e)) => {
                any_invalid = true;
                items.push(Err(e));
            }
            Err(e) => return Err(read_failure(e, name)),
        }
    }
    let answer = |item: &Result<Puzzle, BoardError>| -> Result<Vec<u8>, Failure> {
        let mut text = Vec::new();
        match item {
            Err(e) => {
                let _ = writeln!(text, "error: {e}");
            }
            Ok(puzzle) => {
                let _ = report::write_verdict(&mut text, puzzle);
                if args.solve {
                    text.extend(solve_one(puzzle, args, solver)?);
                }
            }
        }
        Ok(text)
    };
    let jobs = if args.solve {
        args.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .min(items.len().max(1))
    } else {
        1
    };
    if jobs <= 1 {
        for item in &items {
            let text = answer(item)?;
            write_out(out, |out| out.write_all(&text))?;
        }
    } else {
        // Workers take puzzles in turn and send back their answers; this thread
        // prints them in input order as they arrive.
        let next = AtomicUsize::new(0);
        let (sender, answers) = mpsc::channel::<(usize, Result<Vec<u8>, Failure>)>();
        std::thread::scope(|scope| -> Result<(), Failure> {
            for _ in 0..jobs {
                let sender = sender.clone();
                let (next, items, answer) = (&next, &items, &answer);
                scope.spawn(move || loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    if sender.send((index, answer(item))).is_err() {
                        break;
                    }
                });
            }
            drop(sender);
            let mut pending = std::collections::BTreeMap::new();
            let mut printed = 0;
            for (index, text) in answers {
                pending.insert(index, text);
                while let Some(text) = pending.remove(&printed) {
                    let text = text?;
                    printed += 1;
                    let written = write_out(out, |out| out.write_all(&text));
                    if written.is_err() {
                        // Stop the workers: nothing more can be printed.
                        next.store(items.len(), Ordering::Relaxed);
                        return written;
                    }
                }
            }
            Ok(())
        })?;
    }
    if any_invalid {
        Err(Failure::SomeInvalid)
    } else {
        Ok(())
    }
}

/// Runs `write` on the output and flushes it, turning a failed write (a closed
/// pipe, a full disk) into a failure rather than a panic.
fn write_out<W: Write>(
    out: &mut W,
    write: impl FnOnce(&mut W) -> io::Result<()>,
) -> Result<(), Failure> {
    write(out)
        .and_then(|()| out.flush())
        .map_err(|e| Failure::System(format!("cannot write the output: {e}")))
}

/// Fails if standard input or output was closed when `puzzle` started. The Rust
/// runtime quietly reopens a closed standard descriptor on `/dev/null`
/// (read-write), which would turn a closed output into a silent success and a
/// closed input into an empty one; a descriptor opened read-write on
/// `/dev/null` is taken as that sign (a shell's `> /dev/null` opens it
/// write-only, `< /dev/null` read-only).
fn check_standard_streams(command: &Command) -> Result<(), Failure> {
    let reads_stdin =
        matches!(command, Command::Check(args) if args.file.as_ref().is_none_or(|f| f == "-"));
    if reads_stdin && reopened_on_null(0) {
        return Err(Failure::System(
            "cannot read standard input: it is closed".into(),
        ));
    }
    if reopened_on_null(1) {
        return Err(Failure::System(
            "cannot write the output: standard output is closed".into(),
        ));
    }
    Ok(())
}

/// Whether descriptor `fd` is `/dev/null` opened read-write (Linux only; `false`
/// wherever `/proc` cannot tell).
fn reopened_on_null(fd: u32) -> bool {
    let Ok(target) = std::fs::read_link(format!("/proc/self/fd/{fd}")) else {
        return false;
    };
    if target != std::path::Path::new("/dev/null") {
        return false;
    }
    let Ok(info) = std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")) else {
        return false;
    };
    info.lines()
        .find_map(|line| line.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
        .is_some_and(|flags| flags & 0o3 == 0o2)
}

/// Whether the command may load or build the 4x4 tables (hundreds of MB).
fn uses_big_tables(command: &Command) -> bool {
    matches!(
        command,
        Command::BuildTables { .. } | Command::Check(CheckArgs { solve: true, .. })
    )
}

/// The glibc tunable that makes `malloc` ask for transparent huge pages.
const HUGE_PAGES: &str = "glibc.malloc.hugetlb=1";

/// Restarts `puzzle` with glibc's `malloc` asking for transparent huge pages,
/// unless it already does; returns only if it cannot (then nothing changes).
///
/// Why: the 4x4 search reads its 259 MB table at random, and with 4 KiB pages
/// most reads also miss the TLB. Where the kernel gives huge pages only on
/// request (`madvise` mode, the common default), glibc makes that request for
/// its large blocks when this tunable is set at start-up; the standard library
/// has no other way to make it. Measured on Korf's 100 (`make bench-solve`):
/// search 0.22-0.26 s instead of 0.25-0.33 s, table load 0.1 s instead of 0.2 s.
/// A glibc that does not know the tunable ignores it.
fn ask_for_huge_pages() {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let tunables = std::env::var_os("GLIBC_TUNABLES").unwrap_or_default();
        if tunables.to_string_lossy().contains("glibc.malloc.hugetlb") {
            return;
        }
        let Ok(me) = std::env::current_exe() else {
            return;
        };
        let mut wanted = tunables;
        if !wanted.is_empty() {
            wanted.push(":");
        }
        wanted.push(HUGE_PAGES);
        // `exec` replaces this process (same descriptors, nothing read yet) and
        // returns only on failure.
        let _ = std::process::Command::new(me)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", wanted)
            .exec();
    }
}

/// Standard output without the line buffering of `io::stdout()`, which scans
/// every write for a newline (2% of the time on a million-cell board): a
/// duplicate of its descriptor, written through our own `BufWriter`.
#[cfg(unix)]
fn raw_stdout() -> Box<dyn Write> {
    use std::os::fd::AsFd;
    match io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => Box::new(File::from(fd)),
        Err(_) => Box::new(io::stdout()),
    }
}

#[cfg(not(unix))]
fn raw_stdout() -> Box<dyn Write> {
    Box::new(io::stdout())
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
