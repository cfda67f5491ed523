//! The scene benchmark: steps each scene of `benches/scenes/` on rayon pools of
//! chosen sizes and reports milliseconds per step.
//!
//! ```text
//! cargo run --release --example benchmark -- [--scene NAME|all] [--threads 1,2,4]
//!     [--steps N] [--runs K] [--paired BLOCK] [--sharing paced|always|never] [--out DIR]
//! ```
//!
//! For each scene and thread count it builds the scene, steps it `steps` times
//! (default: the scene's own count) and does so `runs` times (default 3). A
//! run's time is the wall time of its steps divided by the steps; the table gives
//! the minimum and the median over the runs, the state hash after the run (equal
//! hashes across thread counts mean bit-identical results), the mean time of each
//! stage of the step, the share of the steps that ran on one thread alone (their
//! pace having found that faster than the pool, or trying it), and what the
//! world looks like at the end. It writes `results.csv` and `scaling.svg` to
//! `docs/benchmarks/` (or `--out DIR`).
//!
//! With `--paired BLOCK` it measures how the thread counts compare instead,
//! on a host whose speed drifts from second to second (a shared virtual
//! machine): each run builds one world per thread count and steps them side
//! by side, `BLOCK` steps of one, then `BLOCK` of the next, the order turned
//! at every round, so that a slow spell of the host falls on every thread
//! count alike. It reports each count's time per step and its speed-up over
//! the first count (the runs' minimum and median), checks that the worlds
//! end bit for bit alike, and writes `paired.csv` to the folder.

#[path = "../benches/scenes/mod.rs"]
mod scenes;

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use lamina2d::prelude::*;
use scenes::{ALL, Scene, TIME_STEP};

const USAGE: &str = "\
usage: benchmark [--scene NAME|all] [--threads N,N,...] [--steps N] [--runs K] [--paired BLOCK]
                 [--sharing paced|always|never] [--out DIR]

  --scene    a scene name or `all` (default all): large_pyramid, many_pyramids, smash, tumbler, spinner,
             joint_grid, rain
  --threads  rayon thread counts, comma-separated (default 1)
  --steps    steps per run (default: each scene's own count)
  --runs     runs per scene and thread count (default 3)
  --paired   step one world per thread count side by side, BLOCK steps each in turn, and report
             the speed-ups over the first count (writes paired.csv)
  --sharing  how each world shares its steps with the pool (World::set_sharing; default paced)
  --out      folder for results.csv and scaling.svg (default docs/benchmarks)";

/// What the command line asked for.
struct Options {
    scenes: Vec<&'static Scene>,
    threads: Vec<usize>,
    steps: Option<usize>,
    runs: usize,
    /// Steps per block of a paired measurement, when asked for.
    paired: Option<usize>,
    /// How each world shares its steps with its pool.
    sharing: Sharing,
    out: PathBuf,
}

/// The measurements of one scene at one thread count.
struct Row {
    scene: &'static str,
    threads: usize,
    steps: usize,
    runs: usize,
    min_ms: f64,
    median_ms: f64,
    /// The state hash after each run, in run order.
    hashes: Vec<u64>,
    /// Mean time per step of each stage over every step of every run, ms.
    stages: Stages,
    end: EndState,
}

/// Mean milliseconds per step of each stage.
#[derive(Default)]
struct Stages {
    broad: f64,
    narrow: f64,
    solver: f64,
    /// The solver's team stages (contact preparation, substeps, impulse
    /// gathering; `StepProfile::substeps`), included in `solver`.
    substeps: f64,
    finalize: f64,
    sleep: f64,
    /// The share of the steps that ran on one thread alone, their pace
    /// having found that faster than the pool or trying it
    /// (`StepProfile::ran_alone`), %.
    alone: f64,
}

/// What the world looks like after the last run.
struct EndState {
    bodies: usize,
    awake: usize,
    contacts: usize,
    touching: usize,
    constraints: usize,
    /// Lowest centre of a dynamic body, metres.
    lowest_y: Real,
    /// Farthest centre of a dynamic body from the origin, metres.
    farthest: Real,
    /// Fastest dynamic body, m/s.
    fastest: Real,
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
            eprintln!("benchmark: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("benchmark: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the arguments; `Ok(None)` asks for the usage text.
fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut options = Options {
        scenes: ALL.iter().collect(),
        threads: vec![1],
        steps: None,
        runs: 3,
        paired: None,
        sharing: Sharing::Paced,
        out: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs").join("benchmarks"),
    };
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        if arg == "-h" || arg == "--help" {
            return Ok(None);
        }
        // Both `--flag value` and `--flag=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_string())),
            None => (arg, None),
        };
        if !matches!(
            flag,
            "--scene" | "--threads" | "--steps" | "--runs" | "--paired" | "--sharing" | "--out"
        ) {
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
            "--threads" => {
                let threads =
                    value.split(',').map(|t| positive(flag, t.trim())).collect::<Result<Vec<_>, _>>()?;
                options.threads = threads;
            }
            "--steps" => options.steps = Some(positive(flag, &value)?),
            "--runs" => options.runs = positive(flag, &value)?,
            "--paired" => options.paired = Some(positive(flag, &value)?),
            "--sharing" => {
                options.sharing = match value.as_str() {
                    "paced" => Sharing::Paced,
                    "always" => Sharing::Always,
                    "never" => Sharing::Never,
                    _ => return Err(format!("`--sharing` takes paced, always or never, not `{value}`")),
                }
            }
            _ => options.out = PathBuf::from(value),
        }
        i += 1;
    }
    Ok(Some(options))
}

