//! What a machine allows the sandbox, and what makes its times unfair:
//! `puzzle-grade check-environment` prints it ([`check_environment`]).
//!
//! After isolate's `isolate-check-environment`: each finding is one line,
//! `name: what it is`, and where something should change for fair timing
//! (or a stronger sandbox), the next line says what to change.

use std::fmt;
use std::fs;
use std::path::PathBuf;

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
