//! Restitution: ten balls with restitution 0.0 to 0.9 dropped from 5 m.
//!
//! `cargo run --release --example bounce -- [--gif out.gif]`
//!
//! A ball dropped from height h that bounces with restitution e leaves the ground
//! at e times its landing speed and so rises to e²·h. The ground's restitution
//! is 0 and the world combines coefficients with the larger one (the default),
//! so each ball bounces with its own. The example prints, for each ball, when it
//! first touched the ground (from the world's contact events; free fall takes
//! √(2h/g)) and how high it rose afterwards, against e²·h.
//!
//! The rebounds fall a few percent short, by an amount proportional to the time
//! step: the bounce reverses the normal velocity the ball had at the start of
//! the landing step, before that step's gravity (g·dt, 0.17 m/s at 60 Hz) was
//! added; at 240 Hz the shortfall is about 1%.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/bounce.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{DT, HEIGHT, RADIUS};
use std::process::ExitCode;

const SECONDS: Real = 3.0;

struct Ball {
    restitution: Real,
    body: BodyKey,
    collider: ColliderKey,
    landed_at: Option<Real>,
    /// Highest bottom after the first landing, m, while still rising.
    rebound: Real,
    rising_done: bool,
}

fn main() -> ExitCode {
    match render::gif_option("bounce", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bounce: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(gif: Option<String>) -> Result<(), String> {
    let settings = WorldSettings::default();
    let g = -settings.gravity.y;
    let (mut world, dropped) = scene::build()?;
    let mut balls: Vec<Ball> = dropped
        .into_iter()
        .map(|d| Ball {
            restitution: d.restitution,
            body: d.body,
            collider: d.collider,
            landed_at: None,
            rebound: 0.0,
            rising_done: false,
        })
        .collect();
    println!("bounce: {} balls of radius {RADIUS} m dropped from {HEIGHT} m, g = {g} m/s²", balls.len());

    let mut recorder = match &gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 440, 260);
            Some(render::GifRecorder::create(path, camera, 2, DT)?)
        }
        None => None,
    };
    if let Some(r) = &mut recorder {
        r.observe(&world)?;
    }

    let steps = (SECONDS / DT).round() as usize;
    for step in 1..=steps {
        world.step(DT).map_err(|e| format!("step {step}: {e}"))?;
        if let Some(r) = &mut recorder {
            r.observe(&world)?;
        }
        let t = step as Real * DT;
        for ball in &mut balls {
            let touched = |e: &ContactEvent| matches!(*e, ContactEvent::Begin { a, b } if a == ball.collider || b == ball.collider);
            if ball.landed_at.is_none() && world.contact_events().iter().any(touched) {
                ball.landed_at = Some(t);
            }
            let Some(body) = world.body(ball.body) else { continue };
            if ball.landed_at.is_some() && !ball.rising_done {
                ball.rebound = ball.rebound.max(body.position().translation.y - RADIUS);
                // Past the top of the rebound (or never left the ground).
                ball.rising_done = body.linear_velocity().y < 0.0;
            }
        }
    }

    println!("   e   first touch   rebound   e²·h     ");
    for ball in &balls {
        let expected = ball.restitution * ball.restitution * HEIGHT;
        let touch = ball.landed_at.map_or("never".to_string(), |t| format!("{t:5.3} s"));
        let off = if expected > 0.0 {
            format!("{:+6.1}%", 100.0 * (ball.rebound - expected) / expected)
        } else {
            String::new()
        };
        println!("{:4.1}   {touch:>9}   {:6.3} m  {expected:6.3} m  {off}", ball.restitution, ball.rebound);
    }
    let landing_speed = (2.0 * g * HEIGHT).sqrt();
    println!(
        "free fall from {HEIGHT} m takes {:.3} s; one step of gravity missed at the bounce makes rebounds {:.1}% low",
        (2.0 * HEIGHT / g).sqrt(),
        100.0 * (1.0 - (1.0 - g * DT / landing_speed).powi(2))
    );
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    Ok(())
}
