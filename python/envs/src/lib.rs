//! Gymnasium's two Box2D environments, LunarLander and BipedalWalker, simulated
//! on Lamina: one environment, and batches of them stepped in parallel on the
//! rayon pool. Pure Rust: the Python package wraps these types for Gymnasium.
//!
//! Every environment draws its randomness (terrain, start push, engine
//! dispersion) from its own [`rng::Rng`], seeded at each reset from a number
//! that the Python side draws from the environment's `np_random`; a batch of
//! environments is therefore bit for bit a set of single ones, on any thread
//! count.

pub mod batch;
pub mod bipedal_walker;
pub mod canvas;
pub mod lunar_lander;
pub mod rng;
