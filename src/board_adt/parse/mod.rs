//! The parser: one board line, fed as a stream of byte chunks, checked as it goes.
//!
//! [`LineParser`] turns the bytes of one line into a [`CheckedLine`] (the parts of
//! a [`crate::board_adt::Board`]), stopping at the first
//! fault it can already prove: an invalid token, a second blank, a number too large
//! for any board (or, on the goal line, for the start board's size), a repeated
//! tile, or a goal line longer than the start line. Faults that only the end of the
//! line can reveal (a token count that is not a square, a missing blank) are
//! reported when it ends. Nothing is buffered but the tiles themselves, so a line of
//! any length costs four bytes a token, and hostile input fails fast.
//!
//! The parser knows tokens and line ends; the byte-order mark and the lines after
//! the goal belong to [`crate::input`].

pub(crate) mod parity;
mod tile_check;

use crate::board_adt::error::{show_bytes, BoardError, ErrorKind, ReadError, Role};
use crate::board_adt::size::{isqrt, MAX_CELLS};
use std::io;
use tile_check::{KeepFault, Keeper, TileKeeper, BLOCK};

/// How much of a token an error message shows.
const SHOWN_BYTES: usize = 40;

/// Numbers are accumulated saturating at this value, far above any tile.
const NUMBER_CAP: u64 = 1 << 40;

/// Where the scanner is between two chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Between tokens (or before the first).
    Gap,
    /// Inside a number; its value so far is in `LineParser::value`.
    Number,
    /// Just after a `b`, which must now end.
    Blank,
    /// Inside an invalid token, collecting its text for the message.
    Invalid,
}

/// What a chunk did to the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fed {
    /// The whole chunk belongs to the line, which goes on.
    More,
    /// The line ended; its `\n` is just before this index of the chunk.
    LineEnd(usize),
}

/// A line checked whole: `side * side` cells holding one blank (`0`) and the
/// tiles `1 .. side*side-1` once each. The board module wraps it in a `Board`.
pub(crate) struct CheckedLine {
    pub(crate) side: usize,
    pub(crate) cells: Vec<u32>,
    pub(crate) blank: usize,
    /// Whether the tiles (the blank left out) have an odd number of inversions.
    pub(crate) odd_inversions: bool,
}

/// Parses one board line from byte chunks; see the module docs.
///
/// Every message depends only on the bytes, never on how they were split into
/// chunks: a token's text is collected across chunks, and a number is out of
/// range as soon as its value reaches the limit, whatever follows it.
pub(crate) struct LineParser {
    role: Role,
    /// The token count the line must have (the goal line), if known.
    expected: Option<u64>,
    /// Numbers at or above this are out of range.
    limit: u64,
    /// The tiles scanned but not yet handed to the keeper (the blank is 0).
    block: Vec<u32>,
    /// Stores the tiles and checks them for repeats and parity.
    keeper: Keeper,
    /// Tokens finished so far.
    count: u64,
    blank: Option<u64>,
    max_tile: u32,
    state: State,
    /// The last chunk ended with a `\r`; whether it ends the line depends on the
    /// next byte.
    cr_pending: bool,
    value: u64,
    /// For messages: a number's leading zeros from earlier chunks, and its first
    /// significant digits; or an invalid token's text so far.
    zeros: u64,
    text: Vec<u8>,
    /// On the goal line, a tile too large for the start board's size, held
    /// while the rest of the line is counted: if the goal has another number
    /// of tokens, the fault to report is that the boards differ in size.
    held: Option<Held>,
}

/// A goal line's out-of-range fault, held while its tokens are counted.
struct Held {
    fault: ReadError,
    /// Tokens counted so far, the held one included.
    tokens: u64,
    /// Whether the counting is inside a token.
    inside: bool,
}

impl LineParser {
    /// A parser for the line of `role`; `expected` is the token count it must have,
    /// if known.
    pub(crate) fn new(role: Role, expected: Option<u64>) -> Self {
        LineParser {
            role,
            expected,
            limit: expected.unwrap_or(MAX_CELLS),
            block: Vec::with_capacity(BLOCK),
            keeper: Keeper::new(expected),
            count: 0,
            blank: None,
            max_tile: 0,
            state: State::Gap,
            cr_pending: false,
            value: 0,
            zeros: 0,
            text: Vec::new(),
            held: None,
        }
    }

