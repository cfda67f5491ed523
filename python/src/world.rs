//! `World`: the engine's world as a Python class. It owns every body,
//! collider and joint; the handles (`Body`, `Collider`, `Joint`) name one of
//! them by key and keep their world, which refuses another world's handles.
//!
//! Copies: `copy.deepcopy` and `copy.copy` clone the world, `pickle` and
//! `snapshot`/`restore` go through the engine's snapshot bytes; each copy
//! steps on bit for bit as the original would.

use lamina2d::prelude::*;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

use crate::convert::{Pair, pair, real, vec2};
use crate::errors::{from_engine, world_error};
use crate::pool;

/// Worlds with fewer bodies than this step on the calling thread: a hop to
/// the pool and back costs more than their whole step.
const BODIES_TO_SHARE: usize = 64;

/// A physics world: bodies, their colliders and joints, stepped in time.
///
/// ``World(gravity=(0.0, -10.0), substeps=4, ...)`` takes every field of the
/// engine's ``WorldSettings`` by name; unknown names and bad values raise
/// ``WorldError``.
#[pyclass(module = "lamina2d", name = "World")]
pub struct PyWorld {
    pub world: World,
}

impl PyWorld {
    /// A handle's world is this one: `handle_world` is the world object the
    /// handle keeps.
    pub fn owns(slf: &Bound<'_, Self>, handle_world: &Py<PyWorld>) -> bool {
        slf.as_ptr() == handle_world.as_ptr()
    }

    /// The message of a handle from elsewhere.
    pub fn foreign(what: &str) -> PyErr {
        world_error(format!("the {what} belongs to another world"))
    }
}

#[pymethods]
impl PyWorld {
    #[new]
    #[pyo3(signature = (gravity=(0.0, -10.0), **settings))]
    fn new(gravity: Pair, settings: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut s = WorldSettings { gravity: vec2("gravity", gravity)?, ..WorldSettings::default() };
        if let Some(settings) = settings {
            for (name, value) in settings.iter() {
                set_field(&mut s, &name.extract::<String>()?, &value)?;
            }
        }
        let world = World::try_new(s).map_err(from_engine)?;
        Ok(Self { world })
    }

    /// Advances the world by `dt` seconds (positive, finite and at most the
    /// engine's `MAX_TIME_STEP`, 10,000 s), with the GIL released; larger
    /// worlds share the step with Lamina's pool.
    fn step(&mut self, py: Python<'_>, dt: f64) -> PyResult<()> {
        let dt = real("dt", dt)?;
        let world = &mut self.world;
        let result = if world.body_count() < BODIES_TO_SHARE {
            // Alone, without touching any pool: the same bits either way.
            let sharing = world.sharing();
            world.set_sharing(Sharing::Never);
            let result = world.step(dt);
            world.set_sharing(sharing);
            result
        } else {
            py.detach(|| pool::install(|| world.step(dt)))
        };
        result.map_err(from_engine)
    }

    /// Gravity, m/s², as `(x, y)`.
    #[getter]
    fn gravity(&self) -> Pair {
        pair(self.world.settings().gravity)
    }

    #[setter]
    fn set_gravity(&mut self, gravity: Pair) -> PyResult<()> {
        self.world.set_gravity(vec2("gravity", gravity)?).map_err(from_engine)
    }

