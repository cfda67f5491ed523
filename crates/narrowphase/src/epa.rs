//! EPA: penetration depth and direction of two overlapping convex shapes.
//!
//! When A and B overlap, the origin lies inside their Minkowski difference
//! A − B, and the smallest translation that separates them is the vector from
//! the origin to the nearest point of A − B's boundary. The expanding polytope
//! algorithm (van den Bergen, 2001) starts from GJK's final simplex, a polygon
//! around the origin inside A − B, and grows it: take the polygon's edge nearest
//! to the origin, ask for the support point of A − B along that edge's outward
//! normal, and insert it between the edge's ends. When the support point is no
//! farther out than the edge (within tolerance) the edge lies on A − B's boundary:
//! its distance is the depth and its normal the direction.
//!
//! GJK can also stop with the origin *on* its simplex — one point (the shapes
//! touch at a vertex of A − B) or two (they touch along an edge, or a segment of
//! A − B passes through the origin). Those starts are grown into a polygon with
//! support points on both sides before expanding. The whole polygon is kept (not
//! just the two newest edges), which cannot stall, and the loop is capped: on the
//! cap it returns the best edge found.

use lamina_geometry::math::{right_perp, try_normalize, unit_and_length};
use lamina_geometry::tolerance::{EPA_MAX_ITERATIONS, EPA_RELATIVE_TOLERANCE};
use lamina_geometry::{Isometry, Point, Real, SupportMap, Vec2};

use crate::gjk::support;
use crate::simplex::{Simplex, SupportPoint};

/// The polygon's capacity: the starting points plus one per iteration.
const CAPACITY: usize = EPA_MAX_ITERATIONS + 4;

/// What EPA found, in A's frame.
#[derive(Clone, Copy, Debug)]
pub struct EpaOutput {
    /// Penetration depth (≥ 0).
    pub depth: Real,
    /// Unit direction from A to B: translating B by `normal * depth` separates the shapes.
    pub normal: Vec2,
    /// The point of A deepest inside B.
    pub point_a: Point,
    /// The point of B deepest inside A; `point_a - point_b = normal * depth`.
    pub point_b: Point,
    /// How many support points were inserted.
    pub iterations: usize,
    /// False when the iteration cap stopped the expansion.
    pub converged: bool,
}

/// The expanding polygon, counter-clockwise, stored inline.
struct Polytope {
    points: [SupportPoint; CAPACITY],
    len: usize,
}

/// An edge of the polytope: its start index, outward normal and distance from the origin.
#[derive(Clone, Copy)]
struct Edge {
    start: usize,
    normal: Vec2,
    distance: Real,
}

/// Penetration of A and B (B placed by `xf`) from GJK's final `simplex`, which
/// must contain or touch the origin. `towards_b` is a rough A-to-B direction
/// (centre of B minus centre of A), used only when the shapes merely touch at a point.
pub fn epa<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    xf: &Isometry,
    simplex: &Simplex,
    towards_b: &Vec2,
) -> EpaOutput {
    epa_traced(a, b, xf, simplex, towards_b, |_| {})
}

/// [`epa`], calling `trace` with the polytope (counter-clockwise) after it is
/// built and after every expansion: for figures and debugging. The no-op
/// closure that [`epa`] passes compiles away.
pub fn epa_traced<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    xf: &Isometry,
    simplex: &Simplex,
    towards_b: &Vec2,
    mut trace: impl FnMut(&[SupportPoint]),
) -> EpaOutput {
    let mut poly = Polytope::from_simplex(a, b, xf, simplex, towards_b);
    trace(poly.points());
    let scale = poly.points().iter().map(|p| p.w.norm()).fold(Real::MIN_POSITIVE.sqrt(), Real::max);
    let tolerance = EPA_RELATIVE_TOLERANCE * scale;

    let mut best = poly.closest_edge();
    let mut iterations = 0;
    let mut converged = false;
    while let Some(edge) = best {
        if iterations == EPA_MAX_ITERATIONS || poly.len == CAPACITY {
            break;
        }
        let p = support(a, b, xf, &edge.normal);
        if p.w.dot(&edge.normal) - edge.distance <= tolerance || poly.contains(&p.w) {
            converged = true;
            break;
        }
        poly.insert_after(edge.start, p);
        trace(poly.points());
        iterations += 1;
        best = poly.closest_edge();
    }

    match best {
        Some(edge) => poly.output(&edge, iterations, converged),
        None => {
            // Every edge has zero length: A − B is a point at the origin.
            let p = poly.points[0];
            let normal = try_normalize(towards_b).unwrap_or_else(Vec2::x);
            EpaOutput { depth: 0.0, normal, point_a: p.a, point_b: p.b, iterations, converged: true }
        }
    }
}

