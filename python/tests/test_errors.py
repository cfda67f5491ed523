"""Refused input at every entry point: non-finite numbers, negative or zero
sizes and densities, degenerate polygons, bad kind strings, unknown setting
names, bad time steps, stale handles after removal, handles of another
world, and half-given joint options. Each raises `lamina2d.WorldError` (a
ValueError) whose message names the bad value, and leaves the world's
state hash and snapshot bytes exactly as they were."""

import math

import pytest

import lamina2d as lamina
from conftest import DT, add_box, state_of, unchanged

NAN = math.nan
INF = math.inf


def test_world_error_is_a_value_error():
    assert issubclass(lamina.WorldError, ValueError)
    assert lamina.WorldError is lamina._lamina.WorldError


# Each case: (id, call on the scene dict, regex the message must match).
WORLD_CALLS = [
    # step
    ("step dt 0", lambda s: s["world"].step(0.0), r"time step.* got 0"),
    ("step dt negative", lambda s: s["world"].step(-DT), r"time step.* got -0\.01666"),
    ("step dt nan", lambda s: s["world"].step(NAN), r"dt .*NaN"),
    ("step dt inf", lambda s: s["world"].step(INF), r"dt .*inf"),
    ("step dt too large", lambda s: s["world"].step(1e5), r"time step.* got 100000"),
    ("step dt tiny", lambda s: s["world"].step(1e-12), r"time step"),
    # settings
    ("configure unknown", lambda s: s["world"].configure(substep=8), r"substep"),
    ("configure negative hertz", lambda s: s["world"].configure(contact_hertz=-1.0), r"contact_hertz.*-1"),
    ("configure nan", lambda s: s["world"].configure(time_to_sleep=NAN), r"time_to_sleep.*NaN"),
    ("configure substeps 0", lambda s: s["world"].configure(substeps=0), r"substeps.*0"),
    ("configure substeps negative", lambda s: s["world"].configure(substeps=-2), r"substeps.*-2"),
    ("configure speed limit", lambda s: s["world"].configure(max_linear_speed=1e9), r"max_linear_speed"),
    (
        "configure one bad among good",
        lambda s: s["world"].configure(substeps=8, gravity=(0.0, 1.0), joint_hertz=-3.0),
        r"joint_hertz.*-3",
    ),
    ("gravity inf", lambda s: setattr(s["world"], "gravity", (0.0, INF)), r"gravity\.y.*inf"),
    ("gravity nan", lambda s: setattr(s["world"], "gravity", (NAN, 0.0)), r"gravity\.x.*NaN"),
    # add_body
    ("add_body kind", lambda s: s["world"].add_body("wobbly"), r"wobbly"),
    ("add_body kind case", lambda s: s["world"].add_body("Dynamic"), r"Dynamic"),
    ("add_body position", lambda s: s["world"].add_body(position=(INF, 0.0)), r"position\.x.*inf"),
    ("add_body angle", lambda s: s["world"].add_body(angle=NAN), r"angle.*NaN"),
    ("add_body velocity", lambda s: s["world"].add_body(linear_velocity=(0.0, NAN)), r"linear_velocity\.y.*NaN"),
    ("add_body spin", lambda s: s["world"].add_body(angular_velocity=INF), r"angular_velocity.*inf"),
    ("add_body damping", lambda s: s["world"].add_body(linear_damping=-1.0), r"linear_damping.*-1"),
    ("add_body angular damping", lambda s: s["world"].add_body(angular_damping=-0.5), r"angular_damping.*-0\.5"),
    ("add_body gravity scale", lambda s: s["world"].add_body(gravity_scale=NAN), r"gravity_scale.*NaN"),
    # body setters and forces
    ("body position", lambda s: setattr(s["a"], "position", (NAN, 0.0)), r"position\.x.*NaN"),
    ("body angle", lambda s: setattr(s["a"], "angle", INF), r"angle.*inf"),
    ("body velocity", lambda s: setattr(s["a"], "linear_velocity", (0.0, INF)), r"linear_velocity\.y.*inf"),
    ("body spin", lambda s: setattr(s["a"], "angular_velocity", NAN), r"angular_velocity.*NaN"),
    ("body force", lambda s: s["a"].apply_force((NAN, 0.0)), r"force\.x.*NaN"),
    ("body force point", lambda s: s["a"].apply_force((1.0, 0.0), point=(0.0, INF)), r"point\.y.*inf"),
    ("body impulse", lambda s: s["a"].apply_impulse((0.0, -INF)), r"impulse\.y.*inf"),
    ("body impulse point", lambda s: s["a"].apply_impulse((1.0, 0.0), point=(NAN, 0.0)), r"point\.x.*NaN"),
    ("body torque", lambda s: s["a"].apply_torque(NAN), r"torque.*NaN"),
    ("body angle f32 overflow", lambda s: setattr(s["a"], "angle", 1e300), r"angle"),
    # add_collider
    ("collider density negative", lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), density=-1.0), r"density.*-1"),
    ("collider density nan", lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), density=NAN), r"density.*NaN"),
    ("collider friction", lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), friction=-0.1), r"friction.*-0\.1"),
    ("collider friction inf", lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), friction=INF), r"friction.*inf"),
    ("collider restitution", lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), restitution=-1.0), r"restitution.*-1"),
    (
        "collider local position",
        lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), local_position=(0.0, NAN)),
        r"local_position\.y.*NaN",
    ),
    (
        "collider local angle",
        lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), local_angle=INF),
        r"local_angle.*inf",
    ),
    # foreign handles
    ("remove foreign body", lambda s: s["world"].remove_body(s["foreign"]), r"another world"),
    ("collider on foreign body", lambda s: s["world"].add_collider(s["foreign"], lamina.Circle(0.5)), r"another world"),
    ("remove foreign collider", lambda s: s["world"].remove_collider(s["foreign"].colliders[0]), r"another world"),
    ("revolute with foreign body", lambda s: s["world"].add_revolute_joint(s["a"], s["foreign"], (0.0, 0.0)), r"another world"),
    ("revolute foreign first", lambda s: s["world"].add_revolute_joint(s["foreign"], s["a"], (0.0, 0.0)), r"another world"),
    ("prismatic foreign", lambda s: s["world"].add_prismatic_joint(s["a"], s["foreign"], (0.0, 0.0), (1.0, 0.0)), r"another world"),
    ("weld foreign", lambda s: s["world"].add_weld_joint(s["a"], s["foreign"], (0.0, 0.0)), r"another world"),
    ("distance foreign", lambda s: s["world"].add_distance_joint(s["a"], s["foreign"], (0.0, 0.0), (1.0, 0.0)), r"another world"),
    ("wheel foreign", lambda s: s["world"].add_wheel_joint(s["a"], s["foreign"], (0.0, 0.0), (0.0, 1.0)), r"another world"),
    ("motor foreign", lambda s: s["world"].add_motor_joint(s["a"], s["foreign"]), r"another world"),
    ("mouse foreign", lambda s: s["world"].add_mouse_joint(s["foreign"], (0.0, 0.0)), r"another world"),
    ("remove foreign joint", lambda s: s["world"].remove_joint(foreign_joint(s)), r"another world"),
    ("ray exclude foreign", lambda s: s["world"].cast_ray((0.0, 5.0), (0.0, -10.0), exclude_body=s["foreign"]), r"another world"),
    ("ray all exclude foreign", lambda s: s["world"].cast_ray_all((0.0, 5.0), (0.0, -10.0), exclude_body=s["foreign"]), r"another world"),
    ("aabb exclude foreign", lambda s: s["world"].query_aabb((-1.0, -1.0), (1.0, 1.0), exclude_body=s["foreign"]), r"another world"),
    ("point exclude foreign", lambda s: s["world"].query_point((0.0, 0.0), exclude_body=s["foreign"]), r"another world"),
    ("overlap exclude foreign", lambda s: s["world"].overlap_shape(lamina.Circle(1.0), exclude_body=s["foreign"]), r"another world"),
    (
        "cast shape exclude foreign",
        lambda s: s["world"].cast_shape(lamina.Circle(0.1), (0.0, 5.0), 0.0, (0.0, -5.0), exclude_body=s["foreign"]),
        r"another world",
    ),
    ("contacts of foreign", lambda s: s["world"].contacts(s["foreign"]), r"another world"),
    ("positions foreign", lambda s: s["world"].positions(bodies=[s["a"], s["foreign"]]), r"another world"),
    ("angles foreign", lambda s: s["world"].angles(bodies=[s["foreign"]]), r"another world"),
    ("velocities foreign", lambda s: s["world"].velocities(bodies=[s["foreign"]]), r"another world"),
    ("set_positions foreign", lambda s: s["world"].set_positions([[0.0, 0.0], [1.0, 1.0]], bodies=[s["a"], s["foreign"]]), r"another world"),
    ("set_angles foreign", lambda s: s["world"].set_angles([0.5], bodies=[s["foreign"]]), r"another world"),
    ("set_velocities foreign", lambda s: s["world"].set_velocities([[1.0, 0.0, 0.0]], bodies=[s["foreign"]]), r"another world"),
    # joints: bodies and options
    ("revolute same body", lambda s: s["world"].add_revolute_joint(s["a"], s["a"], (0.0, 0.0)), r"two different bodies"),
    ("revolute anchor", lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (NAN, 0.0)), r"anchor\.x.*NaN"),
    ("revolute lower only", lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (0.0, 0.0), lower=-0.5), r"lower.*upper"),
    ("revolute upper only", lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (0.0, 0.0), upper=0.5), r"lower.*upper"),
    ("revolute limits inverted", lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (0.0, 0.0), lower=1.0, upper=0.0), r"lower.*1"),
    ("revolute limit nan", lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (0.0, 0.0), lower=NAN, upper=0.0), r"lower.*NaN"),
    ("revolute speed only", lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (0.0, 0.0), motor_speed=1.0), r"max_motor_torque"),
    ("revolute torque only", lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (0.0, 0.0), max_motor_torque=1.0), r"max_motor_torque.*motor_speed"),
    (
        "revolute negative torque",
        lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (0.0, 0.0), motor_speed=1.0, max_motor_torque=-1.0),
        r"-1",
    ),
    ("revolute damping only", lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (0.0, 0.0), damping_ratio=0.5), r"damping_ratio.*hertz"),
    ("revolute negative hertz", lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (0.0, 0.0), hertz=-1.0), r"hertz.*-1"),
    (
        "revolute negative damping",
        lambda s: s["world"].add_revolute_joint(s["a"], s["b"], (0.0, 0.0), hertz=1.0, damping_ratio=-1.0),
        r"damping ratio.*-1",
    ),
    ("prismatic zero axis", lambda s: s["world"].add_prismatic_joint(s["a"], s["b"], (0.0, 0.0), (0.0, 0.0)), r"axis"),
    ("prismatic nan axis", lambda s: s["world"].add_prismatic_joint(s["a"], s["b"], (0.0, 0.0), (NAN, 1.0)), r"axis\.x.*NaN"),
    ("prismatic force only", lambda s: s["world"].add_prismatic_joint(s["a"], s["b"], (0.0, 0.0), (1.0, 0.0), max_motor_force=5.0), r"max_motor_force.*motor_speed"),
    ("prismatic speed only", lambda s: s["world"].add_prismatic_joint(s["a"], s["b"], (0.0, 0.0), (1.0, 0.0), motor_speed=1.0), r"max_motor_force"),
    ("prismatic lower only", lambda s: s["world"].add_prismatic_joint(s["a"], s["b"], (0.0, 0.0), (1.0, 0.0), lower=0.0), r"lower.*upper"),
    ("weld same body", lambda s: s["world"].add_weld_joint(s["b"], s["b"], (0.0, 0.0)), r"two different bodies"),
    ("weld damping only", lambda s: s["world"].add_weld_joint(s["a"], s["b"], (0.0, 0.0), damping_ratio=1.0), r"damping_ratio.*hertz"),
    ("weld anchor", lambda s: s["world"].add_weld_joint(s["a"], s["b"], (0.0, INF)), r"anchor\.y.*inf"),
    ("distance anchor", lambda s: s["world"].add_distance_joint(s["a"], s["b"], (0.0, 0.0), (NAN, 0.0)), r"anchor_b\.x.*NaN"),
    ("distance negative length", lambda s: s["world"].add_distance_joint(s["a"], s["b"], (0.0, 0.0), (2.0, 0.0), lower=-1.0, upper=2.0), r"length.*-1"),
    ("distance inverted", lambda s: s["world"].add_distance_joint(s["a"], s["b"], (0.0, 0.0), (2.0, 0.0), lower=3.0, upper=2.0), r"3"),
    ("distance upper only", lambda s: s["world"].add_distance_joint(s["a"], s["b"], (0.0, 0.0), (2.0, 0.0), upper=2.0), r"lower.*upper"),
    ("distance speed only", lambda s: s["world"].add_distance_joint(s["a"], s["b"], (0.0, 0.0), (2.0, 0.0), motor_speed=1.0), r"max_motor_force"),
    ("wheel zero axis", lambda s: s["world"].add_wheel_joint(s["a"], s["b"], (0.0, 0.0), (0.0, 0.0)), r"axis"),
    ("wheel speed only", lambda s: s["world"].add_wheel_joint(s["a"], s["b"], (0.0, 0.0), (0.0, 1.0), motor_speed=2.0), r"max_motor_torque"),
    ("wheel torque only", lambda s: s["world"].add_wheel_joint(s["a"], s["b"], (0.0, 0.0), (0.0, 1.0), max_motor_torque=2.0), r"max_motor_torque.*motor_speed"),
    ("motor negative force", lambda s: s["world"].add_motor_joint(s["a"], s["b"], max_force=-1.0), r"force.*-1"),
    ("motor negative torque", lambda s: s["world"].add_motor_joint(s["a"], s["b"], max_torque=-2.0), r"torque.*-2"),
    ("motor nan force", lambda s: s["world"].add_motor_joint(s["a"], s["b"], max_force=NAN), r"max_force.*NaN"),
    ("motor same body", lambda s: s["world"].add_motor_joint(s["a"], s["a"]), r"two different bodies"),
    ("mouse target", lambda s: s["world"].add_mouse_joint(s["a"], (NAN, 0.0)), r"target\.x.*NaN"),
    ("mouse negative force", lambda s: s["world"].add_mouse_joint(s["a"], (0.0, 0.0), max_force=-1.0), r"force.*-1"),
    ("mouse negative hertz", lambda s: s["world"].add_mouse_joint(s["a"], (0.0, 0.0), hertz=-5.0), r"hertz.*-5"),
    ("mouse damping only", lambda s: s["world"].add_mouse_joint(s["a"], (0.0, 0.0), damping_ratio=0.7), r"damping_ratio.*hertz"),
    # joint methods
    ("joint motor speed nan", lambda s: s["joint"].set_motor_speed(NAN), r"motor_speed.*NaN"),
    ("joint motor negative", lambda s: s["joint"].set_motor(1.0, -2.0), r"-2"),
    ("joint limits inverted", lambda s: s["joint"].set_limits(1.0, -1.0), r"lower.*1"),
    ("joint limits nan", lambda s: s["joint"].set_limits(0.0, NAN), r"upper.*NaN"),
    ("joint spring negative", lambda s: s["joint"].set_spring(-1.0, 0.5), r"hertz.*-1"),
    ("joint spring nan damping", lambda s: s["joint"].set_spring(1.0, NAN), r"damping_ratio.*NaN"),
    ("joint target on revolute", lambda s: s["joint"].set_target((0.0, 0.0)), r"Revolute.*target"),
    # queries
    ("ray origin", lambda s: s["world"].cast_ray((NAN, 0.0), (1.0, 0.0)), r"origin\.x.*NaN"),
    ("ray translation", lambda s: s["world"].cast_ray((0.0, 0.0), (INF, 0.0)), r"translation\.x.*inf"),
    ("ray zero translation", lambda s: s["world"].cast_ray((0.0, 0.0), (0.0, 0.0)), r"direction.*0"),
    ("ray all translation", lambda s: s["world"].cast_ray_all((0.0, 0.0), (0.0, NAN)), r"translation\.y.*NaN"),
    ("aabb inverted", lambda s: s["world"].query_aabb((1.0, 1.0), (0.0, 2.0)), r"width.*-1"),
    ("aabb nan", lambda s: s["world"].query_aabb((0.0, 0.0), (1.0, NAN)), r"upper\.y.*NaN"),
    ("point nan", lambda s: s["world"].query_point((0.0, INF)), r"point\.y.*inf"),
    ("overlap position", lambda s: s["world"].overlap_shape(lamina.Circle(1.0), (NAN, 0.0)), r"position\.x.*NaN"),
    ("overlap angle", lambda s: s["world"].overlap_shape(lamina.Circle(1.0), (0.0, 0.0), INF), r"angle.*inf"),
    ("cast shape translation", lambda s: s["world"].cast_shape(lamina.Circle(0.5), (0.0, 5.0), 0.0, (0.0, NAN)), r"translation\.y.*NaN"),
    ("cast shape angle", lambda s: s["world"].cast_shape(lamina.Circle(0.5), (0.0, 5.0), NAN, (0.0, -1.0)), r"angle.*NaN"),
]


