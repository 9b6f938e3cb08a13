//! Files a stranger controls, as the grader opens them outside the sandbox:
//! never through a symbolic link, never blocking (a FIFO, a device), never
//! anything but a regular file or a folder, read up to a bound, and, for a
//! path inside a folder, never outside that folder.
//!
//! A submission's files, what its build or unpacking left, and a grades
//! folder or shard someone may have edited are all such files: the grader
//! runs as root, so a link it followed could show it (and then a student)
//! any file of the machine, and a FIFO it opened would stop the grading.
//!
//! On Linux a path beneath a folder is opened with `openat2`'s
//! `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` where the kernel has it (5.6 and
//! later), else one component at a time with `O_NOFOLLOW`; every file with
//! `O_NOFOLLOW | O_NONBLOCK | O_NOCTTY`, then checked to be a regular file.
//! Elsewhere the same checks are made with `lstat` before the open (a race
//! with a process changing the folder is then possible: no run of a
//! student's program outlives its sandbox, so none is left to race).

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::{Component, Path};

/// What a file that is not a regular one is, in words.
fn kind_of(meta: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// What this module refuses to open (a symbolic link, a FIFO, a device, a
/// folder where a file is asked for, a file where a folder is), carried in
/// the `io::Error` it returns so that a caller tells it from the system's
/// errors by its type ([`is_refused`]), never by an `io::ErrorKind` the
/// system could give too.
#[derive(Debug)]
pub struct Unfit(String);

impl std::fmt::Display for Unfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unfit {}

/// The error refusing what `text` says (its kind `InvalidData`, for
/// callers that only show it).
fn unfit(text: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, Unfit(text))
}

/// Whether `e` is this module's refusal of what a path is ([`Unfit`]),
/// not the system's error.
pub fn is_refused(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Unfit>())
}

/// The error for `path`, which is `what` and not a regular file.
fn not_regular(path: &Path, what: &str) -> io::Error {
    unfit(format!("{} is {what}, not a regular file", path.display()))
}

/// `file` (opened as `path`) if it is a regular file.
fn regular(file: File, path: &Path) -> io::Result<File> {
    let meta = file.metadata()?;
    if meta.is_file() {
        Ok(file)
    } else {
        Err(not_regular(path, kind_of(&meta)))
    }
}

/// Opens the regular file at `path` for reading: a symbolic link (as its
/// last component), a FIFO, a device or a socket is refused ([`Unfit`],
/// [`is_refused`]) by name, and the open never blocks.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let meta = std::fs::symlink_metadata(path)?;
    if !meta.is_file() {
        return Err(not_regular(path, kind_of(&meta)));
    }
    let file = imp::open_nofollow(path).map_err(|e| named(e, path))?;
    regular(file, path)
}

/// An error of `path`, with the path in its text when the kernel's has none
/// (a link met where none may be).
fn named(e: io::Error, path: &Path) -> io::Error {
    if imp::is_link_error(&e) {
        return unfit(format!(
            "{} is or passes through a symbolic link",
            path.display()
        ));
    }
    e
}

/// Reads at most `cap` bytes of the regular file at `path` (see
/// [`open_regular`]); the second value says whether that was all of it.
pub fn read_regular(path: &Path, cap: u64) -> io::Result<(Vec<u8>, bool)> {
    read_capped(open_regular(path)?, cap)
}

/// At most `cap` bytes of `file`, and whether that was all of it.
fn read_capped(file: File, cap: u64) -> io::Result<(Vec<u8>, bool)> {
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    let whole = bytes.len() as u64 <= cap;
    bytes.truncate(cap.min(bytes.len() as u64) as usize);
    Ok((bytes, whole))
}

