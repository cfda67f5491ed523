//! A shape split into a *core* and a radius.
//!
//! A circle is a point grown by its radius, a capsule a segment grown by its
//! radius, a rounded polygon a polygon grown by its radius. GJK runs on the cores
//! and subtracts the radii afterwards, so that shallow contacts between rounded
//! shapes, the common case, never need EPA: the cores are still apart.

use lamina_geometry::{Ellipse, Point, Polygon, Real, Shape, SupportMap, Vec2};

/// The sharp part of a shape, which GJK and EPA see.
#[derive(Clone, Copy)]
pub enum Core<'a> {
    /// A circle's centre.
    Point(Point),
    /// A capsule's or a segment's core segment.
    Segment(Point, Point),
    /// A polygon without its rounding.
    Polygon(&'a Polygon),
    /// An ellipse: smooth, no radius to take off.
    Ellipse(&'a Ellipse),
    /// Any convex shape known only by its support map.
    Custom(&'a dyn SupportMap),
}

impl<'a> Core<'a> {
    /// The core of `shape` and the radius that rounds it.
    #[inline]
    pub fn of(shape: &'a Shape) -> (Core<'a>, Real) {
        match shape {
            Shape::Circle(c) => (Core::Point(Point::origin()), c.radius),
            Shape::Capsule(c) => (Core::Segment(c.a, c.b), c.radius),
            Shape::Segment(s) => (Core::Segment(s.a, s.b), 0.0),
            Shape::ChainSegment(c) => (Core::Segment(c.segment.a, c.segment.b), 0.0),
            Shape::Polygon(p) => (Core::Polygon(p), p.radius()),
            Shape::Ellipse(e) => (Core::Ellipse(e), 0.0),
        }
    }

    /// A point inside the core, to aim the first GJK search direction.
    pub fn interior_point(&self) -> Point {
        match self {
            Core::Point(p) => *p,
            Core::Segment(a, b) => nalgebra::center(a, b),
            Core::Polygon(p) => p.centroid(),
            Core::Ellipse(_) => Point::origin(),
            Core::Custom(s) => {
                let (px, nx) = (s.support_point(&Vec2::x()), s.support_point(&-Vec2::x()));
                nalgebra::center(&px, &nx)
            }
        }
    }
}

impl SupportMap for Core<'_> {
    #[inline]
    fn support_point(&self, dir: &Vec2) -> Point {
        match self {
            Core::Point(p) => *p,
            Core::Segment(a, b) => {
                if b.coords.dot(dir) > a.coords.dot(dir) {
                    *b
                } else {
                    *a
                }
            }
            Core::Polygon(p) => p.vertices()[p.support_index(dir)],
            Core::Ellipse(e) => e.support_point(dir),
            Core::Custom(s) => s.support_point(dir),
        }
    }
}
