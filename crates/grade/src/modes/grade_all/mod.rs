//! `grade-all`: every folder of a folder of submissions built, graded and
//! marked, one row of a table each, streamed as each is done, and the
//! grading's files kept whole and up to date in the grades folder
//! ([`crate::publishing::grades`]) as it goes.
//!
//! A grading is one thing: a fresh one replaces the grading before it in
//! the same grades folder, which it keeps whole as `previous/` (one
//! generation), and refuses to replace the grading of another folder
//! unless asked (`--replace`); `--only` grades some submissions again and
//! keeps the others' rows, and `--resume` grades those not yet graded,
//! both only when the earlier grading was of the same folder with the same
//! options. A submission no longer in the folder loses its rows and files,
//! and the marker is told, before anything is graded. One grading at a
//! time writes into a grades folder ([`GradesLock`]). A regrading lists
//! the submissions whose marks changed since the grading before it, and
//! why ([`crate::publishing::changes`]), after the table and in
//! `summary.txt` and the class page.

mod submission;

use crate::engine::Settings;
use crate::intake::build::{write_shims, Builder};
use crate::intake::folder::submission_names;
use crate::judging::fixture::Fixture;
use crate::modes::similar::{similarity_lines, Similar, SimilarityAsked};
use crate::publishing::changes::{compare, describe, Comparison, Grading};
use crate::publishing::formats::Format;
use crate::publishing::grades::{
    finish_keeping, fixtures_differ, keep_previous, move_into_place, read_previous,
    remove_grading_files, remove_stale_parts, remove_submission_files, utc_now, write_atomic,
    Earlier, GradebookAsked, GradesLock, Manifest, Shard, Terms,
};
use crate::publishing::options::{Options, Setting};
use crate::publishing::record::{table_header, Record, Row};
use crate::publishing::similarity::{BLOCKS_FILE, CSV_FILE, PAGES};
use crate::publishing::summaries::{
    gradebook_notes, gradebook_unwritten, write_class_page, write_summary_files,
};
use crate::shared::error::{Error, Refused};
use crate::shared::machine;
use crate::shared::name::Name;
use crate::similarity::kept;
use crate::similarity::Settings as SimilaritySettings;
use puzzle_sandbox::Runner;
use std::ffi::OsString;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    /// What the command asks of the roster and the gradebook files
    /// (`--roster`, `--assignment`, the class's `--format`): all of it for
    /// a fresh grading, and in place of the grading's own for one
    /// continued.
    pub gradebook: GradebookAsked,
    /// Seconds of fuzzing a submission after its fixtures (none: off); the
    /// minimal cases go to `NAME.fuzz/` in the grades folder.
    pub fuzz_seconds: Option<u64>,
    /// The options that decide the marks (recorded, and compared with an
    /// earlier grading's).
    pub options: Options,
    /// Which submissions to grade. A fresh grading ([`Select::All`]) that
    /// finds the grading this command began unfinished in the grades
    /// folder (the same folder, fixtures, options and shard) resumes it,
    /// and says so, unless [`GradeAll::replace`].
    pub select: Select,
    /// Whether a fresh grading may replace the grading of another folder,
    /// or start an unfinished grading of this one again (`--replace`); a
    /// complete grading replaced is kept as `previous/` all the same.
    pub replace: bool,
    /// The part of the folder this grading takes, if it is one of several.
    pub shard: Option<Shard>,
    /// The class compared for similarity once it is graded
    /// (`similarity.csv` in the grades folder, with the grading's
    /// behaviour); none: not (`--no-similarity`). Not in a shard: `merge`
    /// has the whole class.
    pub similarity: Option<SimilarityAsked>,
    /// Whether to stop (a signal came): looked at after each submission,
    /// whose files are then not written.
    pub stop: &'a (dyn Fn() -> bool + Sync),
    /// Hears what the marker should know of the grades folder before the
    /// grading begins (the grading it replaces and where it is kept, rows
    /// of submissions no longer there removed).
    pub tell: &'a (dyn Fn(&str) + Sync),
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
    /// (their rows say why).
    pub not_graded: Vec<Name>,
    /// The fixtures of the grading that the machine's load left NOT GRADED
    /// (`crate::shared::machine`), as `NAME: FIXTURE`.
    pub machines: Vec<String>,
    /// What the marker should know of the roster (folders with no
    /// student, students with no folder or no mark); what it should know
    /// of the grades folder is told as the grading begins.
    pub notes: Vec<String>,
    /// The gradebook files written (`canvas.csv`, `moodle.csv`): those the
    /// command asked for, or the grading continued had.
    pub gradebook_files: Vec<&'static str>,
    /// How the comparison for similarity went, in lines (none: not asked
    /// for, or the grading stopped): how many pairs it lists and what it
    /// left out, or why it could not be made (never the grading's stop).
    pub similarity: Vec<String>,
}

