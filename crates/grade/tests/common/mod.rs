//! What the grading crate's integration tests share: where the repository
//! and the binaries are, a scratch folder of each test's own ([`Scratch`]),
//! and how a test that cannot run here says so.
//!
//! Each test file takes what it needs with `mod common;`; an item one file
//! does not use is no warning (`allow(dead_code)`).

#![allow(dead_code)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The repository's top folder: `Tests/`, `Testrun`, `examples/`,
/// `tests/grading/` (the README's demo) are there.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository holds crates/grade")
}

/// This crate's folder (`tests/sandbox/*.c` are under it).
pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `puzzle-grade` binary cargo built for these tests.
pub fn grader_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_puzzle-grade"))
}

/// The reference, the `puzzle` binary of the root package. `cargo test` at
/// the top builds it with every other member's tests; `cargo test -p
/// puzzle-grade` does not (a binary of another package is no dependency),
/// so it is built here once, in the test profile, when it is missing.
pub fn puzzle_bin() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            // Cargo puts every binary of the workspace in one folder.
            let path =
                grader_bin().with_file_name(format!("puzzle{}", std::env::consts::EXE_SUFFIX));
            if !path.is_file() {
                let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
                let status = Command::new(cargo)
                    .args([
                        "build",
                        "--profile",
                        "test",
                        "-p",
                        "puzzle",
                        "--bin",
                        "puzzle",
                    ])
                    .current_dir(repo())
                    .status()
                    .expect("cargo runs");
                assert!(status.success(), "cargo build -p puzzle failed");
            }
            assert!(path.is_file(), "no {}", path.display());
            path
        })
        .clone()
}

/// Says on stderr that a test is skipped, and why. Where every test must run
/// (`PUZZLE_TESTS_REQUIRE_ALL=1`, as CI sets it), a skip is a failure.
pub fn skip(why: &str) {
    if std::env::var_os("PUZZLE_TESTS_REQUIRE_ALL").is_some_and(|v| v == "1") {
        panic!("cannot run here, and PUZZLE_TESTS_REQUIRE_ALL=1: {why}");
    }
    eprintln!("skipped: {why}");
}

/// Whether every one of `tools` is installed here (a command the shell
/// finds); if not, the test says it is skipped, naming those missing
/// ([`skip`]: a failure where every test must run).
pub fn tools_here(tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|tool| {
            !Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .stdout(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .collect();
    if !missing.is_empty() {
        skip(&format!("not installed: {}", missing.join(", ")));
    }
    missing.is_empty()
}

/// Every file under `dir`, by its path there, with what varies from one
/// grading to the next masked ([`masked`]): two gradings of one folder
/// compare equal file by file.
pub fn masked_files(dir: &Path) -> std::collections::BTreeMap<String, String> {
    fn collect(dir: &Path, prefix: &Path, into: &mut std::collections::BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = prefix.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                collect(&entry.path(), &name, into);
            } else {
                let bytes = std::fs::read(entry.path()).unwrap();
                let text = String::from_utf8_lossy(&bytes);
                into.insert(name.display().to_string(), masked(&text));
            }
        }
    }
    let mut files = std::collections::BTreeMap::new();
    collect(dir, Path::new(""), &mut files);
    files
}

