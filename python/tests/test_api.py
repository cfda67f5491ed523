"""The core Python API: every shape's constructor, properties, repr, mass
properties, bounds and point test (against hand-computed values and brute
force); every body property, read and write; forces, torques and impulses
(velocity changes computed by hand); kinematic and fixed bodies; colliders'
properties; handles' equality and hashing; world listings and their order;
settings and `configure`; contact, hit and sensor events and `contacts()`;
and Lamina's thread pool."""

import math

import numpy as np
import pytest

import lamina2d as lamina
from conftest import DT, GRAVITY, add_ball, add_box, add_ground, close, step_for


# ---------------------------------------------------------------- shapes


def test_every_shape_is_a_shape_with_its_repr():
    shapes = {
        "Circle(0.5)": lamina.Circle(0.5),
        "Box(0.5, 0.25)": lamina.Box(0.5, 0.25),
        "Box(0.5, 0.25, radius=0.125)": lamina.Box(0.5, 0.25, radius=0.125),
        "Capsule((-1, 0), (1, 0), 0.25)": lamina.Capsule((-1.0, 0.0), (1.0, 0.0), 0.25),
        "Segment((0, 0), (1, 1))": lamina.Segment((0.0, 0.0), (1.0, 1.0)),
        "Ellipse(1, 0.5)": lamina.Ellipse(1.0, 0.5),
    }
    for text, shape in shapes.items():
        assert isinstance(shape, lamina.Shape)
        assert repr(shape) == text


def test_every_shape_repr_is_the_call_that_makes_it():
    namespace = {name: getattr(lamina, name) for name in ["Circle", "Box", "Polygon", "Capsule", "Segment", "Ellipse"]}
    for shape in [
        lamina.Circle(0.5),
        lamina.Box(0.5, 0.25, radius=0.125),
        lamina.Polygon([(0.0, 2.0), (0.0, 0.0), (2.0, 0.0)]),
        lamina.Polygon([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)], radius=0.5),
        lamina.Capsule((-1.0, 0.0), (1.0, 0.5), 0.25),
        lamina.Segment((0.0, 0.0), (1.0, 1.0)),
        lamina.Ellipse(1.0, 0.5),
    ]:
        again = eval(repr(shape), namespace)
        assert type(again) is type(shape)
        assert again == shape


def test_shape_properties():
    assert lamina.Circle(1.5).radius == 1.5
    assert lamina.Box(1.0, 2.0).half_extents == (1.0, 2.0)
    assert lamina.Box(1.0, 2.0) == lamina.Box(1.0, 2.0)
    assert lamina.Box(1.0, 2.0) != lamina.Box(2.0, 1.0)
    assert lamina.Circle(1.0) != lamina.Box(1.0, 1.0)


def signed_area(vertices):
    return 0.5 * sum(
        vertices[i][0] * vertices[(i + 1) % len(vertices)][1] - vertices[(i + 1) % len(vertices)][0] * vertices[i][1]
        for i in range(len(vertices))
    )


def test_polygon_is_the_counter_clockwise_hull_of_points_in_any_order():
    rng = np.random.default_rng(7)
    corners = [(-1.0, -0.5), (1.0, -0.5), (1.0, 0.5), (-1.0, 0.5)]
    inside = [tuple(p) for p in rng.uniform([-0.9, -0.4], [0.9, 0.4], size=(6, 2))]
    for _ in range(5):
        points = corners + inside
        order = rng.permutation(len(points))
        polygon = lamina.Polygon([points[i] for i in order])
        vertices = polygon.vertices
        assert sorted(vertices) == sorted(corners)
        assert signed_area(vertices) > 0.0
        assert close(polygon.area, 2.0)


@pytest.mark.parametrize("sides", [5, 8, 20, 300])
def test_regular_polygon_keeps_every_vertex_and_its_area(sides):
    rng = np.random.default_rng(sides)
    corners = [(math.cos(2 * math.pi * i / sides), math.sin(2 * math.pi * i / sides)) for i in range(sides)]
    polygon = lamina.Polygon([corners[i] for i in rng.permutation(sides)])
    assert len(polygon.vertices) == sides
    area = sides / 2.0 * math.sin(2.0 * math.pi / sides)
    assert close(polygon.area, area, rel=1e-5)
    _, c, _ = polygon.mass_properties(1.0)
    assert close(c, (0.0, 0.0), abs_=1e-5)


