//! Snapshots: a world written to bytes and read back, stepping bit for bit as
//! the original would have (cargo feature `serde`).
//!
//! A snapshot is a 40-byte header and a payload:
//!
//! | bytes | what |
//! |---|---|
//! | 0–7 | the magic `LAMINA` followed by `\0\x1a` |
//! | 8–11 | the format's version, little-endian ([`FORMAT_VERSION`]) |
//! | 12 | the size of `Real` in bytes: 4, or 8 with the `f64` feature |
//! | 13–15 | zero |
//! | 16–23 | the payload's length in bytes, little-endian |
//! | 24–31 | the XXH64 checksum (seed 0) of everything after it (the tag below and the payload), little-endian (`checksum.rs`) |
//! | 32–35 | the world's tag, little-endian: the [`WorldTag`] the restored world stamps on its keys, so that it accepts the keys of the world the snapshot was taken from |
//! | 36–39 | zero |
//!
//! Two worlds built alike have different tags and so snapshots that differ in
//! the tag and the checksum over it alone (bytes 24–35); everything a step
//! depends on is the same bytes.
//!
//! The payload is four parts, each the length of a zstd frame (an LEB128
//! varint), the frame (`compression.rs`), the length of the byte planes that
//! look like noise, and those planes, stored as they are. A frame holds a
//! run of columns (`packing.rs`: each a length and its bytes; integers as
//! differences, reals in byte planes or, where every value is one, once).
//! The parts are written, compressed, decompressed and read side by side on
//! the current rayon pool; each depends only on the world, so the bytes are
//! the same on any number of threads. The buffers a snapshot is read through
//! (the decompressed parts, each column decoded) are kept by each thread for
//! its next snapshot (`scratch.rs`).
//!
//! - **A**: the small, irregular parts of the state, through serde in a
//!   columnar layout of their own (`rest.rs`, `columns.rs`: the settings, the joints
//!   and chains, the colliders' shapes where they change from one collider
//!   to the next, and the events not yet cleared); the layout of the
//!   bodies', colliders', joints' and chains' slot maps (`slots.rs`: every
//!   slot's version, and the order of the free slots, so that the map read
//!   back hands out the same keys as the original); the bodies and the
//!   colliders, each field of every record in a column of its own, written
//!   by code of their own without a call per value (`bodies.rs`,
//!   `colliders.rs`); the islands with their sleep state (`islands.rs`).
//! - **B** and **C**: the contact map's layout (in B), then the first and
//!   the second half of the contacts with their manifolds, each half's count
//!   first (`contacts.rs`): the contacts are most of a snapshot.
//! - **D**: both broad-phase structures, as the columns of numbers each gives
//!   of itself (`broad_phase.rs`).
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
mod column_reader;
mod column_writer;
mod columns;
mod compression;
mod contacts;
mod islands;
mod packing;
mod rest;
mod scratch;
mod slots;

use std::fmt;

use slotmap::Key;

use crate::pair_hash::ContactOfPair;
use crate::tagged_map::TaggedMap;

use lamina_broadphase::SweepAndPrune;
use lamina_geometry::{Isometry, Point, Real, Shape};

use crate::body::Body;
use crate::broad_phase::{BroadPhase, ProxyKey};
use crate::chain::Chain;
use crate::collider::Collider;
use crate::contact::Contact;
use crate::contact_set::ContactSet;
use crate::events::{ContactEvent, ContactHitEvent, Events, SensorEvent};
use crate::free_slots::FreeSlots;
use crate::joint::Joint;
use crate::{BodyDesc, BodyKey, ColliderDesc, ColliderKey, JointDesc, World, WorldSettings, WorldTag};
use bodies::BodiesIn;
use colliders::CollidersIn;
use contacts::ContactsIn;
use packing::{Packer, Unpacker};
use rest::{RestIn, RestOut};
use slots::Layout;

