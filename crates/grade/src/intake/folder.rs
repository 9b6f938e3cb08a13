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
pub fn survey(root: &Path, bound: Bound) -> Result<Survey, String> {
    use std::os::unix::fs::PermissionsExt;
    let mut found = Survey::default();
    let (mut bytes, mut entries) = (0u64, 0u64);
    let mut todo = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = todo.pop() {
        let cannot =
            |e: io::Error| format!("what it unpacked cannot be read ({}: {e})", shown(&prefix));
        for entry in sorted(&dir, bound.entries.saturating_add(1)).map_err(cannot)? {
            let path = relative(&prefix, &entry);
            if let Some(why) = bad_path(&path) {
                return Err(why);
            }
            entries += 1;
            if entries > bound.entries {
                return Err(format!(
                    "it unpacked to more than {} entries",
                    bound.entries
                ));
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
                    return Err(format!(
                        "it unpacked to more than {} MiB",
                        bound.bytes >> 20
                    ));
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
                    Ok(Some(n)) => bytes += n,
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
    Ok(copied)
}

/// Copies the regular file `from` to `made` (a new file), at most `room`
/// bytes: the bytes copied, or none when there were more; the inner error
/// is why `from` was left out (not a regular file, cannot be read), the
/// outer one the grader's (the copy cannot be written).
fn copy_file(from: &Path, made: &Path, room: u64) -> io::Result<Result<Option<u64>, String>> {
    use std::os::unix::fs::PermissionsExt;
    let source = match puzzle_sandbox::files::open_regular(from) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
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
    }
    fs::set_permissions(made, fs::Permissions::from_mode(mode))?;
    Ok(Ok(Some(copied)))
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
