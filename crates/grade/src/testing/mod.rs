//! Tests only: a `Runner` that runs a closure in-process (`fake`), and the
//! engine tested through it (`in_process`).

pub(crate) mod fake;
mod in_process;

use crate::judging::fixture::{Allowed, Category, Fixture};
use puzzle_sandbox::Limits;
use std::time::Duration;

/// A run's limits for the unit tests: `seconds`, 1 GiB, 64 processes, 1
/// MiB files, 64 open files, no make-up.
pub(crate) fn limits(seconds: u64) -> Limits {
    Limits {
        wall: Duration::from_secs(seconds),
        make_up: Duration::ZERO,
        memory: 1 << 30,
        processes: 64,
        file_size: 1 << 20,
        open_files: 64,
        folder: None,
    }
}

/// A fixture called `shown` (`Tests/bad_x.inp`), of the category its name
/// says and allowed only that, with nothing read from disk.
pub(crate) fn named_fixture(shown: &str) -> Fixture {
    let named = Category::of_name(shown.rsplit('/').next().unwrap_or(shown));
    Fixture {
        shown: shown.into(),
        path: std::path::PathBuf::from(shown),
        size: 1,
        digest: 0,
        named,
        allowed: Allowed::Only(named),
        choices: Vec::new(),
        expected: Vec::new(),
    }
}

// What the unit tests write as words, read as the types the records hold
// (a word no record could hold panics: it is a test's mistake).
macro_rules! from_words {
    ($($type:ty: $parse:expr, $what:literal;)*) => {$(
        impl From<&str> for $type {
            fn from(word: &str) -> Self {
                $parse(word).expect($what)
            }
        }
    )*};
}

from_words! {
    crate::shared::name::Name: |w| crate::shared::name::Name::parse(w).ok(), "a name";
    crate::judging::class::Outcome: crate::judging::class::Outcome::parse, "passed or a class";
    crate::judging::class::Class: crate::judging::class::Class::parse, "a class's name";
    Category: Category::parse, "bad, sol or unsol";
    crate::marking::marks::Visibility: crate::marking::marks::Visibility::parse, "a visibility";
    crate::publishing::options::Options:
        |t| crate::publishing::options::Options::parse(t, crate::publishing::json::VERSION).ok(),
        "options a grading of this version records";
}
