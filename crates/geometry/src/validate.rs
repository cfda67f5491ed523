//! Checks of the values that go with shapes, shared by the crates above.

use crate::error::ShapeError;
use crate::math::Real;

/// A density (kg/m²) must be finite and not negative; 0 makes a massless part.
pub fn validate_density(density: Real) -> Result<Real, ShapeError> {
    if density.is_finite() && density >= 0.0 {
        Ok(density)
    } else {
        Err(ShapeError::InvalidDensity { density })
    }
}
