//! The class page (issue 36, item 1): `grades/index.html` says what the
//! summaries say. A small class is graded once (`tests/grading/checker.c`
//! built six ways, one of them under a hostile folder name, on eight
//! fixtures, one of them misnamed so that nobody can pass it); then
//!
//! - every number of the page, read from its HTML tables, is compared with
//!   `summary.csv` and `summary-fixtures.csv`, parsed as CSV: each
//!   submission's score, passes, failures, report lines by class and times;
//!   the count, mean, median, highest and lowest score; the histogram's
//!   bars; each fixture's passes, its order and its flags; the report lines
//!   of each class;
//! - the same numbers are read from the DOM headless Chromium builds of the
//!   page (`--dump-dom`), and its feedback pages are checked the same way
//!   (skipped, with the reason, where Chromium is missing).

mod common;

use common::{grader_bin, repo, skip};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A student's folder name as hostile as a file system allows.
const HOSTILE: &str = "<img src=x onerror=alert(1)> & \"q\" 'x' #1?";

/// The stem a submission's files are named from.
fn stem(name: &str) -> String {
    puzzle_grade::Name::parse(name).unwrap().stem()
}

const SUBMISSIONS: [(&str, &str); 6] = [
    ("ann", ""),
    ("bob", "#define NO_ROW_TERM\n"),
    ("cat", "#define BROKEN\n"),
    ("dan", "#define ERRORS_TO_STDERR\n"),
    ("fay", "#define INT32_COUNTER\n"),
    (HOSTILE, "#define ECHO_FIRST\n"),
];

const FIXTURES: [&str; 7] = [
    "bad_empty_input.inp",
    "bad_repeated_tile.inp",
    "sol4_assignment_example.inp",
    "sol4_start_blank_on_last_cell_row_parity.inp",
    "unsol4_goal_blank_edge.inp",
    "unsol2_tiles_swapped.inp",
    "sol257_inversions_2181136127_overflow_signed_int.inp",
];

/// The folder of the class, graded once for every test of this file.
fn graded() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("page-class");
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("Tests")).unwrap();
        for fixture in FIXTURES {
            fs::copy(
                repo().join("Tests").join(fixture),
                dir.join("Tests").join(fixture),
            )
            .unwrap();
        }
        // Named solvable, but unsolvable: NOT GRADED for everyone.
        fs::copy(
            repo().join("Tests/unsol2_tiles_swapped.inp"),
            dir.join("Tests/sol2_misnamed.inp"),
        )
        .unwrap();
        let checker = fs::read_to_string(repo().join("tests/grading/checker.c")).unwrap();
        for (name, prelude) in SUBMISSIONS {
            let sub = dir.join("subs").join(name);
            fs::create_dir_all(&sub).unwrap();
            fs::write(sub.join("puzzle.c"), format!("{prelude}{checker}")).unwrap();
        }
        let out = Command::new(grader_bin())
            .args(["grade-all", "--timeout", "5", "--jobs", "2", "subs"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

/// The rows of a CSV text, each a list of fields (quotes undone).
fn csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            _ => field.push(c),
        }
    }
    rows
}

/// `summary.csv` as maps of column to value, in its order.
fn summary(dir: &Path) -> Vec<BTreeMap<String, String>> {
    let rows = csv(&fs::read_to_string(dir.join("grades/summary.csv")).unwrap());
    let header = &rows[0];
    rows[1..]
        .iter()
        .map(|r| header.iter().cloned().zip(r.iter().cloned()).collect())
        .collect()
}

/// HTML text with its tags dropped and its entities undone.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
        .trim()
        .to_string()
}

/// The body rows of the table `id` of `html` (as written, or as Chromium
/// serialises its DOM), each a list of its cells' text.
fn table(html: &str, id: &str) -> Vec<Vec<String>> {
    let start = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no table {id}"));
    let end = start + html[start..].find("</table>").unwrap();
    let body = &html[start..end];
    let body = &body[body.find("<tbody").expect("a tbody")..];
    let mut rows = Vec::new();
    for tr in body.split("<tr").skip(1) {
        let mut cells = Vec::new();
        let mut rest = tr;
        while let Some(at) = find_cell(rest) {
            let open = at + rest[at..].find('>').unwrap() + 1;
            let close = open + rest[open..].find("</t").unwrap();
            cells.push(text(&rest[open..close]));
            rest = &rest[close + 3..];
        }
        rows.push(cells);
    }
    rows
}

