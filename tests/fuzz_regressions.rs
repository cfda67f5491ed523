//! Failures the fuzz targets found (`fuzz/`, `docs/reliability.md`), each a
//! test named for what broke, opening with its root cause.

#![allow(clippy::unnecessary_cast)] // casts to f64 are no-ops with the `f64` feature

use lamina2d::prelude::*;

fn assert_unit(rotation: Rotation, what: &str) {
    let (re, im) = (rotation.re, rotation.im);
    assert!(re.is_finite() && im.is_finite(), "{what}: rotation ({re}, {im})");
    assert!((re.hypot(im) - 1.0).abs() < 1e-6, "{what}: rotation of length {}", re.hypot(im));
}

/// Root cause: `trig::sin_cos` reduced an angle by subtracting k·π/2 in f64,
/// which is exact only while k·π/2 is; past 2^53 the remainder was huge and
/// the series summed to infinity, so `BodyDesc::angle(1e30)` — finite, so
/// accepted — gave a body a rotation of (−inf, −inf). Huge angles are now
/// first reduced by the exact IEEE remainder of 2π.
#[test]
fn huge_finite_angles_give_unit_rotations() {
    let mut world = World::new(WorldSettings::default());
    for angle in [1.0e30, -1.0e30, Real::MAX, Real::MIN, 1.0e16, -3.0e17] {
        let (s, c) = lamina2d::geometry::trig::sin_cos(angle);
        assert_unit(Rotation::from_cos_sin_unchecked(c, s), &format!("sin_cos({angle})"));
        let body = world.add_body(BodyDesc::dynamic().translation(0.0, 0.0).angle(angle));
        world.add_collider(body, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
        assert_unit(world.body(body).unwrap().rotation(), &format!("a body at angle {angle}"));
    }
    world.step(1.0 / 60.0).unwrap();
    for (_, body) in world.bodies() {
        assert_unit(body.rotation(), "after a step");
    }
}

/// Root cause: a polygon's serde form skipped its `half_extents` field when it
/// had none (every polygon but a box), which a format that reads fields by
/// position — postcard, the snapshots' format — cannot survive: the next
/// field's bytes were read as the option. So `World::restore` refused the
/// fresh snapshot of any world holding a triangle. The field is now always
/// written (and still optional in hand-written text).
#[cfg(feature = "serde")]
#[test]
fn snapshots_of_worlds_with_every_shape_kind_are_restored() {
    let points = [Point::new(-2.02, 1.43), Point::new(-0.67, -0.67), Point::new(1.94, 2.83)];
    let shapes = [
        Shape::polygon(&points).unwrap(),
        Shape::rounded_polygon(&points, 0.1).unwrap(),
        Shape::rectangle(0.5, 0.25),
        Shape::rounded_rectangle(0.5, 0.25, 0.05),
        Shape::circle(0.5),
        Shape::capsule(Point::new(-0.5, 0.0), Point::new(0.5, 0.0), 0.2),
        Shape::segment(Point::new(-0.5, 0.0), Point::new(0.5, 0.0)),
        Shape::ellipse(0.6, 0.3),
    ];
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(20.0, 0.5))).unwrap();
    for (i, shape) in shapes.into_iter().enumerate() {
        let body = world.add_body(BodyDesc::dynamic().translation(i as Real * 2.0 - 8.0, 2.0));
        world.add_collider(body, ColliderDesc::new(shape)).unwrap();
    }
    for _ in 0..30 {
        world.step(1.0 / 60.0).unwrap();
    }
    let mut restored = World::restore(&world.snapshot()).expect("a fresh snapshot is restored");
    for _ in 0..30 {
        world.step(1.0 / 60.0).unwrap();
        restored.step(1.0 / 60.0).unwrap();
        assert_eq!(restored.state_hash(), world.state_hash());
    }
}

