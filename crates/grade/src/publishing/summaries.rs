//! The grading's summaries, written from its records: `summary.txt` (what
//! was graded, how and how far, then the table, then what changed since
//! the grading before, for a regrading), `summary.csv`,
//! `summary-fixtures.csv`, `summary.jsonl`, the class page, the gradebook
//! files (`canvas.csv`, `moodle.csv`) and `grading.json`, each whole.

use crate::publishing::changes::Comparison;
use crate::publishing::gradebook::{self, Class};
use crate::publishing::grades::{write_atomic, Gradebook, Manifest};
use crate::publishing::page::class_page;
use crate::publishing::record::{
    csv_header, csv_quoted, table_header, Record, FIXTURES_CSV_HEADER,
};
use crate::publishing::roster::Student;
use crate::publishing::similarity::Section;
use crate::shared::name::Name;
use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::Path;

/// Writes a grading's summaries into `grades` from its `manifest` and
/// `records`: `summary.txt` (the manifest in words, the table, then the
/// `changes` since the grading before, for a regrading), `summary.csv`
/// (with a roster, each row ends with its student's ID and name),
/// `summary-fixtures.csv`, `summary.jsonl`, the class page `index.html`
/// (`write_class_page`), the gradebook files of the
/// class's formats (`gradebook_unwritten` says when not), and
/// `grading.json` last, each whole. The records are written in name order.
pub fn write_summary_files(
    grades: &Path,
    manifest: &Manifest,
    records: &[Record],
    changes: Option<&Comparison>,
) -> io::Result<()> {
    let sorted = in_name_order(records);
    let width = sorted
        .iter()
        .map(|r| r.row.name.shown().len())
        .max()
        .unwrap_or(0)
        .max(10);
    let mut table = grading_lines(manifest, sorted.len());
    table += &(table_header(width) + "\n");
    let book = manifest.gradebook.as_ref();
    let students: BTreeMap<&Name, &Student> = book.map_or_else(BTreeMap::new, |b| {
        b.roster.students.iter().map(|s| (&s.folder, s)).collect()
    });
    let mut csv = csv_header();
    if book.is_some() {
        csv += ",student_id,student_name";
    }
    csv += "\n";
    let mut fixtures = String::from(FIXTURES_CSV_HEADER) + "\n";
    let mut json = String::new();
    for record in &sorted {
        table += &(record.table_line(width) + "\n");
        csv += &record.csv_line();
        if book.is_some() {
            let student = students.get(&record.row.name);
            let (id, name) = student.map_or(("", ""), |s| (s.id.as_str(), s.name.as_str()));
            let cell = |v: &str| {
                if v.is_empty() {
                    String::new()
                } else {
                    csv_quoted(v)
                }
            };
            csv += &format!(",{},{}", cell(id), cell(name));
        }
        csv += "\n";
        for line in &record.fixtures {
            fixtures += &(line.csv_line(&record.row.name) + "\n");
        }
        json += &record.json_line();
    }
    if let Some(changes) = changes {
        table += "\n";
        table += &changes.text();
    }
    write_atomic(&grades.join("summary.txt"), table.as_bytes())?;
    write_atomic(&grades.join("summary.csv"), csv.as_bytes())?;
    write_atomic(&grades.join("summary-fixtures.csv"), fixtures.as_bytes())?;
    write_atomic(&grades.join("summary.jsonl"), json.as_bytes())?;
    class_page_file(grades, manifest, &sorted, changes)?;
    if let Some(book) = book {
        write_gradebook_files(grades, manifest, book, &sorted)?;
    }
    write_atomic(&grades.join("grading.json"), manifest.to_json().as_bytes())
}

/// Writes the class page `index.html` into `grades`, whole, from
/// `manifest` and `records` ([`class_page`]), with the `changes` since
/// the grading before, and the section on the comparison of the class
/// when the folder has one (its `similarity.csv`, read as a stranger's:
/// [`Section::read`]); so that whoever writes the page, the section is
/// there whenever the file is. What writes `similarity.csv` into a
/// grades folder writes the page after it.
pub fn write_class_page(
    grades: &Path,
    manifest: &Manifest,
    records: &[Record],
    changes: Option<&Comparison>,
) -> io::Result<()> {
    class_page_file(grades, manifest, &in_name_order(records), changes)
}

