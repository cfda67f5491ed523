//! World queries against brute force: every query, on random scenes of every
//! shape and body kind (some stepped, some teleported), with random filters,
//! gives the answer of testing every collider of the world one by one.

use lamina_dynamics::{
    BodyDesc, BodyKey, BodyKind, ColliderDesc, ColliderKey, CollisionFilter, QueryFilter, World, WorldError,
    WorldSettings,
};
use lamina_geometry::{Aabb, Isometry, Point, Ray, Real, Shape, Vec2};

mod common;

use common::Rng;

fn random_shape(rng: &mut Rng) -> Shape {
    let s = rng.range(0.1, 1.5);
    match rng.below(6) {
        0 => Shape::circle(s),
        1 => Shape::rectangle(s, rng.range(0.1, 1.5)),
        2 => Shape::capsule(Point::new(-s, 0.0), Point::new(s, 0.0), rng.range(0.05, 0.5)),
        3 => Shape::segment(Point::new(-s, 0.0), Point::new(s, rng.range(-1.0, 1.0))),
        4 => Shape::ellipse(s, rng.range(0.1, 1.5)),
        _ => {
            let pts: Vec<Point> = (0..6).map(|_| Point::new(rng.range(-s, s), rng.range(-s, s))).collect();
            Shape::polygon(&pts).unwrap_or_else(|_| Shape::rectangle(s, s))
        }
    }
}

/// A world of a few hundred bodies of every kind over a 200 m square, some
/// with two colliders, some sensors, some filtered, stepped a little so that
/// the broad phase's boxes have moved.
fn scene(seed: u64) -> (World, Vec<BodyKey>) {
    let mut world = World::new(WorldSettings { gravity: Vec2::new(0.0, -3.0), ..WorldSettings::default() });
    let mut rng = Rng(seed);
    let mut bodies = Vec::new();
    for i in 0..400 {
        let (x, y) = (rng.range(-100.0, 100.0), rng.range(-100.0, 100.0));
        let desc = match i % 5 {
            0 => BodyDesc::fixed(),
            1 => BodyDesc::kinematic().linear_velocity(Vec2::new(rng.range(-5.0, 5.0), 0.0)),
            _ => {
                BodyDesc::dynamic().linear_velocity(Vec2::new(rng.range(-20.0, 20.0), rng.range(-20.0, 20.0)))
            }
        };
        let body = world.add_body(desc.translation(x, y).angle(rng.range(-3.0, 3.0)));
        for _ in 0..1 + rng.below(2) {
            let filter = CollisionFilter {
                category: 1 << rng.below(3),
                mask: if rng.below(4) == 0 { 0b101 } else { u32::MAX },
                group: rng.below(5) as i32 - 2,
            };
            let pose =
                Isometry::new(Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)), rng.range(-3.0, 3.0));
            let desc = ColliderDesc::new(random_shape(&mut rng))
                .local_pose(pose)
                .filter(filter)
                .sensor(rng.below(8) == 0);
            world.add_collider(body, desc).expect("valid collider");
        }
        bodies.push(body);
    }
    // One huge fixed collider: the broad phase keeps it outside its grid.
    let ground = world.add_body(BodyDesc::fixed().translation(0.0, -120.0));
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(150.0, 2.0))).expect("valid");
    for _ in 0..10 {
        world.step(1.0 / 60.0).expect("valid step");
    }
    // A teleport after the last step: queries must see it at once.
    let moved = bodies[7];
    world.set_body_position(moved, Isometry::new(Vec2::new(3.0, 3.0), 0.5)).expect("valid pose");
    (world, bodies)
}

#[derive(Clone, Copy)]
enum FilterKind {
    None,
    ExcludeBody(BodyKey),
    ExcludeSensors,
    Groups,
    NotFixedOrKinematic,
    NotDynamic,
    Predicate,
}

fn pick_filter(rng: &mut Rng, bodies: &[BodyKey]) -> FilterKind {
    match rng.below(8) {
        0 => FilterKind::ExcludeBody(bodies[rng.below(bodies.len())]),
        1 => FilterKind::ExcludeSensors,
        2 => FilterKind::Groups,
        3 => FilterKind::NotFixedOrKinematic,
        4 => FilterKind::NotDynamic,
        5 => FilterKind::Predicate,
        _ => FilterKind::None,
    }
}

/// The predicate filter's test: keeps about half the colliders, by a bit of their bounds.
fn predicate_keeps(_: ColliderKey, c: &lamina_dynamics::Collider) -> bool {
    (c.aabb().mins.x.to_bits() & 1) == 0
}

