//! The sandbox, driven through `puzzle-grade run` with hostile programs
//! (`tests/sandbox/*.c`, compiled here with `cc`), at every level the
//! machine allows: each must leave the marker's machine unharmed, leave no
//! process behind, and be told apart by the way its run ended.
//!
//! The levels are run as a marker would meet them ([`At`]): `namespaces`
//! as this process's user (root on the test machine) and as an ordinary
//! user (uid 65534, through `setpriv`, in a user namespace); `uid` as root
//! with the namespaces not asked for; `minimal` as an ordinary user. A
//! level the machine does not allow is skipped, saying why (a failure where
//! `PUZZLE_TESTS_REQUIRE_ALL=1`). The container case itself (root without
//! `CAP_SYS_ADMIN`, no user namespaces, read-only cgroups) is simulated by
//! the last tests.
//!
//! A process is found by a marker: every hostile program gets a unique word
//! as an argument, which stays in the command line of every process it
//! forks; after the run no process in `/proc` may have it.
//!
//! Each test works in a [`Lab`]: a scratch folder of its own
//! (`common::Scratch`) in the system's temporary folder, which every level's
//! user can reach wherever the clone is (in a folder only root may enter,
//! the programs under `target/` were "not found" by uid 65534). The grader
//! and the hostile programs are copied or compiled into it.

use crate::common;

use common::{crate_dir, skip, Scratch};

use std::fs::{self, File};
use std::io::{ErrorKind, Write};
use std::net::TcpListener;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The grader cargo built (in the clone: for the tests' own user only, in
/// a folder only root may enter; a [`Lab`] has a copy every user reaches).
const BIN: &str = env!("CARGO_BIN_EXE_puzzle-grade");

/// The ordinary user the tests run the grader as, when they run as root.
const NOBODY: u32 = 65534;

/// A level of the sandbox, and who runs the grader there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// `--sandbox namespaces`, as this process's user.
    Namespaces,
    /// `--sandbox namespaces` as uid 65534 (a user namespace), when root.
    UserNamespaces,
    /// `--sandbox uid`.
    Uid,
    /// `--sandbox minimal`, as uid 65534 when root.
    Minimal,
}

const ALL: [At; 4] = [At::Namespaces, At::UserNamespaces, At::Uid, At::Minimal];

fn is_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

impl At {
    fn level(self) -> &'static str {
        match self {
            At::Namespaces | At::UserNamespaces => "namespaces",
            At::Uid => "uid",
            At::Minimal => "minimal",
        }
    }

    /// The uid the grader runs as, when not this process's.
    fn as_user(self) -> Option<u32> {
        (matches!(self, At::UserNamespaces | At::Minimal) && is_root()).then_some(NOBODY)
    }

    /// `GRADER run --sandbox LEVEL`, as the level's user.
    fn command(self, grader: &Path) -> Command {
        self.mode(grader, "run")
    }

    /// `GRADER MODE --sandbox LEVEL`, as the level's user.
    fn mode(self, grader: &Path, mode: &str) -> Command {
        let mut command = match self.as_user() {
            Some(uid) => {
                let mut c = Command::new("setpriv");
                c.arg(format!("--reuid={uid}"))
                    .arg(format!("--regid={uid}"))
                    .arg("--clear-groups")
                    .arg(grader);
                c
            }
            None => Command::new(grader),
        };
        command.args([mode, "--sandbox", self.level()]);
        command
    }

    /// Gives `path` (a folder the test made for the run) to the level's
    /// user, when the grader runs as another.
    fn own(self, path: &Path) {
        if let Some(uid) = self.as_user() {
            let status = Command::new("chown")
                .args(["-R", &format!("{uid}:{uid}")])
                .arg(path)
                .status()
                .unwrap();
            assert!(status.success());
        }
    }
}

