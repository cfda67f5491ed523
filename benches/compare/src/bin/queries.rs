//! World ray casts: Lamina's `World::cast_ray` against Rapier2D's
//! `QueryPipeline::cast_ray_and_get_normal` and against brute force, in one
//! process, on the same scene and the same rays.
//!
//! ```text
//! cargo run --release --bin queries -- [--colliders N] [--rays N] [--runs K]
//! ```
//!
//! The scene: `--colliders` fixed colliders (default 10,000; circles, boxes
//! and capsules of 0.2 to 1 m, turned at random) scattered over a square that
//! holds them at about one per 4 m², built in both engines from the same
//! numbers. The rays: `--rays` closest-hit rays (default 10,000) from random
//! points in random directions, half of reach 30 m and half unbounded, cast
//! with the default filter. Each engine casts them all once per run, runs
//! alternating Lamina, Rapier, brute force; the table gives each one's
//! minimum and median nanoseconds per ray, and the answers are checked
//! against each other (same collider hit, same distance to 1e-3).

// `Real` is `f32` here, but the casts keep the program right under the `f64` feature too.
#![allow(clippy::unnecessary_cast)]

use std::time::Instant;

use lamina2d::prelude::*;
use rapier2d::prelude as r;

/// A small deterministic generator (xorshift), so both engines get the same scene.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// One collider of the scene: kind (0 circle, 1 box, 2 capsule), size, pose.
#[derive(Clone, Copy)]
struct Item {
    kind: u8,
    size: f32,
    x: f32,
    y: f32,
    angle: f32,
}

fn scene(count: usize) -> (Vec<Item>, f32) {
    let half = (count as f32 * 4.0).sqrt() / 2.0;
    let mut rng = Rng(0x5eed_1234_abcd_9876);
    let items = (0..count)
        .map(|i| Item {
            kind: (i % 3) as u8,
            size: rng.range(0.2, 1.0),
            x: rng.range(-half, half),
            y: rng.range(-half, half),
            angle: rng.range(-3.0, 3.0),
        })
        .collect();
    (items, half)
}

fn rays(count: usize, half: f32) -> Vec<(f32, f32, f32, f32, f32)> {
    let mut rng = Rng(0x0ddb_a11c_afe5_7a11);
    (0..count)
        .map(|i| {
            let a = rng.range(0.0, std::f32::consts::TAU);
            let reach = if i % 2 == 0 { 30.0 } else { f32::INFINITY };
            (rng.range(-half, half), rng.range(-half, half), a.cos(), a.sin(), reach)
        })
        .collect()
}

fn lamina_world(items: &[Item]) -> World {
    let mut world = World::new(WorldSettings::default());
    for it in items {
        let body =
            world.add_body(BodyDesc::fixed().translation(it.x as Real, it.y as Real).angle(it.angle as Real));
        let s = it.size as Real;
        let shape = match it.kind {
            0 => Shape::circle(s),
            1 => Shape::rectangle(s, 0.5 * s),
            _ => Shape::capsule(Point::new(-s, 0.0), Point::new(s, 0.0), 0.3 * s),
        };
        world.add_collider(body, ColliderDesc::new(shape)).expect("valid collider");
    }
    world.step(1.0 / 60.0).expect("valid step");
    world
}

fn rapier_world(items: &[Item]) -> r::PhysicsWorld {
    let mut world = r::PhysicsWorld::new();
    for it in items {
        let body = world.insert_body(
            r::RigidBodyBuilder::fixed().translation(r::Vector::new(it.x, it.y)).rotation(it.angle),
        );
        let s = it.size;
        let collider = match it.kind {
            0 => r::ColliderBuilder::ball(s),
            1 => r::ColliderBuilder::cuboid(s, 0.5 * s),
            _ => r::ColliderBuilder::capsule_x(s, 0.3 * s),
        };
        world.insert_collider(collider, Some(body));
    }
    world.step();
    world
}

fn minimum_and_median(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[0], v[v.len() / 2])
}

