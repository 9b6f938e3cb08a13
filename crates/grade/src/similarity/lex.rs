//! One lexer for the C family (`.c .h .cc .cpp .hpp .java`): bytes in,
//! tokens out, each with its file and line. It never fails: bytes that are
//! not UTF-8, a stray quote, an unterminated comment or a binary blob are
//! read as something (an identifier, the rest of a line, the rest of the
//! file), never refused. Comments, layout and the preprocessor's lines are
//! dropped here; the names a `#define` gives are kept aside, for they are
//! the submission's own names.
//!
//! Each language has its own keywords ([`Lang`]): `new`, `class` or
//! `this` are names in C and keywords in Java and C++.

use std::collections::HashMap;

/// A language of the C family, from a file's suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// `.c`, `.h`.
    C,
    /// `.cc`, `.cpp`, `.hpp`.
    Cpp,
    /// `.java`.
    Java,
}

impl Lang {
    /// The language of a file named `path`, if it is one of the family.
    pub fn of_path(path: &str) -> Option<Lang> {
        let suffix = path.rsplit_once('.')?.1.to_ascii_lowercase();
        match suffix.as_str() {
            "c" | "h" => Some(Lang::C),
            "cc" | "cpp" | "hpp" => Some(Lang::Cpp),
            "java" => Some(Lang::Java),
            _ => None,
        }
    }
}

/// The keywords the parser and the normal form know, of every language
/// (which are keywords in which language: [`keyword`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kw {
    If,
    Else,
    For,
    While,
    Do,
    Switch,
    Case,
    Default,
    Break,
    Continue,
    Return,
    Goto,
    Sizeof,
    Struct,
    Union,
    Enum,
    Typedef,
    /// A word that makes or qualifies a type: `int`, `unsigned`, `const`,
    /// `static`, `public`, `final`...
    Type,
    /// `static`, `private` (what hides a function from other files).
    Private,
    Class,
    Interface,
    Namespace,
    New,
    Delete,
    This,
    Super,
    True,
    False,
    Null,
    Try,
    Catch,
    Finally,
    Throw,
    Throws,
    Instanceof,
    Import,
    Package,
    Extends,
    Implements,
    Template,
    Using,
    Operator,
    Synchronized,
}

/// The keyword `word` is in `lang`, if it is one.
pub fn keyword(lang: Lang, word: &[u8]) -> Option<Kw> {
    use Kw::*;
    let common = match word {
        b"if" => If,
        b"else" => Else,
        b"for" => For,
        b"while" => While,
        b"do" => Do,
        b"switch" => Switch,
        b"case" => Case,
        b"default" => Default,
        b"break" => Break,
        b"continue" => Continue,
        b"return" => Return,
        b"goto" => Goto,
        b"int" | b"char" | b"short" | b"long" | b"float" | b"double" | b"void" | b"signed"
        | b"unsigned" | b"const" | b"volatile" => Type,
        b"static" => Private,
        b"enum" => Enum,
        b"true" => True,
        b"false" => False,
        _ if lang == Lang::Java => return java_keyword(word),
        _ => return c_keyword(lang, word),
    };
    Some(common)
}

/// The keywords of C, and C++'s besides, that are not Java's too.
fn c_keyword(lang: Lang, word: &[u8]) -> Option<Kw> {
    use Kw::*;
    let both = match word {
        b"sizeof" => Some(Sizeof),
        b"struct" => Some(Struct),
        b"union" => Some(Union),
        b"typedef" => Some(Typedef),
        b"extern" | b"register" | b"auto" | b"inline" | b"bool" => Some(Type),
        _ => None,
    };
    if both.is_some() {
        return both;
    }
    if lang == Lang::C {
        return matches!(word, b"restrict" | b"_Bool").then_some(Type);
    }
    Some(match word {
        b"virtual" | b"explicit" | b"friend" | b"mutable" | b"constexpr" | b"typename"
        | b"public" | b"protected" => Type,
        b"private" => Private,
        b"class" => Class,
        b"namespace" => Namespace,
        b"new" => New,
        b"delete" => Delete,
        b"this" => This,
        b"nullptr" => Null,
        b"try" => Try,
        b"catch" => Catch,
        b"throw" => Throw,
        b"template" => Template,
        b"using" => Using,
        b"operator" => Operator,
        _ => return None,
    })
}

