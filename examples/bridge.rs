//! A plank bridge under load.
//!
//! `cargo run --release --example bridge -- [--gif out.gif]`
//!
//! Forty planks 0.5 m long, hinged end to end by revolute joints and to a
//! fixed bank at each end 18 m apart (the planks span 20 m, so the bridge hangs
//! with some slack, as a rope bridge does), carry boxes and balls dropped onto
//! them. The example
//! prints the sag at mid-span, the largest joint force and where it acts, and
//! checks the two end hinges against the weight they hold up: at rest, their
//! upward forces add up to the weight of the bridge and its load.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/bridge.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{BALLS, BOXES, DT, PLANK, PLANKS, radius_sag};
use std::process::ExitCode;

const G: Real = 10.0;
const SECONDS: Real = 15.0;
/// The end hinges' forces are averaged over this last stretch, s.
const AVERAGE_OVER: Real = 3.0;

fn main() -> ExitCode {
    match render::gif_option("bridge", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bridge: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(gif: Option<String>) -> Result<(), String> {
    let (mut world, scene::Bridge { planks, hinges, load }) = scene::build()?;
    let weight: Real = planks.iter().chain(&load).filter_map(|&k| world.body(k)).map(|b| b.mass() * G).sum();
    println!(
        "bridge: {PLANKS} planks of {} m, {} hinges; load of {BOXES} boxes and {BALLS} balls; total weight {weight:.0} N",
        2.0 * PLANK.0,
        hinges.len()
    );
    let mut recorder = match &gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 480, 270);
            Some(render::GifRecorder::create(path, camera, 3, DT)?)
        }
        None => None,
    };
    let (mut strongest, mut strongest_hinge) = (0.0 as Real, 0);
    let steps = (SECONDS / DT) as usize;
    let averaged = (AVERAGE_OVER / DT) as usize;
    let mut held_sum = Vec2::zeros();
    for step in 1..=steps {
        world.step(DT).map_err(|e| format!("step {step}: {e}"))?;
        if let Some(r) = &mut recorder {
            r.observe(&world)?;
        }
        for (i, &h) in hinges.iter().enumerate() {
            let force = world.joint(h).map_or(0.0, |j| j.constraint_force().norm());
            if force > strongest {
                (strongest, strongest_hinge) = (force, i);
            }
        }
        if step > steps - averaged {
            // The first hinge pulls the first plank (its B) up; the last pushes the bank (its B) down.
            let end = |k: usize| world.joint(hinges[k]).map_or(Vec2::zeros(), |j| j.constraint_force());
            held_sum += Vec2::new(end(0).y, -end(PLANKS).y);
        }
    }

    let mid = world.body(planks[PLANKS / 2]).ok_or("the middle plank is missing")?;
    let unloaded = radius_sag();
    println!("sag at mid-span: {:.3} m (laid out at {unloaded:.3} m)", -mid.position().translation.y);
    println!(
        "largest joint force: {strongest:.0} N, at hinge {strongest_hinge} of 0..={PLANKS} (0 and {PLANKS} are the banks)"
    );
    let (left, right) = (held_sum.x / averaged as Real, held_sum.y / averaged as Real);
    let held = left + right;
    // Only loads still on the bridge weigh on it.
    let on_bridge: Vec<&Body> =
        load.iter().filter_map(|&k| world.body(k)).filter(|b| b.position().translation.y > -10.0).collect();
    let resting = on_bridge.len();
    let weight = planks.iter().filter_map(|&k| world.body(k)).map(|b| b.mass() * G).sum::<Real>()
        + on_bridge.iter().map(|b| b.mass() * G).sum::<Real>();
    println!(
        "end hinges hold {held:.0} N up over the last {AVERAGE_OVER} s (left {left:.0} N, right {right:.0} N) against {weight:.0} N of weight: {:.2} % off; {resting} of {} loads on the bridge",
        100.0 * (held - weight).abs() / weight,
        load.len()
    );
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    Ok(())
}
