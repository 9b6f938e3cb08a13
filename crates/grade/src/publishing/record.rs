//! A graded submission as a grading keeps it: its [`Row`] (the table's and
//! the CSV's line, read by name) and its result on each fixture
//! ([`FixtureLine`]), together a [`Record`], one line of `summary.jsonl`.
//!
//! The record is the grading's truth: every summary file and the class page
//! are made from records, and a grading that is resumed, or merged from
//! shards, reads its records back ([`Record::from_json_line`]) and makes the
//! same files as one that ran whole. Numbers are written as the reports
//! show them (points to two decimals, seconds to hundredths), so a record
//! read back prints the same bytes.
//!
//! What each class of fault cost ([`Record::lost`], the `lost` column) is
//! not stored: it is derived from the fixtures' lines, which carry each
//! fixture's class, points and maximum in whole hundredths, by the
//! arithmetic the report's `lost:` uses ([`lost_of`]). So one truth gives
//! both, a record read back (a `--resume`, a `merge`, an older
//! `summary.jsonl`) gives the same text, and no field can disagree with
//! the lines it sums.

use crate::judging::class::{self, Class, Outcome};
use crate::judging::fixture::{Category, Fixture};
use crate::judging::judge::Judgement;
use crate::judging::judge::{Excerpt, Graded, Head, Output, EXCERPT};
use crate::marking::cause::Confirmed;
use crate::marking::marks::{lost_in_words, lost_of, points, Score, Visibility};
use crate::marking::report::{seconds, Counts};
use crate::publishing::json::{array, json_string, Fields, Json, Object, VERSION};
use crate::shared::error::Refused;
use crate::shared::name::Name;
use crate::shared::text::one_line;
use std::fmt::Write as _;
use std::sync::OnceLock;
use std::time::Duration;

/// How many classes a row counts (every [`Class`]).
pub const CLASSES: usize = Class::ALL.len();

/// One submission's line of the table and of `summary.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Its folder's name.
    pub name: Name,
    /// How it was built, or why not (one line, nothing hidden in it).
    pub note: String,
    /// Its marks, when it was built.
    pub marks: Option<RowMarks>,
    /// Why it could not be graded at all (an error of the system's, not
    /// the submission's fault: no marks, and `--resume` grades it again).
    pub trouble: Option<String>,
}

/// The marks of a submission that was built.
#[derive(Clone, Debug, PartialEq)]
pub struct RowMarks {
    /// Fixtures passed.
    pub passed: usize,
    /// Fixtures failed.
    pub failed: usize,
    /// Report lines of each class, in [`Class::ALL`]'s order.
    pub classes: [usize; CLASSES],
    /// Its score.
    pub score: f64,
    /// The most it could have scored.
    pub max: f64,
    /// Faults the fuzzer found (`None`: not fuzzed).
    pub fuzz: Option<usize>,
    /// The time of all its runs.
    pub seconds: Duration,
    /// Its slowest run.
    pub slowest: Option<Duration>,
}

/// One fixture's result, a line of `summary-fixtures.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct FixtureLine {
    /// The fixture as reports show it (`Tests/bad_x.inp`).
    pub fixture: String,
    /// Its category (by its name: `bad`, `sol`, `unsol`).
    pub category: Category,
    /// Passed, or the class of its report line (`WRONG VERDICT`).
    pub class: Outcome,
    /// The points it earned.
    pub points: f64,
    /// The points it was worth.
    pub max_points: f64,
    /// Who sees it.
    pub visibility: Visibility,
    /// The run's time (none when it was not run).
    pub seconds: Option<Duration>,
    /// The report's words for it (empty when it passed silently).
    pub detail: String,
    /// What its run did (`judging::judge::Output`): the digest of how it
    /// ended, its stdout and stderr, as `output_fnv1a` (none when it was
    /// not run, or a grading of an older version did not record it), and
    /// for an answer that was not right the first bytes of each output
    /// (`stdout_head`, `stdout_bytes`, `stderr_head`, `stderr_bytes`, from
    /// version 3). Similarity's behaviour evidence: whether two programs
    /// gave the same answer, and what it was.
    pub output: Option<Output>,
}

/// A graded submission: its row, its fixtures' lines and the causes of its
/// faults that experiments confirmed.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Its row.
    pub row: Row,
    /// Its result on each fixture, in the fixtures' order (none when it was
    /// not built).
    pub fixtures: Vec<FixtureLine>,
    /// The causes confirmed by experiment (none when it was not built, or
    /// none was).
    pub causes: Vec<CauseLine>,
    /// The FNV-1a digest of its sources as handed in, every regular file
    /// by name and bytes (none when the folder was not copied whole, or a
    /// grading of an older version did not record it): whether its sources
    /// changed between two gradings.
    pub sources: Option<u64>,
}

/// A cause an experiment confirmed, as a grading keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CauseLine {
    /// The class of fault.
    pub class: Class,
    /// What the program gets wrong.
    pub words: String,
    /// The experiment's evidence, in a line.
    pub evidence: String,
    /// The failing fixtures it explains, as reports show them.
    pub fixtures: Vec<String>,
}

impl CauseLine {
    /// The lines of `causes`, their fixtures named from `fixtures`.
    pub fn of(causes: &[Confirmed], fixtures: &[Fixture]) -> Vec<CauseLine> {
        causes
            .iter()
            .map(|c| CauseLine {
                class: c.class,
                words: c.words.clone(),
                evidence: c.evidence.clone(),
                fixtures: c
                    .fixtures
                    .iter()
                    .filter_map(|&i| fixtures.get(i).map(|f| f.shown.clone()))
                    .collect(),
            })
            .collect()
    }
}

/// What a column of the table and the CSV shows of a row's marks.
#[derive(Clone, Debug)]
enum Value {
    Passed,
    Failed,
    /// The report lines of these classes, together.
    Classes(Vec<Class>),
    Score,
    Max,
    Fuzz,
    Time,
    Slowest,
}

/// A column of the table and the CSV after the name and `built`: the
/// table's header, the CSV's, its width in the table, what it shows, and
/// whether the CSV has it after `note` and `lost` (a column added after
/// the CSV's first layout: every earlier column keeps its place).
#[derive(Clone, Debug)]
struct Column {
    table: &'static str,
    csv: &'static str,
    width: usize,
    value: Value,
    late: bool,
}

