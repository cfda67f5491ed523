//! Contacts: the persistent state of a pair of colliders whose fat bounding boxes
//! overlap, from the broad phase's `Begin` to its `End`, and its update by the
//! narrow phase (their creation and removal are `contact_set.rs`).
//!
//! Each step the narrow phase refreshes the pair's manifold. New points inherit
//! the accumulated impulses of the old points with the same feature id, which is
//! what lets the solver start where it stopped (warm starting). Two bodies that
//! have barely moved relative to each other since their manifold was computed
//! keep it, its points carried along with the bodies
//! ([`MANIFOLD_REUSE_DRIFT`](lamina_geometry::tolerance::MANIFOLD_REUSE_DRIFT)). Every body keeps
//! the list of its contacts, so that removing a collider or splitting an island
//! visits only the contacts involved.

use arrayvec::ArrayVec;
use lamina_geometry::tolerance::{LINEAR_SLOP, MANIFOLD_REUSE_DRIFT, MANIFOLD_REUSE_TURN};
use lamina_geometry::{Isometry, Point, Real, Rotation, Vec2};
use lamina_narrowphase::FeatureId;

use crate::keys::Untagged;
use crate::{BodyKey, ColliderKey, WorldKey, WorldTag};

/// One point of a contact's manifold, with the solver's memory of it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactPointState {
    /// World position, midway between the surfaces.
    pub point: Point,
    /// The point in body A's frame.
    pub local_a: Point,
    /// The point in body B's frame.
    pub local_b: Point,
    /// Signed distance between the surfaces (negative when overlapping).
    pub separation: Real,
    /// Which features of the two shapes made the point.
    pub id: FeatureId,
    /// Accumulated normal impulse of the last substep, N·s.
    pub normal_impulse: Real,
    /// Accumulated friction impulse of the last substep, N·s.
    pub tangent_impulse: Real,
}

/// The contact between two colliders.
///
/// Serialized through serde, a contact is its keys and flags. Snapshots do
/// not go through serde for contacts: they write every field of every
/// contact together, a column per field (`snapshot/contacts.rs`), which is
/// several times quicker than one value at a time and compresses better.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contact {
    /// The keys, untagged, and their world's tag once (`keys.rs`): four
    /// tags would take twelve bytes more a contact.
    pub(crate) collider_a: Untagged<ColliderKey>,
    pub(crate) collider_b: Untagged<ColliderKey>,
    pub(crate) body_a: Untagged<BodyKey>,
    pub(crate) body_b: Untagged<BodyKey>,
    /// Not written through serde, as keys are not (`keys.rs`).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) world: WorldTag,
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) friction: Real,
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) restitution: Real,
    /// The colliders' surface speeds summed, m/s: the friction rows drive
    /// the tangential velocity of B relative to A to it.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) tangent_speed: Real,
    /// The larger rolling resistance of the two colliders times the larger
    /// rolling radius, m: the largest rolling torque is this times the normal force.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) rolling_resistance: Real,
    /// The accumulated rolling impulse of the last substep, N·m·s.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) rolling_impulse: Real,
    /// One of the colliders asks the pre-solve hook about this contact.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) pre_solve: bool,
    pub(crate) sensor: bool,
    #[cfg_attr(feature = "serde", serde(skip, default = "Vec2::zeros"))]
    pub(crate) normal: Vec2,
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) points: ArrayVec<ContactPointState, 2>,
    pub(crate) touching: bool,
    /// The frame of the last full manifold computation: the normal in body A's
    /// frame and B's rotation relative to A's, for carrying the manifold along.
    #[cfg_attr(feature = "serde", serde(skip, default = "ManifoldFrame::none"))]
    pub(crate) computed_in: ManifoldFrame,
    /// True when `computed_in` records shapes found farther apart than the
    /// speculative distance ([`ManifoldFrame::apart`]) rather than a
    /// manifold's frame. Snapshots keep it with the frame; serde skips both,
    /// and a deserialized contact computes its next manifold.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) apart: bool,
    /// Where this contact stands in the contact lists of body A and body B,
    /// so that destroying it takes it out of each in constant time (a fixed
    /// ground can list thousands). [`UNLISTED`] until it is listed.
    #[cfg_attr(feature = "serde", serde(skip, default = "unlisted"))]
    pub(crate) listed_at: [u32; 2],
}

