//! The prober: a program run on one input and judged against the
//! reference, in-process, by the rules of `grade` (the input is written to a
//! file named by the reference's answer and prepared as a fixture, so that
//! open choices and `--strict` hold). The fuzzer and the cause experiments
//! ask it about every input they make. Each run draws on the program's
//! [`Budget`], as a run on a fixture does: none starts once it is closed,
//! its time limit is cut to what is left, its time and its timeout count.

use crate::engine::{read_capped, run_booked, Booked, Settings};
use crate::judging::budget::Budget;
use crate::judging::class::Class;
use crate::judging::fixture::{prepare, Allowed, Fixture};
use crate::judging::judge::{judge, Judgement, Ran};
use crate::shared::machine;
use puzzle::input::read_puzzle;
use puzzle_sandbox::{Ending, Runner};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One input judged.
pub(super) struct Tried {
    /// The class of its failing judgement, if it fails.
    pub failed: Option<Class>,
    /// The judgement of the run.
    pub judgement: Judgement,
    /// The input as a fixture, named by the reference's answer.
    pub fixture: Fixture,
    /// How the run ended.
    pub ending: Ending,
    /// What it wrote on stdout, up to the fixture's cap.
    pub out: Vec<u8>,
    /// What it wrote on stderr, up to the fixture's cap.
    pub err: Vec<u8>,
}

/// Runs the program on inputs and judges each.
pub(super) struct Prober<'a> {
    /// Runs the program.
    pub runner: &'a dyn Runner,
    /// The program under test.
    pub program: &'a Path,
    /// The grading's rules and limits.
    pub settings: &'a Settings,
    /// A folder for the inputs and the runs' outputs.
    pub work: PathBuf,
    /// What every run draws on.
    pub budget: &'a Budget,
    /// Runs so far.
    pub runs: usize,
}

impl Prober<'_> {
    /// Runs the program on `input` and judges the run against the
    /// reference's answer; none when the budget kept the run from starting
    /// or cut it short, or the machine's load kept it from its time (it
    /// says nothing of the program).
    pub fn try_input(&mut self, input: &[u8]) -> io::Result<Option<Tried>> {
        let category = match read_puzzle(input) {
            Ok(puzzle) if puzzle.is_solvable() => "sol",
            Ok(_) => "unsol",
            Err(_) => "bad",
        };
        // Named by the reference's answer, so that prepare grades it as such.
        let path = self.work.join(format!("{category}_fuzz.inp"));
        fs::write(&path, input)?;
        let fixture = prepare(
            path.display().to_string(),
            path.clone(),
            self.settings.strict,
        )?;
        let out_path = self.work.join("run.out");
        let err_path = self.work.join("run.err");
        let booked = run_booked(
            self.runner,
            self.program,
            &fixture,
            self.settings,
            &out_path,
            &err_path,
            self.budget,
        )?;
        let Ok(Booked {
            opened,
            outcome,
            machines,
        }) = booked
        else {
            // The budget kept it from starting.
            return Ok(None);
        };
        self.runs += 1;
        // Stopped before it had its time (the machine's load,
        // crate::shared::machine), or by the budget's cut: it says nothing
        // of the program (no fault is found in it, no cause told by it).
        if machines.is_some() || opened.cut_short(&outcome.ending) {
            return Ok(None);
        }
        let limits = &opened.limits;
        let cap = fixture.output_cap();
        let (out, err) = (read_capped(&out_path, cap)?, read_capped(&err_path, cap)?);
        let judgement = if matches!(fixture.allowed, Allowed::NotGraded(_)) {
            Judgement::Passed
        } else {
            let ran = Ran {
                ending: outcome.ending,
                memory_stop: outcome.memory_stop,
                at_both_limits: machine::at_both_limits(&outcome, limits),
                out: &out,
                err: &err,
            };
            judge(&fixture, &ran, limits, self.settings.strict)
        };
        let failed = match &judgement {
            Judgement::Noted(class, _) if judgement.fails(self.settings.strict) => Some(*class),
            _ => None,
        };
        Ok(Some(Tried {
            failed,
            judgement,
            fixture,
            ending: outcome.ending,
            out,
            err,
        }))
    }
}
