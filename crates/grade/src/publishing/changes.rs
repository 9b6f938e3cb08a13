//! What changed from one grading to another, and why: a [`Change`] a
//! submission whose marks or fixtures' outcomes differ, each with its
//! reasons as far as the two gradings can tell them, computed once
//! ([`compare`]) from the two gradings' manifests and records, and shown
//! by `summary.txt`, `grade-all`'s stdout and `puzzle-grade diff`
//! ([`Comparison::text`]) and by the class page.
//!
//! The reasons a grading can tell, in the order they are given (every one
//! that holds; see [`Reason`]): the submission is in one grading only; it
//! could not be graded in one (an error of the system, no mark); its
//! sources changed (the digest of its files, [`Record::sources`]); a
//! fixture whose outcome changed for it changed (its digest, in
//! `grading.json`); the marking scheme changed (its digest, among the
//! options); another option that decides marks changed; the sandbox
//! changed. When none holds, the same inputs gave another outcome: the
//! program is flaky, unless one of the gradings did not record what would
//! tell (a grading of an older version), and then the reason is unknown,
//! and why.

use crate::marking::marks::points;
use crate::publishing::grades::{fixtures_differ, Earlier, Manifest};
use crate::publishing::record::{FixtureLine, Record};
use std::collections::BTreeSet;
use std::fmt::{self, Write as _};
use std::path::Path;

/// One grading as [`compare`] reads it: its manifest (none for a grading
/// of a version before `grading.json`) and its records.
#[derive(Clone, Copy)]
pub struct Grading<'a> {
    /// What was graded, how, and how far.
    pub manifest: Option<&'a Manifest>,
    /// A record a submission.
    pub records: &'a [Record],
}

/// A submission's mark in one grading.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// Not in that grading.
    Absent,
    /// It could not be graded there (an error of the system): no mark.
    NotGraded,
    /// It was not built.
    NotBuilt,
    /// Its score, of the most it could score.
    Score {
        /// The points it scored.
        score: f64,
        /// The most it could score.
        max: f64,
    },
}

impl Mark {
    /// The mark `record` gives.
    fn of(record: Option<&Record>) -> Mark {
        match record {
            None => Mark::Absent,
            Some(r) if r.row.trouble.is_some() => Mark::NotGraded,
            Some(r) => match &r.row.marks {
                None => Mark::NotBuilt,
                Some(m) => Mark::Score {
                    score: m.score,
                    max: m.max,
                },
            },
        }
    }

    /// In words: `62.5` (`62.5 of 90` when `of`), `not built`, `not
    /// graded`, `-` (not in the grading).
    pub fn shown(&self, of: bool) -> String {
        match self {
            Mark::Absent => "-".into(),
            Mark::NotGraded => "not graded".into(),
            Mark::NotBuilt => "not built".into(),
            Mark::Score { score, max } if of => format!("{} of {}", points(*score), points(*max)),
            Mark::Score { score, .. } => points(*score),
        }
    }

    /// Whether two marks are the same as the summaries show them (to the
    /// hundredth).
    fn same(&self, other: &Mark) -> bool {
        match (self, other) {
            (Mark::Score { score, max }, Mark::Score { score: s, max: m }) => {
                points(*score) == points(*s) && points(*max) == points(*m)
            }
            (a, b) => a == b,
        }
    }

    /// The maximum, if it is a score.
    fn max(&self) -> Option<String> {
        match self {
            Mark::Score { max, .. } => Some(points(*max)),
            _ => None,
        }
    }
}

/// A fixture whose outcome changed for a submission: its class in each
/// grading (`passed`, `WRONG VERDICT`; none when that grading's record has
/// no line for it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixtureChange {
    /// The fixture as reports show it.
    pub fixture: String,
    /// Its outcome in the old grading.
    pub old: Option<String>,
    /// Its outcome in the new.
    pub new: Option<String>,
}

impl fmt::Display for FixtureChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |o: &Option<String>| o.clone().unwrap_or_else(|| "(no such fixture)".into());
        write!(
            f,
            "{}: {} → {}",
            self.fixture,
            shown(&self.old),
            shown(&self.new)
        )
    }
}

