//! Support points against brute force (every vertex, or dense boundary samples
//! for curved shapes), and bounding boxes against the points they must hold.

// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::{Isometry, Point, Real, Shape, SupportMap, Vec2};
use proptest::prelude::*;

/// The brute-force support value: the largest projection over dense boundary samples.
fn brute_support_value(shape: &Shape, dir: &Vec2) -> Real {
    let exact_vertices: Vec<Point> = match shape {
        Shape::Polygon(p) if p.radius() == 0.0 => p.vertices().to_vec(),
        Shape::Segment(s) => vec![s.a, s.b],
        _ => boundary_samples(shape, 4000),
    };
    exact_vertices.iter().map(|q| q.coords.dot(dir)).fold(Real::MIN, Real::max)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn support_point_is_the_farthest_point_of_the_shape(shape in any_shape(), angle in 0.0..TAU) {
        let dir = unit(angle);
        let s = shape.support_point(&dir);
        let brute = brute_support_value(&shape, &dir);
        // Never short of the brute force (samples lie on the shape)...
        prop_assert!(s.coords.dot(&dir) >= brute - 1e-4 * (1.0 + brute.abs()), "support {} < brute {}", s.coords.dot(&dir), brute);
        // ...and the support point itself lies on the shape.
        prop_assert!(oracle_distance(&shape, &s) < 2e-3, "support point {s} is off the shape");
    }

    #[test]
    fn support_does_not_depend_on_direction_length(shape in any_shape(), angle in 0.0..TAU, scale in 1e-3..1e3f64) {
        let dir = unit(angle);
        let a = shape.support_point(&dir).coords.dot(&dir);
        let b = shape.support_point(&(dir * scale as Real)).coords.dot(&dir);
        prop_assert!(close(a, b, 1e-5));
    }

    /// A box's bounds come from a closed form (the centre plus or minus
    /// `|R| h`), which must give exactly the box its four corners give,
    /// transformed and compared one by one.
    #[test]
    fn box_bounds_are_the_corners_bounds_bit_for_bit(
        hx in 1e-3..50.0f64, hy in 1e-3..50.0f64, radius in prop_oneof![Just(0.0), 0.0..2.0f64],
        angle in -20.0..20.0f64, dx in coord(), dy in coord()
    ) {
        let Shape::Polygon(b) = Shape::rounded_rectangle(hx as Real, hy as Real, radius as Real) else {
            unreachable!("a rectangle is a polygon")
        };
        let pose = Isometry::new(Vec2::new(dx, dy), angle as Real);
        let (fast, corners) = (b.aabb(&pose), b.aabb_of_vertices(&pose));
        prop_assert!(
            fast.mins.x.to_bits() == corners.mins.x.to_bits() && fast.mins.y.to_bits() == corners.mins.y.to_bits()
                && fast.maxs.x.to_bits() == corners.maxs.x.to_bits() && fast.maxs.y.to_bits() == corners.maxs.y.to_bits(),
            "{fast:?} against {corners:?}"
        );
    }

    #[test]
    fn aabb_holds_the_shape_and_touches_it_on_every_side(
        shape in any_shape(), angle in 0.0..TAU, dx in coord(), dy in coord()
    ) {
        let pose = Isometry::new(Vec2::new(dx, dy), angle as Real);
        let aabb = shape.aabb(&pose);
        prop_assert!(aabb.is_valid());
        let tol = 1e-4 * (1.0 + aabb.mins.coords.norm().max(aabb.maxs.coords.norm()));
        for q in boundary_samples(&shape, 500) {
            let w = pose * q;
            prop_assert!(aabb.loosened(tol).contains_point(&w), "{w} outside {aabb:?}");
        }
        // Tight: the world support along each axis reaches the box's side.
        let sx = shape.support_point_world(&pose, &Vec2::x());
        let sy = shape.support_point_world(&pose, &Vec2::y());
        let nx = shape.support_point_world(&pose, &-Vec2::x());
        let ny = shape.support_point_world(&pose, &-Vec2::y());
        prop_assert!((sx.x - aabb.maxs.x).abs() < tol && (nx.x - aabb.mins.x).abs() < tol);
        prop_assert!((sy.y - aabb.maxs.y).abs() < tol && (ny.y - aabb.mins.y).abs() < tol);
    }
}

