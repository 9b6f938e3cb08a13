//! SIGINT, SIGTERM and SIGHUP end a grading cleanly: the handler only notes
//! the signal; the runs under way see it, kill what they started and return,
//! and `main` removes the temporary folder and exits with 128 + the signal.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal caught, or 0.
static CAUGHT: AtomicI32 = AtomicI32::new(0);

const SIGHUP: i32 = 1;
const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;

extern "C" {
    /// POSIX `signal`: with glibc the handler stays installed.
    fn signal(signum: i32, handler: usize) -> usize;
}

extern "C" fn on_signal(signum: i32) {
    CAUGHT.store(signum, Ordering::SeqCst);
}

/// From now on SIGINT, SIGTERM and SIGHUP are noted, not fatal.
pub fn catch() {
    for signum in [SIGHUP, SIGINT, SIGTERM] {
        // SAFETY: the handler only stores to an atomic, which is
        // async-signal-safe; it has the C signature `signal` expects.
        unsafe {
            let handler: extern "C" fn(i32) = on_signal;
            signal(signum, handler as usize);
        }
    }
}

/// The signal caught since [`catch`], if any.
pub fn caught() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        signum => Some(signum),
    }
}
