//! The [`Solver`], which owns the solve's buffers, and its part of the step
//! (stages 6 to 9 of `world/step.rs`): [`Solver::gather_bodies`] and
//! [`Solver::gather_constraints`], [`Solver::prepare`],
//! [`Solver::run_substeps`] and [`Solver::store_impulses`].
//!
//! `run_substeps` runs the solver's passes as one list on a team of threads
//! (`team.rs`), in this order, each constraint pass colour by colour (each
//! colour's joints, point joints and contacts together):
//!
//! 1. pack: the contacts' bundles filled from the narrow phase's manifolds;
//! 2. per substep: integrate velocities, warm start, solve, integrate
//!    positions, relax;
//! 3. restitution;
//! 4. gather impulses: the contacts' impulses read back from the bundles.
//!
//! A thread starts on the bundles of its own share of each colour, the ones
//! it then starts on when solving.

use std::ops::Range;

use arrayvec::ArrayVec;

use lamina_geometry::{Real, Vec2};
use rayon::prelude::*;
use slotmap::SlotMap;

use super::Softness;
use super::body_state::{BodyParams, BodyState, States};
use super::color_passes::{BODY_BLOCK, ColorView, Pass, color_passes};
use super::constraint_graph::ColorOrder;
use super::constraint_graph::{COLOR_COUNT, ConstraintGraph};
use super::contact_bundle::{ContactBundle, ContactSoftness};
use super::contact_solver::ContactSource;
use super::gather;
use super::impulses::{
    ContactImpulses, gather_point_impulses, store_joint_impulses, store_point_impulses,
    take_revolute_impulses, write_contact_impulses,
};
use super::integrate::Integration;
use super::joints::point_bundle::{PointJoint, PointJointBundle};
use super::joints::revolute_bundle::RevoluteBundle;
use super::joints::{JointBody, JointConstraint, JointContext};
use super::lane_width::{BundleBlocks, Bundles, Eight, integrate};
use super::passes::{Restitution, Solve, WarmStart};
use super::team::{BlockSlice, Team};
use crate::body::{Body, BodyKind, NO_INDEX};
use crate::contact::Contact;
use crate::free_slots::index_and_version;
use crate::joint::Joint;
use crate::keys::Untagged;
use crate::narrow_phase::{ContactSummary, SolverManifold};
use crate::parallel::pace::{Pace, Threads};
use crate::parallel::prefetch::prefetch;
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, ColliderKey, ContactKey, JointKey, WorldSettings};

/// Joints per task when preparing on several threads; below two tasks' worth
/// the calling thread prepares them all.
const JOINT_PREPARE_CHUNK: usize = 64;

