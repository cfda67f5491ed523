//! Checks of the values that go with shapes, shared by the crates above.

use crate::error::ShapeError;
use crate::math::{Real, Rotation};
use crate::tolerance::{MAX_SHAPE_SIZE, UNIT_ROTATION_TOLERANCE};

/// A density (kg/m²) must be finite and not negative; 0 makes a massless part.
pub fn validate_density(density: Real) -> Result<Real, ShapeError> {
    if density.is_finite() && density >= 0.0 {
        Ok(density)
    } else {
        Err(ShapeError::InvalidDensity { density })
    }
}

/// A rotation must be a unit complex number (within
/// [`UNIT_ROTATION_TOLERANCE`]) with finite parts: anything else scales or
/// shears what it turns. The error is the bad number: a non-finite part, or
/// the length.
pub fn validate_rotation(rotation: &Rotation) -> Result<(), Real> {
    let (re, im) = (rotation.re, rotation.im);
    if !re.is_finite() {
        return Err(re);
    }
    if !im.is_finite() {
        return Err(im);
    }
    let length = re.hypot(im);
    if (length - 1.0).abs() > UNIT_ROTATION_TOLERANCE { Err(length) } else { Ok(()) }
}

/// A shape's farthest point from its origin (its local bounding radius, which
/// is infinite when the coordinates' squares overflow) must be within
/// [`MAX_SHAPE_SIZE`].
pub fn validate_reach(shape: &'static str, reach: Real) -> Result<(), ShapeError> {
    if reach <= MAX_SHAPE_SIZE { Ok(()) } else { Err(ShapeError::TooLarge { shape, size: reach }) }
}
