//! A scene file's colliders: a shape and its material, every field but the
//! shape optional with [`ColliderDesc::new`]'s defaults; and the collision
//! filter colliders and chains share.

use lamina_dynamics::{ColliderDesc, CollisionFilter, WorldError};
use lamina_geometry::{Isometry, Real, Shape, Vec2};
use serde::Deserialize;

use super::shape::SceneShape;

/// A collider of a scene file. Only the shape is required; the rest take the
/// values of [`ColliderDesc::new`].
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneCollider {
    /// The shape, in the collider's frame.
    pub shape: SceneShape,
    /// Where the collider's frame sits in its body's, `[x, y]`, m. Default `[0, 0]`.
    #[serde(default = "defaults::translation")]
    pub translation: [Real; 2],
    /// The collider frame's angle in its body's, rad. Default 0.
    #[serde(default = "defaults::angle")]
    pub angle: Real,
    /// kg/m². Default 1.
    #[serde(default = "defaults::density")]
    pub density: Real,
    /// Coulomb friction coefficient. Default 0.6.
    #[serde(default = "defaults::friction")]
    pub friction: Real,
    /// Bounciness, 0 to 1. Default 0.
    #[serde(default = "defaults::restitution")]
    pub restitution: Real,
    /// Reports overlaps and never pushes. Default false.
    #[serde(default = "defaults::sensor")]
    pub sensor: bool,
    /// Which colliders it may touch. Default: all.
    #[serde(default)]
    pub filter: SceneFilter,
    /// Free for the user.
    #[serde(default = "defaults::user_data")]
    pub user_data: u64,
    /// The surface's speed along itself, m/s (a conveyor belt). Default 0.
    #[serde(default = "defaults::tangent_speed")]
    pub tangent_speed: Real,
    /// Rolling resistance, for round shapes. Default 0.
    #[serde(default = "defaults::rolling_resistance")]
    pub rolling_resistance: Real,
}

/// A collision filter ([`CollisionFilter`]); left out, a field takes
/// `CollisionFilter::default()`'s value (category 1, every mask bit, group 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SceneFilter {
    /// The categories the collider belongs to, one bit each.
    pub category: u32,
    /// The categories it collides with.
    pub mask: u32,
    /// Colliders of one positive group always collide, of one negative group never.
    pub group: i32,
}

impl Default for SceneFilter {
    fn default() -> Self {
        let d = CollisionFilter::default();
        Self { category: d.category, mask: d.mask, group: d.group }
    }
}

impl SceneFilter {
    /// The engine's filter.
    pub fn to_filter(self) -> CollisionFilter {
        CollisionFilter { category: self.category, mask: self.mask, group: self.group }
    }
}

impl SceneCollider {
    /// The engine's description of the collider; fails only for a polygon
    /// whose points span no area, whose hull cannot be taken. Everything else
    /// is checked by [`World::add_collider`](lamina_dynamics::World::add_collider).
    pub fn desc(&self) -> Result<ColliderDesc, WorldError> {
        let [x, y] = self.translation;
        Ok(ColliderDesc::new(self.shape.to_shape()?)
            .local_pose(Isometry::new(Vec2::new(x, y), self.angle))
            .density(self.density)
            .friction(self.friction)
            .restitution(self.restitution)
            .sensor(self.sensor)
            .filter(self.filter.to_filter())
            .user_data(self.user_data)
            .tangent_speed(self.tangent_speed)
            .rolling_resistance(self.rolling_resistance))
    }
}

/// The values of a field left out: [`ColliderDesc::new`]'s, read from it so
/// that the file and the builder cannot disagree.
mod defaults {
    use super::*;

    /// `ColliderDesc::new`'s description; the shape plays no part in the defaults.
    fn plain() -> ColliderDesc {
        ColliderDesc::new(Shape::circle(1.0))
    }

    pub fn translation() -> [Real; 2] {
        let t = plain().local_pose.translation.vector;
        [t.x, t.y]
    }

    pub fn angle() -> Real {
        plain().local_pose.rotation.angle()
    }

    pub fn density() -> Real {
        plain().density
    }

    pub fn friction() -> Real {
        plain().friction
    }

    pub fn restitution() -> Real {
        plain().restitution
    }

    pub fn sensor() -> bool {
        plain().sensor
    }

    pub fn user_data() -> u64 {
        plain().user_data
    }

    pub fn tangent_speed() -> Real {
        plain().tangent_speed
    }

    pub fn rolling_resistance() -> Real {
        plain().rolling_resistance
    }
}
