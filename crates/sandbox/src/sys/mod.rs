//! Every foreign function of the house, declared once, by hand: std links
//! the C library, and the `libc` crate would be a dependency for a few
//! dozen lines. This module holds what every Unix has (signals, the clock,
//! `kill`, rlimits and `flock`); `linux` adds what only the Linux sandbox
//! needs.
//!
//! Only plain system-call wrappers are declared, so that each may be called
//! between `fork` and `exec`, and from a signal handler where POSIX says it
//! is async-signal-safe.

#![allow(non_camel_case_types)]

use std::ffi::{c_int, c_long};

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod linux;
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub use linux::*;

pub type pid_t = c_int;

/// `struct rlimit`: two 64-bit numbers on 64-bit Linux, macOS and the BSDs.
#[repr(C)]
pub struct rlimit {
    pub cur: u64,
    pub max: u64,
}

/// POSIX `struct timespec` (`time_t` is a `long` on the targets Rust's std
/// supports for Unix, except 32-bit targets with 64-bit time, where the
/// time is then misread).
#[repr(C)]
pub struct timespec {
    pub tv_sec: c_long,
    pub tv_nsec: c_long,
}

extern "C" {
    /// POSIX `signal`: with glibc and the BSDs the handler stays installed
    /// and interrupted system calls restart.
    pub fn signal(sig: c_int, handler: usize) -> usize;
    pub fn raise(sig: c_int) -> c_int;
    pub fn clock_gettime(clock: c_int, now: *mut timespec) -> c_int;
    pub fn kill(pid: pid_t, sig: c_int) -> c_int;
    pub fn setsid() -> pid_t;
    pub fn setrlimit(resource: c_int, limit: *const rlimit) -> c_int;
    pub fn getrlimit(resource: c_int, limit: *mut rlimit) -> c_int;
    /// BSD `flock` (Linux, macOS and the BSDs): an advisory lock on an
    /// open file, released when its last descriptor is closed.
    pub fn flock(fd: c_int, operation: c_int) -> c_int;
}

// The same numbers on Linux, macOS and the BSDs.
pub const SIGKILL: c_int = 9;
pub const SIGXCPU: c_int = 24;
/// `flock`'s operations: an exclusive lock, without waiting.
pub const LOCK_EX: c_int = 2;
pub const LOCK_NB: c_int = 4;
/// `SIG_DFL` and `SIG_IGN` as `signal` takes and returns them.
pub const SIG_DFL: usize = 0;
pub const SIG_IGN: usize = 1;

/// `CLOCK_MONOTONIC` on Linux; elsewhere `CLOCK_REALTIME`, whose number (0)
/// is the same everywhere.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub const CLOCK: c_int = 1;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub const CLOCK: c_int = 0;
