//! Convex hull of a planar point cloud (Andrew's monotone chain, O(n log n)).
//!
//! Points are sorted lexicographically, then the lower and upper chains are built
//! with a stack, dropping every point that does not make a strict left turn. The
//! turn test carries a tolerance relative to the cloud's extent
//! ([`HULL_RELATIVE_TOLERANCE`]): duplicates, near-duplicates and points within
//! round-off of an edge are dropped, so every edge of the result has a well-defined
//! normal and every vertex is a real corner.

use crate::error::ShapeError;
use crate::math::{Point, Real, Vec2, cross, is_finite_point};
use crate::tolerance::HULL_RELATIVE_TOLERANCE;

/// The convex hull of `points`: a subset of them, counter-clockwise, with no
/// duplicate or collinear vertices.
///
/// Fails with [`ShapeError::NonFinitePoint`] for a NaN or infinite coordinate and
/// with [`ShapeError::DegeneratePolygon`] when the points span no area.
pub fn convex_hull(points: &[Point]) -> Result<Vec<Point>, ShapeError> {
    if let Some((index, point)) = points.iter().enumerate().find(|(_, p)| !is_finite_point(p)) {
        return Err(ShapeError::NonFinitePoint { index, point: *point });
    }
    if let Some(hull) = as_convex_loop(points) {
        return Ok(hull);
    }
    let mut sorted = points.to_vec();
    sorted.sort_unstable_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup();

    let tolerance = HULL_RELATIVE_TOLERANCE * extent(&sorted);
    let mut hull = monotone_chain(&sorted, tolerance);
    drop_flat_vertices(&mut hull, tolerance);

    if hull.len() < 3 {
        return Err(ShapeError::DegeneratePolygon { points: points.len(), hull_vertices: hull.len() });
    }
    Ok(hull)
}

/// The points themselves, counter-clockwise, when they already are the corners
/// of a convex polygon in order (either winding): the common case of a polygon
/// given by its outline, answered in O(n) without sorting.
///
/// Every vertex must be a strict left turn (or, for a clockwise loop, a strict
/// right turn) within the hull's tolerance, and the edge directions must sweep
/// round exactly once, which rules out self-intersecting stars.
fn as_convex_loop(points: &[Point]) -> Option<Vec<Point>> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let (lo, hi) = points.iter().fold((points[0], points[0]), |(lo, hi), p| (lo.inf(p), hi.sup(p)));
    let extent = (hi - lo).amax().max(lo.coords.amax()).max(hi.coords.amax());
    let tolerance = HULL_RELATIVE_TOLERANCE * extent;
    let signed_area = (0..n).map(|i| cross(&points[i].coords, &points[(i + 1) % n].coords)).sum::<Real>();
    let ccw = signed_area > 0.0;
    let at = |i: usize| if ccw { points[i % n] } else { points[(n - i % n) % n] };
    let mut descents = 0;
    let mut last_angle = crate::math::pseudo_angle(&(at(1) - at(0)));
    for i in 0..n {
        let (a, b, c) = (at(i), at(i + 1), at(i + 2));
        if !is_corner(&a, &b, &c, tolerance) {
            return None;
        }
        let angle = crate::math::pseudo_angle(&(c - b));
        if angle < last_angle {
            descents += 1;
        }
        last_angle = angle;
    }
    (descents == 1).then(|| (0..n).map(at).collect())
}

/// The largest side of the cloud's bounding box, and at least its largest
/// coordinate magnitude: round-off scales with both.
fn extent(sorted: &[Point]) -> Real {
    let (Some(first), Some(last)) = (sorted.first(), sorted.last()) else {
        return 0.0;
    };
    let (lo_y, hi_y) = sorted.iter().fold((first.y, first.y), |(lo, hi), p| (lo.min(p.y), hi.max(p.y)));
    let width = last.x - first.x;
    let height = hi_y - lo_y;
    let magnitude = first.x.abs().max(last.x.abs()).max(lo_y.abs()).max(hi_y.abs());
    width.max(height).max(magnitude)
}

