//! The point rows: B's anchor held on A's, as one 2×2 problem.
//!
//! With anchors `rA`, `rB` from the centres of mass, the anchors' relative
//! velocity is `vB + wB × rB − vA − wA × rA`, and the impulse `P` that changes
//! it by `Δ` solves `K P = Δ` with
//! `K = (mA + mB) I + iA [rA.y², −rA.x rA.y; ·, rA.x²] + iB [same for rB]`.
//! Revolute, weld, motor and mouse joints use it, each with its own bias.

use lamina_geometry::{Real, Vec2};

use super::{JointConstraint, Substep, Velocities, bias_terms};

/// Applies last step's point and angular impulses.
#[inline]
pub(super) fn warm_start(c: &JointConstraint, s: &Substep, v: &mut Velocities) {
    v.apply_point(c, s, c.impulses.linear);
    v.apply_angular(c, c.impulses.angular);
}

/// The impulse that drives the anchors' relative velocity plus `bias` to zero,
/// given the row's mass and impulse scales (softness); not yet applied.
#[inline]
pub(super) fn impulse(
    c: &JointConstraint,
    s: &Substep,
    v: &Velocities,
    bias: Vec2,
    mass_scale: Real,
    impulse_scale: Real,
) -> Vec2 {
    let (k11, k12, k22) = mass_matrix(c, s);
    let b = solve_2x2(k11, k12, k22, v.point_velocity(s) + bias);
    -b * mass_scale - c.impulses.linear * impulse_scale
}

/// The point rows' matrix `K` as `(k11, k12, k22)`.
#[inline]
pub(super) fn mass_matrix(c: &JointConstraint, s: &Substep) -> (Real, Real, Real) {
    let (ma, mb, ia, ib) = (c.inv_mass_a, c.inv_mass_b, c.inv_i_a, c.inv_i_b);
    let (ra, rb) = (s.ra, s.rb);
    let k11 = ma + mb + ia * ra.y * ra.y + ib * rb.y * rb.y;
    let k12 = -ia * ra.x * ra.y - ib * rb.x * rb.y;
    let k22 = ma + mb + ia * ra.x * ra.x + ib * rb.x * rb.x;
    (k11, k12, k22)
}

/// The rigid point row: soft with the joint's stiffness while solving with
/// bias, unbiased while relaxing.
#[inline]
pub(super) fn solve_rigid(c: &mut JointConstraint, s: &Substep, v: &mut Velocities, use_bias: bool) {
    let (bias_rate, mass_scale, impulse_scale) = bias_terms(&c.softness, 1.0, use_bias);
    let p = impulse(c, s, v, s.d * bias_rate, mass_scale, impulse_scale);
    c.impulses.linear += p;
    v.apply_point(c, s, p);
}

/// `x` with `[k11, k12; k12, k22] x = r`, or zero for a singular matrix (two
/// immovable bodies).
#[inline]
pub(super) fn solve_2x2(k11: Real, k12: Real, k22: Real, r: Vec2) -> Vec2 {
    let det = k11 * k22 - k12 * k12;
    let inv = if det != 0.0 { 1.0 / det } else { 0.0 };
    Vec2::new(inv * (k22 * r.x - k12 * r.y), inv * (k11 * r.y - k12 * r.x))
}
