//! The documents say what is: every path of the repository they name
//! exists, every link into a document finds its file and heading, every
//! figure they give of the 4x4 and 5x5 tables' size is the tables' own,
//! and every figure of docs/benchmarks.md says its date, machine and
//! command.

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

/// The tables of a Markdown text: each a list of rows (the header first,
/// the separator left out), each row its cells, trimmed.
fn tables_in(text: &str) -> Vec<Vec<Vec<String>>> {
    let mut tables = Vec::new();
    let mut rows: Vec<Vec<String>> = Vec::new();
    for line in text.lines().chain([""]) {
        let line = line.trim();
        if line.starts_with('|') && line.ends_with('|') && line.len() > 1 {
            let cells: Vec<String> = line[1..line.len() - 1]
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect();
            let separator = cells
                .iter()
                .all(|cell| !cell.is_empty() && cell.chars().all(|c| "-:".contains(c)));
            if !separator {
                rows.push(cells);
            }
        } else if !rows.is_empty() {
            tables.push(std::mem::take(&mut rows));
        }
    }
    tables
}

/// Whether `date` is a day of the calendar written `YYYY-MM-DD`.
fn is_date(date: &str) -> bool {
    let parts: Vec<&str> = date.split('-').collect();
    let [year, month, day] = parts[..] else {
        return false;
    };
    let number = |part: &str, len: usize| {
        (part.len() == len && part.chars().all(|c| c.is_ascii_digit()))
            .then(|| part.parse::<u32>().unwrap())
    };
    let (Some(year), Some(month), Some(day)) = (number(year, 4), number(month, 2), number(day, 2))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    (1..=12).contains(&month) && (1..=days[month as usize - 1]).contains(&day)
}

/// What is wrong with the figures tables of `text` (docs/benchmarks.md):
/// the machines are the first column of the table headed `machine | what`;
/// every other table has the columns `value`, `date`, `machine` and
/// `command`, and each of its rows a value with a figure in it, a date, a
/// machine of that table (in backticks, its load after a comma) and a
/// command in backticks. Also how many rows were checked.
fn figures_faults(text: &str) -> (Vec<String>, usize) {
    let tables = tables_in(text);
    let machines: Vec<String> = tables
        .iter()
        .filter(|table| table[0] == ["machine", "what"])
        .flat_map(|table| table[1..].iter().map(|row| row[0].clone()))
        .collect();
    let mut faults = Vec::new();
    if machines.is_empty() {
        faults.push("no table of machines (`| machine | what |`)".to_string());
    }
    let mut checked = 0;
    for table in tables
        .iter()
        .filter(|table| table[0] != ["machine", "what"])
    {
        let header = &table[0];
        let column = |name: &str| header.iter().position(|cell| cell == name);
        let (Some(value), Some(date), Some(machine), Some(command)) = (
            column("value"),
            column("date"),
            column("machine"),
            column("command"),
        ) else {
            faults.push(format!(
                "a table without the columns value, date, machine and command: {header:?}"
            ));
            continue;
        };
        for row in &table[1..] {
            checked += 1;
            let cell = |i: usize| row.get(i).map_or("", String::as_str);
            let mut wrong = Vec::new();
            if !cell(value).chars().any(|c| c.is_ascii_digit()) {
                wrong.push("a value with no figure");
            }
            if !is_date(cell(date)) {
                wrong.push("no date YYYY-MM-DD");
            }
            let name = cell(machine).split(',').next().unwrap_or("").trim();
            if !machines.iter().any(|known| known == name) {
                wrong.push("a machine the table of machines does not name");
            }
            let code = cell(command);
            if code.matches('`').count() < 2 || code.replace('`', "").trim().is_empty() {
                wrong.push("no command in backticks");
            }
            if row.len() != header.len() {
                wrong.push("not as many cells as the header");
            }
            if !wrong.is_empty() {
                faults.push(format!("{}: {row:?}", wrong.join(", ")));
            }
        }
    }
    (faults, checked)
}

#[test]
fn every_figure_of_the_benchmarks_has_its_value_date_machine_and_command() {
    let text = fs::read_to_string(root().join("docs/benchmarks.md")).unwrap();
    let (faults, checked) = figures_faults(&text);
    assert!(
        checked >= 30,
        "only {checked} rows of figures found: the reader is broken"
    );
    assert!(
        faults.is_empty(),
        "docs/benchmarks.md:\n{}",
        faults.join("\n")
    );
}

