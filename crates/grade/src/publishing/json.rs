//! JSON as the grading's own files need it: their format's version
//! ([`VERSION`]), objects written field by field ([`Object`]) and strings
//! escaped, and a reader for what this crate wrote (`summary.jsonl`,
//! `grading.json`) when a grading is resumed, merged or compared: a
//! value parsed ([`Json::parse`]), then an object's fields taken by name
//! and type ([`Fields`]), each one missing or mistyped refused by name.
//! Numbers keep the text they were written with, so that a value read
//! back prints exactly as before.

use crate::shared::error::Refused;
use std::fmt::Write as _;
use std::time::Duration;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string.
    Text(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, its keys in the order written.
    Object(Vec<(String, Json)>),
}

/// A JSON text that could not be read: what was wrong, and at which byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// The byte offset where reading stopped.
    pub at: usize,
    /// What was expected there.
    pub expected: &'static str,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "byte {}: expected {}", self.at, self.expected)
    }
}

impl std::error::Error for JsonError {}

impl Json {
    /// Reads one value, the whole of `text` (whitespace around it allowed).
    pub fn parse(text: &str) -> Result<Json, JsonError> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
            depth: 0,
        };
        let value = reader.value()?;
        reader.skip_space();
        if reader.at != reader.bytes.len() {
            return Err(reader.error("the end of the text"));
        }
        Ok(value)
    }

    /// The value of `key`, when this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The number as an `f64`, when this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(text) => text.parse().ok(),
            _ => None,
        }
    }

    /// The number as a `u64`, when this is a whole number that fits.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(text) => text.parse().ok(),
            _ => None,
        }
    }

    /// The boolean, when this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The elements, when this is an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }
}

/// The version of the format of the grading's own files (`grading.json`,
/// each line of `summary.jsonl`) that this build writes, as their
/// `"version"` field. A file without one is of version 1 (every grading
/// before versions). Raised by one whenever what the files hold changes
/// (a field, a class of fault: its row's `since`); the readers take every
/// version up to this one, and refuse a later one by name. Version 2
/// added the version itself; 3, the first bytes of a fixture's outputs
/// where its answer was not right (`publishing::record::FixtureLine`),
/// NOT GRADED counted apart (`not_graded`; `failed` no longer counts it),
/// and the time limit among `grading.json`'s options as `--time-limit`
/// (`publishing::options`).
pub const VERSION: u64 = 3;

/// The fields of a JSON object of a grading's file, read by name and type,
/// each missing or mistyped one refused by its name: the one way the
/// grading's files are read ([`Fields::of`]).
#[derive(Clone, Copy)]
pub struct Fields<'a>(&'a [(String, Json)]);

impl<'a> Fields<'a> {
    /// The fields of `value`, which must be an object.
    pub fn of(value: &'a Json) -> Result<Fields<'a>, Refused> {
        match value {
            Json::Object(fields) => Ok(Fields(fields)),
            _ => Err(Refused::because("not a JSON object")),
        }
    }

    /// The value of `key`, when it is there (a `null` too).
    pub fn get(&self, key: &str) -> Option<&'a Json> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value of `key`, when it is there and not `null`.
    pub fn optional(&self, key: &str) -> Option<&'a Json> {
        self.get(key).filter(|v| **v != Json::Null)
    }

    /// The file's format version ([`VERSION`]): 1 when it has none, one
    /// this build reads, or refused.
    pub fn version(&self) -> Result<u64, Refused> {
        let Some(value) = self.get("version") else {
            return Ok(1);
        };
        match value.as_u64() {
            Some(v @ 1..=VERSION) => Ok(v),
            Some(v) if v > VERSION => Err(Refused::because(format!(
                "written in the format of version {v} (a later puzzle-grade's): this one reads versions 1 to {VERSION}"
            ))),
            _ => Err(Refused::because("'version' is not a version")),
        }
    }

    /// The value of `key` that `read` takes, or `no KIND 'KEY'`.
    fn typed<T>(
        &self,
        key: &str,
        read: impl FnOnce(&'a Json) -> Option<T>,
        kind: &str,
    ) -> Result<T, Refused> {
        self.get(key)
            .and_then(read)
            .ok_or_else(|| Refused::because(format!("no {kind} '{key}'")))
    }

    /// The string `key`.
    pub fn text(&self, key: &str) -> Result<&'a str, Refused> {
        self.typed(key, Json::as_str, "string")
    }

