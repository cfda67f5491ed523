//! The view onto the world: which world point sits at the middle of the
//! picture and how many pixels a metre spans. World y points up, picture y
//! down. The window pans and zooms it; headless mode frames the scene once.

use lamina2d::prelude::*;

/// Margin left around a framed scene, as a share of the picture.
const FRAME_MARGIN: f32 = 0.05;
/// The closest and farthest zoom, pixels per metre.
const ZOOM_RANGE: (f32, f32) = (0.05, 5000.0);

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The world point at the middle of the picture, metres.
    pub centre: (f32, f32),
    pub pixels_per_metre: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Self { centre: (0.0, 0.0), pixels_per_metre: 20.0 }
    }
}

/// A world number as a pixel coordinate's `f32`, whichever type `Real` is.
#[allow(clippy::unnecessary_cast)]
pub fn single(x: Real) -> f32 {
    x as f32
}

impl Camera {
    /// A camera that shows all of the world box `[min, max]` in a picture of
    /// `size` pixels, centred, with a small margin.
    pub fn framing(min: Point, max: Point, size: (f32, f32)) -> Self {
        let (w, h) = (single(max.x - min.x).max(1e-3), single(max.y - min.y).max(1e-3));
        let usable = (size.0 * (1.0 - 2.0 * FRAME_MARGIN), size.1 * (1.0 - 2.0 * FRAME_MARGIN));
        let pixels_per_metre = (usable.0 / w).min(usable.1 / h).clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        let centre = (0.5 * single(min.x + max.x), 0.5 * single(min.y + max.y));
        Self { centre, pixels_per_metre }
    }

    /// The pixel, from the picture's top-left corner, where world point `p` shows.
    pub fn to_screen(self, p: &Point, size: (f32, f32)) -> (f32, f32) {
        let x = 0.5 * size.0 + (single(p.x) - self.centre.0) * self.pixels_per_metre;
        let y = 0.5 * size.1 - (single(p.y) - self.centre.1) * self.pixels_per_metre;
        (x, y)
    }

    /// The world point under pixel `(x, y)` of the picture.
    pub fn to_world(self, (x, y): (f32, f32), size: (f32, f32)) -> Point {
        let wx = self.centre.0 + (x - 0.5 * size.0) / self.pixels_per_metre;
        let wy = self.centre.1 - (y - 0.5 * size.1) / self.pixels_per_metre;
        Point::new(wx as Real, wy as Real)
    }

    /// Moves the view by a drag of `(dx, dy)` pixels: the world follows the pointer.
    pub fn pan(&mut self, (dx, dy): (f32, f32)) {
        self.centre.0 -= dx / self.pixels_per_metre;
        self.centre.1 += dy / self.pixels_per_metre;
    }

    /// Zooms by `factor` keeping the world point under pixel `at` where it is.
    pub fn zoom_about(&mut self, factor: f32, at: (f32, f32), size: (f32, f32)) {
        let before = self.to_world(at, size);
        self.pixels_per_metre = (self.pixels_per_metre * factor).clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        let after = self.to_world(at, size);
        self.centre.0 += single(before.x - after.x);
        self.centre.1 += single(before.y - after.y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: (f32, f32) = (800.0, 600.0);

    #[test]
    fn screen_and_world_round_trip() {
        let camera = Camera { centre: (3.0, -2.0), pixels_per_metre: 25.0 };
        let p = Point::new(5.5, 1.25);
        let back = camera.to_world(camera.to_screen(&p, SIZE), SIZE);
        assert!((back - p).norm() < 1e-4);
    }

    #[test]
    fn a_framed_box_fits_inside_the_picture() {
        let (min, max) = (Point::new(-10.0, 0.0), Point::new(30.0, 5.0));
        let camera = Camera::framing(min, max, SIZE);
        for p in [min, max] {
            let (x, y) = camera.to_screen(&p, SIZE);
            assert!((0.0..=SIZE.0).contains(&x) && (0.0..=SIZE.1).contains(&y), "{x}, {y}");
        }
    }

    #[test]
    fn zoom_keeps_the_point_under_the_pointer() {
        let mut camera = Camera::default();
        let at = (600.0, 150.0);
        let before = camera.to_world(at, SIZE);
        camera.zoom_about(1.7, at, SIZE);
        assert!((camera.to_world(at, SIZE) - before).norm() < 1e-4);
    }

    #[test]
    fn panning_moves_the_world_with_the_pointer() {
        let mut camera = Camera::default();
        let p = Point::new(1.0, 1.0);
        let (x, y) = camera.to_screen(&p, SIZE);
        camera.pan((10.0, -20.0));
        let (x2, y2) = camera.to_screen(&p, SIZE);
        assert!((x2 - x - 10.0).abs() < 1e-3 && (y2 - y + 20.0).abs() < 1e-3);
    }
}
