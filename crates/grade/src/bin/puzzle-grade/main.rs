//! `puzzle-grade`: grades other implementations of the assignment, every run
//! in a sandbox. `sh Testrun grade`, `grade-all`, `check` and `open` call it;
//! the rules are in `docs/grading-reference.md`.
//!
//! A binary of its own, not a mode of `puzzle`: `puzzle` takes a FILE operand,
//! so a word such as `grade` could not be told from a file of that name.
//! This file owns the streams and calls each mode; the command line is
//! `args.rs`'s, and the exit statuses and the shape of every message on
//! stderr are `status.rs`'s (0 when everything passed, 1 when something
//! failed, 2 for a bad command line or a grading that could not be done, 3
//! when some submissions of a grading could not be graded, 128 + N when
//! signal N stopped it).

#![forbid(unsafe_code)]

mod args;
mod status;

use args::{Command, Given, Mode};
use puzzle_grade::{
    busy_at_end, busy_at_start, check_environment as probe_environment, check_reference,
    diff as diff_gradings, is_executable, merge as merge_shards, not_run_meta, open_choices,
    points, prepare_fixtures, write_gradebook, Ending, Error, Fuzz, FuzzOptions, Grade, GradeAll,
    NotRun, Row, Run, Scope, Settings, Similar, SimilarSettings, SimilarityAsked,
};
use puzzle_sandbox::signals::{self, Signal};
use puzzle_sandbox::{Load, Runner, Sandbox};
use status::{message, Status};
use std::ffi::OsString;
use std::fmt::Display;
use std::fs::{self, File};
use std::io::{self, IsTerminal, Write};
use std::os::fd::AsFd;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Says `what` on stderr as a message of `mode`, in the shape of every
/// message (`status.rs`); lost if stderr is gone.
fn say(mode: Mode, what: &dyn Display) {
    let _ = writeln!(io::stderr(), "{}", message(Some(mode.name()), what));
}

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
    /// Some submissions could not be graded (the others were): status 3.
    NotGraded,
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        match signals::caught() {
            Some(signum) => Failure::Signalled(signum),
            // Our stdout closed (a reader that quit): as SIGPIPE would
            // have it, whatever error the write came back as.
            None if STDOUT_CLOSED.load(Ordering::Relaxed) => Failure::Signalled(13),
            None => Failure::System(e.to_string()),
        }
    }
}

/// Set when a write to our stdout found it closed.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Our stdout, locked, telling [`STDOUT_CLOSED`] when a write finds no
/// reader: the status is then decided by which stream failed, not by the
/// kind of whatever error comes back to `main`.
struct Stdout(io::StdoutLock<'static>);

fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

impl Stdout {
    fn noted<T>(result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result {
            if e.kind() == io::ErrorKind::BrokenPipe {
                STDOUT_CLOSED.store(true, Ordering::Relaxed);
            }
        }
        result
    }
}

impl Write for Stdout {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        Stdout::noted(self.0.write(bytes))
    }

    fn flush(&mut self) -> io::Result<()> {
        Stdout::noted(self.0.flush())
    }
}

fn main() -> ExitCode {
    let command = match args::parse(std::env::args_os().skip(1).collect()) {
        Ok(command) => command,
        Err(message) => {
            let _ = writeln!(io::stderr(), "{message}");
            return Status::Unusable.exit();
        }
    };
    let (mode, given) = match command {
        Command::Help(text) => {
            let mut out = stdout();
            return match writeln!(out, "{text}").and_then(|()| out.flush()) {
                Ok(()) => Status::Passed.exit(),
                Err(_) => Status::Unusable.exit(),
            };
        }
        Command::Mode(mode, given) => (mode, *given),
    };
    for note in &given.notes {
        say(mode, note);
    }
    if mode == Mode::Run {
        return run(&given);
    }
    signals::catch(&[Signal::Hangup, Signal::Interrupt, Signal::Terminate]);
    let result = match mode {
        Mode::Grade => with_temp(|temp| grade(&given, temp)),
        Mode::GradeAll => with_temp(|temp| grade_all(&given, temp)),
        Mode::Similar => with_temp(|temp| similar(&given, temp)),
        Mode::Open => open(&given),
        Mode::Check => check(&given),
        Mode::Fuzz => fuzz(&given),
        Mode::Merge => merge(&given),
        Mode::Gradebook => gradebook(&given),
        Mode::Diff => diff(&given),
        Mode::CheckEnvironment => check_environment(),
        Mode::Run => unreachable!("run is handled above"),
    };
    match result {
        Ok(()) => Status::Passed.exit(),
        Err(Failure::Failed) => Status::Failed.exit(),
        Err(Failure::NotGraded) => Status::NotGraded.exit(),
        Err(Failure::Signalled(signum)) => Status::Signalled(signum).exit(),
        Err(Failure::Usage(message)) | Err(Failure::System(message)) => {
            say(mode, &message);
            Status::Unusable.exit()
        }
    }
}

