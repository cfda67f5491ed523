//! Narrow-phase benches: distance, penetration (EPA), contact manifolds and time
//! of impact on the shape pairs a simulation meets most.
//!
//! `cargo bench --bench narrowphase -- --warm-up-time 1 --measurement-time 2`
//!
//! Every pair puts A at the origin and B above it, turned a little, at a chosen
//! vertical gap: `overlapping` (4 cm deep, a resting contact after a step),
//! `near` (1 cm apart, inside the speculative margin) and `apart` (10 cm apart,
//! 1 m for the polygons of radius 100 m built from 10,000 points; in `f32` their
//! hull keeps 1,942 vertices, in `f64` all 10,000). The same pairs run in the
//! side-by-side comparison with parry2d (`benches/compare`).

use criterion::{Criterion, criterion_group, criterion_main};
use lamina2d::prelude::*;
use lamina2d::query::{self, Velocity};
use std::hint::black_box;

/// The manifold margin: the speculative distance the engine itself uses.
const MARGIN: Real = lamina2d::geometry::tolerance::SPECULATIVE_DISTANCE;

/// A regular polygon of `n` vertices on a circle of `radius`, half a step off +x (for even
/// `n`, an edge on top and one at the bottom).
fn regular_polygon(n: usize, radius: f64) -> Shape {
    let points: Vec<Point> = (0..n)
        .map(|i| {
            let angle = (i as f64 + 0.5) / n as f64 * std::f64::consts::TAU;
            Point::new((radius * angle.cos()) as Real, (radius * angle.sin()) as Real)
        })
        .collect();
    Shape::polygon(&points).expect("a regular polygon spans an area")
}

/// How far apart a pair is set.
#[derive(Clone, Copy, Debug)]
enum Gap {
    Overlapping,
    Near,
    Apart,
}

impl Gap {
    fn name(self) -> &'static str {
        match self {
            Gap::Overlapping => "overlapping",
            Gap::Near => "near",
            Gap::Apart => "apart",
        }
    }
}

/// Two shapes and how B sits on A: shifted sideways by `dx`, turned by `angle`.
struct PairSpec {
    name: &'static str,
    a: Shape,
    b: Shape,
    dx: Real,
    angle: Real,
    /// The `apart` gap, in metres.
    apart: Real,
}

impl PairSpec {
    /// A's pose (the origin) and B's pose, B's lowest point `gap` above A's highest.
    fn poses(&self, gap: Gap) -> (Isometry, Isometry) {
        let gap = match gap {
            Gap::Overlapping => -0.04,
            Gap::Near => 0.01,
            Gap::Apart => self.apart,
        };
        let top = self.a.support_point(&Vec2::y()).y;
        let turn = Rotation::new(self.angle);
        let bottom = (turn * self.b.support_point(&(turn.inverse() * -Vec2::y()))).y;
        (Isometry::identity(), Isometry::new(Vec2::new(self.dx, top - bottom + gap), self.angle))
    }
}

fn pairs() -> Vec<PairSpec> {
    let octagon = || regular_polygon(8, 0.5);
    let capsule = || Shape::capsule(Point::new(-0.5, 0.0), Point::new(0.5, 0.0), 0.25);
    vec![
        PairSpec {
            name: "box-box",
            a: Shape::rectangle(0.5, 0.5),
            b: Shape::rectangle(0.5, 0.5),
            dx: 0.2,
            angle: 0.05,
            apart: 0.1,
        },
        PairSpec { name: "polygon8-polygon8", a: octagon(), b: octagon(), dx: 0.1, angle: 0.3, apart: 0.1 },
        PairSpec {
            name: "circle-polygon8",
            a: Shape::circle(0.5),
            b: octagon(),
            dx: 0.1,
            angle: 0.3,
            apart: 0.1,
        },
        PairSpec { name: "capsule-capsule", a: capsule(), b: capsule(), dx: 0.2, angle: 0.4, apart: 0.1 },
        PairSpec {
            name: "ellipse-polygon8",
            a: Shape::ellipse(0.6, 0.3),
            b: octagon(),
            dx: 0.1,
            angle: 0.3,
            apart: 0.1,
        },
        PairSpec {
            name: "polygon10k-polygon10k",
            a: regular_polygon(10_000, 100.0),
            b: regular_polygon(10_000, 100.0),
            dx: 0.0,
            angle: (std::f64::consts::PI / 10_000.0) as Real,
            apart: 1.0,
        },
    ]
}

fn distance(c: &mut Criterion) {
    let mut group = c.benchmark_group("distance");
    for pair in pairs() {
        for gap in [Gap::Overlapping, Gap::Apart] {
            let (pa, pb) = pair.poses(gap);
            group.bench_function(format!("{}/{}", pair.name, gap.name()), |bench| {
                bench.iter(|| query::distance(black_box(&pair.a), black_box(&pa), black_box(&pair.b), &pb))
            });
        }
    }
    group.finish();
}

fn contact_manifold(c: &mut Criterion) {
    let mut group = c.benchmark_group("contact_manifold");
    for pair in pairs() {
        for gap in [Gap::Overlapping, Gap::Near] {
            let (pa, pb) = pair.poses(gap);
            group.bench_function(format!("{}/{}", pair.name, gap.name()), |bench| {
                bench.iter(|| {
                    query::contact_manifold(
                        black_box(&pair.a),
                        black_box(&pa),
                        black_box(&pair.b),
                        &pb,
                        MARGIN,
                    )
                })
            });
        }
    }
    group.finish();
}

fn penetration(c: &mut Criterion) {
    let mut group = c.benchmark_group("penetration");
    for pair in pairs() {
        let (pa, pb) = pair.poses(Gap::Overlapping);
        group.bench_function(format!("{}/{}", pair.name, Gap::Overlapping.name()), |bench| {
            bench.iter(|| query::penetration(black_box(&pair.a), black_box(&pa), black_box(&pair.b), &pb))
        });
    }
    group.finish();
}

fn time_of_impact(c: &mut Criterion) {
    // A 1 m box, 3 m above a 4 m × 0.5 m floor, falling at 10 m/s while spinning at 2 rad/s.
    let floor = Shape::rectangle(2.0, 0.25);
    let crate_box = Shape::rectangle(0.5, 0.5);
    let (p_floor, v_floor) = (Isometry::identity(), Velocity::default());
    let p_box = Isometry::new(Vec2::new(0.0, 3.0), 0.3);
    let v_box = Velocity::new(Vec2::new(0.5, -10.0), 2.0);
    c.bench_function("time_of_impact/box falling on box, spinning", |bench| {
        bench.iter(|| {
            query::time_of_impact(
                black_box(&floor),
                &p_floor,
                &v_floor,
                black_box(&crate_box),
                black_box(&p_box),
                &v_box,
                1.0,
            )
        })
    });
}

criterion_group! {
    name = benches;
    // No plots and fewer bootstrap resamples: the 31 benches then finish in about two minutes.
    config = Criterion::default().without_plots().nresamples(20_000);
    targets = distance, contact_manifold, penetration, time_of_impact
}
criterion_main!(benches);
