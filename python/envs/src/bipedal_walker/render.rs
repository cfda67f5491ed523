//! The environment's picture, Gymnasium's 600 × 400 view: sky, clouds
//! scrolling at half speed, the course, one lidar ray sweeping to and fro,
//! the walker and the start flag, the view following the hull.

use super::terrain::{TERRAIN_HEIGHT, TERRAIN_STEP};
use super::{BipedalWalker, LIDAR_RAYS, SCALE, VIEWPORT_H, VIEWPORT_W};
use crate::canvas::{Canvas, Rgb};
use lamina2d::prelude::Real;

const SKY: Rgb = (215, 215, 255);
const CLOUD: Rgb = (255, 255, 255);
const EARTH: Rgb = (102, 153, 76);
const OBSTACLE: Rgb = (255, 255, 255);
const OBSTACLE_EDGE: Rgb = (153, 153, 153);
const LIDAR: Rgb = (255, 0, 0);
const HULL: (Rgb, Rgb) = ((127, 51, 229), (76, 76, 127));
const FLAG: Rgb = (230, 51, 0);
const BLACK: Rgb = (0, 0, 0);
/// The picture's width and height, pixels.
pub const PICTURE: (u32, u32) = (VIEWPORT_W as u32, VIEWPORT_H as u32);

impl BipedalWalker {
    /// The picture as `400 × 600 × 3` RGB bytes, top row first.
    pub fn render(&self) -> Vec<u8> {
        self.draw().to_rgb()
    }

    /// Writes the picture into `out`, `400 × 600 × 3` bytes.
    pub fn render_into(&self, out: &mut [u8]) {
        self.draw().write_rgb(out);
    }

    /// The world x at the view's left edge, as Gymnasium scrolls: the hull a
    /// fifth of the way across the view, never left of the course's start.
    fn scroll(&self) -> f64 {
        self.hull_position().0 - VIEWPORT_W / SCALE / 5.0
    }

    fn draw(&self) -> Canvas {
        let scroll = self.scroll();
        let (w, h) = PICTURE;
        let mut canvas = Canvas::new(w, h, SCALE as f32, scroll.max(0.0) as f32, SKY);
        self.draw_clouds(&mut canvas, scroll);
        self.draw_course(&mut canvas, scroll);
        self.draw_lidar(&mut canvas);
        self.draw_walker(&mut canvas);
        draw_flag(&mut canvas);
        canvas
    }

    /// The clouds, in a backdrop that scrolls at half the view's speed: a
    /// cloud at backdrop x is drawn at world x + scroll / 2.
    fn draw_clouds(&self, canvas: &mut Canvas, scroll: f64) {
        let view = VIEWPORT_W / SCALE;
        for cloud in &self.clouds {
            if cloud.x2 < scroll / 2.0 || cloud.x1 > scroll / 2.0 + view {
                continue;
            }
            let corners = cloud.corners.map(|(x, y)| ((x + scroll / 2.0) as f32, y as f32));
            canvas.fill_polygon(&corners, CLOUD);
        }
    }