    fn fault(&self, kind: ErrorKind) -> ReadError {
        ReadError::Invalid(BoardError::new(self.role, kind))
    }

    /// Scans `chunk`, the next bytes of the line.
    ///
    /// The scanner is a state machine whose common paths (spaces, digits) are tight
    /// loops over the chunk; anything unusual (`\r`, a bad byte) leaves them for
    /// [`LineParser::odd_byte`]. Tokens may span chunks: the state, the number's
    /// value and the text kept for messages carry over.
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> Result<Fed, ReadError> {
        if self.held.is_some() {
            return self.count_rest(chunk, 0);
        }
        let (entry_count, entry_inside) = (self.count, self.state != State::Gap);
        match self.scan(chunk).map_err(|e| self.settle(e)) {
            Err(fault) if self.is_size_hint(&fault) => {
                // Find the held token in this chunk: the tokens finished here
                // came before it.
                let mut before = self.count - entry_count;
                let mut inside = entry_inside;
                let mut at = 0;
                if inside && before > 0 {
                    before -= 1;
                    inside = false;
                    while !is_gap(chunk[at]) {
                        at += 1;
                    }
                }
                while !inside {
                    if is_gap(chunk[at]) {
                        at += 1;
                    } else if before == 0 {
                        inside = true;
                    } else {
                        before -= 1;
                        while !is_gap(chunk[at]) {
                            at += 1;
                        }
                    }
                }
                self.held = Some(Held {
                    fault,
                    tokens: self.count + 1,
                    inside: true,
                });
                self.count_rest(chunk, at)
            }
            other => other,
        }
    }

    /// Whether `fault` is a goal tile too large for the start board's size,
    /// which may mean that the goal board is larger.
    fn is_size_hint(&self, fault: &ReadError) -> bool {
        matches!(fault, ReadError::Invalid(e) if matches!(
            e.kind(),
            ErrorKind::OutOfRange { side: Some(_), number, .. } if number != "0"
        )) && self.expected.is_some()
    }

    /// Counts the tokens of `chunk[from..]` while a fault is held: more tokens
    /// than the start board's is a size mismatch at once; the line's end
    /// settles it in [`LineParser::finish`]. (A `\r` starts no token, so that a
    /// CRLF line end is not counted as one.)
    fn count_rest(&mut self, chunk: &[u8], from: usize) -> Result<Fed, ReadError> {
        let expected = self.expected.unwrap_or(MAX_CELLS);
        let held = self.held.as_mut().expect("a fault is held");
        for (i, &byte) in chunk.iter().enumerate().skip(from) {
            match byte {
                b'\n' => return Ok(Fed::LineEnd(i + 1)),
                b' ' | b'\t' | b'\r' => held.inside = false,
                _ if held.inside => {}
                _ => {
                    held.inside = true;
                    held.tokens += 1;
                    if held.tokens > expected {
                        return Err(self.too_many());
                    }
                }
            }
        }
        Ok(Fed::More)
    }

