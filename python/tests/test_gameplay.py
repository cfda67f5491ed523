"""The gameplay calls against physics worked by hand: a conveyor belt
(`tangent_speed`), rolling resistance, explosions, and the character mover
(`cast_mover`, `collide_mover`, `CollisionPlane`, `solve_planes`,
`clip_vector`, and the whole loop of Box2D's mover sample); and bad input
to each of them refused with `lamina2d.WorldError` naming the value, the
world left as it was."""

import math

import pytest

import lamina2d as lamina
from conftest import DT, GRAVITY, add_ball, add_box, add_ground, close, step_for, unchanged

NAN = math.nan
INF = math.inf
SLOP = 0.005  # the engine's linear slop, m


# ---- surface materials -------------------------------------------------------


def test_materials_read_back_and_default_to_zero():
    w = lamina.World()
    body = w.add_body("fixed")
    plain = w.add_collider(body, lamina.Box(1.0, 0.5))
    belt = w.add_collider(body, lamina.Box(1.0, 0.5), tangent_speed=-1.5, rolling_resistance=0.2)
    assert (plain.tangent_speed, plain.rolling_resistance) == (0.0, 0.0)
    assert close(belt.tangent_speed, -1.5) and close(belt.rolling_resistance, 0.2)


@pytest.mark.parametrize("speed", [2.0, -1.5])
def test_a_box_on_a_belt_rides_it_at_its_speed(speed):
    # A belt whose top face is y = 0, moving at `speed` (positive carries
    # what rests on top to the right). Friction 0.6 accelerates the box at
    # 6 m/s², so it reaches the belt's speed within a third of a second and
    # then rides along at it.
    w = lamina.World()
    add_ground(w, tangent_speed=speed)
    box = add_box(w, (0.0, 0.5))
    step_for(w, 1.5)
    vx, vy = box.linear_velocity
    assert abs(vx - speed) < 0.02 * abs(speed), f"vx = {vx}"
    assert abs(vy) < 1e-3
    assert abs(box.angular_velocity) < 1e-2
    # And it has moved about speed × (1.5 s − the short spin-up).
    x = box.position[0]
    spin_up = abs(speed) / (0.6 * GRAVITY)
    expected = speed * (1.5 - spin_up / 2.0)
    assert abs(x - expected) < 0.05, f"x = {x}, expected {expected}"


def test_a_rolling_ball_with_rolling_resistance_slows_at_two_thirds_r_g_and_stops():
    # A uniform disc rolling without slipping, resisted by a torque r·R·N:
    # m·a = F, I·α = −F·R − r·R·m·g, a = α·R, I = m·R²/2
    #   ⇒ a = −r·g / (1 + I/(m·R²)) = −(2/3)·r·g.
    # With r = 0.06, g = 10: a = 0.4 m/s²; from 2 m/s it stops after 5 s and
    # v²/(2a) = 5 m. The ball without resistance keeps rolling at 2 m/s.
    r, v0, radius = 0.06, 2.0, 0.5
    a = 2.0 / 3.0 * r * GRAVITY
    w = lamina.World()
    add_ground(w, half_width=40.0)
    slowed = add_ball(w, (0.0, radius), radius=radius, rolling_resistance=r)
    free = add_ball(w, (0.0, 3.0 + radius), radius=radius)
    # The free ball rolls on a ledge of its own, above the other's path.
    ledge = w.add_body("fixed", position=(0.0, 2.5))
    w.add_collider(ledge, lamina.Box(40.0, 0.5))
    for ball in (slowed, free):
        ball.linear_velocity = (v0, 0.0)
        ball.angular_velocity = -v0 / radius  # rolling: v = −ω·R
    step_for(w, 2.0)
    v = slowed.linear_velocity[0]
    assert abs(v - (v0 - a * 2.0)) < 0.03, f"after 2 s: {v}, expected {v0 - a * 2.0}"
    step_for(w, 5.0)
    assert abs(slowed.linear_velocity[0]) < 1e-3, f"still rolling at {slowed.linear_velocity}"
    stopped_at = slowed.position[0]
    assert abs(stopped_at - v0 * v0 / (2.0 * a)) < 0.05 * v0 * v0 / (2.0 * a), f"stopped at {stopped_at}"
    assert abs(free.linear_velocity[0] - v0) < 0.02, f"free ball: {free.linear_velocity}"


