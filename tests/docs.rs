//! The documents say what is: every path of the repository they name
//! exists, and every figure they give of the 4x4 and 5x5 tables' size is
//! the tables' own.

use std::fs;
use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `dir` (its subfolders' too) whose names end with one of
/// `ends` (every file, for none).
fn files_in(dir: &Path, ends: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if ends.is_empty() || ends.iter().any(|e| path.to_string_lossy().ends_with(e)) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The folders at the repository's top whose paths the documents name.
const TOPS: [&str; 8] = [
    "examples", "docs", "scripts", "crates", "src", "tests", "data", "benches",
];

/// The paths of the repository that `text` names: a word that starts with
/// one of [`TOPS`] and `/` (or `../` before it, from the document's own
/// folder), up to the first character no path here has, without the
/// punctuation that ends a sentence; one followed by a wildcard or a
/// placeholder (`*`, `{`, `<`, `[`, `\`) is a pattern, not a path.
fn named_paths(text: &str) -> Vec<String> {
    let path_char = |c: char| c.is_ascii_alphanumeric() || "_./%-".contains(c);
    let mut found = Vec::new();
    let bytes: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        if i > 0 && path_char(bytes[i - 1]) {
            i += 1;
            continue;
        }
        let rest: String = bytes[i..bytes.len().min(i + 300)].iter().collect();
        let after_ups = rest.trim_start_matches("../");
        let starts = TOPS
            .iter()
            .any(|top| after_ups.starts_with(&format!("{top}/")));
        if !starts {
            i += 1;
            continue;
        }
        let len = rest.chars().take_while(|&c| path_char(c)).count();
        let next = rest.chars().nth(len);
        let path = rest[..len].trim_end_matches(['.', ',', ';', ':']);
        if !matches!(next, Some('*' | '{' | '<' | '[' | '\\')) {
            found.push(path.to_string());
        }
        i += len.max(1);
    }
    found
}

#[test]
fn every_path_the_documents_name_exists() {
    let root = root();
    let mut documents: Vec<PathBuf> = ["README.md", "SPEC.md", "Makefile", "Testrun"]
        .iter()
        .map(|f| root.join(f))
        .collect();
    documents.extend(files_in(&root.join("docs"), &[".md"]));
    documents.extend(files_in(&root.join("examples"), &[]));
    documents.extend(files_in(&root.join("scripts"), &[]));
    let mut missing = Vec::new();
    let mut checked = 0;
    for document in &documents {
        let text = fs::read_to_string(document).unwrap();
        for path in named_paths(&text) {
            let base = if path.starts_with("../") {
                document.parent().unwrap().to_path_buf()
            } else {
                root.clone()
            };
            let mut full = base;
            for part in Path::new(&path).components() {
                match part {
                    Component::ParentDir => {
                        full.pop();
                    }
                    other => full.push(other),
                }
            }
            checked += 1;
            if !full.exists() {
                missing.push(format!(
                    "{}: {path}",
                    document.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        checked > 200,
        "only {checked} paths found: the reader is broken"
    );
    assert!(
        missing.is_empty(),
        "named, not there:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_path_reader_finds_paths_and_leaves_patterns() {
    assert_eq!(
        named_paths("see examples/gradescope/README.md. And (../docs/usage.md), Tests/x, src/a*.rs, crates/{a,b}"),
        ["examples/gradescope/README.md", "../docs/usage.md"]
    );
}

/// Entries of a pattern table of `tiles` tiles on `cells` cells: the
/// tiles' placements, `cells! / (cells - tiles)!` (the blank not tracked).
fn placements(cells: u64, tiles: u64) -> u64 {
    (cells - tiles + 1..=cells).product()
}

/// The tables' sizes in MB (10^6 bytes, rounded, as `puzzle` says them),
/// each table's entries at 4 bits: every table, and every set of them a
/// document speaks of (docs/tables.md has the partitions).
fn table_figures() -> Vec<(&'static str, u64)> {
    let eight = placements(16, 8) / 2;
    let seven = placements(16, 7) / 2;
    let six = placements(25, 6) / 2;
    let mb = |bytes: u64| (bytes + 500_000) / 1_000_000;
    vec![
        ("a 4x4 8-tile table", mb(eight)),
        ("a 4x4 7-tile table", mb(seven)),
        ("4x4, a corner or centre goal", mb(eight + seven)),
        ("4x4, an edge goal", mb(eight + 2 * seven)),
        ("4x4, all five files", mb(eight + 4 * seven)),
        ("a 5x5 table", mb(six)),
        ("5x5, a goal class of four tables", mb(4 * six)),
        ("5x5, the goal class of five tables", mb(5 * six)),
        ("5x5, the large set", mb(8 * six)),
        ("5x5, all ten files", mb(10 * six)),
    ]
}

/// Each figure `N MB` of `text` said of the 4x4 or 5x5 tables: one whose
/// sentence so far (up to 150 characters back, from the last sentence's
/// end, a blank line or a table's row) names a 4x4 or 5x5 board and a
/// table.
fn table_figures_in(text: &str) -> Vec<(u64, String)> {
    let text = text.replace('\n', " \n");
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = text[at..].find(" MB") {
        let end = at + offset;
        at = end + 3;
        let digits = text[..end]
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .count();
        let start = end - digits;
        let before = text[..start].chars().last();
        if digits == 0 || matches!(before, Some('.' | ',')) {
            continue;
        }
        let mut window = &text[text[..start]
            .char_indices()
            .rev()
            .nth(149)
            .map_or(0, |(i, _)| i)..start];
        for stop in [" \n \n", ". ", "\n|"] {
            if let Some(k) = window.rfind(stop) {
                window = &window[k + stop.len()..];
            }
        }
        let board = window.contains("4x4") || window.contains("5x5");
        if board && window.to_lowercase().contains("table") {
            let figure = text[start..end].parse().unwrap();
            found.push((
                figure,
                window.split_whitespace().collect::<Vec<_>>().join(" "),
            ));
        }
    }
    found
}

#[test]
fn every_document_gives_the_tables_sizes_as_the_tables_have_them() {
    let figures = table_figures();
    // The program's own words, which tests/solve.rs reads from its stderr.
    assert!(figures.contains(&("a 4x4 8-tile table", 259)));
    assert!(figures.contains(&("a 4x4 7-tile table", 29)));
    let root = root();
    let mut documents = vec![
        root.join("README.md"),
        root.join("SPEC.md"),
        root.join("src/bin/puzzle/usage.txt"),
    ];
    documents.extend(files_in(&root.join("docs"), &[".md"]));
    let mut wrong = Vec::new();
    let mut checked = 0;
    for document in &documents {
        let text = fs::read_to_string(document).unwrap();
        for (figure, said) in table_figures_in(&text) {
            checked += 1;
            if !figures.iter().any(|(_, f)| *f == figure) {
                wrong.push(format!(
                    "{}: {figure} MB, after \"{said}\"",
                    document.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        checked >= 10,
        "only {checked} figures found: the reader is broken"
    );
    assert!(
        wrong.is_empty(),
        "figures of the tables that are none of theirs ({figures:?}):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_figure_reader_takes_the_tables_sizes_only() {
    let found = table_figures_in(
        "The first 4x4 builds its tables (about 300 MB). A 4x4 search peaks at 700 MB.\n\n\
         | 5x5 tables | 255 MB |\nA line of 1.5 MB.",
    );
    let figures: Vec<u64> = found.iter().map(|(f, _)| *f).collect();
    assert_eq!(figures, [300, 255]);
}
