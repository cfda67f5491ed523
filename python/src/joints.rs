//! The methods of `Joint` (the handle of one joint, `handles.rs`), and the
//! world's `add_*_joint` calls, one
//! per kind, whose keyword options are named as the Rust builders:
//! `lower`/`upper` (limits), `motor_speed` with `max_motor_torque` or
//! `max_motor_force`, `hertz`/`damping_ratio` (a spring), `max_force`,
//! `max_torque`, `collide_connected`.

use lamina2d::prelude::*;
use pyo3::prelude::*;

use crate::convert::{Pair, pair, point, point_pair, real, vec2};
use crate::errors::{from_engine, world_error};
use crate::handles::{PyBody, PyJoint, Reduced, key_hash, read, reduce, write};
use crate::world::PyWorld;

fn removed() -> PyErr {
    world_error("the joint was removed from its world")
}

/// The Python name of a joint kind.
fn kind_name(kind: JointKind) -> &'static str {
    match kind {
        JointKind::Revolute => "revolute",
        JointKind::Prismatic => "prismatic",
        JointKind::Weld => "weld",
        JointKind::Distance => "distance",
        JointKind::Wheel => "wheel",
        JointKind::Motor => "motor",
        JointKind::Mouse => "mouse",
    }
}

impl PyJoint {
    fn get<R>(&self, py: Python<'_>, read_joint: impl FnOnce(&Joint) -> R) -> PyResult<R> {
        let w = read(py, &self.world)?;
        w.world.joint(self.key).map(read_joint).ok_or_else(removed)
    }

    fn motion(&self, py: Python<'_>) -> PyResult<lamina2d::dynamics::JointMotion> {
        let w = read(py, &self.world)?;
        w.world.joint_motion(self.key).ok_or_else(removed)
    }

    /// Changes the joint, checking the change on a copy of its description
    /// first (`preview`), so that a refused change leaves the world bit for
    /// bit as it was: the engine counts every opened edit.
    fn change(
        &self,
        py: Python<'_>,
        preview: impl FnOnce(&Joint, &mut JointDesc) -> Result<(), WorldError>,
        edit: impl FnOnce(&mut lamina2d::dynamics::JointMut) -> Result<(), WorldError>,
    ) -> PyResult<()> {
        let mut w = write(py, &self.world)?;
        let joint = w.world.joint(self.key).ok_or_else(removed)?;
        let mut desc = *joint.desc();
        preview(joint, &mut desc).and_then(|()| desc.validate()).map_err(from_engine)?;
        let joint = w.world.joint_mut(self.key).ok_or_else(removed)?;
        edit(joint).map_err(from_engine)
    }
}

/// Refuses a change that does not apply to a joint of this kind.
fn only(joint: &Joint, name: &'static str, kinds: &[JointKind]) -> Result<(), WorldError> {
    if kinds.contains(&joint.kind()) {
        Ok(())
    } else {
        Err(WorldError::WrongJointKind { name, kind: joint.kind() })
    }
}

#[pymethods]
impl PyJoint {
    /// "revolute", "prismatic", "weld", "distance", "wheel", "motor" or "mouse".
    #[getter]
    fn kind(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.get(py, |j| kind_name(j.kind()))
    }

    /// The first body (None for a mouse joint, which pulls one body).
    #[getter]
    fn body_a(&self, py: Python<'_>) -> PyResult<Option<PyBody>> {
        let (kind, key) = self.get(py, |j| (j.kind(), j.body_a()))?;
        Ok((kind != JointKind::Mouse).then(|| PyBody { world: self.world.clone_ref(py), key }))
    }

    /// The second body: the one the joint acts on, as the forces are reported.
    #[getter]
    fn body_b(&self, py: Python<'_>) -> PyResult<PyBody> {
        let key = self.get(py, |j| j.body_b())?;
        Ok(PyBody { world: self.world.clone_ref(py), key })
    }

    /// The force the joint applied on B over the last step, N, world frame.
    #[getter]
    fn constraint_force(&self, py: Python<'_>) -> PyResult<Pair> {
        self.get(py, |j| pair(j.constraint_force()))
    }

