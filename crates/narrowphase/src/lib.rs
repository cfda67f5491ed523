//! Lamina's narrow phase: GJK (overlap, distance, closest points), EPA
//! (penetration depth and direction), contact manifolds by clipping, and time of
//! impact, for every pair of [`lamina_geometry::Shape`]s and for user support maps.
//!
//! The facade exposes this crate as `lamina2d::query`. The everyday entry points are
//! [`intersects`], [`distance`], [`penetration`] and [`contact_manifold`]; [`gjk`]
//! and [`epa`] are available on their own for any [`lamina_geometry::SupportMap`].
//!
//! | file | what it does |
//! |---|---|
//! | `gjk.rs`, `simplex.rs` | GJK distance and overlap, the 2D simplex |
//! | `epa.rs` | EPA penetration depth |
//! | `shape_core.rs`, `pair.rs` | shapes as cores plus radii; a pair in A's frame |
//! | `query.rs`, `closed_form.rs` | `intersects`, `distance`, `penetration`; closed forms for circles and boxes |
//! | `manifold.rs` | manifold types, world and local, and feature ids |
//! | `dispatch.rs`, `convex_dispatch.rs` | the shape-pair dispatch; its part for all shapes but one-sided chain segments |
//! | `pairs/` | box–box, segment–segment (capsules), circle–circle, polygon–circle, polygon–polygon |
//! | `clip.rs`, `segment_distance.rs` | reference/incident clipping, segment closest points |
//! | `general.rs` | the GJK/EPA manifold path for any convex pair |
//! | `toi.rs` | time of impact by conservative advancement, linear shape casts |

#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod clip;
mod closed_form;
mod convex_dispatch;
pub mod dispatch;
pub mod epa;
pub mod general;
pub mod gjk;
pub mod manifold;
mod pair;
pub mod pairs;
pub mod poly_view;
pub mod query;
pub mod segment_distance;
mod separating_axis;
pub mod shape_core;
pub mod simplex;
pub mod toi;

pub use dispatch::{contact_manifold, contact_manifold_and_gap, contact_manifold_continuing};
pub use manifold::{ContactPoint, FeatureId, Manifold};
pub use query::{Distance, Penetration, distance, intersects, penetration, signed_distance};
pub use toi::{
    Sweep, Toi, ToiStatus, Velocity, cast_shape, time_of_impact, time_of_impact_of_sweeps,
    time_of_impact_within,
};
