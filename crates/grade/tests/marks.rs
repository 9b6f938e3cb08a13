//! `puzzle-grade grade-all` as a marker uses it for marks: a marking scheme,
//! the platforms' formats checked against the fields they publish, the
//! feedback file, and grading one submission again.

use crate::common;

use common::{grader_bin, repo, Scratch};

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

/// A JSON value, as far as these tests read one.
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn number(&self, key: &str) -> f64 {
        match self.get(key) {
            Some(Json::Number(n)) => *n,
            other => panic!("{key}: not a number: {other:?} in {self:?}"),
        }
    }
    fn text(&self, key: &str) -> &str {
        match self.get(key) {
            Some(Json::Text(t)) => t,
            other => panic!("{key}: not a string: {other:?}"),
        }
    }
    fn array(&self, key: &str) -> &[Json] {
        match self.get(key) {
            Some(Json::Array(a)) => a,
            other => panic!("{key}: not an array: {other:?}"),
        }
    }
}

/// Parses one JSON value (strictly: the whole text, whitespace around it).
fn parse(text: &str) -> Json {
    let bytes = text.as_bytes();
    let mut at = 0;
    let value = value(bytes, &mut at);
    skip(bytes, &mut at);
    assert_eq!(at, bytes.len(), "trailing bytes in {text}");
    value
}

fn skip(b: &[u8], at: &mut usize) {
    while *at < b.len() && b[*at].is_ascii_whitespace() {
        *at += 1;
    }
}

