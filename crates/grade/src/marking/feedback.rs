//! Feedback a student can act on, written as Markdown: the score and what
//! each class of fault cost; the faults grouped by class, with the causes an
//! experiment on the program confirmed ([`Confirmed`]: never a guess; where
//! none explains a fixture, the feedback says no single cause was found), each group's
//! smallest fixture with its input, the expected output, what the program
//! did and, for a wrong verdict, the parity rule at work, written out; a few
//! more fixture names, then how many more; then the format differences, the
//! open questions and the messages, labelled as not counting.
//!
//! It names only what the student receives: the fixtures shown, their
//! inputs and expected outputs, the explanation itself; never a file, a
//! command or a report the student does not have. A fixture that is not
//! `visible` in the marking scheme (`after_due_date`, `hidden`) is never
//! named, explained, counted in a class or used for a cause: the feedback
//! is handed out at once. The score counts it, so the points lost on such
//! fixtures are given as one sum.

use crate::judging::class::Class;
use crate::judging::fixture::Fixture;
use crate::judging::judge::Judgement;
use crate::marking::cause::Confirmed;
use crate::marking::marks::{lost_in_words, points, Score, Visibility};
use crate::shared::markdown;
use crate::shared::text::lines;
use puzzle::input::read_puzzle;
use std::fmt::Write as _;

/// How many lines of a list of differences or messages the feedback shows.
const SHOWN: usize = 10;

/// How many fixture names a group of faults names besides its smallest.
const NAMED: usize = 3;

/// Up to `n` lines of `text`, each cut at 100 bytes and written by `show`
/// (the line's first 100 bytes, and whether that is all of it), indented
/// as code, `...` where cut.
fn excerpt_with(text: &[u8], n: usize, show: &mut dyn FnMut(&[u8], bool) -> String) -> String {
    let mut out = String::new();
    let all = lines(text);
    for line in all.iter().take(n) {
        let shown = show(&line[..line.len().min(100)], line.len() <= 100);
        let _ = writeln!(
            out,
            "    {shown}{}",
            if line.len() > 100 { "..." } else { "" }
        );
    }
    if all.len() > n {
        let _ = writeln!(out, "    ...");
    }
    if all.is_empty() {
        out.push_str("    (nothing)\n");
    }
    out
}

/// Up to `n` lines of `text`, each cut at 100 characters, indented as code.
fn excerpt(text: &[u8], n: usize) -> String {
    excerpt_with(text, n, &mut |cut, _| crate::shared::text::shown(cut))
}

/// Up to `n` lines of the input `text`, each cut at 100 bytes, indented
/// as code, with every byte a reader could not see made visible: a space
/// at the start or the end of a line as `␣`, a tab, a carriage return, a
/// NUL, a vertical tab and a form feed as `\t`, `\r`, `\0`, `\v`, `\f`,
/// a backslash as `\\`, any other byte that is not printable ASCII as
/// `\xNN`, an empty line as `(empty line)`; then a line saying which of
/// these it shows, and whether the last line has no newline.
fn input_excerpt(text: &[u8], n: usize) -> String {
    let mut used: Vec<&str> = Vec::new();
    let mut out = excerpt_with(text, n, &mut |cut, whole| {
        let mut note = |what: &'static str| {
            if !used.contains(&what) {
                used.push(what);
            }
        };
        let lead = cut.iter().take_while(|&&b| b == b' ').count();
        let trail = if whole {
            cut[lead..].iter().rev().take_while(|&&b| b == b' ').count()
        } else {
            0
        };
        let mut shown = String::new();
        for (k, &byte) in cut.iter().enumerate() {
            let escape = match byte {
                b' ' if k < lead || k >= cut.len() - trail => {
                    note("␣ a space at the start or the end of a line");
                    shown.push('␣');
                    continue;
                }
                b'\t' => ("\\t", "\\t a tab"),
                b'\r' => ("\\r", "\\r a carriage return"),
                0 => ("\\0", "\\0 a NUL byte"),
                0x0b => ("\\v", "\\v a vertical tab"),
                0x0c => ("\\f", "\\f a form feed"),
                b'\\' => ("\\\\", "\\\\ a backslash"),
                b' '..=b'~' => {
                    shown.push(byte as char);
                    continue;
                }
                _ => {
                    note("\\xNN the byte of that value (not printable ASCII)");
                    let _ = write!(shown, "\\x{byte:02x}");
                    continue;
                }
            };
            note(escape.1);
            shown.push_str(escape.0);
        }
        if cut.is_empty() {
            note("(empty line) a line with nothing on it");
            shown.push_str("(empty line)");
        }
        shown
    });
    let unended = !text.is_empty() && !text.ends_with(b"\n");
    if !used.is_empty() || unended {
        out.push('\n');
        if !used.is_empty() {
            let _ = write!(out, "Shown as: {}.", markdown::escape(&used.join("; ")));
        }
        if unended {
            if !used.is_empty() {
                out.push(' ');
            }
            out.push_str("The last line ends without a newline.");
        }
        out.push('\n');
    }
    out
}

/// The exit status a report's text of a run gives (`exit status 3`).
fn exit_status(text: &str) -> Option<String> {
    let (_, rest) = text.split_once("exit status ")?;
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    (!digits.is_empty()).then_some(digits)
}

