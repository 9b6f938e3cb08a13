//! The fuzzer: differential testing of another implementation against the
//! reference, for `puzzle-grade fuzz PROGRAM` (`sh Testrun fuzz PROGRAM`)
//! and `--fuzz` of `grade` and `grade-all`.
//!
//! Fixtures catch the faults someone thought of. The fuzzer makes inputs of
//! every kind the assignment has ([`super::case`]: every side from 2 up to boards
//! whose inversions pass 2^31, lines past 1, 4 and 64 KiB, the blank in every
//! row, random and fixed goals, solvable and unsolvable in equal measure, and
//! each kind of bad input `SPEC.md` lists), runs the program on each through
//! the grader's [`Runner`] with the grader's limits, and judges the run
//! against the reference, in-process ([`super::prober`]): each input is written to a
//! file named by the reference's answer and prepared as a fixture, so that
//! the rules of `grade` hold (open choices, `--strict`). A disagreement is a
//! judgement that fails. The first of each class is shrunk ([`super::shrink`]) to
//! a minimal case, written as a fixture file and shown with the program's
//! output, the expected output and, for a wrong verdict, the reference's
//! `--explain` lines. The stream of inputs is fixed by the seed.

use super::case::{Blank, Fault, Goal, Kind, Layout, Recipe};
use super::prober::{Prober, Tried};
use super::shrink::{shrink, Case};
use crate::engine::Settings;
use crate::judging::budget::Budget;
use crate::judging::class::Class;
use crate::judging::judge::Judgement;
use crate::shared::text::{lines, quote};
use puzzle::input::read_puzzle;
use puzzle::SplitMix64;
use puzzle_sandbox::{Ending, Runner};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How to fuzz.
#[derive(Clone, Debug)]
pub struct Options {
    /// The seed of the stream of inputs.
    pub seed: u64,
    /// How long to make new inputs, in seconds (shrinking a fault found may
    /// take as long again, at least 30 s).
    pub seconds: u64,
    /// The most inputs to make (none: as many as the seconds allow): a
    /// count, unlike a time, is the same on a busy machine.
    pub inputs: Option<usize>,
    /// Where the minimal cases go.
    pub into: PathBuf,
    /// The grading's rules and limits (`strict`, `timeout`, `memory`...).
    pub settings: Settings,
    /// The program under test.
    pub program: PathBuf,
}

/// A fault found: its class and its minimal case.
#[derive(Clone, Debug)]
pub struct Found {
    /// The class of the disagreement.
    pub class: Class,
    /// The fixture file of the minimal case.
    pub path: PathBuf,
    /// The minimal case's input.
    pub input: Vec<u8>,
}

/// What a fuzzing found.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Inputs made (not counting the shrinking's).
    pub inputs: usize,
    /// Runs of the program, the shrinking's included.
    pub runs: usize,
    /// One fault a class, in the order found.
    pub found: Vec<Found>,
}

/// The `i`-th recipe of a stream: sides mostly 2 to 10, one input in five
/// 11 to 60 (lines past 1 and 4 KiB), one in ten 110 to 140 (past 64 KiB),
/// two in forty a reversed board of side 257 to 300 (past 2^31 inversions,
/// below 2^32), solvable and unsolvable; valid and bad inputs in turn, the valid ones solvable and
/// unsolvable in turn, every fault in turn.
pub fn recipe(i: usize, rng: &mut SplitMix64) -> Recipe {
    let seed = rng.next_u64();
    let side = match i % 40 {
        7 | 27 => 257 + rng.index(44),
        3 | 13 | 23 | 33 => 110 + rng.index(31),
        _ if i % 5 == 1 => 11 + rng.index(50),
        _ => 2 + rng.index(9),
    };
    let kind = if side > 256 {
        Kind::Reversed {
            solvable: i % 40 == 7,
        }
    } else if i.is_multiple_of(2) {
        Kind::Valid {
            solvable: (i / 2).is_multiple_of(2),
            goal: if (i / 4).is_multiple_of(2) {
                Goal::Random
            } else {
                Goal::Standard
            },
            blank: match rng.index(6) {
                0 => Blank::Last,
                1 => Blank::Anywhere,
                _ => Blank::Row(rng.index(side)),
            },
        }
    } else {
        Kind::Bad {
            fault: Fault::ALL[(i / 2) % Fault::ALL.len()],
            board: rng.index(2),
            plain: false,
        }
    };
    let layout = Layout {
        spaces: if rng.index(4) == 0 {
            1 + rng.index(4)
        } else {
            1
        },
        tabs: rng.index(4) == 0,
        edges: rng.index(4) == 0,
        crlf: rng.index(16) == 0,
        final_newline: rng.index(8) != 0,
        pad: if rng.index(20) == 0 {
            1000 + rng.index(70_000)
        } else {
            0
        },
        pad_line: rng.index(2),
    };
    Recipe {
        kind,
        side,
        seed,
        layout,
    }
}

/// Shrinking a case asks the program at most this many times.
const SHRINK_RUNS: usize = 400;

