//! The files of a comparison of the class ([`crate::similarity`]):
//! `similarity.csv`, a line a pair that shares code (its names, its score,
//! the code's and the behaviour's), and `similarity-blocks.csv`, a line a
//! matched block (where it is on each side, how many submissions hold
//! it). Names are quoted, and a name a spreadsheet would take for a
//! formula starts with `'` ([`csv_quoted`]).

use crate::judging::class::{Class, Outcome as Judged};
use crate::publishing::html::{escape, head, href};
use crate::publishing::record::{csv_quoted, FixtureLine, Record};
use crate::shared::digest::{fnv1a, fnv1a_more};
use crate::similarity::behaviour;
use crate::similarity::behaviour::Outcome;
use crate::similarity::report::{decimal, Comparison, Lines, Pair};
use crate::similarity::Source;
use std::collections::HashMap;
use std::fmt::Write as _;

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

/// Whether a fixture's line is a right answer (no evidence): it passed,
/// or answered one of the ways the assignment leaves open. A FORMAT line
/// is not: its bytes are not the reference's, and a rare way of getting
/// them wrong is what copies share.
fn is_right(line: &FixtureLine) -> bool {
    matches!(line.class, Judged::Passed | Judged::Noted(Class::Open))
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
    let right = is_right(line);
    let answer = match (right, line.output) {
        (true, _) => 0,
        (false, Some(digest)) => digest,
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
/// sources side by side, each block's lines in its colour and numbered.
/// `sides` are the two submissions' sources, in the order of
/// [`Comparison::files`].
pub fn pair_page(
    comparison: &Comparison,
    pair: &Pair,
    sides: [&[Source]; 2],
    behaviour: Option<&Behaviour>,
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
    page.push_str("<h2>Side by side</h2>\n<p>Each line of a block has its colour and its number, <code>[n]</code>.</p>\n<div style=\"display:grid;grid-template-columns:1fr 1fr;gap:.6rem\">\n");
    let lines = [
        blocks.iter().map(|b| &b.a[..]).collect::<Vec<_>>(),
        blocks.iter().map(|b| &b.b[..]).collect::<Vec<_>>(),
    ];
    for ((side, sources), lines) in [pair.a, pair.b].into_iter().zip(sides).zip(lines) {
        write_side(&mut page, comparison, side, sources, &lines);
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

/// The wrong answers the pair shares, fixture by fixture, with what each
/// gave (the report's words) and how many of the class gave it.
fn write_answers(page: &mut String, comparison: &Comparison, pair: &Pair, seen: &Behaviour) {
    let shared = behaviour::shared(&seen.outcomes, pair.a, pair.b);
    page.push_str("<h2>Wrong answers they share</h2>\n<p>On each fixture both ran: the same wrong answer, byte for byte. An answer few of the class gave is evidence; one half the class gave is a common mistake (weight 0). Right answers are no evidence.</p>\n");
    if shared.is_empty() {
        page.push_str("<p>None.</p>\n");
        return;
    }
    let _ = writeln!(
        page,
        "<table><thead><tr><th>fixture</th><th class=\"n\">gave it</th><th class=\"n\">weight</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        escape(&comparison.names[pair.a]),
        escape(&comparison.names[pair.b])
    );
    let words = |p: usize, x: usize| {
        seen.lines
            .get(p)
            .and_then(|l| l.get(x).copied().flatten())
            .map_or(String::new(), |l| {
                format!("{}: {}", l.class.name(), l.detail)
            })
    };
    for s in &shared {
        let _ = writeln!(
            page,
            "<tr><td><code>{}</code></td><td class=\"n\">{} of {}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(&seen.fixtures[s.input]),
            s.gave,
            s.ran,
            decimal(s.weight),
            escape(&words(pair.a, s.input)),
            escape(&words(pair.b, s.input)),
        );
    }
    page.push_str("</tbody></table>\n");
}

/// The groups of three or more: the connected components of the pairs
/// worth a look by their score (at least [`WORTH_A_LOOK`], all of them),
/// each its submissions' indices sorted, the groups by their first.
pub fn groups(comparison: &Comparison) -> Vec<Vec<usize>> {
    let n = comparison.names.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for p in comparison
        .pairs
        .iter()
        .filter(|p| p.millis() >= WORTH_A_LOOK)
    {
        let (x, y) = (root(&mut parent, p.a), root(&mut parent, p.b));
        parent[x.max(y)] = x.min(y);
    }
    let mut by_root: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for s in 0..n {
        let r = root(&mut parent, s);
        by_root.entry(r).or_default().push(s);
    }
    by_root.into_values().filter(|g| g.len() >= 3).collect()
}

/// The class page's section on similarity: the distribution of the
/// pairs' scores (a count per tenth), the pairs worth a look linked to
/// their pages (`pages`, their file names in [`worth_a_look`]'s order, in
/// the folder [`PAGES`]), and the groups of three or more.
pub fn class_section(comparison: &Comparison, pages: &[String]) -> String {
    let n = comparison.names.len();
    let mut section = String::from("<section id=\"similarity\">\n<h2>Similarity</h2>\n<p><strong>Evidence to look at, never a verdict.</strong> A score alone proves nothing (MOSS's own warning): read a pair's page, its blocks and its shared wrong answers, before asking anything of a student.</p>\n");
    let mut bins = [0usize; 10];
    for p in &comparison.pairs {
        bins[(p.millis() / 100).min(9) as usize] += 1;
    }
    let _ = writeln!(
        section,
        "<p>{} submissions compared: {} of their {} pairs share code or rare wrong answers (<a href=\"./similarity.csv\">similarity.csv</a>); the others score 0.</p>\n<table><caption>Pairs by score</caption><thead><tr><th>score</th><th class=\"n\">pairs</th></tr></thead><tbody>",
        n,
        comparison.pairs.len(),
        n * n.saturating_sub(1) / 2
    );
    for (i, count) in bins.iter().enumerate().rev() {
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
    let worth: Vec<&Pair> = worth_a_look(comparison).collect();
    if worth.is_empty() {
        section.push_str("<p>None scores 0.5 or more.</p>\n");
    } else {
        let _ = writeln!(
            section,
            "<p>Those scoring 0.5 or more, the highest first (at most {MAX_PAGES}), each with a page to print.</p>\n<table><thead><tr><th>pair</th><th class=\"n\">score</th><th class=\"n\">code</th><th class=\"n\">behaviour</th></tr></thead><tbody>"
        );
        for (pair, file) in worth.iter().zip(pages) {
            let _ = writeln!(
                section,
                "<tr><td><a href=\"{}\">{} and {}</a></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                escape(&format!("{PAGES}/{}", href(file).trim_start_matches("./"))),
                escape(&comparison.names[pair.a]),
                escape(&comparison.names[pair.b]),
                decimal(pair.score()),
                decimal(pair.code),
                pair.behaviour.map(decimal).unwrap_or_default(),
            );
        }
        section.push_str("</tbody></table>\n");
    }
    section.push_str("<h3>Groups of three or more</h3>\n");
    let groups = groups(comparison);
    if groups.is_empty() {
        section.push_str(
            "<p>None: no three submissions are linked by pairs scoring 0.5 or more.</p>\n",
        );
    } else {
        section.push_str("<p>Submissions linked by pairs scoring 0.5 or more (one pair may link two that share little).</p>\n<ul>\n");
        for group in groups {
            let names: Vec<String> = group
                .iter()
                .map(|&s| escape(&comparison.names[s]).to_string())
                .collect();
            let _ = writeln!(section, "<li>{}</li>", names.join(", "));
        }
        section.push_str("</ul>\n");
    }
    section.push_str("</section>\n");
    section
}

/// `page` (the class page) with `section` put at the end of its body.
pub fn with_section(page: &str, section: &str) -> String {
    match page.rfind("</body>") {
        Some(at) => format!("{}{section}{}", &page[..at], &page[at..]),
        None => format!("{page}{section}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::report::{Match, Pair};
    use crate::similarity::At;

    fn at(file: u16, line: u32) -> At {
        At { file, line }
    }

    fn line(fixture: &str, class: &str, detail: &str, output: Option<u64>) -> FixtureLine {
        FixtureLine {
            fixture: fixture.into(),
            category: "sol".into(),
            class: class.into(),
            points: 0.0,
            max_points: 1.0,
            visibility: "visible".into(),
            seconds: (class != "NOT RUN").then(|| std::time::Duration::from_millis(5)),
            detail: detail.into(),
            output,
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
    fn a_page_s_file_is_named_from_both_stems_and_bounded() {
        assert_eq!(page_file("ada", "b%2Fc"), "ada+b%2Fc.html");
        let (a, b) = ("a".repeat(200), "b".repeat(200));
        let long = page_file(&a, &b);
        assert!(long.len() < 255, "{long}");
        assert_ne!(long, page_file(&a, &"b".repeat(199)));
    }

    #[test]
    fn the_class_section_counts_tenths_links_the_pairs_and_finds_groups() {
        let comparison = class(
            &["a", "b", "c", "<d>", "e", "f"],
            vec![
                pair(0, 1, 0.95),
                pair(1, 2, 0.6),
                pair(3, 4, 0.5),
                pair(4, 5, 0.49),
            ],
        );
        assert_eq!(groups(&comparison), [vec![0, 1, 2]]);
        let pages: Vec<String> = ["a+b.html", "b+c.html", "%3Cd%3E+e.html"]
            .map(String::from)
            .to_vec();
        let section = class_section(&comparison, &pages);
        assert!(section.contains("<tr><td>0.9 to 1</td><td class=\"n\">1</td></tr>"));
        assert!(section.contains("<tr><td>0.4 to 0.5</td><td class=\"n\">1</td></tr>"));
        assert!(
            section.contains("<a href=\"similarity/%253Cd%253E%2Be.html\">&lt;d&gt; and e</a>"),
            "{section}"
        );
        assert!(!section.contains("f</a>"));
        assert!(section.contains("<li>a, b, c</li>"));
        assert_eq!(
            with_section("<body>x</body>\n</html>\n", "S"),
            "<body>xS</body>\n</html>\n"
        );
    }
}
