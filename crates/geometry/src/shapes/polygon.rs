//! Convex polygons, optionally rounded, of any vertex count.
//!
//! Vertices are stored counter-clockwise with one outward unit normal per edge
//! (edge `i` runs from vertex `i` to vertex `i + 1`). Up to eight vertices live
//! inline, so boxes and small polygons need no heap access. Polygons with more than
//! [`POLYGON_LINEAR_SCAN_MAX`] vertices also keep their edge-normal angles sorted,
//! which turns the support query into a binary search: a 10,000-vertex polygon
//! answers in about 14 comparisons.

use smallvec::SmallVec;

use crate::aabb::Aabb;
use crate::error::ShapeError;
use crate::hull::convex_hull;
use crate::mass::{AreaMoments, MassProperties};
use crate::math::{
    Isometry, Point, Real, Vec2, cross, is_finite_point, pseudo_angle, right_perp, try_normalize,
};
use crate::point_query::PointProjection;
use crate::ray::{Ray, RayHit, earlier, ray_circle, ray_segment_front};
use crate::shapes::segment::closest_on_segment;
use crate::support::SupportMap;
use crate::tolerance::{HULL_RELATIVE_TOLERANCE, MIN_SHAPE_SIZE, POLYGON_LINEAR_SCAN_MAX};

/// A convex polygon, rounded by `radius` (0 for sharp corners).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "PolygonData", try_from = "PolygonData")
)]
pub struct Polygon {
    vertices: SmallVec<[Point; 8]>,
    normals: SmallVec<[Vec2; 8]>,
    radius: Real,
    centroid: Point,
    half_extents: Option<Vec2>,
    angles: Option<Box<NormalAngles>>,
}

/// Edge-normal pseudo-angles in increasing order, for the binary-search support.
#[derive(Clone, Debug, PartialEq)]
struct NormalAngles {
    /// `sorted[j]` is the pseudo-angle of the normal of edge `(first_edge + j) % n`.
    sorted: Vec<Real>,
    /// The edge whose normal has the smallest pseudo-angle.
    first_edge: usize,
}

impl Polygon {
    /// The convex hull of `points`, rounded by `radius`; refused, as
    /// [`Polygon::validate`] would refuse it, when narrower than
    /// [`MIN_SHAPE_SIZE`].
    pub fn from_points(points: &[Point], radius: Real) -> Result<Self, ShapeError> {
        validate_rounding(radius)?;
        let hull = convex_hull(points)?;
        let polygon = Self::from_hull(&hull, radius);
        polygon.validate()?;
        Ok(polygon)
    }

    /// A box of the given half-extents centred on the origin, rounded by `radius`.
    ///
    /// Values are not checked here (see [`Polygon::validate`]); the box keeps its
    /// half-extents so that errors can name them and box pairs can take fast paths.
    pub fn rectangle(half_width: Real, half_height: Real, radius: Real) -> Self {
        let (hx, hy) = (half_width, half_height);
        let vertices = [Point::new(-hx, -hy), Point::new(hx, -hy), Point::new(hx, hy), Point::new(-hx, hy)];
        let normals = [Vec2::new(0.0, -1.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0), Vec2::new(-1.0, 0.0)];
        Self {
            vertices: SmallVec::from_slice(&vertices),
            normals: SmallVec::from_slice(&normals),
            radius,
            centroid: Point::origin(),
            half_extents: Some(Vec2::new(hx, hy)),
            angles: None,
        }
    }

    /// Builds the polygon from a hull that is already convex, counter-clockwise
    /// and free of duplicate and collinear vertices.
    fn from_hull(hull: &[Point], radius: Real) -> Self {
        let n = hull.len();
        let normals: SmallVec<[Vec2; 8]> = (0..n)
            .map(|i| {
                let edge = hull[(i + 1) % n] - hull[i];
                // The hull guarantees edges longer than round-off; the fallback only
                // keeps this total.
                try_normalize(&right_perp(&edge)).unwrap_or_else(|| Vec2::new(1.0, 0.0))
            })
            .collect();
        let mut moments = AreaMoments::default();
        moments.add_polygon(hull.iter().map(|v| v - hull[0]));
        let centroid = moments.into_mass(1.0, &hull[0]).center;
        let angles = (n > POLYGON_LINEAR_SCAN_MAX).then(|| Box::new(NormalAngles::new(&normals)));
        Self { vertices: SmallVec::from_slice(hull), normals, radius, centroid, half_extents: None, angles }
    }