/// `check-environment`: what this machine allows and what to change for
/// fair timing; status 1 when something should change.
fn check_environment() -> Result<(), Failure> {
    let env = with_temp(|temp| Ok(probe_environment(temp)))?;
    let mut out = stdout();
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
                "cannot make a temporary folder in {}",
                base.display()
            ))
        })?;
    let result = work(&temp);
    let _ = fs::remove_dir_all(&temp);
    result
}

/// `path` as an absolute path without `.` or `..` (links resolved where it
/// exists; a bare name is the file in this folder), so that a grading
/// records and compares its folders the same however they were named.
fn absolute(path: &Path) -> PathBuf {
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    let mut whole = if path.is_absolute() {
        PathBuf::new()
    } else {
        std::env::current_dir().unwrap_or_default()
    };
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                whole.pop();
            }
            other => whole.push(other),
        }
    }
    match (whole.parent(), whole.file_name()) {
        (Some(parent), Some(name)) => {
            fs::canonicalize(parent).map_or(whole.clone(), |p| p.join(name))
        }
        _ => whole,
    }
}

/// `Tests` and the folders named, each checked.
fn fixture_folders(dirs: &[OsString]) -> Result<Vec<PathBuf>, Failure> {
    let mut folders = vec![PathBuf::from("Tests")];
    folders.extend(dirs.iter().map(PathBuf::from));
    for dir in &folders {
        if !dir.is_dir() {
            return Err(Failure::Usage(format!(
                "{} is not a folder (run it from the folder that holds Tests/)",
                dir.display()
            )));
        }
    }
    Ok(folders)
}

/// The sandbox at the level `given` asks for, or at the most the system
/// allows, its scratch folder in `temp`.
fn given_sandbox(given: &Given, temp: &Path) -> Result<Sandbox, Failure> {
    let scratch = temp.join("scratch");
    match given.level {
        Some(level) => Sandbox::at_level(scratch, level).map_err(Failure::System),
        None => Ok(Sandbox::new(scratch)),
    }
}

/// `open`: the fixtures whose answer depends on a choice the assignment
/// leaves open.
fn open(given: &Given) -> Result<(), Failure> {
    let fixtures = prepare_fixtures(&fixture_folders(&given.operands)?, false)?;
    open_choices(&fixtures, &mut stdout())?;
    Ok(())
}

