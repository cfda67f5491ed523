//! Tests of the sweep-and-prune as a whole: filters, margins, sweeps against
//! searches, hints, spilled partner lists and its rules under random operations.

use super::*;
use lamina_geometry::{Point, Vec2};

use crate::LONELY_MARGIN_SCALE;
use crate::test_rng::Rng;

/// Filters are read only while some proxy's filter is not universal: a
/// world of universal filters pairs every overlap, one filter that
/// refuses a category is obeyed from the moment it is inserted, and
/// once it is removed the count is back to none.
#[test]
fn filters_are_obeyed_from_the_first_one_that_refuses_something() {
    let mut sap = SweepAndPrune::<u32>::new();
    let at = |x: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + 1.0, 1.0));
    let plain = PairFilter { category: 1, mask: u32::MAX };
    sap.insert_filtered(1, at(0.0), plain).unwrap();
    sap.insert_filtered(2, at(0.5), PairFilter { category: 4, mask: u32::MAX }).unwrap();
    assert_eq!(sap.filtered, 0);
    let mut events = Vec::new();
    sap.update_pairs(&mut events);
    assert_eq!(sap.pairs().collect::<Vec<_>>(), [(1, 2)]);
    // Category 2 refuses category 1, and proxy 1 accepts everything:
    // 3 pairs with 2 (category 4) only, though it overlaps both.
    sap.insert_filtered(3, at(0.25), PairFilter { category: 2, mask: !1 }).unwrap();
    assert_eq!(sap.filtered, 1);
    sap.update_pairs(&mut events);
    assert_eq!(sap.pairs().collect::<Vec<_>>(), [(1, 2), (2, 3)]);
    // Moving 1 searches its overlaps again; the filter still holds.
    sap.update(1, at(0.2)).unwrap();
    sap.update_pairs(&mut events);
    assert_eq!(sap.pairs().collect::<Vec<_>>(), [(1, 2), (2, 3)]);
    sap.remove(3).unwrap();
    assert_eq!(sap.filtered, 0);
    sap.check_invariants().unwrap();
    // A proxy of no category pairs with nothing, though its mask is full.
    sap.insert_filtered(4, at(0.3), PairFilter { category: 0, mask: u32::MAX }).unwrap();
    assert_eq!(sap.filtered, 1);
    sap.update_pairs(&mut events);
    assert_eq!(sap.pairs().collect::<Vec<_>>(), [(1, 2)]);
    sap.check_invariants().unwrap();
}

/// The larger margin stops short of making a box too long for the grid:
/// with the default settings (0.1 m, regions of 16 m, so boxes up to 4 m
/// a side) a 1 m link would have grown by 2.5 m a side, to 6 m, and gone
/// to the large list every query reads. It grows by 0.45 × (4 − 1) =
/// 1.35 m instead; a link 3.5 m long by 0.45 × 0.5 = 0.225 m, and one
/// 3.79 m long by the plain margin (0.45 × 0.21 is less), which keeps
/// it in the grid too.
#[test]
fn the_larger_margin_keeps_boxes_in_the_grid() {
    let mut sap = SweepAndPrune::<u32>::new();
    let link = PairFilter { category: 2, mask: !2 };
    let long = |x: Real, length: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + length, 0.5));
    for (key, x, length, margin) in [(1, 0.0, 1.0, 1.35), (2, 5.0, 3.5, 0.225), (3, 20.0, 3.79, 0.1)] {
        sap.insert_filtered(key, long(x, length), link).unwrap();
        let fat = sap.fat_aabb(key).unwrap();
        assert!((fat.maxs.x - fat.mins.x - (length + 2.0 * margin)).abs() < 1e-4, "{key}: {fat:?}");
    }
    assert!(sap.large.is_empty(), "links in the large list: {:?}", sap.large);
    sap.check_invariants().unwrap();
}

