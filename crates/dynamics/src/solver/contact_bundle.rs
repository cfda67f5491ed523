//! Contact constraints solved several at a time, one per SIMD lane.
//!
//! The constraints of one colour share no movable body, so any of them can be
//! solved side by side: their bodies are gathered into lanes, every
//! lane runs the same arithmetic as the one-constraint solver of Box2D-style
//! sequential impulses, and the new velocities are scattered back. Decisions
//! that differ between lanes (is a point speculative, which case of the 2×2
//! block problem holds, is a friction impulse clamped) become per-lane selects,
//! so a bundle never branches on one lane's data; it only skips work that no
//! lane needs.
//!
//! A bundle's unused lanes hold an empty constraint between two immovable
//! bodies: every mass is zero, so whatever they compute is an impulse of zero.

use lamina_geometry::Real;

use super::Softness;
use super::body_state::{BodiesW, States};
use super::bundles::{LaneBodies, LaneBundle};
use super::lanes::{Lanes, Vec2W, Wide, lane, max, min, select};
use crate::body::NO_INDEX;

/// Largest condition number for which two points are solved as a block; beyond
/// it the points are nearly redundant and sequential impulses are safer.
pub(crate) const MAX_CONDITION: Real = 1000.0;

/// The softness of the contacts for one substep: between two movable bodies,
/// and the stiffer one of contacts with an immovable body (nothing on the
/// other side gives way, so a stiffer spring is still stable).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ContactSoftness {
    pub moving: Softness,
    pub fixed: Softness,
}

/// One manifold point of every lane.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointW<W: Lanes> {
    pub anchor_a: Vec2W<W>,
    pub anchor_b: Vec2W<W>,
    pub base_separation: W,
    pub normal_mass: W,
    pub tangent_mass: W,
    pub normal_impulse: W,
    pub tangent_impulse: W,
    pub max_normal_impulse: W,
}

impl<W: Lanes> PointW<W> {
    /// A point that is not there: no mass, no impulse.
    const EMPTY: PointW<W> = PointW {
        anchor_a: Vec2W { x: W::ZERO, y: W::ZERO },
        anchor_b: Vec2W { x: W::ZERO, y: W::ZERO },
        base_separation: W::ZERO,
        normal_mass: W::ZERO,
        tangent_mass: W::ZERO,
        normal_impulse: W::ZERO,
        tangent_impulse: W::ZERO,
        max_normal_impulse: W::ZERO,
    };
}

/// Contact constraints, one per lane, in struct-of-arrays form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactBundle<W: Lanes = Wide> {
    /// The lanes' constraints, bodies and inverse masses.
    pub bodies: LaneBodies<W>,
    pub normal: Vec2W<W>,
    pub friction: W,
    /// The speed the friction rows drive the tangential velocity to (a
    /// conveyor belt's), m/s; zero for most contacts.
    pub tangent_speed: W,
    /// The rolling resistance's lever (m) and its accumulated angular
    /// impulse; read only where `rolls`.
    pub rolling_resistance: W,
    pub rolling_impulse: W,
    /// A mask: lanes whose contact has an immovable body, which take the
    /// stiffer of the two contact softnesses (see [`ContactSoftness`]). One
    /// mask instead of each lane's three coefficients keeps the bundle
    /// small: every pass streams every bundle through the cache.
    pub stiff: W,
    /// The 2×2 normal effective mass `[k11, k12, k22]` where `has_block` is set.
    pub block: [W; 3],
    /// A mask: lanes solved as a block. While the bundle is being packed
    /// (before [`ContactBundle::finish`]), lanes with two points.
    pub has_block: W,
    /// Bit `l` set: lane `l` holds a constraint.
    pub used: u32,
    /// Some lane has a second point: without one, the passes skip its rows.
    pub two_points: bool,
    /// Some lane bounces (restitution above zero): without one, the solve
    /// does not track the largest normal impulse, which only restitution
    /// reads, and restitution passes the bundle over.
    pub bouncy: bool,
    /// Some lane resists rolling: without one, the passes skip the rolling row.
    pub rolls: bool,
    pub points: [PointW<W>; 2],
}

