//! One table: its spec, its ranking and its packed entries, built or read
//! from the cache.

use super::build;
use super::index::Indexer;
use super::spec::PatternSpec;

/// A built or loaded table: the spec, its indexer and the packed half-differences.
pub struct Pdb {
    spec: PatternSpec,
    ix: &'static Indexer,
    data: Vec<u8>,
}

impl Pdb {
    /// Wraps packed table bytes (as built by [`Pdb::build`] or read from the cache).
    pub fn from_packed(spec: PatternSpec, data: Vec<u8>) -> Pdb {
        assert_eq!(data.len(), spec.packed_len());
        Pdb {
            spec,
            ix: Indexer::shared(spec.side(), spec.tiles()),
            data,
        }
    }

    /// Builds the table for `spec` on `threads` threads.
    pub fn build(spec: PatternSpec, threads: usize, progress: &mut dyn FnMut(u64, u64)) -> Pdb {
        let ix = Indexer::shared(spec.side(), spec.tiles());
        let data = build::build_packed(&spec, ix, threads, progress);
        Pdb { spec, ix, data }
    }

    /// What this table tracks.
    pub fn spec(&self) -> &PatternSpec {
        &self.spec
    }

    /// The placement ranking used by this table.
    pub fn indexer(&self) -> &Indexer {
        self.ix
    }

    /// The packed bytes.
    pub fn packed(&self) -> &[u8] {
        &self.data
    }

    /// The stored half-difference at `index` (0..=15).
    #[inline(always)]
    pub fn half_excess(&self, index: usize) -> u32 {
        ((self.data[index >> 1] >> ((index & 1) << 2)) & 15) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::grid::manhattan;
    use std::collections::VecDeque;

    /// 0-1 BFS over (placement, blank cell) for a small pattern: the minimum over
    /// blank cells of the number of pattern-tile moves to the abstract goal.
    fn reference_table(spec: &PatternSpec) -> Vec<u32> {
        let (side, cells) = (spec.side(), spec.board_cells());
        let ix = Indexer::new(side, spec.tiles());
        let home: Vec<u8> = spec.home_cells().iter().map(|&h| h as u8).collect();
        let n = spec.entries();
        let mut dist = vec![u32::MAX; n * cells];
        let mut deque = VecDeque::new();
        let (gm, gp) = ix.locate(&home);
        let g = ix.index(gm, gp);
        for b in 0..cells {
            if spec.goal_region & (1 << b) != 0 {
                dist[g * cells + b] = 0;
                deque.push_back((home.clone(), b, 0));
            }
        }
        while let Some((placed, blank, d)) = deque.pop_front() {
            let (m, p) = ix.locate(&placed);
            let id = ix.index(m, p);
            if dist[id * cells + blank] < d {
                continue;
            }
            for nb in (0..cells).filter(|&nb| manhattan(side, nb, blank) == 1) {
                let mut next = placed.clone();
                let (cost, id2) = match placed.iter().position(|&c| c as usize == nb) {
                    Some(t) => {
                        next[t] = blank as u8;
                        let (m2, p2) = ix.locate(&next);
                        (1, ix.index(m2, p2))
                    }
                    None => (0, id),
                };
                let nd = d + cost;
                if nd < dist[id2 * cells + nb] {
                    dist[id2 * cells + nb] = nd;
                    if cost == 0 {
                        deque.push_front((next, nb, nd));
                    } else {
                        deque.push_back((next, nb, nd));
                    }
                }
            }
        }
        (0..n)
            .map(|i| {
                let v = dist[i * cells..(i + 1) * cells].iter().min().copied();
                v.filter(|&v| v != u32::MAX)
                    .expect("every placement reachable")
            })
            .collect()
    }

    #[test]
    fn builder_matches_plain_search_on_small_patterns() {
        // 4x4: two tiles in a corner nook (blank-specific goal region), three
        // scattered tiles, and a diagonal that splits the free cells into parts.
        // 5x5: a corner nook, an L of four tiles walling off a corner, and three
        // tiles on the middle column.
        let cases: [(usize, u32, usize); 8] = [
            (4, 0x0012, 0),
            (4, 0x0013, 5),
            (4, 0x8421, 1),
            (4, 0x0124, 0),
            (5, (1 << 1) | (1 << 5), 0),
            (5, (1 << 3) | (1 << 8) | (1 << 9) | (1 << 13), 4),
            (5, (1 << 2) | (1 << 12) | (1 << 22), 7),
            (5, (1 << 6) | (1 << 18) | (1 << 23), 24),
        ];
        for (side, cells, blank) in cases {
            let spec = PatternSpec::new(side, cells, blank);
            let reference = reference_table(&spec);
            let pdb = Pdb::build(spec, 2, &mut |_, _| {});
            let home = spec.home_cells();
            for (i, &want) in reference.iter().enumerate() {
                let mask = pdb.ix.comb_mask(i / pdb.ix.fact());
                let perm = pdb.ix.unrank(i % pdb.ix.fact());
                let slots = (0..spec.board_cells()).filter(|&c| mask & (1 << c) != 0);
                let md: u32 = slots
                    .enumerate()
                    .map(|(slot, cell)| manhattan(side, cell, home[perm[slot] as usize]))
                    .sum();
                let got = md + 2 * pdb.half_excess(i);
                assert_eq!(got, want, "entry {i} of {}", spec.name());
            }
        }
    }
}