/// A proxy whose filter accepts none of the categories present gets the
/// larger margin, and makes no pair; once a category it accepts is
/// present, its next refit gives it the plain margin, and it pairs by
/// its fat box as every proxy does.
#[test]
fn proxies_that_pair_with_nothing_get_the_larger_margin() {
    let margin = 0.1;
    // Regions large enough that the larger margin is not capped.
    let settings = BroadPhaseSettings { margin, region_size: 64.0 };
    let mut sap = SweepAndPrune::<u32>::with_settings(settings).unwrap();
    let link = PairFilter { category: 2, mask: !2 };
    let at = |x: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + 1.0, 1.0));
    let width = |sap: &SweepAndPrune<u32>, k: u32| {
        let fat = sap.fat_aabb(k).unwrap();
        fat.maxs.x - fat.mins.x
    };
    sap.insert_filtered(1, at(0.0), link).unwrap();
    sap.insert_filtered(2, at(1.5), link).unwrap();
    // A proxy that accepts no category at all is kept for queries alone:
    // the plain margin.
    sap.insert_filtered(9, at(20.0), PairFilter { category: 1, mask: 0 }).unwrap();
    assert!((width(&sap, 9) - (1.0 + 2.0 * margin)).abs() < 1e-4);
    let lonely = 1.0 + 2.0 * margin * LONELY_MARGIN_SCALE;
    assert!((width(&sap, 1) - lonely).abs() < 1e-4 && (width(&sap, 2) - lonely).abs() < 1e-4);
    let mut events = Vec::new();
    sap.update_pairs(&mut events);
    assert!(events.is_empty(), "links never pair with each other, however large their boxes");
    // A ground the links collide with: it gets the plain margin, and so
    // does a link moved out of its box.
    sap.insert(3, Aabb::new(Point::new(-10.0, -2.0), Point::new(10.0, -1.0))).unwrap();
    assert!((width(&sap, 3) - (20.0 + 2.0 * margin)).abs() < 1e-4);
    sap.update(1, at(-5.0)).unwrap();
    assert!((width(&sap, 1) - (1.0 + 2.0 * margin)).abs() < 1e-4);
    sap.update_pairs(&mut events);
    let pairs: Vec<(u32, u32)> = sap.pairs().collect();
    // Link 2 still has its large box (down to y = -2.5): it reaches the ground.
    assert_eq!(pairs, vec![(2, 3)]);
}

/// One random scene driven identically through three structures: one that
/// sweeps every region holding a moved proxy, one that never sweeps, and the
/// default. Each step moves `percent` % of the proxies (some far, some across
/// region borders, some into the large list), inserts and removes a few; the
/// three must report identical events, in identical order, every step.
fn sweeps_and_searches_agree(seed: u64, percent: u64) {
    let settings = BroadPhaseSettings { margin: 0.1, region_size: 4.0 };
    let new = |policy| {
        let mut sap = SweepAndPrune::<u32>::with_settings(settings).expect("valid settings");
        sap.sweep_policy = policy;
        sap
    };
    let mut saps = [new(SweepPolicy::Always), new(SweepPolicy::Never), new(SweepPolicy::Auto)];
    let mut rng = Rng(seed);
    let random_box = |rng: &mut Rng| {
        let (x, y) = (rng.unit() * 60.0 - 30.0, rng.unit() * 30.0 - 15.0);
        let size = if rng.unit() < 0.02 { 10.0 } else { 0.2 + rng.unit() * 2.0 };
        Aabb::new(Point::new(x, y), Point::new(x + size, y + size * 0.7))
    };
    let mut boxes: Vec<(u32, Aabb)> = (0..600).map(|k| (k, random_box(&mut rng))).collect();
    let mut next_key = boxes.len() as u32;
    for sap in &mut saps {
        for &(k, b) in &boxes {
            sap.insert(k, b).expect("fresh key, valid box");
        }
    }
    let mut events: [Vec<PairEvent<u32>>; 3] = Default::default();
    let (mut total_events, mut total_moves) = (0, 0);
    for step in 0..60 {
        for (k, b) in boxes.iter_mut() {
            if rng.next() % 100 >= percent {
                continue;
            }
            *b = if rng.unit() < 0.02 {
                random_box(&mut rng)
            } else {
                let (dx, dy) = (rng.unit() * 0.8 - 0.4, rng.unit() * 0.8 - 0.4);
                Aabb::new(b.mins + Vec2::new(dx, dy), b.maxs + Vec2::new(dx, dy))
            };
            let moved: Vec<bool> = saps.iter_mut().map(|s| s.update(*k, *b).expect("live key")).collect();
            assert!(moved.iter().all(|&m| m == moved[0]));
            total_moves += usize::from(moved[0]);
        }
        for _ in 0..rng.next() % 4 {
            let (k, _) = boxes.swap_remove((rng.next() % boxes.len() as u64) as usize);
            saps.iter_mut().for_each(|s| s.remove(k).expect("live key"));
        }
        for _ in 0..rng.next() % 4 {
            let b = random_box(&mut rng);
            saps.iter_mut().for_each(|s| s.insert(next_key, b).expect("fresh key"));
            boxes.push((next_key, b));
            next_key += 1;
        }
        for (sap, events) in saps.iter_mut().zip(&mut events) {
            sap.update_pairs(events);
            sap.check_invariants().unwrap_or_else(|e| panic!("step {step}: {e}"));
        }
        assert_eq!(events[0], events[1], "step {step}: sweeping and searching differ");
        assert_eq!(events[0], events[2], "step {step}: the default differs");
        total_events += events[0].len();
    }
    assert!(total_moves > 60 * 600 * percent as usize / 300, "the scene must move ({total_moves} moves)");
    assert!(total_events > 100, "the scene must change its pairs ({total_events} events)");
}

#[test]
fn sweeps_and_searches_agree_with_30_percent_moving() {
    sweeps_and_searches_agree(0x0bad_cafe_0030, 30);
}

