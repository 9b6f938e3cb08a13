//! Breadth-first construction of a packed pattern database (see the parent
//! module's docs, "Building"), for any side.

use super::index::Indexer;
use super::spec::{components, PatternSpec};
use crate::solve::grid::manhattan;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Layout of the builder's state space: blocks of `k!` bits, one per (set of
/// occupied cells, blank region).
struct Layout {
    /// First block of each set of occupied cells; `block_base[combos]` is the total.
    block_base: Vec<u32>,
    /// The region mask of each block.
    region: Vec<u32>,
    /// Predecessor lists: `preds[pred_base[b]..pred_base[b + 1]]` for block `b`.
    pred_base: Vec<u32>,
    preds: Vec<Pred>,
}

/// One way into a block: from block `src`, mapping permutations through the
/// rotation `(from, to)` (or unchanged when `from == to`).
#[derive(Clone, Copy)]
struct Pred {
    src: u32,
    from: u8,
    to: u8,
}

impl Layout {
    fn new(ix: &Indexer) -> Layout {
        let (side, cells) = (ix.side(), ix.cells());
        let all = (1u32 << cells) - 1;
        let combos = ix.combos();
        let mut block_base = Vec::with_capacity(combos + 1);
        let mut region = Vec::new();
        for s in 0..combos {
            block_base.push(region.len() as u32);
            region.extend(components(side, all & !ix.comb_mask(s)));
        }
        block_base.push(region.len() as u32);
        let block_of = |mask: u32, cell: usize| -> u32 {
            let s = ix.comb_rank(mask);
            let lo = block_base[s] as usize;
            let hi = block_base[s + 1] as usize;
            (lo..hi)
                .find(|&b| region[b] & (1 << cell) != 0)
                .expect("free cell lies in a region") as u32
        };
        let mut pred_base = Vec::with_capacity(region.len() + 1);
        let mut preds = Vec::new();
        for s in 0..combos {
            let mask = ix.comb_mask(s);
            for b in block_base[s]..block_base[s + 1] {
                pred_base.push(preds.len() as u32);
                let r = region[b as usize];
                // The last move slid a pattern tile from `c` (now free, in this
                // region) to its neighbour `n`; before it the blank was on `n`.
                for c in 0..cells {
                    if r & (1 << c) == 0 {
                        continue;
                    }
                    for n in 0..cells {
                        if mask & (1 << n) == 0 || manhattan(side, c, n) != 1 {
                            continue;
                        }
                        let src_mask = mask ^ (1 << n) ^ (1 << c);
                        let from = (src_mask & ((1u32 << c) - 1)).count_ones() as u8;
                        let to = (mask & ((1u32 << n) - 1)).count_ones() as u8;
                        preds.push(Pred {
                            src: block_of(src_mask, n),
                            from,
                            to,
                        });
                    }
                }
            }
        }
        pred_base.push(preds.len() as u32);
        Layout {
            block_base,
            region,
            pred_base,
            preds,
        }
    }

    fn blocks(&self) -> usize {
        self.region.len()
    }
}

/// The part of the builder's output one worker owns: a contiguous run of sets of
/// occupied cells, with their blocks and packed table bytes.
struct Chunk<'a> {
    s_lo: usize,
    s_hi: usize,
    visited: &'a mut [u64],
    next: &'a mut [u64],
    next_nonempty: &'a mut [bool],
    out: &'a mut [u8],
}