/// The first eight bytes of every snapshot.
const MAGIC: [u8; 8] = *b"LAMINA\0\x1a";

/// The version of the snapshot format this build writes and reads. It changes
/// whenever the payload's layout does; older snapshots are refused, not
/// misread.
pub const FORMAT_VERSION: u32 = 7;

/// Bytes of the header before the payload.
const HEADER_LEN: usize = 40;

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
    /// The checksum (of the tag and the payload) does not match: the bytes were damaged.
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

impl World {
    /// The world written to bytes: everything a step depends on, so that
    /// [`World::restore`] gives a world that steps bit for bit as this one.
    /// The format is described in this module's doc and `docs/snapshots.md`.
    pub fn snapshot(&self) -> Vec<u8> {
        // The parts are written and compressed side by side on the current
        // rayon pool; each part's bytes depend only on the world.
        let half = self.contacts.len() / 2;
        let ((a, b), (c, d)) = rayon::join(
            || rayon::join(|| self.write_part_a(), || self.write_contacts(0..half, true)),
            || rayon::join(|| self.write_contacts(half..self.contacts.len(), false), || self.write_part_d()),
        );
        let sections = [a, b, c, d];
        // The header's length and checksum are filled in once the payload
        // after it is whole, so that it is copied once.
        let size: usize = sections.iter().map(|(frame, noise)| 20 + frame.len() + noise.len()).sum();
        let mut bytes = Vec::with_capacity(HEADER_LEN + size);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&[std::mem::size_of::<Real>() as u8, 0, 0, 0]);
        bytes.resize(32, 0);
        bytes.extend_from_slice(&self.tag().to_bits().to_le_bytes());
        bytes.resize(HEADER_LEN, 0);
        for (frame, noise) in &sections {
            packing::write_varint(&mut bytes, frame.len() as u64);
            bytes.extend_from_slice(frame);
            packing::write_varint(&mut bytes, noise.len() as u64);
            bytes.extend_from_slice(noise);
        }
        // The checksum covers the tag as well as the payload.
        let (length, sum) =
            (((bytes.len() - HEADER_LEN) as u64).to_le_bytes(), checksum::xxh64(&bytes[32..]));
        let sum = sum.to_le_bytes();
        bytes[16..24].copy_from_slice(&length);
        bytes[24..32].copy_from_slice(&sum);
        bytes
    }

    /// Part A: the small, irregular parts, the layouts of the bodies',
    /// colliders', joints' and chains' maps, the bodies, the colliders and
    /// the islands, as its compressed columns and its noise planes.
    fn write_part_a(&self) -> (Vec<u8>, Vec<u8>) {
        let rest = RestOut {
            settings: &self.settings,
            joints: self.joints.values().collect(),
            chains: self.chains.values().collect(),
            shapes: colliders::new_shapes(&self.colliders),
            joint_changes_pending: self.joint_changes_pending,
            body_changes_pending: self.body_changes_pending,
            contact_events: &self.events.contacts,
            sensor_events: &self.events.sensors,
            hit_events: &self.events.hits,
        };
        // About what the pyramid of benches/compare takes per record, so that
        // the columns are seldom moved as they grow.
        let mut packer = Packer::with_capacity(4096 + 128 * (self.bodies.len() + self.colliders.len()));
        packer.bytes(&column_writer::to_bytes(&rest).expect("a world's state always encodes"));
        layout_of(self.bodies.raw(), &self.free_slots.bodies, filler_body).write(&mut packer);
        layout_of(self.colliders.raw(), &self.free_slots.colliders, filler_collider).write(&mut packer);
        layout_of(self.joints.raw(), &self.free_slots.joints, filler_joint).write(&mut packer);
        layout_of(self.chains.raw(), &self.free_slots.chains, filler_chain).write(&mut packer);
        bodies::write(&self.bodies, &mut packer);
        colliders::write(self, &mut packer);
        islands::write(&self.islands, &mut packer);
        compressed(packer)
    }

    /// Parts B and C: the contacts of `range`, in the contact map's order
    /// (the contacts are most of a snapshot, so they come in two halves),
    /// after the contact map's layout `with_layout` (in the first).
    fn write_contacts(&self, range: std::ops::Range<usize>, with_layout: bool) -> (Vec<u8>, Vec<u8>) {
        let mut packer = Packer::with_capacity(64 + 96 * range.len());
        if with_layout {
            layout_of(self.contacts.map(), self.contacts.free(), filler_contact).write(&mut packer);
        }
        contacts::write(self.contacts.map(), range, &mut packer);
        compressed(packer)
    }

    /// Part D: both broad-phase structures.
    fn write_part_d(&self) -> (Vec<u8>, Vec<u8>) {
        let mut packer = Packer::with_capacity(4096 + 64 * self.colliders.len());
        broad_phase::write(self.broad_phase.all(), &mut packer);
        broad_phase::write(self.broad_phase.immovable(), &mut packer);
        compressed(packer)
    }

    /// The world a snapshot holds, or why the bytes are not one.
    pub fn restore(bytes: &[u8]) -> Result<World, SnapshotError> {
        use SnapshotError::{Inconsistent, Malformed};
        let (tag, payload) = check_header(bytes)?;
        let [a, b, c, d] = split_payload(payload).map_err(Malformed)?;
        // The parts are decompressed, decoded and built into their maps side
        // by side; only then is the world put together and checked as a
        // whole.
        let ((a, d), contacts) = rayon::join(
            || rayon::join(|| PartA::read(a, tag), || PartD::read(d, tag)),
            || RestoredContacts::read(b, c, tag),
        );
        let (a, d, contacts) = (a?, d?, contacts?);
        let PartA {
            rest,
            layouts,
            maps: (bodies, colliders, joints, chains),
            colliders: collider_columns,
            islands,
        } = a;
        let mut world = World::try_new(rest.settings)
            .map_err(|e| Inconsistent(format!("the settings are out of range: {e}")))?;
        world.bodies = TaggedMap::from_map(bodies, tag);
        world.body_keys = crate::slot_keys::SlotKeys::of_keys(world.bodies.keys());
        world.colliders = TaggedMap::from_map(colliders, tag);
        world.joints = TaggedMap::from_map(joints, tag);
        world.chains = TaggedMap::from_map(chains, tag);
        world.contacts = ContactSet::from_parts(contacts.map, contacts.layout.free_list(), contacts.by_pair);
        let [body_layout, collider_layout, joint_layout, chain_layout] = &layouts;
        world.free_slots = FreeSlots {
            bodies: body_layout.free_list(),
            colliders: collider_layout.free_list(),
            joints: joint_layout.free_list(),
            chains: chain_layout.free_list(),
        };
        world.broad_phase = BroadPhase::from_parts(d.broad_phase, d.immovable_index);
        world.islands = islands;
        world.joint_changes_pending = rest.joint_changes_pending;
        world.body_changes_pending = rest.body_changes_pending;
        world.events =
            Events { contacts: rest.contact_events, sensors: rest.sensor_events, hits: rest.hit_events };
        world.check_restored().map_err(Inconsistent)?;
        world.recount_collider_sums();
        world.list_contacts_in_bodies().map_err(Inconsistent)?;
        colliders::restore_bounds(&mut world, &collider_columns).map_err(Inconsistent)?;
        Ok(world)
    }

    /// Notes where each contact stands in its bodies' lists, checking that
    /// each is listed exactly once by each of its two bodies and by no other.
    fn list_contacts_in_bodies(&mut self) -> Result<(), String> {
        for (key, b) in self.bodies.iter() {
            for (at, &ck) in b.contacts.iter().enumerate() {
                let c = &mut self.contacts[ck]; // present: `check_restored` saw to it
                let side = match (c.body_a() == key, c.body_b() == key) {
                    (true, false) => 0,
                    (false, true) => 1,
                    _ => {
                        return Err(format!(
                            "body {key:?} lists contact {ck:?}, which is not between it and another"
                        ));
                    }
                };
                if c.listed_at[side] != crate::contact::UNLISTED {
                    return Err(format!("body {key:?} lists contact {ck:?} twice"));
                }
                c.listed_at[side] = at as u32;
            }
        }
        match self.contacts.map().iter().find(|(_, c)| c.listed_at.contains(&crate::contact::UNLISTED)) {
            Some((key, _)) => Err(format!("contact {key:?} is missing from a body's list")),
            None => Ok(()),
        }
    }

    /// That every key of the restored state points at something, and every
    /// pose and velocity is finite.
    fn check_restored(&self) -> Result<(), String> {
        for (key, b) in self.bodies.iter() {
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
            if let Some(c) = b.contacts.iter().find(|&&c| !self.contacts.map().contains_key(c)) {
                return Err(format!("body {key:?} lists a missing contact {c:?}"));
            }
            if let Some(j) = b.joints.iter().find(|&&j| !self.joints.contains_key(j)) {
                return Err(format!("body {key:?} lists a missing joint {j:?}"));
            }
        }
        for (key, c) in self.colliders.iter() {
            if !self.bodies.contains_key(c.body) || !self.broad_phase.all().contains(ProxyKey::of(key)) {
                return Err(format!("collider {key:?} has no body or no broad-phase proxy"));
            }
        }
        for (key, c) in self.contacts.map() {
            let colliders = [c.collider_a(), c.collider_b()].iter().all(|&k| self.colliders.contains_key(k));
            let bodies = [c.body_a(), c.body_b()].iter().all(|&k| self.bodies.contains_key(k));
            if !(colliders && bodies) {
                return Err(format!("contact {key:?} joins a missing collider or body"));
            }
        }
        for (key, j) in self.joints.iter() {
            let known = |k: BodyKey| k.is_null() || self.bodies.contains_key(k);
            if !(known(j.desc.body_a) && known(j.desc.body_b)) {
                return Err(format!("joint {key:?} joins a missing body"));
            }
        }
        for (key, chain) in self.chains.iter() {
            if !self.bodies.contains_key(chain.body)
                || !chain.colliders.iter().all(|&c| self.colliders.contains_key(c))
            {
                return Err(format!("chain {key:?} has a missing body or segment"));
            }
        }
        self.islands.check_members(&self.bodies)
    }
}

