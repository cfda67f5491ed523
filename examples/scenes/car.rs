//! A car on wheel joints (suspension springs, limits, wheel motors) on a
//! flat start and then hills. Shared by `examples/car.rs` and the testbed,
//! which include this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
pub const WHEEL_RADIUS: Real = 0.4;
/// Motor speed, rad/s (negative: clockwise, rolling toward +x), and torque, N·m.
pub const MOTOR_SPEED: Real = -10.0;
pub const MOTOR_TORQUE: Real = 80.0;
/// Length of the flat start, m, and of the hills after it.
pub const FLAT: Real = 20.0;
pub const HILLS: Real = 100.0;

/// The ground's height at `x`: flat, then hills of 1 m and 12 m wavelength.
fn ground_height(x: Real) -> Real {
    if x < FLAT { 0.0 } else { 0.5 - 0.5 * (2.0 * std::f64::consts::PI as Real * (x - FLAT) / 12.0).cos() }
}

/// The ground as a fixed body of 0.5 m segments following [`ground_height`].
fn build_ground(world: &mut World) -> Result<(), String> {
    let ground = world.add_body(BodyDesc::fixed());
    let step = 0.5;
    let mut x = -10.0;
    while x < FLAT + HILLS {
        let (a, b) = (Point::new(x, ground_height(x)), Point::new(x + step, ground_height(x + step)));
        world
            .add_collider(ground, ColliderDesc::new(Shape::segment(a, b)).friction(0.9))
            .map_err(|e| e.to_string())?;
        x += step;
    }
    Ok(())
}

/// The car: a chassis and two wheels on wheel joints. Returns the chassis and
/// the joints.
fn build_car(world: &mut World) -> Result<(BodyKey, [JointKey; 2]), String> {
    let y = WHEEL_RADIUS + 0.6;
    let chassis = world.add_body(BodyDesc::dynamic().translation(0.0, y));
    world
        .add_collider(chassis, ColliderDesc::new(Shape::rectangle(1.2, 0.2)).density(5.0))
        .map_err(|e| e.to_string())?;
    let mut joints = Vec::new();
    for x in [-0.85, 0.85] {
        let wheel = world.add_body(BodyDesc::dynamic().translation(x, WHEEL_RADIUS));
        let tyre = ColliderDesc::new(Shape::circle(WHEEL_RADIUS)).density(2.0).friction(0.9);
        world.add_collider(wheel, tyre).map_err(|e| e.to_string())?;
        let joint = JointDesc::wheel(chassis, wheel, Point::new(x, WHEEL_RADIUS), Vec2::new(0.0, 1.0))
            .spring(4.0, 0.7)
            .limits(-0.25, 0.25)
            .motor(MOTOR_SPEED, MOTOR_TORQUE);
        joints.push(world.add_joint(joint).map_err(|e| e.to_string())?);
    }
    Ok((chassis, [joints[0], joints[1]]))
}

/// The world with the ground and the car; returns the chassis and the wheel joints too.
pub fn build() -> Result<(World, BodyKey, [JointKey; 2]), String> {
    let mut world = World::new(WorldSettings::default());
    build_ground(&mut world)?;
    let (chassis, wheels) = build_car(&mut world)?;
    Ok((world, chassis, wheels))
}

/// The flat start and the first hills.
pub fn view() -> (Point, Point) {
    (Point::new(-2.0, -1.0), Point::new(FLAT + 30.0, 6.0))
}
