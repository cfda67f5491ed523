//! Contact constraints: non-penetration along the normal (soft, with speculative
//! points) and Coulomb friction along the tangent, solved by sequential impulses
//! (the solving itself, several constraints at a time, is in `contact_bundle.rs`).
//!
//! Preparing a bundle of contacts is split in two. What needs the contacts
//! and their bodies is packed here ([`ContactSource::pack`]): the normals,
//! materials, anchors and impulses from the solver manifolds the narrow
//! phase left (`narrow_phase.rs`), the inverse masses from the bodies'
//! parameters. Both are rows of eight numbers, so a bundle loads each of its
//! contacts' rows whole and turns them into lanes with a transpose, instead
//! of writing every number of every lane on its own. The arithmetic that
//! needs only those numbers (effective masses, the two-point block, the
//! separation's base) is then done for the whole bundle at once in its lanes
//! (`ContactBundle::finish`).

use lamina_geometry::Real;

use super::body_state::BodyParams;
use super::bundles::LaneBundle;
use super::contact_bundle::{ContactBundle, PointW};
use super::lanes::{Lanes, Vec2W};
use crate::body::NO_INDEX;
use crate::narrow_phase::SolverManifold;

/// The row of a lane that holds no contact, or of a second point that is
/// not there: zeros.
const ZERO_ROW: [Real; 8] = [0.0; 8];

/// Where the contacts' constraints come from while they are packed: each
/// from its solver manifold and its bodies' parameters.
pub(crate) struct ContactSource<'a> {
    /// The solver manifolds, in contact order.
    pub manifolds: &'a [SolverManifold],
    /// Contact `i`'s place among `manifolds`.
    pub places: &'a [u32],
    /// Contact `i`'s bodies' solver indices (`NO_INDEX` for immovable ones).
    pub indices: &'a [(u32, u32)],
    /// The bodies' parameters, by solver index.
    pub params: &'a [BodyParams],
    /// Whether last step's impulses are applied again.
    pub warm_start: bool,
}

impl ContactSource<'_> {
    /// Writes contacts `members` (one per lane, the rest of the lanes
    /// unused) to `bundle`, which [`LaneBundle::finish`] then completes.
    #[inline(always)]
    pub fn pack<W: Lanes>(&self, bundle: &mut ContactBundle<W>, members: &[u32]) {
        debug_assert!(!members.is_empty() && members.len() <= W::N);
        let empty = <ContactBundle<W> as LaneBundle>::EMPTY;
        *bundle = empty;
        let manifold = |l: usize| members.get(l).map(|&i| &self.manifolds[self.places[i as usize] as usize]);
        let params =
            |i: u32| if i == NO_INDEX { BodyParams::FIXED.row() } else { self.params[i as usize].row() };

        // Unused lanes keep the empty bundle's `NO_INDEX`, which reads the
        // parameters of an immovable body.
        let mut used = W::ZERO;
        let lanes = &mut bundle.bodies;
        for (l, &i) in members.iter().enumerate() {
            let (a, b) = self.indices[i as usize];
            lanes.members.as_mut()[l] = i;
            lanes.a.as_mut()[l] = a;
            lanes.b.as_mut()[l] = b;
            used.set_flag(l);
        }
        bundle.used = used.bits();
        let [ma, ia, ..] = W::gather_low_rows(|l| params(lanes.a.as_ref()[l]));
        let [mb, ib, ..] = W::gather_low_rows(|l| params(lanes.b.as_ref()[l]));
        (lanes.inv_mass_a, lanes.inv_i_a, lanes.inv_mass_b, lanes.inv_i_b) = (ma, ia, mb, ib);

        let [nx, ny, friction, restitution, count, tangent_speed, rolling, rolling_impulse] =
            W::gather_rows(|l| manifold(l).map_or(&ZERO_ROW, |m| m.row(0)));
        bundle.normal = Vec2W { x: nx, y: ny };
        bundle.friction = friction;
        bundle.tangent_speed = tangent_speed;
        bundle.rolls = rolling.simd_gt(W::ZERO).any();
        bundle.rolling_resistance = rolling;
        if self.warm_start {
            bundle.rolling_impulse = rolling_impulse;
        }
        let two = count.simd_eq(W::splat(2.0));
        bundle.has_block = two;

        // Contacts with an immovable body (no mass, no inertia) take the
        // stiffer softness; unused lanes keep the empty bundle's mask.
        let zero = W::ZERO;
        let still = |m: W, i: W| m.simd_eq(zero) & i.simd_eq(zero);
        bundle.stiff = used & (still(ma, ia) | still(mb, ib));

        let points = 1 + usize::from(two.any());
        for k in 0..points {
            let [rax, ray, rbx, rby, separation, normal_impulse, tangent_impulse, _] =
                W::gather_rows(|l| manifold(l).map_or(&ZERO_ROW, |m| m.row(1 + k)));
            let p: &mut PointW<W> = &mut bundle.points[k];
            p.anchor_a = Vec2W { x: rax, y: ray };
            p.anchor_b = Vec2W { x: rbx, y: rby };
            // The separation itself, until `finish` takes the anchors' part out.
            p.base_separation = separation;
            if self.warm_start {
                p.normal_impulse = normal_impulse;
                p.tangent_impulse = tangent_impulse;
            }
        }

        // Only restitution reads the approach velocities (off the
        // manifolds, once a step): the bundle notes whether a lane bounces.
        bundle.bouncy = restitution.simd_gt(zero).any();
    }
}

