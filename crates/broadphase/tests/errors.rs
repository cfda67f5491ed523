//! Bad input is refused with a typed error that names the value, and a refused
//! call leaves the structure exactly as it was: a clone taken before the call and
//! the structure itself give the same events ever after.

mod common;

use common::{Rng, aabb};
use lamina_broadphase::{BroadPhaseError, BroadPhaseSettings, PairEvent, SweepAndPrune};
use lamina_geometry::{Aabb, Point, Ray, Real, Vec2};

fn populated() -> SweepAndPrune<u32> {
    let mut sap = SweepAndPrune::new();
    let mut rng = Rng(8);
    for k in 0..200 {
        let (x, y) = (rng.range(0.0, 30.0), rng.range(0.0, 30.0));
        sap.insert(k, aabb(x, y, x + 2.0, y + 2.0)).expect("valid");
    }
    let mut events = Vec::new();
    sap.update_pairs(&mut events);
    // Leave pending work (moves, an insert, a remove) so a failed call has
    // something to corrupt.
    sap.update(3, aabb(40.0, 40.0, 41.0, 41.0)).expect("valid");
    sap.insert(500, aabb(1.0, 1.0, 3.0, 3.0)).expect("valid");
    sap.remove(4).expect("live");
    sap
}

/// Drives both structures through the same random script and asserts identical
/// events, pairs and fat boxes.
fn assert_same_future(mut a: SweepAndPrune<u32>, mut b: SweepAndPrune<u32>) {
    let mut rng = Rng(21);
    let (mut ea, mut eb): (Vec<PairEvent<u32>>, Vec<PairEvent<u32>>) = (Vec::new(), Vec::new());
    for _ in 0..20 {
        for _ in 0..30 {
            let k = rng.below(200) as u32;
            let (x, y) = (rng.range(0.0, 30.0), rng.range(0.0, 30.0));
            let r = (a.update(k, aabb(x, y, x + 2.0, y + 2.0)), b.update(k, aabb(x, y, x + 2.0, y + 2.0)));
            assert_eq!(r.0.is_ok(), r.1.is_ok());
        }
        a.update_pairs(&mut ea);
        b.update_pairs(&mut eb);
        assert_eq!(ea, eb);
    }
    assert_eq!(a.pairs().collect::<Vec<_>>(), b.pairs().collect::<Vec<_>>());
    for k in 0..600 {
        assert_eq!(a.fat_aabb(k), b.fat_aabb(k));
    }
}

fn bad_boxes() -> Vec<Aabb> {
    let p = Point::new;
    vec![
        Aabb::new(p(Real::NAN, 0.0), p(1.0, 1.0)),
        Aabb::new(p(0.0, 0.0), p(1.0, Real::NAN)),
        Aabb::new(p(0.0, Real::NEG_INFINITY), p(1.0, 1.0)),
        Aabb::new(p(0.0, 0.0), p(Real::INFINITY, 1.0)),
        Aabb::new(p(2.0, 0.0), p(1.0, 1.0)),  // inverted in x
        Aabb::new(p(0.0, 2.0), p(1.0, -1.0)), // inverted in y
    ]
}

#[test]
fn bad_boxes_are_refused_by_insert_update_and_query_without_effect() {
    for bad in bad_boxes() {
        let mut sap = populated();
        let control = sap.clone();
        let err = sap.insert(900, bad).expect_err("bad box");
        // NaN is not equal to itself: compare what the error prints.
        let expected: BroadPhaseError<u32> = BroadPhaseError::InvalidAabb { mins: bad.mins, maxs: bad.maxs };
        assert_eq!(format!("{err:?}"), format!("{expected:?}"));
        let err = sap.update(7, bad).expect_err("bad box");
        assert!(matches!(err, BroadPhaseError::InvalidAabb { .. }));
        let err = sap.update(12345, bad).expect_err("bad box and unknown key");
        assert!(matches!(err, BroadPhaseError::InvalidAabb { .. }));
        let mut out = vec![77];
        assert!(matches!(sap.query(&bad, &mut out), Err(BroadPhaseError::InvalidAabb { .. })));
        assert_eq!(out, vec![77], "a refused query leaves the buffer alone");
        assert!(!sap.contains(900));
        assert_same_future(sap, control);
    }
}

