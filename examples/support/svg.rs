//! A minimal SVG writer for the examples' figures: panels with their own world
//! window (y up), polygons, lines, arrows, dots and labels.
//!
//! Each example uses a part of it. Pixel arithmetic is in f64, so the casts
//! from `Real` are no-ops with the `f64` feature.
#![allow(dead_code, clippy::unnecessary_cast)]

use lamina2d::prelude::*;
use std::fmt::Write;

/// One panel: a world window drawn into a square of `size` pixels at `offset_x`.
pub struct Panel {
    min: Point,
    scale: f64,
    offset_x: f64,
    size: f64,
}

impl Panel {
    /// A panel showing `[min, max]` (padded to a square) in `size` pixels, starting at `offset_x`.
    pub fn new(min: Point, max: Point, offset_x: f64, size: f64) -> Self {
        let span = ((max.x - min.x).max(max.y - min.y) as f64).max(1e-9);
        let pad = 0.08 * span;
        let centre = Point::from((min.coords + max.coords) * 0.5);
        let half = 0.5 * span + pad;
        let min = Point::new(centre.x - half as Real, centre.y - half as Real);
        Self { min, scale: size / (2.0 * half), offset_x, size }
    }

    /// A panel framing all the given points.
    pub fn framing(points: &[Point], offset_x: f64, size: f64) -> Self {
        let aabb = Aabb::from_points(points).unwrap_or(Aabb::new(Point::origin(), Point::new(1.0, 1.0)));
        Self::new(aabb.mins, aabb.maxs, offset_x, size)
    }

    fn map(&self, p: &Point) -> (f64, f64) {
        let x = self.offset_x + (p.x - self.min.x) as f64 * self.scale;
        let y = self.size - (p.y - self.min.y) as f64 * self.scale;
        (x, y)
    }
}

/// A figure of side-by-side panels.
pub struct Svg {
    body: String,
    width: f64,
    height: f64,
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Self {
        Self { body: String::new(), width, height }
    }

    pub fn polygon(&mut self, panel: &Panel, points: &[Point], fill: &str, stroke: &str, dashed: bool) {
        let pts: Vec<String> =
            points.iter().map(|p| panel.map(p)).map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
        let dash = if dashed { " stroke-dasharray=\"6 4\"" } else { "" };
        let _ = writeln!(
            self.body,
            "<polygon points=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"{dash}/>",
            pts.join(" ")
        );
    }

    pub fn line(&mut self, panel: &Panel, a: &Point, b: &Point, stroke: &str, width: f64, dashed: bool) {
        let ((x1, y1), (x2, y2)) = (panel.map(a), panel.map(b));
        let dash = if dashed { " stroke-dasharray=\"5 4\"" } else { "" };
        let _ = writeln!(
            self.body,
            "<line x1=\"{x1:.2}\" y1=\"{y1:.2}\" x2=\"{x2:.2}\" y2=\"{y2:.2}\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>"
        );
    }

    pub fn arrow(&mut self, panel: &Panel, from: &Point, to: &Point, stroke: &str) {
        self.line(panel, from, to, stroke, 2.5, false);
        let ((x1, y1), (x2, y2)) = (panel.map(from), panel.map(to));
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let (hx, hy) = (x2 - 10.0 * ux, y2 - 10.0 * uy);
        let _ = writeln!(
            self.body,
            "<polygon points=\"{x2:.2},{y2:.2} {:.2},{:.2} {:.2},{:.2}\" fill=\"{stroke}\"/>",
            hx - 5.0 * uy,
            hy + 5.0 * ux,
            hx + 5.0 * uy,
            hy - 5.0 * ux
        );
    }

    pub fn dot(&mut self, panel: &Panel, p: &Point, fill: &str) {
        let (x, y) = panel.map(p);
        let _ = writeln!(self.body, "<circle cx=\"{x:.2}\" cy=\"{y:.2}\" r=\"4\" fill=\"{fill}\"/>");
    }

    pub fn label(&mut self, panel: &Panel, p: &Point, text: &str) {
        let (x, y) = panel.map(p);
        let _ = writeln!(
            self.body,
            "<text x=\"{:.2}\" y=\"{:.2}\" font-family=\"sans-serif\" font-size=\"13\">{text}</text>",
            x + 6.0,
            y - 6.0
        );
    }

    /// A caption at pixel coordinates.
    pub fn caption(&mut self, x: f64, y: f64, text: &str) {
        let _ = writeln!(
            self.body,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-family=\"sans-serif\" font-size=\"15\" font-weight=\"bold\">{text}</text>"
        );
    }

    pub fn finish(self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{}</svg>\n",
            self.body,
            w = self.width,
            h = self.height
        )
    }
}

/// The outline of a shape at `pose`, sampled from its support function.
pub fn outline(shape: &Shape, pose: &Isometry, samples: usize) -> Vec<Point> {
    (0..samples)
        .map(|i| {
            let a = i as f64 / samples as f64 * std::f64::consts::TAU;
            let dir = Vec2::new(a.cos() as Real, a.sin() as Real);
            shape.support_point_world(pose, &dir)
        })
        .collect()
}