@pytest.mark.parametrize(
    "shape, mass, centre, inertia",
    [
        (lamina.Circle(0.5), math.pi * 0.25 * 2.0, (0.0, 0.0), math.pi * 0.25 * 2.0 * 0.25 / 2.0),
        (lamina.Box(0.5, 0.5), 2.0, (0.0, 0.0), 2.0 * (1.0 + 1.0) / 12.0),
        (lamina.Box(1.0, 0.25), 2.0, (0.0, 0.0), 2.0 * (4.0 + 0.25) / 12.0),
        # Right triangle with legs 2: area 2, centroid (2/3, 2/3), polar inertia m (a² + b²) / 18.
        (lamina.Polygon([(0.0, 0.0), (2.0, 0.0), (0.0, 2.0)]), 4.0, (2.0 / 3.0, 2.0 / 3.0), 4.0 * 8.0 / 18.0),
        (lamina.Ellipse(1.0, 0.5), math.pi * 0.5 * 2.0, (0.0, 0.0), math.pi * 0.5 * 2.0 * (1.0 + 0.25) / 4.0),
        (lamina.Segment((0.0, 0.0), (2.0, 4.0)), 0.0, (1.0, 2.0), 0.0),
    ],
)
def test_mass_properties_by_hand(shape, mass, centre, inertia):
    m, c, i = shape.mass_properties(2.0)
    assert close(m, mass)
    assert close(c, centre, abs_=1e-6)
    assert close(i, inertia)
    assert close(shape.area, mass / 2.0)


def test_capsule_mass_properties_as_a_rectangle_and_two_half_discs():
    r, half_length, density = 0.25, 1.0, 2.0
    capsule = lamina.Capsule((-half_length, 0.0), (half_length, 0.0), r)
    rect_mass = density * 2.0 * half_length * 2.0 * r
    rect_inertia = rect_mass * ((2.0 * half_length) ** 2 + (2.0 * r) ** 2) / 12.0
    half_disc = density * math.pi * r * r / 2.0
    offset = 4.0 * r / (3.0 * math.pi)
    half_disc_inertia = half_disc * r * r / 2.0 - half_disc * offset**2 + half_disc * (half_length + offset) ** 2
    m, c, i = capsule.mass_properties(density)
    assert close(m, rect_mass + 2.0 * half_disc)
    assert close(c, (0.0, 0.0), abs_=1e-6)
    assert close(i, rect_inertia + 2.0 * half_disc_inertia, rel=1e-5)


def test_rounded_box_area_adds_the_rounding():
    h, k, r = 0.5, 0.25, 0.1
    area = 4 * h * k + 2 * r * (2 * h + 2 * k) + math.pi * r * r
    assert close(lamina.Box(h, k, radius=r).area, area)
    lower, upper = lamina.Box(h, k, radius=r).bounds()
    assert close(lower, (-0.6, -0.35)) and close(upper, (0.6, 0.35))


def test_mass_properties_at_density_zero_are_zero():
    assert lamina.Box(1.0, 1.0).mass_properties(0.0)[0] == 0.0


@pytest.mark.parametrize("angle", [0.0, 0.3, 1.2, -2.5])
def test_bounds_by_hand(angle):
    c, s = abs(math.cos(angle)), abs(math.sin(angle))
    position = (1.0, -2.0)
    box = lamina.Box(0.5, 0.25)
    reach = (c * 0.5 + s * 0.25, s * 0.5 + c * 0.25)
    lower, upper = box.bounds(position, angle)
    assert close(lower, (1.0 - reach[0], -2.0 - reach[1]), abs_=1e-6)
    assert close(upper, (1.0 + reach[0], -2.0 + reach[1]), abs_=1e-6)
    lower, upper = lamina.Circle(0.5).bounds(position, angle)
    assert close(lower, (0.5, -2.5)) and close(upper, (1.5, -1.5))
    segment = lamina.Segment((0.0, 0.0), (1.0, 0.0))
    lower, upper = segment.bounds(position, angle)
    end = (1.0 + math.cos(angle), -2.0 + math.sin(angle))
    assert close(lower, (min(1.0, end[0]), min(-2.0, end[1])), abs_=1e-6)
    assert close(upper, (max(1.0, end[0]), max(-2.0, end[1])), abs_=1e-6)
    lower, upper = lamina.Capsule((-1.0, 0.0), (1.0, 0.0), 0.25).bounds(position, angle)
    half = (c * 1.0 + 0.25, s * 1.0 + 0.25)
    assert close(lower, (1.0 - half[0], -2.0 - half[1]), abs_=1e-6)
    assert close(upper, (1.0 + half[0], -2.0 + half[1]), abs_=1e-6)


def local_of(point, position, angle):
    dx, dy = point[0] - position[0], point[1] - position[1]
    c, s = math.cos(angle), math.sin(angle)
    return c * dx + s * dy, -s * dx + c * dy


def segment_distance(p, a, b):
    ab = (b[0] - a[0], b[1] - a[1])
    t = ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / (ab[0] ** 2 + ab[1] ** 2)
    t = min(1.0, max(0.0, t))
    return math.hypot(p[0] - a[0] - t * ab[0], p[1] - a[1] - t * ab[1])


