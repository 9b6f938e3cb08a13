//! What changed from one grading to another, and why: a [`Change`] a
//! submission whose marks or fixtures' outcomes differ, each with its
//! reasons as far as the two gradings can tell them, computed once
//! ([`compare`]) from the two gradings' manifests and records, and shown
//! by `summary.txt`, `grade-all`'s stdout and `puzzle-grade diff`
//! ([`Comparison::text`]) and by the class page.
//!
//! A reason is a change that touches the fixture whose outcome changed,
//! never every change the gradings differ in: the fixture's own bytes
//! (its digest, in `grading.json`), its own time limit (when its outcome
//! went to or from a TIMEOUT) or weight (its worth), an option that
//! decides such an outcome (`--strict` a format difference or an exit
//! status, `--memory` a MEMORY LIMIT or a crash...). Each fixture's line
//! says what touched it; the submission's reasons, in the order of
//! [`Reason`], gather them, after those of the whole submission: it is in
//! one grading only; it could not be graded in one (an error of the
//! system, no mark); its sources changed (the digest of its files,
//! [`Record::sources`]); the sandbox changed. A fixture that nothing
//! touched gave another outcome from the same inputs: the program is
//! flaky, unless one of the gradings did not record what would tell (a
//! grading of an older version), and then the reason is unknown, and why.
//! The digests are in the inputs that differ, once a comparison.

use crate::judging::class::{Class, Outcome};
use crate::marking::marks::points;
#[cfg(test)]
use crate::publishing::grades::Terms;
use crate::publishing::grades::{read_previous, Earlier, Manifest};
use crate::publishing::options::{Options, Setting};
use crate::publishing::record::{FixtureLine, Record};
use crate::shared::error::Error;
use crate::shared::machine;
use crate::shared::name::Name;
use std::collections::{BTreeMap, BTreeSet};
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

/// A fixture whose outcome, or whose worth, changed for a submission: its
/// class in each grading (`passed`, `WRONG VERDICT`; none when that
/// grading's record has no line for it), and what touched it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixtureChange {
    /// The fixture as reports show it.
    pub fixture: String,
    /// Its outcome in the old grading.
    pub old: Option<Outcome>,
    /// Its outcome in the new.
    pub new: Option<Outcome>,
    /// What of the inputs that decide this fixture changed, each in words
    /// (`its bytes changed`, `its time limit 1 s → 5 s`, `--strict → no
    /// --strict`); empty when nothing did, or when a change of the whole
    /// submission (its sources, the sandbox) is its reason.
    pub why: Vec<String>,
}

impl fmt::Display for FixtureChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |o: &Option<Outcome>| o.map_or("(no such fixture)", Outcome::name);
        if self.old == self.new {
            write!(f, "{}: {}", self.fixture, shown(&self.new))?;
        } else {
            write!(
                f,
                "{}: {} → {}",
                self.fixture,
                shown(&self.old),
                shown(&self.new)
            )?;
        }
        if !self.why.is_empty() {
            write!(f, " ({})", self.why.join("; "))?;
        }
        Ok(())
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
    /// Fixtures whose outcome or worth changed for it and whose bytes
    /// changed, or that are in one grading only: their names.
    Fixtures(Vec<String>),
    /// Fixtures whose outcome changed for it to or from a TIMEOUT (or NOT
    /// RUN) and whose time limit changed: `1 s → 5 s` and the fixtures.
    Limits(Vec<String>),
    /// Fixtures whose worth changed for it: each `NAME: 1.12 → 3.36` (its
    /// weight, or its share of the part's points).
    Worth(Vec<String>),
    /// The marking scheme changed, and a grading did not record each
    /// fixture's terms (an older version's): old → new, with their digests.
    Scheme(String),
    /// Options that decide the outcome of a fixture that changed for it
    /// (or its build), each `old → new`.
    Options(Vec<OptionChange>),
    /// The sandbox changed (old → new).
    Sandbox(String),
    /// The machine's: fixtures whose change its load or speed made (a run
    /// at both the time and the memory limit, stopped by one in a grading
    /// and the other in the next; a fixture the machine's load left NOT
    /// GRADED in one), each named.
    Machine(Vec<String>),
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
            Reason::Sources(..) => write!(f, "its sources changed"),
            Reason::Fixtures(which) => {
                write!(f, "the fixtures' bytes changed ({})", which.join(", "))
            }
            Reason::Limits(which) => write!(f, "the time limits changed ({})", which.join(", ")),
            Reason::Worth(which) => {
                write!(f, "the fixtures' worth changed ({})", which.join(", "))
            }
            Reason::Scheme(how) => write!(f, "the scheme changed ({how})"),
            Reason::Options(which) => write!(f, "the options changed ({})", joined(which)),
            Reason::Sandbox(how) => write!(f, "the sandbox changed ({how})"),
            Reason::Machine(which) => write!(
                f,
                "the machine's, not the program's ({}: at both limits, which came first is the machine's speed; or left NOT GRADED for its load)",
                which.join(", ")
            ),
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
    /// Its name.
    pub name: Name,
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
    pub options: Vec<OptionChange>,
    /// The scheme, `old → new`.
    pub scheme: Option<String>,
    /// Fixtures changed: each by name, and how (in words).
    pub fixtures: Vec<(String, String)>,
    /// The sandbox, `old → new`.
    pub sandbox: Option<String>,
    /// What a grading did not record, so that it cannot be told.
    pub unknown: Vec<String>,
    /// Fixtures whose time limit changed: each by name, its limit in
    /// seconds in each grading (when both recorded their fixtures' terms).
    pub limits: Vec<(String, u64, u64)>,
    /// Fixtures whose weight changed: each by name, and how (`1 → 3`).
    pub weights: Vec<(String, String)>,
    /// Whether a grading did not record its fixtures' terms (an older
    /// version's): their time limits and weights are not known.
    pub terms_unrecorded: bool,
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

