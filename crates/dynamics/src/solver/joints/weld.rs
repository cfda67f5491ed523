//! Weld joint: no relative motion. The angular row first, then the 2×2 point
//! rows; each is rigid (the joint's softness) unless the joint has a spring,
//! which then softens both, in solving and in relaxing alike.
//! Impulses: `angular`, `linear`.

use super::{JointConstraint, Substep, Velocities, bias_terms, point};

#[inline]
pub(super) fn solve(c: &mut JointConstraint, s: &Substep, v: &mut Velocities, use_bias: bool) {
    let (bias_rate, mass_scale, impulse_scale) = if c.spring_on {
        (c.spring.bias_rate, c.spring.mass_scale, c.spring.impulse_scale)
    } else {
        bias_terms(&c.softness, 1.0, use_bias)
    };
    if c.angular_mass > 0.0 {
        let angle = s.relative_angle();
        let velocity = v.state_b.w - v.state_a.w;
        let impulse = -c.angular_mass * mass_scale * (velocity + bias_rate * angle)
            - impulse_scale * c.impulses.angular;
        c.impulses.angular += impulse;
        v.apply_angular(c, impulse);
    }
    let p = point::impulse(c, s, v, s.d * bias_rate, mass_scale, impulse_scale);
    c.impulses.linear += p;
    v.apply_point(c, s, p);
}
