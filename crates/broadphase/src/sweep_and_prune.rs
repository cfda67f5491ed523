//! The broad phase's public structure: proxies, their registration in the region
//! grid, and the step that turns moves into pair events.

use crate::cell::CellRange;
use crate::error::BroadPhaseError;
use crate::event::PairEvent;
use crate::hash::FastBuild;
use crate::movers::{Movers, PARALLEL_SEARCHES, Search, UNCHANGED_RUN, plan_searches};
use crate::pair_set::PairSet;
use crate::proxy::{PairFilter, Placement, Proxy, ProxyHint};
use crate::region::{RegionGrid, SweepPolicy};
use crate::settings::{BroadPhaseSettings, lonely_margin};
use lamina_geometry::{Aabb, Real};
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::Hash;

/// The proxies as the searches of `update_pairs` read them from several
/// threads: boxes, placements and filters, never a key. (The keys are the
/// caller's type, which need not be shared between threads.)
pub(crate) struct ProxyView<'a, K>(pub(crate) &'a [Proxy<K>]);

// SAFETY: a `ProxyView` hands out shared references to proxies' boxes,
// placements and filters only, plain data without interior mutability, and
// nothing mutates the proxies while it lives; the key is never read through it.
unsafe impl<K> Sync for ProxyView<'_, K> {}

impl<K> ProxyView<'_, K> {
    #[inline]
    pub(crate) fn fat(&self, id: u32) -> &Aabb {
        &self.0[id as usize].fat
    }

    #[inline]
    fn placement(&self, id: u32) -> Placement {
        self.0[id as usize].placement
    }

    #[inline]
    fn filter(&self, id: u32) -> &PairFilter {
        &self.0[id as usize].filter
    }
}

/// Incremental sweep-and-prune over fat AABBs, with a persistent pair set.
///
/// `K` is the caller's key: any `Copy + Ord + Hash` value. Keys are only hashed to
/// find their proxy; everything handed out is ordered by key, so two structures
/// given the same calls report the same events in the same order.
///
/// A pair is two proxies whose **fat** boxes (see [`SweepAndPrune::fat_aabb`])
/// overlap or touch and whose [`PairFilter`]s accept each other (proxies
/// inserted with [`SweepAndPrune::insert`] accept everything). The set of pairs is the one reported by the events of every
/// [`SweepAndPrune::update_pairs`] so far, and [`SweepAndPrune::pairs`] lists it.
#[derive(Clone, Debug)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        bound(
            serialize = "K: serde::Serialize",
            deserialize = "K: serde::Deserialize<'de> + Ord + Hash + Copy"
        ),
        try_from = "crate::stored::Stored<K>"
    )
)]
pub struct SweepAndPrune<K> {
    pub(crate) settings: BroadPhaseSettings,
    pub(crate) proxies: Vec<Proxy<K>>,
    pub(crate) free: Vec<u32>,
    /// The live proxies by key (rebuilt from them when read back from serde).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) keys: HashMap<K, u32, FastBuild>,
    pub(crate) grid: RegionGrid,
    /// Proxies too large for the grid, checked directly by every query.
    pub(crate) large: Vec<u32>,
    /// Proxies inserted or moved since the last `update_pairs`, in the order queued.
    pub(crate) moved: Vec<u32>,
    /// The same proxies as a bit set over ids, which `update_pairs` reads in id
    /// order and tests while sweeping. A bit stays set when its proxy is removed,
    /// so that a new proxy reusing the slot is not queued twice.
    pub(crate) queued: Vec<u64>,
    pub(crate) pairs: PairSet<K>,
    /// How regions are searched for moved proxies' overlaps (forced only by tests).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) sweep_policy: SweepPolicy,
    /// What `update_pairs` keeps between calls of the moved proxies it
    /// handles, to avoid allocating (see [`Movers`]).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) movers: Movers,
    /// Live proxies per category bit, and the bits some live proxy has: a
    /// mover whose mask meets none of them can pair with nothing, and is not
    /// searched for overlaps (a cloth whose particles ignore each other).
    pub(crate) category_counts: [u32; 32],
    pub(crate) categories: u32,
    /// Live proxies whose filter is not [universal](PairFilter::is_universal).
    /// While there are none (most worlds), every overlap is a pair, and
    /// `update_pairs` reads no filter: each read is a proxy record fetched
    /// out of order per overlap found. Derived from the proxies, so not
    /// written.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) filtered: u32,
    /// The regions the announced movers of the open
    /// [`RefitBatch`](crate::RefitBatch) are in, each once.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) batch_regions: Vec<u32>,
    /// Scratch of [`RefitBatch::refit_all`](crate::RefitBatch::refit_all):
    /// what each refit will do, and the proxies met so far, as a bit set
    /// over ids (all clear between calls).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) planned: Vec<crate::refit_plan::PlannedRefit>,
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) met: Vec<u64>,
    /// Set by [`SweepAndPrune::set_shares_work`] to keep the batch work on
    /// the calling thread (not written: a broad phase read back shares).
    #[cfg_attr(feature = "serde", serde(skip))]
    alone: bool,
}

