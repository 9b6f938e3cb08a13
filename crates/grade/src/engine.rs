//! The engine: one program graded on every fixture, several runs at once,
//! the results in the fixtures' order. A run is described by a [`Job`] that
//! a [`Runner`] carries out, then judged ([`crate::judging::judge`]); every
//! run draws on the program's [`Budget`] (`--budget`, `--max-timeouts`),
//! which leaves the fixtures after it closes NOT RUN; a run the machine's
//! load kept from its time is run again on a quieter machine, or its
//! fixture is NOT GRADED, the machine's (the rule of
//! [`crate::shared::machine`]). The prober ([`crate::probing`]) and the
//! modes ([`crate::modes`]) stand on it.

use crate::judging::budget::{Budget, Opened};
use crate::judging::class::{Class, Outcome};
use crate::judging::fixture::{self, Allowed, Fixture};
use crate::judging::judge::{judge, Graded, Judgement, Ran};
use crate::marking::marks;
use crate::shared::machine;
use puzzle_sandbox::{Ending, Job, Limits, Runner, Workdir};
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// How to grade: the rules and the limits of each run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Byte for byte against the reference (`STRICT=1`).
    pub strict: bool,
    /// One time limit in seconds for every run, instead of 10 s plus 60 s a MB.
    pub timeout: Option<u64>,
    /// Runs at once.
    pub jobs: usize,
    /// Memory a run may use, in bytes.
    pub memory: u64,
    /// Processes a run may have at once.
    pub processes: u64,
    /// Files a run may have open at once.
    pub open_files: u64,
    /// What a run may read besides the system's folders and the program.
    pub read_only: Vec<PathBuf>,
    /// The `PATH` of a run.
    pub path: OsString,
    /// The marking scheme (its time limits too).
    pub scheme: marks::Scheme,
    /// The time a submission may take in all (its build, runs and
    /// fuzzing): a run is not started after it, and one it cuts short is
    /// NOT RUN, not a TIMEOUT.
    pub budget: Option<Duration>,
    /// After this many runs of a submission have timed out (any run: on
    /// a fixture, a repeat, a confirmation, an experiment, the fuzzing),
    /// no other starts: its fixtures left are NOT RUN, the experiments and
    /// the fuzzing stop.
    pub max_timeouts: Option<usize>,
    /// How many times a failed run whose ending can depend on the machine
    /// (a timeout, a limit, a signal) is run again before it costs marks
    /// (`--confirm`; 0: never).
    pub confirm: usize,
    /// How many times every fixture is run (`--repeat`; 1: once), to find
    /// programs whose answers differ from run to run.
    pub repeat: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            strict: false,
            timeout: None,
            jobs: 2,
            memory: 1 << 30,
            processes: 64,
            open_files: 64,
            read_only: Vec::new(),
            path: "/usr/local/bin:/usr/bin:/bin".into(),
            scheme: marks::Scheme::default(),
            budget: None,
            max_timeouts: None,
            confirm: 1,
            repeat: 1,
        }
    }
}

impl Settings {
    /// The budget of one program's grading, starting now: `--budget` and
    /// `--max-timeouts`.
    pub fn budget(&self) -> Budget {
        Budget::new(self.budget, self.max_timeouts)
    }

    /// The limits of a run on `fixture` (its waits for a core made up, as
    /// [`machine::made_up`] says).
    pub fn limits(&self, fixture: &Fixture) -> Limits {
        machine::made_up(Limits {
            wall: Duration::from_secs(
                fixture.time_limit(self.scheme.time_limit(fixture).or(self.timeout)),
            ),
            make_up: Duration::ZERO,
            memory: self.memory,
            processes: self.processes,
            file_size: fixture.output_cap(),
            open_files: self.open_files,
            folder: None,
        })
    }
}

/// Finds the fixtures of `folders` and decides what each allows.
pub fn prepare_fixtures(folders: &[PathBuf], strict: bool) -> io::Result<Vec<Fixture>> {
    fixture::find_fixtures(folders)?
        .into_iter()
        .map(|(shown, path)| fixture::prepare(shown, path, strict))
        .collect()
}

/// Reads at most `cap` bytes of the file at `path`.
pub(crate) fn read_capped(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let mut data = Vec::new();
    File::open(path)?.take(cap).read_to_end(&mut data)?;
    Ok(data)
}

/// A consistent failure of a class is confirmed this many times in a row,
/// then taken as it is: a program that hangs on every fixture is not run
/// twice on each.
const CONFIRMED_ENOUGH: usize = 3;

/// The classes whose runs are confirmed: those that can depend on the
/// machine (its load, when it was sampled) and not only on the program.
fn machine_may_decide(judgement: &Judgement) -> Option<Class> {
    match judgement {
        Judgement::Noted(c, _) if c.machine_may_decide() => Some(*c),
        _ => None,
    }
}

