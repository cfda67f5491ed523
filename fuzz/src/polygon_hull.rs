//! Fuzz target `polygon_hull`: the convex hull and the polygon constructor on
//! arbitrary point clouds — duplicates, collinear runs, slivers, huge and
//! tiny coordinates, NaN and the infinities.
//!
//! Each cloud must give either a typed error or a polygon that passes
//! [`Shape::validate`] and is what a hull should be: its vertices are input
//! points, it turns counter-clockwise with no reflex corner, every input
//! point lies inside it (within round-off of the cloud's size), and its mass
//! properties are finite with the centre inside.

use arbitrary::Result;
use lamina2d::geometry::convex_hull;
use lamina2d::prelude::*;

use crate::input::Input;

/// Runs the hull checks on the cloud encoded in `data`, panicking on a broken promise.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let _ = check_cloud(&mut input);
}

fn check_cloud(input: &mut Input) -> Result<()> {
    let count = input.int(0, 40)?;
    let mut points = Vec::with_capacity(count as usize);
    for _ in 0..count {
        // Repeat an earlier point now and then: duplicates are the hull's classic trap.
        let point = if !points.is_empty() && input.one_in(6)? {
            points[input.index(points.len())?]
        } else if input.one_in(3)? {
            input.point()?
        } else {
            input.small_point()?
        };
        points.push(point);
    }
    // Printed only when a check fails, to make the cloud easy to rebuild.
    eprintln!("cloud: {points:?}");
    let hull = convex_hull(&points);
    let polygon = Shape::polygon(&points);
    // The polygon is the hull, unless the hull is narrower or larger than a shape may be.
    let out_of_size = matches!(polygon, Err(ShapeError::TooSmall { .. } | ShapeError::TooLarge { .. }));
    assert_eq!(hull.is_ok(), polygon.is_ok() || out_of_size, "hull {hull:?} against polygon {polygon:?}");
    if let Ok(hull) = &hull {
        check_hull(&points, hull);
    }
    let Ok(shape) = polygon else { return Ok(()) };
    shape.validate().unwrap_or_else(|e| panic!("a constructed polygon fails validation: {e}"));
    let Shape::Polygon(polygon) = &shape else { panic!("Shape::polygon made a {}", shape.kind_name()) };
    check_hull(&points, polygon.vertices());
    check_mass(&shape, polygon.vertices());
    Ok(())
}

/// Vertices from the input, counter-clockwise and convex, holding every input point.
fn check_hull(points: &[Point], hull: &[Point]) {
    assert!(hull.len() >= 3, "a hull of {} points", hull.len());
    for v in hull {
        assert!(points.contains(v), "hull vertex {v} is not an input point");
    }
    let extent = points.iter().map(|p| p.coords.abs().max() as f64).fold(0.0, f64::max);
    let n = hull.len();
    for i in 0..n {
        let (a, b, c) = (hull[i], hull[(i + 1) % n], hull[(i + 2) % n]);
        let turn = cross(&a, &b, &c);
        assert!(turn > 0.0, "corner {i} of the hull turns by {turn} (not left): {hull:?}");
    }
    // Every input point is left of (or on, within round-off) every edge.
    let slack = extent * extent * 1e-5;
    for p in points {
        for i in 0..n {
            let side = cross(&hull[i], &hull[(i + 1) % n], p);
            assert!(side >= -slack, "input point {p} is outside edge {i} by {side}: {hull:?}");
        }
    }
}

/// Twice the signed area of the triangle abc, in f64.
fn cross(a: &Point, b: &Point, c: &Point) -> f64 {
    let (ax, ay, bx, by, cx, cy) = (a.x as f64, a.y as f64, b.x as f64, b.y as f64, c.x as f64, c.y as f64);
    (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
}

/// Positive area by the shoelace formula, mass finite wherever the area is,
/// centre inside the hull.
fn check_mass(shape: &Shape, hull: &[Point]) {
    let n = hull.len();
    let shoelace: f64 = (0..n)
        .map(|i| {
            let (a, b) = (hull[i], hull[(i + 1) % n]);
            a.x as f64 * b.y as f64 - b.x as f64 * a.y as f64
        })
        .sum::<f64>()
        / 2.0;
    assert!(shoelace > 0.0, "hull of area {shoelace}");
    let mass = shape.mass_properties(1.0);
    // Only where the moments (area, and area times the coordinates for the
    // centre) are finite numbers; beyond, the world refuses the shape's mass.
    let extent = hull.iter().map(|p| p.coords.abs().max() as f64).fold(0.0, f64::max);
    if shoelace * extent.max(1.0) < Real::MAX as f64 / 1e3 {
        assert!(mass.mass.is_finite() && mass.mass > 0.0, "mass {mass:?} of a hull of area {shoelace}");
        // Round-off of the cross products in `Real`: a sliver's area is a
        // small difference of products of its (large) coordinates.
        let round_off = 8.0 * n as f64 * extent * extent * Real::EPSILON as f64;
        let error = (mass.mass as f64 - shoelace).abs();
        assert!(
            error <= 1e-4 * shoelace + round_off,
            "mass {} against the shoelace area {shoelace}",
            mass.mass
        );
        let c = mass.center;
        assert!(c.x.is_finite() && c.y.is_finite(), "centre {c}");
        for i in 0..n {
            let side = cross(&hull[i], &hull[(i + 1) % n], &c);
            assert!(side >= -extent * extent * 1e-5, "centre {c} outside edge {i}: {hull:?}");
        }
    }
}
