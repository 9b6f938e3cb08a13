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
//!
//! Beside its files, a comparison keeps the index of the class in the out
//! folder ([`kept::FILE`]): a submission whose folder's digest it has (by
//! its record's digest in a grading, else by its copy's) is not taken in
//! nor normalised again, and the files are the same bytes as when every
//! submission is read. A shard's grading keeps the index alone
//! ([`Similar::keep_only`]); `merge` compares the class from its shards'
//! ([`read_index`], [`publish`]).

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
use crate::similarity::kept::{self, template_digest, Entry, Kept, Made};
use crate::similarity::report::Comparison;
use crate::similarity::{
    compare, each, is_source, normalise, template_form, Form, Normal, Settings, Source,
};
use puzzle_sandbox::files::{read_regular, Beneath};
use puzzle_sandbox::Runner;
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::fs;
use std::io::{self, Read};
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
    /// The submissions to take, by name (a shard's); none: every one
    /// SUBMISSIONS holds.
    pub only: Option<Vec<Name>>,
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
    /// How many of them came from the index kept in the out folder (their
    /// sources neither taken in nor normalised again).
    pub from_index: usize,
    /// The file names of the pages of the pairs worth a look, in the
    /// folder `similarity` of the out folder, in the pairs' order.
    pub pages: Vec<String>,
}

impl Found {
    /// How many of those compared came from the kept index, in words to
    /// follow their count (nothing when none did).
    pub fn kept_words(&self) -> String {
        match self.from_index {
            0 => String::new(),
            n => format!(" ({n} as kept in {}: not read again)", kept::FILE),
        }
    }
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
    sources: &[&[Source]],
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
        let sides = [pair.a, pair.b].map(|s| sources[s]);
        let page = pair_page(comparison, pair, sides, seen, template);
        let file = page_file(&stems[pair.a], &stems[pair.b]);
        write_atomic(&dir.join(&file), page.as_bytes())?;
        files.push(file);
    }
    Ok(files)
}

/// One submission as taken in: its folder's digest (none when its copy
/// gave none), its sources and what was left out of them, its normal form
/// when the kept index had it, and whether the index may keep it.
struct Taken {
    digest: Option<u64>,
    sources: Vec<Source>,
    notes: Vec<String>,
    normal: Option<Normal>,
    keep: bool,
}

impl Taken {
    /// The submission the kept index's `entry` (of the digest `digest`)
    /// stands for.
    fn kept(digest: u64, entry: &Entry) -> Taken {
        Taken {
            digest: Some(digest),
            sources: entry.sources.clone(),
            notes: entry.notes.clone(),
            normal: Some(entry.normal.clone()),
            keep: true,
        }
    }
}

/// The most bytes the kept index may have: 2 MiB a submission (one of
/// 300 lines takes about 50 KiB), and 64 MiB. A larger one is not read:
/// the class is normalised again.
fn index_cap(class: usize) -> u64 {
    (64 << 20) + (class as u64).saturating_mul(2 << 20)
}

/// The index kept in the folder `dir` ([`kept::FILE`]), with the entries
/// `wanted` takes; none when there is none; refused (by name, with why)
/// when it is not an index this build could have written, or is over
/// [`index_cap`] of a class of `class`. Read beneath `dir`, no link
/// followed, nothing but a regular file.
pub fn read_index(
    dir: &Path,
    class: usize,
    wanted: &dyn Fn(u64) -> bool,
) -> Result<Option<Kept>, Error> {
    let shown = dir.join(kept::FILE).display().to_string();
    let file = match Beneath::open(dir).and_then(|d| d.open_regular(Path::new(kept::FILE))) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Refused::says(&shown, one_line(&e.to_string())).into()),
    };
    let cap = index_cap(class);
    if file.metadata()?.len() > cap {
        return Err(Refused::says(&shown, format!("is over {} MiB: not read", cap >> 20)).into());
    }
    Kept::read(io::BufReader::new(file.take(cap)), wanted)
        .map(Some)
        .map_err(|why| why.within(&shown).into())
}

/// The comparison of `forms` (the class, its `sources` in the same
/// order, `stems` their files' stems; the template's normal form and its
/// sources) written into `out`: `similarity.csv`, `similarity-blocks.csv`
/// and the pages, each whole; with a grading's `records`, its behaviour
/// added (`grades` is where they were read, for the notes). What it found,
/// but for `not_read` and `from_index`.
pub fn publish(
    out: &Path,
    forms: &[Form],
    (template, template_sources): (&Normal, &[Source]),
    settings: &Settings,
    sources: &[&[Source]],
    stems: &[String],
    grading: Option<(&Path, &[Record])>,
) -> Result<Found, Error> {
    let mut comparison = compare(forms, template, settings);
    let mut notes = comparison.notes.clone();
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
    fs::create_dir_all(out)?;
    write_atomic(&out.join(CSV_FILE), similarity_csv(&comparison).as_bytes())?;
    write_atomic(&out.join(BLOCKS_FILE), blocks_csv(&comparison).as_bytes())?;
    let pages = write_pages(
        &out.join(PAGES),
        &comparison,
        sources,
        stems,
        seen.as_ref(),
        &TemplateLines::of(template_sources),
    )?;
    Ok(Found {
        comparison,
        notes,
        not_read: Vec::new(),
        compared: forms.len(),
        from_index: 0,
        pages,
    })
}

