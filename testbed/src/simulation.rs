//! A running scene and what a person does to it, apart from any window:
//! stepping in real time or slowed down, pausing, single steps, resets,
//! settings applied live, the thread pool, and dragging a body with a mouse
//! joint. The window and headless mode both drive a [`Simulation`].

use std::collections::VecDeque;

use lamina2d::prelude::*;

use crate::camera::Camera;
use crate::draw;
use crate::scenes::{HeldKeys, Loaded, SceneEntry};

/// How many steps' profiles the plot keeps.
pub const PROFILE_HISTORY: usize = 300;
/// At most this many steps per frame, and no new step once a frame's steps
/// have taken this long: a scene slower than real time slows down rather
/// than freezing the window.
const MAX_STEPS_PER_FRAME: usize = 4;
const FRAME_BUDGET: std::time::Duration = std::time::Duration::from_millis(25);
/// The slow-motion speed, a share of real time.
pub const SLOW_MOTION: f64 = 0.25;
/// A mouse joint pulls with up to this many times the body's weight (under
/// at least 10 m/s² of gravity, so that bodies drag without gravity too).
const MOUSE_FORCE_PER_WEIGHT: Real = 1000.0;

/// The mouse's hold on a body.
#[derive(Clone, Copy, Debug)]
struct Grab {
    body: BodyKey,
    joint: JointKey,
    /// The point held, in the body's frame.
    grip: Point,
}

/// A body dragged with the mouse: where its centre was when it was grabbed
/// and where it is now (kept after it is let go, for reports).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    pub body: BodyKey,
    pub start: Point,
    pub position: Point,
    pub active: bool,
}

pub struct Simulation {
    entry: SceneEntry,
    loaded: Option<Loaded>,
    /// Why the scene is not running: it failed to build, or a step failed.
    pub error: Option<String>,
    /// Steps taken since the scene was (re)built.
    pub steps: usize,
    pub paused: bool,
    pub slow_motion: bool,
    /// Simulated time owed to the real clock, s.
    owed: f64,
    pool: rayon::ThreadPool,
    threads: usize,
    grab: Option<Grab>,
    /// The last body dragged.
    pub drag: Option<Drag>,
    /// The latest steps' profiles, oldest first, with their step numbers.
    pub profiles: VecDeque<(usize, StepProfile)>,
}

/// A rayon pool of `threads` threads (at least one).
fn pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().map_err(|e| e.to_string())
}

impl Simulation {
    /// Builds `entry` to run on `threads` threads; a scene that fails to
    /// build leaves the simulation empty with its error.
    pub fn new(entry: SceneEntry, threads: usize) -> Result<Self, String> {
        let mut sim = Self {
            entry,
            loaded: None,
            error: None,
            steps: 0,
            paused: false,
            slow_motion: false,
            owed: 0.0,
            pool: pool(threads)?,
            threads: threads.max(1),
            grab: None,
            drag: None,
            profiles: VecDeque::new(),
        };
        sim.reset();
        Ok(sim)
    }

    /// The scene running (or that failed).
    pub fn entry(&self) -> &SceneEntry {
        &self.entry
    }

    /// Switches to another scene, built afresh.
    pub fn load(&mut self, entry: SceneEntry) {
        self.entry = entry;
        self.reset();
    }

    /// Builds the scene again from the start; pause and speed stay as they are.
    pub fn reset(&mut self) {
        self.grab = None;
        self.drag = None;
        self.steps = 0;
        self.owed = 0.0;
        self.profiles.clear();
        match self.entry.build() {
            Ok(loaded) => {
                self.loaded = Some(loaded);
                self.error = None;
            }
            Err(e) => {
                self.loaded = None;
                self.error = Some(e);
            }
        }
    }

    /// The world, when the scene built.
    pub fn world(&self) -> Option<&World> {
        self.loaded.as_ref().map(|l| &l.world)
    }

    /// The scene's own framing, if it has one.
    pub fn view(&self) -> Option<(Point, Point)> {
        self.loaded.as_ref().and_then(|l| l.view)
    }

    /// The camera that frames the scene in a picture of `size` pixels: the
    /// scene's own view, or else all its colliders.
    pub fn framing(&self, size: (f32, f32)) -> Camera {
        let bounds =
            self.view().or_else(|| self.world().and_then(draw::world_bounds).map(|b| (b.mins, b.maxs)));
        match bounds {
            Some((min, max)) => Camera::framing(min, max, size),
            None => Camera::default(),
        }
    }

    /// The scene's lines over the world.
    pub fn overlay(&self) -> Vec<draw::Line> {
        self.loaded.as_ref().map_or_else(Vec::new, |l| l.driver.overlay(&l.world))
    }

