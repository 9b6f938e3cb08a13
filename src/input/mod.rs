//! Reading a puzzle, the two board lines, from a byte stream of any size.
//!
//! The input is read in chunks (`chunks.rs`) and parsed as it arrives, by the
//! board's line parser; it is never held whole. This module owns what
//! surrounds the two lines: a UTF-8 byte-order mark at the very start is
//! skipped, the goal line may end without a `\n`, and after it only empty or
//! whitespace-only lines may follow (a `\r` before a `\n` or at the very end
//! counts as nothing, as everywhere). [`PuzzleStream`] (`stream.rs`) reads
//! pair after pair, for batches.

mod chunks;
mod stream;

pub use crate::board_adt::error::ReadError;
pub use stream::PuzzleStream;

use crate::board_adt::error::{show_bytes, BoardError, ErrorKind, Role};
use crate::board_adt::Puzzle;
use chunks::{read_line, Chunks};
use std::io::Read;

/// Reads a puzzle: the start line, the goal line, then nothing but blank lines.
///
/// Stops at the first fault it finds, without reading further.
///
/// # Examples
///
/// ```
/// use puzzle::input::read_puzzle;
/// let puzzle = read_puzzle(&b"2 1 3 b\n1 2 3 b\n"[..]).unwrap();
/// assert!(!puzzle.is_solvable());
/// let error = read_puzzle(&b"1 2 3 b"[..]).unwrap_err();
/// assert_eq!(error.to_string(), "goal board: missing: the input ends after the start board");
/// ```
pub fn read_puzzle<R: Read>(input: R) -> Result<Puzzle, ReadError> {
    let mut chunks = Chunks::new(input)?;
    let (start, more) = read_line(&mut chunks, Role::Start, None, false)?;
    // A start line's `\n` followed by nothing is no goal line at all.
    if !more || !chunks.fill()? {
        return Err(BoardError::new(Role::Goal, ErrorKind::MissingLine).into());
    }
    let (goal, more) = read_line(&mut chunks, Role::Goal, Some(start.len() as u64), false)?;
    if more {
        check_trailing(&mut chunks)?;
    }
    Ok(Puzzle::new(start, goal)?)
}

