//! The command line of every mode of `puzzle-grade`, in one place: the
//! modes ([`Mode`]) and one table of options ([`OPTIONS`]), from which each
//! mode's help, `Testrun`'s variables and `docs/grading-reference.md`'s reference
//! are made (the last two checked by this file's tests) and by which every
//! word is read. Options come before or after the operands, as `--name
//! value` or `--name=value`; `--` ends them; `--help` works in every mode.
//! `run`'s options end at its PROGRAM, whose own options follow it. An
//! option's former spellings still work, and say its name on stderr.

use crate::status::{message, RUN_STATUSES, STATUSES};
use puzzle_grade::{
    check_assignment, default_run_limits, fnv1a, Format, GradebookAsked, Limits, Options, Refused,
    Roster, Scheme, Scope, Select, Setting, Settings, Shard, MAX_ROSTER,
};
use puzzle_sandbox::Level;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

/// A mode of `puzzle-grade`: its first word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `grade PROGRAM [DIR...]`.
    Grade,
    /// `grade-all SUBMISSIONS [DIR...]`.
    GradeAll,
    /// `similar SUBMISSIONS`.
    Similar,
    /// `merge --into DIR SHARD_DIR...`.
    Merge,
    /// `gradebook DIR`.
    Gradebook,
    /// `diff OLD NEW`.
    Diff,
    /// `open [DIR...]`.
    Open,
    /// `check [DIR...]`.
    Check,
    /// `fuzz PROGRAM`.
    Fuzz,
    /// `run [OPTIONS] [--] PROGRAM [ARGS...]`.
    Run,
    /// `check-environment`.
    CheckEnvironment,
}

impl Mode {
    /// Every mode, in the order the help lists them.
    pub const ALL: [Mode; 11] = [
        Mode::Grade,
        Mode::GradeAll,
        Mode::Similar,
        Mode::Merge,
        Mode::Gradebook,
        Mode::Diff,
        Mode::Open,
        Mode::Check,
        Mode::Fuzz,
        Mode::Run,
        Mode::CheckEnvironment,
    ];

    /// Its word on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Grade => "grade",
            Mode::GradeAll => "grade-all",
            Mode::Similar => "similar",
            Mode::Merge => "merge",
            Mode::Gradebook => "gradebook",
            Mode::Diff => "diff",
            Mode::Open => "open",
            Mode::Check => "check",
            Mode::Fuzz => "fuzz",
            Mode::Run => "run",
            Mode::CheckEnvironment => "check-environment",
        }
    }

    /// The mode a word names.
    pub fn named(word: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == word)
    }

    /// Its operands, as the usage line shows them.
    fn operands(self) -> &'static str {
        match self {
            Mode::Grade => "PROGRAM [DIR...]",
            Mode::GradeAll => "SUBMISSIONS [DIR...]",
            Mode::Similar => "SUBMISSIONS",
            Mode::Merge => "--into DIR SHARD_DIR...",
            Mode::Gradebook => "DIR",
            Mode::Diff => "OLD NEW",
            Mode::Open | Mode::Check => "[DIR...]",
            Mode::Fuzz => "PROGRAM",
            Mode::Run => "[--] PROGRAM [ARGS...]",
            Mode::CheckEnvironment => "",
        }
    }

    /// What it does, in the list of modes.
    fn summary(self) -> &'static str {
        match self {
            Mode::Grade => "grade one program on Tests/ and each DIR",
            Mode::GradeAll => "build and grade every folder of SUBMISSIONS",
            Mode::Similar => "which submissions share code, the template's aside",
            Mode::Merge => "one grading from the grades folders of its shards",
            Mode::Gradebook => "the gradebook files of the grading in DIR, from its records",
            Mode::Diff => "which marks changed from one grading to another, and why",
            Mode::Open => "the fixtures the assignment leaves open",
            Mode::Check => "the reference answers every fixture as named",
            Mode::Fuzz => "generated inputs; each fault shrunk to a minimal fixture",
            Mode::Run => "one program in the sandbox, on these streams",
            Mode::CheckEnvironment => {
                "the sandbox levels this machine allows, and what to change for fair timing"
            }
        }
    }

    /// What it does, at the head of its own help.
    fn about(self) -> &'static str {
        match self {
            Mode::Grade => "Grades PROGRAM on every fixture of Tests/ and of each DIR, by the\nassignment's rules; the report ends with the score.",
            Mode::GradeAll => "Builds and grades every folder of SUBMISSIONS on Tests/ and each DIR;\na row a submission as each is done, and the grading's files in the\ngrades folder (docs/grading-reference.md).",
            Mode::Similar => "Compares the sources of every folder of SUBMISSIONS (taken in as\ngrade-all takes them: archives unpacked in the sandbox) with every\nother's: their C-family files (.c .h .cc .cpp .hpp .java), each read as\none program in a normal form that undoes renaming, layout, reordered\nfunctions and statements, rewritten loops and conditions, dead code,\nsplit and inlined functions (docs/similarity.md). The template's code\nand passages most of the class shares are no evidence. Writes\nDIR/similarity.csv (a line a pair that shares code: a, b, score, code,\nbehaviour, highest first) and DIR/similarity-blocks.csv (each matched\nblock, its files and lines on both sides). A score is evidence to look\nat, never a verdict.\n\nExit status: 0 when every submission was compared, 3 when some could\nnot be read (the others were), 2 when nothing could be done.",
            Mode::Merge => "Writes into DIR one grading made of the gradings of its shards (each\nSHARD_DIR a grades folder of 'grade-all --shard I/N'): every summary\nand each submission's files. A submission missing from every shard,\nor in two, is named on stderr and the status is 1. A grading DIR held\nis kept in DIR/previous/.",
            Mode::Gradebook => "Writes the gradebook files of the grading in the grades folder DIR\nfrom its records, nothing graded again: the roster, the assignment's\nname and the class's formats given (--roster, --assignment, --format\ncanvas,moodle) in place of those the grading recorded, the rest as it\nrecorded them. grading.json records them (a later --resume or merge\nkeeps them), summary.csv names each submission's student, and for a\ncomplete grading canvas.csv and moodle.csv are written; stderr names\nthe folders with no student and the students with no folder or mark.",
            Mode::Diff => "Compares the gradings in the grades folders OLD and NEW: each\nsubmission whose marks or fixtures' outcomes changed, old and new, and\nwhy as far as the two gradings tell (its sources, the fixtures, the\nscheme, the options, the sandbox; none of these: flaky).\n\nExit status: 0 when no marks changed, 1 when some did, 2 when a folder\ncannot be read as a grading.",
            Mode::Open => "Lists the fixtures of Tests/ and each DIR whose answer depends on a\nchoice the assignment leaves open, and the answers it allows.",
            Mode::Check => "Checks that the reference (default ./puzzle) answers every fixture\nof Tests/ and each DIR as its name says.",
            Mode::Fuzz => "Runs PROGRAM on generated inputs, judged as grade judges; each fault\nfound is shrunk to a minimal fixture.",
            Mode::Run => "Runs PROGRAM in the sandbox on this process's standard input, output\nand error: at the most the system allows (its own PID, mount and\nnetwork namespaces, an unprivileged uid when run as root), with a fresh\nempty work folder, the system-call filter, and these limits. A bare\nPROGRAM is looked for in /usr/local/bin, /usr/bin and /bin, the PATH it\nruns with. When it did not exit with status 0, one line on stderr says\nhow it ended; its statuses 124 to 127 are also the program's own to\nexit with, so --meta FILE writes how it ended where nothing else\nwrites (docs/grading-reference.md).",
            Mode::CheckEnvironment => "Says which sandbox levels and cgroup controllers this machine allows\nand why not, the load, the CPU frequency governor, transparent huge\npages and swap, with what to change for fair timing; status 1 when\nsomething should change.",
        }
    }

    /// Whether its options end at its first operand (`run`: the program's
    /// own options follow it).
    fn options_end_at_operand(self) -> bool {
        self == Mode::Run
    }
}

