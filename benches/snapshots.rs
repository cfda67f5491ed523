//! Criterion bench of world snapshots (feature `serde`): the 100-row pyramid
//! of `large_pyramid` after 100 steps, written to bytes and read back, on
//! pools of one and of two threads (the snapshot's four parts are written
//! and read side by side). Dropping the bytes or the world read back is left
//! out of the time, as a game keeping its snapshots would. The comparison
//! with Rapier's snapshots is `benches/compare`'s `snapshots`.
//!
//! `cargo bench --features serde --bench snapshots`

#[path = "scenes/mod.rs"]
#[allow(dead_code)] // only the scene list and builders are used here
mod scenes;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use lamina2d::prelude::World;
use scenes::{ALL, TIME_STEP};

/// The pyramid after 100 steps, its contacts warm.
fn pyramid() -> World {
    let scene = ALL.iter().find(|s| s.name == "large_pyramid").expect("the scene exists");
    let mut world = (scene.build)();
    for step in 0..100 {
        scene.before_step(&mut world, step);
        world.step(TIME_STEP).expect("a valid step");
    }
    world
}

fn write_and_read(c: &mut Criterion) {
    let world = pyramid();
    let bytes = world.snapshot();
    let mut group = c.benchmark_group("snapshots");
    group.sample_size(20).sampling_mode(SamplingMode::Flat);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        group.bench_function(format!("large_pyramid/write/{threads} threads"), |b| {
            b.iter_with_large_drop(|| pool.install(|| world.snapshot()))
        });
        group.bench_function(format!("large_pyramid/read/{threads} threads"), |b| {
            b.iter_with_large_drop(|| pool.install(|| World::restore(&bytes).expect("its own snapshot")))
        });
    }
    group.finish();
}

criterion_group!(benches, write_and_read);
criterion_main!(benches);
