//! Gymnasium's BipedalWalker-v3 (and its hardcore course), simulated on
//! Lamina: a four-joint walker, driven by motor speed commands, crossing a
//! course of grass (and, in hardcore mode, stumps, stairs and pits), seen
//! through ten lidar rays.
//!
//! The observation, action, reward, termination and course generation are
//! Gymnasium's, with its constants; the start is where Gymnasium's walker
//! stands after its first step ([`start_y`], [`Walker::spawn`]); the physics
//! is Lamina's. Each episode's randomness (course, clouds, the start push)
//! comes from one [`Rng`] seeded at reset.

mod render;
pub mod terrain;
pub mod walker;

use lamina2d::prelude::*;

use crate::batch::{Env, Outcome};
use crate::rng::Rng;
use terrain::{Cloud, GROUND_CATEGORY, TERRAIN_HEIGHT, TERRAIN_STARTPAD, TERRAIN_STEP, Terrain};
use walker::{LEG_H, MOTORS_TORQUE, SPEED_HIP, SPEED_KNEE, Walker};

/// Steps per second.
pub const FPS: f64 = 50.0;
/// Pixels per metre of Gymnasium's picture, which its sizes are given in.
pub const SCALE: f64 = 30.0;
/// The picture's width, pixels.
pub const VIEWPORT_W: f64 = 600.0;
/// The picture's height, pixels.
pub const VIEWPORT_H: f64 = 400.0;
/// The lidar's reach, m.
pub const LIDAR_RANGE: f64 = 160.0 / SCALE;
/// The start push on the hull is uniform in ±this, N.
pub const INITIAL_RANDOM: f64 = 5.0;
/// The number of lidar rays.
pub const LIDAR_RAYS: usize = 10;
/// The reward of a fall (the hull touching the ground) or of walking off the
/// course's start.
pub const FALL_REWARD: f64 = -100.0;

/// What the lidar sees: a query that acts as a collider masked to the
/// ground's category, so the walker's own parts are passed through.
const LIDAR_FILTER: CollisionFilter =
    CollisionFilter { category: GROUND_CATEGORY, mask: GROUND_CATEGORY, group: 0 };

/// How an environment is set up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BipedalWalkerConfig {
    /// Stumps, stairs and pits between the grass spells.
    pub hardcore: bool,
}

/// One lidar ray as last cast: from the hull to its first hit on the ground,
/// or to its full reach.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LidarTrace {
    /// Where the ray starts (the hull's origin), m.
    pub from: (f64, f64),
    /// Where it ends, m.
    pub to: (f64, f64),
    /// The part of its reach it travelled, in (0, 1].
    pub fraction: f64,
}

/// One BipedalWalker environment: its world, its walker and course, and the
/// episode's bookkeeping.
pub struct BipedalWalker {
    config: BipedalWalkerConfig,
    world: World,
    walker: Walker,
    terrain: Terrain,
    clouds: Vec<Cloud>,
    /// Touching ground contacts of each lower leg.
    feet_touching: [u32; 2],
    /// The hull has touched the ground this episode.
    hull_touched: bool,
    /// The last step's shaping (progress and uprightness); `None` before the
    /// first step, which earns nothing.
    prev_shaping: Option<f64>,
    lidar: [LidarTrace; LIDAR_RAYS],
    /// Steps since the reset (its own idle step not counted).
    steps: u32,
}

impl BipedalWalker {
    /// An environment of `config`, reset with seed 0 so that it is ready to
    /// step or draw.
    pub fn new(config: BipedalWalkerConfig) -> Self {
        let mut world = new_world();
        let terrain = Terrain::generate(&mut Rng::new(0), config.hardcore);
        let walker = Walker::spawn(&mut world, start_x(), start_y(), TERRAIN_HEIGHT);
        let mut env = Self {
            config,
            world,
            walker,
            terrain,
            clouds: Vec::new(),
            feet_touching: [0; 2],
            hull_touched: false,
            prev_shaping: None,
            lidar: [LidarTrace::default(); LIDAR_RAYS],
            steps: 0,
        };
        env.reset(0, &mut [0.0; 24]);
        env
    }

    /// The configuration.
    pub fn config(&self) -> BipedalWalkerConfig {
        self.config
    }

    /// The world, to read.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The walker's bodies and joints.
    pub fn walker(&self) -> &Walker {
        &self.walker
    }

