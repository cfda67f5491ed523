//! [`World::step`]: broad phase, narrow phase, solver, finalisation and sleep,
//! in that order.

use std::time::Instant;

use arrayvec::ArrayVec;
use lamina_broadphase::PairEvent;
use lamina_geometry::{Aabb, Isometry, Real, Vec2};
use lamina_narrowphase::{contact_manifold, intersects};

use crate::body::{BodyKind, NO_INDEX};
use crate::contact::{Contact, ContactPointState};
use crate::solver::Softness;
use crate::solver::body_state::{BodyParams, BodyState};
use crate::solver::contact_bundle::pack_bundles;
use crate::solver::contact_solver::prepare;
use crate::solver::integrate::{integrate_positions, integrate_rotation, integrate_velocities};
use crate::solver::parallel::for_each_by_color;
use rayon::prelude::*;

use crate::{BodyKey, ColliderKey, ContactKey, World, WorldError, WorldSettings};

/// Below this many active contacts the narrow phase runs on the calling thread.
const NARROW_PARALLEL_MIN: usize = 256;

/// Contacts per narrow-phase task.
const NARROW_CHUNK: usize = 64;

/// What the narrow phase found for one contact.
#[derive(Clone, Debug)]
pub(crate) enum Collision {
    /// A sensor pair: do the shapes overlap?
    Sensor(bool),
    /// A solid pair: the manifold's normal and points, with the impulses
    /// carried over from the contact's previous points.
    Manifold(Vec2, ArrayVec<ContactPointState, 2>),
}