# Each oracle returns a signed "how far inside" in the shape's frame (positive inside).
CONTAINS_CASES = [
    (lamina.Circle(0.7), lambda x, y: 0.7 - math.hypot(x, y)),
    (lamina.Box(0.8, 0.3), lambda x, y: min(0.8 - abs(x), 0.3 - abs(y))),
    (lamina.Ellipse(1.0, 0.4), lambda x, y: 1.0 - math.hypot(x / 1.0, y / 0.4)),
    (lamina.Capsule((-0.5, 0.0), (0.5, 0.2), 0.3), lambda x, y: 0.3 - segment_distance((x, y), (-0.5, 0.0), (0.5, 0.2))),
    (
        lamina.Polygon([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]),
        lambda x, y: min(x, y, (1.0 - x - y) / math.sqrt(2.0)),
    ),
]


@pytest.mark.parametrize("shape, inside", CONTAINS_CASES, ids=lambda v: repr(v) if isinstance(v, lamina.Shape) else "")
def test_contains_against_brute_force(shape, inside):
    rng = np.random.default_rng(11)
    position, angle = (0.4, -0.3), 0.7
    checked = 0
    for p in rng.uniform(-1.5, 1.5, size=(400, 2)):
        depth = inside(*local_of(p, position, angle))
        if abs(depth) < 1e-3:
            continue
        assert shape.contains(tuple(p), position, angle) == (depth > 0.0), tuple(p)
        checked += 1
    assert checked > 300


def test_collider_shape_comes_back_as_its_class(world):
    body = world.add_body()
    for shape, cls, kind in [
        (lamina.Circle(0.5), lamina.Circle, "circle"),
        (lamina.Box(0.5, 0.25), lamina.Box, "polygon"),
        (lamina.Polygon([(0.0, 0.0), (1.0, 0.0), (0.5, 1.0)]), lamina.Polygon, "polygon"),
        (lamina.Capsule((0.0, 0.0), (1.0, 0.0), 0.2), lamina.Capsule, "capsule"),
        (lamina.Segment((0.0, 0.0), (1.0, 0.0)), lamina.Segment, "segment"),
        (lamina.Ellipse(0.5, 0.3), lamina.Ellipse, "ellipse"),
    ]:
        collider = world.add_collider(body, shape)
        assert type(collider.shape) is cls
        assert collider.shape == shape
        assert repr(collider) == f"Collider({kind})"


# ---------------------------------------------------------------- bodies


def test_add_body_keywords_are_kept(world):
    body = world.add_body(
        "dynamic",
        position=(1.0, 2.0),
        angle=0.5,
        linear_velocity=(3.0, -4.0),
        angular_velocity=1.5,
        bullet=True,
        user_data=42,
    )
    assert body.kind == "dynamic"
    assert close(body.position, (1.0, 2.0))
    assert close(body.angle, 0.5)
    assert close(body.linear_velocity, (3.0, -4.0))
    assert close(body.angular_velocity, 1.5)
    assert body.is_bullet
    assert body.user_data == 42
    assert body.is_awake
    assert body.is_valid
    assert body.world is world
    assert repr(body) == "Body(dynamic, position=(1, 2), angle=0.5)"


def test_body_kinds_and_defaults(world):
    assert world.add_body().kind == "dynamic"
    assert world.add_body("fixed").kind == "fixed"
    assert world.add_body("kinematic").kind == "kinematic"
    plain = world.add_body()
    assert plain.position == (0.0, 0.0) and plain.angle == 0.0
    assert not plain.is_bullet and plain.user_data == 0
    assert world.body_count == 4


def test_body_properties_write_and_read_back(world):
    body = add_box(world, (0.0, 0.0))
    body.position = (2.5, -1.0)
    body.angle = 1.25
    body.linear_velocity = (0.5, 0.25)
    body.angular_velocity = -3.0
    body.user_data = 2**64 - 1
    assert body.position == (2.5, -1.0)
    assert close(body.angle, 1.25)
    assert body.linear_velocity == (0.5, 0.25)
    assert body.angular_velocity == -3.0
    assert body.user_data == 2**64 - 1
    # Moving keeps the angle; turning keeps the position.
    body.position = (0.0, 1.0)
    assert close(body.angle, 1.25)
    body.angle = 0.0
    assert body.position == (0.0, 1.0)


@pytest.mark.parametrize(
    "name", ["mass", "inertia", "kind", "is_awake", "is_bullet", "is_valid", "center_of_mass", "colliders", "world"]
)
def test_derived_body_properties_are_read_only(world, name):
    body = add_box(world, (0.0, 0.0))
    with pytest.raises(AttributeError):
        setattr(body, name, getattr(body, name))


