//! Surface materials: conveyor belts, rolling resistance and a friction rule
//! by surface, each checked against physics worked by hand.
//!
//! `cargo run --release --example conveyor -- [--gif out.gif]`
//!
//! - Crates on a belt moving at 2 m/s (`ColliderDesc::tangent_speed`) ride
//!   it at 2 m/s, fall off its end onto a belt running back at 1.5 m/s, and
//!   ride that one at its speed.
//! - Discs rolling at 4 m/s with rolling resistance r
//!   (`ColliderDesc::rolling_resistance`) slow at a = r·g / (1 + I/(m·R²)) =
//!   (2/3)·r·g and stop after v²/(2a); the one without keeps rolling.
//! - On an icy ramp, a friction rule (`World::set_friction_rule`) gives a
//!   rubber crate 0.9, and it holds, and an ice crate 0.02, and it slides at
//!   g·(sin θ − 0.02·cos θ).
//!
//! The example fails if any of them is off by more than a few per cent.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/conveyor.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{DISC_SPEED, DISC_START, DT, LOWER_SPEED, RAMP_ANGLE, RESISTANCES, UPPER_SPEED};
use std::process::ExitCode;

const SECONDS: Real = 7.0;
const G: Real = 10.0;

fn main() -> ExitCode {
    match render::gif_option("conveyor", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("conveyor: {e}");
            ExitCode::from(2)
        }
    }
}

/// Checks `what`, measured `got`, against `expected` within `tolerance`
/// (relative), printing both; a miss goes to `failures`.
fn check(what: &str, got: Real, expected: Real, tolerance: Real, failures: &mut Vec<String>) {
    let ok = (got - expected).abs() <= tolerance * expected.abs().max(0.1);
    println!("{what}: {got:.3} (by hand {expected:.3}){}", if ok { "" } else { "  <- off" });
    if !ok {
        failures.push(format!("{what} is {got:.3}, by hand {expected:.3}"));
    }
}

fn run(gif: Option<String>) -> Result<(), String> {
    let mut scene = scene::build()?;
    let mut recorder = match gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 720, 110);
            let mut r = render::GifRecorder::create(&path, camera, 3, DT)?;
            for &d in &scene.discs {
                r.highlight(d);
            }
            Some(r)
        }
        None => None,
    };
    let mut failures = Vec::new();
    let body = |world: &World, key: BodyKey| world.body(key).cloned().ok_or("a body is gone");
    let steps = (SECONDS / DT).round() as usize;
    let (s, c) = RAMP_ANGLE.sin_cos();
    let rubber_start = body(&scene.world, scene.rubber)?.translation();
    let mut stopped_at: Vec<Option<Real>> = vec![None; RESISTANCES.len()];
    for step in 1..=steps {
        scene.world.step(DT).map_err(|e| e.to_string())?;
        let t = step as Real * DT;
        if let Some(r) = recorder.as_mut() {
            r.observe(&scene.world)?;
        }
        if step == 60 {
            println!("after 1 s:");
            let first = body(&scene.world, scene.crates[0])?;
            check(
                "  a crate on the upper belt, m/s",
                first.linear_velocity().x,
                UPPER_SPEED,
                0.02,
                &mut failures,
            );
            let ice = body(&scene.world, scene.ice)?;
            let a = G * (s.abs() - 0.02 * c);
            check(
                "  the ice crate's speed down the ramp, m/s",
                ice.linear_velocity().norm(),
                a * t,
                0.05,
                &mut failures,
            );
            let held = (body(&scene.world, scene.rubber)?.translation() - rubber_start).norm();
            check("  how far the rubber crate moved, m", held, 0.0, 0.1, &mut failures);
        }
        for (k, &d) in scene.discs.iter().enumerate() {
            if stopped_at[k].is_none() && body(&scene.world, d)?.linear_velocity().x.abs() < 1.0e-3 {
                stopped_at[k] = Some(t);
            }
        }
    }
    println!("after {SECONDS} s:");
    // Crates on the lower belt ride it back.
    let on_lower: Vec<Real> = scene
        .crates
        .iter()
        .filter_map(|&k| scene.world.body(k))
        .filter(|b| (b.translation().y - 1.65).abs() < 0.05)
        .map(|b| b.linear_velocity().x)
        .collect();
    if on_lower.is_empty() {
        failures.push("no crate reached the lower belt".into());
    }
    for v in on_lower {
        check("  a crate on the lower belt, m/s", v, LOWER_SPEED, 0.02, &mut failures);
    }
    for (k, &r) in RESISTANCES.iter().enumerate() {
        let disc = body(&scene.world, scene.discs[k])?;
        let travelled = disc.translation().x - DISC_START;
        if r == 0.0 {
            check(
                "  the disc without resistance, m/s",
                disc.linear_velocity().x,
                DISC_SPEED,
                0.02,
                &mut failures,
            );
            continue;
        }
        let a = 2.0 / 3.0 * r * G;
        check(
            &format!("  the disc with r = {r}: distance to its stop, m"),
            travelled,
            DISC_SPEED * DISC_SPEED / (2.0 * a),
            0.03,
            &mut failures,
        );
        match stopped_at[k] {
            Some(t) => check(
                &format!("  the disc with r = {r}: time to its stop, s"),
                t,
                DISC_SPEED / a,
                0.05,
                &mut failures,
            ),
            None => failures.push(format!("the disc with r = {r} did not stop")),
        }
    }
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("; ")) }
}
