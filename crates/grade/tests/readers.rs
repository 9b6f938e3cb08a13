//! Readers of a grading's files bounded in what they keep (issue 50, item
//! 3), through `puzzle-grade diff`, which reads two grades folders as a
//! stranger's:
//!
//! - a `summary.jsonl` damaged by many broken lines is refused in a few
//!   words: the lines counted, the first few named (an earlier version
//!   kept a message a line, all joined: 259 MB on stderr and 978 MiB of
//!   memory for 8 MB of `{` lines);
//! - a `summary.jsonl` over the bound (1 GiB) is refused before it is read
//!   (an earlier version read it to the bound first);
//! - one under the bound is read a line at a time, never whole and never
//!   copied (an earlier version held it twice: 2 GiB).
//! - a `grading.json` of a later format's version is refused by name
//!   (an earlier version said only that it could not be read).
//!
//! The last two run the grader under an address-space limit (`ulimit -v`)
//! far below the file's size, which a reader that holds the file cannot
//! keep to. The files are sparse: nothing is written to disk.

use crate::common;

use common::{grader_bin, repo, Scratch};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A grading to damage: a copy of a kept one (`tests/old-gradings`).
fn grading(dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    common::copy_tree(
        &repo().join("crates/grade/tests/old-gradings/cb7a8da/whole"),
        &to,
    );
    to
}

/// The file `path` made `size` bytes long, what is added NUL bytes (a
/// hole: nothing written to disk).
fn grow(path: &Path, size: u64) {
    let file = fs::OpenOptions::new().append(true).open(path).unwrap();
    file.set_len(size).unwrap();
}

/// `puzzle-grade diff OLD NEW`, its address space limited to `kib` KiB
/// when asked.
fn diff(old: &Path, new: &Path, kib: Option<u64>) -> Output {
    let limit = kib.map_or(String::new(), |k| format!("ulimit -v {k} && "));
    Command::new("sh")
        .arg("-c")
        .arg(format!("{limit}exec \"$0\" diff \"$1\" \"$2\""))
        .arg(grader_bin())
        .arg(old)
        .arg(new)
        .output()
        .unwrap()
}

/// The address space the grader is given to read files far larger: 256
/// MiB (it needs some tens for itself).
const LIMIT_KIB: u64 = 256 << 10;

#[test]
fn many_broken_lines_are_counted_and_the_first_few_named() {
    let dir = Scratch::new("readers-broken");
    let good = grading(&dir, "good");
    let broken = grading(&dir, "broken");
    let lines = 400_000;
    let mut jsonl = fs::read(broken.join("summary.jsonl")).unwrap();
    let kept = jsonl.iter().filter(|&&b| b == b'\n').count();
    jsonl.extend("{\n".repeat(lines).bytes());
    fs::write(broken.join("summary.jsonl"), jsonl).unwrap();
    let out = diff(&good, &broken, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        &stderr[..stderr.len().min(2000)]
    );
    // Five named, the rest counted: a message of a line, not of a file.
    assert!(
        stderr.len() < 1000,
        "{} bytes: {}",
        stderr.len(),
        &stderr[..2000]
    );
    let first = kept + 1;
    assert!(
        stderr.contains(&format!(
            "summary.jsonl line {first}: not JSON: byte 1: expected a key"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("and {} more lines refused", lines - 5)),
        "{stderr}"
    );
    assert_eq!(stderr.matches("summary.jsonl line").count(), 5, "{stderr}");
}

#[test]
fn a_summary_over_the_bound_is_refused_before_it_is_read() {
    let dir = Scratch::new("readers-over");
    let good = grading(&dir, "good");
    let big = grading(&dir, "big");
    grow(&big.join("summary.jsonl"), (1 << 30) + 1);
    let out = diff(&good, &big, Some(LIMIT_KIB));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("summary.jsonl is over 1024 MiB: not a grading's"),
        "{stderr}"
    );
}

#[test]
fn a_big_summary_under_the_bound_is_read_a_line_at_a_time() {
    let dir = Scratch::new("readers-under");
    let good = grading(&dir, "good");
    let big = grading(&dir, "big");
    // 512 MiB of one line of NUL bytes after the records: twice the
    // address space the grader has.
    let path = big.join("summary.jsonl");
    grow(&path, fs::metadata(&path).unwrap().len() + (512 << 20));
    let out = diff(&good, &big, Some(LIMIT_KIB));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let lines = fs::read_to_string(good.join("summary.jsonl"))
        .unwrap()
        .lines()
        .count();
    assert!(
        stderr.contains(&format!(
            "summary.jsonl line {} is longer than 16 MiB: no record",
            lines + 1
        )),
        "{stderr}"
    );
    // The records before it were read: only the long line is refused.
    assert_eq!(stderr.matches("summary.jsonl line").count(), 1, "{stderr}");
}

#[test]
fn a_grading_of_a_later_format_version_is_refused_by_name() {
    let dir = Scratch::new("readers-later");
    let good = grading(&dir, "good");
    let later = grading(&dir, "later");
    let path = later.join("grading.json");
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.starts_with('{'), "{text}");
    fs::write(&path, text.replacen('{', "{\"version\": 99, ", 1)).unwrap();
    let out = diff(&good, &later, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("grading.json cannot be read as a grading's: written in the format of version 99 (a later puzzle-grade's)"),
        "{stderr}"
    );
}
