//! Revolute joints with a spring, a motor or limits, solved several at a
//! time, one per SIMD lane.
//!
//! A ragdoll is ten such joints, and a scene of ragdolls spends most of its
//! solver time in them; one at a time, each pays for its own loads, stores
//! and branches. Packed in bundles like contacts (four lanes, or eight with
//! AVX), every lane runs the rows of `revolute.rs` in the same order: the
//! spring, the motor, the two limits about the anchor, then the point rows.
//! Which rows a joint has becomes a mask per lane: a lane without a row
//! computes it and applies nothing. The arithmetic is the one-joint code's,
//! written for lanes; results differ from it at most in the sign of a zero
//! (an impulse of zero applied rather than skipped).
//!
//! The relative angle is measured as in [`Substep::relative_angle`](super::Substep):
//! the same polynomial arctangent (`lamina_geometry::trig::atan2_fast`),
//! its branches become selects.

use lamina_geometry::{Real, Vec2};

use super::JointConstraint;
use super::point_bundle::{apply_at_anchors, point_mass_matrix, solve_2x2, turned_anchors};
use crate::joint::JointImpulses;
use crate::solver::body_state::{BodiesW, States};
use crate::solver::bundles::{LaneBodies, LaneBundle, LaneConstraints};
use crate::solver::lanes::{Lanes, RotW, Vec2W, Wide, lane, max, min, select, set_flag};

/// Revolute joints with angular rows, one per lane, in struct-of-arrays form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RevoluteBundle<W: Lanes = Wide> {
    /// The lanes' joints, bodies and inverse masses.
    pub bodies: LaneBodies<W>,
    /// Anchors from each centre of mass, world orientation at the step's start.
    anchor_a: Vec2W<W>,
    anchor_b: Vec2W<W>,
    /// The frames' world rotations at the step's start.
    frame_a: RotW<W>,
    frame_b: RotW<W>,
    /// B's centre of mass minus A's at the step's start.
    delta_center: Vec2W<W>,
    /// Softness of the point rows and the limits while solving with bias.
    bias_rate: W,
    mass_scale: W,
    impulse_scale: W,
    /// The spring's softness.
    spring_bias_rate: W,
    spring_mass_scale: W,
    spring_impulse_scale: W,
    /// Masks: lanes with a spring, a motor, limits (each only where some
    /// body can turn).
    spring_on: W,
    motor_on: W,
    limits_on: W,
    lower: W,
    upper: W,
    motor_speed: W,
    /// The motor's largest impulse: its own, and no more than changes the
    /// relative spin by the spin change limit.
    max_motor_impulse: W,
    /// `1 / (iA + iB)`, or 0 where neither body turns.
    angular_mass: W,
    /// Accumulated impulses: point, spring, motor, lower and upper limit.
    linear: Vec2W<W>,
    spring: W,
    motor: W,
    lower_impulse: W,
    upper_impulse: W,
}

impl<W: Lanes> LaneBundle for RevoluteBundle<W> {
    const WIDTH: usize = W::N;

    const EMPTY: RevoluteBundle<W> = RevoluteBundle {
        bodies: LaneBodies::EMPTY,
        anchor_a: Vec2W { x: W::ZERO, y: W::ZERO },
        anchor_b: Vec2W { x: W::ZERO, y: W::ZERO },
        frame_a: RotW { re: W::ONE, im: W::ZERO },
        frame_b: RotW { re: W::ONE, im: W::ZERO },
        delta_center: Vec2W { x: W::ZERO, y: W::ZERO },
        bias_rate: W::ZERO,
        mass_scale: W::ONE,
        impulse_scale: W::ZERO,
        spring_bias_rate: W::ZERO,
        spring_mass_scale: W::ONE,
        spring_impulse_scale: W::ZERO,
        spring_on: W::ZERO,
        motor_on: W::ZERO,
        limits_on: W::ZERO,
        lower: W::ZERO,
        upper: W::ZERO,
        motor_speed: W::ZERO,
        max_motor_impulse: W::ZERO,
        angular_mass: W::ZERO,
        linear: Vec2W { x: W::ZERO, y: W::ZERO },
        spring: W::ZERO,
        motor: W::ZERO,
        lower_impulse: W::ZERO,
        upper_impulse: W::ZERO,
    };
}

