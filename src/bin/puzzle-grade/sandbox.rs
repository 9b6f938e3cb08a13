//! The sandbox every run of a student's program (and of its build) goes
//! through: [`Sandbox`], the [`Runner`] of `puzzle-grade`.
//!
//! STUB: runs the program as a plain child process, with no isolation; the
//! real sandbox (namespaces, an unprivileged uid, limits) replaces it.

use puzzle::grade::run::{Ending, Job, Outcome, Runner, Workdir};
use std::ffi::OsString;
use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

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
}

impl Runner for Sandbox {
    fn run(&self, job: Job) -> io::Result<Outcome> {
        let (dir, fresh) = match &job.workdir {
            Workdir::Folder(dir) => (dir.clone(), false),
            Workdir::Scratch => {
                let n = self.next.fetch_add(1, Ordering::Relaxed);
                let dir = self.scratch_root.join(format!("run{n}"));
                std::fs::create_dir_all(&dir)?;
                (dir, true)
            }
        };
        let began = Instant::now();
        let mut child = Command::new(&job.program)
            .args(&job.args)
            .env_clear()
            .env("PATH", &job.path)
            .env("HOME", &dir)
            .env("TMPDIR", &dir)
            .current_dir(&dir)
            .stdin(Stdio::from(job.stdin))
            .stdout(Stdio::from(job.stdout))
            .stderr(Stdio::from(job.stderr))
            .process_group(0)
            .spawn()?;
        let ending = loop {
            if let Some(status) = child.try_wait()? {
                break match (status.code(), status.signal()) {
                    (Some(code), _) => Ending::Exited(code),
                    (None, Some(signal)) => Ending::Signalled(signal),
                    _ => Ending::Exited(-1),
                };
            }
            if crate::signals::caught().is_some() {
                kill_group(child.id());
                let _ = child.wait();
                return Err(io::ErrorKind::Interrupted.into());
            }
            if began.elapsed() >= job.limits.wall {
                kill_group(child.id());
                let _ = child.wait();
                break Ending::TimedOut;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        let elapsed = began.elapsed();
        kill_group(child.id());
        if fresh {
            let _ = std::fs::remove_dir_all(&dir);
        }
        Ok(Outcome { ending, elapsed })
    }

    fn protections(&self) -> String {
        "sandbox: none (a plain child process)".into()
    }
}

/// Kills the process group `id` (what the run left).
fn kill_group(id: u32) {
    let _ = Command::new("kill")
        .args(["-s", "KILL", "--", &format!("-{id}")])
        .stderr(Stdio::null())
        .status();
}

/// `puzzle-grade run [LIMITS] -- PROGRAM [ARGS...]`: one program in the
/// sandbox, on this process's standard streams. STUB.
pub fn sandbox_command(args: Vec<OsString>) -> ExitCode {
    let _ = args;
    eprintln!("puzzle-grade: run: not yet");
    ExitCode::from(2)
}
