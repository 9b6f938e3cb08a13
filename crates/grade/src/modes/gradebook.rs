//! `puzzle-grade gradebook DIR`: the gradebook files of a grading already
//! made, written from its records. The roster, the assignment's name and
//! the class's formats decide no mark, so a marker who forgot them, or
//! fixed the roster, gets the files without grading anything again: what
//! the command gives replaces what the grading recorded, the rest is kept
//! ([`GradebookAsked::over`]), and the grading's files are rewritten from
//! its records as a grading writes them (`grading.json` records the
//! gradebook, so that a later `--resume` or `merge` keeps it; `summary.csv`
//! names each submission's student; `canvas.csv` and `moodle.csv` for a
//! complete grading).
//!
//! The grades folder is read as a stranger's ([`Earlier::read`]) under its
//! lock ([`GradesLock`]); a grading whose records cannot all be read is
//! refused (its summaries would lose them), and so is a shard (its
//! students of the other shards have no mark: `merge` writes the class's
//! gradebook).

use crate::publishing::changes::since_kept;
use crate::publishing::grades::{finish_keeping, utc_now, Earlier, GradebookAsked, GradesLock};
use crate::publishing::summaries::{gradebook_notes, gradebook_unwritten, write_summary_files};
use crate::shared::error::{Error, Refused};
use std::path::Path;

/// What writing a grading's gradebook did: what the marker should know
/// (the folder's state, the roster against the grading, the files not
/// written and why), one sentence each, and the gradebook files written.
#[derive(Debug)]
pub struct Written {
    /// What the marker should know.
    pub notes: Vec<String>,
    /// The gradebook files written (`canvas.csv`, `moodle.csv`).
    pub files: Vec<&'static str>,
}

/// Writes the gradebook of the grading in `grades` as `asked` amends it.
/// Refused ([`Error::Refused`]): no grading in the folder, a shard's, one
/// with records that cannot be read, what is asked needing a roster the
/// grading lacks, or no mark to take the points possible from.
pub fn write_gradebook(grades: &Path, asked: GradebookAsked) -> Result<Written, Error> {
    let refuse = |why: String| Error::from(Refused::because(why));
    let shown = grades.display();
    if !grades.is_dir() {
        return Err(refuse(format!("{shown} is not a grades folder")));
    }
    let _lock = GradesLock::take(grades)?;
    let mut notes: Vec<String> = finish_keeping(grades)?.into_iter().collect();
    let earlier = Earlier::read(grades)?;
    let Some(mut manifest) = earlier.manifest else {
        return Err(refuse(format!(
            "{shown} holds no grading (no grading.json that can be read): grade with grade-all first"
        )));
    };
    if let Some(shard) = manifest.shard {
        return Err(refuse(format!(
            "{shown} holds shard {shard} of a grading: its students of the other shards have no mark there; merge the shards (merge --into DIR), then write the merged grading's gradebook"
        )));
    }
    if let Some(first) = earlier.refused.first.first() {
        return Err(refuse(format!(
            "{shown}: {} line(s) of summary.jsonl cannot be read ({first}): grade them again with grade-all --resume first",
            earlier.refused.count
        )));
    }
    let recorded = manifest.gradebook.take();
    // The scheme's maximum, as every marked record has it (the grading
    // recorded no scheme of its own).
    let points = earlier
        .records
        .iter()
        .find_map(|r| r.row.marks.as_ref().map(|m| m.max))
        .or(recorded.as_ref().map(|b| b.points_possible))
        .ok_or_else(|| {
            refuse(format!(
                "{shown}: no submission of the grading was marked, so the points possible are not known: grade again with grade-all and --roster"
            ))
        })?;
    manifest.gradebook = asked.over(recorded.as_ref(), points)?;
    let Some(book) = &manifest.gradebook else {
        return Err(refuse(format!(
            "{shown}: the grading has no roster: --roster FILE (which student each folder is)"
        )));
    };
    manifest.updated = utc_now();
    let files = match gradebook_unwritten(&manifest) {
        None => book.formats.iter().map(|f| f.suffix()).collect(),
        Some(_) => Vec::new(),
    };
    // The changes the summaries list are still those since the grading
    // previous/ keeps, when it is of the same folder.
    let changes = since_kept(grades, &manifest, &earlier.records)?;
    write_summary_files(grades, &manifest, &earlier.records, changes.as_ref())?;
    notes.extend(gradebook_notes(&manifest, &earlier.records));
    Ok(Written { notes, files })
}
