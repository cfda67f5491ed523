//! The methods of `Body` (the handle of one body of a world, `handles.rs`),
//! and the world's calls that add, list and remove bodies. A handle keeps its
//! world and its key: once the body is removed, or in the hands of another
//! world, it is refused.

use lamina2d::prelude::*;
use pyo3::prelude::*;

use crate::convert::{Pair, pair, point, point_pair, real, vec2};
use crate::errors::{from_engine, world_error};
use crate::handles::{PyBody, PyCollider, PyJoint, Reduced, key_hash, read, reduce, write};
use crate::world::PyWorld;

/// The error of a handle whose body is gone.
fn removed() -> PyErr {
    world_error("the body was removed from its world")
}

impl PyBody {
    /// Reads the body.
    fn get<R>(&self, py: Python<'_>, read_body: impl FnOnce(&Body) -> R) -> PyResult<R> {
        let w = read(py, &self.world)?;
        w.world.body(self.key).map(read_body).ok_or_else(removed)
    }

    /// Changes the body through the engine's checked setters.
    fn change(
        &self,
        py: Python<'_>,
        edit: impl FnOnce(&mut lamina2d::dynamics::BodyMut) -> Result<(), WorldError>,
    ) -> PyResult<()> {
        let mut w = write(py, &self.world)?;
        let body = w.world.body_mut(self.key).ok_or_else(removed)?;
        edit(body).map_err(from_engine)
    }

    /// Changes the body's motion and wakes it (and its island) at once, so
    /// that `is_awake` reads True straight away.
    fn push(
        &self,
        py: Python<'_>,
        edit: impl FnOnce(&mut lamina2d::dynamics::BodyMut) -> Result<(), WorldError>,
    ) -> PyResult<()> {
        let mut w = write(py, &self.world)?;
        let body = w.world.body_mut(self.key).ok_or_else(removed)?;
        edit(body).map_err(from_engine)?;
        w.world.wake_body(self.key);
        Ok(())
    }

    /// Moves the body to a new pose at once.
    fn teleport(&self, py: Python<'_>, pose: impl FnOnce(Isometry) -> Isometry) -> PyResult<()> {
        let mut w = write(py, &self.world)?;
        let now = w.world.body(self.key).ok_or_else(removed)?.position();
        w.world.set_body_position(self.key, pose(now)).map_err(from_engine)
    }

    /// The key of `body` if it is a live body of `world`.
    pub fn key_in(world: &Bound<'_, PyWorld>, body: &PyBody) -> PyResult<BodyKey> {
        if !PyWorld::owns(world, &body.world) {
            return Err(PyWorld::foreign("body"));
        }
        if world.borrow().world.body(body.key).is_none() {
            return Err(removed());
        }
        Ok(body.key)
    }
}

#[pymethods]
impl PyBody {
    /// The body's origin in the world, m.
    #[getter]
    fn position(&self, py: Python<'_>) -> PyResult<Pair> {
        self.get(py, |b| pair(b.translation()))
    }

    #[setter]
    fn set_position(&self, py: Python<'_>, position: Pair) -> PyResult<()> {
        let t = vec2("position", position)?;
        self.teleport(py, |now| Isometry::from_parts(t.into(), now.rotation))
    }

    /// The body's angle, radians counter-clockwise.
    #[getter]
    fn angle(&self, py: Python<'_>) -> PyResult<f64> {
        self.get(py, |b| b.angle() as f64)
    }

    #[setter]
    fn set_angle(&self, py: Python<'_>, angle: f64) -> PyResult<()> {
        let angle = real("angle", angle)?;
        self.teleport(py, |now| Isometry::new(now.translation.vector, angle))
    }

    /// The velocity of the centre of mass, m/s.
    #[getter]
    fn linear_velocity(&self, py: Python<'_>) -> PyResult<Pair> {
        self.get(py, |b| pair(b.linear_velocity()))
    }

    #[setter]
    fn set_linear_velocity(&self, py: Python<'_>, v: Pair) -> PyResult<()> {
        let v = vec2("linear_velocity", v)?;
        self.push(py, |b| b.set_linear_velocity(v))
    }

    /// The angular velocity, rad/s counter-clockwise.
    #[getter]
    fn angular_velocity(&self, py: Python<'_>) -> PyResult<f64> {
        self.get(py, |b| b.angular_velocity() as f64)
    }

    #[setter]
    fn set_angular_velocity(&self, py: Python<'_>, w: f64) -> PyResult<()> {
        let w = real("angular_velocity", w)?;
        self.push(py, |b| b.set_angular_velocity(w))
    }