/// The solver's buffers, kept from step to step so that a warm step allocates
/// nothing.
#[derive(Default)]
pub(crate) struct Solver {
    /// The awake movable bodies, in key order: body `i` of the arrays below.
    pub awake: Vec<BodyKey>,
    /// Each awake body's first collider, if it has one: what the end of the
    /// step (`finalize.rs`) borrows with the body, read here while the
    /// body is at hand.
    pub first_colliders: Vec<Option<ColliderKey>>,
    pub states: Vec<BodyState>,
    params: Vec<BodyParams>,
    /// Each body slot's version and solver index (`NO_INDEX` for bodies not
    /// solved and free slots): the body map's slots in a dense array, so that
    /// listing the constraints finds their bodies' indices without a look-up
    /// in the map (see [`solver_index`]).
    solver_of_slot: Vec<(u32, u32)>,
    /// Each contact constraint's place in the narrow phase's arrays
    /// (`NarrowPhase::keys`, its contact's key, and those beside it), and
    /// its bodies' solver indices.
    contact_places: Vec<u32>,
    /// The places of the listed contacts whose solver manifold the narrow
    /// phase has still to write (`NarrowPhase::complete_manifolds`).
    pub missing_manifolds: Vec<u32>,
    /// Each contact constraint's impulses per point, on their way back to
    /// the contacts.
    contact_impulses: Vec<ContactImpulses>,
    /// The contacts the impulses go to, borrowed for the write: kept empty
    /// between steps as a buffer of pointer-sized elements (see
    /// [`recycle`]).
    borrowed_contacts: Vec<usize>,
    /// [`Solver::borrowed_contacts`] for the joints' impulses.
    borrowed_joints: Vec<usize>,
    contact_bodies: Vec<(u32, u32)>,
    /// Whether each contact constraint had two points when it was listed.
    contact_two_points: Vec<bool>,
    /// The coloured contacts with, within each colour, those of one point
    /// first: most bundles then hold one kind, and bundles of one-point
    /// contacts skip the second point's rows.
    grouped_contacts: ColorOrder,
    /// Whether `grouped_contacts` is this step's order (the contacts' counts
    /// differ); otherwise the graph's own order serves.
    contacts_grouped: bool,
    /// Packs contacts in the graph's own order (for tests that compare it
    /// with the grouped order).
    #[cfg(test)]
    keep_colour_order: bool,
    /// Gives every colour a pass of its own (for tests that compare the
    /// merged serial passes with the colours apart).
    #[cfg(test)]
    colours_apart: bool,
    /// Solves revolute joints with angular rows one at a time (for tests
    /// that compare the bundles with the one-joint code).
    #[cfg(test)]
    revolutes_alone: bool,
    /// Each joint constraint's joint, whether it is a plain point joint
    /// (solved in bundles), and its bodies' solver indices.
    joint_keys: Vec<JointKey>,
    joint_plain: Vec<bool>,
    /// Whether each joint is a revolute joint with angular rows (a spring,
    /// a motor or limits): solved in bundles of its own.
    joint_revolute: Vec<bool>,
    joint_bodies: Vec<(u32, u32)>,
    /// The world's joint edits (`World::joint_edits`) and the solver slots
    /// of the bodies when the joints were last listed: the lists above are
    /// current while both are the same.
    joints_listed_for: Option<u64>,
    listed_slots: Vec<(u32, u32)>,
    graph: ConstraintGraph,
    /// The constraints' bodies and the body count the graph was last coloured
    /// for: an unchanged list (a jointed scene at rest in its contacts, a
    /// cloth) keeps its colours.
    coloured_joints: Vec<(u32, u32)>,
    coloured_contacts: Vec<(u32, u32)>,
    coloured_bodies: usize,
    /// The coloured joints split into plain point joints (solved in SIMD
    /// bundles) and the others (solved one by one).
    plain_joints: ColorOrder,
    other_joints: ColorOrder,
    /// The coloured joints that are not plain point joints, then those of
    /// them that are revolute joints with angular rows (solved in bundles).
    not_plain_joints: ColorOrder,
    revolute_joints: ColorOrder,
    /// The revolute joints with angular rows prepared for this step, in
    /// colour order (`revolute_joints`), and each listed joint's place there.
    revolutes: Vec<JointConstraint>,
    revolute_place: Vec<u32>,
    /// Those joints packed in lanes, colour by colour.
    revolute_bundles: Bundles<RevoluteBundle, RevoluteBundle<Eight>>,
    revolute_bundle_starts: [usize; COLOR_COUNT + 1],
    /// The other joints prepared for this step, in colour order.
    joints: Vec<JointConstraint>,
    /// The plain point joints prepared for this step, by list index (as
    /// `joint_keys`; other joints' entries unused): prepared in list order,
    /// which walks the joints and their bodies through memory, and read from
    /// this compact array in colour order when packed.
    points: Vec<PointJoint>,
    /// Each plain point joint's impulse from the bundles, by list index, on
    /// its way back to the joint.
    point_impulses: Vec<Vec2>,
    /// The plain point joints packed in lanes, colour by colour:
    /// `point_bundles[point_bundle_starts[c]..point_bundle_starts[c + 1]]` hold colour `c`.
    point_bundles: Bundles<PointJointBundle, PointJointBundle<Eight>>,
    point_bundle_starts: [usize; COLOR_COUNT + 1],
    /// The contacts packed in lanes, colour by colour.
    bundles: Bundles<ContactBundle, ContactBundle<Eight>>,
    /// `bundles[bundle_starts[c]..bundle_starts[c + 1]]` hold colour `c`.
    bundle_starts: [usize; COLOR_COUNT + 1],
    /// The passes of the substeps and the threads that run them.
    team: Team<Pass>,
    /// Whether the substeps run on the team or on one thread (`parallel/pace.rs`).
    pace: Pace,
    /// The threads this step's passes may share their work with, and
    /// whether the step's pace is steady, the only steps in which the
    /// substeps' pace tries and times (both the world's, set at the start
    /// of each step).
    pub threads: Threads,
    pub steady: bool,
    /// Scratch of the lists made on the pool (`gather.rs`): each run's
    /// counts and where its entries start, and the bodies borrowed.
    run_counts: Vec<[usize; 3]>,
    run_starts: Vec<usize>,
    borrowed_bodies: Vec<usize>,
    /// Makes the lists on the pool (or not) whatever their length (for tests
    /// that compare the two ways).
    #[cfg(test)]
    pub force_lists_on_pool: Option<bool>,
}

