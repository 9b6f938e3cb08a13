//! Submissions as students hand them in: what an archive holds, read
//! without unpacking it, and whether it may be unpacked.
//!
//! A `.zip` is read from its central directory, a `.tar` from its headers
//! (a `.tar.gz` after the sandbox's `gzip` has made it a `.tar`); the
//! system's `unzip` and `tar` then unpack it inside the sandbox, into a
//! fresh folder (see [`crate::intake::unpack`]). This listing is an early
//! refusal, not the guard: what was unpacked is counted again on disk. But
//! it reads an archive as the tools will, so that it is not fooled: a
//! zip's entries are counted by walking its central directory, which must
//! lie exactly where its end record says (not by the end record's 16-bit
//! count, which `unzip` reads modulo 65,536); every tar header's checksum
//! is checked (GNU tar skips a bad header and reads on, where a lister that
//! trusted its size would skip what follows); a pax header's `size` is the
//! size of the entry after it, as GNU tar takes it. An archive is unpacked
//! only when every entry is a file or a folder, at a relative path without
//! `..`, of at most [`MAX_PATH`] bytes, no name over [`MAX_NAME`] bytes or
//! with a control character, at most [`MAX_ENTRIES`] of them, declaring at
//! most [`MAX_BYTES`] in all.

use std::fmt;

/// The most entries an archive may hold (and unpack to).
pub const MAX_ENTRIES: usize = 1000;

/// The most bytes its files may hold in all, unpacked; and the largest
/// archive read.
pub const MAX_BYTES: u64 = 64 << 20;

/// The longest path an entry may have, in bytes: a submission's deepest
/// file is nowhere near, and with the grader's own folders it stays far
/// below the 4,096 bytes a path given to the kernel may have.
pub const MAX_PATH: usize = 1024;

/// The longest name of one folder or file in a path, in bytes (the most
/// most file systems allow).
pub const MAX_NAME: usize = 255;

/// The most bytes a tar's long name ('L', 'K') or pax header may hold.
const MAX_TAR_META: u64 = 1 << 20;

/// The kinds of archive unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.zip`.
    Zip,
    /// `.tar`.
    Tar,
    /// `.tar.gz` or `.tgz`.
    TarGz,
}

impl Format {
    /// The format a file's name says, if it is an archive.
    pub fn of_name(name: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".zip") {
            Some(Format::Zip)
        } else if lower.ends_with(".tar") {
            Some(Format::Tar)
        } else if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") {
            Some(Format::TarGz)
        } else {
            None
        }
    }
}

/// One entry of an archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path, as the archive has it.
    pub path: String,
    /// Its size unpacked, as the archive declares it.
    pub size: u64,
    /// What it is.
    pub kind: EntryKind,
}

/// What an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A file.
    File,
    /// A folder.
    Folder,
    /// A symbolic link.
    Link,
    /// A hard link, a device, a pipe: anything else.
    Other,
}

/// Why an archive is not unpacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn refused<T>(why: impl Into<String>) -> Result<T, Refused> {
    Err(Refused(why.into()))
}

/// `path` as a note shows it: control characters escaped (`\n`, `\u{1b}`)
/// and cut after 40 characters (`...`).
pub fn shown(path: &str) -> String {
    let mut out = String::new();
    for (i, c) in path.chars().enumerate() {
        if i == 40 {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn u16_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    )))
}

fn u32_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    )))
}

/// The zip's end record: where its central directory starts and ends, and
/// how many entries it says there are.
struct EndRecord {
    start: usize,
    end: usize,
    count: u64,
}

