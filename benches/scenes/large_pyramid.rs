//! `large_pyramid`: a pyramid of 5,050 squares of half-extent 0.5 m on a ground
//! box, 100 on its base row. Sleeping disabled. About 14,950 contact pairs once settled.

use lamina2d::prelude::*;

use super::{add_pyramid, attach, material, settings};

/// The scene's name.
pub const NAME: &str = "large_pyramid";
/// Steps of one benchmark run.
pub const STEPS: usize = 500;

/// Squares on the bottom row.
const BASE: usize = 100;
/// Half-extent of a square, metres.
const HALF: Real = 0.5;

/// Ground box half-extents (100, 1) centred at (0, −1); row i in 0..100 at
/// y = (2i + 1)·a, its squares at x = (i + 1)·a + 2(j − i)·a − 100·a for j in i..100.
pub fn build() -> World {
    let mut world = World::new(WorldSettings { enable_sleep: false, ..settings() });
    let ground = world.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    attach(&mut world, ground, material(Shape::rectangle(100.0, 1.0)));
    add_pyramid(&mut world, BASE, HALF, -(BASE as Real) * HALF, 0.0);
    world
}
