"""Bulk state as NumPy arrays: positions, angles and velocities over all
bodies (key order, the order of World.bodies()) or a given subset in its
order, with the right shapes and dtype and values equal to the per-body
properties; the setters move, turn and set the speed of bodies (checked
through the properties) and refuse wrong shapes and non-finite or
out-of-range values, leaving the world as it was."""

import math

import numpy as np
import pytest

import lamina2d as lamina
from conftest import DT, add_ball, add_box, add_ground, unchanged

DTYPE = np.float32


@pytest.fixture
def scattered():
    """A world with a ground and eight moving bodies of every kind, stepped a little."""
    rng = np.random.default_rng(3)
    w = lamina.World()
    add_ground(w)
    for i in range(6):
        body = add_box(w, (float(i) * 1.5 - 4.0, 1.0 + float(i)), angle=float(rng.uniform(-1.0, 1.0)))
        body.linear_velocity = tuple(rng.uniform(-2.0, 2.0, size=2))
        body.angular_velocity = float(rng.uniform(-3.0, 3.0))
    kinematic = w.add_body("kinematic", position=(0.0, 8.0), linear_velocity=(1.0, 0.0), angular_velocity=0.5)
    w.add_collider(kinematic, lamina.Box(1.0, 0.1))
    add_ball(w, (6.0, 3.0), radius=0.3)
    for _ in range(10):
        w.step(DT)
    return w


def test_shapes_and_dtype(scattered):
    n = scattered.body_count
    assert n == 9
    positions, angles, velocities = scattered.positions(), scattered.angles(), scattered.velocities()
    assert positions.shape == (n, 2) and positions.dtype == DTYPE
    assert angles.shape == (n,) and angles.dtype == DTYPE
    assert velocities.shape == (n, 3) and velocities.dtype == DTYPE


def test_empty_world_gives_empty_arrays(world):
    assert world.positions().shape == (0, 2)
    assert world.angles().shape == (0,)
    assert world.velocities().shape == (0, 3)
    assert world.positions(bodies=[]).shape == (0, 2)


def test_values_equal_the_body_properties_bit_for_bit(scattered):
    bodies = scattered.bodies()
    positions, angles, velocities = scattered.positions(), scattered.angles(), scattered.velocities()
    for i, body in enumerate(bodies):
        assert tuple(float(v) for v in positions[i]) == body.position
        assert float(angles[i]) == body.angle
        vx, vy, w = (float(v) for v in velocities[i])
        assert (vx, vy) == body.linear_velocity
        assert w == body.angular_velocity


def test_subset_in_the_given_order(scattered):
    bodies = scattered.bodies()
    subset = [bodies[5], bodies[1], bodies[7], bodies[1]]
    positions = scattered.positions(bodies=subset)
    angles = scattered.angles(bodies=subset)
    velocities = scattered.velocities(bodies=subset)
    assert positions.shape == (4, 2) and angles.shape == (4,) and velocities.shape == (4, 3)
    np.testing.assert_array_equal(positions, scattered.positions()[[5, 1, 7, 1]])
    np.testing.assert_array_equal(angles, scattered.angles()[[5, 1, 7, 1]])
    np.testing.assert_array_equal(velocities, scattered.velocities()[[5, 1, 7, 1]])


def test_arrays_are_copies(scattered):
    positions = scattered.positions()
    positions[:] = 1000.0
    assert scattered.positions()[1, 0] != 1000.0
    assert positions.flags.writeable


def test_set_positions_moves_every_body_keeping_angles(scattered):
    bodies = scattered.bodies()
    angles = scattered.angles()
    target = np.arange(2 * len(bodies), dtype=np.float64).reshape(-1, 2) * 0.5 + 10.0
    scattered.set_positions(target)
    for i, body in enumerate(bodies):
        assert close_pair(body.position, target[i])
    np.testing.assert_array_equal(scattered.angles(), angles)


def close_pair(actual, expected):
    return bool(np.allclose(actual, expected, rtol=1e-6, atol=1e-6))


def test_set_positions_subset_in_order_and_from_lists(scattered):
    bodies = scattered.bodies()
    others = {b: b.position for b in bodies}
    scattered.set_positions([[1.0, 2.0], [3.0, 4.0]], bodies=[bodies[4], bodies[2]])
    assert bodies[4].position == (1.0, 2.0)
    assert bodies[2].position == (3.0, 4.0)
    for body in bodies:
        if body not in (bodies[4], bodies[2]):
            assert body.position == others[body]


def test_set_positions_accepts_float32_and_integer_arrays(scattered):
    b = scattered.bodies()[1]
    scattered.set_positions(np.array([[7, -3]], dtype=np.int64), bodies=[b])
    assert b.position == (7.0, -3.0)
    scattered.set_positions(np.array([[0.25, 0.5]], dtype=np.float32), bodies=[b])
    assert b.position == (0.25, 0.5)


def test_set_angles_turns_bodies_keeping_positions(scattered):
    bodies = scattered.bodies()
    positions = scattered.positions()
    target = np.linspace(-3.0, 3.0, len(bodies))
    scattered.set_angles(target)
    for i, body in enumerate(bodies):
        assert math.isclose(body.angle, target[i], abs_tol=1e-6)
    np.testing.assert_array_equal(scattered.positions(), positions)


