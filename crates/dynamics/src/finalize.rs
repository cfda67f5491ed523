//! The end of a step: the solver's motion written back to the bodies, fast
//! bodies swept for continuous collision, sleep timers, and the colliders'
//! bounds for the next step's broad phase.

use lamina_geometry::tolerance::LINEAR_SLOP;
use lamina_geometry::{Isometry, Real, Vec2};
use rayon::prelude::*;

use lamina_broadphase::Refit;
use lamina_narrowphase::Sweep;

use crate::body::Body;
use crate::broad_phase::{BroadPhase, FirstBounds, ProxyKey, ProxyOutcome, contact_bounds, first_bounds};
use crate::collider::Collider;
use crate::contact_set::ContactSet;
use crate::continuous::{Obstacles, Stop, SweepTargets, is_fast};
use crate::hooks::Hooks;
use crate::joint::Joint;
use crate::parallel::disjoint::{borrow_each, borrow_some, recycle, update_each};
use crate::parallel::pace::Threads;
use crate::profile::StepProfile;
use crate::solver::Solver;
use crate::solver::body_state::BodyState;
use crate::solver::integrate::integrate_rotation;
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, ColliderKey, JointKey, WorldSettings};

/// The buffers of finalisation, kept from step to step so that a warm step
/// allocates nothing; they hold nothing from one step to the next that the
/// result depends on.
#[derive(Default)]
pub(crate) struct FinalizeBuffers {
    finished: Vec<FinishedBody>,
    /// What each run of finished bodies leaves to the serial part.
    finished_runs: Vec<FinishedRun>,
    /// The bodies and colliders written back, borrowed for one step: kept
    /// empty between steps as buffers of pointer-sized elements.
    borrowed_bodies: Vec<usize>,
    borrowed_colliders: Vec<usize>,
    /// The awake bodies written after the sweeps, by solver index, and
    /// their finished states once swept.
    waiting: Vec<u32>,
    swept: Vec<FinishedBody>,
    /// Fast bullets with their motion and how much of it they may keep.
    bullet_moves: Vec<(BodyKey, Sweep, Real)>,
    /// The broad-phase proxies moved, with their new bounds, and what each
    /// move tells its collider.
    proxy_moves: Vec<Refit<ProxyKey>>,
    proxy_outcomes: Vec<Option<ProxyOutcome>>,
    /// The colliders of finished bodies with several, at their bodies' new
    /// poses, and the move each one's proxy needs, if any.
    collider_poses: Vec<(ColliderKey, Isometry)>,
    collider_moves: Vec<Option<Refit<ProxyKey>>>,
}

/// The end of a step, with the parts of the world it reads and writes.
pub(crate) struct Finalize<'w> {
    pub settings: &'w WorldSettings,
    pub bodies: &'w mut TaggedMap<BodyKey, Body>,
    pub colliders: &'w mut TaggedMap<ColliderKey, Collider>,
    /// Read for continuous collision; a body held still clears its joints'
    /// impulses, and its contacts'.
    pub joints: &'w mut TaggedMap<JointKey, Joint>,
    pub contacts: &'w mut ContactSet,
    pub broad_phase: &'w mut BroadPhase,
    /// The step's awake bodies, their solved states and first colliders.
    pub solver: &'w mut Solver,
    pub profile: &'w mut StepProfile,
    pub threads: Threads,
    pub buffers: &'w mut FinalizeBuffers,
    /// Asked before continuous collision stops a body at an opted-in collider.
    pub hooks: &'w Hooks,
}