fn main() {
    let mut colliders = 10_000;
    let mut ray_count = 10_000;
    let mut runs = 5;
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse().ok());
        match (pair[0].as_str(), value) {
            ("--colliders", Some(v)) => colliders = v,
            ("--rays", Some(v)) => ray_count = v,
            ("--runs", Some(v)) => runs = v,
            _ => {
                eprintln!("usage: queries [--colliders N] [--rays N] [--runs K]");
                std::process::exit(2);
            }
        }
    }
    let (items, half) = scene(colliders);
    let rays = rays(ray_count, half);
    let lamina = lamina_world(&items);
    let rapier = rapier_world(&items);
    let filter = QueryFilter::default();

    let cast_lamina = |(x, y, dx, dy, reach): (f32, f32, f32, f32, f32)| {
        let ray = Ray::new(Point::new(x as Real, y as Real), Vec2::new(dx as Real, dy as Real));
        lamina.cast_ray(&ray, reach as Real, &filter).map(|h| h.toi as f32)
    };
    let pipeline = rapier.query_pipeline();
    let cast_rapier = |(x, y, dx, dy, reach): (f32, f32, f32, f32, f32)| {
        let ray = r::Ray::new(r::Vector::new(x, y), r::Vector::new(dx, dy));
        pipeline.cast_ray_and_get_normal(&ray, reach, true).map(|(_, hit)| hit.time_of_impact)
    };
    let cast_brute = |(x, y, dx, dy, reach): (f32, f32, f32, f32, f32)| {
        let ray = Ray::new(Point::new(x as Real, y as Real), Vec2::new(dx as Real, dy as Real));
        let mut best: Option<f32> = None;
        for (_, c) in lamina.colliders() {
            let pose = lamina.body(c.body()).expect("live body").position() * c.local_pose();
            let limit = best.map_or(reach as Real, |b| b as Real);
            if let Some(hit) = c.shape().cast_ray(&pose, &ray, limit) {
                best = Some(hit.toi as f32);
            }
        }
        best
    };

    // The answers agree before anything is timed.
    let (mut hits, mut disagree) = (0, 0);
    for &ray in &rays {
        let (a, b, c) = (cast_lamina(ray), cast_rapier(ray), cast_brute(ray));
        hits += usize::from(a.is_some());
        let same = |p: Option<f32>, q: Option<f32>| match (p, q) {
            (Some(p), Some(q)) => (p - q).abs() <= 1e-3 * (1.0 + p.abs()),
            (None, None) => true,
            _ => false,
        };
        if !same(a, b) || !same(a, c) {
            disagree += 1;
        }
    }
    println!(
        "{colliders} colliders over a {:.0} m square, {} rays ({hits} hit): {disagree} answers differ",
        2.0 * half,
        rays.len()
    );

    let mut times: [Vec<f64>; 3] = Default::default();
    let mut sink = 0.0f32;
    for _ in 0..runs {
        for (engine, time) in times.iter_mut().enumerate() {
            let start = Instant::now();
            for &ray in &rays {
                let toi = match engine {
                    0 => cast_lamina(ray),
                    1 => cast_rapier(ray),
                    _ => cast_brute(ray),
                };
                sink += toi.unwrap_or(0.0);
            }
            time.push(start.elapsed().as_secs_f64() * 1e9 / rays.len() as f64);
        }
    }
    let [lamina_ns, rapier_ns, brute_ns] = times.map(minimum_and_median);
    println!("{:<12} {:>10} {:>10}", "ns per ray", "min", "median");
    println!("{:<12} {:>10.0} {:>10.0}", "lamina", lamina_ns.0, lamina_ns.1);
    println!("{:<12} {:>10.0} {:>10.0}", "rapier2d", rapier_ns.0, rapier_ns.1);
    println!("{:<12} {:>10.0} {:>10.0}", "brute force", brute_ns.0, brute_ns.1);
    println!(
        "rapier / lamina {:.2} (above 1: Lamina is faster); lamina / brute force {:.4}",
        rapier_ns.0 / lamina_ns.0,
        lamina_ns.0 / brute_ns.0
    );
    if sink.is_nan() {
        println!("(unreachable)");
    }
}