/// The protections line of `puzzle-grade run -v` at `at`, or why the
/// level cannot be had here; found once a level.
fn protections(at: At) -> Result<&'static str, &'static str> {
    static LINES: [OnceLock<Result<String, String>>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let index = ALL.iter().position(|a| *a == at).unwrap();
    let line = LINES[index].get_or_init(|| {
        if at == At::UserNamespaces && !is_root() {
            return Err("the tests run as an ordinary user: At::Namespaces is this".into());
        }
        let lab = Lab::new(&format!("protections-{at:?}"));
        let out = lab
            .command(at)
            .args(["-v", "--", "/bin/true"])
            .output()
            .map_err(|e| format!("cannot run the grader: {e}"))?;
        let text = String::from_utf8_lossy(&out.stderr).trim().to_string();
        if !out.status.success() {
            return Err(text);
        }
        // The protections' line (the run's time line follows it).
        let text = text
            .lines()
            .find(|l| l.starts_with("puzzle-grade run: sandbox: "))
            .unwrap_or(&text)
            .to_string();
        if at == At::UserNamespaces && !text.contains("a user namespace") {
            return Err(format!("not in a user namespace: {text}"));
        }
        Ok(text)
    });
    line.as_ref().map(|s| s.as_str()).map_err(|s| s.as_str())
}

/// The levels this machine allows, each other skipped with its reason.
fn levels() -> Vec<At> {
    ALL.into_iter()
        .filter(|at| match protections(*at) {
            Ok(_) => true,
            Err(why) => {
                skip(&format!("{at:?}: {why}"));
                false
            }
        })
        .collect()
}

/// Whether the memory and process limits are told apart (by cgroups) at
/// `at`.
fn cgroups(at: At) -> bool {
    protections(at).is_ok_and(|line| line.contains("cgroups: memory (the memory limit), pids"))
}

/// Whether the run's files are held at `at` (its own mount namespace, or
/// Landlock); says skipped when not.
fn files_held(at: At) -> bool {
    let line = protections(at).unwrap_or("");
    let held = line.contains("own PID, mount") || line.contains("files: Landlock");
    if !held {
        skip(&format!(
            "{at:?}: neither a mount namespace nor Landlock: {line}"
        ));
    }
    held
}

/// One test's folder: a scratch folder of its own, open to every level's
/// user wherever the clone is, holding a copy of the grader (`bin/`), the
/// hostile programs the test compiles (`bin/`), the folders it gives the
/// runs, and the files that catch their output (`output/`). Removed when
/// the test ends.
struct Lab {
    dir: Scratch,
    grader: PathBuf,
    outputs: AtomicU32,
}

impl Lab {
    fn new(name: &str) -> Lab {
        let dir = Scratch::new(&format!("sandbox-{name}"));
        for sub in ["bin", "output"] {
            fs::create_dir(dir.join(sub)).unwrap();
            fs::set_permissions(dir.join(sub), fs::Permissions::from_mode(0o755)).unwrap();
        }
        let grader = dir.join("bin/puzzle-grade");
        fs::copy(BIN, &grader).unwrap();
        fs::set_permissions(&grader, fs::Permissions::from_mode(0o755)).unwrap();
        Lab {
            dir,
            grader,
            outputs: AtomicU32::new(0),
        }
    }

    /// The copy of the grader, as a shell word (the lab's path has no
    /// quote).
    fn grader(&self) -> String {
        self.grader.display().to_string()
    }

    /// `puzzle-grade run --sandbox LEVEL` (the lab's copy), as the level's
    /// user.
    fn command(&self, at: At) -> Command {
        at.command(&self.grader)
    }

    /// A folder `name` for a run at `at`, given to the level's user.
    fn folder(&self, name: &str, at: At) -> PathBuf {
        let dir = self.dir.join(format!("{name}.{at:?}"));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        at.own(&dir);
        dir
    }

    /// `tests/sandbox/NAME.c`, compiled into `bin/`, for every user to run.
    fn compile(&self, name: &str) -> PathBuf {
        let exe = self
            .dir
            .join("bin")
            .join(format!("{name}.{}", marker("cc")));
        let source = crate_dir().join("tests/sandbox").join(format!("{name}.c"));
        let status = Command::new("cc")
            .args(["-O1", "-w", "-o"])
            .arg(&exe)
            .arg(&source)
            .status()
            .expect("cc runs");
        assert!(status.success(), "cc {}", source.display());
        fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
        exe
    }

    /// A folder `name` for a grading at `at`, its `Tests/` holding one
    /// fixture, `sol4_assignment_example.inp`.
    fn grading_folder(&self, name: &str, at: At) -> PathBuf {
        let dir = self.folder(name, at);
        fs::create_dir(dir.join("Tests")).unwrap();
        fs::copy(
            common::repo().join("Tests/sol4_assignment_example.inp"),
            dir.join("Tests/sol4_assignment_example.inp"),
        )
        .unwrap();
        dir
    }

    /// `exe` copied into `dir` (a [`Lab::grading_folder`]) as `name`, and
    /// graded there at `at` with `options`: its report's line for the
    /// fixture.
    fn graded_line(&self, at: At, dir: &Path, exe: &Path, name: &str, options: &[&str]) -> String {
        let program = dir.join(name);
        fs::copy(exe, &program).unwrap();
        at.own(dir);
        let out = at
            .mode(&self.grader, "grade")
            .args(options)
            .arg(&program)
            .current_dir(dir)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout);
        report
            .lines()
            .find(|l| l.contains("Tests/sol4_assignment_example.inp: "))
            .unwrap_or_else(|| panic!("{at:?} {name}: no line in\n{report}"))
            .to_string()
    }

    /// A fresh file name in `output/`, for caught output.
    fn output_file(&self, what: &str) -> PathBuf {
        let n = self.outputs.fetch_add(1, Ordering::Relaxed);
        self.dir.join("output").join(format!("{n}.{what}"))
    }

    /// `puzzle-grade run --sandbox LEVEL OPTIONS -- PROGRAM ARGS` at `at`,
    /// input empty, output caught in files (or into `stdout` when given):
    /// not pipes, so that a process the sandbox failed to kill cannot keep
    /// the test waiting for their end.
    fn run(
        &self,
        at: At,
        options: &[&str],
        program: &Path,
        args: &[&str],
        stdout: Option<File>,
    ) -> Ran {
        let began = Instant::now();
        let (out_path, err_path) = (self.output_file("out"), self.output_file("err"));
        let status = self
            .command(at)
            .args(options)
            .arg("--")
            .arg(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(stdout.unwrap_or_else(|| File::create(&out_path).unwrap()))
            .stderr(File::create(&err_path).unwrap())
            .status()
            .expect("puzzle-grade runs");
        let read = |p: &Path| {
            let text = fs::read_to_string(p).unwrap_or_default();
            let _ = fs::remove_file(p);
            text
        };
        Ran {
            code: status.code().unwrap_or(-1),
            stdout: read(&out_path),
            stderr: read(&err_path),
            elapsed: began.elapsed(),
        }
    }
}

/// A word no other process has in its command line.
fn marker(name: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "sandbox-marker-{name}-{}-{}-{nanos}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// The processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Ok(cmdline) = fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(marker) {
                found.push(format!("{}: {text}", name.to_string_lossy()));
            }
        }
    }
    found
}

struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

/// No process has `marker`; any that has is killed (by its pid, a
/// positive number: see `kill_minus_one_reaches_nothing_outside_the_run`),
/// then the test fails.
fn assert_none_left(marker: &str) {
    let left = processes_with(marker);
    for p in &left {
        let pid = p.split(':').next().unwrap_or_default();
        if pid.parse::<u32>().is_ok_and(|n| n > 1) {
            let _ = Command::new("kill").args(["-9", pid]).status();
        }
    }
    assert_eq!(left, Vec::<String>::new(), "left running");
}

#[test]
fn writes_to_home_and_above_the_work_folder_are_kept_away() {
    let lab = Lab::new("writes_to_home_and_above_the_work_folder_are_kept_away");
    let exe = lab.compile("escape_files");
    for at in levels() {
        if !files_held(at) {
            continue;
        }
        let dir = lab.folder("escape", at);
        let work = dir.join("work");
        // The marker's home: a folder the marker (and so an unconfined
        // run of the marker's uid) may write.
        let home = dir.join("home");
        fs::create_dir(&work).unwrap();
        fs::create_dir(&home).unwrap();
        at.own(&dir);
        let home = home.to_str().unwrap();
        let name = marker("escape");
        for options in [vec![], vec!["--workdir", work.to_str().unwrap()]] {
            let ran = lab.run(at, &options, &exe, &[&name, home], None);
            assert_eq!(ran.code, 0, "{at:?}: {}", ran.stderr);
            let lines: Vec<&str> = ran.stdout.lines().collect();
            assert_eq!(lines[0], format!("could not write {home}/{name}"), "{at:?}");
            assert!(
                lines[1].starts_with("wrote "),
                "{at:?}: its own HOME: {}",
                ran.stdout
            );
            if at != At::Namespaces && at != At::UserNamespaces {
                // Without a mount namespace `..` is the grader's.
                for line in &lines[2..] {
                    assert!(
                        line.starts_with("could not write"),
                        "{at:?}: {}",
                        ran.stdout
                    );
                }
            }
            let harmed: Vec<PathBuf> = [
                Path::new(home),
                &dir,
                dir.parent().unwrap(),
                Path::new("/"),
                Path::new("/tmp"),
            ]
            .iter()
            .map(|d| d.join(&name))
            .filter(|p| p.exists())
            .collect();
            for p in &harmed {
                let _ = fs::remove_file(p);
            }
            assert_eq!(harmed, Vec::<PathBuf>::new(), "{at:?}: written outside");
        }
        // The build case: the work folder itself is the run's to write.
        assert!(work.join(&name).exists(), "{at:?}");
        assert_none_left(&name);
    }
}

#[test]
fn a_daemon_in_a_new_session_dies_with_the_run() {
    let lab = Lab::new("a_daemon_in_a_new_session_dies_with_the_run");
    let exe = lab.compile("daemon");
    for at in levels() {
        let name = marker("daemon");
        let ran = lab.run(at, &[], &exe, &[&name], None);
        assert_eq!((ran.code, ran.stderr.as_str()), (0, ""), "{at:?}");
        assert_none_left(&name);
    }
}

