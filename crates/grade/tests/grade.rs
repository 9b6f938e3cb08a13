//! `sh Testrun grade` and `grade-all` (so `puzzle-grade`), driven on the
//! real binaries: programs
//! that follow the assignment pass whatever they choose where it is silent,
//! and each deliberately broken program is caught with the report line a
//! marker needs, the wrong verdicts first.
//!
//! The broken programs are of two kinds. `tests/grading/checker.c` is a
//! checker written the way students write one, whose macros give each fault
//! of real submissions (a wrong parity rule, exit status 0 after an error,
//! errors on stderr, the boards echoed before an error, a 32-bit counter, a
//! build that fails, a hang); it is compiled here with `cc`. Shell scripts
//! around the real binary give the rest: a hang with a sleeping child, a
//! crash, a flood of output, one fault a fixture. Each grading runs in a
//! scratch folder of its own ([`Desk`], on a `common::Scratch`) whose
//! `Tests/` holds a few fixtures, with `PUZZLE_GRADE` naming the
//! cargo-built grader, `READ_ONLY` letting the sandboxed scripts run the
//! cargo-built `puzzle`, and `TMPDIR` a folder that must be empty again
//! when the grading ends.

use crate::common;

use common::{grader_bin, puzzle_bin, repo, Scratch};

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The fixtures the broken programs are graded on: three bad (one of them
/// bad only by a choice the assignment leaves open), seven good: the 32-bit
/// overflow, two where the blank's row decides, a byte-order mark.
const FEW: [&str; 10] = [
    "bad_empty_input.inp",
    "bad_number_4294967297_wraps_to_1.inp",
    "bad_third_line.inp",
    "sol257_inversions_2181136127_overflow_signed_int.inp",
    "sol4_assignment_example.inp",
    "sol4_start_blank_on_last_cell_row_parity.inp",
    "sol6_bom.inp",
    "sol7_no_final_newline.inp",
    "unsol2_tiles_swapped.inp",
    "unsol6_start_blank_on_last_cell_row_parity.inp",
];

/// The fixtures of `Tests/` whose answer depends on a choice the assignment
/// leaves open, with the choices, as `sh Testrun open` lists them.
const OPEN_IN_TESTS: [(&str, &str); 14] = [
    ("bad_form_feed_after_goal.inp", "lines after the goal"),
    ("bad_garbage_after_blank_lines.inp", "lines after the goal"),
    ("bad_signed_plus.inp", "a '+' sign"),
    ("bad_third_line.inp", "lines after the goal"),
    ("sol10_crlf_at_end_without_newline.inp", "CRLF line ends"),
    ("sol4_start_trailing_tabs_crlf.inp", "CRLF line ends"),
    ("sol5_random_goal_crlf.inp", "CRLF line ends"),
    ("sol6_bom.inp", "a byte-order mark"),
    ("sol8_leading_zeros.inp", "leading zeros"),
    (
        "sol9_trailing_blank_lines.inp",
        "lines after the goal, CRLF line ends",
    ),
    ("unsol6_crlf.inp", "CRLF line ends"),
    ("unsol7_bom_no_final_newline.inp", "a byte-order mark"),
    ("unsol8_leading_zeros.inp", "leading zeros"),
    (
        "unsol9_trailing_whitespace_lines.inp",
        "lines after the goal",
    ),
];

/// A marker's desk for one test: a scratch folder of its own (removed when
/// the test ends) whose `Tests/` holds copies of the named fixtures, and
/// whose `tmp/` is the grading's `TMPDIR`.
struct Desk(Scratch);

impl Desk {
    fn new(name: &str, fixtures: &[&str]) -> Desk {
        let dir = Scratch::new(&format!("grade-{name}")).with_fixtures(fixtures);
        fs::create_dir_all(dir.join("tmp")).unwrap();
        Desk(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// An executable shell script; `PUZZLE` in `body` stands for the binary.
    fn script(&self, name: &str, body: &str) -> PathBuf {
        let binary = puzzle_bin().display().to_string();
        assert!(!binary.contains('\''));
        let path = self.0.join(name);
        let text = format!(
            "#!/bin/sh\n{}",
            body.replace("PUZZLE", &format!("'{binary}'"))
        );
        fs::write(&path, text).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// `tests/grading/checker.c` compiled with `flags` as `name`.
    fn checker(&self, name: &str, flags: &[&str]) -> PathBuf {
        let path = self.0.join(name);
        let built = Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&path)
            .args(flags)
            .arg(repo().join("tests/grading/checker.c"))
            .output()
            .unwrap_or_else(|err| {
                panic!("cc does not run ({err}): the grading tests build C programs")
            });
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
        path
    }

    /// `sh Testrun MODE ARGS...` run here, with a `TIME_LIMIT`.
    fn testrun(&self, mode: &str, args: &[&Path], timeout: u32) -> Command {
        let mut command = Command::new("sh");
        command
            .arg(repo().join("Testrun"))
            .arg(mode)
            .args(args)
            .current_dir(&self.0)
            .env("PUZZLE", puzzle_bin())
            .env("PUZZLE_GRADE", grader_bin())
            .env("READ_ONLY", puzzle_bin())
            .env("TIME_LIMIT", timeout.to_string())
            .env("TMPDIR", self.0.join("tmp"))
            .env_remove("STRICT");
        command
    }

    /// `sh Testrun grade PROGRAM DIRS...` run here.
    fn grade_command(&self, program: &Path, dirs: &[&Path], timeout: u32) -> Command {
        let mut args = vec![program];
        args.extend_from_slice(dirs);
        self.testrun("grade", &args, timeout)
    }

    /// Grades `program` and checks that nothing is left in `TMPDIR`.
    fn grade(&self, program: &Path, dirs: &[&Path], timeout: u32) -> Output {
        let out = self.grade_command(program, dirs, timeout).output().unwrap();
        self.assert_clean();
        out
    }

    /// Grades `program` with `STRICT=1`.
    fn grade_strictly(&self, program: &Path) -> Output {
        let out = self
            .grade_command(program, &[], 10)
            .env("STRICT", "1")
            .output()
            .unwrap();
        self.assert_clean();
        out
    }

    fn assert_clean(&self) {
        let left: Vec<_> = fs::read_dir(self.0.join("tmp")).unwrap().collect();
        assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    }
}

/// The scratch folder every grading test works in (`common::Scratch`): a
/// test's own (two of one name are two folders), open to every user (mode
/// 0755, every folder above it open to all: the sandbox's users reach it
/// wherever the clone is), and gone, with everything in it, when dropped;
/// what a test process that is gone left is swept away.
#[test]
fn a_scratch_folder_is_the_tests_own_open_to_all_and_gone_at_its_end() {
    use std::os::unix::fs::MetadataExt;
    let (a, b) = (Scratch::new("same"), Scratch::new("same"));
    assert_ne!(a.path(), b.path());
    for dir in [a.path(), b.path()] {
        assert_eq!(
            fs::metadata(dir).unwrap().mode() & 0o7777,
            0o755,
            "{}",
            dir.display()
        );
        for above in dir.ancestors().skip(1) {
            let mode = fs::metadata(above).unwrap().mode();
            assert_ne!(mode & 0o001, 0, "{} is closed to others", above.display());
        }
        assert!(
            !dir.starts_with(repo()),
            "{} is in the clone",
            dir.display()
        );
    }
    fs::create_dir_all(a.join("deep/er")).unwrap();
    fs::write(a.join("deep/er/file"), "x").unwrap();
    let (gone, kept) = (a.path().to_path_buf(), b.path().to_path_buf());
    drop(a);
    assert!(!gone.exists() && kept.is_dir());
    drop(b);
    assert!(!kept.exists());
    // Left by a process that is no more (a number above any pid).
    let left = common::scratch_base().join("puzzle-test.4294967294.0.left");
    fs::create_dir_all(left.join("inside")).unwrap();
    common::sweep_scratch_folders();
    if Path::new("/proc/self").exists() {
        assert!(!left.exists(), "{}", left.display());
    } else {
        let _ = fs::remove_dir_all(&left);
    }
}

/// Grades the shell script `body`, as program `name`, on the fixtures of
/// `FEW`.
fn grade_script(name: &str, body: &str, timeout: u32) -> (Desk, Output) {
    let desk = Desk::new(name, &FEW);
    let program = desk.script(name, body);
    let out = desk.grade(&program, &[], timeout);
    (desk, out)
}

/// Grades `checker.c` built with `flags` on the fixtures of `FEW`.
fn grade_checker(name: &str, flags: &[&str]) -> Output {
    let desk = Desk::new(name, &FEW);
    let program = desk.checker(name, flags);
    desk.grade(&program, &[], 10)
}

/// The report's classes, in its order.
const CLASSES: [&str; 14] = [
    "WRONG VERDICT",
    "MISSED ERROR",
    "FALSE ERROR",
    "WRONG EXIT STATUS",
    "ERROR ON STDERR",
    "NO MESSAGE",
    "TIMEOUT",
    "MEMORY LIMIT",
    "PROCESS LIMIT",
    "CRASH",
    "NOT GRADED",
    "NOT RUN",
    "FORMAT",
    "OPEN",
];

/// The report's table and last line for these fixtures (bad, sol, unsol),
/// failed fixtures of each category, and the fixtures of each class
/// (`(class, [bad, sol, unsol])`, the others none); `strict` for STRICT=1.
fn summary(
    fixtures: [usize; 3],
    failed: [usize; 3],
    classes: &[(&str, [usize; 3])],
    strict: bool,
) -> String {
    let row = |name: &str, counts: [usize; 3]| {
        format!(
            "{name:<17} {:>6} {:>6} {:>6} {:>6}\n",
            counts[0],
            counts[1],
            counts[2],
            counts.iter().sum::<usize>()
        )
    };
    let mut text = format!(
        "{:<17} {:>6} {:>6} {:>6} {:>6}\n",
        "", "bad", "sol", "unsol", "total"
    );
    text += &row("fixtures", fixtures);
    text += &row("passed", [0, 1, 2].map(|i| fixtures[i] - failed[i]));
    for class in CLASSES {
        let counts = classes
            .iter()
            .find(|(name, _)| *name == class)
            .map_or([0; 3], |c| c.1);
        text += &row(class, counts);
    }
    let all: usize = fixtures.iter().sum();
    let failed: usize = failed.iter().sum();
    text += &format!("{} passed, {failed} failed", all - failed);
    text += if strict {
        " (STRICT: byte for byte against the reference)\n"
    } else {
        "\n"
    };
    text
}

/// How the report shows a line of output: its first 100 bytes, `\r` and `\t`
/// spelled out, other unprintable bytes as `?`, and `...` after a cut.
fn shown(line: &[u8]) -> String {
    let mut text = String::new();
    for &byte in line.iter().take(100) {
        match byte {
            b'\r' => text.push_str("\\r"),
            b'\t' => text.push_str("\\t"),
            b' '..=b'~' => text.push(byte as char),
            _ => text.push('?'),
        }
    }
    if line.len() > 100 {
        text.push_str("...");
    }
    text
}

/// The report without its first line, which names the sandbox's protections,
/// its `slowest:` line (times vary) and its score line (the marks are
/// `marks.rs`'s to check), each of which must be there once.
fn without_times(report: &str) -> String {
    let report = without_protections(report);
    let lines: Vec<&str> = report.lines().collect();
    let dropped = |line: &str| line.starts_with("slowest: ") || line.starts_with("score ");
    for start in ["slowest: ", "score "] {
        let count = lines.iter().filter(|line| line.starts_with(start)).count();
        assert_eq!(count, 1, "one '{start}' line in\n{report}");
    }
    lines
        .iter()
        .filter(|line| !dropped(line))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The report without its first line, `sandbox: ...`, which must be there.
fn without_protections(report: &str) -> &str {
    let (first, rest) = report.split_once('\n').unwrap_or((report, ""));
    assert!(first.starts_with("sandbox: "), "{report}");
    rest
}

/// Checks that `grade`'s stderr is its one notice, what the sandbox
/// protects: the report's first line, said before the runs.
fn assert_only_the_notice(out: &Output) {
    let report = String::from_utf8_lossy(&out.stdout);
    let first = report.lines().next().unwrap_or_default();
    assert!(first.starts_with("sandbox: "), "{report}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("puzzle-grade grade: {first}\n")
    );
}

/// Checks a grading's exit status and whole report (but for the times), with
/// nothing on stderr but the notice of the sandbox's protections.
fn assert_report(out: &Output, status: i32, report: &str) {
    assert_only_the_notice(out);
    assert_eq!(without_times(&String::from_utf8_lossy(&out.stdout)), report);
    assert_eq!(out.status.code(), Some(status));
}

/// The message lines `puzzle` itself gets for the bad fixtures of `FEW`
/// other than the open `bad_third_line.inp`.
const FEW_MESSAGES: &str = "\
msg               Tests/bad_empty_input.inp: error: start board: the line is empty
msg               Tests/bad_number_4294967297_wraps_to_1.inp: error: start board: number 4294967297 at token 1 is too large to be a tile
";

/// What `checker.c`, strict where the assignment is silent, says on the
/// fixtures of `FEW` that it rejects, as OPEN lines.
const FEW_REJECTED_OPEN: &str = "\
OPEN              Tests/bad_third_line.inp: rejected it (lines after the goal): 'Invalid input: goal board: something follows it'
OPEN              Tests/sol6_bom.inp: rejected it (a byte-order mark): 'Invalid input: start board: a token is neither a number nor b'
";

/// The message lines of `checker.c` for the two required bad fixtures.
const FEW_CHECKER_MESSAGES: &str = "\
msg               Tests/bad_empty_input.inp: Invalid input: start board: missing
msg               Tests/bad_number_4294967297_wraps_to_1.inp: Invalid input: start board: a tile is out of range
";

const FEW_COUNTS: [usize; 3] = [3, 5, 2];

#[test]
fn grading_puzzle_itself_passes_every_fixture() {
    // Graded in the repository, on all of Tests/: every bad fixture shows
    // its message, every open one what `puzzle` chose.
    let desk = Desk::new("itself", &[]);
    let mut names: Vec<String> = fs::read_dir(repo().join("Tests"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| ["bad", "sol", "unsol"].iter().any(|p| name.starts_with(p)))
        .collect();
    names.sort();
    let open = |name: &str| {
        OPEN_IN_TESTS
            .iter()
            .find(|(open, _)| *open == name)
            .map(|o| o.1)
    };
    let mut opens = String::new();
    let mut messages = String::new();
    let mut counts = [0; 3];
    let mut open_counts = [0; 3];
    for name in &names {
        let category = ["bad", "sol", "unsol"]
            .iter()
            .rposition(|p| name.starts_with(p))
            .unwrap();
        counts[category] += 1;
        let out = Command::new(puzzle_bin())
            .stdin(fs::File::open(repo().join("Tests").join(name)).unwrap())
            .output()
            .unwrap();
        let last = shown(
            out.stdout
                .strip_suffix(b"\n")
                .unwrap()
                .rsplit(|&b| b == b'\n')
                .next()
                .unwrap(),
        );
        if let Some(choices) = open(name) {
            open_counts[category] += 1;
            opens += &if category == 0 {
                format!("OPEN              Tests/{name}: rejected it ({choices}): '{last}'\n")
            } else {
                format!("OPEN              Tests/{name}: accepted it ({choices}): '{last}'\n")
            };
        } else if category == 0 {
            messages += &format!("msg               Tests/{name}: {last}\n");
        }
    }
    assert!(counts.iter().all(|&c| c >= 15), "{counts:?}");
    let report = opens + &messages + &summary(counts, [0; 3], &[("OPEN", open_counts)], false);
    let out = desk
        .grade_command(&puzzle_bin(), &[], 10)
        .current_dir(repo())
        .output()
        .unwrap();
    desk.assert_clean();
    assert_report(&out, 0, &report);
    // The score, before the last line: all of it.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[lines.len() - 2], "score 100 of 100; lost: nothing");
}

#[test]
fn the_open_fixtures_are_those_a_strict_reader_rejects_and_a_lenient_one_accepts() {
    let desk = Desk::new("open", &[]);
    let out = desk
        .testrun("open", &[], 10)
        .current_dir(repo())
        .output()
        .unwrap();
    desk.assert_clean();
    let mut listed = OPEN_IN_TESTS;
    listed.sort();
    let expected: String = listed
        .iter()
        .map(|(name, choices)| {
            let answer = if name.starts_with("unsol") {
                "an error or 'unsolvable'"
            } else {
                "an error or 'solvable'"
            };
            format!("Tests/{name}: {choices}: {answer}\n")
        })
        .collect();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    assert_eq!(out.status.code(), Some(0));
}

/// Grades `checker.c` built with `flags` on every fixture of `Tests/` and of
/// the peer tests beside the repository, when they are there.
fn grade_everywhere(name: &str, flags: &[&str], strict: bool) -> String {
    let desk = Desk::new(name, &[]);
    let program = desk.checker(name, flags);
    let peers = repo().join("../shared/peer-tests");
    let mut dirs = Vec::new();
    if peers.is_dir() {
        dirs.push(peers.as_path());
    } else {
        println!("note: {} is absent; peer tests not graded", peers.display());
    }
    let mut command = desk.grade_command(&program, &dirs, 30);
    command.current_dir(repo());
    if strict {
        command.env("STRICT", "1");
    }
    let out = command.output().unwrap();
    desk.assert_clean();
    assert_only_the_notice(&out);
    assert_eq!(out.status.code(), Some(if strict { 1 } else { 0 }));
    String::from_utf8(out.stdout).unwrap()
}

/// The counts of a class's row in a report's table.
fn row(report: &str, class: &str) -> Vec<usize> {
    report
        .lines()
        .filter_map(|line| line.strip_prefix(class))
        .map(|rest| {
            rest.split_whitespace()
                .map(str::parse)
                .collect::<Result<Vec<usize>, _>>()
        })
        .find_map(|counts| counts.ok().filter(|c| c.len() == 4))
        .unwrap_or_else(|| panic!("no row {class} in\n{report}"))
}

#[test]
fn a_program_that_follows_the_assignment_and_rejects_every_open_choice_gets_no_failure() {
    // Its own words ('Invalid input: ...'), not the reference's 'error: ',
    // and every choice the assignment leaves open taken the strict way.
    let report = grade_everywhere("strict-reader", &[], false);
    let fixtures = row(&report, "fixtures");
    assert_eq!(row(&report, "passed"), fixtures, "{report}");
    assert_eq!(row(&report, "FORMAT")[3], 0, "{report}");
    assert!(row(&report, "OPEN")[3] >= OPEN_IN_TESTS.len(), "{report}");
    assert!(report.contains(
        "\nmsg               Tests/bad_capital_b.inp: Invalid input: start board: a token is neither a number nor b\n"
    ));
    assert!(report.ends_with(&format!("{} passed, 0 failed\n", fixtures[3])));
}

#[test]
fn a_program_that_follows_the_assignment_and_accepts_every_open_choice_gets_no_failure() {
    let report = grade_everywhere("lenient-reader", &["-DLENIENT"], false);
    let fixtures = row(&report, "fixtures");
    assert_eq!(row(&report, "passed"), fixtures, "{report}");
    assert_eq!(row(&report, "FORMAT")[3], 0, "{report}");
    assert!(report.contains(
        "\nOPEN              Tests/sol6_bom.inp: accepted it (a byte-order mark): 'solvable'\n"
    ));
    assert!(report.ends_with(&format!("{} passed, 0 failed\n", fixtures[3])));
}

#[test]
fn strict_grading_fails_every_message_that_is_not_the_references() {
    let report = grade_everywhere("strict-grading", &[], true);
    let fixtures = row(&report, "fixtures");
    // Every bad fixture: the words differ; the open good ones are graded by
    // the contract's choices: a rejected byte-order mark is a false error.
    assert_eq!(row(&report, "FORMAT")[..3], [fixtures[0], 0, 0], "{report}");
    assert_eq!(row(&report, "OPEN")[3], 0, "{report}");
    assert!(row(&report, "FALSE ERROR")[1] >= 6, "{report}");
    assert!(report.contains(
        "\nFORMAT            Tests/bad_capital_b.inp: line 1: expected 'error: ...', got 'Invalid input: start board: a token is neither a number nor b'\n"
    ));
    assert!(report.contains(
        "\nFALSE ERROR       Tests/sol6_bom.inp: no verdict: 'Invalid input: start board: a token is neither a number nor b' (exit status 1), expected 'solvable'\n"
    ));
}

#[test]
fn strict_grading_on_few_fixtures_shows_each_difference() {
    let desk = Desk::new("strict-few", &FEW);
    let program = desk.checker("strict-few", &[]);
    let out = desk.grade_strictly(&program);
    let report = "\
cause             FALSE ERROR on 1 fixture: no single cause confirmed
FALSE ERROR       Tests/sol6_bom.inp: no verdict: 'Invalid input: start board: a token is neither a number nor b' (exit status 1), expected 'solvable'
FORMAT            Tests/bad_empty_input.inp: line 1: expected 'error: ...', got 'Invalid input: start board: missing'
FORMAT            Tests/bad_number_4294967297_wraps_to_1.inp: line 1: expected 'error: ...', got 'Invalid input: start board: a tile is out of range'
FORMAT            Tests/bad_third_line.inp: line 1: expected 'error: ...', got 'Invalid input: goal board: something follows it'
"
    .to_string()
        + &summary(
            FEW_COUNTS,
            [3, 1, 0],
            &[("FALSE ERROR", [0, 1, 0]), ("FORMAT", [3, 0, 0])],
            true,
        );
    assert_report(&out, 1, &report);
}

#[test]
fn a_wrong_parity_rule_is_a_wrong_verdict_though_its_spacing_differs_too() {
    // It forgets the blank's row on even boards and ends each board line
    // with a blank: the verdicts come first, the spacing after.
    let out = grade_checker("no-row-term", &["-DNO_ROW_TERM", "-DSPACED"]);
    let report = "\
cause             WRONG VERDICT on 2 fixtures: on boards of an even side the blank's row is not counted (the tutorial's rule: there the disorder plus the blank's row decides, for both boards) (confirmed: with even boards whose blanks' rows differ in parity, 10 of 10 inputs failed so; with even boards whose blanks' rows have the same parity, 0 of 10)
WRONG VERDICT     Tests/sol4_start_blank_on_last_cell_row_parity.inp: 'unsolvable', expected 'solvable'
WRONG VERDICT     Tests/unsol6_start_blank_on_last_cell_row_parity.inp: 'solvable', expected 'unsolvable'
FORMAT            Tests/sol257_inversions_2181136127_overflow_signed_int.inp: line 1: expected ...'16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 b', got ...'16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 b ' (spacing)
FORMAT            Tests/sol4_assignment_example.inp: line 1: expected 'start: 9 12 5 4 2 b 7 11 3 6 10 13 14 1 8 15', got 'start: 9 12 5 4 2 b 7 11 3 6 10 13 14 1 8 15 ' (spacing)
FORMAT            Tests/sol7_no_final_newline.inp: line 1: expected ...'35 30 17 20 b 18 12 47 6 26 45 3 19 44 1', got ...'35 30 17 20 b 18 12 47 6 26 45 3 19 44 1 ' (spacing)
FORMAT            Tests/unsol2_tiles_swapped.inp: line 1: expected 'start: 2 1 3 b', got 'start: 2 1 3 b ' (spacing)
"
    .to_string()
        + FEW_REJECTED_OPEN
        + FEW_CHECKER_MESSAGES
        + &summary(
            FEW_COUNTS,
            [0, 1, 1],
            &[
                ("WRONG VERDICT", [0, 1, 1]),
                ("FORMAT", [0, 3, 1]),
                ("OPEN", [1, 1, 0]),
            ],
            false,
        );
    assert_report(&out, 1, &report);
}

#[test]
fn a_32_bit_inversion_counter_is_caught_by_the_overflow_fixture() {
    let out = grade_checker("int32", &["-fwrapv", "-DINT32_COUNTER"]);
    let report = "\
cause             WRONG VERDICT on 1 fixture: boards of 2^31 inversions or more: a 32-bit counter overflows there (count in a 64-bit type, or keep only the parity) (confirmed: with reversed boards past 2^31 inversions, 1 of 1 inputs failed so; with reversed boards just below 2^31, 0 of 1)
WRONG VERDICT     Tests/sol257_inversions_2181136127_overflow_signed_int.inp: 'unsolvable', expected 'solvable'
"
    .to_string()
        + FEW_REJECTED_OPEN
        + FEW_CHECKER_MESSAGES
        + &summary(
            FEW_COUNTS,
            [0, 1, 0],
            &[("WRONG VERDICT", [0, 1, 0]), ("OPEN", [1, 1, 0])],
            false,
        );
    assert_report(&out, 1, &report);
}

#[test]
fn exit_status_0_after_an_error_is_caught() {
    let out = grade_checker("exit-0", &["-DERROR_STATUS=0"]);
    let report = "\
WRONG EXIT STATUS Tests/bad_empty_input.inp: exit status 0 after 'Invalid input: start board: missing', expected EXIT_FAILURE (1)
WRONG EXIT STATUS Tests/bad_number_4294967297_wraps_to_1.inp: exit status 0 after 'Invalid input: start board: a tile is out of range', expected EXIT_FAILURE (1)
WRONG EXIT STATUS Tests/bad_third_line.inp: exit status 0 after 'Invalid input: goal board: something follows it', expected EXIT_FAILURE (1)
WRONG EXIT STATUS Tests/sol6_bom.inp: exit status 0 after 'Invalid input: start board: a token is neither a number nor b', expected EXIT_FAILURE (1)
"
    .to_string()
        + &summary(
            FEW_COUNTS,
            [3, 1, 0],
            &[("WRONG EXIT STATUS", [3, 1, 0])],
            false,
        );
    assert_report(&out, 1, &report);
}

#[test]
fn an_error_message_on_stderr_is_caught() {
    let out = grade_checker("stderr", &["-DERRORS_TO_STDERR"]);
    let report = "\
ERROR ON STDERR   Tests/bad_empty_input.inp: nothing on stdout (exit status 1); stderr 'Invalid input: start board: missing'
ERROR ON STDERR   Tests/bad_number_4294967297_wraps_to_1.inp: nothing on stdout (exit status 1); stderr 'Invalid input: start board: a tile is out of range'
ERROR ON STDERR   Tests/bad_third_line.inp: nothing on stdout (exit status 1); stderr 'Invalid input: goal board: something follows it'
ERROR ON STDERR   Tests/sol6_bom.inp: nothing on stdout (exit status 1); stderr 'Invalid input: start board: a token is neither a number nor b'
"
    .to_string()
        + &summary(
            FEW_COUNTS,
            [3, 1, 0],
            &[("ERROR ON STDERR", [3, 1, 0])],
            false,
        );
    assert_report(&out, 1, &report);
}

#[test]
fn boards_echoed_before_an_error_are_a_format_difference_not_an_acceptance() {
    let out = grade_checker("echo-first", &["-DECHO_FIRST"]);
    let report = "\
FORMAT            Tests/bad_number_4294967297_wraps_to_1.inp: echoed the boards before its message: 'start: 4294967297 2 3 b', then 'Invalid input: start board: a tile is out of range'
"
    .to_string()
        + FEW_REJECTED_OPEN
        + "msg               Tests/bad_empty_input.inp: Invalid input: start board: missing\n"
        + &summary(
            FEW_COUNTS,
            [0, 0, 0],
            &[("FORMAT", [1, 0, 0]), ("OPEN", [1, 1, 0])],
            false,
        );
    assert_report(&out, 0, &report);
}

/// Capitalises the verdict and misspells it, in sentences a lenient reader
/// still reads; on `sol7_no_final_newline.inp` (it starts with 43) glues the
/// verdict to the goal line, as a program that echoes the goal line without
/// its missing newline does.
const IN_OTHER_WORDS: &str = r#"input=$(cat; echo .)
out=$(printf '%s' "${input%.}" | PUZZLE)
status=$?
case $input in
43*) printf '%s\n' "$out" | awk 'NR == 2 { printf "%s", $0; next } { print }' ;;
*) printf '%s\n' "$out" | sed 's/^solvable$/The puzzle is Solvable./; s/^unsolvable$/  unsolveable!/' ;;
esac
exit $status
"#;

#[test]
fn a_lenient_reader_finds_the_verdict_in_other_words() {
    let (_desk, out) = grade_script("other-words", IN_OTHER_WORDS, 10);
    let report = "\
FORMAT            Tests/sol257_inversions_2181136127_overflow_signed_int.inp: line 3: expected 'solvable', got 'The puzzle is Solvable.' (other)
FORMAT            Tests/sol4_assignment_example.inp: line 3: expected 'solvable', got 'The puzzle is Solvable.' (other)
FORMAT            Tests/sol4_start_blank_on_last_cell_row_parity.inp: line 3: expected 'solvable', got 'The puzzle is Solvable.' (other)
FORMAT            Tests/sol7_no_final_newline.inp: line 2: expected ...'36 37 38 39 40 41 42 43 44 45 46 47 48 b', got ...'36 37 38 39 40 41 42 43 44 45 46 47 48 bsolvable' (other)
FORMAT            Tests/unsol2_tiles_swapped.inp: line 3: expected 'unsolvable', got '  unsolveable!' (other)
FORMAT            Tests/unsol6_start_blank_on_last_cell_row_parity.inp: line 3: expected 'unsolvable', got '  unsolveable!' (other)
OPEN              Tests/bad_third_line.inp: rejected it (lines after the goal): 'error: goal board: extra input after it, on line 3: '1 2 3 b''
OPEN              Tests/sol6_bom.inp: accepted it (a byte-order mark): 'solvable' (read from 'The puzzle is Solvable.')
"
    .to_string()
        + FEW_MESSAGES
        + &summary(
            FEW_COUNTS,
            [0, 0, 0],
            &[("FORMAT", [0, 4, 2]), ("OPEN", [1, 1, 0])],
            false,
        );
    assert_report(&out, 0, &report);
}

#[test]
fn extra_lines_are_a_format_difference() {
    let (_desk, out) = grade_script("extra-line", "PUZZLE && echo && echo done\n", 10);
    let sol = [
        "sol257_inversions_2181136127_overflow_signed_int.inp",
        "sol4_assignment_example.inp",
        "sol4_start_blank_on_last_cell_row_parity.inp",
        "sol7_no_final_newline.inp",
        "unsol2_tiles_swapped.inp",
        "unsol6_start_blank_on_last_cell_row_parity.inp",
    ];
    let mut report: String = sol
        .iter()
        .map(|name| {
            format!(
                "FORMAT            Tests/{name}: line 4: expected end of output, got '' (extra lines)\n"
            )
        })
        .collect();
    report += "\
OPEN              Tests/bad_third_line.inp: rejected it (lines after the goal): 'error: goal board: extra input after it, on line 3: '1 2 3 b''
OPEN              Tests/sol6_bom.inp: accepted it (a byte-order mark): 'solvable'
";
    report += FEW_MESSAGES;
    report += &summary(
        FEW_COUNTS,
        [0, 0, 0],
        &[("FORMAT", [0, 4, 2]), ("OPEN", [1, 1, 0])],
        false,
    );
    assert_report(&out, 0, &report);
}

/// A program that waits for a newline that never comes when the input does
/// not end with one, with a sleeping child; `MARK` in it is replaced by a
/// number that tells the test's processes from any other.
const HANGS_WITHOUT_FINAL_NEWLINE: &str = r#"input=$(cat; echo .)
case $input in
. | *'
.') printf '%s' "${input%.}" | PUZZLE ;;
*) sleep 600.MARK & wait ;;
esac
"#;

/// The processes whose command line holds `mark`.
fn processes_with(mark: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(cmdline) = fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let zombie = fs::read_to_string(entry.path().join("stat"))
            .is_ok_and(|stat| stat.rsplit(") ").next().unwrap_or("").starts_with('Z'));
        if !zombie && String::from_utf8_lossy(&cmdline).contains(mark) {
            found.push(name);
        }
    }
    found
}

/// Waits up to two seconds for every process with `mark` to end; kills and
/// fails on any left.
fn assert_ended(mark: &str) {
    let began = Instant::now();
    loop {
        let running = processes_with(mark);
        if running.is_empty() {
            return;
        }
        if began.elapsed() > Duration::from_secs(2) {
            // Not left for ten minutes after a failure.
            let _ = Command::new("kill").arg("-9").args(&running).status();
            panic!("processes {running:?} were still running");
        }
        sleep(Duration::from_millis(20));
    }
}

/// The hanging script, its child marked with `mark`.
fn hanging_script(desk: &Desk, mark: &str) -> PathBuf {
    desk.script("hangs", &HANGS_WITHOUT_FINAL_NEWLINE.replace("MARK", mark))
}

#[test]
fn a_hang_is_cut_at_the_time_limit_with_its_children() {
    // 2 s leaves the other runs room on a busy machine; the program would
    // sleep for 600 s.
    let began = Instant::now();
    let desk = Desk::new("hangs", &["sol7_no_final_newline.inp"]);
    let program = hanging_script(&desk, "7310571");
    let out = desk.grade(&program, &[], 2);
    assert!(began.elapsed() < Duration::from_secs(60));
    let report =
        "TIMEOUT           Tests/sol7_no_final_newline.inp: still running after 2 s; killed\n"
            .to_string()
            + &summary([0, 1, 0], [0, 1, 0], &[("TIMEOUT", [0, 1, 0])], false);
    assert_report(&out, 1, &report);
    assert_ended("600.7310571");
}

#[test]
fn the_time_limit_grows_with_the_fixture() {
    // 10 s and 60 s a MB: the 770 KB fixture may take 57 s. The program
    // sleeps a second on it, so that it is the slowest.
    let desk = Desk::new(
        "limit",
        &[
            "sol257_inversions_2181136127_overflow_signed_int.inp",
            "sol4_assignment_example.inp",
        ],
    );
    let program = desk.script(
        "slow-on-big",
        "input=$(cat)\n[ ${#input} -gt 1000 ] && sleep 1\nprintf '%s\\n' \"$input\" | PUZZLE\n",
    );
    let size =
        fs::metadata(repo().join("Tests/sol257_inversions_2181136127_overflow_signed_int.inp"))
            .unwrap()
            .len();
    let limit = 10 + (60 * size).div_ceil(1_000_000);
    assert_eq!(limit, 57);
    let out = desk
        .grade_command(&program, &[], 10)
        .env_remove("TIME_LIMIT")
        .output()
        .unwrap();
    desk.assert_clean();
    let report = String::from_utf8_lossy(&out.stdout);
    let slowest = report
        .lines()
        .find(|line| line.starts_with("slowest: "))
        .unwrap();
    assert!(
        slowest
            .starts_with("slowest: Tests/sol257_inversions_2181136127_overflow_signed_int.inp, 1.")
            && slowest.contains(" s (limit 57 s); all runs 1."),
        "{slowest}"
    );
    assert_eq!(out.status.code(), Some(0), "{report}");
}

/// Waits up to `seconds` for a process with `mark` to run.
fn wait_for(mark: &str, seconds: u64) {
    let began = Instant::now();
    while processes_with(mark).is_empty() {
        assert!(
            began.elapsed() < Duration::from_secs(seconds),
            "the hanging program did not start"
        );
        sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_interrupted_grading_leaves_nothing_behind() {
    let desk = Desk::new("interrupted", &["sol7_no_final_newline.inp"]);
    let program = hanging_script(&desk, "7310572");
    let mut child = desk
        .grade_command(&program, &[], 60)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("600.7310572", 10);
    let kill = Command::new("kill")
        .args(["-s", "TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert_ended("600.7310572");
    desk.assert_clean();
}

/// Dies of a segmentation fault on empty input.
const CRASHES_ON_EMPTY_INPUT: &str = r#"input=$(cat; echo .)
[ "$input" = . ] && kill -s SEGV $$
printf '%s' "${input%.}" | PUZZLE
"#;

#[test]
fn a_crash_is_reported_with_its_signal() {
    let desk = Desk::new(
        "crashes",
        &[
            "bad_empty_input.inp",
            "bad_number_4294967297_wraps_to_1.inp",
        ],
    );
    let program = desk.script("crashes", CRASHES_ON_EMPTY_INPUT);
    let out = desk.grade(&program, &[], 10);
    let report = "\
cause             CRASH on 1 fixture: no single cause confirmed
CRASH             Tests/bad_empty_input.inp: killed by signal 11 (SEGV)
msg               Tests/bad_number_4294967297_wraps_to_1.inp: error: start board: number 4294967297 at token 1 is too large to be a tile
"
    .to_string()
        + &summary([2, 0, 0], [1, 0, 0], &[("CRASH", [1, 0, 0])], false);
    assert_report(&out, 1, &report);
}

#[test]
fn a_flood_of_output_is_capped() {
    let desk = Desk::new(
        "floods",
        &["bad_empty_input.inp", "sol4_assignment_example.inp"],
    );
    let program = desk.script("floods", "exec yes\n");
    let out = desk.grade(&program, &[], 10);
    // Twice the fixture and 1 MiB, in whole blocks of 512 bytes (ulimit -f).
    let cap = |size: u64| (2 * size + (1 << 20)).div_ceil(512) * 512;
    let report = format!(
        "cause             CRASH on 2 fixtures: no single cause confirmed\n\
         CRASH             Tests/bad_empty_input.inp: output capped at {} bytes\n\
         CRASH             Tests/sol4_assignment_example.inp: output capped at {} bytes\n",
        cap(0),
        cap(76)
    ) + &summary([1, 1, 0], [1, 1, 0], &[("CRASH", [1, 1, 0])], false);
    assert_report(&out, 1, &report);
}

/// One fault a fixture, each the kind a marker meets, so that every other
/// report line shows once: the fixture is told by its first bytes.
const ONE_FAULT_EACH: &str = r#"input=$(cat; echo .)
out=$(printf '%s' "${input%.}" | PUZZLE)
status=$?
case $input in
.) exit 1 ;;
4294967297*) printf 'start: 1 2 3 b\ngoal: 1 2 3 b\nsolvable\n' ;;
66047*) printf '%s\n' "$out" | head -n 2; echo 'Segmentation fault' >&2; exit 1 ;;
'9 12'*) printf '%s\n' "$out"; exit 200 ;;
43*) printf '%s' "$out" ;;
'2 1'*) printf '%s\n' "$out"; echo 'warning: unused variable' >&2 ;;
*) printf '%s\n' "$out"; exit $status ;;
esac
"#;

