//! [`Shape`]: the closed set of Lamina's built-in shapes, and the queries every
//! shape answers, dispatched by an exhaustive match.

use crate::aabb::Aabb;
use crate::error::ShapeError;
use crate::mass::MassProperties;
use crate::math::{Isometry, Point, Real, Vec2};
use crate::point_query::PointProjection;
use crate::ray::{Ray, RayHit};
use crate::shapes::{
    capsule::Capsule, chain_segment::ChainSegment, circle::Circle, ellipse::Ellipse, polygon::Polygon,
    segment::Segment,
};
use crate::support::SupportMap;

/// A collision shape in its local frame.
///
/// The simple constructors ([`Shape::circle`], [`Shape::rectangle`], ...) never
/// fail and do not check their arguments, so that building scenes stays terse;
/// [`Shape::validate`] checks them, and the world calls it when a collider is added.
/// [`Shape::polygon`] must compute a hull anyway, so it checks and returns a `Result`.
// Polygons are stored inline on purpose: a box's vertices and normals sit next to
// the rest of the collider instead of behind a pointer the narrow phase must chase.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Shape {
    /// A disc around the origin.
    Circle(Circle),
    /// A segment thickened by a radius.
    Capsule(Capsule),
    /// A segment (no area, no mass).
    Segment(Segment),
    /// A convex polygon, possibly rounded; boxes are polygons too.
    Polygon(Polygon),
    /// An axis-aligned ellipse around the origin.
    Ellipse(Ellipse),
    /// A one-sided segment of a chain, which knows its neighbours (no area,
    /// no mass); the world builds these from a chain description.
    ChainSegment(ChainSegment),
}

/// Calls the same method on whichever shape `self` holds.
macro_rules! dispatch {
    ($self:expr, $s:ident => $call:expr) => {
        match $self {
            Shape::Circle($s) => $call,
            Shape::Capsule($s) => $call,
            Shape::Segment($s) => $call,
            Shape::Polygon($s) => $call,
            Shape::Ellipse($s) => $call,
            Shape::ChainSegment($s) => $call,
        }
    };
}

impl Shape {
    /// A disc of `radius` around the local origin.
    pub fn circle(radius: Real) -> Shape {
        Shape::Circle(Circle { radius })
    }

    /// A box of the given half-extents centred on the local origin.
    pub fn rectangle(half_width: Real, half_height: Real) -> Shape {
        Shape::Polygon(Polygon::rectangle(half_width, half_height, 0.0))
    }

    /// A box of the given half-extents whose corners are rounded by `radius`
    /// (the rounding adds to the extents).
    pub fn rounded_rectangle(half_width: Real, half_height: Real, radius: Real) -> Shape {
        Shape::Polygon(Polygon::rectangle(half_width, half_height, radius))
    }

    /// All points within `radius` of the segment `p1`–`p2`.
    pub fn capsule(p1: Point, p2: Point, radius: Real) -> Shape {
        Shape::Capsule(Capsule { a: p1, b: p2, radius })
    }

    /// The segment from `p1` to `p2`.
    pub fn segment(p1: Point, p2: Point) -> Shape {
        Shape::Segment(Segment { a: p1, b: p2 })
    }

    /// The link `p1`–`p2` of a chain whose neighbouring points are `prev`
    /// (before `p1`) and `next` (after `p2`), `None` at an open end: solid on
    /// its right side only, looking from `p1` to `p2`.
    pub fn chain_segment(p1: Point, p2: Point, prev: Option<Point>, next: Option<Point>) -> Shape {
        Shape::ChainSegment(ChainSegment {
            segment: Segment { a: p1, b: p2 },
            ghost_prev: prev,
            ghost_next: next,
        })
    }

    /// The convex hull of `points`, given in any order and any number.
    ///
    /// Fails for non-finite coordinates and for points that span no area (fewer
    /// than three distinct, non-collinear points).
    pub fn polygon(points: &[Point]) -> Result<Shape, ShapeError> {
        Polygon::from_points(points, 0.0).map(Shape::Polygon)
    }

