//! The window: the scene list on the left, the world in the middle, settings,
//! debug layers and the step profile on the right, a status line at the
//! bottom, and a help window with every shortcut.
//!
//! Mouse: the left button drags a dynamic body through a mouse joint (or, on
//! empty space, pans); the right or middle button pans; the wheel zooms about
//! the pointer.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use eframe::egui::{
    self, Color32, Key, Modifiers, PointerButton, Pos2, Rect, RichText, Sense, Stroke, Ui, ViewportCommand,
};
use lamina2d::prelude::*;

use crate::camera::{Camera, single};
use crate::draw::{self, Canvas, Layers, Rgba};
use crate::report::{Extra, Reporter, Viewport};
use crate::scenes::{HeldKeys, SceneEntry, Source};
use crate::simulation::{PROFILE_HISTORY, SLOW_MOTION, Simulation};

/// Every shortcut and what it does, as the help window and the docs list them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "pause / run"),
    ("S", "single step (pauses first)"),
    ("R", "reset the scene"),
    ("M", "slow motion on / off (a quarter of real time)"),
    ("N / Shift+N", "next / previous scene"),
    ("F", "frame the scene"),
    ("Arrows", "pan"),
    ("A / D", "move the character left / right (character_mover, one_way_platform)"),
    ("W", "jump (character_mover, one_way_platform)"),
    ("Shift", "held: run (character_mover)"),
    ("X", "held: drop through a platform (one_way_platform)"),
    ("+ / −", "zoom in / out"),
    ("1", "shapes"),
    ("2", "contact points and normals"),
    ("3", "contact impulses"),
    ("4", "joints: anchors, axes, limits"),
    ("5", "bounding boxes"),
    ("6", "broad phase: regions and boxes"),
    ("7", "islands"),
    ("8", "centres of mass"),
    ("F12", "screenshot (PNG)"),
    ("H / F1", "this help"),
    ("Ctrl+Q", "quit"),
    ("Left drag", "drag a dynamic body (mouse joint); on empty space, pan"),
    ("Right / middle drag", "pan"),
    ("Wheel", "zoom about the pointer"),
];

/// Pixels the arrow keys pan per frame, and the zoom step of + and −.
const KEY_PAN: f32 = 12.0;
const KEY_ZOOM: f32 = 1.25;

/// The options the window starts with.
pub struct Options {
    pub report: Option<PathBuf>,
    pub screenshot_dir: PathBuf,
    pub paused: bool,
    pub layers: Layers,
}

/// Screenshots finished by egui's callbacks, which run outside `ui`.
#[derive(Default)]
struct Screenshots {
    written: usize,
    last: Option<String>,
    error: Option<String>,
}

pub struct TestbedApp {
    sim: Simulation,
    scenes: Vec<SceneEntry>,
    layers: Layers,
    camera: Camera,
    /// Frame the scene at the next frame (after a load, a reset asks for it too).
    frame_pending: bool,
    show_help: bool,
    /// Pointer drag that pans rather than drags a body.
    panning: bool,
    /// Why the last settings or thread count were refused.
    settings_error: Option<String>,
    reporter: Option<Reporter>,
    screenshot_dir: PathBuf,
    screenshots: Arc<Mutex<Screenshots>>,
    frame: u64,
    viewport: Viewport,
}

impl TestbedApp {
    pub fn new(sim: Simulation, scenes: Vec<SceneEntry>, options: Options) -> Self {
        let mut sim = sim;
        sim.paused = options.paused;
        Self {
            sim,
            scenes,
            layers: options.layers,
            camera: Camera::default(),
            frame_pending: true,
            show_help: false,
            panning: false,
            settings_error: None,
            reporter: options.report.as_deref().map(Reporter::new),
            screenshot_dir: options.screenshot_dir,
            screenshots: Arc::default(),
            frame: 0,
            viewport: Viewport::default(),
        }
    }

    fn load(&mut self, entry: SceneEntry) {
        self.sim.load(entry);
        self.frame_pending = true;
        self.settings_error = None;
    }

    /// The scene `offset` places after the current one in the list, wrapping.
    fn cycle_scene(&mut self, offset: isize) {
        let n = self.scenes.len() as isize;
        let here = self.scenes.iter().position(|s| s.name == self.sim.entry().name).unwrap_or(0) as isize;
        let next = self.scenes[(here + offset).rem_euclid(n) as usize].clone();
        self.load(next);
    }

    fn single_step(&mut self) {
        self.sim.paused = true;
        self.sim.step();
    }