    /// The torque the joint applied on B over the last step, N·m.
    #[getter]
    fn constraint_torque(&self, py: Python<'_>) -> PyResult<f64> {
        self.get(py, |j| j.constraint_torque() as f64)
    }

    /// B's angle relative to A since creation, rad.
    #[getter]
    fn angle(&self, py: Python<'_>) -> PyResult<f64> {
        Ok(self.motion(py)?.angle as f64)
    }

    /// B's angular velocity relative to A, rad/s.
    #[getter]
    fn angular_speed(&self, py: Python<'_>) -> PyResult<f64> {
        Ok(self.motion(py)?.angular_speed as f64)
    }

    /// Translation along the axis (prismatic, wheel) or the anchors' distance (distance), m.
    #[getter]
    fn translation(&self, py: Python<'_>) -> PyResult<f64> {
        Ok(self.motion(py)?.translation as f64)
    }

    /// The rate of change of `translation`, m/s.
    #[getter]
    fn linear_speed(&self, py: Python<'_>) -> PyResult<f64> {
        Ok(self.motion(py)?.linear_speed as f64)
    }

    /// The mouse joint's target, world frame.
    #[getter]
    fn target(&self, py: Python<'_>) -> PyResult<Pair> {
        self.get(py, |j| point_pair(j.target()))
    }

    /// True while the joint is in its world.
    #[getter]
    fn is_valid(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(read(py, &self.world)?.world.joint(self.key).is_some())
    }

    /// Sets the motor's target speed (rad/s or m/s) and wakes the bodies.
    fn set_motor_speed(&self, py: Python<'_>, speed: f64) -> PyResult<()> {
        let speed = real("motor_speed", speed)?;
        self.change(
            py,
            |_, d| {
                d.motor =
                    Some(lamina2d::dynamics::Motor { speed, max: d.motor.map_or(Real::MAX, |m| m.max) });
                Ok(())
            },
            |j| j.set_motor_speed(speed),
        )
    }

    /// Sets the motor's speed and largest torque or force.
    fn set_motor(&self, py: Python<'_>, speed: f64, max: f64) -> PyResult<()> {
        let (speed, max) = (real("motor_speed", speed)?, real("max_motor", max)?);
        self.change(
            py,
            |_, d| {
                d.motor = Some(lamina2d::dynamics::Motor { speed, max });
                Ok(())
            },
            |j| j.set_motor(speed, max),
        )
    }

    /// Sets the limits (rad or m).
    fn set_limits(&self, py: Python<'_>, lower: f64, upper: f64) -> PyResult<()> {
        let (lower, upper) = (real("lower", lower)?, real("upper", upper)?);
        self.change(
            py,
            |_, d| {
                d.limits = Some((lower, upper));
                Ok(())
            },
            |j| j.set_limits(lower, upper),
        )
    }

    /// Sets the spring's stiffness (Hz) and damping ratio.
    fn set_spring(&self, py: Python<'_>, hertz: f64, damping_ratio: f64) -> PyResult<()> {
        let (hertz, damping_ratio) = (real("hertz", hertz)?, real("damping_ratio", damping_ratio)?);
        self.change(
            py,
            |_, d| {
                d.spring = Some(lamina2d::dynamics::Spring { hertz, damping_ratio });
                Ok(())
            },
            |j| j.set_spring(hertz, damping_ratio),
        )
    }

    /// Sets the largest force of a mouse or motor joint, N.
    fn set_max_force(&self, py: Python<'_>, force: f64) -> PyResult<()> {
        let force = real("max_force", force)?;
        self.change(
            py,
            |joint, d| {
                only(joint, "max_force", &[JointKind::Mouse, JointKind::Motor])?;
                d.max_force = force;
                Ok(())
            },
            |j| j.set_max_force(force),
        )
    }