/// Where the next `<td` or `<th` cell (not `<thead`, `<tbody`) begins.
fn find_cell(html: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = html[from..].find("<t").map(|i| from + i) {
        let tag = &html[at + 1..];
        if (tag.starts_with("td") || tag.starts_with("th"))
            && matches!(tag.as_bytes().get(2), Some(b'>' | b' '))
        {
            return Some(at);
        }
        from = at + 2;
    }
    None
}

/// `points` as the summaries write them: two decimals at most, no
/// trailing zeros.
fn points(value: f64) -> String {
    let text = format!("{:.2}", (value * 100.0).round() / 100.0);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text.is_empty() || text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// The CSV's columns of each class the page names (two classes share
/// `error_on_stderr` and `crash`).
fn column(class: &str) -> &'static str {
    match class {
        "WRONG VERDICT" => "wrong_verdict",
        "MISSED ERROR" => "missed_error",
        "FALSE ERROR" => "false_error",
        "WRONG EXIT STATUS" => "wrong_exit_status",
        "ERROR ON STDERR" | "NO MESSAGE" => "error_on_stderr",
        "TIMEOUT" | "NOT RUN" => "timeout",
        "MEMORY LIMIT" => "memory_limit",
        "PROCESS LIMIT" => "process_limit",
        "CRASH" | "NOT GRADED" => "crash",
        "FORMAT" => "format",
        "OPEN" => "open",
        other => panic!("no class {other}"),
    }
}

