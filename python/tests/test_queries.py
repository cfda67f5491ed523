"""World queries: ray casts against known shapes (fraction, point and normal
by hand), every hit of a ray against brute-force ray-shape intersection,
box and point queries against brute force over a seeded random scene of
every shape kind, shape overlaps against hand-computed distances, shape
casts by hand, and the filter keywords (exclude_body, exclude_sensors,
category/mask) on every query."""

import math

import numpy as np
import pytest

import lamina2d as lamina
from conftest import add_ball, add_box, add_ground, close

SQRT_HALF = math.sqrt(0.5)


# ---------------------------------------------------------------- single rays by hand


def test_ray_against_a_box_face(world):
    box = add_box(world, (0.0, 0.0), half=(1.0, 0.5), kind="fixed")
    hit = world.cast_ray((-3.0, 0.2), (6.0, 0.0))
    assert hit is not None
    assert hit.body == box and hit.collider == box.colliders[0]
    assert close(hit.fraction, 2.0 / 6.0)
    assert close(hit.point, (-1.0, 0.2), abs_=1e-6)
    assert close(hit.normal, (-1.0, 0.0), abs_=1e-6)
    from_above = world.cast_ray((0.5, 3.0), (0.0, -10.0))
    assert close(from_above.fraction, 0.25) and close(from_above.normal, (0.0, 1.0), abs_=1e-6)


def test_ray_against_a_rotated_box(world):
    add_box(world, (2.0, 1.0), half=(0.5, 0.5), angle=math.pi / 4.0, kind="fixed")
    hit = world.cast_ray((2.3, 5.0), (0.0, -10.0))
    # The upper-right edge of the diamond runs from its top corner (2, 1 + sqrt(1/2)) down at -45°.
    y = 1.0 + SQRT_HALF - 0.3
    assert close(hit.point, (2.3, y), abs_=1e-5)
    assert close(hit.fraction, (5.0 - y) / 10.0, abs_=1e-6)
    assert close(hit.normal, (SQRT_HALF, SQRT_HALF), abs_=1e-5)


def test_ray_against_a_circle(world):
    add_ball(world, (0.0, 0.0), radius=1.0, kind="fixed")
    hit = world.cast_ray((-5.0, 0.3), (10.0, 0.0))
    x = -math.sqrt(1.0 - 0.09)
    assert close(hit.point, (x, 0.3), abs_=1e-5)
    assert close(hit.fraction, (x + 5.0) / 10.0, abs_=1e-6)
    assert close(hit.normal, (x, 0.3), abs_=1e-5)


def test_ray_that_misses_or_stops_short_finds_nothing(world):
    add_box(world, (0.0, 0.0), half=(1.0, 0.5), kind="fixed")
    assert world.cast_ray((-3.0, 2.0), (6.0, 0.0)) is None
    assert world.cast_ray((-3.0, 0.0), (1.9, 0.0)) is None
    assert world.cast_ray((-3.0, 0.0), (-5.0, 0.0)) is None
    assert world.cast_ray_all((-3.0, 2.0), (6.0, 0.0)) == []


def test_ray_reaching_exactly_to_the_face(world):
    add_box(world, (0.0, 0.0), half=(1.0, 0.5), kind="fixed")
    hit = world.cast_ray((-3.0, 0.0), (2.5, 0.0))
    assert hit is not None and close(hit.fraction, 0.8)


# ---------------------------------------------------------------- the random scene


def ray_circle(origin, d, centre, r):
    fx, fy = origin[0] - centre[0], origin[1] - centre[1]
    a = d[0] * d[0] + d[1] * d[1]
    b = 2.0 * (fx * d[0] + fy * d[1])
    c = fx * fx + fy * fy - r * r
    disc = b * b - 4.0 * a * c
    if c <= 0.0 or disc < 0.0:
        return None
    t = (-b - math.sqrt(disc)) / (2.0 * a)
    return t if 0.0 <= t <= 1.0 else None


def ray_box(origin, d, centre, angle, half):
    c, s = math.cos(angle), math.sin(angle)
    ox, oy = origin[0] - centre[0], origin[1] - centre[1]
    lo = (c * ox + s * oy, -s * ox + c * oy)
    ld = (c * d[0] + s * d[1], -s * d[0] + c * d[1])
    t0, t1 = -math.inf, math.inf
    for k in range(2):
        if abs(ld[k]) < 1e-12:
            if abs(lo[k]) > half[k]:
                return None
            continue
        a = (-half[k] - lo[k]) / ld[k]
        b = (half[k] - lo[k]) / ld[k]
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    if t0 > t1 or t0 < 0.0 or t0 > 1.0:
        return None
    return t0


