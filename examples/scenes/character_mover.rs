//! A geometric character: a capsule the game moves itself each frame with
//! the world's mover calls (`collide_mover`, `solve_planes`, `cast_mover`,
//! `clip_vector`, the loop of `docs/gameplay.md`), not a body the solver
//! pushes. Its semantics follow Box2D v3.1's geometric mover sample:
//!
//! - Quake's ground and air movement: friction on the ground, acceleration
//!   towards the speed asked for, a little steering in the air;
//! - a "pogo" ground probe: a ray cast down from the capsule's lower centre,
//!   and a spring-damper on the probe's length that holds the capsule
//!   [`POGO_REST_LENGTH`] above the ground, so that it floats over small
//!   ledges (steps) and the spring lifts it onto them;
//! - ground is a probe hit whose normal's `y` is above [`MIN_GROUND_NORMAL_Y`]
//!   (slopes under 45°); on anything steeper gravity pulls and the capsule
//!   slides back along it;
//! - riding: the velocity of the body under the probe, at the point hit, is
//!   added to the character's motion (a moving platform carries it);
//! - pushing: a normal impulse per plane on each dynamic body the capsule
//!   touches, as for a contact in which the character has infinite mass.
//!
//! The level, from left to right: a 55° slope it cannot climb, flat ground,
//! two 0.25 m steps, a 0.9 m ledge that takes a jump, a 30° slope up to a
//! plateau, an elevator (a kinematic body) down to lower ground, and a crate
//! and a ball to push there. Shared by `examples/character_mover.rs` and the
//! testbed, which include this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;

/// The capsule: its two centres are this far above and below its middle
/// (m), and its radius (m); 1.4 m tall in all.
pub const HALF_SEGMENT: Real = 0.4;
pub const RADIUS: Real = 0.3;
/// How far below the lower centre the pogo spring holds the ground, m. The
/// capsule's bottom floats 0.35 m over the ground, above a 0.25 m step.
pub const POGO_REST_LENGTH: Real = 0.65;
/// The middle of the capsule above the ground it stands on at rest, m.
pub const STANDING_HEIGHT: Real = HALF_SEGMENT + POGO_REST_LENGTH;
/// The pogo spring's stiffness (Hz) and damping ratio.
const POGO_HERTZ: Real = 5.0;
const POGO_DAMPING_RATIO: Real = 0.8;
/// The downward force the character's weight puts on a dynamic body it
/// stands on, N.
const POGO_GROUND_FORCE: Real = 50.0;
/// Ground speeds, m/s.
pub const WALK_SPEED: Real = 3.0;
pub const RUN_SPEED: Real = 6.0;
/// The take-off speed of a jump, m/s: v²/2g = 1.07 m up.
const JUMP_SPEED: Real = 8.0;
/// The character's own gravity, m/s²: a game's, stronger than the world's.
const GRAVITY: Real = 30.0;
/// Acceleration towards the speed asked for, in top speeds per second (so
/// 60 m/s² at a walk); in the air only [`AIR_STEER`] of it.
const ACCELERATE: Real = 20.0;
const AIR_STEER: Real = 0.2;
/// Ground friction, 1/s: the speed lost per second is this times the
/// speed, or times [`STOP_SPEED`] below it (m/s), so that a character stops.
const FRICTION: Real = 8.0;
const STOP_SPEED: Real = 3.0;
/// Below this speed (m/s) the character stands still.
const MIN_SPEED: Real = 0.1;
/// The cosine of the steepest slope that is ground: 45°.
pub const MIN_GROUND_NORMAL_Y: Real = std::f64::consts::FRAC_1_SQRT_2 as Real;
/// Rounds of collide, solve and cast in a frame, and the move (m) under
/// which a round ends them.
const MOVE_ROUNDS: usize = 5;
const MOVE_TOLERANCE: Real = 0.01;