    /// Moves a mouse joint's target and wakes its body.
    fn set_target(&self, py: Python<'_>, target: Pair) -> PyResult<()> {
        let target = point("target", target)?;
        self.change(
            py,
            |joint, _| {
                only(joint, "target", &[JointKind::Mouse])?;
                if target.x.is_finite() && target.y.is_finite() {
                    Ok(())
                } else {
                    Err(WorldError::InvalidJointProperty { name: "target", value: target.x + target.y })
                }
            },
            |j| j.set_target(target),
        )
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<Reduced> {
        reduce(py, "joint", &self.world, self.key)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyJoint>().is_ok_and(|o| {
            let o = o.get();
            o.key == self.key && o.world.as_ptr() == self.world.as_ptr()
        })
    }

    fn __hash__(&self) -> u64 {
        key_hash(self.world.as_ptr() as usize, slotmap::Key::data(&self.key).as_ffi()) ^ 2
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.get(py, |j| kind_name(j.kind())) {
            Ok(kind) => format!("Joint({kind})"),
            Err(_) => "Joint(removed)".to_string(),
        }
    }
}

/// The keyword options every `add_*_joint` shares; `None` leaves the
/// builder's default.
struct Options {
    lower: Option<f64>,
    upper: Option<f64>,
    motor_speed: Option<f64>,
    max_motor: Option<(&'static str, Option<f64>)>,
    hertz: Option<f64>,
    damping_ratio: Option<f64>,
    max_force: Option<f64>,
    max_torque: Option<f64>,
    collide_connected: bool,
}

impl Options {
    /// The options a kind takes beyond limits, motor and spring.
    fn new(collide_connected: bool) -> Self {
        Self {
            lower: None,
            upper: None,
            motor_speed: None,
            max_motor: None,
            hertz: None,
            damping_ratio: None,
            max_force: None,
            max_torque: None,
            collide_connected,
        }
    }

    /// Applies the options to `desc`, refusing half-given pairs.
    fn apply(self, mut desc: JointDesc) -> PyResult<JointDesc> {
        match (self.lower, self.upper) {
            (Some(lower), Some(upper)) => desc = desc.limits(real("lower", lower)?, real("upper", upper)?),
            (None, None) => {}
            _ => return Err(world_error("limits need both lower and upper")),
        }
        let max_motor = self.max_motor.and_then(|(name, v)| v.map(|v| (name, v)));
        match (self.motor_speed, max_motor) {
            (Some(speed), Some((name, max))) => {
                desc = desc.motor(real("motor_speed", speed)?, real(name, max)?)
            }
            (None, None) => {}
            (Some(_), None) => {
                let name = self.max_motor.map_or("max_motor_torque", |(name, _)| name);
                return Err(world_error(format!("motor_speed needs {name}, the motor's strength")));
            }
            (None, Some((name, _))) => return Err(world_error(format!("{name} needs motor_speed"))),
        }
        match (self.hertz, self.damping_ratio) {
            (Some(hertz), damping) => {
                // A kind with a spring of its own (wheel, mouse) keeps its
                // damping unless given another.
                let kept = desc.spring.map_or(0.0, |s| s.damping_ratio as f64);
                desc = desc.spring(real("hertz", hertz)?, real("damping_ratio", damping.unwrap_or(kept))?)
            }
            (None, None) => {}
            (None, Some(_)) => return Err(world_error("damping_ratio needs hertz, the spring's stiffness")),
        }
        if let Some(f) = self.max_force {
            desc = desc.max_force(real("max_force", f)?);
        }
        if let Some(t) = self.max_torque {
            desc = desc.max_torque(real("max_torque", t)?);
        }
        Ok(desc.collide_connected(self.collide_connected))
    }
}

/// Adds `desc` (with `options`) to the world and returns the handle.
fn add(slf: &Bound<'_, PyWorld>, desc: JointDesc, options: Options) -> PyResult<PyJoint> {
    let desc = options.apply(desc)?;
    let key = slf.borrow_mut().world.add_joint(desc).map_err(from_engine)?;
    Ok(PyJoint { world: slf.clone().unbind(), key })
}

/// The keys of two live bodies of this world.
fn pair_of(slf: &Bound<'_, PyWorld>, a: &PyBody, b: &PyBody) -> PyResult<(BodyKey, BodyKey)> {
    Ok((PyBody::key_in(slf, a)?, PyBody::key_in(slf, b)?))
}

#[pymethods]
impl PyWorld {
    /// A hinge at `anchor` (world frame): the bodies share that point and B
    /// turns freely about it, within `lower`..`upper` rad if given, driven by
    /// a motor of `motor_speed` rad/s and `max_motor_torque` N·m, or sprung
    /// toward angle 0 at `hertz`.
    #[pyo3(signature = (
        a, b, anchor, *, lower=None, upper=None, motor_speed=None, max_motor_torque=None,
        hertz=None, damping_ratio=None, collide_connected=false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn add_revolute_joint(
        slf: &Bound<'_, Self>,
        a: PyRef<'_, PyBody>,
        b: PyRef<'_, PyBody>,
        anchor: Pair,
        lower: Option<f64>,
        upper: Option<f64>,
        motor_speed: Option<f64>,
        max_motor_torque: Option<f64>,
        hertz: Option<f64>,
        damping_ratio: Option<f64>,
        collide_connected: bool,
    ) -> PyResult<PyJoint> {
        let (ka, kb) = pair_of(slf, &a, &b)?;
        let options = Options {
            lower,
            upper,
            motor_speed,
            max_motor: Some(("max_motor_torque", max_motor_torque)),
            hertz,
            damping_ratio,
            ..Options::new(collide_connected)
        };
        add(slf, JointDesc::revolute(ka, kb, point("anchor", anchor)?), options)
    }

