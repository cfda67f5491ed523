//! Contacts written in bulk: the bulk of a snapshot (a pyramid of 5,000 boxes
//! has 15,000 contacts of up to two points each, every point with nine
//! numbers), a column per field, in the order of the contact map: every
//! contact's keys, flags and point count, its friction, restitution, normal
//! and the frame its manifold was computed in, then every point's feature ids,
//! world position, anchors, separation and impulses.
//!
//! A contact's bodies are written as the differences of their keys from its
//! colliders' keys: zero wherever bodies and colliders were made together,
//! one each (a pyramid of boxes), so that they cost next to nothing once
//! compressed, and exact either way, without looking a collider up.

use std::ops::Range;

use arrayvec::ArrayVec;
use lamina_geometry::{Point, Rotation, Vec2};
use lamina_narrowphase::FeatureId;
use slotmap::{Key, KeyData, SlotMap};

use crate::keys::Untagged;
use crate::{WorldKey, WorldTag};

use super::packing::{IntRows, Packer, RealRows, Unpacker};
use crate::contact::{Contact, ContactPointState, ManifoldFrame};
use crate::{BodyKey, ColliderKey, ContactKey};

/// Reals per contact: friction, restitution, normal (2), the frame the
/// manifold was computed in: normal (2), relative rotation (2), separations
/// (2), and the surface: tangent speed, rolling resistance, rolling impulse.
const CONTACT_REALS: usize = 13;

/// Integers per contact: its colliders' keys (index and version each), its
/// bodies' keys as differences from those, and its flags with its number of
/// points.
const CONTACT_INTS: usize = 7;

/// Reals per point: world position (2), anchor on A (2), anchor on B (2),
/// separation, normal impulse, tangent impulse.
const POINT_REALS: usize = 9;

/// Integers per point: its feature ids.
const POINT_INTS: usize = 2;

/// Flags of a contact; the number of points is stored above the first two,
/// and [`APART`] above it.
const SENSOR: u64 = 1;
const TOUCHING: u64 = 2;
const POINTS_SHIFT: u32 = 2;
/// The frame records shapes found apart ([`Contact::apart`]): kept, so that a
/// restored contact skips the same computations as the original and writes
/// the same frame after the same steps.
const APART: u64 = 1 << 4;
/// The contact asks the pre-solve hook (`hooks.rs`).
const PRE_SOLVE: u64 = 1 << 5;

/// The difference of `body`'s key from `collider`'s, as integers.
fn difference(body: impl Key, collider: impl Key) -> u64 {
    body.data().as_ffi().wrapping_sub(collider.data().as_ffi())
}

/// The body key [`difference`] was given.
fn body_at(difference: u64, collider: ColliderKey) -> BodyKey {
    BodyKey::from(KeyData::from_ffi(collider.data().as_ffi().wrapping_add(difference)))
        .in_world(collider.world())
}

/// Writes the contacts of `contacts` from number `range.start` to
/// `range.end` in the map's order, after their count.
pub(crate) fn write(contacts: &SlotMap<ContactKey, Contact>, range: Range<usize>, packer: &mut Packer) {
    let count = range.len();
    packer.ints([count as u64]);
    // Room for two points a contact, the most a manifold holds: counting
    // them first would cost a pass over every contact.
    let mut contact_reals = RealRows::<CONTACT_REALS>::with_capacity(count);
    let mut contact_ints = IntRows::<CONTACT_INTS>::with_capacity(count);
    let mut point_reals = RealRows::<POINT_REALS>::with_capacity(2 * count);
    let mut point_ints = IntRows::<POINT_INTS>::with_capacity(2 * count);
    for c in contacts.values().skip(range.start).take(count) {
        let Contact {
            collider_a,
            collider_b,
            body_a,
            body_b,
            world: _, // the snapshot's, for every contact
            friction,
            restitution,
            tangent_speed,
            rolling_resistance,
            rolling_impulse,
            pre_solve,
            sensor,
            normal,
            points,
            touching,
            computed_in,
            apart,
            listed_at: _, // rebuilt from the bodies' lists on restore
        } = c;
        let ManifoldFrame { normal: frame_normal, relative_rotation, separations } = computed_in;
        contact_reals.push([
            *friction,
            *restitution,
            normal.x,
            normal.y,
            frame_normal.x,
            frame_normal.y,
            relative_rotation.re,
            relative_rotation.im,
            separations[0],
            separations[1],
            *tangent_speed,
            *rolling_resistance,
            *rolling_impulse,
        ]);
        let ffi = |k: KeyData| k.as_ffi();
        let (a, b) = (ffi(collider_a.data()), ffi(collider_b.data()));
        let flags = (u64::from(*sensor) * SENSOR)
            | (u64::from(*touching) * TOUCHING)
            | (u64::from(*apart) * APART)
            | (u64::from(*pre_solve) * PRE_SOLVE)
            | ((points.len() as u64) << POINTS_SHIFT);
        contact_ints.push([
            a & 0xffff_ffff,
            a >> 32,
            b & 0xffff_ffff,
            b >> 32,
            difference(*body_a, *collider_a),
            difference(*body_b, *collider_b),
            flags,
        ]);
        for p in points {
            let ContactPointState {
                point,
                local_a,
                local_b,
                separation,
                id,
                normal_impulse,
                tangent_impulse,
            } = p;
            point_reals.push([
                point.x,
                point.y,
                local_a.x,
                local_a.y,
                local_b.x,
                local_b.y,
                *separation,
                *normal_impulse,
                *tangent_impulse,
            ]);
            point_ints.push([u64::from(id.a), u64::from(id.b)]);
        }
    }
    contact_ints.write(packer);
    packer.ints([point_reals.rows() as u64]);
    point_ints.write(packer);
    contact_reals.write(packer);
    point_reals.write(packer);
}