fn value(b: &[u8], at: &mut usize) -> Json {
    skip(b, at);
    match b[*at] {
        b'{' => {
            *at += 1;
            let mut fields = Vec::new();
            skip(b, at);
            if b[*at] == b'}' {
                *at += 1;
                return Json::Object(fields);
            }
            loop {
                skip(b, at);
                let Json::Text(key) = value(b, at) else {
                    panic!("a key that is not a string at {at}")
                };
                skip(b, at);
                assert_eq!(b[*at], b':');
                *at += 1;
                fields.push((key, value(b, at)));
                skip(b, at);
                *at += 1;
                match b[*at - 1] {
                    b',' => continue,
                    b'}' => return Json::Object(fields),
                    c => panic!("unexpected {} at {at}", c as char),
                }
            }
        }
        b'[' => {
            *at += 1;
            let mut items = Vec::new();
            skip(b, at);
            if b[*at] == b']' {
                *at += 1;
                return Json::Array(items);
            }
            loop {
                items.push(value(b, at));
                skip(b, at);
                *at += 1;
                match b[*at - 1] {
                    b',' => continue,
                    b']' => return Json::Array(items),
                    c => panic!("unexpected {} at {at}", c as char),
                }
            }
        }
        b'"' => {
            *at += 1;
            let mut s = String::new();
            loop {
                let c = b[*at];
                *at += 1;
                match c {
                    b'"' => return Json::Text(s),
                    b'\\' => {
                        let e = b[*at];
                        *at += 1;
                        match e {
                            b'n' => s.push('\n'),
                            b't' => s.push('\t'),
                            b'r' => s.push('\r'),
                            b'"' | b'\\' | b'/' => s.push(e as char),
                            b'u' => {
                                let hex = std::str::from_utf8(&b[*at..*at + 4]).unwrap();
                                s.push(
                                    char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap(),
                                );
                                *at += 4;
                            }
                            _ => panic!("bad escape"),
                        }
                    }
                    c if c < 0x20 => panic!("a control byte in a string"),
                    _ => {
                        // Whole UTF-8 sequences.
                        let start = *at - 1;
                        let mut end = *at;
                        while end < b.len() && (b[end] & 0xC0) == 0x80 {
                            end += 1;
                        }
                        s.push_str(std::str::from_utf8(&b[start..end]).unwrap());
                        *at = end;
                    }
                }
            }
        }
        b't' if b[*at..].starts_with(b"true") => {
            *at += 4;
            Json::Bool(true)
        }
        b'f' if b[*at..].starts_with(b"false") => {
            *at += 5;
            Json::Bool(false)
        }
        b'n' if b[*at..].starts_with(b"null") => {
            *at += 4;
            Json::Null
        }
        _ => {
            let start = *at;
            while *at < b.len() && matches!(b[*at], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
            {
                *at += 1;
            }
            Json::Number(
                std::str::from_utf8(&b[start..*at])
                    .unwrap()
                    .parse()
                    .unwrap(),
            )
        }
    }
}

/// A scratch folder with a few fixtures in `Tests/` and three submissions:
/// right, forgetting the blank's row, and not compiling.
struct Marking(Scratch);

impl Marking {
    fn new(name: &str) -> Marking {
        let dir = Scratch::new(&format!("marks-{name}")).with_fixtures(&[
            "bad_empty_input.inp",
            "sol4_assignment_example.inp",
            "sol4_start_blank_on_last_cell_row_parity.inp",
            "unsol6_start_blank_on_last_cell_row_parity.inp",
        ]);
        let checker = fs::read_to_string(repo().join("tests/grading/checker.c")).unwrap();
        for (name, prelude) in [
            ("good", ""),
            ("norow", "#define NO_ROW_TERM\n"),
            ("broken", "#define BROKEN\n"),
        ] {
            let folder = dir.join("subs").join(name);
            fs::create_dir_all(&folder).unwrap();
            fs::write(folder.join("puzzle.c"), format!("{prelude}{checker}")).unwrap();
        }
        fs::write(
            dir.join("scheme.txt"),
            "[points]\nverdict = 60\nrejection = 30\n\
             [fixtures Tests/sol4_assignment*]\nweight = 2\n\
             [fixtures Tests/unsol6*]\nvisibility = hidden\n",
        )
        .unwrap();
        Marking(dir)
    }

    fn grade(&self, extra: &[&str]) -> Output {
        let out = self.grade_as_is(extra);
        assert!(
            out.status.code() == Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// `grade-all` on `subs` with `extra` options, whatever its status.
    fn grade_as_is(&self, extra: &[&str]) -> Output {
        Command::new(grader_bin())
            .args([
                "grade-all",
                "--time-limit",
                "10",
                "--scheme",
                "scheme.txt",
                "--grades",
                "marks",
            ])
            .args(extra)
            .arg("subs")
            .current_dir(&self.0)
            .output()
            .unwrap()
    }

    fn read(&self, name: &str) -> String {
        fs::read_to_string(self.0.join("marks").join(name)).unwrap()
    }
}

const STATUSES: [&str; 2] = ["passed", "failed"];

/// Points as whole hundredths, the precision every format shows.
fn hundredths(points: f64) -> i64 {
    (points * 100.0).round() as i64
}
const VISIBILITIES: [&str; 3] = ["visible", "after_due_date", "hidden"];

#[test]
fn each_platform_format_has_the_fields_it_publishes() {
    let marking = Marking::new("formats");
    marking.grade(&["--format", "gradescope,prairielearn,junit"]);
    // Gradescope: score, tests with name, score, max_score, status, output,
    // visibility; the maxima add up to the scheme's 100 points.
    let good = parse(&marking.read("good.gradescope.json"));
    assert_eq!(good.number("score"), 100.0);
    let tests = good.array("tests");
    assert_eq!(tests.len(), 4);
    let mut max = 0;
    for test in tests {
        assert!(test.text("name").starts_with("Tests/"));
        assert!(STATUSES.contains(&test.text("status")));
        assert!(VISIBILITIES.contains(&test.text("visibility")));
        test.text("output");
        assert!(test.number("score") <= test.number("max_score"));
        max += hundredths(test.number("max_score"));
    }
    assert_eq!(max, hundredths(100.0));
    let norow = parse(&marking.read("norow.gradescope.json"));
    // The tests' scores add up to the score, exactly as shown.
    let sum: i64 = norow
        .array("tests")
        .iter()
        .map(|t| hundredths(t.number("score")))
        .sum();
    assert_eq!(sum, hundredths(norow.number("score")));
    let failed: Vec<&str> = norow
        .array("tests")
        .iter()
        .filter(|t| t.text("status") == "failed")
        .map(|t| t.text("name"))
        .collect();
    assert_eq!(
        failed,
        [
            "Tests/sol4_start_blank_on_last_cell_row_parity.inp",
            "Tests/unsol6_start_blank_on_last_cell_row_parity.inp"
        ]
    );
    assert!(norow.number("score") < 100.0);
    let hidden = norow
        .array("tests")
        .iter()
        .find(|t| t.text("name").starts_with("Tests/unsol6"))
        .unwrap();
    assert_eq!(hidden.text("visibility"), "hidden");
    // A build that failed: score 0, no tests, the reason.
    let broken = parse(&marking.read("broken.gradescope.json"));
    assert_eq!(broken.number("score"), 0.0);
    assert!(broken.array("tests").is_empty());
    assert!(broken
        .text("output")
        .starts_with("# Feedback for broken\n\nNot built: "));
    assert_eq!(broken.text("output_format"), "md");
    // PrairieLearn: gradable, a score from 0 to 1, tests with points and
    // max_points (hidden ones left out); a build that failed is not gradable.
    let good = parse(&marking.read("good.prairielearn.json"));
    assert_eq!(good.get("gradable"), Some(&Json::Bool(true)));
    assert_eq!(good.number("score"), 1.0);
    assert_eq!(good.array("tests").len(), 4);
    let mut max = 0;
    for test in good.array("tests") {
        test.text("name");
        assert!(test.number("points") <= test.number("max_points"));
        max += hundredths(test.number("max_points"));
    }
    // The hidden fixture is one test of its own, not named.
    assert_eq!(good.array("tests")[3].text("name"), "1 hidden fixture");
    assert_eq!(max, hundredths(100.0));
    let norow = parse(&marking.read("norow.prairielearn.json"));
    let score = norow.number("score");
    assert!((0.0..1.0).contains(&score), "{score}");
    let broken = parse(&marking.read("broken.prairielearn.json"));
    assert_eq!(broken.get("gradable"), Some(&Json::Bool(false)));
    broken.text("message");
    // JUnit: a test case a fixture, a failure with its class; a build that
    // failed is an error.
    let junit = marking.read("norow.junit.xml");
    assert!(junit.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"));
    assert!(junit.contains("<testsuite name=\"norow\" tests=\"4\" failures=\"2\" errors=\"0\""));
    assert_eq!(junit.matches("<testcase ").count(), 4);
    assert_eq!(
        junit
            .matches("<failure type=\"WRONG VERDICT\" message=\"")
            .count(),
        2
    );
    assert!(junit.trim_end().ends_with("</testsuites>"));
    assert!(marking
        .read("broken.junit.xml")
        .contains("<testcase classname=\"broken\" name=\"build\">\n      <error type=\"BUILD\""));
    // JSON lines: one a submission.
    let lines: Vec<Json> = marking.read("summary.jsonl").lines().map(parse).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].text("submission"), "broken");
    assert_eq!(lines[0].get("built"), Some(&Json::Bool(false)));
    assert_eq!(lines[1].number("score"), 100.0);
    assert_eq!(
        lines[2].get("classes").unwrap().number("WRONG VERDICT"),
        2.0
    );
}

#[test]
fn the_scheme_weighs_the_fixtures_and_the_csvs_show_the_marks() {
    let marking = Marking::new("scheme");
    marking.grade(&[]);
    let csv = marking.read("summary.csv");
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows[0].contains(",score,max_score,"));
    // norow: verdict 60 over 3 good fixtures of weights 2, 1, 1 (15 each for
    // the two it gets wrong); format 5 over 5 weights (1 each for those two;
    // their exit status is right): 100 - 2 * (15 + 1) = 68.
    assert!(rows[3].starts_with("\"norow\",yes,2,2,2,"), "{}", rows[3]);
    assert!(rows[3].contains(",68,100,"), "{}", rows[3]);
    let fixtures = marking.read("summary-fixtures.csv");
    let lines: Vec<&str> = fixtures.lines().collect();
    assert_eq!(
        lines[0],
        "submission,fixture,category,class,points,max_points,visibility,seconds,detail"
    );
    assert_eq!(lines.len(), 1 + 2 * 4);
    assert!(lines.iter().any(|l| l.starts_with(
        "\"norow\",\"Tests/unsol6_start_blank_on_last_cell_row_parity.inp\",unsol,WRONG VERDICT,1,17,hidden,"
    )));
    assert!(lines.iter().any(|l| l
        .starts_with("\"good\",\"Tests/sol4_assignment_example.inp\",sol,passed,34,34,visible,")));
}

#[test]
fn the_feedback_names_the_cause_and_shows_the_rule_at_work() {
    let marking = Marking::new("feedback");
    marking.grade(&[]);
    let feedback = marking.read("norow.feedback.md");
    assert!(feedback.starts_with(
        "# Feedback for norow\n\nScore: **68 of 100**. Lost: wrong verdict 16; 16 on fixtures not shown here.\n"
    ));
    assert!(feedback.contains(
        "### WRONG VERDICT on 1 fixture\n\nCause, confirmed by experiment: on boards of an even side the blank's row is not counted"
    ), "{feedback}");
    assert!(feedback.contains("The grader tried it on your program: with even boards whose blanks' rows differ in parity, 10 of 10 inputs failed so;"), "{feedback}");
    // The visible one it explains, the parity rule at work on the
    // experiment's input; no other fixture shown (the cause explains it);
    // the hidden one neither named nor counted in the class.
    assert!(
        feedback.contains(
            "It explains 1 fixture: `Tests/sol4_start_blank_on_last_cell_row_parity.inp`."
        ),
        "{feedback}"
    );
    assert!(!feedback.contains("The smallest:"), "{feedback}");
    assert!(feedback.contains("Why (the parity rule at work on this input):"));
    assert!(feedback.contains("even side, so the blank's row counts"));
    assert!(feedback.contains("1 fixture is not shown here"));
    assert!(!feedback.contains("unsol6"));
    assert!(feedback.contains("## Your error messages (not counted)"));
    // The report, for the marker, has them all, the cause and the cost.
    let report = marking.read("norow.txt");
    assert!(report.contains(
        "cause             WRONG VERDICT on 2 fixtures: on boards of an even side the blank's row is not counted"
    ));
    assert!(report.ends_with("score 68 of 100; lost: wrong verdict 32\n2 passed, 2 failed\n"));
    let broken = marking.read("broken.feedback.md");
    assert!(broken.starts_with("# Feedback for broken\n\nNot built: "));
}

#[test]
fn grading_one_submission_again_keeps_the_other_rows() {
    let marking = Marking::new("again");
    marking.grade(&["--format", "junit"]);
    let before = marking.read("summary.csv");
    // Other options would make marks that do not compare: refused.
    let out = marking.grade_as_is(&["--only", "norow"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("was graded with other options"));
    assert_eq!(marking.read("summary.csv"), before);
    let out = marking.grade(&["--only", "norow", "--format", "junit"]);
    let table = String::from_utf8(out.stdout).unwrap();
    // The whole table, the row graded again last, then what changed (the
    // same sources, the same marks: nothing).
    assert_eq!(table.lines().count(), 6, "{table}");
    assert!(table.lines().nth(3).unwrap().starts_with("norow "));
    assert!(
        table
            .lines()
            .nth(4)
            .unwrap()
            .starts_with("no marks changed since the grading of "),
        "{table}"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr)
            .matches("graded ")
            .count(),
        1,
        "only norow graded again"
    );
    let after = marking.read("summary.csv");
    let rows = |text: &str, name: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("\"{name}\"")))
            .unwrap()
            .to_string()
    };
    assert_eq!(after.lines().count(), 4);
    assert_eq!(rows(&after, "good"), rows(&before, "good"));
    assert_eq!(rows(&after, "broken"), rows(&before, "broken"));
    // The grading's head (5 lines), the table, then a blank line and what
    // changed.
    assert_eq!(marking.read("summary.txt").lines().count(), 5 + 4 + 2);
    assert_eq!(marking.read("summary.jsonl").lines().count(), 3);
    assert_eq!(
        marking.read("summary-fixtures.csv").lines().count(),
        1 + 2 * 4
    );
    let out = Command::new(grader_bin())
        .args(["grade-all", "--only", "nobody", "subs", "--format", "junit"])
        .current_dir(&marking.0)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).ends_with(&format!(
            "puzzle-grade grade-all: --only nobody: no such folder in {}\n",
            marking.0.join("subs").display()
        )),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_bad_scheme_is_named_by_its_line() {
    let marking = Marking::new("bad-scheme");
    fs::write(marking.0.join("bad.txt"), "[points]\nverdicts = 70\n").unwrap();
    let out = Command::new(grader_bin())
        .args(["grade-all", "--scheme", "bad.txt", "subs"])
        .current_dir(&marking.0)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "puzzle-grade grade-all: --scheme: bad.txt: line 2: unknown part 'verdicts' (verdict, rejection, exit-status, format)\n\
         Try 'puzzle-grade grade-all --help' for more information.\n"
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!Path::new(&marking.0.join("marks")).exists());
}

