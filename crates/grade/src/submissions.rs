//! `grade-all`: every folder of a folder of submissions built, graded and
//! marked, one row of a table each, streamed as each is done; the summary
//! files kept up to date when only some submissions are graded again.

use super::build::{copy_folder, files_in, write_shims, Builder};
use super::feedback::{feedback, not_built};
use super::fixture::Fixture;
use super::formats::{gradescope, json_line, junit, prairielearn, Marked};
use super::fuzz;
use super::judge::{Class, Judgement};
use super::marks::{points, Score};
use super::report::{seconds, write_marked_report, Counts, Graded};
use super::{grade_program, Settings};
use puzzle_sandbox::Runner;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// One submission's row of the table and the CSV.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Its folder's name.
    pub name: String,
    /// Whether it was built.
    pub built: bool,
    /// The columns after `built` (see [`COLUMNS`]), `-` each when not built.
    pub fields: Vec<String>,
    /// How it was built, or why not.
    pub note: String,
}

/// The columns after the name and `built`.
pub const COLUMNS: [&str; 18] = [
    "passed", "failed", "verdict", "missed", "false", "status", "stderr", "timeout", "memory",
    "procs", "crash", "format", "open", "score", "max", "fuzz", "time", "slowest",
];
/// Their widths in the table.
const WIDTHS: [usize; 18] = [6, 6, 7, 6, 5, 6, 6, 7, 6, 5, 5, 6, 4, 6, 6, 4, 7, 7];
/// A note longer than this is cut in the table (the CSV has it whole).
const NOTE_IN_TABLE: usize = 100;

/// The CSV's header line.
pub const CSV_HEADER: &str = "submission,built,passed,failed,wrong_verdict,missed_error,false_error,wrong_exit_status,error_on_stderr,timeout,memory_limit,process_limit,crash,format,open,score,max_score,fuzz_faults,seconds,slowest_seconds,note";

/// The per-fixture CSV's header line.
pub const FIXTURES_CSV_HEADER: &str =
    "submission,fixture,category,class,points,max_points,visibility,seconds,detail";

impl Row {
    /// The row of a submission graded with `counts` and `score`, and the
    /// faults a fuzzing found (`None`: not fuzzed).
    pub fn graded(
        name: &str,
        counts: &Counts,
        score: &Score,
        fuzz: Option<usize>,
        note: &str,
    ) -> Row {
        let class = |cl: Class| c_of(counts, cl);
        let fields = vec![
            (counts.total_fixtures() - counts.total_failed()).to_string(),
            counts.total_failed().to_string(),
            class(Class::WrongVerdict),
            class(Class::MissedError),
            class(Class::FalseError),
            class(Class::WrongExitStatus),
            (counts.of_class(Class::ErrorOnStderr) + counts.of_class(Class::NoMessage)).to_string(),
            class(Class::Timeout),
            class(Class::MemoryLimit),
            class(Class::ProcessLimit),
            (counts.of_class(Class::Crash) + counts.of_class(Class::NotGraded)).to_string(),
            class(Class::Format),
            class(Class::Open),
            points(score.total),
            points(score.max),
            fuzz.map_or("-".into(), |n| n.to_string()),
            seconds(counts.total),
            counts.slowest.map_or("-".into(), |(_, d, _)| seconds(d)),
        ];
        Row {
            name: name.into(),
            built: true,
            fields,
            note: note.into(),
        }
    }

    /// The row of a submission that was not built.
    pub fn not_built(name: &str, note: &str) -> Row {
        Row {
            name: name.into(),
            built: false,
            fields: vec!["-".into(); COLUMNS.len()],
            note: note.into(),
        }
    }

    /// Whether it built and passed every fixture.
    pub fn passed(&self) -> bool {
        self.built && self.fields[1] == "0"
    }

    /// Its line in the table, for names up to `width` bytes.
    pub fn table_line(&self, width: usize) -> String {
        let built = if self.built { "yes" } else { "no" };
        let mut line = format!("{:<width$} {built:<5}", self.name);
        for (field, w) in self.fields.iter().zip(WIDTHS) {
            line += &format!(" {field:>w$}");
        }
        let note: String = if self.note.chars().count() > NOTE_IN_TABLE {
            self.note.chars().take(NOTE_IN_TABLE).collect::<String>() + "..."
        } else {
            self.note.clone()
        };
        format!("{line}  {note}")
    }

    /// Its line in the CSV: the name and the note quoted, the note whole.
    pub fn csv_line(&self) -> String {
        let built = if self.built { "yes" } else { "no" };
        format!(
            "{},{built},{},{}",
            csv_quoted(&self.name),
            self.fields.join(","),
            csv_quoted(&self.note)
        )
    }

