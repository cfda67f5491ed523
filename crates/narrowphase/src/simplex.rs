//! The GJK simplex in 2D: up to three points of the Minkowski difference A − B,
//! each remembering the points of A and B it came from, and the closest point of
//! the simplex to the origin in barycentric form (Ericson, *Real-Time Collision
//! Detection*, §5.1 and §9.5: Voronoi regions of points, edges and the triangle).

use lamina_geometry::math::cross;
use lamina_geometry::{Point, Real, Vec2};

/// A point `w = a - b` of the Minkowski difference and its two sources.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SupportPoint {
    /// The support point of shape A.
    pub a: Point,
    /// The support point of shape B.
    pub b: Point,
    /// `a - b`.
    pub w: Vec2,
}

impl SupportPoint {
    /// The support point from its two sources.
    #[inline]
    pub fn new(a: Point, b: Point) -> Self {
        Self { a, b, w: a - b }
    }
}

/// One, two or three support points with the barycentric weights of the
/// simplex's closest point to the origin.
#[derive(Clone, Copy, Debug)]
pub struct Simplex {
    points: [SupportPoint; 3],
    weights: [Real; 3],
    len: usize,
}

impl Simplex {
    /// A simplex of one point.
    pub fn new(first: SupportPoint) -> Self {
        Self { points: [first; 3], weights: [1.0, 0.0, 0.0], len: 1 }
    }

    /// The live points.
    #[inline]
    pub fn points(&self) -> &[SupportPoint] {
        &self.points[..self.len]
    }

    /// How many points the simplex has.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for a simplex with no points (never the case after [`Simplex::new`]).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a point; the simplex must hold fewer than three.
    #[inline]
    pub fn push(&mut self, p: SupportPoint) {
        debug_assert!(self.len < 3);
        self.points[self.len] = p;
        self.len += 1;
    }

    /// True when `w` is already one of the simplex's points: GJK can make no progress.
    pub fn contains(&self, w: &Vec2) -> bool {
        self.points().iter().any(|p| p.w == *w)
    }

    /// Reduces the simplex to the smallest feature holding its closest point to
    /// the origin and returns that point. A simplex left with three points
    /// contains the origin.
    pub fn reduce(&mut self) -> Vec2 {
        match self.len {
            1 => self.keep(&[0], &[1.0]),
            2 => self.reduce_segment(),
            _ => self.reduce_triangle(),
        }
        self.closest()
    }

    /// The closest point, from the current weights.
    pub fn closest(&self) -> Vec2 {
        self.points().iter().zip(&self.weights).fold(Vec2::zeros(), |acc, (p, &l)| acc + p.w * l)
    }

    /// The witness points on A and B: the weighted sources of the closest point.
    pub fn witnesses(&self) -> (Point, Point) {
        let mut a = Vec2::zeros();
        let mut b = Vec2::zeros();
        for (p, &l) in self.points().iter().zip(&self.weights) {
            a += p.a.coords * l;
            b += p.b.coords * l;
        }
        (Point::from(a), Point::from(b))
    }

    fn keep(&mut self, which: &[usize], weights: &[Real]) {
        let old = self.points;
        for (slot, (&i, &l)) in which.iter().zip(weights).enumerate() {
            self.points[slot] = old[i];
            self.weights[slot] = l;
        }
        self.len = which.len();
    }

    fn reduce_segment(&mut self) {
        let (w0, w1) = (self.points[0].w, self.points[1].w);
        let e = w1 - w0;
        // Barycentric coordinates of the origin's projection onto the line.
        let u = w1.dot(&e);
        let v = -w0.dot(&e);
        if v <= 0.0 {
            self.keep(&[0], &[1.0]);
        } else if u <= 0.0 {
            self.keep(&[1], &[1.0]);
        } else {
            let s = u + v;
            self.keep(&[0, 1], &[u / s, v / s]);
        }
    }