    /// Asks egui for a picture of the next frame, written as a PNG by the callback.
    fn request_screenshot(&mut self, ctx: &egui::Context) {
        let index = self.screenshots.lock().map_or(0, |s| s.written) + 1;
        let name = format!("testbed-{}-{index:03}.png", self.sim.entry().name);
        let path = self.screenshot_dir.join(name).to_string_lossy().into_owned();
        let log = Arc::clone(&self.screenshots);
        ctx.request_screenshot(move |image| {
            let result = write_png(&image, &path);
            if let Ok(mut log) = log.lock() {
                match result {
                    Ok(()) => {
                        log.written += 1;
                        log.last = Some(path);
                    }
                    Err(e) => log.error = Some(e),
                }
            }
        });
    }

    /// Keyboard shortcuts; see [`SHORTCUTS`].
    fn handle_keys(&mut self, ctx: &egui::Context) {
        // Typing a number into a settings field is not a shortcut.
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let pressed = |key: Key| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, key));
        if ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::Q)) {
            ctx.send_viewport_cmd(ViewportCommand::Close);
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::SHIFT, Key::N)) {
            self.cycle_scene(-1);
        }
        if pressed(Key::Space) {
            self.sim.paused = !self.sim.paused;
        }
        if pressed(Key::S) {
            self.single_step();
        }
        if pressed(Key::R) {
            self.sim.reset();
        }
        if pressed(Key::M) {
            self.sim.slow_motion = !self.sim.slow_motion;
        }
        if pressed(Key::N) {
            self.cycle_scene(1);
        }
        if pressed(Key::F) {
            self.frame_pending = true;
        }
        if pressed(Key::H) || pressed(Key::F1) {
            self.show_help = !self.show_help;
        }
        if pressed(Key::F12) {
            self.request_screenshot(ctx);
        }
        let layers = &mut self.layers;
        let toggles: [(Key, &mut bool); 8] = [
            (Key::Num1, &mut layers.shapes),
            (Key::Num2, &mut layers.contacts),
            (Key::Num3, &mut layers.impulses),
            (Key::Num4, &mut layers.joints),
            (Key::Num5, &mut layers.aabbs),
            (Key::Num6, &mut layers.broad_phase),
            (Key::Num7, &mut layers.islands),
            (Key::Num8, &mut layers.centres),
        ];
        for (key, flag) in toggles {
            if pressed(key) {
                *flag = !*flag;
            }
        }
        let size = self.viewport.size;
        let centre = (0.5 * size.0, 0.5 * size.1);
        if ctx.input(|i| i.key_pressed(Key::Plus) || i.key_pressed(Key::Equals)) {
            self.camera.zoom_about(KEY_ZOOM, centre, size);
        }
        if ctx.input(|i| i.key_pressed(Key::Minus)) {
            self.camera.zoom_about(1.0 / KEY_ZOOM, centre, size);
        }
        let held = |key: Key| ctx.input(|i| i.key_down(key));
        let (mut dx, mut dy) = (0.0, 0.0);
        dx += if held(Key::ArrowLeft) { KEY_PAN } else { 0.0 };
        dx -= if held(Key::ArrowRight) { KEY_PAN } else { 0.0 };
        dy += if held(Key::ArrowUp) { KEY_PAN } else { 0.0 };
        dy -= if held(Key::ArrowDown) { KEY_PAN } else { 0.0 };
        if dx != 0.0 || dy != 0.0 {
            self.camera.pan((dx, dy));
        }
    }

    /// The keys a scene is steered by, held now: none while a settings
    /// field takes the typing, as for the shortcuts. None of them is a
    /// shortcut (Shift only with N, which steers nothing).
    fn held_keys(ctx: &egui::Context) -> HeldKeys {
        if ctx.egui_wants_keyboard_input() {
            return HeldKeys::default();
        }
        ctx.input(|i| HeldKeys {
            left: i.key_down(Key::A),
            right: i.key_down(Key::D),
            jump: i.key_down(Key::W),
            drop: i.key_down(Key::X),
            run: i.modifiers.shift,
        })
    }

    fn scene_list(&mut self, ui: &mut Ui) {
        let mut chosen = None;
        let sections =
            [(Source::Example, "Examples"), (Source::Benchmark, "Benchmarks"), (Source::File, "Files")];
        for (source, title) in sections {
            if !self.scenes.iter().any(|s| s.source == source) {
                continue;
            }
            ui.heading(title);
            for entry in self.scenes.iter().filter(|s| s.source == source) {
                let selected = entry.name == self.sim.entry().name;
                if ui.selectable_label(selected, entry.name.as_str()).on_hover_text(entry.about).clicked() {
                    chosen = Some(entry.clone());
                }
            }
            ui.add_space(8.0);
        }
        if let Some(entry) = chosen {
            self.load(entry);
        }
    }

    fn controls(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            let run = if self.sim.paused { "Run" } else { "Pause" };
            if ui.button(run).on_hover_text("Space").clicked() {
                self.sim.paused = !self.sim.paused;
            }
            if ui.button("Step").on_hover_text("S").clicked() {
                self.single_step();
            }
            if ui.button("Reset").on_hover_text("R").clicked() {
                self.sim.reset();
            }
            ui.checkbox(&mut self.sim.slow_motion, format!("Slow motion ×{SLOW_MOTION}")).on_hover_text("M");
            if ui.button("Frame").on_hover_text("F").clicked() {
                self.frame_pending = true;
            }
            if ui.button("Help").on_hover_text("H").clicked() {
                self.show_help = !self.show_help;
            }
        });
    }

    /// The live settings: each change is applied to the world at once.
    fn settings_panel(&mut self, ui: &mut Ui) {
        let Some(world) = self.sim.world() else { return };
        let before = *world.settings();
        let mut s = before;
        egui::Grid::new("settings").num_columns(2).show(ui, |ui| {
            ui.label("gravity x, y");
            ui.horizontal(|ui| {
                ui.add(egui::DragValue::new(&mut s.gravity.x).speed(0.1).suffix(" m/s²"));
                ui.add(egui::DragValue::new(&mut s.gravity.y).speed(0.1).suffix(" m/s²"));
            });
            ui.end_row();
            ui.label("substeps");
            ui.add(egui::Slider::new(&mut s.substeps, 1..=16));
            ui.end_row();
            ui.label("contact stiffness");
            ui.add(egui::Slider::new(&mut s.contact_hertz, 1.0..=240.0).suffix(" Hz"));
            ui.end_row();
            ui.label("contact damping");
            ui.add(egui::Slider::new(&mut s.contact_damping_ratio, 0.0..=20.0));
            ui.end_row();
            ui.label("contact push-out");
            ui.add(egui::Slider::new(&mut s.contact_push_max_velocity, 0.0..=10.0).suffix(" m/s"));
            ui.end_row();
            ui.label("joint stiffness");
            ui.add(egui::Slider::new(&mut s.joint_hertz, 0.0..=240.0).suffix(" Hz"));
            ui.end_row();
            ui.label("joint damping");
            ui.add(egui::Slider::new(&mut s.joint_damping_ratio, 0.0..=20.0));
            ui.end_row();
        });
        ui.checkbox(&mut s.enable_sleep, "sleep");
        ui.checkbox(&mut s.enable_warm_starting, "warm starting");
        ui.checkbox(&mut s.enable_continuous, "continuous collision");
        if s != before {
            self.settings_error = self.sim.apply_settings(s).err();
        }
        let mut threads = self.sim.threads();
        let most = std::thread::available_parallelism().map_or(8, |n| n.get()).max(8);
        ui.add(egui::Slider::new(&mut threads, 1..=most).text("threads"));
        if threads != self.sim.threads() {
            self.settings_error = self.sim.set_threads(threads).err();
        }
        if let Some(e) = &self.settings_error {
            ui.colored_label(Color32::from_rgb(200, 40, 40), e);
        }
    }

    fn layers_panel(&mut self, ui: &mut Ui) {
        let l = &mut self.layers;
        ui.checkbox(&mut l.shapes, "1  shapes by state");
        ui.checkbox(&mut l.contacts, "2  contact points, normals");
        ui.checkbox(&mut l.impulses, "3  contact impulses");
        ui.checkbox(&mut l.joints, "4  joints, anchors, limits");
        ui.checkbox(&mut l.aabbs, "5  bounding boxes");
        ui.checkbox(&mut l.broad_phase, "6  broad phase: regions and boxes");
        ui.checkbox(&mut l.islands, "7  islands");
        ui.checkbox(&mut l.centres, "8  centres of mass");
        ui.add_space(4.0);
        ui.horizontal_wrapped(|ui| {
            for (name, (fill, _)) in [
                ("awake", draw::palette::AWAKE),
                ("asleep", draw::palette::ASLEEP),
                ("fixed", draw::palette::FIXED),
                ("kinematic", draw::palette::KINEMATIC),
                ("bullet", draw::palette::BULLET),
                ("held", draw::palette::HELD),
            ] {
                ui.label(RichText::new("■").color(color(fill)));
                ui.label(name);
            }
        });
    }

    /// Counts, the state hash and the step profile as a scrolling plot.
    fn profile_panel(&mut self, ui: &mut Ui) {
        let Some(world) = self.sim.world() else { return };
        let p = world.profile();
        egui::Grid::new("counts").num_columns(2).show(ui, |ui| {
            let mut row = |name: &str, value: String| {
                ui.label(name);
                ui.monospace(value);
                ui.end_row();
            };
            row("bodies", format!("{} ({} awake)", world.body_count(), p.awake_bodies));
            row("contacts", format!("{} ({} touching)", p.contacts, p.touching_contacts));
            row("joints", world.joint_count().to_string());
            row("step", format!("{:.3} ms", p.step.as_secs_f64() * 1e3));
            row("state hash", format!("{:016x}", world.state_hash()));
        });
        let history = &self.sim.profiles;
        egui_plot::Plot::new("profile")
            .height(160.0)
            .legend(egui_plot::Legend::default())
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .include_y(0.0)
            .y_axis_label("ms")
            .show(ui, |plot| {
                for (i, name) in PHASES.iter().enumerate() {
                    let points: Vec<[f64; 2]> = history
                        .iter()
                        .map(|(step, p)| [*step as f64, phase_times(p)[i].as_secs_f64() * 1e3])
                        .collect();
                    plot.line(egui_plot::Line::new(*name, points));
                }
            });
        ui.weak(format!("the last {PROFILE_HISTORY} steps"));
    }

    fn help_window(&mut self, ctx: &egui::Context) {
        let mut open = self.show_help;
        egui::Window::new("Shortcuts").open(&mut open).resizable(false).show(ctx, |ui| {
            egui::Grid::new("shortcuts").num_columns(2).striped(true).show(ui, |ui| {
                for (keys, what) in SHORTCUTS {
                    ui.monospace(*keys);
                    ui.label(*what);
                    ui.end_row();
                }
            });
        });
        self.show_help = open;
    }

    fn status_line(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let state = if self.sim.paused { "paused" } else { "running" };
            let t = self.sim.steps as f64 * f64::from(single(self.sim.dt()));
            ui.monospace(format!(
                "{}  step {}  t = {t:.2} s  {state}",
                self.sim.entry().name,
                self.sim.steps
            ));
            if self.sim.slow_motion {
                ui.monospace(format!("slow motion ×{SLOW_MOTION}"));
            }
            if let Ok(log) = self.screenshots.lock() {
                if let Some(e) = &log.error {
                    ui.colored_label(Color32::from_rgb(200, 40, 40), e);
                } else if let Some(last) = &log.last {
                    ui.weak(format!("screenshot: {last}"));
                }
            }
        });
    }

    /// The world, and the pointer on it.
    fn scene_view(&mut self, ui: &mut Ui) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let rect = response.rect;
        let size = (rect.width(), rect.height());
        painter.rect_filled(rect, 0.0, color(draw::BACKGROUND));
        if self.frame_pending && size.0 > 1.0 && size.1 > 1.0 {
            self.camera = self.sim.framing(size);
            self.frame_pending = false;
        }
        let pixels_per_point = ui.ctx().pixels_per_point();
        self.viewport =
            Viewport { camera: self.camera, origin: (rect.min.x, rect.min.y), size, pixels_per_point };
        self.handle_pointer(ui, &response, rect);

        if let Some(world) = self.sim.world() {
            let mut canvas = PainterCanvas { painter: &painter, camera: self.camera, rect };
            let held = self.sim.held();
            draw::draw_world(
                &mut canvas,
                world,
                &self.layers,
                held.map(|(b, ..)| b),
                held.map(|(_, grip, target)| (grip, target)),
                &self.sim.overlay(),
            );
        }
        if let Some(e) = &self.sim.error {
            let text = format!("{e}\n\nPick another scene, or press R to try again.");
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(16.0),
                Color32::from_rgb(190, 30, 30),
            );
        }
    }

    /// Left drag on a dynamic body holds it with a mouse joint; elsewhere, or
    /// with the other buttons, the drag pans. The wheel zooms.
    fn handle_pointer(&mut self, ui: &Ui, response: &egui::Response, rect: Rect) {
        let size = (rect.width(), rect.height());
        let local = |p: Pos2| (p.x - rect.min.x, p.y - rect.min.y);
        let (pressed, released, pointer, delta) = ui.input(|i| {
            (
                i.pointer.button_pressed(PointerButton::Primary),
                i.pointer.button_released(PointerButton::Primary),
                i.pointer.interact_pos(),
                i.pointer.delta(),
            )
        });
        if pressed && let Some(p) = pointer.filter(|p| rect.contains(*p) && response.hovered()) {
            let at = self.camera.to_world(local(p), size);
            self.panning = !self.sim.grab(at);
        }
        if let Some(p) = pointer
            && self.sim.held().is_some()
        {
            self.sim.drag_to(self.camera.to_world(local(p), size));
        }
        let other =
            response.dragged_by(PointerButton::Secondary) || response.dragged_by(PointerButton::Middle);
        if (self.panning && response.dragged_by(PointerButton::Primary)) || other {
            self.camera.pan((delta.x, delta.y));
        }
        if released {
            self.sim.release();
            self.panning = false;
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta().y);
            if scroll != 0.0
                && let Some(p) = pointer
            {
                self.camera.zoom_about((scroll * 0.002).exp(), local(p), size);
            }
        }
    }
}

