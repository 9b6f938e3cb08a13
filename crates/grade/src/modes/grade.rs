//! `grade`: one program graded and marked ([`Grade::mark`]), the one way a
//! program is, for `grade` ([`Grade::run`]: its report on a stream) and for
//! each submission of `grade-all` (`grade_all/submission.rs`): graded on
//! every fixture, the causes of its faults confirmed, fuzzed within what is
//! left of its budget, scored, its report written.
//!
//! The budget is one value, a [`Budget`] every run draws on, whatever made
//! it (the fixtures, their repeats and confirmations, the experiments, the
//! fuzzing): no run starts once it is closed (its time spent, or
//! `--max-timeouts` runs timed out), each run's time limit is cut to what
//! is left of it, every timeout counts, and the report's and the row's
//! time is that of every run. The runs on the fixtures left are NOT RUN,
//! the experiments stop, the fuzzing gets what is left. The causes are
//! confirmed before the fuzzing, so that a fuzzing asked for never takes
//! the time the causes a student is told of need.

use crate::engine::{grade_program, Settings};
use crate::judging::budget::Budget;
use crate::judging::fixture::Fixture;
use crate::judging::judge::Graded;
use crate::marking::cause::Experiments;
use crate::marking::marks::Score;
use crate::marking::report::{write_marked_report, Counts};
use crate::probing::{experiment, fuzz};
use puzzle_sandbox::Runner;
use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

/// One program to grade and mark, and how.
pub struct Grade<'a> {
    /// Runs the program.
    pub runner: &'a dyn Runner,
    /// The program (an absolute path).
    pub program: &'a Path,
    /// The rules, limits and marking scheme.
    pub settings: &'a Settings,
    /// The fixtures, prepared.
    pub fixtures: &'a [Fixture],
    /// A private folder for the runs' outputs and the fuzzer's inputs.
    pub work: &'a Path,
    /// Seconds of fuzzing after the fixtures (`--fuzz`), at most what is
    /// left of the budget then; none, or none left: no fuzzing.
    pub fuzz_seconds: Option<u64>,
    /// Where the fuzzer's minimal cases go.
    pub fuzz_into: &'a Path,
    /// When the program's budget (`--budget`) ends; none: no budget (its
    /// length and `--max-timeouts` are the settings').
    pub deadline: Option<Instant>,
    /// Called after each fixture with how many are done.
    pub done: &'a (dyn Fn(usize) + Sync),
}

/// A program graded and marked ([`Grade::mark`]).
#[derive(Clone, Debug)]
pub struct GradedProgram {
    /// Fixture by fixture, in the fixtures' order.
    pub graded: Vec<Graded>,
    /// What the experiments on causes found: the causes confirmed, and
    /// the fixtures a cause was tried for.
    pub causes: Experiments,
    /// Faults the fuzzer found, when it ran.
    pub fuzzed: Option<usize>,
    /// The marks.
    pub score: Score,
    /// What the report adds up.
    pub counts: Counts,
    /// The report, headed by the sandbox's protections (the same bytes
    /// on `grade`'s stdout and in `grade-all`'s `NAME.txt`).
    pub report: Vec<u8>,
}

impl GradedProgram {
    /// Whether every fixture passed (none failed, none was left not
    /// graded) and the fuzzing, if it ran, found nothing.
    pub fn all_passed(&self) -> bool {
        self.counts.total_passed() == self.counts.total_fixtures() && self.fuzzed.unwrap_or(0) == 0
    }
}

impl Grade<'_> {
    /// Grades the program on every fixture, confirms the causes of its
    /// faults, fuzzes it for `fuzz_seconds` or what is left of the budget
    /// if less, scores it and writes its report. The first failure to run
    /// stops it.
    pub fn mark(&self) -> io::Result<GradedProgram> {
        let (runner, program, settings, fixtures, work) = (
            self.runner,
            self.program,
            self.settings,
            self.fixtures,
            self.work,
        );
        let budget = Budget::until(self.deadline, settings.budget, settings.max_timeouts);
        let graded = grade_program(
            runner, program, fixtures, settings, work, self.done, &budget,
        )?;
        // The causes of its faults, tried on it, within its budget.
        let causes =
            experiment::confirm(runner, program, settings, work, fixtures, &graded, &budget)?;
        let fuzz_seconds = self
            .fuzz_seconds
            .map(|s| budget.left().map_or(s, |l| s.min(l.as_secs())))
            .filter(|&s| s > 0 && budget.closed().is_none());
        // The fuzzing's transcript goes before the table (the report's last
        // line stays 'N passed, M failed').
        let mut transcript = Vec::new();
        let fuzzed = match fuzz_seconds {
            Some(seconds) => {
                let options = fuzz::Options {
                    seed: 1,
                    seconds,
                    inputs: None,
                    into: self.fuzz_into.to_path_buf(),
                    settings: settings.clone(),
                    program: program.to_path_buf(),
                };
                Some(
                    fuzz::fuzz(runner, &options, work, &mut transcript, &budget)?
                        .found
                        .len(),
                )
            }
            None => None,
        };
        let score = settings.scheme.score(fixtures, &graded);
        let mut report = format!("{}\n", self.runner.protections()).into_bytes();
        let counts = write_marked_report(
            &mut report,
            fixtures,
            &graded,
            settings.strict,
            &transcript,
            &score,
            &causes.confirmed,
            budget.spent(),
        )?;
        Ok(GradedProgram {
            graded,
            causes,
            fuzzed,
            score,
            counts,
            report,
        })
    }

    /// `grade`: grades and marks the program ([`Grade::mark`]) and writes
    /// its report on `out`.
    pub fn run<W: Write>(&self, out: &mut W) -> io::Result<GradedProgram> {
        let marked = self.mark()?;
        out.write_all(&marked.report)?;
        out.flush()?;
        Ok(marked)
    }
}
