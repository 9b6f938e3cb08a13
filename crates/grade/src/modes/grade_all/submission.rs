//! One submission of a `grade-all`: built, then graded and marked as
//! `grade` grades and marks a program ([`crate::modes::grade`]), in
//! [`GradeAll::grade_submission`], which returns a [`Submission`]; then its
//! files written in a folder of their own
//! ([`Submission::write`]), which [`GradeAll::publish`] moves into the
//! grades folder.

use super::GradeAll;
use crate::intake::build::{read_log, Builder};
use crate::intake::folder::files_in;
use crate::judging::judge::Judgement;
use crate::marking::feedback::{feedback, not_built, Found};
use crate::modes::grade::{Grade, GradedProgram};
use crate::publishing::formats::{Format, Marked};
use crate::publishing::html::{escape, feedback_page};
use crate::publishing::record::{CauseLine, FixtureLine, Record, Row};
use crate::shared::name::Name;
use crate::shared::text::one_line;
use std::fs;
use std::io;
use std::path::Path;
use std::time::Instant;

/// A submission graded: its record and the texts of its files.
pub(super) struct Submission {
    /// Its row and fixtures' lines, the source of every summary.
    pub record: Record,
    /// `NAME.txt`: the report, or why it was not built.
    pub report: Vec<u8>,
    /// `NAME.feedback.md`, which `NAME.feedback.html` shows too.
    pub feedback: String,
    /// The platforms' files asked for, each with its text.
    pub platforms: Vec<(Format, String)>,
}

impl Submission {
    /// Writes its files into `staged`, each named from the name's stem (the
    /// build log, `STEM.make.txt`, and the fuzzer's cases, `STEM.fuzz/`, are
    /// there already): the report, the feedback as Markdown and HTML, the
    /// platforms' files. Returns its record.
    pub fn write(self, name: &Name, staged: &Path) -> io::Result<Record> {
        let stem = name.stem();
        let file = |suffix: &str| staged.join(format!("{stem}{suffix}"));
        fs::write(file(".txt"), &self.report)?;
        for (format, text) in &self.platforms {
            fs::write(file(format.suffix()), text)?;
        }
        fs::write(file(".feedback.md"), &self.feedback)?;
        fs::write(
            file(".feedback.html"),
            feedback_page(&escape(name.shown()), &self.feedback),
        )?;
        Ok(self.record)
    }
}

impl GradeAll<'_> {
    /// The record and files of `name`, which could not be graded for `why`
    /// (an error of the system: a file it refused, a folder it could not
    /// read); they say so, and that this is no mark. What was staged is
    /// replaced.
    pub(super) fn not_graded(
        &self,
        name: &Name,
        why: &io::Error,
        staged: &Path,
    ) -> io::Result<Record> {
        let _ = fs::remove_dir_all(staged);
        let _ = fs::remove_dir_all(self.temp.join("builds").join(name.stem()));
        fs::create_dir_all(staged)?;
        let why = one_line(&why.to_string());
        let shown = name.shown();
        let row = Row::not_graded(name, &why);
        let report = format!("{}\n{}\n", self.protections, row.note);
        let feedback = format!(
            "# Feedback for {shown}\n\nYour submission could not be graded: {why}.\n\n\
             This is not a mark: the course staff have been told, and will grade it again.\n"
        );
        let marked = Marked {
            name: shown,
            note: &row.note,
            fixtures: self.fixtures,
            graded: None,
            score: None,
            counts: None,
            scheme: &self.settings.scheme,
            strict: self.settings.strict,
            feedback: &feedback,
        };
        let platforms = self
            .formats
            .iter()
            .filter_map(|format| format.render(&marked).map(|text| (*format, text)))
            .collect();
        let submission = Submission {
            record: Record {
                row,
                fixtures: Vec::new(),
                causes: Vec::new(),
                sources: None,
            },
            report: report.into_bytes(),
            feedback,
            platforms,
        };
        submission.write(name, staged)
    }
}

