//! `run`: one program in the sandbox, on the streams the caller hands it
//! (the binary hands it its own). The program is found ([`Run::find`]),
//! run at a level ([`Run::run`]), and how it ended is told in words
//! ([`Ended`]); the binary picks the streams and the exit status. Its time
//! limit is its own time, as a grading's is (`shared::machine::made_up`).

use crate::judging::judge::signal_name;
use crate::shared::machine::made_up;
use crate::shared::text::one_line;
use puzzle_sandbox::{Ending, Job, Level, Limits, MemoryStop, Outcome, Runner, Sandbox, Workdir};
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The signal of the file-size limit (the same number on Linux, macOS and
/// the BSDs).
const SIGXFSZ: i32 = 25;

/// The `PATH` of a program run by `puzzle-grade run`.
const RUN_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The limits of a run when none is given: 10 s, 1 GiB, 64 processes, 64
/// MiB a file, 64 open files.
pub fn default_limits() -> Limits {
    Limits {
        wall: Duration::from_secs(10),
        make_up: Duration::ZERO,
        memory: 1024 << 20,
        processes: 64,
        file_size: 64 << 20,
        open_files: 64,
        folder: None,
    }
}

/// Why a program could not be run.
#[derive(Debug)]
pub enum NotRun {
    /// No such program (a name with a slash from this folder, else in the
    /// run's `PATH`).
    NotFound(PathBuf),
    /// The sandbox could not be had at the level asked for, or the run
    /// could not be started.
    Sandbox(String),
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The ending itself.
    pub ending: Ending,
    /// What stopped it, in words, with the limit it met; none when it
    /// exited with status 0.
    pub words: Option<String>,
    /// Its time, in words (for `-v`): `time: 1.52 s on the clock, 0.57 s
    /// of CPU, 0.91 s waiting for a core`, each figure the sandbox could
    /// read (the others said to be not measured).
    pub time: String,
    /// Its time on the clock, of CPU and waiting for a core (the last two
    /// when the sandbox could read them).
    pub times: (Duration, Option<Duration>, Option<Duration>),
}

impl Ended {
    /// How the run ended as `--meta FILE` has it, a `key: value` line a
    /// fact, as isolate's meta file: `ending` (`exited`, `signalled`,
    /// `time-limit`, `memory-limit`, `process-limit`, `file-size-limit`),
    /// then `status` (its own exit status) or `signal`, its times in
    /// seconds (`time-wall`, and `time-cpu` and `time-waited` when
    /// measured), `exit` (the status `run` exits with, `exit`) and, when it
    /// did not exit with status 0, `message` (the words stderr got).
    pub fn meta(&self, exit: u8) -> String {
        let (ending, detail) = match self.ending {
            Ending::Exited(code) => ("exited", format!("status: {code}\n")),
            Ending::Signalled(SIGXFSZ) => ("file-size-limit", format!("signal: {SIGXFSZ}\n")),
            Ending::Signalled(sig) => ("signalled", format!("signal: {sig}\n")),
            Ending::TimedOut => ("time-limit", String::new()),
            Ending::MemoryLimit => ("memory-limit", String::new()),
            Ending::ProcessLimit => ("process-limit", String::new()),
        };
        let seconds = |d: Duration| format!("{:.3}", d.as_secs_f64());
        let (wall, cpu, waited) = self.times;
        let mut text = format!("ending: {ending}\n{detail}time-wall: {}\n", seconds(wall));
        if let Some(cpu) = cpu {
            text += &format!("time-cpu: {}\n", seconds(cpu));
        }
        if let Some(waited) = waited {
            text += &format!("time-waited: {}\n", seconds(waited));
        }
        text += &format!("exit: {exit}\n");
        if let Some(words) = &self.words {
            text += &format!("message: {words}\n");
        }
        text
    }
}

/// How a run that never started is told in `--meta FILE` ([`Ended::meta`]):
/// `ending: not-found` or `ending: not-run`, `exit`, and why.
pub fn not_run_meta(not_run: &NotRun, exit: u8) -> String {
    match not_run {
        NotRun::NotFound(program) => format!(
            "ending: not-found\nexit: {exit}\nmessage: {}: not found\n",
            one_line(&program.display().to_string())
        ),
        NotRun::Sandbox(why) => format!(
            "ending: not-run\nexit: {exit}\nmessage: {}\n",
            one_line(why)
        ),
    }
}

/// What a run's time came to, in words (see [`Ended::time`]).
fn time_line(outcome: &Outcome) -> String {
    let s = |d: Duration| format!("{:.2} s", d.as_secs_f64());
    let cpu = outcome
        .cpu
        .map_or("CPU time not measured here".into(), |c| {
            format!("{} of CPU", s(c))
        });
    let waited = outcome
        .waited
        .map_or("waits for a core not measured here".into(), |w| {
            format!("{} waiting for a core", s(w))
        });
    format!("time: {} on the clock, {cpu}, {waited}", s(outcome.elapsed))
}

/// A program found, and the sandbox it runs in.
pub struct Run {
    program: PathBuf,
    sandbox: Sandbox,
    scratch: PathBuf,
}

impl Run {
    /// Finds `program` (a name with a slash as a path from this folder,
    /// else looked for in the run's `PATH`) and makes the sandbox at
    /// `level` (none: the most the system allows), its scratch folder
    /// named by this process.
    pub fn find(program: &Path, level: Option<Level>) -> Result<Run, NotRun> {
        let found = resolve(program).ok_or_else(|| NotRun::NotFound(program.to_path_buf()))?;
        let scratch = std::env::temp_dir().join(format!("puzzle-grade.{:07}", std::process::id()));
        let sandbox = match level {
            None => Sandbox::new(scratch.clone()),
            Some(level) => Sandbox::at_level(scratch.clone(), level).map_err(|e| {
                let _ = std::fs::remove_dir_all(&scratch);
                NotRun::Sandbox(e)
            })?,
        };
        Ok(Run {
            program: found,
            sandbox,
            scratch,
        })
    }

    /// What the sandbox protects, in a line.
    pub fn protections(&self) -> String {
        self.sandbox.protections()
    }

    /// Runs the program with `args` on the three streams, within
    /// `limits`, letting it read `read_only` too, in `workdir` (none: a
    /// scratch folder of its own); paths are from this folder.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        self,
        args: &[OsString],
        read_only: &[PathBuf],
        workdir: Option<&Path>,
        limits: &Limits,
        stdin: File,
        stdout: File,
        stderr: File,
    ) -> Result<Ended, NotRun> {
        let here = std::env::current_dir().unwrap_or_default();
        let result = self.sandbox.run(Job {
            program: self.program.clone(),
            args: args.to_vec(),
            path: RUN_PATH.into(),
            read_only: read_only.iter().map(|p| here.join(p)).collect(),
            workdir: match workdir {
                Some(dir) => Workdir::Folder(here.join(dir)),
                None => Workdir::Scratch,
            },
            stdin,
            stdout,
            stderr,
            limits: made_up(limits.clone()),
        });
        let outcome = result.map_err(|e: io::Error| NotRun::Sandbox(e.to_string()))?;
        let words = describe(outcome.ending, outcome.memory_stop, limits).map(|text| {
            let caveat =
                if outcome.memory_limit.is_resident() || outcome.ending == Ending::MemoryLimit {
                    ""
                } else {
                    " (the memory limit was on the address space: a refused allocation may be why)"
                };
            format!("{text}{caveat}")
        });
        Ok(Ended {
            ending: outcome.ending,
            words,
            time: time_line(&outcome),
            times: (outcome.elapsed, outcome.cpu, outcome.waited),
        })
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// The program to run: a name with a slash as a path from here, else looked
/// for in [`RUN_PATH`].
fn resolve(program: &Path) -> Option<PathBuf> {
    if program.as_os_str().to_string_lossy().contains('/') {
        let path = std::env::current_dir().ok()?.join(program);
        return path.is_file().then_some(path);
    }
    RUN_PATH
        .split(':')
        .map(|dir| Path::new(dir).join(program))
        .find(|p| p.is_file())
}

fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes >> 20)
}

