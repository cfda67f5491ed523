"""Gymnasium environments simulated on Lamina.

Importing this module registers them, as Gymnasium's third-party convention wants::

    import gymnasium as gym
    import lamina2d.envs

    env = gym.make("lamina2d/LunarLander-v0")                  # continuous=True, enable_wind=True, ...
    env = gym.make("lamina2d/BipedalWalker-v0")                # hardcore=True too
    envs = gym.make_vec("lamina2d/LunarLander-v0", num_envs=64,
                        vectorization_mode="vector_entry_point")  # every world stepped in Rust

The observation and action spaces, rewards, termination and truncation are
those of Gymnasium's LunarLander-v3 and BipedalWalker-v3; the physics is
Lamina's.
"""

from gymnasium.envs.registration import register, registry

from lamina2d.envs.bipedal_walker import BipedalWalker, BipedalWalkerVectorEnv
from lamina2d.envs.lunar_lander import LunarLander, LunarLanderVectorEnv

__all__ = ["LunarLander", "LunarLanderVectorEnv", "BipedalWalker", "BipedalWalkerVectorEnv"]


def _register(env_id: str, **spec) -> None:
    # Importing twice (or reloading) must not warn about a re-registration.
    if env_id not in registry:
        register(id=env_id, **spec)


_register(
    "lamina2d/LunarLander-v0",
    entry_point="lamina2d.envs.lunar_lander:LunarLander",
    vector_entry_point="lamina2d.envs.lunar_lander:LunarLanderVectorEnv",
    max_episode_steps=1000,
    reward_threshold=200,
)
_register(
    "lamina2d/BipedalWalker-v0",
    entry_point="lamina2d.envs.bipedal_walker:BipedalWalker",
    vector_entry_point="lamina2d.envs.bipedal_walker:BipedalWalkerVectorEnv",
    max_episode_steps=1600,
    reward_threshold=300,
)
_register(
    "lamina2d/BipedalWalkerHardcore-v0",
    entry_point="lamina2d.envs.bipedal_walker:BipedalWalker",
    vector_entry_point="lamina2d.envs.bipedal_walker:BipedalWalkerVectorEnv",
    kwargs={"hardcore": True},
    max_episode_steps=2000,
    reward_threshold=300,
)