    /// Hands the keys held in the window to the scene's driver (a scene
    /// steered from the keyboard takes them; the others ignore them).
    pub fn keys(&mut self, held: &HeldKeys) {
        if let Some(loaded) = &mut self.loaded {
            loaded.driver.keys(held);
        }
    }

    /// The scene's time step, s.
    pub fn dt(&self) -> Real {
        self.loaded.as_ref().map_or(1.0 / 60.0, |l| l.dt)
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Steps on a new pool of `threads` threads from now on.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        self.pool = pool(threads)?;
        self.threads = threads.max(1);
        Ok(())
    }

    /// Applies `settings` to the running world; refused settings leave it as it was.
    pub fn apply_settings(&mut self, settings: WorldSettings) -> Result<(), String> {
        match &mut self.loaded {
            Some(l) => l.world.set_settings(settings).map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }

    /// One step: the scene's hook, then the world's step on the pool. A
    /// failure pauses the scene and is kept in [`Simulation::error`].
    pub fn step(&mut self) {
        let Some(loaded) = &mut self.loaded else { return };
        if self.error.is_some() {
            return;
        }
        let step = self.steps;
        let result = loaded.driver.before_step(&mut loaded.world, step).and_then(|()| {
            let (world, dt) = (&mut loaded.world, loaded.dt);
            self.pool.install(|| world.step(dt)).map_err(|e| format!("step {step}: {e}"))
        });
        match result {
            Ok(()) => {
                self.steps += 1;
                self.profiles.push_back((self.steps, *loaded.world.profile()));
                while self.profiles.len() > PROFILE_HISTORY {
                    self.profiles.pop_front();
                }
                self.follow_drag();
            }
            Err(e) => {
                self.error = Some(e);
                self.paused = true;
            }
        }
    }

    /// Advances by `elapsed` seconds of real time (a quarter of it in slow
    /// motion), in whole steps; nothing while paused.
    pub fn advance(&mut self, elapsed: f64) {
        if self.paused || self.loaded.is_none() {
            self.owed = 0.0;
            return;
        }
        let speed = if self.slow_motion { SLOW_MOTION } else { 1.0 };
        let dt = f64::from(crate::camera::single(self.dt()));
        self.owed += elapsed * speed;
        let started = std::time::Instant::now();
        let mut taken = 0;
        while self.owed >= dt {
            if taken == MAX_STEPS_PER_FRAME || started.elapsed() > FRAME_BUDGET {
                // Behind real time: let the debt go rather than catch up.
                self.owed = 0.0;
                break;
            }
            self.step();
            self.owed -= dt;
            taken += 1;
        }
    }

    /// Grabs the dynamic body under `at` with a mouse joint; false when there is none.
    pub fn grab(&mut self, at: Point) -> bool {
        self.release();
        let Some(loaded) = &mut self.loaded else { return false };
        let world = &mut loaded.world;
        let mut hits = Vec::new();
        world.query_point(at, &QueryFilter::default(), &mut hits);
        let dynamic = hits
            .iter()
            .filter_map(|&c| world.collider(c))
            .map(|c| c.body())
            .find(|&b| world.body(b).is_some_and(|body| body.kind() == BodyKind::Dynamic));
        let Some(body) = dynamic else { return false };
        let Some(b) = world.body(body) else { return false };
        let (mass, start, grip) = (b.mass(), b.center_of_mass(), b.position().inverse_transform_point(&at));
        let gravity = world.settings().gravity.norm().max(10.0);
        let desc = JointDesc::mouse(body, at).max_force(MOUSE_FORCE_PER_WEIGHT * mass * gravity);
        match world.add_joint(desc) {
            Ok(joint) => {
                self.grab = Some(Grab { body, joint, grip });
                self.drag = Some(Drag { body, start, position: start, active: true });
                true
            }
            Err(_) => false,
        }
    }

    /// Moves the held body's target to `at`.
    pub fn drag_to(&mut self, at: Point) {
        let (Some(grab), Some(loaded)) = (self.grab, &mut self.loaded) else { return };
        let moved = loaded.world.joint_mut(grab.joint).map(|j| j.set_target(at));
        if !matches!(moved, Some(Ok(()))) {
            // The body left the world (a scene removed it) or the target was not finite.
            self.release();
        }
    }

    /// Lets go of the held body.
    pub fn release(&mut self) {
        if let (Some(grab), Some(loaded)) = (self.grab.take(), &mut self.loaded) {
            let _ = loaded.world.remove_joint(grab.joint);
        }
        if let Some(drag) = &mut self.drag {
            drag.active = false;
        }
    }

    /// The held body, and the line from the point held to the mouse's target.
    pub fn held(&self) -> Option<(BodyKey, Point, Point)> {
        let (grab, world) = (self.grab?, self.world()?);
        let grip = world.body(grab.body)?.position() * grab.grip;
        Some((grab.body, grip, world.joint(grab.joint)?.target()))
    }

    /// Keeps the dragged body's position up to date.
    fn follow_drag(&mut self) {
        let Some(world) = self.loaded.as_ref().map(|l| &l.world) else { return };
        if let Some(drag) = &mut self.drag {
            match world.body(drag.body) {
                Some(b) => drag.position = b.center_of_mass(),
                None => self.grab = None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes;

    fn vertical_stack() -> Simulation {
        Simulation::new(scenes::find("vertical_stack").unwrap(), 1).unwrap()
    }

    #[test]
    fn a_paused_scene_steps_only_when_asked() {
        let mut sim = vertical_stack();
        sim.paused = true;
        sim.advance(1.0);
        assert_eq!(sim.steps, 0);
        sim.step();
        assert_eq!(sim.steps, 1);
        sim.paused = false;
        sim.advance(2.5 * f64::from(crate::camera::single(sim.dt())));
        assert_eq!(sim.steps, 3);
    }

    #[test]
    fn dragging_a_box_moves_it_and_letting_go_removes_the_joint() {
        let mut sim = vertical_stack();
        // The top box of the 1 m column stands at (−12, 19.5).
        let top = Point::new(-12.0, 19.5);
        assert!(sim.grab(top));
        assert!(!sim.grab(Point::new(-100.0, 100.0)), "nothing there");
        assert!(sim.grab(top));
        let joints = sim.world().unwrap().joint_count();
        for i in 0..60 {
            sim.drag_to(top + Vec2::new(0.1 * i as Real, 0.0));
            sim.step();
        }
        let drag = sim.drag.unwrap();
        assert!(drag.active && (drag.position - drag.start).norm() > 2.0, "{drag:?}");
        sim.release();
        assert_eq!(sim.world().unwrap().joint_count(), joints - 1);
        assert!(!sim.drag.unwrap().active);
    }

    #[test]
    fn reset_builds_the_same_world_again() {
        let mut sim = vertical_stack();
        let first = sim.world().unwrap().state_hash();
        for _ in 0..10 {
            sim.step();
        }
        sim.reset();
        assert_eq!(sim.steps, 0);
        assert_eq!(sim.world().unwrap().state_hash(), first);
    }

    /// A scene that fails to build leaves an error and nothing to step, grab or
    /// draw; loading another scene clears it.
    #[test]
    fn a_broken_scene_is_an_error_and_the_next_scene_runs() {
        let mut sim = Simulation::new(scenes::broken(), 1).unwrap();
        assert!(sim.error.as_deref().is_some_and(|e| e.contains("a collider was refused")));
        assert!(sim.world().is_none());
        sim.step();
        sim.advance(1.0);
        assert_eq!(sim.steps, 0);
        assert!(!sim.grab(Point::origin()));
        assert!(sim.overlay().is_empty());
        sim.load(scenes::find("bounce").unwrap());
        assert!(sim.error.is_none());
        sim.step();
        assert_eq!(sim.steps, 1);
    }

    /// Keys given to the simulation reach the scene's driver: in its first
    /// second the character's script stands still, D held walks it right.
    #[test]
    fn held_keys_reach_the_scene() {
        let mut sim = Simulation::new(scenes::find("character_mover").unwrap(), 1).unwrap();
        let x = |sim: &Simulation| {
            let lines = sim.overlay();
            lines.iter().map(|l| l.a.x).sum::<Real>() / lines.len() as Real
        };
        let start = x(&sim);
        let right = crate::scenes::HeldKeys { right: true, ..Default::default() };
        for _ in 0..30 {
            sim.keys(&right);
            sim.step();
        }
        assert!(x(&sim) > start + 1.0, "the character stayed at {} from {start}", x(&sim));
        // Scenes steered by no key take them and carry on.
        sim.load(scenes::find("bounce").unwrap());
        sim.keys(&right);
        sim.step();
        assert!(sim.error.is_none());
    }

    #[test]
    fn refused_settings_leave_the_world_running() {
        let mut sim = vertical_stack();
        let settings = WorldSettings { substeps: 0, ..*sim.world().unwrap().settings() };
        assert!(sim.apply_settings(settings).is_err());
        sim.step();
        assert_eq!(sim.steps, 1);
        assert!(sim.error.is_none());
    }
}
