//! SIGINT, SIGTERM (and for the grader SIGHUP) as a request to stop, the one
//! signal catcher both binaries use: a long search ends with its best answer
//! printed, a grading ends with its runs killed and its files written,
//! rather than the process ending with nothing.
//!
//! Why a foreign function: the standard library has no way to catch a
//! signal. The handler only reads the clock (`clock_gettime`) and stores
//! into atomics, which is async-signal-safe; the work looks at
//! [`stop_flag`] (or [`caught`]) every few milliseconds and ends as at its
//! time limit, and `main` then exits with status 128 + the signal's number
//! (130, 143), as a shell reports a process killed by it.
//!
//! A repeated signal within [`SAME_REQUEST_NS`] (a second) of the first is
//! the same request, and is ignored: GNU `timeout` sends its signal to the
//! process and then to its group, so the process gets it twice at once, and
//! a user may press Ctrl-C twice. A signal later than that gets the default
//! action at once: the user insists, and a process stuck in its answer can
//! still be ended. A signal ignored when the process started (`nohup`, `&`
//! in a script) stays ignored. Elsewhere than on Unix nothing is caught.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, Ordering};

/// The signals a binary may ask to catch (the same numbers on every Unix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// SIGHUP (1): the terminal went away.
    Hangup,
    /// SIGINT (2): Ctrl-C.
    Interrupt,
    /// SIGTERM (15): `kill`, `timeout`.
    Terminate,
}

impl Signal {
    /// Its number.
    pub fn number(self) -> i32 {
        match self {
            Signal::Hangup => 1,
            Signal::Interrupt => 2,
            Signal::Terminate => 15,
        }
    }
}

/// Set by the handler; the work looks at it.
static STOP: AtomicBool = AtomicBool::new(false);
/// The signal caught, or 0.
static CAUGHT: AtomicI32 = AtomicI32::new(0);
/// When the first signal came, in nanoseconds on the monotonic clock (-1:
/// unknown).
static FIRST_AT: AtomicI64 = AtomicI64::new(-1);

/// How long after the first signal a repeated one is the same request (one
/// second).
pub const SAME_REQUEST_NS: i64 = 1_000_000_000;

/// From now on, `signals` set [`stop_flag`] instead of ending the process
/// (the first time; see the module's docs for a repeated one). A signal
/// that this process inherited as ignored stays ignored.
pub fn catch(signals: &[Signal]) {
    #[cfg(unix)]
    for signal in signals {
        unix::catch(signal.number());
    }
    #[cfg(not(unix))]
    let _ = signals;
}

/// The flag a caught signal sets.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

/// The signal caught since [`catch`], if any.
pub fn caught() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        signum => Some(signum),
    }
}

/// Whether a signal at `now` repeats one that came at `first` (both in
/// nanoseconds on one clock): less than [`SAME_REQUEST_NS`] later. An
/// unknown time (-1) is no repetition (the signal then ends the process, as
/// it insists).
fn repeats(first: i64, now: i64) -> bool {
    first >= 0 && now >= first && now - first < SAME_REQUEST_NS
}

#[cfg(unix)]
mod unix {
    use super::{repeats, CAUGHT, FIRST_AT, STOP};
    use crate::sys;
    use std::sync::atomic::Ordering;

    /// Now, in nanoseconds on [`sys::CLOCK`]; -1 if the clock cannot be read.
    // A `c_long` is an `i64` here, an `i32` on 32-bit targets.
    #[allow(clippy::useless_conversion)]
    fn now_ns() -> i64 {
        let mut now = sys::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` is async-signal-safe (POSIX.1) and writes
        // only the `timespec` it is given, which lives on this stack.
        if unsafe { sys::clock_gettime(sys::CLOCK, &mut now) } != 0 {
            return -1;
        }
        i64::from(now.tv_sec)
            .saturating_mul(1_000_000_000)
            .saturating_add(i64::from(now.tv_nsec))
    }

    extern "C" fn on_signal(signum: i32) {
        if STOP.load(Ordering::SeqCst) {
            if repeats(FIRST_AT.load(Ordering::SeqCst), now_ns()) {
                return;
            }
            // SAFETY: `signal` and `raise` are async-signal-safe (POSIX.1).
            unsafe {
                sys::signal(signum, sys::SIG_DFL);
                sys::raise(signum);
            }
        }
        // The time and the signal first: whoever sees the flag finds them.
        FIRST_AT.store(now_ns(), Ordering::SeqCst);
        CAUGHT.store(signum, Ordering::SeqCst);
        STOP.store(true, Ordering::SeqCst);
    }

    pub(super) fn catch(signum: i32) {
        // SAFETY: the handler only touches atomics and calls
        // async-signal-safe functions; `on_signal` has the C signature
        // `void (*)(int)` that `signal` expects, as a pointer-sized value.
        unsafe {
            let handler: extern "C" fn(i32) = on_signal;
            if sys::signal(signum, handler as usize) == sys::SIG_IGN {
                sys::signal(signum, sys::SIG_IGN);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{repeats, SAME_REQUEST_NS};

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