/// Why a submission's marks changed, as far as the gradings tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// It is in the new grading only.
    Added,
    /// It is in the old grading only.
    Removed,
    /// It could not be graded in one of them (an error of the system).
    NotGraded,
    /// Its sources changed: their digests, old and new.
    Sources(u64, u64),
    /// Fixtures whose outcome changed for it and whose bytes changed, or
    /// that are in one grading only: each in words (`Tests/x.inp (fnv1a
    /// ... → ...)`).
    Fixtures(Vec<String>),
    /// The marking scheme changed (old → new, with their digests).
    Scheme(String),
    /// Options that decide the marks changed, each `old → new`.
    Options(Vec<String>),
    /// The sandbox changed (old → new).
    Sandbox(String),
    /// None of these: the same sources, fixtures, scheme, options and
    /// sandbox gave another outcome.
    Flaky,
    /// None of these, but a grading did not record what would tell: what.
    Unknown(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Added => write!(f, "not in the old grading"),
            Reason::Removed => write!(f, "not in the new grading"),
            Reason::NotGraded => write!(
                f,
                "it could not be graded in one of the gradings (an error of the system, not a mark)"
            ),
            Reason::Sources(old, new) => {
                write!(f, "its sources changed (fnv1a {old:016x} → {new:016x})")
            }
            Reason::Fixtures(which) => write!(f, "the fixtures changed ({})", which.join(", ")),
            Reason::Scheme(how) => write!(f, "the scheme changed ({how})"),
            Reason::Options(which) => write!(f, "the options changed ({})", which.join(", ")),
            Reason::Sandbox(how) => write!(f, "the sandbox changed ({how})"),
            Reason::Flaky => write!(
                f,
                "flaky: the same sources, fixtures, scheme, options and sandbox gave another outcome"
            ),
            Reason::Unknown(what) => write!(f, "unknown: {what}"),
        }
    }
}

/// A submission whose marks, or whose outcome on a fixture, changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Its name, shown.
    pub name: String,
    /// Its mark in the old grading.
    pub old: Mark,
    /// Its mark in the new.
    pub new: Mark,
    /// The fixtures whose outcome changed, in the new grading's order
    /// (none when it was built in only one of them: the marks say so).
    pub fixtures: Vec<FixtureChange>,
    /// Why, in the order of [`Reason`]'s variants; never empty.
    pub reasons: Vec<Reason>,
}

impl Change {
    /// Its old and new marks in words, each with its maximum when that
    /// changed too (`62.5 of 90`).
    pub fn shown(&self) -> (String, String) {
        let of = matches!((self.old.max(), self.new.max()), (Some(a), Some(b)) if a != b);
        (self.old.shown(of), self.new.shown(of))
    }

    /// `old → new`.
    pub fn marks(&self) -> String {
        let (old, new) = self.shown();
        format!("{old} → {new}")
    }
}

/// What differs between the inputs of two gradings, for all their
/// submissions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    /// The folders graded, when they differ (`old → new`).
    pub folder: Option<String>,
    /// The options that decide marks, but the scheme, each `old → new`.
    pub options: Vec<String>,
    /// The scheme, `old → new`.
    pub scheme: Option<String>,
    /// Fixtures changed: each by name, and how (in words).
    pub fixtures: Vec<(String, String)>,
    /// The sandbox, `old → new`.
    pub sandbox: Option<String>,
    /// What a grading did not record, so that it cannot be told.
    pub unknown: Vec<String>,
}

/// Two gradings compared: what differs in their inputs, and each
/// submission that changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The old grading, in words (`the grading of /x/subs begun ...`).
    pub old: String,
    /// What differs in the inputs.
    pub inputs: Inputs,
    /// The submissions that changed, by name.
    pub changes: Vec<Change>,
}

/// The options a grading records (`--strict --timeout 5 ... fixtures x`)
/// one by one: each starts at a word that starts with `--`, or at
/// `fixtures` (a fixture folder).
pub fn option_items(options: &str) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for word in options.split(' ').filter(|w| !w.is_empty()) {
        match items.last_mut() {
            Some(item) if !word.starts_with("--") && word != "fixtures" => {
                item.push(' ');
                item.push_str(word);
            }
            _ => items.push(word.to_string()),
        }
    }
    items
}

/// An option's name: its first word.
fn key(item: &str) -> &str {
    item.split(' ').next().unwrap_or(item)
}

