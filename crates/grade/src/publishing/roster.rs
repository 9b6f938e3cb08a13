//! The marker's roster (`--roster FILE`): which student each folder of
//! submissions is, for the gradebook files ([`crate::publishing::gradebook`])
//! and the summaries.
//!
//! A roster is a CSV file (RFC 4180) in UTF-8, a byte-order mark at its
//! start allowed. Its first line names its columns, in any order: `folder`
//! and `id` always, and any of `login`, `name`, `section`, `email` and
//! `canvas_id` (names compared without case, spaces, `-` or `_`); a column
//! of another name is ignored. Then a line a student. A field may be
//! quoted (`"Chen, Carol"`, a quote in it doubled: `"Carol ""CC"" Chen"`);
//! spaces around a value are dropped; a line of empty fields is skipped.
//!
//! The roster is the marker's, but it is read as carefully as anything the
//! grader reads: every fault is an error naming its line and what is wrong
//! (a line of more or fewer fields than the header, a quote never closed,
//! a control character, a folder no submission could have, an `id`,
//! `login` or `email` left empty, the same folder or student on two lines,
//! a value that one of the gradebooks' CSV readers would misread, a line
//! a gradebook's importer would take for something other than a student:
//! Canvas's Points Possible line, a header pasted in). Nothing is guessed
//! or rewritten: a roster with a fault is refused whole.

use crate::publishing::json::{array, json_string, Fields, Json, Object};
use crate::shared::error::Refused;
use crate::shared::name::Name;
use crate::shared::text::one_line;
use std::collections::BTreeMap;
use std::ffi::OsStr;

/// The largest roster read, in bytes (100,000 students of 160 bytes).
pub const MAX_ROSTER: u64 = 16 << 20;

/// The longest value of a field, in characters.
const MAX_VALUE: usize = 1000;

/// What a student is known by, named for a message: a folder, an ID...
type Key = (&'static str, fn(&Student) -> String);

/// A column the grader reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Folder,
    Id,
    Login,
    Name,
    Section,
    Email,
    CanvasId,
}

impl Column {
    const ALL: [Column; 7] = [
        Column::Folder,
        Column::Id,
        Column::Login,
        Column::Name,
        Column::Section,
        Column::Email,
        Column::CanvasId,
    ];

    /// Its name in the header.
    fn word(self) -> &'static str {
        match self {
            Column::Folder => "folder",
            Column::Id => "id",
            Column::Login => "login",
            Column::Name => "name",
            Column::Section => "section",
            Column::Email => "email",
            Column::CanvasId => "canvas_id",
        }
    }

    /// What it holds, for the docs' table of the roster's columns
    /// (`docs/grading-reference.md`, made from these by a test).
    #[cfg(test)]
    fn what(self) -> &'static str {
        match self {
            Column::Folder => "the student's folder in SUBMISSIONS, its real name (matched byte for byte against the folders, not against the escaped form the tables show)",
            Column::Id => "the institution's student ID: Canvas's SIS User ID, Moodle's ID number",
            Column::Login => "the student's login: Canvas's SIS Login ID, Moodle's username",
            Column::Name => "the student's name as the gradebook shows it",
            Column::Section => "the student's section (Canvas shows it)",
            Column::Email => "the student's email address (Moodle can identify a user by it)",
            Column::CanvasId => "Canvas's own user ID (the ID column of Canvas's gradebook export)",
        }
    }

    /// Whether every roster must have it.
    fn required(self) -> bool {
        matches!(self, Column::Folder | Column::Id)
    }

    /// Whether, in a roster that has it, every line must fill it: the
    /// columns a gradebook may identify a student by (an empty one would
    /// make Moodle give the line's mark to the student of the line before).
    fn filled(self) -> bool {
        matches!(
            self,
            Column::Folder | Column::Id | Column::Login | Column::Email
        )
    }
}