impl<W: Lanes> LaneConstraints for RevoluteBundle<W> {
    type Constraint = JointConstraint;

    fn set_lane(&mut self, l: usize, index: u32, c: &JointConstraint) {
        let set = |w: &mut W, value: Real| w.set_lane(l, value);
        self.bodies.set_lane(l, index, (c.a, c.b), [c.inv_mass_a, c.inv_i_a, c.inv_mass_b, c.inv_i_b]);
        set(&mut self.anchor_a.x, c.frame_a.p.x);
        set(&mut self.anchor_a.y, c.frame_a.p.y);
        set(&mut self.anchor_b.x, c.frame_b.p.x);
        set(&mut self.anchor_b.y, c.frame_b.p.y);
        set(&mut self.frame_a.re, c.frame_a.q.re);
        set(&mut self.frame_a.im, c.frame_a.q.im);
        set(&mut self.frame_b.re, c.frame_b.q.re);
        set(&mut self.frame_b.im, c.frame_b.q.im);
        set(&mut self.delta_center.x, c.delta_center.x);
        set(&mut self.delta_center.y, c.delta_center.y);
        set(&mut self.bias_rate, c.softness.bias_rate);
        set(&mut self.mass_scale, c.softness.mass_scale);
        set(&mut self.impulse_scale, c.softness.impulse_scale);
        set(&mut self.spring_bias_rate, c.spring.bias_rate);
        set(&mut self.spring_mass_scale, c.spring.mass_scale);
        set(&mut self.spring_impulse_scale, c.spring.impulse_scale);
        // The one-joint code skips every angular row where neither body turns.
        let turns = c.angular_mass > 0.0;
        if turns && c.spring_on {
            set_flag(&mut self.spring_on, l);
        }
        if turns && c.motor_on {
            set_flag(&mut self.motor_on, l);
        }
        if turns && c.limits_on {
            set_flag(&mut self.limits_on, l);
        }
        set(&mut self.lower, c.lower);
        set(&mut self.upper, c.upper);
        set(&mut self.motor_speed, c.motor_speed);
        set(&mut self.max_motor_impulse, c.max_motor_impulse.min(c.angular_mass * c.spin_change_limit));
        set(&mut self.angular_mass, c.angular_mass);
        let i = &c.impulses;
        set(&mut self.linear.x, i.linear.x);
        set(&mut self.linear.y, i.linear.y);
        set(&mut self.spring, i.spring);
        set(&mut self.motor, i.motor);
        set(&mut self.lower_impulse, i.lower);
        set(&mut self.upper_impulse, i.upper);
    }
}

/// The point impulse and effective mass of the limit rows, which turn B
/// relative to A about the shared anchor (see `AxialRow::about_anchor`).
#[derive(Clone, Copy)]
struct AboutAnchor<W: Lanes> {
    point: Vec2W<W>,
    mass: W,
}

impl<W: Lanes> RevoluteBundle<W> {
    /// The accumulated impulses of lane `l`.
    pub fn impulses(&self, l: usize) -> JointImpulses {
        JointImpulses {
            linear: Vec2::new(lane(&self.linear.x, l), lane(&self.linear.y, l)),
            spring: lane(&self.spring, l),
            motor: lane(&self.motor, l),
            lower: lane(&self.lower_impulse, l),
            upper: lane(&self.upper_impulse, l),
            ..JointImpulses::default()
        }
    }

    /// The anchors turned by the bodies' rotation since the step began.
    #[inline(always)]
    fn anchors(&self, bodies: &(BodiesW<W>, BodiesW<W>)) -> (Vec2W<W>, Vec2W<W>) {
        turned_anchors(bodies, (&self.anchor_a, &self.anchor_b))
    }

