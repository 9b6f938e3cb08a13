//! The gradebook (issue 43, item 4): `--roster FILE` maps the folders of
//! submissions to students, names the folders with no student and the
//! students with no folder, and `--format canvas,moodle` writes the files
//! Canvas's and Moodle's gradebooks import as they are.
//!
//! A small class is graded with a roster that has what real rosters have
//! (a byte-order mark, CRLF, its columns in another order and one more, a
//! name with a comma and quotes, a name a spreadsheet would take for a
//! formula, a folder name that is not ASCII); each file is read back by a
//! reader as strict as the platform's (RFC 4180, as Canvas's Ruby CSV and
//! Moodle's PHP `fgetcsv` read it) and checked column by column against
//! the documented format (docs/grading-reference.md, "The roster and the
//! gradebooks' files"). Then the same
//! class graded in two shards and merged gives the same gradebook files.

use crate::common;

use common::grader;
use std::fs;
use std::path::Path;
use std::process::Output;

/// The roster: a byte-order mark, CRLF, the columns in another order, a
/// column the grader ignores, quoted names with a comma and quotes.
const ROSTER: &str = "\u{FEFF}Name,Section,folder,ID,Login,Email,Notes\r\n\
    \"Lee, Ann\",T1,ann,z1000001,ann,ann@uni.edu,\"late, see mail\"\r\n\
    \"Bob \"\"Bobby\"\" Brown\",T1,bob,z1000002,bob,bob@uni.edu,\r\n\
    @Cat Chen,T2,cat,z1000003,cat,cat@uni.edu,\r\n\
    Jos\u{e9} Ruiz,T2,jos\u{e9},z1000004,jose,jose@uni.edu,\r\n\
    =Eve,T2,eve,z1000005,eve,eve@uni.edu,\r\n";

/// The assignment's column: an existing Canvas assignment, by its ID.
const ASSIGNMENT: &str = "Assignment 1 (4321)";

/// A class folder: right programs (ann, josé, dee), one that loses marks
/// (bob), one that does not build (cat); dee has no student, eve no folder.
fn class(name: &str) -> common::Scratch {
    let dir = common::class_folder(
        &format!("gradebook-{name}"),
        &common::FIVE_FIXTURES,
        &[
            ("ann", ""),
            ("bob", "#define NO_ROW_TERM\n"),
            ("cat", "#define BROKEN\n"),
            ("dee", ""),
            ("jos\u{e9}", ""),
        ],
    );
    fs::write(dir.join("roster.csv"), ROSTER).unwrap();
    dir
}

/// `grade-all subs` with `more`.
fn grade_all(dir: &Path, more: &[&str]) -> Output {
    let base = ["grade-all", "subs", "--time-limit", "5", "--jobs", "2"];
    grader(dir, &[&base[..], more].concat())
}

/// The options of the roster and both gradebooks.
const BOOK: [&str; 6] = [
    "--roster",
    "roster.csv",
    "--format",
    "canvas,moodle",
    "--assignment",
    ASSIGNMENT,
];