impl<K: Copy + Ord + Hash> Default for SweepAndPrune<K> {
    fn default() -> Self {
        Self::new()
    }
}

/// One region of the broad phase's grid, as tools that draw it see it
/// ([`SweepAndPrune::regions`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RegionView {
    /// The region's square.
    pub bounds: Aabb,
    /// How many proxies are registered in it (a proxy may be in up to four).
    pub proxies: usize,
    /// Whether it sorts its proxies along y (a tall stack's region) rather than x.
    pub sweeps_along_y: bool,
}

impl<K: Copy + Ord + Hash> SweepAndPrune<K> {
    /// The grid's live regions, in no meaningful order: for debug views. The
    /// proxies too large for the grid (see [`BroadPhaseSettings`]) are in no
    /// region.
    pub fn regions(&self) -> impl Iterator<Item = RegionView> + '_ {
        self.grid.live_regions().map(|(_, region)| RegionView {
            bounds: self.grid.cell_box(region.cell()),
            proxies: region.sap().len(),
            sweeps_along_y: region.sap().axis() == crate::sorted_axis::Axis::Y,
        })
    }

    /// An empty broad phase with the default margin
    /// ([`AABB_MARGIN`](lamina_geometry::tolerance::AABB_MARGIN)) and region size.
    pub fn new() -> Self {
        Self::from_valid_settings(BroadPhaseSettings::default())
    }

    /// An empty broad phase whose fat boxes extend `margin` metres beyond the tight
    /// boxes. `margin` must be finite and at least 0.
    pub fn with_margin(margin: Real) -> Result<Self, BroadPhaseError<K>> {
        Self::with_settings(BroadPhaseSettings { margin, ..BroadPhaseSettings::default() })
    }

    /// An empty broad phase with the given settings, after checking them.
    pub fn with_settings(settings: BroadPhaseSettings) -> Result<Self, BroadPhaseError<K>> {
        if !(settings.margin.is_finite() && settings.margin >= 0.0) {
            return Err(BroadPhaseError::InvalidMargin(settings.margin));
        }
        let size = settings.region_size;
        if !(size.is_finite() && size > 0.0 && (1.0 / size).is_finite()) {
            return Err(BroadPhaseError::InvalidRegionSize(size));
        }
        Ok(Self::from_valid_settings(settings))
    }

    pub(crate) fn from_valid_settings(settings: BroadPhaseSettings) -> Self {
        Self {
            settings,
            proxies: Vec::new(),
            free: Vec::new(),
            keys: HashMap::default(),
            grid: RegionGrid::new(settings.region_size),
            large: Vec::new(),
            moved: Vec::new(),
            queued: Vec::new(),
            pairs: PairSet::new(),
            sweep_policy: SweepPolicy::Auto,
            movers: Movers::default(),
            category_counts: [0; 32],
            categories: 0,
            filtered: 0,
            batch_regions: Vec::new(),
            planned: Vec::new(),
            met: Vec::new(),
            alone: false,
        }
    }

    /// Whether [`SweepAndPrune::update_pairs`] and
    /// [`RefitBatch::refit_all`](crate::RefitBatch::refit_all) may share
    /// their work with the rayon pool where they have enough of it (the
    /// default), or keep it on the calling thread: for an owner that found
    /// its step faster on one thread than on the pool. The results are the
    /// same bits either way.
    pub fn set_shares_work(&mut self, shares: bool) {
        self.alone = !shares;
    }

    /// Whether batch work may be shared with the pool (see
    /// [`SweepAndPrune::set_shares_work`]).
    pub fn shares_work(&self) -> bool {
        !self.alone
    }

    /// Whether work may be shared with the pool at all: it has another
    /// thread, and the owner lets it.
    pub(crate) fn may_share(&self) -> bool {
        !self.alone && rayon::current_num_threads() > 1
    }

    /// Whether work of `items` items, worth sharing from `from` items on,
    /// is shared with the pool.
    pub(crate) fn shares(&self, items: usize, from: usize) -> bool {
        items >= from && self.may_share()
    }

    /// The settings this broad phase was built with.
    #[inline]
    pub fn settings(&self) -> BroadPhaseSettings {
        self.settings
    }

    /// The fat-box margin, in metres.
    #[inline]
    pub fn margin(&self) -> Real {
        self.settings.margin
    }

    /// The number of proxies.
    #[inline]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when there are no proxies.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// True when a proxy with this key exists.
    #[inline]
    pub fn contains(&self, key: K) -> bool {
        self.keys.contains_key(&key)
    }

    /// The fat box of `key`: the box pairs and queries are computed over. `None`
    /// for an unknown key.
    #[inline]
    pub fn fat_aabb(&self, key: K) -> Option<Aabb> {
        self.keys.get(&key).map(|&id| self.proxies[id as usize].fat)
    }

    /// The number of pairs in the set.
    #[inline]
    pub fn pair_count(&self) -> usize {
        self.pairs.len()
    }

    /// True when `a` and `b` form a pair of the set (in either order).
    pub fn contains_pair(&self, a: K, b: K) -> bool {
        match (self.keys.get(&a), self.keys.get(&b)) {
            (Some(&ia), Some(&ib)) => self.pairs.partners(ia).contains(&ib),
            _ => false,
        }
    }

    /// The pairs of the set, each `(a, b)` with `a < b`, in increasing order.
    ///
    /// This builds and sorts a list, so it allocates: it is meant for inspection
    /// and tests. The events of [`SweepAndPrune::update_pairs`] are the cheap way to
    /// follow the set.
    pub fn pairs(&self) -> impl Iterator<Item = (K, K)> + use<K> {
        let mut list = Vec::with_capacity(self.pairs.len());
        for (id, proxy) in self.proxies.iter().enumerate() {
            if !proxy.live {
                continue;
            }
            for &q in self.pairs.partners(id as u32) {
                let other = self.proxies[q as usize].key;
                if proxy.key < other {
                    list.push((proxy.key, other));
                }
            }
        }
        list.sort_unstable();
        list.into_iter()
    }

    /// Checks a tight box and grows it by the margin, for a proxy of pair
    /// filter `filter`: [`LONELY_MARGIN_SCALE`] times
    /// the margin where it accepts none of the categories present, since
    /// such a proxy makes no pair however large its box, and moves less often.
    pub(crate) fn fatten(&self, tight: &Aabb, filter: &PairFilter) -> Result<Aabb, BroadPhaseError<K>> {
        if !tight.is_valid() {
            return Err(BroadPhaseError::InvalidAabb { mins: tight.mins, maxs: tight.maxs });
        }
        // The proxy's own categories count as present: a proxy being added
        // is not alone in the world with itself.
        let plain = self.settings.margin;
        let margin = if filter.mask != 0 && filter.mask & (self.categories | filter.category) == 0 {
            lonely_margin(plain, tight, self.grid.long_side_limit())
        } else {
            plain
        };
        let fat = tight.loosened(margin);
        if !fat.is_valid() {
            return Err(BroadPhaseError::FatAabbOverflow { mins: tight.mins, maxs: tight.maxs, margin });
        }
        Ok(fat)
    }

    /// Adds a proxy for `key` around the tight box `aabb`. Its pairs are reported
    /// by the next [`SweepAndPrune::update_pairs`].
    ///
    /// Fails, changing nothing, on a non-finite or inverted box or a key already present.
    pub fn insert(&mut self, key: K, aabb: Aabb) -> Result<(), BroadPhaseError<K>> {
        self.insert_filtered(key, aabb, PairFilter::ALL)
    }

    /// Adds a proxy like [`SweepAndPrune::insert`] that pairs only with proxies
    /// `filter` accepts: pairs that could never interact (a cloth's own
    /// particles, say) then cost nothing once found.
    pub fn insert_filtered(
        &mut self,
        key: K,
        aabb: Aabb,
        filter: PairFilter,
    ) -> Result<(), BroadPhaseError<K>> {
        let fat = self.fatten(&aabb, &filter)?;
        if self.keys.contains_key(&key) {
            return Err(BroadPhaseError::DuplicateKey(key));
        }
        let id = match self.free.pop() {
            Some(id) => {
                let proxy = &mut self.proxies[id as usize];
                proxy.key = key;
                proxy.fat = fat;
                proxy.placement = Placement::Detached;
                proxy.live = true;
                proxy.filter = filter;
                id
            }
            None => {
                self.proxies.push(Proxy { key, fat, placement: Placement::Detached, live: true, filter });
                let slots = self.proxies.len();
                self.pairs.reserve_slots(slots);
                self.movers.index.resize(slots, 0);
                self.queued.resize(slots.div_ceil(64), 0);
                (self.proxies.len() - 1) as u32
            }
        };
        self.keys.insert(key, id);
        self.count_categories(filter.category, true);
        self.filtered += u32::from(!filter.is_universal());
        self.attach(id);
        self.queue(id);
        Ok(())
    }

    /// Tells the broad phase that `key`'s tight box is now `aabb`.
    ///
    /// While the tight box stays inside the fat box nothing happens and this returns
    /// `Ok(false)`. Otherwise the fat box is rebuilt around the tight box, the
    /// proxy moves in the sorted arrays, and this returns `Ok(true)`; its pairs are
    /// brought up to date by the next [`SweepAndPrune::update_pairs`].
    ///
    /// Fails, changing nothing, on a non-finite or inverted box or an unknown key.
    pub fn update(&mut self, key: K, aabb: Aabb) -> Result<bool, BroadPhaseError<K>> {
        Ok(self.refit(key, aabb)?.is_some())
    }

    /// [`SweepAndPrune::update`], returning the new fat box when the proxy
    /// moved (`None` when it stayed): for callers that keep a copy of it.
    pub fn refit(&mut self, key: K, aabb: Aabb) -> Result<Option<Aabb>, BroadPhaseError<K>> {
        Ok(self.refit_hinted(key, ProxyHint::NONE, aabb)?.0)
    }

    /// [`SweepAndPrune::refit`] where `hint` says where `key`'s proxy was
    /// (from an earlier call, or [`ProxyHint::NONE`]): when it still holds
    /// `key`, the key is not looked up. Returns the new fat box when the proxy
    /// moved, and the hint to keep for the next call. A wrong hint changes
    /// nothing but the time taken.
    pub fn refit_hinted(
        &mut self,
        key: K,
        hint: ProxyHint,
        aabb: Aabb,
    ) -> Result<(Option<Aabb>, ProxyHint), BroadPhaseError<K>> {
        if !aabb.is_valid() {
            return Err(BroadPhaseError::InvalidAabb { mins: aabb.mins, maxs: aabb.maxs });
        }
        let id = self.proxy_of(key, hint)?;
        if self.proxies[id as usize].fat.contains(&aabb) {
            return Ok((None, ProxyHint(id)));
        }
        let fat = self.fatten(&aabb, &self.proxies[id as usize].filter)?;
        self.relocate(id, fat);
        self.queue(id);
        Ok((Some(fat), ProxyHint(id)))
    }

    /// The id of `key`'s proxy, at `hint` when the hint still holds `key`
    /// (a guess that spares the lookup), else looked up.
    pub(crate) fn proxy_of(&self, key: K, hint: ProxyHint) -> Result<u32, BroadPhaseError<K>> {
        match self.proxies.get(hint.0 as usize) {
            Some(p) if p.live && p.key == key => Ok(hint.0),
            _ => self.keys.get(&key).copied().ok_or(BroadPhaseError::UnknownKey(key)),
        }
    }

    /// Where `key`'s proxy is kept, for [`SweepAndPrune::refit_hinted`];
    /// `None` for an unknown key.
    pub fn hint(&self, key: K) -> Option<ProxyHint> {
        self.keys.get(&key).map(|&id| ProxyHint(id))
    }

    /// Removes `key`'s proxy. Its pairs end: the next [`SweepAndPrune::update_pairs`]
    /// reports an `End` for each.
    ///
    /// Fails, changing nothing, on an unknown key.
    pub fn remove(&mut self, key: K) -> Result<(), BroadPhaseError<K>> {
        let id = self.keys.remove(&key).ok_or(BroadPhaseError::UnknownKey(key))?;
        self.detach(id);
        self.pairs.remove_proxy(id, &self.proxies);
        self.proxies[id as usize].live = false;
        let filter = self.proxies[id as usize].filter;
        self.count_categories(filter.category, false);
        self.filtered -= u32::from(!filter.is_universal());
        self.free.push(id);
        Ok(())
    }

    /// How many live proxies have a filter that is not universal.
    #[cfg(any(test, feature = "serde"))]
    pub(crate) fn count_filtered(&self) -> u32 {
        self.proxies.iter().filter(|p| p.live && !p.filter.is_universal()).count() as u32
    }

    /// Counts a proxy of categories `bits` in (`added`) or out.
    fn count_categories(&mut self, bits: u32, added: bool) {
        for b in 0..32 {
            if bits & (1 << b) != 0 {
                let count = &mut self.category_counts[b];
                *count = if added { *count + 1 } else { *count - 1 };
                if *count == 0 {
                    self.categories &= !(1 << b);
                } else {
                    self.categories |= 1 << b;
                }
            }
        }
    }

    /// Brings the pair set up to date with every insert, update and remove since the
    /// last call, and reports what changed.
    ///
    /// `events` is **cleared, then filled**: first every [`PairEvent::End`], then
    /// every [`PairEvent::Begin`], each group sorted by key pair, and `a < b` in each
    /// event. Replaying the events in order onto the previous set gives the new set
    /// exactly. A pair appears at most once per group; it can appear in both
    /// (`End`, then `Begin`) only when one of its keys was removed and inserted again.
    ///
    /// Once the structure has reached its working size this allocates nothing.
    pub fn update_pairs(&mut self, events: &mut Vec<PairEvent<K>>) {
        self.complete_batch();
        self.grid.maintain();
        self.movers.collect(&mut self.moved, &mut self.queued, &self.proxies);
        self.find_overlaps();
        self.movers.group_overlaps();
        let share = self.shares(self.movers.ids.len(), 2 * UNCHANGED_RUN);
        self.movers.tell_unchanged(self.pairs.lists(), share);
        for (id, found) in self.movers.changed() {
            self.pairs.reconcile(id, found, &self.proxies);
        }
        // Every bit still set is a mover's: clear its whole word.
        for &id in &self.movers.ids {
            self.queued[id as usize / 64] = 0;
        }
        self.pairs.drain_events(events);
    }

    /// True when proxy `id` is queued (during `update_pairs`: is a mover).
    #[inline]
    fn is_queued(queued: &[u64], id: u32) -> bool {
        queued[id as usize / 64] & (1 << (id % 64)) != 0
    }

    /// Fills `hits` with `(mover index, other)` for every overlap of every mover:
    /// per mover, exactly what [`SweepAndPrune::for_each_overlap`] reports for its
    /// fat box. Regions where many proxies moved are swept once for all of them;
    /// in the others each mover searches for itself. The searches (see
    /// [`plan_searches`]) only read the structure, and run side by side on the
    /// rayon pool when there are enough of them.
    fn find_overlaps(&mut self) {
        let mut hits = std::mem::take(&mut self.movers.hits);
        hits.clear();
        self.movers.active.clear();
        let proxies = ProxyView(&self.proxies);
        // With every filter universal, every overlap pairs and no proxy is
        // lonely (each mask meets every category).
        let filtered = self.filtered != 0;
        let accepts = |a: u32, b: u32| !filtered || proxies.filter(a).accepts(proxies.filter(b));
        let categories = self.categories;
        let lonely = |id: u32| filtered && proxies.filter(id).mask & categories == 0;
        for (i, &id) in self.movers.ids.iter().enumerate() {
            let proxy = &self.proxies[id as usize];
            if lonely(id) {
                continue;
            }
            let fat = proxy.fat;
            let mut hit = |q: u32| {
                if accepts(id, q) {
                    hits.push((i as u32, q));
                }
            };
            match proxy.placement {
                Placement::Grid { regions, count, .. } => {
                    for &r in &regions[..count as usize] {
                        if self.grid.add_mover(r) {
                            self.movers.active.push(r);
                        }
                    }
                    self.for_each_large_overlap(&fat, Some(id), hit);
                }
                _ => self.for_each_overlap(&fat, Some(id), &mut hit),
            }
        }
        let m = &mut self.movers;
        plan_searches(&mut self.grid, &m.active, self.sweep_policy, m.ids.len(), &mut m.searches);
        let (queued, mover_index, grid) = (&self.queued, &self.movers.index, &self.grid);
        let movers = &self.movers.ids;
        let search = |s: &Search, hits: &mut Vec<(u32, u32)>| match s {
            Search::Sweep { region, starts } => grid.region(*region).for_each_moving_overlap(
                grid,
                starts.clone(),
                |id| Self::is_queued(queued, id),
                |m, q| {
                    if accepts(m, q) {
                        hits.push((mover_index[m as usize], q));
                    }
                },
            ),
            Search::Movers(range) => {
                for (i, &id) in movers.iter().enumerate().take(range.end).skip(range.start) {
                    if lonely(id) {
                        continue;
                    }
                    let fat = proxies.fat(id);
                    if let Placement::Grid { range, regions, hints, count } = proxies.placement(id) {
                        for (&r, &hint) in regions[..count as usize].iter().zip(&hints) {
                            let region = grid.region(r);
                            if !region.swept() {
                                let single = range.is_single();
                                region.for_each_overlap_of_member(grid, id, fat, single, hint, |q| {
                                    if accepts(id, q) {
                                        hits.push((i as u32, q));
                                    }
                                });
                            }
                        }
                    }
                }
            }
        };
        let searches = &self.movers.searches;
        if !self.shares(searches.len(), PARALLEL_SEARCHES) {
            for s in searches {
                search(s, &mut hits);
            }
        } else {
            // Each search lists its overlaps apart; joined in the searches'
            // order they are the list one thread would have made. Each is its
            // own job: the sweeps of a crowded region take tens of
            // microseconds each and lie together at the front, so halves of
            // the list are far from equal.
            let search_hits = &mut self.movers.search_hits;
            if search_hits.len() < searches.len() {
                search_hits.resize_with(searches.len(), Vec::new);
            }
            searches.par_iter().zip(search_hits.par_iter_mut()).with_max_len(1).for_each(|(s, out)| {
                out.clear();
                search(s, out);
            });
            for out in &search_hits[..searches.len()] {
                hits.extend_from_slice(out);
            }
        }
        for &r in &self.movers.active {
            self.grid.clear_movers(r);
        }
        self.movers.hits = hits;
    }

    /// Queues proxy `id` for the next `update_pairs`, once.
    pub(crate) fn queue(&mut self, id: u32) {
        let (word, bit) = (&mut self.queued[id as usize / 64], 1u64 << (id % 64));
        if *word & bit == 0 {
            *word |= bit;
            self.moved.push(id);
        }
    }

    /// Registers detached proxy `id` where its fat box belongs.
    fn attach(&mut self, id: u32) {
        let fat = self.proxies[id as usize].fat;
        let placement = if let Some(range) = self.grid.grid_range(&fat) {
            let (mut regions, mut hints) = ([0u32; 4], [0u32; 4]);
            let mut count = 0u8;
            for cell in range.cells() {
                let r = self.grid.get_or_create(cell);
                hints[count as usize] = self.grid.add(r, id, &fat);
                regions[count as usize] = r;
                count += 1;
            }
            Placement::Grid { range, regions, hints, count }
        } else {
            self.large.push(id);
            Placement::Large { slot: (self.large.len() - 1) as u32 }
        };
        self.proxies[id as usize].placement = placement;
    }

    /// Unregisters proxy `id` from wherever it is.
    fn detach(&mut self, id: u32) {
        let proxy = &self.proxies[id as usize];
        let fat = proxy.fat;
        match proxy.placement {
            Placement::Detached => {}
            Placement::Grid { regions, hints, count, .. } => {
                for (&r, &hint) in regions[..count as usize].iter().zip(&hints) {
                    self.grid.remove(r, id, &fat, hint);
                }
            }
            Placement::Large { slot } => {
                self.large.swap_remove(slot as usize);
                if let Some(&moved) = self.large.get(slot as usize) {
                    self.proxies[moved as usize].placement = Placement::Large { slot };
                }
            }
        }
        self.proxies[id as usize].placement = Placement::Detached;
    }

    /// Gives proxy `id` the fat box `fat`. In each region it stays in, the
    /// sorted array just walks its entry to the new place; it leaves the regions
    /// it no longer touches and enters the new ones. A proxy of the grid that
    /// crosses a region border thus keeps its entry where it stays, instead of
    /// removing and re-inserting it there (each a shift of half the array).
    /// The arrays end as a removal and re-insertion would leave them: their
    /// order is the entries' own.
    fn relocate(&mut self, id: u32, fat: Aabb) {
        if let Placement::Grid { range, .. } = self.proxies[id as usize].placement {
            match self.grid.grid_range(&fat) {
                Some(new_range) if new_range == range => return self.move_within_cells(id, fat),
                Some(new_range) => return self.cross_borders(id, fat, new_range),
                None => {}
            }
        }
        self.replace_whole(id, fat);
    }

    /// [`SweepAndPrune::relocate`] for a proxy of the grid whose new fat box
    /// `fat` lies in the cells of its present one: its entry walks to its new
    /// place in each of its regions, except in those re-sorted at the end of
    /// an open batch of refits, which take the new box then
    /// (`RegionGrid::end_batch`).
    pub(crate) fn move_within_cells(&mut self, id: u32, fat: Aabb) {
        let proxy = &self.proxies[id as usize];
        let Placement::Grid { range, regions, mut hints, count } = proxy.placement else {
            // Not in the grid after all (the callers check): placed afresh.
            return self.replace_whole(id, fat);
        };
        let old = proxy.fat;
        for (&r, hint) in regions[..count as usize].iter().zip(&mut hints) {
            if !self.grid.resorts(r) {
                *hint = self.grid.replace(r, id, &old, &fat, *hint);
            }
        }
        let proxy = &mut self.proxies[id as usize];
        proxy.fat = fat;
        proxy.placement = Placement::Grid { range, regions, hints, count };
    }

    /// Detaches proxy `id`, gives it the fat box `fat` and attaches it again.
    fn replace_whole(&mut self, id: u32, fat: Aabb) {
        self.detach(id);
        self.proxies[id as usize].fat = fat;
        self.attach(id);
    }

    /// [`SweepAndPrune::relocate`] for a proxy of the grid whose new fat box
    /// `fat` lies in the cells of `to`, not all of them its cells now: it walks
    /// its entry in the regions of both, leaves the regions it no longer
    /// touches, then enters the new ones, in the order of the cells. In a
    /// region it stays in that is re-sorted at the end of an open batch, the
    /// entry takes its new box then, as in [`SweepAndPrune::move_within_cells`]:
    /// walked now, it would cross entries whose boxes are stale (the
    /// spinner's crowd crosses some five hundred borders a step, a tenth of
    /// its batch's time).
    fn cross_borders(&mut self, id: u32, fat: Aabb, to: CellRange) {
        let proxy = &self.proxies[id as usize];
        let old = proxy.fat;
        let Placement::Grid { range, regions, mut hints, count } = proxy.placement else {
            // Not in the grid after all (`relocate` checks): placed afresh.
            return self.replace_whole(id, fat);
        };
        for ((cell, &r), hint) in range.cells().zip(&regions[..count as usize]).zip(&mut hints) {
            if to.contains(cell) {
                if !self.grid.resorts(r) {
                    *hint = self.grid.replace(r, id, &old, &fat, *hint);
                }
            } else {
                self.grid.remove(r, id, &old, *hint);
            }
        }
        let (mut new_regions, mut new_hints) = ([0u32; 4], [0u32; 4]);
        let mut n = 0;
        for cell in to.cells() {
            let kept =
                range.cells().zip(&regions[..count as usize]).zip(&hints).find(|((c, _), _)| *c == cell);
            let (r, hint) = match kept {
                Some(((_, &r), &hint)) => (r, hint),
                None => {
                    let r = self.grid.get_or_create(cell);
                    (r, self.grid.add(r, id, &fat))
                }
            };
            new_regions[n] = r;
            new_hints[n] = hint;
            n += 1;
        }
        let proxy = &mut self.proxies[id as usize];
        proxy.fat = fat;
        proxy.placement =
            Placement::Grid { range: to, regions: new_regions, hints: new_hints, count: n as u8 };
    }

    /// Calls `f` with the id of every proxy (other than `exclude`) whose fat box
    /// overlaps or touches `aabb`, each exactly once.
    pub(crate) fn for_each_overlap(&self, aabb: &Aabb, exclude: Option<u32>, mut f: impl FnMut(u32)) {
        let range = self.grid.range_of(aabb);
        self.grid.for_each_region_in(range, |region| {
            region.for_each_overlap(&self.grid, aabb, range.is_single(), exclude, &mut f);
        });
        self.for_each_large_overlap(aabb, exclude, f);
    }

    /// The large-list part of [`SweepAndPrune::for_each_overlap`].
    fn for_each_large_overlap(&self, aabb: &Aabb, exclude: Option<u32>, mut f: impl FnMut(u32)) {
        for &l in &self.large {
            if Some(l) != exclude && self.proxies[l as usize].fat.intersects(aabb) {
                f(l);
            }
        }
    }

    /// The range of cells a ray segment's candidates can lie in.
    pub(crate) fn ray_range(
        &self,
        start: &lamina_geometry::Point,
        end: Option<lamina_geometry::Point>,
    ) -> CellRange {
        match end {
            Some(end) if end.x.is_finite() && end.y.is_finite() => {
                let bounds = Aabb::new(start.inf(&end), start.sup(&end));
                self.grid.range_of(&bounds).grown()
            }
            _ => CellRange::everything(),
        }
    }
}

#[cfg(test)]
mod tests;
