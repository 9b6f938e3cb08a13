//! Gradings written by earlier versions (`tests/old-gradings/`, which says
//! how each was made) read, compare, resume and merge with this one: a
//! format version later, a marker's grades folder is still theirs.
//!
//! - `diff` reads each (every record, its manifest) and finds no mark
//!   changed between the two versions' gradings of one class, nor between
//!   a grading and itself;
//! - `grade-all --resume` on each grades nothing (every submission was
//!   graded: the options it recorded, `--timeout 5` before format version
//!   3, are the same settings as today's `--time-limit 5`) and writes the
//!   same summaries from its records, byte for byte, but for the format
//!   version it now writes; and `diff` of the grading as kept against the
//!   one resumed (now of today's version) finds no option changed;
//! - `merge` of each version's two shards gives the summaries of its whole
//!   grading (times aside: the shards ran apart).

use crate::common;

use common::{grader, masked, repo, Scratch};
use std::fs;
use std::path::{Path, PathBuf};

/// The versions whose gradings are kept: two of format version 1, one of
/// version 2 (e5c6f22).
const VERSIONS: [&str; 3] = ["fa6dacb", "cb7a8da", "e5c6f22"];

/// The class they graded: `(name, prelude to checker.c)`.
const CLASS: [(&str, &str); 5] = [
    ("ann", ""),
    ("bob", "#define NO_ROW_TERM\n"),
    ("cat", "#define BROKEN\n"),
    ("jos\u{e9}", "#define ERROR_STATUS 0\n"),
    ("o\tdd", "#define ERRORS_TO_STDERR\n"),
];

/// The folder of the kept gradings.
fn kept() -> PathBuf {
    repo().join("crates/grade/tests/old-gradings")
}

/// A scratch folder as the gradings were made in: `Tests/` (the kept
/// fixtures) and `subs/` (the class).
fn class(name: &str) -> Scratch {
    let dir = Scratch::new(&format!("old-gradings-{name}"));
    common::copy_tree(&kept().join("Tests"), &dir.join("Tests"));
    common::submissions_in(&dir.join("subs"), &CLASS);
    dir
}

/// A copy of the kept grading `version/which` in `dir/to`, the class's
/// folder where the grading names it (`/class/subs`, as kept) made this
/// scratch folder's `subs/`.
fn copy_grading(version: &str, which: &str, dir: &Path, to: &str) -> PathBuf {
    let from = kept().join(version).join(which);
    let into = dir.join(to);
    fs::create_dir_all(&into).unwrap();
    let subs = dir.join("subs");
    let subs = fs::canonicalize(&subs).unwrap();
    for entry in fs::read_dir(&from).unwrap() {
        let entry = entry.unwrap();
        let bytes = fs::read(entry.path()).unwrap();
        let bytes = if entry.file_name() == "grading.json" {
            String::from_utf8(bytes)
                .unwrap()
                .replace(
                    "\"folder\": \"/class/subs\"",
                    &format!("\"folder\": \"{}\"", subs.display()),
                )
                .into_bytes()
        } else {
            bytes
        };
        fs::write(into.join(entry.file_name()), bytes).unwrap();
    }
    into
}

/// A line of `summary.jsonl` without the format version a grading now
/// writes (`"version": N, ` first), as the kept ones were written.
fn unversioned(line: &str) -> String {
    let line = match line.strip_prefix("{\"version\": ") {
        Some(rest) => format!("{{{}", &rest[rest.find(", ").map_or(0, |i| i + 2)..]),
        None => line.to_string(),
    };
    // Version 3's count of NOT GRADED, of which these gradings have none
    // (`failed` counted them before: see `publishing/record.rs`'s tests).
    line.replace(", \"not_graded\": 0, ", ", ")
}

/// An earlier version's `summary.csv` as this version writes it: with the
/// column `not_graded` last (added by version 3 after `lost`, so that each
/// earlier column keeps its place), 0 for each submission built (these
/// gradings have no NOT GRADED), empty for the others.
fn with_not_graded(csv: &str) -> String {
    csv.lines()
        .enumerate()
        .map(|(i, line)| {
            let last = match i {
                0 => "not_graded",
                _ if line.contains(",yes,") => "0",
                _ => "",
            };
            format!("{line},{last}\n")
        })
        .collect()
}

