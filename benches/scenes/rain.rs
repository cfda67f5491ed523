//! `rain`: ragdolls rain onto five floors of boxes. Every 8th step a column of
//! 5 groups of 5 ragdolls appears, one group per floor, for 40 columns; after
//! that the oldest column is removed and made anew each time, so bodies and
//! joints are added and removed all along (about 11,000 bodies and 10,000
//! joints at the peak).

use lamina2d::prelude::*;

use super::human::{HumanJoints, add_human};
use super::{attach, settings};

/// The scene's name.
pub const NAME: &str = "rain";
/// Steps of one benchmark run.
pub const STEPS: usize = 1000;

/// Floors, columns and ragdolls per group.
pub const ROWS: usize = 5;
pub const COLUMNS: usize = 40;
pub const GROUP_SIZE: usize = 5;
/// The floors: 501 boxes of 0.5 m side from x = −125, one floor every 45 m.
pub const GRID_SIZE: Real = 0.5;
pub const GRID_COUNT: usize = 500;
pub const FLOOR_SPACING: Real = 45.0;
/// The ragdolls' joint friction and springs.
pub const JOINTS: HumanJoints = HumanJoints { friction_torque: 0.05, hertz: 5.0, damping_ratio: 0.5 };
/// A column spawns on every step whose number has these bits clear.
const SPAWN_EVERY: usize = 0b111;

/// The ground: one fixed body with the five floors. Ragdolls come from
/// [`update`], which the runners call before each step.
pub fn build() -> World {
    let mut world = World::new(settings());
    let ground = world.add_body(BodyDesc::fixed());
    let square = Shape::rectangle(0.5 * GRID_SIZE, 0.5 * GRID_SIZE);
    for row in 0..ROWS {
        let y = FLOOR_SPACING * row as Real;
        let mut x = -0.5 * GRID_COUNT as Real * GRID_SIZE;
        for _ in 0..=GRID_COUNT {
            let desc = ColliderDesc::new(square.clone()).density(1.0).local_pose(Isometry::translation(x, y));
            attach(&mut world, ground, desc);
            x += GRID_SIZE;
        }
    }
    world
}

/// The schedule, by step number alone: on every 8th step, the column whose
/// groups appear, and whether that column's old groups are removed first
/// (once all 40 columns are there, the oldest is made anew).
pub fn spawn_at(step: usize) -> Option<(usize, bool)> {
    if step & SPAWN_EVERY != 0 {
        return None;
    }
    let wave = step / (SPAWN_EVERY + 1);
    Some((wave % COLUMNS, wave >= COLUMNS))
}

/// Before step `step`: the groups [`spawn_at`] names. Each ragdoll's bodies
/// carry their group's number (plus one) as user data, so a column is found
/// again by it.
pub fn update(world: &mut World, step: usize) {
    let Some((column, renew)) = spawn_at(step) else { return };
    if renew {
        let doomed: Vec<BodyKey> = world
            .bodies()
            .filter(|(_, b)| b.user_data() != 0 && group_column(b.user_data()) == column)
            .map(|(k, _)| k)
            .collect();
        for body in doomed {
            world.remove_body(body).expect("a live body");
        }
    }
    for row in 0..ROWS {
        add_group(world, row, column);
    }
}

/// The user data of the bodies of group (`row`, `column`).
pub fn group_tag(row: usize, column: usize) -> u64 {
    (row * COLUMNS + column) as u64 + 1
}

/// The column of a group's user data.
pub fn group_column(tag: u64) -> usize {
    (tag as usize - 1) % COLUMNS
}

/// Where the first ragdoll of group (`row`, `column`) stands: 40 m above
/// floor `row`, in the middle of the column's share of the floor's width.
pub fn group_origin(row: usize, column: usize) -> Point {
    let span = GRID_COUNT as Real * GRID_SIZE;
    let spacing = span / COLUMNS as Real;
    Point::new(-0.5 * span + spacing * (column as Real + 0.5), 40.0 + FLOOR_SPACING * row as Real)
}

/// The distance between neighbouring ragdolls of a group, m.
pub const RAGDOLL_SPACING: Real = 0.5;

/// Five ragdolls side by side, 0.5 m apart, 40 m above floor `row`; the
/// `i`-th of a group is in collision group −(i + 1).
fn add_group(world: &mut World, row: usize, column: usize) {
    let mut position = group_origin(row, column);
    for i in 0..GROUP_SIZE {
        add_human(world, position, -(i as i32 + 1), JOINTS, group_tag(row, column));
        position.x += RAGDOLL_SPACING;
    }
}
