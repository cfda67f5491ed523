//! A scene file's bodies: each a [`BodyDesc`] with an optional name, every
//! field optional with `BodyDesc`'s defaults, and the colliders and chains it
//! carries.

use lamina_dynamics::{BodyDesc, BodyKey, World};
use lamina_geometry::{Real, Vec2};
use serde::Deserialize;

use super::chain::SceneChain;
use super::collider::SceneCollider;
use super::error::{Entry, SceneError};

/// A body of a scene file. Left out, a field takes the value of
/// [`BodyDesc::dynamic()`]: a dynamic body at the origin, unturned and at rest.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SceneBody {
    /// The name joints use to refer to the body, unique among the bodies.
    /// Bodies no joint refers to need none.
    pub name: Option<String>,
    /// `"dynamic"` (the default), `"fixed"` (also written `"static"`) or `"kinematic"`.
    pub kind: SceneBodyKind,
    /// Where the body's origin is, `[x, y]`, m.
    pub translation: [Real; 2],
    /// Its angle, rad counter-clockwise.
    pub angle: Real,
    /// `[x, y]`, m/s.
    pub linear_velocity: [Real; 2],
    /// rad/s.
    pub angular_velocity: Real,
    /// 1/s.
    pub linear_damping: Real,
    /// 1/s.
    pub angular_damping: Real,
    /// Multiplies the world's gravity for this body.
    pub gravity_scale: Real,
    /// Never rotates.
    pub fixed_rotation: bool,
    /// May fall asleep when resting.
    pub can_sleep: bool,
    /// Starts asleep.
    pub asleep: bool,
    /// Swept against dynamic bodies too when it moves fast.
    pub bullet: bool,
    /// Free for the user.
    pub user_data: u64,
    /// The body's colliders, in its frame.
    pub colliders: Vec<SceneCollider>,
    /// The body's chains, in its frame.
    pub chains: Vec<SceneChain>,
}

/// How a body moves ([`lamina_dynamics::BodyKind`]).
///
/// A body whose kind is left out is dynamic: in a scene most bodies move, and
/// the ground is the one that says `"kind": "fixed"`. (Box2D's default body
/// definition is static; a scene ported from it must spell out its dynamic
/// bodies' kind or its static bodies', one or the other.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SceneBodyKind {
    /// Moved by forces, gravity and contacts.
    #[default]
    Dynamic,
    /// Never moves. Box2D users know it as static.
    #[serde(alias = "static")]
    Fixed,
    /// Moves with the velocity it is given.
    Kinematic,
}

impl Default for SceneBody {
    fn default() -> Self {
        let d = BodyDesc::dynamic();
        Self {
            name: None,
            kind: SceneBodyKind::Dynamic,
            translation: [d.translation.x, d.translation.y],
            angle: d.angle,
            linear_velocity: [d.linear_velocity.x, d.linear_velocity.y],
            angular_velocity: d.angular_velocity,
            linear_damping: d.linear_damping,
            angular_damping: d.angular_damping,
            gravity_scale: d.gravity_scale,
            fixed_rotation: d.fixed_rotation,
            can_sleep: d.can_sleep,
            asleep: d.asleep,
            bullet: d.bullet,
            user_data: d.user_data,
            colliders: Vec::new(),
            chains: Vec::new(),
        }
    }
}

impl SceneBody {
    /// The engine's description of the body (without its colliders and chains).
    pub fn desc(&self) -> BodyDesc {
        let base = match self.kind {
            SceneBodyKind::Dynamic => BodyDesc::dynamic(),
            SceneBodyKind::Fixed => BodyDesc::fixed(),
            SceneBodyKind::Kinematic => BodyDesc::kinematic(),
        };
        let [x, y] = self.translation;
        let [vx, vy] = self.linear_velocity;
        base.translation(x, y)
            .angle(self.angle)
            .linear_velocity(Vec2::new(vx, vy))
            .angular_velocity(self.angular_velocity)
            .linear_damping(self.linear_damping)
            .angular_damping(self.angular_damping)
            .gravity_scale(self.gravity_scale)
            .fixed_rotation(self.fixed_rotation)
            .can_sleep(self.can_sleep)
            .asleep(self.asleep)
            .bullet(self.bullet)
            .user_data(self.user_data)
    }

    /// Adds the body, then its colliders and chains, to `world`; `index` is
    /// the body's place in the file, for the error.
    pub(super) fn add_to(&self, world: &mut World, index: usize) -> Result<BodyKey, SceneError> {
        let entry = || Entry::new(index, self.name.as_deref());
        let key =
            world.try_add_body(self.desc()).map_err(|error| SceneError::Body { body: entry(), error })?;
        for (collider, scene_collider) in self.colliders.iter().enumerate() {
            scene_collider
                .desc()
                .and_then(|desc| world.add_collider(key, desc))
                .map_err(|error| SceneError::Collider { body: entry(), collider, error })?;
        }
        for (chain, scene_chain) in self.chains.iter().enumerate() {
            world.add_chain(key, scene_chain.desc()).map_err(|error| SceneError::Chain {
                body: entry(),
                chain,
                error,
            })?;
        }
        Ok(key)
    }
}
