//! GJK distance and overlap against brute force, closed forms and published values.

// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::{Isometry, Point, Real, Shape, Vec2};
use lamina_narrowphase::{distance, intersects};
use proptest::prelude::*;

/// The seed article's worked example: unit squares at x ∈ [0,1] and [2,3] are 1.0 apart.
#[test]
fn unit_squares_one_apart() {
    let a = Shape::polygon(&[p(0.0, 0.0), p(0.0, 1.0), p(1.0, 1.0), p(1.0, 0.0)]).unwrap();
    let b = Shape::polygon(&[p(2.0, 0.0), p(2.0, 1.0), p(3.0, 1.0), p(3.0, 0.0)]).unwrap();
    let id = Isometry::identity();
    let d = distance(&a, &id, &b, &id);
    assert!((d.distance - 1.0).abs() < 1e-6);
    assert!((d.normal - Vec2::x()).norm() < 1e-6);
    assert!((d.point_a.x - 1.0).abs() < 1e-6 && (d.point_b.x - 2.0).abs() < 1e-6);
    assert!(!intersects(&a, &id, &b, &id));
}

/// REFERENCE_VALUES.md, narrowphase: triangle (4,11),(9,9),(4,5) and quadrilateral
/// (8,6),(15,6),(13,1),(10,2) are 11/√41 apart, closest points (284/41, 301/41) and (8,6).
#[test]
fn seed_article_triangle_and_quadrilateral() {
    let tri = Shape::polygon(&[p(4.0, 11.0), p(9.0, 9.0), p(4.0, 5.0)]).unwrap();
    let quad = Shape::polygon(&[p(8.0, 6.0), p(15.0, 6.0), p(13.0, 1.0), p(10.0, 2.0)]).unwrap();
    let id = Isometry::identity();
    let d = distance(&tri, &id, &quad, &id);
    let expected = 11.0 / (41.0 as Real).sqrt();
    assert!((d.distance - expected).abs() < 1e-5, "{} vs {expected}", d.distance);
    assert!((d.point_a - p(284.0 / 41.0, 301.0 / 41.0)).norm() < 1e-4, "{}", d.point_a);
    assert!((d.point_b - p(8.0, 6.0)).norm() < 1e-4, "{}", d.point_b);
    // The same triangle overlaps (5,7),(12,7),(10,2),(7,3).
    let other = Shape::polygon(&[p(5.0, 7.0), p(12.0, 7.0), p(10.0, 2.0), p(7.0, 3.0)]).unwrap();
    assert!(intersects(&tri, &id, &other, &id));
    assert_eq!(distance(&tri, &id, &other, &id).distance, 0.0);
}

/// REFERENCE_VALUES.md, narrowphase: box (−1,−1)…(1,1) vs segment (2,−1)–(2,1):
/// distance 1, normal (1,0) (Box2D reports the points (1,−1) and (2,−1); any pair
/// facing each other across the gap is closest).
#[test]
fn box2d_box_segment_distance() {
    let id = Isometry::identity();
    let d = distance(&Shape::rectangle(1.0, 1.0), &id, &Shape::segment(p(2.0, -1.0), p(2.0, 1.0)), &id);
    assert!((d.distance - 1.0).abs() < 1e-6);
    assert!((d.normal - Vec2::x()).norm() < 1e-6);
    assert!((d.point_a.x - 1.0).abs() < 1e-6 && (d.point_b.x - 2.0).abs() < 1e-6);
    assert!((d.point_a.y - d.point_b.y).abs() < 1e-6 && d.point_a.y.abs() <= 1.0 + 1e-6);
}

