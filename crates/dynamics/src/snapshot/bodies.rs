//! Bodies written in bulk: every field of every body, a column per field, in
//! the order of the body map.
//!
//! A body's centre of mass is written as the bits that differ (XOR) from its
//! pose applied to its local centre: zero, which costs next to nothing once
//! compressed, wherever that rebuilds it exactly, and the difference where
//! the solver rounded it its own way (a centre off the body's origin).
//!
//! Writing takes every field by name and reading builds every body whole, so
//! that a field added to [`Body`] does not compile until it is written here.

use lamina_geometry::{Isometry, MassProperties, Point, Real, Rotation, Vec2};
use smallvec::SmallVec;

use super::packing::{IntRows, KeyList, Packer, ReadKey, RealRows, Unpacker, read_keys};
use crate::WorldTag;
use crate::body::Body;
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, BodyKind, ColliderKey, ContactKey, JointKey};

/// Reals per body: pose (4), centre-of-mass residual (2), local centre (2),
/// velocities (3), masses and inertias (4), damping (2), gravity scale,
/// force (2), torque, extents (2), sleep time.
const REALS: usize = 24;

/// Integers per body: kind, flags, user data, solver index, island, and the
/// lengths of its lists of colliders, contacts and joints.
const INTS: usize = 8;

/// The flags of a body, a bit each.
const FIXED_ROTATION: u64 = 1;
const CAN_SLEEP: u64 = 2;
const BULLET: u64 = 4;
const AWAKE: u64 = 8;
const WAKE_REQUESTED: u64 = 16;
const BOUNDS_STALE: u64 = 32;

/// The bits of `actual` that differ from `predicted`, as a real.
pub(crate) fn residual(actual: Real, predicted: Real) -> Real {
    Real::from_bits(actual.to_bits() ^ predicted.to_bits())
}

/// The real that [`residual`] was given, from its prediction.
pub(crate) fn unflip(predicted: Real, residual: Real) -> Real {
    Real::from_bits(predicted.to_bits() ^ residual.to_bits())
}

fn kind_code(kind: BodyKind) -> u64 {
    match kind {
        BodyKind::Dynamic => 0,
        BodyKind::Fixed => 1,
        BodyKind::Kinematic => 2,
    }
}

fn kind_of(code: u64) -> Result<BodyKind, String> {
    match code {
        0 => Ok(BodyKind::Dynamic),
        1 => Ok(BodyKind::Fixed),
        2 => Ok(BodyKind::Kinematic),
        _ => Err(format!("a body of kind {code}")),
    }
}

/// Writes every body of `bodies`.
pub(crate) fn write(bodies: &TaggedMap<BodyKey, Body>, packer: &mut Packer) {
    let mut reals = RealRows::<REALS>::with_capacity(bodies.len());
    let mut ints = IntRows::<INTS>::with_capacity(bodies.len());
    let (mut colliders, mut contacts, mut joints) =
        (KeyList::default(), KeyList::default(), KeyList::default());
    for body in bodies.values() {
        let (r, i) = row(body);
        reals.push(r);
        ints.push(i);
        colliders.extend(&body.colliders);
        contacts.extend(&body.contacts);
        joints.extend(&body.joints);
    }
    reals.write(packer);
    ints.write(packer);
    for list in [colliders, contacts, joints] {
        list.write(packer);
    }
}

/// A body's reals and integers.
fn row(body: &Body) -> ([Real; REALS], [u64; INTS]) {
    let Body {
        kind,
        pose,
        center,
        local_center,
        linear_velocity,
        angular_velocity,
        mass,
        inv_mass,
        inertia,
        inv_inertia,
        linear_damping,
        angular_damping,
        gravity_scale,
        fixed_rotation,
        can_sleep,
        user_data,
        force,
        torque,
        colliders,
        contacts,
        joints,
        extent,
        min_extent,
        // Not written: counted again from the colliders on reading.
        collider_mass: _,
        collider_reach: _,
        bullet,
        awake,
        sleep_time,
        wake_requested,
        bounds_stale,
        solver_index,
        island,
    } = body;
    let t = pose.translation.vector;
    let predicted = pose * local_center;
    let reals = [
        t.x,
        t.y,
        pose.rotation.re,
        pose.rotation.im,
        residual(center.x, predicted.x),
        residual(center.y, predicted.y),
        local_center.x,
        local_center.y,
        linear_velocity.x,
        linear_velocity.y,
        *angular_velocity,
        *mass,
        *inv_mass,
        *inertia,
        *inv_inertia,
        *linear_damping,
        *angular_damping,
        *gravity_scale,
        force.x,
        force.y,
        *torque,
        *extent,
        *min_extent,
        *sleep_time,
    ];
    let flag = |set: bool, bit: u64| if set { bit } else { 0 };
    let flags = flag(*fixed_rotation, FIXED_ROTATION)
        | flag(*can_sleep, CAN_SLEEP)
        | flag(*bullet, BULLET)
        | flag(*awake, AWAKE)
        | flag(*wake_requested, WAKE_REQUESTED)
        | flag(*bounds_stale, BOUNDS_STALE);
    let ints = [
        kind_code(*kind),
        flags,
        *user_data,
        u64::from(*solver_index),
        u64::from(*island),
        colliders.len() as u64,
        contacts.len() as u64,
        joints.len() as u64,
    ];
    (reals, ints)
}

