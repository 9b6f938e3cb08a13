//! `puzzle-grade run`: one program in the sandbox, on this process's
//! standard streams.

use puzzle_sandbox::{Ending, Job, Level, Limits, Runner, Sandbox, Workdir};
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "\
Usage: puzzle-grade run [OPTIONS] -- PROGRAM [ARGS...]

Runs PROGRAM in the sandbox on this process's standard input, output and
error: at the most the system allows (its own PID, mount and network
namespaces, an unprivileged uid when run as root), with a fresh empty work
folder, the system-call filter, and these limits.

Options:
  --time S          wall-clock limit in seconds (default 10)
  --memory MB       memory limit in MiB (default 1024)
  --processes N     processes and threads at once (default 64)
  --file-size MB    largest file it may write, in MiB (default 64)
  --open-files N    open files at once (default 64)
  --workdir DIR     work in DIR, read-write, instead of a fresh folder
  --read PATH       let it read PATH too (repeatable)
  --sandbox LEVEL   namespaces, uid or minimal (default: the most the system
                    allows; a level it does not allow is an error, status 126)
  -v, --verbose     say on stderr which protections are active
  -h, --help        print this help

A bare PROGRAM is looked for in /usr/local/bin, /usr/bin and /bin, the PATH
it runs with.

Exit status: the program's own; 128+N when signal N killed it (153 for the
file-size limit, SIGXFSZ); 124 when it was killed at the time limit; 125
when the memory or the process limit stopped it; 126 when the sandbox could
not run it; 127 when PROGRAM is not found; 2 for a bad command line.
When it did not exit with status 0, one line on stderr says how it ended.
";

/// The signal of the file-size limit (the same number on Linux, macOS and
/// the BSDs).
const SIGXFSZ: i32 = 25;

/// The `PATH` of a program run by `puzzle-grade run`.
const RUN_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

#[derive(Debug, PartialEq)]
struct Options {
    limits: Limits,
    workdir: Option<PathBuf>,
    read: Vec<PathBuf>,
    verbose: bool,
    level: Option<Level>,
    command: Vec<OsString>,
}

#[derive(Debug, PartialEq)]
enum Parsed {
    Help,
    Run(Options),
}

fn defaults() -> Limits {
    Limits {
        wall: Duration::from_secs(10),
        memory: 1024 << 20,
        processes: 64,
        file_size: 64 << 20,
        open_files: 64,
    }
}

fn parse(args: Vec<OsString>) -> Result<Parsed, String> {
    let mut o = Options {
        limits: defaults(),
        workdir: None,
        read: Vec::new(),
        verbose: false,
        level: None,
        command: Vec::new(),
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let Some(name) = arg.to_str() else {
            return Err(format!("unexpected argument {arg:?}"));
        };
        let mut value = || args.next().ok_or_else(|| format!("{name} needs a value"));
        match name {
            "-h" | "--help" => return Ok(Parsed::Help),
            "-v" | "--verbose" => o.verbose = true,
            "--time" => o.limits.wall = seconds(name, &value()?)?,
            "--memory" => o.limits.memory = number(name, &value()?)? << 20,
            "--processes" => o.limits.processes = number(name, &value()?)?,
            "--file-size" => o.limits.file_size = number(name, &value()?)? << 20,
            "--open-files" => o.limits.open_files = number(name, &value()?)?,
            "--workdir" => o.workdir = Some(PathBuf::from(value()?)),
            "--read" => o.read.push(PathBuf::from(value()?)),
            "--sandbox" => {
                let v = value()?;
                let level = v.to_str().unwrap_or("").parse();
                o.level = Some(level.map_err(|e| format!("--sandbox: {e}"))?);
            }
            "--" => {
                o.command = args.collect();
                break;
            }
            _ => {
                return Err(format!(
                    "unknown option '{name}' (the program goes after '--')"
                ))
            }
        }
    }
    if o.command.is_empty() {
        return Err("no PROGRAM after '--'".into());
    }
    Ok(Parsed::Run(o))
}

fn number(name: &str, value: &OsString) -> Result<u64, String> {
    value
        .to_str()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|&n| n > 0 && n < 1 << 40)
        .ok_or_else(|| format!("{name}: should be a positive whole number, but is {value:?}"))
}

