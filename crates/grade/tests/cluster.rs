//! The engines courses have (issue 36, item 3): `examples/cluster/` holds a
//! Kubernetes Indexed Job, a Slurm array and a GitHub Actions matrix, each
//! calling `examples/cluster/grade-shard.sh`, which maps the engine's index
//! to `--shard I/N`, and the merge after.
//!
//! Here the script runs as four local processes at once, each with one
//! engine's variables as that engine sets them (a Kubernetes pod's
//! `JOB_COMPLETION_INDEX`, Slurm's `SLURM_ARRAY_TASK_*` from `--array=0-3` and
//! from `--array=1-4`, the workflow's `SHARD_INDEX` and `SHARDS`), then
//! merges; the merged folder holds the same files as one whole grading, what
//! varies from run to run masked. A shard run again resumes, and a bad
//! index is refused.

use crate::common;

use common::{grader_bin, masked_files, repo, Scratch};
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

const SUBMISSIONS: [(&str, &str); 7] = [
    ("ann", ""),
    ("bob", "#define NO_ROW_TERM\n"),
    ("cat", "#define BROKEN\n"),
    ("dan", "#define ERRORS_TO_STDERR\n"),
    ("eve", "#define ECHO_FIRST\n"),
    ("fay", "#define INT32_COUNTER\n"),
    ("gus", "#define LENIENT\n"),
];

/// A scratch folder with a few fixtures in `Tests/` and the submissions in
/// `subs/`.
fn class() -> Scratch {
    common::class_folder("cluster", &common::FIVE_FIXTURES, &SUBMISSIONS)
}

