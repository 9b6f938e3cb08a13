//! `sh Testrun grade`, driven on the real binary: `puzzle` graded against
//! itself passes every fixture, and each deliberately broken program is caught
//! with the report line a marker needs.
//!
//! The broken programs are built here. Four are shell scripts around the real
//! binary: one capitalises `Solvable`, one prints an extra line, one hangs
//! (with a sleeping child) when the goal line lacks its final newline, one
//! dies of SIGSEGV on empty input; a fifth floods its output with `yes`, and a
//! sixth has one fault a fixture, to show the other report lines. The
//! seventh is `examples/int32_counter.rs`, a whole checker whose inversion
//! counter is a signed 32-bit int, compiled here with the toolchain's `rustc`
//! (a test cannot ask cargo to build an example: cargo holds its lock while
//! tests run). Each grading runs in a scratch folder whose `Tests/` holds a
//! few fixtures, with `PUZZLE` naming the cargo-built reference and `TMPDIR`
//! a folder that must be empty again when the grading ends.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn puzzle_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("puzzle")
}

/// The fixtures the broken programs are graded on: two bad, four good, among
/// them the 32-bit overflow.
const FEW: [&str; 6] = [
    "bad_empty_input.inp",
    "bad_number_4294967297_wraps_to_1.inp",
    "sol257_inversions_2181136127_overflow_signed_int.inp",
    "sol4_assignment_example.inp",
    "sol7_no_final_newline.inp",
    "unsol2_tiles_swapped.inp",
];

/// What grading `puzzle` itself prints for the bad fixtures of `FEW`.
const FEW_MESSAGES: &str = "\
msg  Tests/bad_empty_input.inp: error: start board: the line is empty
msg  Tests/bad_number_4294967297_wraps_to_1.inp: error: start board: number 4294967297 at token 1 is too large to be a tile
";

