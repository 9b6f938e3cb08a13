//! The modes of `puzzle-grade`, one module each, standing on the stages
//! below them: `grade` (one program), `grade-all` (a folder of
//! submissions), `merge` (one grading from its shards), `gradebook` (a
//! grading's gradebook files, written afterwards from its records), `diff`
//! (what changed from one grading to another, and why), `fuzz` (generated
//! inputs, faults shrunk), `check` (the reference against the fixtures'
//! names), `open` (the fixtures whose answer is an open choice), `run` (one
//! program in the sandbox), `check-environment` (what this machine
//! allows) and `similar` (which submissions share code). Each does its
//! work on what it is given and writes only to the streams it is handed;
//! the binary reads the command line and picks the streams and the exit
//! status.

pub(crate) mod check;
pub(crate) mod check_environment;
pub(crate) mod diff;
pub(crate) mod fuzz;
pub(crate) mod grade;
pub(crate) mod grade_all;
pub(crate) mod gradebook;
pub(crate) mod merge;
pub(crate) mod open;
pub(crate) mod run;
pub(crate) mod similar;
