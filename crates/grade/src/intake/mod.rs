//! Taking a submission in, as a marker would: its archives listed and
//! unpacked in the sandbox (`archive`), its sources found and its program
//! built in a copy (`build`).

pub(crate) mod archive;
pub(crate) mod build;
pub(crate) mod name;
