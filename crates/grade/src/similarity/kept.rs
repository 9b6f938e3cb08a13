//! The index kept beside a comparison's files (`similarity.index`, in a
//! grades folder or `similar`'s out folder): what the comparison needs of
//! each submission ([`Entry`]: the files it read, what was left out of
//! them, their normal form), keyed by the digest of the submission's
//! folder as handed in (the digest its record keeps, `sources_fnv1a`),
//! with the template's normal form and what made them all ([`Made`]). A
//! late submission is then compared against the class without the class
//! being normalised again, and `merge` joins the indexes of a grading's
//! shards.
//!
//! Bytes in, bytes out ([`Kept::to_bytes`], [`Kept::read`]): the file is
//! opened and written by `modes/similar.rs`. Its bytes are read as an
//! attacker's: a magic line, then versions (the file's layout,
//! [`LAYOUT`], and the normal form's, [`NORMAL_FORM`]: an index of another
//! is refused, for its normal forms are not this build's), every count
//! and length bounded before anything is kept, names and notes one line
//! of text, each symbol's file one of its entry's, and a checksum of the
//! whole at its end. Only the entries asked for are kept (the others are
//! read past), so that a forged index holds no more in memory than the
//! comparison of the class would. An index refused says why, by name,
//! and is never half used.

use super::program::Normal;
use super::tree::At;
use super::Source;
use crate::shared::digest::{fnv1a, fnv1a_more};
use crate::shared::error::Refused;
use crate::shared::text::one_line;
use std::collections::BTreeMap;
use std::io::{self, Read};

/// The index's file name, beside `similarity.csv`.
pub const FILE: &str = "similarity.index";

/// The file's first bytes.
const MAGIC: &[u8] = b"puzzle-grade similarity index\n";

/// The layout of the file's bytes; raised whenever it changes.
pub const LAYOUT: u32 = 1;

/// The version of the normal form: raised whenever the normal form of
/// given sources changes (the lexer, the parser, a rewrite, the symbols),
/// so that an index of normal forms made otherwise is made again, never
/// compared with this build's. A test (`the_normal_form_is_that_of_its_version`)
/// holds the normal forms of the disguises' samples to a digest, and
/// fails until this is raised with it.
pub const NORMAL_FORM: u32 = 1;

/// The most source files of one entry (as many as `similar` reads).
pub const MAX_FILES: usize = 256;

/// The most bytes of one entry's sources in all (as many as `similar`
/// reads).
pub const MAX_SOURCES: usize = 16 << 20;

/// The most symbols of one entry's normal form (and words, and shingles):
/// a program of 300 lines has about 2,000. An entry over it is not kept
/// (its submission is normalised again each time).
pub const MAX_SYMBOLS: usize = 4 << 20;

/// The most bytes of a name: a file's path, a note, a function's name.
const MAX_TEXT: usize = 64 << 10;

/// The most notes of one entry, and function names of the template.
const MAX_ITEMS: usize = 1 << 16;

/// What made an index: two indexes join only when these are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Made {
    /// The most tokens read of a submission.
    pub max_tokens: u64,
    /// The digest of the template's sources ([`template_digest`]).
    pub template: u64,
    /// `--common`, when given.
    pub common: Option<u64>,
}

/// What the index keeps of one submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its source files of the C family as read (what a pair's page
    /// shows).
    pub sources: Vec<Source>,
    /// What was left out of them, each in words, as the comparison said
    /// it when it read them.
    pub notes: Vec<String>,
    /// Their normal form.
    pub normal: Normal,
}

impl Entry {
    /// The entry of a submission whose sources are `sources`, `notes` what
    /// was left out of them, `normal` their normal form (the names of its
    /// functions are the template's concern only, and not kept).
    pub fn of(sources: Vec<Source>, notes: Vec<String>, mut normal: Normal) -> Entry {
        normal.functions = Vec::new();
        Entry {
            sources,
            notes,
            normal,
        }
    }

