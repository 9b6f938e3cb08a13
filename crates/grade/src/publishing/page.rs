//! The class page, `grades/index.html`: the whole class at a glance, made
//! from a grading's [`Manifest`] and [`Record`]s, the same data as
//! `summary.csv` and `summary-fixtures.csv`, every time they are written.
//!
//! One self-contained file (inline style and SVG, no script, nothing
//! fetched): the scores' histogram with its mean, median and highest score
//! (and a table of the same counts); the fixtures by pass rate, most failed
//! first, with the cause their failures share where one is known, and the
//! fixtures nobody or everybody passes flagged; the report lines by fault
//! class and by cause; a row a submission linking to its feedback page;
//! the sandbox's line and the grading's settings, and whether it is
//! complete.
//!
//! Numbers are the summaries': a score as `summary.csv` shows it (two
//! decimals at most), pass and fail as each row counts them. A cause is
//! [`shared_cause`] of the fixtures a submission failed with one class, as
//! its feedback names it; it needs the fixtures' bytes, read where the
//! grading runs ([`fixture_shape`]), and is left out where they cannot be.

use crate::intake::name::Name;
use crate::judging::judge::Class;
use crate::marking::cause::{shared_cause, Shape};
use crate::marking::marks::points;
use crate::marking::report::seconds;
use crate::publishing::changes::Comparison;
use crate::publishing::grades::Manifest;
use crate::publishing::html::{escape, head, href};
use crate::publishing::record::{FixtureLine, Record, CLASSES};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::SystemTime;

/// How many bars the histogram has (each a tenth of the maximum score).
pub const BINS: usize = 10;

/// The bar of the histogram a score `score` out of `max` falls in: `k`
/// where `k <= BINS * score / max < k + 1`, full marks in the last.
pub fn bin(score: f64, max: f64) -> usize {
    if max <= 0.0 || score <= 0.0 {
        return 0;
    }
    ((score * BINS as f64 / max).floor() as usize).min(BINS - 1)
}

/// A score as the summaries show it, as a number again (two decimals).
fn shown(value: f64) -> f64 {
    points(value).parse().unwrap_or(0.0)
}

/// Whether a fixture's line counts as passed: `passed`, an open question,
/// or a format difference when not grading byte for byte (as the row's
/// `passed` and `failed` count).
pub fn line_passes(line: &FixtureLine, strict: bool) -> bool {
    match class_of(&line.class) {
        None => true,
        Some(class) => !class.fails(strict),
    }
}

/// The class a fixture line names (`None`: passed).
fn class_of(name: &str) -> Option<Class> {
    Class::ALL.into_iter().find(|c| c.name() == name)
}

/// Whether the grading's options grade byte for byte.
fn strict(manifest: &Manifest) -> bool {
    manifest.options.split(' ').any(|w| w == "--strict")
}

/// The shape of the fixture `shown` (a path as reports show it, from the
/// folder the grading runs in), read once a process while the file does
/// not change; `None` when it cannot be read.
pub fn fixture_shape(shown: &str) -> Option<Shape> {
    type Key = (PathBuf, u64, Option<SystemTime>);
    static KNOWN: Mutex<Option<HashMap<Key, Shape>>> = Mutex::new(None);
    let path = PathBuf::from(shown);
    let meta = std::fs::metadata(&path).ok().filter(|m| m.is_file())?;
    let key = (path, meta.len(), meta.modified().ok());
    let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    let known = known.get_or_insert_with(HashMap::new);
    if let Some(shape) = known.get(&key) {
        return Some(*shape);
    }
    let shape = Shape::of(&std::fs::read(&key.0).ok()?);
    known.insert(key, shape);
    Some(shape)
}

/// What the page says of one fixture.
struct FixtureStat<'a> {
    line: &'a FixtureLine,
    /// Built submissions that ran it.
    runs: usize,
    passed: usize,
    /// Its failures by class.
    failed: [usize; CLASSES],
    /// The causes its failures share, with how many submissions each.
    causes: BTreeMap<String, usize>,
}

