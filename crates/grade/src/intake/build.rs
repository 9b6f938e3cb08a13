//! Building a submission as a marker would: in a copy (its folders and
//! regular files only, within a bound: [`crate::intake::folder`]), as
//! handed in (its `.zip`, `.tar` or `.tar.gz` unpacked, each in the sandbox
//! into a fresh folder of its own, when it holds no sources of its own:
//! [`crate::intake::unpack`]; the one folder under it that holds them
//! used); `make` first; without a Makefile or when it fails, the
//! assignment's own files (`puzzle.c` with `boardADT.c`), then every `.c`
//! file; the course's `dcc` replaced by `cc` where it is not installed.
//! Every command, the unpacking's too, runs through the [`Runner`]; the
//! grader itself opens no file of the submission but through
//! [`puzzle_sandbox::files`] (never a link, never a FIFO), and reads its
//! build log up to a bound.

use crate::intake::archive::{shown, Format};
use crate::intake::folder::{copy_folder, left_out_note, remove_whole, Copied, COPY};
use puzzle_sandbox::files;
use puzzle_sandbox::{Ending, Job, Limits, Runner, Workdir};
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Read, Seek};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The limits of a build command.
pub fn build_limits(seconds: u64) -> Limits {
    // A compiler is busy: on a busy machine its waits for a core are made
    // up, as a program's are (crate::shared::machine).
    crate::shared::machine::made_up(Limits {
        wall: Duration::from_secs(seconds),
        make_up: Duration::ZERO,
        memory: 2 << 30,
        processes: 128,
        file_size: 64 << 20,
        open_files: 256,
        folder: None,
    })
}

/// The most of a build log the grader reads: the file-size limit of its
/// commands holds it to 64 MiB, and a little the grader adds.
const LOG_CAP: u64 = (64 << 20) + (1 << 20);

/// The end of a build log that the feedback shows (its last lines).
const LOG_TAIL: u64 = 1 << 20;

/// What a build made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The executable, when there is one.
    pub program: Option<PathBuf>,
    /// How it was built, or why not (the first error line of the log whole).
    pub note: String,
    /// The digest of the sources as handed in (the copy's files, by name
    /// and bytes: [`crate::intake::folder::sources_digest`]); none when
    /// the folder was not copied whole.
    pub sources: Option<u64>,
}

/// A submission taken in: copied, its archives unpacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakenIn {
    /// The folder of its sources (the copy, or the one folder under it
    /// that holds them).
    pub dir: PathBuf,
    /// What was done (`unpacked submission.zip`, `sources in ass1/`) and
    /// what was left out, each in words.
    pub notes: Vec<String>,
    /// Why it cannot be built or read (its copy or its archive refused,
    /// and no sources beside): nothing of it should be used.
    pub refused: Option<String>,
    /// The digest of the sources as handed in ([`Built::sources`]).
    pub sources: Option<u64>,
}