impl Solver {
    /// Solves contacts and point joints four at a time whatever the processor
    /// has (for tests that compare the lane widths).
    #[cfg(all(test, target_arch = "x86_64", not(feature = "f64")))]
    pub fn use_four_lanes(&mut self) {
        self.bundles = Bundles::Four(Vec::new());
        self.point_bundles = Bundles::Four(Vec::new());
        self.revolute_bundles = Bundles::Four(Vec::new());
    }

    /// Runs the eight-lane passes in AVX's encoding even where the processor
    /// has AVX-512's (for tests that compare the encodings).
    #[cfg(all(test, target_arch = "x86_64", not(feature = "f64")))]
    pub fn use_vex_encoding(&mut self) {
        for encoding in [
            self.bundles.encoding_mut(),
            self.point_bundles.encoding_mut(),
            self.revolute_bundles.encoding_mut(),
        ]
        .into_iter()
        .flatten()
        {
            *encoding = super::lanes::Encoding::Vex;
        }
    }

    /// Packs contacts in the colour order as it is, one- and two-point
    /// contacts mixed in bundles (for tests that compare the grouping).
    #[cfg(test)]
    pub fn keep_colour_order(&mut self) {
        self.keep_colour_order = true;
    }

    /// Gives every colour a pass of its own, as if none could be merged
    /// (for tests that compare the merged serial passes with that).
    #[cfg(test)]
    pub fn keep_colours_apart(&mut self) {
        self.colours_apart = true;
    }

    /// How many passes the last solve ran (for tests).
    #[cfg(test)]
    pub fn pass_count(&self) -> usize {
        self.team.len()
    }

    /// Solves revolute joints with angular rows one at a time, as other
    /// joints are (for tests that compare the bundles with that code).
    #[cfg(test)]
    pub fn solve_revolutes_alone(&mut self) {
        self.revolutes_alone = true;
    }

    /// Whether this step packed the contacts grouped by point count (for
    /// tests that need a scene that mixes them).
    #[cfg(test)]
    pub fn grouped_by_points(&self) -> bool {
        self.contacts_grouped
    }

    /// Gives every awake movable body a solver slot, in key order, with its
    /// velocities and this step's accelerations; other bodies get `NO_INDEX`.
    /// `awake`, when given, lists the awake movable bodies in key order (a
    /// world mostly asleep), and the others already hold `NO_INDEX` (sleep
    /// gives it to them): only those listed are visited. Otherwise every
    /// body is, and `by_slot` holds each body's key at its slot (the null
    /// key at a free one): a large world is then listed on the pool
    /// (`gather.rs`).
    pub fn gather_bodies(
        &mut self,
        bodies: &mut TaggedMap<BodyKey, Body>,
        by_slot: &[BodyKey],
        settings: &WorldSettings,
        h: Real,
        awake: Option<&[BodyKey]>,
    ) {
        if awake.is_none() && self.lists_on_pool(bodies.len(), gather::BODIES_ON_POOL_FROM) {
            let lists = gather::BodyLists {
                awake: &mut self.awake,
                first_colliders: &mut self.first_colliders,
                states: &mut self.states,
                params: &mut self.params,
                solver_of_slot: &mut self.solver_of_slot,
            };
            let scratch = (&mut self.run_starts, &mut self.borrowed_bodies);
            gather::gather_bodies(bodies, by_slot, lists, (settings, h), scratch);
            return;
        }
        self.awake.clear();
        self.first_colliders.clear();
        self.states.clear();
        self.params.clear();
        self.solver_of_slot.clear();
        if let Some(awake) = awake {
            debug_assert!(awake.is_sorted_by_key(|&k| index_and_version(k).0), "awake bodies in key order");
            for &key in awake {
                let b = &mut bodies[key];
                debug_assert!(b.awake && b.kind != BodyKind::Fixed);
                let slot = index_and_version(key).0;
                self.solver_of_slot.resize(slot as usize + 1, (0, NO_INDEX));
                self.gather_body(key, b, settings, h);
            }
            return;
        }
        for (key, b) in bodies.iter_mut() {
            let slot = index_and_version(key).0;
            self.solver_of_slot.resize(slot as usize + 1, (0, NO_INDEX));
            if !gather::solved(b) {
                b.solver_index = NO_INDEX;
                continue;
            }
            self.gather_body(key, b, settings, h);
        }
    }

