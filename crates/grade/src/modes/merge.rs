//! `puzzle-grade merge --into DIR SHARD_DIR...`: one grading made of the
//! gradings of its shards (`grade-all --shard I/N`, each on a machine of its
//! own), as if it had run whole: every summary rebuilt from the shards'
//! records, each submission's files copied.
//!
//! The shards must be of one grading: the same folder, the same options
//! and the same fixtures, byte for byte (else the merge is refused, a
//! [`Refused`] error, and nothing is written). A submission
//! graded in two shards, one that no shard graded, a shard missing or one
//! that did not finish, a record whose numbers disagree with its fixtures
//! or whose fixtures' worth differs from the others', a file of a shard
//! that is a link or no regular file: each is a problem named to the
//! marker, and the merged grading is then marked incomplete; nothing is
//! kept silently. A shard is read as a stranger's folder: names checked
//! as strictly as folder names, every file opened beneath it without
//! following a link, up to a bound.
//!
//! The merge holds the lock of its grades folder for its whole life (one
//! grading at a time there), and keeps a grading it replaces there as
//! `previous/`, as `grade-all` does: one of another folder only when asked
//! (`--replace`). When the grading it replaces was of the same folder, the
//! summaries and the class page list what changed since.

use crate::modes::similar::{publish, read_index, similarity_lines};
use crate::publishing::changes::{describe, since_previous};
use crate::publishing::grades::{
    finish_keeping, keep_previous, submission_files, utc_now, write_atomic, Earlier, GradesLock,
    Manifest,
};
use crate::publishing::record::Record;
use crate::publishing::summaries::{gradebook_notes, write_summary_files};
use crate::shared::error::{Error, Refused};
use crate::shared::name::Name;
use crate::similarity::kept::{self, Kept};
use crate::similarity::{Form, Settings};
use puzzle_sandbox::files::{self, Beneath};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// What a merge did.
#[derive(Debug)]
pub struct Merged {
    /// Submissions in the merged grading.
    pub submissions: usize,
    /// What is wrong with the shards, one sentence each (none: the merged
    /// grading is complete).
    pub problems: Vec<String>,
    /// What the marker should know: of the grades folder (the grading
    /// replaced, and where it is kept) and of the roster the shards were
    /// graded with (folders with no student, students with no folder or
    /// no mark in the gradebook files), one sentence each.
    pub notes: Vec<String>,
    /// What changed since the grading it replaced, in words
    /// ([`crate::publishing::changes::Comparison::text`]), when that was
    /// of the same folder.
    pub changes: Option<String>,
    /// How the comparison of the class for similarity went, from the
    /// indexes its shards kept (`similarity.index`), in lines: what it
    /// found, or why there is none (never the merge's failure).
    pub similarity: Vec<String>,
}

/// One shard's grading, as read from its folder.
struct ShardGrading {
    dir: PathBuf,
    manifest: Manifest,
    records: Vec<Record>,
    /// Its records refused: the first few, each why, and how many more.
    refused: Vec<String>,
}

/// Merges the gradings in the folders `shards` into the folder `into`
/// (an earlier grading there is kept as `previous/`; one of another folder
/// only when `replace`). A [`Refused`] error is a merge refused, nothing
/// written: a folder that holds no grading, `into` one of the shards, in
/// use by another grading, or holding the grading of another folder;
/// shards of other gradings (another folder, other options, fixtures or
/// gradebook).
pub fn merge(into: &Path, shards: &[PathBuf], replace: bool) -> Result<Merged, Error> {
    let _lock = GradesLock::take(into)?;
    let finished = finish_keeping(into)?;
    let gradings = read_shards(into, shards)?;
    let mut problems = shard_problems(&gradings);
    let records = gather_records(&gradings, &mut problems);
    let folder_names = missing_submissions(&gradings, &records, &mut problems);
    let mut merged = Merged {
        submissions: records.len(),
        problems: Vec::new(),
        notes: finished.into_iter().collect(),
        changes: None,
        similarity: Vec::new(),
    };
    write_merged(
        into,
        &gradings,
        folder_names,
        &records,
        &mut problems,
        replace,
        &mut merged,
    )?;
    merged.problems = problems;
    Ok(merged)
}

