//! A world at rest in Lamina and Rapier2D: what a step costs when almost
//! everything sleeps, the common case of a large game level.
//!
//! ```text
//! cargo run --release --bin resting
//! ```
//!
//! Both worlds: `many_pyramids` (20 × 20 pyramids of base 10, 22,000 squares
//! of half-extent 0.5 m on 20 segment grounds of one fixed body; Lamina's
//! `benches/scenes/many_pyramids.rs`, Rapier's `src/rapier_scenes.rs`) with
//! sleeping enabled, each engine's own sleep rules. Each
//! is stepped until every body sleeps; then timed:
//!
//! - **asleep**: 300 steps with nothing awake;
//! - **stirred**: 600 steps in which, every fifth step, the top square of the
//!   next pyramid (in build order) is woken, so that a few pyramids at a time
//!   wake, settle and fall asleep again, a few per cent of the bodies awake.
//!
//! One thread for both; Lamina and Rapier alternate, three runs each, and the
//! minimum per step is reported with the mean share of bodies awake.

// Only `many_pyramids` of the scenes, and its sleeping builder of Rapier's.
#[allow(dead_code)]
#[path = "../rapier_scenes.rs"]
mod rapier_scenes;
#[allow(dead_code)]
#[path = "../../../scenes/mod.rs"]
mod scenes;

use std::time::Instant;

use lamina2d::prelude::*;
use rapier2d::prelude as rp;

/// Squares per pyramid (base 10): each pyramid's top is the last of its run
/// in build order.
const PER_PYRAMID: usize = 55;
/// Seconds per step.
const DT: Real = 1.0 / 60.0;
/// Steps allowed for everything to fall asleep.
const SETTLE_LIMIT: usize = 3_000;
/// Timed steps of each measurement.
const ASLEEP_STEPS: usize = 300;
const STIRRED_STEPS: usize = 600;
/// A pyramid is woken every this many steps in the stirred measurement.
const STIR_EVERY: usize = 5;
/// Alternating runs per engine.
const RUNS: usize = 3;

/// A world that steps, wakes a pyramid's top and says how many bodies are awake.
trait Engine {
    fn step(&mut self);
    fn wake_top(&mut self, pyramid: usize);
    fn pyramids(&self) -> usize;
    fn awake(&self) -> usize;
}

struct Lamina {
    world: World,
    /// The squares in build order.
    bodies: Vec<BodyKey>,
}

impl Lamina {
    fn build() -> Self {
        let world = scenes::many_pyramids::build_sleeping();
        let bodies = world.bodies().filter(|(_, b)| b.kind() == BodyKind::Dynamic).map(|(k, _)| k).collect();
        Self { world, bodies }
    }
}

impl Engine for Lamina {
    fn step(&mut self) {
        self.world.step(DT).expect("a valid step");
    }
    fn wake_top(&mut self, pyramid: usize) {
        self.world.wake_body(self.bodies[(pyramid + 1) * PER_PYRAMID - 1]);
    }
    fn pyramids(&self) -> usize {
        self.bodies.len() / PER_PYRAMID
    }
    fn awake(&self) -> usize {
        self.bodies.iter().filter(|&&b| !self.world.body(b).is_some_and(|b| b.is_sleeping())).count()
    }
}

struct Rapier {
    world: rp::PhysicsWorld,
    /// The squares in build order.
    bodies: Vec<rp::RigidBodyHandle>,
}

impl Rapier {
    fn build() -> Self {
        let world = rapier_scenes::many_pyramids_sleeping();
        let bodies = world.bodies.iter().filter(|(_, b)| b.is_dynamic()).map(|(h, _)| h).collect();
        Self { world, bodies }
    }
}

impl Engine for Rapier {
    fn step(&mut self) {
        self.world.step();
    }
    fn wake_top(&mut self, pyramid: usize) {
        self.world.wake_up(self.bodies[(pyramid + 1) * PER_PYRAMID - 1], true);
    }
    fn pyramids(&self) -> usize {
        self.bodies.len() / PER_PYRAMID
    }
    fn awake(&self) -> usize {
        self.bodies.iter().filter(|&&h| !self.world.bodies[h].is_sleeping()).count()
    }
}

/// Steps until every body sleeps; the steps it took (`None` past the limit).
fn settle(engine: &mut impl Engine) -> Option<usize> {
    (1..=SETTLE_LIMIT).find(|_| {
        engine.step();
        engine.awake() == 0
    })
}

/// Milliseconds per step over `steps` steps, waking the next pyramid's top
/// every [`STIR_EVERY`] steps when `stir`, and the mean share of bodies awake.
fn timed(engine: &mut impl Engine, steps: usize, stir: bool) -> (f64, f64) {
    let mut elapsed = 0.0;
    let mut awake = 0;
    for step in 0..steps {
        let start = Instant::now();
        if stir && step % STIR_EVERY == 0 {
            engine.wake_top((step / STIR_EVERY) % engine.pyramids());
        }
        engine.step();
        elapsed += start.elapsed().as_secs_f64();
        awake += engine.awake();
    }
    (elapsed * 1e3 / steps as f64, awake as f64 / (steps * engine.pyramids() * PER_PYRAMID) as f64)
}

/// Builds, settles and times one engine: (settle steps, asleep ms, stirred
/// ms, stirred share awake).
fn run<E: Engine>(build: impl Fn() -> E) -> (Option<usize>, f64, f64, f64) {
    let mut engine = build();
    let settled = settle(&mut engine);
    let (asleep, _) = timed(&mut engine, ASLEEP_STEPS, false);
    let (stirred, share) = timed(&mut engine, STIRRED_STEPS, true);
    (settled, asleep, stirred, share)
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    let mut best = [(None, f64::INFINITY, f64::INFINITY, 0.0); 2];
    for round in 0..RUNS {
        for (e, name) in ["Lamina", "Rapier"].iter().enumerate() {
            eprint!("\rrun {} of {RUNS}: {name}  ", round + 1);
            let r = pool.install(|| if e == 0 { run(Lamina::build) } else { run(Rapier::build) });
            let b = &mut best[e];
            *b = (r.0, b.1.min(r.1), b.2.min(r.2), r.3);
        }
    }
    eprintln!();
    println!("| engine | steps to sleep | asleep, ms/step | stirred, ms/step | stirred, bodies awake |");
    println!("|---|---:|---:|---:|---:|");
    for (name, (settled, asleep, stirred, share)) in ["Lamina", "Rapier2D"].iter().zip(best) {
        let settled = settled.map_or(format!("over {SETTLE_LIMIT}"), |s| s.to_string());
        println!("| {name} | {settled} | {asleep:.4} | {stirred:.4} | {:.1} % |", 100.0 * share);
    }
    println!("\nRapier/Lamina: asleep {:.1}×, stirred {:.2}×", best[1].1 / best[0].1, best[1].2 / best[0].2);
}