/// The scheme as an option records it, by its digest only (`--scheme
/// FILE (fnv1a X)`: the same text under another name is the same scheme).
fn scheme_digest(item: &str) -> &str {
    item.rsplit_once("(fnv1a ").map_or(item, |(_, d)| d)
}

/// The options that differ (`--format`, which decides no mark, and the
/// scheme aside) and the scheme when it differs, each `old → new`.
fn options_differ(old: &str, new: &str) -> (Vec<String>, Option<String>) {
    let (old, new) = (option_items(old), option_items(new));
    let scheme = |items: &[String]| items.iter().find(|i| key(i) == "--scheme").cloned();
    let (a, b) = (scheme(&old), scheme(&new));
    let scheme = match (&a, &b) {
        (Some(a), Some(b)) if scheme_digest(a) == scheme_digest(b) => None,
        (None, None) => None,
        _ => Some(format!(
            "{} → {}",
            a.as_deref().unwrap_or("the default"),
            b.as_deref().unwrap_or("the default")
        )),
    };
    let kept = |items: &[String]| -> Vec<String> {
        items
            .iter()
            .filter(|i| !matches!(key(i), "--scheme" | "--format"))
            .cloned()
            .collect()
    };
    let (old, new) = (kept(&old), kept(&new));
    let gone: Vec<&String> = old.iter().filter(|i| !new.contains(i)).collect();
    let came: Vec<&String> = new.iter().filter(|i| !old.contains(i)).collect();
    let mut differ = Vec::new();
    let keys: Vec<&str> = gone.iter().chain(&came).map(|i| key(i)).collect();
    let mut seen = BTreeSet::new();
    for k in keys {
        if !seen.insert(k) {
            continue;
        }
        let before: Vec<&str> = gone
            .iter()
            .filter(|i| key(i) == k)
            .map(|i| i.as_str())
            .collect();
        let after: Vec<&str> = came
            .iter()
            .filter(|i| key(i) == k)
            .map(|i| i.as_str())
            .collect();
        let side = |items: &[&str]| {
            if items.is_empty() {
                format!("no {k}")
            } else {
                items.join(" ")
            }
        };
        differ.push(format!("{} → {}", side(&before), side(&after)));
    }
    (differ, scheme)
}

/// What differs between the inputs of `old` and `new`.
fn inputs(old: Option<&Manifest>, new: Option<&Manifest>) -> Inputs {
    let mut inputs = Inputs::default();
    let (Some(old), Some(new)) = (old, new) else {
        inputs
            .unknown
            .push("a grading has no grading.json (an older version's): its options, fixtures and sandbox are not known".into());
        return inputs;
    };
    if old.folder != new.folder {
        inputs.folder = Some(format!("{} → {}", old.folder, new.folder));
    }
    (inputs.options, inputs.scheme) = options_differ(&old.options, &new.options);
    if old.fixtures.is_empty() || new.fixtures.is_empty() {
        inputs
            .unknown
            .push("a grading recorded no digests of its fixtures (an older version's)".into());
    } else if fixtures_differ(&old.fixtures, &new.fixtures).is_some() {
        for (name, digest) in &old.fixtures {
            match new.fixtures.iter().find(|(n, _)| n == name) {
                None => inputs
                    .fixtures
                    .push((name.clone(), "only in the old grading".into())),
                Some((_, d)) if d != digest => inputs
                    .fixtures
                    .push((name.clone(), format!("fnv1a {digest:016x} → {d:016x}"))),
                Some(_) => {}
            }
        }
        for (name, _) in &new.fixtures {
            if !old.fixtures.iter().any(|(n, _)| n == name) {
                inputs
                    .fixtures
                    .push((name.clone(), "only in the new grading".into()));
            }
        }
    }
    // The uids a sandbox's line names depend on the process.
    let plain = |s: &str| s.replace(|c: char| c.is_ascii_digit(), "");
    if plain(&old.sandbox) != plain(&new.sandbox) {
        inputs.sandbox = Some(format!("{} → {}", old.sandbox, new.sandbox));
    }
    inputs
}

