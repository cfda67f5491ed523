//! Explosions against hand-computed impulses: the speed a blast gives is
//! `impulse_per_length × projected perimeter × scale / mass`, with the
//! perimeter and the scale worked out below for each body; bodies beyond
//! the blast, of the wrong kind or category, and sensors get nothing;
//! sleeping bodies are woken; bad blasts are refused with the world as it was.

use lamina_dynamics::{
    BodyDesc, BodyKey, ColliderDesc, CollisionFilter, ExplosionDesc, World, WorldError, WorldSettings,
};
use lamina_geometry::{Point, Real, Shape, Vec2};

const PI: Real = std::f64::consts::PI as Real;

fn world() -> World {
    World::new(WorldSettings { gravity: Vec2::zeros(), ..WorldSettings::default() })
}

fn body(world: &mut World, desc: BodyDesc, shape: Shape) -> BodyKey {
    let b = world.add_body(desc);
    world.add_collider(b, ColliderDesc::new(shape)).unwrap();
    b
}

fn close(a: Vec2, b: Vec2) -> bool {
    (a - b).norm() <= 1e-4 * (1.0 + b.norm())
}

#[test]
fn bodies_at_equal_distances_get_equal_outward_speeds() {
    let mut w = world();
    // Four unit boxes (mass 1) 3 m from the blast, one on each side. Each
    // is seen face on: its closest point is the middle of its near face,
    // the blast pushes along the line of centres, across a width of 1 m.
    // Speed = 2 N·s/m × 1 m / 1 kg = 2 m/s, outwards, no spin.
    let places = [Vec2::new(3.0, 0.0), Vec2::new(-3.0, 0.0), Vec2::new(0.0, 3.0), Vec2::new(0.0, -3.0)];
    let boxes: Vec<BodyKey> = places
        .iter()
        .map(|p| body(&mut w, BodyDesc::dynamic().translation(p.x, p.y), Shape::rectangle(0.5, 0.5)))
        .collect();
    w.explode(&ExplosionDesc::new(Point::origin(), 5.0).impulse_per_length(2.0)).unwrap();
    for (b, p) in boxes.iter().zip(places) {
        let body = w.body(*b).unwrap();
        assert!(close(body.linear_velocity(), p.normalize() * 2.0), "{p:?}: {:?}", body.linear_velocity());
        assert!(body.angular_velocity().abs() < 1e-5, "{p:?}: spin {}", body.angular_velocity());
    }
}

#[test]
fn an_off_centre_hit_spins_the_body() {
    let mut w = world();
    // A unit box at (3, 1): its corner (2.5, 0.5) is nearest the blast at the
    // origin, so the push is along (5, 1)/√26 at that corner. The box's width
    // across that direction, along (-1, 5)/√26, is 6/√26 (corners at
    // ±(0.5 + 2.5)/√26). Impulse J = 2 × 6/√26 × (5, 1)/√26 = (60, 12)/26.
    // Arm r = (2.5, 0.5) - (3, 1) = (-0.5, -0.5); r × J = (-6 + 30)/26 =
    // 24/26; inertia 1/6, so ω = 144/26.
    let b = body(&mut w, BodyDesc::dynamic().translation(3.0, 1.0), Shape::rectangle(0.5, 0.5));
    w.explode(&ExplosionDesc::new(Point::origin(), 5.0).impulse_per_length(2.0)).unwrap();
    let body = w.body(b).unwrap();
    assert!(close(body.linear_velocity(), Vec2::new(60.0, 12.0) / 26.0), "{:?}", body.linear_velocity());
    assert!((body.angular_velocity() - 144.0 / 26.0).abs() < 1e-3, "ω = {}", body.angular_velocity());
}