impl Column {
    fn new(table: &'static str, csv: &'static str, width: usize, value: Value) -> Column {
        Column {
            table,
            csv,
            width,
            value,
            late: false,
        }
    }

    /// Its value for a row's marks.
    fn of(&self, m: &RowMarks) -> String {
        match &self.value {
            Value::Passed => m.passed.to_string(),
            Value::Failed => m.failed.to_string(),
            Value::Classes(classes) => m.of(classes),
            Value::Score => points(m.score),
            Value::Max => points(m.max),
            Value::Fuzz => m.fuzz.map_or("-".into(), |n| n.to_string()),
            Value::Time => seconds(m.seconds),
            Value::Slowest => m.slowest.map_or("-".into(), seconds),
        }
    }
}

/// The columns, in order: the fixtures passed and failed, a column a
/// class's column ([`class::columns`]: as wide as its header), the score,
/// the fuzzer's faults, the times.
fn columns() -> &'static [Column] {
    static COLUMNS: OnceLock<Vec<Column>> = OnceLock::new();
    COLUMNS.get_or_init(|| {
        let mut all = vec![
            Column::new("passed", "passed", 6, Value::Passed),
            Column::new("failed", "failed", 6, Value::Failed),
        ];
        for (column, classes) in class::columns() {
            let width = column.table.len();
            all.push(Column {
                late: column.since > 1,
                ..Column::new(column.table, column.csv, width, Value::Classes(classes))
            });
        }
        all.extend([
            Column::new("score", "score", 6, Value::Score),
            Column::new("max", "max_score", 6, Value::Max),
            Column::new("fuzz", "fuzz_faults", 4, Value::Fuzz),
            Column::new("time", "seconds", 7, Value::Time),
            Column::new("slowest", "slowest_seconds", 7, Value::Slowest),
        ]);
        all
    })
}

/// A note longer than this is cut in the table (the CSV has it whole).
const NOTE_IN_TABLE: usize = 100;

/// The width of the table's `lost` column: `wrong verdict 16.06, wrong exit
/// status 5.38` fits; a longer text pushes its row's note on.
const LOST_IN_TABLE: usize = 43;

/// The per-fixture CSV's header line.
pub const FIXTURES_CSV_HEADER: &str =
    "submission,fixture,category,class,points,max_points,visibility,seconds,detail";

impl RowMarks {
    /// The report lines of `classes`, together, as a column shows them.
    fn of(&self, classes: &[Class]) -> String {
        classes
            .iter()
            .map(|&c| self.classes[c as usize])
            .sum::<usize>()
            .to_string()
    }

    /// The report lines of `class`.
    pub fn count(&self, class: Class) -> usize {
        self.classes[class as usize]
    }

    /// Fixtures not judged (NOT GRADED and any class like it): neither
    /// passed nor failed.
    pub fn not_graded(&self) -> usize {
        Class::ALL
            .into_iter()
            .filter(|c| !c.judged())
            .map(|c| self.count(c))
            .sum()
    }
}

impl Row {
    /// The row of a submission graded with `counts` and `score`, and the
    /// faults a fuzzing found (`None`: not fuzzed).
    pub fn graded(
        name: &Name,
        counts: &Counts,
        score: &Score,
        fuzz: Option<usize>,
        note: &str,
    ) -> Row {
        let mut classes = [0; CLASSES];
        for class in Class::ALL {
            classes[class as usize] = counts.of_class(class);
        }
        // Runs that disagreed are told first: a marker should look.
        let note = match counts.flaky {
            0 => one_line(note),
            n => format!(
                "FLAKY on {n} fixture{} (runs that disagreed: see the report); {}",
                if n == 1 { "" } else { "s" },
                one_line(note)
            ),
        };
        Row {
            name: name.clone(),
            note,
            trouble: None,
            marks: Some(RowMarks {
                passed: counts.total_passed(),
                failed: counts.total_failed(),
                classes,
                score: score.total,
                max: score.max,
                fuzz,
                seconds: counts.total,
                slowest: counts.slowest.map(|(_, d, _)| d),
            }),
        }
    }

    /// The row of a submission that was not built.
    pub fn not_built(name: &Name, note: &str) -> Row {
        Row {
            name: name.clone(),
            note: one_line(note),
            marks: None,
            trouble: None,
        }
    }

    /// The row of a submission that could not be graded, and `why`.
    pub fn not_graded(name: &Name, why: &str) -> Row {
        let why = one_line(why);
        Row {
            name: name.clone(),
            note: format!("could not be graded: {why}"),
            marks: None,
            trouble: Some(why),
        }
    }

    /// Whether it built and passed every fixture (none failed, and none
    /// was left not graded).
    pub fn passed(&self) -> bool {
        self.marks
            .as_ref()
            .is_some_and(|m| m.failed == 0 && m.not_graded() == 0)
    }

    /// Its columns after `built` that are `late` or not (in the CSV, the
    /// late ones come after `note` and `lost`), `none` each when it was
    /// not built.
    fn fields(&self, none: &str, late: Option<bool>) -> Vec<String> {
        columns()
            .iter()
            .filter(|column| late.is_none_or(|late| column.late == late))
            .map(|column| self.marks.as_ref().map_or(none.into(), |m| column.of(m)))
            .collect()
    }

    /// Its `built` column: `yes`, `no`, or `error` (not graded at all).
    fn built_word(&self) -> &'static str {
        match (&self.marks, &self.trouble) {
            (Some(_), _) => "yes",
            (None, None) => "no",
            (None, Some(_)) => "error",
        }
    }

    /// Its line in the table, for names up to `width` bytes, with `lost`
    /// (what each class cost, `-` when not built) before the note.
    fn table_line(&self, width: usize, lost: &str) -> String {
        let mut line = format!("{:<width$} {:<5}", self.name.shown(), self.built_word());
        for (field, column) in self.fields("-", None).iter().zip(columns()) {
            let w = column.width;
            let _ = write!(line, " {field:>w$}");
        }
        let note: String = if self.note.chars().count() > NOTE_IN_TABLE {
            self.note.chars().take(NOTE_IN_TABLE).collect::<String>() + "..."
        } else {
            self.note.clone()
        };
        let line = format!("{line}  {lost:<LOST_IN_TABLE$}  {note}");
        line.trim_end().to_string()
    }

    /// Its line in the CSV: the name and the note quoted, the note whole,
    /// a value that is not there (a row not built, no fuzzing) empty; then
    /// `lost`, quoted (empty when not built); then the late columns.
    fn csv_line(&self, lost: &str) -> String {
        let fields = |late| -> String {
            self.fields("", Some(late))
                .into_iter()
                .map(|f| if f == "-" { String::new() } else { f })
                .map(|f| format!(",{f}"))
                .collect()
        };
        format!(
            "{},{}{},{},{}{}",
            csv_quoted(self.name.shown()),
            self.built_word(),
            fields(false),
            csv_quoted(&self.note),
            if lost.is_empty() {
                String::new()
            } else {
                csv_quoted(lost)
            },
            fields(true)
        )
    }
}