#[test]
fn three_hundred_children_meet_the_process_limit() {
    let lab = Lab::new("three_hundred_children_meet_the_process_limit");
    let exe = lab.compile("children");
    for at in levels() {
        let name = marker("children");
        let ran = lab.run(at, &["--time-limit", "5"], &exe, &[&name], None);
        if cgroups(at) {
            assert_eq!(ran.code, 125, "{at:?}: {}", ran.stderr);
            assert!(
                ran.stderr
                    .ends_with("puzzle-grade run: stopped by the process limit (64 processes)\n"),
                "{at:?}: {}",
                ran.stderr
            );
        } else {
            // The process rlimit refuses the fork: the program's own error.
            assert_eq!(ran.code, 1, "{at:?}: {}", ran.stderr);
            assert!(ran.stderr.starts_with("fork: "), "{at:?}: {}", ran.stderr);
        }
        assert_none_left(&name);
    }
}

#[test]
fn six_gigabytes_meet_the_memory_limit() {
    let lab = Lab::new("six_gigabytes_meet_the_memory_limit");
    let exe = lab.compile("memory");
    for at in levels() {
        let name = marker("memory");
        let ran = lab.run(at, &[], &exe, &[&name], None);
        // A memory cgroup, or the grader's sampler: the same class, each
        // saying how it measured.
        assert_eq!(
            (ran.code, ran.stderr.as_str()),
            (125, stopped_by_memory(at, 1024).as_str()),
            "{at:?}"
        );
        assert_none_left(&name);
    }
}

/// How the memory limit is measured, with a memory cgroup (`cgroup`) or
/// without: the words after its size, the same for every run it stops.
fn measured(cgroup: bool) -> &'static str {
    if cgroup {
        "of resident memory, held by a memory cgroup"
    } else {
        "of resident memory, sampled every 10 ms and at its high-water mark"
    }
}

/// The line of `puzzle-grade run` for a run killed at the memory limit of
/// `mib` MiB at `at`: by the cgroup's out-of-memory killer, or by the
/// grader that saw it over the limit.
fn stopped_by_memory(at: At, mib: u32) -> String {
    let cgroup = cgroups(at);
    let what = if cgroup {
        "killed by the out-of-memory killer"
    } else {
        "seen over it, and killed"
    };
    format!(
        "puzzle-grade run: stopped by the memory limit ({mib} MiB {}; {what})\n",
        measured(cgroup)
    )
}

/// Whether `stderr` ends with the line of a run the memory limit of 64 MiB
/// stopped, with a memory cgroup (`cgroup`) or without, however it went
/// there: killed at the limit (by the cgroup, or the grader that saw it
/// over), or, sampled, failed by itself once its peak had come to the
/// limit.
fn ends_stopped_by_64_mib(cgroup: bool, stderr: &str) -> bool {
    let line = stderr.lines().last().unwrap_or("");
    let prefix = format!(
        "puzzle-grade run: stopped by the memory limit (64 MiB {}; ",
        measured(cgroup)
    );
    line.strip_prefix(&prefix).is_some_and(|what| {
        if cgroup {
            return what == "killed by the out-of-memory killer)";
        }
        what == "seen over it, and killed)"
            || (what.starts_with("a high-water mark of ")
                && (what.ends_with(", then killed by signal 11)")
                    || what.ends_with(", then exited with status 1)")))
    })
}

/// The programs of `tests/sandbox/exhaust.c` that need more memory than
/// the tests' limit of 64 MiB: each grows without bound (crashing, or
/// exiting 1, when `malloc` fails), or fills 64 MiB and then fails by
/// itself (a real program filled its line buffer, then wrote past it).
const EXHAUSTING: [&str; 4] = ["grow-crash", "grow-exit", "fill-crash", "fill-exit"];

/// The memory limit's rule is a memory cgroup's at every level: a program
/// that needs more than the limit is `MEMORY LIMIT` wherever it runs,
/// whether it is killed at the limit, crashes or exits 1 when `malloc`
/// fails, or fails by itself once its memory has come to the limit; one
/// that crashes by its own fault with little memory in use is a crash at
/// every level. (The real program of issue 42 was `MEMORY LIMIT` as root
/// and `killed by signal 11` as an ordinary user.)
#[test]
fn a_program_that_exhausts_its_memory_meets_the_memory_limit_at_every_level() {
    let lab = Lab::new("exhausts");
    let exe = lab.compile("exhaust");
    for at in levels() {
        for mode in EXHAUSTING {
            let name = marker("exhaust");
            let ran = lab.run(at, &["--memory", "64"], &exe, &[mode, &name], None);
            assert!(
                ran.code == 125 && ends_stopped_by_64_mib(cgroups(at), &ran.stderr),
                "{at:?} {mode}: status {}, {}",
                ran.code,
                ran.stderr
            );
            assert_none_left(&name);
        }
        let name = marker("exhaust");
        let ran = lab.run(at, &["--memory", "64"], &exe, &["null-crash", &name], None);
        assert_eq!(
            (ran.code, ran.stderr.as_str()),
            (139, "puzzle-grade run: killed by signal 11 (SIGSEGV)\n"),
            "{at:?}"
        );
        assert_none_left(&name);
    }
}

/// The same programs graded (`puzzle-grade grade`, on one fixture): the
/// report's class is the same at every level, and its line says how the
/// memory was measured.
#[test]
fn graded_a_program_that_exhausts_its_memory_is_memory_limit_at_every_level() {
    let lab = Lab::new("exhausts-graded");
    let exe = lab.compile("exhaust");
    for at in levels() {
        let dir = lab.grading_folder("exhaust-graded", at);
        for mode in ["fill-crash", "grow-exit", "null-crash"] {
            // The mode is the name it runs by (grade passes no arguments).
            let line = lab.graded_line(at, &dir, &exe, mode, &["--memory", "64", "--jobs", "1"]);
            if mode == "null-crash" {
                assert_eq!(
                    line,
                    "CRASH             Tests/sol4_assignment_example.inp: killed by signal 11 (SEGV)",
                    "{at:?}"
                );
                continue;
            }
            // The same words whatever the run did after it came to the
            // limit (a crash the sampler did not see coming, or its kill).
            assert_eq!(
                line,
                format!(
                    "MEMORY LIMIT      Tests/sol4_assignment_example.inp: stopped by the memory limit (64 MiB {})",
                    measured(cgroups(at))
                ),
                "{at:?} {mode}"
            );
        }
        let _ = fs::remove_dir_all(&dir);
    }
}

