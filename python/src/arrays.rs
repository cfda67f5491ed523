//! Bulk state as NumPy arrays, without a Python loop: the positions, angles
//! and velocities of every body (in key order, the order of
//! `World.bodies()`) or of a given list of bodies, and setters that take
//! arrays. Arrays hold the engine's scalar (`float32`, or `float64` in an
//! f64 build), so that reading them loses nothing.

use lamina2d::prelude::*;
use numpy::ndarray::{Array1, Array2};
use numpy::ndarray::{ArrayView2, Axis, Ix1, Ix2};
use numpy::{AllowTypeChange, IntoPyArray, PyArray1, PyArray2, PyArrayLikeDyn};
use pyo3::prelude::*;

use crate::errors::{from_engine, world_error};
use crate::handles::PyBody;
use crate::world::PyWorld;

/// The largest coordinate a position setter takes, m: far beyond any scene
/// the engine is tuned for, and small enough that a body's bounds there stay
/// finite, so that a setter checked value by value cannot fail half-way.
const MAX_COORDINATE: f64 = 1e18;

/// The keys of `bodies`, or of every body in key order.
fn keys_of(slf: &Bound<'_, PyWorld>, bodies: Option<Vec<PyRef<'_, PyBody>>>) -> PyResult<Vec<BodyKey>> {
    match bodies {
        Some(list) => list.iter().map(|b| PyBody::key_in(slf, b)).collect(),
        None => Ok(slf.borrow().world.bodies().map(|(k, _)| k).collect()),
    }
}

/// Checks that `values` has `rows` rows of `columns` finite numbers, each
/// within `limit` in magnitude, naming the first bad one.
fn check(
    name: &str,
    values: &numpy::ndarray::ArrayView2<'_, f64>,
    rows: usize,
    columns: usize,
    limit: f64,
) -> PyResult<()> {
    if values.dim() != (rows, columns) {
        return Err(world_error(format!(
            "{name} must have shape ({rows}, {columns}), got {:?}",
            values.shape()
        )));
    }
    for ((i, j), &v) in values.indexed_iter() {
        if !v.is_finite() || v.abs() > limit {
            return Err(world_error(format!(
                "{name}[{i}, {j}] must be finite and at most {limit:e} in size, got {v}"
            )));
        }
    }
    Ok(())
}

/// The array as two-dimensional, or an error naming the shape it should have.
fn two_dimensional<'a>(
    name: &str,
    values: &'a PyArrayLikeDyn<'_, f64, AllowTypeChange>,
    rows: usize,
    columns: usize,
) -> PyResult<ArrayView2<'a, f64>> {
    let view = values.as_array();
    let shape = view.shape().to_vec();
    view.into_dimensionality::<Ix2>()
        .map_err(|_| world_error(format!("{name} must have shape ({rows}, {columns}), got {shape:?}")))
}