/// Whether `grading` set out to grade `name` and has not yet: it is
/// incomplete (stopped, or being written), so no record is no change.
fn not_yet(grading: Grading, name: &str) -> bool {
    grading
        .manifest
        .is_some_and(|m| !m.complete && m.names_to_grade().iter().any(|n| n == name))
}

/// The fixtures whose outcome for a submission changed (both built), and
/// those of its lines whose points changed without the outcome.
fn outcomes(old: &[FixtureLine], new: &[FixtureLine]) -> (Vec<FixtureChange>, Vec<String>) {
    let mut changed = Vec::new();
    let mut repriced = Vec::new();
    for line in new {
        match old.iter().find(|l| l.fixture == line.fixture) {
            Some(was) if was.class != line.class => changed.push(FixtureChange {
                fixture: line.fixture.clone(),
                old: Some(was.class.clone()),
                new: Some(line.class.clone()),
            }),
            Some(was) => {
                if points(was.points) != points(line.points)
                    || points(was.max_points) != points(line.max_points)
                {
                    repriced.push(line.fixture.clone());
                }
            }
            None => changed.push(FixtureChange {
                fixture: line.fixture.clone(),
                old: None,
                new: Some(line.class.clone()),
            }),
        }
    }
    for was in old {
        if !new.iter().any(|l| l.fixture == was.fixture) {
            changed.push(FixtureChange {
                fixture: was.fixture.clone(),
                old: Some(was.class.clone()),
                new: None,
            });
        }
    }
    (changed, repriced)
}

/// Why `old` became `new` (both records of one submission), given what
/// differs in the gradings' `inputs`: every reason that holds, in
/// [`Reason`]'s order; flaky or unknown when none does.
fn reasons(old: &Record, new: &Record, touched: &[String], inputs: &Inputs) -> Vec<Reason> {
    let mut reasons = Vec::new();
    if old.row.trouble.is_some() || new.row.trouble.is_some() {
        reasons.push(Reason::NotGraded);
    }
    match (old.sources, new.sources) {
        (Some(a), Some(b)) if a != b => reasons.push(Reason::Sources(a, b)),
        _ => {}
    }
    let fixtures: Vec<String> = inputs
        .fixtures
        .iter()
        .filter(|(name, _)| touched.contains(name))
        .map(|(name, how)| format!("{name}: {how}"))
        .collect();
    if !fixtures.is_empty() {
        reasons.push(Reason::Fixtures(fixtures));
    }
    if let Some(how) = &inputs.scheme {
        reasons.push(Reason::Scheme(how.clone()));
    }
    if !inputs.options.is_empty() {
        reasons.push(Reason::Options(inputs.options.clone()));
    }
    if let Some(how) = &inputs.sandbox {
        reasons.push(Reason::Sandbox(how.clone()));
    }
    if reasons.is_empty() {
        let mut unknown = inputs.unknown.clone();
        if old.sources.is_none() || new.sources.is_none() {
            unknown.push("a grading recorded no digest of its sources".into());
        }
        reasons.push(if unknown.is_empty() {
            Reason::Flaky
        } else {
            Reason::Unknown(unknown.join("; "))
        });
    }
    reasons
}

/// The grading `manifest` describes, in words: `the grading of FOLDER
/// begun DATE` (`, incomplete`).
pub fn describe(manifest: Option<&Manifest>) -> String {
    match manifest {
        None => "a grading without grading.json (an older version's)".into(),
        Some(m) => format!(
            "the grading of {} begun {}{}",
            m.folder,
            m.started,
            if m.complete { "" } else { ", incomplete" }
        ),
    }
}

/// What changed since the grading `kept` in `grades/previous/` to the
/// grading of `manifest` and `records` (a merge's, or one whose gradebook
/// is written afterwards).
pub fn since_previous(
    grades: &Path,
    kept: &Earlier,
    manifest: &Manifest,
    records: &[Record],
) -> Comparison {
    compare(
        format!(
            "{} (kept in {}/previous/)",
            describe(kept.manifest.as_ref()),
            grades.display()
        ),
        Grading {
            manifest: kept.manifest.as_ref(),
            records: &kept.records,
        },
        Grading {
            manifest: Some(manifest),
            records,
        },
    )
}

