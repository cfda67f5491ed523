//! The `settings` object of a scene file: the world's [`WorldSettings`], each
//! field optional with the engine's default, and a misspelt one an error
//! (the engine's own `WorldSettings` reads unknown fields silently, which a
//! file written by hand cannot afford).

use lamina_dynamics::{MixRule, WorldSettings};
use lamina_geometry::{Real, Vec2};
use serde::Deserialize;

/// The world settings of a scene file; see [`WorldSettings`] for what each
/// field does. A field left out takes `WorldSettings::default()`'s value.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(missing_docs)] // Each field is the `WorldSettings` field of the same name.
pub struct SceneSettings {
    /// `[x, y]`, m/s².
    pub gravity: [Real; 2],
    pub substeps: u32,
    pub contact_hertz: Real,
    pub contact_damping_ratio: Real,
    pub contact_push_max_velocity: Real,
    pub joint_hertz: Real,
    pub joint_damping_ratio: Real,
    pub restitution_threshold: Real,
    pub speculative_distance: Real,
    pub sleep_linear_velocity: Real,
    pub time_to_sleep: Real,
    pub enable_sleep: bool,
    pub enable_warm_starting: bool,
    pub enable_continuous: bool,
    pub friction_mixing: SceneMixRule,
    pub restitution_mixing: SceneMixRule,
    pub max_linear_speed: Real,
    pub hit_event_threshold: Real,
    pub keep_events: bool,
}

/// How two coefficients combine ([`MixRule`]), written in lower case:
/// `"geometric_mean"`, `"average"`, `"min"`, `"max"` or `"multiply"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)] // Each variant is the `MixRule` of the same name.
pub enum SceneMixRule {
    GeometricMean,
    Average,
    Min,
    Max,
    Multiply,
}

impl Default for SceneSettings {
    fn default() -> Self {
        let d = WorldSettings::default();
        Self {
            gravity: [d.gravity.x, d.gravity.y],
            substeps: d.substeps,
            contact_hertz: d.contact_hertz,
            contact_damping_ratio: d.contact_damping_ratio,
            contact_push_max_velocity: d.contact_push_max_velocity,
            joint_hertz: d.joint_hertz,
            joint_damping_ratio: d.joint_damping_ratio,
            restitution_threshold: d.restitution_threshold,
            speculative_distance: d.speculative_distance,
            sleep_linear_velocity: d.sleep_linear_velocity,
            time_to_sleep: d.time_to_sleep,
            enable_sleep: d.enable_sleep,
            enable_warm_starting: d.enable_warm_starting,
            enable_continuous: d.enable_continuous,
            friction_mixing: d.friction_mixing.into(),
            restitution_mixing: d.restitution_mixing.into(),
            max_linear_speed: d.max_linear_speed,
            hit_event_threshold: d.hit_event_threshold,
            keep_events: d.keep_events,
        }
    }
}

impl SceneSettings {
    /// The engine's settings; [`World::try_new`](lamina_dynamics::World::try_new)
    /// checks them.
    #[allow(clippy::needless_update, reason = "fields the engine gains later keep their defaults")]
    pub fn to_world_settings(&self) -> WorldSettings {
        WorldSettings {
            gravity: Vec2::new(self.gravity[0], self.gravity[1]),
            substeps: self.substeps,
            contact_hertz: self.contact_hertz,
            contact_damping_ratio: self.contact_damping_ratio,
            contact_push_max_velocity: self.contact_push_max_velocity,
            joint_hertz: self.joint_hertz,
            joint_damping_ratio: self.joint_damping_ratio,
            restitution_threshold: self.restitution_threshold,
            speculative_distance: self.speculative_distance,
            sleep_linear_velocity: self.sleep_linear_velocity,
            time_to_sleep: self.time_to_sleep,
            enable_sleep: self.enable_sleep,
            enable_warm_starting: self.enable_warm_starting,
            enable_continuous: self.enable_continuous,
            friction_mixing: self.friction_mixing.into(),
            restitution_mixing: self.restitution_mixing.into(),
            max_linear_speed: self.max_linear_speed,
            hit_event_threshold: self.hit_event_threshold,
            keep_events: self.keep_events,
            // Settings the engine gains later keep their defaults until the
            // file format learns them.
            ..WorldSettings::default()
        }
    }
}

impl From<MixRule> for SceneMixRule {
    fn from(rule: MixRule) -> Self {
        match rule {
            MixRule::GeometricMean => SceneMixRule::GeometricMean,
            MixRule::Average => SceneMixRule::Average,
            MixRule::Min => SceneMixRule::Min,
            MixRule::Max => SceneMixRule::Max,
            MixRule::Multiply => SceneMixRule::Multiply,
        }
    }
}

impl From<SceneMixRule> for MixRule {
    fn from(rule: SceneMixRule) -> Self {
        match rule {
            SceneMixRule::GeometricMean => MixRule::GeometricMean,
            SceneMixRule::Average => MixRule::Average,
            SceneMixRule::Min => MixRule::Min,
            SceneMixRule::Max => MixRule::Max,
            SceneMixRule::Multiply => MixRule::Multiply,
        }
    }
}
