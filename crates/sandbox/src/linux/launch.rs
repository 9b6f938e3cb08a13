//! The grader's side of one run: clones the keeper (see `child`), waits for
//! it until the wall-clock limit, kills the run there, and reads what the
//! keeper and the program wrote on the status pipe: how the program ended,
//! and the most memory it held.

use super::child::keeper;
use super::folder;
use super::memory::{self, Grader};
use super::plan::Plan;
use super::usage::Clock;
use super::wire::{Message, LEN};
use crate::sys::{self, pid_t};
use crate::FolderLimit;
use std::ffi::{c_char, c_int};
use std::io;
use std::path::PathBuf;
use std::ptr;
use std::time::{Duration, Instant};

/// How a run ended, as the keeper saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Raw {
    /// The program's wait status.
    Status(c_int),
    /// Still running at the wall-clock limit.
    TimedOut,
    /// Seen over the memory limit by the sampler, and stopped.
    OverMemory,
    /// Its work folder seen holding more than its limit, and stopped.
    OverFolder,
}

/// How a run ended, and what its resident memory came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launched {
    /// How it ended.
    pub raw: Raw,
    /// Its wall-clock time.
    pub elapsed: Duration,
    /// The most resident memory the sampler saw, in bytes, over all the
    /// run's processes (0 where it did not sample).
    pub sampled: u64,
    /// The program's own high-water mark of resident memory, in bytes (its
    /// largest process's, its mapped files' pages included), as the kernel
    /// kept it to the end: none where that mark may be the copy of the
    /// grader the program was before `execve` (not above the keeper's own).
    pub program_peak: Option<u64>,
    /// The CPU time of the keeper's children, as the keeper had it from
    /// `getrusage` once the program ended (none when it did not say: the
    /// run was killed).
    pub children_cpu: Option<Duration>,
}

/// How far a child's high-water mark may rise above the keeper's before
/// `execve` (the pages the program's process touches between its clone
/// and `execve`), in KiB: a mark above the keeper's by more is the
/// program's own.
const BEFORE_EXEC_KIB: i64 = 1024;

/// The program's own high-water mark in bytes, from the keeper's message
/// (see [`Message::Peak`]), when it is above what the copy of the grader
/// held.
fn program_peak(children_kib: i32, keeper_kib: i32) -> Option<u64> {
    (i64::from(children_kib) > i64::from(keeper_kib) + BEFORE_EXEC_KIB)
        .then(|| u64::from(children_kib.unsigned_abs()) << 10)
}

/// What the grader samples while the run goes on.
#[derive(Clone, Debug)]
pub struct Watch {
    /// The memory limit in bytes, where no cgroup holds it, and what tells a
    /// copy of the grader (not counted).
    pub memory: Option<(u64, Option<Grader>)>,
    /// The work folder and what it may hold.
    pub folder: Option<(PathBuf, FolderLimit)>,
}

impl Watch {
    /// Whether it samples anything.
    fn samples(&self) -> bool {
        self.memory.is_some() || self.folder.is_some()
    }

    /// Whether the run `keeper` is over a limit now, and which; `seen` is
    /// raised to the resident memory sampled now.
    fn over(&self, keeper: pid_t, seen: &mut u64) -> Option<Raw> {
        if let Some((limit, grader)) = self.memory {
            let resident = memory::resident(keeper, grader);
            *seen = (*seen).max(resident);
            if resident > limit {
                return Some(Raw::OverMemory);
            }
        }
        match &self.folder {
            Some((dir, limit)) if folder::over(dir, *limit) => Some(Raw::OverFolder),
            _ => None,
        }
    }
}

