//! The options a grading records ([`Options`]): those that decide its marks
//! or its builds, each a [`Setting`] of its own type, in a fixed order.
//! Two gradings of other options are never mixed (a `--resume`, a merge),
//! and what changed between two gradings is told option by option
//! (`publishing/changes.rs`), so each is kept as the setting it is, not
//! as words to split again.
//!
//! `grading.json` keeps them as a command line would give them (`--strict
//! --timeout 5 --memory 1024 ...`), as every version has written them;
//! [`Options::parse`] reads that line back, once, into settings.

use crate::publishing::formats::Format;
use crate::shared::error::Refused;
use crate::shared::text::one_line;
use std::fmt;

/// One option a grading records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `--strict`: byte for byte against the reference.
    Strict,
    /// `--timeout S`: every run at most S seconds.
    Timeout(u64),
    /// `--memory MIB`: the memory a run may use.
    Memory(u64),
    /// `--processes N`: processes and threads a run may have at once.
    Processes(u64),
    /// `--read-only PATH`: a path the runs may read too, as given.
    ReadOnly(String),
    /// `--build-timeout S`: each build command at most S seconds.
    BuildTimeout(u64),
    /// `--format LIST`: the platforms' files (of each submission).
    Formats(Vec<Format>),
    /// `--fuzz S`: each program fuzzed for S seconds.
    Fuzz(u64),
    /// `--budget S`: a submission at most S seconds in all.
    Budget(u64),
    /// `--max-timeouts K`: after K runs time out, the rest not run.
    MaxTimeouts(u64),
    /// `--confirm N`: a failure the machine may decide run N more times.
    Confirm(u64),
    /// `--repeat N`: every fixture run N times.
    Repeat(u64),
    /// `--scheme FILE`: the marking scheme, as named, and the digest of
    /// its text (which is what decides: the same text under another name
    /// is the same scheme).
    Scheme {
        /// The file as the command line named it.
        file: String,
        /// The FNV-1a digest of its text.
        digest: u64,
    },
    /// A folder of fixtures beside `Tests/`, as given.
    Fixtures(String),
}

impl Setting {
    /// Its option's name: `--timeout`, or `fixtures` for a fixture folder.
    pub fn key(&self) -> &'static str {
        match self {
            Setting::Strict => "--strict",
            Setting::Timeout(_) => "--timeout",
            Setting::Memory(_) => "--memory",
            Setting::Processes(_) => "--processes",
            Setting::ReadOnly(_) => "--read-only",
            Setting::BuildTimeout(_) => "--build-timeout",
            Setting::Formats(_) => "--format",
            Setting::Fuzz(_) => "--fuzz",
            Setting::Budget(_) => "--budget",
            Setting::MaxTimeouts(_) => "--max-timeouts",
            Setting::Confirm(_) => "--confirm",
            Setting::Repeat(_) => "--repeat",
            Setting::Scheme { .. } => "--scheme",
            Setting::Fixtures(_) => "fixtures",
        }
    }

    /// The setting a recorded item gives (`--timeout 5`, `fixtures x`),
    /// or why it is none this version knows.
    fn parse(item: &str) -> Result<Setting, Refused> {
        let (key, value) = item.split_once(' ').unwrap_or((item, ""));
        let number = || -> Result<u64, Refused> {
            value
                .parse()
                .map_err(|_| Refused::value(key, value, "is not a whole number"))
        };
        Ok(match key {
            "--strict" if value.is_empty() => Setting::Strict,
            "--timeout" => Setting::Timeout(number()?),
            "--memory" => Setting::Memory(number()?),
            "--processes" => Setting::Processes(number()?),
            "--read-only" => Setting::ReadOnly(one_line(value)),
            "--build-timeout" => Setting::BuildTimeout(number()?),
            "--format" => Setting::Formats(
                value
                    .split(',')
                    .map(|name| name.parse::<Format>().map_err(|e| e.within(key)))
                    .collect::<Result<_, _>>()?,
            ),
            "--fuzz" => Setting::Fuzz(number()?),
            "--budget" => Setting::Budget(number()?),
            "--max-timeouts" => Setting::MaxTimeouts(number()?),
            "--confirm" => Setting::Confirm(number()?),
            "--repeat" => Setting::Repeat(number()?),
            "--scheme" => {
                let bad = || Refused::value(key, value, "is not 'FILE (fnv1a DIGEST)'");
                let (file, digest) = value
                    .strip_suffix(')')
                    .and_then(|v| v.rsplit_once(" (fnv1a "))
                    .ok_or_else(bad)?;
                Setting::Scheme {
                    file: one_line(file),
                    digest: u64::from_str_radix(digest, 16).map_err(|_| bad())?,
                }
            }
            "fixtures" => Setting::Fixtures(one_line(value)),
            _ => {
                return Err(Refused::value(
                    "options",
                    item,
                    "is no option a grading of this version records",
                ))
            }
        })
    }
}

