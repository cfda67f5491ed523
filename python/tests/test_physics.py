"""Physics against results computed by hand: free fall (the integrator's exact
discrete formula), damping, a box coming to rest and sleeping, a pendulum's
period, restitution bounce heights, friction on an incline (hold and slide,
geometric-mean mixing), head-on collisions in zero gravity, and the mass,
centre of mass and inertia of bodies made of one or more colliders."""

import math

import pytest

import lamina2d as lamina
from conftest import DT, GRAVITY, add_ball, add_box, add_ground, close, step_for


def discrete_fall(y0, v0, g, dt, substeps, steps):
    """Height and velocity after `steps` steps of symplectic Euler with
    `substeps` substeps each: v += -g h, then y += v h, with h = dt / substeps."""
    h = dt / substeps
    n = steps * substeps
    v = v0 - g * h * n
    y = y0 + v0 * h * n - g * h * h * n * (n + 1) / 2.0
    return y, v


@pytest.mark.parametrize("substeps", [1, 4, 8])
def test_free_fall_follows_the_discrete_symplectic_euler_formula(substeps):
    w = lamina.World(substeps=substeps)
    body = add_ball(w, (3.0, 50.0), radius=0.25)
    steps = 60
    for _ in range(steps):
        w.step(DT)
    y, v = discrete_fall(50.0, 0.0, GRAVITY, DT, substeps, steps)
    x_now, y_now = body.position
    assert x_now == 3.0
    assert abs(y_now - y) < 2e-4
    assert close(body.linear_velocity, (0.0, v), rel=1e-5)
    # The continuous y0 - g t^2 / 2 differs by g h t / 2, far beyond the tolerance above.
    continuous = 50.0 - GRAVITY * 1.0**2 / 2.0
    assert abs(y_now - continuous) > 0.5 * GRAVITY * (DT / substeps) * 1.0 - 2e-4


def test_free_fall_with_initial_velocity_and_changed_gravity():
    w = lamina.World(gravity=(0.0, -10.0))
    w.gravity = (2.0, -20.0)
    body = w.add_body(position=(0.0, 0.0), linear_velocity=(1.0, 5.0))
    w.add_collider(body, lamina.Circle(0.1))
    for _ in range(30):
        w.step(DT)
    x, vx = discrete_fall(0.0, 1.0, -2.0, DT, 4, 30)
    y, vy = discrete_fall(0.0, 5.0, 20.0, DT, 4, 30)
    assert close(body.position, (x, y), rel=1e-5, abs_=1e-5)
    assert close(body.linear_velocity, (vx, vy), rel=1e-5, abs_=1e-5)


def test_gravity_scale_scales_the_fall():
    w = lamina.World()
    half = w.add_body(position=(0.0, 0.0), gravity_scale=0.5)
    w.add_collider(half, lamina.Circle(0.1))
    floating = w.add_body(position=(5.0, 0.0), gravity_scale=0.0)
    w.add_collider(floating, lamina.Circle(0.1))
    for _ in range(60):
        w.step(DT)
    y, v = discrete_fall(0.0, 0.0, 5.0, DT, 4, 60)
    assert close(half.position[1], y, abs_=1e-5)
    assert close(half.linear_velocity[1], v, abs_=1e-5)
    assert floating.position == (5.0, 0.0)
    assert floating.linear_velocity == (0.0, 0.0)


def test_linear_and_angular_damping_decay_per_substep():
    w = lamina.World(gravity=(0.0, 0.0))
    body = w.add_body(linear_velocity=(2.0, 0.0), angular_velocity=1.0, linear_damping=0.5, angular_damping=1.0)
    w.add_collider(body, lamina.Circle(0.5))
    for _ in range(60):
        w.step(DT)
    n = 60 * 4
    h = DT / 4
    assert close(body.linear_velocity[0], 2.0 / (1.0 + h * 0.5) ** n, rel=1e-4)
    assert close(body.angular_velocity, 1.0 / (1.0 + h * 1.0) ** n, rel=1e-4)
    # Within a percent of the continuous exp(-c t).
    assert close(body.linear_velocity[0], 2.0 * math.exp(-0.5), rel=1e-2)


def test_box_dropped_on_ground_rests_at_its_half_height_and_sleeps():
    w = lamina.World()
    add_ground(w)
    box = add_box(w, (0.0, 3.0), half=(0.5, 0.25))
    asleep_after = None
    for i in range(240):
        w.step(DT)
        if asleep_after is None and not box.is_awake:
            asleep_after = i
    x, y = box.position
    assert abs(y - 0.25) < 0.005
    assert abs(x) < 1e-4
    assert abs(box.angle) < 1e-4
    assert asleep_after is not None
    assert not box.is_awake
    assert box.linear_velocity == (0.0, 0.0)
    assert box.angular_velocity == 0.0


def test_sleep_disabled_keeps_a_resting_box_awake():
    w = lamina.World(enable_sleep=False)
    add_ground(w)
    box = add_box(w, (0.0, 0.3), half=(0.5, 0.25))
    step_for(w, 3.0)
    assert box.is_awake
    assert abs(box.position[1] - 0.25) < 0.005


