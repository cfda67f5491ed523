//! Small convex polygons, capsules and segments seen alike: up to
//! [`MAX_SAT_VERTICES`] vertices with edge normals and a radius, in a chosen
//! frame. The separating-axis pair functions work on this one form.
//!
//! A view is 144 bytes in f32, past what the compiler copies inline, and it is made
//! for every pair of every step: its constructors are always inlined, so
//! that it is built where the pair function reads it. Built in a call of
//! its own and handed back, it went through `memcpy` on the way, which cost
//! a tenth of the spinner's narrow phase.

use lamina_geometry::math::right_perp;
use lamina_geometry::{Isometry, Point, Polygon, Real, Shape, Vec2};

/// Polygons with at most this many vertices collide by the separating-axis
/// test, whose cost grows with the product of the vertex counts; larger ones take
/// the GJK path, whose support queries are logarithmic.
pub const MAX_SAT_VERTICES: usize = 8;

/// A convex polygon of 2 to [`MAX_SAT_VERTICES`] vertices (2 for a segment, whose
/// two "edges" are its two sides), counter-clockwise, with a rounding radius.
#[derive(Clone, Copy, Debug)]
pub struct PolyView {
    /// Vertices; the first `count` are live.
    pub vertices: [Point; MAX_SAT_VERTICES],
    /// Outward unit normal of edge `i` (vertex `i` to `i + 1`).
    pub normals: [Vec2; MAX_SAT_VERTICES],
    /// How many vertices.
    pub count: usize,
    /// Rounding radius.
    pub radius: Real,
}

impl PolyView {
    /// True for shapes this form holds: small polygons, capsules and segments.
    pub fn fits(shape: &Shape) -> bool {
        match shape {
            Shape::Polygon(p) => p.vertices().len() <= MAX_SAT_VERTICES,
            Shape::Capsule(_) | Shape::Segment(_) => true,
            // A chain segment is one-sided: it has its own pair function.
            Shape::Circle(_) | Shape::Ellipse(_) | Shape::ChainSegment(_) => false,
        }
    }

    /// The shape in its own frame. `shape` must [`fit`](PolyView::fits).
    #[inline(always)]
    pub fn local(shape: &Shape) -> Self {
        Self::build(shape, |p| p, |n| n)
    }

    /// The shape placed by `xf`. `shape` must [`fit`](PolyView::fits).
    #[inline(always)]
    pub fn placed(shape: &Shape, xf: &Isometry) -> Self {
        Self::build(shape, |p| xf * p, |n| xf.rotation * n)
    }

    /// The view with every vertex moved by `place` and every normal turned by `turn`.
    #[inline(always)]
    fn build(shape: &Shape, place: impl Fn(Point) -> Point, turn: impl Fn(Vec2) -> Vec2) -> Self {
        let mut view = Self::empty();
        match shape {
            Shape::Polygon(p) => view.set_polygon(p, place, turn),
            Shape::Capsule(c) => view.set_segment(place(c.a), place(c.b), c.radius),
            Shape::Segment(s) => view.set_segment(place(s.a), place(s.b), 0.0),
            Shape::Circle(_) | Shape::Ellipse(_) | Shape::ChainSegment(_) => {}
        }
        view
    }

    /// A small polygon (at most [`MAX_SAT_VERTICES`] vertices are kept) in its own frame.
    #[inline]
    pub fn of_polygon(polygon: &Polygon) -> Self {
        let mut view = Self::empty();
        view.set_polygon(polygon, |p| p, |n| n);
        view
    }

    /// A small polygon (at most [`MAX_SAT_VERTICES`] vertices are kept) placed by `xf`.
    #[inline]
    pub fn of_placed_polygon(polygon: &Polygon, xf: &Isometry) -> Self {
        let mut view = Self::empty();
        view.set_polygon(polygon, |p| xf * p, |n| xf.rotation * n);
        view
    }

    #[inline(always)]
    fn empty() -> Self {
        PolyView {
            vertices: [Point::origin(); MAX_SAT_VERTICES],
            normals: [Vec2::zeros(); MAX_SAT_VERTICES],
            count: 0,
            radius: 0.0,
        }
    }

    #[inline(always)]
    fn set_polygon(&mut self, p: &Polygon, place: impl Fn(Point) -> Point, turn: impl Fn(Vec2) -> Vec2) {
        self.count = p.vertices().len().min(MAX_SAT_VERTICES);
        for i in 0..self.count {
            self.vertices[i] = place(p.vertices()[i]);
            self.normals[i] = turn(p.normals()[i]);
        }
        self.radius = p.radius();
    }

    #[inline(always)]
    fn set_segment(&mut self, a: Point, b: Point, radius: Real) {
        let n = lamina_geometry::math::try_normalize(&right_perp(&(b - a))).unwrap_or_else(Vec2::y);
        self.vertices[0] = a;
        self.vertices[1] = b;
        self.normals[0] = n;
        self.normals[1] = -n;
        self.count = 2;
        self.radius = radius;
    }

    /// The live vertices.
    #[inline]
    pub fn vertices(&self) -> &[Point] {
        &self.vertices[..self.count]
    }

    /// The index after `i`, cyclically.
    #[inline]
    pub fn next(&self, i: usize) -> usize {
        if i + 1 == self.count { 0 } else { i + 1 }
    }
}
