//! Behaviour as evidence: two programs that give the same rare wrong
//! answer on the same input carry evidence no renaming or reordering
//! hides. It takes each program's outcome on each input as plain data (a
//! digest of what it did, and whether that was right: the grading decides
//! both) and returns a score for each pair that shares a wrong answer.
//!
//! On each input, among the programs that ran it:
//! - a right answer is no evidence (everyone should give it);
//! - the same wrong answer (the same output bytes, the same crash, the
//!   same wrong verdict) given by `c` of the `n` programs is evidence for
//!   each pair of them, weighted by its rarity, `ln(n / 2c) / ln(n / 4)`:
//!   1 when only the two give it, 0 when half the class does (a common
//!   mistake, not evidence); a class of 4 programs or fewer gives none;
//! - different answers, one of them wrong, count against the pair as much
//!   as the class agrees on that input (`2 p - 1`, `p` the share of the
//!   most common answer: 1 when all but one agree, 0 when it is split).
//!
//! A pair's score is `E / (E + A + 2)`, `E` the evidence for and `A`
//! against: one shared rare wrong answer is 0.33, four 0.67, ten 0.83;
//! the 2 keeps a coincidence or two from weighing like a pattern.

use std::collections::HashMap;

/// A program's outcome on one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// A digest of what it did (its output, its ending, its verdict).
    pub answer: u64,
    /// Whether that was right.
    pub right: bool,
}

/// How much one shared wrong answer weighs against a pair's total.
const PRIOR: f64 = 2.0;

/// The rarity weight of an answer `c` programs of `n` gave.
fn rarity(c: usize, n: usize) -> f64 {
    if 2 * c >= n || n <= 4 {
        return 0.0;
    }
    let (c, n) = (c as f64, n as f64);
    ((n / (2.0 * c)).ln() / (n / 4.0).ln()).clamp(0.0, 1.0)
}

/// The behaviour scores of the pairs of programs that share a wrong
/// answer: `outcomes[p][x]` is program `p`'s outcome on input `x` (none:
/// not run). Each pair `(a, b)`, `a < b`, once, with its score above 0, in
/// order.
pub fn scores(outcomes: &[Vec<Option<Outcome>>]) -> Vec<((usize, usize), f64)> {
    let inputs = outcomes.iter().map(Vec::len).max().unwrap_or(0);
    let get = |p: usize, x: usize| outcomes[p].get(x).copied().flatten();
    let mut evidence: HashMap<(usize, usize), f64> = HashMap::new();
    // Per input: how many programs ran it, and the share of its most
    // common answer.
    let mut agreement = vec![0.0; inputs];
    for (x, agree) in agreement.iter_mut().enumerate() {
        let mut groups: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut ran = 0;
        for p in 0..outcomes.len() {
            if let Some(o) = get(p, x) {
                ran += 1;
                if !o.right {
                    groups.entry(o.answer).or_default().push(p);
                }
            }
        }
        let mut counts: HashMap<u64, usize> = HashMap::new();
        for p in 0..outcomes.len() {
            if let Some(o) = get(p, x) {
                *counts.entry(o.answer).or_default() += 1;
            }
        }
        let top = counts.values().copied().max().unwrap_or(0);
        *agree = if ran > 0 {
            (2.0 * top as f64 / ran as f64 - 1.0).max(0.0)
        } else {
            0.0
        };
        for members in groups.values().filter(|m| m.len() >= 2) {
            let weight = rarity(members.len(), ran);
            if weight <= 0.0 {
                continue;
            }
            for (i, &a) in members.iter().enumerate() {
                for &b in &members[i + 1..] {
                    *evidence.entry((a, b)).or_default() += weight;
                }
            }
        }
    }
    let mut found: Vec<((usize, usize), f64)> = evidence
        .into_iter()
        .map(|((a, b), e)| {
            let against: f64 = (0..inputs)
                .filter_map(|x| match (get(a, x), get(b, x)) {
                    (Some(oa), Some(ob)) if oa.answer != ob.answer && !(oa.right && ob.right) => {
                        Some(agreement[x])
                    }
                    _ => None,
                })
                .sum();
            ((a, b), e / (e + against + PRIOR))
        })
        .collect();
    found.sort_by_key(|x| x.0);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn right() -> Option<Outcome> {
        Some(Outcome {
            answer: 1,
            right: true,
        })
    }

    fn wrong(answer: u64) -> Option<Outcome> {
        Some(Outcome {
            answer,
            right: false,
        })
    }

    /// A class of 20 programs, all right on 10 inputs.
    fn class() -> Vec<Vec<Option<Outcome>>> {
        vec![vec![right(); 10]; 20]
    }

    fn score_of(found: &[((usize, usize), f64)], a: usize, b: usize) -> f64 {
        found
            .iter()
            .find(|(p, _)| *p == (a, b))
            .map_or(0.0, |(_, s)| *s)
    }

    #[test]
    fn right_answers_are_no_evidence() {
        assert!(scores(&class()).is_empty());
    }

    #[test]
    fn a_rare_shared_wrong_answer_weighs_more_than_a_common_one() {
        let mut outcomes = class();
        // 0 and 1 share a wrong answer nobody else gives, on three inputs.
        for program in &mut outcomes[..2] {
            program[..3].fill(wrong(7));
        }
        // 2..8 share another wrong answer on input 5 (7 of 20).
        for program in &mut outcomes[2..9] {
            program[5] = wrong(9);
        }
        let found = scores(&outcomes);
        let rare = score_of(&found, 0, 1);
        let common = score_of(&found, 2, 3);
        assert!(rare > 0.5, "{rare}");
        assert!(common > 0.0 && common < rare / 3.0, "{common}");
        // Half the class giving it: no evidence at all.
        let mut outcomes = class();
        for program in &mut outcomes[..10] {
            program[0] = wrong(9);
        }
        assert!(scores(&outcomes).is_empty());
    }

    #[test]
    fn different_answers_where_the_class_agrees_count_against() {
        let mut outcomes = class();
        outcomes[0][0] = wrong(7);
        outcomes[1][0] = wrong(7);
        let alone = score_of(&scores(&outcomes), 0, 1);
        // On three other inputs, 0 is wrong where 1 and all the others
        // are right.
        for (x, outcome) in outcomes[0].iter_mut().enumerate().take(4).skip(1) {
            *outcome = wrong(100 + x as u64);
        }
        let against = score_of(&scores(&outcomes), 0, 1);
        assert!(against < alone, "{against} {alone}");
        assert!((alone - 1.0 / 3.0).abs() < 1e-9, "{alone}");
    }

    #[test]
    fn programs_not_run_and_a_tiny_class_give_nothing() {
        let outcomes = vec![
            vec![wrong(3), None],
            vec![wrong(3), None],
            vec![right(), None],
        ];
        assert!(scores(&outcomes).is_empty());
    }
}
