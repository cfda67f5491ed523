//! Continuous collision: fast bodies stop at thin fixed geometry, bullets at
//! thin moving bodies, turning bodies do not swing a corner through a wall,
//! and bodies that slide fast along the ground are not held back by sweeps.
//! Each scene is also run with continuous collision off, where it tunnels:
//! the sweeps, not the speculative contacts, are what stop the bodies.

use lamina_dynamics::{BodyDesc, BodyKey, ColliderDesc, World, WorldSettings};
use lamina_geometry::{Point, Real, Shape, Vec2};

fn world(continuous: bool, gravity: Vec2) -> World {
    World::new(WorldSettings { gravity, enable_continuous: continuous, ..WorldSettings::default() })
}

fn wall(w: &mut World, x: Real, half_thickness: Real) -> BodyKey {
    let body = w.add_body(BodyDesc::fixed().translation(x, 0.0));
    w.add_collider(body, ColliderDesc::new(Shape::rectangle(half_thickness, 5.0))).expect("valid");
    body
}

/// A 5 cm ball (2.5 cm radius) at 300 m/s, 5 m per step at 60 Hz, against a
/// 10 cm wall 12 m ahead (so that no step ends inside it): it stops at the
/// wall and stays on its side.
fn ball_against_wall(continuous: bool) -> Real {
    let mut w = world(continuous, Vec2::zeros());
    wall(&mut w, 12.05, 0.05);
    let ball = w.add_body(BodyDesc::dynamic().linear_velocity(Vec2::new(300.0, 0.0)));
    w.add_collider(ball, ColliderDesc::new(Shape::circle(0.025))).expect("valid");
    let mut max_x: Real = 0.0;
    for _ in 0..120 {
        w.step(1.0 / 60.0).expect("valid step");
        max_x = max_x.max(w.body(ball).expect("live").translation().x);
    }
    max_x
}

#[test]
fn a_fast_small_ball_stops_at_a_thin_wall() {
    let max_x = ball_against_wall(true);
    // The wall's face is at x = 12; the ball's centre may reach 12 − 0.025
    // (and the slop) but never the far side.
    assert!(max_x < 12.0, "the ball reached x = {max_x}");
    assert!(max_x > 11.9, "the ball stopped early, at x = {max_x}");
}

#[test]
fn without_sweeps_the_same_ball_tunnels() {
    let max_x = ball_against_wall(false);
    assert!(max_x > 12.1, "the ball stopped at x = {max_x} without continuous collision");
}

/// A bullet at 200 m/s against a free 4 cm plank floating 5 m ahead.
fn bullet_against_plank(bullet: bool) -> (Real, Real, Real) {
    let mut w = world(true, Vec2::zeros());
    let plank = w.add_body(BodyDesc::dynamic().translation(5.0, 0.0));
    w.add_collider(plank, ColliderDesc::new(Shape::rectangle(0.02, 1.0)).density(5.0)).expect("valid");
    let shot = w.add_body(BodyDesc::dynamic().linear_velocity(Vec2::new(200.0, 0.0)).bullet(bullet));
    w.add_collider(shot, ColliderDesc::new(Shape::circle(0.05)).density(20.0)).expect("valid");
    for _ in 0..30 {
        w.step(1.0 / 60.0).expect("valid step");
    }
    let (s, p) = (w.body(shot).expect("live"), w.body(plank).expect("live"));
    (s.translation().x, p.translation().x, p.linear_velocity().x)
}

#[test]
fn a_bullet_pushes_a_thin_free_plank_instead_of_passing_it() {
    let (shot_x, plank_x, plank_v) = bullet_against_plank(true);
    assert!(shot_x < plank_x, "the bullet at {shot_x} passed the plank at {plank_x}");
    assert!(plank_v > 1.0, "the plank was not pushed: {plank_v} m/s");
    let (shot_x, plank_x, _) = bullet_against_plank(false);
    assert!(shot_x > plank_x, "a plain fast body passed as well: {shot_x} vs {plank_x}");
}

/// A 2 m rod spinning at 60 rad/s (its tips at 60 m/s), drifting towards a
/// fixed 2 cm segment-thin wall: each step turns it by a full radian, enough
/// to swing a tip through the wall between two steps.
fn spinning_rod(continuous: bool) -> Real {
    let mut w = world(continuous, Vec2::zeros());
    let body = w.add_body(BodyDesc::fixed());
    w.add_collider(body, ColliderDesc::new(Shape::segment(Point::new(1.5, -5.0), Point::new(1.5, 5.0))))
        .expect("valid");
    let rod = w.add_body(BodyDesc::dynamic().linear_velocity(Vec2::new(1.0, 0.0)).angular_velocity(60.0));
    w.add_collider(rod, ColliderDesc::new(Shape::rectangle(1.0, 0.05))).expect("valid");
    let mut max_x: Real = Real::MIN;
    for _ in 0..120 {
        w.step(1.0 / 60.0).expect("valid step");
        max_x = max_x.max(w.body(rod).expect("live").translation().x);
    }
    max_x
}

#[test]
fn a_spinning_rod_does_not_swing_through_a_thin_wall() {
    let max_x = spinning_rod(true);
    assert!(max_x < 1.5, "the rod's centre reached x = {max_x}, beyond the wall at 1.5");
}

/// A box sliding at 20 m/s on frictionless ground moves 20 cm per step, more
/// than half its 25 cm inner radius: it is swept every step, starting each
/// sweep in contact with the ground, and must not be stopped by it.
#[test]
fn a_box_sliding_fast_on_the_ground_is_not_held_back() {
    let mut w = world(true, Vec2::new(0.0, -10.0));
    let ground = w.add_body(BodyDesc::fixed());
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(100.0, 0.5)).friction(0.0)).expect("valid");
    let block =
        w.add_body(BodyDesc::dynamic().translation(-50.0, 0.75).linear_velocity(Vec2::new(12.0, 0.0)));
    w.add_collider(block, ColliderDesc::new(Shape::rectangle(0.25, 0.25)).friction(0.0)).expect("valid");
    for _ in 0..60 {
        w.step(1.0 / 60.0).expect("valid step");
    }
    let b = w.body(block).expect("live");
    assert!((b.translation().x - -38.0).abs() < 0.05, "the block is at x = {}", b.translation().x);
    assert!((b.linear_velocity().x - 12.0).abs() < 0.05, "v = {}", b.linear_velocity().x);
    assert!((b.translation().y - 0.75).abs() < 0.02, "y = {}", b.translation().y);
}
