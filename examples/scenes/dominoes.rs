//! A row of thirty dominoes, the first pushed at its top. Shared by
//! `examples/dominoes.rs` and the testbed, which include this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
pub const COUNT: usize = 30;
/// Half the thickness and half the height of a domino, m.
pub const HALF: (Real, Real) = (0.1, 1.0);
/// Distance between neighbouring dominoes, m.
pub const SPACING: Real = 1.0;
const FRICTION: Real = 0.6;
/// The push on the first domino's top, N·s.
pub const PUSH: Real = 0.3;

/// The world with its ground and the dominoes, the first one pushed; returns the dominoes too.
pub fn build() -> Result<(World, Vec<BodyKey>), String> {
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    let ground_shape = Shape::rectangle(COUNT as Real * SPACING + 10.0, 1.0);
    world
        .add_collider(ground, ColliderDesc::new(ground_shape).friction(FRICTION))
        .map_err(|e| e.to_string())?;
    let mut dominoes = Vec::with_capacity(COUNT);
    for i in 0..COUNT {
        let body = world.add_body(BodyDesc::dynamic().translation(i as Real * SPACING, HALF.1));
        let desc = ColliderDesc::new(Shape::rectangle(HALF.0, HALF.1)).friction(FRICTION);
        world.add_collider(body, desc).map_err(|e| e.to_string())?;
        dominoes.push(body);
    }
    let first = world.body_mut(dominoes[0]).ok_or("the first domino is missing")?;
    first.apply_impulse_at(Vec2::new(PUSH, 0.0), Point::new(0.0, 2.0 * HALF.1)).map_err(|e| e.to_string())?;
    Ok((world, dominoes))
}

/// The whole row, low and wide.
pub fn view() -> (Point, Point) {
    let right = (COUNT - 1) as Real * SPACING + 3.0;
    (Point::new(-2.0, -0.5), Point::new(right, 3.0))
}
