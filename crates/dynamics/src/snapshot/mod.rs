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
//! | 24–31 | the payload's XXH64 checksum (seed 0), little-endian (`checksum.rs`) |
//!
//! The payload is the length of a zstd frame (an LEB128 varint), the frame
//! (`compression.rs`), and the byte planes that look like noise, stored as
//! they are. The frame holds a run of columns (`packing.rs`: each a length and
//! its bytes; integers as differences, reals in byte planes or, where every
//! value is one, once), in this order:
//!
//! 1. the small, irregular parts of the state, through serde in a columnar
//!    layout of their own (`columns.rs`): the settings, the joints and
//!    chains, the colliders' shapes where they change from one collider to
//!    the next, and the events not yet cleared;
//! 2. the layout of each slot map (`slots.rs`: every slot's version, and the
//!    order of the free slots, so that the map read back hands out the same
//!    keys as the original): bodies, colliders, joints, chains, contacts;
//! 3. the bodies, the colliders and the contacts with their manifolds, each
//!    field of every record in a column of its own, written by code of their
//!    own without a call per value (`bodies.rs`, `colliders.rs`,
//!    `contacts.rs`);
//! 4. both broad-phase structures, as the columns of numbers each gives of
//!    itself (`broad_phase.rs`), and the islands with their sleep state
//!    (`islands.rs`).
//!
//! What can be rebuilt is not written: the scratch buffers a step refills,
//! the colliders' copies of their broad-phase boxes, and what the broad phase
//! derives itself. Bodies' centres of mass and colliders' bounds, which can
//! almost always be rebuilt, are written as the bits that differ from the
//! rebuilt values, and contacts' bodies as the differences of their keys from
//! their colliders'.
//!
//! Reading checks the header, the length and the checksum before decoding,
//! then that every key the state holds points at something, and that every
//! pose and velocity is finite: damaged or foreign bytes give a
//! [`SnapshotError`], never a panic or a world with NaN in it.

mod bodies;
mod broad_phase;
mod checksum;
mod colliders;
mod columns;
mod compression;
mod contacts;
mod islands;
mod packing;
mod slots;

use std::fmt;

use serde::{Deserialize, Serialize};
use slotmap::Key;

use lamina_broadphase::SweepAndPrune;
use lamina_geometry::{Aabb, Isometry, Point, Real, Shape};

use crate::body::Body;
use crate::chain::Chain;
use crate::collider::Collider;
use crate::contact::{Contact, ContactEvent, ContactHitEvent, SensorEvent};
use crate::free_slots::FreeSlots;
use crate::joint::Joint;
use crate::{BodyDesc, BodyKey, ColliderDesc, ColliderKey, JointDesc, World, WorldSettings};
use bodies::BodiesIn;
use colliders::CollidersIn;
use contacts::ContactsIn;
use packing::{Packer, Unpacker};
use slots::Layout;

/// The first eight bytes of every snapshot.
const MAGIC: [u8; 8] = *b"LAMINA\0\x1a";

/// The version of the snapshot format this build writes and reads. It changes
/// whenever the payload's layout does; older snapshots are refused, not
/// misread.
pub const FORMAT_VERSION: u32 = 3;

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

/// The small, irregular parts of the world's state, borrowed for writing
/// through serde.
#[derive(Serialize)]
struct RestOut<'a> {
    settings: &'a WorldSettings,
    joints: Vec<&'a Joint>,
    chains: Vec<&'a Chain>,
    shapes: Vec<&'a Shape>,
    joint_changes_pending: bool,
    body_changes_pending: bool,
    contact_events: &'a [ContactEvent],
    sensor_events: &'a [SensorEvent],
    hit_events: &'a [ContactHitEvent],
}

/// [`RestOut`] read back, field for field.
#[derive(Deserialize)]
struct RestIn {
    settings: WorldSettings,
    joints: Vec<Joint>,
    chains: Vec<Chain>,
    shapes: Vec<Shape>,
    joint_changes_pending: bool,
    body_changes_pending: bool,
    contact_events: Vec<ContactEvent>,
    sensor_events: Vec<SensorEvent>,
    hit_events: Vec<ContactHitEvent>,
}