    /// A row read back from its CSV line (as [`Row::csv_line`] writes it).
    pub fn from_csv_line(line: &str) -> Option<Row> {
        let (name, rest) = csv_field(line)?;
        let rest = rest.strip_prefix(',')?;
        let mut fields: Vec<&str> = Vec::new();
        let mut rest = rest;
        for _ in 0..=COLUMNS.len() {
            let (field, after) = rest.split_once(',')?;
            fields.push(field);
            rest = after;
        }
        let (note, tail) = csv_field(rest)?;
        if !tail.is_empty() {
            return None;
        }
        Some(Row {
            name,
            built: fields[0] == "yes",
            fields: fields[1..].iter().map(|f| f.to_string()).collect(),
            note,
        })
    }
}

fn c_of(counts: &Counts, class: Class) -> String {
    counts.of_class(class).to_string()
}

/// `text` as a quoted CSV field.
pub fn csv_quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// A quoted CSV field at the start of `text`, and what follows it.
fn csv_field(text: &str) -> Option<(String, &str)> {
    let mut rest = text.strip_prefix('"')?;
    let mut field = String::new();
    loop {
        let at = rest.find('"')?;
        field.push_str(&rest[..at]);
        rest = &rest[at + 1..];
        match rest.strip_prefix('"') {
            Some(after) => {
                field.push('"');
                rest = after;
            }
            None => return Some((field, rest)),
        }
    }
}

/// The table's header line, for names up to `width` bytes.
pub fn header(width: usize) -> String {
    let mut line = format!("{:<width$} {:<5}", "submission", "built");
    for (name, w) in COLUMNS.iter().zip(WIDTHS) {
        line += &format!(" {name:>w$}");
    }
    line + "  note"
}

/// The submissions of `dir`: its folders (not hidden ones), in byte order.
pub fn submission_names(dir: &Path) -> io::Result<Vec<String>> {
    let mut names: Vec<String> = fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.'))
        .collect();
    names.sort();
    Ok(names)
}

/// A grading of a folder of submissions.
pub struct GradeAll<'a> {
    /// Runs every build and every program.
    pub runner: &'a dyn Runner,
    /// The rules, limits and marking scheme.
    pub settings: &'a Settings,
    /// The fixtures, prepared.
    pub fixtures: &'a [Fixture],
    /// The folder of submissions.
    pub submissions: PathBuf,
    /// Where the reports go.
    pub grades: PathBuf,
    /// A private folder for the copies and the runs' outputs.
    pub temp: PathBuf,
    /// Seconds a build command may take.
    pub build_seconds: u64,
    /// The runner's protections, the first line of every report.
    pub protections: String,
    /// The platform formats to write for each submission (see
    /// [`super::formats::FORMATS`]).
    pub formats: Vec<String>,
    /// Seconds of fuzzing a submission after its fixtures (none: off); the
    /// minimal cases go to `NAME.fuzz/` in the grades folder.
    pub fuzz_seconds: Option<u64>,
}

/// What grading one submission left for the summary files.
struct Done {
    row: Row,
    fixture_lines: String,
    json: String,
}

