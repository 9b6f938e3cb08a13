//! Submissions built as an attacker would build them, graded by the real
//! `puzzle-grade grade-all` (the real sandbox, `unzip`, `tar`, `gzip`): a
//! class of three, the attacker between two honest students. Each attack's
//! row says why it was not built (or what was left out), the others are
//! graded, the grader does not hang (it runs under a deadline), nothing is
//! left in `TMPDIR` and nothing is written outside the grades folder.
//!
//! The archives are made here byte by byte (tar headers, zip records, a
//! deflate stream), so that they can lie as no archiver would.

use crate::common;

use common::{grader_bin, repo, submissions_in};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Whether the tools a grading of archives runs are installed here
/// ([`common::tools_here`]: if not, the test says it is skipped).
fn tools_here() -> bool {
    common::tools_here(&["unzip", "tar", "gzip", "cc", "mkfifo"])
}

/// A grading's folder: `Tests/` (one fixture), `subs/` (the class),
/// `grades/` and `tmp/` (its `TMPDIR`), removed when the test ends.
struct Class(PathBuf);

impl Class {
    /// A class of `a_honest`, `attacker` and `c_honest` (the honest two
    /// `tests/grading/checker.c`, as `puzzle.c`); the attacker's folder is
    /// made and returned empty.
    fn new(test: &str, attacker: &str) -> (Class, PathBuf) {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("archives-{test}"));
        let _ = fs::remove_dir_all(&dir);
        for folder in ["Tests", "tmp", "subs"] {
            fs::create_dir_all(dir.join(folder)).unwrap();
        }
        fs::copy(
            repo().join("Tests/sol4_assignment_example.inp"),
            dir.join("Tests/sol4_assignment_example.inp"),
        )
        .unwrap();
        submissions_in(&dir.join("subs"), &[("a_honest", ""), ("c_honest", "")]);
        let folder = dir.join("subs").join(attacker);
        fs::create_dir_all(&folder).unwrap();
        (Class(dir), folder)
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.0.join(relative)
    }

    /// `puzzle-grade grade-all subs`, killed if it is still running after
    /// `deadline`: the test then fails, saying so.
    fn grade(&self, deadline: Duration) -> Output {
        let before = listing(&self.0);
        let mut child = Command::new(grader_bin())
            .args([
                "grade-all",
                "--time-limit",
                "5",
                "--grades",
                "grades",
                "subs",
            ])
            .current_dir(&self.0)
            .env("TMPDIR", self.path("tmp"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let began = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if began.elapsed() > deadline {
                let _ = child.kill();
                let out = child.wait_with_output().unwrap();
                panic!(
                    "grade-all still running after {deadline:?}: it hangs\n{}\n{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let out = child.wait_with_output().unwrap();
        // Nothing is left in TMPDIR, and nothing but the grades folder is
        // new or changed: the class is as it was handed in.
        let left: Vec<_> = fs::read_dir(self.path("tmp")).unwrap().collect();
        assert!(left.is_empty(), "left in TMPDIR: {left:?}");
        let after: BTreeMap<String, String> = listing(&self.0)
            .into_iter()
            .filter(|(path, _)| !path.starts_with("grades/") && path != "grades")
            .collect();
        assert_eq!(before, after, "written outside the grades folder");
        out
    }
}

impl Drop for Class {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Every entry under `dir`, by its path there, with what it is and its
/// size (links not followed).
fn listing(dir: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &str, into: &mut BTreeMap<String, String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            let meta = entry.metadata().unwrap();
            let kind = entry.file_type().unwrap();
            into.insert(name.clone(), format!("{kind:?} {}", meta.len()));
            if kind.is_dir() {
                walk(&entry.path(), &format!("{name}/"), into);
            }
        }
    }
    let mut found = BTreeMap::new();
    walk(dir, "", &mut found);
    found
}

/// The rows of the table on stdout, by submission: (built, note).
fn rows(out: &Output) -> BTreeMap<String, (String, String)> {
    let table = String::from_utf8_lossy(&out.stdout);
    table
        .lines()
        .skip(1)
        .filter(|line| matches!(line.split_whitespace().nth(1), Some("yes" | "no")))
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            (
                words[0].to_string(),
                (words[1].to_string(), words[20..].join(" ")),
            )
        })
        .collect()
}

