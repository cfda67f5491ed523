//! A scene file's shapes: an object whose `kind` says which shape it is, with
//! that shape's sizes, as `{"kind": "circle", "radius": 0.5}`.

use lamina_geometry::{Point, Real, Shape, ShapeError};
use serde::Deserialize;

/// A shape of a scene file, in its collider's frame; points are `[x, y]`, m.
/// Sizes are checked when the collider is added (a radius must be positive,
/// say), polygons when their hull is taken.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SceneShape {
    /// `{"kind": "circle", "radius": r}`: a disc around the origin.
    Circle {
        /// m.
        radius: Real,
    },
    /// `{"kind": "box", "half_width": w, "half_height": h}`: a box centred on
    /// the origin ([`Shape::rectangle`]); also written `"rectangle"`.
    #[serde(rename = "box", alias = "rectangle")]
    Rectangle {
        /// m.
        half_width: Real,
        /// m.
        half_height: Real,
        /// Rounds the corners, adding to the extents, m. Default 0.
        #[serde(default)]
        radius: Real,
    },
    /// `{"kind": "capsule", "p1": [x, y], "p2": [x, y], "radius": r}`: every
    /// point within `radius` of the segment `p1`–`p2`.
    Capsule {
        /// One end of the core segment.
        p1: [Real; 2],
        /// The other end.
        p2: [Real; 2],
        /// m.
        radius: Real,
    },
    /// `{"kind": "segment", "p1": [x, y], "p2": [x, y]}`: a segment, with no area.
    Segment {
        /// One end.
        p1: [Real; 2],
        /// The other end.
        p2: [Real; 2],
    },
    /// `{"kind": "polygon", "points": [[x, y], ...]}`: the convex hull of the
    /// points, given in any order.
    Polygon {
        /// At least three points that span an area.
        points: Vec<[Real; 2]>,
        /// Rounds the hull, adding outside it, m. Default 0.
        #[serde(default)]
        radius: Real,
    },
    /// `{"kind": "ellipse", "rx": a, "ry": b}`: an ellipse around the origin.
    Ellipse {
        /// The semi-axis along x, m.
        rx: Real,
        /// The semi-axis along y, m.
        ry: Real,
    },
}

impl SceneShape {
    /// The engine's shape; only a polygon can fail here, when its points
    /// span no area or are not finite.
    pub fn to_shape(&self) -> Result<Shape, ShapeError> {
        Ok(match *self {
            SceneShape::Circle { radius } => Shape::circle(radius),
            SceneShape::Rectangle { half_width, half_height, radius } => {
                Shape::rounded_rectangle(half_width, half_height, radius)
            }
            SceneShape::Capsule { p1, p2, radius } => Shape::capsule(point(p1), point(p2), radius),
            SceneShape::Segment { p1, p2 } => Shape::segment(point(p1), point(p2)),
            SceneShape::Polygon { ref points, radius } => {
                let points: Vec<Point> = points.iter().copied().map(point).collect();
                Shape::rounded_polygon(&points, radius)?
            }
            SceneShape::Ellipse { rx, ry } => Shape::ellipse(rx, ry),
        })
    }
}

/// The point `[x, y]`.
pub(super) fn point([x, y]: [Real; 2]) -> Point {
    Point::new(x, y)
}
