//! Finding the moves: a shortest solution for boards up to 4x4, a valid one for
//! any size.

pub mod moves;

use moves::Move;

/// A solution: the moves that take the start board to the goal board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// Whether no shorter solution exists.
    pub proven_shortest: bool,
}
