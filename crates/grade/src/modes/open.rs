//! `open`: the fixtures whose answer depends on a choice the assignment
//! leaves open, each with the choices and what it allows.

use crate::judging::fixture::Fixture;
use crate::judging::open_choice::in_words;
use std::io::{self, Write};

/// Writes a line on `out` for each of `fixtures` whose answer depends on an
/// open choice: `SHOWN: CHOICES: ALLOWED`.
pub fn open_choices(fixtures: &[Fixture], out: &mut dyn Write) -> io::Result<()> {
    for f in fixtures.iter().filter(|f| !f.choices.is_empty()) {
        writeln!(out, "{}: {}: {}", f.shown, in_words(&f.choices), f.allowed)?;
    }
    out.flush()
}