/// A whole number of at least 1.
fn positive(flag: &str, text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("`{flag}` takes whole numbers of at least 1, not `{text}`")),
    }
}

fn run(options: &Options) -> Result<(), String> {
    if let Some(block) = options.paired {
        return run_paired(options, block);
    }
    let mut rows = Vec::new();
    let progress = Progress::new();
    for scene in &options.scenes {
        for &threads in &options.threads {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| format!("cannot start a pool of {threads} threads: {e}"))?;
            let row = pool.install(|| measure(scene, threads, options, &progress));
            progress.done(&row);
            rows.push(row);
        }
    }
    progress.clear();
    print!("{}", table(&rows));
    std::fs::create_dir_all(&options.out)
        .map_err(|e| format!("cannot create {}: {e}", options.out.display()))?;
    let csv_path = options.out.join("results.csv");
    std::fs::write(&csv_path, csv(&rows)).map_err(|e| format!("cannot write {}: {e}", csv_path.display()))?;
    let svg_path = options.out.join("scaling.svg");
    std::fs::write(&svg_path, svg(&rows)).map_err(|e| format!("cannot write {}: {e}", svg_path.display()))?;
    println!("\nwrote {} and {}", csv_path.display(), svg_path.display());
    Ok(())
}

/// One scene stepped side by side at several thread counts.
struct PairedRow {
    scene: &'static str,
    steps: usize,
    block: usize,
    runs: usize,
    /// Per thread count: the count, its least time per step over the runs
    /// (ms), and its speed-ups over the first count.
    counts: Vec<(usize, f64, Speedups)>,
    /// Whether every world ended with the same state hash as the first
    /// count's in its run.
    same_bits: bool,
}

/// A thread count's speed-ups over the first count, one per run, with
/// their least, median and most.
struct Speedups {
    runs: Vec<f64>,
    least: f64,
    median: f64,
    most: f64,
}

impl Speedups {
    fn of(runs: Vec<f64>) -> Self {
        let (least, median) = least_and_median(&runs);
        let most = runs.iter().copied().fold(least, f64::max);
        Self { runs, least, median, most }
    }
}

