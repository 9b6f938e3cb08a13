//! Keeping a line's tiles: storing them, finding a repeated tile, and counting
//! the inversion parity, on a second core when the line is long.
//!
//! The scanner ([`crate::board_adt::parse`]) hands over tiles in blocks. Short lines are
//! checked inline; once a line proves long (a full block), the [`TileKeeper`]
//! moves to a worker thread and the scanner goes on reading while the worker
//! checks: on a million-cell board the two halves of the work overlap, which is
//! what lets `puzzle` keep up with `wc -w`. The worker stops at the first repeat
//! and says so through a flag; the scanner then stops too.
//!
//! Whatever the threads do, the fault reported is the one the bytes say comes
//! first: the scanner's faults are at its current token, the worker's at earlier
//! ones, so the scanner always lets the worker finish before it reports.

use super::parity::TileSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Tiles handed over at a time: 64 KiB, small enough to stay in cache, large
/// enough that the handing over costs nothing.
pub(crate) const BLOCK: usize = 16 * 1024;

/// Tiles below this are checked for repeats (and counted for parity) as they
/// arrive, whatever the line's length turns out to be: 4 MiB of tree at most.
const EAGER_TILES: u64 = 1 << 24;

/// Why keeping the tiles stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum KeepFault {
    /// `tile` occurs at tokens `first` and `second` (counting from 1).
    Repeated { tile: u32, first: u64, second: u64 },
    /// No memory for more tiles.
    OutOfMemory { tiles: usize },
}

/// The tiles of one line, checked as they arrive. The blank is the tile `0`.
pub(crate) struct TileKeeper {
    /// The line's token count, when known (the goal line).
    expected: Option<u64>,
    tiles: Vec<u32>,
    seen: TileSet,
    /// Tiles from here up are too large to check as they arrive (unless the line
    /// is already long enough to make them plausible).
    eager: u64,
    /// Some tile was too large to check as it arrived: [`TileKeeper::finish`]
    /// must check the whole line.
    deferred: bool,
    fault: Option<KeepFault>,
}

impl TileKeeper {
    /// A keeper for a line that must have `expected` tokens, if known.
    pub(crate) fn new(expected: Option<u64>) -> TileKeeper {
        TileKeeper {
            expected,
            // The goal line's size is known: one allocation, exactly.
            tiles: Vec::with_capacity(expected.unwrap_or(0) as usize),
            seen: TileSet::with_capacity(expected.unwrap_or(64)),
            eager: EAGER_TILES,
            deferred: false,
            fault: None,
        }
    }

    /// Keeps `block`, the next tiles of the line; `false` once a fault is found.
    fn keep(&mut self, block: &[u32]) -> bool {
        if self.fault.is_some() {
            return false;
        }
        if self.tiles.capacity() - self.tiles.len() < block.len() {
            // Asking rather than assuming: a huge line must end in an error, not
            // in an abort when memory runs out.
            let more = self.tiles.len().max(block.len());
            if self.tiles.try_reserve(more).is_err() {
                self.fault = Some(KeepFault::OutOfMemory {
                    tiles: self.tiles.len(),
                });
                return false;
            }
        }
        for &tile in block {
            let value = u64::from(tile);
            if tile != 0 {
                if value >= self.seen.capacity() {
                    let count = self.tiles.len() as u64;
                    if self.expected.is_none() && (value < self.eager || value < 16 * count) {
                        self.seen.grow((value + 1).next_power_of_two());
                    } else {
                        self.deferred = true;
                    }
                }
                if value < self.seen.capacity() && self.seen.insert(value).is_err() {
                    self.fault = Some(repeated(&self.tiles, tile));
                    return false;
                }
            }
            self.tiles.push(tile);
        }
        true
    }

    /// The first fault found, if any.
    pub(crate) fn fault(&self) -> Option<&KeepFault> {
        self.fault.as_ref()
    }

    /// The tiles kept so far, in order.
    pub(crate) fn tiles(&self) -> &[u32] {
        &self.tiles
    }

    /// Once the line has ended and its tiles are known to lie in `1 .. count`
    /// with one blank: checks what arrived too large to check at once. Returns the
    /// tiles and whether their inversions are odd, or the first repeat.
    pub(crate) fn finish(mut self) -> Result<(Vec<u32>, bool), KeepFault> {
        if self.deferred {
            self.seen.reset(self.tiles.len() as u64);
            for (index, &tile) in self.tiles.iter().enumerate() {
                if tile != 0 && self.seen.insert(u64::from(tile)).is_err() {
                    return Err(repeated(&self.tiles[..index], tile));
                }
            }
        }
        let odd = self.seen.odd_inversions();
        Ok((self.tiles, odd))
    }
}

/// The fault of `tile` coming again right after `before`.
fn repeated(before: &[u32], tile: u32) -> KeepFault {
    let first = before.iter().position(|&t| t == tile).unwrap_or(0) as u64 + 1;
    let second = before.len() as u64 + 1;
    KeepFault::Repeated {
        tile,
        first,
        second,
    }
}

/// Where the tiles go: checked inline, or by a worker thread.
pub(crate) enum Keeper {
    /// Checked on this thread, as blocks fill.
    Inline(TileKeeper),
    /// Checked by a worker, which receives full blocks and sends back empty ones.
    Worker {
        blocks: SyncSender<Vec<u32>>,
        empties: Receiver<Vec<u32>>,
        stopped: Arc<AtomicBool>,
        worker: JoinHandle<TileKeeper>,
    },
    /// Finished, or between states.
    Moving,
}

