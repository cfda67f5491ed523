//! The cart-pole of reinforcement learning: a 1 kg cart on a rail (±2.4 m)
//! and a 1 m pole hinged on it, sleep off. Not a benchmark scene of `ALL`: the
//! many-worlds example and the small-world comparison with Rapier2D build it.

use lamina2d::prelude::*;

/// A cart-pole world, and the keys of its cart and pole. Ground: a box of
/// half-extents (5, 0.1) at the origin. Cart: half-extents (0.25, 0.1),
/// density 20, at (0, 0.5), on a prismatic joint along x with limits ±2.4 m.
/// Pole: half-extents (0.025, 0.5), density 4, centred at (0, 1), on a
/// revolute joint at (0, 0.5).
pub fn build() -> (World, BodyKey, BodyKey) {
    let mut world = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    let ground = world.add_body(BodyDesc::fixed());
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(5.0, 0.1))).expect("valid ground");
    let cart = world.add_body(BodyDesc::dynamic().translation(0.0, 0.5));
    world
        .add_collider(cart, ColliderDesc::new(Shape::rectangle(0.25, 0.1)).density(20.0))
        .expect("valid cart");
    let pole = world.add_body(BodyDesc::dynamic().translation(0.0, 1.0));
    world
        .add_collider(pole, ColliderDesc::new(Shape::rectangle(0.025, 0.5)).density(4.0))
        .expect("valid pole");
    let rail =
        JointDesc::prismatic(ground, cart, Point::new(0.0, 0.5), Vec2::new(1.0, 0.0)).limits(-2.4, 2.4);
    world.add_joint(rail).expect("valid rail");
    world.add_joint(JointDesc::revolute(cart, pole, Point::new(0.0, 0.5))).expect("valid hinge");
    (world, cart, pole)
}