@pytest.fixture(scope="module")
def round_and_square():
    """~50 fixed circles and turned boxes at seeded random poses, with their
    parameters for hand-made ray casts."""
    rng = np.random.default_rng(2024)
    w = lamina.World()
    parts = []
    for i in range(50):
        centre = tuple(rng.uniform(-10.0, 10.0, size=2))
        if i % 2 == 0:
            r = float(rng.uniform(0.2, 1.0))
            body = add_ball(w, centre, radius=r, kind="fixed")
            parts.append((body.colliders[0], ("circle", centre, r)))
        else:
            half = tuple(rng.uniform(0.2, 1.0, size=2))
            angle = float(rng.uniform(-math.pi, math.pi))
            body = add_box(w, centre, half=half, angle=angle, kind="fixed")
            parts.append((body.colliders[0], ("box", centre, angle, half)))
    return w, parts


def brute_ray(parts, origin, d):
    hits = []
    for collider, (kind, *p) in parts:
        t = ray_circle(origin, d, *p) if kind == "circle" else ray_box(origin, d, *p)
        if t is not None:
            hits.append((t, collider))
    return sorted(hits, key=lambda h: h[0])


def test_cast_ray_all_equals_brute_force_nearest_first(round_and_square):
    w, parts = round_and_square
    rng = np.random.default_rng(5)
    compared = 0
    for _ in range(60):
        origin = tuple(rng.uniform(-12.0, 12.0, size=2))
        end = tuple(rng.uniform(-12.0, 12.0, size=2))
        d = (end[0] - origin[0], end[1] - origin[1])
        expected = brute_ray(parts, origin, d)
        if any(near_edge(origin, d, kind, p) for _, (kind, *p) in parts):
            continue
        hits = w.cast_ray_all(origin, d)
        fractions = [h.fraction for h in hits]
        assert fractions == sorted(fractions)
        assert [h.collider for h in hits] == [c for _, c in expected]
        for hit, (t, _) in zip(hits, expected):
            assert abs(hit.fraction - t) < 1e-4
            assert close(hit.point, (origin[0] + t * d[0], origin[1] + t * d[1]), abs_=1e-3)
            assert abs(math.hypot(*hit.normal) - 1.0) < 1e-4
            # The normal faces the ray.
            assert hit.normal[0] * d[0] + hit.normal[1] * d[1] < 0.0
        closest = w.cast_ray(origin, d)
        if expected:
            assert closest.collider == expected[0][1]
            assert closest.fraction == hits[0].fraction
            compared += 1
        else:
            assert closest is None
    assert compared >= 20


def near_edge(origin, d, kind, p):
    """True when a ray nearly grazes, or nearly starts inside or ends on, a part:
    cases where float32 may rightly disagree with the oracle."""
    eps = 1e-3
    if kind == "circle":
        centre, r = p
        grow = ray_circle(origin, d, centre, r + eps)
        shrink = ray_circle(origin, d, centre, max(r - eps, 1e-6))
        starts_inside = math.dist(origin, centre) < r + eps
        return (grow is None) != (shrink is None) or starts_inside
    centre, angle, half = p
    grow = ray_box(origin, d, centre, angle, (half[0] + eps, half[1] + eps))
    shrink = ray_box(origin, d, centre, angle, (half[0] - eps, half[1] - eps))
    c, s = math.cos(angle), math.sin(angle)
    ox, oy = origin[0] - centre[0], origin[1] - centre[1]
    starts_inside = abs(c * ox + s * oy) < half[0] + eps and abs(-s * ox + c * oy) < half[1] + eps
    return (grow is None) != (shrink is None) or starts_inside


def world_pose(body_position, body_angle, local_position, local_angle):
    c, s = math.cos(body_angle), math.sin(body_angle)
    x = body_position[0] + c * local_position[0] - s * local_position[1]
    y = body_position[1] + s * local_position[0] + c * local_position[1]
    return (x, y), body_angle + local_angle


