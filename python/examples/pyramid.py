"""A 20-row pyramid of boxes (210 bodies) settles, then a heavy ball smashes
it; the bodies' state is read as NumPy arrays, and pictures of before and
after are saved as PNG files.

    python python/examples/pyramid.py [--rows 20] [--out pyramid]
"""

import argparse

import numpy as np

import lamina2d as lamina

parser = argparse.ArgumentParser(description="A pyramid smashed by a ball.")
parser.add_argument("--rows", type=int, default=20)
parser.add_argument("--out", default="pyramid", help="prefix of the PNG files")
args = parser.parse_args()

world = lamina.World()
ground = world.add_body("fixed", position=(0.0, -1.0))
world.add_collider(ground, lamina.Box(80.0, 1.0))
square = lamina.Box(0.5, 0.5)
for i in range(args.rows):
    for j in range(i, args.rows):
        x = (i + 1) * 0.5 + 2 * (j - i) * 0.5 - args.rows * 0.5
        world.add_collider(world.add_body("dynamic", position=(x, 2 * i * 0.5 + 0.5)), square)

for _ in range(120):
    world.step(1 / 60)
heights = world.positions()[:, 1]
print(f"{world.body_count - 1} boxes settled: top at y = {heights.max():.3f} m (placed at {args.rows - 0.5})")
view = dict(width=800, height=500, center=(0.0, args.rows * 0.5), scale=500 / (args.rows * 1.6))
lamina.write_png(f"{args.out}_settled.png", world.render(**view))

ball = world.add_body("dynamic", position=(-args.rows * 0.5 - 15.0, 8.0), linear_velocity=(30.0, 0.0), bullet=True)
world.add_collider(ball, lamina.Circle(1.0), density=20.0)
for _ in range(180):
    world.step(1 / 60)
speeds = np.linalg.norm(world.velocities()[:, :2], axis=1)
print(f"after the ball: {np.count_nonzero(speeds > 0.1)} bodies still moving, fastest {speeds.max():.2f} m/s")
lamina.write_png(f"{args.out}_smashed.png", world.render(**view))
print(f"pictures: {args.out}_settled.png, {args.out}_smashed.png")
