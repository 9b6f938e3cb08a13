//! Regrading a marker can trust (issue 43, items 1 and 2):
//!
//! - nothing lost: a grading that replaces another keeps it whole as
//!   `previous/` (one generation; nothing but a grading's files moved, an
//!   older `previous/` removed without following a link), says so before
//!   it grades, and replaces the grading of another folder only with
//!   `--replace`;
//! - one grading at a time in a grades folder: a second one is refused at
//!   once with the first's process id, and the lock of a grading that was
//!   killed is taken over;
//! - what changed and why: after a regrading, stdout, `summary.txt` and the
//!   class page list each submission whose marks changed, with the
//!   fixtures whose outcome changed and the reason (its sources, a fixture
//!   by its digest, the options, or none of these: flaky), and `diff OLD
//!   NEW` says the same of any two gradings (status 1; 0 when none
//!   changed, 2 when a folder is no grading).

use crate::common;

use common::{grader_bin, Scratch};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `tests/grading/checker.c` with its `main` called after `before`: a C
/// statement or two (`sleep(1);`) run first.
fn wrapped(before: &str) -> String {
    let checker = fs::read_to_string(common::repo().join("tests/grading/checker.c")).unwrap();
    format!(
        "#define main checker_main\n{checker}\n#undef main\n#include <time.h>\n\
         int main(void) {{\n    {before}\n    return checker_main();\n}}\n"
    )
}

/// A submission that answers `unsolvable` at once on one run in two (by
/// the clock's microseconds: nothing a grading fixes), and as the checker
/// does on the others.
fn flaky() -> String {
    wrapped(
        "struct timespec now;\n    clock_gettime(CLOCK_REALTIME, &now);\n    \
         if (now.tv_nsec / 1000 % 2) {\n        puts(\"unsolvable\");\n        return 0;\n    }",
    )
}

/// A class folder (`Tests/` with five fixtures, `subs/` with
/// `submissions`), and `puzzle-grade` run in it.
struct Class(Scratch);

impl Class {
    fn new(name: &str, submissions: &[(&str, &str)]) -> Class {
        Class(common::class_folder(
            &format!("regrading-{name}"),
            &common::FIVE_FIXTURES,
            submissions,
        ))
    }

