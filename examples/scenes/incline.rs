//! Five blocks with friction 0.1 to 0.9 on five ramps tilted 30°, the world
//! mixing friction with [`MixRule::Min`] so that each block slides with its
//! own. Shared by `examples/incline.rs` and the testbed, which include this
//! file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
/// The slope, degrees.
pub const SLOPE_DEGREES: Real = 30.0;
pub const FRICTIONS: [Real; 5] = [0.1, 0.3, 0.5, 0.7, 0.9];
/// Half the length and half the thickness of a ramp, m.
const RAMP_HALF: (Real, Real) = (6.0, 0.5);
/// Half the side of a block, m.
const BLOCK_HALF: Real = 0.5;
/// How far up the ramp, from its middle, a block starts, m.
const START_UP: Real = 4.0;
/// Ramps stand this far apart, m.
pub const SPACING: Real = 12.0;

/// A block as placed: its friction, its body and where it started.
pub struct Placed {
    pub friction: Real,
    pub body: BodyKey,
    pub start: Point,
}

/// The settings of the scene: friction mixed by the smaller coefficient.
pub fn settings() -> WorldSettings {
    WorldSettings { friction_mixing: MixRule::Min, ..WorldSettings::default() }
}

/// Up the slope: the unit vector along each ramp.
pub fn up() -> Vec2 {
    let theta = SLOPE_DEGREES.to_radians();
    Vec2::new(theta.cos(), theta.sin())
}

/// The world with its ramps and a block near the top of each.
pub fn build() -> Result<(World, Vec<Placed>), String> {
    let mut world = World::new(settings());
    let theta = SLOPE_DEGREES.to_radians();
    // Up the slope, and out of its surface.
    let up = up();
    let normal = Vec2::new(-theta.sin(), theta.cos());

    let mut blocks = Vec::new();
    for (i, &friction) in FRICTIONS.iter().enumerate() {
        let centre = Vec2::new(i as Real * SPACING, RAMP_HALF.0 * theta.sin());
        let ramp = world.add_body(BodyDesc::fixed().translation(centre.x, centre.y).angle(theta));
        let shape = Shape::rectangle(RAMP_HALF.0, RAMP_HALF.1);
        world.add_collider(ramp, ColliderDesc::new(shape).friction(1.0)).map_err(|e| e.to_string())?;
        let at = centre + normal * (RAMP_HALF.1 + BLOCK_HALF) + up * START_UP;
        let body = world.add_body(BodyDesc::dynamic().translation(at.x, at.y).angle(theta));
        let desc = ColliderDesc::new(Shape::rectangle(BLOCK_HALF, BLOCK_HALF)).friction(friction);
        world.add_collider(body, desc).map_err(|e| e.to_string())?;
        blocks.push(Placed { friction, body, start: Point::from(at) });
    }
    Ok((world, blocks))
}

/// All five ramps.
pub fn view() -> (Point, Point) {
    let last = (FRICTIONS.len() - 1) as Real * SPACING;
    (Point::new(-6.0, -1.0), Point::new(last + 6.0, 8.0))
}
