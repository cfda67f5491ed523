//! The pair dispatch for every shape but the one-sided chain segment: the
//! pair functions that `dispatch.rs` sends a pair to, and that the chain pair
//! uses to collide its plain segment. A chain segment given here anyway falls
//! to the general path, which sees it as its two-sided segment.

use lamina_geometry::{Isometry, Real, Shape};

use crate::general::collide_general;
use crate::manifold::LocalManifold;
use crate::pairs::boxes::{BoxView, collide_boxes};
use crate::pairs::circles::collide_circles;
use crate::pairs::polygon_circle::collide_circle_polygon;
use crate::pairs::polygons::collide_polygons;
use crate::pairs::segments::{SegmentView, collide_segments};
use crate::poly_view::PolyView;

/// The manifold of two shapes, neither a chain segment, in A's frame with B
/// placed by `xf`.
pub(crate) fn convex_manifold(a: &Shape, b: &Shape, xf: &Isometry, margin: Real) -> LocalManifold {
    let margin = sanitized(margin);
    match (BoxView::of(a), BoxView::of(b)) {
        (Some(box_a), Some(box_b)) => collide_boxes(&box_a, &box_b, xf, margin),
        _ => convex_manifold_other(a, b, xf, margin),
    }
}

/// [`convex_manifold`] for a pair the caller knows is not two boxes. Inlined
/// into the dispatch's entries so that the dedicated pairs' manifolds are
/// built in place rather than returned and copied.
#[inline(always)]
pub(crate) fn convex_manifold_other(a: &Shape, b: &Shape, xf: &Isometry, margin: Real) -> LocalManifold {
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

/// A manifold of A and B (B placed by `xf`) from `collide`, which collides
/// B with A, A placed in B's frame by the isometry it is given: the answer
/// is swapped back. `collide` names the pair function itself where the
/// shapes are known, so that they are not dispatched a second time. Kept
/// out of line (one copy per pair function), so that the dispatch stays
/// small: inlined, it cost the spinner 0.1 % more instructions.
#[inline(never)]
pub(crate) fn flip(xf: &Isometry, collide: impl FnOnce(&Isometry) -> LocalManifold) -> LocalManifold {
    let inverse = xf.inverse();
    collide(&inverse).flipped(&inverse)
}

/// The margin as the pair functions take it: finite and not negative.
#[inline(always)]
pub(crate) fn sanitized(margin: Real) -> Real {
    if margin.is_finite() { margin.max(0.0) } else { 0.0 }
}