/// `grade-all subs` with the roster, both gradebooks and `more`.
fn grade(dir: &Path, more: &[&str]) -> Output {
    let out = grade_all(dir, &[&BOOK[..], more].concat());
    // All passed (0) or not (1), never a grading refused (2).
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The records of a CSV text as a strict reader takes them: RFC 4180, a
/// record a CRLF-ended line (a CR or LF only inside quotes), a quote only
/// at a field's start (and doubled inside it), as Ruby's CSV requires
/// (Canvas: "Illegal quoting" otherwise). Each field with whether it was
/// quoted.
fn strict_csv(text: &str) -> Vec<Vec<(String, bool)>> {
    assert!(!text.starts_with('\u{FEFF}'), "a byte-order mark");
    assert!(text.ends_with("\r\n"), "not CRLF-ended: {text:?}");
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        let mut field = String::new();
        let quoted = chars.peek() == Some(&'"');
        if quoted {
            chars.next();
            loop {
                match chars.next().expect("a quoted field closed") {
                    '"' if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    '"' => break,
                    c => field.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == ',' || c == '\r' {
                    break;
                }
                assert!(c != '"' && c != '\n', "illegal quoting in {text:?}");
                field.push(c);
                chars.next();
            }
        }
        record.push((field, quoted));
        match chars.next() {
            Some(',') => {}
            Some('\r') => {
                assert_eq!(chars.next(), Some('\n'), "a lone CR");
                records.push(std::mem::take(&mut record));
                if chars.peek().is_none() {
                    return records;
                }
            }
            other => panic!("{other:?} after a field in {text:?}"),
        }
    }
}

/// The values of the records, quoting dropped.
fn values(records: &[Vec<(String, bool)>]) -> Vec<Vec<String>> {
    records
        .iter()
        .map(|r| r.iter().map(|(v, _)| v.clone()).collect())
        .collect()
}

/// Whether `text` is a number as both platforms read one: digits, and a
/// decimal point with one or two more.
fn is_points(text: &str) -> bool {
    let (whole, part) = text.split_once('.').unwrap_or((text, "1"));
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && (1..=2).contains(&part.len())
        && part.bytes().all(|b| b.is_ascii_digit())
}

/// Checks `canvas.csv` against Canvas's documented import format and
/// returns each student's mark, by SIS User ID.
fn check_canvas(text: &str) -> Vec<(String, String)> {
    let records = strict_csv(text);
    let rows = values(&records);
    // The header: Student, ID, SIS User ID, SIS Login ID, Section, then
    // the assignment (Canvas's importer checks these names in this order).
    assert_eq!(
        rows[0],
        [
            "Student",
            "ID",
            "SIS User ID",
            "SIS Login ID",
            "Section",
            ASSIGNMENT
        ]
    );
    // "Name (ID)" names the assignment of that ID (Canvas reads the
    // column's name as /\A(.*)\s\((\d+)\)\z/).
    let (title, id) = rows[0][5]
        .strip_suffix(')')
        .unwrap()
        .rsplit_once(" (")
        .unwrap();
    assert_eq!((title, id), ("Assignment 1", "4321"));
    // The second line: points possible, under the assignment only.
    assert!(rows[1][0].contains("Points Possible"), "{:?}", rows[1]);
    assert_eq!(rows[1][1..5], ["", "", "", ""]);
    assert_eq!(rows[1][5], "100");
    // Every line as wide as the header; Canvas takes the separator that
    // splits its first three lines into the same number of fields, and
    // the most: a comma here, whatever the names hold.
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 6, "line {}: {row:?}", i + 1);
    }
    let semicolons: Vec<usize> = text.lines().take(3).map(|l| l.split(';').count()).collect();
    let consistent = semicolons.iter().all(|&n| n == semicolons[0]);
    assert!(!(consistent && semicolons[0] > 6), "{semicolons:?}");
    let mut marks = Vec::new();
    for (record, row) in records.iter().zip(&rows).skip(2) {
        // Text quoted, every quote in it doubled; numbers and empty cells
        // bare; Canvas's own user ID left empty (it would win over the
        // SIS IDs): the roster has none.
        assert!(record[0].1 && record[2].1 && record[3].1, "{record:?}");
        assert_eq!(row[1], "", "{row:?}");
        assert!(!record[5].1, "{record:?}");
        assert!(
            row[5].is_empty() || is_points(&row[5]),
            "not points with a decimal point: {row:?}"
        );
        marks.push((row[2].clone(), row[5].clone()));
    }
    // The roster's values byte for byte: no quote before a name a
    // spreadsheet would take for a formula.
    let names: Vec<&str> = rows[2..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        names,
        [
            "Lee, Ann",
            "Bob \"Bobby\" Brown",
            "@Cat Chen",
            "Jos\u{e9} Ruiz",
            "=Eve"
        ]
    );
    let logins: Vec<&str> = rows[2..].iter().map(|r| r[3].as_str()).collect();
    assert_eq!(logins, ["ann", "bob", "cat", "jose", "eve"]);
    let sections: Vec<&str> = rows[2..].iter().map(|r| r[4].as_str()).collect();
    assert_eq!(sections, ["T1", "T1", "T2", "T2", "T2"]);
    marks
}