/// What the failures of `class` share, from their report `texts`: one
/// stream, one message, one exit status, one limit or signal, in words;
/// none when they share nothing worth saying, or for the classes whose
/// failures experiments explain (WRONG VERDICT, MISSED ERROR, FALSE ERROR:
/// what is said of those is their causes).
fn what_they_share(class: Class, texts: &[&str]) -> Option<String> {
    let same = |f: &dyn Fn(&str) -> Option<String>| -> Option<String> {
        let first = f(texts.first()?)?;
        texts
            .iter()
            .all(|t| f(t).as_ref() == Some(&first))
            .then_some(first)
    };
    let between = |from: &'static str, to: &'static str| {
        move |t: &str| -> Option<String> {
            let (_, rest) = t.split_once(from)?;
            Some(rest.split_once(to).map_or(rest, |(m, _)| m).to_string())
        }
    };
    let status = same(&exit_status);
    let mut facts: Vec<String> = Vec::new();
    match class {
        Class::WrongVerdict | Class::MissedError | Class::FalseError => return None,
        Class::ErrorOnStderr => {
            facts.push(
                "each wrote its message on stderr and nothing on stdout (the assignment \
                 asks for the message on stdout)"
                    .into(),
            );
            if let Some(m) = same(&between("; stderr ", "\u{0}")) {
                facts.push(format!("the same message each time, {m}"));
            }
            if let Some(s) = status {
                facts.push(format!("exit status {s} each time"));
            }
        }
        Class::WrongExitStatus => {
            let after = same(&|t: &str| {
                Some(if t.contains(" after the verdict ") {
                    "its verdict".to_string()
                } else {
                    "its error message".to_string()
                })
            });
            match (status, after) {
                (Some(s), Some(a)) => facts.push(format!("each exited with status {s} after {a}")),
                (Some(s), None) => facts.push(format!("each exited with status {s}")),
                (None, Some(a)) => {
                    facts.push(format!("each exited with the wrong status after {a}"))
                }
                (None, None) => {}
            }
            if let Some(m) = same(&between(" after ", ", expected")) {
                facts.push(format!("the same output each time, {m}"));
            }
        }
        Class::NoMessage => {
            facts.push(
                "each rejected the input without a word on stdout or stderr (the assignment \
                 asks for a message on stdout)"
                    .into(),
            );
            if let Some(s) = status {
                facts.push(format!("exit status {s} each time"));
            }
        }
        Class::Timeout => facts.push(match same(&between("still running after ", ";")) {
            Some(limit) => {
                format!("each was still running at its time limit of {limit}, and was killed")
            }
            None => "each was still running at its time limit, and was killed".into(),
        }),
        Class::MemoryLimit => facts.push(match same(&between("memory limit (", " ")) {
            Some(limit) => format!("each was stopped by the memory limit of {limit} MiB"),
            None => "each was stopped by the memory limit".into(),
        }),
        Class::ProcessLimit => facts.push("each was stopped by the process limit".into()),
        Class::Crash => {
            if let Some(signal) = same(&between("killed by signal ", ";")) {
                facts.push(format!("each was killed by signal {signal}"));
            } else if let Some(text) = same(&|t: &str| Some(t.to_string())) {
                facts.push(format!("each the same: {text}"));
            }
        }
        _ => {
            if let Some(text) = same(&|t: &str| Some(t.to_string())) {
                facts.push(format!("each the same: {text}"));
            }
        }
    }
    (!facts.is_empty()).then(|| markdown::escape(&facts.join("; ")))
}

/// `n` and a noun, `s` added unless `n` is 1.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// Names, at most [`NAMED`] of them, then `and N more`.
fn a_few(names: &[&str]) -> String {
    let mut text = names
        .iter()
        .take(NAMED)
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > NAMED {
        let _ = write!(text, " and {} more", names.len() - NAMED);
    }
    text
}

/// The feedback file of a graded submission: `fixtures` with `judgements`
/// and the `score` they gave; `visibility` says which fixtures the student
/// may see now (only `visible` ones are shown); `bytes` reads a fixture.
pub fn feedback(
    name: &str,
    fixtures: &[Fixture],
    judgements: &[&Judgement],
    score: Option<&Score>,
    visibility: &dyn Fn(&Fixture) -> Visibility,
    bytes: &dyn Fn(&Fixture) -> Vec<u8>,
    found: Found,
) -> String {
    let mut out = format!("# Feedback for {}\n\n", markdown::escape(name));
    let shown: Vec<bool> = fixtures
        .iter()
        .map(|f| visibility(f) == Visibility::Visible)
        .collect();
    if let Some(score) = score {
        write_score(&mut out, score, judgements, &shown);
    }
    let mut faults = Faults {
        fixtures,
        judgements,
        shown: &shown,
        bytes,
        causes: found.causes,
        tried: found.tried,
    };
    if !faults.write(&mut out) {
        out.push_str("## Faults\n\nNone among the fixtures shown here.\n\n");
    }
    write_flaky(&mut out, fixtures, found.flaky, &shown);
    write_not_graded(&mut out, fixtures, judgements, &shown);
    write_not_shown(&mut out, shown.iter().filter(|s| !**s).count());
    write_not_counted(&mut out, fixtures, judgements, &shown);
    out
}

