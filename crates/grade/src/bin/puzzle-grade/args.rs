//! The command line of `puzzle-grade`'s modes (but `run`, whose options end
//! at its PROGRAM: `run.rs`), in one place: options before or after the
//! operands, `--` ending them, `--name=value` or `--name value`, and
//! `--help` in every mode.

use puzzle_grade::formats::FORMATS;
use puzzle_grade::fuzz;
use puzzle_grade::grades::Shard;
use puzzle_grade::marks::Scheme;
use puzzle_grade::submissions::Select;
use puzzle_grade::Settings;
use puzzle_sandbox::Level;
use std::ffi::OsString;
use std::fs;
use std::path::PathBuf;

/// The help text (`--help`).
pub const USAGE: &str = "\
Usage: puzzle-grade MODE [OPTIONS] ARGS
  grade PROGRAM [DIR...]        grade one program on Tests/ and each DIR
  grade-all SUBMISSIONS [DIR...]
                                build and grade every folder of SUBMISSIONS
  merge --into DIR SHARD_DIR... one grading from the grades folders of its shards
  open [DIR...]                 the fixtures the assignment leaves open
  check [DIR...]                the reference answers every fixture as named
  fuzz [OPTIONS] PROGRAM        generated inputs; each fault shrunk to a
                                minimal fixture (docs/grading.md)
  run [LIMITS] -- PROGRAM [ARGS...]
                                one program in the sandbox
  check-environment             the sandbox levels and controllers this machine
                                allows, and what to change for fair timing
                                (status 1 when something should change)
Options may come before or after the operands; '--' ends them.
'puzzle-grade MODE --help' lists a mode's options.
Run it from the folder that holds Tests/.";

/// The options of `grade` and `grade-all`.
const GRADING_OPTIONS: &str = "  --strict              byte for byte against the reference
  --timeout S           every run at most S seconds (default 10 + 60 a MB)
  --jobs N              runs at once (default: one a core)
  --memory MIB          memory a run may use (default 1024)
  --processes N         processes a run may have at once (default 64)
  --read-only PATH      let the runs read PATH too (repeatable; ':' separates)
  --scheme FILE         the marking scheme (default: verdicts 70, rejections 20,
                        exit status 5, format 5; see examples/marking-scheme.txt)
  --fuzz S              after the fixtures, fuzz each program for S seconds
                        (see fuzz); the faults found are in the report and,
                        with grade-all, the table's fuzz column
  --sandbox LEVEL       namespaces, uid or minimal (default: the most the
                        system allows; see puzzle-grade check-environment)
  --budget S            a submission at most S seconds in all (build, runs,
                        fuzzing); the fixtures left then are NOT RUN
  --max-timeouts K      after K runs of a submission time out, its other
                        fixtures are NOT RUN";

/// The options of `grade-all` alone.
const GRADE_ALL_OPTIONS: &str =
    "  --grades DIR          where the grading's files go (default grades); an
                        earlier grading there is replaced
  --build-timeout S     each build command at most S s (default 120)
  --format LIST         also gradescope, prairielearn, junit files for each
                        submission (comma-separated)
  --only NAME           grade only this submission again (repeatable); the
                        grading keeps the rows of the others
  --resume              grade only the submissions not graded yet (after an
                        interrupted grading, with the same options)
  --shard I/N           grade only part I of N (by a hash of the folder names,
                        the same on every machine); 'merge' joins the parts";