impl<W: Lanes> LaneBundle for ContactBundle<W> {
    const WIDTH: usize = W::N;
    const EMPTY: ContactBundle<W> = ContactBundle {
        bodies: LaneBodies::EMPTY,
        normal: Vec2W { x: W::ZERO, y: W::ZERO },
        friction: W::ZERO,
        tangent_speed: W::ZERO,
        rolling_resistance: W::ZERO,
        rolling_impulse: W::ZERO,
        stiff: W::ZERO,
        // The identity keeps the unused block arithmetic finite.
        block: [W::ONE, W::ZERO, W::ONE],
        has_block: W::ZERO,
        used: 0,
        two_points: false,
        bouncy: false,
        rolls: false,
        points: [PointW::EMPTY; 2],
    };

    #[inline(always)]
    fn finish(&mut self) {
        ContactBundle::finish(self);
    }
}

impl<W: Lanes> ContactBundle<W> {
    /// Completes the packed lanes, all at once: for a point with anchors `rA`,
    /// `rB` (from each centre of mass) and direction `d`, the effective mass
    /// is `1 / (mA + mB + iA (rA × d)² + iB (rB × d)²)`, the impulse along `d`
    /// that changes the relative velocity along `d` by one (zero where that
    /// sum is not positive, or the point absent); the separation's base is the
    /// separation minus `n·(rB − rA)`, so that adding `n·(pB − pA)` for the
    /// current anchors gives the current separation; and two points whose
    /// 2×2 normal mass matrix is well conditioned are solved as a block.
    #[inline(always)]
    pub fn finish(&mut self) {
        let (zero, one) = (W::ZERO, W::ONE);
        let (n, two) = (self.normal, self.has_block);
        self.two_points = two.any();
        let t = n.right_perp();
        let LaneBodies { inv_mass_a: ma, inv_i_a: ia, inv_mass_b: mb, inv_i_b: ib, .. } = self.bodies;
        let mut rn = [(zero, zero); 2];
        // Absent second points keep the empty point's zeros. Every lane has
        // a first point: an unused lane's is the empty one, whose masses are
        // zero and whose separation comes out as its zero.
        let all = one.simd_eq(one);
        for (k, present) in [all, two].into_iter().enumerate().take(self.point_count()) {
            let p = &mut self.points[k];
            let (ra, rb) = (p.anchor_a, p.anchor_b);
            let (rna, rnb) = (ra.cross(&n), rb.cross(&n));
            let (rta, rtb) = (ra.cross(&t), rb.cross(&t));
            let k_normal = ma + mb + ia * rna * rna + ib * rnb * rnb;
            let k_tangent = ma + mb + ia * rta * rta + ib * rtb * rtb;
            let mass = |k: W| select(present & k.simd_gt(zero), one / k, zero);
            p.normal_mass = mass(k_normal);
            p.tangent_mass = mass(k_tangent);
            p.base_separation = select(present, p.base_separation - n.dot(&(rb - ra)), zero);
            rn[k] = (rna, rnb);
        }
        let [(rn1a, rn1b), (rn2a, rn2b)] = rn;
        let k11 = ma + mb + ia * rn1a * rn1a + ib * rn1b * rn1b;
        let k22 = ma + mb + ia * rn2a * rn2a + ib * rn2b * rn2b;
        let k12 = ma + mb + ia * rn1a * rn2a + ib * rn1b * rn2b;
        let det = k11 * k22 - k12 * k12;
        let block = two & (k11 * k11).simd_lt(W::splat(MAX_CONDITION) * det);
        // Other lanes keep the identity, which keeps their unused arithmetic finite.
        self.block = [select(block, k11, one), select(block, k12, zero), select(block, k22, one)];
        self.has_block = block;
    }

    /// How many points the passes work on: two if any lane has a second.
    #[inline(always)]
    fn point_count(&self) -> usize {
        1 + usize::from(self.two_points)
    }

