//! `puzzle-grade similar`, by the real binary, on the corpus of
//! `tests/similarity/`: independent solutions of two tasks (the
//! assignment in C: `ada`, `ben`, `cai`, `dee`, `eve`; a marks report in
//! Java: `ann`, `bo`, `cy`, `di`), each written in a style of its own, and
//! copies of some of them, each by one disguise (`ada.renamed`,
//! `ben.loops`...) or by all at once (`.all`). The ranking each disguise
//! claims is checked: every copy above every pair of independent
//! solutions of its task, by the code alone. And the rest of the contract:
//! the template is no evidence, identical submissions score 1, the same
//! bytes whatever `--jobs`, names escaped, hostile sources bounded and
//! named, one submission's trouble its own.

use crate::common;

use common::{copy_tree, grader_bin, Scratch};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The corpus.
fn corpus() -> PathBuf {
    common::crate_dir().join("tests/similarity")
}

/// The disguises the engine claims to undo (docs/similarity.md): each
/// copy of each of them must rank above every independent pair.
const DISGUISES: [&str; 10] = [
    "layout",
    "renamed",
    "functions",
    "statements",
    "loops",
    "dead",
    "split",
    "inlined",
    "logic",
    "all",
];

/// `puzzle-grade similar` on `class`, its files to `out`, with `args`.
fn similar(class: &Path, out: &Path, args: &[&str]) -> Output {
    let output = Command::new(grader_bin())
        .arg("similar")
        .arg(class)
        .arg("--out")
        .arg(out)
        .args(args)
        .env("TMPDIR", class.parent().unwrap())
        .output()
        .unwrap();
    output
}

/// The scores of `similarity.csv`, by pair (both ways round).
fn scores(csv: &str) -> BTreeMap<(String, String), f64> {
    let mut found = BTreeMap::new();
    for line in csv.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let name = |f: &str| f.trim_matches('"').to_string();
        let (a, b) = (name(fields[0]), name(fields[1]));
        let code: f64 = fields[3].parse().unwrap();
        found.insert((a.clone(), b.clone()), code);
        found.insert((b, a), code);
    }
    found
}

/// The corpus of one task (`c`, `java`) compared as one class: the
/// scores, and the names of the independent solutions.
fn compare_task(task: &str, args: &[&str]) -> (BTreeMap<(String, String), f64>, Vec<String>) {
    let dir = Scratch::new(&format!("similar-{task}"));
    copy_tree(&corpus().join(task), &dir.join("class"));
    let output = similar(&dir.join("class"), &dir.join("out"), args);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let csv = fs::read_to_string(dir.join("out/similarity.csv")).unwrap();
    let independent: Vec<String> = fs::read_dir(corpus().join(task))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.contains('.'))
        .collect();
    (scores(&csv), independent)
}

