//! The files of a comparison of the class ([`crate::similarity`]):
//! `similarity.csv`, a line a pair that shares code (its names, its score,
//! the code's and the behaviour's), and `similarity-blocks.csv`, a line a
//! matched block (where it is on each side, how many submissions hold
//! it). Names are quoted, and a name a spreadsheet would take for a
//! formula starts with `'` ([`csv_quoted`]). The pages of the pairs worth
//! a look ([`pair_page`]), and the class page's section on similarity
//! ([`Section`]), read back from `similarity.csv` as a stranger's file
//! whenever the class page is written, so that the page has it whenever
//! the grades folder has the file.

use crate::judging::class::{Class, Outcome as Judged};
use crate::judging::judge::Head;
use crate::publishing::html::{escape, head, href};
use crate::publishing::record::{csv_quoted, FixtureLine, Record};
use crate::publishing::roster::records as csv_records;
use crate::shared::digest::{fnv1a, fnv1a_more};
use crate::shared::name::Name;
use crate::shared::text::one_line;
use crate::similarity::behaviour;
use crate::similarity::behaviour::Outcome;
use crate::similarity::report::{decimal, Comparison, Lines, Pair};
use crate::similarity::Source;
use puzzle_sandbox::files::Beneath;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::io;
use std::path::Path;

/// What a grading tells of the class's behaviour, as similarity reads it:
/// each program's outcome on each fixture the grading ran (the one
/// reading of a grading's records for similarity).
#[derive(Debug, Default)]
pub struct Behaviour<'a> {
    /// The fixtures, as reports show them, sorted.
    pub fixtures: Vec<String>,
    /// `outcomes[p][x]`: submission `p`'s outcome on fixture `x` (none:
    /// no record of it, or the fixture was not run).
    pub outcomes: Vec<Vec<Option<Outcome>>>,
    /// `lines[p][x]`: the record's line of it, for the pages.
    pub lines: Vec<Vec<Option<&'a FixtureLine>>>,
}

/// What a program's line answered: right answers are one answer; a wrong
/// one is the digest of what its run did (`output_fnv1a`), or, in a
/// grading of an older version that did not record it, of its class and
/// the report's words (which quote what it said).
fn outcome_of(line: &FixtureLine) -> Option<Outcome> {
    if line.seconds.is_none()
        || matches!(line.class, Judged::Noted(Class::NotRun | Class::NotGraded))
    {
        return None;
    }
    // A right answer is no evidence. A FORMAT line is not right: its
    // bytes are not the reference's, and a rare way of getting them wrong
    // is what copies share.
    let right = line.class.is_right();
    let answer = match (right, &line.output) {
        (true, _) => 0,
        (false, Some(output)) => output.digest,
        (false, None) => fnv1a_more(fnv1a(line.class.name().as_bytes()), line.detail.as_bytes()),
    };
    Some(Outcome { answer, right })
}

impl Behaviour<'_> {
    /// The class `names` (in the comparison's order) as `records` graded
    /// it: each record matched to its submission by name (a name no
    /// record has, and a record of no submission here, say nothing).
    pub fn of<'a>(records: &'a [Record], names: &[String]) -> Behaviour<'a> {
        let mut fixtures: Vec<String> = records
            .iter()
            .flat_map(|r| r.fixtures.iter().map(|f| f.fixture.clone()))
            .collect();
        fixtures.sort();
        fixtures.dedup();
        let index: HashMap<&str, usize> = fixtures
            .iter()
            .enumerate()
            .map(|(i, f)| (f.as_str(), i))
            .collect();
        let by_name: HashMap<&str, &Record> =
            records.iter().map(|r| (r.row.name.shown(), r)).collect();
        let mut outcomes = Vec::with_capacity(names.len());
        let mut lines = Vec::with_capacity(names.len());
        for name in names {
            let mut mine = vec![None; fixtures.len()];
            let mut line_of = vec![None; fixtures.len()];
            for line in by_name
                .get(name.as_str())
                .map_or(&[][..], |r| &r.fixtures[..])
            {
                let x = index[line.fixture.as_str()];
                mine[x] = outcome_of(line);
                line_of[x] = Some(line);
            }
            outcomes.push(mine);
            lines.push(line_of);
        }
        Behaviour {
            fixtures,
            outcomes,
            lines,
        }
    }
}

/// The header line of `similarity.csv`.
pub const CSV_HEADER: &str = "a,b,score,code,behaviour,matched,blocks";

/// The header line of `similarity-blocks.csv`.
pub const BLOCKS_HEADER: &str = "a,b,block,tokens,shared_by,a_lines,b_lines";

/// `similarity.csv`: a line a pair, highest score first; the names
/// quoted (a name a spreadsheet would take for a formula starts with
/// `'`), `behaviour` empty without a grading.
pub fn similarity_csv(comparison: &Comparison) -> String {
    let mut text = format!("{CSV_HEADER}\n");
    for p in &comparison.pairs {
        let _ = writeln!(
            text,
            "{},{},{},{},{},{},{}",
            csv_quoted(&comparison.names[p.a]),
            csv_quoted(&comparison.names[p.b]),
            decimal(p.score()),
            decimal(p.code),
            p.behaviour.map(decimal).unwrap_or_default(),
            p.matched,
            p.matches.len()
        );
    }
    text
}

/// `similarity-blocks.csv`: a line a matched block of each pair, in
/// the pairs' order, numbered from 1 within its pair; where it is on
/// each side, and how many submissions hold it.
pub fn blocks_csv(comparison: &Comparison) -> String {
    let mut text = format!("{BLOCKS_HEADER}\n");
    for p in &comparison.pairs {
        for (n, block) in comparison.blocks(p).iter().enumerate() {
            let _ = writeln!(
                text,
                "{},{},{},{},{},{},{}",
                csv_quoted(&comparison.names[p.a]),
                csv_quoted(&comparison.names[p.b]),
                n + 1,
                block.tokens,
                block.shared_by,
                csv_quoted(&comparison.where_in(p.a, &block.a)),
                csv_quoted(&comparison.where_in(p.b, &block.b))
            );
        }
    }
    text
}

