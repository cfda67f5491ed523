//! The methods of `Collider` (the handle of one shape fixed to a body with its
//! material and filter, `handles.rs`), and the world's calls that add and
//! remove colliders.

use lamina2d::prelude::*;
use pyo3::prelude::*;

use crate::convert::{Pair, point_pair, real, vec2};
use crate::errors::{from_engine, world_error};
use crate::handles::{PyBody, PyCollider, Reduced, key_hash, read, reduce};
use crate::shapes::PyShape;
use crate::world::PyWorld;

fn removed() -> PyErr {
    world_error("the collider was removed from its world")
}

impl PyCollider {
    fn get<R>(&self, py: Python<'_>, read_collider: impl FnOnce(&Collider) -> R) -> PyResult<R> {
        let w = read(py, &self.world)?;
        w.world.collider(self.key).map(read_collider).ok_or_else(removed)
    }

    /// The key of `collider` if it is a live collider of `world`.
    pub fn key_in(world: &Bound<'_, PyWorld>, collider: &PyCollider) -> PyResult<ColliderKey> {
        if !PyWorld::owns(world, &collider.world) {
            return Err(PyWorld::foreign("collider"));
        }
        if world.borrow().world.collider(collider.key).is_none() {
            return Err(removed());
        }
        Ok(collider.key)
    }
}

#[pymethods]
impl PyCollider {
    /// The body the collider is fixed to.
    #[getter]
    fn body(&self, py: Python<'_>) -> PyResult<PyBody> {
        let key = self.get(py, |c| c.body())?;
        Ok(PyBody { world: self.world.clone_ref(py), key })
    }

    /// A copy of the collider's shape, in the collider's frame.
    #[getter]
    fn shape(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let shape = self.get(py, |c| c.shape().clone())?;
        PyShape::wrap(py, shape)
    }

    /// Density, kg/m².
    #[getter]
    fn density(&self, py: Python<'_>) -> PyResult<f64> {
        self.get(py, |c| c.density() as f64)
    }

    /// Friction coefficient.
    #[getter]
    fn friction(&self, py: Python<'_>) -> PyResult<f64> {
        self.get(py, |c| c.friction() as f64)
    }

    /// Restitution: 0 does not bounce, 1 bounces back at the approach speed.
    #[getter]
    fn restitution(&self, py: Python<'_>) -> PyResult<f64> {
        self.get(py, |c| c.restitution() as f64)
    }

    /// The surface's speed along itself, m/s (a conveyor belt): what rests
    /// on the collider is carried clockwise around it (to the right along a
    /// top face) at this speed, as friction allows.
    #[getter]
    fn tangent_speed(&self, py: Python<'_>) -> PyResult<f64> {
        self.get(py, |c| c.tangent_speed() as f64)
    }

    /// Rolling resistance, dimensionless: a contact resists its bodies'
    /// relative turning with a torque of up to this (the larger of the two
    /// colliders') times the round shape's radius times the normal force, so
    /// that a rolling ball slows and stops.
    #[getter]
    fn rolling_resistance(&self, py: Python<'_>) -> PyResult<f64> {
        self.get(py, |c| c.rolling_resistance() as f64)
    }

    /// True for a sensor, which reports overlaps and never pushes.
    #[getter]
    fn is_sensor(&self, py: Python<'_>) -> PyResult<bool> {
        self.get(py, |c| c.is_sensor())
    }

    /// The collision filter `(category, mask, group)`.
    #[getter]
    fn filter(&self, py: Python<'_>) -> PyResult<(u32, u32, i32)> {
        self.get(py, |c| {
            let f = c.filter();
            (f.category, f.mask, f.group)
        })
    }

    /// The collider's pose in its body's frame: `(position, angle)`.
    #[getter]
    fn local_pose(&self, py: Python<'_>) -> PyResult<(Pair, f64)> {
        self.get(py, |c| {
            let p = c.local_pose();
            (crate::convert::pair(p.translation.vector), p.rotation.angle() as f64)
        })
    }

