//! Joints in the world: bad input refused with the world left as it was,
//! jointed bodies kept from colliding, islands that sleep and wake as one,
//! and joints removed with their bodies.

use lamina_dynamics::{
    BodyDesc, BodyKey, ColliderDesc, JointDesc, JointKind, World, WorldError, WorldSettings,
};
use lamina_geometry::{Point, Real, Shape, Vec2};

const DT: Real = 1.0 / 60.0;

fn boxed(world: &mut World, x: Real, y: Real) -> BodyKey {
    let b = world.add_body(BodyDesc::dynamic().translation(x, y));
    world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
    b
}

fn ground(world: &mut World) -> BodyKey {
    let g = world.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    world.add_collider(g, ColliderDesc::new(Shape::rectangle(20.0, 1.0))).unwrap();
    g
}

fn step(world: &mut World, steps: usize) {
    for _ in 0..steps {
        world.step(DT).unwrap();
    }
}

/// A fingerprint of everything a refused call must leave alone.
fn fingerprint(w: &World) -> (u64, usize, usize, Vec<usize>) {
    let joints_per_body = w.bodies().map(|(_, b)| b.joints().len()).collect();
    (w.state_hash(), w.joint_count(), w.contacts().count(), joints_per_body)
}

#[test]
fn bad_joints_are_refused_naming_the_value_and_change_nothing() {
    let mut w = World::new(WorldSettings::default());
    let g = ground(&mut w);
    let a = boxed(&mut w, 0.0, 0.5);
    let b = boxed(&mut w, 1.0, 0.5);
    step(&mut w, 5);
    let stale = boxed(&mut w, 5.0, 5.0);
    w.remove_body(stale).expect("a live body");
    let before = fingerprint(&w);
    let p = Point::new(0.5, 0.5);
    let x = Vec2::new(1.0, 0.0);
    let nan = Real::NAN;
    let cases: Vec<(JointDesc, &str)> = vec![
        (JointDesc::revolute(a, stale, p), "not in this world"),
        (JointDesc::revolute(stale, b, p), "not in this world"),
        (JointDesc::weld(a, a, p), "two different bodies"),
        (JointDesc::revolute(a, b, Point::new(nan, 0.0)), "anchor_a"),
        (JointDesc::distance(a, b, p, Point::new(0.0, Real::INFINITY)), "anchor_b"),
        (JointDesc::prismatic(a, b, p, Vec2::zeros()), "axis length"),
        (JointDesc::wheel(a, b, p, Vec2::new(nan, 1.0)), "axis"),
        (JointDesc::revolute(a, b, p).limits(1.0, -1.0), "lower limit"),
        (JointDesc::revolute(a, b, p).limits(nan, 1.0), "lower limit"),
        (JointDesc::distance(a, b, p, Point::new(1.0, 0.5)).limits(-0.5, 1.0), "minimum length"),
        (JointDesc::revolute(a, b, p).spring(-1.0, 0.5), "spring hertz"),
        (JointDesc::prismatic(a, b, p, x).spring(1.0, -0.5), "spring damping ratio"),
        (JointDesc::revolute(a, b, p).motor(nan, 1.0), "motor speed"),
        (JointDesc::wheel(a, b, p, x).motor(1.0, -1.0), "motor max"),
        (JointDesc::mouse(b, p).max_force(-1.0), "max force"),
        (JointDesc::motor_joint(a, b).max_torque(nan), "max torque"),
        (JointDesc::motor_joint(a, b).correction_factor(1.5), "correction factor"),
        (JointDesc::revolute(a, b, p).softness(-60.0, 2.0), "softness hertz"),
        (JointDesc::weld(a, b, p).limits(-1.0, 1.0), "no limits"),
        (JointDesc::motor_joint(a, b).spring(1.0, 1.0), "no spring"),
        (JointDesc::weld(g, b, p).motor(1.0, 1.0), "no motor"),
    ];
    for (desc, expected) in cases {
        let err = w.add_joint(desc).expect_err(expected);
        assert!(err.to_string().contains(expected), "{err} should mention {expected}");
        assert_eq!(fingerprint(&w), before, "{expected}: the world changed");
    }
    assert!(matches!(w.remove_joint(Default::default()), Err(WorldError::StaleJoint(_))));

    // Run-time changes: refused values leave the joint as it was.
    let hinge = w.add_joint(JointDesc::revolute(a, b, p).motor(1.0, 5.0)).unwrap();
    let joint = w.joint_mut(hinge).unwrap();
    let desc = *joint.desc();
    assert!(joint.set_motor_speed(nan).is_err());
    assert!(joint.set_limits(0.5, -0.5).is_err());
    assert!(joint.set_spring(nan, 1.0).is_err());
    assert!(matches!(joint.set_target(p), Err(WorldError::WrongJointKind { kind: JointKind::Revolute, .. })));
    assert_eq!(*w.joint(hinge).unwrap().desc(), desc);
    let mouse = w.add_joint(JointDesc::mouse(b, p)).unwrap();
    let mouse = w.joint_mut(mouse).unwrap();
    assert!(mouse.set_target(Point::new(nan, 0.0)).is_err());
    assert_eq!(mouse.target(), p);
}