/// Root cause: the hull dropped a point as "flat" when it lay within the
/// hull's tolerance (relative to the cloud's extent) of the *line* through
/// its neighbours, even when it lay far beyond the *segment* between them:
/// the tip of a sharp spike. A cloud of points near the origin and points
/// 1e18 m away lost the point at the origin, leaving it 7e17 m outside its
/// own hull. Flatness is now measured to the segment.
#[test]
fn the_tip_of_a_sharp_spike_stays_in_the_hull() {
    let cloud = [
        Point::new(0.762, 9.969_346e17),
        Point::new(-1.07, 1.62),
        Point::new(-19.73, 9.789_236e17),
        Point::new(9.969_38e17, 0.0),
    ];
    let hull = lamina2d::geometry::convex_hull(&cloud).unwrap();
    assert!(hull.contains(&cloud[1]), "the spike's tip was dropped: {hull:?}");
    // Every point is inside, or outside by round-off of the cloud's size
    // (1e18 m, where an f32 coordinate's step is 7e10 m): the point 20 m
    // beyond the long left edge may go.
    let n = hull.len();
    for p in &cloud {
        for i in 0..n {
            let (a, b) = (hull[i], hull[(i + 1) % n]);
            let edge = b - a;
            let outside = (edge.x as f64 * (a.y - p.y) as f64 - edge.y as f64 * (a.x - p.x) as f64)
                / (edge.norm() as f64);
            assert!(outside < 1e-6 * 1e18, "{p} is {outside} m outside edge {i} of {hull:?}");
        }
    }
}

/// Root cause: the ray–circle test computed its discriminant as b² − a·c,
/// a difference of two products of the squared distance to the circle,
/// which loses every digit of r² when the circle is far away for its size.
/// An ellipse is cast through its unit-circle image, stretched 387 times for
/// a 0.05 × 19.34 m ellipse, so a ray from 100 m off hit 0.76 m beyond the
/// ellipse's tip. The discriminant is now a·(r² − |m⊥|²), from the part of
/// the offset across the ray.
#[test]
fn rays_miss_thin_ellipses_they_pass_beyond() {
    let ellipse = Shape::ellipse(0.05, 19.34);
    let pose = Isometry::from_parts(
        Vec2::new(-19.46, 5.290_001).into(),
        Rotation::from_cos_sin_unchecked(0.963_717_5, 0.266_924_2),
    );
    // In f64 this ray's discriminant is −1043 (of b² = 3.2e10): a miss.
    let ray = Ray::new(Point::new(50.300_003, 50.300_003), Vec2::new(-4.6, -4.6));
    let hit = ellipse.cast_ray(&pose, &ray, 1000.0);
    assert!(hit.is_none(), "the ray passes beyond the ellipse's tip, yet hit it: {hit:?}");
    // A far circle, grazed 1 cm inside its edge, is hit on its boundary.
    let circle = Shape::circle(0.5);
    let far = Isometry::translation(0.0, 0.49);
    let ray = Ray::new(Point::new(-3000.0, 0.0), Vec2::new(1.0, 0.0));
    let hit = circle.cast_ray(&far, &ray, 10_000.0).expect("the ray grazes the circle");
    let point = ray.origin + ray.dir * hit.toi;
    assert!(circle.distance_to_point(&far, &point) < 1e-3, "hit at {point}");
}

