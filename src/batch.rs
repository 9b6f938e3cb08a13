//! Many puzzles from one stream (`puzzle --batch`): every pair answered in input
//! order, as soon as it and the pairs before it are done, while later pairs are
//! still arriving.
//!
//! # The pipeline
//!
//! - A **reader** thread parses pairs ([`PuzzleStream`]) one after another. It
//!   reads a pair only while fewer than a window of pairs (a few per worker) are
//!   read but not yet written, so memory is bounded by the pairs in flight,
//!   never by the input: `yes '1 2 3 b' | puzzle --batch` runs in constant space.
//! - With solving, **workers** (one per core unless told otherwise) take the
//!   pairs in input order and solve them with one shared [`Solver`] (and so
//!   one copy of its tables), each pair on its worker's thread alone.
//! - The **caller's thread** writes the answers in input order, streaming each
//!   (a solution of billions of moves is written from its packed list), and
//!   flushes whenever the next answer is not ready yet: a pipe that sends one
//!   pair and waits gets its answer.
//!
//! A failed write stops the pipeline: the reader and the workers see the stop
//! before they take their next pair, and [`run_batch`] returns at once. A thread
//! still inside a read or a search is not waited for (it holds only shared
//! handles) and ends when that finishes or the process exits. A thread that cannot
//! be started is done without: fewer workers, or, when not even the reader can be
//! started, everything on the caller's thread.
//!
//! This module never prints: answers go to the writer it is given, everything
//! else (progress, statistics, pairs that could not be solved) to a callback.

use crate::board_adt::error::{BoardError, ReadError};
use crate::board_adt::Puzzle;
use crate::input::PuzzleStream;
use crate::report;
use crate::solve::{Solution, SolveError, SolveEvent, SolveOptions, SolveStats, Solver};
use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::io::{self, Read, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;

/// How long the writer waits for the next answer before it flushes what it has
/// written: short enough that nobody notices, long enough that a run of answers
/// goes out in one write.
const FLUSH_DELAY: std::time::Duration = std::time::Duration::from_millis(1);

/// The most pairs the reader hands over at once.
const RUN: usize = 32;

/// The most worker threads a batch starts, whatever it is asked for: more would
/// only wait for the same cores and cost a stack each.
pub const MAX_JOBS: usize = 256;

/// Pairs read ahead of the writer (or four per worker, if more): enough to keep
/// every thread busy on small puzzles, and to hand pairs over in runs.
const WINDOW: u64 = 64;

/// Cells (of both boards) read ahead of the writer: once the pairs in flight
/// hold this many, the reader waits, so that a run of large boards takes tens of
/// MB, not a window of them. One pair is always let through, whatever its size.
const CELL_BUDGET: u64 = 1 << 22;

/// How to answer a batch.
#[derive(Clone, Debug, Default)]
pub struct BatchOptions {
    /// Also solve every solvable pair (`--solve`).
    pub solve: bool,
    /// With `solve`, also write the boards along each solution (`--show`).
    pub show: bool,
    /// Write the parity rule's computation after each verdict (`--explain`).
    pub explain: bool,
    /// Worker threads for solving (at least 1; capped at [`MAX_JOBS`]);
    /// `None`: one a core.
    pub jobs: Option<usize>,
}

/// Something to tell about one pair besides its answer; `pair` counts from 1.
#[derive(Debug)]
pub enum BatchNote<'a> {
    /// The solver reports progress on the pair.
    Progress {
        /// The pair's number.
        pair: u64,
        /// What the solver reports.
        event: &'a SolveEvent<'a>,
    },
    /// The pair was solved (sent when its answer is written, so in input order).
    Solved {
        /// The pair's number.
        pair: u64,
        /// The solution's length.
        moves: usize,
        /// What solving took.
        stats: &'a SolveStats,
    },
    /// The pair got its verdict but no solution (sent in input order).
    Unsolved {
        /// The pair's number.
        pair: u64,
        /// Why it could not be solved.
        error: &'a SolveError,
    },
}

/// How a batch went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchSummary {
    /// Pairs answered, valid or not.
    pub pairs: u64,
    /// Pairs answered with an `error: ` line.
    pub invalid: u64,
    /// Solvable pairs that got their verdict but no solution.
    pub unsolved: u64,
}

impl BatchSummary {
    /// Whether every pair was valid and fully answered.
    pub fn all_answered(&self) -> bool {
        self.invalid == 0 && self.unsolved == 0
    }
}

