//! Many puzzles from one stream, for `--batch`: consecutive pairs of lines,
//! a faulty pair skipped and reported, reading going on with the next.

use super::chunks::{read_line, skip_blank_lines, skip_line, Chunks};
use crate::board_adt::error::{BoardError, ErrorKind, ReadError, Role};
use crate::board_adt::Puzzle;
use std::io::Read;

/// Reads many puzzles from one stream: consecutive pairs of lines, start then
/// goal, as in `puzzle --batch`.
///
/// Empty and whitespace-only lines between pairs are skipped. A faulty pair is
/// reported and skipped (its start and goal line both), and reading goes on with
/// the next pair; a failed read ends the stream.
///
/// # Examples
///
/// ```
/// use puzzle::input::PuzzleStream;
/// let text = &b"1 2 3 b\n1 b 3 2\n\n2 1 3 b\nx\n1 2 3 b\n2 1 3 b"[..];
/// let answers: Vec<String> = PuzzleStream::new(text)
///     .map(|p| match p {
///         Ok(p) => p.is_solvable().to_string(),
///         Err(e) => e.to_string(),
///     })
///     .collect();
/// assert_eq!(
///     answers,
///     ["true", "goal board: token 1 'x' is neither a number nor 'b'", "false"]
/// );
/// ```
pub struct PuzzleStream<R> {
    chunks: Option<Chunks<R>>,
    input: Option<R>,
    /// The last start line was faulty: its goal line is still to be skipped.
    /// (Skipped when the next pair is asked for, not before the fault is
    /// reported, so that a stream that sends a bad line and waits gets its
    /// answer.)
    skip_goal: bool,
}

impl<R: Read> PuzzleStream<R> {
    /// A stream of the puzzles in `input`.
    pub fn new(input: R) -> PuzzleStream<R> {
        PuzzleStream {
            chunks: None,
            input: Some(input),
            skip_goal: false,
        }
    }

    fn next_pair(
        chunks: &mut Chunks<R>,
        skip_goal: &mut bool,
    ) -> Result<Option<Puzzle>, ReadError> {
        if std::mem::take(skip_goal) {
            // The goal line of the faulty pair before.
            skip_line(chunks)?;
        }
        if !skip_blank_lines(chunks)? {
            return Ok(None);
        }
        let (start, more) = match read_line(chunks, Role::Start, None, true) {
            Ok(read) => read,
            Err(e) => {
                // The pair's goal line goes with its faulty start line.
                *skip_goal = !e.is_io_error();
                return Err(e);
            }
        };
        if !more || !chunks.fill()? {
            return Err(BoardError::new(Role::Goal, ErrorKind::MissingLine).into());
        }
        let (goal, _) = read_line(chunks, Role::Goal, Some(start.len() as u64), true)?;
        Ok(Some(Puzzle::new(start, goal)?))
    }
}

impl<R: Read> PuzzleStream<R> {
    /// Whether the next pair can be read without reading more input: its lines
    /// (after any blank lines, and the goal line of a faulty pair before) are
    /// already buffered whole. `false` when unsure: it looks at most a few KiB
    /// ahead. A reader that hands pairs on in runs asks this before a read that
    /// could wait for input.
    pub fn next_pair_is_buffered(&self) -> bool {
        const LOOK_AHEAD: usize = 4096;
        let Some(chunks) = &self.chunks else {
            return false;
        };
        let rest = &chunks.buffer[chunks.pos..chunks.end];
        // Line ends still to see: the skipped goal line's, the start line's
        // (blank lines before it do not count) and the goal line's.
        let mut skip = self.skip_goal;
        let mut ends_needed = 2;
        let mut blank = true;
        for &byte in rest.iter().take(LOOK_AHEAD) {
            match byte {
                b'\n' if skip => {
                    skip = false;
                    blank = true;
                }
                b'\n' if ends_needed == 2 && blank => {}
                b'\n' => {
                    ends_needed -= 1;
                    if ends_needed == 0 {
                        return true;
                    }
                }
                b' ' | b'\t' | b'\r' => {}
                _ => blank = false,
            }
        }
        false
    }
}

impl<R: Read> Iterator for PuzzleStream<R> {
    type Item = Result<Puzzle, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(input) = self.input.take() {
            match Chunks::new(input) {
                Ok(chunks) => self.chunks = Some(chunks),
                Err(e) => return Some(Err(e.into())),
            }
        }
        let chunks = self.chunks.as_mut()?;
        match Self::next_pair(chunks, &mut self.skip_goal) {
            Ok(Some(puzzle)) => Some(Ok(puzzle)),
            Ok(None) => {
                self.chunks = None;
                None
            }
            Err(e) => {
                if e.is_io_error() {
                    self.chunks = None;
                }
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_buffered_when_both_its_lines_are() {
        let stream = |text: &'static [u8], pairs: usize| {
            let mut stream = PuzzleStream::new(text);
            for _ in 0..pairs {
                stream.next();
            }
            stream.next_pair_is_buffered()
        };
        assert!(!stream(b"1 2 3 b\n1 2 b 3\n", 0), "nothing read yet");
        assert!(stream(b"1 2 3 b\n1 2 b 3\n\n \n1 2 3 b\n2 1 3 b\n", 1));
        assert!(!stream(b"1 2 3 b\n1 2 b 3\n\n \n1 2 3 b\n2 1 3 b", 1));
        assert!(!stream(b"1 2 3 b\n1 2 b 3\n1 2 3 b\n", 1));
        // A faulty start line's goal line is skipped first.
        assert!(!stream(b"1 2 x b\n1 2 b 3\n1 2 3 b\n", 1));
        assert!(stream(b"1 2 x b\n\n1 2 3 b\n1 2 b 3\n", 1));
        assert!(!stream(b"1 2 x b\nz\n\n1 2 3 b\n", 1));
    }
}
