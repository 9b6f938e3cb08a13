//! Pattern-database files on disk: their names, header, checksum, atomic writing
//! and checked loading.
//!
//! A file is a 64-byte little-endian header followed by the packed table:
//!
//! | bytes  | field                                                        |
//! |--------|--------------------------------------------------------------|
//! | 0..8   | magic `PZ15PDB\0`                                            |
//! | 8..12  | format version ([`VERSION`])                                 |
//! | 12..16 | number of pattern tiles                                      |
//! | 16..20 | pattern home cells (bitmask)                                 |
//! | 20..24 | goal region of the blank (bitmask)                           |
//! | 24..32 | number of entries                                            |
//! | 32..40 | payload length in bytes                                      |
//! | 40..48 | checksum of the payload ([`checksum`])                       |
//! | 48..64 | reserved, zero                                               |
//!
//! Files are written to a temporary name in the same directory and renamed into
//! place, so a reader sees either no file or a whole one, and two processes that
//! build the same table at once both leave a valid file (the last rename wins).
//! Loading reads the payload with one `read_exact` into a buffer and then checks
//! the header against the expected pattern, the file size and the checksum.
//!
//! Whatever else may be in the directory is handled without surprises:
//!
//! - A temporary file is named `.<table file>.tmp-<pid>-<nanos>-<n>`. One whose
//!   writer was killed (Ctrl-C, SIGKILL, a crash) would stay forever, so every
//!   load and every store first removes the temporary files whose writer is no
//!   longer running, and any older than an hour (a write takes seconds).
//! - Something that is not a regular file where a table should be (a FIFO, a
//!   socket, a device, a directory) is never opened, since opening a FIFO blocks
//!   until someone writes to it: it is reported as unusable, and the rebuilt
//!   table is renamed over it (or, for a directory, kept in memory).

use super::spec::PatternSpec;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// File magic.
pub const MAGIC: [u8; 8] = *b"PZ15PDB\0";
/// Format version; bump it whenever the index or packing changes.
pub const VERSION: u32 = 2;
/// Header length in bytes.
pub const HEADER_LEN: usize = 64;

/// The file name of a table: `fifteen-v<version>-<k>-<cells>.<region>.pdb` for
/// a 4x4 table, `twentyfour-...` for a 5x5 one (`puzzle-<side>-...` otherwise).
pub fn file_name(spec: &PatternSpec) -> String {
    let size = match spec.side() {
        4 => "fifteen".to_string(),
        5 => "twentyfour".to_string(),
        side => format!("puzzle-{side}"),
    };
    format!("{size}-v{VERSION}-{}.pdb", spec.name())
}

/// Why a table file could not be used.
#[derive(Debug)]
pub enum ReadError {
    /// There is no such file.
    Missing,
    /// The file exists but is not a valid table for this pattern.
    Corrupt(String),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Missing => write!(f, "missing"),
            ReadError::Corrupt(reason) => write!(f, "{reason}"),
        }
    }
}

/// A 64-bit checksum of `data`: four independent multiply-rotate lanes over
/// 8-byte words (fast enough that checking costs little next to reading), then
/// mixed together with the length.
pub fn checksum(data: &[u8]) -> u64 {
    const K: [u64; 4] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x27D4_EB2F_1656_67C5,
    ];
    let mut lanes = K;
    let mut blocks = data.chunks_exact(32);
    for block in &mut blocks {
        for (i, lane) in lanes.iter_mut().enumerate() {
            let w = u64::from_le_bytes(block[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
            *lane = (*lane ^ w).wrapping_mul(K[i] | 1).rotate_left(29);
        }
    }
    let mut h = data.len() as u64;
    for (i, lane) in lanes.iter().enumerate() {
        h = (h ^ lane.rotate_left(i as u32 * 16)).wrapping_mul(K[0]);
    }
    for &b in blocks.remainder() {
        h = (h ^ b as u64).wrapping_mul(K[1]);
    }
    h ^ (h >> 31)
}

fn header(spec: &PatternSpec, payload: &[u8]) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(spec.tiles() as u32).to_le_bytes());
    h[16..20].copy_from_slice(&spec.cells.to_le_bytes());
    h[20..24].copy_from_slice(&spec.goal_region.to_le_bytes());
    h[24..32].copy_from_slice(&(spec.entries() as u64).to_le_bytes());
    h[32..40].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    h[40..48].copy_from_slice(&checksum(payload).to_le_bytes());
    h
}