/// The bodies read back, built one at a time by [`BodiesIn::body`].
pub(crate) struct BodiesIn {
    kinds: Vec<BodyKind>,
    reals: RealRows<REALS>,
    ints: IntRows<INTS>,
    colliders: Lists<ColliderKey>,
    contacts: Lists<ContactKey>,
    joints: Lists<JointKey>,
}

/// Every body's list of keys of one kind, end to end.
struct Lists<K> {
    keys: Vec<K>,
    /// Body `i`'s keys are `keys[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
}

impl<K: ReadKey> Lists<K> {
    /// Reads the keys, and splits them by the lengths in column `column` of `ints`.
    fn read(
        unpacker: &mut Unpacker<'_>,
        ints: &IntRows<INTS>,
        column: usize,
        count: usize,
        world: WorldTag,
    ) -> Result<Self, String> {
        let keys: Vec<K> = read_keys(unpacker, world)?;
        let mut starts = Vec::with_capacity(count + 1);
        let mut end = 0usize;
        starts.push(end);
        for i in 0..count {
            let len = usize::try_from(ints.row(i)[column]).unwrap_or(usize::MAX);
            end = end
                .checked_add(len)
                .filter(|&e| e <= keys.len())
                .ok_or("a body lists more keys than written")?;
            starts.push(end);
        }
        if end != keys.len() {
            return Err("keys left over after the last body".into());
        }
        Ok(Lists { keys, starts })
    }

    /// Body `i`'s keys.
    fn of<C: FromIterator<K>>(&self, i: usize) -> C {
        self.keys[self.starts[i]..self.starts[i + 1]].iter().copied().collect()
    }
}

impl BodiesIn {
    /// Reads `count` bodies, in the order [`write()`] wrote them, and checks
    /// every number that is not a real.
    pub(crate) fn read(unpacker: &mut Unpacker<'_>, count: usize, world: WorldTag) -> Result<Self, String> {
        let reals = RealRows::<REALS>::read(unpacker, count)?;
        let ints = IntRows::<INTS>::read(unpacker, count)?;
        let mut kinds = Vec::with_capacity(count);
        for i in 0..count {
            let [kind, flags, _, solver_index, island, ..] = ints.row(i);
            kinds.push(kind_of(kind)?);
            if flags >= 2 * BOUNDS_STALE {
                return Err(format!("a body with flags {flags:#x}"));
            }
            if u32::try_from(solver_index).is_err() || u32::try_from(island).is_err() {
                return Err("a body's solver index or island out of range".into());
            }
        }
        let colliders = Lists::read(unpacker, &ints, 5, count, world)?;
        let contacts = Lists::read(unpacker, &ints, 6, count, world)?;
        let joints = Lists::read(unpacker, &ints, 7, count, world)?;
        Ok(BodiesIn { kinds, reals, ints, colliders, contacts, joints })
    }

    /// Body `i`.
    pub(crate) fn body(&self, i: usize) -> Body {
        let [_, flags, user_data, solver_index, island, ..] = self.ints.row(i);
        let r = self.reals.row(i);
        let pose = Isometry::from_parts(
            Vec2::new(r[0], r[1]).into(),
            Rotation::new_unchecked(nalgebra::Complex { re: r[2], im: r[3] }),
        );
        let local_center = Point::new(r[6], r[7]);
        let predicted = pose * local_center;
        Body {
            kind: self.kinds[i],
            pose,
            center: Point::new(unflip(predicted.x, r[4]), unflip(predicted.y, r[5])),
            local_center,
            linear_velocity: Vec2::new(r[8], r[9]),
            angular_velocity: r[10],
            mass: r[11],
            inv_mass: r[12],
            inertia: r[13],
            inv_inertia: r[14],
            linear_damping: r[15],
            angular_damping: r[16],
            gravity_scale: r[17],
            fixed_rotation: flags & FIXED_ROTATION != 0,
            can_sleep: flags & CAN_SLEEP != 0,
            user_data,
            force: Vec2::new(r[18], r[19]),
            torque: r[20],
            colliders: self.colliders.of::<SmallVec<_>>(i),
            contacts: self.contacts.of(i),
            joints: self.joints.of(i),
            extent: r[21],
            min_extent: r[22],
            // Counted again from the colliders once they are read
            // (`World::recount_collider_sums`).
            collider_mass: MassProperties::ZERO,
            collider_reach: 0.0,
            bullet: flags & BULLET != 0,
            awake: flags & AWAKE != 0,
            sleep_time: r[23],
            wake_requested: flags & WAKE_REQUESTED != 0,
            bounds_stale: flags & BOUNDS_STALE != 0,
            solver_index: solver_index as u32, // in range: checked by `read`
            island: island as u32,
        }
    }
}
