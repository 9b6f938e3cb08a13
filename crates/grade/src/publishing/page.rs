//! The class page, `grades/index.html`: the whole class at a glance, made
//! from a grading's [`Manifest`] and [`Record`]s, the same data as
//! `summary.csv` and `summary-fixtures.csv`, every time they are written.
//!
//! One self-contained file (inline style and SVG, no script, nothing
//! fetched), as wide as its window: the scores' histogram with its mean,
//! median and highest score (and a table of the same counts); the fixtures
//! by pass rate, most failed first, those that the same submissions failed
//! the same way in one row, each row naming who failed and how (folded
//! past a line), the fixture's discrimination and the cause of the
//! failures where one is known, and the fixtures everybody passes in one
//! line; the report lines by fault class and by cause; the submissions by
//! score, each with what its marks were lost on, and an index of them by
//! name; the sandbox's line and the grading's settings, and whether it is
//! complete.
//!
//! Numbers are the summaries': a score as `summary.csv` shows it (two
//! decimals at most), pass and fail as each row counts them, the marks
//! lost as [`Record::lost_in_words`] says them. Causes come through one
//! lookup, [`cause_of`] (a submission's cause of one class of fault on one
//! fixture): only those an experiment on the program confirmed, which its
//! record keeps, each with the fixtures it explains.

use crate::judging::class::Class;
use crate::marking::marks::{points, Visibility};
use crate::marking::report::seconds;
use crate::publishing::changes::Comparison;
use crate::publishing::grades::Manifest;
use crate::publishing::html::{escape, head, href, Html};
use crate::publishing::record::{FixtureLine, Record};
use crate::publishing::similarity::Section;

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// How many bars the histogram has (each a tenth of the maximum score).
pub const BINS: usize = 10;

/// The histogram's bars: 3.3:1 against the white page, light enough that
/// the dark lines drawn over them keep 3:1 against them too.
const BAR: &str = "#7090bc";
/// The histogram's axes.
const AXIS: &str = "#57606a";
/// The lines of the mean, the median and the highest score: each 3:1 or
/// more against the white page and against the bars, drawn on a white
/// halo, told apart by their dashes and named in the legend.
const MEAN: &str = "#7a1610";
/// See [`MEAN`].
const MEDIAN: &str = "#0b4d1f";
/// See [`MEAN`].
const HIGHEST: &str = "#1b1f23";

/// Roughly how many characters of names and classes fit on a line of a
/// fixture row's last column at 1,280 pixels: a row shows two lines of
/// them (one when a cause takes the second) and folds the rest under
/// `and N more`.
const NAMES_LINE: usize = 56;

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
    !line.class.fails(strict)
}

/// Whether the grading's options grade byte for byte.
fn strict(manifest: &Manifest) -> bool {
    manifest.options.strict()
}

/// Names in the order a reader looks for them: case folded (`alice`,
/// `Barrett`, `carol`), then byte by byte.
fn by_name(a: &str, b: &str) -> Ordering {
    a.to_lowercase()
        .cmp(&b.to_lowercase())
        .then_with(|| a.cmp(b))
}

/// The cause of `record`'s fault of `class` on `fixture` (as reports show
/// it), as the page names it: the causes an experiment on the program
/// confirmed and that explain that fixture's failure (its record keeps
/// them, each with its fixtures), never one guessed from what the fixtures
/// share, nor one the program has that explains another fixture; `None`
/// where none was confirmed.
pub fn cause_of(record: &Record, class: Class, fixture: &str) -> Option<String> {
    let words: Vec<&str> = record
        .causes
        .iter()
        .filter(|c| c.class == class && c.fixtures.iter().any(|f| f == fixture))
        .map(|c| c.words.as_str())
        .collect();
    (!words.is_empty()).then(|| words.join("; "))
}

/// A submission that was built, as the page counts it.
struct Built<'a> {
    record: &'a Record,
    /// Its score as the summaries show it.
    score: f64,
    /// Its row's anchor on the page: `sub-N`.
    anchor: usize,
}

/// The causes known, by submission built (its index), class and fixture
/// (as reports show it).
type Causes<'a> = HashMap<(usize, Class, &'a str), String>;

/// Fixtures that the same submissions failed the same way: a row of the
/// page.
struct Group<'a> {
    /// The fixtures, in the records' order.
    fixtures: Vec<&'a FixtureLine>,
    /// Submissions built that ran them.
    runs: usize,
    /// Those that passed.
    passed: usize,
    /// Those that failed and how (an index into the built, the class): the
    /// most frequent class first, names case folded within a class.
    failed: Vec<(usize, Class)>,
    /// See [`discrimination`].
    discrimination: Option<f64>,
}

/// How well passing a fixture goes with the score, as PrairieLearn's
/// question statistics give a question's discrimination: the correlation
/// (Pearson's; with one side 0 or 1, the point-biserial correlation)
/// between passing it (1) or not (0) and the score, over `runs`, each
/// `(passed, score)`. `None` where either does not vary (everybody or
/// nobody passed, or every score is the same).
pub fn discrimination(runs: &[(bool, f64)]) -> Option<f64> {
    let n = runs.len() as f64;
    let mean_x = runs.iter().filter(|r| r.0).count() as f64 / n;
    let mean_y = runs.iter().map(|r| r.1).sum::<f64>() / n;
    let (mut xy, mut xx, mut yy) = (0.0, 0.0, 0.0);
    for &(passed, score) in runs {
        let dx = f64::from(u8::from(passed)) - mean_x;
        let dy = score - mean_y;
        xy += dx * dy;
        xx += dx * dx;
        yy += dy * dy;
    }
    if runs.len() < 2 || xx <= 0.0 || yy <= 1e-9 {
        return None;
    }
    Some((xy / (xx * yy).sqrt()).clamp(-1.0, 1.0))
}