def random_shape(rng, kind):
    if kind == 0:
        return lamina.Circle(float(rng.uniform(0.2, 1.0)))
    if kind == 1:
        return lamina.Box(*map(float, rng.uniform(0.2, 1.0, size=2)))
    if kind == 2:
        return lamina.Polygon([tuple(p) for p in rng.uniform(-1.0, 1.0, size=(6, 2))])
    if kind == 3:
        return lamina.Capsule(tuple(rng.uniform(-0.8, 0.0, size=2)), tuple(rng.uniform(0.0, 0.8, size=2)), float(rng.uniform(0.1, 0.4)))
    if kind == 4:
        return lamina.Ellipse(*map(float, rng.uniform(0.2, 1.0, size=2)))
    return lamina.Segment(tuple(rng.uniform(-1.0, 0.0, size=2)), tuple(rng.uniform(0.0, 1.0, size=2)))


@pytest.fixture(scope="module")
def every_kind():
    """~50 colliders of every shape kind on fixed, kinematic and dynamic
    bodies at seeded random poses (some offset in their body), stepped once
    so that overlapping dynamic bodies have pushed apart; with each
    collider's shape and world pose, read back from its body."""
    rng = np.random.default_rng(99)
    w = lamina.World(gravity=(0.0, 0.0))
    made = []
    for i in range(48):
        kind = ("fixed", "dynamic", "kinematic")[i % 3]
        position = tuple(map(float, rng.uniform(-10.0, 10.0, size=2)))
        angle = float(rng.uniform(-math.pi, math.pi))
        body = w.add_body(kind, position=position, angle=angle)
        shape = random_shape(rng, i % 6)
        local_position = tuple(map(float, rng.uniform(-0.5, 0.5, size=2))) if i % 4 == 0 else (0.0, 0.0)
        local_angle = float(rng.uniform(-1.0, 1.0)) if i % 4 == 0 else 0.0
        if shape.area == 0.0 and kind == "dynamic":
            body = w.add_body("fixed", position=position, angle=angle)
        made.append((w.add_collider(body, shape, local_position=local_position, local_angle=local_angle), shape))
    w.step(1.0 / 60.0)
    parts = []
    for collider, shape in made:
        body = collider.body
        parts.append((collider, shape, world_pose(body.position, body.angle, *collider.local_pose)))
    return w, parts


def boxes_overlap(a_lower, a_upper, b_lower, b_upper, margin=0.0):
    return all(a_lower[k] <= b_upper[k] + margin and b_lower[k] <= a_upper[k] + margin for k in range(2))


def test_query_aabb_equals_brute_force_over_shape_bounds(every_kind):
    w, parts = every_kind
    rng = np.random.default_rng(17)
    nonempty = 0
    for _ in range(100):
        lower = tuple(map(float, rng.uniform(-12.0, 10.0, size=2)))
        size = rng.uniform(0.1, 6.0, size=2)
        upper = (lower[0] + float(size[0]), lower[1] + float(size[1]))
        found = set(w.query_aabb(lower, upper))
        for collider, shape, (position, angle) in parts:
            lo, up = shape.bounds(position, angle)
            inside = boxes_overlap(lo, up, lower, upper, -1e-4)
            outside = not boxes_overlap(lo, up, lower, upper, 1e-4)
            if inside:
                assert collider in found
            elif outside:
                assert collider not in found
        nonempty += bool(found)
    assert nonempty > 30


def test_query_aabb_over_everything_finds_every_collider(every_kind):
    w, parts = every_kind
    assert set(w.query_aabb((-20.0, -20.0), (20.0, 20.0))) == {c for c, _, _ in parts}
    assert w.query_aabb((50.0, 50.0), (60.0, 60.0)) == []


def test_query_point_equals_brute_force_over_contains(every_kind):
    w, parts = every_kind
    rng = np.random.default_rng(23)
    hits = 0
    for point in rng.uniform(-11.0, 11.0, size=(1500, 2)):
        point = tuple(map(float, point))
        found = w.query_point(point)
        expected = [c for c, shape, (position, angle) in parts if shape.contains(point, position, angle)]
        assert set(found) == set(expected)
        assert len(found) == len(set(found))
        hits += len(found)
    assert hits > 100


def test_query_point_inside_circles_by_hand(round_and_square):
    w, parts = round_and_square
    rng = np.random.default_rng(29)
    for point in rng.uniform(-11.0, 11.0, size=(500, 2)):
        found = set(w.query_point(tuple(point)))
        for collider, (kind, *p) in parts:
            if kind != "circle":
                continue
            gap = math.dist(point, p[0]) - p[1]
            if gap < -1e-4:
                assert collider in found
            elif gap > 1e-4:
                assert collider not in found


def circle_box_gap(centre, r, box_centre, half):
    dx = max(abs(centre[0] - box_centre[0]) - half[0], 0.0)
    dy = max(abs(centre[1] - box_centre[1]) - half[1], 0.0)
    return math.hypot(dx, dy) - r


