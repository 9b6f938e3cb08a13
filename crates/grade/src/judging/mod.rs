//! Running and judging: the fixtures and what each allows (`fixture`, with
//! `open_choice` for what the assignment leaves open), what a program
//! decided (`verdict`), its output as a marker reads it (`text`), and one
//! run classed (`judge`).

pub(crate) mod fixture;
pub(crate) mod judge;
pub(crate) mod open_choice;
pub(crate) mod text;
pub(crate) mod verdict;
