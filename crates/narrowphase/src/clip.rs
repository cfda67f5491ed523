//! Clipping an incident edge against a reference edge: the two contact points
//! of a face-to-face contact.
//!
//! The reference edge is the edge whose outward normal best matches the contact
//! normal; the incident edge is the other shape's edge that faces it most
//! squarely. The incident edge is cut by the reference edge's two side planes
//! (the lines through its ends, perpendicular to it); each surviving end is a
//! contact point, kept if it lies behind the reference face or within the
//! speculative margin in front of it.

use arrayvec::ArrayVec;
use lamina_geometry::{Point, Real, Vec2};

use crate::manifold::{FeatureId, LocalPoint};

/// Two directions closer than about 2.6° count as facing each other: flat enough
/// that clipping gives a stable two-point contact.
pub const FACING_COS: Real = 0.999;

/// A core edge with its rounding radius and the feature ids of its ends.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// Start of the edge (counter-clockwise order on its shape).
    pub v1: Point,
    /// End of the edge.
    pub v2: Point,
    /// Outward unit normal.
    pub normal: Vec2,
    /// Feature id of `v1` on its shape.
    pub id1: usize,
    /// Feature id of `v2` on its shape.
    pub id2: usize,
    /// The shape's rounding radius.
    pub radius: Real,
}

/// Contact points of `incident` against `reference`, with the reference normal
/// (pointing from the reference shape to the incident one). Ids are
/// `(reference feature, incident feature)`.
#[inline(always)]
pub fn clip(reference: &Edge, incident: &Edge, margin: Real) -> ArrayVec<LocalPoint, 2> {
    let n = reference.normal;
    // The edge runs counter-clockwise, so its unit tangent is the normal turned a
    // quarter turn left; no square root needed.
    let t = Vec2::new(-n.y, n.x);
    let length = t.dot(&(reference.v2 - reference.v1));
    if length.is_nan() || length <= 0.0 {
        return ArrayVec::new();
    }

    // Order the incident ends along the reference edge's tangent.
    let (a1, a2) = (t.dot(&(incident.v1 - reference.v1)), t.dot(&(incident.v2 - reference.v1)));
    let ((p, ap, pid), (q, aq, qid)) = if a1 <= a2 {
        ((incident.v1, a1, incident.id1), (incident.v2, a2, incident.id2))
    } else {
        ((incident.v2, a2, incident.id2), (incident.v1, a1, incident.id1))
    };

    // Cut the incident edge at the side planes (parameters 0 and `length`). An
    // edge wholly beyond one side plane does not face the reference edge at all.
    if aq < 0.0 || ap > length {
        return ArrayVec::new();
    }
    let lower = if ap < 0.0 { cut(p, ap, q, aq, 0.0) } else { p };
    let upper = if aq > length { cut(p, ap, q, aq, length) } else { q };

    let radius = reference.radius + incident.radius;
    let point = |x: Point, ref_id: usize, inc_id: usize| {
        let depth_along_normal = n.dot(&(x - reference.v1));
        // Midway between the reference surface and the incident surface.
        let point = x + n * (0.5 * (reference.radius - incident.radius - depth_along_normal));
        LocalPoint { point, separation: depth_along_normal - radius, id: FeatureId::new(ref_id, inc_id) }
    };
    both_within(point(lower, reference.id1, pid), point(upper, reference.id2, qid), margin)
}

/// [`clip`] for a reference edge that is the top edge of a box in the box's own
/// frame: from `(hx, hy)` to `(−hx, hy)`, normal +y. The side planes are then
/// `x = ±hx` and the depth is read off `y`, so no dot products are needed;
/// the points and ids are those [`clip`] gives.
#[inline(always)]
pub fn clip_top(reference: &Edge, incident: &Edge, margin: Real) -> ArrayVec<LocalPoint, 2> {
    let h = reference.v1;
    if h.x.is_nan() || h.x <= 0.0 {
        return ArrayVec::new();
    }
    // The edge runs from +hx to −hx: order the incident ends by falling x.
    let ((p, pid), (q, qid)) = if incident.v1.x >= incident.v2.x {
        ((incident.v1, incident.id1), (incident.v2, incident.id2))
    } else {
        ((incident.v2, incident.id2), (incident.v1, incident.id1))
    };
    if q.x > h.x || p.x < -h.x {
        return ArrayVec::new();
    }
    let lower = if p.x > h.x { cut(p, -p.x, q, -q.x, -h.x) } else { p };
    let upper = if q.x < -h.x { cut(p, -p.x, q, -q.x, h.x) } else { q };

    let radius = reference.radius + incident.radius;
    let point = |x: Point, ref_id: usize, inc_id: usize| {
        let depth = x.y - h.y;
        let point = Point::new(x.x, x.y + 0.5 * (reference.radius - incident.radius - depth));
        LocalPoint { point, separation: depth - radius, id: FeatureId::new(ref_id, inc_id) }
    };
    both_within(point(lower, reference.id1, pid), point(upper, reference.id2, qid), margin)
}

/// The points of `first` and `second` no farther apart than `margin`, as a vector
/// built whole: one filled through its length is copied back out of memory at
/// every return, field by field.
#[inline(always)]
fn both_within(first: LocalPoint, second: LocalPoint, margin: Real) -> ArrayVec<LocalPoint, 2> {
    match (first.separation <= margin, second.separation <= margin) {
        (true, true) => ArrayVec::from([first, second]),
        (true, false) => one(first),
        (false, true) => one(second),
        (false, false) => ArrayVec::new(),
    }
}

/// The point at tangent parameter `s` on the edge from `p` (parameter `ap`) to
/// `q` (parameter `aq`, not below `ap`); `p` itself when the edge is square to
/// the tangent.
#[inline(always)]
fn cut(p: Point, ap: Real, q: Point, aq: Real, s: Real) -> Point {
    let span = aq - ap;
    if span > 0.0 { p + (q - p) * ((s - ap) / span) } else { p }
}

/// A vector holding `p` alone.
#[inline(always)]
fn one(p: LocalPoint) -> ArrayVec<LocalPoint, 2> {
    let mut out = ArrayVec::new();
    out.push(p);
    out
}
