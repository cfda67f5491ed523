//! Integration of velocities and positions over one substep (symplectic Euler).
//!
//! Bodies are integrated several at a time, one per lane (four, or eight
//! where the solver's bundles are eight wide, `avx.rs`): their state rows
//! are turned into lanes with the transpose the constraint passes use, and
//! every lane runs the operations of the one-body formulas in their order
//! (no fused products, IEEE square roots and divisions), so the bits are
//! those of one body at a time, at any width. The rare lanes whose speed
//! needs capping take the one-body code itself.

use lamina_geometry::tolerance::MAX_ROTATION_PER_SUBSTEP;
use lamina_geometry::{Real, Rotation, Vec2};

use super::body_state::{BodyParams, BodyState};
use super::lanes::Lanes;

/// The most lanes any [`Lanes`] type has: the size of the padding for the
/// last few bodies.
const MAX_LANES: usize = 8;

/// One of a substep's two integrations, run at a lane width chosen by the
/// caller ([`Integration::run`]).
#[derive(Clone, Copy)]
pub(crate) enum Integration<'a> {
    /// [`integrate_velocities`], with the bodies' parameters.
    Velocities(&'a [BodyParams]),
    /// [`integrate_positions`].
    Positions,
}

impl Integration<'_> {
    /// Integrates `states` over a substep of `h` seconds, `W::N` bodies at
    /// a time, speeds capped at `max_speed`.
    #[inline(always)]
    pub fn run<W: Lanes>(self, states: &mut [BodyState], h: Real, max_speed: Real) {
        match self {
            Integration::Velocities(params) => integrate_velocities::<W>(states, params, h, max_speed),
            Integration::Positions => integrate_positions::<W>(states, h, max_speed),
        }
    }
}

/// v ← damping·(v + h·a), w likewise; speeds are capped at `max_speed`.
/// Each body is independent, so any split of the bodies, and any lane
/// width `W`, gives the same bits.
#[inline(always)]
pub(crate) fn integrate_velocities<W: Lanes>(
    states: &mut [BodyState],
    params: &[BodyParams],
    h: Real,
    max_speed: Real,
) {
    debug_assert_eq!(states.len(), params.len());
    let limits = Limits::new(h, max_speed);
    let mut rows = states.chunks_exact_mut(W::N);
    let mut param_rows = params.chunks_exact(W::N);
    for (states, params) in (&mut rows).zip(&mut param_rows) {
        velocities_in_lanes::<W>(states, |l| params[l].row(), h, &limits);
    }
    let (rest, rest_params) = (rows.into_remainder(), param_rows.remainder());
    // The last few bodies fill the lanes they have; the others hold a body
    // at rest, which nothing reads back.
    padded::<W>(rest, |states| {
        let param = |l: usize| rest_params.get(l).unwrap_or(&BodyParams::FIXED).row();
        velocities_in_lanes::<W>(states, param, h, &limits);
    });
}

/// The bounds a substep of `h` seconds holds velocities to.
struct Limits {
    max_speed: Real,
    max_spin: Real,
}

impl Limits {
    fn new(h: Real, max_speed: Real) -> Self {
        Self { max_speed, max_spin: MAX_ROTATION_PER_SUBSTEP / h }
    }
}

/// Runs `integrate` on `rest` (fewer than `W::N` states) padded with
/// bodies at rest to a full set of lanes, and copies the results back.
#[inline(always)]
fn padded<W: Lanes>(rest: &mut [BodyState], integrate: impl FnOnce(&mut [BodyState])) {
    const { assert!(W::N <= MAX_LANES, "a lane type wider than the padding") };
    if rest.is_empty() {
        return;
    }
    let mut lanes = [BodyState::FIXED; MAX_LANES];
    lanes[..rest.len()].copy_from_slice(rest);
    integrate(&mut lanes[..W::N]);
    rest.copy_from_slice(&lanes[..rest.len()]);
}

