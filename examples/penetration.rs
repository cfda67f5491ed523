//! The minimum push-out vector of two overlapping convex shapes, and how GJK and EPA find it.
//!
//! `cargo run --release --example penetration -- [SHAPE_A SHAPE_B] [--at x,y,angle] [--svg out.svg]`
//!
//! Shapes: `box:hx,hy`, `rounded-box:hx,hy,r`, `circle:r`, `ellipse:rx,ry`,
//! `capsule:half_length,r`, `polygon:x1,y1,x2,y2,...`. A sits at the origin, B at
//! `--at`. By default a pentagon overlaps an ellipse. The example prints the depth
//! and direction, moves A by the push-out vector, and checks that the shapes then
//! touch without overlapping. With `--svg` it draws the shapes, the Minkowski
//! difference of their cores, GJK's final simplex, EPA's final polytope and the
//! push-out vector.

#[path = "support/pose_arg.rs"]
mod pose_arg;
#[path = "support/svg.rs"]
mod svg;

use lamina2d::prelude::*;
use lamina2d::query::{epa::epa_traced, gjk::gjk_distance, shape_core::Core};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("penetration: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut shapes = Vec::new();
    let mut pose_b = Isometry::new(Vec2::new(1.7, 0.6), 0.4);
    let mut svg_path = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--at" => {
                pose_b = pose_arg::parse_pose(args.get(i + 1))?;
                i += 1;
            }
            "--svg" => {
                svg_path = Some(args.get(i + 1).ok_or("--svg needs a file name")?.clone());
                i += 1;
            }
            spec => shapes.push(parse_shape(spec)?),
        }
        i += 1;
    }
    let (a, b) = match shapes.len() {
        0 => (default_polygon(), Shape::ellipse(1.6, 0.9)),
        2 => (shapes[0].clone(), shapes[1].clone()),
        n => return Err(format!("give two shapes or none, got {n}")),
    };
    for (name, s) in [("A", &a), ("B", &b)] {
        s.validate().map_err(|e| format!("shape {name}: {e}"))?;
    }

    let pose_a = Isometry::identity();
    let Some(pen) = lamina2d::query::penetration(&a, &pose_a, &b, &pose_b) else {
        let d = lamina2d::query::distance(&a, &pose_a, &b, &pose_b);
        println!("the shapes are {:.6} m apart: nothing to push out", d.distance);
        return Ok(());
    };
    println!(
        "penetration depth {:.6} m along ({:.6}, {:.6}) (from A to B)",
        pen.depth, pen.normal.x, pen.normal.y
    );
    println!(
        "deepest point of A ({:.4}, {:.4}), of B ({:.4}, {:.4})",
        pen.point_a.x, pen.point_a.y, pen.point_b.x, pen.point_b.y
    );

    // Moving A by -normal·depth must leave the shapes touching, not overlapping.
    let push = -pen.normal * pen.depth;
    let moved = Isometry::from_parts(push.into(), pose_a.rotation);
    let gap = lamina2d::query::distance(&a, &moved, &b, &pose_b).distance;
    let left = lamina2d::query::penetration(&a, &moved, &b, &pose_b).map_or(0.0, |p| p.depth);
    let touching = gap < 1e-3 && left < 1e-3;
    println!(
        "after moving A by ({:.6}, {:.6}): distance {gap:.2e} m, remaining overlap {left:.2e} m: {}",
        push.x,
        push.y,
        if touching { "touching, as it should" } else { "NOT touching" }
    );

    if let Some(path) = svg_path {
        std::fs::write(&path, draw(&a, &b, &pose_b, &pen))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        println!("figure written to {path}");
    }
    if touching { Ok(()) } else { Err("the push-out vector does not separate the shapes".into()) }
}

fn default_polygon() -> Shape {
    let pts: Vec<Point> = (0..5)
        .map(|i| {
            let t = i as Real * 2.0 * std::f64::consts::PI as Real / 5.0 + 0.3;
            Point::new(1.3 * t.cos(), 1.1 * t.sin())
        })
        .collect();
    Shape::polygon(&pts).expect("a pentagon spans an area")
}

fn numbers(text: &str) -> Result<Vec<Real>, String> {
    text.split(',').map(|s| s.trim().parse::<Real>().map_err(|_| format!("`{s}` is not a number"))).collect()
}