/// Checks `moodle.csv` against Moodle's CSV grade import and returns each
/// student's mark, by ID number.
fn check_moodle(text: &str) -> Vec<(String, String)> {
    let records = strict_csv(text);
    let rows = values(&records);
    assert_eq!(
        rows[0],
        [
            "ID number",
            "Username",
            "Email address",
            "Full name",
            ASSIGNMENT
        ]
    );
    let mut marks = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (record, row) in records.iter().zip(&rows).skip(1) {
        // Every line as wide as the header (else "csvweirdcolumns"), a
        // line a student: no points possible line.
        assert_eq!(row.len(), 5, "{row:?}");
        // Each identifying column filled on every line and unique, so that
        // any may be mapped (an empty one gives the line's mark to the
        // student of the line before).
        for (value, _) in &record[..3] {
            assert!(!value.is_empty() && seen.insert(value.clone()), "{row:?}");
        }
        // Quoted only where a comma or quote needs it (PHP's backslash
        // escape never comes into play).
        for (value, quoted) in record {
            assert_eq!(*quoted, value.contains([',', '"']), "{record:?}");
        }
        assert!(row[4] == "-" || is_points(&row[4]), "{row:?}");
        marks.push((row[0].clone(), row[4].clone()));
    }
    marks
}

#[test]
fn the_gradebook_files_import_as_canvas_and_moodle_document_them() {
    let dir = class("whole");
    let out = grade(&dir, &[]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("the gradebooks' imports: canvas.csv, moodle.csv"),
        "{stdout}"
    );
    // The folder with no student and the student with no folder, named.
    assert!(
        stderr.contains("roster.csv: 1 folder(s) with no student, in no gradebook file: dee\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "roster.csv: 1 student(s) with no folder, no mark in the gradebook files: eve for z1000005 (=Eve)\n"
        ),
        "{stderr}"
    );
    let grades = dir.join("grades");
    let canvas = fs::read_to_string(grades.join("canvas.csv")).unwrap();
    let moodle = fs::read_to_string(grades.join("moodle.csv")).unwrap();
    let canvas_marks = check_canvas(&canvas);
    let moodle_marks = check_moodle(&moodle);
    // Every rostered student, in the roster's order: the right programs
    // full marks, bob less, cat (not built) 0 as the scheme gives it, eve
    // (no folder) no mark; the two files agree.
    let ids: Vec<&str> = canvas_marks.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(
        ids,
        ["z1000001", "z1000002", "z1000003", "z1000004", "z1000005"]
    );
    let marks: Vec<&str> = canvas_marks.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        (marks[0], marks[2], marks[3], marks[4]),
        ("100", "0", "100", "")
    );
    let bob: f64 = marks[1].parse().unwrap();
    assert!(bob > 0.0 && bob < 100.0, "{marks:?}");
    let from_moodle: Vec<(String, String)> = moodle_marks
        .into_iter()
        .map(|(id, m)| (id, if m == "-" { String::new() } else { m }))
        .collect();
    assert_eq!(from_moodle, canvas_marks);
    // The summary's rows end with their student (a spreadsheet's file: the
    // formula guard is on there); the folder with no student has none.
    let csv = fs::read_to_string(grades.join("summary.csv")).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .ends_with(",note,lost,not_graded,student_id,student_name"),
        "{csv}"
    );
    let row = |name: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("\"{name}\",")))
            .unwrap()
    };
    assert!(row("ann").ends_with(",\"z1000001\",\"Lee, Ann\""), "{csv}");
    assert!(
        row("cat").ends_with(",\"z1000003\",\"'@Cat Chen\""),
        "{csv}"
    );
    assert!(row("dee").ends_with(",,"), "{csv}");
    let summary = fs::read_to_string(grades.join("summary.txt")).unwrap();
    assert!(
        summary.contains("roster: roster.csv (5 students); gradebook: canvas.csv, moodle.csv (Assignment 1 (4321), out of 100)"),
        "{summary}"
    );

    // The same class in two shards, merged: the same gradebook files. A
    // shard writes none (its students of the other shard have no mark).
    for i in 1..=2 {
        let out = grade(
            &dir,
            &[
                "--shard",
                &format!("{i}/2"),
                "--grades",
                &format!("shards/{i}"),
            ],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("canvas.csv, moodle.csv not written: a shard's gradebook is written by the merge of the shards"),
            "{stderr}"
        );
        assert!(!dir.join(format!("shards/{i}/canvas.csv")).exists());
    }
    let out = grader(&dir, &["merge", "--into", "merged", "shards/1", "shards/2"]);
    let merged_err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{merged_err}");
    assert!(
        merged_err.contains("with no student, in no gradebook file: dee"),
        "{merged_err}"
    );
    for file in ["canvas.csv", "moodle.csv"] {
        assert_eq!(
            fs::read_to_string(dir.join("merged").join(file)).unwrap(),
            fs::read_to_string(grades.join(file)).unwrap(),
            "{file}"
        );
    }

    // A roster fixed afterwards: --resume with it grades nothing again and
    // writes the gradebook files anew (the roster decides no mark).
    fs::write(
        dir.join("roster2.csv"),
        format!("{ROSTER}Dee Doe,T2,dee,z1000006,dee,dee@uni.edu,\r\n"),
    )
    .unwrap();
    let out = grade(&dir, &["--resume", "--roster", "roster2.csv"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("folder(s) with no student"), "{stderr}");
    assert!(!stderr.contains("graded dee"), "{stderr}");
    let canvas = fs::read_to_string(grades.join("canvas.csv")).unwrap();
    let marks =
        check_canvas(&canvas.replace("\"Dee Doe\",,\"z1000006\",\"dee\",\"T2\",100\r\n", ""));
    assert_eq!(marks.len(), 5);
    assert!(
        canvas.ends_with("\"Dee Doe\",,\"z1000006\",\"dee\",\"T2\",100\r\n"),
        "{canvas}"
    );
}

