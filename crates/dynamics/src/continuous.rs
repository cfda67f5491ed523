//! Continuous collision: a body that moved far for its size in one step is
//! swept from where it started to where the solver put it, and stopped at the
//! first touch of a body it may not pass.
//!
//! The solver sees only the contacts that exist at the start of a step, with
//! their speculative points. A body fast enough to cross a thin obstacle
//! within a step, or to swing a corner through it while turning, can meet an
//! obstacle no contact warned about. After the solve, each dynamic body whose
//! motion exceeded half its inner radius (the radius of the largest disc
//! about its shapes' centroids that fits in them) is swept about its centre of
//! mass against the fixed and kinematic colliders along its path, by
//! conservative advancement (`lamina_narrowphase::time_of_impact_of_sweeps`),
//! and moved back to the first time it comes within the linear slop of one.
//! It keeps its velocity; the next step's contact stops it. Bullets are swept
//! against dynamic bodies too, after the others have moved.
//!
//! Sweeps must not stop bodies that are not tunnelling. A shape that starts
//! the step touching something (a box sliding fast on the ground, a body in
//! a pile) is stopped only if it would sink a quarter of its inner radius
//! deeper than it starts, or if a small disc about its centroid would touch
//! (its middle would cross); pressed into a fixed collider that way, it also
//! loses its approach speed there. One-sided chain segments are ignored by
//! shapes that start behind them, or that slide along them without sinking.

use lamina_geometry::tolerance::LINEAR_SLOP;
use lamina_geometry::{Aabb, Isometry, Point, Real, Shape, SupportMap, Vec2};
use lamina_narrowphase::{FeatureId, Sweep, ToiStatus, time_of_impact_of_sweeps};

use crate::broad_phase::BroadPhase;
use crate::contact::ContactPointState;
use crate::hooks::{Hooks, PreSolve};
use crate::joint::{Joint, joint_forbids_contact};
use crate::tagged_map::TaggedMap;
use crate::{Body, BodyKey, BodyKind, Collider, ColliderKey, JointKey, WorldKey};

/// A body is swept when it moves more than this fraction of its inner radius
/// in one step (Box2D's default safety factor). Smaller values sweep more
/// bodies, and cost more.
pub(crate) const FAST_FRACTION: Real = 0.5;

/// A shape that starts its sweep touching something is swept as a disc of
/// this fraction of its inner radius about its centroid.
const CORE_FRACTION: Real = 0.25;

/// The least a body touching something at the start of its sweep may sink
/// before the sweep stops it, metres: well above the solver's resting overlap.
const SINK_ALLOWANCE: Real = 4.0 * LINEAR_SLOP;

/// How much deeper than it starts a shape touching something may sink in
/// one sweep before the sweep stops it: a quarter of its inner radius, and
/// never less than [`SINK_ALLOWANCE`].
fn sink_allowance(shape: &Shape) -> Real {
    (CORE_FRACTION * shape.inner_radius()).max(SINK_ALLOWANCE)
}

/// Where a sweep stops a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Stop {
    /// The fraction of the step the body keeps, in `[0, 1]`.
    pub fraction: Real,
    /// For a body already pressed against a fixed collider that would sink
    /// into it: the collider's normal there (towards the body). Its approach
    /// speed along it is taken away, so that the crowd pressing it does not
    /// carry it in on the next step either.
    pub pressed: Option<Vec2>,
}

impl Stop {
    /// The whole step: nothing in the way.
    pub(crate) const NONE: Stop = Stop { fraction: 1.0, pressed: None };
}

/// Which bodies a sweep stops at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SweepTargets {
    /// Fixed bodies, and kinematic ones moving over the step (the pass that
    /// runs while every body is still at its start pose).
    Immovable,
    /// Every body but bullets, each still at its end-of-step pose (the pass
    /// for bullets, after the others have moved).
    AllButBullets,
}

/// True when a body that moved by `motion` metres (its centre's travel plus
/// its turn times its extent) in a step needs a sweep.
pub(crate) fn is_fast(b: &Body, motion: Real) -> bool {
    b.kind == BodyKind::Dynamic && motion > FAST_FRACTION * b.min_extent
}

