//! Mass properties against closed forms, published values (Box2D v3's unit tests)
//! and, for polygons, an independently written sum over a fan of triangles.

// Published values are quoted with all their digits, whatever the precision of `Real`.
#![allow(clippy::excessive_precision)]
// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::math::PI;
use lamina_geometry::{Isometry, MassProperties, Point, Real, Shape, Vec2};
use proptest::prelude::*;

fn close_to(a: Real, b: Real, rel: Real) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-6)
}

#[test]
fn disc_mass_is_rho_pi_r_squared_and_inertia_half_m_r_squared() {
    for (r, rho) in [(0.5, 1.0), (1.0, 3.0), (2.5, 0.25)] {
        let m = Shape::circle(r).mass_properties(rho);
        assert!(close_to(m.mass, rho * PI * r * r, 1e-6));
        assert!(close_to(m.inertia, m.mass * r * r / 2.0, 1e-6));
        assert_eq!(m.center, Point::origin());
    }
}

#[test]
fn box_mass_is_w_h_rho_and_inertia_m_w2_plus_h2_over_12() {
    let (hx, hy, rho): (Real, Real, Real) = (1.5, 0.25, 2.0);
    let m = Shape::rectangle(hx, hy).mass_properties(rho);
    let (w, h) = (2.0 * hx, 2.0 * hy);
    assert!(close_to(m.mass, rho * w * h, 1e-6));
    assert!(close_to(m.inertia, m.mass * (w * w + h * h) / 12.0, 1e-5));
    assert!(m.center.coords.norm() < 1e-6);
}

#[test]
fn ellipse_inertia_is_m_a2_plus_b2_over_4() {
    let m = Shape::ellipse(2.0, 0.5).mass_properties(1.5);
    assert!(close_to(m.mass, 1.5 * PI * 2.0 * 0.5, 1e-6));
    assert!(close_to(m.inertia, m.mass * (4.0 + 0.25) / 4.0, 1e-6));
}

/// REFERENCE_VALUES.md, geometry: circle at (1,0), r 1: mass π, centre (1,0), inertia π/2.
#[test]
fn box2d_circle_mass_reference() {
    let m = Shape::circle(1.0).mass_properties(1.0).transformed(&Isometry::translation(1.0, 0.0));
    assert!(close_to(m.mass, PI, 1e-6));
    assert!((m.center - Point::new(1.0, 0.0)).norm() < 1e-6);
    assert!(close_to(m.inertia, PI / 2.0, 1e-6));
}

/// REFERENCE_VALUES.md, geometry: capsule (−1,0)–(1,0), r 1: mass 4 + π, inertia 10.045723.
#[test]
fn box2d_capsule_mass_reference() {
    let m = Shape::capsule(Point::new(-1.0, 0.0), Point::new(1.0, 0.0), 1.0).mass_properties(1.0);
    assert!(close_to(m.mass, 4.0 + PI, 1e-6));
    assert!(close_to(m.inertia, 10.045723, 1e-5));
    assert!(m.center.coords.norm() < 1e-6);
}

/// REFERENCE_VALUES.md, geometry: box half (1,1): mass 4, inertia 8/3.
#[test]
fn box2d_box_mass_reference() {
    let m = Shape::rectangle(1.0, 1.0).mass_properties(1.0);
    assert!(close_to(m.mass, 4.0, 1e-6));
    assert!(close_to(m.inertia, 8.0 / 3.0, 1e-6));
}

/// Box2D approximates a rounded box (half 0.5, radius 0.1) by pushing its
/// vertices out and reports mass 1.43924892, inertia 0.345239401. Lamina
/// computes the exact shape: area 1 + 4·0.1·1 + π·0.01, and inertia from the
/// core square, four side strips and four quarter discs (worked by hand below),
/// 0.339865. The approximation is 0.6 % heavy in mass and 1.6 % in inertia.
#[test]
fn rounded_box_mass_is_exact_and_near_box2d_approximation() {
    let m = Shape::rounded_rectangle(0.5, 0.5, 0.1).mass_properties(1.0);
    let exact_area = 1.0 + 0.4 + PI * 0.01;
    assert!(close_to(m.mass, exact_area, 1e-6));
    assert!(close_to(m.mass, 1.43924892, 6e-3));
    // Square 1/6; strips 4·(0.1·(1 + 0.01)/12 + 0.1·0.55²); quarter discs of area
    // A = π·0.01/4 at the corners c = (±0.5, ±0.5): 4·(A·0.01/2 + A·(|c|² + 2|c|·d))),
    // d = 4√2·0.1/(3π) being a quarter disc's centroid distance from its corner.
    let a = PI * 0.01 / 4.0;
    let corner = (0.5 as Real).hypot(0.5);
    let by_hand = 1.0 / 6.0
        + 4.0 * (0.1 * 1.01 / 12.0 + 0.1 * 0.55 * 0.55)
        + 4.0
            * (a * 0.01 / 2.0
                + a * (corner * corner + 2.0 * corner * 0.4 * (2.0 as Real).sqrt() / (3.0 * PI)));
    assert!(close_to(m.inertia, by_hand, 1e-5), "{} vs {by_hand}", m.inertia);
    assert!(close_to(m.inertia, 0.345239401, 2e-2));
    let aabb = Shape::rounded_rectangle(0.5, 0.5, 0.1).aabb(&Isometry::identity());
    assert!((aabb.maxs - Point::new(0.6, 0.6)).norm() < 1e-6);
}