/// Takes the exclusive lock of `flock(2)` on `file`, without waiting:
/// `Ok(true)` when this open file now holds it, `Ok(false)` when another
/// open file holds it. The lock is advisory (it keeps out only those that
/// ask for it too), and the kernel releases it when the file is closed or
/// its process ends, however it ends: a process killed leaves no lock
/// behind. (Rust 1.89's `File::try_lock` is the same; the workspace says
/// 1.87.)
pub fn try_lock(file: &File) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: flock takes a descriptor (`file` owns it, open for the
        // call) and a number, and touches no memory of ours.
        let done = unsafe {
            crate::sys::flock(file.as_raw_fd(), crate::sys::LOCK_EX | crate::sys::LOCK_NB)
        };
        if done == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        match e.kind() {
            io::ErrorKind::WouldBlock => return Ok(false),
            io::ErrorKind::Interrupted => continue,
            _ => return Err(e),
        }
    }
}

/// A folder, held open, whose paths are opened beneath it: no component
/// may be a symbolic link, `..` or absolute, so nothing outside it is ever
/// reached, whatever someone did to the folder.
#[derive(Debug)]
pub struct Beneath {
    dir: File,
    shown: std::path::PathBuf,
}

impl Beneath {
    /// Opens the folder `dir` (itself not a symbolic link).
    pub fn open(dir: &Path) -> io::Result<Beneath> {
        let meta = std::fs::symlink_metadata(dir)?;
        if !meta.is_dir() {
            return Err(unfit(format!(
                "{} is {}, not a folder",
                dir.display(),
                kind_of(&meta)
            )));
        }
        Ok(Beneath {
            dir: imp::open_dir_nofollow(dir).map_err(|e| named(e, dir))?,
            shown: dir.to_path_buf(),
        })
    }

