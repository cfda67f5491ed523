"""Gymnasium's LunarLander-v3 simulated on Lamina.

:class:`LunarLander` is a :class:`gymnasium.Env` with the spaces, rewards and
termination of Gymnasium's ``LunarLander-v3``; :class:`LunarLanderVectorEnv`
steps many of them in Rust, in parallel. :func:`heuristic` is Gymnasium's
hand-written controller, which lands most episodes.

The legs hinge on the hull as in Gymnasium, held at their rest angle by a
servo of Gymnasium's torque rather than pressed against a limit: see
``python/envs/src/lunar_lander.rs`` for why. Everything else (the hull, the
legs' shapes and masses, the terrain, the engines, wind and turbulence, the
observation and reward) follows Gymnasium's code.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import DependencyNotInstalled
from gymnasium.utils import EzPickle

from lamina2d._lamina import LunarLanderBatch, LunarLanderCore
from lamina2d.envs._seeding import episode_seed
from lamina2d.envs._vector import NativeVectorEnv

__all__ = ["LunarLander", "LunarLanderVectorEnv", "heuristic"]

FPS = 50
VIEWPORT_W = 600
VIEWPORT_H = 400

_OBSERVATION_HIGH = np.array([2.5, 2.5, 10.0, 10.0, 2 * math.pi, 10.0, 1.0, 1.0], dtype=np.float32)
_OBSERVATION_LOW = np.array([-2.5, -2.5, -10.0, -10.0, -2 * math.pi, -10.0, -0.0, -0.0], dtype=np.float32)


def _observation_space() -> spaces.Box:
    return spaces.Box(_OBSERVATION_LOW, _OBSERVATION_HIGH)


def _action_space(continuous: bool) -> spaces.Space:
    # Continuous: main engine (off below 0, half to full power above) and
    # side engines (off within ±0.5). Discrete: nothing, left, main, right.
    return spaces.Box(-1, +1, (2,), dtype=np.float32) if continuous else spaces.Discrete(4)


class LunarLander(gym.Env, EzPickle):
    """Land on the pad between the flags: Gymnasium's ``LunarLander-v3``, on Lamina.

    The observation is the lander's position relative to the pad, its
    velocity, angle and angular velocity (in Gymnasium's scaled units) and
    whether each leg touches the ground. The episode ends with -100 for a
    crash or for flying off the screen sideways, and with +100 once the
    lander comes to rest.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": FPS}

    def __init__(
        self,
        render_mode: str | None = None,
        continuous: bool = False,
        gravity: float = -10.0,
        enable_wind: bool = False,
        wind_power: float = 15.0,
        turbulence_power: float = 1.5,
    ):
        EzPickle.__init__(self, render_mode, continuous, gravity, enable_wind, wind_power, turbulence_power)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'human' or 'rgb_array', got {render_mode!r}")
        if not 0.0 <= wind_power <= 20.0:
            gym.logger.warn(f"wind_power value is recommended to be between 0.0 and 20.0, (current value: {wind_power})")
        if not 0.0 <= turbulence_power <= 2.0:
            gym.logger.warn(
                f"turbulence_power value is recommended to be between 0.0 and 2.0, (current value: {turbulence_power})"
            )
        # The exhaust particles are only for the picture: simulated only when there is one.
        self._core = LunarLanderCore(
            continuous, gravity, enable_wind, wind_power, turbulence_power, particles=render_mode is not None
        )
        self.render_mode = render_mode
        self.continuous = continuous
        self.gravity = gravity
        self.enable_wind = enable_wind
        self.wind_power = wind_power
        self.turbulence_power = turbulence_power
        self.observation_space = _observation_space()
        self.action_space = _action_space(continuous)
        self._screen = None
        self._clock = None
        self._has_reset = False

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        observation = self._core.reset(episode_seed(self.np_random))
        self._has_reset = True
        if self.render_mode == "human":
            self.render()
        return observation, {}

    def step(self, action):
        if not self._has_reset:
            raise gym.error.ResetNeeded("call reset() before step()")
        observation, reward, terminated = self._core.step(action)
        if self.render_mode == "human":
            self.render()
        # Truncation is the TimeLimit wrapper's, which gym.make adds.
        return observation, reward, terminated, False, {}

    def render(self):
        """The scene as a (400, 600, 3) uint8 array (``rgb_array``), or drawn in a window (``human``)."""
        if self.render_mode is None:
            env_id = self.spec.id if self.spec is not None else "lamina2d/LunarLander-v0"
            gym.logger.warn(
                "You are calling render method without specifying any render mode. "
                f'You can specify the render_mode at initialization, e.g. gym.make("{env_id}", render_mode="rgb_array")'
            )
            return None
        picture = self._core.render()
        if self.render_mode == "rgb_array":
            return picture
        self._show(picture)
        return None

    def _show(self, picture: np.ndarray) -> None:
        """Blits the picture into the window, opening it on first use, at the env's frame rate."""
        try:
            import pygame
        except ImportError as e:
            raise DependencyNotInstalled('pygame is not installed, run `pip install "lamina2d[human]"`') from e
        if self._screen is None:
            pygame.init()
            pygame.display.init()
            self._screen = pygame.display.set_mode((VIEWPORT_W, VIEWPORT_H))
            self._clock = pygame.time.Clock()
        # pygame's surfaces are indexed (x, y), the picture (row, column).
        pygame.surfarray.blit_array(self._screen, picture.transpose(1, 0, 2))
        pygame.event.pump()
        self._clock.tick(self.metadata["render_fps"])
        pygame.display.flip()

    def close(self):
        if self._screen is not None:
            import pygame

            pygame.display.quit()
            pygame.quit()
            self._screen = None
            self._clock = None


class LunarLanderVectorEnv(NativeVectorEnv):
    """``num_envs`` LunarLanders stepped together in Rust, on Lamina's pool.

    Environment ``i`` of ``reset(seed=s)`` follows ``LunarLander`` reset with
    seed ``s + i``, bit for bit, through its autoresets.
    """

    metadata = {**NativeVectorEnv.metadata, "render_fps": FPS}

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 1000,
        continuous: bool = False,
        gravity: float = -10.0,
        enable_wind: bool = False,
        wind_power: float = 15.0,
        turbulence_power: float = 1.5,
    ):
        self._kwargs = dict(
            num_envs=num_envs,
            render_mode=render_mode,
            max_episode_steps=max_episode_steps,
            continuous=continuous,
            gravity=gravity,
            enable_wind=enable_wind,
            wind_power=wind_power,
            turbulence_power=turbulence_power,
        )
        batch = LunarLanderBatch(
            num_envs,
            max_episode_steps,
            continuous,
            gravity,
            enable_wind,
            wind_power,
            turbulence_power,
            particles=render_mode is not None,
        )
        super().__init__(batch, num_envs, _observation_space(), _action_space(continuous), render_mode)

    def __reduce__(self):
        # A copy is a new vector env of the same arguments, reset afresh.
        return functools.partial(type(self), **self._kwargs), ()


def heuristic(observation: Any, continuous: bool = False):
    """Gymnasium's hand-written LunarLander controller.

    It aims the lander's tilt at the pad (no more than 0.4 rad), wants a
    height that shrinks with the horizontal distance to the pad, and once
    either leg is down only brakes the fall. Returns a discrete action
    (0 nothing, 1 left engine, 2 main engine, 3 right engine) or, with
    ``continuous``, the two throttles.
    """
    x, y, vx, vy, angle, angular_velocity, right_contact, left_contact = (float(v) for v in observation)
    angle_target = min(max(0.5 * x + vx, -0.4), 0.4)
    hover_target = 0.55 * abs(x)
    angle_todo = 0.5 * (angle_target - angle) - angular_velocity
    hover_todo = 0.5 * (hover_target - y) - 0.5 * vy
    if right_contact or left_contact:
        angle_todo = 0.0
        hover_todo = -0.5 * vy
    if continuous:
        return np.clip(np.array([20.0 * hover_todo - 1.0, -20.0 * angle_todo]), -1.0, 1.0)
    if hover_todo > abs(angle_todo) and hover_todo > 0.05:
        return 2
    if angle_todo < -0.05:
        return 3
    if angle_todo > 0.05:
        return 1
    return 0