    /// Whether the entry is within the bounds the reader takes (one over
    /// them is not written: it would be refused).
    pub fn fits(&self) -> bool {
        let n = &self.normal;
        self.sources.len() <= MAX_FILES
            && self.sources.iter().map(|s| s.bytes.len()).sum::<usize>() <= MAX_SOURCES
            && self.sources.iter().all(|s| s.path.len() <= MAX_TEXT)
            && self.notes.len() <= MAX_ITEMS
            && self.notes.iter().all(|n| n.len() <= MAX_TEXT)
            && n.syms.len() <= MAX_SYMBOLS
            && n.words.len() <= MAX_SYMBOLS
            && n.shingles.len() <= MAX_SYMBOLS
            && n.functions.is_empty()
    }
}

/// An index: what made it, the template's normal form, and an entry for
/// each digest of a submission's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// What made it.
    pub made: Made,
    /// The template's normal form.
    pub template: Normal,
    /// The template's sources (what a pair's page marks as the
    /// template's lines); their digest is [`Made::template`].
    pub template_sources: Vec<Source>,
    /// The entries, by the digest of each submission's folder.
    pub entries: BTreeMap<u64, Entry>,
}

/// The digest of the template's sources, their paths and bytes in order.
pub fn template_digest(template: &[Source]) -> u64 {
    template.iter().fold(fnv1a(b"template"), |d, s| {
        let d = fnv1a_more(d, &(s.path.len() as u64).to_le_bytes());
        let d = fnv1a_more(d, s.path.as_bytes());
        let d = fnv1a_more(d, &(s.bytes.len() as u64).to_le_bytes());
        fnv1a_more(d, &s.bytes)
    })
}

/// The bytes as they are written, and their checksum as they go.
struct Out(Vec<u8>);

impl Out {
    fn u8(&mut self, x: u8) {
        self.0.push(x);
    }
    fn u16(&mut self, x: u16) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }
    fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.0.extend_from_slice(b);
    }
    fn sources(&mut self, sources: &[Source]) {
        self.len(sources.len());
        for s in sources {
            self.bytes(s.path.as_bytes());
            self.bytes(&s.bytes);
        }
    }
    fn normal(&mut self, n: &Normal) {
        self.u8(u8::from(n.cut));
        self.len(n.syms.len());
        for &s in &n.syms {
            self.u32(s);
        }
        for at in &n.at {
            self.u16(at.file);
            self.u32(at.line);
        }
        self.len(n.functions.len());
        for f in &n.functions {
            self.bytes(f);
        }
        for list in [&n.words, &n.shingles] {
            self.len(list.len());
            for &w in list {
                self.u64(w);
            }
        }
    }
}

