//! The grades folder: the files of one grading, and nothing else of ours.
//!
//! A grading of a folder of submissions writes, into its grades folder,
//! each submission's files ([`submission_files`]: report, build log,
//! feedback, platform files, fuzz cases) and the grading's own
//! ([`grading_files`]: the summaries, the class page and `grading.json`,
//! the [`Manifest`] that says what was graded, when, how, and whether the
//! grading is complete).
//!
//! A grading that replaces another keeps it, one generation, in the
//! folder `previous/` ([`keep_previous`]); one grading at a time writes
//! into a grades folder ([`GradesLock`]).
//!
//! Architecture invariant: every file here is written whole, into a
//! temporary file beside it that is then renamed over it ([`write_atomic`]),
//! so that a grading killed at any moment leaves each file as it was or as
//! it is meant to be, never half written. A file this crate did not write
//! is never removed or moved: only the files of submission names a grading
//! recorded, and its own.

use crate::marking::marks::points;
use crate::publishing::formats::{Format, Scope};
use crate::publishing::gradebook::{check_assignment, DEFAULT_ASSIGNMENT};
use crate::publishing::json::{array, json_string, Fields, Json, Object, VERSION};
use crate::publishing::options::Options;
use crate::publishing::record::Record;
use crate::publishing::roster::Roster;
use crate::publishing::similarity;
use crate::shared::digest::fnv1a;
use crate::shared::error::{Error, Refused};
use crate::shared::name::Name;
use crate::shared::text::one_line;
use crate::similarity::kept;
use puzzle_sandbox::files::{self, Beneath};
use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The file names of a grading's own files: the summaries, the class
/// page, `grading.json`, the comparison of the class (its two CSVs and its
/// pages' folder: [`similarity::FILES`], and the index kept of the class:
/// [`kept::FILE`]), and the files of the class's formats
/// ([`Format::suffix`] of each [`Scope::Class`] one).
pub fn grading_files() -> impl Iterator<Item = &'static str> {
    [
        "grading.json",
        "summary.txt",
        "summary.csv",
        "summary-fixtures.csv",
        "summary.jsonl",
        "index.html",
    ]
    .into_iter()
    .chain(similarity::FILES)
    .chain([kept::FILE])
    .chain(Format::of(Scope::Class).map(Format::suffix))
}

/// The suffixes of a submission's files, after its name's stem
/// ([`Name::stem`]): its report, build log and feedback, the file of
/// each format of a submission ([`Scope::Submission`]), and `.fuzz` (a
/// folder).
pub fn submission_files() -> impl Iterator<Item = &'static str> {
    [".txt", ".make.txt", ".feedback.md", ".feedback.html"]
        .into_iter()
        .chain(Format::of(Scope::Submission).map(Format::suffix))
        .chain([".fuzz"])
}

/// What a grading was: which folder, how, when, and how far it got.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifest {
    /// The folder of submissions graded, as given (absolute).
    pub folder: String,
    /// Every submission the folder held when the grading began (not only
    /// those of this shard or of `--only`), in byte order.
    pub folder_names: Vec<Name>,
    /// The options that decide the marks; two gradings with other options
    /// are never mixed.
    pub options: Options,
    /// The sandbox's protections line.
    pub sandbox: String,
    /// The shard this grading is (`I/N`), if it is one.
    pub shard: Option<Shard>,
    /// When it began, UTC (`2026-11-27T21:30:05Z`).
    pub started: String,
    /// When it was last written, UTC.
    pub updated: String,
    /// Whether every submission it set out to grade was graded.
    pub complete: bool,
    /// Each fixture as reports show it, with the digest of its bytes (none
    /// in a grading of an older version).
    pub fixtures: Vec<(String, u64)>,
    /// What the scheme and the options made of each fixture: its time
    /// limit and its weight (none in a grading of an older version), so
    /// that a regrading can tell which change touched which fixture.
    pub terms: Vec<Terms>,
    /// The roster and what the gradebook files are made of (`--roster`),
    /// so that a merge or a `--resume` writes them as the grading did.
    pub gradebook: Option<Gradebook>,
}

/// What a grading's scheme and options made of one fixture.
#[derive(Clone, Debug, PartialEq)]
pub struct Terms {
    /// The fixture as reports show it.
    pub fixture: String,
    /// Its time limit, in seconds (the scheme's own, or the grading's).
    pub time_limit: u64,
    /// Its weight in the scheme.
    pub weight: f64,
}

/// What a grading's gradebook files are made of: the roster (`--roster`),
/// the assignment's column name (`--assignment`), the class's formats
/// (`--format canvas,moodle`: none, with a roster alone) and the points a
/// submission can score.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradebook {
    /// The students.
    pub roster: Roster,
    /// The assignment's column name.
    pub assignment: String,
    /// The formats of the class to write, each a [`Scope::Class`] one.
    pub formats: Vec<Format>,
    /// The most a submission can score (the scheme's maximum).
    pub points_possible: f64,
}

impl Gradebook {
    /// Its JSON, as `grading.json` holds it.
    pub fn to_json(&self) -> String {
        let formats = self.formats.iter().map(|f| json_string(f.name()));
        Object::new()
            .text("assignment", &self.assignment)
            .raw("formats", &array(formats))
            .raw("points_possible", &points(self.points_possible))
            .raw("roster", &self.roster.to_json())
            .end()
    }