/// A folder of its own for one test, removed when the test ends. `Tests/`
/// holds copies of the named fixtures, `tmp/` is the grading's `TMPDIR`.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str, fixtures: &[&str]) -> Scratch {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("grade-{name}"));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("Tests")).unwrap();
        fs::create_dir_all(dir.join("tmp")).unwrap();
        for fixture in fixtures {
            fs::copy(
                root().join("Tests").join(fixture),
                dir.join("Tests").join(fixture),
            )
            .unwrap();
        }
        Scratch(dir)
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

    /// `sh Testrun grade PROGRAM DIRS...` run here, with a `TIMEOUT`.
    fn grade_command(&self, program: &Path, dirs: &[&Path], timeout: u32) -> Command {
        let mut command = Command::new("sh");
        command
            .arg(root().join("Testrun"))
            .arg("grade")
            .arg(program)
            .args(dirs)
            .current_dir(&self.0)
            .env("PUZZLE", puzzle_bin())
            .env("TIMEOUT", timeout.to_string())
            .env("TMPDIR", self.0.join("tmp"));
        command
    }

    /// Grades `program` and checks that nothing is left in `TMPDIR`.
    fn grade(&self, program: &Path, dirs: &[&Path], timeout: u32) -> Output {
        let out = self.grade_command(program, dirs, timeout).output().unwrap();
        self.assert_clean();
        out
    }

    fn assert_clean(&self) {
        let left: Vec<_> = fs::read_dir(self.0.join("tmp")).unwrap().collect();
        assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Grades the shell script `body`, as program `name`, on the fixtures of
/// `FEW`.
fn grade_script(name: &str, body: &str, timeout: u32) -> (Scratch, Output) {
    let scratch = Scratch::new(name, &FEW);
    let program = scratch.script(name, body);
    let out = scratch.grade(&program, &[], timeout);
    (scratch, out)
}

/// The report's last four lines, for passed/failed counts of bad, sol, unsol.
fn summary(counts: [(usize, usize); 3]) -> String {
    let mut text = "category passed failed\n".to_string();
    for (name, (passed, failed)) in ["bad", "sol", "unsol"].iter().zip(counts) {
        text += &format!("{name:<8} {passed:>6} {failed:>6}\n");
    }
    let passed: usize = counts.iter().map(|c| c.0).sum();
    let failed: usize = counts.iter().map(|c| c.1).sum();
    text + &format!("{passed} passed, {failed} failed\n")
}

/// Checks a grading's exit status and whole report, with nothing on stderr.
fn assert_report(out: &Output, status: i32, report: &str) {
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(String::from_utf8_lossy(&out.stdout), report);
    assert_eq!(out.status.code(), Some(status));
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

/// Every fixture file below `dir`, by the path `find` prints for it.
fn fixtures(dir: &Path, shown_as: &str, found: &mut Vec<(String, PathBuf)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let shown_path = format!("{shown_as}/{name}");
        if path.is_dir() {
            fixtures(&path, &shown_path, found);
        } else if ["bad", "sol", "unsol"].iter().any(|p| name.starts_with(p)) {
            found.push((shown_path, path));
        }
    }
}

#[test]
fn grading_puzzle_itself_passes_every_fixture() {
    // Graded in the repository, on all of Tests/, with the scratch TMPDIR.
    let scratch = Scratch::new("itself", &[]);
    let mut found = Vec::new();
    fixtures(&root().join("Tests"), "Tests", &mut found);
    let peers = root().join("../shared/peer-tests");
    let mut dirs = Vec::new();
    if peers.is_dir() {
        fixtures(&peers, &peers.display().to_string(), &mut found);
        dirs.push(peers.as_path());
    } else {
        println!("note: {} is absent; peer tests not graded", peers.display());
    }
    found.sort();
    let mut report = String::new();
    let mut counts = [(0, 0); 3];
    for (shown_path, path) in &found {
        let name = path.file_name().unwrap().to_str().unwrap();
        let category = if name.starts_with("bad") {
            0
        } else if name.starts_with("sol") {
            1
        } else {
            2
        };
        counts[category].0 += 1;
        if category == 0 {
            let out = Command::new(puzzle_bin())
                .stdin(fs::File::open(path).unwrap())
                .output()
                .unwrap();
            let line = out.stdout.strip_suffix(b"\n").unwrap();
            report += &format!("msg  {shown_path}: {}\n", shown(line));
        }
    }
    report += &summary(counts);
    assert!(counts.iter().all(|c| c.0 >= 15), "{counts:?}");
    let out = scratch
        .grade_command(&puzzle_bin(), &dirs, 10)
        .current_dir(root())
        .output()
        .unwrap();
    scratch.assert_clean();
    assert_report(&out, 0, &report);
}

/// Capitalises the verdict.
const CAPITALISES: &str = r#"out=$(PUZZLE)
status=$?
printf '%s\n' "$out" | sed 's/^solvable$/Solvable/'
exit $status
"#;

#[test]
fn a_capitalised_verdict_is_caught() {
    let (_scratch, out) = grade_script("capitalises", CAPITALISES, 10);
    let report = FEW_MESSAGES.to_string()
        + "\
FAIL Tests/sol257_inversions_2181136127_overflow_signed_int.inp: line 3: expected 'solvable', got 'Solvable'
FAIL Tests/sol4_assignment_example.inp: line 3: expected 'solvable', got 'Solvable'
FAIL Tests/sol7_no_final_newline.inp: line 3: expected 'solvable', got 'Solvable'
" + &summary([(2, 0), (0, 3), (1, 0)]);
    assert_report(&out, 1, &report);
}

#[test]
fn an_extra_line_is_caught() {
    let (_scratch, out) = grade_script("extra-line", "PUZZLE && echo done\n", 10);
    let report = FEW_MESSAGES.to_string()
        + "\
FAIL Tests/sol257_inversions_2181136127_overflow_signed_int.inp: line 4: expected end of output, got 'done'
FAIL Tests/sol4_assignment_example.inp: line 4: expected end of output, got 'done'
FAIL Tests/sol7_no_final_newline.inp: line 4: expected end of output, got 'done'
FAIL Tests/unsol2_tiles_swapped.inp: line 4: expected end of output, got 'done'
" + &summary([(2, 0), (0, 3), (0, 1)]);
    assert_report(&out, 1, &report);
}

/// A program that waits for a newline that never comes when the input does
/// not end with one, with a sleeping child; it writes both ids to `pids`.
const HANGS_WITHOUT_FINAL_NEWLINE: &str = r#"input=$(cat; echo .)
case $input in
. | *'
.') printf '%s' "${input%.}" | PUZZLE ;;
*) echo $$ >> pids; sleep 600 & echo $! >> pids; wait ;;
esac
"#;

/// Whether process `pid` has ended (a zombie has ended too), waiting up to
/// two seconds for it.
fn ended(pid: &str) -> bool {
    let began = Instant::now();
    loop {
        match fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(stat) if stat.rsplit(") ").next().unwrap().starts_with('Z') => return true,
            Ok(_) if began.elapsed() > Duration::from_secs(2) => return false,
            Ok(_) => sleep(Duration::from_millis(20)),
        }
    }
}

