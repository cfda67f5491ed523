"""lamina2d's BipedalWalker against Gymnasium's contract and against itself:
the env checker, reproducibility from a seed, the vector env against single
envs through autoresets and on any thread count, pictures, refused actions,
pickling and the time limit."""

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import lamina2d
import lamina2d.envs  # noqa: F401  (registers the environments)
from lamina2d.envs.bipedal_walker import BipedalWalker, BipedalWalkerVectorEnv, GaitState, heuristic

IDS = {False: "lamina2d/BipedalWalker-v0", True: "lamina2d/BipedalWalkerHardcore-v0"}


def random_actions(seed: int, steps: int, num_envs: int | None = None) -> np.ndarray:
    shape = (steps, 4) if num_envs is None else (steps, num_envs, 4)
    return np.random.default_rng(seed).uniform(-1, 1, size=shape).astype(np.float32)


@pytest.mark.parametrize("hardcore", [False, True])
def test_gymnasiums_env_checker_passes(hardcore):
    env = gym.make(IDS[hardcore])
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_the_spaces_are_bipedal_walker_v3s():
    env = BipedalWalker()
    assert env.action_space.shape == (4,) and env.action_space.dtype == np.float32
    assert np.all(env.action_space.low == -1) and np.all(env.action_space.high == 1)
    assert env.observation_space.shape == (24,) and env.observation_space.dtype == np.float32
    assert env.observation_space.high[0] == np.float32(np.pi) and env.observation_space.low[8] == 0.0
    assert np.all(env.observation_space.high[14:] == 1.0)


def rollout(env, seed: int, actions: np.ndarray):
    observation, _ = env.reset(seed=seed)
    trace = [observation]
    for action in actions:
        observation, reward, terminated, truncated, _ = env.step(action)
        trace.append((observation, reward, terminated, truncated))
        if terminated or truncated:
            observation, _ = env.reset()
            trace.append(observation)
    return trace


def same(a, b) -> bool:
    return len(a) == len(b) and all(
        all(np.array_equal(x, y) for x, y in zip(p, q)) if isinstance(p, tuple) else np.array_equal(p, q)
        for p, q in zip(a, b)
    )


@pytest.mark.parametrize("hardcore", [False, True])
def test_an_episode_is_reproducible_from_its_seed_bit_for_bit(hardcore):
    actions = random_actions(0, 300)
    first = rollout(gym.make(IDS[hardcore]), 17, actions)
    second = rollout(gym.make(IDS[hardcore]), 17, actions)
    other = rollout(gym.make(IDS[hardcore]), 18, actions)
    assert same(first, second)
    assert not np.array_equal(first[0], other[0])


def gait_episode(env, seed: int, steps: int):
    """Runs the scripted gait for up to ``steps``; returns the metres gained,
    the return and the steps taken."""
    observation, _ = env.reset(seed=seed)
    start, total = env.hull_position[0], 0.0
    state, action = GaitState(), np.zeros(4, dtype=np.float32)
    for step in range(1, steps + 1):
        observation, reward, terminated, _, _ = env.step(action)
        total += reward
        action = heuristic(observation, state)
        if terminated:
            break
    return env.hull_position[0] - start, total, step


def test_the_heuristic_gait_walks_forward():
    # Gymnasium's scripted gait walks Box2D's walker to the far end (seed 0:
    # 84 m in 1591 steps, return 314). On Lamina, measured: seed 0 walks
    # 12 m in 300 steps, return +44, and 55 m before it falls; seeds 1 to 3
    # take 13 to 15 strides' worth (6.5 to 7.5 m) before the gait, which
    # knows nothing of balance, loses it.
    env = gym.make(IDS[False]).unwrapped
    gained, total, steps = gait_episode(env, 0, 300)
    assert steps == 300 and gained > 10.0 and total > 30.0, (gained, total, steps)
    gained, total, steps = gait_episode(env, 0, 1600)
    assert gained > 40.0 and total > 50.0, (gained, total, steps)
    for seed in (1, 2, 3):
        gained, _, _ = gait_episode(env, seed, 300)
        assert gained > 5.0, (seed, gained)


@pytest.mark.xfail(strict=True, reason="the gait was tuned on Box2D's walker; on Lamina's it falls before the far end")
def test_the_heuristic_gait_reaches_the_far_end_as_on_box2d():
    env = gym.make(IDS[False]).unwrapped
    gained, total, steps = gait_episode(env, 0, 1600)
    assert total > 300.0, (gained, total, steps)


def single_env_trace(seed: int, actions: np.ndarray, max_steps: int, hardcore: bool):
    """What environment i of a vector does: the observations, rewards and
    flags of a single env under Gymnasium's next-step autoreset."""
    env = gym.make(IDS[hardcore], max_episode_steps=max_steps)
    observation, _ = env.reset(seed=seed)
    trace = [(observation, 0.0, False, False)]
    ended = False
    for action in actions:
        if ended:
            observation, _ = env.reset()
            step = (observation, 0.0, False, False)
        else:
            observation, reward, terminated, truncated, _ = env.step(action)
            step = (observation, reward, terminated, truncated)
        ended = step[2] or step[3]
        trace.append(step)
    return trace


