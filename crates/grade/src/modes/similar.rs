//! `similar SUBMISSIONS --out DIR [--template PATH]...`: which pairs of
//! submissions share code, the code as evidence ([`crate::similarity`]).
//!
//! The submissions come in through the same door as `grade-all`'s: each
//! folder of SUBMISSIONS (not hidden ones, not links) by its name made
//! safe ([`Name`]), copied within the same bound, its archives unpacked in
//! the sandbox when it holds no sources of its own
//! ([`Builder::take_in`]). Its sources are then read from the copy, beneath
//! it, no link followed: the C family's files (`.c .h .cc .cpp .hpp
//! .java`) anywhere in it but hidden folders and `__MACOSX`, each at most
//! [`MAX_FILE`] bytes (the rest of a larger one is not read), at most
//! [`MAX_FILES`] of them and [`MAX_SOURCES`] bytes in all; a file with a
//! NUL byte among its first 8 KiB is binary and left out. What was left
//! out is named in a note. One submission's trouble (a copy or an archive
//! refused, a file that cannot be read) is its own: the others are
//! compared.

use crate::intake::build::{write_shims, Builder};
use crate::intake::folder::{files_in, submission_names};
use crate::modes::diff;
use crate::publishing::changes::since_kept;
use crate::publishing::grades::{finish_keeping, write_atomic, Earlier, GradesLock};
use crate::publishing::record::Record;
use crate::publishing::similarity::{
    blocks_csv, page_file, pair_page, similarity_csv, worth_a_look, Behaviour, TemplateLines,
    BLOCKS_FILE, CSV_FILE, PAGES,
};
use crate::publishing::summaries::write_class_page;
use crate::shared::error::{Error, Refused};
use crate::shared::name::Name;
use crate::shared::text::one_line;
use crate::similarity::behaviour;
use crate::similarity::report::Comparison;
use crate::similarity::{compare, each, is_source, Settings, Source, Submission};
use puzzle_sandbox::files::{read_regular, Beneath};
use puzzle_sandbox::Runner;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The most bytes read of one source file: its first 4 MiB (a student's
/// file is a hundred times smaller).
pub const MAX_FILE: u64 = 4 << 20;

/// The most bytes read of one submission's sources in all.
pub const MAX_SOURCES: u64 = 16 << 20;

/// The most source files read of one submission.
pub const MAX_FILES: usize = 256;

/// How much of a file is looked at for a NUL byte (a binary file).
const BINARY_PROBE: usize = 8 << 10;

/// What a grading asks of the comparison it makes after grading
/// (`grade-all`: on unless `--no-similarity`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimilarityAsked {
    /// The template's files or folders (`--template`).
    pub templates: Vec<PathBuf>,
    /// A passage more than this many submissions share is no evidence
    /// (`--common`; none: the default).
    pub common: Option<usize>,
}

/// A comparison of a folder of submissions.
pub struct Similar<'a> {
    /// Runs the unpacking of archives.
    pub runner: &'a dyn Runner,
    /// The folder of submissions.
    pub submissions: PathBuf,
    /// Where the files go (made if missing).
    pub out: PathBuf,
    /// The template's files or folders (their C-family files).
    pub templates: Vec<PathBuf>,
    /// A private folder for the copies.
    pub temp: PathBuf,
    /// The `PATH` the unpacking commands are looked up in.
    pub path: OsString,
    /// Seconds an unpacking command may take.
    pub seconds: u64,
    /// How the submissions are compared.
    pub settings: Settings,
    /// A grading of the submissions (its grades folder), whose fixtures'
    /// outcomes are the behaviour's evidence; none: the code's alone.
    pub grades: Option<PathBuf>,
    /// Whether to stop (a signal came): looked at after each submission
    /// is taken in.
    pub stop: &'a (dyn Fn() -> bool + Sync),
}

/// What a comparison found.
#[derive(Debug)]
pub struct Found {
    /// The comparison.
    pub comparison: Comparison,
    /// What the marker should know: what was left out of whom, and why.
    pub notes: Vec<String>,
    /// The submissions that could not be read at all (their notes say
    /// why), by their shown names.
    pub not_read: Vec<String>,
    /// How many submissions were compared.
    pub compared: usize,
    /// The file names of the pages of the pairs worth a look, in the
    /// folder `similarity` of the out folder, in the pairs' order.
    pub pages: Vec<String>,
}

