//! HTML the grading writes: text escaped for HTML, names made into links,
//! the pages' style, and the feedback's Markdown as a page of its own
//! (`NAME.feedback.html`, beside `NAME.feedback.md`).
//!
//! Every piece of text that reaches a page goes through [`escape`] (or
//! [`href`] for a link): submission names are students' folder names and
//! the feedback quotes their programs' output, so any of it may be hostile
//! (`<script>`, quotes, `&`). What `escape` makes is [`Html`], a type
//! whose only makers escape (or take the source's own markup), and the
//! page builders here take their text as `Html`, so that a caller cannot
//! hand them a name it forgot to escape. The Markdown read here is the subset
//! [`crate::marking::feedback`] writes: headings, paragraphs, `- ` lists, code
//! indented by four spaces, `` `code` `` and `**strong**`; anything else is
//! text.

use std::fmt::{self, Write as _};
use std::ops::Deref;

/// HTML that is safe to put in a page: text escaped ([`escape`]), or the
/// page's own markup as written in the source ([`Html::markup`]: a
/// `&'static str`, never a value read while grading). It has no other
/// maker, so a student's name reaches a page builder that takes `Html`
/// only escaped. It reads as the `str` it holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Html(String);

impl Html {
    /// The page's own `markup`, as the source writes it.
    pub fn markup(markup: &'static str) -> Html {
        Html(markup.to_string())
    }

    /// `more` appended.
    pub fn push(&mut self, more: &Html) {
        self.0.push_str(&more.0);
    }
}