    /// Whether a list of `items` is made on the pool (see `gather.rs`): when
    /// there are at least `from` and the step shares its work.
    fn lists_on_pool(&self, items: usize, from: usize) -> bool {
        #[cfg(test)]
        if let Some(on_pool) = self.force_lists_on_pool {
            return on_pool;
        }
        self.threads.share(items, from)
    }

    /// Gives the awake movable body `b` (of key `key`, whose slot
    /// `solver_of_slot` already reaches) the next solver slot.
    #[inline(always)]
    fn gather_body(&mut self, key: BodyKey, b: &mut Body, settings: &WorldSettings, h: Real) {
        let (slot, version) = index_and_version(key);
        b.solver_index = self.states.len() as u32;
        self.solver_of_slot[slot as usize] = (version, b.solver_index);
        self.awake.push(key);
        self.first_colliders.push(b.colliders.first().copied());
        let (state, params) = gather::body_entry(b, settings, h);
        self.states.push(state);
        self.params.push(params);
    }

    /// Lists the joints and touching contacts with at least one awake body,
    /// each in key order, and colours them. The joints are those of
    /// `awake_joints` when given (a world mostly asleep lists them from its
    /// awake bodies), else every joint is looked at. The contacts are read
    /// from the narrow phase's summaries (of every contact, or of every
    /// contact with an awake body, in key order), not from the contacts
    /// themselves. Returns how many joints and contacts are listed, and how
    /// many contacts with an awake body touch (sensors included), counted on
    /// the way since nothing after this in a step changes it.
    pub fn gather_constraints(
        &mut self,
        (joints, joint_edits): (&TaggedMap<JointKey, Joint>, u64),
        awake_joints: Option<&[JointKey]>,
        summaries: &[ContactSummary],
    ) -> (usize, usize, usize) {
        // The list depends on the joints and on which bodies are awake, with
        // their solver indices: while neither changed (a chain, a cloth, a
        // grid swinging awake), the last step's list is this step's. Only a
        // list made by walking every joint is kept: the check reads every
        // body's slot, more than a world without joints, or one mostly
        // asleep (whose awake joints are listed from its islands), spends
        // on listing them.
        let walks = awake_joints.is_none() && !joints.is_empty();
        let listed =
            walks && self.joints_listed_for == Some(joint_edits) && self.listed_slots == self.solver_of_slot;
        if !listed {
            self.joint_keys.clear();
            self.joint_plain.clear();
            self.joint_revolute.clear();
            self.joint_bodies.clear();
            match awake_joints {
                Some(keys) => keys.iter().for_each(|&key| self.list_joint(key, &joints[key])),
                None => joints.iter().for_each(|(key, j)| self.list_joint(key, j)),
            }
            self.joints_listed_for = walks.then_some(joint_edits);
            if walks {
                self.listed_slots.clone_from(&self.solver_of_slot);
            }
        }
        let solver_of_slot = &self.solver_of_slot;
        let index = |k: Untagged<BodyKey>| solver_index(solver_of_slot, k);
        let touching = if self.lists_on_pool(summaries.len(), gather::CONTACTS_ON_POOL_FROM) {
            let lists = gather::ContactLists {
                places: &mut self.contact_places,
                bodies: &mut self.contact_bodies,
                two_points: &mut self.contact_two_points,
                missing_manifolds: &mut self.missing_manifolds,
            };
            gather::gather_contacts(summaries, index, lists, (&mut self.run_counts, &mut self.run_starts))
        } else {
            self.contact_places.clear();
            self.contact_bodies.clear();
            self.contact_two_points.clear();
            self.missing_manifolds.clear();
            let mut touching = 0;
            for (place, summary) in summaries.iter().enumerate() {
                let Some(listed) = gather::contact_entry(summary, index) else { continue };
                touching += 1;
                let Some(bodies) = listed else { continue };
                self.contact_places.push(place as u32);
                self.contact_bodies.push(bodies);
                self.contact_two_points.push(summary.two_points());
                if !summary.has_manifold() {
                    self.missing_manifolds.push(place as u32);
                }
            }
            touching
        };
        let unchanged = self.coloured_bodies == self.states.len()
            && (listed || self.coloured_joints == self.joint_bodies)
            && self.coloured_contacts == self.contact_bodies;
        if !unchanged {
            self.graph.build(&self.joint_bodies, &self.contact_bodies, self.states.len());
            // Copied, not swapped: a list kept for the next step stays whole.
            self.coloured_joints.clone_from(&self.joint_bodies);
            std::mem::swap(&mut self.coloured_contacts, &mut self.contact_bodies);
            self.coloured_bodies = self.states.len();
            // Room for the contacts grouped by point count, made with the
            // graph: a pile whose contacts all have two points may have a
            // first one with one point many steps later, and that step
            // should not be the one to allocate it.
            let order = &mut self.grouped_contacts.order;
            order.reserve(self.graph.contacts.order.len().saturating_sub(order.len()));
        }
        // Where every contact has the same count (a pile of boxes) the colour
        // order is already grouped.
        let two = &self.contact_two_points;
        let pairs = two.iter().filter(|&&t| t).count();
        self.contacts_grouped = pairs > 0 && pairs < two.len();
        #[cfg(test)]
        {
            self.contacts_grouped &= !self.keep_colour_order;
        }
        if self.contacts_grouped {
            self.graph.contacts.grouped(|i| !two[i as usize], &mut self.grouped_contacts);
        }
        (self.joint_keys.len(), self.contact_places.len(), touching)
    }