#[test]
fn jointed_bodies_do_not_collide_unless_asked() {
    for collide in [false, true] {
        let mut w = World::new(WorldSettings { gravity: Vec2::zeros(), ..WorldSettings::default() });
        // Two boxes overlapping by half their width, hinged at the middle of the overlap.
        let a = boxed(&mut w, 0.0, 0.0);
        let b = boxed(&mut w, 0.5, 0.0);
        w.add_joint(JointDesc::revolute(a, b, Point::new(0.25, 0.0)).collide_connected(collide)).unwrap();
        step(&mut w, 30);
        let touching = w.contacts().filter(|c| c.is_touching()).count();
        let gap = w.body(b).unwrap().position().translation.x - w.body(a).unwrap().position().translation.x;
        if collide {
            // The contact pushes against the hinge: the boxes fight but stay pinned.
            assert!(touching > 0, "collide_connected: no contact");
        } else {
            assert_eq!(touching, 0, "jointed boxes touch");
            assert!((gap - 0.5).abs() < 1e-3, "jointed boxes pushed apart to {gap}");
        }
    }
}

#[test]
fn a_joint_removes_its_bodies_contact_and_removing_it_brings_it_back() {
    let mut w = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    ground(&mut w);
    let a = boxed(&mut w, 0.0, 0.5);
    let b = boxed(&mut w, 0.0, 1.5);
    step(&mut w, 30);
    let between = |w: &World| {
        w.contacts()
            .filter(|c| {
                let pair = (c.body_a(), c.body_b());
                pair == (a, b) || pair == (b, a)
            })
            .count()
    };
    assert_eq!(between(&w), 1);
    let joint = w.add_joint(JointDesc::weld(a, b, Point::new(0.0, 1.0))).unwrap();
    assert_eq!(between(&w), 0, "the joint left the contact");
    step(&mut w, 30);
    assert_eq!(between(&w), 0, "the contact came back while jointed");
    w.remove_joint(joint).unwrap();
    assert_eq!(between(&w), 1, "the contact did not come back");
    step(&mut w, 60);
    // Stacked and resting: the top box sits on the lower one again.
    let y = w.body(b).unwrap().position().translation.y;
    assert!((y - 1.5).abs() < 0.02, "top box at {y}");
}

#[test]
fn removing_a_body_removes_its_joints() {
    let mut w = World::new(WorldSettings::default());
    let a = boxed(&mut w, 0.0, 0.0);
    let b = boxed(&mut w, 2.0, 0.0);
    let c = boxed(&mut w, 4.0, 0.0);
    let ab = w.add_joint(JointDesc::revolute(a, b, Point::new(1.0, 0.0))).unwrap();
    let bc = w.add_joint(JointDesc::revolute(b, c, Point::new(3.0, 0.0))).unwrap();
    w.remove_body(b).expect("a live body");
    assert!(w.joint(ab).is_none() && w.joint(bc).is_none());
    assert_eq!(w.joint_count(), 0);
    assert!(w.body(a).unwrap().joints().is_empty() && w.body(c).unwrap().joints().is_empty());
    step(&mut w, 10);
}