/// [`integrate_velocities`] of `W::N` states, with their parameter rows.
#[inline(always)]
fn velocities_in_lanes<'a, W: Lanes>(
    states: &mut [BodyState],
    param: impl Fn(usize) -> &'a [Real; 8],
    h: Real,
    limits: &Limits,
) {
    let [vx, vy, w, dpx, dpy, re, im, spare] = W::gather_rows(|l| states[l].row());
    let [_, _, linear_damping, angular_damping, ax, ay, aw, _] = W::gather_rows(param);
    let h = W::splat(h);
    let vx = (vx + ax * h) * linear_damping;
    let vy = (vy + ay * h) * linear_damping;
    let w = (w + aw * h) * angular_damping;
    let (vx, vy) = capped_lanes(vx, vy, limits.max_speed);
    let w = clamped(w, limits.max_spin);
    W::scatter_rows(&[vx, vy, w, dpx, dpy, re, im, spare], |l, row| states[l].set_row(row));
}

/// [`capped`] in every lane: lanes at or under the speed limit (almost
/// always all of them) are left as they are, the others capped one at a
/// time by [`capped`] itself.
#[inline(always)]
fn capped_lanes<W: Lanes>(vx: W, vy: W, max_speed: Real) -> (W, W) {
    let speed2 = vx * vx + vy * vy;
    let within = speed2.simd_le(W::splat(max_speed * max_speed));
    if !(!within).any() {
        return (vx, vy);
    }
    let (mut x, mut y) = (vx, vy);
    for l in 0..W::N {
        let v = capped(Vec2::new(vx.lane(l), vy.lane(l)), max_speed);
        x.set_lane(l, v.x);
        y.set_lane(l, v.y);
    }
    (x, y)
}

