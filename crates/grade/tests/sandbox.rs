//! The sandbox, driven through `puzzle-grade run` with hostile programs
//! (`tests/sandbox/*.c`, compiled here with `cc`): each must leave the
//! marker's machine unharmed, leave no process behind, and be told apart by
//! the way its run ended.
//!
//! A process is found by a marker: every hostile program gets a unique word
//! as an argument, which stays in the command line of every process it
//! forks; after the run no process in `/proc` may have it.
//!
//! Where the system gives no namespaces (checked once, from the protections
//! line of `puzzle-grade run -v`), the tests that need them say why and
//! pass; the limits are checked everywhere, and named where cgroups are.

mod common;

use common::crate_dir;

use std::fs::{self, File};
use std::io::ErrorKind;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_puzzle-grade");

/// The protections line of `puzzle-grade run -v`, found once.
fn protections() -> &'static str {
    static LINE: OnceLock<String> = OnceLock::new();
    LINE.get_or_init(|| {
        let out = Command::new(BIN)
            .args(["run", "-v", "--", "/bin/true"])
            .output()
            .expect("puzzle-grade runs");
        String::from_utf8_lossy(&out.stderr).into_owned()
    })
}

/// Whether runs get namespaces; says why not when they do not.
fn namespaces() -> bool {
    let line = protections();
    let ok = line.contains("own PID, mount, ") && !line.contains("not available: namespaces");
    if !ok {
        eprintln!("skipped: no namespaces on this system: {}", line.trim());
    }
    ok
}

/// Whether the memory and process limits are told apart (by cgroups).
fn cgroups() -> bool {
    let ok = protections().contains("cgroups: memory (the memory limit), pids");
    if !ok {
        eprintln!("not checked: no cgroups to tell the limit from a crash");
    }
    ok
}

