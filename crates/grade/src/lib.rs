//! `puzzle-grade`: grading other implementations of the assignment, the
//! engine behind the `puzzle-grade` binary (and so `sh Testrun grade` and
//! `grade-all`). It stands on the `puzzle` crate (the reference: boards,
//! parsing, the output format) and on `puzzle-sandbox` (what a run is, and
//! the sandbox that runs it); it never prints to a stream it did not get.
//!
//! The modules follow a submission's way, one folder a stage:
//!
//! - `intake`: taking a submission in: its archives listed and unpacked,
//!   its sources found, the program built;
//! - `judging`: the fixtures and what each allows, a run of the program on
//!   one, what it decided and how its run is classed;
//! - `engine`: one program run and judged on every fixture;
//! - `marking`: the marks (the scheme), the causes failing fixtures share,
//!   the report and the student's feedback;
//! - `publishing`: a graded submission's record, the grades folder and its
//!   files, what changed from one grading to another, the platforms'
//!   formats, the roster and the gradebook files, the class page;
//! - `similarity`: which submissions share code, beside the grading:
//!   each submission's sources in a normal form that undoes the usual
//!   disguises, fingerprinted, indexed over the class, the candidate
//!   pairs aligned;
//! - `modes`: `grade-all`, `merge`, `diff`, `fuzz`, `check` and
//!   `similar`, each standing on the stages below it.
//!
//! This file is the crate's face: the modules are private, and what the
//! binary, the tests and the benches use is re-exported here. The rules are
//! in `docs/grading.md`; the map in `docs/design.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod digest;
mod engine;
mod intake;
mod judging;
mod marking;
mod modes;
mod publishing;
mod similarity;
#[cfg(test)]
mod testing;

pub use digest::fnv1a;
pub use engine::{grade_program, prepare_fixtures, Settings};
pub use intake::build::is_executable;
pub use intake::name::Name;
pub use judging::fixture::Fixture;
pub use judging::judge::{Class, Graded};
pub use judging::open_choice::in_words;
pub use marking::cause::Confirmed;
pub use marking::marks::{lost_in_words, points, Scheme};
pub use marking::report::{write_marked_report, Counts};
pub use modes::check::check_reference;
pub use modes::diff::diff;
pub use modes::fuzz::experiment::confirm as confirm_causes;
pub use modes::fuzz::{fuzz, Options as FuzzOptions, Summary as FuzzSummary};
pub use modes::grade_all::{GradeAll, Select};
pub use modes::merge::{merge, Merged};
pub use modes::similar::{Found as SimilarFound, Similar};
pub use publishing::changes::{Change, Comparison, FixtureChange, Inputs, Mark, Reason};
pub use publishing::formats::{Format, Scope};
pub use publishing::gradebook::{check_assignment, DEFAULT_ASSIGNMENT};
pub use publishing::grades::{Gradebook, Manifest, Shard};
pub use publishing::json::Json;
pub use publishing::page::class_page;
pub use publishing::record::{FixtureLine, Record, Row, RowMarks, CLASSES};
pub use publishing::roster::{Roster, Student, MAX_ROSTER};
pub use publishing::summaries::write_summary_files;
pub use puzzle_sandbox::{Ending, Job, Limits, Outcome, Runner, Workdir};
pub use similarity::behaviour::{scores as behaviour_scores, Outcome as BehaviourOutcome};
pub use similarity::{default_common, Settings as SimilarSettings};