/// A program stopped at the time limit with its memory near the memory
/// limit (61 of 64 MiB) is at both, at every level (the peak a cgroup
/// kept, or the sampler's); with its memory well under it (20 MiB), a
/// TIMEOUT as ever.
#[test]
fn a_timeout_near_the_memory_limit_is_at_both_limits_at_every_level() {
    let lab = Lab::new("near-memory-graded");
    let exe = lab.compile("near_memory");
    let options = [
        "--memory",
        "64",
        "--time-limit",
        "1",
        "--jobs",
        "1",
        "--confirm",
        "0",
    ];
    for at in levels() {
        let dir = lab.grading_folder("near-memory", at);
        for (name, both) in [("near-61", true), ("near-20", false)] {
            let line = lab.graded_line(at, &dir, &exe, name, &options);
            let expected = if both {
                "TIMEOUT           Tests/sol4_assignment_example.inp: still running after 1 s, its memory within a twentieth of the limit (64 MiB): at both limits, and which came first is the machine's speed; killed"
            } else {
                "TIMEOUT           Tests/sol4_assignment_example.inp: still running after 1 s; killed"
            };
            assert_eq!(line, expected, "{at:?} {name}");
        }
        let _ = fs::remove_dir_all(&dir);
    }
}

/// The memory limit counts what a program uses, not what it reserves, at
/// every level: 1 GiB reserved and 1 MB used runs under a 512 MiB limit as
/// root (a memory cgroup) and as an ordinary user (sampled), where an
/// address-space limit refused it (issue 34: 33 false errors).
#[test]
fn reserving_a_gigabyte_and_using_a_megabyte_fits_in_512_mib_at_every_level() {
    let lab = Lab::new("reserving_a_gigabyte_and_using_a_megabyte_fits_in_512_mib_at_every_level");
    let exe = lab.compile("reserve");
    for at in levels() {
        let ran = lab.run(at, &["--memory", "512"], &exe, &[], None);
        assert_eq!(
            (ran.code, ran.stdout.as_str(), ran.stderr.as_str()),
            (0, "reserved 1024 MiB, used 1 MiB\n", ""),
            "{at:?}"
        );
        let line = protections(at).unwrap_or("");
        assert!(
            line.contains("cgroups: memory (the memory limit)")
                || line.contains("the memory limit on resident memory, sampled every 10 ms"),
            "{at:?}: {line}"
        );
    }
}

#[test]
fn a_four_gigabyte_file_meets_the_file_size_limit() {
    let lab = Lab::new("a_four_gigabyte_file_meets_the_file_size_limit");
    let exe = lab.compile("big_file");
    for at in levels() {
        let name = marker("big");
        let ran = lab.run(at, &["--file-size", "16"], &exe, &[&name], None);
        assert_eq!(
            (ran.code, ran.stderr.as_str()),
            (
                153,
                "puzzle-grade run: stopped by the file-size limit (16 MiB)\n"
            ),
            "{at:?}"
        );
        assert_none_left(&name);
    }
}

#[test]
fn a_tcp_connection_to_the_markers_machine_fails() {
    let lab = Lab::new("a_tcp_connection_to_the_markers_machine_fails");
    let exe = lab.compile("connect");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    for at in levels() {
        let name = marker("connect");
        let ran = lab.run(at, &[], &exe, &[&port, &name], None);
        assert_eq!(
            (ran.code, ran.stdout.as_str()),
            (0, "no socket: Operation not permitted\n"),
            "{at:?}: {}",
            ran.stderr
        );
        let accepted = listener.accept().map(|(_, peer)| peer);
        assert_eq!(
            accepted.map_err(|e| e.kind()),
            Err(ErrorKind::WouldBlock),
            "{at:?}: the listener saw a connection"
        );
        assert_none_left(&name);
    }
}

#[test]
fn a_search_of_the_folders_above_finds_no_other_submission() {
    let lab = Lab::new("a_search_of_the_folders_above_finds_no_other_submission");
    let exe = lab.compile("search");
    for at in levels() {
        if !files_held(at) {
            continue;
        }
        let dir = lab.folder("search", at);
        let name = marker("secret");
        fs::create_dir_all(dir.join("other")).unwrap();
        fs::create_dir_all(dir.join("mine")).unwrap();
        let planted = dir.join("other").join(&name);
        fs::write(&planted, "another student's program\n").unwrap();
        at.own(&dir);
        let ran = lab.run(
            at,
            &["--workdir", dir.join("mine").to_str().unwrap()],
            &exe,
            &[&name, planted.to_str().unwrap()],
            None,
        );
        assert_eq!(
            (ran.code, ran.stdout.as_str(), ran.stderr.as_str()),
            (0, "0 found\n", ""),
            "{at:?}"
        );
        assert_none_left(&name);
    }
}

#[test]
fn a_program_that_ignores_sigterm_is_killed_at_the_time_limit() {
    let lab = Lab::new("a_program_that_ignores_sigterm_is_killed_at_the_time_limit");
    let exe = lab.compile("ignore_term");
    for at in levels() {
        let name = marker("term");
        let ran = lab.run(at, &["--time-limit", "1"], &exe, &[&name], None);
        assert_eq!(
            (ran.code, ran.stderr.as_str()),
            (124, "puzzle-grade run: killed at the time limit (1 s)\n"),
            "{at:?}"
        );
        assert!(
            ran.elapsed < Duration::from_secs(5),
            "{at:?}: {:?}",
            ran.elapsed
        );
        assert_none_left(&name);
    }
}

#[test]
fn endless_output_meets_the_file_size_limit() {
    let lab = Lab::new("endless_output_meets_the_file_size_limit");
    let exe = lab.compile("print_forever");
    for at in levels() {
        let name = marker("print");
        let out = lab.folder("print", at).join("out");
        let ran = lab.run(
            at,
            &["--file-size", "1"],
            &exe,
            &[&name],
            Some(File::create(&out).unwrap()),
        );
        assert_eq!(
            (ran.code, ran.stderr.as_str()),
            (
                153,
                "puzzle-grade run: stopped by the file-size limit (1 MiB)\n"
            ),
            "{at:?}"
        );
        assert_eq!(fs::metadata(&out).unwrap().len(), 1 << 20, "{at:?}");
        assert_none_left(&name);
    }
}

#[test]
fn closing_stdout_early_is_an_ordinary_end() {
    let lab = Lab::new("closing_stdout_early_is_an_ordinary_end");
    let exe = lab.compile("close_stdout");
    for at in levels() {
        let name = marker("close");
        let ran = lab.run(at, &[], &exe, &[&name], None);
        assert_eq!(
            (ran.code, ran.stdout.as_str(), ran.stderr.as_str()),
            (0, "solvable\n", "still here\n"),
            "{at:?}"
        );
        assert_none_left(&name);
    }
}

#[test]
fn signals_reach_the_program_which_is_not_the_namespaces_init() {
    let lab = Lab::new("signals_reach_the_program_which_is_not_the_namespaces_init");
    for at in levels() {
        let ran = lab.run(
            at,
            &[],
            Path::new("/bin/sh"),
            &["-c", "kill -SEGV $$"],
            None,
        );
        assert_eq!(
            (ran.code, ran.stderr.as_str()),
            (139, "puzzle-grade run: killed by signal 11 (SIGSEGV)\n"),
            "{at:?}"
        );
    }
}

