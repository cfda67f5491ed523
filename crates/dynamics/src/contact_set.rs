//! The world's contacts as one set: the map of [`Contact`]s with the mirrors
//! kept beside it (its keys by slot, its free slots' order, the lookup by
//! collider pair), and the contacts' lives: made when the broad phase reports
//! a pair that began, destroyed when it ends or one of its colliders goes.
//!
//! Making or destroying a contact touches more than the set: the bodies'
//! lists of contacts, the islands (a touching contact that goes wakes its
//! bodies and may split their island), the events, and what the joints allow.
//! Those parts come in as [`ContactParts`], so that a reader sees what a
//! contact's life can change.

use lamina_broadphase::PairEvent;
use lamina_geometry::Shape;
use rayon::prelude::*;
use slotmap::SlotMap;

use crate::body::{Body, BodyKind};
use crate::broad_phase::{BroadPhase, ProxyKey};
use crate::collider::Collider;
use crate::contact::{Contact, UNLISTED};
use crate::events::Events;
use crate::free_slots::FreeList;
use crate::hooks::Hooks;
use crate::island::Islands;
use crate::joint::{Joint, joint_forbids_contact};
use crate::pair_hash::ContactOfPair;
use crate::parallel::pace::Threads;
use crate::parallel::prefetch::prefetch;
use crate::slot_keys::SlotKeys;
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, ColliderKey, ContactKey, JointKey, WorldSettings};

/// From this many ended pairs on, a step that shares its work looks up
/// their contacts on the pool, in runs of half as many.
const ENDS_ON_POOL_FROM: usize = 512;

/// The parts of the world that a contact's making or destroying reads or
/// changes, besides the contacts themselves.
pub(crate) struct ContactParts<'w> {
    pub bodies: &'w mut TaggedMap<BodyKey, Body>,
    pub colliders: &'w TaggedMap<ColliderKey, Collider>,
    pub joints: &'w TaggedMap<JointKey, Joint>,
    pub islands: &'w mut Islands,
    pub events: &'w mut Events,
    pub settings: &'w WorldSettings,
    pub hooks: &'w Hooks,
}

/// Every contact of the world, with the mirrors of its map.
#[derive(Default)]
pub(crate) struct ContactSet {
    map: SlotMap<ContactKey, Contact>,
    /// The contacts' keys again, by slot, for the narrow phase's walk.
    keys: SlotKeys<ContactKey>,
    /// The order in which the map hands out its free slots (for snapshots).
    free: FreeList,
    /// Finds a pair's contact; never iterated, so its order cannot leak out.
    of_pair: ContactOfPair,
    /// Scratch kept to avoid allocating: the broad phase's events and the
    /// contact of each pair that ended (if it has one), for
    /// [`ContactSet::follow_pairs`], and the contacts to destroy, for it and
    /// the destructions of a collider's or a pair of bodies' contacts.
    pair_events: Vec<PairEvent<ProxyKey>>,
    ended: Vec<Option<ContactKey>>,
    doomed: Vec<ContactKey>,
}

impl Clone for ContactSet {
    /// The same contacts and mirrors; the scratch starts empty (it holds
    /// nothing from one step to the next).
    fn clone(&self) -> Self {
        Self {
            map: self.map.clone(),
            keys: self.keys.clone(),
            free: self.free.clone(),
            of_pair: self.of_pair.clone(),
            ..Self::default()
        }
    }
}

impl std::ops::Index<ContactKey> for ContactSet {
    type Output = Contact;

    #[inline]
    fn index(&self, key: ContactKey) -> &Contact {
        &self.map[key]
    }
}

impl std::ops::IndexMut<ContactKey> for ContactSet {
    #[inline]
    fn index_mut(&mut self, key: ContactKey) -> &mut Contact {
        &mut self.map[key]
    }
}

impl ContactSet {
    /// A set of the contacts of `map`, whose free slots are handed out in
    /// the order `free` gives and whose pairs `of_pair` finds (a snapshot's
    /// contacts, read back).
    #[cfg(feature = "serde")]
    pub(crate) fn from_parts(
        map: SlotMap<ContactKey, Contact>,
        free: FreeList,
        of_pair: ContactOfPair,
    ) -> Self {
        let keys = SlotKeys::of_keys(map.keys());
        Self { map, keys, free, of_pair, ..Self::default() }
    }