impl eframe::App for TestbedApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.handle_keys(&ctx);
        self.sim.keys(&Self::held_keys(&ctx));
        self.sim.advance(f64::from(ctx.input(|i| i.stable_dt).min(0.1)));

        egui::Panel::left("scenes").resizable(false).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| self.scene_list(ui));
        });
        egui::Panel::right("panels").default_size(300.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                self.controls(ui);
                ui.separator();
                ui.collapsing("Settings", |ui| self.settings_panel(ui));
                ui.collapsing("Debug draw", |ui| self.layers_panel(ui));
                egui::CollapsingHeader::new("Profile")
                    .default_open(true)
                    .show(ui, |ui| self.profile_panel(ui));
            });
        });
        egui::Panel::bottom("status").show(ui, |ui| self.status_line(ui));
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| self.scene_view(ui));
        self.help_window(&ctx);

        self.frame += 1;
        if let Some(reporter) = &self.reporter {
            let (screenshots, last_screenshot) =
                self.screenshots.lock().map_or((0, None), |s| (s.written, s.last.clone()));
            let extra = Extra { frame: self.frame, viewport: self.viewport, screenshots, last_screenshot };
            if let Err(e) = reporter.write(&self.sim, &extra) {
                self.settings_error = Some(e);
            }
        }
        ctx.request_repaint();
    }
}

