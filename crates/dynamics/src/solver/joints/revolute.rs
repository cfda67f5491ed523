//! Revolute joint: the anchors coincide and B turns freely about them.
//!
//! Rows, in solving order: a spring toward relative angle 0, a motor on the
//! relative angular velocity (speed 0 with a small torque is joint friction),
//! the lower and upper angle limits, and the 2×2 point rows; the angular rows
//! are skipped when neither body can turn. The limit rows turn the bodies
//! about the anchor ([`AxialRow::about_anchor`]), carrying the point impulse
//! that keeps the anchors together, so that a fast pendulum stops at its limit;
//! that point impulse belongs to them: it is applied again with them at the
//! warm start, and stays out of the point rows' accumulated impulse. The spring
//! and the motor turn each body about its centre of mass, as in Box2D: turning
//! them about the anchor made two motors holding a two-link arm fight each
//! other up to their torque limits.
//! Impulses: `linear` (point), `spring`, `motor`, `lower`, `upper`.

use lamina_geometry::Real;

use super::{AxialRow, JointConstraint, Substep, Velocities, point};

#[inline]
pub(super) fn warm_start(c: &JointConstraint, s: &Substep, v: &mut Velocities) {
    let i = &c.impulses;
    v.apply_point(c, s, i.linear);
    v.apply_angular(c, i.spring + i.motor);
    let limits = i.lower - i.upper;
    if limits != 0.0 {
        AxialRow::about_anchor(c, s).apply(c, v, limits);
    }
}

#[inline]
pub(super) fn solve(c: &mut JointConstraint, s: &Substep, v: &mut Velocities, inv_h: Real, use_bias: bool) {
    if c.angular_mass > 0.0 && (c.spring_on || c.motor_on || c.limits_on) {
        let row = AxialRow::angular(c);
        let angle = if c.spring_on || c.limits_on { s.relative_angle() } else { 0.0 };
        let mut i = c.impulses;
        if c.spring_on {
            row.solve_spring(c, v, angle, &mut i.spring);
        }
        if c.motor_on {
            row.solve_motor(c, v, &mut i.motor);
        }
        if c.limits_on {
            let about_anchor = AxialRow::about_anchor(c, s);
            about_anchor.solve_limits(c, v, angle, (inv_h, use_bias), (&mut i.lower, &mut i.upper));
        }
        c.impulses = i;
    }
    point::solve_rigid(c, s, v, use_bias);
}