# ---- explosions --------------------------------------------------------------


def test_bodies_at_equal_distances_get_equal_outward_speeds():
    # Four unit boxes (1 kg) 3 m from a blast of radius 5, one on each side,
    # each seen face on across a width of 1 m: speed = 2 N·s/m × 1 m / 1 kg.
    w = lamina.World(gravity=(0.0, 0.0))
    places = [(3.0, 0.0), (-3.0, 0.0), (0.0, 3.0), (0.0, -3.0)]
    boxes = [add_box(w, p) for p in places]
    w.explode((0.0, 0.0), 5.0, impulse_per_length=2.0)
    for box, (x, y) in zip(boxes, places):
        assert close(box.linear_velocity, (2.0 * x / 3.0, 2.0 * y / 3.0), rel=1e-4, abs_=1e-4), box.linear_velocity
        assert abs(box.angular_velocity) < 1e-5


def test_the_falloff_band_gives_less_and_beyond_it_nothing():
    # Circles of radius 0.5: mass π/4, width 1 from every side. Radius 5,
    # falloff 2, 3 N·s/m: whole within 5 m of the centre, fading across
    # 5..7 m by the distance of each circle's nearest point, none beyond.
    w = lamina.World(gravity=(0.0, 0.0))
    mass = math.pi * 0.25
    inside = add_ball(w, (0.0, 4.0))          # nearest point 3.5 m: whole
    band = add_ball(w, (6.0, 0.0))            # 5.5 m: (7 − 5.5)/2 = 0.75
    edge = add_ball(w, (0.0, -7.25))          # 6.75 m: 0.125
    beyond = add_ball(w, (-8.0, 0.0))         # 7.5 m: nothing
    fixed = add_ball(w, (-4.0, 0.0), kind="fixed")
    w.explode((0.0, 0.0), 5.0, falloff=2.0, impulse_per_length=3.0)
    full = 3.0 / mass
    assert close(inside.linear_velocity, (0.0, full), rel=1e-4, abs_=1e-4)
    assert close(band.linear_velocity, (0.75 * full, 0.0), rel=1e-4, abs_=1e-4)
    assert close(edge.linear_velocity, (0.0, -0.125 * full), rel=1e-4, abs_=1e-4)
    assert beyond.linear_velocity == (0.0, 0.0)
    assert fixed.linear_velocity == (0.0, 0.0)


def test_an_explosion_hits_only_the_categories_in_its_mask():
    w = lamina.World(gravity=(0.0, 0.0))
    hit = add_box(w, (2.0, 0.0), category=0b01)
    spared = add_box(w, (-2.0, 0.0), category=0b10)
    w.explode((0.0, 0.0), 5.0, impulse_per_length=1.0, mask=0b01)
    assert close(hit.linear_velocity, (1.0, 0.0), rel=1e-4, abs_=1e-4)
    assert spared.linear_velocity == (0.0, 0.0)
    # The default blast has no impulse (Box2D's): it only wakes.
    w.explode((0.0, 0.0), 5.0)
    assert close(hit.linear_velocity, (1.0, 0.0), rel=1e-4, abs_=1e-4)


# ---- the mover ---------------------------------------------------------------


def wall_world():
    """No gravity; a fixed wall whose left face is the line x = 2."""
    w = lamina.World(gravity=(0.0, 0.0))
    wall = w.add_body("fixed", position=(2.5, 0.0))
    w.add_collider(wall, lamina.Box(0.5, 5.0))
    return w, wall


