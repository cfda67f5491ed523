//! Python values to the engine's and back: vectors are pairs `(x, y)` of
//! floats, angles radians, every number a Python float (the engine's `Real`).

use lamina2d::prelude::*;
use pyo3::prelude::*;

use crate::errors::world_error;

/// A pair `(x, y)` as Python gives it.
pub type Pair = (f64, f64);

/// The engine's scalar from a Python float, refusing what is not finite
/// there (`name` names the value in the message).
pub fn real(name: &str, value: f64) -> PyResult<Real> {
    let r = value as Real;
    if value.is_finite() && r.is_finite() {
        Ok(r)
    } else {
        Err(world_error(format!("{name} must be a finite number, got {value}")))
    }
}

/// A vector from a pair, refusing non-finite coordinates.
pub fn vec2(name: &str, (x, y): Pair) -> PyResult<Vec2> {
    Ok(Vec2::new(real(&format!("{name}.x"), x)?, real(&format!("{name}.y"), y)?))
}

/// A point from a pair, refusing non-finite coordinates.
pub fn point(name: &str, p: Pair) -> PyResult<Point> {
    Ok(Point::from(vec2(name, p)?))
}

/// A vector as a pair.
pub fn pair(v: Vec2) -> Pair {
    (v.x as f64, v.y as f64)
}

/// A point as a pair.
pub fn point_pair(p: Point) -> Pair {
    (p.x as f64, p.y as f64)
}