impl GradeAll<'_> {
    /// Grades the submissions `names` in order: writes the table to `out`
    /// (the header, then each row as soon as it is done), each submission's
    /// report, build log, feedback and platform files into the grades
    /// folder, and the summary files there (`summary.txt`, `summary.csv`,
    /// `summary-fixtures.csv`, `summary.jsonl`), keeping the rows of
    /// submissions graded before and not now; `progress` hears of each row.
    /// Returns the rows graded now.
    pub fn run(
        &self,
        names: &[String],
        out: &mut dyn Write,
        progress: &mut dyn FnMut(&Row),
    ) -> io::Result<Vec<Row>> {
        fs::create_dir_all(&self.grades)?;
        let shims = self.temp.join("shims");
        write_shims(&shims)?;
        let work = self.temp.join("work");
        fs::create_dir_all(&work)?;
        let builder = Builder {
            runner: self.runner,
            path: self.settings.path.clone(),
            shims,
            seconds: self.build_seconds,
        };
        let width = names.iter().map(|n| n.len()).max().unwrap_or(0).max(10);
        out.write_all(format!("{}\n", header(width)).as_bytes())?;
        out.flush()?;
        let mut done = Vec::new();
        for name in names {
            let one = self.grade_one(&builder, &work, name)?;
            out.write_all(format!("{}\n", one.row.table_line(width)).as_bytes())?;
            out.flush()?;
            progress(&one.row);
            done.push(one);
        }
        self.write_summaries(&done)?;
        Ok(done.into_iter().map(|d| d.row).collect())
    }

    fn grade_one(&self, builder: &Builder, work: &Path, name: &str) -> io::Result<Done> {
        let copy = self.temp.join("builds").join(name);
        copy_folder(&self.submissions.join(name), &copy)?;
        let log = self.grades.join(format!("{name}.make.txt"));
        let built = builder.build(&copy, &log)?;
        let file = |suffix: &str| self.grades.join(format!("{name}{suffix}"));
        let scheme = &self.settings.scheme;
        let result = match &built.program {
            Some(program) => {
                let graded = grade_program(
                    self.runner,
                    program,
                    self.fixtures,
                    self.settings,
                    work,
                    &|_| {},
                )?;
                let mut transcript = Vec::new();
                let fuzzed = match self.fuzz_seconds {
                    Some(seconds) => {
                        let options = fuzz::Options {
                            seed: 1,
                            seconds,
                            into: file(".fuzz"),
                            settings: self.settings.clone(),
                            program: program.clone(),
                        };
                        let summary = fuzz::fuzz(self.runner, &options, work, &mut transcript)?;
                        Some(summary.found.len())
                    }
                    None => None,
                };
                let mut report = format!("{}\n", self.protections).into_bytes();
                let score = scheme.score(self.fixtures, &graded);
                let counts = write_marked_report(
                    &mut report,
                    self.fixtures,
                    &graded,
                    self.settings.strict,
                    &transcript,
                    &score,
                )?;
                fs::write(file(".txt"), report)?;
                Some((graded, counts, score, fuzzed))
            }
            None => {
                let text = format!("not built: {} (see {name}.make.txt)\n", built.note);
                fs::write(file(".txt"), text)?;
                None
            }
        };
        let _ = fs::remove_dir_all(&copy);
        let (row, feedback_text, fixture_lines) = match &result {
            Some((graded, counts, score, fuzzed)) => {
                let judgements: Vec<&Judgement> = graded.iter().map(|g| &g.judgement).collect();
                let text = feedback(
                    name,
                    self.fixtures,
                    &judgements,
                    Some(score),
                    &|f| scheme.visibility(f),
                    &|f| fs::read(&f.path).unwrap_or_default(),
                );
                let lines = fixture_lines(name, self.fixtures, graded, score, self.settings);
                (
                    Row::graded(name, counts, score, *fuzzed, &built.note),
                    text,
                    lines,
                )
            }
            None => {
                let log = fs::read(self.grades.join(format!("{name}.make.txt")))?;
                let files = files_in(&self.submissions.join(name));
                let text = not_built(name, &built.note, &log, &files);
                (Row::not_built(name, &built.note), text, String::new())
            }
        };
        let marked = Marked {
            name,
            note: &built.note,
            fixtures: self.fixtures,
            graded: result.as_ref().map(|r| r.0.as_slice()),
            score: result.as_ref().map(|r| &r.2),
            counts: result.as_ref().map(|r| &r.1),
            scheme,
            strict: self.settings.strict,
            feedback: &feedback_text,
        };
        for format in &self.formats {
            let (suffix, text) = match format.as_str() {
                "gradescope" => (".gradescope.json", gradescope(&marked)),
                "prairielearn" => (".prairielearn.json", prairielearn(&marked)),
                "junit" => (".junit.xml", junit(&marked)),
                _ => continue,
            };
            fs::write(file(suffix), text)?;
        }
        fs::write(file(".feedback.md"), &feedback_text)?;
        Ok(Done {
            row,
            fixture_lines,
            json: json_line(&marked),
        })
    }

    /// Writes the summary files: the rows of `done`, and those of the
    /// submissions graded before and not now, in name order.
    fn write_summaries(&self, done: &[Done]) -> io::Result<()> {
        let path = |name: &str| self.grades.join(name);
        let now = |name: &str| done.iter().any(|d| d.row.name == name);
        // Rows kept from before: their CSV line, fixture lines and JSON line.
        let mut rows: Vec<(Row, String, String)> = Vec::new();
        let old_csv = fs::read_to_string(path("summary.csv")).unwrap_or_default();
        let old_json = fs::read_to_string(path("summary.jsonl")).unwrap_or_default();
        let old_fixtures = fs::read_to_string(path("summary-fixtures.csv")).unwrap_or_default();
        let mut json_lines = old_json.lines();
        for line in old_csv.lines().skip(1) {
            let json = json_lines.next().unwrap_or("").to_string();
            let Some(row) = Row::from_csv_line(line) else {
                continue;
            };
            if now(&row.name) {
                continue;
            }
            let prefix = format!("{},", csv_quoted(&row.name));
            let fixture_lines: String = old_fixtures
                .lines()
                .filter(|l| l.starts_with(&prefix))
                .map(|l| format!("{l}\n"))
                .collect();
            rows.push((
                row,
                fixture_lines,
                if json.is_empty() { json } else { json + "\n" },
            ));
        }
        for d in done {
            rows.push((d.row.clone(), d.fixture_lines.clone(), d.json.clone()));
        }
        rows.sort_by(|a, b| a.0.name.cmp(&b.0.name));
        let width = rows
            .iter()
            .map(|r| r.0.name.len())
            .max()
            .unwrap_or(0)
            .max(10);
        let mut table = header(width) + "\n";
        let mut csv = String::from(CSV_HEADER) + "\n";
        let mut fixtures = String::from(FIXTURES_CSV_HEADER) + "\n";
        let mut json = String::new();
        for (row, fixture_lines, json_line) in &rows {
            table += &(row.table_line(width) + "\n");
            csv += &(row.csv_line() + "\n");
            fixtures += fixture_lines;
            json += json_line;
        }
        fs::write(path("summary.txt"), table)?;
        fs::write(path("summary.csv"), csv)?;
        fs::write(path("summary-fixtures.csv"), fixtures)?;
        fs::write(path("summary.jsonl"), json)?;
        Ok(())
    }
}