/// The class page of a grading: `records` in name order; `shapes` gives a
/// fixture's shape by its shown path (see [`fixture_shape`]); `changes`,
/// what changed since the grading before (a regrading).
pub fn class_page(
    manifest: &Manifest,
    records: &[&Record],
    shapes: &dyn Fn(&str) -> Option<Shape>,
    changes: Option<&Comparison>,
) -> String {
    let strict = strict(manifest);
    let built: Vec<&&Record> = records.iter().filter(|r| r.row.marks.is_some()).collect();
    let mut scores: Vec<f64> = built
        .iter()
        .filter_map(|r| r.row.marks.as_ref().map(|m| shown(m.score)))
        .collect();
    let max = built
        .iter()
        .filter_map(|r| r.row.marks.as_ref().map(|m| shown(m.max)))
        .fold(0.0, f64::max);

    // Fixtures, in the order the records give them.
    let mut stats: Vec<FixtureStat> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    // Submissions whose feedback names a cause, by class and cause.
    let mut causes: BTreeMap<(Class, String), usize> = BTreeMap::new();
    let mut shape_of: HashMap<&str, Option<Shape>> = HashMap::new();
    for record in &built {
        let mut groups: [Vec<usize>; CLASSES] = Default::default();
        for line in &record.fixtures {
            let i = *index.entry(line.fixture.as_str()).or_insert_with(|| {
                stats.push(FixtureStat {
                    line,
                    runs: 0,
                    passed: 0,
                    failed: [0; CLASSES],
                    causes: BTreeMap::new(),
                });
                stats.len() - 1
            });
            let stat = &mut stats[i];
            stat.runs += 1;
            if line_passes(line, strict) {
                stat.passed += 1;
            } else if let Some(class) = class_of(&line.class) {
                stat.failed[class as usize] += 1;
            }
            if let Some(class) = class_of(&line.class) {
                groups[class as usize].push(i);
            }
        }
        // The causes its feedback names: a class's fixtures, all known.
        for class in Class::ALL {
            let group = &groups[class as usize];
            if group.is_empty() || matches!(class, Class::Format | Class::Open) {
                continue;
            }
            let mut shape = |i: usize| {
                let name = stats[i].line.fixture.as_str();
                *shape_of.entry(name).or_insert_with(|| shapes(name))
            };
            let group_shapes: Option<Vec<Shape>> = group.iter().map(|&i| shape(i)).collect();
            // The fixtures of the same categories that did not fail so: a
            // cause must set the failing ones apart from them, as the
            // feedback's does.
            let categories: Vec<&str> = group
                .iter()
                .map(|&i| stats[i].line.category.as_str())
                .collect();
            let others: Vec<usize> = record
                .fixtures
                .iter()
                .filter(|l| categories.contains(&l.category.as_str()))
                .map(|l| index[l.fixture.as_str()])
                .filter(|i| !group.contains(i))
                .collect();
            let other_shapes: Vec<Shape> = others.into_iter().filter_map(&mut shape).collect();
            let Some(cause) = group_shapes.and_then(|s| shared_cause(class, &s, &other_shapes))
            else {
                continue;
            };
            for &i in group {
                if class.fails(strict) {
                    *stats[i].causes.entry(cause.clone()).or_default() += 1;
                }
            }
            *causes.entry((class, cause)).or_default() += 1;
        }
    }

    let mut out = head(&format!("Class page: {}", manifest.folder));
    out.push_str("<header>\n");
    let _ = writeln!(
        out,
        "<h1>Class page: grading of {}</h1>",
        escape(&manifest.folder)
    );
    status(&mut out, manifest, records.len());
    out.push_str(
        "<nav><a href=\"#scores\">Scores</a><a href=\"#fixtures\">Fixtures</a>\
         <a href=\"#faults\">Faults</a><a href=\"#submissions\">Submissions</a>\
         <a href=\"#grading\">Grading</a></nav>\n</header>\n<main>\n",
    );
    changes_section(&mut out, changes);
    score_section(&mut out, &mut scores, max, records.len());
    fixture_section(&mut out, &mut stats, built.len());
    fault_section(&mut out, &built, &causes, strict);
    submission_section(&mut out, records);
    grading_section(&mut out, manifest);
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// The line that says whether the grading is complete, and of how many.
fn status(out: &mut String, manifest: &Manifest, graded: usize) {
    let to_grade = manifest.names_to_grade().len();
    let part = match manifest.shard {
        Some(shard) => format!(
            "shard {shard}: {to_grade} of {} submissions",
            manifest.folder_names.len()
        ),
        None => format!("{to_grade} submissions"),
    };
    if manifest.complete {
        let _ = writeln!(
            out,
            "<p id=\"status\"><strong class=\"ok\">Complete</strong>: {graded} graded ({part}).</p>"
        );
    } else {
        let _ = writeln!(
            out,
            "<p id=\"status\"><strong class=\"flag\">INCOMPLETE</strong>: {graded} of {to_grade} graded ({part}); run the same command with --resume to finish.</p>"
        );
    }
}

/// A number of points without needless decimals.
fn num(value: f64) -> String {
    points(value)
}

/// The median of `sorted`.
fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// The scores: the figures, the histogram and its table.
fn score_section(out: &mut String, scores: &mut [f64], max: f64, submissions: usize) {
    scores.sort_by(f64::total_cmp);
    let n = scores.len();
    let mean = if n == 0 {
        0.0
    } else {
        scores.iter().sum::<f64>() / n as f64
    };
    let median = median(scores);
    let highest = scores.last().copied().unwrap_or(0.0);
    let lowest = scores.first().copied().unwrap_or(0.0);
    out.push_str("<section id=\"scores\">\n<h2>Scores</h2>\n");
    out.push_str(
        "<div class=\"chart\">\n<div class=\"wide\"><table id=\"score-figures\">\n\
         <caption>The scores of the submissions built</caption>\n<thead><tr>\
         <th scope=\"col\">figure</th><th scope=\"col\" class=\"n\">value</th></tr></thead>\n<tbody>\n",
    );
    let figure = |x: f64| {
        if n == 0 {
            "-".to_string()
        } else {
            num(x)
        }
    };
    let figures = [
        ("submissions", submissions.to_string()),
        ("built", n.to_string()),
        ("not built (no score)", (submissions - n).to_string()),
        ("mean", figure(mean)),
        ("median", figure(median)),
        ("highest", figure(highest)),
        ("lowest", figure(lowest)),
        ("out of", num(max)),
    ];
    for (name, value) in figures {
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\">{name}</th><td class=\"n\">{value}</td></tr>"
        );
    }
    out.push_str("</tbody></table></div>\n");
    if n == 0 {
        out.push_str("</div>\n<p>No submission is built yet: no score to show.</p>\n</section>\n");
        return;
    }
    let mut counts = [0usize; BINS];
    for &s in scores.iter() {
        counts[bin(s, max)] += 1;
    }
    let edge = |k: usize| num(max * k as f64 / BINS as f64);
    let label = |k: usize| {
        if k + 1 == BINS {
            format!("{} to {}", edge(k), edge(k + 1))
        } else {
            format!("{} to under {}", edge(k), edge(k + 1))
        }
    };
    histogram(out, &counts, max, n, (mean, median, highest), &label);
    out.push_str(
        "<div class=\"wide\"><table id=\"histogram\">\n<caption>The histogram in figures: \
         submissions built by score</caption>\n<thead><tr><th scope=\"col\">score</th>\
         <th scope=\"col\">submissions</th></tr></thead>\n<tbody>\n",
    );
    for (k, count) in counts.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{count}</td></tr>",
            label(k)
        );
    }
    out.push_str("</tbody></table></div>\n</div>\n</section>\n");
}

