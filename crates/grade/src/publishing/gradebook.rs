//! The gradebook files: each rostered student's mark for the assignment,
//! as Canvas's and Moodle's gradebooks import a CSV file, as they are
//! (`docs/grading-reference.md`, "The roster and the gradebooks' files", has each platform's documented
//! format and where it is from).
//!
//! A student's mark is the score of the submission in their folder, in
//! points out of the scheme's maximum, with a decimal point (`81.98`); a
//! submission that was not built earns 0, as the scheme gives it. There is
//! no mark, and the cell is left empty (`-` for Moodle, its own "no
//! grade"), for a student with no folder, and for one whose submission
//! could not be graded (an error of the system's is not a 0): the marker
//! is told of each ([`notes`]). A folder with no student is in no
//! gradebook file, and is named too.
//!
//! The values are the roster's, as the marker gave them (names, IDs,
//! logins, sections), with the assignment's name and the numbers: nothing
//! a student wrote. They reach the gradebook byte for byte, so no `'` is
//! put before a value that a spreadsheet would take for a formula (as the
//! summaries' CSVs do): the platform would import the quote as part of a
//! name or ID and match no student.

use crate::marking::marks::points;
use crate::publishing::record::{csv_field, Record};
use crate::publishing::roster::{moodle_misreads, Roster, Student};
use crate::shared::error::Refused;
use crate::shared::name::Name;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// A gradebook file's line ending: CRLF, as RFC 4180 has it (both
/// platforms read LF too).
const EOL: &str = "\r\n";

/// Words Canvas takes a column whose name holds one of for a total, not
/// an assignment (`GradebookImporter::NON_ASSIGNMENT_COLUMN_HEADERS`), and
/// the names of its student columns.
const CANVAS_RESERVED: [&str; 16] = [
    "Current Score",
    "Current Points",
    "Current Grade",
    "Final Score",
    "Final Points",
    "Final Grade",
    "Override Score",
    "Override Grade",
    "Override Status",
    "Student",
    "ID",
    "SIS User ID",
    "SIS Login ID",
    "Section",
    "Integration ID",
    "Root Account",
];

/// The longest assignment name (Canvas's titles hold 255 characters).
const MAX_ASSIGNMENT: usize = 255;

/// The assignment's column name when `--assignment` gives none.
pub const DEFAULT_ASSIGNMENT: &str = "Puzzle assignment";

/// The class as the gradebook files show it.
pub struct Class<'a> {
    /// The students, in the roster's order.
    pub roster: &'a Roster,
    /// The assignment's column name.
    pub assignment: &'a str,
    /// The most a submission can score.
    pub points_possible: f64,
    /// Each student's mark, in the roster's order (none: no mark to give).
    pub marks: Vec<Option<f64>>,
}

impl<'a> Class<'a> {
    /// The class of `roster` graded so (`records`, any order).
    pub fn of(
        roster: &'a Roster,
        assignment: &'a str,
        points_possible: f64,
        records: &[&Record],
    ) -> Class<'a> {
        let by_name: BTreeMap<&Name, &Record> = records.iter().map(|r| (&r.row.name, *r)).collect();
        let marks = roster
            .students
            .iter()
            .map(|s| mark(by_name.get(&s.folder).copied()))
            .collect();
        Class {
            roster,
            assignment,
            points_possible,
            marks,
        }
    }

    /// Each student with their mark.
    fn lines(&self) -> impl Iterator<Item = (&Student, Option<f64>)> {
        self.roster.students.iter().zip(self.marks.iter().copied())
    }
}

/// The mark a submission's record gives: its score; 0 when it was not
/// built; none when it could not be graded, or has no record.
fn mark(record: Option<&Record>) -> Option<f64> {
    let row = &record?.row;
    match (&row.marks, &row.trouble) {
        (Some(marks), _) => Some(marks.score),
        (None, None) => Some(0.0),
        (None, Some(_)) => None,
    }
}

