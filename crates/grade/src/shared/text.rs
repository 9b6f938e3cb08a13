//! Reading a program's output as a marker does: its lines, a line quoted for
//! a report, the message of a rejection, and where and how two outputs part.
//!
//! Lines are as `awk` sees them: the bytes between newlines, a last line
//! without its newline included, none at all in empty output.

use std::fmt::Write as _;

/// The lines of `data`, without their newlines.
pub fn lines(data: &[u8]) -> Vec<&[u8]> {
    if data.is_empty() {
        return Vec::new();
    }
    let data = data.strip_suffix(b"\n").unwrap_or(data);
    data.split(|&b| b == b'\n').collect()
}

/// Whether `line` has a byte other than a space, a tab or a `\r`.
pub fn has_text(line: &[u8]) -> bool {
    line.iter().any(|b| !matches!(b, b' ' | b'\t' | b'\r'))
}

/// Whether `line`, in any case, starts with `start:` or `goal:` (blanks
/// allowed before and before the colon): a board echoed by the program.
pub fn echoes_a_board(line: &[u8]) -> bool {
    let rest = trim_start_blanks(line);
    for word in [&b"start"[..], b"goal"] {
        if rest.len() >= word.len()
            && rest[..word.len()].eq_ignore_ascii_case(word)
            && trim_start_blanks(&rest[word.len()..]).first() == Some(&b':')
        {
            return true;
        }
    }
    false
}

fn trim_start_blanks(s: &[u8]) -> &[u8] {
    let skip = s.iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
    &s[skip..]
}

/// How a report shows bytes of output: `\r` and `\t` spelled out, other
/// unprintable bytes as `?`.
pub fn shown(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for &byte in bytes {
        match byte {
            b'\r' => text.push_str("\\r"),
            b'\t' => text.push_str("\\t"),
            b' '..=b'~' => text.push(byte as char),
            _ => text.push('?'),
        }
    }
    text
}

/// Line `n` (from 1) of `data`, in quotes (none when `bare`): 100 bytes of it
/// around byte `at` of `data` (from 1), `...` where cut; `end of output` when
/// there is no such line.
pub fn quote(data: &[u8], n: usize, at: usize, bare: bool) -> String {
    let q = if bare { "" } else { "'" };
    let mut at = at as i64;
    for (i, line) in lines(data).into_iter().enumerate() {
        if i + 1 < n {
            at -= line.len() as i64 + 1;
            continue;
        }
        let from = if at > 60 { (at - 40) as usize } else { 1 };
        let start = (from - 1).min(line.len());
        let end = (start + 100).min(line.len());
        return format!(
            "{}{q}{}{q}{}",
            if from > 1 { "..." } else { "" },
            shown(&line[start..end]),
            if line.len() >= from + 100 { "..." } else { "" }
        );
    }
    "end of output".into()
}

/// Line `n` (from 1) of `data` quoted by its end: the line whole when it
/// fits in 100 bytes, else its last 100 bytes after `...`; `end of output`
/// when there is no such line.
pub fn quote_end(data: &[u8], n: usize, bare: bool) -> String {
    let q = if bare { "" } else { "'" };
    match lines(data).get(n.wrapping_sub(1)) {
        None => "end of output".into(),
        Some(line) if line.len() <= 100 => format!("{q}{}{q}", shown(line)),
        Some(line) => format!("...{q}{}{q}", shown(&line[line.len() - 100..])),
    }
}

/// Whether the last 100 bytes of an echoed board's `line` (its label
/// `start:` or `goal:` apart) hold a token that is neither a number nor `b`:
/// words stuck to its end.
fn ends_in_words(line: &[u8]) -> bool {
    let tail = if line.len() > 100 {
        &line[line.len() - 100..]
    } else {
        let colon = line.iter().position(|&b| b == b':').map_or(0, |c| c + 1);
        &line[colon..]
    };
    tail.split(|b| matches!(b, b' ' | b'\t' | b'\r'))
        .any(|t| !t.is_empty() && t != b"b" && !t.iter().all(u8::is_ascii_digit))
}

/// The line of `out` that tells what a program said about bad input, quoted
/// (bare: without quotes): the first non-empty line that does not echo a
/// board; else, when the last non-empty line is an echoed board with words
/// stuck to its end (`start: 1 2 bInvalid tile`), that line by its end (see
/// [`quote_end`]); else the first non-empty line; `nothing` when there is
/// none.
pub fn message(out: &[u8], bare: bool) -> String {
    let mut first = None;
    let mut last = None;
    for (i, line) in lines(out).into_iter().enumerate() {
        if has_text(line) {
            first.get_or_insert(i + 1);
            if !echoes_a_board(line) {
                return quote(out, i + 1, 1, bare);
            }
            last = Some((i + 1, line));
        }
    }
    match (first, last) {
        (_, Some((n, line))) if ends_in_words(line) => quote_end(out, n, bare),
        (Some(n), _) => quote(out, n, 1, bare),
        _ => "nothing".into(),
    }
}

