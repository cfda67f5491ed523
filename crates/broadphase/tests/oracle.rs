//! Thousands of boxes moving randomly for hundreds of steps, with inserts,
//! removes and teleports mixed in: after every step the pair set rebuilt from the
//! events must equal the O(n²) set over the fat boxes exactly (less the pairs
//! their filters refuse, where proxies have filters).

mod common;

use common::{Model, Rng, aabb};
use lamina_broadphase::{BroadPhaseSettings, PairFilter, SweepAndPrune};
use lamina_geometry::{Aabb, Real};

struct Scene {
    world: Real,
    max_size: Real,
    large_size: Real,
}

fn random_box(rng: &mut Rng, scene: &Scene) -> Aabb {
    let (x, y) = (rng.range(-scene.world, scene.world), rng.range(-scene.world, scene.world));
    let size = if rng.unit() < 0.01 { scene.large_size } else { scene.max_size };
    let (w, h) = (rng.range(0.0, size), rng.range(0.0, size));
    aabb(x, y, x + w, y + h)
}

/// A filter drawn from a few categories and masks, so that some pairs of
/// overlapping proxies are refused and others kept.
fn random_filter(rng: &mut Rng) -> PairFilter {
    let masks = [u32::MAX, !1, !2, 1 | 4, 2];
    PairFilter { category: 1 << rng.below(3), mask: masks[rng.below(masks.len())] }
}

/// Runs `steps` steps over `n` boxes, checking every step against brute force.
fn run(seed: u64, settings: BroadPhaseSettings, scene: Scene, n: usize, steps: usize) {
    run_with(seed, settings, scene, n, steps, false)
}

/// [`run`], with a random filter on every proxy when `filtered`.
fn run_with(seed: u64, settings: BroadPhaseSettings, scene: Scene, n: usize, steps: usize, filtered: bool) {
    let mut rng = Rng(seed);
    let mut sap = SweepAndPrune::<u32>::with_settings(settings).expect("valid settings");
    let mut model = Model::new(settings);
    let mut tight: Vec<(u32, Aabb)> = Vec::new();
    let mut next_key = 0u32;
    let mut events = Vec::new();
    let insert = |model: &mut Model, sap: &mut SweepAndPrune<u32>, rng: &mut Rng, key: u32, b: Aabb| {
        if filtered {
            let filter = random_filter(rng);
            model.insert_filtered(sap, key, b, filter);
        } else {
            model.insert(sap, key, b);
        }
    };
    for _ in 0..n {
        let b = random_box(&mut rng, &scene);
        insert(&mut model, &mut sap, &mut rng, next_key, b);
        tight.push((next_key, b));
        next_key += 1;
    }
    model.step_and_check(&mut sap, &mut events);
    let mut moved_total = 0usize;
    for _ in 0..steps {
        for (key, b) in tight.iter_mut() {
            let roll = rng.unit();
            if roll < 0.3 {
                // Jitter: usually inside the fat box, sometimes out of it.
                let d = 3.0 * settings.margin.max(0.05);
                let (dx, dy) = (rng.range(-d, d), rng.range(-d, d));
                *b = aabb(b.mins.x + dx, b.mins.y + dy, b.maxs.x + dx, b.maxs.y + dy);
            } else if roll < 0.31 {
                *b = random_box(&mut rng, &scene); // teleport across the world
            } else {
                continue;
            }
            let before = model.fat[key];
            model.update(&mut sap, *key, *b);
            moved_total += usize::from(model.fat[key] != before);
        }
        for _ in 0..rng.below(12) {
            let i = rng.below(tight.len());
            let (key, _) = tight.swap_remove(i);
            model.remove(&mut sap, key);
        }
        for _ in 0..rng.below(12) {
            let b = random_box(&mut rng, &scene);
            insert(&mut model, &mut sap, &mut rng, next_key, b);
            tight.push((next_key, b));
            next_key += 1;
        }
        model.step_and_check(&mut sap, &mut events);
    }
    assert!(moved_total > steps * n / 20, "the scene must actually move proxies ({moved_total} moves)");
    assert!(!model.replayed.is_empty(), "the scene must have pairs");
}

#[test]
fn default_settings_thousands_of_boxes_hundreds_of_steps() {
    let settings = BroadPhaseSettings::default();
    run(0x5eed_0001, settings, Scene { world: 100.0, max_size: 4.0, large_size: 40.0 }, 2000, 200);
}

