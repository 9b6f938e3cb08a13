//! One run of a program under grading: what it is given, and how it ended.
//!
//! The engine says what to run ([`Job`]); a [`Runner`] runs it: the
//! [`Sandbox`](crate::Sandbox), or a stand-in in tests, so that the grading
//! engine can be tested with any runner.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// The limits of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time: at the limit the run, and everything it started, is killed
    /// ([`Ending::TimedOut`]). It is wall-clock time, less the time the run
    /// was ready to run but waited for a core, as far as
    /// [`make_up`](Limits::make_up) allows: a run on a busy machine is not
    /// stopped before it had its time.
    pub wall: Duration,
    /// How much wall-clock time beyond [`wall`](Limits::wall) a run may be
    /// given to make up the time it waited for a core (its tasks ready to
    /// run, the machine's cores busy with others: the kernel's count,
    /// [`Outcome::waited`]): the run is stopped once its own time (its
    /// wall-clock time less those waits) comes to `wall`, or its wall-clock
    /// time to `wall + make_up`, whichever is first. Zero: the limit is
    /// wall-clock time. Where the waits cannot be measured, nothing is
    /// made up. The CPU-time rlimit (a second above `wall`) holds either
    /// way: a run never gets more CPU than its limit.
    pub make_up: Duration,
    /// Memory in bytes ([`Ending::MemoryLimit`] when the run is stopped by it).
    pub memory: u64,
    /// Processes and threads at once ([`Ending::ProcessLimit`]).
    pub processes: u64,
    /// The largest file the run may write, its stdout and stderr included (a
    /// program that writes more is stopped by `SIGXFSZ`).
    pub file_size: u64,
    /// Open files at once.
    pub open_files: u64,
    /// What the run's work folder may hold (only a [`Workdir::Folder`]; none:
    /// no bound but the file-size limit on each file). The grader samples
    /// the folder while the run goes on and stops a run seen over it as the
    /// file-size limit stops one ([`Ending::Signalled`] with `SIGXFSZ`, 25);
    /// the portable sandbox does not sample it.
    pub folder: Option<FolderLimit>,
}

/// The most a run's work folder may hold: its files' bytes (as their sizes
/// say) and its entries (files, folders and anything else), counted
/// through every level of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FolderLimit {
    /// Bytes of its files in all.
    pub bytes: u64,
    /// Entries in all.
    pub entries: u64,
}

/// The folder a run works in (its current folder, `HOME` and `TMPDIR`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Workdir {
    /// A fresh, empty folder of its own, gone when the run ends.
    Scratch,
    /// This folder, read-write (a build works in its copy of the sources).
    Folder(PathBuf),
}

/// One run: a program, its streams, what it may see and its limits.
#[derive(Debug)]
pub struct Job {
    /// The executable (an absolute path); it is visible to the run, read-only.
    pub program: PathBuf,
    /// Its arguments, after the program's name.
    pub args: Vec<OsString>,
    /// Its `PATH`; `HOME` and `TMPDIR` are its work folder, and nothing else
    /// of the grader's environment is passed on.
    pub path: OsString,
    /// Folders or files besides the system's (`/usr`, `/bin`, `/lib`, `/etc`)
    /// that the run may read.
    pub read_only: Vec<PathBuf>,
    /// Where it works.
    pub workdir: Workdir,
    /// Its standard input, output and error.
    pub stdin: File,
    /// Its standard output (a regular file, so that the file-size limit caps it).
    pub stdout: File,
    /// Its standard error.
    pub stderr: File,
    /// Its limits.
    pub limits: Limits,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it (not the runner's time limit).
    Signalled(i32),
    /// It was still running at the wall-clock or CPU time limit, and was killed.
    TimedOut,
    /// It was stopped by the memory limit: killed for it, or it failed (a
    /// crash, an exit status other than 0) once its memory had come to the
    /// limit; [`Outcome::memory_stop`] says which, and how it was measured.
    MemoryLimit,
    /// It was stopped by the process limit.
    ProcessLimit,
}

/// What a run's memory limit counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    /// The memory it used (resident), held by a memory cgroup: the kernel
    /// stops the run at the limit.
    Cgroup,
    /// The memory it used (resident), sampled by the grader every 10 ms
    /// (there was no memory cgroup): the run is stopped once it is seen over
    /// the limit, and a run that failed by itself once its resident peak
    /// had come to the limit was stopped by it ([`MemoryStop`]).
    Sampled,
    /// Its address space (`RLIMIT_AS`): neither a cgroup nor the sampler
    /// could be had. An allocation that would take the address space over
    /// the limit fails, however little of it the program would touch: a
    /// program that reserves more than it uses fails here and not where the
    /// limit is resident. A run that failed with its resident peak within
    /// a sixteenth of the limit had an allocation refused, most likely,
    /// and was stopped by the limit ([`MemoryStop`]); another failure is
    /// not told from the program's own, and the engine should say so in
    /// the run's row and feedback rather than call the run's error its own.
    AddressSpace,
}

