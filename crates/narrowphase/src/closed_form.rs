//! Closed-form separations for the pairs that need no GJK: two points (circles),
//! a point against a small polygon (a circle and a box or polygon), and two boxes.
//!
//! Each gives what [`crate::pair::CorePair::separation`] gives — the signed
//! distance of the full shapes, the normal from A to B and a witness point on
//! each surface, in A's frame — or `None` for the degenerate cases (coincident
//! centres, touching cores), which stay with GJK and EPA.
//!
//! - Point and point: the line of centres.
//! - Point or segment against a segment (circles, capsules, segments): the
//!   closest points of the cores, apart; crossing cores go to EPA.
//! - Point and polygon: the edge the point lies farthest in front of; inside the
//!   core, the push-out is through that edge; outside, the nearest point of the
//!   boundary, found edge by edge (the polygon has at most
//!   [`MAX_SAT_VERTICES`] vertices).
//! - Box and box: the separating-axis test on the four face normals read off the
//!   half-extents (as in `pairs/boxes.rs`). Overlapping cores are pushed apart
//!   along the best axis (for convex polygons the least overlap over the face
//!   normals is the penetration depth). Apart cores are closest at a corner of one
//!   box: the distance is the least over the eight corners of the corner's distance
//!   to the other box, a clamp to its half-extents.

use lamina_geometry::{Isometry, Point, Polygon, Real, Vec2};

use crate::pairs::boxes::{BoxView, box_axes};
use crate::poly_view::{MAX_SAT_VERTICES, PolyView};
use crate::separating_axis::max_separation;

/// Separation of two shapes along one normal, with a witness point on each, in A's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Separation {
    /// Signed distance: negative when overlapping.
    pub distance: Real,
    /// Unit normal from A to B.
    pub normal: Vec2,
    /// On A's surface.
    pub point_a: Point,
    /// On B's surface.
    pub point_b: Point,
}

/// A rounded segment `a`–`b` (radius `ra`) and a rounded point `q` (radius
/// `rb`), all in A's frame: the closest point of the segment to `q`. With the
/// segment as B, pass it second and [`point_segment`] flips the normal.
#[inline]
pub(crate) fn segment_point(a: &Point, b: &Point, ra: Real, q: &Point, rb: Real) -> Option<Separation> {
    let e = b - a;
    let ee = e.norm_squared();
    let t = if ee > 0.0 { ((q - a).dot(&e) / ee).clamp(0.0, 1.0) } else { 0.0 };
    point_point(&(a + e * t), ra, q, rb)
}

/// A rounded point `p` (radius `ra`) and a rounded segment `a`–`b` (radius
/// `rb`), all in A's frame.
#[inline]
pub(crate) fn point_segment(p: &Point, ra: Real, a: &Point, b: &Point, rb: Real) -> Option<Separation> {
    let s = segment_point(a, b, rb, p, ra)?;
    Some(Separation { distance: s.distance, normal: -s.normal, point_a: s.point_b, point_b: s.point_a })
}

/// Two rounded segments, both in A's frame: their closest points. Crossing
/// cores have no closest points: `None` sends them to EPA.
#[inline]
pub(crate) fn segment_segment(a: [&Point; 2], ra: Real, b: [&Point; 2], rb: Real) -> Option<Separation> {
    // Crossing cores: their closest points meet, and the depth is EPA's to find.
    let side = |p: &Point, q: &Point, r: &Point| lamina_geometry::math::cross(&(q - p), &(r - p));
    let (s1, s2) = (side(a[0], a[1], b[0]), side(a[0], a[1], b[1]));
    let (s3, s4) = (side(b[0], b[1], a[0]), side(b[0], b[1], a[1]));
    if s1 * s2 <= 0.0 && s3 * s4 <= 0.0 {
        return None;
    }
    let (s, t) = crate::segment_distance::segment_closest_parameters(a[0], a[1], b[0], b[1]);
    let p = a[0] + (a[1] - a[0]) * s;
    let q = b[0] + (b[1] - b[0]) * t;
    point_point(&p, ra, &q, rb)
}

