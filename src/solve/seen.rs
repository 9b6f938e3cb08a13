//! Sets of boards already seen by the beam searches, keyed by a 64-bit hash
//! of the board that is well mixed already (Zobrist or a multiplicative
//! mix), so the set's hasher passes it through instead of hashing it again.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A set of mixed 64-bit board keys.
pub(crate) type SeenKeys = HashSet<u64, BuildHasherDefault<PassThrough>>;

/// The hasher of [`SeenKeys`]: a `u64` key is its own hash.
#[derive(Default)]
pub(crate) struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Not used by `u64` keys; folds any other key in, so the hasher
        // stays correct if one is ever given.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_its_own_hash_and_sets_tell_keys_apart() {
        let mut hasher = PassThrough::default();
        hasher.write_u64(0xdead_beef);
        assert_eq!(hasher.finish(), 0xdead_beef);
        let mut seen = SeenKeys::default();
        assert!(seen.insert(1));
        assert!(seen.insert(2));
        assert!(!seen.insert(1));
        assert_eq!(seen.len(), 2);
    }
}
