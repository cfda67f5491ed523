//! Tests of the solver's lists, its passes on the team and the joints it keeps.

use super::*;
use crate::solver::color_passes::CONSTRAINT_BLOCK;
use crate::solver::constraint_graph::OVERFLOW;
use crate::solver::team::splits;
use crate::{BodyDesc, ColliderDesc, World};
use lamina_geometry::Shape;

/// A world of several runs' bodies and contacts (sleeping, fixed and
/// kinematic bodies among them; free slots among the live ones and after
/// the last, and slots given out again under a newer version) lists the
/// same bodies and contacts on a pool of three threads as in a walk (the
/// oracle): every list of the solver and every body's solver index, step
/// after step, bodies removed between steps so that the lists shrink,
/// and the same bits after the steps.
#[test]
fn lists_made_on_the_pool_are_the_walks() {
    let mut world = World::new(crate::WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(200.0, 0.5))).unwrap();
    let add = |world: &mut World, i: usize| {
        let (x, y) = ((i % 150) as Real - 75.0, 1.0 + (i / 150) as Real);
        let desc = match i % 7 {
            0 => BodyDesc::dynamic().asleep(true),
            1 => BodyDesc::kinematic().linear_velocity(Vec2::new(0.0, 0.1)),
            2 => BodyDesc::fixed(),
            _ => BodyDesc::dynamic(),
        };
        let b = world.add_body(desc.translation(x, y));
        world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
        b
    };
    let mut keys: Vec<BodyKey> = (0..5_000).map(|i| add(&mut world, i)).collect();
    // Free slots among the live ones, half of them given out again.
    for i in (0..keys.len()).rev().filter(|i| i % 11 == 0) {
        world.remove_body(keys.remove(i)).expect("a live body");
    }
    for i in 5_000..5_220 {
        keys.push(add(&mut world, i));
    }
    assert!(keys.iter().any(|&k| index_and_version(k).1 > 1), "a slot given out again");
    // Free slots after the last live one: the walk's slot list ends there.
    let last_slot = keys.iter().map(|&k| index_and_version(k).0).max().unwrap();
    keys.retain(|&k| index_and_version(k).0 + 30 <= last_slot || world.remove_body(k).is_err());
    assert!(
        world.body_keys.by_slot().len()
            > keys.iter().map(|&k| index_and_version(k).0 as usize).max().unwrap() + 1
    );

    world.awake.force_few = Some(false);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let (mut walk, mut on_pool) = (world.clone(), world);
    walk.solver.force_lists_on_pool = Some(false);
    on_pool.solver.force_lists_on_pool = Some(true);
    let mut listed = usize::MAX;
    for step in 0..4 {
        if step >= 2 {
            // Fewer bodies and contacts than the step before.
            for &key in keys.iter().skip(step).step_by(5) {
                walk.remove_body(key).expect("a live body");
                on_pool.remove_body(key).expect("a live body");
            }
        }
        pool.install(|| {
            walk.step(1.0 / 60.0).unwrap();
            on_pool.step(1.0 / 60.0).unwrap();
        });
        let (a, b) = (&walk.solver, &on_pool.solver);
        assert!(b.awake.len() > 2 * gather::RUN, "several runs of bodies");
        assert!(b.contact_places.len() > gather::RUN, "more than a run of contacts");
        if step >= 2 {
            assert!(b.awake.len() < listed, "the lists shrink");
        }
        listed = b.awake.len();
        assert_eq!(a.awake, b.awake, "step {step}");
        assert_eq!(a.first_colliders, b.first_colliders, "step {step}");
        assert_eq!(a.params, b.params, "step {step}");
        assert_eq!(a.solver_of_slot, b.solver_of_slot, "step {step}");
        assert_eq!(a.contact_places, b.contact_places, "step {step}");
        assert_eq!(a.coloured_contacts, b.coloured_contacts, "step {step}");
        assert_eq!(a.contact_two_points, b.contact_two_points, "step {step}");
        assert_eq!(a.missing_manifolds, b.missing_manifolds, "step {step}");
        for ((_, x), (_, y)) in walk.bodies.iter().zip(on_pool.bodies.iter()) {
            assert_eq!(x.solver_index, y.solver_index, "step {step}");
        }
        assert_eq!(walk.profile.touching_contacts, on_pool.profile.touching_contacts);
        assert_eq!(walk.state_hash(), on_pool.state_hash(), "step {step}");
    }
}

/// The dense slot array gives every body the solver index the body map
/// holds (the oracle): awake bodies their index, fixed and sleeping ones
/// and the key of a removed body, whose slot a new body took with a
/// newer version, none.
#[test]
fn solver_index_by_slot_matches_the_body_map() {
    let mut world = World::new(crate::WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 0.5))).unwrap();
    let mut keys = vec![ground];
    for i in 0..6 {
        let desc = BodyDesc::dynamic().translation(i as Real * 2.0, 1.0);
        let b = world.add_body(if i == 0 { desc.asleep(true) } else { desc });
        world.add_collider(b, ColliderDesc::new(Shape::circle(0.5))).unwrap();
        keys.push(b);
    }
    let removed = keys.remove(3);
    world.remove_body(removed).expect("a live body");
    let reused = world.add_body(BodyDesc::dynamic().translation(20.0, 5.0));
    keys.push(reused);
    world.step(1.0 / 60.0).unwrap();

    let slots = &world.solver.solver_of_slot;
    assert_eq!(solver_index(slots, removed), NO_INDEX, "a removed body's key");
    let mut solved = 0;
    for &key in &keys {
        let expected = world.bodies[key].solver_index;
        assert_eq!(solver_index(slots, key), expected, "{key:?}");
        solved += usize::from(expected != NO_INDEX);
    }
    assert_eq!(solved, keys.len() - 2, "all but the ground and the sleeping body are solved");
}

