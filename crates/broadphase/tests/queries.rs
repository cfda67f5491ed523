//! Box and ray queries against brute force over the fat boxes.

mod common;

use common::{Rng, aabb};
use lamina_broadphase::{BroadPhaseSettings, SweepAndPrune};
use lamina_geometry::{Aabb, Point, Ray, Real, Vec2};

/// A scene of mixed small, region-spanning and huge boxes, some moved after the
/// last `update_pairs` (queries must see those moves too).
fn scene(seed: u64, region_size: Real) -> (SweepAndPrune<u32>, Vec<(u32, Aabb)>) {
    let settings = BroadPhaseSettings { margin: 0.1, region_size };
    let mut sap = SweepAndPrune::with_settings(settings).expect("valid settings");
    let mut rng = Rng(seed);
    for k in 0..1500u32 {
        let (x, y) = (rng.range(-80.0, 80.0), rng.range(-80.0, 80.0));
        let size = if k % 100 == 0 { 60.0 } else { 3.0 };
        let b = aabb(x, y, x + rng.range(0.0, size), y + rng.range(0.0, size));
        sap.insert(k, b).expect("valid box");
    }
    let mut events = Vec::new();
    sap.update_pairs(&mut events);
    for _ in 0..300 {
        let k = rng.below(1500) as u32;
        let (x, y) = (rng.range(-80.0, 80.0), rng.range(-80.0, 80.0));
        sap.update(k, aabb(x, y, x + 1.0, y + 2.0)).expect("live key, valid box");
    }
    let fat = (0..1500u32).map(|k| (k, sap.fat_aabb(k).expect("live key"))).collect();
    (sap, fat)
}

#[test]
fn box_queries_match_brute_force() {
    for (seed, region) in [(1u64, 16.0), (2, 2.0)] {
        let (sap, fat) = scene(seed, region);
        let mut rng = Rng(seed * 31);
        let mut out = Vec::new();
        for i in 0..400 {
            let (x, y) = (rng.range(-90.0, 90.0), rng.range(-90.0, 90.0));
            let size = if i % 10 == 0 { 120.0 } else { rng.range(0.0, 8.0) };
            let q = aabb(x, y, x + size, y + rng.range(0.0, size));
            sap.query(&q, &mut out).expect("valid query box");
            let expected: Vec<u32> = fat.iter().filter(|(_, b)| b.intersects(&q)).map(|&(k, _)| k).collect();
            assert_eq!(out, expected, "query {q:?}");
        }
        // A box of one of the proxies finds at least that proxy; a point on a
        // corner finds the boxes that touch it.
        let (k, b) = fat[7];
        sap.query(&b, &mut out).expect("valid");
        assert!(out.contains(&k));
        sap.query(&Aabb::new(b.maxs, b.maxs), &mut out).expect("valid");
        assert!(out.contains(&k));
    }
}

fn brute_force_ray(fat: &[(u32, Aabb)], ray: &Ray, max_toi: Real) -> Vec<(u32, Real)> {
    let mut hits: Vec<(u32, Real)> =
        fat.iter().filter_map(|&(k, b)| b.cast_ray(ray, max_toi).map(|t| (k, t))).collect();
    hits.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    hits
}

#[test]
fn ray_casts_match_brute_force_nearest_first() {
    for (seed, region) in [(3u64, 16.0), (4, 2.0)] {
        let (sap, fat) = scene(seed, region);
        let mut rng = Rng(seed * 17);
        let mut out = Vec::new();
        for i in 0..300 {
            let origin = Point::new(rng.range(-100.0, 100.0), rng.range(-100.0, 100.0));
            let dir = match i % 4 {
                // Horizontal: parallel to one pair of slabs.
                0 => Vec2::new(
                    if rng.range(-1.0, 1.0) < 0.0 { -rng.range(0.5, 3.0) } else { rng.range(0.5, 3.0) },
                    0.0,
                ),
                1 => Vec2::new(0.0, rng.range(0.5, 3.0)),
                _ => Vec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
            };
            let ray = Ray::new(origin, dir);
            let max_toi = match i % 3 {
                0 => Real::INFINITY,
                1 => rng.range(0.0, 20.0),
                _ => rng.range(20.0, 200.0),
            };
            sap.cast_ray(&ray, max_toi, &mut out).expect("castable ray");
            assert_eq!(out, brute_force_ray(&fat, &ray, max_toi), "ray {ray:?} up to {max_toi}");
            assert!(out.windows(2).all(|w| w[0].1 <= w[1].1), "nearest first");
        }
    }
}

#[test]
fn ray_starting_inside_boxes_hits_them_at_zero() {
    let mut sap = SweepAndPrune::<u32>::with_margin(0.0).expect("valid margin");
    sap.insert(1, aabb(0.0, 0.0, 2.0, 2.0)).expect("valid");
    sap.insert(2, aabb(1.0, 1.0, 3.0, 3.0)).expect("valid");
    sap.insert(3, aabb(5.0, 1.0, 6.0, 2.0)).expect("valid");
    sap.insert(4, aabb(-5.0, 1.0, -4.0, 2.0)).expect("valid");
    let mut out = Vec::new();
    let ray = Ray::new(Point::new(1.5, 1.5), Vec2::new(1.0, 0.0));
    sap.cast_ray(&ray, 10.0, &mut out).expect("castable");
    assert_eq!(out, vec![(1, 0.0), (2, 0.0), (3, 3.5)]);
    sap.cast_ray(&ray, 3.0, &mut out).expect("castable");
    assert_eq!(out, vec![(1, 0.0), (2, 0.0)]);
}

