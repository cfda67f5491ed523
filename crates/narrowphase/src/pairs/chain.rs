//! A one-sided chain segment against any shape, without ghost collisions.
//!
//! The shape is first collided with the plain segment. A shape whose centroid
//! lies behind the segment (and behind its convex neighbours) is ignored: the
//! chain is solid on its right side only. The plain manifold's normal is then
//! read on the chain's Gauss map, as Box2D v3 does (see Erin Catto, "Ghost
//! Collisions", 2020): a normal square to the segment is its face and is kept;
//! one that leans towards an end point belongs to that corner.
//!
//! - At a convex corner (the chain turns away from the solid side) the corner
//!   owns the normals between the two faces' normals: kept. A normal leaning
//!   past the neighbour's is the neighbour's face's: dropped, the neighbour
//!   reports it.
//! - At a flat or concave corner no smooth surface has a leaning normal: it is
//!   the seam between two segments showing through (the ghost collision).
//!   The manifold is rebuilt with the segment's own normal, from the shape's
//!   feature that faces the segment, clipped to the segment's span.
//! - At an open end of a chain the end point is a true corner: kept.

use arrayvec::ArrayVec;
use lamina_geometry::math::{cross, right_perp, try_normalize};
use lamina_geometry::{ChainSegment, Isometry, Point, Real, Shape, SupportMap, Vec2};

use crate::convex_dispatch::convex_manifold;
use crate::manifold::{FeatureId, LocalManifold, LocalPoint};

/// Sine of the angle within which a normal counts as the face's, or as the
/// neighbour's limit, as in Box2D.
const SIN_TOLERANCE: Real = 0.01;

/// A corner turning by less than this sine counts as flat.
const CONVEX_TOLERANCE: Real = 0.01;

/// What lies past one end of the segment.
#[derive(Clone, Copy, Debug)]
enum Corner {
    /// The chain ends here.
    Open,
    /// The chain turns away from the solid side; the neighbour's normal.
    Convex(Vec2),
    /// The chain goes on straight or turns towards the solid side.
    FlatOrConcave,
}

impl Corner {
    /// The corner between edge directions `incoming` and `outgoing` (unit),
    /// or an open end when there is no neighbour.
    fn between(incoming: Option<Vec2>, outgoing: Option<Vec2>) -> Self {
        match (incoming, outgoing) {
            (Some(i), Some(o)) if cross(&i, &o) >= CONVEX_TOLERANCE => Corner::Convex(right_perp(&o)),
            (Some(_), Some(_)) => Corner::FlatOrConcave,
            _ => Corner::Open,
        }
    }
}

/// The manifold of chain segment A and shape B (placed in A's frame by `xf`),
/// normal from A to B, points within `margin`. Two chain segments never touch.
pub fn collide_chain_segment(chain: &ChainSegment, b: &Shape, xf: &Isometry, margin: Real) -> LocalManifold {
    collide_chain_segment_continuing(chain, b, xf, margin, false)
}

/// [`collide_chain_segment`] for a pair that touched at the last step when
/// `was_touching` is set: a shape pushed behind the segment while touching it
/// (squeezed through by a crowd, say) is pushed back out along the segment's
/// normal instead of being let through, as long as it still reaches the
/// segment. A shape that arrives from behind never touched, and passes.
pub fn collide_chain_segment_continuing(
    chain: &ChainSegment,
    b: &Shape,
    xf: &Isometry,
    margin: Real,
    was_touching: bool,
) -> LocalManifold {
    if matches!(b, Shape::ChainSegment(_)) {
        return LocalManifold::default();
    }
    let (p1, p2) = (chain.segment.a, chain.segment.b);
    let Some(edge1) = try_normalize(&(p2 - p1)) else { return LocalManifold::default() };
    let n1 = right_perp(&edge1);
    let edge0 = chain.ghost_prev.and_then(|g| try_normalize(&(p1 - g)));
    let edge2 = chain.ghost_next.and_then(|g| try_normalize(&(g - p2)));
    // The corner at p1 turns from edge 0 into edge 1, the one at p2 from edge 1
    // into edge 2; a convex corner at p1 reports edge 0's normal.
    let corner1 = match (edge0, Corner::between(edge0, Some(edge1))) {
        (Some(e0), Corner::Convex(_)) => Corner::Convex(right_perp(&e0)),
        (_, corner) => corner,
    };
    let corner2 = Corner::between(Some(edge1), edge2);

    let centroid = xf * b.centroid();
    let behind = |n: &Vec2, p: &Point| n.dot(&(centroid - p)) < 0.0;
    let behind1 = behind(&n1, &p1);
    let behind_corner = |corner: Corner, p: &Point| match corner {
        Corner::Convex(n) => behind(&n, p),
        _ => true,
    };
    if behind1 && behind_corner(corner1, &p1) && behind_corner(corner2, &p2) {
        if was_touching && !convex_manifold(&Shape::Segment(chain.segment), b, xf, margin).points.is_empty() {
            return face_manifold(&p1, &edge1, &p2, b, xf, margin);
        }
        return LocalManifold::default();
    }

    let plain = convex_manifold(&Shape::Segment(chain.segment), b, xf, margin);
    if plain.points.is_empty() {
        return plain;
    }
    let m = plain.normal;
    if m.dot(&n1) <= 0.0 {
        // The plain segment's back side: the shape is past a convex
        // neighbour's face (its business), or sunk deep through this one.
        return if behind1 {
            LocalManifold::default()
        } else {
            face_manifold(&p1, &edge1, &p2, b, xf, margin)
        };
    }
    let lean = cross(&n1, &m);
    if lean.abs() <= SIN_TOLERANCE {
        return plain;
    }
    // Leaning towards p2 turns the normal counter-clockwise from n1; past a
    // convex corner's limit means turned further the same way.
    let towards_p2 = lean > 0.0;
    let corner = if towards_p2 { corner2 } else { corner1 };
    let past = |limit: &Vec2| {
        let turn = cross(limit, &m);
        (if towards_p2 { turn } else { -turn }) > SIN_TOLERANCE
    };
    match corner {
        Corner::Open => plain,
        Corner::Convex(limit) if past(&limit) => LocalManifold::default(),
        Corner::Convex(_) => plain,
        Corner::FlatOrConcave => face_manifold(&p1, &edge1, &p2, b, xf, margin),
    }
}

