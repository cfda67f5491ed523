//! Gymnasium's LunarLander-v3 simulated on Lamina.
//!
//! The lander, its legs, the moon's terrain, the engines' impulses, wind and
//! turbulence, the observation, the shaped reward and the ends of an
//! episode follow Gymnasium's `lunar_lander.py` (constants and formulas
//! included); the physics is Lamina's instead of Box2D's. Two departures,
//! each explained where it is made: the legs' motors hold their rest angle
//! as servos rather than pressing against a limit (`LunarLander::add_leg`),
//! and a leg's contact flag counts every terrain segment it touches
//! (`LunarLander::read_contacts`). Every
//! random number of an episode comes from the [`Rng`] seeded at its reset, in
//! the order Gymnasium draws them: twelve terrain heights, the two components
//! of the start push, the two wind phases (with wind), then two engine
//! dispersions per step.
//!
//! Units are Gymnasium's: the world is the 600 × 400 pixel viewport divided
//! by `SCALE` = 30 px/m (20 m × 13.3 m), stepped at 50 steps per second.

use std::collections::VecDeque;
use std::fmt;

use lamina2d::prelude::*;

use crate::batch::{Env, Outcome};
use crate::canvas::{Canvas, Rgb};
use crate::rng::Rng;

/// Steps per second.
pub const FPS: f64 = 50.0;
/// Pixels per metre of the picture; Gymnasium's lengths are given in pixels.
pub const SCALE: f64 = 30.0;
/// The picture's width, pixels.
pub const VIEWPORT_W: u32 = 600;
/// The picture's height, pixels.
pub const VIEWPORT_H: u32 = 400;

/// The world's width and height, metres.
const W: f64 = VIEWPORT_W as f64 / SCALE;
const H: f64 = VIEWPORT_H as f64 / SCALE;

const MAIN_ENGINE_POWER: f64 = 13.0;
const SIDE_ENGINE_POWER: f64 = 0.6;
/// The largest component of the push given at the start, newtons.
const INITIAL_RANDOM: f64 = 1000.0;
/// The hull, pixels, origin at the body's origin.
const LANDER_POLY: [(f64, f64); 6] =
    [(-14.0, 17.0), (-17.0, 0.0), (-17.0, -10.0), (17.0, -10.0), (17.0, 0.0), (14.0, 17.0)];
const LEG_AWAY: f64 = 20.0;
const LEG_DOWN: f64 = 18.0;
/// A leg's half width and half height, pixels.
const LEG_W: f64 = 2.0;
const LEG_H: f64 = 8.0;
const SIDE_ENGINE_HEIGHT: f64 = 14.0;
/// Gymnasium offsets the side engines' point by 17 px along the hull's up
/// axis in x but by `SIDE_ENGINE_HEIGHT` in y: a known quirk of v3 that
/// makes their torque depend on the lander's angle, kept for fidelity.
const SIDE_ENGINE_X_OFFSET: f64 = 17.0;
const SIDE_ENGINE_AWAY: f64 = 12.0;
const MAIN_ENGINE_Y_LOCATION: f64 = 4.0;
/// Terrain chunks: 11 points joined by 10 segments.
const CHUNKS: usize = 11;
/// A leg's angle to the hull once Gymnasium's leg motor has pressed it
/// against its inner limit (Box2D's limits: 0.4..0.9 rad for the right leg,
/// mirrored).
const LEG_REST_ANGLE: f64 = 0.4;
/// How far a leg may fold in from its rest angle, rad (Gymnasium's limits
/// span 0.4 to 0.9 rad out).
const LEG_TRAVEL: f64 = 0.5;
/// How far past its rest angle a leg may swing out, rad: room for the servo,
/// whose rest Gymnasium's outer limit is.
const LEG_SLACK: f64 = 0.3;
/// The largest torque of a leg's motor, N·m: the legs' spring.
const LEG_SPRING_TORQUE: f64 = 40.0;
/// The legs' motor speed, rad/s: slow enough that they do not kick the
/// lander back into the sky.
const LEG_MOTOR_SPEED: f64 = 0.3;
/// The servo's speed per radian off rest, 1/s.
const LEG_SERVO_GAIN: f64 = 5.0;
/// A leg this close to rest, rad, has a still motor.
const LEG_DEADBAND: f64 = 0.002;
/// Gymnasium ages the exhaust particles by this much per rendered frame.
const PARTICLE_AGING: f64 = 0.15;
const PARTICLE_RADIUS: f64 = 2.0 / SCALE;

/// Collision categories: the ground, and the three kinds of bodies that
/// collide only with it (never with each other).
const GROUND: u32 = 0x0001;
const LANDER: u32 = 0x0010;
const LEG: u32 = 0x0020;
const PARTICLE: u32 = 0x0100;

const SKY: Rgb = (0, 0, 0);
const MOON: Rgb = (255, 255, 255);
const HULL_FILL: Rgb = (128, 102, 230);
const HULL_EDGE: Rgb = (77, 77, 128);
const FLAG_POLE: Rgb = (255, 255, 255);
const FLAG: Rgb = (204, 204, 0);

/// What an episode simulates: Gymnasium's constructor arguments, and whether
/// to simulate the exhaust particles that only a picture shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LunarLanderConfig {
    /// Two continuous throttles instead of four discrete actions.
    pub continuous: bool,
    /// The moon's gravity, m/s², in (−12, 0).
    pub gravity: f64,
    /// Blow a varying wind and turbulence on the lander while no leg touches the ground.
    pub enable_wind: bool,
    /// The strongest wind force, newtons.
    pub wind_power: f64,
    /// The strongest turbulence torque, N·m.
    pub turbulence_power: f64,
    /// Simulate the engines' exhaust particles: decoration for the picture,
    /// with no effect on the lander (they touch only the ground).
    pub particles: bool,
}

impl Default for LunarLanderConfig {
    /// Gymnasium's defaults, without particles.
    fn default() -> Self {
        Self {
            continuous: false,
            gravity: -10.0,
            enable_wind: false,
            wind_power: 15.0,
            turbulence_power: 1.5,
            particles: false,
        }
    }
}

/// A configuration value an episode cannot run with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConfigError {
    /// Gravity outside (−12, 0), Gymnasium's range.
    Gravity(f64),
    /// A wind or turbulence power that is not a finite number.
    NotFinite {
        /// The setting's name.
        name: &'static str,
        /// Its value.
        value: f64,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Gravity(value) => write!(f, "gravity must be between -12 and 0 (exclusive), got {value:?}"),
            Self::NotFinite { name, value } => write!(f, "{name} must be a finite number, got {value:?}"),
        }
    }
}

impl std::error::Error for ConfigError {}