/// `w.clamp(-limit, limit)` in every lane, NaN kept as `clamp` keeps it.
#[inline(always)]
fn clamped<W: Lanes>(w: W, limit: Real) -> W {
    let (low, high) = (W::splat(-limit), W::splat(limit));
    let w = w.simd_lt(low).select(low, w);
    w.simd_gt(high).select(high, w)
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
#[inline(always)]
pub(crate) fn integrate_positions<W: Lanes>(states: &mut [BodyState], h: Real, max_speed: Real) {
    let limits = Limits::new(h, max_speed);
    let mut rows = states.chunks_exact_mut(W::N);
    for states in &mut rows {
        positions_in_lanes::<W>(states, h, &limits);
    }
    padded::<W>(rows.into_remainder(), |states| positions_in_lanes::<W>(states, h, &limits));
}

/// [`integrate_positions`] of `W::N` states.
#[inline(always)]
fn positions_in_lanes<W: Lanes>(states: &mut [BodyState], h: Real, limits: &Limits) {
    let [vx, vy, w, dpx, dpy, re, im, spare] = W::gather_rows(|l| states[l].row());
    let (vx, vy) = capped_lanes(vx, vy, limits.max_speed);
    let w = clamped(w, limits.max_spin);
    let h = W::splat(h);
    let (dpx, dpy) = (dpx + vx * h, dpy + vy * h);
    // `integrate_rotation` by `h · w`, lane by lane.
    let delta = h * w;
    let (c2, s2) = (re - delta * im, im + delta * re);
    let mag = (c2 * c2 + s2 * s2).sqrt();
    let inv = mag.simd_gt(W::ZERO).select(W::ONE / mag, W::ZERO);
    let (re, im) = (c2 * inv, s2 * inv);
    W::scatter_rows(&[vx, vy, w, dpx, dpy, re, im, spare], |l, row| states[l].set_row(row));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lanes::Wide;
    use crate::test_rng::Rng;

    /// One body at a time, as the formulas are written: the oracle the
    /// lanes must match bit for bit.
    fn velocities_one_by_one(states: &mut [BodyState], params: &[BodyParams], h: Real, max_speed: Real) {
        let max_spin = MAX_ROTATION_PER_SUBSTEP / h;
        for (s, p) in states.iter_mut().zip(params) {
            let v = (s.v + p.linear_acceleration * h) * p.linear_damping;
            let w = (s.w + p.angular_acceleration * h) * p.angular_damping;
            s.v = capped(v, max_speed);
            s.w = w.clamp(-max_spin, max_spin);
        }
    }

    fn positions_one_by_one(states: &mut [BodyState], h: Real, max_speed: Real) {
        let max_spin = MAX_ROTATION_PER_SUBSTEP / h;
        for s in states.iter_mut() {
            s.v = capped(s.v, max_speed);
            s.w = s.w.clamp(-max_spin, max_spin);
            s.dp += s.v * h;
            s.dq = integrate_rotation(&s.dq, h * s.w);
        }
    }

    /// Random states and parameters, some fast enough to be capped, some
    /// spinning past the limit, a few infinite or NaN, in every count from
    /// none to a few sets of lanes and a remainder: velocities and then
    /// positions integrated in four lanes, and in eight where the processor
    /// has AVX, give every bit of the one-body code.
    #[test]
    fn lanes_integrate_as_one_body_at_a_time() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (h, max_speed) = (1.0 / 240.0, 400.0);
        let value = |rng: &mut Rng| {
            let scale = match rng.next() % 8 {
                0 => 1.0e3,
                1 => 5.0e2,
                _ => 20.0,
            };
            (rng.unit() - 0.5) * scale
        };
        let bits =
            |states: &[BodyState]| states.iter().flat_map(|s| s.row().map(Real::to_bits)).collect::<Vec<_>>();
        let mut capped_lanes = 0;
        for count in 0..(3 * MAX_LANES + 3) {
            for _ in 0..20 {
                let mut states: Vec<BodyState> = (0..count)
                    .map(|_| {
                        let turn = rng.unit() * 6.0;
                        BodyState {
                            v: Vec2::new(value(&mut rng), value(&mut rng)),
                            w: value(&mut rng),
                            dp: Vec2::new(value(&mut rng), value(&mut rng)),
                            dq: Rotation::new(turn),
                            spare: 0.0,
                        }
                    })
                    .collect();
                if count > 2 {
                    states[1].v.x = Real::INFINITY;
                    states[2].w = Real::NAN;
                }
                let params: Vec<BodyParams> = (0..count)
                    .map(|_| BodyParams {
                        linear_damping: 1.0 / (1.0 + rng.unit()),
                        angular_damping: 1.0 / (1.0 + rng.unit()),
                        linear_acceleration: Vec2::new(value(&mut rng), value(&mut rng)),
                        angular_acceleration: value(&mut rng),
                        ..BodyParams::FIXED
                    })
                    .collect();
                capped_lanes += states.iter().filter(|s| s.v.norm() > max_speed).count();
                let mut expected = states.clone();
                velocities_one_by_one(&mut expected, &params, h, max_speed);
                let after_velocities = expected.clone();
                positions_one_by_one(&mut expected, h, max_speed);
                let check =
                    |velocities: &dyn Fn(&mut [BodyState]), positions: &dyn Fn(&mut [BodyState]), lanes| {
                        let mut lanes_states = states.clone();
                        velocities(&mut lanes_states);
                        assert_eq!(
                            bits(&lanes_states),
                            bits(&after_velocities),
                            "velocities of {count} bodies, {lanes} lanes"
                        );
                        positions(&mut lanes_states);
                        assert_eq!(
                            bits(&lanes_states),
                            bits(&expected),
                            "positions of {count} bodies, {lanes} lanes"
                        );
                    };
                check(
                    &|s| integrate_velocities::<Wide>(s, &params, h, max_speed),
                    &|s| integrate_positions::<Wide>(s, h, max_speed),
                    4,
                );
                // Eight lanes as the solver runs them: compiled for AVX, and
                // for AVX-512's encoding where the processor has it.
                #[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
                if crate::solver::avx::available() {
                    use crate::solver::lane_width::integrate;
                    use crate::solver::lanes::Encoding;
                    let mut encodings = vec![Encoding::Vex];
                    if crate::solver::avx::best_encoding() == Encoding::Evex {
                        encodings.push(Encoding::Evex);
                    }
                    for encoding in encodings {
                        let run = |integration, s: &mut [BodyState]| {
                            // SAFETY: the processor has what the encoding needs (checked above).
                            unsafe { integrate(Some(encoding), integration, s, h, max_speed) }
                        };
                        check(
                            &|s| run(Integration::Velocities(&params), s),
                            &|s| run(Integration::Positions, s),
                            8,
                        );
                    }
                }
            }
        }
        assert!(capped_lanes > 20, "speeds capped: {capped_lanes}");
    }
}
