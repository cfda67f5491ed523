//! The typed error of shape construction and validation.

use crate::math::{Point, Real};
use crate::tolerance::{HULL_RELATIVE_TOLERANCE, MAX_SHAPE_SIZE, MIN_SHAPE_SIZE};
use std::fmt;

/// Why a shape (or a value that goes with one, such as a density) was refused.
///
/// Every variant carries the offending value so that the message names it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeError {
    /// A radius (circle, capsule) that is not finite or is below [`MIN_SHAPE_SIZE`].
    InvalidRadius {
        /// The kind of shape the radius belongs to.
        shape: &'static str,
        /// The radius given.
        radius: Real,
    },
    /// A polygon's rounding radius must be finite and not negative.
    InvalidRoundingRadius {
        /// The radius given.
        radius: Real,
    },
    /// Rectangle half-extents must be finite, at least [`MIN_SHAPE_SIZE`], and the box no
    /// thinner than round-off of its length ([`HULL_RELATIVE_TOLERANCE`]).
    InvalidHalfExtents {
        /// The half-width given.
        half_width: Real,
        /// The half-height given.
        half_height: Real,
    },
    /// Ellipse radii must be finite and at least [`MIN_SHAPE_SIZE`].
    InvalidEllipseRadii {
        /// The radius along the local x axis.
        rx: Real,
        /// The radius along the local y axis.
        ry: Real,
    },
    /// A point has a NaN or infinite coordinate.
    NonFinitePoint {
        /// The point's position in the input.
        index: usize,
        /// The point itself.
        point: Point,
    },
    /// A segment or capsule whose two end points coincide.
    ZeroLength {
        /// The kind of shape.
        shape: &'static str,
        /// The shared end point.
        point: Point,
    },
    /// A polygon narrower than [`MIN_SHAPE_SIZE`] across its bounding box.
    TooSmall {
        /// The kind of shape.
        shape: &'static str,
        /// Its smaller extent, metres.
        size: Real,
    },
    /// A shape reaching farther than [`MAX_SHAPE_SIZE`] from its origin.
    TooLarge {
        /// The kind of shape.
        shape: &'static str,
        /// How far its farthest point lies from its origin, metres.
        size: Real,
    },
    /// Fewer than three distinct, non-collinear points: the points span no area.
    DegeneratePolygon {
        /// How many points were given.
        points: usize,
        /// How many vertices their convex hull kept (fewer than 3).
        hull_vertices: usize,
    },
    /// A stored polygon whose vertices are not a convex, counter-clockwise loop.
    NotConvex {
        /// The first vertex where the loop fails to turn left.
        vertex: usize,
    },
    /// A density must be finite and not negative.
    InvalidDensity {
        /// The density given, in kg/m².
        density: Real,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ShapeError::InvalidRadius { shape, radius } => {
                write!(f, "{shape} radius must be finite and at least {MIN_SHAPE_SIZE:e} m, got {radius}")
            }
            ShapeError::InvalidRoundingRadius { radius } => {
                write!(f, "polygon rounding radius must be finite and at least 0, got {radius}")
            }
            ShapeError::InvalidHalfExtents { half_width, half_height } => write!(
                f,
                "rectangle half-extents must be finite, at least {MIN_SHAPE_SIZE:e} m, and the smaller at \
                 least {HULL_RELATIVE_TOLERANCE:e} of the larger, got ({half_width}, {half_height})"
            ),
            ShapeError::InvalidEllipseRadii { rx, ry } => {
                write!(f, "ellipse radii must be finite and at least {MIN_SHAPE_SIZE:e} m, got ({rx}, {ry})")
            }
            ShapeError::TooSmall { shape, size } => {
                write!(f, "a {shape} must be at least {MIN_SHAPE_SIZE:e} m across, got {size} m")
            }
            ShapeError::TooLarge { shape, size } => {
                write!(f, "a {shape} must lie within {MAX_SHAPE_SIZE:e} m of its origin, got {size} m")
            }
            ShapeError::NonFinitePoint { index, point } => {
                write!(f, "point {index} is not finite: ({}, {})", point.x, point.y)
            }
            ShapeError::ZeroLength { shape, point } => {
                write!(f, "{shape} end points coincide at ({}, {}): it has no length", point.x, point.y)
            }
            ShapeError::DegeneratePolygon { points, hull_vertices } => write!(
                f,
                "polygon needs at least 3 distinct non-collinear points; the {points} points given \
                 have a convex hull of {hull_vertices} vertices"
            ),
            ShapeError::NotConvex { vertex } => {
                write!(f, "polygon is not a convex counter-clockwise loop at vertex {vertex}")
            }
            ShapeError::InvalidDensity { density } => {
                write!(f, "density must be finite and at least 0 kg/m², got {density}")
            }
        }
    }
}

impl std::error::Error for ShapeError {}