/// A submission's lines of the per-fixture CSV.
fn fixture_lines(
    name: &str,
    fixtures: &[Fixture],
    graded: &[Graded],
    score: &Score,
    settings: &Settings,
) -> String {
    let mut out = String::new();
    for ((f, g), (earned, max)) in fixtures.iter().zip(graded).zip(&score.per_fixture) {
        let (class, detail) = match &g.judgement {
            Judgement::Passed => ("passed", String::new()),
            Judgement::Message(text) => ("passed", text.clone()),
            Judgement::Noted(class, text) => (class.name(), text.clone()),
        };
        let time = g.time.map_or("-".into(), |(d, _)| seconds(d));
        out += &format!(
            "{},{},{},{class},{},{},{},{time},{}\n",
            csv_quoted(name),
            csv_quoted(&f.shown),
            f.named.name(),
            points(*earned),
            points(*max),
            settings.scheme.visibility(f).word(),
            csv_quoted(&detail)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_not_built_has_dashes_and_its_note_whole_in_the_csv() {
        let row = Row::not_built("bob \"b\"", &format!("make failed: {}", "x".repeat(120)));
        let line = row.table_line(10);
        assert!(
            line.starts_with("bob \"b\"    no         -      -"),
            "{line}"
        );
        assert!(
            line.ends_with(&format!("  make failed: {}...", "x".repeat(87))),
            "{line}"
        );
        assert_eq!(header(10).split_whitespace().count(), 21);
        let csv = row.csv_line();
        assert_eq!(
            csv,
            format!(
                "\"bob \"\"b\"\"\",no,{},\"make failed: {}\"",
                ["-"; 18].join(","),
                "x".repeat(120)
            )
        );
        assert_eq!(CSV_HEADER.split(',').count(), 21);
        assert!(!row.passed());
        assert_eq!(Row::from_csv_line(&csv), Some(row));
    }

    #[test]
    fn a_row_counts_its_classes_in_the_columns() {
        let mut counts = Counts {
            fixtures: [2, 1, 0],
            failed: [1, 0, 0],
            ..Counts::default()
        };
        counts.classes[Class::MemoryLimit as usize] = [1, 0, 0];
        counts.classes[Class::Open as usize] = [0, 1, 0];
        let score = Score {
            per_fixture: Vec::new(),
            total: 62.5,
            max: 100.0,
        };
        let row = Row::graded("ann", &counts, &score, Some(2), "");
        let fields: Vec<String> = row
            .table_line(10)
            .split_whitespace()
            .map(String::from)
            .collect();
        // passed failed verdict missed false status stderr timeout memory
        assert_eq!(
            fields[..11],
            ["ann", "yes", "2", "1", "0", "0", "0", "0", "0", "0", "1"]
        );
        assert_eq!(
            fields[14..18],
            ["1", "62.5", "100", "2"],
            "open, score, max, fuzz"
        );
        assert_eq!(Row::from_csv_line(&row.csv_line()), Some(row));
    }
}