/// What a sweep may stop at: the bodies and colliders where they stand,
/// the broad phase that finds them near a path, and the joints that keep
/// some bodies from colliding.
pub(crate) struct Obstacles<'w> {
    pub bodies: &'w TaggedMap<BodyKey, Body>,
    pub colliders: &'w TaggedMap<ColliderKey, Collider>,
    pub broad_phase: &'w BroadPhase,
    pub joints: &'w TaggedMap<JointKey, Joint>,
    /// Asked before a sweep stops at a collider that opts into pre-solve.
    pub hooks: &'w Hooks,
}

impl Obstacles<'_> {
    /// The earliest fraction of the step at which body `key`, moving along
    /// `sweep` (about its centre of mass, from its start pose at 0 to its end
    /// pose at 1), comes within the linear slop of a collider of `targets`
    /// that it collides with ([`Stop::NONE`] when it meets none).
    pub(crate) fn sweep_fraction(
        &self,
        key: BodyKey,
        sweep: &Sweep,
        targets: SweepTargets,
        dt: Real,
    ) -> Stop {
        let body = &self.bodies[key];
        let mut stop = Stop::NONE;
        for &ck in &body.colliders {
            let c = &self.colliders[ck];
            if c.sensor {
                continue;
            }
            let part = sweep.attached(&c.local_pose);
            // The shape's poses at both ends of the sweep.
            let ends = [part.pose_at(0.0), part.pose_at(1.0)];
            let path = c.shape.aabb(&ends[0]).merged(&c.shape.aabb(&ends[1]));
            // Within the linear slop of the path counts as met.
            let path = path.loosened(LINEAR_SLOP);
            // Fixed and kinematic colliders have an index of their own, so that
            // the first pass never scans the crowd of dynamic ones around it.
            let index = match targets {
                SweepTargets::Immovable => self.broad_phase.immovable(),
                SweepTargets::AllButBullets => self.broad_phase.all(),
            };
            let _ = index.query_with(&path, |other_key| {
                let other = &self.colliders[other_key];
                let Some(other_sweep) = self.target_sweep(key, c, other, &path, targets, dt) else { return };
                if crosses_no_chain(other, &other_sweep, c, &ends, body.min_extent) {
                    return;
                }
                if let Some((t, touch)) = first_touch(other, &other_sweep, c, &part, stop.fraction)
                    && self.hook_allows((other_key.in_world(key.world()), other), (ck, c), key, &touch)
                {
                    stop = t;
                }
            });
        }
        stop
    }

    /// False when the pre-solve hook, asked because `other` or `c` (of the
    /// swept body `key`) opts in, lets the swept body pass where they would
    /// touch: a fast body through a one-way platform from below.
    fn hook_allows(
        &self,
        (other_key, other): (ColliderKey, &Collider),
        (ck, c): (ColliderKey, &Collider),
        key: BodyKey,
        touch: &Touch,
    ) -> bool {
        if !(other.pre_solve || c.pre_solve) || !self.hooks.has_pre_solve() {
            return true;
        }
        let point = ContactPointState {
            point: touch.point,
            local_a: self.bodies[other.body].pose.inverse_transform_point(&touch.point),
            local_b: self.bodies[key].pose.inverse_transform_point(&touch.point),
            separation: 0.0,
            id: FeatureId::default(),
            normal_impulse: 0.0,
            tangent_impulse: 0.0,
        };
        self.hooks.solve_allowed(&PreSolve {
            collider_a: other_key,
            collider_b: ck,
            body_a: other.body,
            body_b: key,
            normal: touch.normal,
            points: std::slice::from_ref(&point),
            continuous: true,
        })
    }

    /// How collider `other` moves over the step, if the sweep of `c` (of body
    /// `key`, whose path lies in `path`) should stop at it.
    fn target_sweep(
        &self,
        key: BodyKey,
        c: &Collider,
        other: &Collider,
        path: &Aabb,
        targets: SweepTargets,
        dt: Real,
    ) -> Option<Sweep> {
        if other.body == key || other.sensor || !c.filter.should_collide(&other.filter) {
            return None;
        }
        let ob = &self.bodies[other.body];
        // The broad phase answers over fat boxes; a still target whose own
        // bounds miss the path is a near miss.
        let still = ob.kind == BodyKind::Fixed || targets == SweepTargets::AllButBullets;
        if still && !other.aabb.intersects(path) {
            return None;
        }
        let sweep = match (ob.kind, targets) {
            (BodyKind::Fixed, _) => Sweep::still(&ob.pose),
            (BodyKind::Kinematic, SweepTargets::Immovable) => Sweep {
                local_center: ob.local_center,
                c0: ob.center,
                motion: ob.linear_velocity * dt,
                q0: ob.pose.rotation,
                angle: ob.angular_velocity * dt,
            },
            (BodyKind::Dynamic, SweepTargets::Immovable) => return None,
            (BodyKind::Dynamic, SweepTargets::AllButBullets) if ob.bullet => return None,
            (_, SweepTargets::AllButBullets) => Sweep::still(&ob.pose),
        };
        if joint_forbids_contact(self.bodies, self.joints, key, other.body) {
            return None;
        }
        Some(sweep.attached(&other.local_pose))
    }
}