/// [`Contact::listed_at`] of a contact in no body's list.
pub(crate) const UNLISTED: u32 = u32::MAX;

#[cfg(feature = "serde")]
fn unlisted() -> [u32; 2] {
    [UNLISTED; 2]
}

/// Where a manifold was computed, relative to its first body; or, for
/// shapes found farther apart than the speculative distance (a manifold
/// with no point, whose frame nothing reads), how far apart and where
/// ([`ManifoldFrame::apart`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ManifoldFrame {
    /// The normal in body A's frame; for shapes found apart, body B's
    /// origin in A's frame.
    pub normal: Vec2,
    /// Body B's rotation relative to body A's.
    pub relative_rotation: Rotation,
    /// The points' separations. Each point was one place on both bodies then,
    /// so that a point's separation now is this plus the normal component of
    /// how far its place on B has moved from its place on A. For shapes
    /// found apart, a lower bound on their distance, then 0.
    pub separations: [Real; 2],
}

impl ManifoldFrame {
    /// No frame yet.
    pub const NONE: ManifoldFrame = ManifoldFrame {
        normal: Vec2::new(0.0, 0.0),
        relative_rotation: Rotation::new_unchecked(nalgebra::Complex { re: 1.0, im: 0.0 }),
        separations: [0.0; 2],
    };

    /// [`ManifoldFrame::NONE`], for a contact read back before its frame.
    #[cfg(feature = "serde")]
    pub fn none() -> Self {
        Self::NONE
    }

    /// The frame of a manifold with world normal `normal` and points
    /// `points`, computed with the bodies at `pose_a` and `pose_b`.
    pub fn new(normal: &Vec2, points: &[ContactPointState], pose_a: &Isometry, pose_b: &Isometry) -> Self {
        let mut separations = [0.0; 2];
        for (s, p) in separations.iter_mut().zip(points) {
            *s = p.separation;
        }
        Self {
            normal: pose_a.rotation.inverse_transform_vector(normal),
            relative_rotation: pose_a.rotation.rotation_to(&pose_b.rotation),
            separations,
        }
    }

    /// The record of shapes found at least `gap` apart with the bodies at
    /// `pose_a` and `pose_b`: body B's pose in A's frame, and the gap.
    pub fn apart(gap: Real, pose_a: &Isometry, pose_b: &Isometry) -> Self {
        let relative = pose_a.inv_mul(pose_b);
        Self {
            normal: relative.translation.vector,
            relative_rotation: relative.rotation,
            separations: [gap, 0.0],
        }
    }
}

impl Contact {
    /// A contact between two colliders of two bodies that has not touched yet,
    /// with no friction or restitution.
    pub(crate) fn between(
        collider_a: ColliderKey,
        collider_b: ColliderKey,
        body_a: BodyKey,
        body_b: BodyKey,
    ) -> Self {
        Contact {
            collider_a: Untagged::of(collider_a),
            collider_b: Untagged::of(collider_b),
            body_a: Untagged::of(body_a),
            body_b: Untagged::of(body_b),
            world: collider_a.world(),
            friction: 0.0,
            restitution: 0.0,
            tangent_speed: 0.0,
            rolling_resistance: 0.0,
            rolling_impulse: 0.0,
            pre_solve: false,
            sensor: false,
            normal: Vec2::zeros(),
            points: ArrayVec::new(),
            touching: false,
            computed_in: ManifoldFrame::NONE,
            apart: false,
            listed_at: [UNLISTED; 2],
        }
    }

    /// The first collider (the one the normal points away from).
    #[inline]
    pub fn collider_a(&self) -> ColliderKey {
        self.collider_a.in_world(self.world)
    }

    /// The second collider.
    #[inline]
    pub fn collider_b(&self) -> ColliderKey {
        self.collider_b.in_world(self.world)
    }

