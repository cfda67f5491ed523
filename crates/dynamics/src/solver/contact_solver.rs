//! Contact constraints: non-penetration along the normal (soft, with speculative
//! points) and Coulomb friction along the tangent, solved by sequential impulses
//! (the solving itself, several constraints at a time, is in `contact_bundle.rs`).
//!
//! Preparing a contact is split in two. What needs the contact and its bodies
//! is read here, one contact at a time, into a [`ContactConstraint`]: the
//! anchors and impulses from the solver manifold the narrow phase left
//! (`narrow_phase.rs`), the velocity before solving from the bodies' states.
//! The arithmetic that needs only those numbers (effective masses, the
//! two-point block, the separation's base) is done for a whole bundle at once
//! in its lanes (`ContactBundle::finish`).

use lamina_geometry::{Real, Vec2};

use super::Softness;
use super::body_state::BodyState;
use crate::narrow_phase::SolverManifold;
use crate::solver::body_state::BodyParams;

/// One manifold point as a lane receives it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ConstraintPoint {
    /// From A's centre of mass to the point, world orientation at the step's start.
    pub anchor_a: Vec2,
    /// From B's centre of mass to the point.
    pub anchor_b: Vec2,
    /// Separation at the step's start.
    pub separation: Real,
    pub normal_impulse: Real,
    pub tangent_impulse: Real,
    /// Normal velocity before solving, for restitution (zero where the
    /// contact does not bounce).
    pub relative_velocity: Real,
}

/// A contact's constraint for one step, as read off the contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ContactConstraint {
    /// Solver index of body A, or `NO_INDEX` for an immovable body.
    pub a: u32,
    pub b: u32,
    pub inv_mass_a: Real,
    pub inv_i_a: Real,
    pub inv_mass_b: Real,
    pub inv_i_b: Real,
    pub normal: Vec2,
    pub friction: Real,
    pub restitution: Real,
    pub softness: Softness,
    pub points: [ConstraintPoint; 2],
    pub count: usize,
}

/// Builds the constraint of a touching contact from its solver manifold.
#[inline(always)]
pub(crate) fn prepare(
    manifold: &SolverManifold,
    (a, b): (u32, u32),
    (params_a, params_b): (&BodyParams, &BodyParams),
    (state_a, state_b): (&BodyState, &BodyState),
    softness: Softness,
    static_softness: Softness,
    warm_start: bool,
) -> ContactConstraint {
    let (ma, ia, mb, ib) = (params_a.inv_mass, params_a.inv_inertia, params_b.inv_mass, params_b.inv_inertia);
    let n = manifold.normal;
    let count = manifold.count as usize;
    let mut points = [ConstraintPoint::default(); 2];
    // Only restitution reads the approach velocity, and only where the
    // contact bounces: others skip the bodies' states.
    let bouncy = manifold.restitution > 0.0;
    for (cp, p) in points.iter_mut().zip(&manifold.points[..count]) {
        let (ra, rb) = (p.anchor_a, p.anchor_b);
        let relative_velocity =
            if bouncy { n.dot(&relative_velocity(state_a, state_b, &ra, &rb)) } else { 0.0 };
        *cp = ConstraintPoint {
            anchor_a: ra,
            anchor_b: rb,
            separation: p.separation,
            normal_impulse: if warm_start { p.normal_impulse } else { 0.0 },
            tangent_impulse: if warm_start { p.tangent_impulse } else { 0.0 },
            relative_velocity,
        };
    }
    // Contacts against immovable bodies are made twice as stiff: nothing on the
    // other side gives way, so the stiffer spring is still stable.
    let immovable = (ma == 0.0 && ia == 0.0) || (mb == 0.0 && ib == 0.0);
    ContactConstraint {
        a,
        b,
        inv_mass_a: ma,
        inv_i_a: ia,
        inv_mass_b: mb,
        inv_i_b: ib,
        normal: n,
        friction: manifold.friction,
        restitution: manifold.restitution,
        softness: if immovable { static_softness } else { softness },
        points,
        count,
    }
}

/// Largest condition number for which two points are solved as a block; beyond
/// it the points are nearly redundant and sequential impulses are safer.
pub(crate) const MAX_CONDITION: Real = 1000.0;

/// Velocity of B's material point relative to A's at the anchors.
#[inline]
fn relative_velocity(sa: &BodyState, sb: &BodyState, ra: &Vec2, rb: &Vec2) -> Vec2 {
    let va = sa.v + Vec2::new(-ra.y, ra.x) * sa.w;
    let vb = sb.v + Vec2::new(-rb.y, rb.x) * sb.w;
    vb - va
}
