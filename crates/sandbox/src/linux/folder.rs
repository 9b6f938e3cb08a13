//! A run's work folder bounded (`Limits::folder`): the grader counts what
//! it holds while the run goes on, every few milliseconds, without
//! following a link, so that an archive that unpacks to more than it
//! declared (or to more entries) is stopped within a sampling's worth of
//! writing, and the grader's disk is not filled.

use crate::FolderLimit;
use std::fs;
use std::path::Path;

/// Whether `dir` holds more than `limit` allows (counted until it is seen
/// over, so that a folder of a million entries costs no more than the
/// limit's worth of them).
pub fn over(dir: &Path, limit: FolderLimit) -> bool {
    let (mut bytes, mut entries) = (0u64, 0u64);
    let mut todo = vec![dir.to_path_buf()];
    while let Some(folder) = todo.pop() {
        let Ok(list) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in list.flatten() {
            entries += 1;
            if entries > limit.entries {
                return true;
            }
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            if meta.is_dir() {
                todo.push(entry.path());
            } else if meta.is_file() {
                bytes = bytes.saturating_add(meta.len());
                if bytes > limit.bytes {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_over_by_its_bytes_or_its_entries_at_any_depth() {
        let dir = std::env::temp_dir().join(format!("sandbox-folder-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("a/b")).unwrap();
        fs::write(dir.join("a/b/f"), vec![0u8; 1000]).unwrap();
        fs::write(dir.join("g"), vec![0u8; 500]).unwrap();
        std::os::unix::fs::symlink("/usr", dir.join("link")).unwrap();
        // 5 entries (a, a/b, a/b/f, g, link), 1,500 bytes (the link not followed).
        let limit = |bytes, entries| FolderLimit { bytes, entries };
        assert!(!over(&dir, limit(1500, 5)));
        assert!(over(&dir, limit(1499, 5)));
        assert!(over(&dir, limit(1500, 4)));
        fs::remove_dir_all(&dir).unwrap();
    }
}
