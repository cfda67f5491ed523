//! Islands and sleep: a resting pile sleeps as a whole, costs nothing while
//! asleep, and wakes when hit, when a body is moved, or when something it rests
//! on is removed.

use lamina_dynamics::{BodyDesc, BodyKey, ColliderDesc, World, WorldSettings};
use lamina_geometry::{Real, Shape, Vec2};

const DT: Real = 1.0 / 60.0;

/// A ground and a 3-wide, 4-high wall of boxes, settled until asleep.
fn sleeping_pile() -> (World, BodyKey, Vec<BodyKey>) {
    let mut w = World::new(WorldSettings::default());
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(20.0, 1.0))).unwrap();
    let mut boxes = Vec::new();
    for row in 0..4 {
        for col in 0..3 {
            let b = w.add_body(BodyDesc::dynamic().translation(col as Real * 1.0 - 1.0, 0.5 + row as Real));
            w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
            boxes.push(b);
        }
    }
    for _ in 0..300 {
        w.step(DT).unwrap();
    }
    (w, ground, boxes)
}

#[test]
fn a_resting_pile_falls_asleep_and_costs_nothing() {
    let (mut w, _, boxes) = sleeping_pile();
    assert!(boxes.iter().all(|&b| w.body(b).unwrap().is_sleeping()), "the pile should sleep after 5 s");
    let hash = w.state_hash();
    w.step(DT).unwrap();
    assert_eq!(w.profile().awake_bodies, 0);
    assert_eq!(w.profile().constraints, 0);
    assert_eq!(w.state_hash(), hash, "a sleeping world does not move");
}

#[test]
fn a_ball_hitting_the_pile_wakes_it() {
    let (mut w, _, boxes) = sleeping_pile();
    let ball = w.add_body(BodyDesc::dynamic().translation(-8.0, 3.5).linear_velocity(Vec2::new(25.0, 0.0)));
    w.add_collider(ball, ColliderDesc::new(Shape::circle(0.5)).density(5.0)).unwrap();
    let mut woke = false;
    for _ in 0..60 {
        w.step(DT).unwrap();
        if boxes.iter().any(|&b| !w.body(b).unwrap().is_sleeping()) {
            woke = true;
            break;
        }
    }
    assert!(woke, "the pile must wake when the ball arrives");
    // The whole island wakes, not just the box that was hit.
    assert!(boxes.iter().all(|&b| !w.body(b).unwrap().is_sleeping()));
}

#[test]
fn removing_the_ground_wakes_what_rested_on_it() {
    let (mut w, ground, boxes) = sleeping_pile();
    assert!(w.remove_body(ground));
    assert!(boxes.iter().all(|&b| !w.body(b).unwrap().is_sleeping()));
    let y0 = w.body(boxes[0]).unwrap().position().translation.y;
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    assert!(w.body(boxes[0]).unwrap().position().translation.y < y0 - 0.5, "with no ground the pile falls");
    assert!(!w.remove_body(ground), "a removed body's key is stale");
}

#[test]
fn changing_a_sleeping_body_wakes_its_island() {
    let (mut w, _, boxes) = sleeping_pile();
    w.body_mut(boxes[11]).unwrap().set_linear_velocity(Vec2::new(0.0, 3.0)).unwrap();
    w.step(DT).unwrap();
    assert!(boxes.iter().all(|&b| !w.body(b).unwrap().is_sleeping()));
    assert!(w.body(boxes[11]).unwrap().position().translation.y > 3.5);
}

#[test]
fn sleep_can_be_disabled() {
    let mut w = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(20.0, 1.0))).unwrap();
    let b = w.add_body(BodyDesc::dynamic().translation(0.0, 0.5));
    w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
    for _ in 0..300 {
        w.step(DT).unwrap();
    }
    assert!(!w.body(b).unwrap().is_sleeping());
}
