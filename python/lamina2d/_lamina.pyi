"""Type stubs of the compiled module ``lamina2d._lamina`` (re-exported by ``lamina2d``)."""

from typing import Optional, Sequence

import numpy as np
import numpy.typing as npt

Vec = tuple[float, float]

class WorldError(ValueError):
    """A call was refused because of a bad value (named in the message); the world is unchanged."""

def set_num_threads(threads: int) -> None:
    """Sets how many threads Lamina steps worlds and vector environments on (0: one per core)."""

def num_threads() -> int:
    """How many threads Lamina's pool has."""

class Shape:
    """A collision shape in its own frame; use a subclass to make one."""

    @property
    def area(self) -> float: ...
    def mass_properties(self, density: float) -> tuple[float, Vec, float]:
        """``(mass, local centre of mass, inertia about it)`` at ``density`` kg/m²."""
    def bounds(self, position: Vec = (0.0, 0.0), angle: float = 0.0) -> tuple[Vec, Vec]: ...
    def contains(self, point: Vec, position: Vec = (0.0, 0.0), angle: float = 0.0) -> bool: ...

class Circle(Shape):
    def __init__(self, radius: float) -> None: ...
    @property
    def radius(self) -> float: ...

class Box(Shape):
    def __init__(self, half_width: float, half_height: float, radius: float = 0.0) -> None: ...
    @property
    def half_extents(self) -> Vec: ...

class Polygon(Shape):
    def __init__(self, points: Sequence[Vec], radius: float = 0.0) -> None: ...
    @property
    def vertices(self) -> list[Vec]: ...

class Capsule(Shape):
    def __init__(self, p1: Vec, p2: Vec, radius: float) -> None: ...

class Segment(Shape):
    def __init__(self, p1: Vec, p2: Vec) -> None: ...

class Ellipse(Shape):
    def __init__(self, rx: float, ry: float) -> None: ...

class Body:
    """One body of a world, made by ``World.add_body``."""

    position: Vec
    angle: float
    linear_velocity: Vec
    angular_velocity: float
    user_data: int
    @property
    def center_of_mass(self) -> Vec: ...
    @property
    def local_center_of_mass(self) -> Vec: ...
    @property
    def mass(self) -> float: ...
    @property
    def inertia(self) -> float: ...
    @property
    def kind(self) -> str: ...
    @property
    def is_awake(self) -> bool: ...
    @property
    def is_bullet(self) -> bool: ...
    @property
    def is_valid(self) -> bool: ...
    @property
    def world(self) -> World: ...
    @property
    def colliders(self) -> list[Collider]: ...
    @property
    def joints(self) -> list[Joint]: ...
    def velocity_at(self, point: Vec) -> Vec: ...
    def world_point(self, local: Vec) -> Vec: ...
    def local_point(self, world_point: Vec) -> Vec: ...
    def apply_force(self, force: Vec, point: Optional[Vec] = None) -> None: ...
    def apply_torque(self, torque: float) -> None: ...
    def apply_impulse(self, impulse: Vec, point: Optional[Vec] = None) -> None: ...
    def wake(self) -> None: ...

class Collider:
    """One collider of a world, made by ``World.add_collider``."""

    @property
    def body(self) -> Body: ...
    @property
    def shape(self) -> Shape: ...
    @property
    def density(self) -> float: ...
    @property
    def friction(self) -> float: ...
    @property
    def restitution(self) -> float: ...
    @property
    def tangent_speed(self) -> float:
        """The surface's speed along itself, m/s: a conveyor belt (to the right along a top face)."""
    @property
    def rolling_resistance(self) -> float: ...
    @property
    def is_sensor(self) -> bool: ...
    @property
    def filter(self) -> tuple[int, int, int]: ...
    @property
    def local_pose(self) -> tuple[Vec, float]: ...
    @property
    def bounds(self) -> tuple[Vec, Vec]: ...
    @property
    def user_data(self) -> int: ...
    @property
    def is_valid(self) -> bool: ...