const QUERY_GROUPS: CollisionFilter = CollisionFilter { category: 2, mask: 0b011, group: 0 };

fn build_filter<'a>(
    kind: FilterKind,
    predicate: &'a dyn Fn(ColliderKey, &lamina_dynamics::Collider) -> bool,
) -> QueryFilter<'a> {
    let f = QueryFilter::default();
    match kind {
        FilterKind::None => f,
        FilterKind::ExcludeBody(b) => f.exclude_body(b),
        FilterKind::ExcludeSensors => f.exclude_sensors(),
        FilterKind::Groups => f.groups(QUERY_GROUPS),
        FilterKind::NotFixedOrKinematic => f.exclude_fixed().exclude_kinematic(),
        FilterKind::NotDynamic => f.exclude_dynamic(),
        FilterKind::Predicate => f.predicate(predicate),
    }
}

/// The filter's meaning, written out independently of `QueryFilter`.
fn expected_pass(world: &World, key: ColliderKey, kind: FilterKind) -> bool {
    let c = world.collider(key).expect("live collider");
    let body_kind = world.body(c.body()).expect("live body").kind();
    match kind {
        FilterKind::None => true,
        FilterKind::ExcludeBody(b) => c.body() != b,
        FilterKind::ExcludeSensors => !c.is_sensor(),
        FilterKind::Groups => QUERY_GROUPS.should_collide(&c.filter()),
        FilterKind::NotFixedOrKinematic => body_kind == BodyKind::Dynamic,
        FilterKind::NotDynamic => body_kind != BodyKind::Dynamic,
        FilterKind::Predicate => predicate_keeps(key, c),
    }
}

fn pose_of(world: &World, key: ColliderKey) -> Isometry {
    let c = world.collider(key).expect("live collider");
    world.body(c.body()).expect("live body").position() * c.local_pose()
}

fn random_ray(rng: &mut Rng) -> Ray {
    let origin = Point::new(rng.range(-110.0, 110.0), rng.range(-110.0, 110.0));
    let dir = match rng.below(4) {
        0 => Vec2::new(rng.range(-2.0, 2.0), 0.0),
        _ => Vec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
    };
    Ray::new(origin, if dir.norm() < 1e-3 { Vec2::new(0.0, -1.0) } else { dir })
}

#[test]
fn ray_casts_match_brute_force() {
    let (world, bodies) = scene(11);
    let mut rng = Rng(5);
    let mut all = Vec::new();
    let mut hits = 0;
    for i in 0..400 {
        let ray = random_ray(&mut rng);
        let max_toi = if i % 3 == 0 { Real::INFINITY } else { rng.range(0.0, 150.0) };
        let kind = pick_filter(&mut rng, &bodies);
        let filter = build_filter(kind, &predicate_keeps);
        let mut expected: Vec<(Real, ColliderKey, Vec2)> = world
            .colliders()
            .filter(|&(k, _)| expected_pass(&world, k, kind))
            .filter_map(|(k, c)| {
                c.shape().cast_ray(&pose_of(&world, k), &ray, max_toi).map(|h| (h.toi, k, h.normal))
            })
            .collect();
        expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));

        world.cast_ray_all(&ray, max_toi, &filter, &mut all);
        let got: Vec<(Real, ColliderKey, Vec2)> = all.iter().map(|h| (h.toi, h.collider, h.normal)).collect();
        assert_eq!(got, expected, "every hit of {ray:?} up to {max_toi}");
        for h in &all {
            assert_eq!(h.point, ray.point_at(h.toi));
            assert_eq!(Some(h.body), world.collider(h.collider).map(|c| c.body()), "the hit's body");
        }

        let closest = world.cast_ray(&ray, max_toi, &filter);
        assert_eq!(
            closest.map(|h| (h.toi, h.collider, h.normal)),
            expected.first().copied(),
            "closest {ray:?}"
        );
        hits += usize::from(closest.is_some());
    }
    assert!(hits > 100, "only {hits} of 400 rays hit anything: the scene is too sparse to test");
}

