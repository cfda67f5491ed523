//! Pickling handles: a `Body`, `Collider` or `Joint` pickles as its world
//! and its key's bits, so that a structure holding a world and handles to
//! its parts (an environment, a scene) pickles and deep-copies whole, the
//! handles naming the same parts of the copied world (a copy keeps its keys).

use pyo3::prelude::*;
use slotmap::{Key, KeyData};

use crate::bodies::PyBody;
use crate::colliders::PyCollider;
use crate::errors::world_error;
use crate::joints::PyJoint;
use crate::world::PyWorld;

/// The arguments `__reduce__` gives pickle for a handle.
pub type Reduced = (Py<PyAny>, (&'static str, Py<PyWorld>, u64));

/// The reduction of a handle of `kind` to `world` and `key`.
pub fn reduce(py: Python<'_>, kind: &'static str, world: &Py<PyWorld>, key: impl Key) -> PyResult<Reduced> {
    let rebuild = py.import("lamina2d._lamina")?.getattr("_handle")?.unbind();
    Ok((rebuild, (kind, world.clone_ref(py), key.data().as_ffi())))
}

/// Rebuilds a pickled handle.
#[pyfunction]
#[pyo3(name = "_handle")]
pub fn rebuild(py: Python<'_>, kind: &str, world: Py<PyWorld>, bits: u64) -> PyResult<Py<PyAny>> {
    let data = KeyData::from_ffi(bits);
    Ok(match kind {
        "body" => Py::new(py, PyBody { world, key: data.into() })?.into_any(),
        "collider" => Py::new(py, PyCollider { world, key: data.into() })?.into_any(),
        "joint" => Py::new(py, PyJoint { world, key: data.into() })?.into_any(),
        _ => return Err(world_error(format!("no handle of kind {kind:?}"))),
    })
}
