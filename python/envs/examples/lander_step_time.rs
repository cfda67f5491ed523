//! How long one LunarLander step takes: a single environment driven by
//! random discrete actions for 200,000 steps, resets included (as in
//! training), timed as a whole. Run with
//! `cargo run --release -p lamina2d-envs --example lander_step_time`.

use std::time::Instant;

use lamina2d_envs::batch::Env;
use lamina2d_envs::lunar_lander::{LunarLander, LunarLanderConfig};
use lamina2d_envs::rng::Rng;

const STEPS: u32 = 200_000;

fn main() {
    for (name, config) in [
        ("discrete", LunarLanderConfig::default()),
        (
            "continuous, wind",
            LunarLanderConfig { continuous: true, enable_wind: true, ..LunarLanderConfig::default() },
        ),
    ] {
        let mut env = LunarLander::new(config).expect("the configuration is valid");
        let mut actions = Rng::new(1);
        let mut observation = [0.0; 8];
        let (mut episodes, mut elapsed) = (0u64, 0u32);
        env.reset(0, &mut observation);
        let start = Instant::now();
        for _ in 0..STEPS {
            let action = if config.continuous {
                [actions.uniform(-1.0, 1.0) as f32, actions.uniform(-1.0, 1.0) as f32]
            } else {
                [actions.integers(0, 4) as f32, 0.0]
            };
            elapsed += 1;
            if env.step(&action[..env.action_len()], &mut observation).terminated || elapsed == 1000 {
                episodes += 1;
                elapsed = 0;
                env.reset(episodes, &mut observation);
            }
        }
        let per_step = start.elapsed().as_secs_f64() / f64::from(STEPS);
        println!("{name}: {:.2} µs a step ({episodes} episodes)", per_step * 1e6);
    }
}