/// One student of the roster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Student {
    /// The line of the roster it was read from (from 1, the header's
    /// being 1).
    pub line: usize,
    /// The folder of submissions that is theirs.
    pub folder: Name,
    /// The institution's student ID (Canvas's SIS User ID, Moodle's ID
    /// number).
    pub id: String,
    /// Their login (Canvas's SIS Login ID, Moodle's username), when the
    /// roster has the column.
    pub login: Option<String>,
    /// Their name (empty when not given).
    pub name: String,
    /// Their section (empty when not given).
    pub section: String,
    /// Their email address, when the roster has the column.
    pub email: Option<String>,
    /// Canvas's own user ID (the ID column of Canvas's export), or empty.
    pub canvas_id: String,
}

impl Student {
    /// The student in a line of a message: the ID, and the name if any
    /// (one line, nothing hidden).
    pub fn shown(&self) -> String {
        if self.name.is_empty() {
            one_line(&self.id)
        } else {
            one_line(&format!("{} ({})", self.id, self.name))
        }
    }
}

/// A roster read: where from, and its students in its order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roster {
    /// The file as the command line named it (one line, nothing hidden).
    pub source: String,
    /// The students, in the roster's order.
    pub students: Vec<Student>,
}

impl Roster {
    /// Reads the roster `bytes` (of the file `source`), or what is wrong
    /// with it: `line N: ...`.
    pub fn parse(source: &str, bytes: &[u8]) -> Result<Roster, Refused> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            Refused::new(
                format!("line {line}"),
                "not UTF-8 (save the roster as UTF-8 CSV)",
            )
        })?;
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        let mut records = records(text)?.into_iter();
        let Some((header_line, header)) = records.next() else {
            return Err(Refused::because(
                "empty: the first line names the columns (folder,id,login,name,section)",
            ));
        };
        let columns = header_columns(header_line, &header)?;
        let mut students = Vec::new();
        for (line, fields) in records {
            if fields.len() != header.len() {
                return Err(Refused::new(format!("line {line}"), format!(
                    "{} field(s) where the header has {} (a value with a comma is quoted: \"Chen, Carol\")",
                    fields.len(),
                    header.len()
                )));
            }
            not_a_header(line, &fields)?;
            let value = |column: Column| {
                columns
                    .iter()
                    .find(|(c, _)| *c == column)
                    .map(|(_, at)| fields[*at].as_str())
            };
            students.push(Student::read(line, &value)?);
        }
        Roster::of(source, students)
    }

    /// The roster of `students`, checked as a whole: at least one, no
    /// folder, ID, login, email or Canvas ID on two lines, the optional
    /// identifying columns (login, email) on every line or none.
    fn of(source: &str, students: Vec<Student>) -> Result<Roster, Refused> {
        if students.is_empty() {
            return Err(Refused::because(
                "no student in it: after the header, a line a student",
            ));
        }
        let first = &students[0];
        for s in &students {
            if s.login.is_some() != first.login.is_some()
                || s.email.is_some() != first.email.is_some()
            {
                return Err(Refused::new(
                    format!("line {}", s.line),
                    format!("not the columns of line {}", first.line),
                ));
            }
        }
        let keys: [Key; 5] = [
            ("folder", |s| s.folder.shown().to_string()),
            ("student ID", |s| s.id.clone()),
            ("login", |s| {
                s.login.clone().unwrap_or_default().to_lowercase()
            }),
            ("email", |s| {
                s.email.clone().unwrap_or_default().to_lowercase()
            }),
            ("canvas_id", |s| s.canvas_id.clone()),
        ];
        for (what, key) in keys {
            let mut seen: BTreeMap<String, usize> = BTreeMap::new();
            for s in &students {
                let k = key(s);
                if k.is_empty() {
                    continue;
                }
                if let Some(before) = seen.insert(k.clone(), s.line) {
                    return Err(Refused::new(
                        format!("lines {} and {}", before, s.line),
                        format!("the {what} '{}' is on both", one_line(&k)),
                    ));
                }
            }
        }
        Ok(Roster {
            source: one_line(source),
            students,
        })
    }

    /// Whether the roster has logins (every student one).
    pub fn has_logins(&self) -> bool {
        self.students.iter().all(|s| s.login.is_some())
    }

    /// Whether the roster has email addresses (every student one).
    pub fn has_emails(&self) -> bool {
        self.students.iter().all(|s| s.email.is_some())
    }

    /// The student whose folder has the shown name `folder`.
    pub fn student_of(&self, folder: &str) -> Option<&Student> {
        self.students.iter().find(|s| s.folder.shown() == folder)
    }

    /// Its JSON, as `grading.json` records it: the source and each
    /// student's line and columns (only the columns the grader reads).
    pub fn to_json(&self) -> String {
        let optional = |v: &Option<String>| v.as_ref().map_or("null".into(), |v| json_string(v));
        let students = self.students.iter().map(|s| {
            Object::new()
                .raw("line", &s.line.to_string())
                .text("folder", &s.folder.real().to_string_lossy())
                .text("id", &s.id)
                .raw("login", &optional(&s.login))
                .text("name", &s.name)
                .text("section", &s.section)
                .raw("email", &optional(&s.email))
                .text("canvas_id", &s.canvas_id)
                .end()
        });
        Object::new()
            .text("source", &self.source)
            .raw("students", &array(students))
            .end()
    }

    /// A roster read back from its JSON ([`Roster::to_json`]), each
    /// student checked as a roster's line is.
    pub fn from_json(fields: Fields) -> Result<Roster, Refused> {
        let source = fields
            .text("source")
            .map_err(|_| Refused::because("a roster without its source"))?;
        let list = fields
            .array("students")
            .map_err(|_| Refused::because("a roster without its students"))?;
        let mut students = Vec::new();
        for item in list {
            let item = Fields::of(item)?;
            let line = item
                .count("line")
                .map_err(|_| Refused::because("a student without its line"))?
                as usize;
            let value = |column: Column| match item.get(column.word()) {
                Some(Json::Text(text)) => Some(text.as_str()),
                _ => None,
            };
            students.push(Student::read(line, &value)?);
        }
        Roster::of(source, students)
    }
}

