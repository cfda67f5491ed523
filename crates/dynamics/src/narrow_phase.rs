//! The narrow phase: the manifold of every contact with an awake body brought
//! up to date each step, in parallel, and what the rest of the step reads of
//! them.
//!
//! Each contact with an awake body is refreshed on its own (`update_manifold`):
//! a carried or newly computed manifold, its impulses kept by feature id.
//! Beside every contact listed (every contact, or in a world mostly asleep
//! those with an awake body: `awake.rs`) the refresh leaves, in key order, a
//! [`ContactSummary`] (its bodies, whether it touches, what changed) and, for
//! a solid touching contact, its [`SolverManifold`]: what preparing its
//! constraint needs, computed while the contact and its bodies are in the
//! cache, in a dense array the solver reads instead of the contacts. A serial
//! pass then applies the few changes (events, wake-ups, island links) in key
//! order, so that nothing depends on the thread count.

use arrayvec::ArrayVec;

use lamina_geometry::{Real, Vec2};
use lamina_narrowphase::{contact_manifold_and_gap, intersects};
use rayon::prelude::*;
use slotmap::SlotMap;

use crate::awake::AwakeLists;
use crate::body::{Body, BodyKind};
use crate::collider::Collider;
use crate::contact::{Contact, ContactPointState, ManifoldFrame};
use crate::contact_set::ContactSet;
use crate::events::{ContactHitEvent, Events};
use crate::hooks::{Hooks, PreSolve};
use crate::island::Islands;
use crate::keys::Untagged;
use crate::parallel::disjoint::{borrow_each, recycle};
use crate::parallel::pace::Threads;
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, ColliderKey, ContactKey, WorldSettings};

/// Below this many contacts the narrow phase runs on the calling thread.
const NARROW_PARALLEL_MIN: usize = 256;

/// Contacts per narrow-phase task.
const NARROW_CHUNK: usize = 64;

/// What refreshing a contact changed that the serial pass after must see: its
/// touching state flipped.
const TOUCHING_CHANGED: u8 = 1;
/// What refreshing a contact changed: it touches and has a sleeping body to wake.
const WAKES: u8 = 2;
/// A flag of [`ContactSummary`] and [`ContactChange`]: the contact touches.
const TOUCHING: u8 = 4;
/// A flag of [`ContactSummary`] and [`ContactChange`]: the contact is a sensor's.
const SENSOR: u8 = 8;
/// A flag of [`ContactSummary`]: the refresh wrote the contact's
/// [`SolverManifold`] (it touches, is solid and has an awake body).
const MANIFOLD: u8 = 16;
/// A flag of [`ContactSummary`]: the contact has two points.
const TWO_POINTS: u8 = 32;

/// Flags of [`ContactChange`] beyond those it shares with
/// [`ContactSummary`]: its bodies are both dynamic, so that a change of
/// touching links or unlinks their islands.
const LINKS: u16 = 1 << 8;
/// A flag of [`ContactChange`]: the contact's first collider is the sensor.
const SENSOR_FIRST: u16 = 1 << 9;
/// Flags of [`ContactChange`]: body A, body B is asleep and to be woken.
const WAKE_A: u16 = 1 << 10;
const WAKE_B: u16 = 1 << 11;
/// A flag of [`ContactChange`]: the contact began touching fast enough for
/// a hit event.
const HIT: u16 = 1 << 12;

/// Changes each run of [`NARROW_CHUNK`] contacts notes in
/// [`ContactChange`]s; those past them are noted again from their
/// contacts in the serial pass. A run has a few changes in a crowd in
/// motion (six and a half on average in the spinner, where 36 of its 2,070
/// changes a step overflow), none in a pile at rest, and the room is paid
/// for every contact: a record for each would have taken large_pyramid's
/// memory past half of Rapier's.
const CHANGE_ROOM: usize = 16;

/// What the serial pass after the refresh applies for one contact whose
/// refresh changed something ([`TOUCHING_CHANGED`], [`WAKES`]), noted in the
/// parallel pass while the contact and its bodies are in the cache (its
/// bodies are read from its [`ContactSummary`]). A
/// crowd in motion changes a few thousand contacts a step; read back in the
/// serial pass, each contact and its two bodies were a cache miss or three,
/// many of them lines another core had just written: spinner's pass took
/// 290 µs of a 6.6 ms step on two threads, and takes 120 µs from these
/// (50 µs with room for every contact to change).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContactChange {
    /// Untagged, to keep the record at twenty bytes.
    colliders: (Untagged<ColliderKey>, Untagged<ColliderKey>),
    /// The contact's place in its run, where its summary names the bodies
    /// to wake ([`WAKE_A`], [`WAKE_B`]), or to link or unlink ([`LINKS`]).
    place: u8,
    /// [`TOUCHING_CHANGED`], [`TOUCHING`], [`SENSOR`], [`SENSOR_FIRST`],
    /// [`LINKS`], [`WAKE_A`], [`WAKE_B`], [`HIT`].
    flags: u16,
}

