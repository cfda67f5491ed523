//! Ray casts against Box2D's published values and against brute-force marching
//! along the ray with an independent inside test.

// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::{Isometry, Point, Ray, Real, Shape, Vec2};
use proptest::prelude::*;

/// REFERENCE_VALUES.md, geometry, ray casts: origin (−4,0), translation (8,0).
#[test]
fn box2d_ray_cast_reference() {
    let ray = Ray::new(p(-4.0, 0.0), Vec2::new(8.0, 0.0));
    let circle = Shape::circle(1.0).cast_ray(&Isometry::translation(1.0, 0.0), &ray, 1.0).unwrap();
    assert!((circle.toi - 0.5).abs() < 1e-6);
    assert!((circle.normal - Vec2::new(-1.0, 0.0)).norm() < 1e-6);
    let boxed = Shape::rectangle(1.0, 1.0).cast_ray(&Isometry::identity(), &ray, 1.0).unwrap();
    assert!((boxed.toi - 0.375).abs() < 1e-6);
    assert_eq!(boxed.normal, Vec2::new(-1.0, 0.0));
    let segment =
        Shape::segment(p(0.0, 1.0), p(0.0, -1.0)).cast_ray(&Isometry::identity(), &ray, 1.0).unwrap();
    assert!((segment.toi - 0.5).abs() < 1e-6);
    assert!((segment.normal - Vec2::new(-1.0, 0.0)).norm() < 1e-6);
    let capsule = Shape::capsule(p(-1.0, 0.0), p(1.0, 0.0), 1.0);
    let hit = capsule.cast_ray(&Isometry::identity(), &ray, 1.0).unwrap();
    assert!((hit.toi - 0.25).abs() < 1e-6);
    assert!((ray.point_at(hit.toi) - p(-2.0, 0.0)).norm() < 1e-5);
    assert!((hit.normal - Vec2::new(-1.0, 0.0)).norm() < 1e-6);
}

/// The first inside sample along the ray, by marching in `steps` steps up to `max_toi`.
fn march(shape: &Shape, pose: &Isometry, ray: &Ray, max_toi: Real, steps: usize) -> Option<Real> {
    let inv = pose.inverse();
    (0..=steps)
        .map(|i| max_toi * i as Real / steps as Real)
        .find(|&t| oracle_contains(shape, &(inv * ray.point_at(t))))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn ray_hits_where_marching_first_enters(
        shape in any_shape().prop_filter("segments have no inside to march into", |s| !matches!(s, Shape::Segment(_))),
        angle in 0.0..TAU, ox in coord(), oy in coord(), aim in -0.6..0.6f64, shape_angle in 0.0..TAU
    ) {
        let pose = Isometry::new(Vec2::new(1.0, -0.5), shape_angle as Real);
        let origin = p(ox * 2.0, oy * 2.0);
        // Aim roughly at the shape so that many rays hit.
        let to_shape = (Point::new(1.0, -0.5) - origin).normalize();
        let dir = Isometry::rotation(aim as Real) * to_shape * 3.0 + unit(angle) * 0.1;
        let ray = Ray::new(origin, dir);
        let max_toi = 20.0;
        let steps = 20_000;
        let marched = march(&shape, &pose, &ray, max_toi, steps);
        let hit = shape.cast_ray(&pose, &ray, max_toi);
        let step = max_toi / steps as Real;
        match (hit, marched) {
            (Some(h), Some(t)) => {
                prop_assert!(h.toi <= t + 1e-4 && h.toi >= t - step - 1e-4, "hit at {} but marching enters at {}", h.toi, t);
                prop_assert!((h.normal.norm() - 1.0).abs() < 1e-4);
                if h.toi > 0.0 {
                    // The normal faces the ray and is the surface normal: stepping
                    // back out along it leaves the shape.
                    prop_assert!(h.normal.dot(&ray.dir) <= 1e-5);
                    let outside = pose.inverse() * (ray.point_at(h.toi) + h.normal * 1e-2);
                    prop_assert!(!oracle_contains(&shape, &outside));
                }
            }
            (None, None) => {}
            // A ray that only grazes the shape can slip between samples.
            (Some(h), None) => {
                let q = pose.inverse() * ray.point_at(h.toi);
                prop_assert!(oracle_distance(&shape, &q) < 1e-3);
                let grazing = shape.cast_ray(&pose, &Ray::new(ray.point_at(h.toi - step), ray.dir), 2.0 * step);
                prop_assert!(grazing.is_some());
            }
            (None, Some(t)) => prop_assert!(false, "marching enters at {t} but the cast misses"),
        }
    }

    #[test]
    fn segment_ray_hits_at_the_line_crossing(
        ax in coord(), ay in coord(), bx in coord(), by in coord(), ox in coord(), oy in coord(), angle in 0.0..TAU
    ) {
        prop_assume!((ax - bx).abs() + (ay - by).abs() > 1e-2);
        let (a, b) = (p(ax, ay), p(bx, by));
        let ray = Ray::new(p(ox, oy), unit(angle));
        let hit = Shape::segment(a, b).cast_ray(&Isometry::identity(), &ray, 100.0);
        // Oracle: the ray's points strictly on the two sides of the segment's line,
        // and whether the crossing lies between a and b.
        let side = |q: Point| (b - a).x * (q - a).y - (b - a).y * (q - a).x;
        if let Some(h) = hit {
            let q = ray.point_at(h.toi);
            prop_assert!(segment_distance(&a, &b, &q) < 1e-3, "hit point {q} is off the segment");
            prop_assert!(side(ray.point_at(h.toi + 0.01)) * side(ray.point_at((h.toi - 0.01).max(0.0))) <= 1e-3);
        } else {
            // A miss: the first 100 m of the ray never comes within 1e-3 of the segment
            // while crossing its line.
            for i in 0..2000 {
                let t0 = i as Real * 0.05;
                let (q0, q1) = (ray.point_at(t0), ray.point_at(t0 + 0.05));
                if side(q0) * side(q1) < 0.0 {
                    let tc = t0 + 0.05 * side(q0) / (side(q0) - side(q1));
                    prop_assert!(segment_distance(&a, &b, &ray.point_at(tc)) > 1e-4, "missed a crossing at {tc}");
                }
            }
        }
    }
}

