//! Joint constraints in the soft step, one file per kind.
//!
//! Every joint is prepared once per step into a [`JointConstraint`]: its
//! frames turned into the world and measured from each body's centre of mass,
//! the bodies' masses, and the softness of its rows. Each substep then warm
//! starts it (applies last step's impulses) and solves it, and the relax pass
//! solves it again without position bias. Errors are measured from the bodies'
//! motion since the step began (`dp`, `dq`), as contacts do, so that joints far
//! from the origin keep their precision.
//!
//! The rows come in two shapes, shared by the kinds:
//!
//! - **Point rows** (`point.rs`): the anchors coincide, a 2×2 problem.
//! - **Axial rows** ([`AxialRow`]): one direction, linear, angular or both, with
//!   a spring, a motor, and a pair of limits built on it.
//!
//! A rigid row is soft with the joint's stiffness (`softness`, default 60 Hz,
//! damping ratio 2 — stiff, yet stable at a quarter of the substep rate) while
//! solving with bias, and purely rigid (no bias) while relaxing. Limits are
//! speculative: short of the limit, the row may close the gap this substep and
//! no more, so a fast swing stops at the limit instead of past it. Springs act
//! in both passes.

mod distance;
mod motor;
mod mouse;
mod point;
pub(crate) mod point_bundle;
mod prismatic;
mod revolute;
pub(crate) mod revolute_bundle;
mod weld;
mod wheel;

use lamina_geometry::math::cross;
use lamina_geometry::{Point, Real, Rotation, Vec2};

use super::Softness;
use super::body_state::{BodyState, States};
use crate::joint::{Joint, JointImpulses, JointKind};

/// Stiffness, Hz, and damping ratio of the mouse joint's spin damping: soft
/// enough to leave a dragged body free to swing, firm enough to stop it spinning.
const MOUSE_SPIN_DAMPING_HERTZ: Real = 0.5;
const MOUSE_SPIN_DAMPING_RATIO: Real = 0.1;

/// A joint's frame on one body for this step: where the anchor is and how the
/// frame is turned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Frame {
    /// From the body's centre of mass to the anchor, world orientation at the
    /// step's start.
    pub p: Vec2,
    /// The frame's world rotation at the step's start.
    pub q: Rotation,
}

/// What the solver needs of one body of a joint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointBody {
    /// Solver index, `NO_INDEX` for immovable bodies.
    pub index: u32,
    pub inv_mass: Real,
    pub inv_inertia: Real,
    /// World pose of the body's origin at the step's start.
    pub pose: lamina_geometry::Isometry,
    /// Centre of mass in the body's frame.
    pub local_center: Point,
    /// Centre of mass in the world.
    pub center: Point,
}

/// Per-step numbers every joint shares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointContext {
    /// Substep length, s, and its inverse.
    pub h: Real,
    pub inv_h: Real,
    /// Softness of rigid rows without a stiffness of their own.
    pub softness: Softness,
    pub warm_start: bool,
    /// The world's speed limit, m/s, and the spin limit of a substep, rad/s.
    pub max_speed: Real,
    pub max_spin: Real,
}

