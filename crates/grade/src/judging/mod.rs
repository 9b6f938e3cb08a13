//! Running and judging: the fixtures and what each allows (`fixture`, with
//! `open_choice` for what the assignment leaves open), what a program
//! decided (`verdict`), and one run classed (`judge`); its output is read
//! as a marker reads it by `shared::text`.

pub(crate) mod fixture;
pub(crate) mod judge;
pub(crate) mod open_choice;
pub(crate) mod verdict;