/// A submission's sources, read from the folder `dir` beneath it, and what
/// was left out of them (see the module).
pub fn read_sources(dir: &Path) -> io::Result<(Vec<Source>, Vec<String>)> {
    let beneath = Beneath::open(dir)?;
    let mut sources = Vec::new();
    let mut left = Vec::new();
    let mut total = 0u64;
    let paths = files_in(dir).into_iter().filter(|p| {
        is_source(p)
            && !p
                .split('/')
                .any(|part| part.starts_with('.') || part == "__MACOSX")
    });
    for path in paths {
        let shown = one_line(&path);
        if sources.len() >= MAX_FILES {
            left.push(format!("{shown} (more than {MAX_FILES} source files)"));
            continue;
        }
        let room = MAX_FILE.min(MAX_SOURCES - total);
        if room == 0 {
            left.push(format!(
                "{shown} (more than {} MiB of sources)",
                MAX_SOURCES >> 20
            ));
            continue;
        }
        let (bytes, whole) = match beneath.read_regular(Path::new(&path), room) {
            Ok(read) => read,
            Err(e) => {
                left.push(format!("{shown} (cannot be read: {e})"));
                continue;
            }
        };
        if bytes[..bytes.len().min(BINARY_PROBE)].contains(&0) {
            left.push(format!("{shown} (binary)"));
            continue;
        }
        if !whole {
            left.push(format!("{shown} (only its first {} KiB read)", room >> 10));
        }
        total += bytes.len() as u64;
        sources.push(Source { path: shown, bytes });
    }
    Ok((sources, left))
}

/// The template's sources: each path a file, or a folder whose C-family
/// files are read (as a submission's are).
pub fn read_template(paths: &[PathBuf]) -> io::Result<Vec<Source>> {
    let mut sources = Vec::new();
    for path in paths {
        let shown = path.display().to_string();
        let meta = fs::metadata(path)
            .map_err(|e| io::Error::new(e.kind(), format!("--template {shown}: {e}")))?;
        if meta.is_dir() {
            let (found, _) = read_sources(path)?;
            sources.extend(found);
        } else {
            let (bytes, _) = read_regular(path, MAX_FILE)
                .map_err(|e| io::Error::new(e.kind(), format!("--template {shown}: {e}")))?;
            let name = path
                .file_name()
                .map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
            sources.push(Source { path: name, bytes });
        }
    }
    Ok(sources)
}

