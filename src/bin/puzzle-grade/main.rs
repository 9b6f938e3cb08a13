//! `puzzle-grade`: grades other implementations of the assignment, every run
//! in a sandbox. `sh Testrun grade`, `grade-all`, `check` and `open` call it.
//!
//! A binary of its own, not a mode of `puzzle`: `puzzle` takes a FILE operand,
//! so a word such as `grade` could not be told from a file of that name, and
//! the sandbox is operating-system glue that the library (which forbids
//! unsafe code) must not hold.

mod sandbox;

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let mode = args.next();
    let rest: Vec<OsString> = args.collect();
    match mode.as_ref().and_then(|m| m.to_str()) {
        Some("run") => sandbox::sandbox_command(rest),
        _ => {
            eprintln!("usage: puzzle-grade run [LIMITS] -- PROGRAM [ARGS...]");
            ExitCode::from(2)
        }
    }
}
