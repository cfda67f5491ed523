//! Capsule or segment against capsule or segment: the polygon pair's algorithm
//! on two-vertex polygons, without building the general eight-slot view.
//!
//! A segment is a two-vertex polygon whose two "edges" are its two sides: edge 0
//! runs from the first end to the second with the outward normal on its right,
//! edge 1 runs back with the opposite normal. The separating-axis test therefore
//! has two axes per segment and two vertices to project, and everything after it
//! (reference edge with hysteresis, incident edge, clipping, the closest points of
//! apart cores, feature ids) is the polygon pair's own, so both paths give the
//! same manifold (but where clipping keeps nothing for overlapping cores: see
//! `manifold_from_edges` in `polygons.rs`).

use lamina_geometry::math::{right_perp, try_normalize};
use lamina_geometry::tolerance::REFERENCE_HYSTERESIS;
use lamina_geometry::{Isometry, Point, Real, Shape, Vec2};

use crate::clip::Edge;
use crate::manifold::LocalManifold;
use crate::pairs::polygons::manifold_from_edges;

/// A capsule's or segment's core segment and radius, in a chosen frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentView {
    /// First end.
    pub a: Point,
    /// Second end.
    pub b: Point,
    /// Unit normal on the right of `a → b` (edge 0's normal).
    pub normal: Vec2,
    /// Rounding radius.
    pub radius: Real,
}

impl SegmentView {
    /// The segment of a capsule or segment shape placed by `xf`; `None` for other shapes.
    #[inline]
    pub fn placed(shape: &Shape, xf: &Isometry) -> Option<Self> {
        let (a, b, radius) = match shape {
            Shape::Capsule(c) => (c.a, c.b, c.radius),
            Shape::Segment(s) => (s.a, s.b, 0.0),
            _ => return None,
        };
        Some(Self::new(xf * a, xf * b, radius))
    }

    /// The segment of a capsule or segment shape in its own frame.
    #[inline]
    pub fn local(shape: &Shape) -> Option<Self> {
        match shape {
            Shape::Capsule(c) => Some(Self::new(c.a, c.b, c.radius)),
            Shape::Segment(s) => Some(Self::new(s.a, s.b, 0.0)),
            _ => None,
        }
    }

    #[inline]
    fn new(a: Point, b: Point, radius: Real) -> Self {
        // The same normal (and fallback) as the polygon view's.
        let normal = try_normalize(&right_perp(&(b - a))).unwrap_or_else(Vec2::y);
        Self { a, b, normal, radius }
    }

    /// Edge `i` (0 or 1) with its feature ids.
    #[inline]
    fn edge(&self, i: usize) -> Edge {
        if i == 0 {
            Edge { v1: self.a, v2: self.b, normal: self.normal, id1: 0, id2: 1, radius: self.radius }
        } else {
            Edge { v1: self.b, v2: self.a, normal: -self.normal, id1: 1, id2: 0, radius: self.radius }
        }
    }

    /// The side of `self` in front of which `other` lies farthest, and that
    /// separation (the first of equals, as the polygon pair picks).
    #[inline]
    fn max_separation(&self, other: &Self) -> (usize, Real) {
        let n = self.normal;
        let s0 = n.dot(&(other.a - self.a)).min(n.dot(&(other.b - self.a)));
        let s1 = (-n).dot(&(other.a - self.b)).min((-n).dot(&(other.b - self.b)));
        if s1 > s0 { (1, s1) } else { (0, s0) }
    }

    /// The side whose normal points most against `n` (the first of equals).
    #[inline]
    fn most_opposed_edge(&self, n: &Vec2) -> usize {
        let d0 = self.normal.dot(n);
        if -d0 < d0 { 1 } else { 0 }
    }
}

/// Segment A and segment B (with their radii), both in A's frame.
#[inline]
pub fn collide_segments(a: &SegmentView, b: &SegmentView, margin: Real) -> LocalManifold {
    let (edge_a, separation_a) = a.max_separation(b);
    let (edge_b, separation_b) = b.max_separation(a);
    // A segment's two sides are not all its axes: two segments end to end in
    // one line are apart along their length while both sides read about 0.
    // The cores' true distance covers that axis too (it is 0 for crossing
    // cores, which the sides then settle).
    let (s, t) = crate::segment_distance::segment_closest_parameters(&a.a, &a.b, &b.a, &b.b);
    let core_distance = ((a.a + (a.b - a.a) * s) - (b.a + (b.b - b.a) * t)).norm();
    if separation_a.max(separation_b).max(core_distance) > margin + a.radius + b.radius {
        return LocalManifold::default();
    }
    let flip = separation_b > separation_a + REFERENCE_HYSTERESIS;
    let (reference, incident, reference_edge, separation) =
        if flip { (b, a, edge_b, separation_b) } else { (a, b, edge_a, separation_a) };
    let separation = separation.max(core_distance);
    let ref_e = reference.edge(reference_edge);
    let inc_e = incident.edge(incident.most_opposed_edge(&ref_e.normal));
    manifold_from_edges(&ref_e, &inc_e, separation, flip, margin, false)
}