/// `records` in their names' order, as the summaries list them.
fn in_name_order(records: &[Record]) -> Vec<&Record> {
    let mut sorted: Vec<&Record> = records.iter().collect();
    sorted.sort_by(|a, b| a.row.name.cmp(&b.row.name));
    sorted
}

/// [`write_class_page`], `records` in name order.
fn class_page_file(
    grades: &Path,
    manifest: &Manifest,
    records: &[&Record],
    changes: Option<&Comparison>,
) -> io::Result<()> {
    let section = Section::read(grades, &manifest.folder_names);
    let page = class_page(manifest, records, changes, section.as_ref());
    write_atomic(&grades.join("index.html"), page.as_bytes())
}

/// Writes the gradebook files of `book`'s formats into `grades`, or, when
/// they are not to be written ([`gradebook_unwritten`]), removes any there
/// (an earlier one would be another grading's marks).
fn write_gradebook_files(
    grades: &Path,
    manifest: &Manifest,
    book: &Gradebook,
    records: &[&Record],
) -> io::Result<()> {
    let unwritten = gradebook_unwritten(manifest);
    let class = Class::of(
        &book.roster,
        &book.assignment,
        book.points_possible,
        records,
    );
    for format in &book.formats {
        let path = grades.join(format.suffix());
        match (unwritten, format.render_class(&class)) {
            (None, Some(text)) => write_atomic(&path, text.as_bytes())?,
            _ => match fs::remove_file(&path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            },
        }
    }
    Ok(())
}

/// Why a grading's gradebook files are not written, if they are not: a
/// grading that is incomplete would give students with no mark yet an
/// empty cell, which the gradebook imports over their mark; a shard's are
/// written by the merge of the shards.
pub fn gradebook_unwritten(manifest: &Manifest) -> Option<&'static str> {
    if manifest.shard.is_some() {
        Some("a shard's gradebook is written by the merge of the shards")
    } else if !manifest.complete {
        Some("the grading is incomplete (finish it, and they are written)")
    } else {
        None
    }
}

/// What the marker should know of the grading's roster and gradebook
/// files ([`gradebook::notes`]), as `manifest` and `records` have them;
/// nothing without a roster.
pub fn gradebook_notes(manifest: &Manifest, records: &[Record]) -> Vec<String> {
    let Some(book) = &manifest.gradebook else {
        return Vec::new();
    };
    let files: Vec<&str> = book.formats.iter().map(|f| f.suffix()).collect();
    let records: Vec<&Record> = records.iter().collect();
    let unwritten = if files.is_empty() {
        None
    } else {
        gradebook_unwritten(manifest)
    };
    gradebook::notes(
        &book.roster,
        &manifest.folder_names,
        &records,
        &files.join(", "),
        unwritten,
    )
}

/// The head of `summary.txt`: what was graded, how, and how far.
fn grading_lines(manifest: &Manifest, graded: usize) -> String {
    let to_grade = manifest.names_to_grade().len();
    let part = manifest.extent();
    // A merged grading has no shard and is made by merge: the advice is
    // the same for both, as merge itself cannot be resumed.
    let state = if manifest.complete {
        "complete".to_string()
    } else {
        format!(
            "INCOMPLETE: {graded} of {to_grade} graded; finish it with the grade-all command that made it, run again (it resumes; --resume too) (for a merge: each shard that stopped, then merge again)"
        )
    };
    let gradebook = manifest.gradebook.as_ref().map_or(String::new(), |book| {
        let files: Vec<&str> = book.formats.iter().map(|f| f.suffix()).collect();
        format!(
            "roster: {} ({} students){}\n",
            book.roster.source,
            book.roster.students.len(),
            if files.is_empty() {
                String::new()
            } else {
                format!(
                    "; gradebook: {} ({}, out of {})",
                    files.join(", "),
                    book.assignment,
                    crate::marking::marks::points(book.points_possible)
                )
            }
        )
    });
    format!(
        "grading of {} ({part}), {state}\noptions: {}\n{gradebook}{}\nbegan {}, written {}\n\n",
        manifest.folder,
        if manifest.options.is_empty() {
            "(defaults)".to_string()
        } else {
            manifest.options.to_string()
        },
        manifest.sandbox,
        manifest.started,
        manifest.updated
    )
}
