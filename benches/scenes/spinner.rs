//! `spinner`: 6,076 capsules, circles and squares stirred by a paddle spinning
//! at 5 rad/s inside a closed chain of 360 points, driven as in Box2D by a
//! revolute motor of unbounded torque to a fixed body at its centre.

use std::f64::consts::TAU;

use lamina2d::prelude::*;

use super::{attach, drive, material, settings};

/// The scene's name.
pub const NAME: &str = "spinner";
/// Steps of one benchmark run.
pub const STEPS: usize = 500;

/// Points of the loop.
const LOOP_POINTS: usize = 360;
/// Bodies stirred.
const BODIES: usize = 6076;

/// The loop: a closed chain of radius 40 around (0, 32), listed clockwise so
/// that its solid side faces in, friction 0.1, on one fixed body. The
/// paddle: a box of half-extents 0.4 × 20 rounded by 0.2, friction 0, centred at
/// (0, 12), spinning at 5 rad/s. The bodies (density 0.25, friction 0.1,
/// restitution 0.1) cycle capsule (centres (±0.25, 0), radius 0.25), circle
/// (radius 0.35) and square (half-extent 0.35), placed from (−23, 2), x stepping
/// by 0.5 and starting the next row 0.5 higher once it reaches 23.
pub fn build() -> World {
    let mut world = World::new(settings());

    let ground = world.add_body(BodyDesc::fixed());
    let points: Vec<Point> = (0..LOOP_POINTS)
        .map(|i| {
            let angle = -TAU * i as f64 / LOOP_POINTS as f64;
            Point::new((40.0 * angle.cos()) as Real, (40.0 * angle.sin() + 32.0) as Real)
        })
        .collect();
    world.add_chain(ground, ChainDesc::new(&points).closed(true).friction(0.1)).expect("a valid loop");

    let paddle = world.add_body(BodyDesc::dynamic().translation(0.0, 12.0));
    attach(&mut world, paddle, material(Shape::rounded_rectangle(0.4, 20.0, 0.2)).friction(0.0));
    drive(&mut world, paddle, Point::new(0.0, 12.0), 5.0, Real::MAX);

    let shapes = [
        Shape::capsule(Point::new(-0.25, 0.0), Point::new(0.25, 0.0), 0.25),
        Shape::circle(0.35),
        Shape::rectangle(0.35, 0.35),
    ];
    let (mut x, mut y): (Real, Real) = (-23.0, 2.0);
    for i in 0..BODIES {
        let body = world.add_body(BodyDesc::dynamic().translation(x, y));
        let desc = material(shapes[i % 3].clone()).density(0.25).friction(0.1).restitution(0.1);
        attach(&mut world, body, desc);
        x += 0.5;
        if x >= 23.0 {
            x = -23.0;
            y += 0.5;
        }
    }
    world
}
