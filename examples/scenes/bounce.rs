//! Ten balls with restitution 0.0 to 0.9 dropped from 5 m onto a ground of
//! restitution 0. Shared by `examples/bounce.rs` and the testbed, which
//! include this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
/// Drop height of each ball's lowest point above the ground, m.
pub const HEIGHT: Real = 5.0;
pub const RADIUS: Real = 0.25;
const SPACING: Real = 1.0;

/// A ball as dropped: its restitution, body and collider.
pub struct Dropped {
    pub restitution: Real,
    pub body: BodyKey,
    pub collider: ColliderKey,
}

/// The world with its ground and the ten balls at their drop height.
pub fn build() -> Result<(World, Vec<Dropped>), String> {
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed().translation(4.5 * SPACING, -1.0));
    world
        .add_collider(ground, ColliderDesc::new(Shape::rectangle(7.0, 1.0)).restitution(0.0))
        .map_err(|e| e.to_string())?;
    let mut balls = Vec::new();
    for i in 0..10 {
        let restitution = i as Real / 10.0;
        let body = world.add_body(BodyDesc::dynamic().translation(i as Real * SPACING, HEIGHT + RADIUS));
        let desc = ColliderDesc::new(Shape::circle(RADIUS)).restitution(restitution);
        let collider = world.add_collider(body, desc).map_err(|e| e.to_string())?;
        balls.push(Dropped { restitution, body, collider });
    }
    Ok((world, balls))
}

/// The balls, their drop height and the ground.
pub fn view() -> (Point, Point) {
    (Point::new(-1.0, -0.5), Point::new(10.0, 6.0))
}