/// Why a batch stopped before its end.
#[derive(Debug)]
pub enum BatchError {
    /// Reading the input failed; every pair before the failure was answered.
    Read(io::Error),
    /// Writing an answer failed.
    Write(io::Error),
    /// A reader or worker thread panicked (a bug; the panic message is on
    /// stderr): the batch stops rather than wait for an answer that will not come.
    Panicked,
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Read(e) => write!(f, "cannot read the input: {e}"),
            BatchError::Write(e) => write!(f, "cannot write the output: {e}"),
            BatchError::Panicked => f.write_str("a batch thread failed; the batch stops here"),
        }
    }
}

impl std::error::Error for BatchError {}

/// The callback that hears [`BatchNote`]s, from any thread.
pub type Notes = Arc<dyn Fn(&BatchNote) + Send + Sync>;

/// Reads every pair of `input`, answers it on `out` in input order (its three
/// lines, its solution lines with `solve`, or `error: pair N: ...`), and returns
/// the counts; see the module docs. Pairs are solved as `solving` says, except
/// that each is searched on one thread: the batch solves its pairs side by
/// side.
///
/// # Examples
///
/// ```
/// use puzzle::{run_batch, BatchOptions, SolveOptions};
/// use std::sync::Arc;
/// let input = &b"1 2 3 b\n1 2 b 3\n\n1 2 3 x\n1 2 3 b\n"[..];
/// let mut out = Vec::new();
/// let options = BatchOptions { solve: true, show: false, explain: false, jobs: Some(2) };
/// let summary = run_batch(input, &mut out, SolveOptions::default(), &options, Arc::new(|_| {}))
///     .unwrap();
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "start: 1 2 3 b\ngoal: 1 2 b 3\nsolvable\nmoves: 1 (shortest)\nsolution: R\n\
///      error: pair 2: start board: token 4 'x' is neither a number nor 'b'\n"
/// );
/// assert_eq!((summary.pairs, summary.invalid), (2, 1));
/// ```
pub fn run_batch<R, W>(
    input: R,
    out: &mut W,
    solving: SolveOptions,
    options: &BatchOptions,
    notes: Notes,
) -> Result<BatchSummary, BatchError>
where
    R: Read + Send + 'static,
    W: Write,
{
    let solver = Arc::new(batch_solver(solving));
    let jobs = options
        .jobs
        .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, MAX_JOBS);
    let window = (4 * jobs as u64).max(WINDOW);
    let shared = Arc::new(Shared::new(options.solve, window));
    // The stream stays here if the reader thread cannot be started.
    let stream = Arc::new(Mutex::new(Some(PuzzleStream::new(input))));
    let started = {
        let (shared, stream) = (Arc::clone(&shared), Arc::clone(&stream));
        start_thread("batch reader".into(), move || {
            let stream = stream.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(stream) = stream {
                shared.read_all(stream);
            }
        })
    };
    let reader = match started {
        Ok(handle) => handle,
        Err(_) => {
            // No second thread at all: one pair at a time, here.
            let stream = stream.lock().unwrap_or_else(|e| e.into_inner()).take();
            let stream = stream.expect("a reader that never started left the stream");
            return run_in_place(stream, out, &solver, options, &notes);
        }
    };
    let mut workers = Vec::new();
    if options.solve {
        for index in 0..jobs {
            let (shared, solver, notes) =
                (Arc::clone(&shared), Arc::clone(&solver), Arc::clone(&notes));
            let started = start_thread(format!("batch worker {index}"), move || {
                shared.work(&solver, &notes)
            });
            match started {
                Ok(handle) => workers.push(handle),
                Err(_) => break,
            }
        }
    }
    let helper = workers.is_empty().then_some(&*solver);
    let result = shared.write_all(out, options, helper, &notes);
    if result.is_ok() {
        // Every pair is written, so every thread has nothing left to do.
        let _ = reader.join();
        for worker in workers {
            let _ = worker.join();
        }
    }
    result
}

/// The address space a batch wants free before it starts a thread: the
/// thread's stack (2 MiB) and as much again for the work.
const ROOM_FOR_A_THREAD: usize = 4 << 20;

