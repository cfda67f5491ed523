//! A soak: a busy mixed world stepped at 60 Hz for a long stretch of
//! simulated time, checked every simulated second.
//!
//! The arena is a closed box 120 m wide and 60 m high. In it: two pyramids
//! that settle and fall asleep, a motor-driven paddle stirring a pile of
//! shapes, ragdolls dropped every ten seconds and removed a minute later, a
//! bullet fired into a pyramid every five seconds (waking it) and removed
//! ten seconds later, and one body of a random shape dropped every second,
//! the oldest removed once thirty are alive. Apart from everything, and
//! colliding with nothing, a frictionless triple pendulum swings: a closed
//! conservative system, whose energy the soft solver may lose but must never
//! gain.
//!
//! Every simulated second it checks that every pose and velocity is finite,
//! that no body has left the arena, that the pendulum's energy has not grown,
//! and, after a warm-up, that the heap is flat: a counting allocator tracks
//! the live bytes, which must stay within what the warm-up reached.
//!
//! `cargo test --release --test soak -- --ignored --nocapture` runs the hour
//! (216,000 steps) and prints the figures `docs/reliability.md` reports; the
//! ordinary test command runs two minutes of it.

#![allow(clippy::unnecessary_cast)] // casts to f64 are no-ops with the `f64` feature

#[path = "../benches/scenes/human.rs"]
mod human;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use lamina2d::prelude::*;

/// Counts the live heap bytes of the whole test program.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const DT: Real = 1.0 / 60.0;
/// The arena's inner walls, metres.
const ARENA_HALF_WIDTH: Real = 60.0;
const ARENA_HEIGHT: Real = 60.0;
/// How far outside the inner walls a body's origin may be (a ragdoll's bone
/// pressed into a wall) before it counts as escaped.
const ESCAPE_MARGIN: Real = 1.0;
/// The pendulum's energy may rise above its start by round-off only.
const ENERGY_GROWTH_ALLOWED: f64 = 1e-3;
/// The heap may grow by this much past the warm-up's peak (a buffer doubling
/// at an odd moment, the test's own bookkeeping).
const HEAP_SLACK_BYTES: usize = 256 * 1024;
/// Simulated seconds of warm-up before the heap is held flat: long enough for
/// every population (drops, ragdolls, bullets) to reach its steady count.
const WARM_UP_SECONDS: usize = 90;

/// A small, seeded pseudo-random sequence (xorshift), so that every run is the same.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [lo, hi).
    fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64) as Real
    }
}

/// The figures of a soak, printed for `docs/reliability.md`.
#[derive(Debug, Default)]
struct Report {
    steps: usize,
    bodies_min: usize,
    bodies_max: usize,
    joints_max: usize,
    asleep_max: usize,
    added: usize,
    removed: usize,
    energy_start: f64,
    energy_max: f64,
    energy_end: f64,
    heap_peak_warm_up: usize,
    heap_max_after: usize,
    heap_end: usize,
    /// The live heap every ten simulated minutes: flat, or a leak's slope.
    heap_every_ten_minutes: Vec<usize>,
}

struct Soak {
    world: World,
    rng: Rng,
    pendulum: Vec<BodyKey>,
    drops: std::collections::VecDeque<BodyKey>,
    bullets: std::collections::VecDeque<(usize, BodyKey)>,
    ragdolls: std::collections::VecDeque<(usize, u64)>,
    report: Report,
}

/// Ragdolls are told apart by user data counting up from here.
const RAGDOLL_TAG: u64 = 1 << 32;

fn fixed_box(world: &mut World, x: Real, y: Real, hw: Real, hh: Real) {
    let body = world.add_body(BodyDesc::fixed().translation(x, y));
    world.add_collider(body, ColliderDesc::new(Shape::rectangle(hw, hh)).friction(0.6)).unwrap();
}

