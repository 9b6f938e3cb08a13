//! An archive of a submission unpacked where it cannot hurt.
//!
//! The grader reads the archive (a regular file of at most
//! [`MAX_BYTES`], opened with [`puzzle_sandbox::files`]) and lists it
//! ([`crate::intake::archive`]): an early refusal. Then the whole unpacking
//! (`gzip`, `unzip`, `tar`) runs in the sandbox, in a fresh, empty folder
//! of its own under the builder's scratch folder (never the build folder),
//! with the sandbox's time and file-size limits and a bound on the folder
//! ([`UNPACKED`]: bytes and entries, sampled while it runs). Afterwards the
//! grader walks what is really on disk without following a link
//! ([`folder::survey`]): entries and bytes counted as found, paths bounded;
//! what is neither a regular file nor a folder is left out and named. Only
//! then are the files and folders moved into the build folder. A refused
//! unpacking leaves nothing: its fresh folder is removed whole, and nothing
//! was moved.

use crate::intake::archive::{self, Format, MAX_BYTES};
use crate::intake::build::{build_limits, Builder, Run};
use crate::intake::folder::{self, UNPACKED};
use crate::shared::error::Refused;
use puzzle_sandbox::{files, Ending, FolderLimit, Limits};
use std::ffi::OsString;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The longest an unpacking command may take (or the build's time, when
/// shorter): 64 MiB unpack in a second or two.
const UNPACK_SECONDS: u64 = 60;

/// What a `.tar.gz` may make: its files' bytes and a header a file.
const UNGZIPPED_MAX: u64 = MAX_BYTES + (1 << 20);

/// The number of the next fresh folder.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// A fresh, empty folder for one unpacking, and the file beside it that a
/// `.tar.gz` is made into: both removed whole when it is dropped, however
/// the unpacking ended.
struct Fresh {
    dir: PathBuf,
    tar: PathBuf,
}

impl Fresh {
    fn new(root: &Path) -> io::Result<Fresh> {
        fs::create_dir_all(root)?;
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = root.join(n.to_string());
            match fs::create_dir(&dir) {
                Ok(()) => {
                    return Ok(Fresh {
                        dir,
                        tar: root.join(format!("{n}.tar")),
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for Fresh {
    fn drop(&mut self) {
        let _ = folder::remove_whole(&self.dir);
        let _ = fs::remove_file(&self.tar);
    }
}

/// The bytes of the regular file `path`, at most `cap` (more: refused).
fn read_archive(path: &Path, cap: u64) -> io::Result<Result<Vec<u8>, Refused>> {
    Ok(match files::read_regular(path, cap) {
        Ok((bytes, true)) => Ok(bytes),
        Ok((_, false)) => Err(Refused::because(format!(
            "it is larger than {} MiB",
            MAX_BYTES >> 20
        ))),
        Err(e) if files::is_refused(&e) => Err(Refused::because("it is not a regular file")),
        Err(e) => return Err(e),
    })
}

/// The regular file `path` opened as a command's stdin.
fn opened(path: &Path) -> io::Result<Result<File, Refused>> {
    Ok(match files::open_regular(path) {
        Ok(file) => Ok(file),
        Err(e) if files::is_refused(&e) => Err(Refused::because("it is not a regular file")),
        Err(e) => return Err(e),
    })
}

/// Takes the value out of an `io::Result<Result<T, Refused>>`, or returns
/// the refusal (or the error).
macro_rules! or_refused {
    ($e:expr) => {
        match $e? {
            Ok(value) => value,
            Err(why) => return Ok(Err(why)),
        }
    };
}

impl Builder<'_> {
    /// The limits of an unpacking command: a build's, shorter, with its
    /// folder bounded by [`UNPACKED`] and each file by [`MAX_BYTES`].
    fn unpack_limits(&self) -> Limits {
        Limits {
            file_size: MAX_BYTES,
            folder: Some(FolderLimit {
                bytes: UNPACKED.bytes,
                entries: UNPACKED.entries,
            }),
            ..build_limits(self.seconds.min(UNPACK_SECONDS))
        }
    }

    /// Unpacks the archive `name` of `dir` into `dir`, as the module says;
    /// the commands' output goes to `log`. What it left out (neither a
    /// regular file nor a folder) is named; the refusal says why nothing
    /// was unpacked. An error of the grader's own while the archive is
    /// unpacked is a refusal too (the submission's, not the grading's).
    pub(super) fn unpack(
        &self,
        dir: &Path,
        log: &Path,
        name: &str,
        format: Format,
    ) -> io::Result<Result<Vec<String>, Refused>> {
        let fresh = Fresh::new(&self.scratch)?;
        let unpacked = self.unpack_into(&fresh, &dir.join(name), log, format);
        Ok(match unpacked {
            Ok(Ok(survey)) => {
                let moved = survey
                    .left_out
                    .iter()
                    .try_for_each(|(path, _)| fs::remove_file(path))
                    .and_then(|()| folder::move_into(&fresh.dir, dir));
                match moved {
                    Ok(()) => Ok(survey
                        .left_out
                        .into_iter()
                        .map(|(_, named)| named)
                        .collect()),
                    Err(e) => Err(Refused::because(format!(
                        "it could not be moved into place: {e}"
                    ))),
                }
            }
            Ok(Err(why)) => Err(why),
            Err(e) => Err(Refused::because(format!("it could not be unpacked: {e}"))),
        })
    }

    /// Lists the `archive` and unpacks it into `fresh` (see the module);
    /// what is there then, found on disk.
    fn unpack_into(
        &self,
        fresh: &Fresh,
        archive: &Path,
        log: &Path,
        format: Format,
    ) -> io::Result<Result<folder::Survey, Refused>> {
        let refused = |why: String| Ok(Err(Refused::because(why)));
        let over = || format!("it unpacked to more than {} MiB", MAX_BYTES >> 20);
        // The bytes listed: the archive's, or for a .tar.gz gzip's.
        let bytes = match format {
            Format::Zip | Format::Tar => or_refused!(read_archive(archive, MAX_BYTES)),
            Format::TarGz => {
                let run = Run {
                    command: "gzip",
                    args: vec!["-dc".into()],
                    stdin: Some(or_refused!(opened(archive))),
                    stdout: Some(File::create_new(&fresh.tar)?),
                    read_only: Vec::new(),
                    limits: Limits {
                        file_size: UNGZIPPED_MAX,
                        ..self.unpack_limits()
                    },
                };
                match self.run_job(&fresh.dir, log, run)? {
                    Ending::Exited(0) => {}
                    Ending::Signalled(25) => return refused(over()),
                    ended => return refused(self.unpack_failed("gzip", ended, log)?),
                }
                or_refused!(read_archive(&fresh.tar, UNGZIPPED_MAX))
            }
        };
        let listed = match format {
            Format::Zip => archive::zip_entries(&bytes),
            Format::Tar | Format::TarGz => archive::tar_entries(&bytes),
        };
        drop(bytes);
        if let Err(why) = listed.and_then(|entries| archive::check(&entries)) {
            return Ok(Err(why));
        }
        let absolute = std::path::absolute(archive)?;
        let tar_args = ["-xf", "-", "--no-same-owner", "--no-same-permissions"];
        let (command, args, stdin, read_only): (&str, Vec<OsString>, _, _) = match format {
            Format::Zip => (
                "unzip",
                vec!["-q".into(), "-o".into(), absolute.clone().into()],
                None,
                vec![absolute],
            ),
            Format::Tar => (
                "tar",
                tar_args.map(OsString::from).to_vec(),
                Some(or_refused!(opened(archive))),
                Vec::new(),
            ),
            Format::TarGz => (
                "tar",
                tar_args.map(OsString::from).to_vec(),
                Some(or_refused!(opened(&fresh.tar))),
                Vec::new(),
            ),
        };
        let run = Run {
            command,
            args,
            stdin,
            stdout: None,
            read_only,
            limits: self.unpack_limits(),
        };
        match self.run_job(&fresh.dir, log, run)? {
            Ending::Exited(0) => {}
            // The file-size limit or the folder's: which one, the folder says.
            Ending::Signalled(25) => {
                return match folder::survey(&fresh.dir, UNPACKED) {
                    Err(why) => Ok(Err(why)),
                    Ok(_) => refused(over()),
                }
            }
            ended => return refused(self.unpack_failed(command, ended, log)?),
        }
        Ok(folder::survey(&fresh.dir, UNPACKED))
    }

    /// Why an unpacking command failed, in words.
    fn unpack_failed(&self, command: &str, ended: Ending, log: &Path) -> io::Result<String> {
        Ok(match ended {
            Ending::TimedOut => format!(
                "{command} still running after {} s",
                self.seconds.min(UNPACK_SECONDS)
            ),
            ended => self.failed(command, ended, log)?,
        })
    }
}
