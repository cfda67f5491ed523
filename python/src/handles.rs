//! The handles `Body`, `Collider` and `Joint`: each a world and a key, with
//! the borrows of the world they read and change through, their hash, and
//! their pickling. A handle pickles as its world and its key's bits (the
//! slot, the version and the world's tag, which the world's own pickle
//! keeps), so that
//! a structure holding a world and handles to its parts (an environment, a
//! scene) pickles and deep-copies whole, the handles naming the same parts
//! of the copied world (a copy keeps its keys). Their methods are in
//! `bodies.rs`, `colliders.rs` and `joints.rs`.

use lamina2d::prelude::*;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use slotmap::KeyData;

use crate::errors::world_error;
use crate::world::PyWorld;

/// One body of a world. Made by ``World.add_body``; equal handles name the
/// same body.
#[pyclass(module = "lamina2d", name = "Body", frozen)]
pub struct PyBody {
    pub world: Py<PyWorld>,
    pub key: BodyKey,
}

/// One collider of a world. Made by ``World.add_collider``.
#[pyclass(module = "lamina2d", name = "Collider", frozen)]
pub struct PyCollider {
    pub world: Py<PyWorld>,
    pub key: ColliderKey,
}

/// One joint of a world. Made by one of ``World.add_*_joint``.
#[pyclass(module = "lamina2d", name = "Joint", frozen)]
pub struct PyJoint {
    pub world: Py<PyWorld>,
    pub key: JointKey,
}

/// The world of a handle, borrowed to read.
pub fn read<'py>(py: Python<'py>, world: &'py Py<PyWorld>) -> PyResult<PyRef<'py, PyWorld>> {
    world.bind(py).try_borrow().map_err(|_| PyRuntimeError::new_err("the world is busy in another call"))
}

/// The world of a handle, borrowed to change.
pub fn write<'py>(py: Python<'py>, world: &'py Py<PyWorld>) -> PyResult<PyRefMut<'py, PyWorld>> {
    world.bind(py).try_borrow_mut().map_err(|_| PyRuntimeError::new_err("the world is busy in another call"))
}

/// A hash of a handle from its world's address and its key's bits.
pub fn key_hash(world: usize, key: u64) -> u64 {
    (world as u64).rotate_left(32) ^ key.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The arguments `__reduce__` gives pickle for a handle.
pub type Reduced = (Py<PyAny>, (&'static str, Py<PyWorld>, u64, u32));

/// The reduction of a handle of `kind` to `world` and `key`.
pub fn reduce(
    py: Python<'_>,
    kind: &'static str,
    world: &Py<PyWorld>,
    key: impl WorldKey,
) -> PyResult<Reduced> {
    let rebuild = py.import("lamina2d._lamina")?.getattr("_handle")?.unbind();
    Ok((rebuild, (kind, world.clone_ref(py), key.data().as_ffi(), key.world().to_bits())))
}

/// Rebuilds a pickled handle.
#[pyfunction]
#[pyo3(name = "_handle")]
pub fn rebuild(py: Python<'_>, kind: &str, world: Py<PyWorld>, bits: u64, tag: u32) -> PyResult<Py<PyAny>> {
    fn key<K: WorldKey>(bits: u64, tag: u32) -> K {
        K::from(KeyData::from_ffi(bits)).in_world(WorldTag::from_bits(tag))
    }
    Ok(match kind {
        "body" => Py::new(py, PyBody { world, key: key(bits, tag) })?.into_any(),
        "collider" => Py::new(py, PyCollider { world, key: key(bits, tag) })?.into_any(),
        "joint" => Py::new(py, PyJoint { world, key: key(bits, tag) })?.into_any(),
        _ => return Err(world_error(format!("no handle of kind {kind:?}"))),
    })
}
