//! Box against box: the polygon pair's separating-axis test and clipping, with
//! the axes read off the half-extents.
//!
//! A box made by [`Polygon::rectangle`] keeps its half-extents, and its four edge
//! normals are ±x and ±y of its own frame. The separation of B in front of A's
//! edge along +x is then `c.x − hA.x − e.x`, where `c` is B's centre in A's frame
//! and `e.x = |cos θ| hB.x + |sin θ| hB.y` is B's half-width along A's x axis: four
//! separations per box in a handful of multiplications, instead of four vertices
//! transformed and sixteen dot products per side. The reference edge (with the
//! same hysteresis as `polygons.rs`: B's edge wins only if better by a tenth of the
//! linear slop) and the incident edge are chosen as the polygon pair chooses them.
//!
//! The contact is then worked out in the reference box's own frame, turned by a
//! quarter turn so that the reference edge is the top edge. There the reference
//! edge needs no transform, its side planes are `x = ±hx` and depths are read
//! off `y` ([`crate::clip::clip_top`]); everything else (closest features of
//! apart cores, the fallbacks, feature ids) is the polygon pair's, so both paths
//! give the same manifold (but where clipping keeps nothing for overlapping
//! cores: see `manifold_from_edges` in `polygons.rs`). [`crate::contact_manifold`] takes the points from that
//! frame straight to the world.

use lamina_geometry::tolerance::REFERENCE_HYSTERESIS;
use lamina_geometry::{Isometry, Point, Polygon, Real, Rotation, Shape, Vec2};
use nalgebra::Complex;

use crate::clip::Edge;
use crate::manifold::{ContactPoint, LocalManifold, LocalPoint, Manifold, placed_points};
use crate::pairs::polygons::manifold_from_edges;

/// A box: the half-extents and rounding radius of a polygon made by
/// [`Polygon::rectangle`] (vertex 0 at `(−hx, −hy)`, counter-clockwise).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxView {
    /// Half-width and half-height of the core.
    pub half_extents: Vec2,
    /// Rounding radius.
    pub radius: Real,
}

impl BoxView {
    /// The box behind `polygon`, if it was made as one.
    #[inline]
    pub fn of_polygon(polygon: &Polygon) -> Option<Self> {
        polygon.half_extents().map(|half_extents| Self { half_extents, radius: polygon.radius() })
    }

    /// The box behind `shape`, if it is one.
    #[inline]
    pub fn of(shape: &Shape) -> Option<Self> {
        match shape {
            Shape::Polygon(p) => Self::of_polygon(p),
            _ => None,
        }
    }

    /// Vertex `i` (0 to 3, counter-clockwise from the lower left), own frame.
    #[inline]
    pub fn vertex(&self, i: usize) -> Point {
        let h = self.half_extents;
        match i & 3 {
            0 => Point::new(-h.x, -h.y),
            1 => Point::new(h.x, -h.y),
            2 => Point::new(h.x, h.y),
            _ => Point::new(-h.x, h.y),
        }
    }

    /// Outward normal of edge `i` (vertex `i` to `i + 1`), own frame.
    #[inline]
    pub fn normal(i: usize) -> Vec2 {
        match i & 3 {
            0 => Vec2::new(0.0, -1.0),
            1 => Vec2::new(1.0, 0.0),
            2 => Vec2::new(0.0, 1.0),
            _ => Vec2::new(-1.0, 0.0),
        }
    }

    /// Edge `i` placed by `xf`, with its feature ids and the box's radius.
    #[inline]
    fn edge(&self, i: usize, xf: &Isometry) -> Edge {
        let j = (i + 1) & 3;
        Edge {
            v1: xf * self.vertex(i),
            v2: xf * self.vertex(j),
            normal: xf.rotation * Self::normal(i),
            id1: i,
            id2: j,
            radius: self.radius,
        }
    }
}

/// The four separations of a box of half-extents `h` (own frame) against a box
/// centred at `c` whose half-extents along the first box's axes are `e`, and the
/// best edge (the first of equals).
#[inline]
fn box_separations(h: Vec2, c: Vec2, e: Vec2) -> (usize, Real) {
    let s = [-c.y - e.y - h.y, c.x - e.x - h.x, c.y - e.y - h.y, -c.x - e.x - h.x];
    let mut best = (0, s[0]);
    for (i, &si) in s.iter().enumerate().skip(1) {
        if si > best.1 {
            best = (i, si);
        }
    }
    best
}

/// The best edge of box A (own frame) against box B placed by `xf`, and of B
/// against A (B's frame), each with its separation of the cores: B's centre
/// and half-extents read along A's axes, and A's along B's.
#[inline(always)]
pub(crate) fn box_axes(a: &BoxView, b: &BoxView, xf: &Isometry) -> [(usize, Real); 2] {
    let (ha, hb) = (a.half_extents, b.half_extents);
    let (ac, as_) = (xf.rotation.re.abs(), xf.rotation.im.abs());
    let c = xf.translation.vector;
    let eb = Vec2::new(ac * hb.x + as_ * hb.y, as_ * hb.x + ac * hb.y);
    let ca = -xf.rotation.inverse_transform_vector(&c);
    let ea = Vec2::new(ac * ha.x + as_ * ha.y, as_ * ha.x + ac * ha.y);
    [box_separations(ha, c, eb), box_separations(hb, ca, ea)]
}

/// The edge of a box whose normal points most against `n` (the box's frame);
/// the first of equals, as the polygon pair picks.
#[inline]
fn most_opposed_edge(n: Vec2) -> usize {
    let d = [-n.y, n.x, n.y, -n.x];
    let mut best = (0, d[0]);
    for (i, &di) in d.iter().enumerate().skip(1) {
        if di < best.1 {
            best = (i, di);
        }
    }
    best.0
}

