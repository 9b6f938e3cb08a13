//! The command line: what it asks for ([`Command`]), read in one `match` loop
//! over the arguments as they come (`--name value`, `--name=value`, `--`
//! before file names, a lone `-` for standard input); every mistake is a
//! [`Usage`] message.

use crate::platform::os_string_from_bytes;
use puzzle::{GoalShape, TableCache, MAX_JOBS};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// The largest side `--generate` makes: two boards of 400 million cells take
/// 3.2 GB, which is as far as a generator for tests and benchmarks should go.
const MAX_GENERATE_SIDE: u64 = 20_000;

/// A mistake on the command line: what to tell the user (status 2).
#[derive(Debug)]
pub(crate) struct Usage(pub(crate) String);

/// What the command line asks for.
pub(crate) enum Command {
    Help,
    Version,
    Check(CheckArgs),
    Generate(GenerateArgs),
    BuildTables {
        cache: Option<TableCache>,
        sides: Vec<usize>,
        /// `--large-tables`: the large set too.
        large: bool,
    },
}

/// Check (and solve) one puzzle, or a batch.
#[derive(Default)]
pub(crate) struct CheckArgs {
    pub(crate) file: Option<OsString>,
    pub(crate) solve: bool,
    pub(crate) shortest: bool,
    /// `--large-tables`: the large set of 5x5 tables for `--shortest`.
    pub(crate) large_tables: bool,
    pub(crate) show: bool,
    pub(crate) stats: bool,
    /// Show the parity rule's computation after the verdict (`--explain`).
    pub(crate) explain: bool,
    pub(crate) batch: bool,
    pub(crate) jobs: Option<usize>,
    pub(crate) time_limit: Option<Duration>,
    /// Where the tables are cached, when solving.
    pub(crate) cache: Option<TableCache>,
}

/// Make a random puzzle.
pub(crate) struct GenerateArgs {
    pub(crate) side: usize,
    pub(crate) seed: Option<u64>,
    pub(crate) solvable: bool,
    pub(crate) goal: GoalShape,
}

/// Reads the command line (the arguments after the program's name).
pub(crate) fn parse(args: impl Iterator<Item = OsString>) -> Result<Command, Usage> {
    let given = read(args)?;
    match given.at_once {
        Some(command) => Ok(command),
        None => given.command(),
    }
}

/// The options as given, before their combinations are checked.
#[derive(Default)]
struct Given {
    /// `--help` or `--version`: answered at once, whatever else is given.
    at_once: Option<Command>,
    check: CheckArgs,
    cache_dir: Option<OsString>,
    generate: Option<u64>,
    seed: Option<u64>,
    unsolvable: bool,
    random_goal: bool,
    build_tables: Option<Vec<usize>>,
}