impl Finalize<'_> {
    /// Writes the solver's motion back to the bodies, updates sleep timers,
    /// bounding boxes and broad-phase proxies.
    ///
    /// Every awake body is borrowed with its first collider, and finished
    /// from them alone, in parallel: its new pose, velocities, sleep timer
    /// and first collider's bounds, with whether those still fit the
    /// collider's proxy, are computed and written in the one visit
    /// ([`Finalize::finish_in_place`]). Bodies and colliders are several cache
    /// lines each, and a world of thousands of them does not stay in the
    /// cache between two passes over it.
    ///
    /// A fast body that may meet a fixed or kinematic one is not written
    /// there: it is swept against them afterwards, as they stood at the
    /// step's start (kinematic bodies wait too), then written. What touches
    /// more than the body (the proxies that must move, fast bullets, a body
    /// whose motion is not finite) follows in a serial pass in body order.
    pub(crate) fn finalize(&mut self, dt: Real) {
        let awake = std::mem::take(&mut self.solver.awake);
        let mut finished = std::mem::take(&mut self.buffers.finished);
        let mut runs = std::mem::take(&mut self.buffers.finished_runs);
        self.finish_in_place(&awake, &mut finished, &mut runs, dt);
        self.sweep_at_immovables(&awake, &mut finished, &mut runs, dt);
        let mut bullets = std::mem::take(&mut self.buffers.bullet_moves);
        bullets.clear();
        let mut poses = std::mem::take(&mut self.buffers.collider_poses);
        poses.clear();
        self.profile.held_bodies = 0;
        let fast: usize = runs.iter().map(|run| run.fast as usize).sum();
        // Only the runs that hold a body with something left to do are
        // visited: a pile at rest leaves nothing.
        for bodies in serial_runs(&runs, awake.len()) {
            for (&key, f) in awake[bodies.clone()].iter().zip(&finished[bodies]) {
                match f.writing {
                    Writing::Held => self.hold_still(key),
                    Writing::Bullet => {
                        let b = &mut self.bodies[key];
                        bullets.push((key, Sweep::between(&b.pose, &f.pose, b.local_center), 1.0));
                        f.write_to(b);
                        self.refresh_bounds(key, f.first);
                    }
                    Writing::Refit => self.refresh_bounds(key, f.first),
                    Writing::Several => {
                        let b = &mut self.bodies[key];
                        b.bounds_stale = false;
                        poses.extend(b.colliders.iter().map(|&ck| (ck, f.pose)));
                    }
                    // Moved in one batch below.
                    Writing::Moved(_) | Writing::Kept(_) => {}
                }
            }
        }
        self.move_proxies(&awake, &finished, &runs, &poses);
        self.buffers.collider_poses = poses;
        self.profile.fast_bodies = if self.settings.enable_continuous { fast } else { 0 };
        if !bullets.is_empty() {
            self.sweep_bullets(&mut bullets, dt);
        }
        self.buffers.bullet_moves = bullets;
        self.solver.awake = awake;
        self.buffers.finished = finished;
        self.buffers.finished_runs = runs;
    }

    /// Finishes every awake body (`awake`, the solver's) into `finished`
    /// and writes back those that need nothing but themselves (see
    /// [`Writing`]), with the bounds of a lone collider ([`Writing::Kept`],
    /// [`Writing::Moved`]), on several threads when there are many. Bodies left for later
    /// are marked [`FinishedBody::waits`].
    /// `runs` gets a summary of each run of [`FINALIZE_CHUNK`] bodies.
    fn finish_in_place(
        &mut self,
        awake: &[BodyKey],
        finished: &mut Vec<FinishedBody>,
        runs: &mut Vec<FinishedRun>,
        dt: Real,
    ) {
        let mut bodies: Vec<&mut crate::Body> = recycle(std::mem::take(&mut self.buffers.borrowed_bodies));
        let mut colliders: Vec<Option<&mut crate::Collider>> =
            recycle(std::mem::take(&mut self.buffers.borrowed_colliders));
        // SAFETY: the solver's awake bodies are live and listed once each
        // (`Solver::gather_bodies` indexed each this step, from a walk of the
        // map, from the map's keys by slot (the world's mirror of its body
        // keys, each live key once) or from `AwakeLists::list_bodies`, whose
        // `KeySet` gives each key once), and `first_colliders` holds each one's first collider, read
        // then; nothing since has removed a body or a collider, and a
        // collider belongs to one body, so no key comes twice. Nothing reads
        // the maps until the references are dropped, when the buffers are
        // recycled.
        unsafe {
            borrow_each(self.bodies.raw_mut(), awake.iter().copied(), &mut bodies);
            borrow_some(
                self.colliders.raw_mut(),
                self.solver.first_colliders.iter().copied(),
                &mut colliders,
            );
        }
        let states = &self.solver.states;
        let settings = &self.settings;
        let (sleep_speed, continuous) = (settings.sleep_linear_velocity, settings.enable_continuous);
        // With no fixed or kinematic collider anywhere (a drum turned by a
        // motor, a world in free fall) a sweep could only find nothing.
        let immovables = !self.broad_phase.immovable().is_empty();
        let margin = settings.speculative_distance;
        let finish = |b: &mut crate::Body, c: Option<&mut crate::Collider>, state: &BodyState| {
            let mut f = finish_body(b, state, dt, sleep_speed);
            f.first = c.as_deref().map(|c| first_bounds(c, &f.pose, margin));
            f.writing = f.writing(b, continuous);
            f.sweeps = continuous && f.fast && !b.bullet && immovables;
            // A sweep reads the fixed and kinematic bodies as they were.
            f.waits = f.sweeps || b.kind == crate::BodyKind::Kinematic;
            if !f.waits {
                f.write_in_place(b, c);
            }
            f
        };
        // Every entry is overwritten below: only new places need filling.
        finished.truncate(awake.len());
        finished.resize(awake.len(), FinishedBody::unset());
        let run = |(((bodies, colliders), states), out): BodyRun<'_, '_>| {
            let mut run = FinishedRun { fast: 0, moved: 0, serial: false, waits: false };
            for (((b, c), state), f) in bodies.iter_mut().zip(colliders).zip(states).zip(out) {
                *f = finish(b, c.as_deref_mut(), state);
                run.fast += u32::from(f.fast);
                run.moved += u32::from(matches!(f.writing, Writing::Moved(_)));
                run.waits |= f.waits;
                run.serial |= f.waits || !matches!(f.writing, Writing::Kept(_));
            }
            run
        };
        if !self.threads.share(awake.len(), SHARED_FROM) {
            runs.clear();
            let chunks = bodies.chunks_mut(FINALIZE_CHUNK).zip(colliders.chunks_mut(FINALIZE_CHUNK));
            let chunks = chunks.zip(states.chunks(FINALIZE_CHUNK)).zip(finished.chunks_mut(FINALIZE_CHUNK));
            runs.extend(chunks.map(run));
        } else {
            bodies
                .par_chunks_mut(FINALIZE_CHUNK)
                .zip(colliders.par_chunks_mut(FINALIZE_CHUNK))
                .zip(states.par_chunks(FINALIZE_CHUNK))
                .zip(finished.par_chunks_mut(FINALIZE_CHUNK))
                .map(run)
                .collect_into_vec(runs);
        }
        self.buffers.borrowed_bodies = recycle(bodies);
        self.buffers.borrowed_colliders = recycle(colliders);
    }

    /// Sweeps the fast bodies that [`Finalize::finish_in_place`] left waiting
    /// against the fixed and kinematic bodies, which are still where the
    /// step began, then writes every waiting body back as that pass would.
    fn sweep_at_immovables(
        &mut self,
        awake: &[BodyKey],
        finished: &mut [FinishedBody],
        runs: &mut [FinishedRun],
        dt: Real,
    ) {
        let mut waiting = std::mem::take(&mut self.buffers.waiting);
        waiting.clear();
        for (r, _) in runs.iter().enumerate().filter(|(_, run)| run.waits) {
            let first = r * FINALIZE_CHUNK;
            let run = &finished[first..(first + FINALIZE_CHUNK).min(finished.len())];
            waiting.extend(run.iter().enumerate().filter(|(_, f)| f.waits).map(|(i, _)| (first + i) as u32));
        }
        if waiting.is_empty() {
            self.buffers.waiting = waiting;
            return;
        }
        let continuous = self.settings.enable_continuous;
        let mut swept = std::mem::take(&mut self.buffers.swept);
        let world = &*self;
        // Each waiting body alone: the bodies it reads are fixed or waiting.
        let sweep = |&i: &u32| {
            let (key, mut f) = (awake[i as usize], finished[i as usize]);
            let b = &world.bodies[key];
            if f.sweeps {
                world.stop_at_immovables(key, b, &mut f, dt);
                f.writing = f.writing(b, continuous);
            }
            f
        };
        if !self.threads.share(waiting.len(), SHARED_FROM) {
            swept.clear();
            swept.extend(waiting.iter().map(sweep));
        } else {
            waiting.par_iter().with_min_len(FINALIZE_CHUNK).map(sweep).collect_into_vec(&mut swept);
        }
        for (&i, &f) in waiting.iter().zip(&swept) {
            // The run's count of moved bodies follows the sweep's verdict.
            let was = matches!(finished[i as usize].writing, Writing::Moved(_));
            let run = &mut runs[i as usize / FINALIZE_CHUNK];
            run.moved = run.moved + u32::from(matches!(f.writing, Writing::Moved(_))) - u32::from(was);
            finished[i as usize] = f;
        }
        self.write_swept(awake, &waiting, &swept);
        self.buffers.waiting = waiting;
        self.buffers.swept = swept;
    }

    /// Writes back each swept body (`swept[n]`, the body of `awake` at
    /// `waiting[n]`) as [`FinishedBody::write_in_place`] does, with its only
    /// collider's bounds where it is [`Writing::Kept`] or [`Writing::Moved`];
    /// on several threads
    /// when there are many. Each body is written from one visit, by the
    /// thread that takes it: the sweeps that finished them ran on every
    /// thread, and a walk on one would fetch every body from another core.
    fn write_swept(&mut self, awake: &[BodyKey], waiting: &[u32], swept: &[FinishedBody]) {
        let kept = |f: &FinishedBody| match f.writing {
            Writing::Kept(ck) | Writing::Moved(ck) => Some(ck),
            _ => None,
        };
        if !self.threads.share(waiting.len(), SHARED_FROM) {
            for (&i, f) in waiting.iter().zip(swept) {
                let b = &mut self.bodies[awake[i as usize]];
                f.write_in_place(b, kept(f).and_then(|ck| self.colliders.get_mut(ck)));
            }
            return;
        }
        let mut bodies: Vec<&mut crate::Body> = recycle(std::mem::take(&mut self.buffers.borrowed_bodies));
        let mut colliders: Vec<Option<&mut crate::Collider>> =
            recycle(std::mem::take(&mut self.buffers.borrowed_colliders));
        // SAFETY: `waiting` names each of its bodies once (increasing places
        // in the solver's awake list, whose keys are live and distinct, see
        // `finish_in_place`), and a kept collider is its body's first, read
        // from the body this step: no key comes twice, and nothing removed
        // them since. Nothing reads the maps until the references are
        // dropped, when the buffers are recycled.
        unsafe {
            borrow_each(self.bodies.raw_mut(), waiting.iter().map(|&i| awake[i as usize]), &mut bodies);
            borrow_some(self.colliders.raw_mut(), swept.iter().map(kept), &mut colliders);
        }
        bodies
            .par_iter_mut()
            .zip(colliders.par_iter_mut())
            .zip(swept.par_iter())
            .with_min_len(FINALIZE_CHUNK)
            .for_each(|((b, c), f)| f.write_in_place(b, c.as_deref_mut()));
        self.buffers.borrowed_bodies = recycle(bodies);
        self.buffers.borrowed_colliders = recycle(colliders);
    }

    /// Moves the fast body `b` (of key `key`), finished as `f`, back to where
    /// its motion over the step first meets a fixed or kinematic body, and
    /// takes from its velocity what still pushes into that body.
    fn stop_at_immovables(&self, key: BodyKey, b: &crate::Body, f: &mut FinishedBody, dt: Real) {
        let sweep = || Sweep::between(&b.pose, &f.pose, b.local_center);
        if self.passes_no_immovable(b, f) {
            debug_assert_eq!(
                self.obstacles().sweep_fraction(key, &sweep(), SweepTargets::Immovable, dt),
                Stop::NONE
            );
            return;
        }
        let sweep = sweep();
        let stop = self.obstacles().sweep_fraction(key, &sweep, SweepTargets::Immovable, dt);
        if stop.fraction < 1.0 {
            f.move_to(&sweep.pose_at(stop.fraction), b.local_center);
            let ck = b.colliders.first().copied();
            f.first =
                ck.map(|ck| first_bounds(&self.colliders[ck], &f.pose, self.settings.speculative_distance));
        }
        if let Some(normal) = stop.pressed {
            let approach = f.linear_velocity.dot(&normal).min(0.0);
            f.linear_velocity -= normal * approach;
        }
    }

    /// Moves the broad-phase proxies that left their fat boxes, in one
    /// batch (`RefitBatch::refit_all`): those of the bodies written back in
    /// place whose only collider left its box ([`Writing::Moved`]), then
    /// those of the colliders `poses` places ([`Writing::Several`], see
    /// [`Finalize::bound_colliders`]). Where most of a region's proxies move (a
    /// tumbling pile), the region is re-sorted whole rather than entry by
    /// entry, and what each move does is worked out on the pool. The bodies
    /// themselves are not read: on several threads they were last written
    /// on another core.
    fn move_proxies(
        &mut self,
        awake: &[BodyKey],
        finished: &[FinishedBody],
        runs: &[FinishedRun],
        poses: &[(ColliderKey, Isometry)],
    ) {
        let mut moves = std::mem::take(&mut self.buffers.proxy_moves);
        let mut several = std::mem::take(&mut self.buffers.collider_moves);
        self.bound_colliders(poses, &mut several);
        moves.clear();
        // Exactly as long as needed: the list is kept from step to step.
        let count =
            runs.iter().map(|run| run.moved as usize).sum::<usize>() + several.iter().flatten().count();
        moves.reserve_exact(count);
        // The proxies to move, with their new bounds, in body order.
        moves.extend(serial_runs(runs, awake.len()).flat_map(|bodies| &finished[bodies]).filter_map(
            |b| match (&b.writing, b.first) {
                (Writing::Moved(ck), Some(first)) => Some((ProxyKey::of(*ck), first.hint, first.aabb)),
                _ => None,
            },
        ));
        moves.extend(several.iter().flatten());
        debug_assert_eq!(moves.len(), count, "the runs counted their moved bodies");
        let mut outcomes = std::mem::take(&mut self.buffers.proxy_outcomes);
        self.broad_phase.refit_all(&moves, &mut outcomes);
        self.tell_colliders(&moves, &outcomes);
        self.buffers.proxy_outcomes = outcomes;
        self.buffers.proxy_moves = moves;
        self.buffers.collider_moves = several;
    }

    /// Tells the collider of each of `moves` what its proxy's move gave
    /// (`outcomes`, in step): its new box and place. On several threads
    /// when there are many ([`update_each`]): a crowd moves thousands of
    /// proxies a step, each collider a cache miss of its own, last written
    /// on either core.
    fn tell_colliders(&mut self, moves: &[Refit<ProxyKey>], outcomes: &[Option<ProxyOutcome>]) {
        debug_assert_eq!(moves.len(), outcomes.len());
        let tag = self.colliders.tag();
        let keys = moves.iter().map(|&(key, _, _)| Some(key.in_world(tag)));
        let sharing = (&mut self.buffers.borrowed_colliders, self.threads, FINALIZE_CHUNK);
        // SAFETY: `moves` lists the first colliders of bodies written back
        // in place and the colliders of bodies of several, each body once
        // (`move_proxies`), all read from their bodies this step: the keys
        // are live, and distinct since a collider belongs to one body.
        // Nothing removed them since.
        unsafe {
            update_each(self.colliders, keys, outcomes, sharing, |c, outcome| {
                if let Some(outcome) = outcome {
                    outcome.tell(c);
                }
            });
        }
    }

    /// Gives each collider of `poses` its bounds on its body at the pose
    /// given, and lists in `moves` (one entry per collider) the move of each
    /// one whose bounds left its proxy's box: on several threads when there
    /// are many, each collider a cache miss of its own.
    fn bound_colliders(
        &mut self,
        poses: &[(ColliderKey, Isometry)],
        moves: &mut Vec<Option<Refit<ProxyKey>>>,
    ) {
        let margin = self.settings.speculative_distance;
        let bound = |(ck, pose): &(ColliderKey, Isometry), c: &mut crate::Collider| {
            c.aabb = contact_bounds(c, pose, margin);
            (!c.proxy_box.contains(&c.aabb)).then_some((ProxyKey::of(*ck), c.proxy_hint, c.aabb))
        };
        moves.clear();
        if !self.threads.share(poses.len(), SHARED_FROM) {
            moves.extend(
                poses.iter().map(|entry| self.colliders.get_mut(entry.0).and_then(|c| bound(entry, c))),
            );
            return;
        }
        let mut colliders: Vec<&mut crate::Collider> =
            recycle(std::mem::take(&mut self.buffers.borrowed_colliders));
        // SAFETY: `poses` lists the colliders of finished bodies of several
        // colliders, each body once (a visit of the serial pass), read from
        // the body this step: the keys are live, and distinct since a
        // collider belongs to one body. Nothing removed them since. Nothing
        // reads the map until the references are dropped, when the buffer
        // is recycled.
        unsafe { borrow_each(self.colliders.raw_mut(), poses.iter().map(|&(ck, _)| ck), &mut colliders) };
        colliders
            .par_iter_mut()
            .zip(poses.par_iter())
            .with_min_len(FINALIZE_CHUNK)
            .map(|(c, entry)| bound(entry, c))
            .collect_into_vec(moves);
        self.buffers.borrowed_colliders = recycle(colliders);
    }

    /// Gives every collider of `key` its bounds at the body's pose and moves
    /// its proxies if needed (see [`BroadPhase::refresh`]); `first`, when
    /// given, is the first collider's bounds, already computed.
    fn refresh_bounds(&mut self, key: BodyKey, first: Option<FirstBounds>) {
        let margin = self.settings.speculative_distance;
        self.broad_phase.refresh(&mut self.bodies[key], self.colliders, first, margin);
    }

    /// What a sweep may stop at, as the bodies stand now.
    fn obstacles(&self) -> Obstacles<'_> {
        Obstacles {
            bodies: self.bodies,
            colliders: self.colliders,
            broad_phase: self.broad_phase,
            joints: self.joints,
            hooks: self.hooks,
        }
    }

    /// The last line of the promise that no NaN enters the state from finite
    /// input: a body whose solved motion is not finite (finite factors can
    /// still multiply past the largest `Real` in the solver's rows) stays
    /// where it was, at rest, and the impulses of its joints and contacts,
    /// which carried the overflow and would bring it back through warm
    /// starting, are cleared. Counted in [`StepProfile::held_bodies`](crate::StepProfile::held_bodies).
    fn hold_still(&mut self, key: BodyKey) {
        self.profile.held_bodies += 1;
        let b = &mut self.bodies[key];
        b.linear_velocity = Vec2::zeros();
        b.angular_velocity = 0.0;
        b.sleep_time = 0.0;
        b.force = Vec2::zeros();
        b.torque = 0.0;
        for &j in &b.joints {
            self.joints[j].clear_impulses();
        }
        for &c in &b.contacts {
            for point in &mut self.contacts[c].points {
                point.normal_impulse = 0.0;
                point.tangent_impulse = 0.0;
            }
        }
    }

    /// Sweeps the fast bullets (each with its motion over the step) against
    /// every other body at its end-of-step pose, each bullet on its own (in
    /// parallel when the step shares its work), then moves each back to its
    /// first touch.
    fn sweep_bullets(&mut self, bullets: &mut [(BodyKey, Sweep, Real)], dt: Real) {
        let world = &*self;
        let sweep = |(key, sweep, fraction): &mut (BodyKey, Sweep, Real)| {
            *fraction =
                world.obstacles().sweep_fraction(*key, sweep, SweepTargets::AllButBullets, dt).fraction;
        };
        if self.threads.share(bullets.len(), 2) {
            bullets.par_iter_mut().for_each(sweep);
        } else {
            bullets.iter_mut().for_each(sweep);
        }
        for &(key, sweep, fraction) in bullets.iter() {
            if fraction < 1.0 {
                let pose = sweep.pose_at(fraction);
                let b = &mut self.bodies[key];
                b.pose = pose;
                b.center = pose * b.local_center;
                self.refresh_bounds(key, None);
            }
        }
    }

    /// True when body `b`, finishing as `f`, has a single collider and no
    /// fixed or kinematic collider's proxy comes near the box that holds its
    /// bounds at both ends of the step: its sweep could then meet nothing, and
    /// need not be set up. The box is the collider's bounds at the start and
    /// at the end (each grown by the speculative distance), grown further by
    /// the linear slop the sweep's own path box has, and by a millimetre and
    /// a millionth of the coordinates for the rounding between the sweep's
    /// poses and the body's.
    fn passes_no_immovable(&self, b: &crate::Body, f: &FinishedBody) -> bool {
        let (&[ck], Some(first)) = (b.colliders.as_slice(), f.first) else { return false };
        let path = self.colliders[ck].aabb.merged(&first.aabb);
        let reach = path.mins.coords.abs().max().max(path.maxs.coords.abs().max());
        let path = path.loosened(LINEAR_SLOP + 1.0e-3 + 1.0e-6 * reach);
        let mut met = false;
        let _ = self.broad_phase.immovable().query_with(&path, |_| met = true);
        !met
    }
}

