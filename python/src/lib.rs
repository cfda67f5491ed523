//! `lamina2d._lamina`, the compiled half of the Python package `lamina2d`:
//! the world, its bodies, colliders, joints and queries as Python classes,
//! bulk state as NumPy arrays, and the native cores of the Gymnasium
//! environments. The pure-Python half (`python/lamina2d/`) re-exports these
//! names and adds the Gymnasium classes.
//!
//! Every call that takes user data validates it and raises
//! `lamina2d.WorldError` (a `ValueError`) naming the bad value, leaving the
//! world as it was; the world steps with the GIL released, on the pool of
//! [`pool`].

use pyo3::prelude::*;

mod envs;
mod errors;
mod pool;

/// The extension module.
#[pymodule]
fn _lamina(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("WorldError", m.py().get_type::<errors::WorldError>())?;
    m.add_function(wrap_pyfunction!(pool::set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(pool::num_threads, m)?)?;
    envs::register(m)?;
    Ok(())
}
