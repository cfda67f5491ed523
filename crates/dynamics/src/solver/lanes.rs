//! Numbers in SIMD lanes: the solver works on [`LANES`] constraints at once.
//!
//! `Wide` is `wide::f32x4` (or `f64x4` with the `f64` feature): SSE on x86-64,
//! NEON on aarch64, plain arrays elsewhere. Only operations that IEEE 754 rounds
//! exactly the same way on every target are used here — add, subtract,
//! multiply, divide, compare, select — never a fused multiply-add, and `max` and
//! `min` are written as compare-and-select, because the instructions behind
//! `maxps` and NEON's `fmaxnm` disagree on the sign of a zero result.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use lamina_geometry::Real;
#[cfg(test)]
use lamina_geometry::{Rotation, Vec2};

/// Constraints solved together: eight where the build targets AVX (256-bit
/// registers), four elsewhere.
#[cfg(all(not(feature = "f64"), target_feature = "avx"))]
pub(crate) const LANES: usize = 8;
/// Constraints solved together.
#[cfg(not(all(not(feature = "f64"), target_feature = "avx")))]
pub(crate) const LANES: usize = 4;

/// [`LANES`] numbers side by side.
#[cfg(all(not(feature = "f64"), target_feature = "avx"))]
pub(crate) type Wide = wide::f32x8;
/// [`LANES`] numbers side by side.
#[cfg(all(not(feature = "f64"), not(target_feature = "avx")))]
pub(crate) type Wide = wide::f32x4;
/// [`LANES`] numbers side by side.
#[cfg(feature = "f64")]
pub(crate) type Wide = wide::f64x4;

/// A lane mask: every bit set where true, clear where false.
pub(crate) type Mask = Wide;

/// The bits of [`Wide`]'s lanes.
#[cfg(all(not(feature = "f64"), target_feature = "avx"))]
type Bits = wide::u32x8;
/// The bits of [`Wide`]'s lanes.
#[cfg(all(not(feature = "f64"), not(target_feature = "avx")))]
type Bits = wide::u32x4;
#[cfg(feature = "f64")]
type Bits = wide::u64x4;

/// Zero in every lane.
pub(crate) const ZERO: Wide = Wide::splat(0.0);
/// One in every lane.
pub(crate) const ONE: Wide = Wide::splat(1.0);

/// The larger of `a` and `b` per lane (`b` when they compare equal).
#[inline(always)]
pub(crate) fn max(a: Wide, b: Wide) -> Wide {
    a.simd_gt(b).select(a, b)
}

/// The smaller of `a` and `b` per lane (`b` when they compare equal).
#[inline(always)]
pub(crate) fn min(a: Wide, b: Wide) -> Wide {
    a.simd_lt(b).select(a, b)
}

/// `if_true` where `mask` is set, `if_false` elsewhere.
#[inline(always)]
pub(crate) fn select(mask: Mask, if_true: Wide, if_false: Wide) -> Wide {
    mask.select(if_true, if_false)
}

/// A mask from one flag per lane.
#[cfg(test)]
pub(crate) fn mask_from(flags: [bool; LANES]) -> Mask {
    Wide::from_bits(Bits::new(flags.map(|f| if f { !0 } else { 0 })))
}

/// Sets lane `l` of `mask` to true.
#[inline]
pub(crate) fn set_flag(mask: &mut Mask, l: usize) {
    let mut bits = mask.to_bits().to_array();
    bits[l] = !0;
    *mask = Wide::from_bits(Bits::new(bits));
}

/// `LANES` 2D vectors, one per lane.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Vec2W {
    pub x: Wide,
    pub y: Wide,
}

impl Vec2W {
    /// The vectors `v[0]`, `v[1]`, ... side by side.
    #[cfg(test)]
    pub fn from_lanes(v: [Vec2; LANES]) -> Self {
        Self { x: Wide::new(v.map(|v| v.x)), y: Wide::new(v.map(|v| v.y)) }
    }

    #[inline(always)]
    pub fn dot(&self, o: &Vec2W) -> Wide {
        self.x * o.x + self.y * o.y
    }

    /// The 2D cross product `self.x·o.y − self.y·o.x`.
    #[inline(always)]
    pub fn cross(&self, o: &Vec2W) -> Wide {
        self.x * o.y - self.y * o.x
    }

    /// `w × self` for an angular velocity `w`: the velocity of a point at `self`.
    #[inline(always)]
    pub fn spun(&self, w: Wide) -> Vec2W {
        Vec2W { x: -w * self.y, y: w * self.x }
    }

    /// Rotated a quarter turn clockwise: the tangent `(n.y, −n.x)` of a normal.
    #[inline(always)]
    pub fn right_perp(&self) -> Vec2W {
        Vec2W { x: self.y, y: -self.x }
    }
}

