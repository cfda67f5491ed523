//! The [`World`]: it owns bodies, colliders, joints and contacts, and steps them.

mod chains;
mod explosion;
mod hooks;
mod joints;
mod mover;
mod queries;
mod step;

use lamina_geometry::tolerance::WORLD_AABB_MARGIN;
use lamina_geometry::{Isometry, MassProperties, Real, Vec2, validate_rotation};

use crate::awake::AwakeLists;
use crate::body::{Body, BodyDesc, BodyKind, BodyMut};
use crate::broad_phase::BroadPhase;
use crate::chain::Chain;
use crate::collider::{Collider, ColliderDesc};
use crate::contact::Contact;
use crate::contact_set::{ContactParts, ContactSet};
use crate::events::{ContactEvent, ContactHitEvent, Events, SensorEvent};
use crate::finalize::FinalizeBuffers;
use crate::free_slots::FreeSlots;
use crate::hooks::Hooks;
use crate::island::Islands;
use crate::joint::Joint;
use crate::narrow_phase::NarrowPhase;
use crate::parallel::pace::{Pace, Sharing, Threads};
use crate::profile::StepProfile;
use crate::slot_keys::SlotKeys;
use crate::solver::Solver;
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, ChainKey, ColliderKey, JointKey, WorldError, WorldSettings, WorldTag};

/// A 2D physics world: bodies with colliders, stepped by [`World::step`].
pub struct World {
    pub(crate) settings: WorldSettings,
    pub(crate) bodies: TaggedMap<BodyKey, Body>,
    /// The bodies' keys again, by slot, for the solver's listing of them.
    pub(crate) body_keys: SlotKeys<BodyKey>,
    pub(crate) colliders: TaggedMap<ColliderKey, Collider>,
    /// The colliders' sweep-and-prunes: every one, and the immovable ones.
    pub(crate) broad_phase: BroadPhase,
    pub(crate) joints: TaggedMap<JointKey, Joint>,
    pub(crate) chains: TaggedMap<ChainKey, Chain>,
    /// A joint was handed out by `joint_mut` since the last step.
    pub(crate) joint_changes_pending: bool,
    /// Counts the joints' edits: each joint added or removed, and each
    /// handed out by `joint_mut`. The solver keeps its list of joints while
    /// this and the awake bodies stay as they were.
    pub(crate) joint_edits: u64,
    /// A body was added, given a collider, moved or handed out by `body_mut`
    /// since the last step (or one with stale bounds still sleeps): the step
    /// looks for wake requests and stale bounds only then.
    pub(crate) body_changes_pending: bool,
    /// The contacts, with their mirrors and lookup by pair.
    pub(crate) contacts: ContactSet,
    /// The free slots of the maps of bodies, colliders, joints and chains, in
    /// the order each hands them out (the contacts' are the set's own).
    pub(crate) free_slots: FreeSlots,
    pub(crate) islands: Islands,
    pub(crate) events: Events,
    /// The contact hooks (`hooks.rs`): shared by clones, not in snapshots.
    pub(crate) hooks: Hooks,
    pub(crate) profile: StepProfile,
    /// Each subsystem's buffers, reused from step to step so that a warm step
    /// allocates nothing.
    pub(crate) narrow: NarrowPhase,
    pub(crate) solver: Solver,
    /// What is awake, listed without walking the maps when little is.
    pub(crate) awake: AwakeLists,
    pub(crate) finish: FinalizeBuffers,
    /// Bodies to wake or refresh, gathered before they are visited.
    pub(crate) wake_scratch: Vec<BodyKey>,
    /// How the steps share their work with the pool; the threads this
    /// step's stages may share it with; and the pace that chooses between
    /// the pool and the calling thread alone for whole steps (`parallel/pace.rs`).
    pub(crate) sharing: Sharing,
    pub(crate) threads: Threads,
    pub(crate) step_pace: Pace,
}

