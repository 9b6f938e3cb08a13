//! The classes of fault, each one row of [`CLASSES`]: its name in a
//! report, whether it fails a fixture, its column in the table and the
//! CSV, the parts of the scheme it costs, whether the machine may decide
//! it, the features of inputs its causes are looked for in, the version of
//! the grading files it first appeared in, and a line that says what it
//! is. The judge, the engine, the marks, the report, the record, the
//! experiments and the docs' class table (`docs/grading-reference.md`, checked
//! against these rows by a test) all read a class's properties here.
//!
//! Adding a class: a variant of [`Class`] and its row (`docs/design.md`
//! says what else: the judge's rule that gives it, and its tests).

use crate::judging::fixture::Category;

/// The classes of a report, most serious first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// `solvable` for an unsolvable puzzle, or the other way round.
    WrongVerdict,
    /// A bad board accepted: a verdict printed.
    MissedError,
    /// No verdict for a good board.
    FalseError,
    /// 0 after an error message, or not 0 after a verdict.
    WrongExitStatus,
    /// The message of a rejection on stderr, nothing on stdout.
    ErrorOnStderr,
    /// A rejection without a word.
    NoMessage,
    /// Still running at the time limit.
    Timeout,
    /// Stopped by the memory limit.
    MemoryLimit,
    /// Stopped by the process limit.
    ProcessLimit,
    /// Died of a signal, or wrote more than the output cap.
    Crash,
    /// The reference does not answer as the fixture's name says.
    NotGraded,
    /// Not run: the submission's time budget was spent, or too many of its
    /// runs had timed out (`--budget`, `--max-timeouts`).
    NotRun,
    /// The right decision, said differently from the reference.
    Format,
    /// A fixture the assignment leaves open, answered one of the allowed ways.
    Open,
}

/// A fixture's outcome, as a grading's records keep it: passed (silently,
/// or with a message to judge by eye), or the class of its report line
/// (a class that does not fail too: FORMAT, OPEN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Passed.
    Passed,
    /// A report line of this class.
    Noted(Class),
}

impl Outcome {
    /// Whether it is a right answer: passed, or answered one of the ways
    /// the assignment leaves open (OPEN).
    pub fn is_right(self) -> bool {
        matches!(self, Outcome::Passed | Outcome::Noted(Class::Open))
    }

    /// Its word in a record and a summary: `passed`, or the class's name.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Noted(class) => class.name(),
        }
    }

    /// The outcome named `word` ([`Outcome::name`]).
    pub fn parse(word: &str) -> Option<Outcome> {
        match word {
            "passed" => Some(Outcome::Passed),
            _ => Class::parse(word).map(Outcome::Noted),
        }
    }

    /// Its class, when it has one.
    pub fn class(self) -> Option<Class> {
        match self {
            Outcome::Passed => None,
            Outcome::Noted(class) => Some(class),
        }
    }

    /// Whether the fixture failed: its class fails.
    pub fn fails(self, strict: bool) -> bool {
        self.class().is_some_and(|c| c.fails(strict))
    }
}

/// Whether a class fails the fixture it is noted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fails {
    /// Always.
    Always,
    /// Only when grading byte for byte (`--strict`).
    WhenStrict,
    /// Never: it is noted, not a fault.
    Never,
}

/// The parts a fixture's points come in (the scheme's `[points]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The verdict of a good board.
    Verdict,
    /// The rejection of a bad board, with a message on stdout.
    Rejection,
    /// The exit status.
    ExitStatus,
    /// The bytes of the reference.
    Format,
}

impl Part {
    /// Every part, in the scheme's order.
    pub const ALL: [Part; 4] = [
        Part::Verdict,
        Part::Rejection,
        Part::ExitStatus,
        Part::Format,
    ];

    /// Its key in a scheme file.
    pub fn key(self) -> &'static str {
        match self {
            Part::Verdict => "verdict",
            Part::Rejection => "rejection",
            Part::ExitStatus => "exit-status",
            Part::Format => "format",
        }
    }

    /// Whether it applies to a fixture of `category`.
    pub fn applies_to(self, category: Category) -> bool {
        match self {
            Part::Verdict => category != Category::Bad,
            Part::Rejection => category == Category::Bad,
            Part::ExitStatus | Part::Format => true,
        }
    }
}