/// Bodies per task when finalising on several threads, and per run of
/// [`FinishedRun`].
const FINALIZE_CHUNK: usize = 256;

/// Bodies (or colliders) from which finalising them is worth sharing with
/// the pool: two runs at least.
const SHARED_FROM: usize = 2 * FINALIZE_CHUNK;

/// Whether finalising `awake` bodies is worth sharing with the pool.
pub(crate) fn finalize_shares(awake: usize) -> bool {
    awake >= SHARED_FROM
}

/// The places in the awake list (of `len` bodies) of the runs that hold a
/// body the serial part of finalisation must visit, in order.
fn serial_runs(runs: &[FinishedRun], len: usize) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    runs.iter()
        .enumerate()
        .filter(|(_, run)| run.serial)
        .map(move |(r, _)| r * FINALIZE_CHUNK..((r + 1) * FINALIZE_CHUNK).min(len))
}

/// A run of awake bodies as the parallel part of finalisation takes it:
/// the bodies, their first colliders, their solver states and their places
/// in the finished list.
type BodyRun<'r, 'w> = (
    ((&'r mut [&'w mut crate::Body], &'r mut [Option<&'w mut crate::Collider>]), &'r [BodyState]),
    &'r mut [FinishedBody],
);

/// What a run of [`FINALIZE_CHUNK`] finished bodies (the last one shorter)
/// leaves to the serial part of [`Finalize::finalize`], noted by the parallel
/// part as it finishes them: the serial part then visits only the runs with
/// something left to do instead of every body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FinishedRun {
    /// Its bodies that moved far for their size.
    fast: u32,
    /// Its bodies whose lone collider left its proxy ([`Writing::Moved`]),
    /// after the sweeps.
    moved: u32,
    /// Some body of it waits for the sweeps ([`FinishedBody::waits`]).
    waits: bool,
    /// Some body of it waits or is not [`Writing::Kept`]: held still, a
    /// bullet, or its proxies to refit or move.
    serial: bool,
}

