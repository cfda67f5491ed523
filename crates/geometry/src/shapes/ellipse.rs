//! An axis-aligned ellipse centred on the local origin: a smooth convex shape
//! with no closed-form contact features, collided through the general GJK/EPA path.

use crate::aabb::Aabb;
use crate::error::ShapeError;
use crate::mass::MassProperties;
use crate::math::{Isometry, PI, Point, Real, Vec2, try_normalize};
use crate::point_query::PointProjection;
use crate::ray::{Ray, RayHit};
use crate::support::SupportMap;
use crate::tolerance::MIN_SHAPE_SIZE;
use crate::tolerance::ROOT_FINDER_MAX_ITERATIONS;

/// The ellipse x²/rx² + y²/ry² ≤ 1.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ellipse {
    /// Semi-axis along local x, in metres.
    pub rx: Real,
    /// Semi-axis along local y, in metres.
    pub ry: Real,
}

impl Ellipse {
    /// Checks that both radii are finite and positive.
    pub fn validate(&self) -> Result<(), ShapeError> {
        let ok = |r: Real| r.is_finite() && r >= MIN_SHAPE_SIZE;
        if ok(self.rx) && ok(self.ry) {
            Ok(())
        } else {
            Err(ShapeError::InvalidEllipseRadii { rx: self.rx, ry: self.ry })
        }
    }

    /// World-space bounds under `pose`: the support extents along x and y, in closed form.
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        let (c, s) = (pose.rotation.re, pose.rotation.im);
        let (a2, b2) = (self.rx * self.rx, self.ry * self.ry);
        let half = Vec2::new((a2 * c * c + b2 * s * s).sqrt(), (a2 * s * s + b2 * c * c).sqrt());
        Aabb::from_half_extents(Point::from(pose.translation.vector), half)
    }

    /// m = ρπab, I = m(a² + b²)/4.
    pub fn mass_properties(&self, density: Real) -> MassProperties {
        let mass = density * PI * self.rx * self.ry;
        MassProperties {
            mass,
            center: Point::origin(),
            inertia: 0.25 * mass * (self.rx * self.rx + self.ry * self.ry),
        }
    }

    /// Ray cast in the local frame: scaling by (1/rx, 1/ry) maps the ellipse to
    /// the unit disc and keeps the ray parameter, so it is a circle cast.
    pub fn cast_local_ray(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        // An ellipse without positive finite radii (made without validation) has
        // no unit-disc image to cast against.
        if self.validate().is_err() {
            return None;
        }
        let scale = Vec2::new(1.0 / self.rx, 1.0 / self.ry);
        let unit =
            Ray::new(Point::from(ray.origin.coords.component_mul(&scale)), ray.dir.component_mul(&scale));
        let hit = crate::ray::ray_circle(&unit, &Point::origin(), 1.0, max_toi)?;
        if hit.toi == 0.0 {
            return Some(ray.inside_hit());
        }
        let p = ray.point_at(hit.toi);
        let normal = try_normalize(&Vec2::new(p.x / (self.rx * self.rx), p.y / (self.ry * self.ry)))
            .unwrap_or_else(|| ray.inside_normal());
        Some(RayHit { toi: hit.toi, normal })
    }

    /// Closest boundary point to `p`, local frame.
    ///
    /// Follows the robust bisection of D. Eberly, "Distance from a Point to an
    /// Ellipse": the closest point is `x = r²y / (t + r²)` per axis for the one root
    /// `t` of a monotone function, found by bisection, which cannot diverge.
    pub fn project_local_point(&self, p: &Point) -> PointProjection {
        let is_inside = (p.x / self.rx).powi(2) + (p.y / self.ry).powi(2) <= 1.0;
        // Work in the first quadrant with the major axis first, then map back.
        let swap = self.rx < self.ry;
        let (e0, e1) = if swap { (self.ry, self.rx) } else { (self.rx, self.ry) };
        let (q0, q1) = if swap { (p.y, p.x) } else { (p.x, p.y) };
        let (x0, x1) = closest_in_first_quadrant(e0, e1, q0.abs(), q1.abs());
        let (x0, x1) = (x0.copysign(q0), x1.copysign(q1));
        let point = if swap { Point::new(x1, x0) } else { Point::new(x0, x1) };
        PointProjection { point, is_inside }
    }
}

/// Closest point of the ellipse with semi-axes `e0 >= e1` to `(y0, y1)`, both
/// coordinates non-negative.
fn closest_in_first_quadrant(e0: Real, e1: Real, y0: Real, y1: Real) -> (Real, Real) {
    if y1 > 0.0 {
        if y0 > 0.0 {
            let (z0, z1) = (y0 / e0, y1 / e1);
            let g = z0 * z0 + z1 * z1 - 1.0;
            if g == 0.0 {
                return (y0, y1);
            }
            let r0 = (e0 / e1) * (e0 / e1);
            let s = bisect_root(r0, z0, z1, g);
            return (r0 * y0 / (s + r0), y1 / (s + 1.0));
        }
        return (0.0, e1);
    }
    // On the major axis: inside the evolute's reach the closest point is off-axis.
    let numer = e0 * y0;
    let denom = e0 * e0 - e1 * e1;
    if numer < denom {
        let x0 = e0 * numer / denom;
        let x1 = e1 * (1.0 - (x0 / e0) * (x0 / e0)).max(0.0).sqrt();
        (x0, x1)
    } else {
        (e0, 0.0)
    }
}

/// The root `s` of (r0 z0 / (s + r0))² + (z1 / (s + 1))² = 1, bracketed by
/// `[z1 - 1, |(r0 z0, z1)| - 1]` (or `[z1 - 1, 0]` inside), by bisection.
fn bisect_root(r0: Real, z0: Real, z1: Real, g: Real) -> Real {
    let n0 = r0 * z0;
    let mut s0 = z1 - 1.0;
    let mut s1 = if g < 0.0 { 0.0 } else { n0.hypot(z1) - 1.0 };
    let mut s = s0;
    for _ in 0..ROOT_FINDER_MAX_ITERATIONS {
        s = 0.5 * (s0 + s1);
        if s == s0 || s == s1 {
            break;
        }
        let (ratio0, ratio1) = (n0 / (s + r0), z1 / (s + 1.0));
        let g = ratio0 * ratio0 + ratio1 * ratio1 - 1.0;
        if g > 0.0 {
            s0 = s;
        } else if g < 0.0 {
            s1 = s;
        } else {
            break;
        }
    }
    s
}

impl SupportMap for Ellipse {
    #[inline]
    fn support_point(&self, dir: &Vec2) -> Point {
        // The support of x²/a² + y²/b² ≤ 1 along d is (a² dx, b² dy) / |(a dx, b dy)|.
        let scaled = Vec2::new(self.rx * dir.x, self.ry * dir.y);
        let len = scaled.norm();
        if len > 0.0 && len.is_finite() {
            Point::new(self.rx * scaled.x / len, self.ry * scaled.y / len)
        } else {
            Point::new(self.rx, 0.0)
        }
    }
}
