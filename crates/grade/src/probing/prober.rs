//! The prober: a program run on one input and judged against the
//! reference, in-process, by the rules of `grade` (the input is written to a
//! file named by the reference's answer and prepared as a fixture, so that
//! open choices and `--strict` hold). The fuzzer and the cause experiments
//! ask it about every input they make. Each run draws on the program's
//! [`Budget`], as a run on a fixture does: none starts once it is closed,
//! its time limit is cut to what is left, its time and its timeout count.

use crate::engine::Settings;
use crate::judging::budget::Budget;
use crate::judging::class::Class;
use crate::judging::fixture::{prepare, Allowed, Fixture};
use crate::judging::judge::{judge, Judgement, Ran};
use crate::shared::machine;
use puzzle::input::read_puzzle;
use puzzle_sandbox::{Ending, Job, Runner, Workdir};
use std::fs::{self, File};
use std::io::{self, Read};
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
        let Ok(opened) = self.budget.open(&self.settings.limits(&fixture)) else {
            return Ok(None);
        };
        let limits = &opened.limits;
        let out_path = self.work.join("run.out");
        let err_path = self.work.join("run.err");
        let job = Job {
            program: self.program.to_path_buf(),
            args: Vec::new(),
            path: self.settings.path.clone(),
            read_only: self.settings.read_only.clone(),
            workdir: Workdir::Scratch,
            stdin: File::open(&path)?,
            stdout: File::create(&out_path)?,
            stderr: File::create(&err_path)?,
            limits: limits.clone(),
        };
        self.runs += 1;
        let outcome = self.runner.run(job)?;
        // Stopped before it had its time (the machine's load,
        // crate::shared::machine), or by the budget's cut: it says nothing
        // of the program (no fault is found in it, no cause told by it),
        // and is no timeout of its own.
        let machines = machine::machines_share(&outcome, limits).is_some();
        let timed_out = outcome.ending == Ending::TimedOut && !machines;
        self.budget.book(&opened, timed_out, outcome.elapsed);
        if machines || opened.cut_short(&outcome.ending) {
            return Ok(None);
        }
        let cap = fixture.output_cap();
        let read = |p: &Path| -> io::Result<Vec<u8>> {
            let mut data = Vec::new();
            File::open(p)?.take(cap).read_to_end(&mut data)?;
            Ok(data)
        };
        let (out, err) = (read(&out_path)?, read(&err_path)?);
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