/// One joint as the solver sees it for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointConstraint {
    pub kind: JointKind,
    /// Solver indices of the bodies, `NO_INDEX` for immovable ones.
    pub a: u32,
    pub b: u32,
    pub inv_mass_a: Real,
    pub inv_i_a: Real,
    pub inv_mass_b: Real,
    pub inv_i_b: Real,
    pub frame_a: Frame,
    pub frame_b: Frame,
    /// B's centre of mass minus A's at the step's start (minus the target, for
    /// a mouse joint).
    pub delta_center: Vec2,
    /// Softness of the rigid rows while solving with bias.
    pub softness: Softness,
    /// Softness of the spring, and whether there is one.
    pub spring: Softness,
    pub spring_on: bool,
    /// A distance joint with a spring or limits: its length is not held rigidly.
    pub free_length: bool,
    /// Limits (`lower`, `upper`) and whether there are any.
    pub lower: Real,
    pub upper: Real,
    pub limits_on: bool,
    /// Motor speed and largest impulse per substep (`h · max`).
    pub motor_speed: Real,
    pub max_motor_impulse: Real,
    pub motor_on: bool,
    /// Largest linear and angular impulse per substep of mouse and motor joints.
    pub max_force_impulse: Real,
    pub max_torque_impulse: Real,
    /// The largest change of relative speed, m/s, and of relative spin, rad/s,
    /// that an impulse may ever be asked for: twice the speed and spin limits.
    /// Motors and force-limited joints clamp their impulses to these on top of
    /// their own maximum, so that an unbounded motor fighting a rigid joint
    /// cannot push an impulse, then a velocity, past the floating-point range.
    pub speed_change_limit: Real,
    pub spin_change_limit: Real,
    /// Motor joint: pose error corrected per second; rest length of distance joints.
    pub correction_rate: Real,
    pub length: Real,
    /// Effective mass of the angular row, `1 / (iA + iB)` (0 if neither turns).
    pub angular_mass: Real,
    pub impulses: JointImpulses,
}

impl JointConstraint {
    /// Builds the constraint of `joint` for this step.
    pub fn prepare(joint: &Joint, a: &JointBody, b: &JointBody, ctx: &JointContext) -> Self {
        let d = &joint.desc;
        let frame = |body: &JointBody, local: &lamina_geometry::Isometry| Frame {
            p: world_anchor(body, local),
            q: body.pose.rotation * local.rotation,
        };
        let softness = rigid_softness(joint, ctx);
        let spring = d.spring.map_or(Softness::default(), |s| Softness::new(s.hertz, s.damping_ratio, ctx.h));
        let (lower, upper) = d.limits.unwrap_or((0.0, 0.0));
        let motor = d.motor.unwrap_or(crate::joint::Motor { speed: 0.0, max: 0.0 });
        let angular = a.inv_inertia + b.inv_inertia;
        let mut c = JointConstraint {
            kind: d.kind,
            a: a.index,
            b: b.index,
            inv_mass_a: a.inv_mass,
            inv_i_a: a.inv_inertia,
            inv_mass_b: b.inv_mass,
            inv_i_b: b.inv_inertia,
            frame_a: frame(a, &joint.frame_a),
            frame_b: frame(b, &joint.frame_b),
            delta_center: b.center - a.center,
            softness,
            spring,
            spring_on: d.spring.is_some_and(|s| s.hertz > 0.0),
            free_length: d.spring.is_some() || d.limits.is_some(),
            lower,
            upper,
            limits_on: d.limits.is_some(),
            motor_speed: motor.speed,
            max_motor_impulse: saturating_impulse(motor.max, ctx.h),
            motor_on: d.motor.is_some(),
            max_force_impulse: saturating_impulse(d.max_force, ctx.h),
            max_torque_impulse: saturating_impulse(d.max_torque, ctx.h),
            speed_change_limit: 2.0 * ctx.max_speed,
            spin_change_limit: 2.0 * ctx.max_spin,
            correction_rate: d.correction_factor * ctx.inv_h,
            length: joint.length,
            angular_mass: if angular > 0.0 { 1.0 / angular } else { 0.0 },
            impulses: if ctx.warm_start { joint.impulses } else { JointImpulses::default() },
        };
        if d.kind == JointKind::Mouse {
            // A mouse joint pulls toward a point of the world.
            c.frame_a = Frame { p: Vec2::zeros(), q: Rotation::identity() };
            c.delta_center = b.center - joint.target;
            // It has no rigid rows; its softness damps B's spin instead.
            c.softness = Softness::new(MOUSE_SPIN_DAMPING_HERTZ, MOUSE_SPIN_DAMPING_RATIO, ctx.h);
        }
        c
    }

    /// Applies last step's impulses.
    #[inline]
    pub fn warm_start(&mut self, states: &States) {
        let mut v = Velocities::load(states, self.a, self.b);
        let s = self.substep(&v);
        match self.kind {
            JointKind::Revolute => revolute::warm_start(self, &s, &mut v),
            JointKind::Prismatic => prismatic::warm_start(self, &s, &mut v),
            JointKind::Weld | JointKind::Motor => point::warm_start(self, &s, &mut v),
            JointKind::Distance => distance::warm_start(self, &s, &mut v),
            JointKind::Wheel => wheel::warm_start(self, &s, &mut v),
            JointKind::Mouse => mouse::warm_start(self, &s, &mut v),
        }
        v.store(states, self.a, self.b);
    }

