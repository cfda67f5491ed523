//! The proxies moved since the last `update_pairs`, as one update handles
//! them: their ids in order, the searches for their overlaps and the overlaps
//! found, grouped by mover, and which movers keep exactly the partners they
//! have. The buffers are kept from call to call, so that a warm update
//! allocates nothing; `sweep_and_prune.rs` runs the update over them.

use rayon::prelude::*;

use crate::pair_set::PartnerLists;
use crate::proxy::Proxy;
use crate::region::{RegionGrid, SweepPolicy};

/// Entries of a swept region per search (see [`plan_searches`]):
/// a few tens of microseconds of work, long enough to be worth a task.
const SWEEP_RUN: usize = 256;

/// Movers per search of their own regions.
const MOVER_RUN: usize = 128;

/// `update_pairs` runs its searches side by side on the rayon pool when there
/// are at least this many; fewer are not worth the tasks.
pub(crate) const PARALLEL_SEARCHES: usize = 4;

/// Movers per task when `update_pairs` tells, side by side, which movers' pairs
/// stay as they are; below two tasks' worth one thread tells them all.
pub(crate) const UNCHANGED_RUN: usize = 512;

/// Decides which of the `active` regions are swept whole (by `policy`), and
/// lists the searches for the overlaps of `movers` movers in the order they
/// are reported: each swept region's sorted array in runs of [`SWEEP_RUN`]
/// entries, regions in the order a mover first touched them, then the movers'
/// own searches of the other regions, [`MOVER_RUN`] movers at a time.
pub(crate) fn plan_searches(
    grid: &mut RegionGrid,
    active: &[u32],
    policy: SweepPolicy,
    movers: usize,
    searches: &mut Vec<Search>,
) {
    searches.clear();
    for &r in active {
        if grid.choose_sweep(r, policy) {
            let len = grid.region(r).sap().len();
            for start in (0..len).step_by(SWEEP_RUN) {
                searches.push(Search::Sweep { region: r, starts: start..len.min(start + SWEEP_RUN) });
            }
        }
    }
    for start in (0..movers).step_by(MOVER_RUN) {
        searches.push(Search::Movers(start..movers.min(start + MOVER_RUN)));
    }
}

/// One search for movers' overlaps: a run of a swept region's entries, or a
/// run of movers searching the regions that are not swept.
#[derive(Clone, Debug)]
pub(crate) enum Search {
    Sweep { region: u32, starts: std::ops::Range<usize> },
    Movers(std::ops::Range<usize>),
}

/// The moved proxies of one `update_pairs` and what it finds of them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Movers {
    /// The live moved proxies in increasing id order.
    pub ids: Vec<u32>,
    /// Per proxy id: its index in `ids` (meaningful only for movers).
    pub index: Vec<u32>,
    /// The regions holding at least one mover.
    pub active: Vec<u32>,
    /// `(index in ids, other proxy)` for every overlap found.
    pub hits: Vec<(u32, u32)>,
    /// The searches of one `update_pairs`, in the order their overlaps are listed.
    pub searches: Vec<Search>,
    /// Per search, its overlaps, when the searches run side by side.
    pub search_hits: Vec<Vec<(u32, u32)>>,
    /// The overlaps grouped by mover: mover `i`'s are `found[ends[i - 1]..ends[i]]`.
    pub found: Vec<u32>,
    pub ends: Vec<u32>,
    /// Per mover: true when the overlaps found are exactly its partners now,
    /// so that reconciling it would change nothing.
    pub unchanged: Vec<bool>,
}

