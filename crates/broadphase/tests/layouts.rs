//! The layouts that break naive broad phases: identical boxes, zero-size boxes,
//! shared edges and corners, everything on one line, teleports across the world,
//! coordinates far beyond the grid, and boxes larger than a region. Each is
//! checked against the brute-force pair set.

mod common;

use common::{Model, Rng, aabb};
use lamina_broadphase::{BroadPhaseSettings, PairEvent, PairFilter, SweepAndPrune};
use lamina_geometry::Real;

fn exact(region_size: Real) -> (SweepAndPrune<u32>, Model) {
    let settings = BroadPhaseSettings { margin: 0.0, region_size };
    (SweepAndPrune::with_settings(settings).expect("valid settings"), Model::new(settings))
}

#[test]
fn identical_boxes_all_pair_up_and_part_when_one_leaves() {
    let (mut sap, mut model) = exact(4.0);
    let mut events = Vec::new();
    for k in 0..60 {
        model.insert(&mut sap, k, aabb(1.0, 1.0, 2.0, 2.0));
    }
    model.step_and_check(&mut sap, &mut events);
    assert_eq!(events.len(), 60 * 59 / 2);
    model.update(&mut sap, 17, aabb(10.0, 1.0, 11.0, 2.0));
    model.step_and_check(&mut sap, &mut events);
    assert_eq!(events.len(), 59);
    assert!(events.iter().all(|e| !e.is_begin() && (e.keys().0 == 17 || e.keys().1 == 17)));
}

#[test]
fn zero_size_boxes_pair_when_they_coincide_or_touch() {
    let (mut sap, mut model) = exact(2.0);
    let mut events = Vec::new();
    model.insert(&mut sap, 0, aabb(0.0, 0.0, 0.0, 0.0));
    model.insert(&mut sap, 1, aabb(0.0, 0.0, 0.0, 0.0)); // the same point
    model.insert(&mut sap, 2, aabb(0.0, 0.0, 1.0, 0.0)); // a horizontal segment from it
    model.insert(&mut sap, 3, aabb(0.5, -1.0, 0.5, 1.0)); // a vertical segment crossing it
    model.insert(&mut sap, 4, aabb(2.0, 2.0, 2.0, 2.0)); // a lone point on a region corner
    model.insert(&mut sap, 5, aabb(1.0, 1.0, 2.0, 2.0)); // a box whose corner is that point
    model.step_and_check(&mut sap, &mut events);
    assert_eq!(
        events,
        vec![
            PairEvent::Begin(0, 1),
            PairEvent::Begin(0, 2),
            PairEvent::Begin(1, 2),
            PairEvent::Begin(2, 3),
            PairEvent::Begin(4, 5),
        ]
    );
}

#[test]
fn boxes_sharing_an_edge_or_a_corner_touch_and_a_gap_separates() {
    // A 20 × 20 checkerboard of unit boxes with exact margins: each box touches its
    // eight neighbours, across region borders too (regions of 3 m).
    let (mut sap, mut model) = exact(3.0);
    let mut events = Vec::new();
    for i in 0..20u32 {
        for j in 0..20u32 {
            let (x, y) = (i as Real, j as Real);
            model.insert(&mut sap, i * 20 + j, aabb(x, y, x + 1.0, y + 1.0));
        }
    }
    model.step_and_check(&mut sap, &mut events);
    // 2 · 19 · 20 edge neighbours and 2 · 19 · 19 corner neighbours.
    assert_eq!(events.len(), 2 * 19 * 20 + 2 * 19 * 19);
    // Nudge one box up and right by a hair: the gaps end its contact with the
    // three neighbours on its left and the three below (one shared), and it still
    // overlaps the other three.
    let eps = 1.0e-3;
    model.update(&mut sap, 10 * 20 + 10, aabb(10.0 + eps, 10.0 + eps, 11.0 + eps, 11.0 + eps));
    model.step_and_check(&mut sap, &mut events);
    assert_eq!(events.len(), 5, "ends with the left and lower neighbours: {events:?}");
    assert!(events.iter().all(|e| !e.is_begin()));
}

