//! What depends on the operating system: the restart that tunes `malloc`
//! (huge pages; one arena under an address-space limit), standard output
//! without line buffering, strings of bytes as `OsString`s, and catching
//! SIGINT and SIGTERM (through the sandbox crate, the one with `unsafe`).

use std::ffi::OsString;
use std::io::{self, Write};

/// The glibc tunable that makes `malloc` ask for transparent huge pages.
const HUGE_PAGES: &str = "glibc.malloc.hugetlb=1";

/// The glibc tunable that makes every thread allocate from one arena.
const ONE_ARENA: &str = "glibc.malloc.arena_max=1";

/// The glibc tunable that fixes `malloc`'s mmap threshold at its default
/// (128 KiB): every larger block is mapped when allocated and unmapped when
/// freed, instead of the threshold rising to the largest block freed.
const FIXED_MMAP_THRESHOLD: &str = "glibc.malloc.mmap_threshold=131072";

/// Restarts `puzzle` with glibc's `malloc` asking for transparent huge pages
/// (and, under an address-space limit, keeping one arena and a fixed mmap
/// threshold), unless it already does; returns only if it cannot (then
/// nothing changes).
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
///
/// It also fixes the mmap threshold, so that the batch's room for a thread
/// (`batch::start_thread`: 4 MiB allocated and freed before each thread is
/// started) is new address space each time. With the threshold rising (glibc's
/// default), the first 4 MiB block freed raises it to 4 MiB, the next blocks
/// come from the heap and stay in it when freed, and the room is found
/// where malloc already holds it: the thread's 2 MiB stack could then take
/// the last of the address space, and its signal stack (16 KiB, mapped by
/// the standard library as the thread starts) fail, which aborts the
/// process ("failed to allocate an alternative stack"). Measured with
/// `--batch --solve --jobs 64` under 15, 25 and 40 MB: 7 aborts in 2,400
/// runs, none in 1,500 with the fixed threshold; a limit at every page
/// from 10 to 45 MB, the addresses not randomised (`setarch -R`): aborts
/// at 34 of 8,750 limits, in windows of one to four pages a thread's stack
/// apart, and none with the fixed threshold (`tests/streams.rs` sweeps
/// two threads' worth).
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
            wanted.push(":");
            wanted.push(FIXED_MMAP_THRESHOLD);
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

/// From now on, SIGINT and SIGTERM set [`stop_flag`] instead of ending the
/// process: a long search ends with its best answer printed (the sandbox
/// crate's `signals`, which the grader uses too).
pub(crate) fn catch_signals() {
    use puzzle_sandbox::signals::{catch, Signal};
    catch(&[Signal::Interrupt, Signal::Terminate]);
}

/// The flag a caught signal sets, for [`puzzle::SolveOptions::stop`].
pub(crate) fn stop_flag() -> Option<&'static std::sync::atomic::AtomicBool> {
    Some(puzzle_sandbox::signals::stop_flag())
}

/// The signal caught since [`catch_signals`], if any.
pub(crate) fn caught_signal() -> Option<i32> {
    puzzle_sandbox::signals::caught()
}
