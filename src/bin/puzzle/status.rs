//! Lines on stderr about work in progress, each `puzzle: ...`, and which of
//! the solver's events become one ([`tell`]).
//!
//! A line that stays ([`line`]) is written as it is. A progress line
//! ([`progress`]: a table being built, the search going on) is written over
//! the previous one when stderr is a terminal, so that a long run shows one
//! updating line; elsewhere (a log file, a pipe) it is a plain line, or
//! nothing, as its [`Plain`] says, so that a log gets a few lines and not one
//! every two seconds.
//!
//! On a terminal the progress line fits the terminal's width ([`fit`]: whole
//! fields are dropped from its end, a unit is never cut), and a search's line
//! never stands still: while a [`Ticker`] runs, a line about a search that has
//! not reported for a while is drawn again every second, its times brought up
//! to date and, between two iterations, saying what runs there ([`ticked`]).

use puzzle::{SearchProgress, SolveEvent, TableEvent};
use std::fmt::Display;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
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
    /// The widest progress line, `puzzle: ` included (worked out once).
    width: usize,
    /// Whether a progress line is on the screen, without its newline.
    showing: bool,
    /// When the progress line was last drawn.
    drawn: Option<Instant>,
    /// The search report the progress line shows, if it shows one, and when
    /// it came.
    search: Option<(SearchProgress, Instant)>,
    /// When the last plain progress line was written.
    last_plain: Option<Instant>,
}

static STATE: Mutex<State> = Mutex::new(State {
    tty: None,
    width: 0,
    showing: false,
    drawn: None,
    search: None,
    last_plain: None,
});

/// The prefix of every line.
const PREFIX: &str = "puzzle: ";

/// A search's progress line is drawn again once it is this old...
const REDRAW_EVERY: Duration = Duration::from_secs(1);

/// ... and its search has not reported for this long (the 5x5 search reports
/// every second within an iteration).
const QUIET_FOR: Duration = Duration::from_millis(1500);

fn state() -> std::sync::MutexGuard<'static, State> {
    let mut state = STATE.lock().unwrap_or_else(|e| e.into_inner());
    if state.tty.is_none() {
        state.tty = Some(io::stderr().is_terminal());
        state.width = line_width(std::env::var("COLUMNS").ok().as_deref());
    }
    state
}

/// The widest progress line on a terminal of `COLUMNS` columns (80 when it
/// is unset or not a number): one column less, since a line that reaches the
/// last column wraps on some terminals, and a carriage return goes back to
/// the start of the last screen line only.
fn line_width(columns: Option<&str>) -> usize {
    let columns = columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .unwrap_or(80);
    columns - 1
}

/// The longest start of `text` that takes at most `width` characters and
/// ends with a whole field: fields are separated by `"; "` or `", "`, and a
/// unit (`24.9 M nodes`, `proof ~4.1 days`) is never cut, so whole fields
/// are dropped from the end. If even the first field is too wide, whole
/// words of it; if even its first word, as many characters as fit.
pub(crate) fn fit(text: &str, width: usize) -> &str {
    let chars = |s: &str| s.chars().count();
    if chars(text) <= width {
        return text;
    }
    // The ends of the fields, and failing that of the words, that fit.
    let ends = |separators: &[&str]| {
        text.char_indices()
            .filter(|&(i, _)| separators.iter().any(|s| text[i..].starts_with(s)))
            .map(|(i, _)| i)
            .take_while(|&i| chars(&text[..i]) <= width)
            .last()
    };
    if let Some(end) = ends(&["; ", ", "]).or_else(|| ends(&[" "])) {
        return &text[..end];
    }
    let end = text
        .char_indices()
        .nth(width)
        .map_or(text.len(), |(i, _)| i);
    &text[..end]
}

/// The progress line of a search that reported `p` and has not reported for
/// `since`: its times brought up to date (the estimates of what is left
/// counted down), and after an iteration of the 5x5 search (which holds a
/// best solution) what runs between two iterations: wider beams that try to
/// shorten the best solution.
pub(crate) fn ticked(p: &SearchProgress, since: Duration) -> String {
    let mut now = *p;
    now.elapsed += since;
    now.iteration_left = p
        .iteration_left
        .map(|(low, high)| (low.saturating_sub(since), high.saturating_sub(since)));
    now.proof_left = p
        .proof_left
        .map(|(low, high)| (low.saturating_sub(since), high.saturating_sub(since)));
    let line = SolveEvent::Search(&now).to_string();
    if !(p.iteration_done && p.best.is_some()) {
        return line;
    }
    // Right after the bound, so that a narrow terminal keeps it.
    let beams = format!("wider beams for {:.0} s", since.as_secs_f64());
    match line.split_once(", ") {
        Some((head, tail)) => format!("{head}, {beams}, {tail}"),
        None => format!("{line}, {beams}"),
    }
}

