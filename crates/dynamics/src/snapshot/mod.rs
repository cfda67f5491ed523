//! Snapshots: a world written to bytes and read back, stepping bit for bit as
//! the original would have (cargo feature `serde`).
//!
//! A snapshot is a 32-byte header and a payload:
//!
//! | bytes | what |
//! |---|---|
//! | 0–7 | the magic `LAMINA` followed by `\0\x1a` |
//! | 8–11 | the format's version, little-endian ([`FORMAT_VERSION`]) |
//! | 12 | the size of `Real` in bytes: 4, or 8 with the `f64` feature |
//! | 13–15 | zero |
//! | 16–23 | the payload's length in bytes, little-endian |
//! | 24–31 | the payload's FNV-1a 64 checksum, little-endian |
//!
//! The payload is the world's state in a columnar layout (`columns.rs`: each
//! field of every record side by side, integers as differences, reals in byte
//! planes), compressed with zstd (`compression.rs`): the settings; the bodies,
//! colliders, joints, chains and contacts, each slot map written whole (every
//! slot's version, and the order of its free slots, so that the map read
//! back hands out the same keys as the original), the contacts' manifolds
//! together (`manifolds.rs`); both broad-phase structures with their pairs;
//! the islands with their sleep state; and the events not yet cleared. What
//! can be rebuilt is not written: the scratch buffers a step refills, the
//! colliders' copies of their broad-phase boxes, and what the broad phase
//! derives itself. Bodies' centres of mass and colliders' bounds, which can
//! almost always be rebuilt, are written as the bits that differ from the
//! rebuilt values ([`Residuals`]).
//!
//! Reading checks the header, the length and the checksum before decoding,
//! then that every key the state holds points at something, and that every
//! pose and velocity is finite: damaged or foreign bytes give a
//! [`SnapshotError`], never a panic or a world with NaN in it.

mod columns;
mod compression;
mod manifolds;

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use slotmap::{Key, SlotMap};

use lamina_broadphase::SweepAndPrune;
use lamina_geometry::{Aabb, Isometry, Point, Real, Shape};

use crate::body::Body;
use crate::chain::Chain;
use crate::collider::Collider;
use crate::contact::{Contact, ContactEvent, ContactHitEvent, SensorEvent};
use crate::island::Islands;
use crate::joint::Joint;
use crate::{
    BodyDesc, BodyKey, ChainKey, ColliderDesc, ColliderKey, ContactKey, JointDesc, JointKey, World,
    WorldSettings,
};
use manifolds::Manifolds;

/// The first eight bytes of every snapshot.
const MAGIC: [u8; 8] = *b"LAMINA\0\x1a";

/// The version of the snapshot format this build writes and reads. It changes
/// whenever the payload's layout does; older snapshots are refused, not
/// misread.
pub const FORMAT_VERSION: u32 = 2;

/// Bytes of the header before the payload.
const HEADER_LEN: usize = 32;

/// Why a snapshot could not be read. The bytes are left alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnapshotError {
    /// Fewer bytes than the header, or than the header says the payload has.
    Truncated {
        /// Bytes a whole snapshot needs.
        expected: u64,
        /// Bytes given.
        found: u64,
    },
    /// The bytes do not start with a snapshot's magic: not a snapshot.
    NotASnapshot,
    /// A snapshot of another format version.
    UnsupportedVersion {
        /// The snapshot's version.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// A snapshot written with another precision (`f32` against `f64`).
    WrongPrecision {
        /// Bytes per real number in the snapshot.
        found_bytes: u8,
        /// Bytes per real number in this build.
        expected_bytes: u8,
    },
    /// Bytes after the payload.
    TrailingBytes {
        /// How many.
        extra: u64,
    },
    /// The payload's checksum does not match: the bytes were damaged.
    ChecksumMismatch {
        /// The checksum the header holds.
        stored: u64,
        /// The checksum of the payload as given.
        computed: u64,
    },
    /// The payload does not decode as a world's state.
    Malformed(String),
    /// The payload decodes, but its parts do not fit together (a key that
    /// points at nothing, a non-finite pose).
    Inconsistent(String),
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated { expected, found } => {
                write!(f, "snapshot truncated: {found} bytes where {expected} were expected")
            }
            Self::NotASnapshot => write!(f, "not a Lamina snapshot (the magic bytes are missing)"),
            Self::UnsupportedVersion { found, supported } => {
                write!(f, "snapshot format version {found}; this build reads version {supported}")
            }
            Self::WrongPrecision { found_bytes, expected_bytes } => write!(
                f,
                "snapshot written with {found_bytes}-byte reals; this build uses {expected_bytes}-byte reals"
            ),
            Self::TrailingBytes { extra } => write!(f, "{extra} bytes after the snapshot's payload"),
            Self::ChecksumMismatch { stored, computed } => {
                write!(f, "snapshot damaged: checksum {computed:016x}, stored {stored:016x}")
            }
            Self::Malformed(why) => write!(f, "snapshot payload does not decode: {why}"),
            Self::Inconsistent(why) => write!(f, "snapshot inconsistent: {why}"),
        }
    }
}