/// Checks every number of the class page `html` against the summaries of
/// the grading in `dir`; returns the figures compared, in words.
fn agrees_with_the_summaries(html: &str, dir: &Path) -> String {
    let rows = summary(dir);
    // A row a submission, in the CSV's order.
    let page_rows = table(html, "submission-table");
    assert_eq!(page_rows.len(), rows.len());
    for (cells, row) in page_rows.iter().zip(&rows) {
        let name = cells[0].strip_suffix(" (md, report)").unwrap();
        assert_eq!(name, row["submission"]);
        assert_eq!(cells.last().unwrap(), &row["note"], "{name}");
        if row["built"] == "no" {
            assert_eq!(cells[1], "not built");
            assert!(cells[2..cells.len() - 1].iter().all(|c| c == "-"));
            continue;
        }
        assert_eq!(cells[1], row["score"], "{name}");
        assert_eq!(cells[2], row["max_score"], "{name}");
        assert_eq!(cells[3], row["passed"], "{name}");
        assert_eq!(cells[4], row["failed"], "{name}");
        let mut by_column: BTreeMap<&str, usize> = BTreeMap::new();
        if cells[5] != "none" {
            for part in cells[5].split(", ") {
                let (class, n) = part.rsplit_once(' ').unwrap();
                *by_column.entry(column(class)).or_default() += n.parse::<usize>().unwrap();
            }
        }
        for col in [
            "wrong_verdict",
            "missed_error",
            "false_error",
            "wrong_exit_status",
            "error_on_stderr",
            "timeout",
            "memory_limit",
            "process_limit",
            "crash",
            "format",
            "open",
        ] {
            let n = by_column.get(col).copied().unwrap_or(0);
            assert_eq!(n.to_string(), row[col], "{name}: {col}");
        }
        assert_eq!(cells[6], row["seconds"], "{name}");
        assert_eq!(cells[7], row["slowest_seconds"], "{name}");
    }

    // The figures and the histogram, from the CSV's scores.
    let mut scores: Vec<f64> = rows
        .iter()
        .filter(|r| r["built"] == "yes")
        .map(|r| r["score"].parse().unwrap())
        .collect();
    scores.sort_by(f64::total_cmp);
    let max: f64 = rows
        .iter()
        .filter(|r| r["built"] == "yes")
        .map(|r| r["max_score"].parse::<f64>().unwrap())
        .fold(0.0, f64::max);
    let n = scores.len();
    let mean = scores.iter().sum::<f64>() / n as f64;
    let median = if n % 2 == 1 {
        scores[n / 2]
    } else {
        (scores[n / 2 - 1] + scores[n / 2]) / 2.0
    };
    let figures: Vec<String> = table(html, "score-figures")
        .into_iter()
        .map(|row| row[1].clone())
        .collect();
    assert_eq!(
        figures,
        [
            rows.len().to_string(),
            n.to_string(),
            (rows.len() - n).to_string(),
            points(mean),
            points(median),
            points(scores[n - 1]),
            points(scores[0]),
            points(max),
        ]
    );
    let mut bars = [0usize; 10];
    for &s in &scores {
        bars[((s * 10.0 / max).floor() as usize).min(9)] += 1;
    }
    let histogram: Vec<usize> = table(html, "histogram")
        .iter()
        .map(|r| r[1].parse().unwrap())
        .collect();
    assert_eq!(histogram, bars);
    // The chart says the same: a bar's title gives its count.
    let chart = &html[html.find("<svg").unwrap()..html.find("</svg>").unwrap()];
    for (k, count) in bars.iter().enumerate() {
        let label = &table(html, "histogram")[k][0];
        assert!(
            chart.contains(&format!("<title>{label}: {count}</title>")),
            "{label}: {count}"
        );
    }
    assert!(chart.contains(&format!(">mean {}<", points(mean))));
    assert!(chart.contains(&format!(">median {}<", points(median))));

    // Each fixture's passes, from summary-fixtures.csv; most failed first.
    let lines = csv(&fs::read_to_string(dir.join("grades/summary-fixtures.csv")).unwrap());
    let mut passes: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for line in &lines[1..] {
        let entry = passes.entry(line[1].clone()).or_default();
        entry.1 += 1;
        // Not strict: a format difference and an open question pass.
        if matches!(line[3].as_str(), "passed" | "FORMAT" | "OPEN") {
            entry.0 += 1;
        }
    }
    let fixture_rows = table(html, "fixture-table");
    assert_eq!(fixture_rows.len(), passes.len());
    let mut last_rate = 0.0;
    for cells in &fixture_rows {
        let fixture = cells[0].split(" (").next().unwrap();
        let (passed, runs) = passes[fixture];
        assert_eq!(cells[2], passed.to_string(), "{fixture}");
        assert_eq!(cells[3], runs.to_string(), "{fixture}");
        let rate = passed as f64 / runs as f64;
        assert!(rate >= last_rate, "{fixture}: not most failed first");
        last_rate = rate;
        let flag = match passed {
            0 => "nobody passes",
            p if p == runs => "everybody passes",
            _ => "",
        };
        assert_eq!(cells[7], flag, "{fixture}");
    }

    // Report lines by class: the CSV's columns, summed.
    let mut by_column: BTreeMap<&str, usize> = BTreeMap::new();
    for cells in table(html, "class-table") {
        let class = cells[0].trim_end_matches(" (not a failure)");
        *by_column.entry(column(class)).or_default() += cells[1].parse::<usize>().unwrap();
    }
    for (col, n) in &by_column {
        let sum: usize = rows
            .iter()
            .filter(|r| r["built"] == "yes")
            .map(|r| r[*col].parse::<usize>().unwrap())
            .sum();
        assert_eq!(*n, sum, "{col}");
    }
    format!(
        "{} submissions ({n} built), mean {}, median {}, highest {}, of {}; bars {bars:?}; \
         {} fixtures, {} passed by nobody; {} report lines",
        rows.len(),
        points(mean),
        points(median),
        points(scores[n - 1]),
        points(max),
        fixture_rows.len(),
        fixture_rows
            .iter()
            .filter(|r| r[7] == "nobody passes")
            .count(),
        by_column.values().sum::<usize>()
    )
}

