//! Axis-aligned bounding boxes.

use crate::math::{Point, Real, Vec2, is_finite_point};
use crate::ray::Ray;

/// An axis-aligned box, `mins` at the lower-left corner and `maxs` at the upper-right.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// Lower-left corner.
    pub mins: Point,
    /// Upper-right corner.
    pub maxs: Point,
}

impl Aabb {
    /// The box spanning `mins` to `maxs`. It is not checked; see [`Aabb::is_valid`].
    #[inline]
    pub fn new(mins: Point, maxs: Point) -> Self {
        Self { mins, maxs }
    }

    /// The box of the given half-extents around `center`.
    #[inline]
    pub fn from_half_extents(center: Point, half_extents: Vec2) -> Self {
        Self::new(center - half_extents, center + half_extents)
    }

    /// The smallest box holding every point, or `None` for no points.
    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Point>) -> Option<Self> {
        let mut iter = points.into_iter();
        let first = *iter.next()?;
        Some(iter.fold(Self::new(first, first), |b, p| b.including(p)))
    }

    /// True when every coordinate is finite and `mins <= maxs` on both axes.
    #[inline]
    pub fn is_valid(&self) -> bool {
        is_finite_point(&self.mins)
            && is_finite_point(&self.maxs)
            && self.mins.x <= self.maxs.x
            && self.mins.y <= self.maxs.y
    }

    /// The centre of the box.
    #[inline]
    pub fn center(&self) -> Point {
        nalgebra::center(&self.mins, &self.maxs)
    }

    /// Half the size of the box along each axis.
    #[inline]
    pub fn half_extents(&self) -> Vec2 {
        (self.maxs - self.mins) * 0.5
    }

    /// The box's perimeter, the cost measure of bounding-volume trees.
    #[inline]
    pub fn perimeter(&self) -> Real {
        let d = self.maxs - self.mins;
        2.0 * (d.x + d.y)
    }

    /// The box's area.
    #[inline]
    pub fn area(&self) -> Real {
        let d = self.maxs - self.mins;
        d.x * d.y
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn loosened(&self, margin: Real) -> Self {
        let m = Vec2::new(margin, margin);
        Self::new(self.mins - m, self.maxs + m)
    }

    /// The smallest box holding both boxes.
    #[inline]
    pub fn merged(&self, other: &Aabb) -> Self {
        Self::new(self.mins.inf(&other.mins), self.maxs.sup(&other.maxs))
    }

    /// The smallest box holding this one and `p`.
    #[inline]
    pub fn including(&self, p: &Point) -> Self {
        Self::new(self.mins.inf(p), self.maxs.sup(p))
    }

    /// True when the boxes overlap or touch.
    #[inline]
    pub fn intersects(&self, other: &Aabb) -> bool {
        self.mins.x <= other.maxs.x
            && other.mins.x <= self.maxs.x
            && self.mins.y <= other.maxs.y
            && other.mins.y <= self.maxs.y
    }

    /// True when `other` lies inside this box (boundaries may touch).
    #[inline]
    pub fn contains(&self, other: &Aabb) -> bool {
        self.mins.x <= other.mins.x
            && self.mins.y <= other.mins.y
            && other.maxs.x <= self.maxs.x
            && other.maxs.y <= self.maxs.y
    }

    /// True when `p` lies inside the box or on its boundary.
    #[inline]
    pub fn contains_point(&self, p: &Point) -> bool {
        self.mins.x <= p.x && p.x <= self.maxs.x && self.mins.y <= p.y && p.y <= self.maxs.y
    }

    /// The parameter in `[0, max_toi]` at which `ray` enters the box (0 when it
    /// starts inside), by the slab method; `None` if it misses, and for rays that
    /// cannot be cast, a NaN or negative `max_toi`, or an inverted box (which
    /// [`Aabb::intersects`] treats as empty too).
    pub fn cast_ray(&self, ray: &Ray, max_toi: Real) -> Option<Real> {
        self.ray_interval(ray, max_toi).map(|(enter, _)| enter)
    }

    /// The parameters `[enter, exit]` within `[0, max_toi]` over which `ray` is
    /// inside the box (`max_toi` may be infinite, and so may the box's sides);
    /// `None` as for [`Aabb::cast_ray`].
    pub fn ray_interval(&self, ray: &Ray, max_toi: Real) -> Option<(Real, Real)> {
        let inverted = !(self.mins.x <= self.maxs.x && self.mins.y <= self.maxs.y);
        if inverted || !ray.is_castable() || max_toi.is_nan() || max_toi < 0.0 {
            return None;
        }
        let mut lower: Real = 0.0;
        let mut upper = max_toi;
        for axis in 0..2 {
            let (o, d) = (ray.origin[axis], ray.dir[axis]);
            let (lo, hi) = (self.mins[axis], self.maxs[axis]);
            if d == 0.0 {
                if o < lo || o > hi {
                    return None;
                }
                continue;
            }
            let inv = 1.0 / d;
            let (mut t0, mut t1) = ((lo - o) * inv, (hi - o) * inv);
            if t0 > t1 {
                std::mem::swap(&mut t0, &mut t1);
            }
            lower = lower.max(t0);
            upper = upper.min(t1);
            if lower > upper {
                return None;
            }
        }
        Some((lower, upper))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> Aabb {
        Aabb::new(Point::new(0.0, 0.0), Point::new(1.0, 1.0))
    }

    #[test]
    fn touching_boxes_intersect_and_separated_do_not() {
        let b = Aabb::new(Point::new(1.0, 0.0), Point::new(2.0, 1.0));
        assert!(unit().intersects(&b));
        let c = Aabb::new(Point::new(1.01, 0.0), Point::new(2.0, 1.0));
        assert!(!unit().intersects(&c));
    }

    #[test]
    fn validity_rejects_nan_and_inverted() {
        assert!(unit().is_valid());
        assert!(!Aabb::new(Point::new(1.0, 0.0), Point::new(0.0, 1.0)).is_valid());
        assert!(!Aabb::new(Point::new(Real::NAN, 0.0), Point::new(1.0, 1.0)).is_valid());
    }

    #[test]
    fn ray_enters_at_slab_boundary() {
        let ray = Ray::new(Point::new(-1.0, 0.5), Vec2::new(4.0, 0.0));
        assert_eq!(unit().cast_ray(&ray, 1.0), Some(0.25));
        let inside = Ray::new(Point::new(0.5, 0.5), Vec2::new(1.0, 0.0));
        assert_eq!(unit().cast_ray(&inside, 1.0), Some(0.0));
        let miss = Ray::new(Point::new(-1.0, 2.0), Vec2::new(1.0, 0.0));
        assert_eq!(unit().cast_ray(&miss, 10.0), None);
    }
}