    /// The convex hull of `points`, rounded by `radius` (added outside the hull).
    pub fn rounded_polygon(points: &[Point], radius: Real) -> Result<Shape, ShapeError> {
        Polygon::from_points(points, radius).map(Shape::Polygon)
    }

    /// The ellipse with semi-axes `rx` (local x) and `ry` (local y).
    pub fn ellipse(rx: Real, ry: Real) -> Shape {
        Shape::Ellipse(Ellipse { rx, ry })
    }

    /// A short lowercase name of the shape's kind, for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Shape::Circle(_) => "circle",
            Shape::Capsule(_) => "capsule",
            Shape::Segment(_) => "segment",
            Shape::Polygon(_) => "polygon",
            Shape::Ellipse(_) => "ellipse",
            Shape::ChainSegment(_) => "chain segment",
        }
    }

    /// Checks every size and coordinate: finite radii and extents between
    /// [`MIN_SHAPE_SIZE`](crate::tolerance::MIN_SHAPE_SIZE) and
    /// [`MAX_SHAPE_SIZE`](crate::tolerance::MAX_SHAPE_SIZE), distinct end points.
    pub fn validate(&self) -> Result<(), ShapeError> {
        dispatch!(self, s => s.validate())?;
        crate::validate::validate_reach(self.kind_name(), self.local_bounding_radius())
    }

    /// The radius by which the shape rounds its core (a point, a segment or a
    /// polygon); 0 for shapes with no core, the segment and the ellipse.
    pub fn rounding_radius(&self) -> Real {
        match self {
            Shape::Circle(c) => c.radius,
            Shape::Capsule(c) => c.radius,
            Shape::Polygon(p) => p.radius(),
            Shape::Segment(_) | Shape::Ellipse(_) | Shape::ChainSegment(_) => 0.0,
        }
    }

    /// The largest distance from the local origin to a point of the shape: how
    /// far any point can travel when the shape turns about its origin.
    pub fn local_bounding_radius(&self) -> Real {
        match self {
            Shape::Circle(c) => c.radius,
            Shape::Capsule(c) => c.a.coords.norm().max(c.b.coords.norm()) + c.radius,
            Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
                s.a.coords.norm().max(s.b.coords.norm())
            }
            Shape::Polygon(p) => p.bounding_radius(),
            Shape::Ellipse(e) => e.rx.max(e.ry),
        }
    }

    /// The shape's centroid (centre of area; the midpoint of a segment), local frame.
    pub fn centroid(&self) -> Point {
        match self {
            Shape::Circle(_) | Shape::Ellipse(_) => Point::origin(),
            Shape::Capsule(c) => nalgebra::center(&c.a, &c.b),
            Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
                nalgebra::center(&s.a, &s.b)
            }
            Shape::Polygon(p) => p.centroid(),
        }
    }

    /// The distance from the centroid to the nearest point of the boundary:
    /// how far the shape can move in one step, in any direction, before a
    /// thin obstacle could pass through its middle unseen. 0 for a segment,
    /// which has no inside. Continuous collision uses it to decide which
    /// bodies move fast enough to be swept.
    pub fn inner_radius(&self) -> Real {
        match self {
            Shape::Circle(c) => c.radius,
            Shape::Capsule(c) => c.radius,
            Shape::Segment(_) | Shape::ChainSegment(_) => 0.0,
            Shape::Ellipse(e) => e.rx.min(e.ry),
            Shape::Polygon(p) => {
                let c = p.centroid();
                let offsets = p.vertices().iter().zip(p.normals()).map(|(v, n)| n.dot(&(v - c)));
                offsets.fold(Real::INFINITY, Real::min).max(0.0) + p.radius()
            }
        }
    }

    /// The length of the shape's shadow on a line along `line` (local
    /// frame), scaled by `line`'s length: the width of the shape measured
    /// along that line, its radius included. A blast or a flow coming from
    /// across the line (along its perpendicular) meets this much of the
    /// shape: a box 2 m wide and 1 m high seen from the side (`line` = y)
    /// is 1 m, a circle `2 r` from everywhere, a capsule the projection of
    /// its core plus `2 r`, a segment the projection of its two points.
    /// Explosions scale their impulse by it, as Box2D's
    /// `b2GetShapeProjectedPerimeter` does.
    pub fn projected_perimeter(&self, line: &Vec2) -> Real {
        let scale = line.norm();
        match self {
            Shape::Circle(c) => 2.0 * c.radius * scale,
            Shape::Capsule(c) => (c.b - c.a).dot(line).abs() + 2.0 * c.radius * scale,
            Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
                (s.b - s.a).dot(line).abs()
            }
            Shape::Polygon(p) => {
                let (lower, upper) =
                    p.vertices().iter().fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), v| {
                        let d = v.coords.dot(line);
                        (lo.min(d), hi.max(d))
                    });
                (upper - lower).max(0.0) + 2.0 * p.radius() * scale
            }
            // The support of an ellipse along `u` reaches
            // `sqrt(rx² ux² + ry² uy²)`: the shadow is twice that.
            Shape::Ellipse(e) => 2.0 * ((e.rx * line.x).powi(2) + (e.ry * line.y).powi(2)).sqrt(),
        }
    }

    /// The world-space bounding box of the shape placed at `pose`.
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        dispatch!(self, s => s.aabb(pose))
    }

    /// Mass, local centre of mass and inertia about it, for `density` in kg/m².
    pub fn mass_properties(&self, density: Real) -> MassProperties {
        dispatch!(self, s => s.mass_properties(density))
    }

    /// The first hit of `ray` (world frame) on the shape placed at `pose`, with
    /// `toi <= max_toi`. Non-finite rays and rays of zero direction never hit.
    pub fn cast_ray(&self, pose: &Isometry, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        if !ray.is_castable() {
            return None;
        }
        let local =
            Ray::new(pose.inverse_transform_point(&ray.origin), pose.inverse_transform_vector(&ray.dir));
        let hit = self.cast_local_ray(&local, max_toi)?;
        Some(RayHit { toi: hit.toi, normal: pose.rotation * hit.normal })
    }

    /// [`Shape::cast_ray`] with the ray given in the shape's local frame.
    pub fn cast_local_ray(&self, ray: &Ray, max_toi: Real) -> Option<RayHit> {
        if !ray.is_castable() || max_toi.is_nan() || max_toi < 0.0 {
            return None;
        }
        dispatch!(self, s => s.cast_local_ray(ray, max_toi))
    }

    /// The point of the shape's boundary closest to `point` (world frame), and
    /// whether `point` is inside.
    pub fn project_point(&self, pose: &Isometry, point: &Point) -> PointProjection {
        let local = self.project_local_point(&pose.inverse_transform_point(point));
        PointProjection { point: pose * local.point, is_inside: local.is_inside }
    }

    /// [`Shape::project_point`] in the shape's local frame.
    pub fn project_local_point(&self, point: &Point) -> PointProjection {
        dispatch!(self, s => s.project_local_point(point))
    }

    /// True when `point` (world frame) lies inside the shape or on its boundary.
    pub fn contains_point(&self, pose: &Isometry, point: &Point) -> bool {
        self.project_point(pose, point).is_inside
    }

    /// The distance from `point` (world frame) to the shape: 0 inside.
    pub fn distance_to_point(&self, pose: &Isometry, point: &Point) -> Real {
        let proj = self.project_point(pose, point);
        if proj.is_inside { 0.0 } else { (proj.point - point).norm() }
    }
}