/// `check`: the reference answers every fixture as its name says.
fn check(given: &Given) -> Result<(), Failure> {
    let mut out = stdout();
    let reference = given
        .reference
        .clone()
        .unwrap_or_else(|| PathBuf::from("./puzzle"));
    if !is_executable(&reference) {
        return Err(Failure::Usage(format!(
            "the reference {} is missing: run make first",
            reference.display()
        )));
    }
    let fixtures = prepare_fixtures(&fixture_folders(&given.operands)?, true)?;
    if check_reference(&reference, &fixtures, &mut out)? {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}

/// `grade`: one program on every fixture; the report ends with its score.
fn grade(given: &Given, temp: &Path) -> Result<(), Failure> {
    let named = Path::new(&given.operands[0]);
    let program = absolute(named);
    if !is_executable(&program) {
        return Err(Failure::Usage(format!(
            "{} is not an executable file",
            named.display()
        )));
    }
    let settings = given.settings();
    let folders = fixture_folders(&given.operands[1..])?;
    let fixtures = prepare_fixtures(&folders, settings.strict)?;
    let sandbox = given_sandbox(given, temp)?;
    say(Mode::Grade, &sandbox.protections());
    // Progress on a terminal, erased once every fixture is done (before
    // the report).
    let progress = io::stderr().is_terminal();
    let count = fixtures.len();
    let done = |n: usize| {
        if progress {
            let line = message(
                Some(Mode::Grade.name()),
                &format_args!("graded {n} of {count}"),
            );
            let _ = write!(io::stderr(), "\r{line}");
            if n == count {
                let _ = write!(io::stderr(), "\r\x1b[K");
            }
        }
    };
    let fuzz_into = PathBuf::from("fuzz-found");
    let one = Grade {
        runner: &sandbox,
        program: &program,
        settings: &settings,
        fixtures: &fixtures,
        work: temp,
        fuzz_seconds: given.fuzz,
        fuzz_into: &fuzz_into,
        // The budget starts with the grading.
        deadline: settings.budget.map(|b| Instant::now() + b),
        done: &done,
    };
    let marked = one.run(&mut stdout());
    if progress && marked.is_err() {
        let _ = write!(io::stderr(), "\r\x1b[K");
    }
    if marked?.all_passed() {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}

/// The folder of submissions the first operand names, made absolute, or
/// why it is none.
fn submissions_folder(given: &Given) -> Result<PathBuf, Failure> {
    let named = Path::new(&given.operands[0]);
    let submissions = absolute(named);
    if !submissions.is_dir() {
        return Err(Failure::Usage(format!(
            "{} is not a folder of submissions",
            named.display()
        )));
    }
    Ok(submissions)
}

/// `grade-all`: every submission built and graded, a row each.
fn grade_all(given: &Given, temp: &Path) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    let submissions = submissions_folder(given)?;
    templates_exist(given)?;
    let settings = given.settings();
    let folders = fixture_folders(&given.operands[1..])?;
    let fixtures = prepare_fixtures(&folders, settings.strict)?;
    let sandbox = given_sandbox(given, temp)?;
    let protections = sandbox.protections();
    say(Mode::GradeAll, &protections);
    let load = Load::now();
    if let Some(busy) = busy_at_start(&load) {
        say(Mode::GradeAll, &busy);
    }
    let grades = absolute(given.grades.as_deref().unwrap_or(Path::new("grades")));
    let stop = || signals::caught().is_some();
    let all = GradeAll {
        runner: &sandbox,
        settings: &settings,
        fixtures: &fixtures,
        submissions,
        grades: grades.clone(),
        temp: temp.to_path_buf(),
        build_seconds: given.build_seconds(),
        protections,
        formats: given.formats_of(Scope::Submission),
        gradebook: given.gradebook(),
        fuzz_seconds: given.fuzz,
        options: given.marks_options(Mode::GradeAll),
        select: given.select(),
        replace: given.replace,
        shard: given.shard,
        similarity: (!given.no_similarity).then(|| SimilarityAsked {
            templates: given.templates.clone(),
            common: given.common,
        }),
        stop: &stop,
        tell: &|note| say(Mode::GradeAll, &note),
    };
    let mut progress = |row: &Row| {
        let how = match &row.marks {
            Some(m) => {
                let fuzz = m
                    .fuzz
                    .map_or(String::new(), |n| format!(", {n} found by fuzzing"));
                let not_graded = match m.not_graded() {
                    0 => String::new(),
                    n => format!(", {n} not graded"),
                };
                format!(
                    "{} passed, {} failed{not_graded}, {} of {} points{fuzz}",
                    m.passed,
                    m.failed,
                    points(m.score),
                    points(m.max)
                )
            }
            None => "not built".into(),
        };
        say(Mode::GradeAll, &format_args!("graded {}: {how}", row.name));
    };
    let graded = all.run(&mut out, &mut progress).map_err(refused)?;
    for note in graded.notes.iter().chain(&graded.similarity) {
        say(Mode::GradeAll, note);
    }
    if let Some(busy) = busy_at_end(&load, &Load::now(), graded.machines.len()) {
        say(Mode::GradeAll, &busy);
        for fixture in &graded.machines {
            say(
                Mode::GradeAll,
                &format_args!("  NOT GRADED, the machine's: {fixture}"),
            );
        }
    }
    let here = std::env::current_dir().unwrap_or_default();
    let shown = grades.strip_prefix(&here).unwrap_or(&grades).display();
    if graded.stopped {
        let signum = signals::caught().unwrap_or(2);
        say(Mode::GradeAll, &format_args!(
            "stopped by signal {signum} after {} of {} submissions; {shown}/summary.* are marked incomplete; the same command again (or with --resume) grades the rest",
            graded.rows.len(),
            graded.to_grade,
        ));
        return Err(Failure::Signalled(signum));
    }
    let books = if graded.gradebook_files.is_empty() {
        String::new()
    } else {
        format!(
            "; the gradebooks' imports: {}",
            graded.gradebook_files.join(", ")
        )
    };
    writeln!(
        out,
        "files in {shown}/: to hand to each student NAME.feedback.md (or .html); for markers NAME.txt (the report) and NAME.make.txt (the build log); the class: summary.txt, summary.csv and index.html (the class page){books}",
    )?;
    out.flush()?;
    let not_graded: Vec<String> = graded
        .not_graded
        .iter()
        .map(|n| n.shown().to_string())
        .collect();
    some_not_done(Mode::GradeAll, &not_graded, |count, names| {
        format!("{count} submission(s) could not be graded (their rows say why): {names}; the same command with --resume grades them again")
    })?;
    if graded.all_passed {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}

/// Every `--template` given is there, or a usage error naming it.
fn templates_exist(given: &Given) -> Result<(), Failure> {
    match given.templates.iter().find(|t| !t.exists()) {
        Some(missing) => Err(Failure::Usage(format!(
            "--template {}: no such file or folder",
            missing.display()
        ))),
        None => Ok(()),
    }
}

/// `similar`: which submissions share code; status 3 when some could not
/// be read.
fn similar(given: &Given, temp: &Path) -> Result<(), Failure> {
    let submissions = submissions_folder(given)?;
    templates_exist(given)?;
    let sandbox = given_sandbox(given, temp)?;
    let stop = || signals::caught().is_some();
    let out_dir = given
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("similarity"));
    let settings = given.settings();
    let similar = Similar {
        runner: &sandbox,
        submissions,
        out: out_dir.clone(),
        templates: given.templates.clone(),
        temp: temp.to_path_buf(),
        path: settings.path.clone(),
        seconds: given.build_seconds(),
        settings: SimilarSettings {
            jobs: settings.jobs,
            common: given.common,
            ..SimilarSettings::default()
        },
        grades: given.grades.clone(),
        only: None,
        stop: &stop,
    };
    let found = match similar.run() {
        Ok(found) => found,
        Err(_) if signals::caught().is_some() => {
            return Err(Failure::Signalled(signals::caught().unwrap_or(2)));
        }
        Err(e) => return Err(refused(e)),
    };
    for note in &found.notes {
        say(Mode::Similar, note);
    }
    let c = &found.comparison;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "compared {} submissions{}: {} pair(s) share code (a passage more than {} of them share is no evidence)",
        found.compared,
        found.kept_words(),
        c.pairs.len(),
        c.common
    )?;
    let width = c
        .pairs
        .iter()
        .take(10)
        .map(|p| c.names[p.a].len())
        .max()
        .unwrap_or(0);
    for p in c.pairs.iter().take(10) {
        writeln!(
            out,
            "  {}.{:03}  {:width$}  {}  ({} blocks)",
            p.millis() / 1000,
            p.millis() % 1000,
            c.names[p.a],
            c.names[p.b],
            p.matches.len()
        )?;
    }
    if c.pairs.len() > 10 {
        writeln!(out, "  ... and {} more", c.pairs.len() - 10)?;
    }
    writeln!(
        out,
        "files in {}/: similarity.csv (a line a pair), similarity-blocks.csv (the matched blocks, their files and lines) and similarity/ (a page for each of the {} pair(s) worth a look: 0.5 or more, at most 50); a score is evidence to look at, never a verdict",
        out_dir.display(),
        found.pages.len()
    )?;
    out.flush()?;
    some_not_done(Mode::Similar, &found.not_read, |count, names| {
        format!("{count} submission(s) could not be read (the notes say why): {names}")
    })
}

