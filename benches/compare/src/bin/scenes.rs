//! Lamina's benchmark scenes against Rapier2D's, in one process.
//!
//! ```text
//! cargo run --release --bin scenes -- [--scene NAME|all] [--steps N] [--runs K] [--threads N]
//!     [--no-memory]
//! ```
//!
//! Each scene of `benches/scenes/` is built in both engines (Rapier's builders
//! are in `src/rapier_scenes.rs` and, for `rain`, `src/rapier_rain.rs`) and
//! stepped in alternating runs: Lamina run 1,
//! Rapier run 1, Lamina run 2, ... Each run builds its world fresh and steps it
//! the scene's step count (or `--steps`); only the steps are timed. Lamina steps
//! on a rayon pool of `--threads` threads (default 1); Rapier is built without
//! its `parallel` feature and steps on one thread. The table gives each engine's
//! minimum and median milliseconds per step over the runs and the ratio
//! Rapier / Lamina (above 1: Lamina is faster). After the table, a sanity line
//! per scene and engine says what the last run ended with, and a memory section
//! gives the bytes each engine holds after building `large_pyramid` and stepping
//! it 100 times, counted by the global allocator. See the README.

#[path = "../counting_alloc.rs"]
mod counting_alloc;
#[path = "../rapier_rain.rs"]
mod rapier_rain;
#[path = "../rapier_scenes.rs"]
mod rapier_scenes;
#[path = "../../../scenes/mod.rs"]
mod scenes;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use lamina2d::prelude::*;
use rapier2d::prelude::PhysicsWorld;
use scenes::{ALL, Scene, TIME_STEP};

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

const USAGE: &str = "\
usage: scenes [--scene NAME|all] [--steps N] [--runs K] [--threads N] [--no-memory]

  --scene      a scene name or `all` (default all): large_pyramid, many_pyramids, smash, tumbler, spinner,
               joint_grid, rain
  --steps      steps per run (default: each scene's own count)
  --runs       runs per engine and scene, alternating Lamina and Rapier (default 3)
  --threads    threads of Lamina's rayon pool (default 1); Rapier runs on one thread
  --no-memory  skip the memory measurement of large_pyramid";

/// The scene and step count of the memory measurement.
const MEMORY_SCENE: &str = "large_pyramid";
const MEMORY_STEPS: usize = 100;

/// A body counts as moved when its centre ends farther than this from where it started, metres.
const MOVED: f64 = 0.5;

/// What the command line asked for.
struct Options {
    scenes: Vec<&'static Scene>,
    steps: Option<usize>,
    runs: usize,
    threads: usize,
    memory: bool,
}

/// The two engines.
#[derive(Clone, Copy)]
enum Engine {
    Lamina,
    Rapier,
}

impl Engine {
    fn name(self) -> &'static str {
        match self {
            Engine::Lamina => "Lamina",
            Engine::Rapier => "Rapier",
        }
    }
}

/// Milliseconds per step over the runs.
#[derive(Clone, Copy)]
struct Stats {
    min: f64,
    median: f64,
}

/// One scene's results.
struct Row {
    scene: &'static str,
    steps: usize,
    lamina: Stats,
    rapier: Stats,
    lamina_end: EndState,
    rapier_end: EndState,
}

/// Where a dynamic body is, as plain numbers, so that both engines' bodies compare.
#[derive(Clone, Copy)]
struct Place {
    x: f64,
    y: f64,
    /// Pose and velocity all finite.
    finite: bool,
    sleeping: bool,
}

/// What a world looks like after a run.
struct EndState {
    /// All bodies, fixed and kinematic included.
    bodies: usize,
    /// Dynamic bodies.
    dynamic: usize,
    /// Dynamic bodies awake.
    awake: usize,
    /// Contact pairs the engine keeps (pairs of overlapping enlarged boxes).
    pairs: usize,
    /// Pairs with contact points.
    touching: usize,
    /// Dynamic bodies that left the scene (see [`escaped`]).
    escaped: usize,
    /// Dynamic bodies that ended more than [`MOVED`] from where they started.
    moved: usize,
    /// Mean height of the dynamic bodies, metres.
    mean_y: f64,
    /// Dynamic bodies with a non-finite pose or velocity.
    non_finite: usize,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("scenes: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("scenes: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the arguments; `Ok(None)` asks for the usage text.
fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut options =
        Options { scenes: ALL.iter().collect(), steps: None, runs: 3, threads: 1, memory: true };
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        match arg {
            "-h" | "--help" => return Ok(None),
            "--no-memory" => {
                options.memory = false;
                i += 1;
                continue;
            }
            _ => {}
        }
        // Both `--flag value` and `--flag=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_string())),
            None => (arg, None),
        };
        if !matches!(flag, "--scene" | "--steps" | "--runs" | "--threads") {
            return Err(format!("unknown argument `{arg}`"));
        }
        let value = match inline {
            Some(value) => value,
            None => {
                i += 1;
                args.get(i).cloned().ok_or_else(|| format!("`{flag}` needs a value"))?
            }
        };
        match flag {
            "--scene" => {
                options.scenes = if value == "all" {
                    ALL.iter().collect()
                } else {
                    let scene = ALL.iter().find(|s| s.name == value).ok_or_else(|| {
                        let names: Vec<&str> = ALL.iter().map(|s| s.name).collect();
                        format!("no scene `{value}`; scenes: {}, or all", names.join(", "))
                    })?;
                    vec![scene]
                }
            }
            "--steps" => options.steps = Some(positive(flag, &value)?),
            "--runs" => options.runs = positive(flag, &value)?,
            _ => options.threads = positive(flag, &value)?,
        }
        i += 1;
    }
    Ok(Some(options))
}

