"""Lamina: a fast, deterministic 2D rigid-body physics engine.

::

    import lamina2d as lamina

    w = lamina.World(gravity=(0.0, -10.0))
    ground = w.add_body("fixed")
    w.add_collider(ground, lamina.Box(20.0, 0.5))
    box = w.add_body("dynamic", position=(0.0, 4.0))
    w.add_collider(box, lamina.Box(0.5, 0.5), density=1.0, friction=0.6)
    for _ in range(120):
        w.step(1 / 60)
    print(box.position)

Gymnasium environments are in :mod:`lamina2d.envs`.
"""

from lamina2d._lamina import *  # noqa: F401,F403
from lamina2d._lamina import WorldError, num_threads, set_num_threads  # noqa: F401
from lamina2d._png import write_png  # noqa: F401

__version__ = "0.1.0"
