//! The benchmark scenes of `benches/scenes/`, built in Rapier2D body for body:
//! the same shapes, sizes, positions (computed with the same `f32` arithmetic),
//! densities, frictions and restitutions, sleeping disabled where Lamina's
//! builder disables it, and the same joints.
//!
//! Motors (the tumbler's drum, the spinner's paddle) are Rapier revolute
//! joints with a velocity motor: stiffness 0 and a damping factor of 10⁶ in
//! Rapier's default acceleration-based model, which leaves the motor's
//! softness at 1 / (h · 10⁶), a rigid drive of the relative angular velocity
//! toward the target speed with its torque clamped by the motor's maximum, as
//! Box2D's and Lamina's motors are.
//!
//! The world: a step of 1/60 s, gravity (0, −10) m/s² (none in `smash`), and
//! Rapier's default integration parameters with `num_solver_iterations = 4`
//! (also its default). In this Rapier that field is the substep count: the
//! solver divides `dt` by it and runs, per substep, one biased velocity
//! iteration and one relaxation iteration (`num_internal_pgs_iterations` and
//! `num_internal_stabilization_iterations`, both 1), Box2D's soft step with 4
//! substeps, which is what Lamina runs.
//!
//! Materials: Rapier averages two colliders' friction and restitution by
//! default; Lamina, like Box2D, takes the geometric mean of the frictions and
//! the larger restitution. Every collider here asks for those rules, so that a
//! pair gets the same coefficients in both engines (it matters only in
//! `spinner`, whose loop, paddle and bodies differ in friction and restitution).

use std::f64::consts::TAU;

use rapier2d::prelude::*;

/// Substeps per step, given to `IntegrationParameters::num_solver_iterations`.
pub const SUBSTEPS: usize = 4;

/// Time step, seconds.
const TIME_STEP: Real = 1.0 / 60.0;

/// Builds the scene of that name (the names of `benches/scenes/`), or `None`.
pub fn build(name: &str) -> Option<PhysicsWorld> {
    Some(match name {
        "large_pyramid" => large_pyramid(),
        "many_pyramids" => many_pyramids(),
        "smash" => smash(),
        "tumbler" => tumbler(),
        "spinner" => spinner(),
        "joint_grid" => joint_grid(),
        _ => return None,
    })
}

/// An empty world with the common settings and gravity (0, −10) m/s², for
/// scenes built elsewhere (`rapier_rain.rs`, which only `--bin scenes` has).
#[allow(dead_code)]
pub fn empty_world() -> PhysicsWorld {
    world(gravity())
}

/// An empty world with the common settings and the given gravity.
fn world(gravity: Vector) -> PhysicsWorld {
    let mut world = PhysicsWorld::new();
    world.gravity = gravity;
    world.integration_parameters.dt = TIME_STEP;
    world.integration_parameters.num_solver_iterations = SUBSTEPS;
    world
}

/// Gravity (0, −10) m/s².
fn gravity() -> Vector {
    Vector::new(0.0, -10.0)
}

/// A collider of `shape` with the common material: density 1, friction 0.6,
/// restitution 0, mixed as Lamina mixes them.
fn material(shape: ColliderBuilder) -> ColliderBuilder {
    shape
        .density(1.0)
        .friction(0.6)
        .restitution(0.0)
        .friction_combine_rule(CoefficientCombineRule::GeometricMean)
        .restitution_combine_rule(CoefficientCombineRule::Max)
}

/// A dynamic body at (x, y).
fn dynamic(x: Real, y: Real) -> RigidBodyBuilder {
    RigidBodyBuilder::dynamic().translation(Vector::new(x, y))
}

/// Lamina's `add_pyramid`: row i in 0..base at y = (2i + 1)·a + `base_y`, its
/// squares at x = (i + 1)·a + 2(j − i)·a + `x_offset` for j in i..base; the
/// bodies never sleep.
fn add_pyramid(world: &mut PhysicsWorld, base: usize, a: Real, x_offset: Real, base_y: Real) {
    for i in 0..base {
        let y = (2 * i + 1) as Real * a + base_y;
        for j in i..base {
            let x = (i + 1) as Real * a + 2.0 * (j - i) as Real * a + x_offset;
            world.insert(dynamic(x, y).can_sleep(false), material(ColliderBuilder::cuboid(a, a)));
        }
    }
}

/// Ground box half-extents (100, 1) at (0, −1); a pyramid of 100 rows of
/// squares of half-extent 0.5; sleeping disabled.
fn large_pyramid() -> PhysicsWorld {
    let mut world = world(gravity());
    world.insert(
        RigidBodyBuilder::fixed().translation(Vector::new(0.0, -1.0)),
        material(ColliderBuilder::cuboid(100.0, 1.0)),
    );
    let (base, half) = (100, 0.5);
    add_pyramid(&mut world, base, half, -(base as Real) * half, 0.0);
    world
}