impl Student {
    /// The student of line `line`, whose columns `value` gives (`None`:
    /// the roster has no such column), each value checked.
    fn read<'a>(
        line: usize,
        value: &dyn Fn(Column) -> Option<&'a str>,
    ) -> Result<Student, Refused> {
        let mut got: [Option<String>; 7] = Default::default();
        for (i, column) in Column::ALL.into_iter().enumerate() {
            let Some(text) = value(column) else {
                if column.required() {
                    return Err(Refused::new(
                        format!("line {line}"),
                        format!("no {}", column.word()),
                    ));
                }
                continue;
            };
            got[i] = Some(checked(line, column, text.trim())?);
        }
        let [folder, id, login, name, section, email, canvas_id] = got;
        let folder = folder.unwrap_or_default();
        let folder = Name::of_folder(OsStr::new(&folder)).ok_or_else(|| {
            Refused::new(format!("line {line}"), format!(
                "the folder '{}' is no submission's folder (grade-all grades the folders not hidden, named without '/', up to 255 bytes)",
                one_line(&folder)
            ))
        })?;
        Ok(Student {
            line,
            folder,
            id: id.unwrap_or_default(),
            login,
            name: name.unwrap_or_default(),
            section: section.unwrap_or_default(),
            email,
            canvas_id: canvas_id.unwrap_or_default(),
        })
    }
}

