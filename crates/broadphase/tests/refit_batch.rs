//! Property test: a batch of refits (`refit_batch`) does what the same refits
//! one at a time (`refit_hinted`, the oracle) do: the same outcome for each,
//! the same events at the next step, the same pairs, the same answers to
//! queries, and the same behaviour under the calls that follow. Batches mix
//! small moves of most of a crowd (regions re-sorted whole) with a few large
//! ones (regions moved entry by entry, proxies crossing region borders or
//! growing too large for the grid), repeated keys, unknown keys and invalid
//! boxes, announced wholly, in part or not at all, over several steps. The
//! batched structure's pairs and query answers are also checked against
//! every pair and every box tried one by one (brute force over its fat
//! boxes), so that the two structures cannot agree on a wrong answer.
//!
//! A second property does the same for `RefitBatch::refit_all` on crowds
//! large enough for its work on the rayon pool: its regions' re-sorts side
//! by side, and the proxies' new boxes written from several threads.

mod common;

use std::collections::BTreeMap;

use common::{Rng, aabb, brute_force_pairs};
use lamina_broadphase::{BroadPhaseSettings, ProxyHint, Refit, SweepAndPrune};
use lamina_geometry::{Aabb, Real};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// A box near `(x, y)`, up to `size` on each side.
fn near(rng: &mut Rng, x: Real, y: Real, size: Real) -> Aabb {
    let (w, h) = (rng.range(0.0, size), rng.range(0.0, size));
    aabb(x, y, x + w, y + h)
}

/// The query boxes: a grid over the scene.
fn query_boxes() -> impl Iterator<Item = Aabb> {
    (-6..6).flat_map(|i| {
        (-6..6).map(move |j| {
            let (x, y) = (i as Real * 2.0, j as Real * 2.0);
            aabb(x, y, x + 1.5, y + 1.5)
        })
    })
}

/// Every query answer over the grid of query boxes, sorted.
fn answers(sap: &SweepAndPrune<u32>) -> Vec<Vec<u32>> {
    query_boxes()
        .map(|q| {
            let mut found = Vec::new();
            sap.query(&q, &mut found).unwrap();
            found.sort_unstable();
            found
        })
        .collect()
}

/// The answers [`answers`] should give for proxies with fat boxes `fat`:
/// each key whose box overlaps or touches the query box.
fn brute_force_answers(fat: &BTreeMap<u32, Aabb>) -> Vec<Vec<u32>> {
    let touches = |a: &Aabb, b: &Aabb| {
        a.mins.x <= b.maxs.x && b.mins.x <= a.maxs.x && a.mins.y <= b.maxs.y && b.mins.y <= a.maxs.y
    };
    query_boxes().map(|q| fat.iter().filter(|(_, b)| touches(&q, b)).map(|(&k, _)| k).collect()).collect()
}

/// `count` proxies (keys 0 and up) at random places within `spread` of the
/// origin, each box up to `size` on a side, and two copies of them with
/// their pairs made: one to refit in batches, one to refit one by one. Also
/// the places.
fn twin_crowds(
    rng: &mut Rng,
    settings: BroadPhaseSettings,
    count: usize,
    spread: Real,
    size: Real,
) -> (SweepAndPrune<u32>, SweepAndPrune<u32>, Vec<(Real, Real)>) {
    let mut batched = SweepAndPrune::<u32>::with_settings(settings).unwrap();
    let mut places = Vec::new();
    for key in 0..count as u32 {
        let (x, y) = (rng.range(-spread, spread), rng.range(-spread, spread));
        batched.insert(key, near(rng, x, y, size)).unwrap();
        places.push((x, y));
    }
    let mut single = batched.clone();
    batched.update_pairs(&mut Vec::new());
    single.update_pairs(&mut Vec::new());
    (batched, single, places)
}