/// The seconds `puzzle-grade run -v`'s time line gives for `what` (`of
/// CPU`, `waiting for a core`), if it gives them.
fn seconds_of(stderr: &str, what: &str) -> Option<f64> {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("puzzle-grade run: time: "))?;
    let end = line.find(&format!(" s {what}"))?;
    line[..end].rsplit(' ').next()?.parse().ok()
}

/// Beside busy threads on every core (two a core), a program that needs
/// 600 ms of CPU under a limit of 1 s waits for a core: the kernel's count
/// of its waits is read at every level, the waits are made up, and the
/// program finishes (it got two fifths of a core: 1.5 s on the clock,
/// killed at 1 s before the make-up). A program that sleeps waits for no
/// core, and is stopped at its limit on the clock as ever.
#[test]
fn a_busy_program_beside_hogs_has_its_time_at_every_level() {
    let lab = Lab::new("busy-beside-hogs");
    let busy = lab.compile("busy");
    let levels = levels();
    let _alone = common::load_alone();
    let hogs = common::Hogs::start(2);
    for at in levels {
        let ran = lab.run(at, &["-v", "--time-limit", "1"], &busy, &["600"], None);
        let waited = seconds_of(&ran.stderr, "waiting for a core");
        if ran.code == 124 && waited.is_some_and(|w| w >= 2.5) {
            // Its waits were made up (3 limits more) and it still lacked its
            // time: the machine (the suite's own load beside the hogs) gave
            // it under a sixth of a core, so it cannot be tested here. A
            // make-up that did not happen would stop it at 1 s, having
            // waited under a second: that still fails.
            common::skip_busy(&format!(
                "busy-beside-hogs at {at:?}: the machine is too busy to test the make-up ({})",
                ran.stderr.lines().last().unwrap_or("")
            ));
            return;
        }
        assert_eq!(ran.code, 0, "{at:?}: {}", ran.stderr);
        let cpu_ms: f64 = ran
            .stdout
            .split_whitespace()
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap();
        assert!(cpu_ms >= 600.0, "{at:?}: {}", ran.stdout);
        let cpu = seconds_of(&ran.stderr, "of CPU");
        assert!(waited.is_some(), "{at:?}: {}", ran.stderr);
        assert!(cpu.is_some_and(|c| c >= 0.55), "{at:?}: {}", ran.stderr);
        if waited.is_some_and(|w| w <= 0.05) {
            // The scheduler gave the run its core beside the hogs (at a
            // level without cgroups, seen in CI: 0.03 s waited in 0.64 s):
            // no wait to count or make up at this level. Not a missing
            // capability, so a note, not a failure under
            // PUZZLE_TESTS_REQUIRE_ALL.
            common::skip_busy(&format!(
                "busy-beside-hogs at {at:?}: the hogs did not make the run wait for a core ({})",
                ran.stderr.lines().last().unwrap_or("")
            ));
            continue;
        }
        let ran = lab.run(
            at,
            &["-v", "--time-limit", "1"],
            Path::new("/bin/sleep"),
            &["5"],
            None,
        );
        assert_eq!(ran.code, 124, "{at:?}: {}", ran.stderr);
        assert!(
            ran.elapsed < Duration::from_secs(3),
            "{at:?}: {:?}",
            ran.elapsed
        );
        // Asleep, it waited for a core only to start.
        let waited = seconds_of(&ran.stderr, "waiting for a core");
        assert!(waited.is_some_and(|w| w < 0.5), "{at:?}: {}", ran.stderr);
    }
    drop(hogs);
}

#[test]
fn the_exit_status_is_passed_on_and_named() {
    let lab = Lab::new("the_exit_status_is_passed_on_and_named");
    for at in levels() {
        let ran = lab.run(at, &[], Path::new("/bin/sh"), &["-c", "exit 3"], None);
        assert_eq!(
            (ran.code, ran.stderr.as_str()),
            (3, "puzzle-grade run: exited with status 3\n"),
            "{at:?}"
        );
    }
}

/// `run`'s statuses 124 to 127 are also a program's own: `--meta FILE`
/// tells a program that exits with 124 from one killed at its time limit,
/// and says how a run that never started ended.
#[test]
fn the_meta_file_tells_the_runs_ending_from_the_programs_status() {
    let lab = Lab::new("the_meta_file_tells_the_runs_ending_from_the_programs_status");
    // In a folder of the level's user, who writes it.
    let meta = |at: At| lab.folder("meta", at).join("meta");
    let read = |meta: &Path| {
        let text = fs::read_to_string(meta).unwrap();
        let _ = fs::remove_file(meta);
        text
    };
    // The lines a meta file has, but for the times, which vary.
    let facts = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("time-"))
            .map(String::from)
            .collect()
    };
    for at in levels() {
        let meta = meta(at);
        let options = ["--time-limit", "1", "--meta", meta.to_str().unwrap()];
        // The same status: each run's own meta file, read in turn, tells.
        let ran = lab.run(
            at,
            &options,
            Path::new("/bin/sh"),
            &["-c", "exit 124"],
            None,
        );
        assert_eq!(ran.code, 124, "{at:?}: {}", ran.stderr);
        let exited = read(&meta);
        let ran = lab.run(
            at,
            &options,
            Path::new("/bin/sh"),
            &["-c", "sleep 30"],
            None,
        );
        assert_eq!(ran.code, 124, "{at:?}: {}", ran.stderr);
        let timed_out = read(&meta);
        assert_eq!(
            facts(&exited),
            [
                "ending: exited",
                "status: 124",
                "exit: 124",
                "message: exited with status 124"
            ],
            "{at:?}: {exited}"
        );
        assert_eq!(
            facts(&timed_out),
            [
                "ending: time-limit",
                "exit: 124",
                "message: killed at the time limit (1 s)"
            ],
            "{at:?}: {timed_out}"
        );
        assert!(timed_out.contains("\ntime-wall: 1."), "{at:?}: {timed_out}");
    }
    let Some(at) = levels().first().copied() else {
        return;
    };
    let meta = meta(at);
    let options = ["--meta", meta.to_str().unwrap()];
    let missing = lab.run(at, &options, Path::new("/no/such/program"), &[], None);
    assert_eq!(missing.code, 127);
    assert_eq!(
        read(&meta),
        "ending: not-found\nexit: 127\nmessage: /no/such/program: not found\n"
    );
}

