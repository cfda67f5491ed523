"""The native vector environment: a :class:`gymnasium.vector.VectorEnv` whose
worlds live and step in Rust, in parallel on Lamina's pool with the GIL
released, writing observations, rewards and flags straight into NumPy arrays.

It follows Gymnasium's default autoreset (``AutoresetMode.NEXT_STEP``): the
step after an episode ends resets that environment and returns its first
observation with reward 0. ``reset(seed=s)`` seeds environment ``i`` with
``s + i``, as :class:`gymnasium.vector.SyncVectorEnv` does, so environment
``i`` follows a single environment reset with seed ``s + i``, bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from lamina2d.envs._seeding import episode_seed


class NativeVectorEnv(VectorEnv):
    """Environments of one kind stepped together by a native batch.

    Subclasses pass the batch (a ``lamina2d._lamina`` batch class with
    ``reset(seeds, observations)``, ``step(actions, reset_seeds, observations,
    rewards, terminated, truncated)`` and ``render(index)``) and the spaces of
    one environment.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array"]}

    def __init__(
        self,
        batch: Any,
        num_envs: int,
        single_observation_space: spaces.Box,
        single_action_space: spaces.Space,
        render_mode: str | None = None,
    ):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array' for a vector env, got {render_mode!r}")
        self._batch = batch
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.single_observation_space = single_observation_space
        self.single_action_space = single_action_space
        self.observation_space = batch_space(single_observation_space, num_envs)
        self.action_space = batch_space(single_action_space, num_envs)
        self._discrete = isinstance(single_action_space, spaces.Discrete)
        self._obs_len = int(np.prod(single_observation_space.shape))
        self._generators = [seeding.np_random()[0] for _ in range(num_envs)]
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        self._reset_seeds = np.zeros(num_envs, dtype=np.uint64)
        self._has_reset = False

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict | None = None):
        """Resets every environment; ``seed`` is an int (env i gets ``seed + i``) or one per env."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"expected {self.num_envs} seeds, got {len(seeds)}")
        for i, s in enumerate(seeds):
            if s is not None:
                self._generators[i], _ = seeding.np_random(s)
        if seed is not None:
            self._np_random_seed = seeds[0]
        episode_seeds = np.fromiter(
            (episode_seed(g) for g in self._generators), dtype=np.uint64, count=self.num_envs
        )
        observations = np.empty((self.num_envs, self._obs_len), dtype=np.float32)
        self._batch.reset(episode_seeds, observations)
        self._ended[:] = False
        self._has_reset = True
        return observations, {}

    def step(self, actions):
        """Steps every environment (resetting those whose episode ended on the last step)."""
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        if self._discrete:
            actions = np.asarray(actions)
            if actions.shape != (self.num_envs,):
                raise ValueError(f"expected {self.num_envs} discrete actions, got shape {actions.shape}")
            actions = actions.astype(np.float32).reshape(self.num_envs, 1)
        else:
            actions = np.ascontiguousarray(actions, dtype=np.float32)
            expected = (self.num_envs, *self.single_action_space.shape)
            if actions.shape != expected:
                raise ValueError(f"expected actions of shape {expected}, got {actions.shape}")
        for i in np.flatnonzero(self._ended):
            self._reset_seeds[i] = episode_seed(self._generators[i])
        observations = np.empty((self.num_envs, self._obs_len), dtype=np.float32)
        rewards = np.empty(self.num_envs, dtype=np.float64)
        terminated = np.empty(self.num_envs, dtype=np.bool_)
        truncated = np.empty(self.num_envs, dtype=np.bool_)
        self._batch.step(actions, self._reset_seeds, observations, rewards, terminated, truncated)
        np.logical_or(terminated, truncated, out=self._ended)
        return observations, rewards, terminated, truncated, {}

    def render(self):
        """Every environment's picture, as a tuple of ``(height, width, 3)`` arrays."""
        if self.render_mode is None:
            return None
        return tuple(self._batch.render(i) for i in range(self.num_envs))
