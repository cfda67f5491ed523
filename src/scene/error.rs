//! [`SceneError`]: why a scene file was refused, naming the place in the file
//! and the value, with the engine's own error where the engine refused it.

use std::fmt;

use lamina_dynamics::WorldError;
use lamina_geometry::Real;

/// A body or joint of a scene file: its place in its list, counted from 0,
/// and its name if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its index in `bodies` or `joints`.
    pub index: usize,
    /// Its name.
    pub name: Option<String>,
}

impl Entry {
    pub(super) fn new(index: usize, name: Option<&str>) -> Self {
        Self { index, name: name.map(str::to_string) }
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{} ({name:?})", self.index),
            None => write!(f, "{}", self.index),
        }
    }
}

/// Why a scene file was not read or not built.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneError {
    /// The text is not JSON, or not a scene: a syntax error, an unknown or
    /// missing field, a value of the wrong type or out of its type's range.
    /// Lines and columns count from 1.
    Json {
        /// The line of the error.
        line: usize,
        /// The column of the error.
        column: usize,
        /// What is wrong, as `unknown field `radus`, expected `radius``.
        message: String,
    },
    /// Two bodies, or two joints, have the same name.
    DuplicateName {
        /// `"bodies"` or `"joints"`.
        list: &'static str,
        /// The name.
        name: String,
        /// The index of the first with that name.
        first: usize,
        /// The index of the second.
        second: usize,
    },
    /// A joint names a body that no body has.
    UnknownBody {
        /// The joint.
        joint: Entry,
        /// The name it gives.
        name: String,
    },
    /// The scene's time step is not finite or out of the engine's range
    /// ([`lamina_dynamics::MIN_TIME_STEP`] to [`lamina_dynamics::MAX_TIME_STEP`]).
    InvalidTimeStep {
        /// The time step, s.
        time_step: Real,
    },
    /// The world settings were refused.
    Settings(WorldError),
    /// A body was refused.
    Body {
        /// The body.
        body: Entry,
        /// Why.
        error: WorldError,
    },
    /// A collider was refused: its shape (a negative radius, a polygon with
    /// no area) or its material.
    Collider {
        /// The body it belongs to.
        body: Entry,
        /// Its index in the body's `colliders`.
        collider: usize,
        /// Why.
        error: WorldError,
    },
    /// A chain was refused.
    Chain {
        /// The body it belongs to.
        body: Entry,
        /// Its index in the body's `chains`.
        chain: usize,
        /// Why.
        error: WorldError,
    },
    /// A joint was refused (joining a body to itself, limits out of order, ...).
    Joint {
        /// The joint.
        joint: Entry,
        /// Why.
        error: WorldError,
    },
}

impl SceneError {
    /// The error of `serde_json`, with its position apart from its message.
    pub(super) fn from_json(error: &serde_json::Error) -> Self {
        let (line, column) = (error.line(), error.column());
        let text = error.to_string();
        let position = format!(" at line {line} column {column}");
        let message = text.strip_suffix(&position).unwrap_or(&text).to_string();
        SceneError::Json { line, column, message }
    }

    /// The engine's error behind this one, if the engine refused something.
    pub fn world_error(&self) -> Option<&WorldError> {
        match self {
            SceneError::Settings(error)
            | SceneError::Body { error, .. }
            | SceneError::Collider { error, .. }
            | SceneError::Chain { error, .. }
            | SceneError::Joint { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::Json { line, column, message } => {
                write!(f, "scene file, line {line}, column {column}: {message}")
            }
            SceneError::DuplicateName { list, name, first, second } => {
                write!(f, "{list} {first} and {second} are both named {name:?}")
            }
            SceneError::UnknownBody { joint, name } => {
                write!(f, "joint {joint} names body {name:?}, which no body is called")
            }
            SceneError::InvalidTimeStep { time_step } => {
                let (least, most) = (lamina_dynamics::MIN_TIME_STEP, lamina_dynamics::MAX_TIME_STEP);
                write!(f, "time_step must be at least {least} s and at most {most} s, got {time_step}")
            }
            SceneError::Settings(error) => write!(f, "settings: {error}"),
            SceneError::Body { body, error } => write!(f, "body {body}: {error}"),
            SceneError::Collider { body, collider, error } => {
                write!(f, "body {body}, collider {collider}: {error}")
            }
            SceneError::Chain { body, chain, error } => write!(f, "body {body}, chain {chain}: {error}"),
            SceneError::Joint { joint, error } => write!(f, "joint {joint}: {error}"),
        }
    }
}

impl std::error::Error for SceneError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.world_error().map(|e| e as &(dyn std::error::Error + 'static))
    }
}
