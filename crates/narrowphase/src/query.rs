//! The public pair queries on [`Shape`]s: overlap, distance, penetration.
//!
//! Each query reduces the shapes to cores and radii, moves B into A's frame,
//! runs GJK (and EPA when the cores overlap), and maps the answer back to the world.

use lamina_geometry::{Isometry, Point, Real, Shape, Vec2};

use crate::gjk::gjk_within;
use crate::pair::CorePair;

/// The distance between two shapes and where it is reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distance {
    /// The distance, 0 when the shapes overlap or touch.
    pub distance: Real,
    /// The point of A closest to B (world frame).
    pub point_a: Point,
    /// The point of B closest to A (world frame).
    pub point_b: Point,
    /// Unit direction from A to B (world frame). For overlapping shapes, the
    /// direction in which B should move to separate.
    pub normal: Vec2,
}

/// How deep two overlapping shapes are in each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// The length of the smallest translation of B that separates the shapes.
    pub depth: Real,
    /// Unit direction of that translation, from A to B (world frame).
    pub normal: Vec2,
    /// The point of A deepest inside B (world frame).
    pub point_a: Point,
    /// The point of B deepest inside A (world frame); `point_a - point_b = normal * depth`.
    pub point_b: Point,
}

/// True when the shapes overlap or touch. Stops as soon as a separating
/// direction is found.
pub fn intersects(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry) -> bool {
    let pair = CorePair::new(a, pa, b, pb);
    gjk_within(&pair.a, &pair.b, &pair.xf, &pair.guess(), pair.radius_a + pair.radius_b)
}

/// The distance between two shapes with their closest points; 0 when they overlap.
pub fn distance(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry) -> Distance {
    let s = CorePair::new(a, pa, b, pb).separation();
    if s.distance > 0.0 {
        Distance {
            distance: s.distance,
            point_a: pa * s.point_a,
            point_b: pa * s.point_b,
            normal: pa * s.normal,
        }
    } else {
        // Overlapping: report the deepest points and the separating direction.
        Distance { distance: 0.0, point_a: pa * s.point_a, point_b: pa * s.point_b, normal: pa * s.normal }
    }
}

/// Depth, direction and deepest points of two overlapping (or touching) shapes;
/// `None` when they are apart.
pub fn penetration(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry) -> Option<Penetration> {
    let s = CorePair::new(a, pa, b, pb).separation();
    (s.distance <= 0.0).then(|| Penetration {
        depth: -s.distance,
        normal: pa * s.normal,
        point_a: pa * s.point_a,
        point_b: pa * s.point_b,
    })
}

/// The signed distance of two shapes: their distance apart, or minus their
/// penetration depth when they overlap.
pub fn signed_distance(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry) -> Real {
    CorePair::new(a, pa, b, pb).separation().distance
}

/// The signed distance of two shapes (negative: minus the penetration depth)
/// and the normal from A to B (world frame), by GJK and EPA alone: the general
/// path that the closed forms of [`distance`] and [`penetration`] stand in for,
/// so that tests can hold one against the other.
#[doc(hidden)]
pub fn signed_distance_by_gjk_epa(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry) -> (Real, Vec2) {
    let s = CorePair::new(a, pa, b, pb).core_separation();
    (s.distance, pa * s.normal)
}
