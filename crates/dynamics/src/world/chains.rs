//! The world's chains, as its users see them: strips and loops of one-sided
//! segments added to a body and removed. The chains themselves (`ChainDesc`,
//! `Chain`) are `chain.rs`.

use crate::chain::{Chain, ChainDesc};
use crate::{BodyKey, ChainKey, ColliderDesc, World, WorldError};

impl World {
    /// Adds a chain of one-sided segments to `body`. Refuses a stale body,
    /// fewer than two points (three for a loop), a non-finite point, a point
    /// that repeats the one before it, or a bad friction or restitution,
    /// leaving the world unchanged.
    pub fn add_chain(&mut self, body: BodyKey, desc: ChainDesc) -> Result<ChainKey, WorldError> {
        desc.validate()?;
        if !self.bodies.contains_key(body) {
            return Err(WorldError::StaleBody(body));
        }
        // Every segment's bounds must fit the broad phase at the body's pose,
        // checked before anything is added.
        let pose = self.bodies[body].pose;
        for i in 0..desc.segment_count() {
            let bounds = desc.segment(i).aabb(&pose);
            for v in [bounds.mins.x, bounds.mins.y, bounds.maxs.x, bounds.maxs.y] {
                if !v.is_finite() {
                    return Err(WorldError::InvalidBodyProperty {
                        name: "chain bounds at body pose",
                        value: v,
                    });
                }
            }
        }
        let mut colliders = Vec::with_capacity(desc.segment_count());
        for i in 0..desc.segment_count() {
            let collider = ColliderDesc::new(desc.segment(i))
                .friction(desc.friction)
                .restitution(desc.restitution)
                .filter(desc.filter)
                .user_data(desc.user_data);
            match self.attach_collider(body, collider) {
                Ok(key) => colliders.push(key),
                Err(e) => {
                    // Unreachable after the checks above; undo, to keep the world whole.
                    for key in colliders {
                        let _ = self.remove_collider(key);
                    }
                    return Err(e);
                }
            }
        }
        // Segments have no mass, but the body's extents take them in; once,
        // not once per segment.
        self.update_mass(body);
        let key = self.chains.insert(Chain { body, colliders, closed: desc.closed });
        self.free_slots.chains.inserted(key);
        Ok(key)
    }

    /// Removes a chain and its segments' colliders (with their contacts),
    /// waking what touched them. Refuses a stale key.
    pub fn remove_chain(&mut self, key: ChainKey) -> Result<(), WorldError> {
        let chain = self.chains.remove(key).ok_or(WorldError::StaleChain(key))?;
        self.free_slots.chains.removed(key);
        for collider in chain.colliders {
            // A segment the user removed on its own is already gone.
            let _ = self.remove_collider(collider);
        }
        Ok(())
    }

    /// The chain, or `None` for a stale key.
    pub fn chain(&self, key: ChainKey) -> Option<&Chain> {
        self.chains.get(key)
    }

    /// Every chain, in key order.
    pub fn chains(&self) -> impl Iterator<Item = (ChainKey, &Chain)> {
        self.chains.iter()
    }

    /// Forgets the chains of a body being removed (its colliders go with it).
    pub(crate) fn forget_chains_of(&mut self, body: BodyKey) {
        let doomed: Vec<ChainKey> =
            self.chains.iter().filter(|(_, c)| c.body == body).map(|(k, _)| k).collect();
        // In key order, as `retain` would, so that the slots are freed in its order.
        for key in doomed {
            self.chains.remove(key);
            self.free_slots.chains.removed(key);
        }
    }
}
