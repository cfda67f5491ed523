//! A geometric character mover: a capsule moved by the game, not by the
//! solver, with the world's four mover calls each frame (collide, solve the
//! planes, cast, clip), walking and running, jumping, climbing steps on a
//! pogo spring, walking up a 30° slope but not up a 55° one, riding an
//! elevator and pushing a crate and a ball.
//!
//! `cargo run --release --example character_mover -- [--gif out.gif]`
//!
//! The character and its level are `scenes/character_mover.rs` (the
//! semantics of Box2D v3.1's geometric mover sample). A scripted player
//! drives it for 15.5 s; the example prints its state twice a second and
//! checks, against what the level's numbers give by hand, that:
//!
//! - it never sinks into the fixed level by more than two linear slops (the
//!   planes of `collide_mover` after each frame);
//! - at rest on flat ground it stands at its standing height, still to
//!   1e-4 m from frame to frame, and so it does pushed into a wall;
//! - on flat ground it moves at the walk and run speeds within 1 %;
//! - it climbs the two 0.25 m steps, the ledge (with a jump) and the 30°
//!   slope to the plateau; walked and jumped into the 55° slope, it never
//!   stands on it nor gets higher than the jump takes it, and slides back
//!   to the flat ground;
//! - riding the elevator it stands on it, its middle the standing height
//!   above the elevator's top within a centimetre, while the elevator moves;
//! - the crate and the ball it walks into move the way it walks.
//!
//! Any check that fails ends the run with exit status 2.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/character_mover.rs"]
mod scene;

use lamina2d::geometry::tolerance::LINEAR_SLOP;
use lamina2d::prelude::*;
use scene::{Character, DT, Level, STANDING_HEIGHT};
use std::process::ExitCode;

const SECONDS: Real = 15.5;
/// The script's stretches checked, s: at rest on flat ground, walking and
/// running right on flat ground (after the turn and the speed-up), and
/// pushed into the ledge's face.
const REST: (Real, Real) = (0.6, 1.0);
const WALK: (Real, Real) = (3.5, 4.6);
const RUN: (Real, Real) = (4.9, 5.6);
const CORNER: (Real, Real) = (6.7, 7.3);
/// The steep slope is tried until this time.
const STEEP_TRIED: Real = 3.2;
/// Frame-to-frame stillness, m; speed tolerance, a share.
const STILL: Real = 1.0e-4;
const SPEED_TOLERANCE: Real = 0.01;

fn main() -> ExitCode {
    match render::gif_option("character_mover", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("character_mover: {e}");
            ExitCode::from(2)
        }
    }
}

/// The deepest the character is in the fixed level, m (0 when clear).
fn depth_in_fixed(world: &World, character: &Character, planes: &mut Vec<CollisionPlane>) -> Real {
    let filter = QueryFilter::default().exclude_dynamic().exclude_kinematic();
    world.collide_mover(&character.capsule(), &filter, planes);
    planes.iter().map(|p| p.offset).fold(0.0, Real::max)
}

/// What the character is doing, in a word or two.
fn state(world: &World, level: &Level, c: &Character) -> &'static str {
    match c.ground {
        None => "in the air",
        Some(g) if g.body == level.elevator => "on the elevator",
        Some(g) if world.body(g.body).is_some_and(|b| b.kind() == BodyKind::Dynamic) => "on a body",
        Some(g) if g.normal.y < 0.999 => "on a slope",
        Some(_) => "on the ground",
    }
}

/// The lines drawn over the world in the GIF: the capsule and the probe.
fn overlay(c: &Character) -> Vec<render::Line> {
    let mut lines: Vec<render::Line> =
        c.outline().into_iter().map(|(a, b)| render::Line { a, b, color: (200, 30, 30) }).collect();
    lines.push(render::Line { a: c.probe.0, b: c.probe.1, color: (120, 60, 160) });
    lines
}

