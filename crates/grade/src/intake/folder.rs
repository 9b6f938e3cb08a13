//! A student's folder as the grader walks it: the submission as handed in
//! (copied before it is built, listed for the feedback) and what an
//! archive unpacked to. Nothing is followed or opened but a folder or a
//! regular file: an entry is what `readdir` and `lstat` say it is
//! ([`fs::DirEntry::file_type`] and [`fs::DirEntry::metadata`] do not
//! follow a link), a file is opened with [`puzzle_sandbox::files`] (no link
//! followed, no blocking on a FIFO or a device, a regular file or an
//! error), and what is neither a folder nor a regular file is left out and
//! named. Entries and bytes are counted as found, not as anything
//! declares them, and every path is bounded ([`bad_path`]), so that a walk
//! stops at its bound and never meets a path the kernel refuses.

use crate::intake::archive::{bad_path, shown, MAX_BYTES, MAX_ENTRIES};
use crate::shared::digest::{fnv1a, fnv1a_more};
use crate::shared::error::Refused;
use crate::shared::name::Name;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The most a walk may find: bytes of regular files, and entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Bytes of its regular files, in all.
    pub bytes: u64,
    /// Entries of every kind, in all.
    pub entries: u64,
}

/// What the copy of a submission's folder may hold: twice an archive's
/// bytes (an archive of at most [`MAX_BYTES`] and sources beside it), ten
/// times its entries (a `.git` folder of a small project).
pub const COPY: Bound = Bound {
    bytes: 2 * MAX_BYTES,
    entries: 10 * MAX_ENTRIES as u64,
};

/// What an archive may unpack to: [`MAX_BYTES`] and [`MAX_ENTRIES`].
pub const UNPACKED: Bound = Bound {
    bytes: MAX_BYTES,
    entries: MAX_ENTRIES as u64,
};

