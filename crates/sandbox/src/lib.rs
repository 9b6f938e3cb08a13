//! `puzzle-sandbox`: the sandbox every run of a student's program (and of its
//! build) goes through, and every call the products make into the operating
//! system. It is the one crate of the house with `unsafe` code: the foreign
//! functions are declared once, in `sys`; the other crates forbid `unsafe`.
//!
//! What it is for: [`Job`] says what to run, with its [`Limits`]; a
//! [`Runner`] runs it and says how it ended ([`Outcome`], [`Ending`]);
//! [`Sandbox`] is the runner of `puzzle-grade`. [`signals`] is the handling
//! of SIGINT and SIGTERM that both binaries use; [`files`] opens the files
//! a stranger controls (no link followed, no blocking, nothing outside a
//! folder). What it is not for: it
//! knows nothing of puzzles, fixtures or marks (the `puzzle` and
//! `puzzle-grade` crates), and it never prints.
//!
//! Each run gets, at the [`Level`] the system allows (`namespaces`, `uid`,
//! `minimal`; [`Sandbox::at_level`] asks for one):
//!
//! - its own PID namespace, whose init (a forked copy of this process) waits
//!   for the program; when init exits the kernel kills everything the run
//!   started, daemons in new sessions included;
//! - its own network (no interfaces but a down loopback), IPC and UTS
//!   namespaces;
//! - its own mount namespace whose root is a fresh tmpfs showing only the
//!   system folders read-only, a minimal `/dev`, a fresh `/tmp` and
//!   `/dev/shm`, a `/proc` of its PID namespace (read-only), the program and
//!   the job's read-only paths (at their own paths), and its work folder;
//!   without a mount namespace (`uid`, `minimal`), Landlock holds the same
//!   files;
//! - an unprivileged uid and gid of its own when run as root (so that the
//!   process limit counts this run alone), no supplementary groups, no new
//!   privileges; a user namespace when not root;
//! - one core (a cpu cgroup's quota);
//! - rlimits, and a memory and a pids cgroup that tell the memory and the
//!   process limits from crashes; without a memory cgroup the grader
//!   samples the run's resident memory, so that the memory limit counts
//!   what a run uses at every level ([`Outcome::memory_limit`] says how it
//!   was held);
//! - a system-call filter (seccomp-BPF, installed just before `execve`):
//!   no keyrings, `io_uring`, `bpf`, mounts, new namespaces, file locks,
//!   sockets but `AF_UNIX`, and no other ABI (docs/grading-design.md has the
//!   table).
//!
//! What cannot be had is named by [`Runner::protections`] (and, for the
//! whole machine, by [`check_environment`]), and the run still works:
//! without namespaces the program's keeper is a subreaper, which kills
//! every process the run leaves. On another system (or another
//! processor than x86-64 and AArch64, whose system-call numbers this knows),
//! the program runs in a process group of its own, with rlimits, and the
//! group is killed at the end.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod environment;
#[cfg(unix)]
pub mod files;
mod job;
pub mod signals;
#[cfg(unix)]
mod sys;

pub use environment::{check_environment, Environment, Load};
pub use job::{
    Ending, FolderLimit, Job, Level, Limits, MemoryLimit, MemoryStop, Outcome, Runner, Workdir,
};

// The namespaced sandbox is written for Linux on x86-64 and AArch64, whose
// system-call numbers it knows; elsewhere the portable one stands in. Plain
// attributes (not a macro) so that rustfmt sees the modules.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod linux;
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
use linux::findings as sandbox_findings;
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub use linux::Sandbox;

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod portable;
#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
use portable::findings as sandbox_findings;
#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
pub use portable::Sandbox;
