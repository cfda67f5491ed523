//! One link of a chain: a one-sided segment that knows its neighbours.
//!
//! A floor built of separate segments or boxes snags a shape sliding across a
//! seam: near the seam, the next segment's end point is the closest feature,
//! and its normal points sideways ("ghost collisions"). A chain segment knows
//! the far points of its neighbours (the ghost vertices), so the narrow phase
//! can tell a normal that no smooth surface would have and replace it with the
//! segment's own; and it is solid on its right side only, looking from `a` to
//! `b`, so a loop listed clockwise holds bodies inside it.

use crate::aabb::Aabb;
use crate::error::ShapeError;
use crate::mass::MassProperties;
use crate::math::{Isometry, Point, Real, Vec2, cross, is_finite_point, right_perp, try_normalize};
use crate::point_query::PointProjection;
use crate::ray::{Ray, RayHit};
use crate::shapes::segment::Segment;
use crate::support::SupportMap;

/// A one-sided segment from `segment.a` to `segment.b`, solid on its right
/// (the side of `right_perp(b − a)`), with its neighbours' far points.
/// Like a segment it has no area and no mass.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChainSegment {
    /// The segment itself.
    pub segment: Segment,
    /// The point before `segment.a` on the chain, or `None` at an open end.
    pub ghost_prev: Option<Point>,
    /// The point after `segment.b` on the chain, or `None` at an open end.
    pub ghost_next: Option<Point>,
}

impl ChainSegment {
    /// Checks that every point is finite and the end points distinct.
    pub fn validate(&self) -> Result<(), ShapeError> {
        crate::shapes::segment::validate_end_points("chain segment", &self.segment.a, &self.segment.b)?;
        for (index, ghost) in [(2, self.ghost_prev), (3, self.ghost_next)] {
            if let Some(p) = ghost.filter(|p| !is_finite_point(p)) {
                return Err(ShapeError::NonFinitePoint { index, point: p });
            }
        }
        Ok(())
    }

    /// The unit normal of the solid side, `right_perp(b − a)` normalised
    /// (up, for a segment of no length, which `validate` refuses).
    pub fn normal(&self) -> Vec2 {
        try_normalize(&right_perp(&(self.segment.b - self.segment.a))).unwrap_or_else(Vec2::y)
    }

    /// World-space bounds under `pose`.
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        self.segment.aabb(pose)
    }

    /// No area, no mass.
    pub fn mass_properties(&self, density: Real) -> MassProperties {
        self.segment.mass_properties(density)
    }

    /// Ray cast in the local frame, from the solid side only: a ray that
    /// starts behind the segment (on its left) passes through.
    pub fn cast_local_ray(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        let (a, b) = (self.segment.a, self.segment.b);
        if cross(&(b - a), &(ray.origin - a)) > 0.0 {
            return None;
        }
        let hit = self.segment.cast_local_ray(ray, max_toi)?;
        // A ray along the segment reports no surface normal; one from the
        // solid side reports the solid side's.
        (hit.normal.dot(&self.normal()) > 0.5).then_some(hit)
    }

    /// Closest point of the segment to `p`, local frame.
    pub fn project_local_point(&self, p: &Point) -> PointProjection {
        self.segment.project_local_point(p)
    }
}

impl SupportMap for ChainSegment {
    #[inline]
    fn support_point(&self, dir: &Vec2) -> Point {
        self.segment.support_point(dir)
    }
}