    /// Lists joint `key` if one of its bodies is awake.
    fn list_joint(&mut self, key: JointKey, j: &Joint) {
        let index = |k: BodyKey| solver_index(&self.solver_of_slot, k);
        let (ia, ib) = (index(j.desc.body_a), index(j.desc.body_b));
        if ia != NO_INDEX || ib != NO_INDEX {
            self.joint_keys.push(key);
            let plain = j.is_plain_point();
            self.joint_plain.push(plain);
            let revolute = !plain && j.desc.kind == crate::JointKind::Revolute;
            #[cfg(test)]
            let revolute = revolute && !self.revolutes_alone;
            self.joint_revolute.push(revolute);
            self.joint_bodies.push((ia, ib));
        }
    }

    /// Each listed contact's place in the narrow phase's arrays.
    pub fn contact_places(&self) -> &[u32] {
        &self.contact_places
    }

    /// Prepares the joints for the step, in parallel, and sizes the
    /// contacts' bundles, which the solve's first passes fill.
    pub fn prepare(
        &mut self,
        bodies: &TaggedMap<BodyKey, Body>,
        joints: &TaggedMap<JointKey, Joint>,
        settings: &WorldSettings,
        h: Real,
    ) {
        let inv_h = 1.0 / h;
        let max_hertz = super::max_hertz(inv_h);
        let ctx = JointContext {
            h,
            inv_h,
            softness: Softness::new(settings.joint_hertz.min(max_hertz), settings.joint_damping_ratio, h),
            warm_start: settings.enable_warm_starting,
            max_speed: settings.max_linear_speed,
            max_spin: lamina_geometry::tolerance::MAX_ROTATION_PER_SUBSTEP * inv_h,
        };
        let joint_body = |k: BodyKey| match bodies.get(k) {
            Some(b) => JointBody {
                index: b.solver_index,
                inv_mass: if b.solver_index == NO_INDEX { 0.0 } else { b.inv_mass },
                inv_inertia: if b.solver_index == NO_INDEX { 0.0 } else { b.inv_inertia },
                pose: b.pose,
                local_center: b.local_center,
                center: b.center,
            },
            None => JointBody {
                index: NO_INDEX,
                inv_mass: 0.0,
                inv_inertia: 0.0,
                pose: lamina_geometry::Isometry::identity(),
                local_center: lamina_geometry::Point::origin(),
                center: lamina_geometry::Point::origin(),
            },
        };
        let (keys, plain, revolute) = (&self.joint_keys, &self.joint_plain, &self.joint_revolute);
        self.graph.joints.split(|i| plain[i as usize], &mut self.plain_joints, &mut self.not_plain_joints);
        self.not_plain_joints.split(
            |i| revolute[i as usize],
            &mut self.revolute_joints,
            &mut self.other_joints,
        );
        let prepare_joint = |i: u32| {
            let j = &joints[keys[i as usize]];
            JointConstraint::prepare(j, &joint_body(j.desc.body_a), &joint_body(j.desc.body_b), &ctx)
        };
        let prepare_point = |i: usize| {
            if !plain[i] {
                return PointJoint::UNUSED;
            }
            let j = &joints[keys[i]];
            PointJoint::prepare(j, &joint_body(j.desc.body_a), &joint_body(j.desc.body_b), &ctx)
        };
        let threads = self.threads;
        prepare_in_order(&self.other_joints.order, &prepare_joint, &mut self.joints, threads);
        prepare_in_order(&self.revolute_joints.order, &prepare_joint, &mut self.revolutes, threads);
        self.revolute_place.clear();
        self.revolute_place.resize(keys.len(), NO_INDEX);
        for (place, &i) in self.revolute_joints.order.iter().enumerate() {
            self.revolute_place[i as usize] = place as u32;
        }
        let (revolutes, places) = (&self.revolutes, &self.revolute_place);
        let prepared_revolute = |i: u32| revolutes[places[i as usize] as usize];
        self.revolute_bundles.pack(
            &self.revolute_joints,
            &mut self.revolute_bundle_starts,
            prepared_revolute,
            |_| {},
            threads,
        );
        if !threads.share(keys.len(), 2 * JOINT_PREPARE_CHUNK) {
            self.points.clear();
            self.points.extend((0..keys.len()).map(prepare_point));
        } else {
            (0..keys.len())
                .into_par_iter()
                .with_min_len(JOINT_PREPARE_CHUNK)
                .map(prepare_point)
                .collect_into_vec(&mut self.points);
        }
        let points = &self.points;
        self.point_bundles.pack(
            &self.plain_joints,
            &mut self.point_bundle_starts,
            |i: u32| points[i as usize],
            |i: u32| prefetch(&points[i as usize]),
            threads,
        );

        // The contacts are only counted into their bundles here: the team
        // fills the bundles as the first passes of the solve (`run_substeps`).
        let order = if self.contacts_grouped { &self.grouped_contacts } else { &self.graph.contacts };
        self.bundles.size(order, &mut self.bundle_starts);
    }

