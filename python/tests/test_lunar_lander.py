"""lamina2d's LunarLander against Gymnasium's contract and its own heuristic.

The oracles are independent of the code under test: Gymnasium's environment
checker, Gymnasium's hand-written controller (which must still land), a
single environment for every environment of a vector, and the picture's
known colours.
"""

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import lamina2d
import lamina2d.envs  # noqa: F401  (registers the environments)
from lamina2d.envs.lunar_lander import LunarLander, LunarLanderVectorEnv, heuristic

ENV_ID = "lamina2d/LunarLander-v0"
VARIANTS = {
    "discrete": {},
    "continuous": {"continuous": True},
    "wind": {"enable_wind": True, "wind_power": 15.0, "turbulence_power": 1.5},
}


@pytest.fixture(autouse=True)
def default_threads():
    yield
    lamina2d.set_num_threads(0)


def random_actions(space: gym.Space, seed: int, count: int) -> list:
    space.seed(seed)
    return [space.sample() for _ in range(count)]


def run_episode(env: gym.Env, seed: int, actions: list):
    """The observations and rewards of one episode driven by `actions`, stopping at its end."""
    observation, _ = env.reset(seed=seed)
    observations, rewards = [observation], []
    for action in actions:
        observation, reward, terminated, truncated, _ = env.step(action)
        observations.append(observation)
        rewards.append(reward)
        if terminated or truncated:
            break
    return np.array(observations), np.array(rewards)


@pytest.mark.parametrize("variant", VARIANTS)
def test_gymnasiums_checker_passes(variant):
    # The pictures are checked on their own below, without a window.
    env = gym.make(ENV_ID, **VARIANTS[variant])
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_spaces_are_lunar_lander_v3s():
    # Gymnasium's own LunarLander needs pybox2d and pygame; CI installs them.
    pytest.importorskip("Box2D")
    pytest.importorskip("pygame")
    reference = gym.make("LunarLander-v3")
    for continuous in (False, True):
        env = gym.make(ENV_ID, continuous=continuous)
        assert env.observation_space == reference.observation_space
        reference_action = gym.make("LunarLander-v3", continuous=continuous).action_space
        assert env.action_space == reference_action


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seed_gives_the_same_episode_bit_for_bit(variant):
    env = gym.make(ENV_ID, **VARIANTS[variant])
    actions = random_actions(env.action_space, 0, 400)
    first = run_episode(env, 123, actions)
    second = run_episode(gym.make(ENV_ID, **VARIANTS[variant]), 123, actions)
    assert first[0].tobytes() == second[0].tobytes()
    assert first[1].tobytes() == second[1].tobytes()
    other = run_episode(env, 124, actions)
    assert first[0][0].tobytes() != other[0][0].tobytes()


def test_the_first_observation_is_of_a_step_with_the_engines_off():
    env = gym.make(ENV_ID)
    observation, _ = env.reset(seed=5)
    # Just below the top of the screen, above the pad, pushed a little, legs up.
    assert observation.dtype == np.float32 and observation.shape == (8,)
    assert abs(observation[0]) < 0.05 and 1.3 < observation[1] < 1.5
    assert observation[6] == 0.0 and observation[7] == 0.0


@pytest.mark.parametrize("continuous", [False, True])
def test_gymnasiums_heuristic_lands(continuous):
    env = gym.make(ENV_ID, continuous=continuous)
    returns = []
    for seed in range(5):
        observation, _ = env.reset(seed=seed)
        total, terminated, truncated = 0.0, False, False
        while not (terminated or truncated):
            observation, reward, terminated, truncated, _ = env.step(heuristic(observation, continuous))
            total += reward
        # Ended by coming to rest: the +100 of a lander asleep on its legs.
        assert terminated and reward == 100.0, f"seed {seed}"
        assert observation[6] == 1.0 or observation[7] == 1.0
        returns.append(total)
    assert np.mean(returns) > 200, returns


def test_a_crash_scores_minus_100():
    env = gym.make(ENV_ID)
    env.reset(seed=0)
    terminated, reward = False, 0.0
    while not terminated:
        # The main engine off and the left engine on: it spins and falls.
        _, reward, terminated, _, _ = env.step(1)
    assert reward == -100.0


@pytest.mark.parametrize("threads", [None, 1, 2])
@pytest.mark.parametrize("continuous", [False, True])
def test_each_env_of_a_vector_is_a_single_env(threads, continuous):
    if threads is not None:
        lamina2d.set_num_threads(threads)
    num_envs, seed, max_steps = 5, 40, 90
    vector = gym.make_vec(
        ENV_ID,
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        continuous=continuous,
        max_episode_steps=max_steps,
    )
    singles = [LunarLander(continuous=continuous) for _ in range(num_envs)]
    observations, _ = vector.reset(seed=seed)
    expected = np.array([env.reset(seed=seed + i)[0] for i, env in enumerate(singles)])
    assert observations.tobytes() == expected.tobytes()
    ended = np.zeros(num_envs, dtype=bool)
    elapsed = np.zeros(num_envs, dtype=int)
    actions = random_actions(vector.action_space, 1, 400)
    resets = 0
    for action in actions:
        observations, rewards, terminated, truncated, _ = vector.step(action)
        for i, env in enumerate(singles):
            if ended[i]:
                # Gymnasium's next-step autoreset: the env resets from its own
                # generator and reports reward 0, neither flag.
                observation, reward, done, cut = env.reset()[0], 0.0, False, False
                elapsed[i] = 0
                resets += 1
            else:
                observation, reward, done, _, _ = env.step(action[i])
                elapsed[i] += 1
                cut = bool(elapsed[i] >= max_steps)
            assert observations[i].tobytes() == observation.tobytes(), f"env {i}"
            assert rewards[i] == reward and terminated[i] == done and truncated[i] == cut, f"env {i}"
        ended = terminated | truncated
    assert resets >= 2 * num_envs, "the run covers several autoresets"


