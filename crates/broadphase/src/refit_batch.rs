//! Many refits at once: [`SweepAndPrune::refit_batch`].
//!
//! A refit that moves a proxy finds its entry in each of its regions' sorted
//! arrays (at its hint, near it, or by a binary search) and shifts it to its
//! new place. When most proxies of a region move in one step (a tumbling or
//! flying crowd), their entries drift past each other, the hints go stale,
//! and each move costs a search and a shift: some three hundred instructions.
//!
//! A batch is told first which proxies are about to be refit
//! ([`RefitBatch::announce`]): it counts, per region, those whose tight box
//! has left their fat box. A region where at least one entry in four is
//! such a mover is re-sorted whole when the batch ends: a proxy all of whose
//! regions are re-sorted only takes its new box at its refit, and at the end
//! every entry of those regions takes its proxy's box, an insertion sort
//! (whose work is the entries plus the places they move) restores the
//! order, and the regions' running sums (which choose their sweep axes) are
//! taken afresh. Until then their arrays stay sorted by the boxes their
//! entries hold, so the other proxies there (those crossing region borders,
//! those with a region that is not re-sorted) move one by one as a single
//! refit moves them. The choice depends on the batch's own refits alone:
//! nothing is kept from one batch to the next, so a broad phase written to
//! a snapshot and read back goes on exactly as the original does.
//!
//! A step that moves thousands of proxies hands them over in one list
//! ([`RefitBatch::refit_all`]). What each refit will do is then worked out
//! first, on the rayon pool, from the structure as it stands: only the
//! proxy's own record decides it, so the plans cannot depend on each other
//! unless a key comes twice (then the list goes one by one). The refits are
//! then made in order from their plans, those whose regions all wait for
//! the re-sort only taking their new boxes, and the re-sorts, each region's
//! own work, run side by side at the end.
//!
//! Either way a region's array ends sorted by its entries' keys (the lower
//! end, then the id: a total order), so it is the array the refits one by
//! one would have left, and the pairs, events and query answers that follow
//! are theirs. Only what guides the searches differs: the hints, and the
//! last bits of the running sums.

use lamina_geometry::Aabb;
use rayon::prelude::*;

use crate::error::BroadPhaseError;
use crate::proxy::{Placement, Proxy, ProxyHint};
use crate::refit_plan::{Outcome, PlannedRefit};
use crate::sweep_and_prune::{ProxyView, SweepAndPrune};

/// A batch of refits of a [`SweepAndPrune`], from
/// [`SweepAndPrune::refit_batch`]: refits made through it are in place when
/// it is dropped. It holds the broad phase, so nothing can query it while
/// some of its regions wait for their re-sort.
pub struct RefitBatch<'a, K: Copy + Ord + std::hash::Hash> {
    sap: &'a mut SweepAndPrune<K>,
    /// Whether the regions to re-sort are chosen: at the first refit.
    chosen: bool,
}

impl<K: Copy + Ord + std::hash::Hash> SweepAndPrune<K> {
    /// Opens a batch of refits: [`RefitBatch::announce`] each refit to come,
    /// then make them with [`RefitBatch::refit`], which does what
    /// [`SweepAndPrune::refit_hinted`] does; the batch is complete once
    /// dropped. For a step that moves most of a crowd, whose regions are
    /// then re-sorted whole instead of moving their entries one by one (see
    /// the module's notes). Refits not announced are made one by one.
    ///
    /// A batch leaked instead of dropped (`std::mem::forget`) is completed
    /// by the next batch or [`SweepAndPrune::update_pairs`]; queries made
    /// before then may miss the leaked batch's moves.
    pub fn refit_batch(&mut self) -> RefitBatch<'_, K> {
        self.complete_batch();
        RefitBatch { sap: self, chosen: false }
    }

    /// Re-sorts the regions whose entries wait for the end of a batch, and
    /// forgets the batch; nothing when none is open.
    pub(crate) fn complete_batch(&mut self) {
        let (share, proxies) = (self.may_share(), ProxyView(&self.proxies));
        self.grid.end_batch(&self.batch_regions, share, |id| *proxies.fat(id));
        self.batch_regions.clear();
    }
}

