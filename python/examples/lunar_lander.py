"""The lander flown by Gymnasium's hand-written controller (its `heuristic`,
ported to `lamina2d.envs.lunar_lander.heuristic`), on Lamina's physics: a few
seeded episodes with their returns and how each ended, and the last frame
of the first one saved as a picture.

    python python/examples/lunar_lander.py [--episodes 5] [--continuous] [--out lander.png]
"""

import argparse

import gymnasium as gym

import lamina2d
import lamina2d.envs  # noqa: F401  (registers the environments)
from lamina2d.envs.lunar_lander import heuristic

parser = argparse.ArgumentParser(description="The lander under Gymnasium's heuristic controller.")
parser.add_argument("--episodes", type=int, default=5)
parser.add_argument("--continuous", action="store_true")
parser.add_argument("--out", default="lander.png", help="the first episode's last frame")
args = parser.parse_args()

env = gym.make("lamina2d/LunarLander-v0", continuous=args.continuous, render_mode="rgb_array")
returns = []
for episode in range(args.episodes):
    observation, _ = env.reset(seed=episode)
    total, steps, done = 0.0, 0, False
    while not done:
        observation, reward, terminated, truncated, _ = env.step(heuristic(observation, args.continuous))
        total, steps, done = total + reward, steps + 1, terminated or truncated
    ending = "landed and came to rest" if reward == 100 else "crashed" if reward == -100 else "ran out of time"
    print(f"seed {episode}: return {total:7.1f} after {steps:4d} steps, {ending}")
    if episode == 0:
        lamina2d.write_png(args.out, env.render())
    returns.append(total)
print(f"mean return {sum(returns) / len(returns):.1f} (Gymnasium counts 200 as solved); picture: {args.out}")
env.close()