// Twenty bytes: the room of every run is paid for every contact.
const _: () = assert!(std::mem::size_of::<ContactChange>() <= 20);
const _: () = assert!(NARROW_CHUNK <= u8::MAX as usize + 1);

impl ContactChange {
    /// What contact `c` (between `a` and `b`, at `place` in its run,
    /// refreshed with the outcome `change`) asks of the serial pass.
    fn of(
        c: &Contact,
        (a, b): (&Body, &Body),
        (place, change): (usize, u8),
        colliders: &TaggedMap<ColliderKey, Collider>,
        hit_threshold: Real,
    ) -> Self {
        let flag = |on: bool, bit: u16| if on { bit } else { 0 };
        let touching_changed = change & TOUCHING_CHANGED != 0;
        let dynamic = a.kind == BodyKind::Dynamic && b.kind == BodyKind::Dynamic;
        let a_is_sensor = c.sensor && colliders.get(c.collider_a()).is_some_and(|x| x.sensor);
        let asleep = |b: &Body| change & WAKES != 0 && !b.awake && b.kind != BodyKind::Fixed;
        let hit = touching_changed
            && c.touching
            && !c.sensor
            && ContactHitEvent::of(c, a, b, hit_threshold).is_some();
        let flags = flag(touching_changed, u16::from(TOUCHING_CHANGED))
            | flag(c.touching, u16::from(TOUCHING))
            | flag(c.sensor, u16::from(SENSOR))
            | flag(a_is_sensor, SENSOR_FIRST)
            | flag(touching_changed && !c.sensor && dynamic, LINKS)
            | flag(asleep(a), WAKE_A)
            | flag(asleep(b), WAKE_B)
            | flag(hit, HIT);
        Self { colliders: (c.collider_a, c.collider_b), place: place as u8, flags }
    }
}

/// One run of the refresh: its contacts, its part of the changes, and its
/// contacts' manifolds and summaries.
type RefreshRun<'a, 'c> = (
    (&'a mut [&'c mut Contact], &'a mut [ContactChange]),
    (&'a mut [SolverManifold], &'a mut [ContactSummary]),
);

/// What the narrow phase leaves of each contact for the rest of the step:
/// its bodies, whether it touches, and what its refresh changed. Written in
/// the parallel pass, while the contact is at hand, so that listing the
/// solver's constraints reads this dense array rather than every contact
/// again (each a few hundred bytes, one cache miss or more apiece).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContactSummary {
    /// The bodies, untagged (`keys.rs`), as there is a summary per contact.
    pub body_a: Untagged<BodyKey>,
    pub body_b: Untagged<BodyKey>,
    /// [`TOUCHING_CHANGED`], [`WAKES`], [`TOUCHING`], [`SENSOR`], [`MANIFOLD`],
    /// [`TWO_POINTS`].
    flags: u8,
}

impl ContactSummary {
    /// Contact `c`'s summary, with `flags` ([`MANIFOLD`], [`TOUCHING_CHANGED`],
    /// [`WAKES`]) added.
    fn of(c: &Contact, flags: u8) -> Self {
        let touching = if c.touching { TOUCHING } else { 0 };
        let sensor = if c.sensor { SENSOR } else { 0 };
        let two = if c.points.len() == 2 { TWO_POINTS } else { 0 };
        Self { body_a: c.body_a, body_b: c.body_b, flags: flags | touching | sensor | two }
    }

    /// What the refresh changed ([`TOUCHING_CHANGED`], [`WAKES`]), 0 if nothing.
    fn change(&self) -> u8 {
        self.flags & (TOUCHING_CHANGED | WAKES)
    }

    /// The contact touches (a sensor's included).
    pub fn touching(&self) -> bool {
        self.flags & TOUCHING != 0
    }

