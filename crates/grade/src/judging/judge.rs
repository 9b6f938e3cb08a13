//! Judging one run of a program on one fixture by the assignment's rules:
//! how the run ended (the output cap, limits, signals) first, then the
//! verdict, then the rejection or acceptance, then the format.

use crate::judging::class::{Class, Outcome};
use crate::judging::fixture::{Allowed, Category, Fixture};
use crate::judging::open_choice::in_words;
use crate::judging::verdict::{find_stuck_verdict, find_verdict, Said};
use crate::shared::digest::{fnv1a, fnv1a_more};
use crate::shared::machine::AT_BOTH;
use crate::shared::text::{
    difference, echoes_a_board, has_text, kind_of_difference, lines, message, not_one_error_line,
    one_line, parting_line, quote, quote_end,
};
use puzzle_sandbox::{Ending, Limits, MemoryStop};
use std::time::Duration;

/// What grading one fixture found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Nothing to say.
    Passed,
    /// A bad board rejected as required: its message, to judge by eye.
    Message(String),
    /// A report line of this class.
    Noted(Class, String),
}

impl Judgement {
    /// Whether the fixture failed.
    pub fn fails(&self, strict: bool) -> bool {
        matches!(self, Judgement::Noted(class, _) if class.fails(strict))
    }

    /// Whether it passed or failed, and of which class: passed, or its
    /// failing class (a class that does not fail is a pass here).
    pub fn outcome(&self, strict: bool) -> Outcome {
        match self {
            Judgement::Noted(class, _) if class.fails(strict) => Outcome::Noted(*class),
            _ => Outcome::Passed,
        }
    }

    /// Its outcome as a record keeps it: passed, or the class of its
    /// report line, whether it fails or not.
    pub fn recorded(&self) -> Outcome {
        match self {
            Judgement::Passed | Judgement::Message(_) => Outcome::Passed,
            Judgement::Noted(class, _) => Outcome::Noted(*class),
        }
    }
}

/// One fixture graded.
#[derive(Clone, Debug)]
pub struct Graded {
    /// What was found (of the run that counts, when several disagreed).
    pub judgement: Judgement,
    /// The run's time and its limit in seconds (none when it was not run).
    pub time: Option<(Duration, u64)>,
    /// When runs of it disagreed (FLAKY): what each gave, and which counts.
    pub flaky: Option<String>,
    /// What the run that counts did (none when it was not run): its
    /// digest, whether two programs gave the same answer, and the first
    /// bytes of its outputs when it failed.
    pub output: Option<Output>,
}

/// What a run did, as a grading keeps it of each fixture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// Its digest ([`Ran::digest`]): two runs of one digest gave the same
    /// answer, byte for byte.
    pub digest: u64,
    /// The first bytes of its two outputs ([`Ran::excerpt`]), kept when
    /// its answer was not right (none for a right one, and in a grading of
    /// a version before 3).
    pub excerpt: Option<Excerpt>,
}

/// The most bytes of each of a run's outputs an [`Excerpt`] keeps.
pub const EXCERPT: usize = 200;

/// The first bytes of a run's stdout and stderr, as a marker reads them
/// beside another program's: a pair's page shows what each gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excerpt {
    /// Its stdout's first bytes.
    pub stdout: Head,
    /// Its stderr's first bytes.
    pub stderr: Head,
}

/// The first [`EXCERPT`] bytes of an output made one line and safe
/// (`shared::text::one_line`: a newline is `\n`, a control character an
/// escape; bytes that are not UTF-8 are U+FFFD), and how many bytes the
/// output had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// The first bytes, as text.
    pub text: String,
    /// How many bytes the whole output had (up to the fixture's cap).
    pub bytes: u64,
}

impl Head {
    /// The head of `output`.
    pub fn of(output: &[u8]) -> Head {
        let first = &output[..output.len().min(EXCERPT)];
        Head {
            text: one_line(&String::from_utf8_lossy(first)),
            bytes: output.len() as u64,
        }
    }

    /// Whether the text is all of the output.
    pub fn is_whole(&self) -> bool {
        self.bytes as usize <= EXCERPT
    }
}

/// What a run left: how it ended and its two outputs.
pub struct Ran<'a> {
    /// How it ended.
    pub ending: Ending,
    /// With [`Ending::MemoryLimit`]: how the limit stopped it, where the
    /// runner said (how it was measured, what the run did).
    pub memory_stop: Option<MemoryStop>,
    /// Stopped at the time or the memory limit, it was within a twentieth
    /// of the other ([`machine::at_both_limits`](crate::shared::machine::at_both_limits)).
    pub at_both_limits: bool,
    /// Its stdout.
    pub out: &'a [u8],
    /// Its stderr.
    pub err: &'a [u8],
}

