//! Board sizes: the largest board `puzzle` holds, and the side a number of cells
//! makes. The parser, the board and the error messages all need these; they live
//! apart so that none of those modules has to import another for them.

/// The most cells a board may have: every tile fits in 32 bits.
pub const MAX_CELLS: u64 = 1 << 32;

/// The side of the largest board, `sqrt(MAX_CELLS)`.
pub const MAX_SIDE: u64 = 1 << 16;

/// The whole part of the square root of `n`: the side of the largest square
/// board with at most `n` cells.
pub fn isqrt(n: u64) -> u64 {
    let mut root = (n as f64).sqrt() as u64;
    // The float estimate can be off by one either way for large `n`.
    while root * root > n {
        root -= 1;
    }
    while (root + 1) * (root + 1) <= n {
        root += 1;
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isqrt_is_exact_around_squares() {
        for n in [
            0u64,
            1,
            3,
            4,
            15,
            16,
            17,
            1 << 32,
            (1 << 32) - 1,
            u32::MAX as u64 * 3,
        ] {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "n = {n}");
        }
        assert_eq!(MAX_SIDE * MAX_SIDE, MAX_CELLS);
    }
}
