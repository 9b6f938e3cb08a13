//! The grading's summaries, written from its records: `summary.txt` (what
//! was graded, how and how far, then the table, then what changed since
//! the grading before, for a regrading), `summary.csv`,
//! `summary-fixtures.csv`, `summary.jsonl`, the class page and
//! `grading.json`, each whole.

use crate::publishing::changes::Comparison;
use crate::publishing::grades::{write_atomic, Manifest};
use crate::publishing::page::{class_page, fixture_shape};
use crate::publishing::record::{csv_header, table_header, Record, FIXTURES_CSV_HEADER};
use std::io;
use std::path::Path;

/// Writes a grading's summaries into `grades` from its `manifest` and
/// `records`: `summary.txt` (the manifest in words, the table, then the
/// `changes` since the grading before, for a regrading), `summary.csv`,
/// `summary-fixtures.csv`, `summary.jsonl`, the class page `index.html`
/// ([`class_page`], with the changes too), and `grading.json` last, each
/// whole. The records are written in name order.
pub fn write_summary_files(
    grades: &Path,
    manifest: &Manifest,
    records: &[Record],
    changes: Option<&Comparison>,
) -> io::Result<()> {
    let mut sorted: Vec<&Record> = records.iter().collect();
    sorted.sort_by(|a, b| a.row.name.cmp(&b.row.name));
    let width = sorted
        .iter()
        .map(|r| r.row.name.len())
        .max()
        .unwrap_or(0)
        .max(10);
    let mut table = grading_lines(manifest, sorted.len());
    table += &(table_header(width) + "\n");
    let mut csv = csv_header() + "\n";
    let mut fixtures = String::from(FIXTURES_CSV_HEADER) + "\n";
    let mut json = String::new();
    for record in &sorted {
        table += &(record.row.table_line(width) + "\n");
        csv += &(record.row.csv_line() + "\n");
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
    let page = class_page(manifest, &sorted, &fixture_shape, changes);
    write_atomic(&grades.join("index.html"), page.as_bytes())?;
    write_atomic(&grades.join("grading.json"), manifest.to_json().as_bytes())
}

/// The head of `summary.txt`: what was graded, how, and how far.
fn grading_lines(manifest: &Manifest, graded: usize) -> String {
    let to_grade = manifest.names_to_grade().len();
    let part = match manifest.shard {
        Some(shard) => format!(
            "shard {shard}: {to_grade} of {} submissions",
            manifest.folder_names.len()
        ),
        None => format!("{to_grade} submissions"),
    };
    // A merged grading has no shard and is made by merge: the advice is
    // the same for both, as merge itself cannot be resumed.
    let state = if manifest.complete {
        "complete".to_string()
    } else {
        format!(
            "INCOMPLETE: {graded} of {to_grade} graded; finish it with the grade-all command that made it and --resume (for a merge: each shard that stopped, then merge again)"
        )
    };
    format!(
        "grading of {} ({part}), {state}\noptions: {}\n{}\nbegan {}, written {}\n\n",
        manifest.folder,
        if manifest.options.is_empty() {
            "(defaults)"
        } else {
            &manifest.options
        },
        manifest.sandbox,
        manifest.started,
        manifest.updated
    )
}
