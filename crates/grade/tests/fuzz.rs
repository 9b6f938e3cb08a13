//! `puzzle-grade fuzz`, driven on the real binary: each way of breaking
//! `tests/grading/checker.c` that real submissions share is found and shrunk
//! to a minimal case of the expected shape, and correct programs (the checker
//! as it is, and `puzzle` itself) yield none.
//!
//! Each run is short (`--seconds`, a fixed `--seed`), so that the whole file
//! takes well under a minute on two cores; the one-minute runs the issue asks
//! for are `long_runs_find_nothing_in_correct_programs`, ignored by default:
//! `cargo test -p puzzle-grade --test integration fuzz:: -- --ignored`.

use crate::common;

use common::{grader_bin, puzzle_bin, repo, Scratch};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

/// The fuzz runs are bounded by time: one at a time, so that each gets the
/// machine to itself and finds what it finds in the time.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// One test's fuzzing: a scratch folder of its own (removed at the end)
/// for the programs and the cases found.
struct Fuzzing(Scratch);

impl Fuzzing {
    fn new(name: &str) -> Fuzzing {
        Fuzzing(Scratch::new(&format!("fuzz-{name}")))
    }

    /// checker.c built with `flags`.
    fn checker(&self, name: &str, flags: &[&str]) -> PathBuf {
        let source = repo().join("tests/grading/checker.c");
        let exe = self.0.join(name);
        let built = Command::new("cc")
            .args(flags)
            .arg("-o")
            .arg(&exe)
            .arg(&source)
            .output()
            .unwrap_or_else(|e| panic!("cc does not run ({e}): the fuzz tests build C programs"));
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
        exe
    }

    /// `puzzle-grade fuzz` on `program` for `inputs` inputs (a count, the
    /// same however busy the machine; the seconds only a backstop), its
    /// cases in `found/`.
    fn fuzz(&self, program: &Path, inputs: u32, seed: u32) -> Output {
        let _turn = one_at_a_time();
        Command::new(grader_bin())
            .current_dir(&self.0)
            .args(["fuzz", "--seed", &seed.to_string()])
            .args(["--inputs", &inputs.to_string(), "--fuzz", "900"])
            .args(["--into", "found"])
            .arg(program)
            .output()
            .unwrap()
    }

    /// The minimal cases written: (file name, bytes).
    fn found(&self) -> Vec<(String, Vec<u8>)> {
        let Ok(entries) = fs::read_dir(self.0.join("found")) else {
            return Vec::new();
        };
        let mut found: Vec<(String, Vec<u8>)> = entries
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        found.sort();
        found
    }
}

/// The one minimal case of a run that found a fault: its name and lines.
fn one_case(fuzzing: &Fuzzing, ran: &Output) -> (String, Vec<String>) {
    let report = String::from_utf8_lossy(&ran.stdout);
    assert_eq!(ran.status.code(), Some(1), "{report}");
    let found = fuzzing.found();
    assert_eq!(found.len(), 1, "{report}");
    let (name, bytes) = &found[0];
    let lines = String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_string)
        .collect();
    (name.clone(), lines)
}

fn tokens(line: &str) -> Vec<&str> {
    line.split([' ', '\t']).filter(|t| !t.is_empty()).collect()
}

#[test]
fn forgetting_the_blank_row_shrinks_to_a_2x2_board() {
    let s = Fuzzing::new("norow");
    let program = s.checker("norow", &["-O2", "-DNO_ROW_TERM"]);
    let ran = s.fuzz(&program, 100, 1);
    let (name, lines) = one_case(&s, &ran);
    assert!(name.ends_with("_2x2_wrong_verdict.inp"), "{name}");
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| tokens(l).len() == 4), "{lines:?}");
    let report = String::from_utf8_lossy(&ran.stdout);
    assert!(report.contains("WRONG VERDICT     found/"), "{report}");
    assert!(report.contains("  explain   a tile's disorder"), "{report}");
    assert!(report.contains("even side, so the blank's row counts"));
}

#[test]
fn a_1024_byte_line_buffer_shrinks_to_a_line_just_past_it() {
    let s = Fuzzing::new("buffer");
    let program = s.checker("buffer", &["-O2", "-DFIXED_BUFFER"]);
    let (name, lines) = one_case(&s, &s.fuzz(&program, 100, 1));
    assert!(name.ends_with("_2x2_false_error.inp"), "{name}");
    let longest = lines.iter().map(String::len).max().unwrap();
    // fgets into 1,024 bytes cuts a line of 1,023 bytes and its newline.
    assert_eq!(longest, 1023, "{lines:?}");
}

