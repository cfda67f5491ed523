//! The benchmark scenes of Lamina, one module per scene, with the exact numbers
//! of Box2D v3's benchmark scenes (see `SCENES.md` in the project's notes and
//! `docs/benchmarks.md`). Shared by the criterion bench `benches/scenes.rs` and
//! the runner `examples/benchmark.rs`, which include this file by path.
//!
//! Common settings: gravity (0, −10) m/s², a step of 1/60 s, 4 substeps,
//! density 1 kg/m², friction 0.6, restitution 0. The pyramids run with sleeping
//! disabled, so that every body works every step. As in Box2D, the drum of
//! `tumbler` and the paddle of `spinner` are dynamic bodies driven by revolute
//! motors.

use lamina2d::prelude::*;

pub mod human;
pub mod joint_grid;
pub mod large_pyramid;
pub mod many_pyramids;
pub mod rain;
pub mod smash;
pub mod spinner;
pub mod tumbler;

/// The time step of every scene, seconds.
pub const TIME_STEP: Real = 1.0 / 60.0;

/// A benchmark scene: its name, how many steps a benchmark run takes, and how to build it.
pub struct Scene {
    /// Name used on the command line and in reports.
    pub name: &'static str,
    /// Steps of one benchmark run.
    pub steps: usize,
    /// Builds the scene's world, ready to step.
    pub build: fn() -> World,
    /// Called with the step's number (from 0) before each step, for scenes
    /// that add and remove bodies as they go.
    pub update: Option<fn(&mut World, usize)>,
}

impl Scene {
    /// Runs the scene's update for step `step`, if it has one.
    pub fn before_step(&self, world: &mut World, step: usize) {
        if let Some(update) = self.update {
            update(world, step);
        }
    }
}

/// Every scene, in the order reports list them.
pub const ALL: [Scene; 7] = [
    Scene {
        name: large_pyramid::NAME,
        steps: large_pyramid::STEPS,
        build: large_pyramid::build,
        update: None,
    },
    Scene {
        name: many_pyramids::NAME,
        steps: many_pyramids::STEPS,
        build: many_pyramids::build,
        update: None,
    },
    Scene { name: smash::NAME, steps: smash::STEPS, build: smash::build, update: None },
    Scene { name: tumbler::NAME, steps: tumbler::STEPS, build: tumbler::build, update: None },
    Scene { name: spinner::NAME, steps: spinner::STEPS, build: spinner::build, update: None },
    Scene { name: joint_grid::NAME, steps: joint_grid::STEPS, build: joint_grid::build, update: None },
    Scene { name: rain::NAME, steps: rain::STEPS, build: rain::build, update: Some(rain::update) },
];

/// The common settings: gravity (0, −10) m/s², 4 substeps, sleeping enabled.
fn settings() -> WorldSettings {
    WorldSettings { gravity: Vec2::new(0.0, -10.0), substeps: 4, ..WorldSettings::default() }
}

/// A collider of `shape` with the common material: density 1, friction 0.6, restitution 0.
fn material(shape: Shape) -> ColliderDesc {
    ColliderDesc::new(shape).density(1.0).friction(0.6).restitution(0.0)
}

/// Adds a collider that the scene's fixed numbers make valid.
fn attach(world: &mut World, body: BodyKey, desc: ColliderDesc) {
    if let Err(err) = world.add_collider(body, desc) {
        panic!("a benchmark scene's collider was refused: {err}");
    }
}

/// Drives `body` about `center` at `speed` rad/s with at most `max_torque`
/// N·m, through a revolute motor to a fixed body there.
fn drive(world: &mut World, body: BodyKey, center: Point, speed: Real, max_torque: Real) {
    let hub = world.add_body(BodyDesc::fixed().translation(center.x, center.y));
    if let Err(err) = world.add_joint(JointDesc::revolute(hub, body, center).motor(speed, max_torque)) {
        panic!("a benchmark scene's motor was refused: {err}");
    }
}

/// Adds a pyramid of squares of half-extent `a` with `base` squares on its
/// bottom row: row i in 0..base sits at y = (2i + 1)·a + `base_y`, its squares
/// at x = (i + 1)·a + 2(j − i)·a + `x_offset` for j in i..base.
fn add_pyramid(world: &mut World, base: usize, a: Real, x_offset: Real, base_y: Real) {
    let square = Shape::rectangle(a, a);
    for i in 0..base {
        let y = (2 * i + 1) as Real * a + base_y;
        for j in i..base {
            let x = (i + 1) as Real * a + 2.0 * (j - i) as Real * a + x_offset;
            let body = world.add_body(BodyDesc::dynamic().translation(x, y));
            attach(world, body, material(square.clone()));
        }
    }
}
