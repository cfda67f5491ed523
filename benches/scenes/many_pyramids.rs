//! `many_pyramids`: 20 × 20 small pyramids of 55 squares each (base 10,
//! half-extent 0.5 m), 22,000 bodies, on 20 segment grounds of one fixed body.
//! Sleeping disabled.

use lamina2d::prelude::*;

use super::{add_pyramid, attach, material, settings};

/// The scene's name.
pub const NAME: &str = "many_pyramids";
/// Steps of one benchmark run.
pub const STEPS: usize = 200;

/// Rows and columns of pyramids.
const GRID: usize = 20;
/// Squares on a pyramid's bottom row.
const BASE: usize = 10;
/// Half-extent of a square, metres.
const HALF: Real = 0.5;

/// Ground k (k in 0..20) spans x ∈ [−W/2, W/2] at y = 11·k, W = 2·0.5·20·11 = 220.
/// Pyramid (row r, column c) has centre x = −W/2 + 11·c + 1 and base y = 11·r;
/// its squares sit at y = (2i + 1)·0.5 + base y, x = (i + 1)·0.5 + 2(j − i)·0.5 + centre x − 0.5.
pub fn build() -> World {
    let mut world = World::new(WorldSettings { enable_sleep: false, ..settings() });
    let spacing = 2.0 * HALF * (BASE as Real + 1.0);
    let width = 2.0 * HALF * GRID as Real * (BASE as Real + 1.0);
    let ground = world.add_body(BodyDesc::fixed());
    for k in 0..GRID {
        let y = k as Real * spacing;
        let segment = Shape::segment(Point::new(-0.5 * width, y), Point::new(0.5 * width, y));
        attach(&mut world, ground, material(segment));
    }
    for r in 0..GRID {
        let base_y = r as Real * spacing;
        for c in 0..GRID {
            let centre_x = -0.5 * width + c as Real * (BASE as Real + 1.0) + 1.0;
            add_pyramid(&mut world, BASE, HALF, centre_x - 0.5, base_y);
        }
    }
    world
}

/// The same pyramids with sleeping enabled: a world at rest once they settle
/// (the criterion group `resting` and `benches/compare --bin resting`; the
/// runner does not use it).
#[allow(dead_code)]
pub fn build_sleeping() -> World {
    let mut world = build();
    let settings = WorldSettings { enable_sleep: true, ..*world.settings() };
    world.set_settings(settings).expect("valid settings");
    world
}