/// The histogram as SVG, with the mean, median and highest score marked.
fn histogram(
    out: &mut String,
    counts: &[usize; BINS],
    max: f64,
    n: usize,
    (mean, median, highest): (f64, f64, f64),
    label: &dyn Fn(usize) -> String,
) {
    const W: f64 = 640.0;
    const H: f64 = 260.0;
    const LEFT: f64 = 44.0;
    const RIGHT: f64 = 12.0;
    const TOP: f64 = 48.0;
    const BOTTOM: f64 = 40.0;
    let plot_w = W - LEFT - RIGHT;
    let plot_h = H - TOP - BOTTOM;
    let tallest = counts.iter().copied().max().unwrap_or(0).max(1);
    let bar_w = plot_w / BINS as f64;
    let _ = writeln!(
        out,
        "<figure>\n<svg id=\"histogram-chart\" viewBox=\"0 0 {W} {H}\" width=\"{W}\" height=\"{H}\" \
         role=\"img\" aria-labelledby=\"histogram-title histogram-desc\" \
         xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <title id=\"histogram-title\">Scores of {n} submissions built</title>\n\
         <desc id=\"histogram-desc\">Bars of a tenth of the maximum score each; the table below \
         gives the same counts.</desc>"
    );
    // The axes and the largest count.
    let base = TOP + plot_h;
    let _ = writeln!(
        out,
        "<line x1=\"{LEFT}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\" stroke=\"#57606a\"/>\n\
         <line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{base}\" stroke=\"#57606a\"/>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{tallest}</text>\n\
         <text x=\"{}\" y=\"{base}\" text-anchor=\"end\">0</text>\n\
         <text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {})\" text-anchor=\"middle\">submissions</text>",
        LEFT + plot_w,
        LEFT - 4.0,
        TOP + 4.0,
        LEFT - 4.0,
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0,
    );
    for (k, &count) in counts.iter().enumerate() {
        let x = LEFT + bar_w * k as f64;
        let h = plot_h * count as f64 / tallest as f64;
        let _ = writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#3b6ea8\">\
             <title>{}: {count}</title></rect>",
            x + 1.0,
            base - h,
            bar_w - 2.0,
            h,
            label(k)
        );
        if count > 0 {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{count}</text>",
                x + bar_w / 2.0,
                base - h - 3.0
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            base + 14.0,
            num(max * k as f64 / BINS as f64)
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">score</text>",
        LEFT + plot_w,
        base + 14.0,
        num(max),
        LEFT + plot_w / 2.0,
        base + 32.0
    );
    if n > 0 && max > 0.0 {
        // Each a line across the bars, named in a legend above them.
        let marks = [
            ("mean", mean, "#b3261e", "5 3"),
            ("median", median, "#1a7f37", "2 2"),
            ("highest", highest, "#1b1f23", "8 2 2 2"),
        ];
        for (k, (name, value, colour, dash)) in marks.into_iter().enumerate() {
            let x = LEFT + plot_w * (value / max).clamp(0.0, 1.0);
            let key = LEFT + 170.0 * k as f64;
            let _ = writeln!(
                out,
                "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{base}\" stroke=\"{colour}\" \
                 stroke-width=\"2\" stroke-dasharray=\"{dash}\"/>\n\
                 <line x1=\"{key:.1}\" y1=\"16\" x2=\"{:.1}\" y2=\"16\" stroke=\"{colour}\" \
                 stroke-width=\"2\" stroke-dasharray=\"{dash}\"/>\n\
                 <text x=\"{:.1}\" y=\"20\" fill=\"{colour}\" font-size=\"12\">{name} {}</text>",
                TOP - 14.0,
                key + 24.0,
                key + 30.0,
                num(value)
            );
        }
    }
    out.push_str("</svg>\n");
    let _ = writeln!(
        out,
        "<figcaption class=\"muted\">Mean, median and highest score of the {n} submissions built, \
         marked on their histogram (each bar a tenth of {}).</figcaption>\n</figure>",
        num(max)
    );
}

