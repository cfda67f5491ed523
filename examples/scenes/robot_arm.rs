//! A three-link arm of revolute motors hanging from a fixed base, and the
//! proportional controller that steers it to a pose. Shared by
//! `examples/robot_arm.rs` and the testbed, which include this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
pub const LINKS: [Real; 3] = [1.0, 0.8, 0.6];
/// Link half-thickness, m, and density, kg/m².
const THICKNESS: Real = 0.06;
const DENSITY: Real = 5.0;
/// Motor torque limits, N·m, strongest at the shoulder.
pub const TORQUES: [Real; 3] = [300.0, 150.0, 60.0];
/// Proportional gain, 1/s, and the fastest a joint is asked to turn, rad/s.
pub const GAIN: Real = 6.0;
pub const MAX_SPEED: Real = 3.0;
/// Joint angles (relative to the link before, from a straight arm along +x).
pub const TARGETS: [[Real; 3]; 4] = [[0.8, -0.6, -0.4], [1.6, 0.5, 0.5], [-0.3, 1.2, -1.0], [0.0, 0.0, 0.0]];
/// A pose is reached when every angle is within this of its target, rad.
pub const SETTLED: Real = 1e-3;
/// The longest the arm is given to reach a pose, steps.
pub const MAX_STEPS: usize = 600;

/// The arm, straight along +x from the base at the origin. Returns the links
/// and their motors, base outward.
fn build_arm(world: &mut World) -> Result<(Vec<BodyKey>, Vec<JointKey>), String> {
    let base = world.add_body(BodyDesc::fixed());
    let (mut previous, mut x) = (base, 0.0);
    let (mut links, mut motors) = (Vec::new(), Vec::new());
    for (length, torque) in LINKS.into_iter().zip(TORQUES) {
        let link = world.add_body(BodyDesc::dynamic().translation(x + 0.5 * length, 0.0));
        let shape = Shape::rectangle(0.5 * length, THICKNESS);
        // The links never collide with each other: one negative group.
        let filter = CollisionFilter { group: -1, ..CollisionFilter::default() };
        world
            .add_collider(link, ColliderDesc::new(shape).density(DENSITY).filter(filter))
            .map_err(|e| e.to_string())?;
        let motor = JointDesc::revolute(previous, link, Point::new(x, 0.0)).motor(0.0, torque);
        motors.push(world.add_joint(motor).map_err(|e| e.to_string())?);
        links.push(link);
        (previous, x) = (link, x + length);
    }
    Ok((links, motors))
}

/// The world with the arm on its base; returns the links and motors too.
pub fn build() -> Result<(World, Vec<BodyKey>, Vec<JointKey>), String> {
    let mut world = World::new(WorldSettings::default());
    let (links, motors) = build_arm(&mut world)?;
    Ok((world, links, motors))
}

/// The tip of the arm for joint angles `angles`, by forward kinematics.
pub fn tip_for(angles: &[Real; 3]) -> Point {
    let (mut p, mut heading) = (Vec2::zeros(), 0.0);
    for (length, angle) in LINKS.into_iter().zip(angles) {
        heading += angle;
        p += Vec2::new(heading.cos(), heading.sin()) * length;
    }
    Point::from(p)
}

/// One step of the proportional controller: sets each motor's speed to the
/// gain times its angle error (read back with `World::joint_motion`), capped;
/// returns the largest error, rad.
pub fn steer(world: &mut World, motors: &[JointKey], target: &[Real; 3]) -> Result<Real, String> {
    let mut worst: Real = 0.0;
    for (&motor, &goal) in motors.iter().zip(target) {
        let angle = world.joint_motion(motor).ok_or("a motor is missing")?.angle;
        let error = goal - angle;
        worst = worst.max(error.abs());
        let speed = (GAIN * error).clamp(-MAX_SPEED, MAX_SPEED);
        world
            .joint_mut(motor)
            .ok_or("a motor is missing")?
            .set_motor_speed(speed)
            .map_err(|e| e.to_string())?;
    }
    Ok(worst)
}

/// The reach of the arm.
pub fn view() -> (Point, Point) {
    (Point::new(-2.6, -2.6), Point::new(2.6, 2.6))
}