impl Soak {
    fn new() -> Self {
        let mut world = World::new(WorldSettings::default());
        // The closed arena: floor, walls and ceiling, 2 m thick.
        fixed_box(&mut world, 0.0, -1.0, ARENA_HALF_WIDTH + 2.0, 1.0);
        fixed_box(&mut world, 0.0, ARENA_HEIGHT + 1.0, ARENA_HALF_WIDTH + 2.0, 1.0);
        fixed_box(&mut world, -ARENA_HALF_WIDTH - 1.0, ARENA_HEIGHT * 0.5, 1.0, ARENA_HEIGHT * 0.5);
        fixed_box(&mut world, ARENA_HALF_WIDTH + 1.0, ARENA_HEIGHT * 0.5, 1.0, ARENA_HEIGHT * 0.5);
        for center in [-35.0, -10.0] {
            add_pyramid(&mut world, center, 12);
        }
        add_stirred_pile(&mut world, 30.0);
        let pendulum = add_pendulum(&mut world, Point::new(10.0, 55.0));
        let mut soak = Soak {
            world,
            rng: Rng(0x9e37_79b9_7f4a_7c15),
            pendulum,
            drops: Default::default(),
            bullets: Default::default(),
            ragdolls: Default::default(),
            report: Report::default(),
        };
        soak.report.energy_start = soak.pendulum_energy();
        soak.report.energy_max = soak.report.energy_start;
        soak
    }

    /// Total energy of the pendulum (kinetic, translational and rotational,
    /// plus potential), in f64.
    fn pendulum_energy(&self) -> f64 {
        let g = -self.world.settings().gravity.y as f64;
        self.pendulum
            .iter()
            .map(|&key| {
                let b = self.world.body(key).unwrap();
                let (m, i) = (b.mass() as f64, b.inertia() as f64);
                let (v, w) = (b.linear_velocity(), b.angular_velocity() as f64);
                let speed2 = (v.x as f64).powi(2) + (v.y as f64).powi(2);
                0.5 * m * speed2 + 0.5 * i * w * w + m * g * b.center_of_mass().y as f64
            })
            .sum()
    }

    /// What happens at the start of simulated second `second`.
    fn events(&mut self, second: usize) {
        // A body of a random shape dropped every second; thirty at most.
        let shape = match self.rng.next() % 4 {
            0 => Shape::circle(self.rng.range(0.2, 0.8)),
            1 => Shape::rectangle(self.rng.range(0.2, 0.8), self.rng.range(0.2, 0.8)),
            2 => Shape::capsule(Point::new(-0.4, 0.0), Point::new(0.4, 0.0), self.rng.range(0.1, 0.4)),
            _ => Shape::polygon(&[Point::new(-0.5, -0.4), Point::new(0.6, -0.3), Point::new(0.1, 0.7)])
                .unwrap(),
        };
        let x = self.rng.range(-55.0, 55.0);
        let angle = self.rng.range(0.0, std::f64::consts::TAU as Real);
        let body = self.world.add_body(BodyDesc::dynamic().translation(x, 50.0).angle(angle));
        self.world.add_collider(body, ColliderDesc::new(shape).friction(0.5).restitution(0.2)).unwrap();
        self.drops.push_back(body);
        self.report.added += 1;
        if self.drops.len() > 30 {
            let oldest = self.drops.pop_front().unwrap();
            self.world.remove_body(oldest).expect("a live body");
            self.report.removed += 1;
        }
        // A bullet into a pyramid every five seconds, removed after ten.
        if second.is_multiple_of(5) {
            let from_left = second.is_multiple_of(10);
            let (x, vx) = if from_left { (-55.0, 150.0) } else { (5.0, -150.0) };
            let desc = BodyDesc::dynamic().translation(x, self.rng.range(1.0, 8.0)).bullet(true);
            let bullet = self.world.add_body(desc.linear_velocity(Vec2::new(vx, 0.0)));
            self.world.add_collider(bullet, ColliderDesc::new(Shape::circle(0.15)).density(20.0)).unwrap();
            self.bullets.push_back((second, bullet));
            self.report.added += 1;
        }
        while self.bullets.front().is_some_and(|&(at, _)| at + 10 <= second) {
            let (_, bullet) = self.bullets.pop_front().unwrap();
            self.world.remove_body(bullet).expect("a live body");
            self.report.removed += 1;
        }
        // A ragdoll every ten seconds, removed after a minute.
        if second.is_multiple_of(10) {
            let tag = RAGDOLL_TAG + second as u64;
            let joints = human::HumanJoints { friction_torque: 0.05, hertz: 5.0, damping_ratio: 0.5 };
            let x = self.rng.range(-50.0, 50.0);
            human::add_human(&mut self.world, Point::new(x, 40.0), -1, joints, tag);
            self.ragdolls.push_back((second, tag));
            self.report.added += 11;
        }
        while self.ragdolls.front().is_some_and(|&(at, _)| at + 60 <= second) {
            let (_, tag) = self.ragdolls.pop_front().unwrap();
            let bones: Vec<BodyKey> =
                self.world.bodies().filter(|(_, b)| b.user_data() == tag).map(|(k, _)| k).collect();
            assert_eq!(bones.len(), 11, "ragdoll {tag} lost bones");
            for bone in bones {
                self.world.remove_body(bone).expect("a live body");
            }
            self.report.removed += 11;
        }
    }

