//! [`World::step`]: broad phase, narrow phase, solver, finalisation and sleep,
//! in that order. Each stage lives with its subsystem: contacts in
//! `contact.rs`, the solver's stages in `solver/stages.rs`, finalisation in
//! `finalize.rs`, sleep in `island.rs`.

use std::time::{Duration, Instant};

use lamina_geometry::Real;

use crate::finalize::finalize_shares;
use crate::pool_poller::with_poller;
use crate::settings::{MAX_TIME_STEP, MIN_TIME_STEP};
use crate::{World, WorldError};

impl World {
    /// Advances the world by `dt` seconds. Refuses a non-finite `dt`, one
    /// shorter than [`MIN_TIME_STEP`] (zero and negative ones included) or
    /// longer than [`MAX_TIME_STEP`], leaving the world unchanged.
    /// Runs on the current rayon pool.
    pub fn step(&mut self, dt: Real) -> Result<(), WorldError> {
        // The range holds neither NaN nor an infinity.
        if !(MIN_TIME_STEP..=MAX_TIME_STEP).contains(&dt) {
            return Err(WorldError::InvalidTimeStep { dt });
        }
        // Judged by the last step (the first step of a large world runs
        // without a poller): its narrow phase shared its contacts, or its
        // finalisation its bodies (a world of joints has few contacts).
        let shares_work = self.narrow.refresh_was_shared() || finalize_shares(self.solver.states.len());
        with_poller(shares_work, || self.run_stages(dt));
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
        s.run_substeps(&narrow.manifolds, &settings, substeps, h, rayon::current_num_threads());
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
