//! One run in its own namespaces: the plan (every string and pointer made
//! before forking), the code between fork and exec, and the parent's wait.
//!
//! The parent clones a child into new PID, mount, network, IPC and UTS
//! namespaces (and a user namespace when not root). That child is the
//! namespace's init: it joins the run's cgroups, builds the file system the
//! program sees and pivots into it, then forks the program, waits for it and
//! writes its wait status to a pipe. When init exits the kernel kills
//! everything left in the namespace, and init is reaped only once all of it
//! is gone. The program is never PID 1, so it gets its signals as usual.
//!
//! Between `clone` and `execve` only async-signal-safe code runs: the plan's
//! steps are raw system calls on prepared C strings, nothing allocates or
//! panics, and the `clone`s are raw system calls (glibc's `fork` would run
//! its fork handlers and take locks another thread may hold).

use crate::sys::{self, pid_t};
use std::ffi::{c_char, c_int, c_ulong, c_void, CString};
use std::io;
use std::ptr;
use std::time::{Duration, Instant};

/// One thing init does to set up the run, in order.
#[derive(Debug)]
pub enum Step {
    /// Writes `data` to the file `path` (joining a cgroup, a user
    /// namespace's maps).
    Write { path: CString, data: CString },
    /// Makes a folder (one that exists already is fine).
    Mkdir(CString),
    /// Makes an empty file to mount a file on (an existing one is fine).
    Touch(CString),
    /// Makes a symbolic link `link` to `target`.
    Symlink { target: CString, link: CString },
    /// `mount(2)`.
    Mount {
        source: Option<CString>,
        target: CString,
        fstype: Option<CString>,
        flags: c_ulong,
        data: Option<CString>,
    },
    /// Makes this folder (a mount point) the root, and detaches the old one.
    PivotRoot(CString),
    /// A step whose failure is no failure (the run goes on without it).
    Optional(Box<Step>),
}

/// Which of the program's own steps failed (after init's).
const EXEC_STEPS: [&str; 8] = [
    "changing to the work folder",
    "setting a resource limit",
    "dropping supplementary groups",
    "changing group",
    "changing user",
    "setting no-new-privileges",
    "executing the program",
    "dropping capabilities",
];

/// Everything a run needs between fork and exec, made beforehand.
#[derive(Debug)]
pub struct Plan {
    /// Namespace flags for `clone`.
    pub clone_flags: u64,
    /// Init's set-up steps.
    pub steps: Vec<Step>,
    /// The program's work folder.
    pub workdir: CString,
    /// The executable, its argument vector and environment.
    pub program: CString,
    pub argv: Vec<CString>,
    pub envp: Vec<CString>,
    /// `(resource, soft, hard)`.
    pub rlimits: Vec<(c_int, u64, u64)>,
    /// The uid and gid to change to (when root).
    pub ids: Option<(u32, u32)>,
    /// The program stays uid 0 (of a user namespace, or root without spare
    /// uids): it must keep no capability through exec, or it could remount
    /// its read-only folders read-write.
    pub drop_caps: bool,
    /// The program's standard input, output and error.
    pub fds: [c_int; 3],
    /// No PID namespace to kill the run with: init is a watcher that gets
    /// the run's orphans (a subreaper) and kills them when the program has
    /// ended; the program has a process group of its own, killed at the
    /// time limit, and dies with the watcher.
    pub own_group: bool,
    /// The grading's network namespace to join (an open descriptor), instead
    /// of a new one a run (`CLONE_NEWNET` is then not among the flags); -1
    /// for none.
    pub shared_net: c_int,
}

impl Step {
    /// What the step does, for an error message.
    pub fn describe(&self) -> String {
        let s = |c: &CString| c.to_string_lossy().into_owned();
        match self {
            Step::Write { path, .. } => format!("writing {}", s(path)),
            Step::Mkdir(p) => format!("making folder {}", s(p)),
            Step::Touch(p) => format!("making mount point {}", s(p)),
            Step::Symlink { link, .. } => format!("making link {}", s(link)),
            Step::Mount {
                source,
                target,
                fstype,
                ..
            } => format!(
                "mounting {} on {}",
                source
                    .as_ref()
                    .or(fstype.as_ref())
                    .map_or("(remount)".into(), s),
                s(target)
            ),
            Step::PivotRoot(p) => format!("pivoting the root to {}", s(p)),
            Step::Optional(step) => step.describe(),
        }
    }
}

