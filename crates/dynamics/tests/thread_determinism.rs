//! Bit-identical results for any thread count: a mixed scene, large enough that
//! every parallel stage really splits its work (its steps told to share it
//! always, not as their pace finds faster), stepped on pools of 1 to 16
//! threads, with sleeping on and off, must hash the same — and the same as the
//! golden value recorded here; so must the scene paced, and kept alone. With sleeping on, the islands and sleep timers
//! run, but within the run hardly a body falls asleep (in f32 none does, so
//! both golden values are the same there); falling asleep is pinned by a
//! jointed scene (Box2D's falling hinges), stepped until it sleeps: the step
//! it falls asleep on is pinned too.
//!
//! The golden hashes change only when the simulation deliberately changes (a
//! solver or collision change): then re-record them from the 1-thread run and
//! say why in the commit. The scene uses no trigonometry (all angles are 0 and
//! shapes are built from exact coordinates), so the hash does not depend on the
//! platform's sine and cosine either.

mod common;

use common::{MakeJoint, hanging_chains_of, joint_kinds};
use lamina_dynamics::{BodyDesc, BodyKey, ColliderDesc, JointDesc, Sharing, World, WorldSettings};
use lamina_geometry::{Point, Real, Shape, Vec2};

/// A pyramid of `rows` rows of unit boxes on a ground of half-width
/// `ground_half_width`, centred on x = 0.
fn pyramid(settings: WorldSettings, rows: usize, ground_half_width: Real) -> World {
    let mut w = World::new(settings);
    w.set_sharing(Sharing::Always);
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(ground_half_width, 1.0))).unwrap();
    for i in 0..rows {
        for j in i..rows {
            let x = (i as Real + 1.0) * 0.5 + (j - i) as Real - rows as Real * 0.5;
            let b = w.add_body(BodyDesc::dynamic().translation(x, 0.5 + i as Real));
            w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
        }
    }
    w
}

fn scene(enable_sleep: bool) -> World {
    // A 40-row pyramid: 820 boxes, about 2,400 contacts once settled.
    let mut w = pyramid(WorldSettings { enable_sleep, ..WorldSettings::default() }, 40, 80.0);
    // A rain of other shapes beside it.
    let shapes = [
        Shape::circle(0.3),
        Shape::capsule(Point::new(-0.3, 0.0), Point::new(0.3, 0.0), 0.2),
        Shape::polygon(&[Point::new(-0.4, -0.3), Point::new(0.4, -0.3), Point::new(0.0, 0.4)]).unwrap(),
        Shape::ellipse(0.4, 0.25),
        Shape::rectangle(0.3, 0.2),
    ];
    for k in 0..400 {
        let x = 25.0 + (k % 20) as Real * 0.9;
        let y = 1.0 + (k / 20) as Real * 0.9;
        let b = w.add_body(BodyDesc::dynamic().translation(x, y));
        w.add_collider(b, ColliderDesc::new(shapes[k % shapes.len()].clone()).restitution(0.2)).unwrap();
    }
    let ball = w.add_body(BodyDesc::dynamic().translation(-40.0, 4.0).linear_velocity(Vec2::new(30.0, 0.0)));
    w.add_collider(ball, ColliderDesc::new(Shape::circle(1.0)).density(10.0)).unwrap();
    w
}

fn hash_after(threads: usize, steps: usize, enable_sleep: bool) -> u64 {
    hash_sharing(threads, steps, enable_sleep, Sharing::Always)
}

fn hash_sharing(threads: usize, steps: usize, enable_sleep: bool, sharing: Sharing) -> u64 {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut w = scene(enable_sleep);
        w.set_sharing(sharing);
        for _ in 0..steps {
            w.step(1.0 / 60.0).unwrap();
        }
        w.state_hash()
    })
}

/// Steps per run: enough for the pile to settle and the ball to arrive.
const STEPS: usize = 120;

#[cfg(not(feature = "f64"))]
const GOLDEN: [u64; 2] = [0xa78d_8e27_031e_7670, 0xa78d_8e27_031e_7670];
#[cfg(feature = "f64")]
const GOLDEN: [u64; 2] = [0xaeb2_275b_a1b9_2174, 0x7337_033a_35dd_b296];

#[test]
fn every_thread_count_gives_the_same_bits() {
    for (golden, enable_sleep) in GOLDEN.iter().zip([false, true]) {
        let reference = hash_after(1, STEPS, enable_sleep);
        println!("sleep {enable_sleep}: {reference:#018x}");
        for threads in [2, 3, 4, 8, 16] {
            assert_eq!(
                hash_after(threads, STEPS, enable_sleep),
                reference,
                "{threads} threads, sleep {enable_sleep}"
            );
        }
        assert_eq!(
            reference, *golden,
            "the simulation changed: re-record the golden hash if that was intended"
        );
    }
}

