//! Evidence weighed by rarity: the program's words (its strings,
//! characters and numbers as written: renaming leaves them, a copier who
//! restructures the code seldom rewrites its messages and constants, and
//! independent authors seldom write the same ones), and its surface's
//! shingles (tokens as written, own names one symbol). Each word weighs by its
//! rarity in the class, `ln(1 + n / held)` (`held` of the `n` submissions
//! use it); the template's words and those more than `common` submissions
//! use weigh nothing.

use std::collections::HashMap;

/// The weight of what `held` of a class of `class` submissions hold (at
/// least one: the one being weighed), `ln(1 + class / held)`: the rarer,
/// the heavier. The words' and the fingerprints' ([`super::index`]).
pub fn rarity(held: usize, class: usize) -> f64 {
    (1.0 + class as f64 / held.max(1) as f64).ln()
}

/// The words of a class: how many submissions use each.
pub struct Words {
    counts: HashMap<u64, u32>,
    template: Vec<u64>,
    common: usize,
    class: usize,
}

impl Words {
    /// The words of a class whose submissions' words (each sorted, each
    /// word once) are `each`; the template's are `template` (sorted).
    pub fn new<'a>(
        each: impl Iterator<Item = &'a [u64]>,
        template: &[u64],
        common: usize,
    ) -> Words {
        let mut counts: HashMap<u64, u32> = HashMap::new();
        let mut class = 0;
        for words in each {
            class += 1;
            for &w in words {
                *counts.entry(w).or_default() += 1;
            }
        }
        Words {
            counts,
            template: template.to_vec(),
            common,
            class,
        }
    }

    /// The weight of `word`.
    fn weight(&self, word: u64) -> f64 {
        let held = self.counts.get(&word).copied().unwrap_or(1) as usize;
        if held > self.common || self.template.binary_search(&word).is_ok() {
            return 0.0;
        }
        rarity(held, self.class)
    }

    /// The share of their words two submissions (their words sorted) have
    /// in common, each by its weight: `2 * shared / (a's + b's)`; 0 when
    /// neither has a word of weight.
    pub fn share(&self, a: &[u64], b: &[u64]) -> f64 {
        let (mut both, mut total) = (0.0, 0.0);
        let (mut i, mut j) = (0, 0);
        loop {
            match (a.get(i), b.get(j)) {
                (Some(x), Some(y)) if x == y => {
                    let w = 2.0 * self.weight(*x);
                    both += w;
                    total += w;
                    i += 1;
                    j += 1;
                }
                (Some(x), Some(y)) if x < y => {
                    total += self.weight(*x);
                    i += 1;
                }
                (Some(x), None) => {
                    total += self.weight(*x);
                    i += 1;
                }
                (_, Some(y)) => {
                    total += self.weight(*y);
                    j += 1;
                }
                (None, None) => break,
            }
        }
        if total > 0.0 {
            both / total
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rare_words_shared_weigh_and_common_ones_do_not() {
        let docs: Vec<Vec<u64>> = vec![vec![1, 2, 3], vec![1, 2, 4], vec![1, 5, 6], vec![1, 7, 8]];
        let words = Words::new(docs.iter().map(Vec::as_slice), &[], 3);
        // 1 is in all four (more than 3): no weight; 2 is shared by two.
        let ab = words.share(&docs[0], &docs[1]);
        let w2 = (1.0f64 + 4.0 / 2.0).ln();
        let w1 = (1.0f64 + 4.0).ln();
        assert!(
            (ab - 2.0 * w2 / (2.0 * w2 + 2.0 * w1)).abs() < 1e-12,
            "{ab}"
        );
        assert_eq!(words.share(&docs[2], &docs[3]), 0.0);
        assert_eq!(words.share(&docs[0], &docs[0]), 1.0);
        // The template's words weigh nothing.
        let words = Words::new(docs.iter().map(Vec::as_slice), &[2, 3, 4], 3);
        assert_eq!(words.share(&docs[0], &docs[1]), 0.0);
        assert_eq!(words.share(&[], &[]), 0.0);
    }
}
