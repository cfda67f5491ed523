//! Prints, as JSON, the state hash of each scene that the WebAssembly
//! determinism test (`web/test/determinism.test.mjs`, through `web/scenes/`) builds through the
//! JavaScript API, stepped here natively on pools of 1 and 2 threads:
//! `{"pyramid": {"steps": 300, "1": "…", "2": "…"}, …}` (hashes as decimal
//! strings). Exits with status 1 when the thread counts disagree.
//!
//! Each scene is written as a Rust program would write it, and again in
//! `web/scenes/scenes.mjs` with the same numbers through the JavaScript API:
//! the two files must change together. Coordinates are computed in f64, as
//! JavaScript computes them, and rounded once to the engine's `Real`, as the
//! bindings round what JavaScript hands them.

use lamina2d::prelude::*;

/// A JavaScript number as the bindings hand it to the engine.
fn r(x: f64) -> Real {
    x as Real
}

/// The fixed ground: a box whose top face is at y = 0.
fn ground(w: &mut World, half_width: f64) -> BodyKey {
    let g = w.add_body(BodyDesc::fixed().translation(0.0, r(-0.5)));
    w.add_collider(g, ColliderDesc::new(Shape::rectangle(r(half_width), 0.5))).unwrap();
    g
}

/// A 20-row pyramid of unit boxes on the ground.
fn pyramid(w: &mut World) {
    ground(w, 40.0);
    let rows = 20;
    for row in 0..rows {
        let count = rows - row;
        for i in 0..count {
            let x = (i as f64 - (count - 1) as f64 / 2.0) * 1.05;
            let y = 0.5 + row as f64 * 1.0;
            let b = w.add_body(BodyDesc::dynamic().translation(r(x), r(y)));
            w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
        }
    }
}

/// Eight chains of five capsules hinged end to end, their hinges limited,
/// dropped turning onto the ground: ragdolls' limbs.
fn ragdolls(w: &mut World) {
    ground(w, 40.0);
    for k in 0..8 {
        let x = -14.0 + k as f64 * 4.0;
        let mut previous: Option<BodyKey> = None;
        for link in 0..5 {
            let y = 3.0 + link as f64 * 0.6;
            let b = w.add_body(
                BodyDesc::dynamic()
                    .translation(r(x), r(y))
                    .angle(r(0.1 * k as f64))
                    .angular_velocity(r(0.5 - 0.15 * link as f64)),
            );
            let shape = Shape::capsule(Point::new(0.0, r(-0.25)), Point::new(0.0, r(0.25)), r(0.12));
            w.add_collider(b, ColliderDesc::new(shape).density(r(2.0)).friction(r(0.4))).unwrap();
            if let Some(p) = previous {
                let anchor = Point::new(r(x), r(y - 0.3));
                w.add_joint(JointDesc::revolute(p, b, anchor).limits(r(-0.6), r(0.6))).unwrap();
            }
            previous = Some(b);
        }
    }
}

/// A paddle turned by a motor on a hinge, in a box of walls, stirring
/// circles and boxes.
fn spinner(w: &mut World) {
    let g = ground(w, 10.0);
    for x in [-10.0, 10.0] {
        let wall = w.add_body(BodyDesc::fixed().translation(r(x), r(5.0)));
        w.add_collider(
            wall,
            ColliderDesc::new(Shape::segment(Point::new(0.0, r(-5.5)), Point::new(0.0, r(5.0)))),
        )
        .unwrap();
    }
    let paddle = w.add_body(BodyDesc::dynamic().translation(0.0, r(3.0)));
    w.add_collider(paddle, ColliderDesc::new(Shape::rectangle(r(6.0), r(0.25))).density(r(5.0))).unwrap();
    let hinge = JointDesc::revolute(g, paddle, Point::new(0.0, r(3.0))).motor(r(2.0), r(50000.0));
    w.add_joint(hinge).unwrap();
    for i in 0..120 {
        let x = -8.0 + (i % 12) as f64 * 1.4;
        let y = 6.0 + (i / 12) as f64 * 1.1;
        let b = w.add_body(BodyDesc::dynamic().translation(r(x), r(y)));
        let shape = if i % 2 == 0 { Shape::circle(r(0.4)) } else { Shape::rectangle(r(0.35), r(0.3)) };
        w.add_collider(b, ColliderDesc::new(shape).restitution(r(0.2))).unwrap();
    }
}

