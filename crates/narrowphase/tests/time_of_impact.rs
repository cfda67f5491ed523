//! Time of impact against a brute-force fine time sampling of the separation,
//! closed forms for circles, and Box2D's published sweep.

// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::{Isometry, Real, Shape, Vec2};
use lamina_narrowphase::{Sweep, ToiStatus, Velocity, cast_shape, time_of_impact, time_of_impact_of_sweeps};
use proptest::prelude::*;

/// REFERENCE_VALUES.md, narrowphase: the segment (2,−1)–(2,1) swept by (−2,0)
/// against the box (−1,−1)…(1,1) hits at 0.5 (Box2D reports 0.4975 because it
/// stops one linear slop short; Lamina's target distance is 0).
#[test]
fn box2d_segment_sweep() {
    let id = Isometry::identity();
    let seg = Shape::segment(p(2.0, -1.0), p(2.0, 1.0));
    let boxed = Shape::rectangle(1.0, 1.0);
    let toi = cast_shape(&boxed, &id, &Vec2::zeros(), &seg, &id, &Vec2::new(-2.0, 0.0), 1.0).unwrap();
    assert!((toi.time - 0.5).abs() < 1e-3, "{}", toi.time);
    assert_eq!(toi.status, ToiStatus::Hit);
    assert!((toi.normal - Vec2::x()).norm() < 1e-4);
    // Moving the other way, or too slowly, never hits.
    assert!(cast_shape(&boxed, &id, &Vec2::zeros(), &seg, &id, &Vec2::new(2.0, 0.0), 1.0).is_none());
    assert!(cast_shape(&boxed, &id, &Vec2::zeros(), &seg, &id, &Vec2::new(-0.9, 0.0), 1.0).is_none());
}

#[test]
fn overlapping_at_start_is_time_zero() {
    let b = Shape::rectangle(1.0, 1.0);
    let id = Isometry::identity();
    let toi = time_of_impact(
        &b,
        &id,
        &Velocity::default(),
        &b,
        &Isometry::translation(0.5, 0.0),
        &Velocity::default(),
        1.0,
    )
    .unwrap();
    assert_eq!((toi.time, toi.status), (0.0, ToiStatus::Initial));
}

