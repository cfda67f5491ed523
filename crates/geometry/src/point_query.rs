//! The answer type of point queries.

use crate::math::Point;

/// The point of a shape's boundary closest to a query point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection {
    /// The closest point on the shape's boundary.
    pub point: Point,
    /// True when the query point lies inside the shape or on its boundary.
    pub is_inside: bool,
}
