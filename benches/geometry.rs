//! Geometry benches: the convex hull of a large cloud and polygon support queries.
//!
//! `cargo bench --bench geometry`

use criterion::{Criterion, criterion_group, criterion_main};
use lamina2d::prelude::*;
use std::hint::black_box;

/// A deterministic pseudo-random sequence in [0, 1) (xorshift), so benches need no RNG crate.
fn unit_noise(seed: &mut u64) -> Real {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (*seed >> 11) as Real / (1u64 << 53) as Real
}

fn random_cloud(n: usize) -> Vec<Point> {
    let mut seed = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|_| Point::new(unit_noise(&mut seed) * 100.0 - 50.0, unit_noise(&mut seed) * 100.0 - 50.0))
        .collect()
}

/// A regular polygon with `n` vertices, given in shuffled order.
fn regular_polygon(n: usize, radius: f64) -> Shape {
    let pts: Vec<Point> = (0..n)
        .map(|i| {
            let a = (i * 7919 % n) as f64 / n as f64 * std::f64::consts::TAU;
            Point::new((radius * a.cos()) as Real, (radius * a.sin()) as Real)
        })
        .collect();
    Shape::polygon(&pts).expect("a regular polygon spans an area")
}

fn hull(c: &mut Criterion) {
    let cloud = random_cloud(10_000);
    c.bench_function("hull/10k random points", |b| b.iter(|| convex_hull_len(black_box(&cloud))));
}

fn convex_hull_len(points: &[Point]) -> usize {
    lamina2d::geometry::convex_hull(points).map(|h| h.len()).unwrap_or(0)
}

fn support(c: &mut Criterion) {
    let mut group = c.benchmark_group("support");
    for n in [8usize, 1_000, 10_000] {
        let shape = regular_polygon(n, 10.0);
        // In f32 the hull merges vertices that are collinear to within round-off:
        // a regular 10,000-gon keeps far fewer. Name the bench by what was kept.
        let kept = match &shape {
            Shape::Polygon(p) => p.vertices().len(),
            _ => n,
        };
        let dirs: Vec<Vec2> = (0..64)
            .map(|i| {
                let a = i as f64 * 0.7;
                Vec2::new(a.cos() as Real, a.sin() as Real)
            })
            .collect();
        group.bench_function(format!("polygon of {n} points ({kept} vertices kept)"), |b| {
            let mut k = 0;
            b.iter(|| {
                k = (k + 1) & 63;
                shape.support_point(black_box(&dirs[k]))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, hull, support);
criterion_main!(benches);