/// Two boxes welded side by side on the ground are one island: they fall
/// asleep on the same step, and touching one wakes both. Once the weld is
/// removed they sleep and wake apart.
#[test]
fn a_jointed_assembly_sleeps_and_wakes_as_one() {
    let mut w = World::new(WorldSettings::default());
    ground(&mut w);
    let a = boxed(&mut w, 0.0, 0.5);
    let b = boxed(&mut w, 3.0, 0.5);
    let weld = w.add_joint(JointDesc::distance(a, b, Point::new(0.0, 0.5), Point::new(3.0, 0.5))).unwrap();
    let mut slept = None;
    for n in 0..600 {
        w.step(DT).unwrap();
        let (sa, sb) = (w.body(a).unwrap().is_sleeping(), w.body(b).unwrap().is_sleeping());
        assert_eq!(sa, sb, "step {n}: the jointed bodies sleep apart");
        if sa {
            slept = Some(n);
            break;
        }
    }
    assert!(slept.is_some(), "never slept");
    w.body_mut(a).unwrap().set_linear_velocity(Vec2::new(0.0, 2.0)).unwrap();
    w.step(DT).unwrap();
    assert!(!w.body(b).unwrap().is_sleeping(), "b slept on while a was woken");

    // A motor change wakes the bodies too.
    step(&mut w, 300);
    assert!(w.body(b).unwrap().is_sleeping());
    w.joint_mut(weld).unwrap().set_motor_speed(0.5).unwrap();
    w.step(DT).unwrap();
    assert!(!w.body(a).unwrap().is_sleeping() && !w.body(b).unwrap().is_sleeping());

    // Apart: b is kept moving, a rests and falls asleep alone.
    w.remove_joint(weld).unwrap();
    for _ in 0..120 {
        w.body_mut(b).unwrap().set_linear_velocity(Vec2::new(0.5, 0.0)).unwrap();
        w.step(DT).unwrap();
    }
    assert!(w.body(a).unwrap().is_sleeping(), "a stayed awake with b");
    assert!(!w.body(b).unwrap().is_sleeping());
}

/// A mouse joint drags a box to its target and holds it there.
#[test]
fn mouse_joint_drags_a_body_to_its_target() {
    let mut w = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    ground(&mut w);
    let a = boxed(&mut w, 0.0, 0.5);
    let grab = Point::new(0.0, 0.5);
    let mass = w.body(a).unwrap().mass();
    let mouse = w.add_joint(JointDesc::mouse(a, grab).max_force(1000.0 * mass)).unwrap();
    let target = Point::new(3.0, 4.0);
    w.joint_mut(mouse).unwrap().set_target(target).unwrap();
    step(&mut w, 180);
    let at = w.body(a).unwrap().position().translation.vector;
    // Hanging from its centre, the box sags below the target by g/ω² (5 Hz).
    let omega = 2.0 * std::f64::consts::PI as Real * 5.0;
    let sag = 10.0 / (omega * omega);
    assert!((at - Vec2::new(3.0, 4.0 - sag)).norm() < 0.01, "box at {at}, sag {sag}");
    let force = w.joint(mouse).unwrap().constraint_force();
    assert!((force.y - mass * 10.0).abs() < 0.01 * mass * 10.0, "holds {force:?}");
}

/// A motor joint brings B back to its pose relative to A after a shove.
#[test]
fn motor_joint_returns_the_body_to_its_pose() {
    let mut w =
        World::new(WorldSettings { enable_sleep: false, gravity: Vec2::zeros(), ..WorldSettings::default() });
    let a = w.add_body(BodyDesc::fixed());
    let b = boxed(&mut w, 2.0, 1.0);
    w.add_joint(JointDesc::motor_joint(a, b).max_force(100.0).max_torque(100.0)).unwrap();
    w.body_mut(b).unwrap().set_linear_velocity(Vec2::new(3.0, -2.0)).unwrap();
    w.body_mut(b).unwrap().set_angular_velocity(4.0).unwrap();
    step(&mut w, 240);
    let body = w.body(b).unwrap();
    let p = body.position().translation.vector;
    assert!((p - Vec2::new(2.0, 1.0)).norm() < 1e-3, "at {p}");
    assert!(body.angle().abs() < 1e-3, "turned {}", body.angle());
}