impl Kept {
    /// The index as its file holds it (the entries that do not fit the
    /// reader's bounds left out: their submissions are normalised again).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Out(Vec::new());
        out.0.extend_from_slice(MAGIC);
        out.u32(LAYOUT);
        out.u32(NORMAL_FORM);
        out.u64(self.made.max_tokens);
        out.u64(self.made.template);
        match self.made.common {
            Some(c) => {
                out.u8(1);
                out.u64(c);
            }
            None => out.u8(0),
        }
        out.normal(&self.template);
        out.sources(&self.template_sources);
        let fit: Vec<(&u64, &Entry)> = self.entries.iter().filter(|(_, e)| e.fits()).collect();
        out.len(fit.len());
        for (digest, entry) in fit {
            out.u64(*digest);
            out.sources(&entry.sources);
            out.len(entry.notes.len());
            for n in &entry.notes {
                out.bytes(n.as_bytes());
            }
            out.normal(&entry.normal);
        }
        let sum = fnv1a(&out.0);
        out.u64(sum);
        out.0
    }

    /// The index `from` holds, with the entries whose digest `wanted`
    /// takes (the others read past, not kept); refused, with why, when
    /// its bytes are not an index this build made or could have made
    /// (see the module). Its reading stops at its bounds, never at an
    /// allocation a count asked for.
    pub fn read(from: impl Read, wanted: &dyn Fn(u64) -> bool) -> Result<Kept, Refused> {
        let mut r = In {
            from,
            sum: fnv1a(b""),
            at: 0,
        };
        let why = |e: io::Error| Refused::because(e.to_string());
        let magic = r.take(MAGIC.len()).unwrap_or_default();
        if magic != MAGIC {
            return Err(Refused::because("not an index of puzzle-grade's"));
        }
        let layout = r.u32().map_err(why)?;
        let form = r.u32().map_err(why)?;
        if layout != LAYOUT || form != NORMAL_FORM {
            return Err(Refused::because(format!(
                "written by another version of puzzle-grade (layout {layout}, normal form {form}; this one's: {LAYOUT}, {NORMAL_FORM})"
            )));
        }
        let max_tokens = r.u64().map_err(why)?;
        let template = r.u64().map_err(why)?;
        let common = match r.u8().map_err(why)? {
            0 => None,
            1 => Some(r.u64().map_err(why)?),
            _ => return Err(r.bad("a flag that is neither 0 nor 1")),
        };
        let template_form = r.normal(None, MAX_ITEMS)?;
        let template_sources = r.sources()?;
        if template_digest(&template_sources) != template {
            return Err(r.bad("a template whose sources are not of its digest"));
        }
        let count = r.u32().map_err(why)?;
        let mut entries = BTreeMap::new();
        for _ in 0..count {
            let digest = r.u64().map_err(why)?;
            let sources = r.sources()?;
            let notes = r.count(MAX_ITEMS)?;
            let notes = (0..notes).map(|_| r.text()).collect::<Result<_, _>>()?;
            let normal = r.normal(Some(sources.len()), 0)?;
            if wanted(digest) {
                entries.insert(
                    digest,
                    Entry {
                        sources,
                        notes,
                        normal,
                    },
                );
            }
        }
        let sum = r.sum;
        if r.u64().map_err(why)? != sum {
            return Err(Refused::because(
                "damaged: its checksum is not that of its bytes",
            ));
        }
        let mut rest = [0u8; 1];
        if r.from.read(&mut rest).map_err(why)? != 0 {
            return Err(Refused::because("damaged: bytes after its checksum"));
        }
        Ok(Kept {
            made: Made {
                max_tokens,
                template,
                common,
            },
            template: template_form,
            template_sources,
            entries,
        })
    }
}

/// The bytes as they are read: their checksum and where, as they go.
struct In<R> {
    from: R,
    sum: u64,
    at: u64,
}

