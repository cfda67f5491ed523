"""Joints of every kind against hand-computed behaviour: a revolute joint
keeps the shared point, holds its limits, drives its motor to speed and
springs at its frequency; a prismatic joint keeps B on its axis without
turning and slides it as gravity along the axis says; a weld holds B's pose
with the force and torque statics give; a distance joint keeps its length,
a rope lets it shorten only, a spring sags by g/(2πf)²; a wheel spins on its
motor and sags on its suspension; a motor joint drives B back with bounded
force; a mouse joint pulls a body's point to its target, within its force;
the constraint force of a hanging body is its weight on B; collide_connected;
and removal of joints and of their bodies."""

import math

import pytest

import lamina2d as lamina
from conftest import DT, GRAVITY, add_ball, add_box, close, step_for


def hinge_scene(**options):
    """A fixed pivot at (0, 5) with a 1 m × 0.2 m bar whose left end is hinged there."""
    w = lamina.World()
    pivot = w.add_body("fixed", position=(0.0, 5.0))
    bar = add_box(w, (0.5, 5.0), half=(0.5, 0.1))
    joint = w.add_revolute_joint(pivot, bar, (0.0, 5.0), **options)
    return w, pivot, bar, joint


def test_revolute_joint_handle():
    w, pivot, bar, joint = hinge_scene()
    assert joint.kind == "revolute"
    assert joint.body_a == pivot and joint.body_b == bar
    assert joint.is_valid
    assert repr(joint) == "Joint(revolute)"
    assert pivot.joints == [joint] and bar.joints == [joint]
    assert w.joints() == [joint] and w.joint_count == 1


def test_revolute_joint_keeps_the_shared_point():
    w, _, bar, joint = hinge_scene()
    worst = 0.0
    for _ in range(180):
        w.step(DT)
        x, y = bar.world_point((-0.5, 0.0))
        worst = max(worst, math.hypot(x, y - 5.0))
    assert worst < 0.01
    # The bar swung down: the joint angle is the bar's angle since creation.
    assert close(joint.angle, bar.angle, abs_=1e-6)
    assert bar.angle < -0.5


def test_revolute_limits_hold():
    w, _, bar, joint = hinge_scene(lower=-0.5, upper=0.3)
    angles = []
    for _ in range(240):
        w.step(DT)
        angles.append(joint.angle)
    assert min(angles) > -0.5 - 0.01
    assert max(angles) < 0.3 + 0.01
    assert abs(angles[-1] + 0.5) < 0.01
    # Held at the limit against gravity: the joint's torque on the bar balances the weight's
    # moment about the hinge, m g · 0.5 m (counter-clockwise, with the bar pointing right-down).
    moment = bar.mass * GRAVITY * 0.5 * math.cos(0.5)
    assert close(joint.constraint_torque, moment, rel=0.03)


def test_revolute_limits_set_later_hold():
    w, _, bar, joint = hinge_scene()
    joint.set_limits(-0.2, 0.2)
    step_for(w, 3.0)
    assert abs(joint.angle + 0.2) < 0.01


def test_revolute_motor_reaches_its_speed():
    w = lamina.World(gravity=(0.0, 0.0))
    pivot = w.add_body("fixed")
    wheel = add_box(w, (0.0, 0.0), half=(0.5, 0.1))
    joint = w.add_revolute_joint(pivot, wheel, (0.0, 0.0), motor_speed=2.0, max_motor_torque=100.0)
    step_for(w, 1.0)
    assert close(wheel.angular_velocity, 2.0, rel=1e-4)
    assert close(joint.angular_speed, 2.0, rel=1e-4)
    joint.set_motor_speed(-1.0)
    step_for(w, 0.5)
    assert close(wheel.angular_velocity, -1.0, rel=1e-4)


def test_revolute_motor_torque_is_bounded():
    w = lamina.World(gravity=(0.0, 0.0))
    pivot = w.add_body("fixed")
    wheel = add_ball(w, (0.0, 0.0), radius=0.5)
    inertia = wheel.inertia
    joint = w.add_revolute_joint(pivot, wheel, (0.0, 0.0), motor_speed=50.0, max_motor_torque=0.2)
    w.step(DT)
    # With the torque at its bound, one step adds τ dt / I.
    assert close(wheel.angular_velocity, 0.2 * DT / inertia, rel=1e-3)
    assert close(joint.constraint_torque, 0.2, rel=1e-3)
    joint.set_motor(50.0, 0.4)
    w.step(DT)
    assert close(wheel.angular_velocity, 0.6 * DT / inertia, rel=1e-3)