#[test]
fn the_run_sees_only_its_own_environment_and_folders() {
    let lab = Lab::new("the_run_sees_only_its_own_environment_and_folders");
    for at in levels() {
        let ran = lab.run(
            at,
            &[],
            Path::new("/bin/sh"),
            &["-c", "env | sort; ls / 2>&1 | sort; echo end"],
            None,
        );
        assert_eq!(ran.code, 0, "{at:?}: {}", ran.stderr);
        let lines: Vec<&str> = ran.stdout.lines().collect();
        assert!(lines[0].starts_with("HOME=/"), "{at:?}: {}", ran.stdout);
        assert_eq!(lines[1], "LANG=C", "{at:?}");
        assert_eq!(lines[2], "PATH=/usr/local/bin:/usr/bin:/bin", "{at:?}");
        assert!(lines[3].starts_with("PWD=/"), "{at:?}: {}", ran.stdout);
        assert!(lines[4].starts_with("TMPDIR=/"), "{at:?}: {}", ran.stdout);
        let listing = &lines[5..lines.len() - 1];
        if matches!(at, At::Namespaces | At::UserNamespaces) {
            for line in listing {
                assert!(
                    ["bin", "dev", "etc", "lib", "lib64", "proc", "sbin", "tmp", "usr"]
                        .contains(line),
                    "{at:?}: {line} in /: {}",
                    ran.stdout
                );
            }
        } else if files_held(at) {
            assert_eq!(
                listing,
                ["ls: cannot open directory '/': Permission denied"],
                "{at:?}"
            );
        }
    }
}

/// A key left in the uid's keyring by one run (`add_key`) is not read by
/// the next, which has the same uid: the filter denies the keyring calls.
#[test]
fn a_key_left_in_the_keyring_is_not_read_by_the_next_run() {
    let lab = Lab::new("a_key_left_in_the_keyring_is_not_read_by_the_next_run");
    let (leave, read) = (lab.compile("keyring_leave"), lab.compile("keyring_read"));
    for at in levels() {
        let name = marker("key");
        let ran = lab.run(at, &[], &leave, &[&name], None);
        assert_eq!(
            (ran.code, ran.stdout.as_str()),
            (0, "add_key: Operation not permitted\n"),
            "{at:?}"
        );
        let ran = lab.run(at, &[], &read, &[&name], None);
        assert_eq!(
            (ran.code, ran.stdout.as_str()),
            (0, "request_key: Operation not permitted\n"),
            "{at:?}"
        );
        assert_none_left(&name);
    }
}

/// POSIX shared memory a run leaves in `/dev/shm` is not there for the
/// next run, nor on the marker's machine: at `namespaces` each run has a
/// `/dev/shm` of its own; elsewhere Landlock keeps the run out of the
/// host's.
#[test]
fn shared_memory_left_by_a_run_is_not_there_for_the_next() {
    let lab = Lab::new("shared_memory_left_by_a_run_is_not_there_for_the_next");
    let exe = lab.compile("shm");
    for at in levels() {
        let name = marker("shm");
        let left = lab.run(at, &[], &exe, &["leave", &name], None);
        let read = lab.run(at, &[], &exe, &["read", &name], None);
        let on_host = Path::new("/dev/shm").join(&name);
        let leaked = on_host.exists();
        let _ = fs::remove_file(&on_host);
        assert!(!leaked, "{at:?}: {} on the host", on_host.display());
        let expected = match at {
            At::Namespaces | At::UserNamespaces => format!("left /{name}\n"),
            At::Uid | At::Minimal => "shm_open: Permission denied\n".into(),
        };
        assert_eq!((left.code, left.stdout), (0, expected), "{at:?}");
        assert_eq!(
            (read.code, read.stdout.as_str()),
            (0, "shm_open: No such file or directory\n"),
            "{at:?}"
        );
    }
}

/// An abstract Unix socket one run listens on is out of another's reach,
/// running at the same time: the filter denies `AF_UNIX` sockets where the
/// runs share a network namespace (or have none of their own), and a run
/// with a network namespace of its own has its own abstract sockets.
#[test]
fn a_socket_one_run_listens_on_is_out_of_another_runs_reach() {
    let lab = Lab::new("a_socket_one_run_listens_on_is_out_of_another_runs_reach");
    let exe = lab.compile("unix_socket");
    for at in levels() {
        let name = marker("socket");
        let (listened, connected) = std::thread::scope(|s| {
            let listener = s.spawn(|| lab.run(at, &[], &exe, &["listen", &name], None));
            std::thread::sleep(Duration::from_millis(500));
            let connected = lab.run(at, &[], &exe, &["connect", &name], None);
            (listener.join().unwrap(), connected)
        });
        let own_network = protections(at).is_ok_and(|l| l.contains("own PID, mount, network"));
        let (listens, connects) = if own_network {
            ("listening\n", "connect: Connection refused\n")
        } else {
            (
                "socket: Operation not permitted\n",
                "socket: Operation not permitted\n",
            )
        };
        assert_eq!(listened.stdout, listens, "{at:?}");
        assert_eq!(connected.stdout, connects, "{at:?}");
        assert_none_left(&name);
    }
}

/// A run gets one core, where the cpu controller can be had: two busy
/// threads for a second get at most about a second of CPU time.
#[test]
fn two_busy_threads_get_one_core() {
    let lab = Lab::new("two_busy_threads_get_one_core");
    let exe = lab.compile("two_cores");
    for at in levels() {
        if !protections(at).is_ok_and(|l| l.contains("cpu (one core a run)")) {
            // An ordinary user has no cgroups without delegation: not a
            // lack of this machine's, so no skip.
            if at.as_user().is_none() {
                skip(&format!(
                    "{at:?}: no cpu controller: {}",
                    protections(at).unwrap_or("")
                ));
            }
            continue;
        }
        let ran = lab.run(at, &[], &exe, &[], None);
        let times: Vec<f64> = ran
            .stdout
            .split_whitespace()
            .filter_map(|t| t.parse().ok())
            .collect();
        assert_eq!((ran.code, times.len()), (0, 2), "{at:?}: {}", ran.stderr);
        let (cpu, wall) = (times[0], times[1]);
        assert!(
            cpu <= wall * 1.1 + 50.0,
            "{at:?}: {cpu} ms of CPU in {wall} ms"
        );
    }
}

/// A run's addresses are the same at every run, at every level: its stack,
/// heap, code, C library and mappings (the child turns address randomisation
/// off, the paths it is given are as long each time). A program reading
/// memory it never wrote then gets the same grade in every grading.
#[test]
fn a_program_sees_the_same_addresses_at_every_run() {
    let lab = Lab::new("a_program_sees_the_same_addresses_at_every_run");
    let exe = lab.compile("addresses");
    for at in levels() {
        let first = lab.run(at, &[], &exe, &[], None);
        assert_eq!(first.code, 0, "{at:?}: {}", first.stderr);
        assert!(
            first.stdout.starts_with("stack 0x"),
            "{at:?}: {}",
            first.stdout
        );
        for _ in 0..2 {
            let again = lab.run(at, &[], &exe, &[], None);
            assert_eq!(again.stdout, first.stdout, "{at:?}");
        }
    }
}