/// Starts a thread named `name` doing `work`, and returns once it runs; or
/// fails, and starts nothing, unless [`ROOM_FOR_A_THREAD`] can be allocated.
///
/// Why: under an address-space limit (`ulimit -v`) a thread whose stack was
/// mapped can still fail as it starts (the standard library maps its signal
/// stack then, and aborts if it cannot), and threads that take the last of
/// the space leave none for the work. So a thread starts only with room to
/// spare, and the next is not asked for (nor the room tried) before it has
/// started. The room is tried with `malloc`, which says whether the address
/// space has room only if a block this size is new address space, given
/// back when freed: glibc's rising mmap threshold keeps freed blocks this
/// size in its heap, and then finds the room where it already holds it.
/// The `puzzle` binary fixes the threshold under an address-space limit
/// (its `platform.rs`); a program of its own that runs batches there should
/// too (`GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072`).
fn start_thread<F>(name: String, work: F) -> io::Result<thread::JoinHandle<()>>
where
    F: FnOnce() + Send + 'static,
{
    if Vec::<u8>::new()
        .try_reserve_exact(ROOM_FOR_A_THREAD)
        .is_err()
    {
        return Err(io::ErrorKind::OutOfMemory.into());
    }
    let (running, wait) = std::sync::mpsc::sync_channel::<()>(1);
    let handle = thread::Builder::new().name(name).spawn(move || {
        let _ = running.send(());
        work()
    })?;
    if wait.recv().is_err() {
        // It ended before running `work` (the standard library's start-up
        // panicked): as if it had never started.
        let _ = handle.join();
        return Err(io::Error::other("the thread ended as it started"));
    }
    Ok(handle)
}

/// The solver of a batch: one search thread a pair, since the pairs are
/// solved side by side.
fn batch_solver(solving: SolveOptions) -> Solver {
    Solver::new(SolveOptions {
        jobs: Some(1),
        ..solving
    })
}

/// What the reader found for one pair.
enum Answer {
    /// A valid pair, solved (with `solve`) or only checked.
    Checked {
        puzzle: Puzzle,
        solved: Option<Result<(Option<Solution>, SolveStats), SolveError>>,
    },
    /// A faulty pair.
    Invalid(BoardError),
    /// The input failed here; nothing follows.
    ReadFailed(io::Error),
}

#[derive(Default)]
struct State {
    /// Valid pairs read and not yet taken by a worker, in input order.
    queue: VecDeque<(u64, Puzzle)>,
    /// Answers ready and not yet written, by pair index (from 0).
    answers: BTreeMap<u64, Answer>,
    /// Pairs (and a read failure) read so far.
    read: u64,
    /// Answers written so far.
    written: u64,
    /// Cells of the pairs read and not yet written.
    cells_in_flight: u64,
    /// The reader has seen the end of the input (or a failed read).
    reading_done: bool,
    /// The writer has failed, or a thread panicked: everybody stops.
    stop: bool,
    /// A reader or worker thread panicked.
    panicked: bool,
    /// Who sleeps, so that nobody is woken for nothing (a wake-up is a system
    /// call, and a batch of small puzzles has millions of pairs).
    reader_waiting: bool,
    writer_waiting: bool,
    idle_workers: usize,
}

impl State {
    /// Whether the reader may read one more pair: fewer than `window` pairs in
    /// flight and their cells within budget (one pair may always be read).
    fn has_room(&self, window: u64) -> bool {
        let pairs = self.read - self.written;
        pairs == 0 || (pairs < window && self.cells_in_flight < CELL_BUDGET)
    }
}

struct Shared {
    state: Mutex<State>,
    /// The reader waits here for room.
    room: Condvar,
    /// Workers wait here for pairs.
    work: Condvar,
    /// The writer waits here for the next answer.
    answer: Condvar,
    solve: bool,
    /// Most pairs read but not yet written.
    window: u64,
}