/// A feature of inputs whose presence can be the cause of a class of
/// fault: the experiments (`probing/experiment.rs`) try each of a
/// class's, in its row's order, with inputs that have it and inputs alike
/// but for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Any bad input at all.
    AllBad,
    /// Any valid input at all.
    AllValid,
    /// Even sides, the blanks' rows of different parity.
    RowIgnored,
    /// Even sides, one blank in the last column.
    LastColumn,
    /// Odd sides, the blanks' rows of different parity.
    RowOnOddSide,
    /// A goal that `1 2 ... b` cannot reach.
    GoalIgnored,
    /// Boards of 2x2.
    TwoByTwo,
    /// Boards of an odd side.
    OddSide,
    /// A goal other than `1 2 ... b`.
    OtherGoal,
    /// 2^31 inversions or more.
    Overflow,
}

/// Where the experiments look for a class's causes, in a row's order: a
/// feature of inputs, or each of a family of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suspects {
    /// One feature.
    Feature(Feature),
    /// Lines longer than a line buffer, one feature a buffer's size.
    LongLines,
    /// Each kind of bad input, one feature a kind.
    BadInputs,
    /// Boards holding a tile programs trip on (98, the code of `b`; three
    /// digits; 128; 256), one feature a tile.
    Tiles,
    /// Each layout of a valid input (tabs, runs of blanks...), one
    /// feature a layout.
    Layouts,
}

/// A class's column in the table and the CSV: the table's header and the
/// CSV's (several classes may share one: it counts them together), and
/// the version of the grading files it first appeared in (a column added
/// later is written after all the CSV's earlier ones, so that each of
/// those keeps its place, by name and by number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// Its header in the table (and its width there).
    pub table: &'static str,
    /// Its header in `summary.csv`.
    pub csv: &'static str,
    /// The version of the grading files (`publishing/json.rs`'s
    /// `VERSION`) it first appeared in.
    pub since: u64,
}

/// A class's properties: its row of [`CLASSES`].
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The class.
    pub class: Class,
    /// Its name in a report, a record and the docs.
    pub name: &'static str,
    /// Whether it fails the fixture.
    pub fails: Fails,
    /// Its column in the table and the CSV.
    pub column: Column,
    /// Whether a fixture of it was judged: one that was not (NOT GRADED:
    /// the machine's, or a misnamed fixture) counts neither as passed nor
    /// as failed, in a count of its own.
    pub judged: bool,
    /// The parts of the scheme a fixture of it loses (the others it
    /// keeps).
    pub costs: &'static [Part],
    /// Whether how the machine ran may have decided it (its load, when it
    /// was sampled) and not only the program: a failure of it is run
    /// again (`--confirm`) before it costs marks.
    pub machine_may_decide: bool,
    /// The features its causes are looked for in, in the order tried
    /// (none: the experiments do not look).
    pub suspects: &'static [Suspects],
    /// The version of the grading files (`summary.jsonl`'s counts) it
    /// first appeared in: a file of an earlier version has no count of
    /// it, read as none.
    pub since: u64,
    /// What the program did, in a line (Markdown): the docs' class table.
    pub what: &'static str,
}

/// Every part: a run that did not end by itself, or did not run, earns
/// nothing.
const ALL_PARTS: &[Part] = &Part::ALL;

/// The class columns, in the table's order (several classes may share one).
const VERDICT: Column = Column {
    table: "verdict",
    csv: "wrong_verdict",
    since: 1,
};
const MISSED: Column = Column {
    table: "missed",
    csv: "missed_error",
    since: 1,
};
const FALSE: Column = Column {
    table: "false",
    csv: "false_error",
    since: 1,
};
const STATUS: Column = Column {
    table: "status",
    csv: "wrong_exit_status",
    since: 1,
};
const STDERR: Column = Column {
    table: "stderr",
    csv: "error_on_stderr",
    since: 1,
};
const TIMEOUT: Column = Column {
    table: "timeout",
    csv: "timeout",
    since: 1,
};
const MEMORY: Column = Column {
    table: "memory",
    csv: "memory_limit",
    since: 1,
};
const PROCS: Column = Column {
    table: "procs",
    csv: "process_limit",
    since: 1,
};
const CRASH: Column = Column {
    table: "crash",
    csv: "crash",
    since: 1,
};
/// NOT GRADED's own, since version 3 (before, `crash` counted it: a false
/// claim of a crash).
const UNGRADED: Column = Column {
    table: "ungraded",
    csv: "not_graded",
    since: 3,
};
const FORMAT: Column = Column {
    table: "format",
    csv: "format",
    since: 1,
};
const OPEN: Column = Column {
    table: "open",
    csv: "open",
    since: 1,
};