#[test]
fn every_other_report_line_shows_what_came() {
    let (_desk, out) = grade_script("one-fault-each", ONE_FAULT_EACH, 10);
    let report = "\
cause             MISSED ERROR on 1 fixture: no single cause confirmed
cause             FALSE ERROR on 1 fixture: no single cause confirmed
MISSED ERROR      Tests/bad_number_4294967297_wraps_to_1.inp: accepted it: 'solvable' (exit status 0), expected an error
FALSE ERROR       Tests/sol257_inversions_2181136127_overflow_signed_int.inp: no verdict: 'start: 66047 66048 66046 66045 66044 66043 66042 66041 66040 66039 66038 66037 66036 66035 66034 660'... (exit status 1; stderr 'Segmentation fault'), expected 'solvable'
WRONG EXIT STATUS Tests/sol4_assignment_example.inp: exit status 200 after the verdict 'solvable', expected 0
NO MESSAGE        Tests/bad_empty_input.inp: exit status 1 and nothing on stdout or stderr
FORMAT            Tests/sol7_no_final_newline.inp: line 3: no final newline after 'solvable' (line ends)
FORMAT            Tests/unsol2_tiles_swapped.inp: stderr not empty: 'warning: unused variable'
OPEN              Tests/bad_third_line.inp: rejected it (lines after the goal): 'error: goal board: extra input after it, on line 3: '1 2 3 b''
OPEN              Tests/sol6_bom.inp: accepted it (a byte-order mark): 'solvable'
"
    .to_string()
        + &summary(
            FEW_COUNTS,
            [2, 2, 0],
            &[
                ("MISSED ERROR", [1, 0, 0]),
                ("FALSE ERROR", [0, 1, 0]),
                ("WRONG EXIT STATUS", [0, 1, 0]),
                ("NO MESSAGE", [1, 0, 0]),
                ("FORMAT", [0, 1, 1]),
                ("OPEN", [1, 1, 0]),
            ],
            false,
        );
    assert_report(&out, 1, &report);
}

