//! `lamina2d.WorldError` and the conversion of the engine's typed errors to it.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    lamina2d,
    WorldError,
    PyValueError,
    "A call was refused because of a bad value (named in the message); the world is unchanged."
);

/// A `WorldError` carrying `message`.
pub fn world_error(message: impl Into<String>) -> PyErr {
    WorldError::new_err(message.into())
}

/// The engine's error as a `WorldError` with its message.
pub fn from_engine(error: lamina2d::prelude::WorldError) -> PyErr {
    WorldError::new_err(error.to_string())
}
