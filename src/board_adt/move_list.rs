//! [`MoveList`]: a solution's moves packed two bits each, for solutions of any
//! length.
//!
//! A valid solution of a 1000x1000 board has about 2.6 billion moves. As a
//! `Vec<Move>` that is 2.6 GB, and up to twice that while the vector doubles its
//! capacity; packed four to a byte in blocks of 1 MiB it is 0.65 GB and never
//! more than one block beyond. Full blocks are never moved, so growing a long
//! list copies at most one block; the last block grows as a vector does, so a
//! short solution (most are) costs a few bytes, not a block.

use super::moves::Move;
use std::fmt;

/// Moves a block holds: 4 Mi moves in 1 MiB.
const BLOCK_MOVES: usize = 1 << 22;

/// Bytes of a full block.
const BLOCK_BYTES: usize = BLOCK_MOVES / 4;

/// A list of moves, packed two bits a move.
///
/// # Examples
///
/// ```
/// use puzzle::board_adt::{Move, MoveList};
/// let mut list = MoveList::new();
/// list.push(Move::Up);
/// list.push(Move::Left);
/// assert_eq!(list.len(), 2);
/// assert_eq!(list.last(), Some(Move::Left));
/// assert_eq!(list.iter().collect::<Vec<_>>(), [Move::Up, Move::Left]);
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct MoveList {
    /// Full blocks of `BLOCK_BYTES`, then the one being filled, which holds
    /// just the bytes of its moves; bits beyond `len` are zero, so equal lists
    /// compare equal.
    blocks: Vec<Vec<u8>>,
    len: usize,
}

impl MoveList {
    /// An empty list; it allocates nothing until the first move.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list has no moves.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `mv` at the end.
    pub fn push(&mut self, mv: Move) {
        let at = self.len % BLOCK_MOVES;
        if at == 0 {
            self.blocks.push(Vec::new());
        }
        let block = self.blocks.last_mut().expect("a block");
        if at.is_multiple_of(4) {
            if block.len() == block.capacity() {
                // Doubling, but never past a full block.
                let want = (2 * block.capacity()).clamp(16, BLOCK_BYTES);
                block.reserve_exact(want - block.len());
            }
            block.push(0);
        }
        *block.last_mut().expect("a byte") |= (mv as u8) << (2 * (at % 4));
        self.len += 1;
    }

    /// Adds `mv` at the end, or, if it undoes the last move, removes that
    /// one instead.
    pub fn push_cancelling(&mut self, mv: Move) {
        if self.last() == Some(mv.inverse()) {
            self.pop();
        } else {
            self.push(mv);
        }
    }

    /// Removes and returns the last move.
    pub fn pop(&mut self) -> Option<Move> {
        let last = self.last()?;
        self.len -= 1;
        let at = self.len % BLOCK_MOVES;
        let block = self.blocks.last_mut().expect("a block");
        if at.is_multiple_of(4) {
            block.pop();
        } else {
            *block.last_mut().expect("a byte") &= !(3 << (2 * (at % 4)));
        }
        if at == 0 {
            self.blocks.pop();
        }
        Some(last)
    }

    /// The last move.
    pub fn last(&self) -> Option<Move> {
        self.len.checked_sub(1).map(|i| self.get(i))
    }

    /// The move at `index`.
    ///
    /// # Panics
    ///
    /// If `index` is not below `len()`.
    pub fn get(&self, index: usize) -> Move {
        assert!(index < self.len, "move {index} of {}", self.len);
        let (block, at) = (index / BLOCK_MOVES, index % BLOCK_MOVES);
        decode(self.blocks[block][at / 4] >> (2 * (at % 4)))
    }

    /// The moves in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        (0..self.len).map(move |i| self.get(i))
    }

    /// The moves in order, a slice of up to `buffer.len()` at a time: the fast way
    /// to walk a long list.
    pub fn for_each_run(
        &self,
        buffer: &mut [Move],
        mut run: impl FnMut(&[Move]) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let mut filled = 0;
        for (block_index, block) in self.blocks.iter().enumerate() {
            let moves_here = (self.len - block_index * BLOCK_MOVES).min(BLOCK_MOVES);
            for (byte_index, &byte) in block.iter().enumerate() {
                let count = (moves_here - byte_index * 4).min(4);
                for k in 0..count {
                    buffer[filled] = decode(byte >> (2 * k));
                    filled += 1;
                    if filled == buffer.len() {
                        run(buffer)?;
                        filled = 0;
                    }
                }
            }
        }
        if filled > 0 {
            run(&buffer[..filled])?;
        }
        Ok(())
    }

    /// Replaces every move `mv` by `map[mv]` (`map` indexed `U D L R`), as when a
    /// solution found on a mirrored board is mapped back.
    pub fn map_each(&mut self, map: [Move; 4]) {
        // Four moves a byte: one table lookup per byte.
        let mut table = [0u8; 256];
        for (byte, entry) in table.iter_mut().enumerate() {
            for k in 0..4 {
                let mv = decode((byte >> (2 * k)) as u8);
                *entry |= (map[mv as usize] as u8) << (2 * k);
            }
        }
        let len = self.len;
        for (block_index, block) in self.blocks.iter_mut().enumerate() {
            let moves_here = (len - block_index * BLOCK_MOVES).min(BLOCK_MOVES);
            for (byte_index, byte) in block.iter_mut().enumerate() {
                let mapped = table[*byte as usize];
                // Bits past the end stay zero.
                let count = (moves_here - byte_index * 4).min(4);
                let keep = if count == 4 {
                    0xFF
                } else {
                    (1u8 << (2 * count)) - 1
                };
                *byte = mapped & keep;
            }
        }
    }

    /// The moves as a vector, one byte a move.
    pub fn to_vec(&self) -> Vec<Move> {
        self.iter().collect()
    }
}