impl<K: Copy + Ord + std::hash::Hash> RefitBatch<'_, K> {
    /// Tells the batch that `key` (last seen at `hint`) is to be refit to
    /// the tight box `aabb`, before any refit is made: a proxy whose box
    /// leaves its fat box counts as a mover in each of its regions. What
    /// is announced only chooses the regions to re-sort; a wrong or
    /// missing announcement changes the time taken, never the result.
    /// Announcements after the first refit are ignored.
    pub fn announce(&mut self, key: K, hint: ProxyHint, aabb: &Aabb) {
        let sap = &mut *self.sap;
        if self.chosen {
            return;
        }
        let Ok(id) = sap.proxy_of(key, hint) else { return };
        let proxy = &sap.proxies[id as usize];
        if proxy.fat.contains(aabb) {
            return;
        }
        if let Placement::Grid { regions, count, .. } = proxy.placement {
            for &r in &regions[..count as usize] {
                if sap.grid.count_in_batch(r) {
                    sap.batch_regions.push(r);
                }
            }
        }
    }

    /// [`SweepAndPrune::refit_hinted`] within the batch: the same result,
    /// the same checks, and the same state once the batch is dropped. In a
    /// region to be re-sorted the proxy only takes its new box (see
    /// `SweepAndPrune::relocate`); elsewhere it moves as one refit does.
    pub fn refit(
        &mut self,
        key: K,
        hint: ProxyHint,
        aabb: Aabb,
    ) -> Result<(Option<Aabb>, ProxyHint), BroadPhaseError<K>> {
        if !self.chosen {
            self.chosen = true;
            for &r in &self.sap.batch_regions {
                self.sap.grid.choose_resort(r);
            }
        }
        self.sap.refit_hinted(key, hint, aabb)
    }
}

impl<K: Copy + Ord + std::hash::Hash> Drop for RefitBatch<'_, K> {
    /// Re-sorts the regions whose entries wait, and forgets the batch.
    fn drop(&mut self) {
        self.sap.complete_batch();
    }
}

/// One refit for [`RefitBatch::refit_all`]: the key, the hint kept from its
/// last refit, and the new tight box.
pub type Refit<K> = (K, ProxyHint, Aabb);

/// What [`RefitBatch::refit`] returns for one refit, and
/// [`RefitBatch::refit_all`] hands over for each.
pub type RefitResult<K> = Result<(Option<Aabb>, ProxyHint), BroadPhaseError<K>>;

/// Refits per task when [`RefitBatch::refit_all`] plans them on the pool:
/// each reads a proxy record or two, some tens of nanoseconds.
const PLAN_RUN: usize = 256;

impl<K: Copy + Ord + std::hash::Hash + Send + Sync> RefitBatch<'_, K> {
    /// Announces every refit of `refits` ([`RefitBatch::announce`]), then
    /// makes them in order ([`RefitBatch::refit`]), handing each one's
    /// result to `result` with its place in `refits`, in order. The state
    /// it leaves and the results are those of the calls one by one. (The
    /// results are handed over rather than listed: a list of them would be
    /// as long as the crowd, kept for the next step.)
    ///
    /// For a step that moves a crowd, on the rayon pool where there are
    /// many refits (on one thread, or when the owner keeps the work on the
    /// calling thread (`SweepAndPrune::set_shares_work`), they are made one
    /// by one). What each
    /// one will do is first worked out from the broad phase as it stands:
    /// the proxy's id, whether the box still fits, the new fat box, and
    /// whether it stays in the same regions. The refits are then made in
    /// order from their plans: a proxy that keeps its regions moves within
    /// them (only taking its new box where they all wait for the batch's
    /// re-sort), and the rest are made as [`RefitBatch::refit`] makes them.
    /// A key given twice makes the whole list go one by one. The re-sorts
    /// run side by side when the batch is dropped.
    pub fn refit_all(&mut self, refits: &[Refit<K>], mut result: impl FnMut(usize, RefitResult<K>)) {
        let mut one_by_one = |batch: &mut Self| {
            for &(key, hint, aabb) in refits {
                batch.announce(key, hint, &aabb);
            }
            for (i, &(key, hint, aabb)) in refits.iter().enumerate() {
                result(i, batch.refit(key, hint, aabb));
            }
        };
        // On one thread, planning first is only more passes over the same
        // records.
        if !self.sap.shares(refits.len(), 2 * PLAN_RUN) {
            return one_by_one(self);
        }
        let mut planned = std::mem::take(&mut self.sap.planned);
        self.sap.plan_refits(refits, &mut planned);
        if self.sap.meets_twice(&planned) {
            planned.clear();
            self.sap.planned = planned;
            return one_by_one(self);
        }
        if !self.chosen {
            // What `announce` counts, from the plans; then the choice the
            // first refit would make.
            let sap = &mut *self.sap;
            for plan in &planned {
                for &r in &plan.regions[..plan.count as usize] {
                    if sap.grid.count_in_batch(r) {
                        sap.batch_regions.push(r);
                    }
                }
            }
            self.chosen = true;
            for &r in &sap.batch_regions {
                sap.grid.choose_resort(r);
            }
        }
        self.sap.take_boxes(&mut planned);
        for (i, (&(key, hint, aabb), plan)) in refits.iter().zip(&planned).enumerate() {
            let sap = &mut *self.sap;
            // What `SweepAndPrune::refit_hinted` would do, without finding
            // again what the plan found.
            let made = match plan.outcome {
                Outcome::Fits => Ok((None, ProxyHint(plan.id))),
                Outcome::TakesBox => {
                    sap.queue(plan.id);
                    Ok((Some(plan.fat), ProxyHint(plan.id)))
                }
                Outcome::SameCells => {
                    sap.move_within_cells(plan.id, plan.fat);
                    sap.queue(plan.id);
                    Ok((Some(plan.fat), ProxyHint(plan.id)))
                }
                Outcome::Other => self.refit(key, hint, aabb),
            };
            result(i, made);
        }
        self.sap.planned = planned;
    }
}

