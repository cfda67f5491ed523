//! Every scene the testbed can run, built by the very code of the examples
//! (`examples/scenes/`) and of the benchmark (`benches/scenes/`), included here
//! by path: a scene has one definition, whoever runs it. Scene files (JSON,
//! `lamina2d::scene`) given on the command line run too, read again at each
//! reset so that a file being edited can be tried as it changes.
//!
//! A scene that does something each step (fires a ball, steers an arm, runs a
//! character, casts a lidar's rays, rains bodies) does it through a [`Driver`]
//! that calls the scene file's own functions. Building runs under
//! `catch_unwind`, so that a scene that panics while it is built (the
//! benchmark scenes panic on a refused collider) shows as an error rather than
//! taking the testbed down.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use lamina2d::prelude::*;

use crate::draw::{Line, Rgba};

// The examples print reports that use more of each scene file than the testbed does.
#[allow(dead_code)]
#[path = "../../benches/scenes/mod.rs"]
mod bench;
#[allow(dead_code)]
#[path = "../../examples/scenes/bounce.rs"]
mod bounce;
#[allow(dead_code)]
#[path = "../../examples/scenes/bridge.rs"]
mod bridge;
#[allow(dead_code)]
#[path = "../../examples/scenes/car.rs"]
mod car;
#[allow(dead_code)]
#[path = "../../examples/scenes/character_mover.rs"]
mod character_mover;
#[allow(dead_code)]
#[path = "../../examples/scenes/conveyor.rs"]
mod conveyor;
#[allow(dead_code)]
#[path = "../../examples/scenes/dominoes.rs"]
mod dominoes;
#[allow(dead_code)]
#[path = "../../examples/scenes/incline.rs"]
mod incline;
#[allow(dead_code)]
#[path = "../../examples/scenes/joints.rs"]
mod joints;
#[allow(dead_code)]
#[path = "../../examples/scenes/one_way_platform.rs"]
mod one_way_platform;
#[allow(dead_code)]
#[path = "../../examples/scenes/platformer.rs"]
mod platformer;
#[allow(dead_code)]
#[path = "../../examples/scenes/pyramid.rs"]
mod pyramid;
// The ragdoll scene brings its own copy of Box2D's human, as the benchmark's scenes do.
#[allow(dead_code, clippy::duplicate_mod)]
#[path = "../../examples/scenes/ragdoll.rs"]
mod ragdoll;
#[allow(dead_code)]
#[path = "../../examples/scenes/raycast.rs"]
mod raycast;
#[allow(dead_code)]
#[path = "../../examples/scenes/robot_arm.rs"]
mod robot_arm;
#[allow(dead_code)]
#[path = "../../examples/scenes/vertical_stack.rs"]
mod vertical_stack;

/// Where a scene comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// An example of `examples/`.
    Example,
    /// A scene of the benchmark, `benches/scenes/`.
    Benchmark,
    /// A scene file given on the command line.
    File,
}

/// One entry of the scene list.
#[derive(Clone)]
pub struct SceneEntry {
    /// The name on the command line and in the list (the file's name for a scene file).
    pub name: String,
    pub source: Source,
    /// One line on what the scene shows.
    pub about: &'static str,
    builder: Builder,
}

/// How a scene is built.
#[derive(Clone)]
enum Builder {
    /// An example scene, wrapped with its driver below.
    Example(fn() -> Result<Loaded, String>),
    /// A benchmark scene's world and its update hook, if it has one.
    Benchmark { build: fn() -> World, update: Option<fn(&mut World, usize)> },
    /// A scene file, read each time the scene is built.
    File(PathBuf),
}

/// The keys held down in the window that a scene may be steered by (the
/// character scenes): read once a frame, none while a settings field takes
/// the typing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeldKeys {
    /// A: move left.
    pub left: bool,
    /// D: move right.
    pub right: bool,
    /// W: jump.
    pub jump: bool,
    /// X: drop through a one-way platform.
    pub drop: bool,
    /// Shift: run.
    pub run: bool,
}

impl HeldKeys {
    /// Whether a key that steers is held (Shift alone does not steer: it
    /// also goes with N).
    pub fn steering(&self) -> bool {
        self.left || self.right || self.jump || self.drop
    }

    /// −1 for left, 1 for right, 0 for both or neither.
    pub fn throttle(&self) -> Real {
        Real::from(u8::from(self.right)) - Real::from(u8::from(self.left))
    }
}

