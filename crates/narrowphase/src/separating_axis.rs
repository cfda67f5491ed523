//! The separating-axis search of two small convex polygons, four vertices at a
//! time.
//!
//! For each edge of one polygon, the separation is the least signed distance of
//! the other polygon's vertices from the edge's line, and the best axis is the
//! edge with the largest. That costs the product of the vertex counts in dot
//! products: 64 for two octagons, and the search runs both ways. Here the other
//! polygon's vertices are laid out once as x and y lanes, so that each edge
//! takes two subtractions, two multiplications, an addition and a minimum per
//! four vertices.
//!
//! Every lane computes `n.x (w.x − v.x) + n.y (w.y − v.y)`, the operations
//! [`Vec2::dot`] does in the same order, and minima are compare-and-select, so
//! the separations are bit for bit those of the one-vertex-at-a-time loop on
//! every target.

use lamina_geometry::{Point, Real, Vec2};

use crate::poly_view::{MAX_SAT_VERTICES, PolyView};

/// Four numbers side by side.
#[cfg(not(feature = "f64"))]
type Lanes = wide::f32x4;
/// Four numbers side by side.
#[cfg(feature = "f64")]
type Lanes = wide::f64x4;

/// Vertices per lane group.
const WIDTH: usize = 4;

/// Lane groups that hold the largest polygon the separating-axis pairs take.
const GROUPS: usize = MAX_SAT_VERTICES.div_ceil(WIDTH);

/// A polygon's vertices in lanes: x and y of vertices 0–3 and 4–7. Lanes past
/// the last vertex repeat vertex 0, which leaves every minimum as it is.
struct VertexLanes {
    x: [Lanes; GROUPS],
    y: [Lanes; GROUPS],
    /// Groups holding at least one vertex.
    groups: usize,
}

impl VertexLanes {
    #[inline(always)]
    fn of(p: &PolyView) -> Self {
        let vertex = |i: usize| p.vertices[if i < p.count { i } else { 0 }];
        let lanes = |g: usize, coordinate: fn(&Point) -> Real| {
            Lanes::new(std::array::from_fn(|l| coordinate(&vertex(g * WIDTH + l))))
        };
        Self {
            x: std::array::from_fn(|g| lanes(g, |v| v.x)),
            y: std::array::from_fn(|g| lanes(g, |v| v.y)),
            groups: p.count.div_ceil(WIDTH),
        }
    }

    /// The least of `n · (w − v)` over the vertices `w`.
    #[inline(always)]
    fn least_offset(&self, n: &Vec2, v: &Point) -> Real {
        let (nx, ny) = (Lanes::splat(n.x), Lanes::splat(n.y));
        let (vx, vy) = (Lanes::splat(v.x), Lanes::splat(v.y));
        let offset = |g: usize| nx * (self.x[g] - vx) + ny * (self.y[g] - vy);
        let mut least = offset(0);
        for g in 1..self.groups {
            let next = offset(g);
            least = next.simd_lt(least).select(next, least);
        }
        least.to_array().into_iter().fold(Real::INFINITY, |a, b| if b < a { b } else { a })
    }
}

/// The edge of `p` in front of which `q` lies farthest, and that separation
/// (the least signed distance of `q`'s vertices from the edge's line); the
/// first of equal edges.
pub(crate) fn max_separation(p: &PolyView, q: &PolyView) -> (usize, Real) {
    let lanes = VertexLanes::of(q);
    let mut best = (0, Real::NEG_INFINITY);
    for i in 0..p.count {
        let s = lanes.least_offset(&p.normals[i], &p.vertices[i]);
        if s > best.1 {
            best = (i, s);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use lamina_geometry::{Isometry, Shape};

    /// The search one vertex at a time, as the lanes must reproduce it.
    fn one_at_a_time(p: &PolyView, q: &PolyView) -> (usize, Real) {
        let mut best = (0, Real::NEG_INFINITY);
        for i in 0..p.count {
            let (n, v) = (p.normals[i], p.vertices[i]);
            let s = q.vertices().iter().map(|w| n.dot(&(w - v))).fold(Real::INFINITY, Real::min);
            if s > best.1 {
                best = (i, s);
            }
        }
        best
    }

    #[test]
    fn lanes_give_the_scalar_separations_bit_for_bit() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut counts = [0usize; MAX_SAT_VERTICES + 1];
        for _ in 0..5_000 {
            let polygon = |next: &mut dyn FnMut() -> f64| {
                let n = 3 + (next() * 10.0) as usize;
                let points: Vec<Point> = (0..n)
                    .map(|_| Point::new((next() * 2.0 - 1.0) as Real, (next() * 2.0 - 1.0) as Real))
                    .collect();
                Shape::polygon(&points).ok().filter(PolyView::fits)
            };
            let (Some(a), Some(b)) = (polygon(&mut next), polygon(&mut next)) else {
                continue;
            };
            let xf = Isometry::new(Vec2::new(next() as Real, next() as Real), (next() * 6.0) as Real);
            let (pa, pb) = (PolyView::local(&a), PolyView::placed(&b, &xf));
            counts[pb.count] += 1;
            for (p, q) in [(&pa, &pb), (&pb, &pa)] {
                let (fast, slow) = (max_separation(p, q), one_at_a_time(p, q));
                assert_eq!(fast.0, slow.0);
                assert_eq!(fast.1.to_bits(), slow.1.to_bits(), "{fast:?} vs {slow:?}");
            }
        }
        // Both one and two lane groups, with padding, were exercised.
        assert!(counts[3] > 0 && counts[4] > 0 && counts[5] > 0 && counts[8] > 0, "{counts:?}");
    }
}