impl Add for Vec2W {
    type Output = Vec2W;
    #[inline(always)]
    fn add(self, o: Vec2W) -> Vec2W {
        Vec2W { x: self.x + o.x, y: self.y + o.y }
    }
}

impl Sub for Vec2W {
    type Output = Vec2W;
    #[inline(always)]
    fn sub(self, o: Vec2W) -> Vec2W {
        Vec2W { x: self.x - o.x, y: self.y - o.y }
    }
}

impl Mul<Wide> for Vec2W {
    type Output = Vec2W;
    #[inline(always)]
    fn mul(self, s: Wide) -> Vec2W {
        Vec2W { x: self.x * s, y: self.y * s }
    }
}

impl Neg for Vec2W {
    type Output = Vec2W;
    #[inline(always)]
    fn neg(self) -> Vec2W {
        Vec2W { x: -self.x, y: -self.y }
    }
}

impl AddAssign for Vec2W {
    #[inline(always)]
    fn add_assign(&mut self, o: Vec2W) {
        *self = *self + o;
    }
}

impl SubAssign for Vec2W {
    #[inline(always)]
    fn sub_assign(&mut self, o: Vec2W) {
        *self = *self - o;
    }
}

/// `LANES` rotations as unit complex numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RotW {
    pub re: Wide,
    pub im: Wide,
}

impl RotW {
    #[cfg(test)]
    pub fn from_lanes(q: [Rotation; LANES]) -> Self {
        Self { re: Wide::new(q.map(|q| q.re)), im: Wide::new(q.map(|q| q.im)) }
    }

    /// `v` turned by this rotation.
    #[inline(always)]
    pub fn apply(&self, v: &Vec2W) -> Vec2W {
        Vec2W { x: self.re * v.x - self.im * v.y, y: self.im * v.x + self.re * v.y }
    }
}

/// Lane `lane` of `w`.
#[inline]
pub(crate) fn lane(w: &Wide, lane: usize) -> Real {
    w.as_array()[lane]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lane `l` of a pattern of four values repeated across the lanes.
    fn cycled<T: Copy>(values: [T; 4]) -> [T; LANES] {
        std::array::from_fn(|l| values[l % 4])
    }

    #[test]
    fn max_and_min_pick_per_lane() {
        let a = Wide::new(cycled([1.0, -2.0, 3.0, 0.0]));
        let b = Wide::new(cycled([0.5, 5.0, 3.0, -0.0]));
        assert_eq!(max(a, b).to_array(), cycled([1.0, 5.0, 3.0, -0.0]));
        assert_eq!(min(a, b).to_array(), cycled([0.5, -2.0, 3.0, -0.0]));
        // Equal values give `b`, whatever the sign of zero: the same on every target.
        assert!(max(a, b).to_array()[3].is_sign_negative());
    }

    #[test]
    fn masks_select_lanes() {
        let m = mask_from(cycled([true, false, false, true]));
        let picked = select(m, ONE, ZERO).to_array();
        assert_eq!(picked, cycled([1.0, 0.0, 0.0, 1.0]));
        assert!(m.any() && !m.all());
        let mut flagged = mask_from([false; LANES]);
        set_flag(&mut flagged, 1);
        set_flag(&mut flagged, LANES - 2);
        let expected: [Real; LANES] =
            std::array::from_fn(|l| if l == 1 || l == LANES - 2 { 1.0 } else { 0.0 });
        assert_eq!(select(flagged, ONE, ZERO).to_array(), expected);
        assert!(mask_from([true; LANES]).all() && !mask_from([false; LANES]).any());
    }

    #[test]
    fn vector_products_match_the_scalar_ones() {
        let a =
            cycled([Vec2::new(1.0, 2.0), Vec2::new(-3.0, 0.5), Vec2::new(0.0, 0.0), Vec2::new(7.0, -1.0)]);
        let b =
            cycled([Vec2::new(0.5, -4.0), Vec2::new(2.0, 2.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, 3.0)]);
        let (wa, wb) = (Vec2W::from_lanes(a), Vec2W::from_lanes(b));
        for l in 0..LANES {
            assert_eq!(lane(&wa.dot(&wb), l), a[l].dot(&b[l]));
            assert_eq!(lane(&wa.cross(&wb), l), a[l].x * b[l].y - a[l].y * b[l].x);
        }
        let q = cycled([Rotation::new(0.3), Rotation::new(-2.0), Rotation::new(0.0), Rotation::new(3.0)]);
        let turned = RotW::from_lanes(q).apply(&wa);
        for l in 0..LANES {
            let expected = q[l] * a[l];
            assert!((lane(&turned.x, l) - expected.x).abs() < 1e-5);
            assert!((lane(&turned.y, l) - expected.y).abs() < 1e-5);
        }
    }
}