/// `text`, the value of `column` on line `line`, or why it cannot be.
fn checked(line: usize, column: Column, text: &str) -> Result<String, Refused> {
    let word = column.word();
    // Moodle tests an identifying cell with PHP's `empty()`: `0` is empty.
    if column.filled() && text == "0" {
        return Err(Refused::new(
            format!("line {line}"),
            format!("the {word} '0', which Moodle's import takes for no value"),
        ));
    }
    if text.is_empty() {
        if column.filled() {
            return Err(Refused::new(
                format!("line {line}"),
                format!("no {word} (every line of a roster with the column '{word}' gives one)"),
            ));
        }
        return Ok(String::new());
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(Refused::new(
            format!("line {line}"),
            format!(
                "the {word} '{}' holds a control character ({})",
                one_line(text),
                one_line(&c.to_string())
            ),
        ));
    }
    if text.chars().count() > MAX_VALUE {
        return Err(Refused::new(
            format!("line {line}"),
            format!("the {word} is longer than {MAX_VALUE} characters"),
        ));
    }
    if moodle_misreads(text) {
        return Err(Refused::new(format!("line {line}"), format!(
            "the {word} '{}' has a backslash before a quote or at its end, and a comma or quote: Moodle's CSV reader (PHP's fgetcsv) would misread it",
            one_line(text)
        )));
    }
    // Canvas's import rewrites every field made of digits, commas and dots
    // as a number with a decimal point: the name, ID, login or section it
    // matches a student by would then match none.
    let in_canvas = matches!(
        column,
        Column::Name | Column::Id | Column::Login | Column::Section
    );
    if let Some(read) = canvas_number(text).filter(|_| in_canvas) {
        return Err(Refused::new(
            format!("line {line}"),
            format!(
                "the {word} '{}', which Canvas's import reads as the number '{}' (it rewrites a value of digits with a comma or more than one dot): it would match no student",
                one_line(text),
                one_line(&read)
            ),
        ));
    }
    match column {
        Column::CanvasId if !text.bytes().all(|b| b.is_ascii_digit()) => Err(Refused::new(format!("line {line}"), format!(
            "the canvas_id '{}' is not a number (it is Canvas's own user ID, the ID column of its gradebook export)",
            one_line(text)
        ))),
        Column::Email if !text.contains('@') => Err(Refused::new(format!("line {line}"), format!(
            "the email '{}' has no '@'",
            one_line(text)
        ))),
        _ => Ok(text.to_string()),
    }
}

/// The names of the columns of a roster, and of Canvas's and Moodle's
/// gradebook files, squeezed as [`squeezed`] makes them.
const HEADER_WORDS: [&str; 19] = [
    "folder",
    "id",
    "login",
    "name",
    "section",
    "email",
    "canvasid",
    "student",
    "sisuserid",
    "sisloginid",
    "integrationid",
    "rootaccount",
    "lastname",
    "firstname",
    "idnumber",
    "username",
    "emailaddress",
    "fullname",
    "pointspossible",
];

/// A word without case, spaces, `-` or `_`, as column names are compared.
fn squeezed(word: &str) -> String {
    word.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether the line `line` of `fields` is a student's, or why not: a line
/// of column names (a header pasted in, or a gradebook export's), and a
/// line with `Points Possible` in it (a Canvas export's second line:
/// Canvas's import takes a line whose first field holds those words for
/// the assignments' points, so a student's name holding them would give
/// the assignment that student's mark as its points, and the student
/// none), in any column, in any case.
fn not_a_header(line: usize, fields: &[String]) -> Result<(), Refused> {
    if let Some((at, field)) = fields
        .iter()
        .enumerate()
        .find(|(_, f)| f.to_lowercase().contains("points possible"))
    {
        return Err(Refused::new(
            format!("line {line}"),
            format!(
                "'{}' (column {}): Canvas's import takes a line whose name holds 'Points Possible' for the assignment's points, not a student (a Canvas export's second line): remove the line",
                one_line(field.trim()),
                at + 1
            ),
        ));
    }
    let filled: Vec<&str> = fields
        .iter()
        .map(|f| f.trim())
        .filter(|f| !f.is_empty())
        .collect();
    if filled.len() >= 2
        && filled
            .iter()
            .all(|f| HEADER_WORDS.contains(&squeezed(f).as_str()))
    {
        return Err(Refused::new(
            format!("line {line}"),
            format!(
                "a line of column names ({}), not a student: the roster's first line names its columns, and no other line may (a gradebook would take it for a student, or for its header)",
                one_line(&filled.join(", "))
            ),
        ));
    }
    Ok(())
}

/// What Canvas's gradebook import reads the field `text` as, when it
/// rewrites it: a field of an optional `-`, digits, commas and dots, and
/// an optional `%`, is split at every comma and dot (empty pieces at its
/// end dropped), and its pieces joined with one decimal point before the
/// last (`1,234` is read `1.234`, `1.234.567` `1234.567`, `5.` `5`).
fn canvas_number(text: &str) -> Option<String> {
    let body = text.strip_prefix('-').unwrap_or(text);
    let body = body.strip_suffix('%').unwrap_or(body);
    if body.is_empty()
        || !body
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b',' || b == b'.')
    {
        return None;
    }
    let mut pieces: Vec<&str> = text.split([',', '.']).collect();
    while pieces.last() == Some(&"") {
        pieces.pop();
    }
    let last = pieces.pop().unwrap_or("");
    let read = if pieces.is_empty() {
        last.to_string()
    } else {
        format!("{}.{last}", pieces.concat())
    };
    (read != text).then_some(read)
}

