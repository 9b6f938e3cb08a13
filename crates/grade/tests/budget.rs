//! A time budget that always leaves a result (issue 35, item 4): after
//! `--max-timeouts K` timeouts, or once `--budget S` is spent, the fixtures
//! left are NOT RUN (failed, and named); Gradescope's entry point fits its
//! platform's 10 minutes under half a core with a program that hangs on
//! every fixture; and `grade-all` killed at any moment leaves every JSON
//! file it wrote valid. Every run of a submission's grading is one budget
//! (issue 50, items 1 and 4): the experiments' and the fuzzing's runs are
//! held by `--budget` and `--max-timeouts` and timed in the row, and a
//! repeat or a confirmation the budget cut is left out of its fixture's
//! runs.

use crate::common;

use common::{grader_bin, repo, skip, Scratch};
use puzzle_grade::Json;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A scratch folder of its own with `Tests/` holding `fixtures`.
fn scratch(name: &str, fixtures: &[&str]) -> Scratch {
    Scratch::new(&format!("budget-{name}")).with_fixtures(fixtures)
}

/// A submission in `dir` whose Makefile makes a program that never ends.
fn hanging_submission(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("Makefile"),
        "puzzle:\n\tprintf '#!/bin/sh\\nexec sleep 1000\\n' > puzzle\n\tchmod +x puzzle\n",
    )
    .unwrap();
}

const FIVE: [&str; 5] = common::FIVE_FIXTURES;

#[test]
fn after_k_timeouts_the_other_fixtures_are_not_run_and_named() {
    let dir = scratch("max-timeouts", &FIVE);
    let program = dir.join("hang");
    fs::write(&program, "#!/bin/sh\nexec sleep 1000\n").unwrap();
    fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
    let grade = |more: &[&str]| {
        let began = Instant::now();
        let base = [
            "grade",
            "--time-limit",
            "1",
            "--jobs",
            "1",
            "--max-timeouts",
            "2",
        ];
        let program = [program.to_str().unwrap()];
        let out = common::grade_failing(&dir, &[&base[..], more, &program].concat());
        let report = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(report.ends_with("0 passed, 5 failed\n"), "{report}");
        (report, began.elapsed())
    };
    let counted = |report: &str, timeouts: usize| {
        assert_eq!(
            report.matches("\nTIMEOUT           Tests/").count(),
            timeouts,
            "{report}"
        );
        assert_eq!(
            report
                .matches(": not run: 2 runs had timed out before it (--max-timeouts 2)")
                .count(),
            5 - timeouts,
            "{report}"
        );
    };
    // Unconfirmed: two fixtures' runs time out, the smallest first (the
    // 0-byte and the 16-byte ones), the larger ones not run.
    let (report, elapsed) = grade(&["--confirm", "0"]);
    counted(&report, 2);
    for small in ["bad_empty_input.inp", "unsol2_tiles_swapped.inp"] {
        assert!(
            report.contains(&format!("\nTIMEOUT           Tests/{small}: ")),
            "{report}"
        );
    }
    assert!(elapsed < Duration::from_secs(6), "{elapsed:?}");
    // A confirmation is a run, and its timeout counts: the first fixture's
    // two runs reach the cap.
    let (report, elapsed) = grade(&[]);
    counted(&report, 1);
    assert!(
        report.contains("\nTIMEOUT           Tests/bad_empty_input.inp: "),
        "{report}"
    );
    assert!(elapsed < Duration::from_secs(6), "{elapsed:?}");
}

#[test]
fn a_spent_budget_leaves_the_rest_not_run_and_the_grading_within_it() {
    let dir = scratch("budget", &FIVE);
    hanging_submission(&dir.join("subs/hangs"));
    let began = Instant::now();
    let args = [
        "grade-all",
        "subs",
        "--time-limit",
        "10",
        "--jobs",
        "1",
        "--budget",
        "3",
    ];
    common::grade_failing(&dir, &args);
    let elapsed = began.elapsed();
    assert!(elapsed < Duration::from_secs(8), "{elapsed:?}");
    let report = fs::read_to_string(dir.join("grades/hangs.txt")).unwrap();
    let not_run = report
        .matches(": not run: the submission's time budget (3 s, --budget) was spent")
        .count();
    assert_eq!(not_run, 5, "{report}");
    let feedback = fs::read_to_string(dir.join("grades/hangs.feedback.md")).unwrap();
    assert!(feedback.contains("NOT RUN"), "{feedback}");
    let csv = fs::read_to_string(dir.join("grades/summary.csv")).unwrap();
    // The timeout column counts the NOT RUN fixtures.
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("\"hangs\",yes,0,5,0,0,0,0,0,5,"),
        "{csv}"
    );
}

