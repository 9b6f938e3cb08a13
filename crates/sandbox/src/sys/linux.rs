//! The C library functions and constants that only the Linux sandbox
//! needs, declared by hand (std links the C library; no crate is used).
//!
//! Everything here is called between `fork` and `exec` too, so only plain
//! system-call wrappers are declared. The ones glibc implements with extra
//! work in a threaded process (`setresuid`, `setresgid` and `setgroups`
//! signal every thread so that all change together) are made as raw system
//! calls instead, through [`syscall`].

use super::{getrlimit, pid_t, rlimit};
use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void};

/// `struct rusage` of 64-bit Linux: two `timeval`s, then fourteen `long`s,
/// of which only the high-water mark of resident memory is read.
#[repr(C)]
pub struct rusage {
    pub utime: [c_long; 2],
    pub stime: [c_long; 2],
    /// The most resident memory, in KiB: of this process (`RUSAGE_SELF`),
    /// or of the largest child waited for, with its own waited-for
    /// descendants (`RUSAGE_CHILDREN`).
    pub maxrss: c_long,
    pub rest: [c_long; 13],
}

pub const RUSAGE_SELF: c_int = 0;
pub const RUSAGE_CHILDREN: c_int = -1;

#[repr(C)]
pub struct pollfd {
    pub fd: c_int,
    pub events: i16,
    pub revents: i16,
}

extern "C" {
    pub fn syscall(number: c_long, ...) -> c_long;
    pub fn __errno_location() -> *mut c_int;
    pub fn _exit(status: c_int) -> !;
    pub fn open(path: *const c_char, flags: c_int, ...) -> c_int;
    pub fn openat(dir: c_int, path: *const c_char, flags: c_int, ...) -> c_int;
    pub fn close(fd: c_int) -> c_int;
    pub fn read(fd: c_int, buf: *mut c_void, count: usize) -> isize;
    pub fn write(fd: c_int, buf: *const c_void, count: usize) -> isize;
    pub fn pipe2(fds: *mut c_int, flags: c_int) -> c_int;
    pub fn dup2(old: c_int, new: c_int) -> c_int;
    pub fn fcntl(fd: c_int, cmd: c_int, ...) -> c_int;
    pub fn mkdir(path: *const c_char, mode: c_uint) -> c_int;
    pub fn symlink(target: *const c_char, link: *const c_char) -> c_int;
    pub fn chdir(path: *const c_char) -> c_int;
    pub fn mount(
        source: *const c_char,
        target: *const c_char,
        fstype: *const c_char,
        flags: c_ulong,
        data: *const c_void,
    ) -> c_int;
    pub fn umount2(target: *const c_char, flags: c_int) -> c_int;
    pub fn prctl(option: c_int, ...) -> c_int;
    pub fn personality(persona: c_ulong) -> c_int;
    pub fn unshare(flags: c_int) -> c_int;
    pub fn setns(fd: c_int, nstype: c_int) -> c_int;
    pub fn sigprocmask(how: c_int, set: *const c_void, old: *mut c_void) -> c_int;
    pub fn execve(
        path: *const c_char,
        argv: *const *const c_char,
        envp: *const *const c_char,
    ) -> c_int;
    pub fn waitpid(pid: pid_t, status: *mut c_int, options: c_int) -> pid_t;
    pub fn getrusage(who: c_int, usage: *mut rusage) -> c_int;
    pub fn poll(fds: *mut pollfd, n: c_ulong, timeout_ms: c_int) -> c_int;
    pub fn geteuid() -> c_uint;
    pub fn getuid() -> c_uint;
    pub fn getegid() -> c_uint;
    pub fn statvfs(path: *const c_char, buf: *mut c_void) -> c_int;
}

#[cfg(target_arch = "x86_64")]
pub mod nr {
    pub const CLONE: i64 = 56;
    pub const SETGROUPS: i64 = 116;
    pub const SETRESUID: i64 = 117;
    pub const SETRESGID: i64 = 119;
    pub const PIVOT_ROOT: i64 = 155;
    pub const CLOSE_RANGE: i64 = 436;
    pub const OPENAT2: i64 = 437;
    pub const LANDLOCK_CREATE_RULESET: i64 = 444;
    pub const LANDLOCK_ADD_RULE: i64 = 445;
    pub const LANDLOCK_RESTRICT_SELF: i64 = 446;
}

