//! One small world, the cart-pole, in Lamina and Rapier2D: what it costs to
//! build one, to step one, and (Lamina) to clone one, the fixed costs that
//! decide how fast thousands of small worlds run.
//!
//! ```text
//! cargo run --release --bin small_worlds
//! ```
//!
//! Both worlds: `benches/scenes/cartpole.rs` (Rapier's builder in
//! `src/rapier_scenes.rs`), the cart pushed by ±10 N alternating every 30
//! steps so that the pole swings and the rail's limits act, one thread.
//! Minimum over five runs of each measurement.

#[path = "../../../scenes/cartpole.rs"]
mod cartpole;
// Only the cart-pole of the Rapier builders is used here.
#[allow(dead_code)]
#[path = "../rapier_scenes.rs"]
mod rapier_scenes;

use std::hint::black_box;
use std::time::Instant;

use lamina2d::prelude::*;

/// Worlds built per timed run.
const BUILDS: usize = 2_000;
/// Steps per timed run.
const STEPS: usize = 20_000;
/// Timed runs of each measurement.
const RUNS: usize = 5;
/// Seconds per step.
const DT: Real = 1.0 / 60.0;

/// The least microseconds per item of `f` (which does `items` items) over [`RUNS`].
fn per_item(items: usize, mut f: impl FnMut()) -> f64 {
    (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e6 / items as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// The push on the cart at step `i`, newtons.
fn push(i: usize) -> Real {
    if (i / 30).is_multiple_of(2) { 10.0 } else { -10.0 }
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    pool.install(|| {
        let lamina_build = per_item(BUILDS, || {
            for _ in 0..BUILDS {
                black_box(cartpole::build());
            }
        });
        let lamina_step = per_item(STEPS, || {
            let (mut world, cart, _) = cartpole::build();
            for i in 0..STEPS {
                if let Some(b) = world.body_mut(cart) {
                    let _ = b.apply_force(Vec2::new(push(i), 0.0));
                }
                world.step(DT).expect("a positive step");
            }
            black_box(world.state_hash());
        });
        let (template, _, _) = cartpole::build();
        let lamina_clone = per_item(BUILDS, || {
            for _ in 0..BUILDS {
                black_box(template.clone());
            }
        });
        let rapier_build = per_item(BUILDS, || {
            for _ in 0..BUILDS {
                black_box(rapier_scenes::cartpole());
            }
        });
        let rapier_step = per_item(STEPS, || {
            let (mut world, cart) = rapier_scenes::cartpole();
            for i in 0..STEPS {
                let body = &mut world.bodies[cart];
                body.reset_forces(false);
                body.add_force(rapier2d::prelude::Vector::new(push(i), 0.0), true);
                world.step();
            }
            black_box(world.bodies[cart].translation());
        });
        println!("cart-pole, one thread, µs (minimum of {RUNS} runs):");
        println!("| engine | build | step | clone |");
        println!("|---|---:|---:|---:|");
        println!("| Lamina | {lamina_build:.2} | {lamina_step:.2} | {lamina_clone:.2} |");
        println!("| Rapier2D | {rapier_build:.2} | {rapier_step:.2} | — |");
        println!(
            "Rapier / Lamina: build {:.2}×, step {:.2}×",
            rapier_build / lamina_build,
            rapier_step / lamina_step
        );
    });
}
