//! The modes of `puzzle-grade` that are more than one program graded:
//! `grade-all` (a folder of submissions), `merge` (one grading from its
//! shards), `gradebook` (a grading's gradebook files, written afterwards),
//! `diff` (what changed from one grading to another, and why),
//! `fuzz` (generated inputs, faults shrunk) and `check` (the reference
//! against the fixtures' names).

pub(crate) mod check;
pub(crate) mod diff;
pub(crate) mod fuzz;
pub(crate) mod grade_all;
pub(crate) mod gradebook;
pub(crate) mod merge;