impl Ran<'_> {
    /// The FNV-1a digest of what the run did: how it ended (its exit
    /// status, its signal, a limit), and, unless a limit stopped it (then
    /// what it had written by then is the machine's timing), its stdout
    /// and its stderr. Two runs of one digest gave the same answer, byte
    /// for byte: what similarity's behaviour evidence compares.
    pub fn digest(&self) -> u64 {
        let ending = match self.ending {
            Ending::Exited(status) => format!("exited {status}"),
            Ending::Signalled(signal) => format!("signal {signal}"),
            Ending::TimedOut => return fnv1a(b"timed out"),
            Ending::MemoryLimit => return fnv1a(b"memory limit"),
            Ending::ProcessLimit => return fnv1a(b"process limit"),
        };
        let digest = fnv1a_more(
            fnv1a(ending.as_bytes()),
            &(self.out.len() as u64).to_le_bytes(),
        );
        fnv1a_more(fnv1a_more(digest, self.out), self.err)
    }

    /// The first bytes of its stdout and stderr ([`Head`]).
    pub fn excerpt(&self) -> Excerpt {
        Excerpt {
            stdout: Head::of(self.out),
            stderr: Head::of(self.err),
        }
    }

    /// What it did as a grading keeps it, judged `judgement`: its digest,
    /// and its excerpt unless its answer was right (passed, or one of the
    /// ways the assignment leaves open).
    pub fn output(&self, judgement: &Judgement) -> Output {
        Output {
            digest: self.digest(),
            excerpt: (!judgement.recorded().is_right()).then(|| self.excerpt()),
        }
    }
}

/// A signal's name, as `kill -l` gives it on Linux (`SEGV`; `?` when it has
/// none): the one table of them (`run` says `SIGSEGV`).
pub fn signal_name(signal: i32) -> &'static str {
    const NAMES: [&str; 32] = [
        "", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV",
        "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU",
        "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
    ];
    usize::try_from(signal)
        .ok()
        .and_then(|i| NAMES.get(i).copied())
        .filter(|name| !name.is_empty())
        .unwrap_or("?")
}

/// Judges `ran` on `fixture`, run with `limits`; `strict` grades byte for
/// byte against the reference: first how the run ended (the output cap,
/// the time and other limits, a signal), then the verdict it printed
/// against the answers the fixture allows, then the rejection or the
/// acceptance.
pub fn judge(fixture: &Fixture, ran: &Ran, limits: &Limits, strict: bool) -> Judgement {
    let judging = Judging {
        fixture,
        ran,
        strict,
    };
    let status = match judging.exit_status(limits) {
        Ok(status) => status,
        Err(judgement) => return judgement,
    };
    // A verdict stuck to the end of an echoed board counts only after an
    // exit status of 0: then the program accepted the board.
    let found = find_verdict(ran.out).or_else(|| match status {
        0 => find_stuck_verdict(ran.out),
        _ => None,
    });
    if let Some(judgement) = judging.not_allowed(found, status) {
        return judgement;
    }
    match found {
        None => judging.rejection(status),
        Some(found) => judging.acceptance(found, status),
    }
}

/// One run on one fixture, being judged.
struct Judging<'a> {
    fixture: &'a Fixture,
    ran: &'a Ran<'a>,
    strict: bool,
}

