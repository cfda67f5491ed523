//! One-way platforms from the pre-solve hook: a character jumps up through
//! two platforms, lands on each, then drops through them on command; balls
//! thrown up through them land on top.
//!
//! `cargo run --release --example one_way_platform -- [--gif out.gif]`
//!
//! The hook (`World::set_pre_solve`) is asked each step about the contacts
//! of the colliders that opt in (`ColliderDesc::enable_pre_solve`), the two
//! platforms here: a platform holds what comes down onto it (the normal
//! from the platform points up, and the body is not already through it),
//! and lets everything else pass; while the player asks to drop, it lets the
//! character pass too. The example checks where everything comes to rest
//! against the heights the platforms give by hand, and fails if any is off.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/one_way_platform.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{DT, HALF, LEVELS, Move};
use std::process::ExitCode;

const SECONDS: Real = 7.0;

fn main() -> ExitCode {
    match render::gif_option("one_way_platform", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("one_way_platform: {e}");
            ExitCode::from(2)
        }
    }
}

/// Where the character's centre rests on each level: ground, first and
/// second platform (each platform's top is its centre plus 0.1 m).
fn resting_height(level: usize) -> Real {
    match level {
        0 => HALF.1,
        k => LEVELS[k - 1] + 0.1 + HALF.1,
    }
}

fn run(gif: Option<String>) -> Result<(), String> {
    let mut scene = scene::build()?;
    let mut recorder = match gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 360, 300);
            let mut r = render::GifRecorder::create(&path, camera, 2, DT)?;
            r.highlight(scene.hero);
            Some(r)
        }
        None => None,
    };
    // Where the character must stand just before each move of the script.
    let checks = [
        (1.9, 1, "on the first platform"),
        (3.4, 2, "on the second"),
        (4.9, 1, "back on the first"),
        (6.9, 0, "on the ground"),
    ];
    let steps = (SECONDS / DT).round() as usize;
    let mut failures = Vec::new();
    for step in 0..steps {
        let t = step as Real * DT;
        let m = scene::control(&mut scene.world, scene.hero, &scene.dropping, t)?;
        if m != Move::Stand
            && (t - (t / DT).round() * DT).abs() < 1.0e-6
            && !matches!(m, Move::Drop if scene::input(t - DT) == Move::Drop)
        {
            println!("t = {t:.2} s: {}", if m == Move::Jump { "jump" } else { "drop" });
        }
        scene.world.step(DT).map_err(|e| e.to_string())?;
        if let Some(r) = recorder.as_mut() {
            r.observe(&scene.world)?;
        }
        for &(at, level, what) in &checks {
            if ((t + DT) - at).abs() < 0.5 * DT {
                let y = scene.world.body(scene.hero).ok_or("the character is gone")?.translation().y;
                let expected = resting_height(level);
                println!("t = {at:.1} s: the character stands {what}: y = {y:.3} m (by hand {expected:.3})");
                if (y - expected).abs() > 0.02 {
                    failures.push(format!(
                        "at t = {at} s the character is at y = {y:.3}, not {what} ({expected:.3})"
                    ));
                }
            }
        }
    }
    // The balls: the slowest lands on the first platform, the others on the second.
    let balls: Vec<Real> = scene
        .world
        .bodies()
        .filter(|(key, b)| *key != scene.hero && b.kind() == BodyKind::Dynamic)
        .map(|(_, b)| b.translation().y)
        .collect();
    let expected = [LEVELS[0] + 0.1 + 0.25, LEVELS[1] + 0.1 + 0.25, LEVELS[1] + 0.1 + 0.25];
    for (k, (y, e)) in balls.iter().zip(expected).enumerate() {
        println!("ball {k}: rests at y = {y:.3} m (by hand {e:.3})");
        if (y - e).abs() > 0.02 {
            failures.push(format!("ball {k} rests at y = {y:.3}, not {e:.3}"));
        }
    }
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("; ")) }
}