impl Clone for World {
    /// A world that steps bit for bit as this one would: every body,
    /// collider, joint, chain, contact (with its warm-start impulses), island
    /// and sleep timer, the broad phase with its pairs, the settings and the
    /// events not yet cleared. The step's scratch buffers start empty; they
    /// hold nothing from one step to the next that the result depends on.
    fn clone(&self) -> Self {
        Self {
            settings: self.settings,
            bodies: self.bodies.clone(),
            body_keys: self.body_keys.clone(),
            colliders: self.colliders.clone(),
            broad_phase: self.broad_phase.clone(),
            joints: self.joints.clone(),
            chains: self.chains.clone(),
            joint_changes_pending: self.joint_changes_pending,
            joint_edits: self.joint_edits,
            body_changes_pending: self.body_changes_pending,
            contacts: self.contacts.clone(),
            free_slots: self.free_slots.clone(),
            islands: self.islands.clone(),
            events: self.events.clone(),
            hooks: self.hooks.clone(),
            profile: self.profile,
            narrow: NarrowPhase::default(),
            solver: Solver::default(),
            awake: AwakeLists::default(),
            finish: FinalizeBuffers::default(),
            wake_scratch: Vec::new(),
            sharing: self.sharing,
            threads: Threads::default(),
            step_pace: Pace::for_steps(),
        }
    }
}

impl World {
    /// An empty world.
    ///
    /// # Panics
    ///
    /// On settings [`World::try_new`] refuses (a non-finite gravity, zero
    /// substeps, ...), with its error's message, as `std` does for
    /// `Duration::from_secs_f32`: nothing is put in the bad value's place.
    /// Settings from outside the program go through [`World::try_new`].
    #[track_caller]
    pub fn new(settings: WorldSettings) -> Self {
        Self::try_new(settings).unwrap_or_else(|error| panic!("World::new: {error}"))
    }

    /// An empty world, or the first bad setting.
    pub fn try_new(settings: WorldSettings) -> Result<Self, WorldError> {
        settings.validate()?;
        Ok(Self::build(settings))
    }

    fn build(settings: WorldSettings) -> Self {
        let tag = WorldTag::fresh();
        Self {
            settings,
            bodies: TaggedMap::new(tag),
            body_keys: SlotKeys::default(),
            colliders: TaggedMap::new(tag),
            broad_phase: BroadPhase::default(),
            joints: TaggedMap::new(tag),
            chains: TaggedMap::new(tag),
            joint_changes_pending: false,
            joint_edits: 0,
            body_changes_pending: false,
            contacts: ContactSet::default(),
            free_slots: FreeSlots::default(),
            islands: Islands::new(tag),
            events: Events::default(),
            hooks: Hooks::default(),
            profile: StepProfile::default(),
            narrow: NarrowPhase::default(),
            solver: Solver::default(),
            awake: AwakeLists::default(),
            finish: FinalizeBuffers::default(),
            wake_scratch: Vec::new(),
            // Unit tests on a pool share their steps' work whatever the
            // timings, so that what they cover does not depend on the machine.
            sharing: if cfg!(test) { Sharing::Always } else { Sharing::Paced },
            threads: Threads::default(),
            step_pace: Pace::for_steps(),
        }
    }

    /// The tag this world stamps on its keys: drawn when the world is
    /// made, kept by its clones and snapshots (see [`WorldTag`]).
    pub fn tag(&self) -> WorldTag {
        self.bodies.tag()
    }

    /// The world's settings.
    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// Replaces the settings, or refuses them naming the first bad value.
    pub fn set_settings(&mut self, settings: WorldSettings) -> Result<(), WorldError> {
        settings.validate()?;
        let reach_changed = settings.speculative_distance != self.settings.speculative_distance;
        self.settings = settings;
        if reach_changed {
            // Every collider's bounds reach out by the speculative distance.
            for (_, b) in self.bodies.iter_mut() {
                b.bounds_stale = true;
            }
            self.body_changes_pending = true;
        }
        Ok(())
    }

    /// Sets gravity, m/s², and wakes every body so that they feel it.
    pub fn set_gravity(&mut self, gravity: Vec2) -> Result<(), WorldError> {
        let mut settings = self.settings;
        settings.gravity = gravity;
        self.set_settings(settings)?;
        self.wake_all();
        Ok(())
    }

    /// Adds a body.
    ///
    /// # Panics
    ///
    /// On a description [`World::try_add_body`] refuses (a non-finite
    /// number, a negative damping), with its error's message; the world is
    /// left as it was. Descriptions built from outside data go through
    /// [`World::try_add_body`].
    #[track_caller]
    pub fn add_body(&mut self, desc: BodyDesc) -> BodyKey {
        self.try_add_body(desc).unwrap_or_else(|error| panic!("World::add_body: {error}"))
    }