impl Movers {
    /// Fills `ids` with the live proxies `moved` (queued in the bit set `queued`)
    /// since the last `update_pairs`, in increasing id order, and numbers them in `index`. Proxies are
    /// processed in memory order, so their records, partner lists and regions are
    /// visited front to back rather than at random. The bits of removed proxies are
    /// cleared here; those of movers stay set, for the sweeps, until the end.
    pub(crate) fn collect<K>(&mut self, moved: &mut Vec<u32>, queued: &mut [u64], proxies: &[Proxy<K>]) {
        self.ids.clear();
        if moved.len() * 8 >= queued.len() {
            // Dense enough to read the bit set, which is in order already.
            for (w, &bits) in queued.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let id = (w * 64) as u32 + bits.trailing_zeros();
                    bits &= bits - 1;
                    if proxies[id as usize].live {
                        self.ids.push(id);
                    }
                }
            }
        } else {
            moved.sort_unstable();
            self.ids.extend(moved.iter().copied().filter(|&id| proxies[id as usize].live));
        }
        for &id in moved.iter() {
            if !proxies[id as usize].live {
                queued[id as usize / 64] &= !(1 << (id % 64));
            }
        }
        moved.clear();
        for (i, &id) in self.ids.iter().enumerate() {
            self.index[id as usize] = i as u32;
        }
    }

    /// Groups `hits` by mover (a counting sort): mover `i`'s overlaps become
    /// `found[ends[i - 1]..ends[i]]`.
    pub(crate) fn group_overlaps(&mut self) {
        let ends = &mut self.ends;
        ends.clear();
        ends.resize(self.ids.len(), 0);
        for &(i, _) in &self.hits {
            ends[i as usize] += 1;
        }
        // Exclusive prefix sums: where each mover's group starts.
        let mut total = 0;
        for e in ends.iter_mut() {
            let count = *e;
            *e = total;
            total += count;
        }
        // Placing each overlap advances its mover's start to its end.
        self.found.clear();
        self.found.resize(self.hits.len(), 0);
        for &(i, q) in &self.hits {
            let slot = &mut ends[i as usize];
            self.found[*slot as usize] = q;
            *slot += 1;
        }
    }

    /// Tells which movers found exactly the partners they have in `lists`, in
    /// parallel where `share` says so: reconciling those would change nothing.
    /// Most movers of a step keep their pairs (a pile that slides, a stream of
    /// bodies that stays together), so the serial reconciling that follows
    /// visits only the few whose pairs begin or end.
    ///
    /// Skipping them leaves every list as reconciling them would. A pair
    /// changes only in the reconciling of one of its movers, and only when that
    /// mover's overlaps and partners disagree about the other proxy. If the
    /// other is a mover too, the disagreement is the same from its side
    /// (overlap, filters and partner lists are symmetric), so it is not
    /// skipped either; a skipped mover's list is thus never changed by another.
    pub(crate) fn tell_unchanged(&mut self, lists: PartnerLists<'_>, share: bool) {
        let (found, ends, movers) = (&self.found, &self.ends, &self.ids);
        let tell = |first: usize, out: &mut [bool]| {
            let mut start = if first == 0 { 0 } else { ends[first - 1] as usize };
            for (i, unchanged) in out.iter_mut().enumerate() {
                let end = ends[first + i] as usize;
                *unchanged = lists.already_match(movers[first + i], &found[start..end]);
                start = end;
            }
        };
        self.unchanged.clear();
        self.unchanged.resize(movers.len(), false);
        if !share {
            tell(0, &mut self.unchanged);
        } else {
            self.unchanged
                .par_chunks_mut(UNCHANGED_RUN)
                .enumerate()
                .for_each(|(chunk, out)| tell(chunk * UNCHANGED_RUN, out));
        }
    }

    /// Each mover whose overlaps found differ from its partners, with those
    /// overlaps, in mover order: the ones the pair set must reconcile.
    pub(crate) fn changed(&self) -> impl Iterator<Item = (u32, &[u32])> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().map(|&e| e as usize));
        self.ids
            .iter()
            .zip(starts.zip(&self.ends))
            .zip(&self.unchanged)
            .filter(|&(_, &unchanged)| !unchanged)
            .map(|((&id, (start, &end)), _)| (id, &self.found[start..end as usize]))
    }
}
