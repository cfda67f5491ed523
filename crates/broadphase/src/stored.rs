//! A [`SweepAndPrune`] read back from serde: what was written, with what is
//! derived from it put back, and checked whole before it is handed out.
//!
//! The structure is written as it is, so that a copy read back answers every
//! call as the original would, in the same order: its regions, sorted arrays,
//! sweep axes and pair lists are its history. What follows from the rest is
//! left out: the boxes of the sorted arrays' entries (each is its proxy's fat
//! box), the index of proxies by key, and scratch. Reading puts them back and
//! then checks every rule the structure relies on, without trusting any index
//! ([`SweepAndPrune::check_invariants`]): bytes that decode but do not make a
//! consistent structure are refused, rather than left to panic in a later call.

use std::hash::Hash;

use crate::pair_set::PairSet;
use crate::proxy::Proxy;
use crate::region::RegionGrid;
use crate::settings::BroadPhaseSettings;
use crate::sweep_and_prune::SweepAndPrune;

/// The fields [`SweepAndPrune`] writes, in its order.
#[derive(serde::Deserialize)]
#[serde(bound(deserialize = "K: serde::Deserialize<'de>"))]
pub(crate) struct Stored<K> {
    settings: BroadPhaseSettings,
    proxies: Vec<Proxy<K>>,
    free: Vec<u32>,
    grid: RegionGrid,
    large: Vec<u32>,
    moved: Vec<u32>,
    queued: Vec<u64>,
    pairs: PairSet<K>,
    category_counts: [u32; 32],
    categories: u32,
}

impl<K: Copy + Ord + Hash> TryFrom<Stored<K>> for SweepAndPrune<K> {
    type Error = String;

    fn try_from(stored: Stored<K>) -> Result<Self, String> {
        let settings = stored.settings;
        if SweepAndPrune::<K>::with_settings(settings).is_err() {
            return Err("the broad phase's settings are out of range".into());
        }
        let mut sap = SweepAndPrune::from_valid_settings(settings);
        for (id, proxy) in stored.proxies.iter().enumerate().filter(|(_, p)| p.live) {
            if sap.keys.insert(proxy.key, id as u32).is_some() {
                return Err("two broad-phase proxies have the same key".into());
            }
        }
        let proxies = stored.proxies;
        let mut grid = stored.grid;
        let fat = |id: u32| proxies.get(id as usize).filter(|p| p.live).map(|p| p.fat);
        grid.refill(fat).ok_or("a broad-phase region holds a proxy that is not there")?;
        sap.movers.index = vec![0; proxies.len()];
        sap.proxies = proxies;
        sap.free = stored.free;
        sap.grid = grid;
        sap.large = stored.large;
        sap.moved = stored.moved;
        sap.queued = stored.queued;
        sap.pairs = stored.pairs;
        sap.category_counts = stored.category_counts;
        sap.categories = stored.categories;
        sap.filtered = sap.count_filtered();
        sap.check_invariants().map_err(|e| format!("the broad phase is inconsistent: {e}"))?;
        Ok(sap)
    }
}
