//! Fuzz target `world_commands`: a world driven by a random sequence of
//! commands — bodies, colliders, joints and chains added and removed,
//! velocities, forces and poses set, settings changed, steps of any length,
//! queries, clones, snapshots restored, the gameplay parts (surface
//! materials, hooks, explosions, the character mover's queries) — decoded
//! from the fuzzer's bytes.
//!
//! After every command it checks the promises of the public API:
//! - nothing panics;
//! - a refused command (an `Err`, or a `try_` form's error) leaves the world
//!   as it was: the same state hash and the same numbers of bodies,
//!   colliders, joints and chains;
//! - every body's pose and velocity is finite, its rotation a unit complex
//!   number, and every joint's force and torque finite;
//! - a clone, and a world restored from a snapshot, step bit for bit as the
//!   original.
//!
//! The harness keeps the world small (at most [`MAX_BODIES`] bodies) and the
//! stepping short, and draws substep counts from 0 to 12, so that one input
//! runs in milliseconds; everything else the user could pass, it passes.

use arbitrary::Result;
use lamina2d::prelude::*;

use crate::input::Input;

/// Bodies beyond this are not added: a run stays fast.
pub const MAX_BODIES: usize = 40;
/// Steps one input may take in all.
pub const MAX_STEPS: usize = 400;
/// Commands one input may give.
pub const MAX_COMMANDS: usize = 200;

/// Runs the commands encoded in `data`, panicking (with the command) on any
/// broken promise.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let mut harness =
        Harness::new(&mut input).unwrap_or_else(|_| Harness::with(World::new(WorldSettings::default())));
    for _ in 0..MAX_COMMANDS {
        if input.is_empty() {
            break;
        }
        if harness.command(&mut input).is_err() {
            break;
        }
    }
}

/// What the harness compares before and after a refused command.
#[derive(Debug, PartialEq)]
struct Observed {
    hash: u64,
    bodies: usize,
    colliders: usize,
    joints: usize,
    chains: usize,
}

fn observe(world: &World) -> Observed {
    Observed {
        hash: world.state_hash(),
        bodies: world.body_count(),
        colliders: world.colliders().count(),
        joints: world.joint_count(),
        chains: world.chains().count(),
    }
}

/// The world under test and every key it ever handed out (stale ones
/// included, so that removed keys are tried again).
struct Harness {
    world: World,
    bodies: Vec<BodyKey>,
    colliders: Vec<ColliderKey>,
    joints: Vec<JointKey>,
    chains: Vec<ChainKey>,
    steps: usize,
    /// Print every command and its outcome (set `LAMINA_FUZZ_TRACE=1` to
    /// read what a failing input did).
    trace: bool,
    #[cfg(feature = "serde")]
    snapshot: Option<Vec<u8>>,
    /// Which set of hooks the world has ([`install_hooks`]), so that a
    /// world restored from a snapshot (which holds none) gets them again.
    hooks: u32,
}

impl Harness {
    fn with(world: World) -> Self {
        Harness {
            world,
            bodies: Vec::new(),
            colliders: Vec::new(),
            joints: Vec::new(),
            chains: Vec::new(),
            steps: 0,
            trace: std::env::var_os("LAMINA_FUZZ_TRACE").is_some(),
            #[cfg(feature = "serde")]
            snapshot: None,
            hooks: 0,
        }
    }

    /// A world with settings drawn from the input: refused ones leave no
    /// world behind (and `World::new` would panic on them), so the run goes
    /// on with the defaults.
    fn new(input: &mut Input) -> Result<Self> {
        let settings = settings(input, WorldSettings::default())?;
        let world = World::try_new(settings).unwrap_or_else(|_| World::new(WorldSettings::default()));
        Ok(Self::with(world))
    }

    /// Prints what a command is about to do, when tracing.
    fn say(&self, what: impl FnOnce() -> String) {
        if self.trace {
            eprintln!("  {}", what());
        }
    }

    fn body(&mut self, input: &mut Input) -> Result<BodyKey> {
        Ok(if self.bodies.is_empty() || input.one_in(20)? {
            BodyKey::default()
        } else {
            self.bodies[input.index(self.bodies.len())?]
        })
    }