/// Runs `plan` with the time limit `wall`, of which up to `make_up` more
/// wall-clock time makes up the time the run waited for a core, as `clock`
/// reads it (see `job::Limits::make_up`), and the limits `watch` samples:
/// the raw ending, the time it took and the memory it held; `Err` names
/// the step that failed. `clock` (none where the run's tasks cannot be
/// read) is started on the run's keeper, and sampled as the run goes on.
pub fn launch(
    plan: &Plan,
    wall: Duration,
    make_up: Duration,
    watch: &Watch,
    mut clock: Option<&mut Clock>,
) -> io::Result<Launched> {
    // Pointer arrays for execve, pointing into the plan's strings.
    let argv: Vec<*const c_char> = plan
        .argv
        .iter()
        .map(|a| a.as_ptr())
        .chain([ptr::null()])
        .collect();
    let envp: Vec<*const c_char> = plan
        .envp
        .iter()
        .map(|a| a.as_ptr())
        .chain([ptr::null()])
        .collect();
    let mut pipe = [-1 as c_int; 2];
    // SAFETY: pipe is an array of two ints.
    if unsafe { sys::pipe2(pipe.as_mut_ptr(), sys::O_CLOEXEC | sys::O_NONBLOCK) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let began = Instant::now();
    let mut pidfd: c_int = -1;
    let flags = plan.clone_flags | sys::CLONE_PIDFD | sys::SIGCHLD as u64;
    // SAFETY: a fork-like clone (no new stack, no shared memory); the child
    // runs only async-signal-safe code and never returns.
    let pid = unsafe {
        sys::syscall(
            sys::nr::CLONE,
            flags,
            0usize,
            &mut pidfd as *mut c_int,
            0usize,
            0usize,
        )
    };
    if pid == 0 {
        keeper(plan, pipe[1], &argv, &envp);
    }
    let clone_error = io::Error::last_os_error();
    // SAFETY: our own write end; the child has its copy.
    unsafe { sys::close(pipe[1]) };
    if pid < 0 {
        // SAFETY: our own read end.
        unsafe { sys::close(pipe[0]) };
        return Err(io::Error::new(
            clone_error.kind(),
            format!("sandbox: starting the run's keeper (clone): {clone_error}"),
        ));
    }
    let pid = pid as pid_t;
    if let Some(clock) = clock.as_deref_mut() {
        clock.started(pid);
    }
    let mut raw = None;
    let mut messages = Vec::new();
    let mut interrupted = false;
    let mut over = None;
    let mut sampled = 0;
    let slice = if watch.samples() {
        memory::EVERY_MS
    } else {
        50
    };
    let cap = began + wall + make_up;
    let mut deadline = began + wall;
    let ended = loop {
        let mut sample = || {
            if let Some(clock) = clock.as_deref_mut() {
                clock.sample();
            }
            over = watch.over(pid, &mut sampled);
            over.is_some()
        };
        let ended = wait_readable(pidfd, deadline, slice, &mut sample);
        if ended != Ended::Deadline || crate::signals::caught().is_some() || make_up.is_zero() {
            break ended;
        }
        // At the limit, the time the run waited for a core is made up, up
        // to the cap: its limit is its own time.
        let now = Instant::now();
        let Some(clock) = clock.as_deref_mut() else {
            break ended;
        };
        clock.sample();
        let usage = clock.total();
        let next = (began + wall + usage.waited(now - began)).min(cap);
        if next <= now {
            break ended;
        }
        deadline = next;
    };
    if ended != Ended::Exited {
        // The run's last figures before it goes.
        if let Some(clock) = clock {
            clock.sample();
        }
        // A limit, or a signal that stops the grading: killed the same way.
        interrupted = crate::signals::caught().is_some();
        raw = Some(match (ended, over) {
            (Ended::Stopped, Some(limit)) => limit,
            _ => Raw::TimedOut,
        });
        if plan.own_group {
            // No namespace: kill the program's process group; the watcher
            // then kills what else is left (its orphans came to it) and
            // exits. Should it not, it is killed after a grace second.
            messages.extend(read_messages(pipe[0]));
            if let Some(program) = messages.iter().find_map(|m| match m {
                Message::ProgramPid(p) => Some(*p),
                _ => None,
            }) {
                // SAFETY: the watcher has not reaped it (it waits for us
                // to kill it), so the pid is not reused.
                unsafe { sys::kill(-program, sys::SIGKILL) };
            }
            let grace = Instant::now() + Duration::from_secs(1);
            if wait_readable(pidfd, grace, 50, &mut || false) != Ended::Exited {
                // SAFETY: pid is our unreaped child.
                unsafe { sys::kill(pid, sys::SIGKILL) };
            }
        } else {
            // Killing init kills the whole namespace.
            // SAFETY: pid is our unreaped child, so it cannot be reused.
            unsafe { sys::kill(pid, sys::SIGKILL) };
        }
    }
    let mut status: c_int = 0;
    loop {
        // SAFETY: waiting for our own child.
        let r = unsafe { sys::waitpid(pid, &mut status, 0) };
        if r >= 0 || sys::errno() != sys::EINTR {
            break;
        }
    }
    let elapsed = began.elapsed();
    messages.extend(read_messages(pipe[0]));
    // SAFETY: our own descriptors.
    unsafe {
        sys::close(pipe[0]);
        sys::close(pidfd);
    }
    for m in &messages {
        if let Message::Failed { step, errno } = *m {
            return Err(step.error(plan, errno));
        }
    }
    if interrupted {
        return Err(io::ErrorKind::Interrupted.into());
    }
    let program_peak = messages.iter().find_map(|m| match *m {
        Message::Peak {
            children_kib,
            keeper_kib,
            ..
        } => program_peak(children_kib, keeper_kib),
        _ => None,
    });
    let children_cpu = messages.iter().find_map(|m| match *m {
        Message::Peak {
            children_cpu_ms, ..
        } => Some(Duration::from_millis(u64::from(
            children_cpu_ms.unsigned_abs(),
        ))),
        _ => None,
    });
    let launched = |raw| Launched {
        raw,
        elapsed,
        sampled,
        program_peak,
        children_cpu,
    };
    if let Some(raw) = raw {
        return Ok(launched(raw));
    }
    match messages.iter().find_map(|m| match m {
        Message::Status(st) => Some(*st),
        _ => None,
    }) {
        Some(st) => Ok(launched(Raw::Status(st))),
        None => match sys::term_signal(status) {
            Some(sig) => Err(io::Error::other(format!(
                "sandbox: the run's keeper was killed by signal {sig}"
            ))),
            None => Err(io::Error::other(
                "sandbox: the run's keeper ended without a status",
            )),
        },
    }
}

/// Why [`wait_readable`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// The descriptor is readable: the keeper has ended.
    Exited,
    /// The deadline came, or a signal that stops the grading.
    Deadline,
    /// `stop` said so.
    Stopped,
}

