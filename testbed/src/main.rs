//! Lamina's testbed: every example and benchmark scene in a window, to run,
//! pause, step, drag and look into; or, headless, a picture of a scene after
//! a number of steps.
//!
//! ```text
//! cargo run --release                                   # the window
//! cargo run --release -- --scene bridge                 # the window, on a scene
//! cargo run --release -- --scene pyramid --frames 120 --screenshot out.png
//! cargo run --release -- --scene-file my_scene.json     # a scene file, in the window
//! ```
//!
//! See `docs/testbed.md` for the panels, the shortcuts and how to add a scene.

mod app;
mod camera;
mod draw;
mod headless;
mod report;
mod scenes;
mod simulation;

use std::path::PathBuf;
use std::process::ExitCode;

use simulation::Simulation;

const USAGE: &str = "usage: lamina-testbed [--scene NAME | --scene-file PATH] [--threads N] [--paused]
                      [--layers LIST] [--report state.json] [--screenshot-dir DIR]
       lamina-testbed (--scene NAME | --scene-file PATH) [--frames N] --screenshot out.png
                      [--size WxH] [--layers LIST]
       lamina-testbed --list
PATH: a scene file (JSON, see the user's guide); --scene takes one too when it ends in .json
LIST: debug layers separated by commas, from shapes, contacts, impulses, joints, aabbs,
broad_phase, islands, centres (default: shapes,joints)";

/// The command line.
struct Args {
    scene: String,
    /// A scene file to run instead of the scene called `scene`.
    scene_file: Option<PathBuf>,
    threads: usize,
    paused: bool,
    report: Option<PathBuf>,
    screenshot_dir: PathBuf,
    /// Headless: steps, picture and its size.
    frames: Option<usize>,
    screenshot: Option<String>,
    size: (u32, u32),
    layers: draw::Layers,
    list: bool,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        scene: "pyramid".to_string(),
        scene_file: None,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        paused: false,
        report: None,
        screenshot_dir: PathBuf::from("."),
        frames: None,
        screenshot: None,
        size: (960, 540),
        layers: draw::Layers::default(),
        list: false,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--scene" => {
                let scene = value("--scene")?;
                if scenes::is_file_name(&scene) {
                    parsed.scene_file = Some(PathBuf::from(scene));
                } else {
                    (parsed.scene, parsed.scene_file) = (scene, None);
                }
            }
            "--scene-file" => parsed.scene_file = Some(PathBuf::from(value("--scene-file")?)),
            "--threads" => {
                let v = value("--threads")?;
                parsed.threads =
                    v.parse().map_err(|_| format!("--threads wants a whole number, got {v:?}"))?;
                if !(1..=256).contains(&parsed.threads) {
                    return Err(format!("--threads must be 1 to 256, got {v}"));
                }
            }
            "--paused" => parsed.paused = true,
            "--report" => parsed.report = Some(PathBuf::from(value("--report")?)),
            "--screenshot-dir" => parsed.screenshot_dir = PathBuf::from(value("--screenshot-dir")?),
            "--frames" => {
                let v = value("--frames")?;
                let frames = v.parse().map_err(|_| format!("--frames wants a whole number, got {v:?}"))?;
                parsed.frames = Some(frames);
            }
            "--screenshot" => parsed.screenshot = Some(value("--screenshot")?),
            "--size" => {
                let v = value("--size")?;
                let size = v.split_once('x').and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)));
                parsed.size = match size {
                    Some((w, h)) if (16..=8192).contains(&w) && (16..=8192).contains(&h) => (w, h),
                    _ => return Err(format!("--size wants WIDTHxHEIGHT, 16 to 8192 each, got {v:?}")),
                };
            }
            "--layers" => parsed.layers = draw::Layers::parse(&value("--layers")?)?,
            "--list" => parsed.list = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    if parsed.frames.is_some() && parsed.screenshot.is_none() {
        return Err("--frames renders headless and needs --screenshot out.png".to_string());
    }
    Ok(parsed)
}

fn run(args: Args) -> Result<(), String> {
    if args.list {
        for entry in scenes::all() {
            println!("{:<16} {}", entry.name, entry.about);
        }
        return Ok(());
    }
    let mut list = scenes::all();
    let entry = match &args.scene_file {
        Some(path) => {
            let file = scenes::from_file(path);
            list.push(file.clone());
            file
        }
        None => scenes::find(&args.scene)
            .ok_or_else(|| format!("no scene {:?}; scenes: {}", args.scene, scenes::names().join(", ")))?,
    };
    let mut sim = Simulation::new(entry, args.threads)?;
    if let Some(screenshot) = args.screenshot {
        let job = headless::Job {
            frames: args.frames.unwrap_or(120),
            screenshot,
            size: args.size,
            layers: args.layers,
        };
        println!("{}", headless::run(&mut sim, &job)?);
        return Ok(());
    }
    // A scene that fails to build opens anyway, showing its error.
    if let Some(e) = &sim.error {
        eprintln!("lamina-testbed: {e}");
    }
    let options = app::Options {
        report: args.report,
        screenshot_dir: args.screenshot_dir,
        paused: args.paused,
        layers: args.layers,
    };
    let native = eframe::NativeOptions {
        viewport: eframe::egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_title("Lamina testbed"),
        ..eframe::NativeOptions::default()
    };
    eframe::run_native(
        "Lamina testbed",
        native,
        Box::new(move |_| Ok(Box::new(app::TestbedApp::new(sim, list, options)))),
    )
    .map_err(|e| format!("cannot open the window: {e}"))
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lamina-testbed: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Args {
        parse(args.iter().map(|a| a.to_string())).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_scene_file_is_given_by_flag_or_by_a_json_name() {
        let flag = parsed(&["--scene-file", "scenes/a.json"]);
        assert_eq!(flag.scene_file, Some(PathBuf::from("scenes/a.json")));
        let name = parsed(&["--scene", "b.json", "--frames", "5", "--screenshot", "out.png"]);
        assert_eq!(name.scene_file, Some(PathBuf::from("b.json")));
        let scene = parsed(&["--scene-file", "a.json", "--scene", "bridge"]);
        assert_eq!((scene.scene.as_str(), scene.scene_file), ("bridge", None));
        assert!(parse(["--scene-file".to_string()].into_iter()).is_err());
    }
}
