//! Random puzzles of any size, with a chosen verdict, from a seed.
//!
//! Students use this to make fixtures and the benchmark to make its inputs
//! (`puzzle --generate SIDE`). The same seed always gives the same puzzle, on
//! every machine: the generator is [`SplitMix64`], written here, not the
//! platform's.

#[cfg(test)]
use crate::board_adt::{apply_move, Move};
use crate::board_adt::{Board, Puzzle};

/// SplitMix64's output for the state `x`: 64 well-mixed bits of `x` (also
/// the hash keys of the move beam's cells).
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A small, fast, seedable random number generator (Steele, Lea and Flood's
/// SplitMix64), good enough for shuffling and for tests, and std only.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose sequence is fixed by `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let out = mix(self.state);
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        out
    }

    /// A number in `0 .. bound` (`bound > 0`), without modulo bias worth
    /// mentioning: Lemire's multiply-shift.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// A number in `0 .. bound` (`bound > 0`), as an index.
    pub fn index(&mut self, bound: usize) -> usize {
        self.below(bound as u64) as usize
    }

    /// The numbers `0 .. n` in random order: the cells of a random board, with
    /// `0` for the blank.
    pub fn permutation(&mut self, n: usize) -> Vec<u32> {
        let mut cells: Vec<u32> = (0..n as u32).collect();
        self.shuffle(&mut cells);
        cells
    }

    /// Shuffles `items` uniformly (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// What the goal of a generated puzzle looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalShape {
    /// `1 2 ... N*N-1 b`: the tiles in order, the blank last.
    Standard,
    /// Any arrangement, drawn at random.
    Random,
}

/// The cells of the standard goal, `1 2 ... N*N-1 b`.
pub fn standard_cells(side: usize) -> Vec<u32> {
    let n = side * side;
    (1..n as u32).chain(std::iter::once(0)).collect()
}

/// A random puzzle on a `side`x`side` board (`side >= 2`, `side*side` at most
/// [`crate::board_adt::MAX_CELLS`]) whose goal is reachable exactly when `solvable` is set.
///
/// # Examples
///
/// ```
/// use puzzle::{random_puzzle, GoalShape};
/// let puzzle = random_puzzle(5, true, GoalShape::Standard, 7);
/// assert!(puzzle.is_solvable());
/// assert_eq!(puzzle.goal().to_string().split(' ').last(), Some("b"));
/// assert!(!random_puzzle(5, false, GoalShape::Random, 7).is_solvable());
/// ```
pub fn random_puzzle(side: usize, solvable: bool, goal: GoalShape, seed: u64) -> Puzzle {
    assert!(side >= 2, "boards are at least 2x2");
    let mut rng = SplitMix64::new(seed);
    let mut start = standard_cells(side);
    rng.shuffle(&mut start);
    let mut goal_cells = standard_cells(side);
    if goal == GoalShape::Random {
        rng.shuffle(&mut goal_cells);
    }
    let goal = board_of(goal_cells);
    let mut start_board = board_of(start.clone());
    if start_board.can_reach(&goal) != solvable {
        // Swapping two tiles flips the parity of the inversions, nothing else.
        let (a, b) = match start.iter().position(|&t| t == 0) {
            Some(0) | Some(1) => (2, 3),
            _ => (0, 1),
        };
        start.swap(a, b);
        start_board = board_of(start);
    }
    Puzzle::new(start_board, goal).expect("both boards have the same side")
}

/// The board of cells known to be valid (a permutation with one 0).
fn board_of(cells: Vec<u32>) -> Board {
    Board::from_cells(cells).expect("a shuffled standard board is valid")
}

/// `board` (blank 0) after `steps` random moves, none undoing the one before:
/// a start at most `steps` moves from `board`, for the solvers' tests.
#[cfg(test)]
pub(crate) fn random_walk<T: Copy + Default + PartialEq>(
    rng: &mut SplitMix64,
    side: usize,
    board: &[T],
    steps: usize,
) -> Vec<T> {
    let mut cells = board.to_vec();
    let mut blank = cells
        .iter()
        .position(|&t| t == T::default())
        .expect("a blank");
    let mut last: Option<Move> = None;
    let mut made = 0;
    while made < steps {
        let mv = Move::ALL[rng.index(4)];
        if last == Some(mv.inverse()) {
            continue;
        }
        if apply_move(&mut cells, side, &mut blank, mv) {
            last = Some(mv);
            made += 1;
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_puzzle_and_different_seeds_differ() {
        let a = random_puzzle(6, true, GoalShape::Random, 1);
        assert_eq!(a, random_puzzle(6, true, GoalShape::Random, 1));
        assert_ne!(a, random_puzzle(6, true, GoalShape::Random, 2));
    }

    #[test]
    fn verdicts_are_as_asked_for_many_sizes() {
        for side in 2..12 {
            for seed in 0..20 {
                for solvable in [true, false] {
                    let p = random_puzzle(side, solvable, GoalShape::Random, seed);
                    assert_eq!(p.is_solvable(), solvable, "side {side} seed {seed}");
                    // The boards are genuinely valid: they survive a round trip.
                    let again = Board::parse(
                        p.start().to_string().as_bytes(),
                        crate::board_adt::Role::Start,
                    );
                    assert_eq!(again.as_ref(), Ok(p.start()));
                }
            }
        }
    }

    #[test]
    fn below_stays_below_the_bound() {
        let mut rng = SplitMix64::new(9);
        for bound in [1, 2, 3, 1000] {
            assert!((0..1000).all(|_| rng.below(bound) < bound));
        }
    }
}