impl std::error::Error for SnapshotError {}

/// One slot of a slot map, as `slotmap` reads and writes it.
#[derive(Serialize)]
struct SlotOut<'a, V> {
    value: Option<&'a V>,
    version: u32,
}

/// A slot map written whole: its slots in `slotmap`'s own serde layout (so
/// that they read back as a `SlotMap`), then its free slots, next to be
/// handed out first.
#[derive(Serialize)]
struct MapOut<'a, V> {
    slots: Vec<SlotOut<'a, V>>,
    free: Vec<u32>,
}

/// [`MapOut`] read back.
#[derive(Deserialize)]
#[serde(bound(deserialize = "V: Deserialize<'de>"))]
struct MapIn<K: Key, V> {
    slots: SlotMap<K, V>,
    free: Vec<u32>,
}

/// A key's slot index and version.
fn index_and_version<K: Key>(key: K) -> (u32, u32) {
    let ffi = key.data().as_ffi();
    (ffi as u32, (ffi >> 32) as u32)
}

/// Writes `map` whole. `filler` makes a throwaway value: the order of the free
/// slots is not exposed by `slotmap`, so a copy of the map is filled until it
/// grows, which hands out the free slots in their order.
///
/// Each free slot is written with its version less two, because reading it
/// back fills and frees it once more (see [`read_map`]).
fn write_map<K: Key, V: Clone>(map: &SlotMap<K, V>, filler: impl Fn() -> V) -> MapOut<'_, V> {
    let mut probe = map.clone();
    let mut free = Vec::new();
    let mut versions: Vec<(u32, u32)> = Vec::new();
    loop {
        let (index, version) = index_and_version(probe.insert(filler()));
        if version == 1 {
            break; // a slot never used before: the free slots are exhausted
        }
        free.push(index);
        versions.push((index, version - 1));
    }
    let top = map.keys().map(|k| index_and_version(k).0).chain(free.iter().copied()).max().unwrap_or(0);
    let mut slots: Vec<SlotOut<'_, V>> = (0..=top).map(|_| SlotOut { value: None, version: 0 }).collect();
    for (key, value) in map.iter() {
        let (index, version) = index_and_version(key);
        slots[index as usize] = SlotOut { value: Some(value), version };
    }
    for (index, version) in versions {
        slots[index as usize].version = version.saturating_sub(2);
    }
    MapOut { slots, free }
}

/// Rebuilds the slot map of `image`: `slotmap` reads the slots back with its
/// free slots in an order of its own, so each is filled and then freed again,
/// last first, which leaves them in the original order with their original
/// versions.
fn read_map<K: Key, V>(
    image: MapIn<K, V>,
    filler: impl Fn() -> V,
    what: &str,
) -> Result<SlotMap<K, V>, SnapshotError> {
    let MapIn { slots: mut map, free } = image;
    let mut filled: HashMap<u32, K> = HashMap::with_capacity(free.len());
    for _ in 0..free.len() {
        let key = map.insert(filler());
        filled.insert(index_and_version(key).0, key);
    }
    if filled.len() != free.len() || free.iter().any(|i| !filled.contains_key(i)) {
        return Err(SnapshotError::Inconsistent(format!(
            "the free slots of the {what} do not match their map"
        )));
    }
    for index in free.iter().rev() {
        map.remove(filled[index]);
    }
    Ok(map)
}

/// The world's state, borrowed for writing.
#[derive(Serialize)]
struct StateOut<'a> {
    settings: &'a WorldSettings,
    bodies: MapOut<'a, Body>,
    colliders: MapOut<'a, Collider>,
    joints: MapOut<'a, Joint>,
    chains: MapOut<'a, Chain>,
    contacts: MapOut<'a, Contact>,
    manifolds: Manifolds,
    broad_phase: &'a SweepAndPrune<ColliderKey>,
    immovable_index: &'a SweepAndPrune<ColliderKey>,
    islands: &'a Islands,
    joint_changes_pending: bool,
    body_changes_pending: bool,
    contact_events: &'a [ContactEvent],
    sensor_events: &'a [SensorEvent],
    hit_events: &'a [ContactHitEvent],
    residuals: Residuals,
}