    fn collider(&mut self, input: &mut Input) -> Result<ColliderKey> {
        Ok(if self.colliders.is_empty() {
            ColliderKey::default()
        } else {
            self.colliders[input.index(self.colliders.len())?]
        })
    }

    fn joint(&mut self, input: &mut Input) -> Result<JointKey> {
        Ok(if self.joints.is_empty() {
            JointKey::default()
        } else {
            self.joints[input.index(self.joints.len())?]
        })
    }

    fn chain(&mut self, input: &mut Input) -> Result<ChainKey> {
        Ok(if self.chains.is_empty() {
            ChainKey::default()
        } else {
            self.chains[input.index(self.chains.len())?]
        })
    }

    /// Decodes and runs one command, then checks the world.
    fn command(&mut self, input: &mut Input) -> Result<()> {
        let before = observe(&self.world);
        let which = input.int(0, 19)?;
        let refused = match which {
            0 | 1 => self.add_body(input)?,
            2 | 3 => self.add_collider(input)?,
            4 => self.remove_body(input)?,
            5 => self.remove_collider(input)?,
            6 => self.add_joint(input)?,
            7 => self.remove_joint(input)?,
            8 => self.change_joint(input)?,
            9 => self.add_chain(input)?,
            10 => self.remove_chain(input)?,
            11 => self.change_body(input)?,
            12 => self.set_position(input)?,
            13 => self.change_settings(input)?,
            14 | 15 => self.step(input)?,
            16 => self.query(input)?,
            17 => self.copy_and_compare(input)?,
            18 => self.restore_damaged(input)?,
            _ => self.wake_or_clear(input)?,
        };
        if self.trace {
            eprintln!("command {which}: {}", refused.map_or("done".to_string(), |e| format!("refused, {e}")));
        }
        if let Some(error) = refused {
            assert_eq!(
                observe(&self.world),
                before,
                "command {which} was refused ({error}) but changed the world"
            );
        }
        check_world(&self.world);
        Ok(())
    }

    fn add_body(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        if self.world.body_count() >= MAX_BODIES {
            return Ok(None);
        }
        let kind = match input.int(0, 5)? {
            0 => BodyDesc::fixed(),
            1 => BodyDesc::kinematic(),
            _ => BodyDesc::dynamic(),
        };
        let mut desc = kind.translation(input.real()?, input.real()?).angle(input.real()?);
        if input.flag()? {
            desc = desc.linear_velocity(input.vector()?).angular_velocity(input.real()?);
        }
        if input.one_in(4)? {
            desc = desc
                .linear_damping(input.unit_interval()?)
                .angular_damping(input.unit_interval()?)
                .gravity_scale(input.real()?);
        }
        desc = desc
            .fixed_rotation(input.one_in(6)?)
            .can_sleep(!input.one_in(6)?)
            .asleep(input.one_in(8)?)
            .bullet(input.one_in(6)?);
        self.say(|| format!("add body {desc:?}"));
        if input.flag()? {
            match self.world.try_add_body(desc) {
                Ok(key) => self.bodies.push(key),
                Err(error) => return Ok(Some(error)),
            }
        } else if let Err(error) = desc.validate() {
            // The infallible form panics on what the `try_` form refuses.
            return Ok(Some(error));
        } else {
            let key = self.world.add_body(desc);
            self.bodies.push(key);
        }
        Ok(None)
    }

    fn add_collider(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let body = self.body(input)?;
        let mut desc = ColliderDesc::new(input.shape()?)
            .density(if input.one_in(10)? { input.real()? } else { input.int(0, 30)? as Real / 10.0 })
            .friction(input.unit_interval()?)
            .restitution(input.unit_interval()?)
            .sensor(input.one_in(8)?);
        if input.flag()? {
            desc = desc.local_pose(input.pose()?);
        }
        if input.one_in(4)? {
            desc = desc.filter(CollisionFilter {
                category: input.bits()?,
                mask: input.bits()?,
                group: input.int(0, 4)? as i32 - 2,
            });
        }
        if input.one_in(4)? {
            let speed = if input.flag()? { input.real()? } else { input.int(0, 8)? as Real - 4.0 };
            let resistance = if input.flag()? { input.real()? } else { input.unit_interval()? };
            desc = desc
                .tangent_speed(speed)
                .rolling_resistance(resistance)
                .enable_custom_filter(input.flag()?)
                .enable_pre_solve(input.flag()?)
                .user_data(u64::from(input.bits()?));
        }
        self.say(|| format!("add collider to {body:?}: {desc:?}"));
        if self.world.body(body).is_some_and(|b| b.colliders().len() >= 4) {
            return Ok(None);
        }
        match self.world.add_collider(body, desc) {
            Ok(key) => self.colliders.push(key),
            Err(error) => return Ok(Some(error)),
        }
        Ok(None)
    }