#[test]
fn the_figures_reader_finds_a_row_without_its_date_machine_or_command() {
    let machines = "| machine | what |\n|---|---|\n| `m1` | a machine |\n\n";
    let good = "| measure | value | date | machine | command |\n|---|---|---|---|---|\n\
                | a | 1 s | 2026-11-27 | `m1`, quiet | `make bench` |\n";
    assert_eq!(figures_faults(&format!("{machines}{good}")), (vec![], 1));
    for bad in [
        "| a | fast | 2026-11-27 | `m1` | `make bench` |",
        "| a | 1 s | 2026-02-30 | `m1` | `make bench` |",
        "| a | 1 s | 27/11/2026 | `m1` | `make bench` |",
        "| a | 1 s | 2026-11-27 | `m2` | `make bench` |",
        "| a | 1 s | 2026-11-27 | `m1` | make bench |",
        "| a | 1 s | 2026-11-27 | `m1` |",
    ] {
        let (faults, checked) = figures_faults(&format!("{machines}{good}{bad}\n"));
        assert_eq!((faults.len(), checked), (1, 2), "{bad}");
    }
    let (faults, _) = figures_faults(&format!(
        "{machines}| measure | value |\n|---|---|\n| a | 1 |\n"
    ));
    assert_eq!(faults.len(), 1);
    assert_eq!(figures_faults(good).0.len(), 2);
}

/// The anchors of a Markdown text's headings, as GitHub makes them: the
/// heading's text lower-cased, without what is neither a letter, a digit,
/// a space, `-` nor `_`, its spaces `-`; a repeated one numbered `-1`,
/// `-2`, ... Headings in fenced code are none.
fn anchors_of(text: &str) -> Vec<String> {
    let mut anchors: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if fenced || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let slug: String = line[hashes..]
            .trim()
            .to_lowercase()
            .chars()
            .filter(|&c| c.is_alphanumeric() || " -_".contains(c))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while anchors.contains(&anchor) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
        anchors.push(anchor);
    }
    anchors
}

/// The targets of the links of a Markdown text, `[...](target)`, outside
/// fenced code and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if fenced {
            continue;
        }
        let mut in_code = false;
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '`' => in_code = !in_code,
                ']' if !in_code && chars.get(i + 1) == Some(&'(') => {
                    let rest: String = chars[i + 2..].iter().collect();
                    if let Some(end) = rest.find(')') {
                        let target = &rest[..end];
                        if !target.contains(' ') {
                            targets.push(target.to_string());
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    targets
}

#[test]
fn every_link_into_a_document_finds_its_file_and_heading() {
    let root = root();
    let mut documents = vec![root.join("README.md"), root.join("SPEC.md")];
    documents.extend(files_in(&root.join("docs"), &[".md"]));
    documents.extend(files_in(&root.join("examples"), &[".md"]));
    documents.extend(files_in(&root.join("crates"), &["README.md"]));
    let mut broken = Vec::new();
    let mut checked = 0;
    for document in &documents {
        let text = fs::read_to_string(document).unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let path = if file.is_empty() {
                document.clone()
            } else {
                document.parent().unwrap().join(file)
            };
            checked += 1;
            let name = document.strip_prefix(&root).unwrap().display();
            if !path.exists() {
                broken.push(format!("{name}: {target} (no such file)"));
            } else if !anchor.is_empty() && path.to_string_lossy().ends_with(".md") {
                let anchors = anchors_of(&fs::read_to_string(&path).unwrap());
                if !anchors.iter().any(|a| a == anchor) {
                    broken.push(format!("{name}: {target} (no such heading)"));
                }
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} links found: the reader is broken"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_reader_makes_githubs_anchors() {
    assert_eq!(
        anchors_of("# A*+IDA*, tried (issue 26)\n```\n# not\n```\n## `--shortest`: anytime\n## Time and the machine's load\n# A*+IDA*, tried (issue 26)\n#not"),
        [
            "aida-tried-issue-26",
            "--shortest-anytime",
            "time-and-the-machines-load",
            "aida-tried-issue-26-1"
        ]
    );
    assert_eq!(
        link_targets("see [a](b.md#c) and `[x](y)`, [d](#e) [f](g h)"),
        ["b.md#c", "#e"]
    );
}

#[test]
fn every_fixture_the_reference_names_for_a_fault_is_in_tests() {
    let root = root();
    let reference = fs::read_to_string(root.join("docs/grading-reference.md")).unwrap();
    let table = tables_in(&reference)
        .into_iter()
        .find(|table| table[0][..2] == ["fault", "fixture"])
        .expect("docs/grading-reference.md has a table | fault | fixture | ... |");
    let mut named = Vec::new();
    for row in &table[1..] {
        for (i, part) in row[1].split('`').enumerate() {
            if i % 2 == 1 {
                named.push(part.to_string());
            }
        }
    }
    assert!(
        named.len() >= 10,
        "only {} fixtures named: the reader is broken",
        named.len()
    );
    let missing: Vec<&String> = named
        .iter()
        .filter(|name| !name.ends_with(".inp") || !root.join("Tests").join(name).is_file())
        .collect();
    assert!(missing.is_empty(), "not fixtures of Tests/: {missing:?}");
}