/// The gradings of `shards`, all of one options, none of them `into`.
fn read_shards(into: &Path, shards: &[PathBuf]) -> Result<Vec<ShardGrading>, Error> {
    let mut gradings = Vec::new();
    for dir in shards {
        let earlier = Earlier::read(dir)?;
        let Some(manifest) = earlier.manifest else {
            return Err(Refused::new(
                dir.display(),
                "no grading.json: not the grades folder of a grading",
            )
            .into());
        };
        if same_folder(dir, into) {
            return Err(Refused::new(into.display(), "--into is one of the shards").into());
        }
        gradings.push(ShardGrading {
            dir: dir.clone(),
            manifest,
            records: earlier.records,
            refused: earlier
                .refused
                .first
                .iter()
                .map(|why| why.to_string())
                .chain(earlier.refused.more())
                .map(|why| format!("{}: {why}: left out", dir.display()))
                .collect(),
        });
    }
    let first = &gradings[0];
    let mismatch = |why: String| Error::from(Refused::because(why));
    for other in &gradings[1..] {
        let (a, b) = (first.dir.display(), other.dir.display());
        if other.manifest.folder != first.manifest.folder {
            return Err(mismatch(format!(
                "{b} is a grading of {}, {a} of {}: only the shards of one folder make one grading (grade each shard of one folder with 'grade-all FOLDER --shard I/N' and the same options)",
                other.manifest.folder, first.manifest.folder
            )));
        }
        if other.manifest.options != first.manifest.options {
            return Err(mismatch(format!(
                "{b} was graded with other options ({}) than {a} ({}): the marks would not compare (grade the shards again with the same options)",
                other.manifest.options, first.manifest.options
            )));
        }
        if let Some(why) = first.manifest.fixtures_differ(&other.manifest) {
            return Err(mismatch(format!(
                "{a} and {b} were graded on other fixtures: {why} (grade the shards again on the same Tests/ and fixture folders)"
            )));
        }
        if other.manifest.gradebook != first.manifest.gradebook {
            return Err(mismatch(format!(
                "{b} and {a} were graded with other rosters, assignment names or gradebook formats (--roster, --assignment, --format): grade the shards again with the same"
            )));
        }
        if first.manifest.fixtures.is_empty() != other.manifest.fixtures.is_empty() {
            return Err(mismatch(format!(
                "{a} and {b} were graded by different versions of puzzle-grade: one records its fixtures, the other not (grade the shards again)"
            )));
        }
    }
    Ok(gradings)
}

/// What is wrong with the shards themselves: one that did not finish, one
/// given twice, one missing from its count.
fn shard_problems(gradings: &[ShardGrading]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen: BTreeMap<(u32, u32), &Path> = BTreeMap::new();
    for g in gradings {
        if !g.manifest.complete {
            problems.push(format!(
                "{} is incomplete (its grading stopped): resume it with --resume",
                g.dir.display()
            ));
        }
        if let Some(shard) = g.manifest.shard {
            if let Some(other) = seen.insert((shard.count, shard.index), &g.dir) {
                problems.push(format!(
                    "{} and {} are both shard {shard}",
                    other.display(),
                    g.dir.display()
                ));
            }
        }
    }
    let counts: BTreeSet<u32> = seen.keys().map(|(count, _)| *count).collect();
    for count in counts {
        for index in 1..=count {
            if !seen.contains_key(&(count, index)) {
                problems.push(format!("shard {index}/{count} is missing"));
            }
        }
    }
    problems
}