/// The quarter turn that carries edge `k` of a box to its top (edge 2, normal
/// +y): 180°, 90°, 0° or −90°. Its cosine and sine are 0 or ±1, so turning a
/// point by it only swaps and negates coordinates, without rounding.
#[inline]
fn to_top(k: usize) -> Rotation {
    const TURNS: [(Real, Real); 4] = [(-1.0, 0.0), (0.0, 1.0), (1.0, 0.0), (0.0, -1.0)];
    let (re, im) = TURNS[k & 3];
    Rotation::new_unchecked(Complex { re, im })
}

/// A box pair's contact, computed in the frame that turns the reference box so
/// that its reference edge is the top edge.
struct TopContact {
    /// Normal (A to B) and points in the top frame; ids are (A's feature, B's).
    manifold: LocalManifold,
    /// From the top frame back to the reference box's own frame.
    turn_back: Rotation,
    /// The other box's frame to the top frame.
    incident_to_top: Isometry,
    /// True when the reference edge is B's.
    flip: bool,
}

/// The contact of box A (own frame) and box B placed by `xf`, or, when
/// their cores are farther apart than `margin` plus the radii, the larger
/// of the two boxes' separations less the radii: a lower bound on the
/// distance between the shapes (the separation along any axis is at most
/// the distance).
///
/// Clipping happens in the reference box's own frame, turned so that the
/// reference edge is its top edge: there the edge is the segment from
/// `(hx, hy)` to `(−hx, hy)` with normal +y, read straight off the
/// half-extents, and only the incident edge is transformed.
#[inline(always)]
fn collide_on_top(a: &BoxView, b: &BoxView, xf: &Isometry, margin: Real) -> Result<TopContact, Real> {
    let [(edge_a, separation_a), (edge_b, separation_b)] = box_axes(a, b, xf);
    let radii = a.radius + b.radius;
    if separation_a.max(separation_b) > margin + radii {
        return Err(separation_a.max(separation_b) - radii);
    }
    let flip = separation_b > separation_a + REFERENCE_HYSTERESIS;
    let (reference, incident, k, separation, incident_to_reference) =
        if flip { (b, a, edge_b, separation_b, xf.inverse()) } else { (a, b, edge_a, separation_a, *xf) };

    let turn = to_top(k);
    let h = reference.half_extents;
    let h = if k & 1 == 1 { Vec2::new(h.y, h.x) } else { h };
    let top = Edge {
        v1: Point::new(h.x, h.y),
        v2: Point::new(-h.x, h.y),
        normal: Vec2::y(),
        id1: k,
        id2: (k + 1) & 3,
        radius: reference.radius,
    };
    let incident_to_top = Isometry::from_parts(
        (turn * incident_to_reference.translation.vector).into(),
        turn * incident_to_reference.rotation,
    );
    let opposed = most_opposed_edge(incident_to_top.rotation.inverse_transform_vector(&Vec2::y()));
    let side = incident.edge(opposed, &incident_to_top);
    let manifold = manifold_from_edges(&top, &side, separation, flip, margin, true);
    Ok(TopContact { manifold, turn_back: turn.inverse(), incident_to_top, flip })
}

/// Box A (its own frame) against box B placed by `xf`.
#[inline]
pub fn collide_boxes(a: &BoxView, b: &BoxView, xf: &Isometry, margin: Real) -> LocalManifold {
    let Ok(contact) = collide_on_top(a, b, xf, margin) else {
        return LocalManifold::default();
    };
    let turn_back = Isometry::from_parts(Default::default(), contact.turn_back);
    let to_a = if contact.flip { xf * turn_back } else { turn_back };
    let mut manifold = contact.manifold;
    manifold.normal = to_a.rotation * manifold.normal;
    for p in &mut manifold.points {
        p.point = to_a * p.point;
    }
    manifold
}

/// Box A at `pa` against box B at `pb`, straight to the world: the points are
/// moved once, from the top frame, instead of to A's frame and then on.
#[inline(always)]
pub(crate) fn box_manifold(a: &BoxView, pa: &Isometry, b: &BoxView, pb: &Isometry, margin: Real) -> Manifold {
    box_manifold_and_gap(a, pa, b, pb, margin).0
}

/// [`box_manifold`] with a lower bound on the distance between the boxes
/// when their cores are farther apart than `margin` plus the radii (0
/// otherwise: the manifold may have points).
#[inline(always)]
pub(crate) fn box_manifold_and_gap(
    a: &BoxView,
    pa: &Isometry,
    b: &BoxView,
    pb: &Isometry,
    margin: Real,
) -> (Manifold, Real) {
    let xf = pa.inv_mul(pb);
    let contact = match collide_on_top(a, b, &xf, margin) {
        Ok(contact) => contact,
        Err(gap) => return (Manifold::default(), gap),
    };
    let reference_pose = if contact.flip { pb } else { pa };
    // Composed once, so that a point's world position does not wait on its
    // position in the reference box's frame.
    let top_to_world = reference_pose * contact.turn_back;
    let place = |p: &LocalPoint| {
        let on_reference = contact.turn_back * p.point;
        // From the top frame, not back from the world, which rounds at the
        // world's magnitude far from the origin.
        let on_incident = contact.incident_to_top.inverse_transform_point(&p.point);
        let (local_a, local_b) =
            if contact.flip { (on_incident, on_reference) } else { (on_reference, on_incident) };
        ContactPoint { point: top_to_world * p.point, separation: p.separation, id: p.id, local_a, local_b }
    };
    if contact.manifold.points.is_empty() {
        return (Manifold::default(), 0.0);
    }
    let points = placed_points(&contact.manifold.points, place);
    (Manifold { normal: top_to_world.rotation * contact.manifold.normal, points }, 0.0)
}