/// What the grading found beyond each fixture's judgement.
pub struct Found<'a> {
    /// The causes experiments confirmed.
    pub causes: &'a [Confirmed],
    /// The failing fixtures a candidate cause was tried for (see
    /// `cause::Experiments`): only of those does the feedback say that
    /// causes were tried.
    pub tried: &'a [usize],
    /// For each fixture (in their order), what its runs said when they
    /// disagreed (FLAKY); empty: none did.
    pub flaky: &'a [Option<String>],
}

/// The section on the fixtures shown that were not graded (they cost
/// nothing), when there are any: a fixture the machine's load kept from
/// being graded, said so, or one the reference does not answer as its name
/// says.
fn write_not_graded(
    out: &mut String,
    fixtures: &[Fixture],
    judgements: &[&Judgement],
    shown: &[bool],
) {
    let not_graded: Vec<(usize, &String)> = judgements
        .iter()
        .enumerate()
        .filter_map(|(i, j)| match j {
            Judgement::Noted(Class::NotGraded, text) if shown.get(i) == Some(&true) => {
                Some((i, text))
            }
            _ => None,
        })
        .collect();
    if not_graded.is_empty() {
        return;
    }
    out.push_str(
        "## Not graded (no marks lost)

",
    );
    for (i, text) in not_graded {
        let why = if text.starts_with(crate::shared::machine::MACHINES) {
            "the machine that graded your program was too busy to give it its time limit on this fixture, twice; its points are kept, and it is for your marker to grade it again"
        } else {
            text.as_str()
        };
        let _ = writeln!(out, "- `{}`: {why}.", fixtures[i].shown);
    }
    out.push('\n');
}

/// The section on the fixtures shown whose runs disagreed, when there are
/// any: what each run did, and which counted.
fn write_flaky(out: &mut String, fixtures: &[Fixture], flaky: &[Option<String>], shown: &[bool]) {
    let disagreed: Vec<(usize, &String)> = flaky
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            f.as_ref()
                .filter(|_| shown.get(i) == Some(&true))
                .map(|f| (i, f))
        })
        .collect();
    if disagreed.is_empty() {
        return;
    }
    out.push_str(
        "## Runs that disagreed (FLAKY)\n\nThe grader ran your program more than once on these, \
         and the runs did not agree:\n\n",
    );
    for (i, said) in disagreed {
        let _ = writeln!(out, "- `{}`: {said}.", fixtures[i].shown);
    }
    out.push('\n');
}

/// The score line: the points, what the faults shown cost, and the points
/// lost on fixtures not shown as one sum.
fn write_score(out: &mut String, score: &Score, judgements: &[&Judgement], shown: &[bool]) {
    let _ = write!(
        out,
        "Score: **{} of {}**.",
        points(score.total),
        points(score.max)
    );
    let lost = score.lost_where(judgements.iter().copied(), |i| shown[i]);
    let all_lost = score.lost_where(judgements.iter().copied(), |_| true);
    let sum = |l: &[(Class, f64)]| l.iter().map(|x| (x.1 * 100.0).round() as i64).sum::<i64>();
    let unseen = sum(&all_lost) - sum(&lost);
    if !lost.is_empty() || unseen > 0 {
        let mut words = if lost.is_empty() {
            String::new()
        } else {
            lost_in_words(&lost)
        };
        if unseen > 0 {
            if !words.is_empty() {
                words.push_str("; ");
            }
            let _ = write!(
                words,
                "{} on fixtures not shown here",
                points(unseen as f64 / 100.0)
            );
        }
        let _ = write!(out, " Lost: {words}.");
    }
    out.push_str("\n\n");
}

/// The faults among the fixtures shown, grouped by class.
struct Faults<'a> {
    fixtures: &'a [Fixture],
    judgements: &'a [&'a Judgement],
    /// Which fixtures are shown.
    shown: &'a [bool],
    bytes: &'a dyn Fn(&Fixture) -> Vec<u8>,
    /// The causes experiments confirmed.
    causes: &'a [Confirmed],
    /// The failing fixtures a candidate cause was tried for.
    tried: &'a [usize],
}

/// Whether `judgement` is a fault of `class`.
fn of_class(judgement: &Judgement, class: Class) -> bool {
    matches!(judgement, Judgement::Noted(c, _) if *c == class)
}