/// The world's state, read back: [`StateOut`] field for field.
#[derive(Deserialize)]
struct StateIn {
    settings: WorldSettings,
    bodies: MapIn<BodyKey, Body>,
    colliders: MapIn<ColliderKey, Collider>,
    joints: MapIn<JointKey, Joint>,
    chains: MapIn<ChainKey, Chain>,
    contacts: MapIn<ContactKey, Contact>,
    manifolds: Manifolds,
    broad_phase: SweepAndPrune<ColliderKey>,
    immovable_index: SweepAndPrune<ColliderKey>,
    islands: Islands,
    joint_changes_pending: bool,
    body_changes_pending: bool,
    contact_events: Vec<ContactEvent>,
    sensor_events: Vec<SensorEvent>,
    hit_events: Vec<ContactHitEvent>,
    residuals: Residuals,
}

/// Throwaway values for filling slot maps' free slots.
fn filler_body() -> Body {
    Body::from_desc(&BodyDesc::fixed())
}
fn filler_collider() -> Collider {
    Collider::from_desc(BodyKey::null(), ColliderDesc::new(Shape::circle(1.0)), &Isometry::identity())
}
fn filler_joint() -> Joint {
    let desc = JointDesc::weld(BodyKey::null(), BodyKey::null(), Point::origin());
    crate::joint::make_joint(desc, &Isometry::identity(), &Isometry::identity(), Point::origin())
}
fn filler_chain() -> Chain {
    Chain { body: BodyKey::null(), colliders: Vec::new(), closed: false }
}
fn filler_contact() -> Contact {
    Contact::between(ColliderKey::null(), ColliderKey::null(), BodyKey::null(), BodyKey::null())
}

/// A placeholder for bounds a snapshot does not write, until they are rebuilt.
pub(crate) fn unset_bounds() -> Aabb {
    Aabb::new(Point::origin(), Point::origin())
}

/// The bits of a real, widened to 64 in either precision.
#[allow(clippy::useless_conversion)]
fn bits(v: Real) -> u64 {
    u64::from(v.to_bits())
}

/// The real whose bits are those of `predicted` flipped where `residual` is
/// set; `None` for a residual wider than a real.
#[allow(clippy::useless_conversion, clippy::unnecessary_fallible_conversions)]
fn unflip(predicted: Real, residual: u64) -> Option<Real> {
    Some(Real::from_bits((bits(predicted) ^ residual).try_into().ok()?))
}

/// The parts of the state that follow from the rest almost always, written as
/// the bits that differ (XOR) from the value rebuilt: zero, which the
/// columnar layout and the compressor reduce to next to nothing, wherever the
/// rebuilt value is exact, and never a value lost where it is not.
///
/// - a body's centre of mass, against its pose applied to its local centre
///   (the solver moves the centre and derives the pose from it, which can
///   round differently when the centre is off the origin);
/// - a collider's bounds, against its shape's bounds at its body's pose grown
///   by the speculative distance (they lag the pose until the next step when
///   a body was moved by hand).
///
/// A collider's copy of its broad-phase fat box is not written at all: it is
/// taken back from the broad phase.
#[derive(Serialize, Deserialize)]
struct Residuals {
    centers: Vec<[u64; 2]>,
    bounds: Vec<[u64; 4]>,
}

impl Residuals {
    fn of(world: &World) -> Self {
        let margin = world.settings.speculative_distance;
        let centers = world.bodies.values().map(|b| {
            let predicted = b.pose * b.local_center;
            [bits(b.center.x) ^ bits(predicted.x), bits(b.center.y) ^ bits(predicted.y)]
        });
        let bounds = world.colliders.values().map(|c| {
            let p = crate::finalize::contact_bounds(c, &world.bodies[c.body].pose, margin);
            let a = c.aabb;
            [
                bits(a.mins.x) ^ bits(p.mins.x),
                bits(a.mins.y) ^ bits(p.mins.y),
                bits(a.maxs.x) ^ bits(p.maxs.x),
                bits(a.maxs.y) ^ bits(p.maxs.y),
            ]
        });
        Residuals { centers: centers.collect(), bounds: bounds.collect() }
    }

