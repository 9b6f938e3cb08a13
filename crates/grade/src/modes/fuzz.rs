//! `fuzz`: the fuzzer ([`crate::probing::fuzz`]) on one program, its
//! transcript after the sandbox's protections.

use crate::judging::budget::Budget;
use crate::probing::fuzz::{fuzz, Options, Summary};
use puzzle_sandbox::Runner;
use std::io::{self, Write};
use std::path::Path;

/// One program to fuzz, and how.
pub struct Fuzz<'a> {
    /// Runs the program.
    pub runner: &'a dyn Runner,
    /// The program, the seed, the seconds or inputs, where the minimal
    /// cases go, the grading's rules.
    pub options: &'a Options,
    /// A folder for the inputs and the runs' outputs.
    pub work: &'a Path,
}

impl Fuzz<'_> {
    /// Writes what protects the machine from the runs on `out`, then
    /// fuzzes the program, writing each fault found as it is found, and a
    /// last line.
    pub fn run(&self, out: &mut dyn Write) -> io::Result<Summary> {
        writeln!(out, "{}", self.runner.protections())?;
        // No budget: the fuzzing's own time or count ends it.
        fuzz(
            self.runner,
            self.options,
            self.work,
            out,
            &Budget::unlimited(),
        )
    }
}
