//! Causes confirmed by experiment, never guessed (issue 42): programs with
//! known faults (`tests/grading/checker.c` built with the macro of each)
//! graded by `puzzle-grade grade` on the repository's fixtures; the report
//! names each real cause, with its evidence, and only those; a program
//! whose failures follow no feature gets none.

use crate::common;

use common::{grader_bin, repo};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `checker.c` built with `flags` into cargo's temporary folder.
fn checker(name: &str, flags: &[&str]) -> PathBuf {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("causes-{name}"));
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&out)
        .args(flags)
        .arg(repo().join("tests/grading/checker.c"))
        .status()
        .expect("cc runs");
    assert!(status.success(), "{name}");
    out
}

/// The `cause` lines of the report of `program` graded on `Tests/`.
fn causes(program: &Path) -> Vec<String> {
    let out = Command::new(grader_bin())
        .args(["grade", "--timeout", "10"])
        .arg(program)
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("cause "))
        .map(String::from)
        .collect()
}

/// Whether every line of `lines` has one of `words`, and every word is in
/// some line.
fn exactly(lines: &[String], words: &[&str]) {
    for line in lines {
        assert!(
            words.iter().any(|w| line.contains(w)),
            "unexpected: {line}\n{lines:#?}"
        );
        assert!(line.contains("(confirmed: with "), "{line}");
    }
    for word in words {
        assert!(
            lines.iter().any(|l| l.contains(word)),
            "{word} not named: {lines:#?}"
        );
    }
}

#[test]
fn the_blanks_row_forgotten_is_named_with_its_evidence() {
    let lines = causes(&checker("norow", &["-DNO_ROW_TERM"]));
    exactly(
        &lines,
        &["on boards of an even side the blank's row is not counted"],
    );
    assert!(lines[0].contains("10 of 10 inputs failed so"), "{lines:?}");
    assert!(lines[0].contains("0 of 10)"), "{lines:?}");
}

#[test]
fn a_fixed_line_buffer_is_named_by_its_size_whatever_the_class() {
    let lines = causes(&checker("buffer", &["-DFIXED_BUFFER"]));
    exactly(&lines, &["lines over 1,024 bytes"]);
}

#[test]
fn two_faults_of_reading_are_named_each_and_nothing_they_share_by_chance() {
    let lines = causes(&checker("reading", &["-DISSPACE_BLANKS", "-DWRAP32"]));
    exactly(
        &lines,
        &[
            "a vertical tab, a form feed or a lone carriage return between tokens",
            "a number of 2^32 or more",
        ],
    );
    assert!(!lines.iter().any(|l| l.contains("column")), "{lines:?}");
}

#[test]
fn a_tab_refused_is_named() {
    let lines = causes(&checker("tabs", &["-DREJECT_TABS"]));
    exactly(
        &lines,
        &["a valid input with a tab between tokens is rejected"],
    );
}

#[test]
fn failures_that_follow_no_feature_get_no_cause() {
    let out = Command::new(grader_bin())
        .args(["grade", "--timeout", "10"])
        .arg(checker("chance", &["-DCOINCIDENCE"]))
        .current_dir(repo())
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = report.lines().filter(|l| l.starts_with("cause ")).collect();
    assert!(!lines.is_empty(), "{report}");
    for line in lines {
        assert!(line.ends_with("no single cause confirmed"), "{line}");
    }
    assert!(report.contains("WRONG VERDICT     Tests/"), "{report}");
}