    /// The accumulated normal and tangent impulses of point `k` in lane `l`.
    pub fn impulses(&self, l: usize, k: usize) -> (Real, Real) {
        let p = &self.points[k];
        (lane(&p.normal_impulse, l), lane(&p.tangent_impulse, l))
    }

    /// The accumulated rolling impulse of lane `l`.
    pub fn rolling_impulse(&self, l: usize) -> Real {
        lane(&self.rolling_impulse, l)
    }

    /// Applies `impulse` at point `k` to B and its opposite to A.
    #[inline(always)]
    fn apply(&self, bodies: &mut (BodiesW<W>, BodiesW<W>), k: usize, impulse: &Vec2W<W>) {
        let p = &self.points[k];
        let (a, b) = bodies;
        a.v -= *impulse * self.bodies.inv_mass_a;
        a.w -= self.bodies.inv_i_a * p.anchor_a.cross(impulse);
        b.v += *impulse * self.bodies.inv_mass_b;
        b.w += self.bodies.inv_i_b * p.anchor_b.cross(impulse);
    }

    /// Velocity of B's material point relative to A's at point `k`.
    #[inline(always)]
    fn relative_velocity(&self, bodies: &(BodiesW<W>, BodiesW<W>), k: usize) -> Vec2W<W> {
        let p = &self.points[k];
        let (a, b) = bodies;
        (b.v + p.anchor_b.spun(b.w)) - (a.v + p.anchor_a.spun(a.w))
    }

    /// Applies last step's accumulated impulses.
    #[inline(always)]
    pub fn warm_start(&mut self, states: &States) {
        if self.two_points {
            self.warm_start_points::<2>(states)
        } else {
            self.warm_start_points::<1>(states)
        }
    }

    /// [`ContactBundle::warm_start`] of the first `N` points.
    #[inline(always)]
    fn warm_start_points<const N: usize>(&mut self, states: &States) {
        let mut bodies = (
            BodiesW::gather_velocity(states, &self.bodies.a),
            BodiesW::gather_velocity(states, &self.bodies.b),
        );
        let (n, t) = (self.normal, self.normal.right_perp());
        for k in 0..N {
            let p = &self.points[k];
            let impulse = n * p.normal_impulse + t * p.tangent_impulse;
            self.apply(&mut bodies, k, &impulse);
        }
        if self.rolls {
            self.apply_rolling(&mut bodies, self.rolling_impulse);
        }
        bodies.0.scatter_velocity(states, &self.bodies.a);
        bodies.1.scatter_velocity(states, &self.bodies.b);
    }

    /// One pass of sequential impulses. With `bias` (the contacts' softness
    /// and the fastest push out of an overlap, m/s), overlap is pushed out
    /// softly; without, only velocity errors are removed (the relax pass).
    /// Speculative points always use their gap.
    #[inline(always)]
    pub fn solve(&mut self, states: &States, inv_h: Real, bias: Option<(&ContactSoftness, Real)>) {
        if self.two_points {
            self.solve_points::<2>(states, inv_h, bias);
        } else {
            self.solve_points::<1>(states, inv_h, bias);
        }
    }

