//! The fixtures: where they are found, and what each allows a program to
//! answer, as the reference (this crate) decides.

use crate::judging::open_choice::{lenient_reading, OpenChoice};
use puzzle::board_adt::Puzzle;
use puzzle::input::{read_puzzle, ReadError};
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// What a fixture's name says, or what a program answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Invalid input: rejected with a message and EXIT_FAILURE.
    Bad,
    /// `solvable`.
    Sol,
    /// `unsolvable`.
    Unsol,
}

impl Category {
    /// The three, in a report's column order.
    pub const ALL: [Category; 3] = [Category::Bad, Category::Sol, Category::Unsol];

    /// The category a fixture's file name gives: `bad*`, `unsol*`, else `sol*`.
    pub fn of_name(name: &str) -> Category {
        if name.starts_with("bad") {
            Category::Bad
        } else if name.starts_with("unsol") {
            Category::Unsol
        } else {
            Category::Sol
        }
    }

    /// The category named `name` ([`Category::name`]).
    pub fn parse(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The column's name.
    pub fn name(self) -> &'static str {
        match self {
            Category::Bad => "bad",
            Category::Sol => "sol",
            Category::Unsol => "unsol",
        }
    }

    /// The answer in a report's words: `an error`, `'solvable'`, `'unsolvable'`.
    pub fn answer(self) -> &'static str {
        match self {
            Category::Bad => "an error",
            Category::Sol => "'solvable'",
            Category::Unsol => "'unsolvable'",
        }
    }
}

/// The answers a fixture allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// Exactly this one.
    Only(Category),
    /// A rejection, or acceptance with this verdict: the fixture is open.
    ErrorOr(Category),
    /// None: the reference does not answer as the name says (the why).
    NotGraded(String),
}

impl Allowed {
    /// Whether `answer` is allowed.
    pub fn allows(&self, answer: Category) -> bool {
        match self {
            Allowed::Only(c) => *c == answer,
            Allowed::ErrorOr(c) => answer == Category::Bad || *c == answer,
            Allowed::NotGraded(_) => false,
        }
    }
}

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Allowed::Only(c) => f.write_str(c.answer()),
            Allowed::ErrorOr(c) => write!(f, "an error or {}", c.answer()),
            Allowed::NotGraded(_) => f.write_str("nothing"),
        }
    }
}

/// One fixture, ready to grade a program on.
#[derive(Clone, Debug)]
pub struct Fixture {
    /// Its path as reports show it (as found, without a leading `./`).
    pub shown: String,
    /// Its path.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// The FNV-1a digest of its bytes, which a grading records.
    pub digest: u64,
    /// What its name says.
    pub named: Category,
    /// What a program may answer.
    pub allowed: Allowed,
    /// The open choices it holds, when they change its answer.
    pub choices: Vec<OpenChoice>,
    /// The reference's output on it.
    pub expected: Vec<u8>,
}

impl Fixture {
    /// The seconds a run on it may take: 10 plus 60 a MB (a program that
    /// counts inversions pair by pair is graded on its verdict, not its
    /// speed), or `fixed`.
    pub fn time_limit(&self, fixed: Option<u64>) -> u64 {
        fixed.unwrap_or(10 + (60 * self.size).div_ceil(1_000_000))
    }

    /// The most a run on it may write to stdout or stderr: twice the
    /// fixture and 1 MiB, in whole blocks of 512 bytes (a right answer is
    /// never longer than the fixture and a few bytes).
    pub fn output_cap(&self) -> u64 {
        (2 * self.size + (1 << 20)).div_ceil(512) * 512
    }
}

/// The fixture files (named `bad*`, `sol*` or `unsol*`) under each of
/// `folders`, searched recursively (symbolic links not followed), in byte
/// order of their paths as found.
pub fn find_fixtures(folders: &[PathBuf]) -> io::Result<Vec<(String, PathBuf)>> {
    let mut found = Vec::new();
    for folder in folders {
        walk(folder, &mut found)?;
    }
    let mut found: Vec<(String, PathBuf)> = found
        .into_iter()
        .map(|path| {
            let text = path.to_string_lossy();
            let shown = text.strip_prefix("./").unwrap_or(&text).to_string();
            (shown, path)
        })
        .collect();
    found.sort_by(|a, b| a.1.as_os_str().cmp(b.1.as_os_str()));
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let kind = entry.file_type()?;
        let path = dir.join(entry.file_name());
        if kind.is_dir() {
            walk(&path, found)?;
        } else if kind.is_file() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if ["bad", "sol", "unsol"].iter().any(|p| name.starts_with(p)) {
                found.push(path);
            }
        }
    }
    Ok(())
}