/// The rule for a pair worth a look: a combined score of at least this
/// (in thousandths), and at most [`MAX_PAGES`] of them, the highest.
pub const WORTH_A_LOOK: u32 = 500;

/// The most pages of pairs written.
pub const MAX_PAGES: usize = 50;

/// The most bytes of one submission's sources a page shows (the rest is
/// cut, and the page says so): a page must open and print.
pub const MAX_SHOWN: usize = 256 * 1024;

/// The file of the pairs ([`similarity_csv`]), in the out folder.
pub const CSV_FILE: &str = "similarity.csv";

/// The file of the matched blocks ([`blocks_csv`]), in the out folder.
pub const BLOCKS_FILE: &str = "similarity-blocks.csv";

/// The folder of the pages of pairs, in the out folder.
pub const PAGES: &str = "similarity";

/// What a comparison writes into its out folder: its two CSVs and its
/// pages' folder (a grading's own files, when `grade-all` compares its
/// class into the grades folder).
pub const FILES: [&str; 3] = [CSV_FILE, BLOCKS_FILE, PAGES];

/// The light backgrounds of the blocks, in turn (each with the ink's
/// contrast well above 4.5:1); a block is also numbered, so that no
/// colour says anything alone.
const BLOCK_COLOURS: [&str; 8] = [
    "#fff3b0", "#c8f7c5", "#cfe8ff", "#ffd6e0", "#e6d9ff", "#ffe0b8", "#d4f1f4", "#eeeeee",
];

/// The ink of the template's lines on a pair's page: a muted grey, still
/// 7:1 against the page's white (WCAG AAA); the `[t]` says it too.
const TEMPLATE_INK: &str = "#595959";

/// The template's lines as a pair's page marks them: each line of its
/// sources with its spaces squeezed, those with a letter or a digit (a
/// brace alone, or a blank line, is anybody's).
#[derive(Debug, Default)]
pub struct TemplateLines(HashSet<String>);

impl TemplateLines {
    /// The lines of `template`'s sources.
    pub fn of(template: &[Source]) -> TemplateLines {
        TemplateLines(
            template
                .iter()
                .flat_map(|s| {
                    String::from_utf8_lossy(&s.bytes)
                        .lines()
                        .map(squeezed)
                        .collect::<Vec<_>>()
                })
                .filter(|l| l.chars().any(char::is_alphanumeric))
                .collect(),
        )
    }

    /// Whether there is no template.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `line` is one of the template's, spaces aside.
    pub fn has(&self, line: &str) -> bool {
        !self.0.is_empty() && self.0.contains(&squeezed(line))
    }
}