    /// Adds a body, or refuses a description with a bad value.
    pub fn try_add_body(&mut self, desc: BodyDesc) -> Result<BodyKey, WorldError> {
        desc.validate()?;
        let mut body = Body::from_desc(&desc);
        body.set_mass_properties(MassProperties::ZERO);
        if desc.fixed_rotation {
            body.angular_velocity = 0.0;
        }
        let key = self.bodies.insert(body);
        self.body_keys.inserted(key);
        self.free_slots.bodies.inserted(key);
        self.islands.add_body(&mut self.bodies, key);
        self.body_changes_pending = true;
        Ok(key)
    }

    /// Adds a collider to `body`, recomputing the body's mass. Refuses a stale
    /// body key or a bad shape or property, leaving the world unchanged.
    pub fn add_collider(&mut self, body: BodyKey, desc: ColliderDesc) -> Result<ColliderKey, WorldError> {
        desc.validate()?;
        let existing = self.bodies.get(body).ok_or(WorldError::StaleBody(body))?;
        // The body's kept sums with the new collider's part added last, as
        // `update_mass` would add it: checked before anything changes.
        let mut sums = ColliderSums::kept(existing);
        sums.add(&desc.shape, desc.density, &desc.local_pose, desc.sensor);
        if !desc.sensor {
            check_mass(&sums.mass)?;
        }
        let key = self.attach_collider(body, desc)?;
        let body = &mut self.bodies[body];
        sums.write_to(body);
        apply_collider_mass(body);
        // A body built asleep stays asleep while it is given its shapes; if a
        // new shape overlaps something, that contact wakes it.
        Ok(key)
    }

    /// [`World::add_collider`] without recomputing the body's mass, for
    /// callers that add many colliders at once (a chain) and recompute it
    /// once at the end.
    pub(crate) fn attach_collider(
        &mut self,
        body: BodyKey,
        desc: ColliderDesc,
    ) -> Result<ColliderKey, WorldError> {
        desc.validate()?;
        let pose = self.bodies.get(body).ok_or(WorldError::StaleBody(body))?.pose;
        let collider = Collider::from_desc(body, desc, &pose);
        let key = self.colliders.insert(collider);
        self.free_slots.colliders.inserted(key);
        let immovable = self.bodies[body].kind != BodyKind::Dynamic;
        if !self.broad_phase.insert(key, &mut self.colliders[key], immovable) {
            // Unreachable for a validated shape at a finite pose; undo, to keep the world whole.
            self.colliders.remove(key);
            self.free_slots.colliders.removed(key);
            return Err(WorldError::InvalidBodyProperty { name: "collider bounds", value: Real::NAN });
        }
        self.bodies[body].colliders.push(key);
        self.bodies[body].bounds_stale = true;
        self.body_changes_pending = true;
        Ok(key)
    }

    /// Removes a collider, its contacts (reporting the ones that touched), and
    /// recomputes its body's mass.
    pub fn remove_collider(&mut self, key: ColliderKey) -> Result<(), WorldError> {
        let body = self.colliders.get(key).ok_or(WorldError::StaleCollider(key))?.body;
        self.detach_collider(key);
        self.bodies[body].colliders.retain(|c| *c != key);
        self.update_mass(body);
        self.wake_body(body);
        Ok(())
    }

    /// Removes a body with its joints, colliders and contacts, and wakes what
    /// touched it or was jointed to it. Refuses a stale key, world unchanged.
    pub fn remove_body(&mut self, key: BodyKey) -> Result<(), WorldError> {
        let body = self.bodies.get(key).ok_or(WorldError::StaleBody(key))?;
        let colliders = body.colliders.clone();
        let joints = body.joints.clone();
        self.wake_body(key);
        for joint in joints {
            let _ = self.remove_joint(joint);
        }
        for c in colliders {
            self.detach_collider(c);
        }
        self.forget_chains_of(key);
        self.islands.remove_body(&mut self.bodies, key);
        self.bodies.remove(key);
        self.body_keys.removed(key);
        self.free_slots.bodies.removed(key);
        Ok(())
    }

