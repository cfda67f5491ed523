//! The solve's impulses read back from the bundles and stored for the next
//! step's warm start: on the joints (with the force and torque they report)
//! and on the contacts, each point by its feature.

use lamina_geometry::{Real, Vec2};
use rayon::prelude::*;
use slotmap::SlotMap;

use super::joints::JointConstraint;
use super::joints::point_bundle::PointJointBundle;
use super::joints::revolute_bundle::RevoluteBundle;
use super::lanes::Lanes;
use crate::body::NO_INDEX;
use crate::contact::Contact;
use crate::joint::Joint;
use crate::parallel::disjoint::{borrow_each, recycle, update_each};
use crate::parallel::pace::Threads;
use crate::tagged_map::TaggedMap;
use crate::{ContactKey, JointKey};

/// A force or torque read off an impulse over a substep, within the finite
/// numbers: a joint whose limit is `Real::MAX` newtons can reach an impulse of
/// `Real::MAX · h`, which divided by `h` again may round past the largest
/// finite value. The impulse itself stays as solved.
pub(crate) fn saturated(value: Real) -> Real {
    value.clamp(-Real::MAX, Real::MAX)
}

/// Gives each prepared revolute joint (at its place, `places`) the impulses
/// its lane of the bundles accumulated.
pub(crate) fn take_revolute_impulses<W: Lanes>(
    bundles: &[RevoluteBundle<W>],
    places: &[u32],
    revolutes: &mut [JointConstraint],
) {
    for bundle in bundles {
        for (l, &member) in bundle.bodies.members.as_ref().iter().enumerate() {
            if member != NO_INDEX {
                revolutes[places[member as usize] as usize].impulses = bundle.impulses(l);
            }
        }
    }
}

/// Puts each point joint bundle's accumulated impulses, per lane, at its
/// joint's list index in `gathered` (of `count` entries): bundles hold their
/// joints in colour order, which jumps about memory, and `gathered` is small
/// enough to stay in the cache.
pub(crate) fn gather_point_impulses<W: Lanes>(
    bundles: &[PointJointBundle<W>],
    count: usize,
    gathered: &mut Vec<Vec2>,
) {
    gathered.clear();
    gathered.resize(count, Vec2::zeros());
    for bundle in bundles {
        for (l, &member) in bundle.bodies.members.as_ref().iter().enumerate() {
            if member != NO_INDEX {
                gathered[member as usize] = bundle.impulse(l);
            }
        }
    }
}

/// Writes the gathered impulses (`gathered`, by list index) back to the plain
/// point joints (`plain`) among the listed `keys`, with each joint's force
/// over a substep of `h` seconds: in list order, which is key order, so the
/// joints are visited as they lie in memory. A grid of twenty thousand
/// joints made this a serial part of the step as long as its substeps'
/// share of a thread: see [`update_each`].
pub(crate) fn store_point_impulses(
    gathered: &[Vec2],
    (plain, keys): (&[bool], &[JointKey]),
    joints: &mut TaggedMap<JointKey, Joint>,
    h: Real,
    buffer: &mut Vec<usize>,
    threads: Threads,
) {
    let plain_keys = keys.iter().zip(plain).map(|(&key, &plain)| plain.then_some(key));
    let sharing = (buffer, threads, IMPULSE_WRITE_CHUNK);
    // SAFETY: the solver lists each joint once, from the joints live this
    // step, and none has been removed since.
    unsafe {
        update_each(joints, plain_keys, gathered, sharing, |joint, &linear| {
            if !(linear.x.is_finite() && linear.y.is_finite()) {
                joint.clear_impulses();
                return;
            }
            joint.impulses = crate::joint::JointImpulses { linear, ..Default::default() };
            (joint.force, joint.torque) = ((linear / h).map(saturated), 0.0);
        })
    };
}

