//! A three-link robot arm reaching for targets.
//!
//! `cargo run --release --example robot_arm -- [--gif out.gif]`
//!
//! Three links (1.0, 0.8 and 0.6 m) hang on revolute motors from a fixed base,
//! in gravity. Every step a proportional controller sets each motor's speed
//! to a gain times its angle error, read back with `World::joint_motion`; the
//! motors' torque limits do the rest. For each target pose the example prints
//! how many steps the arm took to settle, and how far its tip is from where the
//! target angles put it by forward kinematics.

#[path = "support/render.rs"]
mod render;

use lamina::prelude::*;
use std::process::ExitCode;

const DT: Real = 1.0 / 60.0;
const LINKS: [Real; 3] = [1.0, 0.8, 0.6];
/// Link half-thickness, m, and density, kg/m².
const THICKNESS: Real = 0.06;
const DENSITY: Real = 5.0;
/// Motor torque limits, N·m, strongest at the shoulder.
const TORQUES: [Real; 3] = [300.0, 150.0, 60.0];
/// Proportional gain, 1/s, and the fastest a joint is asked to turn, rad/s.
const GAIN: Real = 6.0;
const MAX_SPEED: Real = 3.0;
/// Joint angles (relative to the link before, from a straight arm along +x).
const TARGETS: [[Real; 3]; 4] = [[0.8, -0.6, -0.4], [1.6, 0.5, 0.5], [-0.3, 1.2, -1.0], [0.0, 0.0, 0.0]];
/// A pose is reached when every angle is within this of its target, rad.
const SETTLED: Real = 1e-3;
const MAX_STEPS: usize = 600;

fn main() -> ExitCode {
    match render::gif_option("robot_arm", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("robot_arm: {e}");
            ExitCode::from(2)
        }
    }
}

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

/// The tip of the arm for joint angles `angles`, by forward kinematics.
fn tip_for(angles: &[Real; 3]) -> Point {
    let (mut p, mut heading) = (Vec2::zeros(), 0.0);
    for (length, angle) in LINKS.into_iter().zip(angles) {
        heading += angle;
        p += Vec2::new(heading.cos(), heading.sin()) * length;
    }
    Point::from(p)
}

fn run(gif: Option<String>) -> Result<(), String> {
    let mut world = World::new(WorldSettings::default());
    let (links, motors) = build_arm(&mut world)?;
    println!(
        "robot_arm: links {LINKS:?} m on motors of {TORQUES:?} N·m, gain {GAIN}/s, speeds up to {MAX_SPEED} rad/s"
    );
    let mut recorder = match &gif {
        Some(path) => {
            let camera = render::Camera::framing(Point::new(-2.6, -2.6), Point::new(2.6, 2.6), 320, 320);
            Some(render::GifRecorder::create(path, camera, 2, DT)?)
        }
        None => None,
    };
    let tip_of_arm = |world: &World| -> Result<Point, String> {
        let last = world.body(links[2]).ok_or("the last link is missing")?;
        Ok(last.position() * Point::new(0.5 * LINKS[2], 0.0))
    };
    for target in TARGETS {
        let mut settled_at = None;
        for step in 1..=MAX_STEPS {
            let mut worst: Real = 0.0;
            for (&motor, &goal) in motors.iter().zip(&target) {
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
            if worst < SETTLED && settled_at.is_none() {
                settled_at = Some(step);
            }
            world.step(DT).map_err(|e| format!("step {step}: {e}"))?;
            if let Some(r) = &mut recorder {
                r.observe(&world)?;
            }
            if settled_at.is_some_and(|s| step > s + 30) {
                break;
            }
        }
        let (tip, wanted) = (tip_of_arm(&world)?, tip_for(&target));
        let mut angles = [0.0; 3];
        for (angle, &motor) in angles.iter_mut().zip(&motors) {
            *angle = world.joint_motion(motor).ok_or("a motor is missing")?.angle;
        }
        let reached = match settled_at {
            Some(s) => format!("settled in {s} steps ({:.2} s)", s as Real * DT),
            None => format!("not within {SETTLED} rad after {MAX_STEPS} steps"),
        };
        println!(
            "target {target:?}: {reached}; tip at ({:.4}, {:.4}), {:.2} mm from the kinematic target ({:.4}, {:.4}), {:.2} mm from the pose of the angles reached",
            tip.x,
            tip.y,
            1000.0 * (tip - wanted).norm(),
            wanted.x,
            wanted.y,
            1000.0 * (tip - tip_for(&angles)).norm()
        );
    }
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    Ok(())
}