    /// Read back from its JSON, each part checked as the command line
    /// checks it.
    pub fn from_json(fields: Fields) -> Result<Gradebook, Refused> {
        let within = |e: Refused| e.within("gradebook");
        let formats = fields
            .array("formats")
            .map_err(within)?
            .iter()
            .map(|f| {
                let format: Format = f
                    .as_str()
                    .ok_or_else(|| Refused::because("a format is not a string"))?
                    .parse()?;
                match format.scope() {
                    Scope::Class => Ok(format),
                    Scope::Submission => Err(Refused::value("", format.name(), "is no gradebook")),
                }
            })
            .collect::<Result<Vec<_>, Refused>>()
            .map_err(within)?;
        Ok(Gradebook {
            roster: Roster::from_json(fields.object("roster").map_err(within)?).map_err(within)?,
            assignment: check_assignment(fields.text("assignment").map_err(within)?)
                .map_err(within)?,
            formats,
            points_possible: Some(fields.number("points_possible").map_err(within)?)
                .filter(|p| p.is_finite() && *p >= 0.0)
                .ok_or_else(|| Refused::because("a gradebook without its points possible"))?,
        })
    }
}

/// What a command asks of a grading's gradebook: each part when it was
/// given (`--roster`, `--assignment`, `--format` with its class formats).
/// None of them decides a mark, so a grading continued (`--resume`,
/// `--only`, the same command after a stop) or finished (the `gradebook`
/// mode) takes them: what is given replaces the grading's, the rest is
/// kept as the grading recorded it ([`GradebookAsked::over`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GradebookAsked {
    /// The roster, when `--roster` was given.
    pub roster: Option<Roster>,
    /// The assignment's column name, when `--assignment` was given.
    pub assignment: Option<String>,
    /// The class's formats, when `--format` was given (its formats of
    /// each submission are not the gradebook's: none here is an empty
    /// list).
    pub formats: Option<Vec<Format>>,
}

impl GradebookAsked {
    /// The gradebook of a grading whose own was `recorded` (none for a
    /// fresh grading), a submission scoring at most `points_possible`:
    /// what is asked, the rest as recorded; none without a roster either
    /// way. Why not, when what is asked needs a roster the grading does
    /// not have, or an assignment's name is asked with no format of the
    /// class to write it in.
    pub fn over(
        self,
        recorded: Option<&Gradebook>,
        points_possible: f64,
    ) -> Result<Option<Gradebook>, Refused> {
        let Some(roster) = self.roster.or_else(|| recorded.map(|b| b.roster.clone())) else {
            return match (&self.formats, &self.assignment) {
                (Some(formats), _) if !formats.is_empty() => {
                    let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
                    Err(Refused::because(format!(
                        "--format {} needs --roster FILE (which student each folder is)",
                        names.join(",")
                    )))
                }
                (_, Some(_)) => Err(Refused::because(NO_FORMAT_FOR_ASSIGNMENT)),
                _ => Ok(None),
            };
        };
        let formats = self
            .formats
            .or_else(|| recorded.map(|b| b.formats.clone()))
            .unwrap_or_default();
        if self.assignment.is_some() && formats.is_empty() {
            return Err(Refused::because(NO_FORMAT_FOR_ASSIGNMENT));
        }
        Ok(Some(Gradebook {
            roster,
            assignment: self
                .assignment
                .or_else(|| recorded.map(|b| b.assignment.clone()))
                .unwrap_or_else(|| DEFAULT_ASSIGNMENT.into()),
            formats,
            points_possible,
        }))
    }
}

/// Why an assignment's name alone is no gradebook.
pub const NO_FORMAT_FOR_ASSIGNMENT: &str =
    "--assignment names the gradebook files' column: it needs --format canvas or moodle";

/// One of N parts of a grading, by the hash of the submissions' names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 1.
    pub index: u32,
    /// How many parts.
    pub count: u32,
}

