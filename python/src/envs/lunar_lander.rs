//! `LunarLanderCore` and `LunarLanderBatch`: the Rust LunarLander for
//! `lamina2d.envs.lunar_lander`, one environment for `gymnasium.Env` and
//! many for the native vector environment.
//!
//! A single environment steps with the GIL held: its step takes a few
//! microseconds, less than releasing and taking back the GIL would cost. A
//! batch releases it and steps its environments on Lamina's pool.

use lamina2d_envs::batch::{Batch, Env, StepOut};
use lamina2d_envs::lunar_lander::{LunarLander, LunarLanderConfig, VIEWPORT_H, VIEWPORT_W};
use numpy::{
    PyArray1, PyArray3, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadwriteArray1,
    PyReadwriteArray2,
};
use pyo3::prelude::*;

use crate::errors::world_error;
use crate::pool;

const OBSERVATION_LEN: usize = <LunarLander as Env>::OBSERVATION_LEN;

/// One LunarLander-v3 episode at a time, simulated on Lamina.
#[pyclass(module = "lamina2d._lamina")]
pub struct LunarLanderCore {
    env: LunarLander,
    /// The action as the Rust core reads it, kept to parse into.
    action: [f32; 2],
    observation: [f32; OBSERVATION_LEN],
}

#[pymethods]
impl LunarLanderCore {
    /// An environment of Gymnasium's configuration; `particles` simulates
    /// the engines' exhaust for the picture.
    #[new]
    #[pyo3(signature = (
        continuous=false, gravity=-10.0, enable_wind=false, wind_power=15.0, turbulence_power=1.5,
        particles=false
    ))]
    fn new(
        continuous: bool,
        gravity: f64,
        enable_wind: bool,
        wind_power: f64,
        turbulence_power: f64,
        particles: bool,
    ) -> PyResult<Self> {
        let config =
            LunarLanderConfig { continuous, gravity, enable_wind, wind_power, turbulence_power, particles };
        let env = LunarLander::new(config).map_err(|e| world_error(e.to_string()))?;
        Ok(Self { env, action: [0.0; 2], observation: [0.0; OBSERVATION_LEN] })
    }

    /// Starts an episode whose randomness all comes from `seed` and returns
    /// its first observation, float32 of shape (8,).
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> Bound<'py, PyArray1<f32>> {
        self.env.reset(seed, &mut self.observation);
        PyArray1::from_slice(py, &self.observation)
    }

    /// Steps with `action` (an integer 0..3, or two throttles) and returns
    /// `(observation, reward, terminated)`. Raises `WorldError` naming a bad
    /// action, the environment unchanged.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, f64, bool)> {
        let len = self.parse_action(action)?;
        self.env.check_action(&self.action[..len]).map_err(|e| world_error(e.to_string()))?;
        let outcome = self.env.step(&self.action[..len], &mut self.observation);
        Ok((PyArray1::from_slice(py, &self.observation), outcome.reward, outcome.terminated))
    }

    /// The scene as Gymnasium draws it: uint8 of shape (400, 600, 3).
    fn render<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        picture(py, &self.env)
    }

    /// Whether the right and the left leg touch the ground (observation entries 6 and 7).
    #[getter]
    fn leg_contacts(&self) -> (bool, bool) {
        let [right, left] = self.env.leg_contacts();
        (right, left)
    }

    /// Whether the actions are two throttles rather than a discrete index.
    #[getter]
    fn continuous(&self) -> bool {
        self.env.config().continuous
    }
}

impl LunarLanderCore {
    /// Reads `action` into `self.action` and returns its length: a discrete
    /// action must be an integer (a Python or NumPy one), a continuous one a
    /// sequence or array of numbers.
    fn parse_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        if !self.env.config().continuous {
            let index: i64 = action.extract().map_err(|_| {
                world_error(format!("a discrete action is an integer 0..3, got {}", repr(action)))
            })?;
            if !(0..4).contains(&index) {
                return Err(world_error(format!("a discrete action is 0, 1, 2 or 3, got {index}")));
            }
            self.action[0] = index as f32;
            return Ok(1);
        }
        let throttles: Vec<f64> = if let Ok(array) = action.extract::<PyReadonlyArray1<'_, f32>>() {
            array.as_array().iter().map(|&a| f64::from(a)).collect()
        } else if let Ok(array) = action.extract::<PyReadonlyArray1<'_, f64>>() {
            array.as_array().to_vec()
        } else {
            action.extract().map_err(|_| {
                world_error(format!("a continuous action is two numbers, got {}", repr(action)))
            })?
        };
        if throttles.len() != 2 {
            return Err(world_error(format!("a continuous action is two numbers, got {}", repr(action))));
        }
        for (slot, &value) in self.action.iter_mut().zip(&throttles) {
            *slot = value as f32;
        }
        Ok(2)
    }
}