#[test]
fn box_point_and_shape_overlaps_match_brute_force() {
    let (world, bodies) = scene(12);
    let mut rng = Rng(6);
    let mut out = Vec::new();
    let mut found = 0;
    for _ in 0..300 {
        let kind = pick_filter(&mut rng, &bodies);
        let filter = build_filter(kind, &predicate_keeps);
        let passing = |k: ColliderKey| expected_pass(&world, k, kind);

        let (x, y) = (rng.range(-110.0, 110.0), rng.range(-125.0, 110.0));
        let aabb =
            Aabb::new(Point::new(x, y), Point::new(x + rng.range(0.0, 12.0), y + rng.range(0.0, 12.0)));
        world.query_aabb(&aabb, &filter, &mut out);
        let expected: Vec<ColliderKey> = world
            .colliders()
            .filter(|&(k, c)| passing(k) && c.shape().aabb(&pose_of(&world, k)).intersects(&aabb))
            .map(|(k, _)| k)
            .collect();
        assert_eq!(out, expected, "box {aabb:?}");
        found += out.len();

        let point = Point::new(x, y);
        world.query_point(point, &filter, &mut out);
        let expected: Vec<ColliderKey> = world
            .colliders()
            .filter(|&(k, c)| passing(k) && c.shape().contains_point(&pose_of(&world, k), &point))
            .map(|(k, _)| k)
            .collect();
        assert_eq!(out, expected, "point {point:?}");

        let shape = random_shape(&mut rng);
        let pose = Isometry::new(Vec2::new(x, y), rng.range(-3.0, 3.0));
        world.overlap_shape(&shape, &pose, &filter, &mut out);
        let expected: Vec<ColliderKey> = world
            .colliders()
            .filter(|&(k, c)| {
                passing(k) && lamina_narrowphase::intersects(&shape, &pose, c.shape(), &pose_of(&world, k))
            })
            .map(|(k, _)| k)
            .collect();
        assert_eq!(out, expected, "shape at {pose:?}");
    }
    assert!(found > 100, "the boxes found only {found} colliders: the scene is too sparse to test");
}

