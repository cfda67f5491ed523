//! How a region's proxies spread: running moments of their centres, from which
//! a region picks the axis it sweeps along, and re-picks it as they move.

use lamina_geometry::{Aabb, Real};

use crate::cell::Cell;
use crate::sorted_axis::Axis;

/// A region must see its proxies' centres spread this many times more (in
/// variance) along the other axis before it switches axis. Without the gap a
/// region whose proxies spread about equally would flip, and re-sort, every step.
const AXIS_SWITCH_RATIO: f64 = 2.0;

/// Regions with fewer proxies than this keep their axis: any scan of them is short.
const AXIS_SWITCH_MIN_PROXIES: u32 = 4;

/// Running moments of the proxies' centres in a region, from which it picks its
/// sweep axis. Centres are taken relative to the region's corner and clamped to a
/// few region sizes, so the sums stay small and finite whatever the coordinates.
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Spread {
    pub(crate) count: u32,
    pub(crate) sum: [f64; 2],
    pub(crate) sum_sq: [f64; 2],
}

impl Spread {
    pub(crate) fn add(&mut self, c: [f64; 2]) {
        self.count += 1;
        for ((sum, sum_sq), v) in self.sum.iter_mut().zip(&mut self.sum_sq).zip(c) {
            *sum += v;
            *sum_sq += v * v;
        }
    }

    pub(crate) fn remove(&mut self, c: [f64; 2]) {
        self.count = self.count.saturating_sub(1);
        if self.count == 0 {
            // Start again from exact zeros, so rounding never accumulates past an
            // empty region.
            *self = Spread::default();
            return;
        }
        for ((sum, sum_sq), v) in self.sum.iter_mut().zip(&mut self.sum_sq).zip(c) {
            *sum -= v;
            *sum_sq -= v * v;
        }
    }

    fn variance(&self, k: usize) -> f64 {
        let n = f64::from(self.count.max(1));
        let mean = self.sum[k] / n;
        (self.sum_sq[k] / n - mean * mean).max(0.0)
    }

    /// The axis this region should sweep along, given the one it sweeps along now.
    pub(crate) fn preferred_axis(&self, current: Axis) -> Axis {
        if self.count < AXIS_SWITCH_MIN_PROXIES {
            return current;
        }
        let (vx, vy) = (self.variance(0), self.variance(1));
        match current {
            Axis::X if vy > AXIS_SWITCH_RATIO * vx => Axis::Y,
            Axis::Y if vx > AXIS_SWITCH_RATIO * vy => Axis::X,
            _ => current,
        }
    }
}

/// The centre of `aabb` relative to the corner of `cell`, in a grid of
/// regions `size` metres wide, clamped to a few region sizes.
pub(crate) fn relative_center(size: Real, cell: Cell, aabb: &Aabb) -> [f64; 2] {
    let size = wide(size);
    let limit = 4.0 * size;
    let rel = |lo: Real, hi: Real, c: i32| {
        let centre = 0.5 * wide(lo) + 0.5 * wide(hi);
        (centre - f64::from(c) * size).clamp(-limit, limit)
    };
    [rel(aabb.mins.x, aabb.maxs.x, cell.x), rel(aabb.mins.y, aabb.maxs.y, cell.y)]
}

/// `v` in f64, where the spread sums are kept (a no-op with the `f64` feature).
#[inline]
#[allow(clippy::useless_conversion)]
fn wide(v: Real) -> f64 {
    f64::from(v)
}