impl GradeAll<'_> {
    /// Builds `name` in a copy, grades and marks it; its build log and
    /// fuzzing cases go to `staged` as they are made.
    pub(super) fn grade_submission(
        &self,
        builder: &Builder,
        work: &Path,
        name: &Name,
        staged: &Path,
    ) -> io::Result<Submission> {
        let _ = fs::remove_dir_all(staged);
        fs::create_dir_all(staged)?;
        let stem = name.stem();
        let copy = self.temp.join("builds").join(&stem);
        let folder = self.submissions.join(name.real());
        let file = |suffix: &str| staged.join(format!("{stem}{suffix}"));
        let shown = name.shown();
        // The budget covers the build, the runs and the fuzzing.
        let deadline = self.settings.budget.map(|b| Instant::now() + b);
        let left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let builder = Builder {
            seconds: left().map_or(builder.seconds, |l| builder.seconds.min(l.as_secs().max(1))),
            shims: builder.shims.clone(),
            path: builder.path.clone(),
            runner: builder.runner,
            scratch: builder.scratch.clone(),
        };
        let mut built = builder.build(&folder, &copy, &file(".make.txt"))?;
        // The note quotes the build's log and the archives' entries: one
        // line, nothing hidden in it, before it reaches any file.
        built.note = one_line(&built.note);
        let results = match &built.program {
            Some(program) => Some(self.grade_built(program, work, deadline, &file(".fuzz"))?),
            None => None,
        };
        let _ = fs::remove_dir_all(&copy);
        let scheme = &self.settings.scheme;
        let (record, feedback_text, report) = match results {
            Some(ref r) => {
                let judgements: Vec<&Judgement> = r.graded.iter().map(|g| &g.judgement).collect();
                let text = feedback(
                    shown,
                    self.fixtures,
                    &judgements,
                    Some(&r.score),
                    &|f| scheme.visibility(f),
                    &|f| fs::read(&f.path).unwrap_or_default(),
                    Found {
                        causes: &r.causes.confirmed,
                        tried: &r.causes.tried,
                        flaky: &r.graded.iter().map(|g| g.flaky.clone()).collect::<Vec<_>>(),
                    },
                );
                let lines = FixtureLine::of(self.fixtures, &r.graded, &r.score, &|f| {
                    scheme.visibility(f)
                });
                let row = Row::graded(name, &r.counts, &r.score, r.fuzzed, &built.note);
                let record = Record {
                    row,
                    fixtures: lines,
                    causes: CauseLine::of(&r.causes.confirmed, self.fixtures),
                    sources: built.sources,
                };
                (record, text, r.report.clone())
            }
            None => {
                let log = read_log(&file(".make.txt"))?;
                let files = files_in(&folder);
                let text = not_built(shown, &built.note, &log, &files);
                let record = Record {
                    row: Row::not_built(name, &built.note),
                    fixtures: Vec::new(),
                    causes: Vec::new(),
                    sources: built.sources,
                };
                let report = format!("not built: {} (see {stem}.make.txt)\n", built.note);
                (record, text, report.into_bytes())
            }
        };
        let marked = Marked {
            name: shown,
            note: &built.note,
            fixtures: self.fixtures,
            graded: results.as_ref().map(|r| r.graded.as_slice()),
            score: results.as_ref().map(|r| &r.score),
            counts: results.as_ref().map(|r| &r.counts),
            scheme,
            strict: self.settings.strict,
            feedback: &feedback_text,
        };
        let platforms = self
            .formats
            .iter()
            .filter_map(|format| format.render(&marked).map(|text| (*format, text)))
            .collect();
        Ok(Submission {
            record,
            report,
            feedback: feedback_text,
            platforms,
        })
    }

    /// Grades and marks the built `program` as `grade` does (its fuzzing's
    /// cases into `fuzz_into`), its report headed by the protections.
    fn grade_built(
        &self,
        program: &Path,
        work: &Path,
        deadline: Option<Instant>,
        fuzz_into: &Path,
    ) -> io::Result<GradedProgram> {
        let one = Grade {
            runner: self.runner,
            program,
            settings: self.settings,
            fixtures: self.fixtures,
            work,
            fuzz_seconds: self.fuzz_seconds,
            fuzz_into,
            deadline,
            done: &|_| {},
        };
        one.mark()
    }
}
