//! Many environments stepped together on the rayon pool, with Gymnasium's
//! default autoreset: an episode that ended on one step is reset, in place of
//! being stepped, on the next (`AutoresetMode.NEXT_STEP`).
//!
//! Each environment owns its world and its random stream, so stepping them in
//! parallel gives the same bits as stepping them one by one: environment `i`
//! of a batch follows a single environment given the same seeds and actions.

use rayon::prelude::*;

/// What one step of an environment returns beside its observation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The step's reward.
    pub reward: f64,
    /// The episode ended in a terminal state (crashed, landed, fell, arrived).
    pub terminated: bool,
}

/// One environment, as a batch drives it.
pub trait Env: Send {
    /// The length of an observation.
    const OBSERVATION_LEN: usize;
    /// The length of an action: the number of continuous controls, or 1 for a
    /// discrete action given as its index (it may depend on the configuration,
    /// as LunarLander's does; every environment of a batch has the same).
    fn action_len(&self) -> usize;

    /// Starts a new episode whose randomness all comes from `seed`, and
    /// writes its first observation.
    fn reset(&mut self, seed: u64, observation: &mut [f32]);

    /// Applies `action` (validated by the caller), steps the world once and
    /// writes the new observation.
    fn step(&mut self, action: &[f32], observation: &mut [f32]) -> Outcome;
}

/// Environments of one kind with their step counters and Gymnasium's
/// next-step autoreset.
pub struct Batch<E> {
    envs: Vec<E>,
    /// Steps taken in each environment's current episode.
    elapsed: Vec<u32>,
    /// Whether each environment's episode ended on its last step.
    ended: Vec<bool>,
    /// Episodes are truncated after this many steps (Gymnasium's TimeLimit).
    max_steps: u32,
    /// The length of one environment's action.
    action_len: usize,
}

/// The buffers a batch step writes, one entry (or one observation) per environment.
pub struct StepOut<'a> {
    /// `num_envs × OBSERVATION_LEN` observations.
    pub observations: &'a mut [f32],
    /// Rewards.
    pub rewards: &'a mut [f64],
    /// Terminated flags.
    pub terminated: &'a mut [bool],
    /// Truncated flags.
    pub truncated: &'a mut [bool],
}

/// Fewer environments than this per task are not worth a thread hop.
const ENVS_PER_TASK: usize = 4;

impl<E: Env> Batch<E> {
    /// A batch of `envs`, all configured alike, whose episodes are truncated
    /// after `max_steps`.
    pub fn new(envs: Vec<E>, max_steps: u32) -> Self {
        let n = envs.len();
        let action_len = envs.first().map_or(0, E::action_len);
        Self { envs, elapsed: vec![0; n], ended: vec![false; n], max_steps, action_len }
    }

    /// The length of one environment's action.
    pub fn action_len(&self) -> usize {
        self.action_len
    }

    /// The environment at `index`, to read or render.
    pub fn env(&self, index: usize) -> Option<&E> {
        self.envs.get(index)
    }

    /// The number of environments.
    pub fn len(&self) -> usize {
        self.envs.len()
    }

    /// True when the batch holds no environment.
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    /// The environments, in order.
    pub fn envs(&self) -> &[E] {
        &self.envs
    }

    /// Which environments ended on the last step and will be reset by the
    /// next: the caller draws their seeds.
    pub fn ended(&self) -> &[bool] {
        &self.ended
    }

    /// Resets every environment, `seeds[i]` for environment `i`, and writes
    /// the first observations.
    pub fn reset(&mut self, seeds: &[u64], observations: &mut [f32]) {
        assert_eq!(seeds.len(), self.envs.len(), "one seed per environment");
        assert_eq!(
            observations.len(),
            self.envs.len() * E::OBSERVATION_LEN,
            "one observation per environment"
        );
        (
            &mut self.envs,
            &mut self.elapsed,
            &mut self.ended,
            observations.par_chunks_mut(E::OBSERVATION_LEN),
            seeds,
        )
            .into_par_iter()
            .with_min_len(ENVS_PER_TASK)
            .for_each(|(env, elapsed, ended, observation, &seed)| {
                env.reset(seed, observation);
                (*elapsed, *ended) = (0, false);
            });
    }

    /// Steps every environment with its action (`num_envs × action_len`),
    /// except those whose episode ended on the last step: they are reset with
    /// their entry of `reset_seeds` instead, and report reward 0 and neither
    /// flag, as Gymnasium's next-step autoreset does.
    pub fn step(&mut self, actions: &[f32], reset_seeds: &[u64], out: StepOut<'_>) {
        let n = self.envs.len();
        assert_eq!(actions.len(), n * self.action_len, "one action per environment");
        assert_eq!(reset_seeds.len(), n, "one reset seed per environment");
        assert_eq!(out.observations.len(), n * E::OBSERVATION_LEN, "one observation per environment");
        assert!(out.rewards.len() == n && out.terminated.len() == n && out.truncated.len() == n);
        let max_steps = self.max_steps;
        let per_env = (
            (&mut self.envs, &mut self.elapsed, &mut self.ended),
            (
                out.observations.par_chunks_mut(E::OBSERVATION_LEN),
                actions.par_chunks(self.action_len.max(1)),
                reset_seeds,
            ),
            (out.rewards, out.terminated, out.truncated),
        );
        per_env.into_par_iter().with_min_len(ENVS_PER_TASK).for_each(
            |((env, elapsed, ended), (observation, action, &seed), (reward, terminated, truncated))| {
                if *ended {
                    env.reset(seed, observation);
                    (*elapsed, *ended) = (0, false);
                    (*reward, *terminated, *truncated) = (0.0, false, false);
                    return;
                }
                let outcome = env.step(action, observation);
                *elapsed += 1;
                *reward = outcome.reward;
                *terminated = outcome.terminated;
                // As Gymnasium's TimeLimit: the limit truncates whatever else happened.
                *truncated = *elapsed >= max_steps;
                *ended = *terminated || *truncated;
            },
        );
    }
}
