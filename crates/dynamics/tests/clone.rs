//! A cloned world steps bit for bit as the original: the clone carries
//! everything a step depends on (contacts with their warm-start impulses,
//! islands and sleep timers, the broad phase's pairs, joints, chains,
//! kinematic bodies, pending events), on any thread, with any pool.

mod common;

use common::{busy_world, step_both};
use lamina_dynamics::World;
use lamina_geometry::Real;

const DT: Real = 1.0 / 60.0;

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
    clone.remove_body(bullet).expect("a live body");
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