    /// The contacts.
    #[inline]
    pub(crate) fn map(&self) -> &SlotMap<ContactKey, Contact> {
        &self.map
    }

    /// The contacts, to change in place (their manifolds, impulses, places
    /// in their bodies' lists). Never to insert or remove one: that is the
    /// set's [`ContactSet::create`] and [`ContactSet::destroy`], which keep
    /// its mirrors.
    #[inline]
    pub(crate) fn map_mut(&mut self) -> &mut SlotMap<ContactKey, Contact> {
        &mut self.map
    }

    /// The contacts' keys by slot.
    #[inline]
    pub(crate) fn keys(&self) -> &SlotKeys<ContactKey> {
        &self.keys
    }

    /// The order in which the map hands out its free slots.
    #[cfg(feature = "serde")]
    pub(crate) fn free(&self) -> &FreeList {
        &self.free
    }

    /// The contact of the pair `(a, b)` (`a < b`), if it has one.
    #[inline]
    pub(crate) fn of_pair(&self, pair: (ColliderKey, ColliderKey)) -> Option<ContactKey> {
        self.of_pair.get(&(ProxyKey::of(pair.0), ProxyKey::of(pair.1))).copied()
    }

    /// How many contacts there are.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// Turns the broad phase's pair events into new and destroyed contacts.
    pub(crate) fn follow_pairs(
        &mut self,
        broad_phase: &mut BroadPhase,
        threads: Threads,
        parts: &mut ContactParts<'_>,
    ) {
        let mut events = std::mem::take(&mut self.pair_events);
        broad_phase.update_pairs(&mut events);
        // Every end comes before every beginning.
        let ends = events.partition_point(|event| matches!(event, PairEvent::End(..)));
        // The contacts of the pairs that ended: each a probe of the pair map
        // and a cache miss or two, which a fast crowd pays a few thousand
        // times a step; on the pool when there are many.
        let mut ended = std::mem::take(&mut self.ended);
        let of_pair = &self.of_pair;
        let lookup = |event: &PairEvent<ProxyKey>| match *event {
            PairEvent::End(a, b) => of_pair.get(&(a, b)).copied(),
            PairEvent::Begin(..) => None,
        };
        if threads.share(ends, ENDS_ON_POOL_FROM) {
            events[..ends]
                .par_iter()
                .with_min_len(ENDS_ON_POOL_FROM / 2)
                .map(lookup)
                .collect_into_vec(&mut ended);
        } else {
            ended.clear();
            ended.extend(events[..ends].iter().map(lookup));
        }
        let mut doomed = std::mem::take(&mut self.doomed);
        doomed.clear();
        doomed.extend(ended.iter().flatten());
        self.ended = ended;
        self.destroy_in_order(&doomed, parts);
        self.doomed = doomed;
        for event in &events[ends..] {
            if let PairEvent::Begin(a, b) = *event {
                let tag = parts.colliders.tag();
                self.create((a.in_world(tag), b.in_world(tag)), parts);
            }
        }
        self.pair_events = events;
    }

