//! Chains: one-sided segments that know their neighbours. A box slides across
//! the seams of a chain floor as over one flat surface (it catches on a floor
//! of separate segments), fast balls stay inside a loop, a ball from the open
//! side passes through, piles rest in a chain bowl as in a segment one, and
//! bad chains are refused.

use lamina_dynamics::{
    BodyDesc, BodyKey, ChainDesc, ColliderDesc, QueryFilter, World, WorldError, WorldSettings,
};
use lamina_geometry::{Point, Ray, Real, Shape, Vec2};

const DT: Real = 1.0 / 60.0;

/// A floor at y = 0 from x = −20 to 20 made of 1 m pieces: a chain listed
/// right to left (so its solid side faces up), or 40 separate segments.
fn floor(w: &mut World, chain: bool) -> BodyKey {
    let ground = w.add_body(BodyDesc::fixed());
    let points: Vec<Point> = (0..=40).map(|i| Point::new(20.0 - i as Real, 0.0)).collect();
    if chain {
        w.add_chain(ground, ChainDesc::new(&points).friction(0.0)).expect("valid chain");
    } else {
        for p in points.windows(2) {
            let segment = ColliderDesc::new(Shape::segment(p[0], p[1])).friction(0.0);
            w.add_collider(ground, segment).expect("valid segment");
        }
    }
    ground
}

/// A 0.5 m box sliding at 4 m/s across the floor for 5 s (20 m, twenty seams):
/// the largest vertical speed and tilt it shows on the way.
fn slide(chain: bool) -> (Real, Real, Real) {
    let mut w = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    floor(&mut w, chain);
    let block = w.add_body(BodyDesc::dynamic().translation(-15.0, 0.25).linear_velocity(Vec2::new(4.0, 0.0)));
    w.add_collider(block, ColliderDesc::new(Shape::rectangle(0.25, 0.25)).friction(0.0)).expect("valid");
    let (mut vy, mut tilt): (Real, Real) = (0.0, 0.0);
    for step in 0..300 {
        w.step(DT).expect("valid step");
        if step > 10 {
            let b = w.body(block).expect("live");
            vy = vy.max(b.linear_velocity().y.abs());
            tilt = tilt.max(b.angle().abs());
        }
    }
    (vy, tilt, w.body(block).expect("live").translation().x)
}

#[test]
fn a_box_slides_across_chain_seams_as_over_one_flat_floor() {
    let (vy, tilt, x) = slide(true);
    assert!(vy < 0.01, "vertical speed reached {vy} m/s");
    assert!(tilt < 1e-3, "the box tilted by {tilt} rad");
    assert!((x - 5.0).abs() < 0.1, "the box ended at x = {x}, not 5");
}

#[test]
fn a_box_catches_on_the_seams_of_separate_segments() {
    // The oracle that the chain test means something: without ghost vertices
    // the seams show through.
    let (vy, tilt, _) = slide(false);
    assert!(vy > 0.01 || tilt > 1e-3, "separate segments gave a smooth ride too: {vy} m/s, {tilt} rad");
}

/// A closed loop of radius 5 listed clockwise, holding fast balls.
fn loop_points(n: usize, radius: Real) -> Vec<Point> {
    (0..n)
        .map(|i| {
            let a = -std::f64::consts::TAU * i as f64 / n as f64;
            Point::new(radius * a.cos() as Real, radius * a.sin() as Real)
        })
        .collect()
}

#[test]
fn fast_balls_thrown_inside_a_closed_loop_stay_in() {
    let mut w = World::new(WorldSettings { gravity: Vec2::new(0.0, -10.0), ..WorldSettings::default() });
    let ground = w.add_body(BodyDesc::fixed());
    w.add_chain(ground, ChainDesc::new(&loop_points(48, 5.0)).closed(true).restitution(0.5)).expect("valid");
    let mut balls = Vec::new();
    for i in 0..40 {
        let a = i as Real * 0.7;
        let v = Vec2::new(a.cos(), a.sin()) * (20.0 + 5.0 * (i % 7) as Real);
        let ball = w.add_body(
            BodyDesc::dynamic().translation(0.1 * (i % 5) as Real, 0.1 * (i / 5) as Real).linear_velocity(v),
        );
        w.add_collider(ball, ColliderDesc::new(Shape::circle(0.1)).restitution(0.5)).expect("valid");
        balls.push(ball);
    }
    for _ in 0..600 {
        w.step(DT).expect("valid step");
        for &b in &balls {
            let r = w.body(b).expect("live").translation().norm();
            assert!(r < 5.0, "a ball left the loop: r = {r}");
        }
    }
}

