//! Contact constraints: non-penetration along the normal (soft, with speculative
//! points) and Coulomb friction along the tangent, solved by sequential impulses.
//!
//! For a point with anchors `rA`, `rB` (from each centre of mass) and direction
//! `n`, the effective mass is `1 / (mA + mB + iA (rA × n)² + iB (rB × n)²)`: the
//! impulse along `n` that changes the relative velocity along `n` by one.

use lamina_geometry::math::{cross, right_perp};
use lamina_geometry::{Real, Vec2};

use super::Softness;
use super::body_state::BodyState;
use super::parallel::States;
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

/// Solves the soft normal constraints of two points together: the new
/// accumulated impulses `y ≥ 0` satisfy `K y = r` where possible, with
/// `r = (1 − is) K x_old − ms (vn + bias)` the block form of the one-point soft
/// update, and complementarity decides which points push (Catto's 2×2 LCP by
/// enumeration). Returns `None` when no case fits, leaving it to sequential impulses.
fn solve_block(
    k: &[Real; 3],
    x_old: [Real; 2],
    vn_plus_bias: [Real; 2],
    ms: Real,
    is: Real,
) -> Option<[Real; 2]> {
    let [k11, k12, k22] = *k;
    let kx = [k11 * x_old[0] + k12 * x_old[1], k12 * x_old[0] + k22 * x_old[1]];
    let r = [(1.0 - is) * kx[0] - ms * vn_plus_bias[0], (1.0 - is) * kx[1] - ms * vn_plus_bias[1]];
    // Both points push.
    let det = k11 * k22 - k12 * k12;
    let y = [(k22 * r[0] - k12 * r[1]) / det, (k11 * r[1] - k12 * r[0]) / det];
    if y[0] >= 0.0 && y[1] >= 0.0 {
        return Some(y);
    }
    // Only the first pushes; the second must not be pulled.
    let y1 = r[0] / k11;
    if y1 >= 0.0 && k12 * y1 - r[1] >= 0.0 {
        return Some([y1, 0.0]);
    }
    let y2 = r[1] / k22;
    if y2 >= 0.0 && k12 * y2 - r[0] >= 0.0 {
        return Some([0.0, y2]);
    }
    if r[0] <= 0.0 && r[1] <= 0.0 {
        return Some([0.0, 0.0]);
    }
    None
}

/// Velocity of B's material point relative to A's at the anchors.
#[inline]
fn relative_velocity(sa: &BodyState, sb: &BodyState, ra: &Vec2, rb: &Vec2) -> Vec2 {
    let va = sa.v + Vec2::new(-ra.y, ra.x) * sa.w;
    let vb = sb.v + Vec2::new(-rb.y, rb.x) * sb.w;
    vb - va
}

/// Applies `impulse` to B and its opposite to A at the anchors.
#[inline]
fn apply(
    c: &ContactConstraint,
    sa: &mut BodyState,
    sb: &mut BodyState,
    ra: &Vec2,
    rb: &Vec2,
    impulse: &Vec2,
) {
    sa.v -= impulse * c.inv_mass_a;
    sa.w -= c.inv_i_a * cross(ra, impulse);
    sb.v += impulse * c.inv_mass_b;
    sb.w += c.inv_i_b * cross(rb, impulse);
}

/// Applies last step's accumulated impulses of one constraint.
pub(crate) fn warm_start(c: &mut ContactConstraint, states: &States) {
    let (mut sa, mut sb) = (states.load(c.a), states.load(c.b));
    let t = right_perp(&c.normal);
    for p in &c.points[..c.count] {
        let impulse = c.normal * p.normal_impulse + t * p.tangent_impulse;
        apply(c, &mut sa, &mut sb, &p.anchor_a, &p.anchor_b, &impulse);
    }
    states.store_velocity(c.a, &sa);
    states.store_velocity(c.b, &sb);
}

