//! The sandbox where the Linux one cannot be built (another system, or a
//! processor whose system-call numbers it does not know): the program runs
//! in a process group of its own, with rlimits where their numbers are
//! known, and the group is killed at the end and at the time limit (wall
//! clock: a run's CPU time and its waits for a core are not measured here,
//! and its outcome says so by leaving them out).

use crate::{Ending, Job, Level, Limits, MemoryLimit, Outcome, Runner, Workdir};
use std::ffi::c_int;
use std::fs;
use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::sys::{kill, rlimit, setrlimit, SIGKILL, SIGXCPU};

/// `RLIMIT_CPU`, `_FSIZE`, `_CORE`, `_NOFILE`, `_NPROC`, `_AS` of this
/// system, where known (and `struct rlimit` is two 64-bit numbers).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
const RESOURCES: Option<[c_int; 6]> = Some([0, 1, 4, 7, 6, 9]);
#[cfg(any(target_os = "macos", target_os = "ios"))]
const RESOURCES: Option<[c_int; 6]> = Some([0, 1, 4, 8, 7, 5]);
#[cfg(all(
    any(target_os = "freebsd", target_os = "dragonfly"),
    target_pointer_width = "64"
))]
const RESOURCES: Option<[c_int; 6]> = Some([0, 1, 4, 8, 7, 10]);
#[cfg(not(any(
    all(target_os = "linux", target_pointer_width = "64"),
    target_os = "macos",
    target_os = "ios",
    all(
        any(target_os = "freebsd", target_os = "dragonfly"),
        target_pointer_width = "64"
    )
)))]
const RESOURCES: Option<[c_int; 6]> = None;

/// Runs jobs; made once, used from every grading thread.
pub struct Sandbox {
    scratch_root: PathBuf,
    next: AtomicU64,
}

impl Sandbox {
    /// A sandbox whose scratch folders go under `scratch_root`.
    pub fn new(scratch_root: PathBuf) -> Sandbox {
        Sandbox {
            scratch_root,
            next: AtomicU64::new(0),
        }
    }

    /// A sandbox at `level`: only [`Level::Minimal`] can be had here.
    pub fn at_level(scratch_root: PathBuf, level: Level) -> Result<Sandbox, String> {
        match level {
            Level::Minimal => Ok(Sandbox::new(scratch_root)),
            _ => Err(format!(
                "the sandbox level {level} is not available here: not Linux on x86-64 or AArch64"
            )),
        }
    }

    /// The level it runs at: [`Level::Minimal`].
    pub fn level(&self) -> Level {
        Level::Minimal
    }
}

/// The limits as `(resource, value)`, in [`RESOURCES`] order.
fn rlimits(limits: &Limits) -> Vec<(c_int, u64)> {
    let cpu = limits.wall.as_secs() + 1 + u64::from(limits.wall.subsec_nanos() > 0);
    let values = [
        cpu,
        limits.file_size,
        0,
        limits.open_files,
        limits.processes,
        limits.memory,
    ];
    match RESOURCES {
        Some(resources) => resources.into_iter().zip(values).collect(),
        None => Vec::new(),
    }
}

impl Runner for Sandbox {
    fn run(&self, job: Job) -> io::Result<Outcome> {
        let (dir, fresh) = match &job.workdir {
            Workdir::Folder(dir) => (dir.clone(), false),
            Workdir::Scratch => {
                let n = self.next.fetch_add(1, Ordering::Relaxed);
                let dir = self
                    .scratch_root
                    .join(format!("run{:07}.{n:07}", std::process::id()));
                fs::create_dir_all(&dir)?;
                (dir, true)
            }
        };
        let limits = rlimits(&job.limits);
        let began = Instant::now();
        let mut command = Command::new(&job.program);
        command
            .args(&job.args)
            .env_clear()
            .env("PATH", &job.path)
            .env("HOME", &dir)
            .env("TMPDIR", &dir)
            .env("LANG", "C")
            .current_dir(&dir)
            .stdin(Stdio::from(job.stdin))
            .stdout(Stdio::from(job.stdout))
            .stderr(Stdio::from(job.stderr))
            .process_group(0);
        // SAFETY: setrlimit is async-signal-safe, and the vector was made
        // before the fork.
        unsafe {
            command.pre_exec(move || {
                for &(resource, value) in &limits {
                    let l = rlimit {
                        cur: value,
                        max: value,
                    };
                    if setrlimit(resource, &l) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        let spawned = command.spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) => {
                if fresh {
                    let _ = fs::remove_dir_all(&dir);
                }
                return Err(e);
            }
        };
        let group = child.id() as c_int;
        let mut pause = Duration::from_micros(200);
        let ending = loop {
            if let Some(status) = child.try_wait()? {
                break match (status.code(), status.signal()) {
                    (Some(code), _) => Ending::Exited(code),
                    (None, Some(SIGXCPU)) => Ending::TimedOut,
                    (None, Some(signal)) => Ending::Signalled(signal),
                    _ => Ending::Exited(-1),
                };
            }
            if began.elapsed() >= job.limits.wall {
                // SAFETY: kill has no memory effects; the group is the
                // child's, which is not yet reaped.
                unsafe { kill(-group, SIGKILL) };
                let _ = child.wait();
                break Ending::TimedOut;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        };
        let elapsed = began.elapsed();
        // What the program left in its group goes too.
        // SAFETY: as above.
        unsafe { kill(-group, SIGKILL) };
        if fresh {
            let _ = fs::remove_dir_all(&dir);
        }
        Ok(Outcome {
            ending,
            elapsed,
            // Not read here: no /proc to sample, no cgroup to count, and
            // std's wait gives no resource usage. Nothing is made up for
            // waits either (`Limits::make_up`): the limit is wall-clock time.
            cpu: None,
            waited: None,
            memory_peak: None,
            // The rlimit's, where there is one.
            memory_limit: MemoryLimit::AddressSpace,
            memory_stop: None,
        })
    }

    fn protections(&self) -> String {
        let limits = if RESOURCES.is_some() {
            "limits: address space, processes, file size, open files, CPU time, no core files"
        } else {
            "limits: none (their numbers are not known here)"
        };
        format!(
            "sandbox: level minimal: its own process group, killed at the end; {limits}; not available: \
             namespaces, an unprivileged uid, cgroups (not Linux on x86-64 or AArch64): the run \
             sees the whole file system and the network, and a process that leaves its group \
             survives"
        )
    }
}

/// The sandbox's findings for `puzzle-grade check-environment` here: only
/// the minimal level.
pub fn findings(env: &mut crate::environment::Environment, _scratch_root: PathBuf) {
    for level in [Level::Namespaces, Level::Uid] {
        env.add(
            &format!("level {level}"),
            "not available: not Linux on x86-64 or AArch64".into(),
            None,
        );
    }
    env.add(
        "level minimal",
        "available (a process group and rlimits)".into(),
        None,
    );
    env.add("chosen level", "minimal".into(), None);
}
