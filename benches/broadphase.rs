//! Broad-phase benches (and, at the end, the world's ray casts through it): one simulation step (move a fraction of the proxies, then
//! report the pair events) of the incremental sweep-and-prune, against a full
//! re-sort-and-sweep of every proxy and, where it finishes in reasonable time,
//! the O(n²) loop. All three produce the same events from the same boxes.
//!
//! `cargo bench --bench broadphase -- --warm-up-time 1 --measurement-time 2`
//!
//! Layouts: `uniform` scatters boxes of 0.5 m to 1.5 m over a square (about 0.16
//! boxes per m²); `column` packs them into a column 4 m wide (one box per m²), so
//! that every proxy overlaps every other on the x axis; `pile` sets boxes of
//! 0.95 m on a square grid of 1 m, so that each fat box overlaps its eight
//! neighbours' (a settled pile of boxes of one size). Each step, the moving
//! proxies shift by 0.15 m (more than the 0.1 m margin, so every one of them
//! really moves), alternately forwards and back.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use lamina2d::broadphase::{PairEvent, ProxyHint, SweepAndPrune};
use lamina2d::prelude::*;
use std::hint::black_box;

/// The broad phase's default margin, used by the baselines too.
const MARGIN: Real = lamina2d::geometry::tolerance::AABB_MARGIN;

/// A deterministic pseudo-random sequence in [0, 1) (xorshift), so benches need no RNG crate.
fn unit_noise(seed: &mut u64) -> Real {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    ((*seed >> 11) as f64 / (1u64 << 53) as f64) as Real
}

#[derive(Clone, Copy, Debug)]
enum Layout {
    Uniform,
    Column,
    Pile,
}

impl Layout {
    fn name(self) -> &'static str {
        match self {
            Layout::Uniform => "uniform",
            Layout::Column => "column",
            Layout::Pile => "pile",
        }
    }
}

/// A scene: tight boxes, and the order in which proxies are picked to move.
struct Scene {
    tight: Vec<Aabb>,
    movers: Vec<u32>,
}

fn scene(layout: Layout, n: usize, moving_percent: usize) -> Scene {
    let mut seed = 0x2545_f491_4f6c_dd1d ^ n as u64;
    let (width, height) = match layout {
        Layout::Uniform => {
            let side = (n as f64).sqrt() as Real * 2.5;
            (side, side)
        }
        Layout::Column => (4.0, n as Real / 4.0),
        Layout::Pile => ((n as f64).sqrt().ceil() as Real, 0.0),
    };
    // The pile's proxies take its places in a shuffled order, as bodies that
    // fell into a heap would: neither their ids nor the order of their
    // partners follow the grid.
    let mut places: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (unit_noise(&mut seed) * (i + 1) as Real) as usize % (i + 1);
        places.swap(i, j);
    }
    let tight = (0..n)
        .map(|i| {
            if let Layout::Pile = layout {
                let (columns, place) = (width as usize, places[i]);
                let (x, y) = ((place % columns) as Real, (place / columns) as Real);
                return Aabb::new(Point::new(x, y), Point::new(x + 0.95, y + 0.95));
            }
            let (x, y) = (unit_noise(&mut seed) * width, unit_noise(&mut seed) * height);
            let (w, h) = (0.5 + unit_noise(&mut seed), 0.5 + unit_noise(&mut seed));
            Aabb::new(Point::new(x, y), Point::new(x + w, y + h))
        })
        .collect();
    // A fixed pseudo-random subset moves: spread over the world, like awake bodies.
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        let j = (unit_noise(&mut seed) * (i + 1) as Real) as usize % (i + 1);
        order.swap(i, j);
    }
    order.truncate((n * moving_percent / 100).max(1));
    Scene { tight, movers: order }
}

/// Moves the movers by ±0.15 m (the sign alternates with `step`).
fn shift(scene: &mut Scene, step: u64) {
    let d = if step.is_multiple_of(2) { 0.15 } else { -0.15 };
    let delta = Vec2::new(d, d * 0.5);
    for &m in &scene.movers {
        let b = &mut scene.tight[m as usize];
        *b = Aabb::new(b.mins + delta, b.maxs + delta);
    }
}

/// A broad phase holding the scene's boxes, its first pairs found.
fn filled(scene: &Scene, events: &mut Vec<PairEvent<u32>>) -> SweepAndPrune<u32> {
    let mut sap = SweepAndPrune::<u32>::new();
    for (k, b) in scene.tight.iter().enumerate() {
        sap.insert(k as u32, *b).expect("finite boxes");
    }
    sap.update_pairs(events);
    sap
}

