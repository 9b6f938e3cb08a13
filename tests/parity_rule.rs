//! The parity rule against the truth: breadth-first search over every board of
//! 2x2 and 3x3, and random walks on boards up to 50x50.

use puzzle::board_adt::{apply_move, Board, Move};
use puzzle::SplitMix64;
use std::collections::HashSet;

/// Every board reachable from `goal`, by breadth-first search over moves.
fn reachable(side: usize, goal: &[u32]) -> HashSet<Vec<u32>> {
    let mut seen = HashSet::new();
    seen.insert(goal.to_vec());
    let mut frontier = vec![goal.to_vec()];
    while let Some(cells) = frontier.pop() {
        let blank = cells.iter().position(|&c| c == 0).unwrap();
        for mv in Move::ALL {
            let mut next = cells.clone();
            let mut b = blank;
            if apply_move(&mut next, side, &mut b, mv) && seen.insert(next.clone()) {
                frontier.push(next);
            }
        }
    }
    seen
}

/// Calls `visit` with every arrangement of `0 .. n` (Heap's algorithm).
fn every_permutation(n: u32, mut visit: impl FnMut(&[u32])) {
    let mut cells: Vec<u32> = (0..n).collect();
    let mut c = vec![0usize; n as usize];
    visit(&cells);
    let mut i = 0;
    while i < cells.len() {
        if c[i] < i {
            if i % 2 == 0 {
                cells.swap(0, i);
            } else {
                cells.swap(c[i], i);
            }
            visit(&cells);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

fn check_every_board(side: usize, goal: &[u32]) {
    let truth = reachable(side, goal);
    let cells = (side * side) as u32;
    let total: usize = (1..=cells as usize).product();
    assert_eq!(
        truth.len(),
        total / 2,
        "exactly half the boards are reachable"
    );
    let goal_board = Board::from_cells(goal.to_vec()).unwrap();
    let mut checked = 0;
    every_permutation(cells, |arrangement| {
        let start = Board::from_cells(arrangement.to_vec()).unwrap();
        assert_eq!(
            start.can_reach(&goal_board),
            truth.contains(arrangement),
            "{start} -> {goal_board}"
        );
        checked += 1;
    });
    assert_eq!(checked, total);
}

#[test]
fn parity_rule_matches_search_on_every_2x2_board() {
    check_every_board(2, &[1, 2, 3, 0]);
    check_every_board(2, &[0, 3, 1, 2]);
}

#[test]
fn parity_rule_matches_search_on_every_3x3_board_blank_in_a_corner() {
    check_every_board(3, &[1, 2, 3, 4, 5, 6, 7, 8, 0]);
}

#[test]
fn parity_rule_matches_search_on_every_3x3_board_blank_in_the_centre() {
    check_every_board(3, &[1, 2, 3, 4, 0, 5, 6, 7, 8]);
}

#[test]
fn parity_rule_matches_search_on_every_3x3_board_blank_on_an_edge() {
    check_every_board(3, &[8, 0, 6, 5, 4, 7, 2, 3, 1]);
}

/// A random board: a shuffle of `0 .. side*side`.
fn random_cells(side: usize, rng: &mut SplitMix64) -> Vec<u32> {
    let mut cells: Vec<u32> = (0..(side * side) as u32).collect();
    rng.shuffle(&mut cells);
    cells
}

#[test]
fn random_walks_stay_solvable_and_a_swap_flips_the_verdict() {
    let mut rng = SplitMix64::new(0x5EED);
    for side in (2..=50).chain([7, 8, 31, 32, 49, 50]) {
        for _ in 0..4 {
            let goal = random_cells(side, &mut rng);
            let goal_board = Board::from_cells(goal.clone()).unwrap();
            let mut cells = goal.clone();
            let mut blank = cells.iter().position(|&c| c == 0).unwrap();
            for _ in 0..(rng.below(20 * (side * side) as u64) + 1) {
                let mv = Move::ALL[rng.below(4) as usize];
                apply_move(&mut cells, side, &mut blank, mv);
            }
            // Re-parse the text so the parity is computed afresh, not carried.
            let text: Vec<String> = cells
                .iter()
                .map(|&c| if c == 0 { "b".into() } else { c.to_string() })
                .collect();
            let walked: Board = text.join(" ").parse().unwrap();
            assert!(
                walked.can_reach(&goal_board),
                "side {side}: a walk is solvable"
            );
            // Swap two tiles (not the blank): the verdict flips.
            let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).collect();
            let a = tiles[rng.below(tiles.len() as u64) as usize];
            let mut b = a;
            while b == a {
                b = tiles[rng.below(tiles.len() as u64) as usize];
            }
            cells.swap(a, b);
            let swapped = Board::from_cells(cells).unwrap();
            assert!(
                !swapped.can_reach(&goal_board),
                "side {side}: a swap flips it"
            );
        }
    }
}