#[test]
fn queries_reuse_the_callers_buffer() {
    let (sap, _) = scene(9, 16.0);
    let mut out: Vec<u32> = Vec::with_capacity(4096);
    let ptr = out.as_ptr();
    let mut hits: Vec<(u32, Real)> = Vec::with_capacity(4096);
    let hits_ptr = hits.as_ptr();
    for i in 0..50 {
        let x = i as Real * 3.0 - 75.0;
        sap.query(&aabb(x, -10.0, x + 5.0, 10.0), &mut out).expect("valid");
        sap.cast_ray(&Ray::new(Point::new(x, -90.0), Vec2::new(0.1, 1.0)), 200.0, &mut hits)
            .expect("castable");
        assert_eq!(out.as_ptr(), ptr, "the query buffer was reallocated");
        assert_eq!(hits.as_ptr(), hits_ptr, "the ray buffer was reallocated");
    }
}

/// A ray of the kinds the tests cast: axis-parallel (the slab method's edge
/// case) or any direction, from anywhere around the scene.
fn random_ray(rng: &mut Rng, i: usize) -> Ray {
    let origin = Point::new(rng.range(-100.0, 100.0), rng.range(-100.0, 100.0));
    let dir = match i % 4 {
        0 => Vec2::new(if rng.range(-1.0, 1.0) < 0.0 { -1.5 } else { 0.7 }, 0.0),
        1 => Vec2::new(0.0, rng.range(-3.0, 3.0)),
        _ => Vec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
    };
    Ray::new(origin, dir)
}

#[test]
fn walking_a_ray_reports_every_box_on_it_once() {
    for (seed, region) in [(5u64, 16.0), (6, 2.0), (7, 0.5)] {
        let (sap, fat) = scene(seed, region);
        let mut rng = Rng(seed * 13);
        for i in 0..300 {
            let ray = random_ray(&mut rng, i);
            if !ray.is_castable() {
                continue;
            }
            let max_toi = if i % 3 == 0 { Real::INFINITY } else { rng.range(0.0, 120.0) };
            let mut seen = Vec::new();
            sap.cast_ray_with(&ray, max_toi, |k, toi| {
                seen.push((k, toi));
                max_toi
            })
            .expect("castable ray");
            seen.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            assert_eq!(seen, brute_force_ray(&fat, &ray, max_toi), "ray {ray:?} up to {max_toi}");
        }
    }
}

#[test]
fn a_closest_hit_walk_finds_the_nearest_box_and_stops_soon_after() {
    let (sap, fat) = scene(8, 16.0);
    let mut rng = Rng(99);
    let mut visited_total = 0;
    for i in 0..300 {
        let ray = random_ray(&mut rng, i);
        if !ray.is_castable() {
            continue;
        }
        let mut best: Option<(u32, Real)> = None;
        let mut visited = 0;
        sap.cast_ray_with(&ray, Real::INFINITY, |k, toi| {
            visited += 1;
            if best.is_none_or(|(bk, bt)| toi < bt || (toi == bt && k < bk)) {
                best = Some((k, toi));
            }
            best.map_or(Real::INFINITY, |b| b.1)
        })
        .expect("castable ray");
        let expected = brute_force_ray(&fat, &ray, Real::INFINITY).first().copied();
        assert_eq!(best, expected, "ray {ray:?}");
        visited_total += visited;
    }
    // A walk that saw every box on each ray would visit about a tenth of the
    // scene per ray here; stopping at the first hit sees a handful.
    let every = 300 * fat.len() / 10;
    assert!(visited_total * 5 < every, "visited {visited_total} boxes in 300 closest-hit walks");
}

#[test]
fn a_ray_walk_refuses_bad_rays_and_reaches() {
    let (sap, _) = scene(10, 16.0);
    let good = Ray::new(Point::new(0.0, 0.0), Vec2::new(1.0, 0.0));
    for (ray, max_toi) in [
        (Ray::new(Point::new(Real::NAN, 0.0), Vec2::new(1.0, 0.0)), 1.0),
        (Ray::new(Point::new(0.0, 0.0), Vec2::new(0.0, 0.0)), 1.0),
        (Ray::new(Point::new(0.0, 0.0), Vec2::new(Real::INFINITY, 0.0)), 1.0),
        (good, -1.0),
        (good, Real::NAN),
    ] {
        let mut called = false;
        assert!(
            sap.cast_ray_with(&ray, max_toi, |_, t| {
                called = true;
                t
            })
            .is_err()
        );
        assert!(!called);
    }
}

#[test]
fn a_ray_across_a_vast_sparse_world_still_finds_every_box() {
    let mut sap = SweepAndPrune::<u32>::with_margin(0.0).expect("valid margin");
    for k in 0..40u32 {
        let x = k as Real * 1.0e5 - 2.0e6;
        sap.insert(k, aabb(x, -1.0, x + 1.0, 1.0)).expect("valid");
    }
    let ray = Ray::new(Point::new(-3.0e6, 0.0), Vec2::new(1.0, 1.0e-7));
    let mut seen = Vec::new();
    sap.cast_ray_with(&ray, Real::INFINITY, |k, toi| {
        seen.push((k, toi));
        Real::INFINITY
    })
    .expect("castable");
    seen.sort_by_key(|&(k, _)| k);
    assert_eq!(seen.iter().map(|&(k, _)| k).collect::<Vec<_>>(), (0..40).collect::<Vec<_>>());
}