def foreign_joint(s):
    other = s["other"]
    return other.add_mouse_joint(s["foreign"], (0.0, 1.0))


def world_call_params():
    for name, call, message in WORLD_CALLS:
        yield pytest.param(call, message, id=name)


@pytest.mark.parametrize("call, message", list(world_call_params()))
def test_refused_call_raises_world_error_and_leaves_the_world_unchanged(small_scene, call, message):
    world = small_scene["world"]
    settings = world.settings
    counts = (world.body_count, world.joint_count, len(world.colliders()))
    with unchanged(world):
        with pytest.raises(lamina.WorldError, match=message):
            call(small_scene)
    assert world.settings == settings
    assert (world.body_count, world.joint_count, len(world.colliders())) == counts


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda s, b: s["world"].remove_body(b), r"removed"),
        (lambda s, b: s["world"].add_collider(b, lamina.Circle(0.5)), r"removed"),
        (lambda s, b: s["world"].add_revolute_joint(s["a"], b, (0.0, 0.0)), r"removed"),
        (lambda s, b: s["world"].add_weld_joint(b, s["a"], (0.0, 0.0)), r"removed"),
        (lambda s, b: s["world"].add_mouse_joint(b, (0.0, 0.0)), r"removed"),
        (lambda s, b: s["world"].cast_ray((0.0, 5.0), (0.0, -10.0), exclude_body=b), r"removed"),
        (lambda s, b: s["world"].query_point((0.0, 0.0), exclude_body=b), r"removed"),
        (lambda s, b: s["world"].contacts(b), r"removed"),
        (lambda s, b: s["world"].positions(bodies=[b]), r"removed"),
        (lambda s, b: s["world"].set_velocities([[0.0, 0.0, 0.0]], bodies=[b]), r"removed"),
        (lambda s, b: b.position, r"removed"),
        (lambda s, b: b.angle, r"removed"),
        (lambda s, b: b.linear_velocity, r"removed"),
        (lambda s, b: b.mass, r"removed"),
        (lambda s, b: b.colliders, r"removed"),
        (lambda s, b: b.joints, r"removed"),
        (lambda s, b: setattr(b, "position", (0.0, 0.0)), r"removed"),
        (lambda s, b: setattr(b, "linear_velocity", (0.0, 0.0)), r"removed"),
        (lambda s, b: b.apply_impulse((1.0, 0.0)), r"removed"),
        (lambda s, b: b.apply_force((1.0, 0.0)), r"removed"),
        (lambda s, b: b.apply_torque(1.0), r"removed"),
        (lambda s, b: b.wake(), r"removed"),
        (lambda s, b: b.world_point((0.0, 0.0)), r"removed"),
    ],
)
def test_stale_body_handle_is_refused(small_scene, call, message):
    world = small_scene["world"]
    doomed = add_box(world, (8.0, 8.0))
    world.remove_body(doomed)
    with unchanged(world):
        with pytest.raises(lamina.WorldError, match=message):
            call(small_scene, doomed)