def test_body_point_conversions_and_velocity_at(world):
    body = add_box(world, (1.0, 2.0), angle=math.pi / 2.0)
    assert close(body.world_point((1.0, 0.0)), (1.0, 3.0), abs_=1e-6)
    assert close(body.local_point((1.0, 3.0)), (1.0, 0.0), abs_=1e-6)
    body.linear_velocity = (1.0, 0.0)
    body.angular_velocity = 2.0
    # v + ω × r with r = (0, 1): (1 - 2·1, 0 + 2·0).
    assert close(body.velocity_at((1.0, 3.0)), (-1.0, 0.0), abs_=1e-6)
    assert close(body.velocity_at((2.0, 2.0)), (1.0, 2.0), abs_=1e-6)


def test_body_without_colliders_has_unit_mass(world):
    body = world.add_body()
    assert body.mass == 1.0


def test_impulse_at_the_centre_changes_velocity_by_j_over_m(zero_g):
    body = add_box(zero_g, (0.0, 0.0), density=2.0)
    body.apply_impulse((3.0, -1.0))
    assert close(body.linear_velocity, (1.5, -0.5))
    assert body.angular_velocity == 0.0


def test_off_centre_impulse_spins_by_r_cross_j_over_i(zero_g):
    body = add_box(zero_g, (10.0, 10.0), density=2.0)
    inertia = 2.0 * 2.0 / 12.0
    body.apply_impulse((3.0, 0.0), point=(10.0, 10.5))
    # r = (0, 0.5), J = (3, 0): r × J = 0·0 - 0.5·3 = -1.5.
    assert close(body.linear_velocity, (1.5, 0.0))
    assert close(body.angular_velocity, -1.5 / inertia)
    body2 = add_box(zero_g, (0.0, 0.0), density=2.0)
    body2.apply_impulse((0.0, 2.0), point=(0.5, 0.0))
    assert close(body2.angular_velocity, 0.5 * 2.0 / inertia)


def test_force_and_torque_act_for_one_step(zero_g):
    body = add_box(zero_g, (0.0, 0.0), density=2.0)
    inertia = 2.0 * 2.0 / 12.0
    body.apply_force((4.0, 2.0))
    body.apply_torque(1.0)
    zero_g.step(0.1)
    assert close(body.linear_velocity, (4.0 * 0.1 / 2.0, 2.0 * 0.1 / 2.0))
    assert close(body.angular_velocity, 1.0 * 0.1 / inertia)
    zero_g.step(0.1)
    assert close(body.linear_velocity, (0.2, 0.1))
    assert close(body.angular_velocity, 0.1 / inertia)


def test_force_at_a_point_adds_its_torque(zero_g):
    body = add_box(zero_g, (0.0, 0.0), density=1.0)
    body.apply_force((0.0, 6.0), point=(0.5, 0.0))
    zero_g.step(0.05)
    assert close(body.linear_velocity, (0.0, 6.0 * 0.05 / 1.0), abs_=1e-6)
    assert close(body.angular_velocity, 0.5 * 6.0 * 0.05 / (1.0 * 2.0 / 12.0))


def test_kinematic_body_moves_at_its_velocity_ignoring_gravity_and_contacts(world):
    kinematic = world.add_body("kinematic", position=(0.0, 0.0), linear_velocity=(1.0, 2.0), angular_velocity=0.5)
    world.add_collider(kinematic, lamina.Box(0.5, 0.5))
    pushed = add_box(world, (1.5, 2.0))
    step_for(world, 1.0)
    assert close(kinematic.position, (1.0, 2.0), abs_=1e-5)
    assert close(kinematic.angle, 0.5, abs_=1e-5)
    assert kinematic.linear_velocity == (1.0, 2.0)
    assert kinematic.mass == 0.0
    # The dynamic box it ran into was pushed and did not stop it.
    assert pushed.position[0] > 1.5


def test_fixed_body_does_not_move(world):
    fixed = add_box(world, (1.0, 1.0), kind="fixed")
    fixed.apply_impulse((5.0, 5.0))
    fixed.apply_force((5.0, 5.0))
    fixed.linear_velocity = (1.0, 0.0)
    add_box(world, (1.0, 3.0))
    step_for(world, 1.0)
    assert fixed.position == (1.0, 1.0)
    assert fixed.angle == 0.0
    assert fixed.linear_velocity == (0.0, 0.0)
    assert fixed.mass == 0.0 and fixed.inertia == 0.0


def test_fixed_rotation_body_does_not_turn(zero_g):
    body = zero_g.add_body(fixed_rotation=True)
    zero_g.add_collider(body, lamina.Box(1.0, 1.0))
    body.apply_impulse((1.0, 0.0), point=(0.0, 1.0))
    zero_g.step(DT)
    assert body.angular_velocity == 0.0
    assert body.angle == 0.0
    assert close(body.linear_velocity, (0.25, 0.0))


