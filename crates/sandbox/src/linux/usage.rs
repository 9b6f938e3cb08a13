//! What a run got of the machine: the CPU time its processes used, and the
//! time they were ready to run but waited for a core, as the kernel counts
//! them for each task.
//!
//! Every thread of the keeper's descendants (found through
//! `/proc/PID/task/TID/children`, as the memory sampler finds them) is read
//! from `/proc/PID/task/TID/schedstat` (its time on a core and its time
//! waiting on a run queue, in nanoseconds) each time the grader looks,
//! every 10 to 50 ms and at the time limit; a task's last reading is kept
//! after it ends. A task that came and went between two looks is not
//! counted, nor the last slice of a run that ended by itself (the CPU time
//! of those is the keeper's `getrusage` of its children, which the grader
//! takes when it is more). The files are readable by every user, at every
//! level.
//!
//! Not a cgroup's `cpu.pressure`: its `some` total is each CPU's share of
//! stalled time weighted by that CPU's busy time, not the time a run
//! waited. A task that waited 2.81 s of 3.05 s beside four busy processes
//! on two cores, moving between them, left its group's `some` total at
//! 1.45 s.
//!
//! The waits a run's own threads make each other do on its one core (the
//! cpu group's quota) are not the machine's: the figure is at most the
//! run's wall-clock time less its CPU time (a single task's life is its CPU
//! time, its waits and its sleeps, so that for one task the bound takes
//! nothing away).

use super::memory::descendants;
use std::collections::HashMap;
use std::fs;
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

/// Reads a run's usage from its tasks: the keeper's pid (0 until it is
/// started) and the last reading of each thread id.
#[derive(Debug, Default)]
pub struct Clock {
    keeper: i32,
    seen: HashMap<i32, (u64, u64)>,
}

impl Clock {
    /// The run's keeper has started, as `pid`.
    pub fn started(&mut self, pid: i32) {
        self.keeper = pid;
    }

    /// Looks at the run's tasks now.
    pub fn sample(&mut self) {
        if self.keeper <= 0 {
            return;
        }
        for pid in descendants(self.keeper) {
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
                    self.seen.insert(tid, reading);
                }
            }
        }
    }

    /// What the run got up to the last look: every thread's last reading,
    /// summed.
    pub fn total(&self) -> Usage {
        let (cpu, queued) = self
            .seen
            .values()
            .fold((0u64, 0u64), |(c, q), (dc, dq)| (c + dc, q + dq));
        Usage {
            cpu: Duration::from_nanos(cpu),
            queued: Duration::from_nanos(queued),
        }
    }
}

/// The first two numbers of a `schedstat` line: nanoseconds on a core and
/// nanoseconds waiting on a run queue.
fn schedstat(text: &str) -> Option<(u64, u64)> {
    let mut numbers = text.split_whitespace().map(|n| n.parse::<u64>().ok());
    Some((numbers.next()??, numbers.next()??))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_kernels_counts() {
        assert_eq!(schedstat("1500 250 7\n"), Some((1500, 250)));
        assert_eq!(schedstat("1500\n"), None);
        assert_eq!(schedstat("x 1 2"), None);
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
        let mut clock = Clock::default();
        clock.started(std::process::id() as i32);
        clock.sample();
        let usage = clock.total();
        let _ = child.kill();
        let _ = child.wait();
        assert!(usage.cpu > Duration::ZERO, "{usage:?}");
        assert!(
            usage.cpu + usage.queued >= Duration::from_millis(150),
            "{usage:?}"
        );
    }
}