impl LunarLanderConfig {
    /// Checks the configuration, naming the first bad value. Wind and
    /// turbulence powers outside Gymnasium's recommended ranges are allowed,
    /// as Gymnasium allows them with a warning.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(-12.0 < self.gravity && self.gravity < 0.0) {
            return Err(ConfigError::Gravity(self.gravity));
        }
        for (name, value) in [("wind_power", self.wind_power), ("turbulence_power", self.turbulence_power)] {
            if !value.is_finite() {
                return Err(ConfigError::NotFinite { name, value });
            }
        }
        Ok(())
    }

    /// The length of an action: two throttles, or one discrete index.
    pub fn action_len(&self) -> usize {
        if self.continuous { 2 } else { 1 }
    }
}

/// An action an environment refuses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ActionError {
    /// The action has the wrong number of components.
    Length {
        /// The number the configuration wants.
        expected: usize,
        /// The number given.
        got: usize,
    },
    /// A discrete action that is not one of 0, 1, 2, 3.
    Discrete(f32),
    /// A throttle that is not a finite number.
    NotFinite(f32),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length { expected, got } => write!(f, "an action has {expected} components, got {got}"),
            Self::Discrete(value) => write!(f, "a discrete action is 0, 1, 2 or 3, got {value}"),
            Self::NotFinite(value) => write!(f, "throttles must be finite numbers, got {value}"),
        }
    }
}

impl std::error::Error for ActionError {}

/// How hard each engine fires this step, decoded from an action.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Throttle {
    /// The main engine's power, 0 (off) or 0.5..1.
    main: f64,
    /// The side engines' power, 0 (off) or 0.5..1.
    side: f64,
    /// Which side engine: −1 fires the left one (pushing right), +1 the right one.
    direction: f64,
}

impl Throttle {
    /// Gymnasium's reading of an action: discrete 0 nothing, 1 left engine,
    /// 2 main engine, 3 right engine; continuous, the main engine off below
    /// 0 and from half to full power above, the side engines off within
    /// ±0.5 and from half to full power beyond.
    fn of(action: &[f32], continuous: bool) -> Self {
        if continuous {
            let main_control = f64::from(action[0]).clamp(-1.0, 1.0);
            let side_control = f64::from(action[1]).clamp(-1.0, 1.0);
            let main = if main_control > 0.0 { (main_control + 1.0) * 0.5 } else { 0.0 };
            let (side, direction) = if side_control.abs() > 0.5 {
                (side_control.abs().clamp(0.5, 1.0), side_control.signum())
            } else {
                (0.0, 0.0)
            };
            Self { main, side, direction }
        } else {
            match action[0] as u8 {
                1 => Self { main: 0.0, side: 1.0, direction: -1.0 },
                2 => Self { main: 1.0, side: 0.0, direction: 0.0 },
                3 => Self { main: 0.0, side: 1.0, direction: 1.0 },
                _ => Self { main: 0.0, side: 0.0, direction: 0.0 },
            }
        }
    }
}

/// The moon's surface of one episode, kept to draw it.
#[derive(Clone, Copy, Debug, Default)]
struct Terrain {
    /// The chunks' x, metres, evenly spaced across the world.
    x: [f64; CHUNKS],
    /// The smoothed heights at those x, metres.
    y: [f64; CHUNKS],
    /// The helipad's ends and height (the flags stand there).
    helipad_x1: f64,
    helipad_x2: f64,
    helipad_y: f64,
}

impl Terrain {
    /// Gymnasium's terrain: random heights up to half the world's height,
    /// the five around the centre flattened to the helipad at a quarter of
    /// it, each then averaged with its two neighbours (the first with the
    /// last: Gymnasium's index −1), times 0.33.
    fn random(rng: &mut Rng) -> Self {
        let mut height = [0.0; CHUNKS + 1];
        for h in &mut height {
            *h = rng.uniform(0.0, H / 2.0);
        }
        let helipad_y = H / 4.0;
        height[CHUNKS / 2 - 2..=CHUNKS / 2 + 2].fill(helipad_y);
        let x: [f64; CHUNKS] = std::array::from_fn(|i| W / (CHUNKS - 1) as f64 * i as f64);
        let y = std::array::from_fn(|i| {
            let before = height[(i + CHUNKS) % (CHUNKS + 1)];
            0.33 * (before + height[i] + height[i + 1])
        });
        Self { x, y, helipad_x1: x[CHUNKS / 2 - 1], helipad_x2: x[CHUNKS / 2 + 1], helipad_y }
    }

    /// The surface's points from right to left, the order in which a chain
    /// is solid on its upper side.
    fn points_right_to_left(&self) -> impl Iterator<Item = Point> + '_ {
        self.x.iter().zip(&self.y).rev().map(|(&x, &y)| point(x, y))
    }
}

/// An exhaust particle and how long it has left to glow.
#[derive(Clone, Copy, Debug)]
struct Particle {
    body: BodyKey,
    ttl: f64,
}

/// One lander and its moon, as Gymnasium's `LunarLander` with Lamina's physics.
pub struct LunarLander {
    config: LunarLanderConfig,
    world: World,
    rng: Rng,
    terrain: Terrain,
    lander: BodyKey,
    hull: ColliderKey,
    /// The right leg's collider (Gymnasium's `legs[0]`) and the left one's.
    feet: [ColliderKey; 2],
    /// The legs' bodies, their hinges and their motors' speeds, in the same order.
    legs: [BodyKey; 2],
    leg_joints: [JointKey; 2],
    leg_speeds: [Real; 2],
    /// How many terrain segments each leg touches.
    ground_touches: [u8; 2],
    /// The hull has touched the ground: a crash.
    game_over: bool,
    /// The hull's angle counted through whole turns, as Box2D keeps it
    /// (Lamina's body angle is wrapped to (−π, π]).
    angle: f64,
    /// The body angle the count was last brought up to.
    wrapped_angle: f32,
    prev_shaping: Option<f64>,
    /// The positions of the wind and turbulence along their never-repeating signals.
    wind_idx: i64,
    torque_idx: i64,
    particles: VecDeque<Particle>,
}

impl LunarLander {
    /// An environment ready to be reset; `config` is checked first.
    pub fn new(config: LunarLanderConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        let mut env = Self {
            config,
            world: World::new(WorldSettings::default()),
            rng: Rng::new(0),
            terrain: Terrain::default(),
            lander: BodyKey::default(),
            hull: ColliderKey::default(),
            feet: [ColliderKey::default(); 2],
            legs: [BodyKey::default(); 2],
            leg_joints: [JointKey::default(); 2],
            leg_speeds: [0.0; 2],
            ground_touches: [0; 2],
            game_over: false,
            angle: 0.0,
            wrapped_angle: 0.0,
            prev_shaping: None,
            wind_idx: 0,
            torque_idx: 0,
            particles: VecDeque::with_capacity(32),
        };
        env.build_episode(0);
        Ok(env)
    }