def test_the_picture_is_gymnasiums_layout():
    env = gym.make(ENV_ID, render_mode="rgb_array")
    env.reset(seed=2)
    for _ in range(10):
        env.step(2)
    picture = env.render()
    assert picture.shape == (400, 600, 3) and picture.dtype == np.uint8
    assert (picture[:20, :20] == 0).all(), "a black sky at the top"
    assert (picture[-3:, :] == 255).all(), "a white moon along the bottom"
    purple = (picture == np.array([128, 102, 230], dtype=np.uint8)).all(axis=2)
    rows, cols = np.nonzero(purple)
    assert len(rows) > 200 and abs(cols.mean() - 300) < 40, "the lander near the top centre"
    yellow = (picture == np.array([204, 204, 0], dtype=np.uint8)).all(axis=2)
    assert yellow.sum() > 100, "the helipad's flags"
    exhaust = (picture[:, :, 0] > 200) & (picture[:, :, 1] < 200) & (picture[:, :, 1] > 40)
    assert exhaust.any(), "the main engine's particles"


def test_the_vector_env_renders_each_env():
    vector = LunarLanderVectorEnv(2, render_mode="rgb_array")
    vector.reset(seed=0)
    pictures = vector.render()
    assert len(pictures) == 2 and all(p.shape == (400, 600, 3) for p in pictures)
    assert pictures[0].tobytes() != pictures[1].tobytes(), "two terrains"


def test_rendering_without_a_mode_warns_and_returns_nothing():
    env = LunarLander()
    env.reset(seed=0)
    with pytest.warns(UserWarning):
        assert env.render() is None


@pytest.mark.parametrize("action", [4, -1, 1.5, "left", None])
def test_bad_discrete_actions_raise_naming_them(action):
    env = LunarLander()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=str(action) if action is not None else "None") as error:
        env.step(action)
    assert isinstance(error.value, lamina2d.WorldError)


@pytest.mark.parametrize("action", [[0.0], [0.0, 1.0, 0.0], [np.nan, 0.0], "full"])
def test_bad_continuous_actions_raise(action):
    env = LunarLander(continuous=True)
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(np.array(action) if not isinstance(action, str) else action)


def test_throttles_beyond_one_are_clipped_as_gymnasium_clips_them():
    clipped, beyond = LunarLander(continuous=True), LunarLander(continuous=True)
    clipped.reset(seed=3)
    beyond.reset(seed=3)
    first = clipped.step(np.array([1.0, -1.0], dtype=np.float32))[0]
    second = beyond.step(np.array([7.0, -9.0], dtype=np.float32))[0]
    assert first.tobytes() == second.tobytes()


def test_the_vector_env_refuses_bad_actions():
    vector = LunarLanderVectorEnv(3)
    vector.reset(seed=0)
    with pytest.raises(ValueError):
        vector.step(np.array([0, 1]))
    with pytest.raises(lamina2d.WorldError, match="actions\\[2\\]"):
        vector.step(np.array([0, 1, 9]))


def test_gravity_outside_gymnasiums_range_is_refused_by_value():
    for gravity in (0.0, -12.0, 3.5):
        with pytest.raises(ValueError, match=str(gravity)):
            LunarLander(gravity=gravity)


def test_step_before_reset_raises():
    with pytest.raises(gym.error.ResetNeeded):
        LunarLander().step(0)


def test_a_pickled_env_works_as_the_original():
    env = gym.make(ENV_ID, continuous=True, enable_wind=True).unwrapped
    copy = pickle.loads(pickle.dumps(env))
    assert copy.continuous and copy.enable_wind
    actions = random_actions(env.action_space, 4, 100)
    original = run_episode(env, 9, actions)
    copied = run_episode(copy, 9, actions)
    assert original[0].tobytes() == copied[0].tobytes()


def test_a_pickled_vector_env_works_as_the_original():
    vector = LunarLanderVectorEnv(3, continuous=True, max_episode_steps=50)
    copy = pickle.loads(pickle.dumps(vector))
    assert copy.num_envs == 3 and copy.single_action_space.shape == (2,)
    first, _ = vector.reset(seed=8)
    second, _ = copy.reset(seed=8)
    assert first.tobytes() == second.tobytes()
    actions = np.zeros((3, 2), dtype=np.float32)
    assert vector.step(actions)[0].tobytes() == copy.step(actions)[0].tobytes()
