//! Tests only: a `Runner` that runs a closure in-process (`fake`), and the
//! engine tested through it (`in_process`).

pub(crate) mod fake;
mod in_process;