    /// The body of the first collider.
    #[inline]
    pub fn body_a(&self) -> BodyKey {
        self.body_a.in_world(self.world)
    }

    /// The body of the second collider.
    #[inline]
    pub fn body_b(&self) -> BodyKey {
        self.body_b.in_world(self.world)
    }

    /// Unit normal from A to B, world frame.
    pub fn normal(&self) -> Vec2 {
        self.normal
    }

    /// The manifold's points (speculative ones included).
    pub fn points(&self) -> &[ContactPointState] {
        &self.points
    }

    /// True when the manifold has points (or, for a sensor, the shapes overlap).
    pub fn is_touching(&self) -> bool {
        self.touching
    }

    /// The friction coefficient, the colliders' mixed (or a friction rule's).
    pub fn friction(&self) -> Real {
        self.friction
    }

    /// The restitution, the colliders' mixed (or a restitution rule's).
    pub fn restitution(&self) -> Real {
        self.restitution
    }

    /// The sum of the colliders' surface speeds, m/s (conveyor belts).
    pub fn tangent_speed(&self) -> Real {
        self.tangent_speed
    }

    /// The rolling resistance's lever, m: the larger of the colliders'
    /// resistances times the larger rolling radius.
    pub fn rolling_resistance(&self) -> Real {
        self.rolling_resistance
    }

    /// The accumulated rolling impulse of the last substep, N·m·s.
    pub fn rolling_impulse(&self) -> Real {
        self.rolling_impulse
    }

    /// True when one of the colliders is a sensor.
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }

    /// Carries the manifold along with the bodies, now at `pose_a` and
    /// `pose_b`, in place, when they moved so little relative to each other
    /// since it was computed that a new one would differ by less than
    /// [`MANIFOLD_REUSE_DRIFT`]; false, the contact unchanged, when the
    /// manifold must be computed again. `span` bounds the distance between any two points where the
    /// bodies can meet: twice the smaller body's extent.
    ///
    /// Each point keeps its place on each body, and its separation changes by
    /// how far those two places have moved apart along the normal, which turns
    /// with A (the solver's own model of a point within a step).
    /// What a new computation could see differently is bounded instead:
    /// - each point may have slid at most the drift across the normal (past
    ///   that, the clipped ends of a patch or the closest features change);
    /// - the bodies may have turned relative to each other by at most
    ///   [`MANIFOLD_REUSE_TURN`], which bounds the normal's error;
    /// - a one-point manifold (a corner on a face) may have turned at most the
    ///   drift over the span, so that a second corner comes at most the drift
    ///   closer unseen. Two points already bound their patch, and a turn
    ///   changes only their separations, which are measured.
    ///
    /// A point that left the speculative distance also asks for a full
    /// computation, which drops it.
    #[inline]
    pub(crate) fn carry_manifold(
        &mut self,
        pose_a: &Isometry,
        pose_b: &Isometry,
        span: Real,
        speculative_distance: Real,
    ) -> bool {
        if self.points.is_empty() {
            return false;
        }
        let turn =
            self.computed_in.relative_rotation.rotation_to(&pose_a.rotation.rotation_to(&pose_b.rotation));
        let sin_turn = turn.im.abs();
        let single = self.points.len() == 1;
        if turn.re <= 0.0
            || sin_turn > MANIFOLD_REUSE_TURN
            || (single && sin_turn * span > MANIFOLD_REUSE_DRIFT)
        {
            return false;
        }
        let normal = pose_a.rotation * self.computed_in.normal;
        // Each point's new place and separation, written only once every
        // point has passed.
        let mut carried = [(Point::origin(), 0.0); 2];
        for ((p, &computed), out) in self.points.iter().zip(&self.computed_in.separations).zip(&mut carried) {
            let (on_a, on_b) = (pose_a * p.local_a, pose_b * p.local_b);
            let gap = on_b - on_a;
            let approach = normal.dot(&gap);
            let separation = computed + approach;
            let slide = gap - normal * approach;
            if separation > speculative_distance
                || slide.norm_squared() > MANIFOLD_REUSE_DRIFT * MANIFOLD_REUSE_DRIFT
            {
                return false;
            }
            *out = (on_a + gap * 0.5, separation);
        }
        self.normal = normal;
        for (p, (point, separation)) in self.points.iter_mut().zip(carried) {
            p.point = point;
            p.separation = separation;
        }
        true
    }

    /// True when the last full computation found the shapes farther apart
    /// than `margin` by more than bodies `a` and `b` (this contact's) have
    /// moved relative to each other since (see [`still_apart`]): the
    /// manifold has no point still. Only a contact with no point has the
    /// record ([`Contact::apart`]): a sensor, or a contact that touches,
    /// never does.
    #[inline]
    pub(crate) fn stays_apart(&self, a: &crate::Body, b: &crate::Body, margin: Real) -> bool {
        let (frame, gap) = (&self.computed_in, self.computed_in.separations[0]);
        if !self.apart || gap <= margin {
            return false;
        }
        // B's shapes lie within its extent of its centre of mass.
        let reach = b.local_center.coords.norm() + b.extent;
        let size = |p: &Isometry| p.translation.vector.abs().max();
        let scale = size(&a.pose) + size(&b.pose) + reach;
        let then = Isometry::from_parts(frame.normal.into(), frame.relative_rotation);
        still_apart(&then, &a.pose.inv_mul(&b.pose), gap, margin, reach, scale)
    }

    /// Gives each of `points` the accumulated impulses of the current point
    /// with the same feature id (none without warm starting).
    pub(crate) fn carry_impulses(&self, points: &mut [ContactPointState], warm_start: bool) {
        for p in points {
            let old = self.points.iter().find(|o| o.id == p.id).filter(|_| warm_start);
            p.normal_impulse = old.map_or(0.0, |o| o.normal_impulse);
            p.tangent_impulse = old.map_or(0.0, |o| o.tangent_impulse);
        }
    }
}

