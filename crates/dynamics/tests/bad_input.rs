//! Bad input gets a typed error that names the value, and the world is left
//! exactly as it was (same state hash, same bodies and colliders).

use lamina_dynamics::{BodyDesc, ColliderDesc, World, WorldError, WorldSettings};
use lamina_geometry::{Isometry, Real, Rotation, Shape, Vec2};

fn scene() -> (World, lamina_dynamics::BodyKey) {
    let mut w = World::new(WorldSettings::default());
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 1.0))).unwrap();
    let b = w.add_body(BodyDesc::dynamic().translation(0.0, 2.0));
    w.add_collider(b, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    for _ in 0..10 {
        w.step(1.0 / 60.0).unwrap();
    }
    (w, b)
}

fn unchanged(w: &World, hash: u64, bodies: usize, colliders: usize) {
    assert_eq!(w.state_hash(), hash);
    assert_eq!(w.body_count(), bodies);
    assert_eq!(w.colliders().count(), colliders);
}

#[test]
fn bad_time_steps_are_refused() {
    let (mut w, _) = scene();
    let (hash, bodies, colliders) = (w.state_hash(), w.body_count(), w.colliders().count());
    for dt in [0.0, -1.0 / 60.0, Real::NAN, Real::INFINITY, 1e-10, 9.18e-41 as Real] {
        let err = w.step(dt).unwrap_err();
        assert!(matches!(err, WorldError::InvalidTimeStep { .. }));
        assert!(err.to_string().contains(&dt.to_string()), "{err}");
        unchanged(&w, hash, bodies, colliders);
    }
}

#[test]
fn bad_colliders_are_refused() {
    let (mut w, b) = scene();
    let (hash, bodies, colliders) = (w.state_hash(), w.body_count(), w.colliders().count());
    let mass = w.body(b).unwrap().mass();
    // Each bad description, whether the error is about the shape or a property,
    // and the bad value the message must name.
    let cases = [
        (ColliderDesc::new(Shape::circle(Real::NAN)), true, "NaN"),
        (ColliderDesc::new(Shape::circle(-1.0)), true, "-1"),
        (ColliderDesc::new(Shape::rectangle(0.0, 1.0)), true, "0"),
        (ColliderDesc::new(Shape::circle(1.0)).density(-2.0), false, "-2"),
        (ColliderDesc::new(Shape::circle(1.0)).density(Real::INFINITY), false, "inf"),
        (ColliderDesc::new(Shape::circle(1.0)).friction(Real::NAN), false, "NaN"),
        (ColliderDesc::new(Shape::circle(1.0)).restitution(-0.5), false, "-0.5"),
        (
            ColliderDesc::new(Shape::circle(1.0)).local_pose(Isometry::translation(Real::NAN, 0.0)),
            false,
            "NaN",
        ),
    ];
    for (desc, shape_error, value) in cases {
        let err = w.add_collider(b, desc.clone()).unwrap_err();
        let kind_ok = if shape_error {
            matches!(err, WorldError::InvalidShape(_))
        } else {
            matches!(err, WorldError::InvalidColliderProperty { .. })
        };
        assert!(kind_ok, "{desc:?} gave {err:?}");
        assert!(err.to_string().contains(value), "{desc:?}: '{err}' does not name {value}");
        unchanged(&w, hash, bodies, colliders);
        assert_eq!(w.body(b).unwrap().mass(), mass, "{desc:?} changed the mass");
    }
}

#[test]
fn stale_keys_are_refused() {
    let (mut w, b) = scene();
    let c = w.body(b).unwrap().colliders()[0];
    w.remove_body(b).expect("a live body");
    let (hash, bodies, colliders) = (w.state_hash(), w.body_count(), w.colliders().count());
    assert!(matches!(
        w.add_collider(b, ColliderDesc::new(Shape::circle(1.0))),
        Err(WorldError::StaleBody(_))
    ));
    assert!(matches!(w.remove_collider(c), Err(WorldError::StaleCollider(_))));
    assert!(matches!(w.set_body_position(b, Isometry::identity()), Err(WorldError::StaleBody(_))));
    assert!(w.body(b).is_none() && w.body_mut(b).is_none() && w.collider(c).is_none());
    assert_eq!(w.remove_body(b), Err(WorldError::StaleBody(b)));
    unchanged(&w, hash, bodies, colliders);
}

