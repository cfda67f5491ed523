//! Lamina's geometry: the shapes, their support maps, bounding boxes, mass
//! properties, ray casts and point queries, and the convex hull.
//!
//! This crate knows nothing of bodies or worlds. Everything is expressed in a
//! shape's local frame, with [`Isometry`] poses placing shapes in the world.
//! The scalar is [`Real`]: `f32`, or `f64` with the `f64` feature.

#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod aabb;
pub mod error;
pub mod hull;
pub mod mass;
pub mod math;
pub mod point_query;
pub mod ray;
pub mod shape;
pub mod shapes;
pub mod support;
pub mod tolerance;
pub mod trig;
pub mod validate;

pub use aabb::Aabb;
pub use error::ShapeError;
pub use hull::convex_hull;
pub use mass::MassProperties;
pub use math::{Isometry, Point, Real, Rotation, Vec2};
pub use point_query::PointProjection;
pub use ray::{Ray, RayHit};
pub use shape::Shape;
pub use shapes::{
    capsule::Capsule, chain_segment::ChainSegment, circle::Circle, ellipse::Ellipse, polygon::Polygon,
    segment::Segment,
};
pub use support::SupportMap;
pub use validate::{validate_density, validate_rotation};
