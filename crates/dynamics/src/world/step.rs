//! [`World::step`], stage by stage. This list is the step's order; the code
//! and the docs elsewhere point here rather than repeat it. Each stage is a
//! method of a part of the world, handed the other parts it reads and writes
//! (`run_stages` below is the list as code):
//!
//! | # | stage | file | function |
//! |---|---|---|---|
//! | 1 | the last step's events cleared (unless kept) | `events.rs` | `Events::clear` |
//! | 2 | bodies and joints changed by the user woken | `island.rs` | `Islands::wake_requested`, `Islands::wake_changed_joints` |
//! | 3 | bounds of bodies added or moved refreshed | `broad_phase.rs` | `BroadPhase::refresh_stale` |
//! | 4 | broad phase: pairs that began and ended make and destroy contacts (the custom filter asked about new pairs) | `contact_set.rs` | `ContactSet::follow_pairs` (over `BroadPhase::update_pairs`) |
//! | 5 | narrow phase: every contact with an awake body refreshed (the pre-solve hook asked about opted-in ones); its events, wake-ups and island links | `narrow_phase.rs` | `NarrowPhaseStep::update_contacts` |
//! | 6 | the awake bodies and their constraints gathered and coloured | `solver/soft_step.rs`, `narrow_phase.rs` | `Solver::gather_bodies`, `Solver::gather_constraints`, `NarrowPhase::complete_manifolds` |
//! | 7 | joints prepared | `solver/soft_step.rs` | `Solver::prepare` |
//! | 8 | the substeps on the solver's team (its passes listed in `solver/soft_step.rs`) | `solver/soft_step.rs` | `Solver::run_substeps` |
//! | 9 | impulses stored for the next step's warm start | `solver/soft_step.rs` | `Solver::store_impulses` |
//! | 10 | finalisation: poses written back, fast bodies swept (the pre-solve hook asked before a sweep stops at an opted-in collider), sleep timers, bounds and proxies | `finalize.rs` | `Finalize::finalize` |
//! | 11 | resting islands put to sleep | `island.rs` | `Islands::sleep_resting` |
//!
//! Around the list, [`World::step`] chooses whether the step shares its work
//! with the rayon pool or runs on the calling thread alone (`parallel/`).

use std::time::{Duration, Instant};

use lamina_geometry::Real;