impl Faults<'_> {
    /// Writes a group for each class of fault with a fixture shown (not
    /// FORMAT or OPEN, which do not count here, nor NOT GRADED, which costs
    /// nothing), under one heading; whether there was any.
    fn write(&mut self, out: &mut String) -> bool {
        let mut any_fault = false;
        for class in Class::ALL {
            // They cost nothing: told apart.
            if matches!(class, Class::Format | Class::Open | Class::NotGraded) {
                continue;
            }
            let group: Vec<usize> = (0..self.fixtures.len())
                .filter(|&i| self.shown[i] && of_class(self.judgements[i], class))
                .collect();
            if group.is_empty() {
                continue;
            }
            if !any_fault {
                out.push_str("## Faults (each costs marks)\n\n");
                any_fault = true;
            }
            self.write_group(out, class, &group);
        }
        any_fault
    }

    /// Writes the fixtures `group` of `class`: how many, the causes
    /// confirmed and the fixtures each explains, then of the fixtures no
    /// cause explains what was tried (or, for a class without experiments,
    /// what their failures share), the smallest in full and a few other
    /// names.
    fn write_group(&mut self, out: &mut String, class: Class, group: &[usize]) {
        let _ = writeln!(
            out,
            "### {} on {}\n",
            class.name(),
            count(group.len(), "fixture")
        );
        let explained = self.write_causes(out, class, group);
        let fixtures = self.fixtures;
        let rest: Vec<usize> = group
            .iter()
            .copied()
            .filter(|i| !explained.contains(i))
            .collect();
        if rest.is_empty() {
            return;
        }
        self.write_unexplained(out, class, &rest, !explained.is_empty());
        let Some(&smallest) = rest.iter().min_by_key(|&&i| fixtures[i].size) else {
            return;
        };
        self.write_smallest(out, class, smallest, !explained.is_empty());
        let others: Vec<&str> = rest
            .iter()
            .filter(|&&i| i != smallest)
            .map(|&i| fixtures[i].shown.as_str())
            .collect();
        if !others.is_empty() {
            let _ = writeln!(out, "Also: {}.\n", a_few(&others));
        }
    }

    /// Writes the causes experiments confirmed for the fixtures `group` of
    /// `class`, each with its evidence, its smallest input and the
    /// fixtures it explains; those fixtures.
    fn write_causes(&self, out: &mut String, class: Class, group: &[usize]) -> Vec<usize> {
        let mut explained: Vec<usize> = Vec::new();
        for cause in self.causes.iter().filter(|c| c.class == class) {
            let here: Vec<usize> = group
                .iter()
                .copied()
                .filter(|i| cause.fixtures.contains(i))
                .collect();
            if here.is_empty() {
                continue;
            }
            // A second fault of the program, confirmed by its own
            // experiment, in fixtures a cause above explains too.
            let also = here.iter().filter(|i| explained.contains(i)).count();
            explained.extend(
                here.iter()
                    .filter(|i| !explained.contains(i))
                    .collect::<Vec<_>>(),
            );
            let _ = writeln!(out, "Cause, confirmed by experiment: {}.\n", cause.words);
            let _ = writeln!(
                out,
                "The grader tried it on your program: {}.\n",
                cause.evidence
            );
            if let Some(input) = &cause.smallest {
                let _ = writeln!(
                    out,
                    "The smallest such input of the experiment:\n\n{}",
                    input_excerpt(input, 4)
                );
                if class == Class::WrongVerdict {
                    write_rule(out, input);
                }
            }
            let names: Vec<&str> = here
                .iter()
                .map(|&i| self.fixtures[i].shown.as_str())
                .collect();
            let both = match (also, here.len()) {
                (0, _) => String::new(),
                (1, 1) => " (a cause above explains it too: it has both faults)".into(),
                (n, m) if n == m => {
                    " (a cause above explains them too: they have both faults)".into()
                }
                (1, _) => " (one of them a cause above explains too: it has both faults)".into(),
                (n, _) => {
                    format!(" ({n} of them a cause above explains too: they have both faults)")
                }
            };
            let _ = writeln!(
                out,
                "It explains {}: {}{both}.\n",
                if here.len() == group.len() && here.len() > 1 {
                    format!("all {}", here.len())
                } else {
                    count(here.len(), "fixture")
                },
                a_few(&names)
            );
        }
        explained
    }

    /// Writes what is known of the fixtures `rest` of `class` that no cause
    /// explains (the `others` when some cause explained the rest of the
    /// group): that the candidate causes tried on the program explain
    /// none of those they were tried for; for a class without experiments,
    /// what the failures share. Never that something was tried that was
    /// not.
    fn write_unexplained(&self, out: &mut String, class: Class, rest: &[usize], others: bool) {
        let tried: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|i| self.tried.contains(i))
            .collect();
        if !tried.is_empty() {
            let which = if tried.len() == rest.len() {
                match (others, rest.len()) {
                    (true, 1) => "the other fixture".to_string(),
                    (true, n) => format!("the other {n} fixtures"),
                    (false, 1) => "this fixture".to_string(),
                    (false, _) => "these fixtures".to_string(),
                }
            } else {
                let names: Vec<&str> = tried
                    .iter()
                    .map(|&i| self.fixtures[i].shown.as_str())
                    .collect();
                a_few(&names)
            };
            let _ = writeln!(
                out,
                "No single cause was found for {which}: of the causes the grader tried on \
                 your program, none explains {}.\n",
                if tried.len() == 1 { "it" } else { "them" }
            );
        }
        if rest.len() > 1 {
            let texts: Vec<&str> = rest
                .iter()
                .filter_map(|&i| match self.judgements[i] {
                    Judgement::Noted(_, text) => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            if let Some(shared) = what_they_share(class, &texts) {
                let _ = writeln!(
                    out,
                    "What {} share: {shared}.\n",
                    if others { "the others" } else { "they" }
                );
            }
        }
    }

    /// Writes the fixture `smallest` of `class` (of the `others`, those
    /// no cause explains): its input, the expected output, what the
    /// program did and, for a wrong verdict, the parity rule at work.
    fn write_smallest(&self, out: &mut String, class: Class, smallest: usize, others: bool) {
        let f = &self.fixtures[smallest];
        let _ = writeln!(
            out,
            "The smallest{}: `{}` ({} bytes).\n",
            if others { " of the others" } else { "" },
            f.shown,
            f.size
        );
        let input = (self.bytes)(f);
        let _ = writeln!(out, "Its input:\n\n{}", input_excerpt(&input, 4));
        let _ = writeln!(
            out,
            "Expected (the reference's output):\n\n{}",
            excerpt(&f.expected, 3)
        );
        if let Judgement::Noted(_, text) = self.judgements[smallest] {
            let _ = writeln!(out, "What your program did: {}\n", markdown::escape(text));
        }
        if class == Class::WrongVerdict {
            write_rule(out, &input);
        }
    }
}