impl Shared {
    fn new(solve: bool, window: u64) -> Shared {
        Shared {
            state: Mutex::new(State::default()),
            room: Condvar::new(),
            work: Condvar::new(),
            answer: Condvar::new(),
            solve,
            window,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking thread is a bug; the state itself is still consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, on: &Condvar, guard: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        on.wait(guard).unwrap_or_else(|e| e.into_inner())
    }

    /// [`Shared::wait`], for [`FLUSH_DELAY`] at most.
    fn wait_briefly<'a>(
        &self,
        on: &Condvar,
        guard: MutexGuard<'a, State>,
    ) -> MutexGuard<'a, State> {
        match on.wait_timeout(guard, FLUSH_DELAY) {
            Ok((guard, _)) => guard,
            Err(e) => e.into_inner().0,
        }
    }

    /// Files the answer to pair `index`, waking the writer if it waits for it.
    fn answered(&self, state: &mut State, index: u64, answer: Answer) {
        state.answers.insert(index, answer);
        if state.writer_waiting && index == state.written {
            self.answer.notify_one();
        }
    }

    /// The reader: every pair of `stream`, into the queue (to solve) or straight
    /// into the answers.
    fn read_all<R: Read>(&self, mut stream: PuzzleStream<R>) {
        let _alarm = PanicAlarm(self);
        let mut run = Vec::new();
        loop {
            let (mut pairs_left, mut cells_left) = {
                let mut state = self.lock();
                while !state.stop && !state.has_room(self.window) {
                    state.reader_waiting = true;
                    state = self.wait(&self.room, state);
                    state.reader_waiting = false;
                }
                if state.stop {
                    return;
                }
                let in_flight = state.read - state.written;
                (
                    self.window.saturating_sub(in_flight).max(1),
                    CELL_BUDGET.saturating_sub(state.cells_in_flight),
                )
            };
            // Pairs are handed over in runs, while the next pair is already in
            // the input buffer; before a read that may wait for the input, the
            // run so far is handed over, so no answer waits on later input.
            let ended = loop {
                let item = stream.next();
                let last = !matches!(item, Some(Ok(_)) | Some(Err(ReadError::Invalid(_))));
                if let Some(Ok(puzzle)) = &item {
                    cells_left = cells_left.saturating_sub(2 * puzzle.start().len() as u64);
                }
                run.push(item);
                pairs_left -= 1;
                if last {
                    break true;
                }
                if pairs_left == 0
                    || cells_left == 0
                    || run.len() >= RUN
                    || !stream.next_pair_is_buffered()
                {
                    break false;
                }
            };
            self.hand_over(&mut run);
            if ended {
                return;
            }
        }
    }

    /// Files a run of what the reader found: pairs to solve into the queue,
    /// everything else straight into the answers; the end of the input (`None`)
    /// or a failed read ends the reading.
    fn hand_over(&self, run: &mut Vec<Option<Result<Puzzle, ReadError>>>) {
        let mut state = self.lock();
        let mut queued = 0;
        for item in run.drain(..) {
            let index = state.read;
            let answer = match item {
                Some(Ok(puzzle)) => {
                    state.cells_in_flight += 2 * puzzle.start().len() as u64;
                    if self.solve {
                        state.queue.push_back((index, puzzle));
                        state.read += 1;
                        queued += 1;
                        continue;
                    }
                    Answer::Checked {
                        puzzle,
                        solved: None,
                    }
                }
                Some(Err(ReadError::Invalid(e))) => Answer::Invalid(e),
                Some(Err(ReadError::Io(e))) => {
                    state.reading_done = true;
                    Answer::ReadFailed(e)
                }
                None => {
                    state.reading_done = true;
                    continue;
                }
            };
            state.answers.insert(index, answer);
            state.read += 1;
        }
        match queued {
            0 => {}
            1 if state.idle_workers > 0 => self.work.notify_one(),
            _ if state.idle_workers > 0 => self.work.notify_all(),
            _ => {}
        }
        if state.reading_done {
            self.work.notify_all();
        }
        if state.writer_waiting
            && (state.reading_done || state.answers.contains_key(&state.written))
        {
            self.answer.notify_one();
        }
    }

    /// A worker: solves queued pairs until there are no more.
    fn work(&self, solver: &Solver, notes: &Notes) {
        let _alarm = PanicAlarm(self);
        while let Some((index, puzzle)) = self.take() {
            let solved = solve(solver, &puzzle, index, notes);
            let answer = Answer::Checked {
                puzzle,
                solved: Some(solved),
            };
            self.answered(&mut self.lock(), index, answer);
        }
    }

    /// The next queued pair; `None` when there are no more (or on stop).
    fn take(&self) -> Option<(u64, Puzzle)> {
        let mut state = self.lock();
        loop {
            if state.stop {
                return None;
            }
            if let Some(pair) = state.queue.pop_front() {
                return Some(pair);
            }
            if state.reading_done {
                return None;
            }
            state.idle_workers += 1;
            state = self.wait(&self.work, state);
            state.idle_workers -= 1;
        }
    }

    /// The writer: every answer in input order. With `helper` (no worker could
    /// be started), it solves each pair itself when its turn comes.
    fn write_all<W: Write>(
        &self,
        out: &mut W,
        options: &BatchOptions,
        helper: Option<&Solver>,
        notes: &Notes,
    ) -> Result<BatchSummary, BatchError> {
        let mut summary = BatchSummary::default();
        let mut flushed = true;
        loop {
            let next = {
                let mut state = self.lock();
                let mut waited = false;
                loop {
                    if state.panicked {
                        return Err(BatchError::Panicked);
                    }
                    let written = state.written;
                    if let Some(answer) = state.answers.remove(&written) {
                        break Some(answer);
                    }
                    if state.reading_done && state.written == state.read {
                        break None;
                    }
                    if let Some(solver) = helper {
                        // Pairs are queued in order and only this thread takes
                        // them, so the one to write next is at the front.
                        if state.queue.front().is_some_and(|&(i, _)| i == written) {
                            let (index, puzzle) = state.queue.pop_front().expect("a front");
                            drop(state);
                            let solved = Some(solve(solver, &puzzle, index, notes));
                            break Some(Answer::Checked { puzzle, solved });
                        }
                    }
                    if !flushed && !waited {
                        // Answers often come in runs: a moment's wait spares a
                        // write for each of them.
                        waited = true;
                        state.writer_waiting = true;
                        state = self.wait_briefly(&self.answer, state);
                        state.writer_waiting = false;
                        continue;
                    }
                    if !flushed {
                        // Nothing to write until a later pair is done: whoever
                        // reads the output should have what is ready.
                        drop(state);
                        let result = out.flush();
                        flushed = true;
                        if let Err(e) = result {
                            return Err(self.fail(e));
                        }
                        state = self.lock();
                        continue;
                    }
                    state.writer_waiting = true;
                    state = self.wait(&self.answer, state);
                    state.writer_waiting = false;
                }
            };
            let Some(answer) = next else {
                out.flush().map_err(|e| self.fail(e))?;
                return Ok(summary);
            };
            let pair = summary.pairs + 1;
            let mut cells = 0;
            match answer {
                Answer::ReadFailed(e) => {
                    out.flush().map_err(|e| self.fail(e))?;
                    return Err(BatchError::Read(e));
                }
                Answer::Invalid(e) => {
                    summary.invalid += 1;
                    report::write_error(out, Some(pair), &e).map_err(|e| self.fail(e))?;
                }
                Answer::Checked { puzzle, solved } => {
                    cells = 2 * puzzle.start().len() as u64;
                    write_checked(out, &puzzle, solved, options, pair, notes, &mut summary)
                        .map_err(|e| self.fail(e))?;
                }
            }
            summary.pairs = pair;
            flushed = false;
            let mut state = self.lock();
            state.written += 1;
            state.cells_in_flight -= cells;
            // Wake the reader only when half the window is free, so that it
            // reads pairs in runs rather than one per wake-up.
            let free = self.window - (state.read - state.written).min(self.window);
            if state.reader_waiting
                && (free >= self.window.div_ceil(2) || state.written == state.read)
            {
                self.room.notify_one();
            }
        }
    }

    /// Stops every thread after a failed write.
    fn fail(&self, error: io::Error) -> BatchError {
        self.lock().stop = true;
        self.room.notify_all();
        self.work.notify_all();
        BatchError::Write(error)
    }
}