use crate::finalize::{Finalize, finalize_shares};
use crate::narrow_phase::NarrowPhaseStep;
use crate::parallel::pace::{Sharing, Threads};
use crate::parallel::pool_poller::with_poller;
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
        // finds faster (`parallel/pace.rs`).
        let pool = Threads::of_pool();
        let shares_work = pool.count() > 1
            && (self.narrow.had_contacts_to_share() || finalize_shares(self.solver.states.len()));
        let (shared, timed) = match self.sharing {
            Sharing::Paced if shares_work => self.step_pace.choose(),
            Sharing::Never => (false, false),
            _ => (true, false),
        };
        self.threads = if shared { pool } else { Threads::ALONE };
        self.broad_phase.set_shares_work(shared);
        self.solver.threads = self.threads;
        // The solver's pace tries and times only in the steady runs of the
        // step's, which its tries would skew.
        let paced = self.sharing == Sharing::Paced && shares_work;
        self.solver.steady = !paced || self.step_pace.steady();
        let start = timed.then(Instant::now);
        with_poller(shares_work && shared, || self.run_stages(dt));
        self.profile.ran_alone = !shared;
        if let Some(start) = start {
            let work = self.solver.states.len() + self.contacts.len();
            self.step_pace.record(shared, work, start.elapsed().as_secs_f64());
        }
        Ok(())
    }

    /// The stages of [`World::step`] (listed at the top of this file), for a
    /// valid `dt`, each timed into the step's profile.
    fn run_stages(&mut self, dt: Real) {
        let mut laps = Laps::start();
        self.clear_old_events(); // 1
        self.wake_changed(); // 2, 3
        self.update_pairs(); // 4
        self.profile.broad_phase = laps.lap();
        self.update_contacts(); // 5
        self.profile.narrow_phase = laps.lap();
        self.solve(dt, &mut laps); // 6 to 9
        self.finalize(dt); // 10
        self.profile.finalize = laps.lap();
        self.sleep(); // 11
        self.profile.sleep = laps.lap();
        self.profile.contacts = self.contacts.len();
        self.profile.step = laps.total();
    }

    /// Stage 1: the last step's events go, unless the world keeps them.
    fn clear_old_events(&mut self) {
        if !self.settings.keep_events {
            self.events.clear();
        }
    }

    /// Stages 2 and 3: the bodies and joints the user changed since the last
    /// step are woken, and the bodies added or moved get their bounds.
    /// Bodies are looked over only when something may have changed them.
    fn wake_changed(&mut self) {
        let bodies_changed = std::mem::take(&mut self.body_changes_pending);
        let scratch = &mut self.wake_scratch;
        if bodies_changed {
            self.islands.wake_requested(&mut self.bodies, scratch);
        }
        if std::mem::take(&mut self.joint_changes_pending) {
            self.islands.wake_changed_joints(&mut self.bodies, &mut self.joints, scratch);
        }
        if bodies_changed {
            let margin = self.settings.speculative_distance;
            self.broad_phase.refresh_stale(&mut self.bodies, &mut self.colliders, margin, scratch);
        }
    }

    /// Stage 4: the broad phase's pairs that began and ended made into new
    /// and destroyed contacts.
    pub(crate) fn update_pairs(&mut self) {
        let threads = self.threads;
        let (contacts, broad_phase, mut parts) = self.contact_parts();
        contacts.follow_pairs(broad_phase, threads, &mut parts);
    }

    /// Stage 5: the manifolds of the contacts with an awake body brought up
    /// to date, with the events, wake-ups and island links their changes ask
    /// for.
    pub(crate) fn update_contacts(&mut self) {
        NarrowPhaseStep {
            settings: &self.settings,
            bodies: &mut self.bodies,
            colliders: &self.colliders,
            contacts: &mut self.contacts,
            islands: &mut self.islands,
            awake: &mut self.awake,
            events: &mut self.events,
            narrow: &mut self.narrow,
            hooks: &self.hooks,
            threads: self.threads,
        }
        .update_contacts();
    }

    /// Stage 6: gathers the awake bodies and lists their joints and contacts
    /// for the solver (substeps of `h` seconds), completing the solver
    /// manifolds of contacts whose bodies woke after the narrow phase.
    /// Returns how many joints and contacts are listed, and how many contacts
    /// with an awake body touch.
    pub(crate) fn list_constraints(&mut self, h: Real) -> (usize, usize, usize) {
        // A world mostly asleep lists what is awake from its islands (see
        // `awake.rs`); the solver then visits no sleeping body or joint.
        let few = self.awake.few;
        if few {
            self.awake.list_joints(&self.bodies);
        }
        let (awake_bodies, awake_joints) = (&self.awake.bodies[..], &self.awake.joints[..]);
        // The solver may borrow bodies by the mirror's keys unchecked: a
        // mirror that lost count is stopped here in any build, one that
        // holds other keys in debug builds (the check reads every slot).
        assert_eq!(self.body_keys.len(), self.bodies.len(), "the body keys' mirror lost count");
        debug_assert!(self.body_keys.agree_with(self.bodies.raw()), "the body keys' mirror is the map's");
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
        self.narrow.complete_manifolds(&s.missing_manifolds, self.contacts.map(), &self.bodies);
        counts
    }

    /// Stages 6 to 9: the solver over the awake bodies and their
    /// constraints, timing the solver and its substeps.
    fn solve(&mut self, dt: Real, laps: &mut Laps) {
        let settings = self.settings;
        let substeps = settings.substeps.max(1);
        let h = dt / substeps as Real;

        let (joints, contacts, touching) = self.list_constraints(h); // 6
        let (narrow, s) = (&self.narrow, &mut self.solver);
        debug_assert!(narrow.manifolds_are_current(s.contact_places(), self.contacts.map(), &self.bodies));
        s.prepare(&self.bodies, &self.joints, &settings, h); // 7
        let preparing = laps.lap();
        s.run_substeps(&narrow.manifolds, &settings, substeps, h); // 8
        let substep_time = laps.lap();
        s.store_impulses(self.contacts.map_mut(), &self.narrow.keys, &mut self.joints, h); // 9
        self.profile.substeps = substep_time;
        self.profile.solver = preparing + substep_time + laps.lap();

        self.profile.awake_bodies = s.states.len();
        self.profile.constraints = contacts;
        self.profile.touching_contacts = touching;
        self.profile.joints = joints;
    }

    /// Stage 10: the solver's motion written back to the bodies, fast
    /// bodies swept, sleep timers and bounds brought up to date.
    fn finalize(&mut self, dt: Real) {
        Finalize {
            settings: &self.settings,
            bodies: &mut self.bodies,
            colliders: &mut self.colliders,
            joints: &mut self.joints,
            contacts: &mut self.contacts,
            broad_phase: &mut self.broad_phase,
            solver: &mut self.solver,
            profile: &mut self.profile,
            threads: self.threads,
            buffers: &mut self.finish,
            hooks: &self.hooks,
        }
        .finalize(dt);
    }

    /// Stage 11: islands that rested long enough fall asleep.
    fn sleep(&mut self) {
        if self.settings.enable_sleep {
            let body_count = self.solver.states.len();
            let (bodies, contacts, joints) = (&mut self.bodies, self.contacts.map(), &self.joints);
            self.islands.sleep_resting(bodies, contacts, joints, body_count, self.settings.time_to_sleep);
        }
    }
}

