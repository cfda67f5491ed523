//! Pictures of a running world for the dynamics examples: every collider drawn
//! at its world pose into an RGBA frame (tiny-skia), frames written as an
//! animated GIF (the `gif` crate).
//!
//! A fixed [`Camera`] frames the scene (world y up). A [`GifRecorder`] is handed
//! the world after every step and keeps every n-th frame. Fixed bodies are grey,
//! awake dynamic bodies orange, sleeping ones blue, kinematic ones green, and
//! bodies marked with [`GifRecorder::highlight`] red.
#![allow(dead_code)]

use lamina2d::prelude::*;
use std::fs::File;
use std::io::BufWriter;
use tiny_skia::{Color, FillRule, LineCap, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// Directions sampled around a smooth or rounded shape's outline.
const OUTLINE_SAMPLES: usize = 40;
/// gif's quantiser speed, 1 (best) to 30 (fastest); the frames hold few colours.
const QUANTISER_SPEED: i32 = 30;

/// A fixed view of the world: which world point sits at the frame's centre, and
/// how many pixels a metre spans.
#[derive(Clone, Copy, Debug)]
pub struct Camera {
    centre: (f32, f32),
    pixels_per_metre: f32,
    width: u32,
    height: u32,
}

impl Camera {
    /// A `width` × `height` pixel camera that shows all of the world box `[min, max]`, centred.
    pub fn framing(min: Point, max: Point, width: u32, height: u32) -> Self {
        let (w, h) = (single(max.x - min.x), single(max.y - min.y));
        let pixels_per_metre = (width as f32 / w.max(1e-3)).min(height as f32 / h.max(1e-3));
        let centre = (0.5 * single(min.x + max.x), 0.5 * single(min.y + max.y));
        Self { centre, pixels_per_metre, width: width.max(1), height: height.max(1) }
    }

    fn map(&self, p: &Point) -> (f32, f32) {
        let x = 0.5 * self.width as f32 + (single(p.x) - self.centre.0) * self.pixels_per_metre;
        let y = 0.5 * self.height as f32 - (single(p.y) - self.centre.1) * self.pixels_per_metre;
        (x, y)
    }
}

/// A world number as tiny-skia's `f32`, whichever type `Real` is.
#[allow(clippy::unnecessary_cast)]
fn single(x: Real) -> f32 {
    x as f32
}

/// Fill and outline colours.
struct Style {
    fill: Color,
    line: Color,
}

fn rgb(r: u8, g: u8, b: u8) -> Color {
    Color::from_rgba8(r, g, b, 255)
}

fn style_of(body: &Body, highlighted: bool) -> Style {
    let (fill, line) = match body.kind() {
        BodyKind::Fixed => (rgb(150, 150, 150), rgb(70, 70, 70)),
        BodyKind::Kinematic => (rgb(120, 200, 120), rgb(40, 100, 40)),
        BodyKind::Dynamic if highlighted => (rgb(214, 69, 69), rgb(110, 25, 25)),
        BodyKind::Dynamic if body.is_sleeping() => (rgb(143, 179, 217), rgb(50, 80, 120)),
        BodyKind::Dynamic => (rgb(242, 165, 65), rgb(120, 70, 15)),
    };
    Style { fill, line }
}

/// Draws every collider of `world` into `pixmap` over a plain background.
pub fn draw_world(pixmap: &mut Pixmap, camera: &Camera, world: &World, highlight: &[BodyKey]) {
    pixmap.fill(rgb(250, 250, 248));
    let stroke = Stroke { width: 1.0, line_cap: LineCap::Round, ..Stroke::default() };
    // No anti-aliasing: blended edge pixels add colours that GIF's LZW compresses
    // badly (files four times larger) and that the palette cannot hold anyway.
    let mut paint = Paint { anti_alias: false, ..Paint::default() };
    for (_, collider) in world.colliders() {
        let Some(body) = world.body(collider.body()) else { continue };
        let pose = body.position() * collider.local_pose();
        let style = style_of(body, highlight.contains(&collider.body()));
        let Some(path) = shape_path(collider.shape(), &pose, camera) else { continue };
        if !matches!(collider.shape(), Shape::Segment(_) | Shape::ChainSegment(_)) {
            paint.set_color(style.fill);
            pixmap.fill_path(&path, &paint, FillRule::Winding, Transform::identity(), None);
        }
        paint.set_color(style.line);
        pixmap.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
        // A spoke shows how round shapes turn.
        if let Shape::Circle(c) = collider.shape() {
            let centre = pose * Point::origin();
            let rim = pose * Point::new(c.radius, 0.0);
            let mut pb = PathBuilder::new();
            let ((x0, y0), (x1, y1)) = (camera.map(&centre), camera.map(&rim));
            pb.move_to(x0, y0);
            pb.line_to(x1, y1);
            if let Some(spoke) = pb.finish() {
                pixmap.stroke_path(&spoke, &paint, &stroke, Transform::identity(), None);
            }
        }
    }
}

/// The outline of `shape` at `pose`, in pixels.
fn shape_path(shape: &Shape, pose: &Isometry, camera: &Camera) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    match shape {
        Shape::Circle(c) => {
            let (x, y) = camera.map(&(pose * Point::origin()));
            pb.push_circle(x, y, (single(c.radius) * camera.pixels_per_metre).max(0.5));
        }
        Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
            let ((x0, y0), (x1, y1)) = (camera.map(&(pose * s.a)), camera.map(&(pose * s.b)));
            pb.move_to(x0, y0);
            pb.line_to(x1, y1);
        }
        Shape::Polygon(p) if p.radius() == 0.0 => {
            polygon(&mut pb, p.vertices().iter().map(|v| camera.map(&(pose * v))));
        }
        // Rounded polygons, capsules and ellipses: sample the support function.
        _ => {
            let points = (0..OUTLINE_SAMPLES).map(|i| {
                let a = i as f64 / OUTLINE_SAMPLES as f64 * std::f64::consts::TAU;
                let dir = Vec2::new(a.cos() as Real, a.sin() as Real);
                camera.map(&shape.support_point_world(pose, &dir))
            });
            polygon(&mut pb, points);
        }
    }
    pb.finish()
}

