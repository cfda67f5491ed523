//! A plank bridge under load.
//!
//! `cargo run --release --example bridge -- [--gif out.gif]`
//!
//! Forty planks 0.5 m long, hinged end to end by revolute joints and to a
//! fixed bank at each end 18 m apart (the planks span 20 m, so the bridge hangs
//! with some slack, as a rope bridge does), carry boxes and balls dropped onto
//! them. The example
//! prints the sag at mid-span, the largest joint force and where it acts, and
//! checks the two end hinges against the weight they hold up: at rest, their
//! upward forces add up to the weight of the bridge and its load.

#[path = "support/render.rs"]
mod render;

use lamina::prelude::*;
use std::process::ExitCode;

const DT: Real = 1.0 / 60.0;
const PLANKS: usize = 40;
/// Half the length and half the thickness of a plank, m.
const PLANK: (Real, Real) = (0.25, 0.0625);
const PLANK_DENSITY: Real = 20.0;
/// Load: boxes and balls dropped along the span.
const BOXES: usize = 8;
const BALLS: usize = 6;
const G: Real = 10.0;
/// The banks' distance as a share of the planks' length.
const SPAN_SHARE: Real = 0.9;
const SECONDS: Real = 15.0;
/// The end hinges' forces are averaged over this last stretch, s.
const AVERAGE_OVER: Real = 3.0;

fn main() -> ExitCode {
    match render::gif_option("bridge", std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bridge: {e}");
            ExitCode::from(2)
        }
    }
}

/// The angle an arc of length `length` subtends when its chord is `chord`:
/// the root of 2 sin(φ/2) / φ = chord / length, by bisection.
fn arc_angle(chord: Real, length: Real) -> Real {
    let (mut lo, mut hi) = (1e-6 as Real, 2.0 * std::f64::consts::PI as Real);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if 2.0 * (0.5 * mid).sin() / mid > chord / length { lo = mid } else { hi = mid }
    }
    0.5 * (lo + hi)
}

/// The bridge: the planks laid along a circular arc hanging between the banks
/// (close to the catenary it settles into), hinged to each other and, at the
/// ends, to a fixed bank. Returns the planks and the hinges, left to right.
fn build_bridge(world: &mut World) -> Result<(Vec<BodyKey>, Vec<JointKey>), String> {
    let length = PLANKS as Real * 2.0 * PLANK.0;
    let chord = SPAN_SHARE * length;
    let phi = arc_angle(chord, length);
    let radius = length / phi;
    // The arc's centre is above the middle; hinge k sits at angle θ_k below it.
    let centre_y = radius * (0.5 * phi).cos();
    let hinge_at = |k: usize| {
        let theta = -0.5 * phi + phi * k as Real / PLANKS as Real;
        Point::new(radius * theta.sin(), centre_y - radius * theta.cos())
    };
    let bank = world.add_body(BodyDesc::fixed());
    let mut previous = bank;
    let (mut planks, mut hinges) = (Vec::new(), Vec::new());
    for i in 0..PLANKS {
        let (p, q) = (hinge_at(i), hinge_at(i + 1));
        let mid = Point::from((p.coords + q.coords) * 0.5);
        let angle = (q.y - p.y).atan2(q.x - p.x);
        let plank = world.add_body(BodyDesc::dynamic().translation(mid.x, mid.y).angle(angle));
        let shape =
            ColliderDesc::new(Shape::rectangle(PLANK.0, PLANK.1)).density(PLANK_DENSITY).friction(0.6);
        world.add_collider(plank, shape).map_err(|e| e.to_string())?;
        hinges.push(world.add_joint(JointDesc::revolute(previous, plank, p)).map_err(|e| e.to_string())?);
        planks.push(plank);
        previous = plank;
    }
    let last = JointDesc::revolute(previous, bank, hinge_at(PLANKS));
    hinges.push(world.add_joint(last).map_err(|e| e.to_string())?);
    Ok((planks, hinges))
}