/// The help text of a mode.
pub fn mode_usage(mode: &str) -> String {
    match mode {
        "grade" => format!(
            "Usage: puzzle-grade grade [OPTIONS] PROGRAM [DIR...]\n\
             Grades PROGRAM on every fixture of Tests/ and of each DIR.\n\
             Options:\n{GRADING_OPTIONS}"
        ),
        "grade-all" => format!(
            "Usage: puzzle-grade grade-all [OPTIONS] SUBMISSIONS [DIR...]\n\
             Builds and grades every folder of SUBMISSIONS on Tests/ and each DIR.\n\
             Options:\n{GRADING_OPTIONS}\n{GRADE_ALL_OPTIONS}"
        ),
        "merge" => "Usage: puzzle-grade merge --into DIR SHARD_DIR...\n\
             Writes into DIR one grading made of the gradings of its shards (each\n\
             SHARD_DIR a grades folder of 'grade-all --shard I/N'): every summary\n\
             and each submission's files. A submission missing from every shard,\n\
             or in two, is named on stderr and the status is 1."
            .into(),
        "open" => "Usage: puzzle-grade open [DIR...]\n\
             Lists the fixtures of Tests/ and each DIR whose answer depends on a\n\
             choice the assignment leaves open, and the answers it allows."
            .into(),
        "check-environment" => "Usage: puzzle-grade check-environment\n\
             Says which sandbox levels and cgroup controllers this machine allows\n\
             and why not, the load, the CPU frequency governor, transparent huge\n\
             pages and swap, with what to change for fair timing; status 1 when\n\
             something should change."
            .into(),
        "check" => "Usage: puzzle-grade check [--reference PATH] [DIR...]\n\
             Checks that the reference (default ./puzzle) answers every fixture\n\
             of Tests/ and each DIR as its name says.\n\
             Options:\n  --reference PATH      the executable to check"
            .into(),
        "fuzz" => "Usage: puzzle-grade fuzz [OPTIONS] PROGRAM\n\
             Runs PROGRAM on generated inputs, judged as grade judges; each fault\n\
             found is shrunk to a minimal fixture.\n\
             Options:\n\
             \x20 --seed N              the stream of inputs (default 1)\n\
             \x20 --seconds S           how long to make inputs (default 60)\n\
             \x20 --into DIR            where the minimal cases go (default fuzz-found)\n\
             \x20 --strict              byte for byte against the reference\n\
             \x20 --timeout S           every run at most S seconds\n\
             \x20 --memory MIB          memory a run may use (default 1024)\n\
             \x20 --processes N         processes a run may have at once (default 64)\n\
             \x20 --read-only PATH      let the runs read PATH too\n\
             \x20 --sandbox LEVEL       namespaces, uid or minimal (default: the most\n\
             \x20                       the system allows)"
            .into(),
        _ => USAGE.into(),
    }
}

/// A mode and its options, as the command line gave them.
pub enum Command {
    /// `--help`: this text on stdout, status 0.
    Help(String),
    /// `grade`, `grade-all`, `open` or `check`.
    Grading(Options),
    /// `fuzz`, in the sandbox at this level (none: the most the system
    /// allows).
    Fuzz(fuzz::Options, Option<Level>),
    /// `check-environment`.
    CheckEnvironment,
    /// `merge --into DIR SHARD_DIR...`.
    Merge { into: PathBuf, shards: Vec<PathBuf> },
}

/// The command line of a grading mode.
pub struct Options {
    pub mode: String,
    pub settings: Settings,
    pub operands: Vec<PathBuf>,
    pub grades: PathBuf,
    pub build_seconds: u64,
    pub reference: PathBuf,
    pub formats: Vec<String>,
    pub select: Select,
    pub shard: Option<Shard>,
    pub fuzz: Option<u64>,
    /// The sandbox's level (none: the most the system allows).
    pub level: Option<Level>,
    /// The options that decide the marks, in a fixed order (recorded in the
    /// grading, and compared when it is resumed or merged).
    pub marks_options: Vec<String>,
}

