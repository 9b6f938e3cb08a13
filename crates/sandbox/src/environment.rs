//! What a machine allows the sandbox, and what makes its times unfair:
//! `puzzle-grade check-environment` prints it ([`check_environment`]); and
//! how loaded the machine is now ([`Load`]), which a grading tells at its
//! start and end.
//!
//! After isolate's `isolate-check-environment`: each finding is one line,
//! `name: what it is`, and where something should change for fair timing
//! (or a stronger sandbox), the next line says what to change.

use std::fmt;
use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What was looked at (`level uid`, `load`, `transparent huge pages`).
    pub name: String,
    /// What it is.
    pub state: String,
    /// What to change, where something should.
    pub change: Option<String>,
}

/// Every finding, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Environment {
    /// What was found, in order.
    pub findings: Vec<Finding>,
}

impl Environment {
    /// Adds a finding.
    pub fn add(&mut self, name: &str, state: String, change: Option<String>) {
        self.findings.push(Finding {
            name: name.into(),
            state,
            change,
        });
    }

    /// Whether nothing should change.
    pub fn is_fair(&self) -> bool {
        self.findings.iter().all(|f| f.change.is_none())
    }
}

impl fmt::Display for Environment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for finding in &self.findings {
            writeln!(f, "{}: {}", finding.name, finding.state)?;
            if let Some(change) = &finding.change {
                writeln!(f, "  to change: {change}")?;
            }
        }
        Ok(())
    }
}

/// The levels, cgroups and filters the sandbox would have (found as
/// [`Sandbox::new`](crate::Sandbox::new) finds them, with `scratch_root`
/// for its probe), and the machine's timing: load, cores, frequency
/// governor and boost, transparent huge pages, swap, core dumps.
pub fn check_environment(scratch_root: PathBuf) -> Environment {
    let mut env = Environment::default();
    crate::sandbox_findings(&mut env, scratch_root);
    timing(&mut env);
    env
}

fn read(path: &str) -> Option<String> {
    fs::read_to_string(path).ok().map(|s| s.trim().to_string())
}

/// How loaded the machine is at a moment, as the kernel shows it: what a
/// run started now would meet. Each figure is none where the system does
/// not show it (another system than Linux, pressure stall information
/// off).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Load {
    /// The cores this process may use.
    pub cores: usize,
    /// The load average over the last minute (`/proc/loadavg`): tasks
    /// running or ready to run, on average.
    pub one_minute: Option<f64>,
    /// The tasks running or ready to run now (`/proc/stat`'s
    /// `procs_running`), the one reading it among them.
    pub running: Option<u32>,
    /// The kernel's total of the time some task was ready to run but had no
    /// core (`/proc/pressure/cpu`'s `some` total), and when it was read.
    pub pressure: Option<(Duration, Instant)>,
}

impl Load {
    /// The machine's load now.
    pub fn now() -> Load {
        let stat = read("/proc/stat").unwrap_or_default();
        Load {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            one_minute: read("/proc/loadavg")
                .and_then(|l| l.split_whitespace().next().and_then(|x| x.parse().ok())),
            running: stat
                .lines()
                .find_map(|l| l.strip_prefix("procs_running "))
                .and_then(|n| n.trim().parse().ok()),
            pressure: read("/proc/pressure/cpu")
                .and_then(|p| some_total(&p))
                .map(|us| (Duration::from_micros(us), Instant::now())),
        }
    }

    /// Whether the machine is busy: a load average of at least its cores,
    /// so that a run started now may wait for one.
    pub fn is_busy(&self) -> bool {
        self.one_minute.is_some_and(|l| l >= self.cores as f64)
    }

    /// The share of the time from `earlier` to this reading during which
    /// some task of the machine was ready to run but had no core (0 to 1),
    /// where the kernel counts it.
    pub fn pressure_since(&self, earlier: &Load) -> Option<f64> {
        let ((now, at), (then, was)) = (self.pressure?, earlier.pressure?);
        let span = at.checked_duration_since(was)?.as_secs_f64();
        (span > 0.0).then(|| (now.saturating_sub(then).as_secs_f64() / span).min(1.0))
    }
}

impl fmt::Display for Load {
    /// `load 5.20 over the last minute on 2 cores`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.one_minute {
            Some(l) => write!(
                f,
                "load {l:.2} over the last minute on {} cores",
                self.cores
            ),
            None => write!(f, "load unknown on {} cores", self.cores),
        }
    }
}

/// The `total=` of the `some` line of a pressure file, in microseconds.
fn some_total(pressure: &str) -> Option<u64> {
    pressure
        .lines()
        .find(|l| l.starts_with("some "))?
        .split_whitespace()
        .find_map(|f| f.strip_prefix("total="))
        .and_then(|v| v.parse().ok())
}