/// Measurements gathered over the run.
#[derive(Default)]
struct Record {
    deepest: Real,
    rest_motion: Real,
    corner_motion: Real,
    walk_speeds: (Real, Real),
    run_speeds: (Real, Real),
    farthest_on_steep: Real,
    stood_on_steep: usize,
    highest_at_steep: Real,
    back_on_flat: bool,
    on_plateau: bool,
    ride_frames: usize,
    ride_worst: Real,
    moving_frames: usize,
}

fn within(t: Real, (from, to): (Real, Real)) -> bool {
    t >= from && t < to
}

fn run(gif: Option<String>) -> Result<(), String> {
    let (mut world, level, mut character) = scene::build()?;
    let mut recorder = match gif {
        Some(path) => {
            let (min, max) = scene::view();
            let camera = render::Camera::framing(min, max, 640, 96);
            Some(render::GifRecorder::create(&path, camera, 4, DT)?)
        }
        None => None,
    };
    let crate_start = world.body(level.crate_box).ok_or("the crate is gone")?.translation();
    let ball_start = world.body(level.ball).ok_or("the ball is gone")?.translation();
    let mut planes = Vec::new();
    let mut r = Record {
        walk_speeds: (Real::MAX, Real::MIN),
        run_speeds: (Real::MAX, Real::MIN),
        ..Record::default()
    };
    let steps = (SECONDS / DT).round() as usize;
    for step in 0..steps {
        let t = step as Real * DT;
        let before = character.position;
        scene::frame(&mut world, &level, &mut character, t, scene::script(t))?;
        world.step(DT).map_err(|e| e.to_string())?;
        let p = character.position;
        let t_end = t + DT;

        r.deepest = r.deepest.max(depth_in_fixed(&world, &character, &mut planes));
        let moved = (p - before).norm();
        if within(t, REST) {
            r.rest_motion = r.rest_motion.max(moved);
        }
        if within(t, CORNER) {
            r.corner_motion = r.corner_motion.max(moved);
        }
        let speed = (p.x - before.x).abs() / DT;
        for (window, range) in [(WALK, &mut r.walk_speeds), (RUN, &mut r.run_speeds)] {
            if within(t, window) {
                *range = (range.0.min(speed), range.1.max(speed));
            }
        }
        if t < STEEP_TRIED {
            // The capsule's left side, past the slope's foot.
            let past = scene::STEEP_BASE_X - (p.x - scene::RADIUS);
            r.farthest_on_steep = r.farthest_on_steep.max(past);
            r.highest_at_steep = r.highest_at_steep.max(p.y - STANDING_HEIGHT);
            r.stood_on_steep += usize::from(character.ground.is_some_and(|g| g.normal.y < 0.999));
        }
        if (t_end - STEEP_TRIED).abs() < 0.5 * DT {
            r.back_on_flat =
                character.ground.is_some_and(|g| g.normal.y > 0.999) && (p.y - STANDING_HEIGHT).abs() < 0.01;
        }
        if p.x > scene::SLOPE_END_X
            && p.x < scene::SHAFT.0
            && character.on_ground
            && (p.y - scene::plateau_y() - STANDING_HEIGHT).abs() < 0.02
        {
            r.on_plateau = true;
        }
        let elevator = world.body(level.elevator).ok_or("the elevator is gone")?;
        if elevator.linear_velocity().y.abs() > 0.1 && p.x > scene::SHAFT.0 && p.x < scene::SHAFT.1 {
            r.moving_frames += 1;
            if character.ground.is_some_and(|g| g.body == level.elevator) {
                let top = elevator.translation().y + 0.1;
                let off = (p.y - top - STANDING_HEIGHT).abs();
                r.ride_worst = r.ride_worst.max(off);
                r.ride_frames += usize::from(off < 0.01);
            }
        }
        if let Some(rec) = recorder.as_mut() {
            rec.observe_with_lines(&world, &overlay(&character))?;
        }
        if step % 30 == 29 {
            println!(
                "t = {:4.1} s: at ({:6.2}, {:5.2}), v = ({:5.2}, {:5.2}) m/s, {}",
                t_end,
                p.x,
                p.y,
                character.velocity.x,
                character.velocity.y,
                state(&world, &level, &character)
            );
        }
    }

    let crate_end = world.body(level.crate_box).ok_or("the crate is gone")?.translation();
    let ball_end = world.body(level.ball).ok_or("the ball is gone")?.translation();
    println!(
        "deepest in the fixed level: {:.4} m (allowed {:.4} m = 2 linear slops)",
        r.deepest,
        2.0 * LINEAR_SLOP
    );
    println!(
        "largest move a frame at rest: {:.1e} m on flat ground, {:.1e} m pushed into the ledge's face",
        r.rest_motion, r.corner_motion
    );
    println!(
        "speed on flat ground: walking {:.3}–{:.3} m/s (wanted {}), running {:.3}–{:.3} m/s (wanted {})",
        r.walk_speeds.0,
        r.walk_speeds.1,
        scene::WALK_SPEED,
        r.run_speeds.0,
        r.run_speeds.1,
        scene::RUN_SPEED
    );
    println!(
        "55° slope: walked and jumped into, the capsule got {:.2} m past its foot (its top is {:.1} m past), \
         {:.2} m above its standing height (a jump is {:.2} m), stood on it {} frames, \
         back on the flat ground by t = {STEEP_TRIED} s: {}",
        r.farthest_on_steep,
        scene::steep_run(),
        r.highest_at_steep,
        scene::jump_height(),
        r.stood_on_steep,
        r.back_on_flat
    );
    println!(
        "up the two 0.25 m steps, the 0.9 m ledge and the 30° slope, standing on the plateau: {}",
        r.on_plateau
    );
    println!(
        "elevator: {} of {} frames while it moved at its top + {STANDING_HEIGHT} m within 1 cm (worst {:.4} m)",
        r.ride_frames, r.moving_frames, r.ride_worst
    );
    println!(
        "pushed: the crate {:+.2} m, the ball {:+.2} m along x",
        crate_end.x - crate_start.x,
        ball_end.x - ball_start.x
    );

    let mut failures = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failures.push(what);
        }
    };
    check(r.deepest <= 2.0 * LINEAR_SLOP, format!("it sank {:.4} m into the level", r.deepest));
    check(r.rest_motion <= STILL, format!("it jittered at rest: {:.2e} m a frame", r.rest_motion));
    check(
        r.corner_motion <= STILL,
        format!("it jittered against the wall: {:.2e} m a frame", r.corner_motion),
    );
    for (name, (low, high), wanted) in
        [("walk", r.walk_speeds, scene::WALK_SPEED), ("run", r.run_speeds, scene::RUN_SPEED)]
    {
        let off = (low - wanted).abs().max((high - wanted).abs());
        check(off <= SPEED_TOLERANCE * wanted, format!("its {name} speed was {low:.3}–{high:.3} m/s"));
    }
    // Up the steep slope only as high as the jump took it, never standing on it.
    check(
        r.highest_at_steep <= scene::jump_height(),
        format!("it got {:.2} m up at the 55° slope", r.highest_at_steep),
    );
    check(r.stood_on_steep == 0, format!("it stood on the 55° slope {} frames", r.stood_on_steep));
    check(r.back_on_flat, "it was not back on the flat ground after the 55° slope".to_string());
    check(r.on_plateau, "it never stood on the plateau".to_string());
    check(
        r.moving_frames > 0 && r.ride_frames == r.moving_frames,
        format!("it rode the elevator at its height in {} of {} frames", r.ride_frames, r.moving_frames),
    );
    check(crate_end.x - crate_start.x > 0.5, format!("the crate moved {:.2} m", crate_end.x - crate_start.x));
    check(ball_end.x - ball_start.x > 0.5, format!("the ball moved {:.2} m", ball_end.x - ball_start.x));
    if let Some(rec) = recorder {
        let (path, frames, bytes) = rec.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    if failures.is_empty() {
        println!("every check passed");
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}