/// A cgroup with half a core (a CFS quota of 50 ms every 100 ms) that this
/// process may put a command in, or why there is none.
struct HalfCore(PathBuf);

impl HalfCore {
    fn make() -> Result<HalfCore, String> {
        let name = format!("puzzle-budget-test-{}", std::process::id());
        let v1 = Path::new("/sys/fs/cgroup/cpu");
        if v1.join("cpu.cfs_quota_us").exists() {
            let dir = v1.join(&name);
            fs::create_dir(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
            fs::write(dir.join("cpu.cfs_period_us"), "100000")
                .and_then(|()| fs::write(dir.join("cpu.cfs_quota_us"), "50000"))
                .map_err(|e| format!("cannot set the quota: {e}"))?;
            return Ok(HalfCore(dir));
        }
        let v2 = Path::new("/sys/fs/cgroup");
        let controllers = fs::read_to_string(v2.join("cgroup.subtree_control")).unwrap_or_default();
        if controllers.split_whitespace().any(|c| c == "cpu") {
            let dir = v2.join(&name);
            fs::create_dir(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
            fs::write(dir.join("cpu.max"), "50000 100000")
                .map_err(|e| format!("cannot set cpu.max: {e}"))?;
            return Ok(HalfCore(dir));
        }
        Err("no cgroup cpu controller this process can use (cgroup v1 cpu, or v2 with cpu delegated)".into())
    }
}

impl Drop for HalfCore {
    fn drop(&mut self) {
        let _ = fs::remove_dir(&self.0);
    }
}

#[test]
fn gradescopes_entry_point_leaves_results_within_its_ten_minutes_under_half_a_core() {
    let half = match HalfCore::make() {
        Ok(half) => half,
        Err(why) => return skip(&format!("no half-core cgroup: {why}")),
    };
    let platform = Scratch::new("budget-gradescope");
    hanging_submission(&platform.join("submission"));
    let began = Instant::now();
    // The whole entry point in the cgroup (it and everything it starts).
    // Each run at most 1 s (TIMEOUT), so that the test takes seconds: with
    // the default limits (10 s + 60 s a MB, and the first fixtures are
    // 770 KB boards) it took 162 s here, the same way.
    let out = Command::new("sh")
        .arg("-c")
        .arg("echo $$ > \"$1/cgroup.procs\" && exec sh \"$2\"")
        .arg("sh")
        .arg(&half.0)
        .arg(repo().join("examples/gradescope/run_autograder"))
        .env("AUTOGRADER", &platform)
        .env("PUZZLE_REPO", repo())
        .env("PUZZLE_GRADE", grader_bin())
        .env("TIME_LIMIT", "1")
        .output()
        .unwrap();
    let elapsed = began.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("Gradescope's entry point, a program that hangs, half a core: {elapsed:?}");
    assert!(elapsed < Duration::from_secs(600), "{elapsed:?}");
    let results = fs::read_to_string(platform.join("results/results.json")).unwrap();
    let results = Json::parse(&results).unwrap();
    let tests = results.get("tests").and_then(Json::as_array).unwrap();
    assert!(tests.len() > 80, "{}", tests.len());
    let output = |t: &Json| {
        t.get("output")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string()
    };
    // MAX_TIMEOUTS=3 runs: the first fixture's and its confirmation's,
    // then the second fixture's (unconfirmed: no other run starts).
    assert_eq!(
        tests
            .iter()
            .filter(|t| output(t).starts_with("TIMEOUT"))
            .count(),
        2
    );
    assert_eq!(
        tests
            .iter()
            .filter(|t| output(t).starts_with("NOT RUN"))
            .count(),
        tests.len() - 2
    );
    let feedback = results.get("output").and_then(Json::as_str).unwrap();
    assert!(feedback.contains("NOT RUN"), "{feedback}");
}

/// Every `.json` file under `dir` and every line of every `.jsonl` file,
/// read: the first that is not JSON.
fn first_invalid_json(dir: &Path) -> Option<String> {
    for entry in fs::read_dir(dir).ok()? {
        let path = entry.ok()?.path();
        let name = path.display().to_string();
        if name.ends_with(".json") {
            let text = fs::read_to_string(&path).ok()?;
            if let Err(e) = Json::parse(&text) {
                return Some(format!("{name}: {e}"));
            }
        } else if name.ends_with(".jsonl") {
            let text = fs::read_to_string(&path).ok()?;
            for line in text.lines() {
                if let Err(e) = Json::parse(line) {
                    return Some(format!("{name}: {e}"));
                }
            }
        }
    }
    None
}

#[test]
fn grade_all_killed_at_any_moment_leaves_valid_json() {
    let dir = scratch("killed", &FIVE);
    let checker = fs::read_to_string(repo().join("tests/grading/checker.c")).unwrap();
    for (name, prelude) in [
        ("ann", ""),
        ("bob", "#define NO_ROW_TERM\n"),
        ("cat", "#define ERRORS_TO_STDERR\n"),
        ("dan", ""),
    ] {
        let folder = dir.join("subs").join(name);
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("puzzle.c"), format!("{prelude}{checker}")).unwrap();
    }
    for delay in [50u64, 250, 500, 800, 1200, 1700] {
        let mut child = Command::new(grader_bin())
            .args(["grade-all", "subs", "--time-limit", "5", "--jobs", "2"])
            .args(["--format", "gradescope,prairielearn,junit"])
            .current_dir(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        let _ = child.kill();
        let _ = child.wait();
        if let Some(bad) = first_invalid_json(&dir.join("grades")) {
            panic!("killed after {delay} ms: {bad}");
        }
    }
    // What a killed grading left is resumed to the end.
    common::grade_failing(
        &dir,
        &[
            "grade-all",
            "subs",
            "--time-limit",
            "5",
            "--resume",
            "--format",
            "gradescope,prairielearn,junit",
        ],
    );
    let summary = fs::read_to_string(dir.join("grades/summary.txt")).unwrap();
    assert!(summary.contains("(4 submissions), complete"), "{summary}");
}

/// A submission in `dir` that answers `solvable` at once to each of
/// `fixtures` (known by their `cksum`) and hangs on any other input: on the
/// inputs the experiments and the fuzzer make.
fn hangs_on_made_inputs(dir: &Path, fixtures: &Path) {
    let mut sums = Vec::new();
    for entry in fs::read_dir(fixtures).unwrap() {
        let out = Command::new("cksum")
            .stdin(fs::File::open(entry.unwrap().path()).unwrap())
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        sums.push(text.split_whitespace().next().unwrap().to_string());
    }
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("hang.sh"),
        format!(
            "#!/bin/sh\nsum=$(cksum | cut -d' ' -f1)\ncase \" {} \" in\n*\" $sum \"*) echo solvable; exit 0 ;;\nesac\nexec sleep 1000\n",
            sums.join(" ")
        ),
    )
    .unwrap();
    fs::write(
        dir.join("Makefile"),
        "puzzle: hang.sh\n\tcp hang.sh puzzle\n\tchmod +x puzzle\n",
    )
    .unwrap();
}

#[test]
fn the_experiments_and_the_fuzzing_are_held_by_the_budget_and_the_cap_and_timed() {
    // Wrong on three fixtures at once, so that experiments try causes; it
    // hangs on every input they and the fuzzer make. Their runs are runs of
    // the submission: the cap on timeouts stops them after one, the budget
    // cuts them, and the row's time is theirs too.
    let dir = scratch("made-inputs", &FIVE);
    hangs_on_made_inputs(&dir.join("subs/hangs"), &dir.join("Tests"));
    let grade = |args: &[&str], grades: &str| {
        let began = Instant::now();
        let base = [
            "grade-all",
            "subs",
            "--jobs",
            "1",
            "--fuzz",
            "30",
            "--grades",
            grades,
        ];
        common::grade_failing(&dir, &[&base[..], args].concat());
        let report = fs::read_to_string(dir.join(grades).join("hangs.txt")).unwrap();
        let csv = fs::read_to_string(dir.join(grades).join("summary.csv")).unwrap();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
        let at = header.iter().position(|h| *h == "seconds").unwrap();
        let seconds: f64 = row[at].parse().unwrap();
        (began.elapsed(), report, seconds)
    };
    // --max-timeouts 1: one run of 2 s timed out, then no other started.
    let (took, report, seconds) = grade(&["--time-limit", "2", "--max-timeouts", "1"], "capped");
    assert!(took < Duration::from_secs(12), "{took:?}\n{report}");
    assert!((2.0..4.0).contains(&seconds), "{seconds}\n{report}");
    assert!(report.contains("MISSED ERROR"), "{report}");
    // --budget 4 with runs of up to 10 s: within the budget, cut to it.
    let (took, report, seconds) = grade(&["--time-limit", "10", "--budget", "4"], "budgeted");
    assert!(took < Duration::from_secs(9), "{took:?}\n{report}");
    assert!((2.0..=4.5).contains(&seconds), "{seconds}\n{report}");
}

/// `grade` with `args` in `dir` on `program` (a shell script's text),
/// `Tests/` holding one solvable fixture: its report and exit status.
fn graded_once_more(dir: &Path, program: &str, args: &[&str]) -> (String, Option<i32>) {
    let path = dir.join("program");
    fs::write(&path, program).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    let out = common::grader(
        dir,
        &[&["grade"][..], args, &[path.to_str().unwrap()]].concat(),
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
    )
}

/// The time of all runs a report gives (`all runs 2.00 s`).
fn all_runs(report: &str) -> f64 {
    report
        .split("; all runs ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no time of all runs: {report}"))
}