/// Boxes and balls spread along the span, dropped from 2 to 4 m.
fn drop_load(world: &mut World) -> Result<Vec<BodyKey>, String> {
    let span = SPAN_SHARE * PLANKS as Real * 2.0 * PLANK.0;
    let mut load = Vec::new();
    for i in 0..BOXES + BALLS {
        let x = -0.35 * span + 0.7 * span * i as Real / (BOXES + BALLS - 1) as Real;
        let y = 2.0 + (i % 3) as Real;
        let body = world.add_body(BodyDesc::dynamic().translation(x, y));
        let shape =
            if i % 2 == 0 && i / 2 < BOXES { Shape::rectangle(0.3, 0.3) } else { Shape::circle(0.25) };
        world
            .add_collider(body, ColliderDesc::new(shape).density(10.0).friction(0.6))
            .map_err(|e| e.to_string())?;
        load.push(body);
    }
    Ok(load)
}

fn run(gif: Option<String>) -> Result<(), String> {
    let mut world = World::new(WorldSettings::default());
    let (planks, hinges) = build_bridge(&mut world)?;
    let load = drop_load(&mut world)?;
    let weight: Real = planks.iter().chain(&load).filter_map(|&k| world.body(k)).map(|b| b.mass() * G).sum();
    println!(
        "bridge: {PLANKS} planks of {} m, {} hinges; load of {BOXES} boxes and {BALLS} balls; total weight {weight:.0} N",
        2.0 * PLANK.0,
        hinges.len()
    );
    let mut recorder = match &gif {
        Some(path) => {
            let half = PLANKS as Real * PLANK.0 + 1.0;
            let camera = render::Camera::framing(Point::new(-half, -3.5), Point::new(half, 4.5), 480, 270);
            Some(render::GifRecorder::create(path, camera, 3, DT)?)
        }
        None => None,
    };
    let (mut strongest, mut strongest_hinge) = (0.0 as Real, 0);
    let steps = (SECONDS / DT) as usize;
    let averaged = (AVERAGE_OVER / DT) as usize;
    let mut held_sum = Vec2::zeros();
    for step in 1..=steps {
        world.step(DT).map_err(|e| format!("step {step}: {e}"))?;
        if let Some(r) = &mut recorder {
            r.observe(&world)?;
        }
        for (i, &h) in hinges.iter().enumerate() {
            let force = world.joint(h).map_or(0.0, |j| j.constraint_force().norm());
            if force > strongest {
                (strongest, strongest_hinge) = (force, i);
            }
        }
        if step > steps - averaged {
            // The first hinge pulls the first plank (its B) up; the last pushes the bank (its B) down.
            let end = |k: usize| world.joint(hinges[k]).map_or(Vec2::zeros(), |j| j.constraint_force());
            held_sum += Vec2::new(end(0).y, -end(PLANKS).y);
        }
    }

    let mid = world.body(planks[PLANKS / 2]).ok_or("the middle plank is missing")?;
    let unloaded = radius_sag();
    println!("sag at mid-span: {:.3} m (laid out at {unloaded:.3} m)", -mid.position().translation.y);
    println!(
        "largest joint force: {strongest:.0} N, at hinge {strongest_hinge} of 0..={PLANKS} (0 and {PLANKS} are the banks)"
    );
    let (left, right) = (held_sum.x / averaged as Real, held_sum.y / averaged as Real);
    let held = left + right;
    // Only loads still on the bridge weigh on it.
    let on_bridge: Vec<&Body> =
        load.iter().filter_map(|&k| world.body(k)).filter(|b| b.position().translation.y > -10.0).collect();
    let resting = on_bridge.len();
    let weight = planks.iter().filter_map(|&k| world.body(k)).map(|b| b.mass() * G).sum::<Real>()
        + on_bridge.iter().map(|b| b.mass() * G).sum::<Real>();
    println!(
        "end hinges hold {held:.0} N up over the last {AVERAGE_OVER} s (left {left:.0} N, right {right:.0} N) against {weight:.0} N of weight: {:.2} % off; {resting} of {} loads on the bridge",
        100.0 * (held - weight).abs() / weight,
        load.len()
    );
    if let Some(r) = recorder {
        let (path, frames, bytes) = r.finish()?;
        println!("wrote {path}: {frames} frames, {:.0} KiB", bytes as f64 / 1024.0);
    }
    Ok(())
}

/// The sag of the arc the planks are laid along.
fn radius_sag() -> Real {
    let length = PLANKS as Real * 2.0 * PLANK.0;
    let phi = arc_angle(SPAN_SHARE * length, length);
    let radius = length / phi;
    radius * (1.0 - (0.5 * phi).cos())
}