/// The modes that grade.
const GRADING: &[Mode] = &[Mode::Grade, Mode::GradeAll];
/// The modes that work on several cores.
const PARALLEL: &[Mode] = &[Mode::Grade, Mode::GradeAll, Mode::Similar];
/// The modes that use the sandbox (to run programs, or to unpack).
const SANDBOXED: &[Mode] = &[
    Mode::Grade,
    Mode::GradeAll,
    Mode::Fuzz,
    Mode::Run,
    Mode::Similar,
];
/// The modes that run programs in the sandbox.
const RUNNING: &[Mode] = &[Mode::Grade, Mode::GradeAll, Mode::Fuzz, Mode::Run];
/// The modes that judge runs.
const JUDGING: &[Mode] = &[Mode::Grade, Mode::GradeAll, Mode::Fuzz];
/// The modes that write a grading's gradebook files.
const GRADEBOOK: &[Mode] = &[Mode::GradeAll, Mode::Gradebook];

/// One option: its name, the name of its value (none: a flag), its help
/// (lines after the first are indented under it; `{formats}` in it is the
/// formats' list, made from their rows: [`Format::help_list`]; `{scheme}`
/// the default scheme's points: [`Scheme::points_in_words`]), the modes
/// that take it, whether a grading records it and how, and what it sets.
pub struct Opt {
    name: &'static str,
    /// A short name.
    alias: Option<&'static str>,
    /// Its former spellings: still read, each with a note on stderr that
    /// says its name now.
    old: &'static [&'static str],
    /// Whether `sh Testrun` turns a variable of its name into it
    /// ([`Opt::variable`]: `--time-limit` is `TIME_LIMIT`), for the modes
    /// `Testrun` hands to `puzzle-grade` that take it.
    testrun: bool,
    value: Option<&'static str>,
    help: &'static str,
    modes: &'static [Mode],
    /// Whether it decides a grading's marks (or the files written of each
    /// submission as it is graded), and then the settings the grading
    /// records of it ([`Given::marks_options`]), each under its name; none:
    /// it decides none, and is not recorded. Two gradings whose recorded
    /// options differ are not mixed (a `--resume`, a merge), and `diff`
    /// names what changed.
    records: Option<fn(&Given) -> Vec<Setting>>,
    set: fn(&mut Given, &OsStr) -> Result<(), String>,
}

impl Opt {
    /// Its help, the tables it names made ([`Opt`]).
    fn help_text(&self) -> String {
        self.help
            .replace("{formats}", &Format::help_list())
            .replace("{scheme}", &Scheme::default().points_in_words())
    }

    /// The variable `sh Testrun` turns into it, when it has one: its name
    /// in capitals, `-` as `_` (`--time-limit`: `TIME_LIMIT`).
    #[cfg(test)]
    fn variable(&self) -> Option<String> {
        self.testrun.then(|| variable_of(self.name))
    }

    /// The note a former spelling `old` of it gets on stderr.
    fn renamed(&self, old: &str) -> String {
        let mut note = format!("'{old}' is now {}", self.name);
        if self.testrun && OLD_VARIABLES.contains(&variable_of(old).as_str()) {
            note += &format!(
                " (sh Testrun: {} is now {})",
                variable_of(old),
                variable_of(self.name)
            );
        }
        note + "; the old name still works"
    }
}

/// `value` as the setting `setting` makes of it, recorded only when it
/// is not `default`: so that gradings before the option was recorded
/// compare with those after.
fn not_default(value: usize, default: usize, setting: fn(u64) -> Setting) -> Vec<Setting> {
    if value == default {
        Vec::new()
    } else {
        vec![setting(value as u64)]
    }
}

/// `Testrun`'s former variables: each still read, as its option's former
/// spelling (`TIMEOUT` as `--timeout`), which says the new one.
const OLD_VARIABLES: &[&str] = &["TIMEOUT"];

/// An option's name as `Testrun`'s variable: `--time-limit` is
/// `TIME_LIMIT`.
fn variable_of(name: &str) -> String {
    name.trim_start_matches('-')
        .replace('-', "_")
        .to_uppercase()
}