    fn remove_body(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let body = self.body(input)?;
        Ok(self.world.remove_body(body).err())
    }

    fn remove_collider(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let collider = self.collider(input)?;
        Ok(self.world.remove_collider(collider).err())
    }

    fn add_joint(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let (a, b) = (self.body(input)?, self.body(input)?);
        let anchor = input.small_point()?;
        let axis = if input.one_in(8)? {
            input.vector()?
        } else {
            Vec2::new(1.0, input.int(0, 20)? as Real / 10.0 - 1.0)
        };
        let mut desc = match input.int(0, 6)? {
            0 => JointDesc::revolute(a, b, anchor),
            1 => JointDesc::prismatic(a, b, anchor, axis),
            2 => JointDesc::weld(a, b, anchor),
            3 => JointDesc::distance(a, b, anchor, input.small_point()?),
            4 => JointDesc::wheel(a, b, anchor, axis),
            5 => JointDesc::motor_joint(a, b),
            _ => JointDesc::mouse(b, anchor),
        };
        if input.flag()? {
            let lower = input.real()?;
            desc = desc.limits(lower, lower + input.size()?);
        }
        if input.flag()? {
            desc = desc.motor(input.real()?, input.size()? * 100.0);
        }
        if input.flag()? {
            desc = desc.spring(input.size()?, input.unit_interval()?);
        }
        if input.one_in(4)? {
            desc = desc.max_force(input.size()? * 1000.0);
        }
        desc = desc.collide_connected(input.flag()?);
        self.say(|| format!("add joint {desc:?}"));
        match self.world.add_joint(desc) {
            Ok(key) => self.joints.push(key),
            Err(error) => return Ok(Some(error)),
        }
        Ok(None)
    }

    fn remove_joint(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let joint = self.joint(input)?;
        Ok(self.world.remove_joint(joint).err())
    }

    fn change_joint(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let key = self.joint(input)?;
        let (which, x, y) = (input.int(0, 5)?, input.real()?, input.real()?);
        self.say(|| format!("change joint {key:?}: setter {which} ({x}, {y})"));
        let Some(joint) = self.world.joint_mut(key) else { return Ok(Some(WorldError::StaleJoint(key))) };
        Ok(match which {
            0 => joint.set_motor_speed(x),
            1 => joint.set_motor(x, y),
            2 => joint.set_limits(x, y),
            3 => joint.set_spring(x, y),
            4 => joint.set_max_force(x),
            _ => joint.set_target(Point::new(x, y)),
        }
        .err())
    }

    fn add_chain(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let body = self.body(input)?;
        let count = input.int(0, 12)?;
        let start = input.small_point()?;
        let mut points = vec![start];
        for _ in 1..count {
            let last = points[points.len() - 1];
            let step = if input.one_in(10)? {
                input.vector()?
            } else {
                Vec2::new(input.size()?, input.real()? * 0.1)
            };
            points.push(last + step);
        }
        let desc = ChainDesc::new(&points)
            .closed(input.one_in(3)?)
            .friction(input.unit_interval()?)
            .restitution(input.unit_interval()?);
        self.say(|| format!("add chain to {body:?}: {desc:?}"));
        match self.world.add_chain(body, desc) {
            Ok(key) => self.chains.push(key),
            Err(error) => return Ok(Some(error)),
        }
        Ok(None)
    }

    fn remove_chain(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let chain = self.chain(input)?;
        Ok(self.world.remove_chain(chain).err())
    }