/// How a solver event is told on stderr.
enum Telling {
    /// A line of its own.
    Line,
    /// The progress line.
    Progress(Plain),
    /// Not at all.
    Not,
}

/// How `event` is told: loading and storing tables take a fraction of a
/// second, worth a line only with --stats; a table being built and the search
/// going on are the progress line; the rest are lines.
fn telling(event: &SolveEvent, stats: bool) -> Telling {
    match event {
        SolveEvent::Table(
            TableEvent::Loading { .. } | TableEvent::Loaded { .. } | TableEvent::Stored { .. },
        ) if !stats => Telling::Not,
        SolveEvent::Table(TableEvent::Building { .. }) => Telling::Progress(Plain::Never),
        SolveEvent::Table(TableEvent::Built { .. }) => Telling::Progress(Plain::Always),
        SolveEvent::Search(p) if p.iteration_done => Telling::Progress(Plain::Always),
        SolveEvent::Search(_) => Telling::Progress(Plain::Every(Duration::from_secs(30))),
        _ => Telling::Line,
    }
}

/// Tells `event` on stderr (with --stats, more of them), after `pair` when
/// it is about one pair of a batch. A batch's notes come from several
/// threads and its answers go out between them: they are plain lines, never
/// the progress line; and the lower bound of a solution not proven shortest
/// is told only with --stats.
pub(crate) fn tell(event: &SolveEvent, stats: bool, pair: Option<u64>) {
    let message: &dyn std::fmt::Display = event;
    let prefixed;
    let message = match pair {
        Some(pair) => {
            prefixed = format!("pair {pair}: {event}");
            &prefixed as &dyn std::fmt::Display
        }
        None => message,
    };
    match (telling(event, stats), pair) {
        (Telling::Not, _) => {}
        // Every pair of a batch of large boards would get one.
        (Telling::Line, Some(_)) if matches!(event, SolveEvent::Unproven { .. }) && !stats => {}
        (Telling::Line, _) | (Telling::Progress(Plain::Always), Some(_)) => line(message),
        (Telling::Progress(plain), None) => match event {
            SolveEvent::Search(p) => search(p, plain),
            _ => progress(message, plain),
        },
        (Telling::Progress(_), Some(_)) => {}
    }
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
    state.search = None;
    let _ = writeln!(err, "{PREFIX}{message}");
}

/// Writes `puzzle: {message}` as the progress line: over the previous one on a
/// terminal (fitted to its width), else as `plain` says.
pub(crate) fn progress(message: &dyn Display, plain: Plain) {
    let mut state = state();
    state.search = None;
    show(&mut state, message, plain);
}

/// [`progress`] for a search's report, which a [`Ticker`] keeps up to date.
pub(crate) fn search(p: &SearchProgress, plain: Plain) {
    let mut state = state();
    state.search = Some((*p, Instant::now()));
    show(&mut state, &SolveEvent::Search(p), plain);
}

fn show(state: &mut State, message: &dyn Display, plain: Plain) {
    if state.tty == Some(true) {
        draw(state, &message.to_string());
        return;
    }
    let due = match plain {
        Plain::Never => false,
        Plain::Always => true,
        Plain::Every(every) => state.last_plain.is_none_or(|t| t.elapsed() >= every),
    };
    if due {
        state.last_plain = Some(Instant::now());
        let _ = writeln!(io::stderr(), "{PREFIX}{message}");
    }
}

/// Draws `text` as the progress line on the terminal, over the previous one.
fn draw(state: &mut State, text: &str) {
    let text = fit(text, state.width.saturating_sub(PREFIX.len()));
    let mut err = io::stderr().lock();
    let _ = write!(err, "\r{PREFIX}{text}\x1b[K");
    let _ = err.flush();
    state.showing = true;
    state.drawn = Some(Instant::now());
}

/// Draws a search's progress line again if it is due (see [`Ticker`]).
fn tick() {
    let mut state = state();
    let Some((p, came)) = state.search else {
        return;
    };
    let due = state.showing
        && came.elapsed() >= QUIET_FOR
        && state.drawn.is_none_or(|d| d.elapsed() >= REDRAW_EVERY);
    if due {
        draw(&mut state, &ticked(&p, came.elapsed()));
    }
}

/// A thread that keeps a search's progress line moving on a terminal (see
/// [`ticked`]) until it is dropped; elsewhere it does nothing.
pub(crate) struct Ticker {
    running: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
}

