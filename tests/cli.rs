//! The real `puzzle` binary, driven the way a grader drives it: every `Tests/`
//! fixture and every peer test, each fault kind with its message, and the
//! failure paths (a full disk, a closed pipe, a directory as input, a bad
//! command line).

use assert_cmd::Command;
use predicates::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

fn puzzle() -> Command {
    Command::cargo_bin("puzzle").expect("the puzzle binary is built")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The answer a fixture's name promises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Category {
    Bad,
    Solvable,
    Unsolvable,
}

fn category(path: &Path) -> Option<Category> {
    let name = path.file_name()?.to_str()?;
    if name.starts_with("bad") {
        Some(Category::Bad)
    } else if name.starts_with("unsol") {
        Some(Category::Unsolvable)
    } else if name.starts_with("sol") {
        Some(Category::Solvable)
    } else {
        None
    }
}

/// The contract's echo of a board line, worked out here independently of the
/// library: tokens split on spaces and tabs, leading zeros dropped, a byte-order
/// mark and a final `\r` ignored.
fn echo(line: &[u8]) -> String {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).expect("valid fixtures are ASCII");
    let tokens: Vec<String> = text
        .split([' ', '\t'])
        .filter(|t| !t.is_empty())
        .map(|t| {
            if t == "b" {
                t.to_string()
            } else {
                t.parse::<u64>().expect("a number").to_string()
            }
        })
        .collect();
    tokens.join(" ")
}

/// Every fixture file below `dir` (recursively) whose name says its category.
fn fixtures(dir: &Path) -> Vec<(PathBuf, Category)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).expect("a readable fixture folder") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if let Some(category) = category(&path) {
                found.push((path, category));
            }
        }
    }
    found.sort();
    found
}

/// Runs the binary on `path` and checks the whole output against the category.
fn check_fixture(path: &Path, category: Category) {
    let bytes = fs::read(path).expect("a readable fixture");
    let assert = puzzle()
        .pipe_stdin(path)
        .expect("the fixture opens")
        .assert()
        .append_context("fixture", path.display().to_string());
    match category {
        Category::Bad => {
            assert
                .code(1)
                .stderr("")
                .stdout(predicate::str::starts_with("error: "))
                .stdout(predicate::function(|out: &str| {
                    out.ends_with('\n') && out.lines().count() == 1
                }));
        }
        Category::Solvable | Category::Unsolvable => {
            let mut lines = bytes.split(|&b| b == b'\n');
            let start = echo(lines.next().expect("a start line"));
            let goal = echo(lines.next().expect("a goal line"));
            let verdict = if category == Category::Solvable {
                "solvable"
            } else {
                "unsolvable"
            };
            assert
                .code(0)
                .stderr("")
                .stdout(format!("start: {start}\ngoal: {goal}\n{verdict}\n"));
        }
    }
}

#[test]
fn every_fixture_answers_as_its_name_says() {
    let all = fixtures(&root().join("Tests"));
    let count = |c| all.iter().filter(|(_, k)| *k == c).count();
    assert!(count(Category::Bad) >= 30, "at least 30 bad fixtures");
    assert!(count(Category::Solvable) >= 15, "at least 15 sol fixtures");
    assert!(
        count(Category::Unsolvable) >= 15,
        "at least 15 unsol fixtures"
    );
    for (path, category) in all {
        check_fixture(&path, category);
    }
}

#[test]
fn every_peer_test_answers_as_its_name_says() {
    let peers = root().join("../shared/peer-tests");
    if !peers.is_dir() {
        println!("note: {} is absent; peer tests skipped", peers.display());
        return;
    }
    let all = fixtures(&peers);
    assert!(!all.is_empty(), "the peer tests folder holds fixtures");
    for (path, category) in all {
        check_fixture(&path, category);
    }
}

#[test]
fn a_file_argument_and_dash_work_like_stdin() {
    let path = root().join("Tests/sol4_assignment_example.inp");
    let expected = "start: 9 12 5 4 2 b 7 11 3 6 10 13 14 1 8 15\n\
                    goal: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 b 15\nsolvable\n";
    puzzle().arg(&path).assert().code(0).stdout(expected);
    puzzle()
        .arg("-")
        .pipe_stdin(&path)
        .unwrap()
        .assert()
        .code(0)
        .stdout(expected);
}