/// Finds and checks the end record of a zip: the last one in the file
/// (where `unzip` looks), ending the file exactly (its comment the rest),
/// of one disk, not zip64, its central directory right before it.
fn end_record(bytes: &[u8]) -> Result<EndRecord, Refused> {
    let broken = |why: &str| Refused(format!("not a zip archive that can be read ({why})"));
    // Its signature, within the last 22 + 65,535 bytes (a comment may follow it).
    let lowest = bytes.len().saturating_sub(22 + 65_535);
    let end = (lowest..bytes.len().saturating_sub(21))
        .rev()
        .find(|&at| bytes[at..].starts_with(b"PK\x05\x06"))
        .ok_or_else(|| broken("no end record"))?;
    let field = |offset: usize, wide: bool| {
        if wide {
            u32_at(bytes, end + offset)
        } else {
            u16_at(bytes, end + offset)
        }
        .ok_or_else(|| broken("its end record is cut short"))
    };
    let (disk, cd_disk, on_disk) = (field(4, false)?, field(6, false)?, field(8, false)?);
    let (count, size, start) = (field(10, false)?, field(12, true)?, field(16, true)?);
    let comment = field(20, false)?;
    let zip64 = end >= 20 && bytes[end - 20..].starts_with(b"PK\x06\x07");
    if zip64 || count == 0xffff || size == 0xffff_ffff || start == 0xffff_ffff {
        return refused("a zip64 archive (more than 65,535 entries or 4 GiB)");
    }
    if disk != 0 || cd_disk != 0 || on_disk != count {
        return refused("a zip archive on several disks");
    }
    if end as u64 + 22 + comment != bytes.len() as u64 {
        return Err(broken("bytes after its end record"));
    }
    // unzip takes bytes between the central directory and the end record
    // for bytes prepended to the archive, and reads the central directory
    // somewhere else than the offset says: there may be none.
    if start + size != end as u64 {
        return Err(broken(
            "its central directory is not where its end record says",
        ));
    }
    Ok(EndRecord {
        start: start as usize,
        end,
        count,
    })
}

/// The entries of a zip archive, from its central directory: every record
/// from where the end record says it starts to the end record itself
/// (counted as found: at most [`MAX_ENTRIES`]), as many as the end record
/// says.
pub fn zip_entries(bytes: &[u8]) -> Result<Vec<Entry>, Refused> {
    let broken = |why: &str| Refused(format!("not a zip archive that can be read ({why})"));
    let EndRecord { start, end, count } = end_record(bytes)?;
    let mut at = start;
    let mut entries = Vec::new();
    while at < end {
        if !bytes[at..].starts_with(b"PK\x01\x02") {
            return Err(broken("its central directory is damaged"));
        }
        if entries.len() == MAX_ENTRIES {
            return refused(format!("more than {MAX_ENTRIES} entries"));
        }
        let field = |offset: usize, wide: bool| {
            if wide {
                u32_at(bytes, at + offset)
            } else {
                u16_at(bytes, at + offset)
            }
            .ok_or_else(|| broken("its central directory is cut short"))
        };
        let made_by = field(4, false)?;
        let flags = field(8, false)?;
        let size = field(24, true)?;
        let name_len = field(28, false)? as usize;
        let extra_len = field(30, false)? as usize;
        let comment_len = field(32, false)? as usize;
        let attributes = field(38, true)?;
        let after = at + 46 + name_len + extra_len + comment_len;
        if after > end {
            return Err(broken("its central directory is damaged"));
        }
        let name = &bytes[at + 46..at + 46 + name_len];
        let path = String::from_utf8_lossy(name).into_owned();
        let unix = made_by >> 8 == 3;
        let mode = attributes >> 16;
        let kind = if path.ends_with('/') {
            EntryKind::Folder
        } else if unix && mode & 0o170000 == 0o120000 {
            EntryKind::Link
        } else if unix && mode & 0o170000 != 0 && mode & 0o170000 != 0o100000 {
            EntryKind::Other
        } else {
            EntryKind::File
        };
        if size == 0xffff_ffff {
            return refused("a zip64 archive (a file of 4 GiB or more)");
        }
        if flags & 1 != 0 {
            return refused(format!("an encrypted entry ({})", shown(&path)));
        }
        entries.push(Entry { path, size, kind });
        at = after;
    }
    if entries.len() as u64 != count {
        return refused(format!(
            "its end record says {count} entries, its central directory holds {}",
            entries.len()
        ));
    }
    Ok(entries)
}

