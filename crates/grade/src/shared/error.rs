//! The library's errors: a [`Refused`] input (what was refused, why, and
//! the offending value), kept apart from a system's I/O error by
//! [`Error`], as rust-csv's `Error::is_io_error` keeps a read that failed
//! apart from a record that was bad.
//!
//! A refusal is the grader saying no to what it was given: a command
//! line's value, a roster's line, a grading's file, a grades folder that
//! holds another grading. An I/O error is the system failing the grader: a
//! disk full, a permission, a folder gone. The binary tells them apart by
//! type ([`Error::refused`]), never by an `io::ErrorKind`: a system's
//! `EINVAL` is an I/O error, whatever its kind says.

use crate::shared::text::one_line;
use std::fmt;
use std::io;

/// Something the grader was given, refused: what (a file, a line, an
/// option, a folder, as the message names it), the offending value (when
/// one value is to blame) and why.
///
/// Its text is `WHAT: WHY` ([`Refused::new`]), `WHAT WHY` when the reason
/// is said of what was refused ([`Refused::says`]: `grades holds the
/// grading of /x, not of /y`), or `WHAT: 'VALUE' WHY` when a value is
/// named ([`Refused::value`]: `--format: 'canvasx' is not one of ...`); a
/// refusal inside another thing is named within it ([`Refused::within`]:
/// `roster.csv: line 3: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    what: String,
    /// What comes between `what` and the rest: `": "`, or `" "` when the
    /// reason is a predicate of `what`.
    joint: &'static str,
    value: Option<String>,
    why: String,
}

impl Refused {
    /// `what` refused, and why (a whole clause: `is over 16 MiB`, `no
    /// grading.json: not the grades folder of a grading`).
    pub fn new(what: impl fmt::Display, why: impl Into<String>) -> Refused {
        Refused {
            what: what.to_string(),
            joint: ": ",
            value: None,
            why: why.into(),
        }
    }

    /// `what` refused, and why, said of it (`is being written by another
    /// grading`, `holds no submission`): `WHAT WHY`.
    pub fn says(what: impl fmt::Display, why: impl Into<String>) -> Refused {
        Refused {
            joint: " ",
            ..Refused::new(what, why)
        }
    }

    /// The value `value` of `what` refused, and why (what it is not: `is
    /// not one of gradescope, junit`). The value is shown on one line,
    /// every hidden character escaped: it may be anyone's.
    pub fn value(what: impl fmt::Display, value: &str, why: impl Into<String>) -> Refused {
        Refused {
            value: Some(one_line(value)),
            ..Refused::new(what, why)
        }
    }

    /// A refusal whose whole text is `why`: no one thing to name before it.
    pub fn because(why: impl Into<String>) -> Refused {
        Refused::new("", why)
    }

    /// The same refusal, named within `outer` (a file's name before its
    /// line's): `outer: what: why`.
    pub fn within(self, outer: impl fmt::Display) -> Refused {
        if self.what.is_empty() {
            return Refused {
                what: outer.to_string(),
                joint: ": ",
                ..self
            };
        }
        Refused {
            what: format!("{outer}: {}", self.what),
            ..self
        }
    }

    /// What was refused, as the message names it (empty when nothing is
    /// named).
    pub fn what(&self) -> &str {
        &self.what
    }

    /// The offending value, when one is to blame.
    pub fn offending(&self) -> Option<&str> {
        self.value.as_deref()
    }

    /// Why it was refused.
    pub fn why(&self) -> &str {
        &self.why
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.what.is_empty() {
            write!(f, "{}{}", self.what, self.joint)?;
        }
        if let Some(value) = &self.value {
            write!(f, "'{value}' ")?;
        }
        f.write_str(&self.why)
    }
}

impl std::error::Error for Refused {}

/// What a mode of the library can fail with: the system's I/O error, or a
/// refusal of what it was given.
#[derive(Debug)]
pub enum Error {
    /// The system failed: a read, a write, a folder made.
    Io(io::Error),
    /// What it was given was refused.
    Refused(Refused),
}

impl Error {
    /// Whether the system failed (not a refusal).
    pub fn is_io_error(&self) -> bool {
        matches!(self, Error::Io(_))
    }

    /// The refusal, when it is one.
    pub fn refused(&self) -> Option<&Refused> {
        match self {
            Error::Refused(refused) => Some(refused),
            Error::Io(_) => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => e.fmt(f),
            Error::Refused(refused) => refused.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            Error::Refused(refused) => Some(refused),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Io(e)
    }
}

impl From<Refused> for Error {
    fn from(refused: Refused) -> Error {
        Error::Refused(refused)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_what_its_value_and_why_and_keeps_them_apart() {
        let r = Refused::value("--shard", "3/2", "is not I/N with 1 <= I <= N");
        assert_eq!(r.to_string(), "--shard: '3/2' is not I/N with 1 <= I <= N");
        assert_eq!(
            (r.what(), r.offending(), r.why()),
            ("--shard", Some("3/2"), "is not I/N with 1 <= I <= N")
        );
        // A value from a stranger is one line, whatever it holds.
        let r = Refused::value("line 2", "a\nb\u{202E}", "is no tile");
        assert_eq!(r.to_string(), "line 2: 'a\\nb\\u{202E}' is no tile");
        let r = Refused::new("line 3", "the folder is missing").within("roster.csv");
        assert_eq!(r.to_string(), "roster.csv: line 3: the folder is missing");
        assert_eq!(r.what(), "roster.csv: line 3");
        let r = Refused::because("no MODE").within("puzzle-grade");
        assert_eq!(r.to_string(), "puzzle-grade: no MODE");
        let r = Refused::says("/g", "holds no grading").within("grade-all");
        assert_eq!(r.to_string(), "grade-all: /g holds no grading");
    }

    #[test]
    fn a_systems_error_is_not_a_refusal_whatever_its_kind() {
        // EINVAL from the system reads as InvalidInput: still the system's.
        let e = Error::from(io::Error::from_raw_os_error(22));
        assert!(e.is_io_error() && e.refused().is_none());
        let e = Error::from(Refused::new("grades", "holds another grading"));
        assert!(!e.is_io_error());
        assert_eq!(e.refused().map(Refused::what), Some("grades"));
        assert_eq!(e.to_string(), "grades: holds another grading");
    }
}
