//! The `puzzle` command: the client of the `puzzle` library.
//!
//! It owns the command line, picks the streams and maps every outcome to an exit
//! status in one place ([`main`]): bad input is one `error: ` line on stdout and
//! status 1; a failed system call is a message on stderr and status 1; a bad
//! command line is a message on stderr and status 2.

use puzzle::batch::{run_batch, BatchError, BatchNote, BatchOptions, Notes, MAX_JOBS};
use puzzle::board_adt::Puzzle;
use puzzle::generate::{random_puzzle, GoalShape};
use puzzle::input::read_puzzle;
use puzzle::report;
use puzzle::solve::{SolveEvent, SolveOptions, SolveStats, Solver};
use puzzle::solve::{TableCache, TableEvent, TableSet};
use puzzle::{BoardError, ReadError};
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;
use std::sync::Arc;

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
on first use and caches them), and for 5x5 with --shortest (its tables, about
260 MB a goal class, are built on first use and cached too); valid for larger
ones.

Options:
  -s, --solve           Also print a solution (see above)
      --shortest        With --solve: insist on a shortest solution for 5x5
                        and larger boards too (5x5: seconds to hours, on
                        every core; larger: only short distances; progress
                        on stderr)
      --time-limit SECONDS
                        With --shortest: give up the search after SECONDS
                        (tables not counted) and print the constructive
                        solution, not proven shortest; stderr says how long
                        the shortest is at least
      --show            With --solve: print the boards along the solution
      --stats           With --solve: print search statistics on stderr
      --batch           Read many puzzles, consecutive pairs of lines (blank
                        lines between pairs are skipped), and answer each in
                        input order as soon as it is done ('error: pair N: ...'
                        for a bad pair); with --solve, on every core
      --jobs N          Threads (default: all cores; at most 256): with
                        --batch, puzzles solved at once; else the threads that
                        search one 5x5 puzzle with --shortest (the same
                        answer for any N)
      --cache-dir DIR   Where the 4x4 and 5x5 tables are cached (default:
                        $PUZZLE_CACHE_DIR, else $XDG_CACHE_HOME/puzzle, else
                        ~/.cache/puzzle; an empty DIR or PUZZLE_CACHE_DIR is
                        an error)
      --build-tables[=SIDE]
                        Build (or check) every table in the cache now, then
                        exit; progress on stderr. All: 4x4 (375 MB, about
                        10 s) and 5x5 (637 MB, about 30 s); =4 or =5 for
                        one size
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
     pair), or reading, writing or solving failed (a message on stderr; with
     --batch, a pair that could not be solved still gets its verdict)
  2  the command line is wrong (a message on stderr)
";

/// The largest side `--generate` makes: two boards of 400 million cells take
/// 3.2 GB, which is as far as a generator for tests and benchmarks should go.
const MAX_GENERATE_SIDE: u64 = 20_000;

