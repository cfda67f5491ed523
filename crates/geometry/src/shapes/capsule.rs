//! A capsule: the set of points within `radius` of a segment.

use crate::aabb::Aabb;
use crate::error::ShapeError;
use crate::mass::{AreaMoments, MassProperties};
use crate::math::{Isometry, PI, Point, Real, Vec2, left_perp, right_perp, try_normalize};
use crate::point_query::PointProjection;
use crate::ray::{Ray, RayHit, earlier, ray_circle, ray_segment_front};
use crate::shapes::segment::{closest_on_segment, validate_end_points};
use crate::support::SupportMap;
use crate::tolerance::MIN_SHAPE_SIZE;

/// Every point within `radius` of the segment `a`–`b` (its core).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Capsule {
    /// First end of the core segment.
    pub a: Point,
    /// Second end of the core segment.
    pub b: Point,
    /// Radius in metres.
    pub radius: Real,
}

impl Capsule {
    /// Checks finite, distinct end points and a finite positive radius.
    pub fn validate(&self) -> Result<(), ShapeError> {
        validate_end_points("capsule", &self.a, &self.b)?;
        if self.radius.is_finite() && self.radius >= MIN_SHAPE_SIZE {
            Ok(())
        } else {
            Err(ShapeError::InvalidRadius { shape: "capsule", radius: self.radius })
        }
    }

    /// World-space bounds under `pose`.
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        let (a, b) = (pose * self.a, pose * self.b);
        Aabb::new(a.inf(&b), a.sup(&b)).loosened(self.radius)
    }

    /// A rectangle along the core plus two half discs, summed as exact moments.
    pub fn mass_properties(&self, density: Real) -> MassProperties {
        let axis = self.b - self.a;
        let Some(u) = try_normalize(&axis) else {
            // A zero-length capsule is a disc.
            let disc = crate::shapes::circle::Circle { radius: self.radius };
            return disc.mass_properties(density).transformed(&Isometry::translation(self.a.x, self.a.y));
        };
        let side = left_perp(&u) * self.radius;
        let mut m = AreaMoments::default();
        // Moments about `a`: the core rectangle, then a half disc at each end.
        m.add_polygon([-side, axis - side, axis + side, side].into_iter());
        m.add_sector(&Vec2::zeros(), self.radius, &-u, 0.5 * PI);
        m.add_sector(&axis, self.radius, &u, 0.5 * PI);
        m.into_mass(density, &self.a)
    }

    /// Ray cast in the local frame: the first hit among the two flat sides and
    /// the two end discs.
    pub fn cast_local_ray(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        if self.project_local_point(&ray.origin).is_inside {
            return Some(ray.inside_hit());
        }
        let Some(u) = try_normalize(&(self.b - self.a)) else {
            return ray_circle(ray, &self.a, self.radius, max_toi);
        };
        let offset = right_perp(&u) * self.radius;
        let sides = earlier(
            ray_segment_front(ray, &(self.a + offset), &(self.b + offset), max_toi),
            ray_segment_front(ray, &(self.b - offset), &(self.a - offset), max_toi),
        );
        let caps = earlier(
            ray_circle(ray, &self.a, self.radius, max_toi),
            ray_circle(ray, &self.b, self.radius, max_toi),
        );
        earlier(sides, caps)
    }

    /// Closest boundary point to `p`, local frame.
    pub fn project_local_point(&self, p: &Point) -> PointProjection {
        let (q, _) = closest_on_segment(&self.a, &self.b, p);
        let d = p - q;
        let dir = try_normalize(&d)
            .or_else(|| try_normalize(&right_perp(&(self.b - self.a))))
            .unwrap_or_else(|| Vec2::new(1.0, 0.0));
        PointProjection {
            point: q + dir * self.radius,
            is_inside: d.norm_squared() <= self.radius * self.radius,
        }
    }
}

impl SupportMap for Capsule {
    #[inline]
    fn support_point(&self, dir: &Vec2) -> Point {
        let end = if self.b.coords.dot(dir) > self.a.coords.dot(dir) { self.b } else { self.a };
        end + try_normalize(dir).unwrap_or_else(|| Vec2::new(1.0, 0.0)) * self.radius
    }
}
