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

use lamina::prelude::*;
use std::process::ExitCode;

const DT: Real = 1.0 / 60.0;
const SECONDS: Real = 3.0;
/// Horizontal spacing of the exhibits, m.
const SPACING: Real = 4.0;

fn main() -> ExitCode {
    match render::gif_option("joints", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("joints: {e}");
            ExitCode::from(2)
        }
    }
}

/// A dynamic body with one collider of density 1.
fn body(world: &mut World, x: Real, y: Real, shape: Shape) -> Result<BodyKey, String> {
    let b = world.add_body(BodyDesc::dynamic().translation(x, y));
    world.add_collider(b, ColliderDesc::new(shape)).map_err(|e| e.to_string())?;
    Ok(b)
}

/// The exhibits: one joint of each kind, left to right, named.
fn build(world: &mut World) -> Result<Vec<(&'static str, JointKey)>, String> {
    let ground = world.add_body(BodyDesc::fixed());
    world
        .add_collider(
            ground,
            ColliderDesc::new(Shape::rectangle(20.0, 0.5)).local_pose(Isometry::translation(12.0, -0.5)),
        )
        .map_err(|e| e.to_string())?;
    let x = |k: usize| k as Real * SPACING;
    let top = 4.0;
    let mut joints = Vec::new();
    let mut add = |world: &mut World, name, desc: JointDesc| -> Result<(), String> {
        joints.push((name, world.add_joint(desc).map_err(|e| e.to_string())?));
        Ok(())
    };

    // A pendulum released level with its pivot.
    let bob = body(world, x(0) + 1.5, top, Shape::circle(0.25))?;
    add(world, "revolute", JointDesc::revolute(ground, bob, Point::new(x(0), top)))?;
    // A slider on a 30° axis, driven up at 1 m/s, stopped by its limits.
    let axis = Vec2::new(0.866, 0.5);
    let slider = body(world, x(1), 2.0, Shape::rectangle(0.4, 0.2))?;
    add(
        world,
        "prismatic",
        JointDesc::prismatic(ground, slider, Point::new(x(1), 2.0), axis).limits(-1.0, 1.0).motor(1.0, 500.0),
    )?;
    // A 2 m beam welded by one end.
    let beam = body(world, x(2) + 1.0, top, Shape::rectangle(1.0, 0.1))?;
    add(world, "weld", JointDesc::weld(ground, beam, Point::new(x(2), top)))?;
    // A ball on a 2 m rope, starting 1 m from its anchor: it falls freely first.
    let ball = body(world, x(3) + 1.0, top, Shape::circle(0.2))?;
    add(
        world,
        "distance (rope)",
        JointDesc::distance(ground, ball, Point::new(x(3), top), Point::new(x(3) + 1.0, top))
            .limits(0.0, 2.0),
    )?;
    // A wheel on a frame fixed in the air, on a 3 Hz suspension, spun by its motor.
    let frame = world.add_body(BodyDesc::fixed().translation(x(4), 2.0));
    let wheel = body(world, x(4), 1.5, Shape::circle(0.4))?;
    add(
        world,
        "wheel",
        JointDesc::wheel(frame, wheel, Point::new(x(4), 1.5), Vec2::new(0.0, 1.0))
            .spring(3.0, 0.5)
            .limits(-0.5, 0.5)
            .motor(4.0, 10.0),
    )?;
    // A box held at its pose above the ground by a motor joint.
    let held = body(world, x(5), 2.0, Shape::rectangle(0.3, 0.3))?;
    add(world, "motor joint", JointDesc::motor_joint(ground, held).max_force(200.0).max_torque(50.0))?;
    // A box on the ground dragged by a mouse joint.
    let dragged = body(world, x(6), 0.3, Shape::rectangle(0.3, 0.3))?;
    let mass = world.body(dragged).map_or(1.0, |b| b.mass());
    add(world, "mouse", JointDesc::mouse(dragged, Point::new(x(6), 0.3)).max_force(100.0 * mass))?;
    Ok(joints)
}

fn run(gif: Option<String>) -> Result<(), String> {
    let mut world = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    let joints = build(&mut world)?;
    let mouse = joints.last().ok_or("no mouse joint")?.1;
    let mut recorder = match &gif {
        Some(path) => {
            let camera = render::Camera::framing(
                Point::new(-2.5, -0.5),
                Point::new(6.0 * SPACING + 2.5, 6.0),
                560,
                150,
            );
            Some(render::GifRecorder::create(path, camera, 2, DT)?)
        }
        None => None,
    };
    let steps = (SECONDS / DT) as usize;
    for step in 1..=steps {
        // The mouse's target circles at 1 rad/s, 1 m above its start.
        let t = step as Real * DT;
        let target = Point::new(6.0 * SPACING + t.sin(), 1.3 - t.cos());
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
