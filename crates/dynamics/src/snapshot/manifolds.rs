//! The contacts' manifolds, written together: the bulk of a snapshot (a
//! pyramid of 5,000 boxes has 15,000 contacts of up to two points each, every
//! point with nine numbers).
//!
//! They are written field by field over all contacts, in the order of the
//! contact map, without a serde call per number: every contact's friction,
//! then every contact's restitution, and so on, and then every point's world
//! position, anchors, separation and impulses. Each field's reals are split
//! into byte planes as the columnar layout does (`columns.rs`), and the point
//! counts and feature ids are varints. Two byte strings in all, which serde
//! passes through in one call each.

use std::fmt;

use arrayvec::ArrayVec;
use lamina_geometry::{Point, Real, Rotation, Vec2};
use lamina_narrowphase::FeatureId;
use serde::{Deserialize, Serialize};
use slotmap::SlotMap;

use super::columns::{read_planes, read_varint, write_planes, write_varint};
use crate::ContactKey;
use crate::contact::{Contact, ContactPointState, ManifoldFrame};

/// Reals per contact: friction, restitution, normal (2), and the frame it was
/// computed in: normal (2), relative rotation (2), separations (2).
const CONTACT_REALS: usize = 10;

/// Reals per point: world position (2), anchor on A (2), anchor on B (2),
/// separation, normal impulse, tangent impulse.
const POINT_REALS: usize = 9;

/// Bytes as one serde byte string, not a sequence of numbers.
#[derive(Default)]
struct Blob(Vec<u8>);

impl Serialize for Blob {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Blob {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BlobVisitor;
        impl serde::de::Visitor<'_> for BlobVisitor {
            type Value = Blob;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a byte string")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Blob, E> {
                Ok(Blob(v.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Blob, E> {
                Ok(Blob(v))
            }
        }
        deserializer.deserialize_bytes(BlobVisitor)
    }
}

/// Every contact's manifold, in the order of the contact map.
#[derive(Serialize, Deserialize)]
pub(crate) struct Manifolds {
    /// Per contact its number of points, then each point's feature ids.
    counts_and_ids: Blob,
    /// The contact fields' byte planes, then the point fields'.
    reals: Blob,
}

impl Manifolds {
    /// The manifolds of `contacts`.
    pub(crate) fn of(contacts: &SlotMap<ContactKey, Contact>) -> Self {
        let points: usize = contacts.values().map(|c| c.points.len()).sum();
        let mut counts_and_ids = Vec::with_capacity(contacts.len() + 2 * points);
        let mut per_contact: [Vec<Real>; CONTACT_REALS] =
            std::array::from_fn(|_| Vec::with_capacity(contacts.len()));
        let mut per_point: [Vec<Real>; POINT_REALS] = std::array::from_fn(|_| Vec::with_capacity(points));
        for c in contacts.values() {
            let f = &c.computed_in;
            let fields = [
                c.friction,
                c.restitution,
                c.normal.x,
                c.normal.y,
                f.normal.x,
                f.normal.y,
                f.relative_rotation.re,
                f.relative_rotation.im,
                f.separations[0],
                f.separations[1],
            ];
            for (column, v) in per_contact.iter_mut().zip(fields) {
                column.push(v);
            }
            write_varint(&mut counts_and_ids, c.points.len() as u64);
            for p in &c.points {
                write_varint(&mut counts_and_ids, u64::from(p.id.a));
                write_varint(&mut counts_and_ids, u64::from(p.id.b));
                let fields = [
                    p.point.x,
                    p.point.y,
                    p.local_a.x,
                    p.local_a.y,
                    p.local_b.x,
                    p.local_b.y,
                    p.separation,
                    p.normal_impulse,
                    p.tangent_impulse,
                ];
                for (column, v) in per_point.iter_mut().zip(fields) {
                    column.push(v);
                }
            }
        }
        let real = std::mem::size_of::<Real>();
        let mut reals = Vec::with_capacity(real * (CONTACT_REALS * contacts.len() + POINT_REALS * points));
        for column in per_contact.iter().chain(&per_point) {
            write_planes(&mut reals, column.iter().map(|v| v.to_le_bytes()));
        }
        Manifolds { counts_and_ids: Blob(counts_and_ids), reals: Blob(reals) }
    }

    /// Gives the contacts of `contacts` (read back without their manifolds)
    /// the manifolds written, or says why they do not fit.
    pub(crate) fn apply(self, contacts: &mut SlotMap<ContactKey, Contact>) -> Result<(), String> {
        let mut ids = self.counts_and_ids.0.as_slice();
        let mut counts = Vec::with_capacity(contacts.len());
        let mut features = Vec::new();
        for _ in 0..contacts.len() {
            let count = read_varint(&mut ids).map_err(|e| e.to_string())?;
            if count > 2 {
                return Err(format!("a contact with {count} points"));
            }
            counts.push(count as usize);
            for _ in 0..count {
                let a = read_varint(&mut ids).map_err(|e| e.to_string())?;
                let b = read_varint(&mut ids).map_err(|e| e.to_string())?;
                let id = |v: u64| u32::try_from(v).map_err(|_| format!("a feature id of {v}"));
                features.push(FeatureId { a: id(a)?, b: id(b)? });
            }
        }
        if !ids.is_empty() {
            return Err("bytes after the last contact's feature ids".into());
        }
        let (n, points) = (contacts.len(), features.len());
        let real = std::mem::size_of::<Real>();
        let reals = self.reals.0.as_slice();
        if reals.len() != real * (CONTACT_REALS * n + POINT_REALS * points) {
            return Err("the manifolds' numbers do not match their contacts".into());
        }
        let (contact_part, point_part) = reals.split_at(real * CONTACT_REALS * n);
        let per_contact: Vec<Vec<Real>> = contact_part
            .chunks_exact(real * n.max(1))
            .map(|planes| {
                let mut column = Vec::with_capacity(n);
                read_planes(&mut column, planes, Real::from_le_bytes);
                column
            })
            .collect();
        let per_point: Vec<Vec<Real>> = point_part
            .chunks_exact(real * points.max(1))
            .map(|planes| {
                let mut column = Vec::with_capacity(points);
                read_planes(&mut column, planes, Real::from_le_bytes);
                column
            })
            .collect();
        let contact_field = |k: usize, i: usize| per_contact.get(k).map_or(0.0, |column| column[i]);
        let point_field = |k: usize, j: usize| per_point.get(k).map_or(0.0, |column| column[j]);
        let mut j = 0;
        for (i, (c, &count)) in contacts.values_mut().zip(&counts).enumerate() {
            let v = |k| contact_field(k, i);
            c.friction = v(0);
            c.restitution = v(1);
            c.normal = Vec2::new(v(2), v(3));
            c.computed_in = ManifoldFrame {
                normal: Vec2::new(v(4), v(5)),
                relative_rotation: Rotation::new_unchecked(nalgebra::Complex { re: v(6), im: v(7) }),
                separations: [v(8), v(9)],
            };
            c.points = ArrayVec::new();
            for _ in 0..count {
                let p = |k| point_field(k, j);
                c.points.push(ContactPointState {
                    point: Point::new(p(0), p(1)),
                    local_a: Point::new(p(2), p(3)),
                    local_b: Point::new(p(4), p(5)),
                    separation: p(6),
                    id: features[j],
                    normal_impulse: p(7),
                    tangent_impulse: p(8),
                });
                j += 1;
            }
        }
        Ok(())
    }
}