#[test]
fn rays_starting_inside_hit_at_zero_against_the_ray() {
    let shapes = [
        Shape::circle(1.0),
        Shape::rectangle(1.0, 1.0),
        Shape::rounded_rectangle(0.5, 0.5, 0.5),
        Shape::capsule(p(-1.0, 0.0), p(1.0, 0.0), 0.5),
        Shape::ellipse(2.0, 1.0),
    ];
    let ray = Ray::new(p(0.1, 0.2), Vec2::new(0.0, 2.0));
    for s in &shapes {
        let hit = s.cast_ray(&Isometry::identity(), &ray, 1.0).unwrap();
        assert_eq!(hit.toi, 0.0, "{s:?}");
        assert!((hit.normal - Vec2::new(0.0, -1.0)).norm() < 1e-6, "{s:?}");
    }
}

#[test]
fn degenerate_rays_never_hit() {
    let s = Shape::circle(1.0);
    let id = Isometry::identity();
    assert!(s.cast_ray(&id, &Ray::new(p(-3.0, 0.0), Vec2::zeros()), 10.0).is_none());
    assert!(s.cast_ray(&id, &Ray::new(p(Real::NAN, 0.0), Vec2::x()), 10.0).is_none());
    assert!(s.cast_ray(&id, &Ray::new(p(-3.0, 0.0), Vec2::new(Real::INFINITY, 0.0)), 10.0).is_none());
    assert!(s.cast_ray(&id, &Ray::new(p(-3.0, 0.0), Vec2::x()), Real::NAN).is_none());
    assert!(s.cast_ray(&id, &Ray::new(p(-3.0, 0.0), Vec2::x()), -1.0).is_none());
    // Beyond max_toi is a miss.
    assert!(s.cast_ray(&id, &Ray::new(p(-3.0, 0.0), Vec2::x()), 1.9).is_none());
    assert!(s.cast_ray(&id, &Ray::new(p(-3.0, 0.0), Vec2::x()), 2.0).is_some());
}

#[test]
fn ray_along_a_segment_hits_its_near_end() {
    let seg = Shape::segment(p(1.0, 0.0), p(3.0, 0.0));
    let hit = seg.cast_ray(&Isometry::identity(), &Ray::new(p(0.0, 0.0), Vec2::new(2.0, 0.0)), 10.0).unwrap();
    assert_eq!(hit.toi, 0.5);
    let behind = seg.cast_ray(&Isometry::identity(), &Ray::new(p(4.0, 0.0), Vec2::new(1.0, 0.0)), 10.0);
    assert!(behind.is_none());
}
