//! The main demo's scene: a pyramid of 1 m boxes on a wide ground, and the
//! heavy ball fired at it once it has settled. Shared by `examples/pyramid.rs`
//! and the testbed, which include this file by path.

use lamina2d::prelude::*;

/// Half the side of a box, m.
pub const HALF: Real = 0.5;
pub const FRICTION: Real = 0.6;
/// Time step, s.
pub const DT: Real = 1.0 / 60.0;
/// How long the pyramid settles before the ball is fired, s.
pub const SETTLE_TIME: Real = 2.0;
pub const BALL_RADIUS: Real = 1.0;
/// The ball's density; the boxes' is 1.
pub const BALL_DENSITY: Real = 20.0;
/// The ball's launch speed, m/s, and the height of its centre, m: it meets the
/// pyramid's side about 6 m up.
pub const BALL_SPEED: Real = 30.0;
pub const BALL_HEIGHT: Real = 8.0;
/// How far left of the pyramid the ball starts, m.
pub const BALL_RUN_UP: Real = 15.0;
/// The rows of the demo when none are asked for.
pub const DEFAULT_ROWS: usize = 20;

/// The world with its ground and a pyramid of `rows` rows; returns the boxes too.
pub fn build(rows: usize) -> Result<(World, Vec<BodyKey>), String> {
    let half_width = rows as Real * HALF;
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    let ground_shape = Shape::rectangle(half_width + 2.0 * BALL_RUN_UP + 40.0, 1.0);
    world
        .add_collider(ground, ColliderDesc::new(ground_shape).friction(FRICTION))
        .map_err(|e| e.to_string())?;

    let mut boxes = Vec::with_capacity(rows * (rows + 1) / 2);
    for pose in pyramid_poses(rows) {
        let t = pose.translation;
        let body = world.add_body(BodyDesc::dynamic().translation(t.x, t.y));
        let desc = ColliderDesc::new(Shape::rectangle(HALF, HALF)).density(1.0).friction(FRICTION);
        world.add_collider(body, desc).map_err(|e| e.to_string())?;
        boxes.push(body);
    }
    Ok((world, boxes))
}

/// The step (counted from 1) before which the ball is fired.
pub fn fire_step() -> usize {
    (SETTLE_TIME / DT).round() as usize + 1
}

/// Where the ball starts along x for a pyramid of `rows` rows.
pub fn ball_start(rows: usize) -> Real {
    -(rows as Real) * HALF - BALL_RUN_UP
}

/// Adds the ball at `x`, flying right; returns its body and collider.
pub fn fire_ball(world: &mut World, x: Real) -> Result<(BodyKey, ColliderKey), String> {
    let velocity = Vec2::new(BALL_SPEED, 0.0);
    let key = world.add_body(BodyDesc::dynamic().translation(x, BALL_HEIGHT).linear_velocity(velocity));
    let desc = ColliderDesc::new(Shape::circle(BALL_RADIUS)).density(BALL_DENSITY).friction(FRICTION);
    let collider = world.add_collider(key, desc).map_err(|e| e.to_string())?;
    Ok((key, collider))
}

/// The end of the ball's approach, the pyramid and the debris beyond it,
/// ground at the bottom, 3:2.
pub fn view(rows: usize) -> (Point, Point) {
    let half_width = rows as Real * HALF;
    let (left, right) = (-half_width - 0.5 * BALL_RUN_UP, 2.0 * half_width + 2.5);
    (Point::new(left, -1.0), Point::new(right, (right - left) / 1.5 - 1.0))
}

/// Box centres of a pyramid with `rows` boxes on its base, resting on y = 0.
pub fn pyramid_poses(rows: usize) -> Vec<Isometry> {
    let mut poses = Vec::with_capacity(rows * (rows + 1) / 2);
    for i in 0..rows {
        let y = (2 * i + 1) as Real * HALF;
        for j in i..rows {
            let x = (i + 1) as Real * HALF + 2.0 * (j - i) as Real * HALF - rows as Real * HALF;
            poses.push(Isometry::translation(x, y));
        }
    }
    poses
}