def test_asleep_body_stays_put_until_woken(world):
    body = world.add_body(position=(0.0, 5.0), awake=False)
    world.add_collider(body, lamina.Circle(0.5))
    assert not body.is_awake
    step_for(world, 0.5)
    assert body.position == (0.0, 5.0)
    body.wake()
    assert body.is_awake
    step_for(world, 0.5)
    assert body.position[1] < 5.0


def test_can_sleep_false_keeps_a_resting_body_awake(world):
    add_ground(world)
    restless = world.add_body(position=(0.0, 0.5), can_sleep=False)
    world.add_collider(restless, lamina.Box(0.5, 0.5))
    sleeper = add_box(world, (3.0, 0.5))
    step_for(world, 2.0)
    assert restless.is_awake
    assert not sleeper.is_awake
    world.wake_all()
    assert sleeper.is_awake


def test_setting_velocity_moves_a_sleeping_body_on_the_next_step(resting_box):
    w, _, box = resting_box
    assert not box.is_awake
    box.linear_velocity = (0.0, 5.0)
    w.step(DT)
    assert box.is_awake
    assert close(box.position[1], 0.25 + DT * (5.0 - GRAVITY * DT / 4.0 * 2.5), abs_=0.01)


def test_impulse_moves_a_sleeping_body_on_the_next_step(resting_box):
    w, _, box = resting_box
    assert not box.is_awake
    box.apply_impulse((0.0, 2.5))
    assert close(box.linear_velocity, (0.0, 2.5 / box.mass))
    w.step(DT)
    assert box.is_awake and box.position[1] > 0.3


def test_teleporting_wakes_a_sleeping_body_at_once(resting_box):
    _, _, box = resting_box
    assert not box.is_awake
    box.position = (0.0, 3.0)
    assert box.is_awake


def test_setting_velocity_wakes_a_sleeping_body_at_once(resting_box):
    _, _, box = resting_box
    assert not box.is_awake
    box.linear_velocity = (0.0, 5.0)
    assert box.is_awake


# ---------------------------------------------------------------- colliders


def test_collider_properties(world):
    body = world.add_body(position=(1.0, 1.0))
    collider = world.add_collider(
        body,
        lamina.Box(1.0, 1.0),
        density=2.0,
        friction=0.3,
        restitution=0.5,
        local_position=(1.0, 2.0),
        local_angle=0.5,
        category=2,
        mask=5,
        group=-3,
        user_data=9,
    )
    assert collider.body == body
    assert collider.density == 2.0
    assert close(collider.friction, 0.3)
    assert collider.restitution == 0.5
    assert not collider.is_sensor
    assert collider.filter == (2, 5, -3)
    (lx, ly), la = collider.local_pose
    assert (lx, ly) == (1.0, 2.0) and close(la, 0.5)
    assert collider.user_data == 9
    assert collider.is_valid
    reach = math.cos(0.5) + math.sin(0.5)
    assert_bounds_cover(collider.bounds, ((2.0 - reach, 3.0 - reach), (2.0 + reach, 3.0 + reach)), world)


def assert_bounds_cover(bounds, tight, world):
    """`bounds` hold the tight box and exceed it by at most the speculative distance."""
    margin = world.settings["speculative_distance"] + 1e-5
    (lx, ly), (ux, uy) = bounds
    (tlx, tly), (tux, tuy) = tight
    assert tlx - margin <= lx <= tlx + 1e-5 and tly - margin <= ly <= tly + 1e-5
    assert tux - 1e-5 <= ux <= tux + margin and tuy - 1e-5 <= uy <= tuy + margin


def test_collider_defaults(world):
    collider = world.add_collider(world.add_body(), lamina.Circle(0.5))
    assert collider.density == 1.0
    assert close(collider.friction, 0.6)
    assert collider.restitution == 0.0
    assert collider.filter == (1, 0xFFFFFFFF, 0)
    assert collider.local_pose == ((0.0, 0.0), 0.0)
    assert not collider.is_sensor


def test_collider_bounds_follow_the_body(world):
    body = add_box(world, (0.0, 3.0), half=(0.5, 0.25))
    collider = body.colliders[0]
    step_for(world, 0.5)
    x, y = body.position
    assert y < 2.0
    assert_bounds_cover(collider.bounds, ((x - 0.5, y - 0.25), (x + 0.5, y + 0.25)), world)
    body.position = (10.0, 10.0)
    assert_bounds_cover(collider.bounds, ((9.5, 9.75), (10.5, 10.25)), world)


def test_collider_bounds_do_not_change_while_nothing_moves(zero_g):
    body = add_box(zero_g, (0.0, 0.0))
    before = body.colliders[0].bounds
    zero_g.step(DT)
    assert body.position == (0.0, 0.0)
    assert body.colliders[0].bounds == before


