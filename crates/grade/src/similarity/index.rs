//! The class's index: each submission's fingerprints, how many submissions
//! hold each, what is no evidence, and the pairs worth aligning.
//!
//! - A k-gram of the template (`--template`) is no evidence, and nor is a
//!   fingerprint more than `common` submissions hold (MOSS's `-m`): the
//!   symbols they cover are excluded from every submission, and so is a
//!   stretch between excluded ones too short to be matched (under `k`
//!   symbols). What is left is a submission's evidence.
//! - The candidate pairs come from the index, not from all pairs: for
//!   each submission, the others that hold at least two of its evidence's
//!   fingerprints (or all of them, for a tiny one) weighing a tenth of the
//!   lighter one's, each fingerprint weighed by its rarity in the class
//!   (`ln(1 + n / held)`), counted through the postings of those
//!   fingerprints (those of more than 200 submissions left out: they tell
//!   no pair from another, and would cost the square of the class).

use super::fingerprint::{winnow, Print, NONE};
use super::tiling::usable_grams;
use super::words::rarity;
use super::work::each;
use std::collections::HashMap;

/// A submission's fingerprints, before and after the class is known.
#[derive(Debug, Default)]
pub struct Prints {
    /// The hash of the k-gram at each symbol.
    pub hashes: Vec<u64>,
    /// The fingerprints winnowing chose (none of the template).
    pub prints: Vec<Print>,
    /// Which symbols are no evidence (template, common, too short a
    /// stretch between).
    pub excluded: Vec<bool>,
    /// `(hash, first symbol)` of each k-gram of its evidence, sorted.
    pub grams: Vec<(u64, u32)>,
    /// Each symbol's weight: its rarity in the class, `ln(1 + n / held)`
    /// (`held` the fewest submissions that hold a fingerprint of a k-gram
    /// it is in; 1 when none); 0 when it is no evidence.
    pub weights: Vec<f32>,
    /// The sum of `weights`.
    pub weight: f64,
}

impl Prints {
    /// The fingerprints of a normal form whose k-gram hashes are
    /// `hashes`, with windows of `w`; those whose hash is in `template`
    /// (sorted) are never chosen.
    pub fn new(mut hashes: Vec<u64>, w: usize, template: &[u64]) -> Prints {
        let original = hashes.clone();
        for h in &mut hashes {
            if template.binary_search(h).is_ok() {
                *h = NONE;
            }
        }
        let prints = winnow(&hashes, w);
        Prints {
            hashes: original,
            prints,
            ..Prints::default()
        }
    }
}

/// How many submissions hold each fingerprint.
pub type Counts = HashMap<u64, u32>;

/// How many submissions hold each fingerprint of `docs`.
pub fn document_counts(docs: &[Prints]) -> Counts {
    let mut counts: Counts = HashMap::new();
    for d in docs {
        let mut mine: Vec<u64> = d.prints.iter().map(|p| p.hash).collect();
        mine.sort_unstable();
        mine.dedup();
        for h in mine {
            *counts.entry(h).or_default() += 1;
        }
    }
    counts
}

/// Marks in `doc` (of `len` symbols) what is no evidence: k-grams of
/// `template` (sorted), k-grams whose fingerprint more than `common`
/// submissions hold, and stretches between them shorter than `k`; then its
/// usable k-grams and each symbol's weight (`class`
/// submissions in all).
pub fn exclude(
    doc: &mut Prints,
    len: usize,
    k: usize,
    template: &[u64],
    counts: &Counts,
    (common, class): (usize, usize),
) {
    let mut excluded = vec![false; len];
    for (p, h) in doc.hashes.iter().enumerate() {
        let shared = counts.get(h).is_some_and(|&c| c as usize > common);
        if shared || template.binary_search(h).is_ok() {
            for e in &mut excluded[p..p + k] {
                *e = true;
            }
        }
    }
    // A stretch of evidence too short to be matched is none.
    let mut p = 0;
    while p < len {
        if excluded[p] {
            p += 1;
            continue;
        }
        let start = p;
        while p < len && !excluded[p] {
            p += 1;
        }
        if p - start < k {
            for e in &mut excluded[start..p] {
                *e = true;
            }
        }
    }
    // Each symbol as rare as the rarest fingerprint over it: a stretch
    // only these few hold weighs more than the task's idiom.
    let mut held = vec![u32::MAX; len];
    for p in &doc.prints {
        let c = counts.get(&p.hash).copied().unwrap_or(1);
        let from = (p.pos as usize).min(len);
        for h in &mut held[from..(from + k).min(len)] {
            *h = (*h).min(c);
        }
    }
    doc.weights = held
        .iter()
        .zip(&excluded)
        .map(|(&h, &e)| {
            if e {
                0.0
            } else {
                rarity(if h == u32::MAX { 1 } else { h as usize }, class) as f32
            }
        })
        .collect();
    doc.weight = doc.weights.iter().map(|&w| f64::from(w)).sum();
    doc.grams = if len >= k {
        usable_grams(&doc.hashes, &excluded, k)
    } else {
        Vec::new()
    };
    doc.excluded = excluded;
}

/// Fingerprints more submissions than this hold are left out of the
/// estimate that picks the pairs to align (not out of the evidence): a
/// passage a fifth of a large class shares tells no pair from another,
/// and counting its pairs would cost the square of the class.
const CROWD: u32 = 200;

/// A pair is aligned when the fingerprints it shares weigh at least this
/// share of the lighter one's (each fingerprint by its rarity): less is
/// idiom, not copying, and its score is taken as 0.
const ESTIMATE: f64 = 0.1;