/// Every option of every mode. A mode's help lists its options in this
/// order.
pub const OPTIONS: &[Opt] = &[
    Opt {
        name: "--strict",
        alias: None,
        old: &[],
        testrun: true,
        value: None,
        help: "byte for byte against the reference",
        modes: JUDGING,
        records: Some(|g| if g.strict { vec![Setting::Strict] } else { Vec::new() }),
        set: |g, _| {
            g.strict = true;
            Ok(())
        },
    },
    Opt {
        name: "--time-limit",
        alias: None,
        old: &["--timeout", "--time"],
        testrun: true,
        value: Some("S"),
        help: "every run at most S seconds of its own time (grade, grade-all, fuzz: whole seconds, default 10 and 60 a MB of input; run: fractions too, default 10)",
        modes: RUNNING,
        records: Some(|g| g.settings().timeout.map(Setting::TimeLimit).into_iter().collect()),
        set: |g, v| {
            g.time_limit = Some(fraction(v)?);
            Ok(())
        },
    },
    Opt {
        name: "--jobs",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("N"),
        help: "runs (with similar, comparisons) at once (default: one a core)",
        modes: PARALLEL,
        records: None,
        set: |g, v| {
            g.jobs = Some(whole(v, "runs", 1)? as usize);
            Ok(())
        },
    },
    Opt {
        name: "--memory",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("MIB"),
        help: "memory a run may use, in MiB (default 1024)",
        modes: RUNNING,
        records: Some(|g| vec![Setting::Memory(g.settings().memory >> 20)]),
        set: |g, v| {
            g.memory = Some(whole(v, "MiB", 1)? << 20);
            Ok(())
        },
    },
    Opt {
        name: "--processes",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("N"),
        help: "processes and threads a run may have at once (default 64)",
        modes: RUNNING,
        records: Some(|g| vec![Setting::Processes(g.settings().processes)]),
        set: |g, v| {
            g.processes = Some(whole(v, "processes", 1)?);
            Ok(())
        },
    },
    Opt {
        name: "--file-size",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("MIB"),
        help: "the largest file a run may write, in MiB (default 64)",
        modes: &[Mode::Run],
        records: None,
        set: |g, v| {
            g.file_size = Some(whole(v, "MiB", 1)? << 20);
            Ok(())
        },
    },
    Opt {
        name: "--open-files",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("N"),
        help: "files a run may have open at once (default 64)",
        modes: &[Mode::Run],
        records: None,
        set: |g, v| {
            g.open_files = Some(whole(v, "files", 1)?);
            Ok(())
        },
    },
    Opt {
        name: "--workdir",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("DIR"),
        help: "work in DIR, read-write, instead of a fresh folder",
        modes: &[Mode::Run],
        records: None,
        set: |g, v| {
            g.workdir = Some(PathBuf::from(v));
            Ok(())
        },
    },
    Opt {
        name: "--read-only",
        alias: None,
        old: &["--read"],
        testrun: true,
        value: Some("PATH"),
        help: "let the runs read PATH too (repeatable; ':' separates paths)",
        modes: RUNNING,
        records: Some(|g| {
            g.settings()
                .read_only
                .iter()
                .map(|path| Setting::ReadOnly(path.display().to_string()))
                .collect()
        }),
        set: |g, v| {
            let paths = std::env::split_paths(v).filter(|p| !p.as_os_str().is_empty());
            g.read_only.extend(paths);
            Ok(())
        },
    },
    Opt {
        name: "--scheme",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("FILE"),
        help: "the marking scheme (default: {scheme}; see examples/marking-scheme.txt)",
        modes: GRADING,
        records: Some(|g| {
            g.scheme
                .iter()
                .map(|(shown, digest, _)| Setting::Scheme {
                    file: shown.clone(),
                    digest: *digest,
                })
                .collect()
        }),
        set: |g, v| {
            let shown = v.to_string_lossy();
            let text = fs::read_to_string(v).map_err(|e| format!("cannot read {shown}: {e}"))?;
            let scheme = Scheme::parse(&text).map_err(|e| format!("{shown}: {e}"))?;
            g.scheme = Some((shown.into_owned(), fnv1a(text.as_bytes()), scheme));
            Ok(())
        },
    },
    Opt {
        name: "--fuzz",
        alias: None,
        old: &["--seconds"],
        testrun: true,
        value: Some("S"),
        help: "fuzz for S seconds: grade and grade-all, each program after the fixtures and the experiments on its causes, or for what is left of the budget (--budget) if less (the faults found are in the report and grade-all's fuzz column); fuzz, how long to make inputs (default 60)",
        modes: JUDGING,
        records: Some(|g| g.fuzz.map(Setting::Fuzz).into_iter().collect()),
        set: |g, v| {
            g.fuzz = Some(whole(v, "seconds", 1)?);
            Ok(())
        },
    },
    Opt {
        name: "--sandbox",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("LEVEL"),
        help: "namespaces, uid or minimal (default: the most the system allows; see puzzle-grade check-environment); a level it does not allow is an error",
        modes: SANDBOXED,
        records: None,
        set: |g, v| {
            g.level = Some(v.to_string_lossy().parse()?);
            Ok(())
        },
    },
    Opt {
        name: "--budget",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("S"),
        help: "a submission at most S seconds in all (its build and every run: fixtures, repeats, confirmations, experiments, fuzzing), each run cut to what is left; the fixtures left then are NOT RUN",
        modes: GRADING,
        records: Some(|g| g.budget.map(|b| Setting::Budget(b.as_secs())).into_iter().collect()),
        set: |g, v| {
            g.budget = Some(Duration::from_secs(whole(v, "seconds", 1)?));
            Ok(())
        },
    },
    Opt {
        name: "--max-timeouts",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("K"),
        help: "after K runs of a submission time out (any run: a fixture's, a confirmation, an experiment's, the fuzzing's), no other starts: its fixtures left are NOT RUN",
        modes: GRADING,
        records: Some(|g| {
            g.max_timeouts
                .map(|k| Setting::MaxTimeouts(k as u64))
                .into_iter()
                .collect()
        }),
        set: |g, v| {
            g.max_timeouts = Some(whole(v, "runs", 1)? as usize);
            Ok(())
        },
    },
    Opt {
        name: "--confirm",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("N"),
        help: "run a failed run whose ending may be the machine's (a timeout, a limit, a signal) N more times before it costs marks (default 1; 0: never); runs that disagree are FLAKY (docs/grading-design.md)",
        modes: GRADING,
        records: Some(|g| {
            not_default(
                g.settings().confirm,
                Settings::default().confirm,
                Setting::Confirm,
            )
        }),
        set: |g, v| {
            g.confirm = Some(whole(v, "runs", 0)? as usize);
            Ok(())
        },
    },
    Opt {
        name: "--repeat",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("N"),
        help: "run every fixture N times (default 1), to find programs whose answers change from run to run (FLAKY)",
        modes: GRADING,
        records: Some(|g| {
            not_default(
                g.settings().repeat,
                Settings::default().repeat,
                Setting::Repeat,
            )
        }),
        set: |g, v| {
            g.repeat = Some(whole(v, "runs", 1)? as usize);
            Ok(())
        },
    },
    Opt {
        name: "--grades",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("DIR"),
        help: "grade-all: where the grading's files go (default grades); an earlier grading there is replaced, and kept in its previous/ folder. similar: a grading of SUBMISSIONS, whose fixtures' outcomes are the behaviour's evidence",
        modes: &[Mode::GradeAll, Mode::Similar],
        records: None,
        set: |g, v| {
            g.grades = Some(PathBuf::from(v));
            Ok(())
        },
    },
    Opt {
        name: "--replace",
        alias: None,
        old: &[],
        testrun: false,
        value: None,
        help: "replace a grading of another folder in the grades folder (it is kept in its previous/ folder); without it, such a grading is refused",
        modes: &[Mode::GradeAll, Mode::Merge],
        records: None,
        set: |g, _| {
            g.replace = true;
            Ok(())
        },
    },
    Opt {
        name: "--build-timeout",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("S"),
        help: "each build command at most S seconds (default 120)",
        modes: &[Mode::GradeAll],
        records: Some(|g| vec![Setting::BuildTimeout(g.build_seconds())]),
        set: |g, v| {
            g.build_seconds = Some(whole(v, "seconds", 1)?);
            Ok(())
        },
    },
    Opt {
        name: "--format",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("LIST"),
        help: "also these platforms' files, comma-separated: {formats} (--resume and gradebook may add or change these two afterwards)",
        modes: GRADEBOOK,
        records: Some(|g| {
            let formats = g.formats_of(Scope::Submission);
            (!formats.is_empty())
                .then_some(Setting::Formats(formats))
                .into_iter()
                .collect()
        }),
        set: |g, v| {
            for name in v.to_string_lossy().split(',') {
                let format: Format = name.parse().map_err(|e: Refused| e.to_string())?;
                if !g.formats.contains(&format) {
                    g.formats.push(format);
                }
            }
            Ok(())
        },
    },
    Opt {
        name: "--roster",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("FILE"),
        help: "the students: a CSV whose first line names its columns, folder and id, and any of login, name, section, email, canvas_id (docs/grading-reference.md); folders with no student and students with no folder are named",
        modes: GRADEBOOK,
        records: None,
        set: |g, v| {
            let shown = v.to_string_lossy();
            let mut bytes = Vec::new();
            fs::File::open(v)
                .and_then(|f| f.take(MAX_ROSTER + 1).read_to_end(&mut bytes))
                .map_err(|e| format!("cannot read {shown}: {e}"))?;
            if bytes.len() as u64 > MAX_ROSTER {
                return Err(format!("{shown}: over {} MiB", MAX_ROSTER >> 20));
            }
            g.roster = Some(Roster::parse(&shown, &bytes).map_err(|e| format!("{shown}: {e}"))?);
            Ok(())
        },
    },
    Opt {
        name: "--assignment",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("NAME"),
        help: "the gradebook files' column for the marks (default 'Puzzle assignment'); for Canvas, 'NAME (ID)' names its assignment of that ID",
        modes: GRADEBOOK,
        records: None,
        set: |g, v| {
            g.assignment =
                Some(check_assignment(&v.to_string_lossy()).map_err(|e| e.to_string())?);
            Ok(())
        },
    },
    Opt {
        name: "--only",
        alias: None,
        old: &[],
        testrun: true,
        value: Some("NAME"),
        help: "grade only this submission again (repeatable); the grading keeps the rows of the others",
        modes: &[Mode::GradeAll],
        records: None,
        set: |g, v| {
            g.only.push(v.to_os_string());
            Ok(())
        },
    },
    Opt {
        name: "--resume",
        alias: None,
        old: &[],
        testrun: false,
        value: None,
        help: "grade only the submissions not graded yet (after an interrupted grading, with the same options)",
        modes: &[Mode::GradeAll],
        records: None,
        set: |g, _| {
            g.resume = true;
            Ok(())
        },
    },
    Opt {
        name: "--shard",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("I/N"),
        help: "grade only part I of N (by a hash of the folder names, the same on every machine); 'merge' joins the parts",
        modes: &[Mode::GradeAll],
        records: None,
        set: |g, v| {
            g.shard = Some(Shard::parse(&v.to_string_lossy()).map_err(|e| e.to_string())?);
            Ok(())
        },
    },
    Opt {
        name: "--out",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("DIR"),
        help: "where similarity.csv and similarity-blocks.csv go (default similarity)",
        modes: &[Mode::Similar],
        records: None,
        set: |g, v| {
            g.out = Some(PathBuf::from(v));
            Ok(())
        },
    },
    Opt {
        name: "--template",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("PATH"),
        help: "the starter code every student had (a file, or a folder of them; repeatable): no evidence of copying",
        modes: &[Mode::Similar, Mode::GradeAll],
        records: None,
        set: |g, v| {
            g.templates.push(PathBuf::from(v));
            Ok(())
        },
    },
    Opt {
        name: "--common",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("N"),
        help: "a passage more than N submissions share is the class's, no evidence of copying (default: nine in ten of the class, at least 10)",
        modes: &[Mode::Similar, Mode::GradeAll],
        records: None,
        set: |g, v| {
            g.common = Some(whole(v, "submissions", 1)? as usize);
            Ok(())
        },
    },
    Opt {
        name: "--no-similarity",
        alias: None,
        old: &[],
        testrun: false,
        value: None,
        help: "compare no submissions for similarity (by default the grading writes similarity.csv: which pairs share code or rare wrong answers)",
        modes: &[Mode::GradeAll],
        records: None,
        set: |g, _| {
            g.no_similarity = true;
            Ok(())
        },
    },
    Opt {
        name: "--reference",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("PATH"),
        help: "the executable to check (default ./puzzle)",
        modes: &[Mode::Check],
        records: None,
        set: |g, v| {
            g.reference = Some(PathBuf::from(v));
            Ok(())
        },
    },
    Opt {
        name: "--seed",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("N"),
        help: "the stream of inputs (default 1)",
        modes: &[Mode::Fuzz],
        records: None,
        set: |g, v| {
            g.seed = Some(whole(v, "seed", 0)?);
            Ok(())
        },
    },
    Opt {
        name: "--inputs",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("N"),
        help: "make at most N inputs (default: as many as the seconds allow); a count, unlike a time, gives the same inputs on a busy machine",
        modes: &[Mode::Fuzz],
        records: None,
        set: |g, v| {
            g.inputs = Some(whole(v, "inputs", 1)? as usize);
            Ok(())
        },
    },
    Opt {
        name: "--into",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("DIR"),
        help: "fuzz: where the minimal cases go (default fuzz-found); merge: the grades folder to write (needed)",
        modes: &[Mode::Fuzz, Mode::Merge],
        records: None,
        set: |g, v| {
            g.into = Some(PathBuf::from(v));
            Ok(())
        },
    },
    Opt {
        name: "--meta",
        alias: None,
        old: &[],
        testrun: false,
        value: Some("FILE"),
        help: "write how the run ended to FILE, a 'key: value' line a fact (ending, status, signal, limit, times, exit): told apart from the program's own statuses (docs/grading-reference.md)",
        modes: &[Mode::Run],
        records: None,
        set: |g, v| {
            g.meta = Some(PathBuf::from(v));
            Ok(())
        },
    },
    Opt {
        name: "--verbose",
        alias: Some("-v"),
        old: &[],
        testrun: false,
        value: None,
        help: "say on stderr which protections are active",
        modes: &[Mode::Run],
        records: None,
        set: |g, _| {
            g.verbose = true;
            Ok(())
        },
    },
];

