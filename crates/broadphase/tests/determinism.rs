//! The same calls give the same events in the same order, and the same query
//! results, bit for bit; and the order of events never depends on the order in
//! which proxies moved.

mod common;

use common::{Rng, aabb, check_event_order};
use lamina_broadphase::{PairEvent, SweepAndPrune};
use lamina_geometry::{Point, Ray, Real, Vec2};

/// Per step: the events, a box query's keys, and a ray cast's hits.
type Transcript = (Vec<Vec<PairEvent<u64>>>, Vec<Vec<u64>>, Vec<Vec<(u64, Real)>>);

/// Runs a seeded script and returns everything observable it produced.
fn transcript(seed: u64) -> Transcript {
    let mut sap = SweepAndPrune::<u64>::new();
    let mut rng = Rng(seed);
    let (mut all_events, mut queries, mut rays) = (Vec::new(), Vec::new(), Vec::new());
    let mut events = Vec::new();
    let mut live: Vec<u64> = Vec::new();
    let mut next = 0u64;
    for _ in 0..60 {
        for _ in 0..40 {
            let (x, y) = (rng.range(0.0, 50.0), rng.range(0.0, 50.0));
            let b = aabb(x, y, x + rng.range(0.1, 3.0), y + rng.range(0.1, 3.0));
            match rng.below(10) {
                0..=2 => {
                    // Keys far apart so that hash order and key order differ.
                    let key = next.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    sap.insert(key, b).expect("fresh key");
                    live.push(key);
                    next += 1;
                }
                3 if !live.is_empty() => {
                    let key = live.swap_remove(rng.below(live.len()));
                    sap.remove(key).expect("live key");
                }
                _ if !live.is_empty() => {
                    let key = live[rng.below(live.len())];
                    sap.update(key, b).expect("live key");
                }
                _ => {}
            }
        }
        sap.update_pairs(&mut events);
        // Sorted by key, not by the hash order of these scattered keys.
        check_event_order(&events);
        all_events.push(events.clone());
        let mut out = Vec::new();
        let window = aabb(10.0, 10.0, 30.0, 30.0);
        sap.query(&window, &mut out).expect("valid");
        // The query finds exactly the live proxies whose fat boxes touch the window.
        let mut found = out.clone();
        found.sort_unstable();
        let mut expected: Vec<u64> = live
            .iter()
            .copied()
            .filter(|&k| sap.fat_aabb(k).is_some_and(|f| f.intersects(&window)))
            .collect();
        expected.sort_unstable();
        assert_eq!(found, expected);
        queries.push(out);
        let mut hits = Vec::new();
        sap.cast_ray(&Ray::new(Point::new(-1.0, 0.0), Vec2::new(1.0, 0.9)), Real::INFINITY, &mut hits)
            .expect("castable");
        rays.push(hits);
    }
    (all_events, queries, rays)
}

#[test]
fn same_calls_same_events_same_order() {
    let a = transcript(0xfeed);
    let b = transcript(0xfeed);
    assert_eq!(a.0, b.0);
    assert_eq!(a.1, b.1);
    let bits = |r: &Vec<Vec<(u64, Real)>>| -> Vec<Vec<(u64, String)>> {
        r.iter().map(|v| v.iter().map(|&(k, t)| (k, format!("{:x}", t.to_bits()))).collect()).collect()
    };
    assert_eq!(bits(&a.2), bits(&b.2));
    assert!(a.0.iter().map(Vec::len).sum::<usize>() > 100, "the script must produce events");
}

#[test]
fn event_order_does_not_depend_on_the_order_of_updates() {
    let build = || {
        let mut sap = SweepAndPrune::<u32>::new();
        for k in 0..100 {
            let x = (k % 10) as Real * 1.5;
            let y = (k / 10) as Real * 1.5;
            sap.insert(k, aabb(x, y, x + 1.0, y + 1.0)).expect("valid");
        }
        let mut events = Vec::new();
        sap.update_pairs(&mut events);
        sap
    };
    let target = |k: u32| {
        let x = (k % 10) as Real * 1.2;
        let y = (k / 10) as Real * 1.2;
        aabb(x, y, x + 1.0, y + 1.0)
    };
    let (mut forward, mut backward) = (build(), build());
    for k in 0..100 {
        forward.update(k, target(k)).expect("live");
    }
    for k in (0..100).rev() {
        backward.update(k, target(k)).expect("live");
    }
    let (mut ef, mut eb) = (Vec::new(), Vec::new());
    forward.update_pairs(&mut ef);
    backward.update_pairs(&mut eb);
    assert!(!ef.is_empty());
    assert_eq!(ef, eb);
}