/// What a running scene does around each step, besides the physics.
pub trait Driver {
    /// The keys held in the window this frame, given before the frame's steps.
    fn keys(&mut self, _held: &HeldKeys) {}

    /// Runs before step `step` (counted from 0 since the scene was built).
    fn before_step(&mut self, _world: &mut World, _step: usize) -> Result<(), String> {
        Ok(())
    }

    /// Lines the scene draws over the world, such as a lidar's beams.
    fn overlay(&self, _world: &World) -> Vec<Line> {
        Vec::new()
    }
}

/// A scene that only steps.
struct Passive;

impl Driver for Passive {}

/// A scene built and ready to step.
pub struct Loaded {
    pub world: World,
    /// The scene's time step, s.
    pub dt: Real,
    /// The part of the world the scene frames, if it says; otherwise the
    /// view fits the colliders.
    pub view: Option<(Point, Point)>,
    pub driver: Box<dyn Driver>,
}

impl Loaded {
    fn new(world: World, dt: Real, view: Option<(Point, Point)>, driver: impl Driver + 'static) -> Self {
        Self { world, dt, view, driver: Box::new(driver) }
    }
}

impl SceneEntry {
    /// Builds the scene; a scene that fails, or panics, gives an error that
    /// names it.
    pub fn build(&self) -> Result<Loaded, String> {
        let build = || match &self.builder {
            Builder::Example(build) => build(),
            &Builder::Benchmark { build, update } => {
                Ok(Loaded::new(build(), bench::TIME_STEP, None, BenchDriver { update }))
            }
            Builder::File(path) => build_file(path),
        };
        match catch_unwind(AssertUnwindSafe(build)) {
            Ok(Ok(loaded)) => Ok(loaded),
            Ok(Err(e)) => Err(format!("scene `{}` failed to build: {e}", self.name)),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("no message");
                Err(format!("scene `{}` panicked while it was built: {message}", self.name))
            }
        }
    }
}

/// Every scene, examples first, in the order of the list.
pub fn all() -> Vec<SceneEntry> {
    let example = |name: &str, about, build: fn() -> Result<Loaded, String>| SceneEntry {
        name: name.to_string(),
        source: Source::Example,
        about,
        builder: Builder::Example(build),
    };
    let mut scenes = vec![
        example("pyramid", "a 20-row pyramid settles, then a heavy ball smashes it", build_pyramid),
        example("vertical_stack", "three 20-box stacks with sleep off", build_vertical_stack),
        example("incline", "blocks with friction 0.1 to 0.9 on 30° ramps", build_incline),
        example("dominoes", "thirty dominoes toppled by a push on the first", build_dominoes),
        example("bounce", "balls with restitution 0.0 to 0.9 dropped from 5 m", build_bounce),
        example("ragdoll", "four ragdolls thrown down a staircase", build_ragdoll),
        example("bridge", "a hanging bridge of 40 hinged planks under load", build_bridge),
        example("car", "a car on wheel joints driving over hills", build_car),
        example("robot_arm", "a three-link arm of motors steered to four poses", build_robot_arm),
        example("raycast", "a lidar of 180 world ray casts in a room of shapes", build_raycast),
        example("platformer", "a character on chain terrain: seams, a gap, ice", build_platformer),
        example(
            "character_mover",
            "a geometric character: steps, slopes, an elevator, crates (A/D move, W jump, Shift run)",
            build_character_mover,
        ),
        example(
            "one_way_platform",
            "jumping up through one-way platforms and dropping down (A/D move, W jump, X drop)",
            build_one_way_platform,
        ),
        example(
            "conveyor",
            "conveyor belts, rolling resistance and a friction rule by surface",
            build_conveyor,
        ),
        example("joints", "one joint of each kind side by side", build_joints),
    ];
    scenes.extend(bench::ALL.iter().map(|scene| SceneEntry {
        name: scene.name.to_string(),
        source: Source::Benchmark,
        about: bench_about(scene.name),
        builder: Builder::Benchmark { build: scene.build, update: scene.update },
    }));
    scenes
}

/// The scene called `name`.
pub fn find(name: &str) -> Option<SceneEntry> {
    all().into_iter().find(|s| s.name == name)
}

/// The names of every scene, for messages.
pub fn names() -> Vec<String> {
    all().into_iter().map(|s| s.name).collect()
}