/// How the confirmations of one program went, class by class: how many
/// failures in a row were confirmed.
#[derive(Default)]
struct Confirmations {
    in_a_row: Mutex<[usize; Class::ALL.len()]>,
}

/// One judged run of a program on a fixture ([`run_once`]), and, when the
/// machine's load kept it from its time, the figures that show it
/// ([`machine::machines_share`]): then its judgement says nothing of the
/// program.
struct Once {
    graded: Graded,
    machines: Option<String>,
}

/// A judged run of the program on a fixture that the machine's load did
/// not decide (`once` being one run, [`run_once`]): a run that was the
/// machine's is run again once the machine is quieter, [`machine::RETRIES`]
/// times; if every run was the machine's, the fixture is NOT GRADED, the
/// machine's, and its points are kept. No wait goes past the end of
/// `budget`.
fn fair_run(once: &dyn Fn() -> io::Result<Once>, budget: &Budget) -> io::Result<Graded> {
    let first = once()?;
    let Some(share) = first.machines else {
        return Ok(first.graded);
    };
    let mut story = share;
    let mut last = first.graded;
    for _ in 0..machine::RETRIES {
        let left = budget.left().unwrap_or(machine::QUIET_WAIT);
        let (waited, _) = machine::wait_for_quieter(left.min(machine::QUIET_WAIT));
        if budget.closed().is_some() {
            break;
        }
        let again = once()?;
        let Some(share) = again.machines else {
            return Ok(again.graded);
        };
        story.push_str(&format!(
            "; then, after {:.0} s waiting for a quieter machine, {share}",
            waited.as_secs_f64()
        ));
        last = again.graded;
    }
    Ok(Graded {
        judgement: Judgement::Noted(
            Class::NotGraded,
            format!(
                "{}: stopped at its time limit ({} s) before it had its time: {story}; no marks lost: grade it again on a quieter machine",
                machine::MACHINES,
                last.time.map_or(0, |(_, limit)| limit),
            ),
        ),
        ..last
    })
}

/// Whether a fixture's graded run was left NOT GRADED by the machine's
/// load.
fn is_machines(graded: &Graded) -> bool {
    matches!(&graded.judgement, Judgement::Noted(Class::NotGraded, text) if text.starts_with(machine::MACHINES))
}

/// Runs a fixture as the settings ask, `once` being one judged run of the
/// program on it ([`run_once`]), each kept from the machine's load
/// ([`fair_run`]): once; `repeat` times; a failure the machine may have
/// caused `confirm` more times. Runs that disagree make it FLAKY
/// ([`Graded::flaky`]), marked by the rule of [`combine`]. A repeat or a
/// confirmation the budget kept from starting or cut short, or the
/// machine's load kept from its time, says nothing of the program: it is
/// left out of the fixture's runs (the fixture is NOT RUN only when its
/// first run is, FLAKY only for runs that ran).
fn run_fixture(
    once: &dyn Fn() -> io::Result<Once>,
    settings: &Settings,
    budget: &Budget,
    confirmations: &Confirmations,
) -> io::Result<Graded> {
    let once = || fair_run(once, budget);
    let first = once()?;
    if not_ran(&first) || is_machines(&first) {
        return Ok(first);
    }
    let mut runs = vec![first];
    let another = || -> io::Result<Option<Graded>> {
        let run = once()?;
        Ok((!not_ran(&run) && !is_machines(&run)).then_some(run))
    };
    for _ in 1..settings.repeat.max(1) {
        if let Some(run) = another()? {
            runs.push(run);
        }
    }
    if let (1, Some(class)) = (runs.len(), machine_may_decide(&runs[0].judgement)) {
        let confirm = lock(&confirmations.in_a_row)[class as usize] < CONFIRMED_ENOUGH;
        if confirm {
            for _ in 0..settings.confirm {
                let Some(again) = another()? else { break };
                let agrees = again.judgement.outcome(settings.strict) == Outcome::Noted(class);
                runs.push(again);
                if !agrees {
                    break;
                }
            }
            // A failure no run could confirm (the budget, the machine's
            // load) is no run of failures confirmed.
            if runs.len() > 1 {
                let agreed = runs
                    .iter()
                    .all(|r| r.judgement.outcome(settings.strict) == Outcome::Noted(class));
                let mut in_a_row = lock(&confirmations.in_a_row);
                in_a_row[class as usize] = if agreed {
                    in_a_row[class as usize] + 1
                } else {
                    0
                };
            }
        }
    }
    Ok(combine(runs, settings.strict))
}

/// Whether `graded` is no run of the program: not started, or cut short by
/// the budget.
fn not_ran(graded: &Graded) -> bool {
    graded.time.is_none() || matches!(graded.judgement, Judgement::Noted(Class::NotRun, _))
}

