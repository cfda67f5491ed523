//! What happened in the last step: contact begin and end events, hit events
//! (contacts that began at speed), sensor events, and the touching contacts
//! themselves with their points and impulses.

use lamina2d::prelude::*;
use pyo3::prelude::*;

use crate::convert::{Pair, pair, point_pair};
use crate::handles::{PyBody, PyCollider};
use crate::world::PyWorld;

/// Two colliders began (``begin`` True) or ended touching in the last step.
#[pyclass(module = "lamina2d", name = "ContactEvent", frozen, get_all)]
pub struct PyContactEvent {
    /// True when they began touching, False when they stopped (or one was removed).
    pub begin: bool,
    /// The first collider.
    pub collider_a: Py<PyCollider>,
    /// The second collider.
    pub collider_b: Py<PyCollider>,
}

#[pymethods]
impl PyContactEvent {
    fn __repr__(&self) -> String {
        format!("ContactEvent(begin={})", if self.begin { "True" } else { "False" })
    }
}

/// Two colliders began touching with their surfaces approaching faster than
/// the world's ``hit_event_threshold``.
#[pyclass(module = "lamina2d", name = "HitEvent", frozen, get_all)]
pub struct PyHitEvent {
    /// The first collider.
    pub collider_a: Py<PyCollider>,
    /// The second collider.
    pub collider_b: Py<PyCollider>,
    /// Where they touched, world frame.
    pub point: Pair,
    /// The contact normal, from A to B.
    pub normal: Pair,
    /// How fast the surfaces approached along the normal, m/s.
    pub approach_speed: f64,
}

#[pymethods]
impl PyHitEvent {
    fn __repr__(&self) -> String {
        format!("HitEvent(point={:?}, approach_speed={})", self.point, self.approach_speed)
    }
}

/// A collider entered (``begin`` True) or left a sensor.
#[pyclass(module = "lamina2d", name = "SensorEvent", frozen, get_all)]
pub struct PySensorEvent {
    /// True when the visitor entered.
    pub begin: bool,
    /// The sensor collider.
    pub sensor: Py<PyCollider>,
    /// The collider that entered or left.
    pub visitor: Py<PyCollider>,
}

/// A touching contact: its colliders, normal (A to B) and manifold points.
#[pyclass(module = "lamina2d", name = "Contact", frozen, get_all)]
pub struct PyContact {
    /// The first collider.
    pub collider_a: Py<PyCollider>,
    /// The second collider.
    pub collider_b: Py<PyCollider>,
    /// The first body.
    pub body_a: Py<PyBody>,
    /// The second body.
    pub body_b: Py<PyBody>,
    /// The unit normal from A to B.
    pub normal: Pair,
    /// The points as `(point, separation, normal_impulse, tangent_impulse)`:
    /// world position, signed gap (negative when overlapping), and the
    /// impulses of the last substep, N·s (a resting body's weight times the
    /// substep's length, `dt / substeps`).
    pub points: Vec<(Pair, f64, f64, f64)>,
}

fn collider(slf: &Bound<'_, PyWorld>, key: ColliderKey) -> PyResult<Py<PyCollider>> {
    Py::new(slf.py(), PyCollider { world: slf.clone().unbind(), key })
}

fn body_handle(slf: &Bound<'_, PyWorld>, key: BodyKey) -> PyResult<Py<PyBody>> {
    Py::new(slf.py(), PyBody { world: slf.clone().unbind(), key })
}

#[pymethods]
impl PyWorld {
    /// The contact begin and end events of the last step (or since
    /// ``clear_events`` with the ``keep_events`` setting).
    fn contact_events(slf: &Bound<'_, Self>) -> PyResult<Vec<PyContactEvent>> {
        let events: Vec<ContactEvent> = slf.borrow().world.contact_events().to_vec();
        events
            .into_iter()
            .map(|e| {
                let (begin, a, b) = match e {
                    ContactEvent::Begin { a, b } => (true, a, b),
                    ContactEvent::End { a, b } => (false, a, b),
                };
                Ok(PyContactEvent { begin, collider_a: collider(slf, a)?, collider_b: collider(slf, b)? })
            })
            .collect()
    }

    /// The hit events of the last step.
    fn hit_events(slf: &Bound<'_, Self>) -> PyResult<Vec<PyHitEvent>> {
        let events: Vec<ContactHitEvent> = slf.borrow().world.hit_events().to_vec();
        events
            .into_iter()
            .map(|e| {
                Ok(PyHitEvent {
                    collider_a: collider(slf, e.a)?,
                    collider_b: collider(slf, e.b)?,
                    point: point_pair(e.point),
                    normal: pair(e.normal),
                    approach_speed: e.approach_speed as f64,
                })
            })
            .collect()
    }

    /// The sensor events of the last step.
    fn sensor_events(slf: &Bound<'_, Self>) -> PyResult<Vec<PySensorEvent>> {
        let events: Vec<SensorEvent> = slf.borrow().world.sensor_events().to_vec();
        events
            .into_iter()
            .map(|e| {
                let (begin, sensor, visitor) = match e {
                    SensorEvent::Begin { sensor, visitor } => (true, sensor, visitor),
                    SensorEvent::End { sensor, visitor } => (false, sensor, visitor),
                };
                Ok(PySensorEvent { begin, sensor: collider(slf, sensor)?, visitor: collider(slf, visitor)? })
            })
            .collect()
    }

    /// Forgets the kept events (with the ``keep_events`` setting).
    fn clear_events(&mut self) {
        self.world.clear_events();
    }

    /// Every touching contact, or those of `body` if given.
    #[pyo3(signature = (body=None))]
    fn contacts(slf: &Bound<'_, Self>, body: Option<PyRef<'_, PyBody>>) -> PyResult<Vec<PyContact>> {
        let only = body.map(|b| PyBody::key_in(slf, &b)).transpose()?;
        let this = slf.borrow();
        let touching = this.world.contacts().filter(|c| c.is_touching() && !c.is_sensor());
        let wanted = touching.filter(|c| only.is_none_or(|k| c.body_a() == k || c.body_b() == k));
        wanted
            .map(|c| {
                Ok(PyContact {
                    collider_a: collider(slf, c.collider_a())?,
                    collider_b: collider(slf, c.collider_b())?,
                    body_a: body_handle(slf, c.body_a())?,
                    body_b: body_handle(slf, c.body_b())?,
                    normal: pair(c.normal()),
                    points: c
                        .points()
                        .iter()
                        .map(|p| {
                            (
                                point_pair(p.point),
                                p.separation as f64,
                                p.normal_impulse as f64,
                                p.tangent_impulse as f64,
                            )
                        })
                        .collect(),
                })
            })
            .collect()
    }
}

/// Adds the event classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyContactEvent>()?;
    m.add_class::<PyHitEvent>()?;
    m.add_class::<PySensorEvent>()?;
    m.add_class::<PyContact>()?;
    Ok(())
}
