//! A grading is one thing (issue 34, issue 36): `grade-all` writes one
//! consistent set of files for the folder it graded, whoever stops it and
//! however it is split.
//!
//! - A new grading replaces the one before it in the same grades folder
//!   (one of another folder only with `--replace`), which it keeps as
//!   `previous/`: no row, report or platform file of another folder, or of
//!   a submission no longer there, stays beside it; the marker is told.
//! - A grading stopped by SIGINT at any moment (sent to its process group,
//!   as a terminal's Ctrl-C is) exits 130, writes no file for the
//!   submission it was grading, marks its summaries incomplete, and
//!   `--resume` then makes the same files as an undisturbed grading.
//! - Shards (`--shard I/N`) merged (`puzzle-grade merge`) make the same
//!   files as one grading, for several N; a shard missing or graded twice
//!   is reported.
//!
//! "The same files" is every file of the grades folder, byte for byte, once
//! what varies from run to run is masked: times, dates, the sandbox's uids.

use crate::common;

use common::{grader_bin, Scratch};
use std::collections::BTreeMap;
use std::fs;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// A scratch folder with a few fixtures in `Tests/` and six submissions in
/// `subs/`: `tests/grading/checker.c` right and broken in several ways.
struct Class(Scratch);

const SUBMISSIONS: [(&str, &str); 6] = [
    ("ann", ""),
    ("bob", "#define NO_ROW_TERM\n"),
    ("cat", "#define BROKEN\n"),
    ("dan", "#define ERRORS_TO_STDERR\n"),
    ("eve", "#define ECHO_FIRST\n"),
    ("fay", "#define INT32_COUNTER\n"),
];

impl Class {
    fn new(name: &str) -> Class {
        Class(common::class_folder(
            &format!("gradings-{name}"),
            &common::FIVE_FIXTURES,
            &SUBMISSIONS,
        ))
    }

    /// A folder of submissions `folder`, one a (name, prelude to checker.c).
    fn submissions(&self, folder: &str, which: &[(&str, &str)]) {
        common::submissions_in(&self.0.join(folder), which);
    }

    /// `puzzle-grade grade-all` here with `args`, in a process group of
    /// its own.
    /// `grade-all` with `args`, SIGINT at its default.
    fn command(&self, args: &[&str]) -> Command {
        self.command_with(common::with_default_sigint(&grader_bin()), args)
    }

    /// `grade-all` with `args`, run by `command` (the grader, or a wrapper).
    fn command_with(&self, mut command: Command, args: &[&str]) -> Command {
        use std::os::unix::process::CommandExt;
        command
            .arg("grade-all")
            .args(["--time-limit", "5", "--jobs", "2"])
            .args(args)
            .current_dir(&self.0)
            .process_group(0);
        command
    }

