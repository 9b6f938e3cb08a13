//! `grade-all`: every folder of a folder of submissions built and graded,
//! one row of a table each, streamed as each is done.

use super::build::{copy_folder, write_shims, Builder};
use super::fixture::Fixture;
use super::report::{seconds, write_report, Counts};
use super::run::Runner;
use super::{grade_program, Settings};
use crate::grade::judge::Class;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// One submission graded.
#[derive(Clone, Debug)]
pub struct Row {
    /// Its folder's name.
    pub name: String,
    /// Its counts, when it was built.
    pub counts: Option<Counts>,
    /// How it was built, or why not.
    pub note: String,
}

impl Row {
    /// Whether it built and passed every fixture.
    pub fn passed(&self) -> bool {
        self.counts.as_ref().is_some_and(|c| c.total_failed() == 0)
    }

    /// The columns after the name: built, then the counts and times, each
    /// `-` when it was not built.
    fn fields(&self) -> (String, Vec<String>) {
        let Some(c) = &self.counts else {
            return ("no".into(), vec!["-".into(); COLUMNS.len()]);
        };
        let class = |cl: Class| c.of_class(cl).to_string();
        let fields = vec![
            (c.total_fixtures() - c.total_failed()).to_string(),
            c.total_failed().to_string(),
            class(Class::WrongVerdict),
            class(Class::MissedError),
            class(Class::FalseError),
            class(Class::WrongExitStatus),
            (c.of_class(Class::ErrorOnStderr) + c.of_class(Class::NoMessage)).to_string(),
            class(Class::Timeout),
            class(Class::MemoryLimit),
            class(Class::ProcessLimit),
            (c.of_class(Class::Crash) + c.of_class(Class::NotGraded)).to_string(),
            class(Class::Format),
            class(Class::Open),
            seconds(c.total),
            c.slowest.map_or("-".into(), |(_, d, _)| seconds(d)),
        ];
        ("yes".into(), fields)
    }
}

/// The widths of the table's columns after the name and `built`.
const WIDTHS: [usize; 15] = [6, 6, 7, 6, 5, 6, 6, 7, 6, 5, 5, 6, 4, 7, 7];
/// Their names.
const COLUMNS: [&str; 15] = [
    "passed", "failed", "verdict", "missed", "false", "status", "stderr", "timeout", "memory",
    "procs", "crash", "format", "open", "time", "slowest",
];
/// A note longer than this is cut in the table (the CSV has it whole).
const NOTE_IN_TABLE: usize = 100;

/// The table's header line, for names up to `width` bytes.
pub fn header(width: usize) -> String {
    let mut line = format!("{:<width$} {:<5}", "submission", "built");
    for (name, w) in COLUMNS.iter().zip(WIDTHS) {
        line += &format!(" {name:>w$}");
    }
    line + "  note"
}

/// A row of the table.
pub fn table_row(row: &Row, width: usize) -> String {
    let (built, fields) = row.fields();
    let mut line = format!("{:<width$} {built:<5}", row.name);
    for (field, w) in fields.iter().zip(WIDTHS) {
        line += &format!(" {field:>w$}");
    }
    let note: String = if row.note.chars().count() > NOTE_IN_TABLE {
        row.note.chars().take(NOTE_IN_TABLE).collect::<String>() + "..."
    } else {
        row.note.clone()
    };
    format!("{line}  {note}")
}

/// The CSV's header line.
pub const CSV_HEADER: &str = "submission,built,passed,failed,wrong_verdict,missed_error,false_error,wrong_exit_status,error_on_stderr,timeout,memory_limit,process_limit,crash,format,open,seconds,slowest_seconds,note";

/// A row of the CSV: the name and the note quoted, the note whole.
pub fn csv_row(row: &Row) -> String {
    let (built, fields) = row.fields();
    let quoted = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    format!(
        "{},{built},{},{}",
        quoted(&row.name),
        fields.join(","),
        quoted(&row.note)
    )
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
    /// The rules and limits.
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
}

impl GradeAll<'_> {
    /// Grades every submission in order: writes the table to `out` (the
    /// header, then each row as soon as it is done), each submission's
    /// report and build log, `summary.txt` and `summary.csv` into the grades
    /// folder; `progress` hears of each row. Returns the rows.
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
        let mut table = header(width) + "\n";
        out.write_all(table.as_bytes())?;
        out.flush()?;
        let mut rows = Vec::new();
        for name in names {
            let copy = self.temp.join("builds").join(name);
            copy_folder(&self.submissions.join(name), &copy)?;
            let log = self.grades.join(format!("{name}.make.txt"));
            let built = builder.build(&copy, &log)?;
            let report_path = self.grades.join(format!("{name}.txt"));
            let counts = match &built.program {
                Some(program) => {
                    let graded = grade_program(
                        self.runner,
                        program,
                        self.fixtures,
                        self.settings,
                        &work,
                        &|_| {},
                    )?;
                    let mut report = format!("{}\n", self.protections).into_bytes();
                    let counts =
                        write_report(&mut report, self.fixtures, &graded, self.settings.strict)?;
                    fs::write(&report_path, report)?;
                    Some(counts)
                }
                None => {
                    let text = format!("not built: {} (see {name}.make.txt)\n", built.note);
                    fs::write(&report_path, text)?;
                    None
                }
            };
            let _ = fs::remove_dir_all(&copy);
            let row = Row {
                name: name.clone(),
                counts,
                note: built.note,
            };
            let line = table_row(&row, width) + "\n";
            out.write_all(line.as_bytes())?;
            out.flush()?;
            table += &line;
            progress(&row);
            rows.push(row);
        }
        fs::write(self.grades.join("summary.txt"), &table)?;
        let mut csv = String::from(CSV_HEADER) + "\n";
        for row in &rows {
            csv += &(csv_row(row) + "\n");
        }
        fs::write(self.grades.join("summary.csv"), csv)?;
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_not_built_has_dashes_and_its_note_whole_in_the_csv() {
        let row = Row {
            name: "bob \"b\"".into(),
            counts: None,
            note: format!("make failed: {}", "x".repeat(120)),
        };
        let line = table_row(&row, 10);
        assert!(
            line.starts_with("bob \"b\"    no         -      -"),
            "{line}"
        );
        assert!(
            line.ends_with(&format!("  make failed: {}...", "x".repeat(87))),
            "{line}"
        );
        assert_eq!(header(10).split_whitespace().count(), 18);
        let csv = csv_row(&row);
        assert_eq!(
            csv,
            format!(
                "\"bob \"\"b\"\"\",no,{},\"make failed: {}\"",
                ["-"; 15].join(","),
                "x".repeat(120)
            )
        );
        assert_eq!(CSV_HEADER.split(',').count(), 18);
        assert!(!row.passed());
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
        let row = Row {
            name: "ann".into(),
            counts: Some(counts),
            note: String::new(),
        };
        let fields: Vec<String> = table_row(&row, 10)
            .split_whitespace()
            .map(String::from)
            .collect();
        // passed failed verdict missed false status stderr timeout memory
        assert_eq!(
            fields[..11],
            ["ann", "yes", "2", "1", "0", "0", "0", "0", "0", "0", "1"]
        );
        assert_eq!(fields[14], "1", "open");
    }
}
