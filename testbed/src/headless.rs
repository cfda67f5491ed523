//! Headless mode: step a scene for a number of frames and write a PNG of the
//! last one, drawn in software with tiny-skia, with no window and no GPU:
//! `--scene pyramid --frames 120 --screenshot out.png`.

use lamina2d::prelude::*;
use tiny_skia::{Color, FillRule, LineCap, Paint, PathBuilder, Pixmap, Stroke, Transform};

use crate::camera::{Camera, single};
use crate::draw::{self, Canvas, Layers, Rgba};
use crate::simulation::Simulation;

/// A [`Canvas`] that paints into a tiny-skia pixmap through a camera.
pub struct PixmapCanvas<'a> {
    pixmap: &'a mut Pixmap,
    camera: Camera,
}

impl<'a> PixmapCanvas<'a> {
    /// Clears `pixmap` to the background; draws through `camera`.
    pub fn new(pixmap: &'a mut Pixmap, camera: Camera) -> Self {
        let [r, g, b, a] = draw::BACKGROUND;
        pixmap.fill(Color::from_rgba8(r, g, b, a));
        Self { pixmap, camera }
    }

    fn size(&self) -> (f32, f32) {
        (self.pixmap.width() as f32, self.pixmap.height() as f32)
    }

    fn map(&self, p: &Point) -> (f32, f32) {
        self.camera.to_screen(p, self.size())
    }

    fn paint(color: Rgba) -> Paint<'static> {
        let mut paint = Paint { anti_alias: true, ..Paint::default() };
        paint.set_color(Color::from_rgba8(color[0], color[1], color[2], color[3]));
        paint
    }

    fn stroke(&mut self, path: &tiny_skia::Path, width: f32, color: Rgba) {
        let stroke = Stroke { width, line_cap: LineCap::Round, ..Stroke::default() };
        self.pixmap.stroke_path(path, &Self::paint(color), &stroke, Transform::identity(), None);
    }

    fn fill(&mut self, path: &tiny_skia::Path, color: Rgba) {
        if color[3] > 0 {
            self.pixmap.fill_path(path, &Self::paint(color), FillRule::Winding, Transform::identity(), None);
        }
    }
}

impl Canvas for PixmapCanvas<'_> {
    fn polygon(&mut self, points: &[Point], fill: Rgba, outline: Rgba) {
        let mut pb = PathBuilder::new();
        for (i, p) in points.iter().enumerate() {
            let (x, y) = self.map(p);
            if i == 0 { pb.move_to(x, y) } else { pb.line_to(x, y) }
        }
        pb.close();
        if let Some(path) = pb.finish() {
            self.fill(&path, fill);
            self.stroke(&path, 1.0, outline);
        }
    }

    fn circle(&mut self, centre: Point, radius: Real, fill: Rgba, outline: Rgba) {
        let (x, y) = self.map(&centre);
        let r = (single(radius) * self.camera.pixels_per_metre).max(0.5);
        if let Some(path) = PathBuilder::from_circle(x, y, r) {
            self.fill(&path, fill);
            self.stroke(&path, 1.0, outline);
        }
    }

    fn segment(&mut self, a: Point, b: Point, width: f32, color: Rgba) {
        let ((x0, y0), (x1, y1)) = (self.map(&a), self.map(&b));
        let mut pb = PathBuilder::new();
        pb.move_to(x0, y0);
        pb.line_to(x1, y1);
        if let Some(path) = pb.finish() {
            self.stroke(&path, width, color);
        }
    }

    fn dot(&mut self, at: Point, radius: f32, color: Rgba) {
        let (x, y) = self.map(&at);
        if let Some(path) = PathBuilder::from_circle(x, y, radius) {
            self.fill(&path, color);
        }
    }

    fn metres_per_pixel(&self) -> Real {
        1.0 / self.camera.pixels_per_metre as Real
    }
}