/// Runs a platform's entry script on a tree shaped like the platform's, with
/// `submission` as the student's files; returns the results file.
fn platform_run(script: &str, root_var: &str, student_dir: &str, name: &str) -> Json {
    let marking = Marking::new(name);
    let platform = marking.0.join("platform");
    let student = platform.join(student_dir);
    fs::create_dir_all(&student).unwrap();
    fs::copy(
        marking.0.join("subs/norow/puzzle.c"),
        student.join("puzzle.c"),
    )
    .unwrap();
    let out = Command::new("sh")
        .arg(repo().join(script))
        .env(root_var, &platform)
        .env("PUZZLE_REPO", repo())
        .env("PUZZLE_GRADE", grader_bin())
        .env("SCHEME", marking.0.join("scheme.txt"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    parse(&fs::read_to_string(platform.join("results/results.json")).unwrap())
}

#[test]
fn gradescopes_run_autograder_writes_its_results_json() {
    let results = platform_run(
        "examples/gradescope/run_autograder",
        "AUTOGRADER",
        "submission",
        "gradescope",
    );
    // Graded on all of Tests/: the parity faults fail, the rest pass.
    let tests = results.array("tests");
    assert!(tests.len() > 80, "{}", tests.len());
    assert!(results.number("score") < 100.0);
    assert!(results.text("output").contains(
        "Cause, confirmed by experiment: on boards of an even side the blank's row is not counted"
    ));
    assert!(tests
        .iter()
        .any(|t| t.text("status") == "failed" && t.text("output").starts_with("WRONG VERDICT: ")));
}

#[test]
fn prairielearns_entry_point_writes_its_results_json() {
    let results = platform_run(
        "examples/prairielearn/run.sh",
        "GRADE_ROOT",
        "student",
        "prairielearn",
    );
    assert_eq!(results.get("gradable"), Some(&Json::Bool(true)));
    let score = results.number("score");
    assert!(score > 0.5 && score < 1.0, "{score}");
}

/// Every file under `dir`, by its path from the repository's top.
fn files_under(dir: &Path, into: &mut Vec<String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            files_under(&path, into);
        } else {
            let relative = path.strip_prefix(repo()).unwrap();
            into.push(relative.display().to_string());
        }
    }
}