/// What an entry that is neither a folder nor a regular file is, in words.
fn other_kind(kind: fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// The entries of the folder `dir`, in name order; `cap` at most (a walk
/// that finds more than its bound stops there anyway).
fn sorted(dir: &Path, cap: u64) -> io::Result<Vec<fs::DirEntry>> {
    let cap = usize::try_from(cap).unwrap_or(usize::MAX);
    let mut entries = fs::read_dir(dir)?
        .take(cap)
        .collect::<io::Result<Vec<_>>>()?;
    entries.sort_by_key(|e| e.file_name());
    Ok(entries)
}

/// An entry's path from the top of the walk, `prefix` its folder's.
fn relative(prefix: &str, entry: &fs::DirEntry) -> String {
    format!("{prefix}{}", entry.file_name().to_string_lossy())
}

/// One entry left out, as a note names it: `notes.fifo (a FIFO)`.
fn named(path: &str, what: &str) -> String {
    format!("{} ({what})", shown(path))
}

/// The note for what a walk `left` out: `left out: link.c (a symbolic
/// link), notes.fifo (a FIFO)`, five at most, then how many more.
pub fn left_out_note(left: &[String]) -> String {
    let mut note = format!(
        "left out: {}",
        left.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
    );
    if left.len() > 5 {
        note.push_str(&format!(" and {} more", left.len() - 5));
    }
    note
}

/// What an unpacking left in its folder, found on disk.
#[derive(Debug, Default)]
pub struct Survey {
    /// What is neither a folder nor a regular file: its path, and the note's words.
    pub left_out: Vec<(PathBuf, String)>,
}

/// Walks `root` (what an archive unpacked to) without following a link:
/// the error is why it may not be kept (more than `bound` allows, a path
/// [`bad_path`] refuses, a folder that cannot be read). Its folders are
/// made readable and writable by their owner (the grader removes or moves
/// them next).
pub fn survey(root: &Path, bound: Bound) -> Result<Survey, Refused> {
    use std::os::unix::fs::PermissionsExt;
    let mut found = Survey::default();
    let (mut bytes, mut entries) = (0u64, 0u64);
    let mut todo = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = todo.pop() {
        let cannot = |e: io::Error| {
            Refused::because(format!(
                "what it unpacked cannot be read ({}: {e})",
                shown(&prefix)
            ))
        };
        for entry in sorted(&dir, bound.entries.saturating_add(1)).map_err(cannot)? {
            let path = relative(&prefix, &entry);
            if let Some(why) = bad_path(&path) {
                return Err(Refused::because(why));
            }
            entries += 1;
            if entries > bound.entries {
                return Err(Refused::because(format!(
                    "it unpacked to more than {} entries",
                    bound.entries
                )));
            }
            let meta = entry.metadata().map_err(cannot)?;
            if meta.is_dir() {
                let mode = meta.permissions().mode();
                if mode & 0o700 != 0o700 {
                    let writable = fs::Permissions::from_mode(mode | 0o700);
                    fs::set_permissions(entry.path(), writable).map_err(cannot)?;
                }
                todo.push((entry.path(), format!("{path}/")));
            } else if meta.is_file() {
                bytes = bytes.saturating_add(meta.len());
                if bytes > bound.bytes {
                    return Err(Refused::because(format!(
                        "it unpacked to more than {} MiB",
                        bound.bytes >> 20
                    )));
                }
            } else {
                let what = other_kind(meta.file_type());
                found.left_out.push((entry.path(), named(&path, what)));
            }
        }
    }
    found.left_out.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(found)
}

/// A copy of a submission's folder: what it left out, and why it was
/// refused, if it was.
#[derive(Debug, Default)]
pub struct Copied {
    /// What was not copied, named (`notes.fifo (a FIFO)`).
    pub left_out: Vec<String>,
    /// Why the folder was not copied whole (over its bound, a path
    /// [`bad_path`] refuses): it is then not built.
    pub refused: Option<String>,
    /// The digest of what was copied ([`sources_digest`]); none when the
    /// copy was refused.
    pub digest: Option<u64>,
}

/// The digest of a submission's sources: each regular file copied, by its
/// path from the folder's top in byte order, its path then the FNV-1a
/// digest of its bytes, all digested in turn (FNV-1a). The same files,
/// bytes and names give the same digest on every machine, whatever order
/// the folder lists them in; what the copy left out (a link, a FIFO) is
/// not in it.
pub fn sources_digest(files: &mut [(String, u64)]) -> u64 {
    files.sort();
    files
        .iter()
        .fold(fnv1a(b"sources"), |digest, (path, bytes)| {
            let digest = fnv1a_more(digest, path.as_bytes());
            // A NUL ends the path: no path holds one.
            fnv1a_more(digest, &[&[0u8][..], &bytes.to_le_bytes()].concat())
        })
}

/// Copies the folder `from` to `to` (made here): its folders and regular
/// files, each file opened without following a link or blocking and read
/// as it is (its bytes counted as read), within `bound`; what is neither
/// (a symbolic link, a FIFO, a socket, a device, a folder or file that
/// cannot be read) is left out and named. The error is the grader's (the
/// copy cannot be written, `from` itself cannot be read).
pub fn copy_folder(from: &Path, to: &Path, bound: Bound) -> io::Result<Copied> {
    let mut copied = Copied::default();
    fs::create_dir_all(to)?;
    let cap = bound.entries.saturating_add(1);
    let top = sorted(from, cap)?;
    let (mut bytes, mut entries) = (0u64, 0u64);
    let mut digests: Vec<(String, u64)> = Vec::new();
    let mut todo = vec![(top, to.to_path_buf(), String::new())];
    while let Some((list, target, prefix)) = todo.pop() {
        for entry in list {
            let path = relative(&prefix, &entry);
            if let Some(why) = bad_path(&path) {
                copied.refused = Some(why);
                return Ok(copied);
            }
            entries += 1;
            if entries > bound.entries {
                copied.refused = Some(format!(
                    "its folder holds more than {} entries",
                    bound.entries
                ));
                return Ok(copied);
            }
            let kind = match entry.file_type() {
                Ok(kind) => kind,
                Err(e) => {
                    copied
                        .left_out
                        .push(named(&path, &format!("cannot be read: {e}")));
                    continue;
                }
            };
            let made = target.join(entry.file_name());
            if kind.is_dir() {
                match sorted(&entry.path(), cap) {
                    Ok(list) => {
                        fs::create_dir(&made)?;
                        todo.push((list, made, format!("{path}/")));
                    }
                    Err(e) => copied
                        .left_out
                        .push(named(&path, &format!("cannot be read: {e}"))),
                }
            } else if kind.is_file() {
                match copy_file(&entry.path(), &made, bound.bytes - bytes)? {
                    Ok(Some((n, digest))) => {
                        bytes += n;
                        digests.push((path, digest));
                    }
                    Ok(None) => {
                        copied.refused = Some(format!(
                            "its folder holds more than {} MiB",
                            bound.bytes >> 20
                        ));
                        return Ok(copied);
                    }
                    Err(why) => copied.left_out.push(named(&path, &why)),
                }
            } else {
                copied.left_out.push(named(&path, other_kind(kind)));
            }
        }
    }
    copied.left_out.sort();
    copied.digest = Some(sources_digest(&mut digests));
    Ok(copied)
}

/// Copies the regular file `from` to `made` (a new file), at most `room`
/// bytes: the bytes copied and their FNV-1a digest, or none when there
/// were more; the inner error is why `from` was left out (not a regular
/// file, cannot be read), the outer one the grader's (the copy cannot be
/// written).
fn copy_file(
    from: &Path,
    made: &Path,
    room: u64,
) -> io::Result<Result<Option<(u64, u64)>, String>> {
    use std::os::unix::fs::PermissionsExt;
    let source = match puzzle_sandbox::files::open_regular(from) {
        Ok(file) => file,
        Err(e) if puzzle_sandbox::files::is_refused(&e) => {
            return Ok(Err("not a regular file".into()));
        }
        Err(e) => return Ok(Err(format!("cannot be read: {e}"))),
    };
    let mode = source
        .metadata()
        .map_or(0o644, |m| m.permissions().mode() & 0o777);
    let mut out = File::create_new(made)?;
    let mut source = source.take(room.saturating_add(1));
    let mut buffer = vec![0u8; 64 << 10];
    let mut copied = 0u64;
    let mut digest = fnv1a(b"");
    loop {
        let n = match source.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                drop(out);
                fs::remove_file(made)?;
                return Ok(Err(format!("cannot be read: {e}")));
            }
        };
        copied += n as u64;
        if copied > room {
            drop(out);
            fs::remove_file(made)?;
            return Ok(Ok(None));
        }
        out.write_all(&buffer[..n])?;
        digest = fnv1a_more(digest, &buffer[..n]);
    }
    fs::set_permissions(made, fs::Permissions::from_mode(mode))?;
    Ok(Ok(Some((copied, digest))))
}

