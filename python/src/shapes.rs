//! The shapes: `Circle`, `Box`, `Polygon`, `Capsule`, `Segment` and `Ellipse`,
//! each a subclass of `Shape`, which holds the engine's shape. A shape is a
//! value: it is copied into each collider made of it.

use lamina2d::prelude::*;
use pyo3::prelude::*;

use crate::convert::{Pair, pair, point, point_pair, real};
use crate::errors::world_error;

/// A collision shape, in its own frame. Use a subclass to make one.
#[pyclass(module = "lamina2d", name = "Shape", subclass, frozen)]
pub struct PyShape {
    pub shape: Shape,
}

impl PyShape {
    /// A checked shape: sizes finite and in range, as a collider needs.
    fn checked(shape: Shape) -> PyResult<Self> {
        shape.validate().map_err(|e| world_error(e.to_string()))?;
        Ok(Self { shape })
    }

    /// The Python object of the right subclass for an engine shape.
    pub fn wrap(py: Python<'_>, shape: Shape) -> PyResult<Py<PyAny>> {
        let base = PyShape { shape: shape.clone() };
        let object = match shape {
            Shape::Circle(_) => {
                Py::new(py, PyClassInitializer::from(base).add_subclass(PyCircle))?.into_any()
            }
            Shape::Capsule(_) => {
                Py::new(py, PyClassInitializer::from(base).add_subclass(PyCapsule))?.into_any()
            }
            Shape::Segment(_) | Shape::ChainSegment(_) => {
                Py::new(py, PyClassInitializer::from(base).add_subclass(PySegment))?.into_any()
            }
            Shape::Ellipse(_) => {
                Py::new(py, PyClassInitializer::from(base).add_subclass(PyEllipse))?.into_any()
            }
            Shape::Polygon(ref p) if p.half_extents().is_some() => {
                Py::new(py, PyClassInitializer::from(base).add_subclass(PyBox))?.into_any()
            }
            Shape::Polygon(_) => {
                Py::new(py, PyClassInitializer::from(base).add_subclass(PyPolygon))?.into_any()
            }
        };
        Ok(object)
    }
}

#[pymethods]
impl PyShape {
    /// The shape's area, m² (0 for a segment).
    #[getter]
    fn area(&self) -> f64 {
        self.shape.mass_properties(1.0).mass as f64
    }

    /// Mass, centre of mass (local) and rotational inertia about it at `density` kg/m².
    fn mass_properties(&self, density: f64) -> PyResult<(f64, Pair, f64)> {
        let density = real("density", density)?;
        if density < 0.0 {
            return Err(world_error(format!("density must not be negative, got {density}")));
        }
        let m = self.shape.mass_properties(density);
        Ok((m.mass as f64, point_pair(m.center), m.inertia as f64))
    }

    /// The shape's bounds `(lower, upper)` when placed at `position` turned by `angle`.
    #[pyo3(signature = (position=(0.0, 0.0), angle=0.0))]
    fn bounds(&self, position: Pair, angle: f64) -> PyResult<(Pair, Pair)> {
        let pose = Isometry::new(crate::convert::vec2("position", position)?, real("angle", angle)?);
        let aabb = self.shape.aabb(&pose);
        Ok((point_pair(aabb.mins), point_pair(aabb.maxs)))
    }