    /// The number `key`.
    pub fn number(&self, key: &str) -> Result<f64, Refused> {
        self.typed(key, Json::as_f64, "number")
    }

    /// The whole number `key`.
    pub fn count(&self, key: &str) -> Result<u64, Refused> {
        self.typed(key, Json::as_u64, "count")
    }

    /// The boolean `key`.
    pub fn boolean(&self, key: &str) -> Result<bool, Refused> {
        self.typed(key, Json::as_bool, "boolean")
    }

    /// The array `key`.
    pub fn array(&self, key: &str) -> Result<&'a [Json], Refused> {
        self.typed(key, Json::as_array, "array")
    }

    /// The object `key`.
    pub fn object(&self, key: &str) -> Result<Fields<'a>, Refused> {
        match self.get(key) {
            Some(Json::Object(fields)) => Ok(Fields(fields)),
            _ => Err(Refused::because(format!("no object '{key}'"))),
        }
    }

    /// The seconds `key` (to the millisecond; `null`: none).
    pub fn seconds(&self, key: &str) -> Result<Option<Duration>, Refused> {
        match self.get(key) {
            Some(Json::Null) => Ok(None),
            Some(n) => n
                .as_f64()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(|s| Some(Duration::from_millis((s * 1000.0).round() as u64)))
                .ok_or_else(|| Refused::because(format!("'{key}' is not seconds"))),
            None => Err(Refused::because(format!("no '{key}'"))),
        }
    }

    /// The 64-bit digest `key`, written as 16 hexadecimal digits.
    pub fn digest(&self, key: &str) -> Result<u64, Refused> {
        self.get(key)
            .and_then(Json::as_str)
            .filter(|d| d.len() == 16)
            .and_then(|d| u64::from_str_radix(d, 16).ok())
            .ok_or_else(|| Refused::because(format!("'{key}' is not 16 hexadecimal digits")))
    }

    /// The 64-bit digest `key` when there is one (files written before it
    /// was kept have none).
    pub fn digest_if(&self, key: &str) -> Result<Option<u64>, Refused> {
        match self.get(key) {
            None => Ok(None),
            Some(_) => self.digest(key).map(Some),
        }
    }
}

/// A JSON object written field by field, in order, as the grading's files
/// are: `{"a": 1, "b": "x"}`.
pub struct Object(String);

impl Object {
    /// An object with no field yet.
    pub fn new() -> Object {
        Object(String::from("{"))
    }

    /// The field `key` whose value is the JSON text `json`.
    pub fn raw(&mut self, key: &str, json: &str) -> &mut Object {
        if self.0.len() > 1 {
            self.0.push_str(", ");
        }
        let _ = write!(self.0, "{}: {json}", json_string(key));
        self
    }

    /// The field `key` whose value is the string `text`.
    pub fn text(&mut self, key: &str, text: &str) -> &mut Object {
        self.raw(key, &json_string(text))
    }

    /// The field `key` whose value is the 64-bit digest `digest` as 16
    /// hexadecimal digits; no field when there is none.
    pub fn digest(&mut self, key: &str, digest: Option<u64>) -> &mut Object {
        match digest {
            Some(d) => self.text(key, &format!("{d:016x}")),
            None => self,
        }
    }

    /// The object's text.
    pub fn end(&mut self) -> String {
        let mut text = std::mem::take(&mut self.0);
        text.push('}');
        text
    }
}

impl Default for Object {
    fn default() -> Object {
        Object::new()
    }
}

/// A JSON array of the JSON texts `items`: `[1, 2]`.
pub fn array(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(", "))
}

