//! Submissions as students hand them in: what an archive holds, read
//! without unpacking it, and whether it may be unpacked.
//!
//! A `.zip` is read from its central directory, a `.tar` from its headers
//! (a `.tar.gz` after the sandbox's `gzip` has made it a `.tar`); the
//! system's `unzip` and `tar` then unpack it inside the sandbox (see
//! [`crate::intake::build`]). An archive is unpacked only when every entry is a
//! file or a folder at a relative path without `..`, there are at most
//! [`MAX_ENTRIES`] of them and they declare at most [`MAX_BYTES`] in all;
//! the sandbox's file-size limit holds each file to what it declared, give
//! or take, and the unpacked folder is measured afterwards too.

use std::fmt;

/// The most entries an archive may hold.
pub const MAX_ENTRIES: usize = 1000;

/// The most bytes its files may hold in all, unpacked.
pub const MAX_BYTES: u64 = 64 << 20;

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

fn u16_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u16::from_le_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn u32_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u32::from_le_bytes(
        b.get(at..at + 4)?.try_into().ok()?,
    )))
}

/// The entries of a zip archive, from its central directory.
pub fn zip_entries(bytes: &[u8]) -> Result<Vec<Entry>, Refused> {
    let broken = || Refused("not a zip archive that can be read".into());
    // The end of the central directory: its signature, within the last
    // 22 + 65,535 bytes (a comment may follow it).
    let lowest = bytes.len().saturating_sub(22 + 65_535);
    let end = (lowest..bytes.len().saturating_sub(21))
        .rev()
        .find(|&at| bytes[at..].starts_with(b"PK\x05\x06"))
        .ok_or_else(broken)?;
    let count = u16_at(bytes, end + 10).ok_or_else(broken)?;
    let start = u32_at(bytes, end + 16).ok_or_else(broken)?;
    if count == 0xffff || start == 0xffff_ffff {
        return refused("a zip64 archive (more than 65,535 entries or 4 GiB)");
    }
    if count as usize > MAX_ENTRIES {
        return refused(format!("more than {MAX_ENTRIES} entries ({count})"));
    }
    let mut at = start as usize;
    let mut entries = Vec::new();
    for _ in 0..count {
        if !bytes
            .get(at..)
            .is_some_and(|b| b.starts_with(b"PK\x01\x02"))
        {
            return Err(broken());
        }
        let field = |offset: usize, wide: bool| {
            if wide {
                u32_at(bytes, at + offset)
            } else {
                u16_at(bytes, at + offset)
            }
            .ok_or_else(broken)
        };
        let made_by = field(4, false)?;
        let size = field(24, true)?;
        let name_len = field(28, false)? as usize;
        let extra_len = field(30, false)? as usize;
        let comment_len = field(32, false)? as usize;
        let attributes = field(38, true)?;
        let name = bytes.get(at + 46..at + 46 + name_len).ok_or_else(broken)?;
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
        entries.push(Entry { path, size, kind });
        at += 46 + name_len + extra_len + comment_len;
    }
    Ok(entries)
}

/// An octal field of a tar header (NULs and blanks around it ignored);
/// `None` when it is not one (a base-256 size is: more than 8 GiB).
fn octal(field: &[u8]) -> Option<u64> {
    let text: Vec<u8> = field
        .iter()
        .copied()
        .filter(|&b| b != 0 && b != b' ')
        .collect();
    if text.is_empty() {
        return Some(0);
    }
    let text = std::str::from_utf8(&text).ok()?;
    u64::from_str_radix(text, 8).ok()
}

/// A NUL-terminated string field of a tar header.
fn text(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(&field[..end]).into_owned()
}

/// The `path` record of a pax extended header, if any.
fn pax_path(data: &[u8]) -> Option<String> {
    let mut rest = data;
    while !rest.is_empty() {
        let space = rest.iter().position(|&b| b == b' ')?;
        let len: usize = std::str::from_utf8(&rest[..space]).ok()?.parse().ok()?;
        let record = rest.get(space + 1..len)?;
        let record = record.strip_suffix(b"\n").unwrap_or(record);
        if let Some(path) = record.strip_prefix(b"path=") {
            return Some(String::from_utf8_lossy(path).into_owned());
        }
        rest = rest.get(len..)?;
    }
    None
}

/// The entries of a tar archive, from its headers (ustar, GNU long names,
/// pax paths).
pub fn tar_entries(bytes: &[u8]) -> Result<Vec<Entry>, Refused> {
    let broken = || Refused("not a tar archive that can be read".into());
    let mut entries = Vec::new();
    let mut at = 0;
    let mut long_name: Option<String> = None;
    while at + 512 <= bytes.len() {
        let header = &bytes[at..at + 512];
        if header.iter().all(|&b| b == 0) {
            break;
        }
        let size = octal(&header[124..136]).ok_or_else(broken)?;
        let data_start = at + 512;
        let blocks = size.div_ceil(512);
        let next = (data_start as u64).saturating_add(blocks.saturating_mul(512));
        if next > bytes.len() as u64 {
            return Err(broken());
        }
        let data = &bytes[data_start..data_start + size as usize];
        let typeflag = header[156];
        match typeflag {
            b'L' => {
                long_name = Some(text(data));
                at = next as usize;
                continue;
            }
            b'x' => {
                long_name = pax_path(data).or(long_name);
                at = next as usize;
                continue;
            }
            b'g' | b'K' => {
                at = next as usize;
                continue;
            }
            _ => {}
        }
        let path = long_name.take().unwrap_or_else(|| {
            let name = text(&header[0..100]);
            let prefix = if &header[257..262] == b"ustar" {
                text(&header[345..500])
            } else {
                String::new()
            };
            if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            }
        });
        let kind = match typeflag {
            b'0' | 0 | b'7' => EntryKind::File,
            b'5' => EntryKind::Folder,
            b'2' => EntryKind::Link,
            _ => EntryKind::Other,
        };
        entries.push(Entry { path, size, kind });
        if entries.len() > MAX_ENTRIES {
            return refused(format!("more than {MAX_ENTRIES} entries"));
        }
        at = next as usize;
    }
    if entries.is_empty() && !bytes.iter().all(|&b| b == 0) {
        return Err(broken());
    }
    Ok(entries)
}

/// Whether `entries` may be unpacked: files and folders only, at relative
/// paths without `..`, at most [`MAX_ENTRIES`] of them, declaring at most
/// [`MAX_BYTES`] in all.
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
        if path.starts_with('/') || path.starts_with('\\') || path.get(1..2) == Some(":") {
            return refused(format!("an absolute path ({path})"));
        }
        if path.split(['/', '\\']).any(|part| part == "..") {
            return refused(format!("a path with '..' ({path})"));
        }
        match entry.kind {
            EntryKind::File | EntryKind::Folder => {}
            EntryKind::Link => return refused(format!("a symbolic link ({path})")),
            EntryKind::Other => {
                return refused(format!(
                    "an entry that is neither a file nor a folder ({path})"
                ))
            }
        }
        total = total.saturating_add(entry.size);
        if total > MAX_BYTES {
            return refused(format!("more than {} MiB unpacked", MAX_BYTES >> 20));
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
            refused("more than 64 MiB unpacked")
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
        assert_eq!(check(&entries), refused("more than 64 MiB unpacked"));
    }
}
