//! What depends on the operating system: the restart that tunes `malloc`
//! (huge pages; one arena under an address-space limit), standard output
//! without line buffering, strings of bytes as `OsString`s, and catching
//! SIGINT and SIGTERM.

use std::ffi::OsString;
use std::io::{self, Write};

/// The glibc tunable that makes `malloc` ask for transparent huge pages.
const HUGE_PAGES: &str = "glibc.malloc.hugetlb=1";

/// The glibc tunable that makes every thread allocate from one arena.
const ONE_ARENA: &str = "glibc.malloc.arena_max=1";

/// Restarts `puzzle` with glibc's `malloc` asking for transparent huge pages
/// (and, under an address-space limit, keeping one arena), unless it already
/// does; returns only if it cannot (then nothing changes).
///
/// Why: the 4x4 search reads its 259 MB table at random, and with 4 KiB pages
/// most reads also miss the TLB. Where the kernel gives huge pages only on
/// request (`madvise` mode, the common default), glibc makes that request for
/// its large blocks when this tunable is set at start-up; the standard library
/// has no other way to make it. Measured on Korf's 100 (`make bench-solve`):
/// search 0.22-0.26 s instead of 0.25-0.33 s, table load 0.1 s instead of 0.2 s.
/// A glibc that does not know the tunable ignores it.
///
/// Under an address-space limit (`ulimit -v`) the restart also asks for a
/// single arena: each new thread's `malloc` would otherwise try to reserve
/// an arena of its own (64 MB), fail, and then take a page of address space
/// for every small allocation, until an allocation fails and the process
/// aborts. Measured: `--batch --solve --jobs 64` under 15, 25 and 40 MB
/// aborted in 34, 3 and 1 of 40 runs, and in none with one arena.
pub(crate) fn tune_malloc() {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let tunables = std::env::var_os("GLIBC_TUNABLES").unwrap_or_default();
        if tunables.to_string_lossy().contains("glibc.malloc.hugetlb") {
            return;
        }
        let Ok(me) = std::env::current_exe() else {
            return;
        };
        let mut wanted = tunables;
        if !wanted.is_empty() {
            wanted.push(":");
        }
        wanted.push(HUGE_PAGES);
        if address_space_limited() {
            wanted.push(":");
            wanted.push(ONE_ARENA);
        }
        // `exec` replaces this process (same descriptors, nothing read yet) and
        // returns only on failure.
        let _ = std::process::Command::new(me)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", wanted)
            .exec();
    }
}

/// Whether this process's address space has a soft limit, as
/// `/proc/self/limits` reports it (no file, no limit).
#[cfg(target_os = "linux")]
fn address_space_limited() -> bool {
    std::fs::read_to_string("/proc/self/limits").is_ok_and(|limits| {
        limits
            .lines()
            .find_map(|line| line.strip_prefix("Max address space"))
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|soft| soft != "unlimited")
    })
}

/// Standard output without the line buffering of `io::stdout()`, which scans
/// every write for a newline (2% of the time on a million-cell board): a
/// duplicate of its descriptor, written through our own `BufWriter`.
#[cfg(unix)]
pub(crate) fn raw_stdout() -> Box<dyn Write> {
    use std::os::fd::AsFd;
    match io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => Box::new(std::fs::File::from(fd)),
        Err(_) => Box::new(io::stdout()),
    }
}

#[cfg(not(unix))]
pub(crate) fn raw_stdout() -> Box<dyn Write> {
    Box::new(io::stdout())
}

/// An `OsString` of these bytes, as they are (on Unix; elsewhere as text).
#[cfg(unix)]
pub(crate) fn os_string_from_bytes(bytes: &[u8]) -> OsString {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::OsStr::from_bytes(bytes).to_owned()
}

#[cfg(not(unix))]
pub(crate) fn os_string_from_bytes(bytes: &[u8]) -> OsString {
    String::from_utf8_lossy(bytes).into_owned().into()
}