#[test]
fn all_boxes_on_one_horizontal_line_then_one_vertical_line() {
    for vertical in [false, true] {
        let (mut sap, mut model) = exact(16.0);
        let mut rng = Rng(0xabc + vertical as u64);
        let mut events = Vec::new();
        let place = |t: Real, len: Real| {
            if vertical { aabb(0.0, t, 1.0, t + len) } else { aabb(t, 0.0, t + len, 1.0) }
        };
        for k in 0..1500 {
            model.insert(&mut sap, k, place(k as Real * 0.5, 1.0));
        }
        model.step_and_check(&mut sap, &mut events);
        assert_eq!(model.replayed.len(), 1499 + 1498, "each box overlaps the next and touches the one after");
        for _ in 0..60 {
            for _ in 0..150 {
                let k = rng.below(1500) as u32;
                model.update(&mut sap, k, place(rng.range(0.0, 750.0), rng.range(0.0, 2.0)));
            }
            model.step_and_check(&mut sap, &mut events);
        }
    }
}

#[test]
fn tall_stack_and_row_of_pyramids_in_touching_contact() {
    let (mut sap, mut model) = exact(16.0);
    let mut events = Vec::new();
    let mut key = 0;
    for level in 0..400 {
        let y = level as Real;
        model.insert(&mut sap, key, aabb(-0.5, y, 0.5, y + 1.0));
        key += 1;
    }
    for p in 0..20 {
        let x0 = 10.0 + p as Real * 25.0;
        for row in 0..20 {
            for i in 0..(20 - row) {
                let x = x0 + i as Real + 0.5 * row as Real;
                let y = row as Real;
                model.insert(&mut sap, key, aabb(x, y, x + 1.0, y + 1.0));
                key += 1;
            }
        }
    }
    model.step_and_check(&mut sap, &mut events);
    let mut rng = Rng(77);
    for _ in 0..30 {
        for _ in 0..200 {
            let k = rng.below(key as usize) as u32;
            let b = model.fat[&k];
            let (dx, dy) = (rng.range(-0.02, 0.02), rng.range(-0.02, 0.02));
            model.update(&mut sap, k, aabb(b.mins.x + dx, b.mins.y + dy, b.maxs.x + dx, b.maxs.y + dy));
        }
        model.step_and_check(&mut sap, &mut events);
    }
}

#[test]
fn teleports_across_the_world_and_back() {
    let settings = BroadPhaseSettings { margin: 0.1, region_size: 4.0 };
    let mut sap = SweepAndPrune::with_settings(settings).expect("valid settings");
    let mut model = Model::new(settings);
    let mut rng = Rng(99);
    let mut events = Vec::new();
    for k in 0..400 {
        let (x, y) = (rng.range(0.0, 30.0), rng.range(0.0, 30.0));
        model.insert(&mut sap, k, aabb(x, y, x + 1.0, y + 1.0));
    }
    model.step_and_check(&mut sap, &mut events);
    let far: [Real; 4] = [1.0e5, -3.0e6, 2.5e7, -1.0e5];
    for step in 0..80 {
        for _ in 0..40 {
            let k = rng.below(400) as u32;
            let (x, y) = if rng.unit() < 0.5 {
                (far[step % 4] + rng.range(0.0, 5.0), far[(step + 1) % 4] + rng.range(0.0, 5.0))
            } else {
                (rng.range(0.0, 30.0), rng.range(0.0, 30.0))
            };
            model.update(&mut sap, k, aabb(x, y, x + 1.0, y + 1.0));
        }
        model.step_and_check(&mut sap, &mut events);
    }
}