/// Runs the binary on `input` and expects exactly `message` as the error line.
fn rejects(input: &str, message: &str) {
    puzzle()
        .write_stdin(input)
        .assert()
        .code(1)
        .stderr("")
        .stdout(format!("error: {message}\n"));
}

#[test]
fn rejects_empty_lines_and_missing_boards() {
    rejects("", "start board: the line is empty");
    rejects("\n\n", "start board: the line is empty");
    rejects(" \t\r\n1 2 3 b\n", "start board: the line is empty");
    rejects(
        "1 2 3 b\n",
        "goal board: missing: the input ends after the start board",
    );
    rejects("1 2 3 b\n\n", "goal board: the line is empty");
    rejects("1 2 3 b\n \t\r\n", "goal board: the line is empty");
    rejects(
        "1 2 3 b",
        "goal board: missing: the input ends after the start board",
    );
}

#[test]
fn rejects_invalid_tokens_naming_them() {
    rejects(
        "1 2 3 b\n1 2 3 x\n",
        "goal board: token 4 'x' is neither a number nor 'b'",
    );
    rejects(
        "-1 2 3 b\n1 2 3 b\n",
        "start board: token 1 '-1' is neither a number nor 'b'",
    );
    rejects(
        "+1 2 3 b\n1 2 3 b\n",
        "start board: token 1 '+1' is neither a number nor 'b'",
    );
    rejects(
        "1 2 3b\n1 2 3 b\n",
        "start board: token 3 '3b' is neither a number nor 'b'",
    );
    rejects(
        "1 2 3 B\n1 2 3 b\n",
        "start board: token 4 'B' is neither a number nor 'b'",
    );
    rejects(
        "1 2 \u{0663} b\n1 2 3 b\n",
        "start board: token 3 '\\xd9\\xa3' is neither a number nor 'b'",
    );
    rejects(
        "1 2 3 b\r\r\n1 2 3 b\n",
        "start board: token 4 'b\\r' is neither a number nor 'b'",
    );
}

#[test]
fn rejects_numbers_out_of_range_naming_them() {
    rejects(
        "1 2 3 b\nb 2 1 9\n",
        "goal board: tile 9 at token 4 is out of range 1..3 for a 2x2 board",
    );
    rejects(
        "0 1 2 b\n1 2 3 b\n",
        "start board: tile 0 at token 1 is out of range: tiles are numbered from 1 (the blank is written 'b')",
    );
    rejects(
        "4294967297 1 2 b\n1 2 3 b\n",
        "start board: number 4294967297 at token 1 is too large to be a tile",
    );
    rejects(
        "18446744073709551617 1 2 b\n1 2 3 b\n",
        "start board: number 18446744073709551617 at token 1 is too large to be a tile",
    );
    rejects(
        "1 2 3 4 5 6 7 8 b\n1 2 3 4 5 6 7 9 b\n",
        "goal board: tile 9 at token 8 is out of range 1..8 for a 3x3 board",
    );
}

#[test]
fn rejects_repeats_blanks_and_shapes() {
    rejects(
        "1 2 3 b\n1 2 1 b\n",
        "goal board: tile 1 appears twice (tokens 1 and 3)",
    );
    rejects(
        "1 b 3 b\n1 2 3 b\n",
        "start board: a second blank 'b' at token 4 (the first is token 2)",
    );
    rejects(
        "1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 8 b\n",
        "start board: there is no blank 'b'",
    );
    rejects(
        "1 2 3 4 5 b\n1 2 3 4 5 b\n",
        "start board: 6 tokens do not make a square board (2x2 needs 4, 3x3 needs 9); a board is one line with all its tiles, not one row a line",
    );
    rejects(
        "1 2 3\n1 2 3\n",
        "start board: 3 tokens do not make a square board (the smallest, 2x2, needs 4); a board is one line with all its tiles, not one row a line",
    );
    rejects(
        "b\nb\n",
        "start board: 1 token makes a 1x1 board, but the smallest is 2x2",
    );
}

