//! A character box on chain terrain (seams, a slope, a gap, an icy slope)
//! and the scripted player that runs and jumps it. Shared by
//! `examples/platformer.rs` and the testbed, which include this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
/// The character's half-extents and running speed.
pub const HALF: (Real, Real) = (0.3, 0.45);
const RUN_SPEED: Real = 5.0;
const JUMP_SPEED: Real = 7.0;
/// How far below its feet ground still counts as under the character, m.
const GROUND_PROBE: Real = 0.08;

/// The terrain's outline from left to right, in 1 m pieces; `None` is the gap.
fn outline() -> Vec<Option<Point>> {
    let mut points = Vec::new();
    let mut y: Real = 0.0;
    for x in -6..=24 {
        let x = x as Real;
        // Flat, a 20° climb, a plateau, a gap, a plateau, then the icy descent.
        if (4.0..9.0).contains(&x) {
            y += 0.36;
        }
        points.push(if x == 13.0 { None } else { Some(Point::new(x, y)) });
    }
    points
}

/// The chains: each run of points between gaps, listed right to left so that
/// the solid side of every segment faces up; the last stretch is the ice.
fn build_terrain(world: &mut World) -> Result<(), WorldError> {
    let ground = world.add_body(BodyDesc::fixed());
    let mut runs: Vec<Vec<Point>> = vec![Vec::new()];
    for p in outline() {
        match p {
            Some(p) => runs.last_mut().expect("a run").push(p),
            None => runs.push(Vec::new()),
        }
    }
    for run in &runs {
        let points: Vec<Point> = run.iter().rev().copied().collect();
        world.add_chain(ground, ChainDesc::new(&points).friction(0.8))?;
    }
    // The icy slope: down from the last plateau's end, friction 0.02.
    let end = runs.last().and_then(|r| r.last()).copied().unwrap_or(Point::new(24.0, 0.0));
    let ice: Vec<Point> =
        (0..=10).map(|i| Point::new(end.x + i as Real, end.y - 0.45 * i as Real)).rev().collect();
    world.add_chain(ground, ChainDesc::new(&ice).friction(0.02))?;
    // A flat run-out of ordinary ground, where the slide ends.
    let bottom = Point::new(end.x + 10.0, end.y - 4.5);
    let run_out: Vec<Point> = (0..=12).map(|i| bottom + Vec2::new(i as Real, 0.0)).rev().collect();
    world.add_chain(ground, ChainDesc::new(&run_out).friction(0.8))?;
    // A pit floor under the gap, for a jump that falls short.
    world.add_chain(ground, ChainDesc::new(&[Point::new(14.0, -3.0), Point::new(12.0, -3.0)]))?;
    Ok(())
}

/// What the scripted player does at time `t`: run (or let go), and jump.
fn input(t: Real) -> (bool, bool) {
    let run = t < 6.0;
    // A hop on the slope, then the jump over the gap.
    let jump = (1.2..1.3).contains(&t) || (3.05..3.15).contains(&t);
    (run, jump)
}

/// True when a ray cast down from the character's feet finds ground close by.
fn grounded(world: &World, body: BodyKey) -> Result<bool, String> {
    let b = world.body(body).ok_or("the character is gone")?;
    let feet = b.center_of_mass() - Vec2::new(0.0, HALF.1);
    let filter = QueryFilter::default().exclude_body(body);
    // Two rays, at the front and back edges, so that a slope under one corner counts.
    for dx in [-0.9 * HALF.0, 0.9 * HALF.0] {
        let ray = Ray::new(feet + Vec2::new(dx, 0.01), Vec2::new(0.0, -1.0));
        if world.cast_ray(&ray, GROUND_PROBE + 0.01, &filter).is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The world with the terrain and the character; returns the character too.
pub fn build() -> Result<(World, BodyKey), String> {
    let mut world = World::new(WorldSettings::default());
    build_terrain(&mut world).map_err(|e| e.to_string())?;
    let hero = world
        .add_body(BodyDesc::dynamic().translation(-4.0, HALF.1 + 0.01).fixed_rotation(true).can_sleep(false));
    world
        .add_collider(hero, ColliderDesc::new(Shape::rectangle(HALF.0, HALF.1)).friction(0.5).density(2.0))
        .map_err(|e| e.to_string())?;
    Ok((world, hero))
}

/// What the player did before a step at time `t`.
pub struct Control {
    pub running: bool,
    pub jump: bool,
    pub on_ground: bool,
}

/// The player's move before the step at time `t`: on the ground, run at a set
/// speed (gravity keeps the character on slopes) and jump when the script says.
pub fn control(world: &mut World, hero: BodyKey, t: Real) -> Result<Control, String> {
    let (running, jump) = input(t);
    let on_ground = grounded(world, hero)?;
    let body = world.body_mut(hero).ok_or("the character is gone")?;
    let mut v = body.linear_velocity();
    if running && on_ground {
        v.x = RUN_SPEED;
    }
    if jump && on_ground {
        v.y = JUMP_SPEED;
    }
    body.set_linear_velocity(v).map_err(|e| e.to_string())?;
    Ok(Control { running, jump, on_ground })
}

/// The whole course, the run-out at the bottom of the ice included.
pub fn view() -> (Point, Point) {
    (Point::new(-6.0, -4.0), Point::new(44.0, 5.0))
}
