//! [`World::explode`]: a radial blast applied at once to the dynamic bodies
//! near it, as Box2D v3.1's `b2World_Explode`. What a blast is, and how its
//! impulse is sized, is `explosion.rs`.
//!
//! The blast is measured in each collider's own frame (the centre brought
//! into it), so that one far from the origin is as precise as one near it.
//! Every change is worked out and checked first and written after, in
//! collider key order: a blast that is refused, or whose impulses would take
//! a velocity past the largest number, leaves the world as it was.

use lamina_geometry::math::{cross, left_perp};
use lamina_geometry::{Aabb, Point, Real, Vec2};

use crate::explosion::ExplosionDesc;
use crate::query::check_box;
use crate::{BodyKey, BodyKind, ColliderKey, World, WorldError};

/// Below this length (metres) the direction from the centre to a collider
/// is not trusted, and the blast pushes along +x instead, as Box2D does.
const MIN_DIRECTION_LENGTH: Real = 10.0 * Real::EPSILON;

impl World {
    /// Applies the blast of `desc`: each collider of a dynamic body whose
    /// category meets the mask and whose shape comes within
    /// `radius + falloff` of the centre gets an impulse away from the centre
    /// at its point nearest the centre (at its centroid when the centre is
    /// inside it) of `impulse_per_length ×` its projected perimeter across
    /// that direction, scaled down linearly across the falloff band. It
    /// changes linear and angular velocity at once and wakes the body
    /// (sleeping bodies are woken, then pushed). Sensors are not hit (a
    /// sensor is not matter), nor fixed or kinematic bodies.
    ///
    /// Refuses a non-finite position or impulse, a negative or non-finite
    /// radius or falloff, and a blast whose impulses would give a velocity
    /// that is not finite, with [`WorldError::InvalidExplosion`] naming the
    /// value; the world is then left exactly as it was, nothing woken.
    pub fn explode(&mut self, desc: &ExplosionDesc) -> Result<(), WorldError> {
        desc.validate()?;
        let reach = desc.radius + desc.falloff;
        let r = Vec2::new(reach, reach);
        let bounds = Aabb::new(desc.position - r, desc.position + r);
        check_box(&bounds)?;

        let mut keys: Vec<ColliderKey> = Vec::new();
        let _ = self.broad_phase.all().query_with(&bounds, |key| keys.push(key.in_world(self.tag())));
        keys.sort_unstable();

        // Each hit's change of velocity, in collider key order.
        let mut hits: Vec<(BodyKey, Vec2, Real)> = Vec::new();
        for key in keys {
            let Some(hit) = self.blast_on(key, desc) else { continue };
            hits.push(hit);
        }

        // Summed per body (in the order of the hits), and checked, before
        // anything is written.
        let mut bodies: Vec<(BodyKey, Vec2, Real)> = hits
            .iter()
            .map(|&(b, _, _)| (b, self.bodies[b].linear_velocity, self.bodies[b].angular_velocity))
            .collect();
        bodies.sort_unstable_by_key(|e| e.0);
        bodies.dedup_by(|a, b| a.0 == b.0);
        for &(key, dv, dw) in &hits {
            if let Ok(i) = bodies.binary_search_by(|e| e.0.cmp(&key)) {
                bodies[i].1 += dv;
                bodies[i].2 += dw;
            }
        }
        for &(_, v, w) in &bodies {
            if !(v.x.is_finite() && v.y.is_finite() && w.is_finite()) {
                let value = desc.impulse_per_length;
                return Err(WorldError::InvalidExplosion {
                    name: "impulse_per_length (velocity overflows)",
                    value,
                });
            }
        }
        for (key, v, w) in bodies {
            let body = &mut self.bodies[key];
            body.linear_velocity = v;
            body.angular_velocity = w;
            body.sleep_time = 0.0;
            self.wake_body(key);
        }
        Ok(())
    }

    /// The blast's change of velocity of the body of collider `key`, if it
    /// reaches the collider: (body, linear, angular).
    fn blast_on(&self, key: ColliderKey, desc: &ExplosionDesc) -> Option<(BodyKey, Vec2, Real)> {
        let c = self.colliders.get(key)?;
        let body = &self.bodies[c.body];
        if body.kind != BodyKind::Dynamic || c.sensor || c.filter.category & desc.mask == 0 {
            return None;
        }
        // Everything in the collider's frame, near its origin.
        let pose = body.pose * c.local_pose;
        let centre = pose.inverse_transform_point(&desc.position);
        let nearest = c.shape.project_local_point(&centre);
        let distance = if nearest.is_inside { 0.0 } else { (nearest.point - centre).norm() };
        if distance.is_nan() || distance > desc.radius + desc.falloff {
            return None;
        }
        let point: Point = if distance == 0.0 { c.shape.centroid() } else { nearest.point };
        let away = point - centre;
        let direction = if away.norm() > MIN_DIRECTION_LENGTH { away.normalize() } else { Vec2::x() };
        let width = c.shape.projected_perimeter(&left_perp(&direction));
        let scale = if distance > desc.radius && desc.falloff > 0.0 {
            ((desc.radius + desc.falloff - distance) / desc.falloff).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let impulse = pose.rotation * direction * (desc.impulse_per_length * width * scale);
        // The lever arm from the centre of mass, turned into the world.
        let mass_centre = c.local_pose.inverse_transform_point(&body.local_center);
        let arm = pose.rotation * (point - mass_centre);
        Some((c.body, impulse * body.inv_mass, body.inv_inertia * cross(&arm, &impulse)))
    }
}