/// Reads and checks the table for `spec` from `path`.
pub fn read_table(path: &Path, spec: &PatternSpec) -> Result<Vec<u8>, ReadError> {
    if let Some(dir) = path.parent() {
        remove_stale_temporaries(dir);
    }
    match fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(ReadError::Missing),
        Ok(meta) if !meta.is_file() => {
            return Err(ReadError::Corrupt(format!(
                "it is {}, not a regular file",
                describe_file_type(&meta.file_type())
            )))
        }
        _ => {}
    }
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(ReadError::Missing),
        Err(e) => return Err(ReadError::Corrupt(format!("cannot open: {e}"))),
    };
    let corrupt = |what: String| ReadError::Corrupt(what);
    let len = file
        .metadata()
        .map_err(|e| corrupt(format!("cannot stat: {e}")))?
        .len();
    let want_payload = spec.packed_len() as u64;
    if len != HEADER_LEN as u64 + want_payload {
        return Err(corrupt(format!(
            "size {len} bytes, expected {}",
            HEADER_LEN as u64 + want_payload
        )));
    }
    let mut head = [0u8; HEADER_LEN];
    file.read_exact(&mut head)
        .map_err(|e| corrupt(format!("cannot read header: {e}")))?;
    let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(head[i..i + 8].try_into().expect("8 bytes"));
    if head[0..8] != MAGIC {
        return Err(corrupt("bad magic".into()));
    }
    if u32_at(8) != VERSION {
        return Err(corrupt(format!(
            "format version {}, expected {VERSION}",
            u32_at(8)
        )));
    }
    if u32_at(12) != spec.tiles() as u32
        || u32_at(16) != spec.cells
        || u32_at(20) != spec.goal_region
        || u64_at(24) != spec.entries() as u64
        || u64_at(32) != want_payload
    {
        return Err(corrupt("header describes a different pattern".into()));
    }
    let mut data = vec![0u8; want_payload as usize];
    file.read_exact(&mut data)
        .map_err(|e| corrupt(format!("cannot read table: {e}")))?;
    let sum = checksum(&data);
    if sum != u64_at(40) {
        return Err(corrupt("checksum mismatch".into()));
    }
    Ok(data)
}

/// Writes the table for `spec` into `dir` atomically ([`write_atomically`]).
/// Returns the final path.
pub fn write_table(dir: &Path, spec: &PatternSpec, data: &[u8]) -> io::Result<PathBuf> {
    write_atomically(dir, &file_name(spec), &[&header(spec, data), data])
}

/// Writes `parts` one after the other as the file `name` in `dir`,
/// atomically: a temporary file in the same directory (named so that
/// [`remove_stale_temporaries`] knows its writer), flushed, then renamed
/// over the final name; the stale temporaries of writers that are gone are
/// tidied first. Returns the final path.
pub fn write_atomically(dir: &Path, name: &str, parts: &[&[u8]]) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    remove_stale_temporaries(dir);
    let path = dir.join(name);
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = dir.join(format!(
        ".{}.tmp-{}-{}-{}",
        name,
        std::process::id(),
        nanos,
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut file = File::create(&tmp)?;
        for part in parts {
            file.write_all(part)?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|()| path)
}

/// What a file type is, for a message: "a FIFO", "a directory", ...
fn describe_file_type(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        } else if kind.is_socket() {
            return "a socket";
        } else if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "something else"
    }
}

/// A temporary file older than this is stale whoever wrote it.
const STALE_AGE: Duration = Duration::from_secs(3600);

/// Removes from `dir` the temporary files of [`write_table`] that nobody is
/// writing any more: their writer's process is gone, or they are older than
/// [`STALE_AGE`]. Another process's file is left alone while that process runs;
/// this process's own are never touched (another thread may be writing one).
/// Failures are ignored: this is tidying, not work anyone waits for.
pub fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let me = std::process::id();
    // Whether a process can be looked up at all (procfs mounted).
    let can_see_processes = Path::new("/proc/self").exists();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(writer) = temporary_writer(&name.to_string_lossy()) else {
            continue;
        };
        if writer == me {
            continue;
        }
        let gone = can_see_processes && !Path::new("/proc").join(writer.to_string()).exists();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_AGE);
        if gone || old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The writer's process id, if `name` is a temporary table file's name