/// Room left for rounding in [`still_apart`], metres: a tenth of the
/// linear slop, far more than the rounding of a box pair's separations
/// near the origin; poses far from it add their own (see there).
const APART_ROOM: Real = 0.1 * LINEAR_SLOP;

/// True when two shapes found at least `gap` apart, with body B at `then`
/// in body A's frame, are still farther apart than `margin` with B at
/// `now`: the distance between the shapes depends on that pose alone, and
/// no point of B's shapes (all within `reach` of B's origin) has moved in
/// A's frame by more than the change of translation plus the chord of the
/// turn times `reach`. What is left must also clear [`APART_ROOM`] and the
/// rounding of poses whose coordinates are as large as `scale`.
///
/// A manifold's points are never closer than the shapes (a clipped point's
/// separation is its distance to the reference edge, and the fallbacks
/// measure between closest features), so shapes farther apart than the
/// margin give a manifold with no point: computing it can be skipped.
pub(crate) fn still_apart(
    then: &Isometry,
    now: &Isometry,
    gap: Real,
    margin: Real,
    reach: Real,
    scale: Real,
) -> bool {
    let moved = (now.translation.vector - then.translation.vector).norm();
    let turn = then.rotation.rotation_to(&now.rotation);
    let chord = ((1.0 - turn.re) * (1.0 - turn.re) + turn.im * turn.im).sqrt();
    let room = gap - margin - APART_ROOM - 16.0 * Real::EPSILON * scale;
    moved + chord * reach < room
}

#[cfg(test)]
mod tests {
    use super::*;
    use lamina_geometry::Shape;
    use lamina_geometry::tolerance::SPECULATIVE_DISTANCE;
    use lamina_narrowphase::contact_manifold;

    /// A contact whose manifold was computed with the shapes at `pose_a`, `pose_b`.
    fn computed(a: &Shape, pose_a: &Isometry, b: &Shape, pose_b: &Isometry) -> Contact {
        let m = contact_manifold(a, pose_a, b, pose_b, SPECULATIVE_DISTANCE);
        let points: ArrayVec<ContactPointState, 2> = m
            .points
            .iter()
            .map(|p| ContactPointState {
                point: p.point,
                local_a: p.local_a,
                local_b: p.local_b,
                separation: p.separation,
                id: p.id,
                normal_impulse: 0.0,
                tangent_impulse: 0.0,
            })
            .collect();
        Contact {
            friction: 0.6,
            normal: m.normal,
            computed_in: ManifoldFrame::new(&m.normal, &points, pose_a, pose_b),
            touching: !points.is_empty(),
            points,
            ..Contact::between(
                ColliderKey::default(),
                ColliderKey::default(),
                BodyKey::default(),
                BodyKey::default(),
            )
        }
    }