/// The `--paired` measurement of every chosen scene.
fn run_paired(options: &Options, block: usize) -> Result<(), String> {
    let pools = options
        .threads
        .iter()
        .map(|&threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| format!("cannot start a pool of {threads} threads: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let rows: Vec<PairedRow> =
        options.scenes.iter().map(|scene| measure_paired(scene, &pools, options, block)).collect();
    print!("{}", paired_table(&rows));
    std::fs::create_dir_all(&options.out)
        .map_err(|e| format!("cannot create {}: {e}", options.out.display()))?;
    let path = options.out.join("paired.csv");
    std::fs::write(&path, paired_csv(&rows)).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("\nwrote {}", path.display());
    Ok(())
}

/// Runs `scene` `options.runs` times, each time stepping one world per pool
/// of `pools` in turns of `block` steps (the pools in one order, then the
/// other), and times each pool's steps.
fn measure_paired(scene: &Scene, pools: &[rayon::ThreadPool], options: &Options, block: usize) -> PairedRow {
    let steps = options.steps.unwrap_or(scene.steps);
    let mut totals = vec![Vec::with_capacity(options.runs); pools.len()];
    let mut same_bits = true;
    for _ in 0..options.runs {
        let mut worlds: Vec<World> =
            pools.iter().map(|pool| pool.install(|| build_world(scene, options))).collect();
        let mut elapsed = vec![Duration::ZERO; pools.len()];
        for (round, first) in (0..steps).step_by(block).enumerate() {
            let last = (first + block).min(steps);
            let n = pools.len();
            for k in 0..n {
                let i = if round % 2 == 1 { n - 1 - k } else { k };
                let world = &mut worlds[i];
                unsafe { std::env::set_var("LAMINA_VARIANT", i.to_string()) };
                let start = Instant::now();
                pools[i].install(|| {
                    for step in first..last {
                        scene.before_step(world, step);
                        if let Err(e) = world.step(TIME_STEP) {
                            eprintln!("\n{}: step {step} refused: {e}", scene.name);
                        }
                    }
                });
                elapsed[i] += start.elapsed();
            }
        }
        same_bits &= worlds.iter().all(|w| w.state_hash() == worlds[0].state_hash());
        for (total, time) in totals.iter_mut().zip(&elapsed) {
            total.push(time.as_secs_f64());
        }
    }
    let counts = options
        .threads
        .iter()
        .zip(&totals)
        .map(|(&threads, times)| {
            let least = times.iter().copied().fold(f64::INFINITY, f64::min);
            let speedups = totals[0].iter().zip(times).map(|(first, this)| first / this).collect();
            (threads, least * 1e3 / steps as f64, Speedups::of(speedups))
        })
        .collect();
    PairedRow { scene: scene.name, steps, block, runs: options.runs, counts, same_bits }
}

/// The least and the median of `values` (not empty).
fn least_and_median(values: &[f64]) -> (f64, f64) {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 { sorted[n / 2] } else { 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]) };
    (sorted[0], median)
}

fn paired_table(rows: &[PairedRow]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<14} {:>5} {:>5} {:>4} {:>7} {:>9} {:>11} {:>11} {:>11}  bits",
        "scene", "steps", "block", "runs", "threads", "min ms", "speed-up lo", "speed-up md", "speed-up hi"
    );
    for r in rows {
        for (threads, least_ms, s) in &r.counts {
            let _ = writeln!(
                out,
                "{:<14} {:>5} {:>5} {:>4} {:>7} {:>9.3} {:>11.3} {:>11.3} {:>11.3}  {}",
                r.scene,
                r.steps,
                r.block,
                r.runs,
                threads,
                least_ms,
                s.least,
                s.median,
                s.most,
                if r.same_bits { "same" } else { "DIFFER" }
            );
        }
    }
    let _ = writeln!(
        out,
        "\nspeed-up: the first thread count's time over this one's, per run (each run steps the worlds side by side); min ms: least time per step over the runs"
    );
    out
}

fn paired_csv(rows: &[PairedRow]) -> String {
    let mut out = String::from(
        "scene,steps,block,runs,threads,min_ms_per_step,speedup_min,speedup_median,speedups,same_bits\n",
    );
    for r in rows {
        for (threads, least_ms, s) in &r.counts {
            let all: Vec<String> = s.runs.iter().map(|x| format!("{x:.3}")).collect();
            let _ = writeln!(
                out,
                "{},{},{},{},{},{:.4},{:.3},{:.3},{},{}",
                r.scene,
                r.steps,
                r.block,
                r.runs,
                threads,
                least_ms,
                s.least,
                s.median,
                all.join(" "),
                r.same_bits
            );
        }
    }
    out
}

/// `scene`'s world, ready to step, sharing its steps as `options` ask.
fn build_world(scene: &Scene, options: &Options) -> World {
    let mut world = (scene.build)();
    world.set_sharing(options.sharing);
    world
}

