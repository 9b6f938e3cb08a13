//! Sets of boards already seen by the beam searches, keyed by a 64-bit hash
//! of the board that is well mixed already (Zobrist or a multiplicative
//! mix), so the set's hasher passes it through instead of hashing it again.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A set of mixed 64-bit board keys.
pub(crate) type SeenKeys = HashSet<u64, BuildHasherDefault<PassThrough>>;

/// A set of mixed 64-bit board keys in one open-addressed table (linear
/// probing, the slot chosen by a key's top bits, `0` marking an empty slot),
/// kept at most three quarters full.
///
/// The beam over moves asks it about every child it makes, a million and
/// more a search, each at a random place in a table larger than the caches:
/// [`KeySet::warm`] lets the processor fetch a level's slots all at once
/// before they are probed one by one (docs/journal.md has the measurements).
#[derive(Clone, Debug)]
pub(crate) struct KeySet {
    /// The keys, `0` where none is.
    slots: Vec<u64>,
    /// 64 less the table's bits: a key's slot is `key >> shift`.
    shift: u32,
    /// Keys held, `0` not counted.
    len: usize,
    /// Whether the key `0` (which marks an empty slot) is held.
    zero: bool,
}

impl KeySet {
    /// An empty set with room for `keys` keys before it grows.
    pub(crate) fn with_capacity(keys: usize) -> KeySet {
        let slots = (keys.saturating_mul(4) / 3 + 1).next_power_of_two().max(16);
        KeySet {
            slots: vec![0; slots],
            shift: 64 - slots.trailing_zeros(),
            len: 0,
            zero: false,
        }
    }

    /// Empties the set, keeping room for `keys` keys or more: a set
    /// reused this way is cleared in place, where a new one's pages are
    /// zeroed by the kernel as they are first touched (a fifth of a 7x7
    /// solve's time with a new set for each beam).
    pub(crate) fn reset(&mut self, keys: usize) {
        if 4 * keys > 3 * self.slots.len() {
            *self = KeySet::with_capacity(keys);
        } else {
            self.slots.fill(0);
            self.len = 0;
            self.zero = false;
        }
    }

    /// Adds `key`; whether it was new.
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        if key == 0 {
            return !std::mem::replace(&mut self.zero, true);
        }
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = (key >> self.shift) as usize;
        loop {
            match self.slots[at] {
                0 => {
                    self.slots[at] = key;
                    self.len += 1;
                    return true;
                }
                held if held == key => return false,
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Reads the home slot of each of `keys`, so that the inserts after
    /// find them in the cache: these loads do not wait on each other, so
    /// the processor overlaps their misses, which inserts one after another
    /// (each waiting on its slot to branch) cannot.
    pub(crate) fn warm(&self, keys: impl Iterator<Item = u64>) {
        let mut any = 0;
        for key in keys {
            any |= self.slots[(key >> self.shift) as usize];
        }
        std::hint::black_box(any);
    }

    /// Doubles the table, placing each key again.
    fn grow(&mut self) {
        let doubled = vec![0; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.shift -= 1;
        let mask = self.slots.len() - 1;
        for key in old.into_iter().filter(|&k| k != 0) {
            let mut at = (key >> self.shift) as usize;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = key;
        }
    }

    /// The keys held.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.len + usize::from(self.zero)
    }
}

impl Default for KeySet {
    fn default() -> KeySet {
        KeySet::with_capacity(0)
    }
}

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

    #[test]
    fn a_key_set_holds_each_key_once_through_its_growth() {
        let mut set = KeySet::with_capacity(4);
        // Keys with the same top bits collide in the table; 0 is a key too.
        let keys: Vec<u64> = (0..1000u64)
            .map(|i| {
                if i % 3 == 0 {
                    i
                } else {
                    crate::generate::mix(i)
                }
            })
            .collect();
        for &key in &keys {
            assert!(set.insert(key), "{key}");
        }
        for &key in &keys {
            assert!(!set.insert(key), "{key}");
        }
        assert_eq!(set.len(), keys.len());
        assert!(set.insert(u64::MAX));
        assert_eq!(set.len(), keys.len() + 1);
        set.reset(10);
        assert_eq!(set.len(), 0);
        assert!(set.insert(0) && set.insert(keys[1]));
        assert!(!set.insert(0) && !set.insert(keys[1]));
    }
}