/// The grader's columns in the header `fields` (of line `line`), each with
/// its place; the header must name the required ones, each once.
fn header_columns(line: usize, fields: &[String]) -> Result<Vec<(Column, usize)>, Refused> {
    let mut columns: Vec<(Column, usize)> = Vec::new();
    for (at, field) in fields.iter().enumerate() {
        let Some(column) = Column::ALL
            .into_iter()
            .find(|c| squeezed(c.word()) == squeezed(field))
        else {
            continue;
        };
        if let Some((_, before)) = columns.iter().find(|(c, _)| *c == column) {
            return Err(Refused::new(
                format!("line {line}"),
                format!(
                    "the column '{}' is named twice (columns {} and {})",
                    column.word(),
                    before + 1,
                    at + 1
                ),
            ));
        }
        columns.push((column, at));
    }
    for column in Column::ALL.into_iter().filter(|c| c.required()) {
        if !columns.iter().any(|(c, _)| *c == column) {
            return Err(Refused::new(format!("line {line}"), format!(
                "no '{}' column: the first line names the columns, in any order: folder and id, and any of login, name, section, email, canvas_id",
                column.word()
            )));
        }
    }
    Ok(columns)
}

/// The records of the CSV `text` (RFC 4180: fields separated by commas,
/// records by LF, CRLF or a lone CR, a field quoted to hold any of these
/// and a quote doubled), each with the line it starts on; spaces around a
/// quoted field are allowed, a record of empty fields is left out. The
/// one CSV reader: the roster's, and `similarity.csv` read back for the
/// class page.
pub fn records(text: &str) -> Result<Vec<(usize, Vec<String>)>, Refused> {
    let mut out = Vec::new();
    let (mut line, mut start) = (1, 1);
    let mut fields: Vec<String> = Vec::new();
    let mut field = String::new();
    // Inside quotes; a field that was quoted (only spaces may follow it).
    let (mut quoted, mut closed) = (false, false);
    let mut chars = text.chars().peekable();
    let mut end_record = |fields: &mut Vec<String>, field: &mut String, start: usize| {
        fields.push(std::mem::take(field));
        if fields.iter().any(|f| !f.trim().is_empty()) {
            out.push((start, std::mem::take(fields)));
        }
        fields.clear();
    };
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => {
                    quoted = false;
                    closed = true;
                }
                _ => {
                    if c == '\n' || (c == '\r' && chars.peek() != Some(&'\n')) {
                        line += 1;
                    }
                    field.push(c);
                }
            }
            continue;
        }
        match c {
            ',' => {
                fields.push(std::mem::take(&mut field));
                closed = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => {
                end_record(&mut fields, &mut field, start);
                closed = false;
                line += 1;
                start = line;
            }
            '"' if !closed && field.trim().is_empty() => {
                field.clear();
                quoted = true;
            }
            '"' => {
                return Err(Refused::new(format!("line {line}"), "a quote inside a field that is not quoted (quote the whole field and double the quote: \"Carol \"\"CC\"\" Chen\")"))
            }
            ' ' | '\t' if closed => {}
            _ if closed => {
                return Err(Refused::new(format!("line {line}"), "text after a quoted field's closing quote (a quote in a quoted field is doubled: \"\")"))
            }
            _ => field.push(c),
        }
    }
    if quoted {
        return Err(Refused::new(
            format!("line {start}"),
            "a quoted field is never closed (a quote in it is doubled: \"\")",
        ));
    }
    end_record(&mut fields, &mut field, start);
    Ok(out)
}

