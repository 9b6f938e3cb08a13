//! Fingerprints of a normal form: the hash of every window of `k`
//! symbols (a k-gram), and the winnowed few that stand for them
//! (Schleimer, Wilkerson and Aiken, "Winnowing: local algorithms for
//! document fingerprinting", SIGMOD 2003). `k` is the noise threshold: no
//! match shorter than `k` symbols is seen. In each window of `w = t - k +
//! 1` consecutive k-grams the smallest hash is chosen (the rightmost of
//! equals), and recorded when it was not already chosen by the window
//! before: every match of at least `t` symbols (the guarantee threshold)
//! shares a fingerprint, and a document of `n` symbols keeps about `2n /
//! (w + 1)` of them.

use super::emit::Sym;

/// A k-gram's hash that no fingerprint takes (a k-gram of the template).
pub const NONE: u64 = u64::MAX;

/// A fingerprint: a k-gram's hash and where the k-gram begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Print {
    /// The hash.
    pub hash: u64,
    /// The k-gram's first symbol.
    pub pos: u32,
}

/// Mixes a hash's bits (the finaliser of SplitMix64), so that the smallest
/// of a window is any k-gram's, not the one of the smallest symbols.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The hash of each k-gram of `syms` (none when it is shorter than `k`),
/// by a rolling polynomial hash (Karp and Rabin) then mixed.
pub fn kgram_hashes(syms: &[Sym], k: usize) -> Vec<u64> {
    const BASE: u64 = 0x0000_0100_0000_01b3;
    if k == 0 || syms.len() < k {
        return Vec::new();
    }
    // BASE^(k-1), the weight of the symbol that leaves the window.
    let top = (1..k).fold(1u64, |p, _| p.wrapping_mul(BASE));
    let mut h = syms[..k].iter().fold(0u64, |h, &s| {
        h.wrapping_mul(BASE).wrapping_add(u64::from(s) + 1)
    });
    let mut out = Vec::with_capacity(syms.len() - k + 1);
    out.push(mix(h));
    for i in k..syms.len() {
        h = h
            .wrapping_sub((u64::from(syms[i - k]) + 1).wrapping_mul(top))
            .wrapping_mul(BASE)
            .wrapping_add(u64::from(syms[i]) + 1);
        out.push(mix(h));
    }
    out
}

/// The fingerprints winnowing chooses from `hashes` with windows of `w`
/// k-grams, in order; hashes equal to [`NONE`] are never chosen. A
/// document shorter than a window gives its smallest hash.
pub fn winnow(hashes: &[u64], w: usize) -> Vec<Print> {
    let w = w.max(1);
    let mut prints = Vec::with_capacity(2 * hashes.len() / (w + 1) + 1);
    if hashes.is_empty() {
        return prints;
    }
    let windows = hashes.len().saturating_sub(w) + 1;
    let mut last: Option<usize> = None;
    // The minimum of the current window is kept, and looked for again
    // only when it leaves the window (amortised, each hash is looked at a
    // few times).
    let mut min_at: Option<usize> = None;
    for start in 0..windows {
        let end = (start + w).min(hashes.len());
        match min_at {
            Some(m) if m >= start => {
                // Only the new hash can take its place (rightmost wins ties).
                if hashes[end - 1] <= hashes[m] {
                    min_at = Some(end - 1);
                }
            }
            _ => {
                let mut m = start;
                for i in start..end {
                    if hashes[i] <= hashes[m] {
                        m = i;
                    }
                }
                min_at = Some(m);
            }
        }
        let m = min_at.unwrap_or(start);
        if hashes[m] != NONE && last != Some(m) {
            prints.push(Print {
                hash: hashes[m],
                pos: m as u32,
            });
            last = Some(m);
        }
    }
    prints
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_windows_hash_equal_and_others_not() {
        let syms = [1, 2, 3, 4, 1, 2, 3, 5];
        let h = kgram_hashes(&syms, 3);
        assert_eq!(h.len(), 6);
        assert_eq!(h[0], h[4]);
        assert_ne!(h[0], h[1]);
        assert_ne!(h[3], h[5]);
        // The rolling hash is the hash of each window on its own.
        for (i, &x) in h.iter().enumerate() {
            assert_eq!(x, kgram_hashes(&syms[i..i + 3], 3)[0]);
        }
        assert!(kgram_hashes(&syms[..2], 3).is_empty());
    }

    #[test]
    fn winnowing_guarantees_a_shared_print_for_every_long_match() {
        // Two documents that share a stretch of t symbols somewhere.
        let (k, t) = (5, 12);
        let mut seed = 7u64;
        let mut random = |n: usize| -> Vec<Sym> {
            (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (seed >> 33) as Sym % 50
                })
                .collect()
        };
        for round in 0..50 {
            let shared = random(t);
            let mut a = random(30 + round);
            a.extend(&shared);
            a.extend(random(40));
            let mut b = random(70);
            b.extend(&shared);
            b.extend(random(round));
            let pa = winnow(&kgram_hashes(&a, k), t - k + 1);
            let pb = winnow(&kgram_hashes(&b, k), t - k + 1);
            assert!(
                pa.iter().any(|p| pb.iter().any(|q| q.hash == p.hash)),
                "round {round}"
            );
            // About 2 / (w + 1) of the k-grams are kept.
            assert!(pa.len() < a.len() / 2);
        }
    }

    #[test]
    fn excluded_hashes_are_never_chosen() {
        let hashes = [NONE, 5, NONE, NONE, NONE, 3, 9];
        let prints = winnow(&hashes, 3);
        assert!(prints.iter().all(|p| p.hash != NONE));
        assert_eq!(prints.iter().map(|p| p.pos).collect::<Vec<_>>(), [1, 5]);
        assert_eq!(winnow(&[4, 2], 5), [Print { hash: 2, pos: 1 }]);
        assert!(winnow(&[], 5).is_empty());
    }
}