    /// Rebuilds the centres and bounds of `world`, whose keys and poses are
    /// checked already, and takes the colliders' fat boxes from its broad phase.
    fn apply(self, world: &mut World) -> Result<(), String> {
        if self.centers.len() != world.bodies.len() || self.bounds.len() != world.colliders.len() {
            return Err("the centres or bounds do not match the bodies or colliders".into());
        }
        let wide = || "a residual wider than a real".to_string();
        for (b, r) in world.bodies.values_mut().zip(&self.centers) {
            let predicted = b.pose * b.local_center;
            b.center = Point::new(
                unflip(predicted.x, r[0]).ok_or_else(wide)?,
                unflip(predicted.y, r[1]).ok_or_else(wide)?,
            );
            if !(b.center.x.is_finite() && b.center.y.is_finite()) {
                return Err("a body's centre of mass is not finite".into());
            }
        }
        let margin = world.settings.speculative_distance;
        for ((key, c), r) in world.colliders.iter_mut().zip(&self.bounds) {
            let p = crate::finalize::contact_bounds(c, &world.bodies[c.body].pose, margin);
            let corner = |x: Real, y: Real, rx: u64, ry: u64| -> Result<Point, String> {
                Ok(Point::new(unflip(x, rx).ok_or_else(wide)?, unflip(y, ry).ok_or_else(wide)?))
            };
            c.aabb =
                Aabb::new(corner(p.mins.x, p.mins.y, r[0], r[1])?, corner(p.maxs.x, p.maxs.y, r[2], r[3])?);
            c.proxy_box = world.broad_phase.fat_aabb(key).ok_or("a collider has no broad-phase proxy")?;
        }
        Ok(())
    }
}

/// FNV-1a, 64-bit, over `bytes`.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