/// The features of inputs a program may choke on whatever it is asked.
const ANY_INPUT: [Suspects; 3] = [
    Suspects::Feature(Feature::TwoByTwo),
    Suspects::Feature(Feature::OddSide),
    Suspects::Feature(Feature::OtherGoal),
];

/// The row of a class of the most: it fails, the machine decides nothing
/// of it, no experiment looks for its causes, and it was there from the
/// first version.
const fn class(
    class: Class,
    name: &'static str,
    column: Column,
    costs: &'static [Part],
    what: &'static str,
) -> Row {
    Row {
        class,
        name,
        fails: Fails::Always,
        column,
        judged: true,
        costs,
        machine_may_decide: false,
        suspects: &[],
        since: 1,
        what,
    }
}

/// Every class's properties, in [`Class::ALL`]'s order (a report's).
pub const CLASSES: [Row; 14] = [
    Row {
        suspects: &[
            Suspects::Feature(Feature::RowIgnored),
            Suspects::Feature(Feature::LastColumn),
            Suspects::Feature(Feature::RowOnOddSide),
            Suspects::Feature(Feature::GoalIgnored),
            Suspects::Feature(Feature::TwoByTwo),
            Suspects::Feature(Feature::Overflow),
            Suspects::LongLines,
            Suspects::Tiles,
            Suspects::Layouts,
        ],
        ..class(
            Class::WrongVerdict,
            "WRONG VERDICT",
            VERDICT,
            &[Part::Verdict, Part::Format],
            "said `solvable` for an unsolvable puzzle, or the other way round",
        )
    },
    Row {
        suspects: &[
            Suspects::Feature(Feature::AllBad),
            Suspects::BadInputs,
            Suspects::LongLines,
        ],
        ..class(
            Class::MissedError,
            "MISSED ERROR",
            MISSED,
            &[Part::Rejection, Part::Format],
            "accepted a bad board: printed a verdict (also one stuck to the end of an echoed board, with exit status 0)",
        )
    },
    Row {
        suspects: &[
            Suspects::Feature(Feature::AllValid),
            ANY_INPUT[0],
            ANY_INPUT[1],
            ANY_INPUT[2],
            Suspects::Layouts,
            Suspects::LongLines,
            Suspects::Tiles,
        ],
        ..class(
            Class::FalseError,
            "FALSE ERROR",
            FALSE,
            &[Part::Verdict, Part::Format],
            "printed no verdict for a good board (a rejection, or nothing readable)",
        )
    },
    class(
        Class::WrongExitStatus,
        "WRONG EXIT STATUS",
        STATUS,
        &[Part::ExitStatus, Part::Format],
        "0 after an error message, or not 0 after a verdict",
    ),
    class(
        Class::ErrorOnStderr,
        "ERROR ON STDERR",
        STDERR,
        &[Part::Rejection, Part::Format],
        "rejected a bad board with its message on stderr and nothing on stdout",
    ),
    class(
        Class::NoMessage,
        "NO MESSAGE",
        STDERR,
        &[Part::Rejection, Part::Format],
        "rejected a bad board without a word on stdout or stderr",
    ),
    Row {
        machine_may_decide: true,
        ..class(
            Class::Timeout,
            "TIMEOUT",
            TIMEOUT,
            ALL_PARTS,
            "still running at the time limit, having had its time (its own time: wall-clock time less its waits for a core, made up on a busy machine; or its CPU time limit); killed, with every process it started",
        )
    },
    Row {
        machine_may_decide: true,
        ..class(
            Class::MemoryLimit,
            "MEMORY LIMIT",
            MEMORY,
            ALL_PARTS,
            "stopped by the memory limit (1 GiB by default, `MEMORY=MIB`): killed at it, or failed once its memory had come to it; the same at every level, the line saying how it was measured ([the sandbox](grading-design.md#the-sandbox))",
        )
    },
    Row {
        machine_may_decide: true,
        ..class(
            Class::ProcessLimit,
            "PROCESS LIMIT",
            PROCS,
            ALL_PARTS,
            "stopped by the process limit (64 at once)",
        )
    },
    Row {
        machine_may_decide: true,
        suspects: &[
            ANY_INPUT[0],
            ANY_INPUT[1],
            ANY_INPUT[2],
            Suspects::BadInputs,
            Suspects::LongLines,
            Suspects::Tiles,
            Suspects::Layouts,
        ],
        ..class(
            Class::Crash,
            "CRASH",
            CRASH,
            ALL_PARTS,
            "died of a signal (11 SEGV, 6 ABRT, 25 XFSZ for a file over the cap...), or wrote more than the output cap",
        )
    },
    // Costs nothing: a misnamed fixture is worth nothing anyway, and one
    // the machine's load kept from being graded keeps its points
    // (crate::shared::machine). Nor is it a failure, or a pass: nothing of
    // the program was judged.
    Row {
        judged: false,
        ..class(
            Class::NotGraded,
            "NOT GRADED",
            UNGRADED,
            &[],
            "(`./puzzle` itself does not answer as the fixture's name says: the fixture is misnamed); or the machine's load kept the program from its time twice, a wait for a quieter machine apart (`the machine's, not the program's: ...`, [Time and the machine's load](grading-design.md#time-and-the-machines-load)): no marks lost, and neither passed nor failed (the column `ungraded`)",
        )
    },
    class(
        Class::NotRun,
        "NOT RUN",
        TIMEOUT,
        ALL_PARTS,
        "(not run: the submission's time was spent, `BUDGET=S`, or too many of its runs had timed out, `MAX_TIMEOUTS=K`; the table counts it with the timeouts)",
    ),
    Row {
        fails: Fails::WhenStrict,
        ..class(
            Class::Format,
            "FORMAT",
            FORMAT,
            &[Part::Format],
            "the right decision, said differently from `./puzzle`; the kind in brackets: `case`, `spacing`, `blank lines`, `extra lines`, `line ends`, `other`; a verdict read leniently on another line than the difference shown is named after it (`; the verdict 'solvavle' read as 'solvable'`)",
        )
    },
    Row {
        fails: Fails::Never,
        ..class(
            Class::Open,
            "OPEN",
            OPEN,
            &[],
            "rejected, or accepted with the right verdict, a fixture the assignment leaves open",
        )
    },
];