def test_body_colliders_and_world_colliders(world):
    a = world.add_body()
    b = world.add_body()
    ca1 = world.add_collider(a, lamina.Circle(0.5))
    cb = world.add_collider(b, lamina.Circle(0.5))
    ca2 = world.add_collider(a, lamina.Box(0.5, 0.5))
    assert a.colliders == [ca1, ca2]
    assert b.colliders == [cb]
    assert world.colliders() == [ca1, cb, ca2]
    world.remove_body(a)
    assert world.colliders() == [cb]
    assert not ca1.is_valid and not ca2.is_valid


def test_non_colliding_filters_let_bodies_pass(world):
    add_ground(world, category=1, mask=0xFFFFFFFF)
    ghost = world.add_body(position=(0.0, 1.0))
    world.add_collider(ghost, lamina.Box(0.5, 0.5), category=2, mask=0xFFFFFFFE)
    same_group = world.add_body(position=(3.0, 1.0))
    world.add_collider(same_group, lamina.Box(0.5, 0.5), category=1, mask=0xFFFFFFFF)
    step_for(world, 1.0)
    assert ghost.position[1] < -2.0
    assert abs(same_group.position[1] - 0.5) < 0.01


def test_sensor_does_not_push(world):
    sensor_body = world.add_body("fixed", position=(0.0, 2.0))
    world.add_collider(sensor_body, lamina.Box(2.0, 0.5), sensor=True)
    ball = add_ball(world, (0.0, 5.0), radius=0.25)
    step_for(world, 1.5)
    assert ball.position[1] < 0.0


# ---------------------------------------------------------------- handles and listings


def test_handles_compare_and_hash_by_body_and_world(world):
    a = world.add_body()
    b = world.add_body()
    again = world.bodies()[0]
    assert a == again and a is not again
    assert hash(a) == hash(again)
    assert a != b
    assert len({a, again, b}) == 2
    assert {a: "a"}[again] == "a"
    collider = world.add_collider(a, lamina.Circle(0.5))
    assert collider == a.colliders[0] and hash(collider) == hash(a.colliders[0])
    assert collider != a
    joint = world.add_weld_joint(a, b, (0.0, 0.0))
    assert joint == a.joints[0] == b.joints[0]
    assert hash(joint) == hash(world.joints()[0])
    other = lamina.World()
    assert other.add_body() != a


def test_bodies_lists_in_key_order_matching_the_arrays(world):
    bodies = [add_box(world, (float(i), 0.0)) for i in range(5)]
    assert world.bodies() == bodies
    world.remove_body(bodies[1])
    late = add_box(world, (9.0, 0.0))
    listed = world.bodies()
    assert set(listed) == set(bodies[:1] + bodies[2:] + [late])
    assert len(listed) == world.body_count == 5
    assert [b.position for b in listed] == [tuple(map(float, row)) for row in world.positions()]


def test_removed_body_handle_is_no_longer_valid(world):
    body = add_box(world, (0.0, 0.0))
    world.remove_body(body)
    assert not body.is_valid
    assert repr(body) == "Body(removed)"
    assert world.body_count == 0
    assert world.bodies() == []


def test_world_repr(world):
    a = world.add_body()
    b = world.add_body()
    world.add_weld_joint(a, b, (0.0, 0.0))
    assert repr(world) == "World(bodies=2, joints=1, gravity=(0, -10))"


# ---------------------------------------------------------------- settings

DEFAULTS = {
    "gravity": (0.0, -10.0),
    "substeps": 4,
    "contact_hertz": 50.0,
    "contact_damping_ratio": 10.0,
    "contact_push_max_velocity": 3.0,
    "joint_hertz": 60.0,
    "joint_damping_ratio": 2.0,
    "restitution_threshold": 1.0,
    "speculative_distance": 0.02,
    "sleep_linear_velocity": 0.05,
    "time_to_sleep": 0.5,
    "max_linear_speed": 400.0,
    "hit_event_threshold": 1.0,
    "enable_sleep": True,
    "enable_warm_starting": True,
    "enable_continuous": True,
    "keep_events": False,
}


def test_gravity_is_the_first_argument():
    assert lamina.World((0.0, -3.5)).gravity == (0.0, -3.5)
    assert lamina.World(gravity=(1.0, 0.0)).settings["gravity"] == (1.0, 0.0)


def test_default_settings(world):
    settings = world.settings
    assert set(settings) == set(DEFAULTS)
    for name, value in DEFAULTS.items():
        assert settings[name] == pytest.approx(value, rel=1e-6), name
    assert world.gravity == (0.0, -10.0)


