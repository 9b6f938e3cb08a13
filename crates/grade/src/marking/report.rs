//! A program's report: the report lines class by class, the messages, the
//! table, the slowest run and the last line; and its counts for a row of
//! `grade-all`'s table.

use crate::judging::class::Class;
use crate::judging::fixture::{Category, Fixture};
use crate::judging::judge::{Graded, Judgement};
use crate::marking::cause::Confirmed;
use crate::marking::marks::{lost_in_words, points, Score};
use std::io::{self, Write};
use std::time::Duration;

/// What a report adds up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Fixtures of each category (bad, sol, unsol).
    pub fixtures: [usize; 3],
    /// Failed fixtures of each category.
    pub failed: [usize; 3],
    /// Fixtures of each category that were not judged (NOT GRADED): neither
    /// passed nor failed.
    pub not_graded: [usize; 3],
    /// Report lines of each class and category, in [`Class::ALL`]'s order.
    pub classes: [[usize; 3]; Class::ALL.len()],
    /// The time of all runs (of a marked report: every run the program's
    /// grading made; else its fixtures' runs).
    pub total: Duration,
    /// The slowest run: its fixture's index, its time and its limit.
    pub slowest: Option<(usize, Duration, u64)>,
    /// Fixtures whose runs disagreed (FLAKY).
    pub flaky: usize,
}

impl Counts {
    /// The counts of `graded`, fixture by fixture.
    pub fn of(fixtures: &[Fixture], graded: &[Graded], strict: bool) -> Counts {
        let mut counts = Counts::default();
        for (i, (fixture, graded)) in fixtures.iter().zip(graded).enumerate() {
            let column = fixture.named as usize;
            counts.fixtures[column] += 1;
            match &graded.judgement {
                Judgement::Noted(class, _) if !class.judged() => counts.not_graded[column] += 1,
                j if j.fails(strict) => counts.failed[column] += 1,
                _ => {}
            }
            counts.flaky += usize::from(graded.flaky.is_some());
            if let Judgement::Noted(class, _) = graded.judgement {
                counts.classes[class as usize][column] += 1;
            }
            if let Some((elapsed, limit)) = graded.time {
                counts.total += elapsed;
                if counts
                    .slowest
                    .is_none_or(|(_, slowest, _)| elapsed >= slowest)
                {
                    counts.slowest = Some((i, elapsed, limit));
                }
            }
        }
        counts
    }

    /// Fixtures of a class, all categories.
    pub fn of_class(&self, class: Class) -> usize {
        self.classes[class as usize].iter().sum()
    }

    /// All fixtures.
    pub fn total_fixtures(&self) -> usize {
        self.fixtures.iter().sum()
    }

    /// All failed fixtures.
    pub fn total_failed(&self) -> usize {
        self.failed.iter().sum()
    }

    /// All fixtures not judged (NOT GRADED).
    pub fn total_not_graded(&self) -> usize {
        self.not_graded.iter().sum()
    }

    /// Passed fixtures of each category: neither failed nor not graded.
    pub fn passed(&self) -> [usize; 3] {
        [0, 1, 2].map(|i| self.fixtures[i] - self.failed[i] - self.not_graded[i])
    }

    /// All passed fixtures.
    pub fn total_passed(&self) -> usize {
        self.passed().iter().sum()
    }
}

/// `d` in seconds with two decimals, cut (not rounded).
pub fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    format!("{}.{:02}", ms / 1000, ms % 1000 / 10)
}

/// Writes the report of `graded` (one per fixture): the causes that failing
/// fixtures of a class share (a `cause` line each, as the feedback names
/// them), the report lines class by class, then the messages, `between` (a
/// fuzzing's transcript), the table, the slowest run, its score and what
/// each class of fault cost,
/// `score 68 of 100; lost: wrong verdict 30, format 2` (as `score_line` writes it),
/// and the last line, `N passed, M failed`. `all_runs` is the time of every
/// run the program's grading made (its fixtures', their repeats and
/// confirmations, the experiments', the fuzzing's), which the report's
/// `all runs` and the counts' total give.
#[allow(clippy::too_many_arguments)]
pub fn write_marked_report<W: Write>(
    out: &mut W,
    fixtures: &[Fixture],
    graded: &[Graded],
    strict: bool,
    between: &[u8],
    score: &Score,
    causes: &[Confirmed],
    all_runs: Duration,
) -> io::Result<Counts> {
    write_any_report(
        out,
        fixtures,
        graded,
        strict,
        between,
        Some((score, all_runs)),
        causes,
    )
}