#[test]
fn the_falloff_band_scales_the_impulse_and_beyond_it_nothing() {
    let mut w = world();
    // Circles of radius 0.5 (mass π/4, width 1 from everywhere). Radius 5,
    // falloff 2: within 5 m whole, across 5..7 linearly less, beyond none.
    let circle = Shape::circle(0.5);
    let mass = PI * 0.25;
    let inside = body(&mut w, BodyDesc::dynamic().translation(0.0, 4.0), circle.clone());
    // Nearest point 5.5 m away: scale (7 - 5.5)/2 = 0.75.
    let band = body(&mut w, BodyDesc::dynamic().translation(6.0, 0.0), circle.clone());
    // 6.75 m: scale 0.125.
    let edge = body(&mut w, BodyDesc::dynamic().translation(0.0, -7.25), circle.clone());
    // 7.5 m: none.
    let beyond = body(&mut w, BodyDesc::dynamic().translation(-8.0, 0.0), circle.clone());
    w.explode(&ExplosionDesc::new(Point::origin(), 5.0).falloff(2.0).impulse_per_length(3.0)).unwrap();
    let v = |b| w.body(b).unwrap().linear_velocity();
    assert!(close(v(inside), Vec2::new(0.0, 3.0 / mass)), "inside: {:?}", v(inside));
    assert!(close(v(band), Vec2::new(0.75 * 3.0 / mass, 0.0)), "band: {:?}", v(band));
    assert!(close(v(edge), Vec2::new(0.0, -0.125 * 3.0 / mass)), "edge: {:?}", v(edge));
    assert_eq!(v(beyond), Vec2::zeros());
}

#[test]
fn a_blast_inside_a_body_pushes_it_from_its_centroid() {
    let mut w = world();
    // The blast 0.2 m right of a circle's centre, inside it: the push acts
    // at the centroid, away from the blast (-x), across the full width 1.
    let b = body(&mut w, BodyDesc::dynamic().translation(0.0, 0.0), Shape::circle(0.5));
    w.explode(&ExplosionDesc::new(Point::new(0.2, 0.0), 1.0).impulse_per_length(1.0)).unwrap();
    let body = w.body(b).unwrap();
    assert!(
        close(body.linear_velocity(), Vec2::new(-1.0 / (PI * 0.25), 0.0)),
        "{:?}",
        body.linear_velocity()
    );
    assert!(body.angular_velocity().abs() < 1e-6);
}

#[test]
fn fixed_kinematic_masked_and_sensor_colliders_are_untouched() {
    let mut w = world();
    let shape = Shape::rectangle(0.5, 0.5);
    let fixed = body(&mut w, BodyDesc::fixed().translation(2.0, 0.0), shape.clone());
    let kinematic = body(&mut w, BodyDesc::kinematic().translation(-2.0, 0.0), shape.clone());
    let masked = w.add_body(BodyDesc::dynamic().translation(0.0, 2.0));
    let other_category = CollisionFilter { category: 2, ..CollisionFilter::default() };
    w.add_collider(masked, ColliderDesc::new(shape.clone()).filter(other_category)).unwrap();
    let sensor = w.add_body(BodyDesc::dynamic().translation(0.0, -2.0));
    w.add_collider(sensor, ColliderDesc::new(shape.clone()).sensor(true)).unwrap();
    let hit = body(&mut w, BodyDesc::dynamic().translation(2.0, 2.0), shape);
    w.explode(&ExplosionDesc::new(Point::origin(), 4.0).impulse_per_length(5.0).mask(1)).unwrap();
    for b in [fixed, kinematic, masked, sensor] {
        assert_eq!(w.body(b).unwrap().linear_velocity(), Vec2::zeros());
        assert_eq!(w.body(b).unwrap().angular_velocity(), 0.0);
    }
    assert!(w.body(hit).unwrap().linear_velocity().norm() > 1.0);
    // With the category in the mask the masked body is hit too.
    w.explode(&ExplosionDesc::new(Point::origin(), 4.0).impulse_per_length(5.0).mask(2)).unwrap();
    assert!(w.body(masked).unwrap().linear_velocity().y > 1.0);
}

