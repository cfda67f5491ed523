//! One joint of each kind, side by side.
//!
//! `cargo run --release --example joints -- [--gif out.gif]`
//!
//! A revolute pendulum, a prismatic slider driven by a motor between limits,
//! a welded beam, a ball on a rope (a distance joint with limits 0..L), a
//! wheel on its suspension, a box held in place by a motor joint, and a box
//! dragged by a mouse joint toward a target that circles. After three seconds
//! the example prints each joint's motion (angle or translation, and speed)
//! and the force and torque it carries. The slider rests against its upper
//! limit pushed by its motor: the soft limit gives by force / (m ω²), about a
//! centimetre for 500 N on 0.32 kg at 60 Hz.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/joints.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::DT;
use std::process::ExitCode;

const SECONDS: Real = 3.0;

fn main() -> ExitCode {
    match render::gif_option("joints", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("joints: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(gif: Option<String>) -> Result<(), String> {
    let (mut world, joints) = scene::build()?;
    let mouse = joints.last().ok_or("no mouse joint")?.1;
    let mut recorder = match &gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 560, 150);
            Some(render::GifRecorder::create(path, camera, 2, DT)?)
        }
        None => None,
    };
    let steps = (SECONDS / DT) as usize;
    for step in 1..=steps {
        // The mouse's target circles at 1 rad/s, 1 m above its start.
        let t = step as Real * DT;
        let target = scene::mouse_target(t);
        world
            .joint_mut(mouse)
            .ok_or("the mouse joint is missing")?
            .set_target(target)
            .map_err(|e| e.to_string())?;
        world.step(DT).map_err(|e| format!("step {step}: {e}"))?;
        if let Some(r) = &mut recorder {
            r.observe(&world)?;
        }
    }
    println!("joints: one of each kind after {SECONDS} s");
    println!(
        "{:<16} {:>10} {:>11} {:>15} {:>11} {:>18} {:>12}",
        "joint", "angle rad", "spin rad/s", "translation m", "speed m/s", "force on B, N", "torque N·m"
    );
    for (name, key) in &joints {
        let m = world.joint_motion(*key).ok_or("a joint is missing")?;
        let j = world.joint(*key).ok_or("a joint is missing")?;
        let f = j.constraint_force();
        println!(
            "{name:<16} {:>10.3} {:>11.3} {:>15.3} {:>11.3} ({:>7.2}, {:>7.2}) {:>12.3}",
            m.angle,
            m.angular_speed,
            m.translation,
            m.linear_speed,
            f.x,
            f.y,
            j.constraint_torque()
        );
    }
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    Ok(())
}