#[test]
fn rejects_boards_of_different_sizes() {
    rejects(
        "1 2 3 4 5 6 7 8 b\n1 2 3 b\n",
        "goal board: 4 tokens make a 2x2 board, but the start board is 3x3 (9 tokens): the boards differ in size",
    );
    rejects(
        "1 2 3 b\n1 2 3 b 1\n",
        "goal board: more than 4 tokens, but the start board is 2x2: the boards differ in size",
    );
    // A goal tile too large for the start board's size is a larger goal
    // board when the line goes on past the start board's count...
    rejects(
        "1 2 3 b\n1 2 3 4 5 6 7 8 b\n",
        "goal board: more than 4 tokens, but the start board is 2x2: the boards differ in size",
    );
    // ...or a smaller one when it ends short of it...
    rejects(
        "1 2 3 4 5 6 7 8 b\n1 2 9 b\n",
        "goal board: 4 tokens make a 2x2 board, but the start board is 3x3 (9 tokens): the boards differ in size",
    );
    rejects(
        "1 2 3 4 5 6 7 8 b\n10 2 3 b 4 5\r\n",
        "goal board: 6 tokens, but the start board is 3x3 (9 tokens): the boards differ in size",
    );
    // ...and only a tile out of range when the counts agree.
    rejects(
        "1 2 3 b\n1 2 9 b\n",
        "goal board: tile 9 at token 3 is out of range 1..3 for a 2x2 board",
    );
    rejects(
        "1 2 3 b\n1 2 3 0\n",
        "goal board: tile 0 at token 4 is out of range: tiles are numbered from 1 (the blank is written 'b')",
    );
}

#[test]
fn rejects_extra_input_after_the_goal() {
    rejects(
        "1 2 3 b\n1 2 3 b\n1 2 3 b\n",
        "goal board: extra input after it, on line 3: '1 2 3 b'",
    );
    rejects(
        "1 2 3 b\n1 2 3 b\n\n \t\nx\n",
        "goal board: extra input after it, on line 5: 'x'",
    );
}

#[test]
fn accepts_what_windows_editors_write() {
    puzzle()
        .write_stdin("\u{feff}1 2 3 b\r\n1 b 3 2\r\n\r\n")
        .assert()
        .code(0)
        .stdout("start: 1 2 3 b\ngoal: 1 b 3 2\nsolvable\n");
    puzzle()
        .write_stdin("\t01 2\t3 b \n 1 2 3 b\r")
        .assert()
        .code(0)
        .stdout("start: 1 2 3 b\ngoal: 1 2 3 b\nsolvable\n");
}

#[test]
fn a_million_cell_board_is_echoed_exactly() {
    // 1000x1000: the output is compared whole with the echo computed here.
    let side = 1000;
    let out = puzzle()
        .args(["--generate", "1000", "--random-goal", "--seed", "11"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let input = out.stdout;
    let mut lines = input.split(|&b| b == b'\n');
    let (start, goal) = (lines.next().unwrap(), lines.next().unwrap());
    assert_eq!(start.split(|&b| b == b' ').count(), side * side);
    let expected = format!("start: {}\ngoal: {}\nsolvable\n", echo(start), echo(goal));
    let got = puzzle().write_stdin(input.clone()).output().unwrap();
    assert_eq!(got.status.code(), Some(0));
    assert!(
        got.stdout == expected.as_bytes(),
        "the 1000x1000 echo differs"
    );
    // With two tiles of the start swapped, the same board is unsolvable.
    let text = String::from_utf8(input).unwrap();
    let mut tokens: Vec<&str> = text.lines().next().unwrap().split(' ').collect();
    let (a, b) = if tokens[0] == "b" || tokens[1] == "b" {
        (2, 3)
    } else {
        (0, 1)
    };
    tokens.swap(a, b);
    let swapped = format!("{}\n{}\n", tokens.join(" "), text.lines().nth(1).unwrap());
    let got = puzzle().write_stdin(swapped).output().unwrap();
    assert!(got.stdout.ends_with(b"\nunsolvable\n"));
}

/// The run ended on a failed write: status 1 and the message on stderr, no panic.
fn failed_to_write(out: &std::process::Output) {
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("puzzle: cannot write the output:"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));
}

#[test]
fn a_full_disk_is_an_error_on_stderr() {
    let full = match fs::OpenOptions::new().write(true).open("/dev/full") {
        Ok(file) => file,
        Err(_) => {
            println!("note: /dev/full is absent; skipped");
            return;
        }
    };
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzle"))
        .arg(root().join("Tests/sol100_random_goal.inp"))
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    failed_to_write(&out);
}

#[test]
fn a_closed_pipe_is_an_error_on_stderr() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzle"))
        .arg(root().join("Tests/sol150_standard_goal.inp"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end before the first write: every write then fails.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    failed_to_write(&out);
}

#[test]
fn a_directory_as_input_is_an_error_on_stderr() {
    let dir = fs::File::open(root().join("Tests")).unwrap();
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzle"))
        .stdin(dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("puzzle: cannot read standard input:"),
        "{stderr}"
    );
    puzzle()
        .arg(root().join("Tests"))
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with("puzzle: cannot read"));
    puzzle()
        .arg(root().join("Tests/no such file"))
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with("puzzle: cannot open"));
}