/// REFERENCE_VALUES.md, narrowphase, "short edge": box half (0.5, 0.0016) vs a
/// point at (0.505, 0) is 0.005 away along (1,0). The point is a circle of
/// radius 1e-4 placed 1e-4 farther out.
#[test]
fn box2d_short_edge_distance() {
    let id = Isometry::identity();
    let dot = Shape::circle(1e-4);
    let d = distance(&Shape::rectangle(0.5, 0.0016), &id, &dot, &Isometry::translation(0.5051, 0.0));
    assert!((d.distance - 0.005).abs() < 1e-6, "{}", d.distance);
    assert!((d.normal - Vec2::x()).norm() < 1e-5);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn polygon_distance_matches_all_vertex_edge_pairs(
        a in polygon(10, 2.0), b in polygon(10, 2.0), pa in pose(4.0), pb in pose(4.0)
    ) {
        let (va, vb) = (world_vertices(&a, &pa), world_vertices(&b, &pb));
        let brute = polygon_distance(&va, &vb);
        let d = distance(&a, &pa, &b, &pb);
        prop_assert!(close(d.distance as f64, brute, 1e-4), "gjk {} vs brute {}", d.distance, brute);
        prop_assert_eq!(intersects(&a, &pa, &b, &pb), d.distance == 0.0 || brute < 1e-5);
        if brute > 1e-3 {
            // Witnesses lie on the boundaries and are `distance` apart along the normal.
            let on = |v: &[Point], q: &Point| (0..v.len()).map(|i| segment_distance(&v[i], &v[(i + 1) % v.len()], q)).fold(f64::MAX, f64::min);
            prop_assert!(on(&va, &d.point_a) < 1e-4);
            prop_assert!(on(&vb, &d.point_b) < 1e-4);
            prop_assert!(close((d.point_b - d.point_a).norm() as f64, brute, 1e-4));
            prop_assert!(((d.point_b - d.point_a) - d.normal * d.distance).norm() < 1e-4);
            // Swapping A and B flips the normal and keeps the distance.
            let s = distance(&b, &pb, &a, &pa);
            prop_assert!(close(s.distance as f64, d.distance as f64, 1e-5));
            prop_assert!((s.normal + d.normal).norm() < 1e-3);
        }
    }

    #[test]
    fn circles_and_capsules_match_closed_forms(
        ra in 0.1..2.0f64, rb in 0.1..2.0f64, pa in pose(5.0), pb in pose(5.0),
        ax in coord(2.0), ay in coord(2.0), bx in coord(2.0), by in coord(2.0)
    ) {
        let (ra, rb) = (ra as Real, rb as Real);
        let circle_a = Shape::circle(ra);
        let circle_b = Shape::circle(rb);
        let d = distance(&circle_a, &pa, &circle_b, &pb);
        let centres = (pa.translation.vector - pb.translation.vector).norm() as f64;
        prop_assert!(close(d.distance as f64, (centres - (ra + rb) as f64).max(0.0), 1e-5));

        prop_assume!((ax - bx).abs() + (ay - by).abs() > 1e-2);
        let capsule = Shape::capsule(p(ax, ay), p(bx, by), ra);
        let other = Shape::capsule(p(-ay, bx), p(by, -ax), rb);
        prop_assume!((ay + by).abs() + (bx + ax).abs() > 1e-2);
        let d = distance(&capsule, &pa, &other, &pb);
        let core = segment_segment_distance(&(pa * p(ax, ay)), &(pa * p(bx, by)), &(pb * p(-ay, bx)), &(pb * p(by, -ax)));
        prop_assert!(close(d.distance as f64, (core - (ra + rb) as f64).max(0.0), 1e-4), "{} vs {}", d.distance, core);
        prop_assert_eq!(intersects(&capsule, &pa, &other, &pb), d.distance == 0.0);
    }

    #[test]
    fn ellipse_distance_matches_dense_sampling(
        rx in 0.3..2.0f64, ry in 0.3..2.0f64, b in polygon(8, 1.5), pa in pose(1.0), pb in pose(6.0)
    ) {
        let e = Shape::ellipse(rx as Real, ry as Real);
        let d = distance(&e, &pa, &b, &pb);
        let vb = world_vertices(&b, &pb);
        // The ellipse as a dense polygon (inscribed: distances slightly too large).
        let samples: Vec<Point> = (0..4000).map(|i| {
            let t = i as f64 / 4000.0 * std::f64::consts::TAU;
            pa * p((rx * t.cos()) as Real, (ry * t.sin()) as Real)
        }).collect();
        let brute = polygon_distance(&samples, &vb);
        let sag = rx.max(ry) * (1.0 - (std::f64::consts::PI / 4000.0).cos());
        prop_assert!(d.distance as f64 <= brute + 1e-4 && d.distance as f64 >= brute - sag - 1e-4,
            "gjk {} vs sampled {}", d.distance, brute);
    }
}