impl fmt::Display for Setting {
    /// As a command line gives it, and `grading.json` records it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = self.key();
        match self {
            Setting::Strict => f.write_str(key),
            Setting::Timeout(n)
            | Setting::Memory(n)
            | Setting::Processes(n)
            | Setting::BuildTimeout(n)
            | Setting::Fuzz(n)
            | Setting::Budget(n)
            | Setting::MaxTimeouts(n)
            | Setting::Confirm(n)
            | Setting::Repeat(n) => write!(f, "{key} {n}"),
            Setting::ReadOnly(text) | Setting::Fixtures(text) => write!(f, "{key} {text}"),
            Setting::Formats(formats) => {
                let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
                write!(f, "{key} {}", names.join(","))
            }
            Setting::Scheme { file, digest } => write!(f, "{key} {file} (fnv1a {digest:016x})"),
        }
    }
}

/// The options a grading records, in the order it writes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options(Vec<Setting>);

impl Options {
    /// The options `settings`, in their order.
    pub fn new(settings: Vec<Setting>) -> Options {
        Options(settings)
    }

    /// Its settings, in order.
    pub fn settings(&self) -> &[Setting] {
        &self.0
    }

    /// Whether it grades byte for byte (`--strict`).
    pub fn strict(&self) -> bool {
        self.0.contains(&Setting::Strict)
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The options `grading.json` records as `text` ([`Options`]'s
    /// `Display`): each item starts at a word that starts with `--`, or at
    /// `fixtures` (a fixture folder), as a grading writes them; an item
    /// this version does not know is refused by name.
    pub fn parse(text: &str) -> Result<Options, Refused> {
        let mut items: Vec<String> = Vec::new();
        for word in text.split(' ').filter(|w| !w.is_empty()) {
            match items.last_mut() {
                Some(item) if !word.starts_with("--") && word != "fixtures" => {
                    item.push(' ');
                    item.push_str(word);
                }
                _ => items.push(word.to_string()),
            }
        }
        items
            .iter()
            .map(|item| Setting::parse(item))
            .collect::<Result<_, _>>()
            .map(Options)
    }
}

impl fmt::Display for Options {
    /// As a command line gives them: `--strict --timeout 5 ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, setting) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{setting}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_read_back_as_they_were_written() {
        let options = Options::new(vec![
            Setting::Strict,
            Setting::Timeout(5),
            Setting::Memory(1024),
            Setting::Processes(64),
            Setting::ReadOnly("/opt/data".into()),
            Setting::BuildTimeout(120),
            Setting::Formats(vec![Format::Gradescope, Format::JUnit]),
            Setting::Fuzz(3),
            Setting::Budget(60),
            Setting::MaxTimeouts(2),
            Setting::Confirm(0),
            Setting::Repeat(3),
            Setting::Scheme {
                file: "my scheme.txt".into(),
                digest: 0xab,
            },
            Setting::Fixtures("more tests".into()),
        ]);
        let text = options.to_string();
        assert_eq!(
            text,
            "--strict --timeout 5 --memory 1024 --processes 64 --read-only /opt/data --build-timeout 120 --format gradescope,junit --fuzz 3 --budget 60 --max-timeouts 2 --confirm 0 --repeat 3 --scheme my scheme.txt (fnv1a 00000000000000ab) fixtures more tests"
        );
        assert_eq!(Options::parse(&text), Ok(options.clone()));
        assert!(options.strict());
        assert_eq!(Options::parse(""), Ok(Options::default()));
        // What no version records, or a value that is no setting's.
        for bad in [
            "--timeout five",
            "--colour red",
            "--format csv",
            "--scheme s.txt",
        ] {
            assert!(Options::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Options::parse("--colour red").unwrap_err().to_string(),
            "options: '--colour red' is no option a grading of this version records"
        );
    }
}