impl Deref for Html {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Html {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Html {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<&str> for Html {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// `text` with `&`, `<`, `>`, `"` and `'` escaped: safe as an element's text
/// and as a quoted attribute's value.
pub fn escape(text: &str) -> Html {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    escape_into(&mut out, text);
    Html(out)
}

/// [`escape`], appended to `out` (this file's own builders, which make
/// their `Html` whole).
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
}

/// The relative link to the file `name` beside the page: every byte but
/// letters, digits and `-._~` percent-encoded (a name may hold `#`, `?`,
/// `%`, spaces or quotes), so that it is also safe in an attribute.
pub fn href(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for &b in name.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    // A name that starts like a scheme or a path is still a file here.
    format!("./{out}")
}

/// The style the pages share: the system's fonts, a readable measure, wide
/// tables scrolled in their own box in a narrow window and whole on paper.
/// The class page's fixture table is as wide as the page, its columns set
/// (long names wrap, a cause is cut to its line); its folded lists are
/// `<details>`. Every colour of text is at WCAG's 4.5:1 against the white
/// page and the headers' grey (see the tests), and none says anything
/// alone: a flag is also a word.
pub const STYLE: &str = "\
:root{color-scheme:light;--ink:#1b1f23;--muted:#57606a;--line:#d0d7de;--bad:#b3261e;--good:#1a7f37}
*{box-sizing:border-box}
body{margin:0 auto;padding:1rem;max-width:72rem;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;color:var(--ink);background:#fff}
h1{font-size:1.5rem;margin:.2rem 0 .6rem}h2{font-size:1.2rem;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line)}h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
p{margin:.4rem 0}code,pre{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.9em}
pre{background:#f6f8fa;border:1px solid var(--line);padding:.5rem;overflow-x:auto;white-space:pre}
table{border-collapse:collapse;margin:.4rem 0;font-size:.9rem}
th,td{border:1px solid var(--line);padding:.2rem .45rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.2rem 0}
.wide{overflow-x:auto;max-width:100%}
.muted{color:var(--muted)}.flag{color:var(--bad);font-weight:600}.ok{color:var(--good)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem .8rem;margin:.4rem 0}dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
svg{max-width:100%;height:auto;display:block}figure{margin:.4rem 0;flex:1 1 26rem;max-width:40rem}
.chart{display:flex;flex-wrap:wrap;gap:0 1.5rem;align-items:flex-start}.nw{white-space:nowrap}
td.note{max-width:28rem;overflow-wrap:anywhere}
table.fixtures{table-layout:fixed;width:100%}table.fixtures td{overflow-wrap:anywhere}
col.c-fx{width:34%}col.c-pass{width:8.5rem}col.c-disc{width:6.5rem}
td.who .sub{display:inline-block;max-width:11em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:top}
.cause{display:inline-block;max-width:100%;vertical-align:top;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}.legend{font-size:.88rem;color:var(--muted)}.legend strong{color:var(--ink)}
details.more>summary .first{display:inline-block;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:top}
details.more>summary{cursor:pointer}details.more>div{margin:.15rem 0 .15rem 1rem}
table.changes{table-layout:fixed;width:100%}table.changes td{overflow-wrap:anywhere}col.c-fc{width:40%}
table.subs{table-layout:fixed;width:100%}table.subs td{overflow-wrap:anywhere}col.c-name{width:16%}col.c-lost{width:17%}col.c-classes{width:15%}col.c-s{width:3.6rem}col.c-n{width:3.9rem}col.c-t{width:4.2rem}
.index{line-height:1.7}.index a{overflow-wrap:anywhere}
nav a{margin-right:.8rem}
@media (max-width:40rem){body{padding:.5rem;font-size:14px}td.fx{overflow-wrap:anywhere;min-width:10rem}table.fixtures,table.subs,table.changes{table-layout:auto;width:auto}col.c-fc,col.c-fx,col.c-pass,col.c-disc,col.c-name,col.c-lost,col.c-classes,col.c-s,col.c-n,col.c-t{width:auto}td.who{min-width:16rem}dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.3rem}}
@media print{body{max-width:none;padding:0;font-size:10pt}.wide{overflow:visible}table{font-size:8.5pt}thead{display:table-header-group}tr,svg,pre{break-inside:avoid}a{color:inherit;text-decoration:none}nav{display:none}}
";

/// The contrast ratio of the colours `a` and `b` (`#rrggbb`) as WCAG 2
/// defines it: `(L1 + 0.05) / (L2 + 0.05)`, `L1` the lighter's relative
/// luminance (`0.2126 R + 0.7152 G + 0.0722 B` of the channels made
/// linear from sRGB), from 1 (the same) to 21 (black on white). Text needs
/// 4.5, the marks of a chart 3 (WCAG 2.2, 1.4.3 and 1.4.11).
#[cfg(test)]
pub(crate) fn contrast_ratio(a: &str, b: &str) -> f64 {
    let luminance = |hex: &str| {
        let hex = hex.strip_prefix('#').expect("#rrggbb");
        let channel = |i: usize| {
            let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
    };
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// The start of a page titled `title`, its `<body>` open.
pub fn head(title: &Html) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n"
    )
}

/// The feedback `markdown` of the submission `name` as a page of its own.
pub fn feedback_page(name: &Html, markdown: &str) -> String {
    let mut title = Html::markup("Feedback for ");
    title.push(name);
    let mut out = head(&title);
    out.push_str("<main>\n");
    out.push_str(&markdown_to_html(markdown));
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// What a line of the feedback's Markdown is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Blank,
    Heading(usize),
    Item,
    Code,
    Text,
}

fn kind(line: &str) -> Kind {
    if line.starts_with("    ") {
        return Kind::Code;
    }
    if line.trim().is_empty() {
        return Kind::Blank;
    }
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
        return Kind::Heading(hashes);
    }
    if line.starts_with("- ") {
        return Kind::Item;
    }
    Kind::Text
}

/// The feedback's Markdown (the subset it writes) as HTML, every piece of
/// text escaped.
pub fn markdown_to_html(markdown: &str) -> Html {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut out = String::with_capacity(markdown.len() * 5 / 4 + 64);
    let mut i = 0;
    while i < lines.len() {
        match kind(lines[i]) {
            Kind::Blank => i += 1,
            Kind::Heading(level) => {
                let text = lines[i][level..].trim();
                let _ = writeln!(out, "<h{level}>{}</h{level}>", inline(text));
                i += 1;
            }
            Kind::Item => {
                out.push_str("<ul>\n");
                while i < lines.len() && kind(lines[i]) == Kind::Item {
                    let _ = writeln!(out, "<li>{}</li>", inline(&lines[i][2..]));
                    i += 1;
                }
                out.push_str("</ul>\n");
            }
            Kind::Code => {
                // A code block runs on over blank lines that more code
                // follows.
                let mut end = i;
                let mut j = i;
                while j < lines.len() && matches!(kind(lines[j]), Kind::Code | Kind::Blank) {
                    if kind(lines[j]) == Kind::Code {
                        end = j + 1;
                    }
                    j += 1;
                }
                out.push_str("<pre><code>");
                for line in &lines[i..end] {
                    escape_into(&mut out, line.get(4..).unwrap_or(""));
                    out.push('\n');
                }
                out.push_str("</code></pre>\n");
                i = end;
            }
            Kind::Text => {
                let start = i;
                while i < lines.len() && kind(lines[i]) == Kind::Text {
                    i += 1;
                }
                let text = lines[start..i].join("\n");
                let _ = writeln!(out, "<p>{}</p>", inline(&text));
            }
        }
    }
    Html(out)
}

/// A line's text with code spans (`` `code` ``, fenced by a run of
/// backticks that a run of the same length ends) and `**strong**` made
/// elements, a backslash before punctuation read as that character
/// (`shared/markdown.rs` writes such escapes), the rest escaped; a fence
/// or `**` without its pair is text.
fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let bytes = text.as_bytes();
    // Every marker is ASCII, so each index taken here is a char boundary.
    let (mut i, mut from) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                escape_into(&mut out, &text[from..i]);
                escape_into(&mut out, &text[i + 1..i + 2]);
                i += 2;
                from = i;
            }
            b'`' => {
                let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
                match closing_fence(bytes, i + run, run) {
                    Some(end) => {
                        escape_into(&mut out, &text[from..i]);
                        let mut code = &text[i + run..end];
                        if code.len() >= 2
                            && code.starts_with(' ')
                            && code.ends_with(' ')
                            && !code.trim().is_empty()
                        {
                            code = &code[1..code.len() - 1];
                        }
                        out.push_str("<code>");
                        escape_into(&mut out, code);
                        out.push_str("</code>");
                        i = end + run;
                        from = i;
                    }
                    None => i += run,
                }
            }
            b'*' if bytes.get(i + 1) == Some(&b'*') => match strong_end(bytes, i + 2) {
                Some(end) if end > i + 2 => {
                    escape_into(&mut out, &text[from..i]);
                    out.push_str("<strong>");
                    out.push_str(&inline(&text[i + 2..end]));
                    out.push_str("</strong>");
                    i = end + 2;
                    from = i;
                }
                _ => i += 2,
            },
            _ => i += 1,
        }
    }
    escape_into(&mut out, &text[from..]);
    out
}

