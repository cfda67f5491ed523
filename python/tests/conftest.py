"""Shared fixtures and helpers of the core API suite: common scenes, the
check that a refused call leaves a world bit for bit as it was, and float32
tolerances."""

import contextlib

import numpy as np
import pytest

import lamina2d as lamina

DT = 1.0 / 60.0
GRAVITY = 10.0


def close(actual, expected, rel=1e-5, abs_=1e-6):
    """True when two numbers, or two equal-length sequences, agree within a
    float32-sized tolerance."""
    a = np.atleast_1d(np.asarray(actual, dtype=np.float64))
    e = np.atleast_1d(np.asarray(expected, dtype=np.float64))
    return a.shape == e.shape and bool(np.allclose(a, e, rtol=rel, atol=abs_))


def state_of(world):
    """Everything that must not change when a call is refused."""
    return world.state_hash(), world.snapshot()


@contextlib.contextmanager
def unchanged(world):
    """Asserts that the block leaves the world's state hash and snapshot
    bytes exactly as they were."""
    before = state_of(world)
    yield
    after = state_of(world)
    assert after[0] == before[0], "state_hash changed"
    assert after[1] == before[1], "snapshot bytes changed"


def step_for(world, seconds, dt=DT):
    """Steps the world for `seconds` in steps of `dt`."""
    for _ in range(round(seconds / dt)):
        world.step(dt)


def add_ground(world, half_width=20.0, half_height=0.5, **collider):
    """A fixed box whose top face is the line y = 0."""
    ground = world.add_body("fixed", position=(0.0, -half_height))
    world.add_collider(ground, lamina.Box(half_width, half_height), **collider)
    return ground


def add_box(world, position, half=(0.5, 0.5), angle=0.0, kind="dynamic", **collider):
    """A body carrying one box collider."""
    body = world.add_body(kind, position=position, angle=angle)
    world.add_collider(body, lamina.Box(*half), **collider)
    return body


def add_ball(world, position, radius=0.5, kind="dynamic", **collider):
    """A body carrying one circle collider."""
    body = world.add_body(kind, position=position)
    world.add_collider(body, lamina.Circle(radius), **collider)
    return body


def build_pyramid(rows, gap=0.02):
    """A pyramid of `rows` rows of unit boxes on wide ground, each row set a
    little above the one below so that the boxes fall into place."""
    world = lamina.World()
    add_ground(world, half_width=60.0)
    for row in range(rows):
        count = rows - row
        for i in range(count):
            x = (i - (count - 1) / 2.0) * (1.0 + gap)
            add_box(world, (x, 0.5 + row * (1.0 + gap) + gap))
    return world


@pytest.fixture
def world():
    """An empty world with default settings."""
    return lamina.World()


@pytest.fixture
def zero_g():
    """An empty world without gravity."""
    return lamina.World(gravity=(0.0, 0.0))


@pytest.fixture
def resting_box():
    """A 1 m × 0.5 m box of density 1 settled on ground whose top is y = 0:
    (world, ground, box)."""
    w = lamina.World()
    ground = add_ground(w)
    box = add_box(w, (0.0, 0.26), half=(0.5, 0.25))
    step_for(w, 2.0)
    return w, ground, box


@pytest.fixture
def small_scene():
    """A world with ground, two boxes, a ball on a revolute joint and one
    world of its own elsewhere, stepped a little: the scene refused calls
    are made against. Returns a dict of its parts."""
    w = lamina.World()
    ground = add_ground(w)
    a = add_box(w, (-1.0, 0.5))
    b = add_box(w, (1.0, 2.0), angle=0.3)
    pivot = w.add_body("fixed", position=(4.0, 4.0))
    ball = add_ball(w, (5.0, 4.0), radius=0.2)
    joint = w.add_revolute_joint(pivot, ball, (4.0, 4.0))
    for _ in range(5):
        w.step(DT)
    other = lamina.World()
    foreign = add_box(other, (0.0, 1.0))
    return {
        "world": w,
        "ground": ground,
        "a": a,
        "b": b,
        "pivot": pivot,
        "ball": ball,
        "joint": joint,
        "other": other,
        "foreign": foreign,
    }


@pytest.fixture
def restore_threads():
    """Puts Lamina's pool back to its size before the test."""
    before = lamina.num_threads()
    yield
    lamina.set_num_threads(before)