    /// The vertices, counter-clockwise.
    #[inline]
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// The outward unit normal of each edge; edge `i` runs from vertex `i` to `i + 1`.
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        &self.normals
    }

    /// The rounding radius (0 for sharp corners).
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The centroid of the core polygon, local frame.
    #[inline]
    pub fn centroid(&self) -> Point {
        self.centroid
    }

    /// The half-extents, for a polygon made by [`Polygon::rectangle`].
    #[inline]
    pub fn half_extents(&self) -> Option<Vec2> {
        self.half_extents
    }

    /// The largest distance from the local origin to a point of the rounded
    /// polygon.
    pub fn bounding_radius(&self) -> Real {
        self.vertices.iter().map(|v| v.coords.norm()).fold(0.0, Real::max) + self.radius
    }

    /// Checks sizes, coordinates and the rounding radius.
    pub fn validate(&self) -> Result<(), ShapeError> {
        if let Some(h) = self.half_extents {
            let ok = |v: Real| v.is_finite() && v >= MIN_SHAPE_SIZE;
            // A box thinner than round-off of its length is a segment whose
            // two long sides are one line: the hull would refuse its corners
            // as degenerate, and GJK's simplices on it underflow (a box of
            // 1.2e-32 × 0.21 m measured 57 m from a polygon one way, 65 m the other).
            let thin = h.x.min(h.y) < HULL_RELATIVE_TOLERANCE * h.x.max(h.y);
            if !(ok(h.x) && ok(h.y)) || thin {
                return Err(ShapeError::InvalidHalfExtents { half_width: h.x, half_height: h.y });
            }
        }
        validate_rounding(self.radius)?;
        if let Some((index, point)) = self.vertices.iter().enumerate().find(|(_, p)| !is_finite_point(p)) {
            return Err(ShapeError::NonFinitePoint { index, point: *point });
        }
        let (lo, hi) = self
            .vertices
            .iter()
            .fold((self.vertices[0], self.vertices[0]), |(lo, hi), p| (lo.inf(p), hi.sup(p)));
        let size = (hi - lo).min();
        if size < MIN_SHAPE_SIZE {
            return Err(ShapeError::TooSmall { shape: "polygon", size });
        }
        crate::validate::validate_reach("polygon", self.bounding_radius())
    }

    /// Index of the core vertex farthest along `dir` (any vertex for a zero `dir`).
    #[inline]
    pub fn support_index(&self, dir: &Vec2) -> usize {
        match &self.angles {
            None => self.support_index_by_scan(dir),
            Some(angles) => {
                let start = angles.edge_facing(dir, self.vertices.len());
                self.support_index_from(dir, start)
            }
        }
    }

    /// Index of the core vertex farthest along `dir`, by hill climbing from
    /// `hint`. Converges in a step or two when `hint` answered a nearby direction
    /// (warm start); linear in the worst case.
    pub fn support_index_from(&self, dir: &Vec2, hint: usize) -> usize {
        let n = self.vertices.len();
        let dot = |i: usize| self.vertices[i].coords.dot(dir);
        let mut i = hint % n;
        let mut best = dot(i);
        loop {
            let next = if i + 1 == n { 0 } else { i + 1 };
            let prev = if i == 0 { n - 1 } else { i - 1 };
            let (dn, dp) = (dot(next), dot(prev));
            if dn > best {
                (i, best) = (next, dn);
            } else if dp > best {
                (i, best) = (prev, dp);
            } else {
                return i;
            }
        }
    }

    fn support_index_by_scan(&self, dir: &Vec2) -> usize {
        let mut best = 0;
        let mut best_dot = self.vertices[0].coords.dot(dir);
        for (i, v) in self.vertices.iter().enumerate().skip(1) {
            let d = v.coords.dot(dir);
            if d > best_dot {
                best = i;
                best_dot = d;
            }
        }
        best
    }

    /// World-space bounds under `pose`.
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        if let Some(h) = self.half_extents {
            return box_aabb(h, pose).loosened(self.radius);
        }
        let core = match self.angles {
            None => self.bounds_of_vertices(pose),
            Some(_) => {
                // Four support queries instead of n transforms.
                let inv = pose.rotation.inverse();
                let extreme = |world_dir: Vec2| pose * self.vertices[self.support_index(&(inv * world_dir))];
                let (px, nx) = (extreme(Vec2::x()), extreme(-Vec2::x()));
                let (py, ny) = (extreme(Vec2::y()), extreme(-Vec2::y()));
                Aabb::new(Point::new(nx.x, ny.y), Point::new(px.x, py.y))
            }
        };
        core.loosened(self.radius)
    }

    /// [`Polygon::aabb`] by transforming every vertex, as for any polygon
    /// but a box: the oracle of the box's closed form.
    #[doc(hidden)]
    pub fn aabb_of_vertices(&self, pose: &Isometry) -> Aabb {
        self.bounds_of_vertices(pose).loosened(self.radius)
    }

    /// The bounds of the core's vertices, each transformed by `pose`.
    fn bounds_of_vertices(&self, pose: &Isometry) -> Aabb {
        let first = pose * self.vertices[0];
        self.vertices[1..].iter().fold(Aabb::new(first, first), |b, v| b.including(&(pose * v)))
    }

    /// Exact mass properties: the core polygon, plus for a rounded polygon a
    /// rectangle along every edge and a circular sector at every vertex.
    pub fn mass_properties(&self, density: Real) -> MassProperties {
        let origin = self.vertices[0];
        let rel = |p: &Point| p - origin;
        let mut m = AreaMoments::default();
        m.add_polygon(self.vertices.iter().map(rel));
        let r = self.radius;
        if r > 0.0 {
            let n = self.vertices.len();
            for i in 0..n {
                let (a, b) = (rel(&self.vertices[i]), rel(&self.vertices[(i + 1) % n]));
                let offset = self.normals[i] * r;
                m.add_polygon([a, a + offset, b + offset, b].into_iter());
                let prev = self.normals[(i + n - 1) % n];
                let here = self.normals[i];
                let turn = crate::trig::atan2(cross(&prev, &here), prev.dot(&here));
                let bisector = try_normalize(&(prev + here)).unwrap_or(here);
                m.add_sector(&a, r, &bisector, 0.5 * turn);
            }
        }
        m.into_mass(density, &origin)
    }

    /// Ray cast in the local frame.
    pub fn cast_local_ray(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        if self.radius > 0.0 { self.cast_rounded_ray(ray, max_toi) } else { self.cast_core_ray(ray, max_toi) }
    }

    /// Clips the ray against every edge's half-plane (Cyrus–Beck).
    fn cast_core_ray(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        let mut lower: Real = 0.0;
        let mut upper = max_toi;
        let mut entered_through = None;
        for (i, (v, n)) in self.vertices.iter().zip(&self.normals).enumerate() {
            // Inside edge i's half-plane when n·(x - v) <= 0; along the ray that
            // is numerator - t·denominator >= 0.
            let numerator = n.dot(&(v - ray.origin));
            let denominator = n.dot(&ray.dir);
            if denominator == 0.0 {
                if numerator < 0.0 {
                    return None;
                }
            } else if denominator < 0.0 {
                let t = numerator / denominator;
                if t > lower {
                    lower = t;
                    entered_through = Some(i);
                }
            } else {
                upper = upper.min(numerator / denominator);
            }
            if upper < lower {
                return None;
            }
        }
        match entered_through {
            Some(i) => Some(RayHit { toi: lower, normal: self.normals[i] }),
            None => Some(ray.inside_hit()),
        }
    }

    /// A rounded polygon is the union of its core and a capsule around each
    /// edge; from outside, the first hit is the first hit of an edge's offset side
    /// or a corner's disc.
    fn cast_rounded_ray(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        if self.project_local_point(&ray.origin).is_inside {
            return Some(ray.inside_hit());
        }
        let n = self.vertices.len();
        let r = self.radius;
        let mut best = None;
        for i in 0..n {
            let (a, b) = (self.vertices[i], self.vertices[(i + 1) % n]);
            let offset = self.normals[i] * r;
            best = earlier(best, ray_segment_front(ray, &(a + offset), &(b + offset), max_toi));
            best = earlier(best, ray_circle(ray, &a, r, max_toi));
        }
        best
    }

    /// Closest boundary point to `p`, local frame.
    pub fn project_local_point(&self, p: &Point) -> PointProjection {
        let (deepest, separation) = self.max_separation(p);
        if separation <= 0.0 {
            // Inside the core: the nearest side is the least-deep edge, pushed
            // out by the rounding radius.
            let n = self.normals[deepest];
            return PointProjection { point: p + n * (self.radius - separation), is_inside: true };
        }
        let q = self.closest_core_boundary_point(p);
        let d = p - q;
        let dir = try_normalize(&d).unwrap_or(self.normals[deepest]);
        PointProjection {
            point: q + dir * self.radius,
            is_inside: d.norm_squared() <= self.radius * self.radius,
        }
    }

    /// The edge with the largest signed distance `n·(p - v)` to `p`, and that distance.
    fn max_separation(&self, p: &Point) -> (usize, Real) {
        let mut best = (0, Real::NEG_INFINITY);
        for (i, (v, n)) in self.vertices.iter().zip(&self.normals).enumerate() {
            let s = n.dot(&(p - v));
            if s > best.1 {
                best = (i, s);
            }
        }
        best
    }

    fn closest_core_boundary_point(&self, p: &Point) -> Point {
        let n = self.vertices.len();
        let mut best = self.vertices[0];
        let mut best_d2 = Real::INFINITY;
        for i in 0..n {
            let (q, _) = closest_on_segment(&self.vertices[i], &self.vertices[(i + 1) % n], p);
            let d2 = (p - q).norm_squared();
            if d2 < best_d2 {
                best = q;
                best_d2 = d2;
            }
        }
        best
    }
}