fn polygon(pb: &mut PathBuilder, mut points: impl Iterator<Item = (f32, f32)>) {
    if let Some((x, y)) = points.next() {
        pb.move_to(x, y);
        for (x, y) in points {
            pb.line_to(x, y);
        }
        pb.close();
    }
}

/// A line from `a` to `b` (world points) of colour `(r, g, b)`, drawn over
/// the world: a ray, a lidar beam, a path.
#[derive(Clone, Copy, Debug)]
pub struct Line {
    pub a: Point,
    pub b: Point,
    pub color: (u8, u8, u8),
}

/// Draws `lines` over whatever `pixmap` holds.
pub fn draw_lines(pixmap: &mut Pixmap, camera: &Camera, lines: &[Line]) {
    let stroke = Stroke { width: 1.0, line_cap: LineCap::Round, ..Stroke::default() };
    // Without anti-aliasing a frame keeps few colours, and its GIF stays small.
    let mut paint = Paint { anti_alias: false, ..Paint::default() };
    for line in lines {
        let ((x0, y0), (x1, y1)) = (camera.map(&line.a), camera.map(&line.b));
        let mut pb = PathBuilder::new();
        pb.move_to(x0, y0);
        pb.line_to(x1, y1);
        if let Some(path) = pb.finish() {
            paint.set_color(rgb(line.color.0, line.color.1, line.color.2));
            pixmap.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
        }
    }
}

/// Writes an animated GIF of a run, one frame every `every` steps.
pub struct GifRecorder {
    encoder: gif::Encoder<BufWriter<File>>,
    pixmap: Pixmap,
    rgba: Vec<u8>,
    camera: Camera,
    every: usize,
    seen: usize,
    delay: u16,
    frames: usize,
    highlight: Vec<BodyKey>,
    path: String,
}

