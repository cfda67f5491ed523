//! The general manifold path for any convex pair: ellipses, large polygons, and
//! (through [`crate::shape_core::Core::Custom`]) user support maps.
//!
//! GJK (apart) or EPA (overlapping) gives the normal and the deepest points. Each
//! shape then offers its *support feature* along the normal: the edge that faces
//! it, if one faces it squarely, or else the single support point. Two facing
//! edges are clipped like polygons (two points); anything else is one point at
//! the witnesses.

use lamina_geometry::math::try_normalize;
use lamina_geometry::tolerance::{LINEAR_SLOP, REFERENCE_HYSTERESIS};
use lamina_geometry::{Isometry, Real, Shape, Vec2};

use crate::clip::{Edge, FACING_COS, clip};
use crate::manifold::{FeatureId, LocalManifold, LocalPoint};
use crate::pair::CorePair;
use crate::shape_core::Core;

/// A and B (placed by `xf`) by GJK/EPA and support features.
pub fn collide_general(a: &Shape, b: &Shape, xf: &Isometry, margin: Real) -> LocalManifold {
    let pair = CorePair::new(a, &Isometry::identity(), b, xf);
    let s = pair.separation();
    if s.distance > margin {
        return LocalManifold::default();
    }
    let n = s.normal;
    // GJK/EPA's witness, made only where it is used: its feature ids cost a
    // support search in each shape.
    let witness = || LocalPoint {
        point: nalgebra::center(&s.point_a, &s.point_b),
        separation: s.distance,
        id: FeatureId::new(
            support_feature(&pair.a, &n),
            support_feature(&pair.b, &xf.rotation.inverse_transform_vector(&-n)),
        ),
    };
    let feature_a = facing_edge(&pair.a, &Isometry::identity(), &n, pair.radius_a);
    let feature_b = facing_edge(&pair.b, xf, &-n, pair.radius_b);
    if let (Some(ea), Some(eb)) = (feature_a, feature_b) {
        // The edge more squarely facing the normal is the reference.
        if ea.normal.dot(&n) >= -eb.normal.dot(&n) {
            let points = clip(&ea, &eb, margin);
            if !points.is_empty() {
                return keeping_the_deepest(LocalManifold { normal: ea.normal, points }, s.distance, witness);
            }
        } else {
            let mut points = clip(&eb, &ea, margin);
            if !points.is_empty() {
                for p in &mut points {
                    p.id = p.id.flipped();
                }
                return keeping_the_deepest(
                    LocalManifold { normal: -eb.normal, points },
                    s.distance,
                    witness,
                );
            }
        }
    }
    LocalManifold::single(n, witness())
}

/// `clipped`, with the witness `deepest()` (`depth` deep) in place of its
/// nearer point when clipping lost the deepest contact.
///
/// Clipping keeps the incident edge within the reference edge's ends. When the
/// reference edge has a nearly collinear neighbour, the deepest point may lie
/// beyond its end, under that neighbour: the clipped points are then shallower
/// than the penetration GJK/EPA measured, and the solver would leave the pair
/// overlapping by the difference. The clipped point nearer the witness is the
/// one the reference edge's end cut short; the other end stays. A clipped
/// point of the witness's own contact (its feature pair, or within the linear
/// slop of it) gives way to it whatever its place: two points of one feature
/// pair would both be warm-started with that pair's impulse.
fn keeping_the_deepest(
    mut clipped: LocalManifold,
    depth: Real,
    deepest: impl FnOnce() -> LocalPoint,
) -> LocalManifold {
    let clipped_depth = clipped.points.iter().map(|p| p.separation).fold(Real::INFINITY, Real::min);
    if clipped_depth <= depth + REFERENCE_HYSTERESIS {
        return clipped;
    }
    let deepest = deepest();
    let gap = |p: &LocalPoint| (p.point - deepest.point).norm_squared();
    // A clipped point of the witness's own contact gives way to it.
    clipped.points.retain(|p| p.id != deepest.id && gap(p) > LINEAR_SLOP * LINEAR_SLOP);
    if clipped.points.is_full() {
        let nearer = usize::from(gap(&clipped.points[1]) < gap(&clipped.points[0]));
        clipped.points.remove(nearer);
    }
    clipped.points.push(deepest);
    clipped
}

/// The core's edge facing `dir` (A's frame), if it faces it squarely. `pose`
/// places the core in A's frame.
fn facing_edge(core: &Core, pose: &Isometry, dir: &Vec2, radius: Real) -> Option<Edge> {
    let local_dir = pose.rotation.inverse_transform_vector(dir);
    let (v1, v2, normal, id1, id2) = match core {
        Core::Polygon(p) => {
            let n = p.vertices().len();
            let i = p.support_index(&local_dir);
            let prev = (i + n - 1) % n;
            // Of the two edges at the support vertex, the one whose normal is nearer `dir`.
            let (e, normal) = if p.normals()[prev].dot(&local_dir) > p.normals()[i].dot(&local_dir) {
                (prev, p.normals()[prev])
            } else {
                (i, p.normals()[i])
            };
            let next = (e + 1) % n;
            (p.vertices()[e], p.vertices()[next], normal, e, next)
        }
        Core::Segment(a, b) => {
            let side = try_normalize(&lamina_geometry::math::right_perp(&(b - a)))?;
            if side.dot(&local_dir) >= 0.0 { (*a, *b, side, 0, 1) } else { (*b, *a, -side, 1, 0) }
        }
        Core::Point(_) | Core::Ellipse(_) | Core::Custom(_) => return None,
    };
    let local_unit = try_normalize(&local_dir)?;
    (normal.dot(&local_unit) >= FACING_COS).then(|| Edge {
        v1: pose * v1,
        v2: pose * v2,
        normal: pose.rotation * normal,
        id1,
        id2,
        radius,
    })
}

/// A feature id for a single support point: the polygon vertex or segment end
/// it came from, 0 for smooth shapes.
fn support_feature(core: &Core, local_dir: &Vec2) -> usize {
    match core {
        Core::Polygon(p) => p.support_index(local_dir),
        Core::Segment(a, b) => usize::from(b.coords.dot(local_dir) > a.coords.dot(local_dir)),
        Core::Point(_) | Core::Ellipse(_) | Core::Custom(_) => 0,
    }
}