    fn change_body(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let key = self.body(input)?;
        let (which, v, point, w) = (input.int(0, 7)?, input.vector()?, input.point()?, input.real()?);
        self.say(|| format!("change body {key:?}: setter {which}, v {v}, point {point}, w {w}"));
        let Some(body) = self.world.body_mut(key) else { return Ok(Some(WorldError::StaleBody(key))) };
        Ok(match which {
            0 => body.set_linear_velocity(v),
            1 => body.set_angular_velocity(w),
            2 => body.apply_force(v),
            3 => body.apply_force_at(v, point),
            4 => body.apply_torque(w),
            5 => body.apply_impulse(v),
            6 => body.apply_impulse_at(v, point),
            _ => {
                body.set_user_data(u64::from(input.bits()?));
                Ok(())
            }
        }
        .err())
    }

    fn set_position(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let key = self.body(input)?;
        let pose = input.pose()?;
        self.say(|| format!("move {key:?} to {pose:?}"));
        Ok(self.world.set_body_position(key, pose).err())
    }

    fn change_settings(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        if input.one_in(4)? {
            let gravity = input.vector()?;
            self.say(|| format!("gravity {gravity}"));
            return Ok(self.world.set_gravity(gravity).err());
        }
        let settings = settings(input, *self.world.settings())?;
        self.say(|| format!("settings {settings:?}"));
        Ok(self.world.set_settings(settings).err())
    }

    fn step(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let (count, dt) = if input.one_in(6)? {
            (1, input.real()?)
        } else {
            (input.int(1, 30)? as usize, 1.0 / [60.0, 30.0, 120.0, 240.0][input.index(4)?])
        };
        self.say(|| format!("{count} steps of {dt} s"));
        for _ in 0..count {
            if self.steps >= MAX_STEPS {
                break;
            }
            self.steps += 1;
            let good = (lamina2d::dynamics::MIN_TIME_STEP..=lamina2d::dynamics::MAX_TIME_STEP).contains(&dt);
            match self.world.step(dt) {
                Ok(()) => assert!(good, "a step of {dt} s was taken"),
                Err(error) => {
                    assert!(!good, "a step of {dt} s was refused: {error}");
                    return Ok(Some(error));
                }
            }
            check_world(&self.world);
        }
        Ok(None)
    }

    fn query(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let filter = QueryFilter::default();
        let which = input.int(0, 6)?;
        let refused = match which {
            5 | 6 => self.mover(input, which == 6)?,
            0 => {
                let ray = Ray::new(input.point()?, input.vector()?);
                let max_toi = input.real()?;
                self.say(|| format!("cast ray {ray:?} up to {max_toi}"));
                match self.world.try_cast_ray(&ray, max_toi, &filter) {
                    Ok(Some(hit)) => {
                        check_hit(hit.toi, max_toi, hit.point, hit.normal, "ray hit");
                        None
                    }
                    Ok(None) => None,
                    Err(error) => Some(error),
                }
            }
            1 => {
                let (lo, hi) = (input.point()?, input.point()?);
                let mut out = Vec::new();
                self.world.try_query_aabb(&Aabb::new(lo, hi), &filter, &mut out).err()
            }
            2 => {
                let mut out = Vec::new();
                self.world.try_query_point(input.point()?, &filter, &mut out).err()
            }
            3 => {
                let (shape, pose) = (input.shape()?, input.pose()?);
                let mut out = Vec::new();
                self.world.try_overlap_shape(&shape, &pose, &filter, &mut out).err()
            }
            _ => {
                let (shape, pose, velocity, max_toi) =
                    (input.shape()?, input.pose()?, input.vector()?, input.real()?);
                self.say(|| format!("cast {shape:?} from {pose:?} at {velocity:?} up to {max_toi}"));
                match self.world.try_cast_shape(&shape, &pose, velocity, max_toi, &filter) {
                    Ok(Some(hit)) => {
                        check_hit(hit.toi, max_toi, hit.point, hit.normal, "shape hit");
                        None
                    }
                    Ok(None) => None,
                    Err(error) => Some(error),
                }
            }
        };
        Ok(refused)
    }

