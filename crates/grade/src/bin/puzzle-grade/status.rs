//! How `puzzle-grade` ends and speaks, each written once: its exit
//! statuses ([`Status`], listed by [`STATUSES`], from which `--help`'s list
//! is made and against which `docs/grading-reference.md`'s is checked), and every
//! message it writes on stderr, in one shape ([`message`]; `main.rs`'s
//! `say` writes one). It stands on nothing else of the binary.
//!
//! The shape: `puzzle-grade MODE: what` once the mode is known (notes,
//! warnings, errors and progress alike), `puzzle-grade: what` before it is
//! (an unknown mode, no mode). A word of the command line a message is
//! about (an unknown option, a bad value) is shown in single quotes, as
//! `puzzle` shows it; the names a message suggests are not quoted.

use std::fmt::Display;
use std::process::ExitCode;

/// How `puzzle-grade` ends, but `run`, which ends as its program did
/// (`Mode::Run`'s help and [`RUN_STATUSES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything passed.
    Passed,
    /// Something graded or compared failed.
    Failed,
    /// A bad command line, or the work could not be done.
    Unusable,
    /// Some submissions could not be graded (the others were).
    NotGraded,
    /// Signal N stopped it.
    Signalled(i32),
}

/// Every exit status of `puzzle-grade` (but `run`'s), in words: the help
/// lists these rows, and `docs/grading-reference.md`'s table is checked against them.
pub const STATUSES: &[(Status, &str, &str)] = &[
    (
        Status::Passed,
        "0",
        "everything passed (grade, grade-all, check), nothing found (fuzz), no marks changed (diff), nothing to change (check-environment)",
    ),
    (
        Status::Failed,
        "1",
        "something failed (a fixture, a submission), a fault found (fuzz), marks changed (diff), a submission missing from the shards (merge), something to change (check-environment)",
    ),
    (
        Status::Unusable,
        "2",
        "a bad command line, or the work could not be done (a folder that is not a grading, a grading refused): stderr says why",
    ),
    (
        Status::NotGraded,
        "3",
        "grade-all: some submissions could not be graded (their rows say why); the others were",
    ),
    (
        Status::Signalled(0),
        "128+N",
        "signal N stopped it (130 for Ctrl-C, 143 for SIGTERM); grade-all's files say how far it went",
    ),
];

/// `run`'s exit statuses, in words: its help lists these rows. They are
/// those of GNU `timeout` and `env` (124 to 127), which a program can
/// exit with too: `--meta FILE` tells the two apart.
pub const RUN_STATUSES: &[(&str, &str)] = &[
    ("N", "the program exited with status N"),
    (
        "128+N",
        "signal N killed it (153: the file-size limit, SIGXFSZ)",
    ),
    ("124", "it was killed at the time limit"),
    ("125", "the memory or the process limit stopped it"),
    ("126", "the sandbox could not run it"),
    ("127", "PROGRAM was not found"),
    ("2", "a bad command line"),
];

impl Status {
    /// Its number.
    pub fn code(self) -> u8 {
        match self {
            Status::Passed => 0,
            Status::Failed => 1,
            Status::Unusable => 2,
            Status::NotGraded => 3,
            Status::Signalled(signum) => (128 + signum).clamp(0, 255) as u8,
        }
    }

    /// As `main` returns it.
    pub fn exit(self) -> ExitCode {
        ExitCode::from(self.code())
    }
}

/// `what` in the shape of every message: `puzzle-grade MODE: what`, or
/// `puzzle-grade: what` before the mode is known (`mode` is its name).
pub fn message(mode: Option<&str>, what: &dyn Display) -> String {
    match mode {
        Some(mode) => format!("puzzle-grade {mode}: {what}"),
        None => format!("puzzle-grade: {what}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_one_row_and_its_own_number() {
        for (status, shown, _) in STATUSES {
            if let Status::Signalled(_) = status {
                assert_eq!(*shown, "128+N");
                assert_eq!(Status::Signalled(2).code(), 130);
            } else {
                assert_eq!(shown.parse::<u8>().unwrap(), status.code());
            }
        }
        let codes: Vec<u8> = STATUSES.iter().map(|(s, _, _)| s.code()).collect();
        let mut unique = codes.clone();
        unique.dedup();
        assert_eq!(codes, unique);
    }

    #[test]
    fn messages_have_one_shape() {
        assert_eq!(
            message(Some("grade-all"), &"graded a: 1 passed"),
            "puzzle-grade grade-all: graded a: 1 passed"
        );
        assert_eq!(message(None, &"no MODE"), "puzzle-grade: no MODE");
    }

    /// `docs/grading-reference.md`'s table of exit statuses is this one's rows.
    #[test]
    fn the_docs_list_the_statuses_of_the_table() {
        let docs = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/grading-reference.md"
        ))
        .unwrap();
        let mut table = String::from("| status | when |\n|---|---|\n");
        for (_, status, words) in STATUSES {
            table += &format!("| {status} | {words} |\n");
        }
        assert!(
            docs.contains(&table),
            "docs/grading-reference.md lacks:\n{table}"
        );
        let mut run = String::from("| `run`'s status | when |\n|---|---|\n");
        for (status, words) in RUN_STATUSES {
            run += &format!("| {status} | {words} |\n");
        }
        assert!(
            docs.contains(&run),
            "docs/grading-reference.md lacks:\n{run}"
        );
    }
}
