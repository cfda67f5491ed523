//! Persistent islands, for sleep.
//!
//! An island is a set of movable bodies linked by touching contacts and by
//! joints. Every
//! dynamic or kinematic body is in exactly one island from the moment it is
//! added; fixed bodies are in none (they never link two bodies into one island,
//! so one ground does not make the whole world a single island). Islands are kept
//! from step to step:
//!
//! - a contact between two dynamic bodies that starts touching, or a joint
//!   between two movable bodies, **merges** their islands (the smaller one's
//!   bodies move into the larger);
//! - a contact that stops touching, or a joint removed, only marks its island
//!   as possibly split (**lazily**): finding the pieces costs a pass over the
//!   members' contacts and joints, so it is done only when the island is about
//!   to fall asleep;
//! - an island whose bodies have all rested for the sleep time **sleeps** as a
//!   whole (split first, if marked, so that each piece sleeps and wakes on its
//!   own), costs nothing per step, and **wakes** as a whole when something touches
//!   or moves one of its bodies, or a body it rests on is removed.

use lamina_geometry::{Real, Vec2};
use slotmap::SlotMap;

use crate::body::{Body, BodyKind, NO_INDEX};
use crate::contact::Contact;
use crate::joint::Joint;
use crate::keys::Untagged;
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, ContactKey, JointKey, WorldTag};

/// One island: its bodies, whether it is awake, and whether it may have split.
#[derive(Clone, Debug, Default)]
struct Island {
    /// Untagged (`keys.rs`): the islands list every movable body once more.
    members: Vec<Untagged<BodyKey>>,
    awake: bool,
    /// A contact inside the island stopped touching since it was last split.
    maybe_split: bool,
}

/// Every island, with the scratch used to split them.
#[derive(Default)]
pub(crate) struct Islands {
    /// The world's tag, which the members, kept untagged, are handed out with.
    tag: WorldTag,
    /// Islands by id; an island with no members is a free slot.
    slots: Vec<Island>,
    free: Vec<u32>,
    /// Bit `id % 64` of word `id / 64` is set while island `id` is awake:
    /// the awake islands in id order, found without visiting the sleeping
    /// ones (a world of ten thousand sleeping islands would otherwise walk
    /// them all in every step). Kept with `Island::awake` by `set_awake`.
    awake_bits: Vec<u64>,
    parent: Vec<u32>,
    groups: Vec<(u32, u32)>,
    members: Vec<Untagged<BodyKey>>,
    /// The islands the last split produced.
    pieces: Vec<u32>,
}

impl Clone for Islands {
    /// The islands and their free slots; the scratch starts empty.
    fn clone(&self) -> Self {
        Self {
            slots: self.slots.clone(),
            free: self.free.clone(),
            awake_bits: self.awake_bits.clone(),
            ..Self::new(self.tag)
        }
    }
}

impl Islands {
    /// No islands, in the world of `tag`.
    pub fn new(tag: WorldTag) -> Self {
        Self { tag, ..Self::default() }
    }