/// The options a mode takes: its name, and whether it takes a value.
fn options_of(mode: &str) -> Vec<(&'static str, bool)> {
    /// The options of `grade`, which `grade-all` takes too.
    const GRADING: [(&str, bool); 11] = [
        ("--sandbox", true),
        ("--budget", true),
        ("--max-timeouts", true),
        ("--strict", false),
        ("--timeout", true),
        ("--jobs", true),
        ("--memory", true),
        ("--processes", true),
        ("--read-only", true),
        ("--scheme", true),
        ("--fuzz", true),
    ];
    /// Those of `grade-all` alone.
    const GRADE_ALL: [(&str, bool); 6] = [
        ("--grades", true),
        ("--build-timeout", true),
        ("--format", true),
        ("--only", true),
        ("--resume", false),
        ("--shard", true),
    ];
    const FUZZ: [(&str, bool); 9] = [
        ("--sandbox", true),
        ("--seed", true),
        ("--seconds", true),
        ("--into", true),
        ("--strict", false),
        ("--timeout", true),
        ("--memory", true),
        ("--processes", true),
        ("--read-only", true),
    ];
    match mode {
        "grade" => GRADING.to_vec(),
        "grade-all" => GRADING.iter().chain(&GRADE_ALL).copied().collect(),
        "check" => vec![("--reference", true)],
        "fuzz" => FUZZ.to_vec(),
        "merge" => vec![("--into", true)],
        _ => Vec::new(),
    }
}

/// The words of a command line split into options (with their values) and
/// operands, in order; `--help` anywhere before `--` is `None`.
type Split = (Vec<(&'static str, Option<OsString>)>, Vec<OsString>);

fn split(mode: &str, args: Vec<OsString>) -> Result<Option<Split>, String> {
    let known = options_of(mode);
    let mut options = Vec::new();
    let mut operands = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy().into_owned();
        if text == "--" {
            operands.extend(args.by_ref());
            break;
        }
        if text == "-h" || text == "--help" {
            return Ok(None);
        }
        if !text.starts_with('-') || text == "-" {
            operands.push(arg);
            continue;
        }
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) => (name.to_string(), Some(OsString::from(value))),
            None => (text.clone(), None),
        };
        let Some(&(name, takes_value)) = known.iter().find(|(n, _)| *n == name) else {
            return Err(format!("puzzle-grade {mode}: unknown option {name}"));
        };
        let value = match (takes_value, inline) {
            (true, Some(value)) => Some(value),
            (true, None) => match args.next() {
                Some(value) => Some(value),
                None => return Err(format!("puzzle-grade {mode}: {name} needs a value")),
            },
            (false, Some(_)) => return Err(format!("puzzle-grade {mode}: {name} takes no value")),
            (false, None) => None,
        };
        options.push((name, value));
    }
    Ok(Some((options, operands)))
}