#[test]
fn identical_and_coincident_shapes_overlap() {
    let id = Isometry::identity();
    for s in [
        Shape::rectangle(1.0, 1.0),
        Shape::circle(1.0),
        Shape::ellipse(2.0, 1.0),
        Shape::segment(p(0.0, 0.0), p(1.0, 0.0)),
    ] {
        assert!(intersects(&s, &id, &s, &id), "{s:?}");
        let d = distance(&s, &id, &s, &id);
        assert_eq!(d.distance, 0.0);
        assert!(d.normal.x.is_finite() && d.normal.y.is_finite());
    }
}

#[test]
fn touching_boxes_have_distance_zero_and_intersect() {
    let b = Shape::rectangle(0.5, 0.5);
    let (pa, pb) = (Isometry::identity(), Isometry::translation(1.0, 0.3));
    assert!(intersects(&b, &pa, &b, &pb));
    assert!(distance(&b, &pa, &b, &pb).distance.abs() < 1e-6);
}

/// Far from the origin the answer is as good as near it: the query runs in A's frame.
#[test]
fn far_from_origin() {
    let b = Shape::rectangle(0.5, 0.5);
    let far = 10_000.0;
    let d = distance(&b, &Isometry::translation(far, far), &b, &Isometry::translation(far + 1.25, far));
    assert!((d.distance - 0.25).abs() < 2e-3, "{}", d.distance);
}

/// Two 10,000-vertex polygons with coordinates up to 1e4: GJK with the
/// binary-search support against the O(N·M) brute force, to 1e-3 in f64.
#[cfg(feature = "f64")]
#[test]
fn ten_thousand_vertex_polygons_at_ten_kilometres() {
    let ring = |n: usize, r: f64, cx: f64, cy: f64| -> Shape {
        let pts: Vec<Point> = (0..n)
            .map(|i| {
                let t = ((i * 7919) % n) as f64 / n as f64 * std::f64::consts::TAU;
                p(cx + r * t.cos(), cy + r * t.sin())
            })
            .collect();
        Shape::polygon(&pts).unwrap()
    };
    let a = ring(10_000, 4000.0, -5000.0, 3000.0);
    let b = ring(10_000, 3000.0, 2500.0, -1000.0);
    let id = Isometry::identity();
    let d = distance(&a, &id, &b, &id);
    let brute = polygon_distance(&world_vertices(&a, &id), &world_vertices(&b, &id));
    assert!((d.distance - brute).abs() < 1e-3, "gjk {} vs brute {}", d.distance, brute);
}

/// The cache warm-starts the next query on a pair that moved a little: fewer
/// support rounds than a cold start from the centres, whose line is a poor
/// guess for long thin shapes, and the same distance as the brute force over
/// every vertex–edge pair.
#[test]
fn cached_direction_warm_starts_the_next_query() {
    use lamina_narrowphase::gjk::{GjkCache, gjk_distance, gjk_distance_cached};
    // A 500-vertex outline of a 4 m × 0.4 m ellipse.
    let sliver = || -> Shape {
        let pts: Vec<Point> = (0..500)
            .map(|i| {
                let t = i as f64 / 500.0 * std::f64::consts::TAU;
                Point::new((4.0 * t.cos()) as Real, (0.4 * t.sin()) as Real)
            })
            .collect();
        Shape::polygon(&pts).unwrap()
    };
    let (a, b) = (sliver(), sliver());
    let mut cache = GjkCache::default();
    let (mut cold_rounds, mut warm_rounds) = (0, 0);
    for step in 0..20 {
        // B lies crosswise above A's right half and slides a little each step.
        let s = step as Real;
        let xf = Isometry::new(Vec2::new(2.0 + 0.01 * s, 4.6 + 0.002 * s), 1.4 + 0.003 * s);
        let warm = gjk_distance_cached(&a, &b, &xf, &mut cache);
        let cold = gjk_distance(&a, &b, &xf, &-xf.translation.vector);
        let brute = polygon_distance(&world_vertices(&a, &Isometry::identity()), &world_vertices(&b, &xf));
        assert!(
            close(warm.distance as f64, brute, 1e-4),
            "step {step}: warm {} vs brute {brute}",
            warm.distance
        );
        assert!(
            close(cold.distance as f64, brute, 1e-4),
            "step {step}: cold {} vs brute {brute}",
            cold.distance
        );
        if step > 0 {
            cold_rounds += cold.iterations;
            warm_rounds += warm.iterations;
        }
    }
    assert!(warm_rounds * 4 <= cold_rounds * 3, "warm {warm_rounds} rounds, cold {cold_rounds}");
}