/// A part's columns compressed, and its noise planes as they are.
fn compressed(packer: Packer) -> (Vec<u8>, Vec<u8>) {
    let (columns, noise) = packer.into_parts();
    (compression::compress(&columns), noise)
}

/// The parts of a snapshot's payload.
const PARTS: usize = 4;

/// A part of a snapshot's payload: its compressed columns and its noise planes.
type Part<'a> = (&'a [u8], &'a [u8]);

/// The compressed columns and the noise planes of each part of `payload`
/// (each the length of the frame as a varint, the frame, the length of the
/// noise, the noise), which must end with the last part.
fn split_payload(mut payload: &[u8]) -> Result<[Part<'_>; PARTS], String> {
    let mut take = |what: &str| -> Result<&[u8], String> {
        let len = packing::read_varint(&mut payload)?;
        let len = usize::try_from(len).ok().filter(|&len| len <= payload.len());
        let (taken, after) = payload.split_at(len.ok_or_else(|| format!("{what} longer than the payload"))?);
        payload = after;
        Ok(taken)
    };
    let mut part = || -> Result<Part<'_>, String> {
        Ok((take("the compressed columns are")?, take("the noise planes are")?))
    };
    let parts = [part()?, part()?, part()?, part()?];
    if !payload.is_empty() {
        return Err(format!("{} bytes after the last part", payload.len()));
    }
    Ok(parts)
}