/// The fixtures in rows, most failed first (fixtures that the same
/// submissions failed the same way in one row), and apart those that every
/// submission that ran them passed, in the records' order.
fn fixture_groups<'a>(built: &[Built<'a>], strict: bool) -> (Vec<Group<'a>>, Vec<&'a FixtureLine>) {
    // Each fixture's outcome for each submission built: 0 not run, 1
    // passed, 2 + its class failed.
    let mut lines: Vec<&FixtureLine> = Vec::new();
    let mut outcomes: Vec<Vec<u8>> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (s, b) in built.iter().enumerate() {
        for line in &b.record.fixtures {
            let i = *index.entry(line.fixture.as_str()).or_insert_with(|| {
                lines.push(line);
                outcomes.push(vec![0; built.len()]);
                lines.len() - 1
            });
            outcomes[i][s] = match line.class.class() {
                Some(class) if !line_passes(line, strict) => 2 + class as u8,
                _ => 1,
            };
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut all_passed = Vec::new();
    let mut rows: HashMap<&[u8], usize> = HashMap::new();
    for (outcome, line) in outcomes.iter().zip(&lines) {
        if outcome.iter().all(|&o| o <= 1) {
            all_passed.push(*line);
        } else if let Some(&g) = rows.get(outcome.as_slice()) {
            groups[g].fixtures.push(line);
        } else {
            rows.insert(outcome, groups.len());
            groups.push(group(line, outcome, built));
        }
    }
    // Most failed first: the lowest share passed; ties in the records' order.
    groups.sort_by(|a, b| (a.passed * b.runs).cmp(&(b.passed * a.runs)));
    (groups, all_passed)
}

/// The row of the fixture `line`, whose `outcome` is each built
/// submission's (see [`fixture_groups`]).
fn group<'a>(line: &'a FixtureLine, outcome: &[u8], built: &[Built]) -> Group<'a> {
    let runs: Vec<(bool, f64)> = outcome
        .iter()
        .zip(built)
        .filter(|(&o, _)| o > 0)
        .map(|(&o, b)| (o == 1, b.score))
        .collect();
    let mut failed: Vec<(usize, Class)> = outcome
        .iter()
        .enumerate()
        .filter(|(_, &o)| o >= 2)
        .map(|(s, &o)| (s, Class::ALL[usize::from(o - 2)]))
        .collect();
    let mut of_class = [0usize; Class::ALL.len()];
    for &(_, class) in &failed {
        of_class[class as usize] += 1;
    }
    failed.sort_by(|a, b| {
        of_class[b.1 as usize]
            .cmp(&of_class[a.1 as usize])
            .then((a.1 as usize).cmp(&(b.1 as usize)))
            .then_with(|| {
                by_name(
                    built[a.0].record.row.name.shown(),
                    built[b.0].record.row.name.shown(),
                )
            })
    });
    Group {
        fixtures: vec![line],
        runs: runs.len(),
        passed: runs.iter().filter(|r| r.0).count(),
        failed,
        discrimination: discrimination(&runs),
    }
}

