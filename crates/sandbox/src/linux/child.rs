//! The run's two processes between `clone` and `execve`: the keeper and the
//! program.
//!
//! The **keeper** is cloned by the grader into the run's namespaces, where
//! it is init: it joins the run's cgroups, builds the file system the
//! program sees and pivots into it (the plan's operations), then starts the
//! program, waits for it and writes its wait status to the status pipe.
//! When the keeper exits the kernel kills everything left in the PID
//! namespace. Without namespaces it is a watcher instead: a subreaper that
//! gets the run's orphans and kills them once the program has ended.
//!
//! The **program**'s process, cloned by the keeper, resets its signals,
//! changes to its folder, sets its rlimits, drops its ids and privileges,
//! and executes the program. It is never PID 1, so it gets its signals as
//! usual.
//!
//! Only async-signal-safe code runs here: raw system calls on the plan's
//! prepared strings; nothing allocates or panics, and the `clone`s are raw
//! system calls (glibc's `fork` would run its fork handlers and take locks
//! another thread of the grader may hold). A failed step is written to the
//! status pipe as a [`Message::Failed`] and the process exits.

use super::filter::Program;
use super::plan::{Op, Plan};
use super::wire::{Message, Step};
use crate::sys::{self, pid_t};
use std::ffi::{c_char, c_int, c_ulong, c_void, CString};
use std::os::fd::AsRawFd;
use std::ptr;

/// The status pipe's number in the keeper and the program (close-on-exec).
pub const STATUS_FD: c_int = 3;
/// The Landlock ruleset's number in the keeper and the program, when there
/// is one (close-on-exec, and closed before `execve`).
const RULESET_FD: c_int = 4;

/// Writes `message` to the status pipe at `fd`.
fn tell(fd: c_int, message: Message) {
    let bytes = message.encode();
    // SAFETY: bytes is readable for its length.
    unsafe { sys::write(fd, bytes.as_ptr().cast(), bytes.len()) };
}

/// Reports `step` as failed (with the current `errno`) and exits.
fn fail(fd: c_int, step: Step) -> ! {
    tell(
        fd,
        Message::Failed {
            step,
            errno: sys::errno(),
        },
    );
    // SAFETY: leaving the child without running any Rust clean-up.
    unsafe { sys::_exit(127) }
}

/// `prctl` with one argument.
///
/// # Safety
///
/// As `prctl(2)` with `option` and `arg`.
unsafe fn prctl1(option: c_int, arg: c_ulong) -> c_int {
    // SAFETY: the caller's; the unused arguments are zero as prctl asks.
    unsafe { sys::prctl(option, arg, 0 as c_ulong, 0 as c_ulong, 0 as c_ulong) }
}

/// The keeper: sets up, starts the program, waits for it and reports its
/// status. `status` is the status pipe's write end; `argv` and `envp` are
/// the plan's, as pointer arrays.
pub fn keeper(plan: &Plan, status: c_int, argv: &[*const c_char], envp: &[*const c_char]) -> ! {
    // SAFETY: async-signal-safe calls on prepared data only.
    unsafe {
        prctl1(sys::PR_SET_PDEATHSIG, sys::SIGKILL as c_ulong);
        // Before the descriptors are arranged, which closes this one (the
        // pipe is not at STATUS_FD yet: messages go where it is).
        if let Some(net) = plan.shared_net {
            if sys::setns(net, sys::CLONE_NEWNET as c_int) != 0 {
                fail(status, Step::JoinNetwork);
            }
        }
        let ruleset = plan.landlock.as_ref().map_or(-1, |fd| fd.as_raw_fd());
        if !arrange_fds(plan.fds, status, ruleset) {
            fail(status, Step::ArrangeDescriptors);
        }
        if plan.own_group {
            // Orphans of the run (a daemon's double fork) come to us.
            prctl1(sys::PR_SET_CHILD_SUBREAPER, 1);
        }
        for (i, op) in plan.ops.iter().enumerate() {
            if do_op(op).is_err() {
                fail(STATUS_FD, Step::SetUp(i as u32));
            }
        }
        // Nothing of the run (uid 0 of a user namespace) may read this copy
        // of the grader's memory (set after the set-up: it makes the files
        // of /proc/self, uid_map among them, root's).
        prctl1(sys::PR_SET_DUMPABLE, 0);
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
            fail(STATUS_FD, Step::StartProgram);
        }
        if plan.own_group {
            tell(STATUS_FD, Message::ProgramPid(pid as i32));
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
        tell(STATUS_FD, peak());
        tell(STATUS_FD, Message::Status(st));
        sys::_exit(0);
    }
}

