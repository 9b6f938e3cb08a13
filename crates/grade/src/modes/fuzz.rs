//! `fuzz`: the fuzzer ([`crate::probing::fuzz`]) on one program, its
//! transcript after the sandbox's protections.

use crate::probing::fuzz::{self, Options, Summary};
use puzzle_sandbox::Runner;
use std::io::{self, Write};
use std::path::Path;

/// Writes what protects the machine from the runs, then fuzzes
/// `options.program` through `runner` (`work` a folder for the inputs and
/// outputs), writing each fault found on `out` as it is found, and a last
/// line.
pub fn fuzz(
    runner: &dyn Runner,
    options: &Options,
    work: &Path,
    out: &mut dyn Write,
) -> io::Result<Summary> {
    writeln!(out, "{}", runner.protections())?;
    fuzz::fuzz(runner, options, work, out)
}
