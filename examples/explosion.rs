//! An explosion between two towers of crates, checked against the impulses
//! worked by hand, then left to fly and fall.
//!
//! `cargo run --release --example explosion -- [--gif out.gif]`
//!
//! `World::explode` (Box2D v3.1's `b2World_Explode`) gives every dynamic
//! collider within `radius + falloff` of the blast an impulse away from it,
//! at its nearest point: `impulse_per_length` times the width the collider
//! shows the blast (its projected perimeter across the blast's direction),
//! in full within `radius` and falling linearly to nothing across the
//! falloff band. Here a blast of radius 4 m, falloff 2 m and 6 N·s/m goes
//! off at the foot of the space between two towers of 1 kg, 1 m crates:
//!
//! - each tower's bottom crate, face on 2.5 m away, leaves at 6·1/1 = 6 m/s;
//! - the two towers fly apart as mirror images;
//! - a crate whose near face is 5 m away, halfway across the band, leaves at
//!   half that, 3 m/s, and one 7.5 m away is not touched.
//!
//! The example fails if any of them is off.

#[path = "support/render.rs"]
mod render;

use lamina2d::prelude::*;
use std::process::ExitCode;

const DT: Real = 1.0 / 60.0;
const BLAST: (Real, Real) = (0.0, 0.5);
const RADIUS: Real = 4.0;
const FALLOFF: Real = 2.0;
const IMPULSE_PER_LENGTH: Real = 6.0;

fn main() -> ExitCode {
    match render::gif_option("explosion", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("explosion: {e}");
            ExitCode::from(2)
        }
    }
}

/// A 1 m crate of 1 kg at `(x, y)`.
fn crate_at(world: &mut World, x: Real, y: Real) -> Result<BodyKey, String> {
    let b = world.add_body(BodyDesc::dynamic().translation(x, y));
    world
        .add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5)).friction(0.6))
        .map_err(|e| e.to_string())?;
    Ok(b)
}

fn run(gif: Option<String>) -> Result<(), String> {
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed().translation(0.0, -0.5));
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(30.0, 0.5))).map_err(|e| e.to_string())?;
    // Two towers of four crates, 3 m either side of the blast; a crate in
    // the falloff band and one beyond it, on the right.
    let mut towers = [Vec::new(), Vec::new()];
    for (side, tower) in towers.iter_mut().enumerate() {
        let x = if side == 0 { -3.0 } else { 3.0 };
        for level in 0..4 {
            tower.push(crate_at(&mut world, x, 0.5 + level as Real)?);
        }
    }
    let in_band = crate_at(&mut world, 5.5, 0.5)?;
    let beyond = crate_at(&mut world, 8.0, 0.5)?;
    let mut recorder = match gif {
        Some(path) => {
            let camera = render::Camera::framing(Point::new(-14.0, -0.5), Point::new(14.0, 10.0), 480, 180);
            Some(render::GifRecorder::create(&path, camera, 2, DT)?)
        }
        None => None,
    };
    // A second to settle, the blast, three seconds of flight.
    let mut failures = Vec::new();
    for step in 0..240 {
        if step == 60 {
            let blast = ExplosionDesc::new(Point::new(BLAST.0, BLAST.1), RADIUS)
                .falloff(FALLOFF)
                .impulse_per_length(IMPULSE_PER_LENGTH);
            world.explode(&blast).map_err(|e| e.to_string())?;
            let v = |b: BodyKey| world.body(b).map(|b| b.linear_velocity()).ok_or("a crate is gone");
            let mut check = |what: &str, got: Real, expected: Real| {
                let ok = (got - expected).abs() <= 0.01 * expected.abs().max(1.0);
                println!("{what}: {got:.4} m/s (by hand {expected:.4})");
                if !ok {
                    failures.push(format!("{what} is {got:.4} m/s, by hand {expected:.4}"));
                }
            };
            check("the right tower's bottom crate", v(towers[1][0])?.x, IMPULSE_PER_LENGTH);
            check("the left tower's bottom crate", v(towers[0][0])?.x, -IMPULSE_PER_LENGTH);
            check("the crate halfway across the falloff band", v(in_band)?.x, 0.5 * IMPULSE_PER_LENGTH);
            check("the crate beyond the blast's reach", v(beyond)?.norm(), 0.0);
            for (level, (&l, &r)) in towers[0].iter().zip(&towers[1]).enumerate() {
                let (vl, vr) = (v(l)?, v(r)?);
                let mirrored = (vl.x + vr.x).abs() < 1.0e-4 && (vl.y - vr.y).abs() < 1.0e-4;
                if !mirrored {
                    failures.push(format!("level {level}: the towers' crates leave at {vl:?} and {vr:?}"));
                }
            }
            println!("the towers' crates leave as mirror images: {}", failures.is_empty());
        }
        world.step(DT).map_err(|e| e.to_string())?;
        if let Some(r) = recorder.as_mut() {
            r.observe(&world)?;
        }
    }
    let landed =
        world.bodies().filter(|(_, b)| b.kind() == BodyKind::Dynamic && b.translation().y < 0.6).count();
    println!("three seconds after the blast, {landed} of 10 crates lie on the ground");
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("; ")) }
}