fn parse_shape(spec: &str) -> Result<Shape, String> {
    let (kind, values) =
        spec.split_once(':').ok_or_else(|| format!("`{spec}` is not of the form kind:numbers"))?;
    let v = numbers(values)?;
    let want = |n: usize| {
        if v.len() == n { Ok(()) } else { Err(format!("{kind} takes {n} numbers, got {}", v.len())) }
    };
    match kind {
        "box" => want(2).map(|_| Shape::rectangle(v[0], v[1])),
        "rounded-box" => want(3).map(|_| Shape::rounded_rectangle(v[0], v[1], v[2])),
        "circle" => want(1).map(|_| Shape::circle(v[0])),
        "ellipse" => want(2).map(|_| Shape::ellipse(v[0], v[1])),
        "capsule" => want(2).map(|_| Shape::capsule(Point::new(-v[0], 0.0), Point::new(v[0], 0.0), v[1])),
        "polygon" if v.len() >= 6 && v.len() % 2 == 0 => {
            let pts: Vec<Point> = v.chunks(2).map(|c| Point::new(c[0], c[1])).collect();
            Shape::polygon(&pts).map_err(|e| e.to_string())
        }
        "polygon" => {
            Err(format!("polygon takes pairs of coordinates, at least three, got {} numbers", v.len()))
        }
        other => Err(format!("unknown shape kind `{other}`")),
    }
}

/// Left: the shapes and the push-out. Right: the Minkowski difference of the
/// cores, GJK's simplex, EPA's polytope and the penetration vector.
fn draw(a: &Shape, b: &Shape, pose_b: &Isometry, pen: &lamina2d::query::Penetration) -> String {
    let id = Isometry::identity();
    let (outline_a, outline_b) = (svg::outline(a, &id, 256), svg::outline(b, pose_b, 256));
    let moved = Isometry::translation(-pen.normal.x * pen.depth, -pen.normal.y * pen.depth);
    let outline_moved = svg::outline(a, &moved, 256);
    let all: Vec<Point> = outline_a.iter().chain(&outline_b).chain(&outline_moved).copied().collect();
    let left = svg::Panel::framing(&all, 0.0, 480.0);

    // The cores' Minkowski difference, sampled by its support function.
    let (core_a, _) = Core::of(a);
    let (core_b, _) = Core::of(b);
    let minkowski: Vec<Point> = (0..360)
        .map(|i| {
            let t = i as Real * std::f64::consts::TAU as Real / 360.0;
            let d = Vec2::new(t.cos(), t.sin());
            let pa = core_a.support_point(&d);
            let pb = core_b.support_point_world(pose_b, &-d);
            Point::from(pa - pb)
        })
        .collect();
    let guess = core_a.interior_point() - pose_b * core_b.interior_point();
    let gjk = gjk_distance(&core_a, &core_b, pose_b, &guess);
    let mut polytope = Vec::new();
    let epa = epa_traced(&core_a, &core_b, pose_b, &gjk.simplex, &-guess, |p| {
        polytope = p.iter().map(|s| Point::from(s.w)).collect();
    });
    let mut frame = minkowski.clone();
    frame.push(Point::origin());
    let right = svg::Panel::framing(&frame, 500.0, 480.0);

    let mut fig = svg::Svg::new(980.0, 500.0);
    fig.polygon(&left, &outline_a, "#9ecae1", "#3182bd", false);
    fig.polygon(&left, &outline_b, "#fdd0a2", "#e6550d", false);
    fig.polygon(&left, &outline_moved, "none", "#3182bd", true);
    fig.arrow(&left, &pen.point_a, &(pen.point_a - pen.normal * pen.depth), "#31a354");
    fig.label(&left, &outline_a[64], "A");
    fig.label(&left, &outline_b[0], "B");
    fig.caption(10.0, 20.0, "A, B, and A pushed out (dashed)");

    fig.polygon(&right, &minkowski, "#eeeeee", "#636363", false);
    let simplex: Vec<Point> = gjk.simplex.points().iter().map(|s| Point::from(s.w)).collect();
    if simplex.len() == 3 {
        fig.polygon(&right, &simplex, "none", "#756bb1", true);
    }
    fig.polygon(&right, &polytope, "none", "#e6550d", false);
    for p in &polytope {
        fig.dot(&right, p, "#e6550d");
    }
    fig.dot(&right, &Point::origin(), "#000000");
    fig.label(&right, &Point::origin(), "origin");
    fig.arrow(&right, &Point::origin(), &Point::from(epa.normal * epa.depth), "#31a354");
    fig.caption(510.0, 20.0, "A - B: GJK simplex (dashed), EPA polytope");
    fig.finish()
}
