//! The formats marking platforms read, each a [`Format`] (its name for
//! `--format`, its file, its help line, its writer, and its [`Scope`]).
//!
//! A submission's own files: Gradescope's and PrairieLearn's `results.json`
//! and JUnit XML, each from one [`Marked`] submission; a build that failed
//! is shown as each platform expects (Gradescope: score 0 and the reason;
//! PrairieLearn: `gradable: false`; JUnit: an error in a `build` test
//! case). The class's files: Canvas's and Moodle's gradebook imports, one
//! file for the whole grading, from the roster and every record
//! ([`crate::publishing::gradebook`]).

use crate::judging::fixture::Fixture;
use crate::judging::judge::Graded;
use crate::judging::judge::Judgement;
use crate::marking::marks::{points, Scheme, Score, Visibility};
use crate::marking::report::{seconds, Counts};
use crate::publishing::gradebook::{self, Class};
use crate::publishing::json::json_string;
use crate::shared::error::Refused;
use std::fmt::Write as _;

/// One submission, graded and marked (or not built).
pub struct Marked<'a> {
    /// Its name.
    pub name: &'a str,
    /// How it was built, or why not.
    pub note: &'a str,
    /// The fixtures.
    pub fixtures: &'a [Fixture],
    /// Its results, fixture by fixture, when it was built.
    pub graded: Option<&'a [Graded]>,
    /// Its score, when it was built.
    pub score: Option<&'a Score>,
    /// Its counts, when it was built.
    pub counts: Option<&'a Counts>,
    /// The marking scheme.
    pub scheme: &'a Scheme,
    /// Whether FORMAT fails a fixture.
    pub strict: bool,
    /// The feedback file's text (Markdown), shown by the platforms that can.
    pub feedback: &'a str,
}

/// A platform's format, written with `--format`. (`summary.jsonl`, a JSON
/// line a submission, is written in every grading: it is not a format to
/// ask for.) Each is one row of `FORMATS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Gradescope's autograder `results.json`.
    Gradescope,
    /// PrairieLearn's external grader `results.json`.
    PrairieLearn,
    /// JUnit XML, which CI systems show.
    JUnit,
    /// Canvas's gradebook import CSV.
    Canvas,
    /// Moodle's CSV grade import.
    Moodle,
}

/// Whether a format is a file a submission or one for the class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// One file for each submission, `STEM` + its suffix, written with
    /// the submission's other files.
    Submission,
    /// One file for the whole grading, written with the summaries.
    Class,
}

/// How a format's file is made: from one marked submission, or from the
/// class (the roster and every record).
#[derive(Clone, Copy)]
pub enum Writer {
    /// A file a submission.
    Submission(fn(&Marked) -> String),
    /// One file for the class.
    Class(fn(&Class) -> String),
}

/// A format's properties: its row of [`FORMATS`].
#[derive(Clone, Copy)]
pub struct Row {
    /// The format.
    pub format: Format,
    /// Its name for `--format`.
    pub name: &'static str,
    /// Its file in the grades folder: after the submission's stem for a
    /// format of each submission (`.junit.xml`), whole for one of the
    /// class (`canvas.csv`).
    pub file: &'static str,
    /// What its file is, for `--format`'s help.
    pub help: &'static str,
    /// What its file holds, for the docs' table of a grading's files
    /// (`docs/grading-reference.md`, checked against these rows by a test).
    pub docs: &'static str,
    /// How its file is made.
    pub writer: Writer,
}

/// Every format, in the order help lists them (a submission's first).
/// Adding a format: a variant of [`Format`], its row and its writer.
pub const FORMATS: [Row; 5] = [
    Row {
        format: Format::Gradescope,
        name: "gradescope",
        file: ".gradescope.json",
        help: "Gradescope's results.json",
        docs: "Gradescope's `results.json` (score; tests with name, score, max_score, status, output, visibility; the feedback as Markdown)",
        writer: Writer::Submission(gradescope),
    },
    Row {
        format: Format::PrairieLearn,
        name: "prairielearn",
        file: ".prairielearn.json",
        help: "PrairieLearn's results.json",
        docs: "PrairieLearn's `results.json` (gradable, score from 0 to 1, tests with points and max_points; the hidden fixtures as one test)",
        writer: Writer::Submission(prairielearn),
    },
    Row {
        format: Format::JUnit,
        name: "junit",
        file: ".junit.xml",
        help: "JUnit XML",
        docs: "a test suite, a test case a fixture, a `<failure>` with its class",
        writer: Writer::Submission(junit),
    },
    Row {
        format: Format::Canvas,
        name: "canvas",
        file: "canvas.csv",
        help: "Canvas's gradebook import, canvas.csv",
        docs: "the class's marks as Canvas's gradebook imports them (below)",
        writer: Writer::Class(gradebook::canvas),
    },
    Row {
        format: Format::Moodle,
        name: "moodle",
        file: "moodle.csv",
        help: "Moodle's grade import, moodle.csv",
        docs: "the class's marks as Moodle's CSV grade import takes them (below)",
        writer: Writer::Class(gradebook::moodle),
    },
];