/// Every option as the command line gave it (the last of a repeated one
/// wins, but for those that add up); each mode reads its own.
#[derive(Default)]
pub struct Given {
    pub strict: bool,
    pub time_limit: Option<Duration>,
    pub jobs: Option<usize>,
    pub memory: Option<u64>,
    pub processes: Option<u64>,
    pub file_size: Option<u64>,
    pub open_files: Option<u64>,
    pub workdir: Option<PathBuf>,
    pub read_only: Vec<PathBuf>,
    /// The scheme's path as given, the FNV-1a hash of its text, the scheme.
    pub scheme: Option<(String, u64, Scheme)>,
    pub fuzz: Option<u64>,
    pub level: Option<Level>,
    pub budget: Option<Duration>,
    pub max_timeouts: Option<usize>,
    pub confirm: Option<usize>,
    pub repeat: Option<usize>,
    pub grades: Option<PathBuf>,
    pub build_seconds: Option<u64>,
    pub formats: Vec<Format>,
    pub roster: Option<Roster>,
    pub assignment: Option<String>,
    pub only: Vec<OsString>,
    pub resume: bool,
    pub replace: bool,
    pub shard: Option<Shard>,
    pub reference: Option<PathBuf>,
    pub seed: Option<u64>,
    pub inputs: Option<usize>,
    pub into: Option<PathBuf>,
    pub verbose: bool,
    pub out: Option<PathBuf>,
    pub templates: Vec<PathBuf>,
    pub common: Option<usize>,
    pub no_similarity: bool,
    pub meta: Option<PathBuf>,
    /// What to tell about the command line (a former spelling used),
    /// before the mode runs.
    pub notes: Vec<String>,
    /// The operands, in order.
    pub operands: Vec<OsString>,
}

impl Given {
    /// The grading's settings: the defaults, with what was given.
    pub fn settings(&self) -> Settings {
        let d = Settings::default();
        Settings {
            strict: self.strict,
            timeout: self.time_limit.map(|t| t.as_secs()),
            jobs: self
                .jobs
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
            memory: self.memory.unwrap_or(d.memory),
            processes: self.processes.unwrap_or(d.processes),
            read_only: self.read_only.clone(),
            scheme: self
                .scheme
                .as_ref()
                .map_or(d.scheme.clone(), |s| s.2.clone()),
            budget: self.budget,
            max_timeouts: self.max_timeouts,
            confirm: self.confirm.unwrap_or(d.confirm),
            repeat: self.repeat.unwrap_or(d.repeat),
            ..d
        }
    }

    /// The limits of a `run`: the defaults, with what was given.
    pub fn run_limits(&self) -> Limits {
        let d = default_run_limits();
        Limits {
            wall: self.time_limit.unwrap_or(d.wall),
            memory: self.memory.unwrap_or(d.memory),
            processes: self.processes.unwrap_or(d.processes),
            file_size: self.file_size.unwrap_or(d.file_size),
            open_files: self.open_files.unwrap_or(d.open_files),
            ..d
        }
    }

    /// The options that decide the marks, and the formats of each
    /// submission's own files, in the order a grading writes them: what
    /// each row of [`OPTIONS`] that `mode` takes records of what was given
    /// (recorded in the grading, and compared when it is resumed or
    /// merged; the roster, the assignment's name and the class's formats
    /// decide no mark and are not among them), then the folders of
    /// fixtures beside `Tests/`.
    pub fn marks_options(&self, mode: Mode) -> Options {
        let mut marks: Vec<Setting> = OPTIONS
            .iter()
            .filter(|o| o.modes.contains(&mode))
            .filter_map(|o| o.records)
            .flat_map(|records| records(self))
            .collect();
        for dir in self.operands.iter().skip(1) {
            marks.push(Setting::Fixtures(dir.to_string_lossy().into_owned()));
        }
        Options::new(marks)
    }

    /// What the command line asks of the gradebook: the roster, the
    /// assignment's name and the class's formats, each when given.
    pub fn gradebook(&self) -> GradebookAsked {
        GradebookAsked {
            roster: self.roster.clone(),
            assignment: self.assignment.clone(),
            formats: (!self.formats.is_empty()).then(|| self.formats_of(Scope::Class)),
        }
    }

    /// The formats asked for of `scope`: each submission's own files, or
    /// the class's (the gradebook files).
    pub fn formats_of(&self, scope: Scope) -> Vec<Format> {
        self.formats
            .iter()
            .copied()
            .filter(|f| f.scope() == scope)
            .collect()
    }

    /// Seconds a build command may take.
    pub fn build_seconds(&self) -> u64 {
        self.build_seconds.unwrap_or(120)
    }

    /// Which submissions to grade.
    pub fn select(&self) -> Select {
        match (self.only.is_empty(), self.resume) {
            (true, false) => Select::All,
            (false, _) => Select::Only(self.only.clone()),
            (true, true) => Select::Resume,
        }
    }
}

/// The help of all of `puzzle-grade`: its modes.
pub fn usage() -> String {
    let mut text = String::from("Usage: puzzle-grade MODE [OPTIONS] ARGS\n");
    for mode in Mode::ALL {
        let head = format!("  {} {}", mode.name(), mode.operands());
        text += &aligned(head.trim_end(), mode.summary());
    }
    text += "Options may come before or after the operands; '--' ends them.\n\
             'puzzle-grade MODE --help' lists a mode's options; 'puzzle-grade\n\
             --version' says its version. Run it from the folder that holds Tests/.\n";
    text += &statuses_help();
    text.trim_end().to_string()
}

