//! Contact manifolds: the up to two points where a pair touches, sharing one
//! normal, in the world ([`Manifold`]) and in A's frame ([`LocalManifold`], what
//! every pair function returns), with the feature ids that carry a point from
//! step to step. The functions that compute them by shape kind are in
//! `dispatch.rs`.

use arrayvec::ArrayVec;
use lamina_geometry::{Isometry, Point, Real, Vec2};

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
    pub(crate) fn placed(&self, pa: &Isometry, xf: &Isometry) -> Manifold {
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
