//! The `spinner` benchmark scene, checked for tunnelling: 6,076 capsules,
//! circles and squares stirred by a paddle spinning at 5 rad/s inside a loop
//! that holds them. Fast, turning bodies are swept against the loop by
//! continuous collision; this counts the bodies that end up outside it.
//!
//! ```text
//! cargo run --release --example spinner                 # continuous collision on
//! cargo run --release --example spinner -- --no-continuous
//! ```

#[path = "../benches/scenes/mod.rs"]
#[allow(dead_code)]
mod scenes;

use std::time::Instant;

use lamina2d::prelude::*;

/// The loop's centre and radius (see `benches/scenes/spinner.rs`).
const CENTER: (Real, Real) = (0.0, 32.0);
const RADIUS: Real = 40.0;

/// The bodies stirred: the dynamic bodies but the paddle, the one on a joint.
/// The world holds three more: the loop's fixed body, the paddle and its hub.
fn stirred(world: &World) -> impl Iterator<Item = &Body> {
    world.bodies().map(|(_, b)| b).filter(|b| b.kind() == BodyKind::Dynamic && b.joints().is_empty())
}

/// Stirred bodies whose centre lies outside the loop.
fn escaped(world: &World) -> usize {
    stirred(world)
        .filter(|b| {
            let c = b.center_of_mass();
            let (dx, dy) = (c.x - CENTER.0, c.y - CENTER.1);
            (dx * dx + dy * dy).sqrt() > RADIUS
        })
        .count()
}

fn main() -> Result<(), WorldError> {
    let continuous = !std::env::args().any(|a| a == "--no-continuous");
    let mut world = scenes::spinner::build();
    let mut settings = *world.settings();
    settings.enable_continuous = continuous;
    world.set_settings(settings)?;
    println!(
        "spinner: {} bodies stirred (the world holds {} with the loop's, the paddle and its hub), continuous collision {}",
        stirred(&world).count(),
        world.body_count(),
        if continuous { "on" } else { "off" }
    );
    let start = Instant::now();
    for step in 1..=scenes::spinner::STEPS {
        world.step(scenes::TIME_STEP)?;
        if step % 100 == 0 {
            println!("step {step:>3}: {} bodies outside the loop", escaped(&world));
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "{:.2} ms per step; {} of {} bodies escaped",
        1e3 * elapsed / scenes::spinner::STEPS as f64,
        escaped(&world),
        stirred(&world).count()
    );
    Ok(())
}