impl<K: Copy + Ord + std::hash::Hash + Send + Sync> SweepAndPrune<K> {
    /// Works out what each refit of `refits` will do, into `planned`,
    /// reading the broad phase only, on the pool.
    fn plan_refits(&self, refits: &[Refit<K>], planned: &mut Vec<PlannedRefit>) {
        planned.clear();
        // Exactly: the list is kept from step to step.
        planned.reserve_exact(refits.len());
        planned.resize(refits.len(), PlannedRefit::unset());
        let plan_run = |(refits, planned): (&[Refit<K>], &mut [PlannedRefit])| {
            for (&(key, hint, aabb), plan) in refits.iter().zip(planned) {
                *plan = self.plan_refit(key, hint, &aabb);
            }
        };
        refits.par_chunks(PLAN_RUN).zip(planned.par_chunks_mut(PLAN_RUN)).for_each(plan_run);
    }

    /// What refitting `key` (last seen at `hint`) to `aabb` will do.
    fn plan_refit(&self, key: K, hint: ProxyHint, aabb: &Aabb) -> PlannedRefit {
        let mut plan = PlannedRefit::unset();
        if !aabb.is_valid() {
            return plan;
        }
        let Ok(id) = self.proxy_of(key, hint) else { return plan };
        plan.id = id;
        let proxy = &self.proxies[id as usize];
        if proxy.fat.contains(aabb) {
            plan.outcome = Outcome::Fits;
            return plan;
        }
        let Placement::Grid { range, regions, count, .. } = proxy.placement else { return plan };
        (plan.regions, plan.count) = (regions, count);
        let Ok(fat) = self.fatten(aabb, &proxy.filter) else { return plan };
        if self.grid.grid_range(&fat) == Some(range) {
            (plan.fat, plan.outcome) = (fat, Outcome::SameCells);
        }
        plan
    }

    /// Gives each planned proxy that moves within its regions, all of them
    /// re-sorted at the end of the batch, its new box: all that
    /// [`SweepAndPrune::move_within_cells`] does for it (the regions take
    /// the box at the re-sort). When most of a crowd moves, these are most
    /// of the refits, each a write to a record of its own far from the
    /// others: on the pool, and marked [`Outcome::TakesBox`]. The plans are
    /// of distinct proxies (see [`SweepAndPrune::meets_twice`]).
    fn take_boxes(&mut self, planned: &mut [PlannedRefit]) {
        let grid = &self.grid;
        let records = ProxyRecords::new(&mut self.proxies);
        planned.par_chunks_mut(PLAN_RUN).for_each(|run| {
            for plan in run {
                let regions = &plan.regions[..plan.count as usize];
                if plan.outcome == Outcome::SameCells && regions.iter().all(|&r| grid.resorts(r)) {
                    plan.outcome = Outcome::TakesBox;
                    // SAFETY: no two plans name one proxy, each plan is
                    // visited by one task, and nothing else reads or
                    // writes the proxies until the pool is done.
                    unsafe { records.set_fat(plan.id, plan.fat) };
                }
            }
        });
    }

    /// Whether two of the `planned` refits are of one proxy. Leaves
    /// [`SweepAndPrune::met`] clear.
    fn meets_twice(&mut self, planned: &[PlannedRefit]) -> bool {
        let words = self.proxies.len().div_ceil(64);
        if self.met.len() < words {
            self.met.resize(words, 0);
        }
        let known = || planned.iter().map(|p| p.id).filter(|&id| id != u32::MAX);
        let mut twice = false;
        for id in known() {
            let (word, bit) = (&mut self.met[id as usize / 64], 1u64 << (id % 64));
            twice |= *word & bit != 0;
            *word |= bit;
        }
        for id in known() {
            self.met[id as usize / 64] = 0;
        }
        twice
    }
}

/// The proxies' records, for tasks on several threads that each write
/// records no other task touches.
struct ProxyRecords<K> {
    first: *mut Proxy<K>,
    len: usize,
}