/// The level's heights and places, m.
pub const STEEP_ANGLE: Real = 55.0;
pub const STEEP_BASE_X: Real = -14.0;
const STEEP_HEIGHT: Real = 4.0;
/// The steps: from x, to x, top.
pub const STEPS: [(Real, Real, Real); 2] = [(-2.0, -1.0, 0.25), (-1.0, 0.0, 0.5)];
/// The ledge that takes a jump: from x = 0 to 2, its top 0.9 m above the
/// second step.
pub const LEDGE: (Real, Real, Real) = (0.0, 2.0, 1.4);
/// The 30° slope runs from the ledge's end to x = 6, up to the plateau.
pub const SLOPE_ANGLE: Real = 30.0;
pub const SLOPE_END_X: Real = 6.0;
/// The plateau's right end, where the elevator's shaft begins.
pub const SHAFT: (Real, Real) = (10.0, 14.0);
/// The lower ground beyond the shaft, at y = 0, ends at a wall.
const FAR_WALL_X: Real = 26.0;
/// The elevator: its speed (m/s), how long it waits at each end (s), and
/// when it first leaves the top (s).
const ELEVATOR_SPEED: Real = 1.5;
const ELEVATOR_WAIT: Real = 2.0;
const ELEVATOR_DEPARTS: Real = 10.4;
const ELEVATOR_HALF_THICKNESS: Real = 0.1;
/// The crate's half-extents and the ball's radius, and where they stand.
const CRATE_HALF: (Real, Real) = (0.5, 0.4);
const CRATE_X: Real = 15.6;
const BALL_RADIUS: Real = 0.4;
const BALL_X: Real = 17.2;
/// Where the character starts: over the flat ground, a little above its
/// standing height, so that it lands first.
pub const START: (Real, Real) = (-11.5, STANDING_HEIGHT + 0.3);

/// The plateau's height: the ledge's top plus the 30° slope's rise.
pub fn plateau_y() -> Real {
    LEDGE.2 + (SLOPE_END_X - LEDGE.1) * SLOPE_ANGLE.to_radians().tan()
}

/// How far the steep slope reaches to the left of its foot, m.
pub fn steep_run() -> Real {
    STEEP_HEIGHT / STEEP_ANGLE.to_radians().tan()
}

/// How high a jump from the ground rises, m: v²/2g.
pub fn jump_height() -> Real {
    JUMP_SPEED * JUMP_SPEED / (2.0 * GRAVITY)
}

/// What the player asks for in a frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Input {
    /// −1 (left) to 1 (right).
    pub throttle: Real,
    pub run: bool,
    /// Held: the character jumps once per press, when it is on the ground.
    pub jump: bool,
}

/// What the ground probe found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    pub body: BodyKey,
    pub point: Point,
    pub normal: Vec2,
}

/// The character: where it is, how it moves, and what it found this frame.
pub struct Character {
    /// The capsule's middle, world frame.
    pub position: Point,
    /// Its own velocity (m/s), relative to what carries it.
    pub velocity: Vec2,
    /// The pogo spring's vertical speed, m/s.
    pub pogo_velocity: Real,
    pub on_ground: bool,
    /// What the probe stands on, when on the ground.
    pub ground: Option<Ground>,
    /// The probe's last ray: from, and to where it hit or ended.
    pub probe: (Point, Point),
    /// The planes of the last round of the move (a buffer kept between frames).
    pub planes: Vec<CollisionPlane>,
    /// The jump key was let go since the last jump.
    jump_armed: bool,
}

impl Character {
    pub fn new(position: Point) -> Self {
        Self {
            position,
            velocity: Vec2::zeros(),
            pogo_velocity: 0.0,
            on_ground: false,
            ground: None,
            probe: (position, position),
            planes: Vec::new(),
            jump_armed: true,
        }
    }

    /// The capsule at `position`, world frame.
    pub fn capsule_at(position: Point) -> Shape {
        let h = Vec2::new(0.0, HALF_SEGMENT);
        Shape::capsule(position - h, position + h, RADIUS)
    }

    pub fn capsule(&self) -> Shape {
        Self::capsule_at(self.position)
    }

    /// One frame of `dt` seconds: movement, the ground probe, the move
    /// itself, pushing what it touches, and clipping the velocity.
    pub fn update(&mut self, world: &mut World, dt: Real, input: Input) -> Result<(), WorldError> {
        self.jump(input.jump);
        self.walk(dt, input);
        let carried = self.probe_ground(world, dt)?;
        let target = self.position + (self.velocity + Vec2::new(0.0, self.pogo_velocity) + carried) * dt;
        self.move_to(world, target);
        self.push_bodies(world)?;
        // No speed builds up against what stopped the move.
        self.velocity = clip_vector(self.velocity, &self.planes);
        Ok(())
    }

    /// Jumps once per press of the key, and only from the ground.
    fn jump(&mut self, held: bool) {
        if !held {
            self.jump_armed = true;
        } else if self.jump_armed && self.on_ground {
            self.velocity.y = JUMP_SPEED;
            self.on_ground = false;
            self.jump_armed = false;
        }
    }