/// Where `got` parts from `expected`, as a report line says it:
/// `line L: expected 'E', got 'G'`, or `line L: no final newline after 'G'`.
pub fn difference(expected: &[u8], got: &[u8]) -> String {
    let (byte, line) = parting(expected, got);
    let expected = quote(expected, line, byte, false);
    let got = quote(got, line, byte, false);
    if expected == got {
        format!("line {line}: no final newline after {got}")
    } else {
        format!("line {line}: expected {expected}, got {got}")
    }
}

/// Where `got` parts from `expected`: the byte (from 1) and its line (from 1).
fn parting(expected: &[u8], got: &[u8]) -> (usize, usize) {
    let common = expected.iter().zip(got).take_while(|(a, b)| a == b).count();
    if common < expected.len() && common < got.len() {
        let line = 1 + expected[..common].iter().filter(|&&b| b == b'\n').count();
        (common + 1, line)
    } else {
        // One is the start of the other: they part where the shorter ends.
        let short = if got.len() < expected.len() {
            got
        } else {
            expected
        };
        let newlines = short.iter().filter(|&&b| b == b'\n').count();
        (short.len() + 1, newlines + 1)
    }
}

/// The line (from 1) where `got` parts from `expected`, as
/// [`difference`] names it.
pub fn parting_line(expected: &[u8], got: &[u8]) -> usize {
    parting(expected, got).1
}

/// Spaces and tabs collapsed to one space, none at either end.
fn collapse_blanks(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    for word in line.split(|b| matches!(b, b' ' | b'\t')) {
        if !word.is_empty() {
            if !out.is_empty() {
                out.push(b' ');
            }
            out.extend_from_slice(word);
        }
    }
    out
}

/// One output as the kinds of difference see it.
struct Shapes {
    /// Each line without its `\r`s.
    raw: Vec<Vec<u8>>,
    /// Lowercased.
    low: Vec<Vec<u8>>,
    /// Lowercased, blanks collapsed.
    spaced: Vec<Vec<u8>>,
}

impl Shapes {
    fn of(data: &[u8]) -> Shapes {
        let raw: Vec<Vec<u8>> = lines(data)
            .into_iter()
            .map(|l| l.iter().copied().filter(|&b| b != b'\r').collect())
            .collect();
        let low: Vec<Vec<u8>> = raw.iter().map(|l| l.to_ascii_lowercase()).collect();
        let spaced = low.iter().map(|l| collapse_blanks(l)).collect();
        Shapes { raw, low, spaced }
    }

    /// The non-empty lines, lowercased and blanks collapsed.
    fn dense(&self) -> Vec<&Vec<u8>> {
        self.spaced.iter().filter(|l| !l.is_empty()).collect()
    }
}

/// What, beyond the bytes, tells two different outputs apart: `line ends`,
/// `case`, `spacing` or `case, spacing`, `blank lines` (each when it explains
/// it all, in that order), else `extra lines` when every expected line comes
/// in order among more lines, else `other`.
pub fn kind_of_difference(expected: &[u8], got: &[u8]) -> &'static str {
    let (a, b) = (Shapes::of(expected), Shapes::of(got));
    if a.raw == b.raw {
        return "line ends";
    }
    if a.low == b.low {
        return "case";
    }
    if a.spaced == b.spaced {
        let caseless = a
            .raw
            .iter()
            .zip(&b.raw)
            .all(|(x, y)| collapse_blanks(x) == collapse_blanks(y));
        return if caseless { "spacing" } else { "case, spacing" };
    }
    let (da, db) = (a.dense(), b.dense());
    if da == db {
        return "blank lines";
    }
    let mut j = 0;
    for line in &db {
        if j < da.len() && *line == da[j] {
            j += 1;
        }
    }
    if j == da.len() && db.len() > da.len() {
        "extra lines"
    } else {
        "other"
    }
}

/// What is wrong with `out` as exactly one line `error: ...`, if anything.
pub fn not_one_error_line(out: &[u8]) -> Option<String> {
    let first = quote(out, 1, 1, false);
    if !first.starts_with("'error: ") {
        return Some(format!("line 1: expected 'error: ...', got {first}"));
    }
    let second = quote(out, 2, 1, false);
    if second != "end of output" {
        Some(format!("line 2: expected end of output, got {second}"))
    } else if out.last() != Some(&b'\n') {
        Some(format!("line 1: no final newline after {first}"))
    } else {
        None
    }
}

/// Whether `c` is kept out of a shown name and a one-line text: controls,
/// the bidi controls that reorder a line on screen, the separators and the
/// invisible characters that hide what follows.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{2069}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
}

/// `text` made safe for one line of a terminal, a table or a summary: the
/// characters [`is_hidden`] names written as escapes (`\n`, `\u{1B}`);
/// the rest, backslashes too, as it is (so that text already safe is left
/// the same).
pub fn one_line(text: &str) -> String {
    if !text.chars().any(is_hidden) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    out
}