/// The regular files under `dir`, as paths from `dir`, each folder's
/// entries in byte order, a folder's files where its name comes; at most
/// 1,000, none deeper than a path [`bad_path`] accepts. Nothing is opened,
/// and no link followed.
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(top) = sorted(dir, COPY.entries) else {
        return found;
    };
    let mut seen = 0u64;
    let mut todo = vec![(top.into_iter(), String::new())];
    while let Some((list, prefix)) = todo.last_mut() {
        let Some(entry) = list.next() else {
            todo.pop();
            continue;
        };
        seen += 1;
        if found.len() >= 1000 || seen > COPY.entries {
            break;
        }
        let path = relative(prefix, &entry);
        if bad_path(&path).is_some() {
            continue;
        }
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => {
                if let Ok(list) = sorted(&entry.path(), COPY.entries) {
                    todo.push((list.into_iter(), format!("{path}/")));
                }
            }
            Ok(kind) if kind.is_file() => found.push(path),
            _ => {}
        }
    }
    found
}

/// Moves what `from` holds into `to`: a folder into a folder of the same
/// name, merged; anything else in place of what `to` had under its name.
/// Both are the grader's folders on one file system (a rename each).
pub fn move_into(from: &Path, to: &Path) -> io::Result<()> {
    for entry in sorted(from, u64::MAX)? {
        let target = to.join(entry.file_name());
        let is_dir = entry.file_type()?.is_dir();
        match fs::symlink_metadata(&target) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
            Ok(there) if there.is_dir() && is_dir => {
                move_into(&entry.path(), &target)?;
                continue;
            }
            Ok(there) if there.is_dir() => fs::remove_dir_all(&target)?,
            Ok(_) => fs::remove_file(&target)?,
        }
        fs::rename(entry.path(), &target)?;
    }
    Ok(())
}

/// Removes the folder `dir` whole, whatever it holds (folders whose mode
/// forbids it made writable first when the plain removal fails).
pub fn remove_whole(dir: &Path) -> io::Result<()> {
    match fs::remove_dir_all(dir) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            let _ = survey(
                dir,
                Bound {
                    bytes: u64::MAX,
                    entries: u64::MAX,
                },
            );
            fs::remove_dir_all(dir)
        }
        _ => Ok(()),
    }
}

