//! `lamina2d._lamina`, the compiled half of the Python package `lamina2d`:
//! the world, its bodies, colliders, joints and queries as Python classes,
//! the gameplay calls (explosions, the character mover),
//! bulk state as NumPy arrays, and the native cores of the Gymnasium
//! environments. The pure-Python half (`python/lamina2d/`) re-exports these
//! names and adds the Gymnasium classes.
//!
//! Every call that takes user data validates it and raises
//! `lamina2d.WorldError` (a `ValueError`) naming the bad value, leaving the
//! world as it was; the world steps with the GIL released, on the pool of
//! [`pool`].

// `Real` is f32 here and f64 in an f64 build of the engine: the casts that
// are no-ops in one build are needed in the other.
#![allow(clippy::unnecessary_cast)]

use pyo3::prelude::*;

mod arrays;
mod bodies;
mod colliders;
mod convert;
mod envs;
mod errors;
mod events;
mod gameplay;
mod handles;
mod joints;
mod pool;
mod queries;
mod render;
mod shapes;
mod world;

/// The extension module.
#[pymodule]
fn _lamina(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("WorldError", m.py().get_type::<errors::WorldError>())?;
    m.add_function(wrap_pyfunction!(pool::set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(pool::num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(handles::rebuild, m)?)?;
    m.add_class::<world::PyWorld>()?;
    m.add_class::<handles::PyBody>()?;
    m.add_class::<handles::PyCollider>()?;
    m.add_class::<handles::PyJoint>()?;
    shapes::register(m)?;
    queries::register(m)?;
    events::register(m)?;
    gameplay::register(m)?;
    envs::register(m)?;
    Ok(())
}