#[test]
fn the_class_page_says_what_the_summaries_say() {
    let dir = graded();
    let html = fs::read_to_string(dir.join("grades/index.html")).unwrap();
    let figures = agrees_with_the_summaries(&html, dir);
    eprintln!("index.html agrees with summary.csv: {figures}");
    // What this class shows: the misnamed fixture is flagged, the 32-bit
    // counter's cause named, the hostile name only text.
    assert!(figures.contains("1 passed by nobody"), "{figures}");
    assert!(html.contains("a 32-bit counter overflows there"));
    assert!(!html.contains("<img"));
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;x&#39; #1?"));
    assert!(html.contains("<strong class=\"ok\">Complete</strong>: 6 graded (6 submissions)."));
    assert!(html.contains("--timeout 5"));
    // Self-contained: nothing fetched, nothing run.
    for fetch in ["<script", "<link", "<img", "url(", "@import"] {
        assert!(!html.contains(fetch), "{fetch}");
    }
    // Every link to a feedback page finds it, written from the Markdown.
    for (name, _) in SUBMISSIONS {
        let stem = stem(name);
        let page = fs::read_to_string(dir.join(format!("grades/{stem}.feedback.html"))).unwrap();
        let markdown = fs::read_to_string(dir.join(format!("grades/{stem}.feedback.md"))).unwrap();
        assert!(page.starts_with("<!DOCTYPE html>"));
        let heading = &page[page.find("<h1>").unwrap()..page.find("</h1>").unwrap() + 5];
        assert_eq!(text(heading), markdown.lines().next().unwrap()[2..]);
        assert!(!page.contains("<img"));
    }
    // The stem's every % written %25 in the link.
    let href = "./%253Cimg%2520src%253Dx%2520onerror%253Dalert%25281%2529%253E%2520%2526%2520%2522q%2522%2520%2527x%2527%2520%25231%253F.feedback.html";
    assert!(html.contains(&format!("href=\"{href}\"")));
}

/// Chromium's program, when installed.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// The `file://` URL of `path`, every byte but `/` and the unreserved
/// ones percent-encoded.
fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    for &b in path.to_str().unwrap().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