/// Where the run of exactly `run` backticks that closes a code span opened
/// before `from` starts, if there is one.
fn closing_fence(bytes: &[u8], from: usize, run: usize) -> Option<usize> {
    let mut i = from;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let here = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            if here == run {
                return Some(i);
            }
            i += here;
        } else {
            i += 1;
        }
    }
    None
}

/// Where the `**` that closes a strong span opened before `from` starts
/// (an escaped `*` is no part of one), if there is one.
fn strong_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i + 1 < bytes.len() {
        match bytes[i] {
            b'\\' if bytes[i + 1].is_ascii_punctuation() => i += 2,
            b'*' if bytes[i + 1] == b'*' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page builder takes `Html`, which only escaping (or the source's
    /// own markup) makes: a name reaches the page escaped however it is
    /// put together.
    #[test]
    fn html_is_made_only_by_escaping_or_the_sources_markup() {
        let name = escape("<img src=x onerror='a'>");
        let mut title = Html::markup("Feedback for ");
        title.push(&name);
        assert_eq!(title, "Feedback for &lt;img src=x onerror=&#39;a&#39;&gt;");
        let page = head(&title);
        assert!(page.contains("<title>Feedback for &lt;img src=x"), "{page}");
        assert!(!page.contains("<img"), "{page}");
        let cells: Vec<Html> = vec![escape("a&b"), escape("<c>")];
        assert_eq!(cells.join(", "), "a&amp;b, &lt;c&gt;");
    }

    #[test]
    fn text_is_escaped_everywhere_it_goes() {
        assert_eq!(
            escape("<img src=x onerror='a'>&\"b\""),
            "&lt;img src=x onerror=&#39;a&#39;&gt;&amp;&quot;b&quot;"
        );
        assert_eq!(href("ann"), "./ann");
        assert_eq!(
            href("a b#c?d%\"<'.feedback.html"),
            "./a%20b%23c%3Fd%25%22%3C%27.feedback.html"
        );
        assert_eq!(href("é"), "./%C3%A9");
        let page = feedback_page(&escape("<b>x</b>"), "# Feedback for <b>x</b>\n");
        assert!(page.contains("<title>Feedback for &lt;b&gt;x&lt;/b&gt;</title>"));
        assert!(page.contains("<h1>Feedback for &lt;b&gt;x&lt;/b&gt;</h1>"));
        assert!(!page.contains("<b>"));
    }

    #[test]
    fn every_colour_of_text_reads_at_wcag_contrast() {
        // The formula, on values WCAG's own examples give.
        assert!((contrast_ratio("#000000", "#ffffff") - 21.0).abs() < 1e-9);
        assert!((contrast_ratio("#777777", "#ffffff") - 4.48).abs() < 0.01);
        assert_eq!(contrast_ratio("#3b6ea8", "#3b6ea8"), 1.0);
        // Every colour the style gives text, against the page and the
        // headers' grey.
        let root = &STYLE[STYLE.find(":root{").unwrap()..];
        let root = &root[..root.find('}').unwrap()];
        let mut seen = Vec::new();
        for var in root.split(';').filter_map(|d| d.strip_prefix("--")) {
            let (name, colour) = var.split_once(':').unwrap();
            if name == "line" {
                continue; // a table's rules: they carry no meaning
            }
            for background in ["#ffffff", "#f6f8fa"] {
                let ratio = contrast_ratio(colour, background);
                assert!(
                    ratio >= 4.5,
                    "--{name} {colour} on {background}: {ratio:.2}"
                );
            }
            seen.push(name);
        }
        assert_eq!(seen, ["ink", "muted", "bad", "good"]);
    }

    /// What `shared/markdown.rs` escapes reads back as the text it was.
    #[test]
    fn markdown_escapes_read_back_as_their_text() {
        use crate::shared::markdown;
        for text in [
            "x](javascript:alert(1))",
            "<img src=x onerror='a'> & **b** `c` _d_ ~e~ [f] g\\",
            "C:\\dir\\*.c \\\\server",
            "# x\n# y ##",
        ] {
            let line = format!("- {}: {}", markdown::code(text), markdown::escape(text));
            let html = markdown_to_html(&line);
            let plain = crate::shared::text::one_line(text);
            let shown = escape(&plain);
            assert_eq!(
                html,
                format!("<ul>\n<li><code>{shown}</code>: {shown}</li>\n</ul>\n").as_str(),
                "{text}"
            );
        }
        let heading = markdown_to_html(&format!("# Feedback for {}", markdown::escape("x ##")));
        assert_eq!(heading, "<h1>Feedback for x ##</h1>\n");
    }

    #[test]
    fn the_feedback_subset_of_markdown_becomes_html() {
        let markdown = "# Feedback for ann\n\nScore: **90.00 of 100.00**.\n\n\
             ## Faults (each costs marks)\n\n### WRONG VERDICT on 2 fixtures\n\n\
             The smallest: `Tests/sol_a.inp` (12 bytes).\n\nIts input:\n\n    1 2\n    \n    3 <b>\n\n\
             What your program did: 'unsolvable', with a ` alone and ** too\n\n\
             - `Tests/a`: x < y\n- and 3 more\n\nSee `./puzzle --explain < FILE`.\n";
        let html = markdown_to_html(markdown);
        assert_eq!(
            html,
            "<h1>Feedback for ann</h1>\n<p>Score: <strong>90.00 of 100.00</strong>.</p>\n\
             <h2>Faults (each costs marks)</h2>\n<h3>WRONG VERDICT on 2 fixtures</h3>\n\
             <p>The smallest: <code>Tests/sol_a.inp</code> (12 bytes).</p>\n<p>Its input:</p>\n\
             <pre><code>1 2\n\n3 &lt;b&gt;\n</code></pre>\n\
             <p>What your program did: &#39;unsolvable&#39;, with a ` alone and ** too</p>\n\
             <ul>\n<li><code>Tests/a</code>: x &lt; y</li>\n<li>and 3 more</li>\n</ul>\n\
             <p>See <code>./puzzle --explain &lt; FILE</code>.</p>\n"
        );
    }
}
