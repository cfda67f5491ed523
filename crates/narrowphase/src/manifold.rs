//! Contact manifolds: the up to two points where a pair touches, sharing one normal.
//!
//! [`contact_manifold`] dispatches on the pair of shape kinds to a dedicated pair
//! function (boxes, capsules and segments, circles, circle–polygon, and
//! polygon–polygon, which also serves mixed pairs of small polygons, capsules and
//! segments as two-vertex polygons) or to the general GJK/EPA path
//! (ellipses, large polygons). Every pair function works in A's local frame and
//! returns a [`LocalManifold`]; the dispatcher flips pairs it only knows one way
//! round and maps the answer to the world.

use arrayvec::ArrayVec;
use lamina_geometry::{Isometry, Point, Real, Shape, Vec2};

use crate::general::collide_general;
use crate::pairs::{
    BoxView, SegmentView, box_manifold, box_manifold_and_gap, collide_boxes, collide_chain_segment,
    collide_chain_segment_continuing, collide_circle_polygon, collide_circles, collide_polygons,
    collide_segments,
};
use crate::poly_view::PolyView;

/// Which features of A and B made a contact point: stable from step to step
/// while the contact persists, so that its impulse can warm-start the solver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FeatureId {
    /// A vertex or edge index of shape A.
    pub a: u32,
    /// A vertex or edge index of shape B.
    pub b: u32,
}

impl FeatureId {
    /// The id of the features `a` of shape A and `b` of shape B.
    #[inline]
    pub fn new(a: usize, b: usize) -> Self {
        Self { a: a as u32, b: b as u32 }
    }

    /// The same contact seen with A and B swapped.
    #[inline]
    pub fn flipped(self) -> Self {
        Self { a: self.b, b: self.a }
    }
}

/// One contact point of a manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint {
    /// World position, midway between the two surfaces.
    pub point: Point,
    /// Signed distance between the surfaces along the normal: negative when
    /// overlapping, positive for a speculative point.
    pub separation: Real,
    /// The features that made the point.
    pub id: FeatureId,
    /// The same point in shape A's local frame (precise far from the origin).
    pub local_a: Point,
    /// The same point in shape B's local frame.
    pub local_b: Point,
}

/// The contact between two shapes: a normal and up to two points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifold {
    /// Unit normal from A to B (world frame); zero when there are no points.
    pub normal: Vec2,
    /// The live points: `points.len()` is the count.
    pub points: ArrayVec<ContactPoint, 2>,
}

/// A contact point in A's frame, as pair functions produce it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalPoint {
    /// Midway between the surfaces, A's frame.
    pub point: Point,
    /// Signed distance between the surfaces.
    pub separation: Real,
    /// The features that made the point.
    pub id: FeatureId,
}

/// A manifold in A's frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocalManifold {
    /// Unit normal from A to B, A's frame.
    pub normal: Vec2,
    /// Up to two points.
    pub points: ArrayVec<LocalPoint, 2>,
}

impl LocalManifold {
    /// A manifold of one point.
    pub fn single(normal: Vec2, point: LocalPoint) -> Self {
        let mut points = ArrayVec::new();
        points.push(point);
        Self { normal, points }
    }

    /// The same contact with A and B swapped, where `xf` places B in A's frame:
    /// the result is in B's frame.
    pub fn flipped(&self, xf: &Isometry) -> Self {
        let points = self
            .points
            .iter()
            .map(|p| LocalPoint {
                point: xf.inverse_transform_point(&p.point),
                separation: p.separation,
                id: p.id.flipped(),
            })
            .collect();
        Self { normal: -xf.rotation.inverse_transform_vector(&self.normal), points }
    }

    /// Maps the manifold to the world, A being at `pa` and B at `pb`.
    #[inline]
    pub fn to_world(&self, pa: &Isometry, pb: &Isometry) -> Manifold {
        self.placed(pa, &pa.inv_mul(pb))
    }

    /// [`LocalManifold::to_world`] with B placed in A's frame by `xf`. Each point's
    /// position on B comes from its position on A through `xf`, not back from
    /// the world: far from the origin the world coordinates round at their own
    /// magnitude, and the solver anchors on these local points.
    #[inline(always)]
    fn placed(&self, pa: &Isometry, xf: &Isometry) -> Manifold {
        let placed = |p: &LocalPoint| ContactPoint {
            point: pa * p.point,
            separation: p.separation,
            id: p.id,
            local_a: p.point,
            local_b: xf.inverse_transform_point(&p.point),
        };
        if self.points.is_empty() {
            return Manifold::default();
        }
        let points = placed_points(&self.points, placed);
        Manifold { normal: pa.rotation * self.normal, points }
    }
}

/// `place` applied to each of up to two points, the vector built whole: one
/// filled point by point through its length is written and read back through
/// memory.
#[inline(always)]
pub(crate) fn placed_points(
    points: &[LocalPoint],
    place: impl Fn(&LocalPoint) -> ContactPoint,
) -> ArrayVec<ContactPoint, 2> {
    match points {
        [] => ArrayVec::new(),
        [p] => {
            let mut one = ArrayVec::new();
            one.push(place(p));
            one
        }
        [p, q, ..] => ArrayVec::from([place(p), place(q)]),
    }
}

