//! Surface materials side by side: conveyor belts (`tangent_speed`) that
//! carry crates along and drop them onto a belt running back, discs rolling
//! against different rolling resistances, and a friction rule by surface
//! (rubber and ice on an icy ramp). Shared by `examples/conveyor.rs` and the
//! testbed, which include this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
/// The upper belt's speed (to the right) and the lower one's (to the left), m/s.
pub const UPPER_SPEED: Real = 2.0;
pub const LOWER_SPEED: Real = -1.5;
/// The discs' rolling resistances, their radius and their starting speed.
pub const RESISTANCES: [Real; 3] = [0.0, 0.1, 0.3];
pub const DISC_RADIUS: Real = 0.4;
pub const DISC_SPEED: Real = 4.0;
/// Where the discs start, m along x.
pub const DISC_START: Real = -28.0;
/// The ramp's angle, and the surface ids of the friction rule (`user_data`).
pub const RAMP_ANGLE: Real = -0.35;
pub const ICE: u64 = 1;
const RAMP_X: Real = 16.0;
pub const RUBBER: u64 = 2;

/// The scene's bodies that the example reports on.
pub struct Conveyor {
    pub world: World,
    pub crates: Vec<BodyKey>,
    pub discs: Vec<BodyKey>,
    /// On the icy ramp: a rubber crate and an ice crate.
    pub rubber: BodyKey,
    pub ice: BodyKey,
}

/// Friction by surface: ice on ice 0.02, rubber on anything 0.9; other
/// pairs mix as the world does (NaN asks for the mix).
pub fn friction_rule(a: &Collider, b: &Collider) -> Real {
    match (a.user_data(), b.user_data()) {
        (RUBBER, _) | (_, RUBBER) => 0.9,
        (ICE, ICE) => 0.02,
        _ => Real::NAN,
    }
}

pub fn build() -> Result<Conveyor, String> {
    let err = |e: WorldError| e.to_string();
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed().translation(0.0, -0.5));
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(40.0, 0.5))).map_err(err)?;

    // Two belts, one above the other: crates ride the upper one to the
    // right, fall off its end onto the lower one, which brings them back.
    let upper = world.add_body(BodyDesc::fixed().translation(4.0, 3.0));
    let belt =
        |speed: Real| ColliderDesc::new(Shape::rectangle(4.0, 0.15)).friction(0.8).tangent_speed(speed);
    world.add_collider(upper, belt(UPPER_SPEED)).map_err(err)?;
    let lower = world.add_body(BodyDesc::fixed().translation(6.0, 1.2));
    world.add_collider(lower, belt(LOWER_SPEED)).map_err(err)?;
    let mut crates = Vec::new();
    for k in 0..4 {
        let b = world.add_body(BodyDesc::dynamic().translation(0.6 + 1.4 * k as Real, 3.45));
        world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.3, 0.3)).friction(0.8)).map_err(err)?;
        crates.push(b);
    }

    // Discs set rolling without slipping along the ground, one lane each.
    let mut discs = Vec::new();
    for &r in &RESISTANCES {
        let desc = BodyDesc::dynamic()
            .translation(DISC_START, DISC_RADIUS)
            .linear_velocity(Vec2::new(DISC_SPEED, 0.0))
            .angular_velocity(-DISC_SPEED / DISC_RADIUS);
        let disc = world.add_body(desc);
        // Each disc in a collision group of its own kind: they roll side by
        // side (a 2D world has one lane) without touching.
        let filter = CollisionFilter { group: -1, ..CollisionFilter::default() };
        let shape = ColliderDesc::new(Shape::circle(DISC_RADIUS)).rolling_resistance(r).filter(filter);
        world.add_collider(disc, shape).map_err(err)?;
        discs.push(disc);
    }

    // An icy ramp, descending to the right past the belts, with two crates
    // at rest on it: the rule gives the rubber one 0.9 (it holds: tan 0.35
    // = 0.36) and the ice one 0.02 (it slides).
    let ramp = world.add_body(BodyDesc::fixed().translation(RAMP_X, 2.0).angle(RAMP_ANGLE));
    world.add_collider(ramp, ColliderDesc::new(Shape::rectangle(3.0, 0.1)).user_data(ICE)).map_err(err)?;
    let (s, c) = RAMP_ANGLE.sin_cos();
    let on_ramp = |along: Real| Point::new(RAMP_X + c * along - s * 0.4, 2.0 + s * along + c * 0.4);
    let place = |world: &mut World, along: Real, surface: u64| -> Result<BodyKey, String> {
        let p = on_ramp(along);
        let b = world.add_body(BodyDesc::dynamic().translation(p.x, p.y).angle(RAMP_ANGLE));
        let desc = ColliderDesc::new(Shape::rectangle(0.3, 0.3)).user_data(surface);
        world.add_collider(b, desc).map_err(|e| e.to_string())?;
        Ok(b)
    };
    let rubber = place(&mut world, -1.5, RUBBER)?;
    let ice = place(&mut world, 0.0, ICE)?;
    world.set_friction_rule(friction_rule);
    Ok(Conveyor { world, crates, discs, rubber, ice })
}

/// The belts, the ramp and the discs' lane.
pub fn view() -> (Point, Point) {
    (Point::new(-30.0, -1.0), Point::new(22.0, 6.0))
}
