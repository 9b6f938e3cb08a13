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
//! One fault shows on many inputs: the same answer given by the same
//! programs on several inputs counts once (the most it weighs on any of
//! them), and so do different answers split the same way on several.
//! A pair's score is `E / (E + A + 2)`, `E` the evidence for and `A`
//! against: one shared rare fault is 0.33, four 0.67, ten 0.83; the 2
//! keeps a coincidence or two from weighing like a pattern.
//!
//! [`add`] puts the scores into a comparison of the code; the outcomes
//! come from a grading's records (`publishing/similarity.rs`).

use super::report::{Comparison, Pair};
use crate::shared::digest::{fnv1a, fnv1a_more};
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
///
/// One fault shows on many inputs (a program that writes a blank line
/// first fails every fixture so): the same wrong answer given by the same
/// programs on several inputs is one piece of evidence, not one an input;
/// so, against, are different answers split the same way on several
/// inputs. What tells one piece from another is who gave the answer: the
/// group of programs (`groups`).
pub fn scores(outcomes: &[Vec<Option<Outcome>>]) -> Vec<((usize, usize), f64)> {
    let inputs = outcomes.iter().map(Vec::len).max().unwrap_or(0);
    let get = |p: usize, x: usize| outcomes[p].get(x).copied().flatten();
    let groups = groups(outcomes);
    // For each pair, each group of programs that shares a wrong answer
    // with it, and that answer's weight.
    let mut evidence: HashMap<(usize, usize), HashMap<u64, f64>> = HashMap::new();
    let mut agreement = vec![0.0; inputs];
    for (x, agree) in agreement.iter_mut().enumerate() {
        let mut answers: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut wrong: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut ran = 0;
        for p in 0..outcomes.len() {
            if let Some(o) = get(p, x) {
                ran += 1;
                answers.entry(o.answer).or_default().push(p);
                if !o.right {
                    wrong.entry(o.answer).or_default().push(p);
                }
            }
        }
        let top = answers.values().map(Vec::len).max().unwrap_or(0);
        *agree = if ran > 0 {
            (2.0 * top as f64 / ran as f64 - 1.0).max(0.0)
        } else {
            0.0
        };
        for members in wrong.values().filter(|m| m.len() >= 2) {
            let weight = rarity(members.len(), ran);
            if weight <= 0.0 {
                continue;
            }
            let group = groups[x][members[0]];
            for (i, &a) in members.iter().enumerate() {
                for &b in &members[i + 1..] {
                    let held = evidence
                        .entry((a, b))
                        .or_default()
                        .entry(group)
                        .or_default();
                    *held = held.max(weight);
                }
            }
        }
    }
    let mut found: Vec<((usize, usize), f64)> = evidence
        .into_iter()
        .map(|((a, b), held)| {
            let e: f64 = held.values().sum();
            let mut against: HashMap<(u64, u64), f64> = HashMap::new();
            for x in 0..inputs {
                if let (Some(oa), Some(ob)) = (get(a, x), get(b, x)) {
                    if oa.answer != ob.answer && !(oa.right && ob.right) {
                        let split = against.entry((groups[x][a], groups[x][b])).or_default();
                        *split = split.max(agreement[x]);
                    }
                }
            }
            let against: f64 = against.values().sum();
            ((a, b), e / (e + against + PRIOR))
        })
        .collect();
    found.sort_by_key(|x| x.0);
    found
}

/// `groups[x][p]`: who gave program `p`'s answer on input `x`, as a
/// digest of their indices (0 when `p` did not run it).
fn groups(outcomes: &[Vec<Option<Outcome>>]) -> Vec<Vec<u64>> {
    let inputs = outcomes.iter().map(Vec::len).max().unwrap_or(0);
    let mut groups = vec![vec![0; outcomes.len()]; inputs];
    for (x, group_of) in groups.iter_mut().enumerate() {
        let mut answers: HashMap<u64, Vec<usize>> = HashMap::new();
        for (p, o) in outcomes.iter().enumerate() {
            if let Some(Some(o)) = o.get(x) {
                answers.entry(o.answer).or_default().push(p);
            }
        }
        for members in answers.values() {
            let digest = members.iter().fold(fnv1a(b"group"), |d, &p| {
                fnv1a_more(d, &(p as u64).to_le_bytes())
            });
            for &p in members {
                group_of[p] = digest;
            }
        }
    }
    groups
}

/// A wrong answer two programs share on one input (the pages of pairs
/// worth a look show them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shared {
    /// The input.
    pub input: usize,
    /// How many programs of the class gave that answer.
    pub gave: usize,
    /// How many ran the input.
    pub ran: usize,
    /// Its rarity weight (0: a common mistake, no evidence).
    pub weight: f64,
}

/// The wrong answers programs `a` and `b` share, input by input, each
/// with how many of the class gave it.
pub fn shared(outcomes: &[Vec<Option<Outcome>>], a: usize, b: usize) -> Vec<Shared> {
    let get = |p: usize, x: usize| outcomes.get(p).and_then(|o| o.get(x)).copied().flatten();
    let inputs = outcomes.iter().map(Vec::len).max().unwrap_or(0);
    (0..inputs)
        .filter_map(|x| {
            let (oa, ob) = (get(a, x)?, get(b, x)?);
            if oa.right || oa != ob {
                return None;
            }
            let ran = (0..outcomes.len()).filter(|&p| get(p, x).is_some()).count();
            let gave = (0..outcomes.len())
                .filter(|&p| get(p, x) == Some(oa))
                .count();
            Some(Shared {
                input: x,
                gave,
                ran,
                weight: rarity(gave, ran),
            })
        })
        .collect()
}