/// Checks that each copy of `originals` by each disguise ranks above every
/// independent pair; prints the figures.
fn every_copy_above_every_independent_pair(task: &str, originals: &[&str], args: &[&str]) {
    let (scores, independent) = compare_task(task, args);
    let score = |a: &str, b: &str| {
        scores
            .get(&(a.to_string(), b.to_string()))
            .copied()
            .unwrap_or(0.0)
    };
    let mut highest = (0.0, String::new());
    for (i, a) in independent.iter().enumerate() {
        for b in &independent[i + 1..] {
            if score(a, b) > highest.0 {
                highest = (score(a, b), format!("{a} {b}"));
            }
        }
    }
    eprintln!(
        "{task}: highest independent pair {:.3} ({})",
        highest.0, highest.1
    );
    let mut failed = Vec::new();
    for original in originals {
        for disguise in DISGUISES {
            let copy = format!("{original}.{disguise}");
            let s = score(original, &copy);
            eprintln!("{task}: {copy:<16} {s:.3}");
            if s <= highest.0 {
                failed.push(format!("{copy} {s:.3}"));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "copies at or below the highest independent pair ({:.3}, {}): {failed:?}",
        highest.0,
        highest.1
    );
}

#[test]
fn every_c_copy_ranks_above_every_independent_pair() {
    let template = corpus().join("template/boardADT.h");
    let template = template.to_str().unwrap();
    every_copy_above_every_independent_pair("c", &["ada", "ben"], &["--template", template]);
}

#[test]
fn every_java_copy_ranks_above_every_independent_pair() {
    every_copy_above_every_independent_pair("java", &["ann"], &[]);
}

#[test]
fn without_the_template_the_ranking_holds() {
    every_copy_above_every_independent_pair("c", &["ada", "ben"], &[]);
}

#[test]
fn identical_submissions_score_1_and_the_template_alone_0() {
    let dir = Scratch::new("similar-ends");
    let class = dir.join("class");
    for name in ["ada", "cai", "eve"] {
        copy_tree(&corpus().join("c").join(name), &class.join(name));
    }
    copy_tree(&corpus().join("c/ada"), &class.join("ada-again"));
    for name in ["only-template-1", "only-template-2"] {
        fs::create_dir_all(class.join(name)).unwrap();
        fs::copy(
            corpus().join("template/boardADT.h"),
            class.join(name).join("boardADT.h"),
        )
        .unwrap();
    }
    let template = corpus().join("template/boardADT.h");
    let output = similar(
        &class,
        &dir.join("out"),
        &["--template", template.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let csv = fs::read_to_string(dir.join("out/similarity.csv")).unwrap();
    let first = csv.lines().nth(1).unwrap();
    assert!(
        first.starts_with("\"ada\",\"ada-again\",1.000,1.000,,"),
        "{csv}"
    );
    assert!(!csv.contains("only-template"), "{csv}");
    // The header, and each line's fields in order.
    assert!(csv.starts_with("a,b,score,code,behaviour,"), "{csv}");
    let blocks = fs::read_to_string(dir.join("out/similarity-blocks.csv")).unwrap();
    assert!(blocks.starts_with("a,b,block,tokens,shared_by,a_lines,b_lines\n"));
    // Each block is attributed to files and lines on both sides.
    let line = blocks
        .lines()
        .find(|l| l.starts_with("\"ada\",\"ada-again\""))
        .unwrap();
    assert!(
        line.contains("boardADT.c:") || line.contains("puzzle.c:"),
        "{line}"
    );
}

#[test]
fn the_same_bytes_whatever_the_jobs() {
    let dir = Scratch::new("similar-jobs");
    copy_tree(&corpus().join("c"), &dir.join("class"));
    let mut files = Vec::new();
    for jobs in ["1", "2", "3"] {
        // The same out folder each time: stdout names it.
        let out = dir.join("out");
        let output = similar(&dir.join("class"), &out, &["--jobs", jobs]);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        files.push((
            fs::read(out.join("similarity.csv")).unwrap(),
            fs::read(out.join("similarity-blocks.csv")).unwrap(),
            output.stdout,
        ));
        fs::remove_dir_all(&out).unwrap();
    }
    assert!(files.windows(2).all(|w| w[0] == w[1]));
    assert!(files[0].0.len() > 100);
}

/// The files a comparison wrote into `out`, by name (its pages too).
fn comparison_files(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for name in [
        "similarity.csv",
        "similarity-blocks.csv",
        "similarity.index",
    ] {
        files.insert(name.to_string(), fs::read(out.join(name)).unwrap());
    }
    if let Ok(pages) = fs::read_dir(out.join("similarity")) {
        for page in pages {
            let page = page.unwrap();
            let name = format!("similarity/{}", page.file_name().to_string_lossy());
            files.insert(name, fs::read(page.path()).unwrap());
        }
    }
    files
}

#[test]
fn a_late_submission_is_compared_against_the_kept_index_as_the_whole_class_would_be() {
    let dir = Scratch::new("similar-kept");
    copy_tree(&corpus().join("c"), &dir.join("class"));
    let template = corpus().join("template/boardADT.h");
    let template = ["--template", template.to_str().unwrap()];
    let class = dir.join("class");
    let count = fs::read_dir(&class).unwrap().count();
    // One copy comes late.
    fs::rename(class.join("ada.renamed"), dir.join("late")).unwrap();
    let first = similar(&class, &dir.join("out"), &template);
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(!stdout.contains("as kept in"), "{stdout}");
    assert!(dir.join("out/similarity.index").exists());
    fs::rename(dir.join("late"), class.join("ada.renamed")).unwrap();
    let late = similar(&class, &dir.join("out"), &template);
    assert_eq!(late.status.code(), Some(0), "{late:?}");
    let stdout = String::from_utf8_lossy(&late.stdout);
    assert!(
        stdout.starts_with(&format!(
            "compared {count} submissions ({} as kept in similarity.index: not read again): ",
            count - 1
        )),
        "{stdout}"
    );
    // The whole class compared afresh: the same files, byte for byte (the
    // index too), and the late copy found.
    let whole = similar(&class, &dir.join("whole"), &template);
    assert_eq!(whole.status.code(), Some(0), "{whole:?}");
    let expected = comparison_files(&dir.join("whole"));
    assert_eq!(comparison_files(&dir.join("out")), expected);
    let csv = String::from_utf8_lossy(&expected["similarity.csv"]).into_owned();
    assert!(csv.contains("\"ada\",\"ada.renamed\""), "{csv}");
    // A changed submission is read again, the others are not.
    let puzzle = class.join("ben/puzzle.c");
    let mut text = fs::read_to_string(&puzzle).unwrap();
    text.push_str("\nint unused_helper(int x) { return x * 3; }\n");
    fs::write(&puzzle, text).unwrap();
    let changed = similar(&class, &dir.join("out"), &template);
    let stdout = String::from_utf8_lossy(&changed.stdout);
    assert!(
        stdout.contains(&format!("({} as kept in similarity.index", count - 1)),
        "{stdout}"
    );
    let whole = similar(&class, &dir.join("whole2"), &template);
    assert_eq!(whole.status.code(), Some(0), "{whole:?}");
    let expected = comparison_files(&dir.join("whole2"));
    assert_eq!(comparison_files(&dir.join("out")), expected);
    // A damaged index is refused by name and the class read again: the
    // same files.
    let index = dir.join("out/similarity.index");
    let mut bytes = fs::read(&index).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    fs::write(&index, &bytes).unwrap();
    let damaged = similar(&class, &dir.join("out"), &template);
    assert_eq!(damaged.status.code(), Some(0), "{damaged:?}");
    let stderr = String::from_utf8_lossy(&damaged.stderr);
    assert!(
        stderr.contains("similarity.index") && stderr.contains("every submission is read again"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&damaged.stdout).contains("as kept in"));
    assert_eq!(comparison_files(&dir.join("out")), expected);
    // A link in its place is not followed (and then replaced by a file).
    fs::remove_file(&index).unwrap();
    std::os::unix::fs::symlink(dir.join("whole2/similarity.index"), &index).unwrap();
    let linked = similar(&class, &dir.join("out"), &template);
    assert_eq!(linked.status.code(), Some(0), "{linked:?}");
    let stderr = String::from_utf8_lossy(&linked.stderr);
    assert!(stderr.contains("similarity.index"), "{stderr}");
    assert!(!String::from_utf8_lossy(&linked.stdout).contains("as kept in"));
    assert!(!fs::symlink_metadata(&index).unwrap().is_symlink());
    // Another template: the kept normal forms are not this comparison's.
    let other = similar(&class, &dir.join("out"), &[]);
    assert_eq!(other.status.code(), Some(0), "{other:?}");
    assert!(!String::from_utf8_lossy(&other.stdout).contains("as kept in"));
}

#[test]
fn names_a_spreadsheet_would_run_get_a_quote() {
    let dir = Scratch::new("similar-names");
    let class = dir.join("class");
    copy_tree(&corpus().join("c/ada"), &class.join("=HYPERLINK(\"x\")"));
    copy_tree(&corpus().join("c/ada.renamed"), &class.join("@sum"));
    copy_tree(&corpus().join("c/cai"), &class.join("cai"));
    let output = similar(&class, &dir.join("out"), &[]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let csv = fs::read_to_string(dir.join("out/similarity.csv")).unwrap();
    assert!(
        csv.contains("\"'=HYPERLINK(\"\"x\"\")\",\"'@sum\","),
        "{csv}"
    );
}

#[test]
fn hostile_sources_are_bounded_named_and_never_the_class_s_stop() {
    use std::io::Write;
    use std::os::unix::fs::symlink;
    let dir = Scratch::new("similar-hostile");
    let class = dir.join("class");
    copy_tree(&corpus().join("c/ada"), &class.join("ada"));
    copy_tree(&corpus().join("c/ada.loops"), &class.join("copy"));
    copy_tree(&corpus().join("c/ben"), &class.join("ben"));
    let evil = class.join("evil");
    fs::create_dir_all(&evil).unwrap();
    // 100 MB: its first 4 MiB are read.
    let mut big = fs::File::create(evil.join("big.c")).unwrap();
    let line = b"int f(int x) { return x + 1; }\n";
    for _ in 0..(100 << 20) / line.len() {
        big.write_all(line).unwrap();
    }
    drop(big);
    // A binary file with a source's name.
    fs::write(evil.join("blob.c"), [0u8, 1, 2, 255, 0, 7].repeat(1000)).unwrap();
    // A million tokens on one line, and nesting a hundred thousand deep.
    fs::write(
        evil.join("line.c"),
        format!("int g() {{ return {}1; }}", "1 + ".repeat(500_000)),
    )
    .unwrap();
    fs::write(
        evil.join("deep.c"),
        format!(
            "int h() {{ {} x = ({}1{}); {} }}",
            "{".repeat(100_000),
            "(".repeat(100_000),
            ")".repeat(100_000),
            "}".repeat(100_000)
        ),
    )
    .unwrap();
    // Bytes that are not UTF-8, in a file and in a folder's name.
    fs::write(
        evil.join("latin1.c"),
        b"int caf\xe9(void) { return '\xe9'; }\n",
    )
    .unwrap();
    fs::create_dir_all(class.join("na\u{ef}ve\u{202e}")).unwrap();
    fs::write(
        class.join("na\u{ef}ve\u{202e}").join("x.c"),
        b"int main() { return 0; }",
    )
    .unwrap();
    // A copied program whose one file is not UTF-8 (Latin-1 in its
    // comments and strings), and its copy in a folder three deep: both
    // read and compared, not left out.
    let mut latin1 = Vec::new();
    for file in ["boardADT.h", "boardADT.c", "puzzle.c"] {
        for line in fs::read(corpus().join("c/eve").join(file))
            .unwrap()
            .split(|&b| b == b'\n')
        {
            latin1.extend_from_slice(line);
            latin1.extend_from_slice(b" /* r\xe9sum\xe9 */\n");
        }
    }
    fs::create_dir_all(class.join("lat")).unwrap();
    fs::write(class.join("lat/eve.c"), &latin1).unwrap();
    let nested = class.join("nest/a/b/c");
    fs::create_dir_all(&nested).unwrap();
    let mut copied = latin1.clone();
    copied.extend_from_slice(b"\n/* copi\xe9 */\n");
    fs::write(nested.join("eve.c"), copied).unwrap();
    // Links to what is outside, a FIFO.
    symlink("/etc/passwd", evil.join("passwd.c")).unwrap();
    symlink(corpus().join("c/ada"), evil.join("linked")).unwrap();
    let made = Command::new("mkfifo").arg(evil.join("fifo.c")).status();
    let output = similar(&class, &dir.join("out"), &[]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    for named in [
        "big.c (only its first 4096 KiB read)",
        "blob.c (binary)",
        "passwd.c (a symbolic link)",
        "linked (a symbolic link)",
        "its sources hold more than 200000 tokens",
    ] {
        assert!(stderr.contains(named), "{named}: {stderr}");
    }
    match made {
        Ok(status) if status.success() => {
            assert!(stderr.contains("fifo.c (a FIFO)"), "{stderr}")
        }
        made => common::skip(&format!(
            "the FIFO among hostile sources: mkfifo could not make one ({made:?})"
        )),
    }
    // The others are compared as if it were not there.
    let csv = fs::read_to_string(dir.join("out/similarity.csv")).unwrap();
    let score = |pair: &str| {
        csv.lines()
            .find(|l| l.starts_with(pair))
            .and_then(|l| l.split(',').nth(2))
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    assert!(score("\"ada\",\"copy\",") > 0.5, "{csv}");
    // The file that is not UTF-8 was compared, and so was the nested one:
    // the copy scores as a copy, its blocks in the nested file.
    assert!(score("\"lat\",\"nest\",") > 0.9, "{csv}");
    assert!(!stderr.contains("eve.c"), "{stderr}");
    let blocks = fs::read_to_string(dir.join("out/similarity-blocks.csv")).unwrap();
    assert!(blocks.contains("\"a/b/c/eve.c:"), "{blocks}");
    // What the links point to was never read: the evil one shares no
    // code with the one its link names.
    assert!(!csv.contains("\"ada\",\"evil\""), "{csv}");
    // Names are shown safe: the bidi control escaped.
    assert!(!String::from_utf8_lossy(&output.stdout).contains('\u{202e}'));
}

#[test]
fn one_submissions_trouble_is_its_own() {
    let dir = Scratch::new("similar-trouble");
    let class = dir.join("class");
    copy_tree(&corpus().join("c/ada"), &class.join("ada"));
    copy_tree(&corpus().join("c/ada.dead"), &class.join("copy"));
    // An archive whose entry leaves its folder, and no sources beside it:
    // refused before anything is unpacked.
    fs::create_dir_all(class.join("zipper")).unwrap();
    let zip = common::stored_zip(&[("../escape.c", b"int main(){}".as_slice())]);
    fs::write(class.join("zipper/sub.zip"), zip).unwrap();
    let output = similar(&class, &dir.join("out"), &[]);
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("zipper: not compared: sub.zip not unpacked"),
        "{stderr}"
    );
    let csv = fs::read_to_string(dir.join("out/similarity.csv")).unwrap();
    assert!(
        csv.lines().nth(1).unwrap().starts_with("\"ada\",\"copy\","),
        "{csv}"
    );
    assert!(!dir.join("escape.c").exists() && !class.join("escape.c").exists());
}

#[test]
fn an_archive_is_unpacked_and_compared() {
    if !common::tools_here(&["unzip"]) {
        return;
    }
    let dir = Scratch::new("similar-archive");
    let class = dir.join("class");
    copy_tree(&corpus().join("c/ben"), &class.join("ben"));
    copy_tree(&corpus().join("c/cai"), &class.join("cai"));
    let files: Vec<(String, Vec<u8>)> = fs::read_dir(corpus().join("c/ben.statements"))
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                format!("ass1/{}", e.file_name().to_string_lossy()),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    let entries: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    fs::create_dir_all(class.join("zipped")).unwrap();
    fs::write(
        class.join("zipped/submission.zip"),
        common::stored_zip(&entries),
    )
    .unwrap();
    let output = similar(&class, &dir.join("out"), &[]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let csv = fs::read_to_string(dir.join("out/similarity.csv")).unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("\"ben\",\"zipped\","),
        "{csv}"
    );
    let blocks = fs::read_to_string(dir.join("out/similarity-blocks.csv")).unwrap();
    assert!(blocks.contains("ass1/boardADT.c:"), "{blocks}");
}

#[test]
fn a_bad_command_line_is_refused_with_advice() {
    let dir = Scratch::new("similar-usage");
    let no_folder = Command::new(grader_bin())
        .args(["similar"])
        .output()
        .unwrap();
    assert_eq!(no_folder.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_folder.stderr).contains("no SUBMISSIONS"));
    fs::create_dir_all(dir.join("empty")).unwrap();
    let empty = similar(&dir.join("empty"), &dir.join("out"), &[]);
    assert_eq!(empty.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("holds no submission"));
    let missing = similar(
        &dir.join("empty"),
        &dir.join("out"),
        &["--template", "nowhere.h"],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--template nowhere.h"));
    let help = Command::new(grader_bin())
        .args(["similar", "--help"])
        .output()
        .unwrap();
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("--template PATH"));
}

/// Whether `page` loads nothing from outside: no address, no `src=`, no
/// stylesheet or script linked.
fn self_contained(page: &str) -> bool {
    !page.contains("http")
        && !page.contains("src=")
        && !page.contains("<link")
        && !page.contains("<script")
}

#[test]
fn a_pair_worth_a_look_has_a_page_with_its_blocks_and_names_escaped() {
    let dir = Scratch::new("similar-pages");
    let class = dir.join("class");
    let hostile = "<script>alert(1)";
    copy_tree(&corpus().join("c/ada"), &class.join(hostile));
    copy_tree(&corpus().join("c/ada.renamed"), &class.join("bob"));
    copy_tree(&corpus().join("c/cai"), &class.join("cai"));
    copy_tree(&corpus().join("c/eve"), &class.join("eve"));
    let out = dir.join("out");
    // A page of an earlier comparison is not left to say otherwise.
    fs::create_dir_all(out.join("similarity")).unwrap();
    fs::write(out.join("similarity/old+pair.html"), "old").unwrap();
    let output = similar(&class, &out, &[]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let pages: Vec<String> = fs::read_dir(out.join("similarity"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // Only the copy scores 0.5 or more: one page, named from both stems.
    assert_eq!(pages, ["%3Cscript%3Ealert%281%29+bob.html"], "{pages:?}");
    let page = fs::read_to_string(out.join("similarity").join(&pages[0])).unwrap();
    assert!(!page.contains(hostile), "{page}");
    assert!(page.contains("&lt;script&gt;alert(1)"), "{page}");
    assert!(self_contained(&page), "{page}");
    // The blocks, numbered and coloured on the sources, with how many
    // submissions hold each; the words of evidence, not of a verdict.
    assert!(page.contains("<h2>Matched blocks</h2>"), "{page}");
    assert!(page.contains("<th class=\"n\">shared by</th>"), "{page}");
    assert!(page.contains(" [1] "), "{page}");
    assert!(page.contains("never a verdict"), "{page}");
    assert!(page.contains("boardADT.c") || page.contains("puzzle.c"));
    // Each side's source is shown: a line of ada's own.
    let source = fs::read_dir(corpus().join("c/ada"))
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .collect::<String>();
    let line = source
        .lines()
        .find(|l| l.trim().len() > 15 && !l.contains(['<', '>', '&', '"', '\'']))
        .unwrap();
    assert!(page.contains(line.trim()), "{line}");
}
