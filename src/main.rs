//! The `puzzle` command: the client of the `puzzle` library.
//!
//! It owns the command line, picks the streams and maps every outcome to an exit
//! status in one place ([`main`]): bad input is one `error: ` line on stdout and
//! status 1; a failed system call is a message on stderr and status 1; a bad
//! command line is a message on stderr and status 2.

use puzzle::generate::{random_puzzle, GoalShape};
use puzzle::input::read_puzzle;
use puzzle::report;
use puzzle::{BoardError, ReadError};
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

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
and 'solvable' or 'unsolvable'.

Options:
  -h, --help            Print this help and exit
  -V, --version         Print the version and exit
      --generate SIDE   Print a random SIDExSIDE puzzle in the input format
      --seed N          With --generate: the seed (default: from the clock)
      --unsolvable      With --generate: make the goal unreachable
      --random-goal     With --generate: a random goal instead of 1 2 ... b

Exit status:
  0  the input is valid (solvable or not)
  1  the input is invalid (one 'error: ...' line on stdout), or reading or
     writing failed (a message on stderr)
  2  the command line is wrong (a message on stderr)
";

/// Why the command stops early; each maps to one stream and one exit status.
enum Failure {
    /// The input is not a valid puzzle: stdout, status 1.
    Invalid(BoardError),
    /// A system call failed: stderr, status 1.
    System(String),
    /// The command line is wrong: stderr, status 2.
    Usage(String),
}

/// What the command line asks for.
enum Command {
    Help,
    Version,
    Check { file: Option<OsString> },
    Generate(GenerateArgs),
}

struct GenerateArgs {
    side: usize,
    seed: Option<u64>,
    solvable: bool,
    goal: GoalShape,
}

fn main() -> ExitCode {
    let result = parse_args(std::env::args_os().skip(1)).and_then(run);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Invalid(error)) => {
            let mut out = io::stdout().lock();
            match writeln!(out, "error: {error}").and_then(|()| out.flush()) {
                Ok(()) => ExitCode::FAILURE,
                Err(e) => system_failure(&format!("cannot write the output: {e}")),
            }
        }
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

fn parse_args(args: impl Iterator<Item = OsString>) -> Result<Command, Failure> {
    let mut file = None;
    let mut generate = None;
    let mut seed = None;
    let mut unsolvable = false;
    let mut random_goal = false;
    let mut args = args.peekable();
    let mut only_files = false;
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        if only_files || text == "-" || !text.starts_with('-') {
            if file.is_some() {
                return Err(Failure::Usage(format!(
                    "unexpected argument '{text}': one FILE at most"
                )));
            }
            file = Some(arg);
            continue;
        }
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => {
                (name.to_string(), Some(value.to_string()))
            }
            _ => (text.to_string(), None),
        };
        let mut value = |what: &str| -> Result<String, Failure> {
            match inline
                .clone()
                .or_else(|| args.next().map(|v| v.to_string_lossy().into_owned()))
            {
                Some(v) => Ok(v),
                None => Err(Failure::Usage(format!(
                    "option '{name}' needs a value: {what}"
                ))),
            }
        };
        match name.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--" => only_files = true,
            "--generate" => generate = Some(number(&name, &value("the board's side")?)?),
            "--seed" => seed = Some(number(&name, &value("a number")?)?),
            "--unsolvable" => unsolvable = true,
            "--random-goal" => random_goal = true,
            _ => return Err(Failure::Usage(format!("unknown option '{text}'"))),
        }
    }
    match generate {
        Some(side) => {
            if file.is_some() {
                return Err(Failure::Usage("--generate reads no FILE".into()));
            }
            if side < 2 || side > puzzle::MAX_SIDE {
                return Err(Failure::Usage(format!(
                    "--generate needs a side from 2 to {}, not {side}",
                    puzzle::MAX_SIDE
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
        None => Ok(Command::Check { file }),
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
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
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
        Command::Check { file } => {
            let puzzle = match &file {
                Some(path) if path != "-" => {
                    let opened = File::open(path).map_err(|e| {
                        Failure::System(format!("cannot open '{}': {e}", path.to_string_lossy()))
                    })?;
                    read(opened, &path.to_string_lossy())?
                }
                _ => read(io::stdin().lock(), "standard input")?,
            };
            write_out(&mut out, |out| report::write_verdict(out, &puzzle))
        }
    }
}

fn read(input: impl Read, name: &str) -> Result<puzzle::board_adt::Puzzle, Failure> {
    read_puzzle(input).map_err(|e| match e {
        ReadError::Invalid(e) => Failure::Invalid(e),
        ReadError::Io(e) => Failure::System(format!("cannot read {name}: {e}")),
    })
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

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