/// The help of `mode`: its usage line, what it does, its options.
pub fn mode_usage(mode: Mode) -> String {
    let options = if OPTIONS.iter().any(|o| o.modes.contains(&mode)) {
        " [OPTIONS]"
    } else {
        ""
    };
    let mut text = format!(
        "Usage: puzzle-grade {}{options} {}\n{}\n",
        mode.name(),
        mode.operands(),
        mode.about()
    );
    if !options.is_empty() {
        text += "Options:\n";
        for o in OPTIONS.iter().filter(|o| o.modes.contains(&mode)) {
            let name = match o.alias {
                Some(short) if !short.starts_with("--") => format!("{short}, {}", o.name),
                _ => o.name.to_string(),
            };
            let head = match o.value {
                Some(value) => format!("  {name} {value}"),
                None => format!("  {name}"),
            };
            text += &aligned(&head, &o.help_text());
        }
    }
    text += "  -h, --help              this help";
    if mode == Mode::Run {
        text += "\n";
        text += &listed("Exit status", RUN_STATUSES.iter().copied());
        text = text.trim_end().to_string();
    }
    text
}

/// `head`, then `help` from the 26th column (on a line of its own when
/// `head` is longer), wrapped to end before the 80th.
fn aligned(head: &str, help: &str) -> String {
    const COLUMN: usize = 26;
    const WIDTH: usize = 79;
    let mut text = if head.len() < COLUMN {
        format!("{head:COLUMN$}")
    } else {
        format!("{head}\n{:COLUMN$}", "")
    };
    let mut column = COLUMN;
    for word in help.split(' ') {
        if column > COLUMN && column + 1 + word.len() > WIDTH {
            text += &format!("\n{:COLUMN$}", "");
            column = COLUMN;
        }
        if column > COLUMN {
            text.push(' ');
            column += 1;
        }
        text += word;
        column += word.len();
    }
    text + "\n"
}

/// What the command line asks for.
pub enum Command {
    /// `--help` (or `--version`): this text on stdout, status 0.
    Help(String),
    /// A mode, with its options and operands.
    Mode(Mode, Box<Given>),
}

/// A bad command line: the message for stderr (status 2).
pub fn usage_error(mode: Option<Mode>, what: &str) -> String {
    let help = match mode {
        Some(mode) => format!("puzzle-grade {} --help", mode.name()),
        None => "puzzle-grade --help".into(),
    };
    format!(
        "{}\nTry '{help}' for more information.",
        message(mode.map(Mode::name), &what)
    )
}

/// Reads the whole command line (without the program's name).
pub fn parse(args: Vec<OsString>) -> Result<Command, String> {
    let mut args = args.into_iter();
    let Some(first) = args.next() else {
        return Err(usage_error(None, "no MODE"));
    };
    let word = first.to_string_lossy();
    if word == "-h" || word == "--help" {
        return Ok(Command::Help(usage()));
    }
    if word == "-V" || word == "--version" {
        return Ok(Command::Help(version()));
    }
    let Some(mode) = Mode::named(&word) else {
        let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
        let near = Mode::ALL
            .iter()
            .find(|m| squeezed(m.name()) == squeezed(&word))
            .map(|m| m.name())
            .or_else(|| nearest(&word.to_lowercase(), &names))
            .map_or(String::new(), |name| format!(" (did you mean {name}?)"));
        return Err(usage_error(
            None,
            &format!("unknown mode '{word}'{near}; the modes are {}", mode_list()),
        ));
    };
    match given(mode, args.collect()) {
        Ok(Some(given)) => {
            check_operands(mode, &given).map_err(|e| usage_error(Some(mode), &e))?;
            Ok(Command::Mode(mode, Box::new(given)))
        }
        Ok(None) => Ok(Command::Help(mode_usage(mode))),
        Err(e) => Err(usage_error(Some(mode), &e)),
    }
}

/// A list of `rows` under `title`, status then words, for a help.
fn listed<'a>(title: &str, rows: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let mut text = format!("{title}:\n");
    for (status, words) in rows {
        text += &aligned(&format!("  {status}"), words);
    }
    text
}

/// The help's list of exit statuses (`status.rs`'s table).
fn statuses_help() -> String {
    listed("Exit status", STATUSES.iter().map(|(_, s, w)| (*s, *w)))
}

/// `--version`: the name and version Cargo built it as.
pub fn version() -> String {
    format!("puzzle-grade {}", env!("CARGO_PKG_VERSION"))
}

/// The modes' names, for a message.
fn mode_list() -> String {
    let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
    names.join(", ")
}

/// A word without case, `-` or `_`: `gradeall` is `grade-all`.
fn squeezed(word: &str) -> String {
    word.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The words after the mode read into a [`Given`]; `None` for `--help`.
fn given(mode: Mode, args: Vec<OsString>) -> Result<Option<Given>, String> {
    let mut given = Given::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy().into_owned();
        if text == "--" {
            given.operands.extend(args.by_ref());
            break;
        }
        if text == "-h" || text == "--help" {
            return Ok(None);
        }
        if !text.starts_with('-') || text == "-" {
            given.operands.push(arg);
            if mode.options_end_at_operand() {
                given.operands.extend(args.by_ref());
                break;
            }
            continue;
        }
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => {
                (name.to_string(), Some(OsString::from(value)))
            }
            _ => (text.clone(), None),
        };
        let Some(option) = OPTIONS
            .iter()
            .filter(|o| o.modes.contains(&mode))
            .find(|o| o.name == name || o.alias == Some(&name) || o.old.contains(&name.as_str()))
        else {
            return Err(unknown_option(mode, &name));
        };
        if option.old.contains(&name.as_str()) {
            given.notes.push(option.renamed(&name));
        }
        let value = match (option.value, inline) {
            (Some(_), Some(value)) => value,
            (Some(what), None) => args
                .next()
                .ok_or_else(|| format!("option '{name}' needs a value ({what})"))?,
            (None, Some(_)) => return Err(format!("option '{name}' takes no value")),
            (None, None) => OsString::new(),
        };
        (option.set)(&mut given, &value).map_err(|e| format!("{}: {e}", option.name))?;
    }
    Ok(Some(given))
}

/// Why `name` is no option of `mode`: the nearest spelling of one of its
/// options, or the modes that take it.
fn unknown_option(mode: Mode, name: &str) -> String {
    // Each spelling of an option, with the name it suggests.
    let names = |o: &'static Opt| {
        [Some(o.name), o.alias]
            .into_iter()
            .flatten()
            .chain(o.old.iter().copied())
            .map(move |n| (n, if o.old.contains(&n) { o.name } else { n }))
    };
    let own: Vec<(&str, &str)> = OPTIONS
        .iter()
        .filter(|o| o.modes.contains(&mode))
        .flat_map(names)
        .collect();
    let spellings: Vec<&str> = own.iter().map(|(n, _)| *n).collect();
    if let Some(near) = nearest(name, &spellings) {
        let near = own
            .iter()
            .find(|(n, _)| *n == near)
            .map_or(near, |(_, s)| *s);
        return format!("unknown option '{name}' (did you mean {near}?)");
    }
    match OPTIONS.iter().find(|o| names(o).any(|(n, _)| n == name)) {
        Some(o) => {
            let modes: Vec<&str> = o.modes.iter().map(|m| m.name()).collect();
            // "grade", "grade and fuzz", "grade, grade-all and fuzz".
            let listed = match modes.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => modes.join(""),
            };
            format!(
                "unknown option '{name}': an option of {listed}, not of {}",
                mode.name()
            )
        }
        None => format!("unknown option '{name}'"),
    }
}

/// The word of `words` nearest to `word`, when one is near enough to be a
/// slip of the keys: at most one edit (a letter left out, added, changed,
/// or two swapped) in a word of three to six letters, two in a longer one.
fn nearest<'a>(word: &str, words: &[&'a str]) -> Option<&'a str> {
    let letters = word.trim_start_matches('-').chars().count();
    let most = match letters {
        0..=2 => 0,
        3..=6 => 1,
        _ => 2,
    };
    words
        .iter()
        .map(|w| (edits(word, w), *w))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, w)| w)
}