/// Breadth-first construction of the packed table (see the module docs).
pub(super) fn build_packed(
    spec: &PatternSpec,
    ix: &Indexer,
    threads: usize,
    progress: &mut dyn FnMut(u64, u64),
) -> Vec<u8> {
    let k = ix.k();
    let fact = ix.fact();
    let words = fact.div_ceil(64);
    let layout = Layout::new(ix);
    let blocks = layout.blocks();
    // Built once here rather than by the first worker to need it.
    ix.rotations();
    let total = spec.entries() as u64;
    let home = spec.home_cells();

    let mut visited = vec![0u64; blocks * words];
    let mut cur = vec![0u64; blocks * words];
    let mut next = vec![0u64; blocks * words];
    let mut cur_nonempty = vec![false; blocks];
    let mut next_nonempty = vec![false; blocks];
    // 0xff marks "not yet set" while building; every entry gets set.
    let mut out = vec![0xffu8; spec.packed_len()];

    let s0 = ix.comb_rank(spec.cells);
    let b0 = (layout.block_base[s0]..layout.block_base[s0 + 1])
        .find(|&b| layout.region[b as usize] == spec.goal_region)
        .expect("goal region is a region of the goal placement") as usize;
    visited[b0 * words] = 1;
    cur[b0 * words] = 1;
    cur_nonempty[b0] = true;
    out[s0 * fact / 2] &= 0xf0;
    let mut done = 1u64;
    progress(done, total);

    let clamped = AtomicU64::new(0);
    let threads = threads.max(1);
    // Enough chunks to balance the load, each a whole number of bytes of output.
    let chunk_count = (threads * 32).min(ix.combos());
    let mut level = 0u32;
    loop {
        level += 1;
        let mut chunks = Vec::with_capacity(chunk_count);
        {
            let (mut vis_rest, mut next_rest, mut ne_rest, mut out_rest) = (
                &mut visited[..],
                &mut next[..],
                &mut next_nonempty[..],
                &mut out[..],
            );
            for c in 0..chunk_count {
                let s_lo = ix.combos() * c / chunk_count;
                let s_hi = ix.combos() * (c + 1) / chunk_count;
                let nb = (layout.block_base[s_hi] - layout.block_base[s_lo]) as usize;
                let (v, vr) = vis_rest.split_at_mut(nb * words);
                let (n, nr) = next_rest.split_at_mut(nb * words);
                let (e, er) = ne_rest.split_at_mut(nb);
                let (o, or) = out_rest.split_at_mut((s_hi - s_lo) * fact / 2);
                vis_rest = vr;
                next_rest = nr;
                ne_rest = er;
                out_rest = or;
                chunks.push(Chunk {
                    s_lo,
                    s_hi,
                    visited: v,
                    next: n,
                    next_nonempty: e,
                    out: o,
                });
            }
        }
        let queue = Mutex::new(chunks);
        let found = AtomicU64::new(0);
        let step = Step {
            layout: &layout,
            ix,
            home: &home,
            cur: &cur,
            cur_nonempty: &cur_nonempty,
            level,
        };
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut scratch = Scratch::new(words, k);
                    loop {
                        let chunk = queue.lock().expect("queue lock").pop();
                        let Some(mut chunk) = chunk else { break };
                        let (n, cl) = expand_chunk(&mut chunk, &mut scratch, &step);
                        found.fetch_add(n, Ordering::Relaxed);
                        clamped.fetch_add(cl, Ordering::Relaxed);
                    }
                });
            }
        });
        let found = found.into_inner();
        let any_frontier = next_nonempty.iter().any(|&x| x);
        done += found;
        progress(done, total);
        if !any_frontier {
            break;
        }
        std::mem::swap(&mut cur, &mut next);
        std::mem::swap(&mut cur_nonempty, &mut next_nonempty);
    }
    assert_eq!(done, total, "every placement of the pattern is reachable");
    assert_eq!(
        clamped.into_inner(),
        0,
        "half-differences fit in 4 bits for this pattern"
    );
    out
}

/// Per-worker buffers.
struct Scratch {
    old_any: Vec<u64>,
    new_any: Vec<u64>,
    dist: [[u8; 8]; 8],
}

impl Scratch {
    fn new(words: usize, _k: usize) -> Scratch {
        Scratch {
            old_any: vec![0; words],
            new_any: vec![0; words],
            dist: [[0; 8]; 8],
        }
    }
}

/// What every worker reads in one step of the build, passed as one: the
/// layout of the blocks, the indexer, the pattern tiles' home cells, the
/// current frontier and which of its blocks hold anything, and the level
/// being reached.
struct Step<'a> {
    layout: &'a Layout,
    ix: &'a Indexer,
    home: &'a [usize],
    cur: &'a [u64],
    cur_nonempty: &'a [bool],
    level: u32,
}

