//! Landlock: the files a run without a mount namespace of its own may
//! touch (the `uid` and `minimal` levels), where the kernel has it (5.13
//! and later, when the `landlock` LSM is on).
//!
//! The grader makes a ruleset for each run, before the clone: the system
//! folders may be read and executed, the program and the job's read-only
//! paths read, the work folder used in every way, a few devices read and
//! written; nothing else of the file system may be read or written (the
//! grading folder, the other submissions, the marker's home, `/tmp`). From
//! ABI 4 on, TCP is denied too (the filter already denies the sockets), and
//! from ABI 6 on, signals and abstract Unix sockets stay inside the run. The
//! program's process applies it to itself (`landlock_restrict_self`) after
//! `no_new_privs`; it holds for everything the program starts, and nothing
//! the program does can lift it.

use super::paths::{cstr_os, Paths, SYSTEM};
use crate::sys;
use std::ffi::c_int;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;

const EXECUTE: u64 = 1 << 0;
const WRITE_FILE: u64 = 1 << 1;
const READ_FILE: u64 = 1 << 2;
const READ_DIR: u64 = 1 << 3;
/// Every right ABI 1 knows: reading and writing, making and removing.
const ABI1: u64 = (1 << 13) - 1;
const REFER: u64 = 1 << 13;
const TRUNCATE: u64 = 1 << 14;
const IOCTL_DEV: u64 = 1 << 15;

const CREATE_RULESET_VERSION: u32 = 1;
const RULE_PATH_BENEATH: c_int = 1;
const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1;
const SCOPE_SIGNAL: u64 = 2;
const NET_BIND_TCP: u64 = 1;
const NET_CONNECT_TCP: u64 = 2;

/// `struct landlock_ruleset_attr` (its size tells the kernel which fields
/// we know: 8 bytes for ABI 1 to 3, 16 from 4, 24 from 6).
#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

/// `struct landlock_path_beneath_attr` (packed: 12 bytes).
#[repr(C, packed)]
struct PathBeneath {
    allowed_access: u64,
    parent_fd: i32,
}

/// The Landlock ABI this kernel has, or why there is none.
pub fn abi() -> Result<u32, String> {
    // SAFETY: asking for the version takes no pointer.
    let v = unsafe {
        sys::syscall(
            sys::nr::LANDLOCK_CREATE_RULESET,
            0usize,
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    if v > 0 {
        Ok(v as u32)
    } else {
        Err(format!("Landlock: {}", io::Error::last_os_error()))
    }
}

/// The file-system rights ABI `abi` handles.
fn handled(abi: u32) -> u64 {
    let mut fs = ABI1;
    if abi >= 2 {
        fs |= REFER;
    }
    if abi >= 3 {
        fs |= TRUNCATE;
    }
    if abi >= 5 {
        fs |= IOCTL_DEV;
    }
    fs
}

/// The ruleset of one run, for ABI `abi`: what `paths` may be, and `/proc`
/// read when `proc`.
pub fn ruleset(abi: u32, paths: &Paths, proc: bool) -> io::Result<OwnedFd> {
    let fs = handled(abi);
    let attr = RulesetAttr {
        handled_access_fs: fs,
        handled_access_net: NET_BIND_TCP | NET_CONNECT_TCP,
        scoped: SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL,
    };
    let size: usize = match abi {
        1..=3 => 8,
        4 | 5 => 16,
        _ => 24,
    };
    // SAFETY: attr is valid for `size` bytes (at most its own size).
    let fd = unsafe {
        sys::syscall(
            sys::nr::LANDLOCK_CREATE_RULESET,
            &attr as *const RulesetAttr,
            size,
            0u32,
        )
    };
    if fd < 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(e.kind(), format!("Landlock ruleset: {e}")));
    }
    // SAFETY: a new descriptor of our own.
    let ruleset = unsafe { OwnedFd::from_raw_fd(fd as c_int) };
    let read = READ_FILE | READ_DIR;
    let file = |rights: u64| rights & (EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV);
    for dir in SYSTEM {
        allow(&ruleset, Path::new(dir), (read | EXECUTE) & fs, true)?;
    }
    for dev in ["null", "zero", "full", "random", "urandom"] {
        let path = Path::new("/dev").join(dev);
        allow(
            &ruleset,
            &path,
            file(READ_FILE | WRITE_FILE | TRUNCATE) & fs,
            true,
        )?;
    }
    if proc {
        allow(&ruleset, Path::new("/proc"), read, true)?;
    }
    allow(
        &ruleset,
        &paths.program.from,
        file(READ_FILE | EXECUTE),
        false,
    )?;
    for place in &paths.read_only {
        let rights = if place.from.is_dir() {
            read | EXECUTE
        } else {
            file(READ_FILE | EXECUTE)
        };
        allow(&ruleset, &place.from, rights, false)?;
    }
    allow(&ruleset, &paths.workdir.from, fs, false)?;
    Ok(ruleset)
}

/// Adds a rule: `rights` beneath `path` (a file's own rights for a file).
/// A path that does not exist is no error where `optional`.
fn allow(ruleset: &OwnedFd, path: &Path, rights: u64, optional: bool) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let c = cstr_os(path.as_os_str())?;
    // SAFETY: a NUL-terminated path.
    let fd = unsafe { sys::open(c.as_ptr(), sys::O_PATH | sys::O_CLOEXEC) };
    if fd < 0 {
        let e = io::Error::last_os_error();
        if optional && e.kind() == io::ErrorKind::NotFound {
            return Ok(());
        }
        return Err(io::Error::new(
            e.kind(),
            format!("Landlock rule for {}: {e}", path.display()),
        ));
    }
    // SAFETY: a new descriptor of our own.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let rights = if path.is_dir() {
        rights
    } else {
        rights & (EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV)
    };
    let rule = PathBeneath {
        allowed_access: rights,
        parent_fd: fd.as_raw_fd(),
    };
    // SAFETY: rule is a valid struct landlock_path_beneath_attr.
    let r = unsafe {
        sys::syscall(
            sys::nr::LANDLOCK_ADD_RULE,
            ruleset.as_raw_fd(),
            RULE_PATH_BENEATH,
            &rule as *const PathBeneath,
            0u32,
        )
    };
    if r != 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(
            e.kind(),
            format!("Landlock rule for {}: {e}", path.display()),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_abi_handles_what_it_knows() {
        assert_eq!(handled(1), 0x1fff);
        assert_eq!(handled(2), 0x3fff);
        assert_eq!(handled(4), 0x7fff);
        assert_eq!(handled(7), 0xffff);
        assert_eq!(std::mem::size_of::<PathBeneath>(), 12);
        assert_eq!(std::mem::size_of::<RulesetAttr>(), 24);
    }
}