/// The keywords of Java that are not C's too.
fn java_keyword(word: &[u8]) -> Option<Kw> {
    use Kw::*;
    Some(match word {
        b"boolean" | b"byte" | b"final" | b"public" | b"protected" | b"abstract" | b"native"
        | b"transient" | b"strictfp" | b"var" => Type,
        b"private" => Private,
        b"class" | b"record" => Class,
        b"interface" => Interface,
        b"new" => New,
        b"this" => This,
        b"super" => Super,
        b"null" => Null,
        b"try" => Try,
        b"catch" => Catch,
        b"finally" => Finally,
        b"throw" => Throw,
        b"throws" => Throws,
        b"instanceof" => Instanceof,
        b"import" => Import,
        b"package" => Package,
        b"extends" => Extends,
        b"implements" => Implements,
        b"synchronized" => Synchronized,
        _ => return None,
    })
}

/// The punctuators of the family, longest first where one begins another.
pub const PUNCTS: [&str; 53] = [
    ">>>=", "<<=", ">>=", ">>>", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
    "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "+", "-", "*", "/", "%", "=", "<",
    ">", "!", "~", "&", "|", "^", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "@", "#",
    "\\", "$",
];

/// A punctuator, as its index in [`PUNCTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct P(pub u8);

impl P {
    /// The punctuator spelt `text` (one of [`PUNCTS`]).
    pub fn of(text: &str) -> P {
        match PUNCTS.iter().position(|p| *p == text) {
            Some(i) => P(i as u8),
            None => panic!("no punctuator {text}"),
        }
    }

    /// How it is spelt.
    pub fn text(self) -> &'static str {
        PUNCTS[self.0 as usize]
    }
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A name (its text interned).
    Ident,
    /// A keyword of its file's language.
    Keyword(Kw),
    /// A number (its text interned).
    Number,
    /// A string literal (its first 64 bytes interned).
    Str,
    /// A character literal (its text interned).
    Char,
    /// A punctuator.
    Punct(P),
}

/// One token: what it is, its text (for names and numbers: an index in
/// the submission's [`Interner`]), its file (an index in the submission's
/// list of files) and line (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: Kind,
    /// Its interned text (names, numbers, strings, characters; 0 for
    /// keywords and punctuators).
    pub text: u32,
    /// Its file, an index in the submission's files.
    pub file: u16,
    /// Its line, from 1.
    pub line: u32,
}

impl Token {
    /// Whether it is the punctuator spelt `text`.
    pub fn is(&self, text: &str) -> bool {
        matches!(self.kind, Kind::Punct(p) if p.text() == text)
    }

    /// Whether it is the keyword `kw`.
    pub fn is_kw(&self, kw: Kw) -> bool {
        self.kind == Kind::Keyword(kw)
    }
}

/// The texts of a submission's names and numbers, each once: a token holds
/// its index.
#[derive(Debug, Default)]
pub struct Interner {
    index: HashMap<Box<[u8]>, u32>,
    texts: Vec<Box<[u8]>>,
}

impl Interner {
    /// The index of `text`, given it if it had none.
    pub fn intern(&mut self, text: &[u8]) -> u32 {
        if let Some(&i) = self.index.get(text) {
            return i;
        }
        let i = self.texts.len() as u32;
        self.texts.push(text.into());
        self.index.insert(text.into(), i);
        i
    }

    /// The text of index `i`.
    pub fn text(&self, i: u32) -> &[u8] {
        self.texts.get(i as usize).map_or(&[], |t| t)
    }

    /// The index of `text`, if it was interned.
    pub fn find(&self, text: &[u8]) -> Option<u32> {
        self.index.get(text).copied()
    }
}