#[test]
fn an_int_counter_shrinks_to_the_smallest_side_past_two_to_the_31() {
    let s = Fuzzing::new("int32");
    // -O0 -fwrapv: the count wraps as an unoptimised build's does.
    let program = s.checker("int32", &["-O0", "-fwrapv", "-DINT32_COUNTER"]);
    let (name, lines) = one_case(&s, &s.fuzz(&program, 40, 1));
    assert!(name.ends_with("_257x257_wrong_verdict.inp"), "{name}");
    assert_eq!(tokens(&lines[0]).len(), 257 * 257);
}

#[test]
fn an_accepted_duplicate_shrinks_to_a_2x2_board_with_a_tile_twice() {
    let s = Fuzzing::new("duplicate");
    let program = s.checker("duplicate", &["-O2", "-DACCEPT_DUPLICATE"]);
    let (name, lines) = one_case(&s, &s.fuzz(&program, 100, 1));
    assert!(name.starts_with("bad_2x2_missed_error"), "{name}");
    let twice = lines.iter().any(|l| {
        let t = tokens(l);
        (0..t.len()).any(|i| t[i + 1..].contains(&t[i]))
    });
    assert!(twice, "{lines:?}");
}

#[test]
fn rejected_tabs_shrink_to_one_tab_on_a_2x2_board() {
    let s = Fuzzing::new("tabs");
    let program = s.checker("tabs", &["-O2", "-DREJECT_TABS"]);
    let (name, lines) = one_case(&s, &s.fuzz(&program, 100, 1));
    assert!(name.ends_with("_2x2_false_error.inp"), "{name}");
    let tabs: usize = lines.iter().map(|l| l.matches('\t').count()).sum();
    assert_eq!(tabs, 1, "{lines:?}");
}

#[test]
fn a_blank_missed_at_the_end_of_a_line_shrinks_to_a_2x2_board_ending_in_b() {
    let s = Fuzzing::new("blanklast");
    let program = s.checker("blanklast", &["-O2", "-DBLANK_LAST"]);
    let (name, lines) = one_case(&s, &s.fuzz(&program, 100, 1));
    assert!(name.ends_with("_2x2_false_error.inp"), "{name}");
    assert!(lines.iter().any(|l| l.ends_with(" b")), "{lines:?}");
}

#[test]
fn exit_0_after_an_error_shrinks_to_the_smallest_bad_input() {
    let s = Fuzzing::new("exit0");
    let program = s.checker("exit0", &["-O2", "-DERROR_STATUS=0"]);
    let ran = s.fuzz(&program, 100, 1);
    let (name, lines) = one_case(&s, &ran);
    assert!(name.starts_with("bad_"), "{name}");
    assert!(name.ends_with("wrong_exit_status.inp"), "{name}");
    assert!(lines.iter().all(|l| tokens(l).len() <= 4), "{lines:?}");
    let report = String::from_utf8_lossy(&ran.stdout);
    assert!(report.contains("(exit status 0)"), "{report}");
}

#[test]
fn correct_programs_yield_nothing() {
    let s = Fuzzing::new("correct");
    let puzzle = puzzle_bin();
    for program in [s.checker("exact", &["-O2"]), puzzle] {
        let ran = s.fuzz(&program, 100, 2);
        let report = String::from_utf8_lossy(&ran.stdout);
        assert_eq!(ran.status.code(), Some(0), "{report}");
        assert!(report.contains("no disagreement in "), "{report}");
        assert!(s.found().is_empty());
    }
}

#[test]
fn a_bad_command_line_is_status_2() {
    let s = Fuzzing::new("usage");
    for args in [
        &["fuzz"][..],
        &["fuzz", "--seconds", "x", "p"],
        &["fuzz", "nowhere"],
    ] {
        let ran = Command::new(grader_bin())
            .current_dir(&s.0)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(ran.status.code(), Some(2), "{args:?}");
        assert!(ran.stdout.is_empty());
        assert!(!ran.stderr.is_empty());
    }
}

/// A minute each on the checker and on `puzzle`, as the issue asks: run by
/// hand (`cargo test -p puzzle-grade --test integration fuzz:: -- --ignored`), two minutes.
#[test]
#[ignore]
fn long_runs_find_nothing_in_correct_programs() {
    let s = Fuzzing::new("long");
    let puzzle = puzzle_bin();
    for program in [s.checker("exact", &["-O2"]), puzzle] {
        let ran = s.fuzz(&program, 3000, 3);
        let report = String::from_utf8_lossy(&ran.stdout);
        assert_eq!(ran.status.code(), Some(0), "{report}");
    }
}
