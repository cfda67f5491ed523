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
use scenes::{ALL, TIME_STEP};

/// Steps in one timed iteration.
const STEPS_PER_ITERATION: usize = 10;

fn step_scenes(c: &mut Criterion) {
    let mut group = c.benchmark_group("scenes");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for scene in &ALL {
        let mut world = (scene.build)();
        let mut step = 0;
        for _ in 0..scene.steps / 10 {
            scene.before_step(&mut world, step);
            let _ = world.step(TIME_STEP);
            step += 1;
        }
        group.bench_function(format!("{}/{STEPS_PER_ITERATION} steps", scene.name), |b| {
            b.iter(|| {
                for _ in 0..STEPS_PER_ITERATION {
                    scene.before_step(&mut world, step);
                    let _ = black_box(world.step(TIME_STEP));
                    step += 1;
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, step_scenes);
criterion_main!(benches);
