//! The choices the assignment leaves open, and a fixture as a reader that
//! takes every one of them the lenient way sees it.
//!
//! The assignment says each line is "a sequence of integers, separated by any
//! number (>0) of blanks and/or tabs", and "a single letter b", and nothing
//! more: a strict reader rejects each of these, a lenient one accepts it.

/// One choice the assignment leaves open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenChoice {
    /// A UTF-8 byte-order mark at the start.
    ByteOrderMark,
    /// A `\r` before the newline.
    CrLf,
    /// Leading zeros, `007`.
    LeadingZeros,
    /// A `+` sign, `+7`.
    PlusSign,
    /// An empty or blank line before a board.
    BlankLine,
    /// Lines after the goal line.
    LinesAfter,
}

impl OpenChoice {
    /// The choice in words, as reports name it.
    pub fn words(self) -> &'static str {
        match self {
            OpenChoice::ByteOrderMark => "a byte-order mark",
            OpenChoice::CrLf => "CRLF line ends",
            OpenChoice::LeadingZeros => "leading zeros",
            OpenChoice::PlusSign => "a '+' sign",
            OpenChoice::BlankLine => "an empty or blank line before a board",
            OpenChoice::LinesAfter => "lines after the goal",
        }
    }
}

/// Choices in words, joined by `, `.
pub fn in_words(choices: &[OpenChoice]) -> String {
    let words: Vec<&str> = choices.iter().map(|c| c.words()).collect();
    words.join(", ")
}

/// `fixture` as a reader that takes every open choice the lenient way would
/// see it (a byte-order mark at the start dropped, a `\r` at the end of a
/// line dropped, empty and blank lines before a board skipped, `+` signs and
/// leading zeros dropped, nothing after the goal line), and the choices it
/// holds, in the order they first occur. Only these: anything else, such as
/// a lone `\r` inside a line or a vertical tab, is wrong under any reading.
pub fn lenient_reading(fixture: &[u8]) -> (Vec<u8>, Vec<OpenChoice>) {
    let mut choices = Vec::new();
    let mut note = |choice| {
        if !choices.contains(&choice) {
            choices.push(choice);
        }
    };
    let mut out = Vec::with_capacity(fixture.len());
    let mut boards = 0;
    for (i, line) in crate::shared::text::lines(fixture).into_iter().enumerate() {
        let mut line = line;
        if i == 0 {
            if let Some(rest) = line.strip_prefix(b"\xEF\xBB\xBF") {
                line = rest;
                note(OpenChoice::ByteOrderMark);
            }
        }
        if let Some(rest) = line.strip_suffix(b"\r") {
            line = rest;
            note(OpenChoice::CrLf);
        }
        if boards == 2 {
            note(OpenChoice::LinesAfter);
            continue;
        }
        if line.iter().all(|&b| b == b' ' || b == b'\t') {
            note(OpenChoice::BlankLine);
            continue;
        }
        if has_sign_or_zero(line) {
            // Tokens rejoined by single spaces (a blank at either end stays
            // as one space, as awk's split leaves an empty first or last field).
            let mut joined = Vec::with_capacity(line.len());
            for (k, token) in split_blanks(line).into_iter().enumerate() {
                let mut token = token;
                if token.len() > 1 && token[0] == b'+' && token[1..].iter().all(u8::is_ascii_digit)
                {
                    token = &token[1..];
                    note(OpenChoice::PlusSign);
                }
                if token.len() > 1 && token[0] == b'0' && token.iter().all(u8::is_ascii_digit) {
                    let zeros = token.iter().take_while(|&&b| b == b'0').count();
                    token = if zeros == token.len() {
                        b"0"
                    } else {
                        &token[zeros..]
                    };
                    note(OpenChoice::LeadingZeros);
                }
                if k > 0 {
                    joined.push(b' ');
                }
                joined.extend_from_slice(token);
            }
            out.extend_from_slice(&joined);
        } else {
            out.extend_from_slice(line);
        }
        out.push(b'\n');
        boards += 1;
    }
    (out, choices)
}

/// `(^|[ \t])(\+|0[0-9])`: a token that starts with a sign or a zero and a digit.
fn has_sign_or_zero(line: &[u8]) -> bool {
    (0..line.len()).any(|i| {
        (i == 0 || line[i - 1] == b' ' || line[i - 1] == b'\t')
            && (line[i] == b'+'
                || (line[i] == b'0' && line.get(i + 1).is_some_and(u8::is_ascii_digit)))
    })
}

/// `line` split at runs of blanks, an empty field first or last where the
/// line starts or ends with blanks.
fn split_blanks(line: &[u8]) -> Vec<&[u8]> {
    let mut fields = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < line.len() {
        if line[i] == b' ' || line[i] == b'\t' {
            fields.push(&line[start..i]);
            while i < line.len() && (line[i] == b' ' || line[i] == b'\t') {
                i += 1;
            }
            start = i;
        } else {
            i += 1;
        }
    }
    fields.push(&line[start..]);
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use OpenChoice::*;

    fn read(text: &[u8]) -> (String, Vec<OpenChoice>) {
        let (out, choices) = lenient_reading(text);
        (String::from_utf8(out).unwrap(), choices)
    }

    #[test]
    fn a_plain_fixture_has_no_open_choice() {
        assert_eq!(
            read(b"1 2 3 b\n1 2 b 3"),
            ("1 2 3 b\n1 2 b 3\n".into(), vec![])
        );
    }

    #[test]
    fn each_choice_is_found_and_taken() {
        assert_eq!(
            read(b"\xEF\xBB\xBF1 2 3 b\r\n1 2 b 3\r\n"),
            ("1 2 3 b\n1 2 b 3\n".into(), vec![ByteOrderMark, CrLf])
        );
        assert_eq!(
            read(b"\n \t\n1 2 3 b\n1 2 b 3\nx\n"),
            ("1 2 3 b\n1 2 b 3\n".into(), vec![BlankLine, LinesAfter])
        );
        assert_eq!(
            read(b" +1 02 3 b\t\n1 2 b 000\n"),
            (" 1 2 3 b \n1 2 b 0\n".into(), vec![PlusSign, LeadingZeros])
        );
        assert_eq!(
            read(b"+007 2 3 b\n"),
            ("7 2 3 b\n".into(), vec![PlusSign, LeadingZeros])
        );
    }

    #[test]
    fn the_words_join() {
        assert_eq!(
            in_words(&[LinesAfter, CrLf]),
            "lines after the goal, CRLF line ends"
        );
    }
}
