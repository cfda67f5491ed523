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

#[path = "scenes/ragdoll.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{DT, RAGDOLLS, RISE, STAIRS, TREAD, bones_of, step_top};
use std::process::ExitCode;

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

fn run(gif: Option<String>) -> Result<(), String> {
    let mut world = scene::build()?;
    let top = step_top(STAIRS - 1);
    println!(
        "ragdoll: {RAGDOLLS} ragdolls ({} bodies, {} joints) thrown off a staircase of {STAIRS} steps, {TREAD} m × {RISE} m",
        world.body_count() - 1,
        world.joint_count()
    );

    let mut recorder = match &gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 480, 270);
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
