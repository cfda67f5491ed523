//! A scene file's joints: an object whose `kind` says which joint it is, the
//! bodies it joins by their names, where, and the options that kind takes, as
//! `{"kind": "revolute", "body_a": "ground", "body_b": "door", "anchor": [0, 1]}`.
//!
//! Each kind lists only the options it has, so an option on the wrong kind
//! (a motor on a weld) is refused as an unknown field, like a misspelt one.
//! Anchors and axes are world coordinates with the bodies where the file puts
//! them, as for [`JointDesc`].

use lamina_dynamics::{BodyKey, JointDesc};
use lamina_geometry::{Real, Vec2};
use serde::Deserialize;

use super::error::SceneError;
use super::shape::point;

/// A joint of a scene file ([`JointDesc`]). Points and axes are `[x, y]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SceneJoint {
    /// A hinge: B turns freely about `anchor` ([`JointDesc::revolute`]).
    Revolute {
        /// A name to find the joint's key by, unique among the joints.
        #[serde(default)]
        name: Option<String>,
        /// The name of body A.
        body_a: String,
        /// The name of body B.
        body_b: String,
        /// The shared point, m.
        anchor: [Real; 2],
        /// `[lower, upper]` relative angle, rad.
        #[serde(default)]
        limits: Option<[Real; 2]>,
        /// Drives the relative turn: rad/s and N·m.
        #[serde(default)]
        motor: Option<SceneMotor>,
        /// Pulls toward the angle at creation.
        #[serde(default)]
        spring: Option<SceneSpring>,
        /// Stiffness of the rigid rows instead of the world's.
        #[serde(default)]
        softness: Option<SceneSpring>,
        /// Whether A and B still collide. Default false.
        #[serde(default)]
        collide_connected: bool,
        /// Free for the user.
        #[serde(default)]
        user_data: u64,
    },
    /// A slider: B moves along `axis`, fixed in A, without turning
    /// ([`JointDesc::prismatic`]).
    Prismatic {
        /// A name to find the joint's key by.
        #[serde(default)]
        name: Option<String>,
        /// The name of body A.
        body_a: String,
        /// The name of body B.
        body_b: String,
        /// A point on the axis, m.
        anchor: [Real; 2],
        /// The direction B slides in.
        axis: [Real; 2],
        /// `[lower, upper]` translation, m.
        #[serde(default)]
        limits: Option<[Real; 2]>,
        /// Drives the translation: m/s and N.
        #[serde(default)]
        motor: Option<SceneMotor>,
        /// Pulls toward the translation at creation.
        #[serde(default)]
        spring: Option<SceneSpring>,
        /// Stiffness of the rigid rows instead of the world's.
        #[serde(default)]
        softness: Option<SceneSpring>,
        /// Whether A and B still collide. Default false.
        #[serde(default)]
        collide_connected: bool,
        /// Free for the user.
        #[serde(default)]
        user_data: u64,
    },
    /// Glues B to A as the file places them ([`JointDesc::weld`]).
    Weld {
        /// A name to find the joint's key by.
        #[serde(default)]
        name: Option<String>,
        /// The name of body A.
        body_a: String,
        /// The name of body B.
        body_b: String,
        /// The point the two are held at, m.
        anchor: [Real; 2],
        /// Makes the weld soft, both in turn and in place.
        #[serde(default)]
        spring: Option<SceneSpring>,
        /// Stiffness of the rigid rows instead of the world's.
        #[serde(default)]
        softness: Option<SceneSpring>,
        /// Whether A and B still collide. Default false.
        #[serde(default)]
        collide_connected: bool,
        /// Free for the user.
        #[serde(default)]
        user_data: u64,
    },
    /// Keeps two anchors at their distance at creation: a rod, a rope with
    /// limits `[0, length]` ([`JointDesc::distance`]).
    Distance {
        /// A name to find the joint's key by.
        #[serde(default)]
        name: Option<String>,
        /// The name of body A.
        body_a: String,
        /// The name of body B.
        body_b: String,
        /// The anchor on A, m.
        anchor_a: [Real; 2],
        /// The anchor on B, m.
        anchor_b: [Real; 2],
        /// `[min, max]` length, m.
        #[serde(default)]
        limits: Option<[Real; 2]>,
        /// Drives the length: m/s and N.
        #[serde(default)]
        motor: Option<SceneMotor>,
        /// Pulls toward the rest length instead of holding it rigidly.
        #[serde(default)]
        spring: Option<SceneSpring>,
        /// Stiffness of the rigid rows instead of the world's.
        #[serde(default)]
        softness: Option<SceneSpring>,
        /// Whether A and B still collide. Default false.
        #[serde(default)]
        collide_connected: bool,
        /// Free for the user.
        #[serde(default)]
        user_data: u64,
    },
    /// A wheel: B turns freely about `anchor`, which slides on `axis`, fixed
    /// in A, on a spring (1 Hz, damping ratio 0.7 unless given) ([`JointDesc::wheel`]).
    Wheel {
        /// A name to find the joint's key by.
        #[serde(default)]
        name: Option<String>,
        /// The name of body A (the chassis).
        body_a: String,
        /// The name of body B (the wheel).
        body_b: String,
        /// The wheel's axle, m.
        anchor: [Real; 2],
        /// The suspension's direction.
        axis: [Real; 2],
        /// `[lower, upper]` suspension travel, m.
        #[serde(default)]
        limits: Option<[Real; 2]>,
        /// Drives the wheel's turn: rad/s and N·m.
        #[serde(default)]
        motor: Option<SceneMotor>,
        /// The suspension's spring.
        #[serde(default)]
        spring: Option<SceneSpring>,
        /// Stiffness of the rigid rows instead of the world's.
        #[serde(default)]
        softness: Option<SceneSpring>,
        /// Whether A and B still collide. Default false.
        #[serde(default)]
        collide_connected: bool,
        /// Free for the user.
        #[serde(default)]
        user_data: u64,
    },
    /// Drives B toward its pose relative to A at creation
    /// ([`JointDesc::motor_joint`]).
    Motor {
        /// A name to find the joint's key by.
        #[serde(default)]
        name: Option<String>,
        /// The name of body A.
        body_a: String,
        /// The name of body B.
        body_b: String,
        /// The largest force, N. Default: unbounded.
        #[serde(default)]
        max_force: Option<Real>,
        /// The largest torque, N·m. Default: unbounded.
        #[serde(default)]
        max_torque: Option<Real>,
        /// The share of the pose error corrected per substep, 0 to 1. Default 0.3.
        #[serde(default)]
        correction_factor: Option<Real>,
        /// Stiffness of the rigid rows instead of the world's.
        #[serde(default)]
        softness: Option<SceneSpring>,
        /// Whether A and B still collide. Default false.
        #[serde(default)]
        collide_connected: bool,
        /// Free for the user.
        #[serde(default)]
        user_data: u64,
    },
    /// Pulls the point of `body` at `target` toward `target` on a spring (5 Hz,
    /// damping ratio 0.7 unless given) ([`JointDesc::mouse`]).
    Mouse {
        /// A name to find the joint's key by.
        #[serde(default)]
        name: Option<String>,
        /// The name of the body pulled.
        body: String,
        /// The point pulled toward, m.
        target: [Real; 2],
        /// The pull's spring.
        #[serde(default)]
        spring: Option<SceneSpring>,
        /// The largest force, N. Default: unbounded.
        #[serde(default)]
        max_force: Option<Real>,
        /// Stiffness of the rigid rows instead of the world's.
        #[serde(default)]
        softness: Option<SceneSpring>,
        /// Free for the user.
        #[serde(default)]
        user_data: u64,
    },
}