/// A class's name, and whether it costs marks here.
fn class_cell(class: Class, strict: bool) -> String {
    if class.fails(strict) {
        class.name().to_string()
    } else {
        format!("{} (not a failure)", class.name())
    }
}

/// The fixtures, most failed first.
fn fixture_section(out: &mut String, stats: &mut [FixtureStat], built: usize) {
    out.push_str("<section id=\"fixtures\">\n<h2>Fixtures</h2>\n");
    if stats.is_empty() {
        out.push_str("<p>No submission was built: no fixture was run.</p>\n</section>\n");
        return;
    }
    // Most failed first: the lowest share passed; ties in the fixtures' order.
    stats.sort_by(|a, b| (a.passed * b.runs).cmp(&(b.passed * a.runs)));
    let nobody = stats.iter().filter(|s| s.passed == 0).count();
    let everybody = stats.iter().filter(|s| s.passed == s.runs).count();
    let _ = writeln!(
        out,
        "<p>{} fixtures, run by the {built} submissions built: {nobody} passed by nobody \
         (check such a fixture first: a broken one fails everyone), {everybody} passed by everybody.</p>",
        stats.len()
    );
    out.push_str(
        "<div class=\"wide\"><table id=\"fixture-table\">\n<caption>Fixtures by pass rate, most \
         failed first</caption>\n<thead><tr><th scope=\"col\">fixture</th>\
         <th scope=\"col\">category</th><th scope=\"col\" class=\"n\">passed</th>\
         <th scope=\"col\" class=\"n\">of</th><th scope=\"col\" class=\"n\">pass rate</th>\
         <th scope=\"col\">failed as</th><th scope=\"col\">shared cause</th>\
         <th scope=\"col\">flag</th></tr></thead>\n<tbody>\n",
    );
    for s in stats.iter() {
        let mut failed: Vec<(usize, Class)> = Class::ALL
            .into_iter()
            .filter(|&c| s.failed[c as usize] > 0)
            .map(|c| (s.failed[c as usize], c))
            .collect();
        failed.sort_by_key(|f| std::cmp::Reverse(f.0));
        let failed: Vec<String> = failed
            .iter()
            .map(|(n, c)| format!("<span class=\"nw\">{} {n}</span>", c.name()))
            .collect();
        let cause = s
            .causes
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map_or(String::new(), |(cause, n)| {
                format!(
                    "{} <span class=\"muted nw\">({n} of {} failing)</span>",
                    escape(cause),
                    s.runs - s.passed
                )
            });
        let flag = if s.passed == 0 {
            "<span class=\"flag\">nobody passes</span>"
        } else if s.passed == s.runs {
            "<span class=\"ok\">everybody passes</span>"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"fx\"><code>{}</code>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}%</td><td>{}</td><td>{cause}</td><td>{flag}</td></tr>",
            escape(&s.line.fixture),
            if s.line.visibility == "visible" {
                String::new()
            } else {
                format!(" <span class=\"muted\">({})</span>", escape(&s.line.visibility))
            },
            escape(&s.line.category),
            s.passed,
            s.runs,
            (s.passed * 100 + s.runs / 2) / s.runs.max(1),
            failed.join(", "),
        );
    }
    out.push_str("</tbody></table></div>\n</section>\n");
}

