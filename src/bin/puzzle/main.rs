//! The `puzzle` command: the client of the `puzzle` library.
//!
//! It owns the command line ([`args`]), picks the streams and maps every
//! outcome to an exit status in one place ([`main`]): bad input is one
//! `error: ` line on stdout and status 1; a failed system call is a message on
//! stderr and status 1; a bad command line is a message on stderr and status 2.
//! What depends on the operating system is in [`platform`].

#![forbid(unsafe_code)]

mod args;
mod platform;
mod status;

use args::{CheckArgs, Command, Usage};
use puzzle::board_adt::{BoardError, Puzzle};
use puzzle::input::{read_puzzle, ReadError};
use puzzle::{random_puzzle, run_batch, BatchError, BatchNote, BatchOptions, Notes};
use puzzle::{write_boards, write_error, write_explanation, write_solution, write_verdict};
use puzzle::{SolveEvent, SolveOptions, SolveStats, Solver};
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;
use std::sync::Arc;

/// The help text (`-h`, `--help`), followed by [`STATUSES`] ([`statuses`]).
const USAGE: &str = include_str!("usage.txt");

/// How `puzzle` ends: the one table of its exit statuses (`SPEC.md`, §2),
/// each with when, from which `--help`'s list is made.
/// [`Failure`] names which of them each way of stopping early takes.
const STATUSES: &[(u8, &str, &str)] = &[
    (VALID, "0", "the input is valid (solvable or not)"),
    (
        FAILED,
        "1",
        "the input is invalid (one 'error: ...' line on stdout; with --batch, any pair), or reading, writing or solving failed (a message on stderr; with --batch, a pair that could not be solved still gets its verdict)",
    ),
    (USAGE_ERROR, "2", "the command line is wrong (a message on stderr)"),
    (
        SIGNALLED,
        "130, 143",
        "SIGINT (Ctrl-C) or SIGTERM ended a 5x5 or --shortest search; its best answer was printed",
    ),
];

/// `--help`'s list of [`STATUSES`]: each status, then its words, wrapped
/// before the 80th column under it.
fn statuses() -> String {
    let mut listed = String::from("Exit status:\n");
    for (_, status, words) in STATUSES {
        let mut line = format!("  {status} ");
        for word in words.split(' ') {
            if line.len() + 1 + word.len() > 79 {
                listed += &line;
                listed += "\n";
                line = "    ".into();
            }
            line += " ";
            line += word;
        }
        listed += &line;
        listed += "\n";
    }
    listed
}

/// The input is valid: status 0.
const VALID: u8 = 0;
/// Invalid input, or a failed system call: status 1.
const FAILED: u8 = 1;
/// A bad command line: status 2.
const USAGE_ERROR: u8 = 2;
/// A signal ended a search: 128 plus the signal's number, as a shell
/// reports a process it killed.
const SIGNALLED: u8 = 128;

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
    /// A signal stopped the search, and its answer was printed: status 128
    /// plus the signal's number, as a shell reports a process it killed.
    Signalled(i32),
}

fn main() -> ExitCode {
    let command = args::parse(std::env::args_os().skip(1));
    let result = command
        .map_err(|Usage(message)| Failure::Usage(message))
        .and_then(|command| {
            if uses_big_tables(&command) {
                platform::tune_malloc();
            }
            run(command)
        });
    match result {
        Ok(()) => ExitCode::from(VALID),
        Err(Failure::Invalid(error)) => {
            let mut out = io::stdout().lock();
            match write_error(&mut out, None, &error).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::from(FAILED),
                Err(e) => system_failure(&write_failure(&e)),
            }
        }
        Err(Failure::NotAllAnswered) => ExitCode::from(FAILED),
        Err(Failure::Signalled(signum)) => {
            ExitCode::from((i32::from(SIGNALLED) + signum).clamp(0, 255) as u8)
        }
        Err(Failure::System(message)) => system_failure(&message),
        Err(Failure::Usage(message)) => {
            // If even stderr is gone there is no one left to tell.
            let _ = writeln!(
                io::stderr(),
                "puzzle: {message}\nTry 'puzzle --help' for more information."
            );
            ExitCode::from(USAGE_ERROR)
        }
    }
}

fn system_failure(message: &str) -> ExitCode {
    let _ = writeln!(io::stderr(), "puzzle: {message}");
    ExitCode::from(FAILED)
}

/// A line on stderr about the run; lost if stderr is gone.
fn note(message: &dyn std::fmt::Display) {
    status::line(message);
}

fn run(command: Command) -> Result<(), Failure> {
    let mut out = BufWriter::with_capacity(1 << 16, platform::raw_stdout());
    match command {
        Command::Help => write_out(&mut out, |out| {
            out.write_all(USAGE.as_bytes())?;
            out.write_all(statuses().as_bytes())
        }),
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
        Command::BuildTables {
            cache,
            sides,
            large,
        } => {
            let check = CheckArgs {
                cache,
                large_tables: large,
                ..CheckArgs::default()
            };
            let solver = Solver::new(solve_options(&check));
            let began = std::time::Instant::now();
            solver
                .build_tables(&sides, &mut |event: &SolveEvent| {
                    status::tell(event, false, None)
                })
                .map_err(|e| Failure::System(e.to_string()))?;
            status::clear();
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
            if args.batch {
                return batch(input, &name, &args, &mut out);
            }
            let puzzle = read_puzzle(input).map_err(|e| read_failure(e, &name))?;
            write_out(&mut out, |out| {
                write_verdict(out, &puzzle)?;
                if args.explain {
                    write_explanation(out, &puzzle)?;
                }
                Ok(())
            })?;
            if args.solve {
                let solver = Solver::new(SolveOptions {
                    stop: platform::stop_flag(),
                    ..solve_options(&args)
                });
                solve_one(&puzzle, &args, &solver, &mut out)?;
            }
            match platform::caught_signal() {
                Some(signum) => Err(Failure::Signalled(signum)),
                None => Ok(()),
            }
        }
    }
}