    /// This episode's course.
    pub fn terrain(&self) -> &Terrain {
        &self.terrain
    }

    /// This episode's clouds.
    pub fn clouds(&self) -> &[Cloud] {
        &self.clouds
    }

    /// The lidar rays of the last step.
    pub fn lidar(&self) -> &[LidarTrace; LIDAR_RAYS] {
        &self.lidar
    }

    /// Steps taken since the reset.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// The hull's origin, m: the walker's position.
    pub fn hull_position(&self) -> (f64, f64) {
        let t = self.world.body(self.walker.hull).expect("the hull stays in its world").translation();
        (f64::from(t.x), f64::from(t.y))
    }

    /// Steps the world once and reads what happened in it.
    fn advance(&mut self, action: &[f32]) {
        self.walker.drive(&mut self.world, action);
        self.world.step((1.0 / FPS) as Real).expect("a fixed, valid time step");
        self.read_contacts();
        self.scan();
    }

    /// Counts the lower legs' ground contacts from the step's events, and
    /// notes whether the hull began touching the ground. Every contact of the
    /// walker is with the ground: its parts collide with nothing else.
    fn read_contacts(&mut self) {
        let (hull, feet) = (self.walker.hull_collider, self.walker.feet);
        for event in self.world.contact_events() {
            let (began, a, b) = match *event {
                ContactEvent::Begin { a, b } => (true, a, b),
                ContactEvent::End { a, b } => (false, a, b),
            };
            if began && (a == hull || b == hull) {
                self.hull_touched = true;
            }
            for (touching, &foot) in self.feet_touching.iter_mut().zip(&feet) {
                if a == foot || b == foot {
                    *touching = if began { *touching + 1 } else { touching.saturating_sub(1) };
                }
            }
        }
    }

    /// Casts the ten lidar rays from the hull's origin, fanned from straight
    /// down to 1.35 rad forward, against the ground alone.
    fn scan(&mut self) {
        let (x, y) = self.hull_position();
        let filter = QueryFilter::default().groups(LIDAR_FILTER);
        for (i, trace) in self.lidar.iter_mut().enumerate() {
            let angle = 1.5 * i as f64 / 10.0;
            let dir = (angle.sin(), -angle.cos());
            let ray = Ray::new(Point::new(x as Real, y as Real), Vec2::new(dir.0 as Real, dir.1 as Real));
            let fraction = match self.world.cast_ray(&ray, LIDAR_RANGE as Real, &filter) {
                Some(hit) => f64::from(hit.toi) / LIDAR_RANGE,
                None => 1.0,
            };
            let reach = fraction * LIDAR_RANGE;
            *trace = LidarTrace { from: (x, y), to: (x + dir.0 * reach, y + dir.1 * reach), fraction };
        }
    }

    /// Writes Gymnasium's observation: the hull's angle, spin and velocity
    /// (scaled to about ±1), each leg's hip and knee angle and speed and its
    /// foot's contact, and the lidar fractions.
    fn observe(&self, observation: &mut [f32]) {
        let hull = self.world.body(self.walker.hull).expect("the hull stays in its world");
        let v = hull.linear_velocity();
        let motion =
            |k: usize| self.world.joint_motion(self.walker.joints[k]).expect("the walker's joints stay");
        let mut state = [0.0f64; 24];
        state[0] = f64::from(hull.angle());
        state[1] = 2.0 * f64::from(hull.angular_velocity()) / FPS;
        state[2] = 0.3 * f64::from(v.x) * (VIEWPORT_W / SCALE) / FPS;
        state[3] = 0.3 * f64::from(v.y) * (VIEWPORT_H / SCALE) / FPS;
        for leg in 0..2 {
            let (hip, knee) = (motion(2 * leg), motion(2 * leg + 1));
            let at = 4 + 5 * leg;
            state[at] = f64::from(hip.angle);
            state[at + 1] = f64::from(hip.angular_speed) / SPEED_HIP;
            state[at + 2] = f64::from(knee.angle) + 1.0;
            state[at + 3] = f64::from(knee.angular_speed) / SPEED_KNEE;
            state[at + 4] = if self.feet_touching[leg] > 0 { 1.0 } else { 0.0 };
        }
        for (slot, trace) in state[14..].iter_mut().zip(&self.lidar) {
            *slot = trace.fraction;
        }
        for (out, value) in observation.iter_mut().zip(state) {
            *out = value as f32;
        }
    }