/// What the comparison `found` of a class did, in lines, as `grade-all`
/// and `merge` tell it.
pub fn similarity_lines(found: &Found) -> Vec<String> {
    let mut lines = vec![format!(
        "similarity: {} submissions compared{}, {} pair(s) share code or rare wrong answers (similarity.csv)",
        found.compared,
        found.kept_words(),
        found.comparison.pairs.len()
    )];
    lines.extend(found.notes.iter().map(|n| format!("similarity: {n}")));
    lines
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
    /// written them): not read back from the folder. A submission whose
    /// record's digest of its sources the kept index has is then not taken
    /// in again: what the index keeps of it stands for it.
    pub(crate) fn run_with(&self, records: Option<&[Record]>) -> Result<Found, Error> {
        let names = self.names()?;
        let read;
        let grading = match (&self.grades, records) {
            (Some(grades), Some(records)) => Some((grades.as_path(), records)),
            (Some(grades), None) => {
                read = diff::read(grades)?;
                Some((grades.as_path(), read.records.as_slice()))
            }
            (None, _) => None,
        };
        // Only a grading just made (grade-all's) says what the folder holds
        // now: an earlier one's digests may be of other sources.
        let class = self.take_class(&names, records)?;
        let mut found = publish(
            &self.out,
            &class.forms,
            (&class.template, &class.template_sources),
            &self.settings,
            &class.sources(),
            &class.stems,
            grading,
        )?;
        let mut notes = class.notes.clone();
        notes.append(&mut found.notes);
        found.notes = notes;
        found.not_read = class.not_read.clone();
        found.from_index = class.from_index;
        class.keep(&self.out)?;
        Ok(found)
    }

    /// Takes the submissions in and keeps their index in the out folder,
    /// without comparing them (a shard's grading: `merge` compares the
    /// class); what the marker should know, and how many were kept.
    pub(crate) fn keep_only(&self, records: &[Record]) -> Result<(Vec<String>, usize), Error> {
        let names = self.names()?;
        let class = self.take_class(&names, Some(records))?;
        let (notes, count) = (class.notes.clone(), class.forms.len());
        class.keep(&self.out)?;
        Ok((notes, count))
    }

    /// The submissions to compare: [`Similar::only`] (a shard's, perhaps
    /// none), or every one SUBMISSIONS holds, refused when there is none.
    fn names(&self) -> Result<Vec<Name>, Error> {
        if let Some(only) = &self.only {
            return Ok(only.clone());
        }
        let names = submission_names(&self.submissions)?;
        if names.is_empty() {
            return Err(Refused::new(
                self.submissions.display(),
                "holds no submission: similar compares the folders in SUBMISSIONS (not hidden ones), one a student",
            )
            .into());
        }
        Ok(names)
    }

    /// The submissions `names` taken in, each either from the index kept
    /// in the out folder (its record's digest, or its copy's, is there)
    /// or read and normalised; `records` a grading's of them, if any.
    fn take_class(&self, names: &[Name], records: Option<&[Record]>) -> Result<Class, Error> {
        let template_sources = read_template(&self.templates)?;
        let made = Made {
            max_tokens: self.settings.max_tokens as u64,
            template: template_digest(&template_sources),
            common: self.settings.common.map(|c| c as u64),
        };
        let mut notes = Vec::new();
        let by_name: HashMap<&str, u64> = records
            .unwrap_or(&[])
            .iter()
            .filter_map(|r| Some((r.row.name.shown(), r.sources?)))
            .collect();
        let index = match read_index(&self.out, names.len(), &|_| true) {
            Ok(Some(index))
                if index.made.max_tokens == made.max_tokens
                    && index.made.template == made.template =>
            {
                Some(index)
            }
            Ok(_) => None,
            Err(e) => {
                notes.push(format!("{e}: every submission is read again"));
                None
            }
        };
        let template = match &index {
            Some(index) => index.template.clone(),
            None => template_form(&template_sources, &self.settings),
        };
        let entries = index.map(|i| i.entries).unwrap_or_default();
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
        let jobs = self.settings.jobs;
        let taken = each(names.len(), jobs, &|i, _: &mut ()| {
            if (self.stop)() {
                return Err(String::new());
            }
            let known = by_name.get(names[i].shown());
            match known.and_then(|d| entries.get(d).map(|e| (*d, e))) {
                Some((digest, entry)) => Ok(Taken::kept(digest, entry)),
                None => self.take_in(&builder, &names[i], &entries),
            }
        });
        if (self.stop)() {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "stopped").into());
        }
        // Those the index did not have, normalised.
        let normals = each(taken.len(), jobs, &|i, _: &mut ()| match &taken[i] {
            Ok(t) if t.normal.is_none() => Some(normalise(&t.sources, &template, &self.settings)),
            _ => None,
        });
        let mut class = Class {
            made,
            template,
            template_sources,
            forms: Vec::new(),
            taken: Vec::new(),
            stems: Vec::new(),
            notes,
            not_read: Vec::new(),
            from_index: 0,
        };
        for ((name, taken), normal) in names.iter().zip(taken).zip(normals) {
            let shown = name.shown();
            match taken {
                Ok(mut taken) => {
                    let mut left = taken.notes.clone();
                    if taken.sources.is_empty() {
                        left.push("no source of the C family (.c .h .cc .cpp .hpp .java)".into());
                    }
                    if !left.is_empty() {
                        class.notes.push(format!("{shown}: {}", left.join("; ")));
                    }
                    class.stems.push(name.stem());
                    class.from_index += usize::from(taken.normal.is_some());
                    class.forms.push(Form {
                        name: shown.to_string(),
                        files: taken.sources.iter().map(|s| s.path.clone()).collect(),
                        normal: taken.normal.take().or(normal).unwrap_or_default(),
                    });
                    class.taken.push(taken);
                }
                Err(why) => {
                    class.notes.push(format!("{shown}: not compared: {why}"));
                    class.not_read.push(shown.to_string());
                }
            }
        }
        Ok(class)
    }

    /// The sources of `name`, and what was left out of them; the error is
    /// why nothing of it can be read. A copy whose digest the kept index's
    /// `entries` have is taken no further: the entry stands for it.
    fn take_in(
        &self,
        builder: &Builder,
        name: &Name,
        entries: &BTreeMap<u64, Entry>,
    ) -> Result<Taken, String> {
        let copy = self.temp.join("copies").join(name.stem());
        let log = self
            .temp
            .join("copies")
            .join(format!("{}.log", name.stem()));
        let from = self.submissions.join(name.real());
        let taken = fs::create_dir_all(self.temp.join("copies"))
            .and_then(|()| builder.copy_in(&from, &copy, &log))
            .and_then(
                |copied| match copied.digest.and_then(|d| entries.get_key_value(&d)) {
                    Some((digest, entry)) => Ok(Err(Taken::kept(*digest, entry))),
                    None => builder.take_in_copy(&copy, &log, copied).map(Ok),
                },
            )
            .map_err(|e| one_line(&e.to_string()));
        let taken = match taken {
            Ok(Ok(taken)) => taken,
            Ok(Err(kept)) => {
                let _ = fs::remove_dir_all(&copy);
                let _ = fs::remove_file(&log);
                return Ok(kept);
            }
            Err(why) => {
                let _ = fs::remove_dir_all(&copy);
                return Err(why);
            }
        };
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
        // An archive not unpacked may be the machine's doing (its time
        // limit): such a submission is read again next time.
        let keep = !kept.iter().any(|n| n.contains("not unpacked"));
        left.splice(0..0, kept);
        Ok(Taken {
            digest: taken.sources,
            sources,
            notes: left,
            normal: None,
            keep,
        })
    }
}

