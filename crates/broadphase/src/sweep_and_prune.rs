//! The broad phase's public structure: proxies, their registration in the region
//! grid, and the step that turns moves into pair events.

use crate::error::BroadPhaseError;
use crate::event::PairEvent;
use crate::hash::FastBuild;
use crate::pair_set::PairSet;
use crate::proxy::{PairFilter, Placement, Proxy, ProxyHint};
use crate::region::{CellRange, RegionGrid, SweepPolicy};
use lamina_geometry::tolerance::AABB_MARGIN;
use lamina_geometry::{Aabb, Real};
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::Hash;

/// Default side of a region, in metres. Lamina is tuned for objects of 0.1 m to
/// 10 m; a region of 16 m holds the largest of them (fat box included) within
/// 2 × 2 regions, while a region of densely packed 1 m boxes still holds only a
/// few hundred, of which a query scans a thin slice.
pub const DEFAULT_REGION_SIZE: Real = 16.0;

/// The tunable numbers of a [`SweepAndPrune`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BroadPhaseSettings {
    /// How far, in metres, a fat box extends beyond the tight box on every side.
    /// A body that moves less than this since its proxy last moved costs nothing.
    /// Larger margins mean fewer proxy moves but more pairs for the narrow phase.
    pub margin: Real,
    /// Side of a grid region, in metres. Proxies bigger than about one region skip
    /// the grid and are checked against every query directly, so pick a size above
    /// that of all but a few objects (the ground, walls).
    pub region_size: Real,
}

impl Default for BroadPhaseSettings {
    fn default() -> Self {
        Self { margin: AABB_MARGIN, region_size: DEFAULT_REGION_SIZE }
    }
}

/// How many times the margin a proxy gets whose filter accepts some
/// categories but none of those present (the links of a chain or a grid that
/// never collide with each other): it makes no pair, so its box costs nothing
/// to grow, and a larger box is left less often. Queries read such proxies
/// with a few more candidates. The larger margin stops where the box would
/// grow past a quarter of a region on a side (never below the plain margin):
/// a box that long leaves the grid for the list of large proxies, which every
/// query and every moved proxy reads. A proxy that accepts no category at all
/// (an index kept only for queries) keeps the plain margin: there, only
/// queries read the boxes.
pub const LONELY_MARGIN_SCALE: Real = 25.0;

/// The margin of a proxy that can pair with nothing present, around the
/// tight box `tight`: [`LONELY_MARGIN_SCALE`] times the plain margin, but
/// no more than leaves the fat box's longer side nine tenths of the way to
/// `limit` (the longest side the grid keeps), and never less than the plain
/// margin.
fn lonely_margin(plain: Real, tight: &Aabb, limit: Real) -> Real {
    let side = (tight.maxs.x - tight.mins.x).max(tight.maxs.y - tight.mins.y);
    (plain * LONELY_MARGIN_SCALE).min(0.45 * (limit - side)).max(plain)
}

/// Entries of a swept region per search (see [`plan_searches`]):
/// a few tens of microseconds of work, long enough to be worth a task.
const SWEEP_RUN: usize = 256;

/// Movers per search of their own regions.
const MOVER_RUN: usize = 128;

/// `update_pairs` runs its searches side by side on the rayon pool when there
/// are at least this many; fewer are not worth the tasks.
const PARALLEL_SEARCHES: usize = 4;

/// Movers per task when `update_pairs` tells, side by side, which movers' pairs
/// stay as they are; below two tasks' worth one thread tells them all.
const UNCHANGED_RUN: usize = 512;