#[cfg(test)]
mod tests {
    use lamina_geometry::Vec2;

    use super::*;
    use crate::narrow_phase::SolverPoint;
    use crate::solver::lanes::{LANES, Wide, lane};
    use crate::test_rng::Rng;

    /// Random manifolds of one and two points, between movable and
    /// immovable bodies, some bouncing, packed into bundles of every fill:
    /// every lane holds its contact's numbers, read off the manifold and the
    /// bodies directly (the oracle), and the unused lanes hold the empty
    /// bundle's. Run for four lanes, and for eight where the processor has
    /// AVX; with and without warm starting.
    #[test]
    fn packed_lanes_hold_their_contacts() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let value = |rng: &mut Rng| rng.unit() * 4.0 - 2.0;
        let bodies = 12;
        // Body 0 is kinematic (no mass, no inertia: immovable as a fixed
        // body is) and body 1 turns but does not translate (no inverse mass,
        // an inverse inertia): the softness goes by mass, not by index.
        let params: Vec<BodyParams> = (0..bodies)
            .map(|k| BodyParams {
                inv_mass: if k < 2 { 0.0 } else { 0.5 + rng.unit() },
                inv_inertia: if k == 0 { 0.0 } else { 0.5 + rng.unit() },
                ..BodyParams::FIXED
            })
            .collect();
        let mut manifolds = Vec::new();
        let mut indices = Vec::new();
        for i in 0..40u32 {
            let count = 1 + (i % 3 == 0) as usize;
            let mut points = [SolverPoint::default(); 2];
            for p in &mut points[..count] {
                *p = SolverPoint {
                    anchor_a: Vec2::new(value(&mut rng), value(&mut rng)),
                    anchor_b: Vec2::new(value(&mut rng), value(&mut rng)),
                    separation: value(&mut rng),
                    normal_impulse: rng.unit(),
                    tangent_impulse: value(&mut rng),
                    approach: value(&mut rng),
                };
            }
            manifolds.push(SolverManifold {
                normal: Vec2::new(value(&mut rng), value(&mut rng)),
                friction: rng.unit(),
                restitution: if i % 5 == 0 { rng.unit() } else { 0.0 },
                count: count as Real,
                tangent_speed: if i % 7 == 0 { value(&mut rng) } else { 0.0 },
                rolling_resistance: if i % 6 == 0 { rng.unit() } else { 0.0 },
                rolling_impulse: if i % 6 == 0 { value(&mut rng) } else { 0.0 },
                points,
            });
            // A fixed A, a fixed B, or two bodies of the solver.
            let (a, b) = (i % bodies, (i * 7 + 3) % bodies);
            indices.push(match i % 4 {
                1 => (NO_INDEX, b),
                2 => (a, NO_INDEX),
                _ => (a, b),
            });
        }
        // Contact `i`'s manifold lies at place `39 - i`.
        let places: Vec<u32> = (0..40).rev().collect();
        let manifolds: Vec<SolverManifold> = manifolds.into_iter().rev().collect();
        for warm_start in [true, false] {
            let source = ContactSource {
                manifolds: &manifolds,
                places: &places,
                indices: &indices,
                params: &params,
                warm_start,
            };
            check::<Wide>(&source);
            #[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
            if crate::solver::avx::available() {
                check::<crate::solver::avx::Avx8>(&source);
            }
        }

        fn check<W: Lanes>(source: &ContactSource) {
            let width = W::N;
            assert!(width >= LANES);
            for first in (0..40).step_by(width) {
                for used in [1, width / 2, width] {
                    let members: Vec<u32> = (first..first + used as u32).collect();
                    let mut bundle = <ContactBundle<W> as LaneBundle>::EMPTY;
                    source.pack(&mut bundle, &members);
                    let manifold = |i: u32| &source.manifolds[source.places[i as usize] as usize];
                    let bounces = members.iter().any(|&i| manifold(i).restitution > 0.0);
                    assert_eq!(bundle.bouncy, bounces, "contacts {members:?}");
                    let rolls = members.iter().any(|&i| manifold(i).rolling_resistance > 0.0);
                    assert_eq!(bundle.rolls, rolls, "contacts {members:?}");
                    for l in 0..width {
                        check_lane(source, &bundle, members.get(l).copied(), l);
                    }
                }
            }
        }

