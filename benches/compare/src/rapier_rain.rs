//! `rain` in Rapier2D: the five floors of boxes of `benches/scenes/rain.rs`
//! and its ragdolls (`benches/scenes/human.rs`), added and removed on the same
//! schedule, from the same numbers (the scene modules' constants and bone
//! table, not copies).
//!
//! What carries over exactly: the bodies, their capsules and rounded feet,
//! densities, frictions, linear damping and positions; the revolute joints
//! with their limits; the collision rules. Box2D's (and Lamina's) rule that
//! shapes of one negative group never collide is written as Rapier
//! interaction groups: each of a group's five ragdoll indices gets a bit of
//! its own, which the other ragdolls' filters hold and its own does not.
//!
//! What does not: a Lamina ragdoll joint has a motor of speed 0 (joint
//! friction, its torque capped) and a spring toward the pose at creation,
//! two rows; a Rapier revolute joint has one motor per axis. Here that motor
//! is a spring toward the pose at creation (`motor_position`, stiffness
//! (2π·f)² and damping 2ζ·2π·f in Rapier's default acceleration-based model)
//! with its torque capped at the joint friction's: the same rows to solve,
//! a softer pose. The comparison is of cost, not of motion.

use std::f32::consts::PI;

use rapier2d::prelude::*;

use crate::scenes::human::{BONES, FOOT, FOOT_ROUNDING, LOWER_LEGS};
use crate::scenes::rain::{
    FLOOR_SPACING, GRID_COUNT, GRID_SIZE, GROUP_SIZE, JOINTS, RAGDOLL_SPACING, ROWS, group_column,
    group_origin, group_tag, spawn_at,
};

/// The scene's name.
pub const NAME: &str = "rain";

/// Floors and ragdoll parts: category 1 (the floors) and 2 (the ragdolls).
const FLOORS: Group = Group::GROUP_1;
const RAGDOLLS: Group = Group::GROUP_2;

/// The bit of the `i`-th ragdoll of every group (collision group −(i + 1)).
fn index_bit(i: usize) -> Group {
    Group::from_bits_truncate(Group::GROUP_3.bits() << i)
}

/// Every ragdoll index's bit.
fn index_bits() -> Group {
    (0..GROUP_SIZE).fold(Group::empty(), |bits, i| bits | index_bit(i))
}

/// The floors: one fixed body with five rows of 501 boxes of side 0.5.
pub fn build(world: &mut PhysicsWorld) {
    let ground = world.insert_body(RigidBodyBuilder::fixed());
    let groups = InteractionGroups::new(FLOORS, Group::ALL, InteractionTestMode::And);
    for row in 0..ROWS {
        let y = FLOOR_SPACING * row as Real;
        let mut x = -0.5 * GRID_COUNT as Real * GRID_SIZE;
        for _ in 0..=GRID_COUNT {
            let square = ColliderBuilder::cuboid(0.5 * GRID_SIZE, 0.5 * GRID_SIZE)
                .density(1.0)
                .friction(0.6)
                .friction_combine_rule(CoefficientCombineRule::GeometricMean)
                .restitution_combine_rule(CoefficientCombineRule::Max)
                .translation(Vector::new(x, y))
                .collision_groups(groups);
            world.insert_collider(square, Some(ground));
            x += GRID_SIZE;
        }
    }
}

/// Before step `step`: `rain::update`'s schedule. Every 8th step the next
/// column's groups appear; once all columns are there, the oldest column's
/// bodies (found by their user data) are removed with their colliders and
/// joints first.
pub fn update(world: &mut PhysicsWorld, step: usize) {
    let Some((column, renew)) = spawn_at(step) else { return };
    if renew {
        let doomed: Vec<RigidBodyHandle> = world
            .bodies
            .iter()
            .filter(|(_, b)| b.user_data != 0 && group_column(b.user_data as u64) == column)
            .map(|(handle, _)| handle)
            .collect();
        for body in doomed {
            world.remove_body(body);
        }
    }
    for row in 0..ROWS {
        let mut position = group_origin(row, column);
        for i in 0..GROUP_SIZE {
            add_human(world, Vector::new(position.x, position.y), i, group_tag(row, column));
            position.x += RAGDOLL_SPACING;
        }
    }
}

/// A ragdoll with its feet at `position`, the `index`-th of its group.
fn add_human(world: &mut PhysicsWorld, position: Vector, index: usize, user_data: u64) {
    let own = index_bit(index);
    let others = index_bits() ^ own;
    let body_groups = InteractionGroups::new(RAGDOLLS | own, FLOORS | others, InteractionTestMode::And);
    let foot_groups = InteractionGroups::new(RAGDOLLS | own, FLOORS, InteractionTestMode::And);
    let foot: Vec<Vector> = FOOT.iter().map(|&(x, y)| Vector::new(x, y)).collect();
    let mut handles = [RigidBodyHandle::invalid(); BONES.len()];
    for (i, bone) in BONES.iter().enumerate() {
        let at = Vector::new(position.x, position.y + bone.y);
        let body = RigidBodyBuilder::dynamic()
            .translation(at)
            .linear_damping(bone.damping)
            .user_data(u128::from(user_data));
        let body = world.insert_body(body);
        let capsule = ColliderBuilder::capsule_from_endpoints(
            Vector::new(0.0, bone.core.0),
            Vector::new(0.0, bone.core.1),
            bone.radius,
        );
        world.insert_collider(material(capsule, 0.2).collision_groups(body_groups), Some(body));
        if LOWER_LEGS.contains(&i) {
            let shape = ColliderBuilder::round_convex_hull(&foot, FOOT_ROUNDING)
                .expect("the foot outline is a convex polygon");
            world.insert_collider(material(shape, 0.05).collision_groups(foot_groups), Some(body));
        }
        if let Some(parent) = bone.parent {
            let pivot = Vector::new(position.x, position.y + bone.pivot_y);
            let parent_at = Vector::new(position.x, position.y + BONES[parent].y);
            let omega = 2.0 * PI * JOINTS.hertz;
            let joint = RevoluteJointBuilder::new()
                .local_anchor1(pivot - parent_at)
                .local_anchor2(pivot - at)
                .limits([bone.limits.0 * PI, bone.limits.1 * PI])
                .motor_position(0.0, omega * omega, 2.0 * JOINTS.damping_ratio * omega)
                .motor_max_force(JOINTS.friction_torque * bone.friction_scale);
            world.insert_impulse_joint(handles[parent], body, joint);
        }
        handles[i] = body;
    }
}

/// A ragdoll collider of `shape`: density 1, friction `friction`, mixed as
/// Lamina mixes them.
fn material(shape: ColliderBuilder, friction: Real) -> ColliderBuilder {
    shape
        .density(1.0)
        .friction(friction)
        .restitution(0.0)
        .friction_combine_rule(CoefficientCombineRule::GeometricMean)
        .restitution_combine_rule(CoefficientCombineRule::Max)
}
