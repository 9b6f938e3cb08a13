//! The lifecycle of pattern databases, for every side: where they are cached,
//! what happens to them (reported as [`TableEvent`]s; the library never
//! prints), one copy of each table a process shared by every set that uses it,
//! built when missing or damaged and stored atomically (format in
//! [`super::file`]).

use super::file::{self, ReadError};
use super::pdb::Pdb;
use super::spec::PatternSpec;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// Where pattern-database files are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCache {
    dir: PathBuf,
}

impl TableCache {
    /// A cache in `dir` (created when the first table is stored).
    pub fn new(dir: PathBuf) -> TableCache {
        TableCache { dir }
    }

    /// `$PUZZLE_CACHE_DIR` if set, else `$XDG_CACHE_HOME/puzzle`, else
    /// `$HOME/.cache/puzzle`; `None` if none is set (empty values count as unset).
    pub fn from_env() -> Option<TableCache> {
        TableCache::from_vars(|name| std::env::var_os(name))
    }

    /// The cache a program is asked to use: `dir` if given (say by
    /// `--cache-dir`), else the environment's ([`TableCache::from_env`]),
    /// except that an empty `$PUZZLE_CACHE_DIR` is refused rather than taken
    /// as unset: in a script it is nearly always a variable that was never
    /// set, and the tables would end up in the current directory.
    pub fn chosen(dir: Option<PathBuf>) -> Result<Option<TableCache>, EmptyCacheDir> {
        TableCache::choose(dir, |name| std::env::var_os(name))
    }

    /// [`TableCache::chosen`] with the environment given as a lookup.
    fn choose(
        dir: Option<PathBuf>,
        var: impl Fn(&str) -> Option<std::ffi::OsString>,
    ) -> Result<Option<TableCache>, EmptyCacheDir> {
        if let Some(dir) = dir {
            return Ok(Some(TableCache::new(dir)));
        }
        if var("PUZZLE_CACHE_DIR").is_some_and(|dir| dir.is_empty()) {
            return Err(EmptyCacheDir);
        }
        Ok(TableCache::from_vars(var))
    }

    /// [`TableCache::from_env`] with the environment given as a lookup.
    pub(crate) fn from_vars(
        var: impl Fn(&str) -> Option<std::ffi::OsString>,
    ) -> Option<TableCache> {
        let var = |name: &str| var(name).filter(|v| !v.is_empty());
        if let Some(dir) = var("PUZZLE_CACHE_DIR") {
            return Some(TableCache::new(PathBuf::from(dir)));
        }
        if let Some(xdg) = var("XDG_CACHE_HOME") {
            return Some(TableCache::new(PathBuf::from(xdg).join("puzzle")));
        }
        var("HOME").map(|home| TableCache::new(PathBuf::from(home).join(".cache").join("puzzle")))
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// `$PUZZLE_CACHE_DIR` is set but empty ([`TableCache::chosen`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmptyCacheDir;

impl fmt::Display for EmptyCacheDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PUZZLE_CACHE_DIR is set but empty: set it to a directory, or unset it")
    }
}

impl std::error::Error for EmptyCacheDir {}

/// Progress and lifecycle events of the tables; the library never prints.
///
/// `table` names a table in words ("5x5 top-right table (6 tiles)"), `path`
/// a cache file, `bytes` a table's size and `elapsed` the time a step took.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)] // the fields are named above, once for all variants
pub enum TableEvent {
    /// Before the first table of a set is built: `what` is built (`tables`
    /// of them, `bytes` in all), about how long it takes, and the cache
    /// directory it goes to (`None`: kept in memory only).
    Plan {
        what: String,
        tables: usize,
        bytes: u64,
        estimate: Duration,
        dir: Option<PathBuf>,
    },
    /// A cached table file is being read.
    Loading { table: String, path: PathBuf },
    /// A table was read and checked.
    Loaded {
        table: String,
        bytes: u64,
        elapsed: Duration,
    },
    /// A table is being built: `done` of `total` entries are set.
    Building {
        table: String,
        done: u64,
        total: u64,
    },
    /// A table was built.
    Built {
        table: String,
        bytes: u64,
        elapsed: Duration,
    },
    /// A built table was written to the cache.
    Stored { table: String, path: PathBuf },
    /// A cached file was unusable (`reason`) and will be rebuilt.
    Corrupt { path: PathBuf, reason: String },
    /// The cache directory `dir` could not be written (`error`); the table stays
    /// in memory only.
    CacheUnwritable { dir: PathBuf, error: String },
}

fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

impl fmt::Display for TableEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableEvent::Plan {
                what,
                tables,
                bytes,
                estimate,
                dir,
            } => {
                let s = if *tables == 1 { "" } else { "s" };
                write!(
                    f,
                    "building {what}: {tables} table{s}, {:.0} MB, about {:.0} s",
                    megabytes(*bytes),
                    estimate.as_secs_f64().max(1.0)
                )?;
                match dir {
                    Some(dir) => write!(f, ", once; they are kept in {}", dir.display()),
                    None => f.write_str(
                        "; no cache directory (set PUZZLE_CACHE_DIR, XDG_CACHE_HOME or HOME, \
                         or use --cache-dir), so they are kept in memory for this run only",
                    ),
                }
            }
            TableEvent::Loading { table, path } => {
                write!(f, "loading {table} from {}", path.display())
            }
            TableEvent::Loaded {
                table,
                bytes,
                elapsed,
            } => write!(
                f,
                "loaded {table}, {:.0} MB, in {:.2} s",
                megabytes(*bytes),
                elapsed.as_secs_f64()
            ),
            TableEvent::Building { table, done, total } => {
                write!(f, "building {table}: {}%", done * 100 / (*total).max(1))
            }
            TableEvent::Built {
                table,
                bytes,
                elapsed,
            } => write!(
                f,
                "built {table}, {:.0} MB, in {:.1} s",
                megabytes(*bytes),
                elapsed.as_secs_f64()
            ),
            TableEvent::Stored { table, path } => {
                write!(f, "stored {table} in {}", path.display())
            }
            TableEvent::Corrupt { path, reason } => write!(
                f,
                "table file {} is unusable ({reason}); rebuilding it",
                path.display()
            ),
            TableEvent::CacheUnwritable { dir, error } => write!(
                f,
                "cannot write the table cache in {} ({error}); keeping the table in memory only",
                dir.display()
            ),
        }
    }
}

/// The table for `spec` from `cache`, shared with every other set of tables in
/// this process that uses it: the 4x4 8-tile table serves all three goal
/// classes, and a batch that mixes them holds it once, not three times. A table
/// no set uses any more is freed.
pub fn shared(
    cache: Option<&TableCache>,
    spec: PatternSpec,
    name: &str,
    progress: &mut dyn FnMut(&TableEvent),
) -> io::Result<Arc<Pdb>> {
    let dir = cache.map(|c| c.dir.clone());
    // Held while loading, so that two threads never load the same table twice.
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(pdb) = alive(&mut loaded, &dir, &spec) {
        return Ok(pdb);
    }
    let pdb = Arc::new(obtain(cache, spec, name, true, progress)?);
    loaded.push((dir, Arc::downgrade(&pdb)));
    Ok(pdb)
}

/// The tables this process holds, by the cache directory they came from.
type Loaded = Vec<(Option<PathBuf>, Weak<Pdb>)>;
static LOADED: Mutex<Loaded> = Mutex::new(Vec::new());

/// The table for `spec` from `dir` if this process holds it (dropping the
/// entries of tables freed since).
fn alive(loaded: &mut Loaded, dir: &Option<PathBuf>, spec: &PatternSpec) -> Option<Arc<Pdb>> {
    loaded.retain(|(_, weak)| weak.strong_count() > 0);
    loaded
        .iter()
        .filter(|(from, _)| from == dir)
        .filter_map(|(_, weak)| weak.upgrade())
        .find(|pdb| pdb.spec() == spec)
}

/// Reports a [`TableEvent::Plan`] for those of `specs` (named) that will have
/// to be built: neither held by this process nor in the cache. `what` says
/// what they are for. Says nothing if every one is there.
pub fn announce(
    cache: Option<&TableCache>,
    specs: &[PatternSpec],
    what: &str,
    progress: &mut dyn FnMut(&TableEvent),
) {
    let dir = cache.map(|c| c.dir.clone());
    let mut missing: Vec<PatternSpec> = Vec::new();
    {
        let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        for spec in specs {
            let cached = cache.is_some_and(|c| c.dir.join(file::file_name(spec)).exists());
            if !cached && !missing.contains(spec) && alive(&mut loaded, &dir, spec).is_none() {
                missing.push(*spec);
            }
        }
    }
    if missing.is_empty() {
        return;
    }
    progress(&TableEvent::Plan {
        what: what.to_string(),
        tables: missing.len(),
        bytes: missing.iter().map(|s| s.packed_len() as u64).sum(),
        estimate: build_time(&missing, build_threads()),
        dir,
    });
}