/// A body's state at the end of a step, before it is written back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FinishedBody {
    linear_velocity: Vec2,
    angular_velocity: Real,
    center: lamina_geometry::Point,
    pose: Isometry,
    sleep_time: Real,
    /// The first collider's swept bounds, if the body has a collider.
    first: Option<FirstBounds>,
    /// The body moved far for its size: continuous collision sweeps it.
    fast: bool,
    /// It is swept against the fixed and kinematic bodies.
    sweeps: bool,
    /// It is written back after the sweeps ([`Finalize::sweep_at_immovables`]),
    /// not in place: it sweeps, or it is kinematic (and may be swept against).
    waits: bool,
    /// How it is written back.
    writing: Writing,
}

/// How [`Finalize::finalize`] writes a finished body back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Writing {
    /// Its motion is not finite: the serial pass holds it still.
    Held,
    /// A fast bullet: the serial pass writes it, noting its sweep from the
    /// pose it leaves.
    Bullet,
    /// Written by the parallel pass (on several threads when there are many
    /// bodies); the serial pass then refits its proxies: a fixed or
    /// kinematic body (whose colliders the index of immovables holds too),
    /// or one without a collider.
    Refit,
    /// A dynamic body with several colliders, written by the parallel pass:
    /// the serial pass lists its colliders, whose bounds are then computed
    /// on the pool ([`Finalize::bound_colliders`]), and whose proxies move with
    /// the batch of [`Writing::Moved`].
    Several,
    /// A dynamic body with one collider, whose new bounds left its proxy:
    /// written in parallel with those bounds, and the serial pass moves the
    /// proxy from them alone, without reading the body again.
    Moved(crate::ColliderKey),
    /// Written in parallel with its only collider's bounds, which still fit
    /// the collider's proxy: nothing is left for the broad phase.
    Kept(crate::ColliderKey),
}

