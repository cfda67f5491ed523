//! A car on wheel joints driving over hills.
//!
//! `cargo run --release --example car -- [--gif out.gif]`
//!
//! A 2.4 m chassis rides on two wheels of radius 0.4 m, each on a wheel joint:
//! a vertical suspension spring (4 Hz, damping ratio 0.7) with ±0.25 m of
//! travel, and a motor turning the wheel at 10 rad/s with at most 80 N·m. The
//! ground is flat for 20 m, then rolls over gentle hills. The example prints
//! the speed on the flat against the motor's ω·r, the distance and mean speed
//! over the hills, and how far the suspension travelled.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/car.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{DT, FLAT, HILLS, MOTOR_SPEED, MOTOR_TORQUE, WHEEL_RADIUS};
use std::process::ExitCode;

const SECONDS: Real = 30.0;

fn main() -> ExitCode {
    match render::gif_option("car", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("car: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(gif: Option<String>) -> Result<(), String> {
    let (mut world, chassis, wheels) = scene::build()?;
    let target = -MOTOR_SPEED * WHEEL_RADIUS;
    println!(
        "car: wheels of {WHEEL_RADIUS} m driven at {} rad/s (ω·r = {target} m/s), {MOTOR_TORQUE} N·m each",
        -MOTOR_SPEED
    );

    let mut recorder = match &gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 480, 120);
            Some(render::GifRecorder::create(path, camera, 4, DT)?)
        }
        None => None,
    };
    let (mut travel_min, mut travel_max) = (Real::MAX, Real::MIN);
    let mut flat_speed = None;
    let mut hills_start = None;
    let mut time = 0.0;
    for step in 1..=(SECONDS / DT) as usize {
        world.step(DT).map_err(|e| format!("step {step}: {e}"))?;
        if let Some(r) = &mut recorder {
            r.observe(&world)?;
        }
        time = step as Real * DT;
        let x = world.body(chassis).ok_or("the chassis is missing")?.position().translation.x;
        if flat_speed.is_none() && x > FLAT - 4.0 {
            flat_speed = Some(world.body(chassis).ok_or("the chassis is missing")?.linear_velocity().x);
        }
        if hills_start.is_none() && x > FLAT {
            hills_start = Some(time);
        }
        for &w in &wheels {
            let t = world.joint_motion(w).ok_or("a wheel joint is missing")?.translation;
            travel_min = travel_min.min(t);
            travel_max = travel_max.max(t);
        }
        if x > FLAT + HILLS - 5.0 {
            break;
        }
    }
    let body = world.body(chassis).ok_or("the chassis is missing")?;
    let x = body.position().translation.x;
    if let Some(v) = flat_speed {
        println!(
            "on the flat: {v:.3} m/s against ω·r = {target} m/s ({:.2} % off)",
            100.0 * (v - target).abs() / target
        );
    }
    if let Some(t0) = hills_start {
        let mean = (x - FLAT) / (time - t0);
        println!(
            "over the hills: {:.1} m along x in {:.1} s, mean {mean:.2} m/s: below ω·r, since the road over a hill is longer than its run along x",
            x - FLAT,
            time - t0
        );
    }
    println!(
        "suspension travel: {travel_min:.3} m to {travel_max:.3} m (limits ±0.25 m); chassis tilt now {:.1}°",
        body.angle().to_degrees()
    );
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    Ok(())
}