def assert_travel(fraction, length, gap):
    # The mover may end a slop inside what it meets.
    assert abs(fraction * length - (gap + SLOP)) <= 0.3 * SLOP, f"travelled {fraction * length}"


def test_cast_mover_stops_a_slop_into_a_wall():
    w, wall = wall_world()
    circle = lamina.Circle(0.5)
    # A circle of 0.5 at the origin: 1.5 m free of the 3 m asked.
    assert_travel(w.cast_mover(circle, (3.0, 0.0)), 3.0, 1.5)
    # The same circle placed at (-1, 2): 2.5 m free.
    assert_travel(w.cast_mover(circle, (3.0, 0.0), position=(-1.0, 2.0)), 3.0, 2.5)
    # An upright capsule of radius 0.3, placed: 1.7 m free.
    capsule = lamina.Capsule((0.0, -0.5), (0.0, 0.5), 0.3)
    assert_travel(w.cast_mover(capsule, (3.0, 0.0), position=(0.0, 1.0)), 3.0, 1.7)
    # A lying capsule in world coordinates, its end 0.8 m from its centre: 1.2 m.
    lying = lamina.Capsule((-0.5, 0.0), (0.5, 0.0), 0.3)
    assert_travel(w.cast_mover(lying, (3.0, 0.0)), 3.0, 1.2)
    # Short of the wall, moving away, or with the wall filtered out: all of it.
    assert w.cast_mover(capsule, (1.0, 0.0)) == 1.0
    assert w.cast_mover(capsule, (-3.0, 0.0)) == 1.0
    assert w.cast_mover(capsule, (3.0, 0.0), exclude_body=wall) == 1.0
    assert w.cast_mover(capsule, (3.0, 0.0), mask=0b10) == 1.0


def test_collide_mover_plane_by_hand():
    w = lamina.World(gravity=(0.0, 0.0))
    ground = add_ground(w, half_width=5.0)
    (g,) = ground.colliders
    # An upright capsule whose bottom, 0.7 − 0.5 − 0.3, is 0.1 below the top face.
    capsule = lamina.Capsule((0.0, -0.5), (0.0, 0.5), 0.3)
    planes = w.collide_mover(capsule, position=(1.0, 0.7))
    assert len(planes) == 1
    (p,) = planes
    assert isinstance(p, lamina.CollisionPlane)
    assert close(p.normal, (0.0, 1.0))
    assert close(p.offset, 0.1, abs_=1e-5)
    assert close(p.point, (1.0, 0.0), abs_=1e-5)
    assert p.collider == g and p.body == ground
    assert (p.push_limit, p.push, p.clip_velocity) == (INF, 0.0, True)
    # A circle of 0.4 at (0, 0.3): 0.1 deep, touching at (0, 0).
    (p,) = w.collide_mover(lamina.Circle(0.4), position=(0.0, 0.3))
    assert close(p.normal, (0.0, 1.0)) and close(p.offset, 0.1, abs_=1e-5)
    assert close(p.point, (0.0, 0.0), abs_=1e-5)
    # 1 cm above the ground, or the ground filtered out: no plane.
    assert w.collide_mover(capsule, position=(1.0, 0.81)) == []
    assert w.collide_mover(capsule, position=(1.0, 0.7), exclude_body=ground) == []


def test_a_plane_made_by_hand():
    p = lamina.CollisionPlane((0.0, 1.0), 0.25)
    assert (p.normal, p.offset, p.push_limit, p.push, p.clip_velocity) == ((0.0, 1.0), 0.25, INF, 0.0, True)
    assert (p.collider, p.body, p.point) == (None, None, (0.0, 0.0))
    assert close(p.separation((3.0, 1.0)), 0.75)
    q = lamina.CollisionPlane((0.6, 0.8), -0.5, push_limit=0.1, clip_velocity=False, point=(1.0, 2.0))
    assert close(q.push_limit, 0.1) and not q.clip_velocity and q.point == (1.0, 2.0)
    q.push_limit = INF
    q.normal = (-1.0, 0.0)
    assert q.push_limit == INF and q.normal == (-1.0, 0.0)
    assert "CollisionPlane" in repr(q)