    /// The carried manifold against the one computed afresh (the oracle), for
    /// boxes resting on boxes moved by random small motions: wherever the
    /// manifold is carried, it has the fresh one's points (by feature), their
    /// separations within a micron and the normal within the turn allowed.
    /// Motions past the drift are refused.
    #[test]
    fn a_carried_manifold_matches_a_fresh_one() {
        let ground = Shape::rectangle(5.0, 0.5);
        let cases = [
            // A box on the ground, a box on a box shifted sideways, a small box
            // on a larger one turned a little, a box resting on a slope.
            (Shape::rectangle(0.5, 0.5), Isometry::new(Vec2::new(0.3, 0.999), 0.0), 0.0),
            (Shape::rectangle(0.5, 0.5), Isometry::new(Vec2::new(4.7, 0.9995), 0.0), 0.0),
            (Shape::rectangle(0.25, 0.1), Isometry::new(Vec2::new(-1.0, 0.6), 0.001), 0.0),
            (Shape::rectangle(0.5, 0.5), Isometry::new(Vec2::new(0.0, 1.0), 0.0), 0.3),
        ];
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let (mut carried, mut refused) = (0, 0);
        for (shape, pose_b, ground_angle) in cases {
            let pose_a = Isometry::new(Vec2::zeros(), ground_angle);
            let pose_b = pose_a * pose_b;
            let contact = computed(&ground, &pose_a, &shape, &pose_b);
            assert_eq!(contact.points.len(), 2, "the case must start with a face contact: {pose_b:?}");
            for _ in 0..2000 {
                // Up to 2 mm along each axis and 0.006 rad: about half the
                // motions are within the drift and the turn allowed.
                let mut signed = || 2.0 * rng.unit() - 1.0;
                let (dx, dy, dr) = (0.002 * signed(), 0.002 * signed(), 0.006 * signed());
                let moved = Isometry::new(
                    pose_b.translation.vector + Vec2::new(dx, dy),
                    pose_b.rotation.angle() + dr,
                );
                let span = 2.0 * 0.75;
                let mut moved_contact = contact.clone();
                if !moved_contact.carry_manifold(&pose_a, &moved, span, SPECULATIVE_DISTANCE) {
                    let unchanged = (moved_contact.normal, &moved_contact.points, moved_contact.computed_in)
                        == (contact.normal, &contact.points, contact.computed_in);
                    assert!(unchanged, "a refused contact is left as it was");
                    refused += 1;
                    continue;
                }
                let (normal, points) = (moved_contact.normal, &moved_contact.points);
                carried += 1;
                let fresh = contact_manifold(&ground, &pose_a, &shape, &moved, SPECULATIVE_DISTANCE);
                assert!(dr.abs() <= MANIFOLD_REUSE_TURN * 1.01, "carried across a turn of {dr}");
                assert!(normal.dot(&fresh.normal) >= (MANIFOLD_REUSE_TURN * 1.01).cos());
                assert_eq!(points.len(), fresh.points.len());
                for p in points {
                    let f = fresh.points.iter().find(|f| f.id == p.id).expect("the same features");
                    assert!(
                        (p.separation - f.separation).abs() < 1.0e-6 + 0.01 * MANIFOLD_REUSE_DRIFT,
                        "separation {} carried, {} fresh",
                        p.separation,
                        f.separation
                    );
                    assert!((p.point - f.point).norm() <= 2.0 * MANIFOLD_REUSE_DRIFT);
                }
            }
        }
        assert!(carried > 1000 && refused > 1000, "{carried} carried, {refused} refused");
    }