/// The baseline: every step, recompute every fat box, sort all proxies from
/// scratch along the axis of greater spread, sweep, and diff the sorted pair list
/// with the previous one. Its cost does not depend on how many proxies moved.
struct FullResort {
    fat: Vec<Aabb>,
    order: Vec<(Real, u32)>,
    pairs: Vec<(u32, u32)>,
    previous: Vec<(u32, u32)>,
}

impl FullResort {
    fn new(tight: &[Aabb]) -> Self {
        let mut s = Self { fat: Vec::new(), order: Vec::new(), pairs: Vec::new(), previous: Vec::new() };
        let mut events = Vec::new();
        s.step(tight, &mut events);
        s
    }

    fn step(&mut self, tight: &[Aabb], events: &mut Vec<PairEvent<u32>>) {
        self.fat.clear();
        self.fat.extend(tight.iter().map(|b| b.loosened(MARGIN)));
        let spread = |k: usize| {
            let (lo, hi) = self.fat.iter().fold((Real::MAX, Real::MIN), |(lo, hi), b| {
                let c = (b.mins[k] + b.maxs[k]) * 0.5;
                (lo.min(c), hi.max(c))
            });
            hi - lo
        };
        let axis = if spread(1) > spread(0) { 1 } else { 0 };
        self.order.clear();
        self.order.extend(self.fat.iter().enumerate().map(|(i, b)| (b.mins[axis], i as u32)));
        self.order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        std::mem::swap(&mut self.pairs, &mut self.previous);
        self.pairs.clear();
        for (i, &(_, a)) in self.order.iter().enumerate() {
            let fa = &self.fat[a as usize];
            for &(lo, b) in &self.order[i + 1..] {
                if lo > fa.maxs[axis] {
                    break;
                }
                if fa.intersects(&self.fat[b as usize]) {
                    self.pairs.push((a.min(b), a.max(b)));
                }
            }
        }
        self.pairs.sort_unstable();
        diff(&self.previous, &self.pairs, events);
    }
}

/// The O(n²) loop over every pair of fat boxes, then the same diff.
struct BruteForce {
    pairs: Vec<(u32, u32)>,
    previous: Vec<(u32, u32)>,
}

impl BruteForce {
    fn step(&mut self, tight: &[Aabb], events: &mut Vec<PairEvent<u32>>) {
        std::mem::swap(&mut self.pairs, &mut self.previous);
        self.pairs.clear();
        for (i, a) in tight.iter().enumerate() {
            let fa = a.loosened(MARGIN);
            for (j, b) in tight.iter().enumerate().skip(i + 1) {
                if fa.intersects(&b.loosened(MARGIN)) {
                    self.pairs.push((i as u32, j as u32));
                }
            }
        }
        diff(&self.previous, &self.pairs, events);
    }
}

/// Events between two sorted pair lists, by a merge.
fn diff(old: &[(u32, u32)], new: &[(u32, u32)], events: &mut Vec<PairEvent<u32>>) {
    events.clear();
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                events.push(PairEvent::End(a.0, a.1));
                i += 1;
            }
            (Some(a), None) => {
                events.push(PairEvent::End(a.0, a.1));
                i += 1;
            }
            (_, Some(b)) => {
                events.push(PairEvent::Begin(b.0, b.1));
                j += 1;
            }
            (None, None) => break,
        }
    }
}