def test_overlap_shape_against_hand_distances():
    rng = np.random.default_rng(31)
    w = lamina.World()
    parts = []
    for i in range(40):
        centre = tuple(map(float, rng.uniform(-8.0, 8.0, size=2)))
        if i % 2 == 0:
            r = float(rng.uniform(0.2, 1.0))
            parts.append((add_ball(w, centre, radius=r, kind="fixed").colliders[0], "circle", centre, r))
        else:
            half = tuple(map(float, rng.uniform(0.2, 1.0, size=2)))
            parts.append((add_box(w, centre, half=half, kind="fixed").colliders[0], "box", centre, half))
    checked = 0
    for _ in range(80):
        probe = tuple(map(float, rng.uniform(-9.0, 9.0, size=2)))
        radius = float(rng.uniform(0.2, 2.0))
        found = set(w.overlap_shape(lamina.Circle(radius), probe))
        for collider, kind, centre, size in parts:
            if kind == "circle":
                gap = math.dist(probe, centre) - size - radius
            else:
                gap = circle_box_gap(probe, radius, centre, size)
            if gap < -1e-3:
                assert collider in found
                checked += 1
            elif gap > 1e-3:
                assert collider not in found
        # A box probe against the circles: the same distance, seen from the circle.
        half = (radius, radius * 0.5)
        found = set(w.overlap_shape(lamina.Box(*half), probe))
        for collider, kind, centre, size in parts:
            if kind == "circle":
                gap = circle_box_gap(centre, size, probe, half)
            else:
                gap = max(abs(probe[0] - centre[0]) - half[0] - size[0], abs(probe[1] - centre[1]) - half[1] - size[1])
            if gap < -1e-3:
                assert collider in found
            elif gap > 1e-3:
                assert collider not in found
    assert checked > 20


def test_overlap_shape_turned(world):
    add_box(world, (2.0, 0.0), half=(0.5, 0.5), kind="fixed")
    # A long thin box along x reaches the box; turned a quarter turn it does not.
    stick = lamina.Box(1.8, 0.05)
    assert len(world.overlap_shape(stick, (0.0, 0.0), 0.0)) == 1
    assert world.overlap_shape(stick, (0.0, 0.0), math.pi / 2.0) == []


# ---------------------------------------------------------------- shape casts


def test_cast_circle_against_a_box_face(world):
    box = add_box(world, (0.0, 0.0), half=(1.0, 0.5), kind="fixed")
    hit = world.cast_shape(lamina.Circle(0.25), (-3.0, 0.0), 0.0, (4.0, 0.0))
    assert hit is not None
    assert hit.body == box and hit.collider == box.colliders[0]
    assert abs(hit.fraction - (3.0 - 1.0 - 0.25) / 4.0) < 1e-3
    assert close(hit.point, (-1.0, 0.0), abs_=5e-3)
    assert close(hit.normal, (-1.0, 0.0), abs_=1e-4)


def test_cast_box_down_onto_the_ground(world):
    ground = add_ground(world)
    hit = world.cast_shape(lamina.Box(0.5, 0.5), (1.0, 5.0), 0.0, (0.0, -10.0))
    assert hit.body == ground
    assert abs(hit.fraction - 4.5 / 10.0) < 1e-3
    assert abs(hit.point[1]) < 5e-3 and abs(hit.point[0] - 1.0) <= 0.5 + 5e-3
    assert close(hit.normal, (0.0, 1.0), abs_=1e-4)


def test_cast_turned_box_lands_on_its_corner(world):
    add_ground(world)
    reach = math.sqrt(2.0) * 0.5
    hit = world.cast_shape(lamina.Box(0.5, 0.5), (0.0, 3.0), math.pi / 4.0, (0.0, -6.0))
    assert abs(hit.fraction - (3.0 - reach) / 6.0) < 1e-3
    assert close(hit.point, (0.0, 0.0), abs_=5e-3)


def test_cast_shape_that_misses_or_stops_short(world):
    add_box(world, (0.0, 0.0), half=(1.0, 0.5), kind="fixed")
    assert world.cast_shape(lamina.Circle(0.25), (-3.0, 2.0), 0.0, (6.0, 0.0)) is None
    assert world.cast_shape(lamina.Circle(0.25), (-3.0, 0.0), 0.0, (1.5, 0.0)) is None


# ---------------------------------------------------------------- filters