/// (`.<name>.pdb.tmp-<pid>-...`).
fn temporary_writer(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let (_, tail) = rest.split_once(".pdb.tmp-")?;
    tail.split('-').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "puzzle-cache-test-{name}-{}-{}",
            std::process::id(),
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn temporary_files_of_dead_writers_are_removed() {
        let dir = temp_dir("stale");
        let spec = PatternSpec::new(4, 0x0013, 5);
        let name = file_name(&spec);
        // No process has this id (ids stop at 2^22 on Linux).
        let dead = dir.join(format!(".{name}.tmp-2147483000-5-0"));
        let mine = dir.join(format!(".{name}.tmp-{}-5-0", std::process::id()));
        let alive = dir.join(format!(".{name}.tmp-1-5-0"));
        let other = dir.join("notes.txt.tmp-2147483000-5-0");
        for path in [&dead, &mine, &alive, &other] {
            fs::write(path, b"partial").unwrap();
        }
        assert!(matches!(
            read_table(&dir.join(&name), &spec),
            Err(ReadError::Missing)
        ));
        assert!(!dead.exists(), "a dead writer's file is removed");
        assert!(mine.exists() && other.exists());
        if Path::new("/proc/1").exists() {
            assert!(alive.exists(), "a running writer's file is kept");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_fifo_where_a_table_should_be_is_not_opened() {
        let dir = temp_dir("fifo");
        let spec = PatternSpec::new(4, 0x0013, 5);
        let path = dir.join(file_name(&spec));
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to test
        }
        // Opening the FIFO would block this test forever.
        assert!(
            matches!(read_table(&path, &spec), Err(ReadError::Corrupt(r)) if r == "it is a FIFO, not a regular file")
        );
        let data = vec![7u8; spec.packed_len()];
        write_table(&dir, &spec, &data).unwrap();
        assert_eq!(
            read_table(&path, &spec).unwrap(),
            data,
            "replaced by the table"
        );
        fs::create_dir_all(dir.join("sub")).unwrap();
        assert!(
            matches!(read_table(&dir.join("sub"), &spec), Err(ReadError::Corrupt(r)) if r.contains("a directory"))
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn checksum_sees_single_bit_flips() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let base = checksum(&data);
        for i in [0, 31, 32, 500, 999] {
            let mut d = data.clone();
            d[i] ^= 4;
            assert_ne!(checksum(&d), base, "flip at {i}");
        }
        assert_ne!(checksum(&data[..999]), base);
    }

    #[test]
    fn tables_round_trip_and_damage_is_caught() {
        let dir = temp_dir("roundtrip");
        let spec = PatternSpec::new(4, 0x0013, 5);
        let data: Vec<u8> = (0..spec.packed_len()).map(|i| (i % 13) as u8).collect();
        let path = write_table(&dir, &spec, &data).unwrap();
        assert_eq!(read_table(&path, &spec).unwrap(), data);
        // Only the final file is left behind.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);

        let other = PatternSpec::new(4, 0x0013, 15);
        assert_eq!(
            other.goal_region, spec.goal_region,
            "same connected free cells"
        );
        let third = PatternSpec::new(4, 0x0023, 15);
        assert!(matches!(
            read_table(&path, &third),
            Err(ReadError::Corrupt(_))
        ));

        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER_LEN + 10] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(
            matches!(read_table(&path, &spec), Err(ReadError::Corrupt(r)) if r.contains("checksum"))
        );
        fs::write(&path, &bytes[..100]).unwrap();
        assert!(
            matches!(read_table(&path, &spec), Err(ReadError::Corrupt(r)) if r.contains("size"))
        );
        fs::remove_file(&path).unwrap();
        assert!(matches!(read_table(&path, &spec), Err(ReadError::Missing)));
        fs::remove_dir_all(&dir).unwrap();
    }
}