/// Many LunarLanders stepped together on Lamina's pool, with Gymnasium's
/// next-step autoreset and truncation after `max_episode_steps`.
#[pyclass(module = "lamina2d._lamina")]
pub struct LunarLanderBatch {
    batch: Batch<LunarLander>,
}

#[pymethods]
impl LunarLanderBatch {
    /// `num_envs` environments of one configuration.
    #[new]
    #[pyo3(signature = (
        num_envs, max_episode_steps=1000, continuous=false, gravity=-10.0, enable_wind=false, wind_power=15.0,
        turbulence_power=1.5, particles=false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        max_episode_steps: u32,
        continuous: bool,
        gravity: f64,
        enable_wind: bool,
        wind_power: f64,
        turbulence_power: f64,
        particles: bool,
    ) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(world_error("num_envs must be at least 1, got 0"));
        }
        if max_episode_steps == 0 {
            return Err(world_error("max_episode_steps must be at least 1, got 0"));
        }
        let config =
            LunarLanderConfig { continuous, gravity, enable_wind, wind_power, turbulence_power, particles };
        let envs = (0..num_envs)
            .map(|_| LunarLander::new(config))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| world_error(e.to_string()))?;
        Ok(Self { batch: Batch::new(envs, max_episode_steps) })
    }

    /// Resets every environment, `seeds[i]` for environment `i`, writing
    /// the first observations into `observations` (float32, `(num_envs, 8)`).
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

    /// Steps every environment with its row of `actions` (float32,
    /// `(num_envs, action_len)`; a discrete action as its index), resetting
    /// instead, with its entry of `reset_seeds`, each one whose episode
    /// ended on the last step; writes into the other arrays.
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
        let action_len = self.batch.action_len();
        let actions = contiguous(actions.as_slice(), "actions", n * action_len)?;
        self.check_actions(actions)?;
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

    /// Environment `index`'s picture, uint8 of shape (400, 600, 3).
    fn render<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let env = self.batch.env(index).ok_or_else(|| {
            world_error(format!("index must be below num_envs = {}, got {index}", self.batch.len()))
        })?;
        picture(py, env)
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.batch.len()
    }

    /// The length of one environment's action: 1 (discrete) or 2.
    #[getter]
    fn action_len(&self) -> usize {
        self.batch.action_len()
    }
}

impl LunarLanderBatch {
    /// Checks the actions of the environments that will step (those about
    /// to be reset ignore theirs, as Gymnasium's autoreset does).
    fn check_actions(&self, actions: &[f32]) -> PyResult<()> {
        let action_len = self.batch.action_len();
        let rows = actions.chunks_exact(action_len).zip(self.batch.envs()).zip(self.batch.ended());
        for (i, ((action, env), &ended)) in rows.enumerate() {
            if !ended {
                env.check_action(action).map_err(|e| world_error(format!("actions[{i}]: {e}")))?;
            }
        }
        Ok(())
    }
}

/// `env`'s picture as a new (400, 600, 3) array.
fn picture<'py>(py: Python<'py>, env: &LunarLander) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let rgb = PyArray1::from_vec(py, env.render());
    rgb.reshape([VIEWPORT_H as usize, VIEWPORT_W as usize, 3])
}

/// A C-contiguous array's data of `len` entries, or a `WorldError` naming the array.
fn contiguous<'a, T>(
    data: Result<&'a [T], numpy::NotContiguousError>,
    name: &str,
    len: usize,
) -> PyResult<&'a [T]> {
    match data {
        Ok(data) if data.len() == len => Ok(data),
        Ok(data) => Err(world_error(format!("{name} must hold {len} entries, got {}", data.len()))),
        Err(_) => Err(world_error(format!("{name} must be a C-contiguous array"))),
    }
}

/// As [`contiguous`], for an array written to.
fn contiguous_mut<'a, T>(
    data: Result<&'a mut [T], numpy::NotContiguousError>,
    name: &str,
    len: usize,
) -> PyResult<&'a mut [T]> {
    match data {
        Ok(data) if data.len() == len => Ok(data),
        Ok(data) => Err(world_error(format!("{name} must hold {len} entries, got {}", data.len()))),
        Err(_) => Err(world_error(format!("{name} must be a C-contiguous array"))),
    }
}

fn repr(value: &Bound<'_, PyAny>) -> String {
    value.repr().map_or_else(|_| "an object without a repr".to_owned(), |r| r.to_string())
}

/// Adds `LunarLanderCore` and `LunarLanderBatch` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<LunarLanderCore>()?;
    m.add_class::<LunarLanderBatch>()?;
    Ok(())
}