    /// That the islands and `bodies` agree both ways (for restored
    /// snapshots): every member is a body that names this island, listed
    /// once; every body that names an island is in range and listed there;
    /// every movable body has an island, and a fixed one none; a body is
    /// awake exactly when its island is, and holds a solver index only then;
    /// every free slot is an empty island, freed once. A step indexes islands
    /// by the bodies' ids and bodies by the members, so any disagreement
    /// would panic or corrupt a later step.
    #[cfg(feature = "serde")]
    pub fn check_members(&self, bodies: &TaggedMap<BodyKey, Body>) -> Result<(), String> {
        let mut listed = slotmap::SecondaryMap::<BodyKey, ()>::with_capacity(bodies.len());
        for (id, island) in self.slots.iter().enumerate() {
            for &k in &island.members {
                let k = k.in_world(self.tag);
                let Some(body) = bodies.get(k) else {
                    return Err(format!("island {id} lists a missing body {k:?}"));
                };
                if body.island as usize != id {
                    return Err(format!("island {id} lists body {k:?}, which names island {}", body.island));
                }
                if listed.insert(k, ()).is_some() {
                    return Err(format!("body {k:?} is listed twice"));
                }
            }
        }
        if let Some((k, b)) = bodies.iter().find(|(k, b)| b.island != NO_INDEX && !listed.contains_key(*k)) {
            return Err(format!("body {k:?} names island {}, which does not list it", b.island));
        }
        // A step finds the awake bodies through their islands when few are
        // awake, and trusts that the others hold no solver index.
        for (k, b) in bodies.iter() {
            let movable = b.kind != BodyKind::Fixed;
            if movable != (b.island != NO_INDEX) {
                return Err(format!("body {k:?} is {:?} and names island {}", b.kind, b.island));
            }
            let island_awake = movable && self.slots[b.island as usize].awake;
            if b.awake != island_awake {
                return Err(format!("body {k:?} is awake: {}, its island: {island_awake}", b.awake));
            }
            if !b.awake && b.solver_index != NO_INDEX {
                return Err(format!("body {k:?} is not awake but holds solver index {}", b.solver_index));
            }
        }
        let mut freed = vec![false; self.slots.len()];
        for &id in &self.free {
            let slot =
                freed.get_mut(id as usize).ok_or_else(|| format!("free island {id} is out of range"))?;
            if *slot || !self.slots[id as usize].members.is_empty() {
                return Err(format!("free island {id} is freed twice or has members"));
            }
            *slot = true;
        }
        Ok(())
    }

    /// Every island (a free slot has no members) as a snapshot writes it:
    /// its members, whether it is awake, and whether it may have split.
    #[cfg(feature = "serde")]
    pub fn parts(&self) -> impl Iterator<Item = (&[Untagged<BodyKey>], bool, bool)> {
        self.slots.iter().map(|island| (island.members.as_slice(), island.awake, island.maybe_split))
    }

    /// The free island slots, the next to be reused last.
    #[cfg(feature = "serde")]
    pub fn free(&self) -> &[u32] {
        &self.free
    }

    /// The islands [`Islands::parts`] and [`Islands::free`] gave.
    #[cfg(feature = "serde")]
    pub fn from_parts(
        parts: impl Iterator<Item = (Vec<Untagged<BodyKey>>, bool, bool)>,
        free: Vec<u32>,
        tag: WorldTag,
    ) -> Self {
        let mut islands = Self { free, ..Self::new(tag) };
        for (id, (members, awake, maybe_split)) in parts.enumerate() {
            islands.slots.push(Island { members, awake: false, maybe_split });
            islands.set_awake(id as u32, awake);
        }
        islands
    }

    /// How many bodies the awake islands hold.
    pub fn awake_body_count(&self) -> usize {
        self.awake_ids().map(|id| self.slots[id as usize].members.len()).sum()
    }