/// Fuzzes `options.program` (an absolute path) through `runner`, `work` a
/// folder for the inputs and outputs; reports each fault found on `out`, as
/// it is found, and a last line. Every run draws on `budget` (a grading's
/// `--fuzz` on the submission's, after its fixtures and experiments): the
/// fuzzing stops once it is closed, and the last line says so.
pub fn fuzz(
    runner: &dyn Runner,
    options: &Options,
    work: &Path,
    out: &mut dyn Write,
    budget: &Budget,
) -> io::Result<Summary> {
    let begun = Instant::now();
    let deadline = begun + Duration::from_secs(options.seconds);
    let mut prober = Prober {
        runner,
        program: &options.program,
        settings: &options.settings,
        work: work.to_path_buf(),
        budget,
        runs: 0,
    };
    writeln!(
        out,
        "fuzz: {} for {} s from seed {}",
        options.program.display(),
        options.seconds,
        options.seed
    )?;
    out.flush()?;
    let mut rng = SplitMix64::new(options.seed);
    let mut found: Vec<Found> = Vec::new();
    let mut inputs = 0;
    while Instant::now() < deadline && options.inputs.is_none_or(|most| inputs < most) {
        let case = Case::new(recipe(inputs, &mut rng));
        inputs += 1;
        let Some(tried) = prober.try_input(&case.bytes())? else {
            // The budget closed (or cut it), or the machine's load took
            // the run: the next input, unless nothing more may run.
            if budget.closed().is_some() {
                break;
            }
            continue;
        };
        let Some(class) = tried.failed else { continue };
        if found.iter().any(|f| f.class == class) {
            continue;
        }
        let shrink_until = Instant::now() + Duration::from_secs(options.seconds.max(30));
        let mut failure = None;
        let runs_before = prober.runs;
        let mut fails = |c: &Case| {
            if failure.is_some() || Instant::now() > shrink_until {
                return false;
            }
            match prober.try_input(&c.bytes()) {
                Ok(t) => t.is_some_and(|t| t.failed == Some(class)),
                Err(e) => {
                    failure = Some(e);
                    false
                }
            }
        };
        let shrunk = shrink(case.clone(), SHRINK_RUNS, &mut fails);
        if let Some(e) = failure {
            return Err(e);
        }
        let runs = prober.runs - runs_before;
        let input = shrunk.case.bytes();
        // A program that answers differently on the same input (a flaky
        // one), or a last run the budget cut: keep the case as it was found.
        let (input, last) = match prober.try_input(&input)? {
            Some(last) if last.failed == Some(class) => (input, last),
            _ => (case.bytes(), tried),
        };
        let path = write_case(&options.into, &last, class, &input)?;
        show(out, &path, &case, &input, &last, inputs, runs)?;
        out.flush()?;
        found.push(Found { class, path, input });
    }
    let elapsed = begun.elapsed().as_secs_f64();
    // Stopped by the budget rather than by its own time or count.
    let stopped = budget.closed().map_or(String::new(), |why| {
        format!("; stopped: {}", why.trim_start_matches("not run: "))
    });
    let ran = format!(
        "{inputs} inputs ({} runs, {elapsed:.1} s{stopped})",
        prober.runs
    );
    if found.is_empty() {
        writeln!(out, "no disagreement in {ran}")?;
    } else {
        writeln!(
            out,
            "{} {} found in {ran}; minimal cases in {}/",
            found.len(),
            if found.len() == 1 { "fault" } else { "faults" },
            options.into.display()
        )?;
    }
    out.flush()?;
    Ok(Summary {
        inputs,
        runs: prober.runs,
        found,
    })
}

/// The side of the largest board of `input`, as its longest line of tokens says.
fn side_of(input: &[u8]) -> usize {
    let tokens = lines(input)
        .into_iter()
        .map(|l| {
            l.split(|&b| b == b' ' || b == b'\t')
                .filter(|t| !t.is_empty())
                .count()
        })
        .max()
        .unwrap_or(0);
    puzzle::board_adt::isqrt(tokens as u64) as usize
}

/// Writes the minimal case into `into`, named by its expected category, its
/// side and the class: `sol_2x2_wrong_verdict.inp`.
fn write_case(into: &Path, tried: &Tried, class: Class, input: &[u8]) -> io::Result<PathBuf> {
    fs::create_dir_all(into)?;
    let category = tried.fixture.named.name();
    let side = side_of(input);
    let slug = class.name().to_lowercase().replace(' ', "_");
    let name = if side >= 2 {
        format!("{category}_{side}x{side}_{slug}.inp")
    } else {
        format!("{category}_{slug}.inp")
    };
    let path = into.join(name);
    fs::write(&path, input)?;
    Ok(path)
}

