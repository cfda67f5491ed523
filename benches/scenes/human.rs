//! A ragdoll with the bones, limits and joint settings of Box2D v3.1's
//! `shared/human.c`, at scale 1: eleven capsule bones (hip, torso, head, upper
//! and lower legs with a foot on each lower leg, upper and lower arms) joined
//! by ten revolute joints with angle limits, a motor of speed 0 as joint
//! friction, and a spring.

use lamina2d::prelude::*;

/// Joint settings of a ragdoll.
#[derive(Clone, Copy, Debug)]
pub struct HumanJoints {
    /// Joint friction torque, N·m, scaled per bone.
    pub friction_torque: Real,
    /// Spring stiffness, Hz, and damping ratio toward the pose at creation.
    pub hertz: Real,
    pub damping_ratio: Real,
}

/// One bone: its body's position above the feet, its capsule (half-length of
/// the core, radius, the core's offset along y), its linear damping, its
/// parent and the joint to it (pivot height, limits as fractions of π), and
/// the share of the friction torque its joint gets.
pub struct Bone {
    pub y: Real,
    pub core: (Real, Real),
    pub radius: Real,
    pub damping: Real,
    pub parent: Option<usize>,
    pub pivot_y: Real,
    pub limits: (Real, Real),
    pub friction_scale: Real,
}

const HIP: usize = 0;
const TORSO: usize = 1;
const UPPER_LEFT_LEG: usize = 3;
const UPPER_RIGHT_LEG: usize = 5;
const UPPER_LEFT_ARM: usize = 7;
const UPPER_RIGHT_ARM: usize = 9;

/// A bone from its table row: see [`Bone`].
#[allow(clippy::too_many_arguments)]
const fn bone(
    y: Real,
    core: (Real, Real),
    radius: Real,
    damping: Real,
    parent: Option<usize>,
    pivot_y: Real,
    limits: (Real, Real),
    friction_scale: Real,
) -> Bone {
    Bone { y, core, radius, damping, parent, pivot_y, limits, friction_scale }
}

/// The bones, parents before children: body height, capsule core and radius,
/// linear damping, parent, pivot height, limits (× π) and friction share. The
/// core runs from `core.0` to `core.1` along the bone's y axis.
#[rustfmt::skip]
pub const BONES: [Bone; 11] = [
    bone(0.95,  (-0.02, 0.02),   0.095, 0.0, None,                  0.0,   (0.0, 0.0),    1.0),  // hip
    bone(1.2,   (-0.135, 0.135), 0.09,  0.0, Some(HIP),             1.0,   (-0.25, 0.0),  0.5),  // torso
    bone(1.475, (-0.038, 0.039), 0.075, 0.1, Some(TORSO),           1.4,   (-0.3, 0.1),   0.25), // head
    bone(0.775, (-0.125, 0.125), 0.06,  0.0, Some(HIP),             0.9,   (-0.05, 0.4),  1.0),  // upper left leg
    bone(0.475, (-0.155, 0.125), 0.045, 0.0, Some(UPPER_LEFT_LEG),  0.625, (-0.5, -0.02), 0.5),  // lower left leg
    bone(0.775, (-0.125, 0.125), 0.06,  0.0, Some(HIP),             0.9,   (-0.05, 0.4),  1.0),  // upper right leg
    bone(0.475, (-0.155, 0.125), 0.045, 0.0, Some(UPPER_RIGHT_LEG), 0.625, (-0.5, -0.02), 0.5),  // lower right leg
    bone(1.225, (-0.125, 0.125), 0.035, 0.0, Some(TORSO),           1.35,  (-0.1, 0.8),   0.5),  // upper left arm
    bone(0.975, (-0.125, 0.125), 0.03,  0.1, Some(UPPER_LEFT_ARM),  1.1,   (-0.2, 0.3),   0.1),  // lower left arm
    bone(1.225, (-0.125, 0.125), 0.035, 0.0, Some(TORSO),           1.35,  (-0.1, 0.8),   0.5),  // upper right arm
    bone(0.975, (-0.125, 0.125), 0.03,  0.1, Some(UPPER_RIGHT_ARM), 1.1,   (-0.2, 0.3),   0.1),  // lower right arm
];

/// The lower legs, which carry the feet.
pub const LOWER_LEGS: [usize; 2] = [4, 6];

/// Lower legs carry a foot: this outline, rounded by 1.5 cm.
pub const FOOT: [(Real, Real); 4] = [(-0.03, -0.185), (0.11, -0.185), (0.11, -0.16), (-0.03, -0.14)];
pub const FOOT_ROUNDING: Real = 0.015;

/// Adds a ragdoll standing with its feet at `position`. Its bones never
/// collide with each other (negative `group`, shared by every ragdoll given
/// the same one, as in Box2D); they are category 2 and collide with categories
/// 1 and 2, the feet with category 1 only. Every body gets `user_data`.
pub fn add_human(world: &mut World, position: Point, group: i32, joints: HumanJoints, user_data: u64) {
    let pi = std::f64::consts::PI as Real;
    let body_filter = CollisionFilter { category: 2, mask: 1 | 2, group };
    let foot_filter = CollisionFilter { category: 2, mask: 1, group };
    let foot = Shape::rounded_polygon(&FOOT.map(|(x, y)| Point::new(x, y)), FOOT_ROUNDING)
        .expect("the foot outline is a valid polygon");
    let mut keys = [BodyKey::default(); BONES.len()];
    for (i, bone) in BONES.iter().enumerate() {
        let desc = BodyDesc::dynamic()
            .translation(position.x, position.y + bone.y)
            .linear_damping(bone.damping)
            .user_data(user_data);
        let body = world.add_body(desc);
        let capsule = Shape::capsule(Point::new(0.0, bone.core.0), Point::new(0.0, bone.core.1), bone.radius);
        add(world, body, ColliderDesc::new(capsule).density(1.0).friction(0.2).filter(body_filter));
        if LOWER_LEGS.contains(&i) {
            add(world, body, ColliderDesc::new(foot.clone()).density(1.0).friction(0.05).filter(foot_filter));
        }
        if let Some(parent) = bone.parent {
            let pivot = Point::new(position.x, position.y + bone.pivot_y);
            let joint = JointDesc::revolute(keys[parent], body, pivot)
                .limits(bone.limits.0 * pi, bone.limits.1 * pi)
                .motor(0.0, joints.friction_torque * bone.friction_scale)
                .spring(joints.hertz, joints.damping_ratio);
            if let Err(err) = world.add_joint(joint) {
                panic!("a ragdoll joint was refused: {err}");
            }
        }
        keys[i] = body;
    }
}

fn add(world: &mut World, body: BodyKey, desc: ColliderDesc) {
    if let Err(err) = world.add_collider(body, desc) {
        panic!("a ragdoll collider was refused: {err}");
    }
}