/// The contacts read back, built one at a time by [`ContactsIn::contact`].
pub(crate) struct ContactsIn {
    contact_ints: IntRows<CONTACT_INTS>,
    contact_reals: RealRows<CONTACT_REALS>,
    point_ints: IntRows<POINT_INTS>,
    point_reals: RealRows<POINT_REALS>,
    /// Contact `i`'s points are `starts[i]..starts[i + 1]`.
    starts: Vec<usize>,
}

impl ContactsIn {
    /// Reads the contacts [`write()`] wrote, at most `most` of them, and
    /// checks every number that is not a real.
    pub(crate) fn read(unpacker: &mut Unpacker<'_>, most: usize) -> Result<Self, String> {
        let mut count = unpacker.ints()?;
        let count_read = count.next()?;
        count.finish()?;
        let count = usize::try_from(count_read)
            .ok()
            .filter(|&c| c <= most)
            .ok_or_else(|| format!("{count_read} contacts where at most {most} fit"))?;
        let contact_ints = IntRows::<CONTACT_INTS>::read(unpacker, count)?;
        let mut total = unpacker.ints()?;
        let points = total.next()?;
        total.finish()?;
        let points = usize::try_from(points)
            .ok()
            .filter(|&p| p <= 2 * count)
            .ok_or_else(|| format!("{points} points for {count} contacts"))?;
        let point_ints = IntRows::<POINT_INTS>::read(unpacker, points)?;
        let contact_reals = RealRows::<CONTACT_REALS>::read(unpacker, count)?;
        let point_reals = RealRows::<POINT_REALS>::read(unpacker, points)?;
        // An apart record's gap, read as a lower bound on a distance, must
        // be one (a gap of infinity would skip the pair's every manifold).
        for i in (0..count).filter(|&i| contact_ints.row(i)[6] & APART != 0) {
            let gap = contact_reals.row(i)[8];
            if !(gap.is_finite() && gap > 0.0) {
                return Err(format!("a contact found apart by {gap}"));
            }
        }
        let mut starts = Vec::with_capacity(count + 1);
        starts.push(0);
        for i in 0..count {
            let [a_index, a_version, b_index, b_version, _, _, flags] = contact_ints.row(i);
            let len = ((flags & !(APART | PRE_SOLVE)) >> POINTS_SHIFT) as usize;
            let end = starts[i] + len;
            // A record of shapes found apart belongs to a solid contact
            // with no point (see `update_manifold`).
            let apart_alone = flags & APART == 0 || flags & (SENSOR | TOUCHING) == 0 && len == 0;
            let shifted = flags & !(SENSOR | TOUCHING | APART | PRE_SOLVE);
            if shifted > 2 << POINTS_SHIFT || end > points || !apart_alone {
                return Err(format!("a contact with flags {flags:#x}"));
            }
            if ![a_index, a_version, b_index, b_version].iter().all(|&v| u32::try_from(v).is_ok()) {
                return Err("a contact's collider key out of range".into());
            }
            starts.push(end);
        }
        if starts[count] != points {
            return Err("points left over after the last contact".into());
        }
        if !(0..points).all(|j| point_ints.row(j).iter().all(|&id| u32::try_from(id).is_ok())) {
            return Err("a feature id out of range".into());
        }
        Ok(ContactsIn { contact_ints, contact_reals, point_ints, point_reals, starts })
    }

    /// How many contacts were read.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Contact `i`, of `world`.
    pub(crate) fn contact(&self, i: usize, world: WorldTag) -> Contact {
        // All in range: checked by `read`.
        let [a_index, a_version, b_index, b_version, body_a, body_b, flags] = self.contact_ints.row(i);
        let r = self.contact_reals.row(i);
        let key = |index: u64, version: u64| ColliderKey::from(KeyData::from_ffi(version << 32 | index));
        let collider_a = key(a_index, a_version).in_world(world);
        let collider_b = key(b_index, b_version).in_world(world);
        let mut points = ArrayVec::new();
        for j in self.starts[i]..self.starts[i + 1] {
            let [id_a, id_b] = self.point_ints.row(j);
            let p = self.point_reals.row(j);
            points.push(ContactPointState {
                point: Point::new(p[0], p[1]),
                local_a: Point::new(p[2], p[3]),
                local_b: Point::new(p[4], p[5]),
                separation: p[6],
                id: FeatureId { a: id_a as u32, b: id_b as u32 },
                normal_impulse: p[7],
                tangent_impulse: p[8],
            });
        }
        Contact {
            collider_a: Untagged::of(collider_a),
            collider_b: Untagged::of(collider_b),
            body_a: Untagged::of(body_at(body_a, collider_a)),
            body_b: Untagged::of(body_at(body_b, collider_b)),
            world,
            friction: r[0],
            restitution: r[1],
            tangent_speed: r[10],
            rolling_resistance: r[11],
            rolling_impulse: r[12],
            pre_solve: flags & PRE_SOLVE != 0,
            sensor: flags & SENSOR != 0,
            normal: Vec2::new(r[2], r[3]),
            points,
            touching: flags & TOUCHING != 0,
            computed_in: ManifoldFrame {
                normal: Vec2::new(r[4], r[5]),
                relative_rotation: Rotation::new_unchecked(nalgebra::Complex { re: r[6], im: r[7] }),
                separations: [r[8], r[9]],
            },
            apart: flags & APART != 0,
            listed_at: [crate::contact::UNLISTED; 2],
        }
    }
}
