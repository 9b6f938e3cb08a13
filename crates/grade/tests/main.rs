//! The grading crate's integration tests, built as one test binary: each
//! file of this folder is a module of it (`autotests = false` in
//! `Cargo.toml`). Cargo builds, links and runs every test binary on its own,
//! one after another; as one binary the tests are linked once, share
//! `common`'s work, and keep the cores busy until the last test ends, not
//! each file's last. `make test` runs them two a core: they wait on
//! programs more than they compute (the Makefile says why). One file's
//! tests: `cargo test -p puzzle-grade --test integration hostile::`.

mod common;

mod archives;
mod behaviour;
mod budget;
mod causes;
mod cluster;
mod flaky;
mod fuzz;
mod grade;
mod gradebook;
mod gradings;
mod hostile;
mod load;
mod marks;
mod old_gradings;
mod page;
mod readers;
mod regrading;
mod sandbox;
mod similar;
