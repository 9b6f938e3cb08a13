//! The command line of `puzzle-grade`'s grading modes.

use puzzle_grade::formats::FORMATS;
use puzzle_grade::marks::Scheme;
use puzzle_grade::Settings;
use std::ffi::OsString;
use std::fs;
use std::path::PathBuf;

/// The help text (`--help`).
pub const USAGE: &str = "\
Usage: puzzle-grade MODE [OPTIONS] ARGS
  grade PROGRAM [DIR...]        grade one program on Tests/ and each DIR
  grade-all SUBMISSIONS [DIR...]
                                build and grade every folder of SUBMISSIONS
  open [DIR...]                 the fixtures the assignment leaves open
  check [DIR...]                the reference answers every fixture as named
  fuzz [--seed N] [--seconds S] [--into DIR] [--strict] PROGRAM
                                generated inputs; each fault shrunk to a
                                minimal fixture (docs/grading.md)
  run [LIMITS] -- PROGRAM [ARGS...]
                                one program in the sandbox
  check-environment             the sandbox levels and controllers this machine
                                allows, and what to change for fair timing
                                (status 1 when something should change)
Options of grade and grade-all:
  --strict              byte for byte against the reference
  --timeout S           every run at most S seconds (default 10 + 60 a MB)
  --jobs N              runs at once (default: one a core)
  --memory MIB          memory a run may use (default 1024)
  --processes N         processes a run may have at once (default 64)
  --read-only PATH      let the runs read PATH too (repeatable; ':' separates)
  --scheme FILE         the marking scheme (default: verdicts 70, rejections 20,
                        exit status 5, format 5; see examples/marking-scheme.txt)
  --grades DIR          grade-all: where the reports go (default grades)
  --build-timeout S     grade-all: each build command at most S s (default 120)
  --format LIST         grade-all: also gradescope, prairielearn, junit files
                        for each submission (comma-separated)
  --only NAME           grade-all: grade only this submission (repeatable); the
                        summary keeps the rows of the others
  --fuzz S              after the fixtures, fuzz each program for S seconds
                        (see fuzz); the faults found are in the report and,
                        with grade-all, the table's fuzz column
  --reference PATH      check: the executable to check (default ./puzzle)
  --sandbox LEVEL       grade, grade-all and fuzz: namespaces, uid or minimal
                        (default: the most the system allows; see
                        docs/grading.md and puzzle-grade check-environment)
Run it from the folder that holds Tests/.";

/// The command line of a grading mode.
pub struct Options {
    pub settings: Settings,
    pub operands: Vec<PathBuf>,
    pub grades: PathBuf,
    pub build_seconds: u64,
    pub reference: PathBuf,
    pub formats: Vec<String>,
    pub only: Vec<String>,
    pub fuzz: Option<u64>,
}

impl Options {
    pub fn parse(mode: &str, args: Vec<OsString>) -> Result<Options, String> {
        let usage = |what: &str| match mode {
            "grade" => format!("{what}usage: puzzle-grade grade [OPTIONS] PROGRAM [DIR...]"),
            "grade-all" => {
                format!("{what}usage: puzzle-grade grade-all [OPTIONS] SUBMISSIONS [DIR...]")
            }
            _ => format!("{what}usage: puzzle-grade {mode} [DIR...]"),
        };
        let mut options = Options {
            settings: Settings {
                jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
                ..Settings::default()
            },
            operands: Vec::new(),
            grades: PathBuf::from("grades"),
            build_seconds: 120,
            reference: PathBuf::from("./puzzle"),
            formats: Vec::new(),
            only: Vec::new(),
            fuzz: None,
        };
        let mut args = args.into_iter();
        let mut options_done = false;
        while let Some(arg) = args.next() {
            let text = arg.to_string_lossy().into_owned();
            if options_done || !text.starts_with("--") {
                options.operands.push(PathBuf::from(arg));
                continue;
            }
            if text == "--" {
                options_done = true;
                continue;
            }
            if text == "--strict" {
                options.settings.strict = true;
                continue;
            }
            let Some(value) = args.next() else {
                return Err(usage(&format!("puzzle-grade: {text} needs a value\n")));
            };
            let number = |what: &str| -> Result<u64, String> {
                value
                    .to_str()
                    .and_then(|v| v.parse::<u64>().ok())
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| {
                        format!(
                            "puzzle-grade: {text} {} is not {what}",
                            value.to_string_lossy()
                        )
                    })
            };
            match text.as_str() {
                "--timeout" => {
                    options.settings.timeout = Some(number("a whole number of seconds")?)
                }
                "--jobs" => options.settings.jobs = number("a whole number of runs")? as usize,
                "--memory" => options.settings.memory = number("a whole number of MiB")? << 20,
                "--processes" => options.settings.processes = number("a whole number")?,
                "--build-timeout" => options.build_seconds = number("a whole number of seconds")?,
                "--read-only" => options
                    .settings
                    .read_only
                    .extend(std::env::split_paths(&value).filter(|p| !p.as_os_str().is_empty())),
                "--grades" => options.grades = PathBuf::from(value),
                "--scheme" => {
                    let text = fs::read_to_string(&value).map_err(|e| {
                        format!(
                            "puzzle-grade: cannot read the scheme {}: {e}",
                            value.to_string_lossy()
                        )
                    })?;
                    options.settings.scheme = Scheme::parse(&text).map_err(|e| {
                        format!("puzzle-grade: the scheme {}: {e}", value.to_string_lossy())
                    })?;
                }
                "--format" => {
                    for format in value.to_string_lossy().split(',') {
                        if !FORMATS.contains(&format) {
                            return Err(format!(
                                "puzzle-grade: --format {format}: not one of {}",
                                FORMATS.join(", ")
                            ));
                        }
                        options.formats.push(format.to_string());
                    }
                }
                "--only" => options.only.push(value.to_string_lossy().into_owned()),
                "--fuzz" => options.fuzz = Some(number("a whole number of seconds")?),
                "--reference" => options.reference = PathBuf::from(value),
                _ => return Err(usage(&format!("puzzle-grade: unknown option {text}\n"))),
            }
        }
        if matches!(mode, "grade" | "grade-all") && options.operands.is_empty() {
            return Err(usage(""));
        }
        Ok(options)
    }
}
