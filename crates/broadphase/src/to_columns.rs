//! A [`SweepAndPrune`] as columns of numbers ([`StateColumns`], whose format is
//! in `state_columns.rs`), and back: what a snapshot of a world writes of its
//! broad phase (cargo feature `serde`).
//!
//! Serde visits a value at a time; a broad phase of thousands of proxies is
//! written much faster as a few dozen plain arrays, one per field (every
//! proxy's box's lower x, every region's sweep axis), which the caller packs
//! and compresses as it likes. The columns hold exactly what serde writes,
//! less what can be derived (the index of regions by cell, entries beyond a
//! proxy's region count and items beyond a pair list's length, which are
//! never read), and reading them back goes through the same checks as a
//! structure read through serde ([`SweepAndPrune::check_invariants`]).
//!
//! What each column holds is the broad phase's own business: a reader hands
//! back the columns it was given, in the same order and of the same lengths.

use std::hash::Hash;

use lamina_geometry::{Aabb, Point, Real};

use crate::cell::{read_range, write_range};
use crate::proxy::{PairFilter, Placement, Proxy};
use crate::settings::BroadPhaseSettings;
use crate::state_columns::{ColumnsIn, StateColumns, exactly, flag};
use crate::sweep_and_prune::SweepAndPrune;

/// Placement tags.
const DETACHED: u64 = 0;
const GRID: u64 = 1;
const LARGE: u64 = 2;

impl<K: Copy + Ord + Hash> SweepAndPrune<K> {
    /// The structure's state as columns of numbers, for a snapshot: read back
    /// by [`SweepAndPrune::from_columns`] into a structure that answers every
    /// call as this one would.
    pub fn to_columns(&self) -> StateColumns<K> {
        let mut c = StateColumns::default();
        c.reals().extend([self.settings.margin, self.settings.region_size]);
        self.write_proxies(&mut c);
        c.ints().extend(self.free.iter().map(|&v| u64::from(v)));
        self.grid.write_columns(&mut c);
        c.ints().extend(self.large.iter().map(|&v| u64::from(v)));
        c.ints().extend(self.moved.iter().map(|&v| u64::from(v)));
        c.ints().extend(self.queued.iter().copied());
        self.pairs.write_columns(&mut c);
        c.ints().extend(self.category_counts.iter().map(|&v| u64::from(v)));
        c.ints().push(u64::from(self.categories));
        c
    }

    /// Every proxy: its key, fat box, placement, liveness and filter.
    fn write_proxies(&self, c: &mut StateColumns<K>) {
        c.keys().extend(self.proxies.iter().map(|p| p.key));
        for k in 0..4 {
            let corner = |b: &Aabb| [b.mins.x, b.mins.y, b.maxs.x, b.maxs.y][k];
            c.reals().extend(self.proxies.iter().map(|p| corner(&p.fat)));
        }
        let (mut tags, mut ranges, mut counts) = (Vec::new(), [const { Vec::new() }; 4], Vec::new());
        let (mut regions, mut hints, mut slots) = (Vec::new(), Vec::new(), Vec::new());
        for p in &self.proxies {
            match p.placement {
                Placement::Detached => tags.push(DETACHED),
                Placement::Grid { range, regions: r, hints: h, count } => {
                    tags.push(GRID);
                    write_range(&range, &mut ranges);
                    counts.push(u64::from(count));
                    let count = usize::from(count.min(4));
                    regions.extend(r[..count].iter().map(|&v| u64::from(v)));
                    hints.extend(h[..count].iter().map(|&v| u64::from(v)));
                }
                Placement::Large { slot } => {
                    tags.push(LARGE);
                    slots.push(u64::from(slot));
                }
            }
        }
        for column in [tags, counts, regions, hints, slots].into_iter().chain(ranges) {
            *c.ints() = column;
        }
        c.ints().extend(self.proxies.iter().map(|p| u64::from(p.live)));
        c.ints().extend(self.proxies.iter().map(|p| u64::from(p.filter.category)));
        c.ints().extend(self.proxies.iter().map(|p| u64::from(p.filter.mask)));
    }