/// Why the command stops early; each maps to one stream and one exit status.
enum Failure {
    /// The input is not a valid puzzle: stdout, status 1.
    Invalid(BoardError),
    /// Some pair of a batch was invalid or could not be solved (already reported
    /// on stdout or stderr): status 1.
    NotAllAnswered,
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
    BuildTables {
        cache: Option<OsString>,
        sides: Vec<usize>,
    },
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
    time_limit: Option<std::time::Duration>,
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
        Err(Failure::NotAllAnswered) => ExitCode::FAILURE,
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
    let mut build_tables: Option<Vec<usize>> = None;
    let mut args = args.peekable();
    let mut only_files = false;
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy().into_owned();
        if only_files || text == "-" || !text.starts_with('-') {
            if check.file.is_some() {
                return Err(Failure::Usage(format!(
                    "unexpected argument '{text}': one FILE at most"
                )));
            }
            check.file = Some(arg);
            continue;
        }
        // `--name=value`; the value keeps its bytes (a directory need not be
        // UTF-8). `--=x` is no option at all.
        let (name, inline) = match split_inline_value(&arg) {
            Some((name, value)) if name.len() > 2 => (name, Some(value)),
            _ => (text.clone(), None),
        };
        let mut value = |what: &str| -> Result<OsString, Failure> {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| Failure::Usage(format!("option '{name}' needs a value: {what}")))
        };
        let flag = |inline: &Option<OsString>| match inline {
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
                    return Err(Failure::Usage(format!(
                        "option '{name}' needs at least 1 thread, not '0'"
                    )));
                }
                check.jobs = Some(jobs.min(MAX_JOBS as u64) as usize);
            }
            "--cache-dir" => {
                let dir = value("a directory")?;
                if dir.is_empty() {
                    return Err(Failure::Usage(
                        "--cache-dir needs a directory, not an empty value".into(),
                    ));
                }
                check.cache = Some(dir);
            }
            "--build-tables" => {
                build_tables = Some(match inline.as_ref().map(|v| v.to_string_lossy()) {
                    None => vec![4, 5],
                    Some(v) if v == "4" => vec![4],
                    Some(v) if v == "5" => vec![5],
                    Some(v) => {
                        return Err(Failure::Usage(format!(
                            "--build-tables takes 4 or 5 (a board's side), not '{v}'"
                        )))
                    }
                })
            }
            "--time-limit" => {
                let text = value("a number of seconds")?.to_string_lossy().into_owned();
                match text.parse::<f64>() {
                    Ok(secs) if secs.is_finite() && secs > 0.0 && secs < 1e9 => {
                        check.time_limit = Some(std::time::Duration::from_secs_f64(secs))
                    }
                    _ => {
                        return Err(Failure::Usage(format!(
                            "option '--time-limit' needs a number of seconds above 0, not '{text}'"
                        )))
                    }
                }
            }
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
    if check.jobs.is_some() && !check.batch && !check.solve {
        return Err(Failure::Usage("--jobs goes with --batch or --solve".into()));
    }
    if check.time_limit.is_some() && !check.shortest {
        return Err(Failure::Usage("--time-limit goes with --shortest".into()));
    }
    if let Some(sides) = build_tables {
        if check.file.is_some() || check.solve || check.batch || generate.is_some() {
            return Err(Failure::Usage(
                "--build-tables reads nothing; it goes with --cache-dir only".into(),
            ));
        }
        return Ok(Command::BuildTables {
            cache: cache_dir(check.cache)?,
            sides,
        });
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
        None => {
            if check.solve {
                check.cache = cache_dir(check.cache)?;
            }
            Ok(Command::Check(check))
        }
    }
}

/// Splits `--name=value` at its first `=`, keeping the value's bytes as they are.
fn split_inline_value(arg: &OsString) -> Option<(String, OsString)> {
    let bytes = arg.as_encoded_bytes();
    if !bytes.starts_with(b"--") {
        return None;
    }
    let at = bytes.iter().position(|&b| b == b'=')?;
    let name = String::from_utf8_lossy(&bytes[..at]).into_owned();
    Some((name, os_string_from_bytes(&bytes[at + 1..])))
}

#[cfg(unix)]
fn os_string_from_bytes(bytes: &[u8]) -> OsString {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::OsStr::from_bytes(bytes).to_owned()
}

#[cfg(not(unix))]
fn os_string_from_bytes(bytes: &[u8]) -> OsString {
    String::from_utf8_lossy(bytes).into_owned().into()
}

/// The cache directory a command that may use the tables asks for: `--cache-dir`,
/// else `$PUZZLE_CACHE_DIR` (checked here), else the library's defaults. An empty
/// value of either is refused: it is almost always an unset variable in a script,
/// and would put hundreds of MB in the current directory.
fn cache_dir(option: Option<OsString>) -> Result<Option<OsString>, Failure> {
    if option.is_some() {
        return Ok(option);
    }
    match std::env::var_os("PUZZLE_CACHE_DIR") {
        Some(dir) if dir.is_empty() => Err(Failure::Usage(
            "PUZZLE_CACHE_DIR is set but empty: set it to a directory, or unset it".into(),
        )),
        dir => Ok(dir),
    }
}