/// A regular polygon of `n` vertices given in scrambled order.
fn big_polygon(n: usize, radius: f64) -> Shape {
    let pts: Vec<Point> = (0..n)
        .map(|i| {
            let a = ((i * 7919) % n) as f64 / n as f64 * TAU;
            p((radius * a.cos()) as Real, (radius * a.sin()) as Real)
        })
        .collect();
    Shape::polygon(&pts).unwrap()
}

/// The binary-search support of large polygons agrees with a scan of every vertex.
#[test]
fn large_polygon_support_matches_linear_scan() {
    for (n, radius) in [(25, 1.0), (1000, 10.0), (10_000, 1.0e4)] {
        let shape = big_polygon(n, radius);
        let Shape::Polygon(poly) = &shape else { unreachable!() };
        assert!(poly.vertices().len() > 24, "{n} vertices kept {}", poly.vertices().len());
        for k in 0..2000 {
            let dir = unit(k as f64 * 0.618_033_988_7 * TAU) * (1.0 + k as Real);
            let got = shape.support_point(&dir).coords.dot(&dir);
            let best = poly.vertices().iter().map(|v| v.coords.dot(&dir)).fold(Real::MIN, Real::max);
            assert_eq!(got, best, "n = {n}, direction {dir}");
        }
        // Axis directions hit the angle table's boundaries.
        for dir in [Vec2::x(), -Vec2::x(), Vec2::y(), -Vec2::y()] {
            let got = shape.support_point(&dir).coords.dot(&dir);
            let best = poly.vertices().iter().map(|v| v.coords.dot(&dir)).fold(Real::MIN, Real::max);
            assert_eq!(got, best);
        }
    }
}

#[test]
fn warm_started_support_climbs_to_the_answer_from_any_hint() {
    let shape = big_polygon(500, 3.0);
    let Shape::Polygon(poly) = &shape else { unreachable!() };
    for (k, hint) in (0..200).zip((0..).step_by(37)) {
        let dir = unit(k as f64 * 0.31);
        let i = poly.support_index_from(&dir, hint);
        let best = poly.vertices().iter().map(|v| v.coords.dot(&dir)).fold(Real::MIN, Real::max);
        assert_eq!(poly.vertices()[i].coords.dot(&dir), best, "hint {hint}, direction {dir}");
    }
}

#[test]
fn zero_direction_gives_a_finite_point_of_the_shape() {
    let shapes = [
        Shape::circle(1.0),
        Shape::rectangle(1.0, 2.0),
        Shape::rounded_rectangle(1.0, 2.0, 0.5),
        Shape::capsule(p(0.0, 0.0), p(1.0, 0.0), 0.5),
        Shape::segment(p(0.0, 0.0), p(1.0, 0.0)),
        Shape::ellipse(1.0, 2.0),
        big_polygon(100, 1.0),
    ];
    for s in &shapes {
        let q = s.support_point(&Vec2::zeros());
        assert!(q.x.is_finite() && q.y.is_finite(), "{s:?}");
        assert!(oracle_distance(s, &q) < 1e-5, "{s:?}: {q}");
    }
}

/// REFERENCE_VALUES.md, geometry, AABBs: circle (1,0) r 1; box (1,1); segment (0,1)–(0,−1).
#[test]
fn box2d_aabb_reference() {
    let c = Shape::circle(1.0).aabb(&Isometry::translation(1.0, 0.0));
    assert_eq!((c.mins, c.maxs), (p(0.0, -1.0), p(2.0, 1.0)));
    let b = Shape::rectangle(1.0, 1.0).aabb(&Isometry::identity());
    assert_eq!((b.mins, b.maxs), (p(-1.0, -1.0), p(1.0, 1.0)));
    let s = Shape::segment(p(0.0, 1.0), p(0.0, -1.0)).aabb(&Isometry::identity());
    assert_eq!((s.mins, s.maxs), (p(0.0, -1.0), p(0.0, 1.0)));
}