def test_solve_planes_slides_along_a_plane_and_writes_each_push():
    # The floor, touching (offset 0). Wanted (1, −0.5): the floor takes away
    # the downward half metre but a slop, the rest slides along it.
    floor = lamina.CollisionPlane((0.0, 1.0), 0.0)
    s = lamina.solve_planes((1.0, -0.5), [floor])
    assert close(s.translation, (1.0, -SLOP), abs_=1e-6)
    assert s.iterations == 2
    assert close(floor.push, 0.5 - SLOP, abs_=1e-6)
    # The floor pushed: a velocity into it loses its downward part.
    assert lamina.clip_vector((2.0, -3.0), [floor]) == (2.0, 0.0)
    assert lamina.clip_vector((1.0, 2.0), [floor]) == (1.0, 2.0)
    # Solving again moving away resets the push, and clip_vector leaves v alone.
    s = lamina.solve_planes((1.0, 1.0), [floor])
    assert s.translation == (1.0, 1.0) and floor.push == 0.0
    assert lamina.clip_vector((2.0, -3.0), [floor]) == (2.0, -3.0)
    # No planes: the displacement as asked, no passes.
    s = lamina.solve_planes((0.3, 0.4), [])
    assert close(s.translation, (0.3, 0.4)) and s.iterations == 0


def test_solve_planes_holds_a_push_limit_and_clips_only_where_asked():
    # Sunk 0.2 into something that may push only 5 cm: pushed 5 cm.
    soft = lamina.CollisionPlane((0.0, 1.0), 0.2, push_limit=0.05)
    s = lamina.solve_planes((0.0, 0.0), [soft])
    assert close(s.translation, (0.0, 0.05), abs_=1e-6) and close(soft.push, 0.05, abs_=1e-6)
    # A corner: a floor and a wall on the right, both pushing, stop (2, −3).
    floor = lamina.CollisionPlane((0.0, 1.0), 0.0)
    wall = lamina.CollisionPlane((-1.0, 0.0), 0.0)
    lamina.solve_planes((1.0, -1.0), [floor, wall])
    assert floor.push > 0.0 and wall.push > 0.0
    assert lamina.clip_vector((2.0, -3.0), [floor, wall]) == (0.0, 0.0)
    wall.clip_velocity = False
    assert lamina.clip_vector((2.0, -3.0), [floor, wall]) == (2.0, 0.0)


def test_the_mover_loop_walks_into_a_wall_and_never_enters_it():
    # Box2D's geometric mover sample, as in docs/gameplay.md: a capsule 1.6 m
    # tall standing on the ground walks right at 4 m/s into a wall whose face
    # is x = 3, and stops at it, at most a slop in, its speed into it gone.
    w = lamina.World()
    add_ground(w)
    wall = w.add_body("fixed", position=(3.5, 2.0))
    w.add_collider(wall, lamina.Box(0.5, 2.5))
    half_height, radius = 0.5, 0.3
    capsule = lamina.Capsule((0.0, -half_height), (0.0, half_height), radius)
    x, y = 0.0, half_height + radius
    velocity = (4.0, 0.0)
    planes = []
    for _frame in range(120):
        target = (x + velocity[0] * DT, y + velocity[1] * DT)
        for _ in range(5):
            planes = w.collide_mover(capsule, position=(x, y))
            s = lamina.solve_planes((target[0] - x, target[1] - y), planes)
            fraction = w.cast_mover(capsule, s.translation, position=(x, y))
            dx, dy = s.translation[0] * fraction, s.translation[1] * fraction
            x, y = x + dx, y + dy
            if math.hypot(dx, dy) < 0.01:
                break
        velocity = lamina.clip_vector(velocity, planes)
        # Never into the wall past the slops, never into the ground.
        assert x + radius <= 3.0 + 2.0 * SLOP, f"into the wall: x = {x}"
        assert y - half_height - radius >= -2.0 * SLOP, f"into the ground: y = {y}"
    assert abs(x - (3.0 - radius)) < 0.01, f"x = {x}"
    assert velocity[0] == 0.0
    assert any(p.body == wall for p in planes)