/// Threads that build a table: one a core.
fn build_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// About how long building `specs` takes on `threads` threads: 32 ns of one
/// core an entry (the 5x5 corner goals' four tables, 510 million entries, took
/// 8.2 s on two cores; the 4x4 corner goals' two, 577 million, 9 s), taken
/// as sharing out evenly.
fn build_time(specs: &[PatternSpec], threads: usize) -> Duration {
    let entries: usize = specs.iter().map(|s| s.entries()).sum();
    Duration::from_secs_f64(entries as f64 * 32e-9 / threads.max(1) as f64)
}

/// The table for `spec` from `cache` if a sound file is there (reporting
/// loading, or why the file is unusable), else `None`.
fn read_cached(
    cache: &TableCache,
    spec: &PatternSpec,
    name: &str,
    progress: &mut dyn FnMut(&TableEvent),
) -> Option<Vec<u8>> {
    let path = cache.dir.join(file::file_name(spec));
    if !path.exists() {
        return None;
    }
    progress(&TableEvent::Loading {
        table: name.to_string(),
        path: path.clone(),
    });
    let t = Instant::now();
    match file::read_table(&path, spec) {
        Ok(data) => {
            progress(&TableEvent::Loaded {
                table: name.to_string(),
                bytes: data.len() as u64,
                elapsed: t.elapsed(),
            });
            Some(data)
        }
        Err(ReadError::Missing) => None,
        Err(ReadError::Corrupt(reason)) => {
            progress(&TableEvent::Corrupt { path, reason });
            None
        }
    }
}

fn obtain(
    cache: Option<&TableCache>,
    spec: PatternSpec,
    name: &str,
    store: bool,
    progress: &mut dyn FnMut(&TableEvent),
) -> io::Result<Pdb> {
    let table = name.to_string();
    if let Some(data) = cache.and_then(|cache| read_cached(cache, &spec, name, progress)) {
        return Ok(Pdb::from_packed(spec, data));
    }
    let threads = build_threads();
    let t = Instant::now();
    let mut last_percent = u64::MAX;
    let pdb = Pdb::build(spec, threads, &mut |done, total| {
        let percent = done * 100 / total.max(1);
        if percent != last_percent {
            last_percent = percent;
            progress(&TableEvent::Building {
                table: table.clone(),
                done,
                total,
            });
        }
    });
    progress(&TableEvent::Built {
        table: table.clone(),
        bytes: pdb.packed().len() as u64,
        elapsed: t.elapsed(),
    });
    if let (Some(cache), true) = (cache, store) {
        match file::write_table(&cache.dir, &spec, pdb.packed()) {
            Ok(path) => progress(&TableEvent::Stored { table, path }),
            Err(e) => progress(&TableEvent::CacheUnwritable {
                dir: cache.dir.clone(),
                error: e.to_string(),
            }),
        }
    }
    Ok(pdb)
}

/// Makes sure the cache holds a sound file for each of `specs` (with their
/// names; the `--build-tables` flag): a table already cached and sound is
/// checked, any other built and stored, one at a time, after a
/// [`TableEvent::Plan`] that says they are `what`. Fails if a table cannot be
/// stored.
pub fn build_into(
    cache: &TableCache,
    specs: &[(PatternSpec, String)],
    what: &str,
    progress: &mut dyn FnMut(&TableEvent),
) -> io::Result<()> {
    let plain: Vec<PatternSpec> = specs.iter().map(|(spec, _)| *spec).collect();
    announce(Some(cache), &plain, what, progress);
    let mut seen = Vec::new();
    for (spec, name) in specs {
        if seen.contains(spec) {
            continue;
        }
        seen.push(*spec);
        if read_cached(cache, spec, name, progress).is_some() {
            continue;
        }
        let pdb = obtain(None, *spec, name, false, progress)?;
        let path = file::write_table(&cache.dir, spec, pdb.packed())?;
        progress(&TableEvent::Stored {
            table: name.clone(),
            path,
        });
    }
    Ok(())
}

/// What the cache tests of the 4x4 and 5x5 tables share.
#[cfg(test)]
pub(crate) mod testing {
    use super::TableEvent;

    /// How many events of each kind a load or build reported.
    #[derive(Debug, Default, PartialEq, Eq)]
    pub struct Tally {
        pub loaded: usize,
        pub built: usize,
        pub stored: usize,
        pub corrupt: usize,
        pub plans: usize,
        /// Every event, progress included.
        pub all: usize,
    }