impl Shard {
    /// Reads `I/N` (1 <= I <= N <= 100000).
    pub fn parse(text: &str) -> Result<Shard, Refused> {
        let bad = || Refused::value("", text, "is not I/N with 1 <= I <= N");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count || count > 100_000 {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether the submission `name` is in this shard: by the FNV-1a hash of
    /// its bytes, which is the same on every machine and in every run.
    pub fn holds(&self, name: &str) -> bool {
        (fnv1a(name.as_bytes()) % u64::from(self.count)) as u32 + 1 == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Manifest {
    /// Its text, `grading.json`: the format's version (`json::VERSION`), then
    /// what it was, how, when and how far.
    pub fn to_json(&self) -> String {
        let names = self.folder_names.iter().map(|n| json_string(n.shown()));
        let fixtures = self.fixtures.iter().map(|(f, d)| {
            Object::new()
                .text("fixture", f)
                .digest("fnv1a", Some(*d))
                .end()
        });
        let terms = self.terms.iter().map(|t| {
            Object::new()
                .text("fixture", &t.fixture)
                .raw("time_limit", &t.time_limit.to_string())
                .raw("weight", &t.weight.to_string())
                .end()
        });
        Object::new()
            .raw("version", &VERSION.to_string())
            .text("folder", &self.folder)
            .text("options", &self.options.to_string())
            .text("sandbox", &self.sandbox)
            .raw(
                "shard",
                &self
                    .shard
                    .map_or("null".into(), |s| json_string(&s.to_string())),
            )
            .text("started", &self.started)
            .text("updated", &self.updated)
            .raw("complete", &self.complete.to_string())
            .raw("folder_names", &array(names))
            .raw("fixtures", &array(fixtures))
            .raw("terms", &array(terms))
            .raw(
                "gradebook",
                &self
                    .gradebook
                    .as_ref()
                    .map_or("null".into(), Gradebook::to_json),
            )
            .end()
            + "\n"
    }

    /// Reads `grading.json`'s text (of this format's version or an earlier
    /// one), or what is missing or malformed in it.
    pub fn from_json(text: &str) -> Result<Manifest, Refused> {
        let value = Json::parse(text).map_err(|e| Refused::because(format!("not JSON: {e}")))?;
        let fields = Fields::of(&value)?;
        let version = fields.version()?;
        let shard = match fields.get("shard") {
            Some(Json::Text(s)) => Some(Shard::parse(s).map_err(|e| e.within("shard"))?),
            _ => None,
        };
        let folder_names = fields
            .array("folder_names")?
            .iter()
            .map(|n| {
                Name::parse(
                    n.as_str()
                        .ok_or_else(|| Refused::because("a name is not a string"))?,
                )
            })
            .collect::<Result<Vec<_>, Refused>>()?;
        // Gradings before they were recorded have none.
        let list = |key: &str| -> Result<&[Json], Refused> {
            match fields.get(key) {
                None => Ok(&[]),
                Some(_) => fields.array(key),
            }
        };
        let fixtures = list("fixtures")?
            .iter()
            .map(|f| {
                let f = Fields::of(f)?;
                match (f.text("fixture"), f.digest("fnv1a")) {
                    (Ok(shown), Ok(digest)) => Ok((one_line(shown), digest)),
                    _ => Err(Refused::because("a fixture without its name or digest")),
                }
            })
            .collect::<Result<Vec<_>, Refused>>()?;
        let terms = list("terms")?
            .iter()
            .map(|t| {
                let t = Fields::of(t)?;
                match (t.text("fixture"), t.count("time_limit"), t.number("weight")) {
                    (Ok(f), Ok(time_limit), Ok(weight)) => Ok(Terms {
                        fixture: one_line(f),
                        time_limit,
                        weight,
                    }),
                    _ => Err(Refused::because(
                        "a fixture's terms without its name, time limit or weight",
                    )),
                }
            })
            .collect::<Result<Vec<_>, Refused>>()?;
        Ok(Manifest {
            folder: fields.text("folder")?.to_string(),
            folder_names,
            options: Options::parse(fields.text("options")?, version)?,
            sandbox: fields.text("sandbox")?.to_string(),
            shard,
            started: fields.text("started")?.to_string(),
            updated: fields.text("updated")?.to_string(),
            complete: fields.boolean("complete")?,
            fixtures,
            terms,
            gradebook: match fields.optional("gradebook") {
                None => None,
                Some(_) => Some(Gradebook::from_json(fields.object("gradebook")?)?),
            },
        })
    }

    /// The first difference of `self`'s fixtures from `other`'s, in words
    /// (`Tests/x.inp differs`, `Tests/y.inp is only in ...`); none when they
    /// are the same, or either grading is too old to say.
    pub fn fixtures_differ(&self, other: &Manifest) -> Option<String> {
        fixtures_differ(&self.fixtures, &other.fixtures)
    }

    /// How much of the folder this grading is, in the words the summary
    /// and the class page both use: `shard 2/3: 5 of 14 submissions`, or
    /// `14 submissions`.
    pub fn extent(&self) -> String {
        let to_grade = self.names_to_grade().len();
        match self.shard {
            Some(shard) => format!(
                "shard {shard}: {to_grade} of {} submissions",
                self.folder_names.len()
            ),
            None => format!("{to_grade} submissions"),
        }
    }

    /// The names this grading sets out to grade: those of its shard.
    pub fn names_to_grade(&self) -> Vec<Name> {
        self.folder_names
            .iter()
            .filter(|n| self.shard.is_none_or(|s| s.holds(n.shown())))
            .cloned()
            .collect()
    }
}

/// The largest `grading.json` read (a grading of 100,000 submissions
/// writes about 30 MB).
const MAX_MANIFEST: u64 = 256 << 20;

/// The largest `summary.jsonl` read (2,000 submissions of 89 fixtures
/// write about 50 MB).
const MAX_RECORDS: u64 = 1 << 30;

/// The first difference between two lists of fixtures and their digests,
/// in words; none when they are the same, or either is empty (a grading of
/// an older version, which recorded none).
pub fn fixtures_differ(a: &[(String, u64)], b: &[(String, u64)]) -> Option<String> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    for (name, digest) in a {
        match b.iter().find(|(n, _)| n == name) {
            None => return Some(format!("{name} is in one and not in the other")),
            Some((_, d)) if d != digest => {
                return Some(format!("{name} differs (its bytes changed)"))
            }
            _ => {}
        }
    }
    b.iter()
        .find(|(n, _)| !a.iter().any(|(m, _)| m == n))
        .map(|(n, _)| format!("{n} is in one and not in the other"))
}

/// What an earlier grading left in a grades folder.
#[derive(Debug, Default)]
pub struct Earlier {
    /// Its manifest, when it had one (gradings before manifests had none).
    pub manifest: Option<Manifest>,
    /// Why its `grading.json` is no manifest, when it has one that is not
    /// (damaged, or of a later format's version).
    pub manifest_refused: Option<Refused>,
    /// Its records, in the order of `summary.jsonl` (a damaged line, such as
    /// the last line of a grading killed while writing, is left out).
    pub records: Vec<Record>,
    /// Submissions it had files for (its records', and those of a
    /// `summary.jsonl` line of an older version), each a name a folder may
    /// have (a line whose name is none is left out: its files are not ours
    /// to remove).
    pub names: Vec<Name>,
    /// The lines of `summary.jsonl` that are no record a grading writes
    /// (a damaged last line, a name that is no name, numbers that disagree
    /// with the fixtures, a line over 16 MiB): counted, the first
    /// few named with why.
    pub refused: Refusals,
}

/// Lines of a file refused: how many, and the first [`Refusals::NAMED`]
/// of them, each with why; what is kept of them is bounded, however many
/// there are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refusals {
    /// How many.
    pub count: usize,
    /// The first few, each why.
    pub first: Vec<Refused>,
}

impl Refusals {
    /// How many are named.
    pub const NAMED: usize = 5;

    /// One more refused.
    pub fn push(&mut self, why: Refused) {
        self.count += 1;
        if self.first.len() < Refusals::NAMED {
            self.first.push(why);
        }
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Those not named (after the first few), in words (`and 12 more lines
    /// refused`); none when every one is named.
    pub fn more(&self) -> Option<String> {
        let more = self.count - self.first.len();
        (more > 0).then(|| {
            format!(
                "and {more} more line{} refused",
                if more == 1 { "" } else { "s" }
            )
        })
    }
}

impl std::fmt::Display for Refusals {
    /// The first few, then how many more: `summary.jsonl line 3: ...;
    /// summary.jsonl line 4: ...; and 12 more lines refused`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts: Vec<String> = self.first.iter().map(Refused::to_string).collect();
        parts.extend(self.more());
        f.write_str(&parts.join("; "))
    }
}

/// The longest line of `summary.jsonl` read (a submission of 10,000
/// fixtures with a kilobyte of words each writes 10 MB): a longer one is
/// refused without being kept.
pub const MAX_LINE: usize = 16 << 20;

/// Opens the regular file `name` beneath `folder` (shown as in `grades`)
/// for reading, refused before a byte of it is read when it is over
/// `cap` bytes; `None` when there is none.
fn open_bounded(
    folder: &Beneath,
    grades: &Path,
    name: &str,
    cap: u64,
) -> Result<Option<io::Take<File>>, Error> {
    let file = match folder.open_regular(Path::new(name)) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    if file.metadata()?.len() > cap {
        return Err(Refused::says(
            format!("{}/{name}", grades.display()),
            format!("is over {} MiB: not a grading's", cap >> 20),
        )
        .into());
    }
    // Bounded as it is read too: a file that grows meanwhile.
    Ok(Some(file.take(cap)))
}

/// Reads the next line of `reader` into `line` (without its newline), at
/// most `max` bytes of it kept: the rest of a longer line is read past,
/// not kept. How many bytes the line had (0: the end of the file).
fn read_line_bounded(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<usize> {
    line.clear();
    let mut total = 0;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(total);
        }
        let (part, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], at + 1),
            None => (buffer, buffer.len()),
        };
        let room = (max + 1).saturating_sub(line.len()).min(part.len());
        line.extend_from_slice(&part[..room]);
        total += done;
        let ended = done > part.len();
        reader.consume(done);
        if ended {
            return Ok(total);
        }
    }
}