def test_stale_body_handle_is_refused_after_its_slot_is_reused(small_scene):
    world = small_scene["world"]
    doomed = add_box(world, (8.0, 8.0))
    world.remove_body(doomed)
    newcomer = add_box(world, (9.0, 9.0))
    assert newcomer != doomed
    with unchanged(world):
        with pytest.raises(lamina.WorldError, match="removed"):
            doomed.position
    assert newcomer.position == (9.0, 9.0)


def test_stale_collider_and_joint_handles_are_refused(small_scene):
    world = small_scene["world"]
    joint = small_scene["joint"]
    collider = small_scene["b"].colliders[0]
    world.remove_collider(collider)
    world.remove_joint(joint)
    with unchanged(world):
        for call in [
            lambda: world.remove_collider(collider),
            lambda: collider.body,
            lambda: collider.friction,
            lambda: collider.bounds,
            lambda: world.remove_joint(joint),
            lambda: joint.angle,
            lambda: joint.constraint_force,
            lambda: joint.set_motor_speed(1.0),
            lambda: joint.kind,
        ]:
            with pytest.raises(lamina.WorldError, match="removed"):
                call()
    assert not collider.is_valid and not joint.is_valid


def test_joints_of_a_removed_body_are_refused(small_scene):
    world = small_scene["world"]
    joint = small_scene["joint"]
    world.remove_body(small_scene["ball"])
    with unchanged(world):
        with pytest.raises(lamina.WorldError, match="removed"):
            joint.constraint_force
        with pytest.raises(lamina.WorldError, match="removed"):
            world.remove_joint(joint)