    /// [`ContactBundle::solve`] of the first `N` points: with one, the block
    /// is never needed.
    #[inline(always)]
    fn solve_points<const N: usize>(
        &mut self,
        states: &States,
        inv_h: Real,
        bias: Option<(&ContactSoftness, Real)>,
    ) {
        let mut bodies = (BodiesW::gather(states, &self.bodies.a), BodiesW::gather(states, &self.bodies.b));
        let n = self.normal;
        let inv_h = W::splat(inv_h);
        let (zero, one) = (W::ZERO, W::ONE);
        // Each lane's softness, where the pass pushes overlap out.
        let soft = bias.map(|(soft, max_push)| {
            let pick = |fixed: Real, moving: Real| self.stiff.select(W::splat(fixed), W::splat(moving));
            let (f, m) = (&soft.fixed, &soft.moving);
            (
                pick(f.bias_rate, m.bias_rate),
                pick(f.mass_scale, m.mass_scale),
                pick(f.impulse_scale, m.impulse_scale),
                W::splat(-max_push),
            )
        });

        // Per point: the velocity bias, mass scale and impulse scale. A point
        // still apart (speculative) closes at most its gap, stiffly; one
        // pressing is pushed out softly.
        let dp = bodies.1.dp - bodies.0.dp;
        let mut terms = [(zero, one, zero); 2];
        for (k, term) in terms.iter_mut().enumerate().take(N) {
            let p = &self.points[k];
            let moved = dp + bodies.1.dq.apply(&p.anchor_b) - bodies.0.dq.apply(&p.anchor_a);
            let s = n.dot(&moved) + p.base_separation;
            let apart = s.simd_gt(zero);
            let gap = s * inv_h;
            *term = match soft {
                Some((bias_rate, mass_scale, impulse_scale, push)) => (
                    select(apart, gap, max(bias_rate * s, push)),
                    select(apart, one, mass_scale),
                    select(apart, zero, impulse_scale),
                ),
                None => (select(apart, gap, zero), one, zero),
            };
        }

        // Two points are solved as one 2×2 problem where the block is well
        // conditioned, each row with its own point's terms, so that a point
        // pressing and one still apart are solved together too; the other
        // lanes (and block failures) fall back to one point after the other.
        // Solving a fast body's two speculative points together stops it
        // square: one after the other, the first point's impulse would set it
        // spinning before the second is seen.
        // Unused lanes (never marked for the block) take the path one
        // after the other: their masses are zero, so it gives them impulses
        // of zero.
        let mut sequential = one.simd_eq(one);
        let block_lanes = self.has_block;
        if N == 2 && block_lanes.any() {
            let (p1, p2) = (&self.points[0], &self.points[1]);
            let x_old = [p1.normal_impulse, p2.normal_impulse];
            let rhs = [
                n.dot(&self.relative_velocity(&bodies, 0)) + terms[0].0,
                n.dot(&self.relative_velocity(&bodies, 1)) + terms[1].0,
            ];
            let scales = ([terms[0].1, terms[1].1], [terms[0].2, terms[1].2]);
            let (y, found) = solve_block(&self.block, x_old, rhs, scales);
            let solved = block_lanes & found;
            for (k, &yk) in y.iter().enumerate() {
                let p = &mut self.points[k];
                let applied = select(solved, yk - x_old[k], zero);
                p.normal_impulse = select(solved, yk, x_old[k]);
                if self.bouncy {
                    p.max_normal_impulse = max(p.max_normal_impulse, applied);
                }
                self.apply(&mut bodies, k, &(n * applied));
            }
            sequential = !solved;
        }
        if sequential.bits() & self.used != 0 {
            for (k, &(bias, mass_scale, impulse_scale)) in terms.iter().enumerate().take(N) {
                let vn = n.dot(&self.relative_velocity(&bodies, k));
                let p = &mut self.points[k];
                let impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
                let accumulated = max(p.normal_impulse + impulse, zero);
                let applied = select(sequential, accumulated - p.normal_impulse, zero);
                p.normal_impulse = select(sequential, accumulated, p.normal_impulse);
                if self.bouncy {
                    p.max_normal_impulse = max(p.max_normal_impulse, applied);
                }
                self.apply(&mut bodies, k, &(n * applied));
            }
        }

        let t = n.right_perp();
        for k in 0..N {
            // A conveyor belt's surface moves: friction drives the
            // tangential velocity to its speed rather than to zero.
            let vt = t.dot(&self.relative_velocity(&bodies, k)) - self.tangent_speed;
            let p = &mut self.points[k];
            let limit = self.friction * p.normal_impulse;
            let accumulated = min(max(p.tangent_impulse - p.tangent_mass * vt, -limit), limit);
            let applied = accumulated - p.tangent_impulse;
            p.tangent_impulse = accumulated;
            self.apply(&mut bodies, k, &(t * applied));
        }
        if self.rolls {
            self.solve_rolling::<N>(&mut bodies);
        }
        bodies.0.scatter_velocity(states, &self.bodies.a);
        bodies.1.scatter_velocity(states, &self.bodies.b);
    }