    /// Removes a collider from the broad phase and destroys its contacts,
    /// waking the bodies on the other side.
    fn detach_collider(&mut self, key: ColliderKey) {
        self.broad_phase.remove(key);
        let (contacts, _, mut parts) = self.contact_parts();
        contacts.destroy_of_collider(key, &mut parts);
        if self.colliders.remove(key).is_some() {
            self.free_slots.colliders.removed(key);
        }
    }

    /// Sums the colliders' mass properties into the body.
    pub(crate) fn update_mass(&mut self, key: BodyKey) {
        let Some(body) = self.bodies.get(key) else { return };
        let sums = ColliderSums::of(&self.colliders, body);
        let body = &mut self.bodies[key];
        sums.write_to(body);
        apply_collider_mass(body);
    }

    /// Counts every body's kept collider sums again from its colliders,
    /// leaving its mass as it is (a world read back from a snapshot).
    #[cfg(feature = "serde")]
    pub(crate) fn recount_collider_sums(&mut self) {
        let colliders = &self.colliders;
        for (_, body) in self.bodies.iter_mut() {
            let sums = ColliderSums::of(colliders, body);
            (body.collider_mass, body.collider_reach) = (sums.mass, sums.reach);
        }
    }

    /// Wakes the body and its sleeping island (no-op for fixed or awake bodies).
    pub fn wake_body(&mut self, key: BodyKey) {
        self.islands.wake_body(&mut self.bodies, key);
    }

    /// The contacts, with the broad phase whose pairs they follow and the
    /// other parts that making and destroying them reads and changes.
    pub(crate) fn contact_parts(&mut self) -> (&mut ContactSet, &mut BroadPhase, ContactParts<'_>) {
        let parts = ContactParts {
            bodies: &mut self.bodies,
            colliders: &self.colliders,
            joints: &self.joints,
            islands: &mut self.islands,
            events: &mut self.events,
            settings: &self.settings,
            hooks: &self.hooks,
        };
        (&mut self.contacts, &mut self.broad_phase, parts)
    }

    /// Wakes every sleeping body.
    pub fn wake_all(&mut self) {
        let sleeping: Vec<BodyKey> =
            self.bodies.iter().filter(|(_, b)| b.is_sleeping()).map(|(k, _)| k).collect();
        for key in sleeping {
            self.wake_body(key);
        }
    }

    /// The body, or `None` for a stale key.
    pub fn body(&self, key: BodyKey) -> Option<&Body> {
        self.bodies.get(key)
    }

    /// The body for changes (velocities, forces, impulses, user data), or
    /// `None` for a stale key. A sleeping body that is changed wakes at the
    /// next step. [`BodyMut`] reads as a [`Body`]; the body cannot be replaced
    /// through it.
    pub fn body_mut(&mut self, key: BodyKey) -> Option<&mut BodyMut> {
        self.body_changes_pending = true;
        self.bodies.get_mut(key).map(BodyMut::new)
    }