/// Checks that only spaces, tabs and line ends follow the goal line.
fn check_trailing<R: Read>(chunks: &mut Chunks<R>) -> Result<(), ReadError> {
    let mut line = 3;
    while chunks.fill()? {
        // Whitespace in bulk: a long tail of blank lines costs no more than a
        // scan of its bytes.
        for &byte in &chunks.buffer[chunks.pos..chunks.end] {
            match byte {
                b' ' | b'\t' => {}
                b'\n' => line += 1,
                _ => break,
            }
            chunks.pos += 1;
        }
        if chunks.pos == chunks.end {
            continue;
        }
        // A `\r` is harmless only right before `\n` or the end.
        let byte = chunks.buffer[chunks.pos];
        chunks.fill_to(2)?;
        let next = chunks.buffer[chunks.pos..chunks.end].get(1).copied();
        if byte == b'\r' && next.is_none_or(|b| b == b'\n') {
            chunks.pos += 1;
            continue;
        }
        chunks.fill_to(41)?;
        let rest = &chunks.buffer[chunks.pos..chunks.end];
        let text_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let text = &rest[..text_end];
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        return Err(BoardError::new(
            Role::Goal,
            ErrorKind::ExtraInput {
                line,
                text: show_bytes(text, 40),
            },
        )
        .into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;

    /// A reader that hands out its bytes in pieces of `step`, to test tokens,
    /// `\r\n` and the byte-order mark split across chunks.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn read(text: &[u8]) -> Result<Puzzle, String> {
        let whole = read_puzzle(text).map_err(|e| e.to_string());
        // Every split of the input must give the same answer.
        for step in [1, 2, 3, 5, 7] {
            let split = read_puzzle(Trickle { bytes: text, step }).map_err(|e| e.to_string());
            assert_eq!(
                split,
                whole,
                "step {step} on {:?}",
                String::from_utf8_lossy(text)
            );
        }
        whole
    }

    fn error(text: &[u8]) -> String {
        read(text).unwrap_err()
    }

    #[test]
    fn reads_the_assignment_example() {
        let p =
            read(b"9 12 5 4 2 b 7 11 3 6 10 13 14 1 8 15\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 b 15\n")
                .unwrap();
        assert!(p.is_solvable());
        assert_eq!(
            p.start().to_string(),
            "9 12 5 4 2 b 7 11 3 6 10 13 14 1 8 15"
        );
    }

    #[test]
    fn windows_files_work() {
        let p = read(b"\xEF\xBB\xBF1 2 3 b\r\n1 2 b 3\r\n\r\n").unwrap();
        assert!(p.is_solvable());
        let p = read(b"\t1\t2 3  b \r\n 1 2 3 b\r").unwrap();
        assert_eq!(p.goal().to_string(), "1 2 3 b");
    }

    #[test]
    fn goal_may_lack_its_newline() {
        assert!(read(b"1 2 3 b\n2 1 3 b").is_ok());
        assert!(read(b"1 2 3 b\n1 2 3 b\n  \t\n\n").is_ok());
    }

    #[test]
    fn rejects_empty_input_and_missing_goal() {
        assert_eq!(error(b""), "start board: the line is empty");
        assert_eq!(error(b"\n\n"), "start board: the line is empty");
        assert_eq!(
            error(b"  \t \r\n1 2 3 b\n"),
            "start board: the line is empty"
        );
        assert_eq!(
            error(b"1 2 3 b"),
            "goal board: missing: the input ends after the start board"
        );
        assert_eq!(
            error(b"1 2 3 b\n"),
            "goal board: missing: the input ends after the start board"
        );
        assert_eq!(error(b"1 2 3 b\n\n"), "goal board: the line is empty");
        assert_eq!(error(b"1 2 3 b\n \t"), "goal board: the line is empty");
        assert_eq!(error(b"1 2 3 b\n\r\n"), "goal board: the line is empty");
    }

    #[test]
    fn rejects_invalid_tokens_by_name() {
        assert_eq!(
            error(b"1 2 3b\n3 2 1 b\n"),
            "start board: token 3 '3b' is neither a number nor 'b'"
        );
        assert_eq!(
            error(b"1 2 3 b\n1 2 3 butter\n"),
            "goal board: token 4 'butter' is neither a number nor 'b'"
        );
        assert_eq!(
            error(b"-1 2 3 b\n1 2 3 b\n"),
            "start board: token 1 '-1' is neither a number nor 'b'"
        );
        assert_eq!(
            error(b"1 2 3 B\n1 2 3 b\n"),
            "start board: token 4 'B' is neither a number nor 'b'"
        );
        assert_eq!(
            error(b"1 2\r3 b\n1 2 3 b\n"),
            "start board: token 2 '2\\r3' is neither a number nor 'b'"
        );
        assert_eq!(
            error(b"1 2 \r 3 b\n1 2 3 b\n"),
            "start board: token 3 '\\r' is neither a number nor 'b'"
        );
        assert_eq!(
            error(b"1 2 3 b\r\r\n1 2 3 b\n"),
            "start board: token 4 'b\\r' is neither a number nor 'b'"
        );
        assert_eq!(
            error("1 2 \u{0663} b\n".as_bytes()),
            "start board: token 3 '\\xd9\\xa3' is neither a number nor 'b'"
        );
        assert_eq!(
            error(b"1 2 3 b\n\xEF\xBB\xBF1 2 3 b\n"),
            "goal board: token 1 '\\xef\\xbb\\xbf1' is neither a number nor 'b'"
        );
    }

    #[test]
    fn long_tokens_are_cut_in_messages() {
        let mut text = b"1 2 3 b\n1 2 3 b".to_vec();
        text.extend(std::iter::repeat_n(b'x', 100));
        assert_eq!(
            error(&text),
            format!(
                "goal board: token 4 'b{}...' is neither a number nor 'b'",
                "x".repeat(39)
            )
        );
    }

    #[test]
    fn rejects_wrong_counts() {
        assert_eq!(
            error(b"1 2 3 4 5 b\n1 2 3 4 5 b\n"),
            "start board: 6 tokens do not make a square board (2x2 needs 4, 3x3 needs 9); a board is one line with all its tiles, not one row a line"
        );
        assert_eq!(
            error(b"b\nb\n"),
            "start board: 1 token makes a 1x1 board, but the smallest is 2x2"
        );
        assert_eq!(
            error(b"1 2 3 b\n1 2 3 b 1 2 3 b\n"),
            "goal board: more than 4 tokens, but the start board is 2x2: the boards differ in size"
        );
        assert_eq!(
            error(b"1 2 3 b\n1 2 3 4 5 6 7 8 b\n"),
            "goal board: more than 4 tokens, but the start board is 2x2: the boards differ in size"
        );
        assert_eq!(
            error(b"1 2 3 b\n1 2 3 4\n"),
            "goal board: tile 4 at token 4 is out of range 1..3 for a 2x2 board"
        );
        assert_eq!(
            error(b"1 2 3 4 5 6 7 8 b\n1 2 3 b\n"),
            "goal board: 4 tokens make a 2x2 board, but the start board is 3x3 (9 tokens): the boards differ in size"
        );
        assert_eq!(
            error(b"1 2 3 4 5 6 7 8 b\n1 2 3 99999999999999999999999999999999999999999999999999 b"),
            "goal board: 5 tokens, but the start board is 3x3 (9 tokens): the boards differ in size"
        );
    }

    #[test]
    fn rejects_blank_faults() {
        assert_eq!(
            error(b"1 2 3 1\n1 2 3 b\n"),
            "start board: tile 1 appears twice (tokens 1 and 4)"
        );
        assert_eq!(
            error(b"1 2 3 4\n1 2 3 b\n"),
            "start board: there is no blank 'b'"
        );
        assert_eq!(
            error(b"1 2 5 b\n1 2 3 b\n"),
            "start board: tile 5 at token 3 is out of range 1..3 for a 2x2 board"
        );
        assert_eq!(
            error(b"5 2 3 4 6 7 8 9 1\n1 2 3 b\n"),
            "start board: there is no blank 'b'"
        );
        assert_eq!(
            error(b"1 2 3 b\nb 2 1 b\n"),
            "goal board: a second blank 'b' at token 4 (the first is token 1)"
        );
    }

    #[test]
    fn rejects_numbers_out_of_range() {
        assert_eq!(
            error(b"2 1 3 b\nb 2 1 9\n"),
            "goal board: tile 9 at token 4 is out of range 1..3 for a 2x2 board"
        );
        assert_eq!(
            error(b"0 1 2 b\n1 2 3 b\n"),
            "start board: tile 0 at token 1 is out of range: tiles are numbered from 1 (the blank is written 'b')"
        );
        assert_eq!(
            error(b"4294967297 1 2 b\n1 2 3 b\n"),
            "start board: number 4294967297 at token 1 is too large to be a tile"
        );
        assert_eq!(
            error(b"2147000000 1 2 b\n1 2 3 b\n"),
            "start board: tile 2147000000 at token 1 is out of range 1..3 for a 2x2 board"
        );
        let huge = format!("1 2 3 b\n1 2 3 00{}\n", "9".repeat(100));
        assert_eq!(
            error(huge.as_bytes()),
            format!(
                "goal board: tile {}... at token 4 is out of range 1..3 for a 2x2 board",
                "9".repeat(40)
            )
        );
        assert_eq!(
            read(b"001 002 003 b\n1 2 3 b\n")
                .unwrap()
                .start()
                .to_string(),
            "1 2 3 b"
        );
    }

    #[test]
    fn rejects_anything_after_the_goal_line() {
        assert_eq!(
            error(b"1 2 3 b\n1 2 3 b\n1 2 3 b"),
            "goal board: extra input after it, on line 3: '1 2 3 b'"
        );
        assert_eq!(
            error(b"1 2 3 b\n1 2 3 b\n\n  x\r\n"),
            "goal board: extra input after it, on line 4: 'x'"
        );
        assert_eq!(
            error(b"1 2 3 b\n1 2 3 b\n\r\r\n"),
            "goal board: extra input after it, on line 3: '\\r'"
        );
        assert!(read(b"1 2 3 b\n1 2 3 b\n\r").is_ok());
    }
}
