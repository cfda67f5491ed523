//! Loads a scene file (JSON written by hand, see `docs/guide.md`, *Scene
//! files*), steps it, and prints where each named body ended, the joints'
//! last forces, how much of the world sleeps, and the state hash, which is
//! the same on every run of the same build.
//!
//! ```text
//! cargo run --release --features serde --example scene_file -- [PATH] [--seconds S]
//! ```
//!
//! With no path it runs `examples/scene_files/pyramid_and_pendulum.json`: a
//! pendulum swung into a pyramid of boxes, inside a chain that holds them.

use std::path::PathBuf;
use std::process::ExitCode;

use lamina2d::prelude::*;

/// The scene run when no path is given.
const DEFAULT_SCENE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/examples/scene_files/pyramid_and_pendulum.json");
const USAGE: &str = "usage: scene_file [PATH] [--seconds S]";

/// The command line: the file and how long to simulate, s.
fn parse() -> Result<(PathBuf, Real), String> {
    let (mut path, mut seconds) = (PathBuf::from(DEFAULT_SCENE), 5.0);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                let value = args.next().ok_or("--seconds needs a value")?;
                seconds = value.parse().map_err(|_| format!("--seconds wants a number, got {value:?}"))?;
                if !(0.0..=3600.0).contains(&seconds) {
                    return Err(format!("--seconds must be 0 to 3600, got {value}"));
                }
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg:?}\n{USAGE}")),
            _ => path = PathBuf::from(arg),
        }
    }
    Ok((path, seconds))
}

/// Loads, builds and steps the scene, printing what became of it.
fn run(path: &PathBuf, seconds: Real) -> Result<(), Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let scene = Scene::from_json(&text)?;
    let (mut world, keys) = scene.build()?;
    let steps = (seconds / scene.time_step).round() as usize;
    println!(
        "{}: bodies {}, colliders {}, joints {}; {steps} steps of {:.4} s",
        path.display(),
        world.body_count(),
        world.colliders().count(),
        world.joint_count(),
        scene.time_step
    );
    for _ in 0..steps {
        world.step(scene.time_step)?;
    }

    for (body, &key) in scene.bodies.iter().zip(keys.bodies()) {
        let (Some(name), Some(b)) = (&body.name, world.body(key)) else { continue };
        let (start, end) = (body.translation, b.position().translation);
        println!(
            "  body {name:<10} from ({:>6.2}, {:>6.2}) to ({:>6.2}, {:>6.2}), speed {:.3} m/s{}",
            start[0],
            start[1],
            end.x,
            end.y,
            b.linear_velocity().norm(),
            if b.is_sleeping() { ", asleep" } else { "" }
        );
    }
    for (joint, &key) in scene.joints.iter().zip(keys.joints()) {
        let (Some(name), Some(j)) = (joint.name(), world.joint(key)) else { continue };
        let (a, b) = (world.body(j.body_a()), world.body(j.body_b()));
        let separation = match (a, b) {
            (Some(a), Some(b)) => {
                format!(", bodies {:.3} m apart", (b.translation() - a.translation()).norm())
            }
            _ => String::new(),
        };
        println!(
            "  joint {name:<10} {:?}: force {:.1} N, torque {:.1} N·m{separation}",
            j.kind(),
            j.constraint_force().norm(),
            j.constraint_torque()
        );
    }
    let asleep = world.bodies().filter(|(_, b)| b.is_sleeping()).count();
    println!("{asleep} of {} bodies asleep; state hash {:016x}", world.body_count(), world.state_hash());
    Ok(())
}

fn main() -> ExitCode {
    let result = parse().map_err(Into::into).and_then(|(path, seconds)| run(&path, seconds));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("scene_file: {e}");
            ExitCode::from(2)
        }
    }
}
