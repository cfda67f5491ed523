//! Many small worlds side by side, as reinforcement learning and batch users
//! run them: 2,000 cart-poles (a cart on a prismatic joint, a pole on a
//! revolute joint) driven by a random policy, each reset when its pole falls
//! by cloning a template world. The batch is stepped with
//! `worlds.par_iter_mut()`, once on one thread and once on every thread, and
//! both runs must end in the same bits: each world steps as it would alone.
//!
//! `cargo run --release --example many_worlds -- [--worlds N] [--steps N]`

#[path = "../benches/scenes/cartpole.rs"]
mod cartpole;

use std::time::Instant;

use lamina2d::prelude::*;
use rayon::prelude::*;

/// Seconds per step.
const DT: Real = 1.0 / 60.0;
/// The pole counts as fallen past this angle from upright, radians.
const FALLEN: Real = 0.4;
/// The largest push of the random policy on the cart, newtons.
const PUSH: Real = 10.0;

/// A cart-pole world ready to run, and the keys of its cart and pole.
#[derive(Clone)]
struct Template {
    world: World,
    cart: BodyKey,
    pole: BodyKey,
}

impl Template {
    fn new() -> Self {
        let (world, cart, pole) = cartpole::build();
        Self { world, cart, pole }
    }
}

/// One environment: its world, its own random stream and its counters.
struct CartPole {
    world: World,
    rng: u64,
    episodes: u32,
}

impl CartPole {
    fn new(template: &Template, seed: u64) -> Self {
        let mut env = Self {
            world: template.world.clone(),
            rng: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
            episodes: 0,
        };
        env.reset(template);
        env
    }

    /// A number in [-1, 1) from the environment's own stream.
    fn random(&mut self) -> Real {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng >> 40) as Real / (1u64 << 23) as Real - 1.0
    }

    /// A fresh episode: the template cloned, the pole nudged.
    fn reset(&mut self, template: &Template) {
        self.world = template.world.clone();
        let nudge = 0.5 * self.random();
        if let Some(pole) = self.world.body_mut(template.pole) {
            let _ = pole.set_angular_velocity(nudge);
        }
        self.episodes += 1;
    }

    /// One step under the random policy; a fallen pole starts a new episode.
    fn step(&mut self, template: &Template) {
        let push = PUSH * self.random();
        if let Some(cart) = self.world.body_mut(template.cart) {
            let _ = cart.apply_force(Vec2::new(push, 0.0));
        }
        self.world.step(DT).expect("a positive time step");
        let angle = self.world.body(template.pole).map_or(0.0, |p| p.position().rotation.angle());
        if angle.abs() > FALLEN {
            self.reset(template);
        }
    }
}

/// What one run of the batch gave.
struct Run {
    seconds: f64,
    episodes: u64,
    hash: u64,
}

/// Steps `worlds` cart-poles `steps` times on a pool of `threads`.
fn run(template: &Template, worlds: usize, steps: usize, threads: usize) -> Run {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
    pool.install(|| {
        let mut envs: Vec<CartPole> = (0..worlds).map(|i| CartPole::new(template, i as u64 + 1)).collect();
        let start = Instant::now();
        for _ in 0..steps {
            envs.par_iter_mut().for_each(|env| env.step(template));
        }
        let seconds = start.elapsed().as_secs_f64();
        let episodes = envs.iter().map(|e| u64::from(e.episodes)).sum();
        let hash = envs.iter().fold(0u64, |h, e| h.rotate_left(5) ^ e.world.state_hash());
        Run { seconds, episodes, hash }
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut worlds, mut steps) = (2000usize, 600usize);
    while let Some(flag) = args.next() {
        let value = args.next().and_then(|v| v.parse().ok());
        match (flag.as_str(), value) {
            ("--worlds", Some(v)) => worlds = v,
            ("--steps", Some(v)) => steps = v,
            _ => {
                eprintln!("usage: many_worlds [--worlds N] [--steps N]");
                std::process::exit(2);
            }
        }
    }
    let template = Template::new();
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("{worlds} cart-poles, {steps} steps each, a random policy, reset when the pole falls");
    let mut hashes = Vec::new();
    for threads in [1, all] {
        let r = run(&template, worlds, steps, threads);
        let world_steps = (worlds * steps) as f64;
        println!(
            "{threads:>2} thread(s): {:>10.0} world-steps/s ({:.2} µs per world-step), {} episodes, hash {:016x}",
            world_steps / r.seconds,
            r.seconds * 1e6 / world_steps,
            r.episodes,
            r.hash
        );
        hashes.push(r.hash);
    }
    assert!(hashes.windows(2).all(|w| w[0] == w[1]), "every thread count must give the same worlds");
    println!("every world ended in the same bits on every thread count");
}
