//! `BipedalWalkerCore` and `BipedalWalkerBatch`: the native halves of
//! `lamina2d.envs.bipedal_walker`'s single and vector environments.
//!
//! Actions are checked here, before anything steps, and refused with a
//! `WorldError` that names the bad entry; a batch steps with the GIL
//! released, on Lamina's pool, writing into the caller's NumPy arrays.

use lamina2d_envs::batch::{Batch, Env, StepOut};
use lamina2d_envs::bipedal_walker::{BipedalWalker, BipedalWalkerConfig};
use numpy::{
    PyArray1, PyArray3, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadwriteArray1,
    PyReadwriteArray2,
};
use pyo3::prelude::*;

use crate::errors::world_error;
use crate::pool;

/// The length of an action: hip and knee speeds of each leg.
const ACTION_LEN: usize = 4;
/// The length of an observation.
const OBSERVATION_LEN: usize = <BipedalWalker as Env>::OBSERVATION_LEN;
/// The picture's rows, columns and channels.
const PICTURE: [usize; 3] = [400, 600, 3];

/// Reads one action (a float32 array, or any sequence of 4 numbers) and
/// checks that every entry is finite.
fn read_action(action: &Bound<'_, PyAny>) -> PyResult<[f32; ACTION_LEN]> {
    let mut values = [0.0f32; ACTION_LEN];
    if let Ok(array) = action.extract::<PyReadonlyArray1<'_, f32>>() {
        let view = array.as_array();
        if view.len() != ACTION_LEN {
            return Err(world_error(format!("action must hold 4 numbers, got {}", view.len())));
        }
        values.iter_mut().zip(view.iter()).for_each(|(v, &a)| *v = a);
    } else {
        let list: Vec<f32> =
            action.extract().map_err(|_| world_error("action must be a sequence of 4 numbers"))?;
        values = list
            .try_into()
            .map_err(|v: Vec<f32>| world_error(format!("action must hold 4 numbers, got {}", v.len())))?;
    }
    check_finite(&values, "action")?;
    Ok(values)
}

/// Refuses the first non-finite entry of `values`, naming it.
fn check_finite(values: &[f32], name: &str) -> PyResult<()> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(i) => Err(world_error(format!("{name}[{i}] must be finite, got {}", values[i]))),
        None => Ok(()),
    }
}

/// A picture as a `(400, 600, 3)` uint8 array.
fn picture<'py>(py: Python<'py>, rgb: Vec<u8>) -> PyResult<Bound<'py, PyArray3<u8>>> {
    PyArray1::from_vec(py, rgb).reshape(PICTURE)
}

/// One BipedalWalker environment.
#[pyclass(module = "lamina2d._lamina")]
pub struct BipedalWalkerCore {
    env: BipedalWalker,
    observation: [f32; OBSERVATION_LEN],
}

#[pymethods]
impl BipedalWalkerCore {
    #[new]
    #[pyo3(signature = (hardcore = false))]
    fn new(hardcore: bool) -> Self {
        Self {
            env: BipedalWalker::new(BipedalWalkerConfig { hardcore }),
            observation: [0.0; OBSERVATION_LEN],
        }
    }

    /// Starts an episode whose randomness all comes from `seed`; returns its
    /// first observation.
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> Bound<'py, PyArray1<f32>> {
        self.env.reset(seed, &mut self.observation);
        PyArray1::from_slice(py, &self.observation)
    }

    /// Steps once with `action`; returns `(observation, reward, terminated)`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, f64, bool)> {
        let action = read_action(action)?;
        let outcome = self.env.step(&action, &mut self.observation);
        Ok((PyArray1::from_slice(py, &self.observation), outcome.reward, outcome.terminated))
    }

    /// The picture, `(400, 600, 3)` uint8.
    fn render<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        picture(py, self.env.render())
    }

    /// The hull's origin `(x, y)`, m: where the walker is (the observation
    /// holds no coordinates).
    fn hull_position(&self) -> (f64, f64) {
        self.env.hull_position()
    }

    /// Whether the course has stumps, stairs and pits.
    #[getter]
    fn hardcore(&self) -> bool {
        self.env.config().hardcore
    }
}

/// Many BipedalWalker environments stepped together, with next-step autoreset
/// and truncation after `max_episode_steps`.
#[pyclass(module = "lamina2d._lamina")]
pub struct BipedalWalkerBatch {
    batch: Batch<BipedalWalker>,
}