    /// The contact touches and is solid: the solver takes it if one of its
    /// bodies is awake.
    pub fn solid_touching(&self) -> bool {
        self.flags & (TOUCHING | SENSOR) == TOUCHING
    }

    /// The contact had two points when it was summarised (a manifold
    /// completed later may have another count: this only groups the solver's
    /// lanes).
    pub fn two_points(&self) -> bool {
        self.flags & TWO_POINTS != 0
    }

    /// The refresh wrote this contact's [`SolverManifold`]. A solid touching
    /// contact without one had no awake body when it was refreshed; it is
    /// solved only if one of its bodies was woken since.
    pub fn has_manifold(&self) -> bool {
        self.flags & MANIFOLD != 0
    }

    /// A summary of a contact between `body_a` and `body_b` with the given
    /// state (for tests of what reads summaries).
    #[cfg(test)]
    pub fn with_state(
        body_a: BodyKey,
        body_b: BodyKey,
        [touching, sensor, manifold, two]: [bool; 4],
    ) -> Self {
        let flag = |on: bool, bit: u8| if on { bit } else { 0 };
        let flags = flag(touching, TOUCHING)
            | flag(sensor, SENSOR)
            | flag(manifold, MANIFOLD)
            | flag(two, TWO_POINTS);
        Self { body_a: Untagged::of(body_a), body_b: Untagged::of(body_b), flags }
    }
}

/// One point of a [`SolverManifold`]: a row of eight numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub(crate) struct SolverPoint {
    /// From A's centre of mass to the point, world orientation.
    pub anchor_a: Vec2,
    /// From B's centre of mass to the point.
    pub anchor_b: Vec2,
    pub separation: Real,
    /// The accumulated impulses of the last step.
    pub normal_impulse: Real,
    pub tangent_impulse: Real,
    /// Where the contact bounces (restitution above zero), the normal
    /// velocity of B's material point relative to A's at the step's start,
    /// which restitution reverses; zero elsewhere. Kept here rather than in
    /// the solver's bundles, which every pass streams through the cache.
    pub approach: Real,
}

/// A touching contact as the solver reads it when preparing its constraint:
/// its normal, materials and points, with the points' anchors already turned
/// into the world's orientation about each body's centre of mass.
///
/// Computed by the narrow phase's parallel pass, while the contact and its
/// bodies are in the cache, into a dense array in key order: 96 bytes in f32,
/// where the contact is nearly twice that in a slot map, and the solver visits
/// its constraints colour by colour, out of key order.
///
/// Laid out as three rows of eight numbers (a header, then each point),
/// aligned to 32 bytes, so that the solver loads each row of a bundle's
/// manifolds as one SIMD row and turns the rows into lanes with a transpose
/// ([`Lanes::gather_rows`](crate::solver::lanes::Lanes::gather_rows)).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub(crate) struct SolverManifold {
    pub normal: Vec2,
    pub friction: Real,
    pub restitution: Real,
    /// How many of `points` are there, 1 or 2, held as a number so that the
    /// header is a row of numbers like the points.
    pub count: Real,
    /// The surface materials (conveyor belts and rolling resistance, see
    /// [`Contact`]'s fields of the same names) and last step's rolling
    /// impulse: zeros for most contacts, they fill the header's row of eight.
    pub tangent_speed: Real,
    pub rolling_resistance: Real,
    pub rolling_impulse: Real,
    /// The points; a second one absent is all zeros.
    pub points: [SolverPoint; 2],
}

// Three rows of eight numbers, read as such (`SolverManifold::row`).
const _: () = assert!(std::mem::size_of::<SolverManifold>() == 24 * std::mem::size_of::<Real>());
const _: () = assert!(std::mem::size_of::<SolverPoint>() == 8 * std::mem::size_of::<Real>());

impl SolverManifold {
    /// Contact `c`'s manifold for the solver, with `a` and `b` its bodies at
    /// their poses and velocities of the step's start.
    #[inline(always)]
    pub fn of(c: &Contact, a: &Body, b: &Body) -> Self {
        let mut points = [SolverPoint::default(); 2];
        for (out, p) in points.iter_mut().zip(&c.points) {
            let (anchor_a, anchor_b) = (
                a.pose.rotation * (p.local_a - a.local_center),
                b.pose.rotation * (p.local_b - b.local_center),
            );
            let approach = if c.restitution > 0.0 {
                c.normal.dot(&(b.velocity_at_arm(&anchor_b) - a.velocity_at_arm(&anchor_a)))
            } else {
                0.0
            };
            *out = SolverPoint {
                anchor_a,
                anchor_b,
                separation: p.separation,
                normal_impulse: p.normal_impulse,
                tangent_impulse: p.tangent_impulse,
                approach,
            };
        }
        Self {
            normal: c.normal,
            friction: c.friction,
            restitution: c.restitution,
            count: c.points.len() as Real,
            tangent_speed: c.tangent_speed,
            rolling_resistance: c.rolling_resistance,
            rolling_impulse: c.rolling_impulse,
            points,
        }
    }