    /// The collider's tight bounds in the world now, `(lower, upper)`: the
    /// box the queries test, without the broad phase's margins.
    #[getter]
    fn bounds(&self, py: Python<'_>) -> PyResult<(Pair, Pair)> {
        let w = read(py, &self.world)?;
        let c = w.world.collider(self.key).ok_or_else(removed)?;
        let body = w.world.body(c.body()).expect("a live collider's body is live");
        let b = c.shape().aabb(&(body.position() * c.local_pose()));
        Ok((point_pair(b.mins), point_pair(b.maxs)))
    }

    /// A number free for the user.
    #[getter]
    fn user_data(&self, py: Python<'_>) -> PyResult<u64> {
        self.get(py, |c| c.user_data())
    }

    /// True while the collider is in its world.
    #[getter]
    fn is_valid(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(read(py, &self.world)?.world.collider(self.key).is_some())
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<Reduced> {
        reduce(py, "collider", &self.world, self.key)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyCollider>().is_ok_and(|o| {
            let o = o.get();
            o.key == self.key && o.world.as_ptr() == self.world.as_ptr()
        })
    }

    fn __hash__(&self) -> u64 {
        key_hash(self.world.as_ptr() as usize, slotmap::Key::data(&self.key).as_ffi()) ^ 1
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.get(py, |c| c.shape().kind_name()) {
            Ok(kind) => format!("Collider({kind})"),
            Err(_) => "Collider(removed)".to_string(),
        }
    }
}

#[pymethods]
impl PyWorld {
    /// Fixes `shape` to `body` and returns the collider; the body's mass
    /// follows from the densities of its colliders. `tangent_speed` (m/s)
    /// makes the surface a conveyor belt; `rolling_resistance` slows round
    /// shapes rolling on it.
    #[pyo3(signature = (
        body, shape, density=1.0, friction=0.6, restitution=0.0, *, sensor=false,
        local_position=(0.0, 0.0), local_angle=0.0, category=None, mask=None, group=None, user_data=None,
        tangent_speed=0.0, rolling_resistance=0.0
    ))]
    #[allow(clippy::too_many_arguments)]
    fn add_collider(
        slf: &Bound<'_, Self>,
        body: PyRef<'_, PyBody>,
        shape: PyRef<'_, PyShape>,
        density: f64,
        friction: f64,
        restitution: f64,
        sensor: bool,
        local_position: Pair,
        local_angle: f64,
        category: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
        group: Option<&Bound<'_, PyAny>>,
        user_data: Option<&Bound<'_, PyAny>>,
        tangent_speed: f64,
        rolling_resistance: f64,
    ) -> PyResult<PyCollider> {
        use crate::convert::integer;
        let category: u32 = category.map_or(Ok(1), |v| integer("category", v))?;
        let mask: u32 = mask.map_or(Ok(u32::MAX), |v| integer("mask", v))?;
        let group: i32 = group.map_or(Ok(0), |v| integer("group", v))?;
        let user_data: u64 = user_data.map_or(Ok(0), |v| integer("user_data", v))?;
        let key = PyBody::key_in(slf, &body)?;
        let desc = ColliderDesc::new(shape.shape.clone())
            .density(real("density", density)?)
            .friction(real("friction", friction)?)
            .restitution(real("restitution", restitution)?)
            .tangent_speed(real("tangent_speed", tangent_speed)?)
            .rolling_resistance(real("rolling_resistance", rolling_resistance)?)
            .sensor(sensor)
            .local_pose(Isometry::new(
                vec2("local_position", local_position)?,
                real("local_angle", local_angle)?,
            ))
            .filter(CollisionFilter { category, mask, group })
            .user_data(user_data);
        let collider = slf.borrow_mut().world.add_collider(key, desc).map_err(from_engine)?;
        Ok(PyCollider { world: slf.clone().unbind(), key: collider })
    }

    /// Removes a collider; its body's mass follows.
    fn remove_collider(slf: &Bound<'_, Self>, collider: PyRef<'_, PyCollider>) -> PyResult<()> {
        let key = PyCollider::key_in(slf, &collider)?;
        slf.borrow_mut().world.remove_collider(key).map_err(from_engine)
    }

    /// Every collider, in key order.
    fn colliders(slf: &Bound<'_, Self>) -> Vec<PyCollider> {
        let keys: Vec<ColliderKey> = slf.borrow().world.colliders().map(|(k, _)| k).collect();
        keys.into_iter().map(|key| PyCollider { world: slf.clone().unbind(), key }).collect()
    }
}
