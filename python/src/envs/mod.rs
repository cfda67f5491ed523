//! The native cores of the Gymnasium environments, as Python classes over
//! `lamina2d_envs`: one environment, and a batch stepped on Lamina's pool with
//! the GIL released.

use pyo3::prelude::*;

mod bipedal_walker;
mod lunar_lander;

/// Adds the environment classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    lunar_lander::register(m)?;
    bipedal_walker::register(m)?;
    Ok(())
}