/// Brings both structures' pairs up to date and checks that they agree:
/// the same events, pairs and query answers, and the batched one's pairs
/// and answers against brute force over its fat boxes (keys below `keys`),
/// so that the two cannot agree on a wrong answer.
fn pairs_agree(
    batched: &mut SweepAndPrune<u32>,
    single: &mut SweepAndPrune<u32>,
    keys: u32,
) -> Result<(), TestCaseError> {
    let (mut events_batched, mut events_single) = (Vec::new(), Vec::new());
    batched.update_pairs(&mut events_batched);
    single.update_pairs(&mut events_single);
    prop_assert_eq!(&events_batched, &events_single);
    prop_assert_eq!(batched.pairs().collect::<Vec<_>>(), single.pairs().collect::<Vec<_>>());
    prop_assert_eq!(answers(batched), answers(single));
    let fat: BTreeMap<u32, Aabb> = (0..keys).filter_map(|k| batched.fat_aabb(k).map(|b| (k, b))).collect();
    let mut pairs: Vec<(u32, u32)> = batched.pairs().collect();
    pairs.sort_unstable();
    prop_assert_eq!(pairs, brute_force_pairs(&fat));
    prop_assert_eq!(answers(batched), brute_force_answers(&fat));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_batch_refits_as_refits_one_by_one(
        seed in 1u64..u64::MAX,
        count in 4usize..80,
        rounds in 1usize..8,
        margin in prop_oneof![Just(0.0 as Real), Just(0.1 as Real)],
        region_size in prop_oneof![Just(2.0 as Real), Just(4.0 as Real), Just(16.0 as Real)],
    ) {
        let mut rng = Rng(seed);
        let settings = BroadPhaseSettings { margin, region_size };
        let (mut batched, mut single, places) = twin_crowds(&mut rng, settings, count, 10.0, 1.0);
        for _ in 0..rounds {
            // Most of the crowd drifts a little, a few jump far or grow,
            // some keys come twice, a few are unknown or their boxes invalid.
            let mut refits = Vec::new();
            let share = rng.range(0.05, 1.0);
            for key in 0..count as u32 + 3 {
                if rng.unit() > share {
                    continue;
                }
                let (x, y) = places.get(key as usize).copied().unwrap_or((0.0, 0.0));
                let (far_x, far_y) = (rng.range(-12.0, 12.0), rng.range(-12.0, 12.0));
                let (dx, dy) = (rng.range(-0.2, 0.2), rng.range(-0.2, 0.2));
                let b = match rng.below(20) {
                    0 => near(&mut rng, far_x, far_y, 1.0),
                    1 => near(&mut rng, x, y, 3.0 * region_size),
                    2 => aabb(x, y, Real::NAN, y),
                    _ => near(&mut rng, x + dx, y + dy, 1.0),
                };
                refits.push((key, b));
                if rng.below(10) == 0 {
                    refits.push((key, near(&mut rng, x, y, 1.0)));
                }
            }
            // Most batches announce their refits, some only part of them,
            // some none: what is announced changes the time, not the result.
            let mut batch = batched.refit_batch();
            let announced = rng.range(0.0, 1.5);
            for &(key, aabb) in &refits {
                if rng.unit() < announced {
                    batch.announce(key, ProxyHint::NONE, &aabb);
                }
            }
            let outcomes: Vec<_> =
                refits.iter().map(|&(key, aabb)| batch.refit(key, ProxyHint::NONE, aabb)).collect();
            // A batch leaked instead of dropped is completed by the next
            // step all the same.
            if rng.below(8) == 0 {
                std::mem::forget(batch);
            } else {
                drop(batch);
            }
            for (&(key, aabb), outcome) in refits.iter().zip(&outcomes) {
                let expected = single.refit_hinted(key, ProxyHint::NONE, aabb);
                // Written out, so that the NaN of a refused box equals itself.
                prop_assert_eq!(format!("{outcome:?}"), format!("{expected:?}"), "refit of {}", key);
            }
            pairs_agree(&mut batched, &mut single, count as u32 + 3)?;
            // The calls after a batch find the proxies where it left them.
            let key = rng.below(count) as u32;
            prop_assert_eq!(batched.remove(key), single.remove(key));
            let b = near(&mut rng, 0.0, 0.0, 2.0);
            prop_assert_eq!(batched.insert(key, b), single.insert(key, b));
            let other = rng.below(count) as u32;
            let (x, y) = (rng.range(-10.0, 10.0), rng.range(-10.0, 10.0));
            let b = near(&mut rng, x, y, 1.0);
            prop_assert_eq!(batched.update(other, b), single.update(other, b));
        }
    }
}

/// The hint a caller would keep for `key` in `sap`: mostly its proxy's
/// place, sometimes none, sometimes a wrong one.
fn some_hint(rng: &mut Rng, sap: &SweepAndPrune<u32>, key: u32) -> ProxyHint {
    match rng.below(8) {
        0 => ProxyHint::NONE,
        1 => sap.hint(rng.below(40) as u32).unwrap_or(ProxyHint::NONE),
        _ => sap.hint(key).unwrap_or(ProxyHint::NONE),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn refits_all_at_once_are_refits_one_by_one(
        seed in 1u64..u64::MAX,
        count in 1100usize..2500,
        rounds in 1usize..4,
        threads in 2usize..5,
        region_size in prop_oneof![Just(2.0 as Real), Just(4.0 as Real), Just(16.0 as Real)],
    ) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let mut rng = Rng(seed);
        let settings = BroadPhaseSettings { margin: 0.1, region_size };
        let (mut batched, mut single, places) = twin_crowds(&mut rng, settings, count, 20.0, 0.5);
        for _ in 0..rounds {
            // Most of the crowd drifts (most of it out of its fat box), a
            // few jump far, grow past the grid or cross a region's border;
            // some rounds repeat keys, and some keys are unknown or their
            // boxes invalid.
            let mut refits: Vec<Refit<u32>> = Vec::new();
            let share = rng.range(0.5, 1.0);
            let repeats = rng.below(4) == 0;
            for key in 0..count as u32 + 3 {
                if rng.unit() > share {
                    continue;
                }
                let (x, y) = places.get(key as usize).copied().unwrap_or((0.0, 0.0));
                let (dx, dy) = (rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
                let (far_x, far_y) = (rng.range(-22.0, 22.0), rng.range(-22.0, 22.0));
                let b = match rng.below(40) {
                    0 => near(&mut rng, far_x, far_y, 0.5),
                    1 => near(&mut rng, x, y, 3.0 * region_size),
                    2 => aabb(x, y, Real::NAN, y),
                    3 => near(&mut rng, x + region_size * 0.5, y, 0.5),
                    _ => near(&mut rng, x + dx, y + dy, 0.5),
                };
                refits.push((key, some_hint(&mut rng, &batched, key), b));
                if repeats && rng.below(50) == 0 {
                    refits.push((key, ProxyHint::NONE, near(&mut rng, x, y, 0.5)));
                }
            }
            let mut outcomes = Vec::new();
            pool.install(|| {
                batched.refit_batch().refit_all(&refits, |i, outcome| {
                    assert_eq!(i, outcomes.len(), "results in order");
                    outcomes.push(outcome);
                })
            });
            prop_assert_eq!(outcomes.len(), refits.len());
            for (&(key, hint, aabb), outcome) in refits.iter().zip(&outcomes) {
                let expected = single.refit_hinted(key, hint, aabb);
                // Written out, so that the NaN of a refused box equals itself.
                prop_assert_eq!(format!("{outcome:?}"), format!("{expected:?}"), "refit of {}", key);
            }
            pool.install(|| pairs_agree(&mut batched, &mut single, count as u32 + 3))?;
        }
    }
}