SHAPE_CALLS = [
    ("circle negative", lambda: lamina.Circle(-1.0), r"radius.*-1"),
    ("circle zero", lambda: lamina.Circle(0.0), r"radius.*0"),
    ("circle nan", lambda: lamina.Circle(NAN), r"radius.*NaN"),
    ("circle huge", lambda: lamina.Circle(1e7), r"10000000"),
    ("box negative", lambda: lamina.Box(-1.0, 1.0), r"half-extents.*-1"),
    ("box zero", lambda: lamina.Box(1.0, 0.0), r"half-extents.*\(1, 0\)"),
    ("box inf", lambda: lamina.Box(INF, 1.0), r"half_width.*inf"),
    ("box rounding", lambda: lamina.Box(1.0, 1.0, radius=-0.1), r"radius.*-0\.1"),
    ("polygon two points", lambda: lamina.Polygon([(0.0, 0.0), (1.0, 0.0)]), r"3 distinct.*2 points"),
    ("polygon collinear", lambda: lamina.Polygon([(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]), r"non-collinear.*hull of 2"),
    ("polygon repeated", lambda: lamina.Polygon([(1.0, 1.0)] * 4), r"4 points.*hull of 1"),
    ("polygon empty", lambda: lamina.Polygon([]), r"0 points"),
    ("polygon nan", lambda: lamina.Polygon([(0.0, 0.0), (1.0, NAN), (0.0, 1.0)]), r"points\[1\]\.y.*NaN"),
    ("polygon rounding", lambda: lamina.Polygon([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)], radius=-1.0), r"radius.*-1"),
    ("polygon tiny", lambda: lamina.Polygon([(0.0, 0.0), (1e-7, 0.0), (0.0, 1e-7)]), r"across"),
    ("capsule same ends", lambda: lamina.Capsule((1.0, 1.0), (1.0, 1.0), 0.5), r"coincide.*\(1, 1\)"),
    ("capsule radius", lambda: lamina.Capsule((0.0, 0.0), (1.0, 0.0), -0.5), r"radius.*-0\.5"),
    ("capsule nan", lambda: lamina.Capsule((0.0, NAN), (1.0, 0.0), 0.5), r"p1\.y.*NaN"),
    ("segment same ends", lambda: lamina.Segment((2.0, 3.0), (2.0, 3.0)), r"coincide.*\(2, 3\)"),
    ("segment inf", lambda: lamina.Segment((0.0, 0.0), (INF, 0.0)), r"p2\.x.*inf"),
    ("ellipse zero", lambda: lamina.Ellipse(0.0, 1.0), r"radii.*\(0, 1\)"),
    ("ellipse negative", lambda: lamina.Ellipse(1.0, -2.0), r"radii.*-2"),
    ("mass negative density", lambda: lamina.Box(1.0, 1.0).mass_properties(-1.0), r"density.*-1"),
    ("mass nan density", lambda: lamina.Box(1.0, 1.0).mass_properties(NAN), r"density.*NaN"),
    ("bounds nan", lambda: lamina.Box(1.0, 1.0).bounds((NAN, 0.0)), r"position\.x.*NaN"),
    ("bounds angle", lambda: lamina.Circle(1.0).bounds((0.0, 0.0), INF), r"angle.*inf"),
    ("contains nan", lambda: lamina.Circle(1.0).contains((0.0, NAN)), r"point\.y.*NaN"),
]