#[test]
fn non_finite_body_values_are_refused() {
    let (mut w, b) = scene();
    let (hash, bodies, colliders) = (w.state_hash(), w.body_count(), w.colliders().count());
    assert!(w.try_add_body(BodyDesc::dynamic().translation(Real::NAN, 0.0)).is_err());
    assert!(w.try_add_body(BodyDesc::dynamic().linear_velocity(Vec2::new(0.0, Real::INFINITY))).is_err());
    assert!(w.try_add_body(BodyDesc::dynamic().linear_damping(-1.0)).is_err());
    let body = w.body_mut(b).unwrap();
    assert!(body.set_linear_velocity(Vec2::new(Real::NAN, 0.0)).is_err());
    assert!(body.set_angular_velocity(Real::INFINITY).is_err());
    assert!(body.apply_impulse(Vec2::new(Real::NAN, 1.0)).is_err());
    assert!(body.apply_force(Vec2::new(1.0, Real::NEG_INFINITY)).is_err());
    assert!(body.apply_torque(Real::NAN).is_err());
    assert!(w.set_body_position(b, Isometry::translation(Real::NAN, 0.0)).is_err());
    unchanged(&w, hash, bodies, colliders);
    // And a step afterwards still gives finite numbers.
    w.step(1.0 / 60.0).unwrap();
    let p = w.body(b).unwrap().position().translation.vector;
    assert!(p.x.is_finite() && p.y.is_finite());
}

#[test]
fn bad_settings_are_refused() {
    let bad = [
        WorldSettings { gravity: Vec2::new(Real::NAN, 0.0), ..WorldSettings::default() },
        WorldSettings { substeps: 0, ..WorldSettings::default() },
        WorldSettings { contact_hertz: -1.0, ..WorldSettings::default() },
        WorldSettings { time_to_sleep: Real::NAN, ..WorldSettings::default() },
    ];
    for s in bad {
        let err = World::try_new(s).err().expect("refused");
        assert!(matches!(err, WorldError::InvalidSetting { .. }), "{err}");
        let (mut w, _) = scene();
        let before = *w.settings();
        assert!(w.set_settings(s).is_err());
        assert_eq!(*w.settings(), before);
    }
}

/// Even extreme but finite input never puts a NaN into the state.
#[test]
fn extreme_finite_input_stays_finite() {
    let mut w = World::new(WorldSettings::default());
    let ground = w.add_body(BodyDesc::fixed());
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(50.0, 1.0))).unwrap();
    let fast = w.add_body(
        BodyDesc::dynamic().translation(0.0, 5.0).linear_velocity(Vec2::new(1e6, -1e6)).angular_velocity(1e6),
    );
    w.add_collider(fast, ColliderDesc::new(Shape::rectangle(0.01, 5.0)).density(1e-6)).unwrap();
    let heavy = w.add_body(BodyDesc::dynamic().translation(0.0, 2.0));
    w.add_collider(heavy, ColliderDesc::new(Shape::circle(1.0)).density(1e6)).unwrap();
    let coincident = w.add_body(BodyDesc::dynamic().translation(0.0, 2.0));
    w.add_collider(coincident, ColliderDesc::new(Shape::circle(1.0))).unwrap();
    let massless = w.add_body(BodyDesc::dynamic().translation(3.0, 3.0));
    w.add_collider(massless, ColliderDesc::new(Shape::circle(1.0)).density(0.0)).unwrap();
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    for (_, b) in w.bodies() {
        let p = b.position();
        let v = b.linear_velocity();
        for x in
            [p.translation.x, p.translation.y, p.rotation.re, p.rotation.im, v.x, v.y, b.angular_velocity()]
        {
            assert!(x.is_finite(), "non-finite state {x}");
        }
    }
}

