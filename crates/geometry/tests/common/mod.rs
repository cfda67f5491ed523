//! Independent oracles shared by the geometry tests: boundary sampling and
//! containment written from the shapes' definitions, not from the crate's code.
#![allow(dead_code)]

use lamina_geometry::{ChainSegment, Point, Real, Shape, Vec2};
use proptest::prelude::*;

pub const TAU: f64 = std::f64::consts::TAU;

pub fn p(x: Real, y: Real) -> Point {
    Point::new(x, y)
}

/// The unit vector at `angle` radians.
pub fn unit(angle: f64) -> Vec2 {
    Vec2::new(angle.cos() as Real, angle.sin() as Real)
}

/// `n` points on the shape's boundary, evenly spread by parameter, in local frame.
pub fn boundary_samples(shape: &Shape, n: usize) -> Vec<Point> {
    match shape {
        Shape::Circle(c) => (0..n).map(|i| Point::from(unit(i as f64 / n as f64 * TAU) * c.radius)).collect(),
        Shape::Ellipse(e) => (0..n)
            .map(|i| {
                let a = i as f64 / n as f64 * TAU;
                p(e.rx * a.cos() as Real, e.ry * a.sin() as Real)
            })
            .collect(),
        Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
            (0..=n).map(|i| s.a + (s.b - s.a) * (i as Real / n as Real)).collect()
        }
        Shape::Capsule(c) => {
            // Points at distance r from the core in every direction from every core sample.
            let mut out = Vec::new();
            for k in 0..=16 {
                let q = c.a + (c.b - c.a) * (k as Real / 16.0);
                for i in 0..n / 16 + 1 {
                    out.push(q + unit(i as f64 / (n / 16 + 1) as f64 * TAU) * c.radius);
                }
            }
            // Keep the samples that are on the boundary, not swallowed by the rest of the capsule.
            out.retain(|s| segment_distance(&c.a, &c.b, s) >= c.radius * (1.0 - 1e-4));
            out
        }
        Shape::Polygon(poly) => {
            let v = poly.vertices();
            let r = poly.radius();
            let mut out = Vec::new();
            let per_edge = (n / v.len()).max(4);
            for i in 0..v.len() {
                let (a, b) = (v[i], v[(i + 1) % v.len()]);
                for k in 0..per_edge {
                    out.push(a + (b - a) * (k as Real / per_edge as Real));
                }
            }
            if r > 0.0 {
                // The rounded boundary: every edge pushed out by r along its
                // outward normal, and an arc of radius r around every corner
                // between the normals of the edges meeting there.
                out.clear();
                let m = v.len();
                let normal = |i: usize| {
                    let e = v[(i + 1) % m] - v[i];
                    Vec2::new(e.y, -e.x) / e.norm()
                };
                for i in 0..m {
                    let (a, b, n) = (v[i], v[(i + 1) % m], normal(i));
                    for k in 0..per_edge {
                        out.push(a + (b - a) * (k as Real / per_edge as Real) + n * r);
                    }
                    let (from, to) = (normal((i + m - 1) % m), n);
                    let (a0, a1) = ((from.y as f64).atan2(from.x as f64), (to.y as f64).atan2(to.x as f64));
                    let sweep = (a1 - a0).rem_euclid(TAU);
                    for k in 0..=32 {
                        out.push(v[i] + unit(a0 + sweep * k as f64 / 32.0) * r);
                    }
                }
            }
            out
        }
    }
}

/// Distance from `q` to segment `a`–`b`, written out independently.
pub fn segment_distance(a: &Point, b: &Point, q: &Point) -> Real {
    let e = b - a;
    let t = if e.norm_squared() == 0.0 { 0.0 } else { ((q - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0) };
    (q - (a + e * t)).norm()
}

/// Distance from `q` to a counter-clockwise convex polygon (0 inside).
pub fn core_polygon_distance(vertices: &[Point], q: &Point) -> Real {
    if inside_ccw(vertices, q) {
        return 0.0;
    }
    let n = vertices.len();
    (0..n).map(|i| segment_distance(&vertices[i], &vertices[(i + 1) % n], q)).fold(Real::MAX, Real::min)
}

/// Inside test for a counter-clockwise convex polygon: left of (or on) every edge.
pub fn inside_ccw(vertices: &[Point], q: &Point) -> bool {
    let n = vertices.len();
    (0..n).all(|i| {
        let (a, b) = (vertices[i], vertices[(i + 1) % n]);
        let (e, w) = (b - a, q - a);
        e.x * w.y - e.y * w.x >= 0.0
    })
}

/// Unsigned distance from `q` to the shape (0 inside), from the definitions.
pub fn oracle_distance(shape: &Shape, q: &Point) -> Real {
    match shape {
        Shape::Circle(c) => (q.coords.norm() - c.radius).max(0.0),
        Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
            segment_distance(&s.a, &s.b, q)
        }
        Shape::Capsule(c) => (segment_distance(&c.a, &c.b, q) - c.radius).max(0.0),
        Shape::Polygon(poly) => (core_polygon_distance(poly.vertices(), q) - poly.radius()).max(0.0),
        Shape::Ellipse(e) => {
            if (q.x / e.rx).powi(2) + (q.y / e.ry).powi(2) <= 1.0 {
                0.0
            } else {
                // Dense parametric minimum: accurate to the sample spacing.
                boundary_samples(shape, 20_000)
                    .iter()
                    .map(|b| (b - q).norm())
                    .fold(Real::MAX, Real::min)
                    .min((q.coords.norm()).max(0.0) + e.rx.max(e.ry))
            }
        }
    }
}