    /// The character mover's queries with a capsule or circle (or, now and
    /// then, another shape, which is refused): a cast's fraction is in
    /// `[0, 1]`; the planes, their solution and a clipped velocity finite.
    fn mover(&mut self, input: &mut Input, collide: bool) -> Result<Option<WorldError>> {
        let filter = QueryFilter::default();
        let (a, b) = (input.point()?, input.point()?);
        let mover = match input.int(0, 5)? {
            0 => Shape::circle(input.size()?),
            1 => input.shape()?,
            2 => Shape::capsule(a, b, input.real()?),
            _ => Shape::capsule(a, a + Vec2::new(0.0, input.size()?), input.size()?),
        };
        let translation = input.vector()?;
        self.say(|| format!("mover {mover:?}, collide {collide}, translation {translation:?}"));
        if !collide {
            return Ok(match self.world.try_cast_mover(&mover, translation, &filter) {
                Ok(fraction) => {
                    assert!((0.0..=1.0).contains(&fraction), "cast_mover gave {fraction}");
                    None
                }
                Err(error) => Some(error),
            });
        }
        let mut planes = Vec::new();
        if let Err(error) = self.world.try_collide_mover(&mover, &filter, &mut planes) {
            return Ok(Some(error));
        }
        for p in &planes {
            let values = [p.normal.x, p.normal.y, p.offset, p.point.x, p.point.y];
            assert!(values.iter().all(|v| v.is_finite()), "a mover's plane is not finite: {values:?}");
        }
        let solution = solve_planes(translation, &mut planes);
        let clipped = clip_vector(translation, &planes);
        if translation.x.is_finite() && translation.y.is_finite() && translation.norm() < 1.0e6 {
            let values = [solution.translation.x, solution.translation.y, clipped.x, clipped.y];
            assert!(values.iter().all(|v| v.is_finite()), "the planes' solution is not finite: {values:?}");
        }
        Ok(None)
    }

    /// A clone (and, with snapshots, a restored snapshot) steps as the
    /// original; the harness then goes on with the copy.
    fn copy_and_compare(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        let mut copy = self.world.clone();
        #[cfg(feature = "serde")]
        if input.flag()? {
            let bytes = self.world.snapshot();
            copy = World::restore(&bytes).unwrap_or_else(|e| panic!("a fresh snapshot was refused: {e}"));
            // A snapshot holds no hooks: the restored world is given them again.
            install_hooks(&mut copy, self.hooks);
            self.snapshot = Some(bytes);
        }
        let steps = input.int(1, 3)?;
        for _ in 0..steps {
            self.steps += 1;
            let (original, copied) = (self.world.step(1.0 / 60.0), copy.step(1.0 / 60.0));
            assert_eq!(original.is_ok(), copied.is_ok());
            assert_eq!(self.world.state_hash(), copy.state_hash(), "a copy stepped apart from its original");
        }
        self.world = copy;
        Ok(None)
    }

    /// A snapshot damaged by a flipped bit or cut short is refused.
    fn restore_damaged(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        #[cfg(feature = "serde")]
        {
            let bytes = self.snapshot.get_or_insert_with(|| self.world.snapshot());
            let mut damaged = bytes.clone();
            if input.flag()? {
                let at = input.index(damaged.len())?;
                damaged[at] ^= 1 << input.int(0, 7)?;
            } else {
                damaged.truncate(input.index(damaged.len())?);
            }
            assert!(World::restore(&damaged).is_err(), "a damaged snapshot was taken");
        }
        #[cfg(not(feature = "serde"))]
        let _ = input;
        Ok(None)
    }

    /// Wakes, clears the events, sets or clears the hooks, or sets off an
    /// explosion of any numbers.
    fn wake_or_clear(&mut self, input: &mut Input) -> Result<Option<WorldError>> {
        match input.int(0, 5)? {
            0 => {
                let body = self.body(input)?;
                self.world.wake_body(body);
            }
            1 => self.world.wake_all(),
            2 => self.world.clear_events(),
            3 | 4 => {
                let mut blast = ExplosionDesc::new(input.point()?, input.real()?)
                    .falloff(input.real()?)
                    .impulse_per_length(input.real()?);
                if input.flag()? {
                    blast = blast.mask(input.bits()?);
                }
                self.say(|| format!("explode {blast:?}"));
                return Ok(self.world.explode(&blast).err());
            }
            _ => {
                self.hooks = input.int(0, 3)? as u32;
                self.say(|| format!("hooks {}", self.hooks));
                install_hooks(&mut self.world, self.hooks);
            }
        }
        Ok(None)
    }
}