    /// Applies `impulse` at the anchors: on B, and its opposite on A.
    #[inline(always)]
    fn apply_point(
        &self,
        bodies: &mut (BodiesW<W>, BodiesW<W>),
        anchors: (Vec2W<W>, Vec2W<W>),
        impulse: &Vec2W<W>,
    ) {
        apply_at_anchors(&self.bodies, bodies, anchors, impulse);
    }

    /// Applies an angular impulse: on B, and its opposite on A.
    #[inline(always)]
    fn apply_angular(&self, bodies: &mut (BodiesW<W>, BodiesW<W>), impulse: W) {
        bodies.0.w -= self.bodies.inv_i_a * impulse;
        bodies.1.w += self.bodies.inv_i_b * impulse;
    }

    /// Applies a limit row's `impulse`: its turn and its point impulse.
    #[inline(always)]
    fn apply_limit(
        &self,
        bodies: &mut (BodiesW<W>, BodiesW<W>),
        anchors: (Vec2W<W>, Vec2W<W>),
        about: &AboutAnchor<W>,
        impulse: W,
    ) {
        self.apply_angular(bodies, impulse);
        self.apply_point(bodies, anchors, &(about.point * impulse));
    }

    /// The limit rows' point impulse per unit turn and effective mass: with
    /// `u` the anchors' velocity change per unit angular impulse, the point
    /// impulse is `−K⁻¹u` and the inverse mass `iA + iB − uᵀK⁻¹u`.
    #[inline(always)]
    fn about_anchor(&self, (ra, rb): (Vec2W<W>, Vec2W<W>)) -> AboutAnchor<W> {
        let (ia, ib) = (self.bodies.inv_i_a, self.bodies.inv_i_b);
        let u = Vec2W { x: -(ib * rb.y) - ia * ra.y, y: ib * rb.x + ia * ra.x };
        let (k11, k12, k22) = point_mass_matrix(&self.bodies, (ra, rb));
        let point = -solve_2x2(k11, k12, k22, u);
        let k = ia + ib + u.dot(&point);
        let mass = select(k.simd_gt(W::splat(Real::EPSILON) * (ia + ib)), W::ONE / k, self.angular_mass);
        AboutAnchor { point, mass }
    }

    /// B's frame angle relative to A's, rad, in (−π, π].
    #[inline(always)]
    fn relative_angle(&self, bodies: &(BodiesW<W>, BodiesW<W>)) -> W {
        let (a, b) = (compose(&bodies.0.dq, &self.frame_a), compose(&bodies.1.dq, &self.frame_b));
        let s = b.im * a.re - b.re * a.im;
        let c = b.re * a.re + b.im * a.im;
        atan2_fast(s, c)
    }

    /// Applies last step's impulses.
    #[inline(always)]
    pub fn warm_start(&mut self, states: &States) {
        let mut bodies = (BodiesW::gather(states, &self.bodies.a), BodiesW::gather(states, &self.bodies.b));
        let anchors = self.anchors(&bodies);
        self.apply_point(&mut bodies, anchors, &self.linear);
        self.apply_angular(&mut bodies, self.spring + self.motor);
        let limits = self.lower_impulse - self.upper_impulse;
        let pushing = limits.simd_eq(W::ZERO) ^ !W::ZERO;
        if pushing.any() {
            let about = self.about_anchor(anchors);
            self.apply_limit(&mut bodies, anchors, &about, select(pushing, limits, W::ZERO));
        }
        bodies.0.scatter_sane_velocity(states, &self.bodies.a);
        bodies.1.scatter_sane_velocity(states, &self.bodies.b);
    }