/// A whole number of at least 1.
fn positive(flag: &str, text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("`{flag}` takes a whole number of at least 1, not `{text}`")),
    }
}

fn run(options: &Options) -> Result<(), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| format!("cannot start a pool of {} threads: {e}", options.threads))?;
    let mut scenes = Vec::new();
    for &scene in &options.scenes {
        if rapier_build(scene.name).is_some() {
            scenes.push(scene);
        } else if options.scenes.len() == 1 {
            return Err(format!("no Rapier builder for scene `{}`", scene.name));
        } else {
            eprintln!("{}: no Rapier builder, skipped", scene.name);
        }
    }

    let mut rows = Vec::new();
    for scene in scenes {
        rows.push(measure(scene, options, &pool));
    }

    println!(
        "Lamina {} ({} thread{}) vs Rapier2D {} (1 thread), f32, 1/60 s steps, 4 substeps; \
         {} alternating runs per engine, ms per step",
        env!("CARGO_PKG_VERSION"),
        options.threads,
        if options.threads == 1 { "" } else { "s" },
        rapier2d::VERSION,
        options.runs
    );
    println!();
    println!(
        "| scene | steps | Lamina min | Lamina median | Rapier min | Rapier median | Rapier/Lamina min | \
         Rapier/Lamina median |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2}× | {:.2}× |",
            r.scene,
            r.steps,
            r.lamina.min,
            r.lamina.median,
            r.rapier.min,
            r.rapier.median,
            r.rapier.min / r.lamina.min,
            r.rapier.median / r.lamina.median
        );
    }
    println!();
    println!("after the last run (escaped: {}; moved: ended > {MOVED} m from its start):", ESCAPED);
    for r in &rows {
        for (engine, end) in [(Engine::Lamina, &r.lamina_end), (Engine::Rapier, &r.rapier_end)] {
            println!(
                "  {:<14} {:<6} bodies {:>6} (dynamic {:>6}, awake {:>6})  pairs {:>6} (touching {:>6})  \
                 escaped {:>4}  moved {:>6}  mean y {:>8.3}  non-finite {}",
                r.scene,
                engine.name(),
                end.bodies,
                end.dynamic,
                end.awake,
                end.pairs,
                end.touching,
                end.escaped,
                end.moved,
                end.mean_y,
                end.non_finite
            );
        }
    }
    if options.memory {
        println!();
        memory(&pool)?;
    }
    Ok(())
}

/// Alternating timed runs of one scene, then the end states of the last runs.
fn measure(scene: &Scene, options: &Options, pool: &rayon::ThreadPool) -> Row {
    let steps = options.steps.unwrap_or(scene.steps);
    let (mut lamina_times, mut rapier_times) = (Vec::new(), Vec::new());
    let (mut lamina_end, mut rapier_end) = (None, None);
    for run in 0..options.runs {
        eprint!("\r{}: run {} of {}, Lamina ", scene.name, run + 1, options.runs);
        let (ms, end) = pool.install(|| run_lamina(scene, steps));
        lamina_times.push(ms);
        lamina_end = Some(end);
        eprint!("{ms:.2} ms/step, Rapier ");
        let (ms, end) = run_rapier(scene.name, steps);
        rapier_times.push(ms);
        rapier_end = Some(end);
        eprint!("{ms:.2} ms/step   ");
    }
    eprintln!();
    Row {
        scene: scene.name,
        steps,
        lamina: stats(lamina_times),
        rapier: stats(rapier_times),
        lamina_end: lamina_end.expect("at least one run"),
        rapier_end: rapier_end.expect("at least one run"),
    }
}

