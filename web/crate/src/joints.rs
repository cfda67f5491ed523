//! The world's calls on joints. `addJoint` takes a kind, the bodies, the
//! kind's geometry and the options every kind shares, in the order
//! Python's `add_*_joint` applies them: limits, motor, spring, largest
//! force and torque, whether the bodies collide.
//!
//! | kind | joint     | geometry                       |
//! |------|-----------|--------------------------------|
//! | 0    | revolute  | anchor x, y                    |
//! | 1    | prismatic | anchor x, y, axis x, y         |
//! | 2    | weld      | anchor x, y                    |
//! | 3    | distance  | anchor a x, y, anchor b x, y   |
//! | 4    | wheel     | anchor x, y, axis x, y         |
//! | 5    | motor     | (none)                         |
//! | 6    | mouse     | target x, y (body `a` only)    |

use lamina2d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::convert::{Result, bits, engine, error, key, point, real, vec2};
use crate::world::RawWorld;

/// The number of entries of `addJoint`'s `options`.
const OPTIONS: usize = 14;

impl RawWorld {
    fn joint_key(&self, bits: u64) -> Result<JointKey> {
        let k = key(&self.world, bits);
        if self.world.joint(k).is_none() {
            return Err(error("the joint was removed from its world"));
        }
        Ok(k)
    }
}

/// Applies `options`: `[has limits, lower, upper, has motor, speed, max,
/// has spring, hertz, damping ratio (NaN keeps the kind's), has max force,
/// force, has max torque, torque, collide connected]`, each `has` 0 or 1;
/// the JavaScript half names the options and refuses half-given pairs.
fn apply(mut desc: JointDesc, o: &[f64], max_motor: &str) -> Result<JointDesc> {
    if o.len() != OPTIONS {
        return Err(error(format!("joint options take {OPTIONS} numbers, got {}", o.len())));
    }
    if o[0] != 0.0 {
        desc = desc.limits(real("lower", o[1])?, real("upper", o[2])?);
    }
    if o[3] != 0.0 {
        desc = desc.motor(real("motorSpeed", o[4])?, real(max_motor, o[5])?);
    }
    if o[6] != 0.0 {
        // A kind with a spring of its own (wheel, mouse) keeps its damping
        // unless given another.
        let damping = if o[8].is_nan() {
            desc.spring.map_or(0.0, |s| s.damping_ratio)
        } else {
            real("dampingRatio", o[8])?
        };
        desc = desc.spring(real("hertz", o[7])?, damping);
    }
    if o[9] != 0.0 {
        desc = desc.max_force(real("maxForce", o[10])?);
    }
    if o[11] != 0.0 {
        desc = desc.max_torque(real("maxTorque", o[12])?);
    }
    Ok(desc.collide_connected(o[13] != 0.0))
}

#[wasm_bindgen]
impl RawWorld {
    /// Adds a joint (the module's table) and returns its key.
    #[wasm_bindgen(js_name = addJoint)]
    pub fn add_joint(&mut self, kind: u8, a: u64, b: u64, g: &[f64], options: &[f64]) -> Result<u64> {
        let want = |count: usize| {
            if g.len() == count {
                Ok(())
            } else {
                Err(error(format!("joint {kind} takes {count} numbers, got {}", g.len())))
            }
        };
        let ka = self.body_key(a)?;
        let desc = if kind == 6 {
            want(2)?;
            JointDesc::mouse(ka, point("target", g[0], g[1])?)
        } else {
            let kb = self.body_key(b)?;
            match kind {
                0 => {
                    want(2)?;
                    JointDesc::revolute(ka, kb, point("anchor", g[0], g[1])?)
                }
                1 => {
                    want(4)?;
                    JointDesc::prismatic(ka, kb, point("anchor", g[0], g[1])?, vec2("axis", g[2], g[3])?)
                }
                2 => {
                    want(2)?;
                    JointDesc::weld(ka, kb, point("anchor", g[0], g[1])?)
                }
                3 => {
                    want(4)?;
                    JointDesc::distance(ka, kb, point("anchorA", g[0], g[1])?, point("anchorB", g[2], g[3])?)
                }
                4 => {
                    want(4)?;
                    JointDesc::wheel(ka, kb, point("anchor", g[0], g[1])?, vec2("axis", g[2], g[3])?)
                }
                5 => {
                    want(0)?;
                    JointDesc::motor_joint(ka, kb)
                }
                _ => return Err(error(format!("no joint kind {kind}"))),
            }
        };
        let max_motor = if matches!(kind, 1 | 3) { "maxMotorForce" } else { "maxMotorTorque" };
        let desc = apply(desc, options, max_motor)?;
        Ok(bits(self.world.add_joint(desc).map_err(engine)?))
    }

    /// Removes a joint.
    #[wasm_bindgen(js_name = removeJoint)]
    pub fn remove_joint(&mut self, joint: u64) -> Result<()> {
        let k = self.joint_key(joint)?;
        self.world.remove_joint(k).map_err(engine)
    }

    /// True while the joint is in the world.
    #[wasm_bindgen(js_name = hasJoint)]
    pub fn has_joint(&self, joint: u64) -> bool {
        self.joint_key(joint).is_ok()
    }

    /// `[force x, force y, torque]` the joint applied on B over the last step.
    #[wasm_bindgen(js_name = jointForces)]
    pub fn joint_forces(&self, joint: u64) -> Result<Box<[f64]>> {
        let j = self.world.joint(self.joint_key(joint)?).expect("checked live");
        let f = j.constraint_force();
        Ok(Box::new([f.x as f64, f.y as f64, j.constraint_torque() as f64]))
    }

    /// `[angle, angular speed, translation, linear speed]` of B relative to A.
    #[wasm_bindgen(js_name = jointMotion)]
    pub fn joint_motion(&self, joint: u64) -> Result<Box<[f64]>> {
        let m = self.world.joint_motion(self.joint_key(joint)?).expect("checked live");
        Ok(Box::new([m.angle as f64, m.angular_speed as f64, m.translation as f64, m.linear_speed as f64]))
    }

    /// Sets a motor's target speed and wakes the bodies.
    #[wasm_bindgen(js_name = setMotorSpeed)]
    pub fn set_motor_speed(&mut self, joint: u64, speed: f64) -> Result<()> {
        let speed = real("motorSpeed", speed)?;
        let k = self.joint_key(joint)?;
        self.world.joint_mut(k).expect("checked live").set_motor_speed(speed).map_err(engine)
    }

    /// Moves a mouse joint's target and wakes its body.
    #[wasm_bindgen(js_name = setTarget)]
    pub fn set_target(&mut self, joint: u64, x: f64, y: f64) -> Result<()> {
        let target = point("target", x, y)?;
        let k = self.joint_key(joint)?;
        self.world.joint_mut(k).expect("checked live").set_target(target).map_err(engine)
    }
}
