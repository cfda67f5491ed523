//! The convex hull against its definition: it holds every input point, it is
//! convex and counter-clockwise, its vertices are input points, and degenerate
//! clouds are refused.

// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::{Point, Real, Shape, ShapeError, convex_hull};
use proptest::prelude::*;

fn cross(o: &Point, a: &Point, b: &Point) -> f64 {
    let (ax, ay) = ((a.x - o.x) as f64, (a.y - o.y) as f64);
    let (bx, by) = ((b.x - o.x) as f64, (b.y - o.y) as f64);
    ax * by - ay * bx
}

fn check_hull(points: &[Point], hull: &[Point]) -> Result<(), TestCaseError> {
    let n = hull.len();
    prop_assert!(n >= 3);
    let scale = points.iter().map(|p| p.x.abs().max(p.y.abs())).fold(1.0, Real::max) as f64;
    for i in 0..n {
        let (a, b, c) = (&hull[i], &hull[(i + 1) % n], &hull[(i + 2) % n]);
        prop_assert!(cross(a, b, c) > 0.0, "not a strict left turn at vertex {}", (i + 1) % n);
        prop_assert!(points.contains(a), "hull vertex {a} is not an input point");
    }
    for q in points {
        for i in 0..n {
            let (a, b) = (&hull[i], &hull[(i + 1) % n]);
            let len = ((b.x - a.x) as f64).hypot((b.y - a.y) as f64);
            // Left of or on every edge, up to round-off of the coordinates.
            prop_assert!(cross(a, b, q) >= -1e-5 * scale * len, "{q} is outside edge {i}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn hull_contains_every_point_and_is_convex_ccw(points in cloud(200)) {
        match convex_hull(&points) {
            Ok(hull) => check_hull(&points, &hull)?,
            // Refused only for clouds that span (almost) no area.
            Err(e) => prop_assert!(nearly_collinear(&points), "{e} for a cloud with area"),
        }
    }

    #[test]
    fn hull_ignores_input_order_and_duplicates(points in cloud(60), seed in 0usize..1000) {
        let Ok(hull) = convex_hull(&points) else {
            prop_assert!(nearly_collinear(&points), "refused a cloud with area");
            return Ok(());
        };
        let mut shuffled: Vec<Point> = points.iter().chain(points.iter()).copied().collect();
        let len = shuffled.len();
        for i in 0..len {
            shuffled.swap(i, (i * 31 + seed) % len);
        }
        let again = convex_hull(&shuffled).unwrap();
        prop_assert_eq!(hull.len(), again.len());
        for v in &hull {
            prop_assert!(again.contains(v));
        }
    }

    #[test]
    fn an_outline_in_either_winding_from_any_start_gives_the_same_hull(points in cloud(80), start in 0usize..80, cw in any::<bool>()) {
        let Ok(hull) = convex_hull(&points) else {
            prop_assert!(nearly_collinear(&points), "refused a cloud with area");
            return Ok(());
        };
        let n = hull.len();
        let mut outline: Vec<Point> = (0..n).map(|i| hull[(i + start) % n]).collect();
        if cw {
            outline.reverse();
        }
        let again = convex_hull(&outline).unwrap();
        prop_assert_eq!(again.len(), n);
        prop_assert!(hull.iter().all(|v| again.contains(v)));
        check_hull(&outline, &again)?;
    }

    #[test]
    fn points_on_a_grid_with_many_collinear_points(w in 2usize..12, h in 2usize..12) {
        let points: Vec<Point> = (0..w * h).map(|i| p((i % w) as Real, (i / w) as Real)).collect();
        let hull = convex_hull(&points).unwrap();
        prop_assert_eq!(hull.len(), 4, "only the four corners are vertices");
        check_hull(&points, &hull)?;
    }

    #[test]
    fn collinear_clouds_are_degenerate(t in prop::collection::vec(-50.0..50.0f64, 1..40), angle in 0.0..6.3f64) {
        let dir = unit(angle);
        let points: Vec<Point> = t.iter().map(|&s| Point::from(dir * s as Real)).collect();
        // Rotated collinear points may land a rounding error off the line; the hull
        // tolerance must still see a line.
        let degenerate = matches!(convex_hull(&points), Err(ShapeError::DegeneratePolygon { .. }));
        prop_assert!(degenerate);
    }
}

#[test]
fn one_or_two_distinct_points_are_degenerate() {
    let same = [p(1.0, 1.0); 5];
    assert_eq!(convex_hull(&same), Err(ShapeError::DegeneratePolygon { points: 5, hull_vertices: 1 }));
    assert!(matches!(
        Shape::polygon(&[p(0.0, 0.0), p(1.0, 1.0), p(0.0, 0.0)]),
        Err(ShapeError::DegeneratePolygon { points: 3, hull_vertices: 2 })
    ));
    assert!(matches!(convex_hull(&[]), Err(ShapeError::DegeneratePolygon { points: 0, .. })));
}

#[test]
fn non_finite_points_are_named() {
    let pts = [p(0.0, 0.0), p(1.0, 0.0), p(Real::NAN, 1.0), p(0.0, 1.0)];
    let err = convex_hull(&pts).unwrap_err();
    assert!(matches!(err, ShapeError::NonFinitePoint { index: 2, .. }));
    assert!(err.to_string().contains("point 2"), "{err}");
    let inf = [p(0.0, 0.0), p(1.0, 0.0), p(0.0, Real::INFINITY)];
    assert!(matches!(Shape::polygon(&inf), Err(ShapeError::NonFinitePoint { index: 2, .. })));
}

/// 100,000 points on and inside a circle: the hull keeps only boundary points
/// and stays convex, at a size far beyond what a polygon usually has.
#[test]
fn hundred_thousand_points() {
    let n = 100_000;
    let mut seed: u64 = 12345;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut points = Vec::with_capacity(n);
    for i in 0..n {
        let a = next() * TAU;
        let r = if i % 10 == 0 { 1000.0 } else { 1000.0 * next().sqrt() };
        points.push(p((r * a.cos()) as Real, (r * a.sin()) as Real));
    }
    let hull = convex_hull(&points).unwrap();
    assert!(hull.len() > 100, "a dense circle keeps many vertices, got {}", hull.len());
    for v in &hull {
        let r = (v.x as f64).hypot(v.y as f64);
        assert!(r > 999.0, "vertex {v} at radius {r} is not on the rim");
    }
    let n = hull.len();
    for i in 0..n {
        assert!(cross(&hull[i], &hull[(i + 1) % n], &hull[(i + 2) % n]) > 0.0);
    }
}