/// The scene of the file at `path`, named by the file's name (with its
/// `.json`, which no built-in scene's name has). The file is read when the
/// scene is built, so a missing or bad file is the scene's error, shown like
/// any other scene's.
pub fn from_file(path: &Path) -> SceneEntry {
    let name =
        path.file_name().map_or_else(|| path.display().to_string(), |s| s.to_string_lossy().into_owned());
    SceneEntry {
        name,
        source: Source::File,
        about: "a scene file, read again at each reset",
        builder: Builder::File(path.to_path_buf()),
    }
}

/// Whether `name`, given to `--scene`, is a scene file's path rather than a scene's name.
pub fn is_file_name(name: &str) -> bool {
    Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

fn bench_about(name: &str) -> &'static str {
    match name {
        "large_pyramid" => "Box2D's benchmark: a pyramid of 100 rows",
        "many_pyramids" => "Box2D's benchmark: 200 pyramids of 20 rows",
        "smash" => "Box2D's benchmark: a heavy box flies into 9,600 sleeping squares",
        "tumbler" => "Box2D's benchmark: 2,000 squares in a turning drum",
        "spinner" => "Box2D's benchmark: 6,076 bodies stirred in a chain loop",
        "joint_grid" => "Box2D's benchmark: a 100 × 100 grid of revolute joints",
        "rain" => "Box2D's benchmark: ragdolls rain onto a ground, added as it runs",
        _ => "a scene of Box2D's benchmark",
    }
}

/// Runs a benchmark scene's own update hook (rain adds and removes bodies) before each step.
struct BenchDriver {
    update: Option<fn(&mut World, usize)>,
}

impl Driver for BenchDriver {
    fn before_step(&mut self, world: &mut World, step: usize) -> Result<(), String> {
        if let Some(update) = self.update {
            update(world, step);
        }
        Ok(())
    }
}

/// Fires the pyramid's ball once the pyramid has settled, as the example does.
struct PyramidDriver {
    rows: usize,
}

impl Driver for PyramidDriver {
    fn before_step(&mut self, world: &mut World, step: usize) -> Result<(), String> {
        if step + 1 == pyramid::fire_step() {
            pyramid::fire_ball(world, pyramid::ball_start(self.rows))?;
        }
        Ok(())
    }
}

/// Reads and builds a scene file; it steps by the file's own time step and
/// is framed to fit its colliders.
fn build_file(path: &Path) -> Result<Loaded, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let scene = Scene::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let (world, _) = scene.build().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Loaded::new(world, scene.time_step, None, Passive))
}

fn build_pyramid() -> Result<Loaded, String> {
    let rows = pyramid::DEFAULT_ROWS;
    let (world, _) = pyramid::build(rows)?;
    Ok(Loaded::new(world, pyramid::DT, Some(pyramid::view(rows)), PyramidDriver { rows }))
}

fn build_vertical_stack() -> Result<Loaded, String> {
    let (world, _) = vertical_stack::build()?;
    Ok(Loaded::new(world, vertical_stack::DT, Some(vertical_stack::view()), Passive))
}

fn build_incline() -> Result<Loaded, String> {
    let (world, _) = incline::build()?;
    Ok(Loaded::new(world, incline::DT, Some(incline::view()), Passive))
}

fn build_dominoes() -> Result<Loaded, String> {
    let (world, _) = dominoes::build()?;
    Ok(Loaded::new(world, dominoes::DT, Some(dominoes::view()), Passive))
}

fn build_bounce() -> Result<Loaded, String> {
    let (world, _) = bounce::build()?;
    Ok(Loaded::new(world, bounce::DT, Some(bounce::view()), Passive))
}

fn build_ragdoll() -> Result<Loaded, String> {
    let world = ragdoll::build()?;
    Ok(Loaded::new(world, ragdoll::DT, Some(ragdoll::view()), Passive))
}

fn build_bridge() -> Result<Loaded, String> {
    let (world, _) = bridge::build()?;
    Ok(Loaded::new(world, bridge::DT, Some(bridge::view()), Passive))
}

fn build_car() -> Result<Loaded, String> {
    let (world, ..) = car::build()?;
    Ok(Loaded::new(world, car::DT, Some(car::view()), Passive))
}

/// Steers the arm to each target pose in turn with the example's controller,
/// moving on once a pose has held for half a second (or the time is up), and
/// starting over after the last.
struct ArmDriver {
    motors: Vec<JointKey>,
    target: usize,
    steps_on_target: usize,
    settled_at: Option<usize>,
}

