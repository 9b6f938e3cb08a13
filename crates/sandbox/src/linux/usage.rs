//! What a run got of the machine: the CPU time its processes used, and the
//! time they were ready to run but waited for a core, both as the kernel
//! counts them.
//!
//! Two sources, the exact one first:
//!
//! - **a cgroup v2 group of the run's own** (its memory and pids group on a
//!   cgroup v2 system, or a group made for the count alone in the unified
//!   hierarchy beside cgroup v1's): `cpu.stat`'s `usage_usec` and
//!   `cpu.pressure`'s `some` total, the time at least one of the group's
//!   tasks was ready to run without a core. Both count every process the
//!   run had, to its end, the short-lived ones too;
//! - **the run's tasks, sampled**: every thread of the keeper's descendants,
//!   found through `/proc/PID/task/TID/children` as the memory sampler
//!   finds them, read from `/proc/PID/task/TID/schedstat` (the time on a
//!   core and the time waiting on a run queue, in nanoseconds) each time
//!   the grader looks; a task's last reading is kept after it ends. A task
//!   that came and went between two looks is not counted, nor the last
//!   slice of a run that ended by itself (the CPU time of those is the
//!   keeper's `getrusage` of its children, which the grader takes when it
//!   is more).
//!
//! The waits a run's own threads make each other do on its one core (the
//! cpu group's quota) are not the machine's: the figure is at most the
//! run's wall-clock time less its CPU time (a single task's time is its
//! CPU time, its waits and its sleeps, so that for one task the bound
//! takes nothing away).

use super::memory::descendants;
use crate::environment::some_total;
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a run got, so far or in all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// CPU time, user and system.
    pub cpu: Duration,
    /// Time ready to run without a core, as the kernel counted it (before
    /// the bound of [`Usage::waited`]).
    pub queued: Duration,
}

impl Usage {
    /// The time the run waited for a core, of `elapsed` on the clock: the
    /// kernel's count, at most the time it was neither on a core nor
    /// asleep by its own choice could be (`elapsed` less its CPU time).
    pub fn waited(&self, elapsed: Duration) -> Duration {
        self.queued.min(elapsed.saturating_sub(self.cpu))
    }
}

/// How a run's usage is read.
#[derive(Debug)]
pub enum Clock {
    /// A cgroup v2 group holding the run: its `cpu.stat` and `cpu.pressure`.
    Group(PathBuf),
    /// The keeper's descendants' threads, sampled: the last reading of
    /// each thread id (the keeper's pid is 0 until it is started).
    Tasks {
        keeper: i32,
        seen: HashMap<i32, (u64, u64)>,
    },
    /// Nothing can be read here.
    Unread,
}

impl Clock {
    /// The run's tasks, below `keeper` (0: not yet started), sampled.
    pub fn tasks(keeper: i32) -> Clock {
        Clock::Tasks {
            keeper,
            seen: HashMap::new(),
        }
    }

    /// The run's keeper has started, as `pid`.
    pub fn started(&mut self, pid: i32) {
        if let Clock::Tasks { keeper, .. } = self {
            *keeper = pid;
        }
    }

    /// Looks at the run's tasks now, where they are sampled.
    pub fn sample(&mut self) {
        if let Clock::Tasks { keeper, seen } = self {
            sample_tasks(*keeper, seen);
        }
    }

    /// What the run got so far (sampling its tasks first); none where
    /// nothing can be read.
    pub fn read(&mut self) -> Option<Usage> {
        match self {
            Clock::Group(dir) => read_group(dir),
            Clock::Tasks { keeper, seen } => {
                sample_tasks(*keeper, seen);
                Some(sum(seen))
            }
            Clock::Unread => None,
        }
    }

    /// What the run got in all, once it has ended (no sampling: its tasks
    /// are gone; a group's counters stay until it is removed).
    pub fn total(&self) -> Option<Usage> {
        match self {
            Clock::Group(dir) => read_group(dir),
            Clock::Tasks { seen, .. } => Some(sum(seen)),
            Clock::Unread => None,
        }
    }
}

/// The sum of every thread's last reading.
fn sum(seen: &HashMap<i32, (u64, u64)>) -> Usage {
    let (cpu, queued) = seen
        .values()
        .fold((0u64, 0u64), |(c, q), (dc, dq)| (c + dc, q + dq));
    Usage {
        cpu: Duration::from_nanos(cpu),
        queued: Duration::from_nanos(queued),
    }
}

