//! Polygon (or capsule, or segment) against circle: one point, on the polygon's
//! nearest edge or corner.

use lamina_geometry::{Circle, Isometry, Point, Real};

use crate::manifold::{FeatureId, LocalManifold, LocalPoint};
use crate::poly_view::PolyView;

/// Feature ids of polygon corners are offset by this so that they never equal
/// an edge's.
pub const VERTEX_FEATURE: usize = 1 << 16;

/// Polygon A (its own frame) against circle B placed by `xf`.
pub fn collide_circle_polygon(a: &PolyView, b: &Circle, xf: &Isometry, margin: Real) -> LocalManifold {
    let c = Point::from(xf.translation.vector);
    let radius = a.radius + b.radius;

    // The edge the centre is farthest in front of.
    let (edge, separation) = (0..a.count)
        .map(|i| (i, a.normals[i].dot(&(c - a.vertices[i]))))
        .fold((0, Real::NEG_INFINITY), |best, x| if x.1 > best.1 { x } else { best });
    if separation - radius > margin {
        return LocalManifold::default();
    }

    // A segment core (a capsule's, a segment's) has no inside: its two edge
    // normals both read 0 for a centre in line with it beyond an end, which
    // is apart, not inside. Only a polygon with area has a centre inside.
    let (core_point, normal, distance, feature) = if separation <= 0.0 && a.count > 2 {
        // Centre inside the core: push out through the nearest edge.
        let n = a.normals[edge];
        (c - n * separation, n, separation, edge)
    } else {
        nearest_core_feature(a, &c).unwrap_or((
            c - a.normals[edge] * separation,
            a.normals[edge],
            separation,
            edge,
        ))
    };
    if distance - radius > margin {
        return LocalManifold::default();
    }
    let on_a = core_point + normal * a.radius;
    let on_b = c - normal * b.radius;
    let point = nalgebra::center(&on_a, &on_b);
    LocalManifold::single(
        normal,
        LocalPoint { point, separation: distance - radius, id: FeatureId::new(feature, 0) },
    )
}

/// For a centre outside the core: the nearest core point, the unit direction
/// from it to the centre, the distance, and the feature (edge or corner).
/// `None` if round-off puts the centre on the core after all.
fn nearest_core_feature(a: &PolyView, c: &Point) -> Option<(Point, lamina_geometry::Vec2, Real, usize)> {
    let mut best = (a.vertices[0], Real::INFINITY, 0);
    for i in 0..a.count {
        let (v1, v2) = (a.vertices[i], a.vertices[a.next(i)]);
        let e = v2 - v1;
        let ee = e.norm_squared();
        let t = if ee > 0.0 { ((c - v1).dot(&e) / ee).clamp(0.0, 1.0) } else { 0.0 };
        let q = v1 + e * t;
        let d2 = (c - q).norm_squared();
        if d2 < best.1 {
            let feature = if t <= 0.0 {
                VERTEX_FEATURE + i
            } else if t >= 1.0 {
                VERTEX_FEATURE + a.next(i)
            } else {
                i
            };
            best = (q, d2, feature);
        }
    }
    let (q, _, feature) = best;
    let (normal, distance) = lamina_geometry::math::unit_and_length(&(c - q))?;
    Some((q, normal, distance, feature))
}
