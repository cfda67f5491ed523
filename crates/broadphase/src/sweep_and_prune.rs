//! The broad phase's public structure: proxies, their registration in the region
//! grid, and the step that turns moves into pair events.

use crate::error::BroadPhaseError;
use crate::event::PairEvent;
use crate::hash::FastBuild;
use crate::pair_set::PairSet;
use crate::proxy::{Placement, Proxy};
use crate::region::{CellRange, RegionGrid};
use lamina_geometry::tolerance::AABB_MARGIN;
use lamina_geometry::{Aabb, Real};
use std::collections::HashMap;
use std::hash::Hash;

/// Default side of a region, in metres. Lamina is tuned for objects of 0.1 m to
/// 10 m; a region of 16 m holds the largest of them (fat box included) within
/// 2 × 2 regions, while a region of densely packed 1 m boxes still holds only a
/// few hundred, of which a query scans a thin slice.
pub const DEFAULT_REGION_SIZE: Real = 16.0;

/// The tunable numbers of a [`SweepAndPrune`].
#[derive(Clone, Copy, Debug, PartialEq)]
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

/// Incremental sweep-and-prune over fat AABBs, with a persistent pair set.
///
/// `K` is the caller's key: any `Copy + Ord + Hash` value. Keys are only hashed to
/// find their proxy; everything handed out is ordered by key, so two structures
/// given the same calls report the same events in the same order.
///
/// A pair is two proxies whose **fat** boxes (see [`SweepAndPrune::fat_aabb`])
/// overlap or touch. The set of pairs is the one reported by the events of every
/// [`SweepAndPrune::update_pairs`] so far, and [`SweepAndPrune::pairs`] lists it.
#[derive(Clone, Debug)]
pub struct SweepAndPrune<K> {
    pub(crate) settings: BroadPhaseSettings,
    pub(crate) proxies: Vec<Proxy<K>>,
    free: Vec<u32>,
    keys: HashMap<K, u32, FastBuild>,
    pub(crate) grid: RegionGrid,
    /// Proxies too large for the grid, checked directly by every query.
    pub(crate) large: Vec<u32>,
    /// Proxies inserted or moved since the last `update_pairs`.
    moved: Vec<u32>,
    pairs: PairSet<K>,
    /// Scratch: the overlaps of one moved proxy.
    found: Vec<u32>,
}

impl<K: Copy + Ord + Hash> Default for SweepAndPrune<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Copy + Ord + Hash> SweepAndPrune<K> {
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