/// Whether `b` may be part of a name: ASCII letters, digits, `_`, `$`, and
/// every byte of a multi-byte character (Java allows letters of any
/// script; a byte that is not UTF-8 is read as a letter too, so that
/// nothing is lost or refused).
fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// What a file lexed to: its tokens and the names its `#define`s give.
#[derive(Debug, Default)]
pub struct Lexed {
    /// The tokens, in order.
    pub tokens: Vec<Token>,
    /// The names `#define` lines give, interned.
    pub defines: Vec<u32>,
    /// Whether it stopped at `max_tokens` (the rest left out).
    pub cut: bool,
}

/// Lexes `bytes`, the file numbered `file` in `lang`, into `out` (at most
/// `max_tokens` tokens in all: `out.cut` says when it stopped there), its
/// texts interned in `names`.
pub fn lex(
    bytes: &[u8],
    lang: Lang,
    file: u16,
    names: &mut Interner,
    out: &mut Lexed,
    max_tokens: usize,
) {
    let mut i = 0;
    let mut line = 1u32;
    // The conditional directives open: whether each branch is read, and
    // whether one of its branches was. Of `#if X ... #else ... #endif` the
    // first branch is read (`#if 0`'s is not): code seen by one
    // configuration, its braces balanced as the compiler sees them.
    let mut conds: Vec<(bool, bool)> = Vec::new();
    let mut reading = true;
    // Whether only blanks came before on this line (a `#` there begins a
    // directive).
    let mut line_start = true;
    let n = bytes.len();
    let push = |out: &mut Lexed, kind: Kind, text: u32, line: u32, reading: bool| {
        if !reading {
            return;
        }
        out.tokens.push(Token {
            kind,
            text,
            file,
            line,
        });
    };
    while i < n {
        if out.tokens.len() >= max_tokens {
            out.cut = true;
            return;
        }
        let b = bytes[i];
        match b {
            b'\n' => {
                line += 1;
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < n && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < n && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    if bytes[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i = (i + 2).min(n);
            }
            b'#' if line_start && lang != Lang::Java => {
                let (end, cond) = directive(bytes, i + 1, &mut line, names, &mut out.defines);
                i = end;
                let outer = conds.iter().all(|c| c.0);
                match cond {
                    Cond::If(zero) => conds.push((outer && !zero, outer && !zero)),
                    Cond::Else if !conds.is_empty() => {
                        let last = conds.len() - 1;
                        let outer = conds[..last].iter().all(|c| c.0);
                        let (_, taken) = conds[last];
                        conds[last] = (outer && !taken, true);
                    }
                    Cond::Endif => {
                        conds.pop();
                    }
                    _ => {}
                }
                reading = conds.iter().all(|c| c.0);
            }
            b'"' | b'\'' => {
                line_start = false;
                let (start, start_line) = (i, line);
                i = quoted(bytes, i, &mut line);
                if b == b'"' {
                    // A string's text (its first 64 bytes) is one of the
                    // program's words.
                    let text = names.intern(&bytes[start..i.min(start + 64)]);
                    push(out, Kind::Str, text, start_line, reading);
                } else {
                    // A character's text is short: kept ('\0' is false).
                    let text = names.intern(&bytes[start..i.min(start + 16)]);
                    push(out, Kind::Char, text, start_line, reading);
                }
            }
            _ if b.is_ascii_digit()
                || (b == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) =>
            {
                line_start = false;
                let start = i;
                i += 1;
                let hex = bytes[start] == b'0' && matches!(bytes.get(start + 1), Some(b'x' | b'X'));
                while i < n {
                    let c = bytes[i];
                    let prev = bytes[i - 1];
                    // An exponent's sign: 1e-3, and a hex float's 0x1p+4.
                    let sign = matches!(c, b'+' | b'-')
                        && (matches!(prev, b'e' | b'E') && !hex || matches!(prev, b'p' | b'P'));
                    // C++'s digit separator: 1'000.
                    let separator = c == b'\''
                        && lang == Lang::Cpp
                        && bytes.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
                    if c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || sign || separator {
                        i += 1;
                    } else {
                        break;
                    }
                }
                let text = names.intern(&bytes[start..i]);
                push(out, Kind::Number, text, line, reading);
            }
            _ if name_byte(b) => {
                line_start = false;
                let start = i;
                while i < n && name_byte(bytes[i]) {
                    i += 1;
                }
                let word = &bytes[start..i];
                match keyword(lang, word) {
                    Some(kw) => push(out, Kind::Keyword(kw), 0, line, reading),
                    None => {
                        let text = names.intern(word);
                        push(out, Kind::Ident, text, line, reading);
                    }
                }
            }
            _ => {
                line_start = false;
                match PUNCTS
                    .iter()
                    .position(|p| bytes[i..].starts_with(p.as_bytes()))
                {
                    Some(p) => {
                        push(out, Kind::Punct(P(p as u8)), 0, line, reading);
                        i += PUNCTS[p].len();
                    }
                    // A control byte or a stray one: nothing.
                    None => i += 1,
                }
            }
        }
    }
}

/// A conditional directive.
enum Cond {
    /// `#if`, `#ifdef`, `#ifndef`; whether it is `#if 0`.
    If(bool),
    /// `#else`, `#elif`.
    Else,
    /// `#endif`.
    Endif,
    /// Any other directive.
    Other,
}

/// Skips a preprocessor directive whose `#` was just before `i` (to its
/// line's end, over `\` line splices), noting the name a `#define` gives;
/// returns where it ends (at its newline, not past it) and what it is.
fn directive(
    bytes: &[u8],
    mut i: usize,
    line: &mut u32,
    names: &mut Interner,
    defines: &mut Vec<u32>,
) -> (usize, Cond) {
    let n = bytes.len();
    let blanks = |i: &mut usize| {
        while *i < n && matches!(bytes[*i], b' ' | b'\t') {
            *i += 1;
        }
    };
    blanks(&mut i);
    let word_end = (i..n)
        .find(|&j| !bytes[j].is_ascii_alphabetic())
        .unwrap_or(n);
    let cond = match &bytes[i..word_end] {
        b"if" => {
            let mut j = word_end;
            blanks(&mut j);
            let zero = bytes[j..].starts_with(b"0")
                && !bytes.get(j + 1).is_some_and(|b| b.is_ascii_alphanumeric());
            Cond::If(zero)
        }
        b"ifdef" | b"ifndef" => Cond::If(false),
        b"else" | b"elif" | b"elifdef" | b"elifndef" => Cond::Else,
        b"endif" => Cond::Endif,
        _ => Cond::Other,
    };
    if bytes[i..].starts_with(b"define") {
        let mut j = i + 6;
        blanks(&mut j);
        let start = j;
        while j < n && name_byte(bytes[j]) {
            j += 1;
        }
        if j > start {
            defines.push(names.intern(&bytes[start..j]));
        }
    }
    while i < n && bytes[i] != b'\n' {
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\n') {
            *line += 1;
            i += 2;
            continue;
        }
        if bytes[i] == b'\\' && bytes[i + 1..].starts_with(b"\r\n") {
            *line += 1;
            i += 3;
            continue;
        }
        i += 1;
    }
    (i, cond)
}