/// The stand-ins for the course's tools, written into `dir`: `dcc` (cc, with
/// the maths library when linking, as dcc links it; it leaves a mark in the
/// build's HOME so that the table can say so) and `9024` (the course's
/// wrapper, `9024 COMMAND...`).
pub fn write_shims(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::create_dir_all(dir)?;
    let dcc =
        "#!/bin/sh\n# dcc, the course's compiler, is not installed: cc, with the maths library\n\
               # when linking, as dcc links it.\n: > \"$HOME/.puzzle-grade-dcc\"\n\
               for arg in \"$@\"; do\n    case $arg in -c | -S | -E) exec cc \"$@\" ;; esac\ndone\n\
               exec cc \"$@\" -lm\n";
    let wrapper =
        "#!/bin/sh\n# The course wrapper, 9024 COMMAND..., is not installed.\nexec \"$@\"\n";
    for (name, text) in [("dcc", dcc), ("9024", wrapper)] {
        let path = dir.join(name);
        fs::write(&path, text)?;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// Whether `path` is a file someone may execute (a link to one too: for
/// the marker's own programs; a build's `puzzle` must be a regular file
/// itself).
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Whether `path` is itself a regular file someone may execute (not a
/// link: what a build made is the student's).
fn is_regular_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Whether `path` is itself a regular file (a link is not).
fn is_regular(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

/// The end of the build log `log` (its last MiB at most), as the feedback
/// of a submission not built shows it; opened as a stranger's file.
pub fn read_log(log: &Path) -> io::Result<Vec<u8>> {
    let mut file = files::open_regular(log)?;
    let len = file.metadata()?.len();
    file.seek(io::SeekFrom::Start(len.saturating_sub(LOG_TAIL)))?;
    let mut bytes = Vec::new();
    file.take(LOG_TAIL).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The line of `log` that says what went wrong: the first compiler or
/// linker diagnostic (`error:`, `undefined reference`), else the first that
/// says `error` at all (`make: *** ... Error 1`), whatever its case.
fn first_error(log: &[u8]) -> Option<String> {
    let lines = crate::shared::text::lines(log);
    let has = |line: &[u8], word: &[u8]| {
        line.to_ascii_lowercase()
            .windows(word.len())
            .any(|w| w == word)
    };
    lines
        .iter()
        .find(|line| has(line, b"error:") || has(line, b"undefined reference"))
        .or_else(|| lines.iter().find(|line| has(line, b"error")))
        .map(|line| String::from_utf8_lossy(line).trim_end().to_string())
}

/// A build's `log` as a student and a marker read it, the same in every
/// grading: the paths of `dirs` (the build folder, the folder of an
/// archive being unpacked: in the grader's temporary folder, a new one
/// each grading) left out, and the names the compiler gives its
/// temporary files (`cc` and six random characters, `.o`) written
/// `ccXXXXXX.o`.
fn tidy(log: &[u8], dirs: &[&Path]) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    let folders: Vec<&[u8]> = dirs
        .iter()
        .map(|d| d.as_os_str().as_bytes())
        .filter(|f| !f.is_empty())
        .collect();
    let mut out = Vec::with_capacity(log.len());
    let mut i = 0;
    while i < log.len() {
        if let Some(folder) = folders.iter().find(|f| log[i..].starts_with(f)) {
            i += folder.len();
            // The folder itself is `.`; a path in it is its name there.
            if log.get(i) == Some(&b'/') {
                i += 1;
            } else {
                out.push(b'.');
            }
            continue;
        }
        let temporary = log[i..].starts_with(b"cc")
            && log.len() >= i + 10
            && log[i + 2..i + 8].iter().all(u8::is_ascii_alphanumeric)
            && &log[i + 8..i + 10] == b".o"
            && (i == 0 || !log[i - 1].is_ascii_alphanumeric());
        if temporary {
            out.extend_from_slice(b"ccXXXXXX.o");
            i += 10;
            continue;
        }
        out.push(log[i]);
        i += 1;
    }
    out
}

/// Where `program` is in `path`'s folders.
fn find_in_path(program: &str, path: &OsString) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Builds a submission in a copy, its log in a file of the grader's;
/// `shims` holds the stand-ins of [`write_shims`] (first in the `PATH`).
pub struct Builder<'a> {
    /// Runs the build's commands.
    pub runner: &'a dyn Runner,
    /// The `PATH` of the build, after the shims.
    pub path: OsString,
    /// The stand-ins' folder.
    pub shims: PathBuf,
    /// Seconds each command may take.
    pub seconds: u64,
    /// A private folder of the grader's (no build's): each archive is
    /// unpacked in a fresh folder of its own made there, and removed.
    pub scratch: PathBuf,
}

/// One command of a build or an unpacking, as [`Builder::run_job`] runs it.
pub(super) struct Run<'a> {
    /// Its name, looked up in the build's `PATH`.
    pub command: &'a str,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Its stdin (none: `/dev/null`).
    pub stdin: Option<File>,
    /// Its stdout (none: the log).
    pub stdout: Option<File>,
    /// What it may read besides the system's folders and the shims.
    pub read_only: Vec<PathBuf>,
    /// Its limits.
    pub limits: Limits,
}

/// Whether `dir` holds sources of its own: a Makefile or a `.c` file.
fn has_sources(dir: &Path) -> bool {
    has_makefile(dir) || !c_files(dir).is_empty()
}

/// Whether `dir` holds a Makefile (a regular file, not a link).
fn has_makefile(dir: &Path) -> bool {
    ["Makefile", "makefile", "GNUmakefile"]
        .iter()
        .any(|name| is_regular(&dir.join(name)))
}

/// The regular files named `*.c` right in `dir` (not links, not FIFOs), in
/// name order.
fn c_files(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".c"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// The folders right under `dir` (not hidden ones, not `__MACOSX`, not
/// symbolic links), in name order.
fn subfolders(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    !name.starts_with('.') && name != "__MACOSX"
                })
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// The one folder under `dir` (three levels down at most) that holds
/// sources, when the shallowest level that has any has exactly one.
pub fn sources_folder(dir: &Path) -> Option<PathBuf> {
    let mut level = vec![dir.to_path_buf()];
    for _ in 0..3 {
        let next: Vec<PathBuf> = level.iter().flat_map(|d| subfolders(d)).collect();
        let with: Vec<&PathBuf> = next.iter().filter(|d| has_sources(d)).collect();
        match with.as_slice() {
            [one] => return Some((*one).clone()),
            [] => level = next,
            _ => return None,
        }
    }
    None
}

impl Builder<'_> {
    /// Runs `command` (looked up in the build's `PATH`) with `args` in `dir`,
    /// its output added to `log`, with a build's limits.
    fn run(&self, dir: &Path, log: &Path, command: &str, args: &[&str]) -> io::Result<Ending> {
        self.run_job(
            dir,
            log,
            Run {
                command,
                args: args.iter().map(OsString::from).collect(),
                stdin: None,
                stdout: None,
                read_only: Vec::new(),
                limits: build_limits(self.seconds),
            },
        )
    }

    /// Runs `run` in the sandbox in `dir` (its work folder), its stderr
    /// (and its stdout, unless it has one) added to `log`, which is then
    /// tidied ([`tidy`]).
    pub(super) fn run_job(&self, dir: &Path, log: &Path, run: Run) -> io::Result<Ending> {
        let mut path = OsString::from(self.shims.as_os_str());
        path.push(":");
        path.push(&self.path);
        let append = || File::options().append(true).create(true).open(log);
        let Some(program) = find_in_path(run.command, &path) else {
            let line = format!("{}: not found\n", run.command);
            io::Write::write_all(&mut append()?, line.as_bytes())?;
            return Ok(Ending::Exited(127));
        };
        // What the run reads is named in its log by where it is here.
        let mut shown: Vec<PathBuf> = vec![dir.to_path_buf()];
        shown.extend(
            run.read_only
                .iter()
                .filter_map(|p| p.parent())
                .map(PathBuf::from),
        );
        let mut read_only = vec![self.shims.clone()];
        read_only.extend(run.read_only);
        let job = Job {
            program,
            args: run.args,
            path,
            read_only,
            workdir: Workdir::Folder(dir.to_path_buf()),
            stdin: match run.stdin {
                Some(file) => file,
                None => File::open("/dev/null")?,
            },
            stdout: match run.stdout {
                Some(file) => file,
                None => append()?,
            },
            stderr: append()?,
            limits: run.limits,
        };
        let ending = self.runner.run(job)?.ending;
        let (written, whole) = files::read_regular(log, LOG_CAP)?;
        let tidied = tidy(
            &written,
            &shown.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
        );
        if whole && tidied != written {
            fs::write(log, tidied)?;
        }
        Ok(ending)
    }

    /// The folder to build in: `dir`; when it holds no sources of its own,
    /// after its archives are unpacked into it; then, if it still holds
    /// none, the one folder under it that does. What was done goes to
    /// `notes` (`unpacked submission.zip`, `sources in ass1/`), why an
    /// archive was not unpacked to `refusals`.
    fn prepare(
        &self,
        dir: &Path,
        log: &Path,
        notes: &mut Vec<String>,
        refusals: &mut Vec<String>,
    ) -> io::Result<PathBuf> {
        if !has_sources(dir) {
            let mut archives: Vec<(String, Format)> = fs::read_dir(dir)?
                .filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    Format::of_name(&name).map(|format| (name, format))
                })
                .collect();
            archives.sort_by(|a, b| a.0.cmp(&b.0));
            for (name, format) in archives {
                let shown = shown(&name);
                match self.unpack(dir, log, &name, format)? {
                    Ok(left_out) if left_out.is_empty() => notes.push(format!("unpacked {shown}")),
                    Ok(left_out) => {
                        notes.push(format!("unpacked {shown} ({})", left_out_note(&left_out)))
                    }
                    Err(why) => refusals.push(format!("{shown} not unpacked: {why}")),
                }
            }
        }
        if has_sources(dir) {
            return Ok(dir.to_path_buf());
        }
        Ok(match sources_folder(dir) {
            Some(found) => {
                let inside = found.strip_prefix(dir).unwrap_or(&found);
                notes.push(format!("sources in {}/", shown(&inside.to_string_lossy())));
                found
            }
            None => dir.to_path_buf(),
        })
    }

    /// Why an unpacking command failed, in words.
    pub(super) fn failed(&self, command: &str, ended: Ending, log: &Path) -> io::Result<String> {
        Ok(match ended {
            Ending::Exited(127) => format!("{command} is not installed"),
            ended => format!("{command} failed: {}", self.why(Some(ended), log)?),
        })
    }

    /// Builds the submission in the folder `from` in a copy at `dir`, as
    /// handed in (its archives unpacked when it holds no sources, or the
    /// one folder under it that does): its own `puzzle` and object files
    /// removed first so that it is built from its sources. A copy over its
    /// bound, or an archive refused where no sources are found, is not
    /// built (the note says why, first); what the copy or an unpacking
    /// left out is named in the note.
    pub fn build(&self, from: &Path, dir: &Path, log: &Path) -> io::Result<Built> {
        let taken = self.take_in(from, dir, log)?;
        let sources = taken.sources;
        match taken.refused {
            Some(note) => Ok(Built {
                program: None,
                note,
                sources: None,
            }),
            None => {
                let built = self.compile(&taken.dir, log, taken.notes)?;
                Ok(Built { sources, ..built })
            }
        }
    }

    /// Takes the submission in the folder `from` in, as [`Builder::build`]
    /// does before it compiles: copied afresh to `dir` (its log, of the
    /// unpackings, in `log`), its archives unpacked when it holds no
    /// sources of its own, the folder of its sources found.
    pub fn take_in(&self, from: &Path, dir: &Path, log: &Path) -> io::Result<TakenIn> {
        let copied = self.copy_in(from, dir, log)?;
        self.take_in_copy(dir, log, copied)
    }

    /// The first step of [`Builder::take_in`]: the submission in the folder
    /// `from` copied afresh to `dir` (its log made empty in `log`), with the
    /// digest of what was copied; nothing unpacked yet.
    pub fn copy_in(&self, from: &Path, dir: &Path, log: &Path) -> io::Result<Copied> {
        File::create(log)?;
        // A copy is made afresh (a file of an earlier one is never opened).
        remove_whole(dir)?;
        copy_folder(from, dir, COPY)
    }

    /// The rest of [`Builder::take_in`]: the copy `dir` of a submission
    /// (what [`Builder::copy_in`] said of it in `copied`) taken in.
    pub fn take_in_copy(&self, dir: &Path, log: &Path, copied: Copied) -> io::Result<TakenIn> {
        let sources = copied.digest;
        let mut taken = self.take_in_rest(dir, log, copied)?;
        taken.sources = sources;
        Ok(taken)
    }

    /// [`Builder::take_in_copy`] but the digest.
    fn take_in_rest(&self, dir: &Path, log: &Path, copied: Copied) -> io::Result<TakenIn> {
        let mut notes: Vec<String> = Vec::new();
        let refused = |note: String| TakenIn {
            dir: dir.to_path_buf(),
            notes: Vec::new(),
            refused: Some(note),
            sources: None,
        };
        if let Some(why) = copied.refused {
            return Ok(refused(format!("not copied: {why}")));
        }
        if !copied.left_out.is_empty() {
            notes.push(left_out_note(&copied.left_out));
        }
        let mut refusals = Vec::new();
        let found = self.prepare(dir, log, &mut notes, &mut refusals)?;
        if !refusals.is_empty() && !has_sources(&found) {
            // Nothing of a refused archive is there to build from.
            refusals.append(&mut notes);
            return Ok(refused(refusals.join("; ")));
        }
        refusals.append(&mut notes);
        Ok(TakenIn {
            dir: found,
            notes: refusals,
            refused: None,
            sources: None,
        })
    }

    /// Builds the sources in `dir`: make, else the assignment's files, else
    /// every `.c` file; `notes` are what was done before.
    fn compile(&self, dir: &Path, log: &Path, mut notes: Vec<String>) -> io::Result<Built> {
        let _ = fs::remove_file(dir.join("puzzle"));
        for entry in fs::read_dir(dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "o") {
                let _ = fs::remove_file(path);
            }
        }
        let executable = || is_regular_executable(&dir.join("puzzle"));
        let mut failed: Option<(Ending, &str)> = None;
        if has_makefile(dir) {
            let made = self.run(dir, log, "make", &[])?;
            if !executable() && made == Ending::Exited(0) {
                self.run(dir, log, "make", &["puzzle"])?;
                if executable() {
                    notes.push("built by 'make puzzle' (plain make made no puzzle)".into());
                }
            }
            if !executable() {
                failed = Some((made, "make failed"));
            }
        }
        if !executable() {
            // The assignment's own files first, then every .c file.
            let all_c = c_files(dir);
            let mut sources: Vec<String> = Vec::new();
            if all_c.iter().any(|n| n == "puzzle.c") {
                sources.push("puzzle.c".into());
                if all_c.iter().any(|n| n == "boardADT.c") {
                    sources.push("boardADT.c".into());
                }
            }
            let mut tries = Vec::new();
            if !sources.is_empty() {
                tries.push(sources.clone());
            }
            if !all_c.is_empty() && all_c != sources {
                tries.push(all_c.clone());
            }
            for sources in tries {
                let mut args = vec!["-O2", "-o", "puzzle"];
                args.extend(sources.iter().map(String::as_str));
                args.push("-lm");
                let ended = self.run(dir, log, "cc", &args)?;
                let shown = format!("cc {}", args.join(" "));
                if executable() {
                    let how = match failed {
                        Some(_) => {
                            let why = self.why(failed.map(|f| f.0), log)?;
                            format!("make failed: {why}; built with {shown}")
                        }
                        None => format!("no Makefile: built with {shown}"),
                    };
                    notes.push(how);
                    failed = None;
                    break;
                }
                if failed.is_none() {
                    failed = Some((ended, "no Makefile, and cc failed"));
                }
            }
            if all_c.is_empty() && failed.is_none() {
                failed = Some((Ending::Exited(0), "no Makefile and no .c file"));
            }
        }
        let dcc_mark = dir.join(".puzzle-grade-dcc");
        if fs::symlink_metadata(&dcc_mark).is_ok() {
            let _ = fs::remove_file(dcc_mark);
            notes.push("dcc not found: built with cc -lm".into());
        }
        if executable() {
            return Ok(Built {
                program: Some(dir.join("puzzle")),
                note: notes.join("; "),
                sources: None,
            });
        }
        let (ending, what) = failed.unwrap_or((Ending::Exited(0), "make failed"));
        let why = self.why(Some(ending), log)?;
        // Why it was not built comes first.
        notes.insert(0, format!("{what}: {why}"));
        Ok(Built {
            program: None,
            note: notes.join("; "),
            sources: None,
        })
    }

    /// Why a build command failed: its time, the first error of the log, or
    /// how it ended.
    fn why(&self, ending: Option<Ending>, log: &Path) -> io::Result<String> {
        let ending = match ending {
            None | Some(Ending::Exited(0)) => return Ok("no executable named puzzle".into()),
            Some(Ending::TimedOut) => return Ok(format!("still running after {} s", self.seconds)),
            Some(ending) => ending,
        };
        let (log, _) = files::read_regular(log, LOG_CAP)?;
        Ok(first_error(&log).unwrap_or_else(|| match ending {
            Ending::Exited(status) => format!("exit status {status}"),
            Ending::Signalled(signal) => format!("killed by signal {signal}"),
            Ending::MemoryLimit => "stopped by the memory limit".into(),
            _ => "stopped by the process limit".into(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_error_line_of_a_log() {
        let log = b"cc -o puzzle puzzle.c\npuzzle.c:3:2: Error: no\nmore error\n";
        assert_eq!(first_error(log), Some("puzzle.c:3:2: Error: no".into()));
        assert_eq!(first_error(b"fine\n"), None);
        // The linker's line that names the fault, not the one before it
        // whose function is called find_board_error.
        let linked = b"cc -o puzzle puzzle.c\n/usr/bin/ld: /tmp/g.1/b/ann/ccLmdPnA.o: in function `find_board_error':\nboardADT.c:(.text+0x554): undefined reference to `sqrt'\ncollect2: error: ld returned 1 exit status\nmake: *** [Makefile:2: puzzle] Error 1\n";
        assert_eq!(
            first_error(linked),
            Some("boardADT.c:(.text+0x554): undefined reference to `sqrt'".into())
        );
        assert_eq!(
            first_error(b"make: *** [x] Error 2\n"),
            Some("make: *** [x] Error 2".into())
        );
    }

    #[test]
    fn a_log_leaves_out_the_graders_folders_and_random_names() {
        let log = b"/usr/bin/ld: /tmp/g.1/b/ann/ccLmdPnA.o: in function `f':\ncd /tmp/g.1/b/ann && make\nsuccess.o ccshort.o\n";
        assert_eq!(
            tidy(log, &[Path::new("/tmp/g.1/b/ann")]),
            b"/usr/bin/ld: ccXXXXXX.o: in function `f':\ncd . && make\nsuccess.o ccshort.o\n"
        );
        // An unpacking's folder, and the folder of the archive it reads.
        let log = b"[/tmp/g.1/b/ann/sub.zip]: 3 extra bytes\n/tmp/g.1/unpack/7/x: error\n";
        assert_eq!(
            tidy(
                log,
                &[Path::new("/tmp/g.1/unpack/7"), Path::new("/tmp/g.1/b/ann")]
            ),
            b"[sub.zip]: 3 extra bytes\nx: error\n"
        );
    }
}