#[cfg(target_arch = "aarch64")]
pub mod nr {
    pub const CLONE: i64 = 220;
    pub const SETGROUPS: i64 = 159;
    pub const SETRESUID: i64 = 147;
    pub const SETRESGID: i64 = 149;
    pub const PIVOT_ROOT: i64 = 41;
    pub const CLOSE_RANGE: i64 = 436;
    pub const OPENAT2: i64 = 437;
    pub const LANDLOCK_CREATE_RULESET: i64 = 444;
    pub const LANDLOCK_ADD_RULE: i64 = 445;
    pub const LANDLOCK_RESTRICT_SELF: i64 = 446;
}

/// `personality`'s query (the current persona, unchanged).
pub const PERSONALITY_QUERY: c_ulong = 0xffff_ffff;
/// The persona flag that lays a program's memory out at the same addresses
/// at every run.
pub const ADDR_NO_RANDOMIZE: c_ulong = 0x0004_0000;
pub const SIGSTOP: c_int = 19;
pub const SIGCHLD: c_int = 17;
pub const SIG_SETMASK: c_int = 2;

pub const CLONE_NEWNS: u64 = 0x0002_0000;
pub const CLONE_NEWUTS: u64 = 0x0400_0000;
pub const CLONE_NEWIPC: u64 = 0x0800_0000;
pub const CLONE_NEWUSER: u64 = 0x1000_0000;
pub const CLONE_NEWPID: u64 = 0x2000_0000;
pub const CLONE_NEWNET: u64 = 0x4000_0000;
pub const CLONE_PIDFD: u64 = 0x1000;

pub const O_RDONLY: c_int = 0;
pub const O_WRONLY: c_int = 1;
pub const O_CREAT: c_int = 0o100;
pub const O_NONBLOCK: c_int = 0o4000;
pub const O_CLOEXEC: c_int = 0o2000000;
pub const O_PATH: c_int = 0o10000000;
pub const O_NOCTTY: c_int = 0o400;
#[cfg(target_arch = "x86_64")]
pub const O_DIRECTORY: c_int = 0o200000;
#[cfg(target_arch = "x86_64")]
pub const O_NOFOLLOW: c_int = 0o400000;
#[cfg(target_arch = "aarch64")]
pub const O_DIRECTORY: c_int = 0o40000;
#[cfg(target_arch = "aarch64")]
pub const O_NOFOLLOW: c_int = 0o100000;
/// `openat2`'s `struct open_how`.
#[repr(C)]
pub struct open_how {
    pub flags: u64,
    pub mode: u64,
    pub resolve: u64,
}
pub const RESOLVE_NO_MAGICLINKS: u64 = 0x02;
pub const RESOLVE_NO_SYMLINKS: u64 = 0x04;
pub const RESOLVE_BENEATH: u64 = 0x08;
pub const ENOSYS: c_int = 38;
pub const ELOOP: c_int = 40;
pub const EXDEV: c_int = 18;
pub const F_DUPFD_CLOEXEC: c_int = 1030;
pub const F_SETFD: c_int = 2;
pub const FD_CLOEXEC: c_int = 1;

pub const MS_RDONLY: c_ulong = 1;
pub const MS_NOSUID: c_ulong = 2;
pub const MS_NODEV: c_ulong = 4;
pub const MS_NOEXEC: c_ulong = 8;
pub const MS_REMOUNT: c_ulong = 32;
pub const MS_NOATIME: c_ulong = 1024;
pub const MS_NODIRATIME: c_ulong = 2048;
pub const MS_BIND: c_ulong = 4096;
pub const MS_REC: c_ulong = 16384;
pub const MS_PRIVATE: c_ulong = 1 << 18;
pub const MS_RELATIME: c_ulong = 1 << 21;
pub const MNT_DETACH: c_int = 2;

pub const RLIMIT_CPU: c_int = 0;
pub const RLIMIT_FSIZE: c_int = 1;
pub const RLIMIT_CORE: c_int = 4;
pub const RLIMIT_NPROC: c_int = 6;
pub const RLIMIT_NOFILE: c_int = 7;
pub const RLIMIT_AS: c_int = 9;