    /// Writes `text` as the `puzzle.c` of the submission `name` of `folder`.
    fn source(&self, folder: &str, name: &str, text: &str) {
        let dir = self.0.join(folder).join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("puzzle.c"), text).unwrap();
    }

    /// `puzzle-grade ARGS...` here, in a process group of its own.
    fn command(&self, args: &[&str]) -> Command {
        use std::os::unix::process::CommandExt;
        let mut command = Command::new(grader_bin());
        command.args(args).current_dir(&self.0).process_group(0);
        command
    }

    /// `grade-all` with `args` and `--jobs 2`, its status 0 or 1.
    fn grade(&self, args: &[&str]) -> Output {
        let out = self
            .command(&["grade-all", "--jobs", "2"])
            .args(args)
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// `grade-all` with `args`, started, its output piped.
    fn spawn(&self, args: &[&str]) -> Child {
        self.command(&["grade-all", "--jobs", "2"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    fn read(&self, path: &str) -> String {
        fs::read_to_string(self.0.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The names of the entries of the folder `path`, sorted.
    fn entries(&self, path: &str) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.0.join(path))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Every file under `path` and its bytes (a link: where it points).
    fn files(&self, path: &str) -> Vec<(PathBuf, Vec<u8>)> {
        fn walk(dir: &Path, into: &mut Vec<(PathBuf, Vec<u8>)>) {
            for entry in fs::read_dir(dir).unwrap() {
                let entry = entry.unwrap();
                let kind = entry.file_type().unwrap();
                if kind.is_symlink() {
                    let target = fs::read_link(entry.path()).unwrap();
                    into.push((entry.path(), target.display().to_string().into_bytes()));
                } else if kind.is_dir() {
                    walk(&entry.path(), into);
                } else {
                    into.push((entry.path(), fs::read(entry.path()).unwrap()));
                }
            }
        }
        let mut files = Vec::new();
        walk(&self.0.join(path), &mut files);
        files.sort();
        files
    }

    /// Waits until the grades folder `grades` is locked by the process
    /// `pid` (its lock file holds the id).
    fn wait_for_lock(&self, grades: &str, pid: u32) {
        let lock = self.0.join(grades).join(".puzzle-grade.lock");
        let began = Instant::now();
        while fs::read_to_string(&lock).map_or(true, |t| t.trim() != pid.to_string()) {
            assert!(
                began.elapsed() < Duration::from_secs(120),
                "{} never held the lock",
                pid
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The line of `text` about the submission `name` in a list of changes.
fn change_line<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    text.lines().find(|l| l.starts_with(&format!("  {name}: ")))
}

#[test]
fn a_grading_replaced_is_kept_as_previous_and_another_folders_only_when_asked() {
    let class = Class::new("previous", &[("ann", ""), ("bob", "#define NO_ROW_TERM\n")]);
    class.source("other", "zed", &wrapped(""));
    class.grade(&["subs", "--time-limit", "5"]);
    // A file of the marker's in the grades folder, and an older previous/
    // that is a link to a folder elsewhere.
    fs::write(class.0.join("grades/notes.txt"), "mine").unwrap();
    fs::create_dir_all(class.0.join("elsewhere")).unwrap();
    fs::write(class.0.join("elsewhere/keep.txt"), "keep").unwrap();
    std::os::unix::fs::symlink(class.0.join("elsewhere"), class.0.join("grades/previous")).unwrap();
    let before = class.files("grades");

    // Another folder: refused, both named, with the advice; nothing moved.
    let out = class
        .command(&["grade-all", "other", "--time-limit", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let said = stderr(&out);
    let subs = class.0.join("subs");
    let other = class.0.join("other");
    assert!(
        said.contains(&format!(
            "holds the grading of {}, not of {}",
            subs.display(),
            other.display()
        )) && said.contains("another --grades folder")
            && said.contains("--replace"),
        "{said}"
    );
    assert_eq!(class.files("grades"), before);

    // With --replace: said before it grades, the whole grading kept.
    let out = class.grade(&["other", "--time-limit", "5", "--replace"]);
    let said = stderr(&out);
    let told = said
        .find(&format!("replaces the grading of {}", subs.display()))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(said.contains("kept whole in "), "{said}");
    assert!(told < said.find("graded zed").unwrap(), "{said}");
    assert_eq!(
        class
            .entries("grades")
            .iter()
            .filter(|n| n.starts_with("ann") || n.starts_with("bob"))
            .count(),
        0
    );
    assert!(class.entries("grades").contains(&"zed.txt".to_string()));
    assert_eq!(
        class.read("grades/notes.txt"),
        "mine",
        "a marker's file moved"
    );
    let previous = class.entries("grades/previous");
    for file in [
        "ann.txt",
        "ann.feedback.md",
        "bob.txt",
        "bob.make.txt",
        "grading.json",
        "summary.txt",
        "summary.jsonl",
        "index.html",
    ] {
        assert!(previous.contains(&file.to_string()), "{file}: {previous:?}");
    }
    assert!(!previous.contains(&"notes.txt".to_string()));
    assert!(!previous.contains(&"keep.txt".to_string()));
    for (path, bytes) in &before {
        let name = path.strip_prefix(class.0.join("grades")).unwrap();
        if name.starts_with("previous") || name == Path::new("notes.txt") {
            continue;
        }
        assert_eq!(
            &fs::read(class.0.join("grades/previous").join(name)).unwrap(),
            bytes,
            "{}",
            name.display()
        );
    }
    // The link was removed, not followed.
    assert!(fs::symlink_metadata(class.0.join("grades/previous"))
        .unwrap()
        .is_dir());
    assert_eq!(class.read("elsewhere/keep.txt"), "keep");
    // Not a regrading of the same folder: no changes listed.
    assert!(!class.read("grades/summary.txt").contains("changed since"));

    // The same folder again: no --replace needed; the older previous/ goes.
    let out = class.grade(&["other", "--time-limit", "5"]);
    assert!(
        stderr(&out).contains("(the grading kept there before is removed)"),
        "{}",
        stderr(&out)
    );
    let previous = class.entries("grades/previous");
    assert!(previous.contains(&"zed.txt".to_string()), "{previous:?}");
    assert!(!previous.contains(&"ann.txt".to_string()), "{previous:?}");
    assert!(class.read("grades/previous/summary.txt").contains("/other"));
    assert!(
        stdout(&out).contains("no marks changed since the grading of "),
        "{}",
        stdout(&out)
    );
    // --replace goes with a fresh grading only.
    let out = class
        .command(&["grade-all", "other", "--replace", "--resume"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn one_grading_at_a_time_and_a_killed_ones_lock_is_taken_over() {
    // Half a second a run: long enough that the gradings below are still
    // under way when the second starts and when one is killed.
    let slow = wrapped("nanosleep(&(struct timespec){0, 500000000}, NULL);");
    let class = Class::new("lock", &[("ann", "")]);
    class.source("subs", "slow1", &slow);
    class.source("subs", "slow2", &slow);

    // Two at once: the second refused at once, with the first's id.
    let first = class.spawn(&["subs", "--time-limit", "5", "--grades", "both"]);
    let pid = first.id();
    class.wait_for_lock("both", pid);
    let began = Instant::now();
    let out = class
        .command(&["grade-all", "subs", "--time-limit", "5", "--grades", "both"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "is being written by another grading (process {pid})"
        )),
        "{}",
        stderr(&out)
    );
    assert!(began.elapsed() < Duration::from_secs(10), "not at once");
    // merge --into takes the same lock.
    let out = class
        .command(&["merge", "--into", "both", "subs"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("(process {pid})")),
        "{}",
        stderr(&out)
    );
    // The first goes on, whole: every row, complete, its lock gone.
    let out = first.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary = class.read("both/summary.txt");
    assert!(summary.contains("(3 submissions), complete"), "{summary}");
    assert_eq!(class.read("both/summary.csv").lines().count(), 1 + 3);
    for name in ["ann", "slow1", "slow2"] {
        assert!(class.read(&format!("both/{name}.txt")).contains("5 passed"));
    }
    assert!(!class.0.join("both/.puzzle-grade.lock").exists());
    assert!(
        !class.0.join("both/previous").exists(),
        "the refused one replaced it"
    );

    // Killed: its lock file stays, with its id; the next grading takes it.
    // The one killed was a regrading: it had put the complete grading
    // before it in previous/, which stays there; the same command resumes
    // the unfinished one.
    class.grade(&["subs", "--time-limit", "5", "--grades", "killed"]);
    let mut killed = class.spawn(&["subs", "--time-limit", "5", "--grades", "killed"]);
    let pid = killed.id();
    class.wait_for_lock("killed", pid);
    let began = Instant::now();
    while !class.0.join("killed/previous/summary.txt").exists() {
        assert!(began.elapsed() < Duration::from_secs(120), "nothing kept");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    killed.kill().unwrap();
    killed.wait().unwrap();
    assert_eq!(
        class.read("killed/.puzzle-grade.lock").trim(),
        pid.to_string()
    );
    assert!(class
        .read("killed/grading.json")
        .contains("\"complete\": false"));
    let out = class.grade(&["subs", "--time-limit", "5", "--grades", "killed"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("resumes the unfinished grading of "),
        "{}",
        stderr(&out)
    );
    assert!(class
        .read("killed/summary.txt")
        .contains("(3 submissions), complete"));
    assert!(class
        .read("killed/previous/summary.txt")
        .contains("(3 submissions), complete"));
    assert!(
        stdout(&out).contains("no marks changed since the grading of "),
        "{}",
        stdout(&out)
    );
    assert!(!class.0.join("killed/.puzzle-grade.lock").exists());

    // Killed again, then started again with --replace: the unfinished one
    // is removed, not pushed into previous/ over the complete one there.
    let mut killed = class.spawn(&["subs", "--time-limit", "5", "--grades", "killed"]);
    class.wait_for_lock("killed", killed.id());
    let began = Instant::now();
    // (Being set aside, it is missing for a moment.)
    while !fs::read_to_string(class.0.join("killed/grading.json"))
        .unwrap_or_default()
        .contains("\"complete\": false")
    {
        assert!(began.elapsed() < Duration::from_secs(120), "never begun");
        std::thread::sleep(Duration::from_millis(20));
    }
    killed.kill().unwrap();
    killed.wait().unwrap();
    let out = class.grade(&[
        "subs",
        "--time-limit",
        "5",
        "--grades",
        "killed",
        "--replace",
    ]);
    assert!(
        stderr(&out).contains(", incomplete: as it did not finish, its files of ")
            && stderr(&out).contains("/previous/ still keeps the grading of "),
        "{}",
        stderr(&out)
    );
    assert!(class
        .read("killed/previous/summary.txt")
        .contains("(3 submissions), complete"));
}

#[test]
fn a_regrading_lists_the_marks_that_changed_and_why() {
    let class = Class::new("why", &[("ann", ""), ("bob", "#define NO_ROW_TERM\n")]);
    // Past a limit of 1 s, within one of 5.
    class.source(
        "subs",
        "cal",
        &wrapped("nanosleep(&(struct timespec){1, 300000000}, NULL);"),
    );
    class.source("subs", "dan", &wrapped(""));
    class.source("subs", "fay", &flaky());
    class.grade(&["subs", "--time-limit", "1"]);

    // dan's sources changed (it now forgets the blank's row); the rest as
    // they were.
    class.source(
        "subs",
        "dan",
        &format!("#define NO_ROW_TERM\n{}", wrapped("")),
    );
    let out = class.grade(&["subs", "--time-limit", "1"]);
    let table = stdout(&out);
    let summary = class.read("grades/summary.txt");
    for text in [&table, &summary] {
        assert!(text.contains("changed since the grading of "), "{text}");
        let dan = change_line(text, "dan").unwrap_or_else(|| panic!("{text}"));
        assert!(dan.starts_with("  dan: 100 → "), "{dan}");
        assert!(dan.ends_with(": its sources changed"), "{dan}");
        assert!(
            text.contains(
                "\n      Tests/sol4_start_blank_on_last_cell_row_parity.inp: passed → WRONG VERDICT\n"
            ),
            "{text}"
        );
        for same in ["ann", "bob", "cal"] {
            assert!(change_line(text, same).is_none(), "{same}: {text}");
        }
    }
    // After the table, before the last line.
    assert!(table.find("changed since").unwrap() > table.find("\nfay ").unwrap());
    let page = class.read("grades/index.html");
    assert!(page.contains("<section id=\"changes\">"), "{page}");
    assert!(page.contains("<tr><td>dan</td>"), "{page}");
    // diff says the same, status 1.
    let out = class
        .command(&["diff", "grades/previous", "grades"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        change_line(&stdout(&out), "dan").is_some_and(|l| l.contains("its sources changed")),
        "{}",
        stdout(&out)
    );

    // fay answers differently with nothing else changed: flaky. Graded
    // again until its outcome differs (1 time in 16 it does not).
    let mut said = change_line(&summary, "fay").map(String::from);
    for _ in 0..12 {
        if said.is_some() {
            break;
        }
        let out = class.grade(&["subs", "--time-limit", "1", "--only", "fay"]);
        said = change_line(&stdout(&out), "fay").map(String::from);
    }
    let fay = said.expect("fay's outcomes never changed");
    assert!(
        fay.ends_with(
            ": flaky: the same sources, fixtures, scheme, options and sandbox gave another outcome"
        ),
        "{fay}"
    );

    // One fixture changed (the one bob fails, now a puzzle where the
    // blank's row does not decide) and a limit raised.
    let fixture = "Tests/sol4_start_blank_on_last_cell_row_parity.inp";
    fs::copy(
        class.0.join("Tests/sol4_assignment_example.inp"),
        class.0.join(fixture),
    )
    .unwrap();
    let out = class.grade(&["subs", "--time-limit", "5"]);
    let summary = class.read("grades/summary.txt");
    for text in [&stdout(&out), &summary] {
        assert!(
            text.contains("  the gradings differ: options: --time-limit 1 → --time-limit 5\n"),
            "{text}"
        );
        assert!(
            text.contains(&format!("  the gradings differ: fixture {fixture}: fnv1a ")),
            "{text}"
        );
        // bob's fixture changed, by its bytes; the raised limit decides
        // no wrong verdict: not named.
        let bob = change_line(text, "bob").unwrap_or_else(|| panic!("{text}"));
        assert!(
            bob.ends_with(&format!(": the fixtures' bytes changed ({fixture})")),
            "{bob}"
        );
        assert!(
            text.contains(&format!(
                "\n      {fixture}: WRONG VERDICT → passed (its bytes changed)\n"
            )),
            "{text}"
        );
        // cal timed out on every fixture; now it passes them all, each by
        // its time limit.
        let cal = change_line(text, "cal").unwrap_or_else(|| panic!("{text}"));
        assert!(cal.starts_with("  cal: 0 → 100: "), "{cal}");
        assert!(
            cal.ends_with("the time limits changed (1 s → 5 s: Tests/bad_empty_input.inp, Tests/bad_repeated_tile.inp, Tests/sol4_assignment_example.inp and 2 more)"),
            "{cal}"
        );
        assert!(
            text.contains("\n      Tests/unsol2_tiles_swapped.inp: TIMEOUT → passed (its time limit 1 s → 5 s)\n"),
            "{text}"
        );
        assert!(change_line(text, "ann").is_none(), "{text}");
    }
    // Two identical gradings: status 0; a folder that holds none: 2.
    fs::create_dir_all(class.0.join("copy")).unwrap();
    for (path, bytes) in class.files("grades") {
        let name = path.strip_prefix(class.0.join("grades")).unwrap();
        if !name.starts_with("previous") {
            fs::create_dir_all(class.0.join("copy").join(name).parent().unwrap()).unwrap();
            fs::write(class.0.join("copy").join(name), bytes).unwrap();
        }
    }
    let out = class.command(&["diff", "grades", "copy"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).starts_with("no marks changed since the grading of "));
    // A damaged grading.json, a record whose score is not its fixtures':
    // status 2, each named.
    fs::write(class.0.join("copy/grading.json"), "{\"folder\": ").unwrap();
    let out = class.command(&["diff", "grades", "copy"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("copy/grading.json cannot be read"),
        "{}",
        stderr(&out)
    );
    fs::copy(
        class.0.join("grades/grading.json"),
        class.0.join("copy/grading.json"),
    )
    .unwrap();
    let jsonl = class
        .read("copy/summary.jsonl")
        .replacen("\"score\": 100", "\"score\": 99", 1);
    fs::write(class.0.join("copy/summary.jsonl"), jsonl).unwrap();
    let out = class.command(&["diff", "grades", "copy"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("is not its fixtures'"),
        "{}",
        stderr(&out)
    );
    let out = class.command(&["diff", "grades", "subs"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not the grades folder of a grading"),
        "{}",
        stderr(&out)
    );
}

/// Writes into `grades` a grading of 3,000 submissions made up from the
/// grading `template` of the one submission `aaa` (its `grading.json` and
/// summaries, a `summary.jsonl` line and four files a submission, each
/// file's text its own name); the paths of its files there, sorted.
fn made_up_grading(template: &Path, grades: &Path) -> Vec<String> {
    let _ = fs::remove_dir_all(grades);
    fs::create_dir_all(grades).unwrap();
    let mut files = Vec::new();
    for own in ["grading.json", "summary.txt", "summary.csv", "index.html"] {
        fs::copy(template.join(own), grades.join(own)).unwrap();
        files.push(own.to_string());
    }
    let line = fs::read_to_string(template.join("summary.jsonl")).unwrap();
    assert!(line.contains("\"submission\": \"aaa\", "), "{line}");
    let mut jsonl = String::new();
    for i in 0..3000 {
        let name = format!("s{i:04}");
        jsonl += &line.replacen("\"aaa\"", &format!("\"{name}\""), 1);
        for suffix in [".txt", ".make.txt", ".feedback.md", ".feedback.html"] {
            let file = format!("{name}{suffix}");
            fs::write(grades.join(&file), &file).unwrap();
            files.push(file);
        }
    }
    fs::write(grades.join("summary.jsonl"), jsonl).unwrap();
    files.push("summary.jsonl".into());
    files.sort();
    files
}

#[test]
fn a_large_grading_set_aside_and_killed_at_any_moment_ends_whole_in_previous() {
    let class = Class::new("killed-move", &[("aaa", "")]);
    class.grade(&["subs", "--time-limit", "5", "--grades", "template"]);
    let template = class.0.join("template");
    let grades = class.0.join("big");
    // The files of the made-up grading's submissions in `big/`, sorted.
    let grading_of = || -> Vec<String> {
        class
            .entries("big")
            .into_iter()
            .filter(|n| n.starts_with('s') && n.as_bytes()[1].is_ascii_digit())
            .collect()
    };
    // Killed at moments after the move is first seen (a `previous/` or a
    // hidden folder beside it), from at once to after it (none: once the
    // new grading's grading.json is written); each stage the kill found is
    // counted.
    let (mut split, mut before_move, mut after_move) = (0, 0, 0);
    for delay in [Some(0u64), Some(0), Some(2), Some(10), None] {
        let files = made_up_grading(&template, &grades);
        let old: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|f| (f.clone(), fs::read(grades.join(f)).unwrap()))
            .collect();
        let child = class.spawn(&["subs", "--time-limit", "5", "--grades", "big"]);
        let began = Instant::now();
        let moving = |grades: &Path| {
            fs::read_dir(grades)
                .unwrap()
                .filter_map(|e| e.ok())
                .any(|e| e.file_name().to_string_lossy().contains("previous"))
        };
        while !moving(&grades) && began.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_micros(200));
        }
        match delay {
            Some(delay) => std::thread::sleep(Duration::from_millis(delay)),
            None => {
                while !(grades.join("previous").is_dir() && grades.join("grading.json").exists())
                    && began.elapsed() < Duration::from_secs(60)
                {
                    std::thread::sleep(Duration::from_micros(200));
                }
            }
        }
        let status = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .status()
            .unwrap();
        assert!(status.success());
        let _ = child.wait_with_output().unwrap();
        // The stage it was killed at: how many of the grading's files of
        // its submissions were still in the grades folder.
        let left = grading_of().len();
        match left {
            12_000 => before_move += 1,
            0 => after_move += 1,
            _ => split += 1,
        }
        // The next grading finishes the move: the whole grading is in
        // previous/, readable, and none of its files in the grades folder.
        let out = class.grade(&["subs", "--time-limit", "5", "--grades", "big"]);
        assert_eq!(grading_of(), Vec::<String>::new(), "{}", stderr(&out));
        for (file, bytes) in &old {
            let kept = fs::read(grades.join("previous").join(file))
                .unwrap_or_else(|e| panic!("killed with {left} files left: previous/{file}: {e}"));
            assert_eq!(&kept, bytes, "previous/{file}");
        }
        // Against the one submission's: every other one of the 3,000 read.
        let read = class
            .command(&["diff", "big/previous", "template"])
            .output()
            .unwrap();
        assert_eq!(read.status.code(), Some(1), "{}", stderr(&read));
        assert!(stdout(&read).contains("s2999"), "{}", stdout(&read));
        assert!(class
            .entries("big")
            .iter()
            .all(|n| !n.starts_with(".previous")));
    }
    assert!(
        split > 0,
        "no kill landed while the files were moved ({before_move} before, {after_move} after)"
    );
}

#[test]
fn a_regrading_names_for_each_mark_only_the_change_that_touches_its_fixtures() {
    // A scheme that changes two fixtures' time limits and nothing else:
    // the reason of cal's marks on those two, never of fay's, whose
    // answers change from run to run.
    let class = Class::new("touch", &[("ann", "")]);
    class.source(
        "subs",
        "cal",
        &wrapped("nanosleep(&(struct timespec){1, 300000000}, NULL);"),
    );
    class.source("subs", "fay", &flaky());
    class.grade(&["subs", "--time-limit", "1"]);
    fs::write(
        class.0.join("scheme.txt"),
        "[fixtures Tests/sol4*]\ntime-limit = 5\n",
    )
    .unwrap();
    let mut text = String::new();
    // Graded again until fay's outcomes differ (1 time in 16 they do not).
    for _ in 0..12 {
        class.grade(&["subs", "--time-limit", "1", "--scheme", "scheme.txt"]);
        text = class.read("grades/summary.txt");
        if change_line(&text, "fay").is_some() {
            break;
        }
        fs::remove_dir_all(class.0.join("grades/previous")).unwrap();
        // The first grading again, to compare with.
        class.grade(&["subs", "--time-limit", "1"]);
    }
    let cal = change_line(&text, "cal").unwrap_or_else(|| panic!("{text}"));
    assert!(
        cal.ends_with(": the time limits changed (1 s → 5 s: Tests/sol4_assignment_example.inp, Tests/sol4_start_blank_on_last_cell_row_parity.inp)"),
        "{cal}"
    );
    assert!(
        text.contains("\n      Tests/sol4_assignment_example.inp: TIMEOUT → passed (its time limit 1 s → 5 s)\n"),
        "{text}"
    );
    let fay = change_line(&text, "fay").expect("fay's outcomes never changed");
    assert!(
        fay.ends_with(
            ": flaky: the same sources, fixtures, scheme, options and sandbox gave another outcome"
        ),
        "{fay}"
    );
    assert!(!fay.contains("scheme changed"), "{fay}");
    // The scheme's digest once on the class page, in what the gradings
    // differ in; no row repeats it.
    let page = class.read("grades/index.html");
    let changes = &page[page.find("<section id=\"changes\">").unwrap()..];
    let changes = &changes[..changes.find("</section>").unwrap()];
    assert_eq!(changes.matches("fnv1a").count(), 1, "{changes}");
    assert!(
        changes.contains("time limit 1 s → 5 s: 2 fixtures"),
        "{changes}"
    );
}