/// The machine's side of fair timing.
fn timing(env: &mut Environment) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match read("/proc/loadavg") {
        Some(load) => {
            let one: f64 = load
                .split_whitespace()
                .next()
                .and_then(|l| l.parse().ok())
                .unwrap_or(0.0);
            let busy = one >= cores as f64 * 0.5;
            env.add(
                "load",
                format!("{one:.2} over the last minute on {cores} cores"),
                busy.then(|| {
                    format!(
                        "the machine is busy: times measured now run slower than on a quiet one; grade when the load is low, or with --jobs at most {}",
                        (cores / 2).max(1)
                    )
                }),
            );
        }
        None => env.add("load", "unknown (no /proc/loadavg)".into(), None),
    }
    match read("/sys/devices/system/cpu/smt/active") {
        Some(active) if active == "1" => env.add(
            "simultaneous multithreading",
            "on: two runs on one core's threads slow each other".into(),
            Some("echo off > /sys/devices/system/cpu/smt/control (as root), or --jobs at most the physical cores".into()),
        ),
        Some(_) => env.add("simultaneous multithreading", "off".into(), None),
        None => env.add("simultaneous multithreading", "not shown by this kernel".into(), None),
    }
    let governors: Vec<String> = (0..cores)
        .filter_map(|c| {
            read(&format!(
                "/sys/devices/system/cpu/cpu{c}/cpufreq/scaling_governor"
            ))
        })
        .collect();
    if governors.is_empty() {
        env.add(
            "CPU frequency governor",
            "not shown (no cpufreq: a virtual machine, or a fixed frequency)".into(),
            None,
        );
    } else {
        let mut kinds = governors.clone();
        kinds.sort();
        kinds.dedup();
        let slow = kinds.iter().any(|g| g != "performance");
        env.add(
            "CPU frequency governor",
            kinds.join(", "),
            slow.then(|| {
                "echo performance | tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor (as root): the frequency then does not follow the load".into()
            }),
        );
    }
    let boost = read("/sys/devices/system/cpu/cpufreq/boost")
        .map(|b| b == "1")
        .or_else(|| read("/sys/devices/system/cpu/intel_pstate/no_turbo").map(|t| t == "0"));
    match boost {
        Some(true) => env.add(
            "frequency boost",
            "on: a run's speed depends on how warm the processor is".into(),
            Some("echo 0 > /sys/devices/system/cpu/cpufreq/boost (or echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo), as root".into()),
        ),
        Some(false) => env.add("frequency boost", "off".into(), None),
        None => env.add("frequency boost", "not shown".into(), None),
    }
    match read("/sys/kernel/mm/transparent_hugepage/enabled") {
        Some(thp) => {
            let chosen = thp
                .split_whitespace()
                .find(|w| w.starts_with('['))
                .map_or(thp.clone(), |w| {
                    w.trim_matches(|c| c == '[' || c == ']').to_string()
                });
            env.add(
                "transparent huge pages",
                chosen.clone(),
                (chosen == "always").then(|| {
                    "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled (or never), as root: a run's time then does not depend on whether the kernel finds 2 MiB pages".into()
                }),
            );
        }
        None => env.add("transparent huge pages", "not shown".into(), None),
    }
    let swaps = read("/proc/swaps")
        .map(|s| s.lines().skip(1).filter(|l| !l.trim().is_empty()).count())
        .unwrap_or(0);
    env.add(
        "swap",
        if swaps == 0 {
            "none".into()
        } else {
            format!("{swaps} swap area(s)")
        },
        (swaps > 0).then(|| {
            "swapoff -a (as root): a run near its memory limit may be swapped out and slowed, not stopped".into()
        }),
    );
    match read("/proc/sys/kernel/core_pattern") {
        Some(p) if p.starts_with('|') => env.add(
            "core dumps",
            format!("piped to a program ({p}): a crash takes longer"),
            Some("echo core > /proc/sys/kernel/core_pattern (as root); the runs write none (RLIMIT_CORE 0), but a pipe ignores that".into()),
        ),
        Some(p) => env.add("core dumps", format!("to files ({p}); the runs write none"), None),
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_finding_is_a_line_and_a_change_the_next() {
        let mut env = Environment::default();
        env.add("swap", "none".into(), None);
        env.add(
            "load",
            "7.50 over the last minute on 2 cores".into(),
            Some("wait".into()),
        );
        assert_eq!(
            env.to_string(),
            "swap: none\nload: 7.50 over the last minute on 2 cores\n  to change: wait\n"
        );
        assert!(!env.is_fair());
    }

    #[test]
    fn the_load_is_read_and_said() {
        let before = Load::now();
        assert!(before.cores >= 1);
        assert!(before
            .to_string()
            .contains(&format!(" on {} cores", before.cores)));
        std::thread::sleep(Duration::from_millis(20));
        let after = Load::now();
        if let Some(share) = after.pressure_since(&before) {
            assert!((0.0..=1.0).contains(&share), "{share}");
        }
        assert_eq!(after.pressure_since(&after).unwrap_or(0.0), 0.0);
        assert_eq!(
            some_total("some avg10=1.00 avg60=0 avg300=0 total=1234\nfull avg10=0 total=0\n"),
            Some(1234)
        );
        let busy = Load {
            one_minute: Some(6.0),
            cores: 2,
            ..before
        };
        assert!(busy.is_busy());
        assert_eq!(
            busy.to_string(),
            "load 6.00 over the last minute on 2 cores"
        );
    }

    #[test]
    fn this_machine_is_described() {
        let scratch = std::env::temp_dir().join(format!("env.{}", std::process::id()));
        let env = check_environment(scratch.clone());
        let _ = fs::remove_dir_all(scratch);
        let names: Vec<&str> = env.findings.iter().map(|f| f.name.as_str()).collect();
        for name in [
            "level minimal",
            "chosen level",
            "load",
            "swap",
            "transparent huge pages",
        ] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
    }
}
