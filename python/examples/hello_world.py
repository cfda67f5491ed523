"""Box2D's "hello world" on Lamina: a box dropped on the ground comes to rest
on it and falls asleep.

    python python/examples/hello_world.py
"""

import lamina2d as lamina

world = lamina.World(gravity=(0.0, -10.0))

# Box2D's ground: a 100 m × 20 m box whose top is at y = 0.
ground = world.add_body("fixed", position=(0.0, -10.0))
world.add_collider(ground, lamina.Box(50.0, 10.0))

# A 2 m box, dropped from 4 m.
box = world.add_body("dynamic", position=(0.0, 4.0))
world.add_collider(box, lamina.Box(1.0, 1.0), density=1.0, friction=0.3)

for step in range(90):
    world.step(1 / 60)
    if step % 10 == 9:
        x, y = box.position
        print(f"t = {(step + 1) / 60:4.2f} s   x = {x:5.2f}   y = {y:5.2f}   angle = {box.angle:5.2f}")

print(f"at rest on the ground (y = 1 is its centre there): y = {box.position[1]:.3f}, awake: {box.is_awake}")