/// The DOM headless Chromium builds of the file `page`, serialised.
fn dump_dom(chromium: &Path, page: &Path) -> String {
    let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("page-chromium-profile");
    let _ = fs::remove_dir_all(&profile);
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(file_url(page))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("chromium took over 60 s on {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "chromium failed on {}",
        page.display()
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn chromium_renders_the_same_numbers() {
    let Some(chromium) = chromium() else {
        skip(
            "chromium is not installed (apt-get install chromium), the page's DOM was not checked",
        );
        return;
    };
    let dir = graded();
    let began = Instant::now();
    let dom = dump_dom(&chromium, &dir.join("grades/index.html"));
    let figures = agrees_with_the_summaries(&dom, dir);
    eprintln!(
        "Chromium's DOM of index.html agrees with summary.csv ({:.1} s): {figures}",
        began.elapsed().as_secs_f64()
    );
    // The hostile name is text in the DOM, never an element or an
    // attribute.
    assert!(!dom.contains("<img"));
    assert!(dom.contains("&lt;img src=x onerror=alert(1)&gt; &amp; \"q\" 'x' #1?"));
    let feedback = dump_dom(
        &chromium,
        &dir.join(format!("grades/{}.feedback.html", stem(HOSTILE))),
    );
    assert!(!feedback.contains("<img"));
    assert!(feedback
        .contains("<h1>Feedback for &lt;img src=x onerror=alert(1)&gt; &amp; \"q\" 'x' #1?</h1>"));
}

/// A measurement, not a check (issue 36, item 4): what writing the
/// summaries and the class page costs for 2,000 submissions of 89
/// fixtures each, as a grading rewrites them while it goes and as a merge
/// writes them once.
///
/// `cargo test -p puzzle-grade --test page -- --ignored --nocapture summaries`
/// (the test profile is optimised).
#[test]
#[ignore]
fn summaries_of_2000_submissions() {
    use puzzle_grade::{
        class_page, fixture_shape, write_summary_files, FixtureLine, Manifest, Record, Row,
        RowMarks, CLASSES,
    };

    let mut fixtures: Vec<String> = fs::read_dir(repo().join("Tests"))
        .unwrap()
        .map(|e| format!("Tests/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    fixtures.sort();
    assert_eq!(fixtures.len(), 89);
    let classes = [
        "WRONG VERDICT",
        "ERROR ON STDERR",
        "WRONG EXIT STATUS",
        "TIMEOUT",
        "FORMAT",
    ];
    // A class of 2,000: most fixtures passed, each submission failing a
    // few in one way, as the demo's variants do.
    let records: Vec<Record> = (0..2000)
        .map(|i| {
            let lines: Vec<FixtureLine> = fixtures
                .iter()
                .enumerate()
                .map(|(j, f)| {
                    let fails = (i * 7 + j * 13) % 11 == 0;
                    let class = if fails {
                        classes[i % classes.len()]
                    } else {
                        "passed"
                    };
                    FixtureLine {
                        fixture: f.clone(),
                        category: f[6..]
                            .split('_')
                            .next()
                            .unwrap()
                            .trim_end_matches(char::is_numeric)
                            .into(),
                        class: class.into(),
                        points: if fails { 0.0 } else { 1.12 },
                        max_points: 1.12,
                        visibility: "visible".into(),
                        seconds: Some(Duration::from_millis(15 + (i + j) as u64 % 40)),
                        detail: if fails {
                            "'unsolvable', expected 'solvable' (the reference's verdict)".into()
                        } else {
                            String::new()
                        },
                    }
                })
                .collect();
            let failed = lines
                .iter()
                .filter(|l| l.class != "passed" && l.class != "FORMAT")
                .count();
            let mut counts = [0; CLASSES];
            let index = |name: &str| {
                puzzle_grade::Class::ALL
                    .iter()
                    .position(|c| c.name() == name)
                    .unwrap()
            };
            for l in lines.iter().filter(|l| l.class != "passed") {
                counts[index(&l.class)] += 1;
            }
            Record {
                row: Row {
                    name: format!("z{i:07}"),
                    note: "dcc not found: built with cc -lm".into(),
                    trouble: None,
                    marks: Some(RowMarks {
                        passed: lines.len() - failed,
                        failed,
                        classes: counts,
                        score: lines.iter().map(|l| l.points).sum(),
                        max: 100.0,
                        fuzz: None,
                        seconds: Duration::from_millis(1500),
                        slowest: Some(Duration::from_millis(120)),
                    }),
                },
                fixtures: lines,
                causes: Vec::new(),
                sources: None,
            }
        })
        .collect();
    let manifest = Manifest {
        folder: "/srv/course/submissions".into(),
        folder_names: records.iter().map(|r| r.row.name.clone()).collect(),
        options: "--timeout 5 --memory 1024 --processes 64 --build-timeout 120".into(),
        sandbox: "sandbox: measured".into(),
        shard: None,
        started: "2026-11-27T21:30:05Z".into(),
        updated: "2026-11-27T21:31:05Z".into(),
        complete: true,
        fixtures: Vec::new(),
    };
    let repo = repo();
    let shapes = |shown: &str| fixture_shape(&repo.join(shown).to_string_lossy());
    let refs: Vec<&Record> = records.iter().collect();
    // The first page reads the fixtures' shapes; the later ones find them.
    let began = Instant::now();
    let page = class_page(&manifest, &refs, &shapes, None);
    let first = began.elapsed();
    let began = Instant::now();
    let rounds = 5;
    for _ in 0..rounds {
        assert_eq!(
            class_page(&manifest, &refs, &shapes, None).len(),
            page.len()
        );
    }
    let again = began.elapsed() / rounds;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("page-2000");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let began = Instant::now();
    for _ in 0..rounds {
        write_summary_files(&dir, &manifest, &records, None).unwrap();
    }
    let all = began.elapsed() / rounds;
    // What making the lines costs, without writing them.
    let began = Instant::now();
    let mut bytes = 0;
    for record in &records {
        bytes += record.json_line().len() + record.row.csv_line().len();
        for line in &record.fixtures {
            bytes += line.csv_line(&record.row.name).len();
        }
    }
    let lines = began.elapsed();
    eprintln!(
        "summary.jsonl's and the CSVs' lines made in {:.0} ms ({:.1} MB)",
        lines.as_secs_f64() * 1e3,
        bytes as f64 / 1e6
    );
    let mut sizes = Vec::new();
    for entry in fs::read_dir(&dir).unwrap() {
        let entry = entry.unwrap();
        sizes.push(format!(
            "{} {:.2} MB",
            entry.file_name().to_string_lossy(),
            entry.metadata().unwrap().len() as f64 / 1e6
        ));
    }
    sizes.sort();
    eprintln!(
        "2,000 submissions x 89 fixtures: class page {:.2} MB, made in {:.0} ms the first time \
         (the fixtures' shapes read), {:.0} ms after; every summary and the page written in \
         {:.0} ms; {}",
        page.len() as f64 / 1e6,
        first.as_secs_f64() * 1e3,
        again.as_secs_f64() * 1e3,
        all.as_secs_f64() * 1e3,
        sizes.join(", ")
    );
}