impl World {
    /// The world written to bytes: everything a step depends on, so that
    /// [`World::restore`] gives a world that steps bit for bit as this one.
    /// The format is described in `snapshot.rs` and `docs/snapshots.md`.
    pub fn snapshot(&self) -> Vec<u8> {
        let state = StateOut {
            settings: &self.settings,
            bodies: write_map(&self.bodies, filler_body),
            colliders: write_map(&self.colliders, filler_collider),
            joints: write_map(&self.joints, filler_joint),
            chains: write_map(&self.chains, filler_chain),
            contacts: write_map(&self.contacts, filler_contact),
            manifolds: Manifolds::of(&self.contacts),
            broad_phase: &self.broad_phase,
            immovable_index: &self.immovable_index,
            islands: &self.islands,
            joint_changes_pending: self.joint_changes_pending,
            body_changes_pending: self.body_changes_pending,
            contact_events: &self.contact_events,
            sensor_events: &self.sensor_events,
            hit_events: &self.hit_events,
            residuals: Residuals::of(self),
        };
        let mut bytes = vec![0u8; HEADER_LEN];
        let payload =
            compression::compress(&columns::to_bytes(&state).expect("a world's state always encodes"));
        bytes[0..8].copy_from_slice(&MAGIC);
        bytes[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes[12] = std::mem::size_of::<Real>() as u8;
        bytes[16..24].copy_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes[24..32].copy_from_slice(&checksum(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// The world a snapshot holds, or why the bytes are not one.
    pub fn restore(bytes: &[u8]) -> Result<World, SnapshotError> {
        let payload = check_header(bytes)?;
        let columnar = compression::decompress(payload).map_err(SnapshotError::Malformed)?;
        let state: StateIn =
            columns::from_bytes(&columnar).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        let mut world = World::try_new(state.settings)
            .map_err(|e| SnapshotError::Inconsistent(format!("the settings are out of range: {e}")))?;
        world.bodies = read_map(state.bodies, filler_body, "bodies")?;
        world.colliders = read_map(state.colliders, filler_collider, "colliders")?;
        world.joints = read_map(state.joints, filler_joint, "joints")?;
        world.chains = read_map(state.chains, filler_chain, "chains")?;
        world.contacts = read_map(state.contacts, filler_contact, "contacts")?;
        state.manifolds.apply(&mut world.contacts).map_err(SnapshotError::Inconsistent)?;
        world.broad_phase = state.broad_phase;
        world.immovable_index = state.immovable_index;
        world.islands = state.islands;
        world.joint_changes_pending = state.joint_changes_pending;
        world.body_changes_pending = state.body_changes_pending;
        world.contact_events = state.contact_events;
        world.sensor_events = state.sensor_events;
        world.hit_events = state.hit_events;
        world.contact_of_pair =
            world.contacts.iter().map(|(k, c)| ((c.collider_a, c.collider_b), k)).collect();
        world.check_restored().map_err(SnapshotError::Inconsistent)?;
        state.residuals.apply(&mut world).map_err(SnapshotError::Inconsistent)?;
        Ok(world)
    }

    /// That every key of the restored state points at something, and every
    /// pose and velocity is finite.
    fn check_restored(&self) -> Result<(), String> {
        for (key, b) in &self.bodies {
            let t = b.pose.translation.vector;
            let numbers =
                [t.x, t.y, b.pose.rotation.re, b.pose.rotation.im, b.linear_velocity.x, b.linear_velocity.y];
            if !numbers.iter().chain([&b.angular_velocity]).all(|v| v.is_finite()) {
                return Err(format!("body {key:?} has a non-finite pose or velocity"));
            }
            if let Some(c) =
                b.colliders.iter().find(|&&c| self.colliders.get(c).is_none_or(|c| c.body != key))
            {
                return Err(format!("body {key:?} lists collider {c:?}, which is not its own"));
            }
            if let Some(c) = b.contacts.iter().find(|&&c| !self.contacts.contains_key(c)) {
                return Err(format!("body {key:?} lists a missing contact {c:?}"));
            }
            if let Some(j) = b.joints.iter().find(|&&j| !self.joints.contains_key(j)) {
                return Err(format!("body {key:?} lists a missing joint {j:?}"));
            }
        }
        for (key, c) in &self.colliders {
            if !self.bodies.contains_key(c.body) || !self.broad_phase.contains(key) {
                return Err(format!("collider {key:?} has no body or no broad-phase proxy"));
            }
        }
        for (key, c) in &self.contacts {
            let colliders = [c.collider_a, c.collider_b].iter().all(|&k| self.colliders.contains_key(k));
            let bodies = [c.body_a, c.body_b].iter().all(|&k| self.bodies.contains_key(k));
            if !(colliders && bodies) {
                return Err(format!("contact {key:?} joins a missing collider or body"));
            }
        }
        for (key, j) in &self.joints {
            let known = |k: BodyKey| k.is_null() || self.bodies.contains_key(k);
            if !(known(j.desc.body_a) && known(j.desc.body_b)) {
                return Err(format!("joint {key:?} joins a missing body"));
            }
        }
        for (key, chain) in &self.chains {
            if !self.bodies.contains_key(chain.body)
                || !chain.colliders.iter().all(|&c| self.colliders.contains_key(c))
            {
                return Err(format!("chain {key:?} has a missing body or segment"));
            }
        }
        self.islands.check_members(&self.bodies)
    }
}

/// The payload of `bytes` after checking the header, the length and the checksum.
fn check_header(bytes: &[u8]) -> Result<&[u8], SnapshotError> {
    if bytes.len() < HEADER_LEN {
        if !bytes.is_empty() && !MAGIC.starts_with(&bytes[..bytes.len().min(8)]) {
            return Err(SnapshotError::NotASnapshot);
        }
        return Err(SnapshotError::Truncated { expected: HEADER_LEN as u64, found: bytes.len() as u64 });
    }
    if bytes[0..8] != MAGIC {
        return Err(SnapshotError::NotASnapshot);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("four bytes"));
    if version != FORMAT_VERSION {
        return Err(SnapshotError::UnsupportedVersion { found: version, supported: FORMAT_VERSION });
    }
    let real = std::mem::size_of::<Real>() as u8;
    if bytes[12] != real {
        return Err(SnapshotError::WrongPrecision { found_bytes: bytes[12], expected_bytes: real });
    }
    if bytes[13..16] != [0, 0, 0] {
        return Err(SnapshotError::Malformed("the header's reserved bytes are not zero".into()));
    }
    let length = u64::from_le_bytes(bytes[16..24].try_into().expect("eight bytes"));
    let found = (bytes.len() - HEADER_LEN) as u64;
    if found < length {
        return Err(SnapshotError::Truncated {
            expected: HEADER_LEN as u64 + length,
            found: bytes.len() as u64,
        });
    }
    if found > length {
        return Err(SnapshotError::TrailingBytes { extra: found - length });
    }
    let payload = &bytes[HEADER_LEN..];
    let stored = u64::from_le_bytes(bytes[24..32].try_into().expect("eight bytes"));
    let computed = checksum(payload);
    if stored != computed {
        return Err(SnapshotError::ChecksumMismatch { stored, computed });
    }
    Ok(payload)
}