/// The report lines by class, and the causes by class.
fn fault_section(
    out: &mut String,
    built: &[&&Record],
    causes: &BTreeMap<(Class, String), usize>,
    strict: bool,
) {
    out.push_str(
        "<section id=\"faults\">\n<h2>Faults</h2>\n<div class=\"wide\"><table id=\"class-table\">\n\
         <caption>Report lines by fault class</caption>\n<thead><tr><th scope=\"col\">class</th>\
         <th scope=\"col\" class=\"n\">lines</th><th scope=\"col\" class=\"n\">submissions</th>\
         </tr></thead>\n<tbody>\n",
    );
    for class in Class::ALL {
        let counts: Vec<usize> = built
            .iter()
            .filter_map(|r| r.row.marks.as_ref().map(|m| m.count(class)))
            .collect();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            class_cell(class, strict),
            counts.iter().sum::<usize>(),
            counts.iter().filter(|&&n| n > 0).count()
        );
    }
    out.push_str("</tbody></table></div>\n");
    if causes.is_empty() {
        out.push_str("<p>No cause shared by a submission's failures of one class is known.</p>\n");
    } else {
        out.push_str(
            "<div class=\"wide\"><table id=\"cause-table\">\n<caption>Causes: the fixtures a \
             submission failed with one class all share it (as its feedback says)</caption>\n\
             <thead><tr><th scope=\"col\">class</th><th scope=\"col\">cause</th>\
             <th scope=\"col\" class=\"n\">submissions</th></tr></thead>\n<tbody>\n",
        );
        let mut by_count: Vec<(&(Class, String), &usize)> = causes.iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for ((class, cause), n) in by_count {
            let _ = writeln!(
                out,
                "<tr><td class=\"nw\">{}</td><td>{}</td><td class=\"n\">{n}</td></tr>",
                class.name(),
                escape(cause)
            );
        }
        out.push_str("</tbody></table></div>\n");
    }
    out.push_str("</section>\n");
}

