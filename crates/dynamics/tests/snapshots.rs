//! Snapshots (feature `serde`): a restored world steps bit for bit as the
//! original would have, whenever it was taken, and damaged or foreign bytes
//! are refused with an error, never a panic.
#![cfg(feature = "serde")]

mod common;

use common::{Rng, busy_world, step_both};
use lamina_dynamics::{BodyDesc, ColliderDesc, FORMAT_VERSION, SnapshotError, World, WorldSettings};
use lamina_geometry::{Isometry, Real, Shape, Vec2};
use proptest::prelude::*;

const DT: Real = 1.0 / 60.0;

/// Bytes of a snapshot's header, the world's tag among them (`snapshot/mod.rs`).
const HEADER: usize = 40;

#[test]
fn a_restored_world_steps_as_the_original_from_any_moment() {
    let (mut world, bullet) = busy_world();
    for (warm_up, what) in [(0, "fresh"), (20, "mid-impact"), (150, "some asleep")] {
        for _ in 0..warm_up {
            world.step(DT).unwrap();
        }
        let bytes = world.snapshot();
        let mut restored = World::restore(&bytes).unwrap();
        assert_eq!(restored.state_hash(), world.state_hash());
        assert_eq!(restored.snapshot(), bytes, "{what}: a restored world writes the same bytes");
        step_both(&mut world, &mut restored, 60, what);
        assert_eq!(restored.snapshot(), world.snapshot(), "{what}: the same bytes after the steps");
    }
    assert!(world.bodies().filter(|(_, b)| b.is_sleeping()).count() >= 4, "the side stack must sleep");
    assert!(world.body(bullet).is_some());
}

/// The contacts are written in two halves: worlds with no contact, one and
/// two (an empty half, halves of one) come back whole and step as the
/// original.
#[test]
fn worlds_of_no_and_few_contacts_come_back() {
    let mut world = World::new(WorldSettings::default());
    let restored = World::restore(&world.snapshot()).expect("an empty world");
    assert_eq!(restored.state_hash(), world.state_hash());
    let ground = world.add_body(BodyDesc::fixed());
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(5.0, 0.5))).unwrap();
    for x in [0.0, 2.0] {
        let ball = world.add_body(BodyDesc::dynamic().translation(x, 1.0));
        world.add_collider(ball, ColliderDesc::new(Shape::circle(0.5))).unwrap();
        world.step(DT).unwrap();
        let contacts = world.contacts().count();
        let mut restored = World::restore(&world.snapshot()).expect("a world of few contacts");
        assert_eq!(restored.contacts().count(), contacts);
        step_both(&mut world, &mut restored, 30, "few contacts");
    }
}

/// The parts of a snapshot are written and read side by side on the rayon
/// pool: the bytes, and the world read back, are the same on any number of
/// threads.
#[test]
fn the_bytes_are_the_same_on_any_number_of_threads() {
    let (mut world, _) = busy_world();
    for _ in 0..20 {
        world.step(DT).unwrap();
    }
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let bytes = world.snapshot();
            (World::restore(&bytes).unwrap().state_hash(), bytes)
        })
    };
    let (hash, bytes) = on(1);
    assert_eq!(hash, world.state_hash());
    for threads in [2, 3, 8] {
        assert!(on(threads) == (hash, bytes.clone()), "{threads} threads");
    }
}