impl FinishedBody {
    /// A place to be filled before it is written.
    fn unset() -> FinishedBody {
        FinishedBody {
            linear_velocity: Vec2::new(0.0, 0.0),
            angular_velocity: 0.0,
            center: lamina_geometry::Point::new(0.0, 0.0),
            pose: Isometry::identity(),
            sleep_time: 0.0,
            first: None,
            fast: false,
            sweeps: false,
            waits: false,
            writing: Writing::Held,
        }
    }

    /// Whether every number of the finished state is finite.
    fn is_finite(&self) -> bool {
        let t = self.pose.translation.vector;
        let q = self.pose.rotation;
        [
            self.linear_velocity.x,
            self.linear_velocity.y,
            self.angular_velocity,
            self.center.x,
            self.center.y,
            t.x,
            t.y,
            q.re,
            q.im,
        ]
        .iter()
        .all(|v| v.is_finite())
    }

    /// How the body `b`, finished as this, is written back, with
    /// continuous collision on or not.
    fn writing(&self, b: &crate::Body, continuous: bool) -> Writing {
        if !self.is_finite() {
            Writing::Held
        } else if continuous && self.fast && b.bullet {
            Writing::Bullet
        } else {
            match (b.colliders.as_slice(), self.first) {
                (&[ck], Some(first)) if first.inside_proxy => Writing::Kept(ck),
                (&[ck], Some(_)) if b.kind == crate::BodyKind::Dynamic => Writing::Moved(ck),
                ([_, _, ..], _) if b.kind == crate::BodyKind::Dynamic => Writing::Several,
                _ => Writing::Refit,
            }
        }
    }