/// A joint's motor ([`lamina_dynamics::Motor`]): `{"speed": s, "max": m}`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneMotor {
    /// The relative speed it drives toward: rad/s or m/s, as the kind says.
    pub speed: Real,
    /// The most torque (N·m) or force (N) it applies.
    pub max: Real,
}

/// A spring ([`lamina_dynamics::Spring`]): `{"hertz": f, "damping_ratio": z}`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneSpring {
    /// Natural frequency, Hz.
    pub hertz: Real,
    /// 1 is critical damping.
    pub damping_ratio: Real,
}

/// The options of a joint, whichever kind it is; those its kind lacks stay unset.
#[derive(Default)]
struct Options {
    limits: Option<[Real; 2]>,
    motor: Option<SceneMotor>,
    spring: Option<SceneSpring>,
    max_force: Option<Real>,
    max_torque: Option<Real>,
    correction_factor: Option<Real>,
    softness: Option<SceneSpring>,
    collide_connected: bool,
    user_data: u64,
}

impl Options {
    /// `desc` with every option that is set.
    fn apply(self, mut desc: JointDesc) -> JointDesc {
        if let Some([lower, upper]) = self.limits {
            desc = desc.limits(lower, upper);
        }
        if let Some(SceneMotor { speed, max }) = self.motor {
            desc = desc.motor(speed, max);
        }
        if let Some(SceneSpring { hertz, damping_ratio }) = self.spring {
            desc = desc.spring(hertz, damping_ratio);
        }
        if let Some(force) = self.max_force {
            desc = desc.max_force(force);
        }
        if let Some(torque) = self.max_torque {
            desc = desc.max_torque(torque);
        }
        if let Some(factor) = self.correction_factor {
            desc = desc.correction_factor(factor);
        }
        if let Some(SceneSpring { hertz, damping_ratio }) = self.softness {
            desc = desc.softness(hertz, damping_ratio);
        }
        desc.collide_connected(self.collide_connected).user_data(self.user_data)
    }
}