def test_revolute_spring_oscillates_at_its_frequency():
    hertz = 1.0
    w = lamina.World(gravity=(0.0, 0.0))
    pivot = w.add_body("fixed")
    rotor = add_box(w, (0.0, 0.0), half=(0.5, 0.1))
    joint = w.add_revolute_joint(pivot, rotor, (0.0, 0.0), hertz=hertz, damping_ratio=0.0)
    rotor.angular_velocity = 1.0
    h = 1.0 / 240.0
    crossings = []
    amplitude = 0.0
    previous = joint.angle
    for i in range(int(3.2 / h)):
        w.step(h)
        angle = joint.angle
        amplitude = max(amplitude, abs(angle))
        if i > 0 and ((previous < 0.0 <= angle) or (previous > 0.0 >= angle)):
            crossings.append(i * h)
        previous = angle
    assert len(crossings) >= 5
    period = 2.0 * (crossings[-1] - crossings[0]) / (len(crossings) - 1)
    assert abs(period - 1.0 / hertz) < 0.03
    # Amplitude ω0 / (2π f) for an undamped spring started at angle 0 with speed ω0.
    assert abs(amplitude - 1.0 / (2.0 * math.pi * hertz)) < 0.01


def test_constraint_force_of_a_hanging_body_is_its_weight_on_b():
    w = lamina.World()
    pivot = w.add_body("fixed", position=(0.0, 5.0))
    bob = add_box(w, (0.0, 4.0), half=(0.2, 0.2), density=2.0)
    joint = w.add_revolute_joint(pivot, bob, (0.0, 5.0))
    step_for(w, 1.0)
    fx, fy = joint.constraint_force
    assert abs(fx) < 1e-3
    assert close(fy, bob.mass * GRAVITY, rel=1e-3)
    assert close(bob.mass, 2.0 * 0.16)
    assert abs(joint.constraint_torque) < 1e-4


def test_prismatic_keeps_b_on_its_axis_without_turning():
    w = lamina.World()
    rail = w.add_body("fixed", position=(0.0, 5.0))
    theta = 0.5
    axis = (math.cos(theta), math.sin(theta))
    slider = add_box(w, (0.0, 5.0), half=(0.2, 0.2))
    joint = w.add_prismatic_joint(rail, slider, (0.0, 5.0), axis)
    assert joint.kind == "prismatic"
    worst = 0.0
    steps = 60
    for _ in range(steps):
        w.step(DT)
        x, y = slider.position
        worst = max(worst, abs(-x * axis[1] + (y - 5.0) * axis[0]))
    assert worst < 1e-3
    assert abs(slider.angle) < 1e-4
    x, y = slider.position
    along = x * axis[0] + (y - 5.0) * axis[1]
    assert close(joint.translation, along, abs_=1e-4)
    # Frictionless slide: gravity's component along the axis, -g sin θ, integrated as free fall.
    h = DT / 4
    n = steps * 4
    assert abs(along - (-GRAVITY * math.sin(theta) * h * h * n * (n + 1) / 2.0)) < 0.01
    assert close(joint.linear_speed, -GRAVITY * math.sin(theta) * 1.0, rel=0.01)


def test_prismatic_limits_and_motor():
    w = lamina.World(gravity=(0.0, 0.0))
    rail = w.add_body("fixed")
    slider = add_box(w, (0.0, 0.0), half=(0.2, 0.2))
    joint = w.add_prismatic_joint(
        rail, slider, (0.0, 0.0), (1.0, 0.0), lower=-1.0, upper=1.0, motor_speed=1.0, max_motor_force=100.0
    )
    step_for(w, 0.5)
    assert close(joint.linear_speed, 1.0, rel=1e-3)
    assert close(slider.linear_velocity, (1.0, 0.0), abs_=1e-3)
    step_for(w, 2.0)
    assert abs(joint.translation - 1.0) < 0.01
    joint.set_motor_speed(-3.0)
    step_for(w, 2.0)
    assert abs(joint.translation + 1.0) < 0.01
    assert abs(slider.position[1]) < 1e-4


def test_prismatic_spring_sags_under_gravity():
    hertz = 2.0
    w = lamina.World()
    rail = w.add_body("fixed", position=(0.0, 5.0))
    slider = add_box(w, (0.0, 5.0), half=(0.2, 0.2))
    joint = w.add_prismatic_joint(rail, slider, (0.0, 5.0), (0.0, 1.0), hertz=hertz, damping_ratio=1.0)
    step_for(w, 5.0)
    sag = GRAVITY / (2.0 * math.pi * hertz) ** 2
    assert close(joint.translation, -sag, rel=0.02)