    /// Destroys the contacts `doomed` (live, each listed once) in order, as
    /// [`ContactSet::destroy`] does one by one. A fast crowd ends a few
    /// thousand contacts a step, each touching records all over memory (the
    /// contact, its two bodies, their lists of contacts, and the contacts
    /// that move into its places in those lists, which learn their new
    /// places): the records of the contacts a few places ahead are asked
    /// for early ([`prefetch`]), in stages, each stage reading what the one
    /// before brought in, so that the waits overlap. The moved contacts
    /// were most of the wait before they were asked for too (spinner, one
    /// thread: 365 µs a step, now 260).
    fn destroy_in_order(&mut self, doomed: &[ContactKey], parts: &mut ContactParts<'_>) {
        /// Contacts between two stages.
        const AHEAD: usize = 8;
        for (i, &key) in doomed.iter().enumerate() {
            if let Some(&far) = doomed.get(i + 2 * AHEAD) {
                // SAFETY: the contacts of `doomed` are live, and this loop
                // destroys only the one at hand: `far`, further on, is
                // still live, as `get_unchecked` requires.
                prefetch(unsafe { self.map.get_unchecked(far) });
            }
            if let Some(c) = doomed.get(i + AHEAD).and_then(|&near| self.map.get(near)) {
                for body in [c.body_a(), c.body_b()] {
                    // SAFETY: a contact's bodies are live (removing a body
                    // destroys its contacts first), as `get_unchecked`
                    // requires.
                    prefetch(unsafe { parts.bodies.raw().get_unchecked(body) });
                }
            }
            if let Some(c) = doomed.get(i + AHEAD / 2).and_then(|&next| self.map.get(next)) {
                for (body, at) in [c.body_a(), c.body_b()].into_iter().zip(c.listed_at) {
                    let Some(list) = parts.bodies.get(body).map(|b| &b.contacts) else { continue };
                    // Its place, and the last place, whose contact moves into it.
                    if let (Some(slot), Some(last)) = (list.get(at as usize), list.last()) {
                        prefetch(slot);
                        prefetch(last);
                    }
                }
            }
            if let Some(c) = doomed.get(i + AHEAD / 4).and_then(|&next| self.map.get(next)) {
                for body in [c.body_a(), c.body_b()] {
                    // The contact that will move into its place in the
                    // body's list, whose record learns its new place (the
                    // list may change before then: only a hint).
                    if let Some(&last) = parts.bodies.get(body).and_then(|b| b.contacts.last()) {
                        // SAFETY: a body lists live contacts only, as
                        // `get_unchecked` requires.
                        prefetch(unsafe { self.map.get_unchecked(last) });
                    }
                }
            }
            self.destroy(key, parts);
        }
    }

    /// A contact for a new pair `a < b`, if the two colliders may touch.
    pub(crate) fn create(&mut self, (a, b): (ColliderKey, ColliderKey), parts: &mut ContactParts<'_>) {
        let (Some(ca), Some(cb)) = (parts.colliders.get(a), parts.colliders.get(b)) else { return };
        if ca.body == cb.body || !ca.filter.should_collide(&cb.filter) || (ca.sensor && cb.sensor) {
            return;
        }
        // Chain segments have no inside: two of them never touch.
        if matches!((&ca.shape, &cb.shape), (Shape::ChainSegment(_), Shape::ChainSegment(_))) {
            return;
        }
        let (kind_a, kind_b) = (parts.bodies[ca.body].kind, parts.bodies[cb.body].kind);
        let sensor = ca.sensor || cb.sensor;
        if !sensor && kind_a != BodyKind::Dynamic && kind_b != BodyKind::Dynamic {
            return; // fixed and kinematic bodies do not push each other
        }
        if !sensor && joint_forbids_contact(parts.bodies, parts.joints, ca.body, cb.body) {
            return;
        }
        if !parts.hooks.pair_allowed(ca, cb) {
            return;
        }
        let contact = Contact {
            friction: parts.hooks.friction(
                ca,
                cb,
                parts.settings.friction_mixing.mix(ca.friction, cb.friction),
            ),
            restitution: parts.hooks.restitution(
                ca,
                cb,
                parts.settings.restitution_mixing.mix(ca.restitution, cb.restitution),
            ),
            tangent_speed: ca.tangent_speed + cb.tangent_speed,
            rolling_resistance: rolling_lever(ca, cb),
            pre_solve: ca.pre_solve || cb.pre_solve,
            sensor,
            ..Contact::between(a, b, ca.body, cb.body)
        };
        let (body_a, body_b) = (ca.body, cb.body);
        let key = self.map.insert(contact);
        self.free.inserted(key);
        self.keys.inserted(key);
        self.of_pair.insert((ProxyKey::of(a), ProxyKey::of(b)), key);
        let mut listed_at = [UNLISTED; 2];
        for (at, body) in listed_at.iter_mut().zip([body_a, body_b]) {
            let list = &mut parts.bodies[body].contacts;
            *at = list.len() as u32;
            list.push(key);
        }
        self.map[key].listed_at = listed_at;
    }

