//! Four ragdolls (Box2D's human, `benches/scenes/human.rs`) thrown off the top
//! of a staircase. Shared by `examples/ragdoll.rs` and the testbed, which
//! include this file by path.

#[path = "../../benches/scenes/human.rs"]
mod human;

use human::{HumanJoints, add_human};
use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
/// Steps of the staircase, and each step's depth and rise, m.
pub const STAIRS: usize = 12;
pub const TREAD: Real = 1.2;
pub const RISE: Real = 0.4;
pub const RAGDOLLS: usize = 4;

/// The height of the top of step `i` (0 is the lowest).
pub fn step_top(i: usize) -> Real {
    (i + 1) as Real * RISE
}

/// A fixed staircase going down to the right: step `i` spans
/// x ∈ [(STAIRS − 1 − i)·TREAD, (STAIRS − i)·TREAD], and a floor beyond it.
fn build_stairs(world: &mut World) -> Result<(), String> {
    let ground = world.add_body(BodyDesc::fixed());
    for i in 0..STAIRS {
        let x = (STAIRS - 1 - i) as Real * TREAD + 0.5 * TREAD;
        let half_height = 0.5 * step_top(i);
        let step = ColliderDesc::new(Shape::rectangle(0.5 * TREAD, half_height))
            .friction(0.6)
            .local_pose(Isometry::translation(x, half_height));
        world.add_collider(ground, step).map_err(|e| e.to_string())?;
    }
    let floor = ColliderDesc::new(Shape::rectangle(20.0, 0.5))
        .friction(0.6)
        .local_pose(Isometry::translation(STAIRS as Real * TREAD + 20.0, -0.5));
    world.add_collider(ground, floor).map_err(|e| e.to_string())?;
    Ok(())
}

/// Each ragdoll's bodies carry its number plus one as user data.
pub fn bones_of(world: &World, ragdoll: usize) -> Vec<BodyKey> {
    world.bodies().filter(|(_, b)| b.user_data() == ragdoll as u64 + 1).map(|(k, _)| k).collect()
}

/// The staircase and the ragdolls standing on its top step, one behind the
/// other, each thrown forward.
pub fn build() -> Result<World, String> {
    let mut world = World::new(WorldSettings::default());
    build_stairs(&mut world)?;
    let joints = HumanJoints { friction_torque: 0.5, hertz: 2.0, damping_ratio: 0.5 };
    let top = step_top(STAIRS - 1);
    for r in 0..RAGDOLLS {
        let feet = Point::new(0.2 + 0.25 * r as Real, top + 0.05 + 2.0 * r as Real);
        add_human(&mut world, feet, -(r as i32 + 1), joints, r as u64 + 1);
        for key in bones_of(&world, r) {
            let body = world.body_mut(key).ok_or("a bone is missing")?;
            body.set_linear_velocity(Vec2::new(2.0 + 0.5 * r as Real, 1.0)).map_err(|e| e.to_string())?;
        }
    }
    Ok(world)
}

/// The staircase, the ragdolls above it and the floor beyond.
pub fn view() -> (Point, Point) {
    let right = STAIRS as Real * TREAD + 6.0;
    (Point::new(-0.5, -0.5), Point::new(right, step_top(STAIRS - 1) + 9.0))
}