/// `text` with what varies from one grading to the next replaced: numbers
/// with a decimal point (times), numbers of seven digits or more (uids),
/// dates; each line's runs of blanks made one (columns aligned by the
/// widths of what they hold), and which run was the slowest.
pub fn masked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric()) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let number: String = chars[start..i].iter().collect();
            let dated = i < chars.len() && chars[i] == '-' && number.len() == 4;
            if number.contains('.') || number.len() >= 7 {
                out.push('#');
            } else if dated {
                // 2026-11-27T21:30:05Z
                while i < chars.len()
                    && !chars[i].is_whitespace()
                    && chars[i] != '"'
                    && chars[i] != ','
                    && chars[i] != '<'
                {
                    i += 1;
                }
                out.push_str("DATE");
            } else {
                out.push_str(&number);
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    out.lines()
        .map(|l| match l.strip_prefix("slowest: ") {
            Some(rest) => format!("slowest: ...{}", &rest[rest.find(',').unwrap_or(0)..]),
            None => l.split_whitespace().collect::<Vec<_>>().join(" "),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// How the name of every [`Scratch`] folder begins.
const SCRATCH_PREFIX: &str = "puzzle-test.";

/// A folder of one test's own, made empty by [`Scratch::new`] and removed,
/// with everything in it, when the `Scratch` is dropped: at the end of the
/// test, whether it passed or failed. It reads as the folder's path
/// (`Deref` to [`Path`]: `scratch.join("Tests")`).
///
/// It is in the system's temporary folder (`std::env::temp_dir()`, or
/// `/tmp` when that folder is not open to every user), never in the clone:
/// the sandbox's tests run their programs, and the grader runs students'
/// programs, as other users (uid 65534, the runs' own uids), who must reach
/// them wherever the clone is, in a folder only root may enter too
/// (`/root/puzzle`, a `mktemp -d` folder). So the folder is mode 0755 and
/// every folder above it open to all.
///
/// Its name is `puzzle-test.PID.N.NAME`: this test process, a counter, the
/// name the test gives. Tests running at once, in this process or in
/// another clone's, never share one, and a test may make several. A folder
/// whose process is gone (killed before its `Scratch` was dropped, or held
/// by a `static`, which is never dropped) is removed by the first `Scratch`
/// another test process makes.
pub struct Scratch(PathBuf);

impl Scratch {
    /// An empty folder for the test, named for it (`name`).
    pub fn new(name: &str) -> Scratch {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        static SWEPT: OnceLock<()> = OnceLock::new();
        SWEPT.get_or_init(sweep_scratch_folders);
        let base = scratch_base();
        let name: String = name
            .chars()
            .map(|c| if c == '/' { '-' } else { c })
            .collect();
        let dir = base.join(format!(
            "{SCRATCH_PREFIX}{}.{}.{name}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        // What a process of the same number left long ago.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
        // Whatever the umask: other users must reach what is in it.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        Scratch(dir)
    }

    /// The folder with `Tests/` holding copies of `fixtures` (of the
    /// repository's `Tests/`).
    pub fn with_fixtures(self, fixtures: &[&str]) -> Scratch {
        let tests = self.join("Tests");
        std::fs::create_dir_all(&tests).unwrap();
        for fixture in fixtures {
            std::fs::copy(repo().join("Tests").join(fixture), tests.join(fixture))
                .unwrap_or_else(|e| panic!("Tests/{fixture}: {e}"));
        }
        self
    }

    /// The folder's path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Copies the folder `from` (its files and folders) to `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Where scratch folders are made: the temporary folder, if every folder
/// from `/` down to it lets every user through, else `/tmp`.
pub fn scratch_base() -> PathBuf {
    let temp = std::env::temp_dir();
    let open_to_all = temp.is_absolute()
        && temp.ancestors().all(|dir| {
            std::fs::metadata(dir).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o001 != 0)
        });
    if open_to_all {
        temp
    } else {
        PathBuf::from("/tmp")
    }
}

/// Removes the scratch folders of test processes that are gone (where
/// `/proc` tells which are alive).
pub fn sweep_scratch_folders() {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(scratch_base()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let pid = name
            .strip_prefix(SCRATCH_PREFIX)
            .and_then(|rest| rest.split('.').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid {
            if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// A scratch folder (`name`) with `Tests/` holding copies of `fixtures`,
/// and `subs/` a submission a `(name, prelude)`: `tests/grading/checker.c`,
/// as `puzzle.c`, after `prelude` (its macros: `#define NO_ROW_TERM`...).
pub fn class_folder(name: &str, fixtures: &[&str], submissions: &[(&str, &str)]) -> Scratch {
    let dir = Scratch::new(name).with_fixtures(fixtures);
    submissions_in(&dir.join("subs"), submissions);
    dir
}

/// `puzzle-grade ARGS...` run in `dir`: its output.
pub fn grader(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(grader_bin())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `puzzle-grade ARGS...` run in `dir`, which ends with status 1 (a
/// program graded failed a fixture): its output.
pub fn grade_failing(dir: &Path, args: &[&str]) -> std::process::Output {
    let out = grader(dir, args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Submissions in `folder`, a `(name, prelude)` each, as [`class_folder`]
/// makes them.
pub fn submissions_in(folder: &Path, submissions: &[(&str, &str)]) {
    let checker = std::fs::read_to_string(repo().join("tests/grading/checker.c")).unwrap();
    for (name, prelude) in submissions {
        let dir = folder.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("puzzle.c"), format!("{prelude}{checker}")).unwrap();
    }
}

/// Five fixtures that tell the classic faults apart: two bad, two 4x4 (one
/// where the blank's row decides), one 2x2.
pub const FIVE_FIXTURES: [&str; 5] = [
    "bad_empty_input.inp",
    "bad_repeated_tile.inp",
    "sol4_assignment_example.inp",
    "sol4_start_blank_on_last_cell_row_parity.inp",
    "unsol2_tiles_swapped.inp",
];

/// A command that runs `program` with SIGINT at its default. A test run
/// from a script's background job starts with SIGINT ignored (POSIX), and
/// our binaries, as Unix tools do, keep an ignored SIGINT ignored: a test
/// that sends SIGINT would wait in vain. coreutils' `env
/// --default-signal` (8.31 and later) puts it back; without it, `program`
/// as it is.
pub fn with_default_sigint(program: &Path) -> Command {
    static ENV_CAN: OnceLock<bool> = OnceLock::new();
    let can = *ENV_CAN.get_or_init(|| {
        Command::new("env")
            .args(["--default-signal=INT", "true"])
            .status()
            .is_ok_and(|s| s.success())
    });
    if can {
        let mut command = Command::new("env");
        command.arg("--default-signal=INT").arg(program);
        command
    } else {
        Command::new(program)
    }
}

/// The CRC-32 of `data` (the zip format's), for the tests that write a
/// zip as a student's tool would (no `zip` needed on the test machine).
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A zip archive of `files` (name, bytes), stored, as a student's zip
/// tool writes one (no `zip` needed on the test machine).
pub fn stored_zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    for (name, data) in files {
        let offset = out.len() as u32;
        let fields = |central: bool| {
            let mut h: Vec<u8> = Vec::new();
            if central {
                h.extend(0x031eu16.to_le_bytes());
            }
            h.extend(10u16.to_le_bytes());
            h.extend([0u8; 8]);
            h.extend(crc32(data).to_le_bytes());
            h.extend((data.len() as u32).to_le_bytes());
            h.extend((data.len() as u32).to_le_bytes());
            h.extend((name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes());
            if central {
                h.extend([0u8; 6]);
                h.extend((0o100644u32 << 16).to_le_bytes());
                h.extend(offset.to_le_bytes());
            }
            h.extend(name.as_bytes());
            h
        };
        out.extend(b"PK\x03\x04");
        out.extend(fields(false));
        out.extend_from_slice(data);
        central.extend(b"PK\x01\x02");
        central.extend(fields(true));
    }
    let start = out.len() as u32;
    out.extend(&central);
    out.extend(b"PK\x05\x06\0\0\0\0");
    out.extend((files.len() as u16).to_le_bytes());
    out.extend((files.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(start.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A test that the machine's load keeps from telling anything says so and
/// why: "skipped", even under `PUZZLE_TESTS_REQUIRE_ALL` (that asks for
/// every capability; the scheduler's share is not one: in CI the suite's
/// own load, 4.65 on 2 cores, left the "alone" grading NOT GRADED).
pub fn skip_busy(why: &str) {
    eprintln!("skipped: {why}");
}

/// Held by every test that measures the machine's load (its own busy
/// threads, or a grading "alone" to compare with one beside them) for its
/// whole run: two such tests at once are each other's hogs (make test on a
/// fresh clone: the "alone" grading starved by the other test's threads).
pub fn load_alone() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Busy threads of this test process, as many as `per_core` times its
/// cores, spinning until dropped: a machine whose cores a run must share
/// (as `yes > /dev/null` on every core would make it). Started a moment
/// before it is returned, so that they hold the cores.
pub struct Hogs {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Hogs {
    /// `per_core` busy threads a core.
    pub fn start(per_core: usize) -> Hogs {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = (0..per_core * cores)
            .map(|_| {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_add(1));
                    }
                })
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(100));
        Hogs { stop, threads }
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