    /// Quake's friction and acceleration along x.
    fn walk(&mut self, dt: Real, input: Input) {
        let speed = self.velocity.norm();
        if speed < MIN_SPEED {
            self.velocity = Vec2::zeros();
        } else if self.on_ground {
            let drop = speed.max(STOP_SPEED) * FRICTION * dt;
            self.velocity *= (speed - drop).max(0.0) / speed;
        }
        let top = if input.run { RUN_SPEED } else { WALK_SPEED };
        let throttle = input.throttle.clamp(-1.0, 1.0);
        if throttle == 0.0 {
            return;
        }
        let direction = throttle.signum();
        let wanted = throttle.abs() * top;
        let missing = wanted - self.velocity.x * direction;
        if missing > 0.0 {
            let steer = if self.on_ground { 1.0 } else { AIR_STEER };
            self.velocity.x += direction * (steer * ACCELERATE * top * dt).min(missing);
        }
    }

    /// Casts the probe and runs the pogo spring; returns the velocity of
    /// what the character stands on, which carries it.
    fn probe_ground(&mut self, world: &mut World, dt: Real) -> Result<Vec2, WorldError> {
        // On the ground the probe reaches past the rest length, so that the
        // spring can stretch down a step.
        let length = if self.on_ground { 2.0 * POGO_REST_LENGTH } else { POGO_REST_LENGTH };
        let origin = self.position - Vec2::new(0.0, HALF_SEGMENT);
        let ray = Ray::new(origin, Vec2::new(0.0, -1.0));
        let hit = world.cast_ray(&ray, length, &QueryFilter::default());
        self.probe = (origin, hit.map_or(origin - Vec2::new(0.0, length), |h| h.point));
        let ground = hit.filter(|h| h.normal.y > MIN_GROUND_NORMAL_Y);
        // Coming down onto the ground, not still going up from a jump.
        self.on_ground = ground.is_some() && (self.on_ground || self.velocity.y <= 0.01);
        let hit = match ground {
            Some(hit) if self.on_ground => hit,
            _ => {
                self.velocity.y -= GRAVITY * dt;
                self.pogo_velocity = 0.0;
                self.ground = None;
                return Ok(Vec2::zeros());
            }
        };
        self.velocity.y = 0.0;
        let stretch = hit.toi - POGO_REST_LENGTH;
        self.pogo_velocity = spring_damper(stretch, self.pogo_velocity, dt);
        self.ground = Some(Ground { body: hit.body, point: hit.point, normal: hit.normal });
        let body = world.body_mut(hit.body).ok_or(WorldError::StaleBody(hit.body))?;
        if body.kind() == BodyKind::Dynamic {
            body.apply_force_at(Vec2::new(0.0, -POGO_GROUND_FORCE), hit.point)?;
        }
        Ok(body.velocity_at(&hit.point))
    }

    /// Moves towards `target` by rounds of the four mover calls, as
    /// `docs/gameplay.md` shows.
    fn move_to(&mut self, world: &World, target: Point) {
        let filter = QueryFilter::default();
        for _ in 0..MOVE_ROUNDS {
            world.collide_mover(&self.capsule(), &filter, &mut self.planes);
            let solution = solve_planes(target - self.position, &mut self.planes);
            let fraction = world.cast_mover(&self.capsule(), solution.translation, &filter);
            let delta = solution.translation * fraction;
            self.position += delta;
            if delta.norm() < MOVE_TOLERANCE {
                break;
            }
        }
    }

    /// Box2D's `PushBodies`: for each plane of a dynamic body, the normal
    /// impulse that stops the body's point there from moving slower than
    /// the character along the normal (the character's mass is infinite).
    /// A body moving away is left alone.
    fn push_bodies(&mut self, world: &mut World) -> Result<(), WorldError> {
        for plane in &self.planes {
            let Some(key) = plane.body else { continue };
            let Some(body) = world.body_mut(key) else { continue };
            if body.kind() != BodyKind::Dynamic {
                continue;
            }
            // Plane normals point at the character: push the other way.
            let normal = -plane.normal;
            let r = plane.point - body.center_of_mass();
            let rn = r.x * normal.y - r.y * normal.x;
            let inv_mass = if body.mass() > 0.0 { 1.0 / body.mass() } else { 0.0 };
            let inv_inertia = if body.inertia() > 0.0 { 1.0 / body.inertia() } else { 0.0 };
            let k = inv_mass + inv_inertia * rn * rn;
            if k <= 0.0 {
                continue;
            }
            let vn = (body.velocity_at(&plane.point) - self.velocity).dot(&normal);
            let impulse = (-vn / k).max(0.0);
            body.apply_impulse_at(normal * impulse, plane.point)?;
        }
        Ok(())
    }