/// Root cause: a body's acceleration was gravity times its gravity scale
/// plus force over mass, computed as is: a finite gravity scale of −1.7e38
/// (accepted, being finite) times 10 m/s² is infinite in f32, the velocity
/// became infinite, and the speed cap turned it into NaN. Each part is now
/// saturated at the largest finite value (the cap is reached within a
/// substep either way), and the cap takes an infinite component's sign as
/// the direction.
#[test]
fn huge_gravity_scales_and_forces_reach_the_speed_cap_not_nan() {
    let mut world = World::new(WorldSettings::default());
    let cap = world.settings().max_linear_speed;
    let up = world.add_body(BodyDesc::dynamic().gravity_scale(-1.7e38).linear_damping(0.62));
    world.add_collider(up, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    let pushed = world.add_body(BodyDesc::dynamic().translation(10.0, 0.0));
    world.add_collider(pushed, ColliderDesc::new(Shape::circle(0.5)).density(1e-30)).unwrap();
    for _ in 0..16 {
        world.body_mut(pushed).unwrap().apply_force(Vec2::new(Real::MAX, Real::MAX)).unwrap();
        world.step(1.0 / 240.0).unwrap();
    }
    let v = world.body(up).unwrap().linear_velocity();
    assert!(v.x == 0.0 && (v.y - cap).abs() < 1e-3 * cap, "flung up at {v}, not at the cap {cap}");
    let v = world.body(pushed).unwrap().linear_velocity();
    assert!((v.norm() - cap).abs() < 1e-3 * cap && (v.x - v.y).abs() < 1e-3 * cap, "pushed at {v}");
}

/// Root cause: a step moves a body by at most `max_linear_speed × dt`, and
/// neither had an upper bound: a speed cap of `Real::MAX`, or a step of 3e38
/// s, carried a body to an infinite position within a step or a few. The
/// cap is now at most `MAX_LINEAR_SPEED_LIMIT` (1e8 m/s) and a step at most
/// `MAX_TIME_STEP` (1e4 s); beyond, a typed error.
#[test]
fn no_step_or_speed_cap_carries_a_body_to_infinity() {
    use lamina2d::dynamics::{MAX_LINEAR_SPEED_LIMIT, MAX_TIME_STEP};
    let too_fast = WorldSettings { max_linear_speed: Real::MAX, ..WorldSettings::default() };
    let err = World::try_new(too_fast).err().expect("refused");
    assert!(matches!(err, WorldError::InvalidSetting { name: "max_linear_speed", .. }), "{err:?}");

    let fastest = WorldSettings { max_linear_speed: MAX_LINEAR_SPEED_LIMIT, ..WorldSettings::default() };
    let mut world = World::try_new(fastest).unwrap();
    let flung = world.add_body(BodyDesc::dynamic().gravity_scale(-1e38));
    world.add_collider(flung, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    let hash = world.state_hash();
    for dt in [MAX_TIME_STEP * 2.0, 3e38] {
        let err = world.step(dt).unwrap_err();
        assert!(matches!(err, WorldError::InvalidTimeStep { .. }), "{err:?}");
        assert_eq!(world.state_hash(), hash);
    }
    for _ in 0..400 {
        world.step(MAX_TIME_STEP).unwrap();
    }
    let p = world.body(flung).unwrap().position().translation.vector;
    assert!(p.x.is_finite() && p.y.is_finite(), "flung to {p}");
}

/// Root cause: a box's half-extents were checked only for being finite and
/// positive, so a 1.2e-32 × 0.21 m box was a valid shape; its long sides are
/// one line in f32, GJK's simplices on it underflowed, and its distance to a
/// polygon 57 m away came out 57 m one way and 65 m the other. A box thinner
/// than round-off of its length (the hull's own tolerance) is now refused,
/// as a hull of the same corners is.
#[test]
fn boxes_thinner_than_round_off_are_refused() {
    let mut world = World::new(WorldSettings::default());
    let body = world.add_body(BodyDesc::dynamic());
    for (hw, hh) in [(1.215e-32, 0.21), (0.21, 1.0e-12)] {
        let err = world.add_collider(body, ColliderDesc::new(Shape::rectangle(hw, hh))).unwrap_err();
        assert!(matches!(err, WorldError::InvalidShape(ShapeError::InvalidHalfExtents { .. })), "{err:?}");
        let corners = [Point::new(-hw, -hh), Point::new(hw, -hh), Point::new(hw, hh), Point::new(-hw, hh)];
        assert!(Shape::polygon(&corners).is_err(), "the hull of the same corners is refused too");
    }
    // A thin but real plank is fine: 1 mm by 10 m.
    world.add_collider(body, ColliderDesc::new(Shape::rectangle(5.0, 0.0005))).unwrap();
}

/// Root cause: finite but extreme input can still overflow inside the
/// solver's rows — here a body at x = −3.4e38 pulled by four mouse joints
/// with no force limit toward points near the origin: the joint's
/// separation times its stiffness is infinite, and the body's state became
/// NaN. No bound on each input can rule out every such product, so
/// finalisation now holds a body whose solved motion is not finite where it
/// was, at rest, clears its joints' and contacts' impulses (which would bring
/// the overflow back through warm starting), and counts it in
/// `StepProfile::held_bodies`.
#[test]
fn a_body_the_solver_cannot_move_finitely_is_held_still() {
    let mut world = World::new(WorldSettings::default());
    let far = world.add_body(BodyDesc::dynamic().translation(-Real::MAX, -7.0).angle(-7.4));
    let mut joints = Vec::new();
    for (x, y, hertz) in [(-0.41, -0.4, 5.0), (-0.4, -0.4, 5.0), (-0.4, -0.41, 2.0)] {
        let desc = JointDesc::mouse(far, Point::new(x, y)).spring(hertz, 0.7).max_force(Real::MAX);
        joints.push(world.add_joint(desc).unwrap());
    }
    let near = world.add_body(BodyDesc::dynamic().translation(0.0, 5.0));
    world.add_collider(near, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    for _ in 0..16 {
        world.step(1.0 / 30.0).unwrap();
        let body = world.body(far).unwrap();
        let p = body.position();
        let values =
            [p.translation.x, p.translation.y, p.rotation.re, p.rotation.im, body.angular_velocity()];
        assert!(values.iter().all(|v| v.is_finite()), "the far body went to {values:?}");
        for &j in &joints {
            let joint = world.joint(j).unwrap();
            assert!(joint.constraint_force().x.is_finite() && joint.constraint_torque().is_finite());
        }
    }
    assert!(world.profile().held_bodies >= 1, "the far body was not counted as held");
    // The body far from everything does not disturb the rest.
    let v = world.body(near).unwrap().linear_velocity();
    assert!(v.y < 0.0 && v.x == 0.0, "the near ball falls freely: {v}");
}

/// Root cause: shape sizes were checked only for being finite and positive,
/// so a box of half-extent 9.2e-41 m — a subnormal number, whose squares and
/// products underflow to zero — was a valid shape, and its distance to a
/// polygon came out 50.6 m one way and 41.4 m the other. Every size (radius,
/// half-extent, ellipse radius, a polygon's width) must now be at least
/// `MIN_SHAPE_SIZE`, a thousandth of a millimetre.
#[test]
fn shapes_smaller_than_a_micron_are_refused() {
    use lamina2d::geometry::tolerance::MIN_SHAPE_SIZE;
    let tiny = 9.2e-41 as Real;
    let tiny_points = [Point::new(0.0, 0.0), Point::new(tiny, 0.0), Point::new(0.0, tiny)];
    for shape in [
        Shape::rectangle(tiny, tiny),
        Shape::circle(tiny),
        Shape::capsule(Point::new(0.0, 0.0), Point::new(1.0, 0.0), tiny),
        Shape::ellipse(tiny, 1.0),
    ] {
        let err = shape.validate().unwrap_err();
        assert!(err.to_string().contains("1e-6"), "'{err}' does not name the limit");
    }
    if let Ok(polygon) = Shape::polygon(&tiny_points) {
        assert!(polygon.validate().is_err(), "a polygon of {tiny} m was taken");
    }
    // At the limit, shapes are taken.
    let m = MIN_SHAPE_SIZE;
    assert!(Shape::circle(m).validate().is_ok() && Shape::rectangle(m, m).validate().is_ok());
}

/// Root cause: lengths were taken as the square root of the summed squares,
/// which below the normal numbers lose their digits: a circle whose centre
/// lay 3e-23 m off a segment's line got the "unit" normal (−0.82, 0), in its
/// penetration and in its manifold. `math::length` now measures such tiny
/// vectors scaled up by their largest component (every other length keeps
/// its bits), and the closed forms, the circle pairs and `try_normalize` use it.
#[test]
fn normals_from_tiny_offsets_are_unit() {
    let segment = Shape::segment(Point::new(0.0, -20.0), Point::new(3.184_701e-23, 0.676));
    let circle = Shape::circle(0.5);
    let pose = Isometry::translation(-50.0, -50.0);
    let p = lamina2d::query::penetration(&segment, &pose, &circle, &pose)
        .expect("the circle sits on the segment");
    assert!((p.normal.norm() - 1.0).abs() < 1e-5, "penetration normal {}", p.normal);
    let m = lamina2d::query::contact_manifold(&segment, &pose, &circle, &pose, 0.02);
    assert!((m.normal.norm() - 1.0).abs() < 1e-5, "manifold normal {}", m.normal);
    let tiny = Vec2::new(3.0e-23, 0.0);
    assert!((lamina2d::geometry::math::length(&tiny) - 3.0e-23).abs() < 1e-28);
}

/// Root cause: shapes had a smallest size but no largest, so a chain segment
/// 2e37 m long was accepted, and the closest point of it to a circle took
/// the square of its length, which overflows `f32`: a circle cast against it
/// hit at a time of NaN. Every point of a shape (and of a chain) must now lie
/// within `MAX_SHAPE_SIZE` (1000 km) of its origin, and a time-of-impact
/// search that measures a distance too large to represent reports no hit.
#[test]
fn shapes_larger_than_a_thousand_kilometres_are_refused() {
    use lamina2d::geometry::tolerance::MAX_SHAPE_SIZE;
    let mut world = World::new(WorldSettings::default());
    let body = world.add_body(BodyDesc::fixed().translation(-9.9, -19.96).angle(-16.19));
    let huge = [Point::new(1.98, -2.79), Point::new(-7.92, 16.43), Point::new(-4.62, -2.0883996e37)];
    let hash = world.state_hash();
    let error = world.add_chain(body, ChainDesc::new(&huge)).unwrap_err();
    assert!(matches!(error, WorldError::InvalidChainPoint { index: 2, .. }), "{error}");
    assert_eq!(world.state_hash(), hash);
    let far = 2.0 * MAX_SHAPE_SIZE;
    for shape in [
        Shape::circle(far),
        Shape::segment(Point::new(0.0, 0.0), Point::new(0.0, far)),
        Shape::capsule(Point::new(far, 0.0), Point::new(0.0, 0.0), 0.5),
        Shape::ellipse(far, 1.0),
        Shape::rectangle(far, 1.0),
    ] {
        let error = world.add_collider(body, ColliderDesc::new(shape)).unwrap_err();
        assert!(matches!(error, WorldError::InvalidShape(ShapeError::TooLarge { .. })), "{error}");
    }
    let points = [Point::new(0.0, 0.0), Point::new(far, 0.0), Point::new(0.0, 1.0)];
    assert!(matches!(Shape::polygon(&points), Err(ShapeError::TooLarge { .. })));
    assert_eq!(world.state_hash(), hash);

    // The largest shapes allowed still give finite casts, even from far away.
    let edge = MAX_SHAPE_SIZE * 0.99;
    let ok = [Point::new(-edge, 0.0), Point::new(0.0, 0.0), Point::new(edge * 0.6, -edge * 0.7)];
    world.add_chain(body, ChainDesc::new(&ok)).unwrap();
    for from in [Vec2::new(-7.0, -9.0), Vec2::new(3.0e30, -1.0e30)] {
        let pose = Isometry::new(from, 0.3);
        let cast = world.try_cast_shape(
            &Shape::circle(0.5),
            &pose,
            Vec2::new(-20.0, 1e-30),
            12.08,
            &QueryFilter::default(),
        );
        if let Some(hit) = cast.unwrap() {
            let values = [hit.toi, hit.point.x, hit.point.y, hit.normal.x, hit.normal.y];
            assert!(values.iter().all(|v| v.is_finite()), "{values:?}");
        }
    }
}

/// Root cause: a joint's reported force is its impulse over the substep, and
/// a joint whose force limit is `Real::MAX` (unlimited) can reach an impulse
/// of `Real::MAX · h`, which divided by `h` again rounded to infinity: a
/// prismatic spring between bodies 2e37 m apart reported a force of (inf,
/// inf). Reported forces and torques now saturate at the largest finite
/// value; the impulses are left as solved.
#[test]
fn joint_forces_at_an_unlimited_limit_stay_finite() {
    let mut world = World::new(WorldSettings::default());
    let moving = world.add_body(
        BodyDesc::dynamic()
            .translation(15.5, 2.1055247e37)
            .angle(2.1059141e37)
            .linear_velocity(Vec2::new(-20.0, -18.38))
            .angular_velocity(-4.81)
            .linear_damping(0.0)
            .angular_damping(0.0),
    );
    for _ in 0..6 {
        world.step(1.0 / 60.0).unwrap();
    }
    let anchor = world.add_body(
        BodyDesc::fixed()
            .translation(2.1058983e37, 2.1059141e37)
            .angle(2.1059141e37)
            .linear_velocity(Vec2::new(2.1059141e37, 2.1059141e37))
            .fixed_rotation(true),
    );
    let mut joint = JointDesc::prismatic(anchor, moving, Point::origin(), Vec2::new(1.0, -0.2))
        .motor(-3.76, 152.0)
        .spring(2.0, 0.53)
        .max_force(Real::MAX)
        .max_torque(Real::MAX);
    (joint.anchor_a, joint.anchor_b) = (Point::new(-1.35, -1.35), Point::new(-1.35, -1.35));
    let key = world.add_joint(joint).unwrap();
    for _ in 0..3 {
        world.step(1.0 / 60.0).unwrap();
        let joint = world.joint(key).unwrap();
        let (f, t) = (joint.constraint_force(), joint.constraint_torque());
        assert!(f.x.is_finite() && f.y.is_finite() && t.is_finite(), "force {f}, torque {t}");
    }
}

/// Root cause: a vector whose length is itself below the normal numbers was
/// measured well (`math::length` scales it first), but its length could only
/// be stored with the few digits a subnormal number has, so dividing by it
/// gave a "unit" normal 0.997 long: a circle whose centre lay 3.6e-43 m from
/// a segment's end. Directions are now taken from the scaled vector
/// (`math::unit_and_length`), wherever a closed form divides by a distance.
#[test]
fn normals_from_subnormal_offsets_are_unit() {
    let circle = Shape::circle(0.05);
    let segment = Shape::segment(Point::new(0.0, 3.57e-43), Point::new(-1.99, -3.0));
    for pose in [Isometry::translation(-50.0, -50.0), Isometry::identity()] {
        for p in [
            lamina2d::query::penetration(&circle, &pose, &segment, &pose),
            lamina2d::query::penetration(&segment, &pose, &circle, &pose),
        ] {
            let p = p.expect("the circle's centre is on the segment");
            assert!((p.normal.norm() - 1.0).abs() < 1e-5, "penetration normal {}", p.normal);
        }
    }
    let (unit, length) = lamina2d::geometry::math::unit_and_length(&Vec2::new(-1.64e-43, 1.1e-43)).unwrap();
    assert!((unit.norm() - 1.0).abs() < 1e-6, "{unit}");
    assert!(length > 1.9e-43 && length < 2.0e-43, "{length}");
}

/// Root cause: a plain revolute joint between a fixed body at (2.1e37,
/// 2.1e37) and a body of 1 kg at (15.5, 2.1e37), its anchor 2.1e37 m from
/// the fixed body's, asks for a correction past the largest `f32` (found by
/// `fuzz/run.sh`; the input is `fuzz/regressions/world_commands/
/// revolute-anchors-1e37-apart`): its accumulated impulse overflowed to
/// infinity and then NaN. The bodies' velocities are held within a sane
/// limit as the solver writes them, so the body stayed finite and was never
/// held still, and nothing cleared the joint's impulse: its force read NaN,
/// and the NaN warm-started the next step. Impulses that are not finite are
/// now dropped when they are stored (the joint's force and torque read 0).
#[test]
fn joints_anchored_past_the_largest_float_keep_finite_forces() {
    let mut world = World::new(WorldSettings::default());
    let far = world.add_body(BodyDesc::fixed().translation(2.1058983e37, 2.1059141e37).angle(2.1059141e37));
    let body = world.add_body(
        BodyDesc::dynamic()
            .translation(15.5, 2.1055247e37)
            .angle(2.1059141e37)
            .linear_velocity(Vec2::new(-20.0, -18.38))
            .angular_velocity(-4.81),
    );
    let key = world.add_joint(JointDesc::revolute(far, body, Point::new(-1.35, -1.35))).unwrap();
    for _ in 0..16 {
        world.step(1.0 / 240.0).unwrap();
        let joint = world.joint(key).unwrap();
        let (f, t) = (joint.constraint_force(), joint.constraint_torque());
        assert!(f.x.is_finite() && f.y.is_finite() && t.is_finite(), "force {f}, torque {t}");
        let b = world.body(body).unwrap();
        let v = b.linear_velocity();
        assert!(v.x.is_finite() && v.y.is_finite() && b.position().translation.vector.x.is_finite());
    }
}

/// Root cause: EPA placed its witness points along the final edge of the
/// polytope at `t = −p·e / |e|²`, and an edge shorter than about 1e-19 m
/// (in f32; 1e-154 m in f64) has a squared length that underflows to zero,
/// so `t` was 0/0 and both points NaN: a segment 1.6e-39 m long lying on a
/// capsule's equally short core (found by `fuzz/run.sh`; the input is
/// `fuzz/regressions/pair_queries/coincident-subnormal-segments`). Such an
/// edge is now measured along its unit direction (any other as before).
#[test]
fn coincident_tiny_segments_give_finite_witness_points() {
    let length = Real::MIN_POSITIVE.sqrt() * 1e-9;
    assert_eq!(length * length, 0.0, "the test needs a length whose square underflows");
    let (a, b) = (Point::new(0.0, -20.0), Point::new(length, -20.0));
    let (segment, capsule) = (Shape::segment(a, b), Shape::capsule(a, b, 0.15));
    let pose = Isometry::translation(-50.0, -50.0);
    let on_core = Point::new(-50.0, -70.0);
    for (first, second, depth) in
        [(&segment, &capsule, 0.15), (&capsule, &segment, 0.15), (&segment, &segment, 0.0)]
    {
        let p = lamina2d::query::penetration(first, &pose, second, &pose).expect("the shapes overlap");
        assert!((p.depth - depth).abs() < 1e-5, "depth {} for {first:?}", p.depth);
        for point in [p.point_a, p.point_b] {
            assert!((point - on_core).norm() <= depth + 1e-4, "witness point {point} for {first:?}");
        }
        let d = lamina2d::query::distance(first, &pose, second, &pose);
        for point in [d.point_a, d.point_b] {
            assert!((point - on_core).norm() <= depth + 1e-4, "distance point {point} for {first:?}");
        }
    }
}

/// Root cause: the closed form for two boxes whose cores are apart measured
/// the gap between a corner of A and box B in B's frame, but made the normal
/// by dividing the two points' difference in A's frame by that gap. Where
/// the cores almost touch far from A's origin the two differ by round-off:
/// a rounded box at (−41.09, −41.62) whose core ends 1e-6 m above a thin
/// rounded box's at (−50, −50) got a penetration normal 1.2 long (found by
/// `fuzz/run.sh`; the input is `fuzz/regressions/pair_queries/
/// nearly-touching-rounded-boxes`). The normal now comes from the offset
/// as it was measured, turned into A's frame.
#[test]
fn nearly_touching_rounded_boxes_give_unit_normals() {
    let upper = Shape::rounded_rectangle(8.35, 8.33, 0.833);
    let lower = Shape::rounded_rectangle(2.0, 0.05, 0.353);
    let (pu, pl) = (Isometry::translation(-41.09, -41.62), Isometry::translation(-50.0, -50.0));
    // The cores' facing sides are both at y = -49.95: the rounding overlaps whole.
    let depth = 0.833 + 0.353;
    for (a, pa, b, pb, up) in [(&upper, &pu, &lower, &pl, -1.0), (&lower, &pl, &upper, &pu, 1.0)] {
        let p = lamina2d::query::penetration(a, pa, b, pb).expect("the roundings overlap");
        assert!((p.normal.norm() - 1.0).abs() < 1e-5, "penetration normal {}", p.normal);
        assert!((p.normal.y - up).abs() < 1e-5, "normal {} should point {up} along y", p.normal);
        assert!((p.depth - depth).abs() < 1e-4, "depth {} against {depth}", p.depth);
    }
}

/// Root cause: a segment's ray cast divided two cross products of its edge,
/// and an edge 6·10⁻⁴⁵ m long makes them subnormal, with a few bits each:
/// the hit on such a segment at (5.5, 17.0) lay 0.4 m from it (found by
/// `fuzz/run.sh` with seed 3; the input is `fuzz/regressions/pair_queries/
/// subnormal-segment-ray`). Where an edge's square, or its product with the
/// ray's direction, is below the normal numbers, the hit is now measured
/// along the edge's unit normal and direction; capsules' sides as well.
#[test]
fn rays_hit_subnormal_segments_where_they_are() {
    let tiny = Real::MIN_POSITIVE / 1_048_576.0;
    assert!(tiny > 0.0 && tiny < Real::MIN_POSITIVE, "the test needs a subnormal length");
    // Straight down onto a point-like segment, and onto a capsule round it,
    // with a direction whose product with the edge rounds (0.3 of the edge
    // is not a multiple of the smallest subnormal).
    let ray = Ray::new(Point::new(0.0, 5.0), Vec2::new(0.0, -0.3));
    let segment = Shape::segment(Point::new(0.0, 0.0), Point::new(tiny, 0.0));
    let hit = segment.cast_ray(&Isometry::identity(), &ray, 100.0).expect("the ray meets the segment");
    assert!((hit.toi - 5.0 / 0.3).abs() < 1e-4, "toi {} against 5 / 0.3", hit.toi);
    assert!((hit.normal - Vec2::new(0.0, 1.0)).norm() < 1e-5, "normal {}", hit.normal);
    let capsule = Shape::capsule(Point::new(0.0, 0.0), Point::new(tiny, 0.0), 0.5);
    let hit = capsule.cast_ray(&Isometry::identity(), &ray, 100.0).expect("the ray meets the capsule");
    assert!((hit.toi - 4.5 / 0.3).abs() < 1e-4, "toi {} against 4.5 / 0.3", hit.toi);
    // The fuzzer's case: the ray passes 0.397 m from the segment (at
    // (19.80, 3.04), on the line y − x = −16.76 where the ray's is −16.2).
    let segment = Shape::segment(Point::new(0.0, -20.0), Point::new(6e-45, -20.0));
    let pose = Isometry::from_parts(
        Vec2::new(5.5, 17.019997).into(),
        Rotation::from_cos_sin_unchecked(0.69907016, 0.7150531),
    );
    let ray = Ray::new(Point::new(50.300003, 34.100006), Vec2::new(-0.6999998, -0.6999998));
    let hit = segment.cast_ray(&pose, &ray, 1000.0);
    assert!(hit.is_none(), "the ray passes 0.4 m from the segment, yet hit it: {hit:?}");
}

/// Root cause: `World::step` took any positive time step, and a step of
/// 9.18·10⁻⁴¹ s has a substep whose inverse overflows an `f32`: a distance
/// joint's force came out as the largest float and its torque as NaN (found
/// by `fuzz/run.sh` with seed 4; the input is `fuzz/regressions/
/// world_commands/subnormal-time-step`). Steps shorter than
/// [`MIN_TIME_STEP`](lamina2d::dynamics::MIN_TIME_STEP), a nanosecond, are now
/// refused, and the shortest one taken keeps every force finite.
#[test]
fn time_steps_shorter_than_a_nanosecond_are_refused() {
    use lamina2d::dynamics::MIN_TIME_STEP;
    let mut world = World::new(WorldSettings::default());
    let body = world.add_body(BodyDesc::dynamic().translation(-10.65, -3.78).angular_velocity(8.22));
    world.add_collider(body, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    let fixed = world.add_body(BodyDesc::fixed().translation(-4.87, -4.87));
    let anchor = Point::new(-0.45, 1.92);
    world.add_joint(JointDesc::distance(body, fixed, anchor, Point::new(-20.0, -4.87))).unwrap();
    for _ in 0..27 {
        world.step(1.0 / 30.0).unwrap();
    }
    let hash = world.state_hash();
    let err = world.step(9.18e-41 as Real).unwrap_err();
    assert!(matches!(err, WorldError::InvalidTimeStep { .. }), "{err:?}");
    assert_eq!(world.state_hash(), hash, "a refused step changes nothing");
    for _ in 0..10 {
        world.step(MIN_TIME_STEP).unwrap();
    }
    let joint = world.joints().next().expect("the joint").1;
    let (force, torque) = (joint.constraint_force(), joint.constraint_torque());
    assert!(
        force.x.is_finite() && force.y.is_finite() && torque.is_finite(),
        "force {force}, torque {torque}"
    );
    assert!(force.norm() < Real::MAX, "force {force}");
}