/// A heavy plank carrying a row of balls, each touching its neighbours:
/// the plank's contacts take a colour each until the colours run out
/// and the rest overflow, so most colours hold one bundle. The serial
/// passes that run such colours one after the other give every bit the
/// colours solved apart give (the oracle: the same solve with a pass
/// per colour), on one thread and on three, in far fewer passes.
#[test]
fn merged_serial_passes_give_the_bits_of_colours_apart() {
    let world = || {
        let settings = crate::WorldSettings { enable_sleep: false, ..Default::default() };
        let mut world = World::new(settings);
        let ground = world.add_body(BodyDesc::fixed());
        world.add_collider(ground, ColliderDesc::new(Shape::rectangle(80.0, 0.5))).unwrap();
        let plank = world.add_body(BodyDesc::dynamic().translation(0.0, 1.0));
        world.add_collider(plank, ColliderDesc::new(Shape::rectangle(30.0, 0.5)).density(20.0)).unwrap();
        for i in 0..59 {
            let ball = world.add_body(BodyDesc::dynamic().translation(-29.0 + i as Real, 2.0));
            world.add_collider(ball, ColliderDesc::new(Shape::circle(0.5))).unwrap();
        }
        // Beside it, columns of boxes whose contacts fill colours large
        // enough to be shared out in blocks between the passes merged.
        for column in 0..40 {
            for level in 0..10 {
                let (x, y) = (35.0 + 0.8 * column as Real, 0.75 + 0.5 * level as Real);
                let b = world.add_body(BodyDesc::dynamic().translation(x, y));
                world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.25, 0.25))).unwrap();
            }
        }
        world
    };
    let run = |threads: usize, apart: bool| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let mut w = world();
        if apart {
            w.solver.keep_colours_apart();
        }
        pool.install(|| {
            for _ in 0..60 {
                w.step(1.0 / 60.0).unwrap();
            }
        });
        let overflow =
            w.solver.graph.contacts.starts[OVERFLOW + 1] - w.solver.graph.contacts.starts[OVERFLOW];
        let split =
            w.solver.used_colors().iter().filter(|&&(_, items)| splits(items, CONSTRAINT_BLOCK)).count();
        assert!(split >= 2, "colours shared out in blocks: {split}");
        (w.state_hash(), w.solver.pass_count(), overflow)
    };
    let (apart, apart_passes, overflow) = run(1, true);
    assert!(overflow > 10, "the plank's contacts overflow ({overflow})");
    for threads in [1, 3] {
        let (merged, merged_passes, _) = run(threads, false);
        assert_eq!(merged, apart, "{threads} threads");
        assert!(2 * merged_passes < apart_passes, "{merged_passes} passes merged, {apart_passes} apart");
    }
}

/// The joint list kept from step to step is the list made afresh (the
/// oracle: a clone, whose solver starts empty and lists every joint), as
/// a chain swings while a box beside it falls asleep (the solver indices
/// change under the joints), and after each kind of edit that changes
/// what is listed: limits given to a plain joint (solved apart from then
/// on), a joint removed, a joint added, a jointed body removed.
#[test]
fn kept_joint_list_steps_as_a_fresh_list_does() {
    use crate::{BodyDesc, ColliderDesc, JointDesc, World, WorldSettings};
    use lamina_geometry::{Point, Shape};
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    let floor = world.add_body(BodyDesc::fixed().translation(-50.0, 0.0));
    world.add_collider(floor, ColliderDesc::new(Shape::rectangle(5.0, 0.5))).unwrap();
    // Its index comes first: asleep, it shifts every link's.
    let boxed = world.add_body(BodyDesc::dynamic().translation(-50.0, 1.0));
    world.add_collider(boxed, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
    let mut links = Vec::new();
    let mut joints = Vec::new();
    let mut previous = ground;
    for i in 0..12 {
        let x = i as Real;
        let link = world.add_body(BodyDesc::dynamic().translation(x + 0.5, 10.0));
        world.add_collider(link, ColliderDesc::new(Shape::rectangle(0.5, 0.1))).unwrap();
        joints.push(world.add_joint(JointDesc::revolute(previous, link, Point::new(x, 10.0))).unwrap());
        links.push(link);
        previous = link;
    }
    let steps_alike = |world: &mut World, steps: usize, what: &str| {
        let mut fresh = world.clone();
        for step in 0..steps {
            world.step(1.0 / 60.0).unwrap();
            fresh.step(1.0 / 60.0).unwrap();
            assert_eq!(world.state_hash(), fresh.state_hash(), "{what}, step {step}");
        }
    };
    steps_alike(&mut world, 120, "swinging");
    assert!(world.body(boxed).unwrap().is_sleeping(), "the box fell asleep");
    world.joint_mut(joints[3]).unwrap().set_limits(-0.1, 0.1).unwrap();
    steps_alike(&mut world, 30, "limits given");
    world.remove_joint(joints[7]).unwrap();
    steps_alike(&mut world, 30, "joint removed");
    world.add_joint(JointDesc::revolute(links[6], links[7], Point::new(7.0, 10.0))).unwrap();
    steps_alike(&mut world, 30, "joint added");
    world.remove_body(links[11]).expect("a live body");
    steps_alike(&mut world, 30, "a jointed body removed");
}
