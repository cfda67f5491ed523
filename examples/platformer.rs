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

use lamina::prelude::*;
use std::process::ExitCode;

const DT: Real = 1.0 / 60.0;
const SECONDS: Real = 10.0;
/// The character's half-extents and running speed.
const HALF: (Real, Real) = (0.3, 0.45);
const RUN_SPEED: Real = 5.0;
const JUMP_SPEED: Real = 7.0;
/// How far below its feet ground still counts as under the character, m.
const GROUND_PROBE: Real = 0.08;

fn main() -> ExitCode {
    match render::gif_option("platformer", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("platformer: {e}");
            ExitCode::from(2)
        }
    }
}

/// The terrain's outline from left to right, in 1 m pieces; `None` is the gap.
fn outline() -> Vec<Option<Point>> {
    let mut points = Vec::new();
    let mut y: Real = 0.0;
    for x in -6..=24 {
        let x = x as Real;
        // Flat, a 20° climb, a plateau, a gap, a plateau, then the icy descent.
        if (4.0..9.0).contains(&x) {
            y += 0.36;
        }
        points.push(if x == 13.0 { None } else { Some(Point::new(x, y)) });
    }
    points
}

/// The chains: each run of points between gaps, listed right to left so that
/// the solid side of every segment faces up; the last stretch is the ice.
fn build_terrain(world: &mut World) -> Result<(), WorldError> {
    let ground = world.add_body(BodyDesc::fixed());
    let mut runs: Vec<Vec<Point>> = vec![Vec::new()];
    for p in outline() {
        match p {
            Some(p) => runs.last_mut().expect("a run").push(p),
            None => runs.push(Vec::new()),
        }
    }
    for run in &runs {
        let points: Vec<Point> = run.iter().rev().copied().collect();
        world.add_chain(ground, ChainDesc::new(&points).friction(0.8))?;
    }
    // The icy slope: down from the last plateau's end, friction 0.02.
    let end = runs.last().and_then(|r| r.last()).copied().unwrap_or(Point::new(24.0, 0.0));
    let ice: Vec<Point> =
        (0..=10).map(|i| Point::new(end.x + i as Real, end.y - 0.45 * i as Real)).rev().collect();
    world.add_chain(ground, ChainDesc::new(&ice).friction(0.02))?;
    // A flat run-out of ordinary ground, where the slide ends.
    let bottom = Point::new(end.x + 10.0, end.y - 4.5);
    let run_out: Vec<Point> = (0..=12).map(|i| bottom + Vec2::new(i as Real, 0.0)).rev().collect();
    world.add_chain(ground, ChainDesc::new(&run_out).friction(0.8))?;
    // A pit floor under the gap, for a jump that falls short.
    world.add_chain(ground, ChainDesc::new(&[Point::new(14.0, -3.0), Point::new(12.0, -3.0)]))?;
    Ok(())
}

/// What the scripted player does at time `t`: run (or let go), and jump.
fn input(t: Real) -> (bool, bool) {
    let run = t < 6.0;
    // A hop on the slope, then the jump over the gap.
    let jump = (1.2..1.3).contains(&t) || (3.05..3.15).contains(&t);
    (run, jump)
}

/// True when a ray cast down from the character's feet finds ground close by.
fn grounded(world: &World, body: BodyKey) -> Result<bool, String> {
    let b = world.body(body).ok_or("the character is gone")?;
    let feet = b.center_of_mass() - Vec2::new(0.0, HALF.1);
    let filter = QueryFilter::default().exclude_body(body);
    // Two rays, at the front and back edges, so that a slope under one corner counts.
    for dx in [-0.9 * HALF.0, 0.9 * HALF.0] {
        let ray = Ray::new(feet + Vec2::new(dx, 0.01), Vec2::new(0.0, -1.0));
        if world.cast_ray(&ray, GROUND_PROBE + 0.01, &filter).is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

fn run(gif: Option<String>) -> Result<(), String> {
    let mut world = World::new(WorldSettings::default());
    build_terrain(&mut world).map_err(|e| e.to_string())?;
    let hero = world
        .add_body(BodyDesc::dynamic().translation(-4.0, HALF.1 + 0.01).fixed_rotation(true).can_sleep(false));
    world
        .add_collider(hero, ColliderDesc::new(Shape::rectangle(HALF.0, HALF.1)).friction(0.5).density(2.0))
        .map_err(|e| e.to_string())?;
    let mut recorder = match gif {
        Some(path) => {
            let camera = render::Camera::framing(Point::new(-6.0, -4.0), Point::new(44.0, 5.0), 600, 130);
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
        let (running, jump) = input(t);
        let on_ground = grounded(&world, hero)?;
        on_ground_steps += usize::from(on_ground);
        let body = world.body_mut(hero).ok_or("the character is gone")?;
        let mut v = body.linear_velocity();
        if running && on_ground {
            // Run at a set speed along the ground; gravity keeps it on slopes.
            v.x = RUN_SPEED;
        }
        if jump && on_ground {
            v.y = JUMP_SPEED;
            jumps += 1;
        }
        body.set_linear_velocity(v).map_err(|e| e.to_string())?;
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