@pytest.fixture
def filtered_scene():
    """On the x axis, left to right: a sensor, a box of category 4 (mask
    0xFFFF), a plain box: (world, sensor collider, category-4 collider, plain collider)."""
    w = lamina.World()
    sensor_body = w.add_body("fixed", position=(-2.0, 0.0))
    sensor = w.add_collider(sensor_body, lamina.Box(0.2, 0.2), sensor=True)
    special_body = w.add_body("fixed", position=(0.0, 0.0))
    special = w.add_collider(special_body, lamina.Box(0.2, 0.2), category=4, mask=0xFFFF)
    plain_body = w.add_body("fixed", position=(2.0, 0.0))
    plain = w.add_collider(plain_body, lamina.Box(0.2, 0.2))
    return w, sensor, special, plain


def every_query(w, **keywords):
    """The sets of colliders each query finds along the x axis with these filter keywords."""
    return {
        "cast_ray": {w.cast_ray((-4.0, 0.0), (8.0, 0.0), **keywords).collider}
        if w.cast_ray((-4.0, 0.0), (8.0, 0.0), **keywords)
        else set(),
        "cast_ray_all": {h.collider for h in w.cast_ray_all((-4.0, 0.0), (8.0, 0.0), **keywords)},
        "query_aabb": set(w.query_aabb((-3.0, -1.0), (3.0, 1.0), **keywords)),
        "query_point": {c for x in (-2.0, 0.0, 2.0) for c in w.query_point((x, 0.0), **keywords)},
        "overlap_shape": set(w.overlap_shape(lamina.Box(3.0, 0.5), (0.0, 0.0), **keywords)),
        "cast_shape": {w.cast_shape(lamina.Circle(0.1), (-4.0, 0.0), 0.0, (8.0, 0.0), **keywords).collider}
        if w.cast_shape(lamina.Circle(0.1), (-4.0, 0.0), 0.0, (8.0, 0.0), **keywords)
        else set(),
    }


def test_no_filter_finds_sensors_too(filtered_scene):
    w, sensor, special, plain = filtered_scene
    found = every_query(w)
    for name in ("cast_ray_all", "query_aabb", "query_point", "overlap_shape"):
        assert found[name] == {sensor, special, plain}, name
    assert found["cast_ray"] == {sensor}


def test_exclude_sensors(filtered_scene):
    w, sensor, special, plain = filtered_scene
    found = every_query(w, exclude_sensors=True)
    for name in ("cast_ray_all", "query_aabb", "query_point", "overlap_shape"):
        assert found[name] == {special, plain}, name
    assert found["cast_ray"] == {special}
    assert found["cast_shape"] == {special}


def test_exclude_body(filtered_scene):
    w, sensor, special, plain = filtered_scene
    found = every_query(w, exclude_sensors=True, exclude_body=special.body)
    for name in ("cast_ray_all", "query_aabb", "query_point", "overlap_shape"):
        assert found[name] == {plain}, name
    assert found["cast_ray"] == {plain}
    assert found["cast_shape"] == {plain}


def test_mask_leaving_out_a_category(filtered_scene):
    w, sensor, special, plain = filtered_scene
    found = every_query(w, exclude_sensors=True, mask=0xFFFFFFFF & ~4)
    for name in found:
        assert special not in found[name], name
    assert found["cast_ray"] == {plain}
    assert found["query_aabb"] == {plain}


def test_query_category_must_be_in_the_colliders_mask(filtered_scene):
    w, sensor, special, plain = filtered_scene
    inside = every_query(w, exclude_sensors=True, category=0x8000)
    assert inside["query_aabb"] == {special, plain}
    assert inside["cast_ray"] == {special}
    outside = every_query(w, exclude_sensors=True, category=0x10000)
    for name in outside:
        assert special not in outside[name], name
    assert outside["cast_ray"] == {plain}
    assert outside["query_point"] == {plain}


def test_query_mask_zero_finds_nothing(filtered_scene):
    w, *_ = filtered_scene
    for name, found in every_query(w, mask=0).items():
        assert found == set(), name


def test_queries_see_a_body_where_it_was_moved(world):
    box = add_box(world, (0.0, 0.0))
    box.position = (10.0, 0.0)
    assert world.query_point((0.0, 0.0)) == []
    assert world.query_point((10.0, 0.0)) == box.colliders
    assert world.cast_ray((10.0, 5.0), (0.0, -10.0)).body == box
    world.remove_body(box)
    assert world.query_point((10.0, 0.0)) == []
    assert world.cast_ray((10.0, 5.0), (0.0, -10.0)) is None