/// `text` as a JSON string.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Nesting deeper than this is refused: the files read are this crate's
/// own, two levels deep; a hostile one must not exhaust the stack.
const MAX_DEPTH: usize = 64;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl Reader<'_> {
    fn error(&self, expected: &'static str) -> JsonError {
        JsonError {
            at: self.at,
            expected,
        }
    }

    fn skip_space(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        if self.bytes.get(self.at) == Some(&byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, JsonError> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("a value"))
        }
    }

    fn value(&mut self) -> Result<Json, JsonError> {
        self.skip_space();
        match self.bytes.get(self.at) {
            Some(b'{') => self.nested(|r| r.object()),
            Some(b'[') => self.nested(|r| r.array()),
            Some(b'"') => self.string().map(Json::Text),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error("a value")),
        }
    }

    fn nested(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<Json, JsonError>,
    ) -> Result<Json, JsonError> {
        if self.depth == MAX_DEPTH {
            return Err(self.error("less nesting"));
        }
        self.depth += 1;
        self.at += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    fn object(&mut self) -> Result<Json, JsonError> {
        let mut fields = Vec::new();
        if self.eat(b'}') {
            return Ok(Json::Object(fields));
        }
        loop {
            self.skip_space();
            if self.bytes.get(self.at) != Some(&b'"') {
                return Err(self.error("a key"));
            }
            let key = self.string()?;
            if !self.eat(b':') {
                return Err(self.error("':'"));
            }
            fields.push((key, self.value()?));
            if self.eat(b'}') {
                return Ok(Json::Object(fields));
            }
            if !self.eat(b',') {
                return Err(self.error("',' or '}'"));
            }
        }
    }

    fn array(&mut self) -> Result<Json, JsonError> {
        let mut items = Vec::new();
        if self.eat(b']') {
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value()?);
            if self.eat(b']') {
                return Ok(Json::Array(items));
            }
            if !self.eat(b',') {
                return Err(self.error("',' or ']'"));
            }
        }
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("");
        if text.parse::<f64>().is_err() {
            self.at = start;
            return Err(self.error("a number"));
        }
        Ok(Json::Number(text.into()))
    }

    /// A string, from its opening quote.
    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            match self.bytes.get(self.at) {
                None => return Err(self.error("'\"'")),
                Some(b'"') => {
                    self.at += 1;
                    return String::from_utf8(out).map_err(|_| self.error("UTF-8"));
                }
                Some(b'\\') => {
                    let escaped = self.bytes.get(self.at + 1).copied();
                    self.at += 2;
                    let c = match escaped {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'n') => '\n',
                        Some(b't') => '\t',
                        Some(b'r') => '\r',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'u') => self.unicode()?,
                        _ => {
                            self.at -= 2;
                            return Err(self.error("an escape"));
                        }
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(&b) => {
                    out.push(b);
                    self.at += 1;
                }
            }
        }
    }

    /// The character of a `\u` escape (its four hex digits next), a
    /// surrogate pair read whole.
    fn unicode(&mut self) -> Result<char, JsonError> {
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if !self.bytes[self.at..].starts_with(b"\\u") {
                return Err(self.error("a low surrogate"));
            }
            self.at += 2;
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(self.error("a low surrogate"));
            }
            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.error("a character"))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| self.error("four hex digits"))?;
        self.at += 4;
        Ok(digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_back_what_it_writes() {
        let text = format!(
            "{{\"a\": [1, 2.50, -3e2], \"b\": {}, \"c\": {{\"d\": null, \"e\": true}}}}",
            json_string("x\"y\\z\n\u{1}é😀")
        );
        let value = Json::parse(&text).unwrap();
        assert_eq!(
            value.get("b").and_then(Json::as_str),
            Some("x\"y\\z\n\u{1}é😀")
        );
        assert_eq!(
            value.get("a"),
            Some(&Json::Array(vec![
                Json::Number("1".into()),
                Json::Number("2.50".into()),
                Json::Number("-3e2".into())
            ]))
        );
        assert_eq!(
            value.get("c").and_then(|c| c.get("e")),
            Some(&Json::Bool(true))
        );
        assert_eq!(
            Json::parse("\"\\ud83d\\ude00\"").unwrap(),
            Json::Text("😀".into())
        );
    }

    #[test]
    fn refuses_what_is_not_json_and_says_where() {
        assert_eq!(
            Json::parse("{\"a\": 1,}"),
            Err(JsonError {
                at: 8,
                expected: "a key"
            })
        );
        assert_eq!(Json::parse("[1 2]").unwrap_err().expected, "',' or ']'");
        assert_eq!(Json::parse("{} x").unwrap_err().at, 3);
        assert_eq!(Json::parse("\"abc").unwrap_err().expected, "'\"'");
        assert_eq!(
            Json::parse("01x").unwrap_err().expected,
            "the end of the text"
        );
        let deep = "[".repeat(1000);
        assert_eq!(Json::parse(&deep).unwrap_err().expected, "less nesting");
        assert!(Json::parse("").is_err());
        assert!(Json::parse("\"\\ud800\"").is_err());
    }
}