    fn scan(&mut self, chunk: &[u8]) -> Result<Fed, ReadError> {
        let n = chunk.len();
        if n == 0 {
            return Ok(Fed::More);
        }
        let mut i = 0;
        // The token being scanned began at `start` in this chunk, or before it.
        let mut start = 0;
        if self.cr_pending {
            self.cr_pending = false;
            if chunk[0] == b'\n' {
                self.end_token(&[])?;
                return Ok(Fed::LineEnd(1));
            }
            // Not a line end: the `\r` is a byte of an invalid token.
            self.begin_invalid(&[]);
            self.keep_invalid(b'\r');
        }
        loop {
            match self.state {
                State::Gap => {
                    while i < n && (chunk[i] == b' ' || chunk[i] == b'\t') {
                        i += 1;
                    }
                    if i == n {
                        return Ok(Fed::More);
                    }
                    start = i;
                    match chunk[i] {
                        b'0'..=b'9' => {
                            // The common case, a short number and its end within
                            // the chunk, in a few word operations.
                            if let Some((value, len)) = short_number(&chunk[i..]) {
                                match chunk[i + len] {
                                    b' ' | b'\t' => {
                                        self.value = value;
                                        self.push_number(&chunk[i..i + len])?;
                                        i += len + 1;
                                        continue;
                                    }
                                    b'\n' => {
                                        self.value = value;
                                        self.push_number(&chunk[i..i + len])?;
                                        return Ok(Fed::LineEnd(i + len + 1));
                                    }
                                    _ => {}
                                }
                            }
                            self.state = State::Number;
                            self.value = 0;
                            self.zeros = 0;
                            self.text.clear();
                        }
                        b'b' => {
                            self.state = State::Blank;
                            i += 1;
                        }
                        b'\n' => return Ok(Fed::LineEnd(i + 1)),
                        _ => {
                            if let Some(fed) = self.odd_byte(chunk, start, i)? {
                                return Ok(fed);
                            }
                            i += 1;
                        }
                    }
                }
                State::Number => {
                    let mut value = self.value;
                    while i < n {
                        let digit = chunk[i].wrapping_sub(b'0');
                        if digit > 9 {
                            break;
                        }
                        // Saturating keeps the loop free of overflow branches; the
                        // cap is far above any tile.
                        value = (value * 10 + u64::from(digit)).min(NUMBER_CAP);
                        i += 1;
                    }
                    self.value = value;
                    if i == n {
                        self.keep_digits(&chunk[start..]);
                        if value >= self.limit && self.text.len() > SHOWN_BYTES {
                            // Out of range, and the message is complete: a 200 MB
                            // number ends here, not at its last digit.
                            return Err(self.out_of_range(&[]));
                        }
                        return Ok(Fed::More);
                    }
                    match chunk[i] {
                        b' ' | b'\t' => {
                            self.push_number(&chunk[start..i])?;
                            self.state = State::Gap;
                            i += 1;
                        }
                        b'\n' => {
                            self.push_number(&chunk[start..i])?;
                            self.state = State::Gap;
                            return Ok(Fed::LineEnd(i + 1));
                        }
                        _ => {
                            if value >= self.limit {
                                return Err(self.out_of_range(&chunk[start..i]));
                            }
                            if let Some(fed) = self.odd_byte(chunk, start, i)? {
                                return Ok(fed);
                            }
                            i += 1;
                        }
                    }
                }
                State::Blank => {
                    if i == n {
                        return Ok(Fed::More);
                    }
                    match chunk[i] {
                        b' ' | b'\t' => {
                            self.push_blank()?;
                            self.state = State::Gap;
                            i += 1;
                        }
                        b'\n' => {
                            self.push_blank()?;
                            self.state = State::Gap;
                            return Ok(Fed::LineEnd(i + 1));
                        }
                        _ => {
                            if let Some(fed) = self.odd_byte(chunk, start, i)? {
                                return Ok(fed);
                            }
                            i += 1;
                        }
                    }
                }
                State::Invalid => {
                    while i < n {
                        match chunk[i] {
                            b' ' | b'\t' | b'\n' => return Err(self.invalid_token()),
                            b'\r' if i + 1 == n => {
                                self.cr_pending = true;
                                return Ok(Fed::More);
                            }
                            b'\r' if chunk[i + 1] == b'\n' => return Err(self.invalid_token()),
                            byte => {
                                if self.text.len() > SHOWN_BYTES {
                                    return Err(self.invalid_token());
                                }
                                self.keep_invalid(byte);
                                i += 1;
                            }
                        }
                    }
                    return Ok(Fed::More);
                }
            }
        }
    }