/// Computes the next level for every block of `chunk` by pulling from the current
/// frontier `step.cur`, and sets the table entries first reached at `step.level`.
/// Returns the number of entries set and the number that had to be clamped.
fn expand_chunk(chunk: &mut Chunk<'_>, scratch: &mut Scratch, step: &Step<'_>) -> (u64, u64) {
    let Step {
        layout,
        ix,
        home,
        cur,
        cur_nonempty,
        level,
    } = *step;
    let fact = ix.fact();
    let words = fact.div_ceil(64);
    let k = ix.k();
    let block_lo = layout.block_base[chunk.s_lo] as usize;
    let mut found = 0u64;
    let mut clamped = 0u64;
    for s in chunk.s_lo..chunk.s_hi {
        let bs = layout.block_base[s] as usize..layout.block_base[s + 1] as usize;
        let live = bs.clone().any(|b| {
            let (p0, p1) = (
                layout.pred_base[b] as usize,
                layout.pred_base[b + 1] as usize,
            );
            layout.preds[p0..p1]
                .iter()
                .any(|p| cur_nonempty[p.src as usize])
        });
        if !live {
            for b in bs {
                let lb = b - block_lo;
                if chunk.next_nonempty[lb] {
                    chunk.next[lb * words..(lb + 1) * words].fill(0);
                    chunk.next_nonempty[lb] = false;
                }
            }
            continue;
        }
        let multi = bs.len() > 1;
        if multi {
            scratch.old_any.fill(0);
            for b in bs.clone() {
                let lb = b - block_lo;
                for (o, v) in scratch
                    .old_any
                    .iter_mut()
                    .zip(&chunk.visited[lb * words..(lb + 1) * words])
                {
                    *o |= v;
                }
            }
            scratch.new_any.fill(0);
        }
        let mut any_new = false;
        for b in bs.clone() {
            let lb = b - block_lo;
            let nxt = &mut chunk.next[lb * words..(lb + 1) * words];
            nxt.fill(0);
            let (p0, p1) = (
                layout.pred_base[b] as usize,
                layout.pred_base[b + 1] as usize,
            );
            for p in &layout.preds[p0..p1] {
                let src = p.src as usize;
                if !cur_nonempty[src] {
                    continue;
                }
                let frontier = &cur[src * words..(src + 1) * words];
                if p.from == p.to {
                    for (n, f) in nxt.iter_mut().zip(frontier) {
                        *n |= f;
                    }
                } else {
                    let base = (p.from as usize * k + p.to as usize) * fact;
                    let rot = &ix.rotations()[base..base + fact];
                    for (wi, &w) in frontier.iter().enumerate() {
                        let mut w = w;
                        while w != 0 {
                            let bit = w.trailing_zeros() as usize;
                            w &= w - 1;
                            let q = rot[wi * 64 + bit] as usize;
                            nxt[q >> 6] |= 1 << (q & 63);
                        }
                    }
                }
            }
            let vis = &mut chunk.visited[lb * words..(lb + 1) * words];
            let mut nonempty = false;
            for (n, v) in nxt.iter_mut().zip(vis.iter_mut()) {
                *n &= !*v;
                *v |= *n;
                nonempty |= *n != 0;
            }
            chunk.next_nonempty[lb] = nonempty;
            any_new |= nonempty;
            if multi && nonempty {
                for (a, n) in scratch.new_any.iter_mut().zip(nxt.iter()) {
                    *a |= n;
                }
            }
        }
        if !any_new {
            continue;
        }
        // Entries first reached now: new in some region, seen before in none.
        let mask = ix.comb_mask(s);
        let mut slot = 0;
        for c in 0..ix.cells() {
            if mask & (1 << c) != 0 {
                for (t, &h) in home.iter().enumerate() {
                    scratch.dist[slot][t] = manhattan(ix.side(), c, h) as u8;
                }
                slot += 1;
            }
        }
        let fresh: &[u64] = if multi {
            for (a, o) in scratch.new_any.iter_mut().zip(&scratch.old_any) {
                *a &= !o;
            }
            &scratch.new_any
        } else {
            let lb = bs.start - block_lo;
            &chunk.next[lb * words..(lb + 1) * words]
        };
        let out_base = (s - chunk.s_lo) * fact;
        for (wi, &w) in fresh.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                let p = wi * 64 + bit;
                let perm = ix.unrank(p);
                let mut md = 0u32;
                for (dist, &t) in scratch.dist.iter().zip(&perm[..k]) {
                    md += dist[t as usize] as u32;
                }
                debug_assert!(level >= md && (level - md).is_multiple_of(2));
                let mut half = (level - md) / 2;
                if half > 15 {
                    half = 15;
                    clamped += 1;
                }
                let e = out_base + p;
                let shift = (e & 1) * 4;
                let byte = &mut chunk.out[e >> 1];
                *byte = (*byte & !(0xf << shift)) | ((half as u8) << shift);
                found += 1;
            }
        }
    }
    (found, clamped)
}
