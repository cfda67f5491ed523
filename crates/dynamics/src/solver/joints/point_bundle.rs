//! Plain point joints solved several at a time, one per SIMD lane.
//!
//! A revolute joint without limits, motor or spring is nothing but its 2×2
//! point rows (`point.rs`). Cloths, chains and grids of such joints are
//! common, and they are where the solver spends its time, so they are packed
//! in bundles like contacts (four lanes, or eight with AVX): the bodies of four joints are gathered
//! into lanes, every lane runs the point rows' arithmetic, and the new
//! velocities are scattered back. A bundle's unused lanes join two immovable
//! bodies: their matrix is zero, and so is their impulse.

use lamina_geometry::{Real, Vec2};

use super::{JointBody, JointContext, rigid_softness, world_anchor};
use crate::joint::Joint;
use crate::solver::Softness;
use crate::solver::body_state::{BodiesW, States};
use crate::solver::bundles::{LaneBodies, LaneBundle, LaneConstraints};
use crate::solver::lanes::{Lanes, Vec2W, Wide, lane, select};

/// One plain point joint as prepared for a lane: only what its rows read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointJoint {
    a: u32,
    b: u32,
    inv_mass_a: Real,
    inv_i_a: Real,
    inv_mass_b: Real,
    inv_i_b: Real,
    anchor_a: Vec2,
    anchor_b: Vec2,
    delta_center: Vec2,
    softness: Softness,
    impulse: Vec2,
}

impl PointJoint {
    /// The entry of a joint that is not a plain point joint: never packed.
    pub const UNUSED: PointJoint = PointJoint {
        a: crate::body::NO_INDEX,
        b: crate::body::NO_INDEX,
        inv_mass_a: 0.0,
        inv_i_a: 0.0,
        inv_mass_b: 0.0,
        inv_i_b: 0.0,
        anchor_a: Vec2::new(0.0, 0.0),
        anchor_b: Vec2::new(0.0, 0.0),
        delta_center: Vec2::new(0.0, 0.0),
        softness: Softness { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 },
        impulse: Vec2::new(0.0, 0.0),
    };

    /// Prepares `joint`, a plain point joint, between bodies `a` and `b`.
    pub fn prepare(joint: &Joint, a: &JointBody, b: &JointBody, ctx: &JointContext) -> Self {
        Self {
            a: a.index,
            b: b.index,
            inv_mass_a: a.inv_mass,
            inv_i_a: a.inv_inertia,
            inv_mass_b: b.inv_mass,
            inv_i_b: b.inv_inertia,
            anchor_a: world_anchor(a, &joint.frame_a),
            anchor_b: world_anchor(b, &joint.frame_b),
            delta_center: b.center - a.center,
            softness: rigid_softness(joint, ctx),
            impulse: if ctx.warm_start { joint.impulses.linear } else { Vec2::zeros() },
        }
    }
}

/// Point joints, one per lane, in struct-of-arrays form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointJointBundle<W: Lanes = Wide> {
    /// The lanes' constraints, bodies and inverse masses.
    pub bodies: LaneBodies<W>,
    /// Anchors from each centre of mass, world orientation at the step's start.
    anchor_a: Vec2W<W>,
    anchor_b: Vec2W<W>,
    /// B's centre of mass minus A's at the step's start.
    delta_center: Vec2W<W>,
    bias_rate: W,
    mass_scale: W,
    impulse_scale: W,
    /// The accumulated point impulse, N·s per substep.
    impulse: Vec2W<W>,
}

impl<W: Lanes> LaneBundle for PointJointBundle<W> {
    const WIDTH: usize = W::N;

    const EMPTY: PointJointBundle<W> = PointJointBundle {
        bodies: LaneBodies::EMPTY,
        anchor_a: Vec2W { x: W::ZERO, y: W::ZERO },
        anchor_b: Vec2W { x: W::ZERO, y: W::ZERO },
        delta_center: Vec2W { x: W::ZERO, y: W::ZERO },
        bias_rate: W::ZERO,
        mass_scale: W::ONE,
        impulse_scale: W::ZERO,
        impulse: Vec2W { x: W::ZERO, y: W::ZERO },
    };
}

impl<W: Lanes> LaneConstraints for PointJointBundle<W> {
    type Constraint = PointJoint;

    fn set_lane(&mut self, l: usize, index: u32, c: &PointJoint) {
        let set = |w: &mut W, value: Real| w.set_lane(l, value);
        self.bodies.set_lane(l, index, (c.a, c.b), [c.inv_mass_a, c.inv_i_a, c.inv_mass_b, c.inv_i_b]);
        set(&mut self.anchor_a.x, c.anchor_a.x);
        set(&mut self.anchor_a.y, c.anchor_a.y);
        set(&mut self.anchor_b.x, c.anchor_b.x);
        set(&mut self.anchor_b.y, c.anchor_b.y);
        set(&mut self.delta_center.x, c.delta_center.x);
        set(&mut self.delta_center.y, c.delta_center.y);
        set(&mut self.bias_rate, c.softness.bias_rate);
        set(&mut self.mass_scale, c.softness.mass_scale);
        set(&mut self.impulse_scale, c.softness.impulse_scale);
        set(&mut self.impulse.x, c.impulse.x);
        set(&mut self.impulse.y, c.impulse.y);
    }
}