    /// Handles `chunk[i]`, a byte that is neither a digit, `b`, a space, a tab nor
    /// `\n`, met inside (or at the start of) the token that began at `chunk[start]`.
    /// A `\r` may end the line (or, at the chunk's end, may not yet tell); anything
    /// else makes the token invalid, and scanning goes on in that state.
    fn odd_byte(&mut self, chunk: &[u8], start: usize, i: usize) -> Result<Option<Fed>, ReadError> {
        if chunk[i] == b'\r' {
            if i + 1 == chunk.len() {
                self.keep_token(&chunk[start..i]);
                self.cr_pending = true;
                return Ok(Some(Fed::More));
            }
            if chunk[i + 1] == b'\n' {
                self.end_token(&chunk[start..i])?;
                return Ok(Some(Fed::LineEnd(i + 2)));
            }
        }
        self.begin_invalid(&chunk[start..i]);
        self.keep_invalid(chunk[i]);
        Ok(None)
    }

    /// Keeps, for messages, the part `bytes` of the current token in a chunk that
    /// ends before the token does.
    fn keep_token(&mut self, bytes: &[u8]) {
        match self.state {
            State::Number => self.keep_digits(bytes),
            State::Invalid => bytes.iter().for_each(|&b| self.keep_invalid(b)),
            State::Gap | State::Blank => {}
        }
    }

    /// Keeps a number's digits: leading zeros are only counted, and the first
    /// significant digits kept, enough for any message.
    fn keep_digits(&mut self, mut digits: &[u8]) {
        if self.text.is_empty() {
            let zeros = digits.iter().take_while(|&&d| d == b'0').count();
            self.zeros += zeros as u64;
            digits = &digits[zeros..];
        }
        let room = (SHOWN_BYTES + 1).saturating_sub(self.text.len());
        self.text
            .extend_from_slice(&digits[..digits.len().min(room)]);
    }

    /// Turns the current token into an invalid one whose text so far is what was
    /// kept of it plus `before`, its bytes in this chunk before the odd byte.
    fn begin_invalid(&mut self, before: &[u8]) {
        let mut text = Vec::with_capacity(SHOWN_BYTES + 1);
        match self.state {
            State::Number => {
                let zeros = self.zeros.min(SHOWN_BYTES as u64 + 1) as usize;
                text.resize(zeros, b'0');
                text.extend_from_slice(&self.text);
            }
            State::Blank => {
                if before.is_empty() {
                    text.push(b'b');
                }
            }
            State::Invalid => text = std::mem::take(&mut self.text),
            State::Gap => {}
        }
        text.extend_from_slice(before);
        text.truncate(SHOWN_BYTES + 1);
        self.text = text;
        self.state = State::Invalid;
    }

    fn keep_invalid(&mut self, byte: u8) {
        if self.text.len() <= SHOWN_BYTES {
            self.text.push(byte);
        }
    }

    /// The error for the invalid token whose text is kept.
    fn invalid_token(&self) -> ReadError {
        self.fault(ErrorKind::InvalidToken {
            position: self.count + 1,
            text: show_bytes(&self.text, SHOWN_BYTES),
        })
    }

    /// Ends the token in progress, if any, at a line end; `rest` is its part in
    /// the current chunk.
    fn end_token(&mut self, rest: &[u8]) -> Result<(), ReadError> {
        match std::mem::replace(&mut self.state, State::Gap) {
            State::Number => self.push_number(rest),
            State::Blank => self.push_blank(),
            State::Invalid => Err(self.invalid_token()),
            State::Gap => Ok(()),
        }
    }

    /// The line ended with the input (no `\n`); a final `\r` is ignored.
    pub(crate) fn feed_end(&mut self) -> Result<(), ReadError> {
        if self.held.is_some() {
            return Ok(());
        }
        self.cr_pending = false;
        self.end_token(&[]).map_err(|e| self.settle(e))
    }

    /// The fault to report when scanning found `fault` at the current token: the
    /// keeper's, if it found one at an earlier token, else `fault`.
    fn settle(&mut self, fault: ReadError) -> ReadError {
        match self.keeper.finish(&self.block) {
            Some(keeper) => self.keeper_error(&keeper).unwrap_or(fault),
            None => fault,
        }
    }

    /// The error for the keeper's fault, if it has one.
    fn keeper_error(&self, keeper: &TileKeeper) -> Option<ReadError> {
        keeper.fault().map(|fault| self.keep_error(fault))
    }