#[test]
fn a_bad_command_line_exits_2_and_points_to_help() {
    for args in [
        &["--frobnicate"][..],
        &["-x"],
        &["--generate"],
        &["--generate", "1"],
        &["--generate", "abc"],
        &["a", "b"],
        &["--seed", "3"],
        &["--=x"],
        &["--jobs", "0"],
        &["--jobs=x"],
        &["--solve", "--cache-dir="],
        &["--solve", "--cache-dir"],
    ] {
        puzzle()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("Try 'puzzle --help'"));
    }
}

#[test]
fn help_and_version_go_to_stdout() {
    for flag in ["-h", "--help"] {
        puzzle()
            .arg(flag)
            .assert()
            .code(0)
            .stderr("")
            .stdout(predicate::str::starts_with("Usage: puzzle"))
            .stdout(predicate::str::contains("Exit status:"));
    }
    for flag in ["-V", "--version"] {
        puzzle()
            .arg(flag)
            .assert()
            .code(0)
            .stdout(format!("puzzle {}\n", env!("CARGO_PKG_VERSION")));
    }
}

#[test]
fn generated_puzzles_have_the_verdict_asked_for() {
    for (args, verdict) in [
        (&["--generate", "7", "--seed", "5"][..], "solvable"),
        (
            &["--generate", "6", "--seed", "5", "--unsolvable"],
            "unsolvable",
        ),
        (
            &["--generate", "4", "--random-goal", "--unsolvable"],
            "unsolvable",
        ),
    ] {
        let input = puzzle().args(args).output().unwrap().stdout;
        assert_eq!(input.iter().filter(|&&b| b == b'\n').count(), 2);
        puzzle()
            .write_stdin(input)
            .assert()
            .code(0)
            .stdout(predicate::str::ends_with(format!("\n{verdict}\n")));
    }
}

#[test]
fn the_repository_stands_on_its_own() {
    // Nothing the build, the tests or the README rely on may live beside the
    // repository; only the optional peer tests may be looked for there.
    let mut files = vec![
        root().join("Makefile"),
        root().join("README.md"),
        root().join("Testrun"),
    ];
    // Every source, test, bench and document, in every folder.
    let mut dirs: Vec<PathBuf> = ["src", "tests", "benches", "docs"]
        .iter()
        .map(|dir| root().join(dir))
        .collect();
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path
                .extension()
                .is_some_and(|e| ["rs", "c", "md", "txt"].iter().any(|x| e == *x))
            {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 40, "{files:?}");
    let outside = ["../", "shared"].concat();
    for path in files {
        let text = fs::read_to_string(&path).unwrap();
        for (number, line) in text.lines().enumerate() {
            if line.contains(&outside) && !line.contains("peer-tests") {
                panic!("{}:{}: {line}", path.display(), number + 1);
            }
        }
    }
}

