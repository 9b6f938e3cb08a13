//! Marks that are never the machine's: whether a run had its time, what the
//! grader does when the machine's load took it, and how loaded the machine
//! is. The sandbox measures (`Outcome::cpu`, `Outcome::waited`,
//! `puzzle_sandbox::Load`); the rule is here, on the ground floor, for every
//! stage that runs a program (a build, a fixture, a fuzzing's input).
//!
//! The rule (docs/grading-design.md, "Time and the machine's load"):
//!
//! 1. **A run's time limit is its own time**: its wall-clock time less the
//!    time it was ready to run but waited for a core (the kernel's count),
//!    and less the time the machine took from it otherwise while it was
//!    runnable or stalled in the kernel (a host's steal, reclaim: the
//!    sandbox's `Outcome::waited` counts both), so that a busy program's
//!    own time is its CPU time.
//!    A run on a busy machine is given up to [`MAKE_UP`] times its limit
//!    more on the clock to make up its waits: one that gets a quarter of a
//!    core still has its whole limit, in one run. A program that sleeps or
//!    blocks chose its time: a sleep waits for no core, and is not made up.
//! 2. **A TIMEOUT is a program that had its time**: a run stopped at the
//!    time limit with less than [`OWN_SHARE`] of its limit as its own time
//!    (the machine gave it less than a quarter of a core) is the machine's.
//!    The grader then waits for a quieter machine (fewer tasks ready to run
//!    than cores, at most [`QUIET_WAIT`]) and runs it once more
//!    ([`RETRIES`]); if that run is the machine's too, the fixture is NOT
//!    GRADED, the machine's: named as such in the report and the feedback,
//!    its points kept (no marks lost), and counted at the grading's end,
//!    for the marker to grade it again on a quieter machine.
//! 3. **A run stopped at one limit while at the other is at both**: its
//!    memory within [`NEAR`] of the memory limit when the time limit
//!    stopped it, or its own time within [`NEAR`] of the time limit when
//!    the memory limit did. Its line says so ([`AT_BOTH`]), and a
//!    regrading that finds it stopped by the other limit calls the change
//!    the machine's: which limit comes first is the machine's speed.
//!
//! Where the waits cannot be measured (the portable sandbox, a system
//! without `/proc` to sample), the limit is wall-clock time and a TIMEOUT
//! is a TIMEOUT, as before: nothing is guessed.

use puzzle_sandbox::{signals, Ending, Limits, Load, Outcome};
use std::time::{Duration, Instant};

/// How many times its limit a run may be given on the clock beyond its
/// limit, to make up the time it waited for a core: three (four limits in
/// all), so that a run given a quarter of a core still has its time. Two
/// `yes` beside a grading on two cores give a run two thirds of one; a
/// machine at load 6 on two cores a third.
pub const MAKE_UP: u32 = 3;

/// The share of its limit a run stopped at the time limit must have had
/// as its own time for its TIMEOUT to be its own: nine tenths. A run is
/// stopped once its own time comes to its limit (read every 50 ms or
/// less), so a run that had its time has all of it; one with less was
/// stopped by the cap of [`MAKE_UP`].
pub const OWN_SHARE: f64 = 0.9;

/// How long the grader waits at most for a quieter machine before it runs
/// again a run that was the machine's: a minute (less when the budget
/// ends sooner). A machine busy for longer is told, not waited for. (A
/// fifth of a second in the crate's own tests, whose runs are closures.)
pub const QUIET_WAIT: Duration = if cfg!(test) {
    Duration::from_millis(200)
} else {
    Duration::from_secs(60)
};

/// How many times a run that was the machine's is run again: once. A
/// machine that gave a run less than a quarter of a core twice, a wait
/// apart, is busy for long: the marker is better told (the fixture NOT
/// GRADED, the machine's) than the grading stretched.
pub const RETRIES: usize = 1;

/// Within this share of a limit, a run stopped at the other was at both:
/// one twentieth.
pub const NEAR: f64 = 0.05;