    /// Row `r` of the manifold as eight numbers: 0 is the header (normal x
    /// and y, friction, restitution, point count, tangent speed, rolling
    /// resistance, rolling impulse), 1 and 2 the
    /// points (anchor on A x and y, anchor on B x and y, separation, normal
    /// and tangent impulse, approach velocity).
    #[inline(always)]
    pub fn row(&self, r: usize) -> &[Real; 8] {
        let rows: *const [[Real; 8]; 3] = (self as *const SolverManifold).cast();
        // SAFETY: `SolverManifold` is `repr(C)` and made of 24 `Real`s with
        // no padding (asserted at compile time beside it), and `rows[r]` is
        // checked to be in bounds.
        unsafe { &(*rows)[r] }
    }
}

/// The narrow phase's buffers, kept from step to step.
#[derive(Default)]
pub(crate) struct NarrowPhase {
    /// The key of every contact (or, in a world mostly asleep, of every
    /// contact with an awake body), in key order, as of the last refresh
    /// (valid until contacts are made or destroyed, which the solver's
    /// listing of the same step precedes).
    pub keys: Vec<ContactKey>,
    /// What the last refresh left of each contact, in the same order.
    pub summaries: Vec<ContactSummary>,
    /// Each contact's manifold for the solver, in the same order; written
    /// where its summary [has one](ContactSummary::has_manifold), or by
    /// [`NarrowPhase::complete_manifolds`].
    pub manifolds: Vec<SolverManifold>,
    /// The contacts, in the same order, borrowed for one step's refresh: kept empty
    /// between steps as a buffer of pointer-sized elements (see [`recycle`]).
    borrowed: Vec<usize>,
    /// The contacts with an awake body after the wake-ups of a step that
    /// listed only those (scratch).
    relisted: Vec<ContactKey>,
    /// Dynamic pairs that began (true) or stopped touching.
    links: Vec<(Untagged<BodyKey>, Untagged<BodyKey>, bool)>,
    to_wake: Vec<Untagged<BodyKey>>,
    /// What the changed contacts of the last refresh ask of the serial
    /// pass: each run of [`NARROW_CHUNK`] contacts has [`CHANGE_ROOM`]
    /// places here, its first changes at their front.
    changes: Vec<ContactChange>,
    /// How many contacts of each run changed.
    change_counts: Vec<u32>,
}

impl NarrowPhase {
    /// Whether the last refresh had enough contacts to share them with the
    /// pool: the sign of a step worth sharing (see `world/step.rs`).
    pub(crate) fn had_contacts_to_share(&self) -> bool {
        self.keys.len() >= NARROW_PARALLEL_MIN
    }

    /// Writes the solver manifolds of the contacts at `places` (in the order
    /// of [`NarrowPhase::keys`]), which the refresh passed over: no body of
    /// theirs was awake then, and one was woken since.
    pub fn complete_manifolds(
        &mut self,
        places: &[u32],
        contacts: &SlotMap<ContactKey, Contact>,
        bodies: &TaggedMap<BodyKey, Body>,
    ) {
        for &at in places {
            let c = &contacts[self.keys[at as usize]];
            self.manifolds[at as usize] = SolverManifold::of(c, &bodies[c.body_a()], &bodies[c.body_b()]);
        }
    }

    /// Whether the solver manifold at each of `places` is what its contact
    /// and bodies give now: the promise the solver relies on, checked in
    /// debug builds after the manifolds are completed.
    pub fn manifolds_are_current(
        &self,
        places: &[u32],
        contacts: &SlotMap<ContactKey, Contact>,
        bodies: &TaggedMap<BodyKey, Body>,
    ) -> bool {
        // Compared bit for bit (a NaN velocity gives a NaN approach, equal
        // to itself only so), row by row, without allocating: this runs in
        // every step of a debug build, which the allocation test steps.
        let same = |a: &SolverManifold, b: &SolverManifold| {
            (0..3).all(|r| a.row(r).map(Real::to_bits) == b.row(r).map(Real::to_bits))
        };
        places.iter().all(|&at| {
            let c = &contacts[self.keys[at as usize]];
            same(
                &self.manifolds[at as usize],
                &SolverManifold::of(c, &bodies[c.body_a()], &bodies[c.body_b()]),
            )
        })
    }
}

