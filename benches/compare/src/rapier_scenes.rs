//! The benchmark scenes of `benches/scenes/`, built in Rapier2D body for body:
//! the same shapes, sizes, positions (computed with the same `f32` arithmetic),
//! densities, frictions and restitutions, sleeping disabled where Lamina's
//! builder disables it, and the same kinematic stand-ins for Box2D's motors.
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
        _ => return None,
    })
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

/// A kinematic drum of four boxes (density 50) centred at (0, 10) turning at
/// 25°/s; 45 × 45 squares of half-extent 0.125 inside.
fn tumbler() -> PhysicsWorld {
    let mut world = world(gravity());
    const DEGREES_PER_SECOND: Real = 25.0;
    let omega = DEGREES_PER_SECOND.to_radians();
    let drum = world.insert_body(
        RigidBodyBuilder::kinematic_velocity_based().translation(Vector::new(0.0, 10.0)).angvel(omega),
    );
    let walls =
        [(0.5, 10.0, 10.0, 0.0), (0.5, 10.0, -10.0, 0.0), (10.0, 0.5, 0.0, 10.0), (10.0, 0.5, 0.0, -10.0)];
    for (hx, hy, x, y) in walls {
        let wall = material(ColliderBuilder::cuboid(hx, hy)).density(50.0).translation(Vector::new(x, y));
        world.insert_collider(wall, Some(drum));
    }
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
/// kinematic rounded box (0.4 × 20, radius 0.2, friction 0) at (0, 12) spinning
/// at 5 rad/s; 6,076 capsules, circles and squares (density 0.25, friction 0.1,
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

    world.insert(
        RigidBodyBuilder::kinematic_velocity_based().translation(Vector::new(0.0, 12.0)).angvel(5.0),
        material(ColliderBuilder::round_cuboid(0.4, 20.0, 0.2)).friction(0.0),
    );

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
