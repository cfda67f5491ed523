//! Motor joint: drives B toward the pose relative to A that it had at
//! creation, correcting a fraction of the error each substep (the correction
//! factor) with at most the joint's force and torque. Its frames are anchored
//! at B's centre of mass. Impulses: `angular`, `linear`.

use super::{JointConstraint, Substep, Velocities, point};

#[inline]
pub(super) fn solve(c: &mut JointConstraint, s: &Substep, v: &mut Velocities) {
    if c.angular_mass > 0.0 {
        let velocity = v.state_b.w - v.state_a.w + c.correction_rate * s.relative_angle();
        let old = c.impulses.angular;
        let max = c.max_angular_impulse();
        c.impulses.angular = (old - c.angular_mass * velocity).clamp(-max, max);
        v.apply_angular(c, c.impulses.angular - old);
    }
    let p = point::impulse(c, s, v, s.d * c.correction_rate, 1.0, 0.0);
    let old = c.impulses.linear;
    c.impulses.linear = clamp_length(old + p, c.max_linear_impulse());
    v.apply_point(c, s, c.impulses.linear - old);
}

/// `p`, shortened to `max` if longer.
#[inline]
pub(super) fn clamp_length(p: lamina_geometry::Vec2, max: lamina_geometry::Real) -> lamina_geometry::Vec2 {
    let length = p.norm();
    if length > max && length > 0.0 { p * (max / length) } else { p }
}