impl Earlier {
    /// What `grades` holds (nothing, when it does not exist). Its files are
    /// read as a stranger's: beneath the folder, no link followed, a file
    /// over its bound refused before it is read, `summary.jsonl` a line at
    /// a time; a record whose name is no name, or whose numbers disagree
    /// with its fixtures ([`Record::check`]), is left out (and so graded
    /// again, or named by a merge), counted with the first few named.
    pub fn read(grades: &Path) -> Result<Earlier, Error> {
        let mut earlier = Earlier::default();
        // The folder itself is the marker's to name (a link to another
        // disk, say); what is in it is not.
        let folder = match fs::canonicalize(grades).and_then(|real| Beneath::open(&real)) {
            Ok(folder) => folder,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(earlier),
            Err(e) => return Err(e.into()),
        };
        if let Some(mut file) = open_bounded(&folder, grades, "grading.json", MAX_MANIFEST)? {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)?;
            match Manifest::from_json(&String::from_utf8_lossy(&bytes)) {
                Ok(manifest) => earlier.manifest = Some(manifest),
                Err(why) => earlier.manifest_refused = Some(why),
            }
        }
        let Some(file) = open_bounded(&folder, grades, "summary.jsonl", MAX_RECORDS)? else {
            return Ok(earlier);
        };
        let mut reader = BufReader::new(file);
        let mut line = Vec::new();
        let mut number = 0;
        while read_line_bounded(&mut reader, &mut line, MAX_LINE)? > 0 {
            number += 1;
            let at = format!("summary.jsonl line {number}");
            if line.len() > MAX_LINE {
                earlier.refused.push(Refused::says(
                    at,
                    format!("is longer than {} MiB: no record", MAX_LINE >> 20),
                ));
                continue;
            }
            let text = String::from_utf8_lossy(&line);
            if text.trim().is_empty() {
                continue;
            }
            match Record::from_json_line(&text) {
                Ok(record) => {
                    earlier.names.push(record.row.name.clone());
                    earlier.records.push(record);
                }
                Err(why) => {
                    earlier.refused.push(why.within(at));
                    // A summary.jsonl line of an older version: its name
                    // only.
                    if let Ok(value) = Json::parse(&text) {
                        if let Some(name) = Fields::of(&value)
                            .ok()
                            .and_then(|f| f.text("submission").ok())
                            .and_then(|n| Name::parse(n).ok())
                        {
                            earlier.names.push(name);
                        }
                    }
                }
            }
        }
        earlier.names.sort();
        earlier.names.dedup();
        Ok(earlier)
    }

    /// Whether there is an earlier grading at all.
    pub fn exists(&self) -> bool {
        self.manifest.is_some() || !self.names.is_empty()
    }
}

/// The folder, in a grades folder, that keeps the grading a new one
/// replaced.
pub const PREVIOUS: &str = "previous";