    /// The earth under the surface in view, the obstacles, and the surface
    /// line, its segments alternately light and dark green.
    fn draw_course(&self, canvas: &mut Canvas, scroll: f64) {
        let view = VIEWPORT_W / SCALE;
        let (xs, ys) = (&self.terrain.xs, &self.terrain.ys);
        let in_view = |i: usize| xs[i + 1] >= scroll && xs[i] <= scroll + view;
        // Gymnasium fills a quad under each segment; one polygon under them
        // all is the same area without the faint seams that anti-aliasing
        // leaves between neighbouring quads.
        let first = (0..xs.len() - 1).find(|&i| in_view(i)).unwrap_or(0);
        let last = (0..xs.len() - 1).rev().find(|&i| in_view(i)).unwrap_or(first) + 1;
        let mut earth: Vec<(f32, f32)> = (first..=last).map(|i| (xs[i] as f32, ys[i] as f32)).collect();
        earth.extend([(xs[last] as f32, 0.0), (xs[first] as f32, 0.0)]);
        canvas.fill_polygon(&earth, EARTH);
        // Gymnasium draws its terrain bodies last made first: the surface's
        // segments right to left, then the obstacles.
        for i in (0..xs.len() - 1).rev().filter(|&i| in_view(i)) {
            let green = if i % 2 == 0 { 255 } else { 204 };
            let segment = [(xs[i] as f32, ys[i] as f32), (xs[i + 1] as f32, ys[i + 1] as f32)];
            canvas.stroke_polyline(&segment, false, (76, green, 76), 1.0);
        }
        for quad in self.terrain.obstacles.iter().rev() {
            if quad.iter().all(|c| c.0 < scroll) || quad.iter().all(|c| c.0 > scroll + view) {
                continue;
            }
            let corners = quad.map(|(x, y)| (x as f32, y as f32));
            canvas.fill_polygon(&corners, OBSTACLE);
            canvas.stroke_polyline(&corners, true, OBSTACLE_EDGE, 1.0);
        }
    }

    /// One lidar ray, sweeping out over ten steps and back over the next ten,
    /// then none for eighty. Gymnasium counts its sweep in calls to render,
    /// which it makes once a step in human mode; counting steps gives that
    /// picture and keeps drawing free of state.
    fn draw_lidar(&self, canvas: &mut Canvas) {
        let phase = (self.steps as usize + 1) % 100;
        let ray = match phase {
            p if p < LIDAR_RAYS => p,
            p if p < 2 * LIDAR_RAYS => 2 * LIDAR_RAYS - 1 - p,
            _ => return,
        };
        let trace = &self.lidar[ray];
        let (from, to) = (trace.from, trace.to);
        canvas.stroke_polyline(
            &[(from.0 as f32, from.1 as f32), (to.0 as f32, to.1 as f32)],
            false,
            LIDAR,
            1.0,
        );
    }

    /// The legs, back leg first, each link filled and outlined in its leg's
    /// shade; the hull over them.
    fn draw_walker(&self, canvas: &mut Canvas) {
        for (k, part) in self.walker.parts().enumerate() {
            let (fill, edge) = match k / 2 {
                // Gymnasium shades the legs by their side, i = −1 and +1.
                0 => ((178, 101, 152), (127, 76, 101)),
                1 => ((128, 51, 102), (77, 26, 51)),
                _ => HULL,
            };
            let body = self.world.body(part.body).expect("the walker's parts stay in its world");
            let (t, r) = (body.translation(), body.rotation());
            let (c, s) = (to_f32(r.re), to_f32(r.im));
            let mut corners = [(0.0f32, 0.0f32); 5];
            for (out, &(x, y)) in corners.iter_mut().zip(&part.outline[..part.corners]) {
                *out = (to_f32(t.x) + c * x - s * y, to_f32(t.y) + s * x + c * y);
            }
            canvas.fill_polygon(&corners[..part.corners], fill);
            canvas.stroke_polyline(&corners[..part.corners], true, edge, 1.0);
        }
    }
}

/// A world number as the picture's `f32` (the engine's scalar is `f32`, or
/// `f64` with its `f64` feature).
#[allow(clippy::unnecessary_cast)]
fn to_f32(v: Real) -> f32 {
    v as f32
}

/// The flag at the start: a pole 50 px tall and a red pennant at its top.
fn draw_flag(canvas: &mut Canvas) {
    let x = (TERRAIN_STEP * 3.0) as f32;
    let (bottom, top) = (TERRAIN_HEIGHT as f32, (TERRAIN_HEIGHT + 50.0 / SCALE) as f32);
    let px = 1.0 / SCALE as f32;
    canvas.stroke_polyline(&[(x, bottom), (x, top)], false, BLACK, 1.0);
    let pennant = [(x, top), (x, top - 10.0 * px), (x + 25.0 * px, top - 5.0 * px)];
    canvas.fill_polygon(&pennant, FLAG);
    canvas.stroke_polyline(&pennant, true, BLACK, 1.0);
}