#[test]
fn a_ball_from_the_open_side_passes_through() {
    let mut w = World::new(WorldSettings { gravity: Vec2::zeros(), ..WorldSettings::default() });
    let ground = w.add_body(BodyDesc::fixed());
    // Listed left to right: the solid side faces down.
    w.add_chain(ground, ChainDesc::new(&[Point::new(-5.0, 0.0), Point::new(0.0, 0.0), Point::new(5.0, 0.0)]))
        .expect("valid");
    let up = w.add_body(BodyDesc::dynamic().translation(0.3, 2.0).linear_velocity(Vec2::new(0.0, -3.0)));
    w.add_collider(up, ColliderDesc::new(Shape::circle(0.25))).expect("valid");
    let down = w.add_body(BodyDesc::dynamic().translation(-0.3, -2.0).linear_velocity(Vec2::new(0.0, 3.0)));
    w.add_collider(down, ColliderDesc::new(Shape::circle(0.25))).expect("valid");
    for _ in 0..120 {
        w.step(DT).expect("valid step");
    }
    // From above (the open side) the ball passes; from below it is stopped.
    let (y_up, y_down) =
        (w.body(up).expect("live").translation().y, w.body(down).expect("live").translation().y);
    assert!(y_up < -2.0, "the ball from the open side stopped at y = {y_up}");
    assert!((y_down - -0.25).abs() < 0.03, "the ball from the solid side is at y = {y_down}");
    // Rays obey the same rule.
    let f = QueryFilter::default().exclude_body(up).exclude_body(down);
    assert!(w.cast_ray(&Ray::new(Point::new(1.0, 1.0), Vec2::new(0.0, -1.0)), 5.0, &f).is_none());
    let hit =
        w.cast_ray(&Ray::new(Point::new(1.0, -1.0), Vec2::new(0.0, 1.0)), 5.0, &f).expect("hit from below");
    assert!((hit.toi - 1.0).abs() < 1e-5 && (hit.normal - Vec2::new(0.0, -1.0)).norm() < 1e-5);
}

/// Fifty discs poured into a V-shaped bowl of 2 m pieces, as a chain or as
/// separate segments: the deepest any disc sinks into the bowl once settled.
fn bowl_pile(chain: bool) -> Real {
    let mut w = World::new(WorldSettings::default());
    let ground = w.add_body(BodyDesc::fixed());
    let points: Vec<Point> =
        (0..=10).map(|i| Point::new(-5.0 + i as Real, 0.3 * (i as Real - 5.0).abs())).collect();
    // Listed left to right the solid side faces down: reverse it.
    let points: Vec<Point> = points.into_iter().rev().collect();
    if chain {
        w.add_chain(ground, ChainDesc::new(&points)).expect("valid");
    } else {
        for p in points.windows(2) {
            w.add_collider(ground, ColliderDesc::new(Shape::segment(p[0], p[1]))).expect("valid");
        }
    }
    let mut discs = Vec::new();
    for i in 0..50 {
        let b = w.add_body(
            BodyDesc::dynamic().translation(-2.0 + 0.4 * (i % 10) as Real, 2.0 + 0.4 * (i / 10) as Real),
        );
        w.add_collider(b, ColliderDesc::new(Shape::circle(0.15))).expect("valid");
        discs.push(b);
    }
    for _ in 0..240 {
        w.step(DT).expect("valid step");
    }
    let floor_at = |x: Real| 0.3 * x.abs();
    discs
        .iter()
        .map(|&b| {
            let p = w.body(b).expect("live").translation();
            // Depth below the surface, measured along the vertical (an upper bound).
            floor_at(p.x) + 0.15 * (1.0 + 0.09 as Real).sqrt() - p.y
        })
        .fold(Real::MIN, Real::max)
}

#[test]
fn a_pile_rests_in_a_chain_bowl_as_in_a_segment_bowl() {
    let (chain, segments) = (bowl_pile(true), bowl_pile(false));
    assert!(chain < 0.02, "a disc sank {chain} m into the chain bowl (segments: {segments})");
    assert!(chain < segments + 0.01, "chain {chain} vs segments {segments}");
}

#[test]
fn chains_are_removed_whole_and_bad_chains_are_refused() {
    let mut w = World::new(WorldSettings::default());
    let ground = w.add_body(BodyDesc::fixed());
    let before = w.colliders().count();
    let pts = [Point::new(0.0, 0.0), Point::new(1.0, 0.0), Point::new(2.0, 1.0)];
    let chain = w.add_chain(ground, ChainDesc::new(&pts).closed(true)).expect("valid");
    assert_eq!(w.chain(chain).expect("live").colliders().len(), 3);
    assert_eq!(w.colliders().count(), before + 3);
    w.remove_chain(chain).expect("live chain");
    assert_eq!(w.colliders().count(), before);
    assert!(matches!(w.remove_chain(chain), Err(WorldError::StaleChain(_))));

    let hash = w.state_hash();
    let count = w.colliders().count();
    let nan = Real::NAN;
    let cases: Vec<(ChainDesc, &str)> = vec![
        (ChainDesc::new(&[Point::new(0.0, 0.0)]), "at least 2 points, got 1"),
        (ChainDesc::new(&pts[..2]).closed(true), "at least 3 points, got 2"),
        (ChainDesc::new(&[Point::new(0.0, 0.0), Point::new(nan, 1.0)]), "point 1"),
        (ChainDesc::new(&[Point::new(0.0, 0.0), Point::new(1.0, 0.0), Point::new(1.0, 0.0)]), "repeats"),
        (
            ChainDesc::new(&[Point::new(0.0, 0.0), Point::new(1.0, 0.0), Point::new(0.0, 0.0)]).closed(true),
            "point 0",
        ),
        (ChainDesc::new(&pts).friction(-1.0), "friction"),
    ];
    for (desc, expected) in cases {
        let err = w.add_chain(ground, desc).expect_err("a bad chain");
        assert!(err.to_string().contains(expected), "{err} does not say {expected:?}");
    }
    assert_eq!((w.state_hash(), w.colliders().count()), (hash, count), "a refused chain changed the world");

    // Removing the body removes its chains.
    let chain = w.add_chain(ground, ChainDesc::new(&pts)).expect("valid");
    w.remove_body(ground).expect("a live body");
    assert!(w.chain(chain).is_none());
    assert_eq!(w.colliders().count(), 0);
}