        fn check_lane<W: Lanes>(
            source: &ContactSource,
            bundle: &ContactBundle<W>,
            member: Option<u32>,
            l: usize,
        ) {
            let empty = <ContactBundle<W> as LaneBundle>::EMPTY;
            let Some(i) = member else {
                // Every number of an unused lane is the empty bundle's.
                let bits = |b: &ContactBundle<W>| {
                    let mut all = vec![
                        b.bodies.inv_mass_a,
                        b.bodies.inv_i_a,
                        b.bodies.inv_mass_b,
                        b.bodies.inv_i_b,
                        b.normal.x,
                        b.normal.y,
                        b.friction,
                        b.tangent_speed,
                        b.rolling_resistance,
                        b.rolling_impulse,
                        b.stiff,
                        b.has_block,
                    ];
                    for p in &b.points {
                        all.extend([
                            p.anchor_a.x,
                            p.anchor_a.y,
                            p.anchor_b.x,
                            p.anchor_b.y,
                            p.base_separation,
                        ]);
                        all.extend([p.normal_impulse, p.tangent_impulse, p.max_normal_impulse]);
                    }
                    all.iter().map(|w| lane(w, l).to_bits()).collect::<Vec<_>>()
                };
                assert_eq!(bits(bundle), bits(&empty), "unused lane {l}");
                assert_eq!(bundle.used & (1 << l), 0, "lane {l} marked used");
                for indices in [&bundle.bodies.members, &bundle.bodies.a, &bundle.bodies.b] {
                    assert_eq!(indices.as_ref()[l], NO_INDEX);
                }
                return;
            };
            let m = &source.manifolds[source.places[i as usize] as usize];
            let (a, b) = source.indices[i as usize];
            let param = |k: u32| if k == NO_INDEX { BodyParams::FIXED } else { source.params[k as usize] };
            assert_eq!(bundle.bodies.members.as_ref()[l], i);
            assert_eq!((bundle.bodies.a.as_ref()[l], bundle.bodies.b.as_ref()[l]), (a, b));
            assert_eq!(lane(&bundle.bodies.inv_mass_a, l), param(a).inv_mass);
            assert_eq!(lane(&bundle.bodies.inv_i_a, l), param(a).inv_inertia);
            assert_eq!(lane(&bundle.bodies.inv_mass_b, l), param(b).inv_mass);
            assert_eq!(lane(&bundle.bodies.inv_i_b, l), param(b).inv_inertia);
            assert_eq!((lane(&bundle.normal.x, l), lane(&bundle.normal.y, l)), (m.normal.x, m.normal.y));
            assert_eq!(lane(&bundle.friction, l), m.friction);
            assert_eq!(lane(&bundle.tangent_speed, l), m.tangent_speed);
            assert_eq!(lane(&bundle.rolling_resistance, l), m.rolling_resistance);
            let warm_rolling = if source.warm_start { m.rolling_impulse } else { 0.0 };
            assert_eq!(lane(&bundle.rolling_impulse, l), warm_rolling);
            assert_ne!(bundle.used & (1 << l), 0, "lane {l} not marked used");
            assert_eq!(lane(&bundle.has_block, l).is_nan(), m.count == 2.0);
            let still = |k: u32| param(k).inv_mass == 0.0 && param(k).inv_inertia == 0.0;
            assert_eq!(lane(&bundle.stiff, l).is_nan(), still(a) || still(b), "lane {l}'s softness");
            for (k, p) in bundle.points.iter().enumerate() {
                let mp = if k < m.count as usize { m.points[k] } else { SolverPoint::default() };
                let at = |w: &W| lane(w, l);
                assert_eq!((at(&p.anchor_a.x), at(&p.anchor_a.y)), (mp.anchor_a.x, mp.anchor_a.y));
                assert_eq!((at(&p.anchor_b.x), at(&p.anchor_b.y)), (mp.anchor_b.x, mp.anchor_b.y));
                assert_eq!(at(&p.base_separation), mp.separation);
                let warm = |x: Real| if source.warm_start { x } else { 0.0 };
                assert_eq!(at(&p.normal_impulse), warm(mp.normal_impulse));
                assert_eq!(at(&p.tangent_impulse), warm(mp.tangent_impulse));
                assert_eq!(at(&p.max_normal_impulse), 0.0);
            }
        }
    }
}