impl Class {
    /// Every class, in a report's order.
    pub const ALL: [Class; 14] = [
        Class::WrongVerdict,
        Class::MissedError,
        Class::FalseError,
        Class::WrongExitStatus,
        Class::ErrorOnStderr,
        Class::NoMessage,
        Class::Timeout,
        Class::MemoryLimit,
        Class::ProcessLimit,
        Class::Crash,
        Class::NotGraded,
        Class::NotRun,
        Class::Format,
        Class::Open,
    ];

    /// Its row of `CLASSES`.
    pub fn row(self) -> &'static Row {
        &CLASSES[self as usize]
    }

    /// The class's name in a report.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The class named `name` (as a report, a record or the docs name it).
    pub fn parse(name: &str) -> Option<Class> {
        CLASSES.iter().find(|r| r.name == name).map(|r| r.class)
    }

    /// Whether a fixture of this class fails: all but OPEN, and FORMAT only
    /// when grading byte for byte.
    pub fn fails(self, strict: bool) -> bool {
        match self.row().fails {
            Fails::Always => true,
            Fails::WhenStrict => strict,
            Fails::Never => false,
        }
    }

    /// Whether a fixture of this class earns `part` of its points.
    pub fn earns(self, part: Part) -> bool {
        !self.row().costs.contains(&part)
    }

    /// Whether the machine may have decided it (its row says).
    pub fn machine_may_decide(self) -> bool {
        self.row().machine_may_decide
    }

    /// Whether a fixture of it was judged (its row says): one that was not
    /// counts neither as passed nor as failed.
    pub fn judged(self) -> bool {
        self.row().judged
    }

    /// Whether experiments look for its causes (its row names features).
    pub fn has_suspects(self) -> bool {
        !self.row().suspects.is_empty()
    }
}

