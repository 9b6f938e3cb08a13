//! `sh Testrun` as students run it: the assignment's modes `1`, `2` and `3`
//! (smallest fixture first, long lines cut on a terminal only), the list of
//! modes, and `korf`, which turns the benchmark listings into puzzle pairs.
//! (`check` is in `tests/cli.rs`, `grade` and `grade-all` in `tests/grade.rs`.)

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn puzzle_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("puzzle")
}

/// `sh Testrun ARGS...` in the repository, with the cargo-built binary.
fn testrun(args: &[&str]) -> Output {
    Command::new("sh")
        .arg("Testrun")
        .args(args)
        .current_dir(root())
        .env("PUZZLE", puzzle_bin())
        .output()
        .unwrap()
}

/// The fixtures of `Tests/` whose names start with `prefix`, smallest first
/// (then by name).
fn fixtures_by_size(prefix: &str) -> Vec<(u64, String)> {
    let mut found: Vec<(u64, String)> = fs::read_dir(root().join("Tests"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_str().unwrap().starts_with(prefix))
        .map(|e| {
            (
                e.metadata().unwrap().len(),
                format!("Tests/{}", e.file_name().to_str().unwrap()),
            )
        })
        .collect();
    found.sort();
    found
}

#[test]
fn an_unknown_mode_is_named_with_the_nearest_then_the_list() {
    for (word, said) in [
        (
            "gradeall",
            "Testrun: unknown mode 'gradeall' (did you mean grade-all?)\n",
        ),
        (
            "Grade_All",
            "Testrun: unknown mode 'Grade_All' (did you mean grade-all?)\n",
        ),
        (
            "chekc",
            "Testrun: unknown mode 'chekc' (did you mean check?)\n",
        ),
        ("4", "Testrun: unknown mode '4'\n"),
        ("frobnicate", "Testrun: unknown mode 'frobnicate'\n"),
    ] {
        let out = testrun(&[word]);
        assert_eq!(out.status.code(), Some(2), "{word}");
        assert_eq!(out.stdout, b"");
        let text = String::from_utf8(out.stderr).unwrap();
        assert!(
            text.starts_with(said) && text[said.len()..].starts_with("Usage: sh Testrun MODE"),
            "{text}"
        );
    }
}

#[test]
fn no_mode_lists_every_mode_and_exits_2() {
    for args in [&[][..], &["--help"]] {
        let out = testrun(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(out.stdout, b"");
        let text = String::from_utf8(out.stderr).unwrap();
        assert!(
            text.starts_with("Usage: sh Testrun MODE [ARGS]\n"),
            "{text}"
        );
        for mode in [
            "\n  1 ",
            "\n  2 ",
            "\n  3 ",
            "\n  check ",
            "\n  grade ",
            "\n  grade-all ",
            "\n  open ",
            "\n  korf ",
        ] {
            assert!(text.contains(mode), "{mode:?} missing from\n{text}");
        }
    }
}

#[test]
fn the_assignment_modes_take_the_smallest_fixtures_first_and_keep_every_byte() {
    for (mode, prefix) in [("1", "bad"), ("2", "sol"), ("3", "unsol")] {
        let out = testrun(&[mode]);
        assert_eq!(out.status.code(), Some(0));
        // Piped, the output is the assignment's: each header, then all that
        // ./puzzle prints on the fixture.
        let mut expected = Vec::new();
        for (_, fixture) in fixtures_by_size(prefix) {
            expected.extend_from_slice(
                format!("================= {fixture} ==================\n").as_bytes(),
            );
            let answer = Command::new(puzzle_bin())
                .stdin(fs::File::open(root().join(&fixture)).unwrap())
                .output()
                .unwrap();
            expected.extend_from_slice(&answer.stdout);
        }
        assert!(expected.len() > 1000);
        assert!(out.stdout == expected, "sh Testrun {mode}");
    }
}

#[test]
fn on_a_terminal_long_lines_are_cut_with_their_length() {
    // script(1) gives the run a terminal.
    let out = Command::new("script")
        .args(["-qc", "sh Testrun 2", "/dev/null"])
        .current_dir(root())
        .env("PUZZLE", puzzle_bin())
        .output()
        .unwrap_or_else(|e| panic!("script(1) from util-linux does not run: {e}"));
    assert_eq!(out.status.code(), Some(0));
    let shown = String::from_utf8(out.stdout).unwrap().replace("\r\n", "\n");
    let piped = String::from_utf8(testrun(&["2"]).stdout).unwrap();
    assert_eq!(shown.lines().count(), piped.lines().count());
    let mut cut = 0;
    for (shown, full) in shown.lines().zip(piped.lines()) {
        if full.len() > 200 {
            assert_eq!(shown, format!("{}... ({} bytes)", &full[..200], full.len()));
            cut += 1;
        } else {
            assert_eq!(shown, full);
        }
    }
    assert!(cut >= 10, "{cut} lines cut");
    assert!(shown.len() < piped.len() / 20);
}

#[test]
fn korf_turns_the_benchmark_listings_into_pairs_puzzle_reads() {
    for (file, instances, side) in [("data/korf100.txt", 100, 4), ("data/korf24.txt", 50, 5)] {
        let out = testrun(&["korf", file]);
        assert_eq!(out.status.code(), Some(0));
        let pairs = String::from_utf8(out.stdout).unwrap();
        let listing = fs::read_to_string(root().join(file)).unwrap();
        let goal = std::iter::once("b".to_string())
            .chain((1..side * side).map(|t| t.to_string()))
            .collect::<Vec<_>>()
            .join(" ");
        let mut expected = String::new();
        for line in listing
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let tiles: Vec<&str> = line.split_whitespace().skip(2).collect();
            assert_eq!(tiles.len(), side * side);
            let start: Vec<&str> = tiles
                .iter()
                .map(|&t| if t == "0" { "b" } else { t })
                .collect();
            expected += &format!("{}\n{goal}\n", start.join(" "));
        }
        assert_eq!(pairs, expected);
        assert_eq!(pairs.lines().count(), 2 * instances);
        let checked = Command::new(puzzle_bin())
            .arg("--batch")
            .arg("-")
            .stdin(fs::File::open(root().join(file)).unwrap())
            .output()
            .unwrap();
        // The listing itself is no input (ids, lengths, 0 for the blank)...
        assert_eq!(checked.status.code(), Some(1));
        // ...its pairs are: every instance is solvable.
        let mut batch = Command::new(puzzle_bin())
            .arg("--batch")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = batch.stdin.take().unwrap();
        std::thread::spawn(move || {
            use std::io::Write;
            stdin.write_all(pairs.as_bytes()).unwrap();
        });
        let answers = batch.wait_with_output().unwrap();
        assert_eq!(answers.status.code(), Some(0));
        let text = String::from_utf8(answers.stdout).unwrap();
        assert_eq!(text.lines().filter(|l| *l == "solvable").count(), instances);
    }
    let out = testrun(&["korf"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "usage: sh Testrun korf FILE (such as data/korf100.txt)\n"
    );
}