/// The class page of a grading: `records` in name order; the causes on it
/// are those experiments confirmed (see `cause_of`); `changes`, what
/// changed since the grading before (a regrading); `similarity`, the
/// section on the comparison of the class, when the grading has one
/// (`publishing::similarity::Section::read`), last.
pub fn class_page(
    manifest: &Manifest,
    records: &[&Record],
    changes: Option<&Comparison>,
    similarity: Option<&Section>,
) -> String {
    let strict = strict(manifest);
    let built: Vec<Built> = records
        .iter()
        .enumerate()
        .filter_map(|(anchor, r)| {
            r.row.marks.as_ref().map(|m| Built {
                record: r,
                score: shown(m.score),
                anchor,
            })
        })
        .collect();
    let mut scores: Vec<f64> = built.iter().map(|b| b.score).collect();
    let max = built
        .iter()
        .filter_map(|b| b.record.row.marks.as_ref().map(|m| shown(m.max)))
        .fold(0.0, f64::max);
    let (groups, all_passed) = fixture_groups(&built, strict);
    // The causes, each asked once: a submission's failed fixtures.
    let mut causes = Causes::new();
    for (s, b) in built.iter().enumerate() {
        for line in &b.record.fixtures {
            let Some(class) = line.class.class() else {
                continue;
            };
            if let Some(cause) = cause_of(b.record, class, &line.fixture) {
                causes.insert((s, class, line.fixture.as_str()), cause);
            }
        }
    }

    let mut out = head(&escape(&format!("Class page: {}", manifest.folder)));
    out.push_str("<header>\n");
    let _ = writeln!(
        out,
        "<h1>Class page: grading of {}</h1>",
        escape(&manifest.folder)
    );
    status(&mut out, manifest, records.len());
    out.push_str("<nav>");
    if changes.is_some() {
        out.push_str("<a href=\"#changes\">Changes</a>");
    }
    out.push_str(
        "<a href=\"#scores\">Scores</a><a href=\"#fixtures\">Fixtures</a>\
         <a href=\"#faults\">Faults</a><a href=\"#submissions\">Submissions</a>\
         <a href=\"#grading\">Grading</a>",
    );
    if similarity.is_some() {
        out.push_str("<a href=\"#similarity\">Similarity</a>");
    }
    out.push_str("</nav>\n</header>\n<main>\n");
    changes_section(&mut out, changes);
    score_section(&mut out, &mut scores, max, records.len());
    fixture_section(&mut out, &groups, &all_passed, &built, &causes);
    fault_section(&mut out, &built, strict);
    submission_section(&mut out, records);
    grading_section(&mut out, manifest);
    if let Some(section) = similarity {
        out.push_str(&section.html());
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// The line that says whether the grading is complete, and of how many.
fn status(out: &mut String, manifest: &Manifest, graded: usize) {
    let to_grade = manifest.names_to_grade().len();
    let part = manifest.extent();
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
        "<line x1=\"{LEFT}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\" stroke=\"{AXIS}\"/>\n\
         <line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{base}\" stroke=\"{AXIS}\"/>\n\
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
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{BAR}\">\
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
        // Each a line across the bars on a white halo, so that it keeps its
        // contrast over a bar; told apart by its dashes, and named with its
        // dashes in a legend above them.
        let marks = [
            ("mean", mean, MEAN, "7 4"),
            ("median", median, MEDIAN, "none"),
            ("highest", highest, HIGHEST, "2 3"),
        ];
        for (k, (name, value, colour, dash)) in marks.into_iter().enumerate() {
            let x = LEFT + plot_w * (value / max).clamp(0.0, 1.0);
            let key = LEFT + 170.0 * k as f64;
            let _ = writeln!(
                out,
                "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{base}\" stroke=\"#fff\" \
                 stroke-width=\"7\"/>\n\
                 <line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{base}\" stroke=\"{colour}\" \
                 stroke-width=\"3\" stroke-dasharray=\"{dash}\"/>\n\
                 <line x1=\"{key:.1}\" y1=\"16\" x2=\"{:.1}\" y2=\"16\" stroke=\"{colour}\" \
                 stroke-width=\"3\" stroke-dasharray=\"{dash}\"/>\n\
                 <text x=\"{:.1}\" y=\"20\" fill=\"{colour}\" font-size=\"12\">{name} {}</text>",
                TOP - 14.0,
                TOP - 14.0,
                key + 28.0,
                key + 34.0,
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

/// A class's name, and whether it costs marks here (NOT GRADED, which was
/// not judged, is not a failure either).
fn class_cell(class: Class, strict: bool) -> String {
    if class.fails(strict) && class.judged() {
        class.name().to_string()
    } else {
        format!("{} (not a failure)", class.name())
    }
}

/// The fixtures, most failed first, those that the same submissions failed
/// the same way in one row; then those everybody passed, in one line.
fn fixture_section(
    out: &mut String,
    groups: &[Group],
    all_passed: &[&FixtureLine],
    built: &[Built],
    causes: &Causes,
) {
    out.push_str("<section id=\"fixtures\">\n<h2>Fixtures</h2>\n");
    if groups.is_empty() && all_passed.is_empty() {
        out.push_str("<p>No submission was built: no fixture was run.</p>\n</section>\n");
        return;
    }
    let nobody: usize = groups
        .iter()
        .filter(|g| g.passed == 0)
        .map(|g| g.fixtures.len())
        .sum();
    let failed: usize = groups.iter().map(|g| g.fixtures.len()).sum();
    let _ = writeln!(
        out,
        "<p>{} fixtures, run by the {} submissions built: {nobody} passed by nobody (check \
         such a fixture first: a broken one fails everyone), {} passed by everybody (in one line \
         below the table); the {failed} that someone failed in {} rows, fixtures that the same \
         submissions failed the same way in one.</p>",
        failed + all_passed.len(),
        built.len(),
        all_passed.len(),
        groups.len()
    );
    out.push_str(
        "<p class=\"legend\"><strong>passed</strong>: the submissions built that passed, of those \
         that ran it (a format difference or an open question passes unless <code>--strict</code>); \
         <strong>⚠ nobody passes</strong> flags a fixture no submission passed. \
         <strong>discrimination</strong>: how well passing the fixture goes with the score, as \
         PrairieLearn's question statistics give it: the correlation between passing it (1) or \
         not (0) and the submission's score, over the submissions built that ran it (Pearson's, \
         the point-biserial correlation), from -1 to 1; near 1, those who pass it score high; \
         near 0 or below, passing it says little of the score; <code>-</code> where everybody or \
         nobody passed. <strong>failed by</strong>: each class of failure, how many failed so and \
         who (each name a link to its row below), the rest folded under <em>and N more</em>; then \
         the cause of their failures where one is known, and for how many of them.</p>\n",
    );
    if !groups.is_empty() {
        out.push_str(
            "<div class=\"wide\"><table id=\"fixture-table\" class=\"fixtures\">\n<caption>Fixtures \
             by pass rate, most failed first</caption>\n<colgroup><col class=\"c-fx\">\
             <col class=\"c-pass\"><col class=\"c-disc\"><col></colgroup>\n<thead><tr>\
             <th scope=\"col\">fixture</th><th scope=\"col\" class=\"n\">passed</th>\
             <th scope=\"col\" class=\"n\">discrimi&shy;nation</th>\
             <th scope=\"col\">failed by, and the cause</th></tr></thead>\n<tbody>\n",
        );
        for g in groups {
            fixture_row(out, g, built, causes);
        }
        out.push_str("</tbody></table></div>\n");
    }
    // One line, the names folded.
    if all_passed.is_empty() {
        out.push_str(
            "<p id=\"passed-by-all\"><strong>Passed by everybody:</strong> no fixture.</p>\n</section>\n",
        );
        return;
    }
    let names: Vec<String> = all_passed.iter().map(|l| fixture_name(l)).collect();
    let _ = writeln!(
        out,
        "<details class=\"more\" id=\"passed-by-all\"><summary><strong>Passed by everybody:</strong> \
         {} fixture{}</summary><div>{}</div></details>\n</section>",
        all_passed.len(),
        if all_passed.len() == 1 { "" } else { "s" },
        names.join(", ")
    );
}

/// The fixture `line`'s name, and who sees it where that is not everybody.
fn fixture_name(line: &FixtureLine) -> String {
    let mut name = format!("<code class=\"fx\">{}</code>", escape(&line.fixture));
    if line.visibility != Visibility::Visible {
        let _ = write!(
            name,
            " <span class=\"muted\">({})</span>",
            escape(line.visibility.word())
        );
    }
    name
}

/// The fixtures `lines`: one by its name; more as their number and the
/// first's name, cut to its line, all of them folded under it.
fn fixture_list(lines: &[&FixtureLine]) -> String {
    match lines {
        [] => String::new(),
        [line] => fixture_name(line),
        [first, ..] => {
            let all: Vec<String> = lines.iter().map(|l| fixture_name(l)).collect();
            format!(
                "<details class=\"more\"><summary><strong>{} fixtures</strong>: \
                 <span class=\"first\"><code class=\"fx first\">{}</code>, …</span></summary>\
                 <div>{}</div></details>",
                lines.len(),
                escape(&first.fixture),
                all.join(", ")
            )
        }
    }
}

/// One row of the fixture table.
fn fixture_row(out: &mut String, g: &Group, built: &[Built], causes: &Causes) {
    let flag = if g.passed == 0 {
        "<br><span class=\"flag\">⚠ nobody passes</span>"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "<tr><td class=\"fx\">{}</td><td class=\"n\">{} of {} ({}%){flag}</td>\
         <td class=\"n\">{}</td><td class=\"who\">{}</td></tr>",
        fixture_list(&g.fixtures),
        g.passed,
        g.runs,
        (g.passed * 100 + g.runs / 2) / g.runs.max(1),
        g.discrimination
            .map_or("-".to_string(), |d| format!("{:.2}", d + 0.0)),
        who_failed(g, built, causes),
    );
}

/// The cause most of the row `g`'s failures of `class` share, and for how
/// many of them: a submission's cause counts when it explains its failure
/// of one of these fixtures.
fn class_cause(g: &Group, class: Class, causes: &Causes) -> Option<(String, usize)> {
    let mut by_cause: BTreeMap<&str, usize> = BTreeMap::new();
    for &(s, _) in g.failed.iter().filter(|f| f.1 == class) {
        let mut theirs: Vec<&str> = g
            .fixtures
            .iter()
            .filter_map(|f| causes.get(&(s, class, f.fixture.as_str())))
            .map(String::as_str)
            .collect();
        theirs.sort_unstable();
        theirs.dedup();
        for cause in theirs {
            *by_cause.entry(cause).or_default() += 1;
        }
    }
    by_cause
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .map(|(cause, n)| (cause.to_string(), n))
}

/// A cause as a fixture row shows it: its first clause (`all are boards
/// of an even side`), the whole in the causes table.
fn short_cause(cause: &str) -> &str {
    cause.split(": ").next().unwrap_or(cause)
}

/// Who failed the row `g` and how, class by class, each class with its own
/// count, its names (each a link to its row) and the cause of its
/// failures where one is known (`FALSE ERROR 7: alice, Barrett, ...;
/// WRONG VERDICT 3: carol, ... cause, for 3 of 3: ...`). Every class's
/// label, count, first name and cause are shown; the other names fill
/// about two lines, and those past them are folded under `and N more`,
/// each under its class's label again: a fold never hides a class, nor
/// leaves its cause beside another's names.
fn who_failed(g: &Group, built: &[Built], causes: &Causes) -> String {
    let failed = &g.failed;
    let mut classes: Vec<Class> = failed.iter().map(|f| f.1).collect();
    classes.dedup();
    let count = |class: Class| failed.iter().filter(|f| f.1 == class).count();
    let cause: Vec<Option<(String, usize)>> =
        classes.iter().map(|&c| class_cause(g, c, causes)).collect();
    // What each takes, in characters of the text: a name is cut at 11em
    // (some 20 characters), a class's label is in bold capitals, a cause
    // is cut at its line.
    let name_cost = |s: usize| built[s].record.row.name.shown().chars().count().min(20) + 2;
    let fixed: usize = classes
        .iter()
        .zip(&cause)
        .map(|(c, cause)| {
            (c.name().len() + 6) * 7 / 5
                + cause.as_ref().map_or(0, |(words, _)| {
                    short_cause(words).chars().count().min(40) + 20
                })
        })
        .sum();
    let all: usize = failed.iter().map(|f| name_cost(f.0)).sum();
    let room = NAMES_LINE * 2;
    let room = if fixed + all <= room { room } else { room - 12 };
    // A class's first name is always shown; the others while they fit.
    let mut used = fixed;
    let shown: Vec<bool> = failed
        .iter()
        .enumerate()
        .map(|(k, &(s, class))| {
            let first = k == 0 || failed[k - 1].1 != class;
            let fits = used + name_cost(s) <= room;
            if first || fits {
                used += name_cost(s);
            }
            first || fits
        })
        .collect();
    let names = |class: Class, visible: bool| -> String {
        failed
            .iter()
            .zip(&shown)
            .filter(|(f, &v)| f.1 == class && v == visible)
            .map(|(&(s, _), _)| {
                format!(
                    "<a class=\"sub\" href=\"#sub-{}\">{}</a>",
                    built[s].anchor,
                    escape(built[s].record.row.name.shown())
                )
            })
            .collect::<Vec<_>>()
            // No line starts with the comma (a name is a box of its own).
            .join("&#8288;, ")
    };
    let label = |class: Class| format!("<b class=\"cls\">{} {}</b>: ", class.name(), count(class));
    let mut visible = Vec::new();
    let mut folded = Vec::new();
    for (&class, cause) in classes.iter().zip(&cause) {
        let mut part = label(class) + &names(class, true);
        if let Some((words, n)) = cause {
            let _ = write!(
                part,
                " <span class=\"cause\" title=\"{}\"><span class=\"muted\">cause, for {n} of {}:</span> {}</span>",
                escape(words),
                count(class),
                escape(short_cause(words))
            );
        }
        visible.push(part);
        let rest = names(class, false);
        if !rest.is_empty() {
            folded.push(label(class) + &rest);
        }
    }
    let hidden = shown.iter().filter(|v| !**v).count();
    let visible = visible.join("&#8288;; ");
    if hidden == 0 {
        format!("<div>{visible}</div>")
    } else {
        format!(
            "<details class=\"more\"><summary>{visible} <span class=\"muted\">and {hidden} more</span>\
             </summary><div>{}</div></details>",
            folded.join("&#8288;; ")
        )
    }
}

/// The report lines by class, and the causes by class.
fn fault_section(out: &mut String, built: &[Built], strict: bool) {
    out.push_str(
        "<section id=\"faults\">\n<h2>Faults</h2>\n<div class=\"wide\"><table id=\"class-table\">\n\
         <caption>Report lines by fault class</caption>\n<thead><tr><th scope=\"col\">class</th>\
         <th scope=\"col\" class=\"n\">lines</th><th scope=\"col\" class=\"n\">submissions</th>\
         </tr></thead>\n<tbody>\n",
    );
    for class in Class::ALL {
        let counts: Vec<usize> = built
            .iter()
            .filter_map(|b| b.record.row.marks.as_ref().map(|m| m.count(class)))
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
    // Each submission counted once a cause its record keeps (confirmed by
    // experiment), on however many fixtures.
    let mut by_cause: BTreeMap<(Class, &str), usize> = BTreeMap::new();
    for b in built {
        let mut named: Vec<(Class, &str)> = b
            .record
            .causes
            .iter()
            .map(|c| (c.class, c.words.as_str()))
            .collect();
        named.sort_unstable();
        named.dedup();
        for key in named {
            *by_cause.entry(key).or_default() += 1;
        }
    }
    if by_cause.is_empty() {
        out.push_str("<p>No cause was confirmed by an experiment on a program.</p>\n");
    } else {
        out.push_str(
            "<div class=\"wide\"><table id=\"cause-table\">\n<caption>Causes confirmed by an \
             experiment on the program (as its feedback says them), and of how many \
             submissions</caption>\n\
             <thead><tr><th scope=\"col\">class</th><th scope=\"col\">cause</th>\
             <th scope=\"col\" class=\"n\">submissions</th></tr></thead>\n<tbody>\n",
        );
        let mut by_count: Vec<(&(Class, &str), &usize)> = by_cause.iter().collect();
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

/// The submissions: an index by name, then a row each by score (the
/// highest first; those not built last), linking to its feedback.
fn submission_section(out: &mut String, records: &[&Record]) {
    let fuzzed = records
        .iter()
        .any(|r| r.row.marks.as_ref().is_some_and(|m| m.fuzz.is_some()));
    let score = |r: &Record| r.row.marks.as_ref().map(|m| shown(m.score));
    let mut by_name: Vec<usize> = (0..records.len()).collect();
    by_name.sort_by(|&a, &b| by_name_of(records, a, b));
    let mut by_score = by_name.clone();
    by_score.sort_by(|&a, &b| {
        score(records[b])
            .partial_cmp(&score(records[a]))
            .unwrap_or(Ordering::Equal)
    });
    out.push_str(
        "<section id=\"submissions\">\n<h2>Submissions</h2>\n<p id=\"by-name\" class=\"index\">\
         <strong>By name</strong> (each a link to its row, with its score): ",
    );
    let index: Vec<String> = by_name
        .iter()
        .map(|&i| {
            format!(
                "<a href=\"#sub-{i}\">{}</a>&nbsp;<span class=\"muted\">{}</span>",
                escape(records[i].row.name.shown()),
                score(records[i]).map_or("not built".into(), num)
            )
        })
        .collect();
    out.push_str(&index.join(" · "));
    out.push_str(
        "</p>\n<p>Each name links to its feedback as a page; <em>md</em> is the same feedback in \
         Markdown, <em>report</em> the plain report. <em>lost</em>: what the marks were lost on, \
         by class, as the report says it.</p>\n<div class=\"wide\"><table id=\"submission-table\" \
         class=\"subs\">\n<caption>A row a submission, by score</caption>\n",
    );
    let _ = writeln!(
        out,
        "<colgroup><col class=\"c-name\"><col class=\"c-s\"><col class=\"c-s\"><col class=\"c-lost\">\
         <col class=\"c-n\"><col class=\"c-n\"><col class=\"c-n\"><col class=\"c-classes\">{}<col class=\"c-t\">\
         <col class=\"c-t\"><col></colgroup>",
        if fuzzed { "<col class=\"c-n\">" } else { "" }
    );
    out.push_str(
        "<thead><tr>\
         <th scope=\"col\">submission</th><th scope=\"col\" class=\"n\">score</th>\
         <th scope=\"col\" class=\"n\">of</th><th scope=\"col\">lost</th>\
         <th scope=\"col\" class=\"n\">passed</th><th scope=\"col\" class=\"n\">failed</th>\
         <th scope=\"col\" class=\"n\">not graded</th><th scope=\"col\">report lines by class</th>",
    );
    if fuzzed {
        out.push_str("<th scope=\"col\" class=\"n\">fuzz faults</th>");
    }
    out.push_str(
        "<th scope=\"col\" class=\"n\">time (s)</th><th scope=\"col\" class=\"n\">slowest (s)</th>\
         <th scope=\"col\">build note</th></tr></thead>\n<tbody>\n",
    );
    for i in by_score {
        submission_row(out, i, records[i], fuzzed);
    }
    out.push_str("</tbody></table></div>\n</section>\n");
}

/// [`by_name`] of the records `a` and `b`.
fn by_name_of(records: &[&Record], a: usize, b: usize) -> Ordering {
    by_name(records[a].row.name.shown(), records[b].row.name.shown())
}

/// The row of the submission `record`, its anchor `sub-N`.
fn submission_row(out: &mut String, n: usize, record: &Record, fuzzed: bool) {
    let row = &record.row;
    let name = escape(row.name.shown());
    // The files are named from the name's stem.
    let stem = row.name.stem();
    let _ = write!(
        out,
        "<tr id=\"sub-{n}\"><td class=\"name\"><a href=\"{}\">{name}</a> <span class=\"muted nw\">\
         (<a href=\"{}\">md</a>, <a href=\"{}\">report</a>)</span></td>",
        href(&format!("{stem}.feedback.html")),
        href(&format!("{stem}.feedback.md")),
        href(&format!("{stem}.txt")),
    );
    match &row.marks {
        Some(m) => {
            let classes: Vec<String> = Class::ALL
                .into_iter()
                .filter(|&c| m.count(c) > 0)
                .map(|c| format!("{}&nbsp;{}", c.name(), m.count(c)))
                .collect();
            let _ = write!(
                out,
                "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"lost\">{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td>",
                points(m.score),
                points(m.max),
                escape(&record.lost_in_words().unwrap_or_default()),
                m.passed,
                m.failed,
                m.not_graded(),
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
                "<td class=\"n flag nw\">not built</td><td class=\"n\">-</td><td>-</td>\
                 <td class=\"n\">-</td><td class=\"n\">-</td><td class=\"n\">-</td><td>-</td>{}<td class=\"n\">-</td>\
                 <td class=\"n\">-</td>",
                if fuzzed { "<td class=\"n\">-</td>" } else { "" }
            );
        }
    }
    let _ = writeln!(out, "<td class=\"note\">{}</td></tr>", escape(&row.note));
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
            "<div class=\"wide\"><table id=\"changes-table\" class=\"changes\">\n<caption>A row \
             a submission whose marks or fixtures' outcomes changed</caption>\n<colgroup>\
             <col class=\"c-name\"><col class=\"c-n\"><col class=\"c-n\"><col class=\"c-fc\">\
             <col></colgroup>\n<thead><tr>\
             <th scope=\"col\">submission</th><th scope=\"col\" class=\"n\">before</th>\
             <th scope=\"col\" class=\"n\">now</th><th scope=\"col\">fixtures whose outcome \
             changed</th><th scope=\"col\">why</th></tr></thead>\n<tbody>\n",
        );
        for change in &compared.changes {
            let fixtures: Vec<Html> = change
                .fixtures
                .iter()
                .map(|o| escape(&o.to_string()))
                .collect();
            let reasons: Vec<Html> = change
                .reasons
                .iter()
                .map(|r| escape(&r.to_string()))
                .collect();
            let (before, now) = change.shown();
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>",
                escape(change.name.shown()),
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
        escape(&if manifest.options.is_empty() {
            "(defaults)".to_string()
        } else {
            manifest.options.to_string()
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
    use crate::judging::class::Outcome;
    use crate::publishing::html::contrast_ratio;
    use crate::publishing::record::{Row, RowMarks, CLASSES};
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
            output: None,
        }
    }

    fn record(name: &str, score: f64, classes: &[&str]) -> Record {
        let fixtures: Vec<FixtureLine> = classes
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let passes = matches!(*c, "passed" | "OPEN");
                line(
                    &format!("Tests/sol{i}.inp"),
                    c,
                    if passes { 1.0 } else { 0.0 },
                )
            })
            .collect();
        let mut counts = [0; CLASSES];
        for c in classes {
            if let Some(class) = Outcome::from(*c).class() {
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
            options: "--time-limit 5".into(),
            sandbox: "sandbox: all".into(),
            shard: None,
            started: "2026-11-27T21:30:05Z".into(),
            updated: "2026-11-27T21:31:05Z".into(),
            complete: true,
            fixtures: Vec::new(),
            terms: Vec::new(),
            gradebook: None,
        }
    }

    /// The text of the part of `page` from `from` to `to`.
    fn between<'a>(page: &'a str, from: &str, to: &str) -> &'a str {
        let start = page.find(from).unwrap_or_else(|| panic!("no {from}"));
        let end = start + page[start..].find(to).unwrap_or_else(|| panic!("no {to}"));
        &page[start..end]
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
        // b's wrong verdicts have a cause an experiment confirmed.
        let mut b = record("b", 7.5, &["passed", "WRONG VERDICT", "WRONG VERDICT"]);
        b.causes.push(crate::publishing::record::CauseLine {
            class: "WRONG VERDICT".into(),
            words: "on boards of an even side the blank's row is not counted".into(),
            evidence: "with ..., 10 of 10 inputs failed so; with ..., 0 of 10".into(),
            fixtures: vec!["Tests/sol1.inp".into(), "Tests/sol2.inp".into()],
        });
        let records = [
            record("a", 10.0, &["passed", "passed", "WRONG VERDICT"]),
            b,
            record("c", 2.0, &["passed", "FORMAT", "WRONG VERDICT"]),
            Record {
                row: Row::not_built(&"<img src=x onerror=alert(1)>".into(), "make failed: <&>"),
                fixtures: Vec::new(),
                causes: Vec::new(),
                sources: None,
            },
        ];
        let refs: Vec<&Record> = records.iter().collect();
        let page = class_page(&manifest(), &refs, None, None);
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
        // sol2 nobody passes, first; sol1 passed by a and c (a format
        // difference is no failure); sol0 everybody passes, in one line.
        let table = between(&page, "<table id=\"fixture-table\"", "</table>");
        let sol2 = table
            .find("<code class=\"fx\">Tests/sol2.inp</code>")
            .unwrap();
        let sol1 = table
            .find("<code class=\"fx\">Tests/sol1.inp</code>")
            .unwrap();
        assert!(sol2 < sol1 && !table.contains("Tests/sol0.inp"));
        assert!(table[sol2..sol1]
            .contains("0 of 3 (0%)<br><span class=\"flag\">⚠ nobody passes</span>"));
        assert!(table[sol2..sol1].contains(
            "<b class=\"cls\">WRONG VERDICT 3</b>: <a class=\"sub\" href=\"#sub-0\">a</a>&#8288;, \
             <a class=\"sub\" href=\"#sub-1\">b</a>&#8288;, <a class=\"sub\" href=\"#sub-2\">c</a>"
        ));
        assert!(table[sol1..].contains("<td class=\"n\">2 of 3 (67%)</td>"));
        assert!(table[sol1..].contains(
            "<b class=\"cls\">WRONG VERDICT 1</b>: <a class=\"sub\" href=\"#sub-1\">b</a>"
        ));
        assert!(page.contains(
            "<details class=\"more\" id=\"passed-by-all\"><summary><strong>Passed by everybody:\
             </strong> 1 fixture</summary><div><code class=\"fx\">Tests/sol0.inp</code></div></details>"
        ));
        // Nobody passed sol2: no discrimination; passing sol1 (a 10, c 2;
        // b 7.5 failed) goes with the score hardly at all.
        let d = discrimination(&[(true, 10.0), (false, 7.5), (true, 2.0)]).unwrap();
        assert!(table[sol2..sol1].contains("<td class=\"n\">-</td>"));
        assert!(table[sol1..].contains(&format!("<td class=\"n\">{d:.2}</td>")));
        // b's confirmed cause, named; a's and c's wrong verdicts have none.
        assert!(table[sol2..sol1].contains(
            "<b class=\"cls\">WRONG VERDICT 3</b>: <a class=\"sub\" href=\"#sub-0\">a</a>&#8288;, \
             <a class=\"sub\" href=\"#sub-1\">b</a>&#8288;, <a class=\"sub\" href=\"#sub-2\">c</a> \
             <span class=\"cause\" title=\"on boards of an even side the blank&#39;s row is not counted\">\
             <span class=\"muted\">cause, for 1 of 3:</span> on boards of an even side the blank&#39;s row is not counted</span>"
        ), "{table}");
        assert!(page.contains("<td>on boards of an even side the blank&#39;s row is not counted"));
        assert!(page.contains(
            "<tr><td>WRONG VERDICT</td><td class=\"n\">4</td><td class=\"n\">3</td></tr>"
        ));
        assert!(page.contains(
            "<tr><td>FORMAT (not a failure)</td><td class=\"n\">1</td><td class=\"n\">1</td></tr>"
        ));
        // The submissions by score, then those not built; by name in the
        // index; what the marks were lost on beside the score.
        let rows = between(&page, "<table id=\"submission-table\"", "</table>");
        let order: Vec<usize> = ["sub-0", "sub-1", "sub-2", "sub-3"]
            .iter()
            .map(|id| rows.find(&format!("<tr id=\"{id}\">")).unwrap())
            .collect();
        assert!(order[0] < order[1] && order[1] < order[2] && order[2] < order[3]);
        assert!(rows.contains(
            "<td class=\"n\">7.5</td><td class=\"n\">10</td><td class=\"lost\">wrong verdict 2</td>"
        ));
        let index = between(&page, "<p id=\"by-name\"", "</p>");
        assert!(index.find(">&lt;img").unwrap() < index.find(">a</a>").unwrap());
        // Unknown shapes: no cause at all.
        let page = class_page(&manifest(), &refs, None, None);
        assert!(!page.contains("all are boards"));
    }

    #[test]
    fn a_fixture_row_names_only_a_cause_that_explains_that_fixture() {
        // b missed the error on two fixtures; an experiment confirmed a
        // cause of one of them (a real student's: 2^32 read into 32 bits),
        // which says nothing of the other.
        let mut b = record("b", 8.0, &["MISSED ERROR", "MISSED ERROR", "passed"]);
        b.causes.push(crate::publishing::record::CauseLine {
            class: "MISSED ERROR".into(),
            words: "a number of 2^32 or more is not rejected".into(),
            evidence: "with that fault, 10 of 10 inputs failed so; ..., 0 of 10".into(),
            fixtures: vec!["Tests/sol0.inp".into()],
        });
        let a = record("a", 9.0, &["passed", "MISSED ERROR", "passed"]);
        let refs = [&a, &b];
        let page = class_page(&manifest(), &refs, None, None);
        let rows = between(&page, "<table id=\"fixture-table\"", "</table>");
        let row = |fixture: &str| {
            let at = rows
                .find(&format!("{fixture}</code>"))
                .or_else(|| rows.find(fixture))
                .unwrap_or_else(|| panic!("no row for {fixture}"));
            let end = at + rows[at..].find("</tr>").unwrap();
            &rows[at..end]
        };
        assert!(row("Tests/sol0.inp").contains("2^32 or more"));
        assert!(
            !row("Tests/sol1.inp").contains("2^32"),
            "{}",
            row("Tests/sol1.inp")
        );
        // The causes table counts b once.
        let table = between(&page, "<table id=\"cause-table\"", "</table>");
        assert!(table.contains("2^32 or more is not rejected</td><td class=\"n\">1</td>"));
    }

    #[test]
    fn fixtures_failed_the_same_way_by_the_same_submissions_share_a_row() {
        // sol0 and sol2: b's wrong verdict, both; sol1: b's, but a timeout.
        let records = [
            record("a", 10.0, &["passed", "passed", "passed", "passed"]),
            record(
                "b",
                5.0,
                &["WRONG VERDICT", "TIMEOUT", "WRONG VERDICT", "passed"],
            ),
        ];
        let refs: Vec<&Record> = records.iter().collect();
        let page = class_page(&manifest(), &refs, None, None);
        let table = between(&page, "<table id=\"fixture-table\"", "</table>");
        assert_eq!(table.matches("<tr><td class=\"fx\">").count(), 2, "{table}");
        assert!(table.contains(
            "<details class=\"more\"><summary><strong>2 fixtures</strong>: <span class=\"first\">\
             <code class=\"fx first\">Tests/sol0.inp</code>, …</span></summary><div>\
             <code class=\"fx\">Tests/sol0.inp</code>, <code class=\"fx\">Tests/sol2.inp</code></div></details>"
        ));
        assert!(page.contains("the 3 that someone failed in 2 rows"));
        assert!(page.contains(
            "<strong>Passed by everybody:</strong> 1 fixture</summary><div><code class=\"fx\">Tests/sol3.inp</code>"
        ));
    }

    /// The page of `records` and one more, who passed everything.
    fn who_page(mut records: Vec<Record>) -> String {
        records.push(record("zed", 10.0, &["passed"]));
        let refs: Vec<&Record> = records.iter().collect();
        class_page(&manifest(), &refs, None, None)
    }

    #[test]
    fn a_long_list_of_names_folds_after_a_line_and_names_everyone_once() {
        let names: Vec<String> = (0..30).map(|i| format!("Student{i:02}")).collect();
        let mut records: Vec<Record> = names
            .iter()
            .map(|n| record(n, 1.0, &["MISSED ERROR"]))
            .collect();
        records[3].fixtures[0].class = "CRASH".into();
        let page = who_page(records);
        let cell = between(&page, "<td class=\"who\">", "</td>");
        let summary = between(cell, "<summary>", "</summary>");
        assert!(
            summary.starts_with("<summary><b class=\"cls\">MISSED ERROR 29</b>: "),
            "{summary}"
        );
        let shown = summary.matches("class=\"sub\"").count();
        assert!((3..=10).contains(&shown), "{summary}");
        assert!(summary.ends_with(&format!(
            "<span class=\"muted\">and {} more</span>",
            30 - shown
        )));
        // Every class in the summary, with its first name; everyone once,
        // those shown in the order of their class, then of their name,
        // then those folded, likewise.
        assert!(
            summary.contains("&#8288;; <b class=\"cls\">CRASH 1</b>: <a class=\"sub\" href=\"#sub-3\">Student03</a> "),
            "{summary}"
        );
        let mut seen = Vec::new();
        let mut rest = cell;
        while let Some(at) = rest.find("class=\"sub\" href=\"#sub-") {
            rest = &rest[at..];
            let name = &rest[rest.find('>').unwrap() + 1..rest.find("</a>").unwrap()];
            seen.push(name.to_string());
            rest = &rest[1..];
        }
        let mut expected: Vec<String> = names
            .iter()
            .filter(|n| *n != "Student03")
            .cloned()
            .collect();
        expected.insert(shown - 1, "Student03".into());
        assert_eq!(seen, expected);
    }

    #[test]
    fn each_class_of_a_row_has_its_own_count_names_and_cause_and_no_fold_moves_one() {
        // As a real class's row: seven FALSE ERRORs without a cause, three
        // WRONG VERDICTs whose cause is a 32-bit counter; the names too many
        // for two lines.
        let overflow = "boards of 2^31 inversions or more: a 32-bit counter overflows there";
        let mut records: Vec<Record> = (0..7)
            .map(|i| record(&format!("FalseErrorStudent{i}"), 1.0, &["FALSE ERROR"]))
            .collect();
        for i in 0..3 {
            let mut r = record(&format!("Verdict{i}"), 2.0, &["WRONG VERDICT"]);
            r.causes.push(crate::publishing::record::CauseLine {
                class: "WRONG VERDICT".into(),
                words: format!("an input with {overflow} gets the wrong verdict"),
                evidence: "with ..., 1 of 1 inputs failed so; with ..., 0 of 1".into(),
                fixtures: vec!["Tests/sol0.inp".into()],
            });
            records.push(r);
        }
        let page = who_page(records);
        let cell = between(&page, "<td class=\"who\">", "</td>");
        let summary = between(cell, "<summary>", "</summary>");
        // Both classes shown, each with its count and first name; the cause
        // beside the wrong verdicts, of their 3, not of all 10.
        assert!(
            summary.starts_with("<summary><b class=\"cls\">FALSE ERROR 7</b>: "),
            "{summary}"
        );
        let verdicts = summary
            .find("<b class=\"cls\">WRONG VERDICT 3</b>: <a class=\"sub\"")
            .unwrap();
        let cause = summary
            .find(
                "cause, for 3 of 3:</span> an input with boards of 2^31 inversions or more</span>",
            )
            .unwrap();
        assert!(verdicts < cause, "{summary}");
        assert!(!cell.contains("of 10:"), "{cell}");
        // The folded names, each under its own class's label.
        let folded = between(cell, "</summary><div>", "</div>");
        assert!(
            folded.starts_with("</summary><div><b class=\"cls\">FALSE ERROR 7</b>: "),
            "{folded}"
        );
        assert!(!folded.contains("cause"), "{folded}");
    }

    #[test]
    fn names_are_listed_as_a_reader_looks_for_them() {
        let mut names = vec!["Zhubat", "alice", "Barrett", "zhenzh", "Alice"];
        names.sort_by(|a, b| by_name(a, b));
        assert_eq!(names, ["Alice", "alice", "Barrett", "zhenzh", "Zhubat"]);
    }

    #[test]
    fn discrimination_is_the_correlation_of_passing_with_the_score() {
        // Those who pass score high: the point-biserial correlation,
        // (M1 - M0) / s * sqrt(p q), s the scores' deviation over n.
        let runs = [
            (true, 90.0),
            (true, 80.0),
            (false, 40.0),
            (false, 60.0),
            (true, 70.0),
        ];
        let n = runs.len() as f64;
        let mean = runs.iter().map(|r| r.1).sum::<f64>() / n;
        let s = (runs.iter().map(|r| (r.1 - mean).powi(2)).sum::<f64>() / n).sqrt();
        let (m1, m0, p): (f64, f64, f64) = (80.0, 50.0, 0.6);
        let expected = (m1 - m0) / s * (p * (1.0 - p)).sqrt();
        assert!((discrimination(&runs).unwrap() - expected).abs() < 1e-9);
        // Passing by the weaker ones: negative; a tie in everything: none.
        assert!(discrimination(&[(false, 90.0), (true, 10.0)]).unwrap() < -0.99);
        assert_eq!(discrimination(&[(true, 90.0), (true, 10.0)]), None);
        assert_eq!(discrimination(&[(true, 5.0), (false, 5.0)]), None);
        assert_eq!(discrimination(&[(true, 5.0)]), None);
    }

    #[test]
    fn the_charts_marks_stand_out_at_wcag_contrast() {
        let white = "#ffffff";
        for (name, colour) in [("bars", BAR), ("axes", AXIS)] {
            let ratio = contrast_ratio(colour, white);
            assert!(ratio >= 3.0, "{name} {colour}: {ratio:.2}");
        }
        for (name, colour) in [("mean", MEAN), ("median", MEDIAN), ("highest", HIGHEST)] {
            // A line over the page and over a bar; its legend is text.
            let on_page = contrast_ratio(colour, white);
            let on_bar = contrast_ratio(colour, BAR);
            assert!(on_page >= 4.5, "{name} {colour} on the page: {on_page:.2}");
            assert!(on_bar >= 3.0, "{name} {colour} on a bar: {on_bar:.2}");
        }
    }
}
