//! Polygon against polygon by the separating-axis test and edge clipping. It
//! also serves capsules and segments, which are two-vertex polygons (a segment's
//! two "edges" are its two sides), so every pair of them is a polygon pair.
//!
//! 1. For each edge of each polygon, the separation is how far the other polygon
//!    lies in front of it; the edge with the largest separation is the best
//!    separating axis. Farther apart than the margin plus the radii: no contact.
//! 2. That edge is the reference edge. B's edge wins only if it is better by a
//!    hair (a tenth of the linear slop), so the choice does not flicker between
//!    nearly equal axes from step to step, which would lose the warm start.
//! 3. The incident edge is the other polygon's edge most opposed to the reference
//!    normal. When the cores are apart, the closest features may be two corners,
//!    and then the contact is one point on the line between them; otherwise the
//!    incident edge is clipped against the reference edge (`clip.rs`).

use lamina_geometry::tolerance::REFERENCE_HYSTERESIS;
use lamina_geometry::{Real, Vec2};

use crate::clip::{Edge, FACING_COS, clip, clip_top};
use crate::manifold::{FeatureId, LocalManifold, LocalPoint};
use crate::poly_view::PolyView;
use crate::segment_distance::segment_closest_parameters;
use crate::separating_axis::max_separation;

/// The features a polygon pair's contact is built from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipFeatures {
    /// True when B holds the reference edge.
    pub flip: bool,
    /// The reference edge (on B when `flip`, else on A).
    pub reference_edge: usize,
    /// The incident edge, on the other polygon.
    pub incident_edge: usize,
    /// The largest separation over all edge normals (negative when overlapping).
    pub separation: Real,
}

/// The reference and incident edges of polygons A and B (both in A's frame), or
/// `None` when they are farther apart than `margin` plus their radii.
pub fn clip_features(a: &PolyView, b: &PolyView, margin: Real) -> Option<ClipFeatures> {
    let (edge_a, separation_a) = max_separation(a, b);
    let (edge_b, separation_b) = max_separation(b, a);
    if separation_a.max(separation_b) > margin + a.radius + b.radius {
        return None;
    }
    let flip = separation_b > separation_a + REFERENCE_HYSTERESIS;
    let (reference, incident, reference_edge, separation) =
        if flip { (b, a, edge_b, separation_b) } else { (a, b, edge_a, separation_a) };
    let incident_edge = most_opposed_edge(incident, &reference.normals[reference_edge]);
    Some(ClipFeatures { flip, reference_edge, incident_edge, separation })
}

/// Polygon A and polygon B, both given in A's frame.
pub fn collide_polygons(a: &PolyView, b: &PolyView, margin: Real) -> LocalManifold {
    let Some(f) = clip_features(a, b, margin) else {
        return LocalManifold::default();
    };
    let (reference, incident) = if f.flip { (b, a) } else { (a, b) };
    let ref_e = edge_of(reference, f.reference_edge);
    let inc_e = edge_of(incident, f.incident_edge);
    match clipped_or_closest(&ref_e, &inc_e, f.separation, margin, false) {
        Some(manifold) => oriented(manifold, f.flip),
        None => other_reference_or_deepest_end(a, b, &f, &ref_e, &inc_e, margin),
    }
}

/// The contact when clipping the incident edge against the reference edge kept
/// nothing although the cores overlap (or lie within the hysteresis of
/// touching): the incident edge lies past the reference edge's ends. That
/// happens when the two polygons' best axes nearly tie and the winner's face
/// does not span the overlap (a thin sliver across a corner). The other
/// polygon's best face, when it separates them within the hysteresis as well,
/// spans it; its clipped points lie on both boundaries. Failing that, one
/// point at the incident edge's deepest end.
///
/// In practice the other face is B's: A's face is the first choice, and B's
/// wins only by more than the hysteresis, after which A's is never within it.
/// Swapping A and B therefore tries the same two faces.
#[cold]
fn other_reference_or_deepest_end(
    a: &PolyView,
    b: &PolyView,
    f: &ClipFeatures,
    ref_e: &Edge,
    inc_e: &Edge,
    margin: Real,
) -> LocalManifold {
    let flip = !f.flip;
    let (reference, incident) = if flip { (b, a) } else { (a, b) };
    let (edge, separation) = max_separation(reference, incident);
    if separation >= f.separation - REFERENCE_HYSTERESIS {
        let other_ref = edge_of(reference, edge);
        let other_inc = edge_of(incident, most_opposed_edge(incident, &reference.normals[edge]));
        if let Some(manifold) = clipped_or_closest(&other_ref, &other_inc, separation, margin, false) {
            return oriented(manifold, flip);
        }
    }
    oriented(deepest_incident_end(ref_e, inc_e, margin), f.flip)
}