    /// One pass over the joint's rows; `use_bias` is false in the relax pass.
    #[inline]
    pub fn solve(&mut self, states: &States, inv_h: Real, use_bias: bool) {
        let mut v = Velocities::load(states, self.a, self.b);
        let s = self.substep(&v);
        match self.kind {
            JointKind::Revolute => revolute::solve(self, &s, &mut v, inv_h, use_bias),
            JointKind::Prismatic => prismatic::solve(self, &s, &mut v, inv_h, use_bias),
            JointKind::Weld => weld::solve(self, &s, &mut v, use_bias),
            JointKind::Distance => distance::solve(self, &s, &mut v, inv_h, use_bias),
            JointKind::Wheel => wheel::solve(self, &s, &mut v, inv_h, use_bias),
            JointKind::Motor => motor::solve(self, &s, &mut v),
            JointKind::Mouse => mouse::solve(self, &s, &mut v),
        }
        v.store(states, self.a, self.b);
    }

    /// The force on B, world frame, and the torque on B, from the accumulated
    /// impulses of a substep of `h` seconds.
    pub fn force_and_torque(&self, h: Real) -> (Vec2, Real) {
        let i = &self.impulses;
        let axis = self.frame_a.q * Vec2::x();
        let perp = Vec2::new(-axis.y, axis.x);
        let axial = i.spring + i.motor + i.lower - i.upper;
        let (force, torque) = match self.kind {
            JointKind::Revolute => {
                // The angular rows' own point impulse, at the step's anchors.
                let s = Substep {
                    ra: self.frame_a.p,
                    rb: self.frame_b.p,
                    d: Vec2::zeros(),
                    dqa: Rotation::identity(),
                    dqb: Rotation::identity(),
                    qa0: self.frame_a.q,
                    qb0: self.frame_b.q,
                };
                let limits = i.lower - i.upper;
                let carried = if limits != 0.0 {
                    AxialRow::about_anchor(self, &s).point * limits
                } else {
                    Vec2::zeros()
                };
                (i.linear + carried, axial)
            }
            JointKind::Prismatic => (perp * i.linear.x + axis * axial, i.angular),
            JointKind::Weld | JointKind::Motor | JointKind::Mouse => (i.linear, i.angular),
            JointKind::Distance => {
                let d = self.delta_center + self.frame_b.p - self.frame_a.p;
                let dir = if d.norm() > 0.0 { d / d.norm() } else { Vec2::zeros() };
                (dir * (axial + i.axial), 0.0)
            }
            JointKind::Wheel => (perp * i.axial + axis * (i.spring + i.lower - i.upper), i.motor),
        };
        let inv_h = 1.0 / h;
        (force * inv_h, torque * inv_h)
    }

    /// Where the joint stands this substep: the current anchors and their
    /// separation; the frames' rotations are turned on demand.
    #[inline]
    fn substep(&self, v: &Velocities) -> Substep {
        let (sa, sb) = (&v.state_a, &v.state_b);
        let ra = sa.dq * self.frame_a.p;
        let rb = sb.dq * self.frame_b.p;
        let d = (sb.dp - sa.dp) + self.delta_center + (rb - ra);
        Substep { ra, rb, d, dqa: sa.dq, dqb: sb.dq, qa0: self.frame_a.q, qb0: self.frame_b.q }
    }
}

/// The softness of `joint`'s rigid rows: its own, capped like the world's at a
/// quarter of the substep rate, or the world's.
#[inline]
pub(crate) fn rigid_softness(joint: &Joint, ctx: &JointContext) -> Softness {
    match joint.desc.softness {
        Some(s) => Softness::new(s.hertz.min(super::max_hertz(ctx.inv_h)), s.damping_ratio, ctx.h),
        None => ctx.softness,
    }
}