/// Finite values too large to compute with (frictions whose mix overflows,
/// forces whose sum overflows) and rotations that are not rotations are
/// refused with the value, changing nothing.
#[test]
fn huge_finite_values_are_refused_or_held() {
    let (mut w, b) = scene();
    let (hash, bodies, colliders) = (w.state_hash(), w.body_count(), w.colliders().count());
    let err = w.add_collider(b, ColliderDesc::new(Shape::circle(1.0)).friction(1e19)).unwrap_err();
    assert!(matches!(err, WorldError::InvalidColliderProperty { name: "friction", .. }), "{err:?}");
    unchanged(&w, hash, bodies, colliders);

    let big = Vec2::new(Real::MAX, 0.0);
    w.body_mut(b).unwrap().apply_force(big).unwrap();
    let err = w.body_mut(b).unwrap().apply_force(big).unwrap_err();
    assert!(err.to_string().contains("inf"), "{err}");

    // Twice a unit rotation: a scaling, not a rotation.
    let here = w.body(b).unwrap().position();
    let r = Rotation::new(0.3);
    let doubled = Rotation::new_unchecked(nalgebra::Complex { re: 2.0 * r.re, im: 2.0 * r.im });
    let hash = w.state_hash();
    let err = w.set_body_position(b, Isometry::from_parts(here.translation, doubled)).unwrap_err();
    assert!(err.to_string().contains('2'), "{err}");
    assert_eq!(w.state_hash(), hash);
}

/// Speeds beyond the cap, even ones whose square overflows, are held to the
/// speed cap along their direction; spins to a quarter turn over π per substep.
#[test]
fn huge_velocities_are_capped_along_their_direction() {
    let mut w = World::new(WorldSettings { gravity: Vec2::zeros(), ..WorldSettings::default() });
    let max = WorldSettings::default().max_linear_speed;
    let b = w.add_body(BodyDesc::dynamic());
    w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
    w.body_mut(b).unwrap().set_linear_velocity(Vec2::new(3e38, 3e38)).unwrap();
    w.body_mut(b).unwrap().set_angular_velocity(1e30).unwrap();
    w.step(1.0 / 60.0).unwrap();
    let body = w.body(b).unwrap();
    let v = body.linear_velocity();
    assert!((v.norm() - max).abs() < 1e-3 * max, "speed {}", v.norm());
    assert!((v.x - v.y).abs() < 1e-3 * max, "direction {v}");
    // 4 substeps of at most π/4 each: at most a full turn per step.
    let spin = body.angular_velocity();
    assert!(spin.is_finite() && spin <= std::f64::consts::PI as Real / 4.0 * 240.0 * 1.0001, "spin {spin}");
    let q = body.position().rotation;
    assert!(((q.re * q.re + q.im * q.im) - 1.0).abs() < 1e-4, "rotation {q:?}");
}

