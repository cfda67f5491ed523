//! Distance joint: the anchors' distance.
//!
//! The row runs along the line between the anchors, recomputed every substep.
//! Without a spring or limits the length is held rigidly at the rest length.
//! Otherwise the length is free between the limits (a rope: minimum 0), pulled
//! toward the rest length by the spring if it has stiffness. A motor drives the
//! rate of change of the length. Impulses: `axial` (rigid), `spring`, `motor`,
//! `lower`, `upper`.

use lamina_geometry::{Real, Vec2};

use super::{AxialRow, JointConstraint, Substep, Velocities};

/// The unit vector from A's anchor to B's, and the distance.
fn direction(s: &Substep) -> (Vec2, Real) {
    let length = s.d.norm();
    let dir = if length > 0.0 { s.d / length } else { Vec2::zeros() };
    (dir, length)
}

#[inline]
pub(super) fn warm_start(c: &JointConstraint, s: &Substep, v: &mut Velocities) {
    let (dir, _) = direction(s);
    let i = &c.impulses;
    AxialRow::linear(c, s, dir).apply(c, v, i.axial + i.spring + i.motor + i.lower - i.upper);
}

#[inline]
pub(super) fn solve(c: &mut JointConstraint, s: &Substep, v: &mut Velocities, inv_h: Real, use_bias: bool) {
    let (dir, length) = direction(s);
    let row = AxialRow::linear(c, s, dir);
    let mut i = c.impulses;
    if c.spring_on {
        row.solve_spring(c, v, length - c.length, &mut i.spring);
    }
    if c.motor_on {
        row.solve_motor(c, v, &mut i.motor);
    }
    if c.limits_on {
        row.solve_limits(c, v, length, (inv_h, use_bias), (&mut i.lower, &mut i.upper));
    }
    if !c.free_length {
        row.solve_rigid(c, v, length - c.length, use_bias, &mut i.axial);
    }
    c.impulses = i;
}
