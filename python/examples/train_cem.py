"""Learning to land with plain NumPy: the cross-entropy method over a linear
policy, every candidate evaluated on Lamina's native vector environment (all
worlds stepped in Rust, in parallel). Prints the learning curve and saves it
as a picture.

Each generation draws `--population` weight matrices around the current mean,
runs each on `--episodes` seeded episodes at once (one vector env of
population × episodes landers), keeps the best fifth, and moves the mean and
spread to them.

    python python/examples/train_cem.py [--generations 30] [--population 64] [--out cem.png]
"""

import argparse

import gymnasium as gym
import numpy as np

import lamina2d
import lamina2d.envs  # noqa: F401  (registers the environments)

parser = argparse.ArgumentParser(description="The cross-entropy method on the native vector env.")
parser.add_argument("--generations", type=int, default=30)
parser.add_argument("--population", type=int, default=64)
parser.add_argument("--episodes", type=int, default=4, help="episodes per candidate")
parser.add_argument("--steps", type=int, default=400, help="steps per episode")
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--out", default="cem.png", help="the learning curve")
args = parser.parse_args()

OBSERVATIONS, ACTIONS = 8, 4
n = args.population * args.episodes
envs = gym.make_vec("lamina2d/LunarLander-v0", num_envs=n, vectorization_mode="vector_entry_point")
rng = np.random.default_rng(args.seed)
mean = np.zeros((OBSERVATIONS + 1, ACTIONS))
spread = np.full_like(mean, 1.0)
elite = max(2, args.population // 5)
curve = []


def evaluate(weights: np.ndarray, generation: int) -> np.ndarray:
    """The mean return of each candidate over its episodes (each episode counted until it ends)."""
    observations, _ = envs.reset(seed=args.seed * 1_000_003 + generation * n)
    per_env = np.repeat(weights, args.episodes, axis=0)  # (n, 9, 4): env i runs candidate i // episodes
    returns = np.zeros(n)
    running = np.ones(n, dtype=bool)
    for _ in range(args.steps):
        features = np.concatenate([observations, np.ones((n, 1), dtype=np.float32)], axis=1)
        actions = np.argmax(np.einsum("ni,nij->nj", features, per_env), axis=1)
        observations, rewards, terminated, truncated, _ = envs.step(actions)
        returns += rewards * running
        running &= ~(terminated | truncated)
        if not running.any():
            break
    return returns.reshape(args.population, args.episodes).mean(axis=1)


for generation in range(args.generations):
    candidates = mean + spread * rng.standard_normal((args.population, *mean.shape))
    scores = evaluate(candidates, generation)
    best = candidates[np.argsort(scores)[-elite:]]
    mean, spread = best.mean(axis=0), best.std(axis=0) + 0.05
    curve.append((scores.mean(), scores.max()))
    print(f"generation {generation + 1:3d}: mean return {scores.mean():8.1f}, best {scores.max():8.1f}")

# The learning curve as a picture: mean (orange) and best (blue) return per generation.
height, width = 300, 600
picture = np.full((height, width, 3), 250, dtype=np.uint8)
values = np.array(curve)
low, high = min(values.min(), -300.0), max(values.max(), 300.0)
for column, colour in ((0, (240, 150, 60)), (1, (90, 140, 220))):
    xs = np.linspace(10, width - 10, len(values)).astype(int)
    ys = (height - 10 - (values[:, column] - low) / (high - low) * (height - 20)).astype(int)
    for x0, y0, x1, y1 in zip(xs[:-1], ys[:-1], xs[1:], ys[1:]):
        for t in np.linspace(0.0, 1.0, 40):
            x, y = int(x0 + (x1 - x0) * t), int(y0 + (y1 - y0) * t)
            picture[max(y - 1, 0) : y + 2, max(x - 1, 0) : x + 2] = colour
zero = int(height - 10 - (0.0 - low) / (high - low) * (height - 20))
picture[zero, :] = (180, 180, 180)
lamina2d.write_png(args.out, picture)
print(f"learning curve: {args.out}")