fn broad_phase(c: &mut Criterion) {
    for layout in [Layout::Uniform, Layout::Column, Layout::Pile] {
        for n in [1_000usize, 10_000, 100_000] {
            let mut group = c.benchmark_group(format!("broadphase/{}/{}k", layout.name(), n / 1000));
            if n >= 100_000 {
                group.sample_size(10);
            }
            for percent in [1usize, 10, 100] {
                let id = |what: &str| BenchmarkId::new(what, format!("{percent}% moving"));

                let mut s = scene(layout, n, percent);
                let mut events = Vec::new();
                let mut sap = filled(&s, &mut events);
                let mut step = 0u64;
                group.bench_function(id("incremental"), |b| {
                    b.iter(|| {
                        step += 1;
                        shift(&mut s, step);
                        for &m in &s.movers {
                            let _ = sap.update(m, s.tight[m as usize]);
                        }
                        sap.update_pairs(&mut events);
                        black_box(events.len())
                    })
                });

                // The same steps with the moves announced and made in one
                // batch (`SweepAndPrune::refit_batch`), which re-sorts the
                // regions crowded with movers whole. The batch is given each
                // proxy's hint, as the world gives it: without, announcing
                // and refitting would each look the key up.
                let mut s = scene(layout, n, percent);
                let mut sap = filled(&s, &mut events);
                let hints: Vec<ProxyHint> = (0..n as u32).map(|k| sap.hint(k).expect("inserted")).collect();
                let mut step = 0u64;
                group.bench_function(id("incremental, batched"), |b| {
                    b.iter(|| {
                        step += 1;
                        shift(&mut s, step);
                        let mut batch = sap.refit_batch();
                        for &m in &s.movers {
                            batch.announce(m, hints[m as usize], &s.tight[m as usize]);
                        }
                        for &m in &s.movers {
                            let _ = batch.refit(m, hints[m as usize], s.tight[m as usize]);
                        }
                        drop(batch);
                        sap.update_pairs(&mut events);
                        black_box(events.len())
                    })
                });

                // The same batch handed over whole (`RefitBatch::refit_all`),
                // as the world's finalisation does, on a pool of two
                // threads: the moves are planned side by side and the
                // crowded regions re-sorted side by side.
                let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a pool of two");
                let mut s = scene(layout, n, percent);
                let mut sap = filled(&s, &mut events);
                let mut refits = Vec::new();
                let mut step = 0u64;
                group.bench_function(id("incremental, all at once (2 threads)"), |b| {
                    pool.install(|| {
                        b.iter(|| {
                            step += 1;
                            shift(&mut s, step);
                            refits.clear();
                            refits.extend(
                                s.movers.iter().map(|&m| (m, hints[m as usize], s.tight[m as usize])),
                            );
                            sap.refit_batch().refit_all(&refits, |_, result| {
                                let _ = black_box(result);
                            });
                            sap.update_pairs(&mut events);
                            black_box(events.len())
                        })
                    })
                });

                let mut s = scene(layout, n, percent);
                let mut resort = FullResort::new(&s.tight);
                let mut step = 0u64;
                group.bench_function(id("full re-sort"), |b| {
                    b.iter(|| {
                        step += 1;
                        shift(&mut s, step);
                        resort.step(&s.tight, &mut events);
                        black_box(events.len())
                    })
                });

                if n <= 1_000 || (n <= 10_000 && percent == 10) {
                    let mut s = scene(layout, n, percent);
                    let mut brute = BruteForce { pairs: Vec::new(), previous: Vec::new() };
                    brute.step(&s.tight, &mut events);
                    let mut step = 0u64;
                    group.bench_function(id("brute force"), |b| {
                        b.iter(|| {
                            step += 1;
                            shift(&mut s, step);
                            brute.step(&s.tight, &mut events);
                            black_box(events.len())
                        })
                    });
                }
            }
            group.finish();
        }
    }
}

/// World ray casts over 10,000 fixed boxes scattered over a 200 m square: the
/// closest hit through the broad phase's ray walk (`World::cast_ray`), every
/// hit (`World::cast_ray_all`), and the closest hit by brute force over every
/// collider, 100 rays a sample (random origins and directions, reach 30 m).
fn ray_casts(c: &mut Criterion) {
    let mut seed = 0x00c0_ffee_u64;
    let mut world = World::new(WorldSettings::default());
    for _ in 0..10_000 {
        let (x, y) = (unit_noise(&mut seed) * 200.0 - 100.0, unit_noise(&mut seed) * 200.0 - 100.0);
        let size = 0.2 + 0.8 * unit_noise(&mut seed);
        let body = world.add_body(BodyDesc::fixed().translation(x, y).angle(unit_noise(&mut seed) * 3.0));
        world.add_collider(body, ColliderDesc::new(Shape::rectangle(size, 0.5 * size))).expect("valid box");
    }
    world.step(1.0 / 60.0).expect("valid step");
    let rays: Vec<Ray> = (0..100)
        .map(|_| {
            let a = unit_noise(&mut seed) * std::f64::consts::TAU as Real;
            let origin =
                Point::new(unit_noise(&mut seed) * 200.0 - 100.0, unit_noise(&mut seed) * 200.0 - 100.0);
            Ray::new(origin, Vec2::new(a.cos(), a.sin()))
        })
        .collect();
    let filter = QueryFilter::default();
    let mut group = c.benchmark_group("world ray casts/10k boxes/100 rays");
    group.bench_function("closest hit", |b| {
        b.iter(|| rays.iter().filter_map(|r| world.cast_ray(black_box(r), 30.0, &filter)).count())
    });
    let mut hits = Vec::new();
    group.bench_function("every hit", |b| {
        b.iter(|| {
            rays.iter()
                .map(|r| {
                    world.cast_ray_all(black_box(r), 30.0, &filter, &mut hits);
                    hits.len()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("closest hit, brute force", |b| {
        b.iter(|| {
            rays.iter()
                .filter_map(|r| {
                    world
                        .colliders()
                        .filter_map(|(_, c)| {
                            let pose = world.body(c.body()).map(|b| b.position() * c.local_pose())?;
                            c.shape().cast_ray(&pose, black_box(r), 30.0).map(|h| h.toi)
                        })
                        .reduce(Real::min)
                })
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, broad_phase, ray_casts);
criterion_main!(benches);
