//! Tests of the narrow phase: its noted changes against a serial refresh, and
//! its manifolds against a refresh of every contact.

use lamina_geometry::{Real, Shape};

use super::CHANGE_ROOM;
use crate::{BodyDesc, ColliderDesc, ContactEvent, World, WorldSettings};

/// A row of 150 boxes, each alone, lands on the ground in one step: the
/// contacts made together lie together in key order, so runs of the
/// refresh change more contacts than their room notes. Every contact
/// that began touching is reported, in key order, with a hit each (all
/// land at the same speed, above the threshold), as the contacts
/// themselves say before and after the step.
#[test]
fn runs_with_more_changes_than_room_report_every_one() {
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(200.0, 0.5))).unwrap();
    for i in 0..150 {
        let b = world.add_body(BodyDesc::dynamic().translation(i as Real * 1.5 - 110.0, 2.0));
        world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
    }
    let mut landed = false;
    for _ in 0..60 {
        let before: Vec<_> = world.contacts.map().iter().map(|(key, c)| (key, c.touching)).collect();
        world.step(1.0 / 60.0).unwrap();
        let began: Vec<ContactEvent> = world
            .contacts
            .map()
            .iter()
            .filter(|&(key, c)| c.touching && !before.contains(&(key, true)))
            .map(|(_, c)| ContactEvent::Begin { a: c.collider_a(), b: c.collider_b() })
            .collect();
        let reported: Vec<ContactEvent> = world
            .contact_events()
            .iter()
            .copied()
            .filter(|e| matches!(e, ContactEvent::Begin { .. }))
            .collect();
        assert_eq!(reported, began);
        if began.len() == 150 {
            landed = true;
            let over = world.narrow.change_counts.iter().filter(|&&n| n as usize > CHANGE_ROOM).count();
            assert!(over > 0, "no run changed more contacts than its room");
            let hits: Vec<_> =
                world.hit_events().iter().map(|h| ContactEvent::Begin { a: h.a, b: h.b }).collect();
            assert_eq!(hits, began, "one hit for each box landing");
        }
    }
    assert!(landed, "the boxes never landed together");
}

/// A ball dropped on a sleeping stack wakes it in the middle of a step,
/// after the refresh passed over the stack's own contacts: the solver
/// lists those contacts with manifolds the narrow phase completes then.
/// Before each step, a copy of the world runs the step's first stages (the
/// pairs, the refresh, the listing) and every listed manifold is compared
/// with one computed afresh from its contact and bodies as they are then:
/// without the completion, the manifolds at the stack's places are
/// whatever the last refresh left there.
#[test]
fn contacts_woken_mid_step_get_current_manifolds() {
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(20.0, 0.5))).unwrap();
    for i in 0..4 {
        let b = world.add_body(BodyDesc::dynamic().translation(0.0, 1.0 + i as lamina_geometry::Real));
        world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
    }
    for _ in 0..300 {
        world.step(1.0 / 60.0).unwrap();
    }
    assert!(world.bodies().all(|(_, b)| b.is_sleeping() || b.kind() == crate::BodyKind::Fixed));
    let ball = world.add_body(BodyDesc::dynamic().translation(0.0, 6.0));
    world.add_collider(ball, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    world.step(1.0 / 60.0).unwrap();
    let mut completed = 0;
    for _ in 0..120 {
        let mut copy = world.clone();
        copy.update_pairs();
        copy.update_contacts();
        copy.list_constraints(1.0 / 240.0);
        completed += copy.solver.missing_manifolds.len();
        let places = copy.solver.contact_places();
        assert!(copy.narrow.manifolds_are_current(places, copy.contacts.map(), &copy.bodies));
        world.step(1.0 / 60.0).unwrap();
    }
    assert!(completed >= 3, "the stack's contacts were completed ({completed})");
}
