"""Copies of a world: pickle, copy.deepcopy, copy.copy and
World.restore(snapshot) each give an independent world that holds the same
state (snapshot bytes equal) and steps on bit for bit as the original;
damaged snapshot bytes are refused; the copy refuses the original's handles
and hands out its own. Determinism across thread counts: the same scene
stepped on one or two threads ends in the same state hash."""

import copy
import pickle

import numpy as np
import pytest

import lamina2d as lamina
from conftest import DT, add_ball, add_box, build_pyramid


def state_bytes(world):
    """A world's snapshot without what names the world itself: the world's
    tag (bytes 32-35, which a copy keeps and a world built alike does not)
    and the checksum over it (bytes 24-31)."""
    data = world.snapshot()
    return data[:24] + data[36:]


def busy_world():
    """A scene with contacts, a joint, a sleeping body and custom settings,
    stepped until things are in motion."""
    w = build_pyramid(5)
    w.configure(substeps=6, keep_events=True, contact_hertz=40.0)
    pivot = w.add_body("fixed", position=(8.0, 6.0))
    bob = add_ball(w, (10.0, 6.0), radius=0.2)
    w.add_revolute_joint(pivot, bob, (8.0, 6.0), lower=-1.0, upper=1.0)
    add_ball(w, (-8.0, 0.3), radius=0.3)
    bullet = add_ball(w, (-20.0, 2.0), radius=0.1, density=20.0)
    bullet.linear_velocity = (30.0, 0.0)
    for _ in range(45):
        w.step(DT)
    return w


COPIERS = {
    "pickle": lambda w: pickle.loads(pickle.dumps(w)),
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
    "restore": lambda w: lamina.World.restore(w.snapshot()),
}


@pytest.fixture(scope="module")
def busy_run():
    """The busy world's snapshot now, and its state hash after 90 more steps."""
    w = busy_world()
    data = w.snapshot()
    hashes = []
    for _ in range(90):
        w.step(DT)
        hashes.append(w.state_hash())
    return data, hashes


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_copy_steps_on_bit_for_bit_as_the_original(busy_run, how):
    data, expected = busy_run
    original = lamina.World.restore(data)
    duplicate = COPIERS[how](original)
    assert duplicate is not original
    assert duplicate.snapshot() == original.snapshot() == data
    assert duplicate.state_hash() == original.state_hash()
    assert duplicate.settings == original.settings
    assert duplicate.settings["substeps"] == 6 and duplicate.settings["keep_events"]
    assert (duplicate.body_count, duplicate.joint_count) == (original.body_count, original.joint_count)
    assert np.array_equal(duplicate.positions(), original.positions())
    assert np.array_equal(duplicate.angles(), original.angles())
    assert np.array_equal(duplicate.velocities(), original.velocities())
    assert [b.is_awake for b in duplicate.bodies()] == [b.is_awake for b in original.bodies()]
    for step in range(90):
        original.step(DT)
        duplicate.step(DT)
        assert duplicate.state_hash() == original.state_hash() == expected[step], step


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_copy_is_independent_of_the_original(how):
    original = lamina.World()
    body = add_box(original, (0.0, 5.0))
    duplicate = COPIERS[how](original)
    before = original.snapshot()
    for _ in range(30):
        duplicate.step(DT)
    duplicate.add_body()
    assert original.snapshot() == before
    assert body.position == (0.0, 5.0)
    assert duplicate.bodies()[0].position[1] < 5.0
    assert original.body_count == 1 and duplicate.body_count == 2


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_copy_refuses_the_originals_handles_and_gives_its_own(how):
    original = lamina.World()
    a = add_box(original, (0.0, 1.0))
    b = add_box(original, (2.0, 1.0), angle=0.5)
    joint = original.add_weld_joint(a, b, (1.0, 1.0))
    duplicate = COPIERS[how](original)
    before = duplicate.snapshot()
    for call in [
        lambda: duplicate.remove_body(a),
        lambda: duplicate.add_collider(a, lamina.Circle(0.5)),
        lambda: duplicate.add_revolute_joint(a, b, (0.0, 0.0)),
        lambda: duplicate.positions(bodies=[a]),
        lambda: duplicate.cast_ray((0.0, 5.0), (0.0, -10.0), exclude_body=a),
        lambda: duplicate.remove_joint(joint),
        lambda: duplicate.remove_collider(a.colliders[0]),
    ]:
        with pytest.raises(lamina.WorldError, match="another world"):
            call()
    assert duplicate.snapshot() == before
    mine = duplicate.bodies()
    assert len(mine) == 2
    assert all(h.world is duplicate for h in mine)
    assert mine[0] != a and mine[1] != b
    assert [m.position for m in mine] == [a.position, b.position]
    assert mine[1].angle == b.angle
    (copied_joint,) = duplicate.joints()
    assert copied_joint.kind == "weld"
    assert copied_joint.body_a == mine[0] and copied_joint.body_b == mine[1]
    duplicate.remove_body(mine[0])
    assert duplicate.joint_count == 0
    assert original.joint_count == 1 and a.is_valid


