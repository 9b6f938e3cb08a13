//! `check`: the reference executable (`./puzzle`) answers every fixture as
//! its name says: `bad*` with exit status 1 and one `error: ` line, `sol*`
//! and `unsol*` with the three lines and the verdict, nothing on stderr.

use crate::judging::fixture::{Category, Fixture};
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::process::Command;

/// Runs `reference` on every fixture and writes a `FAIL` line for each it
/// does not answer as named, then `N passed, M failed`. Whether all passed.
pub fn check_reference(
    reference: &Path,
    fixtures: &[Fixture],
    out: &mut dyn Write,
) -> io::Result<bool> {
    let (mut passed, mut failed) = (0, 0);
    for fixture in fixtures {
        let ran = Command::new(reference)
            .stdin(File::open(&fixture.path)?)
            .output()?;
        let text = String::from_utf8_lossy(&ran.stdout);
        let text = text.trim_end_matches('\n');
        let last = text.rsplit('\n').next().unwrap_or("");
        let lines = text.split('\n').count();
        let status = ran.status.code().unwrap_or(-1);
        let want = match fixture.named {
            Category::Bad => "error",
            Category::Sol => "solvable",
            Category::Unsol => "unsolvable",
        };
        let ok = ran.stderr.is_empty()
            && if want == "error" {
                last.starts_with("error: ") && status == 1 && lines == 1
            } else {
                status == 0 && last == want && lines == 3
            };
        if ok {
            passed += 1;
        } else {
            failed += 1;
            let cut: String = last.chars().take(100).collect();
            writeln!(
                out,
                "FAIL {} (wanted {want}, got exit {status}: {cut})",
                fixture.shown
            )?;
        }
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    out.flush()?;
    Ok(failed == 0)
}