#[test]
fn sleeping_bodies_in_the_blast_are_woken_and_pushed() {
    let mut w = world();
    let sleeper =
        body(&mut w, BodyDesc::dynamic().translation(3.0, 0.0).asleep(true), Shape::rectangle(0.5, 0.5));
    let far =
        body(&mut w, BodyDesc::dynamic().translation(30.0, 0.0).asleep(true), Shape::rectangle(0.5, 0.5));
    assert!(w.body(sleeper).unwrap().is_sleeping());
    w.explode(&ExplosionDesc::new(Point::origin(), 5.0).impulse_per_length(2.0)).unwrap();
    assert!(!w.body(sleeper).unwrap().is_sleeping());
    assert!(close(w.body(sleeper).unwrap().linear_velocity(), Vec2::new(2.0, 0.0)));
    assert!(w.body(far).unwrap().is_sleeping(), "beyond the blast: still asleep");
    // The default impulse (0, as Box2D's) only wakes.
    let mut w2 = world();
    let s2 = body(&mut w2, BodyDesc::dynamic().translation(1.0, 0.0).asleep(true), Shape::circle(0.5));
    w2.explode(&ExplosionDesc::new(Point::origin(), 2.0)).unwrap();
    assert!(!w2.body(s2).unwrap().is_sleeping());
    assert_eq!(w2.body(s2).unwrap().linear_velocity(), Vec2::zeros());
    // It moves off in the steps after, at the speed given.
    w.step(1.0 / 60.0).unwrap();
    let x = w.body(sleeper).unwrap().translation().x;
    assert!((x - (3.0 + 2.0 / 60.0)).abs() < 1e-4, "x = {x}");
}

#[test]
fn bad_blasts_are_refused_and_the_world_is_unchanged() {
    let mut w = world();
    let sleeper = body(&mut w, BodyDesc::dynamic().translation(1.0, 0.0).asleep(true), Shape::circle(0.5));
    body(&mut w, BodyDesc::dynamic().translation(-1.0, 0.0), Shape::rectangle(2.0, 2.0));
    let hash = w.state_hash();
    let ok = ExplosionDesc::new(Point::origin(), 2.0).impulse_per_length(1.0);
    let nan = Real::NAN;
    let cases = [
        (ExplosionDesc { position: Point::new(nan, 0.0), ..ok }, "position.x"),
        (ExplosionDesc { position: Point::new(0.0, Real::INFINITY), ..ok }, "position.y"),
        (ok.falloff(-1.0), "falloff"),
        (ok.falloff(Real::INFINITY), "falloff"),
        (ExplosionDesc { radius: -0.5, ..ok }, "radius"),
        (ExplosionDesc { radius: nan, ..ok }, "radius"),
        (ok.impulse_per_length(nan), "impulse_per_length"),
        (ok.impulse_per_length(Real::NEG_INFINITY), "impulse_per_length"),
        (ExplosionDesc { radius: Real::MAX, ..ok }.falloff(Real::MAX), "radius + falloff"),
        // Finite, but the impulse it gives the 4 m wide box overflows.
        (ok.impulse_per_length(Real::MAX / 2.0), "impulse_per_length (velocity overflows)"),
    ];
    for (desc, name) in cases {
        match w.explode(&desc) {
            Err(WorldError::InvalidExplosion { name: got, .. }) => assert_eq!(got, name, "{desc:?}"),
            other => panic!("{desc:?}: {other:?}"),
        }
        assert_eq!(w.state_hash(), hash, "{name}: the world changed");
        assert!(w.body(sleeper).unwrap().is_sleeping(), "{name}: the sleeper was woken");
    }
    let message = w.explode(&ok.falloff(-1.0)).unwrap_err().to_string();
    assert!(message.contains("falloff") && message.contains("-1"), "{message}");
    // A good blast after them all still works.
    w.explode(&ok).unwrap();
    assert!(!w.body(sleeper).unwrap().is_sleeping());
}

#[test]
fn the_same_blast_on_the_same_world_gives_the_same_bits() {
    let build = || {
        let mut w = world();
        for i in 0..20 {
            let (x, y) = ((i % 5) as Real - 2.0, (i / 5) as Real - 1.5);
            body(
                &mut w,
                BodyDesc::dynamic().translation(x * 1.3, y * 1.3).angle(0.1 * i as Real),
                Shape::rectangle(0.4, 0.2),
            );
        }
        w
    };
    let (mut a, mut b) = (build(), build().clone());
    let desc = ExplosionDesc::new(Point::new(0.3, -0.2), 2.0).falloff(1.0).impulse_per_length(4.0);
    a.explode(&desc).unwrap();
    b.explode(&desc).unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    assert_ne!(a.state_hash(), build().state_hash());
}
