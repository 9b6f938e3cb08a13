//! The options a grading records ([`Options`]): those that decide its marks
//! or its builds, each a [`Setting`] of its own type, in a fixed order.
//! Two gradings of other options are never mixed (a `--resume`, a merge),
//! and what changed between two gradings is told option by option
//! (`publishing/changes.rs`), so each is kept as the setting it is, not
//! as words to split again.
//!
//! `grading.json` keeps them as a command line would give them (`--strict
//! --time-limit 5 --memory 1024 ...`), as every version has written them;
//! [`Options::parse`] reads that line back, once, into settings. Each is
//! written under its option's name now; a name a setting had in an earlier
//! version's files is read as that setting in those files
//! ([`Setting::parse`]: `--timeout`, before version 3), so that a grading
//! resumes, compares and merges with an earlier one as the same setting.
//! Which options are recorded, and how, is said by the rows of the
//! command line's options table (`bin/puzzle-grade/args.rs`), each of
//! which names the settings it records; their order here is [`ORDER`].

use crate::publishing::formats::Format;
use crate::shared::error::Refused;
use crate::shared::text::one_line;
use std::fmt;

/// One option a grading records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `--strict`: byte for byte against the reference.
    Strict,
    /// `--time-limit S`: every run at most S seconds (recorded as
    /// `--timeout S` before version 3).
    TimeLimit(u64),
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

/// The settings' names in the order a grading writes them: [`Options`]
/// made from a command line are in this order, whatever the command
/// line's.
pub const ORDER: [&str; 14] = [
    "--strict",
    "--time-limit",
    "--memory",
    "--processes",
    "--read-only",
    "--build-timeout",
    "--format",
    "--fuzz",
    "--budget",
    "--max-timeouts",
    "--confirm",
    "--repeat",
    "--scheme",
    "fixtures",
];

/// The first format version that records the time limit as `--time-limit`
/// (before it: `--timeout`).
const TIME_LIMIT_SINCE: u64 = 3;

impl Setting {
    /// Its option's name: `--time-limit`, or `fixtures` for a fixture
    /// folder.
    pub fn key(&self) -> &'static str {
        match self {
            Setting::Strict => "--strict",
            Setting::TimeLimit(_) => "--time-limit",
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

    /// Its place in [`ORDER`].
    fn order(&self) -> usize {
        let key = self.key();
        ORDER.iter().position(|k| *k == key).unwrap_or(ORDER.len())
    }

    /// The setting a recorded item of a file of format `version` gives
    /// (`--time-limit 5`, `fixtures x`; `--timeout 5` before version 3),
    /// or why it is none that version records.
    fn parse(item: &str, version: u64) -> Result<Setting, Refused> {
        let (key, value) = item.split_once(' ').unwrap_or((item, ""));
        let number = || -> Result<u64, Refused> {
            value
                .parse()
                .map_err(|_| Refused::value(key, value, "is not a whole number"))
        };
        Ok(match key {
            "--strict" if value.is_empty() => Setting::Strict,
            "--time-limit" if version >= TIME_LIMIT_SINCE => Setting::TimeLimit(number()?),
            "--timeout" if version < TIME_LIMIT_SINCE => Setting::TimeLimit(number()?),
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
                    format!("is no option a grading of format version {version} records"),
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
            Setting::TimeLimit(n)
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
    /// The options `settings`, in the order a grading writes them
    /// ([`ORDER`]; those of one name, such as paths, in theirs).
    pub fn new(mut settings: Vec<Setting>) -> Options {
        settings.sort_by_key(Setting::order);
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

    /// The options a `grading.json` of format `version` records as `text`
    /// ([`Options`]'s `Display`): each item starts at a word that starts
    /// with `--`, or at `fixtures` (a fixture folder), as a grading writes
    /// them; an item that version does not record is refused by name.
    pub fn parse(text: &str, version: u64) -> Result<Options, Refused> {
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
            .map(|item| Setting::parse(item, version))
            .collect::<Result<_, _>>()
            .map(Options)
    }
}

impl fmt::Display for Options {
    /// As a command line gives them: `--strict --time-limit 5 ...`.
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
    use crate::publishing::json::VERSION;

    #[test]
    fn options_read_back_as_they_were_written() {
        let options = Options::new(vec![
            Setting::Strict,
            Setting::TimeLimit(5),
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
            "--strict --time-limit 5 --memory 1024 --processes 64 --read-only /opt/data --build-timeout 120 --format gradescope,junit --fuzz 3 --budget 60 --max-timeouts 2 --confirm 0 --repeat 3 --scheme my scheme.txt (fnv1a 00000000000000ab) fixtures more tests"
        );
        assert_eq!(Options::parse(&text, VERSION), Ok(options.clone()));
        assert!(options.strict());
        assert_eq!(Options::parse("", VERSION), Ok(Options::default()));
        // What no version records, or a value that is no setting's.
        for bad in [
            "--time-limit five",
            "--timeout 5",
            "--colour red",
            "--format csv",
            "--scheme s.txt",
        ] {
            assert!(Options::parse(bad, VERSION).is_err(), "{bad}");
        }
        assert_eq!(
            Options::parse("--colour red", VERSION)
                .unwrap_err()
                .to_string(),
            format!("options: '--colour red' is no option a grading of format version {VERSION} records")
        );
    }

    #[test]
    fn a_time_limit_is_read_under_the_name_of_its_files_version() {
        let new = Options::parse("--time-limit 5 --memory 1024", VERSION).unwrap();
        for old in [1, 2] {
            assert_eq!(
                Options::parse("--timeout 5 --memory 1024", old),
                Ok(new.clone()),
                "version {old}"
            );
            assert!(Options::parse("--time-limit 5", old).is_err(), "{old}");
        }
        assert_eq!(new.to_string(), "--time-limit 5 --memory 1024");
        assert_eq!(new.settings()[0], Setting::TimeLimit(5));
    }

    #[test]
    fn options_made_are_in_the_order_a_grading_writes_them() {
        let made = Options::new(vec![
            Setting::Fixtures("x".into()),
            Setting::ReadOnly("/b".into()),
            Setting::Memory(1024),
            Setting::ReadOnly("/a".into()),
            Setting::Strict,
        ]);
        assert_eq!(
            made.to_string(),
            "--strict --memory 1024 --read-only /b --read-only /a fixtures x"
        );
        // Every setting has its place.
        for key in ORDER {
            assert_eq!(ORDER.iter().filter(|k| **k == key).count(), 1, "{key}");
        }
    }
}