/// Stops the batch if the thread holding it panics: the writer would otherwise
/// wait for ever for the answer that thread owed.
struct PanicAlarm<'a>(&'a Shared);

impl Drop for PanicAlarm<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            let mut state = self.0.lock();
            state.stop = true;
            state.panicked = true;
            self.0.room.notify_all();
            self.0.work.notify_all();
            self.0.answer.notify_all();
        }
    }
}

/// Solves pair `index` (from 0), telling `notes` of its progress.
fn solve(
    solver: &Solver,
    puzzle: &Puzzle,
    index: u64,
    notes: &Notes,
) -> Result<(Option<Solution>, SolveStats), SolveError> {
    let mut stats = SolveStats::default();
    let pair = index + 1;
    let solution = solver.solve(
        puzzle,
        &mut |event| notes(&BatchNote::Progress { pair, event }),
        &mut stats,
    )?;
    Ok((solution, stats))
}

/// Writes a valid pair's answer: its verdict, then its solution (and boards) or,
/// through `notes`, why it has none.
fn write_checked<W: Write>(
    out: &mut W,
    puzzle: &Puzzle,
    solved: Option<Result<(Option<Solution>, SolveStats), SolveError>>,
    options: &BatchOptions,
    pair: u64,
    notes: &Notes,
    summary: &mut BatchSummary,
) -> io::Result<()> {
    report::write_verdict(out, puzzle)?;
    if options.explain {
        report::write_explanation(out, puzzle)?;
    }
    match solved {
        None | Some(Ok((None, _))) => {}
        Some(Ok((Some(solution), stats))) => {
            report::write_solution(out, &solution)?;
            if options.show {
                report::write_boards(out, puzzle.start(), &solution.moves)?;
            }
            let moves = solution.moves.len();
            notes(&BatchNote::Solved {
                pair,
                moves,
                stats: &stats,
            });
        }
        Some(Err(error)) => {
            summary.unsolved += 1;
            notes(&BatchNote::Unsolved {
                pair,
                error: &error,
            });
        }
    }
    Ok(())
}