    fn grade(&self, args: &[&str]) -> Output {
        let out = self.command(args).output().unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// `puzzle-grade merge` here with `args`.
    fn merge(&self, args: &[&str]) -> Output {
        common::grader(&self.0, &[&["merge"][..], args].concat())
    }

    /// Every file under `grades`, by its path there, what varies masked.
    fn files(&self, grades: &str) -> BTreeMap<String, String> {
        common::masked_files(&self.0.join(grades))
    }
}

/// The rows of `summary.csv`, by name: what was graded, and the marks.
fn rows(files: &BTreeMap<String, String>) -> Vec<String> {
    files["summary.csv"].lines().map(String::from).collect()
}

/// Sends SIGINT to the process group `pgid` (as a terminal's Ctrl-C).
fn interrupt(pgid: u32) {
    let status = Command::new("kill")
        .args(["-INT", "--", &format!("-{pgid}")])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn a_grading_replaces_the_one_before_it_and_keeps_no_ghost() {
    let class = Class::new("replace");
    class.submissions("other", &[("zed", ""), ("yan", "#define NO_ROW_TERM\n")]);
    class.grade(&["subs", "--format", "gradescope"]);
    let first = class.files("grades");
    assert!(first.contains_key("ann.gradescope.json"));
    // Another folder into the same grades folder (asked for): nothing of
    // the first beside it (it is kept in previous/).
    let out = class.grade(&["other", "--replace"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("replaces the grading of ")
            && stderr.contains("(6 submission(s)): it is kept whole in "),
        "{stderr}"
    );
    let second = class.files("grades");
    let names: Vec<&String> = second
        .keys()
        .filter(|n| !n.starts_with("previous/"))
        .collect();
    assert!(
        names
            .iter()
            .all(|n| !SUBMISSIONS.iter().any(|(s, _)| n.starts_with(s))),
        "{names:?}"
    );
    assert_eq!(rows(&second).len(), 1 + 2);
    for file in ["summary.txt", "summary.jsonl", "summary-fixtures.csv"] {
        assert!(!second[file].contains("ann"), "{file}: {}", second[file]);
    }
    assert!(second["summary.txt"].contains("/other (2 submissions), complete"));
    // A submission renamed, the grading done again: no ghost of the old name.
    fs::rename(class.0.join("other/zed"), class.0.join("other/zoe")).unwrap();
    class.grade(&["other"]);
    let third = class.files("grades");
    assert!(
        third
            .keys()
            .all(|n| !n.starts_with("zed") && !n.starts_with("previous/ann")),
        "{:?}",
        third.keys()
    );
    assert!(third.contains_key("zoe.txt"));
    assert_eq!(rows(&third).len(), 1 + 2);
    // --only on a folder graded with another: refused, nothing changed.
    let out = class.command(&["subs", "--only", "ann"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds the grading of "));
    assert_eq!(class.files("grades"), third);
    // --only after a submission left: its row and files go, and it is said.
    fs::remove_dir_all(class.0.join("other/yan")).unwrap();
    let out = class.grade(&["other", "--only", "zoe"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("removed the rows and files of 1 submission(s) no longer in ")
            && stderr.contains(": yan"),
        "{stderr}"
    );
    let fourth = class.files("grades");
    assert!(fourth.keys().all(|n| !n.starts_with("yan")));
    assert_eq!(rows(&fourth).len(), 1 + 1);
}

#[test]
fn an_interrupted_grading_writes_no_wrong_grade_and_resumes_to_the_same_files() {
    let class = Class::new("interrupt");
    class.grade(&["subs", "--grades", "whole"]);
    let whole = class.files("whole");
    // Ctrl-C at several moments: the first while the first submissions are
    // graded, later ones further on.
    let mut stopped_gradings = 0;
    for (k, delay) in [300u64, 900, 1700].into_iter().enumerate() {
        let grades = format!("stopped{k}");
        let child = class
            .command(&["subs", "--grades", &grades])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        interrupt(child.id());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(130) {
            // It ended before the signal: nothing to check at this delay.
            assert_eq!(out.status.code(), Some(1), "{stderr}");
            continue;
        }
        stopped_gradings += 1;
        assert!(
            stderr.contains("stopped by signal 2 after ")
                && stderr.contains("the same command again (or with --resume) grades the rest"),
            "{stderr}"
        );
        let stopped = class.files(&grades);
        assert!(
            stopped["summary.txt"].contains("INCOMPLETE: "),
            "{}",
            stopped["summary.txt"]
        );
        // Every file written is the undisturbed grading's file, but the
        // summaries and the class page (fewer rows); no file of an
        // unfinished submission.
        let graded: Vec<&str> = SUBMISSIONS
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| stopped.contains_key(&format!("{n}.txt")))
            .collect();
        for (name, text) in &stopped {
            if name.starts_with("summary") || name == "grading.json" || name == "index.html" {
                continue;
            }
            assert_eq!(whole.get(name), Some(text), "{grades}/{name}");
        }
        assert_eq!(rows(&stopped).len(), 1 + graded.len());
        for row in rows(&stopped) {
            assert!(rows(&whole).contains(&row), "{row}");
        }
        // Resumed, by --resume or by the same command again (which says
        // so): the same files as the grading that was never stopped, and
        // no previous/ (the unfinished grading is not set aside).
        let out = if k % 2 == 0 {
            let out = class.grade(&["subs", "--grades", &grades]);
            let said = String::from_utf8_lossy(&out.stderr);
            assert!(
                said.contains(&format!(
                    "resumes the unfinished grading of {} begun ",
                    class.0.join("subs").display()
                )) && said.contains(" submission(s) graded, the same options and fixtures): the rest are graded now; --replace grades them all again"),
                "{said}"
            );
            out
        } else {
            class.grade(&["subs", "--grades", &grades, "--resume"])
        };
        let table = String::from_utf8_lossy(&out.stdout);
        // The whole table: the rows graded before, then the rest.
        assert_eq!(table.lines().count(), 1 + SUBMISSIONS.len() + 1, "{table}");
        let resumed = class.files(&grades);
        assert_eq!(
            resumed.keys().collect::<Vec<_>>(),
            whole.keys().collect::<Vec<_>>()
        );
        for (name, text) in &whole {
            assert_eq!(&resumed[name], text, "{grades}/{name}");
        }
    }
    assert!(
        stopped_gradings > 0,
        "no grading was stopped: every one ended first"
    );
}

#[test]
fn the_terminals_signals_never_reach_a_students_program() {
    // A grader that ignores SIGINT (as one started with `nohup` or `&` in a
    // script does), its process group sent SIGINT again and again, as a
    // terminal's Ctrl-C would be: its programs must not get them, so the
    // grades are those of an undisturbed grading.
    let class = Class::new("terminal");
    class.grade(&["subs", "--grades", "whole"]);
    let whole = class.files("whole");
    let mut command =
        class.command_with(Command::new(grader_bin()), &["subs", "--grades", "pressed"]);
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn_with_sigint_ignored();
    // SIGINT as fast as a shell's builtin `kill` sends it (some hundred
    // thousand a second) until the group is gone: one every 40 ms missed
    // the moment a run's program had its signals' defaults back and was
    // still in the grader's group (1 grading in 24 under load; this way,
    // 6 feedbacks of 24 lost marks to a crash).
    let pgid = child.id();
    let mut barrage = Command::new("sh")
        .arg("-c")
        .arg("while kill -s INT -- \"-$1\" 2>/dev/null; do :; done")
        .arg("sh")
        .arg(pgid.to_string())
        .spawn()
        .unwrap();
    let status = child.wait().unwrap();
    let _ = barrage.kill();
    let _ = barrage.wait();
    assert_eq!(status.code(), Some(1));
    let pressed = class.files("pressed");
    assert_eq!(rows(&pressed).len(), rows(&whole).len());
    for (name, text) in &whole {
        assert_eq!(&pressed[name], text, "pressed/{name}");
    }
}

/// Spawning with SIGINT ignored, as `nohup` leaves it.
trait SpawnIgnoringSigint {
    fn spawn_with_sigint_ignored(&mut self) -> std::process::Child;
}

impl SpawnIgnoringSigint for Command {
    fn spawn_with_sigint_ignored(&mut self) -> std::process::Child {
        // Through sh: `trap '' INT` then exec keeps the signal ignored.
        let program = self.get_program().to_owned();
        let args: Vec<_> = self.get_args().map(|a| a.to_owned()).collect();
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg("trap '' INT; exec \"$@\"")
            .arg("sh")
            .arg(&program)
            .args(args);
        if let Some(dir) = self.get_current_dir() {
            sh.current_dir(dir);
        }
        {
            use std::os::unix::process::CommandExt;
            sh.process_group(0);
        }
        let child = sh
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Not before the shell has ignored SIGINT and become the program:
        // a SIGINT sent earlier ends the shell (under load, the barrage
        // below came first in 2 runs of 2, status: killed by SIGINT).
        let exec_ed = fs::canonicalize(&program).unwrap();
        let began = std::time::Instant::now();
        while fs::read_link(format!("/proc/{}/exe", child.id())).ok() != Some(exec_ed.clone()) {
            assert!(
                began.elapsed() < Duration::from_secs(30),
                "{} did not start",
                program.to_string_lossy()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        child
    }
}

#[test]
fn shards_merged_make_the_same_files_as_one_grading() {
    let class = Class::new("shards");
    // With the comparison of the class for similarity: each shard keeps
    // the index of its submissions (similarity.index), and merge compares
    // the class from them as the whole grading did.
    class.grade(&["subs", "--grades", "whole", "--format", "gradescope,junit"]);
    let whole = class.files("whole");
    let csv = fs::read(class.0.join("whole/similarity.csv")).unwrap();
    assert!(csv.len() > 60, "{}", String::from_utf8_lossy(&csv));
    for count in [2, 3] {
        let mut dirs = Vec::new();
        for index in 1..=count {
            let dir = format!("shard{count}-{index}");
            class.grade(&[
                "subs",
                "--grades",
                &dir,
                "--shard",
                &format!("{index}/{count}"),
                "--format",
                "gradescope,junit",
            ]);
            dirs.push(dir);
        }
        let into = format!("merged{count}");
        let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
        let out = class.merge(&[&["--into", into.as_str()][..], &dirs].concat());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let merged = class.files(&into);
        assert_eq!(
            merged.keys().collect::<Vec<_>>(),
            whole.keys().collect::<Vec<_>>()
        );
        for (name, text) in &whole {
            assert_eq!(&merged[name], text, "{into}/{name}");
        }
        for file in [
            "similarity.csv",
            "similarity-blocks.csv",
            "similarity.index",
        ] {
            assert_eq!(
                fs::read(class.0.join(&into).join(file)).unwrap(),
                fs::read(class.0.join("whole").join(file)).unwrap(),
                "{into}/{file}"
            );
        }
    }
    // A shard missing: said, status 1, the merged grading incomplete.
    let out = class.merge(&["--into", "partial", "shard3-1", "shard3-3"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("shard 2/3 is missing"), "{stderr}");
    assert!(fs::read_to_string(class.0.join("partial/summary.txt"))
        .unwrap()
        .contains("INCOMPLETE"));
    // One shard of three alone: every submission of the other two named.
    let out = class.merge(&["--into", "lonely", "shard3-1"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let missing: Vec<&str> = SUBMISSIONS
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !class.0.join(format!("shard3-1/{n}.txt")).exists())
        .collect();
    assert!(missing.len() >= 2, "{missing:?}");
    assert!(
        stderr.contains(&format!(
            "merge: no shard takes {} submission(s) (the shards are not all of one count, or a shard is missing): {}\n",
            missing.len(),
            missing.join(", ")
        )),
        "{stderr}"
    );
    // A shard twice: said, each submission kept once.
    let out = class.merge(&["--into", "twice", "shard2-1", "shard2-2", "shard2-1"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("are both shard 1/2"), "{stderr}");
    assert!(stderr.contains("is graded in both "), "{stderr}");
    assert_eq!(
        fs::read_to_string(class.0.join("twice/summary.csv"))
            .unwrap()
            .lines()
            .count(),
        1 + SUBMISSIONS.len()
    );
    // Not a grading: refused.
    let out = class.merge(&["--into", "x", "subs"]);
    assert_eq!(out.status.code(), Some(2));
}
