//! Runs that disagree (issue 43): a real program whose verdict changes
//! from run to run, graded with `--repeat`, is FLAKY in the report and
//! marked as its worst run; graded once, nothing can tell.

use crate::common;

use common::{grader_bin, repo};
use std::path::PathBuf;
use std::process::Command;

/// A program that prints `solvable` or `unsolvable` by the parity of the
/// clock's nanoseconds: a different answer from run to run.
fn coin() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("flaky");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("coin.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\n#include <time.h>\nint main(void) {\n    struct timespec t;\n    \
         clock_gettime(CLOCK_REALTIME, &t);\n    char line[4096];\n    while (fgets(line, sizeof line, stdin)) {}\n    \
         puts((t.tv_nsec / 1000) % 2 ? \"solvable\" : \"unsolvable\");\n    return 0;\n}\n",
    )
    .unwrap();
    let exe = dir.join("coin");
    assert!(Command::new("cc")
        .arg("-o")
        .arg(&exe)
        .arg(&source)
        .status()
        .unwrap()
        .success());
    exe
}

#[test]
fn a_verdict_that_changes_from_run_to_run_is_flaky_when_repeated() {
    let program = coin();
    let out = Command::new(grader_bin())
        .args(["grade", "--time-limit", "5", "--repeat", "8"])
        .arg(&program)
        .current_dir(repo())
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    // Eight coin tosses agree on a fixture 1 time in 128: among the
    // solvable and unsolvable fixtures, many disagree.
    let flaky: Vec<&str> = report.lines().filter(|l| l.starts_with("FLAKY ")).collect();
    assert!(flaky.len() >= 10, "{report}");
    for line in &flaky {
        assert!(line.contains("marked as its worst run"), "{line}");
    }
    // Every fixture that was flaky counts as failed: its worst run.
    for line in flaky {
        let fixture = line
            .split_whitespace()
            .nth(1)
            .unwrap()
            .trim_end_matches(':');
        assert!(
            report
                .lines()
                .any(|l| l.starts_with("WRONG VERDICT") && l.contains(fixture)),
            "{fixture}"
        );
    }
}