/// Stores on each joint the impulses its prepared constraint accumulated
/// (`constraints[i]` is the joint of `keys[order[i]]`), with the force and
/// torque they report over a substep of `h` seconds; a joint whose
/// impulses are not finite keeps none (see `Solver::store_impulses`). A
/// scene of ragdolls has ten thousand: see [`update_each`].
pub(crate) fn store_joint_impulses(
    constraints: &[JointConstraint],
    order: &[u32],
    keys: &[JointKey],
    joints: &mut TaggedMap<JointKey, Joint>,
    h: Real,
    buffer: &mut Vec<usize>,
    threads: Threads,
) {
    debug_assert_eq!(constraints.len(), order.len());
    let listed = order.iter().map(|&member| Some(keys[member as usize]));
    let sharing = (buffer, threads, IMPULSE_WRITE_CHUNK);
    // SAFETY: as in `store_point_impulses`; `order` names each listed joint once.
    unsafe {
        update_each(joints, listed, constraints, sharing, |joint, c| {
            if !c.impulses.is_finite() {
                joint.clear_impulses();
                return;
            }
            joint.impulses = c.impulses;
            let (force, torque) = c.force_and_torque(h);
            (joint.force, joint.torque) = (force.map(saturated), saturated(torque));
        })
    };
}

/// What a contact's constraint accumulated, read off its lane for the next
/// step's warm start: each point's normal and tangent impulses, and the
/// rolling impulse.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ContactImpulses {
    pub points: [(Real, Real); 2],
    pub rolling: Real,
}

/// Contacts per task when their impulses are written on several threads.
const IMPULSE_WRITE_CHUNK: usize = 512;

/// Writes the gathered impulses to the contacts, in key order (constraint
/// order is key order), in parallel when there are many: each contact is a
/// cache miss, and on one thread these writes were a serial part of the step
/// as long as a twentieth of it. `buffer` holds the references' allocation
/// from one step to the next (see [`recycle`]).
pub(crate) fn write_contact_impulses(
    gathered: &[ContactImpulses],
    places: &[u32],
    keys: &[ContactKey],
    contacts: &mut SlotMap<ContactKey, Contact>,
    buffer: &mut Vec<usize>,
    threads: Threads,
) {
    let mut borrowed: Vec<&mut Contact> = recycle(std::mem::take(buffer));
    // The constraints were listed one per place, in increasing order, from
    // contacts the narrow phase listed live this step (each key checked live
    // there); none has been removed since. The order and range of the places
    // are checked here, at the price of a pass over a dense array; the keys'
    // liveness again only in debug builds, since it would read every slot.
    assert!(places.windows(2).all(|w| w[0] < w[1]), "contact places in increasing order");
    assert!(places.last().is_none_or(|&p| (p as usize) < keys.len()), "contact places within the listing");
    debug_assert!(places.iter().all(|&p| contacts.contains_key(keys[p as usize])));
    // SAFETY: distinct places give distinct keys (the narrow phase lists
    // each contact once), all live (above); the map is left alone until the
    // references are dropped, when `borrowed` is recycled below.
    unsafe { borrow_each(contacts, places.iter().map(|&p| keys[p as usize]), &mut borrowed) };
    let write = |contacts: &mut [&mut Contact], gathered: &[ContactImpulses]| {
        for (contact, impulses) in contacts.iter_mut().zip(gathered) {
            for (p, &(normal, tangent)) in contact.points.iter_mut().zip(&impulses.points) {
                (p.normal_impulse, p.tangent_impulse) = (normal, tangent);
            }
            contact.rolling_impulse = impulses.rolling;
        }
    };
    if !threads.share(borrowed.len(), 2 * IMPULSE_WRITE_CHUNK) {
        write(&mut borrowed, gathered);
    } else {
        borrowed
            .par_chunks_mut(IMPULSE_WRITE_CHUNK)
            .zip(gathered.par_chunks(IMPULSE_WRITE_CHUNK))
            .for_each(|(contacts, gathered)| write(contacts, gathered));
    }
    *buffer = recycle(borrowed);
}