/// The whole batch on the caller's thread, one pair at a time, each answer
/// flushed at once (used only when no thread can be started).
fn run_in_place<R: Read, W: Write>(
    stream: PuzzleStream<R>,
    out: &mut W,
    solver: &Solver,
    options: &BatchOptions,
    notes: &Notes,
) -> Result<BatchSummary, BatchError> {
    let mut summary = BatchSummary::default();
    for (index, item) in stream.enumerate() {
        let pair = index as u64 + 1;
        let written = match item {
            Ok(puzzle) => {
                let solved = options
                    .solve
                    .then(|| solve(solver, &puzzle, index as u64, notes));
                write_checked(out, &puzzle, solved, options, pair, notes, &mut summary)
            }
            Err(ReadError::Invalid(e)) => {
                summary.invalid += 1;
                report::write_error(out, Some(pair), &e)
            }
            Err(ReadError::Io(e)) => return Err(BatchError::Read(e)),
        };
        written
            .and_then(|()| out.flush())
            .map_err(BatchError::Write)?;
        summary.pairs = pair;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{random_puzzle, GoalShape};
    use crate::solve::SolveOptions;
    use crate::solve::TableSet;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::mpsc::{self, Receiver, Sender};
    use std::time::Duration;

    /// Small in-memory tables: unit tests build nothing big.
    fn solving() -> SolveOptions {
        SolveOptions {
            cache: None,
            tables: TableSet::Small,
            ..SolveOptions::default()
        }
    }

    fn quiet() -> Notes {
        Arc::new(|_| {})
    }

    /// The answers of a batch worked out one pair at a time, without threads.
    fn one_by_one(input: &[u8], options: &BatchOptions) -> Vec<u8> {
        let mut out = Vec::new();
        run_in_place(
            PuzzleStream::new(input),
            &mut out,
            &batch_solver(solving()),
            options,
            &quiet(),
        )
        .unwrap();
        out
    }

    #[test]
    fn answers_come_in_input_order_whatever_the_threads() {
        let mut input = Vec::new();
        for seed in 0..60u64 {
            // Ten 5x5 among them (half unsolvable): slow answers between quick ones.
            let side = [2, 3, 5, 2, 3, 2][seed as usize % 6];
            let p = random_puzzle(side, seed % 4 != 0, GoalShape::Random, seed);
            input.extend(format!("{}\n{}\n\n", p.start(), p.goal()).bytes());
            if seed % 13 == 0 {
                input.extend_from_slice(b"1 2 3 b\n1 2 3 x\n");
            }
        }
        for solve in [false, true] {
            let options = BatchOptions {
                solve,
                show: solve,
                explain: solve,
                jobs: Some(1),
            };
            let want = one_by_one(&input, &options);
            assert!(want.windows(13).any(|w| w == b"error: pair 2"));
            for jobs in [1, 2, 3, 8] {
                let options = BatchOptions {
                    jobs: Some(jobs),
                    ..options.clone()
                };
                let mut out = Vec::new();
                let summary = run_batch(
                    io::Cursor::new(input.clone()),
                    &mut out,
                    solving(),
                    &options,
                    quiet(),
                )
                .unwrap();
                assert_eq!(out, want, "solve {solve}, jobs {jobs}");
                assert_eq!((summary.pairs, summary.invalid), (65, 5));
                assert!(!summary.all_answered());
            }
        }
    }

    /// An input that hands out what a test sends it, and waits in between.
    struct Pipe(Receiver<Vec<u8>>, Vec<u8>);

    impl Read for Pipe {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.1.is_empty() {
                match self.0.recv() {
                    Ok(bytes) => self.1 = bytes,
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.1.len());
            buf[..n].copy_from_slice(&self.1[..n]);
            self.1.drain(..n);
            Ok(n)
        }
    }

    /// An output that passes on every flushed piece.
    struct Flushed(Sender<Vec<u8>>, Vec<u8>);

    impl Write for Flushed {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.1.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            if !self.1.is_empty() {
                let _ = self.0.send(std::mem::take(&mut self.1));
            }
            Ok(())
        }
    }

    #[test]
    fn a_pair_is_answered_before_the_next_one_is_sent() {
        for solve in [false, true] {
            let (send, input) = mpsc::channel();
            let (flushed, answers) = mpsc::channel();
            let batch = thread::spawn(move || {
                let mut out = Flushed(flushed, Vec::new());
                let options = BatchOptions {
                    solve,
                    show: false,
                    explain: false,
                    jobs: Some(2),
                };
                run_batch(
                    Pipe(input, Vec::new()),
                    &mut out,
                    solving(),
                    &options,
                    quiet(),
                )
            });
            let answer = |pair: &[u8]| {
                send.send(pair.to_vec()).unwrap();
                let text = answers.recv_timeout(Duration::from_secs(20)).unwrap();
                String::from_utf8(text).unwrap()
            };
            let first = answer(b"1 2 3 b\n1 2 b 3\n");
            assert!(first.starts_with("start: 1 2 3 b\ngoal: 1 2 b 3\nsolvable\n"));
            assert_eq!(first.ends_with("solution: R\n"), solve);
            assert_eq!(
                answer(b"2 1 3 b\n1 2 3 b\n"),
                "start: 2 1 3 b\ngoal: 1 2 3 b\nunsolvable\n"
            );
            drop(send);
            let summary = batch.join().unwrap().unwrap();
            assert_eq!(summary.pairs, 2);
        }
    }

    /// An endless input of 50x50 pairs that counts the bytes it hands out.
    struct Endless {
        pair: Vec<u8>,
        at: usize,
        given: Arc<AtomicU64>,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.pair.len() - self.at);
            buf[..n].copy_from_slice(&self.pair[self.at..self.at + n]);
            self.at = (self.at + n) % self.pair.len();
            self.given.fetch_add(n as u64, Ordering::Relaxed);
            Ok(n)
        }
    }

    /// An output that takes `room` bytes, then blocks until the test ends.
    struct Stuck {
        room: usize,
        release: Receiver<()>,
    }

    impl Write for Stuck {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                let _ = self.release.recv();
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn reading_waits_for_the_writer_and_a_failed_write_stops_everything() {
        let line: String = (1..2500).map(|t| format!("{t} ")).collect::<String>() + "b\n";
        let pair = format!("{line}{line}").into_bytes();
        let given = Arc::new(AtomicU64::new(0));
        let input = Endless {
            pair: pair.clone(),
            at: 0,
            given: Arc::clone(&given),
        };
        let (release, stuck) = mpsc::channel();
        let batch = thread::spawn(move || {
            let mut out = Stuck {
                room: 100_000,
                release: stuck,
            };
            let options = BatchOptions::default();
            run_batch(input, &mut out, solving(), &options, quiet())
        });
        // The writer is stuck: the reader may run ahead by its window only.
        thread::sleep(Duration::from_millis(300));
        let before = given.load(Ordering::Relaxed);
        thread::sleep(Duration::from_millis(300));
        let after = given.load(Ordering::Relaxed);
        assert_eq!(before, after, "reading has stopped");
        let bound = (WINDOW + 2) * pair.len() as u64 + 128 * 1024;
        assert!(after <= bound, "read {after} bytes ahead, bound {bound}");
        // The write fails: the batch ends although the input never does.
        release.send(()).unwrap();
        let result = batch.join().unwrap();
        assert!(matches!(result, Err(BatchError::Write(_))), "{result:?}");
    }
}