impl Driver for ArmDriver {
    fn before_step(&mut self, world: &mut World, _step: usize) -> Result<(), String> {
        let target = robot_arm::TARGETS[self.target % robot_arm::TARGETS.len()];
        let worst = robot_arm::steer(world, &self.motors, &target)?;
        self.steps_on_target += 1;
        if worst < robot_arm::SETTLED && self.settled_at.is_none() {
            self.settled_at = Some(self.steps_on_target);
        }
        let held = self.settled_at.is_some_and(|s| self.steps_on_target > s + 30);
        if held || self.steps_on_target >= robot_arm::MAX_STEPS {
            (self.target, self.steps_on_target, self.settled_at) = (self.target + 1, 0, None);
        }
        Ok(())
    }
}

fn build_robot_arm() -> Result<Loaded, String> {
    let (world, _, motors) = robot_arm::build()?;
    let driver = ArmDriver { motors, target: 0, steps_on_target: 0, settled_at: None };
    Ok(Loaded::new(world, robot_arm::DT, Some(robot_arm::view()), driver))
}

/// Draws the lidar's beams, each up to where it hit.
struct LidarDriver {
    lidar: BodyKey,
}

/// The beams' colour, as in the example's GIF.
const BEAM: Rgba = [214, 69, 69, 160];

impl Driver for LidarDriver {
    fn overlay(&self, world: &World) -> Vec<Line> {
        let filter = raycast::beam_filter(self.lidar);
        let Ok(beams) = raycast::beams(world, self.lidar) else { return Vec::new() };
        beams
            .iter()
            .step_by(2)
            .filter_map(|ray| world.cast_ray(ray, raycast::RANGE, &filter))
            .zip(beams.iter().step_by(2))
            .map(|(hit, ray)| Line { a: ray.origin, b: hit.point, color: BEAM })
            .collect()
    }
}

fn build_raycast() -> Result<Loaded, String> {
    let (world, lidar) = raycast::build()?;
    Ok(Loaded::new(world, raycast::DT, Some(raycast::view()), LidarDriver { lidar }))
}

/// Plays the example's scripted player.
struct PlayerDriver {
    hero: BodyKey,
}

impl Driver for PlayerDriver {
    fn before_step(&mut self, world: &mut World, step: usize) -> Result<(), String> {
        platformer::control(world, self.hero, step as Real * platformer::DT).map(|_| ())
    }
}

fn build_platformer() -> Result<Loaded, String> {
    let (world, hero) = platformer::build()?;
    Ok(Loaded::new(world, platformer::DT, Some(platformer::view()), PlayerDriver { hero }))
}

/// Plays the example's scripted player until a steering key is pressed,
/// then steers the character by the keys (until a reset), and draws it: the
/// character is no body, so only the overlay shows it.
struct CharacterDriver {
    level: character_mover::Level,
    character: character_mover::Character,
    held: HeldKeys,
    keyboard: bool,
}

/// The character's outline and its ground probe, as in the example's GIF.
const CHARACTER: Rgba = [200, 30, 30, 255];
const PROBE: Rgba = [120, 60, 160, 255];

impl Driver for CharacterDriver {
    fn keys(&mut self, held: &HeldKeys) {
        self.keyboard |= held.steering();
        self.held = *held;
    }

    fn before_step(&mut self, world: &mut World, step: usize) -> Result<(), String> {
        let t = step as Real * character_mover::DT;
        let input = if self.keyboard {
            character_mover::Input {
                throttle: self.held.throttle(),
                run: self.held.run,
                jump: self.held.jump,
            }
        } else {
            character_mover::script(t)
        };
        character_mover::frame(world, &self.level, &mut self.character, t, input)
    }

    fn overlay(&self, _world: &World) -> Vec<Line> {
        let mut lines: Vec<Line> =
            self.character.outline().into_iter().map(|(a, b)| Line { a, b, color: CHARACTER }).collect();
        let (a, b) = self.character.probe;
        lines.push(Line { a, b, color: PROBE });
        lines
    }
}

fn build_character_mover() -> Result<Loaded, String> {
    let (world, level, character) = character_mover::build()?;
    let driver = CharacterDriver { level, character, held: HeldKeys::default(), keyboard: false };
    Ok(Loaded::new(world, character_mover::DT, Some(character_mover::view()), driver))
}

