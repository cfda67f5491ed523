//! A lidar sweeping a room of shapes, with world ray casts.
//!
//! `cargo run --release --example raycast -- [--gif out.gif]`
//!
//! The room is a closed chain (listed clockwise, so its walls face in) with
//! fixed pillars of every shape; balls and boxes bounce around it. A lidar in
//! the middle casts 180 beams every step with `World::cast_ray`, skipping its
//! own body through a `QueryFilter`, and keeps the nearest return. Every half
//! second the example prints the scan's nearest and farthest returns and how
//! many beams hit a moving body; with `--gif` it draws the room with every
//! beam, red up to where it hit.
//!
//! It also checks itself: every beam's answer is the nearest hit of a
//! brute-force cast over all colliders, and `cast_ray_all` lists the same
//! collider first.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/raycast.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{BEAMS, DT, RANGE};
use std::process::ExitCode;

const SECONDS: Real = 4.0;

fn main() -> ExitCode {
    match render::gif_option("raycast", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("raycast: {e}");
            ExitCode::from(2)
        }
    }
}

/// One sweep: for each beam, where it ends and whether it hit a moving body.
fn sweep(
    world: &World,
    lidar: BodyKey,
    all: &mut Vec<WorldRayHit>,
) -> Result<Vec<(Point, Option<WorldRayHit>)>, String> {
    let filter = scene::beam_filter(lidar);
    let mut beams = Vec::with_capacity(BEAMS);
    for ray in scene::beams(world, lidar)? {
        let hit = world.try_cast_ray(&ray, RANGE, &filter).map_err(|e| e.to_string())?;
        check(world, &ray, &filter, hit, all)?;
        beams.push((ray.origin, hit));
    }
    Ok(beams)
}

/// The beam's answer is the nearest hit of every collider cast one by one,
/// and the first of `cast_ray_all`'s list.
fn check(
    world: &World,
    ray: &Ray,
    filter: &QueryFilter,
    hit: Option<WorldRayHit>,
    all: &mut Vec<WorldRayHit>,
) -> Result<(), String> {
    let brute = world
        .colliders()
        .filter(|(_, c)| !filter_excludes(world, c))
        .filter_map(|(_, c)| {
            let pose = world.body(c.body())?.position() * c.local_pose();
            c.shape().cast_ray(&pose, ray, RANGE).map(|h| h.toi)
        })
        .fold(None, |best: Option<Real>, t| Some(best.map_or(t, |b| b.min(t))));
    if hit.map(|h| h.toi) != brute {
        return Err(format!("beam {ray:?}: the world says {hit:?}, brute force {brute:?}"));
    }
    world.cast_ray_all(ray, RANGE, filter, all);
    if all.first().map(|h| h.collider) != hit.map(|h| h.collider) {
        return Err(format!(
            "beam {ray:?}: cast_ray_all lists {:?} first, cast_ray says {hit:?}",
            all.first()
        ));
    }
    Ok(())
}

/// The example's filter skips only the lidar, a kinematic body.
fn filter_excludes(world: &World, c: &Collider) -> bool {
    world.body(c.body()).is_some_and(|b| b.kind() == BodyKind::Kinematic)
}

fn run(gif: Option<String>) -> Result<(), String> {
    let (mut world, lidar) = scene::build()?;
    let mut recorder = match gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 560, 350);
            Some(render::GifRecorder::create(&path, camera, 4, DT)?)
        }
        None => None,
    };
    let mut all = Vec::new();
    let steps = (SECONDS / DT).round() as usize;
    for step in 0..steps {
        world.step(DT).map_err(|e| e.to_string())?;
        let beams = sweep(&world, lidar, &mut all)?;
        if let Some(r) = recorder.as_mut() {
            // Every other beam, so that the picture stays readable.
            let lines: Vec<render::Line> = beams
                .iter()
                .step_by(2)
                .filter_map(|(origin, hit)| {
                    hit.map(|h| render::Line { a: *origin, b: h.point, color: (214, 69, 69) })
                })
                .collect();
            r.observe_with_lines(&world, &lines)?;
        }
        if step % 30 == 29 {
            let distances: Vec<Real> = beams.iter().filter_map(|(_, h)| h.map(|h| h.toi)).collect();
            let moving = beams
                .iter()
                .filter_map(|(_, h)| *h)
                .filter(|h| {
                    world
                        .collider(h.collider)
                        .and_then(|c| world.body(c.body()))
                        .is_some_and(|b| b.kind() == BodyKind::Dynamic)
                })
                .count();
            let nearest = distances.iter().copied().fold(Real::MAX, Real::min);
            let farthest = distances.iter().copied().fold(0.0, Real::max);
            println!(
                "t = {:.1} s: {} of {BEAMS} beams returned, nearest {nearest:.2} m, farthest {farthest:.2} m, {moving} on moving bodies",
                (step + 1) as Real * DT,
                distances.len()
            );
        }
    }
    println!("every beam agreed with a brute-force cast over all {} colliders", world.colliders().count());
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    Ok(())
}
