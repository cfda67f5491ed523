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

    /// Calls `f` with the key of every proxy whose fat box overlaps or touches
    /// `aabb`, each once, in an order that depends only on the structure's
    /// history: [`SweepAndPrune::query`] without the buffer and the sort.
    ///
    /// Fails, calling nothing, on a non-finite or inverted box.
    pub fn query_with(&self, aabb: &Aabb, mut f: impl FnMut(K)) -> Result<(), BroadPhaseError<K>> {
        if !aabb.is_valid() {
            return Err(BroadPhaseError::InvalidAabb { mins: aabb.mins, maxs: aabb.maxs });
        }
        self.for_each_overlap(aabb, None, |id| f(self.proxies[id as usize].key));
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

/// Pieces a ray is cut into, per region length: the walk tests the proxies
/// near one piece at a time, nearest piece first, and stops once a hit lies
/// before the next piece. Shorter pieces stop sooner after a near hit; longer
/// ones rescan fewer sorted-array windows on a long miss.
const PIECES_PER_REGION: Real = 4.0;

/// A walk longer than this many pieces (a ray across a vast, sparse world)
/// is done as one piece: every region along it, in no particular order.
const MAX_PIECES: Real = 4096.0;

impl<K: Copy + Ord + Hash> SweepAndPrune<K> {
    /// Calls `hit(key, toi)` for the proxies whose fat box the ray enters
    /// within its reach, nearest region of the ray first, each proxy once;
    /// `hit` returns the reach from then on (its argument order does not matter
    /// to the walk). Returning `toi` of an accepted hit makes this a closest-hit
    /// search that looks at little beyond the first hit; returning `max_toi`
    /// visits every box on the ray. `toi` is in units of `ray.dir`, 0 for a box
    /// that holds the origin. Allocates nothing.
    ///
    /// Proxies come in the order the walk meets them: piece by piece along the
    /// ray, so a later call may have a smaller `toi` than an earlier one only
    /// within one piece. The order depends only on the structure's history.
    ///
    /// Fails, calling nothing, on a ray with a non-finite origin or a non-finite
    /// or zero direction, or a `max_toi` that is NaN or negative.
    pub fn cast_ray_with(
        &self,
        ray: &Ray,
        max_toi: Real,
        mut hit: impl FnMut(K, Real) -> Real,
    ) -> Result<(), BroadPhaseError<K>> {
        if !ray.is_castable() {
            return Err(BroadPhaseError::InvalidRay { origin: ray.origin, dir: ray.dir });
        }
        if max_toi.is_nan() || max_toi < 0.0 {
            return Err(BroadPhaseError::InvalidMaxToi(max_toi));
        }
        let mut reach = max_toi;
        for &l in &self.large {
            let proxy = &self.proxies[l as usize];
            if let Some(toi) = proxy.fat.cast_ray(ray, reach) {
                reach = reach.min(hit(proxy.key, toi));
            }
        }
        let Some(occupied) = self.grid.occupied() else { return Ok(()) };
        let world = self.grid.padded_cell_box(occupied.min).merged(&self.grid.padded_cell_box(occupied.max));
        let Some((t_in, t_out)) = world.ray_interval(ray, reach) else { return Ok(()) };
        let step = self.grid.size() / PIECES_PER_REGION / ray.dir.norm();
        let pieces = ((t_out - t_in) / step).ceil();
        if !(step.is_finite() && step > 0.0 && pieces <= MAX_PIECES) {
            // One piece: the whole walk, clipped to the occupied regions.
            self.cast_ray_piece(ray, t_in, Real::INFINITY, world, &mut reach, &mut hit);
            return Ok(());
        }
        // Piece `k` spans `t_in + k·step` to `t_in + (k + 1)·step`, the same
        // expression on both sides of each cut, so a toi falls in one piece.
        let mut k: Real = 0.0;
        loop {
            let t0 = t_in + k * step;
            if t0 > reach || t0 > t_out {
                break;
            }
            let cut = t_in + (k + 1.0) * step;
            // The last piece takes every toi up to the reach.
            let t1 = if cut >= t_out { Real::INFINITY } else { cut };
            let (a, b) = (ray.point_at(t0), ray.point_at(cut.min(t_out).min(reach)));
            self.cast_ray_piece(ray, t0, t1, Aabb::new(a.inf(&b), a.sup(&b)), &mut reach, &mut hit);
            if t1 == Real::INFINITY {
                break;
            }
            k += 1.0;
        }
        Ok(())
    }

    /// The part of [`SweepAndPrune::cast_ray_with`] for the ray between `t0`
    /// and `t1`, which lies in `bounds`: reports the grid proxies whose box the
    /// ray enters at a `toi` in `[t0, t1)`, each once. A proxy's entry lies in
    /// the piece, so its box meets the piece's bounds (padded against
    /// rounding); of the regions it shares with the piece, only the first the
    /// piece visits (its range's lowest row, then column) reports it.
    fn cast_ray_piece(
        &self,
        ray: &Ray,
        t0: Real,
        t1: Real,
        bounds: Aabb,
        reach: &mut Real,
        hit: &mut impl FnMut(K, Real) -> Real,
    ) {
        let scale = bounds.mins.coords.abs().max().max(bounds.maxs.coords.abs().max());
        let bounds = bounds.loosened(self.grid.size() * 1.0e-4 + scale * (64.0 * Real::EPSILON));
        let range = self.grid.range_of(&bounds);
        self.grid.for_each_region_in(range, |region| {
            let axis = region.sap().axis();
            region.sap().for_each_overlap(&bounds, |e| {
                let fat = e.aabb(axis);
                let own = self.grid.range_of(&fat);
                let first_shared = (own.min.x.max(range.min.x), own.min.y.max(range.min.y));
                if (region.cell().x, region.cell().y) != first_shared {
                    return;
                }
                if let Some(toi) = fat.cast_ray(ray, *reach)
                    && t0 <= toi
                    && toi < t1
                {
                    *reach = reach.min(hit(self.proxies[e.id as usize].key, toi));
                }
            });
        });
    }
}