/// `line` with its spaces trimmed and each run of them one space.
fn squeezed(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The pairs worth a look: those scoring at least [`WORTH_A_LOOK`]
/// thousandths, the highest first, at most [`MAX_PAGES`].
pub fn worth_a_look(comparison: &Comparison) -> impl Iterator<Item = &Pair> {
    comparison
        .pairs
        .iter()
        .take_while(|p| p.millis() >= WORTH_A_LOOK)
        .take(MAX_PAGES)
}

/// The file name of the page of the pair whose names' stems (made safe,
/// as the feedback pages' are: `[A-Za-z0-9._%-]`) are `a` and `b`:
/// `A+B.html` (`+` is in no stem, so the two are told apart). Stems long
/// enough to pass a file name's bound are cut, and the pair's digest
/// keeps them apart.
pub fn page_file(a: &str, b: &str) -> String {
    const MOST: usize = 96;
    if a.len() + b.len() <= 2 * MOST {
        return format!("{a}+{b}.html");
    }
    let cut = |s: &str| s[..s.len().min(MOST)].to_string();
    let digest = fnv1a_more(fnv1a(a.as_bytes()), format!("+{b}").as_bytes());
    format!("{}+{}-{digest:016x}.html", cut(a), cut(b))
}

/// The page of `pair` (self-contained, printable): its scores, MOSS's
/// warning, its blocks with how many submissions hold each, the wrong
/// answers they share (with `behaviour`), and the two submissions'
/// sources side by side, each block's lines in its colour and numbered,
/// the template's lines muted and marked `[t]`. `sides` are the two
/// submissions' sources, in the order of [`Comparison::files`];
/// `template`, the template's ([`TemplateLines`]).
pub fn pair_page(
    comparison: &Comparison,
    pair: &Pair,
    sides: [&[Source]; 2],
    behaviour: Option<&Behaviour>,
    template: &TemplateLines,
) -> String {
    let (a, b) = (
        escape(&comparison.names[pair.a]),
        escape(&comparison.names[pair.b]),
    );
    let mut page = head(&escape(&format!(
        "{} and {}: similarity",
        comparison.names[pair.a], comparison.names[pair.b]
    )));
    let _ = write!(
        page,
        "<h1>{a} and {b}</h1>\n<p><strong>Evidence to look at, never a verdict.</strong> As MOSS's authors warn, a score alone proves nothing: two students may share code for honest reasons (the starter code, a tutor's example, an idiom the task asks for), and a copier may share little. Read the blocks and the answers below, and ask the students.</p>\n\
         <table><tbody><tr><th>score</th><td class=\"n\">{}</td></tr><tr><th>code</th><td class=\"n\">{} ({} symbols of the normal form matched, in {} blocks)</td></tr><tr><th>behaviour</th><td class=\"n\">{}</td></tr></tbody></table>\n",
        decimal(pair.score()),
        decimal(pair.code),
        pair.matched,
        pair.matches.len(),
        pair.behaviour.map_or("no grading given".into(), decimal),
    );
    let blocks = comparison.blocks(pair);
    page.push_str("<h2>Matched blocks</h2>\n<p>The template's code (the starter code) and passages most of the class shares are never a block: they are no evidence. <em>Shared by</em> counts the submissions of the class that hold the block (2: only these two).</p>\n");
    if blocks.is_empty() {
        page.push_str("<p>None: no code in common beyond the template and the class's.</p>\n");
    } else {
        let _ = writeln!(
            page,
            "<table><thead><tr><th>block</th><th class=\"n\">symbols</th><th class=\"n\">shared by</th><th>{a}</th><th>{b}</th></tr></thead><tbody>"
        );
        for (i, block) in blocks.iter().enumerate() {
            let _ = writeln!(
                page,
                "<tr><td style=\"background:{}\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>",
                BLOCK_COLOURS[i % BLOCK_COLOURS.len()],
                i + 1,
                block.tokens,
                block.shared_by,
                escape(&comparison.where_in(pair.a, &block.a)),
                escape(&comparison.where_in(pair.b, &block.b)),
            );
        }
        page.push_str("</tbody></table>\n");
    }
    if let Some(seen) = behaviour {
        write_answers(&mut page, comparison, pair, seen);
    }
    page.push_str("<h2>Side by side</h2>\n<p>Each line of a block has its colour and its number, <code>[n]</code>.");
    if !template.is_empty() {
        page.push_str(" A line the template has word for word (spaces aside) is grey and marked <code>[t]</code>: the template's code is no evidence (a line of it changed, or renamed, is left out of the blocks all the same, but not marked).");
    }
    page.push_str("</p>\n<div style=\"display:grid;grid-template-columns:1fr 1fr;gap:.6rem\">\n");
    let lines = [
        blocks.iter().map(|b| &b.a[..]).collect::<Vec<_>>(),
        blocks.iter().map(|b| &b.b[..]).collect::<Vec<_>>(),
    ];
    for ((side, sources), lines) in [pair.a, pair.b].into_iter().zip(sides).zip(lines) {
        write_side(&mut page, comparison, side, sources, &lines, template);
    }
    page.push_str("</div>\n</body>\n</html>\n");
    page
}

/// One submission's sources, each block's lines in its colour.
fn write_side(
    page: &mut String,
    comparison: &Comparison,
    side: usize,
    sources: &[Source],
    blocks: &[&[Lines]],
    template: &TemplateLines,
) {
    let _ = writeln!(
        page,
        "<div style=\"min-width:0\"><h3>{}</h3>",
        escape(&comparison.names[side])
    );
    let mut budget = MAX_SHOWN;
    for (f, source) in sources.iter().enumerate() {
        let _ = writeln!(page, "<p><code>{}</code></p>", escape(&source.path));
        if budget == 0 {
            page.push_str("<p><em>Not shown: the page shows at most 256 KiB of a submission's sources.</em></p>\n");
            continue;
        }
        let shown = &source.bytes[..source.bytes.len().min(budget)];
        budget -= shown.len();
        // Each line's block, from the blocks' ranges.
        let text = String::from_utf8_lossy(shown);
        let count = text.lines().count();
        let mut block_of: Vec<Option<usize>> = vec![None; count + 1];
        for (i, lines) in blocks.iter().enumerate() {
            for l in lines.iter().filter(|l| usize::from(l.file) == f) {
                for &(x, y) in &l.ranges {
                    let (x, y) = (x as usize, (y as usize).min(count));
                    for slot in block_of.iter_mut().take(y + 1).skip(x) {
                        slot.get_or_insert(i);
                    }
                }
            }
        }
        page.push_str("<pre style=\"white-space:pre-wrap;word-break:break-all\">");
        for (n, line) in text.lines().enumerate() {
            let n = n + 1;
            match block_of[n] {
                Some(i) => {
                    let _ = writeln!(
                        page,
                        "<span style=\"background:{}\">{n:4} [{}] {}</span>",
                        BLOCK_COLOURS[i % BLOCK_COLOURS.len()],
                        i + 1,
                        escape(line)
                    );
                }
                None if template.has(line) => {
                    let _ = writeln!(
                        page,
                        "<span style=\"color:{TEMPLATE_INK}\">{n:4} [t] {}</span>",
                        escape(line)
                    );
                }
                None => {
                    let _ = writeln!(page, "{n:4}     {}", escape(line));
                }
            }
        }
        page.push_str("</pre>\n");
        if shown.len() < source.bytes.len() {
            let _ = writeln!(
                page,
                "<p><em>Cut here: {} more bytes not shown (the page shows at most 256 KiB of a submission's sources).</em></p>",
                source.bytes.len() - shown.len()
            );
        }
    }
    page.push_str("</div>\n");
}

/// The wrong answers the pair shares, fixture by fixture: how many of
/// the class gave that answer and how many the right one, and what each
/// of the two gave (the report's words, and the first bytes of its
/// outputs where the grading kept them).
fn write_answers(page: &mut String, comparison: &Comparison, pair: &Pair, seen: &Behaviour) {
    let shared = behaviour::shared(&seen.outcomes, pair.a, pair.b);
    page.push_str("<h2>Wrong answers they share</h2>\n<p>On each fixture both ran: the same wrong answer, byte for byte (how the run ended, its stdout and its stderr). An answer few of the class gave is evidence; one half the class gave is a common mistake (weight 0). Right answers are no evidence. <em>Gave it</em>: how many of those that ran the fixture gave this same answer; <em>right</em>: how many gave the right one. Under each name, the report's words, then the first 200 bytes of its stdout and its stderr (a newline shown as <code>\\n</code>) where the grading kept them.</p>\n");
    if shared.is_empty() {
        page.push_str("<p>None.</p>\n");
        return;
    }
    let _ = writeln!(
        page,
        "<table><thead><tr><th>fixture</th><th class=\"n\">gave it</th><th class=\"n\">right</th><th class=\"n\">weight</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        escape(&comparison.names[pair.a]),
        escape(&comparison.names[pair.b])
    );
    let answer = |p: usize, x: usize| {
        seen.lines
            .get(p)
            .and_then(|l| l.get(x).copied().flatten())
            .map_or(String::new(), answer_cell)
    };
    for s in &shared {
        let right = seen
            .outcomes
            .iter()
            .filter(|o| o.get(s.input).copied().flatten().is_some_and(|o| o.right))
            .count();
        let _ = writeln!(
            page,
            "<tr><td><code>{}</code></td><td class=\"n\">{} of {}</td><td class=\"n\">{right} of {}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(&seen.fixtures[s.input]),
            s.gave,
            s.ran,
            s.ran,
            decimal(s.weight),
            answer(pair.a, s.input),
            answer(pair.b, s.input),
        );
    }
    page.push_str("</tbody></table>\n");
}

/// A program's answer on a fixture, as a cell of the page: the report's
/// words, then the first bytes of each output when the grading kept them
/// (a grading of a version before 3 did not).
fn answer_cell(line: &FixtureLine) -> String {
    let mut cell = escape(&format!("{}: {}", line.class.name(), line.detail)).to_string();
    let Some(excerpt) = line.output.as_ref().and_then(|o| o.excerpt.as_ref()) else {
        return cell;
    };
    for (stream, head) in [("stdout", &excerpt.stdout), ("stderr", &excerpt.stderr)] {
        let _ = write!(cell, "<br><small>{stream}:</small> {}", shown_head(head));
    }
    cell
}

/// An output's first bytes as a page shows them: empty, or the text in
/// `<code>` with how much of the output it is.
fn shown_head(head: &Head) -> String {
    if head.bytes == 0 {
        return "<em>empty</em>".into();
    }
    let of = if head.is_whole() {
        String::new()
    } else {
        format!(" <small>(the first 200 of {} bytes)</small>", head.bytes)
    };
    format!(
        "<code style=\"word-break:break-all\">{}</code>{of}",
        escape(&head.text)
    )
}

/// The groups of three or more among `pairs` (each two submissions'
/// indices, of `n`): the connected components they make, each its
/// submissions' indices sorted, the groups by their first.
fn groups(n: usize, pairs: impl Iterator<Item = (usize, usize)>) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (a, b) in pairs {
        let (x, y) = (root(&mut parent, a), root(&mut parent, b));
        parent[x.max(y)] = x.min(y);
    }
    let mut by_root: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for s in 0..n {
        let r = root(&mut parent, s);
        by_root.entry(r).or_default().push(s);
    }
    by_root.into_values().filter(|g| g.len() >= 3).collect()
}