    fn from_valid_settings(settings: BroadPhaseSettings) -> Self {
        Self {
            settings,
            proxies: Vec::new(),
            free: Vec::new(),
            keys: HashMap::default(),
            grid: RegionGrid::new(settings.region_size),
            large: Vec::new(),
            moved: Vec::new(),
            pairs: PairSet::new(),
            found: Vec::new(),
        }
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

    /// Checks a tight box and grows it by the margin.
    fn fatten(&self, tight: &Aabb) -> Result<Aabb, BroadPhaseError<K>> {
        if !tight.is_valid() {
            return Err(BroadPhaseError::InvalidAabb { mins: tight.mins, maxs: tight.maxs });
        }
        let fat = tight.loosened(self.settings.margin);
        if !fat.is_valid() {
            return Err(BroadPhaseError::FatAabbOverflow {
                mins: tight.mins,
                maxs: tight.maxs,
                margin: self.settings.margin,
            });
        }
        Ok(fat)
    }

    /// Adds a proxy for `key` around the tight box `aabb`. Its pairs are reported
    /// by the next [`SweepAndPrune::update_pairs`].
    ///
    /// Fails, changing nothing, on a non-finite or inverted box or a key already present.
    pub fn insert(&mut self, key: K, aabb: Aabb) -> Result<(), BroadPhaseError<K>> {
        let fat = self.fatten(&aabb)?;
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
                id
            }
            None => {
                self.proxies.push(Proxy {
                    key,
                    fat,
                    placement: Placement::Detached,
                    live: true,
                    queued: false,
                });
                self.pairs.reserve_slots(self.proxies.len());
                (self.proxies.len() - 1) as u32
            }
        };
        self.keys.insert(key, id);
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
        if !aabb.is_valid() {
            return Err(BroadPhaseError::InvalidAabb { mins: aabb.mins, maxs: aabb.maxs });
        }
        let id = *self.keys.get(&key).ok_or(BroadPhaseError::UnknownKey(key))?;
        if self.proxies[id as usize].fat.contains(&aabb) {
            return Ok(false);
        }
        let fat = self.fatten(&aabb)?;
        self.relocate(id, fat);
        self.queue(id);
        Ok(true)
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
        self.free.push(id);
        Ok(())
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
        self.grid.maintain();
        let mut found = std::mem::take(&mut self.found);
        for i in 0..self.moved.len() {
            let id = self.moved[i];
            let proxy = &mut self.proxies[id as usize];
            proxy.queued = false;
            if !proxy.live {
                continue;
            }
            let (fat, placement) = (proxy.fat, proxy.placement);
            found.clear();
            match placement {
                // A registered proxy already knows its regions: no cell lookups.
                Placement::Grid { range, regions, count } => {
                    for &r in &regions[..count as usize] {
                        self.grid.region(r).for_each_overlap(
                            &self.grid,
                            &fat,
                            range.is_single(),
                            Some(id),
                            |q| found.push(q),
                        );
                    }
                    self.for_each_large_overlap(&fat, Some(id), |q| found.push(q));
                }
                _ => self.for_each_overlap(&fat, Some(id), |q| found.push(q)),
            }
            self.pairs.reconcile(id, &found, &self.proxies);
        }
        self.moved.clear();
        self.found = found;
        self.pairs.drain_events(events);
    }

    /// Queues proxy `id` for the next `update_pairs`, once.
    fn queue(&mut self, id: u32) {
        let proxy = &mut self.proxies[id as usize];
        if !proxy.queued {
            proxy.queued = true;
            self.moved.push(id);
        }
    }

    /// Registers detached proxy `id` where its fat box belongs.
    fn attach(&mut self, id: u32) {
        let fat = self.proxies[id as usize].fat;
        let range = self.grid.range_of(&fat);
        let placement = if range.fits_grid() {
            let mut regions = [0u32; 4];
            let mut count = 0u8;
            for cell in range.cells() {
                let r = self.grid.get_or_create(cell);
                self.grid.add(r, id, &fat);
                regions[count as usize] = r;
                count += 1;
            }
            Placement::Grid { range, regions, count }
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
            Placement::Grid { regions, count, .. } => {
                for &r in &regions[..count as usize] {
                    self.grid.remove(r, id, &fat);
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

    /// Gives proxy `id` the fat box `fat`. When it stays in the same regions each
    /// sorted array just walks its entry to the new place; otherwise the proxy
    /// leaves its old regions and enters the new ones.
    fn relocate(&mut self, id: u32, fat: Aabb) {
        let proxy = &self.proxies[id as usize];
        let old = proxy.fat;
        if let Placement::Grid { range, regions, count } = proxy.placement {
            if range == self.grid.range_of(&fat) {
                for &r in &regions[..count as usize] {
                    self.grid.replace(r, id, &old, &fat);
                }
                self.proxies[id as usize].fat = fat;
                return;
            }
        }
        self.detach(id);
        self.proxies[id as usize].fat = fat;
        self.attach(id);
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

    /// Checks every internal rule: used by the tests after each operation.
    #[cfg(test)]
    pub(crate) fn check_invariants(&self) -> Result<(), String> {
        self.grid.check()?;
        for (id, proxy) in self.proxies.iter().enumerate() {
            let id = id as u32;
            if !proxy.live {
                if proxy.placement != Placement::Detached || !self.pairs.partners(id).is_empty() {
                    return Err(format!("free slot {id} is still registered or paired"));
                }
                continue;
            }
            if self.keys.get(&proxy.key) != Some(&id) {
                return Err(format!("proxy {id} is not found by its key"));
            }
            match proxy.placement {
                Placement::Detached => return Err(format!("live proxy {id} is detached")),
                Placement::Large { slot } => {
                    if self.large.get(slot as usize) != Some(&id) {
                        return Err(format!("large proxy {id} is not at slot {slot}"));
                    }
                    if self.grid.range_of(&proxy.fat).fits_grid() {
                        return Err(format!("proxy {id} fits the grid but is in the large list"));
                    }
                }
                Placement::Grid { range, regions, count } => {
                    if range != self.grid.range_of(&proxy.fat) {
                        return Err(format!("proxy {id} is registered in the wrong cells"));
                    }
                    if count as u64 != range.cell_count() {
                        return Err(format!("proxy {id} has {count} regions for its range"));
                    }
                    for (cell, &r) in range.cells().zip(&regions[..count as usize]) {
                        let region = self.grid.region(r);
                        if region.cell() != cell {
                            return Err(format!("proxy {id}: region {r} is not at {cell:?}"));
                        }
                        let axis = region.sap().axis();
                        let n = region.sap().entries().iter().filter(|e| e.id == id).count();
                        let entry = region.sap().entries().iter().find(|e| e.id == id);
                        if n != 1 || entry.map(|e| e.aabb(axis)) != Some(proxy.fat) {
                            return Err(format!("proxy {id}: region {r} holds {n} entries or a stale box"));
                        }
                    }
                }
            }
            for &q in self.pairs.partners(id) {
                if !self.pairs.partners(q).contains(&id) {
                    return Err(format!("pair ({id}, {q}) is not symmetric"));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lamina_geometry::Point;

    /// xorshift: a seeded stream without a dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn unit(&mut self) -> Real {
            (self.next() >> 11) as Real / (1u64 << 53) as Real
        }
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
