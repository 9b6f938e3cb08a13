//! The tables a search reads: those of one goal class of a partition,
//! grouped for the heuristic ([`Tables`]), those of every goal class kept
//! for every later puzzle ([`Shelf`]), and every table built ahead of time
//! ([`build_all`]). Below the searches (`anytime.rs`, `beams.rs`,
//! `mod.rs`), which read them; above the table files (`tables/`).

use super::ida::{Geometry, Group, Heuristic};
use super::partition::Partition;
use super::partition::TableSet;
use super::tables::{self, PatternSpec, Pdb, TableCache, TableEvent};
use crate::board_adt::symmetry::class_of;
use std::io;
use std::sync::{Arc, Mutex};

/// The width of the beam behind a near-shortest solution ([`near`](super::near)): on
/// Korf and Felner's 50 24-puzzles, 20,000 gave solutions 2.8% above the
/// optimum on average, none more than 8.4%, in about 0.3 s on two cores.
pub(crate) const NEAR_WIDTH: usize = 20_000;

/// Nodes the shortest-path search spends, on one thread, to raise the lower
/// bound that [`near`](super::near) reports (a few of its first iterations, about a
/// tenth of a second). One thread, so that where it stops does not depend
/// on the threads' timing.
pub(crate) const BOUND_NODES: u64 = 1 << 19;

/// The width of the second beam of [`near`](super::near), from the goal
/// back to the start (`reverse_beam` in `beams.rs`).
pub(crate) const REVERSE_WIDTH: usize = 12_000;

/// The tables of one goal class of a partition, grouped for the heuristic:
/// each group is a frame (a symmetry of the square, as a map of cells) and
/// disjoint tables that cover every tile seen through it. Immutable once
/// loaded: `Send + Sync`, shared by reference.
pub(crate) struct Tables {
    pub(super) partition: &'static Partition,
    /// The production tables or the small test ones.
    set: TableSet,
    /// The class representative: the goal's blank cell in the canonical frame.
    pub(super) rep: usize,
    pdbs: Vec<Arc<Pdb>>,
    /// Per group: its frame and indices into `pdbs`.
    groups: Vec<(Vec<u8>, Vec<usize>)>,
}

impl Tables {
    /// Loads the tables of `partition` for goals with the blank on
    /// `goal_blank` from the cache, or builds and stores them (atomically).
    /// Without a cache, or when it cannot be written, the tables are built and
    /// kept in memory only. Fails only if building fails.
    ///
    /// # Panics
    ///
    /// If `goal_blank` is not a cell of the board.
    pub(crate) fn load(
        partition: &'static Partition,
        cache: Option<&TableCache>,
        goal_blank: usize,
        set: TableSet,
        progress: &mut dyn FnMut(&TableEvent),
    ) -> io::Result<Tables> {
        let side = partition.side;
        assert!(goal_blank < side * side, "goal blank cell out of range");
        let rep = class_of(side, goal_blank);
        let groups = partition.groups(set, rep);
        Tables::from_groups(partition, set, cache, rep, groups, progress)
    }

    /// Loads (or builds and stores) every table of `groups`, each once, for
    /// goals whose blank is on `rep` in the canonical frame.
    pub(super) fn from_groups(
        partition: &'static Partition,
        set: TableSet,
        cache: Option<&TableCache>,
        rep: usize,
        groups: Vec<(crate::board_adt::symmetry::Symmetry, Vec<PatternSpec>)>,
        progress: &mut dyn FnMut(&TableEvent),
    ) -> io::Result<Tables> {
        let all: Vec<PatternSpec> = groups.iter().flat_map(|(_, specs)| specs.clone()).collect();
        let large = groups.len() > 2;
        let what = format!(
            "the {}tables for {}",
            if large { "large set of " } else { "" },
            partition.goals_named(rep)
        );
        tables::announce(cache, &all, &what, progress);
        let mut pdbs: Vec<Arc<Pdb>> = Vec::new();
        let mut out = Vec::new();
        for (frame, specs) in groups {
            let mut idx = Vec::new();
            for spec in specs {
                let i = match pdbs.iter().position(|p| *p.spec() == spec) {
                    Some(i) => i,
                    None => {
                        let name = partition.table_name(&spec);
                        pdbs.push(tables::shared(cache, spec, &name, progress)?);
                        pdbs.len() - 1
                    }
                };
                idx.push(i);
            }
            out.push((frame.cells(partition.side), idx));
        }
        // The move-pruning machine is shared; build it now rather than in the
        // first search.
        super::ida::Fsm::get();
        Ok(Tables {
            partition,
            set,
            rep,
            pdbs,
            groups: out,
        })
    }