pub const PR_SET_PDEATHSIG: c_int = 1;
pub const PR_SET_NO_NEW_PRIVS: c_int = 38;
pub const PR_SET_CHILD_SUBREAPER: c_int = 36;
pub const PR_SET_DUMPABLE: c_int = 4;
pub const PR_CAPBSET_DROP: c_int = 24;
pub const PR_SET_SECUREBITS: c_int = 28;
pub const PR_SET_SECCOMP: c_int = 22;
pub const SECCOMP_MODE_FILTER: c_ulong = 2;
/// `SECBIT_NOROOT`, `SECBIT_NO_SETUID_FIXUP`, `SECBIT_KEEP_CAPS` and
/// `SECBIT_NO_CAP_AMBIENT_RAISE`, each with its lock: uid 0 gains no
/// capabilities by exec, for good.
pub const SECURE_NOROOT_ALL_LOCKED: c_ulong = 0xff;

pub const POLLIN: i16 = 1;
pub const EINTR: c_int = 4;
pub const EEXIST: c_int = 17;
pub const ECHILD: c_int = 10;

/// `statvfs`'s `f_flag` bits (`ST_*`), as mount flags.
pub const ST_RDONLY: u64 = 1;
pub const ST_NOSUID: u64 = 2;
pub const ST_NODEV: u64 = 4;
pub const ST_NOEXEC: u64 = 8;
pub const ST_NOATIME: u64 = 1024;
pub const ST_NODIRATIME: u64 = 2048;
pub const ST_RELATIME: u64 = 4096;

/// The calling thread's `errno`.
pub fn errno() -> c_int {
    // SAFETY: __errno_location returns the calling thread's errno slot.
    unsafe { *__errno_location() }
}

/// The hard limit of `resource` this process has (none can be raised
/// above it without privilege), or unlimited when it cannot be read.
pub fn hard_limit(resource: c_int) -> u64 {
    let mut l = rlimit { cur: 0, max: 0 };
    // SAFETY: l is a valid struct rlimit.
    if unsafe { getrlimit(resource, &mut l) } == 0 {
        l.max
    } else {
        u64::MAX
    }
}

/// `WIFEXITED`, `WEXITSTATUS`, `WIFSIGNALED`, `WTERMSIG` of a wait status.
pub fn exit_code(status: c_int) -> Option<c_int> {
    (status & 0x7f == 0).then_some((status >> 8) & 0xff)
}

/// The signal that killed a process, from its wait status.
pub fn term_signal(status: c_int) -> Option<c_int> {
    let sig = status & 0x7f;
    (sig != 0 && sig != 0x7f).then_some(sig)
}

/// The mount flags of the file system holding `path` (those a bind mount of
/// it must keep when remounted inside a user namespace), or 0.
pub fn locked_mount_flags(path: &std::ffi::CStr) -> c_ulong {
    // struct statvfs is 11 unsigned longs and 6 ints on 64-bit Linux; f_flag
    // is the tenth word. A larger buffer keeps us safe from layout surprises.
    let mut buf = [0u64; 32];
    // SAFETY: path is NUL-terminated; buf is larger than struct statvfs.
    if unsafe { statvfs(path.as_ptr(), buf.as_mut_ptr().cast()) } != 0 {
        return 0;
    }
    let st = buf[9];
    let mut flags = 0;
    for (st_bit, ms_bit) in [
        (ST_RDONLY, MS_RDONLY),
        (ST_NOSUID, MS_NOSUID),
        (ST_NODEV, MS_NODEV),
        (ST_NOEXEC, MS_NOEXEC),
        (ST_NOATIME, MS_NOATIME),
        (ST_NODIRATIME, MS_NODIRATIME),
        (ST_RELATIME, MS_RELATIME),
    ] {
        if st & st_bit != 0 {
            flags |= ms_bit;
        }
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wait_status_decoding() {
        assert_eq!(exit_code(3 << 8), Some(3));
        assert_eq!(term_signal(3 << 8), None);
        assert_eq!(exit_code(9), None);
        assert_eq!(term_signal(9), Some(9));
        assert_eq!(term_signal(11 | 0x80), Some(11)); // core dumped
        assert_eq!(term_signal(0x137f), None); // stopped
    }
}