/// The two gradings compared: each submission whose marks or fixtures'
/// outcomes differ, with its reasons. A submission that an incomplete
/// grading set out to grade and has not graded yet is no change (so that
/// a grading being written, or stopped, lists only what it has graded);
/// `old` is the old grading in words.
pub fn compare(old_words: String, old: Grading, new: Grading) -> Comparison {
    let inputs = inputs(old.manifest, new.manifest);
    let names: BTreeSet<&str> = old
        .records
        .iter()
        .chain(new.records)
        .map(|r| r.row.name.as_str())
        .collect();
    let mut changes = Vec::new();
    for name in names {
        let was = old.records.iter().find(|r| r.row.name == name);
        let now = new.records.iter().find(|r| r.row.name == name);
        let (before, after) = (Mark::of(was), Mark::of(now));
        let (fixtures, reasons) = match (was, now) {
            (None, Some(_)) if not_yet(old, name) => continue,
            (Some(_), None) if not_yet(new, name) => continue,
            (None, _) => (Vec::new(), vec![Reason::Added]),
            (_, None) => (Vec::new(), vec![Reason::Removed]),
            (Some(was), Some(now)) => {
                let (fixtures, repriced) = if was.row.marks.is_some() && now.row.marks.is_some() {
                    outcomes(&was.fixtures, &now.fixtures)
                } else {
                    (Vec::new(), Vec::new())
                };
                if fixtures.is_empty() && before.same(&after) {
                    continue;
                }
                let touched: Vec<String> = fixtures
                    .iter()
                    .map(|o| o.fixture.clone())
                    .chain(repriced)
                    .collect();
                let reasons = reasons(was, now, &touched, &inputs);
                (fixtures, reasons)
            }
        };
        changes.push(Change {
            name: name.to_string(),
            old: before,
            new: after,
            fixtures,
            reasons,
        });
    }
    Comparison {
        old: old_words,
        inputs,
        changes,
    }
}