# ---- bad input -----------------------------------------------------------------


@pytest.fixture
def scene():
    w = lamina.World()
    ground = add_ground(w)
    box = add_box(w, (0.0, 0.6))
    add_ball(w, (2.0, 3.0), radius=0.3)
    for _ in range(5):
        w.step(DT)
    return w, ground, box


CAPSULE = lamina.Capsule((0.0, -0.5), (0.0, 0.5), 0.3)

BAD_WORLD_CALLS = [
    # materials
    ("tangent_speed nan", lambda w, g, b: w.add_collider(b, lamina.Circle(0.1), tangent_speed=NAN), r"tangent_speed.*NaN"),
    ("tangent_speed huge", lambda w, g, b: w.add_collider(b, lamina.Circle(0.1), tangent_speed=1e7), r"tangent_speed.*10000000"),
    ("rolling_resistance negative", lambda w, g, b: w.add_collider(b, lamina.Circle(0.1), rolling_resistance=-1.0), r"rolling_resistance.*-1"),
    ("rolling_resistance inf", lambda w, g, b: w.add_collider(b, lamina.Circle(0.1), rolling_resistance=INF), r"rolling_resistance.*inf"),
    # explode
    ("explode radius negative", lambda w, g, b: w.explode((0.0, 0.0), -1.0, impulse_per_length=1.0), r"radius.*-1"),
    ("explode radius nan", lambda w, g, b: w.explode((0.0, 0.0), NAN, impulse_per_length=1.0), r"radius.*NaN"),
    ("explode position", lambda w, g, b: w.explode((INF, 0.0), 1.0, impulse_per_length=1.0), r"position\.x.*inf"),
    ("explode falloff", lambda w, g, b: w.explode((0.0, 0.0), 1.0, falloff=-2.0, impulse_per_length=1.0), r"falloff.*-2"),
    ("explode impulse", lambda w, g, b: w.explode((0.0, 0.0), 1.0, impulse_per_length=NAN), r"impulse_per_length.*NaN"),
    ("explode mask", lambda w, g, b: w.explode((0.0, 0.0), 1.0, impulse_per_length=1.0, mask=-1), r"mask.*-1"),
    (
        "explode too strong",
        lambda w, g, b: w.explode((0.0, 0.0), 5.0, impulse_per_length=3e38),
        r"explosion",
    ),
    # cast_mover
    ("cast_mover box", lambda w, g, b: w.cast_mover(lamina.Box(0.5, 0.5), (1.0, 0.0)), r"capsule or a circle.*(box|polygon)"),
    ("cast_mover segment", lambda w, g, b: w.cast_mover(lamina.Segment((0.0, 0.0), (1.0, 0.0)), (1.0, 0.0)), r"capsule or a circle.*segment"),
    ("cast_mover tiny radius", lambda w, g, b: w.cast_mover(lamina.Circle(0.005), (1.0, 0.0)), r"radius.*0\.005"),
    ("cast_mover translation", lambda w, g, b: w.cast_mover(CAPSULE, (NAN, 0.0)), r"translation\.x.*NaN"),
    (
        "cast_mover sweep overflows",
        lambda w, g, b: w.cast_mover(CAPSULE, (3e38, 0.0), position=(3e38, 0.0)),
        r"translation length",
    ),
    ("cast_mover position", lambda w, g, b: w.cast_mover(CAPSULE, (1.0, 0.0), position=(0.0, INF)), r"position\.y.*inf"),
    ("cast_mover mask", lambda w, g, b: w.cast_mover(CAPSULE, (1.0, 0.0), mask=2**40), r"mask.*1099511627776"),
    # collide_mover
    ("collide_mover ellipse", lambda w, g, b: w.collide_mover(lamina.Ellipse(1.0, 0.5)), r"capsule or a circle.*ellipse"),
    ("collide_mover tiny radius", lambda w, g, b: w.collide_mover(lamina.Capsule((0.0, 0.0), (0.0, 1.0), 0.01)), r"radius.*0\.01"),
    ("collide_mover position", lambda w, g, b: w.collide_mover(CAPSULE, position=(NAN, 0.0)), r"position\.x.*NaN"),
    ("collide_mover category", lambda w, g, b: w.collide_mover(CAPSULE, category=-3), r"category.*-3"),
]