#[test]
fn a_misnamed_fixture_is_not_graded() {
    let desk = Desk::new("misnamed", &[]);
    fs::write(
        desk.path().join("Tests/sol2_really_bad.inp"),
        "1 2 3 x\n1 2 3 b\n",
    )
    .unwrap();
    let out = desk.grade(&puzzle_bin(), &[], 10);
    let report = "NOT GRADED        Tests/sol2_really_bad.inp: the reference answers \
         'error: start board: token 4 'x' is neither a number nor 'b'' (exit status 1)\n"
        .to_string()
        + &summary([0, 1, 0], [0, 1, 0], &[("NOT GRADED", [0, 1, 0])], false);
    // Nothing ran: no slowest line; nothing could be marked. Not graded is
    // neither passed nor failed (but no pass: status 1).
    let report = report.replace(
        "0 passed, 1 failed",
        "score 0 of 0; lost: nothing\n0 passed, 0 failed, 1 not graded",
    );
    assert_eq!(
        without_protections(&String::from_utf8_lossy(&out.stdout)),
        report
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_bad_command_line_exits_2() {
    let desk = Desk::new("command-line", &["sol4_assignment_example.inp"]);
    let not_executable = desk.path().join("not-executable");
    fs::write(&not_executable, "").unwrap();
    let run = |command: &mut Command, message: String| {
        let out = command.output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr), message);
        assert_eq!(out.stdout, b"");
        assert_eq!(out.status.code(), Some(2));
        desk.assert_clean();
    };
    let grade = |program: &Path| desk.grade_command(program, &[], 10);
    // A missing operand: what is missing, then the mode's whole help.
    for (mode, missing) in [("grade", "PROGRAM"), ("grade-all", "SUBMISSIONS")] {
        let out = desk.testrun(mode, &[], 10).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let help = Command::new(grader_bin())
            .args([mode, "--help"])
            .output()
            .unwrap();
        assert_eq!(help.status.code(), Some(0));
        assert!(String::from_utf8_lossy(&help.stdout)
            .starts_with(&format!("Usage: puzzle-grade {mode} [OPTIONS] ")));
        assert_eq!(
            stderr,
            format!(
                "puzzle-grade {mode}: no {missing}\nTry 'puzzle-grade {mode} --help' for more information.\n"
            )
        );
        assert_eq!(out.status.code(), Some(2));
        desk.assert_clean();
    }
    run(
        &mut desk.testrun("grade-all", &[&not_executable], 10),
        format!(
            "puzzle-grade grade-all: {} is not a folder of submissions\n",
            not_executable.display()
        ),
    );
    run(
        &mut grade(&not_executable),
        format!(
            "puzzle-grade grade: {} is not an executable file\n",
            not_executable.display()
        ),
    );
    run(
        grade(&puzzle_bin()).env_remove("PUZZLE_GRADE"),
        "Testrun: ./puzzle-grade is missing: run make first\n".to_string(),
    );
    run(
        grade(&puzzle_bin()).env("PUZZLE_GRADE", "/nonexistent/puzzle-grade"),
        "Testrun: PUZZLE_GRADE=/nonexistent/puzzle-grade is not an executable file\n".to_string(),
    );
    run(
        grade(&puzzle_bin()).env("TIME_LIMIT", "1.5"),
        "puzzle-grade grade: --time-limit: should be a whole number of seconds, at least 1, but is '1.5'\nTry 'puzzle-grade grade --help' for more information.\n".to_string(),
    );
    run(
        grade(&puzzle_bin()).arg("no-such-folder"),
        "puzzle-grade grade: no-such-folder is not a folder (run it from the folder that holds Tests/)\n"
            .to_string(),
    );
}

