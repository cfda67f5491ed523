//! Contacts: the persistent state of a pair of colliders whose fat bounding boxes
//! overlap, from the broad phase's `Begin` to its `End`; their creation, their
//! update by the narrow phase, and their removal.
//!
//! Each step the narrow phase refreshes the pair's manifold. New points inherit
//! the accumulated impulses of the old points with the same feature id, which is
//! what lets the solver start where it stopped (warm starting). Every body keeps
//! the list of its contacts, so that removing a collider or splitting an island
//! visits only the contacts involved.

use arrayvec::ArrayVec;
use lamina_broadphase::PairEvent;
use lamina_geometry::{Point, Real, Shape, Vec2};
use lamina_narrowphase::{FeatureId, contact_manifold_continuing, intersects};
use rayon::prelude::*;

use crate::body::BodyKind;
use crate::{BodyKey, ColliderKey, ContactKey, World, WorldSettings};

/// Below this many active contacts the narrow phase runs on the calling thread.
const NARROW_PARALLEL_MIN: usize = 256;

/// Contacts per narrow-phase task.
const NARROW_CHUNK: usize = 64;

/// One point of a contact's manifold, with the solver's memory of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPointState {
    /// World position, midway between the surfaces.
    pub point: Point,
    /// The point in body A's frame.
    pub local_a: Point,
    /// The point in body B's frame.
    pub local_b: Point,
    /// Signed distance between the surfaces (negative when overlapping).
    pub separation: Real,
    /// Which features of the two shapes made the point.
    pub id: FeatureId,
    /// Accumulated normal impulse of the last step, N·s.
    pub normal_impulse: Real,
    /// Accumulated friction impulse of the last step, N·s.
    pub tangent_impulse: Real,
}

/// The contact between two colliders.
#[derive(Clone, Debug)]
pub struct Contact {
    pub(crate) collider_a: ColliderKey,
    pub(crate) collider_b: ColliderKey,
    pub(crate) body_a: BodyKey,
    pub(crate) body_b: BodyKey,
    pub(crate) friction: Real,
    pub(crate) restitution: Real,
    pub(crate) sensor: bool,
    pub(crate) normal: Vec2,
    pub(crate) points: ArrayVec<ContactPointState, 2>,
    pub(crate) touching: bool,
}

impl Contact {
    /// The first collider (the one the normal points away from).
    pub fn collider_a(&self) -> ColliderKey {
        self.collider_a
    }

    /// The second collider.
    pub fn collider_b(&self) -> ColliderKey {
        self.collider_b
    }

    /// The body of the first collider.
    pub fn body_a(&self) -> BodyKey {
        self.body_a
    }

    /// The body of the second collider.
    pub fn body_b(&self) -> BodyKey {
        self.body_b
    }

    /// Unit normal from A to B, world frame.
    pub fn normal(&self) -> Vec2 {
        self.normal
    }

    /// The manifold's points (speculative ones included).
    pub fn points(&self) -> &[ContactPointState] {
        &self.points
    }

    /// True when the manifold has points (or, for a sensor, the shapes overlap).
    pub fn is_touching(&self) -> bool {
        self.touching
    }

    /// True when one of the colliders is a sensor.
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }

    /// Gives each of `points` the accumulated impulses of the current point
    /// with the same feature id (none without warm starting).
    pub(crate) fn carry_impulses(&self, points: &mut [ContactPointState], warm_start: bool) {
        for p in points {
            let old = self.points.iter().find(|o| o.id == p.id).filter(|_| warm_start);
            p.normal_impulse = old.map_or(0.0, |o| o.normal_impulse);
            p.tangent_impulse = old.map_or(0.0, |o| o.tangent_impulse);
        }
    }
}

/// A change of a contact's touching state, reported after the step that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContactEvent {
    /// The colliders started touching.
    Begin {
        /// The first collider.
        a: ColliderKey,
        /// The second collider.
        b: ColliderKey,
    },
    /// The colliders stopped touching (or one of them was removed).
    End {
        /// The first collider.
        a: ColliderKey,
        /// The second collider.
        b: ColliderKey,
    },
}

