//! Scalar and vector types shared by every Lamina crate.
//!
//! Everything is built on nalgebra's 2D types with one scalar, [`Real`], which is
//! `f32` by default and `f64` with the `f64` cargo feature. Code in Lamina names
//! these aliases rather than nalgebra's types so that switching precision is a
//! feature flag, not an edit.

/// The scalar type of the whole engine: `f32`, or `f64` with the `f64` feature.
#[cfg(not(feature = "f64"))]
pub type Real = f32;
/// The scalar type of the whole engine: `f32`, or `f64` with the `f64` feature.
#[cfg(feature = "f64")]
pub type Real = f64;

/// A 2D vector (a direction or a displacement), in metres unless stated otherwise.
pub type Vec2 = nalgebra::Vector2<Real>;
/// A 2D point, in metres.
pub type Point = nalgebra::Point2<Real>;
/// A rigid transform: a rotation followed by a translation.
pub type Isometry = nalgebra::Isometry2<Real>;
/// A 2D rotation stored as a unit complex number (cosine, sine).
pub type Rotation = nalgebra::UnitComplex<Real>;

/// π in [`Real`] precision.
pub const PI: Real = std::f64::consts::PI as Real;

/// The z component of the 3D cross product of `a` and `b`: positive when `b` turns
/// counter-clockwise from `a`.
#[inline]
pub fn cross(a: &Vec2, b: &Vec2) -> Real {
    a.x * b.y - a.y * b.x
}

/// `v` turned a quarter turn counter-clockwise.
#[inline]
pub fn left_perp(v: &Vec2) -> Vec2 {
    Vec2::new(-v.y, v.x)
}

/// `v` turned a quarter turn clockwise: the outward normal direction of an edge of a
/// counter-clockwise polygon.
#[inline]
pub fn right_perp(v: &Vec2) -> Vec2 {
    Vec2::new(v.y, -v.x)
}

/// `v` scaled to unit length, or `None` when its length is zero or not finite.
///
/// Callers choose their own fallback, so that no normalisation in Lamina can turn
/// finite input into NaN.
#[inline]
pub fn try_normalize(v: &Vec2) -> Option<Vec2> {
    unit_and_length(v).map(|(unit, _)| unit)
}

/// `v`'s direction and its length, or `None` when the length is zero or not
/// finite. The direction is always unit length: a vector below the normal
/// numbers has a length below them too, which keeps only a few digits (one
/// 3.6e-43 m long measured 1% long, and `v / length` was 0.997 long), so
/// its direction is taken from `v` scaled up by its largest component.
/// Any other vector gives exactly `v / v.norm()` and `v.norm()`.
#[inline]
pub fn unit_and_length(v: &Vec2) -> Option<(Vec2, Real)> {
    let squared = v.norm_squared();
    if squared >= Real::MIN_POSITIVE {
        let len = squared.sqrt();
        return len.is_finite().then(|| (v / len, len));
    }
    let largest = v.x.abs().max(v.y.abs());
    if largest.is_nan() || largest == 0.0 {
        return None;
    }
    let scaled = v / largest;
    let norm = scaled.norm();
    Some((scaled / norm, largest * norm))
}

/// The length of `v`. Below the normal numbers the squares lose their
/// digits (an offset of 3e-23 in f32 measured 3.7e-23, and the "unit" vector
/// made from it was 0.82 long), so such a vector is measured scaled up by
/// its largest component; any other gives exactly `v.norm()`.
#[inline]
pub fn length(v: &Vec2) -> Real {
    let squared = v.norm_squared();
    if squared >= Real::MIN_POSITIVE || squared.is_nan() {
        return squared.sqrt();
    }
    let largest = v.x.abs().max(v.y.abs());
    if largest == 0.0 { 0.0 } else { largest * (v / largest).norm() }
}

/// True when both components of `v` are finite.
#[inline]
pub fn is_finite_vec(v: &Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

/// True when both coordinates of `p` are finite.
#[inline]
pub fn is_finite_point(p: &Point) -> bool {
    p.x.is_finite() && p.y.is_finite()
}

/// A monotone stand-in for the polar angle of `v`, in `[0, 4)`.
///
/// It orders directions exactly as `atan2` does (counter-clockwise from +x) but uses
/// one division, so it is cheap and gives the same bits on every platform. `v` must
/// be non-zero; the zero vector maps to 0.
#[inline]
pub fn pseudo_angle(v: &Vec2) -> Real {
    let (x, y) = (v.x, v.y);
    let sum = x.abs() + y.abs();
    if sum == 0.0 {
        return 0.0;
    }
    if y >= 0.0 {
        if x >= 0.0 { y / sum } else { 1.0 - x / sum }
    } else if x < 0.0 {
        2.0 - y / sum
    } else {
        3.0 + x / sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pseudo_angle_orders_directions_like_atan2() {
        let mut last = -1.0;
        for i in 0..3600 {
            let a = i as f64 / 3600.0 * std::f64::consts::TAU;
            let v = Vec2::new(a.cos() as Real, a.sin() as Real);
            let p = pseudo_angle(&v);
            assert!(p > last, "step {i}: {p} after {last}");
            assert!((0.0..4.0).contains(&p));
            last = p;
        }
        // The axes fall on whole quarters, as atan2's on multiples of π/2.
        let axes = [(1.0, 0.0, 0.0), (0.0, 1.0, 1.0), (-1.0, 0.0, 2.0), (0.0, -1.0, 3.0)];
        for (x, y, quarter) in axes {
            assert_eq!(pseudo_angle(&Vec2::new(x, y)), quarter);
        }
    }

    #[test]
    fn right_perp_of_ccw_edge_points_outward() {
        // Bottom edge of a counter-clockwise unit square runs +x; outward is -y.
        assert_eq!(right_perp(&Vec2::new(1.0, 0.0)), Vec2::new(0.0, -1.0));
        assert_eq!(left_perp(&Vec2::new(1.0, 0.0)), Vec2::new(0.0, 1.0));
        assert_eq!(cross(&Vec2::new(1.0, 0.0), &Vec2::new(0.0, 1.0)), 1.0);
    }

    #[test]
    fn try_normalize_refuses_zero_and_infinite() {
        assert!(try_normalize(&Vec2::zeros()).is_none());
        assert!(try_normalize(&Vec2::new(Real::INFINITY, 0.0)).is_none());
        assert!(try_normalize(&Vec2::new(Real::NAN, 0.0)).is_none());
        let n = try_normalize(&Vec2::new(3.0, 4.0)).unwrap();
        assert!((n - Vec2::new(0.6, 0.8)).norm() < 1e-6);
    }
}
