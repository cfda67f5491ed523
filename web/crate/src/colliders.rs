//! The world's calls on colliders: a shape fixed to a body with its
//! material and filter.

use lamina2d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::convert::{Result, bits, engine, error, key, real, vec2};
use crate::world::RawWorld;

impl RawWorld {
    /// The key of a live collider, or the error that names it gone.
    pub(crate) fn collider_key(&self, bits: u64) -> Result<ColliderKey> {
        let k = key(&self.world, bits);
        if self.world.collider(k).is_none() {
            return Err(error("the collider was removed from its world"));
        }
        Ok(k)
    }
}

#[wasm_bindgen]
impl RawWorld {
    /// Fixes a shape (`shapes.rs`' kind and numbers) to a body; returns the
    /// collider's key.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = addCollider)]
    pub fn add_collider(
        &mut self,
        body: u64,
        kind: u8,
        numbers: &[f64],
        density: f64,
        friction: f64,
        restitution: f64,
        tangent_speed: f64,
        rolling_resistance: f64,
        sensor: bool,
        local_x: f64,
        local_y: f64,
        local_angle: f64,
        category: u32,
        mask: u32,
        group: i32,
    ) -> Result<u64> {
        let body = self.body_key(body)?;
        let shape = crate::shapes::shape(kind, numbers)?;
        let local = vec2("localPosition", local_x, local_y)?;
        let local_angle = real("localAngle", local_angle)?;
        let mut desc = ColliderDesc::new(shape);
        // At the body's origin unturned: the engine's own identity pose, as a
        // Rust program that sets none gets.
        if local != Vec2::zeros() || local_angle != 0.0 {
            desc = desc.local_pose(Isometry::from_parts(local.into(), crate::convert::rotation(local_angle)));
        }
        let desc = desc
            .density(real("density", density)?)
            .friction(real("friction", friction)?)
            .restitution(real("restitution", restitution)?)
            .tangent_speed(real("tangentSpeed", tangent_speed)?)
            .rolling_resistance(real("rollingResistance", rolling_resistance)?)
            .sensor(sensor)
            .filter(CollisionFilter { category, mask, group });
        Ok(bits(self.world.add_collider(body, desc).map_err(engine)?))
    }

    /// Removes a collider; its body's mass follows.
    #[wasm_bindgen(js_name = removeCollider)]
    pub fn remove_collider(&mut self, collider: u64) -> Result<()> {
        let k = self.collider_key(collider)?;
        self.world.remove_collider(k).map_err(engine)
    }

    /// True while the collider is in the world.
    #[wasm_bindgen(js_name = hasCollider)]
    pub fn has_collider(&self, collider: u64) -> bool {
        self.collider_key(collider).is_ok()
    }

    /// The key of a collider's body.
    #[wasm_bindgen(js_name = colliderBody)]
    pub fn collider_body(&self, collider: u64) -> Result<u64> {
        let k = self.collider_key(collider)?;
        Ok(bits(self.world.collider(k).expect("checked live").body()))
    }

    /// `[density, friction, restitution, tangent speed, rolling resistance, sensor]`.
    #[wasm_bindgen(js_name = colliderInfo)]
    pub fn collider_info(&self, collider: u64) -> Result<Box<[f64]>> {
        let k = self.collider_key(collider)?;
        let c = self.world.collider(k).expect("checked live");
        Ok(Box::new([
            c.density() as f64,
            c.friction() as f64,
            c.restitution() as f64,
            c.tangent_speed() as f64,
            c.rolling_resistance() as f64,
            c.is_sensor() as u8 as f64,
        ]))
    }
}