    /// Every body, in key order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyKey, &Body)> {
        self.bodies.iter()
    }

    /// How many bodies the world holds.
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// Moves a body to `pose` at once (a teleport: no velocity change) and wakes it.
    pub fn set_body_position(&mut self, key: BodyKey, pose: Isometry) -> Result<(), WorldError> {
        let t = pose.translation.vector;
        for (name, v) in [("position.x", t.x), ("position.y", t.y)] {
            if !v.is_finite() {
                return Err(WorldError::InvalidBodyProperty { name, value: v });
            }
        }
        // A rotation that is not a unit complex number would scale the shapes.
        validate_rotation(&pose.rotation)
            .map_err(|value| WorldError::InvalidBodyProperty { name: "rotation", value })?;
        let body = self.bodies.get(key).ok_or(WorldError::StaleBody(key))?;
        // Every collider's bounds must still fit the broad phase there, checked
        // before anything moves, so that a refused pose changes nothing.
        for &c in &body.colliders {
            let collider = &self.colliders[c];
            let reach = self.settings.speculative_distance + WORLD_AABB_MARGIN;
            let fat = collider.shape.aabb(&(pose * collider.local_pose)).loosened(reach);
            let corners = [fat.mins.x, fat.mins.y, fat.maxs.x, fat.maxs.y];
            if let Some(&v) = corners.iter().find(|v| !v.is_finite()) {
                return Err(WorldError::InvalidBodyProperty {
                    name: "collider bounds at position",
                    value: v,
                });
            }
        }
        let body = self.bodies.get_mut(key).ok_or(WorldError::StaleBody(key))?;
        body.pose = pose;
        body.center = pose * body.local_center;
        let margin = self.settings.speculative_distance;
        self.broad_phase.refresh(body, &mut self.colliders, None, margin);
        self.wake_body(key);
        Ok(())
    }

    /// The collider, or `None` for a stale key.
    pub fn collider(&self, key: ColliderKey) -> Option<&Collider> {
        self.colliders.get(key)
    }

    /// Every collider, in key order.
    pub fn colliders(&self) -> impl Iterator<Item = (ColliderKey, &Collider)> {
        self.colliders.iter()
    }

    /// Every contact (pairs of colliders whose fat boxes overlap), in creation order.
    pub fn contacts(&self) -> impl Iterator<Item = &Contact> {
        self.contacts.map().values()
    }

    /// The contact between two colliders, in either order, if they have one.
    pub fn contact_between(&self, a: ColliderKey, b: ColliderKey) -> Option<&Contact> {
        if !(self.colliders.owns(a) && self.colliders.owns(b)) {
            return None; // the pairs' lookup compares slots alone
        }
        let key = if a < b { (a, b) } else { (b, a) };
        self.contacts.of_pair(key).and_then(|k| self.contacts.map().get(k))
    }

    /// Contacts that began or ended touching during the last step (or, with
    /// [`WorldSettings::keep_events`], since the last [`World::clear_events`]),
    /// in a deterministic order.
    pub fn contact_events(&self) -> &[ContactEvent] {
        &self.events.contacts
    }

    /// Sensor overlaps that began or ended during the last step (or since the
    /// last [`World::clear_events`]).
    pub fn sensor_events(&self) -> &[SensorEvent] {
        &self.events.sensors
    }

    /// Contacts that began touching faster than
    /// [`WorldSettings::hit_event_threshold`] during the last step (or since
    /// the last [`World::clear_events`]).
    pub fn hit_events(&self) -> &[ContactHitEvent] {
        &self.events.hits
    }

    /// Forgets every event reported so far. With
    /// [`WorldSettings::keep_events`] set, call it once the events of a frame
    /// (of however many steps) have been read.
    pub fn clear_events(&mut self) {
        self.events.clear();
    }

    /// The broad phase's grid regions that hold colliders, for debug views:
    /// each a square sweep-and-prune of its own (see `docs/broadphase.md`).
    pub fn broad_phase_regions(&self) -> impl Iterator<Item = lamina_broadphase::RegionView> + '_ {
        self.broad_phase.regions()
    }

    /// Counters and timings of the last step.
    pub fn profile(&self) -> &StepProfile {
        &self.profile
    }

    /// Sets how the steps share their work with the threads of the rayon
    /// pool they run on: [`Sharing::Paced`] (the default) times both ways
    /// and runs the faster; [`Sharing::Always`] and [`Sharing::Never`] fix
    /// the way, for a program that has measured its own machine, or wants
    /// the calling thread's time alone. The results are the same bits. A
    /// clone keeps the setting; a world restored from a snapshot starts
    /// paced, as the setting belongs to the program's run, like its pool.
    pub fn set_sharing(&mut self, sharing: Sharing) {
        self.sharing = sharing;
    }

    /// How the steps share their work with the pool ([`World::set_sharing`]).
    pub fn sharing(&self) -> Sharing {
        self.sharing
    }

    /// A hash of every body's pose and velocity bits, in key order: equal
    /// hashes mean (with overwhelming likelihood) bit-identical states.
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv::new();
        for (_, b) in self.bodies.iter() {
            let t = b.pose.translation.vector;
            for v in [
                t.x,
                t.y,
                b.pose.rotation.re,
                b.pose.rotation.im,
                b.linear_velocity.x,
                b.linear_velocity.y,
                b.angular_velocity,
            ] {
                h.write(&v.to_bits().to_le_bytes());
            }
        }
        h.finish()
    }
}