class Joint:
    """One joint of a world, made by one of ``World.add_*_joint``."""

    @property
    def kind(self) -> str: ...
    @property
    def body_a(self) -> Optional[Body]: ...
    @property
    def body_b(self) -> Body: ...
    @property
    def constraint_force(self) -> Vec: ...
    @property
    def constraint_torque(self) -> float: ...
    @property
    def angle(self) -> float: ...
    @property
    def angular_speed(self) -> float: ...
    @property
    def translation(self) -> float: ...
    @property
    def linear_speed(self) -> float: ...
    @property
    def target(self) -> Vec: ...
    @property
    def is_valid(self) -> bool: ...
    def set_motor_speed(self, speed: float) -> None: ...
    def set_motor(self, speed: float, max: float) -> None: ...
    def set_limits(self, lower: float, upper: float) -> None: ...
    def set_spring(self, hertz: float, damping_ratio: float) -> None: ...
    def set_max_force(self, force: float) -> None: ...
    def set_target(self, target: Vec) -> None: ...

class RayHit:
    body: Body
    collider: Collider
    point: Vec
    normal: Vec
    fraction: float

class ShapeHit:
    body: Body
    collider: Collider
    point: Vec
    normal: Vec
    fraction: float

class CollisionPlane:
    """A plane a mover's displacement ``d`` must end clear of: ``normal · d − offset ≥ 0``.

    Every attribute is checked when set; ``solve_planes`` writes ``push`` in place.
    """

    normal: Vec
    offset: float
    push_limit: float
    push: float
    clip_velocity: bool
    collider: Optional[Collider]
    body: Optional[Body]
    point: Vec
    def __init__(
        self, normal: Vec, offset: float, *, push_limit: float = ..., push: float = 0.0,
        clip_velocity: bool = True, collider: Optional[Collider] = None, body: Optional[Body] = None,
        point: Vec = (0.0, 0.0),
    ) -> None: ...
    def separation(self, d: Vec) -> float: ...

class PlaneSolution:
    translation: Vec
    iterations: int

def solve_planes(target_delta: Vec, planes: Sequence[CollisionPlane]) -> PlaneSolution:
    """Bends ``target_delta`` to end outside every plane (``b2SolvePlanes``); sets each plane's ``push``."""

def clip_vector(v: Vec, planes: Sequence[CollisionPlane]) -> Vec:
    """``v`` without its part into the planes that pushed and clip (``b2ClipVector``)."""

class ContactEvent:
    begin: bool
    collider_a: Collider
    collider_b: Collider

class HitEvent:
    collider_a: Collider
    collider_b: Collider
    point: Vec
    normal: Vec
    approach_speed: float

class SensorEvent:
    begin: bool
    sensor: Collider
    visitor: Collider

class Contact:
    collider_a: Collider
    collider_b: Collider
    body_a: Body
    body_b: Body
    normal: Vec
    points: list[tuple[Vec, float, float, float]]

