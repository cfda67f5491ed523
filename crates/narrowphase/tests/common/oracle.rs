//! Independent oracles for the narrow-phase tests and the fuzz targets:
//! brute-force distances over every vertex–edge pair and the separating-axis
//! overlap over every edge normal, in f64 whatever the precision.
#![allow(dead_code, clippy::unnecessary_cast)]

use lamina_geometry::{Isometry, Point, Real, Shape, Vec2};

pub fn p(x: Real, y: Real) -> Point {
    Point::new(x, y)
}

pub fn unit(angle: f64) -> Vec2 {
    Vec2::new(angle.cos() as Real, angle.sin() as Real)
}

pub fn segment_distance(a: &Point, b: &Point, q: &Point) -> f64 {
    let (ax, ay, bx, by, qx, qy) = (a.x as f64, a.y as f64, b.x as f64, b.y as f64, q.x as f64, q.y as f64);
    let (ex, ey) = (bx - ax, by - ay);
    let ee = ex * ex + ey * ey;
    let t = if ee == 0.0 { 0.0 } else { (((qx - ax) * ex + (qy - ay) * ey) / ee).clamp(0.0, 1.0) };
    ((qx - ax - ex * t).powi(2) + (qy - ay - ey * t).powi(2)).sqrt()
}

/// World-space vertices of a polygon shape (counter-clockwise).
pub fn world_vertices(shape: &Shape, pose: &Isometry) -> Vec<Point> {
    match shape {
        Shape::Polygon(poly) => poly.vertices().iter().map(|v| pose * v).collect(),
        _ => panic!("not a polygon"),
    }
}

/// Twice the signed area of the triangle `p`, `q`, `r` (positive when
/// counter-clockwise), in f64 from the coordinates themselves: differences
/// of two `f32`s are exact in f64 and so are their products, so the sign is
/// right even for points a hair off one line, where differences taken in
/// `f32` first would round it either way.
pub fn orientation(p: &Point, q: &Point, r: &Point) -> f64 {
    let (px, py) = (p.x as f64, p.y as f64);
    (q.x as f64 - px) * (r.y as f64 - py) - (q.y as f64 - py) * (r.x as f64 - px)
}

/// True when the two segments cross or touch: each strictly on both sides of
/// the other's line, or an end point on the other segment (on its line and
/// within its extent). A zero orientation alone is not a touch: two
/// segments on one line may be far apart along it.
pub fn segments_cross(a: &Point, b: &Point, c: &Point, d: &Point) -> bool {
    // `r`, known to be on the line of `p`–`q`, within the segment's extent.
    let within = |p: &Point, q: &Point, r: &Point| {
        p.x.min(q.x) <= r.x && r.x <= p.x.max(q.x) && p.y.min(q.y) <= r.y && r.y <= p.y.max(q.y)
    };
    let (d1, d2) = (orientation(a, b, c), orientation(a, b, d));
    let (d3, d4) = (orientation(c, d, a), orientation(c, d, b));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return true;
    }
    (d1 == 0.0 && within(a, b, c))
        || (d2 == 0.0 && within(a, b, d))
        || (d3 == 0.0 && within(c, d, a))
        || (d4 == 0.0 && within(c, d, b))
}

/// Distance between two segments: 0 if they cross, else the least end-point-to-segment distance.
pub fn segment_segment_distance(a: &Point, b: &Point, c: &Point, d: &Point) -> f64 {
    if segments_cross(a, b, c, d) {
        return 0.0;
    }
    segment_distance(a, b, c)
        .min(segment_distance(a, b, d))
        .min(segment_distance(c, d, a))
        .min(segment_distance(c, d, b))
}

/// Inside test for a counter-clockwise convex polygon.
pub fn inside_ccw(v: &[Point], q: &Point) -> bool {
    let n = v.len();
    (0..n).all(|i| orientation(&v[i], &v[(i + 1) % n], q) >= 0.0)
}

/// Distance between two convex polygons by brute force: 0 if any vertex of one
/// is inside the other or any edges cross, else the minimum over every
/// vertex–edge pair.
pub fn polygon_distance(va: &[Point], vb: &[Point]) -> f64 {
    if va.iter().any(|q| inside_ccw(vb, q)) || vb.iter().any(|q| inside_ccw(va, q)) {
        return 0.0;
    }
    let mut best = f64::MAX;
    for i in 0..va.len() {
        let (a0, a1) = (va[i], va[(i + 1) % va.len()]);
        for j in 0..vb.len() {
            let (b0, b1) = (vb[j], vb[(j + 1) % vb.len()]);
            best = best.min(segment_segment_distance(&a0, &a1, &b0, &b1));
        }
    }
    best
}

/// How far B must move along `axis` to clear A: the top of A's projection on
/// `axis` minus the bottom of B's.
pub fn projected_overlap(va: &[Point], vb: &[Point], axis: &Vec2) -> f64 {
    let proj = |v: &[Point]| {
        v.iter()
            .map(|q| q.coords.dot(axis) as f64)
            .fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    let ((_, a_hi), (b_lo, _)) = (proj(va), proj(vb));
    a_hi - b_lo
}

/// Penetration depth of two convex polygons by the separating-axis theorem: the
/// shortest move of B that clears A along any edge normal of either, in either
/// direction (negative when they are apart).
pub fn sat_depth(va: &[Point], vb: &[Point]) -> f64 {
    let mut best = f64::MAX;
    for v in [va, vb] {
        for i in 0..v.len() {
            let e = v[(i + 1) % v.len()] - v[i];
            let axis = Vec2::new(e.y, -e.x).normalize();
            best = best.min(projected_overlap(va, vb, &axis)).min(projected_overlap(va, vb, &-axis));
        }
    }
    best
}

/// Relative-or-absolute closeness.
pub fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}
