//! Shared pieces of the broad-phase tests: a seeded generator, the O(n²) oracle,
//! and a model of the fat boxes that is independent of the structure under test.

#![allow(dead_code)]

use lamina_broadphase::{BroadPhaseSettings, LONELY_MARGIN_SCALE, PairEvent, PairFilter, SweepAndPrune};
use lamina_geometry::{Aabb, Point, Real};
use std::collections::{BTreeMap, BTreeSet};

/// xorshift64: a seeded stream, so every test replays the same scene.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> Real {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) as Real
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

pub fn aabb(x0: Real, y0: Real, x1: Real, y1: Real) -> Aabb {
    Aabb::new(Point::new(x0, y0), Point::new(x1, y1))
}

/// The broad phase's contract, kept independently: for every key, the fat box it
/// must have. `update` must move the proxy exactly when the tight box leaves this
/// box, and the new fat box is the tight box grown by the margin, or by
/// `LONELY_MARGIN_SCALE` times it where the proxy's filter accepts some
/// categories but none of those present (its own counted), as far as keeps
/// the box's longer side within nine tenths of the way to a quarter region.
pub struct Model {
    pub margin: Real,
    pub region_size: Real,
    pub fat: BTreeMap<u32, Aabb>,
    /// Filters of proxies inserted with one (the others accept everything).
    pub filters: BTreeMap<u32, PairFilter>,
    /// The pair set rebuilt from the events alone.
    pub replayed: BTreeSet<(u32, u32)>,
}

impl Model {
    pub fn new(settings: BroadPhaseSettings) -> Self {
        Self {
            margin: settings.margin,
            region_size: settings.region_size,
            fat: BTreeMap::new(),
            filters: BTreeMap::new(),
            replayed: BTreeSet::new(),
        }
    }

    pub fn insert(&mut self, sap: &mut SweepAndPrune<u32>, key: u32, tight: Aabb) {
        sap.insert(key, tight).expect("insert of a fresh key with a valid box");
        let fat = tight.loosened(self.margin_for(PairFilter::ALL, PairFilter::ALL.category, &tight));
        self.fat.insert(key, fat);
    }

    /// The categories of the proxies the model holds.
    fn present(&self) -> u32 {
        self.fat
            .keys()
            .map(|k| self.filters.get(k).map_or(PairFilter::ALL.category, |f| f.category))
            .fold(0, |a, c| a | c)
    }

    /// The margin of a proxy of filter `filter` and tight box `tight` where
    /// the categories `present` are present.
    fn margin_for(&self, filter: PairFilter, present: u32, tight: &Aabb) -> Real {
        if filter.mask != 0 && filter.mask & present == 0 {
            let longer = (tight.maxs.x - tight.mins.x).max(tight.maxs.y - tight.mins.y);
            let room = 0.45 * (0.25 * self.region_size - longer);
            (self.margin * LONELY_MARGIN_SCALE).min(room).max(self.margin)
        } else {
            self.margin
        }
    }

    pub fn insert_filtered(
        &mut self,
        sap: &mut SweepAndPrune<u32>,
        key: u32,
        tight: Aabb,
        filter: PairFilter,
    ) {
        sap.insert_filtered(key, tight, filter).expect("insert of a fresh key with a valid box");
        let margin = self.margin_for(filter, self.present() | filter.category, &tight);
        self.fat.insert(key, tight.loosened(margin));
        self.filters.insert(key, filter);
    }

    pub fn update(&mut self, sap: &mut SweepAndPrune<u32>, key: u32, tight: Aabb) {
        let moved = sap.update(key, tight).expect("update of a live key with a valid box");
        let fat = self.fat.get(&key).expect("model knows the key");
        assert_eq!(moved, !fat.contains(&tight), "update of {key} reported moved = {moved}");
        if moved {
            let filter = self.filters.get(&key).copied().unwrap_or(PairFilter::ALL);
            let margin = self.margin_for(filter, self.present(), &tight);
            *self.fat.get_mut(&key).expect("model knows the key") = tight.loosened(margin);
        }
    }

    pub fn remove(&mut self, sap: &mut SweepAndPrune<u32>, key: u32) {
        sap.remove(key).expect("remove of a live key");
        self.fat.remove(&key);
        self.filters.remove(&key);
    }

    /// Runs `update_pairs`, checks the events' form, replays them, and checks the
    /// result against the brute-force pairs of the model's fat boxes.
    pub fn step_and_check(&mut self, sap: &mut SweepAndPrune<u32>, events: &mut Vec<PairEvent<u32>>) {
        sap.update_pairs(events);
        check_event_order(events);
        for e in events.iter() {
            match *e {
                PairEvent::End(a, b) => {
                    assert!(self.replayed.remove(&(a, b)), "End({a}, {b}) of an absent pair")
                }
                PairEvent::Begin(a, b) => {
                    assert!(self.replayed.insert((a, b)), "Begin({a}, {b}) of a present pair")
                }
            }
        }
        for (&k, fat) in &self.fat {
            assert_eq!(sap.fat_aabb(k), Some(*fat), "fat box of {k}");
        }
        let filter = |k: &u32| self.filters.get(k).copied().unwrap_or(PairFilter::ALL);
        let expected: Vec<(u32, u32)> =
            brute_force_pairs(&self.fat).into_iter().filter(|(a, b)| filter(a).accepts(&filter(b))).collect();
        let replayed: Vec<(u32, u32)> = self.replayed.iter().copied().collect();
        if replayed != expected {
            let got: BTreeSet<_> = replayed.iter().copied().collect();
            let want: BTreeSet<_> = expected.iter().copied().collect();
            let missing: Vec<_> = want.difference(&got).take(5).collect();
            let extra: Vec<_> = got.difference(&want).take(5).collect();
            panic!(
                "pairs differ from brute force: {} replayed, {} expected; missing {missing:?}, extra {extra:?}",
                replayed.len(),
                expected.len()
            );
        }
        assert_eq!(sap.pair_count(), expected.len());
        assert_eq!(sap.len(), self.fat.len());
    }
}

/// Every pair of keys whose boxes overlap or touch, `(a, b)` with `a < b`, sorted.
pub fn brute_force_pairs(boxes: &BTreeMap<u32, Aabb>) -> Vec<(u32, u32)> {
    let list: Vec<(u32, Aabb)> = boxes.iter().map(|(&k, &b)| (k, b)).collect();
    let mut pairs = Vec::new();
    for i in 0..list.len() {
        let (ka, a) = list[i];
        for &(kb, b) in &list[i + 1..] {
            if a.mins.x <= b.maxs.x && b.mins.x <= a.maxs.x && a.mins.y <= b.maxs.y && b.mins.y <= a.maxs.y {
                pairs.push((ka, kb));
            }
        }
    }
    pairs
}

/// Ends first, then Begins; each group strictly increasing; `a < b` in each event.
pub fn check_event_order<K: Ord + Copy + std::fmt::Debug>(events: &[PairEvent<K>]) {
    let split = events.iter().position(|e| e.is_begin()).unwrap_or(events.len());
    assert!(events[split..].iter().all(|e| e.is_begin()), "an End after a Begin: {events:?}");
    for group in [&events[..split], &events[split..]] {
        for e in group {
            let (a, b) = e.keys();
            assert!(a < b, "event {e:?} is not ordered");
        }
        for w in group.windows(2) {
            assert!(w[0].keys() < w[1].keys(), "events not strictly sorted: {:?} then {:?}", w[0], w[1]);
        }
    }
}