/// 20 segment grounds of one fixed body, y = 11·k, x ∈ [−110, 110]; 20 × 20
/// pyramids of base 10; sleeping disabled.
fn many_pyramids() -> PhysicsWorld {
    let mut world = world(gravity());
    let (grid, base, half): (usize, usize, Real) = (20, 10, 0.5);
    let spacing = 2.0 * half * (base as Real + 1.0);
    let width = 2.0 * half * grid as Real * (base as Real + 1.0);
    let ground = world.insert_body(RigidBodyBuilder::fixed());
    for k in 0..grid {
        let y = k as Real * spacing;
        let segment = ColliderBuilder::segment(Vector::new(-0.5 * width, y), Vector::new(0.5 * width, y));
        world.insert_collider(material(segment), Some(ground));
    }
    for r in 0..grid {
        let base_y = r as Real * spacing;
        for c in 0..grid {
            let centre_x = -0.5 * width + c as Real * (base as Real + 1.0) + 1.0;
            add_pyramid(&mut world, base, half, centre_x - 0.5, base_y);
        }
    }
    world
}

/// `many_pyramids` with sleeping enabled, Rapier's default thresholds (a
/// world at rest once the pyramids settle, for `--bin resting`).
#[allow(dead_code)]
pub fn many_pyramids_sleeping() -> PhysicsWorld {
    let mut world = many_pyramids();
    for (_, body) in world.bodies.iter_mut() {
        let activation = body.activation_mut();
        activation.normalized_linear_threshold = RigidBodyActivation::default_normalized_linear_threshold();
        activation.angular_threshold = RigidBodyActivation::default_angular_threshold();
    }
    world
}

/// No gravity; a box of half-extents (4, 4), density 8, at (−20, 0) moving at
/// 40 m/s into a block of 120 × 80 squares of side 0.4 created asleep.
fn smash() -> PhysicsWorld {
    let mut world = world(Vector::ZERO);
    world.insert(
        dynamic(-20.0, 0.0).linvel(Vector::new(40.0, 0.0)),
        material(ColliderBuilder::cuboid(4.0, 4.0)).density(8.0),
    );
    let (columns, rows, side): (usize, usize, Real) = (120, 80, 0.4);
    for i in 0..columns {
        for j in 0..rows {
            let x = side * i as Real + 30.0;
            let y = side * (j as Real - 0.5 * rows as Real);
            world.insert(
                dynamic(x, y).sleeping(true),
                material(ColliderBuilder::cuboid(0.5 * side, 0.5 * side)),
            );
        }
    }
    world
}

/// Damping factor of a velocity motor: see the module doc.
const MOTOR_FACTOR: Real = 1.0e6;

/// Drives `body`, centred at `center`, about it at `speed` rad/s with at most
/// `max_torque`, through a revolute motor to a fixed hub there.
fn drive(world: &mut PhysicsWorld, body: RigidBodyHandle, center: Vector, speed: Real, max_torque: Real) {
    let hub = world.insert_body(RigidBodyBuilder::fixed().translation(center));
    let motor = RevoluteJointBuilder::new()
        .local_anchor1(Vector::ZERO)
        .local_anchor2(Vector::ZERO)
        .motor_velocity(speed, MOTOR_FACTOR)
        .motor_max_force(max_torque);
    world.insert_impulse_joint(hub, body, motor);
}

/// A dynamic drum of four boxes (density 50) centred at (0, 10), driven at
/// 25°/s by a revolute motor of max torque 10⁸ N·m; 45 × 45 squares of
/// half-extent 0.125 inside.
fn tumbler() -> PhysicsWorld {
    let mut world = world(gravity());
    const DEGREES_PER_SECOND: Real = 25.0;
    let omega = DEGREES_PER_SECOND.to_radians();
    let drum = world.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 10.0)));
    let walls =
        [(0.5, 10.0, 10.0, 0.0), (0.5, 10.0, -10.0, 0.0), (10.0, 0.5, 0.0, 10.0), (10.0, 0.5, 0.0, -10.0)];
    for (hx, hy, x, y) in walls {
        let wall = material(ColliderBuilder::cuboid(hx, hy)).density(50.0).translation(Vector::new(x, y));
        world.insert_collider(wall, Some(drum));
    }
    drive(&mut world, drum, Vector::new(0.0, 10.0), omega, 1.0e8);
    let grid = 45;
    let start = -0.2 * grid as Real;
    for i in 0..grid {
        for j in 0..grid {
            let x = start + 0.4 * j as Real;
            let y = start + 10.0 + 0.4 * i as Real;
            world.insert(dynamic(x, y), material(ColliderBuilder::cuboid(0.125, 0.125)));
        }
    }
    world
}