    /// The structure whose state `columns` hold ([`SweepAndPrune::to_columns`]),
    /// checked whole: columns that do not make a consistent structure are
    /// refused with the reason, rather than left to panic in a later call.
    pub fn from_columns(columns: StateColumns<K>) -> Result<Self, String> {
        let mut c = ColumnsIn::new(columns);
        let settings = match c.reals()?[..] {
            [margin, region_size] => BroadPhaseSettings { margin, region_size },
            _ => return Err("the broad phase's settings are missing".into()),
        };
        if SweepAndPrune::<K>::with_settings(settings).is_err() {
            return Err("the broad phase's settings are out of range".into());
        }
        let mut sap = SweepAndPrune::from_valid_settings(settings);
        sap.proxies = Self::read_proxies(&mut c)?;
        sap.free = c.u32s()?;
        sap.grid.read_columns(&mut c)?;
        sap.large = c.u32s()?;
        sap.moved = c.u32s()?;
        sap.queued = c.ints()?;
        sap.pairs.read_columns(&mut c)?;
        sap.category_counts = c.u32s()?.try_into().map_err(|_| "the category counts are not 32")?;
        sap.categories = match c.u32s()?[..] {
            [categories] => categories,
            _ => return Err("the categories are missing".into()),
        };
        c.finish()?;
        for (id, proxy) in sap.proxies.iter().enumerate().filter(|(_, p)| p.live) {
            if sap.keys.insert(proxy.key, id as u32).is_some() {
                return Err("two broad-phase proxies have the same key".into());
            }
        }
        let proxies = &sap.proxies;
        let fat = |id: u32| proxies.get(id as usize).filter(|p| p.live).map(|p| p.fat);
        sap.grid.refill(fat).ok_or("a broad-phase region holds a proxy that is not there")?;
        sap.movers.index = vec![0; sap.proxies.len()];
        sap.filtered = sap.count_filtered();
        sap.check_invariants().map_err(|e| format!("the broad phase is inconsistent: {e}"))?;
        Ok(sap)
    }