/// What a body's colliders sum to: the parts of its mass (each in the
/// body's frame, in the order the colliders were added), the smallest inner
/// radius of a solid one, the farthest any reaches from the body's origin.
/// Sensors add their reach alone.
struct ColliderSums {
    mass: MassProperties,
    min_extent: Real,
    reach: Real,
}

impl ColliderSums {
    /// `body`'s sums, its colliders taken in order.
    fn of(colliders: &TaggedMap<ColliderKey, Collider>, body: &Body) -> Self {
        let mut sums = ColliderSums { mass: MassProperties::ZERO, min_extent: Real::INFINITY, reach: 0.0 };
        for c in body.colliders.iter().filter_map(|c| colliders.get(*c)) {
            sums.add(&c.shape, c.density, &c.local_pose, c.sensor);
        }
        sums
    }

    /// The sums `body` keeps.
    fn kept(body: &Body) -> Self {
        ColliderSums { mass: body.collider_mass, min_extent: body.min_extent, reach: body.collider_reach }
    }

    /// Adds a collider of `shape`, `density` and `local_pose` (a sensor or not).
    fn add(&mut self, shape: &lamina_geometry::Shape, density: Real, local_pose: &Isometry, sensor: bool) {
        if !sensor {
            self.mass = self.mass.combine(&shape.mass_properties(density).transformed(local_pose));
            self.min_extent = self.min_extent.min(shape.inner_radius());
        }
        self.reach = self.reach.max(local_pose.translation.vector.norm() + shape.local_bounding_radius());
    }

    fn write_to(&self, body: &mut Body) {
        (body.collider_mass, body.min_extent, body.collider_reach) = (self.mass, self.min_extent, self.reach);
    }
}

/// Gives `body` the mass its kept collider sums make, and its extent.
fn apply_collider_mass(body: &mut Body) {
    body.set_mass_properties(body.collider_mass);
    body.extent = body.collider_reach + body.local_center.coords.norm();
}

/// Refuses a body's summed mass properties that leave the finite numbers,
/// or whose inverses would (the solver divides by both): finite sizes and
/// densities can still multiply past the largest `Real` (a box of half-extent
/// 1e20 at density 1 weighs 4e40 kg, infinite in `f32`), and a denormal mass
/// has an infinite inverse.
fn check_mass(total: &MassProperties) -> Result<(), WorldError> {
    let invertible = |v: Real| v.is_finite() && v >= 0.0 && (v == 0.0 || (1.0 / v).is_finite());
    let bad = |name: &'static str, value: Real| Err(WorldError::InvalidColliderProperty { name, value });
    if !invertible(total.mass) {
        return bad("body mass", total.mass);
    }
    if !invertible(total.inertia) {
        return bad("body inertia", total.inertia);
    }
    for v in [total.center.x, total.center.y] {
        if !v.is_finite() {
            return bad("body centre of mass", v);
        }
    }
    Ok(())
}

