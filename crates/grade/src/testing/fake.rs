//! A stand-in for the sandbox in the engine's own tests: a [`Runner`] that
//! "runs" a Rust closure as the program, in this process. The closure sees
//! what a program would (its path, arguments, work folder, the bytes of its
//! standard input and its limits) and says what it wrote and how it ended;
//! the runner writes its outputs into the job's files as a real run would.
//! So grading one program, a folder of submissions (with a fake build) and
//! the fuzzer are tested without a process. Only for tests (`cfg(test)`);
//! an item no test uses yet is no warning.

#![allow(dead_code)]

use crate::judging::fixture::reference_answer;
use puzzle_sandbox::{Ending, Job, Limits, MemoryLimit, MemoryStop, Outcome, Runner, Workdir};
use std::ffi::OsString;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// What a fake run is given.
pub struct Call<'a> {
    /// The executable the job names.
    pub program: &'a Path,
    /// Its arguments.
    pub args: &'a [OsString],
    /// Where it works.
    pub workdir: &'a Workdir,
    /// Its standard input, read whole.
    pub stdin: &'a [u8],
    /// Its limits.
    pub limits: &'a Limits,
}

impl Call<'_> {
    /// The program's file name (`make`, `cc`, `puzzle`...).
    pub fn name(&self) -> String {
        self.program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The name of the folder that holds the program (a submission's copy).
    pub fn folder(&self) -> String {
        self.program
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Its work folder, when it has one of its own (a build).
    pub fn dir(&self) -> Option<&Path> {
        match self.workdir {
            Workdir::Folder(dir) => Some(dir),
            Workdir::Scratch => None,
        }
    }
}

/// What a fake run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// Its stdout.
    pub out: Vec<u8>,
    /// Its stderr.
    pub err: Vec<u8>,
    /// How it ended.
    pub ending: Ending,
    /// What the memory limit counted (resident memory unless a test says).
    pub memory_limit: MemoryLimit,
    /// How the memory limit stopped it (none unless a test says).
    pub memory_stop: Option<MemoryStop>,
    /// Its time on the clock (10 ms unless a test says).
    pub elapsed: Duration,
    /// The time it waited for a core (not measured unless a test says).
    pub waited: Option<Duration>,
}

impl Reply {
    /// Exited with `status` after writing `out` on stdout.
    pub fn exit(status: i32, out: impl AsRef<[u8]>) -> Reply {
        Reply {
            out: out.as_ref().to_vec(),
            err: Vec::new(),
            ending: Ending::Exited(status),
            memory_limit: MemoryLimit::Cgroup,
            memory_stop: None,
            elapsed: Duration::from_millis(10),
            waited: None,
        }
    }

    /// The same, with `err` on stderr.
    pub fn with_err(mut self, err: impl AsRef<[u8]>) -> Reply {
        self.err = err.as_ref().to_vec();
        self
    }

    /// Ended so, with nothing written.
    pub fn ended(ending: Ending) -> Reply {
        Reply {
            out: Vec::new(),
            err: Vec::new(),
            ending,
            memory_limit: MemoryLimit::Cgroup,
            memory_stop: None,
            elapsed: Duration::from_millis(10),
            waited: None,
        }
    }

    /// Stopped at the time limit of `limits` before it had its time: on
    /// the clock to the cap of the make-up, with a fifth of its limit as
    /// its own time, the rest spent waiting for a core.
    pub fn starved(limits: &Limits) -> Reply {
        let elapsed = limits.wall + limits.make_up;
        Reply {
            elapsed,
            waited: Some(elapsed - limits.wall / 5),
            ..Reply::ended(Ending::TimedOut)
        }
    }

    /// Stopped at the time limit of `limits` having had its time, though it
    /// waited for a core as long again (made up).
    pub fn timed_out_made_up(limits: &Limits) -> Reply {
        Reply {
            elapsed: limits.wall * 2,
            waited: Some(limits.wall),
            ..Reply::ended(Ending::TimedOut)
        }
    }

    /// Stopped by the memory limit as `stop` says.
    pub fn memory_stopped(stop: MemoryStop) -> Reply {
        Reply {
            memory_limit: stop.held,
            memory_stop: Some(stop),
            ..Reply::ended(Ending::MemoryLimit)
        }
    }

    /// The same, the run's memory limit an address-space limit.
    pub fn under_address_space_limit(mut self) -> Reply {
        self.memory_limit = MemoryLimit::AddressSpace;
        self
    }

    /// A run that takes `need` (slept), as the sandbox ends one: within
    /// `call`'s time limit, `reply`; past it, TIMEOUT at the limit.
    pub fn taking(call: &Call, need: Duration, reply: Reply) -> Reply {
        if need > call.limits.wall {
            std::thread::sleep(call.limits.wall);
            Reply::ended(Ending::TimedOut)
        } else {
            std::thread::sleep(need);
            reply
        }
    }

    /// What the reference answers on `stdin`.
    pub fn reference(stdin: &[u8]) -> Reply {
        let (out, status) = reference_answer(stdin);
        Reply::exit(status, out)
    }
}

/// A runner whose every run is a call of `act`.
pub struct FakeRunner<F> {
    act: F,
    /// Each run's program and arguments, in the order they came.
    pub calls: Mutex<Vec<(PathBuf, Vec<OsString>)>>,
}

impl<F: Fn(&Call) -> Reply + Sync> FakeRunner<F> {
    /// A runner that runs `act`.
    pub fn new(act: F) -> FakeRunner<F> {
        FakeRunner {
            act,
            calls: Mutex::new(Vec::new()),
        }
    }

    /// How many runs of a program named `name` there were.
    pub fn runs_of(&self, name: &str) -> usize {
        let calls = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        calls
            .iter()
            .filter(|(p, _)| p.file_name().is_some_and(|n| n == name))
            .count()
    }
}

impl<F: Fn(&Call) -> Reply + Sync> Runner for FakeRunner<F> {
    fn run(&self, mut job: Job) -> io::Result<Outcome> {
        let mut stdin = Vec::new();
        job.stdin.read_to_end(&mut stdin)?;
        self.calls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((job.program.clone(), job.args.clone()));
        let began = std::time::Instant::now();
        let reply = (self.act)(&Call {
            program: &job.program,
            args: &job.args,
            workdir: &job.workdir,
            stdin: &stdin,
            limits: &job.limits,
        });
        job.stdout.write_all(&reply.out)?;
        job.stderr.write_all(&reply.err)?;
        Ok(Outcome {
            memory_limit: reply.memory_limit,
            memory_stop: reply.memory_stop,
            waited: reply.waited,
            // As long as the closure took, when that is longer (a budget
            // counts it).
            ..Outcome::new(reply.ending, reply.elapsed.max(began.elapsed()))
        })
    }

    fn protections(&self) -> String {
        "sandbox: none (a test's stand-in runs closures)".into()
    }
}

/// A folder for `PATH` holding an empty executable file of each of `names`,
/// so that a build finds its tools (`make`, `cc`, `unzip`, `tar`) where the
/// fake runner never runs them.
pub fn tools(dir: &Path, names: &[&str]) -> io::Result<OsString> {
    use std::os::unix::fs::PermissionsExt;
    fs::create_dir_all(dir)?;
    for name in names {
        let path = dir.join(name);
        fs::write(&path, "#!/bin/sh\nexit 99\n")?;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755))?;
    }
    Ok(dir.as_os_str().to_owned())
}

/// Makes `dir/puzzle` an executable file, as a build would.
pub fn make_puzzle(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("puzzle");
    fs::write(&path, "#!/bin/sh\nexit 99\n")?;
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755))
}

/// A fresh folder for one test, removed when it is dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// An empty folder named for `test`.
    pub fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("puzzle-grade-fake-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    /// A path inside it.
    pub fn join(&self, path: &str) -> PathBuf {
        self.0.join(path)
    }

    /// Writes `files` (name, bytes) into the folder `under` of it.
    pub fn files(&self, under: &str, files: &[(&str, &[u8])]) -> PathBuf {
        let dir = self.0.join(under);
        for (name, bytes) in files {
            let path = dir.join(name);
            fs::create_dir_all(path.parent().expect("a file in a folder")).expect("a folder");
            fs::write(path, bytes).expect("a file");
        }
        dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