/// Two colliders began touching at speed: Box2D's hit event. Reported for
/// contacts whose surfaces approached faster than
/// [`WorldSettings::hit_event_threshold`](crate::WorldSettings::hit_event_threshold)
/// when they began touching, for impact sounds, damage and particles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactHitEvent {
    /// The first collider.
    pub a: ColliderKey,
    /// The second collider.
    pub b: ColliderKey,
    /// Where they touched (the contact's first point), world frame.
    pub point: Point,
    /// The contact normal, from `a` to `b`.
    pub normal: Vec2,
    /// How fast the surfaces approached along the normal, m/s (positive).
    pub approach_speed: Real,
}

/// A change of a sensor's overlap with another collider.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SensorEvent {
    /// `visitor` started overlapping `sensor`.
    Begin {
        /// The sensor collider.
        sensor: ColliderKey,
        /// The collider entering it.
        visitor: ColliderKey,
    },
    /// `visitor` stopped overlapping `sensor` (or one of them was removed).
    End {
        /// The sensor collider.
        sensor: ColliderKey,
        /// The collider leaving it.
        visitor: ColliderKey,
    },
}

/// What the narrow phase found for one contact.
#[derive(Clone, Debug)]
pub(crate) enum Collision {
    /// A sensor pair: do the shapes overlap?
    Sensor(bool),
    /// A solid pair: the manifold's normal and points, with the impulses
    /// carried over from the contact's previous points.
    Manifold(Vec2, ArrayVec<ContactPointState, 2>),
}

/// The narrow phase's buffers, kept from step to step.
#[derive(Default)]
pub(crate) struct NarrowPhase {
    pair_events: Vec<PairEvent<ColliderKey>>,
    active: Vec<ContactKey>,
    results: Vec<Collision>,
    /// Dynamic pairs that began (true) or stopped touching.
    links: Vec<(BodyKey, BodyKey, bool)>,
    to_wake: Vec<BodyKey>,
}

impl World {
    /// Turns the broad phase's pair events into new and destroyed contacts.
    pub(crate) fn update_pairs(&mut self) {
        let mut events = std::mem::take(&mut self.narrow.pair_events);
        // The immovable index makes no pairs; this keeps its regions in order.
        self.immovable_index.update_pairs(&mut events);
        self.broad_phase.update_pairs(&mut events);
        for event in &events {
            match *event {
                PairEvent::Begin(a, b) => self.create_contact(a, b),
                PairEvent::End(a, b) => {
                    if let Some(key) = self.contact_of_pair.get(&(a, b)).copied() {
                        self.destroy_contact(key);
                    }
                }
            }
        }
        self.narrow.pair_events = events;
    }

    /// A contact for a new pair `a < b`, if the two colliders may touch.
    pub(crate) fn create_contact(&mut self, a: ColliderKey, b: ColliderKey) {
        let (Some(ca), Some(cb)) = (self.colliders.get(a), self.colliders.get(b)) else { return };
        if ca.body == cb.body || !ca.filter.should_collide(&cb.filter) || (ca.sensor && cb.sensor) {
            return;
        }
        // Chain segments have no inside: two of them never touch.
        if matches!((&ca.shape, &cb.shape), (Shape::ChainSegment(_), Shape::ChainSegment(_))) {
            return;
        }
        let (kind_a, kind_b) = (self.bodies[ca.body].kind, self.bodies[cb.body].kind);
        let sensor = ca.sensor || cb.sensor;
        if !sensor && kind_a != BodyKind::Dynamic && kind_b != BodyKind::Dynamic {
            return; // fixed and kinematic bodies do not push each other
        }
        if !sensor && self.joint_forbids_contact(ca.body, cb.body) {
            return;
        }
        let contact = Contact {
            collider_a: a,
            collider_b: b,
            body_a: ca.body,
            body_b: cb.body,
            friction: self.settings.friction_mixing.mix(ca.friction, cb.friction),
            restitution: self.settings.restitution_mixing.mix(ca.restitution, cb.restitution),
            sensor,
            normal: Vec2::zeros(),
            points: ArrayVec::new(),
            touching: false,
        };
        let (body_a, body_b) = (ca.body, cb.body);
        let key = self.contacts.insert(contact);
        self.contact_of_pair.insert((a, b), key);
        self.bodies[body_a].contacts.push(key);
        self.bodies[body_b].contacts.push(key);
    }