def test_weld_holds_b_with_the_statics_force_and_torque():
    w = lamina.World()
    wall = w.add_body("fixed", position=(0.0, 5.0))
    beam = add_box(w, (1.0, 5.0), half=(0.5, 0.1), angle=0.3)
    joint = w.add_weld_joint(wall, beam, (0.5, 5.0))
    assert joint.kind == "weld"
    step_for(w, 2.0)
    x, y = beam.position
    assert math.hypot(x - 1.0, y - 5.0) < 0.01
    assert abs(beam.angle - 0.3) < 0.01
    weight = beam.mass * GRAVITY
    fx, fy = joint.constraint_force
    assert abs(fx) < 1e-3 and close(fy, weight, rel=1e-3)
    # The force acts at the anchor, 0.5 m left of the centre; the joint's torque cancels its moment.
    assert close(joint.constraint_torque, weight * 0.5, rel=0.01)


def test_weld_between_falling_bodies_keeps_their_relative_pose():
    w = lamina.World()
    a = add_box(w, (0.0, 10.0))
    b = add_box(w, (1.5, 10.5), angle=0.7, half=(0.3, 0.3))
    w.add_weld_joint(a, b, (0.75, 10.25))
    local = a.local_point(b.position)
    a.angular_velocity = 2.0
    step_for(w, 1.0)
    assert math.dist(a.local_point(b.position), local) < 0.01
    assert abs((b.angle - a.angle) - 0.7) < 0.01
    assert a.position[1] < 7.0


def test_distance_joint_keeps_its_length():
    w = lamina.World()
    anchor = w.add_body("fixed", position=(0.0, 5.0))
    ball = add_ball(w, (2.0, 5.0), radius=0.2)
    joint = w.add_distance_joint(anchor, ball, (0.0, 5.0), (2.0, 5.0))
    assert joint.kind == "distance"
    worst = 0.0
    for _ in range(240):
        w.step(DT)
        x, y = ball.position
        worst = max(worst, abs(math.hypot(x, y - 5.0) - 2.0))
    assert worst < 0.005
    assert close(joint.translation, math.hypot(ball.position[0], ball.position[1] - 5.0), abs_=1e-4)


def test_rope_shortens_but_does_not_lengthen():
    w = lamina.World()
    anchor = w.add_body("fixed", position=(0.0, 5.0))
    ball = add_ball(w, (2.0, 5.0), radius=0.2)
    w.add_distance_joint(anchor, ball, (0.0, 5.0), (2.0, 5.0), lower=0.0, upper=2.0)
    ball.linear_velocity = (-3.0, 0.0)
    lengths = []
    for _ in range(240):
        w.step(DT)
        lengths.append(math.hypot(ball.position[0], ball.position[1] - 5.0))
    assert min(lengths) < 1.5
    assert max(lengths) < 2.0 + 0.005


def test_distance_spring_sags_by_g_over_omega_squared():
    for hertz in (1.0, 2.0):
        w = lamina.World()
        anchor = w.add_body("fixed", position=(0.0, 5.0))
        ball = add_ball(w, (0.0, 3.0), radius=0.1)
        joint = w.add_distance_joint(anchor, ball, (0.0, 5.0), (0.0, 3.0), hertz=hertz, damping_ratio=1.0)
        step_for(w, 8.0)
        sag = GRAVITY / (2.0 * math.pi * hertz) ** 2
        assert close(joint.translation - 2.0, sag, rel=0.02)
        assert close(joint.constraint_force[1], ball.mass * GRAVITY, rel=0.01)


def test_wheel_spins_on_its_motor_and_sags_on_its_suspension():
    hertz = 3.0
    w = lamina.World()
    chassis = w.add_body("fixed", position=(0.0, 5.0))
    wheel = add_ball(w, (0.0, 3.0), radius=0.3)
    joint = w.add_wheel_joint(
        chassis, wheel, (0.0, 3.0), (0.0, 1.0), motor_speed=5.0, max_motor_torque=50.0, hertz=hertz, damping_ratio=1.0
    )
    assert joint.kind == "wheel"
    step_for(w, 5.0)
    assert close(wheel.angular_velocity, 5.0, rel=1e-3)
    sag = GRAVITY / (2.0 * math.pi * hertz) ** 2
    assert close(joint.translation, -sag, rel=0.02)
    assert abs(wheel.position[0]) < 1e-4


def test_wheel_limits_hold_the_suspension():
    w = lamina.World()
    chassis = w.add_body("fixed", position=(0.0, 5.0))
    wheel = add_ball(w, (0.0, 3.0), radius=0.3)
    joint = w.add_wheel_joint(chassis, wheel, (0.0, 3.0), (0.0, 1.0), lower=-0.05, upper=0.05, hertz=0.5)
    step_for(w, 3.0)
    assert abs(joint.translation + 0.05) < 0.005


def test_wheel_without_motor_turns_freely(zero_g):
    chassis = zero_g.add_body("fixed")
    wheel = add_ball(zero_g, (0.0, 0.0), radius=0.3)
    zero_g.add_wheel_joint(chassis, wheel, (0.0, 0.0), (0.0, 1.0))
    wheel.angular_velocity = 4.0
    step_for(zero_g, 1.0)
    assert close(wheel.angular_velocity, 4.0, rel=1e-5)


