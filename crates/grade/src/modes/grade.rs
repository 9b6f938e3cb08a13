//! `grade`: one program graded on every fixture, its faults' causes
//! confirmed, fuzzed if asked, and its report written, ending with its
//! score.

use crate::engine::{grade_program, Settings};
use crate::judging::fixture::Fixture;
use crate::marking::report::write_marked_report;
use crate::probing::experiment;
use crate::probing::fuzz;
use puzzle_sandbox::Runner;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One program to grade.
pub struct Grade<'a> {
    /// Runs the program.
    pub runner: &'a dyn Runner,
    /// The program (an absolute path).
    pub program: &'a Path,
    /// The rules, limits and marking scheme.
    pub settings: &'a Settings,
    /// The fixtures, prepared.
    pub fixtures: &'a [Fixture],
    /// A private folder for the runs' outputs.
    pub work: &'a Path,
    /// Seconds of fuzzing after the fixtures (`--fuzz`), its minimal cases
    /// into `fuzz-found/`.
    pub fuzz_seconds: Option<u64>,
    /// Called after each fixture with how many are done.
    pub done: &'a (dyn Fn(usize) + Sync),
}

impl Grade<'_> {
    /// Writes the sandbox's protections, then grades the program and writes
    /// its report on `out`. Whether every fixture passed and the fuzzing
    /// found nothing.
    pub fn run<W: Write>(&self, out: &mut W) -> io::Result<bool> {
        writeln!(out, "{}", self.runner.protections())?;
        out.flush()?;
        let began = Instant::now();
        let (runner, program, settings) = (self.runner, self.program, self.settings);
        let graded = grade_program(
            runner,
            program,
            self.fixtures,
            settings,
            self.work,
            self.done,
        )?;
        // The fuzzing's transcript goes before the table (the report's last
        // line stays 'N passed, M failed').
        let mut transcript = Vec::new();
        let mut faults = 0;
        if let Some(seconds) = self.fuzz_seconds {
            let fuzzing = fuzz::Options {
                seed: 1,
                seconds,
                inputs: None,
                into: PathBuf::from("fuzz-found"),
                settings: settings.clone(),
                program: program.to_path_buf(),
            };
            faults = fuzz::fuzz(runner, &fuzzing, self.work, &mut transcript)?
                .found
                .len();
        }
        // The causes of its faults, confirmed on the program itself.
        let deadline = settings.budget.map(|b| began + b);
        let causes = experiment::confirm(
            runner,
            program,
            settings,
            self.work,
            self.fixtures,
            &graded,
            deadline,
        )?;
        let score = settings.scheme.score(self.fixtures, &graded);
        let counts = write_marked_report(
            out,
            self.fixtures,
            &graded,
            settings.strict,
            &transcript,
            &score,
            &causes,
        )?;
        out.flush()?;
        Ok(counts.total_failed() == 0 && faults == 0)
    }
}