    /// A slider: B moves along `axis` (world frame, fixed in A) through
    /// `anchor` without turning relative to A; limits in m, a motor of
    /// `motor_speed` m/s and `max_motor_force` N, a spring toward translation 0.
    #[pyo3(signature = (
        a, b, anchor, axis, *, lower=None, upper=None, motor_speed=None, max_motor_force=None,
        hertz=None, damping_ratio=None, collide_connected=false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn add_prismatic_joint(
        slf: &Bound<'_, Self>,
        a: PyRef<'_, PyBody>,
        b: PyRef<'_, PyBody>,
        anchor: Pair,
        axis: Pair,
        lower: Option<f64>,
        upper: Option<f64>,
        motor_speed: Option<f64>,
        max_motor_force: Option<f64>,
        hertz: Option<f64>,
        damping_ratio: Option<f64>,
        collide_connected: bool,
    ) -> PyResult<PyJoint> {
        let (ka, kb) = pair_of(slf, &a, &b)?;
        let options = Options {
            lower,
            upper,
            motor_speed,
            max_motor: Some(("max_motor_force", max_motor_force)),
            hertz,
            damping_ratio,
            ..Options::new(collide_connected)
        };
        add(slf, JointDesc::prismatic(ka, kb, point("anchor", anchor)?, vec2("axis", axis)?), options)
    }

    /// Glues B to A as they are now; `hertz` makes the weld a spring both ways.
    #[pyo3(signature = (a, b, anchor, *, hertz=None, damping_ratio=None, collide_connected=false))]
    fn add_weld_joint(
        slf: &Bound<'_, Self>,
        a: PyRef<'_, PyBody>,
        b: PyRef<'_, PyBody>,
        anchor: Pair,
        hertz: Option<f64>,
        damping_ratio: Option<f64>,
        collide_connected: bool,
    ) -> PyResult<PyJoint> {
        let (ka, kb) = pair_of(slf, &a, &b)?;
        let options = Options { hertz, damping_ratio, ..Options::new(collide_connected) };
        add(slf, JointDesc::weld(ka, kb, point("anchor", anchor)?), options)
    }

    /// Keeps `anchor_a` on A and `anchor_b` on B (world frame) at their
    /// present distance: rigid, or within `lower`..`upper` m (a rope is
    /// `lower=0, upper=length`), or a spring toward it.
    #[pyo3(signature = (
        a, b, anchor_a, anchor_b, *, lower=None, upper=None, motor_speed=None, max_motor_force=None,
        hertz=None, damping_ratio=None, collide_connected=false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn add_distance_joint(
        slf: &Bound<'_, Self>,
        a: PyRef<'_, PyBody>,
        b: PyRef<'_, PyBody>,
        anchor_a: Pair,
        anchor_b: Pair,
        lower: Option<f64>,
        upper: Option<f64>,
        motor_speed: Option<f64>,
        max_motor_force: Option<f64>,
        hertz: Option<f64>,
        damping_ratio: Option<f64>,
        collide_connected: bool,
    ) -> PyResult<PyJoint> {
        let (ka, kb) = pair_of(slf, &a, &b)?;
        let options = Options {
            lower,
            upper,
            motor_speed,
            max_motor: Some(("max_motor_force", max_motor_force)),
            hertz,
            damping_ratio,
            ..Options::new(collide_connected)
        };
        let desc = JointDesc::distance(ka, kb, point("anchor_a", anchor_a)?, point("anchor_b", anchor_b)?);
        add(slf, desc, options)
    }

