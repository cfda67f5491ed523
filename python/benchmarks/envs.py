"""Gymnasium environments on Lamina against Gymnasium's own Box2D ones, side
by side in one process.

- One environment through ``gym.make`` (with Gymnasium's usual wrappers):
  ``lamina2d/LunarLander-v0`` against ``LunarLander-v3``, and
  ``lamina2d/BipedalWalker-v0`` against ``BipedalWalker-v3``.
- Vector environments: Lamina's native one (every world stepped in Rust on
  Lamina's pool) on 1 and 2 threads against Gymnasium's ``SyncVectorEnv``
  and ``AsyncVectorEnv`` of the Box2D environment.

Every run replays the same pre-drawn random actions (drawing them is not
timed), resets where an episode ends, and each figure is the best of several
rounds, the engines taking turns within a round.

    python python/benchmarks/envs.py [--single] [--vector] [--envs 64 256 1024] [--rounds 3]
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import lamina2d
import lamina2d.envs  # noqa: F401  (registers the environments)

PAIRS = {
    "LunarLander": ("lamina2d/LunarLander-v0", "LunarLander-v3"),
    "BipedalWalker": ("lamina2d/BipedalWalker-v0", "BipedalWalker-v3"),
}


def single_env_rate(env_id: str, steps: int, seed: int = 0) -> float:
    """Steps a second of one environment made by ``gym.make``."""
    env = gym.make(env_id)
    env.action_space.seed(seed)
    actions = [env.action_space.sample() for _ in range(steps)]
    env.reset(seed=seed)
    start = time.perf_counter()
    for action in actions:
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def vector_env_rate(make, steps: int, seed: int = 0) -> float:
    """Environment-steps a second of a vector environment (next-step autoreset)."""
    envs = make()
    envs.action_space.seed(seed)
    actions = [envs.action_space.sample() for _ in range(steps)]
    envs.reset(seed=seed)
    start = time.perf_counter()
    for action in actions:
        envs.step(action)
    elapsed = time.perf_counter() - start
    rate = steps * envs.num_envs / elapsed
    envs.close()
    return rate


def best(rounds: int, runs: dict) -> dict:
    """The best rate of each run over `rounds` rounds, the runs taking turns."""
    rates = {name: 0.0 for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            rates[name] = max(rates[name], run())
    return rates


def single(args) -> None:
    print(f"\nOne environment through gym.make, {args.steps} steps, best of {args.rounds}:\n")
    print("| environment | Lamina steps/s | Box2D steps/s | Lamina / Box2D |")
    print("|---|---|---|---|")
    for name, (ours, theirs) in PAIRS.items():
        rates = best(
            args.rounds,
            {"ours": lambda: single_env_rate(ours, args.steps), "theirs": lambda: single_env_rate(theirs, args.steps)},
        )
        print(f"| {name} | {rates['ours']:,.0f} | {rates['theirs']:,.0f} | {rates['ours'] / rates['theirs']:.1f}× |")


def vector(args) -> None:
    print(f"\nVector environments, {args.vector_steps} steps, best of {args.rounds} (env-steps/s):\n")
    print("| environment | envs | Lamina, 1 thread | Lamina, 2 threads | SyncVectorEnv | AsyncVectorEnv | Lamina (2) / Sync |")
    print("|---|---|---|---|---|---|---|")
    for name, (ours, theirs) in PAIRS.items():
        for n in args.envs:

            def native(threads, n=n, ours=ours):
                lamina2d.set_num_threads(threads)
                return vector_env_rate(
                    lambda: gym.make_vec(ours, num_envs=n, vectorization_mode="vector_entry_point"), args.vector_steps
                )

            runs = {
                "one": lambda: native(1),
                "two": lambda: native(2),
                "sync": lambda n=n: vector_env_rate(
                    lambda: gym.make_vec(theirs, num_envs=n, vectorization_mode="sync"), max(args.vector_steps // 10, 10)
                ),
            }
            # One process per environment: beyond a few dozen on a small
            # machine it measures the operating system, not the engine.
            if n <= args.async_max:
                runs["async"] = lambda n=n: vector_env_rate(
                    lambda: gym.make_vec(theirs, num_envs=n, vectorization_mode="async"), max(args.vector_steps // 10, 10)
                )
            rates = best(args.rounds, runs)
            async_cell = f"{rates['async']:,.0f}" if "async" in rates else "—"
            print(
                f"| {name} | {n} | {rates['one']:,.0f} | {rates['two']:,.0f} | {rates['sync']:,.0f} | "
                f"{async_cell} | {rates['two'] / rates['sync']:.1f}× |"
            )
    lamina2d.set_num_threads(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--single", action="store_true", help="only the single-environment table")
    parser.add_argument("--vector", action="store_true", help="only the vector-environment table")
    parser.add_argument("--steps", type=int, default=5000, help="steps of a single environment")
    parser.add_argument("--vector-steps", type=int, default=500, help="steps of a vector environment")
    parser.add_argument("--envs", type=int, nargs="+", default=[64, 256, 1024])
    parser.add_argument("--async-max", type=int, default=64, help="the most envs run with AsyncVectorEnv")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    both = not (args.single or args.vector)
    if args.single or both:
        single(args)
    if args.vector or both:
        vector(args)


if __name__ == "__main__":
    main()
