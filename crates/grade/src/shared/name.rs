//! A submission's name, made safe once, at the door: a folder's name is
//! whatever bytes a student (or an archive, or a forged grading file) gave
//! it, and it ends up in a terminal, a spreadsheet, a web page and the
//! names of the grading's files.
//!
//! A [`Name`] holds the folder's name in one text form, its *shown* form:
//! the bytes as they are where they are printable UTF-8, and escaped where
//! not (`\n`, `\t`, `\r`, `\\`, `\u{202E}` for a control, bidi or invisible
//! character, `\xE9` for a byte that is not UTF-8). The shown form is what
//! every table, summary, CSV, page and record holds; it never carries a
//! control character, and it gives back the folder's real bytes
//! ([`Name::real`]). A name read from a grading's own files is parsed back
//! ([`Name::parse`]) as strictly as a folder's is taken in: only the
//! shown form of a real folder name is accepted.
//!
//! The submission's files in the grades folder are named from its *stem*
//! ([`Name::stem`]): ASCII letters, digits, `-`, `_` and `.` as they are,
//! every other byte `%XX`; a stem that is a name of the grading's own
//! (`summary`, `index`, `grading`, `previous`, whatever the case) or ends
//! in `.make` (whose `NAME.make` + `.txt` would be another's build log) has
//! its last character written `%XX` too; a stem over 160 bytes is cut and
//! ended with `~` and a hash of the whole name. So two submissions never
//! share a file, no submission shares one with the grading, and every file
//! name fits the file system's 255 bytes.

use crate::shared::error::Refused;
use crate::shared::text::{is_hidden, push_escaped};
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::os::unix::ffi::{OsStrExt, OsStringExt};

/// The longest stem, in bytes: with the longest suffix
/// (`.prairielearn.json`) and a temporary file's dot, pid and `.part`
/// around it, a file name stays well within 255 bytes.
const MAX_STEM: usize = 160;

/// The longest folder name a file system gives (and so a name may have).
const MAX_NAME: usize = 255;

/// Names of the grading's own files (and folders), without their suffix.
const RESERVED: [&str; 6] = [
    "summary",
    "summary-fixtures",
    "index",
    "grading",
    "previous",
    "shards",
];

/// A submission's name (see the module's docs).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name {
    shown: String,
}

impl Name {
    /// The name of the folder `real` (as `read_dir` gives it): any bytes.
    /// `None` for what is no submission's name: empty, `.`, `..`, hidden
    /// (a leading `.`) or with a `/` or a NUL.
    pub fn of_folder(real: &OsStr) -> Option<Name> {
        let bytes = real.as_bytes();
        let valid = !bytes.is_empty()
            && bytes.len() <= MAX_NAME
            && bytes[0] != b'.'
            && !bytes.contains(&b'/')
            && !bytes.contains(&0);
        valid.then(|| Name {
            shown: escape(bytes),
        })
    }

    /// The name whose shown form is `shown` (from a grading's files, or a
    /// command line), or why it is none: only the shown form of a folder
    /// name that [`Name::of_folder`] takes is accepted.
    pub fn parse(shown: &str) -> Result<Name, Refused> {
        let refused = |why: &str| Refused::value("", &escape(shown.as_bytes()), why);
        let bytes = unescape(shown)
            .ok_or_else(|| refused("is not a submission's name as gradings write it"))?;
        match Name::of_folder(OsStr::from_bytes(&bytes)) {
            Some(name) if name.shown == shown => Ok(name),
            _ => Err(refused(
                "is not a submission's name (empty, hidden, too long, or with '/')",
            )),
        }
    }

    /// The shown form: printable, one line, the same in every file.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// The folder's real name.
    pub fn real(&self) -> OsString {
        OsString::from_vec(unescape(&self.shown).unwrap_or_default())
    }

