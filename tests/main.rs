//! The root package's integration tests, built as one test binary: each
//! file of this folder is a module of it (`autotests = false` in
//! `Cargo.toml`). Cargo builds, links and runs every test binary on its own,
//! one after another; as one binary the tests are linked once and keep both
//! cores busy until the last test ends, not each file's last. One file's
//! tests: `cargo test -p puzzle --test integration solve::`.

mod architecture;
mod cli;
mod docs;
mod parity_rule;
mod solve;
mod streams;
mod testrun;
