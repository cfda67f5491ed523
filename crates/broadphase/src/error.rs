//! The typed error of the broad phase.
//!
//! Every public entry validates its input before it touches anything, so a call
//! that returns one of these errors leaves the structure exactly as it was.

use lamina_geometry::{Point, Real, Vec2};
use std::fmt;

/// Why a broad-phase call was refused.
///
/// Every variant carries the offending value so that the message names it. `K`
/// is the caller's key type; the message prints it with `Debug`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BroadPhaseError<K> {
    /// A box with a NaN or infinite coordinate, or with `mins > maxs` on an axis.
    InvalidAabb {
        /// The lower corner given.
        mins: Point,
        /// The upper corner given.
        maxs: Point,
    },
    /// A finite box that overflows to infinity once grown by the margin.
    FatAabbOverflow {
        /// The lower corner given.
        mins: Point,
        /// The upper corner given.
        maxs: Point,
        /// The margin it was grown by, in metres.
        margin: Real,
    },
    /// `update`, `remove` or a lookup named a key that is not in the structure.
    UnknownKey(K),
    /// `insert` named a key that is already in the structure.
    DuplicateKey(K),
    /// The fat-box margin must be finite and not negative.
    InvalidMargin(Real),
    /// The region size must be finite and greater than zero.
    InvalidRegionSize(Real),
    /// A ray needs a finite origin and a finite, non-zero direction.
    InvalidRay {
        /// The ray's origin.
        origin: Point,
        /// The ray's direction.
        dir: Vec2,
    },
    /// A ray's `max_toi` must be at least zero (it may be infinite); NaN is refused.
    InvalidMaxToi(Real),
}

impl<K: fmt::Debug> fmt::Display for BroadPhaseError<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BroadPhaseError::InvalidAabb { mins, maxs } => write!(
                f,
                "AABB must be finite with mins <= maxs, got mins ({}, {}) and maxs ({}, {})",
                mins.x, mins.y, maxs.x, maxs.y
            ),
            BroadPhaseError::FatAabbOverflow { mins, maxs, margin } => write!(
                f,
                "AABB with mins ({}, {}) and maxs ({}, {}) is not finite once grown by the margin {margin}",
                mins.x, mins.y, maxs.x, maxs.y
            ),
            BroadPhaseError::UnknownKey(key) => write!(f, "no proxy with key {key:?}"),
            BroadPhaseError::DuplicateKey(key) => write!(f, "a proxy with key {key:?} already exists"),
            BroadPhaseError::InvalidMargin(margin) => {
                write!(f, "AABB margin must be finite and at least 0 m, got {margin}")
            }
            BroadPhaseError::InvalidRegionSize(size) => {
                write!(f, "region size must be finite and greater than 0 m, got {size}")
            }
            BroadPhaseError::InvalidRay { origin, dir } => write!(
                f,
                "ray needs a finite origin and a finite non-zero direction, got origin ({}, {}) and \
                 direction ({}, {})",
                origin.x, origin.y, dir.x, dir.y
            ),
            BroadPhaseError::InvalidMaxToi(max_toi) => {
                write!(f, "ray max_toi must be at least 0 (infinity allowed), got {max_toi}")
            }
        }
    }
}

impl<K: fmt::Debug> std::error::Error for BroadPhaseError<K> {}