fn seconds(name: &str, value: &OsString) -> Result<Duration, String> {
    value
        .to_str()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| *s > 0.0 && *s < 1e7)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{name}: should be a positive number of seconds, but is {value:?}"))
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

/// How a run ended, in words, and the exit status that says it.
fn describe(ending: Ending, limits: &Limits) -> (Option<String>, u8) {
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
                "stopped by the memory limit ({})",
                mib(limits.memory)
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

/// `puzzle-grade run [OPTIONS] -- PROGRAM [ARGS...]`: one program in the
/// sandbox, on this process's standard streams; see [`USAGE`].
pub fn sandbox_command(args: Vec<OsString>) -> ExitCode {
    let o = match parse(args) {
        Ok(Parsed::Help) => {
            let mut out = io::stdout().lock();
            return match out.write_all(USAGE.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::from(2),
            };
        }
        Ok(Parsed::Run(o)) => o,
        Err(e) => {
            let _ = writeln!(
                io::stderr(),
                "puzzle-grade: run: {e}\n(puzzle-grade run --help for usage)"
            );
            return ExitCode::from(2);
        }
    };
    let given = PathBuf::from(&o.command[0]);
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
            args: o.command[1..].to_vec(),
            path: RUN_PATH.into(),
            read_only: o.read.iter().map(|p| here.join(p)).collect(),
            workdir: match &o.workdir {
                Some(dir) => Workdir::Folder(here.join(dir)),
                None => Workdir::Scratch,
            },
            stdin,
            stdout,
            stderr,
            limits: o.limits.clone(),
        })
    });
    let _ = std::fs::remove_dir_all(&scratch_root);
    match result {
        Ok(outcome) => {
            let (text, code) = describe(outcome.ending, &o.limits);
            if let Some(text) = text {
                let caveat = if outcome.memory_limit.is_resident() {
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

    fn args(s: &[&str]) -> Vec<OsString> {
        s.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_limits_and_the_program() {
        let Ok(Parsed::Run(o)) = parse(args(&[
            "--time",
            "2.5",
            "--memory",
            "64",
            "--processes",
            "3",
            "--",
            "prog",
            "--time",
        ])) else {
            panic!("not parsed");
        };
        assert_eq!(o.limits.wall, Duration::from_millis(2500));
        assert_eq!(o.limits.memory, 64 << 20);
        assert_eq!(o.limits.processes, 3);
        assert_eq!(o.limits.file_size, 64 << 20);
        assert_eq!(o.command, args(&["prog", "--time"]));
    }

    #[test]
    fn rejects_bad_values_by_name() {
        assert_eq!(
            parse(args(&["--memory", "lots", "--", "x"])),
            Err("--memory: should be a positive whole number, but is \"lots\"".into())
        );
        assert_eq!(parse(args(&["--time"])), Err("--time needs a value".into()));
        assert_eq!(parse(args(&["--"])), Err("no PROGRAM after '--'".into()));
        assert_eq!(
            parse(args(&["--sandbox", "all", "--", "x"])),
            Err("--sandbox: should be namespaces, uid or minimal, but is \"all\"".into())
        );
        assert_eq!(
            parse(args(&["prog"])),
            Err("unknown option 'prog' (the program goes after '--')".into())
        );
    }

    #[test]
    fn exit_status_says_how_it_ended() {
        let l = defaults();
        assert_eq!(describe(Ending::Exited(0), &l), (None, 0));
        assert_eq!(
            describe(
                Ending::TimedOut,
                &Limits {
                    wall: Duration::from_secs(2),
                    ..l.clone()
                }
            ),
            (Some("killed at the time limit (2 s)".into()), 124)
        );
        assert_eq!(
            describe(Ending::MemoryLimit, &l),
            (Some("stopped by the memory limit (1024 MiB)".into()), 125)
        );
        assert_eq!(
            describe(Ending::Signalled(11), &l),
            (Some("killed by signal 11 (SIGSEGV)".into()), 139)
        );
        assert_eq!(
            describe(Ending::Signalled(25), &l),
            (Some("stopped by the file-size limit (64 MiB)".into()), 153)
        );
    }
}