    /// The folder's path, as it was opened.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// Opens the regular file at `relative` beneath the folder for reading
    /// (see [`open_regular`]); a path that is absolute, empty or has `..`
    /// is refused before anything is opened.
    pub fn open_regular(&self, relative: &Path) -> io::Result<File> {
        let shown = self.shown.join(relative);
        let plain = !relative.as_os_str().is_empty()
            && relative
                .components()
                .all(|c| matches!(c, Component::Normal(_)));
        if !plain {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: not a plain relative path (absolute, empty or with ..)",
                    shown.display()
                ),
            ));
        }
        let file =
            imp::open_beneath(&self.dir, &self.shown, relative).map_err(|e| named(e, &shown))?;
        regular(file, &shown)
    }

    /// Reads at most `cap` bytes of the regular file at `relative` beneath
    /// the folder, and whether that was all of it.
    pub fn read_regular(&self, relative: &Path, cap: u64) -> io::Result<(Vec<u8>, bool)> {
        read_capped(self.open_regular(relative)?, cap)
    }

    /// Reads the regular file at `relative` beneath the folder whole when
    /// it is at most `cap` bytes: `None` when it is larger, told from the
    /// open file's size before a byte of it is read (and one that grows
    /// meanwhile read no further than the bound).
    pub fn read_within(&self, relative: &Path, cap: u64) -> io::Result<Option<Vec<u8>>> {
        let file = self.open_regular(relative)?;
        if file.metadata()?.len() > cap {
            return Ok(None);
        }
        let (bytes, whole) = read_capped(file, cap)?;
        Ok(whole.then_some(bytes))
    }
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod imp {
    use crate::sys;
    use std::ffi::CString;
    use std::fs::{File, OpenOptions};
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd};
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::OpenOptionsExt;
    use std::path::Path;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// The flags every stranger's file is opened with.
    const FILE: i32 = sys::O_NOFOLLOW | sys::O_NONBLOCK | sys::O_NOCTTY;

    /// Whether `openat2` answered `ENOSYS` once: then it is not asked again.
    static NO_OPENAT2: AtomicBool = AtomicBool::new(false);

    pub fn open_nofollow(path: &Path) -> io::Result<File> {
        OpenOptions::new().read(true).custom_flags(FILE).open(path)
    }

    pub fn open_dir_nofollow(path: &Path) -> io::Result<File> {
        OpenOptions::new()
            .read(true)
            .custom_flags(sys::O_DIRECTORY | sys::O_NOFOLLOW)
            .open(path)
    }

    pub fn is_link_error(e: &io::Error) -> bool {
        matches!(e.raw_os_error(), Some(sys::ELOOP) | Some(sys::EXDEV))
    }

    fn c_path(path: &Path) -> io::Result<CString> {
        CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a path"))
    }

    /// `openat(dir, name, flags)`, the descriptor owned.
    fn openat(dir: i32, name: &Path, flags: i32) -> io::Result<File> {
        let name = c_path(name)?;
        // SAFETY: a valid descriptor and a NUL-terminated path; the result
        // is a new descriptor we own, or -1.
        let fd = unsafe { sys::openat(dir, name.as_ptr(), flags | sys::O_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fd is a fresh descriptor no one else owns.
        Ok(unsafe { File::from_raw_fd(fd) })
    }

    pub fn open_beneath(dir: &File, _shown: &Path, relative: &Path) -> io::Result<File> {
        if !NO_OPENAT2.load(Ordering::Relaxed) {
            let name = c_path(relative)?;
            let how = sys::open_how {
                flags: (sys::O_RDONLY | FILE | sys::O_CLOEXEC) as u64,
                mode: 0,
                resolve: sys::RESOLVE_BENEATH
                    | sys::RESOLVE_NO_SYMLINKS
                    | sys::RESOLVE_NO_MAGICLINKS,
            };
            // SAFETY: a valid descriptor, a NUL-terminated path and an
            // open_how of the size given; the result is a new descriptor we
            // own, or -1.
            let fd = unsafe {
                sys::syscall(
                    sys::nr::OPENAT2,
                    dir.as_raw_fd(),
                    name.as_ptr(),
                    &how as *const sys::open_how,
                    std::mem::size_of::<sys::open_how>(),
                )
            };
            if fd >= 0 {
                // SAFETY: fd is a fresh descriptor no one else owns.
                return Ok(unsafe { File::from_raw_fd(fd as i32) });
            }
            let e = io::Error::last_os_error();
            if e.raw_os_error() != Some(sys::ENOSYS) {
                return Err(e);
            }
            NO_OPENAT2.store(true, Ordering::Relaxed);
        }
        open_components(dir, relative)
    }

    /// `relative` beneath `dir` one component at a time, none of them a
    /// link (where the kernel has no `openat2`).
    pub fn open_components(dir: &File, relative: &Path) -> io::Result<File> {
        let parts: Vec<&std::ffi::OsStr> = relative.iter().collect();
        let mut held: Option<File> = None;
        for (i, part) in parts.iter().enumerate() {
            let at = held.as_ref().unwrap_or(dir).as_raw_fd();
            let last = i + 1 == parts.len();
            let flags = if last {
                sys::O_RDONLY | FILE
            } else {
                sys::O_RDONLY | sys::O_DIRECTORY | sys::O_NOFOLLOW
            };
            held = Some(openat(at, Path::new(part), flags)?);
        }
        held.ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "an empty path"))
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod imp {
    use std::fs::File;
    use std::io;
    use std::path::Path;

    pub fn open_nofollow(path: &Path) -> io::Result<File> {
        File::open(path)
    }

    pub fn open_dir_nofollow(path: &Path) -> io::Result<File> {
        File::open(path)
    }

    pub fn is_link_error(_: &io::Error) -> bool {
        false
    }

    pub fn open_beneath(_: &File, shown: &Path, relative: &Path) -> io::Result<File> {
        // Each component checked with lstat first.
        let mut at = shown.to_path_buf();
        for part in relative.iter() {
            at.push(part);
            let meta = std::fs::symlink_metadata(&at)?;
            if meta.file_type().is_symlink() {
                return Err(super::unfit(format!("{} is a symbolic link", at.display())));
            }
        }
        File::open(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sandbox-files-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn links_fifos_and_folders_are_refused_and_named() {
        let dir = scratch("kinds");
        fs::write(dir.join("file"), "abc").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.join("link")).unwrap();
        std::os::unix::fs::symlink(dir.join("file"), dir.join("inner")).unwrap();
        let fifo = dir.join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        assert_eq!(
            read_regular(&dir.join("file"), 10).unwrap(),
            (b"abc".to_vec(), true)
        );
        assert_eq!(
            read_regular(&dir.join("file"), 2).unwrap(),
            (b"ab".to_vec(), false)
        );
        for (name, what) in [
            ("link", "a symbolic link"),
            ("inner", "a symbolic link"),
            ("fifo", "a FIFO"),
        ] {
            let e = open_regular(&dir.join(name)).unwrap_err();
            assert!(e.to_string().contains(what), "{name}: {e}");
            assert!(is_refused(&e), "{name}: {e}");
        }
        let e = open_regular(&dir).unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");
        assert!(is_refused(&e), "{e}");
        // The system's errors are not refusals.
        let e = open_regular(&dir.join("none")).unwrap_err();
        assert!(!is_refused(&e), "{e}");
        assert!(!is_refused(&io::Error::from_raw_os_error(22)));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_is_read_whole_within_its_bound_and_not_at_all_over_it() {
        let dir = scratch("within");
        fs::write(dir.join("file"), "abc").unwrap();
        // 1 TiB, sparse (nothing written to disk).
        let big = fs::File::create(dir.join("big")).unwrap();
        big.set_len(1 << 40).unwrap();
        let folder = Beneath::open(&dir).unwrap();
        assert_eq!(
            folder.read_within(Path::new("file"), 3).unwrap(),
            Some(b"abc".to_vec())
        );
        assert_eq!(folder.read_within(Path::new("file"), 2).unwrap(), None);
        assert_eq!(folder.read_within(Path::new("big"), 1 << 20).unwrap(), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_lock_is_held_by_one_open_file_and_released_when_it_closes() {
        let dir = scratch("lock");
        let path = dir.join("lock");
        let first = fs::File::create(&path).unwrap();
        assert!(try_lock(&first).unwrap());
        let second = fs::File::open(&path).unwrap();
        assert!(!try_lock(&second).unwrap(), "two holders");
        // Taken again by the one that holds it: still held.
        assert!(try_lock(&first).unwrap());
        drop(first);
        assert!(try_lock(&second).unwrap(), "not released on close");
        // Another process: refused while this one holds it.
        let status = std::process::Command::new("flock")
            .args(["-n", "-x"])
            .arg(&path)
            .arg("true")
            .status();
        if let Ok(status) = status {
            assert!(!status.success(), "another process took it");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_beneath_a_folder_reaches_outside_it() {
        let dir = scratch("beneath");
        fs::create_dir_all(dir.join("in/sub")).unwrap();
        fs::write(dir.join("in/sub/ok"), "yes").unwrap();
        fs::write(dir.join("secret"), "no").unwrap();
        std::os::unix::fs::symlink("..", dir.join("in/up")).unwrap();
        std::os::unix::fs::symlink(dir.join("in/sub"), dir.join("in/linked")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.join("in/sub/passwd")).unwrap();
        let beneath = Beneath::open(&dir.join("in")).unwrap();
        assert_eq!(
            beneath.read_regular(Path::new("sub/ok"), 10).unwrap().0,
            b"yes"
        );
        for bad in [
            "../secret",
            "up/secret",
            "linked/ok",
            "sub/passwd",
            "/etc/passwd",
            "",
        ] {
            assert!(
                beneath.open_regular(Path::new(bad)).is_err(),
                "{bad} was opened"
            );
        }
        // Where the kernel has no openat2: the same, a component at a time.
        #[cfg(all(
            target_os = "linux",
            any(target_arch = "x86_64", target_arch = "aarch64")
        ))]
        for (path, opens) in [
            ("sub/ok", true),
            ("up/secret", false),
            ("linked/ok", false),
            ("sub/passwd", false),
        ] {
            let opened = imp::open_components(&beneath.dir, Path::new(path));
            assert_eq!(opened.is_ok(), opens, "{path}");
        }
        // The folder itself may not be a link either.
        std::os::unix::fs::symlink(dir.join("in"), dir.join("alias")).unwrap();
        assert!(Beneath::open(&dir.join("alias")).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