/// The shared script, run in `dir` with `env` (and no engine variable of
/// the test's own environment), with `args`.
fn script(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg(repo().join("examples/cluster/grade-shard.sh"))
        .args(args)
        .current_dir(dir)
        .env("PUZZLE_GRADE", grader_bin())
        .env("GRADES_ROOT", "shards");
    for name in [
        "JOB_COMPLETION_INDEX",
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_STEP",
        "SLURM_ARRAY_TASK_COUNT",
        "SHARD_INDEX",
        "SHARDS",
    ] {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    command
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn each_engines_index_grades_its_shard_and_the_merge_is_one_grading() {
    let dir = class();
    let whole = Command::new(grader_bin())
        // With the comparison of the class for similarity: each shard
        // keeps the index of its submissions, and the merge compares the
        // class from them as this grading does (docs/similarity.md).
        .args(["grade-all", "--time-limit", "5", "--jobs", "2", "subs"])
        .args(["--grades", "whole"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(whole.status.code(), Some(1), "{}", stderr(&whole));

    // Four processes at once, one engine's variables each.
    let engines: [(&str, &[(&str, &str)]); 4] = [
        (
            "Kubernetes",
            &[("JOB_COMPLETION_INDEX", "0"), ("SHARDS", "4")],
        ),
        (
            "Slurm --array=0-3",
            &[
                ("SLURM_ARRAY_TASK_ID", "1"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_STEP", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
        ),
        ("GitHub Actions", &[("SHARD_INDEX", "2"), ("SHARDS", "4")]),
        (
            "Slurm --array=1-4",
            &[
                ("SLURM_ARRAY_TASK_ID", "4"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
        ),
    ];
    let children: Vec<_> = engines
        .iter()
        .map(|(engine, env)| {
            let child = script(&dir, env, &["subs", "--time-limit", "5", "--jobs", "1"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            (engine, child)
        })
        .collect();
    for (index, (engine, child)) in children.into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        // Graded, some submissions failing: the job itself succeeded.
        assert_eq!(out.status.code(), Some(0), "{engine}: {}", stderr(&out));
        let shard = format!("{}/4", index + 1);
        assert!(
            stderr(&out).contains(&format!(
                "shard {shard} into shards/shard-{}-of-4",
                index + 1
            )),
            "{engine}: {}",
            stderr(&out)
        );
        let manifest =
            fs::read_to_string(dir.join(format!("shards/shard-{}-of-4/grading.json", index + 1)))
                .unwrap();
        assert!(
            manifest.contains(&format!("\"shard\": \"{shard}\"")),
            "{engine}: {manifest}"
        );
    }

    let out = script(&dir, &[("SHARDS", "4")], &["--merge", "merged"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let merged = masked_files(&dir.join("merged"));
    let whole = masked_files(&dir.join("whole"));
    assert_eq!(
        merged.keys().collect::<Vec<_>>(),
        whole.keys().collect::<Vec<_>>()
    );
    for (name, text) in &whole {
        assert_eq!(&merged[name], text, "merged/{name}");
    }
    assert!(merged.contains_key("index.html") && merged.contains_key("ann.feedback.html"));

    // A pod run again resumes its shard: nothing graded twice, the same
    // files.
    let before = masked_files(&dir.join("shards/shard-1-of-4"));
    let out = script(
        &dir,
        &[("JOB_COMPLETION_INDEX", "0"), ("SHARDS", "4")],
        &["subs", "--time-limit", "5"],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains(", resumed"), "{}", stderr(&out));
    // Nothing graded again (no "graded NAME" line), and the table is the
    // whole shard's, its rows kept from before.
    assert!(
        !stderr(&out)
            .lines()
            .any(|l| l.starts_with("puzzle-grade grade-all: graded ")),
        "{}",
        stderr(&out)
    );
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    let summary = fs::read_to_string(dir.join("shards/shard-1-of-4/summary.txt")).unwrap();
    let rows = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| {
                SUBMISSIONS
                    .iter()
                    .any(|(n, _)| l.starts_with(&format!("{n} ")))
            })
            .map(String::from)
            .collect()
    };
    assert!(!rows(&summary).is_empty(), "{summary}");
    assert_eq!(rows(&table), rows(&summary), "{table}");
    assert_eq!(masked_files(&dir.join("shards/shard-1-of-4")), before);

    // A shard missing: the merge says so and fails.
    fs::remove_dir_all(dir.join("shards/shard-3-of-4")).unwrap();
    let out = script(&dir, &[], &["--merge", "partial"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("shard 3/4 is missing"),
        "{}",
        stderr(&out)
    );

    // Settings that cannot be a shard: refused before any grading.
    for (env, why) in [
        (
            &[("JOB_COMPLETION_INDEX", "4"), ("SHARDS", "4")][..],
            "past the count",
        ),
        (
            &[("SHARD_INDEX", "0")][..],
            "SHARDS (how many shards) is not set",
        ),
        (
            &[("SHARD_INDEX", "-1"), ("SHARDS", "4")][..],
            "whole number",
        ),
        (&[][..], "no shard index"),
    ] {
        let out = script(&dir, env, &["subs"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{env:?}");
        assert!(stderr(&out).contains(why), "{env:?}: {}", stderr(&out));
    }
}

#[test]
fn every_engine_calls_the_one_script_with_its_own_index() {
    let dir = repo().join("examples/cluster");
    // Each engine's file, the variable it gives the script, and the file of
    // its merge step.
    for (file, index, merge) in [
        (
            "kubernetes-job.yaml",
            "completionMode: Indexed",
            "kubernetes-merge.yaml",
        ),
        ("slurm-array.sh", "#SBATCH --array=0-63", "slurm-array.sh"),
        (
            "github-actions.yml",
            "SHARD_INDEX: ${{ strategy.job-index }}",
            "github-actions.yml",
        ),
    ] {
        let text = fs::read_to_string(dir.join(file)).unwrap();
        assert!(text.contains("examples/cluster/grade-shard.sh"), "{file}");
        assert!(text.contains(index), "{file}: {index}");
        let merge = fs::read_to_string(dir.join(merge)).unwrap();
        assert!(
            merge.contains("examples/cluster/grade-shard.sh --merge")
                || merge.contains("- examples/cluster/grade-shard.sh\n            - --merge"),
            "{file}: no merge step"
        );
    }
    let github = fs::read_to_string(dir.join("github-actions.yml")).unwrap();
    assert!(github.contains("SHARDS: ${{ strategy.job-total }}"));
}