    /// A triangle of zero area has its closest point on one of its edges: keep
    /// the nearest edge.
    fn reduce_flat_triangle(&mut self) {
        let all = self.points;
        let mut best: Option<(Real, Simplex)> = None;
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            let mut edge = Simplex::new(all[i]);
            edge.push(all[j]);
            edge.reduce_segment();
            let d = edge.closest().norm_squared();
            if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                best = Some((d, edge));
            }
        }
        if let Some((_, edge)) = best {
            *self = edge;
        }
    }

    fn reduce_triangle(&mut self) {
        let [w0, w1, w2] = [self.points[0].w, self.points[1].w, self.points[2].w];
        // Edge barycentrics: (u, v) for the origin's projection on each edge.
        let (e01, e02, e12) = (w1 - w0, w2 - w0, w2 - w1);
        let (u01, v01) = (w1.dot(&e01), -w0.dot(&e01));
        let (u02, v02) = (w2.dot(&e02), -w0.dot(&e02));
        let (u12, v12) = (w2.dot(&e12), -w1.dot(&e12));
        // Triangle barycentrics, signed by the triangle's orientation.
        let area = cross(&e01, &e02);
        let (t0, t1, t2) = (area * cross(&w1, &w2), area * cross(&w2, &w0), area * cross(&w0, &w1));

        if v01 <= 0.0 && v02 <= 0.0 {
            self.keep(&[0], &[1.0]);
        } else if u01 > 0.0 && v01 > 0.0 && t2 <= 0.0 {
            let s = u01 + v01;
            self.keep(&[0, 1], &[u01 / s, v01 / s]);
        } else if u02 > 0.0 && v02 > 0.0 && t1 <= 0.0 {
            let s = u02 + v02;
            self.keep(&[0, 2], &[u02 / s, v02 / s]);
        } else if u01 <= 0.0 && v12 <= 0.0 {
            self.keep(&[1], &[1.0]);
        } else if u02 <= 0.0 && u12 <= 0.0 {
            self.keep(&[2], &[1.0]);
        } else if u12 > 0.0 && v12 > 0.0 && t0 <= 0.0 {
            let s = u12 + v12;
            self.keep(&[1, 2], &[u12 / s, v12 / s]);
        } else {
            let s = t0 + t1 + t2;
            if s > 0.0 {
                self.weights = [t0 / s, t1 / s, t2 / s];
            } else {
                self.reduce_flat_triangle();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(x: Real, y: Real) -> SupportPoint {
        SupportPoint::new(Point::new(x, y), Point::origin())
    }

    #[test]
    fn segment_projects_origin_onto_its_interior() {
        let mut s = Simplex::new(sp(-1.0, 1.0));
        s.push(sp(3.0, 1.0));
        let v = s.reduce();
        assert!((v - Vec2::new(0.0, 1.0)).norm() < 1e-6);
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn segment_keeps_nearest_end_when_origin_is_beyond_it() {
        let mut s = Simplex::new(sp(1.0, 1.0));
        s.push(sp(3.0, 1.0));
        let v = s.reduce();
        assert_eq!(v, Vec2::new(1.0, 1.0));
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn triangle_around_origin_keeps_all_three() {
        let mut s = Simplex::new(sp(-1.0, -1.0));
        s.push(sp(2.0, -1.0));
        s.push(sp(0.0, 2.0));
        let v = s.reduce();
        assert_eq!(s.len(), 3);
        assert!(v.norm() < 1e-6);
    }

    #[test]
    fn triangle_reduces_to_the_edge_facing_the_origin() {
        // Either winding gives the same answer.
        for flip in [false, true] {
            let (b, c) = if flip { (sp(0.0, 3.0), sp(1.0, 1.0)) } else { (sp(1.0, 1.0), sp(0.0, 3.0)) };
            let mut s = Simplex::new(sp(-1.0, 1.0));
            s.push(b);
            s.push(c);
            let v = s.reduce();
            assert_eq!(s.len(), 2, "flip {flip}");
            assert!((v - Vec2::new(0.0, 1.0)).norm() < 1e-6, "closest {v}");
        }
    }

    #[test]
    fn flat_triangle_reduces_to_its_nearest_edge() {
        let mut s = Simplex::new(sp(-1.0, 1.0));
        s.push(sp(1.0, 1.0));
        s.push(sp(0.0, 1.0));
        let v = s.reduce();
        assert!((v - Vec2::new(0.0, 1.0)).norm() < 1e-6, "closest {v}");
    }
}
