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

/// An integer argument in the range of `T`: out-of-range values (negative
/// bit masks, thread counts past any machine's) raise `WorldError` naming
/// the value, as every bad input does; a value that is no integer at all
/// raises Python's `TypeError`.
pub fn integer<T: TryFrom<i128>>(name: &str, value: &Bound<'_, PyAny>) -> PyResult<T> {
    let out_of_range = || {
        let shown = value.str().map(|s| s.to_string()).unwrap_or_else(|_| "?".to_string());
        world_error(format!("{name} is out of range: {shown}"))
    };
    let wide: i128 = match value.extract() {
        Ok(v) => v,
        Err(_) if value.is_instance_of::<pyo3::types::PyInt>() => return Err(out_of_range()),
        Err(e) => return Err(e),
    };
    T::try_from(wide).map_err(|_| out_of_range())
}
