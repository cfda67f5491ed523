//! The state file (`--report state.json`): what the window shows, written
//! after every frame as a small JSON object, so that a script driving the
//! testbed from outside (the end-to-end test) can check what happened. The
//! file is written to a temporary name and renamed over the old one, so that
//! a reader never sees half of it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use lamina2d::prelude::*;

use crate::camera::{Camera, single};
use crate::simulation::Simulation;

/// Where the world shows in the window: the camera, and the top-left corner
/// and size of the scene's area, in window pixels.
#[derive(Clone, Copy, Debug, Default)]
pub struct Viewport {
    pub camera: Camera,
    pub origin: (f32, f32),
    pub size: (f32, f32),
    /// Window pixels per egui point: the positions above are in points.
    pub pixels_per_point: f32,
}

impl Viewport {
    /// The window pixel (not point) where world point `p` shows.
    pub fn to_window(self, p: &Point) -> (f32, f32) {
        let (x, y) = self.camera.to_screen(p, self.size);
        ((self.origin.0 + x) * self.pixels_per_point, (self.origin.1 + y) * self.pixels_per_point)
    }
}

/// What the app reports besides the simulation.
#[derive(Clone, Debug, Default)]
pub struct Extra {
    pub frame: u64,
    pub viewport: Viewport,
    /// Screenshots written so far, and the last one's path.
    pub screenshots: usize,
    pub last_screenshot: Option<String>,
}

/// Writes reports to one path.
pub struct Reporter {
    path: PathBuf,
    temporary: PathBuf,
}

impl Reporter {
    pub fn new(path: &Path) -> Self {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".tmp");
        Self { path: path.to_path_buf(), temporary: PathBuf::from(temporary) }
    }

    /// Replaces the file with the current state.
    pub fn write(&self, sim: &Simulation, extra: &Extra) -> Result<(), String> {
        let text = state_json(sim, extra);
        std::fs::write(&self.temporary, text)
            .and_then(|()| std::fs::rename(&self.temporary, &self.path))
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

fn point(p: &Point) -> String {
    format!("[{:.4}, {:.4}]", single(p.x), single(p.y))
}

/// A string as JSON.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The state as a JSON object, one field a line.
pub fn state_json(sim: &Simulation, extra: &Extra) -> String {
    let world = sim.world();
    let count = |f: fn(&World) -> usize| world.map_or(0, f);
    let vp = &extra.viewport;
    let drag = match &sim.drag {
        Some(d) => {
            let (sx, sy) = vp.to_window(&d.position);
            format!(
                "{{\"active\": {}, \"start\": {}, \"position\": {}, \"distance\": {:.4}, \"window\": [{sx:.1}, {sy:.1}]}}",
                d.active,
                point(&d.start),
                point(&d.position),
                single((d.position - d.start).norm())
            )
        }
        None => "null".to_string(),
    };
    let fields = [
        ("scene", quoted(&sim.entry().name)),
        ("frame", extra.frame.to_string()),
        ("steps", sim.steps.to_string()),
        ("paused", sim.paused.to_string()),
        ("slow_motion", sim.slow_motion.to_string()),
        ("threads", sim.threads().to_string()),
        ("bodies", count(World::body_count).to_string()),
        ("joints", count(World::joint_count).to_string()),
        ("contacts", count(|w| w.contacts().filter(|c| c.is_touching()).count()).to_string()),
        ("state_hash", quoted(&world.map_or(String::new(), |w| format!("{:016x}", w.state_hash())))),
        ("error", sim.error.as_deref().map_or("null".to_string(), quoted)),
        ("drag", drag),
        (
            "camera",
            format!(
                "{{\"centre\": [{:.4}, {:.4}], \"pixels_per_metre\": {:.4}, \"origin\": [{:.1}, {:.1}], \"size\": [{:.1}, {:.1}], \"pixels_per_point\": {:.3}}}",
                vp.camera.centre.0,
                vp.camera.centre.1,
                vp.camera.pixels_per_metre,
                vp.origin.0,
                vp.origin.1,
                vp.size.0,
                vp.size.1,
                vp.pixels_per_point
            ),
        ),
        ("screenshots", extra.screenshots.to_string()),
        ("last_screenshot", extra.last_screenshot.as_deref().map_or("null".to_string(), quoted)),
    ];
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("  \"{k}\": {v}")).collect();
    format!("{{\n{}\n}}\n", body.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes;

    #[test]
    fn the_state_names_its_scene_and_counts_steps() {
        let mut sim = Simulation::new(scenes::find("dominoes").unwrap(), 1).unwrap();
        sim.step();
        sim.paused = true;
        let json = state_json(&sim, &Extra { frame: 7, ..Extra::default() });
        for part in
            ["\"scene\": \"dominoes\"", "\"frame\": 7", "\"steps\": 1", "\"paused\": true", "\"drag\": null"]
        {
            assert!(json.contains(part), "{part} missing from {json}");
        }
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(quoted("a \"b\"\\\n"), "\"a \\\"b\\\"\\\\\\u000a\"");
    }
}
