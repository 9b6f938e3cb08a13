//! `grade-all`: every folder of a folder of submissions built, graded and
//! marked, one row of a table each, streamed as each is done, and the
//! grading's files kept whole and up to date in the grades folder
//! ([`crate::publishing::grades`]) as it goes.
//!
//! A grading is one thing: a fresh one replaces the files of the grading
//! before it in the same grades folder; `--only` grades some submissions
//! again and keeps the others' rows, and `--resume` grades those not yet
//! graded, both only when the earlier grading was of the same folder with
//! the same options. A submission no longer in the folder loses its rows
//! and files, and the marker is told.

mod submission;

use crate::engine::Settings;
use crate::intake::build::{write_shims, Builder};
use crate::intake::name::Name;
use crate::judging::fixture::Fixture;
use crate::publishing::formats::Format;
use crate::publishing::grades::{
    fixtures_differ, move_into_place, remove_grading_files, remove_stale_parts,
    remove_submission_files, utc_now, write_atomic, Earlier, Gradebook, Manifest, Shard,
};
use crate::publishing::record::{table_header, Record, Row};
use crate::publishing::summaries::{gradebook_notes, write_summary_files};
use puzzle_sandbox::Runner;
use std::ffi::OsString;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The submissions of `dir`: its folders (not hidden ones, not links), by
/// their shown names ([`Name`]), in order.
pub fn submission_names(dir: &Path) -> io::Result<Vec<Name>> {
    let mut names: Vec<Name> = fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| Name::of_folder(&e.file_name()))
        .collect();
    names.sort();
    Ok(names)
}

/// Which submissions a grading grades.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Select {
    /// All of them (of the shard): a new grading.
    All,
    /// These again (folder names as given), the other rows of the earlier
    /// grading kept.
    Only(Vec<OsString>),
    /// Those the earlier grading has not graded yet.
    Resume,
}

/// A grading of a folder of submissions.
pub struct GradeAll<'a> {
    /// Runs every build and every program.
    pub runner: &'a dyn Runner,
    /// The rules, limits and marking scheme.
    pub settings: &'a Settings,
    /// The fixtures, prepared.
    pub fixtures: &'a [Fixture],
    /// The folder of submissions (absolute).
    pub submissions: PathBuf,
    /// Where the reports go.
    pub grades: PathBuf,
    /// A private folder for the copies and the runs' outputs.
    pub temp: PathBuf,
    /// Seconds a build command may take.
    pub build_seconds: u64,
    /// The runner's protections, the first line of every report.
    pub protections: String,
    /// The platforms' files to write for each submission (those of the
    /// class are `gradebook`'s).
    pub formats: Vec<Format>,
    /// The roster and the gradebook files (`--roster`), if any.
    pub gradebook: Option<Gradebook>,
    /// Seconds of fuzzing a submission after its fixtures (none: off); the
    /// minimal cases go to `NAME.fuzz/` in the grades folder.
    pub fuzz_seconds: Option<u64>,
    /// The options that decide the marks, as the command line gave them
    /// (recorded, and compared with an earlier grading's).
    pub options: String,
    /// Which submissions to grade.
    pub select: Select,
    /// The part of the folder this grading takes, if it is one of several.
    pub shard: Option<Shard>,
    /// Whether to stop (a signal came): looked at after each submission,
    /// whose files are then not written.
    pub stop: &'a (dyn Fn() -> bool + Sync),
}

/// How a grading went.
#[derive(Debug)]
pub struct Graded {
    /// The rows graded now, in order.
    pub rows: Vec<Row>,
    /// How many submissions it set out to grade now.
    pub to_grade: usize,
    /// Whether every submission of the grading, those kept from before
    /// (`--only`, `--resume`) too, built and passed every fixture.
    pub all_passed: bool,
    /// Whether it stopped before the end (a signal): the summaries say the
    /// grading is incomplete.
    pub stopped: bool,
    /// The submissions of the grading that could not be graded at all
    /// (their rows say why), by their shown names.
    pub not_graded: Vec<String>,
    /// What the marker should know of the grades folder (an earlier
    /// grading replaced, rows of submissions no longer there removed) and
    /// of the roster (folders with no student, students with no folder or
    /// no mark).
    pub notes: Vec<String>,
}