impl Keeper {
    /// A keeper for a line of `expected` tokens, if known.
    pub(crate) fn new(expected: Option<u64>) -> Keeper {
        Keeper::Inline(TileKeeper::new(expected))
    }

    /// Hands over a full block (which is emptied, its memory kept or swapped for
    /// another's). Returns `false` when keeping has stopped on a fault: the caller
    /// should [`Keeper::finish`] and report.
    pub(crate) fn hand_over(&mut self, block: &mut Vec<u32>) -> bool {
        match self {
            Keeper::Inline(keeper) => {
                let ok = keeper.keep(block);
                block.clear();
                if ok {
                    self.move_to_worker();
                }
                ok
            }
            Keeper::Worker {
                blocks,
                empties,
                stopped,
                ..
            } => {
                let empty = empties
                    .try_recv()
                    .unwrap_or_else(|_| Vec::with_capacity(BLOCK));
                let full = std::mem::replace(block, empty);
                // A send fails only if the worker has stopped, which the flag says.
                let _ = blocks.send(full);
                !stopped.load(Ordering::Acquire)
            }
            Keeper::Moving => unreachable!("a keeper is never left moving"),
        }
    }

    /// Starts a worker thread that keeps the tiles from now on. If the thread
    /// cannot be started, keeping simply stays inline.
    fn move_to_worker(&mut self) {
        let Keeper::Inline(keeper) = std::mem::replace(self, Keeper::Moving) else {
            unreachable!("only an inline keeper moves")
        };
        let (blocks, inbox) = sync_channel::<Vec<u32>>(4);
        let (outbox, empties) = sync_channel::<Vec<u32>>(8);
        // The keeper is sent once the thread exists, so a failed spawn keeps it.
        let (hand, take) = sync_channel::<TileKeeper>(1);
        let stopped = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stopped);
        let spawned = std::thread::Builder::new()
            .name("tile-check".into())
            .spawn(move || {
                let mut keeper = take.recv().expect("the keeper is sent at once");
                for mut block in inbox {
                    if !keeper.keep(&block) {
                        flag.store(true, Ordering::Release);
                        break;
                    }
                    block.clear();
                    // If the scanner has enough empties, this one is dropped.
                    let _ = outbox.try_send(block);
                }
                keeper
            });
        *self = match spawned {
            Ok(worker) => {
                hand.send(keeper).expect("the worker waits for the keeper");
                Keeper::Worker {
                    blocks,
                    empties,
                    stopped,
                    worker,
                }
            }
            Err(_) => Keeper::Inline(keeper),
        };
    }

    /// Hands over the last, partly filled block and waits for the keeping to end;
    /// `None` if it has already ended.
    pub(crate) fn finish(&mut self, last: &[u32]) -> Option<TileKeeper> {
        Some(match std::mem::replace(self, Keeper::Moving) {
            Keeper::Inline(mut keeper) => {
                keeper.keep(last);
                keeper
            }
            Keeper::Worker {
                blocks,
                empties,
                worker,
                ..
            } => {
                let _ = blocks.send(last.to_vec());
                drop(blocks);
                drop(empties);
                match worker.join() {
                    Ok(keeper) => keeper,
                    // The worker only runs `keep`, which does not panic; if it
                    // ever did, that is a bug to surface, not to hide.
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            Keeper::Moving => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keep_all(tiles: &[u32], expected: Option<u64>) -> TileKeeper {
        let mut keeper = Keeper::new(expected);
        let mut block = Vec::with_capacity(BLOCK);
        for &t in tiles {
            block.push(t);
            if block.len() == BLOCK && !keeper.hand_over(&mut block) {
                break;
            }
        }
        keeper.finish(&block).unwrap()
    }

    #[test]
    fn a_repeat_far_into_a_long_line_is_found_with_its_position() {
        let mut tiles: Vec<u32> = (0..100_000).collect();
        tiles[90_000] = 17;
        let keeper = keep_all(&tiles, None);
        assert_eq!(
            keeper.fault(),
            Some(&KeepFault::Repeated {
                tile: 17,
                first: 18,
                second: 90_001
            })
        );
    }

    #[test]
    fn long_and_short_lines_agree_on_parity() {
        let tiles: Vec<u32> = (0..70_000u32).rev().collect();
        let (kept, odd) = keep_all(&tiles, None).finish().unwrap();
        assert_eq!(kept, tiles);
        // Tiles 1..69999 reversed: n(n-1)/2 inversions with n = 69999.
        assert_eq!(odd, (69_999u64 * 69_998 / 2) % 2 == 1);
        let (_, odd_goal) = keep_all(&tiles, Some(70_000)).finish().unwrap();
        assert_eq!(odd, odd_goal);
    }

    #[test]
    fn tiles_too_large_to_check_at_once_are_checked_at_the_end() {
        // 150 comes first, too large to check at once, and again at token 152.
        let mut tiles = vec![150u32];
        tiles.extend(0..150);
        tiles.push(150);
        tiles.extend(151..200);
        let mut keeper = TileKeeper::new(None);
        keeper.eager = 64;
        assert!(keeper.keep(&tiles));
        assert_eq!(keeper.fault(), None);
        assert_eq!(
            keeper.finish().unwrap_err(),
            KeepFault::Repeated {
                tile: 150,
                first: 1,
                second: 152
            }
        );
    }
}
