//! What a student hands in, treated as an attacker's (issue 40): folder
//! names that try to forge rows, overwrite another's files or the class's,
//! reach a terminal or a spreadsheet raw; build logs with terminal escapes;
//! messages a spreadsheet would run; forged grading files; one submission's
//! trouble stopping the class. Each test is built as an attacker would and
//! graded by the real `puzzle-grade grade-all`.

use crate::common;

use common::grader_bin;
use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `checker.c`, right: every row of a name below should be graded the same.
fn right_submission(folder: &Path) {
    fs::create_dir_all(folder).unwrap();
    let checker = fs::read_to_string(common::repo().join("tests/grading/checker.c")).unwrap();
    fs::write(folder.join("puzzle.c"), checker).unwrap();
}

/// A class folder `name` with the five fixtures and no submission yet.
fn class(name: &str) -> common::Scratch {
    common::class_folder(&format!("hostile-{name}"), &common::FIVE_FIXTURES, &[])
}

fn grade_all(dir: &Path, args: &[&str]) -> Output {
    Command::new("timeout")
        .arg("120")
        .arg(grader_bin())
        .arg("grade-all")
        .args(["--time-limit", "5", "--jobs", "2"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Whether `text` holds a byte that is a control but the newline.
fn has_controls(text: &[u8]) -> bool {
    text.iter().any(|&b| (b < 0x20 && b != b'\n') || b == 0x7f)
        || String::from_utf8_lossy(text).contains(['\u{202E}', '\u{2066}', '\u{200B}'])
}

/// The names of a CSV's first column, unquoted.
fn csv_names(csv: &str) -> Vec<String> {
    csv.lines()
        .skip(1)
        .map(|l| {
            let rest = l.strip_prefix('"').unwrap();
            let end = rest.find("\",").unwrap();
            rest[..end].replace("\"\"", "\"")
        })
        .collect()
}

#[test]
fn folder_names_can_neither_forge_rows_nor_take_anothers_files() {
    let dir = class("names");
    let subs = dir.join("subs");
    let long = "n".repeat(255);
    let names: Vec<&[u8]> = vec![
        b"ann",
        b"ann.make",
        b"summary",
        b"index",
        b"evil\nzed  yes  5 0 100",
        "bidi\u{202E}txt.c".as_bytes(),
        b"\xE9t\xE9",
        long.as_bytes(),
        b"=HYPERLINK(\"x\")",
        b"esc\x1b[2Kforged\r",
        b"x](javascript:alert(1))",
        b"# x\n# y **z** <b>",
    ];
    for name in &names {
        right_submission(&subs.join(OsStr::from_bytes(name)));
    }
    let out = grade_all(&dir, &["subs", "--grades", "marks"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // One row a submission on stdout and in summary.txt, nothing raw.
    let rows = |text: &str| {
        text.lines()
            .filter(|l| l.ends_with("no Makefile: built with cc -O2 -o puzzle puzzle.c -lm"))
            .count()
    };
    assert!(
        !has_controls(&out.stdout),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(rows(&String::from_utf8_lossy(&out.stdout)), names.len());
    let marks = dir.join("marks");
    let summary = fs::read(marks.join("summary.txt")).unwrap();
    assert!(!has_controls(&summary));
    let summary = String::from_utf8(summary).unwrap();
    assert_eq!(rows(&summary), names.len(), "{summary}");
    assert!(summary.contains("evil\\nzed  yes  5 0 100 "), "{summary}");
    assert!(summary.contains("bidi\\u{202E}txt.c "), "{summary}");
    assert!(summary.contains("\\xE9t\\xE9 "), "{summary}");
    assert!(summary.contains("esc\\u{1B}[2Kforged\\r "), "{summary}");
    // Each its own files: ann.make's report is not ann's build log, the
    // student called summary keeps his report beside the class's summary.
    let file = |name: &str| fs::read_to_string(marks.join(name)).unwrap();
    assert!(
        !file("ann.make.txt").starts_with("sandbox: "),
        "ann's build log"
    );
    assert!(
        file("ann.mak%65.txt").starts_with("sandbox: "),
        "ann.make's report"
    );
    assert!(
        file("summar%79.txt").starts_with("sandbox: "),
        "summary's report"
    );
    assert!(file("summary.txt").starts_with("grading of "));
    assert!(file("inde%78.feedback.md").contains("# Feedback for index"));
    // In the feedback's Markdown no name makes a link, a heading, a line
    // or markup of its own: one heading a file, every `]`, `*` and `<`
    // of a name escaped.
    let mut feedbacks = 0;
    for entry in fs::read_dir(&marks).unwrap() {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().ends_with(".feedback.md") {
            continue;
        }
        feedbacks += 1;
        let text = fs::read_to_string(&path).unwrap();
        let heading = text.lines().next().unwrap();
        assert!(heading.starts_with("# Feedback for "), "{text}");
        let unescaped = heading
            .replace("\\]", "")
            .replace("\\*", "")
            .replace("\\<", "");
        assert!(
            !unescaped.contains("](") && !unescaped.contains('*') && !unescaped.contains('<'),
            "{heading}"
        );
        let headings = text.lines().filter(|l| l.starts_with("# ")).count();
        assert_eq!(headings, 1, "{text}");
    }
    assert_eq!(feedbacks, names.len());
    assert!(
        file("index.html").contains("x](javascript:alert(1))")
            && !file("index.html").contains("href=\"javascript"),
        "index.html"
    );
    assert!(file("index.html").contains("<!DOCTYPE html>"));
    // Every file name fits, and the long name's has a hash.
    let mut files = 0;
    for entry in fs::read_dir(&marks).unwrap() {
        let name = entry.unwrap().file_name();
        assert!(name.len() <= 200, "{name:?}");
        files += 1;
    }
    assert!(files >= 6 + names.len() * 4, "{files}");
    assert!(fs::read_dir(&marks).unwrap().any(|e| {
        let n = e.unwrap().file_name();
        let n = n.to_string_lossy();
        n.starts_with("nnnnnnnn") && n.contains('~') && n.ends_with(".feedback.md")
    }));
    // The CSV: a name that is a formula is shown, not run; every name there.
    let csv = file("summary.csv");
    let names_in_csv = csv_names(&csv);
    assert_eq!(names_in_csv.len(), names.len());
    assert!(
        names_in_csv.contains(&"'=HYPERLINK(\"x\")".to_string()),
        "{csv}"
    );
    assert!(!has_controls(csv.as_bytes()));
    // No cell starts as a formula would (a value not there is empty).
    for line in csv.lines() {
        assert!(
            !line
                .split(',')
                .any(|cell| cell.starts_with(['=', '+', '-', '@'])),
            "{line}"
        );
    }
    // The page and the JSON lines: escaped, never raw.
    let page = file("index.html");
    assert!(!page.contains('\u{202E}') && !page.contains('\u{1b}'));
    assert!(page.contains("bidi\\u{202E}txt.c"));
    let jsonl = file("summary.jsonl");
    assert!(
        jsonl.contains("\"submission\": \"bidi\\\\u{202E}txt.c\""),
        "{jsonl}"
    );
    // And --only takes a folder's real name, whatever its bytes.
    let out = Command::new(grader_bin())
        .arg("grade-all")
        .args(["--time-limit", "5", "subs", "--grades", "marks", "--only"])
        .arg(OsStr::from_bytes(b"\xE9t\xE9"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("graded \\xE9t\\xE9: "));
}

#[test]
fn a_build_log_cannot_write_to_the_terminal_or_forge_a_row() {
    let dir = class("log");
    let subs = dir.join("subs");
    right_submission(&subs.join("ann"));
    let mallory = subs.join("mallory");
    fs::create_dir_all(&mallory).unwrap();
    fs::write(
        mallory.join("Makefile"),
        "all:\n\t@printf 'error: \\033[2K\\r\\007zed        yes  5 0 0 0 0 0 0 0 0 0 0 0 0 100 100\\n' >&2; exit 1\n",
    )
    .unwrap();
    let out = grade_all(&dir, &["subs", "--grades", "marks"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !has_controls(&out.stdout),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        !has_controls(&out.stderr),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = fs::read(dir.join("marks/summary.txt")).unwrap();
    assert!(!has_controls(&summary));
    let summary = String::from_utf8(summary).unwrap();
    let row = summary.lines().find(|l| l.starts_with("mallory ")).unwrap();
    assert!(row.contains("error: \\u{1B}[2K\\r\\u{7}zed"), "{row}");
    assert!(!summary.lines().any(|l| l.starts_with("zed")), "{summary}");
}

#[test]
fn a_message_a_spreadsheet_would_run_gets_a_quote() {
    let dir = class("csv");
    let sneaky = dir.join("subs/sneaky");
    fs::create_dir_all(&sneaky).unwrap();
    // Rejects everything with a formula for a message.
    fs::write(
        sneaky.join("puzzle.c"),
        "#include <stdio.h>\nint main(void) { puts(\"=HYPERLINK(\\\"http://evil\\\")\"); return 1; }\n",
    )
    .unwrap();
    let out = grade_all(&dir, &["subs", "--grades", "marks"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = fs::read_to_string(dir.join("marks/summary-fixtures.csv")).unwrap();
    let mut cells = 0;
    for line in csv.lines().skip(1) {
        // Every quoted cell: none starts with a formula's first character.
        for cell in line.split(",\"").map(|c| c.trim_start_matches('"')) {
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "{line}"
            );
            cells += 1;
        }
    }
    assert!(cells > 5);
    assert!(csv.contains("'=HYPERLINK("), "{csv}");
}

#[test]
fn a_forged_row_of_an_earlier_grading_removes_nothing_beside_it() {
    let dir = class("forged");
    right_submission(&dir.join("subs/ann"));
    let out = grade_all(&dir, &["subs", "--grades", "marks"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Someone edits the grades folder: rows whose names are paths.
    fs::write(dir.join("victim.txt"), "the marker's").unwrap();
    fs::create_dir_all(dir.join("victim.fuzz")).unwrap();
    fs::write(dir.join("victim.fuzz/keep"), "the marker's").unwrap();
    let jsonl = dir.join("marks/summary.jsonl");
    let mut text = fs::read_to_string(&jsonl).unwrap();
    for forged in ["../victim", "x/../../victim", "/etc/passwd"] {
        text += &format!(
            "{{\"submission\": \"{forged}\", \"built\": false, \"note\": \"\", \"fixtures\": []}}\n"
        );
    }
    fs::write(&jsonl, text).unwrap();
    for args in [&["--resume"][..], &[]] {
        let out = grade_all(&dir, &[&["subs", "--grades", "marks"], args].concat());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            fs::read_to_string(dir.join("victim.txt")).unwrap(),
            "the marker's"
        );
        assert!(dir.join("victim.fuzz/keep").exists());
        let summary = fs::read_to_string(dir.join("marks/summary.txt")).unwrap();
        assert!(!summary.contains("victim"), "{summary}");
    }
}

#[test]
fn one_submissions_trouble_is_its_own_row() {
    let dir = class("trouble");
    let subs = dir.join("subs");
    right_submission(&subs.join("ann"));
    right_submission(&subs.join("zoe"));
    // A folder nested deeper than a path may be long: copying it fails.
    let deep = subs.join("deep");
    right_submission(&deep);
    let made = Command::new("sh")
        .arg("-c")
        .arg(format!(
            // Each step moves the tree one folder down: no path given to
            // the system is long, the tree's deepest is 4,500 bytes.
            "cd '{}' && mkdir c && echo x > c/f && for i in $(seq 45); do mv c t && mkdir c && mv t c/{n} || exit 1; done",
            deep.display(),
            n = "d".repeat(100)
        ))
        .status()
        .unwrap();
    assert!(made.success());
    let out = grade_all(&dir, &["subs", "--grades", "marks"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The others graded; its row says what happened; the status says that
    // something could not be graded (3) or was not built (1), never that
    // the grading could not be done (2).
    assert!(matches!(out.status.code(), Some(1 | 3)), "{stderr}");
    for name in ["ann ", "zoe "] {
        let row = stdout.lines().find(|l| l.starts_with(name)).unwrap();
        assert!(row.contains(" yes "), "{row}");
    }
    let deep_row = stdout.lines().find(|l| l.starts_with("deep ")).unwrap();
    assert!(
        deep_row.contains(" error ") || deep_row.contains(" no "),
        "{deep_row}"
    );
    if out.status.code() == Some(3) {
        assert!(deep_row.contains("could not be graded: "), "{deep_row}");
        assert!(
            stderr.contains("1 submission(s) could not be graded"),
            "{stderr}"
        );
        let feedback = fs::read_to_string(dir.join("marks/deep.feedback.md")).unwrap();
        assert!(feedback.contains("could not be graded"), "{feedback}");
        assert!(feedback.contains("This is not a mark"), "{feedback}");
    }
}

/// A class of four right submissions graded in two shards, `shards/1` and
/// `shards/2`, in the class folder `name`.
fn sharded(name: &str) -> common::Scratch {
    let dir = class(name);
    for student in ["ann", "bob", "cat", "dan"] {
        right_submission(&dir.join("subs").join(student));
    }
    for i in 1..=2 {
        let out = grade_all(
            &dir,
            &[
                "subs",
                "--shard",
                &format!("{i}/2"),
                "--grades",
                &format!("shards/{i}"),
            ],
        );
        assert!(
            matches!(out.status.code(), Some(0)),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    dir
}

fn merge(dir: &Path, into: &str) -> Output {
    Command::new(grader_bin())
        .args(["merge", "--into", into, "shards/1", "shards/2"])
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The shard that graded `student`.
fn shard_of(dir: &Path, student: &str) -> PathBuf {
    (1..=2)
        .map(|i| dir.join(format!("shards/{i}")))
        .find(|s| s.join(format!("{student}.txt")).exists())
        .unwrap()
}

#[test]
fn a_forged_shard_can_neither_write_nor_remove_outside_the_merge() {
    let dir = sharded("merge-names");
    fs::write(dir.join("victim.txt"), "the marker's").unwrap();
    let shard = dir.join("shards/1");
    let mut jsonl = fs::read_to_string(shard.join("summary.jsonl")).unwrap();
    let first = jsonl.lines().next().unwrap().to_string();
    for forged in ["x/../../victim", "../victim"] {
        let name = first
            .split("\"submission\": \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap();
        jsonl += &(first.replacen(&format!("\"{name}\""), &format!("\"{forged}\""), 1) + "\n");
    }
    fs::write(shard.join("summary.jsonl"), jsonl).unwrap();
    fs::write(shard.join("victim.txt"), "forged").unwrap();
    for _ in 0..2 {
        let out = merge(&dir, "merged");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("is not a submission's name"), "{stderr}");
        assert_eq!(
            fs::read_to_string(dir.join("victim.txt")).unwrap(),
            "the marker's"
        );
        assert!(!dir.join("merged/victim.txt").exists());
    }
}

#[test]
fn a_link_in_a_shard_is_refused_and_named_never_followed() {
    let dir = sharded("merge-links");
    fs::write(dir.join("secret.txt"), "the marker's secret").unwrap();
    let shard = shard_of(&dir, "ann");
    fs::remove_file(shard.join("ann.feedback.md")).unwrap();
    std::os::unix::fs::symlink(dir.join("secret.txt"), shard.join("ann.feedback.md")).unwrap();
    let out = merge(&dir, "merged");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("ann.feedback.md is or passes through a symbolic link"),
        "{stderr}"
    );
    let copied = fs::read_to_string(dir.join("merged/ann.feedback.md")).unwrap_or_default();
    assert!(!copied.contains("secret"), "{copied}");
    // The others' files are there.
    assert!(dir.join("merged/bob.feedback.md").exists());
}

#[test]
fn a_raised_mark_in_a_shard_is_refused_and_named() {
    for (raise, name) in [("100", "raised"), ("1e999", "infinite")] {
        let dir = sharded(&format!("merge-{name}"));
        let shard = shard_of(&dir, "ann");
        let jsonl = fs::read_to_string(shard.join("summary.jsonl")).unwrap();
        // One fixture's points lowered, the score left: they disagree.
        let forged: String = jsonl
            .lines()
            .map(|l| {
                if l.contains("\"submission\": \"ann\", ") {
                    let l = l.replacen("\"score\": 100", &format!("\"score\": {raise}"), 1);
                    l.replacen("\"points\": ", "\"points\": 0.5, \"was\": ", 1) + "\n"
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        fs::write(shard.join("summary.jsonl"), forged).unwrap();
        let out = merge(&dir, "merged");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("summary.jsonl line 1: ann: "), "{stderr}");
        let summary = fs::read_to_string(dir.join("merged/summary.txt")).unwrap();
        assert!(!summary.lines().any(|l| l.starts_with("ann ")), "{summary}");
        assert!(summary.contains("INCOMPLETE"), "{summary}");
        assert!(!summary.contains("--resume to finish"), "{summary}");
    }
}

#[test]
fn shards_of_other_fixtures_or_other_folders_are_refused() {
    let dir = sharded("merge-fixtures");
    // Shard 2 graded again on a changed fixture.
    let fixture = dir.join("Tests").join(common::FIVE_FIXTURES[2]);
    let mut bytes = fs::read(&fixture).unwrap();
    bytes.extend_from_slice(b"\n");
    fs::write(&fixture, bytes).unwrap();
    let out = grade_all(&dir, &["subs", "--shard", "2/2", "--grades", "shards/2"]);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Refused, nothing written: a grading that could not be done.
    let out = merge(&dir, "merged");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("puzzle-grade merge: refused: "), "{stderr}");
    assert!(stderr.contains("other fixtures"), "{stderr}");
    assert!(stderr.contains(common::FIVE_FIXTURES[2]), "{stderr}");
    assert!(!dir.join("merged/summary.txt").exists());
    // A shard of another folder (graded into that shard's folder, as
    // asked: --replace).
    let other = dir.join("other");
    right_submission(&other.join("zed"));
    let out = grade_all(
        &dir,
        &[
            "other",
            "--shard",
            "2/2",
            "--grades",
            "shards/2",
            "--replace",
        ],
    );
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = merge(&dir, "merged");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("only the shards of one folder"), "{stderr}");
}