/// A collider placed by a rotation that is not a unit complex number would be
/// scaled by it; such a local pose is refused with the rotation's length.
#[test]
fn non_unit_collider_rotations_are_refused() {
    let (mut w, b) = scene();
    let (hash, bodies, colliders) = (w.state_hash(), w.body_count(), w.colliders().count());
    let r = Rotation::new(0.7);
    let stretched = Rotation::new_unchecked(nalgebra::Complex { re: 1.5 * r.re, im: 1.5 * r.im });
    let desc = ColliderDesc::new(Shape::rectangle(1.0, 0.5))
        .local_pose(Isometry::from_parts(Vec2::new(0.5, 0.0).into(), stretched));
    let err = w.add_collider(b, desc).unwrap_err();
    assert!(
        matches!(err, WorldError::InvalidColliderProperty { name: "local_pose.rotation", .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("1.5"), "'{err}' does not name the length 1.5");
    unchanged(&w, hash, bodies, colliders);
    // A unit rotation made from an angle is taken.
    let turned = ColliderDesc::new(Shape::rectangle(1.0, 0.5)).local_pose(Isometry::new(Vec2::zeros(), 0.7));
    w.add_collider(b, turned).unwrap();
}

/// Finite sizes and densities whose mass, inertia or inverse mass leave the
/// finite numbers are refused, naming the overflowing sum; the body keeps the
/// mass it had. The limits are those of `Real`: a 2 m box of density 1e38
/// weighs 4e38 kg (past f32's 3.4e38), one of density 1e308 past f64's
/// largest number; the widest box a shape may be (half-extent 5e5 m, within
/// `MAX_SHAPE_SIZE`) at a finite mass has an inertia of 1.7e11 m² times it;
/// and a density of 1e-300 (f64) or 1e-44 (f32) gives a mass whose inverse
/// overflows.
#[test]
fn masses_beyond_the_numbers_are_refused() {
    let (mut w, b) = scene();
    let (hash, bodies, colliders) = (w.state_hash(), w.body_count(), w.colliders().count());
    let mass = w.body(b).unwrap().mass();
    // Written as f64 and narrowed, so that the f32 build compiles the f64 values too.
    let pick =
        |f64_value: f64, f32_value: f64| (if cfg!(feature = "f64") { f64_value } else { f32_value }) as Real;
    let heavy = pick(1.0e308, 1.0e38);
    let dense = pick(1.0e290, 1.0e20);
    let tiny = pick(1.0e-310, 1.0e-44);
    let cases = [
        (ColliderDesc::new(Shape::rectangle(1.0, 1.0)).density(heavy), "body mass"),
        // A mass that is fine (1e302 or 1e32 kg) and an inertia (m·r²) that is not.
        (ColliderDesc::new(Shape::rectangle(5.0e5, 5.0e5)).density(dense), "body inertia"),
    ];
    for (desc, name) in cases {
        let err = w.add_collider(b, desc.clone()).unwrap_err();
        assert!(
            matches!(err, WorldError::InvalidColliderProperty { name: n, .. } if n == name),
            "{desc:?} gave {err:?}, not {name}"
        );
        let message = err.to_string();
        assert!(message.contains("inf") || message.contains("NaN"), "'{err}' does not name the overflow");
        unchanged(&w, hash, bodies, colliders);
        assert_eq!(w.body(b).unwrap().mass(), mass);
    }
    // A lone body whose only collider is so light that 1/mass overflows.
    let feather = w.add_body(BodyDesc::dynamic().translation(5.0, 5.0));
    let err = w.add_collider(feather, ColliderDesc::new(Shape::circle(0.5)).density(tiny)).unwrap_err();
    assert!(matches!(err, WorldError::InvalidColliderProperty { name: "body mass", .. }), "{err:?}");
    // Sensors add no mass, so their density is no concern of the mass's.
    w.add_collider(b, ColliderDesc::new(Shape::rectangle(1.0, 1.0)).density(heavy).sensor(true))
        .unwrap_or_else(|e| panic!("a dense sensor was refused: {e}"));
}

/// `World::new` and `World::add_body` return no error: where their `try_`
/// form refuses they stop loudly with that form's message, and the world a
/// refused `add_body` was called on is as it was (nothing stands in for the
/// bad value).
#[test]
fn infallible_calls_panic_with_the_try_forms_message() {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    let message = |payload: Box<dyn std::any::Any + Send>| {
        payload.downcast::<String>().map(|s| *s).expect("a formatted panic message")
    };

    let bad = WorldSettings { substeps: 0, ..WorldSettings::default() };
    let refused = World::try_new(bad).err().expect("zero substeps are refused");
    let payload = catch_unwind(|| World::new(bad)).err().expect("World::new panics on bad settings");
    assert_eq!(message(payload), format!("World::new: {refused}"));

    let mut w = World::new(WorldSettings::default());
    w.add_body(BodyDesc::fixed());
    let (hash, bodies) = (w.state_hash(), w.body_count());
    let desc = BodyDesc::dynamic().translation(3.0, 4.0).angular_velocity(Real::NAN);
    let refused = w.try_add_body(desc).unwrap_err();
    assert!(
        matches!(refused, WorldError::InvalidBodyProperty { name: "angular_velocity", .. }),
        "{refused:?}"
    );
    let payload = catch_unwind(AssertUnwindSafe(|| w.add_body(desc))).expect_err("add_body panics");
    assert_eq!(message(payload), format!("World::add_body: {refused}"));
    assert_eq!((w.state_hash(), w.body_count()), (hash, bodies), "the refused body left a trace");
    // Good input still goes in.
    w.add_body(BodyDesc::dynamic());
    assert_eq!(w.body_count(), bodies + 1);
}