/// The narrow phase of one step, with the parts of the world it reads and
/// changes: the contacts it refreshes, the bodies and colliders they are
/// computed from, the events it reports, the islands it links and wakes,
/// and the lists of what is awake.
pub(crate) struct NarrowPhaseStep<'w> {
    pub settings: &'w WorldSettings,
    pub bodies: &'w mut TaggedMap<BodyKey, Body>,
    pub colliders: &'w TaggedMap<ColliderKey, Collider>,
    pub contacts: &'w mut ContactSet,
    pub islands: &'w mut Islands,
    pub awake: &'w mut AwakeLists,
    pub events: &'w mut Events,
    pub narrow: &'w mut NarrowPhase,
    pub hooks: &'w Hooks,
    pub threads: Threads,
}

impl NarrowPhaseStep<'_> {
    /// Refreshes the manifold of every contact with an awake body, reports
    /// touching changes, and wakes sleeping bodies that something touches.
    ///
    /// The manifolds of the contacts with an awake body are computed in
    /// parallel, each contact from its own pair
    /// alone (impulses carried over included) and written in place, since
    /// no other contact's refresh reads it; each notes what changed. The rare
    /// changes (events, links, wake-ups) are then applied in a serial pass in
    /// key order, so the result does not depend on the thread count.
    pub(crate) fn update_contacts(&mut self) {
        self.awake.choose(self.islands, self.bodies.len());
        let mut keys = std::mem::take(&mut self.narrow.keys);
        let mut summaries = std::mem::take(&mut self.narrow.summaries);
        keys.clear();
        let mut borrowed: Vec<&mut Contact> = recycle(std::mem::take(&mut self.narrow.borrowed));
        if self.awake.few {
            self.awake.contacts(self.bodies, &mut keys);
            // The keys come from the bodies' lists, which hold live contacts
            // only; checked before any contact is borrowed.
            assert!(
                keys.iter().all(|&key| self.contacts.map().contains_key(key)),
                "a body lists a dead contact"
            );
            // SAFETY: every key is live (checked above) and listed once
            // (`KeySet`); the map is neither read nor changed until the
            // references are dropped, when `borrowed` is recycled below.
            unsafe { borrow_each(self.contacts.map_mut(), keys.iter().copied(), &mut borrowed) };
        } else {
            // Every contact is listed, and those without an awake body are
            // passed over in the parallel pass: telling them apart reads both
            // bodies, two cache misses a contact that a serial pass would pay
            // alone. The keys come from their dense mirror (`slot_keys.rs`),
            // not from a walk of the map's slots, which would touch every
            // contact on this thread first.
            let mirror = self.contacts.keys();
            assert_eq!(mirror.len(), self.contacts.len(), "the contact keys' mirror lost count");
            debug_assert!(mirror.agree_with(self.contacts.map()));
            mirror.extend_into(&mut keys);
            // SAFETY: the mirror holds each live key of the map once, in its
            // slot, and no other key (it is updated at every insertion into
            // and removal from the map, and its count is checked above); as
            // in the branch above, the map is left alone until `borrowed` is
            // recycled.
            unsafe { borrow_each(self.contacts.map_mut(), keys.iter().copied(), &mut borrowed) };
        }
        let (bodies, colliders, settings, hooks) = (&*self.bodies, self.colliders, self.settings, self.hooks);
        let mut manifolds = std::mem::take(&mut self.narrow.manifolds);
        let mut changes = std::mem::take(&mut self.narrow.changes);
        let mut change_counts = std::mem::take(&mut self.narrow.change_counts);
        let n = borrowed.len();
        manifolds.resize(n, SolverManifold::default());
        summaries.resize(n, ContactSummary::default());
        // Each run notes its first changes in a room of its own.
        changes.resize(n.div_ceil(NARROW_CHUNK) * CHANGE_ROOM, ContactChange::default());
        // Refreshes contact `c`, at `place` in its run, writing its manifold
        // and summary; its change, if any, goes to `changes[*changed]` while
        // the run's room lasts.
        let visit = |(place, c): (usize, &mut &mut Contact),
                     (manifold, summary): (&mut SolverManifold, &mut ContactSummary),
                     changes: &mut [ContactChange],
                     changed: &mut usize| {
            let (a, b) = (&bodies[c.body_a()], &bodies[c.body_b()]);
            if !(a.awake || b.awake) {
                *summary = ContactSummary::of(c, 0);
                return;
            }
            let change = refresh(c, a, b, (colliders, settings, hooks));
            let mut flags = 0;
            if c.touching && !c.sensor {
                *manifold = SolverManifold::of(c, a, b);
                flags |= MANIFOLD;
            }
            *summary = ContactSummary::of(c, flags | change);
            if change != 0 {
                if let Some(room) = changes.get_mut(*changed) {
                    let threshold = settings.hit_event_threshold;
                    *room = ContactChange::of(c, (a, b), (place, change), colliders, threshold);
                }
                *changed += 1;
            }
        };
        // Each task refreshes a run of contacts, writing their manifolds and
        // summaries in place and its first changes to its room in
        // `changes`, in a plain loop, and says how many changed.
        let run = |((contacts, changes), (manifolds, summaries)): RefreshRun<'_, '_>| {
            let mut changed = 0;
            for (c, out) in contacts.iter_mut().enumerate().zip(manifolds.iter_mut().zip(summaries)) {
                visit(c, out, changes, &mut changed);
            }
            changed as u32
        };
        let runs = borrowed.chunks_mut(NARROW_CHUNK).zip(changes.chunks_mut(CHANGE_ROOM));
        if !self.threads.share(n, NARROW_PARALLEL_MIN) {
            change_counts.clear();
            let runs = runs.zip(manifolds.chunks_mut(NARROW_CHUNK).zip(summaries.chunks_mut(NARROW_CHUNK)));
            change_counts.extend(runs.map(run));
        } else {
            borrowed
                .par_chunks_mut(NARROW_CHUNK)
                .zip(changes.par_chunks_mut(CHANGE_ROOM))
                .zip(manifolds.par_chunks_mut(NARROW_CHUNK).zip(summaries.par_chunks_mut(NARROW_CHUNK)))
                .map(run)
                .collect_into_vec(&mut change_counts);
        }
        self.narrow.manifolds = manifolds;
        self.narrow.borrowed = recycle(borrowed);

        let mut to_wake = std::mem::take(&mut self.narrow.to_wake);
        to_wake.clear();
        let mut links = std::mem::take(&mut self.narrow.links);
        links.clear();
        for (r, &count) in change_counts.iter().enumerate() {
            let first = r * NARROW_CHUNK;
            let run = (&keys[first..], &summaries[first..]);
            let noted = &changes[r * CHANGE_ROOM..][..(count as usize).min(CHANGE_ROOM)];
            for change in noted {
                self.apply_change(change, run, &mut links, &mut to_wake);
            }
            if count as usize > CHANGE_ROOM {
                // The run's changes past its room, noted again from their
                // contacts, as the parallel pass would have noted them.
                let places = 0..NARROW_CHUNK.min(keys.len() - first);
                let changed = places.filter(|&place| run.1[place].change() != 0).skip(CHANGE_ROOM);
                for place in changed {
                    let c = &self.contacts[run.0[place]];
                    let bodies = (&self.bodies[c.body_a()], &self.bodies[c.body_b()]);
                    let threshold = self.settings.hit_event_threshold;
                    let change = (place, run.1[place].change());
                    let change = ContactChange::of(c, bodies, change, self.colliders, threshold);
                    self.apply_change(&change, run, &mut links, &mut to_wake);
                }
            }
        }
        self.narrow.changes = changes;
        self.narrow.change_counts = change_counts;
        let tag = self.bodies.tag();
        for &key in &to_wake {
            self.islands.wake_body(self.bodies, key.in_world(tag));
        }
        // Islands follow the touching changes, after the wake-ups above.
        for &(a, b, touching) in &links {
            let (a, b) = (a.in_world(tag), b.in_world(tag));
            if touching {
                self.islands.link(self.bodies, a, b);
            } else {
                self.islands.unlink(self.bodies, a);
            }
        }
        // Only `to_wake` wakes an island here: a contact that starts touching
        // a sleeping body is in it, and the links that follow only merge
        // islands it has woken.
        let woke = !to_wake.is_empty();
        self.narrow.links = links;
        self.narrow.to_wake = to_wake;
        self.narrow.keys = keys;
        self.narrow.summaries = summaries;
        if self.awake.few && woke {
            self.list_contacts_woken();
        }
    }

    /// Applies what one contact's refresh changed (`change`, of the run
    /// whose keys and summaries are `run`), in key order with the others:
    /// its touching event, its hit event, and the island link and wake-ups
    /// it asks for, which `update_contacts` makes after every contact's
    /// events.
    fn apply_change(
        &mut self,
        change: &ContactChange,
        (keys, summaries): (&[ContactKey], &[ContactSummary]),
        links: &mut Vec<(Untagged<BodyKey>, Untagged<BodyKey>, bool)>,
        to_wake: &mut Vec<Untagged<BodyKey>>,
    ) {
        let flag = |bit: u16| change.flags & bit != 0;
        let touching = flag(u16::from(TOUCHING));
        let summary = &summaries[change.place as usize];
        let (a, b) = (summary.body_a, summary.body_b);
        if flag(LINKS) {
            links.push((a, b, touching));
        }
        for (body, wake) in [(a, WAKE_A), (b, WAKE_B)] {
            if flag(wake) {
                to_wake.push(body);
            }
        }
        if flag(u16::from(TOUCHING_CHANGED)) {
            let sensor = flag(u16::from(SENSOR)).then_some(flag(SENSOR_FIRST));
            let tag = self.colliders.tag();
            let colliders = (change.colliders.0.in_world(tag), change.colliders.1.in_world(tag));
            self.events.report_touching(colliders, sensor, touching);
        }
        if flag(HIT) {
            // Rare (a solid contact that began touching fast): its event is
            // made again from the contact and bodies, which nothing changed
            // since the refresh.
            let c = &self.contacts.map()[keys[change.place as usize]];
            let (ba, bb) = (&self.bodies[c.body_a()], &self.bodies[c.body_b()]);
            if let Some(hit) = ContactHitEvent::of(c, ba, bb, self.settings.hit_event_threshold) {
                self.events.hits.push(hit);
            }
        }
    }

    /// After the wake-ups of a step that listed only the contacts with an
    /// awake body: lists the awake bodies again, and adds the contacts that
    /// had no awake body when they were listed and have one now, each in its
    /// place in key order, with the summary the refresh leaves a contact it
    /// passes over. The listing of the solver's constraints then finds them
    /// as it finds them among every contact, and completes their manifolds.
    fn list_contacts_woken(&mut self) {
        self.awake.list_bodies(self.islands);
        let mut now = std::mem::take(&mut self.narrow.relisted);
        now.clear();
        self.awake.contacts(self.bodies, &mut now);
        let n = &mut *self.narrow;
        if now.len() == n.keys.len() {
            n.relisted = now;
            return; // every contact now awake was listed
        }
        let (keys, summaries, manifolds) = (&mut n.keys, &mut n.summaries, &mut n.manifolds);
        let old = keys.len();
        // Merged from the back, in place: the arrays grow to the new length
        // and each entry moves at most once.
        summaries.resize(now.len(), ContactSummary::default());
        manifolds.resize(now.len(), SolverManifold::default());
        let mut from = old;
        for to in (0..now.len()).rev() {
            if from > 0 && keys[from - 1] == now[to] {
                from -= 1;
                summaries[to] = summaries[from];
                manifolds[to] = manifolds[from];
            } else {
                summaries[to] = ContactSummary::of(&self.contacts[now[to]], 0);
            }
        }
        assert_eq!(from, 0, "a contact listed before is not listed now");
        std::mem::swap(keys, &mut now);
        n.relisted = now;
    }
}