/// The scene's steps paced (each on the pool or alone, as timed) and kept
/// alone, on three threads, end in the bits of one thread.
#[test]
fn every_way_of_sharing_gives_the_same_bits() {
    let reference = hash_after(1, STEPS, false);
    for sharing in [Sharing::Paced, Sharing::Never] {
        assert_eq!(hash_sharing(3, STEPS, false, sharing), reference, "{sharing:?}");
    }
}

/// The events of every step of the mixed scene, with a sensor across the
/// rain, on a pool of `threads` threads, the steps told to share their work.
fn events_on(threads: usize) -> Vec<String> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut w = scene(false);
        let gate = w.add_body(BodyDesc::fixed().translation(33.5, 2.0));
        w.add_collider(gate, ColliderDesc::new(Shape::rectangle(9.0, 1.5)).sensor(true)).unwrap();
        (0..STEPS)
            .map(|_| {
                w.step(1.0 / 60.0).unwrap();
                format!("{:?} {:?} {:?}", w.contact_events(), w.sensor_events(), w.hit_events())
            })
            .collect()
    })
}

/// The events (contacts beginning and ending, sensors entered and left,
/// hits) come in the same order, with the same bits, on every thread count:
/// the parallel refresh notes each contact's change, and they are reported
/// in key order after it.
#[test]
fn every_thread_count_reports_the_same_events() {
    let reference = events_on(1);
    let all = reference.concat();
    for kind in ["Begin", "End", "approach_speed", "sensor"] {
        assert!(all.contains(kind), "the scene reports no {kind}");
    }
    for threads in [2, 4] {
        let events = events_on(threads);
        let first = (0..STEPS).find(|&step| events[step] != reference[step]);
        assert_eq!(first, None, "{threads} threads: the events differ first at that step");
    }
}

/// Box2D's "falling hinges": 4 columns of 30 rounded boxes, tilted ±0.1 rad
/// in turn (angles go through the deterministic sine and cosine), each pair
/// joined by a revolute joint with limits −0.1π..0.2π and a 0.5 Hz spring,
/// dropped on the ground.
fn falling_hinges() -> World {
    let mut w = World::new(WorldSettings::default());
    w.set_sharing(Sharing::Always);
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(40.0, 1.0))).unwrap();
    let (columns, rows) = (4, 30);
    let h: Real = 0.25;
    let shape = Shape::rounded_rectangle(0.9 * h, 0.9 * h, 0.1 * h);
    let (offset, dx) = (0.4 * h, 10.0 * h);
    let x_base = -0.5 * dx * (columns as Real - 1.0);
    let pi = std::f64::consts::PI as Real;
    for j in 0..columns {
        let x = x_base + j as Real * dx;
        let mut below: Option<BodyKey> = None;
        for i in 0..rows {
            let angle = if i % 2 == 0 { -0.1 } else { 0.1 };
            let desc =
                BodyDesc::dynamic().translation(x + offset * i as Real, h + 2.0 * h * i as Real).angle(angle);
            let body = w.add_body(desc);
            w.add_collider(body, ColliderDesc::new(shape.clone())).unwrap();
            match below.take() {
                None => below = Some(body),
                Some(a) => {
                    // A's upper right corner.
                    let anchor = w.body(a).unwrap().position() * Point::new(h, h);
                    let hinge =
                        JointDesc::revolute(a, body, anchor).limits(-0.1 * pi, 0.2 * pi).spring(0.5, 0.5);
                    w.add_joint(hinge).unwrap();
                }
            }
        }
    }
    w
}

/// Steps the falling hinges until every body sleeps; the step and the hash then.
fn hinges_sleep(threads: usize) -> (usize, u64) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut w = falling_hinges();
        for n in 1..=2000 {
            w.step(1.0 / 60.0).unwrap();
            if w.bodies().all(|(_, b)| b.is_sleeping() || b.kind() == lamina_dynamics::BodyKind::Fixed) {
                return (n, w.state_hash());
            }
        }
        panic!("the falling hinges never fell asleep");
    })
}

/// The step the falling hinges fall asleep on, and the hash then.
#[cfg(not(feature = "f64"))]
const GOLDEN_HINGES: (usize, u64) = (331, 0x79f0_171a_d423_22ac);
#[cfg(feature = "f64")]
const GOLDEN_HINGES: (usize, u64) = (442, 0x6e31_d6e7_893b_e045);

