//! `check-environment`: what this machine allows the sandbox (its levels
//! and controllers) and what makes times unfair, found by the sandbox
//! crate.

use puzzle_sandbox::environment::Environment;
use std::path::Path;

/// What this machine allows and what to change for fair timing, probed in
/// a folder made under `temp` (and removed).
pub fn check_environment(temp: &Path) -> Environment {
    puzzle_sandbox::check_environment(temp.join("probe"))
}