// SAFETY: tasks only write the boxes of distinct records through it (see
// `set_fat`), plain data; the keys are neither read nor written, and the
// records' owner lends them for the writer's whole life.
unsafe impl<K: Send> Sync for ProxyRecords<K> {}

impl<K> ProxyRecords<K> {
    fn new(proxies: &mut [Proxy<K>]) -> Self {
        Self { first: proxies.as_mut_ptr(), len: proxies.len() }
    }

    /// Sets the fat box of proxy `id`.
    ///
    /// # Safety
    ///
    /// No other thread reads or writes proxy `id`'s record meanwhile.
    unsafe fn set_fat(&self, id: u32, fat: Aabb) {
        assert!((id as usize) < self.len, "proxy {id} out of range");
        // SAFETY: in bounds (checked), and this thread alone touches the
        // record (the caller's promise).
        unsafe { (*self.first.add(id as usize)).fat = fat };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lamina_geometry::Point;

    /// A crowd of `n` unit boxes in rows, in regions of 8 m.
    fn crowd(n: u32) -> SweepAndPrune<u32> {
        let settings = crate::BroadPhaseSettings { margin: 0.1, region_size: 8.0 };
        let mut sap = SweepAndPrune::with_settings(settings).unwrap();
        for k in 0..n {
            let (x, y) = ((k % 40) as lamina_geometry::Real * 0.8, (k / 40) as lamina_geometry::Real * 0.8);
            sap.insert(k, Aabb::new(Point::new(x, y), Point::new(x + 0.5, y + 0.5))).unwrap();
        }
        let mut events = Vec::new();
        sap.update_pairs(&mut events);
        sap
    }

    /// The crowd's boxes shifted by `dx`, with their hints.
    fn shifted(sap: &SweepAndPrune<u32>, n: u32, dx: lamina_geometry::Real) -> Vec<Refit<u32>> {
        (0..n)
            .map(|k| {
                let fat = sap.fat_aabb(k).unwrap();
                let (lo, hi) = (fat.mins + Vec2::new(0.1 + dx, 0.1), fat.maxs - Vec2::new(0.1 - dx, 0.1));
                (k, sap.hint(k).unwrap(), Aabb::new(lo, hi))
            })
            .collect()
    }

    use lamina_geometry::Vec2;

    #[test]
    fn a_drifting_crowd_is_planned_on_the_pool() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let n = 1200;
        let mut sap = crowd(n);
        let mut single = sap.clone();
        // Every box leaves its fat box but keeps its regions, except those
        // within 0.3 m of a region's right border.
        let refits = shifted(&sap, n, 0.3);
        let mut results = Vec::new();
        pool.install(|| {
            let mut batch = sap.refit_batch();
            batch.refit_all(&refits, |_, r| results.push(r));
            // Planned, and most of them only take their new boxes.
            let grid = &batch.sap.grid;
            let resorted = |p: &PlannedRefit| p.regions[..p.count as usize].iter().all(|&r| grid.resorts(r));
            let taking = batch.sap.planned.iter().filter(|p| p.outcome == Outcome::TakesBox && resorted(p));
            let taking = taking.count();
            let left = batch.sap.planned.iter().filter(|p| p.outcome == Outcome::SameCells && resorted(p));
            assert_eq!(left.count(), 0, "a proxy whose regions are all re-sorted moved in them");
            assert!(taking > n as usize / 2, "{taking} of {n} proxies only take their boxes");
        });
        for (&(key, hint, aabb), result) in refits.iter().zip(&results) {
            assert_eq!(*result, single.refit_hinted(key, hint, aabb));
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        sap.update_pairs(&mut a);
        single.update_pairs(&mut b);
        assert_eq!(a, b);
        sap.check_invariants().unwrap();
    }

    #[test]
    fn a_key_given_twice_makes_the_refits_one_by_one() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let n = 1200;
        let mut sap = crowd(n);
        let mut single = sap.clone();
        let mut refits = shifted(&sap, n, 0.3);
        // The same proxy moved on again: the second refit starts from the first's box.
        let (key, hint, aabb) = refits[7];
        refits.push((key, hint, Aabb::new(aabb.mins + Vec2::new(0.5, 0.0), aabb.maxs + Vec2::new(0.5, 0.0))));
        let mut results = Vec::new();
        pool.install(|| sap.refit_batch().refit_all(&refits, |_, r| results.push(r)));
        assert!(sap.planned.is_empty(), "the plans were dropped");
        for (&(key, hint, aabb), result) in refits.iter().zip(&results) {
            assert_eq!(*result, single.refit_hinted(key, hint, aabb));
        }
        assert_eq!(sap.fat_aabb(key), single.fat_aabb(key));
        sap.check_invariants().unwrap();
    }
}