/// Two rounded points: `p` (A's frame, radius `ra`) and `q` (already in A's frame, radius `rb`).
#[inline]
pub(crate) fn point_point(p: &Point, ra: Real, q: &Point, rb: Real) -> Option<Separation> {
    let (normal, d) = lamina_geometry::math::unit_and_length(&(q - p))?;
    Some(Separation { distance: d - ra - rb, normal, point_a: p + normal * ra, point_b: q - normal * rb })
}

/// True when the polygon is small enough for the edge-by-edge closed form.
#[inline]
pub(crate) fn is_small(p: &Polygon) -> bool {
    p.vertices().len() <= MAX_SAT_VERTICES
}

/// Polygon P (its own frame, rounded by `rp`) and the point `c` (P's frame, rounded
/// by `rc`), with the normal from P to the point. `p` must be [small](is_small).
#[inline(always)]
pub(crate) fn polygon_point(p: &Polygon, rp: Real, c: &Point, rc: Real) -> Option<Separation> {
    let (vertices, normals) = (p.vertices(), p.normals());
    let n = vertices.len();
    let mut edge = 0;
    let mut separation = Real::NEG_INFINITY;
    for i in 0..n {
        let s = normals[i].dot(&(c - vertices[i]));
        if s > separation {
            (edge, separation) = (i, s);
        }
    }
    let (core_point, normal, core_distance) = if separation <= 0.0 {
        // Inside the core: out through the nearest edge.
        let normal = normals[edge];
        (c - normal * separation, normal, separation)
    } else {
        // Outside: the nearest point of the boundary. Only edges the point lies in
        // front of can hold it.
        let mut best = (vertices[0], Real::INFINITY);
        for i in 0..n {
            let v1 = vertices[i];
            if normals[i].dot(&(c - v1)) < 0.0 {
                continue;
            }
            let e = vertices[if i + 1 == n { 0 } else { i + 1 }] - v1;
            let ee = e.norm_squared();
            let t = if ee > 0.0 { ((c - v1).dot(&e) / ee).clamp(0.0, 1.0) } else { 0.0 };
            let q = v1 + e * t;
            let d2 = (c - q).norm_squared();
            if d2 < best.1 {
                best = (q, d2);
            }
        }
        let (normal, d) = lamina_geometry::math::unit_and_length(&(c - best.0))?;
        (best.0, normal, d)
    };
    Some(Separation {
        distance: core_distance - rp - rc,
        normal,
        point_a: core_point + normal * rp,
        point_b: c - normal * rc,
    })
}

/// Two small polygons, P in its own frame (rounded by `rp`) and Q placed by `xf`
/// (rounded by `rq`), by the separating-axis test. `p` and `q` must be
/// [small](is_small).
///
/// The best axis is the edge, of either polygon, in front of which the other
/// lies farthest, and its separation `s` is a lower bound on the cores'
/// distance (for overlapping cores, minus their penetration depth, which for
/// convex polygons is always reached along an edge normal). When the other
/// polygon's vertex that sets `s` lies square in front of or behind that edge,
/// the bound is reached: the vertex and its foot on the edge are the witness
/// points. A vertex beyond the edge's ends means corner against corner, which
/// is left to GJK and EPA.
pub(crate) fn polygon_polygon(
    p: &Polygon,
    rp: Real,
    q: &Polygon,
    rq: Real,
    xf: &Isometry,
) -> Option<Separation> {
    let a = PolyView::of_polygon(p);
    let b = PolyView::of_placed_polygon(q, xf);
    let (edge_a, separation_a) = max_separation(&a, &b);
    let (edge_b, separation_b) = max_separation(&b, &a);
    // A's face wins ties, as in `box_box`.
    let (face, other, edge, separation) = if separation_a >= separation_b {
        (&a, &b, edge_a, separation_a)
    } else {
        (&b, &a, edge_b, separation_b)
    };

    let (n, v1, v2) = (face.normals[edge], face.vertices[edge], face.vertices[face.next(edge)]);
    // The vertex that sets the separation: the first of the deepest.
    let (w, _) = other
        .vertices()
        .iter()
        .map(|w| (*w, n.dot(&(w - v1))))
        .reduce(|best, x| if x.1 < best.1 { x } else { best })?;
    let along = v2 - v1;
    let t = (w - v1).dot(&along);
    if !(0.0..=along.norm_squared()).contains(&t) {
        return None;
    }
    let foot = w - n * separation;
    let (on_a, on_b, normal) = if separation_a >= separation_b { (foot, w, n) } else { (w, foot, -n) };
    Some(Separation {
        distance: separation - rp - rq,
        normal,
        point_a: on_a + normal * rp,
        point_b: on_b - normal * rq,
    })
}