/// The `--sandbox` level of `options`, if one is asked for.
fn level_of(options: &[(&'static str, Option<OsString>)]) -> Result<Option<Level>, String> {
    match options.iter().rev().find(|(n, _)| *n == "--sandbox") {
        Some((_, Some(value))) => value
            .to_string_lossy()
            .parse()
            .map(Some)
            .map_err(|e| format!("puzzle-grade: --sandbox: {e}")),
        _ => Ok(None),
    }
}

/// A whole number of at least `least`, or what is wrong with it.
fn number(name: &str, value: &OsString, what: &str, least: u64) -> Result<u64, String> {
    value
        .to_str()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|&n| n >= least)
        .ok_or_else(|| {
            format!(
                "puzzle-grade: {name} {} is not {what}",
                value.to_string_lossy()
            )
        })
}

/// The FNV-1a hash of `bytes`, to tell two marking schemes apart.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Reads the words after `puzzle-grade MODE`. The error is the message for
/// stderr (status 2).
pub fn parse(mode: &str, args: Vec<OsString>) -> Result<Command, String> {
    let usage_error = |e: String| format!("{e}\n{}", mode_usage(mode));
    let Some((options, operands)) = split(mode, args).map_err(usage_error)? else {
        return Ok(Command::Help(mode_usage(mode)));
    };
    match mode {
        "fuzz" => {
            let level = level_of(&options)?;
            parse_fuzz(options, operands).map(|o| Command::Fuzz(o, level))
        }
        "check-environment" => match operands.first() {
            None => Ok(Command::CheckEnvironment),
            Some(arg) => Err(usage_error(format!(
                "puzzle-grade check-environment takes no argument: {}",
                arg.to_string_lossy()
            ))),
        },
        "merge" => {
            let into = options
                .into_iter()
                .find(|(n, _)| *n == "--into")
                .and_then(|(_, v)| v)
                .ok_or_else(|| usage_error("puzzle-grade merge: --into DIR is needed".into()))?;
            if operands.is_empty() {
                return Err(usage_error("puzzle-grade merge: no SHARD_DIR".into()));
            }
            Ok(Command::Merge {
                into: PathBuf::from(into),
                shards: operands.into_iter().map(PathBuf::from).collect(),
            })
        }
        _ => parse_grading(mode, options, operands).map(Command::Grading),
    }
}

fn parse_grading(
    mode: &str,
    options: Vec<(&'static str, Option<OsString>)>,
    operands: Vec<OsString>,
) -> Result<Options, String> {
    let mut o = Options {
        mode: mode.into(),
        settings: Settings {
            jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
            ..Settings::default()
        },
        operands: operands.into_iter().map(PathBuf::from).collect(),
        grades: PathBuf::from("grades"),
        build_seconds: 120,
        reference: PathBuf::from("./puzzle"),
        formats: Vec::new(),
        select: Select::All,
        shard: None,
        fuzz: None,
        level: level_of(&options)?,
        marks_options: Vec::new(),
    };
    let mut only = Vec::new();
    let mut resume = false;
    for (name, value) in options {
        let value = value.unwrap_or_default();
        let shown = value.to_string_lossy().into_owned();
        match name {
            "--strict" => o.settings.strict = true,
            "--timeout" => {
                o.settings.timeout = Some(number(name, &value, "a whole number of seconds", 1)?)
            }
            "--jobs" => {
                o.settings.jobs = number(name, &value, "a whole number of runs", 1)? as usize
            }
            "--memory" => {
                o.settings.memory = number(name, &value, "a whole number of MiB", 1)? << 20
            }
            "--processes" => o.settings.processes = number(name, &value, "a whole number", 1)?,
            "--build-timeout" => {
                o.build_seconds = number(name, &value, "a whole number of seconds", 1)?
            }
            "--read-only" => o
                .settings
                .read_only
                .extend(std::env::split_paths(&value).filter(|p| !p.as_os_str().is_empty())),
            "--grades" => o.grades = PathBuf::from(value),
            "--scheme" => {
                let text = fs::read_to_string(&value)
                    .map_err(|e| format!("puzzle-grade: cannot read the scheme {shown}: {e}"))?;
                o.settings.scheme = Scheme::parse(&text)
                    .map_err(|e| format!("puzzle-grade: the scheme {shown}: {e}"))?;
                o.marks_options.push(format!(
                    "--scheme {shown} (fnv1a {:016x})",
                    fnv1a(text.as_bytes())
                ));
            }
            "--format" => {
                for format in shown.split(',') {
                    if !FORMATS.contains(&format) {
                        return Err(format!(
                            "puzzle-grade: --format {format}: not one of {}",
                            FORMATS.join(", ")
                        ));
                    }
                    if !o.formats.iter().any(|f| f == format) {
                        o.formats.push(format.to_string());
                    }
                }
            }
            "--only" => only.push(shown),
            "--resume" => resume = true,
            "--shard" => o.shard = Some(Shard::parse(&shown)?),
            "--fuzz" => o.fuzz = Some(number(name, &value, "a whole number of seconds", 1)?),
            "--budget" => {
                let seconds = number(name, &value, "a whole number of seconds", 1)?;
                o.settings.budget = Some(std::time::Duration::from_secs(seconds));
            }
            "--max-timeouts" => {
                o.settings.max_timeouts = Some(number(name, &value, "a whole number", 1)? as usize)
            }
            "--reference" => o.reference = PathBuf::from(value),
            "--sandbox" => {}
            _ => unreachable!("every option of options_of is read here"),
        }
    }
    o.select = match (only.is_empty(), resume) {
        (true, false) => Select::All,
        (false, false) => Select::Only(only),
        (true, true) => Select::Resume,
        (false, true) => {
            return Err("puzzle-grade grade-all: --only and --resume do not go together".into())
        }
    };
    let s = &o.settings;
    let mut marks = Vec::new();
    if s.strict {
        marks.push("--strict".to_string());
    }
    if let Some(t) = s.timeout {
        marks.push(format!("--timeout {t}"));
    }
    marks.push(format!("--memory {}", s.memory >> 20));
    marks.push(format!("--processes {}", s.processes));
    for path in &s.read_only {
        marks.push(format!("--read-only {}", path.display()));
    }
    if mode == "grade-all" {
        marks.push(format!("--build-timeout {}", o.build_seconds));
        if !o.formats.is_empty() {
            marks.push(format!("--format {}", o.formats.join(",")));
        }
    }
    if let Some(f) = o.fuzz {
        marks.push(format!("--fuzz {f}"));
    }
    if let Some(b) = s.budget {
        marks.push(format!("--budget {}", b.as_secs()));
    }
    if let Some(k) = s.max_timeouts {
        marks.push(format!("--max-timeouts {k}"));
    }
    marks.append(&mut o.marks_options);
    for dir in o.operands.iter().skip(1) {
        marks.push(format!("fixtures {}", dir.display()));
    }
    o.marks_options = marks;
    let needs = match mode {
        "grade" => Some("PROGRAM"),
        "grade-all" => Some("SUBMISSIONS"),
        _ => None,
    };
    if let (Some(what), true) = (needs, o.operands.is_empty()) {
        return Err(format!(
            "puzzle-grade {mode}: no {what}\n{}",
            mode_usage(mode)
        ));
    }
    Ok(o)
}

fn parse_fuzz(
    options: Vec<(&'static str, Option<OsString>)>,
    operands: Vec<OsString>,
) -> Result<fuzz::Options, String> {
    let mut o = fuzz::Options {
        seed: 1,
        seconds: 60,
        into: PathBuf::from("fuzz-found"),
        settings: Settings::default(),
        program: PathBuf::new(),
    };
    for (name, value) in options {
        let value = value.unwrap_or_default();
        match name {
            "--seed" => o.seed = number(name, &value, "a whole number", 0)?,
            "--seconds" => o.seconds = number(name, &value, "a whole number of seconds", 1)?,
            "--into" => o.into = PathBuf::from(value),
            "--strict" => o.settings.strict = true,
            "--timeout" => {
                o.settings.timeout = Some(number(name, &value, "a whole number of seconds", 1)?)
            }
            "--memory" => {
                o.settings.memory = number(name, &value, "a whole number of MiB", 1)? << 20
            }
            "--processes" => o.settings.processes = number(name, &value, "a whole number", 1)?,
            "--read-only" => o
                .settings
                .read_only
                .extend(std::env::split_paths(&value).filter(|p| !p.as_os_str().is_empty())),
            "--sandbox" => {}
            _ => unreachable!("every option of options_of is read here"),
        }
    }
    match <[OsString; 1]>::try_from(operands) {
        Ok([program]) => {
            o.program = PathBuf::from(program);
            Ok(o)
        }
        Err(operands) => Err(format!(
            "puzzle-grade fuzz: {} PROGRAM\n{}",
            if operands.is_empty() { "no" } else { "one" },
            mode_usage("fuzz")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    fn grading(mode: &str, words: &[&str]) -> Options {
        match parse(mode, args(words)) {
            Ok(Command::Grading(o)) => o,
            Ok(_) => panic!("not a grading: {words:?}"),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn options_go_before_or_after_the_operands() {
        for words in [
            &["--format", "gradescope,junit", "subs"][..],
            &["subs", "--format", "gradescope,junit"],
            &["subs", "--format=gradescope,junit"],
        ] {
            let o = grading("grade-all", words);
            assert_eq!(o.operands, [PathBuf::from("subs")], "{words:?}");
            assert_eq!(o.formats, ["gradescope", "junit"], "{words:?}");
        }
        let o = grading("grade-all", &["--timeout", "5", "--", "--subs", "--strict"]);
        assert_eq!(
            o.operands,
            [PathBuf::from("--subs"), PathBuf::from("--strict")]
        );
        assert!(!o.settings.strict);
    }

    #[test]
    fn help_in_every_mode_and_errors_name_the_option() {
        for mode in [
            "grade",
            "grade-all",
            "open",
            "check",
            "fuzz",
            "merge",
            "check-environment",
        ] {
            match parse(mode, args(&["x", "--help"])) {
                Ok(Command::Help(text)) => {
                    assert!(text.starts_with("Usage: puzzle-grade"), "{text}")
                }
                _ => panic!("{mode} --help"),
            }
        }
        let e = parse("grade-all", args(&["subs", "--grades"]))
            .err()
            .unwrap();
        assert!(
            e.starts_with("puzzle-grade grade-all: --grades needs a value\n"),
            "{e}"
        );
        let e = parse("grade", args(&["p", "--grades", "g"])).err().unwrap();
        assert!(
            e.starts_with("puzzle-grade grade: unknown option --grades\n"),
            "{e}"
        );
        let e = parse("grade-all", args(&["s", "--resume", "--only", "a"]))
            .err()
            .unwrap();
        assert!(e.contains("--only and --resume"), "{e}");
        assert!(parse("grade-all", args(&["s", "--shard", "5/4"])).is_err());
        assert!(parse("fuzz", args(&["a", "b"]))
            .err()
            .unwrap()
            .contains("one PROGRAM"));
    }

    #[test]
    fn fuzz_reads_its_options_around_its_program() {
        let Ok(Command::Fuzz(o, None)) = parse(
            "fuzz",
            args(&[
                "--strict",
                "--timeout",
                "5",
                "prog",
                "--seed",
                "9",
                "--seconds=3",
                "--into",
                "out",
            ]),
        ) else {
            panic!("not fuzz");
        };
        assert_eq!((o.seed, o.seconds), (9, 3));
        assert_eq!(o.into, PathBuf::from("out"));
        assert_eq!(o.program, PathBuf::from("prog"));
        assert!(o.settings.strict);
        assert_eq!(o.settings.timeout, Some(5));
        let e = parse("fuzz", args(&["--seconds", "0", "p"])).err().unwrap();
        assert_eq!(
            e,
            "puzzle-grade: --seconds 0 is not a whole number of seconds"
        );
        let e = parse("fuzz", args(&["--color", "x", "p"])).err().unwrap();
        assert!(
            e.starts_with("puzzle-grade fuzz: unknown option --color\n"),
            "{e}"
        );
        let e = parse("fuzz", args(&[])).err().unwrap();
        assert!(
            e.starts_with("puzzle-grade fuzz: no PROGRAM\nUsage: puzzle-grade fuzz"),
            "{e}"
        );
    }

    #[test]
    fn the_options_that_decide_marks_are_recorded_in_one_order() {
        let a = grading(
            "grade-all",
            &["s", "--jobs", "3", "--timeout", "5", "--strict", "x"],
        );
        let b = grading(
            "grade-all",
            &["--strict", "--timeout", "5", "s", "x", "--grades", "g"],
        );
        assert_eq!(a.marks_options, b.marks_options);
        assert_eq!(
            a.marks_options.join(" "),
            "--strict --timeout 5 --memory 1024 --processes 64 --build-timeout 120 fixtures x"
        );
        match grading("grade-all", &["s", "--only", "a", "--only", "b"]).select {
            Select::Only(names) => assert_eq!(names, ["a", "b"]),
            other => panic!("{other:?}"),
        }
    }
}