/// One fixture's runs as one: the first when they agree; else FLAKY, and
/// marked by the rule `docs/grading-design.md` gives: when they disagree only in
/// timing out (some ran past the time limit, the others finished), the
/// worst of those that finished (how long a run takes depends on the
/// machine's load; what it answers when it finishes is the program's);
/// otherwise the worst of all (a program whose answer, or whose crash,
/// changes from run to run is at fault, as with uninitialised memory).
fn combine(mut runs: Vec<Graded>, strict: bool) -> Graded {
    let outcomes: Vec<Outcome> = runs.iter().map(|r| r.judgement.outcome(strict)).collect();
    if outcomes.iter().all(|o| *o == outcomes[0]) {
        return runs.swap_remove(0);
    }
    let said: Vec<String> = outcomes
        .iter()
        .enumerate()
        .map(|(i, o)| format!("{} in run {}", o.name(), i + 1))
        .collect();
    // Worse first: a failing class before passing, and the more serious
    // class (Class's order) first.
    let badness = |g: &Graded| match &g.judgement {
        Judgement::Noted(c, _) if c.fails(strict) => Class::ALL.len() - *c as usize,
        _ => 0,
    };
    let finished: Vec<usize> = (0..runs.len())
        .filter(|&i| outcomes[i] != Outcome::Noted(Class::Timeout))
        .collect();
    let only_timing = !finished.is_empty()
        && finished
            .iter()
            .all(|&i| outcomes[i] == outcomes[finished[0]]);
    let (pick, why) = if only_timing {
        (
            finished[0],
            "marked as the runs that finished: how long a run takes depends on the machine's load",
        )
    } else {
        let worst = (0..runs.len())
            .max_by_key(|&i| (badness(&runs[i]), std::cmp::Reverse(i)))
            .unwrap_or(0);
        (
            worst,
            "marked as its worst run: a program whose outcome changes from run to run is at fault",
        )
    };
    let mut graded = runs.swap_remove(pick);
    graded.flaky = Some(format!("{}; {why}", said.join(", ")));
    graded
}

/// A run of a program being graded that started ([`run_booked`]).
pub(crate) struct Booked {
    /// It opened in the budget so: its limits, whether they were cut.
    pub opened: Opened,
    /// How it ended.
    pub outcome: puzzle_sandbox::Outcome,
    /// When the machine's load kept it from its time (not the budget's
    /// cut), the figures that show it ([`machine::machines_share`]).
    pub machines: Option<String>,
}

/// Runs `program` on `fixture` once as every run of a program being
/// graded is run (a fixture's, an experiment's, the fuzzing's): opened in
/// `budget` first (none once it is closed: why not), its stdout and stderr
/// into the files `out` and `err`, then booked (its time; its timeout
/// unless the budget's cut or the machine's load ended it). A run the
/// budget cut short ([`Opened::cut_short`]) or the machine's load kept
/// from its time says nothing of the program: its caller leaves it out.
pub(crate) fn run_booked(
    runner: &dyn Runner,
    program: &Path,
    fixture: &Fixture,
    settings: &Settings,
    out: &Path,
    err: &Path,
    budget: &Budget,
) -> io::Result<Result<Booked, String>> {
    let opened = match budget.open(&settings.limits(fixture)) {
        Ok(opened) => opened,
        Err(why) => return Ok(Err(why)),
    };
    let job = Job {
        program: program.to_path_buf(),
        args: Vec::new(),
        path: settings.path.clone(),
        read_only: settings.read_only.clone(),
        workdir: Workdir::Scratch,
        stdin: File::open(&fixture.path)?,
        stdout: File::create(out)?,
        stderr: File::create(err)?,
        limits: opened.limits.clone(),
    };
    let outcome = runner.run(job)?;
    // Stopped at its limit before it had its time: the machine's, no
    // timeout of the program.
    let machines = machine::machines_share(&outcome, &opened.limits).filter(|_| !opened.cut);
    let timed_out = outcome.ending == Ending::TimedOut && machines.is_none();
    budget.book(&opened, timed_out, outcome.elapsed);
    Ok(Ok(Booked {
        opened,
        outcome,
        machines,
    }))
}

