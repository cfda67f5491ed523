//! A line segment: zero thickness, zero area.

use crate::aabb::Aabb;
use crate::error::ShapeError;
use crate::mass::MassProperties;
use crate::math::{
    Isometry, Point, Real, Vec2, cross, is_finite_point, right_perp, try_normalize, unit_and_length,
};
use crate::point_query::PointProjection;
use crate::ray::{Ray, RayHit, below_normal};
use crate::support::SupportMap;

/// The segment from `a` to `b`. Segments have no area, hence no mass: they are
/// meant for fixed geometry (terrain, walls).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Segment {
    /// First end point.
    pub a: Point,
    /// Second end point.
    pub b: Point,
}

impl Segment {
    /// Checks that both end points are finite and distinct.
    pub fn validate(&self) -> Result<(), ShapeError> {
        validate_end_points("segment", &self.a, &self.b)
    }

    /// World-space bounds under `pose`.
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        let (a, b) = (pose * self.a, pose * self.b);
        Aabb::new(a.inf(&b), a.sup(&b))
    }

    /// No area, no mass; the centre is the midpoint.
    pub fn mass_properties(&self, _density: Real) -> MassProperties {
        MassProperties { mass: 0.0, center: nalgebra::center(&self.a, &self.b), inertia: 0.0 }
    }

    /// The point of the segment closest to `p`, and its parameter in `[0, 1]`.
    pub fn closest_point(&self, p: &Point) -> (Point, Real) {
        closest_on_segment(&self.a, &self.b, p)
    }

    /// Ray cast in the local frame. The segment is hit from either side; the
    /// normal faces the ray's origin. A ray running along the segment hits its
    /// nearer end point.
    pub fn cast_local_ray(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        let edge = self.b - self.a;
        let denom = cross(&edge, &ray.dir);
        if below_normal(&edge, denom) {
            return self.cast_local_ray_across(ray, max_toi);
        }
        let to_origin = ray.origin - self.a;
        if denom == 0.0 {
            return self.cast_collinear_ray(ray, max_toi);
        }
        let t = cross(&edge, &to_origin) / -denom;
        let s = cross(&ray.dir, &to_origin) / -denom;
        if t < 0.0 || t > max_toi || !(0.0..=1.0).contains(&s) {
            return None;
        }
        let n = try_normalize(&right_perp(&edge))?;
        let normal = if n.dot(&ray.dir) > 0.0 { -n } else { n };
        Some(RayHit { toi: t, normal })
    }

    /// [`Segment::cast_local_ray`] measured along the segment's unit normal and
    /// direction, for a segment (or a ray and a segment) whose products fall
    /// below the normal numbers: there a product keeps only a few bits, and
    /// the hit computed from them lay 0.4 m off a segment 6·10⁻⁴⁵ m long.
    fn cast_local_ray_across(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        let (along, length) = unit_and_length(&(self.b - self.a))?;
        let n = right_perp(&along);
        let (approach, offset) = (n.dot(&ray.dir), n.dot(&(ray.origin - self.a)));
        if approach == 0.0 {
            return if offset == 0.0 { self.cast_collinear_ray(ray, max_toi) } else { None };
        }
        let t = -offset / approach;
        if !(t >= 0.0 && t <= max_toi) {
            return None;
        }
        if !(0.0..=length).contains(&along.dot(&(ray.origin + ray.dir * t - self.a))) {
            return None;
        }
        Some(RayHit { toi: t, normal: if approach > 0.0 { -n } else { n } })
    }

    /// A ray parallel to the segment hits only if it runs along it.
    fn cast_collinear_ray(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        if cross(&(self.b - self.a), &(ray.origin - self.a)) != 0.0 {
            return None;
        }
        let dd = ray.dir.norm_squared();
        let ta = (self.a - ray.origin).dot(&ray.dir) / dd;
        let tb = (self.b - ray.origin).dot(&ray.dir) / dd;
        let (t_near, t_far) = if ta < tb { (ta, tb) } else { (tb, ta) };
        if t_far < 0.0 {
            return None;
        }
        let t = t_near.max(0.0);
        (t <= max_toi).then(|| RayHit { toi: t, normal: ray.inside_normal() })
    }

    /// Closest point of the segment to `p`, local frame. A segment has no inside:
    /// `is_inside` is true only for a point exactly on it.
    pub fn project_local_point(&self, p: &Point) -> PointProjection {
        let (q, _) = self.closest_point(p);
        PointProjection { point: q, is_inside: q == *p }
    }
}

impl SupportMap for Segment {
    #[inline]
    fn support_point(&self, dir: &Vec2) -> Point {
        if self.b.coords.dot(dir) > self.a.coords.dot(dir) { self.b } else { self.a }
    }
}

/// Checks the end points of a segment or a capsule's core.
pub(crate) fn validate_end_points(shape: &'static str, a: &Point, b: &Point) -> Result<(), ShapeError> {
    if !is_finite_point(a) {
        return Err(ShapeError::NonFinitePoint { index: 0, point: *a });
    }
    if !is_finite_point(b) {
        return Err(ShapeError::NonFinitePoint { index: 1, point: *b });
    }
    if a == b {
        return Err(ShapeError::ZeroLength { shape, point: *a });
    }
    Ok(())
}

/// The point of segment `a`–`b` closest to `p`, with its parameter in `[0, 1]`.
pub(crate) fn closest_on_segment(a: &Point, b: &Point, p: &Point) -> (Point, Real) {
    let e = b - a;
    let ee = e.norm_squared();
    if ee == 0.0 {
        return (*a, 0.0);
    }
    let t = ((p - a).dot(&e) / ee).clamp(0.0, 1.0);
    (a + e * t, t)
}
