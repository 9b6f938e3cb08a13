//! `puzzle-grade`: grades other implementations of the assignment, every run
//! in a sandbox. `sh Testrun grade`, `grade-all`, `check` and `open` call it;
//! the rules are in `docs/grading.md`.
//!
//! A binary of its own, not a mode of `puzzle`: `puzzle` takes a FILE operand,
//! so a word such as `grade` could not be told from a file of that name. This file owns the command line, the streams
//! and the exit statuses: 0 when everything passed, 1 when something failed,
//! 2 for a bad command line or a grading that could not be done, 128 + N
//! when signal N stopped it.

#![forbid(unsafe_code)]

mod args;
mod run;

use args::{Command, Options, USAGE};
use puzzle_grade::build::is_executable;
use puzzle_grade::check::check_reference;
use puzzle_grade::marks::points;
use puzzle_grade::open_choice::in_words;
use puzzle_grade::record::Row;
use puzzle_grade::report::write_report_with;
use puzzle_grade::submissions::GradeAll;
use puzzle_grade::{grade_program, prepare_fixtures};
use puzzle_sandbox::signals::{self, Signal};
use puzzle_sandbox::{Level, Runner, Sandbox};
use std::ffi::OsString;
use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
        return run::sandbox_command(rest);
    }
    signals::catch(&[Signal::Hangup, Signal::Interrupt, Signal::Terminate]);
    let result = match mode {
        "grade" | "grade-all" | "open" | "check" | "fuzz" | "merge" | "check-environment" => {
            args::parse(mode, rest)
                .map_err(Failure::Usage)
                .and_then(|command| match command {
                    Command::Help(text) => {
                        let _ = writeln!(io::stdout(), "{text}");
                        Ok(())
                    }
                    Command::Grading(options) => with_temp(|temp| grading(&options, temp)),
                    Command::Fuzz(options, level) => fuzz(options, level),
                    Command::CheckEnvironment => check_environment(),
                    Command::Merge { into, shards } => merge(&into, &shards),
                })
        }
        "-h" | "--help" => {
            let _ = writeln!(io::stdout(), "{USAGE}");
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

/// The sandbox at `level`, or at the most the system allows.
fn sandbox(scratch: PathBuf, level: Option<Level>) -> Result<Sandbox, Failure> {
    match level {
        Some(level) => Sandbox::at_level(scratch, level)
            .map_err(|e| Failure::System(format!("puzzle-grade: {e}"))),
        None => Ok(Sandbox::new(scratch)),
    }
}

/// `check-environment`: what this machine allows and what to change for
/// fair timing; status 1 when something should change.
fn check_environment() -> Result<(), Failure> {
    let env = with_temp(|temp| Ok(puzzle_sandbox::check_environment(temp.join("probe"))))?;
    let mut out = io::stdout().lock();
    write!(out, "{env}")?;
    out.flush()?;
    if env.is_fair() {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}

/// A temporary folder of the grading's own, in `$TMPDIR`, removed however
/// `work` ends.
fn with_temp<T>(work: impl FnOnce(&Path) -> Result<T, Failure>) -> Result<T, Failure> {
    let base = std::env::var_os("TMPDIR")
        .filter(|t| !t.is_empty())
        .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
    // The process id in seven digits (pid_max is at most 2^22): the paths a
    // run is given (its program, HOME, TMPDIR) are as long in every grading,
    // so that, its addresses not randomised, its stack is laid out the same.
    let temp = (0..1000)
        .map(|n| base.join(format!("puzzle-grade.{:07}.{n}", std::process::id())))
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

fn grading(options: &Options, temp: &Path) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match options.mode.as_str() {
        "open" => {
            let fixtures = prepare_fixtures(&fixture_folders(&options.operands)?, false)?;
            for f in fixtures.iter().filter(|f| !f.choices.is_empty()) {
                writeln!(out, "{}: {}: {}", f.shown, in_words(&f.choices), f.allowed)?;
            }
            out.flush()?;
            Ok(())
        }
        "check" => {
            let reference = &options.reference;
            if !is_executable(reference) {
                return Err(Failure::Usage(format!(
                    "puzzle-grade: the reference {} is missing: run make first",
                    reference.display()
                )));
            }
            let fixtures = prepare_fixtures(&fixture_folders(&options.operands)?, true)?;
            if check_reference(reference, &fixtures, &mut out)? {
                Ok(())
            } else {
                Err(Failure::Failed)
            }
        }
        "grade" => {
            let program = absolute(&options.operands[0]);
            if !is_executable(&program) {
                return Err(Failure::Usage(format!(
                    "puzzle-grade: {} is not an executable file",
                    options.operands[0].display()
                )));
            }
            let folders = fixture_folders(&options.operands[1..])?;
            let fixtures = prepare_fixtures(&folders, options.settings.strict)?;
            let sandbox = sandbox(temp.join("scratch"), options.level)?;
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
            let graded = graded?;
            // The fuzzing's transcript goes before the table (the report's
            // last line stays 'N passed, M failed').
            let mut transcript = Vec::new();
            let mut faults = 0;
            if let Some(seconds) = options.fuzz {
                let fuzzing = puzzle_grade::fuzz::Options {
                    seed: 1,
                    seconds,
                    into: PathBuf::from("fuzz-found"),
                    settings: options.settings.clone(),
                    program: program.clone(),
                };
                let summary = puzzle_grade::fuzz::fuzz(&sandbox, &fuzzing, temp, &mut transcript)?;
                faults = summary.found.len();
            }
            let strict = options.settings.strict;
            let counts = write_report_with(&mut out, &fixtures, &graded, strict, &transcript)?;
            out.flush()?;
            if counts.total_failed() == 0 && faults == 0 {
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
    let folders = fixture_folders(&options.operands[1..])?;
    let fixtures = prepare_fixtures(&folders, options.settings.strict)?;
    let sandbox = sandbox(temp.join("scratch"), options.level)?;
    let protections = sandbox.protections();
    let _ = writeln!(io::stderr(), "puzzle-grade: {protections}");
    let grades = absolute(&options.grades);
    let stop = || signals::caught().is_some();
    let all = GradeAll {
        runner: &sandbox,
        settings: &options.settings,
        fixtures: &fixtures,
        submissions,
        grades: grades.clone(),
        temp: temp.to_path_buf(),
        build_seconds: options.build_seconds,
        protections,
        formats: options.formats.clone(),
        fuzz_seconds: options.fuzz,
        options: options.marks_options.join(" "),
        select: options.select.clone(),
        shard: options.shard,
        stop: &stop,
    };
    let mut progress = |row: &Row| {
        let how = match &row.marks {
            Some(m) => {
                let fuzz = m
                    .fuzz
                    .map_or(String::new(), |n| format!(", {n} found by fuzzing"));
                format!(
                    "{} passed, {} failed, {} of {} points{fuzz}",
                    m.passed,
                    m.failed,
                    points(m.score),
                    points(m.max)
                )
            }
            None => "not built".into(),
        };
        let _ = writeln!(io::stderr(), "graded {}: {how}", row.name);
    };
    let graded = all.run(out, &mut progress).map_err(refused)?;
    for note in &graded.notes {
        let _ = writeln!(io::stderr(), "puzzle-grade: {note}");
    }
    let here = std::env::current_dir().unwrap_or_default();
    let shown = grades.strip_prefix(&here).unwrap_or(&grades);
    if graded.stopped {
        let signum = signals::caught().unwrap_or(2);
        let _ = writeln!(
            io::stderr(),
            "puzzle-grade: stopped by signal {signum} after {} of {} submissions; {}/summary.* are marked incomplete; the same command with --resume grades the rest",
            graded.rows.len(),
            graded.to_grade,
            shown.display()
        );
        return Err(Failure::Signalled(signum));
    }
    writeln!(
        out,
        "reports in {}/: NAME.txt, NAME.make.txt, summary.txt, summary.csv; the class page: {}/index.html",
        shown.display(),
        shown.display()
    )?;
    out.flush()?;
    if graded.all_passed {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}

/// A grading refused (an error of kind `InvalidInput`) is a usage error.
fn refused(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::InvalidInput {
        Failure::Usage(format!("puzzle-grade: {e}"))
    } else {
        Failure::from(e)
    }
}

/// `merge`: one grading from its shards' grades folders; status 1 when a
/// submission is missing or in two shards.
fn merge(into: &Path, shards: &[PathBuf]) -> Result<(), Failure> {
    let merged = puzzle_grade::merge::merge(into, shards).map_err(refused)?;
    for problem in &merged.problems {
        let _ = writeln!(io::stderr(), "puzzle-grade: merge: {problem}");
    }
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "merged {} shard(s), {} submissions, into {}",
        shards.len(),
        merged.submissions,
        into.display()
    )?;
    out.flush()?;
    if merged.problems.is_empty() {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}

/// `fuzz`: inputs of every kind, `PROGRAM` judged on each against the
/// reference, each fault found shrunk to a minimal case (the library's
/// `grade::fuzz`); status 1 when something was found.
fn fuzz(mut options: puzzle_grade::fuzz::Options, level: Option<Level>) -> Result<(), Failure> {
    if !is_executable(&options.program) {
        return Err(Failure::Usage(format!(
            "puzzle-grade: {} is not an executable file",
            options.program.display()
        )));
    }
    options.program = absolute(&options.program);
    with_temp(|temp| {
        let sandbox = sandbox(temp.join("scratch"), level)?;
        let mut out = io::stdout().lock();
        writeln!(out, "{}", sandbox.protections())?;
        let summary = puzzle_grade::fuzz::fuzz(&sandbox, &options, temp, &mut out)?;
        if summary.found.is_empty() {
            Ok(())
        } else {
            Err(Failure::Failed)
        }
    })
}