/// The pages of the pairs worth a look ([`worth_a_look`]) written into
/// `dir`, each whole (their file names, in the pairs' order); the pages of an earlier comparison (the `.html`
/// files there) removed first, so that none is left to say otherwise.
fn write_pages(
    dir: &Path,
    comparison: &Comparison,
    class: &[Submission],
    stems: &[String],
    seen: Option<&Behaviour>,
    template: &TemplateLines,
) -> io::Result<Vec<String>> {
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let old = entry.file_type().is_ok_and(|t| t.is_file())
                && entry.file_name().to_string_lossy().ends_with(".html");
            if old {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    let mut files = Vec::new();
    for pair in worth_a_look(comparison) {
        fs::create_dir_all(dir)?;
        let sides = [pair.a, pair.b].map(|s| class[s].sources.as_slice());
        let page = pair_page(comparison, pair, sides, seen, template);
        let file = page_file(&stems[pair.a], &stems[pair.b]);
        write_atomic(&dir.join(&file), page.as_bytes())?;
        files.push(file);
    }
    Ok(files)
}

impl Similar<'_> {
    /// Takes every submission in (several at once, as many as the
    /// comparison's threads), compares them, writes `similarity.csv` and
    /// `similarity-blocks.csv` (each whole) into the out folder; refused
    /// when SUBMISSIONS holds no submission. Stopped (`stop`), an error
    /// of kind `Interrupted`. When the out folder holds a grading (a
    /// merged one, compared afterwards), its class page is written again
    /// with the section on this comparison (or a note says why not).
    pub fn run(&self) -> Result<Found, Error> {
        let mut found = self.run_with(None)?;
        match self.rewrite_class_page() {
            Ok(note) => found.notes.extend(note),
            Err(e) => found.notes.push(format!(
                "{}/index.html: not written again with the section on similarity: {e}",
                self.out.display()
            )),
        }
        Ok(found)
    }

    /// When the out folder holds a grading (its `grading.json`), its class
    /// page written again from its records, under its lock, as
    /// `gradebook` writes it: the page has the section on similarity
    /// whenever the folder has `similarity.csv`. A grading with records
    /// that cannot be read is left as it is (its page would lose them).
    /// What the marker should know of the folder (a grading's move into
    /// `previous/` that a killed one left half done, finished first).
    fn rewrite_class_page(&self) -> Result<Option<String>, Error> {
        if !self.out.join("grading.json").is_file() {
            return Ok(None);
        }
        let _lock = GradesLock::take(&self.out)?;
        let finished = finish_keeping(&self.out)?;
        let earlier = Earlier::read(&self.out)?;
        let Some(manifest) = earlier.manifest else {
            return Ok(finished);
        };
        if let Some(first) = earlier.refused.first.first() {
            return Err(Refused::because(format!(
                "{} line(s) of summary.jsonl cannot be read ({first})",
                earlier.refused.count
            ))
            .into());
        }
        let changes = since_kept(&self.out, &manifest, &earlier.records)?;
        write_class_page(&self.out, &manifest, &earlier.records, changes.as_ref())?;
        Ok(finished)
    }

    /// [`Similar::run`], the grading in [`Similar::grades`] given by its
    /// `records` when the caller holds them (`grade-all`, which has just
    /// written them): not read back from the folder.
    pub(crate) fn run_with(&self, records: Option<&[Record]>) -> Result<Found, Error> {
        let names = submission_names(&self.submissions)?;
        if names.is_empty() {
            return Err(Refused::new(
                self.submissions.display(),
                "holds no submission: similar compares the folders in SUBMISSIONS (not hidden ones), one a student",
            )
            .into());
        }
        let template = read_template(&self.templates)?;
        let shims = self.temp.join("shims");
        write_shims(&shims)?;
        fs::create_dir_all(self.temp.join("copies"))?;
        let builder = Builder {
            runner: self.runner,
            path: self.path.clone(),
            shims,
            seconds: self.seconds,
            scratch: self.temp.join("unpack"),
        };
        let taken = each(names.len(), self.settings.jobs, &|i, _: &mut ()| {
            if (self.stop)() {
                return Err(String::new());
            }
            self.take_in(&builder, &names[i])
        });
        let mut class = Vec::new();
        let mut notes = Vec::new();
        let mut not_read = Vec::new();
        let mut stems = Vec::new();
        for (name, taken) in names.iter().zip(taken) {
            let shown = name.shown();
            match taken {
                Ok((sources, mut left)) => {
                    if sources.is_empty() {
                        left.push("no source of the C family (.c .h .cc .cpp .hpp .java)".into());
                    }
                    if !left.is_empty() {
                        notes.push(format!("{shown}: {}", left.join("; ")));
                    }
                    stems.push(name.stem());
                    class.push(Submission {
                        name: shown.to_string(),
                        sources,
                    });
                }
                Err(why) => {
                    notes.push(format!("{shown}: not compared: {why}"));
                    not_read.push(shown.to_string());
                }
            }
        }
        if (self.stop)() {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "stopped").into());
        }
        let mut comparison = compare(&class, &template, &self.settings);
        notes.extend(comparison.notes.iter().cloned());
        let read;
        let grading = match (&self.grades, records) {
            (Some(grades), Some(records)) => Some((grades, records)),
            (Some(grades), None) => {
                read = diff::read(grades)?;
                Some((grades, read.records.as_slice()))
            }
            (None, _) => None,
        };
        let seen = grading.map(|(_, records)| Behaviour::of(records, &comparison.names));
        if let (Some((grades, _)), Some(seen)) = (&grading, &seen) {
            let graded = seen
                .outcomes
                .iter()
                .filter(|o| o.iter().any(Option::is_some));
            let ungraded = comparison.names.len() - graded.count();
            if ungraded > 0 {
                notes.push(format!(
                    "{ungraded} of {} submissions have no run fixture in the grading in {}: their behaviour is no evidence",
                    comparison.names.len(),
                    grades.display()
                ));
            }
            behaviour::add(&mut comparison, &seen.outcomes);
        }
        fs::create_dir_all(&self.out)?;
        write_atomic(
            &self.out.join(CSV_FILE),
            similarity_csv(&comparison).as_bytes(),
        )?;
        write_atomic(
            &self.out.join(BLOCKS_FILE),
            blocks_csv(&comparison).as_bytes(),
        )?;
        let pages = write_pages(
            &self.out.join(PAGES),
            &comparison,
            &class,
            &stems,
            seen.as_ref(),
            &TemplateLines::of(&template),
        )?;
        Ok(Found {
            comparison,
            notes,
            not_read,
            compared: class.len(),
            pages,
        })
    }

    /// The sources of `name`, and what was left out of them; the error is
    /// why nothing of it can be read.
    fn take_in(
        &self,
        builder: &Builder,
        name: &Name,
    ) -> Result<(Vec<Source>, Vec<String>), String> {
        let copy = self.temp.join("copies").join(name.stem());
        let log = self
            .temp
            .join("copies")
            .join(format!("{}.log", name.stem()));
        let from = self.submissions.join(name.real());
        let taken = fs::create_dir_all(self.temp.join("copies"))
            .and_then(|()| builder.take_in(&from, &copy, &log))
            .map_err(|e| one_line(&e.to_string()))?;
        if let Some(why) = taken.refused {
            let _ = fs::remove_dir_all(&copy);
            return Err(one_line(&why));
        }
        let read = read_sources(&copy).map_err(|e| one_line(&e.to_string()));
        let _ = fs::remove_dir_all(&copy);
        let _ = fs::remove_file(&log);
        let (sources, mut left) = read?;
        // What the copy and the unpacking left out, as they said it.
        let kept: Vec<String> = taken
            .notes
            .iter()
            .filter(|n| n.contains("left out") || n.contains("not unpacked"))
            .map(|n| one_line(n))
            .collect();
        left.splice(0..0, kept);
        Ok((sources, left))
    }
}
