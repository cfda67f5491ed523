//! The environments' pictures: a tiny-skia pixmap with a camera from world
//! metres to pixels (y up in the world, down in the picture), drawn with the
//! few strokes Gymnasium's pygame renderer uses, and read out as RGB.

use tiny_skia::{Color, FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// An RGB colour, 0–255 per channel.
pub type Rgb = (u8, u8, u8);

/// A picture of `width` × `height` pixels and the camera that maps world points onto it.
pub struct Canvas {
    pixmap: Pixmap,
    /// Pixels per metre.
    scale: f32,
    /// The world x, metres, at the picture's left edge.
    left: f32,
}

impl Canvas {
    /// A picture filled with `background`, `scale` pixels per metre, its left
    /// edge at world x = `left` and its bottom edge at world y = 0.
    pub fn new(width: u32, height: u32, scale: f32, left: f32, background: Rgb) -> Self {
        let mut pixmap = Pixmap::new(width.max(1), height.max(1)).expect("a picture of at least one pixel");
        pixmap.fill(color(background));
        Self { pixmap, scale, left }
    }

    /// The picture's width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.pixmap.width(), self.pixmap.height())
    }

    /// The pixel of a world point.
    pub fn to_pixel(&self, (x, y): (f32, f32)) -> (f32, f32) {
        ((x - self.left) * self.scale, self.pixmap.height() as f32 - y * self.scale)
    }

    /// Fills the polygon through `points` (world coordinates).
    pub fn fill_polygon(&mut self, points: &[(f32, f32)], fill: Rgb) {
        if let Some(path) = self.path(points, true) {
            self.pixmap.fill_path(&path, &paint(fill), FillRule::Winding, Transform::identity(), None);
        }
    }

    /// Draws a line through `points` (world coordinates), `width` pixels wide;
    /// `closed` joins the last point to the first.
    pub fn stroke_polyline(&mut self, points: &[(f32, f32)], closed: bool, stroke: Rgb, width: f32) {
        if let Some(path) = self.path(points, closed) {
            let style =
                Stroke { width, line_cap: LineCap::Round, line_join: LineJoin::Round, ..Stroke::default() };
            self.pixmap.stroke_path(&path, &paint(stroke), &style, Transform::identity(), None);
        }
    }

    /// Fills the circle of `radius` metres about `center`.
    pub fn fill_circle(&mut self, center: (f32, f32), radius: f32, fill: Rgb) {
        let (x, y) = self.to_pixel(center);
        if let Some(path) = PathBuilder::from_circle(x, y, (radius * self.scale).max(0.5)) {
            self.pixmap.fill_path(&path, &paint(fill), FillRule::Winding, Transform::identity(), None);
        }
    }

    /// Writes the picture as rows of RGB bytes, top row first: `height × width × 3`.
    pub fn write_rgb(&self, out: &mut [u8]) {
        for (rgb, rgba) in out.chunks_exact_mut(3).zip(self.pixmap.data().chunks_exact(4)) {
            // Every pixel is opaque (the background is), so the stored
            // premultiplied colour is the colour itself.
            rgb.copy_from_slice(&rgba[..3]);
        }
    }

    /// The picture as `height × width × 3` RGB bytes.
    pub fn to_rgb(&self) -> Vec<u8> {
        let (w, h) = self.size();
        let mut out = vec![0; (w * h * 3) as usize];
        self.write_rgb(&mut out);
        out
    }

    fn path(&self, points: &[(f32, f32)], closed: bool) -> Option<tiny_skia::Path> {
        let (first, rest) = points.split_first()?;
        let mut builder = PathBuilder::new();
        let (x, y) = self.to_pixel(*first);
        builder.move_to(x, y);
        for p in rest {
            let (x, y) = self.to_pixel(*p);
            builder.line_to(x, y);
        }
        if closed {
            builder.close();
        }
        builder.finish()
    }
}

fn color((r, g, b): Rgb) -> Color {
    Color::from_rgba8(r, g, b, 255)
}

fn paint(rgb: Rgb) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(color(rgb));
    paint.anti_alias = true;
    paint
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filled_square_colours_its_pixels_and_only_them() {
        // 10 px per metre; the square spans x 1..2 m, y 1..2 m: pixels 10..20
        // across and, with y flipped in a 40-px-high picture, 20..30 down.
        let mut canvas = Canvas::new(40, 40, 10.0, 0.0, (0, 0, 0));
        canvas.fill_polygon(&[(1.0, 1.0), (2.0, 1.0), (2.0, 2.0), (1.0, 2.0)], (255, 0, 0));
        let rgb = canvas.to_rgb();
        let at = |x: usize, y: usize| &rgb[(y * 40 + x) * 3..(y * 40 + x) * 3 + 3];
        assert_eq!(at(15, 25), [255, 0, 0]);
        assert_eq!(at(15, 15), [0, 0, 0]);
        assert_eq!(at(5, 25), [0, 0, 0]);
    }
}
