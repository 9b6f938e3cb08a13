//! `puzzle-grade`: grading other implementations of the assignment, the
//! engine behind the `puzzle-grade` binary (and so `sh Testrun grade` and
//! `grade-all`). It stands on the `puzzle` crate (the reference: boards,
//! parsing, the output format) and on `puzzle-sandbox` (what a run is, and
//! the sandbox that runs it); it never prints to a stream it did not get.
//!
//! The modules are stages, each importing only from the stages below it
//! (`docs/design.md` draws the floors; `tests/architecture.rs` checks
//! them), from the ground up:
//!
//! - `shared`: the ground floor, what every stage shares: a submission's
//!   name made safe (`Name`), output read as a marker reads it, the digest;
//! - `intake`: taking a submission in: its archives listed and unpacked,
//!   its sources found, the program built;
//! - `judging`: the fixtures and what each allows, what a program decided
//!   on one and how its run is classed;
//! - `marking`: the marks (the scheme, whose time limits the engine reads
//!   too), the causes as the report names them, the report and the
//!   student's feedback;
//! - `engine`: one program run and judged on every fixture;
//! - `publishing`: a graded submission's record, the grades folder and its
//!   files, what changed from one grading to another, the platforms'
//!   formats, the roster and the gradebook files, the class page;
//! - `similarity`: which submissions share code, beside the grading:
//!   each submission's sources in a normal form that undoes the usual
//!   disguises, fingerprinted, indexed over the class, the candidate
//!   pairs aligned (and behaviour as evidence, from plain data);
//! - `probing`: a program probed with inputs made for it: the fuzzer's
//!   inputs, the prober, the shrinker, the fuzzer and the experiments that
//!   confirm causes;
//! - `modes`: every mode of the binary (`grade`, `grade-all`, `merge`,
//!   `gradebook`, `diff`, `fuzz`, `check`, `open`, `run`,
//!   `check-environment`, `similar`), each standing on the stages below it.
//!
//! This file is the crate's face: the modules are private, and what the
//! binary, the tests and the benches use is re-exported here. The rules are
//! in `docs/grading-guide.md`, `docs/grading-reference.md` and
//! `docs/grading-design.md`; the map in `docs/design.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod engine;
mod intake;
mod judging;
mod marking;
mod modes;
mod probing;
mod publishing;
mod shared;
mod similarity;
#[cfg(test)]
mod testing;

pub use engine::{prepare_fixtures, Settings};
pub use intake::build::is_executable;
pub use judging::class::{Class, Outcome};
pub use judging::fixture::{Category, Fixture};
pub use judging::judge::Graded;
pub use marking::cause::Confirmed;
pub use marking::marks::{lost_in_words, points, Scheme, Visibility};
pub use modes::check::check_reference;
pub use modes::check_environment::check_environment;
pub use modes::diff::diff;
pub use modes::fuzz::Fuzz;
pub use modes::grade::{Grade, GradedProgram};
pub use modes::grade_all::{GradeAll, Select};
pub use modes::gradebook::{write_gradebook, Written as GradebookWritten};
pub use modes::merge::{merge, Merged};
pub use modes::open::open_choices;
pub use modes::run::{default_limits as default_run_limits, not_run_meta, Ended, NotRun, Run};
pub use modes::similar::{Found as SimilarFound, Similar, SimilarityAsked};
pub use probing::fuzz::{Options as FuzzOptions, Summary as FuzzSummary};
pub use publishing::changes::{
    Change, Comparison, FixtureChange, Inputs, Mark, OptionChange, Reason,
};
pub use publishing::formats::{Format, Scope};
pub use publishing::gradebook::{check_assignment, DEFAULT_ASSIGNMENT};
pub use publishing::grades::{Earlier, Gradebook, GradebookAsked, Manifest, Refusals, Shard};
pub use publishing::json::{Json, VERSION as FORMAT_VERSION};
pub use publishing::options::{Options, Setting, ORDER as SETTINGS_ORDER};
pub use publishing::page::class_page;
pub use publishing::record::{CauseLine, FixtureLine, Record, Row, RowMarks, CLASSES};
pub use publishing::roster::{Roster, Student, MAX_ROSTER};
pub use publishing::summaries::write_summary_files;
pub use puzzle_sandbox::{Ending, Job, Limits, Runner, Workdir};
pub use shared::digest::fnv1a;
pub use shared::error::{Error, Refused};
pub use shared::machine::{busy_at_end, busy_at_start, made_up};
pub use shared::name::Name;
pub use similarity::behaviour::{scores as behaviour_scores, Outcome as BehaviourOutcome};
pub use similarity::{default_common, Settings as SimilarSettings};
