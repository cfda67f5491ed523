//! A world at rest in Lamina and Rapier2D: what a step costs when almost
//! everything sleeps, the common case of a large game level.
//!
//! ```text
//! cargo run --release --bin resting
//! ```
//!
//! Both worlds: `many_pyramids` (20 × 20 pyramids of base 10, 22,000 squares
//! of half-extent 0.5 m on 20 segment grounds of one fixed body, friction
//! 0.6, density 1) with sleeping enabled, each engine's own sleep rules. Each
//! is stepped until every body sleeps; then timed:
//!
//! - **asleep**: 300 steps with nothing awake;
//! - **stirred**: 600 steps in which, every fifth step, the top square of the
//!   next pyramid (in build order) is woken, so that a few pyramids at a time
//!   wake, settle and fall asleep again, a few per cent of the bodies awake.
//!
//! One thread for both; Lamina and Rapier alternate, three runs each, and the
//! minimum per step is reported with the mean share of bodies awake.

use std::time::Instant;

use lamina::prelude::*;
use rapier2d::prelude as rp;

/// Rows and columns of pyramids, squares on a pyramid's base, half-extent (m).
const GRID: usize = 20;
const BASE: usize = 10;
const HALF: Real = 0.5;
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

/// Where pyramid (r, c)'s squares go: the `many_pyramids` layout.
fn squares() -> Vec<(Real, Real)> {
    let spacing = 2.0 * HALF * (BASE as Real + 1.0);
    let width = 2.0 * HALF * GRID as Real * (BASE as Real + 1.0);
    let mut out = Vec::new();
    for r in 0..GRID {
        let base_y = r as Real * spacing;
        for c in 0..GRID {
            let x_offset = -0.5 * width + c as Real * (BASE as Real + 1.0) + 1.0 - 0.5;
            for i in 0..BASE {
                let y = (2 * i + 1) as Real * HALF + base_y;
                for j in i..BASE {
                    out.push(((i + 1) as Real * HALF + 2.0 * (j - i) as Real * HALF + x_offset, y));
                }
            }
        }
    }
    out
}

/// The index of each pyramid's top square among [`squares`].
fn tops() -> Vec<usize> {
    let per_pyramid = BASE * (BASE + 1) / 2;
    (0..GRID * GRID).map(|p| (p + 1) * per_pyramid - 1).collect()
}

/// The grounds: y = 11·k, x ∈ [−110, 110].
fn grounds() -> Vec<(Real, Real, Real)> {
    let spacing = 2.0 * HALF * (BASE as Real + 1.0);
    let width = 2.0 * HALF * GRID as Real * (BASE as Real + 1.0);
    (0..GRID).map(|k| (-0.5 * width, 0.5 * width, k as Real * spacing)).collect()
}

/// A world that steps, wakes a body and says how many bodies are awake.
trait Engine {
    fn step(&mut self);
    fn wake(&mut self, square: usize);
    fn awake(&self) -> usize;
}

struct Lamina {
    world: World,
    bodies: Vec<BodyKey>,
}

impl Lamina {
    fn build() -> Self {
        let mut world = World::new(WorldSettings::default());
        let ground = world.add_body(BodyDesc::fixed());
        for (x0, x1, y) in grounds() {
            let segment = Shape::segment(Point::new(x0, y), Point::new(x1, y));
            world.add_collider(ground, ColliderDesc::new(segment).friction(0.6)).expect("a ground");
        }
        let square = Shape::rectangle(HALF, HALF);
        let bodies = squares()
            .into_iter()
            .map(|(x, y)| {
                let b = world.add_body(BodyDesc::dynamic().translation(x, y));
                world.add_collider(b, ColliderDesc::new(square.clone()).friction(0.6)).expect("a square");
                b
            })
            .collect();
        Self { world, bodies }
    }
}

impl Engine for Lamina {
    fn step(&mut self) {
        self.world.step(DT).expect("a valid step");
    }
    fn wake(&mut self, square: usize) {
        self.world.wake_body(self.bodies[square]);
    }
    fn awake(&self) -> usize {
        self.bodies.iter().filter(|&&b| !self.world.body(b).is_some_and(|b| b.is_sleeping())).count()
    }
}

struct Rapier {
    world: rp::PhysicsWorld,
    bodies: Vec<rp::RigidBodyHandle>,
}

impl Rapier {
    fn build() -> Self {
        let mut world = rp::PhysicsWorld::new();
        world.gravity = rp::Vector::new(0.0, -10.0);
        world.integration_parameters.dt = DT;
        world.integration_parameters.num_solver_iterations = 4;
        let material = |c: rp::ColliderBuilder| {
            c.density(1.0).friction(0.6).friction_combine_rule(rp::CoefficientCombineRule::GeometricMean)
        };
        let ground = world.insert_body(rp::RigidBodyBuilder::fixed());
        for (x0, x1, y) in grounds() {
            let segment = rp::ColliderBuilder::segment(rp::Vector::new(x0, y), rp::Vector::new(x1, y));
            world.insert_collider(material(segment), Some(ground));
        }
        let bodies = squares()
            .into_iter()
            .map(|(x, y)| {
                let body = rp::RigidBodyBuilder::dynamic().translation(rp::Vector::new(x, y));
                world.insert(body, material(rp::ColliderBuilder::cuboid(HALF, HALF))).0
            })
            .collect();
        Self { world, bodies }
    }
}

impl Engine for Rapier {
    fn step(&mut self) {
        self.world.step();
    }
    fn wake(&mut self, square: usize) {
        self.world.wake_up(self.bodies[square], true);
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
    let tops = tops();
    let mut elapsed = 0.0;
    let mut awake = 0;
    for step in 0..steps {
        let start = Instant::now();
        if stir && step % STIR_EVERY == 0 {
            engine.wake(tops[(step / STIR_EVERY) % tops.len()]);
        }
        engine.step();
        elapsed += start.elapsed().as_secs_f64();
        awake += engine.awake();
    }
    (elapsed * 1e3 / steps as f64, awake as f64 / (steps * squares().len()) as f64)
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
