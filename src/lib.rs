//! Lamina: a 2D rigid-body physics engine.
//!
//! This facade re-exports the engine's crates under short names and gathers the
//! everyday types in [`prelude`]:
//!
//! - [`geometry`]: shapes, support maps, AABBs, mass properties, ray casts, hulls.
//! - [`narrowphase`]: GJK, EPA, contact manifolds, time of impact.
//! - [`broadphase`]: sweep-and-prune with persistent pairs.
//! - [`dynamics`]: bodies, colliders, the world and its solver.
//! - `scene` (feature `serde`): scene files, a world written as JSON by hand.
//!
//! The scalar is [`prelude::Real`], `f32` by default and `f64` with the `f64` feature.
//!
//! A box dropped on the ground comes to rest on it:
//!
//! ```
//! use lamina2d::prelude::*;
//!
//! let mut world = World::new(WorldSettings::default()); // gravity (0, -10) m/s²
//! // The ground's top face is at y = 0.
//! let ground = world.add_body(BodyDesc::fixed().translation(0.0, -0.5));
//! world.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 0.5)))?;
//! let falling = world.add_body(BodyDesc::dynamic().translation(0.0, 3.0).angle(0.2));
//! world.add_collider(falling, ColliderDesc::new(Shape::rectangle(0.5, 0.5)).density(2.0))?;
//! for _ in 0..180 {
//!     world.step(1.0 / 60.0)?; // three seconds at 60 steps a second
//! }
//! // It lands on a face, its centre a half height (0.5 m) above the ground,
//! // within the linear slop the contacts leave.
//! let body = world.body(falling).unwrap();
//! let y = body.translation().y;
//! assert!((y - 0.5).abs() <= lamina2d::geometry::tolerance::LINEAR_SLOP, "the box rests at y = {y}");
//! assert!(body.is_sleeping());
//! # Ok::<(), WorldError>(())
//! ```
//!
//! With the `serde` feature, `lamina2d::scene` reads a world from a
//! scene file written by hand (JSON), and worlds save to snapshots.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub use lamina_broadphase as broadphase;
pub use lamina_dynamics as dynamics;
pub use lamina_geometry as geometry;
pub use lamina_narrowphase as narrowphase;
/// The pair queries (GJK, EPA, manifolds, time of impact): the narrow phase by its everyday name.
pub use lamina_narrowphase as query;

#[cfg(feature = "serde")]
pub mod scene;

/// The types most programs need, in one import: `use lamina2d::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "serde")]
    pub use crate::scene::{Scene, SceneError, SceneKeys};
    pub use lamina_broadphase::{BroadPhaseError, PairEvent, SweepAndPrune};
    pub use lamina_dynamics::{
        Body, BodyDesc, BodyKey, BodyKind, BodyMut, Chain, ChainDesc, ChainKey, Collider, ColliderDesc,
        ColliderKey, CollisionFilter, Contact, ContactEvent, ContactHitEvent, Joint, JointDesc, JointKey,
        JointKind, JointMotion, JointMut, MixRule, PreSolve, QueryFilter, SensorEvent, Sharing, StepProfile,
        World, WorldError, WorldKey, WorldRayHit, WorldSettings, WorldShapeHit, WorldTag,
    };
    pub use lamina_dynamics::{CollisionPlane, ExplosionDesc, PlaneSolution, clip_vector, solve_planes};
    #[cfg(feature = "serde")]
    pub use lamina_dynamics::{FORMAT_VERSION, SnapshotError};
    pub use lamina_geometry::{
        Aabb, Capsule, ChainSegment, Circle, Ellipse, Isometry, MassProperties, Point, PointProjection,
        Polygon, Ray, RayHit, Real, Rotation, Segment, Shape, ShapeError, SupportMap, Vec2,
    };
}

/// The README's usage example, compiled and run as a doctest so that it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The user's guide's examples, compiled and run as doctests.
#[doc = include_str!("../docs/guide.md")]
#[cfg(doctest)]
pub struct GuideDoctests;

/// The gameplay guide's examples (the character mover's loop), compiled and run as doctests.
#[doc = include_str!("../docs/gameplay.md")]
#[cfg(doctest)]
pub struct GameplayDoctests;

/// The joints page's example, compiled and run as a doctest.
#[doc = include_str!("../docs/joints.md")]
#[cfg(doctest)]
pub struct JointsDoctests;