/// The table's header line, for names up to `width` bytes: the counts, the
/// score and the times, then what the marks were lost on (`lost`), then
/// the note.
pub fn table_header(width: usize) -> String {
    let mut line = format!("{:<width$} {:<5}", "submission", "built");
    for column in columns() {
        let (name, w) = (column.table, column.width);
        let _ = write!(line, " {name:>w$}");
    }
    format!("{line}  {:<LOST_IN_TABLE$}  note", "lost")
}

/// The CSV's header line: `lost` comes after `note`, and the columns added
/// since (`not_graded`, version 3) after `lost`, so that every column that
/// was there before keeps its place, by name and by number.
pub fn csv_header() -> String {
    let names = |late: bool| -> String {
        columns()
            .iter()
            .filter(|c| c.late == late)
            .map(|c| format!(",{}", c.csv))
            .collect()
    };
    format!("submission,built{},note,lost{}", names(false), names(true))
}

/// `text` as a quoted CSV field. A text that a spreadsheet would take for
/// a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage
/// return: a name, a program's message) gets a leading `'`, as OWASP
/// advises, so that it is shown, never run.
pub fn csv_quoted(text: &str) -> String {
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if formula {
        csv_field(&format!("'{text}"))
    } else {
        csv_field(text)
    }
}

/// `text` as a CSV field in quotes, a quote in it doubled (RFC 4180): the
/// one CSV escaper, which every CSV the grading writes uses.
pub fn csv_field(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

impl FixtureLine {
    /// The lines of a submission's `graded` fixtures, with its `score`;
    /// `visibility` says who sees each fixture.
    pub fn of(
        fixtures: &[Fixture],
        graded: &[Graded],
        score: &Score,
        visibility: &dyn Fn(&Fixture) -> Visibility,
    ) -> Vec<FixtureLine> {
        fixtures
            .iter()
            .zip(graded)
            .zip(&score.per_fixture)
            .map(|((f, g), &(earned, max))| {
                let detail = match &g.judgement {
                    Judgement::Passed => String::new(),
                    Judgement::Message(text) | Judgement::Noted(_, text) => text.clone(),
                };
                let detail = match &g.flaky {
                    Some(flaky) => format!("FLAKY: {flaky}. {detail}"),
                    None => detail,
                };
                FixtureLine {
                    fixture: f.shown.clone(),
                    category: f.named,
                    class: g.judgement.recorded(),
                    points: earned,
                    max_points: max,
                    visibility: visibility(f),
                    seconds: g.time.map(|(d, _)| d),
                    detail,
                    output: g.output.clone(),
                }
            })
            .collect()
    }

    /// Its line of `summary-fixtures.csv`, for the submission `name`.
    pub fn csv_line(&self, name: &Name) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{}",
            csv_quoted(name.shown()),
            csv_quoted(&self.fixture),
            self.category.name(),
            self.class.name(),
            points(self.points),
            points(self.max_points),
            self.visibility.word(),
            self.seconds.map_or(String::new(), seconds),
            csv_quoted(&self.detail)
        )
    }
}

impl Record {
    /// What each class of fault cost it, as its report's `lost:` says
    /// (`Score::lost_by_class`): from its fixtures' lines, each
    /// fixture's maximum less its points going to its class. `None` when
    /// it was not built.
    pub fn lost(&self) -> Option<Vec<(Class, f64)>> {
        self.row.marks.as_ref()?;
        let noted = self
            .fixtures
            .iter()
            .filter_map(|line| Some((line.class.class()?, line.points, line.max_points)));
        Some(lost_of(noted))
    }

    /// [`Record::lost`] in words, as the report says it: `wrong verdict
    /// 16.06, wrong exit status 5.38`, `nothing` when nothing was lost;
    /// `None` when it was not built.
    pub fn lost_in_words(&self) -> Option<String> {
        self.lost().map(|lost| lost_in_words(&lost))
    }

    /// Its line in the table, for names up to `width` bytes: the row, then
    /// what the marks were lost on, then the note.
    pub fn table_line(&self, width: usize) -> String {
        let lost = self.lost_in_words();
        self.row.table_line(width, lost.as_deref().unwrap_or("-"))
    }

    /// Its line of `summary.csv`: the row, the note, then what the marks
    /// were lost on (an empty cell when it was not built).
    pub fn csv_line(&self) -> String {
        self.row
            .csv_line(self.lost_in_words().as_deref().unwrap_or(""))
    }

