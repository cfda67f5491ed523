//! Keys carry their world: a key of another world is refused by every call
//! that takes one, leaving the world bit for bit as it was; a clone and a
//! restored snapshot accept the keys of the world they came from; and every
//! key a world hands out, by any road, carries its tag.
//!
//! The oracle for "refused" is the world's own answer to a removed key (the
//! same error, `None`, or nothing done), and for "as it was" its state hash
//! and its contacts, compared with a twin that was never asked.

mod common;

use common::busy_world;
use lamina_dynamics::{
    BodyDesc, BodyKey, ChainDesc, ColliderDesc, ColliderKey, JointDesc, JointKey, QueryFilter, World,
    WorldError, WorldKey, WorldSettings,
};
use lamina_geometry::{Aabb, Isometry, Point, Ray, Real, Shape, Vec2};

const DT: Real = 1.0 / 60.0;

/// A ground, a box resting on it with a second box jointed to it, and a
/// chain: the same keys in every world built this way.
fn small_world() -> (World, BodyKey, ColliderKey, JointKey) {
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 0.5))).unwrap();
    let a = world.add_body(BodyDesc::dynamic().translation(0.0, 1.0));
    let collider = world.add_collider(a, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
    let b = world.add_body(BodyDesc::dynamic().translation(1.5, 1.0));
    world.add_collider(b, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    let joint = world.add_joint(JointDesc::revolute(a, b, Point::new(1.0, 1.0))).unwrap();
    let points = [Point::new(-10.0, 3.0), Point::new(0.0, 2.5), Point::new(10.0, 3.0)];
    world.add_chain(ground, ChainDesc::new(&points)).unwrap();
    for _ in 0..5 {
        world.step(DT).unwrap();
    }
    (world, a, collider, joint)
}

#[test]
fn every_call_refuses_a_key_of_another_world_and_changes_nothing() {
    let (mut mine, _, _, _) = small_world();
    let (untouched, _, _, _) = small_world();
    let (theirs, body, collider, joint) = small_world();
    let chain = theirs.chains().next().unwrap().0;
    assert_ne!(mine.tag(), theirs.tag());
    assert!(mine.body(body).is_none() && mine.collider(collider).is_none());
    assert!(mine.joint(joint).is_none() && mine.joint_motion(joint).is_none() && mine.chain(chain).is_none());
    assert!(mine.body_mut(body).is_none() && mine.joint_mut(joint).is_none());
    let mine_collider = mine.colliders().nth(1).unwrap().0;
    assert_eq!(mine_collider, collider, "the same slot and version in both worlds");
    assert!(mine.contact_between(collider, mine.colliders().next().unwrap().0).is_none());
    assert!(mine.contact_between(mine_collider, mine.colliders().next().unwrap().0).is_some());

    let box_desc = ColliderDesc::new(Shape::rectangle(0.5, 0.5));
    assert_eq!(mine.add_collider(body, box_desc), Err(WorldError::StaleBody(body)));
    assert_eq!(mine.remove_body(body), Err(WorldError::StaleBody(body)));
    assert_eq!(mine.remove_collider(collider), Err(WorldError::StaleCollider(collider)));
    assert_eq!(mine.remove_joint(joint), Err(WorldError::StaleJoint(joint)));
    assert_eq!(mine.remove_chain(chain), Err(WorldError::StaleChain(chain)));
    let points = [Point::new(0.0, 5.0), Point::new(1.0, 5.0)];
    assert_eq!(mine.add_chain(body, ChainDesc::new(&points)), Err(WorldError::StaleBody(body)));
    assert_eq!(
        mine.set_body_position(body, Isometry::translation(3.0, 3.0)),
        Err(WorldError::StaleBody(body))
    );
    let own = mine.bodies().nth(2).unwrap().0;
    let refused = mine.add_joint(JointDesc::weld(own, body, Point::new(0.0, 2.0)));
    assert_eq!(refused, Err(WorldError::StaleBody(body)));
    assert_eq!(
        mine.add_joint(JointDesc::mouse(body, Point::new(0.0, 1.0))),
        Err(WorldError::StaleBody(body))
    );
    mine.wake_body(body);

    // Queries: a filter naming another world's body or collider excludes
    // none of this world's.
    let ray = Ray::new(Point::new(0.0, 5.0), Vec2::new(0.0, -1.0));
    let hit = mine.cast_ray(&ray, 10.0, &QueryFilter::default()).unwrap();
    assert_eq!(hit.body, body, "the ray meets this world's body in the foreign key's slot");
    assert_eq!(mine.cast_ray(&ray, 10.0, &QueryFilter::default().exclude_body(body)), Some(hit));
    assert_eq!(mine.cast_ray(&ray, 10.0, &QueryFilter::default().exclude_collider(collider)), Some(hit));
    assert_ne!(mine.cast_ray(&ray, 10.0, &QueryFilter::default().exclude_body(hit.body)), Some(hit));

    assert_eq!(mine.state_hash(), untouched.state_hash());
    assert_eq!(mine.body_count(), untouched.body_count());
    assert_eq!(mine.colliders().count(), untouched.colliders().count());
    assert_eq!(mine.joints().count(), 1);
    assert_eq!(mine.contacts().count(), untouched.contacts().count());
    let mut twin = untouched;
    for step in 0..60 {
        mine.step(DT).unwrap();
        twin.step(DT).unwrap();
        assert_eq!(mine.state_hash(), twin.state_hash(), "step {step} after the refusals");
    }
}

#[test]
fn a_clone_accepts_the_keys_of_its_original() {
    let (world, body, collider, joint) = small_world();
    let mut copy = world.clone();
    assert_eq!(copy.tag(), world.tag());
    assert!(copy.body(body).is_some() && copy.joint(joint).is_some());
    copy.remove_collider(collider).unwrap();
    copy.remove_body(body).unwrap();
    assert!(copy.joint(joint).is_none(), "removing the body removed its joint");
    assert!(world.body(body).is_some(), "the original keeps its own");
}

#[cfg(feature = "serde")]
#[test]
fn a_restored_world_accepts_the_keys_of_the_world_it_came_from() {
    let (world, body, collider, joint) = small_world();
    let mut restored = World::restore(&world.snapshot()).unwrap();
    assert_eq!(restored.tag(), world.tag());
    assert!(restored.body(body).is_some() && restored.collider(collider).is_some());
    assert!(restored.joint(joint).is_some());
    all_keys_carry_the_tag(&restored);
    restored.remove_body(body).unwrap();
    // A world built the same way but not restored from this one refuses them.
    let (other, ..) = small_world();
    assert!(World::restore(&other.snapshot()).unwrap().body(body).is_none());
}

#[cfg(feature = "serde")]
#[test]
fn worlds_built_alike_write_snapshots_that_differ_in_the_tag_alone() {
    let ((first, ..), (second, ..)) = (small_world(), small_world());
    let (a, b) = (first.snapshot(), second.snapshot());
    assert_eq!(a.len(), b.len());
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    // The tag, bytes 32-35, and the checksum over it, 24-31.
    assert!(differ.iter().any(|i| (32..36).contains(i)), "{differ:?}");
    assert!(differ.iter().all(|i| (24..36).contains(i)), "{differ:?}");
    assert_eq!(a[32..36], first.tag().to_bits().to_le_bytes());
}

/// Every key `world` hands out carries its tag: the maps' walks, the keys
/// bodies, colliders, joints and chains hold, the contacts', the events',
/// and the queries' answers.
fn all_keys_carry_the_tag(world: &World) {
    let tag = world.tag();
    let ours = |k: &dyn Fn() -> lamina_dynamics::WorldTag, what: &str| assert_eq!(k(), tag, "{what}");
    for (key, body) in world.bodies() {
        ours(&|| key.world(), "a body's key");
        body.colliders().iter().for_each(|c| ours(&|| c.world(), "a body's collider"));
        body.joints().iter().for_each(|j| ours(&|| j.world(), "a body's joint"));
    }
    for (key, collider) in world.colliders() {
        ours(&|| key.world(), "a collider's key");
        ours(&|| collider.body().world(), "a collider's body");
    }
    for (key, joint) in world.joints() {
        ours(&|| key.world(), "a joint's key");
        ours(&|| joint.body_b().world(), "a joint's body");
        if !slotmap::Key::is_null(&joint.body_a()) {
            ours(&|| joint.body_a().world(), "a joint's first body");
        }
    }
    for (key, chain) in world.chains() {
        ours(&|| key.world(), "a chain's key");
        ours(&|| chain.body().world(), "a chain's body");
        chain.colliders().iter().for_each(|c| ours(&|| c.world(), "a chain's collider"));
    }
    for c in world.contacts() {
        for k in [c.collider_a(), c.collider_b()] {
            ours(&|| k.world(), "a contact's collider");
        }
        for k in [c.body_a(), c.body_b()] {
            ours(&|| k.world(), "a contact's body");
        }
    }
    for e in world.contact_events() {
        let (lamina_dynamics::ContactEvent::Begin { a, b } | lamina_dynamics::ContactEvent::End { a, b }) =
            *e;
        ours(&|| a.world(), "a contact event's collider");
        ours(&|| b.world(), "a contact event's collider");
    }
    for e in world.sensor_events() {
        let (lamina_dynamics::SensorEvent::Begin { sensor, visitor }
        | lamina_dynamics::SensorEvent::End { sensor, visitor }) = *e;
        ours(&|| sensor.world(), "a sensor event's sensor");
        ours(&|| visitor.world(), "a sensor event's visitor");
    }
    for e in world.hit_events() {
        ours(&|| e.a.world(), "a hit's collider");
        ours(&|| e.b.world(), "a hit's collider");
    }
    let everywhere = Aabb::new(Point::new(-1e4, -1e4), Point::new(1e4, 1e4));
    let mut found = Vec::new();
    world.query_aabb(&everywhere, &QueryFilter::default(), &mut found);
    assert_eq!(found.len(), world.colliders().count());
    found.iter().for_each(|c| ours(&|| c.world(), "a box query's collider"));
    let mut hits = Vec::new();
    for x in (-40..=40).map(|x| x as Real) {
        let ray = Ray::new(Point::new(x, 30.0), Vec2::new(0.0, -1.0));
        world.cast_ray_all(&ray, 40.0, &QueryFilter::default(), &mut hits);
        for hit in &hits {
            ours(&|| hit.collider.world(), "a ray hit's collider");
            ours(&|| hit.body.world(), "a ray hit's body");
        }
        let moved = world.cast_shape(
            &Shape::circle(0.2),
            &Isometry::translation(x, 30.0),
            Vec2::new(0.0, -40.0),
            1.0,
            &QueryFilter::default(),
        );
        if let Some(hit) = moved {
            ours(&|| hit.collider.world(), "a shape cast's collider");
        }
    }
}

#[test]
fn every_key_a_busy_world_hands_out_carries_its_tag() {
    let (mut world, _) = busy_world();
    all_keys_carry_the_tag(&world);
    let mut events = 0;
    for _ in 0..120 {
        world.step(DT).unwrap();
        events += world.contact_events().len() + world.sensor_events().len() + world.hit_events().len();
        all_keys_carry_the_tag(&world);
    }
    assert!(events > 0 && world.contacts().count() > 0, "the scene makes contacts and events");
    all_keys_carry_the_tag(&world.clone());
}