/// The character's speed while A or D is held, m/s.
const ONE_WAY_MOVE_SPEED: Real = 3.0;

/// Plays the one-way platform's script until a steering key is pressed; then
/// W jumps (once a press), X drops through the platform while held, A and D
/// move.
struct OneWayDriver {
    hero: BodyKey,
    dropping: std::sync::Arc<std::sync::atomic::AtomicBool>,
    held: HeldKeys,
    keyboard: bool,
    jump_armed: bool,
}

impl OneWayDriver {
    /// The keys' move, before the step, made as the script makes its own.
    fn steer(&mut self, world: &mut World) -> Result<(), String> {
        use one_way_platform::Move;
        // A held W jumps once, as soon as there is ground to jump from.
        let grounded = one_way_platform::grounded(world, self.hero)?;
        let jump = self.held.jump && self.jump_armed && grounded;
        self.jump_armed = !self.held.jump || (self.jump_armed && !jump);
        let m = if self.held.drop {
            Move::Drop
        } else if jump {
            Move::Jump
        } else {
            Move::Stand
        };
        one_way_platform::act(world, self.hero, &self.dropping, m)?;
        let body = world.body_mut(self.hero).ok_or("the character is gone")?;
        let v = body.linear_velocity();
        let vx = ONE_WAY_MOVE_SPEED * self.held.throttle();
        body.set_linear_velocity(Vec2::new(vx, v.y)).map_err(|e| e.to_string())
    }
}

impl Driver for OneWayDriver {
    fn keys(&mut self, held: &HeldKeys) {
        self.keyboard |= held.steering();
        self.held = *held;
    }

    fn before_step(&mut self, world: &mut World, step: usize) -> Result<(), String> {
        if self.keyboard {
            self.steer(world)
        } else {
            let t = step as Real * one_way_platform::DT;
            one_way_platform::control(world, self.hero, &self.dropping, t).map(|_| ())
        }
    }
}

fn build_one_way_platform() -> Result<Loaded, String> {
    let one_way_platform::OneWay { world, hero, dropping } = one_way_platform::build()?;
    let driver =
        OneWayDriver { hero, dropping, held: HeldKeys::default(), keyboard: false, jump_armed: true };
    Ok(Loaded::new(world, one_way_platform::DT, Some(one_way_platform::view()), driver))
}

fn build_conveyor() -> Result<Loaded, String> {
    let scene = conveyor::build()?;
    Ok(Loaded::new(scene.world, conveyor::DT, Some(conveyor::view()), Passive))
}

/// Moves the mouse joint's target around its circle, as the example does.
struct MouseDriver {
    mouse: JointKey,
}

impl Driver for MouseDriver {
    fn before_step(&mut self, world: &mut World, step: usize) -> Result<(), String> {
        let target = joints::mouse_target((step + 1) as Real * joints::DT);
        match world.joint_mut(self.mouse) {
            Some(joint) => joint.set_target(target).map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }
}

fn build_joints() -> Result<Loaded, String> {
    let (world, joints) = joints::build()?;
    let mouse = joints.last().ok_or("the joints scene has no mouse joint")?.1;
    Ok(Loaded::new(world, joints::DT, Some(joints::view()), MouseDriver { mouse }))
}

/// A scene that panics while it is built, for tests of what the testbed does then.
#[cfg(test)]
pub fn broken() -> SceneEntry {
    SceneEntry {
        name: "broken".to_string(),
        source: Source::Example,
        about: "",
        builder: Builder::Example(|| panic!("a collider was refused")),
    }
}

/// The example scene file of the engine's `examples/scene_files/`, for tests.
#[cfg(test)]
pub fn example_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/scene_files/pyramid_and_pendulum.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of the temporary folder holding `text`, removed when dropped.
    struct TempFile(PathBuf);