#[test]
fn falling_hinges_sleep_on_the_same_step_with_the_same_bits_on_every_thread_count() {
    let reference = hinges_sleep(1);
    println!("falling hinges sleep at step {}, hash {:#018x}", reference.0, reference.1);
    for threads in [2, 3, 4, 8, 16] {
        assert_eq!(hinges_sleep(threads), reference, "{threads} threads");
    }
    assert_eq!(
        reference, GOLDEN_HINGES,
        "the simulation changed: re-record the golden values if that was intended"
    );
}

/// A 20-row pyramid with a ball rolling into it: some 600 contacts, enough
/// for a step to share its narrow phase and run beside a poller.
fn small_pyramid(offset: usize) -> World {
    let mut w = pyramid(WorldSettings { enable_sleep: false, ..WorldSettings::default() }, 20, 40.0);
    // Each world's ball is a little faster, so the worlds differ.
    let speed = 10.0 + offset as Real;
    let ball = w.add_body(BodyDesc::dynamic().translation(-20.0, 1.0).linear_velocity(Vec2::new(speed, 0.0)));
    w.add_collider(ball, ColliderDesc::new(Shape::circle(1.0)).density(5.0)).unwrap();
    w
}

/// Worlds large enough to run beside pollers, stepped side by side on one
/// pool (each step may run inside another world's poller), end in the
/// bits each reaches stepped alone on one thread.
#[test]
fn worlds_stepped_side_by_side_end_as_each_alone() {
    use rayon::prelude::*;
    const WORLDS: usize = 6;
    const SIDE_STEPS: usize = 90;
    let alone: Vec<u64> = (0..WORLDS)
        .map(|k| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
            pool.install(|| {
                let mut w = small_pyramid(k);
                for _ in 0..SIDE_STEPS {
                    w.step(1.0 / 60.0).unwrap();
                }
                w.state_hash()
            })
        })
        .collect();
    for threads in [2, 3] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let side_by_side: Vec<u64> = pool.install(|| {
            let mut worlds: Vec<World> = (0..WORLDS).map(small_pyramid).collect();
            for _ in 0..SIDE_STEPS {
                worlds.par_iter_mut().for_each(|w| w.step(1.0 / 60.0).unwrap());
            }
            worlds.iter().map(World::state_hash).collect()
        });
        assert_eq!(side_by_side, alone, "{threads} threads");
    }
    // The worlds did differ: the test compares six runs, not one six times.
    assert!(alone.windows(2).all(|w| w[0] != w[1]));
}

/// Enough joints (1,200) that their impulses are written back on the pool:
/// after the chains settle, the joint above each link holds up that link
/// and every one below it (statics by hand: the force on the link is its
/// weight and theirs, upward), and the forces are the same bits on the pool
/// as on the calling thread alone. Each kind of joint is stored its own
/// way: plain revolute joints (point joints), revolute joints with limits
/// (revolute bundles), and welds (joints solved alone).
#[test]
fn hanging_chains_hold_their_weight_with_the_same_bits_on_the_pool() {
    for (kind, joint) in joint_kinds() {
        chains_hold_their_weight(kind, joint);
    }
}

fn chains_hold_their_weight(kind: &str, joint: MakeJoint) {
    let (chains, links) = (120, 10);
    let forces = |threads: usize, sharing: Sharing| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let (mut w, joints) = hanging_chains_of(chains, links, joint);
            w.set_sharing(sharing);
            for _ in 0..120 {
                w.step(1.0 / 60.0).unwrap();
            }
            let of = |k| w.joint(k).unwrap().constraint_force();
            (
                w.state_hash(),
                joints
                    .iter()
                    .map(|chain| chain.iter().map(|&k| of(k)).collect::<Vec<_>>())
                    .collect::<Vec<_>>(),
            )
        })
    };
    let (hash, alone) = forces(1, Sharing::Never);
    let g = WorldSettings::default().gravity.y.abs();
    let link_weight = 0.1 * 1.0 * g; // 0.1 m² of 1 kg/m²
    for chain in &alone {
        for (i, force) in chain.iter().enumerate() {
            let held = (links - i) as Real * link_weight;
            assert!(
                (force.y - held).abs() < 0.01 * held,
                "{kind}, joint {i}: {force:?}, weight below {held}"
            );
            assert!(force.x.abs() < 1e-3 * held, "{kind}, joint {i}: {force:?}");
        }
    }
    for threads in [2, 3] {
        let (shared_hash, shared) = forces(threads, Sharing::Always);
        assert_eq!(shared_hash, hash, "{kind}, {threads} threads");
        let bits = |f: &[Vec<Vec2>]| {
            f.iter().flatten().flat_map(|v| [v.x.to_bits(), v.y.to_bits()]).collect::<Vec<_>>()
        };
        assert_eq!(bits(&shared), bits(&alone), "{kind}, {threads} threads: the joints' forces");
    }
}