/// Reads every thread of `keeper`'s descendants into `seen` (the keeper, a
/// copy of the grader, not counted), as the memory sampler finds them.
fn sample_tasks(keeper: i32, seen: &mut HashMap<i32, (u64, u64)>) {
    if keeper <= 0 {
        return;
    }
    for pid in descendants(keeper) {
        let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Some(tid) = task.file_name().to_str().and_then(|t| t.parse().ok()) else {
                continue;
            };
            if let Some(reading) = fs::read_to_string(task.path().join("schedstat"))
                .ok()
                .and_then(|s| schedstat(&s))
            {
                seen.insert(tid, reading);
            }
        }
    }
}

/// The first two numbers of a `schedstat` line: nanoseconds on a core and
/// nanoseconds waiting on a run queue.
fn schedstat(text: &str) -> Option<(u64, u64)> {
    let mut numbers = text.split_whitespace().map(|n| n.parse::<u64>().ok());
    Some((numbers.next()??, numbers.next()??))
}

/// A cgroup v2 group's CPU time and `some` CPU pressure; none when either
/// file cannot be read (pressure stall information off: `psi=0`).
fn read_group(dir: &Path) -> Option<Usage> {
    let stat = fs::read_to_string(dir.join("cpu.stat")).ok()?;
    let pressure = fs::read_to_string(dir.join("cpu.pressure")).ok()?;
    Some(Usage {
        cpu: Duration::from_micros(usage_usec(&stat)?),
        queued: Duration::from_micros(some_total(&pressure)?),
    })
}

/// `usage_usec` of a `cpu.stat` text.
fn usage_usec(stat: &str) -> Option<u64> {
    stat.lines()
        .find_map(|l| l.strip_prefix("usage_usec "))
        .and_then(|v| v.trim().parse().ok())
}

/// Whether a cgroup v2 group at `dir` gives both counts (read once, when the
/// sandbox probes its cgroups), or why not.
pub fn group_counts(dir: &Path) -> Result<(), String> {
    match read_group(dir) {
        Some(_) => Ok(()),
        None => Err(format!(
            "{} has no readable cpu.stat and cpu.pressure (pressure stall information off?)",
            dir.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_kernels_counts() {
        assert_eq!(schedstat("1500 250 7\n"), Some((1500, 250)));
        assert_eq!(schedstat("1500\n"), None);
        assert_eq!(schedstat("x 1 2"), None);
        let stat = "usage_usec 754086\nuser_usec 750258\nsystem_usec 3827\n";
        assert_eq!(usage_usec(stat), Some(754_086));
        let pressure = "some avg10=9.05 avg60=1.63 avg300=0.34 total=1149713\n\
                        full avg10=9.05 avg60=1.63 avg300=0.34 total=1149000\n";
        assert_eq!(some_total(pressure), Some(1_149_713));
        assert_eq!(some_total("full avg10=0 total=5\n"), None);
        assert_eq!(
            read_group(Path::new("/nonexistent")),
            None,
            "a group that cannot be read gives nothing"
        );
    }

    /// For one task the bound takes nothing away; threads that queue for
    /// each other on the run's one core are not the machine's.
    #[test]
    fn waits_are_bounded_by_the_time_off_a_core() {
        let s = Duration::from_secs;
        let one = Usage {
            cpu: s(2),
            queued: s(4),
        };
        assert_eq!(one.waited(s(6)), s(4));
        // Four busy threads on one core for 6 s: 6 s of CPU, 18 s queued.
        let four = Usage {
            cpu: s(6),
            queued: s(18),
        };
        assert_eq!(four.waited(s(6)), Duration::ZERO);
    }

    /// A busy child of this process is found and counted: it never sleeps,
    /// so its time on a core and its waits for one make up its life, on a
    /// quiet machine or a busy one.
    #[test]
    fn a_busy_childs_time_is_counted() {
        let mut child = std::process::Command::new("/bin/sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let mut clock = Clock::tasks(std::process::id() as i32);
        let usage = clock.read().unwrap();
        let _ = child.kill();
        let _ = child.wait();
        assert!(usage.cpu > Duration::ZERO, "{usage:?}");
        assert!(
            usage.cpu + usage.queued >= Duration::from_millis(150),
            "{usage:?}"
        );
    }
}