/// Runs `program` on `fixture` once (its outputs in `work`, as `slot.out`
/// and `slot.err`), in `budget` (not started once it is closed, its time
/// limit cut to what is left), and judges the run: NOT RUN, without a
/// time, when the budget kept it from starting or cut it short.
fn run_once(
    runner: &dyn Runner,
    program: &Path,
    fixture: &Fixture,
    settings: &Settings,
    work: &Path,
    slot: usize,
    budget: &Budget,
) -> io::Result<Once> {
    if let Allowed::NotGraded(why) = &fixture.allowed {
        return Ok(Once {
            graded: Graded {
                judgement: Judgement::Noted(Class::NotGraded, why.clone()),
                time: None,
                flaky: None,
                output: None,
            },
            machines: None,
        });
    }
    let not_run = |why: String| Once {
        graded: Graded {
            judgement: Judgement::Noted(Class::NotRun, why),
            time: None,
            flaky: None,
            output: None,
        },
        machines: None,
    };
    let out_path = work.join(format!("{slot}.out"));
    let err_path = work.join(format!("{slot}.err"));
    let booked = run_booked(
        runner, program, fixture, settings, &out_path, &err_path, budget,
    )?;
    let Booked {
        opened,
        outcome,
        machines,
    } = match booked {
        Ok(booked) => booked,
        Err(why) => return Ok(not_run(why)),
    };
    // Cut short by the budget: NOT RUN. (One the machine's load kept from
    // its time is judged, and run again on a quieter machine: [`fair_run`].)
    if opened.cut_short(&outcome.ending) {
        return Ok(not_run(budget.spent_words()));
    }
    let limits = &opened.limits;
    let cap = fixture.output_cap();
    let out = read_capped(&out_path, cap)?;
    let err = read_capped(&err_path, cap)?;
    let ran = Ran {
        ending: outcome.ending,
        memory_stop: outcome.memory_stop,
        at_both_limits: machine::at_both_limits(&outcome, limits),
        out: &out,
        err: &err,
    };
    let judgement = judge(fixture, &ran, limits, settings.strict);
    let output = ran.output(&judgement);
    // Where the memory limit could only be an address-space limit, a run
    // that failed may have failed for it alone (a program that reserves a
    // GiB and uses a MB): the line says so, wherever it is shown.
    let judgement = match judgement {
        Judgement::Noted(class, text)
            if !outcome.memory_limit.is_resident()
                && class.fails(true)
                && !matches!(class, Class::Format | Class::MemoryLimit) =>
        {
            Judgement::Noted(
                class,
                format!(
                    "{text} [under an address-space memory limit of {} MiB here, not resident memory: a program that reserves more than it uses may fail for the limit alone]",
                    limits.memory >> 20
                ),
            )
        }
        other => other,
    };
    Ok(Once {
        graded: Graded {
            judgement,
            time: Some((outcome.elapsed, limits.wall.as_secs())),
            flaky: None,
            output: Some(output),
        },
        machines,
    })
}

/// Grades `program` on every fixture, `settings.jobs` runs at once (the
/// results in the fixtures' order, whatever the order the runs end in);
/// `work` is a folder for the runs' outputs; `done` is called after each
/// fixture. The first failure to run stops the grading. Every run draws on
/// `budget`: once it is closed (its time spent, or `--max-timeouts` runs
/// timed out) the fixtures left are NOT RUN.
pub fn grade_program(
    runner: &dyn Runner,
    program: &Path,
    fixtures: &[Fixture],
    settings: &Settings,
    work: &Path,
    done: &(dyn Fn(usize) + Sync),
    budget: &Budget,
) -> io::Result<Vec<Graded>> {
    let confirmations = &Confirmations::default();
    // Smallest fixture first (the results stay in the fixtures' order): a
    // budget or a cap on timeouts then runs out on the largest boards, where a
    // slow but right program times out, not on the small ones it would pass.
    let mut order: Vec<usize> = (0..fixtures.len()).collect();
    order.sort_by_key(|&i| (fixtures[i].size, i));
    let order = &order;
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Graded>>> = Mutex::new(vec![None; fixtures.len()]);
    let failure: Mutex<Option<io::Error>> = Mutex::new(None);
    let threads = settings.jobs.clamp(1, fixtures.len().max(1));
    std::thread::scope(|scope| {
        for slot in 0..threads {
            let (next, finished, results, failure) = (&next, &finished, &results, &failure);
            scope.spawn(move || {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::SeqCst)) {
                    if lock(failure).is_some() {
                        break;
                    }
                    let graded = run_fixture(
                        &|| run_once(runner, program, &fixtures[i], settings, work, slot, budget),
                        settings,
                        budget,
                        confirmations,
                    );
                    match graded {
                        Ok(graded) => lock(results)[i] = Some(graded),
                        Err(e) => {
                            lock(failure).get_or_insert(e);
                            break;
                        }
                    }
                    done(finished.fetch_add(1, Ordering::SeqCst) + 1);
                }
            });
        }
    });
    for slot in 0..threads {
        let _ = fs::remove_file(work.join(format!("{slot}.out")));
        let _ = fs::remove_file(work.join(format!("{slot}.err")));
    }
    if let Some(e) = lock(&failure).take() {
        return Err(e);
    }
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(results.into_iter().flatten().collect())
}

/// A mutex's data, also after a thread panicked holding it.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
