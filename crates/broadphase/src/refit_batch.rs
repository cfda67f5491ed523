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
//! Either way a region's array ends sorted by its entries' keys (the lower
//! end, then the id: a total order), so it is the array the refits one by
//! one would have left, and the pairs, events and query answers that follow
//! are theirs. Only what guides the searches differs: the hints, and the
//! last bits of the running sums.

use lamina_geometry::Aabb;

use crate::error::BroadPhaseError;
use crate::proxy::{Placement, ProxyHint};
use crate::sweep_and_prune::SweepAndPrune;

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
        let regions = std::mem::take(&mut self.batch_regions);
        for &r in &regions {
            let proxies = &self.proxies;
            self.grid.end_batch(r, |id| proxies[id as usize].fat);
        }
        self.batch_regions = regions;
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
