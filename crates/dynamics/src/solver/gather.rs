//! The solver's lists of awake bodies and touching contacts, made on the
//! thread pool when the world is large.
//!
//! Every step the solver lists the awake movable bodies, with their
//! velocities and this step's accelerations, and the touching contacts that
//! have an awake body, each in key order. Made by one walk on the calling
//! thread, the two lists are a serial part of the step that grows with the
//! world: in many_pyramids (22,000 boxes, 58,000 contacts) 0.44 and 0.34 ms
//! of every step on one thread, a body's slot being a cache miss of its own,
//! and no less on two.
//!
//! Here a list is made in two passes over runs of [`RUN`] items, each pass
//! on the pool: the first counts what each run lists, the second writes each
//! run's entries from where the runs before it end. The lists are the ones
//! the single walk makes, entry for entry, on any number of threads: each
//! entry depends on its own item alone, and its place on the counts before
//! it. No run allocates; the runs' counts are kept from step to step.

use std::ops::Range;

use lamina_geometry::{Real, Vec2};
use rayon::prelude::*;
use slotmap::Key;

use super::body_state::{BodyParams, BodyState};
use super::integrate;
use crate::body::{Body, BodyKind, NO_INDEX};
use crate::free_slots::index_and_version;
use crate::keys::Untagged;
use crate::narrow_phase::ContactSummary;
use crate::parallel::disjoint::{borrow_some, recycle};
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, ColliderKey, WorldSettings};

/// Items (body slots or contact summaries) per run of the two passes.
pub(super) const RUN: usize = 1024;

/// Worlds with this many bodies or more list their bodies on the pool,
/// when the step shares its work (`parallel/pace.rs`); smaller ones take a single walk, which
/// costs less than handing out the runs. On the 2-core machine a pool made
/// the lists of large_pyramid (5,051 bodies, 14,950 contacts) and the
/// spinner (6,079 and 20,456) slower, and many_pyramids' (22,001 and
/// 58,000) faster; of the joint grid (10,000 bodies) faster too, the whole
/// step by 5 to 7 % on two threads (two worlds stepped side by side, one
/// listing on the pool: `benchmark --paired`), smash's (9,601) and rain's
/// (11,001) within a few hundredths either way.
pub(super) const BODIES_ON_POOL_FROM: usize = 8 * RUN;

/// Contact lists of this many summaries or more are made on the pool, when
/// the step shares its work: a contact is less work to list than a body,
/// so it takes more of them to pay for the runs (see [`BODIES_ON_POOL_FROM`]).
pub(super) const CONTACTS_ON_POOL_FROM: usize = 32 * RUN;

/// What the solver keeps of an awake movable body `b` for a step of
/// substeps of `h` seconds: its velocities, and what stays fixed during the
/// step.
#[inline(always)]
pub(super) fn body_entry(b: &Body, settings: &WorldSettings, h: Real) -> (BodyState, BodyParams) {
    let dynamic = b.kind == BodyKind::Dynamic;
    let params = BodyParams {
        inv_mass: b.inv_mass,
        inv_inertia: b.inv_inertia,
        linear_damping: 1.0 / (1.0 + h * b.linear_damping),
        angular_damping: 1.0 / (1.0 + h * b.angular_damping),
        linear_acceleration: if dynamic {
            integrate::acceleration(settings.gravity * b.gravity_scale, b.force * b.inv_mass)
        } else {
            Vec2::zeros()
        },
        angular_acceleration: if dynamic { b.torque * b.inv_inertia } else { 0.0 },
        spare: 0.0,
    };
    (BodyState::at_rest_with(b.linear_velocity, b.angular_velocity), params)
}

/// Whether the solver takes body `b` this step.
#[inline(always)]
pub(super) fn solved(b: &Body) -> bool {
    b.awake && b.kind != BodyKind::Fixed
}

/// The solver's per-body lists, as [`gather_bodies`] fills them.
pub(super) struct BodyLists<'a> {
    pub awake: &'a mut Vec<BodyKey>,
    pub first_colliders: &'a mut Vec<Option<ColliderKey>>,
    pub states: &'a mut Vec<BodyState>,
    pub params: &'a mut Vec<BodyParams>,
    /// By body slot: the key's version and the body's solver index, or
    /// `(0, NO_INDEX)`.
    pub solver_of_slot: &'a mut Vec<(u32, u32)>,
}

