//! What a table tracks ([`PatternSpec`]), and the cell-set geometry it is
//! worked out with: neighbours and connected parts of sets of cells as
//! bitmasks.

/// The largest side the tables support: cell sets are `u32` bitmasks.
pub(crate) const MAX_SIDE: usize = 5;

/// The cells next to any cell of `x` (a bitmask of cells) on a `side`-wide board.
pub fn neighbours(side: usize, x: u32) -> u32 {
    let cells = side * side;
    let all = (1u32 << cells) - 1;
    // Column 0 and column side-1 as masks.
    let mut col0 = 0u32;
    for r in 0..side {
        col0 |= 1 << (r * side);
    }
    let col_last = col0 << (side - 1);
    (((x & !col_last) << 1) | ((x & !col0) >> 1) | (x << side) | (x >> side)) & all
}

/// The connected part of `free` that contains `cell` (empty if `cell` is not free).
pub fn component(side: usize, free: u32, cell: usize) -> u32 {
    let mut region = (1u32 << cell) & free;
    loop {
        let grown = (region | neighbours(side, region)) & free;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// The connected parts of `free`, ordered by their lowest cell.
pub fn components(side: usize, mut free: u32) -> Vec<u32> {
    let mut out = Vec::new();
    while free != 0 {
        let region = component(side, free, free.trailing_zeros() as usize);
        out.push(region);
        free &= !region;
    }
    out
}

pub(super) const fn factorial(n: usize) -> usize {
    let mut f = 1;
    let mut i = 2;
    while i <= n {
        f *= i;
        i += 1;
    }
    f
}

pub(super) const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// What one table tracks: the board's side, the pattern tiles (by home cell) and
/// where the abstract goal lets the blank be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PatternSpec {
    /// The board's side (4 or 5; 2 and 3 work too).
    pub side: u8,
    /// Home cells of the pattern tiles, one bit per cell.
    pub cells: u32,
    /// The free cells the blank may occupy in the goal: the connected part of the
    /// non-pattern cells that holds the real goal's blank. (When the non-pattern
    /// cells are connected this is all of them, and tables for different goal
    /// blanks coincide and are shared.)
    pub goal_region: u32,
}

impl PatternSpec {
    /// The pattern of the tiles whose home cells are in `cells` on a `side`-wide
    /// board, for goals with the blank on `goal_blank` (which must not be one of
    /// `cells`).
    pub fn new(side: usize, cells: u32, goal_blank: usize) -> PatternSpec {
        assert!((2..=MAX_SIDE).contains(&side), "sides 2 to {MAX_SIDE}");
        let all = (1u32 << (side * side)) - 1;
        assert!(goal_blank < side * side && cells & (1 << goal_blank) == 0);
        assert!(cells & !all == 0, "pattern cells lie on the board");
        let k = cells.count_ones() as usize;
        assert!((1..=8).contains(&k), "patterns have 1 to 8 tiles");
        PatternSpec {
            side: side as u8,
            cells,
            goal_region: component(side, all & !cells, goal_blank),
        }
    }

    /// The board's side.
    pub fn side(&self) -> usize {
        self.side as usize
    }

    /// Cells on the board.
    pub fn board_cells(&self) -> usize {
        self.side() * self.side()
    }

    /// Number of pattern tiles.
    pub fn tiles(&self) -> usize {
        self.cells.count_ones() as usize
    }

    /// Number of entries: placements of the pattern tiles, `cells! / (cells - k)!`.
    pub fn entries(&self) -> usize {
        binomial(self.board_cells(), self.tiles()) * factorial(self.tiles())
    }

    /// Bytes of the packed table (two entries a byte).
    pub fn packed_len(&self) -> usize {
        self.entries().div_ceil(2)
    }

    /// A short name, e.g. `8-ff00.00ff` (4x4) or `6-00018c6.0000001` (5x5),
    /// naming tiles and goal region in hexadecimal, one digit per four cells.
    pub fn name(&self) -> String {
        let width = self.board_cells().div_ceil(4);
        format!(
            "{}-{:0width$x}.{:0width$x}",
            self.tiles(),
            self.cells,
            self.goal_region
        )
    }

    /// The home cells of the pattern tiles in increasing order; the tile at
    /// position `i` of this list is the pattern's local tile `i`.
    pub fn home_cells(&self) -> Vec<usize> {
        (0..self.board_cells())
            .filter(|&c| self.cells & (1 << c) != 0)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_respect_the_edges() {
        // 5x5: cell 4 (top right) touches 3 and 9; cell 20 (bottom left) 15 and 21.
        assert_eq!(neighbours(5, 1 << 4), (1 << 3) | (1 << 9));
        assert_eq!(neighbours(5, 1 << 20), (1 << 15) | (1 << 21));
        assert_eq!(neighbours(5, 1 << 12).count_ones(), 4);
        assert_eq!(neighbours(4, 1 << 3), (1 << 2) | (1 << 7));
        // A wall of column 2 splits a 5x5 board in two parts.
        let wall = (0..5).fold(0u32, |m, r| m | 1 << (r * 5 + 2));
        assert_eq!(components(5, ((1 << 25) - 1) & !wall).len(), 2);
    }

    #[test]
    fn goal_region_depends_on_the_blank_only_when_free_cells_split() {
        // Rows 2-3: the free cells (rows 0-1) are connected, so every blank agrees.
        assert_eq!(
            PatternSpec::new(4, 0xff00, 0),
            PatternSpec::new(4, 0xff00, 5)
        );
        // Rows 0-1 without cell 0: cell 0 is cut off from rows 2-3.
        let a = PatternSpec::new(4, 0x00fe, 0);
        assert_eq!(a.goal_region, 0x0001);
        assert_eq!(a.entries(), 57_657_600);
        assert_eq!(a.name(), "7-00fe.0001");
        // 5x5: Korf and Felner's pattern next to a corner blank walls it in.
        let kf = [1, 2, 5, 6, 7, 12].iter().fold(0u32, |m, c| m | 1 << c);
        let b = PatternSpec::new(5, kf, 0);
        assert_eq!(b.goal_region, 1);
        assert_eq!(b.entries(), 177_100 * 720);
        assert_eq!(b.name(), "6-00010e6.0000001");
    }
}