/// The lines of `data`, quoted, at most `most` of them, each with its
/// length when cut.
fn quoted_lines(data: &[u8], most: usize) -> Vec<String> {
    let all = lines(data);
    let mut shown: Vec<String> = all
        .iter()
        .take(most)
        .enumerate()
        .map(|(i, line)| {
            let q = quote(data, i + 1, 1, false);
            if line.len() > 100 {
                format!("{q} ({} bytes)", line.len())
            } else {
                q
            }
        })
        .collect();
    if all.len() > most {
        shown.push(format!("... ({} lines in all)", all.len()));
    }
    if data.is_empty() {
        shown.push("nothing".into());
    } else if !data.ends_with(b"\n") {
        shown.push("(no final newline)".into());
    }
    shown
}

fn show(
    out: &mut dyn Write,
    path: &Path,
    found: &Case,
    input: &[u8],
    tried: &Tried,
    inputs: usize,
    runs: usize,
) -> io::Result<()> {
    let text = match &tried.judgement {
        Judgement::Noted(_, text) => text.as_str(),
        _ => "",
    };
    let class = tried.failed.map_or("", Class::name);
    writeln!(out, "{class:<17} {}: {text}", path.display())?;
    let was = found.bytes();
    let board = |bytes: &[u8]| match side_of(bytes) {
        0 | 1 => String::from("no board"),
        s => format!("a {s}x{s} board"),
    };
    writeln!(
        out,
        "  found on input {inputs} ({}, {} bytes), shrunk in {runs} runs to {}, {} bytes",
        board(&was),
        was.len(),
        board(input),
        input.len()
    )?;
    let mut block = |label: &str, rows: Vec<String>| -> io::Result<()> {
        for (i, row) in rows.iter().enumerate() {
            writeln!(out, "  {:<9} {row}", if i == 0 { label } else { "" })?;
        }
        Ok(())
    };
    block("input", quoted_lines(input, 6))?;
    let ending = match tried.ending {
        Ending::Exited(status) => format!("exit status {status}"),
        Ending::Signalled(signal) => format!("killed by signal {signal}"),
        Ending::TimedOut => "timed out".into(),
        Ending::MemoryLimit => "memory limit".into(),
        Ending::ProcessLimit => "process limit".into(),
    };
    let mut program = quoted_lines(&tried.out, 6);
    program.push(format!("({ending})"));
    block("program", program)?;
    if !tried.err.is_empty() {
        block("stderr", quoted_lines(&tried.err, 3))?;
    }
    block("expected", quoted_lines(&tried.fixture.expected, 6))?;
    if tried.failed == Some(Class::WrongVerdict) {
        if let Ok(puzzle) = read_puzzle(input) {
            let mut why = Vec::new();
            puzzle::write_explanation(&mut why, &puzzle)?;
            let rows = lines(&why)
                .into_iter()
                .map(|l| String::from_utf8_lossy(l).into_owned())
                .collect();
            block("explain", rows)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_fixed_by_the_seed_and_mixes_everything() {
        let stream = |seed| {
            let mut rng = SplitMix64::new(seed);
            (0..200).map(|i| recipe(i, &mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(stream(4), stream(4));
        assert_ne!(stream(4), stream(5));
        let all = stream(4);
        let solvable = |want: bool| {
            all.iter()
                .filter(|r| matches!(r.kind, Kind::Valid { solvable, .. } if solvable == want))
                .count()
        };
        assert_eq!(solvable(true), solvable(false));
        assert!(all.iter().any(|r| r.side > 256));
        assert!(all.iter().any(|r| r.side == 2));
        for fault in Fault::ALL {
            assert!(all
                .iter()
                .any(|r| matches!(r.kind, Kind::Bad { fault: f, .. } if f == fault)));
        }
    }

    #[test]
    fn the_first_forty_inputs_have_lines_past_1_4_and_64_kib_and_2_to_the_31_inversions() {
        let mut rng = SplitMix64::new(1);
        let longest: Vec<(usize, Recipe)> = (0..40)
            .map(|i| {
                let r = recipe(i, &mut rng);
                let doc = r.render();
                (doc.lines.iter().map(|l| l.len()).max().unwrap_or(0), r)
            })
            .collect();
        for (bytes, what) in [(1 << 10, "1 KiB"), (4 << 10, "4 KiB"), (64 << 10, "64 KiB")] {
            let n = longest.iter().filter(|(len, _)| *len > bytes).count();
            assert!(n >= 2, "{n} inputs with lines past {what}");
        }
        let unsolvable_reversed = longest
            .iter()
            .filter(|(_, r)| r.side > 256 && r.kind == Kind::Reversed { solvable: false })
            .count();
        assert_eq!(unsolvable_reversed, 1);
        let rows: std::collections::HashSet<usize> = longest
            .iter()
            .filter_map(|(_, r)| match r.kind {
                Kind::Valid {
                    blank: Blank::Row(row),
                    ..
                } => Some(row % r.side),
                _ => None,
            })
            .collect();
        assert!(rows.len() >= 3, "{rows:?}");
    }

    #[test]
    fn a_side_is_read_from_the_longest_line() {
        assert_eq!(side_of(b"1 2 3 b\n1\t2 3 b 4 5 6 7 8\n"), 3);
        assert_eq!(side_of(b""), 0);
    }
}
