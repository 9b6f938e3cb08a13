//! The files of a comparison of the class ([`crate::similarity`]):
//! `similarity.csv`, a line a pair that shares code (its names, its score,
//! the code's and the behaviour's), and `similarity-blocks.csv`, a line a
//! matched block (where it is on each side, how many submissions hold
//! it). Names are quoted, and a name a spreadsheet would take for a
//! formula starts with `'` ([`csv_quoted`]).

use crate::judging::class::{Class, Outcome as Judged};
use crate::publishing::record::{csv_quoted, FixtureLine, Record};
use crate::shared::digest::{fnv1a, fnv1a_more};
use crate::similarity::behaviour::Outcome;
use crate::similarity::report::{decimal, Comparison};
use std::collections::HashMap;
use std::fmt::Write as _;

/// What a grading tells of the class's behaviour, as similarity reads it:
/// each program's outcome on each fixture the grading ran (the one
/// reading of a grading's records for similarity).
#[allow(dead_code)] // the pages of pairs (the next commit) show them
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
}