    /// The configuration.
    pub fn config(&self) -> &LunarLanderConfig {
        &self.config
    }

    /// Whether the right and the left leg touch the ground.
    pub fn leg_contacts(&self) -> [bool; 2] {
        self.ground_touches.map(|n| n > 0)
    }

    /// Whether the lander still moves: an episode ends when it falls asleep.
    pub fn is_awake(&self) -> bool {
        !self.body(self.lander).is_sleeping()
    }

    /// Checks an action against the configuration, naming what is wrong.
    pub fn check_action(&self, action: &[f32]) -> Result<(), ActionError> {
        let expected = self.config.action_len();
        if action.len() != expected {
            return Err(ActionError::Length { expected, got: action.len() });
        }
        if self.config.continuous {
            match action.iter().find(|a| !a.is_finite()) {
                Some(&bad) => Err(ActionError::NotFinite(bad)),
                None => Ok(()),
            }
        } else if matches!(action[0], 0.0 | 1.0 | 2.0 | 3.0) {
            Ok(())
        } else {
            Err(ActionError::Discrete(action[0]))
        }
    }

    /// Starts an episode from `seed` and writes its first observation: that
    /// of a step with the engines off, as Gymnasium's reset returns.
    pub fn reset(&mut self, seed: u64, observation: &mut [f32]) {
        self.build_episode(seed);
        let idle = [0.0; 2];
        self.step(&idle[..self.config.action_len()], observation);
    }

    /// Fires the engines as `action` says (checked by [`Self::check_action`]),
    /// steps the world 1/50 s and writes the observation.
    pub fn step(&mut self, action: &[f32], observation: &mut [f32]) -> Outcome {
        self.blow_wind();
        let throttle = Throttle::of(action, self.config.continuous);
        self.fire_engines(throttle);
        self.hold_legs();
        self.world.step((1.0 / FPS) as Real).expect("1/50 s is a valid time step");
        self.read_contacts();
        self.age_particles();
        self.track_angle();
        let state = self.state();
        for (o, s) in observation.iter_mut().zip(&state) {
            *o = *s as f32;
        }
        self.outcome(&state, throttle)
    }

    /// Draws the scene as Gymnasium does into `out`, `VIEWPORT_H × VIEWPORT_W
    /// × 3` RGB bytes, top row first: a white moon under a black sky, the
    /// exhaust particles, the lander and its legs, and the helipad's flags.
    pub fn render_into(&self, out: &mut [u8]) {
        let mut canvas = Canvas::new(VIEWPORT_W, VIEWPORT_H, SCALE as f32, 0.0, MOON);
        self.draw_sky(&mut canvas);
        for particle in &self.particles {
            let center = self.body(particle.body).translation();
            canvas.fill_circle((center.x, center.y), PARTICLE_RADIUS as f32, particle_colour(particle.ttl));
        }
        self.draw_lander(&mut canvas);
        self.draw_flags(&mut canvas);
        canvas.write_rgb(out);
    }

    /// The picture as a new buffer; see [`Self::render_into`].
    pub fn render(&self) -> Vec<u8> {
        let mut out = vec![0; (VIEWPORT_W * VIEWPORT_H * 3) as usize];
        self.render_into(&mut out);
        out
    }