impl<W: Lanes> PointJointBundle<W> {
    /// The accumulated point impulse of lane `l`.
    pub fn impulse(&self, l: usize) -> Vec2 {
        Vec2::new(lane(&self.impulse.x, l), lane(&self.impulse.y, l))
    }

    /// Applies last step's impulses.
    #[inline(always)]
    pub fn warm_start(&mut self, states: &States) {
        let mut bodies = (BodiesW::gather(states, &self.bodies.a), BodiesW::gather(states, &self.bodies.b));
        let anchors = turned_anchors(&bodies, (&self.anchor_a, &self.anchor_b));
        apply_at_anchors(&self.bodies, &mut bodies, anchors, &self.impulse);
        bodies.0.scatter_sane_velocity(states, &self.bodies.a);
        bodies.1.scatter_sane_velocity(states, &self.bodies.b);
    }

    /// One pass of the point rows: soft with position bias (`use_bias`), or
    /// rigid and unbiased (the relax pass).
    #[inline(always)]
    pub fn solve(&mut self, states: &States, use_bias: bool) {
        let (zero, one) = (W::ZERO, W::ONE);
        let mut bodies = (BodiesW::gather(states, &self.bodies.a), BodiesW::gather(states, &self.bodies.b));
        let (ra, rb) = turned_anchors(&bodies, (&self.anchor_a, &self.anchor_b));
        let (a, b) = &bodies;
        let (bias_rate, mass_scale, impulse_scale) =
            if use_bias { (self.bias_rate, self.mass_scale, self.impulse_scale) } else { (zero, one, zero) };
        let separation = (b.dp - a.dp) + self.delta_center + (rb - ra);
        let velocity = (b.v + rb.spun(b.w)) - (a.v + ra.spun(a.w));
        let r = velocity + separation * bias_rate;

        let (k11, k12, k22) = point_mass_matrix(&self.bodies, (ra, rb));
        let x = solve_2x2(k11, k12, k22, r);
        let impulse = -(x * mass_scale) - self.impulse * impulse_scale;
        self.impulse += impulse;
        apply_at_anchors(&self.bodies, &mut bodies, (ra, rb), &impulse);
        bodies.0.scatter_sane_velocity(states, &self.bodies.a);
        bodies.1.scatter_sane_velocity(states, &self.bodies.b);
    }
}

/// Both anchors turned by their bodies' rotation since the step began.
#[inline(always)]
pub(super) fn turned_anchors<W: Lanes>(
    bodies: &(BodiesW<W>, BodiesW<W>),
    (anchor_a, anchor_b): (&Vec2W<W>, &Vec2W<W>),
) -> (Vec2W<W>, Vec2W<W>) {
    (bodies.0.dq.apply(anchor_a), bodies.1.dq.apply(anchor_b))
}

/// Applies `impulse` at the anchors `ra`, `rb` of the lanes' bodies (masses
/// from `lanes`): on B, and its opposite on A.
#[inline(always)]
pub(super) fn apply_at_anchors<W: Lanes>(
    lanes: &LaneBodies<W>,
    bodies: &mut (BodiesW<W>, BodiesW<W>),
    (ra, rb): (Vec2W<W>, Vec2W<W>),
    impulse: &Vec2W<W>,
) {
    let (a, b) = bodies;
    a.v -= *impulse * lanes.inv_mass_a;
    a.w -= lanes.inv_i_a * ra.cross(impulse);
    b.v += *impulse * lanes.inv_mass_b;
    b.w += lanes.inv_i_b * rb.cross(impulse);
}

/// The point rows' matrix `K` as `(k11, k12, k22)` per lane, at anchors
/// `ra`, `rb` (as `point::mass_matrix`).
#[inline(always)]
pub(super) fn point_mass_matrix<W: Lanes>(
    lanes: &LaneBodies<W>,
    (ra, rb): (Vec2W<W>, Vec2W<W>),
) -> (W, W, W) {
    let LaneBodies { inv_mass_a: ma, inv_i_a: ia, inv_mass_b: mb, inv_i_b: ib, .. } = *lanes;
    let k11 = ma + mb + ia * ra.y * ra.y + ib * rb.y * rb.y;
    let k12 = -(ia * ra.x * ra.y) - ib * rb.x * rb.y;
    let k22 = ma + mb + ia * ra.x * ra.x + ib * rb.x * rb.x;
    (k11, k12, k22)
}

/// `x` with `[k11, k12; k12, k22] x = r` per lane, or zero where the matrix
/// is singular (as `point::solve_2x2`).
#[inline(always)]
pub(super) fn solve_2x2<W: Lanes>(k11: W, k12: W, k22: W, r: Vec2W<W>) -> Vec2W<W> {
    let det = k11 * k22 - k12 * k12;
    let inv = select(det.simd_eq(W::ZERO), W::ZERO, W::ONE / det);
    Vec2W { x: inv * (k22 * r.x - k12 * r.y), y: inv * (k11 * r.y - k12 * r.x) }
}