    /// One pass over the rows; `use_bias` is false in the relax pass.
    #[inline(always)]
    pub fn solve(&mut self, states: &States, inv_h: Real, use_bias: bool) {
        let zero = W::ZERO;
        let mut bodies = (BodiesW::gather(states, &self.bodies.a), BodiesW::gather(states, &self.bodies.b));
        let anchors = self.anchors(&bodies);
        let angle = self.relative_angle(&bodies);
        let spin = |bodies: &(BodiesW<W>, BodiesW<W>)| bodies.1.w - bodies.0.w;

        // The spring toward angle 0 (a row no lane has is skipped, as the
        // one-joint code skips it).
        if self.spring_on.any() {
            let vel = spin(&bodies);
            let impulse =
                -(self.spring_mass_scale * self.angular_mass * (vel + self.spring_bias_rate * angle))
                    - self.spring_impulse_scale * self.spring;
            let impulse = select(self.spring_on, impulse, zero);
            self.spring += impulse;
            self.apply_angular(&mut bodies, impulse);
        }

        // The motor, within its largest impulse.
        if self.motor_on.any() {
            let vel = spin(&bodies) - self.motor_speed;
            let old = self.motor;
            let max_impulse = self.max_motor_impulse;
            let clamped = max(min(old - self.angular_mass * vel, max_impulse), -max_impulse);
            self.motor = select(self.motor_on, clamped, old);
            self.apply_angular(&mut bodies, self.motor - old);
        }

        // The limits, about the anchor: the lower pushes along the row, the
        // upper against it.
        if self.limits_on.any() {
            let about = self.about_anchor(anchors);
            let lower_gap = angle - self.lower;
            self.lower_impulse = self.one_sided(
                &mut bodies,
                anchors,
                &about,
                lower_gap,
                W::ONE,
                (inv_h, use_bias),
                self.lower_impulse,
            );
            let upper_gap = self.upper - angle;
            self.upper_impulse = self.one_sided(
                &mut bodies,
                anchors,
                &about,
                upper_gap,
                -W::ONE,
                (inv_h, use_bias),
                self.upper_impulse,
            );
        }

        // The point rows: soft with position bias, or rigid and unbiased.
        let (ra, rb) = anchors;
        let (a, b) = &bodies;
        let (bias_rate, mass_scale, impulse_scale) = if use_bias {
            (self.bias_rate, self.mass_scale, self.impulse_scale)
        } else {
            (zero, W::ONE, zero)
        };
        let separation = (b.dp - a.dp) + self.delta_center + (rb - ra);
        let velocity = (b.v + rb.spun(b.w)) - (a.v + ra.spun(a.w));
        let (k11, k12, k22) = point_mass_matrix(&self.bodies, anchors);
        let x = solve_2x2(k11, k12, k22, velocity + separation * bias_rate);
        let impulse = -(x * mass_scale) - self.linear * impulse_scale;
        self.linear += impulse;
        self.apply_point(&mut bodies, anchors, &impulse);
        bodies.0.scatter_sane_velocity(states, &self.bodies.a);
        bodies.1.scatter_sane_velocity(states, &self.bodies.b);
    }

    /// A limit row keeping `gap ≥ 0`, pushing with `sign`: speculative while
    /// the gap is open, soft once it is closed. Returns the new accumulated
    /// impulse, `accumulated` where the lane has no limits.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn one_sided(
        &self,
        bodies: &mut (BodiesW<W>, BodiesW<W>),
        anchors: (Vec2W<W>, Vec2W<W>),
        about: &AboutAnchor<W>,
        gap: W,
        sign: W,
        (inv_h, use_bias): (Real, bool),
        accumulated: W,
    ) -> W {
        let (zero, one) = (W::ZERO, W::ONE);
        let open = gap.simd_gt(zero);
        let (bias, mass_scale, impulse_scale) = if use_bias {
            (
                select(open, gap * W::splat(inv_h), self.bias_rate * gap),
                select(open, one, self.mass_scale),
                select(open, zero, self.impulse_scale),
            )
        } else {
            (select(open, gap * W::splat(inv_h), zero), one, zero)
        };
        let vel = sign * (bodies.1.w - bodies.0.w);
        let impulse = -(about.mass * mass_scale * (vel + bias)) - impulse_scale * accumulated;
        let new = select(self.limits_on, max(accumulated + impulse, zero), accumulated);
        let changed = new.simd_eq(accumulated) ^ !zero;
        self.apply_limit(bodies, anchors, about, select(changed, sign * (new - accumulated), zero));
        new
    }
}

