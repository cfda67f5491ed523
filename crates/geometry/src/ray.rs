//! Rays, ray hits, and the ray tests shared by several shapes.
//!
//! A ray is `origin + dir * t` for `t >= 0`; `dir` need not be unit, and a hit's
//! `toi` is measured in multiples of `dir`, so a cast with `dir` = a displacement
//! and `max_toi = 1` asks "does this motion hit the shape, and at what fraction?".
//! A ray that starts inside a shape hits it at `toi = 0`; its normal is then the
//! opposite of the ray's direction (there is no surface to report).

use crate::math::{Point, Real, Vec2, cross, is_finite_point, right_perp, try_normalize, unit_and_length};

/// A half-line `origin + dir * t`, `t >= 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// Where the ray starts.
    pub origin: Point,
    /// The direction and the unit of `toi`; need not be unit length.
    pub dir: Vec2,
}

/// Where a ray first meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Ray parameter of the hit: the hit point is `origin + dir * toi`.
    pub toi: Real,
    /// Unit outward surface normal at the hit point, in the frame of the query.
    pub normal: Vec2,
}

impl Ray {
    /// The ray from `origin` along `dir`.
    #[inline]
    pub fn new(origin: Point, dir: Vec2) -> Self {
        Self { origin, dir }
    }

    /// The point at parameter `t`.
    #[inline]
    pub fn point_at(&self, t: Real) -> Point {
        self.origin + self.dir * t
    }

    /// True when the ray can be cast: finite origin, and a direction whose
    /// squared length is finite and not zero (longer directions overflow the
    /// quadratics of the round shapes, and would hit at a NaN time).
    #[inline]
    pub fn is_castable(&self) -> bool {
        let length_squared = self.dir.norm_squared();
        is_finite_point(&self.origin) && length_squared > 0.0 && length_squared.is_finite()
    }

    /// The unit vector opposite to the ray, the normal reported for a ray that
    /// starts inside a shape.
    #[inline]
    pub(crate) fn inside_normal(&self) -> Vec2 {
        -try_normalize(&self.dir).unwrap_or_else(|| Vec2::new(1.0, 0.0))
    }

    /// The inside hit: `toi = 0`, normal against the ray.
    #[inline]
    pub(crate) fn inside_hit(&self) -> RayHit {
        RayHit { toi: 0.0, normal: self.inside_normal() }
    }
}

/// The first time in `[0, max_toi]` at which `ray` meets the disc of `radius`
/// around `center`.
pub(crate) fn ray_circle(ray: &Ray, center: &Point, radius: Real, max_toi: Real) -> Option<RayHit> {
    let m = ray.origin - center;
    let c = m.norm_squared() - radius * radius;
    if c <= 0.0 {
        return Some(ray.inside_hit());
    }
    let a = ray.dir.norm_squared();
    let b = m.dot(&ray.dir);
    if b >= 0.0 {
        return None; // outside and moving away
    }
    // Solve a t² + 2 b t + c = 0 for the smaller root, in the form that does not
    // subtract nearly equal numbers: t = c / (-b + sqrt(b² - a c)). The
    // discriminant b² − a c = a (r² − |m⊥|²), with m⊥ the part of m across the
    // ray, is computed in that form: as b² − a c it is a difference of two
    // products of |m|², which for a circle far away (or an ellipse seen
    // through its unit-circle image, stretched 400 times) loses every digit
    // of r², and the hit lands where the circle is not.
    let across = m - ray.dir * (b / a);
    let disc = a * (radius - across.norm()) * (radius + across.norm());
    if disc.is_nan() || disc < 0.0 {
        return None; // a miss, or NaN from a ray that was not castable
    }
    let t = c / (-b + disc.sqrt());
    if t.is_nan() || t > max_toi {
        return None;
    }
    let normal = try_normalize(&(m + ray.dir * t)).unwrap_or_else(|| ray.inside_normal());
    Some(RayHit { toi: t, normal })
}

/// The first time in `[0, max_toi]` at which `ray` crosses the segment `a`–`b`
/// from its front side, where the front is the side `right_perp(b - a)` points to.
/// Rays running parallel to the segment do not cross it.
pub(crate) fn ray_segment_front(ray: &Ray, a: &Point, b: &Point, max_toi: Real) -> Option<RayHit> {
    let edge = b - a;
    let normal = right_perp(&edge);
    let denom = normal.dot(&ray.dir);
    // Before the sign is read: a product that underflowed to zero is no
    // parallel ray.
    if below_normal(&edge, denom) {
        return ray_segment_front_across(ray, a, b, max_toi);
    }
    if denom >= 0.0 {
        return None; // parallel or approaching from behind
    }
    let num = normal.dot(&(a - ray.origin));
    if num > 0.0 {
        return None; // origin behind the segment's line
    }
    let t = num / denom;
    if t.is_nan() || t > max_toi {
        return None; // too late, or NaN from a ray that was not castable
    }
    // Where along the edge the crossing lies, as a fraction of its length.
    let s = cross(&(ray.origin - a), &ray.dir) / cross(&edge, &ray.dir);
    if !(0.0..=1.0).contains(&s) {
        return None;
    }
    Some(RayHit { toi: t, normal: try_normalize(&normal)? })
}

/// True when an edge's squared length is below the normal numbers, or the
/// product `across` of the edge with a ray's direction is (a product of zero,
/// a parallel ray, aside): such a product keeps only a few bits, and a hit
/// computed from it can lie far from the edge. The ray tests then measure
/// along the edge's unit vectors.
#[inline]
pub(crate) fn below_normal(edge: &Vec2, across: Real) -> bool {
    edge.norm_squared() < Real::MIN_POSITIVE || (across != 0.0 && across.abs() < Real::MIN_POSITIVE)
}

/// [`ray_segment_front`] measured along the edge's unit normal and direction
/// (see [`below_normal`]).
fn ray_segment_front_across(ray: &Ray, a: &Point, b: &Point, max_toi: Real) -> Option<RayHit> {
    let (along, length) = unit_and_length(&(b - a))?;
    let normal = right_perp(&along);
    let approach = normal.dot(&ray.dir);
    let offset = normal.dot(&(a - ray.origin));
    if approach >= 0.0 || offset > 0.0 {
        return None;
    }
    let t = offset / approach;
    if t.is_nan() || t > max_toi {
        return None;
    }
    (0.0..=length).contains(&along.dot(&(ray.origin + ray.dir * t - a))).then_some(RayHit { toi: t, normal })
}

/// The earlier of two optional hits.
#[inline]
pub(crate) fn earlier(a: Option<RayHit>, b: Option<RayHit>) -> Option<RayHit> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.toi < x.toi { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}
