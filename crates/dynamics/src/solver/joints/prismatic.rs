//! Prismatic joint: B slides along an axis fixed in A and does not turn
//! relative to A.
//!
//! Rows: along the axis, a spring toward translation 0, a motor and the two
//! translation limits; across it, the perpendicular offset and the relative
//! angle held at 0 together as one 2×2 problem (they share the angular
//! velocities, and solving them apart makes a long slider wobble).
//! Impulses: `linear.x` (perpendicular), `angular`, `spring`, `motor`,
//! `lower`, `upper`.

use lamina_geometry::math::left_perp;
use lamina_geometry::{Real, Vec2};

use super::point::solve_2x2;
use super::{AxialRow, JointConstraint, Substep, Velocities, bias_terms};

#[inline]
pub(super) fn warm_start(c: &JointConstraint, s: &Substep, v: &mut Velocities) {
    let axis = s.axis();
    let i = &c.impulses;
    AxialRow::linear(c, s, axis).apply(c, v, i.spring + i.motor + i.lower - i.upper);
    AxialRow::linear(c, s, left_perp(&axis)).apply(c, v, i.linear.x);
    v.apply_angular(c, i.angular);
}

#[inline]
pub(super) fn solve(c: &mut JointConstraint, s: &Substep, v: &mut Velocities, inv_h: Real, use_bias: bool) {
    let axis = s.axis();
    let translation = axis.dot(&s.d);
    let along = AxialRow::linear(c, s, axis);
    let mut i = c.impulses;
    if c.spring_on {
        along.solve_spring(c, v, translation, &mut i.spring);
    }
    if c.motor_on {
        along.solve_motor(c, v, &mut i.motor);
    }
    if c.limits_on {
        along.solve_limits(c, v, translation, (inv_h, use_bias), (&mut i.lower, &mut i.upper));
    }

    // The perpendicular and angular rows as one block.
    let perp = left_perp(&axis);
    let across = AxialRow::linear(c, s, perp);
    let (ia, ib) = (c.inv_i_a, c.inv_i_b);
    let k11 = c.inv_mass_a + c.inv_mass_b + ia * across.ja * across.ja + ib * across.jb * across.jb;
    let k12 = ia * across.ja + ib * across.jb;
    let k22 = if ia + ib > 0.0 { ia + ib } else { 1.0 };
    let velocity = Vec2::new(across.velocity(v), v.state_b.w - v.state_a.w);
    let error = Vec2::new(perp.dot(&s.d), s.relative_angle());
    let (bias_rate, mass_scale, impulse_scale) = bias_terms(&c.softness, 1.0, use_bias);
    let accumulated = Vec2::new(i.linear.x, i.angular);
    let impulse =
        -solve_2x2(k11, k12, k22, velocity + error * bias_rate) * mass_scale - accumulated * impulse_scale;
    i.linear.x += impulse.x;
    i.angular += impulse.y;
    across.apply(c, v, impulse.x);
    v.apply_angular(c, impulse.y);
    c.impulses = i;
}
