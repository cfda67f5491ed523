//! Three columns of twenty boxes (1 m cubes, 0.5 m cubes, 2 m × 0.5 m slabs)
//! on a fixed ground, with sleeping off. Shared by `examples/vertical_stack.rs`
//! and the testbed, which include this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
pub const BOXES: usize = 20;
pub const FRICTION: Real = 0.6;

/// One column: a name, the boxes' half extents, where it stands.
pub struct Column {
    pub name: &'static str,
    pub half: (Real, Real),
    pub x: Real,
    pub bodies: Vec<BodyKey>,
}

/// The world, sleep off, with its ground and three columns resting on it at t = 0.
pub fn build() -> Result<(World, Vec<Column>), String> {
    let mut world = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    let ground = world.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    world
        .add_collider(ground, ColliderDesc::new(Shape::rectangle(40.0, 1.0)).friction(FRICTION))
        .map_err(|e| e.to_string())?;

    let mut columns = vec![
        Column { name: "1 m cubes", half: (0.5, 0.5), x: -12.0, bodies: Vec::new() },
        Column { name: "0.5 m cubes", half: (0.25, 0.25), x: 0.0, bodies: Vec::new() },
        Column { name: "2 m × 0.5 m slabs", half: (1.0, 0.25), x: 12.0, bodies: Vec::new() },
    ];
    for column in &mut columns {
        let (hx, hy) = column.half;
        for i in 0..BOXES {
            let y = (2 * i + 1) as Real * hy;
            let body = world.add_body(BodyDesc::dynamic().translation(column.x, y));
            let desc = ColliderDesc::new(Shape::rectangle(hx, hy)).friction(FRICTION);
            world.add_collider(body, desc).map_err(|e| e.to_string())?;
            column.bodies.push(body);
        }
    }
    Ok((world, columns))
}

/// The three columns and the ground under them.
pub fn view() -> (Point, Point) {
    (Point::new(-17.0, -1.0), Point::new(17.0, 21.0))
}
