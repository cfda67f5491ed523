//! [`World::step`]: broad phase, narrow phase, solver, finalisation and sleep,
//! in that order. Each stage lives with its subsystem: contacts in
//! `contact.rs`, the solver's stages in `solver/stages.rs`, finalisation in
//! `finalize.rs`, sleep in `island.rs`.

use std::time::{Duration, Instant};

use lamina_geometry::Real;

use crate::finalize::finalize_shares;
use crate::pace::Threads;
use crate::pool_poller::with_poller;
use crate::settings::{MAX_TIME_STEP, MIN_TIME_STEP};
use crate::{World, WorldError};

impl World {
    /// Advances the world by `dt` seconds. Refuses a non-finite `dt`, one
    /// shorter than [`MIN_TIME_STEP`] (zero and negative ones included) or
    /// longer than [`MAX_TIME_STEP`], leaving the world unchanged.
    ///
    /// Runs on the current rayon pool. A world with work enough to share
    /// times its steps on the pool and on the calling thread alone, now and
    /// then, and runs the faster way ([`StepProfile::ran_alone`](crate::StepProfile::ran_alone)):
    /// on a machine whose cores are far apart, a small world can step
    /// faster on one thread than on two. Either way gives the same bits.
    pub fn step(&mut self, dt: Real) -> Result<(), WorldError> {
        // The range holds neither NaN nor an infinity.
        if !(MIN_TIME_STEP..=MAX_TIME_STEP).contains(&dt) {
            return Err(WorldError::InvalidTimeStep { dt });
        }
        // Judged by the last step (the first step of a large world runs
        // unpaced, without a poller): its narrow phase had contacts enough
        // to share, or its finalisation bodies enough (a world of joints has
        // few contacts). Such a step runs on the pool or alone, as its pace
        // finds faster (`pace.rs`).
        let pool = Threads::of_pool();
        let shares_work = pool.count() > 1
            && (self.narrow.had_contacts_to_share() || finalize_shares(self.solver.states.len()));
        let (shared, timed) = if shares_work { self.step_pace.choose() } else { (true, false) };
        #[cfg(test)]
        let shared = self.force_shared.unwrap_or(shared);
        self.threads = if shared { pool } else { Threads::ALONE };
        self.broad_phase.set_shares_work(shared);
        self.immovable_index.set_shares_work(shared);
        self.solver.threads = self.threads;
        let start = timed.then(Instant::now);
        with_poller(shares_work && shared, || self.run_stages(dt));
        self.profile.ran_alone = !shared;
        if let Some(start) = start {
            let work = self.solver.states.len() + self.contacts.len();
            self.step_pace.record(shared, work, start.elapsed().as_secs_f64());
        }
        Ok(())
    }

    /// The stages of [`World::step`], for a valid `dt`.
    fn run_stages(&mut self, dt: Real) {
        let mut laps = Laps::start();
        if !self.settings.keep_events {
            self.clear_events();
        }
        // Bodies are looked over only when something may have changed them.
        let bodies_changed = std::mem::take(&mut self.body_changes_pending);
        if bodies_changed {
            self.wake_requested_bodies();
        }
        self.wake_changed_joints();
        if bodies_changed {
            self.refresh_stale_bounds();
        }
        self.update_pairs();
        self.profile.broad_phase = laps.lap();

        self.update_contacts();
        self.profile.narrow_phase = laps.lap();

        self.solve(dt, &mut laps);

        self.finalize(dt);
        self.profile.finalize = laps.lap();

        if self.settings.enable_sleep {
            let body_count = self.solver.states.len();
            self.islands.sleep_resting(
                &mut self.bodies,
                &self.contacts,
                &self.joints,
                body_count,
                self.settings.time_to_sleep,
            );
        }
        self.profile.sleep = laps.lap();

        self.profile.contacts = self.contacts.len();
        self.profile.step = laps.total();
    }

    /// Gathers the awake bodies and lists their joints and contacts for the
    /// solver (substeps of `h` seconds), completing the solver manifolds of
    /// contacts whose bodies woke after the narrow phase. Returns how many
    /// joints and contacts are listed, and how many contacts with an awake
    /// body touch.
    pub(crate) fn list_constraints(&mut self, h: Real) -> (usize, usize, usize) {
        // A world mostly asleep lists what is awake from its islands (see
        // `awake.rs`); the solver then visits no sleeping body or joint.
        let few = self.awake.few;
        if few {
            self.list_awake_joints();
        }
        let (awake_bodies, awake_joints) = (&self.awake.bodies[..], &self.awake.joints[..]);
        // The solver may borrow bodies by the mirror's keys unchecked: a
        // mirror that lost count is stopped here in any build, one that
        // holds other keys in debug builds (the check reads every slot).
        assert_eq!(self.body_keys.len(), self.bodies.len(), "the body keys' mirror lost count");
        debug_assert!(self.body_keys.agree_with(&self.bodies), "the body keys' mirror is the map's");
        let s = &mut self.solver;
        s.gather_bodies(
            &mut self.bodies,
            self.body_keys.by_slot(),
            &self.settings,
            h,
            few.then_some(awake_bodies),
        );
        let joints = (&self.joints, self.joint_edits);
        let counts = s.gather_constraints(joints, few.then_some(awake_joints), &self.narrow.summaries);
        self.narrow.complete_manifolds(&s.missing_manifolds, &self.contacts, &self.bodies);
        counts
    }