#[pymethods]
impl BipedalWalkerBatch {
    #[new]
    #[pyo3(signature = (num_envs, max_episode_steps, hardcore = false))]
    fn new(num_envs: usize, max_episode_steps: u32, hardcore: bool) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(world_error("num_envs must be at least 1, got 0"));
        }
        if max_episode_steps == 0 {
            return Err(world_error("max_episode_steps must be at least 1, got 0"));
        }
        let config = BipedalWalkerConfig { hardcore };
        let envs = (0..num_envs).map(|_| BipedalWalker::new(config)).collect();
        Ok(Self { batch: Batch::new(envs, max_episode_steps) })
    }

    /// How many environments the batch holds.
    fn __len__(&self) -> usize {
        self.batch.len()
    }

    /// Resets every environment, `seeds[i]` for environment `i`, writing the
    /// first observations into `observations` (`float32[n, 24]`).
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: PyReadonlyArray1<'_, u64>,
        mut observations: PyReadwriteArray2<'_, f32>,
    ) -> PyResult<()> {
        let n = self.batch.len();
        let seeds = contiguous(seeds.as_slice(), "seeds", n)?;
        let observations = contiguous_mut(observations.as_slice_mut(), "observations", n * OBSERVATION_LEN)?;
        let batch = &mut self.batch;
        py.detach(|| pool::install(|| batch.reset(seeds, observations)));
        Ok(())
    }

    /// Steps every environment with its row of `actions` (`float32[n, 4]`),
    /// resetting those whose episode ended on the last step with their
    /// entry of `reset_seeds`, and writes the results into the given arrays.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray2<'_, f32>,
        reset_seeds: PyReadonlyArray1<'_, u64>,
        mut observations: PyReadwriteArray2<'_, f32>,
        mut rewards: PyReadwriteArray1<'_, f64>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut truncated: PyReadwriteArray1<'_, bool>,
    ) -> PyResult<()> {
        let n = self.batch.len();
        let actions = contiguous(actions.as_slice(), "actions", n * ACTION_LEN)?;
        check_finite(actions, "actions (flattened)")?;
        let out = StepOut {
            observations: contiguous_mut(observations.as_slice_mut(), "observations", n * OBSERVATION_LEN)?,
            rewards: contiguous_mut(rewards.as_slice_mut(), "rewards", n)?,
            terminated: contiguous_mut(terminated.as_slice_mut(), "terminated", n)?,
            truncated: contiguous_mut(truncated.as_slice_mut(), "truncated", n)?,
        };
        let reset_seeds = contiguous(reset_seeds.as_slice(), "reset_seeds", n)?;
        let batch = &mut self.batch;
        py.detach(|| pool::install(|| batch.step(actions, reset_seeds, out)));
        Ok(())
    }

    /// Environment `index`'s picture, `(400, 600, 3)` uint8.
    fn render<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let env = self.batch.env(index).ok_or_else(|| {
            world_error(format!(
                "index must be below the batch's {} environments, got {index}",
                self.batch.len()
            ))
        })?;
        picture(py, env.render())
    }

    /// Environment `index`'s hull origin `(x, y)`, m.
    fn hull_position(&self, index: usize) -> PyResult<(f64, f64)> {
        let env = self.batch.env(index).ok_or_else(|| world_error(format!("no environment {index}")))?;
        Ok(env.hull_position())
    }
}

/// The array's elements as a slice of `len`, refusing a strided array or
/// another length.
fn contiguous<'a, T>(
    slice: Result<&'a [T], numpy::NotContiguousError>,
    name: &str,
    len: usize,
) -> PyResult<&'a [T]> {
    let slice = slice.map_err(|_| world_error(format!("{name} must be a contiguous array")))?;
    if slice.len() != len {
        return Err(world_error(format!("{name} must hold {len} values, got {}", slice.len())));
    }
    Ok(slice)
}

/// [`contiguous`] for an array written into.
fn contiguous_mut<'a, T>(
    slice: Result<&'a mut [T], numpy::NotContiguousError>,
    name: &str,
    len: usize,
) -> PyResult<&'a mut [T]> {
    let slice = slice.map_err(|_| world_error(format!("{name} must be a contiguous array")))?;
    if slice.len() != len {
        return Err(world_error(format!("{name} must hold {len} values, got {}", slice.len())));
    }
    Ok(slice)
}

/// Adds the classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BipedalWalkerCore>()?;
    m.add_class::<BipedalWalkerBatch>()?;
    Ok(())
}