impl Format {
    /// Every format, in the order help lists them: its rows' (`FORMATS`).
    pub fn all() -> impl Iterator<Item = Format> {
        FORMATS.iter().map(|row| row.format)
    }

    /// Its row of `FORMATS`.
    pub fn row(self) -> &'static Row {
        &FORMATS[self as usize]
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// Whether it is a file a submission or one for the class.
    pub fn scope(self) -> Scope {
        match self.row().writer {
            Writer::Submission(_) => Scope::Submission,
            Writer::Class(_) => Scope::Class,
        }
    }

    /// Its file's name in the grades folder: after the submission's stem
    /// for a format of each submission, whole for one of the class.
    pub fn suffix(self) -> &'static str {
        self.row().file
    }

    /// The file's text for `marked`, when this is a format of each
    /// submission.
    pub fn render(self, marked: &Marked) -> Option<String> {
        match self.row().writer {
            Writer::Submission(write) => Some(write(marked)),
            Writer::Class(_) => None,
        }
    }

    /// The file's text for `class`, when this is a format of the class.
    pub fn render_class(self, class: &Class) -> Option<String> {
        match self.row().writer {
            Writer::Class(write) => Some(write(class)),
            Writer::Submission(_) => None,
        }
    }

    /// The formats of `scope`, in order.
    pub fn of(scope: Scope) -> impl Iterator<Item = Format> {
        Format::all().filter(move |f| f.scope() == scope)
    }

    /// The formats in `--format`'s help: `for each submission gradescope
    /// (Gradescope's results.json), ...; for the class canvas (...), which
    /// need --roster`.
    pub fn help_list() -> String {
        let list = |scope| {
            Format::of(scope)
                .map(|f| format!("{} ({})", f.name(), f.row().help))
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "for each submission {}; for the class {}, which need --roster",
            list(Scope::Submission),
            list(Scope::Class)
        )
    }
}

impl std::str::FromStr for Format {
    type Err = Refused;

    /// A format by its name, or what the names are.
    fn from_str(name: &str) -> Result<Format, Refused> {
        Format::all().find(|f| f.name() == name).ok_or_else(|| {
            let names: Vec<&str> = Format::all().map(Format::name).collect();
            Refused::value("", name, format!("is not one of {}", names.join(", ")))
        })
    }
}

/// `text` escaped for XML 1.0 (characters XML cannot hold become `?`).
pub fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// A fixture's result in a line: its class and report text, or `passed`;
/// first, when its runs disagreed, that it is FLAKY.
fn outcome(graded: &Graded) -> String {
    let said = match &graded.judgement {
        Judgement::Passed => "passed".into(),
        Judgement::Message(text) => format!("passed; its message: {text}"),
        Judgement::Noted(class, text) => format!("{}: {text}", class.name()),
    };
    match &graded.flaky {
        Some(flaky) => format!("FLAKY ({flaky}): {said}"),
        None => said,
    }
}

/// Each fixture with its result and points.
fn tests<'a>(m: &'a Marked<'a>) -> impl Iterator<Item = (&'a Fixture, &'a Graded, (f64, f64))> {
    let graded = m.graded.unwrap_or(&[]);
    let score = m.score.map(|s| s.per_fixture.as_slice()).unwrap_or(&[]);
    m.fixtures
        .iter()
        .zip(graded)
        .zip(score)
        .map(|((f, g), p)| (f, g, *p))
}

/// Gradescope's `results.json`.
fn gradescope(m: &Marked) -> String {
    let Some(score) = m.score else {
        return format!(
            "{{\"score\": 0, \"output\": {}, \"output_format\": \"md\", \"tests\": []}}\n",
            json_string(m.feedback)
        );
    };
    let mut out = format!(
        "{{\"score\": {}, \"output\": {}, \"output_format\": \"md\", \"tests\": [",
        points(score.total),
        json_string(m.feedback)
    );
    for (i, (f, g, (earned, max))) in tests(m).enumerate() {
        let status = if g.judgement.fails(m.strict) {
            "failed"
        } else {
            "passed"
        };
        let _ = write!(
            out,
            "{}\n  {{\"name\": {}, \"score\": {}, \"max_score\": {}, \"status\": \"{status}\", \"output\": {}, \"visibility\": \"{}\"}}",
            if i > 0 { "," } else { "" },
            json_string(&f.shown),
            points(earned),
            points(max),
            json_string(&outcome(g)),
            m.scheme.visibility(f).word()
        );
    }
    out + "\n]}\n"
}