/// The words a report line of a run at both limits holds, which a
/// regrading reads.
pub const AT_BOTH: &str = "at both limits";

/// How a NOT GRADED line of a fixture the machine's load kept from being
/// graded begins, which a regrading and the feedback read.
pub const MACHINES: &str = "the machine's, not the program's";

/// `limits` with the make-up of the rule: `MAKE_UP` (three) times its time
/// limit.
pub fn made_up(limits: Limits) -> Limits {
    Limits {
        make_up: limits.wall * MAKE_UP,
        ..limits
    }
}

/// Whether a run that ended as `outcome`, under `limits`, had its time:
/// none when it did, or did not reach its time limit, or its waits are
/// not known; else the figures that show it did not, in words (`0.81 s of
/// its own time, 3.19 s waiting for a core, 4 s on the clock`).
pub fn machines_share(outcome: &Outcome, limits: &Limits) -> Option<String> {
    if outcome.ending != Ending::TimedOut {
        return None;
    }
    let (own, waited) = (outcome.own_time()?, outcome.waited?);
    let short = own.as_secs_f64() < limits.wall.as_secs_f64() * OWN_SHARE;
    short.then(|| {
        format!(
            "{:.2} s of its own time, {:.2} s waiting for a core, {:.2} s on the clock",
            own.as_secs_f64(),
            waited.as_secs_f64(),
            outcome.elapsed.as_secs_f64()
        )
    })
}

/// Whether a run stopped at one limit was within [`NEAR`] of the other:
/// at the time limit, its memory's peak near the memory limit; at the
/// memory limit, its own time (or, where waits are unknown, its time on
/// the clock) near the time limit.
pub fn at_both_limits(outcome: &Outcome, limits: &Limits) -> bool {
    let near = |value: f64, limit: f64| limit > 0.0 && value >= limit * (1.0 - NEAR);
    match outcome.ending {
        Ending::TimedOut => outcome
            .memory_peak
            .is_some_and(|peak| near(peak as f64, limits.memory as f64)),
        Ending::MemoryLimit => {
            let own = outcome.own_time().unwrap_or(outcome.elapsed);
            near(own.as_secs_f64(), limits.wall.as_secs_f64())
        }
        _ => false,
    }
}

/// The machine is quieter: fewer tasks ready to run than cores, the one
/// asking not counted, over half a second (five looks).
fn is_quieter() -> Option<bool> {
    let mut running = 0.0;
    let mut cores = 1;
    for look in 0..5 {
        if look > 0 {
            std::thread::sleep(Duration::from_millis(100));
        }
        let load = Load::now();
        cores = load.cores;
        running += f64::from(load.running?.saturating_sub(1));
    }
    Some(running / 5.0 < cores as f64)
}