#[test]
fn a_roster_or_a_gradebook_option_that_cannot_work_is_refused_before_grading() {
    let dir = class("refused");
    let refused = |args: &[&str], expected: &str| {
        let out = grader(&dir, &[&["grade-all", "subs"][..], args].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!dir.join("grades").exists(), "{args:?}");
    };
    refused(
        &["--format", "canvas"],
        "--format canvas needs --roster FILE",
    );
    refused(
        &["--roster", "roster.csv", "--assignment", "A1"],
        "--assignment names the gradebook files' column: it needs --format canvas or moodle",
    );
    refused(
        &[
            "--roster",
            "roster.csv",
            "--format",
            "moodle",
            "--assignment",
            "Final Score",
        ],
        "--assignment: 'Final Score' holds 'Final Score': Canvas takes such a column for a total",
    );
    fs::write(
        dir.join("twice.csv"),
        "folder,id,name\nann,z1,Ann\nbob,z2,Bob\nann,z3,Ann again\n",
    )
    .unwrap();
    refused(
        &["--roster", "twice.csv"],
        "--roster: twice.csv: lines 2 and 4: the folder 'ann' is on both",
    );
    fs::write(dir.join("comma.csv"), "folder,id,name\nann,z1,Lee, Ann\n").unwrap();
    refused(
        &["--roster", "comma.csv"],
        "--roster: comma.csv: line 2: 4 field(s) where the header has 3",
    );
    refused(&["--roster", "none.csv"], "--roster: cannot read none.csv");
}