/// The reference's answer to `input`: its stdout and exit status, as
/// `puzzle < input` gives them.
pub fn reference_answer(input: &[u8]) -> (Vec<u8>, i32) {
    let mut out = Vec::new();
    match read_puzzle(input) {
        Ok(puzzle) => {
            write(&mut out, &puzzle);
            (out, 0)
        }
        Err(ReadError::Invalid(error)) => {
            let _ = puzzle::write_error(&mut out, None, &error);
            (out, 1)
        }
        Err(ReadError::Io(error)) => (format!("{error}").into_bytes(), 1),
    }
}

fn write(out: &mut Vec<u8>, puzzle: &Puzzle) {
    // Writing to memory cannot fail.
    let _ = puzzle::write_verdict(out, puzzle);
}

/// The category of a reference's answer.
fn category_of(out: &[u8], status: i32) -> Option<Category> {
    let last = crate::shared::text::lines(out)
        .last()
        .copied()
        .unwrap_or(b"");
    match status {
        1 if out.starts_with(b"error: ") => Some(Category::Bad),
        0 if last == b"solvable" => Some(Category::Sol),
        0 if last == b"unsolvable" => Some(Category::Unsol),
        _ => None,
    }
}

/// `path` read, and what it allows: its name's answer when the reference
/// gives it; with `strict`, nothing else; else, when it holds open choices,
/// also the answer of its lenient reading (or, when that is an error too,
/// only an error).
pub fn prepare(shown: String, path: PathBuf, strict: bool) -> io::Result<Fixture> {
    let bytes = fs::read(&path)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let named = Category::of_name(&name);
    let (expected, status) = reference_answer(&bytes);
    let mut choices = Vec::new();
    let allowed = match category_of(&expected, status) {
        Some(answer) if answer == named => {
            let (lenient, found) = if strict {
                (Vec::new(), Vec::new())
            } else {
                lenient_reading(&bytes)
            };
            if found.is_empty() {
                Allowed::Only(named)
            } else {
                let (out, status) = reference_answer(&lenient);
                match category_of(&out, status) {
                    Some(loose) if loose != Category::Bad => {
                        choices = found;
                        Allowed::ErrorOr(loose)
                    }
                    // Bad under both readings: graded as bad.
                    _ => Allowed::Only(Category::Bad),
                }
            }
        }
        _ => Allowed::NotGraded(format!(
            "the reference answers {} (exit status {status})",
            crate::shared::text::quote(&expected, 1, 1, false)
        )),
    };
    Ok(Fixture {
        shown,
        size: bytes.len() as u64,
        digest: crate::shared::digest::fnv1a(&bytes),
        path,
        named,
        allowed,
        choices,
        expected,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str, text: &[u8], strict: bool) -> Fixture {
        let dir = std::env::temp_dir().join(format!("puzzle-fixture-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        let fixture = prepare(name.into(), path.clone(), strict).unwrap();
        fs::remove_file(path).unwrap();
        fixture
    }

    #[test]
    fn a_plain_fixture_allows_its_name() {
        let f = fixture("sol_a", b"1 2 3 b\n1 2 b 3\n", false);
        assert_eq!(f.allowed, Allowed::Only(Category::Sol));
        assert_eq!(f.expected, b"start: 1 2 3 b\ngoal: 1 2 b 3\nsolvable\n");
        assert_eq!(f.time_limit(None), 11);
        assert_eq!(f.output_cap(), 1_048_576 + 512);
    }

    #[test]
    fn an_open_fixture_allows_an_error_too_but_not_with_strict() {
        let f = fixture("bad_x", b"1 2 3 b\n1 2 b 3\nmore\n", false);
        assert_eq!(f.allowed, Allowed::ErrorOr(Category::Sol));
        assert_eq!(f.choices, vec![OpenChoice::LinesAfter]);
        assert_eq!(f.allowed.to_string(), "an error or 'solvable'");
        let f = fixture("bad_x", b"1 2 3 b\n1 2 b 3\nmore\n", true);
        assert_eq!(f.allowed, Allowed::Only(Category::Bad));
        // Bad under both readings.
        let f = fixture("bad_y", b"+1 2 3 b\n1 2 b 1\n", false);
        assert_eq!(f.allowed, Allowed::Only(Category::Bad));
        assert!(f.choices.is_empty());
    }

    #[test]
    fn a_misnamed_fixture_is_not_graded() {
        let f = fixture("sol_bad", b"1 2 3 x\n1 2 3 b\n", false);
        let Allowed::NotGraded(why) = f.allowed else {
            panic!("graded")
        };
        assert!(
            why.starts_with("the reference answers 'error: start board:"),
            "{why}"
        );
        assert!(why.ends_with("(exit status 1)"), "{why}");
    }
}