/// True when `b` is a strict left turn on the way from `a` to `c` and lies
/// farther than `tolerance` from the segment a–c. Mostly that means farther
/// than `tolerance` to the right of the line a→c; but a point near that line
/// and beyond one end of the segment is the tip of a sharp spike (two long
/// edges meeting at a small angle), a real corner: measuring to the line
/// alone dropped it, and with it a part of the hull as long as the spike.
#[inline]
fn is_corner(a: &Point, b: &Point, c: &Point, tolerance: Real) -> bool {
    let (ab, ac): (Vec2, Vec2) = (b - a, c - a);
    let turn = cross(&ab, &ac);
    if turn <= 0.0 {
        return false;
    }
    let length = ac.norm();
    if turn > tolerance * length {
        return true;
    }
    let along = ab.dot(&ac);
    along < -tolerance * length || along > length * (length + tolerance)
}

/// Builds the lower then the upper chain over lexicographically sorted points.
fn monotone_chain(sorted: &[Point], tolerance: Real) -> Vec<Point> {
    let n = sorted.len();
    if n < 3 {
        return sorted.to_vec();
    }
    let mut hull: Vec<Point> = Vec::with_capacity(n + 1);
    for p in sorted {
        push_keeping_left_turns(&mut hull, 2, p, tolerance);
    }
    let lower_len = hull.len() + 1;
    for p in sorted.iter().rev().skip(1) {
        push_keeping_left_turns(&mut hull, lower_len, p, tolerance);
    }
    hull.pop(); // the first point closes the loop; it is already at the front
    hull
}

/// Pops every vertex that would not be a corner once `p` follows it, never
/// shrinking the stack below `floor`, then pushes `p`.
#[inline]
fn push_keeping_left_turns(hull: &mut Vec<Point>, floor: usize, p: &Point, tolerance: Real) {
    while hull.len() >= floor {
        let len = hull.len();
        if is_corner(&hull[len - 2], &hull[len - 1], p, tolerance) {
            break;
        }
        hull.pop();
    }
    hull.push(*p);
}

/// Removes vertices that are not corners of the closed loop. The chains already
/// guarantee this everywhere but at the two points where they join.
fn drop_flat_vertices(hull: &mut Vec<Point>, tolerance: Real) {
    loop {
        let n = hull.len();
        if n < 3 {
            return;
        }
        let flat =
            (0..n).find(|&i| !is_corner(&hull[(i + n - 1) % n], &hull[i], &hull[(i + 1) % n], tolerance));
        match flat {
            Some(i) => {
                hull.remove(i);
            }
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: Real, y: Real) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn square_with_interior_duplicate_and_edge_points() {
        let pts = [
            p(0.0, 0.0),
            p(1.0, 1.0),
            p(0.5, 0.0),
            p(1.0, 0.0),
            p(0.0, 1.0),
            p(0.5, 0.5),
            p(1.0, 1.0),
            p(0.0, 0.5),
        ];
        let hull = convex_hull(&pts).unwrap();
        assert_eq!(hull, vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)]);
    }

    #[test]
    fn collinear_points_are_degenerate() {
        let pts: Vec<Point> = (0..10).map(|i| p(i as Real, 2.0 * i as Real)).collect();
        assert_eq!(convex_hull(&pts), Err(ShapeError::DegeneratePolygon { points: 10, hull_vertices: 2 }));
    }

    #[test]
    fn convex_loops_keep_their_vertices_in_either_winding() {
        let ccw: Vec<Point> = (0..7)
            .map(|i| {
                let a = i as Real * 0.9;
                p(a.cos() * 2.0, a.sin() * 2.0)
            })
            .collect();
        let hull = convex_hull(&ccw).unwrap();
        assert_eq!(hull, ccw);
        let cw: Vec<Point> = ccw.iter().rev().copied().collect();
        let from_cw = convex_hull(&cw).unwrap();
        assert_eq!(from_cw.len(), 7);
        assert!(ccw.iter().all(|v| from_cw.contains(v)));
    }

    #[test]
    fn a_star_that_winds_twice_is_not_taken_as_a_loop() {
        // A pentagram: every turn is to the left, but its edges sweep round twice.
        let star: Vec<Point> = (0..5)
            .map(|i| {
                let a = i as Real * 4.0 * crate::math::PI / 5.0;
                p(a.cos(), a.sin())
            })
            .collect();
        assert!(as_convex_loop(&star).is_none());
        assert_eq!(convex_hull(&star).unwrap().len(), 5);
    }

    #[test]
    fn vertical_edges_keep_only_corners() {
        let pts = [p(0.0, 0.0), p(0.0, 1.0), p(0.0, 2.0), p(1.0, 0.0), p(1.0, 1.0), p(1.0, 2.0)];
        let hull = convex_hull(&pts).unwrap();
        assert_eq!(hull, vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 2.0), p(0.0, 2.0)]);
    }
}