/// The fingerprints of `doc`'s evidence that count in the estimate (held
/// by `common` submissions at most, and by [`CROWD`]): distinct hashes,
/// sorted, each with how many hold it.
fn evidence_prints(doc: &Prints, k: usize, counts: &Counts, common: usize) -> Vec<(u64, u32)> {
    let most = (common as u32).min(CROWD);
    let mut found: Vec<(u64, u32)> = doc
        .prints
        .iter()
        .filter(|p| {
            let p0 = p.pos as usize;
            !doc.excluded[p0..p0 + k].iter().any(|&e| e)
        })
        .filter_map(|p| {
            let held = counts.get(&p.hash).copied().unwrap_or(1);
            (held <= most).then_some((p.hash, held))
        })
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// The pairs `(i, j)`, `i < j`, worth aligning (see the module), in order:
/// those that share at least two fingerprints of their evidence (or the
/// whole of a tiny one's), weighing at least [`ESTIMATE`] of the lighter
/// one's fingerprints, each fingerprint weighed by its rarity.
pub fn candidates(
    docs: &[Prints],
    k: usize,
    counts: &Counts,
    common: usize,
    jobs: usize,
) -> Vec<(u32, u32)> {
    let n = docs.len();
    let evidence: Vec<Vec<(u64, u32)>> = docs
        .iter()
        .map(|d| evidence_prints(d, k, counts, common))
        .collect();
    let weight: Vec<f64> = evidence
        .iter()
        .map(|e| e.iter().map(|&(_, held)| rarity(held as usize, n)).sum())
        .collect();
    // The postings: for each fingerprint held by two or more, who holds it.
    let mut postings: HashMap<u64, Vec<u32>> = HashMap::new();
    for (i, prints) in evidence.iter().enumerate() {
        for &(h, held) in prints {
            if held >= 2 {
                postings.entry(h).or_default().push(i as u32);
            }
        }
    }
    let rows: Vec<Vec<(u32, u32)>> = each(n, jobs, &|i, row: &mut Vec<(u32, f64)>| {
        row.clear();
        row.resize(n, (0, 0.0));
        for &(h, held) in &evidence[i] {
            let Some(holders) = postings.get(&h) else {
                continue;
            };
            let w = rarity(held as usize, n);
            for &j in holders {
                if j as usize > i {
                    let cell = &mut row[j as usize];
                    cell.0 += 1;
                    cell.1 += w;
                }
            }
        }
        let mine = evidence[i].len();
        (i + 1..n)
            .filter(|&j| {
                let (s, w) = (row[j].0 as usize, row[j].1);
                let least = mine.min(evidence[j].len());
                let lighter = weight[i].min(weight[j]);
                (s >= 2 || s >= 1 && s == least) && w >= ESTIMATE * lighter
            })
            .map(|j| (i as u32, j as u32))
            .collect()
    });
    rows.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(hashes: &[u64]) -> Prints {
        Prints::new(hashes.to_vec(), 1, &[])
    }

    #[test]
    fn common_and_template_grams_are_excluded_with_short_stretches() {
        let k = 2;
        // 8 symbols, 7 k-grams; every k-gram is a fingerprint (w = 1).
        let mut a = doc(&[1, 2, 3, 4, 5, 6, 7]);
        let others = [doc(&[3, 9]), doc(&[3, 10])];
        let mut all = vec![doc(&[1, 2, 3, 4, 5, 6, 7])];
        all.extend(others);
        let counts = document_counts(&all);
        assert_eq!(counts[&3], 3);
        // k-gram 3 (symbols 2, 3) is common (in more than 2), k-gram 6
        // (symbols 5, 6) is the template's; symbols 4 and 7 alone are too
        // short to be matched.
        exclude(&mut a, 8, k, &[6], &counts, (2, 3));
        assert_eq!(
            a.excluded,
            [false, false, true, true, true, true, true, true]
        );
        assert_eq!(a.weights.iter().filter(|&&w| w > 0.0).count(), 2);
        // Its evidence weighs by rarity: the fingerprints over its two
        // symbols (1 and 2) are held by 1 of the 3.
        let w = (1.0f64 + 3.0).ln();
        assert!((a.weight - 2.0 * w).abs() < 1e-5, "{}", a.weight);
        assert_eq!(a.weights[2..], [0.0; 6]);
        assert_eq!(a.grams, [(1, 0)]);
    }

    #[test]
    fn candidates_share_rare_fingerprints() {
        let k = 1;
        let mut docs = vec![
            doc(&[1, 2, 3]),
            doc(&[1, 2, 4]),
            doc(&[1, 3, 5]),
            doc(&[4, 5, 7]),
        ];
        let counts = document_counts(&docs);
        for d in &mut docs {
            let len = d.hashes.len();
            exclude(d, len, k, &[], &counts, (10, 4));
        }
        // 0 shares two with 1 and with 2; the others share one.
        assert_eq!(candidates(&docs, k, &counts, 10, 2), [(0, 1), (0, 2)]);
        // With 1 common (more than 2 hold it), they share one at most.
        assert_eq!(
            candidates(&docs, k, &counts, 2, 1),
            Vec::<(u32, u32)>::new()
        );
        // A tiny one shared whole is a candidate.
        let mut docs = vec![doc(&[8]), doc(&[8, 9, 10])];
        let counts = document_counts(&docs);
        for d in &mut docs {
            let len = d.hashes.len();
            exclude(d, len, k, &[], &counts, (10, 4));
        }
        assert_eq!(candidates(&docs, k, &counts, 10, 1), [(0, 1)]);
    }
}