#[test]
fn the_gradescope_zip_holds_what_the_autograder_builds_from_and_no_more() {
    if Command::new("zip").arg("-v").output().is_err()
        || Command::new("unzip").arg("-v").output().is_err()
    {
        common::skip("zip or unzip is not installed");
        return;
    }
    let dir = common::Scratch::new("gradescope-zip");
    let zip = dir.join("ag.zip");
    let made = Command::new("sh")
        .arg(repo().join("scripts/gradescope-zip.sh"))
        .arg(&zip)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let listed = Command::new("unzip").arg("-Z1").arg(&zip).output().unwrap();
    assert!(listed.status.success(), "{listed:?}");
    let entries: Vec<String> = String::from_utf8(listed.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    // Gradescope runs setup.sh and run_autograder from the zip's top.
    for top in ["setup.sh", "run_autograder"] {
        assert!(entries.iter().any(|e| e == top), "{top}: {entries:?}");
    }
    // Nothing else at the top, nothing of git, of a build or of a grading.
    for entry in &entries {
        assert!(
            entry == "setup.sh" || entry == "run_autograder" || entry.starts_with("puzzle/"),
            "{entry}"
        );
        for part in entry.split('/') {
            assert!(
                !matches!(part, ".git" | "target" | "grades" | "bench-out" | ".."),
                "{entry}"
            );
        }
    }
    // Every file cargo builds the two binaries from (the manifests, each
    // package's sources, the benches its manifest names), and the fixtures.
    let mut needed = vec![
        "Cargo.toml".to_string(),
        "Cargo.lock".into(),
        "Makefile".into(),
    ];
    for folder in ["src", "benches", "Tests", "crates"] {
        files_under(&repo().join(folder), &mut needed);
    }
    needed.retain(|f| {
        !f.starts_with("crates/")
            || f.contains("/src/")
            || f.ends_with("Cargo.toml")
            || f.contains("/benches/")
    });
    for file in &needed {
        assert!(
            entries.contains(&format!("puzzle/{file}")),
            "puzzle/{file} is not in the zip"
        );
    }
    // And a few hundred files, not the repository's thousands.
    let files = entries.iter().filter(|e| !e.ends_with('/')).count();
    assert!(
        files < needed.len() + 20,
        "{files} files for {} needed",
        needed.len()
    );
    assert!(fs::metadata(&zip).unwrap().len() < 8 << 20);
}

/// Each of `programs` (a name, and the macros `checker.c` is built with)
/// a submission of a class graded on `fixtures` of `Tests/` into its
/// `grades`.
fn graded_class(name: &str, fixtures: &[&str], programs: &[(&str, &str)]) -> Scratch {
    let dir = common::class_folder(&format!("marks-{name}"), fixtures, programs);
    common::grade_failing(
        &dir,
        &[
            "grade-all",
            "--time-limit",
            "10",
            "--grades",
            "grades",
            "subs",
        ],
    );
    dir
}

#[test]
fn the_feedback_claims_only_what_was_done_and_shows_every_byte_of_an_input() {
    let grades = graded_class(
        "claims",
        &[
            "bad_empty_input.inp",
            "bad_tile_zero.inp",
            "bad_two_blanks.inp",
            "sol4_assignment_example.inp",
            "sol7_no_final_newline.inp",
            "sol4_goal_blank_centre_tabs.inp",
        ],
        &[
            ("stderr", "#define ERRORS_TO_STDERR\n"),
            ("trailing", "#define REJECT_TRAILING\n"),
            ("newline", "#define NEED_NEWLINE\n"),
        ],
    );
    let read = |name: &str| fs::read_to_string(grades.join("grades").join(name)).unwrap();
    // No experiment exists for ERROR ON STDERR: none is claimed; what the
    // failures share is said instead.
    let stderr = read("stderr.feedback.md");
    assert!(
        stderr.contains("### ERROR ON STDERR on 3 fixtures\n\nWhat they share: each wrote its message on stderr and nothing on stdout (the assignment asks for the message on stdout); exit status 1 each time.\n\nThe smallest: `Tests/bad_empty_input.inp`"),
        "{stderr}"
    );
    assert!(!stderr.contains("tried"), "{stderr}");
    assert!(!stderr.contains("No single cause"), "{stderr}");
    // The spaces at a line's end and a last line without its newline are
    // shown, in the experiment's input as in a fixture's.
    let trailing = read("trailing.feedback.md");
    assert!(
        trailing.contains("Cause, confirmed by experiment: a valid input with blanks at the end of a line is rejected."),
        "{trailing}"
    );
    assert!(
        trailing.contains(" b␣\n") || trailing.contains("␣\n    "),
        "{trailing}"
    );
    assert!(
        trailing.contains("Shown as: ␣ a space at the start or the end of a line."),
        "{trailing}"
    );
    let newline = read("newline.feedback.md");
    assert!(
        newline.contains("Cause, confirmed by experiment: a valid input with no newline after the goal line is rejected."),
        "{newline}"
    );
    assert!(
        newline.contains("The last line ends without a newline."),
        "{newline}"
    );
}
