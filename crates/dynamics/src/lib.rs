//! Lamina's dynamics: bodies, colliders, the [`World`], and its soft-step impulse
//! solver with warm starting, friction, restitution, islands and sleeping.
//!
//! ```
//! use lamina_dynamics::{BodyDesc, ColliderDesc, World, WorldSettings};
//! use lamina_geometry::Shape;
//!
//! let mut world = World::new(WorldSettings::default());
//! let ground = world.add_body(BodyDesc::fixed().translation(0.0, -1.0));
//! world.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 1.0)))?;
//! let ball = world.add_body(BodyDesc::dynamic().translation(0.0, 2.0));
//! world.add_collider(ball, ColliderDesc::new(Shape::circle(0.5)))?;
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0)?;
//! }
//! let y = world.body(ball).unwrap().position().translation.y;
//! assert!((y - 0.5).abs() < 0.01, "the ball rests on the ground, y = {y}");
//! # Ok::<(), lamina_dynamics::WorldError>(())
//! ```
//!
//! Joints ([`JointDesc`]: revolute, prismatic, weld, distance, wheel, motor
//! and mouse) are solved in the same soft step as the contacts.
//!
//! For games: [`World::explode`] ([`ExplosionDesc`]) and a character mover
//! ([`World::collide_mover`], [`solve_planes`], [`World::cast_mover`],
//! [`clip_vector`]), as Box2D v3.1's.
//!
//! [`World::step`]'s stages, each with its file and function, are listed in
//! one place: the top of `world/step.rs`.

#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

mod awake;
mod body;
mod broad_phase;
mod chain;
mod collider;
mod contact;
mod contact_set;
mod continuous;
mod error;
mod events;
mod explosion;
mod finalize;
mod free_slots;
mod hooks;
mod island;
mod joint;
mod key_set;
mod keys;
mod mover;
mod narrow_phase;
mod pair_hash;
mod parallel;
mod profile;
mod query;
mod settings;
mod slot_keys;
#[cfg(feature = "serde")]
mod snapshot;
mod solver;
mod tagged_map;
#[cfg(test)]
mod test_rng;
mod world;

pub use body::{Body, BodyDesc, BodyKind, BodyMut};
pub use chain::{Chain, ChainDesc};
pub use collider::{Collider, ColliderDesc, CollisionFilter, MAX_COEFFICIENT, MAX_TANGENT_SPEED};
pub use contact::{Contact, ContactPointState};
pub use error::WorldError;
pub use events::{ContactEvent, ContactHitEvent, SensorEvent};
pub use explosion::ExplosionDesc;
pub use hooks::{CustomFilterFn, MaterialRuleFn, PreSolve, PreSolveFn};
pub use joint::{Joint, JointDesc, JointKind, JointMotion, JointMut, Motor, Spring};
pub use keys::{BodyKey, ChainKey, ColliderKey, ContactKey, JointKey, WorldKey, WorldTag};
pub use mover::{CollisionPlane, PLANE_SOLVER_MAX_ITERATIONS, PlaneSolution, clip_vector, solve_planes};
pub use parallel::pace::Sharing;
pub use profile::StepProfile;
pub use query::{QueryFilter, QueryPredicate, WorldRayHit, WorldShapeHit};
pub use settings::{MAX_LINEAR_SPEED_LIMIT, MAX_TIME_STEP, MIN_TIME_STEP, MixRule, WorldSettings};
#[cfg(feature = "serde")]
pub use snapshot::{FORMAT_VERSION, SnapshotError};
pub use world::World;
