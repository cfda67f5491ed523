//! A cloned world steps bit for bit as the original: the clone carries
//! everything a step depends on (contacts with their warm-start impulses,
//! islands and sleep timers, the broad phase's pairs, joints, chains,
//! kinematic bodies, pending events), on any thread, with any pool.

use lamina_dynamics::{BodyDesc, BodyKey, ChainDesc, ColliderDesc, JointDesc, World, WorldSettings};
use lamina_geometry::{Point, Real, Shape, Vec2};

const DT: Real = 1.0 / 60.0;

/// A busy scene: a pyramid on a chain floor, a hinged chain of links, a
/// kinematic paddle, a bullet fired at the pyramid, a sensor, and a small
/// stack off to the side that falls asleep.
fn busy_world() -> (World, BodyKey) {
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    let floor: Vec<Point> = (0..=40).map(|i| Point::new(40.0 - 2.0 * i as Real, 0.0)).collect();
    world.add_chain(ground, ChainDesc::new(&floor).friction(0.6)).unwrap();
    for row in 0..10 {
        for i in 0..(10 - row) {
            let x = -5.0 + i as Real + 0.5 * row as Real;
            let b = world.add_body(BodyDesc::dynamic().translation(x, 0.5 + row as Real));
            world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5)).friction(0.6)).unwrap();
        }
    }
    let mut previous = ground;
    for i in 0..12 {
        let x = 10.0 + 0.5 * i as Real;
        let link = world.add_body(BodyDesc::dynamic().translation(x + 0.25, 8.0));
        world
            .add_collider(
                link,
                ColliderDesc::new(Shape::capsule(Point::new(-0.2, 0.0), Point::new(0.2, 0.0), 0.05)),
            )
            .unwrap();
        let joint = JointDesc::revolute(previous, link, Point::new(x, 8.0));
        world.add_joint(if i == 5 { joint.limits(-0.5, 0.5) } else { joint }).unwrap();
        previous = link;
    }
    let paddle = world.add_body(BodyDesc::kinematic().translation(-15.0, 2.0).angular_velocity(1.5));
    world.add_collider(paddle, ColliderDesc::new(Shape::rectangle(3.0, 0.2))).unwrap();
    for i in 0..6 {
        let b =
            world.add_body(BodyDesc::dynamic().translation(-15.0 + (i as Real - 3.0) * 0.7, 5.0 + i as Real));
        world.add_collider(b, ColliderDesc::new(Shape::circle(0.3)).restitution(0.4)).unwrap();
    }
    let bullet = world.add_body(
        BodyDesc::dynamic().translation(-30.0, 3.0).linear_velocity(Vec2::new(150.0, 0.0)).bullet(true),
    );
    world.add_collider(bullet, ColliderDesc::new(Shape::circle(0.1)).density(20.0)).unwrap();
    let sensor = world.add_body(BodyDesc::fixed().translation(0.0, 3.0));
    world.add_collider(sensor, ColliderDesc::new(Shape::rectangle(2.0, 2.0)).sensor(true)).unwrap();
    for i in 0..4 {
        let b = world.add_body(BodyDesc::dynamic().translation(30.0, 0.5 + i as Real));
        world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
    }
    (world, bullet)
}

/// Steps `a` and `b` side by side and requires the same bits after every step.
fn step_both(a: &mut World, b: &mut World, steps: usize, what: &str) {
    for step in 0..steps {
        a.step(DT).unwrap();
        b.step(DT).unwrap();
        assert_eq!(a.state_hash(), b.state_hash(), "{what}: step {step} after the clone");
        assert_eq!(a.contact_events().len(), b.contact_events().len(), "{what}: events at step {step}");
    }
}

#[test]
fn a_clone_steps_as_the_original_from_any_moment() {
    let (mut world, _) = busy_world();
    // Clones taken at the start, mid-impact, and once the side stack sleeps.
    for (warm_up, what) in [(0, "fresh"), (20, "mid-impact"), (150, "some asleep")] {
        for _ in 0..warm_up {
            world.step(DT).unwrap();
        }
        let mut clone = world.clone();
        assert_eq!(clone.state_hash(), world.state_hash());
        step_both(&mut world, &mut clone, 60, what);
    }
    let asleep = world.bodies().filter(|(_, b)| b.is_sleeping()).count();
    assert!(asleep >= 4, "the side stack must have fallen asleep ({asleep} bodies asleep)");
}

#[test]
fn a_clone_stepped_on_another_thread_with_another_pool_matches() {
    let (mut world, bullet) = busy_world();
    for _ in 0..10 {
        world.step(DT).unwrap();
    }
    let clone = world.clone();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let handle = std::thread::spawn(move || {
        let mut clone = clone;
        pool.install(|| {
            for _ in 0..90 {
                clone.step(DT).unwrap();
            }
        });
        clone.state_hash()
    });
    for _ in 0..90 {
        world.step(DT).unwrap();
    }
    assert_eq!(handle.join().unwrap(), world.state_hash());
    // The bullet hit the pyramid on the way: the clone saw a real collision.
    assert!(world.body(bullet).unwrap().linear_velocity().x < 100.0);
}

#[test]
fn changing_a_clone_leaves_the_original_alone() {
    let (mut world, bullet) = busy_world();
    world.step(DT).unwrap();
    let before = world.state_hash();
    let mut clone = world.clone();
    assert!(clone.remove_body(bullet));
    clone.step(DT).unwrap();
    assert_eq!(world.state_hash(), before);
    assert!(world.body(bullet).is_some());
}

/// Worlds move between threads and copy: what batch users and rollback need.
#[test]
fn worlds_are_send_and_clone() {
    fn send_and_clone<T: Send + Clone>() {}
    send_and_clone::<World>();
}