/// Checks that the honest two were graded and passed, and that the
/// grading ended with `status` (1 when the attacker was not built), not 2.
fn assert_honest_graded(out: &Output, status: i32) {
    let rows = rows(out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for name in ["a_honest", "c_honest"] {
        assert_eq!(
            rows.get(name).map(|r| r.0.as_str()),
            Some("yes"),
            "{name} not graded: {rows:?}\n{stderr}"
        );
        assert!(
            stderr.contains(&format!("graded {name}: 1 passed, 0 failed")),
            "{stderr}"
        );
    }
    assert_eq!(out.status.code(), Some(status), "{rows:?}\n{stderr}");
}

/// The attacker's note, from `summary.csv` (whole: the table cuts notes).
fn csv_note(class: &Class, name: &str) -> String {
    let csv = fs::read_to_string(class.path("grades/summary.csv")).unwrap();
    let line = csv
        .lines()
        .find(|l| l.starts_with(&format!("{name},")) || l.starts_with(&format!("\"{name}\",")))
        .unwrap_or_else(|| panic!("no row {name} in\n{csv}"));
    let header = fields(csv.lines().next().unwrap());
    let at = header.iter().position(|h| h == "note").unwrap();
    fields(line)[at].clone()
}

/// A CSV line's fields, unquoted.
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            (c, _) => out.last_mut().unwrap().push(c),
        }
    }
    out
}

/// A tar header block: `name`, `size`, `typeflag`, with its checksum right
/// unless `bad_sum`.
fn tar_header(name: &str, size: usize, typeflag: u8, bad_sum: bool) -> [u8; 512] {
    let mut header = [0u8; 512];
    header[..name.len()].copy_from_slice(name.as_bytes());
    header[100..107].copy_from_slice(b"0000644");
    header[124..135].copy_from_slice(format!("{size:011o}").as_bytes());
    header[156] = typeflag;
    header[257..263].copy_from_slice(b"ustar\0");
    header[263..265].copy_from_slice(b"00");
    let sum: u32 = header
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                32
            } else {
                u32::from(b)
            }
        })
        .sum();
    let sum = if bad_sum { sum + 1 } else { sum };
    header[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
    header
}

/// A tar entry: its header and its data, padded to whole blocks.
fn tar_entry(name: &str, data: &[u8], typeflag: u8) -> Vec<u8> {
    let mut out = tar_header(name, data.len(), typeflag, false).to_vec();
    out.extend_from_slice(data);
    out.resize(out.len().div_ceil(512) * 512, 0);
    out
}

/// One entry of a hand-made zip: its name, the bytes stored, the method (0
/// stored, 8 deflated), and the size it declares unpacked.
struct ZipEntry<'a> {
    name: &'a str,
    data: &'a [u8],
    method: u16,
    declared: u32,
    crc: u32,
}

impl<'a> ZipEntry<'a> {
    /// `data` stored, as it is.
    fn stored(name: &'a str, data: &'a [u8]) -> ZipEntry<'a> {
        ZipEntry {
            name,
            data,
            method: 0,
            declared: data.len() as u32,
            crc: common::crc32(data),
        }
    }
}