    /// Destroys a contact, reporting its end if it touched, and wakes both bodies.
    pub(crate) fn destroy(&mut self, key: ContactKey, parts: &mut ContactParts<'_>) {
        let Some(c) = self.map.remove(key) else { return };
        self.free.removed(key);
        self.keys.removed(key);
        self.of_pair.remove(&(c.collider_a, c.collider_b));
        for (body, at) in [c.body_a(), c.body_b()].into_iter().zip(c.listed_at) {
            self.unlist(parts.bodies, body, key, at as usize);
        }
        if c.touching {
            let sensor = c.sensor.then(|| parts.colliders.get(c.collider_a()).is_some_and(|x| x.sensor));
            parts.events.report_touching((c.collider_a(), c.collider_b()), sensor, false);
            parts.islands.wake_body(parts.bodies, c.body_a());
            parts.islands.wake_body(parts.bodies, c.body_b());
            if !c.sensor {
                parts.islands.unlink(parts.bodies, c.body_a());
            }
        }
    }

    /// Takes contact `key`, listed at position `at`, out of `body`'s contact
    /// list by moving the last one into its place, and tells the moved
    /// contact where it now stands.
    fn unlist(&mut self, bodies: &mut TaggedMap<BodyKey, Body>, body: BodyKey, key: ContactKey, at: usize) {
        let Some(list) = bodies.get_mut(body).map(|b| &mut b.contacts) else { return };
        let at = if list.get(at) == Some(&key) {
            at
        } else {
            // Never while the positions are kept (creation, destruction and
            // restore keep them); searched for rather than left dangling.
            debug_assert!(false, "contact {key:?} not where it was listed");
            match list.iter().position(|&k| k == key) {
                Some(at) => at,
                None => return,
            }
        };
        list.swap_remove(at);
        let Some(&moved) = list.get(at) else { return };
        let m = &mut self.map[moved];
        let side = usize::from(m.body_a() != body);
        m.listed_at[side] = at as u32;
    }

    /// Destroys the contacts of collider `key`.
    pub(crate) fn destroy_of_collider(&mut self, key: ColliderKey, parts: &mut ContactParts<'_>) {
        let body = parts.colliders[key].body;
        let mut doomed = std::mem::take(&mut self.doomed);
        doomed.clear();
        doomed.extend(parts.bodies[body].contacts.iter().copied().filter(|&k| {
            let c = &self.map[k];
            c.collider_a() == key || c.collider_b() == key
        }));
        for &contact in &doomed {
            self.destroy(contact, parts);
        }
        self.doomed = doomed;
    }

    /// Destroys the solid contacts between bodies `a` and `b` (sensors stay).
    pub(crate) fn destroy_between(&mut self, a: BodyKey, b: BodyKey, parts: &mut ContactParts<'_>) {
        let mut doomed = std::mem::take(&mut self.doomed);
        doomed.clear();
        doomed.extend(parts.bodies[a].contacts.iter().copied().filter(|&k| {
            let c = &self.map[k];
            !c.sensor && (c.body_a() == b || c.body_b() == b)
        }));
        for &contact in &doomed {
            self.destroy(contact, parts);
        }
        self.doomed = doomed;
    }

    /// Creates the contacts between bodies `a` and `b` whose colliders' fat
    /// boxes overlap in `broad_phase` but have none (a joint that kept them
    /// apart was removed).
    pub(crate) fn create_between(
        &mut self,
        a: BodyKey,
        b: BodyKey,
        broad_phase: &BroadPhase,
        parts: &mut ContactParts<'_>,
    ) {
        let (Some(ba), Some(bb)) = (parts.bodies.get(a), parts.bodies.get(b)) else { return };
        let pairs: Vec<(ColliderKey, ColliderKey)> = ba
            .colliders
            .iter()
            .flat_map(|&ca| bb.colliders.iter().map(move |&cb| if ca < cb { (ca, cb) } else { (cb, ca) }))
            .filter(|&(x, y)| {
                broad_phase.contains_pair(x, y)
                    && !self.of_pair.contains_key(&(ProxyKey::of(x), ProxyKey::of(y)))
            })
            .collect();
        for pair in pairs {
            self.create(pair, parts);
        }
    }
}

