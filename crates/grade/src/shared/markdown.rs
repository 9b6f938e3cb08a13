//! Markdown the grading writes (the feedback, `NAME.feedback.md`): text from
//! a submission or its programs made inert, the one escaper for that
//! language, as `publishing/html.rs`'s `escape` is HTML's.
//!
//! A student's folder name, a file name in their archive, what their
//! program printed: any of it may be written to look like Markdown (`[x](
//! javascript:...)`, `<script>`, `**`, a backtick), and a feedback file is
//! read where Markdown is rendered (Gradescope, PrairieLearn, a forge). So
//! such text reaches the feedback only through [`escape`] (inside a line
//! of text) or [`code`] (as a code span): neither can start a link, an
//! image, raw HTML, an entity, emphasis, a code span or a heading's end,
//! nor end the line. Both leave text that holds none of these as it is,
//! byte for byte (most names and messages).

use crate::shared::text::one_line;

/// `text` as Markdown text inside a line (never a line's start), shown as
/// it is by a CommonMark (or GitHub) reader: a backslash before every
/// character that could start markup here (`` ` `` `*` `[` `]` `~`, `_`
/// but between letters or digits, `<` before what could be a tag or an
/// autolink, `&` before what could be an entity, `#` in a run that ends
/// the text, and a backslash before punctuation or at the end); control
/// characters (a line's end too) written as escapes ([`one_line`]).
pub fn escape(text: &str) -> String {
    let text = one_line(text);
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let alphanumeric = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(|c| c.is_alphanumeric())
    };
    // Where the run of `#` that ends the text begins (a heading's closing
    // sequence), when it does.
    let hashes = chars.iter().rev().take_while(|c| **c == '#').count();
    let closing = chars.len() - hashes;
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let marks = match c {
            '`' | '*' | '[' | ']' | '~' => true,
            '_' => !(alphanumeric(i.checked_sub(1)) && alphanumeric(Some(i + 1))),
            '<' => next.is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')),
            '&' => entity_at(&chars[i + 1..]),
            '#' => hashes > 0 && i >= closing,
            '\\' => next.is_none_or(|n| n.is_ascii_punctuation()),
            _ => false,
        };
        if marks {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Whether `rest` (what follows a `&`) makes it an entity: a name or
/// `#` and digits, then `;`.
fn entity_at(rest: &[char]) -> bool {
    let name = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == '#')
        .count();
    name > 0 && rest.get(name) == Some(&';')
}

/// `text` as a Markdown code span: fenced by one backtick more than its
/// longest run of them, a space inside each fence when it starts or ends
/// with a backtick or a space (which a reader takes off); control
/// characters written as escapes ([`one_line`]). `puzzle.c` is
/// `` `puzzle.c` ``.
pub fn code(text: &str) -> String {
    let text = one_line(text);
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.is_empty() || text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_left_as_it_is() {
        for text in [
            "ann",
            "josé",
            "o\\tdd",
            "Invalid input: start board: a tile appears twice",
            "exit status 0 after 'missing', expected EXIT_FAILURE (1)",
            "puzzle.c:91:2: error: #error \"this submission does not compile\"",
            "a & b, 3 < 4 > 2, snake_case_name, C# 2",
        ] {
            assert_eq!(escape(text), text);
        }
        assert_eq!(code("puzzle.c"), "`puzzle.c`");
    }

    #[test]
    fn hostile_text_starts_no_markup() {
        assert_eq!(
            escape("x](javascript:alert(1))"),
            "x\\](javascript:alert(1))"
        );
        assert_eq!(escape("[a](http://e)"), "\\[a\\](http://e)");
        assert_eq!(escape("![i](x)"), "!\\[i\\](x)");
        assert_eq!(escape("<script>"), "\\<script>");
        assert_eq!(escape("<http://e>"), "\\<http://e>");
        assert_eq!(
            escape("**b** _i_ `c` ~~s~~"),
            "\\*\\*b\\*\\* \\_i\\_ \\`c\\` \\~\\~s\\~\\~"
        );
        assert_eq!(escape("&lt;&#60;"), "\\&lt;\\&#60;");
        // A line's end, and a heading's closing sequence.
        assert_eq!(escape("# x\n# y"), "# x\\n# y");
        assert_eq!(escape("x ##"), "x \\#\\#");
        assert_eq!(escape("end\\"), "end\\\\");
        assert_eq!(escape("\\*"), "\\\\\\*");
        // A span: fences longer than any run inside.
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x``"), "``` `x`` ```");
        assert_eq!(code("a\nb"), "`a\\nb`");
    }
}