/// The same separation seen from the other shape: B's witness first, the normal
/// reversed, and the points moved by `xf` (the first shape's frame to the other's).
#[inline]
pub(crate) fn swapped(s: &Separation, xf: &Isometry) -> Separation {
    Separation {
        distance: s.distance,
        normal: -(xf.rotation * s.normal),
        point_a: xf * s.point_b,
        point_b: xf * s.point_a,
    }
}

/// Box A (own frame) and box B placed by `xf`.
#[inline(always)]
pub(crate) fn box_box(a: &BoxView, b: &BoxView, xf: &Isometry) -> Option<Separation> {
    let (ha, hb) = (a.half_extents, b.half_extents);
    let [(edge_a, separation_a), (edge_b, separation_b)] = box_axes(a, b, xf);
    let radii = a.radius + b.radius;

    if separation_a.max(separation_b) <= 0.0 {
        // Overlapping cores: push out along the axis of least overlap.
        let (on_a, on_b, normal, separation) = if separation_a >= separation_b {
            // A's face; B's corner deepest behind it.
            let n = BoxView::normal(edge_a);
            let w =
                (0..4).map(|k| xf * b.vertex(k)).min_by(|p, q| n.dot(&p.coords).total_cmp(&n.dot(&q.coords)));
            let w = w?;
            (w - n * separation_a, w, n, separation_a)
        } else {
            // B's face; A's corner deepest behind it.
            let nb = xf.rotation * BoxView::normal(edge_b);
            let u =
                (0..4).map(|k| a.vertex(k)).max_by(|p, q| nb.dot(&-p.coords).total_cmp(&nb.dot(&-q.coords)));
            let u = u?;
            (u, u - nb * separation_b, -nb, separation_b)
        };
        return Some(Separation {
            distance: separation - radii,
            normal,
            point_a: on_a + normal * a.radius,
            point_b: on_b - normal * b.radius,
        });
    }

    // Apart cores: the nearest corner–box pair, with the offset from A's
    // point to B's as it was measured (a corner of A against B is measured in
    // B's frame, then turned). Taking it instead as the difference of the two
    // points in A's frame would lose it to round-off where the cores almost
    // touch far from A's origin: a gap of 1e-6 m between boxes 50 m out gave
    // a "unit" normal 1.2 long.
    let clamp = |p: Point, h: Vec2| Point::new(p.x.clamp(-h.x, h.x), p.y.clamp(-h.y, h.y));
    let mut best = (Point::origin(), Point::origin(), Vec2::zeros(), Real::INFINITY);
    for k in 0..4 {
        let w = xf * b.vertex(k);
        let q = clamp(w, ha);
        let d2 = (w - q).norm_squared();
        if d2 < best.3 {
            best = (q, w, w - q, d2);
        }
    }
    for k in 0..4 {
        let u = a.vertex(k);
        let local = xf.inverse_transform_point(&u);
        let q = clamp(local, hb);
        let d2 = (local - q).norm_squared();
        if d2 < best.3 {
            best = (u, xf * q, xf.rotation * (q - local), d2);
        }
    }
    let (on_a, on_b, offset, d2) = best;
    let (normal, d) = if (Real::MIN_POSITIVE..Real::INFINITY).contains(&d2) {
        let d = d2.sqrt();
        (offset / d, d)
    } else {
        lamina_geometry::math::unit_and_length(&offset)?
    };
    Some(Separation {
        distance: d - radii,
        normal,
        point_a: on_a + normal * a.radius,
        point_b: on_b - normal * b.radius,
    })
}
