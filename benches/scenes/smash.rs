//! `smash`: no gravity; a heavy box flies at 40 m/s into a block of 9,600 small
//! squares created asleep.

use lamina2d::prelude::*;

use super::{attach, material, settings};

/// The scene's name.
pub const NAME: &str = "smash";
/// Steps of one benchmark run.
pub const STEPS: usize = 300;

/// Columns and rows of the block.
const COLUMNS: usize = 120;
const ROWS: usize = 80;
/// Side of a square of the block, metres.
const SIDE: Real = 0.4;

/// A box of half-extents (4, 4), density 8, at (−20, 0) moving at (40, 0) m/s;
/// square (i, j) of half-extent 0.2 at x = 0.4·i + 30, y = 0.4·(j − 40), asleep.
pub fn build() -> World {
    let mut world = World::new(WorldSettings { gravity: Vec2::zeros(), ..settings() });
    let projectile =
        world.add_body(BodyDesc::dynamic().translation(-20.0, 0.0).linear_velocity(Vec2::new(40.0, 0.0)));
    attach(&mut world, projectile, material(Shape::rectangle(4.0, 4.0)).density(8.0));
    let square = Shape::rectangle(0.5 * SIDE, 0.5 * SIDE);
    for i in 0..COLUMNS {
        for j in 0..ROWS {
            let x = SIDE * i as Real + 30.0;
            let y = SIDE * (j as Real - 0.5 * ROWS as Real);
            let body = world.add_body(BodyDesc::dynamic().translation(x, y).asleep(true));
            attach(&mut world, body, material(square.clone()));
        }
    }
    world
}
