//! Surface materials against physics worked by hand: a conveyor belt
//! (`tangent_speed`) carries what rests on it at its speed, reached at the
//! acceleration friction allows; rolling resistance slows a rolling disc at
//! the deceleration its torque gives, and stops it, while a disc without it
//! keeps rolling; bad values are refused with the world unchanged.

use lamina_dynamics::{BodyDesc, BodyKey, ColliderDesc, World, WorldError, WorldSettings};
use lamina_geometry::{Real, Shape};

const DT: Real = 1.0 / 60.0;
const G: Real = 10.0;

/// A fixed ground 20 m wide whose top face is at y = 0, moving at
/// `belt` m/s, and a 1 m box resting on it with friction `mu` (both
/// colliders'; the default mixing is their geometric mean, `mu`). With
/// `box_first` the box's collider is made first, so that it is body A of
/// the contact: the belt must carry it the same way.
fn belt_and_box(belt: Real, mu: Real, box_first: bool) -> (World, BodyKey) {
    let mut world = World::new(WorldSettings::default());
    let make_box = |world: &mut World| {
        let b = world.add_body(BodyDesc::dynamic().translation(0.0, 0.5));
        world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5)).friction(mu)).unwrap();
        b
    };
    let make_ground = |world: &mut World| {
        let g = world.add_body(BodyDesc::fixed().translation(0.0, -0.5));
        let belt = ColliderDesc::new(Shape::rectangle(10.0, 0.5)).friction(mu).tangent_speed(belt);
        world.add_collider(g, belt).unwrap();
    };
    let b = if box_first {
        let b = make_box(&mut world);
        make_ground(&mut world);
        b
    } else {
        make_ground(&mut world);
        make_box(&mut world)
    };
    (world, b)
}

fn speed_x(world: &World, b: BodyKey) -> Real {
    world.body(b).unwrap().linear_velocity().x
}

/// A box set down at rest on a belt moving at 2 m/s is accelerated by
/// sliding friction, μg = 3 m/s² for μ = 0.3, so it reaches the belt's
/// speed after v/(μg) = 2/3 s; from then on it rides at 2 m/s. The top face
/// of the belt carries to the right for a positive speed whichever
/// collider is the contact's first, and to the left for a negative one.
#[test]
fn a_box_on_a_belt_moves_at_the_belts_speed() {
    for box_first in [false, true] {
        for belt in [2.0, -2.0] {
            let (mut world, b) = belt_and_box(belt, 0.3, box_first);
            // 0.3 s in: still slipping, at μ g t = 0.9 m/s.
            for _ in 0..18 {
                world.step(DT).unwrap();
            }
            let early = speed_x(&world, b);
            let expected = 0.3 * G * 0.3 * belt.signum();
            assert!(
                (early - expected).abs() < 0.08,
                "belt {belt}, box first {box_first}: {early} m/s after 0.3 s, friction gives {expected}"
            );
            for _ in 0..102 {
                world.step(DT).unwrap();
            }
            let v = world.body(b).unwrap().linear_velocity();
            assert!(
                (v.x - belt).abs() < 0.01 * belt.abs() && v.y.abs() < 0.01,
                "belt {belt}, box first {box_first}: the box moves at {v:?}"
            );
            let w = world.body(b).unwrap().angular_velocity();
            assert!(w.abs() < 0.01, "the box rides flat, turning at {w}");
        }
    }
}

/// Without a tangent speed the same box stays where it was put: the belt's
/// speed, and nothing else, moves it.
#[test]
fn a_still_belt_moves_nothing() {
    let (mut world, b) = belt_and_box(0.0, 0.3, false);
    for _ in 0..120 {
        world.step(DT).unwrap();
    }
    let x = world.body(b).unwrap().position().translation.x;
    assert!(x.abs() < 1.0e-4, "the box drifted to x = {x}");
}

