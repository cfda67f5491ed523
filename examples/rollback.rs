//! Rollback, as networked games do it: save the world, step ahead on the
//! input you guessed, and when the real input arrives, restore and step again.
//! A ball rolls on a floor of boxes; the player pushes it left or right.
//!
//! The example saves a snapshot, steps two seconds with one input, restores,
//! steps with another, restores again and replays the first: the replay must
//! end in exactly the bits of the first run.
//!
//! `cargo run --release --features serde --example rollback`

use std::time::Instant;

use lamina2d::prelude::*;

const DT: Real = 1.0 / 60.0;
/// Frames stepped ahead on each input.
const FRAMES: usize = 120;

/// A ball on a floor with a few loose boxes in its way.
fn build() -> (World, BodyKey) {
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    world
        .add_collider(ground, ColliderDesc::new(Shape::rectangle(20.0, 0.5)).friction(0.8))
        .expect("valid ground");
    for i in 0..8 {
        let x = -7.0 + 2.0 * i as Real;
        for j in 0..3 {
            let b = world.add_body(BodyDesc::dynamic().translation(x, 1.0 + j as Real * 0.6));
            world
                .add_collider(b, ColliderDesc::new(Shape::rectangle(0.3, 0.3)).friction(0.6))
                .expect("valid box");
        }
    }
    let ball = world.add_body(BodyDesc::dynamic().translation(0.0, 2.0));
    world
        .add_collider(ball, ColliderDesc::new(Shape::circle(0.5)).density(4.0).friction(0.9))
        .expect("valid ball");
    (world, ball)
}

/// Steps `FRAMES` frames pushing the ball with `input` (−1 left, +1 right).
fn play(world: &mut World, ball: BodyKey, input: Real) -> u64 {
    for _ in 0..FRAMES {
        if let Some(b) = world.body_mut(ball) {
            let _ = b.apply_force(Vec2::new(60.0 * input, 0.0));
        }
        world.step(DT).expect("a positive time step");
    }
    world.state_hash()
}

fn main() {
    let (mut world, ball) = build();
    for _ in 0..60 {
        world.step(DT).expect("a positive time step");
    }
    let t = Instant::now();
    let saved = world.snapshot();
    let save_time = t.elapsed();
    println!("saved frame 60: {} bytes in {:.3} ms", saved.len(), save_time.as_secs_f64() * 1e3);

    let right = play(&mut world, ball, 1.0);
    let x_right = world.body(ball).map_or(0.0, |b| b.position().translation.x);
    println!("guessed input (push right), {FRAMES} frames: ball at x = {x_right:.3}, hash {right:016x}");

    let t = Instant::now();
    let mut world = World::restore(&saved).expect("our own snapshot");
    println!("restored in {:.3} ms", t.elapsed().as_secs_f64() * 1e3);
    let left = play(&mut world, ball, -1.0);
    let x_left = world.body(ball).map_or(0.0, |b| b.position().translation.x);
    println!("real input (push left), {FRAMES} frames: ball at x = {x_left:.3}, hash {left:016x}");
    assert_ne!(left, right, "another input must give another world");

    let mut world = World::restore(&saved).expect("our own snapshot");
    let replay = play(&mut world, ball, 1.0);
    println!("replayed the first input: hash {replay:016x}");
    assert_eq!(replay, right, "the replay must end in the first run's bits");
    println!("the replay ended in exactly the bits of the first run");
}