/// `kill(-1)` and a signal to a process group of the marker's user reach
/// nothing outside the run: a process of the grader's user survives.
///
/// The victim is killed by its pid alone, never with `kill -9 -PGID`:
/// procps-ng 4.0.2's `kill` reads `-19000` there as `-1` (it sent
/// `kill(-1, SIGKILL)` as root, and ended every process of the machine);
/// `kill -SIG -- -PGID` is read right.
#[test]
fn kill_minus_one_reaches_nothing_outside_the_run() {
    let lab = Lab::new("kill_minus_one_reaches_nothing_outside_the_run");
    let exe = lab.compile("kill_all");
    for at in levels() {
        let name = marker("victim");
        let mut victim = Command::new("sh");
        victim
            .args(["-c", "while :; do sleep 0.1; done", &name])
            .process_group(0);
        if let Some(uid) = at.as_user() {
            victim.uid(uid).gid(uid);
        }
        let mut victim = victim.spawn().unwrap();
        let group = victim.id().to_string();
        let ran = lab.run(at, &[], &exe, &[&group, &name], None);
        let alive = victim.try_wait().unwrap().is_none();
        // Its whole group (its own): a fork of the shell on its way to
        // `sleep` has the shell's command line, and outlives the shell.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{group}")])
            .status();
        let _ = victim.wait();
        assert!(alive, "{at:?}: the victim was killed: {}", ran.stdout);
        let expected = match at {
            // The filter: the run shares the marker's uid.
            At::Minimal => {
                "kill(-1): Operation not permitted\nkill(-group): Operation not permitted\n"
            }
            // Its own uid: every other process refused it (which kill(-1)
            // does not report); the group is root's.
            At::Uid => "kill(-1): returned 0\nkill(-group): Operation not permitted\n",
            // Its own PID namespace: neither is there.
            At::Namespaces | At::UserNamespaces => {
                "kill(-1): No such process\nkill(-group): No such process\n"
            }
        };
        assert_eq!((ran.code, ran.stdout.as_str()), (0, expected), "{at:?}");
        assert_none_left(&name);
    }
}

/// A system call through another ABI (i386's `int $0x80`) kills the
/// program (`SIGSYS`): the filter knows only x86-64's numbers.
#[cfg(target_arch = "x86_64")]
#[test]
fn a_system_call_of_another_abi_kills_the_program() {
    let lab = Lab::new("a_system_call_of_another_abi_kills_the_program");
    let exe = lab.compile("i386_call");
    for at in levels() {
        let ran = lab.run(at, &[], &exe, &[], None);
        assert_eq!(
            (ran.code, ran.stdout.as_str(), ran.stderr.as_str()),
            (
                159,
                "",
                "calling\npuzzle-grade run: killed by signal 31 (SIGSYS)\n"
            ),
            "{at:?}"
        );
    }
}