/// `local`'s anchor on `body`, from its centre of mass, world orientation at
/// the step's start.
#[inline]
pub(crate) fn world_anchor(body: &JointBody, local: &lamina_geometry::Isometry) -> Vec2 {
    body.pose.rotation * (Point::from(local.translation.vector) - body.local_center)
}

/// A joint limit's or force's largest impulse over a substep, `h · max`,
/// kept finite for an unbounded maximum.
fn saturating_impulse(max: Real, h: Real) -> Real {
    (max * h).min(Real::MAX)
}

impl JointConstraint {
    /// The largest linear impulse a force-limited joint (motor, mouse) may
    /// hold: its own maximum, and no more than changes the bodies' relative
    /// speed by [`JointConstraint::speed_change_limit`].
    #[inline]
    pub fn max_linear_impulse(&self) -> Real {
        let inv_mass = self.inv_mass_a + self.inv_mass_b;
        let useful = if inv_mass > 0.0 { self.speed_change_limit / inv_mass } else { Real::MAX };
        self.max_force_impulse.min(useful)
    }

    /// The largest angular impulse of a motor joint, likewise.
    #[inline]
    pub fn max_angular_impulse(&self) -> Real {
        self.max_torque_impulse.min(self.angular_mass * self.spin_change_limit)
    }
}

/// The joint's geometry this substep.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Substep {
    /// Anchors from each centre of mass, world orientation now.
    pub ra: Vec2,
    pub rb: Vec2,
    /// B's anchor minus A's anchor.
    pub d: Vec2,
    /// Each body's rotation since the step began, and its frame's rotation at
    /// the step's start.
    dqa: Rotation,
    dqb: Rotation,
    qa0: Rotation,
    qb0: Rotation,
}

impl Substep {
    /// B's frame angle relative to A's, rad, in (−π, π].
    #[inline(always)]
    pub fn relative_angle(&self) -> Real {
        // sin and cos of (angle B − angle A).
        let (a, b) = (&(self.dqa * self.qa0), &(self.dqb * self.qb0));
        let s = b.im * a.re - b.re * a.im;
        let c = b.re * a.re + b.im * a.im;
        lamina_geometry::trig::atan2_fast(s, c)
    }

    /// The joint axis (frame A's x axis) now.
    #[inline]
    pub fn axis(&self) -> Vec2 {
        (self.dqa * self.qa0) * Vec2::x()
    }
}

/// Both bodies' states, with the velocities the rows change.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Velocities {
    pub state_a: BodyState,
    pub state_b: BodyState,
}

impl Velocities {
    #[inline]
    fn load(states: &States, a: u32, b: u32) -> Self {
        Self { state_a: states.load(a), state_b: states.load(b) }
    }

    #[inline]
    fn store(&self, states: &States, a: u32, b: u32) {
        states.store_sane_velocity(a, self.state_a.v, self.state_a.w);
        states.store_sane_velocity(b, self.state_b.v, self.state_b.w);
    }

    /// The velocity of B's anchor relative to A's.
    #[inline(always)]
    pub fn point_velocity(&self, s: &Substep) -> Vec2 {
        let (a, b) = (&self.state_a, &self.state_b);
        let va = a.v + Vec2::new(-s.ra.y, s.ra.x) * a.w;
        let vb = b.v + Vec2::new(-s.rb.y, s.rb.x) * b.w;
        vb - va
    }

    /// Applies `impulse` at the anchors: on B, and its opposite on A.
    #[inline(always)]
    pub fn apply_point(&mut self, c: &JointConstraint, s: &Substep, impulse: Vec2) {
        self.state_a.v -= impulse * c.inv_mass_a;
        self.state_a.w -= c.inv_i_a * cross(&s.ra, &impulse);
        self.state_b.v += impulse * c.inv_mass_b;
        self.state_b.w += c.inv_i_b * cross(&s.rb, &impulse);
    }

    /// Applies an angular impulse: on B, and its opposite on A.
    #[inline(always)]
    pub fn apply_angular(&mut self, c: &JointConstraint, impulse: Real) {
        self.state_a.w -= c.inv_i_a * impulse;
        self.state_b.w += c.inv_i_b * impulse;
    }
}

