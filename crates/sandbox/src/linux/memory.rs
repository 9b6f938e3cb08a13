//! The memory limit where no memory cgroup holds it (an ordinary user, a
//! container with read-only cgroups): the grader samples the resident
//! memory of the run's processes from `/proc` every few milliseconds, and
//! stops the run when it is over the limit, so that the limit means what a
//! cgroup's means (memory the run uses, not memory it reserves) at every
//! level. Only where `/proc` cannot show the run's processes is the limit an
//! address-space rlimit
//! ([`MemoryLimit::AddressSpace`](crate::MemoryLimit::AddressSpace)).
//!
//! A sample every few milliseconds misses a run that fills its memory and
//! crashes between two: the most the sampler saw is kept, and the keeper
//! adds the kernel's high-water mark of the program's memory once it has
//! ended, so that such a run is stopped by the limit as a cgroup would
//! have stopped it ([`MemoryStop`](crate::MemoryStop)).
//!
//! The run's processes are the keeper's descendants, found through
//! `/proc/PID/task/TID/children`; a process's resident memory is its
//! anonymous and shared-memory pages (`RssAnon` and `RssShmem` of
//! `/proc/PID/status`): what it allocated, not the libraries it maps, which
//! every process shares. A process that is still a copy of the grader (the
//! program's, between its clone and `execve`) is not counted: its pages are
//! the grader's.

use std::fs;
use std::os::unix::fs::MetadataExt;

/// How often the run's memory is sampled.
pub const EVERY_MS: u64 = 10;

/// What tells a process that is still a copy of the grader: its executable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grader {
    dev: u64,
    ino: u64,
}

impl Grader {
    /// This process's executable.
    pub fn this() -> Option<Grader> {
        let m = fs::metadata("/proc/self/exe").ok()?;
        Some(Grader {
            dev: m.dev(),
            ino: m.ino(),
        })
    }

    fn is(&self, pid: i32) -> bool {
        fs::metadata(format!("/proc/{pid}/exe"))
            .is_ok_and(|m| m.dev() == self.dev && m.ino() == self.ino)
    }
}

/// Whether the sampler can work here: `/proc` shows a process's children.
pub fn can_sample() -> Result<(), String> {
    let children = format!("/proc/self/task/{}/children", gettid());
    fs::read_to_string(&children)
        .map(|_| ())
        .map_err(|e| format!("{children}: {e}"))
}

fn gettid() -> String {
    fs::read_link("/proc/thread-self")
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| std::process::id().to_string())
}

/// The resident memory of `keeper`'s descendants, in bytes (the keeper
/// itself, a copy of the grader, not counted).
pub fn resident(keeper: i32, grader: Option<Grader>) -> u64 {
    descendants(keeper)
        .into_iter()
        .filter(|&pid| !grader.is_some_and(|g| g.is(pid)))
        .map(status_bytes)
        .sum()
}

/// The processes below `keeper` (not `keeper` itself), as `/proc` shows
/// them now; at most 100,000 are looked at.
pub(super) fn descendants(keeper: i32) -> Vec<i32> {
    let mut found = Vec::new();
    let mut todo = children(keeper);
    while let Some(pid) = todo.pop() {
        if found.len() >= 100_000 {
            break;
        }
        todo.extend(children(pid));
        found.push(pid);
    }
    found
}

/// The children of every thread of `pid`.
fn children(pid: i32) -> Vec<i32> {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for task in tasks.flatten() {
        if let Ok(text) = fs::read_to_string(task.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
    }
    out
}

/// `RssAnon` plus `RssShmem` of a process, in bytes (0 when gone).
fn status_bytes(pid: i32) -> u64 {
    fs::read_to_string(format!("/proc/{pid}/status")).map_or(0, |s| resident_of_status(&s))
}

/// `RssAnon` plus `RssShmem` of a `/proc/PID/status` text, in bytes.
fn resident_of_status(status: &str) -> u64 {
    status
        .lines()
        .filter_map(|l| {
            let (key, value) = l.split_once(':')?;
            matches!(key, "RssAnon" | "RssShmem").then_some(value)
        })
        .filter_map(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .sum::<u64>()
        * 1024
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_anonymous_and_shared_pages() {
        let status = "Name:\tx\nVmRSS:\t   9000 kB\nRssAnon:\t    1024 kB\nRssFile:\t    7000 kB\nRssShmem:\t      16 kB\n";
        assert_eq!(resident_of_status(status), (1024 + 16) * 1024);
        assert_eq!(resident_of_status("Name:\tkthreadd\n"), 0);
    }

    /// A child that holds 64 MiB is counted; the sampler finds it below us.
    #[test]
    fn counts_what_a_child_touches() {
        assert_eq!(can_sample(), Ok(()));
        let mut child = std::process::Command::new("/bin/sh")
            .args([
                "-c",
                "x=$(head -c 67108864 /dev/zero | tr '\\0' a); sleep 5",
            ])
            .spawn()
            .unwrap();
        let mut most = 0;
        for _ in 0..200 {
            std::thread::sleep(std::time::Duration::from_millis(10));
            most = most.max(resident(std::process::id() as i32, Grader::this()));
            if most > 64 << 20 {
                break;
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(most > 64 << 20, "{most}");
    }
}