/// The grading a regrading's changes are told against: the one it
/// replaced (`previous/`), or, for `--only`, the grading as it was before.
struct Baseline {
    /// It, in words.
    words: String,
    /// Its manifest.
    manifest: Option<Manifest>,
    /// Its records.
    records: Vec<Record>,
}

impl Baseline {
    /// The baseline `earlier` is, described as `words` from its manifest
    /// and `place` (`kept in grades/previous/`).
    fn of(earlier: Earlier, place: &str) -> Baseline {
        Baseline {
            words: format!("{} ({place})", describe(earlier.manifest.as_ref())),
            manifest: earlier.manifest,
            records: earlier.records,
        }
    }
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
    /// The grades folder is locked while it runs (`GradesLock`); a
    /// grading it replaces is kept in `previous/`, and [`GradeAll::tell`]
    /// hears so before the first submission is graded; after the table,
    /// `out` gets what changed since the grading before, for a regrading.
    ///
    /// A [`Refused`] error is a grading refused: the grades
    /// folder in use by another grading, or holding the grading of another
    /// folder (without [`GradeAll::replace`]), `--only` or `--resume` on a
    /// grades folder of another grading, or a name that is not a
    /// submission.
    pub fn run(
        &self,
        out: &mut dyn Write,
        progress: &mut dyn FnMut(&Row),
    ) -> Result<Graded, Error> {
        let folder_names = submission_names(&self.submissions)?;
        self.looks_like_submissions(&folder_names)?;
        // Held until the grading returns: one grading at a time here.
        let _lock = GradesLock::take(&self.grades)?;
        if let Some(note) = finish_keeping(&self.grades)? {
            (self.tell)(&note);
        }
        let earlier = Earlier::read(&self.grades)?;
        let select = self.select_for(&earlier);
        // The gradebook of a grading continued is its own, but for what
        // the command gives anew.
        let recorded = match select {
            Select::All => None,
            _ => earlier.manifest.as_ref().and_then(|m| m.gradebook.clone()),
        };
        let gradebook = self.gradebook.clone().over(
            recorded.as_ref(),
            self.settings.scheme.maximum(self.fixtures),
        )?;
        let mut plan = self.plan(&folder_names, earlier, select)?;
        let mut records = std::mem::take(&mut plan.kept);
        let manifest = Manifest {
            folder: self.submissions.display().to_string(),
            folder_names: folder_names.clone(),
            options: self.options.clone(),
            sandbox: self.protections.clone(),
            shard: self.shard,
            started: plan.started.clone(),
            updated: utc_now(),
            complete: false,
            fixtures: self.fixture_digests(),
            terms: self
                .fixtures
                .iter()
                .map(|f| Terms {
                    fixture: f.shown.clone(),
                    time_limit: self.settings.limits(f).wall.as_secs(),
                    weight: self.settings.scheme.weight(f),
                })
                .collect(),
            gradebook,
        };
        remove_stale_parts(&self.grades)?;
        let baseline = self.set_aside(&mut plan)?;
        for note in &plan.notes {
            (self.tell)(note);
        }
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
        let width = self.table_head(out, &plan, &records)?;
        let mut rows = Vec::new();
        let mut wrote = manifest.clone();
        let mut written: Option<Instant> = None;
        let mut cost = Duration::ZERO;
        let mut stopped = false;
        let mut changes = None;
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
            records.retain(|r| r.row.name != *name);
            records.push(record);
            let last = i + 1 == plan.to_grade.len();
            let every = SUMMARY_EVERY.max(cost * SUMMARY_SHARE);
            if last || written.is_none_or(|at| at.elapsed() >= every) {
                let began = Instant::now();
                let (written_manifest, written_changes) =
                    self.write_summaries(&manifest, &records, false, baseline.as_ref())?;
                wrote = written_manifest;
                changes = written_changes;
                cost = began.elapsed();
                written = Some(Instant::now());
            }
        }
        if stopped || plan.to_grade.is_empty() {
            let (written_manifest, written_changes) =
                self.write_summaries(&manifest, &records, stopped, baseline.as_ref())?;
            wrote = written_manifest;
            changes = written_changes;
        }
        if let Some(changes) = changes.as_ref().filter(|_| !stopped) {
            out.write_all(changes.text().as_bytes())?;
            out.flush()?;
        }
        let notes = gradebook_notes(&wrote, &records);
        let gradebook_files = match (&wrote.gradebook, gradebook_unwritten(&wrote)) {
            (Some(book), None) => book.formats.iter().map(|f| f.suffix()).collect(),
            _ => Vec::new(),
        };
        let similarity = match &self.similarity {
            Some(asked) if !stopped && self.shard.is_some() => self.compare_class(asked, &records),
            Some(asked) if !stopped => {
                let mut lines = self.compare_class(asked, &records);
                // The class page again, with the section on the
                // comparison just made (or without one, when it failed
                // and its files are gone).
                if let Err(e) = write_class_page(&self.grades, &wrote, &records, changes.as_ref()) {
                    lines.push(format!("similarity: index.html has no section on it: {e}"));
                }
                lines
            }
            _ => Vec::new(),
        };
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
            machines: records
                .iter()
                .flat_map(|r| {
                    r.fixtures
                        .iter()
                        .filter(|l| l.detail.starts_with(machine::MACHINES))
                        .map(|l| format!("{}: {}", r.row.name, l.fixture))
                })
                .collect(),
            notes,
            gradebook_files,
            similarity,
        })
    }

    /// The class compared for similarity, with the grading just written
    /// (its `records`, not read back) as the behaviour's evidence,
    /// `similarity.csv` and `similarity-blocks.csv` written into the
    /// grades folder (under its lock), and the index of the class kept
    /// there (`similarity.index`: a submission whose sources it has is not
    /// normalised again), or, when it fails, those of an earlier
    /// comparison removed; in a shard, only its index, for `merge` to
    /// compare the class. What happened, in lines. Its failure is its
    /// own: the grading stands. The class page is written after it.
    fn compare_class(&self, asked: &SimilarityAsked, records: &[Record]) -> Vec<String> {
        let similar = Similar {
            runner: self.runner,
            submissions: self.submissions.clone(),
            out: self.grades.clone(),
            templates: asked.templates.clone(),
            temp: self.temp.join("similarity"),
            path: self.settings.path.clone(),
            seconds: self.build_seconds,
            settings: SimilaritySettings {
                jobs: self.settings.jobs,
                common: asked.common,
                ..SimilaritySettings::default()
            },
            grades: Some(self.grades.clone()),
            only: self
                .shard
                .map(|_| records.iter().map(|r| r.row.name.clone()).collect()),
            stop: self.stop,
        };
        if self.shard.is_some() {
            let index = similar.keep_only(records);
            let _ = fs::remove_dir_all(self.temp.join("similarity"));
            return match index {
                Ok((notes, count)) => {
                    let mut lines = vec![format!(
                        "similarity: the sources of {count} submission(s) kept ({}) for merge to compare the class",
                        kept::FILE
                    )];
                    lines.extend(notes.iter().map(|n| format!("similarity: {n}")));
                    lines
                }
                Err(e) => {
                    let _ = fs::remove_file(self.grades.join(kept::FILE));
                    vec![format!(
                        "similarity: no index kept: {e}; merge will not compare the class; the grading stands"
                    )]
                }
            };
        }
        let found = similar.run_with(Some(records));
        let _ = fs::remove_dir_all(self.temp.join("similarity"));
        match found {
            Ok(found) => similarity_lines(&found),
            Err(e) => {
                // No file of an earlier comparison is left to say otherwise.
                for file in [CSV_FILE, BLOCKS_FILE] {
                    let _ = fs::remove_file(self.grades.join(file));
                }
                let _ = fs::remove_dir_all(self.grades.join(PAGES));
                vec![format!("similarity: not compared: {e}; the grading stands")]
            }
        }
    }

    /// Each fixture as reports show it, with the digest of its bytes, as
    /// `grading.json` records them (and an earlier grading's are compared).
    fn fixture_digests(&self) -> Vec<(String, u64)> {
        self.fixtures
            .iter()
            .map(|f| (f.shown.clone(), f.digest))
            .collect()
    }

    /// Writes the table's header to `out`, then the rows kept from before
    /// (so that the table is the whole grading's, whatever is graded now);
    /// the width of its names' column.
    fn table_head(&self, out: &mut dyn Write, plan: &Plan, kept: &[Record]) -> io::Result<usize> {
        let width = plan
            .to_grade
            .iter()
            .map(|n| n.shown())
            .chain(kept.iter().map(|r| r.row.name.shown()))
            .map(str::len)
            .max()
            .unwrap_or(0)
            .max(10);
        out.write_all(format!("{}\n", table_header(width)).as_bytes())?;
        let mut kept: Vec<&Record> = kept.iter().collect();
        kept.sort_by(|a, b| a.row.name.cmp(&b.row.name));
        for record in kept.iter().filter(|r| !plan.to_grade.contains(&r.row.name)) {
            out.write_all(format!("{}\n", record.table_line(width)).as_bytes())?;
        }
        out.flush()?;
        Ok(width)
    }

    /// Sets the grading this one replaces aside (a fresh grading: kept as
    /// `previous/`), and says against which grading the changes are told,
    /// if any: the one replaced, when it was of this folder; for
    /// `--resume`, the one the grading being resumed replaced (in
    /// `previous/`); for `--only`, the grading as it was.
    fn set_aside(&self, plan: &mut Plan) -> Result<Option<Baseline>, Error> {
        let grades = self.grades.display();
        let this_folder = |m: &Option<Manifest>| {
            m.as_ref()
                .is_some_and(|m| m.folder == self.submissions.display().to_string())
        };
        if let Some(before) = plan.before.take() {
            return Ok(this_folder(&before.manifest)
                .then(|| Baseline::of(before, "as it was before --only")));
        }
        let Some(replaced) = plan.replaced.take() else {
            // --resume, or a first grading: the grading it continues
            // replaced the one in previous/, if any.
            let previous = match plan.select {
                Select::Resume => read_previous(&self.grades)?,
                _ => None,
            };
            return Ok(previous
                .filter(|p| this_folder(&p.manifest))
                .map(|p| Baseline::of(p, &format!("kept in {grades}/previous/"))));
        };
        let what = describe(replaced.manifest.as_ref());
        let count = replaced.names.len();
        // A grading stopped half way, replaced: the complete grading of
        // this folder that previous/ keeps is worth more than it.
        let incomplete = replaced.manifest.as_ref().is_some_and(|m| !m.complete);
        if incomplete && this_folder(&replaced.manifest) {
            if let Some(kept) = read_previous(&self.grades)?.filter(|p| {
                this_folder(&p.manifest) && p.manifest.as_ref().is_some_and(|m| m.complete)
            }) {
                remove_submission_files(&self.grades, &replaced.names)?;
                remove_grading_files(&self.grades)?;
                plan.notes.push(format!(
                    "{grades}: replaces {what}: as it did not finish, its files of {count} submission(s) are removed, and {grades}/previous/ still keeps {}",
                    describe(kept.manifest.as_ref())
                ));
                return Ok(Some(Baseline::of(
                    kept,
                    &format!("kept in {grades}/previous/"),
                )));
            }
        }
        let older = keep_previous(&self.grades, &replaced.names)?;
        plan.notes.push(format!(
            "{grades}: replaces {what} ({count} submission(s)): it is kept whole in {grades}/previous/{}",
            if older { " (the grading kept there before is removed)" } else { "" }
        ));
        Ok(this_folder(&replaced.manifest)
            .then(|| Baseline::of(replaced, &format!("kept in {grades}/previous/"))))
    }

    /// Whether the folder looks like a folder of submissions, one folder a
    /// student; if not, why, with advice (a refusal).
    fn looks_like_submissions(&self, folder_names: &[Name]) -> Result<(), Error> {
        let folder = self.submissions.display();
        let sources: Vec<String> = fs::read_dir(&self.submissions)?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| {
                n.ends_with(".c") || n.ends_with(".h") || n == "Makefile" || n == "makefile"
            })
            .collect();
        let refuse = |why: String| Err(Refused::says(&folder, why).into());
        if !sources.is_empty() {
            let mut shown = sources;
            shown.sort();
            shown.truncate(3);
            return refuse(format!(
                "looks like one submission (it holds {}), not a folder of them: grade-all grades each folder in SUBMISSIONS, one a student; give the folder that holds it, or build it and run 'puzzle-grade grade PROGRAM'",
                shown.join(", ")
            ));
        }
        if folder_names.is_empty() {
            return refuse("holds no submission: grade-all grades each folder in SUBMISSIONS (not hidden ones), one a student, holding its sources or an archive of them".into());
        }
        Ok(())
    }

    /// Which submissions this grading grades: those [`GradeAll::select`]
    /// names, but for a fresh grading that finds the grading this command
    /// began unfinished (the same folder, fixtures, options and shard), and
    /// is not asked to `--replace` it: that one is resumed, and the marker
    /// told so, with how to start again instead.
    fn select_for(&self, earlier: &Earlier) -> Select {
        let Some(before) = earlier.manifest.as_ref() else {
            return self.select.clone();
        };
        let same = before.folder == self.submissions.display().to_string()
            && before.options == self.options
            && before.shard == self.shard
            && !before.fixtures.is_empty()
            && fixtures_differ(&before.fixtures, &self.fixture_digests()).is_none();
        if self.select != Select::All || self.replace || before.complete || !same {
            return self.select.clone();
        }
        let to_grade = before.names_to_grade();
        let graded = earlier
            .records
            .iter()
            .filter(|r| r.row.trouble.is_none() && to_grade.contains(&r.row.name))
            .count();
        (self.tell)(&format!(
            "{}: resumes the unfinished grading of {} begun {} ({graded} of {} submission(s) graded, the same options and fixtures): the rest are graded now; --replace grades them all again",
            self.grades.display(),
            before.folder,
            before.started,
            to_grade.len()
        ));
        Select::Resume
    }

    /// What to grade (`select`), what to keep of the earlier grading and
    /// which files to remove, or why the grading is refused.
    fn plan(
        &self,
        folder_names: &[Name],
        earlier: Earlier,
        select: Select,
    ) -> Result<Plan, Refused> {
        let grades = self.grades.display();
        let refuse = |why: String| Refused::says(&grades, why);
        let in_shard: Vec<Name> = folder_names
            .iter()
            .filter(|n| self.shard.is_none_or(|s| s.holds(n.shown())))
            .cloned()
            .collect();
        let mut notes = Vec::new();
        let continuing = !matches!(select, Select::All);
        if continuing && earlier.exists() {
            let Some(before) = &earlier.manifest else {
                return Err(refuse(
                    "holds a grading without grading.json (an older version's): grade all again without --only or --resume".into(),
                ));
            };
            if before.folder != self.submissions.display().to_string() {
                return Err(refuse(format!(
                    "holds the grading of {}, not of {}: use another --grades folder, or grade all again",
                    before.folder,
                    self.submissions.display()
                )));
            }
            if let Some(why) = fixtures_differ(&before.fixtures, &self.fixture_digests()) {
                return Err(refuse(format!(
                    "was graded on other fixtures ({why}): its marks would not compare; grade all again"
                )));
            }
            if before.options != self.options {
                return Err(refuse(options_refused(before, &self.options)));
            }
            if before.shard != self.shard {
                let shown =
                    |s: Option<Shard>| s.map_or("no shard".into(), |s| format!("shard {s}"));
                return Err(refuse(format!(
                    "holds {}, not {}",
                    shown(before.shard),
                    shown(self.shard)
                )));
            }
        }
        if let (Select::All, Some(before)) = (&select, &earlier.manifest) {
            if before.folder != self.submissions.display().to_string() && !self.replace {
                return Err(refuse(format!(
                    "holds the grading of {}, not of {}: use another --grades folder, or --replace to replace it (it is then kept in {grades}/previous/)",
                    before.folder,
                    self.submissions.display()
                )));
            }
        }
        // The grading as it was, for --only to tell its changes against.
        let before = match select {
            Select::Only(_) if earlier.exists() => Some(Earlier {
                manifest: earlier.manifest.clone(),
                manifest_refused: None,
                records: earlier.records.clone(),
                names: Vec::new(),
                refused: Default::default(),
            }),
            _ => None,
        };
        let mut replaced = None;
        let (to_grade, kept, removed, started) = match &select {
            Select::All => {
                if earlier.exists() {
                    replaced = Some(earlier);
                }
                (in_shard, Vec::new(), Vec::new(), utc_now())
            }
            Select::Only(_) | Select::Resume if !earlier.exists() => {
                let to_grade = match &select {
                    Select::Only(names) => names_checked(names, folder_names, &self.submissions)?,
                    _ => in_shard,
                };
                (to_grade, Vec::new(), Vec::new(), utc_now())
            }
            _ => {
                let (present, gone): (Vec<Record>, Vec<Record>) = earlier
                    .records
                    .into_iter()
                    .partition(|r| in_shard.contains(&r.row.name));
                // A row that could not be graded is graded again.
                let present: Vec<Record> = present
                    .into_iter()
                    .filter(|r| r.row.trouble.is_none())
                    .collect();
                let gone: Vec<Name> = gone.iter().map(|r| r.row.name.clone()).collect();
                if !gone.is_empty() {
                    notes.push(format!(
                        "{grades}: removed the rows and files of {} submission(s) no longer in {}: {}",
                        gone.len(),
                        self.submissions.display(),
                        gone.iter().map(Name::shown).collect::<Vec<_>>().join(", ")
                    ));
                }
                let to_grade = match &select {
                    Select::Only(names) => names_checked(names, folder_names, &self.submissions)?,
                    _ => in_shard
                        .iter()
                        .filter(|n| !present.iter().any(|r| r.row.name == **n))
                        .cloned()
                        .collect(),
                };
                let started = earlier.manifest.map(|m| m.started).unwrap_or_else(utc_now);
                (to_grade, present, gone, started)
            }
        };
        Ok(Plan {
            select,
            to_grade,
            kept,
            removed,
            started,
            notes,
            replaced,
            before,
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
    /// written, and the changes since `baseline`, which are told there.
    fn write_summaries(
        &self,
        manifest: &Manifest,
        records: &[Record],
        stopped: bool,
        baseline: Option<&Baseline>,
    ) -> io::Result<(Manifest, Option<Comparison>)> {
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
        let changes = baseline.map(|b| {
            compare(
                b.words.clone(),
                Grading {
                    manifest: b.manifest.as_ref(),
                    records: &b.records,
                },
                Grading {
                    manifest: Some(&manifest),
                    records,
                },
            )
        });
        write_summary_files(&self.grades, &manifest, records, changes.as_ref())?;
        Ok((manifest, changes))
    }
}

/// What a grading will do.
struct Plan {
    /// Which submissions it grades (a fresh grading may resume).
    select: Select,
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
    /// The grading a fresh one replaces, to be kept as `previous/`.
    replaced: Option<Earlier>,
    /// The grading as it was before `--only`.
    before: Option<Earlier>,
}

/// Why a grading continued with the options `now` is refused by the
/// grading `before` in the grades folder, which had others: the options
/// of each, what differs, and what to do.
fn options_refused(before: &Manifest, now: &Options) -> String {
    let (old, new) = (before.options.settings(), now.settings());
    let differ: Vec<&Setting> = old
        .iter()
        .filter(|p| !new.contains(p))
        .chain(new.iter().filter(|p| !old.contains(p)))
        .collect();
    let formats = if differ.iter().any(|p| matches!(p, Setting::Formats(_))) {
        " (--format gradescope, prairielearn and junit write a file for each submission as it is graded, so the submissions graded already would lack them: continue with the grading's own --format; canvas and moodle, --roster and --assignment may change, or be written afterwards with 'puzzle-grade gradebook')"
    } else {
        ""
    };
    format!(
        "was graded with other options ({}), not ({now}): {} differ{formats}; continue it with its own options, or grade all again",
        before.options,
        differ
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// `names`, each one of `folder_names` (those of `folder`), or which is not.
fn names_checked(
    names: &[OsString],
    folder_names: &[Name],
    folder: &Path,
) -> Result<Vec<Name>, Refused> {
    names
        .iter()
        .map(|given| match Name::of_folder(given) {
            Some(name) if folder_names.contains(&name) => Ok(name),
            _ => Err(Refused::new(
                format!(
                    "--only {}",
                    crate::shared::text::one_line(&given.to_string_lossy())
                ),
                format!("no such folder in {}", folder.display()),
            )),
        })
        .collect()
}
