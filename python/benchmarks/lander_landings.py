"""How often Gymnasium's hand-written LunarLander controller lands, on Lamina
and on Gymnasium's Box2D environment, through ``gym.make`` with the same
seeds: a measure of how close the two simulations behave, not of speed.

A landing is an episode that ends with the +100 of a lander come to rest.
Each engine's env gets the same seeds (the terrains and start pushes are
drawn alike from them), and each is flown by Gymnasium's own ``heuristic``
(Lamina's env ships the same function for its observation).

Gymnasium's Box2D environments need ``pip install box2d pygame``.

    python python/benchmarks/lander_landings.py [--seeds 30]
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np
from gymnasium.envs.box2d.lunar_lander import heuristic as box2d_heuristic

import lamina2d.envs  # noqa: F401  (registers the environments)
from lamina2d.envs.lunar_lander import heuristic as lamina_heuristic


def fly(env_id: str, continuous: bool, seeds: int, controller) -> tuple[int, float]:
    """Flies seeds 0 to ``seeds - 1``; returns the landings and the mean return."""
    env = gym.make(env_id, continuous=continuous)
    landed, returns = 0, []
    for seed in range(seeds):
        observation, _ = env.reset(seed=seed)
        total, reward, terminated, truncated = 0.0, 0.0, False, False
        while not (terminated or truncated):
            observation, reward, terminated, truncated, _ = env.step(controller(env, observation, continuous))
            total += float(reward)
        landed += int(terminated and reward == 100.0)
        returns.append(total)
    env.close()
    return landed, float(np.mean(returns))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=30)
    seeds = parser.parse_args().seeds
    print("| actions | Lamina: landed, mean return | Box2D: landed, mean return |")
    print("|---|---|---|")
    for continuous in (False, True):
        lamina = fly("lamina2d/LunarLander-v0", continuous, seeds, lambda _, o, c: lamina_heuristic(o, c))
        box2d = fly("LunarLander-v3", continuous, seeds, lambda e, o, _: box2d_heuristic(e.unwrapped, o))
        name = "continuous" if continuous else "discrete"
        print(f"| {name} | {lamina[0]} of {seeds}, {lamina[1]:.0f} | {box2d[0]} of {seeds}, {box2d[1]:.0f} |")


if __name__ == "__main__":
    main()