impl World {
    /// Advances the world by `dt` seconds. Refuses a non-finite or non-positive
    /// `dt`, leaving the world unchanged. Runs on the current rayon pool.
    pub fn step(&mut self, dt: Real) -> Result<(), WorldError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(WorldError::InvalidTimeStep { dt });
        }
        let start = Instant::now();
        self.contact_events.clear();
        self.sensor_events.clear();
        self.wake_requested_bodies();
        self.refresh_stale_bounds(dt);

        let t = Instant::now();
        self.update_pairs();
        self.profile.broad_phase = t.elapsed();

        let t = Instant::now();
        self.update_contacts(dt);
        self.profile.narrow_phase = t.elapsed();

        let t = Instant::now();
        self.solve(dt);
        self.profile.solver = t.elapsed();

        let t = Instant::now();
        self.finalize(dt);
        self.profile.finalize = t.elapsed();

        let t = Instant::now();
        if self.settings.enable_sleep {
            let body_count = self.scratch.states.len();
            self.islands.sleep_resting(
                &mut self.bodies,
                &self.contacts,
                body_count,
                self.settings.time_to_sleep,
            );
        }
        self.profile.sleep = t.elapsed();

        self.profile.contacts = self.contacts.len();
        self.profile.touching_contacts = self.contacts.values().filter(|c| c.touching).count();
        self.profile.step = start.elapsed();
        Ok(())
    }

    /// Gives every collider of `key` bounds that reach ahead by the body's
    /// motion over the next `dt`, so that fast bodies meet their contacts before
    /// they arrive, and moves its broad-phase proxy if needed. `first`, when
    /// given, is the first collider's bounds, already computed.
    fn refresh_swept_bounds(&mut self, key: crate::BodyKey, dt: Real, first: Option<Aabb>) {
        let b = &mut self.bodies[key];
        b.bounds_stale = false;
        let (ahead, spin) = reach_ahead(b.linear_velocity, b.angular_velocity, b.extent, dt);
        let pose = b.pose;
        for (n, &ck) in b.colliders.iter().enumerate() {
            let c = &mut self.colliders[ck];
            c.aabb = match first {
                Some(aabb) if n == 0 => aabb,
                _ => swept_aabb(c, &pose, ahead, spin),
            };
            let _ = self.broad_phase.update(ck, c.aabb);
        }
    }

    /// Bodies added, moved or given a new velocity since the last step get
    /// bounds swept by this step's motion before the broad phase runs.
    fn refresh_stale_bounds(&mut self, dt: Real) {
        let mut stale = std::mem::take(&mut self.scratch.to_wake);
        stale.clear();
        stale.extend(self.bodies.iter().filter(|(_, b)| b.bounds_stale && b.awake).map(|(k, _)| k));
        for &key in &stale {
            self.refresh_swept_bounds(key, dt, None);
        }
        self.scratch.to_wake = stale;
    }

    /// Wakes sleeping bodies the user changed since the last step.
    fn wake_requested_bodies(&mut self) {
        let mut to_wake = std::mem::take(&mut self.scratch.to_wake);
        to_wake.clear();
        to_wake.extend(self.bodies.iter().filter(|(_, b)| b.wake_requested).map(|(k, _)| k));
        for &key in &to_wake {
            self.bodies[key].wake_requested = false;
            self.wake_body(key);
        }
        self.scratch.to_wake = to_wake;
    }

    /// Turns the broad phase's pair events into new and destroyed contacts.
    fn update_pairs(&mut self) {
        let mut events = std::mem::take(&mut self.scratch.pair_events);
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
        self.scratch.pair_events = events;
    }

    /// A contact for a new pair, if the two colliders may touch.
    fn create_contact(&mut self, a: ColliderKey, b: ColliderKey) {
        let (Some(ca), Some(cb)) = (self.colliders.get(a), self.colliders.get(b)) else { return };
        if ca.body == cb.body || !ca.filter.should_collide(&cb.filter) || (ca.sensor && cb.sensor) {
            return;
        }
        let (kind_a, kind_b) = (self.bodies[ca.body].kind, self.bodies[cb.body].kind);
        let sensor = ca.sensor || cb.sensor;
        if !sensor && kind_a != BodyKind::Dynamic && kind_b != BodyKind::Dynamic {
            return; // fixed and kinematic bodies do not push each other
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
        let key = self.contacts.insert(contact);
        self.contact_of_pair.insert((a, b), key);
    }

    /// Refreshes the manifold of every contact with an awake body, reports
    /// touching changes, and wakes sleeping bodies that something touches.
    ///
    /// The manifolds are computed in parallel, each from its own pair alone
    /// (impulses carried over included), into a buffer in contact order;
    /// applying them (storing, events, waking) is then a serial pass in the same
    /// order, so the result does not depend on the thread count.
    fn update_contacts(&mut self, dt: Real) {
        let mut active = std::mem::take(&mut self.scratch.active_contacts);
        active.clear();
        active.extend(
            self.contacts
                .iter()
                .filter(|(_, c)| self.bodies[c.body_a].awake || self.bodies[c.body_b].awake)
                .map(|(k, _)| k),
        );
        let mut results = std::mem::take(&mut self.scratch.narrow_results);
        let world = &*self;
        let settings = self.settings;
        if active.len() < NARROW_PARALLEL_MIN {
            results.clear();
            results.extend(active.iter().map(|&k| world.collide(k, dt, &settings)));
        } else {
            active
                .par_iter()
                .with_min_len(NARROW_CHUNK)
                .map(|&k| world.collide(k, dt, &settings))
                .collect_into_vec(&mut results);
        }

        let mut to_wake = std::mem::take(&mut self.scratch.to_wake);
        to_wake.clear();
        let mut links = std::mem::take(&mut self.scratch.links);
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
        self.scratch.links = links;
        self.scratch.to_wake = to_wake;
        self.scratch.active_contacts = active;
        self.scratch.narrow_results = results;
    }

    /// The new manifold (or sensor overlap) of one contact, from the current poses.
    fn collide(&self, key: ContactKey, dt: Real, settings: &WorldSettings) -> Collision {
        let c = &self.contacts[key];
        let (ba, bb) = (&self.bodies[c.body_a], &self.bodies[c.body_b]);
        let (ca, cb) = (&self.colliders[c.collider_a], &self.colliders[c.collider_b]);
        let (pose_a, pose_b) = (ba.pose * ca.local_pose, bb.pose * cb.local_pose);
        if c.sensor {
            return Collision::Sensor(intersects(&ca.shape, &pose_a, &cb.shape, &pose_b));
        }
        // A body can close this much distance during the step: the speculative
        // margin that lets fast bodies land without sinking.
        let reach = |b: &crate::Body| (b.linear_velocity.norm() + b.angular_velocity.abs() * b.extent) * dt;
        let margin =
            settings.speculative_distance + reach(ba) + reach(bb) + settings.gravity.norm() * dt * dt;
        let m = contact_manifold(&ca.shape, &pose_a, &cb.shape, &pose_b, margin);
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

    /// Gathers the awake bodies and touching contacts and runs the substeps.
    fn solve(&mut self, dt: Real) {
        let settings = self.settings;
        let substeps = settings.substeps.max(1);
        let h = dt / substeps as Real;
        let inv_h = 1.0 / h;

        // Awake movable bodies get solver slots, in key order.
        let s = &mut self.scratch;
        s.awake.clear();
        s.states.clear();
        s.params.clear();
        for (key, b) in self.bodies.iter_mut() {
            if !b.awake || b.kind == BodyKind::Fixed {
                b.solver_index = NO_INDEX;
                continue;
            }
            b.solver_index = s.states.len() as u32;
            s.awake.push(key);
            s.states.push(BodyState {
                v: b.linear_velocity,
                w: b.angular_velocity,
                dp: Vec2::zeros(),
                dq: nalgebra::UnitComplex::identity(),
            });
            let dynamic = b.kind == BodyKind::Dynamic;
            s.params.push(BodyParams {
                inv_mass: b.inv_mass,
                inv_inertia: b.inv_inertia,
                linear_damping: 1.0 / (1.0 + h * b.linear_damping),
                angular_damping: 1.0 / (1.0 + h * b.angular_damping),
                linear_acceleration: if dynamic {
                    settings.gravity * b.gravity_scale + b.force * b.inv_mass
                } else {
                    Vec2::zeros()
                },
                angular_acceleration: if dynamic { b.torque * b.inv_inertia } else { 0.0 },
            });
        }
        self.profile.awake_bodies = s.states.len();

        // One constraint per touching contact with at least one awake body.
        // The soft contact stays stable up to a quarter of the substep rate.
        // Contacts with immovable bodies are made twice as stiff (nothing on the
        // other side gives way), within the same limit.
        let max_hertz = 0.25 * inv_h;
        let hertz = settings.contact_hertz.min(max_hertz);
        let softness = Softness::new(hertz, settings.contact_damping_ratio, h);
        let static_softness = Softness::new((2.0 * hertz).min(max_hertz), settings.contact_damping_ratio, h);
        let fixed_params = BodyParams {
            inv_mass: 0.0,
            inv_inertia: 0.0,
            linear_damping: 1.0,
            angular_damping: 1.0,
            linear_acceleration: Vec2::zeros(),
            angular_acceleration: 0.0,
        };
        s.constraint_contacts.clear();
        s.constraint_bodies.clear();
        for (key, c) in self.contacts.iter() {
            if !c.touching || c.sensor {
                continue;
            }
            let (ia, ib) = (self.bodies[c.body_a].solver_index, self.bodies[c.body_b].solver_index);
            if ia == NO_INDEX && ib == NO_INDEX {
                continue;
            }
            s.constraint_contacts.push(key);
            s.constraint_bodies.push((ia, ib));
        }
        self.profile.constraints = s.constraint_contacts.len();
        s.coloring.build(&s.constraint_bodies, s.states.len());

        // Each constraint is prepared straight into its lane, in parallel.
        let (bodies, contacts) = (&self.bodies, &self.contacts);
        let (params, states, keys) = (&s.params, &s.states, &s.constraint_contacts);
        let prepare_constraint = |i: u32| {
            let c = &contacts[keys[i as usize]];
            let (ba, bb) = (&bodies[c.body_a], &bodies[c.body_b]);
            let (ia, ib) = (ba.solver_index, bb.solver_index);
            let mut anchors = [(Vec2::zeros(), Vec2::zeros()); 2];
            for (anchor, p) in anchors.iter_mut().zip(&c.points) {
                *anchor = (
                    ba.pose.rotation * (p.local_a - ba.local_center),
                    bb.pose.rotation * (p.local_b - bb.local_center),
                );
            }
            let param = |i: u32| if i == NO_INDEX { &fixed_params } else { &params[i as usize] };
            let state = |i: u32| if i == NO_INDEX { &BodyState::FIXED } else { &states[i as usize] };
            prepare(
                c,
                &anchors[..c.points.len()],
                (ia, ib),
                (param(ia), param(ib)),
                (state(ia), state(ib)),
                softness,
                static_softness,
                settings.enable_warm_starting,
            )
        };
        pack_bundles(&s.coloring, &mut s.bundles, &mut s.bundle_starts, prepare_constraint);
        let push = settings.contact_push_max_velocity;
        let (starts, bundles) = (&s.bundle_starts, &mut s.bundles);
        for _ in 0..substeps {
            integrate_velocities(&mut s.states, &s.params, h, settings.max_linear_speed);
            if settings.enable_warm_starting {
                for_each_by_color(starts, bundles, &mut s.states, |c, st| c.warm_start(st));
            }
            for_each_by_color(starts, bundles, &mut s.states, |c, st| c.solve(st, inv_h, true, push));
            integrate_positions(&mut s.states, h);
            for_each_by_color(starts, bundles, &mut s.states, |c, st| c.solve(st, inv_h, false, push));
        }
        let threshold = settings.restitution_threshold;
        for_each_by_color(starts, bundles, &mut s.states, |c, st| c.apply_restitution(st, threshold));

        // Store the impulses for the next step's warm start.
        for bundle in bundles.iter() {
            for (l, &member) in bundle.members.iter().enumerate() {
                if member == NO_INDEX {
                    continue;
                }
                let contact = &mut self.contacts[s.constraint_contacts[member as usize]];
                for (k, p) in contact.points.iter_mut().enumerate() {
                    (p.normal_impulse, p.tangent_impulse) = bundle.impulses(l, k);
                }
            }
        }
    }

    /// Writes the solver's motion back to the bodies, updates sleep timers,
    /// bounding boxes and broad-phase proxies.
    ///
    /// Everything each body needs (its new pose, velocities, sleep timer and
    /// its first collider's swept bounds) is computed in parallel from the body
    /// alone; writing it back and moving proxies is a serial pass in body order.
    fn finalize(&mut self, dt: Real) {
        let awake = std::mem::take(&mut self.scratch.awake);
        let mut finished = std::mem::take(&mut self.scratch.finished);
        let (bodies, colliders, states) = (&self.bodies, &self.colliders, &self.scratch.states);
        let sleep_speed = self.settings.sleep_linear_velocity;
        let finish =
            |(i, &key): (usize, &BodyKey)| finish_body(&bodies[key], &states[i], colliders, dt, sleep_speed);
        if awake.len() < 2 * FINALIZE_CHUNK {
            finished.clear();
            finished.extend(awake.iter().enumerate().map(finish));
        } else {
            awake
                .par_iter()
                .enumerate()
                .with_min_len(FINALIZE_CHUNK)
                .map(finish)
                .collect_into_vec(&mut finished);
        }
        for (&key, f) in awake.iter().zip(&finished) {
            let b = &mut self.bodies[key];
            b.linear_velocity = f.linear_velocity;
            b.angular_velocity = f.angular_velocity;
            b.center = f.center;
            b.pose = f.pose;
            b.sleep_time = f.sleep_time;
            b.force = Vec2::zeros();
            b.torque = 0.0;
            self.refresh_swept_bounds(key, dt, f.first_aabb);
        }
        self.scratch.awake = awake;
        self.scratch.finished = finished;
    }
}

/// Bodies per task when finalising on several threads.
const FINALIZE_CHUNK: usize = 256;

/// A body's state at the end of a step, before it is written back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FinishedBody {
    linear_velocity: Vec2,
    angular_velocity: Real,
    center: lamina_geometry::Point,
    pose: Isometry,
    sleep_time: Real,
    /// The first collider's swept bounds, if the body has a collider.
    first_aabb: Option<Aabb>,
}