    /// Writes the finished motion to `b`, with its forces cleared for the
    /// next step.
    fn write_to(&self, b: &mut crate::Body) {
        b.linear_velocity = self.linear_velocity;
        b.angular_velocity = self.angular_velocity;
        b.center = self.center;
        b.pose = self.pose;
        b.sleep_time = self.sleep_time;
        b.force = Vec2::zeros();
        b.torque = 0.0;
    }

    /// Writes the finished body back to `b` as its [`Writing`] says, with
    /// the bounds of its only collider `c` where it has one collider and is
    /// [`Writing::Kept`] or [`Writing::Moved`]; held bodies and bullets are
    /// left to the serial pass.
    fn write_in_place(&self, b: &mut crate::Body, c: Option<&mut crate::Collider>) {
        match self.writing {
            Writing::Held | Writing::Bullet => {}
            Writing::Refit | Writing::Several => self.write_to(b),
            Writing::Kept(_) | Writing::Moved(_) => {
                self.write_to(b);
                if let (Some(c), Some(first)) = (c, self.first) {
                    b.bounds_stale = false;
                    c.aabb = first.aabb;
                }
            }
        }
    }

    /// Moves the finished body to `pose` (its time of impact), keeping its velocity.
    fn move_to(&mut self, pose: &Isometry, local_center: lamina_geometry::Point) {
        self.pose = *pose;
        self.center = pose * local_center;
    }
}