/// An option that differs between two gradings: its name, and what each
/// gave of it (none: not given): `--time-limit 1 → --time-limit 5`, `no
/// --strict → --strict`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionChange {
    /// The option's name (`--time-limit`, `fixtures`).
    pub key: &'static str,
    /// What the old grading gave of it.
    pub old: Vec<Setting>,
    /// What the new one gave.
    pub new: Vec<Setting>,
}

impl OptionChange {
    /// One of the settings it compares (the new grading's when it gave
    /// one): what the option is, whatever either grading called it.
    fn setting(&self) -> Option<&Setting> {
        self.new.first().or(self.old.first())
    }

    /// Whether it changes the time limit of every run.
    fn of_time_limit(&self) -> bool {
        matches!(self.setting(), Some(Setting::TimeLimit(_)))
    }
}

impl fmt::Display for OptionChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |settings: &[Setting]| {
            if settings.is_empty() {
                format!("no {}", self.key)
            } else {
                let words: Vec<String> = settings.iter().map(Setting::to_string).collect();
                words.join(" ")
            }
        };
        write!(f, "{} → {}", side(&self.old), side(&self.new))
    }
}

/// `items` in words, `, ` between them.
fn joined(items: &[impl fmt::Display]) -> String {
    items
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The options that differ (`--format`, which decides no mark, and the
/// scheme aside) and the scheme when it differs (by its digest: the same
/// text under another name is the same scheme), `old → new`.
fn options_differ(old: &Options, new: &Options) -> (Vec<OptionChange>, Option<String>) {
    let scheme = |o: &Options| {
        o.settings()
            .iter()
            .find(|s| matches!(s, Setting::Scheme { .. }))
            .cloned()
    };
    let digest = |s: &Setting| match s {
        Setting::Scheme { digest, .. } => Some(*digest),
        _ => None,
    };
    let (a, b) = (scheme(old), scheme(new));
    let scheme = match (&a, &b) {
        (Some(a), Some(b)) if digest(a) == digest(b) => None,
        (None, None) => None,
        _ => {
            let shown =
                |s: &Option<Setting>| s.as_ref().map_or("the default".into(), |s| s.to_string());
            Some(format!("{} → {}", shown(&a), shown(&b)))
        }
    };
    let kept = |o: &Options| -> Vec<Setting> {
        o.settings()
            .iter()
            .filter(|s| !matches!(s, Setting::Scheme { .. } | Setting::Formats(_)))
            .cloned()
            .collect()
    };
    let (old, new) = (kept(old), kept(new));
    let gone: Vec<&Setting> = old.iter().filter(|s| !new.contains(s)).collect();
    let came: Vec<&Setting> = new.iter().filter(|s| !old.contains(s)).collect();
    let mut differ: Vec<OptionChange> = Vec::new();
    for setting in gone.iter().chain(&came) {
        let key = setting.key();
        if differ.iter().any(|c| c.key == key) {
            continue;
        }
        let of = |side: &[&Setting]| -> Vec<Setting> {
            side.iter()
                .filter(|s| s.key() == key)
                .map(|s| (*s).clone())
                .collect()
        };
        differ.push(OptionChange {
            key,
            old: of(&gone),
            new: of(&came),
        });
    }
    (differ, scheme)
}

/// Whether a change of the option `setting` (either grading's) can decide
/// the outcome of a fixture that went from `old` to `new` (none where a
/// grading has no line): the limits
/// decide the runs they stop, `--strict` what counts as a format
/// difference or a wrong exit status, `--read-only` and `--repeat` any
/// outcome; the build's, the fuzzer's and the folders' options none (a
/// fixture in one grading only is its own reason).
fn option_decides(setting: &Setting, old: Option<Outcome>, new: Option<Outcome>) -> bool {
    let either = |classes: &[Class]| {
        [old, new]
            .into_iter()
            .flatten()
            .any(|o| o.class().is_some_and(|c| classes.contains(&c)))
    };
    match setting {
        Setting::Strict => either(&[Class::Format, Class::Open, Class::WrongExitStatus]),
        Setting::TimeLimit(_) => either(&[Class::Timeout, Class::NotRun]),
        Setting::Memory(_) => either(&[Class::MemoryLimit, Class::Crash]),
        Setting::Processes(_) => either(&[Class::ProcessLimit, Class::Crash]),
        Setting::Budget(_) | Setting::MaxTimeouts(_) => either(&[Class::NotRun, Class::Timeout]),
        Setting::Confirm(_) => either(&[
            Class::Timeout,
            Class::MemoryLimit,
            Class::ProcessLimit,
            Class::Crash,
        ]),
        Setting::ReadOnly(_) | Setting::Repeat(_) => true,
        Setting::BuildTimeout(_)
        | Setting::Formats(_)
        | Setting::Fuzz(_)
        | Setting::Scheme { .. }
        | Setting::Fixtures(_) => false,
    }
}

/// What differs between the inputs of `old` and `new`.
fn inputs<'a>(old: Option<&'a Manifest>, new: Option<&'a Manifest>) -> Inputs {
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
    } else {
        // Each fixture's digest in each, once (a map, not a search a
        // fixture).
        let digests = |fixtures: &'a [(String, u64)]| -> BTreeMap<&'a str, u64> {
            fixtures.iter().map(|(n, d)| (n.as_str(), *d)).collect()
        };
        let (olds, news) = (digests(&old.fixtures), digests(&new.fixtures));
        for (name, digest) in &old.fixtures {
            match news.get(name.as_str()) {
                None => inputs
                    .fixtures
                    .push((name.clone(), "only in the old grading".into())),
                Some(d) if d != digest => inputs
                    .fixtures
                    .push((name.clone(), format!("fnv1a {digest:016x} → {d:016x}"))),
                Some(_) => {}
            }
        }
        for (name, _) in &new.fixtures {
            if !olds.contains_key(name.as_str()) {
                inputs
                    .fixtures
                    .push((name.clone(), "only in the new grading".into()));
            }
        }
    }
    inputs.terms_unrecorded = old.terms.is_empty() || new.terms.is_empty();
    for was in &old.terms {
        if let Some(now) = new.terms.iter().find(|t| t.fixture == was.fixture) {
            if was.time_limit != now.time_limit {
                inputs
                    .limits
                    .push((was.fixture.clone(), was.time_limit, now.time_limit));
            }
            if was.weight != now.weight {
                inputs.weights.push((
                    was.fixture.clone(),
                    format!("{} → {}", was.weight, now.weight),
                ));
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
fn not_yet(grading: Grading, name: &Name) -> bool {
    grading
        .manifest
        .is_some_and(|m| !m.complete && m.names_to_grade().contains(name))
}

/// The fixtures whose outcome or worth changed for a submission (both
/// built), each with its worth in each grading where that changed.
fn outcomes(old: &[FixtureLine], new: &[FixtureLine]) -> Vec<(FixtureChange, Option<(f64, f64)>)> {
    let mut changed = Vec::new();
    let change =
        |fixture: &str, old: Option<&FixtureLine>, new: Option<&FixtureLine>| FixtureChange {
            fixture: fixture.to_string(),
            old: old.map(|l| l.class),
            new: new.map(|l| l.class),
            why: Vec::new(),
        };
    for line in new {
        let was = old.iter().find(|l| l.fixture == line.fixture);
        let worth = was
            .filter(|w| points(w.max_points) != points(line.max_points))
            .map(|w| (w.max_points, line.max_points));
        let repriced = was.is_some_and(|w| points(w.points) != points(line.points));
        if was.is_none_or(|w| w.class != line.class) || worth.is_some() || repriced {
            changed.push((change(&line.fixture, was, Some(line)), worth));
        }
    }
    for was in old {
        if !new.iter().any(|l| l.fixture == was.fixture) {
            changed.push((change(&was.fixture, Some(was), None), None));
        }
    }
    changed
}

/// Whether the change of a fixture from its line `old` to `new` is the
/// machine's (`crate::shared::machine`): a run at both limits, stopped by
/// the time limit in one grading and the memory limit in the other; or one
/// the machine's load left NOT GRADED in either.
fn machines_change(old: &FixtureLine, new: &FixtureLine) -> bool {
    let limits = [
        Outcome::Noted(Class::Timeout),
        Outcome::Noted(Class::MemoryLimit),
    ];
    let race = limits.contains(&old.class)
        && limits.contains(&new.class)
        && (old.detail.contains(machine::AT_BOTH) || new.detail.contains(machine::AT_BOTH));
    let left = |l: &FixtureLine| {
        l.class == Outcome::Noted(Class::NotGraded) && l.detail.starts_with(machine::MACHINES)
    };
    race || left(old) || left(new)
}

/// Names, at most three of them, then `and N more`.
fn a_few(names: &[&str]) -> String {
    let mut text = names.iter().take(3).copied().collect::<Vec<_>>().join(", ");
    if names.len() > 3 {
        let _ = write!(text, " and {} more", names.len() - 3);
    }
    text
}

/// Why `old` became `new` (both records of one submission) on the
/// fixtures `changed` (each with its worth in each grading where that
/// changed), given what differs in the gradings' `inputs`: each fixture's
/// own reasons (what of the inputs that decide it changed) written into
/// it, and the submission's, every one that holds, in [`Reason`]'s order;
/// flaky or unknown where nothing explains a fixture, or the marks.
fn reasons(
    old: &Record,
    new: &Record,
    changed: &mut [(FixtureChange, Option<(f64, f64)>)],
    inputs: &Inputs,
) -> Vec<Reason> {
    let mut reasons = Vec::new();
    if old.row.trouble.is_some() || new.row.trouble.is_some() {
        reasons.push(Reason::NotGraded);
    }
    match (old.sources, new.sources) {
        (Some(a), Some(b)) if a != b => reasons.push(Reason::Sources(a, b)),
        _ => {}
    }
    let sandbox = inputs
        .sandbox
        .as_ref()
        .map(|how| Reason::Sandbox(how.clone()));
    // A change of the whole submission touches every fixture.
    let whole = !reasons.is_empty() || sandbox.is_some();
    let (mut bytes, mut limits, mut worth, mut options) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut scheme = None;
    let mut untouched = 0;
    let mut machines = Vec::new();
    let line =
        |lines: &[FixtureLine], name: &str| lines.iter().find(|l| l.fixture == name).cloned();
    for (fixture, worth_of) in changed.iter_mut() {
        let name = fixture.fixture.clone();
        let (was, now) = (fixture.old, fixture.new);
        let timed = [was, now].into_iter().flatten().any(|o| {
            matches!(
                o,
                Outcome::Noted(Class::Timeout) | Outcome::Noted(Class::NotRun)
            )
        });
        let mut why = Vec::new();
        if let Some((_, how)) = inputs.fixtures.iter().find(|(n, _)| *n == name) {
            why.push(if how.starts_with("only in") {
                how.clone()
            } else {
                "its bytes changed".to_string()
            });
            bytes.push(name.clone());
        }
        if let Some((_, a, b)) = inputs
            .limits
            .iter()
            .find(|(n, ..)| *n == name)
            .filter(|_| timed)
        {
            why.push(format!("its time limit {a} s → {b} s"));
            limits.push((format!("{a} s → {b} s"), name.clone()));
        }
        if let Some((a, b)) = *worth_of {
            let own = inputs.weights.iter().find(|(n, _)| *n == name);
            why.push(match own {
                Some((_, how)) => format!(
                    "its weight {how}, worth {} → {} points",
                    points(a),
                    points(b)
                ),
                None => format!("its share of the points {} → {}", points(a), points(b)),
            });
            worth.push(format!("{name}: {} → {}", points(a), points(b)));
        }
        for change in &inputs.options {
            // Each fixture's time limit is told by its terms when recorded.
            if change.of_time_limit() && !inputs.terms_unrecorded {
                continue;
            }
            if change
                .setting()
                .is_some_and(|setting| option_decides(setting, was, now))
            {
                why.push(change.to_string());
                if !options.contains(change) {
                    options.push(change.clone());
                }
            }
        }
        if inputs.terms_unrecorded && timed {
            if let Some(how) = &inputs.scheme {
                why.push("the scheme, whose time limits the older grading did not record".into());
                scheme = Some(how.clone());
            }
        }
        if let (Some(a), Some(b)) = (line(&old.fixtures, &name), line(&new.fixtures, &name)) {
            if machines_change(&a, &b) {
                why.push("the machine's: at both limits, or left NOT GRADED for its load".into());
                machines.push(name.clone());
            }
        }
        if why.is_empty() && !whole {
            untouched += 1;
            why.push("nothing that decides it changed".into());
        }
        fixture.why = why;
    }
    // A build that failed in one grading: what decides the build.
    if old.row.marks.is_some() != new.row.marks.is_some() {
        for change in &inputs.options {
            if matches!(change.setting(), Some(Setting::BuildTimeout(_)))
                && !options.contains(change)
            {
                options.push(change.clone());
            }
        }
    }
    if !bytes.is_empty() {
        reasons.push(Reason::Fixtures(bytes));
    }
    if !limits.is_empty() {
        let mut spans: Vec<String> = limits.iter().map(|(span, _)| span.clone()).collect();
        spans.dedup();
        let grouped = spans
            .iter()
            .map(|span| {
                let names: Vec<&str> = limits
                    .iter()
                    .filter(|(s, _)| s == span)
                    .map(|(_, n)| n.as_str())
                    .collect();
                format!("{span}: {}", a_few(&names))
            })
            .collect();
        reasons.push(Reason::Limits(grouped));
    }
    if !worth.is_empty() {
        let names: Vec<&str> = worth.iter().map(String::as_str).collect();
        reasons.push(Reason::Worth(vec![a_few(&names)]));
    }
    if let Some(how) = scheme {
        reasons.push(Reason::Scheme(how));
    }
    if !options.is_empty() {
        reasons.push(Reason::Options(options));
    }
    if let Some(sandbox) = sandbox {
        reasons.push(sandbox);
    }
    if !machines.is_empty() {
        reasons.push(Reason::Machine(machines));
    }
    if reasons.is_empty() || untouched > 0 {
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

/// What changed since the grading `grades/previous/` keeps, when it is of
/// the same folder, to the grading of `manifest` and `records`, written
/// afterwards (its gradebook, its class page): the changes its summaries
/// list.
pub fn since_kept(
    grades: &Path,
    manifest: &Manifest,
    records: &[Record],
) -> Result<Option<Comparison>, Error> {
    let previous = read_previous(grades)?.filter(|p| {
        p.manifest
            .as_ref()
            .is_some_and(|m| m.folder == manifest.folder)
    });
    Ok(previous.map(|p| since_previous(grades, &p, manifest, records)))
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
pub fn compare<'a>(old_words: String, old: Grading<'a>, new: Grading<'a>) -> Comparison {
    let inputs = inputs(old.manifest, new.manifest);
    // Each grading's records by name (the first of a name, as it was
    // read), so that a class is compared in one pass, not a search a name.
    let by_name = |records: &'a [Record]| {
        let mut map: BTreeMap<&'a Name, &'a Record> = BTreeMap::new();
        for record in records {
            map.entry(&record.row.name).or_insert(record);
        }
        map
    };
    let (olds, news) = (by_name(old.records), by_name(new.records));
    let names: BTreeSet<&Name> = olds.keys().chain(news.keys()).copied().collect();
    let mut changes = Vec::new();
    for name in names {
        let was = olds.get(name).copied();
        let now = news.get(name).copied();
        let (before, after) = (Mark::of(was), Mark::of(now));
        let (fixtures, reasons) = match (was, now) {
            (None, Some(_)) if not_yet(old, name) => continue,
            (Some(_), None) if not_yet(new, name) => continue,
            (None, _) => (Vec::new(), vec![Reason::Added]),
            (_, None) => (Vec::new(), vec![Reason::Removed]),
            (Some(was), Some(now)) => {
                let mut changed = if was.row.marks.is_some() && now.row.marks.is_some() {
                    outcomes(&was.fixtures, &now.fixtures)
                } else {
                    Vec::new()
                };
                let outcome_changed = changed.iter().any(|(c, _)| c.old != c.new);
                if !outcome_changed && before.same(&after) {
                    continue;
                }
                let reasons = reasons(was, now, &mut changed, &inputs);
                // The lines are of the fixtures whose outcome changed; one
                // whose worth alone changed is among the reasons.
                let fixtures = changed
                    .into_iter()
                    .map(|(c, _)| c)
                    .filter(|c| c.old != c.new)
                    .collect();
                (fixtures, reasons)
            }
        };
        changes.push(Change {
            name: name.clone(),
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

    /// The inputs that differ, a line each (`options: --time-limit 1 →
    /// --time-limit 5`).
    pub fn input_lines(&self) -> Vec<String> {
        let inputs = &self.inputs;
        let mut lines = Vec::new();
        if let Some(how) = &inputs.folder {
            lines.push(format!("folder: {how}"));
        }
        if !inputs.options.is_empty() {
            lines.push(format!("options: {}", joined(&inputs.options)));
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
        let mut spans: Vec<(u64, u64)> = inputs.limits.iter().map(|&(_, a, b)| (a, b)).collect();
        spans.sort_unstable();
        spans.dedup();
        for (a, b) in spans {
            let names: Vec<&str> = inputs
                .limits
                .iter()
                .filter(|l| (l.1, l.2) == (a, b))
                .map(|l| l.0.as_str())
                .collect();
            lines.push(format!(
                "time limit {a} s → {b} s: {} fixture{} ({})",
                names.len(),
                if names.len() == 1 { "" } else { "s" },
                a_few(&names)
            ));
        }
        for (name, how) in &inputs.weights {
            lines.push(format!("weight of {name}: {how}"));
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
    use crate::judging::class::Class;
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
            // As grade-all records them: the grading's limit, weight 1.
            terms: fixtures
                .iter()
                .map(|(f, _)| Terms {
                    fixture: f.to_string(),
                    time_limit: options
                        .split_once("--time-limit ")
                        .and_then(|(_, t)| t.split(' ').next()?.parse().ok())
                        .unwrap_or(10),
                    weight: 1.0,
                })
                .collect(),
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
                output: None,
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

    /// The gradings of `old` and `new` (each a manifest and records)
    /// compared.
    fn between(old: (&Manifest, &[Record]), new: (&Manifest, &[Record])) -> Comparison {
        fn grading<'a>((manifest, records): (&'a Manifest, &'a [Record])) -> Grading<'a> {
            Grading {
                manifest: Some(manifest),
                records,
            }
        }
        compare(String::new(), grading(old), grading(new))
    }

    const P: &str = "passed";
    const W: &str = "WRONG VERDICT";
    const FIXTURES: [(&str, u64); 3] = [("Tests/a.inp", 1), ("Tests/b.inp", 2), ("Tests/c.inp", 3)];

    #[test]
    fn each_change_is_named_with_every_reason_that_holds() {
        let old_manifest = manifest("--time-limit 1 --memory 1024", &FIXTURES);
        let new_manifest = manifest(
            "--time-limit 5 --memory 1024",
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
        let names: Vec<&str> = compared.changes.iter().map(|c| c.name.shown()).collect();
        // ann is the same; cat's sources changed but not its marks.
        assert_eq!(names, ["bob", "dan", "eve"]);
        let bob = &compared.changes[0];
        assert_eq!(bob.marks(), "2 → 3");
        // bob's fixture changed; the time limit too, but it decides no
        // wrong verdict: the fixture alone, without its digests.
        assert_eq!(
            bob.fixtures,
            [FixtureChange {
                fixture: "Tests/b.inp".into(),
                old: Some(W.into()),
                new: Some(P.into()),
                why: vec!["its bytes changed".into()],
            }]
        );
        assert_eq!(bob.reasons, [Reason::Fixtures(vec!["Tests/b.inp".into()])]);
        // dan failed a fixture that did not change, not by its time limit:
        // nothing that decides it changed.
        assert_eq!(compared.changes[1].reasons, [Reason::Flaky]);
        assert_eq!(
            compared.changes[1].fixtures[0].why,
            ["nothing that decides it changed"]
        );
        assert_eq!(compared.changes[2].reasons, [Reason::Added]);
        assert_eq!(compared.changes[2].marks(), "- → 3");
        let text = compared.text();
        assert!(
            text.starts_with("changed since the grading of /subs begun 2026-11-27T21:30:05Z: 3 submission(s)\n  the gradings differ: options: --time-limit 1 → --time-limit 5\n  the gradings differ: fixture Tests/b.inp: fnv1a 0000000000000002 → 0000000000000014\n  the gradings differ: time limit 1 s → 5 s: 3 fixtures (Tests/a.inp, Tests/b.inp, Tests/c.inp)\n  bob: 2 → 3: the fixtures' bytes changed (Tests/b.inp)\n"),
            "{text}"
        );
        assert!(
            text.contains("\n      Tests/b.inp: WRONG VERDICT → passed (its bytes changed)\n"),
            "{text}"
        );
        // The digests once, in the inputs, never in a submission's line.
        assert_eq!(text.matches("0000000000000014").count(), 1, "{text}");
    }

    #[test]
    fn a_regrading_names_for_each_fixture_only_the_change_that_touches_it() {
        // A scheme that raised one fixture's time limit and another's
        // weight: what it did to each fixture, not to all.
        let old_manifest = manifest(
            "--time-limit 5 --scheme s (fnv1a 00000000000000aa)",
            &FIXTURES,
        );
        let mut new_manifest = manifest(
            "--time-limit 5 --scheme s (fnv1a 00000000000000bb)",
            &FIXTURES,
        );
        new_manifest.terms[2].time_limit = 60;
        new_manifest.terms[1].weight = 2.0;
        const T: &str = "TIMEOUT";
        const M: &str = "MEMORY LIMIT";
        let mut dan_then = record("dan", [P, W, P], Some(4));
        let mut dan_now = record("dan", [P, W, P], Some(4));
        dan_then.row.marks.as_mut().unwrap().score = 2.0;
        dan_now.row.marks.as_mut().unwrap().score = 2.5;
        dan_now.fixtures[0].max_points = 0.75;
        dan_now.fixtures[0].points = 0.75;
        dan_now.fixtures[1].max_points = 1.5;
        dan_now.fixtures[2].max_points = 0.75;
        dan_now.fixtures[2].points = 0.75;
        let old = [
            record("ann", [P, P, T], Some(1)),
            record("bob", [W, P, P], Some(2)),
            record("cat", [P, T, P], Some(3)),
            dan_then,
        ];
        let new = [
            record("ann", [P, P, P], Some(1)),
            record("bob", [P, P, P], Some(2)),
            record("cat", [P, M, P], Some(3)),
            dan_now,
        ];
        let compared = between((&old_manifest, &old), (&new_manifest, &new));
        let [ann, bob, cat, dan] = &compared.changes[..] else {
            panic!("{compared:?}")
        };
        // ann's fixture timed out and has a limit of its own now.
        assert_eq!(
            ann.reasons,
            [Reason::Limits(vec!["5 s → 60 s: Tests/c.inp".into()])]
        );
        assert_eq!(
            ann.fixtures[0].to_string(),
            "Tests/c.inp: TIMEOUT → passed (its time limit 5 s → 60 s)"
        );
        // bob's wrong verdict and cat's limit met otherwise: nothing of the
        // scheme decides them.
        assert_eq!(bob.reasons, [Reason::Flaky]);
        assert_eq!(cat.reasons, [Reason::Flaky]);
        // dan's marks changed with the worth of its fixtures.
        assert_eq!(dan.marks(), "2 → 2.5");
        assert!(dan.fixtures.is_empty(), "{dan:?}");
        assert_eq!(
            dan.reasons,
            [Reason::Worth(vec![
                "Tests/a.inp: 1 → 0.75, Tests/b.inp: 1 → 1.5, Tests/c.inp: 1 → 0.75".into()
            ])]
        );
        // The scheme's digests once, in the inputs, with what it changed.
        let text = compared.text();
        assert_eq!(text.matches("00000000000000bb").count(), 1, "{text}");
        assert!(
            text.contains(
                "  the gradings differ: time limit 5 s → 60 s: 1 fixture (Tests/c.inp)\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("  the gradings differ: weight of Tests/b.inp: 1 → 2\n"),
            "{text}"
        );
        // An option that decides a class: --strict a format difference, not
        // a wrong verdict.
        let o = |word: &str| Some(Outcome::from(word));
        assert!(option_decides(&Setting::Strict, o("FORMAT"), o("FORMAT")));
        assert!(!option_decides(
            &Setting::Strict,
            o("WRONG VERDICT"),
            o("passed")
        ));
        assert!(option_decides(
            &Setting::Memory(512),
            o("passed"),
            o("MEMORY LIMIT")
        ));
    }

    #[test]
    fn the_same_inputs_and_another_outcome_is_flaky_and_sources_are_named() {
        let m = manifest("--time-limit 5", &FIXTURES);
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

    /// A fixture stopped at the time limit in one grading and at the memory
    /// limit in the next, its line at both limits in either, is the
    /// machine's, not flaky; so is a fixture the machine's load left NOT
    /// GRADED. Another change beside it is still flaky.
    #[test]
    fn a_race_between_the_limits_is_the_machines() {
        let m = manifest("--time-limit 5", &FIXTURES);
        let with = |mut r: Record, i: usize, detail: String| {
            r.fixtures[i].detail = detail;
            r
        };
        let both = format!(
            "still running after 10 s, its memory ...: {}",
            machine::AT_BOTH
        );
        let old = [
            with(record("ann", ["TIMEOUT", P, P], Some(1)), 0, both.clone()),
            record("bob", ["TIMEOUT", P, P], Some(2)),
            record("cat", ["TIMEOUT", P, P], Some(3)),
            with(record("dan", ["TIMEOUT", P, W], Some(4)), 0, both),
        ];
        let new = [
            record("ann", ["MEMORY LIMIT", P, P], Some(1)),
            record("bob", ["MEMORY LIMIT", P, P], Some(2)),
            with(
                record("cat", ["NOT GRADED", P, P], Some(3)),
                0,
                format!("{}: ...", machine::MACHINES),
            ),
            record("dan", ["MEMORY LIMIT", P, P], Some(4)),
        ];
        let grading = |records| Grading {
            manifest: Some(&m),
            records,
        };
        let compared = compare(String::new(), grading(&old), grading(&new));
        let machines = |f: &str| Reason::Machine(vec![f.into()]);
        assert_eq!(compared.changes[0].reasons, [machines("Tests/a.inp")]);
        // Neither line at both limits: flaky, as before.
        assert_eq!(compared.changes[1].reasons, [Reason::Flaky]);
        assert_eq!(compared.changes[2].reasons, [machines("Tests/a.inp")]);
        assert_eq!(
            compared.changes[3].reasons,
            [machines("Tests/a.inp"), Reason::Flaky]
        );
        assert!(compared.text().contains(
            "  ann: 2 → 2: the machine's, not the program's (Tests/a.inp: at both limits, which came first is the machine's speed; or left NOT GRADED for its load)\n"
        ), "{}", compared.text());
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
        let compared = between((&old_manifest, &old), (&new_manifest, &new));
        // bob is not graded yet: no change; the scheme renamed is the same.
        assert_eq!(compared.changes.len(), 1);
        assert_eq!(compared.changes[0].reasons, [Reason::Flaky]);
        new_manifest.options = "--scheme s.txt (fnv1a 00000000000000bb) --format junit".into();
        new_manifest.complete = true;
        let compared = between((&old_manifest, &old), (&new_manifest, &new));
        // The scheme changed, but nothing of it that decides the fixture.
        assert_eq!(compared.changes[0].reasons, [Reason::Flaky]);
        assert_eq!(compared.changes[1].reasons, [Reason::Removed]);
        // Gradings that did not record their fixtures' terms: a timeout's
        // change may be the scheme's.
        let mut older = old_manifest.clone();
        older.terms.clear();
        let timed_out = [record("ann", [P, P, "TIMEOUT"], Some(1))];
        let compared = between((&older, &old), (&new_manifest, &timed_out));
        assert_eq!(
            compared.changes[0].reasons,
            [Reason::Scheme(
                "--scheme s.txt (fnv1a 00000000000000aa) → --scheme s.txt (fnv1a 00000000000000bb)"
                    .into()
            )]
        );
    }

    #[test]
    fn options_are_compared_one_by_one() {
        assert_eq!(
            Options::from(
                "--strict --time-limit 5 --read-only /a b --scheme x (fnv1a 01) fixtures my tests"
            )
            .settings(),
            [
                Setting::Strict,
                Setting::TimeLimit(5),
                Setting::ReadOnly("/a b".into()),
                Setting::Scheme {
                    file: "x".into(),
                    digest: 1
                },
                Setting::Fixtures("my tests".into())
            ]
        );
        let (options, scheme) = options_differ(
            &"--strict --time-limit 5 --memory 1024 fixtures a".into(),
            &"--time-limit 10 --memory 1024 --format junit fixtures a fixtures b".into(),
        );
        let options: Vec<String> = options.iter().map(|c| c.to_string()).collect();
        assert_eq!(
            options,
            [
                "--strict → no --strict",
                "--time-limit 5 → --time-limit 10",
                "no fixtures → fixtures b"
            ]
        );
        assert_eq!(scheme, None);
    }
}