    fn keep_error(&self, fault: &KeepFault) -> ReadError {
        match *fault {
            KeepFault::Repeated {
                tile,
                first,
                second,
            } => self.fault(ErrorKind::Repeated {
                tile: u64::from(tile),
                first,
                second,
            }),
            KeepFault::OutOfMemory { tiles } => ReadError::Io(io::Error::new(
                io::ErrorKind::OutOfMemory,
                format!("no memory for the {} board beyond {tiles} tiles", self.role),
            )),
        }
    }

    /// Hands the full block to the keeper; on its fault, reports it.
    #[inline(never)]
    fn hand_over(&mut self) -> Result<(), ReadError> {
        if self.keeper.hand_over(&mut self.block) {
            return Ok(());
        }
        let keeper = self
            .keeper
            .finish(&[])
            .expect("the keeper stopped, not finished");
        Err(self
            .keeper_error(&keeper)
            .expect("the keeper stopped on a fault"))
    }

    /// The error for the number being scanned, out of range; `rest` is its part in
    /// the current chunk, the rest being kept.
    #[cold]
    fn out_of_range(&mut self, rest: &[u8]) -> ReadError {
        let number = if self.value < NUMBER_CAP {
            self.value.to_string()
        } else {
            self.keep_digits(rest);
            show_bytes(&self.text, SHOWN_BYTES)
        };
        // On the start line the size is not known yet: a number is out of range
        // there only when no board could hold it (or it is 0).
        let side = self.expected.map(isqrt);
        self.fault(ErrorKind::OutOfRange {
            position: self.count + 1,
            number,
            side,
        })
    }

    /// Room for one more token, or the fault of having too many.
    #[inline]
    fn make_room(&self) -> Result<(), ReadError> {
        if self.count == self.expected.unwrap_or(MAX_CELLS) {
            return Err(self.too_many());
        }
        Ok(())
    }

    #[cold]
    fn too_many(&self) -> ReadError {
        match self.expected {
            Some(expected) => self.fault(ErrorKind::SizeMismatch {
                start_side: isqrt(expected),
                goal_tokens: None,
            }),
            None => self.fault(ErrorKind::TooLarge),
        }
    }

    /// Adds a token, tile or blank (0), after its checks.
    #[inline]
    fn push(&mut self, tile: u32) -> Result<(), ReadError> {
        self.block.push(tile);
        self.count += 1;
        if self.block.len() == BLOCK {
            self.hand_over()?;
        }
        Ok(())
    }

    /// Adds the number just scanned; `rest` is its text in the current chunk, for
    /// messages.
    #[inline(always)]
    fn push_number(&mut self, rest: &[u8]) -> Result<(), ReadError> {
        let value = self.value;
        if value == 0 || value >= self.limit {
            return Err(self.out_of_range(rest));
        }
        self.make_room()?;
        let tile = value as u32;
        self.max_tile = self.max_tile.max(tile);
        self.push(tile)
    }

    fn push_blank(&mut self) -> Result<(), ReadError> {
        let position = self.count + 1;
        if let Some(first) = self.blank {
            return Err(self.fault(ErrorKind::SeveralBlanks {
                first: first + 1,
                second: position,
            }));
        }
        self.make_room()?;
        self.blank = Some(self.count);
        self.push(0)
    }