/// The class as taken in, in order: each submission's form, what it was
/// taken from, and what the marker should know.
struct Class {
    made: Made,
    template: Normal,
    template_sources: Vec<Source>,
    forms: Vec<Form>,
    taken: Vec<Taken>,
    stems: Vec<String>,
    notes: Vec<String>,
    not_read: Vec<String>,
    from_index: usize,
}

impl Class {
    /// Each submission's sources, in the forms' order.
    fn sources(&self) -> Vec<&[Source]> {
        self.taken.iter().map(|t| t.sources.as_slice()).collect()
    }

    /// The index of the class written into `dir` ([`kept::FILE`], whole):
    /// an entry for each submission whose copy had a digest and may be
    /// kept.
    fn keep(self, dir: &Path) -> io::Result<()> {
        let mut entries = BTreeMap::new();
        for (form, taken) in self.forms.into_iter().zip(self.taken) {
            if let (Some(digest), true) = (taken.digest, taken.keep) {
                entries.insert(digest, Entry::of(taken.sources, taken.notes, form.normal));
            }
        }
        let index = Kept {
            made: self.made,
            template: self.template,
            template_sources: self.template_sources,
            entries,
        };
        fs::create_dir_all(dir)?;
        write_atomic(&dir.join(kept::FILE), &index.to_bytes())
    }
}
