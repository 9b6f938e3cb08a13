//! The files of a comparison of the class ([`crate::similarity`]):
//! `similarity.csv`, a line a pair that shares code (its names, its score,
//! the code's and the behaviour's), and `similarity-blocks.csv`, a line a
//! matched block (where it is on each side, how many submissions hold
//! it). Names are quoted, and a name a spreadsheet would take for a
//! formula starts with `'` ([`csv_quoted`]).

use crate::publishing::record::csv_quoted;
use crate::similarity::report::{decimal, Comparison};
use std::fmt::Write as _;

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