/// Steps 3 and on: the contact of the reference edge `ref_e` and the incident
/// edge `inc_e`, both in A's frame, given the best separation and whether B holds
/// the reference edge. Shared with the box and segment pairs, so all give the
/// same points, but for one rare case: overlapping cores whose clipping keeps
/// nothing, where the general polygon pair also tries the other polygon's
/// face ([`collide_polygons`]) and the box and segment pairs take the incident
/// edge's deepest end. `ref_on_top` says that `ref_e` is the top edge of a box in the
/// box's own frame, which [`clip_top`] clips more cheaply than [`clip`].
#[inline(always)]
pub(crate) fn manifold_from_edges(
    ref_e: &Edge,
    inc_e: &Edge,
    separation: Real,
    flip: bool,
    margin: Real,
    ref_on_top: bool,
) -> LocalManifold {
    let manifold = clipped_or_closest(ref_e, inc_e, separation, margin, ref_on_top)
        .unwrap_or_else(|| deepest_incident_end(ref_e, inc_e, margin));
    oriented(manifold, flip)
}

/// The contact of the reference and incident edges in the reference polygon's
/// orientation: through the closest features when the cores are apart and do not
/// face each other squarely, else by clipping. `None` when the cores overlap and
/// clipping keeps nothing.
#[inline(always)]
fn clipped_or_closest(
    ref_e: &Edge,
    inc_e: &Edge,
    separation: Real,
    margin: Real,
    ref_on_top: bool,
) -> Option<LocalManifold> {
    let clipped = |reference: &Edge, incident: &Edge, margin: Real| LocalManifold {
        normal: reference.normal,
        points: if ref_on_top {
            clip_top(reference, incident, margin)
        } else {
            clip(reference, incident, margin)
        },
    };
    let (ref_e, inc_e) = (*ref_e, *inc_e);
    let apart = separation > REFERENCE_HYSTERESIS;
    // One call site for the clipper, so that it is inlined.
    let closest = if apart { closest_features(&ref_e, &inc_e, margin, true) } else { None };
    let manifold = match closest {
        Some(manifold) => manifold,
        None => clipped(&ref_e, &inc_e, margin),
    };
    if !manifold.points.is_empty() {
        return Some(manifold);
    }
    // Parallel edges that do not overlap along the reference edge: when the
    // cores are apart, the contact is at their nearest ends.
    if apart { Some(closest_features(&ref_e, &inc_e, margin, false).unwrap_or_default()) } else { None }
}

/// `manifold`, built with the reference edge on B when `flip`, turned to point
/// from A to B with its features named A first.
#[inline(always)]
fn oriented(mut manifold: LocalManifold, flip: bool) -> LocalManifold {
    if flip {
        manifold.normal = -manifold.normal;
        for p in &mut manifold.points {
            p.id = p.id.flipped();
        }
    }
    manifold
}

/// The edge of `p` whose normal points most against `n`.
fn most_opposed_edge(p: &PolyView, n: &Vec2) -> usize {
    (0..p.count)
        .map(|i| (i, p.normals[i].dot(n)))
        .fold((0, Real::INFINITY), |b, x| if x.1 < b.1 { x } else { b })
        .0
}

fn edge_of(p: &PolyView, i: usize) -> Edge {
    let j = p.next(i);
    Edge { v1: p.vertices[i], v2: p.vertices[j], normal: p.normals[i], id1: i, id2: j, radius: p.radius }
}

