//! `puzzle-grade merge --into DIR SHARD_DIR...`: one grading made of the
//! gradings of its shards (`grade-all --shard I/N`, each on a machine of its
//! own), as if it had run whole: every summary rebuilt from the shards'
//! records, each submission's files copied.
//!
//! The shards must be of one grading: the same options (else the merge is
//! refused). A submission graded in two shards, one that no shard graded, a
//! shard missing or one that did not finish is a problem named to the
//! marker, and the merged grading is then marked incomplete; nothing is
//! kept silently.

use super::grades::{
    copy_atomic, remove_grading_files, remove_submission_files, utc_now, Earlier, Manifest,
    SUBMISSION_FILES,
};
use super::record::Record;
use super::submissions::write_summary_files;
use std::collections::BTreeMap;
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
}

/// Merges the gradings in the folders `shards` into the folder `into`
/// (an earlier grading there is replaced). An error of kind
/// `InvalidInput` is a merge refused: a folder that holds no grading,
/// shards of different options, or `into` one of the shards.
pub fn merge(into: &Path, shards: &[PathBuf]) -> io::Result<Merged> {
    let refuse = |why: String| io::Error::new(io::ErrorKind::InvalidInput, why);
    let mut gradings = Vec::new();
    for dir in shards {
        let earlier = Earlier::read(dir)?;
        let Some(manifest) = earlier.manifest else {
            return Err(refuse(format!(
                "{}: no grading.json: not the grades folder of a grading",
                dir.display()
            )));
        };
        if same_folder(dir, into) {
            return Err(refuse(format!(
                "{}: --into is one of the shards",
                into.display()
            )));
        }
        gradings.push((dir.clone(), manifest, earlier.records));
    }
    let first = &gradings[0].1;
    if let Some((dir, other, _)) = gradings.iter().find(|(_, m, _)| m.options != first.options) {
        return Err(refuse(format!(
            "{} was graded with other options ({}) than {} ({}): the marks would not compare",
            dir.display(),
            other.options,
            gradings[0].0.display(),
            first.options
        )));
    }

    let mut problems = Vec::new();
    // Every shard of each count, once.
    let mut seen: BTreeMap<(u32, u32), &Path> = BTreeMap::new();
    for (dir, manifest, _) in &gradings {
        if !manifest.complete {
            problems.push(format!(
                "{} is incomplete (its grading stopped): resume it with --resume",
                dir.display()
            ));
        }
        if let Some(shard) = manifest.shard {
            if let Some(other) = seen.insert((shard.count, shard.index), dir) {
                problems.push(format!(
                    "{} and {} are both shard {shard}",
                    other.display(),
                    dir.display()
                ));
            }
        }
    }
    let counts: Vec<u32> = seen.keys().map(|(count, _)| *count).collect();
    for count in counts
        .iter()
        .copied()
        .collect::<std::collections::BTreeSet<_>>()
    {
        for index in 1..=count {
            if !seen.contains_key(&(count, index)) {
                problems.push(format!("shard {index}/{count} is missing"));
            }
        }
    }

    // The records, each from the first shard that has it.
    let mut records: BTreeMap<String, (Record, &Path)> = BTreeMap::new();
    for (dir, _, shard_records) in &gradings {
        for record in shard_records {
            let name = record.row.name.clone();
            match records.get(&name) {
                Some((_, other)) => problems.push(format!(
                    "{name} is graded in both {} and {}: {}'s grading is kept",
                    other.display(),
                    dir.display(),
                    other.display()
                )),
                None => {
                    records.insert(name, (record.clone(), dir));
                }
            }
        }
    }
    let mut folder_names: Vec<String> = gradings
        .iter()
        .flat_map(|(_, m, _)| m.folder_names.iter().cloned())
        .collect();
    folder_names.sort();
    folder_names.dedup();
    let expected: Vec<String> = gradings
        .iter()
        .flat_map(|(_, m, _)| m.names_to_grade())
        .collect();
    let missing: Vec<&String> = folder_names
        .iter()
        .filter(|n| expected.contains(n) && !records.contains_key(*n))
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "{} submission(s) graded in no shard: {}",
            missing.len(),
            missing
                .iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(not_whole) = folder_names.iter().find(|n| !expected.contains(n)) {
        problems.push(format!(
            "no shard takes {not_whole} (the shards are not all of one count, or a shard is missing)"
        ));
    }

    // The merged folder: an earlier grading there replaced.
    fs::create_dir_all(into)?;
    let earlier = Earlier::read(into)?;
    remove_submission_files(into, &earlier.names)?;
    remove_grading_files(into)?;
    for (name, (_, dir)) in &records {
        copy_submission_files(dir, into, name)?;
    }
    // The distinct values, in order; two that differ only in their numbers
    // (the uids a sandbox line names depend on the process) are one.
    let distinct = |values: Vec<&String>| {
        let mut kept: Vec<&String> = Vec::new();
        let key = |v: &str| v.replace(|c: char| c.is_ascii_digit(), "");
        for value in values {
            if !kept.iter().any(|k| key(k) == key(value)) {
                kept.push(value);
            }
        }
        kept.iter()
            .map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let manifest = Manifest {
        folder: distinct(gradings.iter().map(|(_, m, _)| &m.folder).collect()),
        folder_names,
        options: first.options.clone(),
        sandbox: distinct(gradings.iter().map(|(_, m, _)| &m.sandbox).collect()),
        shard: None,
        started: gradings
            .iter()
            .map(|(_, m, _)| m.started.clone())
            .min()
            .unwrap_or_else(utc_now),
        updated: utc_now(),
        complete: problems.is_empty(),
    };
    let records: Vec<Record> = records.into_values().map(|(r, _)| r).collect();
    write_summary_files(into, &manifest, &records)?;
    Ok(Merged {
        submissions: records.len(),
        problems,
    })
}

/// Whether `a` and `b` name one folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Copies the files of the submission `name` from the grades folder `from`
/// into `to`.
fn copy_submission_files(from: &Path, to: &Path, name: &str) -> io::Result<()> {
    for suffix in SUBMISSION_FILES {
        let source = from.join(format!("{name}{suffix}"));
        let target = to.join(format!("{name}{suffix}"));
        if source.is_dir() {
            fs::create_dir_all(&target)?;
            for entry in fs::read_dir(&source)? {
                let entry = entry?;
                if entry.file_type()?.is_file() {
                    copy_atomic(&entry.path(), &target.join(entry.file_name()))?;
                }
            }
        } else if source.is_file() {
            copy_atomic(&source, &target)?;
        }
    }
    Ok(())
}
