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
//! A task's life is its CPU time, its waits on a run queue, its sleeps, and
//! the rest: time it was ready to run, or stalled in the kernel, but on no
//! run queue and counted as no CPU time. That rest is the machine's, not
//! the program's: a virtual machine's host running something else on the
//! core (steal: the kernel takes it out of the task's CPU time, but not out
//! of its wall-clock time, and it is no wait on a run queue), a cpu
//! group's quota used up by others (throttling), memory reclaimed or paged
//! in under other processes' pressure (uninterruptible sleep). It is told
//! from a sleep of the program's own choice (`sleep`, `read`, `wait`: an
//! interruptible sleep) by the task's state (`/proc/PID/task/TID/stat`):
//! between two looks that both saw the task running or runnable (`R`) or
//! stalled in the kernel (`D`), the time it was neither on a core nor on a
//! run queue was taken from it ([`Usage::taken`]); where either look saw
//! it asleep, stopped or ended, that time is its own (a program that
//! sleeps chose its time). One CI run of a busy program showed it: 1.43 s
//! on the clock, 52 ms of CPU, 156 ms on a run queue, and 1.22 s in
//! neither, all of it once counted as its own.
//!
//! The waits a run's own threads make each other do on its one core (the
//! cpu group's quota) are not the machine's: the figure is at most the
//! run's wall-clock time less its CPU time (a single task's life is its CPU
//! time, its waits and its sleeps, so that for one task the bound takes
//! nothing away).

use super::memory::descendants;
use std::collections::HashMap;
use std::fs;
use std::time::{Duration, Instant};

/// What a run got, so far or in all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// CPU time, user and system.
    pub cpu: Duration,
    /// Time ready to run without a core, as the kernel counted it (before
    /// the bound of [`Usage::waited`]).
    pub queued: Duration,
    /// Time it was running, runnable or stalled in the kernel, but neither
    /// on a core nor on a run queue: taken by the host (steal), a quota
    /// (throttling) or the kernel (reclaim), never a sleep of its own.
    pub taken: Duration,
}

impl Usage {
    /// The time the machine kept the run from running, of `elapsed` on the
    /// clock: its waits for a core (the kernel's count) and the time taken
    /// from it, at most the time it was not on a core (`elapsed` less its
    /// CPU time).
    pub fn waited(&self, elapsed: Duration) -> Duration {
        (self.queued + self.taken).min(elapsed.saturating_sub(self.cpu))
    }
}

/// A task as last seen: its CPU time and run-queue wait (nanoseconds),
/// when, whether it was running, runnable or stalled in the kernel then,
/// and the time taken from it so far.
#[derive(Clone, Copy, Debug)]
struct Reading {
    cpu: u64,
    queued: u64,
    at: Instant,
    busy: bool,
    taken: Duration,
}

impl Reading {
    /// The task seen again `at`, with `cpu` and `queued` (nanoseconds)
    /// and `busy` its state: the time since the last look that was none of
    /// CPU time, a wait on a run queue or a sleep of its own is added to
    /// what was taken from it.
    fn next(self, cpu: u64, queued: u64, at: Instant, busy: bool) -> Reading {
        let mut taken = self.taken;
        if self.busy && busy {
            let counted = Duration::from_nanos(
                cpu.saturating_sub(self.cpu) + queued.saturating_sub(self.queued),
            );
            taken += at
                .saturating_duration_since(self.at)
                .saturating_sub(counted);
        }
        Reading {
            cpu,
            queued,
            at,
            busy,
            taken,
        }
    }
}

