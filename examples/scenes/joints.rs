//! One joint of each kind side by side: a revolute pendulum, a prismatic
//! slider, a welded beam, a ball on a rope, a wheel on its suspension, a box
//! held by a motor joint and a box dragged by a mouse joint toward a target
//! that circles. Shared by `examples/joints.rs` and the testbed, which include
//! this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
/// Horizontal spacing of the exhibits, m.
pub const SPACING: Real = 4.0;

/// A dynamic body with one collider of density 1.
fn body(world: &mut World, x: Real, y: Real, shape: Shape) -> Result<BodyKey, String> {
    let b = world.add_body(BodyDesc::dynamic().translation(x, y));
    world.add_collider(b, ColliderDesc::new(shape)).map_err(|e| e.to_string())?;
    Ok(b)
}

/// The exhibits: one joint of each kind, left to right, named.
fn build_exhibits(world: &mut World) -> Result<Exhibits, String> {
    let ground = world.add_body(BodyDesc::fixed());
    world
        .add_collider(
            ground,
            ColliderDesc::new(Shape::rectangle(20.0, 0.5)).local_pose(Isometry::translation(12.0, -0.5)),
        )
        .map_err(|e| e.to_string())?;
    let x = |k: usize| k as Real * SPACING;
    let top = 4.0;
    let mut joints = Vec::new();
    let mut add = |world: &mut World, name, desc: JointDesc| -> Result<(), String> {
        joints.push((name, world.add_joint(desc).map_err(|e| e.to_string())?));
        Ok(())
    };

    // A pendulum released level with its pivot.
    let bob = body(world, x(0) + 1.5, top, Shape::circle(0.25))?;
    add(world, "revolute", JointDesc::revolute(ground, bob, Point::new(x(0), top)))?;
    // A slider on a 30° axis, driven up at 1 m/s, stopped by its limits.
    let axis = Vec2::new(0.866, 0.5);
    let slider = body(world, x(1), 2.0, Shape::rectangle(0.4, 0.2))?;
    add(
        world,
        "prismatic",
        JointDesc::prismatic(ground, slider, Point::new(x(1), 2.0), axis).limits(-1.0, 1.0).motor(1.0, 500.0),
    )?;
    // A 2 m beam welded by one end.
    let beam = body(world, x(2) + 1.0, top, Shape::rectangle(1.0, 0.1))?;
    add(world, "weld", JointDesc::weld(ground, beam, Point::new(x(2), top)))?;
    // A ball on a 2 m rope, starting 1 m from its anchor: it falls freely first.
    let ball = body(world, x(3) + 1.0, top, Shape::circle(0.2))?;
    add(
        world,
        "distance (rope)",
        JointDesc::distance(ground, ball, Point::new(x(3), top), Point::new(x(3) + 1.0, top))
            .limits(0.0, 2.0),
    )?;
    // A wheel on a frame fixed in the air, on a 3 Hz suspension, spun by its motor.
    let frame = world.add_body(BodyDesc::fixed().translation(x(4), 2.0));
    let wheel = body(world, x(4), 1.5, Shape::circle(0.4))?;
    add(
        world,
        "wheel",
        JointDesc::wheel(frame, wheel, Point::new(x(4), 1.5), Vec2::new(0.0, 1.0))
            .spring(3.0, 0.5)
            .limits(-0.5, 0.5)
            .motor(4.0, 10.0),
    )?;
    // A box held at its pose above the ground by a motor joint.
    let held = body(world, x(5), 2.0, Shape::rectangle(0.3, 0.3))?;
    add(world, "motor joint", JointDesc::motor_joint(ground, held).max_force(200.0).max_torque(50.0))?;
    // A box on the ground dragged by a mouse joint.
    let dragged = body(world, x(6), 0.3, Shape::rectangle(0.3, 0.3))?;
    let mass = world.body(dragged).map_or(1.0, |b| b.mass());
    add(world, "mouse", JointDesc::mouse(dragged, Point::new(x(6), 0.3)).max_force(100.0 * mass))?;
    Ok(joints)
}

/// The exhibits' joints by name, left to right: the mouse joint last.
pub type Exhibits = Vec<(&'static str, JointKey)>;

/// The world, sleep off, with every exhibit; returns the named joints too.
pub fn build() -> Result<(World, Exhibits), String> {
    let mut world = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    let joints = build_exhibits(&mut world)?;
    Ok((world, joints))
}

/// Where the mouse joint pulls at time `t`: a circle at 1 rad/s, 1 m above its box's start.
pub fn mouse_target(t: Real) -> Point {
    Point::new(6.0 * SPACING + t.sin(), 1.3 - t.cos())
}

/// Every exhibit.
pub fn view() -> (Point, Point) {
    (Point::new(-2.5, -0.5), Point::new(6.0 * SPACING + 2.5, 6.0))
}
