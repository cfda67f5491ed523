//! The world's joints, as its users see them: joints added and removed (with
//! what that changes of contacts and islands), found, changed and measured.
//! The joints themselves (`JointDesc`, `Joint`, validation) are `joint.rs`.

use lamina_geometry::{Isometry, Point, Real, Vec2};

use crate::body::BodyKind;
use crate::joint::{Joint, JointDesc, JointKind, JointMotion, JointMut, make_joint};
use crate::{BodyKey, JointKey, World, WorldError};

impl World {
    /// Adds a joint. Refuses stale or equal bodies and bad numbers (see
    /// [`JointDesc::validate`]), leaving the world unchanged. Unless
    /// `collide_connected`, the bodies' contacts are removed.
    pub fn add_joint(&mut self, desc: JointDesc) -> Result<JointKey, WorldError> {
        desc.validate()?;
        let mouse = desc.kind == JointKind::Mouse;
        let (a, b) = (desc.body_a, desc.body_b);
        let body_b = self.bodies.get(b).ok_or(WorldError::StaleBody(b))?;
        let pose_b = body_b.pose;
        let pose_a = if mouse {
            Isometry::identity()
        } else {
            self.bodies.get(a).ok_or(WorldError::StaleBody(a))?.pose
        };
        if a == b {
            return Err(WorldError::SameBodies(a));
        }
        let joint = make_joint(desc, &pose_a, &pose_b, body_b.center);
        let key = self.joints.insert(joint);
        self.joint_edits += 1;
        self.free_slots.joints.inserted(key);
        for body in [a, b] {
            if let Some(body) = self.bodies.get_mut(body) {
                body.joints.push(key);
            }
        }
        if !desc.collide_connected && !mouse {
            let (contacts, _, mut parts) = self.contact_parts();
            contacts.destroy_between(a, b, &mut parts);
        }
        self.wake_body(b);
        if !mouse {
            self.wake_body(a);
            let movable = |k: BodyKey| self.bodies[k].kind != BodyKind::Fixed;
            if movable(a) && movable(b) {
                self.islands.link(&mut self.bodies, a, b);
            }
        }
        Ok(key)
    }

    /// Removes a joint and wakes its bodies; their island may split. Bodies
    /// that the joint kept from colliding may collide again.
    pub fn remove_joint(&mut self, key: JointKey) -> Result<(), WorldError> {
        let joint = self.joints.remove(key).ok_or(WorldError::StaleJoint(key))?;
        self.joint_edits += 1;
        self.free_slots.joints.removed(key);
        let (a, b) = (joint.desc.body_a, joint.desc.body_b);
        for body in [a, b] {
            if let Some(body) = self.bodies.get_mut(body) {
                body.joints.retain(|&j| j != key);
            }
        }
        for body in [a, b] {
            self.wake_body(body);
            self.islands.unlink(&self.bodies, body);
        }
        if !joint.desc.collide_connected && self.bodies.contains_key(a) {
            let (contacts, broad_phase, mut parts) = self.contact_parts();
            contacts.create_between(a, b, broad_phase, &mut parts);
        }
        Ok(())
    }

    /// The joint, or `None` for a stale key.
    pub fn joint(&self, key: JointKey) -> Option<&Joint> {
        self.joints.get(key)
    }

    /// The joint for changes (motor, limits, spring, target), or `None` for a
    /// stale key. Every change wakes the joint's bodies at the next step.
    pub fn joint_mut(&mut self, key: JointKey) -> Option<&mut JointMut> {
        let joint = self.joints.get_mut(key)?;
        self.joint_changes_pending = true;
        self.joint_edits += 1;
        Some(JointMut::new(joint))
    }

    /// Every joint, in key order.
    pub fn joints(&self) -> impl Iterator<Item = (JointKey, &Joint)> {
        self.joints.iter()
    }

    /// How many joints the world holds.
    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    /// The joint's relative angle and translation now, and their speeds.
    pub fn joint_motion(&self, key: JointKey) -> Option<JointMotion> {
        let j = self.joints.get(key)?;
        let b = self.bodies.get(j.desc.body_b)?;
        let a = self.bodies.get(j.desc.body_a);
        let (pose_a, va, wa, ca) = match a {
            Some(a) => (a.pose, a.linear_velocity, a.angular_velocity, a.center),
            None => (Isometry::identity(), Vec2::zeros(), 0.0, Point::origin()),
        };
        let (fa, fb) = (pose_a * j.frame_a, b.pose * j.frame_b);
        let d = fb.translation.vector - fa.translation.vector;
        let axis = fa.rotation * Vec2::x();
        let (pa, pb) = (Point::from(fa.translation.vector), Point::from(fb.translation.vector));
        let velocity_of =
            |v: Vec2, w: Real, c: Point, p: Point| v + lamina_geometry::math::left_perp(&(p - c)) * w;
        let dv =
            velocity_of(b.linear_velocity, b.angular_velocity, b.center, pb) - velocity_of(va, wa, ca, pa);
        let rel = fa.rotation.inverse() * fb.rotation;
        let (translation, linear_speed) = if j.desc.kind == JointKind::Distance {
            let length = d.norm();
            let dir = if length > 0.0 { d / length } else { Vec2::zeros() };
            (length, dir.dot(&dv))
        } else {
            // The rate of d·axis with the axis turning with A.
            (d.dot(&axis), dv.dot(&axis) + d.dot(&lamina_geometry::math::left_perp(&axis)) * wa)
        };
        Some(JointMotion {
            angle: lamina_geometry::trig::atan2(rel.im, rel.re),
            angular_speed: b.angular_velocity - wa,
            translation,
            linear_speed,
        })
    }
}