    /// The stem of its files in the grades folder.
    pub fn stem(&self) -> String {
        let real = self.real();
        let bytes = real.as_bytes();
        let mut stem = String::with_capacity(bytes.len());
        for &b in bytes {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.') {
                stem.push(b as char);
            } else {
                let _ = write!(stem, "%{b:02X}");
            }
        }
        let lower = stem.to_ascii_lowercase();
        if RESERVED.contains(&lower.as_str()) || lower.ends_with(".make") {
            // The last character is ASCII here (no `%XX` ends in a letter
            // that makes a reserved word or `.make`).
            let last = stem.pop().unwrap_or('_');
            let _ = write!(stem, "%{:02X}", last as u32);
        }
        if stem.len() > MAX_STEM {
            let hash = crate::shared::digest::fnv1a(bytes);
            let mut cut = MAX_STEM - 17;
            while !stem.is_char_boundary(cut) {
                cut -= 1;
            }
            stem.truncate(cut);
            let _ = write!(stem, "~{hash:016x}");
        }
        stem
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

/// `bytes` in the shown form: printable UTF-8 as it is, the rest escaped.
fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                c => push_escaped(&mut out, c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// The bytes a shown form stands for, or `None` when it is not one (an
/// unknown or malformed escape, or a character that would be escaped).
fn unescape(shown: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(shown.len());
    let mut chars = shown.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            if is_hidden(c) {
                return None;
            }
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next()? {
            '\\' => out.push(b'\\'),
            'n' => out.push(b'\n'),
            't' => out.push(b'\t'),
            'r' => out.push(b'\r'),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                if hex.len() != 2 {
                    return None;
                }
                out.push(u8::from_str_radix(&hex, 16).ok()?);
            }
            'u' => {
                if chars.next()? != '{' {
                    return None;
                }
                let hex: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let c = char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?;
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(bytes: &[u8]) -> Name {
        Name::of_folder(OsStr::from_bytes(bytes)).expect("a name")
    }

    #[test]
    fn any_bytes_are_shown_on_one_printable_line_and_given_back() {
        for (bytes, shown) in [
            (&b"alice"[..], "alice"),
            (b"Jos\xC3\xA9", "Jos\u{e9}"),
            (b"a\nb", "a\\nb"),
            (b"back\\slash", "back\\\\slash"),
            (b"\xE9t\xE9", "\\xE9t\\xE9"),
            ("evil\u{202E}txt.exe".as_bytes(), "evil\\u{202E}txt.exe"),
            (b"bell\x07\x1b[2J", "bell\\u{7}\\u{1B}[2J"),
        ] {
            let n = name(bytes);
            assert_eq!(n.shown(), shown);
            assert_eq!(n.real().as_bytes(), bytes);
            assert_eq!(Name::parse(shown), Ok(n.clone()), "{shown}");
            assert!(!n.shown().chars().any(is_hidden));
        }
    }

    #[test]
    fn what_is_no_folder_name_is_refused() {
        for bad in [
            &b""[..],
            b".",
            b"..",
            b".hidden",
            b"a/b",
            b"a\0b",
            &[b'x'; 256],
        ] {
            assert_eq!(Name::of_folder(OsStr::from_bytes(bad)), None, "{bad:?}");
        }
        for bad in [
            "x/../../victim",
            "../victim",
            "",
            ".git",
            "a\\qb",
            "a\\x4",
            "raw\u{202E}",
            "raw\nline",
            "a\\u{41}",
            "\\x41",
        ] {
            assert!(Name::parse(bad).is_err(), "{bad:?} was taken");
        }
    }

    #[test]
    fn stems_never_meet_each_other_nor_the_gradings_files() {
        let stems: Vec<String> = [
            &b"ann"[..],
            b"ann.make",
            b"Ann.MAKE",
            b"summary",
            b"SUMMARY",
            b"summar%79",
            b"index",
            b"a b",
            b"a%20b",
            b"\xff",
            b"%FF",
            &[b'z'; 255],
            &[b'z'; 254],
        ]
        .iter()
        .map(|b| name(b).stem())
        .collect();
        let mut unique = stems.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), stems.len(), "{stems:?}");
        for stem in &stems {
            assert!(stem.len() <= MAX_STEM, "{stem}");
            let lower = stem.to_ascii_lowercase();
            assert!(!RESERVED.contains(&lower.as_str()), "{stem}");
            assert!(!lower.ends_with(".make"), "{stem}");
            assert!(
                stem.bytes().all(|b| b.is_ascii_graphic() && b != b'/'),
                "{stem}"
            );
        }
        assert_eq!(name(b"ann.make").stem(), "ann.mak%65");
        assert_eq!(name(b"a b").stem(), "a%20b");
        assert_eq!(name(b"john.smith").stem(), "john.smith");
    }
}