/// Mass properties by numerical integration over a fine grid: the oracle for
/// rounded shapes, whose closed forms are the ones under test.
fn grid_mass(shape: &Shape, density: Real, cells: usize) -> MassProperties {
    let aabb = shape.aabb(&Isometry::identity());
    let size = aabb.maxs - aabb.mins;
    let (dx, dy) = (size.x as f64 / cells as f64, size.y as f64 / cells as f64);
    let (mut area, mut first, mut second) = (0.0f64, [0.0f64; 2], 0.0f64);
    for i in 0..cells {
        for j in 0..cells {
            let x = aabb.mins.x as f64 + (i as f64 + 0.5) * dx;
            let y = aabb.mins.y as f64 + (j as f64 + 0.5) * dy;
            if oracle_contains(shape, &Point::new(x as Real, y as Real)) {
                area += dx * dy;
                first[0] += x * dx * dy;
                first[1] += y * dx * dy;
                second += (x * x + y * y) * dx * dy;
            }
        }
    }
    let c = [first[0] / area, first[1] / area];
    MassProperties {
        mass: (density as f64 * area) as Real,
        center: Point::new(c[0] as Real, c[1] as Real),
        inertia: (density as f64 * (second - area * (c[0] * c[0] + c[1] * c[1]))) as Real,
    }
}

#[test]
fn rounded_polygon_and_capsule_match_grid_integration() {
    let tilted_capsule = Shape::capsule(Point::new(-1.0, 0.5), Point::new(2.0, 1.5), 0.6);
    let rounded_triangle =
        Shape::rounded_polygon(&[Point::new(0.0, 0.0), Point::new(3.0, 0.5), Point::new(1.0, 2.0)], 0.4)
            .unwrap();
    let ellipse = Shape::ellipse(1.5, 0.7);
    for shape in [tilted_capsule, rounded_triangle, ellipse] {
        let exact = shape.mass_properties(2.0);
        let grid = grid_mass(&shape, 2.0, 1500);
        assert!(
            close_to(exact.mass, grid.mass, 2e-3),
            "{shape:?}: mass {} vs grid {}",
            exact.mass,
            grid.mass
        );
        assert!(
            (exact.center - grid.center).norm() < 5e-3,
            "{shape:?}: centre {} vs {}",
            exact.center,
            grid.center
        );
        assert!(
            close_to(exact.inertia, grid.inertia, 4e-3),
            "{shape:?}: I {} vs {}",
            exact.inertia,
            grid.inertia
        );
    }
}

#[test]
fn segment_is_massless_with_midpoint_centre() {
    let m = Shape::segment(Point::new(0.0, 0.0), Point::new(2.0, 4.0)).mass_properties(5.0);
    assert_eq!(m.mass, 0.0);
    assert_eq!(m.inertia, 0.0);
    assert_eq!(m.center, Point::new(1.0, 2.0));
}

/// Area, centroid and centroidal inertia of a convex polygon as a fan of triangles
/// around its vertex average, each triangle's inertia about its own centroid being
/// m (a² + b² + c²) / 36, moved by the parallel-axis theorem.
fn fan_oracle(vertices: &[Point], density: f64) -> (f64, [f64; 2], f64) {
    let n = vertices.len() as f64;
    let o = vertices.iter().fold([0.0f64; 2], |s, v| [s[0] + v.x as f64 / n, s[1] + v.y as f64 / n]);
    let mut parts = Vec::new();
    for i in 0..vertices.len() {
        let a = [vertices[i].x as f64, vertices[i].y as f64];
        let b = [vertices[(i + 1) % vertices.len()].x as f64, vertices[(i + 1) % vertices.len()].y as f64];
        let area = 0.5 * ((a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]));
        let c = [(o[0] + a[0] + b[0]) / 3.0, (o[1] + a[1] + b[1]) / 3.0];
        let d2 = |p: [f64; 2], q: [f64; 2]| (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2);
        let sides = d2(o, a) + d2(a, b) + d2(b, o);
        parts.push((density * area, c, density * area * sides / 36.0));
    }
    let mass: f64 = parts.iter().map(|p| p.0).sum();
    let c = parts.iter().fold([0.0, 0.0], |s, p| [s[0] + p.0 * p.1[0] / mass, s[1] + p.0 * p.1[1] / mass]);
    let inertia: f64 =
        parts.iter().map(|p| p.2 + p.0 * ((p.1[0] - c[0]).powi(2) + (p.1[1] - c[1]).powi(2))).sum();
    (mass, c, inertia)
}

proptest! {
    #[test]
    fn polygon_mass_matches_triangle_fan(points in cloud(40), angle in 0.0..6.3f64, dx in coord(), dy in coord()) {
        let Ok(shape) = Shape::polygon(&points) else { return Ok(()); };
        let Shape::Polygon(poly) = &shape else { unreachable!() };
        let (mass, c, inertia) = fan_oracle(poly.vertices(), 1.7);
        prop_assume!(mass > 1e-2);
        let m = shape.mass_properties(1.7);
        prop_assert!(close(m.mass, mass as Real, 1e-4), "mass {} vs {}", m.mass, mass);
        prop_assert!((m.center - Point::new(c[0] as Real, c[1] as Real)).norm() < 1e-3);
        prop_assert!(close(m.inertia, inertia as Real, 1e-3), "inertia {} vs {}", m.inertia, inertia);
        // Moving the shape moves the centre and leaves the mass and inertia alone.
        let pose = Isometry::new(Vec2::new(dx, dy), angle as Real);
        let moved = m.transformed(&pose);
        prop_assert!((moved.center - pose * m.center).norm() < 1e-4);
        prop_assert_eq!(moved.inertia, m.inertia);
    }
}