/// Skips a string or character literal that begins at `i`: to its closing
/// quote, or to the end of its line when it has none (a broken literal
/// spoils one line, not the file). Returns where it ends.
fn quoted(bytes: &[u8], mut i: usize, line: &mut u32) -> usize {
    let quote = bytes[i];
    let n = bytes.len();
    i += 1;
    while i < n {
        match bytes[i] {
            b'\\' if i + 1 < n => {
                if bytes[i + 1] == b'\n' {
                    *line += 1;
                }
                i += 2;
            }
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &[u8], lang: Lang) -> (Vec<String>, Interner) {
        let mut names = Interner::default();
        let mut out = Lexed::default();
        lex(text, lang, 0, &mut names, &mut out, usize::MAX);
        let shown = out
            .tokens
            .iter()
            .map(|t| match t.kind {
                Kind::Ident => format!("id:{}", String::from_utf8_lossy(names.text(t.text))),
                Kind::Number => format!("n:{}", String::from_utf8_lossy(names.text(t.text))),
                Kind::Keyword(k) => format!("{k:?}"),
                Kind::Str => "str".into(),
                Kind::Char => "chr".into(),
                Kind::Punct(p) => p.text().into(),
            })
            .collect();
        (shown, names)
    }

    #[test]
    fn comments_layout_and_directives_are_dropped() {
        let text = b"#include <stdio.h>\n#define MAX 10\n/* a\ncomment */ int x = 1; // more\n  #  define  \\\n  Y 2\nx++;";
        let (shown, names) = kinds(text, Lang::C);
        assert_eq!(shown, ["Type", "id:x", "=", "n:1", ";", "id:x", "++", ";"]);
        let mut out = Lexed::default();
        let mut names2 = Interner::default();
        lex(text, Lang::C, 3, &mut names2, &mut out, usize::MAX);
        assert_eq!(out.defines.len(), 1);
        assert_eq!(names2.text(out.defines[0]), b"MAX");
        // Lines are counted through comments and splices.
        let lines: Vec<u32> = out.tokens.iter().map(|t| t.line).collect();
        assert_eq!(lines, [4, 4, 4, 4, 4, 7, 7, 7]);
        assert!(out.tokens.iter().all(|t| t.file == 3));
        drop(names);
    }

    #[test]
    fn one_branch_of_each_conditional_is_read() {
        let text = b"#ifdef A\nif (x) {\n#else\nif (y) {\n#endif\nz;\n#if 0\nnever;\n#elif B\nelif;\n#else\nelse;\n#endif\n}";
        let (shown, _) = kinds(text, Lang::C);
        assert_eq!(
            shown,
            ["If", "(", "id:x", ")", "{", "id:z", ";", "id:elif", ";", "}"]
        );
    }

    #[test]
    fn each_language_has_its_keywords() {
        let (c, _) = kinds(b"int new = this; class x;", Lang::C);
        assert_eq!(
            c,
            ["Type", "id:new", "=", "id:this", ";", "id:class", "id:x", ";"]
        );
        let (java, _) = kinds(b"Foo x = new Foo(this);", Lang::Java);
        assert_eq!(
            java,
            ["id:Foo", "id:x", "=", "New", "id:Foo", "(", "This", ")", ";"]
        );
        // A Java '#' is no directive.
        let (java, _) = kinds(b"#x", Lang::Java);
        assert_eq!(java, ["#", "id:x"]);
    }

    #[test]
    fn literals_numbers_and_punctuators() {
        let (shown, _) = kinds(b"a>>>=b->c...\"s\\\"t\"'\\''1.5e-3 0x1F", Lang::Java);
        assert_eq!(
            shown,
            ["id:a", ">>>=", "id:b", "->", "id:c", "...", "str", "chr", "n:1.5e-3", "n:0x1F"]
        );
    }

    #[test]
    fn broken_and_foreign_bytes_are_read_not_refused() {
        // An unterminated string ends at its line; bytes that are not
        // UTF-8 are letters; an unterminated comment ends the file.
        let text = b"x = \"open\ny = caf\xe9 + \x01 z; /* never closed";
        let (shown, names) = kinds(text, Lang::C);
        assert_eq!(
            shown,
            [
                "id:x",
                "=",
                "str",
                "id:y",
                "=",
                "id:caf\u{fffd}",
                "+",
                "id:z",
                ";"
            ]
        );
        assert!(names.find(b"caf\xe9").is_some());
    }

    #[test]
    fn the_token_bound_stops_the_lexer() {
        let text = b"a ".repeat(1000);
        let mut names = Interner::default();
        let mut out = Lexed::default();
        lex(&text, Lang::C, 0, &mut names, &mut out, 10);
        assert_eq!(out.tokens.len(), 10);
        assert!(out.cut);
    }
}
