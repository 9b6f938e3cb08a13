//! What depends on the operating system: the restart that asks for huge
//! pages, standard output without line buffering, and strings of bytes as
//! `OsString`s.

use std::ffi::OsString;
use std::io::{self, Write};

/// The glibc tunable that makes `malloc` ask for transparent huge pages.
const HUGE_PAGES: &str = "glibc.malloc.hugetlb=1";

/// Restarts `puzzle` with glibc's `malloc` asking for transparent huge pages,
/// unless it already does; returns only if it cannot (then nothing changes).
///
/// Why: the 4x4 search reads its 259 MB table at random, and with 4 KiB pages
/// most reads also miss the TLB. Where the kernel gives huge pages only on
/// request (`madvise` mode, the common default), glibc makes that request for
/// its large blocks when this tunable is set at start-up; the standard library
/// has no other way to make it. Measured on Korf's 100 (`make bench-solve`):
/// search 0.22-0.26 s instead of 0.25-0.33 s, table load 0.1 s instead of 0.2 s.
/// A glibc that does not know the tunable ignores it.
pub(crate) fn ask_for_huge_pages() {
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
        // `exec` replaces this process (same descriptors, nothing read yet) and
        // returns only on failure.
        let _ = std::process::Command::new(me)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", wanted)
            .exec();
    }
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
