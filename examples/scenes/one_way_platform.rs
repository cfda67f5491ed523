//! One-way platforms made with the pre-solve hook, and the scripted player
//! that jumps up through them, lands on them and drops through them on
//! command. Shared by `examples/one_way_platform.rs` and the testbed, which
//! include this file by path.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
/// The character's half-extents, and its jump's speed: v²/2g = 3.2 m up,
/// enough to clear a platform 2.5 m above its feet.
pub const HALF: (Real, Real) = (0.3, 0.45);
const JUMP_SPEED: Real = 8.0;
/// The platforms' centres' heights and half-thickness; their tops are at
/// 2.6 m and 5.1 m.
pub const LEVELS: [Real; 2] = [2.5, 5.0];
const THICKNESS: Real = 0.1;
/// How deep a body may be in a platform for the platform to hold it, m: a
/// body deeper than this is passing through (coming up, or dropping). It
/// must exceed how far a falling body moves in a step (0.2 m is 12 m/s at
/// 60 steps a second), since its first contact with the platform may come
/// that deep, and stay below how deep a body coming up is when the normal
/// turns up (its middle passing the platform's: 0.35 m for the balls).
const PASSING_DEPTH: Real = 0.2;
/// How far below its feet ground still counts as under the character, m.
const GROUND_PROBE: Real = 0.08;

/// The scene: its world, the character and the switch that lets the
/// character drop through the platforms.
pub struct OneWay {
    pub world: World,
    pub hero: BodyKey,
    pub dropping: Arc<AtomicBool>,
}

/// The rule of a one-way platform, as a pure function of the contact: it
/// holds what comes down onto it (the normal from the platform points up
/// and the body is not already through it), and nothing else. While
/// `dropping` is on, it does not hold the character either.
fn solid(c: &PreSolve, platforms: &[ColliderKey], hero: BodyKey, dropping: bool) -> bool {
    let Some(normal) = platforms.iter().find_map(|&p| c.normal_from(p)) else { return true };
    let is_hero = c.body_a == hero || c.body_b == hero;
    normal.y > 0.7 && c.separation() > -PASSING_DEPTH && !(dropping && is_hero)
}

/// The world: a ground, two platforms one above the other, the character
/// under them, and three balls that will be thrown up through them.
pub fn build() -> Result<OneWay, String> {
    let mut world = World::new(WorldSettings::default());
    let err = |e: WorldError| e.to_string();
    let ground = world.add_body(BodyDesc::fixed().translation(0.0, -0.5));
    world.add_collider(ground, ColliderDesc::new(Shape::rectangle(8.0, 0.5))).map_err(err)?;
    let mut platforms = Vec::new();
    for (i, y) in LEVELS.into_iter().enumerate() {
        let p = world.add_body(BodyDesc::fixed().translation(i as Real * 0.5, y));
        let desc = ColliderDesc::new(Shape::rectangle(2.5, THICKNESS)).enable_pre_solve(true);
        platforms.push(world.add_collider(p, desc).map_err(err)?);
    }
    let hero = world
        .add_body(BodyDesc::dynamic().translation(-0.5, HALF.1 + 0.01).fixed_rotation(true).can_sleep(false));
    world
        .add_collider(hero, ColliderDesc::new(Shape::rectangle(HALF.0, HALF.1)).friction(0.5).density(2.0))
        .map_err(err)?;
    for k in 0..3 {
        let x = 1.0 + 0.6 * k as Real;
        let ball = world.add_body(BodyDesc::dynamic().translation(x, 0.25 + 0.01));
        world.add_collider(ball, ColliderDesc::new(Shape::circle(0.25)).density(0.5)).map_err(err)?;
    }
    let dropping = Arc::new(AtomicBool::new(false));
    let switch = dropping.clone();
    world.set_pre_solve(move |c| solid(c, &platforms, hero, switch.load(Ordering::Relaxed)));
    Ok(OneWay { world, hero, dropping })
}

/// What the scripted player does at time `t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Stand,
    /// Jump (when on something).
    Jump,
    /// Drop through the platform it stands on.
    Drop,
}

/// The script: up onto the first platform, up onto the second, down through
/// the second onto the first, down through the first onto the ground.
pub fn input(t: Real) -> Move {
    let at = |start: Real| (start..start + DT).contains(&t);
    if at(0.5) || at(2.0) {
        Move::Jump
    } else if (3.5..3.75).contains(&t) || (5.0..5.25).contains(&t) {
        Move::Drop
    } else {
        Move::Stand
    }
}

/// The balls, thrown up at `t` = 1 s, 1.25 s and 1.5 s at 8, 11 and 12 m/s:
/// through the first platform, the last two through the second.
fn throws(t: Real) -> Option<(usize, Real)> {
    [(1.0, 8.0), (1.25, 11.0), (1.5, 12.0)]
        .into_iter()
        .enumerate()
        .find(|(_, (start, _))| (*start..start + DT).contains(&t))
        .map(|(k, (_, speed))| (k, speed))
}

/// True when a ray cast down from the character's feet finds something to
/// stand on close by (a platform it is passing through does not count: it
/// must be under the feet).
pub fn grounded(world: &World, hero: BodyKey) -> Result<bool, String> {
    let b = world.body(hero).ok_or("the character is gone")?;
    let feet = b.center_of_mass() - Vec2::new(0.0, HALF.1);
    let filter = QueryFilter::default().exclude_body(hero);
    for dx in [-0.9 * HALF.0, 0.9 * HALF.0] {
        let ray = Ray::new(feet + Vec2::new(dx, 0.01), Vec2::new(0.0, -1.0));
        if let Some(hit) = world.cast_ray(&ray, GROUND_PROBE + 0.01, &filter)
            && hit.normal.y > 0.7
            && hit.toi > 0.0
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Makes the move `m` before a step: the platforms let the character
/// through while it drops; it jumps only from something under its feet.
pub fn act(world: &mut World, hero: BodyKey, dropping: &AtomicBool, m: Move) -> Result<(), String> {
    dropping.store(m == Move::Drop, Ordering::Relaxed);
    if m == Move::Jump && grounded(world, hero)? {
        let body = world.body_mut(hero).ok_or("the character is gone")?;
        let v = body.linear_velocity();
        body.set_linear_velocity(Vec2::new(v.x, JUMP_SPEED)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The script's move before the step at time `t`, made: jumps, drops and
/// the balls' throws.
pub fn control(world: &mut World, hero: BodyKey, dropping: &AtomicBool, t: Real) -> Result<Move, String> {
    let m = input(t);
    act(world, hero, dropping, m)?;
    if let Some((k, speed)) = throws(t) {
        let ball = world.bodies().filter(|(key, b)| *key != hero && b.kind() == BodyKind::Dynamic).nth(k);
        if let Some((key, _)) = ball {
            let body = world.body_mut(key).ok_or("a ball is gone")?;
            body.set_linear_velocity(Vec2::new(0.0, speed)).map_err(|e| e.to_string())?;
        }
    }
    Ok(m)
}

/// The ground, both platforms and the highest throw.
pub fn view() -> (Point, Point) {
    (Point::new(-6.0, -0.5), Point::new(6.0, 9.5))
}
