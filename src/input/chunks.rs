//! The input as a read buffer of chunks ([`Chunks`]), and the lines read from
//! it: a board line through the board's parser, a line skipped, blank lines
//! skipped.

use crate::board_adt::error::{ReadError, Role};
use crate::board_adt::parse::{Fed, LineParser};
use crate::board_adt::Board;
use std::io::{self, Read};

/// Bytes read at a time: large enough that system calls cost nothing, small
/// enough to stay in cache.
const CHUNK: usize = 128 * 1024;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A read buffer over the input: `buffer[pos..end]` is read but not yet used.
pub(super) struct Chunks<R> {
    input: R,
    pub(super) buffer: Vec<u8>,
    pub(super) pos: usize,
    pub(super) end: usize,
}

impl<R: Read> Chunks<R> {
    /// A buffer over `input`, past a byte-order mark at its start.
    pub(super) fn new(input: R) -> io::Result<Chunks<R>> {
        let mut chunks = Chunks {
            input,
            buffer: vec![0; CHUNK],
            pos: 0,
            end: 0,
        };
        chunks.fill_to(BOM.len())?;
        if chunks.buffer[..chunks.end].starts_with(BOM) {
            chunks.pos = BOM.len();
        }
        Ok(chunks)
    }

    /// Refills the buffer when it is used up; `false` at the end of the input.
    pub(super) fn fill(&mut self) -> io::Result<bool> {
        if self.pos < self.end {
            return Ok(true);
        }
        loop {
            match self.input.read(&mut self.buffer) {
                Ok(n) => {
                    self.pos = 0;
                    self.end = n;
                    return Ok(n > 0);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Reads until at least `want` unused bytes are buffered or the input ends.
    pub(super) fn fill_to(&mut self, want: usize) -> io::Result<()> {
        while self.end - self.pos < want {
            self.buffer.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
            let n = loop {
                match self.input.read(&mut self.buffer[self.end..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            if n == 0 {
                break;
            }
            self.end += n;
        }
        Ok(())
    }
}

/// Reads one board line; the flag says whether it ended with a `\n` (rather than
/// with the input). With `resync`, a line found faulty before its end is read to
/// its end, so that the next read starts on the next line.
pub(super) fn read_line<R: Read>(
    chunks: &mut Chunks<R>,
    role: Role,
    expected: Option<u64>,
    resync: bool,
) -> Result<(Board, bool), ReadError> {
    let mut parser = LineParser::new(role, expected);
    loop {
        if !chunks.fill()? {
            parser.feed_end()?;
            return Ok((Board::from_checked(parser.finish()?), false));
        }
        match parser.feed(&chunks.buffer[chunks.pos..chunks.end]) {
            Ok(Fed::More) => chunks.pos = chunks.end,
            Ok(Fed::LineEnd(used)) => {
                chunks.pos += used;
                return Ok((Board::from_checked(parser.finish()?), true));
            }
            Err(e) => {
                if resync && !e.is_io_error() {
                    skip_line(chunks)?;
                }
                return Err(e);
            }
        }
    }
}

/// Reads past the next `\n` (or to the end); `false` at the end of the input.
pub(super) fn skip_line<R: Read>(chunks: &mut Chunks<R>) -> io::Result<bool> {
    while chunks.fill()? {
        let rest = &chunks.buffer[chunks.pos..chunks.end];
        match rest.iter().position(|&b| b == b'\n') {
            Some(at) => {
                chunks.pos += at + 1;
                return Ok(true);
            }
            None => chunks.pos = chunks.end,
        }
    }
    Ok(false)
}

/// Skips empty and whitespace-only lines; `false` if the input ends first.
pub(super) fn skip_blank_lines<R: Read>(chunks: &mut Chunks<R>) -> io::Result<bool> {
    while chunks.fill()? {
        match chunks.buffer[chunks.pos] {
            b' ' | b'\t' | b'\n' => chunks.pos += 1,
            b'\r' => {
                chunks.fill_to(2)?;
                match chunks.buffer[chunks.pos..chunks.end].get(1) {
                    None | Some(b'\n') => chunks.pos += 1,
                    Some(_) => return Ok(true),
                }
            }
            _ => return Ok(true),
        }
    }
    Ok(false)
}