/// An octal field of a tar header: blanks, the digits, then blanks or NULs
/// to its end (as GNU tar reads one); `None` when it is not one (a base-256
/// number is not: more than 8 GiB).
fn octal(field: &[u8]) -> Option<u64> {
    let start = field.iter().position(|&b| b != b' ')?;
    let digits = field[start..]
        .iter()
        .position(|&b| !(b'0'..=b'7').contains(&b))
        .unwrap_or(field.len() - start);
    let rest = &field[start + digits..];
    if !rest.iter().all(|&b| b == 0 || b == b' ') {
        return None;
    }
    if digits == 0 {
        return (field[start] == 0).then_some(0);
    }
    let text = std::str::from_utf8(&field[start..start + digits]).ok()?;
    u64::from_str_radix(text, 8).ok()
}

/// Whether a tar header's checksum is right: its bytes summed with the
/// checksum field as blanks, unsigned or signed (old tars), as GNU tar
/// accepts either.
fn checksum_ok(header: &[u8]) -> bool {
    let Some(recorded) = octal(&header[148..156]) else {
        return false;
    };
    let field = 148..156;
    let (mut unsigned, mut signed) = (0u64, 0i64);
    for (i, &b) in header.iter().enumerate() {
        let (u, s) = if field.contains(&i) {
            (32, 32)
        } else {
            (u64::from(b), i64::from(b as i8))
        };
        unsigned += u;
        signed += s;
    }
    recorded == unsigned || i64::try_from(recorded).is_ok_and(|r| r == signed)
}

/// A NUL-terminated string field of a tar header.
fn text(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(&field[..end]).into_owned()
}

/// What a pax extended header says of the entry after it (`global`: of
/// every entry after it): its path and its size. A key that changes how
/// GNU tar reads the archive and that this lister does not follow (a
/// global path or size, sparse files) refuses it.
fn pax_records(data: &[u8], global: bool) -> Result<(Option<String>, Option<u64>), Refused> {
    let broken = || Refused("not a tar archive that can be read (a damaged pax header)".into());
    let (mut path, mut size) = (None, None);
    let mut rest = data;
    while !rest.iter().all(|&b| b == 0) {
        let space = rest.iter().position(|&b| b == b' ').ok_or_else(broken)?;
        let len: usize = std::str::from_utf8(&rest[..space])
            .ok()
            .and_then(|l| l.parse().ok())
            .ok_or_else(broken)?;
        let record = rest.get(space + 1..len).ok_or_else(broken)?;
        let record = record.strip_suffix(b"\n").ok_or_else(broken)?;
        let equals = record.iter().position(|&b| b == b'=').ok_or_else(broken)?;
        let (key, value) = (&record[..equals], &record[equals + 1..]);
        let follows = matches!(key, b"path" | b"size" | b"linkpath");
        if key.starts_with(b"GNU.sparse") || (global && follows) {
            return refused(format!(
                "a pax header this grader does not follow ({})",
                shown(&String::from_utf8_lossy(key))
            ));
        }
        match key {
            b"path" => path = Some(String::from_utf8_lossy(value).into_owned()),
            b"size" => {
                let text = std::str::from_utf8(value).map_err(|_| broken())?;
                size = Some(text.parse().map_err(|_| broken())?);
            }
            _ => {}
        }
        rest = &rest[len..];
    }
    Ok((path, size))
}