#[pymethods]
impl PyWorld {
    /// The bodies' origins, an `(n, 2)` array.
    #[pyo3(signature = (bodies=None))]
    fn positions<'py>(
        slf: &Bound<'py, Self>,
        bodies: Option<Vec<PyRef<'py, PyBody>>>,
    ) -> PyResult<Bound<'py, PyArray2<Real>>> {
        let keys = keys_of(slf, bodies)?;
        let this = slf.borrow();
        let mut out = Array2::<Real>::zeros((keys.len(), 2));
        for (mut row, key) in out.rows_mut().into_iter().zip(&keys) {
            let t = this.world.body(*key).expect("checked above").translation();
            (row[0], row[1]) = (t.x, t.y);
        }
        Ok(out.into_pyarray(slf.py()))
    }

    /// The bodies' angles, an `(n,)` array, radians.
    #[pyo3(signature = (bodies=None))]
    fn angles<'py>(
        slf: &Bound<'py, Self>,
        bodies: Option<Vec<PyRef<'py, PyBody>>>,
    ) -> PyResult<Bound<'py, PyArray1<Real>>> {
        let keys = keys_of(slf, bodies)?;
        let this = slf.borrow();
        let out: Array1<Real> =
            keys.iter().map(|k| this.world.body(*k).expect("checked above").angle()).collect();
        Ok(out.into_pyarray(slf.py()))
    }

    /// The bodies' velocities, an `(n, 3)` array of `(vx, vy, angular)`:
    /// the centre of mass's m/s and rad/s.
    #[pyo3(signature = (bodies=None))]
    fn velocities<'py>(
        slf: &Bound<'py, Self>,
        bodies: Option<Vec<PyRef<'py, PyBody>>>,
    ) -> PyResult<Bound<'py, PyArray2<Real>>> {
        let keys = keys_of(slf, bodies)?;
        let this = slf.borrow();
        let mut out = Array2::<Real>::zeros((keys.len(), 3));
        for (mut row, key) in out.rows_mut().into_iter().zip(&keys) {
            let b = this.world.body(*key).expect("checked above");
            let v = b.linear_velocity();
            (row[0], row[1], row[2]) = (v.x, v.y, b.angular_velocity());
        }
        Ok(out.into_pyarray(slf.py()))
    }

    /// Moves the bodies' origins to the rows of an `(n, 2)` array at once
    /// (keeping their angles), and wakes them. Every value is checked before
    /// any body moves.
    #[pyo3(signature = (positions, bodies=None))]
    fn set_positions<'py>(
        slf: &Bound<'py, Self>,
        positions: PyArrayLikeDyn<'py, f64, AllowTypeChange>,
        bodies: Option<Vec<PyRef<'py, PyBody>>>,
    ) -> PyResult<()> {
        let keys = keys_of(slf, bodies)?;
        let values = two_dimensional("positions", &positions, keys.len(), 2)?;
        check("positions", &values, keys.len(), 2, MAX_COORDINATE)?;
        let mut this = slf.borrow_mut();
        for (row, key) in values.rows().into_iter().zip(&keys) {
            let rotation = this.world.body(*key).expect("checked above").rotation();
            let pose = Isometry::from_parts(Vec2::new(row[0] as Real, row[1] as Real).into(), rotation);
            this.world.set_body_position(*key, pose).map_err(from_engine)?;
        }
        Ok(())
    }

    /// Turns the bodies to the angles of an `(n,)` array at once (keeping
    /// their origins), and wakes them.
    #[pyo3(signature = (angles, bodies=None))]
    fn set_angles<'py>(
        slf: &Bound<'py, Self>,
        angles: PyArrayLikeDyn<'py, f64, AllowTypeChange>,
        bodies: Option<Vec<PyRef<'py, PyBody>>>,
    ) -> PyResult<()> {
        let keys = keys_of(slf, bodies)?;
        let values = angles.as_array().into_dimensionality::<Ix1>().map_err(|_| {
            world_error(format!(
                "angles must have shape ({},), got {:?}",
                keys.len(),
                angles.as_array().shape()
            ))
        })?;
        if values.len() != keys.len() {
            return Err(world_error(format!(
                "angles must have shape ({},), got ({},)",
                keys.len(),
                values.len()
            )));
        }
        check("angles", &values.view().insert_axis(Axis(1)), keys.len(), 1, f64::from(Real::MAX))?;
        let mut this = slf.borrow_mut();
        for (&angle, key) in values.iter().zip(&keys) {
            let t = this.world.body(*key).expect("checked above").translation();
            this.world.set_body_position(*key, Isometry::new(t, angle as Real)).map_err(from_engine)?;
        }
        Ok(())
    }

    /// Sets the bodies' velocities from the rows `(vx, vy, angular)` of an
    /// `(n, 3)` array, and wakes them. Fixed bodies keep theirs at zero.
    #[pyo3(signature = (velocities, bodies=None))]
    fn set_velocities<'py>(
        slf: &Bound<'py, Self>,
        velocities: PyArrayLikeDyn<'py, f64, AllowTypeChange>,
        bodies: Option<Vec<PyRef<'py, PyBody>>>,
    ) -> PyResult<()> {
        let keys = keys_of(slf, bodies)?;
        let values = two_dimensional("velocities", &velocities, keys.len(), 3)?;
        check("velocities", &values, keys.len(), 3, f64::from(Real::MAX))?;
        let mut this = slf.borrow_mut();
        for (row, key) in values.rows().into_iter().zip(&keys) {
            let body = this.world.body_mut(*key).expect("checked above");
            body.set_linear_velocity(Vec2::new(row[0] as Real, row[1] as Real)).map_err(from_engine)?;
            body.set_angular_velocity(row[2] as Real).map_err(from_engine)?;
            this.world.wake_body(*key);
        }
        Ok(())
    }
}