    /// A fresh world with this episode's terrain and the lander at the top
    /// centre, given its random push; the wind's phases drawn.
    fn build_episode(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
        self.terrain = Terrain::random(&mut self.rng);
        self.world = World::new(world_settings(self.config.gravity));
        // A world this small steps fastest on the calling thread, and a batch
        // already runs one environment per pool thread.
        self.world.set_sharing(Sharing::Never);
        self.particles.clear();
        self.add_moon();
        let origin = point(W / 2.0, H);
        self.add_lander(origin);
        let push = vec2(
            self.rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM),
            self.rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM),
        );
        self.body_mut(self.lander).apply_force(push).expect("a push of at most 1000 N is finite");
        if self.config.enable_wind {
            self.wind_idx = self.rng.integers(-9999, 9999);
            self.torque_idx = self.rng.integers(-9999, 9999);
        }
        self.ground_touches = [0; 2];
        self.game_over = false;
        (self.angle, self.wrapped_angle) = (0.0, 0.0);
        self.prev_shaping = None;
    }

    /// The ground: the terrain as one seamless chain (friction 0.1) over a
    /// floor segment along y = 0, as Gymnasium's edges.
    fn add_moon(&mut self) {
        let moon = self.world.add_body(BodyDesc::fixed());
        let points: Vec<Point> = self.terrain.points_right_to_left().collect();
        let surface = ChainDesc::new(&points).friction(0.1).filter(filter(GROUND, u32::MAX));
        self.world.add_chain(moon, surface).expect("the terrain's points are finite and distinct");
        let floor = ColliderDesc::new(Shape::segment(point(0.0, 0.0), point(W, 0.0))).friction(0.2);
        self.world.add_collider(moon, floor).expect("the floor is a valid segment");
    }

    /// The hull at `origin`, with its two legs.
    fn add_lander(&mut self, origin: Point) {
        self.lander = self.world.add_body(BodyDesc::dynamic().translation(origin.x, origin.y));
        let hull: [Point; 6] = LANDER_POLY.map(|(x, y)| point(x / SCALE, y / SCALE));
        let shape = Shape::polygon(&hull).expect("the hull is convex");
        let collider = ColliderDesc::new(shape)
            .density(5.0)
            .friction(0.1)
            .restitution(0.0)
            .filter(filter(LANDER, GROUND));
        self.hull = self.world.add_collider(self.lander, collider).expect("the hull is a valid collider");
        for side in 0..2 {
            self.add_leg(side);
        }
    }

    /// Leg `side` (0 right, 1 left: Gymnasium's `legs[0]` and `legs[1]`,
    /// its `i` = −1 and +1): a body of its own on a revolute hinge at the
    /// hull's origin, held at its rest angle by a 40 N·m motor, so that a
    /// hard landing folds the legs and lets the hull down onto the ground,
    /// as in Gymnasium.
    ///
    /// Gymnasium creates each leg beside the hull and lets Box2D's first
    /// step pull it onto the hinge, turned out against its limit; the leg
    /// here starts where that step leaves it (0.4 rad out). Gymnasium's
    /// motor pushes the leg against that limit at all times. Lamina's limit
    /// rows turn the bodies about the anchor while its motor turns them about
    /// their centres of mass, so a motor held against a limit pulls the hinge
    /// apart (6.5 cm at 40 N·m); the motor here is a servo instead
    /// ([`Self::hold_legs`]), holding the rest angle with the same torque,
    /// and the limit is met only when a landing folds a leg all the way in.
    fn add_leg(&mut self, side: usize) {
        let i = if side == 0 { -1.0 } else { 1.0 };
        let angle = -LEG_REST_ANGLE * i;
        let hinge = self.body(self.lander).translation();
        // The leg's point (i × 20, 18) px of its own frame lies on the hinge.
        let anchor_on_leg = vec2(i * LEG_AWAY / SCALE, LEG_DOWN / SCALE);
        let center = hinge - Rotation::new(angle as Real) * anchor_on_leg;
        let leg =
            self.world.add_body(BodyDesc::dynamic().translation(center.x, center.y).angle(angle as Real));
        let shape = Shape::rectangle((LEG_W / SCALE) as Real, (LEG_H / SCALE) as Real);
        let foot =
            ColliderDesc::new(shape).density(1.0).friction(0.2).restitution(0.0).filter(filter(LEG, GROUND));
        self.feet[side] = self.world.add_collider(leg, foot).expect("the leg is a valid collider");
        // Angles count from the rest pose; outward is the motor's direction, −i.
        let (lower, upper) = if i < 0.0 { (-LEG_SLACK, LEG_TRAVEL) } else { (-LEG_TRAVEL, LEG_SLACK) };
        let hinge_joint = JointDesc::revolute(self.lander, leg, Point::from(hinge))
            .limits(lower as Real, upper as Real)
            .motor(0.0, LEG_SPRING_TORQUE as Real);
        self.leg_joints[side] = self.world.add_joint(hinge_joint).expect("the hinge joins two live bodies");
        self.legs[side] = leg;
        self.leg_speeds[side] = 0.0;
    }

    /// Drives each leg's motor back toward the rest angle, at most Gymnasium's
    /// 0.3 rad/s and 40 N·m. A leg within a hair of rest keeps a still motor
    /// (a brake of the same torque), and a motor's speed is changed only when
    /// it moves, so that a lander at rest is left to fall asleep.
    fn hold_legs(&mut self) {
        for side in 0..2 {
            let angle = self.world.joint_motion(self.leg_joints[side]).map_or(0.0, |m| f64::from(m.angle));
            let speed = if angle.abs() < LEG_DEADBAND {
                0.0
            } else {
                (-LEG_SERVO_GAIN * angle).clamp(-LEG_MOTOR_SPEED, LEG_MOTOR_SPEED) as Real
            };
            if speed != self.leg_speeds[side] {
                self.leg_speeds[side] = speed;
                let joint =
                    self.world.joint_mut(self.leg_joints[side]).expect("the legs' hinges stay in the world");
                joint.set_motor_speed(speed).expect("the speed is finite");
            }
        }
    }

    /// Gymnasium's wind and turbulence, `tanh(sin(0.02 k) + sin(0.01 π k))`
    /// times their powers (never periodic), while no leg touches the ground.
    fn blow_wind(&mut self) {
        if !self.config.enable_wind || self.leg_contacts().contains(&true) {
            return;
        }
        let signal =
            |k: i64| (f64::sin(0.02 * k as f64) + f64::sin(std::f64::consts::PI * 0.01 * k as f64)).tanh();
        let wind = signal(self.wind_idx) * self.config.wind_power;
        let torque = signal(self.torque_idx) * self.config.turbulence_power;
        self.wind_idx += 1;
        self.torque_idx += 1;
        let lander = self.body_mut(self.lander);
        lander.apply_force(vec2(wind, 0.0)).expect("the wind is finite");
        lander.apply_torque(torque as Real).expect("the turbulence is finite");
    }

    /// The engines' impulses on the hull, each from a point jittered by this
    /// step's two dispersions (drawn whether or not an engine fires).
    fn fire_engines(&mut self, throttle: Throttle) {
        let body = self.body(self.lander);
        let origin = body.translation();
        let (origin_x, origin_y) = (f64::from(origin.x), f64::from(origin.y));
        let (sin, cos) = f64::from(body.angle()).sin_cos();
        // The hull's up axis (`tip`), and `side`, a quarter turn
        // anticlockwise from it: pointing left when the hull is upright.
        let tip = (sin, cos);
        let side = (-cos, sin);
        let dispersion = [self.rng.uniform(-1.0, 1.0) / SCALE, self.rng.uniform(-1.0, 1.0) / SCALE];
        if throttle.main > 0.0 {
            let reach = MAIN_ENGINE_Y_LOCATION / SCALE + 2.0 * dispersion[0];
            let ox = tip.0 * reach + side.0 * dispersion[1];
            let oy = -tip.1 * reach - side.1 * dispersion[1];
            let at = (origin_x + ox, origin_y + oy);
            self.thrust(at, (ox, oy), MAIN_ENGINE_POWER * throttle.main, 3.5, throttle.main);
        }
        if throttle.side > 0.0 {
            let reach = 3.0 * dispersion[1] + throttle.direction * SIDE_ENGINE_AWAY / SCALE;
            let ox = tip.0 * dispersion[0] + side.0 * reach;
            let oy = -tip.1 * dispersion[0] - side.1 * reach;
            let at = (
                origin_x + ox - tip.0 * SIDE_ENGINE_X_OFFSET / SCALE,
                origin_y + oy + tip.1 * SIDE_ENGINE_HEIGHT / SCALE,
            );
            self.thrust(at, (ox, oy), SIDE_ENGINE_POWER * throttle.side, 0.7, throttle.side);
        }
    }

    /// Pushes the hull at `at` by `−exhaust × power`, and blows a particle
    /// of the given density out the other way when particles are simulated.
    fn thrust(&mut self, at: (f64, f64), exhaust: (f64, f64), power: f64, particle_density: f64, ttl: f64) {
        let at = point(at.0, at.1);
        let impulse = vec2(exhaust.0 * power, exhaust.1 * power);
        if self.config.particles {
            self.emit_particle(at, impulse, particle_density, ttl);
        }
        self.body_mut(self.lander).apply_impulse_at(-impulse, at).expect("the engine's impulse is finite");
    }

    fn emit_particle(&mut self, at: Point, impulse: Vec2, density: f64, ttl: f64) {
        let body = self.world.add_body(BodyDesc::dynamic().translation(at.x, at.y));
        let shape = Shape::circle(PARTICLE_RADIUS as Real);
        let collider = ColliderDesc::new(shape)
            .density(density as Real)
            .friction(0.1)
            .restitution(0.3)
            .filter(filter(PARTICLE, GROUND));
        self.world.add_collider(body, collider).expect("a particle is a valid collider");
        self.body_mut(body).apply_impulse_at(impulse, at).expect("the exhaust's impulse is finite");
        self.particles.push_back(Particle { body, ttl });
    }

    /// Ages the particles as Gymnasium's renderer does once per frame (here
    /// once per step, so the picture does not depend on how often it is
    /// taken), and removes the oldest while their time is up.
    fn age_particles(&mut self) {
        for particle in &mut self.particles {
            particle.ttl -= PARTICLE_AGING;
        }
        while let Some(oldest) = self.particles.front().filter(|p| p.ttl < 0.0) {
            self.world.remove_body(oldest.body).expect("a live body");
            self.particles.pop_front();
        }
    }

    /// Gymnasium's contact listener: the hull touching the ground ends the
    /// game, and each leg's flag says whether it touches the ground.
    ///
    /// Gymnasium clears a leg's flag when any of its contacts ends, even
    /// while the leg still stands on the next terrain segment; a foot set
    /// down where two segments meet touches both, and would then report
    /// itself in the air. Counting the leg's touching contacts keeps the
    /// flag true for as long as one remains.
    fn read_contacts(&mut self) {
        for event in self.world.contact_events() {
            let (a, b, touching) = match *event {
                ContactEvent::Begin { a, b } => (a, b, true),
                ContactEvent::End { a, b } => (a, b, false),
            };
            if touching && (a == self.hull || b == self.hull) {
                self.game_over = true;
            }
            for (count, &foot) in self.ground_touches.iter_mut().zip(&self.feet) {
                if a == foot || b == foot {
                    *count = if touching { *count + 1 } else { count.saturating_sub(1) };
                }
            }
        }
    }

    /// Brings the whole-turn angle up to the body's new angle. A step turns
    /// a body by less than half a turn, so the shortest way round is the way
    /// it turned.
    fn track_angle(&mut self) {
        let now = self.body(self.lander).angle();
        let turn = f64::from(now - self.wrapped_angle);
        let turn = (turn + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI;
        self.angle += turn;
        self.wrapped_angle = now;
    }

    /// Gymnasium's observation, before rounding to `f32`: the hull's origin
    /// relative to the helipad (raised by a leg's reach) in half-widths and
    /// half-heights of the world, its velocity in those units per step, its
    /// angle, its angular velocity in 0.4 rad/s (Gymnasium's `20 ω / FPS`),
    /// and the two legs' contact flags.
    fn state(&self) -> [f64; 8] {
        let body = self.body(self.lander);
        let (position, velocity) = (body.translation(), body.linear_velocity());
        let flag = |touches: u8| if touches > 0 { 1.0 } else { 0.0 };
        [
            (f64::from(position.x) - W / 2.0) / (W / 2.0),
            (f64::from(position.y) - (self.terrain.helipad_y + LEG_DOWN / SCALE)) / (H / 2.0),
            f64::from(velocity.x) * (W / 2.0) / FPS,
            f64::from(velocity.y) * (H / 2.0) / FPS,
            self.angle,
            20.0 * f64::from(body.angular_velocity()) / FPS,
            flag(self.ground_touches[0]),
            flag(self.ground_touches[1]),
        ]
    }

    /// The step's reward and whether the episode ended: the change of the
    /// shaping potential (distance, speed, tilt, legs down) less the fuel
    /// burnt; −100 for a crash or for leaving the screen sideways, +100 once
    /// the lander is at rest (asleep), which overrides a crash on the same step.
    fn outcome(&mut self, s: &[f64; 8], throttle: Throttle) -> Outcome {
        let shaping = -100.0 * (s[0] * s[0] + s[1] * s[1]).sqrt()
            - 100.0 * (s[2] * s[2] + s[3] * s[3]).sqrt()
            - 100.0 * s[4].abs()
            + 10.0 * s[6]
            + 10.0 * s[7];
        let mut reward = self.prev_shaping.map_or(0.0, |prev| shaping - prev);
        self.prev_shaping = Some(shaping);
        reward -= throttle.main * 0.30;
        reward -= throttle.side * 0.03;
        let mut terminated = false;
        if self.game_over || s[0].abs() >= 1.0 {
            (reward, terminated) = (-100.0, true);
        }
        if !self.is_awake() {
            (reward, terminated) = (100.0, true);
        }
        Outcome { reward, terminated }
    }

    /// The sky: the region above each terrain segment, up to the top edge.
    fn draw_sky(&self, canvas: &mut Canvas) {
        let t = &self.terrain;
        for i in 0..CHUNKS - 1 {
            let (x1, y1, x2, y2) = (t.x[i] as f32, t.y[i] as f32, t.x[i + 1] as f32, t.y[i + 1] as f32);
            canvas.fill_polygon(&[(x1, y1), (x2, y2), (x2, H as f32), (x1, H as f32)], SKY);
        }
    }

    /// The hull, then the legs: each polygon filled, with a darker edge.
    fn draw_lander(&self, canvas: &mut Canvas) {
        for key in [self.hull, self.feet[0], self.feet[1]] {
            let collider = self.world.collider(key).expect("the lander's colliders stay in its world");
            let pose = self.body(collider.body()).position();
            let Shape::Polygon(polygon) = collider.shape() else {
                continue;
            };
            let pose = pose * collider.local_pose();
            let mut outline = [(0.0, 0.0); 8];
            let n = polygon.vertices().len().min(outline.len());
            for (corner, vertex) in outline.iter_mut().zip(polygon.vertices()) {
                let p = pose * vertex;
                *corner = (p.x, p.y);
            }
            canvas.fill_polygon(&outline[..n], HULL_FILL);
            canvas.stroke_polyline(&outline[..n], true, HULL_EDGE, 1.0);
        }
    }

    /// A white pole 50 px high at each end of the helipad, with a yellow pennant.
    fn draw_flags(&self, canvas: &mut Canvas) {
        let px = 1.0 / SCALE as f32;
        let bottom = self.terrain.helipad_y as f32;
        let top = bottom + 50.0 * px;
        for x in [self.terrain.helipad_x1 as f32, self.terrain.helipad_x2 as f32] {
            canvas.stroke_polyline(&[(x, bottom), (x, top)], false, FLAG_POLE, 1.0);
            canvas.fill_polygon(&[(x, top), (x, top - 10.0 * px), (x + 25.0 * px, top - 5.0 * px)], FLAG);
        }
    }

    fn body(&self, key: BodyKey) -> &Body {
        self.world.body(key).expect("the episode's bodies stay in its world")
    }

    fn body_mut(&mut self, key: BodyKey) -> &mut BodyMut {
        self.world.body_mut(key).expect("the episode's bodies stay in its world")
    }
}