    /// A wheel: B turns freely about `anchor`, which slides along `axis`
    /// (fixed in A) on a spring (1 Hz, damping 0.7 unless given); limits in
    /// m; a motor turns the wheel at `motor_speed` rad/s with `max_motor_torque`.
    #[pyo3(signature = (
        a, b, anchor, axis, *, lower=None, upper=None, motor_speed=None, max_motor_torque=None,
        hertz=None, damping_ratio=None, collide_connected=false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn add_wheel_joint(
        slf: &Bound<'_, Self>,
        a: PyRef<'_, PyBody>,
        b: PyRef<'_, PyBody>,
        anchor: Pair,
        axis: Pair,
        lower: Option<f64>,
        upper: Option<f64>,
        motor_speed: Option<f64>,
        max_motor_torque: Option<f64>,
        hertz: Option<f64>,
        damping_ratio: Option<f64>,
        collide_connected: bool,
    ) -> PyResult<PyJoint> {
        let (ka, kb) = pair_of(slf, &a, &b)?;
        let options = Options {
            lower,
            upper,
            motor_speed,
            max_motor: Some(("max_motor_torque", max_motor_torque)),
            hertz,
            damping_ratio,
            ..Options::new(collide_connected)
        };
        add(slf, JointDesc::wheel(ka, kb, point("anchor", anchor)?, vec2("axis", axis)?), options)
    }

    /// Drives B toward the pose relative to A it has now, with at most
    /// `max_force` N and `max_torque` N·m (unbounded unless given).
    #[pyo3(signature = (a, b, *, max_force=None, max_torque=None, collide_connected=false))]
    fn add_motor_joint(
        slf: &Bound<'_, Self>,
        a: PyRef<'_, PyBody>,
        b: PyRef<'_, PyBody>,
        max_force: Option<f64>,
        max_torque: Option<f64>,
        collide_connected: bool,
    ) -> PyResult<PyJoint> {
        let (ka, kb) = pair_of(slf, &a, &b)?;
        let options = Options { max_force, max_torque, ..Options::new(collide_connected) };
        add(slf, JointDesc::motor_joint(ka, kb), options)
    }

    /// Pulls the point of `body` now at `target` toward `target` (move it
    /// with `Joint.set_target`) on a spring (5 Hz, damping 0.7 unless
    /// given), with at most `max_force` N.
    #[pyo3(signature = (body, target, *, max_force=None, hertz=None, damping_ratio=None))]
    fn add_mouse_joint(
        slf: &Bound<'_, Self>,
        body: PyRef<'_, PyBody>,
        target: Pair,
        max_force: Option<f64>,
        hertz: Option<f64>,
        damping_ratio: Option<f64>,
    ) -> PyResult<PyJoint> {
        let key = PyBody::key_in(slf, &body)?;
        let options = Options { max_force, hertz, damping_ratio, ..Options::new(false) };
        add(slf, JointDesc::mouse(key, point("target", target)?), options)
    }

    /// Removes a joint and wakes its bodies.
    fn remove_joint(slf: &Bound<'_, Self>, joint: PyRef<'_, PyJoint>) -> PyResult<()> {
        if !PyWorld::owns(slf, &joint.world) {
            return Err(PyWorld::foreign("joint"));
        }
        slf.borrow_mut().world.remove_joint(joint.key).map_err(|_| removed())
    }

    /// Every joint, in key order.
    fn joints(slf: &Bound<'_, Self>) -> Vec<PyJoint> {
        let keys: Vec<JointKey> = slf.borrow().world.joints().map(|(k, _)| k).collect();
        keys.into_iter().map(|key| PyJoint { world: slf.clone().unbind(), key }).collect()
    }
}
