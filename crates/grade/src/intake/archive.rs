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

use crate::shared::error::Refused;
use crate::shared::text::one_line;

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

/// Why an archive is not unpacked: a refusal of the whole archive.
fn refused<T>(why: impl Into<String>) -> Result<T, Refused> {
    Err(Refused::because(why))
}

/// `path` as a note shows it: cut after 40 characters (`...`), and what
/// could hide or reorder text (control characters, bidi controls)
/// escaped as everywhere else ([`one_line`]: `\n`, `\u{1B}`, `\u{202E}`).
pub fn shown(path: &str) -> String {
    let cut: String = path.chars().take(40).collect();
    let mut out = one_line(&cut);
    if cut.len() < path.len() {
        out.push_str("...");
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
    let broken =
        |why: &str| Refused::because(format!("not a zip archive that can be read ({why})"));
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
    let broken =
        |why: &str| Refused::because(format!("not a zip archive that can be read ({why})"));
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
    let broken = || Refused::because("not a tar archive that can be read (a damaged pax header)");
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
    let broken = || Refused::because("not a tar archive that can be read");
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

    #[test]
    fn a_path_in_a_note_hides_nothing_and_is_cut() {
        assert_eq!(shown("src/a.c"), "src/a.c");
        assert_eq!(shown("a\nb\u{1b}[2J"), "a\\nb\\u{1B}[2J");
        // A bidi control would show the rest of the note reversed.
        assert_eq!(shown("evil\u{202E}c.exe"), "evil\\u{202E}c.exe");
        let long = "é".repeat(45);
        assert_eq!(shown(&long), format!("{}...", "é".repeat(40)));
        assert_eq!(shown(&"é".repeat(40)), "é".repeat(40));
    }

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
            fix_checksum(&mut header);
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

    #[test]
    fn paths_too_long_names_too_long_and_control_characters_are_refused() {
        let file = |path: &str| Entry {
            path: path.into(),
            size: 1,
            kind: EntryKind::File,
        };
        let deep = format!("{}x.c", "d/".repeat(600));
        assert_eq!(
            check(&[file(&deep)]),
            refused(format!(
                "a path longer than 1024 bytes ({}...)",
                "d/".repeat(20)
            ))
        );
        let wide = format!("a/{}.c", "n".repeat(254));
        assert!(check(&[file(&wide)])
            .unwrap_err()
            .to_string()
            .starts_with("a name longer than 255 bytes (a/nnn"));
        assert_eq!(check(&[file(&format!("a/{}", "n".repeat(255)))]), Ok(()));
        assert_eq!(
            check(&[file("x\n.c")]),
            refused("a name with a control character (x\\n.c)")
        );
        assert_eq!(
            check(&[file("a\u{1b}[2Jb.c")]),
            refused("a name with a control character (a\\u{1B}[2Jb.c)")
        );
        assert_eq!(check(&[file("")]), refused("an entry without a name"));
    }

    /// `header` (a tar header block) with its checksum made right.
    fn fix_checksum(header: &mut [u8]) {
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
        header[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    }

    #[test]
    fn a_tar_header_with_a_bad_checksum_refuses_the_archive() {
        // A header whose size covers the next block, a FIFO's header: GNU
        // tar skips the bad header and makes the FIFO.
        let fifo = tar(&[("notes.fifo", b"", b'6')]);
        let mut bytes = tar(&[("notes.txt", &fifo[..512], b'0')]);
        bytes[148] = b'7';
        assert_eq!(
            tar_entries(&bytes),
            refused("a tar header with a bad checksum (at byte 0)")
        );
        // Further in too.
        let mut bytes = tar(&[("a.c", b"x", b'0'), ("b.c", b"y", b'0')]);
        bytes[1024] ^= 1;
        assert_eq!(
            tar_entries(&bytes),
            refused("a tar header with a bad checksum (at byte 1024)")
        );
        // A sum of signed bytes (old tars) is a right one, as GNU tar reads it.
        let mut bytes = tar(&[("\u{e9}t\u{e9}.c", b"x", b'0')]);
        let signed: i64 = bytes[..512]
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                if (148..156).contains(&i) {
                    32
                } else {
                    i64::from(b as i8)
                }
            })
            .sum();
        bytes[148..156].copy_from_slice(format!("{signed:06o}\0 ").as_bytes());
        assert_eq!(tar_entries(&bytes).unwrap()[0].path, "\u{e9}t\u{e9}.c");
    }

    #[test]
    fn a_pax_size_is_the_size_gnu_tar_reads() {
        // The header says 512 bytes of data, which are a FIFO's header; the
        // pax header before it says 0, and GNU tar believes the pax header.
        let fifo = tar(&[("notes.fifo", b"", b'6')]);
        let bytes = tar(&[
            ("PaxHeader", b"10 size=0\n", b'x'),
            ("x.c", &fifo[..512], b'0'),
        ]);
        let entries = tar_entries(&bytes).unwrap();
        let kinds: Vec<(&str, u64, EntryKind)> = entries
            .iter()
            .map(|e| (e.path.as_str(), e.size, e.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                ("x.c", 0, EntryKind::File),
                ("notes.fifo", 0, EntryKind::Other)
            ]
        );
        assert_eq!(
            check(&entries),
            refused("an entry that is neither a file nor a folder (notes.fifo)")
        );
        // A pax path, and a long name for the same entry: refused.
        let bytes = tar(&[
            ("././@LongLink", b"ok.c\0", b'L'),
            ("PaxHeader", b"21 path=../../evil.c\n", b'x'),
            ("x", b"", b'0'),
        ]);
        assert_eq!(
            tar_entries(&bytes),
            refused("a tar entry named twice (at byte 1024)")
        );
        let bytes = tar(&[
            ("Global", b"21 path=../../evil.c\n", b'g'),
            ("x", b"", b'0'),
        ]);
        assert_eq!(
            tar_entries(&bytes),
            refused("a pax header this grader does not follow (path)")
        );
        let bytes = tar(&[("PaxHeader", b"9 path=a", b'x'), ("x", b"", b'0')]);
        assert!(tar_entries(&bytes).is_err());
    }

    /// Sets the end record's count of entries in `zip` to `count`.
    fn say_entries(zip: &mut [u8], count: u16) {
        let end = zip.len() - 22;
        zip[end + 8..end + 10].copy_from_slice(&count.to_le_bytes());
        zip[end + 10..end + 12].copy_from_slice(&count.to_le_bytes());
    }

    #[test]
    fn a_zips_entries_are_counted_in_its_central_directory() {
        let mut two = zip(&[("a.c", b"", 0o100644), ("b.c", b"", 0o100644)]);
        say_entries(&mut two, 1);
        assert_eq!(
            zip_entries(&two),
            refused("its end record says 1 entries, its central directory holds 2")
        );
        // 65,537 entries, the end record's 16 bits say 1: unzip reads them
        // all.
        let names: Vec<String> = (0..65_537).map(|i| format!("{i:05}")).collect();
        let files: Vec<(&str, &[u8], u32)> = names
            .iter()
            .map(|n| (n.as_str(), &b""[..], 0o100644))
            .collect();
        let mut many = zip(&files);
        say_entries(&mut many, 1);
        assert_eq!(zip_entries(&many), refused("more than 1000 entries"));
    }

    #[test]
    fn a_zip_is_read_only_where_unzip_would_read_it() {
        let good = zip(&[("a.c", b"int x;", 0o100644)]);
        assert_eq!(zip_entries(&good).unwrap().len(), 1);
        // Bytes before the archive: unzip reads the central directory
        // where the end record's size puts it, not at its offset.
        let mut prepended = b"#!/bin/sh\n".to_vec();
        prepended.extend(&good);
        let why = |bytes: &[u8]| zip_entries(bytes).unwrap_err().to_string();
        assert_eq!(
            why(&prepended),
            "not a zip archive that can be read (its central directory is not where its end record says)"
        );
        // Bytes after the end record that its comment does not hold.
        let mut trailing = good.clone();
        trailing.extend(b"xx");
        assert_eq!(
            why(&trailing),
            "not a zip archive that can be read (bytes after its end record)"
        );
        // A zip64 locator before the end record.
        let mut zip64 = good.clone();
        let end = zip64.len() - 22;
        let mut locator = b"PK\x06\x07".to_vec();
        locator.resize(20, 0);
        zip64.splice(end..end, locator);
        assert!(
            why(&zip64).starts_with("a zip64 archive"),
            "{}",
            why(&zip64)
        );
        // Another disk.
        let mut disks = good.clone();
        let end = disks.len() - 22;
        disks[end + 4] = 1;
        assert_eq!(why(&disks), "a zip archive on several disks");
        // An encrypted entry.
        let mut secret = good.clone();
        let central = secret.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
        secret[central + 8] |= 1;
        assert_eq!(why(&secret), "an encrypted entry (a.c)");
        // A name that runs past the central directory.
        let mut long = good;
        long[central + 28] = 200;
        assert_eq!(
            why(&long),
            "not a zip archive that can be read (its central directory is damaged)"
        );
    }

    /// A generator of the randomised test (xorshift64*), fixed by its seed.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    /// `bytes` damaged by one mutation: bytes flipped, cut short, bytes
    /// inserted or removed, a 16- or 32-bit field set to an extreme, a
    /// block's tar size set and its checksum made right again, a slice
    /// copied elsewhere.
    fn mutated(rng: &mut Rng, mut bytes: Vec<u8>) -> Vec<u8> {
        let len = bytes.len();
        match rng.below(8) {
            0 => {
                for _ in 0..1 + rng.below(8) {
                    if len > 0 {
                        let at = rng.below(len);
                        bytes[at] ^= 1 + rng.below(255) as u8;
                    }
                }
            }
            1 => bytes.truncate(rng.below(len + 1)),
            2 if len >= 2 => {
                let at = rng.below(len - 1);
                let value = [0, 1, 0xffff, 0x7fff, 1000, 1001, rng.next() as u16][rng.below(7)];
                bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
            }
            3 if len >= 4 => {
                let at = rng.below(len - 3);
                let extremes = [
                    0,
                    1,
                    u32::MAX,
                    len as u32,
                    (len as u32).saturating_sub(22),
                    rng.next() as u32,
                ];
                let value = extremes[rng.below(extremes.len())];
                bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
            }
            4 => {
                let at = rng.below(len + 1);
                let noise: Vec<u8> = (0..1 + rng.below(600)).map(|_| rng.next() as u8).collect();
                bytes.splice(at..at, noise);
            }
            5 if len > 0 => {
                let at = rng.below(len);
                let end = at + rng.below(len - at + 1);
                bytes.drain(at..end);
            }
            6 if len >= 512 => {
                let block = rng.below(len / 512) * 512;
                let sizes = [0, 1, 511, 512, 8 << 30, rng.next() % (1 << 33)];
                let size = sizes[rng.below(sizes.len())];
                let field = format!("{size:011o}");
                bytes[block + 124..block + 135]
                    .copy_from_slice(&field.as_bytes()[field.len() - 11..]);
                fix_checksum(&mut bytes[block..block + 512]);
            }
            _ if len > 0 => {
                let from = rng.below(len);
                let piece: Vec<u8> = bytes[from..from + rng.below(len - from).min(256)].to_vec();
                let at = rng.below(len + 1);
                bytes.splice(at..at, piece);
            }
            _ => {}
        }
        bytes
    }

    #[test]
    fn the_lister_survives_damaged_and_random_bytes() {
        // Valid archives damaged one to three times, and noise: the lister
        // never panics, answers each in a moment, lists at most the bound
        // and no more path bytes than the input could hold (its memory is
        // bounded by what it was given).
        let zipped = zip(&[
            ("ass1/", b"", 0o040755),
            ("ass1/puzzle.c", b"int main(void) { return 0; }\n", 0o100644),
            (
                "ass1/Makefile",
                b"puzzle:\n\tcc -o puzzle puzzle.c\n",
                0o100644,
            ),
        ]);
        let long = format!("{}/puzzle.c\0", "d".repeat(150));
        let tarred = tar(&[
            ("ass1/", b"", b'5'),
            ("././@LongLink", long.as_bytes(), b'L'),
            ("x", b"int main;", b'0'),
            ("PaxHeader", b"17 path=ass1/p.c\n", b'x'),
            ("y", b"abc", b'0'),
            ("PaxHeader", b"10 size=1\n", b'x'),
            ("z", b"", b'0'),
        ]);
        assert_eq!(tar_entries(&tarred).unwrap().len(), 4);
        assert_eq!(zip_entries(&zipped).unwrap().len(), 3);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let began = std::time::Instant::now();
        let mut listed = 0;
        for case in 0..30_000 {
            let bytes = match case % 5 {
                0 | 1 => zipped.clone(),
                2 | 3 => tarred.clone(),
                _ => {
                    let mut noise: Vec<u8> =
                        (0..rng.below(3000)).map(|_| rng.next() as u8).collect();
                    for sign in [&b"PK\x05\x06"[..], b"PK\x01\x02", b"ustar\0"] {
                        if !noise.is_empty() && rng.below(2) == 0 {
                            let at = rng.below(noise.len());
                            noise.splice(at..at, sign.iter().copied());
                        }
                    }
                    noise
                }
            };
            let mut bytes = bytes;
            for _ in 0..1 + rng.below(3) {
                bytes = mutated(&mut rng, bytes);
            }
            let one = std::time::Instant::now();
            for entries in [zip_entries(&bytes), tar_entries(&bytes)] {
                let Ok(entries) = entries else {
                    continue;
                };
                listed += 1;
                assert!(entries.len() <= MAX_ENTRIES, "case {case}");
                let path_bytes: usize = entries.iter().map(|e| e.path.len()).sum();
                assert!(path_bytes <= 3 * bytes.len() + 3, "case {case}");
                let _ = check(&entries);
            }
            assert!(
                one.elapsed() < std::time::Duration::from_secs(2),
                "case {case} took {:?}",
                one.elapsed()
            );
        }
        // Some damaged archives still list (the mutations reach past the
        // first check), and the whole run is quick.
        assert!(listed > 1000, "{listed}");
        assert!(began.elapsed() < std::time::Duration::from_secs(120));
    }
}
