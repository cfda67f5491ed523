//! A warm step allocates nothing: a counting global allocator watches the
//! heap while a settled pyramid keeps stepping (sleep off, so every body works)
//! and when its top box rocks onto a corner,
//! while a long chain of joints drapes over the ground, while a pyramid large
//! enough for every list to be made on the pool steps on two threads, while
//! a weightless crowd circles on two threads, moving every broad-phase proxy
//! at every step (its steps sharing their work, then keeping it on the calling
//! thread), and while a fully asleep pile steps. The worlds on two threads are
//! told to share their work always, so that what is checked does not depend on
//! what their pace would find faster.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;

use lamina_dynamics::{BodyDesc, BodyKey, ColliderDesc, JointDesc, Sharing, World, WorldSettings};
use lamina_geometry::{Point, Real, Shape, Vec2};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn pyramid(rows: usize, settings: WorldSettings) -> World {
    let mut w = World::new(settings);
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    // Wider than the pyramid's base: a box that fell off the end would
    // enter new regions of the broad phase for as long as it fell.
    let half_width = (rows as Real).max(50.0);
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(half_width, 1.0))).unwrap();
    for i in 0..rows {
        for j in i..rows {
            let x = (i as Real + 1.0) * 0.5 + (j - i) as Real - rows as Real * 0.5;
            let b = w.add_body(BodyDesc::dynamic().translation(x, 0.5 + i as Real));
            w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
        }
    }
    w
}

/// A chain of 400 capsule links, enough for the joints to be prepared in
/// parallel, hinged to a fixed body and falling onto the ground.
fn chain() -> World {
    let mut w = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(400.0, 1.0))).unwrap();
    let mut previous = w.add_body(BodyDesc::fixed().translation(-100.0, 10.0));
    let link = Shape::capsule(Point::new(-0.25, 0.0), Point::new(0.25, 0.0), 0.1);
    for i in 0..400 {
        let x = -100.0 + 0.5 * i as Real + 0.25;
        let b = w.add_body(BodyDesc::dynamic().translation(x, 10.0));
        w.add_collider(b, ColliderDesc::new(link.clone())).unwrap();
        w.add_joint(JointDesc::revolute(previous, b, Point::new(x - 0.25, 10.0))).unwrap();
        previous = b;
    }
    w
}

/// 2,304 small boxes 1.5 m apart, half of them with a second collider
/// (a ball beside them), weightless, with their keys: steered
/// round circles of half a metre ([`circle`]), they never meet, and every
/// one leaves its broad-phase proxy at every step. Each keeps to one region
/// of the broad phase's grid (16 m, the default; 64 boxes to each): a box
/// crossing into a region could find it fuller than ever before, and its
/// sorted array growing.
fn crowd() -> (World, Vec<BodyKey>) {
    let mut w =
        World::new(WorldSettings { gravity: Vec2::zeros(), enable_sleep: false, ..WorldSettings::default() });
    let mut keys = Vec::new();
    let place = |n: usize| (16 * (n / 8)) as Real + 2.0 + 1.5 * (n % 8) as Real;
    for i in 0..48 {
        for j in 0..48 {
            let b = w.add_body(BodyDesc::dynamic().translation(place(i), place(j)));
            w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.1, 0.1))).unwrap();
            if (i + j) % 2 == 0 {
                let pose = lamina_geometry::Isometry::translation(0.25, 0.0);
                w.add_collider(b, ColliderDesc::new(Shape::circle(0.1)).local_pose(pose)).unwrap();
            }
            keys.push(b);
        }
    }
    (w, keys)
}

/// Steps the crowd `steps` times, turning every body's velocity (3 m/s, a
/// turn a second) before each step; the allocations counted are the steps'.
fn circle(steps: usize, w: &mut World, keys: &[BodyKey], first: usize) -> usize {
    let mut during = 0;
    for step in first..first + steps {
        let angle = step as Real * std::f64::consts::TAU as Real / 60.0;
        for &key in keys {
            w.body_mut(key).unwrap().set_linear_velocity(3.0 * Vec2::new(angle.cos(), angle.sin())).unwrap();
        }
        during += allocations_during(1, w);
    }
    during
}