/// Builds the scene in Lamina, steps it, and returns ms per step and the end state.
fn run_lamina(scene: &Scene, steps: usize) -> (f64, EndState) {
    let mut world = (scene.build)();
    let start = lamina_places(&world);
    let mut elapsed = Duration::ZERO;
    for step in 0..steps {
        let t = Instant::now();
        scene.before_step(&mut world, step);
        let result = world.step(TIME_STEP);
        elapsed += t.elapsed();
        if let Err(e) = result {
            eprintln!("\n{}: Lamina refused step {step}: {e}", scene.name);
        }
    }
    let p = world.profile();
    let end = end_state(
        scene.name,
        world.body_count(),
        p.contacts,
        p.touching_contacts,
        &start,
        &lamina_places(&world),
    );
    (ms_per_step(elapsed, steps), end)
}

/// Builds the scene in Rapier, steps it, and returns ms per step and the end state.
fn run_rapier(name: &str, steps: usize) -> (f64, EndState) {
    let mut world = rapier_build(name).expect("checked before the runs");
    let start = rapier_places(&world);
    let mut elapsed = Duration::ZERO;
    for step in 0..steps {
        let t = Instant::now();
        if name == rapier_rain::NAME {
            rapier_rain::update(&mut world, step);
        }
        world.step();
        elapsed += t.elapsed();
    }
    let (pairs, touching) = rapier_pairs(&world);
    let end = end_state(name, world.bodies.len(), pairs, touching, &start, &rapier_places(&world));
    (ms_per_step(elapsed, steps), end)
}

/// The scene of that name built in Rapier (`rain` from `rapier_rain.rs`, the
/// others from `rapier_scenes.rs`), or `None`.
fn rapier_build(name: &str) -> Option<PhysicsWorld> {
    if name == rapier_rain::NAME {
        let mut world = rapier_scenes::empty_world();
        rapier_rain::build(&mut world);
        return Some(world);
    }
    rapier_scenes::build(name)
}

fn ms_per_step(elapsed: Duration, steps: usize) -> f64 {
    elapsed.as_secs_f64() * 1e3 / steps as f64
}

/// Minimum and median; the median of an even count is the mean of the middle two.
fn stats(mut times: Vec<f64>) -> Stats {
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let median = if n % 2 == 1 { times[n / 2] } else { 0.5 * (times[n / 2 - 1] + times[n / 2]) };
    Stats { min: times[0], median }
}

/// Lamina's dynamic bodies, in creation order.
fn lamina_places(world: &World) -> Vec<Place> {
    world
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(_, b)| {
            let (t, v) = (b.translation(), b.linear_velocity());
            let values = [t.x, t.y, b.angle(), v.x, v.y, b.angular_velocity()];
            Place {
                x: t.x as f64,
                y: t.y as f64,
                finite: values.iter().all(|x| x.is_finite()),
                sleeping: b.is_sleeping(),
            }
        })
        .collect()
}

/// Rapier's dynamic bodies, in creation order.
fn rapier_places(world: &PhysicsWorld) -> Vec<Place> {
    world
        .bodies
        .iter()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(_, b)| {
            let (t, v) = (b.translation(), b.linvel());
            let values = [t.x, t.y, b.rotation().angle(), v.x, v.y, b.angvel()];
            Place {
                x: t.x as f64,
                y: t.y as f64,
                finite: values.iter().all(|x| x.is_finite()),
                sleeping: b.is_sleeping(),
            }
        })
        .collect()
}

/// Rapier's contact pairs and those of them with contact points.
fn rapier_pairs(world: &PhysicsWorld) -> (usize, usize) {
    let (mut pairs, mut touching) = (0, 0);
    for pair in world.narrow_phase.contact_pairs() {
        pairs += 1;
        touching += usize::from(pair.has_any_active_contact());
    }
    (pairs, touching)
}

fn end_state(
    scene: &str,
    bodies: usize,
    pairs: usize,
    touching: usize,
    start: &[Place],
    end: &[Place],
) -> EndState {
    let mut state = EndState {
        bodies,
        dynamic: end.len(),
        awake: end.iter().filter(|p| !p.sleeping).count(),
        pairs,
        touching,
        escaped: 0,
        moved: 0,
        mean_y: 0.0,
        non_finite: 0,
    };
    let mut sum_y = 0.0;
    for (s, e) in start.iter().zip(end) {
        if !e.finite {
            state.non_finite += 1;
            continue;
        }
        sum_y += e.y;
        state.escaped += usize::from(escaped(scene, s, e));
        state.moved += usize::from((e.x - s.x).hypot(e.y - s.y) > MOVED);
    }
    let finite = state.dynamic - state.non_finite;
    state.mean_y = if finite > 0 { sum_y / finite as f64 } else { f64::NAN };
    state
}