    /// The step's reward and whether the episode ended: the change in
    /// shaping (130 per `SCALE` metres forward, −5 per radian of hull tilt)
    /// less the motors' cost; a fall, or walking back off the course's
    /// start, scores −100 and ends it, as does arriving at the far end.
    fn judge(&mut self, action: &[f32]) -> Outcome {
        let (x, _) = self.hull_position();
        let tilt = f64::from(self.world.body(self.walker.hull).expect("the hull stays").angle());
        let shaping = 130.0 * x / SCALE - 5.0 * tilt.abs();
        let mut reward = self.prev_shaping.map_or(0.0, |prev| shaping - prev);
        self.prev_shaping = Some(shaping);
        reward -= action.iter().map(|&a| 0.00035 * MOTORS_TORQUE * f64::from(a).abs().min(1.0)).sum::<f64>();
        let fell = self.hull_touched || x < 0.0;
        if fell {
            reward = FALL_REWARD;
        }
        Outcome { reward, terminated: fell || x > self.terrain.finish_x() }
    }
}

impl Env for BipedalWalker {
    const OBSERVATION_LEN: usize = 24;

    fn action_len(&self) -> usize {
        4
    }

    /// Draws the course and clouds, builds the world with the walker standing
    /// at the start pad, gives the hull its random push, and takes
    /// Gymnasium's idle first step, whose observation is the first.
    fn reset(&mut self, seed: u64, observation: &mut [f32]) {
        let mut rng = Rng::new(seed);
        self.terrain = Terrain::generate(&mut rng, self.config.hardcore);
        self.clouds = terrain::generate_clouds(&mut rng);
        let mut world = new_world();
        self.terrain.build(&mut world);
        self.walker = Walker::spawn(&mut world, start_x(), start_y(), TERRAIN_HEIGHT);
        let push = rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM) as Real;
        let hull = world.body_mut(self.walker.hull).expect("the hull was just added");
        hull.apply_force(Vec2::new(push, 0.0)).expect("a finite push");
        self.world = world;
        self.feet_touching = [0; 2];
        self.hull_touched = false;
        self.prev_shaping = None;
        self.advance(&[0.0; 4]);
        self.judge(&[0.0; 4]);
        self.observe(observation);
        self.steps = 0;
    }

    fn step(&mut self, action: &[f32], observation: &mut [f32]) -> Outcome {
        self.advance(action);
        self.observe(observation);
        self.steps += 1;
        self.judge(action)
    }
}

/// The hull's start: halfway along the start pad.
pub fn start_x() -> f64 {
    TERRAIN_STEP * TERRAIN_STARTPAD as f64 / 2.0
}

/// The hull's start height: where Gymnasium's hull is once its first step
/// has folded the legs out of the ground (see [`Walker::spawn`]), its
/// creation height of two leg links above the level raised by `START_RISE`.
pub fn start_y() -> f64 {
    TERRAIN_HEIGHT + 2.0 * LEG_H + START_RISE
}

/// How far Box2D's first step lifts Gymnasium's hull from where it is
/// created, m: 5.733 m against 5.6 m, measured with Gymnasium 1.4 (seeds 0
/// to 2 agree within 2 mm). Starting lower, with the knees bent deeper to
/// reach the ground, the scripted gait's swinging foot lands short and the
/// walker falls on its first stride.
pub const START_RISE: f64 = 0.133;

/// The world settings of every walker's world.
///
/// Gymnasium steps Box2D with 180 velocity and 60 position iterations; Lamina
/// reaches its stiffness through substeps instead. Four (the engine's
/// default, joints and contacts up to 50 Hz at 50 steps/s) already give the
/// measured behaviour of two, six and eight substeps (an idle walker falls
/// forward after 88–91 steps with each) at the least cost. Sleep is off: the
/// walker is the only moving thing and is driven every step.
pub fn world_settings() -> WorldSettings {
    WorldSettings { substeps: SUBSTEPS, enable_sleep: false, ..WorldSettings::default() }
}

/// Solver substeps per step.
const SUBSTEPS: u32 = 4;

/// An empty world of [`world_settings`], stepping on its caller's thread: a
/// world this small steps faster alone, and a batch keeps the pool busy
/// with whole worlds.
fn new_world() -> World {
    let mut world = World::new(world_settings());
    world.set_sharing(Sharing::Never);
    world
}

#[cfg(test)]
mod tests;