CHANGED = {
    "substeps": 8,
    "contact_hertz": 30.0,
    "contact_damping_ratio": 5.0,
    "contact_push_max_velocity": 2.0,
    "joint_hertz": 40.0,
    "joint_damping_ratio": 1.0,
    "restitution_threshold": 0.5,
    "speculative_distance": 0.04,
    "sleep_linear_velocity": 0.1,
    "time_to_sleep": 1.0,
    "max_linear_speed": 100.0,
    "hit_event_threshold": 2.0,
    "enable_sleep": False,
    "enable_warm_starting": False,
    "enable_continuous": False,
    "keep_events": True,
}


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_every_setting_by_keyword_and_by_configure(name):
    value = CHANGED[name]
    built = lamina.World(**{name: value})
    assert built.settings[name] == pytest.approx(value)
    configured = lamina.World()
    configured.configure(**{name: value})
    assert configured.settings[name] == pytest.approx(value)
    others = {k: v for k, v in configured.settings.items() if k != name}
    assert others == {k: v for k, v in lamina.World().settings.items() if k != name}


def test_configure_gravity_changes_the_fall():
    w = lamina.World(substeps=8)
    assert w.settings["substeps"] == 8
    w.configure(gravity=(0.0, -20.0))
    assert w.gravity == (0.0, -20.0)
    body = add_ball(w, (0.0, 0.0), radius=0.1)
    w.step(0.1)
    assert close(body.linear_velocity, (0.0, -2.0))


def test_infinite_hit_event_threshold_reports_no_hits():
    w = lamina.World(hit_event_threshold=math.inf)
    assert w.settings["hit_event_threshold"] == math.inf
    add_ground(w)
    add_box(w, (0.0, 5.0))
    hits, contacts = [], []
    for _ in range(120):
        w.step(DT)
        hits.extend(w.hit_events())
        contacts.extend(w.contact_events())
    assert hits == []
    assert len(contacts) == 1


# ---------------------------------------------------------------- events and contacts


def test_contact_begins_when_a_box_lands_and_ends_when_it_is_lifted(world):
    ground = add_ground(world)
    box = add_box(world, (0.0, 2.0))
    ground_collider, box_collider = ground.colliders[0], box.colliders[0]
    began_at = None
    for i in range(120):
        world.step(DT)
        events = world.contact_events()
        if events:
            assert began_at is None
            assert len(events) == 1 and events[0].begin
            assert {events[0].collider_a, events[0].collider_b} == {ground_collider, box_collider}
            began_at = i
    assert began_at is not None
    # It landed when its fall of 1.5 m took sqrt(2 h / g) s, within the speculative margin.
    assert abs((began_at + 1) * DT - math.sqrt(2 * 1.5 / GRAVITY)) < 3 * DT
    box.position = (0.0, 10.0)
    world.step(DT)
    events = world.contact_events()
    assert len(events) == 1 and not events[0].begin
    assert {events[0].collider_a, events[0].collider_b} == {ground_collider, box_collider}
    world.step(DT)
    assert world.contact_events() == []


def test_events_are_kept_until_cleared_with_keep_events():
    w = lamina.World(keep_events=True)
    add_ground(w)
    box = add_box(w, (0.0, 1.5))
    step_for(w, 1.0)
    assert len(w.contact_events()) == 1
    box.position = (0.0, 5.0)
    w.step(DT)
    assert [e.begin for e in w.contact_events()] == [True, False]
    w.clear_events()
    assert w.contact_events() == []


@pytest.mark.parametrize("drop", [1.0, 3.0])
def test_hit_event_approach_speed_for_a_drop(world, drop):
    ground = add_ground(world)
    box = add_box(world, (0.0, 0.5 + drop))
    hits = []
    for _ in range(120):
        world.step(DT)
        hits.extend(world.hit_events())
    assert len(hits) == 1
    hit = hits[0]
    assert {hit.collider_a, hit.collider_b} == {ground.colliders[0], box.colliders[0]}
    assert abs(hit.approach_speed - math.sqrt(2.0 * GRAVITY * drop)) / math.sqrt(2.0 * GRAVITY * drop) < 0.03
    # The point lies where the box's bottom met the ground's top (within the step's overlap).
    assert abs(hit.point[1]) < math.sqrt(2.0 * GRAVITY * drop) * DT and abs(hit.point[0]) <= 0.5 + 1e-5
    ny = 1.0 if hit.collider_a == ground.colliders[0] else -1.0
    assert close(hit.normal, (0.0, ny), abs_=1e-5)


def test_no_hit_event_below_the_threshold():
    w = lamina.World(hit_event_threshold=10.0)
    add_ground(w)
    add_box(w, (0.0, 2.5))
    hits = []
    for _ in range(120):
        w.step(DT)
        hits.extend(w.hit_events())
    assert hits == []


def test_sensor_events_when_a_ball_falls_through(world):
    sensor_body = world.add_body("fixed", position=(0.0, 2.0))
    sensor = world.add_collider(sensor_body, lamina.Box(1.0, 0.5), sensor=True)
    assert sensor.is_sensor
    ball = add_ball(world, (0.0, 5.0), radius=0.25)
    log = []
    for _ in range(120):
        world.step(DT)
        for event in world.sensor_events():
            assert event.sensor == sensor and event.visitor == ball.colliders[0]
            log.append((event.begin, ball.position[1]))
    assert [begin for begin, _ in log] == [True, False]
    (_, y_in), (_, y_out) = log
    # Entered once its bottom passed the sensor's top, left once its top passed the bottom.
    assert y_in - 0.25 < 2.5 + 1e-6
    assert y_out + 0.25 < 1.5 + 1e-6
    assert world.contacts() == []


