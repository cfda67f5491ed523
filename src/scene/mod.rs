//! Scene files (cargo feature `serde`): a world written as JSON by hand,
//! loaded with [`Scene::from_json`] and built with [`Scene::build`].
//!
//! A file lists the world's settings, its bodies with their colliders and
//! chains, and joints that name the bodies they join. Every field that has a
//! default may be left out, taking the engine's own default (the builders'
//! [`BodyDesc::dynamic`], [`ColliderDesc::new`], [`ChainDesc::new`],
//! [`WorldSettings::default`]); a body with no `kind` is dynamic. A field
//! the format does not know, a misspelt one included, is an error that names
//! it, as is a name no body has or two bodies with one name. The format is
//! described field by field in the user's guide (`docs/guide.md`, *Scene
//! files*) and by the types of this module.
//!
//! ```
//! use lamina2d::scene::Scene;
//!
//! let scene = Scene::from_json(r#"{
//!     "bodies": [
//!         { "name": "ground", "kind": "fixed",
//!           "colliders": [{ "shape": { "kind": "box", "half_width": 10, "half_height": 0.5 } }] },
//!         { "name": "ball", "translation": [0, 3],
//!           "colliders": [{ "shape": { "kind": "circle", "radius": 0.5 }, "restitution": 0.5 }] }
//!     ]
//! }"#)?;
//! let (mut world, keys) = scene.build()?;
//! world.step(scene.time_step)?;
//! let ball = keys.body("ball").expect("a body named ball");
//! assert!(world.body(ball).unwrap().position().translation.y < 3.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The file is read into the structs of this module (serde, with
//! `deny_unknown_fields`), then turned into the engine's descriptions by the
//! public builders and added through the calls that return a `Result`
//! ([`World::try_new`], [`World::try_add_body`], ...), so that no input
//! makes the loader panic: what the engine refuses comes back as a
//! [`SceneError`] holding the engine's [`WorldError`](lamina_dynamics::WorldError).
//!
//! [`BodyDesc::dynamic`]: lamina_dynamics::BodyDesc::dynamic
//! [`ColliderDesc::new`]: lamina_dynamics::ColliderDesc::new
//! [`ChainDesc::new`]: lamina_dynamics::ChainDesc::new
//! [`WorldSettings::default`]: lamina_dynamics::WorldSettings

mod body;
mod chain;
mod collider;
mod error;
mod joint;
mod settings;
mod shape;

use std::collections::BTreeMap;

use lamina_dynamics::{BodyKey, JointKey, MAX_TIME_STEP, MIN_TIME_STEP, World};
use lamina_geometry::Real;
use serde::Deserialize;

pub use body::{SceneBody, SceneBodyKind};
pub use chain::SceneChain;
pub use collider::{SceneCollider, SceneFilter};
pub use error::{Entry, SceneError};
pub use joint::{SceneJoint, SceneMotor, SceneSpring};
pub use settings::{SceneMixRule, SceneSettings};
pub use shape::SceneShape;

/// A scene file, read but not yet built. Every field may be left out: `{}`
/// is an empty world with the default settings.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scene {
    /// The world's settings.
    pub settings: SceneSettings,
    /// The time step the scene is meant to be stepped by, s. Default 1/60.
    pub time_step: Real,
    /// The bodies, in the order they are added to the world.
    pub bodies: Vec<SceneBody>,
    /// The joints, added after every body.
    pub joints: Vec<SceneJoint>,
}

impl Default for Scene {
    fn default() -> Self {
        Self {
            settings: SceneSettings::default(),
            time_step: 1.0 / 60.0,
            bodies: Vec::new(),
            joints: Vec::new(),
        }
    }
}

/// The keys of a built scene's bodies and joints, in the file's order and by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SceneKeys {
    bodies: Vec<BodyKey>,
    joints: Vec<JointKey>,
    body_names: BTreeMap<String, usize>,
    joint_names: BTreeMap<String, usize>,
}

impl SceneKeys {
    /// The body called `name`.
    pub fn body(&self, name: &str) -> Option<BodyKey> {
        self.body_names.get(name).map(|&i| self.bodies[i])
    }

    /// The joint called `name`.
    pub fn joint(&self, name: &str) -> Option<JointKey> {
        self.joint_names.get(name).map(|&i| self.joints[i])
    }

    /// Every body's key, in the order of the file's `bodies`.
    pub fn bodies(&self) -> &[BodyKey] {
        &self.bodies
    }

    /// Every joint's key, in the order of the file's `joints`.
    pub fn joints(&self) -> &[JointKey] {
        &self.joints
    }
}

impl Scene {
    /// Reads a scene file. Bad JSON, an unknown or missing field and a value
    /// of the wrong type are errors that say where; the values themselves are
    /// checked by [`Scene::build`].
    pub fn from_json(text: &str) -> Result<Scene, SceneError> {
        serde_json::from_str(text).map_err(|e| SceneError::from_json(&e))
    }

    /// Builds the world the scene describes: the settings, then every body
    /// with its colliders and chains, then the joints. The first thing the
    /// engine refuses, or a name that is missing or taken twice, is the error.
    pub fn build(&self) -> Result<(World, SceneKeys), SceneError> {
        if !(MIN_TIME_STEP..=MAX_TIME_STEP).contains(&self.time_step) {
            return Err(SceneError::InvalidTimeStep { time_step: self.time_step });
        }
        let body_names = unique_names("bodies", self.bodies.iter().map(|b| b.name.as_deref()))?;
        let joint_names = unique_names("joints", self.joints.iter().map(SceneJoint::name))?;
        let mut world = World::try_new(self.settings.to_world_settings()).map_err(SceneError::Settings)?;
        let bodies = (self.bodies.iter().enumerate())
            .map(|(index, body)| body.add_to(&mut world, index))
            .collect::<Result<Vec<_>, _>>()?;
        let mut joints = Vec::with_capacity(self.joints.len());
        for (index, joint) in self.joints.iter().enumerate() {
            let entry = || Entry::new(index, joint.name());
            let find = |name: &str| match body_names.get(name) {
                Some(&i) => Ok(bodies[i]),
                None => Err(SceneError::UnknownBody { joint: entry(), name: name.to_string() }),
            };
            let desc = joint.desc(find)?;
            let key = world.add_joint(desc).map_err(|error| SceneError::Joint { joint: entry(), error })?;
            joints.push(key);
        }
        Ok((world, SceneKeys { bodies, joints, body_names, joint_names }))
    }
}

/// The index of each name in `names` (a list's entries, `None` for those
/// without a name), or the error for the first name taken twice.
fn unique_names<'a>(
    list: &'static str,
    names: impl Iterator<Item = Option<&'a str>>,
) -> Result<BTreeMap<String, usize>, SceneError> {
    let mut found = BTreeMap::new();
    for (second, name) in names.enumerate() {
        let Some(name) = name else { continue };
        if let Some(&first) = found.get(name) {
            return Err(SceneError::DuplicateName { list, name: name.to_string(), first, second });
        }
        found.insert(name.to_string(), second);
    }
    Ok(found)
}