/// The high-water marks of resident memory of the keeper's children (the
/// program, and what the keeper reaped) and of the keeper, in KiB, and the
/// children's CPU time in milliseconds.
fn peak() -> Message {
    let usage_of = |who: c_int| {
        let mut usage = sys::rusage {
            utime: [0; 2],
            stime: [0; 2],
            maxrss: 0,
            rest: [0; 13],
        };
        // SAFETY: usage is a writable struct rusage.
        let ok = unsafe { sys::getrusage(who, &mut usage) } == 0;
        ok.then_some(usage)
    };
    let kib = |u: &Option<sys::rusage>| {
        u.as_ref()
            .map_or(0, |u| i32::try_from(u.maxrss).unwrap_or(i32::MAX))
    };
    let children = usage_of(sys::RUSAGE_CHILDREN);
    let cpu_ms = children.as_ref().map_or(0, |u| {
        let ms = |tv: [std::ffi::c_long; 2]| tv[0] * 1000 + tv[1] / 1000;
        i32::try_from(ms(u.utime) + ms(u.stime)).unwrap_or(i32::MAX)
    });
    Message::Peak {
        children_kib: kib(&children),
        keeper_kib: kib(&usage_of(sys::RUSAGE_SELF)),
        children_cpu_ms: cpu_ms,
    }
}

/// The program's process, from its clone to `execve`.
fn program(plan: &Plan, argv: &[*const c_char], envp: &[*const c_char]) -> ! {
    // SAFETY: async-signal-safe calls on prepared data only.
    unsafe {
        // A session of its own (and so a process group, whose id is the
        // program's pid, as the keeper's kill of the group expects): the
        // terminal's signals (Ctrl-C, a hang-up) go to the grader alone, which
        // decides what becomes of the run, and the program has no
        // controlling terminal to read the marker's keyboard from. First,
        // while the grader's dispositions still hold: a Ctrl-C sent to the
        // grader's group after the defaults below were back and before this
        // killed the program (1 grading in 24 under load, its experiment
        // counting 9 failures of 10 instead of 10).
        sys::setsid();
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
        if sys::chdir(plan.workdir.as_ptr()) != 0 {
            fail(STATUS_FD, Step::ChangeFolder);
        }
        // The same addresses at every run (the flag survives exec): a
        // student's program that reads memory it never wrote (a string
        // without its NUL, an uninitialised variable) then reads the same
        // bytes in every grading, as root or not, resumed or not, instead
        // of what address randomisation left there this time. Randomisation
        // protects a program from its input; here the input is ours and
        // the program is the one to be held. Best effort: a container's own
        // filter may refuse the call, and the run goes on randomised.
        let persona = sys::personality(sys::PERSONALITY_QUERY);
        if persona >= 0 {
            sys::personality(persona as c_ulong | sys::ADDR_NO_RANDOMIZE);
        }
        for &(resource, cur, max) in &plan.rlimits {
            let l = sys::rlimit { cur, max };
            if sys::setrlimit(resource, &l) != 0 {
                fail(STATUS_FD, Step::SetLimit(resource as u32));
            }
        }
        if plan.drop_caps {
            // The bounding set first (needs CAP_SETPCAP), then the securebits
            // that keep uid 0 from regaining anything at exec.
            for cap in 0..64 as c_ulong {
                if prctl1(sys::PR_CAPBSET_DROP, cap) != 0 {
                    break;
                }
            }
            if prctl1(sys::PR_SET_SECUREBITS, sys::SECURE_NOROOT_ALL_LOCKED) != 0 {
                fail(STATUS_FD, Step::DropCapabilities);
            }
        }
        if let Some((uid, gid)) = plan.ids {
            if sys::syscall(sys::nr::SETGROUPS, 0usize, 0usize) != 0 {
                fail(STATUS_FD, Step::DropGroups);
            }
            if sys::syscall(sys::nr::SETRESGID, gid, gid, gid) != 0 {
                fail(STATUS_FD, Step::ChangeGroup);
            }
            if sys::syscall(sys::nr::SETRESUID, uid, uid, uid) != 0 {
                fail(STATUS_FD, Step::ChangeUser);
            }
        }
        if prctl1(sys::PR_SET_NO_NEW_PRIVS, 1) != 0 {
            fail(STATUS_FD, Step::NoNewPrivileges);
        }
        if plan.landlock.is_some() {
            if sys::syscall(sys::nr::LANDLOCK_RESTRICT_SELF, RULESET_FD, 0u32) != 0 {
                fail(STATUS_FD, Step::RestrictFiles);
            }
            sys::close(RULESET_FD);
        }
        // Last: from here on the program's own calls are filtered (the
        // filter allows what is left: execve, and a failure's write).
        let filter = Program {
            len: plan.filter.len() as u16,
            filter: plan.filter.as_ptr(),
        };
        if sys::prctl(
            sys::PR_SET_SECCOMP,
            sys::SECCOMP_MODE_FILTER,
            &filter as *const Program,
            0 as c_ulong,
            0 as c_ulong,
        ) != 0
        {
            fail(STATUS_FD, Step::InstallFilter);
        }
        sys::execve(plan.program.as_ptr(), argv.as_ptr(), envp.as_ptr());
        fail(STATUS_FD, Step::Execute);
    }
}