/// The behaviour's evidence added to `comparison`, `outcomes[p]` being
/// the outcomes of its submission `p` (in its names' order): every pair
/// it lists gets a behaviour score (0 when they share no rare wrong
/// answer), a pair that shares no code but a rare wrong answer is listed
/// for it, and the pairs are put in order again (score in thousandths,
/// highest first, then names).
pub fn add(comparison: &mut Comparison, outcomes: &[Vec<Option<Outcome>>]) {
    let mut found: HashMap<(usize, usize), f64> = scores(outcomes).into_iter().collect();
    for pair in &mut comparison.pairs {
        let key = (pair.a.min(pair.b), pair.a.max(pair.b));
        pair.behaviour = Some(found.remove(&key).unwrap_or(0.0));
    }
    let names = &comparison.names;
    let mut more: Vec<Pair> = found
        .into_iter()
        .filter(|&((a, b), _)| a < names.len() && b < names.len())
        .map(|((a, b), score)| {
            let (a, b) = if names[b] < names[a] { (b, a) } else { (a, b) };
            Pair {
                a,
                b,
                code: 0.0,
                behaviour: Some(score),
                matched: 0,
                matches: Vec::new(),
            }
        })
        .filter(|p| p.millis() > 0)
        .collect();
    comparison.pairs.append(&mut more);
    comparison.sort_pairs();
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
        // 0 and 1 share three faults, each with another program too
        // (three of 20 give each), so that each is a fault of its own.
        for (x, other) in [(0, 10), (1, 11), (2, 12)] {
            for p in [0, 1, other] {
                outcomes[p][x] = wrong(7 + x as u64);
            }
        }
        // 2..8 share another wrong answer on input 5 (7 of 20).
        for program in &mut outcomes[2..9] {
            program[5] = wrong(9);
        }
        let found = scores(&outcomes);
        let rare = score_of(&found, 0, 1);
        let common = score_of(&found, 2, 3);
        assert!(rare > 0.4, "{rare}");
        assert!(common > 0.0 && common < rare / 3.0, "{common}");
        // Half the class giving it: no evidence at all.
        let mut outcomes = class();
        for program in &mut outcomes[..10] {
            program[0] = wrong(9);
        }
        assert!(scores(&outcomes).is_empty());
    }

    #[test]
    fn one_fault_on_many_inputs_counts_once() {
        let mut once = class();
        once[0][0] = wrong(7);
        once[1][0] = wrong(7);
        let mut many = class();
        for program in &mut many[..2] {
            program.fill(wrong(7));
        }
        let (once, many) = (
            score_of(&scores(&once), 0, 1),
            score_of(&scores(&many), 0, 1),
        );
        assert!((once - many).abs() < 1e-9, "{once} {many}");
        // The same two programs wrong on the same three inputs, but each
        // time in company of another: three faults.
        let mut three = class();
        for (x, other) in [(0, 10), (1, 11), (2, 12)] {
            for p in [0, 1, other] {
                three[p][x] = wrong(7);
            }
        }
        assert!(score_of(&scores(&three), 0, 1) > once);
    }

    #[test]
    fn shared_names_each_wrong_answer_with_who_gave_it() {
        let mut outcomes = class();
        for p in [0, 1, 5] {
            outcomes[p][3] = wrong(4);
        }
        outcomes[0][4] = wrong(5);
        let found = shared(&outcomes, 0, 1);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].input, found[0].gave, found[0].ran), (3, 3, 20));
        assert!(found[0].weight > 0.0);
    }

    #[test]
    fn the_behaviour_is_added_to_a_comparison_of_the_code() {
        let mut outcomes = class();
        // 2 and 3 share a rare wrong answer, and no code.
        outcomes[2][0] = wrong(4);
        outcomes[3][0] = wrong(4);
        let names: Vec<String> = (0..20).map(|i| format!("s{i:02}")).collect();
        let mut comparison = Comparison {
            names,
            files: vec![Vec::new(); 20],
            places: vec![Vec::new(); 20],
            pairs: vec![Pair {
                a: 0,
                b: 1,
                code: 0.2,
                behaviour: None,
                matched: 1,
                matches: Vec::new(),
            }],
            common: 18,
            k: 12,
            t: 20,
            notes: Vec::new(),
        };
        add(&mut comparison, &outcomes);
        let pairs: Vec<(usize, usize, Option<u32>, u32)> = comparison
            .pairs
            .iter()
            .map(|p| {
                (
                    p.a,
                    p.b,
                    p.behaviour.map(|b| (b * 1000.0).round() as u32),
                    p.millis(),
                )
            })
            .collect();
        // 2 and 3 first (0.333), then 0 and 1 with a behaviour of 0.
        assert_eq!(pairs, [(2, 3, Some(333), 333), (0, 1, Some(0), 200)]);
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