impl GifRecorder {
    /// Creates `path` for a run stepped by `dt` seconds, keeping every `every`-th state.
    pub fn create(path: &str, camera: Camera, every: usize, dt: Real) -> Result<Self, String> {
        let too_big = |side: u32| side > u32::from(u16::MAX);
        if too_big(camera.width) || too_big(camera.height) {
            return Err(format!("a {}×{} picture is too large for a GIF", camera.width, camera.height));
        }
        let pixmap = Pixmap::new(camera.width, camera.height)
            .ok_or_else(|| format!("cannot make a {}×{} picture", camera.width, camera.height))?;
        let file = File::create(path).map_err(|e| format!("cannot create {path}: {e}"))?;
        let mut encoder =
            gif::Encoder::new(BufWriter::new(file), camera.width as u16, camera.height as u16, &[])
                .map_err(|e| format!("cannot write {path}: {e}"))?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(|e| format!("cannot write {path}: {e}"))?;
        let every = every.max(1);
        // GIF delays count hundredths of a second; play in real time.
        let delay = (every as f64 * f64::from(single(dt)) * 100.0).round().clamp(2.0, 65535.0) as u16;
        Ok(Self {
            encoder,
            pixmap,
            rgba: Vec::new(),
            camera,
            every,
            seen: 0,
            delay,
            frames: 0,
            highlight: Vec::new(),
            path: path.to_string(),
        })
    }

    /// Draws `body` in the accent colour.
    pub fn highlight(&mut self, body: BodyKey) {
        self.highlight.push(body);
    }

    /// Hands over the world's current state: every `every`-th call (the first
    /// included) becomes a frame.
    pub fn observe(&mut self, world: &World) -> Result<(), String> {
        self.observe_with_lines(world, &[])
    }

    /// [`GifRecorder::observe`], with `lines` drawn over the world.
    pub fn observe_with_lines(&mut self, world: &World, lines: &[Line]) -> Result<(), String> {
        let keep = self.seen.is_multiple_of(self.every);
        self.seen += 1;
        if !keep {
            return Ok(());
        }
        draw_world(&mut self.pixmap, &self.camera, world, &self.highlight);
        draw_lines(&mut self.pixmap, &self.camera, lines);
        // The background is opaque, so premultiplied RGBA is plain RGBA.
        self.rgba.clear();
        self.rgba.extend_from_slice(self.pixmap.data());
        let (w, h) = (self.camera.width as u16, self.camera.height as u16);
        let mut frame = gif::Frame::from_rgba_speed(w, h, &mut self.rgba, QUANTISER_SPEED);
        frame.delay = self.delay;
        self.encoder.write_frame(&frame).map_err(|e| format!("cannot write {}: {e}", self.path))?;
        self.frames += 1;
        Ok(())
    }

    /// Finishes the file; returns its path, frame count and size in bytes.
    pub fn finish(self) -> Result<(String, usize, u64), String> {
        let path = self.path;
        let writer = self.encoder.into_inner().map_err(|e| format!("cannot write {path}: {e}"))?;
        let file = writer.into_inner().map_err(|e| format!("cannot write {path}: {}", e.error()))?;
        let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
        Ok((path, self.frames, bytes))
    }
}

/// Reads the only option most examples take, `--gif out.gif`; anything else is
/// an error that names it.
pub fn gif_option(example: &str, args: impl IntoIterator<Item = String>) -> Result<Option<String>, String> {
    let mut args = args.into_iter();
    let mut gif = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--gif" => gif = Some(args.next().ok_or("--gif needs a file name")?),
            "-h" | "--help" => {
                println!("usage: {example} [--gif out.gif]");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?}; usage: {example} [--gif out.gif]")),
        }
    }
    Ok(gif)
}