/// Part A of a snapshot read back: the small parts, the bodies',
/// colliders', joints' and chains' layouts and maps, the colliders' columns
/// (which still hold their bounds' residuals), and the islands.
struct PartA {
    rest: RestLeft,
    layouts: [Layout; 4],
    maps: Maps,
    colliders: CollidersIn,
    islands: crate::island::Islands,
}

/// What is left of [`RestIn`] once its joints, chains and shapes are taken.
struct RestLeft {
    settings: WorldSettings,
    joint_changes_pending: bool,
    body_changes_pending: bool,
    contact_events: Vec<ContactEvent>,
    sensor_events: Vec<SensorEvent>,
    hit_events: Vec<ContactHitEvent>,
}

/// The bodies', colliders', joints' and chains' maps.
type Maps = (
    slotmap::SlotMap<BodyKey, Body>,
    slotmap::SlotMap<ColliderKey, Collider>,
    slotmap::SlotMap<crate::JointKey, Joint>,
    slotmap::SlotMap<crate::ChainKey, Chain>,
);

impl PartA {
    fn read(part: Part<'_>, tag: WorldTag) -> Result<Self, SnapshotError> {
        use SnapshotError::Malformed;
        let (rest, layouts, bodies, colliders, islands) = decode_part(part, |unpacker| {
            let mut rest: RestIn = column_reader::from_bytes(unpacker.bytes().map_err(Malformed)?)
                .map_err(|e| Malformed(e.to_string()))?;
            rest.stamp_keys(tag);
            let mut layout = || Layout::read(unpacker).map_err(Malformed);
            let layouts = [layout()?, layout()?, layout()?, layout()?];
            let bodies = BodiesIn::read(unpacker, layouts[0].len(), tag).map_err(Malformed)?;
            let colliders = CollidersIn::read(unpacker, layouts[1].len(), std::mem::take(&mut rest.shapes))
                .map_err(Malformed)?;
            let islands = islands::read(unpacker, tag).map_err(Malformed)?;
            Ok((rest, layouts, bodies, colliders, islands))
        })?;
        let [body_layout, collider_layout, joint_layout, chain_layout] = &layouts;
        let maps = (
            body_layout.rebuild(filler_body, |i| Ok(bodies.body(i)))?,
            collider_layout.rebuild(filler_collider, |i| Ok(colliders.collider(i, tag)))?,
            joint_layout.rebuild(filler_joint, each(rest.joints, joint_layout, "joints")?)?,
            chain_layout.rebuild(filler_chain, each(rest.chains, chain_layout, "chains")?)?,
        );
        Ok(PartA {
            rest: RestLeft {
                settings: rest.settings,
                joint_changes_pending: rest.joint_changes_pending,
                body_changes_pending: rest.body_changes_pending,
                contact_events: rest.contact_events,
                sensor_events: rest.sensor_events,
                hit_events: rest.hit_events,
            },
            layouts,
            maps,
            colliders,
            islands,
        })
    }
}