impl NormalAngles {
    fn new(normals: &[Vec2]) -> Self {
        let angles: Vec<Real> = normals.iter().map(pseudo_angle).collect();
        let first_edge = angles.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i);
        let sorted = angles[first_edge..].iter().chain(&angles[..first_edge]).copied().collect();
        Self { sorted, first_edge }
    }

    /// The first vertex of the first edge whose normal angle is not below `dir`'s:
    /// the vertex between the two normals that bracket `dir`, i.e. the support vertex
    /// up to round-off.
    fn edge_facing(&self, dir: &Vec2, n: usize) -> usize {
        let q = pseudo_angle(dir);
        let j = self.sorted.partition_point(|&a| a < q);
        (self.first_edge + j) % n
    }
}

impl SupportMap for Polygon {
    #[inline]
    fn support_point(&self, dir: &Vec2) -> Point {
        let v = self.vertices[self.support_index(dir)];
        if self.radius > 0.0 {
            v + try_normalize(dir).unwrap_or_else(|| Vec2::new(1.0, 0.0)) * self.radius
        } else {
            v
        }
    }
}

/// The bounds of a box of half-extents `h` centred on its origin, placed by
/// `pose`: the centre plus or minus `|R| h`. A corner transformed is
/// `(r·x − i·y + tx, i·x + r·y + ty)` with `x = ±hx`, `y = ±hy`, and the
/// products' signs only flip, so the largest is `(|r·hx| + |i·hy|) + tx`
/// rounded exactly as that corner's own arithmetic rounds it (rounding is
/// monotonic): the same box, bit for bit, as the four corners transformed
/// and compared, for a third of the work.
#[inline]
fn box_aabb(h: Vec2, pose: &Isometry) -> Aabb {
    let (r, i) = (pose.rotation.re, pose.rotation.im);
    let reach = Vec2::new((r * h.x).abs() + (i * h.y).abs(), (i * h.x).abs() + (r * h.y).abs());
    let centre = pose.translation.vector;
    Aabb::new(Point::from(centre - reach), Point::from(centre + reach))
}