def test_motor_joint_drives_b_back_to_its_relative_pose(zero_g):
    base = zero_g.add_body("fixed")
    body = add_ball(zero_g, (1.0, 0.0), radius=0.3)
    joint = zero_g.add_motor_joint(base, body, max_force=100.0, max_torque=10.0)
    assert joint.kind == "motor"
    body.position = (2.0, 1.0)
    body.angle = 0.5
    step_for(zero_g, 3.0)
    assert math.dist(body.position, (1.0, 0.0)) < 1e-3
    assert abs(body.angle) < 1e-3


def test_motor_joint_force_is_bounded(zero_g):
    base = zero_g.add_body("fixed")
    body = add_box(zero_g, (0.0, 0.0))
    joint = zero_g.add_motor_joint(base, body, max_force=1.0, max_torque=0.1)
    body.position = (3.0, 0.0)
    for step in range(1, 31):
        zero_g.step(DT)
        # Accelerating at F / m = 1 m/s² toward its start.
        assert close(body.linear_velocity[0], -step * DT * 1.0 / body.mass, rel=1e-4)
    assert close(joint.constraint_force, (-1.0, 0.0), abs_=1e-4)


def test_mouse_joint_pulls_the_grabbed_point_to_the_target(world):
    body = add_box(world, (0.0, 0.0))
    joint = world.add_mouse_joint(body, (0.5, 0.5), max_force=1000.0)
    assert joint.kind == "mouse"
    assert joint.body_a is None and joint.body_b == body
    assert joint.target == (0.5, 0.5)
    joint.set_target((2.0, 3.0))
    assert joint.target == (2.0, 3.0)
    step_for(world, 4.0)
    grabbed = body.world_point((0.5, 0.5))
    assert math.dist(grabbed, (2.0, 3.0)) < 0.02


def test_mouse_joint_force_is_bounded(world):
    body = add_box(world, (0.0, 0.0))
    joint = world.add_mouse_joint(body, (0.0, 0.0), max_force=5.0)
    step_for(world, 1.0)
    # Half its weight held: it falls at g / 2.
    assert close(joint.constraint_force, (0.0, 5.0), abs_=1e-3)
    assert abs(body.position[1] - (-0.5 * 5.0 * 1.0)) < 0.05
    joint.set_max_force(1000.0)
    step_for(world, 4.0)
    assert math.dist(body.position, (0.0, 0.0)) < 0.02


def test_collide_connected():
    for collide in (False, True):
        w = lamina.World(gravity=(0.0, 0.0))
        a = add_box(w, (0.0, 0.0))
        b = add_box(w, (0.8, 0.0))
        w.add_distance_joint(a, b, (0.0, 0.0), (0.8, 0.0), lower=0.0, upper=5.0, collide_connected=collide)
        step_for(w, 1.0)
        if collide:
            assert len(w.contacts()) == 1
            assert b.position[0] - a.position[0] > 0.95
        else:
            assert w.contacts() == []
            assert close(b.position[0] - a.position[0], 0.8, abs_=1e-5)


def test_removing_a_body_removes_its_joints():
    w, pivot, bar, joint = hinge_scene()
    other = add_box(w, (3.0, 5.0))
    weld = w.add_weld_joint(bar, other, (2.0, 5.0))
    keep = w.add_distance_joint(pivot, other, (0.0, 5.0), (3.0, 5.0))
    assert set(bar.joints) == {joint, weld}
    w.remove_body(bar)
    assert not joint.is_valid and not weld.is_valid
    assert keep.is_valid
    assert w.joints() == [keep]
    assert w.joint_count == 1
    assert pivot.joints == [keep] and other.joints == [keep]


def test_removing_a_joint_frees_its_bodies():
    w, pivot, bar, joint = hinge_scene()
    w.remove_joint(joint)
    assert not joint.is_valid and w.joint_count == 0
    assert pivot.joints == [] and bar.joints == []
    step_for(w, 1.0)
    assert bar.position[1] < 0.0


def test_set_max_force_on_a_revolute_joint_is_refused():
    w, _, _, joint = hinge_scene()
    before = w.snapshot()
    with pytest.raises(lamina.WorldError, match="max"):
        joint.set_max_force(10.0)
    assert w.snapshot() == before


def test_mouse_joint_has_no_limits_or_motor(world):
    body = add_box(world, (0.0, 0.0))
    joint = world.add_mouse_joint(body, (0.0, 0.0))
    with pytest.raises(lamina.WorldError, match="limits"):
        joint.set_limits(0.0, 1.0)
    with pytest.raises(lamina.WorldError, match="motor"):
        joint.set_motor_speed(1.0)
