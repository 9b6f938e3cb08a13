//! Running and judging: the fixtures and what each allows (`fixture`, with
//! `open_choice` for what the assignment leaves open), what a program
//! decided (`verdict`), one run classed (`judge`) in one of the classes of
//! fault (`class`: a row of properties each), and the budget every run of
//! a program's grading draws on (`budget`); its output is read as a marker
//! reads it by `shared::text`.

pub(crate) mod budget;
pub(crate) mod class;
pub(crate) mod fixture;
pub(crate) mod judge;
pub(crate) mod open_choice;
pub(crate) mod verdict;
