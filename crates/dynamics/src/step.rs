//! [`World::step`]: broad phase, narrow phase, solver, finalisation and sleep,
//! in that order. Each stage lives with its subsystem: contacts in
//! `contact.rs`, the solver's stages in `solver/stages.rs`, finalisation in
//! `finalize.rs`, sleep in `island.rs`.

use std::time::Instant;

use lamina_geometry::Real;

use crate::settings::MAX_TIME_STEP;
use crate::{World, WorldError};

impl World {
    /// Advances the world by `dt` seconds. Refuses a non-finite or non-positive
    /// `dt`, or one longer than [`MAX_TIME_STEP`], leaving the world unchanged.
    /// Runs on the current rayon pool.
    pub fn step(&mut self, dt: Real) -> Result<(), WorldError> {
        if !(dt.is_finite() && dt > 0.0 && dt <= MAX_TIME_STEP) {
            return Err(WorldError::InvalidTimeStep { dt });
        }
        let start = Instant::now();
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

        let t = Instant::now();
        self.update_pairs();
        self.profile.broad_phase = t.elapsed();

        let t = Instant::now();
        self.update_contacts();
        self.profile.narrow_phase = t.elapsed();

        let t = Instant::now();
        self.solve(dt);
        self.profile.solver = t.elapsed();

        let t = Instant::now();
        self.finalize(dt);
        self.profile.finalize = t.elapsed();

        let t = Instant::now();
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
        self.profile.sleep = t.elapsed();

        self.profile.contacts = self.contacts.len();
        self.profile.step = start.elapsed();
        Ok(())
    }

    /// Runs the solver's stages over the awake bodies and their constraints.
    fn solve(&mut self, dt: Real) {
        let settings = self.settings;
        let substeps = settings.substeps.max(1);
        let h = dt / substeps as Real;

        let s = &mut self.solver;
        s.gather_bodies(&mut self.bodies, &settings, h);
        let narrow = &self.narrow;
        let (joints, contacts, touching) =
            s.gather_constraints(&self.bodies, &self.joints, &narrow.keys, &narrow.summaries);
        s.prepare(&self.bodies, &self.contacts, &self.joints, &settings, h);
        let t = Instant::now();
        s.run_substeps(&settings, substeps, h, rayon::current_num_threads());
        self.profile.substeps = t.elapsed();
        s.store_impulses(&mut self.contacts, &mut self.joints, h);

        self.profile.awake_bodies = s.states.len();
        self.profile.constraints = contacts;
        self.profile.touching_contacts = touching;
        self.profile.joints = joints;
    }
}
