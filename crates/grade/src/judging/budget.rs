//! A program's budget: every run its grading makes (on the fixtures, their
//! repeats and confirmations, the experiments that confirm causes, the
//! fuzzing) draws on one [`Budget`]: the time `--budget` gives the
//! submission, and the timeouts `--max-timeouts` allows it.
//!
//! A run is opened in the budget before it starts ([`Budget::open`]): none
//! starts once the time is spent or K runs have timed out (the reason is
//! the text a fixture left NOT RUN shows), and one that starts gets its
//! time limit cut to what is left of the time. When it ends it is booked
//! ([`Budget::book`]): its time counts towards what the row shows, and a
//! timeout towards `--max-timeouts` (one the budget's cut ended is no
//! timeout of the program: it says nothing of it, and is left out of its
//! fixture's runs).

use puzzle_sandbox::{Ending, Limits};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The time and the timeouts one program's grading may spend, shared by
/// all its runs (from several threads at once).
#[derive(Debug)]
pub struct Budget {
    /// When the time ends (none: no `--budget`).
    deadline: Option<Instant>,
    /// How long it was (`--budget`), for messages.
    length: Duration,
    /// The timeouts allowed (`--max-timeouts`).
    max_timeouts: Option<usize>,
    /// The runs that timed out so far.
    timeouts: AtomicUsize,
    /// The time of every run booked so far.
    spent: Mutex<Duration>,
}

/// A run opened in a [`Budget`]: its limits, and whether the budget cut
/// its time limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opened {
    /// The limits to run it with.
    pub limits: Limits,
    /// Whether its time limit is what was left of the budget, less than
    /// its own.
    pub cut: bool,
}

impl Opened {
    /// Whether the run, ended so, was stopped by the budget's cut (not by
    /// a time limit of its own): it says nothing of the program.
    pub fn cut_short(&self, ending: &Ending) -> bool {
        self.cut && *ending == Ending::TimedOut
    }
}

impl Budget {
    /// A budget of `length` (none: no end) starting now, and of
    /// `max_timeouts` timeouts (none: no cap).
    pub fn new(length: Option<Duration>, max_timeouts: Option<usize>) -> Budget {
        Budget::until(length.map(|l| Instant::now() + l), length, max_timeouts)
    }

    /// A budget ending at `deadline` (none: no end), `length` long.
    pub fn until(
        deadline: Option<Instant>,
        length: Option<Duration>,
        max_timeouts: Option<usize>,
    ) -> Budget {
        Budget {
            deadline,
            length: length.unwrap_or_default(),
            max_timeouts,
            timeouts: AtomicUsize::new(0),
            spent: Mutex::new(Duration::ZERO),
        }
    }

    /// A budget without end or cap.
    pub fn unlimited() -> Budget {
        Budget::new(None, None)
    }

    /// The time left, when there is an end (zero once it is spent).
    pub fn left(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Why no run may start now, if none may: the time is spent, or
    /// `--max-timeouts` runs have timed out (as a fixture NOT RUN says it).
    pub fn closed(&self) -> Option<String> {
        if self.left().is_some_and(|l| l.is_zero()) {
            return Some(self.spent_words());
        }
        let k = self.max_timeouts?;
        (self.timeouts.load(Ordering::SeqCst) >= k)
            .then(|| format!("not run: {k} runs had timed out before it (--max-timeouts {k})"))
    }

    /// Why a run is NOT RUN when the time is spent (or cut it short).
    pub fn spent_words(&self) -> String {
        format!(
            "not run: the submission's time budget ({} s, --budget) was spent",
            self.length.as_secs()
        )
    }

    /// A run about to start with `limits`: its limits, the time limit cut
    /// to what is left when that is less; or why it may not start.
    pub fn open(&self, limits: &Limits) -> Result<Opened, String> {
        if let Some(why) = self.closed() {
            return Err(why);
        }
        let mut limits = limits.clone();
        let mut cut = false;
        if let Some(left) = self.left() {
            if left < limits.wall {
                limits.wall = left;
                cut = true;
            }
            // The clock it may be given to make up its waits for a core,
            // also within what is left.
            limits.make_up = limits.make_up.min(left.saturating_sub(limits.wall));
        }
        Ok(Opened { limits, cut })
    }

    /// Books the run `opened` that took `elapsed`: its time, and its
    /// timeout when it `timed_out` by a limit of its own (not the budget's
    /// cut; not the machine's load, which its caller tells).
    pub fn book(&self, opened: &Opened, timed_out: bool, elapsed: Duration) {
        *self.spent.lock().unwrap_or_else(|e| e.into_inner()) += elapsed;
        if timed_out && !opened.cut {
            self.timeouts.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// The time of every run booked.
    pub fn spent(&self) -> Duration {
        *self.spent.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The runs booked that timed out.
    pub fn timeouts(&self) -> usize {
        self.timeouts.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(wall: u64) -> Limits {
        Limits {
            wall: Duration::from_secs(wall),
            make_up: Duration::from_secs(3 * wall),
            memory: 1 << 20,
            processes: 1,
            file_size: 1 << 20,
            open_files: 8,
            folder: None,
        }
    }

    #[test]
    fn a_run_is_cut_to_what_is_left_and_none_starts_after() {
        let budget = Budget::new(Some(Duration::from_secs(5)), None);
        // Its own limit is less than what is left: as it is.
        let opened = budget.open(&limits(2)).unwrap();
        assert_eq!(
            (opened.limits.wall, opened.cut),
            (Duration::from_secs(2), false)
        );
        // Its waits for a core made up only within what is left.
        assert!(opened.limits.wall + opened.limits.make_up <= Duration::from_secs(5));
        // More: cut to what is left.
        let opened = budget.open(&limits(60)).unwrap();
        assert!(opened.cut && opened.limits.wall <= Duration::from_secs(5));
        assert!(opened.limits.make_up <= Duration::from_millis(1));
        assert!(opened.cut_short(&Ending::TimedOut));
        assert!(!opened.cut_short(&Ending::Exited(0)));
        // Cut short, its timeout is none of the program's.
        budget.book(&opened, true, Duration::from_secs(5));
        assert_eq!(budget.timeouts(), 0);
        assert_eq!(budget.spent(), Duration::from_secs(5));
        let spent = Budget::until(Some(Instant::now()), Some(Duration::from_secs(7)), None);
        assert_eq!(
            spent.open(&limits(1)),
            Err("not run: the submission's time budget (7 s, --budget) was spent".into())
        );
    }

    #[test]
    fn after_k_timeouts_of_any_run_none_starts() {
        let budget = Budget::new(None, Some(2));
        let opened = budget.open(&limits(1)).unwrap();
        budget.book(&opened, true, Duration::from_secs(1));
        budget.book(&opened, false, Duration::from_millis(3));
        assert!(budget.closed().is_none());
        budget.book(&opened, true, Duration::from_secs(1));
        assert_eq!(
            budget.closed().as_deref(),
            Some("not run: 2 runs had timed out before it (--max-timeouts 2)")
        );
        assert!(budget.open(&limits(1)).is_err());
        assert_eq!(budget.spent(), Duration::from_millis(2003));
        assert!(Budget::unlimited().open(&limits(9)).is_ok_and(|o| !o.cut));
    }
}