/// The most bytes of `similarity.csv` the class page reads: a class of
/// 1,000 lists at most its 499,500 pairs, about 60 bytes each.
pub const MAX_CSV: u64 = 64 << 20;

/// A pair as the class page lists it, from its line of `similarity.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Listed {
    /// The first submission (the one whose name sorts first).
    a: Name,
    /// The second.
    b: Name,
    /// The combined score, in thousandths.
    score: u32,
    /// The code's.
    code: u32,
    /// The behaviour's, when a grading gave it.
    behaviour: Option<u32>,
}

/// The class page's section on similarity, as the grading's own
/// `similarity.csv` has it ([`Section::read`]): the distribution of the
/// pairs' scores, the pairs worth a look linked to their pages, the groups
/// of three or more; or why the file could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Section {
    /// The submissions of the grading.
    class: usize,
    /// The pairs the file lists (its lines read).
    listed: usize,
    /// The pairs by tenths of their score, `[0.0, 0.1)` first.
    bins: [usize; 10],
    /// The pairs worth a look ([`WORTH_A_LOOK`], at most [`MAX_PAGES`],
    /// the highest first), each with its page's file when it is there.
    worth: Vec<(Listed, Option<String>)>,
    /// The groups of three or more, by name.
    groups: Vec<Vec<Name>>,
    /// The lines refused: how many, and the first, why.
    refused: (usize, Option<String>),
    /// Why the file could not be read at all.
    trouble: Option<String>,
}

impl Section {
    /// The section of the comparison in the grades folder `grades`, read
    /// from its `similarity.csv` (none when there is none) as a
    /// stranger's file: opened beneath the folder without following a
    /// link, regular only, at most [`MAX_CSV`] bytes; each line's names
    /// must be submissions of `class` (the grading's), its scores
    /// thousandths; a line that is not is left out and counted. A page is
    /// linked only when it is in the folder [`PAGES`] as a regular file.
    pub fn read(grades: &Path, class: &[Name]) -> Option<Section> {
        let beneath = match Beneath::open(grades) {
            Ok(beneath) => beneath,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
            Err(e) => return Some(Section::trouble(class, e.to_string())),
        };
        let bytes = match beneath.read_within(Path::new(CSV_FILE), MAX_CSV) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => {
                return Some(Section::trouble(
                    class,
                    format!("it is over {} MiB", MAX_CSV >> 20),
                ))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
            Err(e) => return Some(Section::trouble(class, one_line(&e.to_string()))),
        };
        let mut section = Section::of_csv(&String::from_utf8_lossy(&bytes), class);
        for (pair, page) in &mut section.worth {
            let file = page_file(&pair.a.stem(), &pair.b.stem());
            let there = beneath.open_regular(&Path::new(PAGES).join(&file)).is_ok();
            *page = there.then_some(file);
        }
        Some(section)
    }