fn opt_ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(ptr::null(), |s| s.as_ptr())
}

/// One set-up operation; `Err(())` when it failed (`errno` says why).
fn do_op(op: &Op) -> Result<(), ()> {
    // SAFETY: every pointer is a NUL-terminated string of the plan, or null
    // where the call allows it.
    let ok = unsafe {
        match op {
            Op::Optional(op) => {
                let _ = do_op(op);
                true
            }
            Op::Write { path, data } => {
                let fd = sys::open(path.as_ptr(), sys::O_WRONLY | sys::O_CLOEXEC);
                if fd < 0 {
                    false
                } else {
                    let b = data.as_bytes();
                    let n = sys::write(fd, b.as_ptr().cast(), b.len());
                    // close keeps errno of a failed write only if it
                    // succeeds itself, which it does on these files.
                    let e = sys::errno();
                    sys::close(fd);
                    *sys::__errno_location() = e;
                    n == b.len() as isize
                }
            }
            Op::Mkdir(p) => sys::mkdir(p.as_ptr(), 0o755) == 0 || sys::errno() == sys::EEXIST,
            Op::Touch(p) => {
                let fd = sys::open(
                    p.as_ptr(),
                    sys::O_RDONLY | sys::O_CREAT | sys::O_CLOEXEC,
                    0o644,
                );
                fd >= 0 && sys::close(fd) == 0
            }
            Op::Symlink { target, link } => sys::symlink(target.as_ptr(), link.as_ptr()) == 0,
            Op::Mount {
                source,
                target,
                fstype,
                flags,
                data,
            } => {
                sys::mount(
                    opt_ptr(source),
                    target.as_ptr(),
                    opt_ptr(fstype),
                    *flags,
                    opt_ptr(data).cast::<c_void>(),
                ) == 0
            }
            Op::PivotRoot(p) => {
                let dot = c".".as_ptr();
                sys::chdir(p.as_ptr()) == 0
                    && sys::syscall(sys::nr::PIVOT_ROOT, dot, dot) == 0
                    && sys::umount2(dot, sys::MNT_DETACH) == 0
                    && sys::chdir(c"/".as_ptr()) == 0
            }
        }
    };
    if ok {
        Ok(())
    } else {
        Err(())
    }
}

/// Moves the job's descriptors to 0, 1, 2, the status pipe to 3 and the
/// Landlock ruleset (if any, else -1) to 4, and closes every other (other
/// runs' files, held by this copy of the parent).
fn arrange_fds(fds: [c_int; 3], status: c_int, ruleset: c_int) -> bool {
    let all = [fds[0], fds[1], fds[2], status, ruleset];
    let n = if ruleset >= 0 { 5 } else { 4 };
    // SAFETY: plain descriptor calls.
    unsafe {
        let mut high = [-1; 5];
        for (h, fd) in high.iter_mut().zip(&all).take(n) {
            *h = sys::fcntl(*fd, sys::F_DUPFD_CLOEXEC, 10 as c_int);
            if *h < 0 {
                return false;
            }
        }
        for (target, h) in high.iter().enumerate().take(n) {
            if sys::dup2(*h, target as c_int) < 0 {
                return false;
            }
        }
        for fd in STATUS_FD..n as c_int {
            sys::fcntl(fd, sys::F_SETFD, sys::FD_CLOEXEC);
        }
        if sys::syscall(sys::nr::CLOSE_RANGE, n as u32, u32::MAX, 0u32) != 0 {
            for fd in n as c_int..1024 {
                sys::close(fd);
            }
        }
    }
    true
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