impl Ticker {
    /// Starts the thread, if stderr is a terminal (and the system starts it).
    pub(crate) fn start() -> Ticker {
        if state().tty != Some(true) {
            return Ticker { running: None };
        }
        let done = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&done);
        let thread = std::thread::Builder::new().spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                std::thread::park_timeout(Duration::from_millis(250));
                tick();
            }
        });
        Ticker {
            running: thread.ok().map(|thread| (done, thread)),
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        if let Some((done, thread)) = self.running.take() {
            done.store(true, Ordering::Relaxed);
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

/// Clears the progress line, if one is showing, so that what comes next
/// (the answer, on the same terminal) starts on a clean line.
pub(crate) fn clear() {
    let mut state = state();
    state.search = None;
    if state.showing {
        let _ = io::stderr().write_all(b"\r\x1b[K");
        state.showing = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The report at the end of the 5x5 search's 91 bound.
    fn done_at_91() -> SearchProgress {
        SearchProgress {
            bound: 91,
            nodes: 24_900_000,
            elapsed: Duration::from_secs(2),
            iteration_done: true,
            best: Some(103),
            iteration_left: None,
            proof_left: Some((Duration::from_secs(54 * 60), Duration::from_secs(54 * 60))),
        }
    }

    const LINE: &str = "search: bound 91 done, best 103; 24.9 M nodes, 2 s, proof ~54.0 min";

    #[test]
    fn the_line_is_the_librarys_report() {
        assert_eq!(SolveEvent::Search(&done_at_91()).to_string(), LINE);
    }

    #[test]
    fn a_line_that_fits_is_kept_whole() {
        assert_eq!(fit(LINE, LINE.len()), LINE);
        assert_eq!(fit(LINE, 200), LINE);
    }

    #[test]
    fn whole_fields_are_dropped_from_the_end_never_a_unit_cut() {
        // The width of the "proof ~54." and a few more.
        let without_proof = "search: bound 91 done, best 103; 24.9 M nodes, 2 s";
        assert_eq!(fit(LINE, LINE.len() - 1), without_proof);
        assert_eq!(fit(LINE, 58), without_proof);
        assert_eq!(fit(LINE, 50), without_proof);
        assert_eq!(
            fit(LINE, 49),
            "search: bound 91 done, best 103; 24.9 M nodes"
        );
        assert_eq!(fit(LINE, 40), "search: bound 91 done, best 103");
        assert_eq!(fit(LINE, 25), "search: bound 91 done");
    }

    #[test]
    fn a_first_field_too_wide_loses_whole_words_then_characters() {
        assert_eq!(fit(LINE, 20), "search: bound 91");
        assert_eq!(fit(LINE, 8), "search:");
        assert_eq!(fit(LINE, 4), "sear");
        assert_eq!(fit(LINE, 0), "");
    }

    #[test]
    fn width_is_counted_in_characters() {
        let text = "tables in ~/cach\u{e9}, 255 MB";
        assert_eq!(fit(text, 21), "tables in ~/cach\u{e9}");
    }

    #[test]
    fn the_width_comes_from_columns_else_80() {
        assert_eq!(line_width(None), 79);
        assert_eq!(line_width(Some("120")), 119);
        assert_eq!(line_width(Some(" 40 ")), 39);
        assert_eq!(line_width(Some("wide")), 79);
        assert_eq!(line_width(Some("0")), 79);
    }

    #[test]
    fn a_quiet_search_line_between_iterations_says_beams_run() {
        let line = ticked(&done_at_91(), Duration::from_secs(7));
        assert_eq!(
            line,
            "search: bound 91 done, wider beams for 7 s, best 103; 24.9 M nodes, 9 s, \
             proof ~53.9 min"
        );
        // On an 80-column terminal the estimate goes, on a narrow one more;
        // the beams stay.
        assert_eq!(
            fit(&line, 79 - PREFIX.len()),
            "search: bound 91 done, wider beams for 7 s, best 103; 24.9 M nodes, 9 s"
        );
        assert_eq!(fit(&line, 50), "search: bound 91 done, wider beams for 7 s");
    }

    #[test]
    fn a_quiet_search_line_within_an_iteration_counts_its_times() {
        let within = SearchProgress {
            iteration_done: false,
            iteration_left: Some((Duration::from_secs(30), Duration::from_secs(30))),
            ..done_at_91()
        };
        assert_eq!(
            ticked(&within, Duration::from_secs(6)),
            "search: bound 91, best 103; 24.9 M nodes, 8 s; next ~24 s, proof ~53.9 min"
        );
        // The larger boards' search has no best solution and runs no beams.
        let manhattan = SearchProgress {
            best: None,
            proof_left: None,
            ..done_at_91()
        };
        assert_eq!(
            ticked(&manhattan, Duration::from_secs(2)),
            "search: bound 91 done; 24.9 M nodes, 4 s"
        );
    }
}
