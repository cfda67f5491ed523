//! Mouse joint: a spring pulling one point of body B toward a target, with at
//! most the joint's force, and a little damping of B's spin so that a dragged
//! body does not whirl about the grabbed point. Body A is the world.
//! Impulses: `linear`, `angular` (the damping).

use super::motor::clamp_length;
use super::{JointConstraint, Substep, Velocities, point};

#[inline]
pub(super) fn warm_start(c: &JointConstraint, s: &Substep, v: &mut Velocities) {
    point::warm_start(c, s, v);
}

#[inline]
pub(super) fn solve(c: &mut JointConstraint, s: &Substep, v: &mut Velocities) {
    // A mouse joint has no rigid rows: its softness damps B's spin, with no bias.
    if c.inv_i_b > 0.0 {
        let damping = &c.softness;
        let impulse =
            -damping.mass_scale * c.angular_mass * v.state_b.w - damping.impulse_scale * c.impulses.angular;
        c.impulses.angular += impulse;
        v.apply_angular(c, impulse);
    }
    let spring = c.spring;
    let p = point::impulse(c, s, v, s.d * spring.bias_rate, spring.mass_scale, spring.impulse_scale);
    let old = c.impulses.linear;
    c.impulses.linear = clamp_length(old + p, c.max_linear_impulse());
    v.apply_point(c, s, c.impulses.linear - old);
}