fn allocations_during(steps: usize, w: &mut World) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..steps {
        w.step(1.0 / 60.0).unwrap();
    }
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

// One test function, so that no other test thread allocates while counting.
#[test]
fn warm_steps_do_not_allocate() {
    let mut awake = pyramid(12, WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    allocations_during(120, &mut awake);
    assert_eq!(allocations_during(60, &mut awake), 0, "a warm awake pyramid allocated");
    // Every contact of the settled pyramid has two points. The top box,
    // set spinning, rocks on a corner: the solver's first contact with one
    // point among the others, many steps after the last new contact.
    let top = awake.bodies().map(|(key, _)| key).last().unwrap();
    awake.body_mut(top).unwrap().set_angular_velocity(4.0).unwrap();
    let one_point = |w: &World| w.contacts().any(|c| c.is_touching() && c.points().len() == 1);
    assert!(!one_point(&awake), "the settled pyramid already had a contact with one point");
    let mut rocked = false;
    let mut during = 0;
    for _ in 0..30 {
        during += allocations_during(1, &mut awake);
        rocked |= one_point(&awake);
    }
    assert!(rocked, "the top box never stood on one corner");
    assert_eq!(during, 0, "a pyramid allocated when a contact first had one point");

    // Stepped on a pool's own thread: a call into rayon from outside its pool
    // queues a job on rayon's injector, which allocates a block of slots every
    // 63 jobs (not the engine's doing, and not a cost inside the pool).
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let mut jointed = chain();
    jointed.set_sharing(Sharing::Always);
    pool.install(|| allocations_during(900, &mut jointed));
    assert!(
        jointed.contacts().filter(|c| c.is_touching()).count() > 100,
        "the chain never reached the ground"
    );
    let during = pool.install(|| allocations_during(60, &mut jointed));
    assert_eq!(during, 0, "a warm jointed chain allocated");

    // 1,200 joints of each way of storing impulses (point joints, revolute
    // bundles, joints solved alone): they are written back on the pool.
    for (kind, joint) in common::joint_kinds() {
        let (mut hanging, _) = common::hanging_chains_of(120, 10, joint);
        hanging.set_sharing(Sharing::Always);
        pool.install(|| allocations_during(30, &mut hanging));
        let during = pool.install(|| allocations_during(30, &mut hanging));
        assert_eq!(during, 0, "warm hanging chains of {kind} joints on two threads allocated");
    }

    // Large enough (16,471 boxes, about 49,000 contacts) that the solver
    // lists its bodies and contacts on the pool.
    let mut large = pyramid(181, WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    large.set_sharing(Sharing::Always);
    pool.install(|| allocations_during(60, &mut large));
    let during = pool.install(|| allocations_during(20, &mut large));
    assert_eq!(during, 0, "a warm large pyramid on two threads allocated");

    // Every proxy moves at every step: its refits are planned on the pool,
    // its regions re-sorted side by side, and the colliders of bodies with
    // two bounded on the pool.
    let (mut crowd, keys) = crowd();
    crowd.set_sharing(Sharing::Always);
    pool.install(|| circle(120, &mut crowd, &keys, 0));
    let during = pool.install(|| circle(60, &mut crowd, &keys, 120));
    assert_eq!(during, 0, "a warm circling crowd on two threads allocated");
    assert!(crowd.contacts().next().is_none(), "the crowd's boxes met");
    // The same crowd kept on the calling thread: every stage's other path.
    crowd.set_sharing(Sharing::Never);
    pool.install(|| circle(20, &mut crowd, &keys, 180));
    let during = pool.install(|| circle(60, &mut crowd, &keys, 200));
    assert_eq!(during, 0, "a warm circling crowd kept alone allocated");

    let mut asleep = pyramid(8, WorldSettings::default());
    allocations_during(400, &mut asleep);
    assert!(asleep.bodies().all(|(_, b)| b.is_sleeping() || b.kind() == lamina_dynamics::BodyKind::Fixed));
    assert_eq!(allocations_during(60, &mut asleep), 0, "a sleeping pile allocated");
}