    /// The world's settings as a dict of the engine's field names.
    #[getter]
    fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        settings_dict(py, self.world.settings())
    }

    /// Changes settings by name (`w.configure(substeps=8)`); a bad value
    /// changes none of them.
    #[pyo3(signature = (**settings))]
    fn configure(&mut self, settings: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        let mut s = *self.world.settings();
        if let Some(settings) = settings {
            for (name, value) in settings.iter() {
                set_field(&mut s, &name.extract::<String>()?, &value)?;
            }
        }
        self.world.set_settings(s).map_err(from_engine)
    }

    /// The number of bodies.
    #[getter]
    fn body_count(&self) -> usize {
        self.world.body_count()
    }

    /// The number of joints.
    #[getter]
    fn joint_count(&self) -> usize {
        self.world.joint_count()
    }

    /// A hash of every body's pose and velocity bits, in key order: equal
    /// hashes mean bit-identical states (the Rust `state_hash`).
    fn state_hash(&self) -> u64 {
        self.world.state_hash()
    }

    /// Wakes every sleeping body.
    fn wake_all(&mut self) {
        self.world.wake_all();
    }

    /// The world as bytes (a compact, versioned snapshot with a checksum),
    /// from which `World.restore` makes a world that steps on bit for bit.
    fn snapshot<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = py.detach(|| pool::install(|| self.world.snapshot()));
        PyBytes::new(py, &bytes)
    }

    /// The world saved by `snapshot`; damaged bytes raise `WorldError`.
    #[staticmethod]
    fn restore(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
        let world = py.detach(|| pool::install(|| World::restore(data)));
        let world = world.map_err(|e| world_error(format!("not a snapshot of a world: {e}")))?;
        Ok(Self { world })
    }

    fn __getstate__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.snapshot(py)
    }

    fn __setstate__(&mut self, py: Python<'_>, state: &[u8]) -> PyResult<()> {
        *self = Self::restore(py, state)?;
        Ok(())
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> Bound<'py, PyTuple> {
        PyTuple::empty(py)
    }

    fn __copy__(&self) -> Self {
        Self { world: self.world.clone() }
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        Self { world: self.world.clone() }
    }

    fn __repr__(&self) -> String {
        format!(
            "World(bodies={}, joints={}, gravity=({}, {}))",
            self.world.body_count(),
            self.world.joint_count(),
            self.world.settings().gravity.x,
            self.world.settings().gravity.y
        )
    }
}

/// Sets the settings field `name` from a Python value.
fn set_field(s: &mut WorldSettings, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let number = |value: &Bound<'_, PyAny>| -> PyResult<Real> { real(name, value.extract::<f64>()?) };
    let flag = |value: &Bound<'_, PyAny>| -> PyResult<bool> { value.extract::<bool>() };
    match name {
        "gravity" => s.gravity = vec2("gravity", value.extract()?)?,
        "substeps" => s.substeps = crate::convert::integer("substeps", value)?,
        "contact_hertz" => s.contact_hertz = number(value)?,
        "contact_damping_ratio" => s.contact_damping_ratio = number(value)?,
        "contact_push_max_velocity" => s.contact_push_max_velocity = number(value)?,
        "joint_hertz" => s.joint_hertz = number(value)?,
        "joint_damping_ratio" => s.joint_damping_ratio = number(value)?,
        "restitution_threshold" => s.restitution_threshold = number(value)?,
        "speculative_distance" => s.speculative_distance = number(value)?,
        "sleep_linear_velocity" => s.sleep_linear_velocity = number(value)?,
        "time_to_sleep" => s.time_to_sleep = number(value)?,
        "max_linear_speed" => s.max_linear_speed = number(value)?,
        "hit_event_threshold" => {
            let v: f64 = value.extract()?;
            s.hit_event_threshold = if v == f64::INFINITY { Real::INFINITY } else { real(name, v)? };
        }
        "enable_sleep" => s.enable_sleep = flag(value)?,
        "enable_warm_starting" => s.enable_warm_starting = flag(value)?,
        "enable_continuous" => s.enable_continuous = flag(value)?,
        "keep_events" => s.keep_events = flag(value)?,
        _ => return Err(world_error(format!("World has no setting named {name:?}"))),
    }
    Ok(())
}

/// The settings as a dict keyed by the names `set_field` takes.
fn settings_dict<'py>(py: Python<'py>, s: &WorldSettings) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("gravity", pair(s.gravity))?;
    d.set_item("substeps", s.substeps)?;
    d.set_item("contact_hertz", s.contact_hertz as f64)?;
    d.set_item("contact_damping_ratio", s.contact_damping_ratio as f64)?;
    d.set_item("contact_push_max_velocity", s.contact_push_max_velocity as f64)?;
    d.set_item("joint_hertz", s.joint_hertz as f64)?;
    d.set_item("joint_damping_ratio", s.joint_damping_ratio as f64)?;
    d.set_item("restitution_threshold", s.restitution_threshold as f64)?;
    d.set_item("speculative_distance", s.speculative_distance as f64)?;
    d.set_item("sleep_linear_velocity", s.sleep_linear_velocity as f64)?;
    d.set_item("time_to_sleep", s.time_to_sleep as f64)?;
    d.set_item("max_linear_speed", s.max_linear_speed as f64)?;
    d.set_item("hit_event_threshold", s.hit_event_threshold as f64)?;
    d.set_item("enable_sleep", s.enable_sleep)?;
    d.set_item("enable_warm_starting", s.enable_warm_starting)?;
    d.set_item("enable_continuous", s.enable_continuous)?;
    d.set_item("keep_events", s.keep_events)?;
    Ok(d)
}