/// Brings contact `c`'s manifold (or sensor overlap) up to the current poses
/// of its bodies `ba` and `bb`, in place.
fn update_manifold(
    c: &mut Contact,
    (ba, bb): (&Body, &Body),
    colliders: &TaggedMap<ColliderKey, Collider>,
    settings: &WorldSettings,
) {
    let (ca, cb) = (&colliders[c.collider_a()], &colliders[c.collider_b()]);
    // Each collider's bounds hold its shape grown by the speculative
    // distance: bounds apart mean shapes farther apart than that, with no
    // contact point and no overlap. Most pairs the broad phase keeps (its
    // fat boxes reach 2 cm further) end here, without a manifold. The frame
    // of a manifold without points is never read, and a record of shapes
    // found apart stays true whatever happens after it: either is left as
    // it is.
    if !ca.aabb.intersects(&cb.aabb) {
        if !c.sensor {
            c.normal = Vec2::zeros();
            c.points.clear();
        }
        c.touching = false;
        return;
    }
    // The shapes' poses are composed only when needed: a carried manifold
    // (most of a resting pile's) works from the bodies' poses alone.
    let shape_poses = || (ba.pose * ca.local_pose, bb.pose * cb.local_pose);
    if c.sensor {
        let (pose_a, pose_b) = shape_poses();
        c.touching = intersects(&ca.shape, &pose_a, &cb.shape, &pose_b);
        return;
    }
    let margin = settings.speculative_distance;
    // Shapes found apart by more than the margin, which have not moved
    // toward each other by the difference since, have a manifold with no
    // point still (most of a tumbling pile's pairs without points): the
    // empty manifold the record was made with stands.
    if c.stays_apart(ba, bb, margin) {
        debug_assert!(!c.touching && c.points.is_empty() && c.normal == Vec2::zeros());
        return;
    }
    let span = 2.0 * ba.extent.min(bb.extent);
    if c.carry_manifold(&ba.pose, &bb.pose, span, margin) {
        c.touching = true;
        return;
    }
    let (pose_a, pose_b) = shape_poses();
    // Points within the speculative distance let the solver stop an
    // approach before the shapes overlap; faster approaches are caught by
    // continuous collision (`continuous.rs`).
    let (m, gap) = contact_manifold_and_gap(&ca.shape, &pose_a, &cb.shape, &pose_b, margin, c.touching);
    let mut points = ArrayVec::new();
    for p in &m.points {
        points.push(ContactPointState {
            point: p.point,
            local_a: ca.local_pose * p.local_a,
            local_b: cb.local_pose * p.local_b,
            separation: p.separation,
            id: p.id,
            normal_impulse: 0.0,
            tangent_impulse: 0.0,
        });
    }
    c.carry_impulses(&mut points, settings.enable_warm_starting);
    // A manifold without points has no frame to keep; shapes found apart
    // by more than the margin keep the record of it in the frame's place.
    c.apart = points.is_empty() && gap > margin;
    c.computed_in = if c.apart {
        ManifoldFrame::apart(gap, &ba.pose, &bb.pose)
    } else {
        ManifoldFrame::new(&m.normal, &points, &ba.pose, &bb.pose)
    };
    c.normal = m.normal;
    c.points = points;
    c.touching = !c.points.is_empty();
}

