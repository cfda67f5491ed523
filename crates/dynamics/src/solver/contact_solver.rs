//! Contact constraints: non-penetration along the normal (soft, with speculative
//! points) and Coulomb friction along the tangent, solved by sequential impulses
//! (the solving itself, several constraints at a time, is in `contact_bundle.rs`).
//!
//! For a point with anchors `rA`, `rB` (from each centre of mass) and direction
//! `n`, the effective mass is `1 / (mA + mB + iA (rA × n)² + iB (rB × n)²)`: the
//! impulse along `n` that changes the relative velocity along `n` by one.

use lamina_geometry::math::{cross, right_perp};
use lamina_geometry::{Real, Vec2};

use super::Softness;
use super::body_state::BodyState;
use crate::contact::Contact;
use crate::solver::body_state::BodyParams;

/// One manifold point as the solver sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ConstraintPoint {
    /// From A's centre of mass to the point, world orientation at the step's start.
    pub anchor_a: Vec2,
    /// From B's centre of mass to the point.
    pub anchor_b: Vec2,
    /// Separation at the step's start minus `n·(rB − rA)`: adding `n·(pB − pA)`
    /// for the current anchors gives the current separation.
    pub base_separation: Real,
    pub normal_mass: Real,
    pub tangent_mass: Real,
    pub normal_impulse: Real,
    pub tangent_impulse: Real,
    /// Largest normal impulse of the step: zero means the point never pushed.
    pub max_normal_impulse: Real,
    /// Normal velocity before solving, for restitution.
    pub relative_velocity: Real,
}

/// A contact's constraint for one step.
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
    /// The 2×2 normal effective-mass matrix `[k11, k12; k12, k22]` of a
    /// two-point manifold, when it is well conditioned enough to solve both
    /// points as one block.
    pub block: Option<[Real; 3]>,
}

/// Builds the constraint of a touching contact. `anchors` gives, per point, the
/// vectors from each body's centre of mass to the point (world orientation).
#[allow(clippy::too_many_arguments)]
pub(crate) fn prepare(
    contact: &Contact,
    anchors: &[(Vec2, Vec2)],
    (a, b): (u32, u32),
    (params_a, params_b): (&BodyParams, &BodyParams),
    (state_a, state_b): (&BodyState, &BodyState),
    softness: Softness,
    static_softness: Softness,
    warm_start: bool,
) -> ContactConstraint {
    let (ma, ia, mb, ib) = (params_a.inv_mass, params_a.inv_inertia, params_b.inv_mass, params_b.inv_inertia);
    let n = contact.normal;
    let t = right_perp(&n);
    let mut points = [ConstraintPoint::default(); 2];
    for (cp, (p, &(ra, rb))) in points.iter_mut().zip(contact.points.iter().zip(anchors)) {
        let (rna, rnb) = (cross(&ra, &n), cross(&rb, &n));
        let k_normal = ma + mb + ia * rna * rna + ib * rnb * rnb;
        let (rta, rtb) = (cross(&ra, &t), cross(&rb, &t));
        let k_tangent = ma + mb + ia * rta * rta + ib * rtb * rtb;
        let dv = relative_velocity(state_a, state_b, &ra, &rb);
        *cp = ConstraintPoint {
            anchor_a: ra,
            anchor_b: rb,
            base_separation: p.separation - n.dot(&(rb - ra)),
            normal_mass: if k_normal > 0.0 { 1.0 / k_normal } else { 0.0 },
            tangent_mass: if k_tangent > 0.0 { 1.0 / k_tangent } else { 0.0 },
            normal_impulse: if warm_start { p.normal_impulse } else { 0.0 },
            tangent_impulse: if warm_start { p.tangent_impulse } else { 0.0 },
            max_normal_impulse: 0.0,
            relative_velocity: n.dot(&dv),
        };
    }
    let block = if contact.points.len() == 2 { block_matrix(&points, &n, ma, ia, mb, ib) } else { None };
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
        friction: contact.friction,
        restitution: contact.restitution,
        softness: if immovable { static_softness } else { softness },
        points,
        count: contact.points.len(),
        block,
    }
}

/// Largest condition number for which two points are solved as a block; beyond
/// it the points are nearly redundant and sequential impulses are safer.
const MAX_CONDITION: Real = 1000.0;

/// The normal effective-mass matrix of two points, or `None` when ill conditioned.
fn block_matrix(
    points: &[ConstraintPoint; 2],
    n: &Vec2,
    ma: Real,
    ia: Real,
    mb: Real,
    ib: Real,
) -> Option<[Real; 3]> {
    let (p1, p2) = (&points[0], &points[1]);
    let (rn1a, rn1b) = (cross(&p1.anchor_a, n), cross(&p1.anchor_b, n));
    let (rn2a, rn2b) = (cross(&p2.anchor_a, n), cross(&p2.anchor_b, n));
    let k11 = ma + mb + ia * rn1a * rn1a + ib * rn1b * rn1b;
    let k22 = ma + mb + ia * rn2a * rn2a + ib * rn2b * rn2b;
    let k12 = ma + mb + ia * rn1a * rn2a + ib * rn1b * rn2b;
    let det = k11 * k22 - k12 * k12;
    (k11 * k11 < MAX_CONDITION * det).then_some([k11, k12, k22])
}

/// Velocity of B's material point relative to A's at the anchors.
#[inline]
fn relative_velocity(sa: &BodyState, sb: &BodyState, ra: &Vec2, rb: &Vec2) -> Vec2 {
    let va = sa.v + Vec2::new(-ra.y, ra.x) * sa.w;
    let vb = sb.v + Vec2::new(-rb.y, rb.x) * sb.w;
    vb - va
}