class World:
    """A physics world: ``World(gravity=(0.0, -10.0), substeps=4, ...)``."""

    gravity: Vec
    def __init__(
        self,
        gravity: Vec = (0.0, -10.0),
        *,
        substeps: int = ...,
        contact_hertz: float = ...,
        contact_damping_ratio: float = ...,
        contact_push_max_velocity: float = ...,
        joint_hertz: float = ...,
        joint_damping_ratio: float = ...,
        restitution_threshold: float = ...,
        speculative_distance: float = ...,
        sleep_linear_velocity: float = ...,
        time_to_sleep: float = ...,
        max_linear_speed: float = ...,
        hit_event_threshold: float = ...,
        enable_sleep: bool = ...,
        enable_warm_starting: bool = ...,
        enable_continuous: bool = ...,
        keep_events: bool = ...,
    ) -> None: ...
    def step(self, dt: float) -> None: ...
    @property
    def settings(self) -> dict: ...
    def configure(self, **settings: object) -> None: ...
    @property
    def body_count(self) -> int: ...
    @property
    def joint_count(self) -> int: ...
    def state_hash(self) -> int: ...
    def wake_all(self) -> None: ...
    def snapshot(self) -> bytes: ...
    @staticmethod
    def restore(data: bytes) -> World: ...
    def add_body(
        self,
        kind: str = "dynamic",
        position: Vec = (0.0, 0.0),
        angle: float = 0.0,
        *,
        linear_velocity: Vec = (0.0, 0.0),
        angular_velocity: float = 0.0,
        bullet: bool = False,
        linear_damping: float = 0.0,
        angular_damping: float = 0.0,
        gravity_scale: float = 1.0,
        fixed_rotation: bool = False,
        can_sleep: bool = True,
        awake: bool = True,
        user_data: int = 0,
    ) -> Body: ...
    def remove_body(self, body: Body) -> None: ...
    def bodies(self) -> list[Body]: ...
    def add_collider(
        self,
        body: Body,
        shape: Shape,
        density: float = 1.0,
        friction: float = 0.6,
        restitution: float = 0.0,
        *,
        sensor: bool = False,
        local_position: Vec = (0.0, 0.0),
        local_angle: float = 0.0,
        category: int = 1,
        mask: int = 0xFFFFFFFF,
        group: int = 0,
        user_data: int = 0,
        tangent_speed: float = 0.0,
        rolling_resistance: float = 0.0,
    ) -> Collider: ...
    def remove_collider(self, collider: Collider) -> None: ...
    def colliders(self) -> list[Collider]: ...
    def add_revolute_joint(
        self, a: Body, b: Body, anchor: Vec, *, lower: Optional[float] = None, upper: Optional[float] = None,
        motor_speed: Optional[float] = None, max_motor_torque: Optional[float] = None,
        hertz: Optional[float] = None, damping_ratio: Optional[float] = None, collide_connected: bool = False,
    ) -> Joint: ...
    def add_prismatic_joint(
        self, a: Body, b: Body, anchor: Vec, axis: Vec, *, lower: Optional[float] = None,
        upper: Optional[float] = None, motor_speed: Optional[float] = None,
        max_motor_force: Optional[float] = None, hertz: Optional[float] = None,
        damping_ratio: Optional[float] = None, collide_connected: bool = False,
    ) -> Joint: ...
    def add_weld_joint(
        self, a: Body, b: Body, anchor: Vec, *, hertz: Optional[float] = None,
        damping_ratio: Optional[float] = None, collide_connected: bool = False,
    ) -> Joint: ...
    def add_distance_joint(
        self, a: Body, b: Body, anchor_a: Vec, anchor_b: Vec, *, lower: Optional[float] = None,
        upper: Optional[float] = None, motor_speed: Optional[float] = None,
        max_motor_force: Optional[float] = None, hertz: Optional[float] = None,
        damping_ratio: Optional[float] = None, collide_connected: bool = False,
    ) -> Joint: ...
    def add_wheel_joint(
        self, a: Body, b: Body, anchor: Vec, axis: Vec, *, lower: Optional[float] = None,
        upper: Optional[float] = None, motor_speed: Optional[float] = None,
        max_motor_torque: Optional[float] = None, hertz: Optional[float] = None,
        damping_ratio: Optional[float] = None, collide_connected: bool = False,
    ) -> Joint: ...
    def add_motor_joint(
        self, a: Body, b: Body, *, max_force: Optional[float] = None, max_torque: Optional[float] = None,
        collide_connected: bool = False,
    ) -> Joint: ...
    def add_mouse_joint(
        self, body: Body, target: Vec, *, max_force: Optional[float] = None, hertz: Optional[float] = None,
        damping_ratio: Optional[float] = None,
    ) -> Joint: ...
    def remove_joint(self, joint: Joint) -> None: ...
    def joints(self) -> list[Joint]: ...
    def cast_ray(
        self, origin: Vec, translation: Vec, *, exclude_body: Optional[Body] = None,
        exclude_sensors: bool = False, category: Optional[int] = None, mask: Optional[int] = None,
    ) -> Optional[RayHit]: ...
    def cast_ray_all(
        self, origin: Vec, translation: Vec, *, exclude_body: Optional[Body] = None,
        exclude_sensors: bool = False, category: Optional[int] = None, mask: Optional[int] = None,
    ) -> list[RayHit]: ...
    def query_aabb(
        self, lower: Vec, upper: Vec, *, exclude_body: Optional[Body] = None, exclude_sensors: bool = False,
        category: Optional[int] = None, mask: Optional[int] = None,
    ) -> list[Collider]: ...
    def query_point(
        self, point: Vec, *, exclude_body: Optional[Body] = None, exclude_sensors: bool = False,
        category: Optional[int] = None, mask: Optional[int] = None,
    ) -> list[Collider]: ...
    def overlap_shape(
        self, shape: Shape, position: Vec = (0.0, 0.0), angle: float = 0.0, *,
        exclude_body: Optional[Body] = None, exclude_sensors: bool = False,
        category: Optional[int] = None, mask: Optional[int] = None,
    ) -> list[Collider]: ...
    def cast_shape(
        self, shape: Shape, position: Vec, angle: float, translation: Vec, *,
        exclude_body: Optional[Body] = None, exclude_sensors: bool = False,
        category: Optional[int] = None, mask: Optional[int] = None,
    ) -> Optional[ShapeHit]: ...
    def explode(
        self, position: Vec, radius: float, *, falloff: float = 0.0, impulse_per_length: float = 0.0,
        mask: int = 0xFFFFFFFF,
    ) -> None: ...
    def cast_mover(
        self, mover: Shape, translation: Vec, *, position: Vec = (0.0, 0.0), exclude_body: Optional[Body] = None,
        category: Optional[int] = None, mask: Optional[int] = None,
    ) -> float:
        """The fraction of ``translation`` a ``Capsule`` or ``Circle`` placed at ``position`` can travel."""
    def collide_mover(
        self, mover: Shape, *, position: Vec = (0.0, 0.0), exclude_body: Optional[Body] = None,
        category: Optional[int] = None, mask: Optional[int] = None,
    ) -> list[CollisionPlane]: ...
    def contact_events(self) -> list[ContactEvent]: ...
    def hit_events(self) -> list[HitEvent]: ...
    def sensor_events(self) -> list[SensorEvent]: ...
    def clear_events(self) -> None: ...
    def contacts(self, body: Optional[Body] = None) -> list[Contact]: ...
    def positions(self, bodies: Optional[Sequence[Body]] = None) -> npt.NDArray[np.float32]: ...
    def angles(self, bodies: Optional[Sequence[Body]] = None) -> npt.NDArray[np.float32]: ...
    def velocities(self, bodies: Optional[Sequence[Body]] = None) -> npt.NDArray[np.float32]: ...
    def set_positions(self, positions: npt.ArrayLike, bodies: Optional[Sequence[Body]] = None) -> None: ...
    def set_angles(self, angles: npt.ArrayLike, bodies: Optional[Sequence[Body]] = None) -> None: ...
    def set_velocities(self, velocities: npt.ArrayLike, bodies: Optional[Sequence[Body]] = None) -> None: ...
    def render(
        self, width: int = 640, height: int = 480, center: Vec = (0.0, 0.0), scale: float = 20.0
    ) -> npt.NDArray[np.uint8]:
        """A ``(height, width, 3)`` RGB picture: ``scale`` pixels per metre, ``center`` in the middle."""