/// A fixed loop of 360 segments (radius 40 around (0, 32), friction 0.1); a
/// dynamic rounded box (0.4 × 20, radius 0.2, friction 0) at (0, 12) driven
/// at 5 rad/s by a revolute motor of unbounded torque; 6,076 capsules, circles and squares (density 0.25, friction 0.1,
/// restitution 0.1).
fn spinner() -> PhysicsWorld {
    let mut world = world(gravity());
    let loop_segments = 360;
    let ground = world.insert_body(RigidBodyBuilder::fixed());
    let point = |i: usize| {
        let angle = -TAU * i as f64 / loop_segments as f64;
        Vector::new((40.0 * angle.cos()) as Real, (40.0 * angle.sin() + 32.0) as Real)
    };
    for i in 0..loop_segments {
        let segment = ColliderBuilder::segment(point(i), point((i + 1) % loop_segments));
        world.insert_collider(material(segment).friction(0.1), Some(ground));
    }

    let (paddle, _) = world.insert(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 12.0)),
        material(ColliderBuilder::round_cuboid(0.4, 20.0, 0.2)).friction(0.0),
    );
    drive(&mut world, paddle, Vector::new(0.0, 12.0), 5.0, Real::MAX);

    let shapes = [
        ColliderBuilder::capsule_from_endpoints(Vector::new(-0.25, 0.0), Vector::new(0.25, 0.0), 0.25),
        ColliderBuilder::ball(0.35),
        ColliderBuilder::cuboid(0.35, 0.35),
    ];
    let (mut x, mut y): (Real, Real) = (-23.0, 2.0);
    for i in 0..6076 {
        let collider = material(shapes[i % 3].clone()).density(0.25).friction(0.1).restitution(0.1);
        world.insert(dynamic(x, y), collider);
        x += 0.5;
        if x >= 23.0 {
            x = -23.0;
            y += 0.5;
        }
    }
    world
}

/// A 100 × 100 grid of circles (radius 0.4, density 1), body (i, k) at
/// (k, −i), hung from the seven fixed bodies i = 0, k in 47..=53 by 19,800
/// revolute joints: each body to the one above at (k, −i + 0.5) and to the one
/// on its left at (k − 0.5, −i). The circles do not collide (group 2, filter
/// without 2); sleeping disabled.
fn joint_grid() -> PhysicsWorld {
    let mut world = world(gravity());
    let side = 100;
    let groups =
        InteractionGroups::new(Group::GROUP_2, Group::ALL ^ Group::GROUP_2, InteractionTestMode::And);
    let mut bodies = Vec::with_capacity(side * side);
    for k in 0..side {
        for i in 0..side {
            let (x, y) = (k as Real, -(i as Real));
            let fixed = i == 0 && (side / 2 - 3..=side / 2 + 3).contains(&k);
            let builder = if fixed { RigidBodyBuilder::fixed() } else { RigidBodyBuilder::dynamic() };
            let circle = ColliderBuilder::ball(0.4).density(1.0).collision_groups(groups);
            let (body, _) = world.insert(builder.translation(Vector::new(x, y)).can_sleep(false), circle);
            if i > 0 {
                join(
                    &mut world,
                    bodies[k * side + i - 1],
                    Vector::new(x, y + 1.0),
                    body,
                    Vector::new(x, y),
                    Vector::new(x, y + 0.5),
                );
            }
            if k > 0 {
                join(
                    &mut world,
                    bodies[(k - 1) * side + i],
                    Vector::new(x - 1.0, y),
                    body,
                    Vector::new(x, y),
                    Vector::new(x - 0.5, y),
                );
            }
            bodies.push(body);
        }
    }
    world
}

/// A revolute joint between `a` at `pa` and `b` at `pb`, at world point `anchor`.
fn join(
    world: &mut PhysicsWorld,
    a: RigidBodyHandle,
    pa: Vector,
    b: RigidBodyHandle,
    pb: Vector,
    anchor: Vector,
) {
    let joint = RevoluteJointBuilder::new().local_anchor1(anchor - pa).local_anchor2(anchor - pb);
    world.insert_impulse_joint(a, b, joint);
}

/// The cart-pole of `benches/scenes/cartpole.rs`: ground box (5, 0.1) at the
/// origin, cart (0.25, 0.1) of density 20 at (0, 0.5) on a prismatic joint
/// along x limited to ±2.4 m, pole (0.025, 0.5) of density 4 centred at
/// (0, 1) on a revolute joint at (0, 0.5); sleep off. Returns the world and
/// the cart's handle. (Only `--bin small_worlds` builds it.)
#[allow(dead_code)]
pub fn cartpole() -> (PhysicsWorld, RigidBodyHandle) {
    let mut world = world(gravity());
    let (ground, _) = world.insert(RigidBodyBuilder::fixed(), ColliderBuilder::cuboid(5.0, 0.1));
    let cart_body = RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.5)).can_sleep(false);
    let (cart, _) = world.insert(cart_body, ColliderBuilder::cuboid(0.25, 0.1).density(20.0));
    let pole_body = RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 1.0)).can_sleep(false);
    let (pole, _) = world.insert(pole_body, ColliderBuilder::cuboid(0.025, 0.5).density(4.0));
    let rail = PrismaticJointBuilder::new(Vector::new(1.0, 0.0))
        .local_anchor1(Vector::new(0.0, 0.5))
        .local_anchor2(Vector::new(0.0, 0.0))
        .limits([-2.4, 2.4]);
    world.insert_impulse_joint(ground, cart, rail);
    let hinge = RevoluteJointBuilder::new()
        .local_anchor1(Vector::new(0.0, 0.0))
        .local_anchor2(Vector::new(0.0, -0.5));
    world.insert_impulse_joint(cart, pole, hinge);
    (world, cart)
}