    /// Its line of `summary.jsonl` (with its newline): the format's
    /// version (`json::VERSION`), the row's fields by name (`submission`,
    /// `built`, `score`, `max_score`, `passed`, `failed`, `classes`,
    /// `note`, `fuzz_faults`, `seconds`, `slowest_seconds`), the digest of
    /// its sources (`sources_fnv1a`, when known), then `fixtures`, an
    /// object a fixture (its `output_fnv1a` when known, and the first
    /// bytes of its outputs when its answer was not right), and `causes`.
    pub fn json_line(&self) -> String {
        let row = &self.row;
        let mut out = Object::new();
        out.raw("version", &VERSION.to_string())
            .text("submission", row.name.shown())
            .raw("built", &row.marks.is_some().to_string());
        if let Some(m) = &row.marks {
            let mut classes = Object::new();
            for class in Class::ALL {
                classes.raw(class.name(), &m.count(class).to_string());
            }
            out.raw("score", &points(m.score))
                .raw("max_score", &points(m.max))
                .raw("passed", &m.passed.to_string())
                .raw("failed", &m.failed.to_string())
                .raw("not_graded", &m.not_graded().to_string())
                .raw("classes", &classes.end());
        }
        out.text("note", &row.note);
        if let Some(why) = &row.trouble {
            out.text("error", why);
        }
        if let Some(m) = &row.marks {
            out.raw(
                "fuzz_faults",
                &m.fuzz.map_or("null".into(), |n| n.to_string()),
            )
            .raw("seconds", &seconds(m.seconds))
            .raw("slowest_seconds", &m.slowest.map_or("null".into(), seconds));
        }
        out.digest("sources_fnv1a", self.sources);
        let fixtures = self.fixtures.iter().map(|f| {
            let mut line = Object::new();
            line.text("fixture", &f.fixture)
                .text("category", f.category.name())
                .text("class", f.class.name())
                .raw("points", &points(f.points))
                .raw("max_points", &points(f.max_points))
                .text("visibility", f.visibility.word())
                .raw("seconds", &f.seconds.map_or("null".into(), seconds))
                .text("detail", &f.detail)
                .digest("output_fnv1a", f.output.as_ref().map(|o| o.digest));
            if let Some(excerpt) = f.output.as_ref().and_then(|o| o.excerpt.as_ref()) {
                for (key, head) in [("stdout", &excerpt.stdout), ("stderr", &excerpt.stderr)] {
                    line.text(&format!("{key}_head"), &head.text)
                        .raw(&format!("{key}_bytes"), &head.bytes.to_string());
                }
            }
            line.end()
        });
        out.raw("fixtures", &array(fixtures));
        let causes = self.causes.iter().map(|c| {
            Object::new()
                .text("class", c.class.name())
                .text("words", &c.words)
                .text("evidence", &c.evidence)
                .raw(
                    "fixtures",
                    &array(c.fixtures.iter().map(|f| json_string(f))),
                )
                .end()
        });
        out.raw("causes", &array(causes));
        out.end() + "\n"
    }

