//! A platformer character on chain terrain: running over seams and up and
//! down slopes, jumping a gap, and sliding down an icy slope.
//!
//! `cargo run --release --example platformer -- [--gif out.gif]`
//!
//! The terrain is two open chains of 1 m pieces (seams everywhere, which a
//! floor of separate boxes would snag on) with a slope and a gap, then an
//! icy slope of its own with friction 0.02, ending on ordinary ground. The
//! character is a box that does not turn. A scripted player runs right,
//! jumps (only when a short ray cast down from its feet finds ground),
//! crosses the gap, and lets go on the ice, where it slides. The example prints the character's state twice a second and
//! the largest vertical speed it had while running on flat ground: chain
//! seams keep it under a centimetre per second.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/platformer.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::DT;
use std::process::ExitCode;

const SECONDS: Real = 10.0;

fn main() -> ExitCode {
    match render::gif_option("platformer", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("platformer: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(gif: Option<String>) -> Result<(), String> {
    let (mut world, hero) = scene::build()?;
    let mut recorder = match gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 600, 130);
            let mut r = render::GifRecorder::create(&path, camera, 3, DT)?;
            r.highlight(hero);
            Some(r)
        }
        None => None,
    };

    let steps = (SECONDS / DT).round() as usize;
    let (mut flat_vy, mut jumps, mut on_ground_steps): (Real, usize, usize) = (0.0, 0, 0);
    let mut was_grounded = true;
    for step in 0..steps {
        let t = step as Real * DT;
        let scene::Control { running, jump, on_ground } = scene::control(&mut world, hero, t)?;
        on_ground_steps += usize::from(on_ground);
        if jump && on_ground {
            jumps += 1;
        }
        world.step(DT).map_err(|e| e.to_string())?;

        let b = world.body(hero).ok_or("the character is gone")?;
        let p = b.translation();
        // Running on the first flat stretch, the seams must not show.
        if on_ground && was_grounded && running && !jump && p.x > -3.5 && p.x < 2.5 {
            flat_vy = flat_vy.max(b.linear_velocity().y.abs());
        }
        was_grounded = on_ground;
        if let Some(r) = recorder.as_mut() {
            r.observe(&world)?;
        }
        if step % 30 == 29 {
            println!(
                "t = {:.1} s: at ({:.2}, {:.2}), v = ({:.2}, {:.2}) m/s, {}",
                t + DT,
                p.x,
                p.y,
                b.linear_velocity().x,
                b.linear_velocity().y,
                match (on_ground, running) {
                    (false, _) => "in the air",
                    (true, true) => "running",
                    (true, false) if b.linear_velocity().norm() > 0.05 => "sliding",
                    (true, false) => "standing",
                }
            );
        }
    }
    let end = world.body(hero).ok_or("the character is gone")?.translation();
    println!(
        "{jumps} jumps; on the ground {:.0} % of the time; largest vertical speed running on the flat seams: {:.4} m/s",
        100.0 * on_ground_steps as Real / steps as Real,
        flat_vy
    );
    if end.x < 24.0 {
        return Err(format!("the character stopped at x = {:.2}, short of the icy slope", end.x));
    }
    if flat_vy > 0.01 {
        return Err(format!("the seams jolted the character: {flat_vy} m/s"));
    }
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    Ok(())
}