impl Polytope {
    fn points(&self) -> &[SupportPoint] {
        &self.points[..self.len]
    }

    fn contains(&self, w: &Vec2) -> bool {
        self.points().iter().any(|p| p.w == *w)
    }

    /// Builds a counter-clockwise polygon around the origin from GJK's simplex.
    fn from_simplex<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
        a: &A,
        b: &B,
        xf: &Isometry,
        simplex: &Simplex,
        towards_b: &Vec2,
    ) -> Self {
        let mut poly = Polytope { points: [simplex.points()[0]; CAPACITY], len: 0 };
        match simplex.points() {
            [p0, p1, p2] => {
                let ccw = lamina_geometry::math::cross(&(p1.w - p0.w), &(p2.w - p0.w)) >= 0.0;
                let ordered = if ccw { [*p0, *p1, *p2] } else { [*p0, *p2, *p1] };
                poly.extend(&ordered);
            }
            [p0, p1] => poly.around_segment(a, b, xf, p0, p1),
            [p0] => {
                // Touching at one point: reach into A − B against the A-to-B
                // direction for a second point, then treat it as a segment.
                let dir = try_normalize(towards_b).unwrap_or_else(Vec2::x);
                let p1 = support(a, b, xf, &-dir);
                if p1.w == p0.w {
                    poly.extend(&[*p0]);
                } else {
                    poly.around_segment(a, b, xf, p0, &p1);
                }
            }
            [] => {}
            _ => unreachable!("a 2D simplex has at most three points"),
        }
        poly
    }

    /// The quadrilateral p0, (support on the right of p0→p1), p1, (support on
    /// the left): it holds the origin whenever the segment does.
    fn around_segment<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
        &mut self,
        a: &A,
        b: &B,
        xf: &Isometry,
        p0: &SupportPoint,
        p1: &SupportPoint,
    ) {
        let left = lamina_geometry::math::left_perp(&(p1.w - p0.w));
        let right_point = support(a, b, xf, &-left);
        let left_point = support(a, b, xf, &left);
        self.extend(&[*p0]);
        if right_point.w.dot(&-left) > p0.w.dot(&-left) {
            self.extend(&[right_point]);
        }
        self.extend(&[*p1]);
        if left_point.w.dot(&left) > p0.w.dot(&left) {
            self.extend(&[left_point]);
        }
    }

    fn extend(&mut self, points: &[SupportPoint]) {
        for p in points {
            self.points[self.len] = *p;
            self.len += 1;
        }
    }

    fn insert_after(&mut self, start: usize, p: SupportPoint) {
        let at = start + 1;
        self.points.copy_within(at..self.len, at + 1);
        self.points[at] = p;
        self.len += 1;
    }

    /// The edge nearest to the origin; edges of zero length are skipped.
    fn closest_edge(&self) -> Option<Edge> {
        let n = self.len;
        let mut best: Option<Edge> = None;
        for start in 0..n {
            let (p, q) = (self.points[start].w, self.points[(start + 1) % n].w);
            let Some(normal) = try_normalize(&right_perp(&(q - p))) else { continue };
            let distance = normal.dot(&p);
            if best.is_none_or(|e| distance < e.distance) {
                best = Some(Edge { start, normal, distance });
            }
        }
        best
    }

    /// Depth, normal and witness points from the final edge.
    fn output(&self, edge: &Edge, iterations: usize, converged: bool) -> EpaOutput {
        let p = self.points[edge.start];
        let q = self.points[(edge.start + 1) % self.len];
        let e = q.w - p.w;
        let ee = e.norm_squared();
        let t = if ee >= Real::MIN_POSITIVE {
            (-p.w.dot(&e) / ee).clamp(0.0, 1.0)
        } else {
            // The squared length of an edge shorter than about 1e-19 m (in
            // f32) underflows, and 0/0 would make the witness points NaN:
            // such an edge is measured along its unit direction instead.
            match unit_and_length(&e) {
                Some((along, length)) => (-p.w.dot(&along) / length).clamp(0.0, 1.0),
                None => 0.0,
            }
        };
        let point_a = p.a + (q.a - p.a) * t;
        let point_b = p.b + (q.b - p.b) * t;
        EpaOutput {
            depth: edge.distance.max(0.0),
            normal: edge.normal,
            point_a,
            point_b,
            iterations,
            converged,
        }
    }
}
