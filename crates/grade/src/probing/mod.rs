//! Probing a program with inputs made for it, beyond the fixtures: the
//! inputs themselves (`case`: every size and kind of the assignment, from a
//! seed), one input run and judged against the reference (`prober`), a
//! failing input made as small as it will go (`shrink`), the fuzzer that
//! looks for faults and shrinks the first of each class (`fuzz`), and the
//! experiments that confirm the causes of a program's failures (`experiment`).
//!
//! Grading a program stands on it (`modes/grade.rs`: its causes
//! confirmed, then fuzzed within its budget), and so does the `fuzz`
//! command (`modes/fuzz.rs`).

pub(crate) mod case;
pub(crate) mod experiment;
pub(crate) mod fuzz;
mod prober;
pub(crate) mod shrink;