/// Every submission's record, each from the first shard that has it (one
/// graded in two shards is a problem, and so is one whose fixtures' worth
/// differs from the first record's: the scheme is the same for all).
fn gather_records<'a>(
    gradings: &'a [ShardGrading],
    problems: &mut Vec<String>,
) -> BTreeMap<Name, (Record, &'a Path)> {
    let mut records: BTreeMap<Name, (Record, &Path)> = BTreeMap::new();
    let mut worth: BTreeMap<String, f64> = BTreeMap::new();
    for g in gradings {
        problems.extend(g.refused.iter().cloned());
        for record in &g.records {
            let differs = record.fixtures.iter().find(|f| {
                let first = *worth.entry(f.fixture.clone()).or_insert(f.max_points);
                (first - f.max_points).abs() > 1e-9
            });
            if let Some(f) = differs {
                problems.push(format!(
                    "{}'s record in {} gives {} a worth of {} points, another record {}: left out",
                    record.row.name,
                    g.dir.display(),
                    f.fixture,
                    f.max_points,
                    worth[&f.fixture]
                ));
                continue;
            }
            let name = record.row.name.clone();
            match records.get(&name) {
                Some((_, other)) => problems.push(format!(
                    "{name} is graded in both {} and {}: {}'s grading is kept",
                    other.display(),
                    g.dir.display(),
                    other.display()
                )),
                None => {
                    records.insert(name, (record.clone(), &g.dir));
                }
            }
        }
    }
    records
}

/// The submissions the shards' folders held, in byte order; those no shard
/// graded, or that no shard takes, are problems.
fn missing_submissions(
    gradings: &[ShardGrading],
    records: &BTreeMap<Name, (Record, &Path)>,
    problems: &mut Vec<String>,
) -> Vec<Name> {
    let mut folder_names: Vec<Name> = gradings
        .iter()
        .flat_map(|g| g.manifest.folder_names.iter().cloned())
        .collect();
    folder_names.sort();
    folder_names.dedup();
    let expected: BTreeSet<Name> = gradings
        .iter()
        .flat_map(|g| g.manifest.names_to_grade())
        .collect();
    let missing: Vec<&str> = folder_names
        .iter()
        .filter(|n| expected.contains(*n) && !records.contains_key(*n))
        .map(Name::shown)
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "{} submission(s) graded in no shard: {}",
            missing.len(),
            missing.join(", ")
        ));
    }
    let untaken: Vec<&str> = folder_names
        .iter()
        .filter(|n| !expected.contains(*n))
        .map(|n| n.shown())
        .collect();
    if !untaken.is_empty() {
        problems.push(format!(
            "no shard takes {} submission(s) (the shards are not all of one count, or a shard is missing): {}",
            untaken.len(),
            untaken.join(", ")
        ));
    }
    folder_names
}

/// Writes the merged grading into `into` (an earlier grading there kept
/// as `previous/`, or the merge refused when it is of another folder and
/// not `replace`): each submission's files copied from its shard, then
/// every summary (and the gradebook files of the shards' roster) from the
/// records; what the marker should know, and what changed, into `merged`.
fn write_merged(
    into: &Path,
    gradings: &[ShardGrading],
    folder_names: Vec<Name>,
    records: &BTreeMap<Name, (Record, &Path)>,
    problems: &mut Vec<String>,
    replace: bool,
    merged: &mut Merged,
) -> Result<(), Error> {
    let folder = distinct(gradings.iter().map(|g| &g.manifest.folder));
    let earlier = Earlier::read(into)?;
    let this_folder = earlier
        .manifest
        .as_ref()
        .is_some_and(|m| m.folder == folder);
    let shown = into.display();
    if let Some(before) = &earlier.manifest {
        if !this_folder && !replace {
            return Err(Refused::says(
                &shown,
                format!(
                    "holds the grading of {}, not of {folder}: merge into another folder, or --replace to replace it (it is then kept in {shown}/previous/)",
                    before.folder
                ),
            )
            .into());
        }
    }
    let mut baseline = None;
    if earlier.exists() {
        let older = keep_previous(into, &earlier.names)?;
        merged.notes.push(format!(
            "{shown}: replaces {} ({} submission(s)): it is kept whole in {shown}/previous/{}",
            describe(earlier.manifest.as_ref()),
            earlier.names.len(),
            if older {
                " (the grading kept there before is removed)"
            } else {
                ""
            }
        ));
        if this_folder {
            baseline = Some(earlier);
        }
    }
    for (name, (_, dir)) in records {
        copy_submission_files(dir, into, name, problems)?;
    }
    let complete = problems.is_empty();
    let manifest = Manifest {
        folder,
        folder_names,
        options: gradings[0].manifest.options.clone(),
        sandbox: distinct(gradings.iter().map(|g| &g.manifest.sandbox)),
        shard: None,
        started: gradings
            .iter()
            .map(|g| g.manifest.started.clone())
            .min()
            .unwrap_or_else(utc_now),
        updated: utc_now(),
        complete,
        fixtures: gradings[0].manifest.fixtures.clone(),
        terms: gradings[0].manifest.terms.clone(),
        gradebook: gradings[0].manifest.gradebook.clone(),
    };
    // The comparison first: the class page has its section on it.
    merged.similarity = compare_class(into, gradings, &manifest.folder_names, records);
    let records: Vec<Record> = records.values().map(|(r, _)| r.clone()).collect();
    let changes = baseline.map(|before| since_previous(into, &before, &manifest, &records));
    write_summary_files(into, &manifest, &records, changes.as_ref())?;
    merged.changes = changes.map(|c| c.text());
    merged.notes.extend(gradebook_notes(&manifest, &records));
    Ok(())
}