# The environments' native cores (wrapped by ``lamina2d.envs``).

F32 = npt.NDArray[np.float32]

class LunarLanderCore:
    def __init__(
        self, continuous: bool = False, gravity: float = -10.0, enable_wind: bool = False,
        wind_power: float = 15.0, turbulence_power: float = 1.5, particles: bool = False,
    ) -> None: ...
    def reset(self, seed: int) -> F32: ...
    def step(self, action: object) -> tuple[F32, float, bool]: ...
    def render(self) -> npt.NDArray[np.uint8]: ...
    @property
    def leg_contacts(self) -> tuple[bool, bool]: ...
    @property
    def continuous(self) -> bool: ...

class LunarLanderBatch:
    def __init__(
        self, num_envs: int, max_episode_steps: int = 1000, continuous: bool = False, gravity: float = -10.0,
        enable_wind: bool = False, wind_power: float = 15.0, turbulence_power: float = 1.5,
        particles: bool = False,
    ) -> None: ...
    def reset(self, seeds: npt.NDArray[np.uint64], observations: F32) -> None: ...
    def step(
        self, actions: F32, reset_seeds: npt.NDArray[np.uint64], observations: F32,
        rewards: npt.NDArray[np.float64], terminated: npt.NDArray[np.bool_], truncated: npt.NDArray[np.bool_],
    ) -> None: ...
    def render(self, index: int) -> npt.NDArray[np.uint8]: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def action_len(self) -> int: ...

class BipedalWalkerCore:
    def __init__(self, hardcore: bool = False) -> None: ...
    def reset(self, seed: int) -> F32: ...
    def step(self, action: object) -> tuple[F32, float, bool]: ...
    def render(self) -> npt.NDArray[np.uint8]: ...
    def hull_position(self) -> Vec: ...
    @property
    def hardcore(self) -> bool: ...

class BipedalWalkerBatch:
    def __init__(self, num_envs: int, max_episode_steps: int, hardcore: bool = False) -> None: ...
    def __len__(self) -> int: ...
    def reset(self, seeds: npt.NDArray[np.uint64], observations: F32) -> None: ...
    def step(
        self, actions: F32, reset_seeds: npt.NDArray[np.uint64], observations: F32,
        rewards: npt.NDArray[np.float64], terminated: npt.NDArray[np.bool_], truncated: npt.NDArray[np.bool_],
    ) -> None: ...
    def render(self, index: int) -> npt.NDArray[np.uint8]: ...
    def hull_position(self, index: int) -> Vec: ...