#[test]
fn small_regions_every_proxy_spans_several_or_is_large() {
    // Regions smaller than the boxes: most proxies span 2 × 2 regions or go to the
    // large list, and they cross region borders all the time.
    let settings = BroadPhaseSettings { margin: 0.05, region_size: 1.5 };
    run(0x5eed_0002, settings, Scene { world: 40.0, max_size: 2.5, large_size: 10.0 }, 1500, 150);
}

#[test]
fn zero_margin_exact_boxes() {
    let settings = BroadPhaseSettings { margin: 0.0, region_size: 8.0 };
    run(0x5eed_0003, settings, Scene { world: 60.0, max_size: 3.0, large_size: 30.0 }, 1500, 150);
}

#[test]
fn dense_crowd_in_few_regions() {
    // Many boxes packed into a handful of regions: long sorted arrays, many pairs.
    let settings = BroadPhaseSettings { margin: 0.1, region_size: 16.0 };
    run(0x5eed_0004, settings, Scene { world: 12.0, max_size: 1.5, large_size: 20.0 }, 1200, 120);
}

#[test]
fn filtered_proxies_pair_only_as_their_filters_allow() {
    let scene = Scene { world: 60.0, max_size: 3.0, large_size: 40.0 };
    run_with(0xf117_e4ed, BroadPhaseSettings::default(), scene, 2000, 120, true);
}

/// The boxes of four 20 m walls turning about a centre among a crowd of small
/// boxes (the tumbler's drum): a wall's box shrinks to 1 m wide and grows to
/// 15 m square as it turns, so it leaves the grid for the large list and comes
/// back, in regions full of small movers, every quarter turn.
#[test]
fn turning_long_boxes_move_between_the_grid_and_the_large_list() {
    let settings = BroadPhaseSettings::default();
    let mut sap = SweepAndPrune::<u32>::with_settings(settings).expect("valid settings");
    let mut model = Model::new(settings);
    let mut rng = Rng(0xd2_0001);
    let mut events = Vec::new();
    let wall_box = |k: u32, angle: Real| {
        // Wall k: half-extents (0.5, 10) at distance 10 from the centre (0, 10), turned.
        let a = angle + k as Real * std::f64::consts::FRAC_PI_2 as Real;
        let (s, c) = a.sin_cos();
        let (cx, cy) = (10.0 * c, 10.0 + 10.0 * s);
        let (hx, hy) = (0.5 * c.abs() + 10.0 * s.abs(), 0.5 * s.abs() + 10.0 * c.abs());
        aabb(cx - hx, cy - hy, cx + hx, cy + hy)
    };
    let mut small: Vec<(u32, Aabb)> = (0..400)
        .map(|k| {
            let (x, y) = (rng.range(-9.0, 9.0), rng.range(1.0, 19.0));
            (4 + k, aabb(x, y, x + 0.25, y + 0.25))
        })
        .collect();
    for k in 0..4 {
        model.insert(&mut sap, k, wall_box(k, 0.0));
    }
    for &(k, b) in &small {
        model.insert(&mut sap, k, b);
    }
    model.step_and_check(&mut sap, &mut events);
    let mut most_wall_pairs = 0;
    for step in 1..=90 {
        let angle = step as Real * std::f64::consts::PI as Real / 90.0;
        for k in 0..4 {
            model.update(&mut sap, k, wall_box(k, angle));
        }
        for (k, b) in &mut small {
            let (dx, dy) = (rng.range(-0.05, 0.05), rng.range(-0.05, 0.05));
            *b = aabb(b.mins.x + dx, b.mins.y + dy, b.maxs.x + dx, b.maxs.y + dy);
            model.update(&mut sap, *k, *b);
        }
        model.step_and_check(&mut sap, &mut events);
        most_wall_pairs = most_wall_pairs.max(model.replayed.iter().filter(|&&(a, _)| a < 4).count());
    }
    // Diagonal walls' boxes cover much of the crowd.
    assert!(most_wall_pairs > 100, "{most_wall_pairs} wall pairs at most");
}

/// Enough movers per step (about 1,400, with filters) that `update_pairs`
/// tells which movers keep their pairs side by side on a pool of several
/// threads, skipping them when it reconciles: every step must still equal
/// brute force (on three threads, so that the tasks are not all alike).
#[test]
fn many_movers_on_several_threads_agree_with_brute_force() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().expect("a pool");
    pool.install(|| {
        let scene = Scene { world: 80.0, max_size: 3.0, large_size: 30.0 };
        run_with(0x0a11_0005, BroadPhaseSettings::default(), scene, 5000, 10, true);
    });
}