/// The table's and the CSV's class columns, in order (each once, at its
/// first class), each with the classes it counts.
pub fn columns() -> Vec<(Column, Vec<Class>)> {
    let mut columns: Vec<(Column, Vec<Class>)> = Vec::new();
    for row in &CLASSES {
        match columns.iter_mut().find(|(c, _)| *c == row.column) {
            Some((_, classes)) => classes.push(row.class),
            None => columns.push((row.column, vec![row.class])),
        }
    }
    columns
}

/// The docs' class table (`docs/grading-reference.md`): a row a class, `| name |
/// what the program did | fails |` (a test checks the docs have it).
#[cfg(test)]
fn docs_table() -> String {
    let mut table = String::from("| class | what the program did | fails |\n|---|---|---|\n");
    for row in &CLASSES {
        let fails = match row.fails {
            Fails::Always => "yes",
            Fails::WhenStrict => "with `STRICT=1`",
            Fails::Never => "no",
        };
        table += &format!("| `{}` | {} | {fails} |\n", row.name, row.what);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_its_own_row_in_order_and_its_own_name() {
        for (i, class) in Class::ALL.into_iter().enumerate() {
            assert_eq!(CLASSES[i].class, class);
            assert_eq!(class as usize, i);
            assert_eq!(Class::parse(class.name()), Some(class));
            assert!(!class.row().what.contains('\n') && !class.row().what.contains('|'));
        }
        assert_eq!(Class::parse("passed"), None);
        let columns = columns();
        let tables: Vec<&str> = columns.iter().map(|(c, _)| c.table).collect();
        assert_eq!(
            tables,
            [
                "verdict", "missed", "false", "status", "stderr", "timeout", "memory", "procs",
                "crash", "ungraded", "format", "open"
            ]
        );
        // Each column's headers are its own.
        for (a, _) in &columns {
            let same = columns
                .iter()
                .filter(|(b, _)| b.table == a.table || b.csv == a.csv)
                .count();
            assert_eq!(same, 1, "{a:?}");
        }
    }

    /// The docs' class table is the rows', and their suspects table names
    /// the classes with suspects, in order.
    #[test]
    fn the_docs_tables_of_classes_are_the_rows() {
        let docs = |name: &str| {
            std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../../docs")
                    .join(name),
            )
            .unwrap()
        };
        let (reference, design) = (docs("grading-reference.md"), docs("grading-design.md"));
        let table = docs_table();
        assert!(
            reference.contains(&table),
            "docs/grading-reference.md's class table is not the classes' rows (judging/class.rs); it should read:\n{table}"
        );
        let suspects: Vec<&str> = design
            .split("| class | suspects (the feature, and the inputs without it) |\n|---|---|\n")
            .nth(1)
            .expect("the suspects table")
            .lines()
            .take_while(|l| l.starts_with('|'))
            .map(|l| l.split('|').nth(1).unwrap_or("").trim())
            .collect();
        let with: Vec<&str> = CLASSES
            .iter()
            .filter(|r| !r.suspects.is_empty())
            .map(|r| r.name)
            .collect();
        assert_eq!(suspects, with);
    }

    #[test]
    fn what_a_class_costs_follows_what_it_is() {
        // What fails loses the format's part; what does not, nothing; nor
        // does what was not graded (the machine's, or a misnamed fixture).
        for class in Class::ALL {
            assert_eq!(
                class.earns(Part::Format),
                matches!(class, Class::Open | Class::NotGraded),
                "{class:?}"
            );
        }
        assert!(Part::ALL.iter().all(|&p| Class::NotGraded.earns(p)));
        // What was not graded was not judged: neither passed nor failed.
        for class in Class::ALL {
            assert_eq!(class.judged(), class != Class::NotGraded, "{class:?}");
        }
        // A run that did not end by itself, or did not run, earns nothing.
        for class in [
            Class::Timeout,
            Class::MemoryLimit,
            Class::ProcessLimit,
            Class::Crash,
            Class::NotRun,
        ] {
            assert!(Part::ALL.iter().all(|&p| !class.earns(p)), "{class:?}");
        }
        assert!(!Class::WrongVerdict.earns(Part::Verdict));
        assert!(Class::WrongVerdict.earns(Part::ExitStatus));
        assert!(!Class::WrongExitStatus.earns(Part::ExitStatus));
    }
}
