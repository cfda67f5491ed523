//! Lamina's main demo: a pyramid of unit boxes settles, then a heavy ball
//! smashes into it.
//!
//! `cargo run --release --example pyramid -- [--rows N] [--seconds S] [--gif out.gif]`
//!
//! A pyramid of `rows` rows (20 by default) of 1 m boxes stands on a wide ground
//! box for two seconds; then a ball of radius 1 m and twenty times the boxes'
//! density is fired at it at 30 m/s. Every simulated second the
//! example prints the awake bodies, the touching contacts, the step time and the
//! highest box; at the end, how far the pyramid sank while settling and how many
//! boxes the ball knocked out of place. With `--gif` it also writes an animation
//! of the run.

#[path = "support/render.rs"]
mod render;
#[path = "scenes/pyramid.rs"]
mod scene;

use lamina2d::prelude::*;
use scene::{BALL_HEIGHT, BALL_SPEED, DT, HALF, pyramid_poses};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// A box whose centre ends further than this from where it stood, m, was knocked out.
const KNOCKED: Real = 0.5;

struct Options {
    rows: usize,
    seconds: Real,
    gif: Option<String>,
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pyramid: {e}");
            ExitCode::from(2)
        }
    }
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options { rows: scene::DEFAULT_ROWS, seconds: 8.0, gif: None };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--rows" => {
                let v = value("--rows")?;
                options.rows = v.parse().map_err(|_| format!("--rows wants a whole number, got {v:?}"))?;
                if !(1..=100).contains(&options.rows) {
                    return Err(format!("--rows must be 1 to 100, got {}", options.rows));
                }
            }
            "--seconds" => {
                let v = value("--seconds")?;
                options.seconds = v.parse().map_err(|_| format!("--seconds wants a number, got {v:?}"))?;
                if !(options.seconds.is_finite() && options.seconds > 0.0 && options.seconds <= 600.0) {
                    return Err(format!("--seconds must be above 0 and at most 600, got {v}"));
                }
            }
            "--gif" => options.gif = Some(value("--gif")?),
            "-h" | "--help" => {
                println!("usage: pyramid [--rows N] [--seconds S] [--gif out.gif]");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(options)
}

fn run(options: Options) -> Result<(), String> {
    let rows = options.rows;
    let half_width = rows as Real * HALF;
    let (mut world, boxes) = scene::build(rows)?;
    println!("pyramid: {rows} rows, {} boxes of 1 m, on a fixed ground; step {:.4} s", boxes.len(), DT);

    let mut recorder = match &options.gif {
        Some(path) => {
            let (min, max) = scene::view(rows);
            Some(render::GifRecorder::create(path, render::Camera::framing(min, max, 480, 320), 3, DT)?)
        }
        None => None,
    };

    let total_steps = (options.seconds / DT).round() as usize;
    let steps_per_report = (1.0 / DT).round() as usize;
    let mut settled: Option<Vec<Point>> = None;
    let mut ball = None;
    let mut window = Duration::ZERO;
    let mut total = Duration::ZERO;
    let mut slowest = Duration::ZERO;
    let started = Instant::now();
    if let Some(r) = &mut recorder {
        r.observe(&world)?;
    }
    for step in 1..=total_steps {
        if step == scene::fire_step() {
            settled = Some(centres(&world, &boxes));
            let (key, collider) = fire_ball(&mut world, scene::ball_start(rows))?;
            if let Some(r) = &mut recorder {
                r.highlight(key);
            }
            ball = Some((key, collider, false));
        }
        world.step(DT).map_err(|e| format!("step {step}: {e}"))?;
        let t = step as Real * DT;
        let spent = world.profile().step;
        window += spent;
        total += spent;
        slowest = slowest.max(spent);
        if let Some(r) = &mut recorder {
            r.observe(&world)?;
        }
        if let Some((_, collider, hit)) = &mut ball {
            let touched = |e: &ContactEvent| matches!(*e, ContactEvent::Begin { a, b } if a == *collider || b == *collider);
            if !*hit && world.contact_events().iter().any(touched) {
                *hit = true;
                println!("t = {t:4.2} s  the ball hits the pyramid");
            }
        }
        if step % steps_per_report == 0 || step == total_steps {
            let in_window = (step - 1) % steps_per_report + 1;
            let p = world.profile();
            println!(
                "t = {t:4.1} s  awake {:4}  touching contacts {:4}  {:6.3} ms/step  highest box top {:6.2} m",
                p.awake_bodies,
                p.touching_contacts,
                window.as_secs_f64() * 1e3 / in_window as f64,
                highest_top(&world, &boxes)
            );
            window = Duration::ZERO;
        }
    }

    let now = centres(&world, &boxes);
    match &settled {
        Some(settled) => {
            let start = pyramid_poses(rows);
            let drift = start.iter().zip(settled).map(|(s, p)| (s.translation.vector - p.coords).norm());
            println!(
                "while settling no box moved more than {:.3} m; at the end {} of {} boxes are over {KNOCKED} m \
                 from where they stood and {} lie beyond the pyramid's base",
                drift.fold(0.0, Real::max),
                settled.iter().zip(&now).filter(|(a, b)| (*a - *b).norm() > KNOCKED).count(),
                boxes.len(),
                now.iter().filter(|p| p.x.abs() > half_width + HALF).count()
            );
        }
        None => println!("the run ended before the ball was fired"),
    }
    if let Some(b) = ball.and_then(|(k, _, _)| world.body(k)) {
        let (p, v) = (b.position().translation, b.linear_velocity());
        println!("the ball ends at ({:.1}, {:.1}) m moving at {:.1} m/s", p.x, p.y, v.norm());
    }
    println!(
        "{total_steps} steps ({:.1} s simulated): {:.3} s stepping, {:.3} ms/step on average, slowest {:.3} ms; \
         {:.2} s in all",
        total_steps as Real * DT,
        total.as_secs_f64(),
        total.as_secs_f64() * 1e3 / total_steps.max(1) as f64,
        slowest.as_secs_f64() * 1e3,
        started.elapsed().as_secs_f64()
    );
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    Ok(())
}

/// Fires the scene's ball from `x` and says so.
fn fire_ball(world: &mut World, x: Real) -> Result<(BodyKey, ColliderKey), String> {
    let (key, collider) = scene::fire_ball(world, x)?;
    let mass = world.body(key).map_or(0.0, |b| b.mass());
    println!("          a {mass:.0} kg ball is fired from ({x:.1}, {BALL_HEIGHT:.1}) m at {BALL_SPEED} m/s");
    Ok((key, collider))
}

fn centres(world: &World, bodies: &[BodyKey]) -> Vec<Point> {
    bodies.iter().filter_map(|&k| world.body(k)).map(|b| b.position() * Point::origin()).collect()
}

/// The top of the highest box, m.
fn highest_top(world: &World, bodies: &[BodyKey]) -> Real {
    bodies
        .iter()
        .filter_map(|&k| world.body(k))
        .flat_map(|b| b.colliders().iter().filter_map(|&c| world.collider(c)))
        .map(|c| c.aabb().maxs.y)
        .fold(Real::MIN, Real::max)
}