fn solve_options(args: &CheckArgs) -> SolveOptions {
    SolveOptions {
        shortest: args.shortest,
        cache: args.cache.clone(),
        jobs: args.jobs,
        time_limit: args.time_limit,
        ..SolveOptions::from_env(args.large_tables)
    }
}

fn read_failure(error: ReadError, name: &str) -> Failure {
    match error {
        ReadError::Invalid(e) => Failure::Invalid(e),
        ReadError::Io(e) => Failure::System(format!("cannot read {name}: {e}")),
    }
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
    // How far from shortest the solution may be is told after it.
    let mut unproven = None;
    let mut report = |event: &SolveEvent| match event {
        SolveEvent::Unproven { .. } => unproven = Some(event.to_string()),
        _ => status::tell(event, args.stats, None),
    };
    // A signal while tables are built ends the process as usual (a table
    // half built is a temporary file, removed by the next run); once the
    // search begins, it ends the search, and the best answer is printed.
    let solution = solver
        .prepare(puzzle, &mut report, &mut stats)
        .and_then(|()| {
            if !solver.stoppable(puzzle) {
                return solver.solve(puzzle, &mut report, &mut stats);
            }
            platform::catch_signals();
            // A long search: its progress line moves every second.
            let _ticker = status::Ticker::start();
            solver.solve(puzzle, &mut report, &mut stats)
        });
    status::clear();
    let solution = solution.map_err(|e| Failure::System(e.to_string()))?;
    let Some(solution) = solution else {
        return Ok(());
    };
    write_out(out, |out| {
        write_solution(out, &solution)?;
        if args.show {
            write_boards(out, puzzle.start(), &solution.moves)?;
        }
        Ok(())
    })?;
    if let Some(line) = unproven {
        note(&line);
    }
    if args.stats {
        note(&stats.line(solution.moves.len()));
        for line in &stats.details {
            note(line);
        }
    }
    Ok(())
}

/// `--batch`: every pair answered in input order as it comes (the pipeline is
/// [`puzzle::run_batch`]); notes about a pair go to stderr with its number.
fn batch(
    input: Box<dyn Read + Send>,
    name: &str,
    args: &CheckArgs,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let options = BatchOptions {
        solve: args.solve,
        show: args.show,
        explain: args.explain,
        jobs: args.jobs,
    };
    let stats = args.stats;
    let notes: Notes = Arc::new(move |batch_note: &BatchNote| match batch_note {
        BatchNote::Progress { pair, event } => status::tell(event, stats, Some(*pair)),
        BatchNote::Solved {
            pair,
            moves,
            stats: solve_stats,
        } => {
            if stats {
                note(&format_args!("pair {pair}: {}", solve_stats.line(*moves)));
                for line in &solve_stats.details {
                    note(&format_args!("pair {pair}: {line}"));
                }
            }
        }
        BatchNote::Unsolved { pair, error } => note(&format_args!("pair {pair}: {error}")),
    });
    match run_batch(input, out, solve_options(args), &options, notes) {
        Ok(summary) if summary.all_answered() => Ok(()),
        Ok(_) => Err(Failure::NotAllAnswered),
        Err(BatchError::Read(e)) => Err(Failure::System(format!("cannot read {name}: {e}"))),
        Err(BatchError::Write(e)) => Err(Failure::System(write_failure(&e))),
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
        .map_err(|e| Failure::System(write_failure(&e)))
}

/// What to say when writing the output failed. A closed pipe (`puzzle ... |
/// head -1`) is said in words, not as "Broken pipe (os error 32)": the
/// reader is gone, nothing was wrong with `puzzle`. It still fails with
/// status 1, as `SPEC.md` wants of a failed write.
fn write_failure(error: &io::Error) -> String {
    if error.kind() == io::ErrorKind::BrokenPipe {
        "cannot write the output: the reader closed the pipe".to_owned()
    } else {
        format!("cannot write the output: {error}")
    }
}

/// Whether the command may load or build the 4x4 tables (hundreds of MB).
fn uses_big_tables(command: &Command) -> bool {
    matches!(
        command,
        Command::BuildTables { .. } | Command::Check(CheckArgs { solve: true, .. })
    )
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The help's list of statuses, as it has always read.
    #[test]
    fn the_help_lists_the_table_of_statuses() {
        assert_eq!(
            statuses(),
            "Exit status:
  0  the input is valid (solvable or not)
  1  the input is invalid (one 'error: ...' line on stdout; with --batch, any
     pair), or reading, writing or solving failed (a message on stderr; with
     --batch, a pair that could not be solved still gets its verdict)
  2  the command line is wrong (a message on stderr)
  130, 143  SIGINT (Ctrl-C) or SIGTERM ended a 5x5 or --shortest search; its
     best answer was printed
"
        );
        assert!(!USAGE.contains("Exit status"));
        let codes: Vec<u8> = STATUSES.iter().map(|s| s.0).collect();
        assert_eq!(codes, [VALID, FAILED, USAGE_ERROR, SIGNALLED]);
        assert_eq!(SIGNALLED as i32 + 2, 130);
    }
}