/// One direction of a joint: the velocity along it is
/// `n·(vB − vA) + jb·wB − ja·wA`. An angular row has `n = 0`, `ja = jb = 1`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxialRow {
    pub n: Vec2,
    pub ja: Real,
    pub jb: Real,
    /// Effective mass along the row.
    pub mass: Real,
    /// Point impulse applied at the anchors `ra`, `rb` with each unit of the
    /// row's impulse (zero but for a revolute joint's angular rows, see
    /// [`AxialRow::about_anchor`]).
    pub point: Vec2,
    pub ra: Vec2,
    pub rb: Vec2,
}

impl AxialRow {
    /// The angular row of a joint: turns the bodies about their centres of mass.
    #[inline]
    pub fn angular(c: &JointConstraint) -> Self {
        let zero = Vec2::zeros();
        Self { n: zero, ja: 1.0, jb: 1.0, mass: c.angular_mass, point: zero, ra: zero, rb: zero }
    }

    /// The limit row of a revolute joint: turns B relative to A about the
    /// shared anchor. An angular impulse alone would turn each body about its
    /// centre of mass and pull the anchors apart; here each unit of it comes
    /// with the point impulse that keeps the anchors' relative velocity as it
    /// was, and the effective mass is that of the bodies turning about the
    /// anchor (a pendulum's inertia about its pivot, not about its centre).
    /// A limit then stops a swinging pendulum at once.
    ///
    /// With `u` the anchors' velocity change per unit angular impulse and `K`
    /// the point rows' matrix, the point impulse is `−K⁻¹u` and the row's
    /// inverse mass is `iA + iB − uᵀK⁻¹u` (a Schur complement).
    #[inline(always)]
    pub fn about_anchor(c: &JointConstraint, s: &Substep) -> Self {
        let (ia, ib) = (c.inv_i_a, c.inv_i_b);
        let u = Vec2::new(-ib * s.rb.y - ia * s.ra.y, ib * s.rb.x + ia * s.ra.x);
        let (k11, k12, k22) = point::mass_matrix(c, s);
        let point = -point::solve_2x2(k11, k12, k22, u);
        let k = ia + ib + u.dot(&point);
        let mass = if k > Real::EPSILON * (ia + ib) { 1.0 / k } else { c.angular_mass };
        Self { n: Vec2::zeros(), ja: 1.0, jb: 1.0, mass, point, ra: s.ra, rb: s.rb }
    }

    /// The row along `n` through the anchors, with `d` from A's anchor to B's:
    /// A's lever arm reaches B's anchor, so that the row's velocity is the rate
    /// of `n·d` with `n` turning with A.
    #[inline]
    pub fn linear(c: &JointConstraint, s: &Substep, n: Vec2) -> Self {
        let ja = cross(&(s.d + s.ra), &n);
        let jb = cross(&s.rb, &n);
        let k = c.inv_mass_a + c.inv_mass_b + c.inv_i_a * ja * ja + c.inv_i_b * jb * jb;
        let zero = Vec2::zeros();
        Self { n, ja, jb, mass: if k > 0.0 { 1.0 / k } else { 0.0 }, point: zero, ra: zero, rb: zero }
    }

    #[inline(always)]
    pub fn velocity(&self, v: &Velocities) -> Real {
        let (a, b) = (&v.state_a, &v.state_b);
        self.n.dot(&(b.v - a.v)) + self.jb * b.w - self.ja * a.w
    }

    #[inline(always)]
    pub fn apply(&self, c: &JointConstraint, v: &mut Velocities, impulse: Real) {
        let p = self.n * impulse;
        v.state_a.v -= p * c.inv_mass_a;
        v.state_a.w -= c.inv_i_a * self.ja * impulse;
        v.state_b.v += p * c.inv_mass_b;
        v.state_b.w += c.inv_i_b * self.jb * impulse;
        if self.point != Vec2::zeros() {
            let p = self.point * impulse;
            v.state_a.v -= p * c.inv_mass_a;
            v.state_a.w -= c.inv_i_a * cross(&self.ra, &p);
            v.state_b.v += p * c.inv_mass_b;
            v.state_b.w += c.inv_i_b * cross(&self.rb, &p);
        }
    }