/// Whether Moodle's CSV reader (PHP's `fgetcsv`) would misread `text` as
/// a field: it quotes a field that holds a comma or a quote
/// (`gradebook.rs`'s `moodle_text`), and takes a backslash in a quoted
/// field as an escape, so one before a quote (or the closing one) is
/// misread. The one statement of that rule, for a roster's values and an
/// assignment's name alike.
pub fn moodle_misreads(text: &str) -> bool {
    text.contains([',', '"']) && (text.contains("\\\"") || text.ends_with('\\'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/grading-reference.md`'s table of the roster's columns is
    /// made from the columns' own rows: their names, what each holds,
    /// whether it is needed and filled on every line.
    #[test]
    fn the_docs_table_of_columns_is_the_columns() {
        let mut table = String::from("| column | what | |\n|---|---|---|\n");
        for column in Column::ALL {
            let rule = match (column.required(), column.filled()) {
                (true, _) => "needed, on every line",
                (false, true) => "optional; if there, on every line",
                (false, false) => "optional, may be empty",
            };
            table += &format!("| `{}` | {} | {rule} |\n", column.word(), column.what());
        }
        let docs = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/grading-reference.md"
        ))
        .unwrap();
        assert!(
            docs.contains(&table),
            "docs/grading-reference.md's table of the roster's columns is not the columns' (publishing/roster.rs); it should read:\n{table}"
        );
    }

    fn parsed(text: &str) -> Roster {
        Roster::parse("roster.csv", text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn error(text: &[u8]) -> String {
        match Roster::parse("roster.csv", text) {
            Err(e) => e.to_string(),
            Ok(r) => panic!("accepted: {r:?}"),
        }
    }

    /// Each roster of `head` and a line is refused, its error starting so.
    fn each_refused(head: &str, cases: &[(&str, &str)]) {
        for (line, expected) in cases {
            let e = error(format!("{head}{line}").as_bytes());
            assert!(e.starts_with(expected), "{line:?}: {e}");
        }
    }

    #[test]
    fn columns_in_any_order_quoted_fields_and_a_bom() {
        let roster = parsed(
            "\u{FEFF}Name, Section ,ID,folder,notes,Login\r\n\
             \"Chen, Carol \"\"CC\"\"\",Tue 10am,z1234567,carol,\"late, see email\",carol\r\n\
             \r\n\
             ,,,,,\n\
             Ann Lee,,z7654321,  ann  ,,ann",
        );
        assert_eq!(roster.students.len(), 2);
        let carol = &roster.students[0];
        assert_eq!(carol.line, 2);
        assert_eq!(carol.name, "Chen, Carol \"CC\"");
        assert_eq!(carol.section, "Tue 10am");
        assert_eq!(carol.id, "z1234567");
        assert_eq!(carol.folder.shown(), "carol");
        assert_eq!(carol.login.as_deref(), Some("carol"));
        assert_eq!(carol.email, None);
        assert_eq!(carol.canvas_id, "");
        let ann = &roster.students[1];
        assert_eq!(
            (ann.line, ann.folder.shown(), ann.section.as_str()),
            (5, "ann", "")
        );
        assert!(roster.has_logins() && !roster.has_emails());
        assert_eq!(roster.student_of("ann"), Some(ann));
        assert_eq!(roster.student_of("bob"), None);
    }

    #[test]
    fn old_mac_line_ends_and_a_backslash_no_quote_surrounds_are_read() {
        let roster = parsed("folder,id,login\rann,z1,UNI\\ann\rbob,z2,\"b,\\o\"\r");
        assert_eq!(roster.students[0].login.as_deref(), Some("UNI\\ann"));
        assert_eq!(roster.students[1].login.as_deref(), Some("b,\\o"));
        assert_eq!(roster.students[1].line, 3);
    }

    #[test]
    fn a_quoted_field_may_span_lines_and_the_lines_still_count() {
        // The newline in the quoted note is the roster's; the control
        // character check only looks at the grader's columns.
        let roster = parsed("folder,id,note\nann,1,\"two\nlines\"\nbob,2,x\n");
        assert_eq!(roster.students[1].line, 4);
        let e = error(b"folder,id,name\nann,1,\"two\nlines\"\n");
        assert_eq!(
            e,
            "line 2: the name 'two\\nlines' holds a control character (\\n)"
        );
    }

    #[test]
    fn a_missing_column_or_header_is_named() {
        assert_eq!(
            error(b"ann,z1,ann,Ann Lee,1\n"),
            "line 1: no 'folder' column: the first line names the columns, in any order: folder and id, and any of login, name, section, email, canvas_id"
        );
        assert!(error(b"folder,login\nann,ann\n").starts_with("line 1: no 'id' column"));
        assert!(error(b"").starts_with("empty"));
        assert!(error(b"\xEF\xBB\xBFfolder,id\n").starts_with("no student in it"));
        assert_eq!(
            error(b"folder,id,ID\nann,1,2\n"),
            "line 1: the column 'id' is named twice (columns 2 and 3)"
        );
    }

    #[test]
    fn a_bad_line_names_its_number_and_its_fault() {
        let head = "folder,id,login,name,section\n";
        let cases: [(&str, &str); 11] = [
            (
                "ann,z1,ann,Chen, Carol,T1\n",
                "line 2: 6 field(s) where the header has 5",
            ),
            (
                "ann,z1,ann,Ann\n",
                "line 2: 4 field(s) where the header has 5",
            ),
            ("ann,,ann,Ann,T1\n", "line 2: no id (every line"),
            (
                "ann,0,ann,Ann,T1\n",
                "line 2: the id '0', which Moodle's import",
            ),
            ("ann,z1,,Ann,T1\n", "line 2: no login (every line"),
            (
                ".ann,z1,ann,Ann,T1\n",
                "line 2: the folder '.ann' is no submission's folder",
            ),
            (
                "a/b,z1,ann,Ann,T1\n",
                "line 2: the folder 'a/b' is no submission's folder",
            ),
            (
                "ann,z1,ann,Ann \"A\" Lee,T1\n",
                "line 2: a quote inside a field that is not quoted",
            ),
            (
                "ann,z1,ann,\"Ann\" Lee,T1\n",
                "line 2: text after a quoted field's closing quote",
            ),
            (
                "ann,z1,ann,\"Ann,T1\n",
                "line 2: a quoted field is never closed",
            ),
            (
                "ann,z1,ann,\"Ann, Lee\\\",T1\n",
                "line 2: the name 'Ann, Lee\\' has a backslash",
            ),
        ];
        each_refused(head, &cases);
        // Faults after good lines name their own line.
        let e = error(format!("{head}ok,z0,ok,Ok,T0\n\nann,z1,ann,Ann\n").as_bytes());
        assert!(e.starts_with("line 4: 4 field(s)"), "{e}");
        assert_eq!(
            error(b"folder,id\nann,z1\n\xFF\n"),
            "line 3: not UTF-8 (save the roster as UTF-8 CSV)"
        );
        assert!(error(b"folder,id,canvas_id\nann,z1,12a\n")
            .starts_with("line 2: the canvas_id '12a' is not a number"));
        assert!(error(b"folder,id,email\nann,z1,ann.example.com\n")
            .starts_with("line 2: the email 'ann.example.com' has no '@'"));
        assert!(error(b"folder,id,name\nann,z1,\"A\x07\"\n").contains("holds a control character"));
    }

    #[test]
    fn a_line_a_gradebook_would_misread_is_refused_naming_it() {
        let head = "folder,id,login,name,section,notes\n";
        let cases = [
            (
                "ann,z1,ann,Points Possible,T1,\n",
                "line 2: 'Points Possible' (column 4): Canvas's import takes",
            ),
            (
                "ann,z1,ann,Ann,T1,see POINTS POSSIBLE\n",
                "line 2: 'see POINTS POSSIBLE' (column 6)",
            ),
            (
                "Folder,ID,SIS Login ID,Student,Section,\n",
                "line 2: a line of column names (Folder, ID, SIS Login ID, Student, Section), not a student",
            ),
            (
                "ann,\"12,5\",ann,Ann,T1,\n",
                "line 2: the id '12,5', which Canvas's import reads as the number '12.5'",
            ),
            (
                "ann,z1,1.2.3,Ann,T1,\n",
                "line 2: the login '1.2.3', which Canvas's import reads as the number '12.3'",
            ),
            (
                "ann,z1,ann,Ann,10.,\n",
                "line 2: the section '10.', which Canvas's import reads as the number '10'",
            ),
        ];
        each_refused(head, &cases);
        // What Canvas reads as it is stays: numbers with one dot, IDs with
        // leading zeros, a lone column name beside real values.
        let roster = parsed(&format!(
            "{head}ann,00123,ann,Student,12.5,\nbob,-7,bob,Bob,1%,\ncat,z3,id,Name,T1,\n"
        ));
        assert_eq!(roster.students.len(), 3);
        assert_eq!(canvas_number("1,234.5"), Some("1234.5".into()));
        assert_eq!(canvas_number("-1,5%"), Some("-1.5%".into()));
        assert_eq!(canvas_number(".5"), None);
        assert_eq!(canvas_number("1a,2"), None);
    }

    #[test]
    fn a_folder_or_a_student_twice_names_both_lines() {
        let head = "folder,id,login,email,canvas_id\n";
        let cases = [
            (
                "ann,z1,ann,a@x,1\nann,z2,bob,b@x,2\n",
                "lines 2 and 3: the folder 'ann' is on both",
            ),
            (
                "ann,z1,ann,a@x,1\nbob,z1,bob,b@x,2\n",
                "lines 2 and 3: the student ID 'z1' is on both",
            ),
            (
                "ann,z1,ann,a@x,1\nbob,z2,ANN,b@x,2\n",
                "lines 2 and 3: the login 'ann' is on both",
            ),
            (
                "ann,z1,ann,a@x,1\nbob,z2,bob,A@X,2\n",
                "lines 2 and 3: the email 'a@x' is on both",
            ),
            (
                "ann,z1,ann,a@x,1\n\nbob,z2,bob,b@x,1\n",
                "lines 2 and 4: the canvas_id '1' is on both",
            ),
        ];
        for (lines, expected) in cases {
            assert_eq!(error(format!("{head}{lines}").as_bytes()), expected);
        }
        // An empty Canvas ID is no ID: two of them are no clash.
        parsed(&format!("{head}ann,z1,ann,a@x,\nbob,z2,bob,b@x,\n"));
    }

    #[test]
    fn a_roster_reads_back_from_its_json() {
        let roster = parsed(
            "folder,id,login,name,section,email,canvas_id\n\
             Jos\u{e9},z1,jose,\"Jos\u{e9} \"\"J\"\" Ruiz\",T1,j@x,17\n\
             ann,z2,ann,,,a@x,\n",
        );
        let json = Json::parse(&roster.to_json()).unwrap();
        assert_eq!(Roster::from_json(Fields::of(&json).unwrap()), Ok(roster));
        // A forged line is checked as a roster's is.
        let forged = "{\"source\": \"r\", \"students\": [{\"line\": 2, \"folder\": \"../x\", \"id\": \"z1\"}]}";
        let forged = Json::parse(forged).unwrap();
        assert!(Roster::from_json(Fields::of(&forged).unwrap())
            .unwrap_err()
            .to_string()
            .contains("is no submission's folder"));
    }
}
