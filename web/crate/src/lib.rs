//! `lamina2d-wasm`, the compiled half of the npm package `lamina2d`: the
//! engine's world, its bodies, colliders, joints and queries, exported by
//! wasm-bindgen as one low-level class, `RawWorld`, whose calls take plain
//! numbers and return plain numbers, keys (a key is the slotmap key's 64
//! bits, a JavaScript `bigint`) and typed arrays. The JavaScript half
//! (`web/js/lamina2d.js`) turns option objects and `[x, y]` pairs into these
//! calls, holds the handles (`Body`, `Collider`, `Joint`) and throws
//! `LaminaError`.
//!
//! Every call that takes user data validates it and throws the engine's
//! message (a string, which the JavaScript half throws as a `LaminaError`),
//! leaving the world as it was. A panic cannot unwind on wasm32: it traps;
//! [`panics`] records its message first, so that the JavaScript half can
//! name it when it refuses the world that trapped.

// `Real` is f32 here and f64 in an f64 build of the engine: the casts that
// are no-ops in one build are needed in the other.
#![allow(clippy::unnecessary_cast)]

mod bodies;
mod colliders;
mod convert;
mod events;
mod joints;
mod panics;
mod queries;
mod shapes;
mod world;

pub use world::{RawWorld, Settings};