/// A row a submission, linking to its feedback.
fn submission_section(out: &mut String, records: &[&Record]) {
    let fuzzed = records
        .iter()
        .any(|r| r.row.marks.as_ref().is_some_and(|m| m.fuzz.is_some()));
    out.push_str(
        "<section id=\"submissions\">\n<h2>Submissions</h2>\n<p>Each name links to its feedback \
         as a page; <em>md</em> is the same feedback in Markdown, <em>report</em> the plain \
         report.</p>\n<div class=\"wide\"><table id=\"submission-table\">\n<caption>A row a \
         submission, by name</caption>\n<thead><tr><th scope=\"col\">submission</th>\
         <th scope=\"col\" class=\"n\">score</th><th scope=\"col\" class=\"n\">of</th>\
         <th scope=\"col\" class=\"n\">passed</th><th scope=\"col\" class=\"n\">failed</th>\
         <th scope=\"col\">report lines by class</th>",
    );
    if fuzzed {
        out.push_str("<th scope=\"col\" class=\"n\">fuzz faults</th>");
    }
    out.push_str(
        "<th scope=\"col\" class=\"n\">time (s)</th><th scope=\"col\" class=\"n\">slowest (s)</th>\
         <th scope=\"col\">build note</th></tr></thead>\n<tbody>\n",
    );
    for record in records {
        let row = &record.row;
        let name = escape(&row.name);
        // The files are named from the name's stem (a record's name is
        // always a name: it was checked as it was read).
        let stem = Name::parse(&row.name).map_or_else(|_| row.name.clone(), |n| n.stem());
        let _ = write!(
            out,
            "<tr><td><a href=\"{}\">{name}</a> <span class=\"muted\">(<a href=\"{}\">md</a>, \
             <a href=\"{}\">report</a>)</span></td>",
            href(&format!("{stem}.feedback.html")),
            href(&format!("{stem}.feedback.md")),
            href(&format!("{stem}.txt")),
        );
        match &row.marks {
            Some(m) => {
                let classes: Vec<String> = Class::ALL
                    .into_iter()
                    .filter(|&c| m.count(c) > 0)
                    .map(|c| format!("<span class=\"nw\">{} {}</span>", c.name(), m.count(c)))
                    .collect();
                let _ = write!(
                    out,
                    "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                     <td class=\"n\">{}</td><td>{}</td>",
                    points(m.score),
                    points(m.max),
                    m.passed,
                    m.failed,
                    if classes.is_empty() {
                        "none".into()
                    } else {
                        classes.join(", ")
                    }
                );
                if fuzzed {
                    let _ = write!(
                        out,
                        "<td class=\"n\">{}</td>",
                        m.fuzz.map_or("-".into(), |n| n.to_string())
                    );
                }
                let _ = write!(
                    out,
                    "<td class=\"n\">{}</td><td class=\"n\">{}</td>",
                    seconds(m.seconds),
                    m.slowest.map_or("-".into(), seconds)
                );
            }
            None => {
                let _ = write!(
                    out,
                    "<td class=\"n flag nw\">not built</td><td class=\"n\">-</td><td class=\"n\">-</td>\
                     <td class=\"n\">-</td><td>-</td>{}<td class=\"n\">-</td><td class=\"n\">-</td>",
                    if fuzzed { "<td class=\"n\">-</td>" } else { "" }
                );
            }
        }
        let _ = writeln!(out, "<td class=\"note\">{}</td></tr>", escape(&row.note));
    }
    out.push_str("</tbody></table></div>\n</section>\n");
}

/// What changed since the grading before, when this one is a regrading
/// (nothing otherwise): against which grading, the inputs that differ,
/// and a row a submission whose marks or outcomes changed, with the
/// fixtures whose outcome changed and why (the same as `summary.txt`).
fn changes_section(out: &mut String, changes: Option<&Comparison>) {
    let Some(compared) = changes else {
        return;
    };
    let count = compared.changes.len();
    let _ = writeln!(
        out,
        "<section id=\"changes\">\n<h2>Changed since the previous grading</h2>\n\
         <p>Compared with {}: {}.</p>",
        escape(&compared.old),
        if count == 0 {
            "no submission's marks changed".to_string()
        } else {
            format!("{count} submission(s) changed")
        }
    );
    let inputs = compared.input_lines();
    if !inputs.is_empty() {
        out.push_str("<p>The gradings differ in:</p>\n<ul id=\"changed-inputs\">\n");
        for line in inputs {
            let _ = writeln!(out, "<li>{}</li>", escape(&line));
        }
        out.push_str("</ul>\n");
    }
    if count > 0 {
        out.push_str(
            "<div class=\"wide\"><table id=\"changes-table\">\n<caption>A row a submission \
             whose marks or fixtures' outcomes changed</caption>\n<thead><tr>\
             <th scope=\"col\">submission</th><th scope=\"col\" class=\"n\">before</th>\
             <th scope=\"col\" class=\"n\">now</th><th scope=\"col\">fixtures whose outcome \
             changed</th><th scope=\"col\">why</th></tr></thead>\n<tbody>\n",
        );
        for change in &compared.changes {
            let fixtures: Vec<String> = change
                .fixtures
                .iter()
                .map(|o| format!("<span class=\"nw\">{}</span>", escape(&o.to_string())))
                .collect();
            let reasons: Vec<String> = change
                .reasons
                .iter()
                .map(|r| escape(&r.to_string()))
                .collect();
            let (before, now) = change.shown();
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>",
                escape(&change.name),
                escape(&before),
                escape(&now),
                if fixtures.is_empty() {
                    "-".to_string()
                } else {
                    fixtures.join("<br>")
                },
                reasons.join("; ")
            );
        }
        out.push_str("</tbody></table></div>\n");
    }
    out.push_str("</section>\n");
}