    /// The centre of mass in the world, m.
    #[getter]
    fn center_of_mass(&self, py: Python<'_>) -> PyResult<Pair> {
        self.get(py, |b| point_pair(b.center_of_mass()))
    }

    /// The centre of mass in the body's frame, m.
    #[getter]
    fn local_center_of_mass(&self, py: Python<'_>) -> PyResult<Pair> {
        self.get(py, |b| point_pair(b.local_center_of_mass()))
    }

    /// Mass, kg (0 for fixed and kinematic bodies).
    #[getter]
    fn mass(&self, py: Python<'_>) -> PyResult<f64> {
        self.get(py, |b| b.mass() as f64)
    }

    /// Rotational inertia about the centre of mass, kg·m².
    #[getter]
    fn inertia(&self, py: Python<'_>) -> PyResult<f64> {
        self.get(py, |b| b.inertia() as f64)
    }

    /// "fixed", "kinematic" or "dynamic".
    #[getter]
    fn kind(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.get(py, |b| kind_name(b.kind()))
    }

    /// False while the body sleeps (at rest, costing nothing until touched).
    #[getter]
    fn is_awake(&self, py: Python<'_>) -> PyResult<bool> {
        self.get(py, |b| !b.is_sleeping())
    }

    /// True while the body is swept against dynamic bodies too.
    #[getter]
    fn is_bullet(&self, py: Python<'_>) -> PyResult<bool> {
        self.get(py, |b| b.is_bullet())
    }

    /// True while the body is in its world.
    #[getter]
    fn is_valid(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(read(py, &self.world)?.world.body(self.key).is_some())
    }

    /// A number free for the user.
    #[getter]
    fn user_data(&self, py: Python<'_>) -> PyResult<u64> {
        self.get(py, |b| b.user_data())
    }

    #[setter]
    fn set_user_data(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let data: u64 = crate::convert::integer("user_data", data)?;
        self.change(py, |b| {
            b.set_user_data(data);
            Ok(())
        })
    }

    /// The world the body belongs to.
    #[getter]
    fn world(&self, py: Python<'_>) -> Py<PyWorld> {
        self.world.clone_ref(py)
    }

    /// The body's colliders.
    #[getter]
    fn colliders(&self, py: Python<'_>) -> PyResult<Vec<PyCollider>> {
        let keys = self.get(py, |b| b.colliders().to_vec())?;
        Ok(keys.into_iter().map(|key| PyCollider { world: self.world.clone_ref(py), key }).collect())
    }

    /// The joints attached to the body.
    #[getter]
    fn joints(&self, py: Python<'_>) -> PyResult<Vec<PyJoint>> {
        let keys = self.get(py, |b| b.joints().to_vec())?;
        Ok(keys.into_iter().map(|key| PyJoint { world: self.world.clone_ref(py), key }).collect())
    }

    /// The velocity of the body's material at a world point, m/s.
    fn velocity_at(&self, py: Python<'_>, point: Pair) -> PyResult<Pair> {
        let p = crate::convert::point("point", point)?;
        self.get(py, |b| pair(b.velocity_at(&p)))
    }

    /// A point of the body's frame in world coordinates.
    fn world_point(&self, py: Python<'_>, local: Pair) -> PyResult<Pair> {
        let p = crate::convert::point("local", local)?;
        self.get(py, |b| point_pair(b.position() * p))
    }

    /// A world point in the body's frame.
    fn local_point(&self, py: Python<'_>, world_point: Pair) -> PyResult<Pair> {
        let p = crate::convert::point("world_point", world_point)?;
        self.get(py, |b| point_pair(b.position().inverse_transform_point(&p)))
    }

    /// Adds a force, N, for the next step: at the centre of mass, or at a world `point`.
    #[pyo3(signature = (force, point=None))]
    fn apply_force(&self, py: Python<'_>, force: Pair, point: Option<Pair>) -> PyResult<()> {
        let f = vec2("force", force)?;
        match point.map(|p| crate::convert::point("point", p)).transpose()? {
            Some(p) => self.push(py, |b| b.apply_force_at(f, p)),
            None => self.push(py, |b| b.apply_force(f)),
        }
    }

    /// Adds a torque, N·m, for the next step.
    fn apply_torque(&self, py: Python<'_>, torque: f64) -> PyResult<()> {
        let t = real("torque", torque)?;
        self.push(py, |b| b.apply_torque(t))
    }