/// FNV-1a, 64-bit: simple, stable across platforms and releases.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use lamina_geometry::{Isometry, Point, Shape, Vec2};

    use crate::test_rng::Rng;
    use crate::{Body, BodyDesc, BodyKey, ColliderDesc, World, WorldSettings};

    /// The bits of everything the colliders' sums make of a body.
    fn mass_bits(b: &Body) -> Vec<impl PartialEq + std::fmt::Debug> {
        [
            b.mass,
            b.inv_mass,
            b.inertia,
            b.inv_inertia,
            b.local_center.x,
            b.local_center.y,
            b.extent,
            b.min_extent,
        ]
        .iter()
        .map(|v| v.to_bits())
        .collect()
    }

    /// Two boxes and a small sensor added one by one: the body's mass,
    /// centre, inertia and extents are those computed by hand (the sensor
    /// adds nothing but its reach, which the far box exceeds).
    #[test]
    fn a_body_of_two_boxes_has_the_mass_computed_by_hand() {
        let mut world = World::new(WorldSettings::default());
        let key = world.add_body(BodyDesc::dynamic());
        let close =
            |a: lamina_geometry::Real, b: lamina_geometry::Real| (a - b).abs() <= 1e-5 * b.abs().max(1.0);
        // 2 m by 1 m at density 2: 4 kg, inertia 4 (2² + 1²) / 12 = 5/3.
        world.add_collider(key, ColliderDesc::new(Shape::rectangle(1.0, 0.5)).density(2.0)).unwrap();
        let b = &world.bodies[key];
        assert!(close(b.mass, 4.0) && close(b.inertia, 5.0 / 3.0), "{} {}", b.mass, b.inertia);
        assert!(b.local_center.coords.norm() < 1e-6 && close(b.min_extent, 0.5));
        world.add_collider(key, ColliderDesc::new(Shape::circle(0.1)).sensor(true)).unwrap();
        // 1 m square at x = 3, density 1: 1 kg, inertia 1/6 about its centre.
        let far = Isometry::new(Vec2::new(3.0, 0.0), 0.0);
        world.add_collider(key, ColliderDesc::new(Shape::rectangle(0.5, 0.5)).local_pose(far)).unwrap();
        let b = &world.bodies[key];
        // Centre (4·0 + 1·3) / 5 = 0.6; parallel axes: 5/3 + 4·0.6² + 1/6 + 1·2.4².
        let inertia = 5.0 / 3.0 + 4.0 * 0.36 + 1.0 / 6.0 + 2.4 * 2.4;
        assert!(close(b.mass, 5.0) && close(b.inertia, inertia), "{} {}", b.mass, b.inertia);
        assert!(close(b.local_center.x, 0.6) && b.local_center.y.abs() < 1e-6);
        // The far box reaches 3 + √0.5 from the origin, plus the centre's 0.6.
        assert!(close(b.extent, 3.0 + lamina_geometry::Real::sqrt(0.5) + 0.6), "{}", b.extent);
        assert!(close(b.min_extent, 0.5), "the sensor's radius is not an extent: {}", b.min_extent);
    }

    /// A body's mass, extents and centre after each collider added one by
    /// one (the kept sums) are, bit for bit, what counting all its colliders
    /// again gives: on a dynamic body and a fixed one, with sensors, offsets
    /// and turns, through removals, and in a world read back from a snapshot.
    #[test]
    fn colliders_added_one_by_one_give_the_bits_of_a_full_recount() {
        let mut world = World::new(WorldSettings::default());
        let bodies =
            [world.add_body(BodyDesc::dynamic()), world.add_body(BodyDesc::fixed().translation(3.0, 1.0))];
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let check = |world: &World, key: BodyKey| {
            let mut recounted = world.clone();
            recounted.update_mass(key);
            assert_eq!(mass_bits(&world.bodies[key]), mass_bits(&recounted.bodies[key]));
        };
        let mut added = Vec::new();
        for i in 0..40 {
            for &key in &bodies {
                let size = 0.1 + rng.unit();
                let shape = match i % 3 {
                    0 => Shape::circle(size),
                    1 => Shape::rectangle(size, 0.5 * size),
                    _ => Shape::capsule(Point::new(-size, 0.0), Point::new(size, 0.0), 0.2 * size),
                };
                let offset = Vec2::new(4.0 * rng.unit() - 2.0, 4.0 * rng.unit() - 2.0);
                let desc = ColliderDesc::new(shape)
                    .density(0.5 + 2.0 * rng.unit())
                    .local_pose(Isometry::new(offset, 6.0 * rng.unit()))
                    .sensor(i % 7 == 3);
                added.push(world.add_collider(key, desc).unwrap());
                check(&world, key);
            }
        }
        assert!(world.bodies[bodies[0]].mass > 1.0, "the dynamic body has the colliders' mass");
        for &c in added.iter().step_by(5) {
            world.remove_collider(c).unwrap();
        }
        for &key in &bodies {
            world.add_collider(key, ColliderDesc::new(Shape::circle(0.3))).unwrap();
            check(&world, key);
        }
        #[cfg(feature = "serde")]
        {
            let mut read = World::restore(&world.snapshot()).unwrap();
            for &key in &bodies {
                let desc = || {
                    ColliderDesc::new(Shape::rectangle(0.2, 0.7))
                        .local_pose(Isometry::new(Vec2::new(1.0, 0.0), 0.4))
                };
                world.add_collider(key, desc()).unwrap();
                read.add_collider(key, desc()).unwrap();
                assert_eq!(mass_bits(&world.bodies[key]), mass_bits(&read.bodies[key]));
                check(&read, key);
            }
        }
    }
}