#[test]
fn error_messages_name_the_bad_value() {
    let mut sap = SweepAndPrune::<u32>::new();
    let nan = sap.insert(1, aabb(Real::NAN, 0.0, 1.0, 1.0)).expect_err("NaN").to_string();
    assert!(nan.contains("NaN"), "{nan}");
    let inf = sap.insert(1, aabb(0.0, 0.0, Real::INFINITY, 1.0)).expect_err("inf").to_string();
    assert!(inf.contains("inf"), "{inf}");
    let inverted = sap.insert(1, aabb(3.5, 0.0, 1.25, 1.0)).expect_err("inverted").to_string();
    assert!(inverted.contains("3.5") && inverted.contains("1.25"), "{inverted}");
    let unknown = sap.update(4242, aabb(0.0, 0.0, 1.0, 1.0)).expect_err("unknown").to_string();
    assert!(unknown.contains("4242"), "{unknown}");
    sap.insert(7, aabb(0.0, 0.0, 1.0, 1.0)).expect("valid");
    let duplicate = sap.insert(7, aabb(0.0, 0.0, 1.0, 1.0)).expect_err("duplicate").to_string();
    assert!(duplicate.contains('7') && duplicate.contains("already"), "{duplicate}");
    let margin = SweepAndPrune::<u32>::with_margin(-0.5).expect_err("negative margin").to_string();
    assert!(margin.contains("-0.5"), "{margin}");
    let error: &dyn std::error::Error = &BroadPhaseError::UnknownKey(3u32);
    assert!(error.to_string().contains('3'));
}

#[test]
fn unknown_and_duplicate_keys_are_refused_without_effect() {
    let mut sap = populated();
    let control = sap.clone();
    assert_eq!(sap.update(999, aabb(0.0, 0.0, 1.0, 1.0)), Err(BroadPhaseError::UnknownKey(999)));
    assert_eq!(sap.remove(999), Err(BroadPhaseError::UnknownKey(999)));
    assert_eq!(sap.remove(4), Err(BroadPhaseError::UnknownKey(4)), "4 was removed already");
    assert_eq!(sap.insert(5, aabb(0.0, 0.0, 1.0, 1.0)), Err(BroadPhaseError::DuplicateKey(5)));
    assert_eq!(sap.insert(500, aabb(9.0, 9.0, 10.0, 10.0)), Err(BroadPhaseError::DuplicateKey(500)));
    assert_eq!(sap.fat_aabb(5), control.fat_aabb(5));
    assert_same_future(sap, control);
}

#[test]
fn a_box_that_overflows_when_fattened_is_refused() {
    let mut sap = SweepAndPrune::<u32>::with_margin(Real::MAX / 2.0).expect("finite margin");
    let b = aabb(0.0, 0.0, Real::MAX * 0.75, 1.0);
    let err = sap.insert(1, b).expect_err("overflows");
    assert!(matches!(err, BroadPhaseError::FatAabbOverflow { .. }));
    assert!(sap.is_empty());
    sap.insert(2, aabb(0.0, 0.0, 1.0, 1.0)).expect("small box fits");
    let before = sap.fat_aabb(2);
    assert!(matches!(sap.update(2, b), Err(BroadPhaseError::FatAabbOverflow { .. })));
    assert_eq!(sap.fat_aabb(2), before);
}

#[test]
fn bad_rays_and_settings_are_refused() {
    let sap = populated();
    let mut out = vec![(1u32, 0.5)];
    let o = Point::new(0.0, 0.0);
    for (ray, max_toi) in [
        (Ray::new(o, Vec2::new(0.0, 0.0)), 1.0),
        (Ray::new(o, Vec2::new(Real::NAN, 1.0)), 1.0),
        (Ray::new(Point::new(Real::INFINITY, 0.0), Vec2::new(1.0, 0.0)), 1.0),
        (Ray::new(o, Vec2::new(1.0, 0.0)), -1.0),
        (Ray::new(o, Vec2::new(1.0, 0.0)), Real::NAN),
    ] {
        let err = sap.cast_ray(&ray, max_toi, &mut out).expect_err("bad ray");
        assert!(
            matches!(err, BroadPhaseError::InvalidRay { .. } | BroadPhaseError::InvalidMaxToi(_)),
            "{err}"
        );
        assert_eq!(out, vec![(1, 0.5)]);
    }
    for margin in [Real::NAN, Real::INFINITY, -1.0] {
        assert!(matches!(SweepAndPrune::<u32>::with_margin(margin), Err(BroadPhaseError::InvalidMargin(_))));
    }
    for region_size in [0.0, -4.0, Real::NAN, Real::INFINITY, Real::MIN_POSITIVE / 4.0] {
        let settings = BroadPhaseSettings { margin: 0.1, region_size };
        assert!(matches!(
            SweepAndPrune::<u32>::with_settings(settings),
            Err(BroadPhaseError::InvalidRegionSize(_))
        ));
    }
}