#[test]
fn coordinates_beyond_the_grid_share_border_cells_and_stay_exact() {
    // Far past the last representable region the cells are clamped; the pairs
    // there must still be exact.
    let (mut sap, mut model) = exact(1.0);
    let mut rng = Rng(5);
    let mut events = Vec::new();
    let big: Real = 1.0e30;
    for k in 0..300 {
        let (x, y) = (rng.range(-3.0, 3.0) * big, rng.range(-3.0, 3.0) * big);
        let (w, h) = (rng.range(0.0, 0.5) * big, rng.range(0.0, 0.5) * big);
        model.insert(&mut sap, k, aabb(x, y, x + w, y + h));
    }
    model.insert(&mut sap, 1000, aabb(-Real::MAX, -Real::MAX, Real::MAX, Real::MAX));
    model.step_and_check(&mut sap, &mut events);
    for _ in 0..20 {
        for _ in 0..50 {
            let k = rng.below(300) as u32;
            let (x, y) = (rng.range(-3.0, 3.0) * big, rng.range(-3.0, 3.0) * big);
            model.update(&mut sap, k, aabb(x, y, x + 0.3 * big, y + 0.3 * big));
        }
        model.step_and_check(&mut sap, &mut events);
    }
}

#[test]
fn proxies_growing_past_a_region_move_to_the_large_list_and_back() {
    let settings = BroadPhaseSettings { margin: 0.1, region_size: 2.0 };
    let mut sap = SweepAndPrune::with_settings(settings).expect("valid settings");
    let mut model = Model::new(settings);
    let mut rng = Rng(31);
    let mut events = Vec::new();
    for k in 0..300 {
        let (x, y) = (rng.range(0.0, 40.0), rng.range(0.0, 40.0));
        model.insert(&mut sap, k, aabb(x, y, x + 0.5, y + 0.5));
    }
    model.step_and_check(&mut sap, &mut events);
    for _ in 0..60 {
        for _ in 0..30 {
            let k = rng.below(300) as u32;
            let (x, y) = (rng.range(0.0, 40.0), rng.range(0.0, 40.0));
            let size = if rng.unit() < 0.3 { rng.range(3.0, 25.0) } else { rng.range(0.0, 1.5) };
            model.update(&mut sap, k, aabb(x, y, x + size, y + size * 0.3));
        }
        model.step_and_check(&mut sap, &mut events);
    }
}

#[test]
fn resting_proxies_report_nothing() {
    let mut sap = SweepAndPrune::<u32>::new();
    let mut model = Model::new(sap.settings());
    let mut events = Vec::new();
    for k in 0..100 {
        let x = k as Real * 0.9;
        model.insert(&mut sap, k, aabb(x, 0.0, x + 1.0, 1.0));
    }
    model.step_and_check(&mut sap, &mut events);
    assert!(!events.is_empty());
    for _ in 0..10 {
        for k in 0..100 {
            let x = k as Real * 0.9 + 0.01; // jitter well inside the 0.1 m margin
            assert!(!sap.update(k, aabb(x, 0.0, x + 1.0, 1.0)).expect("live key, valid box"));
        }
        model.step_and_check(&mut sap, &mut events);
        assert!(events.is_empty());
    }
}

#[test]
fn removing_and_reinserting_a_key_in_one_step_ends_then_begins() {
    let mut sap = SweepAndPrune::<u32>::new();
    let mut model = Model::new(sap.settings());
    let mut events = Vec::new();
    model.insert(&mut sap, 1, aabb(0.0, 0.0, 1.0, 1.0));
    model.insert(&mut sap, 2, aabb(0.5, 0.0, 1.5, 1.0));
    model.insert(&mut sap, 3, aabb(5.0, 0.0, 6.0, 1.0));
    model.step_and_check(&mut sap, &mut events);
    assert_eq!(events, vec![PairEvent::Begin(1, 2)]);
    model.remove(&mut sap, 1);
    model.insert(&mut sap, 1, aabb(0.2, 0.0, 1.2, 1.0));
    model.remove(&mut sap, 3);
    model.step_and_check(&mut sap, &mut events);
    assert_eq!(events, vec![PairEvent::End(1, 2), PairEvent::Begin(1, 2)]);
    model.remove(&mut sap, 2);
    model.step_and_check(&mut sap, &mut events);
    assert_eq!(events, vec![PairEvent::End(1, 2)]);
    assert_eq!(sap.pairs().count(), 0);
}