/// The edits from `a` to `b`: letters left out, added or changed, and two
/// neighbours swapped (the optimal string alignment distance).
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the table: two back, one back, this one.
    let mut rows = [
        vec![0; b.len() + 1],
        (0..=b.len()).collect(),
        vec![0; b.len() + 1],
    ];
    for i in 1..=a.len() {
        rows[2][0] = i;
        for j in 1..=b.len() {
            let change = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[1][j] + 1)
                .min(rows[2][j - 1] + 1)
                .min(rows[1][j - 1] + change);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[0][j - 2] + 1);
            }
            rows[2][j] = d;
        }
        rows.rotate_left(1);
    }
    rows[1][b.len()]
}

/// Whether `given` has the operands `mode` needs, and the options that
/// must go together do.
fn check_operands(mode: Mode, given: &Given) -> Result<(), String> {
    let count = given.operands.len();
    match mode {
        Mode::Grade if count == 0 => Err("no PROGRAM".into()),
        Mode::GradeAll | Mode::Similar if count == 0 => Err("no SUBMISSIONS".into()),
        Mode::Similar if count > 1 => Err(format!(
            "takes one folder of submissions, not {count} operands"
        )),
        Mode::GradeAll if given.resume && !given.only.is_empty() => {
            Err("--only and --resume do not go together".into())
        }
        // A grading continued keeps its own roster and formats: what it
        // lacks is said once the grading is read.
        Mode::GradeAll if given.select() == Select::All => given
            .gradebook()
            .over(None, 0.0)
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Mode::Fuzz if count != 1 => {
            Err(format!("{} PROGRAM", if count == 0 { "no" } else { "one" }))
        }
        Mode::Run if count == 0 => Err("no PROGRAM".into()),
        // A grading's time limits are whole seconds (they are recorded and
        // compared as such); run's may be fractions.
        Mode::Grade | Mode::GradeAll | Mode::Fuzz
            if given.time_limit.is_some_and(|t| t.subsec_nanos() != 0) =>
        {
            Err(format!(
                "--time-limit: should be a whole number of seconds, at least 1, but is '{}'",
                given.time_limit.unwrap_or_default().as_secs_f64()
            ))
        }
        Mode::Merge if given.into.is_none() => Err("--into DIR is needed".into()),
        Mode::Gradebook if count != 1 => Err(format!(
            "takes one grades folder, DIR, not {count} operand(s)"
        )),
        Mode::Gradebook if !given.formats_of(Scope::Submission).is_empty() => {
            let names: Vec<&str> = given
                .formats_of(Scope::Submission)
                .iter()
                .map(|f| f.name())
                .collect();
            Err(format!(
                "--format {}: a file of each submission, written as it is graded (grade-all --format); gradebook writes the class's, canvas and moodle",
                names.join(",")
            ))
        }
        Mode::Merge if count == 0 => Err("no SHARD_DIR".into()),
        Mode::Diff if count != 2 => Err(format!(
            "takes two grades folders, OLD and NEW, not {count} operand(s)"
        )),
        Mode::GradeAll if given.replace && (given.resume || !given.only.is_empty()) => {
            Err("--replace goes with a fresh grading, not --only or --resume".into())
        }
        Mode::CheckEnvironment if count > 0 => Err(format!(
            "takes no operand: {}",
            given.operands[0].to_string_lossy()
        )),
        _ => Ok(()),
    }
}

/// A whole number of at least `least`, or what is wrong with it.
fn whole(value: &OsStr, unit: &str, least: u64) -> Result<u64, String> {
    value
        .to_str()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|&n| n >= least && n < 1 << 40)
        .ok_or_else(|| {
            format!(
                "should be a whole number of {unit}, at least {least}, but is '{}'",
                value.to_string_lossy()
            )
        })
}