fn assert_ended(pids: &Path) {
    let pids = fs::read_to_string(pids).unwrap();
    assert_eq!(pids.lines().count(), 2, "the hanging program and its child");
    let running: Vec<&str> = pids.lines().filter(|pid| !ended(pid)).collect();
    if !running.is_empty() {
        // Not left for ten minutes after a failure.
        let _ = Command::new("kill").args(&running).status();
        panic!("processes {running:?} were still running");
    }
}

#[test]
fn a_hang_is_cut_at_the_time_limit_with_its_children() {
    // 2 s leaves the other runs room on a busy machine; the program would
    // sleep for 600 s.
    let began = Instant::now();
    let (scratch, out) = grade_script("hangs", HANGS_WITHOUT_FINAL_NEWLINE, 2);
    assert!(began.elapsed() < Duration::from_secs(60));
    let report = FEW_MESSAGES.to_string()
        + "FAIL Tests/sol7_no_final_newline.inp: timed out after 2 s\n"
        + &summary([(2, 0), (2, 1), (1, 0)]);
    assert_report(&out, 1, &report);
    assert_ended(&scratch.path().join("pids"));
}

#[test]
fn an_interrupted_grading_leaves_nothing_behind() {
    let scratch = Scratch::new("interrupted", &FEW);
    let program = scratch.script("hangs", HANGS_WITHOUT_FINAL_NEWLINE);
    let pids = scratch.path().join("pids");
    let mut child = scratch
        .grade_command(&program, &[], 60)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while fs::read_to_string(&pids).map_or(0, |p| p.lines().count()) < 2 {
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "the hanging program did not start"
        );
        sleep(Duration::from_millis(20));
    }
    let kill = Command::new("kill")
        .args(["-s", "TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert_ended(&pids);
    scratch.assert_clean();
}

/// Dies of a segmentation fault on empty input.
const CRASHES_ON_EMPTY_INPUT: &str = r#"input=$(cat; echo .)
[ "$input" = . ] && kill -s SEGV $$
printf '%s' "${input%.}" | PUZZLE
"#;

#[test]
fn a_crash_is_reported_with_its_signal() {
    let (_scratch, out) = grade_script("crashes", CRASHES_ON_EMPTY_INPUT, 10);
    let report = "\
FAIL Tests/bad_empty_input.inp: killed by signal 11 (SEGV)
msg  Tests/bad_number_4294967297_wraps_to_1.inp: error: start board: number 4294967297 at token 1 is too large to be a tile
"
    .to_string()
        + &summary([(1, 1), (3, 0), (1, 0)]);
    assert_report(&out, 1, &report);
}

#[test]
fn a_flood_of_output_is_capped() {
    let scratch = Scratch::new(
        "floods",
        &["bad_empty_input.inp", "sol4_assignment_example.inp"],
    );
    let program = scratch.script("floods", "exec yes\n");
    let out = scratch.grade(&program, &[], 10);
    // Twice the fixture and 1 MiB, in whole blocks of 512 bytes (ulimit -f).
    let cap = |size: u64| (2 * size + (1 << 20)).div_ceil(512) * 512;
    let report = format!(
        "FAIL Tests/bad_empty_input.inp: output capped at {} bytes\n\
         FAIL Tests/sol4_assignment_example.inp: output capped at {} bytes\n",
        cap(0),
        cap(76)
    ) + &summary([(0, 1), (0, 1), (0, 0)]);
    assert_report(&out, 1, &report);
}

#[test]
fn a_32_bit_inversion_counter_is_caught_by_the_overflow_fixture() {
    let scratch = Scratch::new("int32", &FEW);
    let program = scratch.path().join("int32_counter");
    let rustc = std::env::var_os("RUSTC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO")).with_file_name("rustc"));
    let built = Command::new(&rustc)
        .args(["--edition", "2021", "-o"])
        .arg(&program)
        .arg(root().join("examples/int32_counter.rs"))
        .output()
        .unwrap_or_else(|err| panic!("{} does not run: {err}", rustc.display()));
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let out = scratch.grade(&program, &[], 10);
    let report = "\
msg  Tests/bad_empty_input.inp: error: the start board is missing
msg  Tests/bad_number_4294967297_wraps_to_1.inp: error: start board: 4294967297 is too large
FAIL Tests/sol257_inversions_2181136127_overflow_signed_int.inp: line 3: expected 'solvable', got 'unsolvable'
"
    .to_string()
        + &summary([(2, 0), (2, 1), (1, 0)]);
    assert_report(&out, 1, &report);
}