fn validate_rounding(radius: Real) -> Result<(), ShapeError> {
    if radius.is_finite() && radius >= 0.0 {
        Ok(())
    } else {
        Err(ShapeError::InvalidRoundingRadius { radius })
    }
}

/// What a polygon is written as: its vertices and rounding (and, for a box,
/// its half-extents). Reading one back builds it through the constructors, so
/// that a hand-written polygon is checked and its derived data (normals,
/// centroid) can never disagree with its vertices.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct PolygonData {
    vertices: Vec<Point>,
    #[serde(default)]
    radius: Real,
    // Optional when read (hand-written text may leave it out), always
    // written: a format without field names (the snapshots' postcard) reads
    // fields by position and cannot tell a skipped one from the next.
    #[serde(default)]
    half_extents: Option<Vec2>,
}

#[cfg(feature = "serde")]
impl From<Polygon> for PolygonData {
    fn from(p: Polygon) -> Self {
        Self { vertices: p.vertices.to_vec(), radius: p.radius, half_extents: p.half_extents }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<PolygonData> for Polygon {
    type Error = ShapeError;

    fn try_from(d: PolygonData) -> Result<Self, ShapeError> {
        match d.half_extents {
            Some(h) => {
                let p = Polygon::rectangle(h.x, h.y, d.radius);
                p.validate()?;
                Ok(p)
            }
            None => Polygon::from_points(&d.vertices, d.radius),
        }
    }
}
