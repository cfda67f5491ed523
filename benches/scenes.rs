//! Criterion bench of the scenes in `benches/scenes/`: ten steps of each scene,
//! on the global rayon pool. Each scene is built and stepped through a tenth of
//! its benchmark run before timing starts, so that the timed steps see a scene
//! in motion rather than its first frame; the world keeps moving from one sample
//! to the next. The full per-scene numbers come from `examples/benchmark.rs`.
//!
//! `cargo bench --bench scenes`

#[path = "scenes/mod.rs"]
mod scenes;

use std::hint::black_box;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use lamina2d::prelude::{BodyKey, BodyKind, World};
use scenes::{ALL, Scene, TIME_STEP};

/// Steps in one timed iteration.
const STEPS_PER_ITERATION: usize = 10;

/// The scene built and stepped through a tenth of its benchmark run, with
/// the number of the next step.
fn warmed(scene: &Scene) -> (World, usize) {
    let mut world = (scene.build)();
    let mut step = 0;
    for _ in 0..scene.steps / 10 {
        scene.before_step(&mut world, step);
        let _ = world.step(TIME_STEP);
        step += 1;
    }
    (world, step)
}

/// One timed iteration: [`STEPS_PER_ITERATION`] steps from step `*step` on.
fn step_on(scene: &Scene, world: &mut World, step: &mut usize) {
    for _ in 0..STEPS_PER_ITERATION {
        scene.before_step(world, *step);
        let _ = black_box(world.step(TIME_STEP));
        *step += 1;
    }
}

fn step_scenes(c: &mut Criterion) {
    let mut group = c.benchmark_group("scenes");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for scene in &ALL {
        let (mut world, mut step) = warmed(scene);
        group.bench_function(format!("{}/{STEPS_PER_ITERATION} steps", scene.name), |b| {
            b.iter(|| step_on(scene, &mut world, &mut step))
        });
    }
    group.finish();
}

/// Scenes stepped on pools of one and of two threads: the step's parallel
/// parts, and the cost of handing work out (the tumbler's colours hold a few
/// dozen bundles each, so its solver is mostly stages opening and closing;
/// many_pyramids is large enough that the solver lists its bodies and
/// contacts on the pool).
fn step_scenes_by_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("scenes_by_threads");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    let by_threads = |name: &str| matches!(name, "large_pyramid" | "many_pyramids" | "tumbler");
    for scene in ALL.iter().filter(|s| by_threads(s.name)) {
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            let (mut world, mut step) = warmed(scene);
            group.bench_function(
                format!("{}/{threads} threads/{STEPS_PER_ITERATION} steps", scene.name),
                |b| b.iter(|| pool.install(|| step_on(scene, &mut world, &mut step))),
            );
        }
    }
    group.finish();
}

/// `many_pyramids` with sleeping enabled, stepped until every square sleeps
/// (the whole 22,000), with its squares' keys in build order.
fn resting_pyramids() -> (World, Vec<BodyKey>) {
    let mut world = scenes::many_pyramids::build_sleeping();
    let squares: Vec<BodyKey> =
        world.bodies().filter(|(_, b)| b.kind() == BodyKind::Dynamic).map(|(k, _)| k).collect();
    for _ in 0..3_000 {
        if squares.iter().all(|&k| world.body(k).is_some_and(|b| b.is_sleeping())) {
            break;
        }
        let _ = world.step(TIME_STEP);
    }
    (world, squares)
}

/// A world at rest, where a step should cost next to nothing: the pyramids
/// all asleep, and the same with one pyramid's top square woken every fifth
/// step (a few pyramids awake at a time, settling and falling asleep again).
fn step_resting(c: &mut Criterion) {
    let mut group = c.benchmark_group("resting");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    let (mut world, _) = resting_pyramids();
    group.bench_function(format!("asleep/{STEPS_PER_ITERATION} steps"), |b| {
        b.iter(|| {
            for _ in 0..STEPS_PER_ITERATION {
                let _ = black_box(world.step(TIME_STEP));
            }
        })
    });
    let (mut world, squares) = resting_pyramids();
    let tops: Vec<BodyKey> = squares.chunks(55).map(|pyramid| pyramid[pyramid.len() - 1]).collect();
    let mut step = 0;
    group.bench_function(format!("stirred/{STEPS_PER_ITERATION} steps"), |b| {
        b.iter(|| {
            for _ in 0..STEPS_PER_ITERATION {
                if step % 5 == 0 {
                    world.wake_body(tops[(step / 5) % tops.len()]);
                }
                let _ = black_box(world.step(TIME_STEP));
                step += 1;
            }
        })
    });
    group.finish();
}

/// Building each scene from nothing: the bodies, colliders and joints added
/// one by one, as a user's loader would. Rain's ground is one body of 2,505
/// colliders; adding them one by one must cost their number, not its square.
fn build_scenes(c: &mut Criterion) {
    let mut group = c.benchmark_group("build");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for scene in ALL.iter().filter(|s| matches!(s.name, "rain" | "large_pyramid")) {
        group.bench_function(scene.name, |b| b.iter(|| black_box((scene.build)())));
    }
    group.finish();
}

criterion_group!(benches, step_scenes, step_scenes_by_threads, step_resting, build_scenes);
criterion_main!(benches);