/// The file, in a grades folder, that the grading writing there holds
/// locked (with its process id in it) while it lives.
pub const LOCK_FILE: &str = ".puzzle-grade.lock";

/// The names of a grading's files in its grades folder: its own
/// ([`grading_files`]), then each of its submissions' ([`submission_files`]
/// after each name's stem).
fn grading_file_names(names: &[Name]) -> Vec<String> {
    let mut all: Vec<String> = grading_files().map(String::from).collect();
    for name in names {
        let stem = name.stem();
        all.extend(submission_files().map(|s| format!("{stem}{s}")));
    }
    all
}

/// Removes `path`, whatever it is: a folder with all it holds (a link in
/// it removed, never followed), a link (not what it points to), a file.
fn remove_entry(path: &Path) -> io::Result<()> {
    let removed = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
    };
    match removed {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The hidden folder, in a grades folder, that a replaced grading is
/// gathered in before it becomes `previous/` by one rename.
const KEEPING: &str = ".previous.keeping";

/// The same folder while the list of what it is to gather is written into
/// it (nothing of the grading is in it yet).
const KEEPING_NEW: &str = ".previous.new";

/// The older `previous/`, renamed aside to be removed once the new one is
/// in its place.
const KEEPING_OLD: &str = ".previous.old";

/// The list, in [`KEEPING`], of the files to gather there, a name a line;
/// gone once all are there.
const KEEPING_LIST: &str = ".files";

/// The largest list of files to keep read back (8 files each of 100,000
/// submissions, 40 bytes a name, is 32 MB).
const MAX_KEEPING_LIST: u64 = 256 << 20;

/// Keeps the grading in `grades` whose submissions were `names` as
/// `grades/previous/`, nothing else of the folder touched, as one step
/// however it is interrupted: the grading's files (its own,
/// [`grading_files`], and its submissions', [`submission_files`] of each
/// name) are listed, then moved, a rename each, into a hidden folder
/// ([`KEEPING`]) that is then renamed to `previous/` (an older one renamed
/// aside first, then removed; a link there removed, not followed). A
/// process killed on the way leaves the list beside the files moved so
/// far: the next grading in the folder finishes the move
/// ([`finish_keeping`]) before it reads anything, so that the grading
/// ends whole in `previous/`, never split between two folders. Whether an
/// older `previous/` was removed.
pub fn keep_previous(grades: &Path, names: &[Name]) -> io::Result<bool> {
    keep_previous_by_steps(grades, names, &mut || Ok(()))
}

/// [`keep_previous`], calling `step` after each change on disk: a test
/// stops it there, as a kill would.
fn keep_previous_by_steps(
    grades: &Path,
    names: &[Name],
    step: &mut dyn FnMut() -> io::Result<()>,
) -> io::Result<bool> {
    let earlier = finish_keeping_by_steps(grades, step)?;
    let wanted: std::collections::HashSet<String> = grading_file_names(names).into_iter().collect();
    let mut files: Vec<String> = Vec::new();
    for entry in fs::read_dir(grades)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if wanted.contains(&name) {
            files.push(name);
        }
    }
    files.sort();
    let new = grades.join(KEEPING_NEW);
    remove_entry(&new)?;
    fs::create_dir(&new)?;
    step()?;
    let mut list = files.join("\n");
    list.push('\n');
    fs::write(new.join(KEEPING_LIST), list)?;
    step()?;
    fs::rename(&new, grades.join(KEEPING))?;
    step()?;
    let older = finish_keeping_by_steps(grades, step)?;
    Ok(older.unwrap_or(false) || earlier.unwrap_or(false))
}

/// Finishes setting a replaced grading aside, where a process killed while
/// [`keep_previous`] ran left it half done: the files its list names that
/// are still in `grades` moved into the hidden folder, the folder renamed
/// to `previous/`, the older one removed. Called by every grading of the
/// folder, under its lock, before it reads what the folder holds. What the
/// marker should know, when there was something to finish.
pub fn finish_keeping(grades: &Path) -> io::Result<Option<String>> {
    Ok(finish_keeping_by_steps(grades, &mut || Ok(()))?.map(|_| {
        format!(
            "{}: the grading a stopped run had begun to set aside is now whole in {}/previous/",
            grades.display(),
            grades.display()
        )
    }))
}

/// [`finish_keeping`], calling `step` after each change on disk.
fn finish_keeping_by_steps(
    grades: &Path,
    step: &mut dyn FnMut() -> io::Result<()>,
) -> io::Result<Option<bool>> {
    // Made but not yet listed: nothing was moved into it.
    remove_entry(&grades.join(KEEPING_NEW))?;
    let keeping = grades.join(KEEPING);
    let old = grades.join(KEEPING_OLD);
    if !fs::symlink_metadata(&keeping).is_ok_and(|m| m.is_dir()) {
        remove_entry(&keeping)?;
        // Killed after the new previous/ was in place, before the old one
        // was removed.
        let older = fs::symlink_metadata(&old).is_ok();
        remove_entry(&old)?;
        return Ok(older.then_some(true));
    }
    let list = keeping.join(KEEPING_LIST);
    match files::read_regular(&list, MAX_KEEPING_LIST) {
        Ok((bytes, true)) => {
            for file in String::from_utf8_lossy(&bytes).lines() {
                if !is_grading_file_name(file) {
                    continue;
                }
                let from = grades.join(file);
                match fs::symlink_metadata(&from) {
                    Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(e),
                    Ok(_) => fs::rename(&from, keeping.join(file))?,
                }
                step()?;
            }
            fs::remove_file(&list)?;
            step()?;
        }
        Ok((_, false)) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} is over {} MiB: not a list of a grading's files",
                    list.display(),
                    MAX_KEEPING_LIST >> 20
                ),
            ))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let previous = grades.join(PREVIOUS);
    if fs::symlink_metadata(&previous).is_ok() {
        remove_entry(&old)?;
        fs::rename(&previous, &old)?;
        step()?;
    }
    fs::rename(&keeping, &previous)?;
    step()?;
    let older = fs::symlink_metadata(&old).is_ok();
    remove_entry(&old)?;
    step()?;
    Ok(Some(older))
}