/// The entries of a tar archive, from its headers (ustar, GNU long names,
/// pax paths and sizes), each header's checksum checked, up to the first
/// block of zeros (where GNU tar stops too).
pub fn tar_entries(bytes: &[u8]) -> Result<Vec<Entry>, Refused> {
    let broken = || Refused("not a tar archive that can be read".into());
    let mut entries = Vec::new();
    let mut at = 0;
    let mut long_name: Option<String> = None;
    let mut pax_size: Option<u64> = None;
    while at + 512 <= bytes.len() {
        let header = &bytes[at..at + 512];
        if header.iter().all(|&b| b == 0) {
            break;
        }
        if !checksum_ok(header) {
            return refused(format!("a tar header with a bad checksum (at byte {at})"));
        }
        let typeflag = header[156];
        let meta = matches!(typeflag, b'L' | b'K' | b'x' | b'g');
        let mut size = octal(&header[124..136]).ok_or_else(broken)?;
        if !meta {
            size = pax_size.take().unwrap_or(size);
        }
        if meta && size > MAX_TAR_META {
            return refused(format!(
                "a tar header of more than {} KiB (at byte {at})",
                MAX_TAR_META >> 10
            ));
        }
        let data_start = at + 512;
        let next = (data_start as u64).saturating_add(size.div_ceil(512).saturating_mul(512));
        if next > bytes.len() as u64 {
            return Err(broken());
        }
        let data = &bytes[data_start..data_start + size as usize];
        match typeflag {
            b'L' => name_next(&mut long_name, Some(text(data)), at)?,
            b'x' => {
                let (path, size) = pax_records(data, false)?;
                name_next(&mut long_name, path, at)?;
                pax_size = size.or(pax_size);
            }
            b'g' => {
                pax_records(data, true)?;
            }
            b'K' => {}
            _ => {
                let path = long_name.take().unwrap_or_else(|| header_path(header));
                let kind = match typeflag {
                    b'0' | 0 | b'7' => EntryKind::File,
                    b'5' => EntryKind::Folder,
                    b'2' => EntryKind::Link,
                    _ => EntryKind::Other,
                };
                if entries.len() == MAX_ENTRIES {
                    return refused(format!("more than {MAX_ENTRIES} entries"));
                }
                entries.push(Entry { path, size, kind });
            }
        }
        at = next as usize;
    }
    if entries.is_empty() && !bytes.iter().all(|&b| b == 0) {
        return Err(broken());
    }
    Ok(entries)
}

/// Takes `name` (from a GNU long name or a pax header at byte `at`) for the
/// next entry's; a second name for the same entry refuses the archive (GNU
/// tar would take one of them, perhaps not the one checked).
fn name_next(next: &mut Option<String>, name: Option<String>, at: usize) -> Result<(), Refused> {
    if name.is_some() && next.is_some() {
        return refused(format!("a tar entry named twice (at byte {at})"));
    }
    if name.is_some() {
        *next = name;
    }
    Ok(())
}

/// The path a tar header names itself: its name, after its prefix when it
/// is a POSIX header (`ustar\0`; an old GNU header keeps other fields
/// there).
fn header_path(header: &[u8]) -> String {
    let name = text(&header[0..100]);
    let prefix = if &header[257..263] == b"ustar\0" {
        text(&header[345..500])
    } else {
        String::new()
    };
    if prefix.is_empty() {
        name
    } else {
        format!("{prefix}/{name}")
    }
}

/// Why `path` (an entry's, or a file's found on disk) may not be unpacked
/// or copied, if it may not: longer than [`MAX_PATH`] bytes, a name longer
/// than [`MAX_NAME`], a control character (a newline, an escape).
pub fn bad_path(path: &str) -> Option<String> {
    if path.len() > MAX_PATH {
        return Some(format!(
            "a path longer than {MAX_PATH} bytes ({})",
            shown(path)
        ));
    }
    if path.split(['/', '\\']).any(|name| name.len() > MAX_NAME) {
        return Some(format!(
            "a name longer than {MAX_NAME} bytes ({})",
            shown(path)
        ));
    }
    if path.chars().any(char::is_control) {
        return Some(format!("a name with a control character ({})", shown(path)));
    }
    None
}