/// True when `other` (moving along `target`) is a chain segment that the
/// sweep of `c` (whose poses at its start and end are `ends`) need not stop at: the shape's
/// centroid starts behind the one-sided segment, or moves mostly along it and
/// ends well in front (sliding fast over terrain). As in Box2D, this keeps fast
/// bodies from pausing on chains.
fn crosses_no_chain(
    other: &Collider,
    target: &Sweep,
    c: &Collider,
    ends: &[Isometry; 2],
    min_extent: Real,
) -> bool {
    let Shape::ChainSegment(chain) = &other.shape else { return false };
    let pose = target.pose_at(0.0);
    let (p1, p2) = (pose * chain.segment.a, pose * chain.segment.b);
    let Some(edge) = lamina_geometry::math::try_normalize(&(p2 - p1)) else { return false };
    let centroid = c.shape.centroid();
    let (c1, c2) = (ends[0] * centroid, ends[1] * centroid);
    // Signed distance on the solid side of the segment's line.
    let side = |q: lamina_geometry::Point| lamina_geometry::math::cross(&(q - p1), &edge);
    let (s1, s2) = (side(c1), side(c2));
    if s1 < 0.0 {
        return true;
    }
    let core = CORE_FRACTION * min_extent;
    if !(s1 - s2 < core && s2 > core) {
        return false;
    }
    // The middle slides along; the shape must not sink either (a spinning
    // capsule swings its far end into the wall while its middle stays put).
    let allowance = sink_allowance(&c.shape);
    // The shape's deepest point below the segment's line bounds how deep it
    // can sink into the segment: no deeper than half the allowance, and it
    // cannot sink past it, whatever its depth at the start. Most bodies
    // sliding along a wall pass this way, without the two distances below.
    let inward = Vec2::new(-edge.y, edge.x);
    if side(c.shape.support_point_world(&ends[1], &inward)) >= -0.5 * allowance {
        return true;
    }
    let depth = |end: usize| {
        lamina_narrowphase::signed_distance(&other.shape, &target.pose_at(end as Real), &c.shape, &ends[end])
    };
    depth(1) >= depth(0).min(0.0) - allowance
}

/// Where a sweep would stop a body, for the pre-solve hook: the normal from
/// the obstacle toward the swept shape and the point midway between them.
struct Touch {
    normal: Vec2,
    point: Point,
}

impl Touch {
    fn of(toi: &lamina_narrowphase::Toi) -> Self {
        Touch { normal: toi.normal, point: toi.point_a + (toi.point_b - toi.point_a) * 0.5 }
    }
}