impl Comparison {
    /// Its text, as `summary.txt`, `grade-all`'s stdout and `diff` show
    /// it: a line saying against what and how many changed, the inputs
    /// that differ (`the gradings differ: options: ...`), then a line a
    /// submission (`NAME: OLD → NEW: REASON; REASON`) and a line a fixture
    /// whose outcome changed under it, each indented.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let count = self.changes.len();
        let _ = if count == 0 {
            writeln!(out, "no marks changed since {}", self.old)
        } else {
            writeln!(out, "changed since {}: {count} submission(s)", self.old)
        };
        for line in self.input_lines() {
            let _ = writeln!(out, "  the gradings differ: {line}");
        }
        for change in &self.changes {
            let reasons: Vec<String> = change.reasons.iter().map(|r| r.to_string()).collect();
            let _ = writeln!(
                out,
                "  {}: {}: {}",
                change.name,
                change.marks(),
                reasons.join("; ")
            );
            for outcome in &change.fixtures {
                let _ = writeln!(out, "      {outcome}");
            }
        }
        out
    }

    /// The inputs that differ, a line each (`options: --timeout 1 →
    /// --timeout 5`).
    pub fn input_lines(&self) -> Vec<String> {
        let inputs = &self.inputs;
        let mut lines = Vec::new();
        if let Some(how) = &inputs.folder {
            lines.push(format!("folder: {how}"));
        }
        if !inputs.options.is_empty() {
            lines.push(format!("options: {}", inputs.options.join(", ")));
        }
        if let Some(how) = &inputs.scheme {
            lines.push(format!("scheme: {how}"));
        }
        for (name, how) in &inputs.fixtures {
            lines.push(format!("fixture {name}: {how}"));
        }
        if let Some(how) = &inputs.sandbox {
            lines.push(format!("sandbox: {how}"));
        }
        for what in &inputs.unknown {
            lines.push(format!("not known: {what}"));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::judge::Class;
    use crate::publishing::record::{Row, RowMarks, CLASSES};
    use std::time::Duration;

    fn manifest(options: &str, fixtures: &[(&str, u64)]) -> Manifest {
        Manifest {
            folder: "/subs".into(),
            folder_names: vec!["ann".into(), "bob".into(), "cat".into(), "dan".into()],
            options: options.into(),
            sandbox: "sandbox: uid 12345".into(),
            shard: None,
            started: "2026-11-27T21:30:05Z".into(),
            updated: "2026-11-27T21:31:05Z".into(),
            complete: true,
            fixtures: fixtures.iter().map(|(f, d)| (f.to_string(), *d)).collect(),
            gradebook: None,
        }
    }

    /// A record of `name` whose fixtures `a`, `b`, `c` have these classes
    /// (a point each when passed), its sources `sources`.
    fn record(name: &str, classes: [&str; 3], sources: Option<u64>) -> Record {
        let fixtures: Vec<FixtureLine> = ["a", "b", "c"]
            .iter()
            .zip(classes)
            .map(|(f, class)| FixtureLine {
                fixture: format!("Tests/{f}.inp"),
                category: "sol".into(),
                class: class.into(),
                points: if class == "passed" { 1.0 } else { 0.0 },
                max_points: 1.0,
                visibility: "visible".into(),
                seconds: Some(Duration::from_millis(10)),
                detail: String::new(),
            })
            .collect();
        let mut counts = [0; CLASSES];
        for class in Class::ALL {
            counts[class as usize] = classes.iter().filter(|c| **c == class.name()).count();
        }
        let passed = classes.iter().filter(|c| **c == "passed").count();
        Record {
            row: Row {
                name: name.into(),
                note: String::new(),
                trouble: None,
                marks: Some(RowMarks {
                    passed,
                    failed: 3 - passed,
                    classes: counts,
                    score: passed as f64,
                    max: 3.0,
                    fuzz: None,
                    seconds: Duration::from_millis(30),
                    slowest: None,
                }),
            },
            fixtures,
            causes: Vec::new(),
            sources,
        }
    }

    const P: &str = "passed";
    const W: &str = "WRONG VERDICT";
    const FIXTURES: [(&str, u64); 3] = [("Tests/a.inp", 1), ("Tests/b.inp", 2), ("Tests/c.inp", 3)];

    #[test]
    fn each_change_is_named_with_every_reason_that_holds() {
        let old_manifest = manifest("--timeout 1 --memory 1024", &FIXTURES);
        let new_manifest = manifest(
            "--timeout 5 --memory 1024",
            &[("Tests/a.inp", 1), ("Tests/b.inp", 20), ("Tests/c.inp", 3)],
        );
        let old = [
            record("ann", [P, P, P], Some(1)),
            record("bob", [P, W, P], Some(2)),
            record("cat", [W, W, W], Some(3)),
            record("dan", [P, P, W], Some(4)),
        ];
        let new = [
            record("ann", [P, P, P], Some(1)),
            record("bob", [P, P, P], Some(2)),
            record("cat", [W, W, W], Some(30)),
            record("dan", [W, P, W], Some(4)),
            record("eve", [P, P, P], Some(5)),
        ];
        let compared = compare(
            describe(Some(&old_manifest)),
            Grading {
                manifest: Some(&old_manifest),
                records: &old,
            },
            Grading {
                manifest: Some(&new_manifest),
                records: &new,
            },
        );
        let names: Vec<&str> = compared.changes.iter().map(|c| c.name.as_str()).collect();
        // ann is the same; cat's sources changed but not its marks.
        assert_eq!(names, ["bob", "dan", "eve"]);
        let timeout = Reason::Options(vec!["--timeout 1 → --timeout 5".into()]);
        let bob = &compared.changes[0];
        assert_eq!(bob.marks(), "2 → 3");
        assert_eq!(
            bob.fixtures,
            [FixtureChange {
                fixture: "Tests/b.inp".into(),
                old: Some(W.into()),
                new: Some(P.into())
            }]
        );
        assert_eq!(
            bob.reasons,
            [
                Reason::Fixtures(vec![
                    "Tests/b.inp: fnv1a 0000000000000002 → 0000000000000014".into()
                ]),
                timeout.clone()
            ]
        );
        // dan failed a fixture that did not change: the options only.
        assert_eq!(compared.changes[1].reasons, [timeout]);
        assert_eq!(compared.changes[2].reasons, [Reason::Added]);
        assert_eq!(compared.changes[2].marks(), "- → 3");
        let text = compared.text();
        assert!(
            text.starts_with("changed since the grading of /subs begun 2026-11-27T21:30:05Z: 3 submission(s)\n  the gradings differ: options: --timeout 1 → --timeout 5\n  the gradings differ: fixture Tests/b.inp: fnv1a 0000000000000002 → 0000000000000014\n  bob: 2 → 3: the fixtures changed (Tests/b.inp: fnv1a"),
            "{text}"
        );
        assert!(
            text.contains("\n      Tests/b.inp: WRONG VERDICT → passed\n"),
            "{text}"
        );
    }

    #[test]
    fn the_same_inputs_and_another_outcome_is_flaky_and_sources_are_named() {
        let m = manifest("--timeout 5", &FIXTURES);
        let mut other = m.clone();
        // Another uid in the sandbox's line is the same sandbox.
        other.sandbox = "sandbox: uid 54321".into();
        let old = [
            record("ann", [P, W, P], Some(1)),
            record("bob", [P, P, P], Some(2)),
        ];
        let new = [
            record("ann", [P, P, P], Some(1)),
            record("bob", [W, P, P], Some(9)),
        ];
        let grading = |manifest, records| Grading {
            manifest: Some(manifest),
            records,
        };
        let compared = compare(String::new(), grading(&m, &old), grading(&other, &new));
        assert_eq!(compared.inputs, Inputs::default());
        assert_eq!(compared.changes[0].reasons, [Reason::Flaky]);
        assert_eq!(compared.changes[1].reasons, [Reason::Sources(2, 9)]);
        // Without the digests of the sources (an older grading): unknown.
        let older = [record("ann", [P, W, P], None)];
        let compared = compare(
            String::new(),
            grading(&m, &older),
            grading(&other, &new[..1]),
        );
        assert!(
            matches!(&compared.changes[0].reasons[..], [Reason::Unknown(why)] if why.contains("no digest of its sources"))
        );
        // The same grading: nothing changed.
        assert!(compare(String::new(), grading(&m, &new), grading(&m, &new))
            .changes
            .is_empty());
    }

    #[test]
    fn a_grading_not_finished_lists_only_what_it_graded_and_the_scheme_is_its_digest() {
        let old_manifest = manifest("--scheme s.txt (fnv1a 00000000000000aa)", &FIXTURES);
        let mut new_manifest = manifest("--scheme t.txt (fnv1a 00000000000000aa)", &FIXTURES);
        new_manifest.complete = false;
        let old = [
            record("ann", [P, P, P], Some(1)),
            record("bob", [P, P, P], Some(2)),
        ];
        let new = [record("ann", [P, P, W], Some(1))];
        let compared = compare(
            String::new(),
            Grading {
                manifest: Some(&old_manifest),
                records: &old,
            },
            Grading {
                manifest: Some(&new_manifest),
                records: &new,
            },
        );
        // bob is not graded yet: no change; the scheme renamed is the same.
        assert_eq!(compared.changes.len(), 1);
        assert_eq!(compared.changes[0].reasons, [Reason::Flaky]);
        new_manifest.options = "--scheme s.txt (fnv1a 00000000000000bb) --format junit".into();
        new_manifest.complete = true;
        let compared = compare(
            String::new(),
            Grading {
                manifest: Some(&old_manifest),
                records: &old,
            },
            Grading {
                manifest: Some(&new_manifest),
                records: &new,
            },
        );
        assert_eq!(
            compared.changes[0].reasons,
            [Reason::Scheme(
                "--scheme s.txt (fnv1a 00000000000000aa) → --scheme s.txt (fnv1a 00000000000000bb)"
                    .into()
            )]
        );
        assert_eq!(compared.changes[1].reasons, [Reason::Removed]);
    }

    #[test]
    fn options_are_compared_one_by_one() {
        assert_eq!(
            option_items(
                "--strict --timeout 5 --read-only /a b --scheme x (fnv1a 01) fixtures my tests"
            ),
            [
                "--strict",
                "--timeout 5",
                "--read-only /a b",
                "--scheme x (fnv1a 01)",
                "fixtures my tests"
            ]
        );
        let (options, scheme) = options_differ(
            "--strict --timeout 5 --memory 1024 fixtures a",
            "--timeout 10 --memory 1024 --format junit fixtures a fixtures b",
        );
        assert_eq!(
            options,
            [
                "--strict → no --strict",
                "--timeout 5 → --timeout 10",
                "no fixtures → fixtures b"
            ]
        );
        assert_eq!(scheme, None);
    }
}