/// Distance from `q` to the shape's boundary, inside or out, from the definitions
/// (the ellipse by dense sampling, accurate to its sample spacing).
pub fn oracle_boundary_distance(shape: &Shape, q: &Point) -> Real {
    match shape {
        Shape::Circle(c) => (q.coords.norm() - c.radius).abs(),
        Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
            segment_distance(&s.a, &s.b, q)
        }
        Shape::Capsule(c) => (segment_distance(&c.a, &c.b, q) - c.radius).abs(),
        Shape::Polygon(poly) => {
            let v = poly.vertices();
            let n = v.len();
            let to_edges =
                (0..n).map(|i| segment_distance(&v[i], &v[(i + 1) % n], q)).fold(Real::MAX, Real::min);
            // Signed distance to the core: negative inside it.
            let signed = if inside_ccw(v, q) { -to_edges } else { to_edges };
            (signed - poly.radius()).abs()
        }
        Shape::Ellipse(_) => {
            boundary_samples(shape, 20_000).iter().map(|b| (b - q).norm()).fold(Real::MAX, Real::min)
        }
    }
}

/// True when `q` is inside the shape, from the definitions.
pub fn oracle_contains(shape: &Shape, q: &Point) -> bool {
    match shape {
        Shape::Ellipse(e) => (q.x / e.rx).powi(2) + (q.y / e.ry).powi(2) <= 1.0,
        Shape::Segment(_) | Shape::ChainSegment(_) => false,
        _ => oracle_distance(shape, q) == 0.0,
    }
}

/// A coordinate in a modest range.
pub fn coord() -> impl Strategy<Value = Real> {
    (-10.0..10.0f64).prop_map(|v| v as Real)
}

/// A point cloud of 3 to `max` points.
pub fn cloud(max: usize) -> impl Strategy<Value = Vec<Point>> {
    prop::collection::vec((coord(), coord()).prop_map(|(x, y)| p(x, y)), 3..max)
}

/// True when the cloud spans no area worth a hull: every point within a
/// thousandth of the cloud's extent of the line through its two farthest-apart
/// points (measured from the first point and the point farthest from it).
pub fn nearly_collinear(points: &[Point]) -> bool {
    let a = points[0];
    let b = points.iter().copied().fold(a, |f, q| if (q - a).norm() > (f - a).norm() { q } else { f });
    let extent = (b - a).norm();
    if extent == 0.0 {
        return true;
    }
    let widest = points.iter().map(|c| ((b - a).perp(&(c - a)) / extent).abs()).fold(0.0, Real::max);
    widest <= 1e-3 * extent
}

/// Any built-in shape with sizes in [0.1, 5].
pub fn any_shape() -> impl Strategy<Value = Shape> {
    let size = || (0.1..5.0f64).prop_map(|v| v as Real);
    prop_oneof![
        size().prop_map(Shape::circle),
        (size(), size()).prop_map(|(w, h)| Shape::rectangle(w, h)),
        (size(), size(), (0.05..1.0f64)).prop_map(|(w, h, r)| Shape::rounded_rectangle(w, h, r as Real)),
        (coord(), coord(), coord(), coord(), size()).prop_filter_map("distinct ends", |(a, b, c, d, r)| {
            (a != c || b != d).then(|| Shape::capsule(p(a, b), p(c, d), r))
        }),
        (coord(), coord(), coord(), coord())
            .prop_filter_map("distinct ends", |(a, b, c, d)| (a != c || b != d)
                .then(|| Shape::segment(p(a, b), p(c, d)))),
        cloud(24).prop_filter_map("spans an area", |pts| Shape::polygon(&pts).ok()),
        (cloud(12), (0.05..1.0f64))
            .prop_filter_map("spans an area", |(pts, r)| Shape::rounded_polygon(&pts, r as Real).ok()),
        (size(), size()).prop_map(|(a, b)| Shape::ellipse(a, b)),
    ]
}

/// Relative-or-absolute closeness, for comparing floating results.
pub fn close(a: Real, b: Real, tol: Real) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}
