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
#[path = "scenes/robot_arm.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{DT, GAIN, LINKS, MAX_SPEED, MAX_STEPS, SETTLED, TARGETS, TORQUES, tip_for};
use std::process::ExitCode;

fn main() -> ExitCode {
    match render::gif_option("robot_arm", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("robot_arm: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(gif: Option<String>) -> Result<(), String> {
    let (mut world, links, motors) = scene::build()?;
    println!(
        "robot_arm: links {LINKS:?} m on motors of {TORQUES:?} N·m, gain {GAIN}/s, speeds up to {MAX_SPEED} rad/s"
    );
    let mut recorder = match &gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 320, 320);
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
            let worst = scene::steer(&mut world, &motors, &target)?;
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
