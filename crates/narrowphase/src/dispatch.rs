//! The shape-pair dispatch: [`contact_manifold`] and its variants pick, by the
//! pair of shape kinds, the function that collides them.
//!
//! Two boxes go to the box pair first (the commonest pair, kept in its own
//! fast path); a one-sided chain segment goes to the chain pair, which
//! collides the plain segment through `convex_dispatch.rs` and then applies
//! the chain's rules; every other pair goes to `convex_dispatch.rs`: capsules
//! and segments, circles, circle–polygon, polygon–polygon (which also serves
//! mixed pairs of small polygons, capsules and segments as two-vertex
//! polygons) or the general GJK/EPA path (ellipses, large polygons). Every
//! pair function works in A's local frame and returns a [`LocalManifold`]; the
//! dispatch flips pairs it only knows one way round and maps the answer to
//! the world.

use lamina_geometry::{Isometry, Real, Shape};

use crate::convex_dispatch::{convex_manifold_other, flip, sanitized};
use crate::manifold::{LocalManifold, Manifold};
use crate::pairs::boxes::{BoxView, box_manifold, box_manifold_and_gap, collide_boxes};
use crate::pairs::chain::{collide_chain_segment, collide_chain_segment_continuing};

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
/// pair: one-sided chain segments to their own pair function (flipped where
/// the chain is B), every other pair to [`convex_manifold_other`]. Inlined into
/// [`contact_manifold`] so that the dedicated pairs' manifolds are built in
/// place rather than returned and copied.
#[inline(always)]
fn dispatch_other(a: &Shape, b: &Shape, xf: &Isometry, margin: Real) -> LocalManifold {
    match (a, b) {
        (Shape::ChainSegment(chain), _) => collide_chain_segment(chain, b, xf, margin),
        (_, Shape::ChainSegment(_)) => flip(xf, |inverse| local_manifold(b, a, inverse, margin)),
        _ => convex_manifold_other(a, b, xf, margin),
    }
}