/// Status 3 when some submissions, `names`, were not done (the others
/// were): `line` (of their count and their names) on stderr, a message
/// of `mode`.
fn some_not_done(
    mode: Mode,
    names: &[String],
    line: impl Fn(usize, String) -> String,
) -> Result<(), Failure> {
    if names.is_empty() {
        return Ok(());
    }
    say(mode, &line(names.len(), names.join(", ")));
    Err(Failure::NotGraded)
}

/// A grading refused ([`Error::Refused`]) is a usage error; the system's
/// error is the system's, whatever its kind.
fn refused(e: Error) -> Failure {
    match e {
        Error::Refused(why) => Failure::Usage(why.to_string()),
        Error::Io(e) => Failure::from(e),
    }
}

/// `merge`: one grading from its shards' grades folders; status 1 when a
/// submission is missing or in two shards, 2 when the merge is refused
/// (nothing written).
fn merge(given: &Given) -> Result<(), Failure> {
    let into = given.into.as_deref().unwrap_or(Path::new("grades"));
    let shards: Vec<PathBuf> = given.operands.iter().map(PathBuf::from).collect();
    // Shards of other gradings: refused, nothing written (status 2).
    let merged = merge_shards(into, &shards, given.replace).map_err(|e| match e {
        Error::Refused(why) => Failure::Usage(format!("refused: {why}")),
        e => refused(e),
    })?;
    for note in &merged.notes {
        say(Mode::Merge, note);
    }
    for problem in &merged.problems {
        say(Mode::Merge, problem);
    }
    for line in &merged.similarity {
        say(Mode::Merge, line);
    }
    let mut out = stdout();
    writeln!(
        out,
        "merged {} shard(s), {} submissions, into {}",
        shards.len(),
        merged.submissions,
        into.display()
    )?;
    if let Some(changes) = &merged.changes {
        write!(out, "{changes}")?;
    }
    out.flush()?;
    if merged.problems.is_empty() {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}

/// `gradebook`: a grading's gradebook files written from its records.
fn gradebook(given: &Given) -> Result<(), Failure> {
    let grades = absolute(Path::new(&given.operands[0]));
    let written = write_gradebook(&grades, given.gradebook()).map_err(refused)?;
    for note in &written.notes {
        say(Mode::Gradebook, note);
    }
    let mut out = io::stdout().lock();
    if written.files.is_empty() {
        writeln!(
            out,
            "recorded the gradebook in {}/grading.json; summary.csv names the students",
            grades.display()
        )?;
    } else {
        writeln!(
            out,
            "wrote {} in {}/; summary.csv names the students",
            written.files.join(", "),
            grades.display()
        )?;
    }
    out.flush()?;
    Ok(())
}

/// `diff`: what changed from the grading in OLD to the one in NEW, and
/// why; status 1 when some marks changed, 2 when a folder cannot be read
/// as a grading.
fn diff(given: &Given) -> Result<(), Failure> {
    let (old, new) = (Path::new(&given.operands[0]), Path::new(&given.operands[1]));
    let compared = diff_gradings(old, new).map_err(|e| match e {
        Error::Refused(why) => Failure::Usage(why.to_string()),
        Error::Io(e) => Failure::System(e.to_string()),
    })?;
    let mut out = stdout();
    write!(out, "{}", compared.text())?;
    out.flush()?;
    if compared.changes.is_empty() {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}

/// `fuzz`: inputs of every kind, `PROGRAM` judged on each against the
/// reference, each fault found shrunk to a minimal case (the library's
/// `fuzz`); status 1 when something was found.
fn fuzz(given: &Given) -> Result<(), Failure> {
    let named = Path::new(&given.operands[0]);
    if !is_executable(named) {
        return Err(Failure::Usage(format!(
            "{} is not an executable file",
            named.display()
        )));
    }
    let options = FuzzOptions {
        seed: given.seed.unwrap_or(1),
        seconds: given.fuzz.unwrap_or(60),
        inputs: given.inputs,
        into: given
            .into
            .clone()
            .unwrap_or_else(|| PathBuf::from("fuzz-found")),
        settings: Settings {
            jobs: 2,
            ..given.settings()
        },
        program: absolute(named),
    };
    with_temp(|temp| {
        let sandbox = given_sandbox(given, temp)?;
        say(Mode::Fuzz, &sandbox.protections());
        let mut out = stdout();
        let fuzzing = Fuzz {
            runner: &sandbox,
            options: &options,
            work: temp,
        };
        let summary = fuzzing.run(&mut out)?;
        if summary.found.is_empty() {
            Ok(())
        } else {
            Err(Failure::Failed)
        }
    })
}

/// `run`: one program in the sandbox on this process's streams; its exit
/// status says how it ended ([`run_status`]), and so does `--meta FILE`,
/// unambiguously.
fn run(given: &Given) -> ExitCode {
    let say = |text: &str| say(Mode::Run, &text);
    // How it ended, into the meta file when one is asked for.
    let meta = |text: String| {
        if let Some(file) = &given.meta {
            if let Err(e) = fs::write(file, text) {
                say(&format!("cannot write {}: {e}", file.display()));
            }
        }
    };
    // Not run: 127 when the program was not found, 126 when the sandbox
    // could not run it.
    let not_run = |why: NotRun| {
        let status = match &why {
            NotRun::NotFound(program) => {
                say(&format!("{}: not found", program.display()));
                127
            }
            NotRun::Sandbox(e) => {
                say(e);
                126
            }
        };
        meta(not_run_meta(&why, status));
        ExitCode::from(status)
    };
    let named = PathBuf::from(&given.operands[0]);
    let found = match Run::find(&named, given.level) {
        Ok(found) => found,
        Err(why) => return not_run(why),
    };
    if given.verbose {
        say(&found.protections());
    }
    let stream = |f: std::os::fd::BorrowedFd| f.try_clone_to_owned().map(File::from);
    let streams = (|| {
        Ok::<_, io::Error>((
            stream(io::stdin().as_fd())?,
            stream(io::stdout().as_fd())?,
            stream(io::stderr().as_fd())?,
        ))
    })();
    let (stdin, stdout, stderr) = match streams {
        Ok(streams) => streams,
        Err(e) => return not_run(NotRun::Sandbox(e.to_string())),
    };
    let limits = given.run_limits();
    let ran = found.run(
        &given.operands[1..],
        &given.read_only,
        given.workdir.as_deref(),
        &limits,
        stdin,
        stdout,
        stderr,
    );
    match ran {
        Ok(ended) => {
            if given.verbose {
                say(&ended.time);
            }
            if let Some(words) = &ended.words {
                say(words);
            }
            let status = run_status(ended.ending);
            meta(ended.meta(status));
            ExitCode::from(status)
        }
        Err(why) => not_run(why),
    }
}

/// The exit status of `run` for how the program ended: its own status, or
/// 128 + the signal that killed it (153 for the file-size limit's SIGXFSZ);
/// 124 at the time limit, 125 at the memory or the process limit.
fn run_status(ending: Ending) -> u8 {
    match ending {
        Ending::Exited(code) => code as u8,
        Ending::Signalled(sig) => (128 + sig) as u8,
        Ending::TimedOut => 124,
        Ending::MemoryLimit | Ending::ProcessLimit => 125,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_exit_status_says_how_it_ended() {
        assert_eq!(run_status(Ending::Exited(0)), 0);
        assert_eq!(run_status(Ending::Exited(3)), 3);
        assert_eq!(run_status(Ending::TimedOut), 124);
        assert_eq!(run_status(Ending::MemoryLimit), 125);
        assert_eq!(run_status(Ending::ProcessLimit), 125);
        assert_eq!(run_status(Ending::Signalled(11)), 139);
        assert_eq!(run_status(Ending::Signalled(25)), 153);
    }
}