    /// The line has ended: checks what only its end can tell and hands over the
    /// checked cells.
    pub(crate) fn finish(mut self) -> Result<CheckedLine, ReadError> {
        if let Some(held) = self.held.take() {
            return Err(match self.expected {
                Some(expected) if held.tokens != expected => self.fault(ErrorKind::SizeMismatch {
                    start_side: isqrt(expected),
                    goal_tokens: Some(held.tokens),
                }),
                _ => held.fault,
            });
        }
        let Some(keeper) = self.keeper.finish(&self.block) else {
            unreachable!("a parser that reported a fault is not finished")
        };
        if let Some(error) = self.keeper_error(&keeper) {
            return Err(error);
        }
        let count = self.count;
        if count == 0 {
            return Err(self.fault(ErrorKind::EmptyLine));
        }
        if let Some(expected) = self.expected {
            if count != expected {
                return Err(self.fault(ErrorKind::SizeMismatch {
                    start_side: isqrt(expected),
                    goal_tokens: Some(count),
                }));
            }
        }
        let side = isqrt(count);
        if side * side != count {
            return Err(self.fault(ErrorKind::NotSquare { tokens: count }));
        }
        if side < 2 {
            return Err(self.fault(ErrorKind::TooSmall));
        }
        let Some(blank) = self.blank else {
            return Err(self.fault(ErrorKind::NoBlank));
        };
        if u64::from(self.max_tile) >= count {
            let tiles = keeper.tiles();
            let position = tiles.iter().position(|&t| u64::from(t) >= count);
            let position = position.expect("the maximum is one of the tiles");
            return Err(self.fault(ErrorKind::OutOfRange {
                position: position as u64 + 1,
                number: tiles[position].to_string(),
                side: Some(side),
            }));
        }
        // `count` tokens, one blank, all in 1..count, and (once the keeper has
        // checked what it could not check at once) no repeats: a permutation.
        match keeper.finish() {
            Ok((cells, odd_inversions)) => Ok(CheckedLine {
                side: side as usize,
                cells,
                blank: blank as usize,
                odd_inversions,
            }),
            Err(fault) => Err(self.keep_error(&fault)),
        }
    }
}

/// Whether `byte` separates tokens (or ends the line).
fn is_gap(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n')
}

/// The value and length of the number of 1 to 7 digits at the start of `bytes`,
/// if the byte after it is there too (`None` otherwise: the caller scans byte by
/// byte). Eight bytes are classified and converted at once (the "SWAR" way:
/// SIMD within a register), which spares the branch per digit that dominates
/// scanning million-tile lines.
#[inline(always)]
fn short_number(bytes: &[u8]) -> Option<(u64, usize)> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let word = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
    // Digits become 0..=9; every other byte becomes 10 or more (xor is one to one).
    let digits = word ^ (ONES * b'0' as u64);
    // A byte's high bit is set where it is 10 or more; masking to 7 bits first
    // keeps the addition from carrying into the next byte.
    let non_digits = (((digits & (ONES * 0x7F)) + ONES * 0x76) | digits) & (ONES * 0x80);
    let len = (non_digits.trailing_zeros() / 8) as usize;
    if len == 8 {
        return None;
    }
    // Keep the `len` digits, most significant first, as the top bytes of an
    // eight-digit number with leading zeros, then combine neighbours: pairs,
    // quads, the whole.
    let mut v = digits << (8 * (8 - len));
    v = (v.wrapping_mul(10) + (v >> 8)) & 0x00FF_00FF_00FF_00FF;
    v = (v.wrapping_mul(100) + (v >> 16)) & 0x0000_FFFF_0000_FFFF;
    v = (v.wrapping_mul(10_000) + (v >> 32)) & 0xFFFF_FFFF;
    Some((v, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_numbers_are_read_whole_or_not_at_all() {
        assert_eq!(short_number(b"1 ......"), Some((1, 1)));
        assert_eq!(short_number(b"0042\n..."), Some((42, 4)));
        assert_eq!(short_number(b"9999999 "), Some((9_999_999, 7)));
        assert_eq!(short_number(b"1234567x"), Some((1_234_567, 7)));
        assert_eq!(short_number(b"12345678"), None, "eight digits: no end seen");
        assert_eq!(short_number(b"12 3"), None, "fewer than eight bytes");
        // Bytes that are not digits: the neighbours of '0' and '9', and high ones.
        for byte in [b'/', b':', 0x80, 0xB0, 0xFF, 0x00, b' '] {
            let mut bytes = *b"55555555";
            bytes[3] = byte;
            assert_eq!(short_number(&bytes), Some((555, 3)), "byte {byte:#x}");
        }
    }

    #[test]
    fn short_numbers_agree_with_the_byte_by_byte_reading() {
        for n in (0..10_000_000u64)
            .step_by(9_973)
            .chain([0, 7, 10, 99, 100, 9_999_999])
        {
            let text = format!("{n} padding");
            assert_eq!(
                short_number(text.as_bytes()),
                Some((n, text.find(' ').unwrap()))
            );
        }
    }
}