impl SupportMap for Shape {
    #[inline]
    fn support_point(&self, dir: &Vec2) -> Point {
        dispatch!(self, s => s.support_point(dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Real, b: Real) -> bool {
        (a - b).abs() <= 1.0e-5 * (1.0 + b.abs())
    }

    #[test]
    fn projected_perimeter_of_a_box_is_its_width_across_the_line() {
        // A box 2 m wide, 1 m high: seen along y (blast from the side) its
        // height shows, along x its width, along the diagonal (1, 1)/√2 the
        // corners' spread (1 + 0.5)·√2 on each side: 3/√2.
        let b = Shape::rectangle(1.0, 0.5);
        assert!(close(b.projected_perimeter(&Vec2::y()), 1.0));
        assert!(close(b.projected_perimeter(&Vec2::x()), 2.0));
        let d = Vec2::new(1.0, 1.0).normalize();
        assert!(close(b.projected_perimeter(&d), 3.0 / (2.0 as Real).sqrt()));
        // A rounded box is wider by twice its radius everywhere.
        let r = Shape::rounded_rectangle(1.0, 0.5, 0.25);
        assert!(close(r.projected_perimeter(&Vec2::y()), 1.5));
    }

    #[test]
    fn projected_perimeter_of_round_shapes() {
        let c = Shape::circle(0.4);
        assert!(close(c.projected_perimeter(&Vec2::x()), 0.8));
        assert!(close(c.projected_perimeter(&Vec2::new(0.6, 0.8)), 0.8));
        // A capsule along x, core 2 m, radius 0.5: 3 m along x, 1 m along y,
        // 2·0.6 + 1 along (0.6, 0.8).
        let k = Shape::capsule(Point::new(-1.0, 0.0), Point::new(1.0, 0.0), 0.5);
        assert!(close(k.projected_perimeter(&Vec2::x()), 3.0));
        assert!(close(k.projected_perimeter(&Vec2::y()), 1.0));
        assert!(close(k.projected_perimeter(&Vec2::new(0.6, 0.8)), 2.2));
        // An ellipse 2 × 1 (semi-axes): 4 along x, 2 along y, and along
        // (0.6, 0.8) twice √(2²·0.36 + 1²·0.64) = 2·√2.08.
        let e = Shape::ellipse(2.0, 1.0);
        assert!(close(e.projected_perimeter(&Vec2::x()), 4.0));
        assert!(close(e.projected_perimeter(&Vec2::y()), 2.0));
        assert!(close(e.projected_perimeter(&Vec2::new(0.6, 0.8)), 2.0 * (2.08 as Real).sqrt()));
    }

    #[test]
    fn projected_perimeter_of_segments() {
        // A segment from (0, 0) to (3, 4): 3 along x, 4 along y, 0 across
        // itself, 5 along itself; a chain segment the same.
        let s = Shape::segment(Point::origin(), Point::new(3.0, 4.0));
        assert!(close(s.projected_perimeter(&Vec2::x()), 3.0));
        assert!(close(s.projected_perimeter(&Vec2::y()), 4.0));
        assert!(close(s.projected_perimeter(&Vec2::new(0.8, -0.6)), 0.0));
        assert!(close(s.projected_perimeter(&Vec2::new(0.6, 0.8)), 5.0));
        let c = Shape::chain_segment(Point::origin(), Point::new(3.0, 4.0), None, None);
        assert!(close(c.projected_perimeter(&Vec2::y()), 4.0));
    }

    #[test]
    fn projected_perimeter_of_a_triangle() {
        // Vertices (0, 0), (2, 0), (0, 1): along x it spans 2, along y 1,
        // along (1, 1)/√2 from 0 to 2/√2.
        let t = Shape::polygon(&[Point::origin(), Point::new(2.0, 0.0), Point::new(0.0, 1.0)]).unwrap();
        assert!(close(t.projected_perimeter(&Vec2::x()), 2.0));
        assert!(close(t.projected_perimeter(&Vec2::y()), 1.0));
        let d = Vec2::new(1.0, 1.0).normalize();
        assert!(close(t.projected_perimeter(&d), 2.0 / (2.0 as Real).sqrt()));
    }
}