/// The class compared for similarity as a whole grading compares it
/// (`similarity.csv`, `similarity-blocks.csv` and the pages, into `into`,
/// before the class page, which then has its section on them), from the indexes the shards kept of
/// their submissions (each read beneath its shard, bounded, as a
/// stranger's: `modes/similar.rs`'s `read_index`) and the merged
/// `records`' behaviour; the merged index kept. The class is
/// `folder_names` (the folder's order), each found by its record's
/// digest of its sources. What happened, in lines; nothing is compared
/// when a shard kept no index, or the shards' were made otherwise.
fn compare_class(
    into: &Path,
    gradings: &[ShardGrading],
    folder_names: &[Name],
    records: &BTreeMap<Name, (Record, &Path)>,
) -> Vec<String> {
    let not = |why: String| vec![format!("similarity: not compared: {why}")];
    let mut indexes: Vec<Kept> = Vec::new();
    for g in gradings {
        let wanted: BTreeSet<u64> = g.records.iter().filter_map(|r| r.sources).collect();
        match read_index(&g.dir, g.records.len(), &|d| wanted.contains(&d)) {
            Ok(Some(index)) => indexes.push(index),
            Ok(None) => {
                return not(format!(
                    "{} keeps no {} (graded with --no-similarity, or by an older puzzle-grade): compare the class with 'puzzle-grade similar SUBMISSIONS --grades {} --out {}'",
                    g.dir.display(),
                    kept::FILE,
                    into.display(),
                    into.display()
                ))
            }
            Err(e) => return not(e.to_string()),
        }
    }
    let made = indexes[0].made;
    if let Some(other) = gradings
        .iter()
        .zip(&indexes)
        .find(|(_, index)| index.made != made)
    {
        return not(format!(
            "{} and {} were compared with other templates (--template) or --common: compare the class with 'puzzle-grade similar'",
            gradings[0].dir.display(),
            other.0.dir.display()
        ));
    }
    let template = indexes[0].template.clone();
    let template_sources = indexes[0].template_sources.clone();
    let mut entries = BTreeMap::new();
    for index in indexes {
        entries.extend(index.entries);
    }
    let mut forms = Vec::new();
    let mut sources = Vec::new();
    let mut stems = Vec::new();
    let mut notes = Vec::new();
    let mut kept_entries = BTreeMap::new();
    for name in folder_names {
        let digest = records.get(name).and_then(|(r, _)| r.sources);
        let Some((digest, entry)) = digest.and_then(|d| entries.get(&d).map(|e| (d, e))) else {
            notes.push(format!(
                "{}: not compared: no shard kept its sources",
                name.shown()
            ));
            continue;
        };
        let mut left = entry.notes.clone();
        if entry.sources.is_empty() {
            left.push("no source of the C family (.c .h .cc .cpp .hpp .java)".into());
        }
        if !left.is_empty() {
            notes.push(format!("{}: {}", name.shown(), left.join("; ")));
        }
        forms.push(Form {
            name: name.shown().to_string(),
            files: entry.sources.iter().map(|s| s.path.clone()).collect(),
            normal: entry.normal.clone(),
        });
        sources.push(entry.sources.as_slice());
        stems.push(name.stem());
        kept_entries.insert(digest, entry.clone());
    }
    if forms.is_empty() {
        return not("no shard kept the sources of a submission".into());
    }
    let settings = Settings {
        common: made.common.map(|c| c as usize),
        max_tokens: made.max_tokens as usize,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        ..Settings::default()
    };
    let all: Vec<Record> = records.values().map(|(r, _)| r.clone()).collect();
    let found = publish(
        into,
        &forms,
        (&template, &template_sources),
        &settings,
        &sources,
        &stems,
        Some((into, all.as_slice())),
    );
    let index = Kept {
        made,
        template,
        template_sources,
        entries: kept_entries,
    };
    match found.and_then(|f| Ok((f, write_atomic(&into.join(kept::FILE), &index.to_bytes())?))) {
        Ok((mut found, ())) => {
            notes.append(&mut found.notes);
            found.notes = notes;
            similarity_lines(&found)
        }
        Err(e) => not(e.to_string()),
    }
}