impl Env for LunarLander {
    const OBSERVATION_LEN: usize = 8;

    fn action_len(&self) -> usize {
        self.config.action_len()
    }

    fn reset(&mut self, seed: u64, observation: &mut [f32]) {
        LunarLander::reset(self, seed, observation);
    }

    fn step(&mut self, action: &[f32], observation: &mut [f32]) -> Outcome {
        LunarLander::step(self, action, observation)
    }
}

/// The world of an episode: gravity, eight substeps, and Lamina's sleep
/// defaults, chosen to match Box2D's.
///
/// Gymnasium's episode ends when Box2D puts the lander to sleep: when it
/// has moved slower than 0.01 m/s and turned slower than 2°/s (0.035 rad/s)
/// for 0.5 s. Lamina sleeps a body when its speed plus its spin times its
/// extent stays below `sleep_linear_velocity` for `time_to_sleep`. The
/// lander's feet reach 1.16 m from its centre of mass, so Box2D's two
/// tolerances at their limits come to 0.01 + 1.16 × 0.035 = 0.05 m/s:
/// Lamina's default. With it and the same 0.5 s, a lander set down on the
/// pad sleeps, and its episode ends, a second or two after touching down,
/// while one still sliding or rocking on its feet does not.
///
/// Substeps stiffen joints: a Lamina joint is a spring of at most a quarter
/// of the substep rate, and the hull (68 times a leg's mass) resting on its
/// legs loads the hinges hard. At four substeps (a 50 Hz joint) the hinges
/// gave 16 cm under a touchdown and every heuristic landing of 60 crashed;
/// at six, 48 of 60 landed; at eight (100 Hz), 56 of 60, with the hinges
/// within a millimetre in flight. Eight cost 13.7 µs a step against 7.9 at
/// four (`examples/lander_step_time.rs`).
fn world_settings(gravity: f64) -> WorldSettings {
    WorldSettings {
        gravity: vec2(0.0, gravity),
        substeps: 8,
        sleep_linear_velocity: 0.05,
        time_to_sleep: 0.5,
        ..WorldSettings::default()
    }
}

