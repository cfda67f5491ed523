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
    w.remove_body(ground).expect("a live body");
    assert!(boxes.iter().all(|&b| !w.body(b).unwrap().is_sleeping()));
    let y0 = w.body(boxes[0]).unwrap().position().translation.y;
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    assert!(w.body(boxes[0]).unwrap().position().translation.y < y0 - 0.5, "with no ground the pile falls");
    assert!(w.remove_body(ground).is_err(), "a removed body's key is stale");
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

fn two_box_stack(w: &mut World, x: Real) -> [BodyKey; 2] {
    [0.5, 1.5].map(|y| {
        let b = w.add_body(BodyDesc::dynamic().translation(x, y));
        w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
        b
    })
}

fn settle(w: &mut World, seconds: Real) {
    for _ in 0..(seconds / DT) as usize {
        w.step(DT).unwrap();
    }
}

/// Piles that share only the (fixed) ground are separate islands: hitting one
/// wakes it and leaves the other asleep.
#[test]
fn separate_piles_are_separate_islands() {
    let mut w = World::new(WorldSettings::default());
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(40.0, 1.0))).unwrap();
    let left = two_box_stack(&mut w, -10.0);
    let right = two_box_stack(&mut w, 10.0);
    settle(&mut w, 3.0);
    assert!(left.iter().chain(&right).all(|&b| w.body(b).unwrap().is_sleeping()));
    w.body_mut(left[1]).unwrap().apply_impulse(Vec2::new(0.5, 0.0)).unwrap();
    w.step(DT).unwrap();
    assert!(left.iter().all(|&b| !w.body(b).unwrap().is_sleeping()), "the pushed pile wakes as a whole");
    assert!(right.iter().all(|&b| w.body(b).unwrap().is_sleeping()), "the other pile sleeps on");
}

/// An island whose bodies stop touching is split when it falls asleep, so the
/// pieces sleep and wake on their own.
#[test]
fn an_island_that_came_apart_sleeps_in_pieces() {
    let mut w = World::new(WorldSettings::default());
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(40.0, 1.0))).unwrap();
    let [bottom, top] = two_box_stack(&mut w, 0.0);
    settle(&mut w, 0.2);
    // Lift the top box off and put it down far away: the stack's island loses its link.
    w.set_body_position(top, lamina_geometry::Isometry::translation(15.0, 0.5)).unwrap();
    settle(&mut w, 3.0);
    assert!(w.body(bottom).unwrap().is_sleeping() && w.body(top).unwrap().is_sleeping());
    w.body_mut(bottom).unwrap().apply_impulse(Vec2::new(0.0, 1.0)).unwrap();
    w.step(DT).unwrap();
    assert!(!w.body(bottom).unwrap().is_sleeping());
    assert!(w.body(top).unwrap().is_sleeping(), "the piece far away is its own island now");
}

/// Bodies created asleep stay asleep while they get their colliders, cost
/// nothing, and wake when something reaches them.
#[test]
fn bodies_created_asleep_stay_asleep_until_touched() {
    let mut w = World::new(WorldSettings { gravity: Vec2::zeros(), ..WorldSettings::default() });
    let wall: Vec<BodyKey> = (0..10)
        .map(|i| {
            let b = w.add_body(BodyDesc::dynamic().translation(5.0, i as Real * 0.5).asleep(true));
            w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.25, 0.25))).unwrap();
            b
        })
        .collect();
    w.step(DT).unwrap();
    assert!(wall.iter().all(|&b| w.body(b).unwrap().is_sleeping()));
    assert_eq!(w.profile().awake_bodies, 0);
    let ball = w.add_body(BodyDesc::dynamic().translation(0.0, 0.0).linear_velocity(Vec2::new(10.0, 0.0)));
    w.add_collider(ball, ColliderDesc::new(Shape::circle(0.25))).unwrap();
    settle(&mut w, 1.0);
    assert!(!w.body(wall[0]).unwrap().is_sleeping(), "the ball woke the box it hit");
}

#[test]
fn a_pile_shares_one_island_and_the_ground_joins_none() {
    let (w, ground, boxes) = sleeping_pile();
    assert_eq!(w.body(ground).unwrap().island(), None);
    let island = w.body(boxes[0]).unwrap().island();
    assert!(island.is_some());
    assert!(boxes.iter().all(|&b| w.body(b).unwrap().island() == island));
    let lone = w.body(boxes[0]).unwrap();
    assert!(!lone.is_bullet());
    // The broad phase's box holds the collider's own.
    for (_, c) in w.colliders() {
        let (tight, proxy) = (c.aabb(), c.proxy_aabb());
        assert!(proxy.mins.x <= tight.mins.x && proxy.mins.y <= tight.mins.y);
        assert!(proxy.maxs.x >= tight.maxs.x && proxy.maxs.y >= tight.maxs.y);
    }
}