/// A disc of radius 0.5 rolling without slipping at 3 m/s on flat ground.
fn rolling_disc(resistance: Real) -> (World, BodyKey) {
    let mut world = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    let g = world.add_body(BodyDesc::fixed().translation(0.0, -0.5));
    world.add_collider(g, ColliderDesc::new(Shape::rectangle(50.0, 0.5))).unwrap();
    let (r, v) = (0.5, 3.0);
    let disc = world.add_body(
        BodyDesc::dynamic()
            .translation(-20.0, r)
            .linear_velocity(lamina_geometry::Vec2::new(v, 0.0))
            .angular_velocity(-v / r),
    );
    let desc = ColliderDesc::new(Shape::circle(r)).rolling_resistance(resistance);
    world.add_collider(disc, desc).unwrap();
    (world, disc)
}

/// Rolling resistance r resists the disc's turning with a torque of at most
/// r·R·N = r·R·m·g. Rolling without slipping, friction f and that torque
/// give m·a = −f and I·α = f·R − r·R·m·g with a = α·R, so the disc slows at
/// a = r·g / (1 + I/(m·R²)) = (2/3)·r·g for a uniform disc (I = m·R²/2):
/// 0.667 m/s² for r = 0.1. From 3 m/s it stops after 4.5 s, 6.75 m on, and
/// stays stopped; the same disc without resistance rolls on at 3 m/s.
#[test]
fn rolling_resistance_slows_a_disc_at_the_rate_its_torque_gives_and_stops_it() {
    let (mut resisted, disc) = rolling_disc(0.1);
    let (mut free, free_disc) = rolling_disc(0.0);
    let a = 2.0 / 3.0 * 0.1 * G;
    for _ in 0..120 {
        resisted.step(DT).unwrap();
        free.step(DT).unwrap();
    }
    let v = speed_x(&resisted, disc);
    let expected = 3.0 - a * 2.0;
    assert!((v - expected).abs() < 0.03 * expected, "after 2 s: {v} m/s, by hand {expected}");
    let spin = resisted.body(disc).unwrap().angular_velocity();
    assert!((spin * 0.5 + v).abs() < 0.02, "the disc still rolls without slipping: v {v}, ω {spin}");
    for _ in 120..330 {
        resisted.step(DT).unwrap();
        free.step(DT).unwrap();
    }
    let body = resisted.body(disc).unwrap();
    let (v, w) = (body.linear_velocity().x, body.angular_velocity());
    assert!(v.abs() < 0.01 && w.abs() < 0.02, "stopped after 5.5 s: v {v}, ω {w}");
    let travelled = body.position().translation.x + 20.0;
    let by_hand = 3.0 * 3.0 / (2.0 * a);
    assert!((travelled - by_hand).abs() < 0.03 * by_hand, "rolled {travelled} m, by hand {by_hand}");
    for _ in 0..120 {
        resisted.step(DT).unwrap();
    }
    let v = speed_x(&resisted, disc);
    assert!(v.abs() < 0.01, "the disc stays stopped, not rolling back: {v} m/s");
    let free_v = speed_x(&free, free_disc);
    assert!((free_v - 3.0).abs() < 0.03, "without resistance the disc keeps rolling: {free_v} m/s");
}

/// A resisted disc at rest on a slope its resistance holds stays put: on an
/// incline of angle θ, friction f = m·g·sin θ holds it from sliding, and
/// its torque about the centre, f·R, must be held by the rolling torque,
/// at most r·R·m·g·cos θ: held while tan θ ≤ r. A disc with r = 0.2 on a
/// 5° slope (tan 5° = 0.087) must not roll away.
#[test]
fn rolling_resistance_holds_a_disc_on_a_gentle_slope() {
    let mut world = World::new(WorldSettings::default());
    let angle: Real = 5.0_f64.to_radians() as Real;
    let slope = world.add_body(BodyDesc::fixed().angle(angle));
    world.add_collider(slope, ColliderDesc::new(Shape::rectangle(20.0, 0.5))).unwrap();
    let (s, c) = angle.sin_cos();
    let up = 0.5 + 0.5;
    let disc = world.add_body(BodyDesc::dynamic().translation(-s * up, c * up));
    world.add_collider(disc, ColliderDesc::new(Shape::circle(0.5)).rolling_resistance(0.2)).unwrap();
    let start = world.body(disc).unwrap().position().translation.vector;
    for _ in 0..300 {
        world.step(DT).unwrap();
    }
    let moved = (world.body(disc).unwrap().position().translation.vector - start).norm();
    assert!(moved < 0.02, "the disc rolled {moved} m down a slope its resistance holds");
}