/// Waits until `fd` is readable (a pidfd: its process has ended), or the
/// deadline, or a signal that stops the grading, or `stop` (asked every
/// `slice_ms` milliseconds) says to.
fn wait_readable(
    fd: c_int,
    deadline: Instant,
    slice_ms: u64,
    stop: &mut dyn FnMut() -> bool,
) -> Ended {
    loop {
        if crate::signals::caught().is_some() {
            return Ended::Deadline;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        // In slices, to see a signal another thread caught, and to sample.
        let ms = if left.is_zero() {
            0
        } else {
            left.as_millis().min(u128::from(slice_ms)) as c_int + 1
        };
        let mut p = sys::pollfd {
            fd,
            events: sys::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let n = unsafe { sys::poll(&mut p, 1, ms) };
        if n > 0 {
            return Ended::Exited;
        }
        if n < 0 && sys::errno() != sys::EINTR {
            return Ended::Deadline;
        }
        if n == 0 && left.is_zero() {
            return Ended::Deadline;
        }
        if stop() {
            return Ended::Stopped;
        }
    }
}

/// Every message the pipe holds now (its read end does not block).
fn read_messages(fd: c_int) -> Vec<Message> {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 16 * LEN];
    loop {
        // SAFETY: buf is writable for its length.
        let n = unsafe { sys::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n <= 0 {
            break;
        }
        bytes.extend_from_slice(&buf[..n as usize]);
    }
    Message::decode_all(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child's mark no higher than the keeper's may be the copy of the
    /// grader the program was before `execve`: not the program's own.
    #[test]
    fn only_a_mark_above_the_keepers_is_the_programs() {
        assert_eq!(program_peak(66_660, 1_516), Some(66_660 << 10));
        assert_eq!(program_peak(51_580, 51_764), None);
        assert_eq!(program_peak(52_000, 51_764), None);
        assert_eq!(program_peak(0, 0), None);
    }
}