/// One fault a fixture, each the kind a marker meets, so that every other
/// report line shows once: the fixture is told by its first bytes.
const ONE_FAULT_EACH: &str = r#"input=$(cat; echo .)
out=$(printf '%s' "${input%.}" | PUZZLE)
case $input in
.) printf '%s\n' "$out"; exit 0 ;;
4294967297*) printf 'start: 1 2 3 b\ngoal: 1 2 3 b\nsolvable\n' ;;
66047*) printf '%s\n' "$out" | head -n 2; echo 'Segmentation fault' >&2; exit 1 ;;
'9 12'*) printf '%s\n' "$out"; exit 200 ;;
43*) printf '%s' "$out" ;;
'2 1'*) printf '%s\n' "$out"; echo 'warning: unused variable' >&2 ;;
esac
"#;

#[test]
fn every_other_report_line_shows_what_came() {
    let (_scratch, out) = grade_script("one-fault-each", ONE_FAULT_EACH, 10);
    let report = "\
FAIL Tests/bad_empty_input.inp: exit status 0 after 'error: start board: the line is empty', expected 1
FAIL Tests/bad_number_4294967297_wraps_to_1.inp: line 1: expected 'error: ...', got 'start: 1 2 3 b'
FAIL Tests/sol257_inversions_2181136127_overflow_signed_int.inp: line 3: expected 'solvable', got end of output; stderr 'Segmentation fault'
FAIL Tests/sol4_assignment_example.inp: exit status 200, expected 0
FAIL Tests/sol7_no_final_newline.inp: line 3: no final newline after 'solvable'
FAIL Tests/unsol2_tiles_swapped.inp: stderr not empty: 'warning: unused variable'
"
    .to_string()
        + &summary([(0, 2), (0, 3), (0, 1)]);
    assert_report(&out, 1, &report);
}

#[test]
fn a_misnamed_fixture_is_not_graded() {
    let scratch = Scratch::new("misnamed", &[]);
    fs::write(
        scratch.path().join("Tests/sol2_really_bad.inp"),
        "1 2 3 x\n1 2 3 b\n",
    )
    .unwrap();
    let out = scratch.grade(&puzzle_bin(), &[], 10);
    let report = format!(
        "FAIL Tests/sol2_really_bad.inp: not graded: the reference {} answers \
         'error: start board: token 4 'x' is neither a number nor 'b'' (exit status 1)\n",
        puzzle_bin().display()
    ) + &summary([(0, 0), (0, 1), (0, 0)]);
    assert_report(&out, 1, &report);
}

#[test]
fn a_bad_command_line_exits_2() {
    let scratch = Scratch::new("command-line", &["sol4_assignment_example.inp"]);
    let not_executable = scratch.path().join("not-executable");
    fs::write(&not_executable, "").unwrap();
    let run = |command: &mut Command, message: String| {
        let out = command.output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr), message);
        assert_eq!(out.stdout, b"");
        assert_eq!(out.status.code(), Some(2));
        scratch.assert_clean();
    };
    let grade = |program: &Path| scratch.grade_command(program, &[], 10);
    let testrun = root().join("Testrun");
    run(
        Command::new("sh")
            .arg(&testrun)
            .arg("grade")
            .current_dir(scratch.path()),
        "usage: sh Testrun grade PROGRAM [DIR...]\n".to_string(),
    );
    run(
        &mut grade(&not_executable),
        format!(
            "Testrun: {} is not an executable file\n",
            not_executable.display()
        ),
    );
    run(
        grade(&puzzle_bin()).env_remove("PUZZLE"),
        "Testrun: the reference ./puzzle is missing: run make first\n".to_string(),
    );
    run(
        grade(&puzzle_bin()).env("PUZZLE", "/nonexistent/puzzle"),
        "Testrun: the reference PUZZLE=/nonexistent/puzzle is not an executable file\n".to_string(),
    );
    run(
        grade(&puzzle_bin()).env("TIMEOUT", "1.5"),
        "Testrun: TIMEOUT=1.5 is not a whole number of seconds\n".to_string(),
    );
    run(
        grade(&puzzle_bin()).arg("no-such-folder"),
        "Testrun: no-such-folder is not a folder (run Testrun from the folder that holds Tests/)\n"
            .to_string(),
    );
}