    /// A section that says only why the file could not be read.
    fn trouble(class: &[Name], why: String) -> Section {
        Section {
            class: class.len(),
            trouble: Some(why),
            ..Section::default()
        }
    }

    /// The section `text` (a `similarity.csv`) makes, its names those of
    /// `class`; no page linked yet.
    fn of_csv(text: &str, class: &[Name]) -> Section {
        let mut lines = text.lines();
        if lines.next() != Some(CSV_HEADER) {
            return Section::trouble(class, format!("its first line is not '{CSV_HEADER}'"));
        }
        let index: HashMap<&str, usize> = class
            .iter()
            .enumerate()
            .map(|(i, n)| (n.shown(), i))
            .collect();
        let mut section = Section {
            class: class.len(),
            ..Section::default()
        };
        let mut high: Vec<(usize, usize, Listed)> = Vec::new();
        let mut seen: HashSet<(usize, usize)> = HashSet::new();
        for (n, line) in lines.enumerate() {
            match listed(line, &index, class) {
                Ok((a, b, pair)) if seen.insert((a, b)) => {
                    section.listed += 1;
                    section.bins[(pair.score / 100).min(9) as usize] += 1;
                    if pair.score >= WORTH_A_LOOK {
                        high.push((a, b, pair));
                    }
                }
                Ok(_) => section.refuse(n + 2, "the pair is listed twice".into()),
                Err(why) => section.refuse(n + 2, why),
            }
        }
        // In the files' order, whatever the file's own.
        high.sort_by(|x, y| (y.2.score, &x.2.a, &x.2.b).cmp(&(x.2.score, &y.2.a, &y.2.b)));
        section.groups = groups(class.len(), high.iter().map(|(a, b, _)| (*a, *b)))
            .into_iter()
            .map(|g| g.into_iter().map(|s| class[s].clone()).collect())
            .collect();
        section.worth = high
            .into_iter()
            .take(MAX_PAGES)
            .map(|(_, _, pair)| (pair, None))
            .collect();
        section
    }

    /// Line `line` refused, `why`.
    fn refuse(&mut self, line: usize, why: String) {
        self.refused.0 += 1;
        self.refused
            .1
            .get_or_insert_with(|| format!("line {line}: {why}"));
    }

    /// The section as the class page shows it.
    pub fn html(&self) -> String {
        let mut section = String::from("<section id=\"similarity\">\n<h2>Similarity</h2>\n<p><strong>Evidence to look at, never a verdict.</strong> A score alone proves nothing (MOSS's own warning): read a pair's page, its blocks and its shared wrong answers, before asking anything of a student.</p>\n");
        if let Some(why) = &self.trouble {
            let _ = writeln!(
                section,
                "<p class=\"flag\">{CSV_FILE} cannot be read: {}.</p>\n</section>",
                escape(why)
            );
            return section;
        }
        let n = self.class;
        let _ = writeln!(
            section,
            "<p>{} of the {} pairs of the grading's {n} submissions share code or rare wrong answers (<a href=\"./{CSV_FILE}\">{CSV_FILE}</a>); the others score 0.</p>",
            self.listed,
            n * n.saturating_sub(1) / 2
        );
        if let Some(first) = &self.refused.1 {
            let count = self.refused.0;
            let _ = writeln!(
                section,
                "<p class=\"flag\">{count} line(s) of {CSV_FILE} are not a pair of this grading's submissions, and are left out (the first: {}).</p>",
                escape(first)
            );
        }
        section.push_str("<table><caption>Pairs by score</caption><thead><tr><th>score</th><th class=\"n\">pairs</th></tr></thead><tbody>\n");
        for (i, count) in self.bins.iter().enumerate().rev() {
            let _ = writeln!(
                section,
                "<tr><td>{}.{} to {}</td><td class=\"n\">{count}</td></tr>",
                i / 10,
                i % 10,
                if i == 9 {
                    "1".to_string()
                } else {
                    format!("0.{}", i + 1)
                },
            );
        }
        section.push_str("</tbody></table>\n<h3>Pairs worth a look</h3>\n");
        if self.worth.is_empty() {
            section.push_str("<p>None scores 0.5 or more.</p>\n");
        } else {
            let _ = writeln!(
                section,
                "<p>Those scoring 0.5 or more, the highest first (at most {MAX_PAGES}), each with a page to print.</p>\n<table><thead><tr><th>pair</th><th class=\"n\">score</th><th class=\"n\">code</th><th class=\"n\">behaviour</th></tr></thead><tbody>"
            );
            let millis = |m: u32| format!("{}.{:03}", m / 1000, m % 1000);
            for (pair, page) in &self.worth {
                let names = format!("{} and {}", escape(pair.a.shown()), escape(pair.b.shown()));
                let linked = match page {
                    Some(file) => format!(
                        "<a href=\"{}\">{names}</a>",
                        escape(&format!("{PAGES}/{}", href(file).trim_start_matches("./")))
                    ),
                    None => format!("{names} <small>(no page)</small>"),
                };
                let _ = writeln!(
                    section,
                    "<tr><td>{linked}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                    millis(pair.score),
                    millis(pair.code),
                    pair.behaviour.map(millis).unwrap_or_default(),
                );
            }
            section.push_str("</tbody></table>\n");
        }
        section.push_str("<h3>Groups of three or more</h3>\n");
        if self.groups.is_empty() {
            section.push_str(
                "<p>None: no three submissions are linked by pairs scoring 0.5 or more.</p>\n",
            );
        } else {
            section.push_str("<p>Submissions linked by pairs scoring 0.5 or more (one pair may link two that share little).</p>\n<ul>\n");
            for group in &self.groups {
                let names: Vec<String> = group
                    .iter()
                    .map(|s| escape(s.shown()).to_string())
                    .collect();
                let _ = writeln!(section, "<li>{}</li>", names.join(", "));
            }
            section.push_str("</ul>\n");
        }
        section.push_str("</section>\n");
        section
    }
}