    /// The capsule's outline as line segments, world frame, for drawing.
    pub fn outline(&self) -> Vec<(Point, Point)> {
        const ARC: usize = 8;
        let (up, down) =
            (self.position + Vec2::new(0.0, HALF_SEGMENT), self.position - Vec2::new(0.0, HALF_SEGMENT));
        let mut points = Vec::with_capacity(2 * ARC + 2);
        // The upper half circle from the right to the left, then the lower one back.
        for (centre, start) in [(up, 0.0), (down, std::f64::consts::PI)] {
            for i in 0..=ARC {
                let a = start + std::f64::consts::PI * i as f64 / ARC as f64;
                points.push(centre + Vec2::new(a.cos() as Real, a.sin() as Real) * RADIUS);
            }
        }
        let mut lines: Vec<(Point, Point)> = points.windows(2).map(|w| (w[0], w[1])).collect();
        lines.push((points[points.len() - 1], points[0]));
        lines
    }
}

/// The spring-damper's new speed (m/s) for a spring `stretch` metres past
/// its rest length moving at `speed`, after `dt`: implicit Euler of
/// x″ = −ω²x − 2ζωx′, stable at any stiffness.
fn spring_damper(stretch: Real, speed: Real, dt: Real) -> Real {
    let omega = 2.0 * std::f64::consts::PI as Real * POGO_HERTZ;
    let h = omega * dt;
    (speed - omega * h * stretch) / (1.0 + 2.0 * POGO_DAMPING_RATIO * h + h * h)
}

/// The bodies of the level that move.
#[derive(Clone, Copy, Debug)]
pub struct Level {
    pub elevator: BodyKey,
    pub crate_box: BodyKey,
    pub ball: BodyKey,
}

/// A fixed box from `(x0, y0)` to `(x1, y1)`.
fn block(world: &mut World, x0: Real, y0: Real, x1: Real, y1: Real) -> Result<(), WorldError> {
    let body = world.add_body(BodyDesc::fixed().translation(0.5 * (x0 + x1), 0.5 * (y0 + y1)));
    world.add_collider(body, ColliderDesc::new(Shape::rectangle(0.5 * (x1 - x0), 0.5 * (y1 - y0))))?;
    Ok(())
}

/// A fixed convex polygon through `points` (world frame).
fn wedge(world: &mut World, points: &[Point]) -> Result<(), String> {
    let body = world.add_body(BodyDesc::fixed());
    let shape = Shape::polygon(points).map_err(|e| e.to_string())?;
    world.add_collider(body, ColliderDesc::new(shape)).map_err(|e| e.to_string())?;
    Ok(())
}

/// The elevator's top at time `t`: it leaves the plateau's height at
/// [`ELEVATOR_DEPARTS`], goes down to the lower ground, waits, comes back
/// up, waits, and so on.
pub fn elevator_top(t: Real) -> Real {
    let high = plateau_y();
    let travel = high / ELEVATOR_SPEED;
    let period = 2.0 * (travel + ELEVATOR_WAIT);
    let phase = (t - ELEVATOR_DEPARTS).rem_euclid(period);
    if phase < travel {
        high - ELEVATOR_SPEED * phase
    } else if phase < travel + ELEVATOR_WAIT {
        0.0
    } else if phase < 2.0 * travel + ELEVATOR_WAIT {
        ELEVATOR_SPEED * (phase - travel - ELEVATOR_WAIT)
    } else {
        high
    }
}

/// Sets the elevator's velocity for the step from `t` to `t + dt`, so that
/// it is where [`elevator_top`] says at the end of it.
pub fn move_elevator(world: &mut World, level: &Level, t: Real, dt: Real) -> Result<(), String> {
    let body = world.body_mut(level.elevator).ok_or("the elevator is gone")?;
    let now = body.translation().y + ELEVATOR_HALF_THICKNESS;
    let v = (elevator_top(t + dt) - now) / dt;
    body.set_linear_velocity(Vec2::new(0.0, v)).map_err(|e| e.to_string())
}