/// The distinct `values`, in order, joined by ` | `; two that differ only in
/// their numbers (the uids a sandbox line names depend on the process) are
/// one.
fn distinct<'a>(values: impl Iterator<Item = &'a String>) -> String {
    let key = |v: &str| v.replace(|c: char| c.is_ascii_digit(), "");
    let mut kept: Vec<&String> = Vec::new();
    for value in values {
        if !kept.iter().any(|k| key(k) == key(value)) {
            kept.push(value);
        }
    }
    kept.iter()
        .map(|v| v.as_str())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Whether `a` and `b` name one folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The most bytes of one file of a shard copied (a fuzz case or a report
/// is far smaller; a feedback page of a large class's worst submission
/// too).
const MAX_FILE: u64 = 64 << 20;

/// Copies the files of the submission `name` (a record's, so a name) from
/// the grades folder `from` into `to`, each opened beneath `from` without
/// following a link: one that is a link, no regular file or too large is
/// a problem, not copied.
fn copy_submission_files(
    from: &Path,
    to: &Path,
    name: &Name,
    problems: &mut Vec<String>,
) -> io::Result<()> {
    let stem = name.stem();
    let shard = Beneath::open(&fs::canonicalize(from)?)?;
    let mut copy = |relative: &Path, target: &Path| -> io::Result<()> {
        match shard.read_within(relative, MAX_FILE) {
            Ok(Some(bytes)) => write_atomic(target, &bytes),
            Ok(None) => {
                problems.push(format!(
                    "{}: {} is over {} MiB: not copied",
                    from.display(),
                    relative.display(),
                    MAX_FILE >> 20
                ));
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) if files::is_refused(&e) => {
                problems.push(format!("{e}: not copied"));
                Ok(())
            }
            Err(e) => Err(e),
        }
    };
    for suffix in submission_files() {
        let file = format!("{stem}{suffix}");
        let target = to.join(&file);
        let is_folder = fs::symlink_metadata(from.join(&file)).is_ok_and(|m| m.is_dir());
        if !is_folder {
            copy(Path::new(&file), &target)?;
            continue;
        }
        fs::create_dir_all(&target)?;
        for entry in fs::read_dir(from.join(&file))? {
            let entry = entry?;
            let inner = Path::new(&file).join(entry.file_name());
            copy(&inner, &target.join(entry.file_name()))?;
        }
    }
    Ok(())
}