/// The grading's settings, as `grading.json` records them.
fn grading_section(out: &mut String, manifest: &Manifest) {
    let to_grade = manifest.names_to_grade().len();
    let _ = writeln!(
        out,
        "<section id=\"grading\">\n<h2>Grading</h2>\n<dl class=\"facts\" id=\"grading-facts\">\n\
         <dt>folder</dt><dd>{}</dd>\n<dt>submissions</dt><dd>{}</dd>\n<dt>shard</dt><dd>{}</dd>\n\
         <dt>options</dt><dd><code>{}</code></dd>\n<dt>sandbox</dt><dd>{}</dd>\n\
         <dt>began</dt><dd>{}</dd>\n<dt>written</dt><dd>{}</dd>\n<dt>complete</dt><dd>{}</dd>\n\
         </dl>\n<p>The same data: <a href=\"summary.csv\">summary.csv</a>, \
         <a href=\"summary-fixtures.csv\">summary-fixtures.csv</a>, \
         <a href=\"summary.jsonl\">summary.jsonl</a>, <a href=\"summary.txt\">summary.txt</a>, \
         <a href=\"grading.json\">grading.json</a>.</p>\n</section>",
        escape(&manifest.folder),
        if to_grade == manifest.folder_names.len() {
            format!("{to_grade}")
        } else {
            format!("{to_grade} of the folder's {}", manifest.folder_names.len())
        },
        manifest
            .shard
            .map_or("none (the whole folder)".into(), |s| s.to_string()),
        escape(if manifest.options.is_empty() {
            "(defaults)"
        } else {
            &manifest.options
        }),
        escape(&manifest.sandbox),
        escape(&manifest.started),
        escape(&manifest.updated),
        if manifest.complete {
            "yes"
        } else {
            "no: run the same command with --resume to finish"
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::publishing::record::{Row, RowMarks};
    use std::time::Duration;

    fn line(fixture: &str, class: &str, points: f64) -> FixtureLine {
        FixtureLine {
            fixture: fixture.into(),
            category: "sol".into(),
            class: class.into(),
            points,
            max_points: 1.0,
            visibility: "visible".into(),
            seconds: Some(Duration::from_millis(10)),
            detail: String::new(),
        }
    }

    fn record(name: &str, score: f64, classes: &[&str]) -> Record {
        let fixtures: Vec<FixtureLine> = classes
            .iter()
            .enumerate()
            .map(|(i, c)| line(&format!("Tests/sol{i}.inp"), c, 1.0))
            .collect();
        let mut counts = [0; CLASSES];
        for c in classes {
            if let Some(class) = class_of(c) {
                counts[class as usize] += 1;
            }
        }
        let failed = fixtures.iter().filter(|l| !line_passes(l, false)).count();
        Record {
            row: Row {
                name: name.into(),
                note: String::new(),
                trouble: None,
                marks: Some(RowMarks {
                    passed: fixtures.len() - failed,
                    failed,
                    classes: counts,
                    score,
                    max: 10.0,
                    fuzz: None,
                    seconds: Duration::from_millis(1500),
                    slowest: Some(Duration::from_millis(700)),
                }),
            },
            fixtures,
            causes: Vec::new(),
            sources: None,
        }
    }

    fn manifest() -> Manifest {
        Manifest {
            folder: "/subs".into(),
            folder_names: vec!["a".into(), "b".into(), "c".into(), "d".into()],
            options: "--timeout 5".into(),
            sandbox: "sandbox: all".into(),
            shard: None,
            started: "2026-11-27T21:30:05Z".into(),
            updated: "2026-11-27T21:31:05Z".into(),
            complete: true,
            fixtures: Vec::new(),
        }
    }

    #[test]
    fn scores_fall_in_tenths_with_full_marks_in_the_last() {
        assert_eq!(bin(0.0, 100.0), 0);
        assert_eq!(bin(9.99, 100.0), 0);
        assert_eq!(bin(10.0, 100.0), 1);
        assert_eq!(bin(70.0, 100.0), 7);
        assert_eq!(bin(100.0, 100.0), 9);
        assert_eq!(bin(5.0, 0.0), 0);
        assert_eq!(median(&[1.0, 2.0, 4.0]), 2.0);
        assert_eq!(median(&[1.0, 2.0, 4.0, 5.0]), 3.0);
    }

    #[test]
    fn the_page_counts_fixtures_scores_and_flags_and_escapes_every_name() {
        let even = Shape {
            side: Some(4),
            longest_line: 10,
            inversions: Some(2),
            blanks: [None, None],
            kinds: 0,
        };
        let records = [
            record("a", 10.0, &["passed", "passed", "WRONG VERDICT"]),
            record("b", 7.5, &["passed", "WRONG VERDICT", "WRONG VERDICT"]),
            record("c", 2.0, &["passed", "FORMAT", "WRONG VERDICT"]),
            Record {
                row: Row::not_built("<img src=x onerror=alert(1)>", "make failed: <&>"),
                fixtures: Vec::new(),
                causes: Vec::new(),
                sources: None,
            },
        ];
        let refs: Vec<&Record> = records.iter().collect();
        let page = class_page(&manifest(), &refs, &|_| Some(even), None);
        assert!(!page.contains("<img"), "a name became an element");
        assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(
            // Its stem (%XX for each byte but letters, digits, -, _ and
            // .), its every % then written %25 in the link.
            page.contains("href=\"./%253Cimg%2520src%253Dx%2520onerror%253Dalert%25281%2529%253E.feedback.html\"")
        );
        assert!(page.contains("make failed: &lt;&amp;&gt;"));
        // Mean (10 + 7.5 + 2) / 3 = 6.5, median 7.5, highest 10, of 10.
        for (name, value) in [
            ("submissions", "4"),
            ("built", "3"),
            ("not built (no score)", "1"),
            ("mean", "6.5"),
            ("median", "7.5"),
            ("highest", "10"),
            ("lowest", "2"),
            ("out of", "10"),
        ] {
            assert!(page.contains(&format!(
                "<tr><th scope=\"row\">{name}</th><td class=\"n\">{value}</td></tr>"
            )));
        }
        // Bars: 2 in the first tenth, 7.5 in the eighth, 10 in the last.
        assert!(page.contains("<tr><td>2 to under 3</td><td class=\"n\">1</td></tr>"));
        assert!(page.contains("<tr><td>7 to under 8</td><td class=\"n\">1</td></tr>"));
        assert!(page.contains("<tr><td>9 to 10</td><td class=\"n\">1</td></tr>"));
        // sol2 nobody passes, first; sol0 everybody; sol1 passed by a and c
        // (a format difference is no failure).
        let sol2 = page.find("<code>Tests/sol2.inp</code>").unwrap();
        let sol1 = page.find("<code>Tests/sol1.inp</code>").unwrap();
        let sol0 = page.find("<code>Tests/sol0.inp</code>").unwrap();
        assert!(sol2 < sol1 && sol1 < sol0);
        assert!(page[sol2..sol1].contains("nobody passes"));
        assert!(page[sol2..sol1].contains("WRONG VERDICT 3"));
        assert!(page[sol1..sol0]
            .contains("<td class=\"n\">2</td><td class=\"n\">3</td><td class=\"n\">67%</td>"));
        assert!(page[sol0..].contains("everybody passes"));
        // b's two wrong verdicts share the even side; a's and c's single
        // wrong verdict names no cause.
        assert!(page[sol2..sol1].contains("all are boards of an even side"));
        assert!(page[sol2..sol1].contains("(1 of 3 failing)"));
        assert!(page.contains(
            "<tr><td>WRONG VERDICT</td><td class=\"n\">4</td><td class=\"n\">3</td></tr>"
        ));
        assert!(page.contains(
            "<tr><td>FORMAT (not a failure)</td><td class=\"n\">1</td><td class=\"n\">1</td></tr>"
        ));
        // Unknown shapes: no cause at all.
        let page = class_page(&manifest(), &refs, &|_| None, None);
        assert!(!page.contains("all are boards"));
    }
}
