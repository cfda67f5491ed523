//! Ragdolls tumbling down a staircase.
//!
//! `cargo run --release --example ragdoll -- [--gif out.gif]`
//!
//! Four ragdolls (Box2D's human at scale 1: eleven capsule bones, ten revolute
//! joints with angle limits, joint friction from a motor of speed 0, and a
//! soft spring toward the standing pose) are thrown off the top step of a
//! staircase of 12 steps. The example prints where each one comes to rest,
//! how far it fell, and the largest force any joint carried.

#[path = "support/render.rs"]
mod render;

#[path = "../benches/scenes/human.rs"]
mod human;

use human::{HumanJoints, add_human};
use lamina::prelude::*;
use std::process::ExitCode;

const DT: Real = 1.0 / 60.0;
/// Steps of the staircase, and each step's depth and rise, m.
const STAIRS: usize = 12;
const TREAD: Real = 1.2;
const RISE: Real = 0.4;
const RAGDOLLS: usize = 4;
const MAX_SECONDS: Real = 15.0;

fn main() -> ExitCode {
    match render::gif_option("ragdoll", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ragdoll: {e}");
            ExitCode::from(2)
        }
    }
}

/// The height of the top of step `i` (0 is the lowest).
fn step_top(i: usize) -> Real {
    (i + 1) as Real * RISE
}

/// A fixed staircase going down to the right: step `i` spans
/// x ∈ [(STAIRS − 1 − i)·TREAD, (STAIRS − i)·TREAD], and a floor beyond it.
fn build_stairs(world: &mut World) -> Result<(), String> {
    let ground = world.add_body(BodyDesc::fixed());
    for i in 0..STAIRS {
        let x = (STAIRS - 1 - i) as Real * TREAD + 0.5 * TREAD;
        let half_height = 0.5 * step_top(i);
        let step = ColliderDesc::new(Shape::rectangle(0.5 * TREAD, half_height))
            .friction(0.6)
            .local_pose(Isometry::translation(x, half_height));
        world.add_collider(ground, step).map_err(|e| e.to_string())?;
    }
    let floor = ColliderDesc::new(Shape::rectangle(20.0, 0.5))
        .friction(0.6)
        .local_pose(Isometry::translation(STAIRS as Real * TREAD + 20.0, -0.5));
    world.add_collider(ground, floor).map_err(|e| e.to_string())?;
    Ok(())
}

/// Each ragdoll's bodies carry its number plus one as user data.
fn bones_of(world: &World, ragdoll: usize) -> Vec<BodyKey> {
    world.bodies().filter(|(_, b)| b.user_data() == ragdoll as u64 + 1).map(|(k, _)| k).collect()
}

fn run(gif: Option<String>) -> Result<(), String> {
    let mut world = World::new(WorldSettings::default());
    build_stairs(&mut world)?;
    let joints = HumanJoints { friction_torque: 0.5, hertz: 2.0, damping_ratio: 0.5 };
    let top = step_top(STAIRS - 1);
    for r in 0..RAGDOLLS {
        // Standing on the top step, one behind the other, each thrown forward.
        let feet = Point::new(0.2 + 0.25 * r as Real, top + 0.05 + 2.0 * r as Real);
        add_human(&mut world, feet, -(r as i32 + 1), joints, r as u64 + 1);
        for key in bones_of(&world, r) {
            let body = world.body_mut(key).ok_or("a bone is missing")?;
            body.set_linear_velocity(Vec2::new(2.0 + 0.5 * r as Real, 1.0)).map_err(|e| e.to_string())?;
        }
    }
    println!(
        "ragdoll: {RAGDOLLS} ragdolls ({} bodies, {} joints) thrown off a staircase of {STAIRS} steps, {TREAD} m × {RISE} m",
        world.body_count() - 1,
        world.joint_count()
    );

    let mut recorder = match &gif {
        Some(path) => {
            let right = STAIRS as Real * TREAD + 6.0;
            let camera =
                render::Camera::framing(Point::new(-0.5, -0.5), Point::new(right, top + 9.0), 480, 270);
            Some(render::GifRecorder::create(path, camera, 3, DT)?)
        }
        None => None,
    };
    let (mut strongest, mut strongest_at) = (0.0 as Real, 0.0 as Real);
    let mut seconds = 0.0;
    for step in 1..=(MAX_SECONDS / DT) as usize {
        world.step(DT).map_err(|e| format!("step {step}: {e}"))?;
        if let Some(r) = &mut recorder {
            r.observe(&world)?;
        }
        seconds = step as Real * DT;
        for (_, j) in world.joints() {
            let force = j.constraint_force().norm();
            if force > strongest {
                (strongest, strongest_at) = (force, seconds);
            }
        }
        if world.profile().awake_bodies == 0 {
            break;
        }
    }

    for r in 0..RAGDOLLS {
        let bones = bones_of(&world, r);
        let hip = world.body(bones[0]).ok_or("the hip is missing")?;
        let p = hip.position().translation;
        let stair = STAIRS as Real - 1.0 - (p.x / TREAD).floor();
        let place = if stair < 0.0 {
            "on the floor beyond the stairs".to_string()
        } else {
            format!("on step {} from the bottom", stair as usize + 1)
        };
        let lowest = bones
            .iter()
            .filter_map(|&k| world.body(k))
            .map(|b| b.center_of_mass().y)
            .fold(Real::MAX, Real::min);
        println!(
            "ragdoll {}: hip at ({:.2}, {:.2}), {place}; fell {:.2} m; lowest bone centre {:.2} m; {}",
            r + 1,
            p.x,
            p.y,
            top + 0.95 + 2.0 * r as Real - p.y,
            lowest,
            if hip.is_sleeping() { "asleep" } else { "still moving" }
        );
    }
    println!("largest joint force: {strongest:.0} N at t = {strongest_at:.2} s; simulated {seconds:.2} s");
    let finite = world.bodies().all(|(_, b)| b.position().translation.vector.iter().all(|v| v.is_finite()));
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    if finite { Ok(()) } else { Err("a body left the finite numbers".into()) }
}
