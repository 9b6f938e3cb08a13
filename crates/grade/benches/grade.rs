//! `make bench-grade`: what grading costs beyond the programs' own run time.
//!
//! It builds `tests/grading/checker.c` three ways (right, a wrong parity
//! rule, a lenient reader), then for each, several rounds in turn:
//! - the programs' own time: every fixture of `Tests/` run plainly, one after
//!   another (`Command::spawn` and `wait`, stdin the fixture, stdout and
//!   stderr to files), summed;
//! - `./puzzle-grade grade --jobs 1` on the same program and fixtures, its
//!   wall time (every run in the sandbox, the reference's answers, the
//!   judging and the report), and with the default jobs (one a core).
//!
//! It prints the medians, the overhead a run and the ratios. A benchmark,
//! not a test: nothing here fails on time.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: usize = 5;

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn fixtures(root: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(root.join("Tests"))
        .expect("Tests/")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            ["bad", "sol", "unsol"].iter().any(|c| name.starts_with(c))
        })
        .collect();
    found.sort();
    found
}

/// Every fixture run plainly, one after another.
fn plain(program: &Path, fixtures: &[PathBuf], out: &Path) -> Duration {
    let began = Instant::now();
    for fixture in fixtures {
        Command::new(program)
            .stdin(File::open(fixture).expect("fixture"))
            .stdout(File::create(out.join("out")).expect("out"))
            .stderr(File::create(out.join("err")).expect("err"))
            .status()
            .expect("the program runs");
    }
    began.elapsed()
}

/// `./puzzle-grade grade` with `jobs` (none: the default).
fn graded(root: &Path, program: &Path, jobs: Option<&str>) -> Duration {
    let began = Instant::now();
    let mut command = Command::new(root.join("puzzle-grade"));
    command.arg("grade");
    if let Some(jobs) = jobs {
        command.args(["--jobs", jobs]);
    }
    command
        .arg(program)
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("puzzle-grade runs");
    began.elapsed()
}

fn main() {
    // The repository's top folder, where `make` puts ./puzzle-grade.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    assert!(
        root.join("puzzle-grade").exists(),
        "run `make` first: ./puzzle-grade is missing"
    );
    let dir = root.join("bench-out/grade");
    fs::create_dir_all(&dir).expect("cannot create bench-out/grade");
    let fixtures = fixtures(&root);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{} fixtures; median of {ROUNDS} rounds, in turn; {cores} cores",
        fixtures.len()
    );
    println!(
        "{:<12} {:>9} {:>11} {:>9} {:>11} {:>11}",
        "program", "plain s", "jobs 1 s", "ms a run", "default s", "plain/def"
    );
    for (name, flags) in [
        ("right", &[][..]),
        ("no-row-term", &["-DNO_ROW_TERM"][..]),
        ("lenient", &["-DLENIENT"][..]),
    ] {
        let program = dir.join(name);
        let built = Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&program)
            .args(flags)
            .arg(root.join("tests/grading/checker.c"))
            .status()
            .expect("cc runs");
        assert!(built.success());
        let (mut p, mut one, mut all) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            p.push(plain(&program, &fixtures, &dir));
            one.push(graded(&root, &program, Some("1")));
            all.push(graded(&root, &program, None));
        }
        let (p, one, all) = (median(p), median(one), median(all));
        let per_run = (one.as_secs_f64() - p.as_secs_f64()) / fixtures.len() as f64 * 1000.0;
        println!(
            "{name:<12} {:>9.3} {:>11.3} {per_run:>9.2} {:>11.3} {:>11.2}",
            p.as_secs_f64(),
            one.as_secs_f64(),
            all.as_secs_f64(),
            p.as_secs_f64() / all.as_secs_f64()
        );
    }
}
