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
use lamina::prelude::World;
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
/// dozen bundles each, so its solver is mostly stages opening and closing).
fn step_scenes_by_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("scenes_by_threads");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for scene in ALL.iter().filter(|s| matches!(s.name, "large_pyramid" | "tumbler")) {
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

criterion_group!(benches, step_scenes, step_scenes_by_threads);
criterion_main!(benches);
