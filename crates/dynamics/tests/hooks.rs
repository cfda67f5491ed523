//! Contact hooks: the custom filter keeps the pairs it refuses apart and
//! no others, asked only about colliders that opt in; the pre-solve hook
//! makes one-way platforms (a ball thrown up through one lands on it, a
//! fast body passes it from below through continuous collision too);
//! hooks give the same bits on any number of threads; clones share them and
//! snapshots leave them out.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use lamina_dynamics::{
    BodyDesc, BodyKey, ColliderDesc, ColliderKey, ContactEvent, PreSolve, World, WorldSettings,
};
use lamina_geometry::{Real, Shape, Vec2};

const DT: Real = 1.0 / 60.0;

fn ground(world: &mut World) {
    let g = world.add_body(BodyDesc::fixed().translation(0.0, -0.5));
    world.add_collider(g, ColliderDesc::new(Shape::rectangle(20.0, 0.5))).unwrap();
}

/// A 1 m box at `(x, y)`, tagged with `user_data`, opting into the filter.
fn tagged_box(world: &mut World, x: Real, y: Real, tag: u64) -> BodyKey {
    let b = world.add_body(BodyDesc::dynamic().translation(x, y));
    let desc = ColliderDesc::new(Shape::rectangle(0.5, 0.5)).user_data(tag).enable_custom_filter(true);
    world.add_collider(b, desc).unwrap();
    b
}

fn top(world: &World, b: BodyKey) -> Real {
    world.body(b).unwrap().position().translation.y
}

/// Two boxes of one team (the filter keeps a team's boxes apart) dropped one
/// onto the other: the upper falls through the lower to the ground, and
/// both end side by side at rest on it (centres at 0.5 m); a pair of boxes
/// of no team, dropped the same way, stacks (centres at 0.5 and 1.5 m).
#[test]
fn a_custom_filter_keeps_the_pairs_it_refuses_apart_and_no_others() {
    let mut world = World::new(WorldSettings::default());
    ground(&mut world);
    let (low, high) = (tagged_box(&mut world, -3.0, 0.5, 7), tagged_box(&mut world, -3.0, 2.0, 7));
    let (base, stacked) = (tagged_box(&mut world, 3.0, 0.5, 0), tagged_box(&mut world, 3.0, 2.0, 0));
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    world.set_custom_filter(move |a, b| {
        counter.fetch_add(1, Ordering::Relaxed);
        a.user_data() == 0 || a.user_data() != b.user_data()
    });
    for _ in 0..180 {
        world.step(DT).unwrap();
    }
    let slop = 0.01;
    assert!((top(&world, low) - 0.5).abs() < slop && (top(&world, high) - 0.5).abs() < slop);
    assert!((top(&world, base) - 0.5).abs() < slop, "base at {}", top(&world, base));
    assert!((top(&world, stacked) - 1.5).abs() < slop, "stacked box at {}", top(&world, stacked));
    // Asked once per pair whose boxes began to overlap: three boxes with
    // the ground (the stacked one never comes near it) and the two pairs of
    // boxes; never again while they overlap.
    assert_eq!(asked.load(Ordering::Relaxed), 5);
}

/// Colliders that do not opt in are never asked about: the filter that
/// would refuse every pair changes nothing for them.
#[test]
fn the_custom_filter_asks_only_about_colliders_that_opt_in() {
    let mut world = World::new(WorldSettings::default());
    ground(&mut world);
    let b = world.add_body(BodyDesc::dynamic().translation(0.0, 2.0));
    world.add_collider(b, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    world.set_custom_filter(move |_, _| {
        counter.fetch_add(1, Ordering::Relaxed);
        false
    });
    for _ in 0..120 {
        world.step(DT).unwrap();
    }
    assert_eq!(asked.load(Ordering::Relaxed), 0);
    assert!((top(&world, b) - 0.5).abs() < 0.01, "the ball rests on the ground: {}", top(&world, b));
}

/// A one-way platform: solid for what comes down onto it (the normal from
/// the platform points up and the body is not already through it), open
/// for what comes up from below.
fn one_way(platform: ColliderKey) -> impl Fn(&PreSolve) -> bool + Send + Sync + 'static {
    move |c: &PreSolve| match c.normal_from(platform) {
        Some(n) => n.y > 0.7 && c.separation() > -0.05,
        None => true,
    }
}

/// A platform 0.2 m thick whose top is at y = 3, and a ball of radius 0.25
/// under it.
fn platform_and_ball(velocity: Real, bullet: bool) -> (World, ColliderKey, BodyKey) {
    let mut world = World::new(WorldSettings::default());
    ground(&mut world);
    let p = world.add_body(BodyDesc::fixed().translation(0.0, 2.9));
    let platform =
        world.add_collider(p, ColliderDesc::new(Shape::rectangle(2.0, 0.1)).enable_pre_solve(true)).unwrap();
    let ball = world.add_body(
        BodyDesc::dynamic().translation(0.0, 1.0).linear_velocity(Vec2::new(0.0, velocity)).bullet(bullet),
    );
    world.add_collider(ball, ColliderDesc::new(Shape::circle(0.25))).unwrap();
    (world, platform, ball)
}