@pytest.mark.parametrize("threads", [None, 1, 2])
@pytest.mark.parametrize("hardcore", [False, True])
def test_the_vector_env_is_a_set_of_single_envs_bit_for_bit(threads, hardcore):
    before = lamina2d.num_threads()
    if threads is not None:
        lamina2d.set_num_threads(threads)
    try:
        num_envs, steps, max_steps = 5, 260, 120  # short episodes: several autoresets each
        actions = random_actions(1, steps, num_envs)
        envs = gym.make_vec(
            IDS[hardcore], num_envs=num_envs, vectorization_mode="vector_entry_point", max_episode_steps=max_steps
        )
        observations, _ = envs.reset(seed=40)
        vector = [(observations, np.zeros(num_envs), np.zeros(num_envs, bool), np.zeros(num_envs, bool))]
        for t in range(steps):
            vector.append(envs.step(actions[t])[:4])
        endings = 0
        for i in range(num_envs):
            single = single_env_trace(40 + i, actions[:, i], max_steps, hardcore)
            for t, (obs, reward, terminated, truncated) in enumerate(single):
                assert np.array_equal(vector[t][0][i], obs), (i, t)
                assert vector[t][1][i] == reward and vector[t][2][i] == terminated and vector[t][3][i] == truncated
                endings += terminated or truncated
        assert endings >= num_envs, "the run should pass through autoresets"
        envs.close()
    finally:
        lamina2d.set_num_threads(before)


def test_the_picture_shows_sky_above_and_earth_below():
    env = gym.make(IDS[False], render_mode="rgb_array")
    env.reset(seed=3)
    picture = env.render()
    assert picture.shape == (400, 600, 3) and picture.dtype == np.uint8
    # The top rows are sky (or cloud); the bottom row, at height 0, is earth,
    # 2.2 m below the level ground.
    top = {tuple(p) for p in picture[2, ::25]}
    assert top <= {(215, 215, 255), (255, 255, 255)}, top
    assert {tuple(p) for p in picture[-1, ::25]} == {(102, 153, 76)}
    # The walker's purple hull is in view, a fifth of the way across.
    hull = np.all(picture == (127, 51, 229), axis=-1)
    columns = np.flatnonzero(hull.any(axis=0))
    assert columns.size > 0 and 80 < columns.mean() < 160


def test_the_vector_env_renders_each_env():
    envs = BipedalWalkerVectorEnv(3, render_mode="rgb_array")
    envs.reset(seed=0)
    pictures = envs.render()
    assert len(pictures) == 3 and all(p.shape == (400, 600, 3) for p in pictures)


@pytest.mark.parametrize(
    "action", [[0.0, 0.0, 0.0], [0.0] * 5, [0.0, np.nan, 0.0, 0.0], [np.inf, 0.0, 0.0, 0.0], "fast"]
)
def test_bad_actions_are_refused_naming_the_problem(action):
    env = BipedalWalker()
    env.reset(seed=0)
    with pytest.raises(lamina2d.WorldError, match="action"):
        env.step(np.array(action) if not isinstance(action, str) else action)


def test_bad_vector_actions_are_refused():
    envs = BipedalWalkerVectorEnv(2)
    envs.reset(seed=0)
    actions = np.zeros((2, 4), dtype=np.float32)
    actions[1, 2] = np.nan
    with pytest.raises(lamina2d.WorldError, match="finite"):
        envs.step(actions)
    with pytest.raises(ValueError):
        envs.step(np.zeros((3, 4), dtype=np.float32))


def test_actions_beyond_one_act_as_one():
    # Speed is the sign's and torque saturates at |a| = 1: 2 and 1 drive alike.
    a = BipedalWalker()
    b = BipedalWalker()
    a.reset(seed=5)
    b.reset(seed=5)
    for _ in range(30):
        oa, ra, *_ = a.step(np.array([2.0, -3.0, 1.5, -1.0], dtype=np.float32))
        ob, rb, *_ = b.step(np.array([1.0, -1.0, 1.0, -1.0], dtype=np.float32))
        assert np.array_equal(oa, ob) and ra == rb


def test_envs_pickle_by_their_arguments():
    env = pickle.loads(pickle.dumps(BipedalWalker(hardcore=True)))
    assert env.hardcore and env.observation_space.shape == (24,)
    envs = pickle.loads(pickle.dumps(BipedalWalkerVectorEnv(3, max_episode_steps=50, hardcore=True)))
    assert envs.num_envs == 3 and envs.hardcore
    observations, _ = envs.reset(seed=1)
    assert observations.shape == (3, 24)


@pytest.mark.parametrize("hardcore, limit", [(False, 1600), (True, 2000)])
def test_episodes_are_truncated_at_the_time_limit(hardcore, limit):
    env = gym.make(IDS[hardcore])
    assert env.spec.max_episode_steps == limit
    env = gym.make(IDS[hardcore], max_episode_steps=25)
    env.reset(seed=0)
    # An idle walker takes about 90 steps to sink and fall; within 25 only
    # the time limit ends its episode.
    for step in range(1, 26):
        _, _, terminated, truncated, _ = env.step(np.zeros(4, dtype=np.float32))
        assert not terminated
        assert truncated == (step == 25)
