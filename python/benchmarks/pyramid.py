"""A box pyramid stepped from Python: Lamina against pybox2d (Box2D 2.3) and
pymunk (Chipmunk 7), side by side in one process.

The pyramid is SCENES.md's large pyramid at a smaller base: boxes of
half-extent 0.5 on a wide ground box, row i at y = (2i + 1)·0.5. Each engine is
timed twice: stepping alone, and stepping then reading every body's position
and angle (as drawing a frame or building an observation does; Lamina reads
them as NumPy arrays, the others body by body). Sleep is off in every engine (pymunk has none by default), so each step of the measured
stretch simulates every box. The engines run in turn, round after round, and
each figure is the best round: on a noisy machine the minimum is the figure
least disturbed by other work.

    python python/benchmarks/pyramid.py [--rows 20 40] [--steps 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import time

import lamina2d as lamina

HALF = 0.5
DT = 1.0 / 60.0


def box_centres(rows: int):
    """The centres of the pyramid's boxes, bottom row first."""
    for i in range(rows):
        for j in range(i, rows):
            yield (i + 1) * HALF + 2 * (j - i) * HALF - rows * HALF, (2 * i + 1) * HALF


def lamina_pyramid(rows: int):
    world = lamina.World(gravity=(0.0, -10.0), enable_sleep=False)
    ground = world.add_body("fixed", position=(0.0, -1.0))
    world.add_collider(ground, lamina.Box(rows * HALF + 40.0, 1.0), friction=0.6)
    square = lamina.Box(HALF, HALF)
    for x, y in box_centres(rows):
        world.add_collider(world.add_body("dynamic", position=(x, y)), square, density=1.0, friction=0.6)
    def step_and_read():
        world.step(DT)
        return world.positions(), world.angles()

    return lambda: world.step(DT), step_and_read


def box2d_pyramid(rows: int):
    import Box2D

    world = Box2D.b2World(gravity=(0.0, -10.0), doSleep=False)
    world.CreateStaticBody(position=(0.0, -1.0), shapes=Box2D.b2PolygonShape(box=(rows * HALF + 40.0, 1.0)))
    for x, y in box_centres(rows):
        body = world.CreateDynamicBody(position=(x, y))
        body.CreatePolygonFixture(box=(HALF, HALF), density=1.0, friction=0.6)
    bodies = list(world.bodies)

    def step_and_read():
        # Box2D 2.3's recommended iterations: 8 velocity, 3 position.
        world.Step(DT, 8, 3)
        return [(tuple(b.position), b.angle) for b in bodies]

    return lambda: world.Step(DT, 8, 3), step_and_read


def pymunk_pyramid(rows: int):
    import pymunk

    space = pymunk.Space()
    space.gravity = (0.0, -10.0)
    ground = pymunk.Poly.create_box(space.static_body, (2 * (rows * HALF + 40.0), 2.0))
    ground.body.position = (0.0, -1.0)
    # The static body moved after its shape was made: tell the space.
    ground.friction = 0.6
    space.add(ground)
    space.reindex_static()
    for x, y in box_centres(rows):
        body = pymunk.Body()
        body.position = (x, y)
        shape = pymunk.Poly.create_box(body, (2 * HALF, 2 * HALF))
        shape.density = 1.0
        shape.friction = 0.6
        space.add(body, shape)
    bodies = list(space.bodies)

    def step_and_read():
        space.step(DT)
        return [(tuple(b.position), b.angle) for b in bodies]

    return lambda: space.step(DT), step_and_read


ENGINES = {"lamina2d": lamina_pyramid, "pybox2d": box2d_pyramid, "pymunk": pymunk_pyramid}


def available(name: str) -> bool:
    try:
        ENGINES[name](2)[0]()
    except ImportError:
        return False
    return True


def time_steps(step, steps: int) -> float:
    """Milliseconds per step over `steps` steps."""
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return (time.perf_counter() - start) * 1e3 / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[20, 40])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    engines = [name for name in ENGINES if available(name)]
    print(f"lamina2d on {lamina.num_threads()} threads; {args.steps} steps, best of {args.rounds} rounds")
    print("| rows (boxes) | what | " + " | ".join(f"{e} ms/step" for e in engines) + " | lamina2d / others |")
    print("|---|---|" + "---|" * len(engines) + "---|")
    for rows in args.rows:
        best = {(name, what): float("inf") for name in engines for what in (0, 1)}
        for _ in range(args.rounds):
            for name in engines:
                for what in (0, 1):
                    step = ENGINES[name](rows)[what]
                    best[name, what] = min(best[name, what], time_steps(step, args.steps))
        for what, label in ((0, "step"), (1, "step + read poses")):
            ratios = ", ".join(
                f"{best['lamina2d', what] / best[e, what]:.3f} of {e}" for e in engines if e != "lamina2d"
            )
            cells = " | ".join(f"{best[e, what]:.3f}" for e in engines)
            print(f"| {rows} ({rows * (rows + 1) // 2}) | {label} | {cells} | {ratios} |")


if __name__ == "__main__":
    main()