/// The submissions of `dir`: its folders (not hidden ones, not links), by
/// their shown names ([`Name`]), in order.
pub fn submission_names(dir: &Path) -> io::Result<Vec<Name>> {
    let mut names: Vec<Name> = fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| Name::of_folder(&e.file_name()))
        .collect();
    names.sort();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, PermissionsExt};

    /// A fresh folder for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grade-folder-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn fifo(path: &Path) {
        let made = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(made.success());
    }

    /// A folder holding every kind: files (one executable), a folder, a
    /// FIFO, a socket, links to a file and to a folder outside it.
    fn every_kind(dir: &Path) -> std::os::unix::net::UnixListener {
        fs::create_dir_all(dir.join("ass1/src")).unwrap();
        fs::write(dir.join("ass1/src/puzzle.c"), "int main;").unwrap();
        fs::write(dir.join("run.sh"), "#!/bin/sh\n").unwrap();
        fs::set_permissions(dir.join("run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
        fifo(&dir.join("ass1/notes.fifo"));
        symlink("/etc/passwd", dir.join("link.c")).unwrap();
        symlink("/etc", dir.join("etc")).unwrap();
        std::os::unix::net::UnixListener::bind(dir.join("sock")).unwrap()
    }

    #[test]
    fn a_copy_keeps_folders_and_regular_files_and_names_the_rest() {
        let dir = scratch("copy");
        let _listener = every_kind(&dir.join("from"));
        let copied = copy_folder(&dir.join("from"), &dir.join("to"), COPY).unwrap();
        assert_eq!(copied.refused, None);
        assert_eq!(
            copied.left_out,
            [
                "ass1/notes.fifo (a FIFO)",
                "etc (a symbolic link)",
                "link.c (a symbolic link)",
                "sock (a socket)"
            ]
        );
        assert_eq!(
            left_out_note(&copied.left_out),
            "left out: ass1/notes.fifo (a FIFO), etc (a symbolic link), \
             link.c (a symbolic link), sock (a socket)"
        );
        assert_eq!(files_in(&dir.join("to")), ["ass1/src/puzzle.c", "run.sh"]);
        assert_eq!(files_in(&dir.join("from")), ["ass1/src/puzzle.c", "run.sh"]);
        let mode = fs::metadata(dir.join("to/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        assert_eq!(
            fs::read_to_string(dir.join("to/ass1/src/puzzle.c")).unwrap(),
            "int main;"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_sources_digest_is_of_names_and_bytes_whatever_the_folder() {
        let dir = scratch("digest");
        let make = |at: &str, files: &[(&str, &str)]| {
            for (name, text) in files {
                let path = dir.join(at).join(name);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, text).unwrap();
            }
            let to = dir.join(format!("{at}.copy"));
            copy_folder(&dir.join(at), &to, COPY)
                .unwrap()
                .digest
                .unwrap()
        };
        let files = [("puzzle.c", "int main;"), ("src/board.c", "x"), ("b", "")];
        let first = make("a", &files);
        // Another folder, made in another order: the same digest.
        let mut reversed = files;
        reversed.reverse();
        assert_eq!(make("b", &reversed), first);
        // A byte changed, a file renamed, a file moved into a folder, a
        // file added: each another digest.
        let others = [
            make(
                "c",
                &[("puzzle.c", "int main;"), ("src/board.c", "y"), ("b", "")],
            ),
            make(
                "d",
                &[("puzzle.c", "int main;"), ("src/boardx.c", "x"), ("b", "")],
            ),
            make(
                "e",
                &[
                    ("puzzle.c", "int main;"),
                    ("src/board.c", "x"),
                    ("src/b", ""),
                ],
            ),
            make(
                "f",
                &[
                    ("puzzle.c", "int main;"),
                    ("src/board.c", "x"),
                    ("b", ""),
                    ("c", ""),
                ],
            ),
        ];
        for (i, other) in others.iter().enumerate() {
            assert_ne!(*other, first, "{i}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_copy_over_its_bound_or_with_a_path_too_long_is_refused() {
        let dir = scratch("copy-bound");
        let from = dir.join("from");
        fs::create_dir_all(from.join("a")).unwrap();
        fs::write(from.join("a/big"), vec![0u8; (1 << 20) + 1]).unwrap();
        fs::write(from.join("b"), "x").unwrap();
        let bound = |bytes: u64, entries: u64| Bound { bytes, entries };
        let copy = |bound: Bound| {
            let _ = fs::remove_dir_all(dir.join("to"));
            copy_folder(&from, &dir.join("to"), bound).unwrap().refused
        };
        assert_eq!(copy(bound(2 << 20, 3)), None);
        assert_eq!(
            copy(bound(1 << 20, 3)),
            Some("its folder holds more than 1 MiB".into())
        );
        assert_eq!(
            copy(bound(2 << 20, 2)),
            Some("its folder holds more than 2 entries".into())
        );
        // A path longer than the bound is never walked to its end.
        let deep = from.join(format!("{}x.c", "d/".repeat(520)));
        fs::create_dir_all(deep.parent().unwrap()).unwrap();
        fs::write(&deep, "").unwrap();
        let refused = copy(COPY).unwrap();
        assert!(
            refused.starts_with("a path longer than 1024 bytes (d/d/d/"),
            "{refused}"
        );
        assert_eq!(files_in(&from).len(), 2);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_survey_counts_what_is_there_and_names_what_is_left_out() {
        let dir = scratch("survey");
        let _listener = every_kind(&dir);
        fs::write(dir.join("ass1/data"), vec![0u8; 1000]).unwrap();
        let found = survey(&dir, UNPACKED).unwrap();
        let named: Vec<&str> = found.left_out.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(
            named,
            [
                "ass1/notes.fifo (a FIFO)",
                "etc (a symbolic link)",
                "link.c (a symbolic link)",
                "sock (a socket)"
            ]
        );
        assert!(found.left_out[0].0.ends_with("ass1/notes.fifo"));
        // 9 entries, 1,019 bytes of regular files (no link followed).
        let bound = |bytes: u64, entries: u64| Bound { bytes, entries };
        assert!(survey(&dir, bound(1019, 9)).is_ok());
        assert_eq!(
            survey(&dir, bound(1019, 8)).unwrap_err().to_string(),
            "it unpacked to more than 8 entries"
        );
        assert_eq!(
            survey(&dir, bound(1018, 9)).unwrap_err().to_string(),
            "it unpacked to more than 0 MiB"
        );
        // A folder its owner may not enter is made one he may.
        fs::create_dir(dir.join("shut")).unwrap();
        fs::set_permissions(dir.join("shut"), fs::Permissions::from_mode(0o000)).unwrap();
        survey(&dir, UNPACKED).unwrap();
        let mode = fs::metadata(dir.join("shut")).unwrap().permissions().mode();
        assert_eq!(mode & 0o700, 0o700);
        // A path too long: refused before it is walked further.
        let deep = dir.join(format!("{}x", "e/".repeat(600)));
        fs::create_dir_all(&deep).unwrap();
        assert!(survey(&dir, UNPACKED)
            .unwrap_err()
            .to_string()
            .starts_with("a path longer than 1024 bytes (e/e/"));
        remove_whole(&dir).unwrap();
        assert!(!dir.exists());
    }

    #[test]
    fn what_is_moved_into_a_folder_merges_with_it() {
        let dir = scratch("move");
        fs::create_dir_all(dir.join("from/ass1")).unwrap();
        fs::write(dir.join("from/ass1/puzzle.c"), "new").unwrap();
        fs::write(dir.join("from/notes"), "file now").unwrap();
        fs::create_dir_all(dir.join("to/ass1")).unwrap();
        fs::write(dir.join("to/ass1/puzzle.c"), "old").unwrap();
        fs::write(dir.join("to/ass1/boardADT.c"), "kept").unwrap();
        fs::create_dir_all(dir.join("to/notes")).unwrap();
        fs::write(dir.join("to/submission.zip"), "kept").unwrap();
        move_into(&dir.join("from"), &dir.join("to")).unwrap();
        assert_eq!(
            files_in(&dir.join("to")),
            [
                "ass1/boardADT.c",
                "ass1/puzzle.c",
                "notes",
                "submission.zip"
            ]
        );
        assert_eq!(
            fs::read_to_string(dir.join("to/ass1/puzzle.c")).unwrap(),
            "new"
        );
        assert_eq!(files_in(&dir.join("from")), Vec::<String>::new());
        fs::remove_dir_all(&dir).unwrap();
    }
}