def test_pendulum_small_amplitude_period():
    length = 2.0
    amplitude = 0.1
    h = 1.0 / 240.0
    w = lamina.World()
    pivot = w.add_body("fixed", position=(0.0, 5.0))
    bob = w.add_body(position=(length * math.sin(amplitude), 5.0 - length * math.cos(amplitude)))
    w.add_collider(bob, lamina.Circle(0.05), density=100.0)
    w.add_revolute_joint(pivot, bob, (0.0, 5.0))
    crossings = []
    previous = bob.position[0]
    for i in range(1, int(8.0 / h) + 1):
        w.step(h)
        x = bob.position[0]
        if (previous > 0.0 >= x) or (previous < 0.0 <= x):
            crossings.append((i - 1) * h + h * previous / (previous - x))
        previous = x
    assert len(crossings) >= 5
    period = 2.0 * (crossings[-1] - crossings[0]) / (len(crossings) - 1)
    expected = 2.0 * math.pi * math.sqrt(length / GRAVITY)
    assert abs(period - expected) / expected < 0.02
    # The bob stays on its circle.
    x, y = bob.position
    assert abs(math.hypot(x, y - 5.0) - length) < 0.01


@pytest.mark.parametrize("restitution", [0.5, 0.8])
def test_ball_bounces_to_e_squared_times_the_drop_height(restitution):
    drop = 3.0
    radius = 0.25
    h = 1.0 / 240.0
    w = lamina.World()
    add_ground(w, restitution=restitution)
    ball = add_ball(w, (0.0, radius + drop), radius=radius, restitution=restitution)
    bounced = False
    apex = -1.0
    previous = 0.0
    for _ in range(int(3.0 / h)):
        w.step(h)
        vy = ball.linear_velocity[1]
        if previous < 0.0 < vy:
            bounced = True
        if bounced:
            apex = max(apex, ball.position[1] - radius)
            if vy < 0.0 <= previous:
                break
        previous = vy
    assert bounced
    expected = restitution**2 * drop
    assert abs(apex - expected) / expected < 0.05


def test_zero_restitution_does_not_bounce():
    w = lamina.World()
    add_ground(w)
    ball = add_ball(w, (0.0, 2.25), radius=0.25)
    top_after_landing = None
    for _ in range(240):
        w.step(DT)
        if ball.position[1] < 0.26:
            top_after_landing = ball.position[1] if top_after_landing is None else max(top_after_landing, ball.position[1])
    assert top_after_landing is not None
    assert top_after_landing < 0.25 + 0.01


def incline_scene(theta, ground_friction, block_friction):
    """A fixed slab tilted by `theta` with a 0.5 m box resting on it; returns
    (world, box, unit vector up the slope)."""
    w = lamina.World()
    slab = w.add_body("fixed", angle=theta)
    w.add_collider(slab, lamina.Box(30.0, 0.5), friction=ground_friction)
    normal = (-math.sin(theta), math.cos(theta))
    up_slope = (math.cos(theta), math.sin(theta))
    centre = (normal[0] * 0.75, normal[1] * 0.75)
    box = w.add_body(position=centre, angle=theta)
    w.add_collider(box, lamina.Box(0.25, 0.25), friction=block_friction)
    return w, box, up_slope


def along(v, direction):
    return v[0] * direction[0] + v[1] * direction[1]


@pytest.mark.parametrize("theta_deg, mu", [(20.0, 0.6), (30.0, 0.6), (10.0, 0.18)])
def test_block_on_incline_holds_when_friction_exceeds_tan_theta(theta_deg, mu):
    theta = math.radians(theta_deg)
    assert mu >= math.tan(theta)
    w, box, _ = incline_scene(theta, mu, mu)
    step_for(w, 0.25)
    start = box.position
    step_for(w, 1.5)
    end = box.position
    assert math.hypot(end[0] - start[0], end[1] - start[1]) < 0.005
    assert abs(box.angle - theta) < 0.01


@pytest.mark.parametrize(
    "theta_deg, ground_mu, block_mu",
    [(30.0, 0.2, 0.2), (30.0, 0.5, 0.5), (45.0, 0.3, 0.3), (30.0, 0.9, 0.1)],
)
def test_block_on_incline_slides_with_textbook_acceleration(theta_deg, ground_mu, block_mu):
    theta = math.radians(theta_deg)
    mu = math.sqrt(ground_mu * block_mu)
    assert mu < math.tan(theta)
    w, box, up_slope = incline_scene(theta, ground_mu, block_mu)
    step_for(w, 0.25)
    v0 = along(box.linear_velocity, up_slope)
    step_for(w, 1.0)
    v1 = along(box.linear_velocity, up_slope)
    acceleration = (v1 - v0) / 1.0
    expected = -GRAVITY * (math.sin(theta) - mu * math.cos(theta))
    assert abs(acceleration - expected) < 0.02 * abs(expected) + 0.01
    # It slides without turning over.
    assert abs(box.angle - theta) < 0.01


