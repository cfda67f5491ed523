//! A room of fixed shapes behind a closed chain, bodies bouncing around it,
//! and a lidar turning in the middle that casts a fan of world rays. Shared by
//! `examples/raycast.rs` and the testbed, which include this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
pub const BEAMS: usize = 180;
/// The lidar's range, m.
pub const RANGE: Real = 25.0;
/// The room's half-extents, m.
pub const ROOM: (Real, Real) = (10.0, 6.0);

/// The room: its walls, fixed pillars, and bodies thrown around inside.
fn build_room(world: &mut World) -> Result<BodyKey, WorldError> {
    let ground = world.add_body(BodyDesc::fixed());
    let (w, h) = ROOM;
    // Clockwise (seen with y up): the walls' solid sides face the inside.
    let walls = [Point::new(-w, -h), Point::new(-w, h), Point::new(w, h), Point::new(w, -h)];
    world.add_chain(ground, ChainDesc::new(&walls).closed(true).restitution(0.6))?;
    let pillars: [(Shape, Real, Real); 5] = [
        (Shape::rectangle(0.8, 0.8), -5.0, 2.5),
        (Shape::circle(0.9), 5.0, -2.5),
        (Shape::capsule(Point::new(-1.2, 0.0), Point::new(1.2, 0.0), 0.35), 4.5, 3.0),
        (
            Shape::polygon(&[Point::new(0.0, 1.0), Point::new(-1.0, -0.7), Point::new(1.0, -0.7)])
                .expect("a triangle"),
            -5.5,
            -3.0,
        ),
        (Shape::ellipse(1.2, 0.5), 0.0, -4.0),
    ];
    for (shape, x, y) in pillars {
        world.add_collider(ground, ColliderDesc::new(shape).local_pose(Isometry::translation(x, y)))?;
    }
    for i in 0..8 {
        let a = i as Real * 0.8;
        let v = Vec2::new(a.cos(), a.sin()) * 6.0;
        let (x, y) = (-7.0 + 2.0 * i as Real, if i % 2 == 0 { 4.5 } else { -1.5 });
        let body = world.add_body(BodyDesc::dynamic().translation(x, y).linear_velocity(v).can_sleep(false));
        let shape = if i % 2 == 0 { Shape::circle(0.4) } else { Shape::rectangle(0.35, 0.35) };
        world.add_collider(body, ColliderDesc::new(shape).restitution(0.9).friction(0.1))?;
    }
    // The lidar: a small kinematic body turning slowly in the middle.
    let lidar = world.add_body(BodyDesc::kinematic().translation(0.0, 0.5).angular_velocity(0.5));
    world.add_collider(lidar, ColliderDesc::new(Shape::circle(0.3)))?;
    Ok(lidar)
}

/// The world, without gravity, with the room built; returns the lidar too.
pub fn build() -> Result<(World, BodyKey), String> {
    let mut world = World::new(WorldSettings { gravity: Vec2::zeros(), ..WorldSettings::default() });
    let lidar = build_room(&mut world).map_err(|e| e.to_string())?;
    Ok((world, lidar))
}

/// The lidar's beams this step: `BEAMS` unit rays fanned from its centre,
/// starting at its heading.
pub fn beams(world: &World, lidar: BodyKey) -> Result<Vec<Ray>, String> {
    let body = world.body(lidar).ok_or("the lidar is gone")?;
    let (origin, heading) = (body.center_of_mass(), body.angle());
    let ray = |i: usize| {
        let a = heading + i as Real / BEAMS as Real * std::f64::consts::TAU as Real;
        Ray::new(origin, Vec2::new(a.cos(), a.sin()))
    };
    Ok((0..BEAMS).map(ray).collect())
}

/// What the beams see: everything but the lidar itself.
pub fn beam_filter<'a>(lidar: BodyKey) -> QueryFilter<'a> {
    QueryFilter::default().exclude_body(lidar)
}

/// The room, walls included.
pub fn view() -> (Point, Point) {
    let (w, h) = ROOM;
    (Point::new(-w - 0.5, -h - 0.5), Point::new(w + 0.5, h + 0.5))
}