def test_sleeping_bodies_stay_asleep_in_a_copy():
    w = lamina.World()
    ground = w.add_body("fixed", position=(0.0, -0.5))
    w.add_collider(ground, lamina.Box(10.0, 0.5))
    box = add_box(w, (0.0, 0.5))
    for _ in range(120):
        w.step(DT)
    assert not box.is_awake
    awake = [b.is_awake for b in w.bodies()]
    for how in sorted(COPIERS):
        duplicate = COPIERS[how](w)
        assert [b.is_awake for b in duplicate.bodies()] == awake, how
        assert not duplicate.bodies()[1].is_awake


def test_pickle_of_a_fresh_world_keeps_its_gravity():
    w = lamina.World(gravity=(1.0, -3.0), substeps=2)
    duplicate = pickle.loads(pickle.dumps(w, protocol=pickle.HIGHEST_PROTOCOL))
    assert duplicate.gravity == (1.0, -3.0)
    assert duplicate.settings == w.settings


def damaged_snapshots(data):
    yield "empty", b""
    yield "garbage", b"not a snapshot at all"
    yield "truncated", data[:-5]
    yield "header only", data[:16]
    yield "extended", data + b"\x00"
    for where in (0, 8, 16, len(data) // 2, len(data) - 1):
        flipped = bytearray(data)
        flipped[where] ^= 0x5A
        yield f"flip at {where}", bytes(flipped)


def test_damaged_snapshot_bytes_raise_world_error(busy_run):
    data, _ = busy_run
    target = lamina.World()
    add_box(target, (0.0, 2.0))
    kept = target.snapshot()
    for name, bad in damaged_snapshots(data):
        with pytest.raises(lamina.WorldError, match="snapshot"):
            lamina.World.restore(bad)
        # Unpickling goes through __setstate__, which refuses the same bytes and keeps the world.
        with pytest.raises(lamina.WorldError, match="snapshot"):
            target.__setstate__(bad)
        assert target.snapshot() == kept, name


def test_restore_wants_bytes():
    with pytest.raises(TypeError):
        lamina.World.restore("LAMINA")


def test_same_pyramid_gives_the_same_hash_on_one_and_two_threads(restore_threads):
    hashes = []
    for threads in (1, 2, 1):
        lamina.set_num_threads(threads)
        assert lamina.num_threads() == threads
        w = build_pyramid(20)
        assert w.body_count == 211
        ball = add_ball(w, (-25.0, 3.0), radius=1.0, density=5.0)
        ball.linear_velocity = (20.0, 0.0)
        for _ in range(200):
            w.step(DT)
        hashes.append((w.state_hash(), state_bytes(w)))
    assert hashes[0] == hashes[1] == hashes[2]


def test_two_worlds_built_alike_step_alike():
    first, second = busy_world(), busy_world()
    assert state_bytes(first) == state_bytes(second)
    assert first.snapshot() != second.snapshot(), "two worlds, two tags"
    for _ in range(30):
        first.step(DT)
        second.step(DT)
    assert first.state_hash() == second.state_hash()
    second.bodies()[3].apply_impulse((1e-3, 0.0))
    second.step(DT)
    first.step(DT)
    assert first.state_hash() != second.state_hash()


def test_a_scene_of_a_world_and_its_handles_pickles_and_deep_copies_whole():
    # The handles of a copied structure name the same parts of the copied world.
    w = lamina.World()
    ground = w.add_body("fixed")
    w.add_collider(ground, lamina.Box(10.0, 0.5))
    box = w.add_body("dynamic", position=(0.0, 3.0))
    collider = w.add_collider(box, lamina.Box(0.5, 0.5))
    hinge = w.add_revolute_joint(ground, box, anchor=(0.0, 3.0))
    scene = {"world": w, "box": box, "collider": collider, "hinge": hinge}
    for copied in (pickle.loads(pickle.dumps(scene)), copy.deepcopy(scene)):
        assert copied["world"] is not w
        assert copied["box"].world is copied["world"]
        assert copied["box"] != box
        assert copied["box"] in copied["world"].bodies()
        assert copied["collider"].body == copied["box"]
        assert copied["hinge"].body_b == copied["box"]
        copied["world"].step(1 / 60)
    w.step(1 / 60)
    assert copied["world"].state_hash() == w.state_hash()
