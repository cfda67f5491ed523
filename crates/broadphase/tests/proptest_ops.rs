//! Property test: any sequence of inserts, updates, removes and steps, on a coarse
//! grid of coordinates where identical, touching and zero-size boxes are common,
//! keeps the pair set equal to brute force, and refuses bad calls without effect.

mod common;

use common::{Model, aabb};
use lamina_broadphase::{BroadPhaseError, BroadPhaseSettings, SweepAndPrune};
use lamina_geometry::{Aabb, Real};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Insert(u32, Aabb),
    Update(u32, Aabb),
    Remove(u32),
    Step,
}

/// Boxes on a half-metre lattice: sizes 0 to 4 m, so that regions of 1 m or 2 m
/// see boxes spanning several regions and boxes too large for the grid.
fn lattice_box() -> impl Strategy<Value = Aabb> {
    (-12i32..12, -12i32..12, 0i32..9, 0i32..9).prop_map(|(x, y, w, h)| {
        let (x, y) = (x as Real * 0.5, y as Real * 0.5);
        aabb(x, y, x + w as Real * 0.5, y + h as Real * 0.5)
    })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u32..24, lattice_box()).prop_map(|(k, b)| Op::Insert(k, b)),
        5 => (0u32..24, lattice_box()).prop_map(|(k, b)| Op::Update(k, b)),
        1 => (0u32..24).prop_map(Op::Remove),
        2 => Just(Op::Step),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn pairs_match_brute_force_after_any_sequence(
        ops in prop::collection::vec(op(), 1..120),
        margin in prop_oneof![Just(0.0 as Real), Just(0.25 as Real)],
        region_size in prop_oneof![Just(1.0 as Real), Just(2.0 as Real), Just(16.0 as Real)],
    ) {
        let settings = BroadPhaseSettings { margin, region_size };
        let mut sap = SweepAndPrune::<u32>::with_settings(settings).expect("valid settings");
        let mut model = Model::new(settings);
        let mut events = Vec::new();
        for op in ops {
            match op {
                Op::Insert(k, b) if model.fat.contains_key(&k) => {
                    prop_assert_eq!(sap.insert(k, b), Err(BroadPhaseError::DuplicateKey(k)));
                }
                Op::Insert(k, b) => model.insert(&mut sap, k, b),
                Op::Update(k, b) if model.fat.contains_key(&k) => model.update(&mut sap, k, b),
                Op::Update(k, b) => prop_assert_eq!(sap.update(k, b), Err(BroadPhaseError::UnknownKey(k))),
                Op::Remove(k) if model.fat.contains_key(&k) => model.remove(&mut sap, k),
                Op::Remove(k) => prop_assert_eq!(sap.remove(k), Err(BroadPhaseError::UnknownKey(k))),
                Op::Step => model.step_and_check(&mut sap, &mut events),
            }
        }
        model.step_and_check(&mut sap, &mut events);
        let listed: Vec<(u32, u32)> = sap.pairs().collect();
        let replayed: Vec<(u32, u32)> = model.replayed.iter().copied().collect();
        prop_assert_eq!(listed, replayed);
        for &(a, b) in &model.replayed {
            prop_assert!(sap.contains_pair(a, b) && sap.contains_pair(b, a));
        }
    }
}