impl<R: Read> In<R> {
    /// The next `n` bytes (read in pieces: a count is never trusted with
    /// an allocation before its bytes are there).
    fn take(&mut self, n: usize) -> io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(n.min(1 << 16));
        let got = (&mut self.from).take(n as u64).read_to_end(&mut out)?;
        if got < n {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("cut short at byte {}", self.at + got as u64),
            ));
        }
        self.sum = fnv1a_more(self.sum, &out);
        self.at += n as u64;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(&self.take(N)?);
        Ok(out)
    }

    fn u8(&mut self) -> io::Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    fn u32(&mut self) -> io::Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> io::Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A refusal of what is at the current byte.
    fn bad(&self, what: &str) -> Refused {
        Refused::because(format!("byte {}: {what}", self.at))
    }

    /// A count of at most `most`.
    fn count(&mut self, most: usize) -> Result<usize, Refused> {
        let n = self.u32().map_err(|e| Refused::because(e.to_string()))? as usize;
        if n > most {
            return Err(self.bad(&format!("a count of {n}, over its bound of {most}")));
        }
        Ok(n)
    }

    /// Source files: each its path (a line of text) and bytes, at most
    /// [`MAX_FILES`] of them and [`MAX_SOURCES`] bytes in all.
    fn sources(&mut self) -> Result<Vec<Source>, Refused> {
        let files = self.count(MAX_FILES)?;
        let mut sources = Vec::new();
        let mut total = 0;
        for _ in 0..files {
            let path = self.text()?;
            let n = self.count(MAX_SOURCES - total)?;
            total += n;
            let bytes = self.take(n).map_err(|e| Refused::because(e.to_string()))?;
            sources.push(Source { path, bytes });
        }
        Ok(sources)
    }

    /// A line of text: UTF-8, nothing in it that `one_line` would escape.
    fn text(&mut self) -> Result<String, Refused> {
        let n = self.count(MAX_TEXT)?;
        let bytes = self.take(n).map_err(|e| Refused::because(e.to_string()))?;
        match String::from_utf8(bytes) {
            Ok(text) if one_line(&text) == text => Ok(text),
            _ => Err(self.bad("a name or a note that is not one line of text")),
        }
    }

    /// A list of `n` little-endian numbers of `size` bytes, made by `f`.
    fn numbers<T>(&mut self, n: usize, size: usize, f: fn(&[u8]) -> T) -> io::Result<Vec<T>> {
        let mut out = Vec::with_capacity(n.min(1 << 16));
        let mut left = n;
        while left > 0 {
            let now = left.min(1 << 14);
            out.extend(self.take(now * size)?.chunks_exact(size).map(f));
            left -= now;
        }
        Ok(out)
    }

    /// A normal form; with `files`, each symbol's file one of them, and
    /// at most `functions` names of functions.
    fn normal(&mut self, files: Option<usize>, functions: usize) -> Result<Normal, Refused> {
        let why = |e: io::Error| Refused::because(e.to_string());
        let cut = match self.u8().map_err(why)? {
            0 => false,
            1 => true,
            _ => return Err(self.bad("a flag that is neither 0 nor 1")),
        };
        let n = self.count(MAX_SYMBOLS)?;
        let syms = self
            .numbers(n, 4, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .map_err(why)?;
        let at = self
            .numbers(n, 6, |b| At {
                file: u16::from_le_bytes([b[0], b[1]]),
                line: u32::from_le_bytes([b[2], b[3], b[4], b[5]]),
            })
            .map_err(why)?;
        if let Some(files) = files {
            if at.iter().any(|a| usize::from(a.file) >= files) {
                return Err(self.bad("a symbol of a file its entry does not have"));
            }
        }
        let count = self.count(functions)?;
        let mut names = Vec::new();
        for _ in 0..count {
            let n = self.count(MAX_TEXT)?;
            names.push(self.take(n).map_err(why)?);
        }
        let mut lists = [Vec::new(), Vec::new()];
        for list in &mut lists {
            let n = self.count(MAX_SYMBOLS)?;
            *list = self
                .numbers(n, 8, |b| {
                    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
                })
                .map_err(why)?;
            if list.windows(2).any(|w| w[0] >= w[1]) {
                return Err(self.bad("words out of order"));
            }
        }
        let [words, shingles] = lists;
        Ok(Normal {
            syms,
            at,
            cut,
            functions: names,
            words,
            shingles,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::{normalise, template_form, Settings};

    fn source(path: &str, text: &str) -> Source {
        Source {
            path: path.into(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    fn index() -> Kept {
        let settings = Settings::default();
        let template = [source(
            "boardADT.h",
            "int helper(int x) { return x + 1; }\n",
        )];
        let form = template_form(&template, &settings);
        let mut entries = BTreeMap::new();
        for (digest, text) in [
            (7, "int main(void) { int n = 0; while (n < 10) n++; printf(\"%d\\n\", n); return 0; }\n"),
            (9, "int main(void) { puts(\"hi\"); return helper(2); }\n"),
        ] {
            let sources = vec![source("puzzle.c", text)];
            let normal = normalise(&sources, &form, &settings);
            let notes = vec!["notes.o (binary)".into()];
            entries.insert(digest, Entry::of(sources, notes, normal));
        }
        Kept {
            made: Made {
                max_tokens: settings.max_tokens as u64,
                template: template_digest(&template),
                common: Some(12),
            },
            template: form,
            template_sources: template.to_vec(),
            entries,
        }
    }

    #[test]
    fn an_index_reads_back_as_it_was_written_and_only_what_is_wanted_is_kept() {
        let kept = index();
        let bytes = kept.to_bytes();
        assert_eq!(Kept::read(&bytes[..], &|_| true), Ok(kept.clone()));
        let some = Kept::read(&bytes[..], &|d| d == 9).expect("an index");
        assert_eq!(some.entries.keys().collect::<Vec<_>>(), [&9]);
        assert_eq!(some.entries[&9], kept.entries[&9]);
        assert_eq!(some.template, kept.template);
    }

    #[test]
    fn a_damaged_or_forged_index_is_refused_by_name() {
        let bytes = index().to_bytes();
        let refused = |bytes: &[u8]| match Kept::read(bytes, &|_| true) {
            Err(why) => why.to_string(),
            Ok(_) => panic!("an index of damaged bytes was taken"),
        };
        // Any byte flipped, anywhere: refused, never a panic.
        for at in (0..bytes.len()).step_by(7) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x20;
            refused(&damaged);
        }
        // Cut short anywhere.
        for at in (0..bytes.len()).step_by(11) {
            assert!(!refused(&bytes[..at]).is_empty());
        }
        assert!(refused(b"hello").contains("not an index"));
        let mut more = bytes.clone();
        more.push(0);
        assert!(refused(&more).contains("after its checksum"));
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(refused(&flipped).contains("checksum"));
        // Another normal form's version.
        let mut other = bytes.clone();
        other[MAGIC.len() + 4] ^= 0x7f;
        assert!(refused(&other).contains("another version"));
    }

    #[test]
    fn a_forged_count_is_refused_before_anything_is_allocated_for_it() {
        let kept = index();
        let mut bytes = Vec::from(MAGIC);
        bytes.extend_from_slice(&LAYOUT.to_le_bytes());
        bytes.extend_from_slice(&NORMAL_FORM.to_le_bytes());
        bytes.extend_from_slice(&kept.made.max_tokens.to_le_bytes());
        bytes.extend_from_slice(&kept.made.template.to_le_bytes());
        bytes.push(0);
        // The template's normal form: not cut, then u32::MAX symbols.
        bytes.push(0);
        bytes.extend_from_slice(&u32::MAX.to_le_bytes());
        let why = Kept::read(&bytes[..], &|_| true).expect_err("refused");
        assert!(why.to_string().contains("over its bound"), "{why}");
        // A count under the bound but bytes that are not there.
        let at = bytes.len() - 4;
        bytes[at..].copy_from_slice(&1000u32.to_le_bytes());
        let why = Kept::read(&bytes[..], &|_| true).expect_err("refused");
        assert!(why.to_string().contains("cut short"), "{why}");
    }

    /// The normal form's version and the digest of the normal forms of
    /// the disguises' samples (`crates/grade/tests/similarity/`) it makes.
    const PINNED: (u32, u64) = (1, 0x4bc5784a6a00fdb0);

    #[test]
    fn the_normal_form_is_that_of_its_version() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/similarity");
        let settings = Settings::default();
        let template = template_form(
            &[source(
                "boardADT.h",
                &std::fs::read_to_string(root.join("template/boardADT.h")).expect("the template"),
            )],
            &settings,
        );
        let mut digest = fnv1a(b"");
        let mut folders = Vec::new();
        for lang in ["c", "java"] {
            for entry in std::fs::read_dir(root.join(lang)).expect("the samples") {
                folders.push(entry.expect("a sample").path());
            }
        }
        folders.sort();
        for folder in &folders {
            let mut files: Vec<_> = std::fs::read_dir(folder)
                .expect("a sample")
                .map(|e| e.expect("a file").path())
                .collect();
            files.sort();
            let sources: Vec<Source> = files
                .iter()
                .map(|f| Source {
                    path: f.file_name().expect("a name").to_string_lossy().into(),
                    bytes: std::fs::read(f).expect("a source"),
                })
                .collect();
            let normal = normalise(&sources, &template, &settings);
            let mut out = Out(Vec::new());
            out.normal(&Entry::of(Vec::new(), Vec::new(), normal).normal);
            digest = fnv1a_more(digest, &out.0);
        }
        assert!(folders.len() > 20, "{} samples", folders.len());
        assert_eq!(
            (NORMAL_FORM, digest),
            PINNED,
            "the normal form of the samples changed: raise NORMAL_FORM (kept indexes of the former normal forms are then made again) and pin it with this digest"
        );
    }
}
