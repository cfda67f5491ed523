//! `tumbler`: a hollow square drum turning at 25°/s with 2,025 small squares
//! inside. Box2D drives the drum with a revolute motor; until Lamina has joints
//! the drum is a kinematic body turning at the motor's speed.

use lamina::prelude::*;

use super::{attach, material, settings};

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
    let drum = world.add_body(BodyDesc::kinematic().translation(0.0, 10.0).angular_velocity(omega));
    let walls =
        [(0.5, 10.0, 10.0, 0.0), (0.5, 10.0, -10.0, 0.0), (10.0, 0.5, 0.0, 10.0), (10.0, 0.5, 0.0, -10.0)];
    for (hx, hy, x, y) in walls {
        let wall = material(Shape::rectangle(hx, hy)).density(50.0).local_pose(Isometry::translation(x, y));
        attach(&mut world, drum, wall);
    }
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
