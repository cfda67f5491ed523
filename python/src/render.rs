//! `World.render`: a picture of the world as a NumPy RGB array, drawn in Rust
//! with tiny-skia, for notebooks, videos and debugging without any drawing
//! package in Python. Fixed bodies are grey, kinematic ones blue, awake
//! dynamic ones orange and sleeping ones a dimmer orange.

use lamina2d::prelude::*;
use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray3};
use pyo3::prelude::*;
use tiny_skia::{Color, FillRule, LineCap, Paint, PathBuilder, Pixmap, Stroke, Transform};

use crate::convert::{Pair, real, vec2};
use crate::errors::world_error;
use crate::world::PyWorld;

/// The largest picture side, pixels.
const MAX_SIDE: u32 = 8192;

/// Maps world metres to pixels: `scale` pixels per metre, `center` at the
/// picture's centre, y up.
struct Camera {
    center: Vec2,
    scale: f32,
    width: f32,
    height: f32,
}

impl Camera {
    fn pixel(&self, p: Point) -> (f32, f32) {
        let d = (p.coords - self.center) * self.scale as Real;
        (self.width / 2.0 + d.x as f32, self.height / 2.0 - d.y as f32)
    }
}

fn paint(rgb: (u8, u8, u8)) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(Color::from_rgba8(rgb.0, rgb.1, rgb.2, 255));
    paint.anti_alias = true;
    paint
}

/// The fill colour of a body of `kind`.
fn colour(kind: BodyKind, sleeping: bool) -> (u8, u8, u8) {
    match kind {
        BodyKind::Fixed => (130, 130, 130),
        BodyKind::Kinematic => (90, 140, 220),
        BodyKind::Dynamic if sleeping => (170, 120, 70),
        BodyKind::Dynamic => (240, 150, 60),
    }
}

/// Draws one collider's shape at `pose`.
fn draw_shape(pixmap: &mut Pixmap, camera: &Camera, shape: &Shape, pose: &Isometry, rgb: (u8, u8, u8)) {
    let fill = paint(rgb);
    let line = |pixmap: &mut Pixmap, a: Point, b: Point, width: f32| {
        let mut path = PathBuilder::new();
        let (ax, ay) = camera.pixel(pose * a);
        let (bx, by) = camera.pixel(pose * b);
        path.move_to(ax, ay);
        path.line_to(bx, by);
        if let Some(path) = path.finish() {
            let stroke = Stroke { width: width.max(1.0), line_cap: LineCap::Round, ..Stroke::default() };
            pixmap.stroke_path(&path, &fill, &stroke, Transform::identity(), None);
        }
    };
    match shape {
        Shape::Circle(c) => {
            let (x, y) = camera.pixel(pose * Point::origin());
            if let Some(path) = PathBuilder::from_circle(x, y, (c.radius as f32 * camera.scale).max(0.5)) {
                pixmap.fill_path(&path, &fill, FillRule::Winding, Transform::identity(), None);
            }
            // A spoke shows the turn.
            line(pixmap, Point::origin(), Point::new(c.radius, 0.0), 1.0);
        }
        Shape::Capsule(c) => line(pixmap, c.a, c.b, 2.0 * c.radius as f32 * camera.scale),
        Shape::Segment(s) => line(pixmap, s.a, s.b, 2.0),
        Shape::ChainSegment(s) => line(pixmap, s.segment.a, s.segment.b, 2.0),
        Shape::Polygon(p) => {
            let points: Vec<Point> = p.vertices().to_vec();
            fill_outline(pixmap, camera, pose, &points, &fill);
            if p.radius() > 0.0 {
                for (i, &a) in points.iter().enumerate() {
                    line(pixmap, a, points[(i + 1) % points.len()], 2.0 * p.radius() as f32 * camera.scale);
                }
            }
        }
        Shape::Ellipse(e) => {
            let points: Vec<Point> = (0..32)
                .map(|i| {
                    let t = i as Real * std::f64::consts::TAU as Real / 32.0;
                    Point::new(e.rx * t.cos(), e.ry * t.sin())
                })
                .collect();
            fill_outline(pixmap, camera, pose, &points, &fill);
        }
    }
}

fn fill_outline(pixmap: &mut Pixmap, camera: &Camera, pose: &Isometry, points: &[Point], fill: &Paint<'_>) {
    let mut path = PathBuilder::new();
    for (i, p) in points.iter().enumerate() {
        let (x, y) = camera.pixel(pose * p);
        if i == 0 { path.move_to(x, y) } else { path.line_to(x, y) }
    }
    path.close();
    if let Some(path) = path.finish() {
        pixmap.fill_path(&path, fill, FillRule::Winding, Transform::identity(), None);
    }
}

#[pymethods]
impl PyWorld {
    /// A picture of the world, a `(height, width, 3)` uint8 array: `scale`
    /// pixels per metre, the world point `center` in the middle.
    #[pyo3(signature = (width=640, height=480, center=(0.0, 0.0), scale=20.0))]
    fn render<'py>(
        &self,
        py: Python<'py>,
        width: u32,
        height: u32,
        center: Pair,
        scale: f64,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(world_error(format!(
                "the picture must be 1 to {MAX_SIDE} pixels a side, got {width} × {height}"
            )));
        }
        let scale = real("scale", scale)?;
        if scale <= 0.0 {
            return Err(world_error(format!("scale must be positive, got {scale}")));
        }
        let camera = Camera {
            center: vec2("center", center)?,
            scale: scale as f32,
            width: width as f32,
            height: height as f32,
        };
        let mut pixmap = Pixmap::new(width, height).expect("a picture of at least one pixel");
        pixmap.fill(Color::from_rgba8(250, 250, 245, 255));
        for (_, collider) in self.world.colliders() {
            let Some(body) = self.world.body(collider.body()) else { continue };
            let pose = body.position() * collider.local_pose();
            let rgb = colour(body.kind(), body.is_sleeping());
            draw_shape(&mut pixmap, &camera, collider.shape(), &pose, rgb);
        }
        let mut rgb = Array3::<u8>::zeros((height as usize, width as usize, 3));
        for (out, rgba) in rgb
            .as_slice_mut()
            .expect("a new array is contiguous")
            .chunks_exact_mut(3)
            .zip(pixmap.data().chunks_exact(4))
        {
            out.copy_from_slice(&rgba[..3]);
        }
        Ok(rgb.into_pyarray(py))
    }
}
