"""Vector environments in Ray worker processes: the worlds and envs pickle, so
a runner that spreads Gymnasium environments over processes or machines gets
the same episodes as a local run, bit for bit. Skipped where Ray is not
installed (CI installs it)."""

import hashlib
import sys

import gymnasium as gym
import numpy as np
import pytest

import lamina2d.envs  # noqa: F401

ray = pytest.importorskip("ray")

ENVS = 8
STEPS = 150


def rollout(envs, seed: int) -> str:
    """A digest of every observation, reward and flag of a seeded random rollout."""
    digest = hashlib.sha256()
    observations, _ = envs.reset(seed=seed)
    digest.update(observations.tobytes())
    actions = np.random.default_rng(seed)
    for _ in range(STEPS):
        step = envs.step(actions.integers(0, 4, size=envs.num_envs))
        for part in step[:4]:
            digest.update(np.ascontiguousarray(part).tobytes())
    return digest.hexdigest()


def make_envs():
    return gym.make_vec("lamina2d/LunarLander-v0", num_envs=ENVS, vectorization_mode="vector_entry_point")


@pytest.fixture(scope="module")
def cluster():
    # The workers cannot import this test module: its functions travel by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_two_workers_roll_out_what_a_local_run_does(cluster):
    @ray.remote
    def remote_rollout(seed):
        import lamina2d.envs  # noqa: F401  (registers the ids in the worker)

        return rollout(make_envs(), seed)

    seeds = [100, 100 + ENVS]
    remote = ray.get([remote_rollout.remote(s) for s in seeds])
    local = [rollout(make_envs(), s) for s in seeds]
    assert remote == local
    assert remote[0] != remote[1]


def test_a_vector_env_sent_to_a_worker_steps_as_it_would_here(cluster):
    # The env object itself crosses the process boundary (pickled by Ray).
    @ray.remote
    def roll(envs, seed):
        return rollout(envs, seed)

    assert ray.get(roll.remote(make_envs(), 7)) == rollout(make_envs(), 7)
