//! Grading other implementations of the assignment: the engine behind
//! `puzzle-grade` (and so `sh Testrun grade` and `grade-all`).

pub mod run;
