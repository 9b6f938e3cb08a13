//! The paths of a run: where it sees each of the job's paths (made
//! absolute, lexically) and what each is on this machine (symbolic links
//! resolved), the system folders it reads, and C strings of paths and
//! arguments. Below the plan (`plan.rs`) and Landlock (`landlock.rs`), which
//! both build on them.

use crate::{Job, Workdir};
use std::ffi::{CString, OsStr};
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The system folders a run sees, read-only, where they exist.
pub const SYSTEM: [&str; 6] = ["/usr", "/bin", "/lib", "/lib64", "/sbin", "/etc"];

/// A path of the job: `at` where the run sees it (the path the job named,
/// made absolute), `from` what it is on this machine (symbolic links
/// resolved).
#[derive(Debug)]
pub struct Place {
    pub at: PathBuf,
    pub from: PathBuf,
}

impl Place {
    fn of(path: &Path) -> io::Result<Place> {
        Ok(Place {
            at: absolute(path),
            from: canonical(path)?,
        })
    }
}

/// The paths of one run.
#[derive(Debug)]
pub struct Paths {
    pub program: Place,
    pub read_only: Vec<Place>,
    pub workdir: Place,
    /// The work folder is a fresh tmpfs (or, without a mount namespace, a
    /// fresh folder), not the job's.
    pub scratch: bool,
}

impl Paths {
    /// The paths of `job`; a scratch run works in `scratch`.
    pub fn of(job: &Job, scratch: &Path) -> io::Result<Paths> {
        let (workdir, is_scratch) = match &job.workdir {
            Workdir::Folder(dir) => (Place::of(dir)?, false),
            Workdir::Scratch => {
                let at = absolute(scratch);
                (
                    Place {
                        from: at.clone(),
                        at,
                    },
                    true,
                )
            }
        };
        Ok(Paths {
            program: Place::of(&job.program)?,
            read_only: job
                .read_only
                .iter()
                .map(|p| Place::of(p))
                .collect::<io::Result<Vec<_>>>()?,
            workdir,
            scratch: is_scratch,
        })
    }
}

/// `path` from the root, without `.` or `..` (taken lexically).
pub fn absolute(path: &Path) -> PathBuf {
    let joined = std::env::current_dir().unwrap_or_default().join(path);
    let mut out = PathBuf::from("/");
    for part in joined.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::Normal(p) => out.push(p),
            _ => {}
        }
    }
    out
}

fn canonical(path: &Path) -> io::Result<PathBuf> {
    fs::canonicalize(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

pub fn cstr(s: &str) -> io::Result<CString> {
    cstr_os(OsStr::new(s))
}

pub fn cstr_os<S: AsRef<OsStr> + ?Sized>(s: &S) -> io::Result<CString> {
    CString::new(s.as_ref().as_bytes()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{:?}: a NUL byte in a path or argument", s.as_ref()),
        )
    })
}
