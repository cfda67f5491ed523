//! Lamina's narrow phase: GJK (overlap, distance, closest points), EPA
//! (penetration depth and direction), contact manifolds by clipping, and time of
//! impact, for every pair of [`lamina_geometry::Shape`]s and for user support maps.
//!
//! The facade exposes this crate as `lamina::query`. The everyday entry points are
//! [`intersects`], [`distance`] and [`penetration`]; [`gjk`] and [`epa`] are
//! available on their own for any [`lamina_geometry::SupportMap`].

#![warn(missing_docs)]

pub mod epa;
pub mod gjk;
mod pair;
pub mod query;
pub mod shape_core;
pub mod simplex;

pub use query::{Distance, Penetration, distance, intersects, penetration};
