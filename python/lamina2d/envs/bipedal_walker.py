"""BipedalWalker simulated on Lamina: Gymnasium's BipedalWalker-v3 and its
hardcore course, with the same spaces, rewards, termination and course, the
world stepped by Lamina's native core.

::

    import gymnasium as gym
    import lamina2d.envs

    env = gym.make("lamina2d/BipedalWalker-v0", render_mode="rgb_array")
    envs = gym.make_vec("lamina2d/BipedalWalker-v0", num_envs=256,
                        vectorization_mode="vector_entry_point")

:func:`heuristic` is Gymnasium's scripted gait, as a behavioural baseline.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import DependencyNotInstalled
from gymnasium.utils import EzPickle

from lamina2d._lamina import BipedalWalkerBatch, BipedalWalkerCore
from lamina2d.envs._seeding import episode_seed
from lamina2d.envs._vector import NativeVectorEnv

FPS = 50
VIEWPORT_W, VIEWPORT_H = 600, 400

__all__ = ["BipedalWalker", "BipedalWalkerVectorEnv", "GaitState", "heuristic"]


def _observation_space() -> spaces.Box:
    # Gymnasium's bounds: angles within ±π, speeds within ±5 (five times the
    # rated speed, which ground impacts can reach), contacts in [0, 5] as it
    # gives them, lidar fractions within ±1.
    hull = [math.pi, 5.0, 5.0, 5.0]
    leg = [math.pi, 5.0, math.pi, 5.0, 5.0]
    high = np.array(hull + leg + leg + [1.0] * 10, dtype=np.float32)
    low = -high
    low[[8, 13]] = 0.0
    return spaces.Box(low, high)


def _action_space() -> spaces.Box:
    return spaces.Box(-np.ones(4, dtype=np.float32), np.ones(4, dtype=np.float32))


class BipedalWalker(gym.Env, EzPickle):
    """Gymnasium's BipedalWalker-v3 on Lamina.

    A four-joint walker crosses a course of grass (``hardcore=True``: with
    stumps, stairs and pits). Actions are the hip and knee motor commands in
    [-1, 1]: each joint turns at its rated speed in the command's direction
    with a torque limit proportional to its size. The observation holds the
    hull's angle, spin and velocity, each joint's angle and speed, each foot's
    ground contact and ten lidar fractions. Walking forward earns up to about
    300 over the course; a fall costs 100 and ends the episode, as does
    arriving at the far end.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": FPS}

    def __init__(self, render_mode: str | None = None, hardcore: bool = False):
        EzPickle.__init__(self, render_mode, hardcore)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.hardcore = hardcore
        self.observation_space = _observation_space()
        self.action_space = _action_space()
        self._core = BipedalWalkerCore(hardcore=hardcore)
        self._screen = None
        self._clock = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        observation = self._core.reset(episode_seed(self.np_random))
        if self.render_mode == "human":
            self.render()
        return observation, {}

    def step(self, action):
        observation, reward, terminated = self._core.step(action)
        if self.render_mode == "human":
            self.render()
        # The time limit is the TimeLimit wrapper's, added by gym.make.
        return observation, reward, terminated, False, {}

    @property
    def hull_position(self) -> tuple[float, float]:
        """The hull's origin ``(x, y)`` in metres; the observation has no coordinates."""
        return self._core.hull_position()

    def render(self):
        if self.render_mode is None:
            name = self.spec.id if self.spec is not None else "lamina2d/BipedalWalker-v0"
            gym.logger.warn(
                "You are calling render method without specifying any render mode. "
                f'You can specify the render_mode at initialization, e.g. gym.make("{name}", render_mode="rgb_array")'
            )
            return None
        picture = self._core.render()
        if self.render_mode == "rgb_array":
            return picture
        self._show(picture)
        return None

    def _show(self, picture: np.ndarray) -> None:
        try:
            import pygame
        except ImportError as e:
            raise DependencyNotInstalled(
                'pygame is not installed; run `pip install "lamina2d[human]"` to render in human mode'
            ) from e
        if self._screen is None:
            pygame.init()
            pygame.display.init()
            self._screen = pygame.display.set_mode((VIEWPORT_W, VIEWPORT_H))
            self._clock = pygame.time.Clock()
        # pygame's surfaces are indexed (x, y); the picture is (row, column).
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(picture.transpose(1, 0, 2)))
        self._screen.blit(surface, (0, 0))
        pygame.event.pump()
        self._clock.tick(self.metadata["render_fps"])
        pygame.display.flip()

    def close(self):
        if self._screen is not None:
            import pygame

            pygame.display.quit()
            pygame.quit()
            self._screen = None