#[test]
fn sweeps_and_searches_agree_with_60_percent_moving() {
    sweeps_and_searches_agree(0x0bad_cafe_0060, 60);
}

#[test]
fn sweeps_and_searches_agree_with_every_proxy_moving() {
    sweeps_and_searches_agree(0x0bad_cafe_0100, 100);
}

/// A hint spares the key lookup and nothing else: right, stale (its
/// proxy removed and the slot given to another key), absent or out of
/// range, refitting with it moves the same proxy to the same place as
/// refitting by key, and the hint returned is the right one.
#[test]
fn wrong_hints_refit_as_the_key_does() {
    let at = |x: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + 1.0, 1.0));
    let (mut hinted, mut keyed) = (SweepAndPrune::<u32>::new(), SweepAndPrune::<u32>::new());
    for sap in [&mut hinted, &mut keyed] {
        for k in 0..4 {
            sap.insert(k, at(2.0 * k as Real)).expect("fresh key");
        }
    }
    let stale = hinted.hint(1).expect("live key");
    for sap in [&mut hinted, &mut keyed] {
        sap.remove(1).expect("live key");
        sap.insert(7, at(2.0)).expect("fresh key"); // takes key 1's slot
    }
    assert_eq!(hinted.hint(7), Some(stale), "the freed slot is reused");
    let right = hinted.hint(3).expect("live key");
    let mut events = (Vec::new(), Vec::new());
    let cases = [
        (3, right, 5.5),
        (3, stale, 6.5),
        (0, stale, 1.5),
        (2, ProxyHint::NONE, 3.5),
        (7, ProxyHint(99), 0.5),
    ];
    for (key, hint, x) in cases {
        let (moved, kept) = hinted.refit_hinted(key, hint, at(x)).expect("live key");
        assert_eq!(moved, keyed.refit(key, at(x)).expect("live key"), "key {key}");
        assert_eq!(Some(kept), hinted.hint(key), "key {key}");
        hinted.update_pairs(&mut events.0);
        keyed.update_pairs(&mut events.1);
        assert_eq!(events.0, events.1, "key {key}");
        hinted.check_invariants().unwrap_or_else(|e| panic!("after key {key}: {e}"));
    }
    assert!(hinted.refit_hinted(1, stale, at(0.0)).is_err(), "a removed key is unknown, hint or not");
}

#[test]
fn partner_lists_spill_and_come_back() {
    // Thirty boxes on one spot: each has 29 partners, more than a slot holds in
    // place and more than the direct comparison handles. Then they spread out
    // one by one until every list is short again.
    let mut sap = SweepAndPrune::<u32>::new();
    let at = |x: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + 1.0, 1.0));
    for k in 0..30 {
        sap.insert(k, at(0.0)).expect("fresh key");
    }
    let mut events = Vec::new();
    sap.update_pairs(&mut events);
    assert_eq!(events.len(), 30 * 29 / 2);
    for k in 0..30 {
        sap.update(k, at(k as Real * 0.5)).expect("live key");
        sap.update_pairs(&mut events);
        sap.check_invariants().unwrap_or_else(|e| panic!("after moving {k}: {e}"));
    }
    // Fat boxes 1.2 m wide, 0.5 m apart: each overlaps its next two neighbours.
    let expected: Vec<(u32, u32)> =
        (0..30u32).flat_map(|a| (a + 1..30).filter(move |&b| b - a <= 2).map(move |b| (a, b))).collect();
    assert_eq!(sap.pairs().collect::<Vec<_>>(), expected);
}

#[test]
fn internal_rules_hold_through_random_operations() {
    let settings = BroadPhaseSettings { margin: 0.1, region_size: 4.0 };
    let mut sap = SweepAndPrune::<u32>::with_settings(settings).expect("valid settings");
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut events = Vec::new();
    let mut alive: Vec<u32> = Vec::new();
    let mut next_key = 0u32;
    for step in 0..300 {
        for _ in 0..20 {
            let roll = rng.unit();
            let (x, y) = (rng.unit() * 40.0 - 20.0, rng.unit() * 40.0 - 20.0);
            let size = if rng.unit() < 0.05 { 12.0 } else { rng.unit() * 3.0 };
            let b = Aabb::new(Point::new(x, y), Point::new(x + size, y + size * 0.5));
            if roll < 0.2 || alive.is_empty() {
                sap.insert(next_key, b).expect("fresh key, valid box");
                alive.push(next_key);
                next_key += 1;
            } else if roll < 0.3 {
                let k = alive.swap_remove((rng.next() % alive.len() as u64) as usize);
                sap.remove(k).expect("live key");
            } else {
                let k = alive[(rng.next() % alive.len() as u64) as usize];
                sap.update(k, b).expect("live key, valid box");
            }
            sap.check_invariants().unwrap_or_else(|e| panic!("step {step}: {e}"));
        }
        sap.update_pairs(&mut events);
        sap.check_invariants().unwrap_or_else(|e| panic!("step {step} after update_pairs: {e}"));
    }
}
