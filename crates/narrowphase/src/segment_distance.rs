//! Closest points of two segments (Ericson, *Real-Time Collision Detection*, §5.1.9).

use lamina_geometry::{Point, Real};

/// Closest points of segments `p1`–`q1` and `p2`–`q2`, as parameters `(s, t)` in
/// `[0, 1]` along each: the points are `p1 + s (q1 - p1)` and `p2 + t (q2 - p2)`.
#[inline]
pub fn segment_closest_parameters(p1: &Point, q1: &Point, p2: &Point, q2: &Point) -> (Real, Real) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    if a <= 0.0 && e <= 0.0 {
        return (0.0, 0.0);
    }
    if a <= 0.0 {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(&r);
    if e <= 0.0 {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(&d2);
    let denom = a * e - b * b;
    // Closest point on the first line to the second, clamped; parallel lines pick s = 0.
    let mut s = if denom > 0.0 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}
