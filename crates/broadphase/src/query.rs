//! Queries: which proxies a box overlaps, and which a ray hits, nearest first.
//!
//! Both answer over the fat boxes, the same boxes pairs are defined over, and
//! both write into a buffer the caller owns: cleared, filled, sorted, and never
//! reallocated once it is large enough. Results are ordered (by key; by distance
//! then key for rays), so they are the same whatever the internal layout.

use crate::error::BroadPhaseError;
use crate::sweep_and_prune::SweepAndPrune;
use lamina_geometry::{Aabb, Ray, Real};
use std::hash::Hash;

impl<K: Copy + Ord + Hash> SweepAndPrune<K> {
    /// Fills `out` with the key of every proxy whose fat box overlaps or touches
    /// `aabb`, in increasing key order. `out` is cleared first.
    ///
    /// Fails, leaving `out` untouched, on a non-finite or inverted box.
    pub fn query(&self, aabb: &Aabb, out: &mut Vec<K>) -> Result<(), BroadPhaseError<K>> {
        if !aabb.is_valid() {
            return Err(BroadPhaseError::InvalidAabb { mins: aabb.mins, maxs: aabb.maxs });
        }
        out.clear();
        self.for_each_overlap(aabb, None, |id| out.push(self.proxies[id as usize].key));
        out.sort_unstable();
        Ok(())
    }

    /// Fills `out` with `(key, toi)` for every proxy whose fat box the ray meets
    /// within `[0, max_toi]`, nearest first (ties by key). `toi` is in units of
    /// `ray.dir` and is 0 for a box that contains the origin. `max_toi` may be
    /// infinite. `out` is cleared first.
    ///
    /// Fails, leaving `out` untouched, on a ray with a non-finite origin or a
    /// non-finite or zero direction, or a `max_toi` that is NaN or negative.
    pub fn cast_ray(
        &self,
        ray: &Ray,
        max_toi: Real,
        out: &mut Vec<(K, Real)>,
    ) -> Result<(), BroadPhaseError<K>> {
        if !ray.is_castable() {
            return Err(BroadPhaseError::InvalidRay { origin: ray.origin, dir: ray.dir });
        }
        if max_toi.is_nan() || max_toi < 0.0 {
            return Err(BroadPhaseError::InvalidMaxToi(max_toi));
        }
        out.clear();
        let end = max_toi.is_finite().then(|| ray.point_at(max_toi));
        let range = self.ray_range(&ray.origin, end);
        self.grid.for_each_region_in(range, |region| {
            // The padded square covers every point the region's proxies are
            // registered for, so a ray that misses it misses them there.
            if self.grid.padded_cell_box(region.cell()).cast_ray(ray, max_toi).is_none() {
                return;
            }
            let axis = region.sap().axis();
            for e in region.sap().entries() {
                if let Some(toi) = e.aabb(axis).cast_ray(ray, max_toi) {
                    out.push((self.proxies[e.id as usize].key, toi));
                }
            }
        });
        for &l in &self.large {
            let proxy = &self.proxies[l as usize];
            if let Some(toi) = proxy.fat.cast_ray(ray, max_toi) {
                out.push((proxy.key, toi));
            }
        }
        // A proxy in several regions is met once per region, always at the same toi
        // (the same box and ray): keep one.
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        out.dedup_by(|a, b| a.0 == b.0);
        out.sort_unstable_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        Ok(())
    }
}