    /// The width of the beam behind a near-shortest solution (`near`), the
    /// nodes of the search for its bound and the width of its reverse beam:
    /// [`NEAR_WIDTH`], [`BOUND_NODES`] and [`REVERSE_WIDTH`], a tenth, an
    /// eighth and a tenth of them with the small test tables, which make no
    /// answer good and every test slow.
    pub(super) fn near_effort(&self) -> (usize, u64, usize) {
        if self.set.is_small() {
            (NEAR_WIDTH / 10, BOUND_NODES / 8, REVERSE_WIDTH / 10)
        } else {
            (NEAR_WIDTH, BOUND_NODES, REVERSE_WIDTH)
        }
    }

    /// The heuristic over these tables.
    pub(super) fn heuristic<G: Geometry>(&self) -> Heuristic<'_, G> {
        let groups = self
            .groups
            .iter()
            .map(|(frame, idx)| Group {
                frame: frame.clone(),
                tables: idx.iter().map(|&i| &*self.pdbs[i]).collect(),
            })
            .collect();
        Heuristic::new(self.rep, groups)
    }
}

/// The tables of every goal class of one partition, each loaded on first need
/// and then kept for every later puzzle, and shared by every thread.
pub(crate) struct Shelf {
    partition: &'static Partition,
    /// One slot a goal class, in the order of [`Partition::classes`].
    slots: Vec<Mutex<Option<Arc<Tables>>>>,
}

impl Shelf {
    /// An empty shelf for the tables of `partition`.
    pub(crate) fn new(partition: &'static Partition) -> Shelf {
        Shelf {
            partition,
            slots: partition.classes.iter().map(|_| Mutex::default()).collect(),
        }
    }

    /// The tables for goals with the blank on `goal_blank`, loaded or built
    /// once and then shared ([`Tables::load`]). The slot's lock is held while
    /// loading: other threads asking meanwhile wait rather than load the same
    /// tables again.
    pub(crate) fn tables(
        &self,
        cache: Option<&TableCache>,
        set: TableSet,
        goal_blank: usize,
        progress: &mut dyn FnMut(&TableEvent),
    ) -> io::Result<Arc<Tables>> {
        let slot = &self.slots[self.partition.class(goal_blank)];
        let mut tables = slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tables) = tables.as_ref() {
            return Ok(Arc::clone(tables));
        }
        let loaded = Arc::new(Tables::load(
            self.partition,
            cache,
            goal_blank,
            set,
            progress,
        )?);
        *tables = Some(Arc::clone(&loaded));
        Ok(loaded)
    }
}

/// Builds every table of `partition` in `set` ahead of time (the
/// `--build-tables` flag, with `--large-tables` the large set): each table
/// of every goal class that is not already cached and sound is built and
/// stored, one at a time. Fails if a table cannot be stored.
pub(crate) fn build_all(
    partition: &Partition,
    set: TableSet,
    cache: &TableCache,
    progress: &mut dyn FnMut(&TableEvent),
) -> io::Result<()> {
    let named: Vec<(PatternSpec, String)> = partition
        .all_specs(set)
        .into_iter()
        .map(|spec| (spec, partition.table_name(&spec)))
        .collect();
    let side = partition.side;
    let what = format!("the tables for every {side}x{side} goal");
    tables::build_into(cache, &named, &what, progress)
}

/// What the tests of the searches over the tables share: the small test
/// tables of each goal class, built once for every test of the crate, and
/// random goals.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Partition, TableSet, Tables};
    use crate::generate::SplitMix64;
    use crate::solve::pattern::TWENTY_FOUR;
    use std::sync::OnceLock;

    /// The small tables ([`TableSet::Small`]) of the goal class of
    /// `goal_blank` of `partition` (4x4 or 5x5), in memory.
    pub(crate) fn small(partition: &'static Partition, goal_blank: usize) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 9] = [const { OnceLock::new() }; 9];
        let first = if partition.side == 4 { 0 } else { 3 };
        TABLES[first + partition.class(goal_blank)].get_or_init(|| {
            Tables::load(partition, None, goal_blank, TableSet::Small, &mut |_| {})
                .expect("in-memory build")
        })
    }

    /// The small tables cut three ways ([`TableSet::SmallLarge`]) for the
    /// 5x5 goal class of `goal_blank`, in memory.
    pub(crate) fn small_large(goal_blank: usize) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 6] = [const { OnceLock::new() }; 6];
        TABLES[TWENTY_FOUR.class(goal_blank)].get_or_init(|| {
            let set = TableSet::SmallLarge;
            Tables::load(&TWENTY_FOUR, None, goal_blank, set, &mut |_| {}).expect("in memory")
        })
    }

    /// A random goal of `cells` cells (plain: 0 the blank) with its blank on
    /// `blank`.
    pub(crate) fn random_goal(rng: &mut SplitMix64, cells: usize, blank: usize) -> Vec<u8> {
        let mut goal: Vec<u8> = rng
            .permutation(cells)
            .into_iter()
            .map(|t| t as u8)
            .collect();
        let b = goal.iter().position(|&t| t == 0).unwrap();
        goal.swap(b, blank);
        goal
    }
}