/// Without namespaces (made here, as root, by a user namespace allowed no
/// nested one), the run still works, says what it lacks, and still leaves
/// no process: not a daemon, not a program killed at the time limit.
#[test]
fn without_namespaces_runs_still_leave_no_process() {
    let lab = Lab::new("without_namespaces_runs_still_leave_no_process");
    let daemon = lab.compile("daemon");
    let stubborn = lab.compile("ignore_term");
    let name = marker("fallback");
    let (errors, statuses) = (lab.output_file("err"), lab.output_file("statuses"));
    let script = format!(
        "echo 1 > /proc/sys/user/max_user_namespaces && exec unshare --map-user=1000 --map-group=1000 \
         sh -c '{g} run -v -- {d} {name} >/dev/null 2>{e}; echo $? >{s}; \
         {g} run --time 1 -- {t} {name} >/dev/null 2>>{e}; echo $? >>{s}'",
        g = lab.grader(),
        d = daemon.display(),
        t = stubborn.display(),
        e = errors.display(),
        s = statuses.display(),
    );
    let ran = Command::new("unshare")
        .args(["-r", "sh", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let errors = fs::read_to_string(&errors).unwrap_or_default();
    if ran.is_err() || !errors.contains("sandbox: level minimal") {
        skip("cannot take namespaces away here (needs unshare, as root)");
        return;
    }
    assert!(
        errors.contains("not available: namespaces (user namespace: "),
        "{errors}"
    );
    assert_eq!(fs::read_to_string(&statuses).unwrap(), "0\n124\n");
    assert_none_left(&name);
}

/// `script` run as root in a simulated container: a user namespace that
/// maps every uid (so that the grader is root with `CAP_SETUID`), with no
/// nested user namespace allowed, the cgroup file systems read-only, and
/// `CAP_SYS_ADMIN` out of the bounding set: what Docker gives an
/// autograder. Its stdout and stderr, or why it cannot be made here.
fn in_a_container(lab: &Lab, script: &str) -> Result<(String, String), String> {
    if !is_root() {
        return Err("the container is simulated as root".into());
    }
    let inner = "echo 0 > /proc/sys/user/max_user_namespaces || exit 97; \
         for d in /sys/fs/cgroup/* /sys/fs/cgroup; do mount -o remount,bind,ro \"$d\" || exit 98; done; \
         exec setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin sh -c \"$1\" </dev/null";
    let (out, err) = (lab.output_file("out"), lab.output_file("err"));
    // The maps are written from outside once the namespace exists; the
    // shell then executes itself again, to be root with the namespace's
    // capabilities.
    let mut child = Command::new("unshare")
        .args(["--user", "--mount", "sh", "-c"])
        .arg(format!("read go && exec sh -c '{inner}' container \"$0\""))
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(File::create(&out).unwrap())
        .stderr(File::create(&err).unwrap())
        .spawn()
        .map_err(|e| format!("unshare: {e}"))?;
    let pid = child.id();
    // Until unshare has made the namespace (the maps of the first cannot
    // be written).
    let ns = |p: &str| fs::read_link(format!("/proc/{p}/ns/user")).ok();
    let began = Instant::now();
    while ns(&pid.to_string()) == ns("self") && began.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let mapped = ["uid_map", "gid_map"]
        .iter()
        .all(|map| fs::write(format!("/proc/{pid}/{map}"), "0 0 4294967295\n").is_ok());
    let _ = child.stdin.take().unwrap().write_all(b"go\n");
    let status = child.wait().map_err(|e| e.to_string())?;
    let read = |p: &Path| fs::read_to_string(p).unwrap_or_default();
    let (out, err) = (read(&out), read(&err));
    if !mapped || matches!(status.code(), Some(97 | 98)) {
        return Err(format!("cannot simulate a container here: {err}"));
    }
    Ok((out, err))
}

/// In a container (simulated), the grader finds the `uid` level by itself,
/// and the hostile programs are still stopped: the network, the keyring,
/// another ABI, a daemon, the files outside.
#[test]
fn in_a_container_the_uid_level_is_chosen_and_holds() {
    let lab = Lab::new("in_a_container_the_uid_level_is_chosen_and_holds");
    let programs: Vec<PathBuf> = [
        "connect",
        "keyring_leave",
        "keyring_read",
        "daemon",
        "escape_files",
    ]
    .iter()
    .map(|p| lab.compile(p))
    .collect();
    let name = marker("container");
    let dir = lab.folder("container", At::Uid);
    let script = format!(
        "{g} run -v -- {connect} 9 {name}; \
         {g} run -- {leave} {name}; {g} run -- {read} {name}; \
         {g} run -- {daemon} {name}; \
         {g} run -- {escape} {name} {dir}",
        g = lab.grader(),
        connect = programs[0].display(),
        leave = programs[1].display(),
        read = programs[2].display(),
        daemon = programs[3].display(),
        escape = programs[4].display(),
        dir = dir.display(),
    );
    let (out, err) = match in_a_container(&lab, &script) {
        Ok(caught) => caught,
        Err(why) => return skip(&why),
    };
    assert!(
        err.starts_with("puzzle-grade run: sandbox: level uid: "),
        "{err}"
    );
    assert!(
        err.contains("not available: namespaces (user namespace: "),
        "{err}"
    );
    assert!(err.contains("cgroups (cgroup"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "no socket: Operation not permitted",
            "add_key: Operation not permitted",
            "request_key: Operation not permitted",
        ]
    );
    assert_eq!(
        lines[3],
        format!("could not write {}/{name}", dir.display())
    );
    assert!(!dir.join(&name).exists());
    assert_none_left(&name);
}

/// In a container (simulated: no memory cgroup can be had, the memory is
/// sampled), a program that exhausts its memory is `MEMORY LIMIT` as it is
/// as root with cgroups, run and graded; one that crashes with little
/// memory in use is a crash.
#[test]
fn in_a_container_a_program_that_exhausts_its_memory_meets_the_memory_limit() {
    let lab = Lab::new("container-memory");
    let exe = lab.compile("exhaust");
    let name = marker("container-memory");
    let dir = lab.folder("container-memory", At::Uid);
    fs::create_dir(dir.join("Tests")).unwrap();
    fs::copy(
        common::repo().join("Tests/sol4_assignment_example.inp"),
        dir.join("Tests/sol4_assignment_example.inp"),
    )
    .unwrap();
    let graded = dir.join("fill-crash");
    fs::copy(&exe, &graded).unwrap();
    let mut script = String::new();
    for mode in EXHAUSTING.iter().chain(&["null-crash"]) {
        script.push_str(&format!(
            "{grader} run --memory 64 -- {exe} {mode} {name} >/dev/null; echo \"{mode} $?\"; ",
            grader = lab.grader(),
            exe = exe.display()
        ));
    }
    script.push_str(&format!(
        "cd {dir} && {grader} grade --memory 64 --jobs 1 {graded} 2>/dev/null | grep -a Tests/; {grader} run -v -- /bin/true",
        grader = lab.grader(),
        dir = dir.display(),
        graded = graded.display()
    ));
    let (out, err) = match in_a_container(&lab, &script) {
        Ok(caught) => caught,
        Err(why) => return skip(&why),
    };
    let _ = fs::remove_dir_all(&dir);
    assert_none_left(&name);
    let level = err
        .lines()
        .find(|l| l.starts_with("puzzle-grade run: sandbox: "))
        .unwrap_or("");
    assert!(
        level.starts_with("puzzle-grade run: sandbox: level uid: ")
            && level.contains("the memory limit on resident memory, sampled every 10 ms"),
        "{err}"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..5],
        [
            "grow-crash 125",
            "grow-exit 125",
            "fill-crash 125",
            "fill-exit 125",
            "null-crash 139"
        ],
        "{out}\n{err}"
    );
    let runs: Vec<&str> = err
        .lines()
        .filter(|l| {
            l.starts_with("puzzle-grade run: ")
                && !l.contains("sandbox: level")
                && !l.starts_with("puzzle-grade run: time: ")
        })
        .collect();
    assert_eq!(runs.len(), 5, "{err}");
    for line in &runs[..4] {
        assert!(ends_stopped_by_64_mib(false, line), "{err}");
    }
    assert_eq!(runs[4], "puzzle-grade run: killed by signal 11 (SIGSEGV)");
    assert_eq!(
        lines[5],
        format!(
            "MEMORY LIMIT      Tests/sol4_assignment_example.inp: stopped by the memory limit (64 MiB {})",
            measured(false)
        ),
        "{out}"
    );
}

/// A build: `cc` in the submission's folder, read-write, then the program
/// it made run from there; the folder and what the build wrote in it are
/// the marker's again afterwards.
#[test]
fn a_build_works_in_its_folder_which_stays_the_markers() {
    let lab = Lab::new("a_build_works_in_its_folder_which_stays_the_markers");
    for at in levels() {
        let dir = lab.folder("build", at);
        fs::copy(
            crate_dir().join("tests/sandbox/close_stdout.c"),
            dir.join("prog.c"),
        )
        .unwrap();
        at.own(&dir);
        let ran = lab.run(
            at,
            &["--workdir", dir.to_str().unwrap()],
            Path::new("cc"),
            &["-o", "prog", "prog.c"],
            None,
        );
        assert_eq!((ran.code, ran.stderr.as_str()), (0, ""), "{at:?}");
        let owner = |p: &Path| fs::metadata(p).map(|m| (m.uid(), m.gid())).unwrap();
        assert_eq!(owner(&dir.join("prog")), owner(&dir), "{at:?}");
        assert_eq!(owner(&dir.join("prog.c")), owner(&dir), "{at:?}");
        let prog = dir.join("prog");
        let ran = lab.run(
            at,
            &["--read-only", prog.to_str().unwrap()],
            &prog,
            &[],
            None,
        );
        assert_eq!(
            (ran.code, ran.stdout.as_str(), ran.stderr.as_str()),
            (0, "solvable\n", "still here\n"),
            "{at:?}"
        );
    }
}

/// `check-environment` names each level, the controllers and the timing,
/// one line each, and fails (status 1) exactly when it says to change
/// something.
#[test]
fn check_environment_names_the_levels_the_controllers_and_the_timing() {
    let out = Command::new(BIN).arg("check-environment").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("  "))
        .filter_map(|l| l.split(": ").next())
        .collect();
    for name in [
        "level namespaces",
        "level uid",
        "level minimal",
        "chosen level",
        "cgroups",
        "memory limit",
        "Landlock",
        "address randomisation",
        "this process",
        "load",
        "simultaneous multithreading",
        "CPU frequency governor",
        "frequency boost",
        "transparent huge pages",
        "swap",
    ] {
        assert!(names.contains(&name), "{name}: {text}");
    }
    assert!(text.contains("level minimal: available\n"), "{text}");
    let changes = text.contains("\n  to change: ");
    assert_eq!(
        out.status.code(),
        Some(if changes { 1 } else { 0 }),
        "{text}"
    );
    let bad = Command::new(BIN)
        .args(["check-environment", "now"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn bad_command_lines_exit_2_and_a_missing_program_127() {
    let lab = Lab::new("bad_command_lines_exit_2_and_a_missing_program_127");
    let out = Command::new(BIN)
        .args(["run", "--memory", "lots", "--", "/bin/true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "puzzle-grade run: --memory: should be a whole number of MiB, at least 1, but is 'lots'\n\
         Try 'puzzle-grade run --help' for more information.\n"
    );
    let ran = lab.run(
        At::Namespaces,
        &[],
        Path::new("/no/such/program"),
        &[],
        None,
    );
    assert_eq!(
        (ran.code, ran.stderr.as_str()),
        (127, "puzzle-grade run: /no/such/program: not found\n")
    );
}