@pytest.mark.parametrize("call, message", [c[1:] for c in SHAPE_CALLS], ids=[c[0] for c in SHAPE_CALLS])
def test_bad_shape_raises_world_error(call, message):
    with pytest.raises(lamina.WorldError, match=message):
        call()


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"gravity": (NAN, 0.0)}, r"gravity\.x.*NaN"),
        ({"substeps": 0}, r"substeps.*0"),
        ({"substeps": -1}, r"substeps.*-1"),
        ({"contact_hertz": 0.0}, r"contact_hertz.*0"),
        ({"time_to_sleep": -1.0}, r"time_to_sleep.*-1"),
        ({"max_linear_speed": 0.0}, r"max_linear_speed.*0"),
        ({"hit_event_threshold": NAN}, r"hit_event_threshold.*NaN"),
        ({"gravity_y": -10.0}, r"gravity_y"),
    ],
)
def test_bad_world_settings_raise(settings, message):
    with pytest.raises(lamina.WorldError, match=message):
        lamina.World(**settings)


def test_refused_configure_changes_no_setting(small_scene):
    world = small_scene["world"]
    before = world.settings
    with pytest.raises(lamina.WorldError):
        world.configure(substeps=8, keep_events=True, contact_hertz=-1.0)
    assert world.settings == before