/// The layout of `map`, whose free slots `free` lists; checked against a
/// probe of the map where debug assertions are on.
fn layout_of<K: slotmap::Key, V: Clone>(
    map: &slotmap::SlotMap<K, V>,
    free: &crate::free_slots::FreeList,
    filler: impl Fn() -> V,
) -> Layout {
    let layout = Layout::of(map, free);
    debug_assert_eq!(layout, Layout::probed(map, filler), "the free list does not match its map");
    layout
}

/// Hands out `values` by index, each once, for [`Layout::rebuild`] of
/// `layout`; refused unless they are as many as its occupied slots.
fn each<V>(
    values: Vec<V>,
    layout: &Layout,
    what: &'static str,
) -> Result<impl FnMut(usize) -> Result<V, SnapshotError>, SnapshotError> {
    let unfit = move || SnapshotError::Inconsistent(format!("the {what} do not fill their map"));
    if values.len() != layout.len() {
        return Err(unfit());
    }
    let mut values: Vec<Option<V>> = values.into_iter().map(Some).collect();
    Ok(move |i: usize| values.get_mut(i).and_then(Option::take).ok_or_else(unfit))
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

impl World {
    /// The world written to bytes: everything a step depends on, so that
    /// [`World::restore`] gives a world that steps bit for bit as this one.
    /// The format is described in `snapshot.rs` and `docs/snapshots.md`.
    pub fn snapshot(&self) -> Vec<u8> {
        let rest = RestOut {
            settings: &self.settings,
            joints: self.joints.values().collect(),
            chains: self.chains.values().collect(),
            shapes: colliders::new_shapes(&self.colliders),
            joint_changes_pending: self.joint_changes_pending,
            body_changes_pending: self.body_changes_pending,
            contact_events: &self.contact_events,
            sensor_events: &self.sensor_events,
            hit_events: &self.hit_events,
        };
        // About what the pyramid of benches/compare takes per record, so that
        // the payload is seldom moved as it grows.
        let records = self.bodies.len() + self.colliders.len() + self.contacts.len();
        let mut packer = Packer::with_capacity(4096 + 128 * records);
        packer.bytes(&columns::to_bytes(&rest).expect("a world's state always encodes"));
        layout_of(&self.bodies, &self.free_slots.bodies, filler_body).write(&mut packer);
        layout_of(&self.colliders, &self.free_slots.colliders, filler_collider).write(&mut packer);
        layout_of(&self.joints, &self.free_slots.joints, filler_joint).write(&mut packer);
        layout_of(&self.chains, &self.free_slots.chains, filler_chain).write(&mut packer);
        layout_of(&self.contacts, &self.free_slots.contacts, filler_contact).write(&mut packer);
        bodies::write(&self.bodies, &mut packer);
        colliders::write(self, &mut packer);
        contacts::write(&self.contacts, &mut packer);
        broad_phase::write(&self.broad_phase, &mut packer);
        broad_phase::write(&self.immovable_index, &mut packer);
        islands::write(&self.islands, &mut packer);
        let (columns, noise) = packer.into_parts();
        let frame = compression::compress(&columns);
        // The header's length and checksum are filled in once the payload
        // after it is whole, so that it is copied once.
        let mut bytes = Vec::with_capacity(HEADER_LEN + 10 + frame.len() + noise.len());
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&[std::mem::size_of::<Real>() as u8, 0, 0, 0]);
        bytes.resize(HEADER_LEN, 0);
        packing::write_varint(&mut bytes, frame.len() as u64);
        bytes.extend_from_slice(&frame);
        bytes.extend_from_slice(&noise);
        let payload = &bytes[HEADER_LEN..];
        let (length, sum) = ((payload.len() as u64).to_le_bytes(), checksum::xxh64(payload).to_le_bytes());
        bytes[16..24].copy_from_slice(&length);
        bytes[24..32].copy_from_slice(&sum);
        bytes
    }

    /// The world a snapshot holds, or why the bytes are not one.
    pub fn restore(bytes: &[u8]) -> Result<World, SnapshotError> {
        let payload = check_header(bytes)?;
        let (frame, noise) = split_payload(payload).map_err(SnapshotError::Malformed)?;
        let columns = compression::decompress(frame).map_err(SnapshotError::Malformed)?;
        World::read_state(&mut Unpacker::new(&columns, noise))
    }

    /// The world whose state `unpacker` holds.
    fn read_state(unpacker: &mut Unpacker<'_>) -> Result<World, SnapshotError> {
        use SnapshotError::{Inconsistent, Malformed};
        let rest: RestIn = columns::from_bytes(unpacker.bytes().map_err(Malformed)?)
            .map_err(|e| Malformed(e.to_string()))?;
        let mut layout = || Layout::read(unpacker).map_err(Malformed);
        let (body_layout, collider_layout, joint_layout) = (layout()?, layout()?, layout()?);
        let (chain_layout, contact_layout) = (layout()?, layout()?);
        let bodies = BodiesIn::read(unpacker, body_layout.len()).map_err(Malformed)?;
        let colliders = CollidersIn::read(unpacker, collider_layout.len(), rest.shapes).map_err(Malformed)?;
        let contacts = ContactsIn::read(unpacker, contact_layout.len()).map_err(Malformed)?;
        let broad_phase = broad_phase::read(unpacker).map_err(Malformed)?;
        let immovable_index = broad_phase::read(unpacker).map_err(Malformed)?;
        let islands = islands::read(unpacker).map_err(Malformed)?;
        unpacker.finish().map_err(Malformed)?;
        let mut world = World::try_new(rest.settings)
            .map_err(|e| Inconsistent(format!("the settings are out of range: {e}")))?;
        world.bodies = body_layout.rebuild(filler_body, |i| Ok(bodies.body(i)))?;
        world.colliders = collider_layout.rebuild(filler_collider, |i| Ok(colliders.collider(i)))?;
        world.joints = joint_layout.rebuild(filler_joint, each(rest.joints, &joint_layout, "joints")?)?;
        world.chains = chain_layout.rebuild(filler_chain, each(rest.chains, &chain_layout, "chains")?)?;
        world.contacts = contact_layout.rebuild(filler_contact, |i| Ok(contacts.contact(i)))?;
        world.free_slots = FreeSlots {
            bodies: body_layout.free_list(),
            colliders: collider_layout.free_list(),
            joints: joint_layout.free_list(),
            chains: chain_layout.free_list(),
            contacts: contact_layout.free_list(),
        };
        world.broad_phase = SweepAndPrune::from_columns(broad_phase).map_err(Inconsistent)?;
        world.immovable_index = SweepAndPrune::from_columns(immovable_index).map_err(Inconsistent)?;
        world.islands = islands;
        world.joint_changes_pending = rest.joint_changes_pending;
        world.body_changes_pending = rest.body_changes_pending;
        world.contact_events = rest.contact_events;
        world.sensor_events = rest.sensor_events;
        world.hit_events = rest.hit_events;
        world.contact_of_pair =
            world.contacts.iter().map(|(k, c)| ((c.collider_a, c.collider_b), k)).collect();
        world.check_restored().map_err(Inconsistent)?;
        colliders::restore_bounds(&mut world, &colliders).map_err(Inconsistent)?;
        Ok(world)
    }

    /// That every key of the restored state points at something, and every
    /// pose and velocity is finite.
    fn check_restored(&self) -> Result<(), String> {
        for (key, b) in &self.bodies {
            let t = b.pose.translation.vector;
            let (v, c) = (b.linear_velocity, b.center);
            let numbers =
                [t.x, t.y, b.pose.rotation.re, b.pose.rotation.im, v.x, v.y, b.angular_velocity, c.x, c.y];
            if !numbers.iter().all(|v| v.is_finite()) {
                return Err(format!("body {key:?} has a non-finite pose, velocity or centre of mass"));
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

/// The zstd frame of `payload` and the planes stored after it as they are.
fn split_payload(mut payload: &[u8]) -> Result<(&[u8], &[u8]), String> {
    let len = packing::read_varint(&mut payload)?;
    let len = usize::try_from(len).ok().filter(|&len| len <= payload.len());
    Ok(payload.split_at(len.ok_or("the compressed columns are longer than the payload")?))
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
    let computed = checksum::xxh64(payload);
    if stored != computed {
        return Err(SnapshotError::ChecksumMismatch { stored, computed });
    }
    Ok(payload)
}
