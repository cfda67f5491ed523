//! What a step reports: contacts that began or stopped touching, sensors
//! entered and left, and hits (contacts that began touching at speed), kept
//! until the user clears them or the next step does.

use lamina_geometry::{Point, Real, Vec2};

use crate::ColliderKey;
use crate::body::Body;
use crate::contact::Contact;

/// A change of a contact's touching state, reported after the step that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ContactEvent {
    /// The colliders started touching.
    Begin {
        /// The first collider.
        a: ColliderKey,
        /// The second collider.
        b: ColliderKey,
    },
    /// The colliders stopped touching (or one of them was removed).
    End {
        /// The first collider.
        a: ColliderKey,
        /// The second collider.
        b: ColliderKey,
    },
}

/// Two colliders began touching at speed: Box2D's hit event. Reported for
/// contacts whose surfaces approached faster than
/// [`WorldSettings::hit_event_threshold`](crate::WorldSettings::hit_event_threshold)
/// when they began touching, for impact sounds, damage and particles.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactHitEvent {
    /// The first collider.
    pub a: ColliderKey,
    /// The second collider.
    pub b: ColliderKey,
    /// Where they touched (the contact's first point), world frame.
    pub point: Point,
    /// The contact normal, from `a` to `b`.
    pub normal: Vec2,
    /// How fast the surfaces approached along the normal, m/s (positive).
    pub approach_speed: Real,
}

impl ContactHitEvent {
    /// The hit of contact `c` (between bodies `ba` and `bb`), which just
    /// began touching, if its surfaces approach faster than `threshold`.
    pub(crate) fn of(c: &Contact, ba: &Body, bb: &Body, threshold: Real) -> Option<Self> {
        let first = c.points.first()?;
        let approach_speed = -c.normal.dot(&(bb.velocity_at(&first.point) - ba.velocity_at(&first.point)));
        (approach_speed > threshold).then_some(Self {
            a: c.collider_a(),
            b: c.collider_b(),
            point: first.point,
            normal: c.normal,
            approach_speed,
        })
    }
}

/// A change of a sensor's overlap with another collider.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SensorEvent {
    /// `visitor` started overlapping `sensor`.
    Begin {
        /// The sensor collider.
        sensor: ColliderKey,
        /// The collider entering it.
        visitor: ColliderKey,
    },
    /// `visitor` stopped overlapping `sensor` (or one of them was removed).
    End {
        /// The sensor collider.
        sensor: ColliderKey,
        /// The collider leaving it.
        visitor: ColliderKey,
    },
}

/// The events of the steps since they were last cleared, in the order they
/// happened.
#[derive(Clone, Debug, Default)]
pub(crate) struct Events {
    pub(crate) contacts: Vec<ContactEvent>,
    pub(crate) sensors: Vec<SensorEvent>,
    pub(crate) hits: Vec<ContactHitEvent>,
}

impl Events {
    /// Forgets every event.
    pub(crate) fn clear(&mut self) {
        self.contacts.clear();
        self.sensors.clear();
        self.hits.clear();
    }

    /// Reports that colliders `a` and `b` began (`touching`) or stopped
    /// touching: a sensor event where `sensor` says which of them is the
    /// sensor (`Some(true)`: `a`), a contact event where it is `None`.
    pub(crate) fn report_touching(
        &mut self,
        (a, b): (ColliderKey, ColliderKey),
        sensor: Option<bool>,
        touching: bool,
    ) {
        match sensor {
            Some(a_is_sensor) => {
                let (sensor, visitor) = if a_is_sensor { (a, b) } else { (b, a) };
                self.sensors.push(if touching {
                    SensorEvent::Begin { sensor, visitor }
                } else {
                    SensorEvent::End { sensor, visitor }
                });
            }
            None => self.contacts.push(if touching {
                ContactEvent::Begin { a, b }
            } else {
                ContactEvent::End { a, b }
            }),
        }
    }
}
