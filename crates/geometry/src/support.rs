//! The support-map abstraction that GJK and EPA are written against.

use crate::math::{Isometry, Point, Vec2};

/// A convex shape described by its support function: for a direction `d`, the
/// point of the shape farthest along `d`.
///
/// Every Lamina shape implements it, and so can user shapes: anything convex with
/// a support function collides with everything else through the general GJK/EPA
/// path. Directions need not be unit length; a zero direction may return any point
/// of the shape but must not produce NaN.
pub trait SupportMap {
    /// The farthest point along `dir`, both in the shape's local frame.
    fn support_point(&self, dir: &Vec2) -> Point;

    /// The farthest point along the world direction `dir` of the shape placed at
    /// `pose`, in world coordinates.
    #[inline]
    fn support_point_world(&self, pose: &Isometry, dir: &Vec2) -> Point {
        pose * self.support_point(&pose.rotation.inverse_transform_vector(dir))
    }
}

impl<T: SupportMap + ?Sized> SupportMap for &T {
    #[inline]
    fn support_point(&self, dir: &Vec2) -> Point {
        (**self).support_point(dir)
    }
}