/// What [`escaped`] counts, per scene.
const ESCAPED: &str = "large_pyramid: centre below the ground's top or beyond its ends; many_pyramids: \
    centre below the ground it started on or beyond the grounds' ends; smash: farther than 100 m \
    from the origin; tumbler: outside the circle through the drum's inner corners; spinner: outside \
    the loop";

/// Whether a dynamic body that started at `start` and ended at `end` has left the scene.
fn escaped(scene: &str, start: &Place, end: &Place) -> bool {
    match scene {
        "large_pyramid" => end.y < 0.0 || end.x.abs() > 100.0,
        "many_pyramids" => {
            let ground = (start.y / 11.0).floor() * 11.0;
            end.y < ground || end.x.abs() > 110.0
        }
        "smash" => end.x.hypot(end.y) > 100.0,
        // The drum's inner square has half-extent 9.5 about (0, 10).
        "tumbler" => end.x.hypot(end.y - 10.0) > 9.5 * std::f64::consts::SQRT_2,
        "spinner" => end.x.hypot(end.y - 32.0) > 40.0,
        _ => false,
    }
}

/// Bytes one engine holds for `large_pyramid` after [`MEMORY_STEPS`] steps.
struct Memory {
    after_build: usize,
    after_steps: usize,
    peak: usize,
    /// Allocations during the second half of the steps (a warm scene should make none).
    warm_allocations: usize,
    bodies: usize,
    pairs: usize,
    touching: usize,
}

/// Builds and steps `large_pyramid` in each engine and prints what each holds.
fn memory(pool: &rayon::ThreadPool) -> Result<(), String> {
    let scene = ALL.iter().find(|s| s.name == MEMORY_SCENE).ok_or("no large_pyramid scene")?;
    let lamina = pool.install(|| {
        let base = counting_alloc::snapshot();
        counting_alloc::reset_peak();
        let mut world = (scene.build)();
        let after_build = counting_alloc::snapshot().live - base.live;
        let mut warm_start = base;
        for step in 0..MEMORY_STEPS {
            if step == MEMORY_STEPS / 2 {
                warm_start = counting_alloc::snapshot();
            }
            if let Err(e) = world.step(TIME_STEP) {
                eprintln!("{MEMORY_SCENE}: Lamina refused step {step}: {e}");
            }
        }
        let now = counting_alloc::snapshot();
        let p = world.profile();
        Memory {
            after_build,
            after_steps: now.live - base.live,
            peak: now.peak - base.live,
            warm_allocations: now.allocations - warm_start.allocations,
            bodies: world.body_count(),
            pairs: p.contacts,
            touching: p.touching_contacts,
        }
    });
    let rapier = {
        let base = counting_alloc::snapshot();
        counting_alloc::reset_peak();
        let mut world = rapier_scenes::build(MEMORY_SCENE).ok_or("no Rapier large_pyramid")?;
        let after_build = counting_alloc::snapshot().live - base.live;
        let mut warm_start = base;
        for step in 0..MEMORY_STEPS {
            if step == MEMORY_STEPS / 2 {
                warm_start = counting_alloc::snapshot();
            }
            world.step();
        }
        let now = counting_alloc::snapshot();
        let (pairs, touching) = rapier_pairs(&world);
        Memory {
            after_build,
            after_steps: now.live - base.live,
            peak: now.peak - base.live,
            warm_allocations: now.allocations - warm_start.allocations,
            bodies: world.bodies.len(),
            pairs,
            touching,
        }
    };

    println!(
        "memory: {MEMORY_SCENE} built and stepped {MEMORY_STEPS} times; bytes live (allocated, not freed) \
         counted by the global allocator"
    );
    println!();
    println!(
        "| engine | bodies | contact pairs (touching) | live after build | live after {MEMORY_STEPS} steps | \
         peak | bytes/body | bytes/pair | allocations in steps {}–{MEMORY_STEPS} |",
        MEMORY_STEPS / 2 + 1
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (engine, m) in [(Engine::Lamina, &lamina), (Engine::Rapier, &rapier)] {
        println!(
            "| {} | {} | {} ({}) | {} | {} | {} | {:.0} | {:.0} | {} |",
            engine.name(),
            m.bodies,
            m.pairs,
            m.touching,
            mib(m.after_build),
            mib(m.after_steps),
            mib(m.peak),
            m.after_steps as f64 / m.bodies as f64,
            m.after_steps as f64 / m.pairs.max(1) as f64,
            m.warm_allocations
        );
    }
    Ok(())
}

/// Bytes as MiB with two decimals.
fn mib(bytes: usize) -> String {
    format!("{:.2} MiB", bytes as f64 / (1024.0 * 1024.0))
}