/// Parts B and C of a snapshot read back: the contact map rebuilt from its
/// layout and both halves of its contacts, with the lookup of contacts by
/// collider pair.
struct RestoredContacts {
    layout: Layout,
    map: slotmap::SlotMap<crate::ContactKey, Contact>,
    by_pair: ContactOfPair,
}

impl RestoredContacts {
    fn read(first: Part<'_>, second: Part<'_>, tag: WorldTag) -> Result<Self, SnapshotError> {
        let layout = |unpacker: &mut Unpacker<'_>| Layout::read(unpacker).map_err(SnapshotError::Malformed);
        let (first, second) =
            rayon::join(|| read_contacts(first, layout), || read_contacts(second, |_| Ok(())));
        let ((layout, first), ((), second)) = (first?, second?);
        let split = first.len();
        if split + second.len() != layout.len() {
            return Err(SnapshotError::Inconsistent("the contacts do not fill their map".into()));
        }
        let contact =
            |i: usize| if i < split { first.contact(i, tag) } else { second.contact(i - split, tag) };
        let map = layout.rebuild(filler_contact, |i| Ok(contact(i)))?;
        let by_pair = map.iter().map(|(k, c)| ((c.collider_a, c.collider_b), k)).collect();
        Ok(RestoredContacts { layout, map, by_pair })
    }
}