fn number(option: &str, value: &OsString) -> Result<u64, Failure> {
    let text = value.to_string_lossy();
    text.parse().map_err(|_| {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        Failure::Usage(if digits {
            format!(
                "option '{option}' takes whole numbers up to {}, not '{text}'",
                u64::MAX
            )
        } else {
            format!("option '{option}' needs a whole number, not '{text}'")
        })
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
        Command::BuildTables { cache, sides } => {
            let solver = Solver::new(solve_options(&CheckArgs::default(), &cache));
            let began = std::time::Instant::now();
            solver
                .build_tables(&sides, &mut |event: &SolveEvent| note(event))
                .map_err(|e| Failure::System(e.to_string()))?;
            let names: Vec<String> = sides.iter().map(|s| format!("{s}x{s}")).collect();
            note(&format_args!(
                "{} tables ready in {:.1} s",
                names.join(" and "),
                began.elapsed().as_secs_f64()
            ));
            Ok(())
        }
        Command::Check(args) => {
            let (input, name): (Box<dyn Read + Send>, String) = match &args.file {
                Some(path) if path != "-" => {
                    let name = path.to_string_lossy().into_owned();
                    let file = File::open(path)
                        .map_err(|e| Failure::System(format!("cannot open '{name}': {e}")))?;
                    (Box::new(file), format!("'{name}'"))
                }
                _ => (Box::new(io::stdin()), "standard input".into()),
            };
            let solver = Solver::new(solve_options(&args, &args.cache));
            if args.batch {
                return batch(input, &name, &args, solver, &mut out);
            }
            let puzzle = read_puzzle(input).map_err(|e| read_failure(e, &name))?;
            write_out(&mut out, |out| report::write_verdict(out, &puzzle))?;
            if args.solve {
                solve_one(&puzzle, &args, &solver, &mut out)?;
            }
            Ok(())
        }
    }
}

fn solve_options(args: &CheckArgs, cache: &Option<OsString>) -> SolveOptions {
    SolveOptions {
        shortest: args.shortest,
        cache: match cache {
            Some(dir) => Some(TableCache::new(dir.into())),
            None => TableCache::from_env(),
        },
        tables: TableSet::Standard,
        // A batch solves its puzzles side by side, one thread each.
        jobs: if args.batch { Some(1) } else { args.jobs },
        time_limit: args.time_limit,
    }
}

fn read_failure(error: ReadError, name: &str) -> Failure {
    match error {
        ReadError::Invalid(e) => Failure::Invalid(e),
        ReadError::Io(e) => Failure::System(format!("cannot read {name}: {e}")),
    }
}

/// Whether a solver event is worth a line on stderr: loading takes a fraction of
/// a second, worth a line only with --stats.
fn worth_telling(event: &SolveEvent, stats: bool) -> bool {
    stats
        || !matches!(
            event,
            SolveEvent::Table(TableEvent::Loading { .. } | TableEvent::Loaded { .. })
        )
}

fn stats_line(moves: usize, stats: &SolveStats) -> String {
    format!(
        "stats: {moves} moves by {}; {} nodes; search {:.6} s; tables {:.3} s",
        stats.method,
        stats.nodes,
        stats.search_time.as_secs_f64(),
        stats.table_time.as_secs_f64()
    )
}

/// Solves `puzzle` and streams its solution lines (and boards, with --show) to
/// `out`; an unsolvable puzzle gets nothing. Progress and statistics go to stderr.
fn solve_one(
    puzzle: &Puzzle,
    args: &CheckArgs,
    solver: &Solver,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut stats = SolveStats::default();
    let mut report = |event: &SolveEvent| {
        if worth_telling(event, args.stats) {
            note(event);
        }
    };
    let solution = solver
        .solve(puzzle, &mut report, &mut stats)
        .map_err(|e| Failure::System(e.to_string()))?;
    let Some(solution) = solution else {
        return Ok(());
    };
    write_out(out, |out| {
        report::write_solution(out, &solution)?;
        if args.show {
            report::write_boards(out, puzzle.start(), &solution.moves)?;
        }
        Ok(())
    })?;
    if args.stats {
        note(&stats_line(solution.moves.len(), &stats));
    }
    Ok(())
}

/// `--batch`: every pair answered in input order as it comes (the pipeline is
/// [`puzzle::batch`]); notes about a pair go to stderr with its number.
fn batch(
    input: Box<dyn Read + Send>,
    name: &str,
    args: &CheckArgs,
    solver: Solver,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let options = BatchOptions {
        solve: args.solve,
        show: args.show,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    };
    let stats = args.stats;
    let notes: Notes = Arc::new(move |batch_note: &BatchNote| match batch_note {
        BatchNote::Progress { pair, event } => {
            if worth_telling(event, stats) {
                note(&format_args!("pair {pair}: {event}"));
            }
        }
        BatchNote::Solved {
            pair,
            moves,
            stats: solve_stats,
        } => {
            if stats {
                note(&format_args!(
                    "pair {pair}: {}",
                    stats_line(*moves, solve_stats)
                ));
            }
        }
        BatchNote::Unsolved { pair, error } => note(&format_args!("pair {pair}: {error}")),
    });
    match run_batch(input, out, Arc::new(solver), &options, notes) {
        Ok(summary) if summary.all_answered() => Ok(()),
        Ok(_) => Err(Failure::NotAllAnswered),
        Err(BatchError::Read(e)) => Err(Failure::System(format!("cannot read {name}: {e}"))),
        Err(e) => Err(Failure::System(e.to_string())),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&[u8]]) -> Result<Command, Failure> {
        parse_args(list.iter().map(|bytes| os_string_from_bytes(bytes)))
    }

    #[test]
    fn a_cache_directory_keeps_its_bytes() {
        // Not UTF-8: the directory must be used as given, not "repaired".
        for list in [
            &[b"--solve".as_slice(), b"--cache-dir", b"/tmp/caf\xe9"][..],
            &[b"--solve", b"--cache-dir=/tmp/caf\xe9"],
        ] {
            let Ok(Command::Check(check)) = args(list) else {
                panic!("a valid command line")
            };
            assert_eq!(check.cache, Some(os_string_from_bytes(b"/tmp/caf\xe9")));
        }
    }

    #[test]
    fn an_option_needs_a_name_before_its_value() {
        let Err(Failure::Usage(message)) = args(&[b"--=x"]) else {
            panic!("'--=x' is refused")
        };
        assert_eq!(message, "unknown option '--=x'");
        let Ok(Command::Check(check)) = args(&[b"--", b"--=x"]) else {
            panic!("after '--' it is a file")
        };
        assert_eq!(check.file, Some(OsString::from("--=x")));
    }

    #[test]
    fn numbers_out_of_reach_are_named_as_such() {
        let usage = |list: &[&[u8]]| match args(list) {
            Err(Failure::Usage(message)) => message,
            _ => panic!("{list:?} is refused"),
        };
        assert_eq!(
            usage(&[b"--jobs", b"0"]),
            "option '--jobs' needs at least 1 thread, not '0'"
        );
        assert_eq!(
            usage(&[b"--jobs=18446744073709551616"]),
            "option '--jobs' takes whole numbers up to 18446744073709551615, \
             not '18446744073709551616'"
        );
        assert_eq!(
            usage(&[b"--jobs", b"-1"]),
            "option '--jobs' needs a whole number, not '-1'"
        );
        // The largest number is taken, and the threads capped.
        let Ok(Command::Check(check)) = args(&[b"--solve", b"--jobs", b"18446744073709551615"])
        else {
            panic!("a valid command line")
        };
        assert_eq!(check.jobs, Some(MAX_JOBS));
    }
}