#[test]
fn a_repeat_or_a_confirmation_the_budget_cuts_is_left_out_of_its_fixtures_runs() {
    let fixture = "sol4_assignment_example.inp";
    let dir = scratch("cut-runs", &[fixture]);
    let right = Command::new(common::puzzle_bin())
        .stdin(fs::File::open(dir.join("Tests").join(fixture)).unwrap())
        .output()
        .unwrap()
        .stdout;
    let right = String::from_utf8(right).unwrap();
    // Right after 1.2 s a run, three runs asked for, 2 s of budget: the
    // first passes, the second is cut (it says nothing of the program),
    // the third never starts. Passed: not NOT RUN, not FLAKY.
    let slow = format!("#!/bin/sh\ncat > /dev/null\nsleep 1.2\ncat <<'END'\n{right}END\n");
    let (report, status) = graded_once_more(
        &dir,
        &slow,
        &["--time-limit", "10", "--repeat", "3", "--budget", "2"],
    );
    assert_eq!(status, Some(0), "{report}");
    assert!(report.ends_with("1 passed, 0 failed\n"), "{report}");
    assert!(!report.contains("FLAKY"), "{report}");
    assert!(report.contains("; lost: nothing"), "{report}");
    // Its time is both runs', the one cut too.
    assert!((1.5..2.6).contains(&all_runs(&report)), "{report}");
    // A timeout (1 s) whose confirmation the budget (2 s) cuts: the
    // timeout stands as it was, unconfirmed, neither NOT RUN nor FLAKY.
    let (report, status) = graded_once_more(
        &dir,
        "#!/bin/sh\nexec sleep 1000\n",
        &["--time-limit", "1", "--budget", "2"],
    );
    assert_eq!(status, Some(1), "{report}");
    assert!(
        report.contains(&format!("\nTIMEOUT           Tests/{fixture}: ")),
        "{report}"
    );
    let left_out =
        |l: &str| l.contains("FLAKY") || l.starts_with("NOT RUN  ") && l.contains("Tests/");
    assert!(!report.lines().any(left_out), "{report}");
    // Its time is both runs', the one cut too.
    assert!((1.5..2.6).contains(&all_runs(&report)), "{report}");
}