impl MemoryLimit {
    /// Whether the limit counted what the run used (not what it reserved).
    pub fn is_resident(self) -> bool {
        !matches!(self, MemoryLimit::AddressSpace)
    }

    /// How it measures, after the limit's size in a report line (`64 MiB
    /// of resident memory, held by a memory cgroup`): the same words for
    /// every run it stops, so that a report reads the same at every
    /// grading.
    pub fn measured(self) -> &'static str {
        match self {
            MemoryLimit::Cgroup => "of resident memory, held by a memory cgroup",
            MemoryLimit::Sampled => {
                "of resident memory, sampled every 10 ms and at its high-water mark"
            }
            MemoryLimit::AddressSpace => {
                "of address space (RLIMIT_AS): an allocation refused at it, most likely"
            }
        }
    }

    /// Whether a run that failed by itself, with a resident peak of `peak`
    /// bytes, was stopped by the limit of `limit` bytes, as a memory cgroup
    /// would have stopped it ([`MemoryStop`]): at the limit where the limit
    /// is resident memory; within a sixteenth of it under an address-space
    /// limit, whose libraries and stack take address space that never
    /// becomes resident (a program that grows until `malloc` fails peaks
    /// 1.5 MiB under the limit).
    pub fn reached(self, peak: u64, limit: u64) -> bool {
        match self {
            MemoryLimit::Cgroup | MemoryLimit::Sampled => peak >= limit,
            MemoryLimit::AddressSpace => peak >= limit - limit / 16,
        }
    }
}

/// How the memory limit stopped a run ([`Ending::MemoryLimit`]), as the
/// sandbox found it: what held the limit, and what the run did.
///
/// The rule is a memory cgroup's at every level. A cgroup's out-of-memory
/// killer kills a run at the limit; where the grader samples instead, it
/// kills a run it sees over the limit, and a run that failed by itself (a
/// crash, an exit status other than 0) after its resident memory came to
/// the limit between two samples (a program that fills a buffer as large
/// as the limit, then writes past it) is stopped by the limit too, as the
/// cgroup would have stopped it: its peak is the kernel's high-water mark
/// of the program's resident memory, kept to its end, or the most the
/// sampler saw. Under an address-space limit, a run that failed with its
/// resident peak within a sixteenth of the limit had an allocation
/// refused, most likely. A run that fails with less memory in use fails
/// for its own reasons, at every level; one that exits 0 is graded on
/// what it printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryStop {
    /// What held the limit.
    pub held: MemoryLimit,
    /// The run's resident peak in bytes, where it decided the class (a run
    /// that failed by itself at the limit).
    pub peak: Option<u64>,
    /// How the run ended by itself, once at the limit: a crash
    /// ([`Ending::Signalled`]) or an exit status other than 0; none when it
    /// was killed for the limit.
    pub then: Option<Ending>,
}