/// The rotation `q` then `p` (`q · p` as complex numbers).
#[inline(always)]
fn compose<W: Lanes>(q: &RotW<W>, p: &RotW<W>) -> RotW<W> {
    RotW { re: q.re * p.re - q.im * p.im, im: q.im * p.re + q.re * p.im }
}

/// `|x|`: the sign bit cleared.
#[inline(always)]
fn abs<W: Lanes>(x: W) -> W {
    x ^ (x & W::splat(-0.0))
}

/// `lamina_geometry::trig::atan2_fast` per lane: the same polynomial, its
/// branches as selects.
#[inline(always)]
fn atan2_fast<W: Lanes>(y: W, x: W) -> W {
    const C: [Real; 8] = lamina_geometry::trig::ATAN2_FAST_COEFFICIENTS;
    let zero = W::ZERO;
    let (ax, ay) = (abs(x), abs(y));
    let steep = ay.simd_gt(ax);
    let (small, large) = (select(steep, ax, ay), select(steep, ay, ax));
    let t = small / large;
    let t2 = t * t;
    let mut p = W::splat(C[7]);
    for &c in C[..7].iter().rev() {
        p = p * t2 + W::splat(c);
    }
    let mut a = t * p;
    a = select(steep, W::splat((std::f64::consts::PI / 2.0) as Real) - a, a);
    a = select(x.simd_lt(zero), W::splat(std::f64::consts::PI as Real) - a, a);
    a = select(y.simd_lt(zero), -a, a);
    // Both zero: 0, or NaN where either is NaN (NaN compares unequal to itself).
    let nan = x.simd_eq(x) & y.simd_eq(y);
    let at_origin = select(nan, zero, W::splat(Real::NAN));
    select(large.simd_eq(zero), at_origin, a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lanes::LANES;
    use crate::{BodyDesc, ColliderDesc, JointDesc, World, WorldSettings};
    use lamina_geometry::{Point, Shape};

    /// Revolute joints with springs, motors and limits, every mix of them,
    /// in bundles step exactly as the one-joint code steps them: chains that
    /// swing into their limits, motors that drive against springs, links
    /// that fall onto a floor, a hub of forty spokes whose joints overflow
    /// the colours, 400 steps compared bit for bit every step.
    #[test]
    fn bundles_step_as_the_one_joint_code() {
        let build = || {
            let mut world = World::new(WorldSettings::default());
            let ground = world.add_body(BodyDesc::fixed());
            world.add_collider(ground, ColliderDesc::new(Shape::rectangle(40.0, 0.5))).unwrap();
            for chain in 0..6 {
                let x0 = -15.0 + 6.0 * chain as Real;
                let mut previous = ground;
                for i in 0..12 {
                    let x = x0 + 0.4 * i as Real;
                    let y = 8.0 + 0.3 * chain as Real;
                    let link = world.add_body(BodyDesc::dynamic().translation(x + 0.2, y));
                    world
                        .add_collider(
                            link,
                            ColliderDesc::new(Shape::capsule(
                                Point::new(-0.15, 0.0),
                                Point::new(0.15, 0.0),
                                0.05,
                            )),
                        )
                        .unwrap();
                    let mut joint = JointDesc::revolute(previous, link, Point::new(x, y));
                    let k = chain * 12 + i;
                    if k % 2 == 0 {
                        joint = joint.limits(-0.4 + 0.05 * (k % 5) as Real, 0.1 + 0.1 * (k % 3) as Real);
                    }
                    if k % 3 == 0 {
                        joint = joint.motor(1.5 - 0.5 * (k % 4) as Real, 0.5 + (k % 7) as Real);
                    }
                    if k % 5 < 3 {
                        joint = joint.spring(1.0 + (k % 4) as Real, 0.2 * (k % 3) as Real);
                    }
                    world.add_joint(joint).unwrap();
                    previous = link;
                }
            }
            // A hub with more joints than the colours hold: the overflow
            // colour, whose joints share a body and are solved one after the
            // other, in bundles of one lane.
            let hub = world.add_body(BodyDesc::dynamic().translation(0.0, 20.0));
            world.add_collider(hub, ColliderDesc::new(Shape::circle(0.5))).unwrap();
            for i in 0..40 {
                let angle = i as Real * 0.157;
                let (x, y) = (angle.cos(), 20.0 + angle.sin());
                let spoke = world.add_body(BodyDesc::dynamic().translation(x, y));
                world.add_collider(spoke, ColliderDesc::new(Shape::circle(0.1))).unwrap();
                // Every third spoke plain: the overflow colour then holds
                // point joints too.
                let mut joint = JointDesc::revolute(hub, spoke, Point::new(x, y));
                if i % 3 != 0 {
                    joint = joint.limits(-0.2, 0.2).spring(2.0, 0.3);
                }
                world.add_joint(joint).unwrap();
            }
            world
        };
        let (mut bundled, mut alone) = (build(), build());
        alone.solver.solve_revolutes_alone();
        for step in 0..400 {
            bundled.step(1.0 / 60.0).unwrap();
            alone.step(1.0 / 60.0).unwrap();
            assert_eq!(bundled.state_hash(), alone.state_hash(), "step {step}");
        }
        let moved = bundled.bodies().filter(|(_, b)| b.translation().y < 7.0).count();
        assert!(moved > 10, "the chains swing down ({moved} links below 7 m)");
    }

    /// The lanes' arctangent gives the bits of the one-number function on
    /// every quadrant, the axes, signed zeros, infinities and NaN.
    #[test]
    fn lane_arctangent_matches_the_scalar_one() {
        let values: [Real; 12] =
            [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-30, -3e20, Real::INFINITY, -Real::INFINITY, Real::NAN, 0.7];
        let mut pairs = Vec::new();
        for &y in &values {
            for &x in &values {
                pairs.push((y, x));
            }
        }
        for chunk in pairs.chunks(LANES) {
            let mut ys = [0.0; LANES];
            let mut xs = [1.0; LANES];
            for (l, &(y, x)) in chunk.iter().enumerate() {
                ys[l] = y;
                xs[l] = x;
            }
            let got = atan2_fast(Wide::new(ys), Wide::new(xs));
            for (l, &(y, x)) in chunk.iter().enumerate() {
                let want = lamina_geometry::trig::atan2_fast(y, x);
                let have = lane(&got, l);
                assert!(
                    have.to_bits() == want.to_bits() || (have.is_nan() && want.is_nan()),
                    "atan2({y}, {x}): lanes {have}, scalar {want}"
                );
                // And the angle itself, against the library's arctangent in
                // f64, where both inputs are finite and one is not zero (the
                // origin gives 0, as documented), as directions: on the
                // negative x axis −π and π are one angle, and the fast one
                // answers π whatever the sign of a zero y.
                #[allow(clippy::useless_conversion)] // `Real` is `f64` in that build
                let (wide_y, wide_x, wide_have) = (f64::from(y), f64::from(x), f64::from(have));
                let exact = wide_y.atan2(wide_x);
                if x.is_finite() && y.is_finite() && (x != 0.0 || y != 0.0) {
                    let tau = std::f64::consts::TAU;
                    let off = (wide_have - exact).rem_euclid(tau);
                    assert!(off.min(tau - off) < 1.0e-6, "atan2({y}, {x}): {have} against {exact}");
                }
            }
        }
    }
}
