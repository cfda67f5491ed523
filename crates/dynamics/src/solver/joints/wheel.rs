//! Wheel joint: B turns freely about its anchor, which slides along an axis
//! fixed in A (a wheel on its suspension).
//!
//! Rows: a motor on the relative angular velocity (driving the wheel), a
//! spring along the axis (the suspension; 1 Hz, damping ratio 0.7 unless set),
//! the translation limits, and the rigid perpendicular row that keeps the
//! anchor on the axis. Impulses: `motor` (angular), `spring`, `lower`,
//! `upper` (along the axis), `axial` (perpendicular).

use lamina_geometry::Real;
use lamina_geometry::math::left_perp;

use super::{AxialRow, JointConstraint, Substep, Velocities};

#[inline]
pub(super) fn warm_start(c: &JointConstraint, s: &Substep, v: &mut Velocities) {
    let axis = s.axis();
    let i = &c.impulses;
    AxialRow::linear(c, s, axis).apply(c, v, i.spring + i.lower - i.upper);
    AxialRow::linear(c, s, left_perp(&axis)).apply(c, v, i.axial);
    v.apply_angular(c, i.motor);
}

#[inline]
pub(super) fn solve(c: &mut JointConstraint, s: &Substep, v: &mut Velocities, inv_h: Real, use_bias: bool) {
    let mut i = c.impulses;
    if c.motor_on && c.angular_mass > 0.0 {
        AxialRow::angular(c).solve_motor(c, v, &mut i.motor);
    }
    let axis = s.axis();
    let translation = axis.dot(&s.d);
    let along = AxialRow::linear(c, s, axis);
    if c.spring_on {
        along.solve_spring(c, v, translation, &mut i.spring);
    }
    if c.limits_on {
        along.solve_limits(c, v, translation, (inv_h, use_bias), (&mut i.lower, &mut i.upper));
    }
    let perp = left_perp(&axis);
    AxialRow::linear(c, s, perp).solve_rigid(c, v, perp.dot(&s.d), use_bias, &mut i.axial);
    c.impulses = i;
}