/// Sequential impulses on one constraint. With `use_bias`, overlap is pushed out
/// softly (at most `max_push` m/s); without, only velocity errors are removed
/// (the relax pass). Speculative points always use their gap.
pub(crate) fn solve(c: &mut ContactConstraint, states: &States, inv_h: Real, use_bias: bool, max_push: Real) {
    {
        let (mut sa, mut sb) = (states.load(c.a), states.load(c.b));
        let n = c.normal;
        let dp = sb.dp - sa.dp;
        // Per point: velocity bias, mass scale and impulse scale.
        let mut terms = [(0.0, 1.0, 0.0, false); 2];
        for (term, p) in terms.iter_mut().zip(&c.points[..c.count]) {
            // Current separation from the bodies' motion since the step began.
            let moved = dp + sb.dq * p.anchor_b - sa.dq * p.anchor_a;
            let s = n.dot(&moved) + p.base_separation;
            *term = if s > 0.0 {
                (s * inv_h, 1.0, 0.0, true) // speculative: may close the gap, no more
            } else if use_bias {
                (
                    (c.softness.bias_rate * s).max(-max_push),
                    c.softness.mass_scale,
                    c.softness.impulse_scale,
                    false,
                )
            } else {
                (0.0, 1.0, 0.0, false)
            };
        }
        let solved_as_block = match c.block {
            Some(k) if c.count == 2 && !terms[0].3 && !terms[1].3 => {
                let vn = |p: &ConstraintPoint| n.dot(&relative_velocity(&sa, &sb, &p.anchor_a, &p.anchor_b));
                let (p1, p2) = (c.points[0], c.points[1]);
                let x_old = [p1.normal_impulse, p2.normal_impulse];
                let rhs = [vn(&p1) + terms[0].0, vn(&p2) + terms[1].0];
                solve_block(&k, x_old, rhs, terms[0].1, terms[0].2).map(|y| {
                    for (j, &yj) in y.iter().enumerate() {
                        let p = c.points[j];
                        let applied = yj - p.normal_impulse;
                        c.points[j].normal_impulse = yj;
                        c.points[j].max_normal_impulse = p.max_normal_impulse.max(applied);
                        apply(c, &mut sa, &mut sb, &p.anchor_a, &p.anchor_b, &(n * applied));
                    }
                })
            }
            _ => None,
        };
        if solved_as_block.is_none() {
            for (k, &(bias, mass_scale, impulse_scale, _)) in terms.iter().enumerate().take(c.count) {
                let p = c.points[k];
                let vn = n.dot(&relative_velocity(&sa, &sb, &p.anchor_a, &p.anchor_b));
                let impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
                let accumulated = (p.normal_impulse + impulse).max(0.0);
                let applied = accumulated - p.normal_impulse;
                let cp = &mut c.points[k];
                cp.normal_impulse = accumulated;
                cp.max_normal_impulse = cp.max_normal_impulse.max(applied);
                apply(c, &mut sa, &mut sb, &p.anchor_a, &p.anchor_b, &(n * applied));
            }
        }
        let t = right_perp(&n);
        for k in 0..c.count {
            let p = c.points[k];
            let vt = t.dot(&relative_velocity(&sa, &sb, &p.anchor_a, &p.anchor_b));
            let limit = c.friction * p.normal_impulse;
            let accumulated = (p.tangent_impulse - p.tangent_mass * vt).clamp(-limit, limit);
            let applied = accumulated - p.tangent_impulse;
            c.points[k].tangent_impulse = accumulated;
            apply(c, &mut sa, &mut sb, &p.anchor_a, &p.anchor_b, &(t * applied));
        }
        states.store_velocity(c.a, &sa);
        states.store_velocity(c.b, &sb);
    }
}

/// Drives the normal velocity of points that approached faster than `threshold`
/// and pushed during the step to `−e` times their approach velocity.
pub(crate) fn apply_restitution(c: &mut ContactConstraint, states: &States, threshold: Real) {
    if c.restitution == 0.0 {
        return;
    }
    {
        let (mut sa, mut sb) = (states.load(c.a), states.load(c.b));
        let n = c.normal;
        for k in 0..c.count {
            let p = c.points[k];
            if p.relative_velocity > -threshold || p.max_normal_impulse == 0.0 {
                continue;
            }
            let vn = n.dot(&relative_velocity(&sa, &sb, &p.anchor_a, &p.anchor_b));
            let impulse = -p.normal_mass * (vn + c.restitution * p.relative_velocity);
            let accumulated = (p.normal_impulse + impulse).max(0.0);
            let applied = accumulated - p.normal_impulse;
            c.points[k].normal_impulse = accumulated;
            c.points[k].max_normal_impulse = p.max_normal_impulse.max(applied);
            apply(c, &mut sa, &mut sb, &p.anchor_a, &p.anchor_b, &(n * applied));
        }
        states.store_velocity(c.a, &sa);
        states.store_velocity(c.b, &sb);
    }
}