/// Refreshes contact `c` (see [`update_manifold`]), asks the pre-solve hook
/// about it where it touches and opts in, and says what changed:
/// [`TOUCHING_CHANGED`], [`WAKES`], or nothing.
fn refresh(
    c: &mut Contact,
    a: &Body,
    b: &Body,
    (colliders, settings, hooks): (&TaggedMap<ColliderKey, Collider>, &WorldSettings, &Hooks),
) -> u8 {
    let was_touching = c.touching;
    update_manifold(c, (a, b), colliders, settings);
    if c.touching && c.pre_solve && !c.sensor && hooks.has_pre_solve() {
        ask_pre_solve(c, hooks);
    }
    if !c.touching {
        // The rolling impulse warm-starts the next touch only while this
        // one lasts: a ball that leaves the ground and lands again starts
        // its rolling row from rest, as the points' impulses do.
        c.rolling_impulse = 0.0;
    }
    let asleep = |b: &Body| !b.awake && b.kind != BodyKind::Fixed;
    let mut change = 0;
    if c.touching != was_touching {
        change |= TOUCHING_CHANGED;
    }
    if c.touching && !c.sensor && (asleep(a) || asleep(b)) {
        change |= WAKES;
    }
    change
}

/// Asks the pre-solve hook whether touching contact `c` is solved this
/// step; refused, it loses its points (and their impulses) and does not
/// touch, as Box2D's contact whose pre-solve returns false has none: no
/// constraint, no begin-touch event, no island link.
fn ask_pre_solve(c: &mut Contact, hooks: &Hooks) {
    let asked = PreSolve {
        collider_a: c.collider_a(),
        collider_b: c.collider_b(),
        body_a: c.body_a(),
        body_b: c.body_b(),
        normal: c.normal,
        points: &c.points,
        continuous: false,
    };
    if !hooks.solve_allowed(&asked) {
        c.points.clear();
        c.normal = Vec2::zeros();
        c.touching = false;
    }
}

#[cfg(test)]
mod tests;