    /// The checks of one simulated second.
    fn check(&mut self, second: usize) {
        let mut asleep = 0;
        for (key, body) in self.world.bodies() {
            let p = body.position();
            let v = body.linear_velocity();
            let values = [p.translation.x, p.translation.y, p.rotation.re, p.rotation.im, v.x, v.y];
            assert!(
                values.iter().all(|x| x.is_finite()) && body.angular_velocity().is_finite(),
                "second {second}: body {key:?} is not finite: {values:?}"
            );
            let t = p.translation.vector;
            let inside = t.x.abs() <= ARENA_HALF_WIDTH + ESCAPE_MARGIN
                && t.y >= -ESCAPE_MARGIN
                && t.y <= ARENA_HEIGHT + ESCAPE_MARGIN;
            assert!(
                inside || body.kind() == BodyKind::Fixed,
                "second {second}: body {key:?} left the arena at {t}"
            );
            asleep += usize::from(body.is_sleeping());
        }
        let energy = self.pendulum_energy();
        let start = self.report.energy_start;
        assert!(
            energy <= start + ENERGY_GROWTH_ALLOWED * start.abs().max(1.0),
            "second {second}: the pendulum's energy grew from {start} J to {energy} J"
        );
        let r = &mut self.report;
        r.energy_max = r.energy_max.max(energy);
        r.energy_end = energy;
        let bodies = self.world.body_count();
        r.bodies_min = if second == 0 { bodies } else { r.bodies_min.min(bodies) };
        r.bodies_max = r.bodies_max.max(bodies);
        r.joints_max = r.joints_max.max(self.world.joint_count());
        r.asleep_max = r.asleep_max.max(asleep);
        let heap = LIVE.load(Ordering::Relaxed);
        if second < WARM_UP_SECONDS {
            r.heap_peak_warm_up = r.heap_peak_warm_up.max(heap);
        } else {
            // After the warm-up, the heap only ever comes back to where it was.
            r.heap_max_after = r.heap_max_after.max(heap);
            assert!(
                heap <= r.heap_peak_warm_up + HEAP_SLACK_BYTES,
                "second {second}: {heap} live heap bytes, at most {} during the warm-up",
                r.heap_peak_warm_up
            );
        }
        r.heap_end = heap;
        if second % 600 == 599 {
            r.heap_every_ten_minutes.push(heap);
        }
    }

    fn run(mut self, seconds: usize) -> Report {
        for second in 0..seconds {
            self.events(second);
            for _ in 0..60 {
                self.world.step(DT).unwrap();
                self.report.steps += 1;
            }
            self.check(second);
        }
        self.report
    }
}