/// Runs one scene at one thread count, on the current pool.
fn measure(scene: &Scene, threads: usize, options: &Options, progress: &Progress) -> Row {
    let steps = options.steps.unwrap_or(scene.steps);
    let mut times = Vec::with_capacity(options.runs);
    let mut hashes = Vec::with_capacity(options.runs);
    let mut sums = [Duration::ZERO; 6];
    let mut alone = 0usize;
    let mut world = build_world(scene, options);
    for run in 0..options.runs {
        if run > 0 {
            world = build_world(scene, options);
        }
        let mut elapsed = Duration::ZERO;
        for step in 0..steps {
            let start = Instant::now();
            scene.before_step(&mut world, step);
            let result = world.step(TIME_STEP);
            elapsed += start.elapsed();
            if let Err(e) = result {
                // The scenes step with a fixed valid time step; report rather than stop.
                eprintln!("\n{}: step {step} refused: {e}", scene.name);
            }
            let p = world.profile();
            for (sum, stage) in sums.iter_mut().zip([
                p.broad_phase,
                p.narrow_phase,
                p.solver,
                p.finalize,
                p.sleep,
                p.substeps,
            ]) {
                *sum += stage;
            }
            alone += usize::from(result.is_ok() && p.ran_alone);
            progress.update(scene.name, threads, run, options.runs, step + 1, steps);
        }
        times.push(elapsed.as_secs_f64() * 1e3 / steps as f64);
        hashes.push(world.state_hash());
    }
    let (least, median) = least_and_median(&times);
    let total_steps = (steps * options.runs) as f64;
    let mean = |d: Duration| d.as_secs_f64() * 1e3 / total_steps;
    Row {
        scene: scene.name,
        threads,
        steps,
        runs: options.runs,
        min_ms: least,
        median_ms: median,
        hashes,
        stages: Stages {
            broad: mean(sums[0]),
            narrow: mean(sums[1]),
            solver: mean(sums[2]),
            finalize: mean(sums[3]),
            sleep: mean(sums[4]),
            substeps: mean(sums[5]),
            alone: 100.0 * alone as f64 / total_steps,
        },
        end: end_state(&world),
    }
}

fn end_state(world: &World) -> EndState {
    let p = world.profile();
    let mut end = EndState {
        bodies: world.body_count(),
        awake: p.awake_bodies,
        contacts: p.contacts,
        touching: p.touching_contacts,
        constraints: p.constraints,
        lowest_y: Real::INFINITY,
        farthest: 0.0,
        fastest: 0.0,
        non_finite: 0,
    };
    for (_, body) in world.bodies().filter(|(_, b)| b.kind() == BodyKind::Dynamic) {
        let c = body.center_of_mass();
        let v = body.linear_velocity();
        let values = [c.x, c.y, body.angle(), v.x, v.y, body.angular_velocity()];
        if values.iter().any(|x| !x.is_finite()) {
            end.non_finite += 1;
            continue;
        }
        end.lowest_y = end.lowest_y.min(c.y);
        end.farthest = end.farthest.max(c.coords.norm());
        end.fastest = end.fastest.max(v.norm());
    }
    end
}

/// The hash of the runs, or a note that they differ.
fn hash_text(row: &Row) -> String {
    let first = row.hashes[0];
    if row.hashes.iter().all(|&h| h == first) {
        format!("{first:016x}")
    } else {
        let all: Vec<String> = row.hashes.iter().map(|h| format!("{h:016x}")).collect();
        format!("differs between runs: {}", all.join(" "))
    }
}

fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<14} {:>7} {:>5} {:>4} {:>9} {:>9}  {:<16} {:>7} {:>7} {:>7} {:>8} {:>8} {:>7} {:>7}",
        "scene",
        "threads",
        "steps",
        "runs",
        "min ms",
        "median ms",
        "state hash",
        "broad",
        "narrow",
        "solver",
        "substeps",
        "finalize",
        "sleep",
        "alone %"
    );
    for r in rows {
        let s = &r.stages;
        let _ = writeln!(
            out,
            "{:<14} {:>7} {:>5} {:>4} {:>9.3} {:>9.3}  {:<16} {:>7.3} {:>7.3} {:>7.3} {:>8.3} {:>8.3} {:>7.3} {:>7.1}",
            r.scene,
            r.threads,
            r.steps,
            r.runs,
            r.min_ms,
            r.median_ms,
            hash_text(r),
            s.broad,
            s.narrow,
            s.solver,
            s.substeps,
            s.finalize,
            s.sleep,
            s.alone
        );
    }
    let _ = writeln!(
        out,
        "\nstage columns: mean ms per step over every step of every run (substeps: the part of solver on its team: contact preparation, substeps, impulses gathered); alone %: the steps that ran on one thread, their pace having found that faster or trying it"
    );
    let _ = writeln!(out, "\nafter the last run:");
    let _ = writeln!(
        out,
        "{:<14} {:>7} {:>7} {:>7} {:>8} {:>8} {:>11} {:>9} {:>9} {:>9} {:>10}",
        "scene",
        "threads",
        "bodies",
        "awake",
        "contacts",
        "touching",
        "constraints",
        "lowest y",
        "farthest",
        "fastest",
        "non-finite"
    );
    for r in rows {
        let e = &r.end;
        let _ = writeln!(
            out,
            "{:<14} {:>7} {:>7} {:>7} {:>8} {:>8} {:>11} {:>9.2} {:>9.2} {:>9.2} {:>10}",
            r.scene,
            r.threads,
            e.bodies,
            e.awake,
            e.contacts,
            e.touching,
            e.constraints,
            e.lowest_y,
            e.farthest,
            e.fastest,
            e.non_finite
        );
    }
    out
}

fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "scene,threads,steps,runs,min_ms_per_step,median_ms_per_step,state_hash,\
         broad_ms,narrow_ms,solver_ms,substeps_ms,finalize_ms,sleep_ms,alone_percent\n",
    );
    for r in rows {
        let s = &r.stages;
        let hashes: Vec<String> = r.hashes.iter().map(|h| format!("{h:016x}")).collect();
        let mut distinct = hashes.clone();
        distinct.dedup();
        let _ = writeln!(
            out,
            "{},{},{},{},{:.4},{:.4},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.1}",
            r.scene,
            r.threads,
            r.steps,
            r.runs,
            r.min_ms,
            r.median_ms,
            distinct.join(" "),
            s.broad,
            s.narrow,
            s.solver,
            s.substeps,
            s.finalize,
            s.sleep,
            s.alone
        );
    }
    out
}

/// Line colours of the plot, one per scene.
const COLOURS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

/// A hand-written SVG: ms/step (log scale) against threads (log₂ scale), one
/// labelled line per scene.
fn svg(rows: &[Row]) -> String {
    let (width, height) = (720.0, 440.0);
    let (left, right, top, bottom) = (70.0, 170.0, 40.0, 50.0);
    let (plot_w, plot_h) = (width - left - right, height - top - bottom);

    let mut threads: Vec<usize> = rows.iter().map(|r| r.threads).collect();
    threads.sort_unstable();
    threads.dedup();
    let mut scenes: Vec<&str> = Vec::new();
    for r in rows {
        if !scenes.contains(&r.scene) {
            scenes.push(r.scene);
        }
    }
    let t_lo = (*threads.first().unwrap_or(&1) as f64).log2();
    let t_hi = (*threads.last().unwrap_or(&1) as f64).log2();
    let x_of = |t: usize| {
        if t_hi > t_lo {
            left + ((t as f64).log2() - t_lo) / (t_hi - t_lo) * plot_w
        } else {
            left + 0.5 * plot_w
        }
    };
    let positive = rows.iter().map(|r| r.min_ms).filter(|m| *m > 0.0);
    let lo = positive.clone().fold(f64::INFINITY, f64::min);
    let hi = positive.fold(0.0, f64::max);
    let (lo, hi) = if lo.is_finite() && hi > 0.0 { (lo, hi) } else { (0.1, 1.0) };
    let decade_lo = lo.log10().floor();
    let decade_hi = hi.log10().ceil().max(decade_lo + 1.0);
    let y_of = |ms: f64| top + (decade_hi - ms.max(1e-9).log10()) / (decade_hi - decade_lo) * plot_h;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">Lamina scenes: ms per step against rayon threads (minimum over runs)</text>"#,
        left + plot_w / 2.0
    );
    // Horizontal grid: decades, with 2 and 5 between them.
    let mut decade = decade_lo;
    while decade <= decade_hi {
        for m in [1.0, 2.0, 5.0] {
            let value = m * 10f64.powf(decade);
            if value.log10() > decade_hi + 1e-9 {
                continue;
            }
            let y = y_of(value);
            let stroke = if m == 1.0 { "#bbbbbb" } else { "#e5e5e5" };
            let _ = writeln!(
                s,
                r#"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{stroke}"/>"#,
                left + plot_w
            );
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                left - 6.0,
                y + 4.0,
                number(value)
            );
        }
        decade += 1.0;
    }
    for &t in &threads {
        let x = x_of(t);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{:.1}" stroke="#e5e5e5"/>"##,
            top + plot_h
        );
        let _ =
            writeln!(s, r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{t}</text>"#, top + plot_h + 18.0);
    }
    let _ = writeln!(
        s,
        r#"<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">threads (log scale)</text>"#,
        left + plot_w / 2.0,
        height - 12.0
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">ms per step (log scale)</text>"#,
        top + plot_h / 2.0
    );
    // Each line's label sits at its right end, pushed down where it would overlap the one above.
    let ends: Vec<f64> = scenes
        .iter()
        .map(|scene| {
            rows.iter()
                .filter(|r| r.scene == *scene)
                .max_by_key(|r| r.threads)
                .map_or(top, |r| y_of(r.min_ms))
        })
        .collect();
    let label_y = spread(&ends, 14.0);
    for (k, scene) in scenes.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let mut points: Vec<(usize, f64)> =
            rows.iter().filter(|r| r.scene == *scene).map(|r| (r.threads, r.min_ms)).collect();
        points.sort_by_key(|p| p.0);
        let path: Vec<String> =
            points.iter().map(|&(t, ms)| format!("{:.1},{:.1}", x_of(t), y_of(ms))).collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            path.join(" ")
        );
        for &(t, ms) in &points {
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{scene}, {t} threads: {ms:.3} ms</title></circle>"#,
                x_of(t),
                y_of(ms)
            );
        }
        if let Some(&(t, ms)) = points.last() {
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" fill="{colour}">{scene} ({})</text>"#,
                x_of(t) + 10.0,
                label_y[k] + 4.0,
                number(ms)
            );
        }
    }
    let _ = writeln!(s, "</svg>");
    s
}