    /// The members of every awake island, island by island.
    pub fn awake_members(&self) -> impl Iterator<Item = BodyKey> + '_ {
        let tag = self.tag;
        self.awake_ids()
            .flat_map(move |id| self.slots[id as usize].members.iter().map(move |m| m.in_world(tag)))
    }

    /// The awake islands, in id order.
    fn awake_ids(&self) -> impl Iterator<Item = u32> + '_ {
        let end = self.slots.len() as u32;
        let mut next = self.next_awake(0, end);
        std::iter::from_fn(move || {
            let id = next?;
            next = self.next_awake(id + 1, end);
            Some(id)
        })
    }

    /// The first awake island at `from` or after, below `end`.
    fn next_awake(&self, from: u32, end: u32) -> Option<u32> {
        let mut w = from as usize / 64;
        let mut bits = self.awake_bits.get(w)? & (!0u64 << (from % 64));
        loop {
            if bits != 0 {
                let id = (w * 64) as u32 + bits.trailing_zeros();
                return (id < end).then_some(id);
            }
            w += 1;
            bits = *self.awake_bits.get(w)?;
        }
    }

    /// Marks island `id` awake or asleep.
    fn set_awake(&mut self, id: u32, awake: bool) {
        self.slots[id as usize].awake = awake;
        let (w, bit) = (id as usize / 64, 1u64 << (id % 64));
        if w >= self.awake_bits.len() {
            self.awake_bits.resize(w + 1, 0);
        }
        if awake {
            self.awake_bits[w] |= bit;
        } else {
            self.awake_bits[w] &= !bit;
        }
    }

    /// Puts a new movable body in an island of its own.
    pub fn add_body(&mut self, bodies: &mut TaggedMap<BodyKey, Body>, key: BodyKey) {
        if bodies[key].kind == BodyKind::Fixed {
            return;
        }
        let awake = bodies[key].awake;
        let id = self.new_island(awake);
        self.slots[id as usize].members.push(Untagged::of(key));
        bodies[key].island = id;
    }

    /// Takes a body that is being removed out of its island. The island is woken
    /// first by the caller; it may now be in pieces.
    pub fn remove_body(&mut self, bodies: &mut TaggedMap<BodyKey, Body>, key: BodyKey) {
        let id = bodies[key].island;
        if id == NO_INDEX {
            return;
        }
        let island = &mut self.slots[id as usize];
        island.members.retain(|&m| m != Untagged::of(key));
        island.maybe_split = true;
        if island.members.is_empty() {
            self.release(id);
        }
        bodies[key].island = NO_INDEX;
    }

    /// Two dynamic bodies started touching, or two movable bodies were
    /// jointed: one island from now on.
    pub fn link(&mut self, bodies: &mut TaggedMap<BodyKey, Body>, a: BodyKey, b: BodyKey) {
        self.wake(bodies, a);
        self.wake(bodies, b);
        let (ia, ib) = (bodies[a].island, bodies[b].island);
        if ia == NO_INDEX || ib == NO_INDEX || ia == ib {
            return;
        }
        // The larger island absorbs the smaller (ties: the lower id), so the
        // work is proportional to the smaller and the result is deterministic.
        let (la, lb) = (self.slots[ia as usize].members.len(), self.slots[ib as usize].members.len());
        let (keep, gone) = if la > lb || (la == lb && ia < ib) { (ia, ib) } else { (ib, ia) };
        let moved = std::mem::take(&mut self.slots[gone as usize].members);
        for &m in &moved {
            bodies[m].island = keep;
        }
        let gone_split = self.slots[gone as usize].maybe_split;
        let island = &mut self.slots[keep as usize];
        island.members.extend_from_slice(&moved);
        island.maybe_split |= gone_split;
        self.set_awake(keep, true);
        self.slots[gone as usize].members = moved;
        self.slots[gone as usize].members.clear();
        self.release(gone);
    }

    /// Two bodies stopped touching or lost a joint: their island may have come apart.
    pub fn unlink(&mut self, bodies: &TaggedMap<BodyKey, Body>, a: BodyKey) {
        if let Some(id) = bodies.get(a).map(|b| b.island).filter(|&id| id != NO_INDEX) {
            self.slots[id as usize].maybe_split = true;
        }
    }

    /// Wakes body `key` (a stale key or a fixed body is let be) with its
    /// island.
    pub fn wake_body(&mut self, bodies: &mut TaggedMap<BodyKey, Body>, key: BodyKey) {
        if let Some(b) = bodies.get(key)
            && !b.awake
            && b.kind != BodyKind::Fixed
        {
            self.wake(bodies, key);
        }
    }

    /// Wakes the bodies of `bodies` that asked to be woken (changed by the
    /// user since the last step), gathered first in `scratch`.
    pub fn wake_requested(&mut self, bodies: &mut TaggedMap<BodyKey, Body>, scratch: &mut Vec<BodyKey>) {
        scratch.clear();
        scratch.extend(bodies.iter().filter(|(_, b)| b.wake_requested).map(|(k, _)| k));
        for &key in scratch.iter() {
            bodies[key].wake_requested = false;
            self.wake_body(bodies, key);
        }
    }

    /// Wakes the bodies of the joints of `joints` changed since the last
    /// step, gathered first in `scratch`.
    pub fn wake_changed_joints(
        &mut self,
        bodies: &mut TaggedMap<BodyKey, Body>,
        joints: &mut TaggedMap<JointKey, Joint>,
        scratch: &mut Vec<BodyKey>,
    ) {
        scratch.clear();
        for j in joints.values_mut().filter(|j| j.wake_requested) {
            j.wake_requested = false;
            scratch.extend([j.desc.body_a, j.desc.body_b]);
        }
        for &body in scratch.iter() {
            self.wake_body(bodies, body);
        }
    }

    /// Wakes the island of `key`.
    pub fn wake(&mut self, bodies: &mut TaggedMap<BodyKey, Body>, key: BodyKey) {
        let id = bodies[key].island;
        if id == NO_INDEX {
            return;
        }
        if self.slots[id as usize].awake {
            return;
        }
        self.set_awake(id, true);
        for &m in &self.slots[id as usize].members {
            let b = &mut bodies[m];
            b.awake = true;
            b.sleep_time = 0.0;
            b.wake_requested = false;
        }
    }

    /// Puts to sleep every awake island whose bodies have all rested for
    /// `time_to_sleep`, splitting it first if it may have come apart. Runs after
    /// the solver, while awake bodies still hold their solver indices.
    pub fn sleep_resting(
        &mut self,
        bodies: &mut TaggedMap<BodyKey, Body>,
        contacts: &SlotMap<ContactKey, Contact>,
        joints: &TaggedMap<JointKey, Joint>,
        body_count: usize,
        time_to_sleep: Real,
    ) {
        let rested = |b: &Body| b.can_sleep && b.sleep_time >= time_to_sleep && b.solver_index != NO_INDEX;
        // The islands there are now, awake when reached (a split may wake a
        // free slot further on), in id order.
        let end = self.slots.len() as u32;
        let mut from = 0;
        while let Some(id) = self.next_awake(from, end) {
            from = id + 1;
            let island = &self.slots[id as usize];
            if island.members.is_empty() {
                continue;
            }
            // A marked island is split as soon as some of it rests, so that a
            // piece at rest can sleep while another piece still moves.
            if island.maybe_split && island.members.iter().any(|&m| rested(&bodies[m])) {
                self.split(id, bodies, contacts, joints, body_count);
                for k in 0..self.pieces.len() {
                    let piece = self.pieces[k];
                    if self.slots[piece as usize].members.iter().all(|&m| rested(&bodies[m])) {
                        self.put_to_sleep(piece, bodies);
                    }
                }
            } else if island.members.iter().all(|&m| rested(&bodies[m])) {
                self.put_to_sleep(id, bodies);
            }
        }
    }

    /// Finds the pieces of island `id` by union–find over its members' touching
    /// contacts and joints,
    /// keeps the first piece in `id` and gives the others new (awake) islands;
    /// all of them are listed in `pieces`.
    fn split(
        &mut self,
        id: u32,
        bodies: &mut TaggedMap<BodyKey, Body>,
        contacts: &SlotMap<ContactKey, Contact>,
        joints: &TaggedMap<JointKey, Joint>,
        body_count: usize,
    ) {
        let mut members = std::mem::take(&mut self.slots[id as usize].members);
        self.parent.clear();
        self.parent.resize(body_count, NO_INDEX);
        for &m in &members {
            let i = bodies[m].solver_index;
            self.parent[i as usize] = i;
        }
        for &m in &members {
            let m = m.in_world(self.tag);
            let body = &bodies[m];
            let touching = body.contacts.iter().map(|&k| &contacts[k]).filter(|c| c.touching && !c.sensor);
            for c in touching {
                let other = &bodies[if c.body_a() == m { c.body_b() } else { c.body_a() }];
                if other.island == id && body.kind == BodyKind::Dynamic && other.kind == BodyKind::Dynamic {
                    self.union(body.solver_index, other.solver_index);
                }
            }
            for j in body.joints.iter().map(|&k| &joints[k]) {
                let other = if j.desc.body_a == m { j.desc.body_b } else { j.desc.body_a };
                if let Some(other) = bodies.get(other).filter(|o| o.island == id) {
                    self.union(body.solver_index, other.solver_index);
                }
            }
        }
        self.groups.clear();
        for (k, &m) in members.iter().enumerate() {
            let root = self.find(bodies[m].solver_index);
            self.groups.push((root, k as u32));
        }
        self.groups.sort_by_key(|&(root, k)| (root, k));
        self.pieces.clear();
        let mut start = 0;
        let mut first = true;
        while start < self.groups.len() {
            let root = self.groups[start].0;
            let end = start + self.groups[start..].iter().take_while(|(r, _)| *r == root).count();
            self.members.clear();
            self.members.extend(self.groups[start..end].iter().map(|&(_, k)| members[k as usize]));
            let piece = if first { id } else { self.new_island(true) };
            first = false;
            self.pieces.push(piece);
            let island = &mut self.slots[piece as usize];
            island.members.clear();
            island.members.extend_from_slice(&self.members);
            island.maybe_split = false;
            for &m in &self.members {
                bodies[m].island = piece;
            }
            start = end;
        }
        members.clear();
        // Keep the buffer's capacity for whoever needs it next.
        if self.slots[id as usize].members.is_empty() {
            self.slots[id as usize].members = members;
        }
    }

    fn put_to_sleep(&mut self, id: u32, bodies: &mut TaggedMap<BodyKey, Body>) {
        self.set_awake(id, false);
        for &m in &self.slots[id as usize].members {
            let b = &mut bodies[m];
            b.awake = false;
            b.sleep_time = 0.0;
            b.linear_velocity = Vec2::zeros();
            b.angular_velocity = 0.0;
            b.solver_index = NO_INDEX;
        }
    }

    fn new_island(&mut self, awake: bool) -> u32 {
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                self.slots.push(Island::default());
                (self.slots.len() - 1) as u32
            }
        };
        self.set_awake(id, awake);
        self.slots[id as usize].maybe_split = false;
        id
    }

    fn release(&mut self, id: u32) {
        self.set_awake(id, false);
        self.slots[id as usize].maybe_split = false;
        self.free.push(id);
    }

    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let grand = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = grand;
            i = grand;
        }
        i
    }

    /// Joins two sets; the smaller index becomes the root, so the result does
    /// not depend on the order of the unions.
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.parent[hi as usize] = lo;
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use crate::{BodyDesc, ColliderDesc, World, WorldSettings};
    use lamina_geometry::Shape;

    /// A world of two touching boxes on the ground: one island of two bodies.
    fn world() -> World {
        let mut world = World::new(WorldSettings::default());
        let ground = world.add_body(BodyDesc::fixed());
        world.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 0.5))).unwrap();
        for y in [1.0, 2.0] {
            let b = world.add_body(BodyDesc::dynamic().translation(0.0, y));
            world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
        }
        world.step(1.0 / 60.0).unwrap();
        world
    }

    #[test]
    fn islands_and_bodies_that_disagree_are_refused() {
        use crate::WorldKey;
        let w = world();
        w.islands.check_members(&w.bodies).expect("a stepped world agrees with itself");
        let movable = |w: &World| -> Vec<crate::BodyKey> {
            w.bodies.iter().filter(|(_, b)| b.island != super::NO_INDEX).map(|(k, _)| k).collect()
        };
        assert_eq!(movable(&w).len(), 2);

        let mut out_of_range = world();
        let first = movable(&out_of_range)[0];
        out_of_range.bodies[first].island = 7;
        assert!(out_of_range.islands.check_members(&out_of_range.bodies).is_err());

        let mut unlisted = world();
        let first = movable(&unlisted)[0];
        unlisted.bodies[first].island = super::NO_INDEX;
        assert!(unlisted.islands.check_members(&unlisted.bodies).is_err());

        let mut twice = world();
        let island = twice.bodies[movable(&twice)[0]].island as usize;
        let first = movable(&twice)[0];
        twice.islands.slots[island].members.push(crate::keys::Untagged::of(first));
        assert!(twice.islands.check_members(&twice.bodies).is_err());

        let mut asleep_alone = world();
        let first = movable(&asleep_alone)[0];
        asleep_alone.bodies[first].awake = false;
        assert!(asleep_alone.islands.check_members(&asleep_alone.bodies).is_err());

        let mut stray_index = world();
        let fixed = stray_index.bodies.iter().find(|(_, b)| b.island == super::NO_INDEX).unwrap().0;
        stray_index.bodies[fixed].solver_index = 1;
        assert!(stray_index.islands.check_members(&stray_index.bodies).is_err());

        let mut no_island = world();
        let fixed = fixed.in_world(no_island.tag());
        no_island.bodies[fixed].island = 0;
        assert!(no_island.islands.check_members(&no_island.bodies).is_err());

        let mut bad_free = world();
        bad_free.islands.free.push(island as u32);
        assert!(bad_free.islands.check_members(&bad_free.bodies).is_err());
        bad_free.islands.free = vec![99];
        assert!(bad_free.islands.check_members(&bad_free.bodies).is_err());
    }
}