    /// True when the shape, at `position` turned by `angle`, contains `point`.
    #[pyo3(signature = (point, position=(0.0, 0.0), angle=0.0))]
    fn contains(&self, point: Pair, position: Pair, angle: f64) -> PyResult<bool> {
        let pose = Isometry::new(crate::convert::vec2("position", position)?, real("angle", angle)?);
        Ok(self.shape.contains_point(&pose, &crate::convert::point("point", point)?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyShape>().is_ok_and(|o| o.get().shape == self.shape)
    }

    fn __repr__(&self) -> String {
        describe(&self.shape)
    }
}

/// A shape as the Python call that makes it.
fn describe(shape: &Shape) -> String {
    let p = |v: Point| format!("({}, {})", v.x, v.y);
    match shape {
        Shape::Circle(c) => format!("Circle({})", c.radius),
        Shape::Capsule(c) => format!("Capsule({}, {}, {})", p(c.a), p(c.b), c.radius),
        Shape::Segment(s) => format!("Segment({}, {})", p(s.a), p(s.b)),
        Shape::ChainSegment(s) => format!("Segment({}, {})", p(s.segment.a), p(s.segment.b)),
        Shape::Ellipse(e) => format!("Ellipse({}, {})", e.rx, e.ry),
        Shape::Polygon(poly) => match poly.half_extents() {
            Some(h) if poly.radius() == 0.0 => format!("Box({}, {})", h.x, h.y),
            Some(h) => format!("Box({}, {}, radius={})", h.x, h.y, poly.radius()),
            None => {
                let points: Vec<String> = poly.vertices().iter().map(|v| p(*v)).collect();
                format!("Polygon([{}], radius={})", points.join(", "), poly.radius())
            }
        },
    }
}

/// A disc of `radius` metres about the local origin.
#[pyclass(module = "lamina2d", name = "Circle", extends = PyShape, frozen)]
pub struct PyCircle;

#[pymethods]
impl PyCircle {
    #[new]
    fn new(radius: f64) -> PyResult<(Self, PyShape)> {
        Ok((Self, PyShape::checked(Shape::circle(real("radius", radius)?))?))
    }

    /// The radius, m.
    #[getter]
    fn radius(self_: PyRef<'_, Self>) -> f64 {
        match &self_.as_super().shape {
            Shape::Circle(c) => c.radius as f64,
            _ => unreachable!("a Circle holds a circle"),
        }
    }
}

/// A box of half-extents `half_width` × `half_height` metres centred on the
/// local origin, its corners rounded by `radius` (which adds to the extents).
#[pyclass(module = "lamina2d", name = "Box", extends = PyShape, frozen)]
pub struct PyBox;

#[pymethods]
impl PyBox {
    #[new]
    #[pyo3(signature = (half_width, half_height, radius=0.0))]
    fn new(half_width: f64, half_height: f64, radius: f64) -> PyResult<(Self, PyShape)> {
        let (w, h) = (real("half_width", half_width)?, real("half_height", half_height)?);
        let radius = real("radius", radius)?;
        let shape =
            if radius == 0.0 { Shape::rectangle(w, h) } else { Shape::rounded_rectangle(w, h, radius) };
        Ok((Self, PyShape::checked(shape)?))
    }

    /// The half-extents `(half_width, half_height)`, m.
    #[getter]
    fn half_extents(self_: PyRef<'_, Self>) -> Pair {
        match &self_.as_super().shape {
            Shape::Polygon(p) => pair(p.half_extents().expect("a Box holds a box")),
            _ => unreachable!("a Box holds a polygon"),
        }
    }
}

/// The convex hull of `points` (any order, at least three not on one line),
/// rounded by `radius`.
#[pyclass(module = "lamina2d", name = "Polygon", extends = PyShape, frozen)]
pub struct PyPolygon;

#[pymethods]
impl PyPolygon {
    #[new]
    #[pyo3(signature = (points, radius=0.0))]
    fn new(points: Vec<Pair>, radius: f64) -> PyResult<(Self, PyShape)> {
        let points: Vec<Point> = points
            .iter()
            .enumerate()
            .map(|(i, &p)| point(&format!("points[{i}]"), p))
            .collect::<PyResult<_>>()?;
        let radius = real("radius", radius)?;
        let shape =
            if radius == 0.0 { Shape::polygon(&points) } else { Shape::rounded_polygon(&points, radius) };
        let shape = shape.map_err(|e| world_error(e.to_string()))?;
        Ok((Self, PyShape::checked(shape)?))
    }

    /// The hull's vertices, counter-clockwise.
    #[getter]
    fn vertices(self_: PyRef<'_, Self>) -> Vec<Pair> {
        vertices_of(&self_.as_super().shape)
    }
}

fn vertices_of(shape: &Shape) -> Vec<Pair> {
    match shape {
        Shape::Polygon(p) => p.vertices().iter().map(|v| point_pair(*v)).collect(),
        _ => Vec::new(),
    }
}

/// All points within `radius` of the segment from `p1` to `p2`.
#[pyclass(module = "lamina2d", name = "Capsule", extends = PyShape, frozen)]
pub struct PyCapsule;

#[pymethods]
impl PyCapsule {
    #[new]
    fn new(p1: Pair, p2: Pair, radius: f64) -> PyResult<(Self, PyShape)> {
        let shape = Shape::capsule(point("p1", p1)?, point("p2", p2)?, real("radius", radius)?);
        Ok((Self, PyShape::checked(shape)?))
    }
}

/// The segment from `p1` to `p2`: no area and no mass, for fixed ground.
#[pyclass(module = "lamina2d", name = "Segment", extends = PyShape, frozen)]
pub struct PySegment;

#[pymethods]
impl PySegment {
    #[new]
    fn new(p1: Pair, p2: Pair) -> PyResult<(Self, PyShape)> {
        Ok((Self, PyShape::checked(Shape::segment(point("p1", p1)?, point("p2", p2)?))?))
    }
}

/// The ellipse of semi-axes `rx` (local x) and `ry` (local y).
#[pyclass(module = "lamina2d", name = "Ellipse", extends = PyShape, frozen)]
pub struct PyEllipse;

#[pymethods]
impl PyEllipse {
    #[new]
    fn new(rx: f64, ry: f64) -> PyResult<(Self, PyShape)> {
        Ok((Self, PyShape::checked(Shape::ellipse(real("rx", rx)?, real("ry", ry)?))?))
    }
}

/// Adds the shape classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyShape>()?;
    m.add_class::<PyCircle>()?;
    m.add_class::<PyBox>()?;
    m.add_class::<PyPolygon>()?;
    m.add_class::<PyCapsule>()?;
    m.add_class::<PySegment>()?;
    m.add_class::<PyEllipse>()?;
    Ok(())
}