fn decode(bits: u8) -> Move {
    Move::ALL[(bits & 3) as usize]
}

impl From<Vec<Move>> for MoveList {
    fn from(moves: Vec<Move>) -> MoveList {
        moves.into_iter().collect()
    }
}

impl FromIterator<Move> for MoveList {
    fn from_iter<I: IntoIterator<Item = Move>>(moves: I) -> MoveList {
        let mut list = MoveList::new();
        for mv in moves {
            list.push(mv);
        }
        list
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, moves: I) {
        for mv in moves {
            self.push(mv);
        }
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = self.len.min(64);
        let letters: String = self
            .iter()
            .take(shown)
            .map(|m| m.letter() as char)
            .collect();
        let more = if shown < self.len { "..." } else { "" };
        write!(f, "MoveList({} moves: {letters}{more})", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::SplitMix64;

    fn random_moves(count: usize, seed: u64) -> Vec<Move> {
        let mut rng = SplitMix64::new(seed);
        (0..count)
            .map(|_| Move::ALL[rng.below(4) as usize])
            .collect()
    }

    #[test]
    fn a_move_that_undoes_the_last_cancels_it() {
        let mut list = MoveList::new();
        for mv in [Move::Up, Move::Left, Move::Right, Move::Up, Move::Down] {
            list.push_cancelling(mv);
        }
        assert_eq!(list.to_vec(), [Move::Up]);
        list.push_cancelling(Move::Down);
        assert!(list.is_empty());
        list.push_cancelling(Move::Down);
        assert_eq!(list.to_vec(), [Move::Down]);
    }

    #[test]
    fn pushes_and_pops_round_trip_across_blocks() {
        let moves = random_moves(BLOCK_MOVES + 7, 1);
        let mut list: MoveList = moves.clone().into();
        assert_eq!(list.len(), moves.len());
        assert_eq!(list.blocks.len(), 2);
        assert_eq!(list.to_vec(), moves);
        for expected in moves[BLOCK_MOVES - 3..].iter().rev() {
            assert_eq!(list.pop(), Some(*expected));
        }
        assert_eq!(list.blocks.len(), 1, "an emptied block is freed");
        assert_eq!(list.blocks[0].len(), (BLOCK_MOVES - 3).div_ceil(4));
        assert_eq!(list.to_vec(), moves[..BLOCK_MOVES - 3]);
        // Popping then pushing leaves no stale bits behind.
        let mut other: MoveList = moves[..BLOCK_MOVES - 3].to_vec().into();
        assert_eq!(list, other);
        list.push(Move::Up);
        other.push(Move::Up);
        assert_eq!(list, other);
    }

    #[test]
    fn runs_cover_every_move_in_order() {
        let moves = random_moves(1003, 2);
        let list = MoveList::from(moves.clone());
        for size in [1, 3, 4, 1000, 4096] {
            let mut seen = Vec::new();
            let mut buffer = vec![Move::Up; size];
            list.for_each_run(&mut buffer, |run| {
                assert!(run.len() <= size && !run.is_empty());
                seen.extend_from_slice(run);
                Ok(())
            })
            .unwrap();
            assert_eq!(seen, moves, "runs of {size}");
        }
    }

    #[test]
    fn map_each_maps_every_move_and_keeps_the_tail_clean() {
        let moves = random_moves(1001, 3);
        let map = [Move::Left, Move::Right, Move::Up, Move::Down];
        let mut list = MoveList::from(moves.clone());
        list.map_each(map);
        let mapped: Vec<Move> = moves.iter().map(|&m| map[m as usize]).collect();
        assert_eq!(list.to_vec(), mapped);
        assert_eq!(list, MoveList::from(mapped));
    }

    #[test]
    fn short_lists_take_a_few_bytes() {
        let list = MoveList::from(random_moves(50, 4));
        assert!(list.blocks[0].capacity() <= 16, "not a whole block");
    }

    #[test]
    fn an_empty_list_allocates_nothing() {
        let mut list = MoveList::new();
        assert!(list.is_empty());
        assert_eq!(list.pop(), None);
        assert_eq!(list.last(), None);
        assert!(list.blocks.is_empty());
    }
}