/// How a run ended, in words (none: it exited with status 0); `stop` says
/// how the memory limit stopped it, when it did.
fn describe(ending: Ending, stop: Option<MemoryStop>, limits: &Limits) -> Option<String> {
    match ending {
        Ending::Exited(0) => None,
        Ending::Exited(code) => Some(format!("exited with status {code}")),
        Ending::Signalled(SIGXFSZ) => Some(format!(
            "stopped by the file-size limit ({})",
            mib(limits.file_size)
        )),
        Ending::Signalled(sig) => Some(match signal_name(sig) {
            "?" => format!("killed by signal {sig}"),
            name => format!("killed by signal {sig} (SIG{name})"),
        }),
        Ending::TimedOut => Some(format!(
            "killed at the time limit ({} s)",
            limits.wall.as_secs_f64()
        )),
        Ending::MemoryLimit => Some(format!(
            "stopped by the memory limit ({}{})",
            mib(limits.memory),
            stop.map(|s| format!(" {}; {}", s.held.measured(), s.story()))
                .unwrap_or_default()
        )),
        Ending::ProcessLimit => Some(format!(
            "stopped by the process limit ({} processes)",
            limits.processes
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_line_names_what_was_not_measured() {
        let mut outcome = Outcome::new(Ending::Exited(0), Duration::from_millis(1520));
        assert_eq!(
            time_line(&outcome),
            "time: 1.52 s on the clock, CPU time not measured here, waits for a core not measured here"
        );
        outcome.cpu = Some(Duration::from_millis(570));
        outcome.waited = Some(Duration::from_millis(910));
        assert_eq!(
            time_line(&outcome),
            "time: 1.52 s on the clock, 0.57 s of CPU, 0.91 s waiting for a core"
        );
    }

    #[test]
    fn the_words_say_how_it_ended() {
        let l = default_limits();
        let describe_plain = |ending, limits: &Limits| describe(ending, None, limits);
        assert_eq!(describe_plain(Ending::Exited(0), &l), None);
        assert_eq!(
            describe_plain(
                Ending::TimedOut,
                &Limits {
                    wall: Duration::from_secs(2),
                    ..l.clone()
                }
            ),
            Some("killed at the time limit (2 s)".into())
        );
        assert_eq!(
            describe_plain(Ending::MemoryLimit, &l),
            Some("stopped by the memory limit (1024 MiB)".into())
        );
        let stop = MemoryStop {
            held: puzzle_sandbox::MemoryLimit::Sampled,
            peak: Some(1025 << 20),
            then: Some(Ending::Signalled(11)),
        };
        assert_eq!(
            describe(Ending::MemoryLimit, Some(stop), &l),
            Some("stopped by the memory limit (1024 MiB of resident memory, sampled every 10 ms and at its high-water mark; a high-water mark of 1025 MiB, then killed by signal 11)".into())
        );
        assert_eq!(
            describe_plain(Ending::Signalled(11), &l),
            Some("killed by signal 11 (SIGSEGV)".into())
        );
        assert_eq!(
            describe_plain(Ending::Signalled(25), &l),
            Some("stopped by the file-size limit (64 MiB)".into())
        );
    }
}