#[cfg(test)]
mod awake_bits_tests {
    use lamina_geometry::{Real, Shape, Vec2};

    use crate::{BodyDesc, ColliderDesc, World, WorldSettings};

    /// Whether every island's bit says what its flag says (the oracle), and
    /// no bit is set past the last island.
    fn bits_agree(world: &World) -> bool {
        let islands = &world.islands;
        let flags =
            (0..islands.awake_bits.len() * 64).map(|id| islands.slots.get(id).is_some_and(|i| i.awake));
        flags.enumerate().all(|(id, awake)| (islands.awake_bits[id / 64] >> (id % 64) & 1 == 1) == awake)
    }

    /// Boxes dropped in a row of small piles merge, split, fall asleep, are
    /// woken, removed and added again: after every step the awake islands'
    /// bits agree with their flags, and the awake bodies found through them
    /// are those whose flag says so.
    #[test]
    fn awake_bits_follow_the_islands() {
        let mut world = World::new(WorldSettings::default());
        let ground = world.add_body(BodyDesc::fixed());
        world.add_collider(ground, ColliderDesc::new(Shape::rectangle(80.0, 0.5))).unwrap();
        let mut boxes = Vec::new();
        for i in 0..150 {
            let (x, y) = (-70.0 + 0.9 * (i / 3) as Real, 1.0 + 0.6 * (i % 3) as Real);
            let b = world.add_body(BodyDesc::dynamic().translation(x, y));
            world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.25, 0.25))).unwrap();
            boxes.push(b);
        }
        let mut rng = crate::test_rng::Rng(0x1234_5678_9abc_def1);
        let mut saw_sleep = false;
        for step in 0..600 {
            if step % 40 == 39 {
                let k = boxes[(rng.next() % boxes.len() as u64) as usize];
                if step % 80 == 39 {
                    world.remove_body(k).expect("a live body");
                    boxes.retain(|&b| b != k);
                } else if let Some(b) = world.body_mut(k) {
                    b.set_linear_velocity(Vec2::new(3.0, 4.0)).unwrap();
                }
            }
            world.step(1.0 / 60.0).unwrap();
            assert!(bits_agree(&world), "step {step}");
            let mut found: Vec<_> = world.islands.awake_members().collect();
            found.sort();
            let mut flagged: Vec<_> = world.bodies.iter().filter(|(_, b)| b.awake).map(|(k, _)| k).collect();
            flagged.sort();
            assert_eq!(found, flagged, "step {step}");
            saw_sleep |= world.islands.awake_body_count() == 0;
        }
        assert!(saw_sleep, "the piles fall asleep at some point");
    }
}
