//! `puzzle-grade`: grades other implementations of the assignment, every run
//! in a sandbox. `sh Testrun grade`, `grade-all`, `check` and `open` call it;
//! the rules are in `docs/grading.md`.
//!
//! A binary of its own, not a mode of `puzzle`: `puzzle` takes a FILE operand,
//! so a word such as `grade` could not be told from a file of that name, and
//! the sandbox is operating-system glue that the library (which forbids
//! unsafe code) must not hold. This file owns the command line, the streams
//! and the exit statuses: 0 when everything passed, 1 when something failed,
//! 2 for a bad command line or a grading that could not be done, 128 + N
//! when signal N stopped it.

mod sandbox;
mod signals;

use puzzle::grade::fixture::Category;
use puzzle::grade::open_choice::in_words;
use puzzle::grade::report::write_report;
use puzzle::grade::run::Runner;
use puzzle::grade::submissions::{submission_names, GradeAll, Row};
use puzzle::grade::{grade_program, prepare_fixtures, Settings};
use sandbox::Sandbox;
use std::ffi::OsString;
use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
Usage: puzzle-grade MODE [OPTIONS] ARGS
  grade PROGRAM [DIR...]        grade one program on Tests/ and each DIR
  grade-all SUBMISSIONS [DIR...]
                                build and grade every folder of SUBMISSIONS
  open [DIR...]                 the fixtures the assignment leaves open
  check [DIR...]                the reference answers every fixture as named
  run [LIMITS] -- PROGRAM [ARGS...]
                                one program in the sandbox
Options of grade and grade-all:
  --strict              byte for byte against the reference
  --timeout S           every run at most S seconds (default 10 + 60 a MB)
  --jobs N              runs at once (default: one a core)
  --memory MIB          memory a run may use (default 1024)
  --processes N         processes a run may have at once (default 64)
  --read-only PATH      let the runs read PATH too (repeatable; ':' separates)
  --grades DIR          grade-all: where the reports go (default grades)
  --build-timeout S     grade-all: each build command at most S s (default 120)
  --reference PATH      check: the executable to check (default ./puzzle)
Run it from the folder that holds Tests/.";

/// Why the command stops early.
enum Failure {
    /// The command line is wrong: stderr, status 2.
    Usage(String),
    /// The grading could not be done: stderr, status 2.
    System(String),
    /// A signal stopped it: status 128 + the signal.
    Signalled(i32),
    /// Something was graded and failed: status 1.
    Failed,
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        match signals::caught() {
            Some(signum) => Failure::Signalled(signum),
            None if e.kind() == io::ErrorKind::BrokenPipe => Failure::Signalled(13),
            None => Failure::System(e.to_string()),
        }
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let mode = args.next();
    let rest: Vec<OsString> = args.collect();
    let mode = mode.as_ref().and_then(|m| m.to_str()).unwrap_or("");
    if mode == "run" {
        return sandbox::sandbox_command(rest);
    }
    signals::catch();
    let result = match mode {
        "grade" | "grade-all" | "open" | "check" => Options::parse(mode, rest)
            .and_then(|options| with_temp(|temp| run(mode, &options, temp))),
        "fuzz" => fuzz(rest),
        "-h" | "--help" => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(Failure::Usage(USAGE.into())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Failed) => ExitCode::FAILURE,
        Err(Failure::Signalled(signum)) => ExitCode::from((128 + signum).clamp(0, 255) as u8),
        Err(Failure::Usage(message)) | Err(Failure::System(message)) => {
            let _ = writeln!(io::stderr(), "{message}");
            ExitCode::from(2)
        }
    }
}

/// The command line of a grading mode.
struct Options {
    settings: Settings,
    operands: Vec<PathBuf>,
    grades: PathBuf,
    build_seconds: u64,
    reference: PathBuf,
}

