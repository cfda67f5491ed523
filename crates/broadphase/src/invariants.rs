//! The rules a [`SweepAndPrune`] keeps between calls, checked whole: what tests
//! assert after random operations, and what a structure read back from a
//! snapshot must satisfy before it is used.

use std::hash::Hash;

use crate::proxy::Placement;
use crate::sweep_and_prune::SweepAndPrune;

impl<K: Copy + Ord + Hash> SweepAndPrune<K> {
    /// Checks every internal rule without trusting any index: used by the
    /// tests after each operation, and on a structure read back from serde
    /// (`stored.rs`). Each live proxy is registered where its fat box says,
    /// once in each of its regions with that box, each region entry belongs
    /// to a proxy registered there, and the lists, counts and pairs agree.
    pub(crate) fn check_invariants(&self) -> Result<(), String> {
        self.grid.check()?;
        self.pairs.check(&self.proxies)?;
        let n = self.proxies.len();
        if self.movers.index.len() != n || self.queued.len() != n.div_ceil(64) {
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