@pytest.mark.parametrize("call,pattern", [c[1:] for c in BAD_WORLD_CALLS], ids=[c[0] for c in BAD_WORLD_CALLS])
def test_bad_input_is_refused_and_the_world_is_unchanged(scene, call, pattern):
    w, ground, box = scene
    with unchanged(w):
        with pytest.raises(lamina.WorldError, match=pattern):
            call(w, ground, box)
    # And the world steps on as if nothing had been asked.
    w.step(DT)


def test_a_refused_collider_is_not_added(scene):
    w, _, box = scene
    before = len(w.colliders())
    with pytest.raises(lamina.WorldError):
        w.add_collider(box, lamina.Circle(0.1), rolling_resistance=-0.5)
    assert len(w.colliders()) == before


BAD_PLANES = [
    ("normal nan", lambda: lamina.CollisionPlane((NAN, 1.0), 0.0), r"normal\.x.*NaN"),
    ("normal zero", lambda: lamina.CollisionPlane((0.0, 0.0), 0.0), r"normal.*unit.*length 0"),
    ("normal long", lambda: lamina.CollisionPlane((0.0, 2.0), 0.0), r"normal.*unit.*length 2"),
    ("offset inf", lambda: lamina.CollisionPlane((0.0, 1.0), INF), r"offset.*inf"),
    ("push_limit negative", lambda: lamina.CollisionPlane((0.0, 1.0), 0.0, push_limit=-1.0), r"push_limit.*-1"),
    ("push_limit nan", lambda: lamina.CollisionPlane((0.0, 1.0), 0.0, push_limit=NAN), r"push_limit.*NaN"),
    ("push nan", lambda: lamina.CollisionPlane((0.0, 1.0), 0.0, push=NAN), r"push.*NaN"),
    ("point inf", lambda: lamina.CollisionPlane((0.0, 1.0), 0.0, point=(0.0, -INF)), r"point\.y.*-inf"),
    ("solve target", lambda: lamina.solve_planes((NAN, 0.0), [lamina.CollisionPlane((0.0, 1.0), 0.0)]), r"target_delta\.x.*NaN"),
    ("clip v", lambda: lamina.clip_vector((0.0, INF), []), r"v\.y.*inf"),
]


@pytest.mark.parametrize("call,pattern", [c[1:] for c in BAD_PLANES], ids=[c[0] for c in BAD_PLANES])
def test_bad_planes_and_plane_calls_are_refused(call, pattern):
    with pytest.raises(lamina.WorldError, match=pattern):
        call()


def test_a_refused_plane_setter_leaves_the_plane_as_it_was():
    p = lamina.CollisionPlane((0.0, 1.0), 0.1, push_limit=0.5)
    for name, value in [("normal", (1.0, 1.0)), ("offset", NAN), ("push_limit", -0.1), ("push", INF), ("point", (NAN, 0.0))]:
        with pytest.raises(lamina.WorldError, match=name):
            setattr(p, name, value)
    assert (p.normal, p.push_limit, p.push, p.point) == ((0.0, 1.0), 0.5, 0.0, (0.0, 0.0))
    assert close(p.offset, 0.1)


def test_solve_planes_leaves_the_planes_alone_when_refused():
    p = lamina.CollisionPlane((0.0, 1.0), 0.0, push=0.25)
    with pytest.raises(lamina.WorldError):
        lamina.solve_planes((0.0, NAN), [p])
    assert p.push == 0.25