    /// Destroys a contact, reporting its end if it touched, and wakes both bodies.
    pub(crate) fn destroy_contact(&mut self, key: ContactKey) {
        let Some(c) = self.contacts.remove(key) else { return };
        self.contact_of_pair.remove(&(c.collider_a, c.collider_b));
        for body in [c.body_a, c.body_b] {
            if let Some(b) = self.bodies.get_mut(body) {
                if let Some(at) = b.contacts.iter().position(|&k| k == key) {
                    b.contacts.swap_remove(at);
                }
            }
        }
        if c.touching {
            self.report_touching(c.collider_a, c.collider_b, c.sensor, false);
            self.wake_body(c.body_a);
            self.wake_body(c.body_b);
            if !c.sensor {
                self.islands.unlink(&self.bodies, c.body_a);
            }
        }
    }

    /// Destroys the contacts of collider `key`.
    pub(crate) fn destroy_contacts_of_collider(&mut self, key: ColliderKey) {
        let body = self.colliders[key].body;
        let mut doomed = std::mem::take(&mut self.narrow.active);
        doomed.clear();
        doomed.extend(self.bodies[body].contacts.iter().copied().filter(|&k| {
            let c = &self.contacts[k];
            c.collider_a == key || c.collider_b == key
        }));
        for &contact in &doomed {
            self.destroy_contact(contact);
        }
        self.narrow.active = doomed;
    }

    /// Destroys the solid contacts between bodies `a` and `b` (sensors stay).
    pub(crate) fn destroy_contacts_between(&mut self, a: BodyKey, b: BodyKey) {
        let mut doomed = std::mem::take(&mut self.narrow.active);
        doomed.clear();
        doomed.extend(self.bodies[a].contacts.iter().copied().filter(|&k| {
            let c = &self.contacts[k];
            !c.sensor && (c.body_a == b || c.body_b == b)
        }));
        for &contact in &doomed {
            self.destroy_contact(contact);
        }
        self.narrow.active = doomed;
    }

    /// Creates the contacts between bodies `a` and `b` whose colliders' fat
    /// boxes overlap but have none (a joint that kept them apart was removed).
    pub(crate) fn create_contacts_between(&mut self, a: BodyKey, b: BodyKey) {
        let (Some(ba), Some(bb)) = (self.bodies.get(a), self.bodies.get(b)) else { return };
        let pairs: Vec<(ColliderKey, ColliderKey)> = ba
            .colliders
            .iter()
            .flat_map(|&ca| bb.colliders.iter().map(move |&cb| if ca < cb { (ca, cb) } else { (cb, ca) }))
            .filter(|&(x, y)| {
                self.broad_phase.contains_pair(x, y) && !self.contact_of_pair.contains_key(&(x, y))
            })
            .collect();
        for (x, y) in pairs {
            self.create_contact(x, y);
        }
    }

    /// Refreshes the manifold of every contact with an awake body, reports
    /// touching changes, and wakes sleeping bodies that something touches.
    ///
    /// The manifolds are computed in parallel, each from its own pair alone
    /// (impulses carried over included), into a buffer in contact order;
    /// applying them (storing, events, waking) is then a serial pass in the same
    /// order, so the result does not depend on the thread count.
    pub(crate) fn update_contacts(&mut self) {
        let mut active = std::mem::take(&mut self.narrow.active);
        active.clear();
        active.extend(
            self.contacts
                .iter()
                .filter(|(_, c)| self.bodies[c.body_a].awake || self.bodies[c.body_b].awake)
                .map(|(k, _)| k),
        );
        let mut results = std::mem::take(&mut self.narrow.results);
        let world = &*self;
        let settings = self.settings;
        if active.len() < NARROW_PARALLEL_MIN {
            results.clear();
            results.extend(active.iter().map(|&k| world.collide(k, &settings)));
        } else {
            active
                .par_iter()
                .with_min_len(NARROW_CHUNK)
                .map(|&k| world.collide(k, &settings))
                .collect_into_vec(&mut results);
        }

        let mut to_wake = std::mem::take(&mut self.narrow.to_wake);
        to_wake.clear();
        let mut links = std::mem::take(&mut self.narrow.links);
        links.clear();
        for (&key, result) in active.iter().zip(results.drain(..)) {
            let c = &mut self.contacts[key];
            let was_touching = c.touching;
            match result {
                Collision::Sensor(overlap) => c.touching = overlap,
                Collision::Manifold(normal, points) => {
                    c.normal = normal;
                    c.points = points;
                    c.touching = !c.points.is_empty();
                }
            }
            if c.touching != was_touching && !c.sensor {
                let dynamic = |k: BodyKey| self.bodies[k].kind == BodyKind::Dynamic;
                if dynamic(c.body_a) && dynamic(c.body_b) {
                    links.push((c.body_a, c.body_b, c.touching));
                }
            }
            if c.touching && !c.sensor {
                for body in [c.body_a, c.body_b] {
                    let b = &self.bodies[body];
                    if !b.awake && b.kind != BodyKind::Fixed {
                        to_wake.push(body);
                    }
                }
            }
            if c.touching != was_touching {
                let (a, b, sensor, touching) = (c.collider_a, c.collider_b, c.sensor, c.touching);
                self.report_touching(a, b, sensor, touching);
                if touching && !sensor {
                    self.report_hit(key);
                }
            }
        }
        for &key in &to_wake {
            self.wake_body(key);
        }
        // Islands follow the touching changes, after the wake-ups above.
        for &(a, b, touching) in &links {
            if touching {
                self.islands.link(&mut self.bodies, a, b);
            } else {
                self.islands.unlink(&self.bodies, a);
            }
        }
        self.narrow.links = links;
        self.narrow.to_wake = to_wake;
        self.narrow.active = active;
        self.narrow.results = results;
    }

