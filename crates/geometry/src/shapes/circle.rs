//! A disc centred on the local origin.

use crate::aabb::Aabb;
use crate::error::ShapeError;
use crate::mass::MassProperties;
use crate::math::{Isometry, PI, Point, Real, Vec2, try_normalize};
use crate::point_query::PointProjection;
use crate::ray::{Ray, RayHit, ray_circle};
use crate::support::SupportMap;
use crate::tolerance::MIN_SHAPE_SIZE;

/// A disc of `radius` around the local origin.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Circle {
    /// Radius in metres.
    pub radius: Real,
}

impl Circle {
    /// Checks that the radius is finite and positive.
    pub fn validate(&self) -> Result<(), ShapeError> {
        if self.radius.is_finite() && self.radius >= MIN_SHAPE_SIZE {
            Ok(())
        } else {
            Err(ShapeError::InvalidRadius { shape: "circle", radius: self.radius })
        }
    }

    /// World-space bounds under `pose`.
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        let c = Point::from(pose.translation.vector);
        Aabb::from_half_extents(c, Vec2::new(self.radius, self.radius))
    }

    /// m = ρπr², I = m r² / 2.
    pub fn mass_properties(&self, density: Real) -> MassProperties {
        let mass = density * PI * self.radius * self.radius;
        MassProperties { mass, center: Point::origin(), inertia: 0.5 * mass * self.radius * self.radius }
    }

    /// Ray cast in the local frame.
    pub fn cast_local_ray(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        ray_circle(ray, &Point::origin(), self.radius, max_toi)
    }

    /// Closest boundary point to `p`, local frame. The centre projects along +x.
    pub fn project_local_point(&self, p: &Point) -> PointProjection {
        let dir = try_normalize(&p.coords).unwrap_or_else(|| Vec2::new(1.0, 0.0));
        PointProjection {
            point: Point::from(dir * self.radius),
            is_inside: p.coords.norm_squared() <= self.radius * self.radius,
        }
    }
}

impl SupportMap for Circle {
    #[inline]
    fn support_point(&self, dir: &Vec2) -> Point {
        let d = try_normalize(dir).unwrap_or_else(|| Vec2::new(1.0, 0.0));
        Point::from(d * self.radius)
    }
}