/// A part of a snapshot's contacts decoded, after what `before` reads (the
/// contact map's layout, in the first part).
fn read_contacts<T>(
    part: Part<'_>,
    before: impl FnOnce(&mut Unpacker<'_>) -> Result<T, SnapshotError>,
) -> Result<(T, ContactsIn), SnapshotError> {
    decode_part(part, |unpacker| {
        let first = before(unpacker)?;
        // Contacts join distinct pairs of colliders, so one of the columns of
        // their colliders' keys changes from contact to contact and takes a
        // byte or more for each: a part holds no more contacts than bytes.
        let most = unpacker.columns_left();
        let contacts = ContactsIn::read(unpacker, most).map_err(SnapshotError::Malformed)?;
        Ok((first, contacts))
    })
}

/// What `read` makes of the columns of `part`, decompressed, refused unless
/// it reads them to their end.
fn decode_part<T>(
    (frame, noise): Part<'_>,
    read: impl FnOnce(&mut Unpacker<'_>) -> Result<T, SnapshotError>,
) -> Result<T, SnapshotError> {
    use SnapshotError::Malformed;
    let columns = compression::decompress(frame).map_err(Malformed)?;
    let mut unpacker = Unpacker::new(&columns, noise);
    let value = read(&mut unpacker)?;
    unpacker.finish().map_err(Malformed)?;
    Ok(value)
}

/// Part D of a snapshot read back: both broad-phase structures, built and
/// checked whole.
struct PartD {
    broad_phase: SweepAndPrune<ProxyKey>,
    immovable_index: SweepAndPrune<ProxyKey>,
}

impl PartD {
    fn read(part: Part<'_>, tag: WorldTag) -> Result<Self, SnapshotError> {
        use SnapshotError::{Inconsistent, Malformed};
        let (broad_phase, immovable_index) = decode_part(part, |unpacker| {
            let broad_phase = broad_phase::read(unpacker, tag).map_err(Malformed)?;
            Ok((broad_phase, broad_phase::read(unpacker, tag).map_err(Malformed)?))
        })?;
        Ok(PartD {
            broad_phase: SweepAndPrune::from_columns(broad_phase).map_err(Inconsistent)?,
            immovable_index: SweepAndPrune::from_columns(immovable_index).map_err(Inconsistent)?,
        })
    }
}

/// The world's tag and the payload of `bytes`, after checking the header,
/// the length and the checksum.
fn check_header(bytes: &[u8]) -> Result<(WorldTag, &[u8]), SnapshotError> {
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
    if bytes[13..16] != [0, 0, 0] || bytes[36..40] != [0, 0, 0, 0] {
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
    let computed = checksum::xxh64(&bytes[32..]);
    if stored != computed {
        return Err(SnapshotError::ChecksumMismatch { stored, computed });
    }
    let tag = WorldTag::from_bits(u32::from_le_bytes(bytes[32..36].try_into().expect("four bytes")));
    if tag == WorldTag::NONE {
        // No world has it: a world restored with it would accept keys rebuilt from raw data.
        return Err(SnapshotError::Malformed("the world's tag is zero".into()));
    }
    Ok((tag, payload))
}

#[cfg(test)]
mod tests {
    use crate::contact::UNLISTED;
    use crate::{BodyDesc, BodyKey, ColliderDesc, World, WorldSettings};
    use lamina_geometry::Shape;

    /// A row of boxes resting on a ground and on each other: every contact
    /// listed by two bodies, the ground listing many.
    fn resting_row() -> World {
        let mut world = World::new(WorldSettings::default());
        let ground = world.add_body(BodyDesc::fixed());
        world.add_collider(ground, ColliderDesc::new(Shape::rectangle(20.0, 0.5))).unwrap();
        for i in 0..12 {
            let body =
                world.add_body(BodyDesc::dynamic().translation(-6.0 + i as lamina_geometry::Real, 1.0));
            world.add_collider(body, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
        }
        for _ in 0..30 {
            world.step(1.0 / 60.0).unwrap();
        }
        world
    }

    /// The body that lists the most contacts (the ground).
    fn busiest(world: &World) -> BodyKey {
        world.bodies.iter().max_by_key(|(_, b)| b.contacts.len()).map(|(k, _)| k).unwrap()
    }

    /// The positions a restore rebuilds are the ones the stepping world kept
    /// (creation and destruction move them as contacts come and go), and
    /// lists that do not name each contact once per body are refused: a
    /// contact listed twice, one left out, one listed by a body it does not
    /// join.
    #[test]
    fn contact_positions_are_rebuilt_and_bad_lists_refused() {
        let world = resting_row();
        assert!(world.contacts.len() > 20);
        let forget =
            |w: &mut World| w.contacts.map_mut().values_mut().for_each(|c| c.listed_at = [UNLISTED; 2]);
        let mut rebuilt = world.clone();
        forget(&mut rebuilt);
        rebuilt.list_contacts_in_bodies().unwrap();
        for (key, c) in world.contacts.map() {
            assert_eq!(rebuilt.contacts[key].listed_at, c.listed_at, "contact {key:?}");
            for (body, at) in [c.body_a(), c.body_b()].into_iter().zip(c.listed_at) {
                assert_eq!(world.bodies[body].contacts[at as usize], key);
            }
        }

        let ground = busiest(&world);
        let mut twice = world.clone();
        let listed = twice.bodies[ground].contacts[0];
        twice.bodies[ground].contacts.push(listed);
        let mut missing = world.clone();
        missing.bodies[ground].contacts.pop();
        let mut stranger = world.clone();
        let other = stranger.bodies.keys().find(|&k| !stranger.bodies[k].contacts.contains(&listed)).unwrap();
        stranger.bodies[other].contacts.push(listed);
        for (what, mut bad) in [("twice", twice), ("missing", missing), ("stranger", stranger)] {
            forget(&mut bad);
            assert!(bad.list_contacts_in_bodies().is_err(), "a contact listed {what} was accepted");
        }
    }
    /// A contact's record of shapes found apart comes back with it, and one
    /// that no step could have made is refused: on a contact with points, or
    /// with a gap that is no distance (infinite, not a number, not above 0).
    #[test]
    fn apart_records_come_back_and_impossible_ones_are_refused() {
        let world = resting_row();
        let key = world.contacts.map().keys().next().unwrap();
        assert!(!world.contacts[key].points.is_empty());
        let with = |points: bool, gap: lamina_geometry::Real| {
            let mut w = world.clone();
            let c = &mut w.contacts[key];
            if !points {
                c.points.clear();
                c.touching = false;
                c.normal = lamina_geometry::Vec2::zeros();
            }
            c.apart = true;
            c.computed_in.separations = [gap, 0.0];
            World::restore(&w.snapshot())
        };
        let restored = with(false, 0.05).expect("a record of shapes found apart");
        assert!(restored.contacts[key].apart);
        assert_eq!(restored.contacts[key].computed_in.separations[0], 0.05);
        assert!(with(true, 0.05).is_err(), "a record on a contact with points was accepted");
        for gap in [lamina_geometry::Real::INFINITY, lamina_geometry::Real::NAN, 0.0, -1.0] {
            assert!(with(false, gap).is_err(), "a gap of {gap} was accepted");
        }
    }
}