/// Gymnasium's particle colour: from orange-white when fresh to dark red.
fn particle_colour(ttl: f64) -> Rgb {
    let channel = |v: f64| (v.max(0.2) * 255.0) as u8;
    (channel(0.15 + ttl), channel(0.5 * ttl), channel(0.5 * ttl))
}

fn filter(category: u32, mask: u32) -> CollisionFilter {
    CollisionFilter { category, mask, group: 0 }
}

fn point(x: f64, y: f64) -> Point {
    Point::new(x as Real, y as Real)
}

fn vec2(x: f64, y: f64) -> Vec2 {
    Vec2::new(x as Real, y as Real)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gymnasium's `heuristic`: tilt toward the pad, hover lower the nearer
    /// it is, and only brake the fall once a leg is down. Returns the
    /// discrete action index or the two throttles.
    fn heuristic(s: &[f32; 8], continuous: bool) -> [f32; 2] {
        let s = s.map(f64::from);
        let angle_target = (s[0] * 0.5 + s[2]).clamp(-0.4, 0.4);
        let hover_target = 0.55 * s[0].abs();
        let (mut angle_todo, mut hover_todo) =
            ((angle_target - s[4]) * 0.5 - s[5], (hover_target - s[1]) * 0.5 - s[3] * 0.5);
        if s[6] != 0.0 || s[7] != 0.0 {
            (angle_todo, hover_todo) = (0.0, -s[3] * 0.5);
        }
        if continuous {
            return [
                (hover_todo * 20.0 - 1.0).clamp(-1.0, 1.0) as f32,
                (-angle_todo * 20.0).clamp(-1.0, 1.0) as f32,
            ];
        }
        let action = if hover_todo > angle_todo.abs() && hover_todo > 0.05 {
            2.0
        } else if angle_todo < -0.05 {
            3.0
        } else if angle_todo > 0.05 {
            1.0
        } else {
            0.0
        };
        [action, 0.0]
    }

    fn lander(config: LunarLanderConfig, seed: u64) -> (LunarLander, [f32; 8]) {
        let mut env = LunarLander::new(config).unwrap();
        let mut observation = [0.0; 8];
        env.reset(seed, &mut observation);
        (env, observation)
    }

    /// Moves the lander to `origin` turned by `angle`, moving at `velocity`
    /// without turning.
    /// The legs move with the hull, keeping their place on it.
    fn place(env: &mut LunarLander, origin: (f64, f64), angle: f64, velocity: (f64, f64)) {
        let pose = Isometry::new(vec2(origin.0, origin.1), angle as Real);
        let hull_now = env.body(env.lander).position();
        for key in [env.lander, env.legs[0], env.legs[1]] {
            let relative = hull_now.inverse() * env.body(key).position();
            env.world.set_body_position(key, pose * relative).unwrap();
            let body = env.body_mut(key);
            body.set_linear_velocity(vec2(velocity.0, velocity.1)).unwrap();
            body.set_angular_velocity(0.0).unwrap();
        }
        (env.angle, env.wrapped_angle) = (angle, angle as Real);
    }

    /// How far each leg's hinge point has come off the hull's origin, m.
    fn hinge_gaps(env: &LunarLander) -> [f64; 2] {
        let hinge = env.body(env.lander).translation();
        [(0, -1.0), (1, 1.0)].map(|(side, i)| {
            let on_leg = env.body(env.legs[side]).position() * point(i * LEG_AWAY / SCALE, LEG_DOWN / SCALE);
            f64::from((on_leg.coords - hinge).norm())
        })
    }

    /// Steps with the engines off until the episode ends, at most `limit` steps.
    fn coast(env: &mut LunarLander, limit: usize) -> Option<(usize, Outcome)> {
        let mut observation = [0.0; 8];
        (1..=limit).find_map(|n| {
            let outcome = env.step(&[0.0], &mut observation);
            outcome.terminated.then_some((n, outcome))
        })
    }

    #[test]
    fn the_hinges_hold_the_legs_in_flight() {
        // The start push (up to 1000 N on the hull alone, in the reset's
        // step) opens the hinges by a few centimetres; the joints close them
        // within a few steps, and then hold them within a millimetre.
        for seed in 0..10 {
            let (mut env, mut observation) = lander(LunarLanderConfig::default(), seed);
            for n in 0..40 {
                env.step(&[0.0], &mut observation);
                if env.leg_contacts() != [false, false] {
                    break;
                }
                if n < 10 {
                    continue;
                }
                let [right, left] = hinge_gaps(&env);
                assert!(right.max(left) < 1e-3, "seed {seed}, step {n}: hinges {right} and {left} m apart");
            }
        }
    }

    #[test]
    fn a_lander_left_to_fall_crashes_as_gymnasiums_does() {
        // Gymnasium's LunarLander-v3, engines off, seeds 0 to 9 (measured
        // with Box2D 2.3.10): every episode ends with the hull on the ground,
        // the legs folding under it, after 52 to 92 steps.
        for seed in 0..10 {
            let (mut env, _) = lander(LunarLanderConfig::default(), seed);
            let (steps, outcome) = coast(&mut env, 400).expect("the episode ends");
            assert_eq!(outcome, Outcome { reward: -100.0, terminated: true }, "seed {seed}");
            assert!(env.game_over, "seed {seed}: ended without the hull touching, after {steps} steps");
        }
    }

    #[test]
    fn the_masses_are_gymnasiums() {
        let (env, _) = lander(LunarLanderConfig::default(), 1);
        // The hull: a 34 × 10 px box under a trapezoid 17 px high, 34 px wide
        // at its base and 28 px at its top, at 5 kg/m² and 30 px/m.
        let hull_area = (34.0 * 10.0 + 0.5 * (34.0 + 28.0) * 17.0) / (SCALE * SCALE);
        // And two legs of 4 × 16 px at 1 kg/m².
        let leg_area = 4.0 * 16.0 / (SCALE * SCALE);
        let mass = f64::from(env.body(env.lander).mass());
        assert!((mass - 5.0 * hull_area).abs() < 1e-4, "{mass}");
        for leg in env.legs {
            let mass = f64::from(env.body(leg).mass());
            assert!((mass - leg_area).abs() < 1e-6, "{mass}");
        }
    }

    #[test]
    fn with_the_engines_off_the_lander_falls_as_g_t_squared_over_two() {
        let (mut env, _) = lander(LunarLanderConfig { gravity: -8.0, ..LunarLanderConfig::default() }, 3);
        place(&mut env, (W / 2.0, H), 0.0, (0.0, 0.0));
        // The lander's centre of mass, hull and legs together, and its
        // velocity: the hinges and the legs' motors are internal forces, so
        // it falls exactly as a free body does.
        let centre = |env: &LunarLander| {
            let bodies = [env.lander, env.legs[0], env.legs[1]].map(|k| env.body(k));
            let mass: f64 = bodies.iter().map(|b| f64::from(b.mass())).sum();
            let sum = |f: &dyn Fn(&Body) -> f64| {
                bodies.iter().map(|b| f64::from(b.mass()) * f(b)).sum::<f64>() / mass
            };
            (
                sum(&|b| f64::from(b.center_of_mass().x)),
                sum(&|b| f64::from(b.center_of_mass().y)),
                sum(&|b| f64::from(b.linear_velocity().x)),
                sum(&|b| f64::from(b.linear_velocity().y)),
            )
        };
        let (x0, y0, _, _) = centre(&env);
        let mut observation = [0.0; 8];
        let dt = 1.0 / FPS;
        for n in 1..=40 {
            env.step(&[0.0], &mut observation);
            let t = n as f64 * dt;
            let (x, y, vx, vy) = centre(&env);
            // Constant acceleration: any Euler scheme gives the speed exactly,
            // and a drop within one step's worth of speed of g t² / 2.
            assert!((vy + 8.0 * t).abs() < 1e-4 * (1.0 + 8.0 * t), "step {n}: vy {vy}");
            let drop = y0 - y;
            assert!((drop - 4.0 * t * t).abs() <= 8.0 * dt * t / 2.0 + 1e-4, "step {n}: dropped {drop}");
            assert!((x - x0).abs() < 1e-4 && vx.abs() < 1e-4, "step {n}: drifted to {x}, {vx}");
            assert!(f64::from(observation[4]).abs() < 1e-3, "step {n}: turned to {}", observation[4]);
            assert_eq!(env.leg_contacts(), [false, false]);
        }
    }

    #[test]
    fn a_lander_set_down_flat_on_the_pad_comes_to_rest_and_scores_100() {
        let (mut env, _) = lander(LunarLanderConfig::default(), 5);
        // The legs reach 0.54 m below the hull's origin: set them 6 cm above the pad.
        let pad = env.terrain.helipad_y;
        place(&mut env, (W / 2.0, pad + LEG_DOWN / SCALE), 0.0, (0.0, 0.0));
        let (steps, outcome) = coast(&mut env, 500).expect("the lander comes to rest");
        assert_eq!(outcome, Outcome { reward: 100.0, terminated: true });
        assert_eq!(env.leg_contacts(), [true, true]);
        assert!(!env.game_over);
        // Box2D needs half a second at rest; the drop and the legs' settling
        // on their motors take less than another second and a half.
        assert!((25..=100).contains(&steps), "asleep after {steps} steps");
        let s = env.state();
        assert!(s[0].abs() < 1e-3 && s[1].abs() < 0.05 && s[4].abs() < 1e-3, "{s:?}");
    }

    #[test]
    fn a_hard_tilted_touchdown_crashes_and_scores_minus_100() {
        let (mut env, _) = lander(LunarLanderConfig::default(), 5);
        let pad = env.terrain.helipad_y;
        place(&mut env, (W / 2.0, pad + 1.2), 2.0, (0.0, -8.0));
        let (steps, outcome) = coast(&mut env, 50).expect("the hull hits the ground");
        assert_eq!(outcome, Outcome { reward: -100.0, terminated: true });
        assert!(env.game_over && steps < 20, "crashed after {steps} steps");
    }

    #[test]
    fn leaving_the_screen_sideways_ends_the_episode_with_minus_100() {
        let (mut env, _) = lander(LunarLanderConfig::default(), 5);
        place(&mut env, (W - 0.1, H), 0.0, (20.0, 0.0));
        let (steps, outcome) = coast(&mut env, 5).expect("the lander leaves the screen");
        assert_eq!((steps, outcome), (1, Outcome { reward: -100.0, terminated: true }));
    }

    #[test]
    fn the_observation_is_gymnasiums_scaling_of_the_pose() {
        let (mut env, _) = lander(LunarLanderConfig::default(), 9);
        let pad = env.terrain.helipad_y;
        place(&mut env, (W / 2.0 + 2.0, pad + LEG_DOWN / SCALE + 3.0), 0.25, (1.5, -2.0));
        env.body_mut(env.lander).set_angular_velocity(0.5).unwrap();
        // By hand: x 2 m of a 10 m half-width; y 3 m of 6⅔ m; vx 1.5 m/s ×
        // 10 m / 50 steps; vy −2 m/s × 6⅔ m / 50; angle; 20 × 0.5 rad/s / 50.
        let expected = [0.2, 0.45, 0.3, -2.0 * (20.0 / 3.0) / 50.0, 0.25, 0.2, 0.0, 0.0];
        for (got, want) in env.state().iter().zip(expected) {
            assert!((got - want).abs() < 1e-5, "{:?}", env.state());
        }
    }

    #[test]
    fn the_angle_counts_whole_turns() {
        let (mut env, _) = lander(LunarLanderConfig::default(), 2);
        place(&mut env, (W / 2.0, H), 3.0, (0.0, 0.0));
        env.body_mut(env.lander).set_angular_velocity(5.0).unwrap();
        let mut observation = [0.0; 8];
        env.step(&[0.0], &mut observation);
        // Turned past π within the step: Box2D's angle goes on past it.
        assert!(observation[4] > 3.05 && observation[4] < 3.2, "{}", observation[4]);
    }

    #[test]
    fn one_seed_gives_one_episode_and_another_seed_another_terrain() {
        let run = |seed: u64| {
            let (mut env, first) =
                lander(LunarLanderConfig { enable_wind: true, ..LunarLanderConfig::default() }, seed);
            let mut actions = Rng::new(99);
            let mut trace = vec![first.map(f32::to_bits).to_vec()];
            let mut observation = [0.0; 8];
            for _ in 0..300 {
                let outcome = env.step(&[actions.integers(0, 4) as f32], &mut observation);
                trace.push(observation.map(f32::to_bits).to_vec());
                trace.push(vec![outcome.reward.to_bits() as u32, outcome.terminated as u32]);
                if outcome.terminated {
                    break;
                }
            }
            (trace, env.terrain.y)
        };
        let (a, terrain_a) = run(7);
        let (b, terrain_b) = run(7);
        let (c, terrain_c) = run(8);
        assert_eq!(a, b);
        assert_eq!(terrain_a, terrain_b);
        assert_ne!(terrain_a, terrain_c);
        assert_ne!(a, c);
    }

    #[test]
    fn the_terrain_is_flat_across_the_helipad() {
        let (env, _) = lander(LunarLanderConfig::default(), 11);
        let t = &env.terrain;
        // Points 4, 5, 6 average only flattened heights; 3 and 7 one random neighbour.
        for i in 4..=6 {
            assert!((t.y[i] - 0.99 * H / 4.0).abs() < 1e-12);
        }
        assert_eq!((t.helipad_x1, t.helipad_x2), (8.0, 12.0));
        assert!(t.y.iter().all(|&y| (0.0..=0.99 * H / 2.0).contains(&y)));
    }

    #[test]
    fn gymnasiums_heuristic_lands_on_lamina_discrete_and_continuous() {
        for continuous in [false, true] {
            let mut returns = Vec::new();
            for seed in 0..8 {
                let (mut env, mut observation) =
                    lander(LunarLanderConfig { continuous, ..LunarLanderConfig::default() }, seed);
                let (mut total, mut last) = (0.0, Outcome::default());
                for _ in 0..1000 {
                    let action = heuristic(&observation, continuous);
                    last = env.step(&action[..env.config.action_len()], &mut observation);
                    total += last.reward;
                    if last.terminated {
                        break;
                    }
                }
                assert_eq!(
                    last,
                    Outcome { reward: 100.0, terminated: true },
                    "seed {seed} continuous {continuous}"
                );
                assert_eq!(env.leg_contacts(), [true, true], "seed {seed} continuous {continuous}");
                returns.push(total);
            }
            let mean = returns.iter().sum::<f64>() / returns.len() as f64;
            assert!(mean > 200.0, "continuous {continuous}: {returns:?}");
        }
    }

    #[test]
    fn bad_configurations_and_actions_are_named() {
        for gravity in [-12.0, 0.0, 1.0, f64::NAN] {
            let error = LunarLander::new(LunarLanderConfig { gravity, ..LunarLanderConfig::default() })
                .err()
                .unwrap();
            assert!(error.to_string().contains(&format!("{gravity}")), "{error}");
        }
        let config = LunarLanderConfig { wind_power: f64::INFINITY, ..LunarLanderConfig::default() };
        assert_eq!(
            config.validate(),
            Err(ConfigError::NotFinite { name: "wind_power", value: f64::INFINITY })
        );
        let (discrete, _) = lander(LunarLanderConfig::default(), 0);
        assert_eq!(discrete.check_action(&[4.0]), Err(ActionError::Discrete(4.0)));
        assert_eq!(discrete.check_action(&[1.5]), Err(ActionError::Discrete(1.5)));
        assert_eq!(discrete.check_action(&[1.0, 0.0]), Err(ActionError::Length { expected: 1, got: 2 }));
        assert_eq!(discrete.check_action(&[3.0]), Ok(()));
        let (continuous, _) =
            lander(LunarLanderConfig { continuous: true, ..LunarLanderConfig::default() }, 0);
        assert!(
            matches!(continuous.check_action(&[0.0, f32::NAN]), Err(ActionError::NotFinite(v)) if v.is_nan())
        );
        assert_eq!(
            continuous.check_action(&[5.0, -5.0]),
            Ok(()),
            "throttles are clipped, as Gymnasium clips them"
        );
    }

    #[test]
    fn the_picture_has_a_black_sky_a_white_moon_and_a_purple_lander() {
        let (mut env, _) = lander(LunarLanderConfig { particles: true, ..LunarLanderConfig::default() }, 4);
        let mut observation = [0.0; 8];
        for _ in 0..5 {
            env.step(&[2.0], &mut observation);
        }
        assert!(!env.particles.is_empty(), "the main engine blows particles");
        let rgb = env.render();
        assert_eq!(rgb.len(), (VIEWPORT_W * VIEWPORT_H * 3) as usize);
        let at = |x: f64, y: f64| {
            let (col, row) = ((x * SCALE) as usize, (f64::from(VIEWPORT_H) - y * SCALE) as usize);
            let i = (row * VIEWPORT_W as usize + col) * 3;
            (rgb[i], rgb[i + 1], rgb[i + 2])
        };
        assert_eq!(at(0.5, H - 0.5), SKY);
        assert_eq!(at(W - 0.5, 0.05), MOON);
        let inside = env.body(env.lander).position() * point(0.0, -0.15);
        assert_eq!(at(f64::from(inside.x), f64::from(inside.y)), HULL_FILL);
        // The yellow pennant, 45 px up the left pole and 5 px to its right.
        assert_eq!(at(env.terrain.helipad_x1 + 5.0 / SCALE, env.terrain.helipad_y + 45.0 / SCALE), FLAG);
    }
}