/// The end-of-step state of body `b` from its solver state `state`.
fn finish_body(
    b: &crate::Body,
    state: &BodyState,
    colliders: &slotmap::SlotMap<ColliderKey, crate::Collider>,
    dt: Real,
    sleep_speed: Real,
) -> FinishedBody {
    let center = b.center + state.dp;
    let rotation = integrate_rotation(&(state.dq * b.pose.rotation), 0.0);
    let origin = center - rotation * b.local_center.coords;
    let pose = Isometry::from_parts(origin.coords.into(), rotation);
    let speed = state.v.norm() + b.extent * state.w.abs();
    // A kinematic body moves at the velocity it was given, however slow: falling
    // asleep would stop it.
    let driven = b.kind == crate::BodyKind::Kinematic && (state.v != Vec2::zeros() || state.w != 0.0);
    let sleep_time = if !b.can_sleep || driven || speed > sleep_speed { 0.0 } else { b.sleep_time + dt };
    let (ahead, spin) = reach_ahead(state.v, state.w, b.extent, dt);
    let first_aabb = b.colliders.first().map(|&ck| swept_aabb(&colliders[ck], &pose, ahead, spin));
    FinishedBody { linear_velocity: state.v, angular_velocity: state.w, center, pose, sleep_time, first_aabb }
}

/// How far a body moving at `v` and turning at `w` moves over the next `dt`,
/// and how far its farthest point (`extent` from its centre) can turn.
fn reach_ahead(v: Vec2, w: Real, extent: Real, dt: Real) -> (Vec2, Real) {
    (v * dt, extent * w.abs() * dt)
}

/// Collider `c`'s bounds on a body at `pose`, stretched to where it will be
/// after moving by `ahead`, and grown by `spin` for the turning.
fn swept_aabb(c: &crate::Collider, pose: &Isometry, ahead: Vec2, spin: Real) -> Aabb {
    let now = c.shape.aabb(&(pose * c.local_pose));
    let next = Aabb::new(now.mins + ahead, now.maxs + ahead);
    now.merged(&next).loosened(spin)
}