impl Judging<'_> {
    /// `; stderr '...'` when the run wrote to stderr, for the end of a report.
    fn with_stderr(&self) -> String {
        if self.ran.err.is_empty() {
            String::new()
        } else {
            format!("; stderr {}", quote(self.ran.err, 1, 1, false))
        }
    }

    /// The run's exit status, or the judgement of a run that did not exit
    /// on its own: its output capped, stopped at the time, memory or
    /// process limit of `limits`, killed by a signal.
    fn exit_status(&self, limits: &Limits) -> Result<i32, Judgement> {
        let ran = self.ran;
        let cap = self.fixture.output_cap();
        if ran.out.len() as u64 >= cap || ran.err.len() as u64 >= cap {
            return Err(Judgement::Noted(
                Class::Crash,
                format!("output capped at {cap} bytes"),
            ));
        }
        let (class, text) = match ran.ending {
            Ending::TimedOut if ran.at_both_limits => {
                let limit = limits.wall.as_secs();
                let text = format!(
                    "still running after {limit} s, its memory within a twentieth of the limit ({} MiB): {AT_BOTH}, and which came first is the machine's speed; killed",
                    limits.memory >> 20
                );
                (Class::Timeout, text)
            }
            Ending::TimedOut => {
                let limit = limits.wall.as_secs();
                let text = format!("still running after {limit} s; killed");
                (Class::Timeout, text)
            }
            Ending::MemoryLimit => {
                let mib = limits.memory >> 20;
                // How the limit was measured, not what the run did after:
                // whether the sampler saw it before it failed is chance,
                // and a report reads the same at every grading.
                let how = match ran.memory_stop {
                    Some(stop) => format!(" {}", stop.held.measured()),
                    None => String::new(),
                };
                let both = if ran.at_both_limits {
                    format!(
                        ", within a twentieth of its time limit ({} s): {AT_BOTH}, and which came first is the machine's speed",
                        limits.wall.as_secs()
                    )
                } else {
                    String::new()
                };
                let text = format!(
                    "stopped by the memory limit ({mib} MiB{how}){both}{}",
                    self.with_stderr()
                );
                (Class::MemoryLimit, text)
            }
            Ending::ProcessLimit => {
                let n = limits.processes;
                let text = format!(
                    "stopped by the process limit ({n} processes at once){}",
                    self.with_stderr()
                );
                (Class::ProcessLimit, text)
            }
            Ending::Signalled(signal) => {
                let name = signal_name(signal);
                let text = format!("killed by signal {signal} ({name}){}", self.with_stderr());
                (Class::Crash, text)
            }
            Ending::Exited(status) => return Ok(status),
        };
        Err(Judgement::Noted(class, text))
    }

    /// The verdict as a report shows it: the word, and the line it was read
    /// from (by its end) when that is not the word itself.
    fn as_read(&self, s: Said) -> String {
        if s.plain {
            format!("'{}'", s.verdict.word())
        } else {
            format!(
                "'{}' (read from {})",
                s.verdict.word(),
                quote_end(self.ran.out, s.line, false)
            )
        }
    }

    /// The judgement of an answer the fixture does not allow (the verdict
    /// `found`, or none: a rejection), after exit `status`; `None` for an
    /// allowed one.
    fn not_allowed(&self, found: Option<Said>, status: i32) -> Option<Judgement> {
        let answer = match found.map(|s| s.verdict) {
            Some(v) if v.word() == "solvable" => Category::Sol,
            Some(_) => Category::Unsol,
            None => Category::Bad,
        };
        let allowed = &self.fixture.allowed;
        if allowed.allows(answer) {
            return None;
        }
        Some(match found {
            None => Judgement::Noted(
                Class::FalseError,
                format!(
                    "no verdict: {} (exit status {status}{}), expected {allowed}",
                    message(self.ran.out, false),
                    self.with_stderr()
                ),
            ),
            Some(found) if *allowed == Allowed::Only(Category::Bad) => Judgement::Noted(
                Class::MissedError,
                format!(
                    "accepted it: {} (exit status {status}), expected an error",
                    self.as_read(found)
                ),
            ),
            Some(found) => Judgement::Noted(
                Class::WrongVerdict,
                format!("{}, expected {allowed}", self.as_read(found)),
            ),
        })
    }

    /// The judgement of an allowed rejection (no verdict), after exit
    /// `status`: where its message went, its exit status, then its format.
    fn rejection(&self, status: i32) -> Judgement {
        let (ran, strict) = (self.ran, self.strict);
        let message = || message(ran.out, false);
        if !lines(ran.out).into_iter().any(has_text) {
            if ran.err.is_empty() {
                let text = format!("exit status {status} and nothing on stdout or stderr");
                Judgement::Noted(Class::NoMessage, text)
            } else {
                let text = format!(
                    "nothing on stdout (exit status {status}); stderr {}",
                    quote(ran.err, 1, 1, false)
                );
                Judgement::Noted(Class::ErrorOnStderr, text)
            }
        } else if status == 0 {
            let text = format!(
                "exit status 0 after {}, expected EXIT_FAILURE (1)",
                message()
            );
            Judgement::Noted(Class::WrongExitStatus, text)
        } else if strict && status != 1 {
            let text = format!("exit status {status} after {}, expected 1", message());
            Judgement::Noted(Class::WrongExitStatus, text)
        } else if let Some(wrong) = not_one_error_line(ran.out).filter(|_| strict) {
            Judgement::Noted(Class::Format, format!("{wrong}{}", self.with_stderr()))
        } else if strict && !ran.err.is_empty() {
            let text = format!("stderr not empty: {}", quote(ran.err, 1, 1, false));
            Judgement::Noted(Class::Format, text)
        } else if !self.fixture.choices.is_empty() {
            let choices = in_words(&self.fixture.choices);
            let text = format!("rejected it ({choices}): {}", message());
            Judgement::Noted(Class::Open, text)
        } else if !strict && lines(ran.out).into_iter().any(echoes_a_board) {
            let text = format!(
                "echoed the boards before its message: {}, then {}",
                quote(ran.out, 1, 1, false),
                message()
            );
            Judgement::Noted(Class::Format, text)
        } else {
            Judgement::Message(crate::shared::text::message(ran.out, true))
        }
    }

    /// The judgement of an allowed acceptance, the verdict `found`, after
    /// exit `status`: its exit status, then its output against the
    /// reference's.
    fn acceptance(&self, found: Said, status: i32) -> Judgement {
        let (fixture, ran) = (self.fixture, self.ran);
        let said = self.as_read(found);
        if status != 0 {
            let text = format!("exit status {status} after the verdict {said}, expected 0");
            Judgement::Noted(Class::WrongExitStatus, text)
        } else if !fixture.choices.is_empty() {
            let choices = in_words(&fixture.choices);
            Judgement::Noted(Class::Open, format!("accepted it ({choices}): {said}"))
        } else if fixture.expected != ran.out {
            // A verdict read leniently is named, unless the difference
            // shown is its line.
            let word = if found.plain || parting_line(&fixture.expected, ran.out) == found.line {
                String::new()
            } else {
                format!(
                    "; the verdict {} read as '{}'",
                    quote_end(ran.out, found.line, false),
                    found.verdict.word()
                )
            };
            let text = format!(
                "{} ({}){word}{}",
                difference(&fixture.expected, ran.out),
                kind_of_difference(&fixture.expected, ran.out),
                self.with_stderr()
            );
            Judgement::Noted(Class::Format, text)
        } else if !ran.err.is_empty() {
            let text = format!("stderr not empty: {}", quote(ran.err, 1, 1, false));
            Judgement::Noted(Class::Format, text)
        } else {
            Judgement::Passed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn fixture(name: &str, text: &[u8]) -> Fixture {
        let (expected, _) = crate::judging::fixture::reference_answer(text);
        let named = Category::of_name(name);
        Fixture {
            shown: name.into(),
            path: PathBuf::from(name),
            size: text.len() as u64,
            digest: 0,
            named,
            allowed: Allowed::Only(named),
            choices: Vec::new(),
            expected,
        }
    }

    fn limits() -> Limits {
        crate::testing::limits(3)
    }

    fn judged(f: &Fixture, ending: Ending, out: &str, err: &str) -> Judgement {
        let ran = Ran {
            ending,
            memory_stop: None,
            at_both_limits: false,
            out: out.as_bytes(),
            err: err.as_bytes(),
        };
        judge(f, &ran, &limits(), false)
    }

    /// A run stopped at one limit within a twentieth of the other is said
    /// to be at both, in the class of the limit that stopped it.
    #[test]
    fn a_run_at_both_limits_says_so() {
        let f = fixture("sol_x", b"1 2 3 b\n1 2 b 3\n");
        let both = |ending| {
            let ran = Ran {
                ending,
                memory_stop: None,
                at_both_limits: true,
                out: b"",
                err: b"",
            };
            judge(&f, &ran, &limits(), false)
        };
        assert_eq!(
            both(Ending::TimedOut),
            Judgement::Noted(
                Class::Timeout,
                "still running after 3 s, its memory within a twentieth of the limit (1024 MiB): at both limits, and which came first is the machine's speed; killed".into()
            )
        );
        assert_eq!(
            both(Ending::MemoryLimit),
            Judgement::Noted(
                Class::MemoryLimit,
                "stopped by the memory limit (1024 MiB), within a twentieth of its time limit (3 s): at both limits, and which came first is the machine's speed".into()
            )
        );
    }

    #[test]
    fn the_reference_passes() {
        let f = fixture("sol_x", b"1 2 3 b\n1 2 b 3\n");
        let out = String::from_utf8(f.expected.clone()).unwrap();
        assert_eq!(judged(&f, Ending::Exited(0), &out, ""), Judgement::Passed);
    }

    #[test]
    fn each_class_names_what_came() {
        let f = fixture("sol_x", b"1 2 3 b\n1 2 b 3\n");
        let noted = |ending, out, err| match judged(&f, ending, out, err) {
            Judgement::Noted(class, text) => (class.name(), text),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            noted(Ending::Exited(0), "unsolvable\n", ""),
            ("WRONG VERDICT", "'unsolvable', expected 'solvable'".into())
        );
        assert_eq!(
            noted(Ending::Exited(1), "oops\n", "x"),
            (
                "FALSE ERROR",
                "no verdict: 'oops' (exit status 1; stderr 'x'), expected 'solvable'".into()
            )
        );
        assert_eq!(
            noted(Ending::TimedOut, "", ""),
            ("TIMEOUT", "still running after 3 s; killed".into())
        );
        assert_eq!(
            noted(Ending::MemoryLimit, "", ""),
            (
                "MEMORY LIMIT",
                "stopped by the memory limit (1024 MiB)".into()
            )
        );
        assert_eq!(
            noted(Ending::ProcessLimit, "", ""),
            (
                "PROCESS LIMIT",
                "stopped by the process limit (64 processes at once)".into()
            )
        );
        assert_eq!(
            noted(Ending::Signalled(11), "", ""),
            ("CRASH", "killed by signal 11 (SEGV)".into())
        );
        assert_eq!(
            noted(Ending::Exited(3), "solvable\n", ""),
            (
                "WRONG EXIT STATUS",
                "exit status 3 after the verdict 'solvable', expected 0".into()
            )
        );
    }

    #[test]
    fn a_verdict_stuck_to_an_echoed_board_after_exit_0_is_an_acceptance() {
        let f = fixture("bad_x", b"1 2 3 bxxxx\n1 2 3 b\n");
        let long = format!("start: 1 2 3 b\ngoal: 1 2 3 b{}solvable", "x".repeat(3000));
        assert_eq!(
            judged(&f, Ending::Exited(0), &long, ""),
            Judgement::Noted(
                Class::MissedError,
                format!(
                    "accepted it: 'solvable' (read from ...'{}solvable') (exit status 0), expected an error",
                    "x".repeat(92)
                )
            )
        );
        // With an exit status of 1 the same output is a rejection.
        assert!(matches!(
            judged(&f, Ending::Exited(1), &long, ""),
            Judgement::Noted(Class::Format, _) | Judgement::Message(_)
        ));
        // A message that only mentions the word stays a message.
        assert_eq!(
            judged(&f, Ending::Exited(0), "cannot tell if solvable\n", ""),
            Judgement::Noted(
                Class::WrongExitStatus,
                "exit status 0 after 'cannot tell if solvable', expected EXIT_FAILURE (1)".into()
            )
        );
        assert_eq!(
            judged(&f, Ending::Exited(1), "cannot tell if solvable\n", ""),
            Judgement::Message("cannot tell if solvable".into())
        );
    }

    #[test]
    fn a_verdict_read_leniently_is_shown_with_its_words() {
        let f = fixture("sol_x", b"1 2 3 b\n1 2 b 3\n");
        let noted = |out: &str| match judged(&f, Ending::Exited(0), out, "") {
            Judgement::Noted(class, text) => (class, text),
            other => panic!("{other:?}"),
        };
        // The difference is elsewhere: the word is named too.
        assert_eq!(
            noted("Start: 1 2 3 b\ngoal: 1 2 b 3\nsolvavle\n"),
            (
                Class::Format,
                "line 1: expected 'start: 1 2 3 b', got 'Start: 1 2 3 b' (other); the verdict 'solvavle' read as 'solvable'".into()
            )
        );
        // The difference is the verdict's line: shown once.
        assert_eq!(
            noted("start: 1 2 3 b\ngoal: 1 2 b 3\nSolvable.\n"),
            (
                Class::Format,
                "line 3: expected 'solvable', got 'Solvable.' (other)".into()
            )
        );
        let u = fixture("unsol_x", b"2 1 3 b\n1 2 3 b\n");
        let ran = Ran {
            ending: Ending::Exited(0),
            memory_stop: None,
            at_both_limits: false,
            out: b"solvavle\n",
            err: b"",
        };
        assert_eq!(
            judge(&u, &ran, &limits(), false),
            Judgement::Noted(
                Class::WrongVerdict,
                "'solvable' (read from 'solvavle'), expected 'unsolvable'".into()
            )
        );
    }

    #[test]
    fn a_rejection_is_judged_by_where_its_message_went() {
        let f = fixture("bad_x", b"1 2 3 x\n1 2 b 3\n");
        assert_eq!(
            judged(&f, Ending::Exited(1), "Invalid input\n", ""),
            Judgement::Message("Invalid input".into())
        );
        assert_eq!(
            judged(&f, Ending::Exited(1), "", "bad\n"),
            Judgement::Noted(
                Class::ErrorOnStderr,
                "nothing on stdout (exit status 1); stderr 'bad'".into()
            )
        );
        assert_eq!(
            judged(&f, Ending::Exited(0), "solvable\n", ""),
            Judgement::Noted(
                Class::MissedError,
                "accepted it: 'solvable' (exit status 0), expected an error".into()
            )
        );
    }
}
