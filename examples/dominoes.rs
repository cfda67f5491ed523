//! A row of thirty dominoes toppled by a push on the first.
//!
//! `cargo run --release --example dominoes -- [--gif out.gif]`
//!
//! Dominoes 2 m tall and 0.2 m thick stand 1 m apart; the first is pushed at its
//! top. The example prints when every fifth domino tips past 45°, the speed of
//! the wave, and when the last one falls and lands.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/dominoes.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{COUNT, DT, HALF, PUSH, SPACING};
use std::process::ExitCode;

/// A domino tipped further than this, degrees, has fallen.
const FALLEN: Real = 45.0;
/// The last domino has landed when it lies this flat, degrees.
const LANDED: Real = 85.0;
const MAX_SECONDS: Real = 20.0;

fn main() -> ExitCode {
    match render::gif_option("dominoes", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dominoes: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(gif: Option<String>) -> Result<(), String> {
    let (mut world, dominoes) = scene::build()?;
    println!(
        "dominoes: {COUNT} dominoes {:.1} m × {:.1} m, {SPACING} m apart; the first pushed at its top with {PUSH} N·s",
        2.0 * HALF.0,
        2.0 * HALF.1
    );

    let mut recorder = match &gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 480, 80);
            Some(render::GifRecorder::create(path, camera, 4, DT)?)
        }
        None => None,
    };
    if let Some(r) = &mut recorder {
        r.observe(&world)?;
    }

    let mut fell_at: Vec<Option<Real>> = vec![None; COUNT];
    let mut landed_at = None;
    let max_steps = (MAX_SECONDS / DT).round() as usize;
    for step in 1..=max_steps {
        world.step(DT).map_err(|e| format!("step {step}: {e}"))?;
        if let Some(r) = &mut recorder {
            r.observe(&world)?;
        }
        let t = step as Real * DT;
        for (i, &key) in dominoes.iter().enumerate() {
            let tilt = world.body(key).map_or(0.0, |b| b.angle().abs().to_degrees());
            if fell_at[i].is_none() && tilt > FALLEN {
                fell_at[i] = Some(t);
                if i % 5 == 4 || i == 0 {
                    println!("t = {t:5.2} s  domino {:2} falls", i + 1);
                }
            }
            if i == COUNT - 1 && landed_at.is_none() && tilt > LANDED {
                landed_at = Some(t);
            }
        }
        if landed_at.is_some() && world.profile().awake_bodies == 0 {
            break;
        }
    }

    let fallen = fell_at.iter().filter(|t| t.is_some()).count();
    match (fell_at[0], fell_at[COUNT - 1]) {
        (Some(a), Some(b)) => {
            let speed = (COUNT - 1) as Real * SPACING / (b - a);
            println!("the last domino falls at t = {b:.2} s: the wave ran at {speed:.2} m/s");
        }
        _ => println!("only {fallen} of {COUNT} dominoes fell within {MAX_SECONDS} s"),
    }
    match landed_at {
        Some(t) => println!("the last domino lies on the ground at t = {t:.2} s"),
        None => println!("the last domino never came to lie flat"),
    }
    let tilts: Vec<Real> =
        dominoes.iter().filter_map(|&k| world.body(k)).map(|b| b.angle().abs().to_degrees()).collect();
    let least = tilts.iter().copied().fold(Real::MAX, Real::min);
    println!(
        "at rest: every domino tilted at least {least:.0}°, awake bodies {}",
        world.profile().awake_bodies
    );
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    if fallen == COUNT { Ok(()) } else { Err(format!("{} dominoes still stand", COUNT - fallen)) }
}