/// Thrown up at 9 m/s from y = 1, a ball would rise v²/2g = 4.05 m, to
/// 5.05 m: through the platform (top at 3 m), it lands on top of it and
/// rests there, its centre a radius above it (3.25 m). The contact is
/// refused while the ball comes up through the platform, so the platform
/// sends no begin-touch event while the ball is under or in it. Without the
/// hook the platform stops the ball from below.
#[test]
fn a_ball_thrown_up_through_a_one_way_platform_lands_on_it() {
    let (mut world, platform, ball) = platform_and_ball(9.0, false);
    world.set_pre_solve(one_way(platform));
    let (mut highest, mut landed_at) = (Real::MIN, None);
    for step in 0..240 {
        world.step(DT).unwrap();
        highest = highest.max(top(&world, ball));
        for e in world.contact_events() {
            if let ContactEvent::Begin { a: collider_a, b: collider_b } = *e
                && (collider_a == platform || collider_b == platform)
            {
                let y = top(&world, ball);
                assert!(y > 3.2, "a begin-touch at step {step} with the ball at {y}, not above the platform");
                landed_at = Some(step);
            }
        }
    }
    assert!((highest - 5.05).abs() < 0.1, "the ball rose to {highest} m, by hand 5.05 m");
    assert!(landed_at.is_some(), "the ball touched the platform from above");
    let y = top(&world, ball);
    assert!((y - 3.25).abs() < 0.01, "the ball rests on the platform at {y}");

    let (mut blocked, _, ball) = platform_and_ball(9.0, false);
    for _ in 0..240 {
        blocked.step(DT).unwrap();
        let y = top(&blocked, ball);
        // The ball may sink into the platform's underside for a step (it
        // comes too slowly for continuous collision and too fast for a
        // speculative point), never past its middle.
        assert!(y < 2.8, "without the hook the platform stops the ball: y = {y}");
    }
}

/// Continuous collision asks the hook too: a bullet fired up at 200 m/s
/// (3.3 m a step, far more than the platform's thickness) passes the
/// one-way platform from below, while without the hook continuous collision
/// stops it under the platform.
#[test]
fn a_fast_body_passes_a_one_way_platform_from_below() {
    let (mut world, platform, ball) = platform_and_ball(200.0, true);
    let continuous = Arc::new(AtomicUsize::new(0));
    let counter = continuous.clone();
    let rule = one_way(platform);
    world.set_pre_solve(move |c| {
        if c.continuous {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        rule(c)
    });
    world.step(DT).unwrap();
    assert!(top(&world, ball) > 3.5, "the bullet passed the platform: y = {}", top(&world, ball));
    assert!(continuous.load(Ordering::Relaxed) >= 1, "continuous collision asked the hook");

    let (mut blocked, _, ball) = platform_and_ball(200.0, true);
    blocked.step(DT).unwrap();
    assert!(
        top(&blocked, ball) < 2.8,
        "without the hook the bullet stops under it: y = {}",
        top(&blocked, ball)
    );
}

/// A pile of boxes and balls falling past one-way platforms, with a team
/// filter: the same bits on 1, 2 and 8 threads, since the hooks are pure.
#[test]
fn hooks_give_the_same_bits_on_any_number_of_threads() {
    let hash_on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let mut world = World::new(WorldSettings::default());
            ground(&mut world);
            let mut platforms = Vec::new();
            for k in 0..4 {
                let p = world.add_body(BodyDesc::fixed().translation(-9.0 + 6.0 * k as Real, 4.0));
                let desc = ColliderDesc::new(Shape::rectangle(2.5, 0.1)).enable_pre_solve(true);
                platforms.push(world.add_collider(p, desc).unwrap());
            }
            for i in 0..600 {
                let (x, y) = (-12.0 + (i % 40) as Real * 0.6, 1.0 + (i / 40) as Real * 0.7);
                let b = world.add_body(
                    BodyDesc::dynamic()
                        .translation(x, y)
                        .linear_velocity(Vec2::new(0.0, if i % 3 == 0 { 8.0 } else { 0.0 })),
                );
                let shape = if i % 2 == 0 { Shape::rectangle(0.25, 0.25) } else { Shape::circle(0.25) };
                let desc = ColliderDesc::new(shape).user_data(i % 5).enable_custom_filter(true);
                world.add_collider(b, desc).unwrap();
            }
            world.set_custom_filter(|a, b| a.user_data() == 0 || a.user_data() != b.user_data());
            world.set_pre_solve(move |c| {
                platforms
                    .iter()
                    .all(|&p| c.normal_from(p).is_none_or(|n| n.y > 0.7 && c.separation() > -0.05))
            });
            let mut hashes = Vec::new();
            for _ in 0..150 {
                world.step(DT).unwrap();
                hashes.push(world.state_hash());
            }
            hashes
        })
    };
    let one = hash_on(1);
    assert_eq!(hash_on(2), one);
    assert_eq!(hash_on(8), one);
}

