//! The runs' own uids (as root): which are free, whether this user
//! namespace has them, and a build folder lent to one for a run.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

/// The first uid (and gid) given to runs when the sandbox runs as root: far
/// above any real account. Run `s` of the process with id `p` gets
/// `BASE_ID + p * SLOTS + s`, so that concurrent runs, of this process and
/// of others, never share one.
pub const BASE_ID: u32 = 1_500_000_000;

/// Runs at once per process, each with its own uid.
pub const SLOTS: u32 = 128;

/// The slots in use (one bit each), process-wide: every sandbox of the
/// process shares the uids and cgroup names.
static SLOTS_USED: Mutex<u128> = Mutex::new(0);
static SLOT_FREED: Condvar = Condvar::new();

/// The first uid of this process's runs.
pub fn base() -> u32 {
    BASE_ID + (std::process::id() % (1 << 22)) * SLOTS
}

/// A free slot, taken (waits for one when all are).
pub fn take_slot() -> u32 {
    let mut used = SLOTS_USED.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let free = (!*used).trailing_zeros();
        if free < SLOTS {
            *used |= 1 << free;
            return free;
        }
        used = SLOT_FREED.wait(used).unwrap_or_else(|e| e.into_inner());
    }
}

/// Gives a slot back.
pub fn free_slot(slot: u32) {
    let mut used = SLOTS_USED.lock().unwrap_or_else(|e| e.into_inner());
    *used &= !(1 << slot);
    SLOT_FREED.notify_one();
}

/// Whether uids (and gids) `first` to `first + count - 1` exist in this
/// process's user namespace (in the first, every uid does).
pub fn uids_mapped(first: u32, count: u32) -> bool {
    ["/proc/self/uid_map", "/proc/self/gid_map"]
        .iter()
        .all(|f| fs::read_to_string(f).is_ok_and(|m| map_covers(&m, first, count)))
}

/// Whether one line of a `uid_map` (`inside outside count`) holds all of
/// `first` to `first + count - 1`.
fn map_covers(map: &str, first: u32, count: u32) -> bool {
    map.lines().any(|line| {
        let f: Vec<u64> = line
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        f.len() == 3
            && f[0] <= u64::from(first)
            && u64::from(first) + u64::from(count) <= f[0] + f[2]
    })
}

/// A work folder lent to a run's uid (as root): everything in it is given
/// to the run's uid, and back to the folder's owner when the run ends.
pub struct Lent {
    dir: PathBuf,
    owner: (u32, u32),
}

impl Lent {
    pub fn lend(dir: &Path, uid: u32, gid: u32) -> Lent {
        let owner = fs::metadata(dir).map_or((0, 0), |m| (m.uid(), m.gid()));
        chown_tree(dir, uid, gid);
        Lent {
            dir: dir.to_path_buf(),
            owner,
        }
    }

    pub fn give_back(self) {
        chown_tree(&self.dir, self.owner.0, self.owner.1);
    }
}

fn chown_tree(dir: &Path, uid: u32, gid: u32) {
    let _ = std::os::unix::fs::lchown(dir, Some(uid), Some(gid));
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            let path = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => chown_tree(&path, uid, gid),
                _ => {
                    let _ = std::os::unix::fs::lchown(&path, Some(uid), Some(gid));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_which_uids_a_user_namespace_maps() {
        let init = "         0          0 4294967295\n";
        assert!(map_covers(init, BASE_ID, SLOTS));
        let container = "0 100000 65536\n";
        assert!(map_covers(container, 1000, 128));
        assert!(!map_covers(container, BASE_ID, SLOTS));
        assert!(!map_covers("", 0, 1));
    }

    #[test]
    fn slots_are_taken_once_until_given_back() {
        let a = take_slot();
        let b = take_slot();
        assert_ne!(a, b);
        free_slot(a);
        free_slot(b);
    }
}
