//! `tumbler`: a hollow square drum turning at 25°/s with 2,025 small squares
//! inside, driven as in Box2D by a revolute motor (speed 25°/s, max torque
//! 10⁸ N·m) to a fixed body at its centre.

use lamina2d::prelude::*;

use super::{attach, drive, material, settings};

/// The scene's name.
pub const NAME: &str = "tumbler";
/// Steps of one benchmark run.
pub const STEPS: usize = 750;

/// Squares per side of the grid inside the drum.
const GRID: usize = 45;
/// The drum's turning speed, degrees per second.
const DRUM_DEGREES_PER_SECOND: Real = 25.0;

/// The drum: four boxes, half-extents (0.5, 10) at x = ±10 and (10, 0.5) at
/// y = ±10, density 50, centred at (0, 10). Square (i, j) of half-extent 0.125
/// at x = −0.2·45 + 0.4·j, y = −0.2·45 + 10 + 0.4·i.
pub fn build() -> World {
    let mut world = World::new(settings());
    let omega = DRUM_DEGREES_PER_SECOND.to_radians();
    let drum = world.add_body(BodyDesc::dynamic().translation(0.0, 10.0));
    let walls =
        [(0.5, 10.0, 10.0, 0.0), (0.5, 10.0, -10.0, 0.0), (10.0, 0.5, 0.0, 10.0), (10.0, 0.5, 0.0, -10.0)];
    for (hx, hy, x, y) in walls {
        let wall = material(Shape::rectangle(hx, hy)).density(50.0).local_pose(Isometry::translation(x, y));
        attach(&mut world, drum, wall);
    }
    drive(&mut world, drum, Point::new(0.0, 10.0), omega, 1.0e8);
    let square = Shape::rectangle(0.125, 0.125);
    let start = -0.2 * GRID as Real;
    for i in 0..GRID {
        for j in 0..GRID {
            let x = start + 0.4 * j as Real;
            let y = start + 10.0 + 0.4 * i as Real;
            let body = world.add_body(BodyDesc::dynamic().translation(x, y));
            attach(&mut world, body, material(square.clone()));
        }
    }
    world
}