/// Testrun's former variable `TIMEOUT` (the option `--timeout`) still
/// works, says the new name on stderr and grades as `TIME_LIMIT` does; and
/// `--version` answers.
#[test]
fn a_former_name_still_works_and_says_the_new_one() {
    let desk = Desk::new("former-name", &["sol4_assignment_example.inp"]);
    let now = desk.grade_command(&puzzle_bin(), &[], 5).output().unwrap();
    let before = desk
        .grade_command(&puzzle_bin(), &[], 5)
        .env_remove("TIME_LIMIT")
        .env("TIMEOUT", "5")
        .output()
        .unwrap();
    desk.assert_clean();
    assert_eq!(
        (now.status.code(), before.status.code()),
        (Some(0), Some(0))
    );
    assert_eq!(
        without_times(&String::from_utf8_lossy(&before.stdout)),
        without_times(&String::from_utf8_lossy(&now.stdout))
    );
    let note = "puzzle-grade grade: '--timeout' is now --time-limit (sh Testrun: TIMEOUT is now TIME_LIMIT); the old name still works\n";
    let (said_now, said_before) = (
        String::from_utf8_lossy(&now.stderr),
        String::from_utf8_lossy(&before.stderr),
    );
    // The note, then what the new name gets (the notice of the sandbox,
    // whose uids differ from grading to grading).
    assert!(said_before.starts_with(note), "{said_before}");
    assert!(!said_now.contains("is now"), "{said_now}");
    assert_eq!(said_before.lines().count(), said_now.lines().count() + 1);
    for word in ["--version", "-V"] {
        let out = Command::new(grader_bin()).arg(word).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("puzzle-grade {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

/// A submission folder: `checker.c` as `puzzle.c` with a Makefile that
/// builds it with `compiler` and `flags`.
fn submission(dir: &Path, name: &str, compiler: &str, flags: &str) {
    let folder = dir.join(name);
    fs::create_dir_all(&folder).unwrap();
    fs::copy(
        repo().join("tests/grading/checker.c"),
        folder.join("puzzle.c"),
    )
    .unwrap();
    fs::write(
        folder.join("Makefile"),
        format!("puzzle: puzzle.c\n\t{compiler} {flags} -o puzzle puzzle.c\n"),
    )
    .unwrap();
}

#[test]
fn grade_all_builds_and_grades_a_folder_of_submissions() {
    // One that builds with the course's dcc (not installed: cc stands in),
    // one that does not compile, one that hangs, one without a Makefile.
    let desk = Desk::new(
        "grade-all",
        &["bad_empty_input.inp", "sol4_assignment_example.inp"],
    );
    let submissions = desk.path().join("submissions");
    submission(&submissions, "alice", "dcc", "");
    // Bob's source does not compile: neither make nor cc builds it.
    submission(&submissions, "bob", "cc", "");
    let bob_source = submissions.join("bob/puzzle.c");
    let source = fs::read_to_string(&bob_source).unwrap();
    fs::write(&bob_source, format!("#define BROKEN\n{source}")).unwrap();
    submission(&submissions, "carol", "cc", "-DHANG");
    submission(&submissions, "dave", "cc", "-DNO_ROW_TERM");
    fs::remove_file(submissions.join("dave/Makefile")).unwrap();
    fs::write(submissions.join("notes.txt"), "not a submission\n").unwrap();
    let grades = desk.path().join("marks");
    let began = Instant::now();
    let out = desk
        .testrun("grade-all", &[&submissions], 1)
        .env("GRADES", &grades)
        .env("JOBS", "2")
        .output()
        .unwrap();
    desk.assert_clean();
    assert!(began.elapsed() < Duration::from_secs(60));
    // Stderr: the protections, then a line a submission, as each is done
    // (and, on a busy machine, what the grading says of it at its start
    // and end: tests/load.rs).
    let stderr = String::from_utf8_lossy(&out.stderr);
    let progress: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with("puzzle-grade grade-all: the machine "))
        .filter(|l| !l.starts_with("puzzle-grade grade-all: similarity: "))
        .collect();
    // After the rows, what the comparison of the class found.
    assert!(
        stderr.contains("puzzle-grade grade-all: similarity: 4 submissions compared, "),
        "{stderr}"
    );
    assert!(
        progress[0].starts_with("puzzle-grade grade-all: sandbox: "),
        "{stderr}"
    );
    assert_eq!(
        progress[1..],
        [
            "puzzle-grade grade-all: graded alice: 2 passed, 0 failed, 100 of 100 points",
            "puzzle-grade grade-all: graded bob: not built",
            "puzzle-grade grade-all: graded carol: 0 passed, 2 failed, 0 of 100 points",
            "puzzle-grade grade-all: graded dave: 2 passed, 0 failed, 100 of 100 points"
        ],
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(1));
    // Times vary: the columns after 'open' are checked by shape.
    let table = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 6, "{table}");
    assert_eq!(
        lines[0],
        format!(
            "submission built passed failed verdict missed false status stderr timeout memory procs crash ungraded format open  score    max fuzz    time slowest  {:<43}  note",
            "lost"
        )
    );
    // The marks lost, then the note, where the header puts them.
    let lost_at = lines[0].find("  lost").unwrap() + 2;
    let note_at = lines[0].find("  note").unwrap() + 2;
    let note = |line: &str| line.get(note_at..).unwrap_or("").to_string();
    // A row: the first 18 fields exactly (the counts, the score and its
    // maximum), no fuzzing, two times in seconds, what the marks were lost
    // on, the note.
    let check = |line: &str, expected: &[&str], lost: &str, note: &str| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[..18], *expected, "{table}");
        assert_eq!(fields[18], "-", "{table}");
        for time in &fields[19..21] {
            assert!(*time == "-" || time.parse::<f64>().is_ok(), "{table}");
        }
        assert_eq!(
            line[lost_at..note_at.min(line.len())].trim_end(),
            lost,
            "{table}"
        );
        assert_eq!(line.get(note_at..).unwrap_or(""), note, "{table}");
    };
    check(
        lines[1],
        &[
            "alice", "yes", "2", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
            "100", "100",
        ],
        "nothing",
        "dcc not found: built with cc -lm",
    );
    // The compiler's words differ from one compiler to the next: the note
    // quotes the first line of the log that says 'error'.
    let source = fs::read_to_string(repo().join("tests/grading/checker.c")).unwrap();
    let line = 2 + source
        .lines()
        .position(|l| l.starts_with("#error"))
        .unwrap();
    let bob_note = note(lines[2]);
    assert!(
        bob_note.starts_with(&format!("make failed: puzzle.c:{line}:"))
            && bob_note.contains("this submission does not compile"),
        "{table}"
    );
    check(
        lines[2],
        &[
            "bob", "no", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-",
            "-",
        ],
        "-",
        &bob_note,
    );
    check(
        lines[3],
        &[
            "carol", "yes", "0", "2", "0", "0", "0", "0", "0", "2", "0", "0", "0", "0", "0", "0",
            "0", "100",
        ],
        "timeout 100",
        "",
    );
    check(
        lines[4],
        &[
            "dave", "yes", "2", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
            "100", "100",
        ],
        "nothing",
        "no Makefile: built with cc -O2 -o puzzle puzzle.c -lm",
    );
    assert_eq!(
        lines[5],
        "files in marks/: to hand to each student NAME.feedback.md (or .html); for markers NAME.txt (the report) and NAME.make.txt (the build log); the class: summary.txt, summary.csv and index.html (the class page)"
    );
    // summary.txt: what was graded and how, then the table.
    let summary = fs::read_to_string(grades.join("summary.txt")).unwrap();
    let (head, table) = summary.split_once("\n\n").unwrap();
    assert!(
        head.starts_with(&format!(
            "grading of {} (4 submissions), complete\noptions: --time-limit 1 --memory 1024 --processes 64 --read-only {} --build-timeout 120\nsandbox: ",
            submissions.canonicalize().unwrap().display(),
            puzzle_bin().display()
        )),
        "{head}"
    );
    assert_eq!(
        table,
        lines[..5]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    );
    let csv = fs::read_to_string(grades.join("summary.csv")).unwrap();
    let csv: Vec<&str> = csv.lines().collect();
    assert_eq!(csv[0], "submission,built,passed,failed,wrong_verdict,missed_error,false_error,wrong_exit_status,error_on_stderr,timeout,memory_limit,process_limit,crash,format,open,score,max_score,fuzz_faults,seconds,slowest_seconds,note,lost,not_graded");
    assert!(
        csv[1].starts_with("\"alice\",yes,2,0,0,0,0,0,0,0,0,0,0,0,0,100,100,,"),
        "{}",
        csv[1]
    );
    assert!(csv[1].ends_with(",\"dcc not found: built with cc -lm\",\"nothing\",0"));
    assert_eq!(
        csv[2],
        format!(
            "\"bob\",no,,,,,,,,,,,,,,,,,,,\"{}\",,",
            bob_note.replace('"', "\"\"")
        )
    );
    assert!(csv[3].starts_with("\"carol\",yes,0,2,0,0,0,0,0,2,0,0,0,0,0,0,100,,"));
    assert_eq!(csv.len(), 5);
    // Each report is the one `grade` prints.
    let carol = fs::read_to_string(grades.join("carol.txt")).unwrap();
    let carol = without_protections(&carol);
    assert!(carol.starts_with(
        "TIMEOUT           Tests/bad_empty_input.inp: still running after 1 s; killed\n\
         TIMEOUT           Tests/sol4_assignment_example.inp: still running after 1 s; killed\n"
    ));
    assert!(carol.ends_with("0 passed, 2 failed\n"));
    assert_eq!(
        fs::read_to_string(grades.join("bob.txt")).unwrap(),
        format!("not built: {bob_note} (see bob.make.txt)\n")
    );
    assert!(fs::read_to_string(grades.join("bob.make.txt"))
        .unwrap()
        .contains("#error"));
    // The submissions are as they were: built in copies.
    assert!(!submissions.join("alice/puzzle").exists());
}