/// Writes the parity rule at work on `input`, when it is a puzzle.
fn write_rule(out: &mut String, input: &[u8]) {
    if let Ok(puzzle) = read_puzzle(input) {
        let mut why = Vec::new();
        if puzzle::write_explanation(&mut why, &puzzle).is_ok() {
            let _ = writeln!(
                out,
                "Why (the parity rule at work on this input):\n\n{}",
                excerpt(&why, 20)
            );
        }
    }
}

/// The section on the `not_shown` fixtures, when there are any: counted in
/// the score, never named.
fn write_not_shown(out: &mut String, not_shown: usize) {
    if not_shown > 0 {
        let _ = writeln!(
            out,
            "## Not shown here\n\n{} not shown here: their results come after the due \
             date, or stay with the marker. They count in the score.\n",
            if not_shown == 1 {
                "1 fixture is".to_string()
            } else {
                format!("{not_shown} fixtures are")
            }
        );
    }
}

/// The sections that do not count for the decision: the format
/// differences, the open questions and the error messages.
fn write_not_counted(
    out: &mut String,
    fixtures: &[Fixture],
    judgements: &[&Judgement],
    shown: &[bool],
) {
    let listed = |class: Option<Class>| -> Vec<String> {
        (0..fixtures.len())
            .filter(|&i| shown[i])
            .filter_map(|i| match (judgements[i], class) {
                (Judgement::Noted(c, text), Some(class)) if *c == class => Some(format!(
                    "- `{}`: {}\n",
                    fixtures[i].shown,
                    markdown::escape(text)
                )),
                (Judgement::Message(text), None) => Some(format!(
                    "- `{}`: {}\n",
                    fixtures[i].shown,
                    markdown::escape(text)
                )),
                _ => None,
            })
            .collect()
    };
    write_section(
        out,
        "Format differences",
        "The right decision, said differently from the reference. These do not cost \
         marks for the decision, only the format part (if the scheme gives it points).",
        listed(Some(Class::Format)),
    );
    write_section(
        out,
        "Open questions (not counted)",
        "Inputs the assignment leaves open: either answer is accepted.",
        listed(Some(Class::Open)),
    );
    write_section(
        out,
        "Your error messages (not counted)",
        "Bad input rejected as required; the words are for the marker to judge (the \
         assignment asks for a brief, informative message).",
        listed(None),
    );
}

/// A section titled `title` with `note`, then up to [`SHOWN`] of `lines`
/// and how many more; nothing without lines.
fn write_section(out: &mut String, title: &str, note: &str, lines: Vec<String>) {
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "## {title}\n\n{note}\n");
    let more = lines.len().saturating_sub(SHOWN);
    out.extend(lines.into_iter().take(SHOWN));
    if more > 0 {
        let _ = writeln!(out, "- and {more} more");
    }
    out.push('\n');
}

/// How many lines of a failed build's output the feedback shows (its end,
/// where the compiler's last words are).
const LOG_LINES: usize = 30;