/// Waits until the machine is quieter ([`is_quieter`]), at most `most`, or
/// a signal that stops the grading: how long it waited, and whether the
/// machine was quieter then (where the kernel does not show its tasks, it
/// waits `most`, and cannot tell).
pub fn wait_for_quieter(most: Duration) -> (Duration, bool) {
    let began = Instant::now();
    loop {
        let quiet = is_quieter();
        if quiet == Some(true) {
            return (began.elapsed(), true);
        }
        if began.elapsed() >= most || signals::caught().is_some() {
            return (began.elapsed(), false);
        }
        if quiet.is_none() {
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

/// What a grading says of the machine at its start (`at` its load then):
/// none when it is not busy; else its load, and what the rule does.
pub fn busy_at_start(at: &Load) -> Option<String> {
    at.is_busy().then(|| {
        format!(
            "the machine is busy ({at}): a run's time limit is its own time, the time it waits for a core made up (up to {MAKE_UP} times its limit more); one that still lacks its time is run again, or left NOT GRADED, the machine's"
        )
    })
}

/// What a grading says of the machine at its end: its load, and the share
/// of the grading's time during which some task waited for a core (from
/// `start`), when either says it was busy; and how many fixtures were left
/// NOT GRADED for it.
pub fn busy_at_end(start: &Load, now: &Load, not_graded: usize) -> Option<String> {
    let pressure = now.pressure_since(start);
    let busy = now.is_busy() || start.is_busy() || pressure.is_some_and(|p| p >= 0.5);
    if !busy && not_graded == 0 {
        return None;
    }
    let mut text = format!("the machine at the end: {now}");
    if let Some(p) = pressure {
        text.push_str(&format!(
            "; some task waited for a core {:.0}% of the grading's time",
            p * 100.0
        ));
    }
    if not_graded > 0 {
        text.push_str(&format!(
            "; {not_graded} fixture run(s) left NOT GRADED, the machine's (no marks lost): grade those submissions again on a quieter machine"
        ));
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        crate::testing::limits(2)
    }

    fn timed_out(elapsed_ms: u64, waited_ms: Option<u64>) -> Outcome {
        Outcome {
            waited: waited_ms.map(Duration::from_millis),
            ..Outcome::new(Ending::TimedOut, Duration::from_millis(elapsed_ms))
        }
    }

    #[test]
    fn the_make_up_is_three_limits() {
        assert_eq!(made_up(limits()).make_up, Duration::from_secs(6));
    }

    /// A run that had its time, a run that did not reach the limit, and
    /// one whose waits are unknown are its own; one stopped by the cap with
    /// less than nine tenths of its limit is the machine's.
    #[test]
    fn only_a_run_short_of_its_time_is_the_machines() {
        let l = limits();
        assert_eq!(machines_share(&timed_out(2000, Some(0)), &l), None);
        assert_eq!(machines_share(&timed_out(5000, Some(3000)), &l), None);
        assert_eq!(machines_share(&timed_out(2000, None), &l), None);
        assert_eq!(
            machines_share(&Outcome::new(Ending::Exited(0), Duration::from_secs(8)), &l),
            None
        );
        assert_eq!(
            machines_share(&timed_out(8000, Some(6400)), &l).as_deref(),
            Some("1.60 s of its own time, 6.40 s waiting for a core, 8.00 s on the clock")
        );
    }

    #[test]
    fn a_run_near_the_other_limit_is_at_both() {
        let l = limits();
        let peak = |bytes| Outcome {
            memory_peak: Some(bytes),
            ..timed_out(2000, Some(0))
        };
        assert!(at_both_limits(&peak(1_000 << 20), &l));
        assert!(!at_both_limits(&peak(900 << 20), &l));
        assert!(!at_both_limits(&timed_out(2000, Some(0)), &l));
        let memory = |ms, waited| Outcome {
            waited: Some(Duration::from_millis(waited)),
            ..Outcome::new(Ending::MemoryLimit, Duration::from_millis(ms))
        };
        assert!(at_both_limits(&memory(1950, 0), &l));
        // Its own time counts, not the clock's.
        assert!(!at_both_limits(&memory(3000, 1500), &l));
        assert!(!at_both_limits(&memory(1000, 0), &l));
    }

    #[test]
    fn a_quiet_machine_is_not_told_of() {
        let quiet = Load {
            one_minute: Some(0.1),
            ..Load::now()
        };
        assert_eq!(busy_at_start(&quiet), None);
        let busy = Load {
            one_minute: Some(6.0),
            cores: 2,
            ..quiet
        };
        let said = busy_at_start(&busy).unwrap();
        assert!(
            said.starts_with("the machine is busy (load 6.00 over the last minute on 2 cores): "),
            "{said}"
        );
        let end = busy_at_end(&quiet, &busy, 2).unwrap();
        assert!(
            end.starts_with("the machine at the end: load 6.00"),
            "{end}"
        );
        assert!(end.ends_with("2 fixture run(s) left NOT GRADED, the machine's (no marks lost): grade those submissions again on a quieter machine"), "{end}");
    }
}