/// The manifold of B against the segment's face alone: normal `right_perp(edge)`,
/// points from B's feature that faces the segment, clipped to the segment's
/// span, kept within `margin`.
fn face_manifold(
    p1: &Point,
    edge: &Vec2,
    p2: &Point,
    b: &Shape,
    xf: &Isometry,
    margin: Real,
) -> LocalManifold {
    let n = right_perp(edge);
    let length = (p2 - p1).dot(edge);
    let (feature, radius) = facing_feature(b, xf, &n);
    let mut clipped: ArrayVec<(Point, usize), 2> = ArrayVec::new();
    match feature.as_slice() {
        [(v, i)] => {
            let u = (v - p1).dot(edge);
            if (0.0..=length).contains(&u) {
                clipped.push((*v, *i));
            }
        }
        [(v, i), (w, j)] => {
            let (u, s) = ((v - p1).dot(edge), (w - p1).dot(edge));
            // Each end pulled into [0, length] along the edge between them.
            let clamp = |from: Point, u_from: Real, to: Point, u_to: Real| -> Option<Point> {
                if (0.0..=length).contains(&u_from) {
                    return Some(from);
                }
                let bound = if u_from < 0.0 { 0.0 } else { length };
                let between = (u_from - bound) * (u_to - bound) < 0.0 || u_to == bound;
                between.then(|| from + (to - from) * ((bound - u_from) / (u_to - u_from)))
            };
            if let Some(p) = clamp(*v, u, *w, s) {
                clipped.push((p, *i));
            }
            if let Some(p) = clamp(*w, s, *v, u) {
                clipped.push((p, *j));
            }
        }
        _ => {}
    }
    let mut manifold = LocalManifold { normal: n, points: ArrayVec::new() };
    for (v, i) in clipped {
        let depth = (v - p1).dot(&n);
        let separation = depth - radius;
        if separation <= margin {
            let point = v - n * (0.5 * (depth + radius));
            manifold.points.push(LocalPoint { point, separation, id: FeatureId::new(0, i) });
        }
    }
    manifold
}

/// The vertices (with their indices) of B's feature that faces direction
/// `-n`, in A's frame, and B's rounding radius: an edge of a polygon, the core
/// of a capsule or segment, a point of a round shape.
fn facing_feature(b: &Shape, xf: &Isometry, n: &Vec2) -> (ArrayVec<(Point, usize), 2>, Real) {
    let mut out = ArrayVec::new();
    let toward = xf.rotation.inverse_transform_vector(&-n);
    let radius = match b {
        Shape::Circle(c) => {
            out.push((xf * Point::origin(), 0));
            c.radius
        }
        Shape::Capsule(c) => {
            out.extend([(xf * c.a, 0), (xf * c.b, 1)]);
            c.radius
        }
        Shape::Segment(s) => {
            out.extend([(xf * s.a, 0), (xf * s.b, 1)]);
            0.0
        }
        Shape::Polygon(p) => {
            let (vertices, normals) = (p.vertices(), p.normals());
            let count = vertices.len();
            let k = p.support_index(&toward);
            let prev = (k + count - 1) % count;
            // Of the two edges at the support vertex, the one facing `-n` most.
            let (i, j) = if normals[prev].dot(&toward) > normals[k].dot(&toward) {
                (prev, k)
            } else {
                (k, (k + 1) % count)
            };
            out.extend([(xf * vertices[i], i), (xf * vertices[j], j)]);
            p.radius()
        }
        Shape::Ellipse(e) => {
            out.push((xf * e.support_point(&toward), 0));
            0.0
        }
        Shape::ChainSegment(_) => 0.0,
    };
    (out, radius)
}