    /// The new manifold (or sensor overlap) of one contact, from the current poses.
    fn collide(&self, key: ContactKey, settings: &WorldSettings) -> Collision {
        let c = &self.contacts[key];
        let (ba, bb) = (&self.bodies[c.body_a], &self.bodies[c.body_b]);
        let (ca, cb) = (&self.colliders[c.collider_a], &self.colliders[c.collider_b]);
        // Each collider's bounds hold its shape grown by the speculative
        // distance: bounds apart mean shapes farther apart than that, with no
        // contact point and no overlap. Most pairs the broad phase keeps (its
        // fat boxes reach 2 cm further) end here, without a manifold.
        if !ca.aabb.intersects(&cb.aabb) {
            return if c.sensor {
                Collision::Sensor(false)
            } else {
                Collision::Manifold(Vec2::zeros(), ArrayVec::new())
            };
        }
        let (pose_a, pose_b) = (ba.pose * ca.local_pose, bb.pose * cb.local_pose);
        if c.sensor {
            return Collision::Sensor(intersects(&ca.shape, &pose_a, &cb.shape, &pose_b));
        }
        // Points within the speculative distance let the solver stop an
        // approach before the shapes overlap; faster approaches are caught by
        // continuous collision (`continuous.rs`).
        let m = contact_manifold_continuing(
            &ca.shape,
            &pose_a,
            &cb.shape,
            &pose_b,
            settings.speculative_distance,
            c.touching,
        );
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
        Collision::Manifold(m.normal, points)
    }

    /// Records a hit event for contact `key`, which just began touching, if its
    /// surfaces approach faster than the threshold.
    fn report_hit(&mut self, key: ContactKey) {
        let c = &self.contacts[key];
        let Some(first) = c.points.first() else { return };
        let (ba, bb) = (&self.bodies[c.body_a], &self.bodies[c.body_b]);
        let approach_speed = -c.normal.dot(&(bb.velocity_at(&first.point) - ba.velocity_at(&first.point)));
        if approach_speed > self.settings.hit_event_threshold {
            self.hit_events.push(ContactHitEvent {
                a: c.collider_a,
                b: c.collider_b,
                point: first.point,
                normal: c.normal,
                approach_speed,
            });
        }
    }

    /// Records that the pair `a`, `b` began (`touching`) or stopped touching: a
    /// sensor event, with the sensor named first, or a contact event.
    pub(crate) fn report_touching(&mut self, a: ColliderKey, b: ColliderKey, sensor: bool, touching: bool) {
        if sensor {
            let a_is_sensor = self.colliders.get(a).is_some_and(|x| x.sensor);
            let (sensor, visitor) = if a_is_sensor { (a, b) } else { (b, a) };
            self.sensor_events.push(if touching {
                SensorEvent::Begin { sensor, visitor }
            } else {
                SensorEvent::End { sensor, visitor }
            });
        } else {
            self.contact_events.push(if touching {
                ContactEvent::Begin { a, b }
            } else {
                ContactEvent::End { a, b }
            });
        }
    }
}