fn add_pyramid(world: &mut World, center: Real, rows: usize) {
    for row in 0..rows {
        for i in 0..rows - row {
            let x = center + (i as Real - (rows - row) as Real * 0.5 + 0.5) * 1.05;
            let body = world.add_body(BodyDesc::dynamic().translation(x, 0.5 + row as Real * 1.0));
            world.add_collider(body, ColliderDesc::new(Shape::rectangle(0.5, 0.5)).friction(0.6)).unwrap();
        }
    }
}

/// A paddle on a revolute motor inside a box of shapes, turning forever.
fn add_stirred_pile(world: &mut World, center: Real) {
    fixed_box(world, center - 12.0, 6.0, 0.5, 6.0);
    fixed_box(world, center + 12.0, 6.0, 0.5, 6.0);
    let hub = world.add_body(BodyDesc::fixed().translation(center, 5.0));
    let paddle = world.add_body(BodyDesc::dynamic().translation(center, 5.0).can_sleep(false));
    world.add_collider(paddle, ColliderDesc::new(Shape::rectangle(4.5, 0.25)).density(5.0)).unwrap();
    world.add_joint(JointDesc::revolute(hub, paddle, Point::new(center, 5.0)).motor(2.0, 5000.0)).unwrap();
    for i in 0..60 {
        let x = center - 10.0 + (i % 12) as Real * 1.7;
        let y = 1.0 + (i / 12) as Real * 1.2;
        let body = world.add_body(BodyDesc::dynamic().translation(x, y + 6.0));
        let shape = if i % 2 == 0 { Shape::circle(0.4) } else { Shape::rectangle(0.35, 0.35) };
        world.add_collider(body, ColliderDesc::new(shape).friction(0.4)).unwrap();
    }
}

/// Three capsule links on frictionless hinges, hanging from a fixed point
/// and released from the horizontal; they collide with nothing.
fn add_pendulum(world: &mut World, pivot: Point) -> Vec<BodyKey> {
    let alone = CollisionFilter { category: 1 << 30, mask: 0, group: 0 };
    let mut previous = world.add_body(BodyDesc::fixed().translation(pivot.x, pivot.y));
    let mut links = Vec::new();
    for i in 0..3 {
        let x = pivot.x + 1.0 * i as Real + 0.5;
        let link = world.add_body(BodyDesc::dynamic().translation(x, pivot.y).can_sleep(false));
        let capsule = Shape::capsule(Point::new(-0.5, 0.0), Point::new(0.5, 0.0), 0.1);
        world.add_collider(link, ColliderDesc::new(capsule).filter(alone)).unwrap();
        let anchor = Point::new(pivot.x + i as Real, pivot.y);
        world.add_joint(JointDesc::revolute(previous, link, anchor)).unwrap();
        links.push(link);
        previous = link;
    }
    links
}

fn print(report: &Report, seconds: usize, wall: std::time::Duration) {
    println!(
        "soak: {seconds} simulated seconds, {} steps in {:.1} s of wall time",
        report.steps,
        wall.as_secs_f64()
    );
    println!("{report:#?}");
}

#[test]
fn a_busy_world_stays_finite_closed_and_flat_for_two_minutes() {
    let start = std::time::Instant::now();
    let report = Soak::new().run(120);
    print(&report, 120, start.elapsed());
    assert!(report.removed > 100 && report.bodies_max > 300, "the soak was not busy: {report:?}");
    assert!(report.asleep_max > 50, "nothing slept: {report:?}");
}

#[test]
#[ignore = "an hour of simulated time: cargo test --release --test soak -- --ignored --nocapture"]
fn a_busy_world_stays_finite_closed_and_flat_for_an_hour() {
    let start = std::time::Instant::now();
    let report = Soak::new().run(3600);
    print(&report, 3600, start.elapsed());
}
