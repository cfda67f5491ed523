//! The typed error of every fallible world call.

use lamina_geometry::{Real, ShapeError};
use std::fmt;

use crate::{BodyKey, ColliderKey, JointKey};

/// Why a world call was refused. The world is left exactly as it was.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WorldError {
    /// The body was removed (or never belonged to this world).
    StaleBody(BodyKey),
    /// The collider was removed (or never belonged to this world).
    StaleCollider(ColliderKey),
    /// The shape has a bad size or coordinate.
    InvalidShape(ShapeError),
    /// A collider property (density, friction, restitution) is out of range.
    InvalidColliderProperty {
        /// Which property.
        name: &'static str,
        /// The value given.
        value: Real,
    },
    /// A body property (position, velocity, damping, ...) is not finite or out of range.
    InvalidBodyProperty {
        /// Which property.
        name: &'static str,
        /// The offending value.
        value: Real,
    },
    /// A world setting is out of range.
    InvalidSetting {
        /// Which setting.
        name: &'static str,
        /// The value given.
        value: Real,
    },
    /// The joint was removed (or never belonged to this world).
    StaleJoint(JointKey),
    /// A joint needs two different bodies.
    SameBodies(BodyKey),
    /// A joint property (anchor, axis, limit, force, spring, ...) is not
    /// finite or out of range.
    InvalidJointProperty {
        /// Which property.
        name: &'static str,
        /// The offending value.
        value: Real,
    },
    /// The call does not apply to this kind of joint (a mouse target on a
    /// revolute joint, say).
    WrongJointKind {
        /// What was asked for.
        name: &'static str,
        /// The joint's kind.
        kind: crate::JointKind,
    },
    /// The time step must be at least [`crate::MIN_TIME_STEP`] and at most
    /// [`crate::MAX_TIME_STEP`].
    InvalidTimeStep {
        /// The time step given, in seconds.
        dt: Real,
    },
    /// The chain was removed (or never belonged to this world).
    StaleChain(crate::ChainKey),
    /// A chain needs at least two points, a loop three.
    TooFewChainPoints {
        /// The points given.
        count: usize,
        /// The points needed.
        needed: usize,
    },
    /// A chain point is not finite or repeats the point before it.
    InvalidChainPoint {
        /// Its index in the chain's points.
        index: usize,
        /// Its x coordinate.
        x: Real,
        /// Its y coordinate.
        y: Real,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A query's ray, box, point, pose, velocity or reach is not finite or
    /// out of range.
    InvalidQuery {
        /// Which value.
        name: &'static str,
        /// The offending value.
        value: Real,
    },
    /// A character mover must be a capsule or a circle.
    WrongMoverShape {
        /// The kind of shape given.
        kind: &'static str,
    },
    /// A character mover's centre, radius, length or translation is not
    /// finite or out of range (the radius must be more than two linear
    /// slops).
    InvalidMover {
        /// Which value.
        name: &'static str,
        /// The offending value.
        value: Real,
    },
    /// An explosion's position, radius, falloff or impulse is not finite or
    /// out of range.
    InvalidExplosion {
        /// Which value.
        name: &'static str,
        /// The offending value.
        value: Real,
    },
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorldError::StaleBody(k) => {
                write!(f, "body {k:?} is not in this world (removed, or from another world)")
            }
            WorldError::StaleCollider(k) => {
                write!(f, "collider {k:?} is not in this world (removed, or from another world)")
            }
            WorldError::InvalidShape(e) => write!(f, "invalid shape: {e}"),
            WorldError::InvalidColliderProperty { name, value } => {
                write!(f, "collider {name} is out of range: {value}")
            }
            WorldError::InvalidBodyProperty { name, value } => {
                write!(f, "body {name} is out of range: {value}")
            }
            WorldError::InvalidSetting { name, value } => {
                write!(f, "world setting {name} is out of range: {value}")
            }
            WorldError::StaleJoint(k) => {
                write!(f, "joint {k:?} is not in this world (removed, or from another world)")
            }
            WorldError::SameBodies(k) => write!(f, "a joint needs two different bodies, got {k:?} twice"),
            WorldError::InvalidJointProperty { name, value } => {
                write!(f, "joint {name} is out of range: {value}")
            }
            WorldError::WrongJointKind { name, kind } => {
                write!(f, "a {kind:?} joint has no {name}")
            }
            WorldError::InvalidTimeStep { dt } => {
                let (least, most) = (crate::MIN_TIME_STEP, crate::MAX_TIME_STEP);
                write!(f, "time step must be at least {least} s and at most {most} s, got {dt}")
            }
            WorldError::StaleChain(k) => {
                write!(f, "chain {k:?} is not in this world (removed, or from another world)")
            }
            WorldError::TooFewChainPoints { count, needed } => {
                write!(f, "a chain needs at least {needed} points, got {count}")
            }
            WorldError::InvalidChainPoint { index, x, y, reason } => {
                write!(f, "chain point {index} ({x}, {y}) {reason}")
            }
            WorldError::InvalidQuery { name, value } => write!(f, "query {name} is out of range: {value}"),
            WorldError::WrongMoverShape { kind } => {
                write!(f, "a mover must be a capsule or a circle, got a {kind}")
            }
            WorldError::InvalidMover { name, value } => write!(f, "mover {name} is out of range: {value}"),
            WorldError::InvalidExplosion { name, value } => {
                write!(f, "explosion {name} is out of range: {value}")
            }
        }
    }
}

impl std::error::Error for WorldError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WorldError::InvalidShape(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ShapeError> for WorldError {
    fn from(e: ShapeError) -> Self {
        WorldError::InvalidShape(e)
    }
}