/// A cloth of proxies that ignore each other (category 2, mask without 2)
/// pairs with nothing, however its proxies move — until a proxy of another
/// category arrives, which pairs with the ones it overlaps, and after it
/// leaves, with nothing again.
#[test]
fn proxies_that_ignore_each_other_pair_only_with_newcomers_they_accept() {
    let (mut sap, mut model) = exact(4.0);
    let mut events = Vec::new();
    let cloth = PairFilter { category: 2, mask: !2 };
    for k in 0..100u32 {
        let (x, y) = ((k % 10) as Real, (k / 10) as Real);
        model.insert_filtered(&mut sap, k, aabb(x, y, x + 1.5, y + 1.5), cloth);
    }
    model.step_and_check(&mut sap, &mut events);
    assert!(events.is_empty());
    let mut rng = Rng(7);
    for step in 0..20 {
        for k in 0..100u32 {
            let (x, y) = ((k % 10) as Real + rng.range(-0.3, 0.3), (k / 10) as Real + rng.range(-0.3, 0.3));
            model.update(&mut sap, k, aabb(x, y, x + 1.5, y + 1.5));
        }
        if step == 5 {
            model.insert(&mut sap, 1000, aabb(2.0, 2.0, 4.0, 4.0));
        }
        if step == 12 {
            model.remove(&mut sap, 1000);
        }
        model.step_and_check(&mut sap, &mut events);
        let pairs = sap.pair_count();
        match step {
            5..=11 => assert!(pairs > 0, "step {step}: the newcomer pairs with nothing"),
            _ => assert_eq!(pairs, 0, "step {step}: the cloth paired with itself"),
        }
    }
}

/// The regions a debug view draws: every small box lies in the squares of
/// the regions it is registered in, each square is one region size wide and
/// on the grid, and the registrations add up to what the boxes touch
/// (computed here from the boxes alone).
#[test]
fn regions_are_grid_squares_holding_the_boxes_that_touch_them() {
    let (mut sap, _) = exact(4.0);
    let boxes = [aabb(0.5, 0.5, 1.5, 1.5), aabb(3.5, 0.5, 4.5, 1.5), aabb(-6.0, 9.0, -5.0, 10.0)];
    for (k, b) in boxes.iter().enumerate() {
        sap.insert(k as u32, *b).unwrap();
    }
    let regions: Vec<_> = sap.regions().collect();
    for r in &regions {
        let (w, h) = (r.bounds.maxs.x - r.bounds.mins.x, r.bounds.maxs.y - r.bounds.mins.y);
        assert_eq!((w, h), (4.0, 4.0), "{r:?}");
        assert_eq!(r.bounds.mins.x.rem_euclid(4.0), 0.0, "{r:?} is off the grid");
    }
    // By hand: the first box in the region at (0, 0); the second straddles x = 4,
    // so it is in (0, 0) and (4, 0); the third in (-8, 8).
    let count = |x: Real, y: Real| {
        regions.iter().find(|r| r.bounds.mins.x == x && r.bounds.mins.y == y).map(|r| r.proxies)
    };
    assert_eq!(count(0.0, 0.0), Some(2));
    assert_eq!(count(4.0, 0.0), Some(1));
    assert_eq!(count(-8.0, 8.0), Some(1));
    assert_eq!(regions.iter().map(|r| r.proxies).sum::<usize>(), 4);
}