/// Pushes `c` onto `out`: as `\n`, `\t` or `\r`, as `\u{..}` when
/// [`is_hidden`] names it, else as it is.
pub fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        c if is_hidden(c) => {
            let _ = write!(out, "\\u{{{:X}}}", c as u32);
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_escapes_only_what_would_break_a_line() {
        assert_eq!(one_line("plain \\ text"), "plain \\ text");
        assert_eq!(one_line("a\x1b[2Kb\rc"), "a\\u{1B}[2Kb\\rc");
        assert_eq!(one_line(&one_line("x\ny")), one_line("x\ny"));
    }

    #[test]
    fn lines_are_awk_records() {
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"\n"), vec![&b""[..]]);
        assert_eq!(lines(b"a\nb"), vec![&b"a"[..], b"b"]);
        assert_eq!(lines(b"a\nb\n"), vec![&b"a"[..], b"b"]);
    }

    #[test]
    fn a_quote_shows_100_bytes_around_the_place() {
        assert_eq!(quote(b"ab\tc\r\n", 1, 1, false), "'ab\\tc\\r'");
        assert_eq!(quote(b"x\xff\n", 1, 1, true), "x?");
        assert_eq!(quote(b"one\n", 2, 1, false), "end of output");
        let long = [b'7'; 300];
        let q = quote(&long, 1, 150, false);
        assert_eq!(q, format!("...'{}'...", "7".repeat(100)));
        // Byte 150 of the file is byte 146 of line 2.
        let mut two = b"abc\n".to_vec();
        two.extend_from_slice(&long);
        assert_eq!(quote(&two, 2, 150, false), q);
    }

    #[test]
    fn the_message_skips_echoed_boards() {
        assert_eq!(
            message(b"start: 1 2\n Goal : 3\n\nbad input\n", false),
            "'bad input'"
        );
        assert_eq!(message(b"start: 1 2\n", true), "start: 1 2");
        assert_eq!(message(b" \t\r\n", false), "nothing");
        // A message stuck to the end of a long echoed board is quoted by
        // the end of its line; a long echo alone by its start.
        let mut echo = b"start: ".to_vec();
        echo.extend(b"1 2 ".repeat(30_000));
        let mut stuck = echo.clone();
        stuck.extend(b"bInvalid input: tile 0\n");
        assert_eq!(
            message(&stuck, false),
            format!("...'2 {}bInvalid input: tile 0'", "1 2 ".repeat(19))
        );
        echo.extend(b"b\n");
        assert_eq!(
            message(&echo, false),
            format!("'start: {}'...", &"1 2 ".repeat(24)[..93])
        );
        assert_eq!(
            message(b"start: 1 2 3 b\ngoal: 1 2 3 bad tile\n", false),
            "'goal: 1 2 3 bad tile'"
        );
        assert_eq!(
            message(b"start: 1 2 3 b\ngoal: 1 2\n", false),
            "'start: 1 2 3 b'"
        );
        assert_eq!(quote_end(b"ab\n", 1, true), "ab");
        assert_eq!(quote_end(b"ab\n", 2, true), "end of output");
    }

    #[test]
    fn a_difference_names_the_line_and_both_sides() {
        assert_eq!(
            difference(b"a\nsolvable\n", b"a\nSolvable\n"),
            "line 2: expected 'solvable', got 'Solvable'"
        );
        assert_eq!(
            difference(b"a\nb\n", b"a\nb"),
            "line 2: no final newline after 'b'"
        );
        assert_eq!(
            difference(b"a\n", b"a\n\ndone\n"),
            "line 2: expected end of output, got ''"
        );
    }

    #[test]
    fn the_kind_of_difference_is_the_first_that_explains_it_all() {
        assert_eq!(kind_of_difference(b"a b\n", b"a b\r\n"), "line ends");
        assert_eq!(kind_of_difference(b"a b\n", b"A b\n"), "case");
        assert_eq!(kind_of_difference(b"a b\n", b"a  b \n"), "spacing");
        assert_eq!(kind_of_difference(b"a b\n", b"A  b\n"), "case, spacing");
        assert_eq!(kind_of_difference(b"a\nb\n", b"a\n\nb\n"), "blank lines");
        assert_eq!(kind_of_difference(b"a\nb\n", b"a\nx\nb\n"), "extra lines");
        assert_eq!(kind_of_difference(b"a\nb\n", b"a\nc\n"), "other");
    }

    #[test]
    fn one_error_line_is_checked_strictly() {
        assert_eq!(not_one_error_line(b"error: x\n"), None);
        assert_eq!(
            not_one_error_line(b"error: x"),
            Some("line 1: no final newline after 'error: x'".into())
        );
        assert_eq!(
            not_one_error_line(b"error: x\ny\n"),
            Some("line 2: expected end of output, got 'y'".into())
        );
        assert_eq!(
            not_one_error_line(b""),
            Some("line 1: expected 'error: ...', got end of output".into())
        );
    }

    #[test]
    fn an_echoed_board_is_start_or_goal_and_a_colon() {
        assert!(echoes_a_board(b"  START :1"));
        assert!(echoes_a_board(b"goal:"));
        assert!(!echoes_a_board(b"goals: 1"));
        assert!(!echoes_a_board(b"error: start: 1"));
    }
}