/// Draws the simulation's world into a new `width` × `height` pixmap.
pub fn render(
    sim: &Simulation,
    layers: &Layers,
    camera: Camera,
    width: u32,
    height: u32,
) -> Result<Pixmap, String> {
    let mut pixmap =
        Pixmap::new(width, height).ok_or_else(|| format!("cannot make a {width}×{height} picture"))?;
    let mut canvas = PixmapCanvas::new(&mut pixmap, camera);
    if let Some(world) = sim.world() {
        let held = sim.held();
        draw::draw_world(
            &mut canvas,
            world,
            layers,
            held.map(|(b, ..)| b),
            held.map(|(_, grip, target)| (grip, target)),
            &sim.overlay(),
        );
    }
    Ok(pixmap)
}

/// What headless mode is asked to do.
pub struct Job {
    pub frames: usize,
    pub screenshot: String,
    pub size: (u32, u32),
    pub layers: Layers,
}

/// Steps `frames` steps and writes the picture; returns a one-line summary.
pub fn run(sim: &mut Simulation, job: &Job) -> Result<String, String> {
    if let Some(e) = &sim.error {
        return Err(e.clone());
    }
    for _ in 0..job.frames {
        sim.step();
        if let Some(e) = &sim.error {
            return Err(e.clone());
        }
    }
    let (w, h) = job.size;
    let camera = sim.framing((w as f32, h as f32));
    let pixmap = render(sim, &job.layers, camera, w, h)?;
    pixmap.save_png(&job.screenshot).map_err(|e| format!("cannot write {}: {e}", job.screenshot))?;
    let world = sim.world().ok_or("the scene has no world")?;
    Ok(format!(
        "{}: {} steps, {} bodies, {} joints, state hash {:016x}; wrote {} ({w}×{h})",
        sim.entry().name,
        sim.steps,
        world.body_count(),
        world.joint_count(),
        world.state_hash(),
        job.screenshot
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes;

    /// The picture of a scene holds more than the background.
    #[test]
    fn a_rendered_scene_is_not_blank() {
        let mut sim = Simulation::new(scenes::find("bridge").unwrap(), 1).unwrap();
        for _ in 0..5 {
            sim.step();
        }
        let camera = sim.framing((320.0, 200.0));
        let pixmap = render(&sim, &Layers::default(), camera, 320, 200).unwrap();
        let [r, g, b, _] = draw::BACKGROUND;
        let drawn = pixmap.pixels().iter().filter(|p| (p.red(), p.green(), p.blue()) != (r, g, b)).count();
        assert!(drawn > 1000, "only {drawn} pixels drawn");
    }

    /// A scene file runs headless as a built-in scene does: the summary
    /// names the file and counts its steps, bodies and joints, and the PNG
    /// written holds more than the background.
    #[test]
    fn a_scene_file_is_stepped_and_drawn_headless() {
        let mut sim = Simulation::new(scenes::from_file(&scenes::example_file()), 1).unwrap();
        let screenshot = std::env::temp_dir().join(format!("lamina-testbed-{}-file.png", std::process::id()));
        let job = Job {
            frames: 30,
            screenshot: screenshot.to_string_lossy().into_owned(),
            size: (320, 200),
            layers: Layers::default(),
        };
        let summary = run(&mut sim, &job).unwrap();
        assert!(summary.starts_with("pyramid_and_pendulum.json: 30 steps, 18 bodies, 1 joints"), "{summary}");
        let pixmap = Pixmap::load_png(&screenshot).unwrap();
        let _ = std::fs::remove_file(&screenshot);
        assert_eq!((pixmap.width(), pixmap.height()), (320, 200));
        let [r, g, b, _] = draw::BACKGROUND;
        let drawn = pixmap.pixels().iter().filter(|p| (p.red(), p.green(), p.blue()) != (r, g, b)).count();
        assert!(drawn > 1000, "only {drawn} pixels drawn");
    }
}