/// A folder of this test's own under cargo's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("sandbox")
        .join(format!("{name}.{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tests/sandbox/NAME.c`, compiled.
fn compile(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sandbox-programs");
    fs::create_dir_all(&dir).unwrap();
    let exe = dir.join(name);
    let source = crate_dir().join("tests/sandbox").join(format!("{name}.c"));
    let status = Command::new("cc")
        .args(["-O1", "-w", "-o"])
        .arg(&exe)
        .arg(&source)
        .status()
        .expect("cc runs");
    assert!(status.success(), "cc {}", source.display());
    exe
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

/// A fresh file name under cargo's temporary folder, for caught output.
fn output_file(what: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sandbox-output");
    fs::create_dir_all(&dir).unwrap();
    dir.join(format!(
        "{}.{}.{what}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

/// `puzzle-grade run OPTIONS -- PROGRAM ARGS`, input empty, output caught
/// in files (or into `stdout` when given): not pipes, so that a process the
/// sandbox failed to kill cannot keep the test waiting for their end.
fn run(options: &[&str], program: &Path, args: &[&str], stdout: Option<File>) -> Ran {
    let began = Instant::now();
    let (out_path, err_path) = (output_file("out"), output_file("err"));
    let status = Command::new(BIN)
        .arg("run")
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

/// No process has `marker`; any that has is killed, then the test fails.
fn assert_none_left(marker: &str) {
    let left = processes_with(marker);
    for p in &left {
        let pid = p.split(':').next().unwrap_or_default();
        let _ = Command::new("kill").args(["-9", pid]).status();
    }
    assert_eq!(left, Vec::<String>::new(), "left running");
}

#[test]
fn writes_to_home_and_above_the_work_folder_are_kept_away() {
    if !namespaces() {
        return;
    }
    let exe = compile("escape_files");
    let dir = scratch("escape");
    let work = dir.join("work");
    fs::create_dir(&work).unwrap();
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let name = marker("escape");
    for options in [vec![], vec!["--workdir", work.to_str().unwrap()]] {
        let ran = run(&options, &exe, &[&name, &home], None);
        assert_eq!(ran.code, 0, "{}", ran.stderr);
        assert!(
            ran.stdout
                .starts_with(&format!("could not write {home}/{name}\n")),
            "{}",
            ran.stdout
        );
        let harmed: Vec<PathBuf> = [
            Path::new(&home),
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
        assert_eq!(harmed, Vec::<PathBuf>::new(), "written outside");
    }
    // The build case: the work folder itself is the run's to write.
    assert!(work.join(&name).exists());
    assert_none_left(&name);
}

#[test]
fn a_daemon_in_a_new_session_dies_with_the_run() {
    if !namespaces() {
        return;
    }
    let exe = compile("daemon");
    let name = marker("daemon");
    let ran = run(&[], &exe, &[&name], None);
    assert_eq!((ran.code, ran.stderr.as_str()), (0, ""));
    assert_none_left(&name);
}

#[test]
fn three_hundred_children_meet_the_process_limit() {
    let exe = compile("children");
    let name = marker("children");
    let ran = run(&[], &exe, &[&name], None);
    if cgroups() {
        assert_eq!(ran.code, 125, "{}", ran.stderr);
        assert!(ran
            .stderr
            .ends_with("puzzle-grade: run: stopped by the process limit (64 processes)\n"));
    } else {
        assert_ne!(ran.code, 0);
    }
    assert_none_left(&name);
}

#[test]
fn six_gigabytes_meet_the_memory_limit() {
    let exe = compile("memory");
    let name = marker("memory");
    let ran = run(&[], &exe, &[&name], None);
    if cgroups() {
        assert_eq!(
            (ran.code, ran.stderr.as_str()),
            (
                125,
                "puzzle-grade: run: stopped by the memory limit (1024 MiB)\n"
            )
        );
    } else {
        assert_ne!(ran.code, 0);
    }
    assert_none_left(&name);
}

#[test]
fn a_four_gigabyte_file_meets_the_file_size_limit() {
    let exe = compile("big_file");
    let name = marker("big");
    let ran = run(&["--file-size", "16"], &exe, &[&name], None);
    assert_eq!(
        (ran.code, ran.stderr.as_str()),
        (
            153,
            "puzzle-grade: run: stopped by the file-size limit (16 MiB)\n"
        )
    );
    assert_none_left(&name);
}

#[test]
fn a_tcp_connection_to_the_markers_machine_fails() {
    if !namespaces() {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let exe = compile("connect");
    let name = marker("connect");
    let ran = run(&[], &exe, &[&port, &name], None);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(ran.stdout, "no socket: Operation not permitted\n");
    let accepted = listener.accept().map(|(_, peer)| peer);
    assert_eq!(
        accepted.map_err(|e| e.kind()),
        Err(ErrorKind::WouldBlock),
        "the listener saw a connection"
    );
    assert_none_left(&name);
}

#[test]
fn a_search_of_the_folders_above_finds_no_other_submission() {
    if !namespaces() {
        return;
    }
    let exe = compile("search");
    let dir = scratch("search");
    let name = marker("secret");
    fs::create_dir_all(dir.join("other")).unwrap();
    fs::create_dir_all(dir.join("mine")).unwrap();
    let planted = dir.join("other").join(&name);
    fs::write(&planted, "another student's program\n").unwrap();
    let ran = run(
        &["--workdir", dir.join("mine").to_str().unwrap()],
        &exe,
        &[&name, planted.to_str().unwrap()],
        None,
    );
    assert_eq!(
        (ran.code, ran.stdout.as_str(), ran.stderr.as_str()),
        (0, "0 found\n", "")
    );
    assert_none_left(&name);
}

#[test]
fn a_program_that_ignores_sigterm_is_killed_at_the_time_limit() {
    let exe = compile("ignore_term");
    let name = marker("term");
    let ran = run(&["--time", "1"], &exe, &[&name], None);
    assert_eq!(
        (ran.code, ran.stderr.as_str()),
        (124, "puzzle-grade: run: killed at the time limit (1 s)\n")
    );
    assert!(ran.elapsed < Duration::from_secs(5), "{:?}", ran.elapsed);
    assert_none_left(&name);
}

#[test]
fn endless_output_meets_the_file_size_limit() {
    let exe = compile("print_forever");
    let name = marker("print");
    let out = scratch("print").join("out");
    let ran = run(
        &["--file-size", "1"],
        &exe,
        &[&name],
        Some(File::create(&out).unwrap()),
    );
    assert_eq!(
        (ran.code, ran.stderr.as_str()),
        (
            153,
            "puzzle-grade: run: stopped by the file-size limit (1 MiB)\n"
        )
    );
    assert_eq!(fs::metadata(&out).unwrap().len(), 1 << 20);
    assert_none_left(&name);
}

#[test]
fn closing_stdout_early_is_an_ordinary_end() {
    let exe = compile("close_stdout");
    let name = marker("close");
    let ran = run(&[], &exe, &[&name], None);
    assert_eq!(
        (ran.code, ran.stdout.as_str(), ran.stderr.as_str()),
        (0, "solvable\n", "still here\n")
    );
    assert_none_left(&name);
}

#[test]
fn signals_reach_the_program_which_is_not_the_namespaces_init() {
    let ran = run(&[], Path::new("/bin/sh"), &["-c", "kill -SEGV $$"], None);
    assert_eq!(
        (ran.code, ran.stderr.as_str()),
        (139, "puzzle-grade: run: killed by signal 11 (SIGSEGV)\n")
    );
}

#[test]
fn the_exit_status_is_passed_on_and_named() {
    let ran = run(&[], Path::new("/bin/sh"), &["-c", "exit 3"], None);
    assert_eq!(
        (ran.code, ran.stderr.as_str()),
        (3, "puzzle-grade: run: exited with status 3\n")
    );
}

#[test]
fn the_run_sees_only_its_own_environment_and_folders() {
    if !namespaces() {
        return;
    }
    let ran = run(
        &[],
        Path::new("/bin/sh"),
        &["-c", "env | sort; ls /; ls /tmp | wc -l"],
        None,
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let lines: Vec<&str> = ran.stdout.lines().collect();
    assert!(lines[0].starts_with("HOME=/"), "{}", ran.stdout);
    assert_eq!(lines[1], "LANG=C");
    assert_eq!(lines[2], "PATH=/usr/local/bin:/usr/bin:/bin");
    assert!(lines[3].starts_with("PWD=/"), "{}", ran.stdout);
    assert!(lines[4].starts_with("TMPDIR=/"), "{}", ran.stdout);
    for line in &lines[5..lines.len() - 1] {
        assert!(
            ["bin", "dev", "etc", "lib", "lib64", "proc", "sbin", "tmp", "usr"].contains(line),
            "{line} in /: {}",
            ran.stdout
        );
    }
}

/// A key left in the uid's keyring by one run (`add_key`) is not read by
/// the next, which has the same uid: the filter denies the keyring calls.
#[test]
fn a_key_left_in_the_keyring_is_not_read_by_the_next_run() {
    let (leave, read) = (compile("keyring_leave"), compile("keyring_read"));
    let name = marker("key");
    let ran = run(&[], &leave, &[&name], None);
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "add_key: Operation not permitted\n")
    );
    let ran = run(&[], &read, &[&name], None);
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "request_key: Operation not permitted\n")
    );
    assert_none_left(&name);
}

/// Without namespaces (made here, as root, by a user namespace allowed no
/// nested one), the run still works, says what it lacks, and still leaves
/// no process: not a daemon, not a program killed at the time limit.
#[test]
fn without_namespaces_runs_still_leave_no_process() {
    let daemon = compile("daemon");
    let stubborn = compile("ignore_term");
    let name = marker("fallback");
    let (errors, statuses) = (output_file("err"), output_file("statuses"));
    let script = format!(
        "echo 1 > /proc/sys/user/max_user_namespaces && exec unshare --map-user=1000 --map-group=1000 \
         sh -c '{BIN} run -v -- {d} {name} >/dev/null 2>{e}; echo $? >{s}; \
         {BIN} run --time 1 -- {t} {name} >/dev/null 2>>{e}; echo $? >>{s}'",
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
    if ran.is_err() || !errors.contains("not available: namespaces (") {
        eprintln!("skipped: cannot take namespaces away here (needs unshare, as root)");
        return;
    }
    assert_eq!(fs::read_to_string(&statuses).unwrap(), "0\n124\n");
    assert_none_left(&name);
}

/// A build: `cc` in the submission's folder, read-write, then the program
/// it made run from there; the folder and what the build wrote in it are
/// the marker's again afterwards.
#[test]
fn a_build_works_in_its_folder_which_stays_the_markers() {
    use std::os::unix::fs::MetadataExt;
    let dir = scratch("build");
    fs::copy(
        crate_dir().join("tests/sandbox/close_stdout.c"),
        dir.join("prog.c"),
    )
    .unwrap();
    let ran = run(
        &["--workdir", dir.to_str().unwrap()],
        Path::new("cc"),
        &["-o", "prog", "prog.c"],
        None,
    );
    assert_eq!((ran.code, ran.stderr.as_str()), (0, ""));
    let owner = |p: &Path| fs::metadata(p).map(|m| (m.uid(), m.gid())).unwrap();
    assert_eq!(owner(&dir.join("prog")), owner(&dir));
    assert_eq!(owner(&dir.join("prog.c")), owner(&dir));
    let prog = dir.join("prog");
    let ran = run(&["--read", prog.to_str().unwrap()], &prog, &[], None);
    assert_eq!(
        (ran.code, ran.stdout.as_str(), ran.stderr.as_str()),
        (0, "solvable\n", "still here\n")
    );
}

#[test]
fn bad_command_lines_exit_2_and_a_missing_program_127() {
    let out = Command::new(BIN)
        .args(["run", "--memory", "lots", "--", "/bin/true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "puzzle-grade: run: --memory: should be a positive whole number, but is \"lots\"\n\
         (puzzle-grade run --help for usage)\n"
    );
    let ran = run(&[], Path::new("/no/such/program"), &[], None);
    assert_eq!(
        (ran.code, ran.stderr.as_str()),
        (127, "puzzle-grade: run: /no/such/program: not found\n")
    );
}