impl MemoryStop {
    /// What the run did, for `puzzle-grade run`'s line: `killed by the
    /// out-of-memory killer`, `seen over it, and killed`, `a high-water
    /// mark of 65 MiB, then killed by signal 11`. (Whether the sampler saw
    /// a run over the limit before it failed by itself is chance: a
    /// report, which must read the same at every grading, says only how
    /// the limit was measured, [`MemoryLimit::measured`].)
    pub fn story(&self) -> String {
        let then = match self.then {
            Some(Ending::Exited(code)) => format!(", then exited with status {code}"),
            Some(Ending::Signalled(signal)) => format!(", then killed by signal {signal}"),
            _ => String::new(),
        };
        let mark = match self.peak {
            Some(bytes) => format!("{} MiB", bytes >> 20),
            None => "an unknown size".into(),
        };
        match (self.held, self.then) {
            (MemoryLimit::Cgroup, None) => "killed by the out-of-memory killer".into(),
            (MemoryLimit::Cgroup, Some(_)) => format!("its charges met the limit{then}"),
            (MemoryLimit::Sampled, None) => "seen over it, and killed".into(),
            (MemoryLimit::Sampled, Some(_)) => format!("a high-water mark of {mark}{then}"),
            (MemoryLimit::AddressSpace, _) => {
                format!("a resident high-water mark of {mark}{then}")
            }
        }
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// Its wall-clock time.
    pub elapsed: Duration,
    /// The CPU time its processes used, user and system, where the runner
    /// could read it (none: it could not, and nothing is guessed).
    pub cpu: Option<Duration>,
    /// The time it was ready to run but had no core, the machine's cores
    /// busy with other work, where the runner could read it (none: it
    /// could not, and nothing is guessed). It is the kernel's count for
    /// each of the run's tasks (`/proc/PID/task/TID/schedstat`, read as the
    /// run goes on), with the time the machine took from a task that was
    /// running, runnable or stalled in the kernel at two looks in a row but
    /// was neither on a core nor on a run queue between them (a virtual
    /// machine's host's steal, a quota's throttling, reclaim under others'
    /// memory pressure); at most the wall-clock time less
    /// the CPU time, so that threads of one program waiting for each other
    /// on the run's one core are not counted. A program that sleeps, or
    /// waits for input, a pipe or a lock, does not wait for a core: that
    /// time was its own.
    pub waited: Option<Duration>,
    /// The most memory it held, in bytes, as its memory limit counts it (a
    /// memory cgroup's peak, else the sampler's and the kernel's
    /// high-water marks), where the runner could read it.
    pub memory_peak: Option<u64>,
    /// What its memory limit counted: [`MemoryLimit::AddressSpace`] means a
    /// run that failed may have failed for the limit, and not by its own
    /// fault, without [`Ending::MemoryLimit`] saying so.
    pub memory_limit: MemoryLimit,
    /// With [`Ending::MemoryLimit`]: how the limit stopped it, where the
    /// runner knows.
    pub memory_stop: Option<MemoryStop>,
}

impl Outcome {
    /// An outcome whose memory limit was resident (as a stand-in
    /// runner's), with no CPU time, waits or memory peak measured.
    pub fn new(ending: Ending, elapsed: Duration) -> Outcome {
        Outcome {
            ending,
            elapsed,
            cpu: None,
            waited: None,
            memory_peak: None,
            memory_limit: MemoryLimit::Cgroup,
            memory_stop: None,
        }
    }

    /// The run's own time: its wall-clock time less the time it waited for
    /// a core ([`Outcome::waited`]); none where the waits are unknown.
    pub fn own_time(&self) -> Option<Duration> {
        self.waited.map(|w| self.elapsed.saturating_sub(w))
    }
}

/// How much of the sandbox a machine allows, from most to least: chosen
/// by [`Sandbox::new`](crate::Sandbox::new) from what the system allows,
/// or asked for by name (`--sandbox namespaces|uid|minimal`) with
/// [`Sandbox::at_level`](crate::Sandbox::at_level).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Each run in namespaces of its own (PID, mount, network, IPC, UTS),
    /// with a uid of its own as root, or in a user namespace of its own
    /// when not.
    Namespaces,
    /// No namespaces, but a uid of its own (root without `CAP_SYS_ADMIN`,
    /// as in a Docker container): the files it may touch held by Landlock
    /// where the kernel has it, everything it leaves killed at the end.
    Uid,
    /// Neither (not root, and no user namespaces): the marker's uid, with
    /// the system-call filter, Landlock where the kernel has it, rlimits,
    /// its own process group, and a watcher that kills what it leaves.
    Minimal,
}

impl Level {
    /// Every level, from most to least.
    pub const ALL: [Level; 3] = [Level::Namespaces, Level::Uid, Level::Minimal];

    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Level::Namespaces => "namespaces",
            Level::Uid => "uid",
            Level::Minimal => "minimal",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = String;

    /// A level by its name: `namespaces`, `uid` or `minimal`.
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("should be namespaces, uid or minimal, but is {s:?}"))
    }
}

/// Something that runs jobs: the sandbox of the `puzzle-grade` binary, or a
/// stand-in in tests. Called from several threads at once.
pub trait Runner: Sync {
    /// Runs `job` to its end (or its limits) and says how it ended. Nothing
    /// it started is left running when this returns.
    fn run(&self, job: Job) -> io::Result<Outcome>;

    /// What protects the marker's machine from the runs, in a few words for
    /// a report's header ("sandbox: own PID namespace, no network, ...";
    /// what could not be had is named too).
    fn protections(&self) -> String;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_read_by_their_names() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
        }
        assert_eq!(
            "root".parse::<Level>(),
            Err("should be namespaces, uid or minimal, but is \"root\"".into())
        );
        assert!(Level::Namespaces < Level::Minimal);
    }
}