/// The world, the level's moving bodies and the character at its start.
pub fn build() -> Result<(World, Level, Character), String> {
    let mut world = World::new(WorldSettings::default());
    let err = |e: WorldError| e.to_string();
    let high = plateau_y();
    // The steep slope rises to the left of the flat ground, on a block.
    let steep_top = STEEP_BASE_X - steep_run();
    block(&mut world, steep_top - 3.0, -1.0, STEPS[0].0, 0.0).map_err(err)?;
    block(&mut world, steep_top - 3.0, 0.0, steep_top, STEEP_HEIGHT).map_err(err)?;
    wedge(
        &mut world,
        &[Point::new(steep_top, 0.0), Point::new(STEEP_BASE_X, 0.0), Point::new(steep_top, STEEP_HEIGHT)],
    )?;
    for (x0, x1, top) in STEPS {
        block(&mut world, x0, -1.0, x1, top).map_err(err)?;
    }
    block(&mut world, LEDGE.0, -1.0, LEDGE.1, LEDGE.2).map_err(err)?;
    wedge(
        &mut world,
        &[
            Point::new(LEDGE.1, -1.0),
            Point::new(SLOPE_END_X, -1.0),
            Point::new(SLOPE_END_X, high),
            Point::new(LEDGE.1, LEDGE.2),
        ],
    )?;
    block(&mut world, SLOPE_END_X, -1.0, SHAFT.0, high).map_err(err)?;
    block(&mut world, SHAFT.0, -1.0, SHAFT.1, -0.6).map_err(err)?;
    block(&mut world, SHAFT.1, -1.0, FAR_WALL_X, 0.0).map_err(err)?;
    block(&mut world, FAR_WALL_X, -1.0, FAR_WALL_X + 1.0, 3.0).map_err(err)?;

    let top = elevator_top(0.0);
    let elevator = world.add_body(
        BodyDesc::kinematic().translation(0.5 * (SHAFT.0 + SHAFT.1), top - ELEVATOR_HALF_THICKNESS),
    );
    // A little narrower than the shaft, so that it never grazes its walls.
    let half_width = 0.5 * (SHAFT.1 - SHAFT.0) - 0.05;
    world
        .add_collider(elevator, ColliderDesc::new(Shape::rectangle(half_width, ELEVATOR_HALF_THICKNESS)))
        .map_err(err)?;

    let crate_box = world.add_body(BodyDesc::dynamic().translation(CRATE_X, CRATE_HALF.1));
    world
        .add_collider(
            crate_box,
            ColliderDesc::new(Shape::rectangle(CRATE_HALF.0, CRATE_HALF.1)).friction(0.6),
        )
        .map_err(err)?;
    let ball = world.add_body(BodyDesc::dynamic().translation(BALL_X, BALL_RADIUS));
    world.add_collider(ball, ColliderDesc::new(Shape::circle(BALL_RADIUS)).density(0.5)).map_err(err)?;

    let character = Character::new(Point::new(START.0, START.1));
    Ok((world, Level { elevator, crate_box, ball }, character))
}

/// What the scripted player does at time `t`: stand, walk left into the
/// steep slope and jump at it, stand, walk and then run right over the steps into
/// the ledge and push against it, jump onto it, run up the slope and onto
/// the elevator, ride it down, and walk into the crate and the ball.
pub fn script(t: Real) -> Input {
    let (walk, run) = (false, true);
    let go = |throttle: Real, run: bool| Input { throttle, run, jump: false };
    let jump = |throttle: Real| Input { throttle, run: false, jump: true };
    // (until, input)
    let plan: [(Real, Input); 13] = [
        (1.0, go(0.0, walk)),
        (2.0, go(-1.0, walk)),
        (2.4, jump(-1.0)),
        (2.7, go(-1.0, walk)),
        (3.2, go(0.0, walk)),
        (4.6, go(1.0, walk)),
        (6.2, go(1.0, run)),
        (7.3, go(1.0, walk)),
        (7.4, jump(1.0)),
        (7.8, go(1.0, walk)),
        (9.55, go(1.0, run)),
        (12.8, go(0.0, walk)),
        (15.5, go(1.0, walk)),
    ];
    plan.iter().find(|(until, _)| t < *until).map_or(go(0.0, walk), |(_, input)| *input)
}

/// One frame before the world's step at time `t`: the elevator's velocity
/// for the step, then the character's move.
pub fn frame(
    world: &mut World,
    level: &Level,
    character: &mut Character,
    t: Real,
    input: Input,
) -> Result<(), String> {
    move_elevator(world, level, t, DT)?;
    character.update(world, DT, input).map_err(|e| e.to_string())
}

/// The whole level.
pub fn view() -> (Point, Point) {
    (Point::new(-20.0, -1.0), Point::new(27.0, 5.5))
}