    /// Runs the solve on the team (`team.rs`): first the contacts are
    /// prepared into their bundles from the narrow phase's solver manifolds
    /// (`manifolds`, by place), colour by colour; then per substep integrate
    /// velocities, warm start, solve, integrate positions and relax, each
    /// constraint pass colour by colour; then restitution, and last the
    /// contacts' impulses gathered from the bundles for `store_impulses`.
    ///
    /// The bundles are filled in the same blocks as later solve them: each
    /// member of the team starts on its own share of every colour, so that,
    /// unless another member claims part of it, its first pass finds those
    /// bundles in its own cache. (Where the substeps' pace, or the step's,
    /// runs the passes on one thread, that thread does it all.)
    pub fn run_substeps(
        &mut self,
        manifolds: &[SolverManifold],
        settings: &WorldSettings,
        substeps: u32,
        h: Real,
    ) {
        let threads = self.threads.count();
        let used = self.used_colors();
        let merge = true;
        #[cfg(test)]
        let merge = merge && !self.colours_apart;
        let bodies = self.states.len();
        // A world of joints alone (a cloth, a grid) has no bundles to fill or
        // impulses to gather: those passes are left out.
        let contacts = self.bundle_starts[COLOR_COUNT] > 0;
        let team = &mut self.team;
        team.clear();
        if contacts {
            color_passes(team, &used, merge, Pass::Pack);
        }
        for _ in 0..substeps {
            team.push(Pass::IntegrateVelocities, bodies, BODY_BLOCK);
            if settings.enable_warm_starting {
                color_passes(team, &used, merge, Pass::WarmStart);
            }
            color_passes(team, &used, merge, Pass::Solve);
            team.push(Pass::IntegratePositions, bodies, BODY_BLOCK);
            color_passes(team, &used, merge, Pass::Relax);
        }
        color_passes(team, &used, merge, Pass::Restitution);
        if contacts {
            color_passes(team, &used, merge, Pass::GatherImpulses);
        }
        let items = team.items();
        let (on_team, timed) = match (threads > 1, self.steady) {
            (true, true) => self.pace.choose(),
            (true, false) => (self.pace.way(), false),
            (false, _) => (false, false),
        };

        let (max_speed, inv_h) = (settings.max_linear_speed, 1.0 / h);
        let max_push = settings.contact_push_max_velocity;
        let threshold = settings.restitution_threshold;
        let params = &self.params;
        let contact_order = if self.contacts_grouped { &self.grouped_contacts } else { &self.graph.contacts };
        let gathered = &mut self.contact_impulses;
        gathered.clear();
        gathered.resize(self.contact_places.len(), ContactImpulses::default());
        // Bodies are integrated as wide as the contacts are bundled.
        let eight = self.bundles.eight_lanes();
        let view = ColorView {
            used: &used,
            contact_order,
            joint_starts: &self.other_joints.starts,
            point_starts: &self.point_bundle_starts,
            revolute_starts: &self.revolute_bundle_starts,
            contact_starts: &self.bundle_starts,
            joints: BlockSlice::new(&mut self.joints),
            points: BundleBlocks::new(&mut self.point_bundles),
            revolutes: BundleBlocks::new(&mut self.revolute_bundles),
            contacts: BundleBlocks::new(&mut self.bundles),
            states: States::new(&mut self.states),
            gathered: BlockSlice::new(gathered),
        };
        // Contacts with immovable bodies are made twice as stiff (nothing on
        // the other side gives way), within the same limit.
        let max_hertz = super::max_hertz(inv_h);
        let hertz = settings.contact_hertz.min(max_hertz);
        let places = &self.contact_places;
        let softness = ContactSoftness {
            moving: Softness::new(hertz, settings.contact_damping_ratio, h),
            fixed: Softness::new((2.0 * hertz).min(max_hertz), settings.contact_damping_ratio, h),
        };
        let source = ContactSource {
            manifolds,
            places,
            indices: &self.coloured_contacts,
            params,
            warm_start: settings.enable_warm_starting,
        };
        // Colour order jumps about the manifolds: each is asked for a little
        // before it is prepared.
        let ahead = |i: u32| {
            if let Some(m) = manifolds.get(places[i as usize] as usize) {
                prefetch(m);
            }
        };
        let run = |pass: Pass, items: Range<usize>| {
            // SAFETY (every arm): `items` is one block of this pass, which
            // no other block shares; body integration touches each body of
            // its block alone, a colour's constraints share no movable body.
            match pass {
                // SAFETY: as above; the states are only read, and no pass
                // before the first integration writes them.
                Pass::Pack(c) => unsafe { view.pack_colors(c, items, &source, &ahead) },
                Pass::IntegrateVelocities => {
                    let block = unsafe { view.states.range(items.clone()) };
                    let velocities = Integration::Velocities(&params[items]);
                    // SAFETY: `eight` came from the bundles.
                    unsafe { integrate(eight, velocities, block, h, max_speed) };
                }
                Pass::IntegratePositions => {
                    let block = unsafe { view.states.range(items) };
                    // SAFETY: as above.
                    unsafe { integrate(eight, Integration::Positions, block, h, max_speed) };
                }
                Pass::WarmStart(c) => unsafe {
                    view.run_colors(c, items, |j, st| j.warm_start(st), &WarmStart)
                },
                Pass::Solve(c) => unsafe {
                    let solve = Solve { inv_h, bias: Some((softness, max_push)) };
                    view.run_colors(c, items, |j, st| j.solve(st, inv_h, true), &solve)
                },
                Pass::Relax(c) => unsafe {
                    let relax = Solve { inv_h, bias: None };
                    view.run_colors(c, items, |j, st| j.solve(st, inv_h, false), &relax)
                },
                Pass::Restitution(c) => unsafe {
                    view.run_colors(c, items, |_, _| {}, &Restitution { threshold, manifolds, places })
                },
                Pass::GatherImpulses(c) => unsafe { view.gather_colors(c, items) },
            }
        };
        let start = timed.then(std::time::Instant::now);
        self.team.run(if on_team { threads } else { 1 }, &run);
        if let Some(start) = start {
            self.pace.record(on_team, items, start.elapsed().as_secs_f64());
        }
    }