#[test]
fn gradings_of_earlier_versions_read_and_compare() {
    let dir = class("diff");
    for version in VERSIONS {
        let a = copy_grading(version, "whole", &dir, &format!("{version}-a"));
        let b = copy_grading(version, "whole", &dir, &format!("{version}-b"));
        let out = grader(&dir, &["diff", &a.to_string_lossy(), &b.to_string_lossy()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{version}: {stderr}");
        assert!(stderr.is_empty(), "{version}: {stderr}");
    }
    // One version's grading against another's: the same marks, the same
    // options.
    for (old, new) in [("fa6dacb", "cb7a8da"), ("cb7a8da", "e5c6f22")] {
        let out = grader(&dir, &["diff", &format!("{old}-a"), &format!("{new}-a")]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{old} {new}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("no marks changed"), "{stdout}");
        assert!(!stdout.contains("options"), "{old} {new}: {stdout}");
    }
}

#[test]
fn gradings_of_earlier_versions_resume_to_the_same_summaries() {
    let dir = class("resume");
    for version in VERSIONS {
        let grades = copy_grading(version, "whole", &dir, version);
        let out = grader(
            &dir,
            &[
                "grade-all",
                "subs",
                "--time-limit",
                "5",
                "--format",
                "junit",
                "--grades",
                version,
                "--resume",
            ],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Graded before: bob, josé and o\tdd lost marks (status 1).
        assert_eq!(out.status.code(), Some(1), "{version}: {stderr}");
        assert!(!stderr.contains("graded "), "{version}: regraded: {stderr}");
        let old = kept().join(version).join("whole");
        assert_eq!(
            fs::read_to_string(grades.join("summary.csv")).unwrap(),
            with_not_graded(&fs::read_to_string(old.join("summary.csv")).unwrap()),
            "{version}: summary.csv"
        );
        assert_eq!(
            fs::read_to_string(grades.join("summary-fixtures.csv")).unwrap(),
            fs::read_to_string(old.join("summary-fixtures.csv")).unwrap(),
            "{version}: summary-fixtures.csv"
        );
        let lines = |path: &Path| -> Vec<String> {
            fs::read_to_string(path)
                .unwrap()
                .lines()
                .map(unversioned)
                .collect()
        };
        assert_eq!(
            lines(&grades.join("summary.jsonl")),
            lines(&old.join("summary.jsonl")),
            "{version}: summary.jsonl"
        );
        // The grading resumed is of today's format, its time limit under
        // today's name; against the grading as kept, no option changed.
        let resumed = fs::read_to_string(grades.join("grading.json")).unwrap();
        assert!(
            resumed.contains(&format!("\"version\": {}", puzzle_grade::FORMAT_VERSION))
                && resumed.contains("\"options\": \"--time-limit 5 --memory 1024"),
            "{version}: {resumed}"
        );
        let kept = copy_grading(version, "whole", &dir, &format!("{version}-kept"));
        let out = grader(
            &dir,
            &["diff", &kept.to_string_lossy(), &grades.to_string_lossy()],
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{version}: {stdout}");
        assert!(stdout.contains("no marks changed"), "{version}: {stdout}");
        assert!(!stdout.contains("options"), "{version}: {stdout}");
    }
}

#[test]
fn shards_of_earlier_versions_merge_into_their_whole_grading() {
    let dir = class("merge");
    for version in VERSIONS {
        let one = copy_grading(version, "shard1", &dir, &format!("{version}-1"));
        let two = copy_grading(version, "shard2", &dir, &format!("{version}-2"));
        let into = format!("{version}-merged");
        let out = grader(
            &dir,
            &[
                "merge",
                "--into",
                &into,
                &one.to_string_lossy(),
                &two.to_string_lossy(),
            ],
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{version}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let whole = kept().join(version).join("whole");
        assert_eq!(
            masked(&fs::read_to_string(dir.join(&into).join("summary.csv")).unwrap()),
            masked(&with_not_graded(
                &fs::read_to_string(whole.join("summary.csv")).unwrap()
            )),
            "{version}: summary.csv"
        );
        assert_eq!(
            masked(&fs::read_to_string(dir.join(&into).join("summary-fixtures.csv")).unwrap()),
            masked(&fs::read_to_string(whole.join("summary-fixtures.csv")).unwrap()),
            "{version}: summary-fixtures.csv"
        );
    }
}