    /// Changes the velocity at once by an impulse, N·s: at the centre of
    /// mass, or at a world `point`.
    #[pyo3(signature = (impulse, point=None))]
    fn apply_impulse(&self, py: Python<'_>, impulse: Pair, point: Option<Pair>) -> PyResult<()> {
        let j = vec2("impulse", impulse)?;
        match point.map(|p| crate::convert::point("point", p)).transpose()? {
            Some(p) => self.push(py, |b| b.apply_impulse_at(j, p)),
            None => self.push(py, |b| b.apply_impulse(j)),
        }
    }

    /// Wakes the body and its island.
    fn wake(&self, py: Python<'_>) -> PyResult<()> {
        let mut w = write(py, &self.world)?;
        if w.world.body(self.key).is_none() {
            return Err(removed());
        }
        w.world.wake_body(self.key);
        Ok(())
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<Reduced> {
        reduce(py, "body", &self.world, self.key)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyBody>().is_ok_and(|o| {
            let o = o.get();
            o.key == self.key && o.world.as_ptr() == self.world.as_ptr()
        })
    }

    fn __hash__(&self) -> u64 {
        key_hash(self.world.as_ptr() as usize, slotmap::Key::data(&self.key).as_ffi())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.get(py, |b| (kind_name(b.kind()), b.translation(), b.angle())) {
            Ok((kind, t, a)) => format!("Body({kind}, position=({}, {}), angle={})", t.x, t.y, a),
            Err(_) => "Body(removed)".to_string(),
        }
    }
}

/// The Python name of a body kind.
pub fn kind_name(kind: BodyKind) -> &'static str {
    match kind {
        BodyKind::Fixed => "fixed",
        BodyKind::Kinematic => "kinematic",
        BodyKind::Dynamic => "dynamic",
    }
}

#[pymethods]
impl PyWorld {
    /// Adds a body of `kind` ("fixed", "kinematic" or "dynamic") and returns its handle.
    #[pyo3(signature = (
        kind="dynamic", position=(0.0, 0.0), angle=0.0, *, linear_velocity=(0.0, 0.0),
        angular_velocity=0.0, bullet=false, linear_damping=0.0, angular_damping=0.0,
        gravity_scale=1.0, fixed_rotation=false, can_sleep=true, awake=true, user_data=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn add_body(
        slf: &Bound<'_, Self>,
        kind: &str,
        position: Pair,
        angle: f64,
        linear_velocity: Pair,
        angular_velocity: f64,
        bullet: bool,
        linear_damping: f64,
        angular_damping: f64,
        gravity_scale: f64,
        fixed_rotation: bool,
        can_sleep: bool,
        awake: bool,
        user_data: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBody> {
        let user_data: u64 = user_data.map_or(Ok(0), |v| crate::convert::integer("user_data", v))?;
        let desc = match kind {
            "dynamic" => BodyDesc::dynamic(),
            "fixed" | "static" => BodyDesc::fixed(),
            "kinematic" => BodyDesc::kinematic(),
            _ => {
                return Err(world_error(format!(
                    "kind must be \"fixed\", \"kinematic\" or \"dynamic\", got {kind:?}"
                )));
            }
        };
        let p = point("position", position)?;
        let desc = desc
            .translation(p.x, p.y)
            .angle(real("angle", angle)?)
            .linear_velocity(vec2("linear_velocity", linear_velocity)?)
            .angular_velocity(real("angular_velocity", angular_velocity)?)
            .bullet(bullet)
            .linear_damping(real("linear_damping", linear_damping)?)
            .angular_damping(real("angular_damping", angular_damping)?)
            .gravity_scale(real("gravity_scale", gravity_scale)?)
            .fixed_rotation(fixed_rotation)
            .can_sleep(can_sleep)
            .asleep(!awake)
            .user_data(user_data);
        let key = slf.borrow_mut().world.try_add_body(desc).map_err(from_engine)?;
        Ok(PyBody { world: slf.clone().unbind(), key })
    }

    /// Removes a body with its colliders and joints.
    fn remove_body(slf: &Bound<'_, Self>, body: PyRef<'_, PyBody>) -> PyResult<()> {
        let key = PyBody::key_in(slf, &body)?;
        slf.borrow_mut().world.remove_body(key).map_err(from_engine)?;
        Ok(())
    }

    /// Every body, in key order (the order of `positions()` and the other arrays).
    fn bodies(slf: &Bound<'_, Self>) -> Vec<PyBody> {
        let keys: Vec<BodyKey> = slf.borrow().world.bodies().map(|(k, _)| k).collect();
        keys.into_iter().map(|key| PyBody { world: slf.clone().unbind(), key }).collect()
    }
}