    /// Each colour that holds a constraint, with its count of items (joints
    /// solved alone, bundles of revolute joints, of point joints and of
    /// contacts): a small
    /// world uses a few of the colours, and its step should not pay for the
    /// others in every pass.
    fn used_colors(&self) -> ArrayVec<(u8, usize), COLOR_COUNT> {
        let count = |starts: &[usize; COLOR_COUNT + 1], c: usize| starts[c + 1] - starts[c];
        (0..COLOR_COUNT)
            .map(|c| {
                let items = count(&self.other_joints.starts, c)
                    + count(&self.point_bundle_starts, c)
                    + count(&self.revolute_bundle_starts, c)
                    + count(&self.bundle_starts, c);
                (c as u8, items)
            })
            .filter(|&(_, items)| items > 0)
            .collect()
    }

    /// Writes the accumulated impulses back to the contacts and joints, for the
    /// next step's warm start, with each joint's force and torque over a
    /// substep of `h` seconds.
    ///
    /// A joint whose impulses are not finite keeps none: joint rows that
    /// contradict each other without bound (two anchors 10³⁷ m apart) can
    /// overflow, and the bodies' velocities are held sane as they are
    /// written (`scatter_sane_velocity`), so nothing else would clear them;
    /// they would reach the joint's force and the next step's warm start.
    /// `keys` are the narrow phase's keys, by place.
    pub fn store_impulses(
        &mut self,
        contacts: &mut SlotMap<ContactKey, Contact>,
        keys: &[ContactKey],
        joints: &mut TaggedMap<JointKey, Joint>,
        h: Real,
    ) {
        // Gathered by the solve's last passes (`run_substeps`).
        let (places, gathered) = (&self.contact_places, &self.contact_impulses);
        write_contact_impulses(gathered, places, keys, contacts, &mut self.borrowed_contacts, self.threads);
        let places = &self.revolute_place;
        match &self.revolute_bundles {
            Bundles::Four(bundles) => take_revolute_impulses(bundles, places, &mut self.revolutes),
            Bundles::Eight(bundles, _) => take_revolute_impulses(bundles, places, &mut self.revolutes),
        }
        let (keys, buffer, threads) = (&self.joint_keys, &mut self.borrowed_joints, self.threads);
        store_joint_impulses(&self.joints, &self.other_joints.order, keys, joints, h, buffer, threads);
        store_joint_impulses(&self.revolutes, &self.revolute_joints.order, keys, joints, h, buffer, threads);
        let gathered = &mut self.point_impulses;
        match &self.point_bundles {
            Bundles::Four(bundles) => gather_point_impulses(bundles, self.joint_keys.len(), gathered),
            Bundles::Eight(bundles, _) => gather_point_impulses(bundles, self.joint_keys.len(), gathered),
        }
        let listed = (self.joint_plain.as_slice(), self.joint_keys.as_slice());
        store_point_impulses(gathered, listed, joints, h, &mut self.borrowed_joints, self.threads);
    }
}

/// The joints `order` prepared by `prepare`, in that order, into `out`; in
/// parallel where there are enough of them.
fn prepare_in_order(
    order: &[u32],
    prepare: &(impl Fn(u32) -> JointConstraint + Sync),
    out: &mut Vec<JointConstraint>,
    threads: Threads,
) {
    if !threads.share(order.len(), 2 * JOINT_PREPARE_CHUNK) {
        out.clear();
        out.extend(order.iter().map(|&i| prepare(i)));
    } else {
        order.par_iter().with_min_len(JOINT_PREPARE_CHUNK).map(|&i| prepare(i)).collect_into_vec(out);
    }
}

/// Body `key`'s solver index, `NO_INDEX` if it has none (not solved this
/// step, or a key of no body): what `Body::solver_index` holds, read from
/// the dense `solver_of_slot` of [`Solver::gather_bodies`] by the key's slot
/// and version instead of through the body map.
fn solver_index(solver_of_slot: &[(u32, u32)], key: impl slotmap::Key) -> u32 {
    let (slot, version) = index_and_version(key);
    match solver_of_slot.get(slot as usize) {
        Some(&(v, index)) if v == version => index,
        _ => NO_INDEX,
    }
}

#[cfg(test)]
mod tests;