/// Boxes, circles, polygons and capsules in a grid, dropped on the ground.
fn falling(w: &mut World) {
    ground(w, 40.0);
    let hexagon: Vec<Point> = HEXAGON.iter().map(|&(x, y)| Point::new(r(x), r(y))).collect();
    for i in 0..200 {
        let x = -15.0 + (i % 20) as f64 * 1.5;
        let y = 2.0 + (i / 20) as f64 * 1.6;
        let b = w.add_body(BodyDesc::dynamic().translation(r(x), r(y)).angle(r(0.05 * (i % 7) as f64)));
        let shape = match i % 4 {
            0 => Shape::rectangle(r(0.5), r(0.4)),
            1 => Shape::circle(r(0.45)),
            2 => Shape::polygon(&hexagon).unwrap(),
            _ => Shape::capsule(Point::new(r(-0.3), 0.0), Point::new(r(0.3), 0.0), r(0.25)),
        };
        w.add_collider(b, ColliderDesc::new(shape).density(r(1.0 + (i % 3) as f64)).friction(r(0.5)))
            .unwrap();
    }
}

/// A hexagon of radius 0.5, written out.
const HEXAGON: [(f64, f64); 6] =
    [(0.5, 0.0), (0.25, 0.433), (-0.25, 0.433), (-0.5, 0.0), (-0.25, -0.433), (0.25, -0.433)];

/// A 12 × 12 grid of circles hinged to their left and upper neighbours,
/// hung from its top-left corner (Box2D's joint grid); the circles do not
/// collide (group −1).
fn joint_grid(w: &mut World) {
    let n = 12;
    let mut keys = vec![vec![None; n]; n];
    for i in 0..n {
        for j in 0..n {
            let x = i as f64 * 1.0;
            let y = 20.0 - j as f64 * 1.0;
            let desc = if i == 0 && j == 0 { BodyDesc::fixed() } else { BodyDesc::dynamic() };
            let b = w.add_body(desc.translation(r(x), r(y)));
            let filter = CollisionFilter { category: 1, mask: u32::MAX, group: -1 };
            w.add_collider(b, ColliderDesc::new(Shape::circle(r(0.4))).filter(filter)).unwrap();
            if i > 0 {
                let left: BodyKey = keys[i - 1][j].unwrap();
                w.add_joint(JointDesc::revolute(left, b, Point::new(r(x - 0.5), r(y)))).unwrap();
            }
            if j > 0 {
                let up: BodyKey = keys[i][j - 1].unwrap();
                w.add_joint(JointDesc::revolute(up, b, Point::new(r(x), r(y + 0.5)))).unwrap();
            }
            keys[i][j] = Some(b);
        }
    }
}

/// The scenes: name, builder, steps of 1/60 s.
type Scene = (&'static str, fn(&mut World), usize);

const SCENES: [Scene; 5] = [
    ("pyramid", pyramid, 300),
    ("ragdolls", ragdolls, 300),
    ("spinner", spinner, 300),
    ("falling", falling, 300),
    ("joint_grid", joint_grid, 300),
];

fn hash(build: fn(&mut World), steps: usize) -> u64 {
    let mut w = World::new(WorldSettings::default());
    build(&mut w);
    for _ in 0..steps {
        w.step(r(1.0 / 60.0)).unwrap();
    }
    w.state_hash()
}

fn main() {
    let mut agree = true;
    let mut lines = Vec::new();
    for (name, build, steps) in SCENES {
        let hashes: Vec<u64> = [1, 2]
            .iter()
            .map(|&threads| {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
                pool.install(|| hash(build, steps))
            })
            .collect();
        if hashes[0] != hashes[1] {
            eprintln!("{name}: 1 thread gives {}, 2 threads give {}", hashes[0], hashes[1]);
            agree = false;
        }
        lines.push(format!(
            "  \"{name}\": {{\"steps\": {steps}, \"1\": \"{}\", \"2\": \"{}\"}}",
            hashes[0], hashes[1]
        ));
    }
    println!("{{\n{}\n}}", lines.join(",\n"));
    if !agree {
        std::process::exit(1);
    }
}
