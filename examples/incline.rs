//! Coulomb friction on a slope: five blocks with friction 0.1 to 0.9 on five
//! ramps tilted 30°.
//!
//! `cargo run --release --example incline -- [--gif out.gif]`
//!
//! A block holds when μ ≥ tan θ (0.577 at 30°) and otherwise slides down with
//! a = g(sin θ − μ cos θ). The ramps' friction is 1 and the world combines
//! coefficients with [`MixRule::Min`], so each block slides with its own μ. The
//! example prints, for each block, whether it held or slid and the acceleration
//! it measured (from its velocity along the slope between 0.5 s and 1.5 s)
//! against the textbook value.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/incline.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{DT, SLOPE_DEGREES};
use std::process::ExitCode;

/// The velocity window over which the acceleration is measured, s.
const WINDOW: (Real, Real) = (0.5, 1.5);
const SECONDS: Real = 2.0;
/// A block that moved less than this along the slope held, m.
const HELD: Real = 0.01;

struct Block {
    friction: Real,
    body: BodyKey,
    start: Point,
    v_start: Real,
    v_end: Real,
}

fn main() -> ExitCode {
    match render::gif_option("incline", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("incline: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(gif: Option<String>) -> Result<(), String> {
    let g = -scene::settings().gravity.y;
    let (mut world, placed) = scene::build()?;
    let theta = SLOPE_DEGREES.to_radians();
    let up = scene::up();
    let mut blocks: Vec<Block> = placed
        .into_iter()
        .map(|p| Block { friction: p.friction, body: p.body, start: p.start, v_start: 0.0, v_end: 0.0 })
        .collect();
    println!("incline: blocks on ramps tilted {SLOPE_DEGREES}°, tan θ = {:.3}, g = {g} m/s²", theta.tan());

    let mut recorder = match &gif {
        Some(path) => {
            let (min, max) = scene::view();
            Some(render::GifRecorder::create(path, render::Camera::framing(min, max, 480, 200), 3, DT)?)
        }
        None => None,
    };
    if let Some(r) = &mut recorder {
        r.observe(&world)?;
    }

    let steps = (SECONDS / DT).round() as usize;
    let window = ((WINDOW.0 / DT).round() as usize, (WINDOW.1 / DT).round() as usize);
    for step in 1..=steps {
        world.step(DT).map_err(|e| format!("step {step}: {e}"))?;
        if let Some(r) = &mut recorder {
            r.observe(&world)?;
        }
        for block in &mut blocks {
            // Speed down the slope.
            let v = world.body(block.body).map_or(0.0, |b| -b.linear_velocity().dot(&up));
            if step == window.0 {
                block.v_start = v;
            }
            if step == window.1 {
                block.v_end = v;
            }
        }
    }

    let span = (window.1 - window.0) as Real * DT;
    println!("   μ   expected            measured a (m/s²)  slid after {SECONDS} s");
    let mut wrong = 0;
    for block in &blocks {
        let Some(body) = world.body(block.body) else { continue };
        let slid = -(body.position() * Point::origin() - block.start).dot(&up);
        let expected = g * (theta.sin() - block.friction * theta.cos());
        let measured = (block.v_end - block.v_start) / span;
        // Print a held block's rounding noise as 0, not -0.000.
        let measured = if measured.abs() < 5e-4 { 0.0 } else { measured };
        let holds = slid < HELD;
        let agrees = holds == (expected <= 0.0);
        wrong += usize::from(!agrees);
        let verdict = match (holds, agrees) {
            (true, true) => "holds",
            (false, true) => "slides",
            (true, false) => "HOLDS, but μ < tan θ",
            (false, false) => "SLIDES, but μ ≥ tan θ",
        };
        let expected_text =
            if expected > 0.0 { format!("slides, a = {expected:.3}") } else { "holds, a = 0".to_string() };
        println!(
            "{:5.2}   {expected_text:18}  {measured:7.3}            {slid:7.3} m  {verdict}{}",
            block.friction,
            if expected > 0.0 {
                format!(" ({:+.1}% off)", 100.0 * (measured - expected) / expected)
            } else {
                String::new()
            }
        );
    }
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    if wrong == 0 { Ok(()) } else { Err(format!("{wrong} blocks disagree with Coulomb's law")) }
}