/// Every bad surface value is refused, naming it, and the world is as it was.
#[test]
fn bad_surface_values_are_refused() {
    let (mut world, _) = belt_and_box(1.0, 0.6, false);
    world.step(DT).unwrap();
    let (hash, colliders) = (world.state_hash(), world.colliders().count());
    let body = world.add_body(BodyDesc::dynamic());
    let hash_with_body = world.state_hash();
    let bad: [(ColliderDesc, &str, Real); 6] = [
        (ColliderDesc::new(Shape::circle(0.5)).tangent_speed(Real::NAN), "tangent_speed", Real::NAN),
        (
            ColliderDesc::new(Shape::circle(0.5)).tangent_speed(Real::INFINITY),
            "tangent_speed",
            Real::INFINITY,
        ),
        (ColliderDesc::new(Shape::circle(0.5)).tangent_speed(-1.0e7), "tangent_speed", -1.0e7),
        (ColliderDesc::new(Shape::circle(0.5)).rolling_resistance(-0.1), "rolling_resistance", -0.1),
        (
            ColliderDesc::new(Shape::circle(0.5)).rolling_resistance(Real::NAN),
            "rolling_resistance",
            Real::NAN,
        ),
        (
            ColliderDesc::new(Shape::circle(0.5)).rolling_resistance(Real::INFINITY),
            "rolling_resistance",
            Real::INFINITY,
        ),
    ];
    for (desc, name, value) in bad {
        let error = world.add_collider(body, desc).unwrap_err();
        match &error {
            WorldError::InvalidColliderProperty { name: n, value: v } => {
                assert_eq!(*n, name);
                assert!(v.to_bits() == value.to_bits(), "{name}: {v} reported for {value}");
            }
            other => panic!("{name}: {other:?}"),
        }
        assert!(error.to_string().contains(name), "the message names {name}: {error}");
        assert_eq!((world.state_hash(), world.colliders().count()), (hash_with_body, colliders));
    }
    world.remove_body(body).unwrap();
    assert_eq!(world.state_hash(), hash);
}

/// A snapshot keeps the materials and the rolling impulse: a world restored
/// mid-roll on a belt steps bit for bit as the original.
#[cfg(feature = "serde")]
#[test]
fn a_restored_world_keeps_its_surfaces() {
    let (mut world, _) = rolling_disc(0.1);
    let belt = world.add_body(BodyDesc::fixed().translation(10.0, 3.0));
    world.add_collider(belt, ColliderDesc::new(Shape::rectangle(3.0, 0.2)).tangent_speed(1.5)).unwrap();
    let rider = world.add_body(BodyDesc::dynamic().translation(10.0, 3.7));
    world.add_collider(rider, ColliderDesc::new(Shape::circle(0.5)).rolling_resistance(0.3)).unwrap();
    for _ in 0..30 {
        world.step(DT).unwrap();
    }
    let mut restored = World::restore(&world.snapshot()).unwrap();
    let rolling: Vec<Real> = world.contacts().map(|c| c.rolling_impulse()).collect();
    assert!(rolling.iter().any(|&r| r != 0.0), "some contact resists rolling: {rolling:?}");
    for _ in 0..60 {
        world.step(DT).unwrap();
        restored.step(DT).unwrap();
        assert_eq!(world.state_hash(), restored.state_hash());
    }
}