/// The first time before `limit` at which collider `c` moving along `part`
/// comes within the linear slop of collider `other` moving along `target`,
/// and where, or `None`.
fn first_touch(
    other: &Collider,
    target: &Sweep,
    c: &Collider,
    part: &Sweep,
    limit: Real,
) -> Option<(Stop, Touch)> {
    let toi = time_of_impact_of_sweeps(&other.shape, target, &c.shape, part, limit, LINEAR_SLOP)?;
    if toi.status != ToiStatus::Initial {
        return (0.0 < toi.time && toi.time < limit)
            .then(|| (Stop { fraction: toi.time, pressed: None }, Touch::of(&toi)));
    }
    // Touching from the start (sliding on the ground, resting in a pile): a
    // sweep to the first touch would stop the body where it is. Stop it only
    // if it would sink deeper than it starts by more than a quarter of its
    // inner radius (a spinning body whose far end swings into a wall the
    // contact does not yet cover, or one a crowd presses in), or if its
    // middle would cross.
    let start = toi.normal.dot(&(toi.point_b - toi.point_a));
    let deeper = time_of_impact_of_sweeps(
        &other.shape,
        target,
        &c.shape,
        part,
        limit,
        start - sink_allowance(&c.shape),
    )
    .filter(|t| t.status == ToiStatus::Hit && 0.0 < t.time);
    let radius = CORE_FRACTION * c.shape.inner_radius();
    let crossed = (radius > 0.0)
        .then(|| {
            let core = Shape::circle(radius);
            let core_sweep =
                part.attached(&Isometry::translation(c.shape.centroid().x, c.shape.centroid().y));
            time_of_impact_of_sweeps(&other.shape, target, &core, &core_sweep, limit, LINEAR_SLOP)
        })
        .flatten()
        .filter(|t| t.status == ToiStatus::Hit && 0.0 < t.time);
    let first = match (deeper, crossed) {
        (Some(a), Some(b)) => Some(if b.time < a.time { b } else { a }),
        (a, b) => a.or(b),
    }
    .filter(|t| t.time < limit)?;
    // Only a still target (a fixed body) can take the body's approach speed
    // without giving it any of its own.
    let stop = Stop { fraction: first.time, pressed: target.is_still().then_some(first.normal) };
    Some((stop, Touch::of(&first)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lamina_geometry::Rotation;

    /// What the chain test's shortcut relies on: a shape whose deepest point
    /// lies at height `h` across a segment's line (negative below it)
    /// overlaps the segment by no more than `-h`, so one within half its sink
    /// allowance of the line cannot have sunk past the allowance. Checked against the narrow
    /// phase's signed distance (GJK, and EPA where they overlap) for circles,
    /// capsules and boxes at random turns and places along and across the
    /// line, most of them overlapping it a little.
    #[test]
    fn a_shape_near_a_segments_line_sinks_no_deeper_than_its_deepest_point() {
        // Listed right to left, so that its solid side is above (`side` > 0).
        let (p1, p2) = (Point::new(2.0, 0.0), Point::new(-2.0, 0.0));
        let segment = Shape::chain_segment(p1, p2, None, None);
        let shapes = [
            Shape::circle(0.3),
            Shape::capsule(Point::new(-0.25, 0.0), Point::new(0.25, 0.0), 0.25),
            Shape::rectangle(0.4, 0.25),
        ];
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let inward = Vec2::new(0.0, -1.0);
        let mut overlapping = 0;
        for i in 0..3000 {
            let shape = &shapes[i % shapes.len()];
            let allowance = sink_allowance(shape);
            let rotation = Rotation::new(std::f32::consts::TAU as Real * rng.unit());
            let x = 3.0 * rng.unit() - 1.5;
            // The deepest point at height `h`, from the whole allowance below
            // the line (twice the shortcut's bound) to a little above it.
            let h = (allowance + 0.05) * rng.unit() - allowance;
            let level = Isometry::from_parts(Vec2::new(x, 0.0).into(), rotation);
            let lowest = shape.support_point_world(&level, &inward).y;
            let pose = Isometry::from_parts(Vec2::new(x, h - lowest).into(), rotation);
            let depth = lamina_narrowphase::signed_distance(&segment, &Isometry::identity(), shape, &pose);
            assert!(depth >= h - 1.0e-4, "shape {i}: deepest point at {h}, signed distance {depth}");
            overlapping += usize::from(h < 0.0);
        }
        assert!(overlapping > 1200, "{overlapping} shapes overlapped the line");
    }
}