/// The rolling resistance's lever of a contact between colliders `a` and
/// `b`: the larger resistance times the larger rolling radius, as Box2D
/// mixes them (a ball on the ground rolls against its own resistance, at its
/// own radius), zero when neither resists.
fn rolling_lever(a: &Collider, b: &Collider) -> lamina_geometry::Real {
    let resistance = a.rolling_resistance.max(b.rolling_resistance);
    if resistance > 0.0 { resistance * a.rolling_radius().max(b.rolling_radius()) } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use lamina_geometry::{Real, Shape, Vec2};

    use crate::{BodyDesc, BodyKey, ColliderDesc, ContactEvent, World, WorldSettings};

    /// 120 weightless stacks of three boxes, every other one thrown apart at
    /// once: some 120 touching contacts end in one step, far more
    /// than the stages of `ContactSet::destroy_in_order` look ahead.
    /// After it, the oracle is the world's own bookkeeping, checked whole:
    /// each body's list holds exactly the live contacts that name it, each
    /// at the place the contact notes, the lookup by pair holds every live
    /// contact and no other, and an end was reported for every touching
    /// contact that went, and none for those that stayed.
    #[test]
    fn contacts_ended_together_leave_every_list_whole() {
        let mut w = World::new(WorldSettings { gravity: Vec2::zeros(), ..WorldSettings::default() });
        let mut stacks = Vec::new();
        for s in 0..120 {
            let stack: Vec<BodyKey> = (0..3)
                .map(|k| {
                    let desc = BodyDesc::dynamic().translation(3.0 * s as Real, 1.0 * k as Real);
                    let b = w.add_body(desc);
                    w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
                    b
                })
                .collect();
            stacks.push(stack);
        }
        w.step(1.0 / 60.0).unwrap();
        let touching_in = |w: &World, stack: &[BodyKey]| {
            w.contacts.map.values().filter(|c| c.touching && stack.contains(&c.body_a())).count()
        };
        let thrown: usize = stacks.iter().step_by(2).map(|stack| touching_in(&w, stack)).sum();
        let kept: usize = stacks.iter().skip(1).step_by(2).map(|stack| touching_in(&w, stack)).sum();
        assert!(thrown >= 100 && kept >= 100, "{thrown} and {kept} touching contacts");
        for stack in stacks.iter().step_by(2) {
            for (k, &b) in stack.iter().enumerate() {
                // The top box up, the bottom one down, the middle one still.
                let v = Vec2::new(0.0, 200.0 * (k as Real - 1.0));
                w.body_mut(b).unwrap().set_linear_velocity(v).unwrap();
            }
        }
        w.step(1.0 / 60.0).unwrap();
        w.step(1.0 / 60.0).unwrap();
        let ends = w.contact_events().iter().filter(|e| matches!(e, ContactEvent::End { .. })).count();
        assert_eq!(ends, thrown, "an end for every touching contact of the thrown stacks");
        for stack in stacks.iter().step_by(2) {
            assert!(
                w.contacts.map.values().all(|c| !stack.contains(&c.body_a()) && !stack.contains(&c.body_b()))
            );
        }
        assert_eq!(stacks.iter().skip(1).step_by(2).map(|stack| touching_in(&w, stack)).sum::<usize>(), kept);
        assert_eq!(w.contacts.of_pair.len(), w.contacts.len());
        for (key, c) in &w.contacts.map {
            assert_eq!(w.contacts.of_pair((c.collider_a(), c.collider_b())), Some(key));
            for (body, at) in [c.body_a(), c.body_b()].into_iter().zip(c.listed_at) {
                assert_eq!(
                    w.bodies[body].contacts.get(at as usize),
                    Some(&key),
                    "{key:?} in its body's list"
                );
            }
        }
        let listed: usize = w.bodies.values().map(|b| b.contacts.len()).sum();
        assert_eq!(listed, 2 * w.contacts.len(), "each body lists only its live contacts");
    }
}