/// A thin fast bullet does not tunnel through a thin wall: the sweep finds the hit
/// although the bullet would be past the wall after one step.
#[test]
fn bullet_through_thin_wall() {
    let wall = Shape::rectangle(0.01, 2.0);
    let bullet = Shape::circle(0.05);
    let v = Velocity::linear(Vec2::new(600.0, 0.0));
    let toi = time_of_impact(
        &bullet,
        &Isometry::translation(-3.0, 0.1),
        &v,
        &wall,
        &Isometry::identity(),
        &Velocity::default(),
        1.0 / 60.0,
    )
    .unwrap();
    let expected = (3.0 - 0.06) / 600.0;
    assert!((toi.time - expected).abs() < 1e-5, "{} vs {expected}", toi.time);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn circles_meet_when_the_centres_are_the_radii_apart(
        ra in 0.1..1.0f64, rb in 0.1..1.0f64, x in 2.5..6.0f64, y in -1.5..1.5f64, vx in -8.0..-1.0f64, vy in -2.0..2.0f64
    ) {
        let (a, b) = (Shape::circle(ra as Real), Shape::circle(rb as Real));
        let v = Vec2::new(vx as Real, vy as Real);
        let toi = cast_shape(&a, &Isometry::identity(), &Vec2::zeros(), &b, &Isometry::translation(x as Real, y as Real), &v, 2.0);
        // |c + v t| = ra + rb, smaller root.
        let (cx, cy, r) = (x, y, ra + rb);
        let (qa, qb, qc) = (vx * vx + vy * vy, 2.0 * (cx * vx + cy * vy), cx * cx + cy * cy - r * r);
        let disc = qb * qb - 4.0 * qa * qc;
        let exact = if disc >= 0.0 { Some((-qb - disc.sqrt()) / (2.0 * qa)) } else { None };
        match (toi, exact.filter(|t| (0.0..=2.0).contains(t))) {
            (Some(toi), Some(t)) => {
                // Never late; early by at most the arrival tolerance over the
                // approach speed along the normal (long for grazing hits).
                let (nx, ny) = ((cx + vx * t) / r, (cy + vy * t) / r);
                let approach = -(nx * vx + ny * vy);
                let slack = lamina_narrowphase::toi::TOI_TOLERANCE as f64 / approach;
                prop_assert!(toi.time as f64 <= t + 1e-5, "{} after {}", toi.time, t);
                prop_assert!(toi.time as f64 >= t - slack - 1e-4, "{} vs {} (slack {})", toi.time, t, slack);
            }
            (None, None) => {}
            (Some(toi), None) => prop_assert!(disc.abs() < 1e-2, "hit at {} but the circles miss", toi.time),
            (None, Some(t)) => prop_assert!(disc.abs() < 1e-2, "missed a hit at {}", t),
        }
    }

    #[test]
    fn polygons_meet_no_later_than_the_sampled_separation_says(
        a in polygon(7, 1.0), b in polygon(7, 1.0), pb in pose(1.0),
        vx in -6.0..-1.0f64, vy in -1.0..1.0f64, wa in -2.0..2.0f64, wb in -2.0..2.0f64
    ) {
        let pa = Isometry::rotation(0.3);
        let pb = Isometry::from_parts((pb.translation.vector + Vec2::new(4.0, 0.0)).into(), pb.rotation);
        let (va, vb) = (Velocity::new(Vec2::zeros(), wa as Real), Velocity::new(Vec2::new(vx as Real, vy as Real), wb as Real));
        let max_t = 1.5;
        let samples = 6000;
        let dt = max_t / samples as f64;
        let distance_at = |t: f64| {
            let (qa, qb) = (va.advance(&pa, t as Real), vb.advance(&pb, t as Real));
            polygon_distance(&world_vertices(&a, &qa), &world_vertices(&b, &qb))
        };
        prop_assume!(distance_at(0.0) > 0.05);
        let first_touch = (0..=samples).map(|i| i as f64 * dt).find(|&t| distance_at(t) <= 1e-9);
        // A near miss within the arrival tolerance counts as an arrival: the
        // shapes may graze within 0.1 mm, part, and touch for real later.
        // The sweep must not answer before they first come within 2 mm.
        let first_near = (0..=samples).map(|i| i as f64 * dt).find(|&t| distance_at(t) <= 2e-3);
        // A hit is where GJK measured the gap within the arrival tolerance;
        // the brute force, at poses rounded apart from the sweep's, may
        // measure a little more.
        let arrived = 2.0 * lamina_narrowphase::toi::TOI_TOLERANCE as f64;
        let toi = time_of_impact(&a, &pa, &va, &b, &pb, &vb, max_t as Real);
        match (toi, first_touch) {
            (Some(toi), Some(t)) => {
                // Never late; early only by the arrival tolerance (or the iteration cap).
                prop_assert!((toi.time as f64) <= t + 1e-6, "toi {} after the sampled touch {}", toi.time, t);
                if toi.status == ToiStatus::Hit {
                    let near = first_near.expect("a sampled touch is within 2 mm");
                    prop_assert!(toi.time as f64 >= near - dt - 2e-3, "toi {} well before the shapes near at {}", toi.time, near);
                    let gap = distance_at(toi.time as f64);
                    prop_assert!(gap < arrived, "{} m apart at the hit {}", gap, toi.time);
                }
            }
            (None, None) => {}
            // A grazing touch can fall between samples: the sweep's answer must be a real touch.
            (Some(toi), None) => prop_assert!(distance_at(toi.time as f64) < arrived || toi.status == ToiStatus::MaxIterations),
            (None, Some(t)) => prop_assert!(false, "missed the touch at {}", t),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A polygon swept between two poses, turning about a centre far from its
    /// origin (a body's centre of mass), meets a still one no later than a fine
    /// sampling of the same motion says, and the sweep passes through both poses.
    #[test]
    fn sweeps_about_a_centre_meet_no_later_than_sampling_says(
        a in polygon(6, 1.0), b in polygon(6, 0.6), cx in -2.0..2.0f64, cy in -2.0..2.0f64,
        turn in -2.5..2.5f64, dx in -6.0..-2.0f64, dy in -1.0..1.0f64, angle0 in -3.0..3.0f64
    ) {
        let still = Isometry::rotation(0.2);
        let center = p(cx as Real, cy as Real);
        let pose0 = Isometry::new(Vec2::new(5.0, 0.5), angle0 as Real);
        let pose1 = Isometry::new(Vec2::new(5.0 + dx as Real, 0.5 + dy as Real), (angle0 + turn) as Real);
        let sweep = Sweep::between(&pose0, &pose1, center);
        let end = sweep.pose_at(1.0);
        prop_assert!((end.translation.vector - pose1.translation.vector).norm() < 1e-4);
        prop_assert!((end.rotation.angle_to(&pose1.rotation)).abs() < 1e-4);
        // The centre moves in a straight line: sampled half way, it is the midpoint.
        let mid = sweep.pose_at(0.5) * center;
        prop_assert!((mid - nalgebra::center(&(pose0 * center), &(pose1 * center))).norm() < 1e-4);

        let distance_at = |t: f64| {
            polygon_distance(&world_vertices(&b, &still), &world_vertices(&a, &sweep.pose_at(t as Real)))
        };
        prop_assume!(distance_at(0.0) > 0.05);
        let samples = 4000;
        let first_touch = (0..=samples).map(|i| i as f64 / samples as f64).find(|&t| distance_at(t) <= 1e-9);
        let toi = time_of_impact_of_sweeps(&b, &Sweep::still(&still), &a, &sweep, 1.0, 0.0);
        match (toi, first_touch) {
            (Some(toi), Some(t)) => prop_assert!((toi.time as f64) <= t + 1e-6, "toi {} after the touch at {}", toi.time, t),
            (None, None) => {}
            (Some(toi), None) => prop_assert!(distance_at(toi.time as f64) < 2e-3 || toi.status == ToiStatus::MaxIterations),
            (None, Some(t)) => prop_assert!(false, "missed the touch at {}", t),
        }
    }
}

/// Non-finite poses, velocities or horizons give no time of impact rather than
/// a NaN one.
#[test]
fn non_finite_input_gives_none() {
    let b = Shape::rectangle(0.5, 0.5);
    let id = Isometry::identity();
    let far = Isometry::translation(3.0, 0.0);
    let towards = Velocity::linear(Vec2::new(-10.0, 0.0));
    let bad_v = Velocity::new(Vec2::new(Real::NAN, 0.0), 0.0);
    let bad_w = Velocity::new(Vec2::zeros(), Real::INFINITY);
    let bad_pose = Isometry::translation(Real::NAN, 0.0);
    assert!(time_of_impact(&b, &id, &Velocity::default(), &b, &far, &towards, 1.0).is_some());
    assert!(time_of_impact(&b, &id, &bad_v, &b, &far, &towards, 1.0).is_none());
    assert!(time_of_impact(&b, &id, &bad_w, &b, &far, &towards, 1.0).is_none());
    assert!(time_of_impact(&b, &bad_pose, &Velocity::default(), &b, &far, &towards, 1.0).is_none());
    assert!(time_of_impact(&b, &id, &Velocity::default(), &b, &far, &towards, Real::NAN).is_none());
}