def test_removing_a_touching_body_reports_the_ends_at_once(zero_g):
    w = zero_g
    floor = add_box(w, (0.0, -0.5), half=(5.0, 0.5), kind="fixed")
    box = add_box(w, (0.0, 0.5))
    sensor_body = w.add_body("fixed", position=(3.0, 0.5))
    sensor = w.add_collider(sensor_body, lamina.Box(0.5, 0.5), sensor=True)
    visitor = add_ball(w, (3.0, 0.5), radius=0.2)
    w.step(DT)
    assert [e.begin for e in w.contact_events()] == [True]
    assert [(e.begin, e.sensor, e.visitor) for e in w.sensor_events()] == [(True, sensor, visitor.colliders[0])]
    box_collider, visitor_collider = box.colliders[0], visitor.colliders[0]
    w.step(DT)
    assert w.contact_events() == [] and w.sensor_events() == []
    w.remove_body(box)
    w.remove_body(visitor)
    (ended,) = w.contact_events()
    assert not ended.begin
    assert {ended.collider_a, ended.collider_b} == {floor.colliders[0], box_collider}
    (left,) = w.sensor_events()
    assert not left.begin and left.sensor == sensor and left.visitor == visitor_collider
    assert not visitor_collider.is_valid
    w.step(DT)
    assert w.contact_events() == [] and w.sensor_events() == []


def test_a_ball_on_the_ground_touches_at_one_point(world):
    add_ground(world)
    ball = add_ball(world, (0.0, 0.5))
    step_for(world, 1.0)
    (contact,) = world.contacts(ball)
    (point,) = contact.points
    assert close(point[0], (0.0, 0.0), abs_=0.005)
    assert point[2] > 0.0


def test_contacts_of_a_resting_box(resting_box):
    w, ground, box = resting_box
    contacts = w.contacts(box)
    assert len(contacts) == 1
    contact = contacts[0]
    assert {contact.body_a, contact.body_b} == {ground, box}
    assert {contact.collider_a, contact.collider_b} == {ground.colliders[0], box.colliders[0]}
    ny = 1.0 if contact.body_a == ground else -1.0
    assert close(contact.normal, (0.0, ny), abs_=1e-5)
    assert len(contact.points) == 2
    xs = sorted(p[0][0] for p in contact.points)
    assert close(xs, [-0.5, 0.5], abs_=1e-3)
    for point, separation, normal_impulse, tangent_impulse in contact.points:
        assert abs(point[1]) < 0.01
        assert abs(separation) < 0.005
        assert normal_impulse > 0.0
        assert abs(tangent_impulse) < 1e-6
    impulses = [p[2] for p in contact.points]
    assert close(impulses[0], impulses[1], rel=1e-3)
    for listed in (w.contacts(ground), w.contacts()):
        assert len(listed) == 1
        assert {listed[0].body_a, listed[0].body_b} == {ground, box}
    loner = add_box(w, (5.0, 5.0))
    assert w.contacts(loner) == []


def test_contact_impulses_scale_with_the_weight():
    totals = []
    for density in [1.0, 3.0]:
        w = lamina.World()
        add_ground(w)
        box = add_box(w, (0.0, 0.26), half=(0.5, 0.25), density=density)
        step_for(w, 1.0)
        totals.append(sum(p[2] for c in w.contacts(box) for p in c.points))
    assert close(totals[1] / totals[0], 3.0, rel=1e-3)


def test_resting_box_normal_impulses_sum_to_its_weight_times_the_substep(resting_box):
    # The impulses are the last substep's: a resting body's weight times dt / substeps.
    w, _, box = resting_box
    w.step(DT)
    total = sum(p[2] for c in w.contacts(box) for p in c.points)
    assert close(total, box.mass * GRAVITY * DT / w.settings["substeps"], rel=0.02)


# ---------------------------------------------------------------- threads


def test_thread_count_follows_set_num_threads(restore_threads):
    lamina.set_num_threads(1)
    assert lamina.num_threads() == 1
    lamina.set_num_threads(3)
    assert lamina.num_threads() == 3
    lamina.set_num_threads(0)
    assert lamina.num_threads() >= 1


@pytest.mark.parametrize("threads", [-1, 1025])
def test_bad_thread_count_raises(restore_threads, threads):
    lamina.set_num_threads(2)
    with pytest.raises(lamina.WorldError, match=str(threads)):
        lamina.set_num_threads(threads)
    assert lamina.num_threads() == 2
