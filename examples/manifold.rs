//! Clipping the contact points of two overlapping polygons.
//!
//! `cargo run --release --example manifold -- [--at x,y,angle] [--svg out.svg]`
//!
//! A tilted box overhangs the end of a wider one. The example prints the contact manifold
//! (normal, up to two points with their separation and feature ids) and, with
//! `--svg`, draws the reference face, the incident face, the two clip planes and
//! the points kept.

#[path = "support/pose_arg.rs"]
mod pose_arg;
#[path = "support/svg.rs"]
mod svg;

use lamina2d::prelude::*;
use lamina2d::query::pairs::clip_features;
use lamina2d::query::poly_view::PolyView;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("manifold: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut pose_b = Isometry::new(Vec2::new(0.9, 0.8), 0.15);
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
            other => return Err(format!("unknown argument `{other}`")),
        }
        i += 1;
    }

    let (a, b) = (Shape::rectangle(1.0, 0.4), Shape::rectangle(0.5, 0.5));
    let pose_a = Isometry::identity();
    let margin = lamina2d::geometry::tolerance::SPECULATIVE_DISTANCE;
    let m = lamina2d::query::contact_manifold(&a, &pose_a, &b, &pose_b, margin);
    println!("normal ({:.5}, {:.5}), {} point(s)", m.normal.x, m.normal.y, m.points.len());
    for (k, p) in m.points.iter().enumerate() {
        println!(
            "  point {k}: ({:.5}, {:.5}), separation {:+.5} m, features A {} / B {}",
            p.point.x, p.point.y, p.separation, p.id.a, p.id.b
        );
    }
    if let Some(path) = svg_path {
        std::fs::write(&path, draw(&a, &b, &pose_b, &m, margin))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        println!("figure written to {path}");
    }
    Ok(())
}

fn draw(a: &Shape, b: &Shape, pose_b: &Isometry, m: &lamina2d::query::Manifold, margin: Real) -> String {
    let (view_a, view_b) = (PolyView::local(a), PolyView::placed(b, pose_b));
    let mut all: Vec<Point> = view_a.vertices().to_vec();
    all.extend_from_slice(view_b.vertices());
    let panel = svg::Panel::framing(&all, 0.0, 560.0);
    let mut fig = svg::Svg::new(560.0, 580.0);
    fig.polygon(&panel, view_a.vertices(), "#9ecae1", "#3182bd", false);
    fig.polygon(&panel, view_b.vertices(), "#fdd0a2", "#e6550d", false);

    if let Some(f) = clip_features(&view_a, &view_b, margin) {
        let (reference, incident) = if f.flip { (&view_b, &view_a) } else { (&view_a, &view_b) };
        let (r1, r2) =
            (reference.vertices[f.reference_edge], reference.vertices[reference.next(f.reference_edge)]);
        let (i1, i2) =
            (incident.vertices[f.incident_edge], incident.vertices[incident.next(f.incident_edge)]);
        fig.line(&panel, &r1, &r2, "#08519c", 5.0, false);
        fig.line(&panel, &i1, &i2, "#a63603", 5.0, false);
        // The clip planes: through the reference edge's ends, along its normal.
        let n = reference.normals[f.reference_edge];
        for end in [r1, r2] {
            fig.line(&panel, &(end - n * 1.2), &(end + n * 1.2), "#636363", 1.5, true);
        }
        fig.label(&panel, &(Point::from((r1.coords + r2.coords) * 0.5) - n * 0.2), "reference face");
        fig.label(&panel, &(Point::from((i1.coords + i2.coords) * 0.5) + n * 0.25), "incident face");
    }
    for p in &m.points {
        fig.dot(&panel, &p.point, "#31a354");
        fig.arrow(&panel, &p.point, &(p.point + m.normal * 0.4), "#31a354");
    }
    fig.caption(10.0, 575.0, "reference and incident faces, clip planes, kept points");
    fig.finish()
}