/// A marked program's score and what each class of fault cost, in a line:
/// `score 68 of 100; lost: wrong verdict 30, format 2` (`lost: nothing`
/// when nothing was); the amounts add up (see [`Score::lost_by_class`]).
pub fn score_line(score: &Score, graded: &[Graded]) -> String {
    format!(
        "score {} of {}; lost: {}",
        points(score.total),
        points(score.max),
        lost_in_words(&score.lost_by_class(graded))
    )
}

/// `n fixture(s)`.
fn fixtures_word(n: usize) -> String {
    format!("{n} fixture{}", if n == 1 { "" } else { "s" })
}

fn write_any_report<W: Write>(
    out: &mut W,
    fixtures: &[Fixture],
    graded: &[Graded],
    strict: bool,
    between: &[u8],
    marked: Option<(&Score, Duration)>,
    causes: &[Confirmed],
) -> io::Result<Counts> {
    // First the causes: each an experiment confirmed, with its evidence;
    // the failing fixtures of a class that none explains, counted.
    for class in Class::ALL.into_iter().filter(|c| c.fails(strict)) {
        let group: Vec<usize> = (0..fixtures.len().min(graded.len()))
            .filter(|&i| matches!(&graded[i].judgement, Judgement::Noted(c, _) if *c == class))
            .collect();
        if group.is_empty() {
            continue;
        }
        // A fixture two causes explain (a program with two faults, both in
        // it) is counted once.
        let mut explained: Vec<usize> = Vec::new();
        for cause in causes.iter().filter(|c| c.class == class) {
            let n = cause.fixtures.len();
            for &i in &cause.fixtures {
                if !explained.contains(&i) {
                    explained.push(i);
                }
            }
            writeln!(
                out,
                "{:<17} {} on {}: {} (confirmed: {})",
                "cause",
                class.name(),
                fixtures_word(n),
                cause.words,
                cause.evidence
            )?;
        }
        let unexplained = group.iter().filter(|i| !explained.contains(i)).count();
        if unexplained > 0 && class.has_suspects() {
            writeln!(
                out,
                "{:<17} {} on {}: no single cause confirmed",
                "cause",
                class.name(),
                fixtures_word(unexplained)
            )?;
        }
    }
    for class in Class::ALL {
        for (fixture, graded) in fixtures.iter().zip(graded) {
            if let Judgement::Noted(c, text) = &graded.judgement {
                if *c == class {
                    writeln!(out, "{:<17} {}: {text}", class.name(), fixture.shown)?;
                }
            }
        }
    }
    // Runs that disagreed, however each was marked.
    for (fixture, graded) in fixtures.iter().zip(graded) {
        if let Some(flaky) = &graded.flaky {
            writeln!(out, "{:<17} {}: {flaky}", "FLAKY", fixture.shown)?;
        }
    }
    for (fixture, graded) in fixtures.iter().zip(graded) {
        if let Judgement::Message(text) = &graded.judgement {
            writeln!(out, "{:<17} {}: {text}", "msg", fixture.shown)?;
        }
    }
    out.write_all(between)?;
    let mut counts = Counts::of(fixtures, graded, strict);
    if let Some((_, all_runs)) = marked {
        counts.total = all_runs;
    }
    let row = |out: &mut W, name: &str, c: [usize; 3]| {
        let total: usize = c.iter().sum();
        writeln!(
            out,
            "{name:<17} {:>6} {:>6} {:>6} {total:>6}",
            c[0], c[1], c[2]
        )
    };
    let names = Category::ALL.map(Category::name);
    writeln!(
        out,
        "{:<17} {:>6} {:>6} {:>6} {:>6}",
        "", names[0], names[1], names[2], "total"
    )?;
    row(out, "fixtures", counts.fixtures)?;
    row(out, "passed", counts.passed())?;
    for class in Class::ALL {
        row(out, class.name(), counts.classes[class as usize])?;
    }
    if let Some((i, slowest, limit)) = counts.slowest {
        writeln!(
            out,
            "slowest: {}, {} s (limit {limit} s); all runs {} s",
            fixtures[i].shown,
            seconds(slowest),
            seconds(counts.total)
        )?;
    }
    if let Some((score, _)) = marked {
        writeln!(out, "{}", score_line(score, graded))?;
    }
    write!(
        out,
        "{} passed, {} failed",
        counts.total_passed(),
        counts.total_failed()
    )?;
    // Said only when there are any: the line is the same as before for
    // every report without them.
    match counts.total_not_graded() {
        0 => {}
        n => write!(out, ", {n} not graded")?,
    }
    if strict {
        write!(out, " (STRICT: byte for byte against the reference)")?;
    }
    writeln!(out)?;
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::fixture::Allowed;
    use std::path::PathBuf;

    fn fixture(name: &str) -> Fixture {
        let named = Category::of_name(name);
        Fixture {
            shown: format!("Tests/{name}"),
            path: PathBuf::from(name),
            size: 10,
            digest: 0,
            named,
            allowed: Allowed::Only(named),
            choices: Vec::new(),
            expected: Vec::new(),
        }
    }

    #[test]
    fn a_report_lists_classes_in_order_then_messages_then_the_table() {
        let fixtures = [fixture("sol_a"), fixture("bad_b"), fixture("unsol_c")];
        let graded = [
            Graded {
                judgement: Judgement::Noted(Class::Format, "line 1: x".into()),
                time: Some((Duration::from_millis(1234), 11)),
                flaky: None,
                output: None,
            },
            Graded {
                judgement: Judgement::Message("Invalid input".into()),
                time: Some((Duration::from_millis(20), 11)),
                flaky: None,
                output: None,
            },
            Graded {
                judgement: Judgement::Noted(Class::WrongVerdict, "'solvable'".into()),
                time: Some((Duration::from_millis(1234), 12)),
                flaky: None,
                output: None,
            },
        ];
        let mut out = Vec::new();
        let counts = write_any_report(&mut out, &fixtures, &graded, false, b"", None, &[]).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // No experiment confirmed a cause: the report says so first.
        assert_eq!(
            lines[0],
            "cause             WRONG VERDICT on 1 fixture: no single cause confirmed"
        );
        let lines = &lines[1..];
        assert_eq!(lines[0], "WRONG VERDICT     Tests/unsol_c: 'solvable'");
        assert_eq!(lines[1], "FORMAT            Tests/sol_a: line 1: x");
        assert_eq!(lines[2], "msg               Tests/bad_b: Invalid input");
        assert_eq!(lines[3], "                     bad    sol  unsol  total");
        assert_eq!(lines[5], "passed                 1      1      0      2");
        assert_eq!(lines[6], "WRONG VERDICT          0      0      1      1");
        // The later of two equal times is the slowest.
        assert_eq!(
            lines[lines.len() - 2],
            "slowest: Tests/unsol_c, 1.23 s (limit 12 s); all runs 2.48 s"
        );
        assert_eq!(lines[lines.len() - 1], "2 passed, 1 failed");
        assert_eq!(counts.total_failed(), 1);
        // With STRICT, the format difference fails too.
        let mut out = Vec::new();
        let counts = write_any_report(&mut out, &fixtures, &graded, true, b"", None, &[]).unwrap();
        assert_eq!(counts.total_failed(), 2);
        assert!(String::from_utf8(out)
            .unwrap()
            .ends_with("1 passed, 2 failed (STRICT: byte for byte against the reference)\n"));
    }

    #[test]
    fn seconds_are_cut_to_hundredths() {
        assert_eq!(seconds(Duration::from_millis(1999)), "1.99");
        assert_eq!(seconds(Duration::from_millis(5)), "0.00");
    }
}
