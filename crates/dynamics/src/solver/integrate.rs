//! Integration of velocities and positions over one substep (symplectic Euler).

use lamina_geometry::tolerance::MAX_ROTATION_PER_SUBSTEP;
use lamina_geometry::{Real, Rotation, Vec2};

use super::body_state::{BodyParams, BodyState};

/// v ← damping·(v + h·a), w likewise; speeds are capped at `max_speed`.
/// Each body is independent, so any split of the bodies gives the same bits.
pub(crate) fn integrate_velocities(
    states: &mut [BodyState],
    params: &[BodyParams],
    h: Real,
    max_speed: Real,
) {
    let max_spin = MAX_ROTATION_PER_SUBSTEP / h;
    for (s, p) in states.iter_mut().zip(params) {
        let v = (s.v + p.linear_acceleration * h) * p.linear_damping;
        let w = (s.w + p.angular_acceleration * h) * p.angular_damping;
        s.v = capped(v, max_speed);
        s.w = w.clamp(-max_spin, max_spin);
    }
}

/// A body's acceleration from gravity (already scaled by the body's gravity
/// scale) and its applied force over its mass, each finite on its own: finite
/// factors can multiply past the largest `Real` (a gravity scale of −1.7e38
/// times 10 m/s² is infinite in f32), and an infinite acceleration would make
/// the velocity infinite, then NaN once capped. Any acceleration that large
/// reaches the speed cap within a substep anyway, so saturating each
/// component at the largest finite value changes nothing but the NaN.
pub(crate) fn acceleration(gravity: Vec2, force_over_mass: Vec2) -> Vec2 {
    let saturate = |a: Vec2| a.map(|x| x.clamp(-Real::MAX, Real::MAX));
    saturate(saturate(gravity) + saturate(force_over_mass))
}

/// `v`, shortened to `max_speed` if longer. A speed whose square overflows is
/// measured on the vector scaled down by its largest component, so that it is
/// capped along its direction instead of dropping to zero; an infinite
/// component (a finite velocity plus a saturated acceleration can overflow)
/// points the way alone.
#[inline]
fn capped(v: Vec2, max_speed: Real) -> Vec2 {
    let speed2 = v.norm_squared();
    if speed2 <= max_speed * max_speed {
        return v;
    }
    if speed2.is_finite() {
        return v * (max_speed / speed2.sqrt());
    }
    let largest = v.x.abs().max(v.y.abs());
    let unit = if largest.is_infinite() {
        v.map(|x| if x.is_infinite() { x.signum() } else { 0.0 })
    } else {
        v / largest
    };
    unit * (max_speed / unit.norm())
}

/// dp ← dp + h·v; dq ← dq turned by h·w, renormalised. The rotation is advanced
/// by its first-order update and renormalised rather than through sine and
/// cosine, which keeps the step free of platform trigonometry.
///
/// The velocities are capped again first, as in [`integrate_velocities`]:
/// constraints that contradict each other (a body welded to two fixed bodies
/// that a motor pulls apart) can push a velocity past any bound within one
/// pass, and it must not carry the body off to infinity.
pub(crate) fn integrate_positions(states: &mut [BodyState], h: Real, max_speed: Real) {
    let max_spin = MAX_ROTATION_PER_SUBSTEP / h;
    for s in states.iter_mut() {
        s.v = capped(s.v, max_speed);
        s.w = s.w.clamp(-max_spin, max_spin);
        s.dp += s.v * h;
        s.dq = integrate_rotation(&s.dq, h * s.w);
    }
}

/// `q` turned by the small angle `delta`.
#[inline]
pub(crate) fn integrate_rotation(q: &Rotation, delta: Real) -> Rotation {
    let (c, s) = (q.re, q.im);
    let (c2, s2) = (c - delta * s, s + delta * c);
    let mag = (c2 * c2 + s2 * s2).sqrt();
    let inv = if mag > 0.0 { 1.0 / mag } else { 0.0 };
    Rotation::new_unchecked(nalgebra::Complex { re: c2 * inv, im: s2 * inv })
}