/// Positions for labels wanted at `ys`, each at least `gap` below the one above it.
fn spread(ys: &[f64], gap: f64) -> Vec<f64> {
    let mut order: Vec<usize> = (0..ys.len()).collect();
    order.sort_by(|&a, &b| ys[a].total_cmp(&ys[b]));
    let mut placed = ys.to_vec();
    let mut previous = f64::NEG_INFINITY;
    for i in order {
        placed[i] = ys[i].max(previous + gap);
        previous = placed[i];
    }
    placed
}

/// A short number for axis and line labels: 0.2, 5, 20, 1.35, 24.8.
fn number(value: f64) -> String {
    if value >= 10.0 {
        format!("{value:.1}").trim_end_matches(".0").to_string()
    } else if value >= 1.0 {
        format!("{value:.2}").trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{value:.3}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A progress bar on stderr, redrawn in place when stderr is a terminal; a
/// line per finished measurement otherwise.
struct Progress {
    terminal: bool,
    started: Instant,
}

impl Progress {
    fn new() -> Self {
        Self { terminal: std::io::stderr().is_terminal(), started: Instant::now() }
    }

    fn update(&self, scene: &str, threads: usize, run: usize, runs: usize, step: usize, steps: usize) {
        if !self.terminal {
            return;
        }
        // Redraw about a hundred times per run.
        let every = (steps / 100).max(1);
        if !step.is_multiple_of(every) && step != steps {
            return;
        }
        const WIDTH: usize = 30;
        let filled = step * WIDTH / steps;
        let bar = format!("{}{}", "#".repeat(filled), "-".repeat(WIDTH - filled));
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{bar}] {scene} threads {threads} run {}/{runs} step {step}/{steps} ({:.0} s)\x1b[K",
            run + 1,
            self.started.elapsed().as_secs_f64()
        );
        let _ = err.flush();
    }

    fn done(&self, row: &Row) {
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[K");
        }
        let _ = writeln!(
            err,
            "{} threads {}: {:.3} ms/step (min of {}), hash {} ({:.0} s elapsed)",
            row.scene,
            row.threads,
            row.min_ms,
            row.runs,
            hash_text(row),
            self.started.elapsed().as_secs_f64()
        );
    }

    fn clear(&self) {
        if self.terminal {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
        }
    }
}