#[test]
fn shape_casts_match_brute_force() {
    let (world, bodies) = scene(13);
    let mut rng = Rng(7);
    let mut hits = 0;
    for _ in 0..200 {
        let kind = pick_filter(&mut rng, &bodies);
        let filter = build_filter(kind, &predicate_keeps);
        let shape = random_shape(&mut rng);
        let pose = Isometry::new(
            Vec2::new(rng.range(-100.0, 100.0), rng.range(-100.0, 100.0)),
            rng.range(-3.0, 3.0),
        );
        let velocity = Vec2::new(rng.range(-30.0, 30.0), rng.range(-30.0, 30.0));
        let max_toi = rng.range(0.0, 1.0);
        let expected = world
            .colliders()
            .filter(|&(k, _)| expected_pass(&world, k, kind))
            .filter_map(|(k, c)| {
                lamina_narrowphase::cast_shape(
                    &shape,
                    &pose,
                    &velocity,
                    c.shape(),
                    &pose_of(&world, k),
                    &Vec2::zeros(),
                    max_toi,
                )
                .map(|t| (t.time, k))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let got = world.cast_shape(&shape, &pose, velocity, max_toi, &filter);
        // Equal up to the search's tolerance: the world's search stops at the
        // best time found so far, which can land a hair earlier on a tie.
        match (got, expected) {
            (None, None) => {}
            (Some(g), Some((t, k))) => {
                hits += 1;
                assert!(
                    (g.toi - t).abs() <= 1e-3 * (1.0 + t),
                    "cast {pose:?} by {velocity:?}: {} vs {t}",
                    g.toi
                );
                if g.collider != k {
                    // Two colliders hit at the same time (within the tolerance).
                    assert!((g.toi - t).abs() <= 1e-3);
                }
                assert!((g.normal.norm() - 1.0).abs() < 1e-3);
            }
            (g, e) => panic!("cast {pose:?} by {velocity:?} up to {max_toi}: got {g:?}, expected {e:?}"),
        }
    }
    assert!(hits > 20, "only {hits} of 200 casts hit: the scene is too sparse to test");
}

#[test]
fn a_ray_reports_where_and_how_it_hits() {
    let mut world = World::new(WorldSettings::default());
    let wall = world.add_body(BodyDesc::fixed().translation(5.0, 0.0));
    let wc = world.add_collider(wall, ColliderDesc::new(Shape::rectangle(0.5, 2.0))).expect("valid");
    let ball = world.add_body(BodyDesc::dynamic().translation(2.0, 0.0));
    let bc = world.add_collider(ball, ColliderDesc::new(Shape::circle(0.5))).expect("valid");
    let ray = Ray::new(Point::new(0.0, 0.0), Vec2::new(2.0, 0.0));
    let hit = world.cast_ray(&ray, 10.0, &QueryFilter::default()).expect("hits the ball");
    assert_eq!((hit.collider, hit.body), (bc, ball));
    assert!((hit.toi - 0.75).abs() < 1e-6, "toi {}", hit.toi);
    assert!((hit.point - Point::new(1.5, 0.0)).norm() < 1e-6);
    assert!((hit.normal - Vec2::new(-1.0, 0.0)).norm() < 1e-6);
    let hit = world.cast_ray(&ray, 10.0, &QueryFilter::default().exclude_body(ball)).expect("hits the wall");
    assert_eq!((hit.collider, hit.body), (wc, wall));
    assert!((hit.point - Point::new(4.5, 0.0)).norm() < 1e-5);
    assert!(world.cast_ray(&ray, 2.0, &QueryFilter::default().exclude_body(ball)).is_none(), "out of reach");

    let hit = world
        .cast_shape(
            &Shape::circle(0.25),
            &Isometry::translation(0.0, 0.0),
            Vec2::new(10.0, 0.0),
            1.0,
            &QueryFilter::default(),
        )
        .expect("the disc meets the ball");
    assert_eq!((hit.collider, hit.body), (bc, ball));
    assert!((hit.toi - 0.125).abs() < 1e-3, "toi {}", hit.toi);
    assert!((hit.point - Point::new(1.5, 0.0)).norm() < 1e-2);
    assert!((hit.normal - Vec2::new(-1.0, 0.0)).norm() < 1e-3);
}

fn err<T>(r: Result<T, WorldError>) -> String {
    r.err().map(|e| e.to_string()).unwrap_or_default()
}

#[test]
fn bad_queries_are_refused_with_the_value_named() {
    let (world, _) = scene(14);
    let f = QueryFilter::default();
    let mut keys = vec![];
    let mut hits = vec![];
    let nan = Real::NAN;
    assert!(
        err(world.try_cast_ray(&Ray::new(Point::new(nan, 0.0), Vec2::x()), 1.0, &f)).contains("origin.x")
    );
    assert!(
        err(world.try_cast_ray(&Ray::new(Point::origin(), Vec2::zeros()), 1.0, &f)).contains("direction")
    );
    assert!(err(world.try_cast_ray(&Ray::new(Point::origin(), Vec2::x()), -1.0, &f)).contains("max_toi"));
    assert!(
        err(world.try_cast_ray_all(&Ray::new(Point::origin(), Vec2::x()), nan, &f, &mut hits))
            .contains("max_toi")
    );
    let inverted = Aabb::new(Point::new(1.0, 0.0), Point::new(0.0, 1.0));
    assert!(err(world.try_query_aabb(&inverted, &f, &mut keys)).contains("width"));
    assert!(err(world.try_query_point(Point::new(0.0, Real::INFINITY), &f, &mut keys)).contains("point.y"));
    let unit = Shape::circle(1.0);
    let bad_pose = Isometry::translation(nan, 0.0);
    assert!(err(world.try_overlap_shape(&unit, &bad_pose, &f, &mut keys)).contains("pose.x"));
    assert!(
        err(world.try_overlap_shape(&Shape::circle(-1.0), &Isometry::identity(), &f, &mut keys))
            .contains("radius")
    );
    let origin = Isometry::identity();
    assert!(err(world.try_cast_shape(&unit, &origin, Vec2::new(nan, 0.0), 1.0, &f)).contains("velocity.x"));
    assert!(err(world.try_cast_shape(&unit, &origin, Vec2::x(), Real::INFINITY, &f)).contains("max_toi"));
    // The contract forms answer nothing.
    assert!(world.cast_ray(&Ray::new(Point::origin(), Vec2::zeros()), 1.0, &f).is_none());
    keys.push(ColliderKey::default());
    world.query_aabb(&inverted, &f, &mut keys);
    assert!(keys.is_empty());
}

#[test]
fn queries_fill_the_callers_buffer_without_reallocating() {
    let (world, _) = scene(15);
    let f = QueryFilter::default();
    let mut keys: Vec<ColliderKey> = Vec::with_capacity(1024);
    let mut hits = Vec::with_capacity(1024);
    let (kp, hp) = (keys.as_ptr(), hits.as_ptr());
    for i in 0..50 {
        let x = i as Real * 4.0 - 100.0;
        world.query_aabb(&Aabb::new(Point::new(x, -50.0), Point::new(x + 8.0, 50.0)), &f, &mut keys);
        world.cast_ray_all(&Ray::new(Point::new(x, -110.0), Vec2::new(0.05, 1.0)), 300.0, &f, &mut hits);
        assert_eq!((keys.as_ptr(), hits.as_ptr()), (kp, hp));
    }
}
