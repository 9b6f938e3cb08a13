//! `fuzz`: the fuzzer ([`crate::probing::fuzz`]) on one program, its
//! transcript (the sandbox's protections are the binary's to say).

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
    /// Fuzzes the program, writing each fault found on `out` as it is
    /// found, and a last line (what protects the machine from the runs is
    /// the binary's to say, on stderr, as for every mode that runs
    /// programs).
    pub fn run(&self, out: &mut dyn Write) -> io::Result<Summary> {
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