def test_set_velocities_sets_linear_and_angular(scattered):
    bodies = scattered.bodies()
    target = np.column_stack([np.linspace(-1, 1, len(bodies)), np.linspace(2, 3, len(bodies)), np.arange(len(bodies))])
    scattered.set_velocities(target)
    for i, body in enumerate(bodies):
        if body.kind == "fixed":
            assert body.linear_velocity == (0.0, 0.0) and body.angular_velocity == 0.0
        else:
            assert close_pair(body.linear_velocity, target[i, :2])
            assert math.isclose(body.angular_velocity, target[i, 2], abs_tol=1e-6)
    np.testing.assert_allclose(scattered.velocities()[1:], target[1:], rtol=1e-6, atol=1e-6)


def test_set_velocities_drive_the_next_step(zero_g):
    bodies = [add_ball(zero_g, (float(i) * 3.0, 0.0)) for i in range(3)]
    zero_g.set_velocities([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]])
    for _ in range(10):
        zero_g.step(0.05)
    assert np.allclose(bodies[0].position, (0.5, 0.0), atol=1e-5)
    assert np.allclose(bodies[1].position, (3.0, 1.0), atol=1e-5)
    assert math.isclose(bodies[2].angle, 1.5, abs_tol=1e-3)


def test_set_positions_wakes_sleeping_bodies(resting_box):
    w, _, box = resting_box
    assert not box.is_awake
    w.set_positions([[0.0, 2.0]], bodies=[box])
    assert box.is_awake
    w.step(DT)
    assert box.position[1] < 2.0


BAD_VALUES = [
    ("positions wrong rows", lambda w: w.set_positions(np.zeros((w.body_count + 1, 2))), r"shape \(9, 2\)"),
    ("positions wrong columns", lambda w: w.set_positions(np.zeros((w.body_count, 3))), r"shape \(9, 2\)"),
    ("positions nan", lambda w: w.set_positions(nan_at(np.zeros((w.body_count, 2)), (4, 1))), r"positions\[4, 1\].*NaN"),
    ("positions inf", lambda w: w.set_positions(nan_at(np.zeros((w.body_count, 2)), (8, 0), math.inf)), r"positions\[8, 0\].*inf"),
    ("positions too far", lambda w: w.set_positions(nan_at(np.zeros((w.body_count, 2)), (2, 0), 1e19)), r"positions\[2, 0\]"),
    ("angles wrong length", lambda w: w.set_angles(np.zeros(w.body_count - 1)), r"angles"),
    ("angles nan", lambda w: w.set_angles(nan_at(np.zeros(w.body_count), (6,))), r"angles\[6, 0\].*NaN"),
    ("velocities wrong columns", lambda w: w.set_velocities(np.zeros((w.body_count, 2))), r"shape \(9, 3\)"),
    ("velocities nan", lambda w: w.set_velocities(nan_at(np.zeros((w.body_count, 3)), (3, 2))), r"velocities\[3, 2\].*NaN"),
    ("velocities -inf", lambda w: w.set_velocities(nan_at(np.zeros((w.body_count, 3)), (7, 0), -math.inf)), r"velocities\[7, 0\].*inf"),
    ("subset length", lambda w: w.set_positions(np.zeros((3, 2)), bodies=w.bodies()[:2]), r"shape \(2, 2\)"),
]


def nan_at(array, index, value=math.nan):
    array = array + 1.0
    array[index] = value
    return array


@pytest.mark.parametrize("call, message", [c[1:] for c in BAD_VALUES], ids=[c[0] for c in BAD_VALUES])
def test_bad_arrays_are_refused_and_move_nothing(scattered, call, message):
    with unchanged(scattered):
        with pytest.raises(lamina.WorldError, match=message):
            call(scattered)


def test_set_angles_beyond_float32_is_refused_before_any_body_turns(scattered):
    angles = np.full(scattered.body_count, 0.75)
    angles[-1] = 1e300
    with unchanged(scattered):
        with pytest.raises(lamina.WorldError):
            scattered.set_angles(angles)


def test_set_angles_beyond_float32_raises_world_error(scattered):
    angles = np.zeros(scattered.body_count)
    angles[0] = 1e300
    with unchanged(scattered):
        with pytest.raises(lamina.WorldError):
            scattered.set_angles(angles)


WRONG_DIMENSIONS = [
    ("positions 1-D", lambda w: w.set_positions(np.zeros(2 * w.body_count))),
    ("positions 3-D", lambda w: w.set_positions(np.zeros((w.body_count, 2, 1)))),
    ("angles 2-D", lambda w: w.set_angles(np.zeros((w.body_count, 1)))),
    ("velocities 1-D", lambda w: w.set_velocities(np.zeros(3))),
]


@pytest.mark.parametrize("call", [c[1] for c in WRONG_DIMENSIONS], ids=[c[0] for c in WRONG_DIMENSIONS])
def test_arrays_of_the_wrong_dimension_move_nothing(scattered, call):
    with unchanged(scattered):
        with pytest.raises((lamina.WorldError, TypeError)):
            call(scattered)


@pytest.mark.parametrize("call", [c[1] for c in WRONG_DIMENSIONS], ids=[c[0] for c in WRONG_DIMENSIONS])
def test_arrays_of_the_wrong_dimension_raise_world_error(scattered, call):
    with pytest.raises(lamina.WorldError, match="shape"):
        call(scattered)


def test_subset_with_a_removed_body_is_refused(scattered):
    bodies = scattered.bodies()
    scattered.remove_body(bodies[3])
    with unchanged(scattered):
        with pytest.raises(lamina.WorldError, match="removed"):
            scattered.set_positions([[0.0, 0.0], [1.0, 1.0]], bodies=[bodies[2], bodies[3]])
        with pytest.raises(lamina.WorldError, match="removed"):
            scattered.angles(bodies=[bodies[3]])