    /// A record read back from its line of `summary.jsonl` (as
    /// [`Record::json_line`] writes it, in its format's version or an
    /// earlier one); what is missing or malformed is named. Every text is
    /// read as a stranger's: the name as strictly as a folder's, the rest
    /// made one line; the numbers must agree with the fixtures' lines
    /// ([`Record::check`]).
    pub fn from_json_line(line: &str) -> Result<Record, Refused> {
        let value = Json::parse(line).map_err(|e| Refused::because(format!("not JSON: {e}")))?;
        let fields = Fields::of(&value)?;
        let version = fields.version()?;
        let name = Name::parse(fields.text("submission")?)?;
        let note = one_line(fields.text("note")?);
        let trouble = match fields.get("error") {
            None => None,
            Some(_) => Some(one_line(fields.text("error")?)),
        };
        let marks = if fields.boolean("built")? {
            let counts = fields
                .object("classes")
                .map_err(|_| Refused::because("no 'classes'"))?;
            let mut classes = [0; CLASSES];
            for class in Class::ALL {
                // A file of a version before the class has no count of it.
                classes[class as usize] = match counts.get(class.name()) {
                    None if version < class.row().since => 0,
                    _ => counts.count(class.name())? as usize,
                };
            }
            let not_graded: usize = Class::ALL
                .into_iter()
                .filter(|c| !c.judged())
                .map(|c| classes[c as usize])
                .sum();
            let failed = fields.count("failed")? as usize;
            // Version 3 counts what was not graded apart; before, `failed`
            // counted it too (its class's count, which the fixtures' lines
            // check, says how many).
            let failed = if version < 3 {
                failed.saturating_sub(not_graded)
            } else {
                if fields.count("not_graded")? as usize != not_graded {
                    return Err(Refused::because(format!(
                        "its 'not_graded' is not its {not_graded} NOT GRADED"
                    )));
                }
                failed
            };
            Some(RowMarks {
                passed: fields.count("passed")? as usize,
                failed,
                classes,
                score: fields.number("score")?,
                max: fields.number("max_score")?,
                fuzz: match fields.optional("fuzz_faults") {
                    None => None,
                    Some(_) => Some(fields.count("fuzz_faults")? as usize),
                },
                seconds: fields.seconds("seconds")?.unwrap_or_default(),
                slowest: fields.seconds("slowest_seconds")?,
            })
        } else {
            None
        };
        let mut fixtures = Vec::new();
        for f in fields.array("fixtures")? {
            let f = Fields::of(f)?;
            fixtures.push(FixtureLine {
                fixture: f.text("fixture")?.to_string(),
                category: read_word(&f, "category", Category::parse)?,
                class: read_word(&f, "class", Outcome::parse)?,
                points: f.number("points")?,
                max_points: f.number("max_points")?,
                visibility: read_word(&f, "visibility", Visibility::parse)?,
                seconds: f.seconds("seconds")?,
                detail: f.text("detail")?.to_string(),
                output: read_output(&f)?,
            });
        }
        let mut causes = Vec::new();
        // Gradings before experiments wrote none.
        for c in fields.get("causes").and_then(Json::as_array).unwrap_or(&[]) {
            let c = Fields::of(c)?;
            let fixtures = c
                .array("fixtures")
                .map_err(|_| Refused::because("no array 'fixtures' in a cause"))?
                .iter()
                .map(|f| {
                    f.as_str()
                        .map(one_line)
                        .ok_or_else(|| Refused::because("a cause's fixture is not a string"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            causes.push(CauseLine {
                class: read_word(&c, "class", Class::parse)?,
                words: one_line(c.text("words")?),
                evidence: one_line(c.text("evidence")?),
                fixtures,
            });
        }
        // Gradings before it wrote none.
        let sources = fields.digest_if("sources_fnv1a")?;
        let record = Record {
            row: Row {
                name,
                note,
                marks,
                trouble,
            },
            fixtures,
            causes,
            sources,
        };
        record.check().map_err(|e| e.within(&record.row.name))?;
        Ok(record)
    }

    /// Whether its numbers agree with its fixtures' lines, as a grading
    /// writes them: every number finite and in hundredths, each fixture's
    /// points between 0 and its worth, all of them when it passed; the
    /// score the sum of the points, the maximum the sum of the worths, each
    /// class's count the number of its lines, passed and failed within the
    /// fixtures. A record someone edited to raise a mark fails here unless
    /// every number was changed to agree (which then shows in the fixture
    /// lines themselves).
    pub fn check(&self) -> Result<(), Refused> {
        let hundredths =
            |x: f64| x.is_finite() && x >= 0.0 && (x * 100.0 - (x * 100.0).round()).abs() < 1e-6;
        let (mut total, mut worth) = (0.0, 0.0);
        for f in &self.fixtures {
            if !hundredths(f.points) || !hundredths(f.max_points) || f.points > f.max_points + 1e-9
            {
                return Err(Refused::new(
                    &f.fixture,
                    format!(
                        "{} of {} points is no fixture's mark",
                        f.points, f.max_points
                    ),
                ));
            }
            if f.class == Outcome::Passed && (f.points - f.max_points).abs() > 1e-9 {
                return Err(Refused::new(
                    &f.fixture,
                    format!("passed, but {} of {} points", f.points, f.max_points),
                ));
            }
            total += f.points;
            worth += f.max_points;
        }
        let Some(m) = &self.row.marks else {
            return Ok(());
        };
        let near = |a: f64, b: f64| (a - b).abs() < 0.005 + 1e-9 * b.abs();
        if !hundredths(m.score)
            || !hundredths(m.max)
            || !near(m.score, total)
            || !near(m.max, worth)
        {
            return Err(Refused::because(format!(
                "its score {} of {} is not its fixtures' {} of {}",
                points(m.score),
                points(m.max),
                points(total),
                points(worth)
            )));
        }
        for class in Class::ALL {
            let lines = self
                .fixtures
                .iter()
                .filter(|f| f.class == Outcome::Noted(class))
                .count();
            if lines != m.count(class) {
                return Err(Refused::because(format!(
                    "it counts {} {} but has {lines} such fixture lines",
                    m.count(class),
                    class.name()
                )));
            }
        }
        if m.passed + m.failed + m.not_graded() > self.fixtures.len() {
            return Err(Refused::because(format!(
                "{} passed, {} failed and {} not graded of {} fixtures",
                m.passed,
                m.failed,
                m.not_graded(),
                self.fixtures.len()
            )));
        }
        Ok(())
    }
}

/// What a fixture's run did, as its line in `summary.jsonl` has it: its
/// digest (gradings before it wrote none: nothing), and the first bytes of
/// its outputs when the line has them (versions before 3 wrote none), each
/// made one line again and no longer than an excerpt made one line can be.
fn read_output(f: &Fields) -> Result<Option<Output>, Refused> {
    let Some(digest) = f.digest_if("output_fnv1a")? else {
        return Ok(None);
    };
    let head = |key: &str| -> Result<Head, Refused> {
        let text = f.text(&format!("{key}_head"))?;
        // Each byte of an excerpt is at most an escape of 10 characters.
        if text.len() > 10 * EXCERPT {
            return Err(Refused::because(format!(
                "'{key}_head' is longer than an excerpt"
            )));
        }
        Ok(Head {
            text: one_line(text),
            bytes: f.count(&format!("{key}_bytes"))?,
        })
    };
    let excerpt = match f.get("stdout_head") {
        None => None,
        Some(_) => Some(Excerpt {
            stdout: head("stdout")?,
            stderr: head("stderr")?,
        }),
    };
    Ok(Some(Output { digest, excerpt }))
}

/// The word `key` of `fields` read as `parse` reads it: a value this
/// version does not know (a class a later version added) is refused by
/// name.
fn read_word<T>(
    fields: &Fields,
    key: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<T, Refused> {
    let word = fields.text(key)?;
    parse(word).ok_or_else(|| Refused::value(key, word, "is not one this version knows"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/grading-reference.md`'s table of the summary's columns names
    /// every column of the table (but the score and maximum, which the
    /// Marks section tells) and no other, and each row of classes names
    /// its classes.
    #[test]
    fn the_docs_table_of_the_summarys_columns_is_the_columns() {
        let docs = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/grading-reference.md"
        ))
        .unwrap();
        let section = &docs[docs.find("## A grading's files and their columns").unwrap()..];
        let rows: Vec<&str> = section
            .split("| column | what |\n|---|---|\n")
            .nth(1)
            .expect("the table of the summary's columns")
            .lines()
            .take_while(|l| l.starts_with('|'))
            .collect();
        let mut named: Vec<&str> = Vec::new();
        for row in &rows {
            let cells: Vec<&str> = row.split(" | ").collect();
            for name in cells[0].trim_start_matches("| ").split(", ") {
                named.push(name.trim_matches('`'));
            }
            let classes = columns().iter().filter_map(|c| match &c.value {
                Value::Classes(classes) if cells[0].contains(&format!("`{}`", c.table)) => {
                    Some(classes)
                }
                _ => None,
            });
            for class in classes.flatten() {
                assert!(row.contains(class.name()), "{row}: no {}", class.name());
            }
        }
        let mut columns: Vec<&str> = columns()
            .iter()
            .map(|c| c.table)
            .filter(|c| !["score", "max"].contains(c))
            .chain(["built", "lost", "note"])
            .collect();
        columns.sort_unstable();
        named.sort_unstable();
        assert_eq!(
            named, columns,
            "docs/grading-reference.md's table of the summary's columns"
        );
    }

    fn graded_row() -> Row {
        let mut counts = Counts {
            fixtures: [2, 1, 0],
            failed: [1, 0, 0],
            ..Counts::default()
        };
        counts.classes[Class::MemoryLimit as usize] = [1, 0, 0];
        counts.classes[Class::Open as usize] = [0, 1, 0];
        counts.total = Duration::from_millis(2520);
        let score = Score {
            per_fixture: Vec::new(),
            total: 62.5,
            max: 100.0,
        };
        Row::graded(&"ann".into(), &counts, &score, Some(2), "built with cc")
    }

    #[test]
    fn a_row_not_built_has_dashes_in_the_table_empty_cells_and_its_note_whole_in_the_csv() {
        let row = Row::not_built(
            &"bob \"b\"".into(),
            &format!("make failed: {}", "x".repeat(120)),
        );
        assert!(!row.passed());
        let record = Record {
            row,
            fixtures: Vec::new(),
            causes: Vec::new(),
            sources: None,
        };
        assert_eq!(record.lost_in_words(), None);
        let line = record.table_line(10);
        assert!(
            line.starts_with("bob \"b\"    no         -      -"),
            "{line}"
        );
        assert!(
            line.ends_with(&format!(
                "      -  -{}  make failed: {}...",
                " ".repeat(LOST_IN_TABLE - 1),
                "x".repeat(87)
            )),
            "{line}"
        );
        assert_eq!(table_header(10).split_whitespace().count(), 23);
        assert_eq!(
            record.csv_line(),
            format!(
                "\"bob \"\"b\"\"\",no,{},\"make failed: {}\",,",
                [""; 18].join(","),
                "x".repeat(120)
            )
        );
        assert_eq!(csv_header().split(',').count(), 23);
    }

    #[test]
    fn a_row_counts_its_classes_in_the_columns() {
        let record = Record {
            row: graded_row(),
            fixtures: Vec::new(),
            causes: Vec::new(),
            sources: None,
        };
        let fields: Vec<String> = record
            .table_line(10)
            .split_whitespace()
            .map(String::from)
            .collect();
        // passed failed verdict missed false status stderr timeout memory
        assert_eq!(
            fields[..11],
            ["ann", "yes", "2", "1", "0", "0", "0", "0", "0", "0", "1"]
        );
        assert_eq!(
            fields[13..20],
            ["0", "0", "1", "62.5", "100", "2", "2.52"],
            "ungraded, format, open, score, max, fuzz, time"
        );
        assert_eq!(
            csv_header(),
            "submission,built,passed,failed,wrong_verdict,missed_error,false_error,wrong_exit_status,error_on_stderr,timeout,memory_limit,process_limit,crash,format,open,score,max_score,fuzz_faults,seconds,slowest_seconds,note,lost,not_graded"
        );
        // No fixture lines: nothing lost, as the report would say.
        assert_eq!(fields[21..], ["nothing", "built", "with", "cc"]);
        assert!(record
            .csv_line()
            .ends_with(",\"built with cc\",\"nothing\",0"));
    }

    use crate::testing::named_fixture as fixture;

    #[test]
    fn what_the_marks_were_lost_on_is_the_reports_from_the_record_and_from_it_read_back() {
        use crate::marking::marks::Scheme;
        // 89 fixtures of odd weights, failed in five ways and passed with
        // messages, open questions and format differences.
        let fixtures: Vec<Fixture> = (0..89)
            .map(|i| {
                fixture(
                    &["Tests/bad_", "Tests/sol_", "Tests/unsol_"][i % 3]
                        .replace('_', &format!("_{i}")),
                )
            })
            .collect();
        let graded: Vec<Graded> = (0..89)
            .map(|i| Graded {
                judgement: match i % 9 {
                    0 => Judgement::Noted(Class::WrongVerdict, String::new()),
                    1 => Judgement::Noted(Class::WrongExitStatus, String::new()),
                    2 => Judgement::Noted(Class::Format, String::new()),
                    3 => Judgement::Noted(Class::Open, String::new()),
                    4 => Judgement::Noted(Class::MissedError, String::new()),
                    5 => Judgement::Message("error: x".into()),
                    6 => Judgement::Noted(Class::Timeout, String::new()),
                    _ => Judgement::Passed,
                },
                time: None,
                flaky: None,
                output: None,
            })
            .collect();
        let scheme = Scheme::parse(
            "[points]\nverdict = 71.3\nrejection = 17.9\nexit-status = 3.3\nformat = 7.5\n\
             [fixtures Tests/sol_1*]\nweight = 2.5\n",
        )
        .unwrap();
        let score = scheme.score(&fixtures, &graded);
        let counts = Counts::of(&fixtures, &graded, false);
        let record = Record {
            row: Row::graded(&"ann".into(), &counts, &score, None, ""),
            fixtures: FixtureLine::of(&fixtures, &graded, &score, &|_| Visibility::Visible),
            causes: Vec::new(),
            sources: None,
        };
        let expected = score.lost_by_class(&graded);
        assert_eq!(record.lost().unwrap(), expected);
        let words = lost_in_words(&expected);
        assert!(words.starts_with("wrong verdict "), "{words}");
        assert_eq!(record.lost_in_words().unwrap(), words);
        let back = Record::from_json_line(&record.json_line()).unwrap();
        assert_eq!(back.lost_in_words().unwrap(), words);
        assert!(back.table_line(10).contains(&format!("  {words}")));
        assert!(back.csv_line().ends_with(&format!(",\"{words}\",0")));
    }

    /// A record whose numbers agree with its fixtures' lines, of every
    /// kind of outcome and visibility, a cause, its sources' digest.
    fn a_record() -> Record {
        Record {
            row: graded_row(),
            fixtures: vec![
                FixtureLine {
                    fixture: "Tests/bad_x.inp".into(),
                    category: "bad".into(),
                    class: "MEMORY LIMIT".into(),
                    points: 0.0,
                    max_points: 37.5,
                    visibility: "visible".into(),
                    seconds: Some(Duration::from_millis(30)),
                    detail: "stopped by the \"memory\" limit\n".into(),
                    output: Some(Output {
                        digest: 0x0fed_cba9_8765_4321,
                        excerpt: Some(Excerpt {
                            stdout: Head::of(b"the puzzle is \"solvable\"\n"),
                            stderr: Head::of(&[b'\x1b'; 300]),
                        }),
                    }),
                },
                FixtureLine {
                    fixture: "Tests/bad_y.inp".into(),
                    category: "bad".into(),
                    class: "passed".into(),
                    points: 33.33,
                    max_points: 33.33,
                    visibility: "after_due_date".into(),
                    seconds: None,
                    detail: String::new(),
                    output: None,
                },
                FixtureLine {
                    fixture: "Tests/sol2.inp".into(),
                    category: "sol".into(),
                    class: "OPEN".into(),
                    points: 29.17,
                    max_points: 29.17,
                    visibility: "visible".into(),
                    seconds: None,
                    detail: "accepted it".into(),
                    output: None,
                },
            ],
            causes: vec![CauseLine {
                class: "WRONG VERDICT".into(),
                words: "on boards of an even side the blank's row is not counted".into(),
                evidence: "with ..., 10 of 10 inputs failed so; with ..., 0 of 10".into(),
                fixtures: vec!["Tests/bad_x.inp".into()],
            }],
            sources: Some(0x0123_4567_89ab_cdef),
        }
    }

    #[test]
    fn a_record_reads_back_as_it_was_written() {
        let record = a_record();
        let line = record.json_line();
        assert!(line.ends_with("]}\n") && line.matches('\n').count() == 1);
        let back = Record::from_json_line(&line).unwrap();
        assert_eq!(back, record);
        assert_eq!(back.json_line(), line);
        assert!(line.contains(", \"sources_fnv1a\": \"0123456789abcdef\", \"fixtures\": ["));
        let bad = line.replace("0123456789abcdef", "0123");
        assert!(Record::from_json_line(&bad)
            .unwrap_err()
            .to_string()
            .contains("'sources_fnv1a' is not 16 hexadecimal digits"));
        // Each fixture's run, when known, with the first bytes of its
        // outputs (one line each) for an answer that was not right; a line
        // without them (an older grading's) reads as none.
        assert!(line.contains(", \"output_fnv1a\": \"0fedcba987654321\", \"stdout_head\": \"the puzzle is \\\"solvable\\\"\\\\n\", \"stdout_bytes\": 25, \"stderr_head\": \""), "{line}");
        assert!(
            line.contains("\\\\u{1B}\", \"stderr_bytes\": 300}, {"),
            "{line}"
        );
        let forged = line.replace("\"stderr_bytes\": 300", "\"stderr_bytes\": -1");
        assert!(Record::from_json_line(&forged)
            .unwrap_err()
            .to_string()
            .contains("stderr_bytes"));
        let start = line.find(", \"stdout_head\"").unwrap();
        let end = line.find(", \"stderr_bytes\": 300").unwrap() + ", \"stderr_bytes\": 300".len();
        let v2 = format!("{}{}", &line[..start], &line[end..]);
        let read = Record::from_json_line(&v2).unwrap();
        assert_eq!(
            read.fixtures[0]
                .output
                .as_ref()
                .map(|o| (o.digest, o.excerpt.is_none())),
            Some((0x0fed_cba9_8765_4321, true))
        );
        let line = v2;
        let bad = line.replace("0fedcba987654321", "0fedcba98765432g");
        assert!(Record::from_json_line(&bad)
            .unwrap_err()
            .to_string()
            .contains("'output_fnv1a' is not 16 hexadecimal digits"));
        let old = line.replace(", \"output_fnv1a\": \"0fedcba987654321\"", "");
        assert!(!old.contains("output_fnv1a"), "{old}");
        assert_eq!(
            Record::from_json_line(&old).unwrap().fixtures[0].output,
            None
        );
        let not_built = Record {
            row: Row::not_built(&"bob".into(), "no Makefile"),
            fixtures: Vec::new(),
            causes: Vec::new(),
            sources: None,
        };
        assert_eq!(
            not_built.json_line(),
            format!("{{\"version\": {}, \"submission\": \"bob\", \"built\": false, \"note\": \"no Makefile\", \"fixtures\": [], \"causes\": []}}\n", crate::publishing::json::VERSION)
        );
        assert_eq!(
            Record::from_json_line(&not_built.json_line()).unwrap(),
            not_built
        );
    }

    /// A line of every version up to this one reads (one without a
    /// version is of version 1); a later version's, or a word this version
    /// does not know, is refused by name; the line written is this
    /// version's.
    #[test]
    fn records_of_every_version_read_and_a_later_ones_are_refused() {
        let record = a_record();
        let line = record.json_line();
        assert!(line.starts_with(&format!("{{\"version\": {VERSION}, \"submission\": ")));
        let unversioned = line.replacen(&format!("\"version\": {VERSION}, "), "", 1);
        assert_eq!(Record::from_json_line(&unversioned), Ok(record.clone()));
        for v in 1..=VERSION {
            let versioned = line.replacen(
                &format!("\"version\": {VERSION}"),
                &format!("\"version\": {v}"),
                1,
            );
            assert_eq!(Record::from_json_line(&versioned), Ok(record.clone()));
        }
        let later = line.replacen(
            &format!("\"version\": {VERSION}"),
            &format!("\"version\": {}", VERSION + 1),
            1,
        );
        let e = Record::from_json_line(&later).unwrap_err().to_string();
        assert!(e.contains(&format!("version {}", VERSION + 1)), "{e}");
        // A class this version does not know, in a fixture's line.
        let unknown = line.replace("\"class\": \"passed\"", "\"class\": \"SLOW\"");
        assert_ne!(unknown, line);
        assert_eq!(
            Record::from_json_line(&unknown).unwrap_err().to_string(),
            "class: 'SLOW' is not one this version knows"
        );
        // Every class this version knows was in version 1: a line of it
        // without one of their counts is damaged, not older.
        let no_open = line.replace(", \"OPEN\": 1", "");
        assert_ne!(no_open, line);
        assert!(Record::from_json_line(&no_open).is_err());
    }

    /// NOT GRADED is neither passed nor failed: version 3 counts it apart
    /// (`not_graded`, the table's `ungraded`, the CSV's `not_graded`);
    /// a line of version 1 or 2, whose `failed` counted it, reads as the
    /// same record.
    #[test]
    fn not_graded_is_its_own_column_and_older_versions_failed_read_without_it() {
        let mut record = a_record();
        record.fixtures[1].class = "NOT GRADED".into();
        record.fixtures[1].detail = "the machine's, not the program's: ...".into();
        let m = record.row.marks.as_mut().unwrap();
        m.classes[Class::NotGraded as usize] = 1;
        m.passed = 1;
        m.failed = 1;
        assert!(record.check().is_ok());
        assert!(!record.row.passed());
        let line = record.json_line();
        assert!(
            line.contains("\"passed\": 1, \"failed\": 1, \"not_graded\": 1, \"classes\": {"),
            "{line}"
        );
        assert_eq!(Record::from_json_line(&line), Ok(record.clone()));
        // As version 2 wrote it: NOT GRADED among the failed, no count of
        // its own.
        for v in [1, 2] {
            let old = line
                .replace("\"version\": 3", &format!("\"version\": {v}"))
                .replace("\"failed\": 1, \"not_graded\": 1, ", "\"failed\": 2, ");
            assert_ne!(old, line);
            assert_eq!(Record::from_json_line(&old), Ok(record.clone()), "{v}");
        }
        // A count of its own that is not its lines'.
        let bad = line.replace("\"not_graded\": 1", "\"not_graded\": 0");
        assert!(Record::from_json_line(&bad)
            .unwrap_err()
            .to_string()
            .contains("'not_graded'"));
        // Its own column in the table and the CSV (the CSV's last), not
        // `crash`.
        let header: Vec<String> = table_header(10)
            .split_whitespace()
            .map(String::from)
            .collect();
        let fields: Vec<String> = record
            .table_line(10)
            .split_whitespace()
            .map(String::from)
            .collect();
        let at = |name: &str| header.iter().position(|h| h == name).unwrap();
        assert_eq!(fields[at("crash")], "0");
        assert_eq!(fields[at("ungraded")], "1");
        assert_eq!(fields[at("failed")], "1");
        assert!(csv_header().ends_with(",crash,format,open,score,max_score,fuzz_faults,seconds,slowest_seconds,note,lost,not_graded"));
        assert!(record.csv_line().ends_with(",1"), "{}", record.csv_line());
    }

    #[test]
    fn a_record_whose_numbers_disagree_with_its_fixtures_is_refused() {
        let line = |score: &str, points: &str, class: &str, memory: usize| {
            format!(
                "{{\"submission\": \"ann\", \"built\": true, \"score\": {score}, \"max_score\": 2, \"passed\": 1, \"failed\": 1, \"classes\": {{{}}}, \"note\": \"\", \"fuzz_faults\": null, \"seconds\": 0.1, \"slowest_seconds\": 0.1, \"fixtures\": [{{\"fixture\": \"Tests/bad_a.inp\", \"category\": \"bad\", \"class\": \"passed\", \"points\": 1, \"max_points\": 1, \"visibility\": \"visible\", \"seconds\": 0.01, \"detail\": \"\"}}, {{\"fixture\": \"Tests/sol_b.inp\", \"category\": \"sol\", \"class\": \"{class}\", \"points\": {points}, \"max_points\": 1, \"visibility\": \"visible\", \"seconds\": 0.01, \"detail\": \"\"}}]}}",
                Class::ALL
                    .iter()
                    .map(|c| format!("\"{}\": {}", c.name(), if *c == Class::MemoryLimit { memory } else { 0 }))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        // As a grading writes it.
        assert!(Record::from_json_line(&line("1", "0", "MEMORY LIMIT", 1)).is_ok());
        // A raised score, an infinite one, points on a failed fixture
        // beyond its worth, a count that is not its lines.
        for (bad, why) in [
            (
                line("2", "0", "MEMORY LIMIT", 1),
                "its score 2 of 2 is not its fixtures' 1 of 2",
            ),
            (
                line("1e999", "0", "MEMORY LIMIT", 1),
                "is not its fixtures'",
            ),
            (
                line("2", "1.5", "MEMORY LIMIT", 1),
                "1.5 of 1 points is no fixture's mark",
            ),
            (
                line("1", "0", "MEMORY LIMIT", 0),
                "it counts 0 MEMORY LIMIT but has 1 such fixture lines",
            ),
            (
                line("1.001", "0.001", "MEMORY LIMIT", 1),
                "no fixture's mark",
            ),
        ] {
            let e = Record::from_json_line(&bad).unwrap_err();
            assert!(e.to_string().contains(why), "{e}");
        }
    }

    #[test]
    fn damaged_and_random_grading_files_are_read_without_a_panic() {
        use crate::publishing::grades::Manifest;
        use puzzle::SplitMix64;
        let record = Record {
            row: graded_row(),
            fixtures: Vec::new(),
            causes: Vec::new(),
            sources: Some(7),
        };
        let manifest = Manifest {
            folder: "/tmp/class".into(),
            folder_names: vec!["ann".into(), "b\\xE9".into()],
            options: "--time-limit 5".into(),
            sandbox: "sandbox: none".into(),
            shard: None,
            started: "2026-11-28T00:00:00Z".into(),
            updated: "2026-11-28T00:00:00Z".into(),
            complete: true,
            fixtures: vec![("Tests/a.inp".into(), 7)],
            terms: Vec::new(),
            // A roster too, so that its reading is fuzzed with the rest.
            gradebook: Some(crate::publishing::grades::Gradebook {
                roster: crate::publishing::roster::Roster::parse(
                    "r.csv",
                    b"folder,id,login,name,email\nann,z1,ann,\"Lee, Ann\",a@x\n",
                )
                .unwrap(),
                assignment: "A1".into(),
                formats: vec![crate::publishing::formats::Format::Canvas],
                points_possible: 100.0,
            }),
        };
        let seeds = [record.json_line(), manifest.to_json()];
        assert!(Manifest::from_json(&seeds[1]).is_ok());
        let mut rng = SplitMix64::new(40);
        let began = std::time::Instant::now();
        for i in 0..4000 {
            let mut bytes = seeds[i % 2].clone().into_bytes();
            for _ in 0..1 + rng.index(4) {
                let at = rng.index(bytes.len().max(1));
                match rng.index(5) {
                    0 => bytes.truncate(at),
                    1 => {
                        if at < bytes.len() {
                            bytes[at] = rng.next_u64() as u8;
                        }
                    }
                    2 => {
                        let odd = b"{[\"\\,:0e9-";
                        bytes.insert(at.min(bytes.len()), odd[rng.index(odd.len())])
                    }
                    3 => {
                        let copy = bytes[at..].to_vec();
                        bytes.extend_from_slice(&copy);
                    }
                    _ => bytes = (0..rng.index(200)).map(|_| rng.next_u64() as u8).collect(),
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            let _ = Record::from_json_line(&text);
            let _ = Manifest::from_json(&text);
        }
        assert!(began.elapsed().as_secs() < 60);
    }

    #[test]
    fn a_damaged_record_is_refused_with_what_is_missing() {
        assert_eq!(
            Record::from_json_line("{\"submission\": \"a\", \"built\": true, \"note\": \"\"}"),
            Err(Refused::because("no 'classes'"))
        );
        assert!(Record::from_json_line("{\"submission\": \"a\", \"bu")
            .unwrap_err()
            .to_string()
            .starts_with("not JSON"));
    }
}