/// Ctrl-C and `kill`: SIGINT and SIGTERM end a long search with its best
/// answer printed, rather than the process with nothing.
///
/// Why a foreign function: the standard library has no way to catch a
/// signal, and the `libc` crate would be a new dependency for three
/// declarations. The handler only reads the clock (`clock_gettime`) and
/// stores into atomics, which is async-signal-safe; the search looks at [`stop_flag`] every few
/// milliseconds and ends as at its time limit, and `main` then exits with
/// status 128 + the signal's number (130, 143), as a shell reports a process
/// killed by it. A repeated signal within `SAME_REQUEST_NS` (a second) of the
/// first is the same request, and is ignored: GNU `timeout` sends its signal
/// to the process and then to its group, so `puzzle` gets it twice at once,
/// and a user may press Ctrl-C twice. A signal later than that gets the
/// default action at once: the user insists, and a process stuck in its
/// answer can still be ended. A signal ignored when `puzzle` started
/// (`nohup`, `&` in a script) stays ignored.
#[cfg(unix)]
mod signals {
    use std::ffi::c_long;
    use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, Ordering};

    /// Set by the handler; the solver looks at it.
    pub(super) static STOP: AtomicBool = AtomicBool::new(false);
    /// The signal caught, or 0.
    pub(super) static CAUGHT: AtomicI32 = AtomicI32::new(0);
    /// When the first signal came, in nanoseconds on [`CLOCK`] (-1: unknown).
    static FIRST_AT: AtomicI64 = AtomicI64::new(-1);

    /// How long after the first signal a repeated one is the same request
    /// (one second).
    pub(super) const SAME_REQUEST_NS: i64 = 1_000_000_000;

    /// POSIX `struct timespec` (`time_t` is a `long` on the targets Rust's
    /// std supports for Unix, except 32-bit targets with 64-bit time, where
    /// the time is then misread and a repeated signal kills at once, as before).
    #[repr(C)]
    struct Timespec {
        tv_sec: c_long,
        tv_nsec: c_long,
    }

    /// `CLOCK_MONOTONIC` on Linux; elsewhere `CLOCK_REALTIME`, whose number
    /// (0) is the same everywhere.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const CLOCK: i32 = 1;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const CLOCK: i32 = 0;

    const SIGINT: i32 = 2;
    const SIGTERM: i32 = 15;
    /// `SIG_DFL` and `SIG_IGN` as `signal` takes and returns them.
    const SIG_DFL: usize = 0;
    const SIG_IGN: usize = 1;

    extern "C" {
        /// POSIX `signal`: with glibc and the BSDs the handler stays
        /// installed and interrupted system calls restart.
        fn signal(signum: i32, handler: usize) -> usize;
        fn raise(signum: i32) -> i32;
        fn clock_gettime(clock: i32, now: *mut Timespec) -> i32;
    }

    /// Now, in nanoseconds on [`CLOCK`]; -1 if the clock cannot be read.
    // A `c_long` is an `i64` here, an `i32` on 32-bit targets.
    #[allow(clippy::useless_conversion)]
    fn now_ns() -> i64 {
        let mut now = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` is async-signal-safe (POSIX.1) and writes
        // only the `timespec` it is given, which lives on this stack.
        if unsafe { clock_gettime(CLOCK, &mut now) } != 0 {
            return -1;
        }
        i64::from(now.tv_sec)
            .saturating_mul(1_000_000_000)
            .saturating_add(i64::from(now.tv_nsec))
    }

    /// Whether a signal at `now` repeats one that came at `first` (both from
    /// [`now_ns`]): less than [`SAME_REQUEST_NS`] later. An unknown time is
    /// no repetition (the signal then ends the process, as it insists).
    pub(super) fn repeats(first: i64, now: i64) -> bool {
        first >= 0 && now >= first && now - first < SAME_REQUEST_NS
    }

    extern "C" fn on_signal(signum: i32) {
        if STOP.load(Ordering::SeqCst) {
            if repeats(FIRST_AT.load(Ordering::SeqCst), now_ns()) {
                return;
            }
            // SAFETY: `signal` and `raise` are async-signal-safe (POSIX.1).
            unsafe {
                signal(signum, SIG_DFL);
                raise(signum);
            }
        }
        // The time and the signal first: whoever sees the flag finds them.
        FIRST_AT.store(now_ns(), Ordering::SeqCst);
        CAUGHT.store(signum, Ordering::SeqCst);
        STOP.store(true, Ordering::SeqCst);
    }

    pub(super) fn catch() {
        for signum in [SIGINT, SIGTERM] {
            // SAFETY: the handler only touches atomics and calls
            // async-signal-safe functions; `on_signal` has the C signature
            // `void (*)(int)` that `signal` expects, as a pointer-sized value.
            unsafe {
                let handler: extern "C" fn(i32) = on_signal;
                if signal(signum, handler as usize) == SIG_IGN {
                    signal(signum, SIG_IGN);
                }
            }
        }
    }
}

/// From now on, SIGINT and SIGTERM set [`stop_flag`] instead of ending the
/// process (see `signals`); elsewhere than on Unix, nothing changes.
pub(crate) fn catch_signals() {
    #[cfg(unix)]
    signals::catch();
}

/// The flag a caught signal sets, for [`puzzle::SolveOptions::stop`].
pub(crate) fn stop_flag() -> Option<&'static std::sync::atomic::AtomicBool> {
    #[cfg(unix)]
    return Some(&signals::STOP);
    #[cfg(not(unix))]
    None
}

/// The signal caught since [`catch_signals`], if any.
pub(crate) fn caught_signal() -> Option<i32> {
    #[cfg(unix)]
    {
        let signum = signals::CAUGHT.load(std::sync::atomic::Ordering::SeqCst);
        if signum != 0 {
            return Some(signum);
        }
    }
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::signals::{repeats, SAME_REQUEST_NS};

    #[test]
    fn a_signal_within_a_second_of_the_first_repeats_it() {
        let first = 5_000_000_000;
        assert!(repeats(first, first));
        assert!(repeats(first, first + SAME_REQUEST_NS - 1));
        assert!(!repeats(first, first + SAME_REQUEST_NS));
        assert!(!repeats(first, first + 60 * SAME_REQUEST_NS));
    }

    #[test]
    fn an_unknown_time_is_no_repetition() {
        assert!(!repeats(-1, 5));
        assert!(!repeats(5, -1));
        assert!(!repeats(5_000, 4_000), "a clock that went back");
    }
}