/// PrairieLearn's external grader `results.json` (score from 0 to 1).
fn prairielearn(m: &Marked) -> String {
    let Some(score) = m.score else {
        return format!(
            "{{\"gradable\": false, \"score\": 0, \"message\": {}, \"tests\": []}}\n",
            json_string(&format!("Not built: {}", m.note))
        );
    };
    let fraction = if score.max > 0.0 {
        score.total / score.max
    } else {
        0.0
    };
    let mut out = format!(
        "{{\"gradable\": true, \"score\": {}, \"message\": {}, \"tests\": [",
        (fraction * 10000.0).round() / 10000.0,
        json_string(m.note)
    );
    let mut shown = 0;
    // The hidden fixtures, as one test (so that the tests' points add up to
    // the score): how many, their points and maximum.
    let (mut hidden, mut hidden_earned, mut hidden_max) = (0, 0.0, 0.0);
    for (f, g, (earned, max)) in tests(m) {
        if m.scheme.visibility(f) == Visibility::Hidden {
            hidden += 1;
            hidden_earned += earned;
            hidden_max += max;
            continue;
        }
        let _ = write!(
            out,
            "{}\n  {{\"name\": {}, \"points\": {}, \"max_points\": {}, \"output\": {}}}",
            if shown > 0 { "," } else { "" },
            json_string(&f.shown),
            points(earned),
            points(max),
            json_string(&outcome(g))
        );
        shown += 1;
    }
    if hidden > 0 {
        let _ = write!(
            out,
            "{}\n  {{\"name\": {}, \"points\": {}, \"max_points\": {}, \"output\": \"\"}}",
            if shown > 0 { "," } else { "" },
            json_string(&format!(
                "{hidden} hidden fixture{}",
                if hidden == 1 { "" } else { "s" }
            )),
            points(hidden_earned),
            points(hidden_max)
        );
    }
    out + "\n]}\n"
}

/// JUnit XML: a test suite a submission, a test case a fixture, a failure
/// with its class.
fn junit(m: &Marked) -> String {
    let name = xml_text(m.name);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    let Some(graded) = m.graded else {
        let _ = write!(
            out,
            "  <testsuite name=\"{name}\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n    \
             <testcase classname=\"{name}\" name=\"build\">\n      <error type=\"BUILD\" message=\"{}\"/>\n    \
             </testcase>\n  </testsuite>\n</testsuites>\n",
            xml_text(m.note)
        );
        return out;
    };
    let failures = graded
        .iter()
        .filter(|g| g.judgement.fails(m.strict))
        .count();
    let total = m.counts.map_or_else(String::new, |c| seconds(c.total));
    let _ = writeln!(
        out,
        "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\" time=\"{total}\">",
        graded.len()
    );
    for (f, g) in m.fixtures.iter().zip(graded) {
        let time = g.time.map_or("0".into(), |(d, _)| seconds(d));
        let _ = write!(
            out,
            "    <testcase classname=\"{name}\" name=\"{}\" time=\"{time}\"",
            xml_text(&f.shown)
        );
        match &g.judgement {
            Judgement::Noted(class, text) if g.judgement.fails(m.strict) => {
                let flaky = g
                    .flaky
                    .as_ref()
                    .map_or(String::new(), |f| format!("FLAKY ({f}): "));
                let _ = write!(
                    out,
                    ">\n      <failure type=\"{}\" message=\"{}\"/>\n    </testcase>\n",
                    class.name(),
                    xml_text(&format!("{flaky}{text}"))
                );
            }
            Judgement::Passed if g.flaky.is_none() => out.push_str("/>\n"),
            Judgement::Noted(_, _) | Judgement::Message(_) | Judgement::Passed => {
                let _ = write!(
                    out,
                    ">\n      <system-out>{}</system-out>\n    </testcase>\n",
                    xml_text(&outcome(g))
                );
            }
        }
    }
    out + "  </testsuite>\n</testsuites>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The docs' table of a grading's files has each format's row, as
    /// its row says, in order.
    #[test]
    fn the_docs_table_of_files_has_each_formats_row() {
        let docs = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../docs/grading-reference.md"),
        )
        .unwrap();
        let lines: String = FORMATS
            .iter()
            .map(|row| match row.writer {
                Writer::Submission(_) => format!(
                    "| `NAME{}` | with `--format {}`: {} |\n",
                    row.file, row.name, row.docs
                ),
                Writer::Class(_) => format!(
                    "| `{}` | with `--roster` and `--format {}`: {} |\n",
                    row.file, row.name, row.docs
                ),
            })
            .collect();
        assert!(
            docs.contains(&lines),
            "docs/grading-reference.md's table of files does not have the formats' rows (publishing/formats.rs); they should read:\n{lines}"
        );
        // Each row is its format's (`Format::row` finds it by its place).
        for (i, format) in Format::all().enumerate() {
            assert_eq!(format as usize, i);
            assert_eq!(format.row().format, format);
            assert_eq!(format.name().parse::<Format>(), Ok(format));
        }
        assert_eq!(
            Format::help_list(),
            "for each submission gradescope (Gradescope's results.json), prairielearn (PrairieLearn's results.json), junit (JUnit XML); for the class canvas (Canvas's gradebook import, canvas.csv), moodle (Moodle's grade import, moodle.csv), which need --roster"
        );
    }

    #[test]
    fn strings_are_escaped_for_json_and_xml() {
        assert_eq!(xml_text("<a & 'b'>\u{1}"), "&lt;a &amp; &apos;b&apos;&gt;?");
    }
}