/// Stepping on any number of threads leaves the same world, byte for byte
/// in its snapshot: a falling crowd of 900 balls, enough moving proxies that
/// the broad phase searches for their overlaps in tasks side by side (a
/// search whose overlaps went missing would leave pairs, and so contacts,
/// out).
#[test]
fn stepping_on_any_number_of_threads_leaves_the_same_bytes() {
    let crowd = || {
        let mut world = World::new(WorldSettings::default());
        let ground = world.add_body(BodyDesc::fixed());
        world.add_collider(ground, ColliderDesc::new(Shape::rectangle(40.0, 0.5))).unwrap();
        for i in 0..900 {
            let (x, y) = ((i % 45) as Real * 0.9 - 20.0, 1.5 + (i / 45) as Real * 0.9);
            let b = world.add_body(BodyDesc::dynamic().translation(x, y));
            world.add_collider(b, ColliderDesc::new(Shape::circle(0.4))).unwrap();
        }
        world
    };
    // One world cloned for each count: a snapshot holds its world's tag,
    // which a clone keeps and another world built the same way does not.
    let built = crowd();
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let mut world = built.clone();
            for _ in 0..40 {
                world.step(DT).unwrap();
            }
            world.snapshot()
        })
    };
    let one = on(1);
    for threads in [2, 3] {
        assert!(on(threads) == one, "{threads} threads");
    }
}

/// Bodies removed before the snapshot leave free slots in every map (bodies,
/// colliders, contacts, joints): the restored world must hand out the same
/// keys as the original for bodies added after, and contacts made during the
/// steps after.
#[test]
fn a_restored_world_hands_out_the_same_keys() {
    let (mut world, _) = busy_world();
    for _ in 0..30 {
        world.step(DT).unwrap();
    }
    let mut rng = Rng(7);
    let keys: Vec<_> = world.bodies().map(|(k, _)| k).collect();
    for _ in 0..12 {
        let key = keys[rng.below(keys.len())];
        let _ = world.remove_body(key);
    }
    world.step(DT).unwrap();
    let mut restored = World::restore(&world.snapshot()).unwrap();
    for i in 0..5 {
        let desc =
            BodyDesc::dynamic().translation(-3.0 + i as Real, 12.0).linear_velocity(Vec2::new(0.0, -5.0));
        let (a, b) = (world.add_body(desc), restored.add_body(desc));
        assert_eq!(a, b, "the same key for the same new body");
        let collider = ColliderDesc::new(Shape::circle(0.4));
        assert_eq!(
            world.add_collider(a, collider.clone()).unwrap(),
            restored.add_collider(b, collider).unwrap()
        );
    }
    step_both(&mut world, &mut restored, 90, "after removals");
}

/// What a snapshot rebuilds rather than stores must come back exact in the
/// cases where it cannot simply be recomputed: a collider added just before
/// the snapshot, whose bounds are not yet the step's, and a body whose
/// collider sits off its origin, whose centre of mass the solver rounds its
/// own way. Bodies removed and added after the restore then move the broad
/// phase's proxies and make and end pairs, in both worlds alike.
#[test]
fn rebuilt_values_stay_exact_through_removals_and_additions() {
    let (mut world, _) = busy_world();
    let lopsided =
        ColliderDesc::new(Shape::rectangle(0.3, 0.2)).local_pose(Isometry::new(Vec2::new(0.4, 0.1), 0.3));
    let spinner = world.add_body(BodyDesc::dynamic().translation(3.0, 14.0).angle(0.2).angular_velocity(2.0));
    world.add_collider(spinner, lopsided.clone()).unwrap();
    for _ in 0..30 {
        world.step(DT).unwrap();
    }
    let late = world.add_body(BodyDesc::dynamic().translation(-3.0, 12.0));
    world.add_collider(late, ColliderDesc::new(Shape::circle(0.3))).unwrap();
    let bytes = world.snapshot();
    let mut restored = World::restore(&bytes).unwrap();
    assert_eq!(restored.snapshot(), bytes, "the rebuilt values are written back the same");
    let mut rng = Rng(11);
    for round in 0..6 {
        step_both(&mut world, &mut restored, 30, &format!("round {round}"));
        let keys: Vec<_> = world.bodies().map(|(k, _)| k).collect();
        let doomed = keys[rng.below(keys.len())];
        assert_eq!(world.remove_body(doomed), restored.remove_body(doomed));
        let desc = BodyDesc::dynamic().translation(rng.range(-6.0, 6.0), 15.0).angle(rng.range(-1.0, 1.0));
        let (a, b) = (world.add_body(desc), restored.add_body(desc));
        assert_eq!(a, b, "the same key for the same new body");
        assert_eq!(
            world.add_collider(a, lopsided.clone()).unwrap(),
            restored.add_collider(b, lopsided.clone()).unwrap()
        );
    }
    assert_eq!(restored.snapshot(), world.snapshot(), "round {}: the same bytes", 6);
}