impl Options {
    fn parse(mode: &str, args: Vec<OsString>) -> Result<Options, Failure> {
        let usage = |what: &str| {
            Failure::Usage(match mode {
                "grade" => format!("{what}usage: puzzle-grade grade [OPTIONS] PROGRAM [DIR...]"),
                "grade-all" => {
                    format!("{what}usage: puzzle-grade grade-all [OPTIONS] SUBMISSIONS [DIR...]")
                }
                _ => format!("{what}usage: puzzle-grade {mode} [DIR...]"),
            })
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
            let number = |what: &str| -> Result<u64, Failure> {
                value
                    .to_str()
                    .and_then(|v| v.parse::<u64>().ok())
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| {
                        Failure::Usage(format!(
                            "puzzle-grade: {text} {} is not {what}",
                            value.to_string_lossy()
                        ))
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

/// A temporary folder of the grading's own, in `$TMPDIR`, removed however
/// `work` ends.
fn with_temp<T>(work: impl FnOnce(&Path) -> Result<T, Failure>) -> Result<T, Failure> {
    let base = std::env::var_os("TMPDIR")
        .filter(|t| !t.is_empty())
        .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
    let temp = (0..1000)
        .map(|n| base.join(format!("puzzle-grade.{}.{n}", std::process::id())))
        .find(|path| fs::create_dir(path).is_ok())
        .ok_or_else(|| {
            Failure::System(format!(
                "puzzle-grade: cannot make a temporary folder in {}",
                base.display()
            ))
        })?;
    let result = work(&temp);
    let _ = fs::remove_dir_all(&temp);
    result
}

/// `path` as an absolute path (a bare name is the file in this folder).
fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .unwrap_or_default()
            .join(path.strip_prefix("./").unwrap_or(path))
    }
}

/// `Tests` and the folders named, each checked.
fn fixture_folders(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut folders = vec![PathBuf::from("Tests")];
    folders.extend(dirs.iter().cloned());
    for dir in &folders {
        if !dir.is_dir() {
            return Err(Failure::Usage(format!(
                "puzzle-grade: {} is not a folder (run it from the folder that holds Tests/)",
                dir.display()
            )));
        }
    }
    Ok(folders)
}

fn is_executable_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

fn run(mode: &str, options: &Options, temp: &Path) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match mode {
        "open" => {
            let fixtures = prepare_fixtures(&fixture_folders(&options.operands)?, false)?;
            for f in fixtures.iter().filter(|f| !f.choices.is_empty()) {
                writeln!(out, "{}: {}: {}", f.shown, in_words(&f.choices), f.allowed)?;
            }
            out.flush()?;
            Ok(())
        }
        "check" => check(
            &options.reference,
            &fixture_folders(&options.operands)?,
            &mut out,
        ),
        "grade" => {
            let program = absolute(&options.operands[0]);
            if !is_executable_file(&program) {
                return Err(Failure::Usage(format!(
                    "puzzle-grade: {} is not an executable file",
                    options.operands[0].display()
                )));
            }
            let folders = fixture_folders(&options.operands[1..])?;
            let fixtures = prepare_fixtures(&folders, options.settings.strict)?;
            let sandbox = Sandbox::new(temp.join("scratch"));
            writeln!(out, "{}", sandbox.protections())?;
            out.flush()?;
            let progress = io::stderr().is_terminal();
            let count = fixtures.len();
            let done = |n: usize| {
                if progress {
                    let _ = write!(io::stderr(), "\rgraded {n} of {count}");
                }
            };
            let graded = grade_program(
                &sandbox,
                &program,
                &fixtures,
                &options.settings,
                temp,
                &done,
            );
            if progress {
                let _ = write!(io::stderr(), "\r\x1b[K");
            }
            let counts = write_report(&mut out, &fixtures, &graded?, options.settings.strict)?;
            out.flush()?;
            if counts.total_failed() == 0 {
                Ok(())
            } else {
                Err(Failure::Failed)
            }
        }
        _ => grade_all(options, temp, &mut out),
    }
}

fn grade_all(options: &Options, temp: &Path, out: &mut dyn Write) -> Result<(), Failure> {
    let submissions = absolute(&options.operands[0]);
    if !submissions.is_dir() {
        return Err(Failure::Usage(format!(
            "puzzle-grade: {} is not a folder of submissions",
            options.operands[0].display()
        )));
    }
    let names = submission_names(&submissions)?;
    if names.is_empty() {
        return Err(Failure::Usage(format!(
            "puzzle-grade: {} holds no folders",
            options.operands[0].display()
        )));
    }
    let folders = fixture_folders(&options.operands[1..])?;
    let fixtures = prepare_fixtures(&folders, options.settings.strict)?;
    let sandbox = Sandbox::new(temp.join("scratch"));
    let protections = sandbox.protections();
    let _ = writeln!(io::stderr(), "puzzle-grade: {protections}");
    let grades = absolute(&options.grades);
    let all = GradeAll {
        runner: &sandbox,
        settings: &options.settings,
        fixtures: &fixtures,
        submissions,
        grades: grades.clone(),
        temp: temp.to_path_buf(),
        build_seconds: options.build_seconds,
        protections,
    };
    let mut progress = |row: &Row| {
        let how = match &row.counts {
            Some(c) => format!(
                "{} passed, {} failed",
                c.total_fixtures() - c.total_failed(),
                c.total_failed()
            ),
            None => "not built".into(),
        };
        let _ = writeln!(io::stderr(), "graded {}: {how}", row.name);
    };
    let rows = all.run(&names, out, &mut progress)?;
    let here = std::env::current_dir().unwrap_or_default();
    let shown = grades.strip_prefix(&here).unwrap_or(&grades);
    writeln!(
        out,
        "reports in {}/: NAME.txt, NAME.make.txt, summary.txt, summary.csv",
        shown.display()
    )?;
    out.flush()?;
    if rows.iter().all(Row::passed) {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}

/// `fuzz`: inputs of every kind, `PROGRAM` judged on each against the
/// reference, each fault found shrunk to a minimal case (the library's
/// `grade::fuzz`); status 1 when something was found.
fn fuzz(args: Vec<OsString>) -> Result<(), Failure> {
    let mut options = puzzle::grade::fuzz::Options::parse(args).map_err(Failure::Usage)?;
    if !is_executable_file(&options.program) {
        return Err(Failure::Usage(format!(
            "puzzle-grade: {} is not an executable file",
            options.program.display()
        )));
    }
    options.program = absolute(&options.program);
    with_temp(|temp| {
        let sandbox = Sandbox::new(temp.join("scratch"));
        let mut out = io::stdout().lock();
        writeln!(out, "{}", sandbox.protections())?;
        let summary = puzzle::grade::fuzz::fuzz(&sandbox, &options, temp, &mut out)?;
        if summary.found.is_empty() {
            Ok(())
        } else {
            Err(Failure::Failed)
        }
    })
}

/// `check`: the reference executable answers every fixture as its name says
/// (`bad*`: exit status 1 and one `error: ` line; `sol*` and `unsol*`: the
/// three lines and the verdict), nothing on stderr.
fn check(reference: &Path, folders: &[PathBuf], out: &mut dyn Write) -> Result<(), Failure> {
    if !is_executable_file(reference) {
        return Err(Failure::Usage(format!(
            "puzzle-grade: the reference {} is missing: run make first",
            reference.display()
        )));
    }
    let (mut passed, mut failed) = (0, 0);
    for fixture in prepare_fixtures(folders, true)? {
        let ran = std::process::Command::new(reference)
            .stdin(fs::File::open(&fixture.path)?)
            .output()?;
        let text = String::from_utf8_lossy(&ran.stdout);
        let text = text.trim_end_matches('\n');
        let last = text.rsplit('\n').next().unwrap_or("");
        let lines = text.split('\n').count();
        let status = ran.status.code().unwrap_or(-1);
        let want = match fixture.named {
            Category::Bad => "error",
            Category::Sol => "solvable",
            Category::Unsol => "unsolvable",
        };
        let ok = ran.stderr.is_empty()
            && if want == "error" {
                last.starts_with("error: ") && status == 1 && lines == 1
            } else {
                status == 0 && last == want && lines == 3
            };
        if ok {
            passed += 1;
        } else {
            failed += 1;
            let cut: String = last.chars().take(100).collect();
            writeln!(
                out,
                "FAIL {} (wanted {want}, got exit {status}: {cut})",
                fixture.shown
            )?;
        }
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    out.flush()?;
    if failed == 0 {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}
