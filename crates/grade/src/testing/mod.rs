//! Tests only: a `Runner` that runs a closure in-process (`fake`), and the
//! engine tested through it (`in_process`).

pub(crate) mod fake;
mod in_process;

use crate::judging::fixture::{Allowed, Category, Fixture};

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
