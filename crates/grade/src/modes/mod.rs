//! The modes of `puzzle-grade` that are more than one program graded:
//! `grade-all` (a folder of submissions), `merge` (one grading from its
//! shards), `diff` (what changed from one grading to another, and why),
//! `fuzz` (generated inputs, faults shrunk), `check` (the reference
//! against the fixtures' names) and `similar` (which submissions share
//! code).

pub(crate) mod check;
pub(crate) mod diff;
pub(crate) mod fuzz;
pub(crate) mod grade_all;
pub(crate) mod merge;
pub(crate) mod similar;