/// The end-of-step state of body `b` from its solver state `state` (its
/// bounds are left for later: continuous collision may still move it).
fn finish_body(b: &crate::Body, state: &BodyState, dt: Real, sleep_speed: Real) -> FinishedBody {
    let center = b.center + state.dp;
    let rotation = integrate_rotation(&(state.dq * b.pose.rotation), 0.0);
    let origin = center - rotation * b.local_center.coords;
    let pose = Isometry::from_parts(origin.coords.into(), rotation);
    let speed = state.v.norm() + b.extent * state.w.abs();
    // A kinematic body moves at the velocity it was given, however slow: falling
    // asleep would stop it.
    let driven = b.kind == crate::BodyKind::Kinematic && (state.v != Vec2::zeros() || state.w != 0.0);
    let sleep_time = if !b.can_sleep || driven || speed > sleep_speed { 0.0 } else { b.sleep_time + dt };
    // How far the body went, or would go at its end velocity: either can carry
    // a thin obstacle past its middle. (The turn's sine stands for its angle:
    // a substep turns by at most a quarter turn.)
    let motion = (state.dp.norm() + state.dq.im.abs() * b.extent).max(speed * dt);
    FinishedBody {
        linear_velocity: state.v,
        angular_velocity: state.w,
        center,
        pose,
        sleep_time,
        first: None,
        fast: is_fast(b, motion),
        sweeps: false,
        waits: false,
        writing: Writing::Refit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyDesc, ColliderDesc, World, WorldSettings};
    use lamina_geometry::{Point, Shape};

    /// A world that finalisation writes every way: hundreds of small bodies
    /// thrown down at a floor (fast, so swept against it, then kept in their
    /// proxies or moved), bodies of two colliders (bounded on the pool, and
    /// their proxies moved with the others), kinematic
    /// bodies sliding along (refitted, in the index of immovables too) and a
    /// bullet.
    fn mixed_world() -> World {
        let mut world = World::new(WorldSettings::default());
        let floor = world.add_body(BodyDesc::fixed());
        world.add_collider(floor, ColliderDesc::new(Shape::rectangle(60.0, 0.5))).unwrap();
        for i in 0..900 {
            let (x, y) = ((i % 60) as Real - 30.0, 2.0 + (i / 60) as Real * 0.7);
            let thrown = BodyDesc::dynamic().translation(x, y).linear_velocity(Vec2::new(0.5, -40.0));
            let b = world.add_body(thrown);
            let shape = if i % 2 == 0 { Shape::circle(0.2) } else { Shape::rectangle(0.2, 0.15) };
            world.add_collider(b, ColliderDesc::new(shape)).unwrap();
        }
        for i in 0..300 {
            let (x, y) = ((i % 50) as Real * 1.2 - 30.0, 14.0 + (i / 50) as Real * 1.2);
            let b = world.add_body(BodyDesc::dynamic().translation(x, y));
            world.add_collider(b, ColliderDesc::new(Shape::circle(0.3))).unwrap();
            let arm = ColliderDesc::new(Shape::segment(Point::new(0.3, 0.0), Point::new(0.7, 0.0)));
            world.add_collider(b, arm).unwrap();
        }
        for i in 0..10 {
            let slider = BodyDesc::kinematic().translation(i as Real * 6.0 - 30.0, 16.0);
            let b = world.add_body(slider.linear_velocity(Vec2::new(3.0, 0.0)));
            world.add_collider(b, ColliderDesc::new(Shape::rectangle(1.0, 0.2))).unwrap();
        }
        let bullet = BodyDesc::dynamic().translation(-40.0, 1.5).linear_velocity(Vec2::new(200.0, 0.0));
        let b = world.add_body(bullet.bullet(true));
        world.add_collider(b, ColliderDesc::new(Shape::circle(0.1))).unwrap();
        world
    }

    /// After every step, on one thread and on three, each collider's bounds
    /// are its shape's at its body's pose grown by the speculative distance,
    /// computed afresh (the oracle); the broad phase holds the collider's
    /// proxy box, which holds the bounds, and its hint names the proxy; and
    /// the index of immovables holds a fixed or kinematic body's collider
    /// around the same bounds. The steps must include bodies moved
    /// ([`Writing::Moved`]), enough swept ones to be written back on
    /// several threads, enough colliders of bodies with several to be
    /// bounded on several threads, and enough proxies moved in one step for
    /// their colliders to be told on several threads.
    #[test]
    fn bounds_and_proxies_follow_the_bodies() {
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut world = mixed_world();
            let (mut moved, mut most_waiting, mut most_several, mut most_moves) = (0, 0, 0, 0);
            for step in 0..40 {
                pool.install(|| world.step(1.0 / 60.0).unwrap());
                let margin = world.settings.speculative_distance;
                for (key, c) in world.colliders.iter() {
                    let b = &world.bodies[c.body];
                    let key = ProxyKey::of(key);
                    let at = format!("collider {key:?}, step {step}, {threads} threads");
                    assert_eq!(c.aabb, contact_bounds(c, &b.pose, margin), "{at}: bounds");
                    assert_eq!(world.broad_phase.all().fat_aabb(key), Some(c.proxy_box), "{at}: proxy box");
                    assert!(c.proxy_box.contains(&c.aabb), "{at}: bounds in the proxy");
                    assert_eq!(world.broad_phase.all().hint(key), Some(c.proxy_hint), "{at}: hint");
                    if b.kind != crate::BodyKind::Dynamic {
                        let fat = world.broad_phase.immovable().fat_aabb(key).expect("an immovable proxy");
                        assert!(fat.contains(&c.aabb), "{at}: immovable bounds");
                    }
                }
                moved +=
                    world.finish.finished.iter().filter(|f| matches!(f.writing, Writing::Moved(_))).count();
                most_waiting = most_waiting.max(world.finish.finished.iter().filter(|f| f.waits).count());
                most_several = most_several.max(world.finish.collider_poses.len());
                most_moves = most_moves.max(world.finish.proxy_moves.len());
            }
            assert!(moved > 0, "bodies moved their proxies");
            assert!(most_waiting >= SHARED_FROM, "swept bodies written on several threads");
            assert!(finalize_shares(most_several), "colliders bounded on several threads");
            assert!(most_moves >= SHARED_FROM, "colliders told of their proxies' moves on several threads");
        }
    }
}