/// The times of a step's stages from one clock reading per boundary between
/// stages: a reading costs some tens of nanoseconds, which the step of a
/// small world (a few microseconds) notices. Where the platform has no
/// clock ([`now`]), every time reads zero.
struct Laps {
    start: Option<Instant>,
    last: Option<Instant>,
}

/// A clock reading, where the platform has a clock: WebAssembly without a
/// host's help (`wasm32-unknown-unknown`) has none, and `Instant::now`
/// panics there.
fn now() -> Option<Instant> {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    let now = None;
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let now = Some(Instant::now());
    now
}

impl Laps {
    fn start() -> Self {
        let now = now();
        Self { start: now, last: now }
    }

    /// The time since the last lap (or the start).
    fn lap(&mut self) -> Duration {
        let now = now();
        let lap = match (now, self.last) {
            (Some(now), Some(last)) => now - last,
            _ => Duration::ZERO,
        };
        self.last = now;
        lap
    }

    /// The time from the start to the last lap.
    fn total(&self) -> Duration {
        match (self.last, self.start) {
            (Some(last), Some(start)) => last - start,
            _ => Duration::ZERO,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use lamina_geometry::{Real, Shape, Vec2};

    use crate::parallel::handoff::OnDrop;
    use crate::parallel::pace::Threads;
    use crate::{BodyDesc, ColliderDesc, Sharing, World, WorldSettings};

    /// A pile of 800 boxes dropped in a tight grid onto a floor, with a
    /// few thrown fast: enough contacts and bodies for the narrow phase,
    /// finalisation and the solver's team to share their work.
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

    /// Steps `world` `steps` times on a pool of three threads whose other two
    /// run whatever work the pool offers meanwhile; returns the state hash
    /// after each step, and how many jobs those two threads ran. Each step
    /// is checked with `check` after it.
    fn step_watched(world: &mut World, steps: usize, check: impl Fn(&World) + Sync) -> (Vec<u64>, usize) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let (started, stop, taken) = (AtomicUsize::new(0), AtomicBool::new(false), AtomicUsize::new(0));
        let wait_for_work = || {
            // Not one job asked for until both have started: the first
            // would take the second, which would then wait inside it.
            started.fetch_add(1, Ordering::SeqCst);
            while started.load(Ordering::SeqCst) < 2 {
                std::hint::spin_loop();
            }
            while !stop.load(Ordering::SeqCst) {
                match rayon::yield_now() {
                    Some(rayon::Yield::Executed) => _ = taken.fetch_add(1, Ordering::SeqCst),
                    _ => std::hint::spin_loop(),
                }
            }
        };
        let hashes = pool.install(|| {
            rayon::scope(|scope| {
                // Set however the steps end, so that the waiting threads
                // leave and a failure is reported rather than hanging.
                let _stop = OnDrop(|| stop.store(true, Ordering::SeqCst));
                scope.spawn(|_| wait_for_work());
                scope.spawn(|_| wait_for_work());
                while started.load(Ordering::SeqCst) < 2 {
                    std::hint::spin_loop();
                }
                (0..steps)
                    .map(|_| {
                        world.step(1.0 / 60.0).unwrap();
                        check(world);
                        world.state_hash()
                    })
                    .collect::<Vec<u64>>()
            })
        });
        (hashes, taken.load(Ordering::SeqCst))
    }

    /// Steps forced alone on a pool of three threads hand no work to the
    /// pool's other threads, which wait for any (no poller, no team, no
    /// shared refresh or finalisation), and tell their broad phases to keep
    /// their work too; they give the same bits, step by step, as the same
    /// world stepped sharing its work, whose work the other threads do run.
    #[test]
    fn a_step_alone_shares_nothing_and_gives_the_bits_of_a_step_shared() {
        let (mut alone, mut shared) = (pile(), pile());
        alone.set_sharing(Sharing::Never);
        shared.set_sharing(Sharing::Always);
        let (alone_hashes, taken_alone) = step_watched(&mut alone, 40, |w| {
            assert!(w.profile().ran_alone && w.threads == Threads::ALONE);
            assert!(!w.broad_phase.all().shares_work() && !w.broad_phase.immovable().shares_work());
        });
        let (shared_hashes, taken_shared) = step_watched(&mut shared, 40, |w| {
            assert!(!w.profile().ran_alone && w.threads.count() == 3);
            assert!(w.broad_phase.all().shares_work() && w.broad_phase.immovable().shares_work());
        });
        assert_eq!(taken_alone, 0, "work of the steps alone ran on the other threads");
        assert!(taken_shared > 0, "no work of the shared steps ran on the other threads");
        assert_eq!(alone_hashes, shared_hashes);
    }

    /// A world that changes way at every step (what a pace does at its
    /// tries) carries nothing from one way into the other that changes a
    /// bit: it steps as a world always alone does.
    #[test]
    fn a_world_changing_way_steps_as_one_always_alone() {
        let (mut changing, mut alone) = (pile(), pile());
        alone.set_sharing(Sharing::Never);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        pool.install(|| {
            for step in 0..60 {
                let way = if step % 3 == 0 { Sharing::Never } else { Sharing::Always };
                changing.set_sharing(way);
                changing.step(1.0 / 60.0).unwrap();
                alone.step(1.0 / 60.0).unwrap();
                assert_eq!(changing.profile().ran_alone, way == Sharing::Never);
                assert_eq!(changing.state_hash(), alone.state_hash(), "step {step}");
            }
        });
    }

    /// Left to its pace, a world that shares its work runs its first
    /// thirteen such steps on the pool (the solver's pace judges its own
    /// first try meanwhile) and the next three alone, then three on the pool
    /// again before it judges: the pace's choices reach the step. (The first
    /// step is not paced: the world had no contacts to judge it by.)
    #[test]
    fn the_step_pace_tries_both_ways_first() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let mut world = pile();
        world.set_sharing(Sharing::Paced);
        let ways: Vec<bool> = pool.install(|| {
            (0..20)
                .map(|_| {
                    world.step(1.0 / 60.0).unwrap();
                    !world.profile().ran_alone
                })
                .collect()
        });
        let alone: Vec<usize> = (0..20).filter(|&step| !ways[step]).collect();
        assert_eq!(alone, [14, 15, 16]);
    }
}