/// A line of `similarity.csv` read back: its two submissions (their
/// indices in `class`, by `index`) and its scores; or why it is not one.
fn listed(
    line: &str,
    index: &HashMap<&str, usize>,
    class: &[Name],
) -> Result<(usize, usize, Listed), String> {
    let fields = match csv_records(line) {
        Ok(mut records) if records.len() == 1 => records.remove(0).1,
        Ok(_) => return Err("not one line of fields".into()),
        Err(e) => return Err(e.to_string()),
    };
    if fields.len() != CSV_HEADER.split(',').count() {
        return Err(format!("{} fields, not 7", fields.len()));
    }
    // A name as `csv_quoted` wrote it: a leading `'` is the one it added
    // to a name a spreadsheet would take for a formula, unless the name
    // itself starts so.
    let name = |field: &str| {
        index
            .get(field)
            .or_else(|| {
                field
                    .strip_prefix('\'')
                    .filter(|f| f.starts_with(['=', '+', '-', '@']))
                    .and_then(|f| index.get(f))
            })
            .copied()
            .ok_or_else(|| format!("'{}' is not a submission of the grading", one_line(field)))
    };
    let score = |field: &str| {
        thousandths(field).ok_or_else(|| format!("'{}' is not a score", one_line(field)))
    };
    let (a, b) = (name(&fields[0])?, name(&fields[1])?);
    if a == b {
        return Err("a pair of one submission".into());
    }
    let behaviour = match fields[4].as_str() {
        "" => None,
        given => Some(score(given)?),
    };
    Ok((
        a,
        b,
        Listed {
            a: class[a].clone(),
            b: class[b].clone(),
            score: score(&fields[2])?,
            code: score(&fields[3])?,
            behaviour,
        },
    ))
}