def test_refused_step_leaves_a_moving_world_stepping_as_before(small_scene):
    world = small_scene["world"]
    twin = lamina.World.restore(world.snapshot())
    with pytest.raises(lamina.WorldError):
        world.step(NAN)
    for _ in range(20):
        world.step(DT)
        twin.step(DT)
    assert world.state_hash() == twin.state_hash()


def test_step_refuses_a_time_step_above_the_engine_limit(small_scene):
    # The engine's MAX_TIME_STEP is 10,000 s.
    world = small_scene["world"]
    before = state_of(world)
    with pytest.raises(lamina.WorldError, match="20000"):
        world.step(2.0e4)
    assert state_of(world) == before


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda j: j.set_motor(1.0, -2.0), r"-2"),
        (lambda j: j.set_limits(1.0, -1.0), r"lower.*1"),
        (lambda j: j.set_spring(-1.0, 0.5), r"hertz.*-1"),
        (lambda j: j.set_target((0.0, 0.0)), r"Revolute.*target"),
    ],
)
def test_refused_joint_edit_raises_and_the_joint_steps_as_before(small_scene, edit, message):
    world = small_scene["world"]
    twin = lamina.World.restore(world.snapshot())
    hash_before = world.state_hash()
    with pytest.raises(lamina.WorldError, match=message):
        edit(small_scene["joint"])
    assert world.state_hash() == hash_before
    for _ in range(60):
        world.step(DT)
        twin.step(DT)
    assert world.state_hash() == twin.state_hash()