class BipedalWalkerVectorEnv(NativeVectorEnv):
    """``num_envs`` BipedalWalkers stepped together in Rust, on Lamina's pool.

    Environment ``i`` of ``reset(seed=s)`` follows ``BipedalWalker`` reset
    with seed ``s + i``, bit for bit, with Gymnasium's next-step autoreset and
    truncation after ``max_episode_steps``.
    """

    metadata = {**NativeVectorEnv.metadata, "render_fps": FPS}

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 1600,
        hardcore: bool = False,
    ):
        self._kwargs = {
            "num_envs": num_envs,
            "render_mode": render_mode,
            "max_episode_steps": max_episode_steps,
            "hardcore": hardcore,
        }
        batch = BipedalWalkerBatch(num_envs, max_episode_steps, hardcore=hardcore)
        super().__init__(batch, num_envs, _observation_space(), _action_space(), render_mode=render_mode)
        self.hardcore = hardcore

    def __reduce__(self):
        # A native batch does not pickle; a fresh vector of the same
        # arguments stands in for it (reset it before use).
        return (functools.partial(type(self), **self._kwargs), ())


@dataclass
class GaitState:
    """Where :func:`heuristic`'s gait is: its phase, which leg swings, and the
    supporting knee's target."""

    phase: int = 0
    moving_leg: int = 0
    supporting_knee: float = 0.1
    action: np.ndarray = field(default_factory=lambda: np.zeros(4, dtype=np.float32))


# The gait's phases: stand on one leg while the other swings forward, put the
# swinging leg down, push off with the other.
_STAND, _PUT_DOWN, _PUSH_OFF = 0, 1, 2
_SPEED = 0.29  # faster, and the walker falls forward
_SUPPORT_KNEE = 0.1


def heuristic(observation: np.ndarray, state: GaitState) -> np.ndarray:
    """Gymnasium's scripted walking controller: the next action for
    ``observation``, updating ``state`` (start each episode with a fresh
    :class:`GaitState`).

    A state machine picks targets for the hips and knees (a leg swings forward
    with its knee bent, is put down, then the other pushes off), and
    proportional-derivative terms drive the joints toward them while keeping
    the hull level and damping its bounce. It knows nothing of balance.
    """
    s = observation
    moving, supporting = state.moving_leg, 1 - state.moving_leg
    moving_base, supporting_base = 4 + 5 * moving, 4 + 5 * supporting
    hip_target: list[float | None] = [None, None]
    knee_target: list[float | None] = [None, None]

    if state.phase == _STAND:
        hip_target[moving], knee_target[moving] = 1.1, -0.6
        state.supporting_knee += 0.03
        if s[2] > _SPEED:
            state.supporting_knee += 0.03
        state.supporting_knee = min(state.supporting_knee, _SUPPORT_KNEE)
        knee_target[supporting] = state.supporting_knee
        if s[supporting_base] < 0.10:  # the supporting leg is behind
            state.phase = _PUT_DOWN
    if state.phase == _PUT_DOWN:
        hip_target[moving], knee_target[moving] = 0.1, _SUPPORT_KNEE
        knee_target[supporting] = state.supporting_knee
        if s[moving_base + 4]:  # the swinging foot touched down
            state.phase = _PUSH_OFF
            state.supporting_knee = min(s[moving_base + 2], _SUPPORT_KNEE)
    if state.phase == _PUSH_OFF:
        knee_target[moving] = state.supporting_knee
        knee_target[supporting] = 1.0
        if s[supporting_base + 2] > 0.88 or s[2] > 1.2 * _SPEED:
            state.phase = _STAND
            state.moving_leg = supporting

    hip = [0.0, 0.0]
    knee = [0.0, 0.0]
    for leg in (0, 1):
        base = 4 + 5 * leg
        # Gymnasium tests its targets for truth: a target of 0 counts as none.
        if hip_target[leg]:
            hip[leg] = 0.9 * (hip_target[leg] - s[base]) - 0.25 * s[base + 1]
        if knee_target[leg]:
            knee[leg] = 4.0 * (knee_target[leg] - s[base + 2]) - 0.25 * s[base + 3]
        hip[leg] -= 0.9 * (0 - s[0]) - 1.5 * s[1]  # keep the hull level
        knee[leg] -= 15.0 * s[3]  # damp the vertical bounce
    action = np.array([hip[0], knee[0], hip[1], knee[1]], dtype=np.float32)
    state.action = np.clip(0.5 * action, -1.0, 1.0).astype(np.float32)
    return state.action
