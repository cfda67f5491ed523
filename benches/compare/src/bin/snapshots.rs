//! World snapshots of Lamina and Rapier2D side by side: the 100-row pyramid of
//! `large_pyramid` built in both, stepped 100 times, then written to bytes
//! (Lamina's `World::snapshot`; Rapier's `PhysicsWorld` through serde and
//! bincode, as its users write it) and read back. Sizes, and the minimum time
//! of each over a few runs: Lamina on rayon pools of each thread count asked
//! for (default 1), Rapier on one thread. Lamina's bytes must be the same on
//! every pool.
//!
//! ```text
//! cargo run --release --bin snapshots [-- --threads 1,2]
//! ```

#[path = "../rapier_scenes.rs"]
mod rapier_scenes;
// Only the scene list and builders are used here, not every field.
#[allow(dead_code)]
#[path = "../../../scenes/mod.rs"]
mod scenes;

use std::time::{Duration, Instant};

use lamina2d::prelude::*;
use rapier2d::prelude::PhysicsWorld;
use scenes::{ALL, TIME_STEP};

/// The scene both engines write.
const SCENE: &str = "large_pyramid";
/// Steps before writing: the pyramid settled a little, its contacts warm.
const STEPS: usize = 100;
/// Runs of each write and read; the minimum is reported.
const RUNS: usize = 5;

/// The least time `f` takes over [`RUNS`] runs, and its last result. Each
/// earlier result is dropped, untimed, before the next run: one world (or
/// snapshot) is alive at a time, as in a loop that restores, steps ahead and
/// lets the restored world go. (Kept alive until the next result replaced
/// it, a result's memory could not be handed to the next run.)
fn timed<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..RUNS {
        drop(last.take());
        let start = Instant::now();
        let value = f();
        best = best.min(start.elapsed());
        last = Some(value);
    }
    (best, last.expect("at least one run"))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let usage = || -> ! {
        eprintln!("usage: snapshots [--threads 1,2]");
        std::process::exit(2)
    };
    let threads: Vec<usize> = match std::env::args().skip(1).collect::<Vec<_>>().as_slice() {
        [] => vec![1],
        [flag, list] if flag == "--threads" => {
            let counts: Option<Vec<usize>> =
                list.split(',').map(|t| t.trim().parse().ok().filter(|&n| n > 0)).collect();
            counts.unwrap_or_else(|| usage())
        }
        _ => usage(),
    };
    let scene = ALL.iter().find(|s| s.name == SCENE).expect("the scene exists");
    let mut lamina = (scene.build)();
    for step in 0..STEPS {
        scene.before_step(&mut lamina, step);
        lamina.step(TIME_STEP).expect("a positive step");
    }
    let mut rows = Vec::new();
    let mut first: Option<Vec<u8>> = None;
    for &n in &threads {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(n).build().expect("a pool");
        let (write, bytes) = pool.install(|| timed(|| lamina.snapshot()));
        let (read, restored) = pool.install(|| timed(|| World::restore(&bytes).expect("its own snapshot")));
        assert_eq!(restored.state_hash(), lamina.state_hash());
        assert!(first.as_ref().is_none_or(|f| *f == bytes), "the bytes differ on {n} threads");
        rows.push((n, bytes.len(), write, read));
        first.get_or_insert(bytes);
    }

    let mut rapier: PhysicsWorld = rapier_scenes::build(SCENE).expect("the scene exists");
    for _ in 0..STEPS {
        rapier.step();
    }
    let (rapier_write, rapier_bytes) = timed(|| bincode::serialize(&rapier).expect("Rapier's world encodes"));
    let (rapier_read, _) =
        timed(|| bincode::deserialize::<PhysicsWorld>(&rapier_bytes).expect("Rapier's world decodes"));

    println!("{SCENE} after {STEPS} steps, minimum of {RUNS} runs:");
    println!("| engine | threads | bytes | MiB | write ms | read ms |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mib = |n: usize| n as f64 / (1024.0 * 1024.0);
    for &(n, len, write, read) in &rows {
        println!("| Lamina | {n} | {len} | {:.2} | {:.2} | {:.2} |", mib(len), ms(write), ms(read));
    }
    println!(
        "| Rapier2D (bincode) | 1 | {} | {:.2} | {:.2} | {:.2} |",
        rapier_bytes.len(),
        mib(rapier_bytes.len()),
        ms(rapier_write),
        ms(rapier_read)
    );
    println!("Lamina / Rapier size: {:.2}", rows[0].1 as f64 / rapier_bytes.len() as f64);
}
