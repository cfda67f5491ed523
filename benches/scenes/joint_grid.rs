//! `joint_grid`: a 100 × 100 grid of circles hung by 19,800 revolute joints
//! from seven fixed bodies in the middle of its top row: a cloth of joints
//! that sags and swings, with no contacts at all.

use lamina2d::prelude::*;

use super::{attach, settings};

/// The scene's name.
pub const NAME: &str = "joint_grid";
/// Steps of one benchmark run.
pub const STEPS: usize = 500;

/// Bodies per side.
const SIDE: usize = 100;

/// Body (i, k), a circle of radius 0.4 and density 1, at (k, −i); the bodies
/// with i = 0 and k in 47..=53 are fixed. Each body is jointed to the one above
/// it at (k, −i + 0.5) and to the one on its left at (k − 0.5, −i). The circles
/// do not collide (category 2, mask without 2). Sleeping disabled.
pub fn build() -> World {
    let mut world = World::new(WorldSettings { enable_sleep: false, ..settings() });
    let filter = CollisionFilter { category: 2, mask: !2, group: 0 };
    let circle = ColliderDesc::new(Shape::circle(0.4)).density(1.0).filter(filter);
    let mut bodies = vec![BodyKey::default(); SIDE * SIDE];
    for k in 0..SIDE {
        for i in 0..SIDE {
            let (x, y) = (k as Real, -(i as Real));
            let fixed = i == 0 && (SIDE / 2 - 3..=SIDE / 2 + 3).contains(&k);
            let desc = if fixed { BodyDesc::fixed() } else { BodyDesc::dynamic() };
            let body = world.add_body(desc.translation(x, y));
            attach(&mut world, body, circle.clone());
            if i > 0 {
                join(&mut world, bodies[k * SIDE + i - 1], body, Point::new(x, y + 0.5));
            }
            if k > 0 {
                join(&mut world, bodies[(k - 1) * SIDE + i], body, Point::new(x - 0.5, y));
            }
            bodies[k * SIDE + i] = body;
        }
    }
    world
}

/// Adds a revolute joint that the scene's fixed numbers make valid.
fn join(world: &mut World, a: BodyKey, b: BodyKey, anchor: Point) {
    if let Err(err) = world.add_joint(JointDesc::revolute(a, b, anchor)) {
        panic!("a benchmark scene's joint was refused: {err}");
    }
}
