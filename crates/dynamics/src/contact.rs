//! Contacts: the persistent state of a pair of colliders whose fat bounding boxes
//! overlap, from the broad phase's `Begin` to its `End`.
//!
//! Each step the narrow phase refreshes the pair's manifold. New points inherit
//! the accumulated impulses of the old points with the same feature id, which is
//! what lets the solver start where it stopped (warm starting).

use arrayvec::ArrayVec;
use lamina_geometry::{Point, Real, Vec2};
use lamina_narrowphase::FeatureId;

use crate::{BodyKey, ColliderKey};

/// One point of a contact's manifold, with the solver's memory of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPointState {
    /// World position, midway between the surfaces.
    pub point: Point,
    /// The point in body A's frame.
    pub local_a: Point,
    /// The point in body B's frame.
    pub local_b: Point,
    /// Signed distance between the surfaces (negative when overlapping).
    pub separation: Real,
    /// Which features of the two shapes made the point.
    pub id: FeatureId,
    /// Accumulated normal impulse of the last step, N·s.
    pub normal_impulse: Real,
    /// Accumulated friction impulse of the last step, N·s.
    pub tangent_impulse: Real,
}

/// The contact between two colliders.
#[derive(Clone, Debug)]
pub struct Contact {
    pub(crate) collider_a: ColliderKey,
    pub(crate) collider_b: ColliderKey,
    pub(crate) body_a: BodyKey,
    pub(crate) body_b: BodyKey,
    pub(crate) friction: Real,
    pub(crate) restitution: Real,
    pub(crate) sensor: bool,
    pub(crate) normal: Vec2,
    pub(crate) points: ArrayVec<ContactPointState, 2>,
    pub(crate) touching: bool,
}

impl Contact {
    /// The first collider (the one the normal points away from).
    pub fn collider_a(&self) -> ColliderKey {
        self.collider_a
    }

    /// The second collider.
    pub fn collider_b(&self) -> ColliderKey {
        self.collider_b
    }

    /// The body of the first collider.
    pub fn body_a(&self) -> BodyKey {
        self.body_a
    }

    /// The body of the second collider.
    pub fn body_b(&self) -> BodyKey {
        self.body_b
    }

    /// Unit normal from A to B, world frame.
    pub fn normal(&self) -> Vec2 {
        self.normal
    }

    /// The manifold's points (speculative ones included).
    pub fn points(&self) -> &[ContactPointState] {
        &self.points
    }

    /// True when the manifold has points (or, for a sensor, the shapes overlap).
    pub fn is_touching(&self) -> bool {
        self.touching
    }

    /// True when one of the colliders is a sensor.
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }

    /// Gives each of `points` the accumulated impulses of the current point
    /// with the same feature id (none without warm starting).
    pub(crate) fn carry_impulses(&self, points: &mut [ContactPointState], warm_start: bool) {
        for p in points {
            let old = self.points.iter().find(|o| o.id == p.id).filter(|_| warm_start);
            p.normal_impulse = old.map_or(0.0, |o| o.normal_impulse);
            p.tangent_impulse = old.map_or(0.0, |o| o.tangent_impulse);
        }
    }
}

/// A change of a contact's touching state, reported after the step that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// A change of a sensor's overlap with another collider.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