/// The feedback file of a submission that was not built: why (`note`), the
/// end of the build's output `log` when it printed anything, else what the
/// grader found instead: the files handed in (`files`, paths in the
/// submission). Never the name of a log file: the student does not have it.
pub fn not_built(name: &str, note: &str, log: &[u8], files: &[String]) -> String {
    let mut out = format!(
        "# Feedback for {}\n\nNot built: {}.\n\n",
        markdown::escape(name),
        markdown::escape(note)
    );
    let all = lines(log);
    if all.iter().any(|l| crate::shared::text::has_text(l)) {
        let from = all.len().saturating_sub(LOG_LINES);
        let _ = writeln!(
            out,
            "What the build printed{}:\n",
            if from > 0 {
                format!(" (its last {LOG_LINES} lines)")
            } else {
                String::new()
            }
        );
        for line in &all[from..] {
            let shown = crate::shared::text::shown(&line[..line.len().min(200)]);
            let _ = writeln!(out, "    {shown}");
        }
        out.push('\n');
    } else {
        out.push_str("The build printed nothing.\n\n");
    }
    if files.is_empty() {
        out.push_str("The submission holds no file.\n");
    } else {
        let _ = writeln!(out, "The files handed in:\n");
        for file in files.iter().take(SHOWN * 2) {
            let _ = writeln!(out, "- {}", markdown::code(file));
        }
        if files.len() > SHOWN * 2 {
            let _ = writeln!(out, "- and {} more", files.len() - SHOWN * 2);
        }
        out.push_str(
            "\nThe assignment asks for a Makefile that builds `puzzle`, `puzzle.c`, \
             `boardADT.c` and `boardADT.h`.\n",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::fixture::{reference_answer, Allowed, Category};
    use std::path::PathBuf;

    fn fixture(shown: &str, input: &[u8]) -> Fixture {
        let named = Category::of_name(shown.rsplit('/').next().unwrap());
        Fixture {
            shown: shown.into(),
            path: PathBuf::from(shown),
            size: input.len() as u64,
            digest: 0,
            named,
            allowed: Allowed::Only(named),
            choices: Vec::new(),
            expected: reference_answer(input).0,
        }
    }

    #[test]
    fn a_few_names_then_how_many_more() {
        assert_eq!(a_few(&["a", "b"]), "`a`, `b`");
        assert_eq!(
            a_few(&["a", "b", "c", "d", "e"]),
            "`a`, `b`, `c` and 2 more"
        );
    }

    /// Inputs of the fixtures below, by their shown names.
    const INPUTS: [(&str, &[u8]); 8] = [
        ("Tests/sol2_a.inp", b"1 2 3 b\n1 b 3 2\n"),
        ("Tests/sol2_b.inp", b"1 2 3 b\n3 1 b 2\n"),
        (
            "Tests/sol4_c.inp",
            b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 b\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 b 15\n",
        ),
        ("Tests/unsol2_d.inp", b"2 1 3 b\n1 2 3 b\n"),
        ("Tests/unsol2_e.inp", b"1 2 3 b\n2 1 3 b\n"),
        ("Tests/unsol2_f.inp", b"3 2 1 b\n1 2 3 b\n"),
        ("Tests/sol257_late.inp", b"1 2 3 b\n1 2 b 3\n"),
        ("Tests/bad_g.inp", b"1 2 3 x\n1 2 3 b\n"),
    ];

    #[test]
    fn feedback_names_only_what_the_student_gets_and_nothing_not_yet_visible() {
        let fixtures: Vec<Fixture> = INPUTS.iter().map(|(n, i)| fixture(n, i)).collect();
        let wrong = Judgement::Noted(Class::WrongVerdict, "'unsolvable'".into());
        let late = Judgement::Noted(Class::WrongVerdict, "'unsolvable', late".into());
        let message = Judgement::Message("no".into());
        let judgements = [
            &wrong, &wrong, &wrong, &wrong, &wrong, &wrong, &late, &message,
        ];
        let graded: Vec<crate::judging::judge::Graded> = judgements
            .iter()
            .map(|j| crate::judging::judge::Graded {
                judgement: (*j).clone(),
                time: None,
                flaky: None,
                output: None,
            })
            .collect();
        let scheme = crate::marking::marks::Scheme::parse(
            "[fixtures Tests/sol257*]\nvisibility = after_due_date\n",
        )
        .unwrap();
        let score = scheme.score(&fixtures, &graded);
        let bytes = |f: &Fixture| input_of(&INPUTS, f);
        let text = feedback(
            "ann",
            &fixtures,
            &judgements,
            Some(&score),
            &|f| scheme.visibility(f),
            &bytes,
            Found {
                causes: &[Confirmed {
                    class: Class::WrongVerdict,
                    words: "on boards of an even side the blank's row is not counted".into(),
                    evidence: "with X, 10 of 10 inputs failed so; with Y, 0 of 10".into(),
                    fixtures: vec![0, 1],
                    smallest: Some(b"1 2 3 b\n1 2 b 3\n".to_vec()),
                }],
                tried: &[0, 1, 2, 3, 4, 5],
                flaky: &[Some(
                    "TIMEOUT in run 1, passed in run 2; marked as the runs that finished".into(),
                )],
            },
        );
        // The runs that disagreed, for a fixture shown.
        assert!(
            text.contains("## Runs that disagreed (FLAKY)\n\nThe grader ran your program more than once on these, and the runs did not agree:\n\n- `Tests/sol2_a.inp`: TIMEOUT in run 1, passed in run 2; marked as the runs that finished.\n"),
            "{text}"
        );
        // The score, what the faults shown cost, and the rest as one sum.
        assert!(
            text.starts_with(&format!(
                "# Feedback for ann\n\nScore: **{} of 100**. Lost: wrong verdict ",
                points(score.total)
            )),
            "{text}"
        );
        assert!(
            text.contains("; 10.62 on fixtures not shown here."),
            "{text}"
        );
        // Six shown, the late one neither named, counted nor explained.
        assert!(text.contains("### WRONG VERDICT on 6 fixtures\n"), "{text}");
        assert!(!text.contains("sol257"), "{text}");
        assert!(!text.contains("late"), "{text}");
        assert!(text.contains("1 fixture is not shown here"), "{text}");
        // The cause confirmed, its evidence and the fixtures it explains;
        // the others said to have none, of those tried.
        assert!(text.contains(
            "Cause, confirmed by experiment: on boards of an even side the blank's row is not counted.\n\n\
             The grader tried it on your program: with X, 10 of 10 inputs failed so; with Y, 0 of 10.\n"
        ), "{text}");
        assert!(
            text.contains("It explains 2 fixtures: `Tests/sol2_a.inp`, `Tests/sol2_b.inp`.\n"),
            "{text}"
        );
        assert!(
            text.contains("No single cause was found for the other 4 fixtures: of the causes the grader tried on your program, none explains them.\n"),
            "{text}"
        );
        // The smallest of those the cause does not explain, its input,
        // expected output and the rule written out; then the other names
        // of those, never one the cause explains.
        assert!(
            text.contains("The smallest of the others: `Tests/unsol2_d.inp` (16 bytes)."),
            "{text}"
        );
        assert!(text.contains("Why (the parity rule at work on this input):"));
        assert!(text.contains("even side, so the blank's row counts"));
        assert!(
            text.contains(
                "Also: `Tests/sol4_c.inp`, `Tests/unsol2_e.inp`, `Tests/unsol2_f.inp`.\n"
            ),
            "{text}"
        );
        assert_eq!(text.matches("Tests/sol2_a.inp").count(), 2, "{text}");
        assert_eq!(text.matches("Tests/sol2_b.inp").count(), 1, "{text}");
        // Nothing the student does not have.
        for never in [
            "./puzzle",
            "--explain",
            "README",
            "docs/",
            "the report",
            ".txt",
        ] {
            assert!(!text.contains(never), "{never} in {text}");
        }
    }

    /// A program with two faults, both in some fixtures (tabs and trailing
    /// blanks): each cause is told with every fixture it explains, the
    /// second saying which a cause above explains too, and the fixtures
    /// neither explains counted once.
    #[test]
    fn a_second_fault_in_fixtures_a_first_explains_is_told_too() {
        let wrong = Judgement::Noted(Class::FalseError, "'error'".into());
        let cause = |words: &str, fixtures: Vec<usize>| Confirmed {
            class: Class::FalseError,
            words: words.into(),
            evidence: "with X, 10 of 10 inputs failed so; with Y, 0 of 10".into(),
            fixtures,
            smallest: None,
        };
        let text = feedback_with(
            &INPUTS[..4],
            &[wrong.clone(), wrong.clone(), wrong.clone(), wrong],
            &[
                cause(
                    "a valid input with a tab between tokens is rejected",
                    vec![0, 1],
                ),
                cause(
                    "a valid input with blanks at the end of a line is rejected",
                    vec![1],
                ),
            ],
            &[0, 1, 2, 3],
        );
        assert!(text.contains("Cause, confirmed by experiment: a valid input with a tab between tokens is rejected.\n"), "{text}");
        assert!(
            text.contains("It explains 2 fixtures: `Tests/sol2_a.inp`, `Tests/sol2_b.inp`.\n"),
            "{text}"
        );
        assert!(text.contains("Cause, confirmed by experiment: a valid input with blanks at the end of a line is rejected.\n"), "{text}");
        assert!(
            text.contains("It explains 1 fixture: `Tests/sol2_b.inp` (a cause above explains it too: it has both faults).\n"),
            "{text}"
        );
        assert!(
            text.contains("No single cause was found for the other 2 fixtures"),
            "{text}"
        );
    }

    /// The input of `f`, one of `inputs` (by shown name, with its bytes).
    fn input_of(inputs: &[(&str, &[u8])], f: &Fixture) -> Vec<u8> {
        inputs
            .iter()
            .find(|(n, _)| *n == f.shown)
            .map(|(_, i)| i.to_vec())
            .unwrap()
    }

    /// The feedback of `judgements` on the fixtures `inputs`, all shown,
    /// with no cause and the fixtures `tried`.
    fn plain_feedback(
        inputs: &[(&str, &[u8])],
        judgements: &[Judgement],
        tried: &[usize],
    ) -> String {
        feedback_with(inputs, judgements, &[], tried)
    }

    /// The feedback of `judgements` on the fixtures `inputs`, all shown,
    /// with the `causes` confirmed and the fixtures `tried`.
    fn feedback_with(
        inputs: &[(&str, &[u8])],
        judgements: &[Judgement],
        causes: &[Confirmed],
        tried: &[usize],
    ) -> String {
        let fixtures: Vec<Fixture> = inputs.iter().map(|(n, i)| fixture(n, i)).collect();
        let judgements: Vec<&Judgement> = judgements.iter().collect();
        let bytes = |f: &Fixture| input_of(inputs, f);
        feedback(
            "ann",
            &fixtures,
            &judgements,
            None,
            &|_| Visibility::Visible,
            &bytes,
            Found {
                causes,
                tried,
                flaky: &[],
            },
        )
    }

    #[test]
    fn a_class_without_experiments_is_told_what_its_failures_share_never_that_causes_were_tried() {
        let stderr = |m: &str| {
            Judgement::Noted(
                Class::ErrorOnStderr,
                format!("nothing on stdout (exit status 1); stderr '{m}'"),
            )
        };
        let status = |s: i32, m: &str| {
            Judgement::Noted(
                Class::WrongExitStatus,
                format!("exit status {s} after '{m}', expected EXIT_FAILURE (1)"),
            )
        };
        let inputs: [(&str, &[u8]); 5] = [
            ("Tests/bad_a.inp", b"1 2 3 x\n1 2 3 b\n"),
            ("Tests/bad_b.inp", b"1 2 3 3\n1 2 3 b\n"),
            ("Tests/bad_c.inp", b"1 2 3 0\n1 2 3 b\n"),
            ("Tests/bad_d.inp", b"1 2 3 9\n1 2 3 b\n"),
            ("Tests/bad_e.inp", b"1 2 b\n1 2 3 b\n"),
        ];
        let missed = Judgement::Noted(
            Class::MissedError,
            "accepted it: 'solvable' (exit status 0), expected an error".into(),
        );
        let text = plain_feedback(
            &inputs,
            &[
                stderr("Invalid input"),
                stderr("Invalid input"),
                status(0, "bad tile"),
                status(0, "bad size"),
                missed,
            ],
            &[],
        );
        assert!(
            text.contains("### ERROR ON STDERR on 2 fixtures\n\nWhat they share: each wrote its message on stderr and nothing on stdout (the assignment asks for the message on stdout); the same message each time, 'Invalid input'; exit status 1 each time.\n\nThe smallest: `Tests/bad_a.inp`"),
            "{text}"
        );
        assert!(
            text.contains("### WRONG EXIT STATUS on 2 fixtures\n\nWhat they share: each exited with status 0 after its error message.\n"),
            "{text}"
        );
        // Nothing was tried, for any class: no word of it.
        assert!(!text.contains("tried"), "{text}");
        assert!(!text.contains("No single cause"), "{text}");
        assert!(
            text.contains("### MISSED ERROR on 1 fixture\n\nThe smallest: `Tests/bad_e.inp`"),
            "{text}"
        );
    }

    /// A fixture the machine's load left NOT GRADED is no fault: the
    /// student is told it cost nothing and why, in words of their own.
    #[test]
    fn a_fixture_not_graded_for_the_machine_is_told_apart_from_the_faults() {
        let machines = Judgement::Noted(
            Class::NotGraded,
            format!(
                "{}: stopped at its time limit (10 s) before it had its time: ...",
                crate::shared::machine::MACHINES
            ),
        );
        let text = plain_feedback(&INPUTS[..2], &[Judgement::Passed, machines], &[]);
        assert!(
            text.contains("## Faults\n\nNone among the fixtures shown here.\n"),
            "{text}"
        );
        assert!(text.contains("## Not graded (no marks lost)\n\n- `Tests/sol2_b.inp`: the machine that graded your program was too busy to give it its time limit on this fixture, twice; its points are kept, and it is for your marker to grade it again.\n"), "{text}");
        assert!(!text.contains("NOT GRADED on"), "{text}");
    }

    #[test]
    fn an_input_shows_every_byte_a_reader_could_not_see() {
        assert_eq!(
            input_excerpt(b"1 2 3 b \n1 2 3 b", 4),
            "    1 2 3 b␣\n    1 2 3 b\n\nShown as: ␣ a space at the start or the end of a line. \
             The last line ends without a newline.\n"
        );
        assert_eq!(
            input_excerpt(b"  1\t2\x0b3 b\r\n\n1 2\x003 \xc3\xa9\\\n", 4),
            "    ␣␣1\\t2\\v3 b\\r\n    (empty line)\n    1 2\\03 \\xc3\\xa9\\\\\n\n\
             Shown as: ␣ a space at the start or the end of a line; \\t a tab; \\v a vertical tab; \
             \\r a carriage return; (empty line) a line with nothing on it; \\0 a NUL byte; \
             \\xNN the byte of that value (not printable ASCII); \\\\\\ a backslash.\n"
        );
        // (A backslash before punctuation is Markdown's escape: the note's
        // `\\` is written `\\\`, which a reader shows as `\\`.)
        // Spaces between tokens are seen: left as they are.
        assert_eq!(input_excerpt(b"1  2 3 b\n", 4), "    1  2 3 b\n");
        // A line cut at 100 bytes: its end is not shown, nor marked.
        let long = format!("{} \n", "1 ".repeat(60));
        assert!(!input_excerpt(long.as_bytes(), 4).contains('␣'));
    }

    /// A hostile name, file or message reaches the Markdown inert: no
    /// link, no heading, no line of its own, no markup.
    #[test]
    fn what_a_submission_made_starts_no_markdown() {
        let text = not_built(
            "x](javascript:alert(1))",
            "make failed: <script>alert(1)</script> [a](http://e)",
            b"",
            &["`a`](x)".into(), "b\n# c".into()],
        );
        let first = text.lines().next().unwrap();
        assert_eq!(first, "# Feedback for x\\](javascript:alert(1))");
        assert!(
            text.contains(
                "Not built: make failed: \\<script>alert(1)\\</script> \\[a\\](http://e).\n"
            ),
            "{text}"
        );
        assert!(text.contains("- `` `a`](x) ``\n"), "{text}");
        assert!(text.contains("- `b\\n# c`\n"), "{text}");
        assert!(!text.lines().any(|l| l.starts_with("# c")), "{text}");
        let text = not_built("# x\n## y", "no Makefile", b"", &[]);
        assert!(text.starts_with("# Feedback for # x\\n## y\n\n"), "{text}");
        assert_eq!(
            text.lines().filter(|l| l.starts_with('#')).count(),
            1,
            "{text}"
        );
    }

    #[test]
    fn a_submission_not_built_shows_what_its_build_printed_or_what_happened() {
        let text = not_built(
            "bob",
            "make failed: x.c:1: error: y",
            b"cc x.c\nx.c:1: error: y\n",
            &["x.c".into()],
        );
        assert!(
            text.contains("What the build printed:\n\n    cc x.c\n    x.c:1: error: y\n"),
            "{text}"
        );
        assert!(!text.contains("make.txt"));
        let text = not_built(
            "eve",
            "no Makefile and no .c file",
            b"",
            &["notes.txt".into()],
        );
        assert!(text.contains("The build printed nothing"), "{text}");
        assert!(text.contains("- `notes.txt`"), "{text}");
        assert!(!text.contains("log"), "{text}");
    }
}