/// The contact manifold of A and B: up to two points sharing a normal from A to
/// B, including speculative points of pairs less than `margin` apart.
pub fn contact_manifold(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry, margin: Real) -> Manifold {
    let margin = sanitized(margin);
    if let (Some(box_a), Some(box_b)) = (BoxView::of(a), BoxView::of(b)) {
        return box_manifold(&box_a, pa, &box_b, pb, margin);
    }
    let xf = pa.inv_mul(pb);
    dispatch_other(a, b, &xf, margin).placed(pa, &xf)
}

/// [`contact_manifold`] for a contact that persists from step to step:
/// `was_touching` says whether the pair had points at the last step. Only
/// one-sided chain segments use it (see
/// [`collide_chain_segment_continuing`]):
/// a shape that touched one and is pushed behind it is pushed back.
pub fn contact_manifold_continuing(
    a: &Shape,
    pa: &Isometry,
    b: &Shape,
    pb: &Isometry,
    margin: Real,
    was_touching: bool,
) -> Manifold {
    let margin = sanitized(margin);
    match (a, b) {
        (Shape::ChainSegment(_), Shape::ChainSegment(_)) => Manifold::default(),
        (Shape::ChainSegment(chain), _) => {
            let xf = pa.inv_mul(pb);
            collide_chain_segment_continuing(chain, b, &xf, margin, was_touching).placed(pa, &xf)
        }
        (_, Shape::ChainSegment(chain)) => {
            let xf = pb.inv_mul(pa);
            let local = collide_chain_segment_continuing(chain, a, &xf, margin, was_touching);
            let inverse = xf.inverse();
            local.flipped(&xf).placed(pa, &inverse)
        }
        _ => contact_manifold(a, pa, b, pb, margin),
    }
}

/// [`contact_manifold_continuing`] with, when the manifold has no point, a
/// lower bound on the distance between the shapes where one came out of the
/// computation: 0 where none did, or where the manifold has points. Two
/// boxes give the larger of their separations along their own axes; the
/// other pairs give 0.
///
/// With the bound, a persistent contact can tell, from how far its bodies
/// have moved since, that the shapes are still farther apart than the
/// margin, and skip the computation, whose manifold would have had no
/// point either.
pub fn contact_manifold_and_gap(
    a: &Shape,
    pa: &Isometry,
    b: &Shape,
    pb: &Isometry,
    margin: Real,
    was_touching: bool,
) -> (Manifold, Real) {
    if let (Some(box_a), Some(box_b)) = (BoxView::of(a), BoxView::of(b)) {
        return box_manifold_and_gap(&box_a, pa, &box_b, pb, sanitized(margin));
    }
    (contact_manifold_continuing(a, pa, b, pb, margin, was_touching), 0.0)
}

/// [`contact_manifold`] in A's frame, with B placed by `xf` (B's frame to A's).
pub fn local_manifold(a: &Shape, b: &Shape, xf: &Isometry, margin: Real) -> LocalManifold {
    let margin = sanitized(margin);
    match (BoxView::of(a), BoxView::of(b)) {
        (Some(box_a), Some(box_b)) => collide_boxes(&box_a, &box_b, xf, margin),
        _ => dispatch_other(a, b, xf, margin),
    }
}

/// Every pair but two boxes, which the callers have already sent to the box
/// pair. Inlined into [`contact_manifold`] so that the dedicated pairs'
/// manifolds are built in place rather than returned and copied.
#[inline(always)]
fn dispatch_other(a: &Shape, b: &Shape, xf: &Isometry, margin: Real) -> LocalManifold {
    match (a, b) {
        (Shape::ChainSegment(chain), _) => return collide_chain_segment(chain, b, xf, margin),
        (_, Shape::ChainSegment(_)) => return flip(xf, |inverse| local_manifold(b, a, inverse, margin)),
        _ => {}
    }
    if let (Some(seg_a), Some(seg_b)) = (SegmentView::local(a), SegmentView::placed(b, xf)) {
        return collide_segments(&seg_a, &seg_b, margin);
    }
    match (a, b) {
        (Shape::Circle(ca), Shape::Circle(cb)) => collide_circles(ca, cb, xf, margin),
        (Shape::Circle(ca), _) if PolyView::fits(b) => {
            flip(xf, |inverse| collide_circle_polygon(&PolyView::local(b), ca, inverse, margin))
        }
        (_, Shape::Circle(cb)) if PolyView::fits(a) => {
            collide_circle_polygon(&PolyView::local(a), cb, xf, margin)
        }
        _ if PolyView::fits(a) && PolyView::fits(b) => {
            collide_polygons(&PolyView::local(a), &PolyView::placed(b, xf), margin)
        }
        _ => collide_general(a, b, xf, margin),
    }
}

/// The margin as the pair functions take it: finite and not negative.
#[inline(always)]
fn sanitized(margin: Real) -> Real {
    if margin.is_finite() { margin.max(0.0) } else { 0.0 }
}

/// A manifold of A and B (B placed by `xf`) from `collide`, which collides
/// B with A, A placed in B's frame by the isometry it is given: the answer
/// is swapped back. `collide` names the pair function itself where the
/// shapes are known, so that they are not dispatched a second time. Kept
/// out of line (one copy per pair function), so that the dispatch stays
/// small: inlined, it cost the spinner 0.1 % more instructions.
#[inline(never)]
fn flip(xf: &Isometry, collide: impl FnOnce(&Isometry) -> LocalManifold) -> LocalManifold {
    let inverse = xf.inverse();
    collide(&inverse).flipped(&inverse)
}