/// The phases of a step the profile plots, in the order of [`phase_times`].
const PHASES: [&str; 5] = ["broad", "narrow", "solver", "finalise", "sleep"];

/// The time each of [`PHASES`] took in a step.
fn phase_times(p: &StepProfile) -> [std::time::Duration; 5] {
    [p.broad_phase, p.narrow_phase, p.solver, p.finalize, p.sleep]
}

fn color([r, g, b, a]: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

/// A [`Canvas`] over egui's painter, clipped to the scene's area.
struct PainterCanvas<'a> {
    painter: &'a egui::Painter,
    camera: Camera,
    rect: Rect,
}

impl PainterCanvas<'_> {
    fn map(&self, p: &Point) -> Pos2 {
        let (x, y) = self.camera.to_screen(p, (self.rect.width(), self.rect.height()));
        Pos2::new(self.rect.min.x + x, self.rect.min.y + y)
    }
}

impl Canvas for PainterCanvas<'_> {
    fn polygon(&mut self, points: &[Point], fill: Rgba, outline: Rgba) {
        let points: Vec<Pos2> = points.iter().map(|p| self.map(p)).collect();
        self.painter.add(egui::Shape::convex_polygon(points, color(fill), Stroke::new(1.0, color(outline))));
    }

    fn circle(&mut self, centre: Point, radius: Real, fill: Rgba, outline: Rgba) {
        let r = (single(radius) * self.camera.pixels_per_metre).max(0.5);
        self.painter.circle(self.map(&centre), r, color(fill), Stroke::new(1.0, color(outline)));
    }

    fn segment(&mut self, a: Point, b: Point, width: f32, rgba: Rgba) {
        self.painter.line_segment([self.map(&a), self.map(&b)], Stroke::new(width, color(rgba)));
    }

    fn dot(&mut self, at: Point, radius: f32, rgba: Rgba) {
        self.painter.circle_filled(self.map(&at), radius, color(rgba));
    }

    fn metres_per_pixel(&self) -> Real {
        1.0 / self.camera.pixels_per_metre as Real
    }
}

/// Writes egui's screenshot as a PNG.
fn write_png(image: &egui::ColorImage, path: &str) -> Result<(), String> {
    let [w, h] = image.size;
    let size = tiny_skia::IntSize::from_wh(w as u32, h as u32).ok_or("an empty screenshot")?;
    // The window is opaque, so egui's premultiplied pixels are plain RGBA.
    let pixmap =
        tiny_skia::Pixmap::from_vec(image.as_raw().to_vec(), size).ok_or("a malformed screenshot")?;
    pixmap.save_png(path).map_err(|e| format!("cannot write {path}: {e}"))
}
