//! The soft-step solver (after Box2D v3's "soft step", E. Catto, 2024).
//!
//! A step of length `dt` is split into `n` substeps of `h = dt / n`. Joints
//! and contacts are prepared once per step (anchors, effective masses,
//! softness); each substep integrates velocities, applies the accumulated
//! impulses (warm start), solves joints and contacts with a soft bias that
//! pulls errors out like a stiff, damped spring (speculative contact points
//! and joint limits may close their gap, no more), integrates positions as
//! per-body deltas from the step's start, and relaxes (solves again without
//! the bias, removing the velocity it added). Restitution and the impulses
//! stored for the next step's warm start close the solve. Where this sits in
//! the step is `world/step.rs`'s list; the solver's passes, in their order, are
//! listed in `soft_step.rs` ([`Solver::run_substeps`]).
//!
//! The constraints are coloured in `constraint_graph.rs` so that one colour's
//! can be solved in parallel, by a team of threads that stays for the whole
//! solve (`team.rs`): contacts, plain point joints and revolute joints with
//! springs, motors or limits four at a time in SIMD lanes
//! (`contact_bundle.rs`, `joints/point_bundle.rs`, `joints/revolute_bundle.rs`;
//! eight on x86-64 processors with AVX, `avx.rs`; a pass's work on one
//! bundle in `passes.rs`, dispatched to a width in `lane_width.rs`), other
//! joints one by one (`joints/`). Bodies carry only deltas (position and
//! rotation since the step began) through the substeps, and contact
//! separation is recomputed from those deltas, which keeps precision far
//! from the world origin.
//!
//! Words: a *stage* is one of the step's, in `world/step.rs`; a *pass* is one of
//! the solver's sweeps over a list of items (a colour's constraints, or the
//! bodies) that the team shares out in blocks; a [`passes::LanePass`] is
//! what a pass does to one bundle of lanes.

#[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
pub(crate) mod avx;
pub(crate) mod body_state;
pub(crate) mod bundles;
pub(crate) mod color_passes;
pub(crate) mod constraint_graph;
pub(crate) mod contact_bundle;
pub(crate) mod contact_solver;
pub(crate) mod gather;
pub(crate) mod impulses;
pub(crate) mod integrate;
pub(crate) mod joints;
pub(crate) mod lane_width;
pub(crate) mod lanes;
pub(crate) mod passes;
pub(crate) mod soft_step;
pub(crate) mod team;

pub(crate) use soft_step::Solver;

use lamina_geometry::Real;

/// The stiffest a soft constraint may be, Hz, over substeps of rate `inv_h`
/// (1/s): soft constraints stay stable up to a quarter of the substep rate.
pub(crate) fn max_hertz(inv_h: Real) -> Real {
    0.25 * inv_h
}

/// Coefficients of a soft constraint: a spring-damper of stiffness `hertz` and
/// damping ratio `zeta`, integrated implicitly over a substep of `h` seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Softness {
    /// Fraction of the position error turned into velocity per second.
    pub bias_rate: Real,
    /// Scales the effective mass: below 1, the constraint gives a little.
    pub mass_scale: Real,
    /// Scales the accumulated impulse subtracted each iteration (the spring's memory).
    pub impulse_scale: Real,
}

impl Softness {
    /// ω = 2π·hertz; a1 = 2ζ + hω; a2 = hω·a1; a3 = 1/(1 + a2):
    /// bias rate ω/a1, mass scale a2·a3, impulse scale a3.
    pub fn new(hertz: Real, zeta: Real, h: Real) -> Self {
        if hertz == 0.0 {
            return Self { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };
        }
        let omega = 2.0 * lamina_geometry::math::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self { bias_rate: omega / a1, mass_scale: a2 * a3, impulse_scale: a3 }
    }
}
