//! Islands and sleep.
//!
//! An island is a group of dynamic bodies linked by touching contacts. Awake
//! islands are found after each step by union–find over the touching contacts
//! of the awake bodies (fixed and kinematic bodies never link two bodies into
//! one island); an island whose bodies have all rested for the sleep time falls
//! asleep as a whole. A sleeping island is remembered as a list of its bodies,
//! costs nothing per step, and wakes as a whole when something touches one of
//! its bodies, moves it, or removes a body it rests on.

use lamina_geometry::Real;
use slotmap::SlotMap;

use crate::body::{Body, BodyKind, NO_INDEX};
use crate::contact::Contact;
use crate::{BodyKey, ContactKey};

/// Sleeping islands, and the union–find scratch used to find awake ones.
#[derive(Default)]
pub(crate) struct Islands {
    /// Members of each sleeping island; an empty list is a free slot.
    sleeping: Vec<Vec<BodyKey>>,
    free: Vec<u32>,
    parent: Vec<u32>,
    rest: Vec<Real>,
    can_sleep: Vec<bool>,
    order: Vec<(u32, u32)>,
}

impl Islands {
    /// Puts `members` to sleep as one island.
    pub fn put_to_sleep(&mut self, bodies: &mut SlotMap<BodyKey, Body>, members: &[BodyKey]) {
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                self.sleeping.push(Vec::new());
                (self.sleeping.len() - 1) as u32
            }
        };
        let list = &mut self.sleeping[id as usize];
        list.clear();
        for &key in members {
            let b = &mut bodies[key];
            b.awake = false;
            b.sleep_time = 0.0;
            b.linear_velocity = lamina_geometry::Vec2::zeros();
            b.angular_velocity = 0.0;
            b.sleeping_island = id;
            b.solver_index = NO_INDEX;
            list.push(key);
        }
    }

    /// Wakes the island of `key` (the body alone if it has none).
    pub fn wake(&mut self, bodies: &mut SlotMap<BodyKey, Body>, key: BodyKey) {
        let id = bodies[key].sleeping_island;
        if id == NO_INDEX {
            Self::wake_one(&mut bodies[key]);
            return;
        }
        let members = std::mem::take(&mut self.sleeping[id as usize]);
        for &m in &members {
            if let Some(b) = bodies.get_mut(m) {
                Self::wake_one(b);
            }
        }
        // Keep the list's capacity for the next island that sleeps here.
        self.sleeping[id as usize] = members;
        self.sleeping[id as usize].clear();
        self.free.push(id);
    }

    fn wake_one(b: &mut Body) {
        b.awake = true;
        b.sleep_time = 0.0;
        b.wake_requested = false;
        b.sleeping_island = NO_INDEX;
    }

    /// Drops a body that is being removed from its sleeping island's list.
    pub fn forget(&mut self, bodies: &mut SlotMap<BodyKey, Body>, key: BodyKey) {
        let id = bodies[key].sleeping_island;
        if id != NO_INDEX {
            self.sleeping[id as usize].retain(|&m| m != key);
        }
    }

    /// Finds the awake islands among `awake` (in solver order) and puts to sleep
    /// every island that has rested for `time_to_sleep`.
    pub fn sleep_resting(
        &mut self,
        bodies: &mut SlotMap<BodyKey, Body>,
        contacts: &SlotMap<ContactKey, Contact>,
        awake: &[BodyKey],
        time_to_sleep: Real,
        members: &mut Vec<BodyKey>,
    ) {
        let n = awake.len();
        self.parent.clear();
        self.parent.extend(0..n as u32);
        for c in contacts.values().filter(|c| c.touching && !c.sensor) {
            let (Some(a), Some(b)) = (bodies.get(c.body_a), bodies.get(c.body_b)) else { continue };
            let linked = |x: &Body| x.kind == BodyKind::Dynamic && x.solver_index != NO_INDEX;
            if linked(a) && linked(b) {
                self.union(a.solver_index, b.solver_index);
            }
        }
        // Each root gathers its island's least rest time and whether all may sleep.
        self.rest.clear();
        self.rest.resize(n, Real::INFINITY);
        self.can_sleep.clear();
        self.can_sleep.resize(n, true);
        for (i, key) in awake.iter().enumerate() {
            let root = self.find(i as u32) as usize;
            let b = &bodies[*key];
            self.rest[root] = self.rest[root].min(b.sleep_time);
            self.can_sleep[root] &= b.can_sleep;
        }
        // Group the bodies by root (a stable sort keeps solver order inside each
        // island), then put the rested groups to sleep.
        self.order.clear();
        for i in 0..n as u32 {
            let root = self.find(i);
            self.order.push((root, i));
        }
        self.order.sort_by_key(|&(root, _)| root);
        let mut start = 0;
        while start < n {
            let root = self.order[start].0;
            let end = start + self.order[start..].iter().take_while(|(r, _)| *r == root).count();
            let r = root as usize;
            if self.can_sleep[r] && self.rest[r] >= time_to_sleep {
                members.clear();
                members.extend(self.order[start..end].iter().map(|&(_, i)| awake[i as usize]));
                self.put_to_sleep(bodies, members);
            }
            start = end;
        }
    }

    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let grand = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = grand;
            i = grand;
        }
        i
    }

    /// Joins two sets; the smaller index becomes the root, so the result does not
    /// depend on the order of the unions.
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.parent[hi as usize] = lo;
    }
}