/// Lists every awake movable body of `bodies` (whose keys by slot are
/// `by_slot`, the null key at a free slot) in key order into `lists`,
/// giving each its solver index and every other body `NO_INDEX`, on the
/// pool. `starts` and `borrowed` are scratch kept between steps.
///
/// Fills the lists exactly as a walk of the map in key order would.
pub(super) fn gather_bodies(
    bodies: &mut TaggedMap<BodyKey, Body>,
    by_slot: &[BodyKey],
    lists: BodyLists<'_>,
    (settings, h): (&WorldSettings, Real),
    (starts, borrowed): (&mut Vec<usize>, &mut Vec<usize>),
) {
    // The walk's `solver_of_slot` ends at the last live slot.
    let end = by_slot.iter().rposition(|k| !k.is_null()).map_or(0, |last| last + 1);
    let by_slot = &by_slot[..end];
    let mut slots: Vec<Option<&mut Body>> = recycle(std::mem::take(borrowed));
    // SAFETY: `by_slot` holds each live key of `bodies` once, at its own
    // slot (the world mirrors every insertion and removal there), and the
    // references are dropped before this function returns.
    unsafe {
        borrow_some(bodies.raw_mut(), by_slot.iter().map(|&k| (!k.is_null()).then_some(k)), &mut slots)
    };

    // First pass: what each run lists; the bodies it does not list get
    // `NO_INDEX` on the way.
    let count = |run: &mut [Option<&mut Body>]| {
        let mut n = 0;
        for b in run.iter_mut().flatten() {
            if solved(b) {
                n += 1;
            } else {
                b.solver_index = NO_INDEX;
            }
        }
        n
    };
    slots.par_chunks_mut(RUN).map(count).collect_into_vec(starts);
    let total = prefix_sums(starts);

    // Every entry is written below: the lists are only sized, and what
    // they held is left to be overwritten (not cleared first, which would
    // write them all once more, on this thread).
    let BodyLists { awake, first_colliders, states, params, solver_of_slot } = lists;
    awake.resize(total, BodyKey::null());
    first_colliders.resize(total, None);
    states.resize(total, BodyState::FIXED);
    params.resize(total, BodyParams::FIXED);
    solver_of_slot.resize(end, (0, NO_INDEX));

    // Second pass: each run writes its entries from where the runs before
    // it end.
    let write = |run: usize, (slots, (keys, of_slot)): SlotParts<'_, '_>, out: BodyParts<'_>| {
        let ((awake, firsts), (states, params)) = out;
        let mut i = 0;
        let first_index = starts[run];
        for ((b, &key), of_slot) in slots.iter_mut().zip(keys).zip(of_slot) {
            let Some(b) = b.as_deref_mut().filter(|b| solved(b)) else {
                *of_slot = (0, NO_INDEX);
                continue;
            };
            let index = (first_index + i) as u32;
            b.solver_index = index;
            *of_slot = (index_and_version(key).1, index);
            awake[i] = key;
            firsts[i] = b.colliders.first().copied();
            (states[i], params[i]) = body_entry(b, settings, h);
            i += 1;
        }
    };
    let input = (&mut slots[..], (by_slot, &mut solver_of_slot[..]));
    let output = ((&mut awake[..], &mut first_colliders[..]), (&mut states[..], &mut params[..]));
    for_each_run(input, output, 0..starts.len() - 1, starts, RUN, &write);
    *borrowed = recycle(slots);
}

/// A run's body slots, keys and solver indices by slot.
type SlotParts<'s, 'b> = (&'s mut [Option<&'b mut Body>], (&'s [BodyKey], &'s mut [(u32, u32)]));

/// A run's part of the solver's body lists.
type BodyParts<'s> =
    ((&'s mut [BodyKey], &'s mut [Option<ColliderKey>]), (&'s mut [BodyState], &'s mut [BodyParams]));

