//! Lines on stderr about work in progress, each `puzzle: ...`.
//!
//! A line that stays ([`line`]) is written as it is. A progress line
//! ([`progress`]: a table being built, the search going on) is written over
//! the previous one when stderr is a terminal, so that a long run shows one
//! updating line; elsewhere (a log file, a pipe) it is a plain line, or
//! nothing, as its [`Plain`] says, so that a log gets a few lines and not one
//! every two seconds.

use std::fmt::Display;
use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a progress line becomes when stderr is not a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plain {
    /// Nothing.
    Never,
    /// A plain line.
    Always,
    /// A plain line if the last plain progress line is at least this old.
    Every(Duration),
}

/// Where stderr stands.
struct State {
    /// Whether stderr is a terminal (asked once).
    tty: Option<bool>,
    /// Whether a progress line is on the screen, without its newline.
    showing: bool,
    /// When the last plain progress line was written.
    last_plain: Option<Instant>,
}

static STATE: Mutex<State> = Mutex::new(State {
    tty: None,
    showing: false,
    last_plain: None,
});

/// The widest progress line written over another: wider ones would wrap on
/// an 80-column terminal, and a carriage return goes back to the start of the
/// last screen line only.
const WIDTH: usize = 79;

fn state() -> std::sync::MutexGuard<'static, State> {
    let mut state = STATE.lock().unwrap_or_else(|e| e.into_inner());
    if state.tty.is_none() {
        state.tty = Some(io::stderr().is_terminal());
    }
    state
}

/// Writes `puzzle: {message}` on a line of its own (first clearing a progress
/// line); lost if stderr is gone.
pub(crate) fn line(message: &dyn Display) {
    let mut state = state();
    let mut err = io::stderr().lock();
    if state.showing {
        let _ = err.write_all(b"\r\x1b[K");
        state.showing = false;
    }
    let _ = writeln!(err, "puzzle: {message}");
}

/// Writes `puzzle: {message}` as the progress line: over the previous one on a
/// terminal (cut to fit the line), else as `plain` says.
pub(crate) fn progress(message: &dyn Display, plain: Plain) {
    let mut state = state();
    if state.tty == Some(true) {
        let text = format!("puzzle: {message}");
        let cut: String = text.chars().take(WIDTH).collect();
        let mut err = io::stderr().lock();
        let _ = write!(err, "\r{cut}\x1b[K");
        let _ = err.flush();
        state.showing = true;
        return;
    }
    let due = match plain {
        Plain::Never => false,
        Plain::Always => true,
        Plain::Every(every) => state.last_plain.is_none_or(|t| t.elapsed() >= every),
    };
    if due {
        state.last_plain = Some(Instant::now());
        let _ = writeln!(io::stderr(), "puzzle: {message}");
    }
}

/// Clears the progress line, if one is showing, so that what comes next
/// (the answer, on the same terminal) starts on a clean line.
pub(crate) fn clear() {
    let mut state = state();
    if state.showing {
        let _ = io::stderr().write_all(b"\r\x1b[K");
        state.showing = false;
    }
}