    /// The rolling resistance row: an angular impulse against the bodies'
    /// relative turning, at most the lever times the points' normal impulse
    /// (a torque of resistance × radius × normal force), as in Box2D v3.1.
    #[inline(always)]
    fn solve_rolling<const N: usize>(&mut self, bodies: &mut (BodiesW<W>, BodiesW<W>)) {
        let zero = W::ZERO;
        let (ia, ib) = (self.bodies.inv_i_a, self.bodies.inv_i_b);
        let k = ia + ib;
        let mass = select(k.simd_gt(zero), W::ONE / select(k.simd_gt(zero), k, W::ONE), zero);
        let mut pressing = zero;
        for p in self.points.iter().take(N) {
            pressing += p.normal_impulse;
        }
        let limit = self.rolling_resistance * pressing;
        let old = self.rolling_impulse;
        let turning = bodies.1.w - bodies.0.w;
        let accumulated = min(max(old - mass * turning, -limit), limit);
        self.rolling_impulse = accumulated;
        self.apply_rolling(bodies, accumulated - old);
    }

    /// Turns B by the angular impulse `impulse` and A by its opposite.
    #[inline(always)]
    fn apply_rolling(&self, bodies: &mut (BodiesW<W>, BodiesW<W>), impulse: W) {
        let (a, b) = bodies;
        a.w -= self.bodies.inv_i_a * impulse;
        b.w += self.bodies.inv_i_b * impulse;
    }

    /// Drives the normal velocity of points that approached faster than
    /// `threshold` and pushed during the step to `−e` times their approach
    /// velocity. Row `r` of contact `i`'s solver manifold is `row(i, r)`:
    /// the restitution `e` is number 3 of its header (row 0), each point's
    /// approach velocity number 7 of the point's row. Both are read only
    /// here, once a step and only where some lane bounces, so the bundle
    /// does not carry them through every pass.
    #[inline(always)]
    pub fn apply_restitution<'a>(
        &mut self,
        states: &States,
        threshold: Real,
        row: impl Fn(u32, usize) -> &'a [Real; 8],
    ) {
        if !self.bouncy {
            return;
        }
        let members = self.bodies.members;
        let column = |r: usize| {
            W::gather_rows(|l| {
                let i = members.as_ref()[l];
                if i == NO_INDEX { &[0.0; 8] } else { row(i, r) }
            })
        };
        let [.., restitution, _, _, _, _] = column(0);
        let [.., approach_1] = column(1);
        if self.two_points {
            let [.., approach_2] = column(2);
            self.restitution_points::<2>(states, threshold, restitution, [approach_1, approach_2]);
        } else {
            self.restitution_points::<1>(states, threshold, restitution, [approach_1, W::ZERO]);
        }
    }

    /// [`ContactBundle::apply_restitution`] of the first `N` points, with
    /// each lane's restitution and each point's approach velocity.
    #[inline(always)]
    fn restitution_points<const N: usize>(
        &mut self,
        states: &States,
        threshold: Real,
        restitution: W,
        approach: [W; 2],
    ) {
        let zero = W::ZERO;
        let bouncy = restitution.simd_gt(zero);
        let mut bodies = (BodiesW::gather(states, &self.bodies.a), BodiesW::gather(states, &self.bodies.b));
        let n = self.normal;
        let threshold = W::splat(-threshold);
        for (k, &approach) in approach.iter().enumerate().take(N) {
            let p = &self.points[k];
            let bounce = bouncy & approach.simd_lt(threshold) & p.max_normal_impulse.simd_gt(zero);
            if !bounce.any() {
                continue;
            }
            let vn = n.dot(&self.relative_velocity(&bodies, k));
            let p = &mut self.points[k];
            let impulse = -p.normal_mass * (vn + restitution * approach);
            let accumulated = max(p.normal_impulse + impulse, zero);
            let applied = select(bounce, accumulated - p.normal_impulse, zero);
            p.normal_impulse = select(bounce, accumulated, p.normal_impulse);
            p.max_normal_impulse = max(p.max_normal_impulse, applied);
            self.apply(&mut bodies, k, &(n * applied));
        }
        bodies.0.scatter_velocity(states, &self.bodies.a);
        bodies.1.scatter_velocity(states, &self.bodies.b);
    }
}