OUT_OF_RANGE_INTEGERS = [
    ("negative user_data", lambda s: s["world"].add_body(user_data=-1), r"user_data"),
    ("negative category", lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), category=-1), r"category"),
    ("mask beyond 32 bits", lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), mask=2**32), r"mask"),
    ("group beyond 32 bits", lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), group=2**31), r"group"),
    ("body user_data negative", lambda s: setattr(s["a"], "user_data", -5), r"user_data"),
    ("query category negative", lambda s: s["world"].query_point((0.0, 0.0), category=-1), r"category"),
    ("thread count huge", lambda s: lamina.set_num_threads(2**70), r"threads"),
]


@pytest.mark.parametrize("call, message", [c[1:] for c in OUT_OF_RANGE_INTEGERS], ids=[c[0] for c in OUT_OF_RANGE_INTEGERS])
def test_out_of_range_integers_are_refused_and_change_nothing(small_scene, call, message):
    with unchanged(small_scene["world"]):
        with pytest.raises((lamina.WorldError, OverflowError)):
            call(small_scene)


@pytest.mark.parametrize("call, message", [c[1:] for c in OUT_OF_RANGE_INTEGERS], ids=[c[0] for c in OUT_OF_RANGE_INTEGERS])
def test_out_of_range_integers_raise_world_error_naming_the_argument(small_scene, call, message):
    with pytest.raises(lamina.WorldError, match=message):
        call(small_scene)


def test_substeps_too_large_message_does_not_call_it_negative():
    with pytest.raises(lamina.WorldError) as refused:
        lamina.World(substeps=2**40)
    assert "positive" not in str(refused.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s["world"].step("0.1"),
        lambda s: s["world"].configure(contact_hertz="fast"),
        lambda s: s["world"].configure(enable_sleep="yes"),
        lambda s: s["world"].add_body(position="origin"),
        lambda s: s["world"].add_collider(s["a"], "circle"),
        lambda s: s["world"].add_collider(s["a"], lamina.Circle(0.5), density="heavy"),
        lambda s: lamina.World.restore("not bytes"),
    ],
)
def test_values_of_the_wrong_type_are_refused_and_change_nothing(small_scene, call):
    with unchanged(small_scene["world"]):
        with pytest.raises((TypeError, lamina.WorldError)):
            call(small_scene)
