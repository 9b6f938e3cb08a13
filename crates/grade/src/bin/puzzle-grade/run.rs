//! `puzzle-grade run`: one program in the sandbox, on this process's
//! standard streams.

use crate::args::Given;
use puzzle_grade::made_up;
use puzzle_sandbox::{Ending, Job, Limits, MemoryStop, Outcome, Runner, Sandbox, Workdir};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// The signal of the file-size limit (the same number on Linux, macOS and
/// the BSDs).
const SIGXFSZ: i32 = 25;

/// The `PATH` of a program run by `puzzle-grade run`.
const RUN_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The limits of a run: the defaults, with what was given; the time
/// limit is the run's own time, as a grading's is (`made_up`).
fn limits(given: &Given) -> Limits {
    made_up(Limits {
        wall: given.time.unwrap_or(Duration::from_secs(10)),
        make_up: Duration::ZERO,
        memory: given.memory.unwrap_or(1024 << 20),
        processes: given.processes.unwrap_or(64),
        file_size: given.file_size.unwrap_or(64 << 20),
        open_files: given.open_files.unwrap_or(64),
        folder: None,
    })
}

/// What a run's time came to, for `-v`: `time: 1.52 s on the clock, 0.57
/// s of CPU, 0.91 s waiting for a core`, each figure the sandbox could
/// read (the others said to be unknown).
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

fn signal_name(sig: i32) -> &'static str {
    match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        10 => "SIGUSR1",
        11 => "SIGSEGV",
        12 => "SIGUSR2",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        31 => "SIGSYS",
        _ => "",
    }
}

/// How a run ended, in words, and the exit status that says it; `stop`
/// says how the memory limit stopped it, when it did.
fn describe(ending: Ending, stop: Option<MemoryStop>, limits: &Limits) -> (Option<String>, u8) {
    match ending {
        Ending::Exited(0) => (None, 0),
        Ending::Exited(code) => (Some(format!("exited with status {code}")), code as u8),
        Ending::Signalled(SIGXFSZ) => (
            Some(format!(
                "stopped by the file-size limit ({})",
                mib(limits.file_size)
            )),
            128 + 25,
        ),
        Ending::Signalled(sig) => {
            let name = signal_name(sig);
            let text = if name.is_empty() {
                format!("killed by signal {sig}")
            } else {
                format!("killed by signal {sig} ({name})")
            };
            (Some(text), (128 + sig) as u8)
        }
        Ending::TimedOut => (
            Some(format!(
                "killed at the time limit ({} s)",
                limits.wall.as_secs_f64()
            )),
            124,
        ),
        Ending::MemoryLimit => (
            Some(format!(
                "stopped by the memory limit ({}{})",
                mib(limits.memory),
                stop.map(|s| format!(" {}; {}", s.held.measured(), s.story()))
                    .unwrap_or_default()
            )),
            125,
        ),
        Ending::ProcessLimit => (
            Some(format!(
                "stopped by the process limit ({} processes)",
                limits.processes
            )),
            125,
        ),
    }
}

fn stream<F: AsFd>(f: F) -> io::Result<File> {
    Ok(File::from(f.as_fd().try_clone_to_owned()?))
}

/// `puzzle-grade run [OPTIONS] [--] PROGRAM [ARGS...]`: one program in the
/// sandbox, on this process's standard streams (see `args::Mode::Run`).
pub fn sandbox_command(o: &Given) -> ExitCode {
    let limits = limits(o);
    let given = PathBuf::from(&o.operands[0]);
    let Some(program) = resolve(&given) else {
        let _ = writeln!(
            io::stderr(),
            "puzzle-grade: run: {}: not found",
            given.display()
        );
        return ExitCode::from(127);
    };
    let scratch_root = std::env::temp_dir().join(format!("puzzle-grade.{:07}", std::process::id()));
    let sandbox = match o.level {
        None => Sandbox::new(scratch_root.clone()),
        Some(level) => match Sandbox::at_level(scratch_root.clone(), level) {
            Ok(sandbox) => sandbox,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&scratch_root);
                let _ = writeln!(io::stderr(), "puzzle-grade: run: {e}");
                return ExitCode::from(126);
            }
        },
    };
    if o.verbose {
        let _ = writeln!(io::stderr(), "puzzle-grade: run: {}", sandbox.protections());
    }
    let here = std::env::current_dir().unwrap_or_default();
    let streams = (|| {
        Ok::<_, io::Error>((
            stream(io::stdin())?,
            stream(io::stdout())?,
            stream(io::stderr())?,
        ))
    })();
    let result = streams.and_then(|(stdin, stdout, stderr)| {
        sandbox.run(Job {
            program,
            args: o.operands[1..].to_vec(),
            path: RUN_PATH.into(),
            read_only: o.read_only.iter().map(|p| here.join(p)).collect(),
            workdir: match &o.workdir {
                Some(dir) => Workdir::Folder(here.join(dir)),
                None => Workdir::Scratch,
            },
            stdin,
            stdout,
            stderr,
            limits: limits.clone(),
        })
    });
    let _ = std::fs::remove_dir_all(&scratch_root);
    match result {
        Ok(outcome) => {
            if o.verbose {
                let _ = writeln!(io::stderr(), "puzzle-grade: run: {}", time_line(&outcome));
            }
            let (text, code) = describe(outcome.ending, outcome.memory_stop, &limits);
            if let Some(text) = text {
                let caveat = if outcome.memory_limit.is_resident()
                    || outcome.ending == Ending::MemoryLimit
                {
                    ""
                } else {
                    " (the memory limit was on the address space: a refused allocation may be why)"
                };
                let _ = writeln!(io::stderr(), "puzzle-grade: run: {text}{caveat}");
            }
            ExitCode::from(code)
        }
        Err(e) => {
            let _ = writeln!(io::stderr(), "puzzle-grade: run: {e}");
            ExitCode::from(126)
        }
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
    fn exit_status_says_how_it_ended() {
        let l = limits(&Given::default());
        let describe_plain = |ending, limits: &Limits| describe(ending, None, limits);
        assert_eq!(describe_plain(Ending::Exited(0), &l), (None, 0));
        assert_eq!(
            describe_plain(
                Ending::TimedOut,
                &Limits {
                    wall: Duration::from_secs(2),
                    ..l.clone()
                }
            ),
            (Some("killed at the time limit (2 s)".into()), 124)
        );
        assert_eq!(
            describe_plain(Ending::MemoryLimit, &l),
            (Some("stopped by the memory limit (1024 MiB)".into()), 125)
        );
        let stop = MemoryStop {
            held: puzzle_sandbox::MemoryLimit::Sampled,
            peak: Some(1025 << 20),
            then: Some(Ending::Signalled(11)),
        };
        assert_eq!(
            describe(Ending::MemoryLimit, Some(stop), &l),
            (
                Some("stopped by the memory limit (1024 MiB of resident memory, sampled every 10 ms and at its high-water mark; a high-water mark of 1025 MiB, then killed by signal 11)".into()),
                125
            )
        );
        assert_eq!(
            describe_plain(Ending::Signalled(11), &l),
            (Some("killed by signal 11 (SIGSEGV)".into()), 139)
        );
        assert_eq!(
            describe_plain(Ending::Signalled(25), &l),
            (Some("stopped by the file-size limit (64 MiB)".into()), 153)
        );
    }
}