/// Whether `file` may be a file of a grading in its grades folder: one of
/// its own, or a name that ends as a submission's file does, one plain
/// name, not hidden.
fn is_grading_file_name(file: &str) -> bool {
    let plain = !file.is_empty() && !file.starts_with('.') && !file.contains(['/', '\0']);
    plain
        && (grading_files().any(|g| g == file)
            || submission_files().any(|s| file.len() > s.len() && file.ends_with(s)))
}

/// The grading `grades/previous/` keeps, if it holds one (a folder, not a
/// link, with a `grading.json`).
pub fn read_previous(grades: &Path) -> Result<Option<Earlier>, Error> {
    let previous = grades.join(PREVIOUS);
    if !fs::symlink_metadata(&previous).is_ok_and(|m| m.is_dir()) {
        return Ok(None);
    }
    let earlier = Earlier::read(&previous)?;
    Ok(earlier.manifest.is_some().then_some(earlier))
}

/// One grading at a time in a grades folder: `grade-all` (fresh,
/// `--only`, `--resume`) and `merge --into` hold this lock for their
/// whole life. It is `flock(2)`'s lock on [`LOCK_FILE`], which the kernel
/// releases when the process ends however it ends, so that the lock of a
/// grading that was killed is taken over by the next; the file holds the
/// holder's process id, to name it, and is removed when the lock is let
/// go.
#[derive(Debug)]
pub struct GradesLock {
    /// The lock file, open (holding the lock) while this lives.
    file: File,
    /// Its path.
    path: PathBuf,
    /// The grades folder, when this lock made it: removed with the lock
    /// if nothing was written into it.
    made: Option<PathBuf>,
}

impl GradesLock {
    /// Takes the lock of `grades` (made if missing), or refuses at once,
    /// naming the process holding it.
    pub fn take(grades: &Path) -> Result<GradesLock, Error> {
        let made = (!grades.exists()).then(|| grades.to_path_buf());
        fs::create_dir_all(grades)?;
        let path = grades.join(LOCK_FILE);
        // A lock file removed by the grading that held it, after this one
        // opened it, is no lock: open it again.
        for _ in 0..100 {
            if let Ok(meta) = fs::symlink_metadata(&path) {
                if !meta.is_file() {
                    return Err(Refused::says(
                        path.display(),
                        "is not a regular file: not a lock of a grading (remove it)",
                    )
                    .into());
                }
            }
            let file = File::options()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)?;
            if !files::try_lock(&file)? {
                return Err(Refused::says(
                    grades.display(),
                    format!(
                        "is being written by another grading ({}): one grading at a time in a grades folder; wait for it to end, or use another folder",
                        holder(&path)
                    ),
                )
                .into());
            }
            if !same_file(&file, &path) {
                continue;
            }
            let mut lock = GradesLock { file, path, made };
            lock.file.set_len(0)?;
            writeln!(lock.file, "{}", std::process::id())?;
            lock.file.flush()?;
            return Ok(lock);
        }
        Err(io::Error::other(format!(
            "{}: the lock file keeps being replaced",
            path.display()
        ))
        .into())
    }
}

impl Drop for GradesLock {
    fn drop(&mut self) {
        // Removed while still held (the file is closed after this): one
        // that opened it meanwhile finds it gone and opens it again.
        let _ = fs::remove_file(&self.path);
        if let Some(made) = &self.made {
            let _ = fs::remove_dir(made);
        }
    }
}