/// Solves the soft normal constraints of two points together, per lane: the
/// new accumulated impulses `y ≥ 0` satisfy `K y = r` where possible, with
/// row `i` of `r = (1 − isᵢ) (K x_old)ᵢ − msᵢ (vnᵢ + biasᵢ)` the block form of
/// point `i`'s one-point soft update (`(ms, is)`: each point's mass and
/// impulse scales), and complementarity decides which points push (Catto's
/// 2×2 LCP by enumeration, in the order: both, first only, second only,
/// neither). With `k12 = 0` each row is the one-point update itself. The mask
/// tells the lanes where one of the cases held.
#[inline(always)]
pub(crate) fn solve_block<W: Lanes>(
    k: &[W; 3],
    x_old: [W; 2],
    vn_plus_bias: [W; 2],
    (ms, is): ([W; 2], [W; 2]),
) -> ([W; 2], W) {
    let zero = W::ZERO;
    let [k11, k12, k22] = *k;
    let kx = [k11 * x_old[0] + k12 * x_old[1], k12 * x_old[0] + k22 * x_old[1]];
    let row = |i: usize| (W::ONE - is[i]) * kx[i] - ms[i] * vn_plus_bias[i];
    let r = [row(0), row(1)];
    let det = k11 * k22 - k12 * k12;
    let both = [(k22 * r[0] - k12 * r[1]) / det, (k11 * r[1] - k12 * r[0]) / det];
    let both_ok = both[0].simd_ge(zero) & both[1].simd_ge(zero);
    let first = r[0] / k11;
    let first_ok = first.simd_ge(zero) & (k12 * first - r[1]).simd_ge(zero);
    let second = r[1] / k22;
    let second_ok = second.simd_ge(zero) & (k12 * second - r[0]).simd_ge(zero);
    let neither_ok = r[0].simd_le(zero) & r[1].simd_le(zero);
    let y0 = select(both_ok, both[0], select(first_ok, first, zero));
    let y1 = select(both_ok, both[1], select(first_ok, zero, select(second_ok, second, zero)));
    ([y0, y1], both_ok | first_ok | second_ok | neither_ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lanes::LANES;
    use crate::test_rng::Rng;

    /// The block solve against the definition of the linear complementarity
    /// problem it solves: for a symmetric positive definite `K`, a solution
    /// always exists, and it has `y ≥ 0`, `w = K y − r ≥ 0` and `y·w = 0`,
    /// with each row's right-hand side built from that point's own scales.
    #[test]
    fn block_solve_satisfies_complementarity() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut cases = [0usize; 4];
        for _ in 0..20_000 {
            // K = J M⁻¹ Jᵀ for random masses and lever arms, as in a contact.
            let random_lane = |rng: &mut Rng| {
                let (m, i) = (0.1 + rng.unit(), 0.1 + rng.unit());
                let (r1, r2) = (rng.unit() * 2.0 - 1.0, rng.unit() * 2.0 - 1.0);
                let k = [m + i * r1 * r1, m + i * r1 * r2, m + i * r2 * r2];
                let x = [rng.unit() * 3.0, rng.unit() * 3.0];
                let v = [rng.unit() * 4.0 - 2.0, rng.unit() * 4.0 - 2.0];
                // Each point's own scales, soft, or (1, 0) for a point still
                // apart (about a third of the rows): the mixed lanes too.
                let mut scales =
                    || if rng.next().is_multiple_of(3) { (1.0, 0.0) } else { (rng.unit(), rng.unit() * 0.9) };
                let (first, second) = (scales(), scales());
                (k, x, v, [first.0, second.0], [first.1, second.1])
            };
            let lanes: [_; LANES] = std::array::from_fn(|_| random_lane(&mut rng));
            let w = |f: &dyn Fn(usize) -> Real| Wide::new(std::array::from_fn(f));
            let k = [w(&|l| lanes[l].0[0]), w(&|l| lanes[l].0[1]), w(&|l| lanes[l].0[2])];
            let x = [w(&|l| lanes[l].1[0]), w(&|l| lanes[l].1[1])];
            let v = [w(&|l| lanes[l].2[0]), w(&|l| lanes[l].2[1])];
            let ms = [w(&|l| lanes[l].3[0]), w(&|l| lanes[l].3[1])];
            let is = [w(&|l| lanes[l].4[0]), w(&|l| lanes[l].4[1])];
            let ([y0, y1], found) = solve_block(&k, x, v, (ms, is));
            for (l, &(k, x, v, ms, is)) in lanes.iter().enumerate() {
                let (k11, k12, k22) = (k[0], k[1], k[2]);
                if k11 * k11 >= 1000.0 * (k11 * k22 - k12 * k12) {
                    continue; // too ill conditioned to be solved as a block
                }
                assert!(found.as_array()[l].is_nan(), "no case found for K = {k:?}");
                let y = [lane(&y0, l), lane(&y1, l)];
                let r = [
                    (1.0 - is[0]) * (k11 * x[0] + k12 * x[1]) - ms[0] * v[0],
                    (1.0 - is[1]) * (k12 * x[0] + k22 * x[1]) - ms[1] * v[1],
                ];
                let wv = [k11 * y[0] + k12 * y[1] - r[0], k12 * y[0] + k22 * y[1] - r[1]];
                let scale = 1e-4 * (1.0 + r[0].abs() + r[1].abs());
                for j in 0..2 {
                    assert!(y[j] >= 0.0, "negative impulse {y:?}");
                    assert!(wv[j] >= -scale, "point {j} pulled: w = {wv:?}, y = {y:?}");
                    assert!((y[j] * wv[j]).abs() <= scale * (1.0 + y[j]), "not complementary: {y:?} {wv:?}");
                }
                cases[(y[0] > 0.0) as usize * 2 + (y[1] > 0.0) as usize] += 1;
            }
        }
        // Every case of the enumeration was exercised.
        assert!(cases.iter().all(|&c| c > 100), "cases hit: {cases:?}");
    }

    /// Contacts of one point packed apart from those of two (whose bundles
    /// then skip the second point) give the same bits as the colour order
    /// that mixes them in every bundle: balls, capsules and boxes, which
    /// touch with one point or two, fall on a ground, bounce (restitution)
    /// and settle, each world stepped both ways and compared every step.
    #[test]
    fn grouping_by_point_count_changes_no_bit() {
        use crate::{BodyDesc, ColliderDesc, World, WorldSettings};
        use lamina_geometry::{Point, Shape};
        let build = || {
            let mut world = World::new(WorldSettings::default());
            let ground = world.add_body(BodyDesc::fixed());
            world.add_collider(ground, ColliderDesc::new(Shape::rectangle(30.0, 0.5))).unwrap();
            for i in 0..150 {
                let (x, y) = (-12.0 + (i % 25) as Real, 1.5 + (i / 25) as Real * 1.1);
                let body = world.add_body(BodyDesc::dynamic().translation(x + 0.1 * (i % 3) as Real, y));
                let shape = match i % 3 {
                    0 => Shape::circle(0.4),
                    1 => Shape::capsule(Point::new(-0.3, 0.0), Point::new(0.3, 0.0), 0.2),
                    _ => Shape::rectangle(0.4, 0.4),
                };
                world.add_collider(body, ColliderDesc::new(shape).restitution(0.3)).unwrap();
            }
            world
        };
        let (mut grouped, mut mixed) = (build(), build());
        mixed.solver.keep_colour_order();
        let mut grouped_steps = 0;
        for step in 0..240 {
            grouped.step(1.0 / 60.0).unwrap();
            mixed.step(1.0 / 60.0).unwrap();
            assert_eq!(grouped.state_hash(), mixed.state_hash(), "step {step}");
            grouped_steps += usize::from(grouped.solver.grouped_by_points());
        }
        assert!(
            grouped_steps > 100,
            "the scene must mix one- and two-point contacts ({grouped_steps} steps)"
        );
    }
}