/// Reads every argument in turn, one `match` on its name.
fn read(args: impl Iterator<Item = OsString>) -> Result<Given, Usage> {
    let mut check = CheckArgs::default();
    let mut cache_dir: Option<OsString> = None;
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
                return Err(Usage(format!(
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
        let mut value = |what: &str| -> Result<OsString, Usage> {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| Usage(format!("option '{name}' needs a value: {what}")))
        };
        let flag = |inline: &Option<OsString>| match inline {
            Some(_) => Err(Usage(format!("option '{name}' takes no value"))),
            None => Ok(true),
        };
        match name.as_str() {
            "-h" | "--help" => return Ok(Given::at_once(Command::Help)),
            "-V" | "--version" => return Ok(Given::at_once(Command::Version)),
            "--" => only_files = true,
            "-s" | "--solve" => check.solve = flag(&inline)?,
            "--shortest" => check.shortest = flag(&inline)?,
            "--large-tables" => check.large_tables = flag(&inline)?,
            "--show" => check.show = flag(&inline)?,
            "--stats" => check.stats = flag(&inline)?,
            "--explain" => check.explain = flag(&inline)?,
            "--batch" => check.batch = flag(&inline)?,
            "--jobs" => {
                let jobs = number(&name, &value("a number of threads")?)?;
                if jobs == 0 {
                    return Err(Usage(format!(
                        "option '{name}' needs at least 1 thread, not '0'"
                    )));
                }
                if jobs > MAX_JOBS as u64 {
                    return Err(Usage(format!(
                        "option '{name}' takes at most {MAX_JOBS} threads, not '{jobs}'"
                    )));
                }
                check.jobs = Some(jobs as usize);
            }
            "--cache-dir" => {
                let dir = value("a directory")?;
                if dir.is_empty() {
                    return Err(Usage(
                        "--cache-dir needs a directory, not an empty value".into(),
                    ));
                }
                cache_dir = Some(dir);
            }
            "--build-tables" => {
                build_tables = Some(match inline.as_ref().map(|v| v.to_string_lossy()) {
                    None => vec![4, 5],
                    Some(v) if v == "4" => vec![4],
                    Some(v) if v == "5" => vec![5],
                    Some(v) => {
                        return Err(Usage(format!(
                            "--build-tables takes 4 or 5 (a board's side), not '{v}'"
                        )))
                    }
                })
            }
            "--time-limit" => {
                let text = value("a number of seconds")?.to_string_lossy().into_owned();
                match text.parse::<f64>() {
                    Ok(secs) if secs.is_finite() && secs > 0.0 && secs < 1e9 => {
                        check.time_limit = Some(Duration::from_secs_f64(secs))
                    }
                    _ => {
                        return Err(Usage(format!(
                            "option '--time-limit' needs a number of seconds above 0, not '{text}'"
                        )))
                    }
                }
            }
            "--generate" => generate = Some(number(&name, &value("the board's side")?)?),
            "--seed" => seed = Some(number(&name, &value("a number")?)?),
            "--unsolvable" => unsolvable = flag(&inline)?,
            "--random-goal" => random_goal = flag(&inline)?,
            _ => return Err(Usage(format!("unknown option '{text}'"))),
        }
    }
    Ok(Given {
        at_once: None,
        check,
        cache_dir,
        generate,
        seed,
        unsolvable,
        random_goal,
        build_tables,
    })
}

/// The flags of `flags` that were given, as the subject of a sentence:
/// "--show goes", "--show and --stats go", "--a, --b and --c go"; empty when
/// none was given.
fn given_flags(flags: &[(&str, bool)]) -> String {
    let given: Vec<&str> = flags.iter().filter(|f| f.1).map(|f| f.0).collect();
    match given.as_slice() {
        [] => String::new(),
        [one] => format!("{one} goes"),
        [init @ .., last] => format!("{} and {last} go", init.join(", ")),
    }
}

impl Given {
    /// `command`, whatever else is given.
    fn at_once(command: Command) -> Given {
        Given {
            at_once: Some(command),
            ..Given::default()
        }
    }

    /// The command these options make, if they go together.
    fn command(self) -> Result<Command, Usage> {
        let Given {
            mut check,
            cache_dir,
            generate,
            seed,
            unsolvable,
            random_goal,
            build_tables,
            ..
        } = self;
        let solving_options = given_flags(&[
            ("--shortest", check.shortest),
            ("--show", check.show),
            ("--stats", check.stats),
        ]);
        if !solving_options.is_empty() && !check.solve {
            return Err(Usage(format!("{solving_options} with --solve")));
        }
        if check.jobs.is_some() && !check.batch && !check.solve {
            return Err(Usage("--jobs goes with --batch or --solve".into()));
        }
        if check.time_limit.is_some() && !check.solve {
            return Err(Usage("--time-limit goes with --solve".into()));
        }
        if check.large_tables && !check.shortest && build_tables.is_none() {
            return Err(Usage(
                "--large-tables goes with --shortest or --build-tables".into(),
            ));
        }
        if let Some(sides) = build_tables {
            if check.file.is_some()
                || check.solve
                || check.batch
                || check.explain
                || generate.is_some()
            {
                return Err(Usage(
                    "--build-tables reads nothing; it goes with --cache-dir only".into(),
                ));
            }
            return Ok(Command::BuildTables {
                cache: cache(cache_dir)?,
                sides,
                large: check.large_tables,
            });
        }
        match generate {
            Some(side) => {
                if check.file.is_some() || check.solve || check.batch || check.explain {
                    return Err(Usage(
                        "--generate reads nothing, solves nothing and explains nothing".into(),
                    ));
                }
                if !(2..=MAX_GENERATE_SIDE).contains(&side) {
                    return Err(Usage(format!(
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
            None if seed.is_some() || unsolvable || random_goal => Err(Usage(format!(
                "{} with --generate",
                given_flags(&[
                    ("--seed", seed.is_some()),
                    ("--unsolvable", unsolvable),
                    ("--random-goal", random_goal),
                ])
            ))),
            None => {
                // Only a run that solves uses the tables.
                if check.solve {
                    check.cache = cache(cache_dir)?;
                }
                Ok(Command::Check(check))
            }
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

/// The cache a command that uses the tables asks for: `--cache-dir`, else
/// the environment's ([`TableCache::chosen`], which refuses an empty
/// `PUZZLE_CACHE_DIR`).
fn cache(dir: Option<OsString>) -> Result<Option<TableCache>, Usage> {
    TableCache::chosen(dir.map(PathBuf::from)).map_err(|e| Usage(e.to_string()))
}

/// The whole number `value` of `option`.
fn number(option: &str, value: &OsString) -> Result<u64, Usage> {
    let text = value.to_string_lossy();
    text.parse().map_err(|_| {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        Usage(if digits {
            format!(
                "option '{option}' takes whole numbers up to {}, not '{text}'",
                u64::MAX
            )
        } else {
            format!("option '{option}' needs a whole number, not '{text}'")
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::os_string_from_bytes;

    fn args(list: &[&[u8]]) -> Result<Command, Usage> {
        parse(list.iter().map(|bytes| os_string_from_bytes(bytes)))
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
            let dir = PathBuf::from(os_string_from_bytes(b"/tmp/caf\xe9"));
            assert_eq!(check.cache, Some(TableCache::new(dir)));
        }
    }

    #[test]
    fn an_option_needs_a_name_before_its_value() {
        let Err(Usage(message)) = args(&[b"--=x"]) else {
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
            Err(Usage(message)) => message,
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
        // The help says at most 256 threads: more is refused, not capped.
        assert_eq!(
            usage(&[b"--solve", b"--jobs", b"257"]),
            "option '--jobs' takes at most 256 threads, not '257'"
        );
        let Ok(Command::Check(check)) = args(&[b"--solve", b"--jobs", b"256"]) else {
            panic!("a valid command line")
        };
        assert_eq!(check.jobs, Some(MAX_JOBS));
    }

    #[test]
    fn a_flag_out_of_place_is_named_alone() {
        let usage = |list: &[&[u8]]| match args(list) {
            Err(Usage(message)) => message,
            _ => panic!("{list:?} is refused"),
        };
        assert_eq!(usage(&[b"--show"]), "--show goes with --solve");
        assert_eq!(
            usage(&[b"--stats", b"--shortest"]),
            "--shortest and --stats go with --solve"
        );
        assert_eq!(
            usage(&[b"--shortest", b"--show", b"--stats"]),
            "--shortest, --show and --stats go with --solve"
        );
        assert_eq!(usage(&[b"--seed", b"3"]), "--seed goes with --generate");
        assert_eq!(
            usage(&[b"--unsolvable", b"--random-goal"]),
            "--unsolvable and --random-goal go with --generate"
        );
        assert_eq!(
            usage(&[b"--generate", b"3", b"--explain"]),
            "--generate reads nothing, solves nothing and explains nothing"
        );
        // --explain goes with checking, solving and batches.
        for list in [
            &[&b"--explain"[..]][..],
            &[b"--explain", b"--solve"],
            &[b"--explain", b"--batch"],
        ] {
            let Ok(Command::Check(check)) = args(list) else {
                panic!("{list:?} is valid")
            };
            assert!(check.explain);
        }
    }
}