#[test]
fn an_interrupted_grade_all_leaves_nothing_behind() {
    // One submission, a script that hangs with a marked child; the grading
    // is stopped with SIGTERM while it runs.
    let desk = Desk::new("grade-all-interrupted", &["sol4_assignment_example.inp"]);
    let folder = desk.path().join("submissions/hangs");
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("hang.sh"),
        "#!/bin/sh\nsleep 600.7310573 &\nwait\n",
    )
    .unwrap();
    fs::write(
        folder.join("Makefile"),
        "puzzle: hang.sh\n\tcp hang.sh puzzle\n\tchmod +x puzzle\n",
    )
    .unwrap();
    let mut child = desk
        .testrun("grade-all", &[&desk.path().join("submissions")], 60)
        .env("GRADES", desk.path().join("marks"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("600.7310573", 20);
    let kill = Command::new("kill")
        .args(["-s", "TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert_ended("600.7310573");
    desk.assert_clean();
}

#[test]
fn grade_all_stops_each_hostile_submission_and_names_what_stopped_it() {
    // The hostile programs of tests/sandbox, each a submission of its own
    // (puzzle.c, no Makefile), graded on one fixture; a daemon in a new
    // session among them. Each row names the limit that stopped it, and no
    // process of the grading is left.
    let desk = Desk::new("hostile", &["sol4_assignment_example.inp"]);
    let submissions = desk.path().join("submissions");
    for (name, source) in [
        ("daemon", "daemon.c"),
        ("fork_bomb", "children.c"),
        ("ignores_term", "ignore_term.c"),
        ("memory_hog", "memory.c"),
        ("prints_forever", "print_forever.c"),
    ] {
        let folder = submissions.join(name);
        fs::create_dir_all(&folder).unwrap();
        fs::copy(
            common::crate_dir().join("tests/sandbox").join(source),
            folder.join("puzzle.c"),
        )
        .unwrap();
    }
    // 10 s: the memory cgroup takes about 2 s to stop the hog on a quiet
    // machine, more on a busy one. No failure run again (--confirm 0): each
    // is the program's own, and the one that ignores SIGTERM would take its
    // 10 s twice (tests/flaky.rs and regrading.rs test confirming).
    let out = desk
        .testrun("grade-all", &[&submissions], 10)
        .env("GRADES", desk.path().join("marks"))
        .env("CONFIRM", "0")
        .output()
        .unwrap();
    desk.assert_clean();
    let table = String::from_utf8_lossy(&out.stdout);
    let column = |name: &str, column: &str| -> String {
        let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
        let at = header.iter().position(|h| *h == column).unwrap();
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row {name} in\n{table}"));
        row.split_whitespace().nth(at).unwrap().to_string()
    };
    assert_eq!(column("daemon", "false"), "1", "{table}");
    assert_eq!(column("fork_bomb", "procs"), "1", "{table}");
    assert_eq!(column("ignores_term", "timeout"), "1", "{table}");
    assert_eq!(column("memory_hog", "memory"), "1", "{table}");
    assert_eq!(column("prints_forever", "crash"), "1", "{table}");
    assert_eq!(out.status.code(), Some(1));
    // Every run's processes were under the grading's temporary folder.
    let temp = desk.path().join("tmp");
    assert_ended(&temp.display().to_string());
    let report = fs::read_to_string(desk.path().join("marks/memory_hog.txt")).unwrap();
    assert!(
        report.contains("MEMORY LIMIT      Tests/sol4_assignment_example.inp: stopped by the memory limit (1024 MiB of resident memory, "),
        "{report}"
    );
}

#[test]
fn grade_all_can_fuzz_each_program_and_count_what_it_found() {
    // A checker that forgets the blank's row: the fuzzer finds it on a
    // small board and shrinks it to 2x2; the right checker yields nothing.
    let desk = Desk::new("fuzzed", &["sol4_assignment_example.inp"]);
    let submissions = desk.path().join("submissions");
    submission(&submissions, "norow", "cc", "-DNO_ROW_TERM");
    submission(&submissions, "right", "cc", "");
    let grades = desk.path().join("marks");
    let out = desk
        .testrun("grade-all", &[&submissions], 10)
        .env("GRADES", &grades)
        .env("FUZZ", "2")
        .output()
        .unwrap();
    desk.assert_clean();
    let table = String::from_utf8_lossy(&out.stdout);
    let fuzz_column = |name: &str| {
        let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
        let at = header.iter().position(|h| *h == "fuzz").unwrap();
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        row.split_whitespace().nth(at).unwrap().to_string()
    };
    assert_eq!(fuzz_column("norow"), "1", "{table}");
    assert_eq!(fuzz_column("right"), "0", "{table}");
    let report = fs::read_to_string(grades.join("norow.txt")).unwrap();
    assert!(report.contains("sol_2x2_wrong_verdict.inp"), "{report}");
    assert!(report.ends_with("1 passed, 0 failed\n"), "{report}");
    assert!(grades
        .join("norow.fuzz/sol_2x2_wrong_verdict.inp")
        .is_file());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("graded norow: 1 passed, 0 failed, 80 of 80 points, 1 found by fuzzing"),
        "{stderr}"
    );
}

#[test]
fn grade_and_grade_all_give_a_program_the_same_marks_causes_and_report() {
    // A checker that forgets the blank's row, graded by each mode with a
    // budget and fuzzing asked for as long as the budget: each grades the
    // fixtures, confirms the causes, then fuzzes in what is left (`grade`
    // once fuzzed first, for all its seconds, and then had no budget left
    // to confirm the cause: "no single cause confirmed").
    let desk = Desk::new("one-way", &FEW);
    let program = desk.checker("norow", &["-DNO_ROW_TERM"]);
    let submissions = desk.path().join("submissions");
    submission(&submissions, "norow", "cc", "-DNO_ROW_TERM");
    let grades = desk.path().join("marks");
    let with_budget = |mut command: Command| {
        command.env("BUDGET", "15").env("FUZZ", "15");
        command.output().unwrap()
    };
    let one = std::thread::scope(|s| {
        let one = s.spawn(|| with_budget(desk.grade_command(&program, &[], 10)));
        let mut all = desk.testrun("grade-all", &[&submissions], 10);
        all.env("GRADES", &grades);
        let all = with_budget(all);
        assert_eq!(
            all.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&all.stderr)
        );
        one.join().unwrap()
    });
    desk.assert_clean();
    assert_eq!(
        one.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    let by_grade = String::from_utf8(one.stdout).unwrap();
    let by_grade_all = fs::read_to_string(grades.join("norow.txt")).unwrap();
    // The same report, line for line, but for what varies from run to run
    // or names a mode's own paths: the protections' line, the `slowest:`
    // line and the fuzzer's transcript.
    let comparable = |report: &str| -> Vec<String> {
        let mut lines = Vec::new();
        let mut in_transcript = false;
        for line in without_protections(report).lines() {
            if line.starts_with("fuzz: ") {
                in_transcript = true;
            } else if in_transcript {
                in_transcript =
                    !(line.contains(" found in ") || line.starts_with("no disagreement in "));
            } else if !line.starts_with("slowest: ") {
                lines.push(line.to_string());
            }
        }
        lines
    };
    assert_eq!(
        comparable(&by_grade),
        comparable(&by_grade_all),
        "grade:\n{by_grade}\ngrade-all:\n{by_grade_all}"
    );
    // The cause confirmed, and the marks, in both.
    let cause = comparable(&by_grade)
        .into_iter()
        .find(|l| l.starts_with("cause "))
        .unwrap_or_default();
    assert!(
        cause.contains("the blank's row is not counted") && cause.contains("(confirmed: with "),
        "{by_grade}"
    );
    assert!(
        by_grade.contains("\nscore 79 of 100; lost: wrong verdict 21\n"),
        "{by_grade}"
    );
    // The fuzzing ran in each, within the budget, and found the same fault.
    for report in [&by_grade, &by_grade_all] {
        let seconds: u64 = report
            .lines()
            .find_map(|l| l.strip_prefix("fuzz: "))
            .and_then(|l| l.split(" for ").last())
            .and_then(|l| l.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no fuzzing in\n{report}"));
        assert!(
            seconds < 15,
            "fuzzed {seconds} s of a 15 s budget:\n{report}"
        );
    }
    let cases = |dir: PathBuf| -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        cases(desk.path().join("fuzz-found")),
        ["sol_2x2_wrong_verdict.inp"]
    );
    assert_eq!(
        cases(grades.join("norow.fuzz")),
        ["sol_2x2_wrong_verdict.inp"]
    );
}

#[test]
fn grade_all_unpacks_submissions_as_handed_in_in_the_sandbox() {
    // A zip of a folder ass1/, a .tar.gz made by tar, a folder whose sources
    // are in a subfolder, and a .tar.gz that unpacks to 80 MiB of zeros.
    let desk = Desk::new("handed-in", &["sol4_assignment_example.inp"]);
    let subs = desk.path().join("submissions");
    let checker = fs::read(repo().join("tests/grading/checker.c")).unwrap();
    let makefile = b"puzzle: puzzle.c\n\tcc -o puzzle puzzle.c\n";
    fs::create_dir_all(subs.join("zipped")).unwrap();
    fs::write(
        subs.join("zipped/submission.zip"),
        common::stored_zip(&[("ass1/puzzle.c", &checker), ("ass1/Makefile", makefile)]),
    )
    .unwrap();
    submission(&desk.path().join("plain"), "src", "cc", "");
    fs::create_dir_all(subs.join("tarred")).unwrap();
    let tarred = Command::new("tar")
        .args(["-czf"])
        .arg(subs.join("tarred/work.tar.gz"))
        .args(["-C"])
        .arg(desk.path().join("plain/src"))
        .args(["puzzle.c", "Makefile"])
        .status()
        .unwrap();
    assert!(tarred.success());
    submission(&subs.join("nested"), "ass1", "cc", "");
    fs::create_dir_all(subs.join("bomb")).unwrap();
    let bomb = Command::new("sh")
        .arg("-c")
        .arg("head -c 83886080 /dev/zero | gzip -1 > \"$0\"")
        .arg(subs.join("bomb/bomb.tar.gz"))
        .status()
        .unwrap();
    assert!(bomb.success());
    let grades = desk.path().join("marks");
    let out = desk
        .testrun("grade-all", &[&subs], 10)
        .env("GRADES", &grades)
        .output()
        .unwrap();
    desk.assert_clean();
    let table = String::from_utf8_lossy(&out.stdout);
    // The note, where the header puts it (after what the marks were
    // lost on).
    let note_at = table.lines().next().unwrap().find("  note").unwrap() + 2;
    let note = |name: &str| -> String {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row {name} in\n{table}"));
        row.get(note_at..).unwrap_or("").to_string()
    };
    assert_eq!(
        note("zipped"),
        "unpacked submission.zip; sources in ass1/",
        "{table}"
    );
    assert_eq!(note("tarred"), "unpacked work.tar.gz", "{table}");
    assert_eq!(note("nested"), "sources in ass1/", "{table}");
    // The table cuts the note at 100 characters; the CSV has it whole.
    let csv = fs::read_to_string(grades.join("summary.csv")).unwrap();
    assert!(
        csv.contains("\"bomb.tar.gz not unpacked: it unpacked to more than 64 MiB\""),
        "{csv}"
    );
    for name in ["zipped", "tarred", "nested"] {
        let report = fs::read_to_string(grades.join(format!("{name}.txt"))).unwrap();
        assert!(report.ends_with("1 passed, 0 failed\n"), "{name}: {report}");
    }
    // The submissions are as they were handed in.
    let left: Vec<_> = fs::read_dir(subs.join("zipped")).unwrap().collect();
    assert_eq!(left.len(), 1);
}
