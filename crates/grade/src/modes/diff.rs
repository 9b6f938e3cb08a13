//! `puzzle-grade diff OLD NEW`: what changed from the grading in the
//! grades folder `OLD` to the one in `NEW`, and why: the same
//! [`Comparison`] a regrading writes into its `summary.txt`, for any two
//! gradings, so that a marker can grade into a new folder, compare, and
//! only then put it in place (the rejudging workflow, `docs/grading-guide.md`).
//!
//! Both folders are read as a stranger's ([`Earlier::read`]): every file
//! opened beneath the folder without following a link, up to a bound;
//! names checked as strictly as folder names; a record whose numbers
//! disagree with its fixtures refused ([`crate::publishing::record::Record::check`]).
//! A folder that holds no grading, a `grading.json` that cannot be read,
//! or a record refused, is an error: a
//! comparison of part of a grading would say marks are the same that may
//! not be.

use crate::publishing::changes::{compare, describe, Comparison, Grading};
use crate::publishing::grades::Earlier;
use crate::shared::error::{Error, Refused};
use std::fs;
use std::path::Path;

/// The gradings in the grades folders `old` and `new` compared. A
/// [`Refused`] error is a folder that cannot be read as a grading (no
/// grading in it, a record refused: each named).
pub fn diff(old: &Path, new: &Path) -> Result<Comparison, Error> {
    let before = read(old)?;
    let after = read(new)?;
    Ok(compare(
        format!(
            "{} (in {})",
            describe(before.manifest.as_ref()),
            old.display()
        ),
        Grading {
            manifest: before.manifest.as_ref(),
            records: &before.records,
        },
        Grading {
            manifest: after.manifest.as_ref(),
            records: &after.records,
        },
    ))
}

/// The grading in `dir`, read whole, or why not (also `similar
/// --grades`'s reading).
pub(crate) fn read(dir: &Path) -> Result<Earlier, Error> {
    if !dir.is_dir() {
        return Err(Refused::new(dir.display(), "no such folder").into());
    }
    let earlier = Earlier::read(dir)?;
    // Earlier::read passes over a grading.json it cannot read (a grading
    // replacing it needs none); a comparison does.
    if earlier.manifest.is_none() && fs::symlink_metadata(dir.join("grading.json")).is_ok() {
        let why = earlier
            .manifest_refused
            .as_ref()
            .map_or(String::new(), |why| format!(": {why}"));
        return Err(Refused::says(
            format!("{}/grading.json", dir.display()),
            format!("cannot be read as a grading's{why}"),
        )
        .into());
    }
    if !earlier.exists() {
        return Err(Refused::new(
            dir.display(),
            "no grading.json or summary.jsonl: not the grades folder of a grading",
        )
        .into());
    }
    if !earlier.refused.is_empty() {
        return Err(Refused::new(dir.display(), earlier.refused.to_string()).into());
    }
    Ok(earlier)
}