/// The solver's per-contact lists, as [`gather_contacts`] fills them.
pub(super) struct ContactLists<'a> {
    /// Each listed contact's place in the narrow phase's arrays.
    pub places: &'a mut Vec<u32>,
    /// Its bodies' solver indices.
    pub bodies: &'a mut Vec<(u32, u32)>,
    /// Whether it had two points.
    pub two_points: &'a mut Vec<bool>,
    /// The listed contacts the narrow phase wrote no solver manifold for.
    pub missing_manifolds: &'a mut Vec<u32>,
}

/// What one contact summary gives the lists: `None` if the contact does not
/// touch or has no awake body; else whether it counts as touching only (a
/// sensor) or is listed, with its bodies' solver indices.
#[inline(always)]
pub(super) fn contact_entry(
    summary: &ContactSummary,
    index: impl Fn(Untagged<BodyKey>) -> u32,
) -> Option<Option<(u32, u32)>> {
    if !summary.touching() {
        return None;
    }
    let (ia, ib) = (index(summary.body_a), index(summary.body_b));
    if ia == NO_INDEX && ib == NO_INDEX {
        return None;
    }
    Some(summary.solid_touching().then_some((ia, ib)))
}

/// Lists the touching solid contacts of `summaries` with an awake body, in
/// place order, into `lists`, on the pool; `index` gives a body's solver
/// index. Returns how many contacts with an awake body touch, sensors
/// included. `counts` and `starts` are scratch kept between steps.
///
/// Fills the lists exactly as a walk of the summaries in order would.
pub(super) fn gather_contacts(
    summaries: &[ContactSummary],
    index: impl Fn(Untagged<BodyKey>) -> u32 + Sync,
    lists: ContactLists<'_>,
    (counts, starts): (&mut Vec<[usize; 3]>, &mut Vec<usize>),
) -> usize {
    // First pass: per run, the contacts listed, touching, and listed without
    // a manifold.
    let count = |run: &[ContactSummary]| {
        let mut n = [0; 3];
        for summary in run {
            if let Some(listed) = contact_entry(summary, &index) {
                n[1] += 1;
                if listed.is_some() {
                    n[0] += 1;
                    n[2] += usize::from(!summary.has_manifold());
                }
            }
        }
        n
    };
    summaries.par_chunks(RUN).map(count).collect_into_vec(counts);
    starts.clear();
    starts.extend(counts.iter().map(|n| n[0]));
    let total = prefix_sums(starts);
    let touching = counts.iter().map(|n| n[1]).sum();
    let missing = counts.iter().map(|n| n[2]).sum::<usize>();

    // Sized only: every entry is written below (see `gather_bodies`).
    let ContactLists { places, bodies, two_points, missing_manifolds } = lists;
    places.resize(total, 0);
    bodies.resize(total, (NO_INDEX, NO_INDEX));
    two_points.resize(total, false);

    // Second pass: each run writes its entries from where the runs before
    // it end.
    let write = |run: usize, summaries: &[ContactSummary], out: ContactParts<'_>| {
        let (places, (bodies, two_points)) = out;
        let mut i = 0;
        for (j, summary) in summaries.iter().enumerate() {
            let Some(Some(listed)) = contact_entry(summary, &index) else { continue };
            places[i] = (run * RUN + j) as u32;
            bodies[i] = listed;
            two_points[i] = summary.two_points();
            i += 1;
        }
    };
    let output = (&mut places[..], (&mut bodies[..], &mut two_points[..]));
    for_each_run(summaries, output, 0..starts.len() - 1, starts, RUN, &write);

    // A listed contact without a manifold had no awake body when the narrow
    // phase ran: rare (a body woken since), so these are found in a walk of
    // their own, only when there are some.
    missing_manifolds.clear();
    if missing > 0 {
        let lacking = |&place: &u32| !summaries[place as usize].has_manifold();
        missing_manifolds.extend(places.iter().copied().filter(lacking));
    }
    touching
}

/// A run's part of the solver's contact lists.
type ContactParts<'s> = (&'s mut [u32], (&'s mut [(u32, u32)], &'s mut [bool]));

/// Turns each run's count into where its entries start, with one more
/// entry for the end of the last; returns the total.
fn prefix_sums(counts: &mut Vec<usize>) -> usize {
    let mut total = 0;
    for c in counts.iter_mut() {
        (*c, total) = (total, total + *c);
    }
    counts.push(total);
    total
}