/// Whether the open `file` is the one at `path` now.
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// The grading that holds the lock file `path`, in words (`process 123`):
/// its process id, as it wrote it (waited for a moment: it writes it just
/// after it takes the lock).
fn holder(path: &Path) -> String {
    for _ in 0..20 {
        if let Ok((bytes, _)) = files::read_regular(path, 64) {
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(pid) = text.trim().parse::<u32>() {
                return format!("process {pid}");
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    "a process that has not yet written its id".into()
}

/// Removes the files of the submissions `names` from `grades`: only the
/// names [`submission_files`] gives their stems, right in `grades` (a
/// symbolic link is removed, never followed).
pub fn remove_submission_files(grades: &Path, names: &[Name]) -> io::Result<()> {
    for name in names {
        let stem = name.stem();
        for suffix in submission_files() {
            remove_entry(&grades.join(format!("{stem}{suffix}")))?;
        }
    }
    Ok(())
}

/// Removes a grading's own files ([`grading_files`]) from `grades`.
pub fn remove_grading_files(grades: &Path) -> io::Result<()> {
    for name in grading_files() {
        remove_entry(&grades.join(name))?;
    }
    Ok(())
}

/// Removes the temporary files a grading killed while writing left in
/// `grades` (hidden, ending in `.part`: see [`write_atomic`]).
pub fn remove_stale_parts(grades: &Path) -> io::Result<()> {
    let Ok(entries) = fs::read_dir(grades) else {
        return Ok(());
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.ends_with(".part") && entry.file_type()?.is_file() {
            fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` whole: into a temporary file beside it, then
/// renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temp = temporary_beside(path);
    let result = fs::write(&temp, bytes).and_then(|()| fs::rename(&temp, path));
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Copies the file `from` to `to` whole (as [`write_atomic`] writes).
pub fn copy_atomic(from: &Path, to: &Path) -> io::Result<()> {
    let temp = temporary_beside(to);
    let result = fs::copy(from, &temp).and_then(|_| fs::rename(&temp, to));
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Moves the file or folder `from` to `to`, replacing it: a rename where
/// both are on one file system, else a copy (folders one level deep, as
/// the fuzz cases are) then a removal.
pub fn move_into_place(from: &Path, to: &Path) -> io::Result<()> {
    if to.is_dir() {
        fs::remove_dir_all(to)?;
    }
    if fs::rename(from, to).is_ok() {
        return Ok(());
    }
    if from.is_dir() {
        fs::create_dir_all(to)?;
        for entry in fs::read_dir(from)? {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                copy_atomic(&entry.path(), &to.join(entry.file_name()))?;
            }
        }
        fs::remove_dir_all(from)
    } else {
        copy_atomic(from, to)?;
        fs::remove_file(from)
    }
}

/// A temporary name beside `path`, hidden, of this process.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.part", std::process::id()))
}

/// Now, UTC, as `2026-11-27T21:30:05Z`.
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc(secs)
}

/// `secs` after the Unix epoch, UTC, as `2026-11-27T21:30:05Z`.
pub fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let mut out = String::new();
    let _ = write!(
        out,
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_are_the_calendars() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_795_815_005), "2026-11-27T21:30:05Z");
        assert_eq!(utc(4_107_542_399), "2100-02-28T23:59:59Z");
    }

    #[test]
    fn shards_split_every_name_once_and_the_same_way_everywhere() {
        let names: Vec<String> = (0..1000).map(|i| format!("z{i:07}")).collect();
        for count in [1, 2, 3, 7, 64] {
            let shards: Vec<Shard> = (1..=count).map(|index| Shard { index, count }).collect();
            for name in &names {
                assert_eq!(shards.iter().filter(|s| s.holds(name)).count(), 1);
            }
            if count == 7 {
                let sizes: Vec<usize> = shards
                    .iter()
                    .map(|s| names.iter().filter(|n| s.holds(n)).count())
                    .collect();
                assert!(sizes.iter().all(|&n| (100..186).contains(&n)), "{sizes:?}");
            }
        }
        // FNV-1a's published value for "a", so every machine agrees.
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_manifest_reads_back_as_it_was_written() {
        let manifest = Manifest {
            folder: "/home/m/subs \"2026\"".into(),
            folder_names: vec!["ann".into(), "bob".into()],
            options: "--time-limit 5".into(),
            sandbox: "sandbox: own PID".into(),
            shard: Some(Shard { index: 2, count: 3 }),
            started: utc(0),
            updated: utc(60),
            complete: false,
            fixtures: vec![("Tests/a.inp".into(), 7)],
            terms: vec![Terms {
                fixture: "Tests/a.inp".into(),
                time_limit: 60,
                weight: 2.5,
            }],
            gradebook: None,
        };
        assert_eq!(
            Manifest::from_json(&manifest.to_json()),
            Ok(manifest.clone())
        );
        let roster = Roster::parse("r.csv", b"folder,id,name\nann,z1,\"Lee, Ann\"\n").unwrap();
        let manifest = Manifest {
            gradebook: Some(Gradebook {
                roster,
                assignment: "A1 (12)".into(),
                formats: vec![Format::Canvas, Format::Moodle],
                points_possible: 87.5,
            }),
            ..manifest
        };
        assert_eq!(Manifest::from_json(&manifest.to_json()), Ok(manifest));
    }

    #[test]
    fn a_grading_is_kept_whole_as_previous_and_nothing_else_is_moved() {
        use std::os::unix::fs::symlink;
        let dir = std::env::temp_dir().join(format!("grades-previous-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let grades = dir.join("grades");
        fs::create_dir_all(grades.join("ann.fuzz")).unwrap();
        for file in [
            "grading.json",
            "summary.txt",
            "index.html",
            "ann.txt",
            "ann.fuzz/case1",
        ] {
            fs::write(grades.join(file), file).unwrap();
        }
        // Not the grading's: a marker's notes, a file of another name.
        fs::write(grades.join("notes.txt"), "mine").unwrap();
        fs::write(grades.join("bob.txt"), "not recorded").unwrap();
        // An older previous/ that is a link to a folder outside: the link
        // goes, what it points to stays.
        fs::create_dir_all(dir.join("elsewhere")).unwrap();
        fs::write(dir.join("elsewhere/keep"), "keep").unwrap();
        symlink(dir.join("elsewhere"), grades.join(PREVIOUS)).unwrap();
        let ann = Name::parse("ann").unwrap();
        assert!(keep_previous(&grades, &[ann]).unwrap());
        let mut left: Vec<String> = fs::read_dir(&grades)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["bob.txt", "notes.txt", "previous"]);
        let previous = grades.join(PREVIOUS);
        assert!(fs::symlink_metadata(&previous).unwrap().is_dir());
        for file in [
            "grading.json",
            "summary.txt",
            "index.html",
            "ann.txt",
            "ann.fuzz/case1",
        ] {
            assert_eq!(fs::read_to_string(previous.join(file)).unwrap(), file);
        }
        assert_eq!(
            fs::read_to_string(dir.join("elsewhere/keep")).unwrap(),
            "keep"
        );
        // Again: the older previous/ is removed first.
        fs::write(grades.join("summary.txt"), "second").unwrap();
        assert!(keep_previous(&grades, &[]).unwrap());
        assert!(!previous.join("ann.txt").exists());
        assert_eq!(
            fs::read_to_string(previous.join("summary.txt")).unwrap(),
            "second"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Every file under `dir`, by its path there, with its text.
    fn tree(dir: &Path) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut dirs = vec![(dir.to_path_buf(), String::new())];
        while let Some((at, prefix)) = dirs.pop() {
            for entry in fs::read_dir(&at).unwrap() {
                let entry = entry.unwrap();
                let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
                if entry.file_type().unwrap().is_dir() {
                    dirs.push((entry.path(), format!("{name}/")));
                } else {
                    out.push((name, fs::read_to_string(entry.path()).unwrap()));
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn a_grading_set_aside_and_stopped_at_any_step_ends_whole_in_previous() {
        let dir = std::env::temp_dir().join(format!("grades-steps-{}", std::process::id()));
        let names: Vec<Name> = ["ann", "bob", "cat"]
            .iter()
            .map(|n| Name::parse(n).unwrap())
            .collect();
        // The grading's files, and what else the folder holds.
        let fill = |grades: &Path| {
            let _ = fs::remove_dir_all(grades);
            fs::create_dir_all(grades.join("previous")).unwrap();
            fs::write(grades.join("previous/grading.json"), "older").unwrap();
            fs::write(grades.join("notes.txt"), "mine").unwrap();
            for file in ["grading.json", "summary.jsonl", "index.html"] {
                fs::write(grades.join(file), file).unwrap();
            }
            for name in &names {
                for suffix in [".txt", ".make.txt", ".feedback.md"] {
                    let file = format!("{}{suffix}", name.stem());
                    fs::write(grades.join(&file), &file).unwrap();
                }
            }
            fs::create_dir(grades.join("bob.fuzz")).unwrap();
            fs::write(grades.join("bob.fuzz/case1"), "bob.fuzz/case1").unwrap();
        };
        let grades = dir.join("grades");
        fill(&grades);
        let grading: Vec<(String, String)> = tree(&grades)
            .into_iter()
            .filter(|(f, _)| f != "notes.txt" && !f.starts_with("previous/"))
            .collect();
        assert_eq!(grading.len(), 3 + 9 + 1);
        // A stop after `k` steps of the move, then after `j` of the next
        // grading's finishing it, then the finishing of the one after.
        let stop_after = |k: usize| {
            let mut done = 0;
            move || -> io::Result<()> {
                done += 1;
                if done > k {
                    Err(io::Error::other("killed"))
                } else {
                    Ok(())
                }
            }
        };
        let mut steps_seen = 0;
        for k in 0.. {
            fill(&grades);
            let whole = keep_previous_by_steps(&grades, &names, &mut stop_after(k)).is_ok();
            for j in [0, 1, 2, 5, usize::MAX] {
                if j != usize::MAX {
                    let _ = finish_keeping_by_steps(&grades, &mut stop_after(j));
                }
            }
            // The next grading: the move finished, and the grading is
            // whole in one place, never split.
            finish_keeping(&grades).unwrap();
            let here: Vec<(String, String)> = tree(&grades)
                .into_iter()
                .filter(|(f, _)| f != "notes.txt" && !f.starts_with("previous/"))
                .collect();
            let kept = tree(&grades.join("previous"));
            if here.is_empty() {
                assert_eq!(kept, grading, "after {k} steps");
            } else {
                // Stopped before the first file moved: the grading is
                // still here, and the next grading sets it aside anew.
                assert_eq!(here, grading, "after {k} steps");
                assert_eq!(kept, [("grading.json".to_string(), "older".to_string())]);
                keep_previous(&grades, &names).unwrap();
                assert_eq!(tree(&grades.join("previous")), grading, "after {k} steps");
            }
            let left: Vec<String> = tree(&grades)
                .into_iter()
                .map(|(f, _)| f)
                .filter(|f| !f.starts_with("previous/"))
                .collect();
            assert_eq!(left, ["notes.txt"], "after {k} steps");
            let hidden: Vec<String> = fs::read_dir(&grades)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with('.'))
                .collect();
            assert!(hidden.is_empty(), "after {k} steps: {hidden:?}");
            if whole {
                steps_seen = k;
                break;
            }
        }
        // Each file moved is a step, and the folder's making and renames.
        assert!(steps_seen > grading.len(), "{steps_seen}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_lock_a_grades_folder_naming_its_holder_and_gone_when_let_go() {
        let dir = std::env::temp_dir().join(format!("grades-lock-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let grades = dir.join("grades");
        let lock = GradesLock::take(&grades).unwrap();
        let written = fs::read_to_string(grades.join(LOCK_FILE)).unwrap();
        assert_eq!(written, format!("{}\n", std::process::id()));
        let e = GradesLock::take(&grades).unwrap_err();
        assert!(!e.is_io_error());
        assert!(
            e.to_string()
                .contains(&format!("(process {})", std::process::id())),
            "{e}"
        );
        drop(lock);
        // Let go: its file is gone, and so is the folder it made, empty.
        assert!(!dir.join("grades").exists());
        // A lock file left by a process that is gone is taken over.
        fs::create_dir_all(&grades).unwrap();
        fs::write(grades.join(LOCK_FILE), "999999\n").unwrap();
        let lock = GradesLock::take(&grades).unwrap();
        assert_eq!(
            fs::read_to_string(grades.join(LOCK_FILE)).unwrap(),
            format!("{}\n", std::process::id())
        );
        drop(lock);
        assert!(grades.exists() && !grades.join(LOCK_FILE).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn atomic_writes_leave_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("grades-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        assert!(write_atomic(&dir.join("no/such/folder"), b"x").is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