/// Summaries are written after a submission at most this often (and always
/// after the first and the last): rewriting them is linear in the class, so
/// doing it after every one of 2,000 submissions would cost more than the
/// grading; a grading killed in between has them whole, a few rows behind.
const SUMMARY_EVERY: Duration = Duration::from_secs(5);

/// And at most once in this many times the last writing took: 2,000
/// submissions of 89 fixtures are 50 MB of summaries, about a second to
/// write on a loaded machine, so that rewriting them stays a twentieth of
/// the grading's time at most.
const SUMMARY_SHARE: u32 = 20;

impl GradeAll<'_> {
    /// Grades the submissions [`GradeAll::select`] names: writes the table to
    /// `out` (the header, then each row as soon as it is done), each
    /// submission's report, build log, feedback and platform files into the
    /// grades folder, and the grading's files there (`grading.json`,
    /// `summary.txt`, `summary.csv`, `summary-fixtures.csv`,
    /// `summary.jsonl`, the class page `index.html`); `progress` hears of
    /// each row.
    ///
    /// An error of kind `InvalidInput` is a grading refused: `--only` or
    /// `--resume` on a grades folder of another grading, or a name that is
    /// not a submission.
    pub fn run(&self, out: &mut dyn Write, progress: &mut dyn FnMut(&Row)) -> io::Result<Graded> {
        let folder_names = submission_names(&self.submissions)?;
        self.looks_like_submissions(&folder_names)?;
        let earlier = Earlier::read(&self.grades)?;
        let plan = self.plan(&folder_names, earlier)?;
        let mut records = plan.kept;
        let manifest = Manifest {
            folder: self.submissions.display().to_string(),
            folder_names: folder_names.iter().map(|n| n.shown().to_string()).collect(),
            options: self.options.clone(),
            sandbox: self.protections.clone(),
            shard: self.shard,
            started: plan.started,
            updated: utc_now(),
            complete: false,
            fixtures: self
                .fixtures
                .iter()
                .map(|f| (f.shown.clone(), f.digest))
                .collect(),
            gradebook: self.gradebook.clone(),
        };
        fs::create_dir_all(&self.grades)?;
        remove_stale_parts(&self.grades)?;
        remove_submission_files(&self.grades, &plan.removed)?;
        write_atomic(
            &self.grades.join("grading.json"),
            manifest.to_json().as_bytes(),
        )?;

        let shims = self.temp.join("shims");
        write_shims(&shims)?;
        let work = self.temp.join("work");
        fs::create_dir_all(&work)?;
        let builder = Builder {
            runner: self.runner,
            path: self.settings.path.clone(),
            shims,
            seconds: self.build_seconds,
            scratch: self.temp.join("unpack"),
        };
        // The rows kept from before come first, so that the table is the
        // whole grading's, whatever was graded now.
        let width = plan
            .to_grade
            .iter()
            .map(|n| n.shown())
            .chain(records.iter().map(|r| r.row.name.as_str()))
            .map(str::len)
            .max()
            .unwrap_or(0)
            .max(10);
        out.write_all(format!("{}\n", table_header(width)).as_bytes())?;
        let mut kept: Vec<&Record> = records.iter().collect();
        kept.sort_by(|a, b| a.row.name.cmp(&b.row.name));
        for record in kept
            .iter()
            .filter(|r| !plan.to_grade.iter().any(|n| n.shown() == r.row.name))
        {
            out.write_all(format!("{}\n", record.table_line(width)).as_bytes())?;
        }
        out.flush()?;
        let mut rows = Vec::new();
        let mut wrote = manifest.clone();
        let mut written: Option<Instant> = None;
        let mut cost = Duration::ZERO;
        let mut stopped = false;
        for (i, name) in plan.to_grade.iter().enumerate() {
            if (self.stop)() {
                stopped = true;
                break;
            }
            let staged = self.temp.join("staged").join(name.stem());
            let graded = self
                .grade_submission(&builder, &work, name, &staged)
                .and_then(|graded| graded.write(name, &staged));
            if (self.stop)() {
                // Its runs were stopped by the signal (and may have failed
                // for it): no grade at all rather than a wrong one.
                let _ = fs::remove_dir_all(&staged);
                let _ = fs::remove_dir_all(self.temp.join("builds").join(name.stem()));
                stopped = true;
                break;
            }
            // Its own trouble (a file the system refuses, an unreadable
            // folder) is its row's, not the class's.
            let record = match graded {
                Ok(record) => record,
                Err(e) => self.not_graded(name, &e, &staged)?,
            };
            self.publish(name, &staged)?;
            out.write_all(format!("{}\n", record.table_line(width)).as_bytes())?;
            out.flush()?;
            progress(&record.row);
            rows.push(record.row.clone());
            records.retain(|r| r.row.name != name.shown());
            records.push(record);
            let last = i + 1 == plan.to_grade.len();
            let every = SUMMARY_EVERY.max(cost * SUMMARY_SHARE);
            if last || written.is_none_or(|at| at.elapsed() >= every) {
                let began = Instant::now();
                wrote = self.write_summaries(&manifest, &records, false)?;
                cost = began.elapsed();
                written = Some(Instant::now());
            }
        }
        if stopped || plan.to_grade.is_empty() {
            wrote = self.write_summaries(&manifest, &records, stopped)?;
        }
        let mut notes = plan.notes;
        notes.extend(gradebook_notes(&wrote, &records));
        Ok(Graded {
            rows,
            to_grade: plan.to_grade.len(),
            all_passed: records.iter().all(|r| r.row.passed()),
            stopped,
            not_graded: records
                .iter()
                .filter(|r| r.row.trouble.is_some())
                .map(|r| r.row.name.clone())
                .collect(),
            notes,
        })
    }

    /// Whether the folder looks like a folder of submissions, one folder a
    /// student; if not, why, with advice (a refusal).
    fn looks_like_submissions(&self, folder_names: &[Name]) -> io::Result<()> {
        let folder = self.submissions.display();
        let sources: Vec<String> = fs::read_dir(&self.submissions)?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| {
                n.ends_with(".c") || n.ends_with(".h") || n == "Makefile" || n == "makefile"
            })
            .collect();
        let refuse = |why: String| Err(io::Error::new(io::ErrorKind::InvalidInput, why));
        if !sources.is_empty() {
            let mut shown = sources;
            shown.sort();
            shown.truncate(3);
            return refuse(format!(
                "{folder} looks like one submission (it holds {}), not a folder of them: grade-all grades each folder in SUBMISSIONS, one a student; give the folder that holds it, or build it and run 'puzzle-grade grade PROGRAM'",
                shown.join(", ")
            ));
        }
        if folder_names.is_empty() {
            return refuse(format!(
                "{folder} holds no submission: grade-all grades each folder in SUBMISSIONS (not hidden ones), one a student, holding its sources or an archive of them"
            ));
        }
        Ok(())
    }

    /// What to grade, what to keep of the earlier grading and which files
    /// to remove, or why the grading is refused.
    fn plan(&self, folder_names: &[Name], earlier: Earlier) -> io::Result<Plan> {
        let refuse = |why: String| io::Error::new(io::ErrorKind::InvalidInput, why);
        let grades = self.grades.display();
        let in_shard: Vec<Name> = folder_names
            .iter()
            .filter(|n| self.shard.is_none_or(|s| s.holds(n.shown())))
            .cloned()
            .collect();
        let mut notes = Vec::new();
        let continuing = !matches!(self.select, Select::All);
        if continuing && earlier.exists() {
            let Some(before) = &earlier.manifest else {
                return Err(refuse(format!(
                    "{grades} holds a grading without grading.json (an older version's): grade all again without --only or --resume"
                )));
            };
            if before.folder != self.submissions.display().to_string() {
                return Err(refuse(format!(
                    "{grades} holds the grading of {}, not of {}: use another --grades folder, or grade all again",
                    before.folder,
                    self.submissions.display()
                )));
            }
            let now: Vec<(String, u64)> = self
                .fixtures
                .iter()
                .map(|f| (f.shown.clone(), f.digest))
                .collect();
            if let Some(why) = fixtures_differ(&before.fixtures, &now) {
                return Err(refuse(format!(
                    "{grades} was graded on other fixtures ({why}): its marks would not compare; grade all again"
                )));
            }
            if before.options != self.options {
                return Err(refuse(format!(
                    "{grades} was graded with other options ({}), not ({}): its marks would not compare; grade all again",
                    before.options, self.options
                )));
            }
            if before.shard != self.shard {
                let shown =
                    |s: Option<Shard>| s.map_or("no shard".into(), |s| format!("shard {s}"));
                return Err(refuse(format!(
                    "{grades} holds {}, not {}",
                    shown(before.shard),
                    shown(self.shard)
                )));
            }
        }
        let (to_grade, kept, removed, started) = match &self.select {
            Select::All => {
                if earlier.exists() {
                    let what = earlier
                        .manifest
                        .as_ref()
                        .map_or("an earlier grading".into(), |m| {
                            format!("the grading of {} ({})", m.folder, m.started)
                        });
                    notes.push(format!(
                        "{grades}: replaced {what}: its files of {} submission(s) removed",
                        earlier.names.len()
                    ));
                    remove_grading_files(&self.grades)?;
                }
                (in_shard, Vec::new(), earlier.names, utc_now())
            }
            Select::Only(_) | Select::Resume if !earlier.exists() => {
                let to_grade = match &self.select {
                    Select::Only(names) => {
                        names_checked(names, folder_names, &self.submissions).map_err(refuse)?
                    }
                    _ => in_shard,
                };
                (to_grade, Vec::new(), Vec::new(), utc_now())
            }
            _ => {
                let (present, gone): (Vec<Record>, Vec<Record>) = earlier
                    .records
                    .into_iter()
                    .partition(|r| in_shard.iter().any(|n| n.shown() == r.row.name));
                // A row that could not be graded is graded again.
                let present: Vec<Record> = present
                    .into_iter()
                    .filter(|r| r.row.trouble.is_none())
                    .collect();
                let gone: Vec<Name> = gone
                    .iter()
                    .filter_map(|r| Name::parse(&r.row.name).ok())
                    .collect();
                if !gone.is_empty() {
                    notes.push(format!(
                        "{grades}: removed the rows and files of {} submission(s) no longer in {}: {}",
                        gone.len(),
                        self.submissions.display(),
                        gone.iter().map(Name::shown).collect::<Vec<_>>().join(", ")
                    ));
                }
                let to_grade = match &self.select {
                    Select::Only(names) => {
                        names_checked(names, folder_names, &self.submissions).map_err(refuse)?
                    }
                    _ => in_shard
                        .iter()
                        .filter(|n| !present.iter().any(|r| r.row.name == n.shown()))
                        .cloned()
                        .collect(),
                };
                let started = earlier.manifest.map(|m| m.started).unwrap_or_else(utc_now);
                (to_grade, present, gone, started)
            }
        };
        Ok(Plan {
            to_grade,
            kept,
            removed,
            started,
            notes,
        })
    }

    /// Moves the files of `name` from `staged` into the grades folder, in
    /// place of its earlier ones.
    fn publish(&self, name: &Name, staged: &Path) -> io::Result<()> {
        remove_submission_files(&self.grades, std::slice::from_ref(name))?;
        for entry in fs::read_dir(staged)? {
            let entry = entry?;
            move_into_place(&entry.path(), &self.grades.join(entry.file_name()))?;
        }
        fs::remove_dir_all(staged)
    }

    /// Writes the grading's files from `records` (in name order), each
    /// whole; the grading is complete when it was not `stopped` and every
    /// submission it sets out to grade has a record. Returns the manifest
    /// written.
    fn write_summaries(
        &self,
        manifest: &Manifest,
        records: &[Record],
        stopped: bool,
    ) -> io::Result<Manifest> {
        let complete = !stopped
            && manifest
                .names_to_grade()
                .iter()
                .all(|n| records.iter().any(|r| &r.row.name == n));
        let manifest = Manifest {
            updated: utc_now(),
            complete,
            ..manifest.clone()
        };
        write_summary_files(&self.grades, &manifest, records)?;
        Ok(manifest)
    }
}

/// What a grading will do.
struct Plan {
    /// The submissions to grade now, in order.
    to_grade: Vec<Name>,
    /// The earlier grading's records kept.
    kept: Vec<Record>,
    /// Submissions whose files are removed first.
    removed: Vec<Name>,
    /// When the grading began (an earlier one's, when continued).
    started: String,
    /// What the marker should know.
    notes: Vec<String>,
}

/// `names`, each one of `folder_names` (those of `folder`), or which is not.
fn names_checked(
    names: &[OsString],
    folder_names: &[Name],
    folder: &Path,
) -> Result<Vec<Name>, String> {
    names
        .iter()
        .map(|given| match Name::of_folder(given) {
            Some(name) if folder_names.contains(&name) => Ok(name),
            _ => Err(format!(
                "--only {}: no such folder in {}",
                crate::intake::name::one_line(&given.to_string_lossy()),
                folder.display()
            )),
        })
        .collect()
}