    /// Runs the solver's stages over the awake bodies and their constraints,
    /// timing the solver and its substeps.
    fn solve(&mut self, dt: Real, laps: &mut Laps) {
        let settings = self.settings;
        let substeps = settings.substeps.max(1);
        let h = dt / substeps as Real;

        let (joints, contacts, touching) = self.list_constraints(h);
        let (narrow, s) = (&self.narrow, &mut self.solver);
        debug_assert!(narrow.manifolds_are_current(s.contact_places(), &self.contacts, &self.bodies));
        s.prepare(&self.bodies, &self.joints, &settings, h);
        let preparing = laps.lap();
        s.run_substeps(&narrow.manifolds, &settings, substeps, h);
        let substep_time = laps.lap();
        s.store_impulses(&mut self.contacts, &self.narrow.keys, &mut self.joints, h);
        self.profile.substeps = substep_time;
        self.profile.solver = preparing + substep_time + laps.lap();

        self.profile.awake_bodies = s.states.len();
        self.profile.constraints = contacts;
        self.profile.touching_contacts = touching;
        self.profile.joints = joints;
    }
}

/// The times of a step's stages from one clock reading per boundary between
/// stages: a reading costs some tens of nanoseconds, which the step of a
/// small world (a few microseconds) notices.
struct Laps {
    start: Instant,
    last: Instant,
}

impl Laps {
    fn start() -> Self {
        let now = Instant::now();
        Self { start: now, last: now }
    }

    /// The time since the last lap (or the start).
    fn lap(&mut self) -> Duration {
        let now = Instant::now();
        let lap = now - self.last;
        self.last = now;
        lap
    }

    /// The time from the start to the last lap.
    fn total(&self) -> Duration {
        self.last - self.start
    }
}

#[cfg(test)]
mod tests {
    use lamina_geometry::{Real, Shape, Vec2};

    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use crate::pace::Threads;
    use crate::{BodyDesc, ColliderDesc, World, WorldSettings};

    /// A pile of 800 boxes dropped in a tight grid onto a floor, with a
    /// few thrown fast: enough contacts and bodies for every stage to share.
    fn pile() -> World {
        let settings = WorldSettings { enable_sleep: false, ..WorldSettings::default() };
        let mut world = World::new(settings);
        let floor = world.add_body(BodyDesc::fixed());
        world.add_collider(floor, ColliderDesc::new(Shape::rectangle(40.0, 0.5))).unwrap();
        for i in 0..800 {
            let (x, y) = ((i % 40) as Real * 0.5 - 10.0, 1.0 + (i / 40) as Real * 0.5);
            let mut body = BodyDesc::dynamic().translation(x, y);
            if i % 97 == 0 {
                body = body.linear_velocity(Vec2::new(0.0, -60.0));
            }
            let b = world.add_body(body);
            world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.22, 0.22))).unwrap();
        }
        world
    }

    /// A step run alone on a pool of three threads hands no work to the
    /// pool's other threads, which wait for any (no poller, no team, no
    /// shared refresh, list or refit), and tells its broad phases to keep
    /// their work too; it gives the same bits, step by step, as the same
    /// world stepped sharing its work, whose work the other threads do run.
    #[test]
    fn a_step_alone_shares_nothing_and_gives_the_bits_of_a_step_shared() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let (mut shared, mut alone) = (pile(), pile());
        shared.force_shared = Some(true);
        alone.force_shared = Some(false);
        let (started, stop, taken) = (AtomicUsize::new(0), AtomicBool::new(false), AtomicUsize::new(0));
        // Runs whatever work the pool offers until told to stop, counting it.
        let wait_for_work = || {
            started.fetch_add(1, Ordering::SeqCst);
            while !stop.load(Ordering::SeqCst) {
                match rayon::yield_now() {
                    Some(rayon::Yield::Executed) => _ = taken.fetch_add(1, Ordering::SeqCst),
                    _ => std::hint::spin_loop(),
                }
            }
        };
        let (taken_alone, taken_shared) = pool.install(|| {
            rayon::scope(|scope| {
                scope.spawn(|_| wait_for_work());
                scope.spawn(|_| wait_for_work());
                while started.load(Ordering::SeqCst) < 2 {
                    std::hint::spin_loop();
                }
                let (mut taken_alone, mut taken_shared) = (0, 0);
                for step in 0..40 {
                    let before = taken.load(Ordering::SeqCst);
                    alone.step(1.0 / 60.0).unwrap();
                    let after = taken.load(Ordering::SeqCst);
                    shared.step(1.0 / 60.0).unwrap();
                    taken_alone += after - before;
                    taken_shared += taken.load(Ordering::SeqCst) - after;
                    assert_eq!(alone.threads, Threads::ALONE);
                    assert!(alone.profile().ran_alone && !shared.profile().ran_alone);
                    assert!(!alone.broad_phase.shares_work() && !alone.immovable_index.shares_work());
                    assert!(shared.broad_phase.shares_work() && shared.immovable_index.shares_work());
                    assert_eq!(alone.state_hash(), shared.state_hash(), "step {step}");
                }
                stop.store(true, Ordering::SeqCst);
                (taken_alone, taken_shared)
            })
        });
        assert_eq!(taken_alone, 0, "work of the steps alone ran on the other threads");
        assert!(taken_shared > 0, "no work of the shared steps ran on the other threads");
    }

    /// Left to its pace, a world that shares its work runs its first three
    /// such steps on the pool and the next three alone, then the way that
    /// timed faster: the pace's choices reach the step. (The first step
    /// is not paced: the world had no contacts to judge it by.)
    #[test]
    fn the_step_pace_tries_both_ways_first() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let mut world = pile();
        world.force_shared = None;
        let ways: Vec<bool> = pool.install(|| {
            (0..7)
                .map(|_| {
                    world.step(1.0 / 60.0).unwrap();
                    !world.profile().ran_alone
                })
                .collect()
        });
        assert_eq!(ways, [true, true, true, true, false, false, false]);
    }
}