/// XXH64 with seed 0, the checksum of a snapshot's payload, as a tool that
/// crafts snapshots would compute it.
fn xxh64(bytes: &[u8]) -> u64 {
    const P: [u64; 5] = [
        0x9E37_79B1_85EB_CA87,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
        0x27D4_EB2F_1656_67C5,
    ];
    let round = |acc: u64, w: u64| acc.wrapping_add(w.wrapping_mul(P[1])).rotate_left(31).wrapping_mul(P[0]);
    let word = |b: &[u8]| u64::from_le_bytes(b[..8].try_into().unwrap());
    let mut rest = bytes;
    let mut h = P[4];
    if bytes.len() >= 32 {
        let mut v = [P[0].wrapping_add(P[1]), P[1], 0, P[0].wrapping_neg()];
        while rest.len() >= 32 {
            for (k, lane) in v.iter_mut().enumerate() {
                *lane = round(*lane, word(&rest[8 * k..]));
            }
            rest = &rest[32..];
        }
        h = [1, 7, 12, 18].iter().zip(v).fold(0u64, |h, (&r, lane)| h.wrapping_add(lane.rotate_left(r)));
        for lane in v {
            h = (h ^ round(0, lane)).wrapping_mul(P[0]).wrapping_add(P[3]);
        }
    }
    h = h.wrapping_add(bytes.len() as u64);
    while rest.len() >= 8 {
        h = (h ^ round(0, word(rest))).rotate_left(27).wrapping_mul(P[0]).wrapping_add(P[3]);
        rest = &rest[8..];
    }
    if rest.len() >= 4 {
        let half = u64::from(u32::from_le_bytes(rest[..4].try_into().unwrap()));
        h = (h ^ half.wrapping_mul(P[0])).rotate_left(23).wrapping_mul(P[1]).wrapping_add(P[2]);
        rest = &rest[4..];
    }
    for &b in rest {
        h = (h ^ u64::from(b).wrapping_mul(P[4])).rotate_left(11).wrapping_mul(P[0]);
    }
    h = (h ^ (h >> 33)).wrapping_mul(P[1]);
    h = (h ^ (h >> 29)).wrapping_mul(P[2]);
    h ^ (h >> 32)
}

/// `bytes` with the payload's length and checksum made to match its payload,
/// as a crafted file would have them.
fn sealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let payload_len = (bytes.len() - HEADER) as u64;
    let sum = xxh64(&bytes[32..]); // the tag's word and the payload
    bytes[16..24].copy_from_slice(&payload_len.to_le_bytes());
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// A snapshot whose payload was changed and its checksum made to match.
fn resealed(mut bytes: Vec<u8>, position: usize, bits: u8) -> Vec<u8> {
    bytes[position] ^= bits;
    sealed(bytes)
}

#[test]
fn the_checksum_is_xxh64() {
    assert_eq!(xxh64(b""), 0xEF46_DB37_51D8_E999);
    assert_eq!(xxh64(b"abc"), 0x44BC_2CF5_AD77_0999);
    let bytes = small_snapshot();
    assert_eq!(sealed(bytes.clone()), bytes, "the checksum of a snapshot as written");
}