/// Gives `world` set `which` of hooks, each a pure function of its
/// arguments (so that a clone and a restored copy step alike): none; a
/// custom filter and a pre-solve by user data and normal; material rules
/// that return any number (NaN, infinities and negatives included) from
/// the colliders' user data.
fn install_hooks(world: &mut World, which: u32) {
    world.clear_custom_filter();
    world.clear_pre_solve();
    world.clear_material_rules();
    if which == 0 {
        return;
    }
    world.set_custom_filter(|a, b| (a.user_data() ^ b.user_data()) & 1 == 0);
    world.set_pre_solve(|c| c.normal.y > 0.0 || c.separation() > -0.1 || c.continuous);
    if which >= 2 {
        let any = |a: &Collider, b: &Collider| {
            let bits = (a.user_data() ^ b.user_data().rotate_left(7)) as u32;
            f32::from_bits(bits) as Real
        };
        world.set_friction_rule(any);
        world.set_restitution_rule(move |a, b| any(b, a));
    }
}

/// `base` with a few of its settings redrawn (substeps kept small).
fn settings(input: &mut Input, base: WorldSettings) -> Result<WorldSettings> {
    let mut s = base;
    for _ in 0..input.int(0, 4)? {
        match input.int(0, 17)? {
            0 => s.gravity = input.vector()?,
            1 => s.substeps = input.int(0, 12)?,
            2 => s.contact_hertz = input.real()?,
            3 => s.contact_damping_ratio = input.real()?,
            4 => s.contact_push_max_velocity = input.real()?,
            5 => s.joint_hertz = input.real()?,
            6 => s.joint_damping_ratio = input.real()?,
            7 => s.restitution_threshold = input.real()?,
            8 => s.speculative_distance = input.real()? * 0.01,
            9 => s.sleep_linear_velocity = input.real()?,
            10 => s.time_to_sleep = input.real()?,
            11 => s.enable_sleep = input.flag()?,
            12 => s.enable_warm_starting = input.flag()?,
            13 => s.enable_continuous = input.flag()?,
            14 => s.max_linear_speed = input.real()?,
            15 => s.hit_event_threshold = input.real()?,
            16 => s.keep_events = input.flag()?,
            _ => {
                let rules =
                    [MixRule::GeometricMean, MixRule::Average, MixRule::Min, MixRule::Max, MixRule::Multiply];
                s.friction_mixing = rules[input.index(rules.len())?];
                s.restitution_mixing = rules[input.index(rules.len())?];
            }
        }
    }
    Ok(s)
}

/// A query's hit: within `[0, max_toi]`, every number finite.
fn check_hit(toi: Real, max_toi: Real, point: Point, normal: Vec2, what: &str) {
    assert!(toi >= 0.0 && toi <= max_toi, "{what} at {toi} of {max_toi}");
    let values = [toi, point.x, point.y, normal.x, normal.y];
    assert!(values.iter().all(|v| v.is_finite()), "{what} is not finite: {values:?}");
}

/// Every body's pose and velocity finite with a unit rotation; every joint's
/// force and torque finite.
pub fn check_world(world: &World) {
    for (key, body) in world.bodies() {
        let pose = body.position();
        let (t, q, v) = (pose.translation.vector, pose.rotation, body.linear_velocity());
        let values = [t.x, t.y, q.re, q.im, v.x, v.y, body.angular_velocity()];
        assert!(values.iter().all(|x| x.is_finite()), "body {key:?} is not finite: {values:?}");
        let length = q.re.hypot(q.im);
        assert!((length - 1.0).abs() < 1e-3, "body {key:?} has a rotation of length {length}");
    }
    for (key, joint) in world.joints() {
        let (f, torque) = (joint.constraint_force(), joint.constraint_torque());
        assert!(
            f.x.is_finite() && f.y.is_finite() && torque.is_finite(),
            "joint {key:?}: force {f}, torque {torque}"
        );
    }
}