    /// A corner on a face: a turn that brings the box's next corner closer by
    /// more than the drift asks for a full computation, which the same turn
    /// on a face contact would not.
    #[test]
    fn a_one_point_manifold_is_not_carried_through_a_turn_over_its_span() {
        let ground = Shape::rectangle(5.0, 0.5);
        let corner_down = Isometry::new(Vec2::new(0.0, 0.5 + 0.5 * std::f64::consts::SQRT_2 as Real), 0.785);
        let box_shape = Shape::rectangle(0.5, 0.5);
        let contact = computed(&ground, &Isometry::identity(), &box_shape, &corner_down);
        assert_eq!(contact.points.len(), 1);
        let turned = Isometry::new(corner_down.translation.vector, 0.785 + 0.002);
        let span = 2.0 * 0.5 * std::f64::consts::SQRT_2 as Real;
        assert!(contact.clone().carry_manifold(
            &Isometry::identity(),
            &corner_down,
            span,
            SPECULATIVE_DISTANCE
        ));
        assert!(!contact.clone().carry_manifold(&Isometry::identity(), &turned, span, SPECULATIVE_DISTANCE));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Two boxes found apart by more than the margin, then moved by
        /// random amounts: the gap found is never more than their distance
        /// (the oracle: GJK's), and wherever `still_apart` says they are
        /// still apart, a manifold computed afresh has no point and their
        /// distance exceeds the margin. Near the origin and 10 km out.
        #[test]
        fn boxes_still_apart_have_no_points(
            half in proptest::array::uniform4(0.05 as Real..1.0),
            placed in proptest::array::uniform3(-1.0 as Real..1.0),
            turned in -3.2 as Real..3.2,
            push in 0.0 as Real..0.3,
            moved in proptest::array::uniform3(-1.0 as Real..1.0),
            step in 0.0 as Real..0.2,
            far in proptest::bool::ANY,
        ) {
            use lamina_narrowphase::{contact_manifold_and_gap, distance};
            let margin = SPECULATIVE_DISTANCE;
            let (a, b) = (Shape::rectangle(half[0], half[1]), Shape::rectangle(half[2], half[3]));
            let origin = if far { Vec2::new(10_000.0, -10_000.0) } else { Vec2::zeros() };
            let pose_a = Isometry::new(origin, placed[2]);
            // B set beside A along a random direction, pushed out past the
            // sum of their circumradii less a little, so that some pairs
            // are just apart and some overlap.
            let direction = Vec2::new(placed[0], placed[1] + 1.5).normalize();
            let reach_b = Vec2::new(half[2], half[3]).norm();
            let apart = Vec2::new(half[0], half[1]).norm() + reach_b - 0.3 + push;
            let pose_b = Isometry::new(origin + direction * apart, turned);
            let (m, gap) = contact_manifold_and_gap(&a, &pose_a, &b, &pose_b, margin, false);
            if !m.points.is_empty() || gap <= margin {
                return Ok(());
            }
            // The oracle measures in A's frame: GJK on poses 10 km out
            // would round at a millimetre.
            let (rel_then, at_a) = (pose_a.inv_mul(&pose_b), Isometry::identity());
            let then = distance(&a, &at_a, &b, &rel_then).distance;
            proptest::prop_assert!(gap <= then + 1.0e-4, "gap {gap} past the distance {then}");
            let moved_b = Isometry::new(
                pose_b.translation.vector + Vec2::new(moved[0], moved[1]) * step,
                pose_b.rotation.angle() + moved[2] * step,
            );
            let size = |p: &Isometry| p.translation.vector.abs().max();
            let scale = size(&pose_a) + size(&moved_b) + reach_b;
            let rel_now = pose_a.inv_mul(&moved_b);
            if still_apart(&rel_then, &rel_now, gap, margin, reach_b, scale) {
                let now = contact_manifold(&a, &pose_a, &b, &moved_b, margin);
                proptest::prop_assert!(now.points.is_empty(), "points after a move told apart: {:?}", now.points);
                let distance_now = distance(&a, &at_a, &b, &rel_now).distance;
                proptest::prop_assert!(distance_now > margin, "distance {distance_now} within the margin");
            }
        }
    }
}