/// A positive number of seconds, fractions too.
fn fraction(value: &OsStr) -> Result<Duration, String> {
    value
        .to_str()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| *s > 0.0 && *s < 1e7)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| {
            format!(
                "should be a positive number of seconds, but is '{}'",
                value.to_string_lossy()
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    fn parsed(words: &[&str]) -> (Mode, Given) {
        match parse(args(words)) {
            Ok(Command::Mode(mode, given)) => (mode, *given),
            Ok(Command::Help(_)) => panic!("help: {words:?}"),
            Err(e) => panic!("{e}"),
        }
    }

    fn error(words: &[&str]) -> String {
        match parse(args(words)) {
            Err(e) => e,
            Ok(_) => panic!("accepted: {words:?}"),
        }
    }

    /// The modes `sh Testrun` hands to `puzzle-grade` with its variables.
    const TESTRUN_MODES: [Mode; 4] = [Mode::Grade, Mode::GradeAll, Mode::Fuzz, Mode::Gradebook];

    /// The variables of `option`, its own then its former ones, each with
    /// the spelling of the option it becomes.
    fn variables(option: &Opt) -> Vec<(String, &'static str)> {
        let Some(own) = option.variable() else {
            return Vec::new();
        };
        let former = option
            .old
            .iter()
            .filter(|n| OLD_VARIABLES.contains(&variable_of(n).as_str()))
            .map(|n| (variable_of(n), *n));
        std::iter::once((own, option.name)).chain(former).collect()
    }

    /// `Testrun`'s list of its variables, in its head comment.
    fn testrun_list() -> String {
        let mut text = String::new();
        for o in OPTIONS {
            let vars = variables(o);
            let Some((own, _)) = vars.first() else {
                continue;
            };
            let value = o.value.unwrap_or("1");
            let modes: Vec<&str> = o
                .modes
                .iter()
                .filter(|m| TESTRUN_MODES.contains(m))
                .map(|m| m.name())
                .collect();
            let former: String = vars[1..]
                .iter()
                .map(|(v, _)| format!("; {v}= its former name"))
                .collect();
            let head = format!("{own}={value}");
            text += &format!("#   {head:<18} {} ({}){former}\n", o.name, modes.join(", "));
        }
        text
    }

    /// `Testrun`'s variables made options, for each mode that takes them.
    fn testrun_cases() -> String {
        let mut text = String::from("    case $mode in\n");
        for mode in TESTRUN_MODES {
            text += &format!("    {})\n        set -- \\\n", mode.name());
            for o in OPTIONS.iter().filter(|o| o.modes.contains(&mode)) {
                for (var, name) in variables(o) {
                    let value = match o.value {
                        Some(_) => format!(" \"${var}\""),
                        None => String::new(),
                    };
                    text += &format!("            ${{{var}:+{name}{value}}} \\\n");
                }
            }
            text += "            \"$@\"\n        ;;\n";
        }
        text + "    esac\n"
    }

    /// `docs/grading-reference.md`'s reference of every option.
    fn options_reference() -> String {
        let mut text = String::from(
            "| option | modes | `sh Testrun` | recorded | what |\n|---|---|---|---|---|\n",
        );
        for o in OPTIONS {
            let mut names = vec![match o.value {
                Some(v) => format!("`{} {v}`", o.name),
                None => format!("`{}`", o.name),
            }];
            names.extend(o.alias.iter().map(|a| format!("`{a}`")));
            names.extend(o.old.iter().map(|n| format!("`{n}` (former)")));
            let modes: Vec<&str> = o.modes.iter().map(|m| m.name()).collect();
            let vars: Vec<String> = variables(o).iter().map(|(v, _)| format!("`{v}`")).collect();
            text += &format!(
                "| {} | {} | {} | {} | {} |\n",
                names.join(", "),
                modes.join(", "),
                vars.join(", "),
                if o.records.is_some() { "yes" } else { "" },
                o.help_text().replace('|', "\\|")
            );
        }
        text
    }

    /// Checks that the lines of `file` (from the repository's root)
    /// between the line holding `BEGIN name` and the one holding `END
    /// name` are `made`; with `PUZZLE_BLESS=1`, writes them so.
    fn made_from_the_table(file: &str, name: &str, made: &str) {
        let path = format!("{}/../../{file}", env!("CARGO_MANIFEST_DIR"));
        let text = fs::read_to_string(&path).unwrap();
        let begin = text
            .find(&format!("BEGIN {name}"))
            .and_then(|b| text[b..].find('\n').map(|n| b + n + 1))
            .unwrap_or_else(|| panic!("{file}: no BEGIN {name}"));
        let end = text[begin..]
            .find(&format!("END {name}"))
            .and_then(|e| text[..begin + e].rfind('\n').map(|n| n + 1))
            .unwrap_or_else(|| panic!("{file}: no END {name}"));
        if std::env::var_os("PUZZLE_BLESS").is_some() {
            fs::write(&path, format!("{}{made}{}", &text[..begin], &text[end..])).unwrap();
            return;
        }
        assert_eq!(
            text[begin..end],
            *made,
            "{file}'s {name} are not the options table's (PUZZLE_BLESS=1 writes them)"
        );
    }

    #[test]
    fn testrun_and_the_docs_are_made_from_the_options_table() {
        made_from_the_table("Testrun", "variables", &testrun_list());
        made_from_the_table("Testrun", "options", &testrun_cases());
        made_from_the_table("docs/grading-reference.md", "options", &options_reference());
    }

    #[test]
    fn a_former_spelling_works_and_says_the_new_one() {
        for (old, new) in [
            (
                &["grade", "p", "--timeout", "5"][..],
                &["grade", "p", "--time-limit", "5"][..],
            ),
            (
                &["fuzz", "--seconds", "5", "p"],
                &["fuzz", "--fuzz", "5", "p"],
            ),
            (
                &["run", "--time", "5", "p"],
                &["run", "--time-limit", "5", "p"],
            ),
            (&["run", "--read=a", "p"], &["run", "--read-only=a", "p"]),
        ] {
            let ((_, was), (_, now)) = (parsed(old), parsed(new));
            assert_eq!(was.notes.len(), 1, "{old:?}");
            let spelling = old.iter().find(|w| w.starts_with("--")).unwrap();
            let name = new.iter().find(|w| w.starts_with("--")).unwrap();
            assert!(
                was.notes[0].starts_with(&format!(
                    "'{}' is now {}",
                    spelling.split('=').next().unwrap(),
                    name.split('=').next().unwrap()
                )),
                "{:?}",
                was.notes
            );
            assert!(now.notes.is_empty(), "{new:?}");
            assert_eq!(
                (was.time_limit, was.fuzz, &was.read_only),
                (now.time_limit, now.fuzz, &now.read_only),
                "{old:?}"
            );
        }
        let (_, g) = parsed(&["grade", "p", "--timeout", "5"]);
        assert_eq!(
            g.notes,
            ["'--timeout' is now --time-limit (sh Testrun: TIMEOUT is now TIME_LIMIT); the old name still works"]
        );
        assert_eq!(g.settings().timeout, Some(5));
        let (_, g) = parsed(&["fuzz", "--seconds", "7", "p"]);
        assert_eq!(g.fuzz, Some(7));
        assert!(error(&["grade", "p", "--time-limit", "1.5"]).contains(
            "--time-limit: should be a whole number of seconds, at least 1, but is '1.5'"
        ));
        let (_, g) = parsed(&["run", "--time-limit", "1.5", "p"]);
        assert_eq!(g.run_limits().wall, Duration::from_millis(1500));
    }

    #[test]
    fn version_says_the_name_and_cargos_version() {
        for word in ["--version", "-V"] {
            let Ok(Command::Help(text)) = parse(args(&[word])) else {
                panic!("{word}");
            };
            assert_eq!(text, format!("puzzle-grade {}", env!("CARGO_PKG_VERSION")));
        }
    }

    #[test]
    fn options_go_before_or_after_the_operands() {
        for words in [
            &["grade-all", "--format", "gradescope,junit", "subs"][..],
            &["grade-all", "subs", "--format", "gradescope,junit"],
            &["grade-all", "subs", "--format=gradescope,junit"],
        ] {
            let (_, g) = parsed(words);
            assert_eq!(g.operands, args(&["subs"]), "{words:?}");
            assert_eq!(g.formats, [Format::Gradescope, Format::JUnit], "{words:?}");
        }
        let (_, g) = parsed(&["grade-all", "--timeout", "5", "--", "--subs", "--strict"]);
        assert_eq!(g.operands, args(&["--subs", "--strict"]));
        assert!(!g.strict);
    }

    #[test]
    fn run_options_end_at_its_program() {
        let (mode, g) = parsed(&[
            "run",
            "--time-limit",
            "2.5",
            "--memory",
            "64",
            "prog",
            "--time-limit",
        ]);
        assert_eq!(mode, Mode::Run);
        assert_eq!(g.time_limit, Some(Duration::from_millis(2500)));
        assert_eq!(g.memory, Some(64 << 20));
        assert_eq!(g.operands, args(&["prog", "--time-limit"]));
        let (_, g) = parsed(&["run", "-v", "--read", "a:b", "--", "--prog"]);
        assert!(g.verbose);
        assert_eq!(g.read_only, [PathBuf::from("a"), PathBuf::from("b")]);
        assert_eq!(g.operands, args(&["--prog"]));
    }

    #[test]
    fn help_in_every_mode_lists_exactly_its_options() {
        for mode in Mode::ALL {
            // After run's PROGRAM, --help is the program's.
            let operand = if mode == Mode::Run { "-v" } else { "x" };
            let Ok(Command::Help(text)) = parse(args(&[mode.name(), operand, "--help"])) else {
                panic!("{} --help", mode.name());
            };
            assert!(
                text.starts_with(&format!("Usage: puzzle-grade {}", mode.name())),
                "{text}"
            );
            let options = text.split_once("Options:\n").map_or("", |(_, o)| o);
            for o in OPTIONS {
                let listed = options
                    .lines()
                    .any(|l| l.trim_start().split([' ', ',']).any(|word| word == o.name));
                assert_eq!(
                    listed,
                    o.modes.contains(&mode),
                    "{} {}",
                    mode.name(),
                    o.name
                );
            }
        }
        let all = usage();
        for mode in Mode::ALL {
            assert!(all.contains(&format!("  {} ", mode.name())), "{all}");
        }
        for format in Format::all() {
            let help = OPTIONS
                .iter()
                .find(|o| o.name == "--format")
                .unwrap()
                .help_text();
            assert!(help.contains(format.name()), "{help}");
        }
    }

    #[test]
    fn errors_name_the_mode_the_option_and_the_word() {
        let more = "\nTry 'puzzle-grade grade-all --help' for more information.";
        assert_eq!(
            error(&["grade-all", "subs", "--grades"]),
            format!("puzzle-grade grade-all: option '--grades' needs a value (DIR){more}")
        );
        assert_eq!(
            error(&["grade-all", "s", "--jobs", "0"]),
            format!("puzzle-grade grade-all: --jobs: should be a whole number of runs, at least 1, but is '0'{more}")
        );
        assert_eq!(
            error(&["grade-all", "s", "--shard", "4/3"]),
            format!("puzzle-grade grade-all: --shard: '4/3' is not I/N with 1 <= I <= N{more}")
        );
        assert_eq!(
            error(&["grade-all", "s", "--format", "jsonl"]),
            format!("puzzle-grade grade-all: --format: 'jsonl' is not one of gradescope, prairielearn, junit, canvas, moodle{more}")
        );
        assert!(error(&["grade", "p", "--grades", "g"]).starts_with(
            "puzzle-grade grade: unknown option '--grades': an option of grade-all and similar, not of grade\n"
        ));
        assert!(error(&["grade-all", "s", "--timout", "5"]).starts_with(
            "puzzle-grade grade-all: unknown option '--timout' (did you mean --time-limit?)\n"
        ));
        assert!(error(&["grade", "p", "--jbos", "2"])
            .starts_with("puzzle-grade grade: unknown option '--jbos' (did you mean --jobs?)\n"));
        assert!(error(&["grade", "p", "--frobnicate"])
            .starts_with("puzzle-grade grade: unknown option '--frobnicate'\n"));
        assert!(error(&["grdae", "p"]).starts_with(
            "puzzle-grade: unknown mode 'grdae' (did you mean grade?); the modes are "
        ));
        assert!(error(&["GradeAll", "p"]).contains("(did you mean grade-all?)"));
        assert!(!error(&["zzz", "p"]).contains("did you mean"));
        assert_eq!(edits("--timout", "--timeout"), 1);
        assert_eq!(edits("ab", "ba"), 1);
        assert_eq!(edits("", "abc"), 3);
        assert!(error(&["grade-all", "s", "--resume", "--only", "a"])
            .contains("--only and --resume do not go together"));
        assert!(error(&["fuzz", "a", "b"]).starts_with("puzzle-grade fuzz: one PROGRAM\n"));
        assert!(error(&["run", "--memory", "lots", "--", "x"]).starts_with(
            "puzzle-grade run: --memory: should be a whole number of MiB, at least 1, but is 'lots'\n"
        ));
        assert!(error(&["run", "--sandbox", "all", "x"]).starts_with(
            "puzzle-grade run: --sandbox: should be namespaces, uid or minimal, but is \"all\"\n"
        ));
        assert_eq!(
            error(&["gradeall", "subs"]),
            "puzzle-grade: unknown mode 'gradeall' (did you mean grade-all?); the modes are \
             grade, grade-all, similar, merge, gradebook, diff, open, check, fuzz, run, check-environment\n\
             Try 'puzzle-grade --help' for more information."
        );
    }

    #[test]
    fn similar_takes_templates_a_threshold_and_one_folder() {
        let (mode, given) = parsed(&[
            "similar",
            "--template",
            "a.h",
            "subs",
            "--template=b",
            "--common",
            "12",
            "--out",
            "o",
        ]);
        assert_eq!(mode, Mode::Similar);
        assert_eq!(given.templates, [PathBuf::from("a.h"), PathBuf::from("b")]);
        assert_eq!(given.common, Some(12));
        assert_eq!(given.out, Some(PathBuf::from("o")));
        assert_eq!(given.operands, [OsString::from("subs")]);
        assert!(error(&["similar", "a", "b"]).starts_with(
            "puzzle-grade similar: takes one folder of submissions, not 2 operands\n"
        ));
        assert!(error(&["similar", "s", "--common", "0"]).starts_with(
            "puzzle-grade similar: --common: should be a whole number of submissions, at least 1, but is '0'\n"
        ));
        assert!(error(&["similar", "s", "--fuzz", "3"])
            .starts_with(
            "puzzle-grade similar: unknown option '--fuzz': an option of grade, grade-all and fuzz, not of similar\n"
        ));
    }

    #[test]
    fn the_options_that_decide_marks_are_recorded_in_one_order() {
        // The order a grading writes, whatever the command line's.
        let (m, g) = parsed(&[
            "grade-all",
            "s",
            "--scheme",
            &example_scheme(),
            "--max-timeouts",
            "2",
            "--strict",
            "--read-only",
            "/b:/a",
        ]);
        let keys: Vec<&str> = g
            .marks_options(m)
            .settings()
            .iter()
            .map(Setting::key)
            .collect();
        assert_eq!(
            keys,
            [
                "--strict",
                "--memory",
                "--processes",
                "--read-only",
                "--read-only",
                "--build-timeout",
                "--max-timeouts",
                "--scheme"
            ]
        );
        let (m, a) = parsed(&[
            "grade-all",
            "s",
            "--jobs",
            "3",
            "--timeout",
            "5",
            "--strict",
            "x",
        ]);
        let (_, b) = parsed(&[
            "grade-all",
            "--strict",
            "--timeout",
            "5",
            "s",
            "x",
            "--grades",
            "g",
        ]);
        assert_eq!(a.marks_options(m), b.marks_options(m));
        assert_eq!(
            a.marks_options(m).to_string(),
            "--strict --time-limit 5 --memory 1024 --processes 64 --build-timeout 120 fixtures x"
        );
        // The formats of each submission's files are recorded; the class's
        // (the gradebook's, which decide nothing) are not.
        let g = Given {
            formats: vec![Format::Canvas, Format::JUnit, Format::Moodle],
            ..Given::default()
        };
        assert!(g
            .marks_options(m)
            .settings()
            .contains(&Setting::Formats(vec![Format::JUnit])));
        let g = Given {
            formats: vec![Format::Canvas, Format::Moodle],
            ..Given::default()
        };
        assert!(g
            .marks_options(m)
            .settings()
            .iter()
            .all(|o| !matches!(o, Setting::Formats(_))));
        let (_, g) = parsed(&["grade-all", "s", "--only", "a", "--only", "b"]);
        assert_eq!(g.select(), Select::Only(args(&["a", "b"])));
    }

    /// The example marking scheme's path.
    fn example_scheme() -> String {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/marking-scheme.txt"
        )
        .to_string()
    }

    /// A value of `option`'s kind that is not its default (a file it reads
    /// written in `dir`), and the options it needs beside it.
    fn sample(option: &Opt, dir: &std::path::Path) -> Vec<String> {
        let roster = || {
            let roster = dir.join("roster.csv");
            fs::write(&roster, "folder,id\nann,z1\n").unwrap();
            roster.display().to_string()
        };
        let Some(value) = option.value else {
            return Vec::new();
        };
        vec![match (option.name, value) {
            ("--scheme", _) => example_scheme(),
            ("--roster", _) => roster(),
            // An assignment's name is written in a gradebook file.
            ("--assignment", _) => {
                return vec![
                    "ann".into(),
                    "--format".into(),
                    "moodle".into(),
                    "--roster".into(),
                    roster(),
                ]
            }
            (_, "S") => "7".into(),
            (_, "N") => "3".into(),
            (_, "K") => "2".into(),
            (_, "MIB") => "512".into(),
            (_, "LIST") => "junit".into(),
            (_, "NAME") => "ann".into(),
            (_, "I/N") => "1/2".into(),
            (_, "LEVEL") => "minimal".into(),
            (_, "PATH") => "/opt".into(),
            (_, "DIR") | (_, "FILE") => dir.join("x").display().to_string(),
            (name, value) => panic!("{name}: no sample of a value {value}"),
        }]
    }

    /// The table and the record are one: every option of a grading mode
    /// whose row records it, given, adds settings under its own name to
    /// what the grading records; every other, given, changes none of the
    /// settings the grading's marks are decided by (the runs' limits, the
    /// rules, the scheme); and every setting a grading records is some
    /// row's. An option that decides a mark, added with no record, fails
    /// here.
    #[test]
    fn every_option_that_decides_a_mark_is_recorded_under_its_name() {
        let dir = std::env::temp_dir().join(format!("puzzle-grade-args-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        // The settings that decide the marks (the runs at once aside).
        let deciding = |g: &Given| {
            let mut s = g.settings();
            s.jobs = 1;
            format!("{s:?}")
        };
        let mut recorded = 0;
        for mode in GRADING.iter().copied() {
            let (_, plain) = parsed(&[mode.name(), "s"]);
            let before = plain.marks_options(mode);
            for option in OPTIONS.iter().filter(|o| o.modes.contains(&mode)) {
                let mut words = vec![mode.name().to_string(), "s".into(), option.name.into()];
                words.extend(sample(option, &dir));
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                let (_, given) = parsed(&words);
                let after = given.marks_options(mode);
                let added: Vec<&Setting> = after
                    .settings()
                    .iter()
                    .filter(|s| !before.settings().contains(s))
                    .collect();
                if option.records.is_some() {
                    recorded += 1;
                    assert!(!added.is_empty(), "{words:?}: nothing more recorded");
                    for setting in added {
                        assert_eq!(setting.key(), option.name, "{words:?}: {setting}");
                    }
                } else {
                    assert_eq!(after, before, "{words:?}: recorded, by another row");
                    assert_eq!(
                        deciding(&given),
                        deciding(&plain),
                        "{words:?}: it changes what decides the marks, but its row in OPTIONS records nothing"
                    );
                }
            }
        }
        assert!(recorded >= 13, "{recorded}");
        for key in puzzle_grade::SETTINGS_ORDER {
            assert!(
                key == "fixtures" || OPTIONS.iter().any(|o| o.name == key && o.records.is_some()),
                "a grading records {key}, which no row of OPTIONS records"
            );
        }
        let _ = fs::remove_dir_all(&dir);
    }
}