    impl TempFile {
        fn new(name: &str, text: &str) -> Self {
            let path = std::env::temp_dir().join(format!("lamina-testbed-{}-{name}", std::process::id()));
            std::fs::write(&path, text).unwrap();
            TempFile(path)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// Every scene builds and steps, hooks included, without an error.
    #[test]
    fn every_scene_builds_and_steps() {
        for entry in all() {
            let mut loaded = entry.build().unwrap_or_else(|e| panic!("{e}"));
            for step in 0..3 {
                loaded.driver.before_step(&mut loaded.world, step).unwrap();
                loaded.world.step(loaded.dt).unwrap();
            }
            let _ = loaded.driver.overlay(&loaded.world);
        }
    }

    /// The scenes of the character mover, the one-way platforms and the
    /// conveyor are listed, build and step a second with their drivers.
    #[test]
    fn the_gameplay_scenes_build_and_step() {
        for name in ["character_mover", "one_way_platform", "conveyor"] {
            let entry = find(name).unwrap_or_else(|| panic!("no scene {name}"));
            let mut loaded = entry.build().unwrap_or_else(|e| panic!("{e}"));
            let first = loaded.world.state_hash();
            for step in 0..60 {
                loaded.driver.before_step(&mut loaded.world, step).unwrap();
                loaded.world.step(loaded.dt).unwrap();
            }
            assert_ne!(loaded.world.state_hash(), first, "{name} did not move");
        }
    }

    /// The character's middle, from the outline the overlay draws.
    fn character_x(driver: &dyn Driver, world: &World) -> Real {
        let lines = driver.overlay(world);
        let outline = &lines[..lines.len() - 1];
        outline.iter().map(|l| l.a.x).sum::<Real>() / outline.len() as Real
    }

    /// Steps the loaded scene from `from` for `steps` steps, the keys held.
    fn run(loaded: &mut Loaded, from: usize, steps: usize, held: HeldKeys) {
        for step in from..from + steps {
            loaded.driver.keys(&held);
            loaded.driver.before_step(&mut loaded.world, step).unwrap();
            loaded.world.step(loaded.dt).unwrap();
        }
    }

    /// With no key pressed the script drives the character: it stands a
    /// second, then walks left.
    #[test]
    fn the_character_follows_the_script_until_a_key_is_pressed() {
        let mut loaded = find("character_mover").unwrap().build().unwrap();
        let start = character_x(loaded.driver.as_ref(), &loaded.world);
        assert!((start - character_mover::START.0).abs() < 1e-4, "starts at {start}");
        run(&mut loaded, 0, 90, HeldKeys::default());
        let scripted = character_x(loaded.driver.as_ref(), &loaded.world);
        assert!(scripted < start - 1.0, "the script walks left: {start} to {scripted}");
    }

    /// Standing still, D held for a second moves the character right by the
    /// walking speed times a second (less the two steps it takes to get up
    /// to speed); with Shift too, by the running speed; let go, it stops.
    #[test]
    fn the_character_follows_the_keys() {
        let mut loaded = find("character_mover").unwrap().build().unwrap();
        run(&mut loaded, 0, 60, HeldKeys::default());
        let standing = character_x(loaded.driver.as_ref(), &loaded.world);
        let right = HeldKeys { right: true, ..HeldKeys::default() };
        run(&mut loaded, 60, 60, right);
        let walked = character_x(loaded.driver.as_ref(), &loaded.world) - standing;
        let wanted = character_mover::WALK_SPEED * 1.0;
        assert!((walked - wanted).abs() < 0.05 * wanted, "D for a second: {walked} m, wanted about {wanted}");

        let before = character_x(loaded.driver.as_ref(), &loaded.world);
        run(&mut loaded, 120, 30, HeldKeys { run: true, ..right });
        let ran = character_x(loaded.driver.as_ref(), &loaded.world) - before;
        let wanted = character_mover::RUN_SPEED * 0.5;
        assert!((ran - wanted).abs() < 0.1 * wanted, "Shift+D for half a second: {ran} m, wanted {wanted}");

        // Let go: the keyboard keeps the character, which stops.
        run(&mut loaded, 150, 60, HeldKeys::default());
        let stopped = character_x(loaded.driver.as_ref(), &loaded.world);
        run(&mut loaded, 210, 10, HeldKeys::default());
        assert_eq!(character_x(loaded.driver.as_ref(), &loaded.world), stopped);
    }

    /// W jumps the one-way character up onto the first platform, once per
    /// press; D moves it right; X drops it through the platform.
    #[test]
    fn the_one_way_character_follows_the_keys() {
        use one_way_platform::{HALF, LEVELS};
        let mut loaded = find("one_way_platform").unwrap().build().unwrap();
        let hero = loaded.world.bodies().find(|(_, b)| b.kind() == BodyKind::Dynamic).unwrap().0;
        let height = |loaded: &Loaded| loaded.world.body(hero).unwrap().translation().y;
        let none = HeldKeys::default();
        let (jump, drop) = (HeldKeys { jump: true, ..none }, HeldKeys { drop: true, ..none });
        let x = |loaded: &Loaded| loaded.world.body(hero).unwrap().translation().x;
        let start = x(&loaded);
        run(&mut loaded, 0, 20, HeldKeys { right: true, ..none });
        let moved = x(&loaded) - start;
        let wanted = ONE_WAY_MOVE_SPEED * 20.0 * loaded.dt;
        assert!((moved - wanted).abs() < 0.2 * wanted, "D moves it right: {moved} m, wanted {wanted}");
        run(&mut loaded, 20, 10, jump);
        assert!(height(&loaded) > HALF.1 + 0.5, "W jumps: {}", height(&loaded));
        run(&mut loaded, 30, 120, jump);
        let on_platform = LEVELS[0] + 0.1 + HALF.1;
        assert!((height(&loaded) - on_platform).abs() < 0.02, "on the platform: {}", height(&loaded));
        // Held on, W does not jump again.
        run(&mut loaded, 150, 20, jump);
        assert!((height(&loaded) - on_platform).abs() < 0.02, "a held W jumped again: {}", height(&loaded));
        run(&mut loaded, 170, 15, drop);
        run(&mut loaded, 185, 120, none);
        assert!((height(&loaded) - HALF.1).abs() < 0.02, "X drops to the ground: {}", height(&loaded));
    }

    #[test]
    fn names_are_unique_and_found() {
        let names = names();
        for name in &names {
            assert_eq!(names.iter().filter(|n| *n == name).count(), 1, "{name} twice");
            assert!(find(name).is_some());
        }
        assert!(find("no such scene").is_none());
    }

    /// A builder that panics gives an error, not a panic.
    #[test]
    fn a_scene_that_panics_while_built_is_an_error() {
        let error = broken().build().err().expect("an error");
        assert!(error.contains("broken") && error.contains("a collider was refused"), "{error}");
    }

    /// The example file builds with its 18 bodies (the ground, 15 boxes, the
    /// pivot and the bob) and its joint, steps by the file's time step, and is
    /// framed to fit its colliders.
    #[test]
    fn a_scene_file_builds_and_steps_at_its_time_step() {
        let entry = from_file(&example_file());
        assert_eq!((entry.name.as_str(), entry.source), ("pyramid_and_pendulum.json", Source::File));
        let mut loaded = entry.build().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((loaded.world.body_count(), loaded.world.joint_count()), (18, 1));
        assert_eq!(loaded.dt, 0.016666667);
        assert!(loaded.view.is_none());
        for step in 0..3 {
            loaded.driver.before_step(&mut loaded.world, step).unwrap();
            loaded.world.step(loaded.dt).unwrap();
        }
    }

    /// Each build reads the file anew: a file changed between two builds
    /// gives the second build's world.
    #[test]
    fn a_scene_file_is_read_again_at_each_build() {
        let file = TempFile::new("rebuilt.json", r#"{"bodies": [{}]}"#);
        let entry = from_file(&file.0);
        assert_eq!(entry.build().unwrap().world.body_count(), 1);
        std::fs::write(&file.0, r#"{"bodies": [{}, {"translation": [0, 2]}]}"#).unwrap();
        assert_eq!(entry.build().unwrap().world.body_count(), 2);
    }

    /// A missing file and a bad one are errors that name the file and what
    /// is wrong, not panics.
    #[test]
    fn a_missing_or_bad_scene_file_is_an_error_naming_it() {
        let missing = std::env::temp_dir().join("lamina-testbed-no-such-scene.json");
        let error = from_file(&missing).build().err().expect("an error");
        assert!(
            error.contains("cannot read") && error.contains("lamina-testbed-no-such-scene.json"),
            "{error}"
        );
        let file = TempFile::new("misspelt.json", "{\n  \"bodys\": []\n}");
        let error = from_file(&file.0).build().err().expect("an error");
        assert!(error.contains("misspelt.json") && error.contains("unknown field `bodys`"), "{error}");
        assert!(error.contains("line 2"), "{error}");
    }

    #[test]
    fn a_scene_named_like_a_json_file_is_a_file() {
        assert!(is_file_name("scene.json") && is_file_name("dir/SCENE.JSON"));
        assert!(!is_file_name("pyramid") && !is_file_name("json") && !is_file_name("scene.json.txt"));
    }
}