/// How a run ended, as init saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Raw {
    /// The program's wait status.
    Status(c_int),
    /// Still running at the wall-clock limit.
    TimedOut,
}

/// Messages on the status pipe: three native-endian `i32`s.
const MSG_STATUS: i32 = 0;
const MSG_SETUP: i32 = 1;
const MSG_EXEC: i32 = 2;
/// The program's pid (without a PID namespace, for the parent to kill its
/// process group at the time limit).
const MSG_PID: i32 = 3;

/// The status pipe's number in init and the program (close-on-exec).
const STATUS_FD: c_int = 3;

/// Runs `plan` with the wall-clock limit `wall`: the raw ending and the time
/// it took.
pub fn run(plan: &Plan, wall: Duration) -> io::Result<(Raw, Duration)> {
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
        init(plan, pipe[1], &argv, &envp);
    }
    let clone_error = io::Error::last_os_error();
    // SAFETY: our own write end; the child has its copy.
    unsafe { sys::close(pipe[1]) };
    if pid < 0 {
        // SAFETY: our own read end.
        unsafe { sys::close(pipe[0]) };
        return Err(clone_error);
    }
    let pid = pid as pid_t;
    let mut raw = None;
    let mut messages = Vec::new();
    let mut interrupted = false;
    if !wait_readable(pidfd, began + wall) {
        // The limit, or a signal that stops the grading: killed the same way.
        interrupted = crate::signals::caught().is_some();
        raw = Some(Raw::TimedOut);
        if plan.own_group {
            // No namespace: kill the program's process group; the watcher
            // then kills what else is left (its orphans came to it) and
            // exits. Should it not, it is killed after a grace second.
            messages.extend(read_messages(pipe[0]));
            if let Some(m) = messages.iter().find(|m| m[0] == MSG_PID) {
                // SAFETY: the watcher has not reaped it (it waits for us
                // to kill it), so the pid is not reused.
                unsafe { sys::kill(-m[1], sys::SIGKILL) };
            }
            if !wait_readable(pidfd, Instant::now() + Duration::from_secs(1)) {
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
        match m[0] {
            MSG_SETUP => {
                let step = plan.steps.get(m[1] as usize).map(Step::describe);
                let step = step.unwrap_or_else(|| "arranging descriptors".into());
                return Err(with_context(m[2], &format!("sandbox: {step}")));
            }
            MSG_EXEC => {
                let what = EXEC_STEPS.get(m[1] as usize).copied().unwrap_or("");
                return Err(with_context(m[2], &format!("sandbox: {what}")));
            }
            _ => {}
        }
    }
    if interrupted {
        return Err(io::ErrorKind::Interrupted.into());
    }
    if let Some(raw) = raw {
        return Ok((raw, elapsed));
    }
    match messages.iter().find(|m| m[0] == MSG_STATUS) {
        Some(m) => Ok((Raw::Status(m[1]), elapsed)),
        None => match sys::term_signal(status) {
            Some(sig) => Err(io::Error::other(format!(
                "sandbox: the run's init was killed by signal {sig}"
            ))),
            None => Err(io::Error::other(
                "sandbox: the run's init ended without a status",
            )),
        },
    }
}

/// Waits until `fd` is readable (a pidfd: its process has ended), or the
/// deadline, or a signal that stops the grading: whether it is readable.
fn wait_readable(fd: c_int, deadline: Instant) -> bool {
    loop {
        if crate::signals::caught().is_some() {
            return false;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        // In slices of 50 ms at most, to see a signal another thread caught.
        let ms = if left.is_zero() {
            0
        } else {
            left.as_millis().min(50) as c_int + 1
        };
        let mut p = sys::pollfd {
            fd,
            events: sys::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let n = unsafe { sys::poll(&mut p, 1, ms) };
        if n > 0 {
            return true;
        }
        if n < 0 && sys::errno() != sys::EINTR {
            return false;
        }
        if n == 0 && left.is_zero() {
            return false;
        }
    }
}

fn with_context(errno: i32, what: &str) -> io::Error {
    let e = io::Error::from_raw_os_error(errno);
    io::Error::new(e.kind(), format!("{what}: {e}"))
}

fn read_messages(fd: c_int) -> Vec<[i32; 3]> {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 256];
    loop {
        // SAFETY: buf is writable for its length.
        let n = unsafe { sys::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n <= 0 {
            break;
        }
        bytes.extend_from_slice(&buf[..n as usize]);
    }
    bytes
        .chunks_exact(12)
        .map(|c| {
            let w = |i: usize| i32::from_ne_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            [w(0), w(4), w(8)]
        })
        .collect()
}

// ---- Between clone and exec: async-signal-safe code only. ----

fn report(kind: i32, a: i32, b: i32) {
    let mut m = [0u8; 12];
    let (x, rest) = m.split_at_mut(4);
    let (y, z) = rest.split_at_mut(4);
    x.copy_from_slice(&kind.to_ne_bytes());
    y.copy_from_slice(&a.to_ne_bytes());
    z.copy_from_slice(&b.to_ne_bytes());
    // SAFETY: m is readable for its length.
    unsafe { sys::write(STATUS_FD, m.as_ptr().cast(), m.len()) };
}

fn opt_ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(ptr::null(), |s| s.as_ptr())
}

/// One set-up step; `Err(errno)` when it failed.
fn do_step(step: &Step) -> Result<(), c_int> {
    // SAFETY: every pointer is a NUL-terminated string of the plan, or null
    // where the call allows it.
    let r = unsafe {
        match step {
            Step::Optional(step) => {
                let _ = do_step(step);
                0
            }
            Step::Write { path, data } => {
                let fd = sys::open(path.as_ptr(), sys::O_WRONLY | sys::O_CLOEXEC);
                if fd < 0 {
                    -1
                } else {
                    let b = data.as_bytes();
                    let n = sys::write(fd, b.as_ptr().cast(), b.len());
                    let e = sys::errno();
                    sys::close(fd);
                    if n != b.len() as isize {
                        return Err(e);
                    }
                    0
                }
            }
            Step::Mkdir(p) => {
                if sys::mkdir(p.as_ptr(), 0o755) != 0 && sys::errno() != sys::EEXIST {
                    -1
                } else {
                    0
                }
            }
            Step::Touch(p) => {
                let fd = sys::open(
                    p.as_ptr(),
                    sys::O_RDONLY | sys::O_CREAT | sys::O_CLOEXEC,
                    0o644,
                );
                if fd >= 0 {
                    sys::close(fd);
                    0
                } else {
                    -1
                }
            }
            Step::Symlink { target, link } => sys::symlink(target.as_ptr(), link.as_ptr()),
            Step::Mount {
                source,
                target,
                fstype,
                flags,
                data,
            } => sys::mount(
                opt_ptr(source),
                target.as_ptr(),
                opt_ptr(fstype),
                *flags,
                opt_ptr(data).cast::<c_void>(),
            ),
            Step::PivotRoot(p) => {
                let dot = c".".as_ptr();
                if sys::chdir(p.as_ptr()) != 0
                    || sys::syscall(sys::nr::PIVOT_ROOT, dot, dot) != 0
                    || sys::umount2(dot, sys::MNT_DETACH) != 0
                    || sys::chdir(c"/".as_ptr()) != 0
                {
                    -1
                } else {
                    0
                }
            }
        }
    };
    if r == 0 {
        Ok(())
    } else {
        Err(sys::errno())
    }
}

/// Moves the job's descriptors to 0, 1, 2 and the status pipe to 3, and
/// closes every other (other runs' files, held by this copy of the parent).
fn arrange_fds(fds: [c_int; 3], status: c_int) -> bool {
    // SAFETY: plain descriptor calls.
    unsafe {
        let mut high = [-1; 4];
        for (h, fd) in high.iter_mut().zip(fds.iter().chain([&status])) {
            *h = sys::fcntl(*fd, sys::F_DUPFD_CLOEXEC, 10 as c_int);
            if *h < 0 {
                return false;
            }
        }
        for (target, h) in high.iter().enumerate() {
            if sys::dup2(*h, target as c_int) < 0 {
                return false;
            }
        }
        sys::fcntl(STATUS_FD, sys::F_SETFD, sys::FD_CLOEXEC);
        if sys::syscall(sys::nr::CLOSE_RANGE, 4u32, u32::MAX, 0u32) != 0 {
            for fd in 4..1024 {
                sys::close(fd);
            }
        }
    }
    true
}

/// The namespace's init (or, without a PID namespace, the watcher): sets up,
/// forks the program, waits for it and reports its status.
fn init(plan: &Plan, status: c_int, argv: &[*const c_char], envp: &[*const c_char]) -> ! {
    // SAFETY: async-signal-safe calls on prepared data only.
    unsafe {
        sys::prctl(
            sys::PR_SET_PDEATHSIG,
            sys::SIGKILL as c_ulong,
            0 as c_ulong,
            0 as c_ulong,
            0 as c_ulong,
        );
        // Before the descriptors are arranged, which closes this one.
        if plan.shared_net >= 0 && sys::setns(plan.shared_net, sys::CLONE_NEWNET as c_int) != 0 {
            let m = [MSG_SETUP, -1, sys::errno()];
            sys::write(status, m.as_ptr().cast(), 12);
            sys::_exit(1);
        }
        if !arrange_fds(plan.fds, status) {
            let e = sys::errno();
            // The pipe may not be at STATUS_FD yet: write where it is.
            let m = [MSG_SETUP, -1, e];
            sys::write(status, m.as_ptr().cast(), 12);
            sys::_exit(1);
        }
        if plan.own_group {
            // Orphans of the run (a daemon's double fork) come to us.
            sys::prctl(
                sys::PR_SET_CHILD_SUBREAPER,
                1 as c_ulong,
                0 as c_ulong,
                0 as c_ulong,
                0 as c_ulong,
            );
        }
        for (i, step) in plan.steps.iter().enumerate() {
            if let Err(e) = do_step(step) {
                report(MSG_SETUP, i as i32, e);
                sys::_exit(1);
            }
        }
        // Nothing of the run (uid 0 of a user namespace) may read this copy
        // of the grader's memory (set after the set-up: it makes the files
        // of /proc/self, uid_map among them, root's).
        sys::prctl(
            sys::PR_SET_DUMPABLE,
            0 as c_ulong,
            0 as c_ulong,
            0 as c_ulong,
            0 as c_ulong,
        );
        let pid = sys::syscall(
            sys::nr::CLONE,
            sys::SIGCHLD as c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        );
        if pid == 0 {
            program(plan, argv, envp);
        }
        if pid < 0 {
            report(MSG_EXEC, 6, sys::errno());
            sys::_exit(1);
        }
        if plan.own_group {
            report(MSG_PID, pid as i32, 0);
        }
        let mut st: c_int = 0;
        loop {
            let r = sys::waitpid(-1, &mut st, 0);
            if r == pid as pid_t {
                break;
            }
            if r < 0 && sys::errno() != sys::EINTR {
                sys::_exit(1);
            }
        }
        if plan.own_group {
            sys::kill(-(pid as pid_t), sys::SIGKILL);
            sweep();
        }
        report(MSG_STATUS, st, 0);
        sys::_exit(0);
    }
}

/// Without a PID namespace, once the program has ended: kills the
/// watcher's children until none is left. As a subreaper the watcher gets
/// every orphan of the run, so killing a child hands its children to us, to
/// be killed in turn. Without `/proc/thread-self/children` it does nothing.
fn sweep() {
    let mut buf = [0u8; 4096];
    for _ in 0..100_000 {
        // SAFETY: a NUL-terminated path; buf is writable for its length.
        let n = unsafe {
            let fd = sys::open(
                c"/proc/thread-self/children".as_ptr(),
                sys::O_RDONLY | sys::O_CLOEXEC,
            );
            if fd < 0 {
                return;
            }
            let n = sys::read(fd, buf.as_mut_ptr().cast(), buf.len());
            sys::close(fd);
            n
        };
        let mut pid: pid_t = 0;
        for &b in buf.iter().take(n.max(0) as usize).chain([&b' ']) {
            if b.is_ascii_digit() {
                pid = pid.wrapping_mul(10).wrapping_add(pid_t::from(b - b'0'));
            } else if pid > 0 {
                // SAFETY: our own child, not yet reaped.
                unsafe { sys::kill(pid, sys::SIGKILL) };
                pid = 0;
            }
        }
        let mut st: c_int = 0;
        // SAFETY: reaping our own children.
        if unsafe { sys::waitpid(-1, &mut st, 0) } < 0 && sys::errno() == sys::ECHILD {
            return;
        }
    }
}

/// The program's process, from fork to exec.
fn program(plan: &Plan, argv: &[*const c_char], envp: &[*const c_char]) -> ! {
    let fail = |step: i32| -> ! {
        report(MSG_EXEC, step, sys::errno());
        // SAFETY: leaving the child without running any Rust clean-up.
        unsafe { sys::_exit(127) }
    };
    // SAFETY: async-signal-safe calls on prepared data only.
    unsafe {
        // Rust's runtime ignores SIGPIPE, and a grader started in the
        // background ignores SIGINT and SIGQUIT; ignored signals survive
        // exec. The program gets every default back, and an empty mask.
        for sig in 1..=64 {
            if sig != sys::SIGKILL && sig != sys::SIGSTOP {
                sys::signal(sig, sys::SIG_DFL);
            }
        }
        let empty = [0u64; 16];
        sys::sigprocmask(sys::SIG_SETMASK, empty.as_ptr().cast(), ptr::null_mut());
        if plan.own_group {
            sys::setpgid(0, 0);
        }
        if sys::chdir(plan.workdir.as_ptr()) != 0 {
            fail(0);
        }
        for &(resource, cur, max) in &plan.rlimits {
            let l = sys::rlimit { cur, max };
            if sys::setrlimit(resource, &l) != 0 {
                fail(1);
            }
        }
        if plan.drop_caps {
            // The bounding set first (needs CAP_SETPCAP), then the securebits
            // that keep uid 0 from regaining anything at exec.
            for cap in 0..64 as c_ulong {
                if sys::prctl(
                    sys::PR_CAPBSET_DROP,
                    cap,
                    0 as c_ulong,
                    0 as c_ulong,
                    0 as c_ulong,
                ) != 0
                {
                    break;
                }
            }
            if sys::prctl(
                sys::PR_SET_SECUREBITS,
                sys::SECURE_NOROOT_ALL_LOCKED,
                0 as c_ulong,
                0 as c_ulong,
                0 as c_ulong,
            ) != 0
            {
                fail(7);
            }
        }
        if let Some((uid, gid)) = plan.ids {
            if sys::syscall(sys::nr::SETGROUPS, 0usize, 0usize) != 0 {
                fail(2);
            }
            if sys::syscall(sys::nr::SETRESGID, gid, gid, gid) != 0 {
                fail(3);
            }
            if sys::syscall(sys::nr::SETRESUID, uid, uid, uid) != 0 {
                fail(4);
            }
        }
        if sys::prctl(
            sys::PR_SET_NO_NEW_PRIVS,
            1 as c_ulong,
            0 as c_ulong,
            0 as c_ulong,
            0 as c_ulong,
        ) != 0
        {
            fail(5);
        }
        sys::execve(plan.program.as_ptr(), argv.as_ptr(), envp.as_ptr());
        fail(6);
    }
}