/// Edge features are numbered after vertex features, so the two never collide.
const EDGE_FEATURE: usize = 1 << 16;

/// The contact of two apart cores through their closest points, unless the two
/// edges face each other squarely and `clip_facing` asks for those to be
/// clipped, for two points.
///
/// Clipping measures separation along the reference normal, which overstates
/// the distance when a corner faces a tilted edge; the closest points give the
/// true distance and direction, so a speculative contact is never reported
/// farther than the shapes really are.
#[inline(always)]
fn closest_features(
    reference: &Edge,
    incident: &Edge,
    margin: Real,
    clip_facing: bool,
) -> Option<LocalManifold> {
    let (s, t) = segment_closest_parameters(&reference.v1, &reference.v2, &incident.v1, &incident.v2);
    let on_ref = reference.v1 + (reference.v2 - reference.v1) * s;
    let on_inc = incident.v1 + (incident.v2 - incident.v1) * t;
    let offset = on_inc - on_ref;
    let (distance, normal) = closest_direction(&offset, s, t, reference, incident)?;
    let facing =
        normal.dot(&reference.normal) >= FACING_COS && -incident.normal.dot(&reference.normal) >= FACING_COS;
    if facing && clip_facing {
        return None;
    }
    let separation = distance - reference.radius - incident.radius;
    if separation > margin {
        return Some(LocalManifold::default());
    }
    let feature = |x: Real, e: &Edge| match x {
        0.0 => e.id1,
        1.0 => e.id2,
        _ => EDGE_FEATURE + e.id1,
    };
    let point = nalgebra::center(&(on_ref + normal * reference.radius), &(on_inc - normal * incident.radius));
    let id = FeatureId::new(feature(s, reference), feature(t, incident));
    Some(LocalManifold::single(normal, LocalPoint { point, separation, id }))
}

/// The length and direction of `offset`, the gap from the closest point of the
/// reference edge (parameter `s` along it) to that of the incident edge
/// (parameter `t`).
///
/// When one closest point is inside its edge and the other is a corner, the gap
/// runs square to that edge: with the incident edge in front of the reference
/// edge (the cores are apart), it leaves the reference edge along its normal or
/// reaches the incident edge against its normal. The length is then a dot
/// product, with no square root or division on the way to the contact, and the
/// direction is exact. Corner against corner, or a gap that does not point the
/// expected way, takes the norm. `None` for touching cores (no gap) or a
/// gap that is not finite.
#[inline(always)]
fn closest_direction(
    offset: &Vec2,
    s: Real,
    t: Real,
    reference: &Edge,
    incident: &Edge,
) -> Option<(Real, Vec2)> {
    let inside = |x: Real| x > 0.0 && x < 1.0;
    let square = match (inside(s), inside(t)) {
        (true, false) => Some(reference.normal),
        (false, true) => Some(-incident.normal),
        _ => None,
    };
    if let Some(normal) = square {
        let distance = offset.dot(&normal);
        if distance > 0.0 {
            return Some((distance, normal));
        }
    }
    let (normal, distance) = lamina_geometry::math::unit_and_length(offset)?;
    Some((distance, normal))
}

/// One point at the end of the incident edge deepest behind the reference face:
/// the fallback for overlapping cores whose edges give nothing to clip.
fn deepest_incident_end(reference: &Edge, incident: &Edge, margin: Real) -> LocalManifold {
    let n = reference.normal;
    let depth = |x: &lamina_geometry::Point| n.dot(&(x - reference.v1));
    let (x, id) = if depth(&incident.v1) <= depth(&incident.v2) {
        (incident.v1, incident.id1)
    } else {
        (incident.v2, incident.id2)
    };
    let d = depth(&x);
    let separation = d - reference.radius - incident.radius;
    if separation > margin {
        return LocalManifold::default();
    }
    let point = x + n * (0.5 * (reference.radius - incident.radius - d));
    LocalManifold::single(
        n,
        LocalPoint { point, separation, id: FeatureId::new(EDGE_FEATURE + reference.id1, id) },
    )
}
