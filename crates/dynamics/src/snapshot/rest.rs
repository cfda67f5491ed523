//! The small, irregular parts of a snapshot's part A, written and read
//! through serde in a columnar layout of their own (`columns.rs`): the
//! settings, the joints and chains, the colliders' shapes where they change
//! from one collider to the next, the flags of pending changes, and the
//! events not yet cleared.

use serde::{Deserialize, Serialize};

use lamina_geometry::Shape;

use crate::chain::Chain;
use crate::events::{ContactEvent, ContactHitEvent, SensorEvent};
use crate::joint::Joint;
use crate::{WorldKey, WorldSettings, WorldTag};

/// The small, irregular parts of the world's state, borrowed for writing
/// through serde.
#[derive(Serialize)]
pub(super) struct RestOut<'a> {
    pub(super) settings: &'a WorldSettings,
    pub(super) joints: Vec<&'a Joint>,
    pub(super) chains: Vec<&'a Chain>,
    pub(super) shapes: Vec<&'a Shape>,
    pub(super) joint_changes_pending: bool,
    pub(super) body_changes_pending: bool,
    pub(super) contact_events: &'a [ContactEvent],
    pub(super) sensor_events: &'a [SensorEvent],
    pub(super) hit_events: &'a [ContactHitEvent],
}

/// [`RestOut`] read back, field for field.
#[derive(Deserialize)]
pub(super) struct RestIn {
    pub(super) settings: WorldSettings,
    pub(super) joints: Vec<Joint>,
    pub(super) chains: Vec<Chain>,
    pub(super) shapes: Vec<Shape>,
    pub(super) joint_changes_pending: bool,
    pub(super) body_changes_pending: bool,
    pub(super) contact_events: Vec<ContactEvent>,
    pub(super) sensor_events: Vec<SensorEvent>,
    pub(super) hit_events: Vec<ContactHitEvent>,
}

impl RestIn {
    /// Gives the keys serde read (which carry no world) the restored
    /// world's tag: the joints' bodies, the chains' bodies and colliders,
    /// and the events' colliders.
    pub(super) fn stamp_keys(&mut self, tag: WorldTag) {
        for j in &mut self.joints {
            j.desc.body_a = j.desc.body_a.in_world(tag);
            j.desc.body_b = j.desc.body_b.in_world(tag);
        }
        for chain in &mut self.chains {
            chain.body = chain.body.in_world(tag);
            chain.colliders.iter_mut().for_each(|c| *c = c.in_world(tag));
        }
        for e in &mut self.contact_events {
            let (ContactEvent::Begin { a, b } | ContactEvent::End { a, b }) = e;
            (*a, *b) = (a.in_world(tag), b.in_world(tag));
        }
        for e in &mut self.sensor_events {
            let (SensorEvent::Begin { sensor, visitor } | SensorEvent::End { sensor, visitor }) = e;
            (*sensor, *visitor) = (sensor.in_world(tag), visitor.in_world(tag));
        }
        for hit in &mut self.hit_events {
            (hit.a, hit.b) = (hit.a.in_world(tag), hit.b.in_world(tag));
        }
    }
}