#[test]
fn a_roster_line_a_gradebook_would_misread_is_refused_naming_it() {
    // Each a line Canvas's import would take for something else: its
    // Points Possible line (the student's mark would become the
    // assignment's points, and they would get none), a header pasted in,
    // an ID it rewrites as a number.
    let dir = class("misread");
    for (line, expected) in [
        (
            "bob,z2,Points Possible,T1",
            "line 3: 'Points Possible' (column 3): Canvas's import takes a line whose name holds 'Points Possible' for the assignment's points",
        ),
        (
            "Student,ID,,Section",
            "line 3: a line of column names (Student, ID, Section), not a student",
        ),
        (
            "bob,\"1,234\",Bob,T1",
            "line 3: the id '1,234', which Canvas's import reads as the number '1.234'",
        ),
    ] {
        fs::write(
            dir.join("roster.csv"),
            format!("folder,id,name,section\nann,z1,Ann,T1\n{line}\n"),
        )
        .unwrap();
        let out = grader(
            &dir,
            &["grade-all", "subs", "--roster", "roster.csv", "--format", "canvas"],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{line}: {stderr}");
        assert!(stderr.contains(expected), "{line}: {stderr}");
        assert!(!dir.join("grades").exists(), "{line}");
    }
}

#[test]
fn the_gradebook_is_added_afterwards_by_resume_or_the_gradebook_mode() {
    // The roster, the assignment's name and the class's formats decide no
    // mark: a grading made without them gets them by --resume, or by the
    // gradebook mode, nothing graded again, the same files as a grading
    // that had them from the start.
    let dir = class("afterwards");
    grade(&dir, &["--grades", "with"]);
    let plain =
        |grades: &str, more: &[&str]| grade_all(&dir, &[&["--grades", grades], more].concat());
    for grades in ["resumed", "written"] {
        let out = plain(grades, &[]);
        assert!(matches!(out.status.code(), Some(0 | 1)));
        assert!(!dir.join(grades).join("canvas.csv").exists());
    }
    let out = plain("resumed", &[&["--resume"][..], &BOOK].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{stderr}");
    assert!(!stderr.contains("graded "), "{stderr}");
    let out = grader(&dir, &[&["gradebook", "written"][..], &BOOK].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("wrote canvas.csv, moodle.csv in "),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        stderr.contains("roster.csv: 1 folder(s) with no student, in no gradebook file: dee"),
        "{stderr}"
    );
    for grades in ["resumed", "written"] {
        for file in ["canvas.csv", "moodle.csv"] {
            assert_eq!(
                fs::read_to_string(dir.join(grades).join(file)).unwrap(),
                fs::read_to_string(dir.join("with").join(file)).unwrap(),
                "{grades}/{file}"
            );
        }
        let csv = fs::read_to_string(dir.join(grades).join("summary.csv")).unwrap();
        assert!(csv
            .lines()
            .next()
            .unwrap()
            .ends_with(",student_id,student_name"));
    }
    // Recorded: a --resume without them keeps them.
    let out = plain("written", &["--resume"]);
    assert!(matches!(out.status.code(), Some(0 | 1)));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("the gradebooks' imports: canvas.csv, moodle.csv"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        fs::read_to_string(dir.join("written/canvas.csv")).unwrap(),
        fs::read_to_string(dir.join("with/canvas.csv")).unwrap()
    );
    // A format of each submission's files cannot be added so: said plainly.
    let out = plain("written", &["--resume", "--format", "gradescope"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--format gradescope differ (--format gradescope, prairielearn and junit write a file for each submission as it is graded"),
        "{stderr}"
    );
    let out = grader(&dir, &["gradebook", "written", "--format", "junit"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--format junit: a file of each submission, written as it is graded"));
    // No grading there: refused.
    let out = grader(&dir, &["gradebook", "subs", "--roster", "roster.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no grading"));
}