#[test]
fn foreign_and_damaged_snapshots_are_refused() {
    let (world, _) = busy_world();
    let bytes = world.snapshot();
    assert!(matches!(World::restore(&[]), Err(SnapshotError::Truncated { .. })));
    assert!(matches!(World::restore(b"{\"bodies\": []}"), Err(SnapshotError::NotASnapshot)));
    assert!(matches!(World::restore(&bytes[..bytes.len() - 1]), Err(SnapshotError::Truncated { .. })));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(World::restore(&longer), Err(SnapshotError::TrailingBytes { extra: 1 })));
    let mut other_version = bytes.clone();
    other_version[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert!(matches!(World::restore(&other_version), Err(SnapshotError::UnsupportedVersion { .. })));
    let mut other_precision = bytes.clone();
    other_precision[12] = if other_precision[12] == 4 { 8 } else { 4 };
    assert!(matches!(World::restore(&other_precision), Err(SnapshotError::WrongPrecision { .. })));
    let mut flipped = bytes.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x10;
    assert!(matches!(World::restore(&flipped), Err(SnapshotError::ChecksumMismatch { .. })));
    // A payload that passes the checksum but is not a world.
    let mut garbage = bytes[..HEADER].to_vec();
    garbage.extend_from_slice(&[0xffu8; 40]);
    assert!(matches!(World::restore(&sealed(garbage)), Err(SnapshotError::Malformed(_))));
    // A world's tag of zero, which no world has, with the checksum made to match.
    let mut untagged = bytes.clone();
    untagged[32..36].copy_from_slice(&[0; 4]);
    assert!(matches!(World::restore(&sealed(untagged)), Err(SnapshotError::Malformed(_))));
    // Errors name what was wrong.
    let message = World::restore(&other_version).err().expect("refused").to_string();
    assert!(message.contains(&format!("{}", FORMAT_VERSION + 1)), "{message}");
}

/// A small world's snapshot, for the property tests.
fn small_snapshot() -> Vec<u8> {
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(5.0, 0.5))).unwrap();
    for i in 0..4 {
        let b = world.add_body(BodyDesc::dynamic().translation(i as Real - 1.5, 1.0 + i as Real));
        world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.4, 0.4))).unwrap();
    }
    for _ in 0..30 {
        world.step(DT).unwrap();
    }
    world.snapshot()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any bit flipped, anywhere: refused, no panic.
    #[test]
    fn a_flipped_bit_is_refused(position in 0usize..10_000, bit in 0u8..8) {
        let mut bytes = small_snapshot();
        let position = position % bytes.len();
        bytes[position] ^= 1 << bit;
        prop_assert!(World::restore(&bytes).is_err());
    }

    /// Any truncation: refused, no panic.
    #[test]
    fn a_truncated_snapshot_is_refused(keep in 0usize..10_000) {
        let bytes = small_snapshot();
        let keep = keep % bytes.len();
        prop_assert!(World::restore(&bytes[..keep]).is_err());
    }

    /// Any byte of the compressed payload changed and the checksum made to
    /// match, as a crafted file would: refused or, if it happens to decode,
    /// a world that steps without panic and stays finite.
    #[test]
    fn a_damaged_payload_behind_a_valid_checksum_never_panics(position in 0usize..10_000, bits in 1u8..=255) {
        let bytes = small_snapshot();
        let position = HEADER + position % (bytes.len() - HEADER);
        if let Ok(mut world) = World::restore(&resealed(bytes, position, bits)) {
            let _ = world.step(DT);
            for (_, b) in world.bodies() {
                prop_assert!(b.position().translation.vector.iter().all(|v| v.is_finite()));
            }
        }
    }

    /// Garbage behind a valid header and checksum: refused or, if it happens
    /// to decode, a world whose every pose is finite; never a panic.
    #[test]
    fn garbage_with_a_valid_checksum_never_panics(payload in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut bytes = small_snapshot()[..HEADER].to_vec();
        bytes.extend_from_slice(&payload);
        if let Ok(mut world) = World::restore(&sealed(bytes)) {
            let _ = world.step(DT);
            for (_, b) in world.bodies() {
                prop_assert!(b.position().translation.vector.iter().all(|v| v.is_finite()));
            }
        }
    }
}