/// Whether `entries` may be unpacked: files and folders only, at relative
/// paths without `..` that [`bad_path`] accepts, at most [`MAX_ENTRIES`]
/// of them, declaring at most [`MAX_BYTES`] in all.
pub fn check(entries: &[Entry]) -> Result<(), Refused> {
    if entries.len() > MAX_ENTRIES {
        return refused(format!(
            "more than {MAX_ENTRIES} entries ({})",
            entries.len()
        ));
    }
    let mut total = 0u64;
    for entry in entries {
        let path = &entry.path;
        if path.is_empty() {
            return refused("an entry without a name");
        }
        if let Some(why) = bad_path(path) {
            return refused(why);
        }
        if path.starts_with('/') || path.starts_with('\\') || path.get(1..2) == Some(":") {
            return refused(format!("an absolute path ({})", shown(path)));
        }
        if path.split(['/', '\\']).any(|part| part == "..") {
            return refused(format!("a path with '..' ({})", shown(path)));
        }
        match entry.kind {
            EntryKind::File | EntryKind::Folder => {}
            EntryKind::Link => return refused(format!("a symbolic link ({})", shown(path))),
            EntryKind::Other => {
                return refused(format!(
                    "an entry that is neither a file nor a folder ({})",
                    shown(path)
                ))
            }
        }
        total = total.saturating_add(entry.size);
        if total > MAX_BYTES {
            return refused(format!(
                "its entries declare more than {} MiB",
                MAX_BYTES >> 20
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A zip archive of `files` (name, bytes, unix mode), stored, as `zip`
    /// would write it on a Unix system.
    pub fn zip(files: &[(&str, &[u8], u32)]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut central = Vec::new();
        for (name, data, mode) in files {
            let offset = out.len() as u32;
            let header = |sig: &[u8], central: bool| {
                let mut h = sig.to_vec();
                if central {
                    h.extend(0x031eu16.to_le_bytes()); // made by: unix
                }
                h.extend(10u16.to_le_bytes()); // version needed
                h.extend(0u16.to_le_bytes()); // flags
                h.extend(0u16.to_le_bytes()); // stored
                h.extend(0u32.to_le_bytes()); // time and date
                h.extend(0u32.to_le_bytes()); // crc (not checked here)
                h.extend((data.len() as u32).to_le_bytes());
                h.extend((data.len() as u32).to_le_bytes());
                h.extend((name.len() as u16).to_le_bytes());
                h.extend(0u16.to_le_bytes()); // extra
                if central {
                    h.extend(0u16.to_le_bytes()); // comment
                    h.extend(0u16.to_le_bytes()); // disk
                    h.extend(0u16.to_le_bytes()); // internal attributes
                    h.extend((mode << 16).to_le_bytes());
                    h.extend(offset.to_le_bytes());
                }
                h.extend(name.as_bytes());
                h
            };
            out.extend(header(b"PK\x03\x04", false));
            out.extend_from_slice(data);
            central.extend(header(b"PK\x01\x02", true));
        }
        let start = out.len() as u32;
        out.extend(&central);
        out.extend(b"PK\x05\x06");
        out.extend([0u8; 4]);
        out.extend((files.len() as u16).to_le_bytes());
        out.extend((files.len() as u16).to_le_bytes());
        out.extend((central.len() as u32).to_le_bytes());
        out.extend(start.to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out
    }

    /// A tar archive of `entries` (name, bytes, typeflag).
    pub fn tar(entries: &[(&str, &[u8], u8)]) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, data, kind) in entries {
            let mut header = [0u8; 512];
            header[..name.len()].copy_from_slice(name.as_bytes());
            header[100..107].copy_from_slice(b"0000644");
            header[124..135].copy_from_slice(format!("{:011o}", data.len()).as_bytes());
            header[156] = *kind;
            header[257..263].copy_from_slice(b"ustar\0");
            header[263..265].copy_from_slice(b"00");
            let sum: u32 = header
                .iter()
                .enumerate()
                .map(|(i, &b)| {
                    if (148..156).contains(&i) {
                        32
                    } else {
                        u32::from(b)
                    }
                })
                .sum();
            header[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
            out.extend(header);
            out.extend_from_slice(data);
            out.resize(out.len().div_ceil(512) * 512, 0);
        }
        out.extend([0u8; 1024]);
        out
    }

    #[test]
    fn the_format_is_read_from_the_name() {
        assert_eq!(Format::of_name("submission.ZIP"), Some(Format::Zip));
        assert_eq!(Format::of_name("a.tar"), Some(Format::Tar));
        assert_eq!(Format::of_name("a.tar.gz"), Some(Format::TarGz));
        assert_eq!(Format::of_name("a.tgz"), Some(Format::TarGz));
        assert_eq!(Format::of_name("puzzle.c"), None);
    }

    #[test]
    fn a_zip_is_listed_from_its_central_directory() {
        let bytes = zip(&[
            ("ass1/", b"", 0o040755),
            ("ass1/puzzle.c", b"int main;", 0o100644),
            ("ass1/link", b"/etc/passwd", 0o120777),
        ]);
        let entries = zip_entries(&bytes).unwrap();
        let kinds: Vec<(&str, u64, EntryKind)> = entries
            .iter()
            .map(|e| (e.path.as_str(), e.size, e.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                ("ass1/", 0, EntryKind::Folder),
                ("ass1/puzzle.c", 9, EntryKind::File),
                ("ass1/link", 11, EntryKind::Link)
            ]
        );
        assert_eq!(check(&entries), refused("a symbolic link (ass1/link)"));
        assert_eq!(check(&entries[..2]), Ok(()));
        assert!(zip_entries(b"not a zip").is_err());
    }

    #[test]
    fn a_tar_is_listed_from_its_headers() {
        let long = format!("{}/puzzle.c", "d".repeat(120));
        let mut gnu_long = long.clone().into_bytes();
        gnu_long.push(0);
        let bytes = tar(&[
            ("ass1/", b"", b'5'),
            ("ass1/Makefile", b"puzzle:\n", b'0'),
            ("././@LongLink", &gnu_long, b'L'),
            ("ignored", b"x", b'0'),
            ("x", b"", b'2'),
        ]);
        let entries = tar_entries(&bytes).unwrap();
        let kinds: Vec<(&str, u64, EntryKind)> = entries
            .iter()
            .map(|e| (e.path.as_str(), e.size, e.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                ("ass1/", 0, EntryKind::Folder),
                ("ass1/Makefile", 8, EntryKind::File),
                (long.as_str(), 1, EntryKind::File),
                ("x", 0, EntryKind::Link)
            ]
        );
        assert!(tar_entries(&[1u8; 700]).is_err());
    }

    #[test]
    fn bad_paths_links_bombs_and_crowds_are_refused() {
        let file = |path: &str, size: u64| Entry {
            path: path.into(),
            size,
            kind: EntryKind::File,
        };
        assert_eq!(
            check(&[file("../../.bashrc", 1)]),
            refused("a path with '..' (../../.bashrc)")
        );
        assert_eq!(
            check(&[file("a/../../b", 1)]),
            refused("a path with '..' (a/../../b)")
        );
        assert_eq!(
            check(&[file("/etc/cron.d/x", 1)]),
            refused("an absolute path (/etc/cron.d/x)")
        );
        assert_eq!(
            check(&[file("a", MAX_BYTES), file("b", 1)]),
            refused("its entries declare more than 64 MiB")
        );
        let many: Vec<Entry> = (0..=MAX_ENTRIES)
            .map(|i| file(&format!("f{i}"), 0))
            .collect();
        assert_eq!(check(&many), refused("more than 1000 entries (1001)"));
        assert_eq!(check(&many[..MAX_ENTRIES]), Ok(()));
        // A zip bomb declares its size in its central directory.
        let mut bomb = zip(&[("big", b"", 0o100644)]);
        let central = bomb.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
        bomb[central + 24..central + 28].copy_from_slice(&(3u32 << 30).to_le_bytes());
        let entries = zip_entries(&bomb).unwrap();
        assert_eq!(entries[0].size, 3 << 30);
        assert_eq!(
            check(&entries),
            refused("its entries declare more than 64 MiB")
        );
    }
}