/// Decides which of the `active` regions are swept whole (by `policy`), and
/// lists the searches for the overlaps of `movers` movers in the order they
/// are reported: each swept region's sorted array in runs of [`SWEEP_RUN`]
/// entries, regions in the order a mover first touched them, then the movers'
/// own searches of the other regions, [`MOVER_RUN`] movers at a time.
fn plan_searches(
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

/// One search for movers' overlaps: a run of a swept region's entries, or a
/// run of movers searching the regions that are not swept.
#[derive(Clone, Debug)]
enum Search {
    Sweep { region: u32, starts: std::ops::Range<usize> },
    Movers(std::ops::Range<usize>),
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
    /// Scratch of `update_pairs`, kept to avoid allocating. The live moved proxies
    /// in increasing id order.
    #[cfg_attr(feature = "serde", serde(skip))]
    movers: Vec<u32>,
    /// Per proxy id: its index in `movers` (meaningful only for movers).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) mover_index: Vec<u32>,
    /// The regions holding at least one mover.
    #[cfg_attr(feature = "serde", serde(skip))]
    active: Vec<u32>,
    /// `(index in movers, other proxy)` for every overlap found.
    #[cfg_attr(feature = "serde", serde(skip))]
    hits: Vec<(u32, u32)>,
    /// The searches of one `update_pairs`, in the order their overlaps are listed.
    #[cfg_attr(feature = "serde", serde(skip))]
    searches: Vec<Search>,
    /// Per search, its overlaps, when the searches run side by side.
    #[cfg_attr(feature = "serde", serde(skip))]
    search_hits: Vec<Vec<(u32, u32)>>,
    /// The overlaps grouped by mover: mover `i`'s are `found[ends[i - 1]..ends[i]]`.
    #[cfg_attr(feature = "serde", serde(skip))]
    found: Vec<u32>,
    #[cfg_attr(feature = "serde", serde(skip))]
    ends: Vec<u32>,
    /// Per mover: true when the overlaps found are exactly its partners now,
    /// so that reconciling it would change nothing.
    #[cfg_attr(feature = "serde", serde(skip))]
    unchanged: Vec<bool>,
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
    pub(crate) planned: Vec<crate::refit_batch::PlannedRefit>,
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
            sweeps_along_y: region.sap().axis() == crate::sap::Axis::Y,
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
            movers: Vec::new(),
            mover_index: Vec::new(),
            active: Vec::new(),
            hits: Vec::new(),
            searches: Vec::new(),
            search_hits: Vec::new(),
            found: Vec::new(),
            ends: Vec::new(),
            unchanged: Vec::new(),
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
                self.mover_index.resize(slots, 0);
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
        self.collect_movers();
        self.find_overlaps();
        self.group_overlaps();
        self.tell_unchanged();
        let mut start = 0;
        for ((&id, &end), &unchanged) in self.movers.iter().zip(&self.ends).zip(&self.unchanged) {
            if !unchanged {
                self.pairs.reconcile(id, &self.found[start..end as usize], &self.proxies);
            }
            start = end as usize;
        }
        // Every bit still set is a mover's: clear its whole word.
        for &id in &self.movers {
            self.queued[id as usize / 64] = 0;
        }
        self.pairs.drain_events(events);
    }

    /// Fills `movers` with the live proxies queued since the last `update_pairs`,
    /// in increasing id order, and numbers them in `mover_index`. Proxies are
    /// processed in memory order, so their records, partner lists and regions are
    /// visited front to back rather than at random. The bits of removed proxies are
    /// cleared here; those of movers stay set, for the sweeps, until the end.
    fn collect_movers(&mut self) {
        self.movers.clear();
        if self.moved.len() * 8 >= self.queued.len() {
            // Dense enough to read the bit set, which is in order already.
            for (w, &bits) in self.queued.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let id = (w * 64) as u32 + bits.trailing_zeros();
                    bits &= bits - 1;
                    if self.proxies[id as usize].live {
                        self.movers.push(id);
                    }
                }
            }
        } else {
            self.moved.sort_unstable();
            self.movers.extend(self.moved.iter().copied().filter(|&id| self.proxies[id as usize].live));
        }
        for &id in &self.moved {
            if !self.proxies[id as usize].live {
                self.queued[id as usize / 64] &= !(1 << (id % 64));
            }
        }
        self.moved.clear();
        for (i, &id) in self.movers.iter().enumerate() {
            self.mover_index[id as usize] = i as u32;
        }
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
        let mut hits = std::mem::take(&mut self.hits);
        hits.clear();
        self.active.clear();
        let proxies = ProxyView(&self.proxies);
        // With every filter universal, every overlap pairs and no proxy is
        // lonely (each mask meets every category).
        let filtered = self.filtered != 0;
        let accepts = |a: u32, b: u32| !filtered || proxies.filter(a).accepts(proxies.filter(b));
        let categories = self.categories;
        let lonely = |id: u32| filtered && proxies.filter(id).mask & categories == 0;
        for (i, &id) in self.movers.iter().enumerate() {
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
                            self.active.push(r);
                        }
                    }
                    self.for_each_large_overlap(&fat, Some(id), hit);
                }
                _ => self.for_each_overlap(&fat, Some(id), &mut hit),
            }
        }
        plan_searches(&mut self.grid, &self.active, self.sweep_policy, self.movers.len(), &mut self.searches);
        let (queued, mover_index, grid) = (&self.queued, &self.mover_index, &self.grid);
        let movers = &self.movers;
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
        let searches = &self.searches;
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
            if self.search_hits.len() < searches.len() {
                self.search_hits.resize_with(searches.len(), Vec::new);
            }
            searches.par_iter().zip(self.search_hits.par_iter_mut()).with_max_len(1).for_each(|(s, out)| {
                out.clear();
                search(s, out);
            });
            for out in &self.search_hits[..searches.len()] {
                hits.extend_from_slice(out);
            }
        }
        for &r in &self.active {
            self.grid.clear_movers(r);
        }
        self.hits = hits;
    }

    /// Groups `hits` by mover (a counting sort): mover `i`'s overlaps become
    /// `found[ends[i - 1]..ends[i]]`.
    fn group_overlaps(&mut self) {
        let ends = &mut self.ends;
        ends.clear();
        ends.resize(self.movers.len(), 0);
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

    /// Tells which movers found exactly the partners they have, in parallel
    /// when there are enough of them: reconciling those would change nothing.
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
    fn tell_unchanged(&mut self) {
        let (lists, found, ends, movers) = (self.pairs.lists(), &self.found, &self.ends, &self.movers);
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
        if !self.shares(movers.len(), 2 * UNCHANGED_RUN) {
            tell(0, &mut self.unchanged);
        } else {
            self.unchanged
                .par_chunks_mut(UNCHANGED_RUN)
                .enumerate()
                .for_each(|(chunk, out)| tell(chunk * UNCHANGED_RUN, out));
        }
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
    /// touches, then enters the new ones, in the order of the cells.
    fn cross_borders(&mut self, id: u32, fat: Aabb, to: CellRange) {
        let proxy = &self.proxies[id as usize];
        let old = proxy.fat;
        let Placement::Grid { range, regions, mut hints, count } = proxy.placement else {
            // Not in the grid after all (`relocate` checks): placed afresh.
            return self.replace_whole(id, fat);
        };
        for ((cell, &r), hint) in range.cells().zip(&regions[..count as usize]).zip(&mut hints) {
            if to.contains(cell) {
                *hint = self.grid.replace(r, id, &old, &fat, *hint);
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

    /// Checks every internal rule without trusting any index: used by the
    /// tests after each operation, and on a structure read back from serde
    /// (`stored.rs`). Each live proxy is registered where its fat box says,
    /// once in each of its regions with that box, each region entry belongs
    /// to a proxy registered there, and the lists, counts and pairs agree.
    #[cfg(any(test, feature = "serde"))]
    pub(crate) fn check_invariants(&self) -> Result<(), String> {
        self.grid.check()?;
        self.pairs.check(&self.proxies)?;
        let n = self.proxies.len();
        if self.mover_index.len() != n || self.queued.len() != n.div_ceil(64) {
            return Err(format!("the per-proxy lists are not sized for {n} proxies"));
        }
        let mut listed = vec![false; n];
        for &id in &self.free {
            match self.proxies.get(id as usize) {
                Some(p) if !p.live && !std::mem::replace(&mut listed[id as usize], true) => {}
                _ => return Err(format!("free slot {id} is live, listed twice or missing")),
            }
        }
        if let Some(id) = self.moved.iter().find(|&&id| id as usize >= n) {
            return Err(format!("moved proxy {id} is missing"));
        }
        // Between two `update_pairs`, the queued bits are exactly the moved
        // proxies' (a removed proxy keeps both until the next one): a bit
        // past the last proxy would be read as a proxy that is not there.
        let mut expected = vec![0u64; self.queued.len()];
        for &id in &self.moved {
            let (word, bit) = (&mut expected[id as usize / 64], 1u64 << (id % 64));
            if *word & bit != 0 {
                return Err(format!("proxy {id} is listed as moved twice"));
            }
            *word |= bit;
        }
        if expected != self.queued {
            return Err("the queued bits are not the moved proxies".into());
        }
        for (slot, &id) in self.large.iter().enumerate() {
            let placed = self.proxies.get(id as usize).map(|p| (p.live, p.placement));
            if placed != Some((true, Placement::Large { slot: slot as u32 })) {
                return Err(format!("large slot {slot} holds proxy {id}, which is not there"));
            }
        }
        // Bit k of a proxy's mask: its entry in the k-th of its regions was seen.
        let mut seen = vec![0u8; n];
        for (r, region) in self.grid.live_regions() {
            let axis = region.sap().axis();
            for e in region.sap().entries() {
                let proxy = self.proxies.get(e.id as usize).filter(|p| p.live);
                let k = match proxy.map(|p| p.placement) {
                    Some(Placement::Grid { regions, count, .. }) => {
                        regions[..usize::from(count.min(4))].iter().position(|&x| x == r)
                    }
                    _ => None,
                };
                let (Some(proxy), Some(k)) = (proxy, k) else {
                    return Err(format!("region {r} holds proxy {}, which is not registered there", e.id));
                };
                let mask = &mut seen[e.id as usize];
                if *mask & (1 << k) != 0 || e.aabb(axis) != proxy.fat {
                    return Err(format!("proxy {}: region {r} holds two entries or a stale box", e.id));
                }
                *mask |= 1 << k;
            }
        }
        let mut categories = [0u32; 32];
        let mut live = 0;
        for (id, proxy) in self.proxies.iter().enumerate() {
            if !proxy.live {
                if proxy.placement != Placement::Detached {
                    return Err(format!("free slot {id} is still registered"));
                }
                continue;
            }
            live += 1;
            if !proxy.fat.is_valid() {
                return Err(format!("proxy {id} has an invalid box"));
            }
            if self.keys.get(&proxy.key) != Some(&(id as u32)) {
                return Err(format!("proxy {id} is not found by its key"));
            }
            for (b, count) in categories.iter_mut().enumerate() {
                *count += (proxy.filter.category >> b) & 1;
            }
            match proxy.placement {
                Placement::Detached => return Err(format!("live proxy {id} is detached")),
                Placement::Large { .. } => {
                    if self.grid.grid_range(&proxy.fat).is_some() {
                        return Err(format!("proxy {id} fits the grid but is in the large list"));
                    }
                }
                Placement::Grid { range, regions, count, .. } => {
                    if Some(range) != self.grid.grid_range(&proxy.fat) {
                        return Err(format!("proxy {id} is registered in the wrong cells"));
                    }
                    if count > 4 || u64::from(count) != range.cell_count() || seen[id] != (1 << count) - 1 {
                        return Err(format!("proxy {id} is missing from some of its {count} regions"));
                    }
                    for (cell, &r) in range.cells().zip(&regions) {
                        if self.grid.region(r).cell() != cell {
                            return Err(format!("proxy {id}: region {r} is not at {cell:?}"));
                        }
                    }
                }
            }
        }
        if self.keys.len() != live {
            return Err(format!("{} keys for {live} live proxies", self.keys.len()));
        }
        let bits = categories.iter().enumerate().fold(0u32, |bits, (b, &c)| bits | u32::from(c > 0) << b);
        if categories != self.category_counts || bits != self.categories {
            return Err("the category counts do not match the proxies".into());
        }
        if self.filtered != self.count_filtered() {
            return Err(format!(
                "{} filtered proxies counted, {} found",
                self.filtered,
                self.count_filtered()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lamina_geometry::{Point, Vec2};

    use crate::test_rng::Rng;

    /// Filters are read only while some proxy's filter is not universal: a
    /// world of universal filters pairs every overlap, one filter that
    /// refuses a category is obeyed from the moment it is inserted, and
    /// once it is removed the count is back to none.
    #[test]
    fn filters_are_obeyed_from_the_first_one_that_refuses_something() {
        let mut sap = SweepAndPrune::<u32>::new();
        let at = |x: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + 1.0, 1.0));
        let plain = PairFilter { category: 1, mask: u32::MAX };
        sap.insert_filtered(1, at(0.0), plain).unwrap();
        sap.insert_filtered(2, at(0.5), PairFilter { category: 4, mask: u32::MAX }).unwrap();
        assert_eq!(sap.filtered, 0);
        let mut events = Vec::new();
        sap.update_pairs(&mut events);
        assert_eq!(sap.pairs().collect::<Vec<_>>(), [(1, 2)]);
        // Category 2 refuses category 1, and proxy 1 accepts everything:
        // 3 pairs with 2 (category 4) only, though it overlaps both.
        sap.insert_filtered(3, at(0.25), PairFilter { category: 2, mask: !1 }).unwrap();
        assert_eq!(sap.filtered, 1);
        sap.update_pairs(&mut events);
        assert_eq!(sap.pairs().collect::<Vec<_>>(), [(1, 2), (2, 3)]);
        // Moving 1 searches its overlaps again; the filter still holds.
        sap.update(1, at(0.2)).unwrap();
        sap.update_pairs(&mut events);
        assert_eq!(sap.pairs().collect::<Vec<_>>(), [(1, 2), (2, 3)]);
        sap.remove(3).unwrap();
        assert_eq!(sap.filtered, 0);
        sap.check_invariants().unwrap();
        // A proxy of no category pairs with nothing, though its mask is full.
        sap.insert_filtered(4, at(0.3), PairFilter { category: 0, mask: u32::MAX }).unwrap();
        assert_eq!(sap.filtered, 1);
        sap.update_pairs(&mut events);
        assert_eq!(sap.pairs().collect::<Vec<_>>(), [(1, 2)]);
        sap.check_invariants().unwrap();
    }

    /// The larger margin stops short of making a box too long for the grid:
    /// with the default settings (0.1 m, regions of 16 m, so boxes up to 4 m
    /// a side) a 1 m link would have grown by 2.5 m a side, to 6 m, and gone
    /// to the large list every query reads. It grows by 0.45 × (4 − 1) =
    /// 1.35 m instead; a link 3.5 m long by 0.45 × 0.5 = 0.225 m, and one
    /// 3.79 m long by the plain margin (0.45 × 0.21 is less), which keeps
    /// it in the grid too.
    #[test]
    fn the_larger_margin_keeps_boxes_in_the_grid() {
        let mut sap = SweepAndPrune::<u32>::new();
        let link = PairFilter { category: 2, mask: !2 };
        let long = |x: Real, length: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + length, 0.5));
        for (key, x, length, margin) in [(1, 0.0, 1.0, 1.35), (2, 5.0, 3.5, 0.225), (3, 20.0, 3.79, 0.1)] {
            sap.insert_filtered(key, long(x, length), link).unwrap();
            let fat = sap.fat_aabb(key).unwrap();
            assert!((fat.maxs.x - fat.mins.x - (length + 2.0 * margin)).abs() < 1e-4, "{key}: {fat:?}");
        }
        assert!(sap.large.is_empty(), "links in the large list: {:?}", sap.large);
        sap.check_invariants().unwrap();
    }

    /// A proxy whose filter accepts none of the categories present gets the
    /// larger margin, and makes no pair; once a category it accepts is
    /// present, its next refit gives it the plain margin, and it pairs by
    /// its fat box as every proxy does.
    #[test]
    fn proxies_that_pair_with_nothing_get_the_larger_margin() {
        let margin = 0.1;
        // Regions large enough that the larger margin is not capped.
        let settings = BroadPhaseSettings { margin, region_size: 64.0 };
        let mut sap = SweepAndPrune::<u32>::with_settings(settings).unwrap();
        let link = PairFilter { category: 2, mask: !2 };
        let at = |x: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + 1.0, 1.0));
        let width = |sap: &SweepAndPrune<u32>, k: u32| {
            let fat = sap.fat_aabb(k).unwrap();
            fat.maxs.x - fat.mins.x
        };
        sap.insert_filtered(1, at(0.0), link).unwrap();
        sap.insert_filtered(2, at(1.5), link).unwrap();
        // A proxy that accepts no category at all is kept for queries alone:
        // the plain margin.
        sap.insert_filtered(9, at(20.0), PairFilter { category: 1, mask: 0 }).unwrap();
        assert!((width(&sap, 9) - (1.0 + 2.0 * margin)).abs() < 1e-4);
        let lonely = 1.0 + 2.0 * margin * LONELY_MARGIN_SCALE;
        assert!((width(&sap, 1) - lonely).abs() < 1e-4 && (width(&sap, 2) - lonely).abs() < 1e-4);
        let mut events = Vec::new();
        sap.update_pairs(&mut events);
        assert!(events.is_empty(), "links never pair with each other, however large their boxes");
        // A ground the links collide with: it gets the plain margin, and so
        // does a link moved out of its box.
        sap.insert(3, Aabb::new(Point::new(-10.0, -2.0), Point::new(10.0, -1.0))).unwrap();
        assert!((width(&sap, 3) - (20.0 + 2.0 * margin)).abs() < 1e-4);
        sap.update(1, at(-5.0)).unwrap();
        assert!((width(&sap, 1) - (1.0 + 2.0 * margin)).abs() < 1e-4);
        sap.update_pairs(&mut events);
        let pairs: Vec<(u32, u32)> = sap.pairs().collect();
        // Link 2 still has its large box (down to y = -2.5): it reaches the ground.
        assert_eq!(pairs, vec![(2, 3)]);
    }

    /// One random scene driven identically through three structures: one that
    /// sweeps every region holding a moved proxy, one that never sweeps, and the
    /// default. Each step moves `percent` % of the proxies (some far, some across
    /// region borders, some into the large list), inserts and removes a few; the
    /// three must report identical events, in identical order, every step.
    fn sweeps_and_searches_agree(seed: u64, percent: u64) {
        let settings = BroadPhaseSettings { margin: 0.1, region_size: 4.0 };
        let new = |policy| {
            let mut sap = SweepAndPrune::<u32>::with_settings(settings).expect("valid settings");
            sap.sweep_policy = policy;
            sap
        };
        let mut saps = [new(SweepPolicy::Always), new(SweepPolicy::Never), new(SweepPolicy::Auto)];
        let mut rng = Rng(seed);
        let random_box = |rng: &mut Rng| {
            let (x, y) = (rng.unit() * 60.0 - 30.0, rng.unit() * 30.0 - 15.0);
            let size = if rng.unit() < 0.02 { 10.0 } else { 0.2 + rng.unit() * 2.0 };
            Aabb::new(Point::new(x, y), Point::new(x + size, y + size * 0.7))
        };
        let mut boxes: Vec<(u32, Aabb)> = (0..600).map(|k| (k, random_box(&mut rng))).collect();
        let mut next_key = boxes.len() as u32;
        for sap in &mut saps {
            for &(k, b) in &boxes {
                sap.insert(k, b).expect("fresh key, valid box");
            }
        }
        let mut events: [Vec<PairEvent<u32>>; 3] = Default::default();
        let (mut total_events, mut total_moves) = (0, 0);
        for step in 0..60 {
            for (k, b) in boxes.iter_mut() {
                if rng.next() % 100 >= percent {
                    continue;
                }
                *b = if rng.unit() < 0.02 {
                    random_box(&mut rng)
                } else {
                    let (dx, dy) = (rng.unit() * 0.8 - 0.4, rng.unit() * 0.8 - 0.4);
                    Aabb::new(b.mins + Vec2::new(dx, dy), b.maxs + Vec2::new(dx, dy))
                };
                let moved: Vec<bool> = saps.iter_mut().map(|s| s.update(*k, *b).expect("live key")).collect();
                assert!(moved.iter().all(|&m| m == moved[0]));
                total_moves += usize::from(moved[0]);
            }
            for _ in 0..rng.next() % 4 {
                let (k, _) = boxes.swap_remove((rng.next() % boxes.len() as u64) as usize);
                saps.iter_mut().for_each(|s| s.remove(k).expect("live key"));
            }
            for _ in 0..rng.next() % 4 {
                let b = random_box(&mut rng);
                saps.iter_mut().for_each(|s| s.insert(next_key, b).expect("fresh key"));
                boxes.push((next_key, b));
                next_key += 1;
            }
            for (sap, events) in saps.iter_mut().zip(&mut events) {
                sap.update_pairs(events);
                sap.check_invariants().unwrap_or_else(|e| panic!("step {step}: {e}"));
            }
            assert_eq!(events[0], events[1], "step {step}: sweeping and searching differ");
            assert_eq!(events[0], events[2], "step {step}: the default differs");
            total_events += events[0].len();
        }
        assert!(total_moves > 60 * 600 * percent as usize / 300, "the scene must move ({total_moves} moves)");
        assert!(total_events > 100, "the scene must change its pairs ({total_events} events)");
    }

    #[test]
    fn sweeps_and_searches_agree_with_30_percent_moving() {
        sweeps_and_searches_agree(0x0bad_cafe_0030, 30);
    }

    #[test]
    fn sweeps_and_searches_agree_with_60_percent_moving() {
        sweeps_and_searches_agree(0x0bad_cafe_0060, 60);
    }

    #[test]
    fn sweeps_and_searches_agree_with_every_proxy_moving() {
        sweeps_and_searches_agree(0x0bad_cafe_0100, 100);
    }

    /// A hint spares the key lookup and nothing else: right, stale (its
    /// proxy removed and the slot given to another key), absent or out of
    /// range, refitting with it moves the same proxy to the same place as
    /// refitting by key, and the hint returned is the right one.
    #[test]
    fn wrong_hints_refit_as_the_key_does() {
        let at = |x: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + 1.0, 1.0));
        let (mut hinted, mut keyed) = (SweepAndPrune::<u32>::new(), SweepAndPrune::<u32>::new());
        for sap in [&mut hinted, &mut keyed] {
            for k in 0..4 {
                sap.insert(k, at(2.0 * k as Real)).expect("fresh key");
            }
        }
        let stale = hinted.hint(1).expect("live key");
        for sap in [&mut hinted, &mut keyed] {
            sap.remove(1).expect("live key");
            sap.insert(7, at(2.0)).expect("fresh key"); // takes key 1's slot
        }
        assert_eq!(hinted.hint(7), Some(stale), "the freed slot is reused");
        let right = hinted.hint(3).expect("live key");
        let mut events = (Vec::new(), Vec::new());
        let cases = [
            (3, right, 5.5),
            (3, stale, 6.5),
            (0, stale, 1.5),
            (2, ProxyHint::NONE, 3.5),
            (7, ProxyHint(99), 0.5),
        ];
        for (key, hint, x) in cases {
            let (moved, kept) = hinted.refit_hinted(key, hint, at(x)).expect("live key");
            assert_eq!(moved, keyed.refit(key, at(x)).expect("live key"), "key {key}");
            assert_eq!(Some(kept), hinted.hint(key), "key {key}");
            hinted.update_pairs(&mut events.0);
            keyed.update_pairs(&mut events.1);
            assert_eq!(events.0, events.1, "key {key}");
            hinted.check_invariants().unwrap_or_else(|e| panic!("after key {key}: {e}"));
        }
        assert!(hinted.refit_hinted(1, stale, at(0.0)).is_err(), "a removed key is unknown, hint or not");
    }

    #[test]
    fn partner_lists_spill_and_come_back() {
        // Thirty boxes on one spot: each has 29 partners, more than a slot holds in
        // place and more than the direct comparison handles. Then they spread out
        // one by one until every list is short again.
        let mut sap = SweepAndPrune::<u32>::new();
        let at = |x: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + 1.0, 1.0));
        for k in 0..30 {
            sap.insert(k, at(0.0)).expect("fresh key");
        }
        let mut events = Vec::new();
        sap.update_pairs(&mut events);
        assert_eq!(events.len(), 30 * 29 / 2);
        for k in 0..30 {
            sap.update(k, at(k as Real * 0.5)).expect("live key");
            sap.update_pairs(&mut events);
            sap.check_invariants().unwrap_or_else(|e| panic!("after moving {k}: {e}"));
        }
        // Fat boxes 1.2 m wide, 0.5 m apart: each overlaps its next two neighbours.
        let expected: Vec<(u32, u32)> =
            (0..30u32).flat_map(|a| (a + 1..30).filter(move |&b| b - a <= 2).map(move |b| (a, b))).collect();
        assert_eq!(sap.pairs().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn internal_rules_hold_through_random_operations() {
        let settings = BroadPhaseSettings { margin: 0.1, region_size: 4.0 };
        let mut sap = SweepAndPrune::<u32>::with_settings(settings).expect("valid settings");
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut events = Vec::new();
        let mut alive: Vec<u32> = Vec::new();
        let mut next_key = 0u32;
        for step in 0..300 {
            for _ in 0..20 {
                let roll = rng.unit();
                let (x, y) = (rng.unit() * 40.0 - 20.0, rng.unit() * 40.0 - 20.0);
                let size = if rng.unit() < 0.05 { 12.0 } else { rng.unit() * 3.0 };
                let b = Aabb::new(Point::new(x, y), Point::new(x + size, y + size * 0.5));
                if roll < 0.2 || alive.is_empty() {
                    sap.insert(next_key, b).expect("fresh key, valid box");
                    alive.push(next_key);
                    next_key += 1;
                } else if roll < 0.3 {
                    let k = alive.swap_remove((rng.next() % alive.len() as u64) as usize);
                    sap.remove(k).expect("live key");
                } else {
                    let k = alive[(rng.next() % alive.len() as u64) as usize];
                    sap.update(k, b).expect("live key, valid box");
                }
                sap.check_invariants().unwrap_or_else(|e| panic!("step {step}: {e}"));
            }
            sap.update_pairs(&mut events);
            sap.check_invariants().unwrap_or_else(|e| panic!("step {step} after update_pairs: {e}"));
        }
    }
}