def test_elastic_head_on_collision_of_equal_circles_swaps_velocities(zero_g):
    w = zero_g
    a = add_ball(w, (-2.0, 0.0), restitution=1.0)
    b = add_ball(w, (2.0, 0.0), restitution=1.0)
    a.linear_velocity = (3.0, 0.0)
    b.linear_velocity = (-1.0, 0.0)
    momentum = a.mass * 3.0 + b.mass * -1.0
    energy = 0.5 * a.mass * 9.0 + 0.5 * b.mass * 1.0
    step_for(w, 2.0)
    assert close(a.linear_velocity, (-1.0, 0.0), abs_=1e-3)
    assert close(b.linear_velocity, (3.0, 0.0), abs_=1e-3)
    after = a.mass * a.linear_velocity[0] + b.mass * b.linear_velocity[0]
    assert close(after, momentum, rel=1e-4)
    energy_after = 0.5 * a.mass * a.linear_velocity[0] ** 2 + 0.5 * b.mass * b.linear_velocity[0] ** 2
    assert close(energy_after, energy, rel=1e-3)
    assert a.position[0] < b.position[0]


def test_elastic_collision_of_unequal_masses_follows_the_textbook(zero_g):
    w = zero_g
    a = add_ball(w, (-2.0, 0.0), restitution=1.0, density=3.0)
    b = add_ball(w, (2.0, 0.0), restitution=1.0, density=1.0)
    ma, mb = a.mass, b.mass
    a.linear_velocity = (2.0, 0.0)
    step_for(w, 2.0)
    va = (ma - mb) / (ma + mb) * 2.0
    vb = 2.0 * ma / (ma + mb) * 2.0
    assert close(a.linear_velocity[0], va, abs_=2e-3)
    assert close(b.linear_velocity[0], vb, abs_=2e-3)


def test_perfectly_inelastic_head_on_collision_moves_together(zero_g):
    w = zero_g
    a = add_ball(w, (-2.0, 0.0))
    b = add_ball(w, (2.0, 0.0))
    a.linear_velocity = (3.0, 0.0)
    b.linear_velocity = (-1.0, 0.0)
    step_for(w, 2.0)
    assert close(a.linear_velocity, (1.0, 0.0), abs_=1e-3)
    assert close(b.linear_velocity, (1.0, 0.0), abs_=1e-3)


def test_box_mass_and_inertia_at_density_two(world):
    body = add_box(world, (0.0, 0.0), half=(0.5, 0.5), density=2.0)
    assert close(body.mass, 2.0)
    assert close(body.inertia, 2.0 * (1.0**2 + 1.0**2) / 12.0)
    wide = add_box(world, (5.0, 0.0), half=(1.5, 0.25), density=0.5)
    m = 0.5 * 3.0 * 0.5
    assert close(wide.mass, m)
    assert close(wide.inertia, m * (3.0**2 + 0.5**2) / 12.0)


def test_circle_mass_and_inertia(world):
    body = add_ball(world, (0.0, 0.0), radius=0.7, density=1.5)
    m = math.pi * 0.7**2 * 1.5
    assert close(body.mass, m)
    assert close(body.inertia, m * 0.7**2 / 2.0)


def test_two_offset_colliders_sum_mass_and_use_the_parallel_axis(world):
    body = world.add_body(position=(1.0, 2.0))
    world.add_collider(body, lamina.Circle(0.5), local_position=(-1.0, 0.0))
    world.add_collider(body, lamina.Circle(0.5), local_position=(1.0, 0.0))
    m = math.pi * 0.25
    assert close(body.mass, 2.0 * m)
    assert close(body.local_center_of_mass, (0.0, 0.0), abs_=1e-6)
    assert close(body.inertia, 2.0 * (m * 0.25 / 2.0 + m * 1.0), rel=1e-5)


def test_single_offset_collider_moves_the_centre_of_mass(world):
    body = world.add_body(position=(1.0, 2.0), angle=math.pi / 2.0)
    world.add_collider(body, lamina.Box(0.5, 0.5), local_position=(1.0, 0.0), density=2.0)
    assert close(body.local_center_of_mass, (1.0, 0.0), abs_=1e-6)
    # The local x axis points along world +y at a quarter turn.
    assert close(body.center_of_mass, (1.0, 3.0), abs_=1e-6)
    assert close(body.inertia, 2.0 * 2.0 / 12.0)


def test_removing_a_collider_updates_the_mass(world):
    body = world.add_body()
    keep = world.add_collider(body, lamina.Box(0.5, 0.5), density=1.0)
    extra = world.add_collider(body, lamina.Box(0.5, 0.5), density=3.0, local_position=(2.0, 0.0))
    assert close(body.mass, 4.0)
    world.remove_collider(extra)
    assert close(body.mass, 1.0)
    assert body.colliders == [keep]
    assert not extra.is_valid
