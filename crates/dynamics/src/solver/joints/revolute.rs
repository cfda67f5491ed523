//! Revolute joint: the anchors coincide and B turns freely about them.
//!
//! Rows, in solving order: a spring toward relative angle 0, a motor on the
//! relative angular velocity (speed 0 with a small torque is joint friction),
//! the lower and upper angle limits, and the 2×2 point rows. The angular rows
//! share the effective mass `1 / (iA + iB)` and are skipped when neither body
//! can turn. Impulses: `linear` (point), `spring`, `motor`, `lower`, `upper`.

use lamina_geometry::Real;

use super::{AxialRow, JointConstraint, Substep, Velocities, point};

pub(super) fn warm_start(c: &JointConstraint, s: &Substep, v: &mut Velocities) {
    let i = &c.impulses;
    v.apply_point(c, s, i.linear);
    v.apply_angular(c, i.spring + i.motor + i.lower - i.upper);
}

pub(super) fn solve(c: &mut JointConstraint, s: &Substep, v: &mut Velocities, inv_h: Real, use_bias: bool) {
    if c.angular_mass > 0.0 {
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
            row.solve_limits(c, v, angle, (inv_h, use_bias), (&mut i.lower, &mut i.upper));
        }
        c.impulses = i;
    }
    point::solve_rigid(c, s, v, use_bias);
}