    /// The proxies [`SweepAndPrune::write_proxies`] wrote.
    fn read_proxies(c: &mut ColumnsIn<K>) -> Result<Vec<Proxy<K>>, String> {
        let keys = c.keys()?;
        let n = keys.len();
        let corners: Vec<Vec<Real>> =
            (0..4).map(|_| c.reals().and_then(|v| exactly(v, n, "proxy boxes"))).collect::<Result<_, _>>()?;
        let tags = exactly(c.ints()?, n, "placements")?;
        let (counts, regions, hints, slots) = (c.u32s()?, c.u32s()?, c.u32s()?, c.u32s()?);
        let ranges: [Vec<u64>; 4] = [c.ints()?, c.ints()?, c.ints()?, c.ints()?];
        let live = exactly(c.ints()?, n, "proxy flags")?;
        let category = exactly(c.u32s()?, n, "categories")?;
        let mask = exactly(c.u32s()?, n, "masks")?;
        let (mut grid, mut large, mut at) = (0, 0, 0);
        let mut proxies = Vec::with_capacity(n);
        for (i, key) in keys.into_iter().enumerate() {
            let placement = match tags[i] {
                DETACHED => Placement::Detached,
                GRID => {
                    let range = read_range(&ranges, grid)?;
                    let count = *counts.get(grid).ok_or("a region count is missing")?;
                    let len = count.min(4) as usize;
                    let (mut r, mut h) = ([0u32; 4], [0u32; 4]);
                    let (Some(rs), Some(hs)) = (regions.get(at..at + len), hints.get(at..at + len)) else {
                        return Err("a proxy's regions are missing".into());
                    };
                    r[..len].copy_from_slice(rs);
                    h[..len].copy_from_slice(hs);
                    grid += 1;
                    at += len;
                    let count = u8::try_from(count).map_err(|_| format!("a region count of {count}"))?;
                    Placement::Grid { range, regions: r, hints: h, count }
                }
                LARGE => {
                    large += 1;
                    Placement::Large { slot: *slots.get(large - 1).ok_or("a large slot is missing")? }
                }
                tag => return Err(format!("a placement of kind {tag}")),
            };
            proxies.push(Proxy {
                key,
                fat: Aabb::new(
                    Point::new(corners[0][i], corners[1][i]),
                    Point::new(corners[2][i], corners[3][i]),
                ),
                placement,
                live: flag(live[i])?,
                filter: PairFilter { category: category[i], mask: mask[i] },
            });
        }
        if grid != counts.len() || at != regions.len() || at != hints.len() || large != slots.len() {
            return Err("placements left over after the last proxy".into());
        }
        if ranges.iter().any(|column| column.len() != grid) {
            return Err("cell ranges left over after the last proxy".into());
        }
        Ok(proxies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairEvent;

    use crate::test_rng::Rng;

    /// A box of half-size up to `size` around a random point, now and then a long one.
    fn random_box(rng: &mut Rng, size: Real) -> Aabb {
        let (x, y) = (rng.range(-40.0, 40.0), rng.range(-40.0, 40.0));
        let (w, h) = if rng.next().is_multiple_of(20) {
            (30.0, 0.5)
        } else {
            (rng.range(0.1, size), rng.range(0.1, size))
        };
        Aabb::new(Point::new(x - w, y - h), Point::new(x + w, y + h))
    }

    /// Inserts, moves and removes proxies at random, `rounds` times.
    fn churn(sap: &mut SweepAndPrune<u32>, rng: &mut Rng, rounds: usize, events: &mut Vec<PairEvent<u32>>) {
        for _ in 0..rounds {
            let key = (rng.next() % 300) as u32;
            if sap.fat_aabb(key).is_some() {
                if rng.next().is_multiple_of(4) {
                    sap.remove(key).unwrap();
                } else {
                    sap.update(key, random_box(rng, 2.0)).unwrap();
                }
            } else {
                let filter = PairFilter { category: 1 << (rng.next() % 3), mask: u32::MAX };
                sap.insert_filtered(key, random_box(rng, 2.0), filter).unwrap();
            }
            if rng.next().is_multiple_of(16) {
                sap.update_pairs(events);
            }
        }
    }

    /// A structure read back from its columns writes the same columns, and
    /// then answers the same calls with the same events as the original.
    #[test]
    fn a_structure_read_back_steps_as_the_original() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut sap = SweepAndPrune::<u32>::new();
        let mut events = Vec::new();
        churn(&mut sap, &mut rng, 3000, &mut events);
        let columns = sap.to_columns();
        let mut copy = SweepAndPrune::from_columns(columns.clone()).unwrap();
        assert_eq!(copy.to_columns(), columns);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for round in 0..20 {
            let seed = rng.next();
            churn(&mut sap, &mut Rng(seed), 200, &mut a);
            churn(&mut copy, &mut Rng(seed), 200, &mut b);
            sap.update_pairs(&mut a);
            copy.update_pairs(&mut b);
            assert_eq!(a, b, "round {round}");
            assert!(sap.pairs().eq(copy.pairs()));
        }
    }

    /// Columns changed anywhere are refused, or read back into a structure
    /// that can be used: its pairs brought up to date without a panic.
    #[test]
    fn changed_columns_never_panic() {
        let mut rng = Rng(7);
        let mut sap = SweepAndPrune::<u32>::new();
        churn(&mut sap, &mut rng, 600, &mut Vec::new());
        // Some proxies moved since the last update, so that the queued bits
        // and the list of moved proxies hold something.
        for key in 0..40u32 {
            let x = key as Real * 0.7 + 3.0;
            let _ = sap.update(key, Aabb::new(Point::new(x, 1.0), Point::new(x + 0.5, 1.5)));
        }
        let columns = sap.to_columns();
        let read_and_use = |columns: StateColumns<u32>| {
            if let Ok(mut read) = SweepAndPrune::from_columns(columns) {
                read.update_pairs(&mut Vec::new());
            }
        };
        for k in 0..columns.ints.len() {
            for i in 0..columns.ints[k].len().min(40) {
                for v in [0, 1, 3, 1 << 40, u64::from(u32::MAX), u64::MAX] {
                    let mut changed = columns.clone();
                    changed.ints[k][i] = v;
                    read_and_use(changed);
                }
            }
            let mut shorter = columns.clone();
            shorter.ints[k].pop();
            read_and_use(shorter);
            let mut longer = columns.clone();
            longer.ints[k].push(2);
            read_and_use(longer);
        }
        for k in 0..columns.reals.len() {
            let mut changed = columns.clone();
            if let Some(v) = changed.reals[k].first_mut() {
                *v = Real::NAN;
            }
            read_and_use(changed);
        }
        let mut fewer = columns.clone();
        fewer.ints.pop();
        assert!(SweepAndPrune::from_columns(fewer).is_err());
        let mut more = columns;
        more.reals.push(vec![1.0]);
        assert!(SweepAndPrune::from_columns(more).is_err());
    }
}
