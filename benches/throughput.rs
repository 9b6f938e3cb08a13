//! `make bench`: how fast `./puzzle` reads, checks and echoes big boards, against
//! `wc -w` reading the same file in the same run, and how much memory it takes.
//!
//! For each size it generates a random pair with a random goal (with the release
//! `puzzle --generate`), then times `./puzzle < FILE > /dev/null` and
//! `wc -w < FILE > /dev/null` in turn, several rounds, and prints the medians,
//! their ratio and the peak resident memory (from `/usr/bin/time -f %M`, when
//! that program exists). It then times the hostile inputs that must fail fast.
//! It is a benchmark, not a test: nothing here fails on time.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: usize = 9;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let puzzle = root.join("puzzle");
    assert!(puzzle.exists(), "run `make` first: ./puzzle is missing");
    let dir = root.join("bench-out");
    std::fs::create_dir_all(&dir).expect("cannot create bench-out/");
    let sizes: Vec<usize> = match std::env::var("BENCH_SIZES") {
        Ok(list) => list
            .split(',')
            .filter_map(|s| s.trim().parse().ok())
            .collect(),
        Err(_) => vec![100, 300, 1000, 3000],
    };

    println!("reading, checking and echoing a random pair with a random goal;");
    println!("median of {ROUNDS} runs each, in turn; memory: peak resident set");
    println!();
    println!(
        "{:>6} {:>10} {:>11} {:>11} {:>7} {:>10} {:>10}",
        "side", "bytes", "puzzle ms", "wc -w ms", "ratio", "peak MiB", "limit MiB"
    );
    for &side in &sizes {
        let file = dir.join(format!("random{side}.txt"));
        if !file.exists() {
            let out = File::create(&file).expect("cannot create an input file");
            let status = Command::new(&puzzle)
                .args(["--generate", &side.to_string(), "--random-goal", "--seed"])
                .arg(side.to_string())
                .stdout(out)
                .status()
                .expect("cannot run ./puzzle --generate");
            assert!(status.success(), "./puzzle --generate failed");
        }
        let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for _ in 0..ROUNDS {
            ours.push(time(Command::new(&puzzle), &file));
            theirs.push(time(wc(), &file));
        }
        let (ours, theirs) = (median(ours), median(theirs));
        let cells = (side * side) as f64;
        let limit = (10.0 * cells + 8.0 * 1048576.0) / 1048576.0;
        println!(
            "{side:>6} {bytes:>10} {:>11.1} {:>11.1} {:>7.2} {:>10} {:>10.1}",
            ms(ours),
            ms(theirs),
            ours.as_secs_f64() / theirs.as_secs_f64(),
            peak_mib(&puzzle, &[], &file).map_or("-".into(), |m| format!("{m:.1}")),
            limit
        );
    }

    println!();
    println!("hostile input: time to the error line, and peak memory");
    println!(
        "{:<34} {:>10} {:>9} {:>9}",
        "input", "bytes", "ms", "peak MiB"
    );
    for (name, make) in hostile_inputs() {
        let file = dir.join(format!("hostile-{name}.txt"));
        if !file.exists() {
            let mut out = BufWriter::new(File::create(&file).expect("cannot create an input"));
            make(&mut out);
            out.flush().expect("cannot write an input");
        }
        let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        let took = median((0..3).map(|_| time(Command::new(&puzzle), &file)).collect());
        let peak = peak_mib(&puzzle, &[], &file).map_or("-".into(), |m| format!("{m:.1}"));
        println!("{name:<34} {bytes:>10} {:>9.1} {peak:>9}", ms(took));
    }
}

type Maker = fn(&mut dyn Write);

/// The hostile inputs of the throughput issue: each must end in an `error:` line
/// within a fraction of a second, in bounded memory.
fn hostile_inputs() -> Vec<(&'static str, Maker)> {
    vec![
        ("200 MB line of digits", |out| {
            let digits = [b'7'; 1 << 20];
            for _ in 0..200 {
                out.write_all(&digits).unwrap();
            }
            out.write_all(b"\n1 2 3 b\n").unwrap();
        }),
        ("200 MB of 'b b b'", |out| {
            let blanks = b"b ".repeat(1 << 19);
            for _ in 0..200 {
                out.write_all(&blanks).unwrap();
            }
            out.write_all(b"\n").unwrap();
        }),
        ("200 MB of '1 1 1'", |out| {
            let ones = b"1 ".repeat(1 << 19);
            for _ in 0..200 {
                out.write_all(&ones).unwrap();
            }
            out.write_all(b"\n").unwrap();
        }),
        ("first token wrong, then 100 MB", |out| {
            out.write_all(b"x ").unwrap();
            let tokens = b"12345 ".repeat(1 << 18);
            for _ in 0..64 {
                out.write_all(&tokens).unwrap();
            }
        }),
        ("50 MB of random bytes", |out| {
            let mut state = 0x2545_F491_4F6C_DD1Du64;
            let mut block = vec![0u8; 1 << 20];
            for _ in 0..50 {
                for byte in block.iter_mut() {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    *byte = state as u8;
                }
                out.write_all(&block).unwrap();
            }
        }),
    ]
}

fn wc() -> Command {
    let mut command = Command::new("wc");
    command.arg("-w");
    command
}

/// Wall time of `command < input > /dev/null`.
fn time(mut command: Command, input: &Path) -> Duration {
    let stdin = File::open(input).expect("cannot open an input");
    let started = Instant::now();
    let status = command
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("cannot run a timed command");
    let took = started.elapsed();
    let _ = status;
    took
}

/// Peak resident memory of `program args < input`, in MiB, by `/usr/bin/time`.
fn peak_mib(program: &Path, args: &[&str], input: &Path) -> Option<f64> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        return None;
    }
    let output = Command::new(time)
        .args(["-f", "%M"])
        .arg(program)
        .args(args)
        .stdin(File::open(input).ok()?)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stderr);
    let kib: f64 = text.lines().last()?.trim().parse().ok()?;
    Some(kib / 1024.0)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
