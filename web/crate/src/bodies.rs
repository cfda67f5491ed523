//! The world's calls on bodies: add, read, change, remove. A body is named
//! by its key's bits; a key whose body is gone is refused.

use lamina2d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::convert::{Result, angle_of, bits, engine, error, key, point, real, rotation, vec2};
use crate::world::RawWorld;

impl RawWorld {
    /// The key of a live body, or the error that names it gone.
    pub(crate) fn body_key(&self, bits: u64) -> Result<BodyKey> {
        let k = key(&self.world, bits);
        if self.world.body(k).is_none() {
            return Err(error("the body was removed from its world"));
        }
        Ok(k)
    }

    fn body(&self, bits: u64) -> Result<&Body> {
        let k = self.body_key(bits)?;
        Ok(self.world.body(k).expect("checked live"))
    }

    /// Changes the body through the engine's checked setters, then wakes it.
    fn push(
        &mut self,
        bits: u64,
        edit: impl FnOnce(&mut BodyMut) -> std::result::Result<(), WorldError>,
    ) -> Result<()> {
        let k = self.body_key(bits)?;
        edit(self.world.body_mut(k).expect("checked live")).map_err(engine)?;
        self.world.wake_body(k);
        Ok(())
    }
}

#[wasm_bindgen]
impl RawWorld {
    /// Adds a body: `kind` 0 dynamic, 1 fixed, 2 kinematic; returns its key.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = addBody)]
    pub fn add_body(
        &mut self,
        kind: u8,
        x: f64,
        y: f64,
        angle: f64,
        vx: f64,
        vy: f64,
        angular_velocity: f64,
        bullet: bool,
        linear_damping: f64,
        angular_damping: f64,
        gravity_scale: f64,
        fixed_rotation: bool,
        can_sleep: bool,
        awake: bool,
    ) -> Result<u64> {
        let desc = match kind {
            0 => BodyDesc::dynamic(),
            1 => BodyDesc::fixed(),
            2 => BodyDesc::kinematic(),
            _ => return Err(error(format!("no body kind {kind}"))),
        };
        let p = point("position", x, y)?;
        let desc = desc
            .translation(p.x, p.y)
            .angle(real("angle", angle)?)
            .linear_velocity(vec2("linearVelocity", vx, vy)?)
            .angular_velocity(real("angularVelocity", angular_velocity)?)
            .bullet(bullet)
            .linear_damping(real("linearDamping", linear_damping)?)
            .angular_damping(real("angularDamping", angular_damping)?)
            .gravity_scale(real("gravityScale", gravity_scale)?)
            .fixed_rotation(fixed_rotation)
            .can_sleep(can_sleep)
            .asleep(!awake);
        Ok(bits(self.world.try_add_body(desc).map_err(engine)?))
    }

    /// Removes a body with its colliders and joints.
    #[wasm_bindgen(js_name = removeBody)]
    pub fn remove_body(&mut self, body: u64) -> Result<()> {
        let k = self.body_key(body)?;
        self.world.remove_body(k).map_err(engine)
    }

    /// True while the body is in the world.
    #[wasm_bindgen(js_name = hasBody)]
    pub fn has_body(&self, body: u64) -> bool {
        self.body_key(body).is_ok()
    }

    /// Every body's key, in key order.
    pub fn bodies(&self) -> Vec<u64> {
        self.world.bodies().map(|(k, _)| bits(k)).collect()
    }

    /// `[x, y, angle, vx, vy, angular velocity]` of a body.
    #[wasm_bindgen(js_name = bodyState)]
    pub fn body_state(&self, body: u64) -> Result<Box<[f64]>> {
        let b = self.body(body)?;
        let (t, v) = (b.translation(), b.linear_velocity());
        let angle = angle_of(&b.position().rotation);
        Ok(Box::new([t.x, t.y, angle, v.x, v.y, b.angular_velocity()].map(|r| r as f64)))
    }

    /// `[mass, inertia, kind, sleeping, bullet]` of a body.
    #[wasm_bindgen(js_name = bodyInfo)]
    pub fn body_info(&self, body: u64) -> Result<Box<[f64]>> {
        let b = self.body(body)?;
        let kind = match b.kind() {
            BodyKind::Dynamic => 0.0,
            BodyKind::Fixed => 1.0,
            BodyKind::Kinematic => 2.0,
        };
        Ok(Box::new([
            b.mass() as f64,
            b.inertia() as f64,
            kind,
            b.is_sleeping() as u8 as f64,
            b.is_bullet() as u8 as f64,
        ]))
    }

    /// Moves a body's origin at once.
    #[wasm_bindgen(js_name = setBodyPosition)]
    pub fn set_body_position(&mut self, body: u64, x: f64, y: f64) -> Result<()> {
        let t = vec2("position", x, y)?;
        let k = self.body_key(body)?;
        let now = self.world.body(k).expect("checked live").position();
        self.world.set_body_position(k, Isometry::from_parts(t.into(), now.rotation)).map_err(engine)
    }

    /// Turns a body to `angle` at once.
    #[wasm_bindgen(js_name = setBodyAngle)]
    pub fn set_body_angle(&mut self, body: u64, angle: f64) -> Result<()> {
        let angle = real("angle", angle)?;
        let k = self.body_key(body)?;
        let now = self.world.body(k).expect("checked live").position();
        self.world
            .set_body_position(k, Isometry::from_parts(now.translation, rotation(angle)))
            .map_err(engine)
    }

    #[wasm_bindgen(js_name = setLinearVelocity)]
    pub fn set_linear_velocity(&mut self, body: u64, x: f64, y: f64) -> Result<()> {
        let v = vec2("linearVelocity", x, y)?;
        self.push(body, |b| b.set_linear_velocity(v))
    }

    #[wasm_bindgen(js_name = setAngularVelocity)]
    pub fn set_angular_velocity(&mut self, body: u64, w: f64) -> Result<()> {
        let w = real("angularVelocity", w)?;
        self.push(body, |b| b.set_angular_velocity(w))
    }

    /// Applies a force, N, at the centre of mass or at a world point.
    #[wasm_bindgen(js_name = applyForce)]
    pub fn apply_force(&mut self, body: u64, fx: f64, fy: f64, at: bool, px: f64, py: f64) -> Result<()> {
        let f = vec2("force", fx, fy)?;
        if at {
            let p = point("point", px, py)?;
            self.push(body, |b| b.apply_force_at(f, p))
        } else {
            self.push(body, |b| b.apply_force(f))
        }
    }

    /// Applies an impulse, N·s, at the centre of mass or at a world point.
    #[wasm_bindgen(js_name = applyImpulse)]
    pub fn apply_impulse(&mut self, body: u64, ix: f64, iy: f64, at: bool, px: f64, py: f64) -> Result<()> {
        let i = vec2("impulse", ix, iy)?;
        if at {
            let p = point("point", px, py)?;
            self.push(body, |b| b.apply_impulse_at(i, p))
        } else {
            self.push(body, |b| b.apply_impulse(i))
        }
    }
}