/// `puzzle --explain` (and `extra` options) on `input`: its whole stdout.
fn explained(input: &str, extra: &[&str]) -> String {
    let out = puzzle()
        .arg("--explain")
        .args(extra)
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn explain_shows_the_tutorials_2x2_examples() {
    // The tutorial: the start board 3 2 / _ 1 has disorder 2+1+2+0 = 5, odd;
    // the goal 1 2 / 3 _ has 0+0+0+2 = 2, even: unsolvable. The start board
    // _ 1 / 3 2 has 1+0+1+0 = 2, even: solvable.
    assert_eq!(
        explained("3 2 b 1\n1 2 3 b\n", &[]),
        "\
start: 3 2 b 1
goal: 1 2 3 b
unsolvable
a tile's disorder: how many lower-numbered tiles come after it, row by row
start board, 2x2: tile disorders 3:2 2:1 1:0, sum 3
  even side, so the blank's row counts: row 2; disorder 3 + 2 = 5, odd
goal board, 2x2: tile disorders 1:0 2:0 3:0, sum 0
  even side, so the blank's row counts: row 2; disorder 0 + 2 = 2, even
the goal can be reached iff both disorders have the same parity: odd and even, unsolvable
"
    );
    assert_eq!(
        explained("b 1 3 2\n1 2 3 b\n", &[]),
        "\
start: b 1 3 2
goal: 1 2 3 b
solvable
a tile's disorder: how many lower-numbered tiles come after it, row by row
start board, 2x2: tile disorders 1:0 3:1 2:0, sum 1
  even side, so the blank's row counts: row 1; disorder 1 + 1 = 2, even
goal board, 2x2: tile disorders 1:0 2:0 3:0, sum 0
  even side, so the blank's row counts: row 2; disorder 0 + 2 = 2, even
the goal can be reached iff both disorders have the same parity: both even, solvable
"
    );
}

#[test]
fn explain_shows_the_tutorials_3x3_example() {
    // The tutorial: 8 7 6 / 5 4 3 / 2 1 _ has disorder 7+6+5+4+3+2+1+0 = 28.
    assert_eq!(
        explained("8 7 6 5 4 3 2 1 b\n1 2 3 4 5 6 7 8 b\n", &[]),
        "\
start: 8 7 6 5 4 3 2 1 b
goal: 1 2 3 4 5 6 7 8 b
solvable
a tile's disorder: how many lower-numbered tiles come after it, row by row
start board, 3x3: tile disorders 8:7 7:6 6:5 5:4 4:3 3:2 2:1 1:0, sum 28
  odd side, so the blank's row (row 3) does not count; disorder 28, even
goal board, 3x3: tile disorders 1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0, sum 0
  odd side, so the blank's row (row 3) does not count; disorder 0, even
the goal can be reached iff both disorders have the same parity: both even, solvable
"
    );
}

#[test]
fn explain_sums_up_a_large_board_exactly() {
    // The fixture's name gives its start board's inversions, past 2^31.
    let input = fs::read_to_string(
        root().join("Tests/sol257_inversions_2181136127_overflow_signed_int.inp"),
    )
    .unwrap();
    let text = explained(&input, &[]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    assert!(lines[4].starts_with("start board, 257x257: tile disorders "));
    assert!(
        lines[4].ends_with(" and 66032 more, sum 2181136127"),
        "{}",
        lines[4]
    );
    // 16 tiles shown, each `tile:disorder`.
    let shown = lines[4]["start board, 257x257: tile disorders ".len()..]
        .split(" and ")
        .next()
        .unwrap();
    assert_eq!(shown.split(' ').count(), 16);
    assert_eq!(
        lines[5],
        "  odd side, so the blank's row (row 257) does not count; disorder 2181136127, odd"
    );
    assert_eq!(
        lines[8],
        "the goal can be reached iff both disorders have the same parity: both odd, solvable"
    );
}

#[test]
fn explain_comes_after_the_verdict_and_before_a_solution_in_batches_too() {
    let text = explained("3 2 b 1\n1 2 3 b\n", &["--solve"]);
    assert!(text.starts_with("start: 3 2 b 1\ngoal: 1 2 3 b\nunsolvable\na tile's"));
    let text = explained("1 2 3 b\n1 2 b 3\n", &["--solve"]);
    assert!(
        text.ends_with("both even, solvable\nmoves: 1 (shortest)\nsolution: R\n"),
        "{text}"
    );
    let batch = explained("1 2 3 b\n1 2 b 3\n\n3 2 b 1\n1 2 3 b\n", &["--batch"]);
    assert_eq!(batch.matches("a tile's disorder").count(), 2);
    assert_eq!(batch.lines().count(), 2 * 9);
}