/// `name` as an assignment's column name, or why it cannot be one.
pub fn check_assignment(name: &str) -> Result<String, Refused> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Refused::value("", name, "is empty"));
    }
    if name.chars().count() > MAX_ASSIGNMENT {
        return Err(Refused::value(
            "",
            name,
            format!("is longer than {MAX_ASSIGNMENT} characters"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(Refused::value("", name, "has a control character in it"));
    }
    if let Some(word) = CANVAS_RESERVED.iter().take(9).find(|w| name.contains(*w)) {
        return Err(Refused::value(
            "",
            name,
            format!("holds '{word}': Canvas takes such a column for a total, not an assignment"),
        ));
    }
    if let Some(word) = CANVAS_RESERVED[9..].iter().find(|w| name == **w) {
        return Err(Refused::value(
            "",
            word,
            "is one of Canvas's student columns",
        ));
    }
    if moodle_misreads(name) {
        return Err(Refused::value(
            "",
            name,
            "has a backslash before a quote or at its end, with a comma or quote: Moodle's CSV reader (PHP's fgetcsv) would misread it",
        ));
    }
    Ok(name.to_string())
}

/// A text field for Canvas (Ruby's CSV): quoted, a quote doubled; an
/// empty value an empty field.
fn canvas_text(value: &str) -> String {
    if value.is_empty() {
        String::new()
    } else {
        csv_field(value)
    }
}

/// A text field for Moodle (PHP's `fgetcsv`): quoted only when it holds a
/// comma or a quote (a quote doubled), so that a backslash in it is never
/// read as an escape.
fn moodle_text(value: &str) -> String {
    if value.contains([',', '"']) {
        csv_field(value)
    } else {
        value.to_string()
    }
}

/// `canvas.csv`: Canvas's gradebook import. The columns Student, ID, SIS
/// User ID, SIS Login ID, Section, then the assignment's; the second line
/// its points possible; then a line a rostered student: their name, Canvas
/// ID (when the roster has it), student ID, login, section, and mark
/// (empty when there is none).
pub fn canvas(class: &Class) -> String {
    let mut out = format!(
        "Student,ID,SIS User ID,SIS Login ID,Section,{}{EOL}Points Possible,,,,,{}{EOL}",
        canvas_text(class.assignment),
        points(class.points_possible)
    );
    for (s, mark) in class.lines() {
        let _ = write!(
            out,
            "{},{},{},{},{},{}{EOL}",
            canvas_text(&s.name),
            s.canvas_id,
            canvas_text(&s.id),
            canvas_text(s.login.as_deref().unwrap_or("")),
            canvas_text(&s.section),
            mark.map_or(String::new(), points)
        );
    }
    out
}

/// `moodle.csv`: Moodle's CSV grade import. The columns ID number, then
/// Username and Email address when the roster has them (each filled on
/// every line, so that any may be mapped to identify the user), Full name,
/// then the assignment's; a line a rostered student; `-` where there is no
/// mark.
pub fn moodle(class: &Class) -> String {
    let (logins, emails) = (class.roster.has_logins(), class.roster.has_emails());
    let mut head = vec!["ID number"];
    if logins {
        head.push("Username");
    }
    if emails {
        head.push("Email address");
    }
    head.push("Full name");
    let mut out = format!("{},{}{EOL}", head.join(","), moodle_text(class.assignment));
    for (s, mark) in class.lines() {
        let mut fields = vec![moodle_text(&s.id)];
        if logins {
            fields.push(moodle_text(s.login.as_deref().unwrap_or("")));
        }
        if emails {
            fields.push(moodle_text(s.email.as_deref().unwrap_or("")));
        }
        fields.push(moodle_text(&s.name));
        fields.push(mark.map_or("-".into(), points));
        out += &fields.join(",");
        out += EOL;
    }
    out
}

/// What the marker should know of the roster against the grading: the
/// folders of `folder_names` (shown) with no student, the students with no
/// folder, and, when the gradebook files were written (`unwritten` is
/// none), the students left without a mark because their submission could
/// not be graded; else why the files were not written.
pub fn notes(
    roster: &Roster,
    folder_names: &[Name],
    records: &[&Record],
    files: &str,
    unwritten: Option<&str>,
) -> Vec<String> {
    let source = &roster.source;
    let mut notes = Vec::new();
    let rostered: BTreeSet<&Name> = roster.students.iter().map(|s| &s.folder).collect();
    let present: BTreeSet<&Name> = folder_names.iter().collect();
    let strays: Vec<&str> = folder_names
        .iter()
        .filter(|n| !rostered.contains(n))
        .map(Name::shown)
        .collect();
    if !strays.is_empty() {
        notes.push(format!(
            "{source}: {} folder(s) with no student, in no gradebook file: {}",
            strays.len(),
            strays.join(", ")
        ));
    }
    let who = |s: &Student| format!("{} for {}", s.folder.shown(), s.shown());
    let absent: Vec<String> = roster
        .students
        .iter()
        .filter(|s| !present.contains(&s.folder))
        .map(who)
        .collect();
    if !absent.is_empty() {
        notes.push(format!(
            "{source}: {} student(s) with no folder, no mark in the gradebook files: {}",
            absent.len(),
            absent.join(", ")
        ));
    }
    if let Some(why) = unwritten {
        notes.push(format!("{files} not written: {why}"));
        return notes;
    }
    let class = Class::of(roster, "", 0.0, records);
    let unmarked: Vec<String> = class
        .lines()
        .filter(|(s, mark)| mark.is_none() && present.contains(&s.folder))
        .map(|(s, _)| who(s))
        .collect();
    if !unmarked.is_empty() {
        notes.push(format!(
            "{files}: {} student(s) whose submission could not be graded have no mark there, not 0 (the same command with --resume grades them again): {}",
            unmarked.len(),
            unmarked.join(", ")
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::publishing::record::{Row, RowMarks, CLASSES};
    use std::time::Duration;

    fn roster() -> Roster {
        Roster::parse(
            "roster.csv",
            "folder,id,login,name,section,email,canvas_id\n\
             ann,z1,ann,\"Lee, Ann\",T1,ann@x.edu,101\n\
             bob,z2,bob,\"Bob \"\"Bo\"\"\",T1,bob@x.edu,\n\
             cat,z3,cat,=1+1,,cat@x.edu,\n\
             dee,z4,dee,Dee,T2,dee@x.edu,\n"
                .as_bytes(),
        )
        .unwrap()
    }

    fn record(row: Row) -> Record {
        Record {
            row,
            fixtures: Vec::new(),
            causes: Vec::new(),
            sources: None,
        }
    }

    fn graded(name: &str, score: f64) -> Record {
        record(Row {
            name: name.into(),
            note: String::new(),
            trouble: None,
            marks: Some(RowMarks {
                passed: 1,
                failed: 0,
                classes: [0; CLASSES],
                score,
                max: 100.0,
                fuzz: None,
                seconds: Duration::ZERO,
                slowest: None,
            }),
        })
    }

    #[test]
    fn marks_are_the_score_0_when_not_built_and_none_when_not_graded() {
        let roster = roster();
        let records = [
            graded("ann", 81.98),
            record(Row::not_built(&"bob".into(), "make failed")),
            record(Row::not_graded(&"cat".into(), "Permission denied")),
            graded("zed", 50.0),
        ];
        let refs: Vec<&Record> = records.iter().collect();
        let class = Class::of(&roster, "Puzzle assignment", 100.0, &refs);
        assert_eq!(class.marks, [Some(81.98), Some(0.0), None, None]);
        assert_eq!(
            canvas(&class),
            "Student,ID,SIS User ID,SIS Login ID,Section,\"Puzzle assignment\"\r\n\
             Points Possible,,,,,100\r\n\
             \"Lee, Ann\",101,\"z1\",\"ann\",\"T1\",81.98\r\n\
             \"Bob \"\"Bo\"\"\",,\"z2\",\"bob\",\"T1\",0\r\n\
             \"=1+1\",,\"z3\",\"cat\",,\r\n\
             \"Dee\",,\"z4\",\"dee\",\"T2\",\r\n"
        );
        assert_eq!(
            moodle(&class),
            "ID number,Username,Email address,Full name,Puzzle assignment\r\n\
             z1,ann,ann@x.edu,\"Lee, Ann\",81.98\r\n\
             z2,bob,bob@x.edu,\"Bob \"\"Bo\"\"\",0\r\n\
             z3,cat,cat@x.edu,=1+1,-\r\n\
             z4,dee,dee@x.edu,Dee,-\r\n"
        );
        let folders: Vec<Name> = ["ann", "bob", "cat", "zed"].map(Name::from).to_vec();
        let notes = notes(&roster, &folders, &refs, "canvas.csv", None);
        assert_eq!(
            notes,
            [
                "roster.csv: 1 folder(s) with no student, in no gradebook file: zed",
                "roster.csv: 1 student(s) with no folder, no mark in the gradebook files: dee for z4 (Dee)",
                "canvas.csv: 1 student(s) whose submission could not be graded have no mark there, not 0 (the same command with --resume grades them again): cat for z3 (=1+1)",
            ]
        );
    }

    #[test]
    fn moodle_has_only_the_identifying_columns_the_roster_fills() {
        let roster = Roster::parse("r", b"id,folder\nz1,ann\n").unwrap();
        let records = [graded("ann", 7.5)];
        let refs: Vec<&Record> = records.iter().collect();
        let class = Class::of(&roster, "A1, part \"2\"", 10.0, &refs);
        assert_eq!(
            moodle(&class),
            "ID number,Full name,\"A1, part \"\"2\"\"\"\r\nz1,,7.5\r\n"
        );
        assert_eq!(
            canvas(&class),
            "Student,ID,SIS User ID,SIS Login ID,Section,\"A1, part \"\"2\"\"\"\r\nPoints Possible,,,,,10\r\n,,\"z1\",,,7.5\r\n"
        );
    }

    #[test]
    fn an_assignment_name_canvas_would_misread_is_refused() {
        assert_eq!(
            check_assignment("  Assignment 1 (1234) "),
            Ok("Assignment 1 (1234)".into())
        );
        for bad in [
            "",
            "Final Score",
            "My Current Grade",
            "Section",
            "a\tb",
            "a, b\\",
        ] {
            assert!(check_assignment(bad).is_err(), "{bad:?}");
        }
        // The refusal names the name refused.
        assert_eq!(
            check_assignment("Final Score").unwrap_err().to_string(),
            "'Final Score' holds 'Final Score': Canvas takes such a column for a total, not an assignment"
        );
        assert_eq!(
            check_assignment("a\tb").map_err(|e| e.offending().map(String::from)),
            Err(Some("a\\tb".into()))
        );
        assert!(check_assignment("Sections").is_ok());
    }
}