/// A clone shares the hooks (it steps as the original); clearing them
/// takes them away from this world only, and a cleared hook is not asked.
#[test]
fn a_clone_shares_the_hooks_and_clearing_them_stops_them() {
    let (mut world, platform, ball) = platform_and_ball(9.0, false);
    world.set_pre_solve(one_way(platform));
    let mut clone = world.clone();
    for _ in 0..120 {
        world.step(DT).unwrap();
        clone.step(DT).unwrap();
    }
    assert_eq!(world.state_hash(), clone.state_hash());
    assert!(top(&clone, ball) > 3.0, "the clone's ball passed the platform too");

    let (mut cleared, _, ball) = platform_and_ball(9.0, false);
    cleared.set_pre_solve(|_| false);
    cleared.clear_pre_solve();
    cleared.set_custom_filter(|_, _| false);
    cleared.clear_custom_filter();
    for _ in 0..120 {
        cleared.step(DT).unwrap();
    }
    assert!(top(&cleared, ball) < 2.8, "with the hook cleared the platform is solid from below");
}

/// A snapshot does not hold the hooks: the restored world has none, and its
/// platform is solid from below until a hook is set again; the colliders
/// still opt in.
#[cfg(feature = "serde")]
#[test]
fn a_restored_world_has_no_hooks_until_they_are_set_again() {
    let (mut world, platform, ball) = platform_and_ball(9.0, false);
    world.set_pre_solve(one_way(platform));
    let mut restored = World::restore(&world.snapshot()).unwrap();
    assert!(restored.collider(platform).unwrap().pre_solve_enabled());
    let mut again = World::restore(&world.snapshot()).unwrap();
    again.set_pre_solve(one_way(platform));
    for _ in 0..120 {
        world.step(DT).unwrap();
        restored.step(DT).unwrap();
        again.step(DT).unwrap();
    }
    assert!(top(&restored, ball) < 2.8, "restored without its hook, the platform stops the ball");
    assert_eq!(again.state_hash(), world.state_hash(), "with the hook set again it steps as the original");
}

/// A friction rule by surface: boxes of friction 0.1 on a 30° slope (both
/// colliders 0.1, so the world's mix gives 0.1), one of them marked as
/// rubber (`user_data` 2), for which the rule gives 1.0 against anything,
/// and NaN (the world's mix) otherwise. The rubber box holds
/// (tan 30° = 0.577 < 1); the other slides at a = g (sin θ − μ cos θ) =
/// 4.13 m/s², so it moves at 4.13 m/s after a second.
#[test]
fn a_friction_rule_gives_each_surface_pair_its_coefficient() {
    let mut world = World::new(WorldSettings::default());
    let angle: Real = 30.0_f64.to_radians() as Real;
    let slope = world.add_body(BodyDesc::fixed().angle(angle));
    world.add_collider(slope, ColliderDesc::new(Shape::rectangle(30.0, 0.5)).friction(0.1)).unwrap();
    let (s, c) = angle.sin_cos();
    let on_slope = |along: Real| Vec2::new(c * along - s * 1.0, s * along + c * 1.0);
    let place = |world: &mut World, along: Real, tag: u64| {
        let p = on_slope(along);
        let b = world.add_body(BodyDesc::dynamic().translation(p.x, p.y).angle(angle));
        world
            .add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5)).friction(0.1).user_data(tag))
            .unwrap();
        b
    };
    let (rubber, plain) = (place(&mut world, -4.0, 2), place(&mut world, 4.0, 0));
    world.set_friction_rule(|a, b| if a.user_data() == 2 || b.user_data() == 2 { 1.0 } else { Real::NAN });
    let start = world.body(rubber).unwrap().position().translation.vector;
    // Let the boxes settle onto the slope first.
    for _ in 0..10 {
        world.step(DT).unwrap();
    }
    let v0 = world.body(plain).unwrap().linear_velocity().norm();
    for _ in 0..60 {
        world.step(DT).unwrap();
    }
    let held = (world.body(rubber).unwrap().position().translation.vector - start).norm();
    assert!(held < 0.01, "the rubber box moved {held} m");
    let a = 10.0 * (s - 0.1 * c);
    let v = world.body(plain).unwrap().linear_velocity().norm() - v0;
    assert!((v - a).abs() < 0.03 * a, "the plain box gained {v} m/s in a second, by hand {a}");
    let contact = world.contacts().find(|k| k.body_b() == rubber || k.body_a() == rubber).unwrap();
    assert_eq!(contact.friction(), 1.0);
}