impl SceneJoint {
    /// The joint's name, if it has one.
    pub fn name(&self) -> Option<&str> {
        match self {
            SceneJoint::Revolute { name, .. }
            | SceneJoint::Prismatic { name, .. }
            | SceneJoint::Weld { name, .. }
            | SceneJoint::Distance { name, .. }
            | SceneJoint::Wheel { name, .. }
            | SceneJoint::Motor { name, .. }
            | SceneJoint::Mouse { name, .. } => name.as_deref(),
        }
    }

    /// The engine's description of the joint, with its bodies' keys found by
    /// their names through `body`.
    pub(super) fn desc(
        &self,
        body: impl Fn(&str) -> Result<BodyKey, SceneError>,
    ) -> Result<JointDesc, SceneError> {
        let vec = |[x, y]: [Real; 2]| Vec2::new(x, y);
        let (desc, options) = match self {
            SceneJoint::Revolute {
                body_a,
                body_b,
                anchor,
                limits,
                motor,
                spring,
                softness,
                collide_connected,
                user_data,
                ..
            } => (
                JointDesc::revolute(body(body_a)?, body(body_b)?, point(*anchor)),
                Options {
                    limits: *limits,
                    motor: *motor,
                    spring: *spring,
                    softness: *softness,
                    collide_connected: *collide_connected,
                    user_data: *user_data,
                    ..Options::default()
                },
            ),
            SceneJoint::Prismatic {
                body_a,
                body_b,
                anchor,
                axis,
                limits,
                motor,
                spring,
                softness,
                collide_connected,
                user_data,
                ..
            } => (
                JointDesc::prismatic(body(body_a)?, body(body_b)?, point(*anchor), vec(*axis)),
                Options {
                    limits: *limits,
                    motor: *motor,
                    spring: *spring,
                    softness: *softness,
                    collide_connected: *collide_connected,
                    user_data: *user_data,
                    ..Options::default()
                },
            ),
            SceneJoint::Weld {
                body_a,
                body_b,
                anchor,
                spring,
                softness,
                collide_connected,
                user_data,
                ..
            } => (
                JointDesc::weld(body(body_a)?, body(body_b)?, point(*anchor)),
                Options {
                    spring: *spring,
                    softness: *softness,
                    collide_connected: *collide_connected,
                    user_data: *user_data,
                    ..Options::default()
                },
            ),
            SceneJoint::Distance {
                body_a,
                body_b,
                anchor_a,
                anchor_b,
                limits,
                motor,
                spring,
                softness,
                collide_connected,
                user_data,
                ..
            } => (
                JointDesc::distance(body(body_a)?, body(body_b)?, point(*anchor_a), point(*anchor_b)),
                Options {
                    limits: *limits,
                    motor: *motor,
                    spring: *spring,
                    softness: *softness,
                    collide_connected: *collide_connected,
                    user_data: *user_data,
                    ..Options::default()
                },
            ),
            SceneJoint::Wheel {
                body_a,
                body_b,
                anchor,
                axis,
                limits,
                motor,
                spring,
                softness,
                collide_connected,
                user_data,
                ..
            } => (
                JointDesc::wheel(body(body_a)?, body(body_b)?, point(*anchor), vec(*axis)),
                Options {
                    limits: *limits,
                    motor: *motor,
                    spring: *spring,
                    softness: *softness,
                    collide_connected: *collide_connected,
                    user_data: *user_data,
                    ..Options::default()
                },
            ),
            SceneJoint::Motor {
                body_a,
                body_b,
                max_force,
                max_torque,
                correction_factor,
                softness,
                collide_connected,
                user_data,
                ..
            } => (
                JointDesc::motor_joint(body(body_a)?, body(body_b)?),
                Options {
                    max_force: *max_force,
                    max_torque: *max_torque,
                    correction_factor: *correction_factor,
                    softness: *softness,
                    collide_connected: *collide_connected,
                    user_data: *user_data,
                    ..Options::default()
                },
            ),
            SceneJoint::Mouse { body: pulled, target, spring, max_force, softness, user_data, .. } => (
                JointDesc::mouse(body(pulled)?, point(*target)),
                Options {
                    spring: *spring,
                    max_force: *max_force,
                    softness: *softness,
                    user_data: *user_data,
                    ..Options::default()
                },
            ),
        };
        Ok(options.apply(desc))
    }
}