    /// A spring pulling the row's position `position` toward 0.
    #[inline(always)]
    pub fn solve_spring(
        &self,
        c: &JointConstraint,
        v: &mut Velocities,
        position: Real,
        accumulated: &mut Real,
    ) {
        let s = &c.spring;
        let vel = self.velocity(v);
        let impulse =
            -s.mass_scale * self.mass * (vel + s.bias_rate * position) - s.impulse_scale * *accumulated;
        *accumulated += impulse;
        self.apply(c, v, impulse);
    }

    /// A motor driving the row's velocity to `c.motor_speed`, within
    /// `c.max_motor_impulse`.
    #[inline(always)]
    pub fn solve_motor(&self, c: &JointConstraint, v: &mut Velocities, accumulated: &mut Real) {
        let vel = self.velocity(v) - c.motor_speed;
        let old = *accumulated;
        let limit = if self.n == Vec2::zeros() { c.spin_change_limit } else { c.speed_change_limit };
        let max = c.max_motor_impulse.min(self.mass * limit);
        *accumulated = (old - self.mass * vel).clamp(-max, max);
        self.apply(c, v, *accumulated - old);
    }

    /// The lower and upper limits on the row's position `position`.
    #[inline(always)]
    pub fn solve_limits(
        &self,
        c: &JointConstraint,
        v: &mut Velocities,
        position: Real,
        (inv_h, use_bias): (Real, bool),
        (lower, upper): (&mut Real, &mut Real),
    ) {
        // The lower limit pushes along the row, the upper against it.
        self.solve_one_sided(c, v, position - c.lower, 1.0, (inv_h, use_bias), lower);
        self.solve_one_sided(c, v, c.upper - position, -1.0, (inv_h, use_bias), upper);
    }

    /// A one-sided row that keeps `gap ≥ 0`, pushing with `sign` along the
    /// row: speculative while the gap is open, soft once it is closed.
    #[inline(always)]
    pub fn solve_one_sided(
        &self,
        c: &JointConstraint,
        v: &mut Velocities,
        gap: Real,
        sign: Real,
        (inv_h, use_bias): (Real, bool),
        accumulated: &mut Real,
    ) {
        let (bias, mass_scale, impulse_scale) = if gap > 0.0 {
            (gap * inv_h, 1.0, 0.0)
        } else if use_bias {
            (c.softness.bias_rate * gap, c.softness.mass_scale, c.softness.impulse_scale)
        } else {
            (0.0, 1.0, 0.0)
        };
        let vel = sign * self.velocity(v);
        let impulse = -self.mass * mass_scale * (vel + bias) - impulse_scale * *accumulated;
        let old = *accumulated;
        *accumulated = (old + impulse).max(0.0);
        if *accumulated != old {
            self.apply(c, v, sign * (*accumulated - old));
        }
    }

    /// A rigid row holding `position` at 0, soft with the joint's stiffness
    /// while solving with bias.
    #[inline]
    pub fn solve_rigid(
        &self,
        c: &JointConstraint,
        v: &mut Velocities,
        position: Real,
        use_bias: bool,
        accumulated: &mut Real,
    ) {
        let (bias, mass_scale, impulse_scale) = bias_terms(&c.softness, position, use_bias);
        let vel = self.velocity(v);
        let impulse = -self.mass * mass_scale * (vel + bias) - impulse_scale * *accumulated;
        *accumulated += impulse;
        self.apply(c, v, impulse);
    }
}

/// The bias, mass scale and impulse scale of a rigid row at error `position`:
/// soft with `softness` while solving with bias, rigid and unbiased while relaxing.
#[inline]
pub(crate) fn bias_terms(softness: &Softness, position: Real, use_bias: bool) -> (Real, Real, Real) {
    if use_bias {
        (softness.bias_rate * position, softness.mass_scale, softness.impulse_scale)
    } else {
        (0.0, 1.0, 0.0)
    }
}