    /// Runs `load` with a progress callback and counts what it reported.
    pub fn tally<T>(load: impl FnOnce(&mut dyn FnMut(&TableEvent)) -> T) -> (T, Tally) {
        let mut tally = Tally::default();
        let value = load(&mut |e| {
            tally.all += 1;
            match e {
                TableEvent::Plan { .. } => tally.plans += 1,
                TableEvent::Loaded { .. } => tally.loaded += 1,
                TableEvent::Built { .. } => tally.built += 1,
                TableEvent::Stored { .. } => tally.stored += 1,
                TableEvent::Corrupt { .. } => tally.corrupt += 1,
                _ => {}
            }
        });
        (value, tally)
    }

    /// The files in `dir`, sorted by name.
    pub fn files_in(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        files
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    /// An environment of these variables only.
    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn cache_directory_comes_from_the_environment_in_order() {
        const ALL: [(&str, &str); 3] = [
            ("PUZZLE_CACHE_DIR", "/p"),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ];
        let dir = |c: Option<TableCache>| c.map(|c| c.dir().to_path_buf());
        assert_eq!(
            dir(TableCache::from_vars(env(&ALL))),
            Some(PathBuf::from("/p"))
        );
        assert_eq!(
            dir(TableCache::from_vars(env(&[
                ("XDG_CACHE_HOME", "/x"),
                ("HOME", "/h")
            ]))),
            Some(PathBuf::from("/x/puzzle"))
        );
        assert_eq!(
            dir(TableCache::from_vars(env(&[
                ("PUZZLE_CACHE_DIR", ""),
                ("HOME", "/h")
            ]))),
            Some(PathBuf::from("/h/.cache/puzzle"))
        );
        assert_eq!(TableCache::from_vars(env(&[])), None);
    }

    #[test]
    fn a_chosen_directory_comes_first_and_an_empty_variable_is_refused() {
        let given = Some(PathBuf::from("/given"));
        let chosen = TableCache::choose(given.clone(), env(&[("PUZZLE_CACHE_DIR", "")]));
        assert_eq!(chosen, Ok(Some(TableCache::new(PathBuf::from("/given")))));
        let refused = TableCache::choose(None, env(&[("PUZZLE_CACHE_DIR", ""), ("HOME", "/h")]));
        assert_eq!(refused, Err(EmptyCacheDir));
        assert_eq!(
            EmptyCacheDir.to_string(),
            "PUZZLE_CACHE_DIR is set but empty: set it to a directory, or unset it"
        );
        let home = TableCache::choose(None, env(&[("XDG_CACHE_HOME", ""), ("HOME", "/h")]));
        assert_eq!(
            home,
            Ok(Some(TableCache::new(PathBuf::from("/h/.cache/puzzle"))))
        );
        assert_eq!(TableCache::choose(None, env(&[])), Ok(None));
    }

    #[test]
    fn events_read_as_one_lowercase_line() {
        let events = [
            TableEvent::Plan {
                what: "the tables for 5x5 goals with the blank in a corner".into(),
                tables: 4,
                bytes: 255_024_000,
                estimate: Duration::from_secs_f64(8.2),
                dir: Some("/c".into()),
            },
            TableEvent::Loading {
                table: "t".into(),
                path: "/c/f".into(),
            },
            TableEvent::Loaded {
                table: "t".into(),
                bytes: 288_288_000,
                elapsed: Duration::from_millis(120),
            },
            TableEvent::Building {
                table: "t".into(),
                done: 5,
                total: 10,
            },
            TableEvent::Built {
                table: "t".into(),
                bytes: 1,
                elapsed: Duration::from_secs(8),
            },
            TableEvent::Stored {
                table: "t".into(),
                path: "/c/f".into(),
            },
            TableEvent::Corrupt {
                path: "/c/f".into(),
                reason: "checksum mismatch".into(),
            },
            TableEvent::CacheUnwritable {
                dir: "/c".into(),
                error: "denied".into(),
            },
        ];
        for e in &events {
            let line = e.to_string();
            assert!(!line.contains('\n') && !line.ends_with('.'), "{line}");
            assert!(line.starts_with(|c: char| c.is_lowercase()), "{line}");
        }
        assert_eq!(events[3].to_string(), "building t: 50%");
        assert_eq!(
            events[0].to_string(),
            "building the tables for 5x5 goals with the blank in a corner: 4 tables, 255 MB, \
             about 8 s, once; they are kept in /c"
        );
    }
}