/// Reads a run's usage from its tasks: the keeper's pid (0 until it is
/// started) and the last reading of each thread id.
#[derive(Debug, Default)]
pub struct Clock {
    keeper: i32,
    seen: HashMap<i32, Reading>,
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
                let Some((cpu, queued)) = fs::read_to_string(task.path().join("schedstat"))
                    .ok()
                    .and_then(|s| schedstat(&s))
                else {
                    continue;
                };
                let busy = fs::read_to_string(task.path().join("stat"))
                    .ok()
                    .is_some_and(|s| busy_state(&s));
                let at = Instant::now();
                let reading = match self.seen.get(&tid) {
                    Some(last) => last.next(cpu, queued, at, busy),
                    None => Reading {
                        cpu,
                        queued,
                        at,
                        busy,
                        taken: Duration::ZERO,
                    },
                };
                self.seen.insert(tid, reading);
            }
        }
    }

    /// What the run got up to the last look: every thread's last reading,
    /// summed.
    pub fn total(&self) -> Usage {
        self.seen.values().fold(Usage::default(), |u, r| Usage {
            cpu: u.cpu + Duration::from_nanos(r.cpu),
            queued: u.queued + Duration::from_nanos(r.queued),
            taken: u.taken + r.taken,
        })
    }
}

/// Whether a task's `stat` line shows it running or runnable (`R`) or
/// stalled in the kernel (`D`): wanting a core, not asleep by its own
/// choice, stopped or ended. The state follows the name in parentheses,
/// which may hold any byte, so it is read after the last `)`.
fn busy_state(stat: &str) -> bool {
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .is_some_and(|state| matches!(state, "R" | "D"))
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
            taken: Duration::ZERO,
        };
        assert_eq!(one.waited(s(6)), s(4));
        // Four busy threads on one core for 6 s: 6 s of CPU, 18 s queued.
        let four = Usage {
            cpu: s(6),
            queued: s(18),
            taken: s(1),
        };
        assert_eq!(four.waited(s(6)), Duration::ZERO);
    }

    #[test]
    fn the_state_is_read_after_the_name() {
        assert!(busy_state("12 (busy) R 1 12 12 0 -1"));
        assert!(busy_state("12 (a) b) D 1"));
        assert!(!busy_state("12 (sleeper) S 1 12"));
        assert!(!busy_state("12 (x) R) S 1"));
        assert!(!busy_state("12 (gone) Z 1"));
        assert!(!busy_state(""));
    }

    /// The CI run of issue 50: a busy program 1.43 s on the clock, 52 ms on
    /// a core, 156 ms on a run queue. The 1.22 s in neither, while it was
    /// runnable at every look, was taken from it (the host's steal, a
    /// quota, reclaim), not its own; a program asleep at a look owns the
    /// time.
    #[test]
    fn time_neither_on_a_core_nor_queued_is_taken_from_a_busy_task_not_a_sleeping_one() {
        let ms = Duration::from_millis;
        let began = Instant::now();
        let first = Reading {
            cpu: 0,
            queued: 0,
            at: began,
            busy: true,
            taken: Duration::ZERO,
        };
        // Looks every 50 ms or so, as the launch does: 29 of them.
        let mut busy = first;
        let mut sleeping = Reading {
            busy: false,
            ..first
        };
        for look in 1..=29u64 {
            let at = began + ms(1430) * look as u32 / 29;
            let (cpu, queued) = (52_000_000 * look / 29, 156_000_000 * look / 29);
            busy = busy.next(cpu, queued, at, true);
            sleeping = sleeping.next(cpu, queued, at, false);
        }
        let usage = |r: Reading| Usage {
            cpu: Duration::from_nanos(r.cpu),
            queued: Duration::from_nanos(r.queued),
            taken: r.taken,
        };
        let elapsed = ms(1430);
        let waited = usage(busy).waited(elapsed);
        assert!(waited >= ms(1370) && waited <= ms(1378), "{waited:?}");
        // Its own time is then its CPU time, give or take a rounding.
        assert!(elapsed - waited <= ms(60), "{:?}", elapsed - waited);
        // Asleep by its own choice at every look: only its waits on a run
        // queue are the machine's, as before.
        assert_eq!(usage(sleeping).waited(elapsed), ms(156));
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