/// A score as the files write it (`0.523`, `1.000`) in thousandths.
fn thousandths(text: &str) -> Option<u32> {
    let (whole, part) = text.split_once('.')?;
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole, 1) || !digits(part, 3) {
        return None;
    }
    let millis = whole.parse::<u32>().ok()? * 1000 + part.parse::<u32>().ok()?;
    (millis <= 1000).then_some(millis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::report::{Match, Pair};
    use crate::similarity::At;

    fn at(file: u16, line: u32) -> At {
        At { file, line }
    }

    fn line(fixture: &str, class: &str, detail: &str, digest: Option<u64>) -> FixtureLine {
        FixtureLine {
            fixture: fixture.into(),
            category: "sol".into(),
            class: class.into(),
            points: 0.0,
            max_points: 1.0,
            visibility: "visible".into(),
            seconds: (class != "NOT RUN").then(|| std::time::Duration::from_millis(5)),
            detail: detail.into(),
            output: digest.map(|digest| crate::judging::judge::Output {
                digest,
                excerpt: None,
            }),
        }
    }

    fn record(name: &str, fixtures: Vec<FixtureLine>) -> Record {
        Record {
            row: crate::publishing::record::Row {
                name: name.into(),
                note: String::new(),
                marks: None,
                trouble: None,
            },
            fixtures,
            causes: Vec::new(),
            sources: None,
        }
    }

    #[test]
    fn a_grading_is_read_as_each_program_s_outcome_on_each_fixture() {
        let records = [
            record(
                "b",
                vec![
                    line("Tests/y.inp", "WRONG VERDICT", "'solvable'", Some(7)),
                    line("Tests/x.inp", "passed", "", Some(1)),
                ],
            ),
            record(
                "a",
                vec![
                    line("Tests/x.inp", "OPEN", "accepted it", Some(2)),
                    line("Tests/y.inp", "NOT RUN", "", None),
                ],
            ),
            // An older grading's line: its class and words are its answer.
            record(
                "c",
                vec![line("Tests/y.inp", "WRONG VERDICT", "'solvable'", None)],
            ),
            record("gone", vec![line("Tests/x.inp", "CRASH", "", Some(3))]),
        ];
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let seen = Behaviour::of(&records, &names);
        assert_eq!(seen.fixtures, ["Tests/x.inp", "Tests/y.inp"]);
        let right = Some(Outcome {
            answer: 0,
            right: true,
        });
        let wrong = |answer| {
            Some(Outcome {
                answer,
                right: false,
            })
        };
        assert_eq!(seen.outcomes[0], [right, None]);
        assert_eq!(seen.outcomes[1], [right, wrong(7)]);
        let old = fnv1a_more(fnv1a(b"WRONG VERDICT"), b"'solvable'");
        assert_eq!(seen.outcomes[2], [None, wrong(old)]);
        assert_eq!(seen.outcomes[3], [None, None]);
        assert_eq!(
            seen.lines[1][1].map(|l| l.detail.as_str()),
            Some("'solvable'")
        );
    }

    #[test]
    fn the_files_quote_names_and_write_three_decimals() {
        let places =
            |lines: &[(u16, u32)]| lines.iter().map(|&(f, l)| at(f, l)).collect::<Vec<At>>();
        let comparison = Comparison {
            names: vec!["=cmd|' /C calc'!A0".into(), "bob \"b\"".into()],
            files: vec![vec!["puzzle.c".into()], vec!["a.c".into(), "b,c.c".into()]],
            places: vec![places(&[(0, 3), (0, 6)]), places(&[(1, 2), (1, 5), (1, 8)])],
            pairs: vec![Pair {
                a: 0,
                b: 1,
                code: 0.5,
                behaviour: None,
                matched: 2,
                matches: vec![Match {
                    a: 0,
                    b: 1,
                    tokens: 2,
                    shared_by: 2,
                }],
            }],
            common: 10,
            k: 12,
            t: 20,
            notes: Vec::new(),
        };
        assert_eq!(
            similarity_csv(&comparison),
            "a,b,score,code,behaviour,matched,blocks\n\"'=cmd|' /C calc'!A0\",\"bob \"\"b\"\"\",0.500,0.500,,2,1\n"
        );
        assert_eq!(
            blocks_csv(&comparison),
            "a,b,block,tokens,shared_by,a_lines,b_lines\n\"'=cmd|' /C calc'!A0\",\"bob \"\"b\"\"\",1,2,2,\"puzzle.c:3-6\",\"b,c.c:5-8\"\n"
        );
    }

    fn pair(a: usize, b: usize, code: f64) -> Pair {
        Pair {
            a,
            b,
            code,
            behaviour: None,
            matched: 2,
            matches: vec![Match {
                a: 0,
                b: 0,
                tokens: 2,
                shared_by: 2,
            }],
        }
    }

    fn class(names: &[&str], pairs: Vec<Pair>) -> Comparison {
        Comparison {
            names: names.iter().map(|n| n.to_string()).collect(),
            files: names.iter().map(|_| vec!["<b>.c".into()]).collect(),
            places: names.iter().map(|_| vec![at(0, 1), at(0, 2)]).collect(),
            pairs,
            common: 10,
            k: 12,
            t: 20,
            notes: Vec::new(),
        }
    }

    #[test]
    fn a_page_escapes_every_byte_of_a_submission_and_cuts_its_sources() {
        let comparison = class(&["<script>x", "bob"], vec![pair(0, 1, 0.9)]);
        let hostile = Source {
            path: "<b>.c".into(),
            bytes: b"int <i>;\n&amp;\n".to_vec(),
        };
        let big = Source {
            path: "<b>.c".into(),
            bytes: vec![b'x'; MAX_SHOWN + 10],
        };
        let page = pair_page(
            &comparison,
            &comparison.pairs[0],
            [std::slice::from_ref(&hostile), std::slice::from_ref(&big)],
            None,
            &TemplateLines::default(),
        );
        assert!(!page.contains("<script>x") && !page.contains("<b>") && !page.contains("<i>"));
        assert!(page.contains("&lt;script&gt;x and bob"), "{page}");
        // Both lines of the block coloured and numbered.
        assert!(page.contains("   1 [1] int &lt;i&gt;;</span>"), "{page}");
        assert!(page.contains("   2 [1] &amp;amp;</span>"), "{page}");
        assert!(page.contains("Cut here: 10 more bytes not shown"), "{page}");
        assert!(page.len() < MAX_SHOWN + 20_000);
    }

    #[test]
    fn a_page_marks_the_template_s_lines_outside_the_blocks() {
        let comparison = class(&["ann", "bob"], vec![pair(0, 1, 0.9)]);
        let side = Source {
            path: "<b>.c".into(),
            bytes: b"x = 1;\ny = 2;\n  int   main ( void )  {\n}\nreturn 7;\n".to_vec(),
        };
        let template = TemplateLines::of(&[Source {
            path: "boardADT.h".into(),
            bytes: b"x = 1;\nint main ( void ) {\n}\n".to_vec(),
        }]);
        let sides = [std::slice::from_ref(&side), std::slice::from_ref(&side)];
        let page = pair_page(&comparison, &comparison.pairs[0], sides, None, &template);
        // A block's line keeps its block's colour and number.
        assert!(page.contains("   1 [1] x = 1;</span>"), "{page}");
        // The template's line, spaces aside, is marked; a brace alone and
        // the submission's own line are not.
        assert!(
            page.contains("<span style=\"color:#595959\">   3 [t]   int   main ( void )  {</span>"),
            "{page}"
        );
        assert!(
            page.contains("\n   4     }\n") && page.contains("\n   5     return 7;\n"),
            "{page}"
        );
        assert!(page.contains("marked <code>[t]</code>"));
        let without = pair_page(
            &comparison,
            &comparison.pairs[0],
            sides,
            None,
            &TemplateLines::default(),
        );
        assert!(!without.contains("[t]"), "{without}");
    }

    #[test]
    fn a_page_shows_each_side_s_output_and_how_many_gave_it_and_the_right_one() {
        use crate::judging::judge::{Excerpt, Head, Output};
        let with = |digest: u64, out: &[u8]| {
            let mut l = line("Tests/x.inp", "WRONG VERDICT", "said '<solvable>'", None);
            l.output = Some(Output {
                digest,
                excerpt: Some(Excerpt {
                    stdout: Head::of(out),
                    stderr: Head::of(b""),
                }),
            });
            l
        };
        let records = [
            record("a", vec![with(9, b"the puzzle is <solvable>\n")]),
            record("b", vec![with(9, &[b'y'; 250])]),
            record("c", vec![with(8, b"other\n")]),
            record("d", vec![line("Tests/x.inp", "passed", "", Some(1))]),
            record("e", vec![line("Tests/x.inp", "passed", "", Some(1))]),
            // An older grading's line: its words alone.
            record(
                "f",
                vec![line(
                    "Tests/x.inp",
                    "WRONG VERDICT",
                    "said '<solvable>'",
                    Some(9),
                )],
            ),
        ];
        let names: Vec<String> = ["a", "b", "c", "d", "e", "f"].map(String::from).to_vec();
        let seen = Behaviour::of(&records, &names);
        let comparison = class(
            &["a", "b", "c", "d", "e", "f"],
            vec![pair(0, 1, 0.9), pair(0, 5, 0.9)],
        );
        let side = Source {
            path: "<b>.c".into(),
            bytes: b"x;\n".to_vec(),
        };
        let sides = [std::slice::from_ref(&side), std::slice::from_ref(&side)];
        // The section of the page of pair `p` on the answers they share.
        let answers_of = |p: usize| {
            let page = pair_page(
                &comparison,
                &comparison.pairs[p],
                sides,
                Some(&seen),
                &TemplateLines::default(),
            );
            page[page.find("<h2>Wrong answers they share</h2>").unwrap()..].to_string()
        };
        let answers = answers_of(0);
        // Three of the six gave it (by digest), two the right one.
        assert!(
            answers.contains("<td><code>Tests/x.inp</code></td><td class=\"n\">3 of 6</td><td class=\"n\">2 of 6</td>"),
            "{answers}"
        );
        assert!(
            answers.contains("<td>WRONG VERDICT: said &#39;&lt;solvable&gt;&#39;<br><small>stdout:</small> <code style=\"word-break:break-all\">the puzzle is &lt;solvable&gt;\\n</code><br><small>stderr:</small> <em>empty</em></td>"),
            "{answers}"
        );
        assert!(
            answers.contains(&format!("<code style=\"word-break:break-all\">{}</code> <small>(the first 200 of 250 bytes)</small>", "y".repeat(200))),
            "{answers}"
        );
        // With an older grading's line: the report's words alone.
        let answers = answers_of(1);
        assert!(
            answers.contains("<td>WRONG VERDICT: said &#39;&lt;solvable&gt;&#39;</td></tr>"),
            "{answers}"
        );
    }

    #[test]
    fn a_page_s_file_is_named_from_both_stems_and_bounded() {
        assert_eq!(page_file("ada", "b%2Fc"), "ada+b%2Fc.html");
        let (a, b) = ("a".repeat(200), "b".repeat(200));
        let long = page_file(&a, &b);
        assert!(long.len() < 255, "{long}");
        assert_ne!(long, page_file(&a, &"b".repeat(199)));
    }

    #[test]
    fn the_class_section_is_read_from_the_csv_as_a_stranger_s() {
        let comparison = class(
            &["a", "b", "c", "<d>", "e", "f", "=g"],
            vec![
                pair(0, 1, 0.95),
                pair(1, 2, 0.6),
                pair(3, 4, 0.5),
                pair(4, 5, 0.49),
                pair(5, 6, 0.7),
            ],
        );
        let dir = std::env::temp_dir().join(format!("similarity-section-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let class: Vec<Name> = comparison
            .names
            .iter()
            .map(|n| Name::parse(n).unwrap())
            .collect();
        // No file: no section.
        assert_eq!(Section::read(&dir, &class), None);
        std::fs::create_dir_all(dir.join(PAGES)).unwrap();
        assert_eq!(Section::read(&dir, &class), None);
        // The pages of two of the pairs, one of them a link: not linked.
        std::fs::write(dir.join(PAGES).join("a+b.html"), "page").unwrap();
        std::fs::write(dir.join("elsewhere.html"), "page").unwrap();
        std::os::unix::fs::symlink("../elsewhere.html", dir.join(PAGES).join("%3Cd%3E+e.html"))
            .unwrap();
        // Lines a stranger added: a name of no submission, a score that is
        // none, a pair twice, a formula's quote on a name that needs none
        // (no submission's).
        let csv = similarity_csv(&comparison)
            + "\"a\",\"zed\",0.900,0.900,,2,1\n\"a\",\"c\",1.5,0.9,,2,1\n\"a\",\"b\",0.950,0.950,,2,1\n\"'b\",\"c\",0.900,0.900,,2,1\n";
        std::fs::write(dir.join(CSV_FILE), &csv).unwrap();
        let section = Section::read(&dir, &class).unwrap();
        let html = section.html();
        assert!(
            html.contains("<tr><td>0.9 to 1</td><td class=\"n\">1</td></tr>"),
            "{html}"
        );
        assert!(html.contains("<tr><td>0.4 to 0.5</td><td class=\"n\">1</td></tr>"));
        assert!(
            html.contains("5 of the 21 pairs of the grading's 7 submissions"),
            "{html}"
        );
        assert!(html.contains("4 line(s) of similarity.csv are not a pair of this grading's submissions, and are left out (the first: line 7: &#39;zed&#39; is not a submission of the grading)"), "{html}");
        assert!(
            html.contains("<a href=\"similarity/a%2Bb.html\">a and b</a>"),
            "{html}"
        );
        assert!(
            html.contains("&lt;d&gt; and e <small>(no page)</small>"),
            "{html}"
        );
        // A name a spreadsheet would take for a formula, read back.
        assert!(html.contains("f and =g <small>(no page)</small>"), "{html}");
        assert!(!html.contains("e and f"));
        assert!(html.contains("<li>a, b, c</li>"), "{html}");
        // The highest first, whatever the file's order.
        assert!(html.find("a and b").unwrap() < html.find("f and =g").unwrap());
        // A file that is not a comparison's, or a link: said, not read.
        std::fs::write(dir.join(CSV_FILE), "a,b\n").unwrap();
        assert!(Section::read(&dir, &class)
            .unwrap()
            .html()
            .contains("cannot be read: its first line is not"));
        std::fs::remove_file(dir.join(CSV_FILE)).unwrap();
        std::os::unix::fs::symlink("elsewhere.html", dir.join(CSV_FILE)).unwrap();
        assert!(Section::read(&dir, &class)
            .unwrap()
            .html()
            .contains("cannot be read"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