/// Something that parts at a place into what comes before and what after:
/// a run's share of the inputs or of the lists.
pub(super) trait Parts: Sized + Send {
    fn part(self, at: usize) -> (Self, Self);
}

impl<T: Send> Parts for &mut [T] {
    fn part(self, at: usize) -> (Self, Self) {
        self.split_at_mut(at)
    }
}

impl<T: Sync> Parts for &[T] {
    fn part(self, at: usize) -> (Self, Self) {
        self.split_at(at)
    }
}

impl<A: Parts, B: Parts> Parts for (A, B) {
    fn part(self, at: usize) -> (Self, Self) {
        let ((a0, a1), (b0, b1)) = (self.0.part(at), self.1.part(at));
        ((a0, b0), (a1, b1))
    }
}

/// Runs `write(run, input, output)` for each run of `runs`, where `input`
/// is the run's `run_len` items and `output` the part of the lists from
/// `starts[run]` to `starts[run + 1]`, halving both on the pool. Every run
/// gets a part of its own, so the runs need no order among themselves.
fn for_each_run<I: Parts, O: Parts>(
    input: I,
    output: O,
    runs: Range<usize>,
    starts: &[usize],
    run_len: usize,
    write: &(impl Fn(usize, I, O) + Sync),
) {
    match runs.len() {
        0 => {}
        1 => write(runs.start, input, output),
        n => {
            let mid = runs.start + n / 2;
            let (input_a, input_b) = input.part((mid - runs.start) * run_len);
            let (output_a, output_b) = output.part(starts[mid] - starts[runs.start]);
            rayon::join(
                || for_each_run(input_a, output_a, runs.start..mid, starts, run_len, write),
                || for_each_run(input_b, output_b, mid..runs.end, starts, run_len, write),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Lists of random summaries over bodies some of which are solved, made
    /// on a pool of three threads, against a plain walk that applies the
    /// rules as written: a contact counts as touching if it touches and has
    /// a body with a solver index, is listed if it is not a sensor's too,
    /// and is missing its manifold if listed without one. Lengths from none
    /// to several runs with a short last one.
    #[test]
    fn contacts_listed_on_the_pool_are_the_walks() {
        let mut rng = Rng(0x05ee_d0f1_1575);
        let mut solver_of = slotmap::SlotMap::<BodyKey, u32>::with_key();
        let keys: Vec<BodyKey> = (0..64)
            .map(|i| solver_of.insert(if rng.next().is_multiple_of(3) { NO_INDEX } else { i }))
            .collect();
        let index = |k: Untagged<BodyKey>| solver_of[BodyKey::from(slotmap::Key::data(&k))];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        for len in [0, 1, RUN - 1, RUN, 3 * RUN + 17, 5 * RUN] {
            let summaries: Vec<ContactSummary> = (0..len)
                .map(|_| {
                    let a = keys[(rng.next() % keys.len() as u64) as usize];
                    let b = keys[(rng.next() % keys.len() as u64) as usize];
                    let state = std::array::from_fn(|_| !rng.next().is_multiple_of(4));
                    ContactSummary::with_state(a, b, state)
                })
                .collect();
            let (mut places, mut bodies, mut two, mut missing) = (vec![7], vec![], vec![true; 9], vec![3]);
            let (mut counts, mut starts) = (Vec::new(), Vec::new());
            let lists = ContactLists {
                places: &mut places,
                bodies: &mut bodies,
                two_points: &mut two,
                missing_manifolds: &mut missing,
            };
            let touching =
                pool.install(|| gather_contacts(&summaries, index, lists, (&mut counts, &mut starts)));

            let mut expected = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), 0);
            for (place, s) in summaries.iter().enumerate() {
                let (ia, ib) = (index(s.body_a), index(s.body_b));
                if !s.touching() || (ia == NO_INDEX && ib == NO_INDEX) {
                    continue;
                }
                expected.4 += 1;
                if s.touching() && !s.solid_touching() {
                    continue;
                }
                expected.0.push(place as u32);
                expected.1.push((ia, ib));
                expected.2.push(s.two_points());
                if !s.has_manifold() {
                    expected.3.push(place as u32);
                }
            }
            assert_eq!((places, bodies, two, missing, touching), expected, "{len} summaries");
        }
    }
}