/// A zip of `entries` whose end record says `count` entries.
fn zip(entries: &[ZipEntry], count: u16) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    for e in entries {
        let offset = out.len() as u32;
        let fields = |central: bool| {
            let mut h: Vec<u8> = Vec::new();
            if central {
                h.extend(0x031eu16.to_le_bytes());
            }
            h.extend(20u16.to_le_bytes());
            h.extend(0u16.to_le_bytes());
            h.extend(e.method.to_le_bytes());
            h.extend(0u32.to_le_bytes());
            h.extend(e.crc.to_le_bytes());
            h.extend((e.data.len() as u32).to_le_bytes());
            h.extend(e.declared.to_le_bytes());
            h.extend((e.name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes());
            if central {
                h.extend([0u8; 6]);
                h.extend((0o100644u32 << 16).to_le_bytes());
                h.extend(offset.to_le_bytes());
            }
            h.extend(e.name.as_bytes());
            h
        };
        out.extend(b"PK\x03\x04");
        out.extend(fields(false));
        out.extend_from_slice(e.data);
        central.extend(b"PK\x01\x02");
        central.extend(fields(true));
    }
    let start = out.len() as u32;
    out.extend(&central);
    out.extend(b"PK\x05\x06\0\0\0\0");
    out.extend(count.to_le_bytes());
    out.extend(count.to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(start.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A raw deflate stream (one block of fixed Huffman codes) of `len` zero
/// bytes: a literal 0, then matches of 258 bytes at distance 1, 13 bits
/// each, so that 600 MiB take 4 MB.
fn deflated_zeros(len: usize) -> Vec<u8> {
    struct Bits {
        out: Vec<u8>,
        acc: u64,
        n: u32,
    }
    impl Bits {
        fn put(&mut self, value: u64, count: u32) {
            self.acc |= value << self.n;
            self.n += count;
            while self.n >= 8 {
                self.out.push(self.acc as u8);
                self.acc >>= 8;
                self.n -= 8;
            }
        }
        /// A Huffman code, its first bit the code's highest.
        fn code(&mut self, code: u32, len: u32) {
            let reversed =
                (0..len).fold(0u64, |r, i| r | u64::from((code >> i) & 1) << (len - 1 - i));
            self.put(reversed, len);
        }
    }
    let mut bits = Bits {
        out: Vec::new(),
        acc: 0,
        n: 0,
    };
    bits.put(1, 1); // the last block
    bits.put(1, 2); // fixed codes
    bits.code(0x30, 8); // the literal 0
    let matches = (len - 1) / 258;
    for _ in 0..matches {
        bits.code(0xc5, 8); // length 258 (symbol 285)
        bits.code(0, 5); // distance 1
    }
    for _ in 0..(len - 1) % 258 {
        bits.code(0x30, 8);
    }
    bits.code(0, 7); // end of block (symbol 256)
    bits.put(0, 7);
    bits.out
}

#[test]
fn a_fifo_behind_a_bad_tar_checksum_is_never_opened_nor_left() {
    if !tools_here() {
        return;
    }
    // a.tar: a header with a bad checksum whose "data" is a FIFO's header.
    // A lister that trusts the size skips the FIFO; GNU tar skips the bad
    // header and makes the FIFO, named as the next archive, b.tar: a
    // grader that then opens b.tar blocks for ever.
    let (class, folder) = Class::new("fifo", "b_fifo_tar");
    let mut a = tar_header("notes.txt", 512, b'0', true).to_vec();
    a.extend(tar_header("b.tar", 0, b'6', false));
    a.extend([0u8; 1024]);
    fs::write(folder.join("a.tar"), a).unwrap();
    let mut b = tar_entry("README", b"my work is in a.tar\n", b'0');
    b.extend([0u8; 1024]);
    fs::write(folder.join("b.tar"), b).unwrap();
    let out = class.grade(Duration::from_secs(300));
    assert_honest_graded(&out, 1);
    let (built, _) = &rows(&out)["b_fifo_tar"];
    assert_eq!(built, "no");
    assert_eq!(
        csv_note(&class, "b_fifo_tar"),
        "a.tar not unpacked: a tar header with a bad checksum (at byte 0); unpacked b.tar"
    );
}

#[test]
fn a_zip_that_lies_about_its_sizes_is_stopped_and_leaves_nothing() {
    if !tools_here() {
        return;
    }
    // puzzle.c (the checker), then big.bin: it declares 10 bytes and
    // inflates to 600 MiB. The sandbox stops the unzip; what it had
    // unpacked (puzzle.c too) is removed whole, and nothing is built.
    let (class, folder) = Class::new("lying-zip", "b_lying_zip");
    let checker = fs::read(repo().join("tests/grading/checker.c")).unwrap();
    let zeros = deflated_zeros(600 << 20);
    let entries = [
        ZipEntry::stored("puzzle.c", &checker),
        ZipEntry {
            name: "big.bin",
            data: &zeros,
            method: 8,
            declared: 10,
            crc: 0,
        },
    ];
    fs::write(folder.join("submission.zip"), zip(&entries, 2)).unwrap();
    let out = class.grade(Duration::from_secs(300));
    assert_honest_graded(&out, 1);
    assert_eq!(rows(&out)["b_lying_zip"].0, "no");
    assert_eq!(
        csv_note(&class, "b_lying_zip"),
        "submission.zip not unpacked: it unpacked to more than 64 MiB"
    );
}

#[test]
fn a_zip_whose_end_record_undercounts_its_entries_is_refused() {
    if !tools_here() {
        return;
    }
    // 65,537 entries, the end record's 16-bit count says 1 (unzip reads
    // them all): not within the 1,000 entries allowed.
    let (class, folder) = Class::new("many-entries", "b_many_entries");
    let checker = fs::read(repo().join("tests/grading/checker.c")).unwrap();
    let names: Vec<String> = (0..65_536).map(|i| format!("f/{i:05}")).collect();
    let mut entries = vec![ZipEntry::stored("puzzle.c", &checker)];
    entries.extend(names.iter().map(|n| ZipEntry::stored(n, b"")));
    fs::write(folder.join("submission.zip"), zip(&entries, 1)).unwrap();
    let out = class.grade(Duration::from_secs(300));
    assert_honest_graded(&out, 1);
    assert_eq!(rows(&out)["b_many_entries"].0, "no");
    assert_eq!(
        csv_note(&class, "b_many_entries"),
        "submission.zip not unpacked: more than 1000 entries"
    );
}

#[test]
fn a_path_of_4092_bytes_is_refused_and_the_rest_of_the_class_graded() {
    if !tools_here() {
        return;
    }
    // A GNU long name of 4,092 bytes: tar makes it (relative paths may be
    // that long); a grader that walks it by absolute paths fails.
    let (class, folder) = Class::new("long-path", "b_long_path");
    // The deepest folder alone is 4,088 bytes: with the folder it is in,
    // more than the 4,096 a path given to the kernel may have.
    let path = format!(
        "{}{}/x.c",
        format!("{}/", "d".repeat(99)).repeat(40),
        "e".repeat(88)
    );
    assert_eq!(path.len(), 4092);
    let mut name = path.clone().into_bytes();
    name.push(0);
    let mut tar = tar_entry("././@LongLink", &name, b'L');
    tar.extend(tar_entry(
        "ignored",
        b"int main(void) { return 0; }\n",
        b'0',
    ));
    tar.extend([0u8; 1024]);
    fs::write(folder.join("work.tar"), tar).unwrap();
    let out = class.grade(Duration::from_secs(300));
    assert_honest_graded(&out, 1);
    assert_eq!(rows(&out)["b_long_path"].0, "no");
    let note = csv_note(&class, "b_long_path");
    assert!(
        note.starts_with("work.tar not unpacked: a path longer than 1024 bytes (dddd"),
        "{note}"
    );
}

#[test]
fn a_submission_folders_fifo_and_link_are_left_out_and_named() {
    if !tools_here() {
        return;
    }
    // The folder as handed in holds a FIFO and a link to a file of the
    // grader's machine beside its sources: neither is opened nor copied.
    let (class, folder) = Class::new("fifo-folder", "b_fifo_folder");
    let checker = fs::read(repo().join("tests/grading/checker.c")).unwrap();
    fs::write(folder.join("puzzle.c"), checker).unwrap();
    let made = Command::new("mkfifo")
        .arg(folder.join("notes.fifo"))
        .status()
        .unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("/etc/passwd", folder.join("link.c")).unwrap();
    let out = class.grade(Duration::from_secs(300));
    assert_honest_graded(&out, 0);
    assert_eq!(rows(&out)["b_fifo_folder"].0, "yes");
    assert_eq!(
        csv_note(&class, "b_fifo_folder"),
        "left out: link.c (a symbolic link), notes.fifo (a FIFO); \
         no Makefile: built with cc -O2 -o puzzle puzzle.c -lm"
    );
}
